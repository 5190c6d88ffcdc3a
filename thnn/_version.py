"""The version of thnn and nn_legacy (one number for the one package; pyproject.toml reads it from here)."""
__version__ = "0.1.0"

"""ONNX export: ``nn_legacy.onnx.export(model, example_input, f)``, and the
command line ``python -m nn_legacy.onnx IN OUT.onnx --input-shape ...``
(this package's ``__main__``), which converts a Torch7 or nn_legacy file.

    exporter.py   the graph builder, ``export``, ``support`` and ``support_table``
    __main__.py   the command line

Each layer describes itself in its own ``_onnx`` method; what such a method
needs from the exporter (``NotExportable``, the element type numbers) lives
below the layers, in ``nn_legacy._helpers.onnx_types``, so that no layer
imports this package.  The onnx package itself is imported only when
exporting.  See docs/contributing/architecture.md.
"""
from .exporter import (DEFAULT_OPSET, INSTALL_HINT, MIN_OPSET, ExportError, Graph, NotExportable, StaticBatchWarning,
                       Value, export, support, support_table)

__all__ = ["DEFAULT_OPSET", "INSTALL_HINT", "MIN_OPSET", "ExportError", "Graph", "NotExportable",
           "StaticBatchWarning", "Value", "export", "support", "support_table"]

"""Old module paths of nn_legacy (before the subsystems became subpackages,
see CHANGELOG.md) and where they went.

``MOVED`` paths keep working: importing ``nn_legacy.t7`` gives the module
``nn_legacy.serialization.t7`` itself (same object, same names), and
``python -m nn_legacy.convert`` runs the ONNX command line, now
``python -m nn_legacy.onnx``.  ``nn_legacy.convert`` cannot be a file any
more: ``convert.py`` beside ``Convert.py`` (the layer) is one file on a
case-insensitive file system.

``GONE`` paths were private helpers: importing one raises an ImportError
that names its new place.
"""
import importlib
import sys

MOVED = {
    "nn_legacy.t7": "nn_legacy.serialization.t7",
    "nn_legacy.registry": "nn_legacy.serialization.registry",
    "nn_legacy.convert": "nn_legacy.onnx.__main__",
}

GONE = {f"nn_legacy._{name}": f"nn_legacy._helpers.{name}" for name in (
    "arrays", "backend", "batches", "checks", "namespace", "planes", "pooling", "progress", "random", "resampling",
    "spatial", "threads", "volumetric")}
GONE.update({f"nn_legacy._{name}": f"nn_legacy._bases.{name}" for name in (
    "connection_map", "dims", "local_mean", "numpy_criterion", "plane_dropout", "pointwise", "pointwise_criterion",
    "recurrent", "rnn_t7", "seqrnn", "softmax", "tables")})
GONE.update({"nn_legacy._t7_backends": "nn_legacy.serialization.t7_translations",
             "nn_legacy._distributed_demo": "nn_legacy.demos.distributed",
             "nn_legacy._catalogue": "nn_legacy.demos.catalogue"})

# what ``python -m nn_legacy.convert`` runs: the new module, as __main__ would
_RUN_MAIN = "import sys\nfrom {target} import main\nsys.exit(main())\n"


class _OldPaths:
    """A meta path finder and loader (importlib.abc.MetaPathFinder and Loader,
    by their methods: the abc module is not imported for it) that finds only the
    names of MOVED and GONE; every other import goes on to the next finder."""

    def __init__(self):
        self._specs = {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname in GONE:
            raise ModuleNotFoundError(f"{fullname} was moved to {GONE[fullname]} (a private module: its names "
                                      f"may change; see CHANGELOG.md)", name=fullname)
        if fullname in MOVED:
            import importlib.util
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        module = importlib.import_module(MOVED[spec.name])
        self._specs[spec.name] = module.__spec__
        return module   # the import system then files this one object under the old name too

    def exec_module(self, module):
        # the import system stamped the old name's spec on the shared module: give it back its own
        module.__spec__ = self._specs.pop(module.__spec__.name, module.__spec__)

    def get_code(self, fullname):
        """For ``python -m <old name>`` (runpy asks the loader for code)."""
        return compile(_RUN_MAIN.format(target=MOVED[fullname]), f"<{fullname}: moved to {MOVED[fullname]}>",
                       "exec")

    def is_package(self, fullname):
        return False


def install(package):
    """Put the finder first on sys.meta_path, once."""
    if not any(isinstance(finder, _OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldPaths())

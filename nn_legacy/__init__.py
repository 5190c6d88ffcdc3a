"""nn_legacy: the torch.legacy.nn API over the thnn kernels.

Modules hold their parameters and their output/gradInput buffers as numpy
arrays; there is no autograd: forward and backward are explicit, and
containers such as Sequential chain them.  Class targets, indices and dims
are 0-based.

    import numpy as np, nn_legacy as nn
    model = nn.Sequential().add(nn.Linear(64, 32)).add(nn.Tanh()).add(nn.Linear(32, 10))
    loss = nn.CrossEntropyCriterion()
    out = model.forward(x)                      # x: float64 [batch, 64]
    l = loss.forward(out, y)                    # y: int [batch], 0-based
    model.zeroGradParameters()
    model.backward(x, loss.backward(out, y))
    model.updateParameters(0.1)

Where the classes come from: every file ``nn_legacy/<Name>.py`` whose name
starts with a capital letter (or is ``gModule.py``, nngraph's lower-case
class) holds the public class ``<Name>`` (a module, a
criterion, a container, or ``StochasticGradient``), and the package imports
each such file, in name order, and binds its class as ``nn_legacy.<Name>``:
adding a layer is adding its file, with no line here.  A capitalised file
without the class of its name fails the import, naming the file.  The
folders beside the layers are what is not a layer: ``_helpers`` (private
helpers below Module and Criterion: checks, array and device tools),
``_bases`` (private base classes that layers share), and the subsystems that use layers: ``serialization`` (Torch7 reader,
nn_legacy's own format, the class registry), ``onnx`` (exporter, and its
command line as ``python -m nn_legacy.onnx``), ``optim``, ``distributed``,
``demos``; ``jacobian`` is the gradient checker; ``fold`` folds
evaluation-mode batch normalization into the layer before it.  The layering and its
rules (checked by import-linter in CI) are in
docs/contributing/architecture.md.

Reading the code, or in an IDE: ``nn_legacy.X`` is defined in
``nn_legacy/X.py`` (go to that file; tools that only read the source do not
follow the loop below).  ``python -m nn_legacy --layers`` lists every class
with its one-line summary, whether it runs on a CUDA device and whether it
exports to ONNX; ``nn_legacy.__all__`` names them.
"""
import importlib as _importlib
import os as _os

from thnn._version import __version__

from . import jacobian
from ._helpers.namespace import array_namespace
from ._helpers.random import getRNGState, manualSeed, setRNGState
from ._helpers.habits import Torch7HabitWarning
from ._helpers.moved import install as _install_moved_modules
from .serialization import FormatError, load, load_lua, register_class, save, save_lua
from .Module import Module
from .Criterion import Criterion

_install_moved_modules(__name__)


def __getattr__(name):
    """``nn_legacy.t7``, ``nn_legacy.registry``, ``nn_legacy.convert``: the
    modules' old places (see nn_legacy/_helpers/moved.py), imported on first use."""
    from ._helpers.moved import MOVED
    if f"{__name__}.{name}" in MOVED:
        return _importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _class_files():
    """The capitalised module files of the package, in name order."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    return sorted(name[:-3] for name in _os.listdir(here)
                  if name.endswith(".py") and (name[:1].isupper() or name[:-3] in _LOWER_CASE_CLASSES))


# Torch7 classes whose name starts lower-case (nngraph's gModule), each in the file of its name
_LOWER_CASE_CLASSES = ("gModule",)


def _import_classes():
    for name in _class_files():
        module = _importlib.import_module(f".{name}", __name__)
        cls = getattr(module, name, None)
        if not isinstance(cls, type):
            raise ImportError(f"nn_legacy/{name}.py must define the class {name} (a capitalised file of nn_legacy "
                              f"holds the public class of its name; helpers go in files named _like_this.py)")
        globals()[name] = cls


_import_classes()

__all__ = ["__version__", "jacobian", "manualSeed", "getRNGState", "setRNGState", "load_lua", "save_lua", "save", "load",
           "FormatError", "Torch7HabitWarning", "register_class", "array_namespace"] + sorted(
    name for name, value in dict(globals()).items()
    if isinstance(value, type) and issubclass(value, (Module, Criterion)))

# ==== optimisation and training ====
from . import optim  # noqa: E402
from ._helpers.batches import minibatches  # noqa: E402

__all__ += ["optim", "minibatches", "StochasticGradient"]
# ==== end of optimisation and training ====

# ==== inference: batch normalization folded into the layer before it, frozen parameters ====
from .fold import fold_batchnorm, freeze  # noqa: E402

__all__ += ["fold_batchnorm", "freeze"]
# ==== end of inference ====

# ==== ONNX export (nn_legacy.onnx.export; the onnx package is needed only when exporting) ====
from . import onnx  # noqa: E402,F401
# ==== end of ONNX export ====

"""Text from character-level language model checkpoints: the library behind
``python -m nn_legacy.sample`` (the command line is in ``__main__.py``).

A checkpoint is what ``load_lua`` gives for the file; the backend that
samples it is picked by what it holds.  Backends register themselves::

    from nn_legacy.sample import register_backend

    register_backend("char-rnn", claims, generate)

- ``claims(checkpoint) -> bool``: whether the backend takes this loaded
  checkpoint (a dict, or a bare module), by what it holds: torch-rnn's is
  ``{model = nn.LanguageModel, opt, i, ...}``, char-rnn's ``{protos =
  {rnn, criterion}, opt, vocab, ...}``;
- ``generate(checkpoint, options) -> bytes``: the text (``options`` is a
  :class:`Options`); messages go through ``options.log`` (stderr on the
  command line), never into the text;
- ``describe(checkpoint) -> str`` (optional): one line naming the model.

The first registered backend that claims a checkpoint samples it.  Built
in: ``torch-rnn`` (nn_legacy/sample/torch_rnn.py) and ``char-rnn``
(nn_legacy/sample/char_rnn.py).  A checkpoint no backend claims gets
:class:`SampleError` naming what it holds.
"""
import dataclasses
from typing import Callable, Optional

import numpy as np


class SampleError(Exception):
    """The checkpoint cannot be sampled (no backend claims it, or the options do not fit it)."""


@dataclasses.dataclass
class Options:
    """What to generate: ``length`` tokens (torch-rnn: in all, the start
    text's included; char-rnn: after the start text, as its sample.lua
    counted), starting with ``start_text``; ``sample`` 1 draws each next
    token from softmax(scores / ``temperature``) with ``rng``, 0 takes the
    argmax (greedy); ``gpu`` >= 0 runs the model on the CUDA device;
    ``log(message)`` reports progress (``verbose``)."""
    length: int = 2000
    start_text: str = ""
    sample: int = 1
    temperature: float = 1.0
    rng: np.random.Generator = dataclasses.field(default_factory=np.random.default_rng)
    gpu: int = -1
    verbose: bool = False
    log: Callable[[str], None] = lambda message: None


@dataclasses.dataclass
class Backend:
    name: str
    claims: Callable[[object], bool]
    generate: Callable[[object, Options], bytes]
    describe: Optional[Callable[[object], str]] = None


_BACKENDS = []


def place(model, options):
    """Move model to the GPU that options.gpu names (>= 0), as the Lua
    samplers' -gpu did; say where it runs."""
    if options.gpu >= 0:
        from thnn import cuda
        reason = cuda.gpu_unavailable_reason()
        if reason is not None:
            raise SampleError(f"-gpu {options.gpu}: no CUDA device ({reason}); -gpu -1 runs on the CPU")
        model.cuda(cuda.gpu())
        options.log(f"Running with CUDA on GPU {options.gpu}")
    elif options.verbose:
        options.log("Running in CPU mode")


def register_backend(name, claims, generate, describe=None):
    """Add a backend (see the module docstring); a name registered again
    replaces the earlier backend in its place."""
    backend = Backend(name, claims, generate, describe)
    for k, old in enumerate(_BACKENDS):
        if old.name == name:
            _BACKENDS[k] = backend
            return backend
    _BACKENDS.append(backend)
    return backend


def unregister_backend(name):
    """Remove a backend (KeyError if none has that name)."""
    for k, old in enumerate(_BACKENDS):
        if old.name == name:
            del _BACKENDS[k]
            return
    raise KeyError(name)


def backends():
    """The registered backends, in the order they are asked."""
    return list(_BACKENDS)


def _held(checkpoint):
    if isinstance(checkpoint, dict):
        return f"a table of {', '.join(sorted(map(str, checkpoint))) or 'nothing'}"
    return f"a {type(checkpoint).__name__}"


def backend_for(checkpoint):
    """The backend that samples this loaded checkpoint (SampleError if none)."""
    for backend in _BACKENDS:
        if backend.claims(checkpoint):
            return backend
    hint = ""
    if isinstance(checkpoint, dict) and "protos" in checkpoint and "vocab" in checkpoint:
        hint = "; it looks like a char-rnn checkpoint (protos, vocab), but the char-rnn backend is not registered"
    raise SampleError(f"no sampling backend takes this checkpoint: it holds {_held(checkpoint)} (known: "
                      f"{', '.join(b.name for b in _BACKENDS)}){hint}")


def load_checkpoint(path):
    """The checkpoint file read with load_lua (Lua functions in it skipped silently)."""
    import warnings

    from ..serialization import T7Warning, load_lua
    from ..serialization.t7 import TrainingModeWarning
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", T7Warning)
        warnings.simplefilter("ignore", TrainingModeWarning)   # sampling puts the model in evaluation mode
        return load_lua(path)


def generate(checkpoint, options=None, **settings):
    """The text (bytes) a loaded checkpoint generates: Options given, or
    built from keyword settings (``length=200, start_text="The",
    temperature=0.8, rng=np.random.default_rng(1)``)."""
    if options is None:
        options = Options(**settings)
    elif settings:
        options = dataclasses.replace(options, **settings)
    return backend_for(checkpoint).generate(checkpoint, options)


# ---- the built-in backends ----
from . import char_rnn as _char_rnn  # noqa: E402
from . import torch_rnn as _torch_rnn  # noqa: E402

register_backend("torch-rnn", _torch_rnn.claims, _torch_rnn.generate, _torch_rnn.describe)
register_backend("char-rnn", _char_rnn.claims, _char_rnn.generate, _char_rnn.describe)

"""One module, one thread at a time.

A module's verbs write into arrays the module owns (output, gradInput,
work buffers, accumulated gradients), and the kernels run without the GIL.
Two threads running verbs of the same module at once would write the same
arrays at the same time, so the second one is refused: it raises a
RuntimeError naming the module, the verbs and the threads, and touches
nothing.  A container's verbs call its children's, so a container in use
also holds every module inside it.

Using a module from several threads one after the other is fine, and so are
distinct modules in distinct threads.

The guard does not block (no thread waits for another) and keeps no state
on the module: a registry of the modules in use, keyed by their address,
holds the owning thread and how deep its verbs are nested (forward calls
updateOutput, a container calls its children); the entry goes when the
outermost verb returns or raises.  It is written in C (thnn/_guard.c): a
guarded verb costs about as much as a plain method call.
"""
import threading

from thnn._call import guard as _guard, quiet_verbs

from .arrays import _IGNORE_ALL, _extobj_contextvar

# numpy's floating-point errors ignored while a verb runs (the C guard sets the state on entry to the
# outermost verb): inf and NaN as the arithmetic gives them, without warnings, as in the C kernels and Torch7.
if _extobj_contextvar is not None:
    quiet_verbs(_extobj_contextvar, _IGNORE_ALL)

#: verbs that run kernels or write the module's arrays
VERBS = ("forward", "backward", "backwardUpdate", "updateOutput", "updateGradInput", "accGradParameters",
         "accUpdateGradParameters")


def _refuse(module, verb, owner_id, running):
    """Raise the error for verb called on module while thread owner_id runs its verb running."""
    me = threading.current_thread()
    owner = next((t for t in threading.enumerate() if t.ident == owner_id), None)
    owner_name = owner.name if owner is not None else f"with id {owner_id}"
    raise RuntimeError(
        f"{type(module).__name__}: {verb} called in thread {me.name!r} while {running} runs in thread "
        f"{owner_name!r}; a module (or any module inside a container) may be used by one thread at a "
        "time: give each thread its own copy (module.clone())")


def guard(verb, method):
    """method, refusing to run while another thread runs a verb of the same module."""
    if isinstance(method, _guard):
        return method
    guarded = _guard(verb, method, _refuse)
    for name in ("__module__", "__name__", "__qualname__", "__doc__"):   # as functools.wraps
        if hasattr(method, name):
            setattr(guarded, name, getattr(method, name))
    guarded.__wrapped__ = method
    guarded._thread_guarded = True
    return guarded


def guard_verbs(cls):
    """Wrap the verbs cls itself defines (called for every Module and Criterion class)."""
    for verb in VERBS:
        method = cls.__dict__.get(verb)
        if callable(method):
            setattr(cls, verb, guard(verb, method))

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
on the module: a registry of the modules in use, keyed by id(), holds the
owning thread and how deep its verbs are nested (forward calls
updateOutput, a container calls its children); the entry goes when the
outermost verb returns or raises.
"""
import functools
import threading

#: verbs that run kernels or write the module's arrays
VERBS = ("forward", "backward", "backwardUpdate", "updateOutput", "updateGradInput", "accGradParameters",
         "accUpdateGradParameters")

_lock = threading.Lock()
_in_use = {}     # id(module) -> [owning thread, depth, verb]


def _enter(module, verb):
    me = threading.current_thread()
    with _lock:
        entry = _in_use.get(id(module))
        if entry is None:
            _in_use[id(module)] = [me, 1, verb]
            return
        if entry[0] is me:
            entry[1] += 1
            return
        owner, running = entry[0], entry[2]
    raise RuntimeError(
        f"{type(module).__name__}: {verb} called in thread {me.name!r} while {running} runs in thread "
        f"{owner.name!r}; a module (or any module inside a container) may be used by one thread at a "
        "time: give each thread its own copy (module.clone())")


def _leave(module):
    with _lock:
        entry = _in_use[id(module)]
        entry[1] -= 1
        if entry[1] == 0:
            del _in_use[id(module)]


def guard(verb, method):
    """method, refusing to run while another thread runs a verb of the same module."""
    if getattr(method, "_thread_guarded", False):
        return method

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        _enter(self, verb)
        try:
            return method(self, *args, **kwargs)
        finally:
            _leave(self)
    guarded._thread_guarded = True
    return guarded


def guard_verbs(cls):
    """Wrap the verbs cls itself defines (called for every Module and Criterion class)."""
    for verb in VERBS:
        method = cls.__dict__.get(verb)
        if callable(method):
            setattr(cls, verb, guard(verb, method))

"""Your own module classes in model files: one registry for ``load_lua``,
``save`` and ``load``.

Loading a file never runs code from it, so a loader builds only classes it
was told about: nn_legacy's own, and those registered here (or passed for
one call as ``classes={...}``)::

    import nn_legacy as nn

    @nn.register_class                  # its Torch7 name is "nn.MyLayer"
    class MyLayer(nn.Module):
        ...

    @nn.register_class("nnx.Scale")     # a Torch7 class of another package
    class Scale(nn.Module):
        ...

    net = nn.load_lua("model.t7")       # the file's nn.MyLayer objects are MyLayers
    nn.save(net, "model.thnn")          # a MyLayer is saved under "nn.MyLayer"
    net = nn.load("model.thnn")         # ... and comes back as a MyLayer

    # for one call only, without registering:
    net = nn.load_lua("model.t7", classes={"nn.MyLayer": MyLayer})

A registered class must derive from ``nn.Module`` or ``nn.Criterion``.
Loaders build it as they build nn_legacy's classes: ``cls.__new__(cls)``
(the constructor is not called), the stored fields become its attributes,
then ``load_lua`` calls ``self._t7_fixup(version)`` when the class defines it
(``version`` is the class version Torch7 wrote, 0 when it wrote none): turn
Lua numbers (floats) into ints there, 1-based indices into 0-based ones, and
fill in fields that older versions of the Lua class did not have.  A class
may also name ``_t7_raw_fields = ("cell", ...)``: those fields reach the
instance as read (``TorchObject`` / ``LuaTable`` trees) for ``_t7_fixup`` to
rebuild from.

A name may be registered again: the latest class wins.  A class registered
under several names is saved under the first.  A registered name may be one
of nn_legacy's own ("nn.Linear"): ``load_lua`` then builds your class for it.
"""
from ..Criterion import Criterion
from ..Module import Module

_REGISTERED = {}   # torch class name -> class


def _check(name, cls):
    if not isinstance(name, str) or "." not in name.strip(".") or not all(
            part.isidentifier() for part in name.split(".")):
        raise ValueError(f"register_class: a class name is a Torch7 class name such as 'nn.MyLayer' "
                         f"(a package, a dot, a name), got {name!r}")
    if not (isinstance(cls, type) and issubclass(cls, (Module, Criterion))):
        raise TypeError(f"register_class: {name} must name a subclass of nn_legacy.Module or "
                        f"nn_legacy.Criterion, got {cls!r}")


def register_class(name=None, cls=None):
    """Register a module class under a Torch7 class name (default
    ``"nn." + cls.__name__``).  Use as a decorator, with or without the name
    (``@register_class``, ``@register_class("nnx.Scale")``), or call it
    (``register_class("nnx.Scale", Scale)``).  Returns the class."""
    if isinstance(name, type):               # @register_class without parentheses
        name, cls = None, name
    if cls is None:
        return lambda c: register_class(name, c)
    name = f"nn.{cls.__name__}" if name is None else name
    _check(name, cls)
    _REGISTERED[name] = cls
    return cls


def unregister_class(name):
    """Forget a registered name (KeyError if it is not registered)."""
    del _REGISTERED[name]


def registered_classes():
    """{Torch7 class name: class} of every registered class (a copy)."""
    return dict(_REGISTERED)


def checked_classes(classes, caller):
    """The classes= argument of a loader, checked, as a dict (empty for None)."""
    if classes is None:
        return {}
    if not isinstance(classes, dict):
        raise TypeError(f"{caller}: classes must be a dict {{'nn.MyLayer': MyLayer, ...}}, "
                        f"got {type(classes).__name__}")
    for name, cls in classes.items():
        _check(name, cls)
    return dict(classes)


def name_of(cls, extra=None):
    """The name a registered class is saved under (classes given for one
    call first, then the registry in order of registration); None if the
    class is not registered."""
    for table in (extra or {}, _REGISTERED):
        for name, registered in table.items():
            if registered is cls:
                return name
    return None

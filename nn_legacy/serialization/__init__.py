"""Loading and saving models: the subsystem behind ``nn_legacy.load_lua``,
``nn_legacy.save`` / ``nn_legacy.load`` and ``nn_legacy.register_class``.

    t7.py               the Torch7 file reader (binary and ASCII) and ``load_lua``,
                        which turns a file's objects into nn_legacy modules
    t7_writer.py        ``save_lua``: writing Torch7 files (torch.save's format)
    t7_translations.py  the tables that map other backends' classes (cunn, cudnn,
                        nngraph, rnn...) onto nn_legacy's
    native.py           nn_legacy's own file format: ``save`` and ``load``
    registry.py         user classes that the loaders may build

It uses the layers (``nn_legacy.Module`` and the classes of nn_legacy/*.py)
and is used by nobody below it: layers read the Lua values they need in
their ``_t7_fixup`` from ``nn_legacy._helpers.lua``.  See
docs/contributing/architecture.md.
"""
from .native import MAGIC, FormatError, load, save
from .registry import register_class
from .t7 import LuaFunction, LuaTable, T7Error, T7Warning, TorchObject, load_lua, read_t7
from .t7_writer import save_lua

__all__ = ["MAGIC", "FormatError", "load", "save", "register_class", "LuaFunction", "LuaTable", "T7Error",
           "T7Warning", "TorchObject", "load_lua", "read_t7", "save_lua"]

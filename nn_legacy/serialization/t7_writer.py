"""Writing Torch7 files (torch.save's format): ``save_lua`` and the
byte-level writer under it.

``save_lua(path, obj)`` writes what Lua Torch7's ``torch.save(path, obj)``
wrote (binary, 8-byte longs): nn_legacy modules and criterions as the nn
class of their name with Torch7's fields, numpy arrays as tensors of their
element type, dicts and lists as tables, and what ``read_t7`` returns
(TorchObject, LuaTable) as it was read.  See :func:`save_lua`.

``t7_bytes(value, ascii=False, long_size=8)`` is the writer itself, which
the tests use to build the exact byte stream a class of a given version
left behind (File.lua's writeObject, Tensor.c / Storage.c's write,
THDiskFile.c), in binary or ASCII, with 8- or 4-byte longs.  Its values:

- None, bool, int / float (a Lua number), str (bytes: a string of those bytes);
- dict -> a Lua table (int keys are written as numbers, as Lua has them);
- numpy array -> a ``torch.DoubleTensor`` of its values (float64), an empty
  array -> an empty tensor as Torch7 wrote it (no dims, no storage);
- :class:`Tensor` / :class:`Storage` -> a tensor or storage of any torch
  class (``Tensor(a, "torch.CudaTensor")``), views of a shared storage;
- :class:`T7Object` -> an instance of a torch class, version ``None`` for
  files from before class versions (no ``"V n"`` line), and a ``header``
  written before the fields (nn.GPU, nn.DataParallelTable);
- :class:`Function` -> a Lua function (some bytes standing for bytecode,
  upvalues): the reader must skip it, never run it;
- :class:`Key` -> a table used as a key of another table.

The same Python object written twice is written once and then referred
to by its index, as Torch7 did for tables, torch objects and functions.
"""
import struct

import numpy as np

from thnn.cuda import CudaTensor

from .._helpers.arrays import to_host

# torch element name -> numpy dtype ("Long" follows long_size)
_ELEMENTS = {"Double": np.float64, "Float": np.float32, "Half": np.float16, "Long": None, "Int": np.int32,
             "Short": np.int16, "Char": np.int8, "Byte": np.uint8}
# the printf format THDiskFile's ASCII mode used for each element type
_ASCII_FORMAT = {"Double": "%.17g", "Float": "%.9g", "Half": "%.9g", "Long": "%d", "Int": "%d", "Short": "%d"}


def element_of(class_name):
    """'torch.CudaTensor' -> 'Float', 'torch.CudaLongStorage' -> 'Long'."""
    name = class_name[len("torch."):]
    for suffix in ("Tensor", "Storage"):
        if name.endswith(suffix):
            name = name[:-len(suffix)]
    if name.startswith("Cuda"):
        name = name[len("Cuda"):] or "Float"
    return name


#: fields of a T7Object whose class writes nothing after its name (torch.Timer)
NO_PAYLOAD = object()


class T7Object:
    """A torch class instance to write: class name, version (None: written
    without a version, as before Torch7 had them), field table (NO_PAYLOAD:
    none), and for the classes that write one, a header object before the
    fields."""

    def __init__(self, class_name, fields, version=1, header=None):
        self.class_name, self.fields, self.version, self.header = class_name, fields, version, header


class Storage:
    """A torch storage of class `cls` holding the values of a 1-D array."""

    def __init__(self, values, cls="torch.DoubleStorage"):
        self.cls = cls
        self.values = np.ravel(np.asarray(values))


class Tensor:
    """A torch tensor of class `cls`: by default a contiguous tensor of
    array's values in a storage of its own; or (sizes, strides, 1-based
    offset) into a given Storage shared with other tensors.  An empty
    array gives Torch7's empty tensor (no dims, no storage)."""

    def __init__(self, array=None, cls="torch.DoubleTensor", storage=None, sizes=None, strides=None, offset=1):
        self.cls = cls
        if array is not None:
            a = np.asarray(array)
            if a.size == 0:
                self.storage, self.sizes, self.strides, self.offset = None, [], [], 1
                return
            storage = Storage(np.ascontiguousarray(a).ravel(), cls.replace("Tensor", "Storage"))
            sizes = list(a.shape)
            strides = [int(np.prod(a.shape[i + 1:])) for i in range(a.ndim)]
        self.storage, self.sizes, self.strides, self.offset = storage, list(sizes or []), list(strides or []), offset


class Key:
    """A table (dict) used as a key of another table, as Lua allows
    (nngraph's graphs do that): ``{Key(node): True}``."""

    def __init__(self, table):
        self.table = table


class Function:
    """A Lua function as Torch7 wrote it: tag 8 (7 for the older upvalue
    layout, 6 for the form with no object index), opaque bytes for the
    bytecode, and upvalues {name: value}."""

    def __init__(self, bytecode=b"\x1bLJ\x01\x00\x09@fake.lua\x00", upvalues=None, tag=8):
        self.bytecode, self.upvalues, self.tag = bytecode, dict(upvalues or {}), tag


class _Out:
    def __init__(self, ascii, long_size):
        self.ascii, self.long_size, self.parts = ascii, long_size, []

    def int(self, v):
        self.parts.append(f"{v}\n".encode() if self.ascii else struct.pack("<i", v))

    def long(self, v):
        if self.ascii:
            self.parts.append(f"{v}\n".encode())
        else:
            self.parts.append(struct.pack("<q" if self.long_size == 8 else "<i", v))

    def longs(self, values):
        if not values:
            return
        if self.ascii:
            self.parts.append((" ".join(str(int(v)) for v in values) + "\n").encode())
        else:
            fmt = "<q" if self.long_size == 8 else "<i"
            self.parts.append(b"".join(struct.pack(fmt, int(v)) for v in values))

    def double(self, v):
        self.parts.append((_c_format("%.17g", v) + "\n").encode() if self.ascii else struct.pack("<d", v))

    def chars(self, raw):
        self.int(len(raw))
        self.parts.append(raw + (b"\n" if self.ascii and raw else b""))

    def values(self, element, values):
        """A storage's n elements (raw bytes for Byte and Char, as Torch7 did)."""
        if element in ("Byte", "Char"):
            raw = np.asarray(values, dtype=_ELEMENTS[element]).tobytes()
            self.parts.append(raw + (b"\n" if self.ascii and raw else b""))
        elif self.ascii:
            if len(values):
                fmt = _ASCII_FORMAT[element]
                self.parts.append((" ".join(_c_format(fmt, v) for v in values) + "\n").encode())
        else:
            dtype = _ELEMENTS[element] or (np.int64 if self.long_size == 8 else np.int32)
            self.parts.append(np.asarray(values, dtype=np.dtype(dtype).newbyteorder("<")).tobytes())


def _c_format(fmt, v):
    """printf's %g / %d as C wrote them (nan and inf included)."""
    v = float(v) if "g" in fmt else int(v)
    if isinstance(v, float) and not np.isfinite(v):
        text = "nan" if np.isnan(v) else "inf"
        return "-" + text if np.signbit(v) else text   # glibc prints a NaN's sign too
    return fmt % v


def t7_bytes(value, ascii=False, long_size=8):
    """The bytes torch.save(value) wrote (binary, or ASCII with ascii=True;
    long_size 4 for a file written on Windows)."""
    out = _Out(ascii, long_size)
    indices = {}
    keep = []

    def reference(obj):
        """Write the object's index; True if it was written before."""
        keep.append(obj)
        if id(obj) in indices:
            out.int(indices[id(obj)])
            return True
        indices[id(obj)] = len(indices) + 1
        out.int(indices[id(obj)])
        return False

    def torch_header(version, class_name):
        if version is not None:
            out.chars(f"V {version}".encode())
        out.chars(class_name.encode())

    def write(v):
        if v is None:
            out.int(0)
        elif isinstance(v, bool):
            out.int(5)
            out.int(int(v))
        elif isinstance(v, (int, float, np.integer, np.floating)):
            out.int(1)
            out.double(float(v))
        elif isinstance(v, (str, bytes)):
            out.int(2)
            out.chars(v.encode() if isinstance(v, str) else v)
        elif isinstance(v, dict):
            out.int(3)
            if not reference(v):
                out.int(len(v))
                for key, item in v.items():
                    write(key)
                    write(item)
        elif isinstance(v, np.ndarray):
            out.int(4)
            if not reference(v):   # as Tensor(v): the same array written again is a reference
                tensor(Tensor(np.asarray(v, dtype=np.float64)))
        elif isinstance(v, Tensor):
            out.int(4)
            if not reference(v):
                tensor(v)
        elif isinstance(v, Storage):
            out.int(4)
            if not reference(v):
                torch_header(1, v.cls)
                out.long(v.values.size)
                out.values(element_of(v.cls), v.values)
        elif isinstance(v, T7Object):
            out.int(4)
            if not reference(v):
                torch_header(v.version, v.class_name)
                if v.header is not None:
                    write(v.header)
                if v.fields is not NO_PAYLOAD:
                    write(v.fields)
        elif isinstance(v, Key):
            write(v.table)
        elif isinstance(v, Function):
            out.int(v.tag)
            if v.tag == 6 or not reference(v):
                out.chars(v.bytecode)
                if v.tag == 8:
                    upvalues = {i + 1: {"name": name, "id": i + 1, "value": value}
                                for i, (name, value) in enumerate(v.upvalues.items())}
                else:
                    upvalues = {i + 1: value for i, value in enumerate(v.upvalues.values())}
                write(upvalues)
        else:
            raise TypeError(f"t7_bytes cannot write {type(v).__name__}")

    def tensor(t):
        torch_header(1, t.cls)
        out.int(len(t.sizes))
        out.longs(t.sizes)
        out.longs(t.strides)
        out.long(t.offset)
        write(t.storage)

    write(value)
    return b"".join(out.parts)


# ---------------------------------------------------------------- save_lua
# numpy element type -> torch's element name
_TORCH_ELEMENT = {np.dtype(np.float64): "Double", np.dtype(np.float32): "Float", np.dtype(np.float16): "Half",
                  np.dtype(np.int64): "Long", np.dtype(np.int32): "Int", np.dtype(np.int16): "Short",
                  np.dtype(np.int8): "Char", np.dtype(np.uint8): "Byte", np.dtype(np.bool_): "Byte"}


# The work fields Torch7's constructors made (torch.Tensor(), a torch.LongStorage...) that the class's Lua
# updateOutput reads before it sets them, and that nn_legacy's modules do not keep (their buffers are their
# own, private): written where the module has no field of that name, so that a forward in Lua does not
# index a nil.  Checked in a real Torch7 with tools/torch7_check.py.  Kinds: "T" an empty tensor of the
# module's type, "LT" an empty LongTensor, "BT" an empty ByteTensor, "LS" an empty LongStorage, ("LS", n) a
# LongStorage of n zeros, ("T", shape) a zero tensor of the module's type, anything else: that value.
_LUA_WORK_FIELDS = {
    "nn.Add": {"_ones": ("T1",)},
    "nn.JoinTable": {"size": "LS"},
    "nn.Concat": {"outputSize": "LS"},
    "nn.DepthConcat": {"outputSize": "LS"},
    "nn.Padding": {"outputSize": "LS"},
    "nn.Reshape": {"batchsize": "LS"},
    "nn.SpatialUpSamplingNearest": {"inputSize": ("LS", 4), "outputSize": ("LS", 4)},
    "nn.SpatialUpSamplingBilinear": {"inputSize": ("LS", 4), "outputSize": ("LS", 4)},
    "nn.UpSampling": {"inputSize": ("LS", 5), "outputSize": ("LS", 5)},
    "nn.CMaxTable": {"maxIdx": "T", "mask": "T", "maxVals": "T", "gradMaxVals": "T"},
    "nn.CMinTable": {"minIdx": "T", "mask": "T", "minVals": "T", "gradMaxVals": "T"},
    "nn.Dropout": {"noise": "T"},
    "nn.SpatialDropout": {"noise": "T"},
    "nn.VolumetricDropout": {"noise": "T"},
    "nn.RReLU": {"noise": "T"},
    "nn.WhiteNoise": {"noise": "T"},
    "nn.PairwiseDistance": {"diff": "T"},
    "nn.MultiLabelMarginCriterion": {"isTarget": "T"},
    "nn.SpatialFullConvolution": {"ones": "T"},
    "nn.VolumetricFullConvolution": {"ones": "T", "finput": "T", "fgradInput": "T"},
    "nn.SpatialMaxPooling": {"indices": "LT"},
    "nn.VolumetricMaxPooling": {"indices": "LT"},
    "nn.MaskedSelect": {"_maskIndices": "LT", "_maskIndexBuffer": "LT", "_gradBuffer": "T", "_gradMask": "BT"},
    "nn.ZipTableOneToMany": {"gradInputEl": "T"},
    "nn.SpatialDivisiveNormalization": {"coef": ("T", (1, 1, 1))},
    "nn.SpatialSubtractiveNormalization": {"coef": ("T", (1, 1, 1))},
    "nn.MixtureTable": {"size": "LS", "size2": "LS"},
    "nn.ClassSimplexCriterion": {"_target": "T"},
    "nn.TanhShrink": {"tanh": lambda fields, empty: _lua_module("Tanh", empty)},
    "nn.MultiLabelSoftMarginCriterion": {"sigmoid": lambda fields, empty: _lua_module("Sigmoid", empty)},
    "nn.LinearWeightNorm": {"norm": lambda fields, empty: np.zeros((len(fields["v"]), 1), empty.dtype),
                            "scale": lambda fields, empty: np.zeros((len(fields["v"]), 1), empty.dtype)},
    "nn.Bottle": {"inShape": lambda fields, empty: np.zeros(int(fields["nInputDim"]), empty.dtype),
                  "outShape": lambda fields, empty: np.zeros(int(fields["nOutputDim"]), empty.dtype),
                  "dimDelta": lambda fields, empty: float(fields["nInputDim"] - fields["nOutputDim"])},
    # torch/rnn's MaskZero masks the output (maskoutput, true by its constructor) with the mask of the input's
    # zero rows only without v2 (its "v1", the Element-Research behaviour nn_legacy has); Element-Research's
    # MaskZero ignores these fields
    "nn.MaskZero": {"maskoutput": True, "maskinput": False, "v2": False},
    # (Lua's Profile times each call with its torch.Timer, which torch.save wrote with no payload, and runs
    # self.module, the alias of modules[1] its constructor kept)
    "nn.Profile": {"timer": lambda fields, empty: T7Object("torch.Timer", NO_PAYLOAD),
                   "module": lambda fields, empty: fields["modules"][0]},
    "nn.CReLU": {"modules": lambda fields, empty: _lua_crelu_modules(fields, empty)},
    "nn.Convert": {"modules": lambda fields, empty: {}},
    "nn.IndexLinear": {"running": lambda fields, empty: {"counter": 1, "keys": {}, "gradWeight": {}, "cumSumSizes": {}},
                       "gradWeight": "T", "sizesCache": lambda fields, empty: {}, "cumSumSizesCache": lambda fields, empty: {},
                       "gradWeightBuffer": "T", "valuesBuffer": "T", "normalizedValues": "T", "weightDecay": 0.0,
                       # (Lua adds it to a 1-based key: row k + keysOffset counted from 0)
                       "offset": lambda fields, empty: float(fields["keysOffset"] - 1)},
    # (the rnn packages' classes, whose fields differ by package: their _t7_rnn_layout)
}


def _lua_module(class_name, empty):
    """A fresh nn_legacy module of that class in the type of `empty` (a helper module Torch7's constructor made)."""
    import importlib
    cls = getattr(importlib.import_module(f"nn_legacy.{class_name}"), class_name)
    return cls().type(empty.dtype)


def _float_leaves(value, depth=0):
    """The float arrays of nested lists / tuples / dicts (a table output's), a few levels deep."""
    if isinstance(value, (np.ndarray, CudaTensor)):
        return [value] if value.dtype.kind == "f" else []
    if depth < 4 and isinstance(value, (list, tuple, dict)):
        items = value.values() if isinstance(value, dict) else value
        return [a for v in items for a in _float_leaves(v, depth + 1)]
    return []


def _lua_crelu_modules(fields, empty):
    """nn.CReLU in Torch7 is a Sequential: ConcatTable(Identity, MulConstant(-1)), JoinTable(2), ReLU(inplace),
    run on the input viewed as [batch, -1]."""
    import importlib

    def make(name, *args):
        return getattr(importlib.import_module(f"nn_legacy.{name}"), name)(*args).type(empty.dtype)
    both = make("ConcatTable").add(make("Identity")).add(make("MulConstant", -1))
    return [both, make("JoinTable", 1), make("ReLU", bool(fields.get("inplace", False)))]


def _lua_convert_fields(fields):
    """dpnn's nn.Convert: what its constructor derived from the two shapes (batch dims counted from 1)."""
    shapes = []
    for key in ("inputShape", "outputShape"):
        shape = fields[key] if "b" in fields[key] else "b" + fields[key]
        fields[key] = shape
        shapes.append(shape)
    fields["inputBatchDim"], fields["outputBatchDim"] = (float(sh.index("b") + 1) for sh in shapes)
    if "b*" in shapes:
        fields["nInputDim"] = fields["nOutputDim"] = -1.0
        fields["transposition"] = True
    else:
        fields["nInputDim"], fields["nOutputDim"] = float(len(shapes[0])), float(len(shapes[1]))
        if len(shapes[0]) == len(shapes[1]):
            fields["transposition"] = all(c in shapes[1] for c in shapes[0])


def _lua_work_fields(name, fields, empty):
    """Add the work fields _LUA_WORK_FIELDS lists for the torch class name that fields lacks; returns the
    names of those to write as a torch.LongStorage."""
    storages = set()
    if name == "nn.Convert" and isinstance(fields.get("inputShape"), str) and isinstance(fields.get("outputShape"), str):
        _lua_convert_fields(fields)
    for key, kind in _LUA_WORK_FIELDS.get(name, {}).items():
        is_storage = kind == "LS" or (isinstance(kind, tuple) and kind[0] == "LS")
        if key in fields:
            if is_storage and isinstance(fields[key], (np.ndarray, list, tuple)):
                # (read_t7 gives a torch.LongStorage as the array of its values: Lua's forward needs the
                # storage again, a LongTensor there fails in resize / copy)
                storages.add(key)
            continue
        if callable(kind):
            value = kind(fields, empty)
        elif kind == "T":
            value = np.zeros(0, empty.dtype)     # (a new one each: see output and gradInput)
        elif kind == ("T1",):
            value = np.ones(1, empty.dtype)
        elif kind == "LT":
            value = np.zeros(0, np.int64)
        elif kind == "BT":
            value = np.zeros(0, np.uint8)
        elif kind == "LS" or (isinstance(kind, tuple) and kind[0] == "LS"):
            value = np.zeros(0 if kind == "LS" else kind[1], np.int64)
            storages.add(key)
        elif isinstance(kind, tuple) and kind[0] == "T":
            value = np.zeros(kind[1], empty.dtype)
        else:
            value = kind
        fields[key] = value
    return storages


def save_lua(path, obj, classes=None, rnn="torch/rnn"):
    """Write obj as Lua Torch7's ``torch.save(path, obj)`` did (binary,
    8-byte longs, little-endian), for ``torch.load`` in a Lua deployment
    and for ``load_lua``.

    - modules and criterions: the torch class of their name (``nn.Linear``;
      a registered class under its registered name, or ``classes``'
      {torch name: class}) with their attributes as Torch7's fields: the same
      names, numbers as Lua numbers, 0-based dims and indices 1-based again
      (each layer says which: ``_t7_one_based``, or its ``_t7_unfixup``, the
      inverse of its ``_t7_fixup``); attributes that are None or private
      (``_name``) are left out, as Lua keeps no nil in a table;
    - numpy arrays (and CudaTensors, as their host copies): tensors of their element type (float64 ->
      DoubleTensor, float32 -> FloatTensor, int64 -> LongTensor, bool ->
      ByteTensor...); arrays that view one array share one storage, as views
      did in Torch7, at their offset and strides;
    - dicts and lists (tuples): tables (a list's keys are 1..n); checkpoints
      such as ``{"model": net, "optimState": ...}`` are plain tables;
    - str, bytes, int, float, bool, None: Lua strings, numbers, booleans, nil
      (a table entry whose value is None is left out, as Lua keeps no nil in
      a table: a list with a None loads back as a dict of the other keys);
    - what ``read_t7`` returns (TorchObject, LuaTable): as it was read.

    - the rnn package's FastLSTM, LSTM and GRU: with the step module that
      package's ``buildModel`` made (a tree of nn modules around the cell's
      weight layers) in place of nn_legacy's own step module, and that
      package's fields, so that Lua's ``torch.load`` knows every class.
      ``rnn`` names the package the Lua side has: ``"torch/rnn"`` (the
      default: what ``luarocks install rnn`` installs since 2017; ``seqlen``,
      ``nn.Linear(...):noBias()``) or ``"Element-Research/rnn"`` (``rho``,
      ``recurrentModule``, ``nn.LinearNoBias``).  A FastLSTM with batch
      normalization (bn=True): the nngraph gModule the package's
      FastLSTM:nngraphModel built around its modules.  The
      package's other classes (Recursor, Recurrence, Sequencer, Repeater,
      SeqLSTM, SeqGRU...) get the fields of that package's constructor too
      (each class's ``_t7_rnn_layout``); a class of one package alone
      (RecLSTM, LinearRNN: torch/rnn; Recurrent: Element-Research) keeps
      its own package's layout.

    An object met twice (a shared module, the same array) is written once and
    then referred to by its index, as Torch7 did.  Lua functions cannot be
    written (their bytecode is never kept): TypeError, naming the field."""
    if rnn not in ("torch/rnn", "Element-Research/rnn"):
        raise ValueError(f"save_lua: rnn must be 'torch/rnn' or 'Element-Research/rnn', got {rnn!r}")
    data = t7_bytes(_LuaGraph(classes, rnn).convert(obj, "root"))
    with open(path, "wb") as f:
        f.write(data)


class _LuaGraph:
    """Python values -> the writer's values (see save_lua)."""

    def __init__(self, classes=None, rnn="torch/rnn"):
        from .registry import checked_classes
        self.classes = checked_classes(classes, "save_lua")
        self.rnn = rnn   # the rnn package whose layouts the cells are written in
        self.memo = {}       # id(value) -> (value, what is written for it)
        self.storages = {}   # id(array owning memory) -> (it, its Storage)

    def convert(self, v, path, parent_type="torch.DoubleTensor"):
        from .._helpers.lua import LuaFunction, TorchObject
        from ..Criterion import Criterion
        from ..Module import Module
        if v is None or isinstance(v, (bool, str, bytes)):
            return v
        if isinstance(v, np.bool_):
            return bool(v)
        if isinstance(v, (int, float, np.integer, np.floating)):
            return float(v)
        if id(v) in self.memo:
            return self.memo[id(v)][1]
        if isinstance(v, T7Object):     # (written as it is: a torch.Timer made for Lua)
            return v
        if isinstance(v, CudaTensor):   # a module moved with .cuda(): its host copy (Lua's :cuda() moves it back)
            out = self.tensor(to_host(v), path)
        elif isinstance(v, np.ndarray):
            out = self.tensor(v, path)
        elif isinstance(v, (Module, Criterion)):
            out = self.module(v, path, parent_type)
        elif isinstance(v, TorchObject):
            out = T7Object(v.class_name, None, v.version)
            self.memo[id(v)] = (v, out)
            out.header = None if v.header is None else self.convert(v.header, path, parent_type)
            out.fields = self.convert(v.fields, path, parent_type)   # (nngraph's nodes: their modules' type)
        elif isinstance(v, dict):
            out = {}
            self.memo[id(v)] = (v, out)
            for key, item in v.items():
                if item is None:
                    continue   # Lua keeps no nil in a table: torch.save wrote no such entry
                if isinstance(key, Key):   # (a table as a key: nngraph's mapindex, graph's node lists)
                    out[Key(self.convert(key.table, path, parent_type))] = self.convert(item, f"{path}[a table]",
                                                                                     parent_type)
                    continue
                if isinstance(key, tuple):
                    raise TypeError(f"save_lua: {path}: a table used as a key (read_t7 keeps only its identity) "
                                    f"cannot be written")
                out[self.convert(key, path)] = self.convert(item, f"{path}[{key!r}]", parent_type)
        elif isinstance(v, (list, tuple)):
            out = {}
            self.memo[id(v)] = (v, out)
            for i, item in enumerate(v):
                if item is not None:   # (a hole in the Lua table)
                    out[i + 1] = self.convert(item, f"{path}[{i}]", parent_type)
        elif isinstance(v, LuaFunction):
            raise TypeError(f"save_lua: {path} is a Lua function, whose bytecode load_lua never keeps: it cannot "
                            f"be written")
        else:
            raise TypeError(f"save_lua: {path} is a {type(v).__name__}, which has no Torch7 counterpart")
        self.memo[id(v)] = (v, out)
        return out

    def tensor(self, a, path):
        element = _TORCH_ELEMENT.get(a.dtype)
        if element is None:
            raise TypeError(f"save_lua: {path} is an array of {a.dtype}, which no torch tensor holds")
        cls = f"torch.{element}Tensor"
        if a.dtype == np.bool_:
            a = a.astype(np.uint8)
        if a.ndim == 0:
            a = a.reshape(1)
        if a.size == 0:
            return Tensor(np.zeros(0), cls)
        root = a
        while isinstance(root.base, np.ndarray):
            root = root.base
        item = a.itemsize
        start = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        if (root.dtype != a.dtype or not root.flags.c_contiguous or start % item
                or any(s < 0 or s % item for s in a.strides)):
            return Tensor(a, cls)   # not a view Torch7 could have: a storage of its own
        if id(root) not in self.storages:
            self.storages[id(root)] = (root, Storage(root.reshape(-1), f"torch.{element}Storage"))
        return Tensor(cls=cls, storage=self.storages[id(root)][1], sizes=list(a.shape),
                      strides=[s // item for s in a.strides], offset=start // item + 1)

    def module(self, m, path, parent_type="torch.DoubleTensor"):
        from ..Criterion import Criterion
        from ..Module import Module
        from .registry import name_of
        cls = type(m)
        # _t7_name: the torch class of an nn_legacy class named otherwise (torch-rnn's nn.LSTM)
        name = name_of(cls, self.classes) or getattr(cls, "_t7_name", None) or f"nn.{cls.__name__}"
        obj = T7Object(name, None, getattr(cls, "_t7_version", 1))
        self.memo[id(m)] = (m, obj)
        # what Torch7's Module / Criterion constructor made, for Lua code that uses it before a forward:
        # output and gradInput (a tensor of the module's type, a table where its class made one, a
        # criterion's output the number 0) and _type, the type of its parameters
        floats = [v for v in vars(m).values() if isinstance(v, (np.ndarray, CudaTensor)) and v.dtype.kind == "f"]
        if not floats and isinstance(m, Module):   # (a container: the type of its parameters)
            floats = [v for v in m.parameters()[0] if isinstance(v, (np.ndarray, CudaTensor)) and v.dtype.kind == "f"]
        if not floats:   # (a module without parameters whose last output or gradInput is a table: their type)
            floats = _float_leaves([getattr(m, "output", None), getattr(m, "gradInput", None)])
        tensor_type = f"torch.{_TORCH_ELEMENT[floats[0].dtype]}Tensor" if floats else parent_type
        empty = np.zeros(0, dtype=np.float32 if tensor_type == "torch.FloatTensor" else np.float64)
        fields = {}
        for key in ("output", "gradInput"):
            if key in getattr(cls, "_t7_tables", ()):
                fields[key] = {}
            elif key in getattr(cls, "_t7_pairs", ()):   # ({torch.Tensor(), torch.Tensor()}: MM, MV, Bilinear...)
                fields[key] = [np.zeros(0, empty.dtype), np.zeros(0, empty.dtype)]
            elif isinstance(m, Criterion) and key == "output":
                fields[key] = 0.0
            else:   # (a tensor of its own each: one object met twice is written once, shared in Lua)
                fields[key] = np.zeros(0, empty.dtype)
        fields["_type"] = tensor_type
        fields.update((k, v) for k, v in vars(m).items() if v is not None and not k.startswith("_"))
        for key in getattr(cls, "_t7_one_based", ()):   # (from_lua's inverse: negative dims count from the end)
            if isinstance(fields.get(key), (int, np.integer)) and fields[key] >= 0:
                fields[key] = fields[key] + 1
        unfixup = getattr(m, "_t7_unfixup", None)
        if unfixup is not None:
            unfixup(fields)
        lua_storages = _lua_work_fields(name, fields, empty)
        lua_layout = getattr(m, "_t7_rnn_layout", None)   # (the rnn package's cells: its step trees)
        if lua_layout is not None:
            lua_layout(fields, self.rnn)
        from ..gModule import gModule
        if isinstance(m, gModule):   # nngraph's node graph, rebuilt from the lowered containers
            from .nngraph_writer import node_graph
            fields.update(node_graph(m, Key))
            if isinstance(m.lua_class, str):   # (a subclass of nn.gModule loaded as its base: its own class again)
                obj.class_name = m.lua_class
        header = getattr(m, "_t7_header", None)   # (classes whose write() puts an object before their fields)
        if header is not None:
            obj.header = self.convert(header(fields), f"{path} header", tensor_type)
        obj.fields = {}
        # (sizes Torch7 kept as a torch.LongStorage, not a table)
        storages = set(getattr(cls, "_t7_storages", ())) | lua_storages
        for key, value in fields.items():
            if key in storages:
                obj.fields[key] = Storage(np.asarray(value, dtype=np.int64).ravel(), "torch.LongStorage")
            else:
                obj.fields[key] = self.convert(value, f"{path}.{key}", tensor_type)
        return obj

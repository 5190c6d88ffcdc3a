"""Reading Torch7 files (``torch.save``), binary and ASCII, without running code.

``read_t7(path)`` returns the stored object graph as Python values:

- nil -> None, numbers -> float, strings -> str (bytes if not UTF-8),
  booleans -> bool;
- tables -> :class:`LuaTable` (a dict; ``as_list()`` gives the values of keys
  1..n when those are its only keys);
- tensors -> numpy arrays viewing their storage (tensors that share a
  storage in the file share memory here too); storages -> 1-D arrays;
- other torch classes -> :class:`TorchObject` (class name, version, fields);
  ``tds.Hash`` and ``tds.Vec`` -> dict and list.

A repeated object (tables, torch objects) is the same Python object, so
back-references and cycles survive.  Lua functions are refused: they are
bytecode, and loading a file never runs code.

Bad, truncated or hostile files raise :class:`T7Error`.  Every size read
from the file is checked against the bytes that remain before anything is
allocated, nesting is limited, and tensor views are checked to lie inside
their storage.

``nn_legacy.load_lua`` builds nn_legacy modules on top of this.
"""
import re
import struct

import numpy as np

NIL, NUMBER, STRING, TABLE, TORCH, BOOLEAN = 0, 1, 2, 3, 4, 5
FUNCTIONS = (6, 7, 8)
MAX_DEPTH = 200
MAX_DIM = 64

# torch class name prefix -> numpy element type ('long' depends on the file)
_ELEMENTS = {
    "Double": np.float64, "Float": np.float32, "Half": np.float16, "Long": "long",
    "Int": np.int32, "Short": np.int16, "Char": np.int8, "Byte": np.uint8,
}
_TENSOR = re.compile(r"^torch\.(?:Cuda)?(\w+?)(Tensor|Storage)$")
# classes whose own write() differs from the usual single field table:
# torch.Timer writes nothing (nn.Profile holds one), nn.GPU writes a
# header {type, device} before its fields
_NO_PAYLOAD = frozenset({"torch.Timer"})
_HEADED = frozenset({"nn.GPU"})


class T7Error(ValueError):
    """The file is not a Torch7 file this reader can take, or is damaged."""


class LuaTable(dict):
    """A Lua table: keys are floats (Lua numbers), strings, or other objects."""

    def as_list(self):
        """The values of keys 1..n in order, when those are all the keys; else None."""
        n = len(self)
        if all(float(i) in self for i in range(1, n + 1)):
            return [self[float(i)] for i in range(1, n + 1)]
        return None


class TorchObject:
    """An instance of a torch class this reader has no special meaning for."""

    def __init__(self, class_name, version):
        self.class_name = class_name
        self.version = version
        self.fields = None  # usually a LuaTable

    def __repr__(self):
        return f"<TorchObject {self.class_name} v{self.version}>"


def _hashable(key):
    try:
        hash(key)
        return key
    except TypeError:
        return ("object", id(key))  # a table used as a key: keep it distinct


class _Binary:
    def __init__(self, data, long_size):
        self.data, self.pos = data, 0
        self.long = "<i" if long_size == 4 else "<q"
        self.long_size = long_size

    def remaining(self):
        return len(self.data) - self.pos

    def _take(self, n, what):
        if n < 0 or n > self.remaining():
            raise T7Error(f"truncated at byte {self.pos} of {len(self.data)}: {what} needs {n} bytes, "
                          f"{self.remaining()} remain")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def int(self, what="an integer"):
        return struct.unpack("<i", self._take(4, what))[0]

    def long_int(self, what="a long"):
        return struct.unpack(self.long, self._take(self.long_size, what))[0]

    def longs(self, n, what):
        return [self.long_int(what) for _ in range(n)]

    def double(self):
        return struct.unpack("<d", self._take(8, "a number"))[0]

    def string(self):
        n = self.int("a string length")
        return self._take(n, "a string")

    def array(self, dtype, n, what):
        dtype = np.dtype(dtype)
        if n * dtype.itemsize > self.remaining():
            raise T7Error(f"truncated at byte {len(self.data)} of {self.pos + n * dtype.itemsize} or hostile: {what} "
                          f"declares {n} elements ({n * dtype.itemsize} bytes) but only {self.remaining()} bytes "
                          f"remain")
        raw = self._take(n * dtype.itemsize, what)
        return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype)


class _Ascii:
    """The ASCII variant: every number a decimal token, strings as a length
    line followed by the raw bytes.  Torch ends every token with white space
    (a file ends with a newline), so a token cut off by truncation is refused
    rather than read short."""

    _TOKEN = re.compile(rb"\s*(\S+)(?=\s)")

    def __init__(self, data):
        self.data, self.pos = data, 0

    def remaining(self):
        return len(self.data) - self.pos

    def _token(self, what):
        m = self._TOKEN.match(self.data, self.pos)
        if not m:
            raise T7Error(f"truncated at byte {len(self.data)} of more: expected {what} at offset {self.pos}")
        self.pos = m.end()
        return m.group(1)

    def int(self, what="an integer"):
        token = self._token(what)
        try:
            return int(token)
        except ValueError:
            raise T7Error(f"bad ASCII file: expected {what} at offset {self.pos}, got {token[:20]!r}") from None

    long_int = int

    def longs(self, n, what):
        return [self.int(what) for _ in range(n)]

    def double(self):
        token = self._token("a number")
        try:
            return float(token)
        except ValueError:
            raise T7Error(f"bad ASCII file: expected a number at offset {self.pos}, got {token[:20]!r}") from None

    def string(self):
        n = self.int("a string length")
        if self.data[self.pos:self.pos + 1] == b"\n":  # the length's own line end
            self.pos += 1
        if n < 0 or n > self.remaining():
            raise T7Error(f"truncated at byte {len(self.data)} of {self.pos + n}: a string of {n} bytes at offset "
                          f"{self.pos}, {self.remaining()} remain")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def array(self, dtype, n, what):
        # each element takes at least one digit and one separator
        if n > (self.remaining() + 1) // 2:
            raise T7Error(f"truncated or hostile file: {what} declares {n} elements "
                          f"but only {self.remaining()} bytes remain")
        # straight into the array: at most 8 bytes for each 2 of the file
        # (a list of Python numbers would take 16 times the file's size)
        parse = float if np.dtype(dtype).kind == "f" else int
        values = np.empty(n, dtype=dtype)
        for k in range(n):
            token = self._token(what)
            try:
                values[k] = parse(token)
            except (ValueError, OverflowError):
                raise T7Error(f"bad ASCII file: {what} holds {token[:20]!r}") from None
        return values


class Reader:
    """Reads one object graph from the bytes of a Torch7 file."""

    def __init__(self, data, ascii=None, long_size=8):
        if long_size not in (4, 8):
            raise ValueError(f"long_size must be 4 or 8, got {long_size}")
        if ascii is None:
            ascii = re.match(rb"\s*-?\d+\s", data[:16]) is not None
        self.stream = _Ascii(data) if ascii else _Binary(data, long_size)
        self.long_dtype = np.int32 if long_size == 4 else np.int64
        self.objects = {}

    def read(self):
        self._check_start()
        return self._object(0)

    def _check_start(self):
        """A file whose first bytes cannot open a Torch7 object is named for what it is."""
        data = self.stream.data
        if not data:
            raise T7Error("not a Torch7 file: it is empty")
        if data.startswith(b"\x89NNLEG"):
            raise T7Error("not a Torch7 file but an nn_legacy save file: read it with nn_legacy.load")
        if not looks_like_t7(data):
            tag = struct.unpack("<i", data[:4])[0] if len(data) >= 4 else None
            raise T7Error(f"not a Torch7 file: it starts with {data[:8]!r}"
                          + (f" (read as the unknown type tag {tag})" if tag is not None else "")
                          + ", where a Torch7 file (torch.save) starts with the type tag of its first object")

    def _object(self, depth):
        if depth > MAX_DEPTH:
            raise T7Error(f"objects nested deeper than {MAX_DEPTH}")
        s = self.stream
        tag = s.int("a type tag")
        if tag == NIL:
            return None
        if tag == NUMBER:
            return s.double()
        if tag == STRING:
            return _text(s.string())
        if tag == BOOLEAN:
            return s.int("a boolean") == 1
        if tag in FUNCTIONS:
            raise T7Error("the file holds a Lua function (bytecode); functions are never loaded")
        if tag not in (TABLE, TORCH):
            raise T7Error(f"unknown type tag {tag} at offset {s.pos - 4}")
        index = s.int("an object index")
        if index in self.objects:
            return self.objects[index]
        if tag == TABLE:
            return self._table(index, depth)
        return self._torch(index, depth)

    def _table(self, index, depth):
        table = LuaTable()
        self.objects[index] = table
        n = self.stream.int("a table size")
        if n < 0 or n > self.stream.remaining() // 2:
            raise T7Error(f"truncated or hostile file: a table declares {n} entries")
        for _ in range(n):
            key = self._object(depth + 1)
            table[_hashable(key)] = self._object(depth + 1)
        return table

    def _torch(self, index, depth):
        s = self.stream
        name = _text(s.string())
        version = 0
        if isinstance(name, str) and name.startswith("V "):
            try:
                version = int(name[2:])
            except ValueError:
                raise T7Error(f"bad class version {name!r}") from None
            name = _text(s.string())
        if not isinstance(name, str):
            raise T7Error("a class name is not text")
        m = _TENSOR.match(name)
        if m and m.group(1) in _ELEMENTS:
            dtype = _ELEMENTS[m.group(1)]
            dtype = self.long_dtype if dtype == "long" else dtype
            if m.group(2) == "Storage":
                n = s.long_int("a storage size")
                if n < 0:
                    raise T7Error(f"{name}: negative size {n}")
                value = s.array(dtype, n, name)
            else:
                value = self._tensor(name, dtype, depth)
            self.objects[index] = value
            return value
        if name == "tds.Hash":
            value = {}
            self.objects[index] = value
            for _ in range(self._count(name)):
                key = self._object(depth + 1)
                value[_hashable(key)] = self._object(depth + 1)
            return value
        if name == "tds.Vec":
            value = []
            self.objects[index] = value
            value.extend(self._object(depth + 1) for _ in range(self._count(name)))
            return value
        obj = TorchObject(name, version)
        self.objects[index] = obj  # before the payload: it may refer back to obj
        if name in _NO_PAYLOAD:
            return obj
        if name in _HEADED:   # a header object first, then the fields
            obj.header = self._object(depth + 1)
        obj.fields = self._object(depth + 1)
        return obj

    def _count(self, name):
        n = self.stream.long_int(f"{name} size")
        if n < 0 or n > self.stream.remaining() // 4:
            raise T7Error(f"truncated or hostile file: {name} declares {n} entries")
        return n

    def _tensor(self, name, dtype, depth):
        s = self.stream
        ndim = s.int(f"{name} dimension count")
        if ndim < 0 or ndim > MAX_DIM:
            raise T7Error(f"{name}: {ndim} dimensions (at most {MAX_DIM})")
        sizes = s.longs(ndim, f"{name} sizes")
        strides = s.longs(ndim, f"{name} strides")
        offset = s.long_int(f"{name} storage offset") - 1  # 1-based in the file
        storage = self._object(depth + 1)
        if ndim == 0:
            return np.zeros(0, dtype=dtype)
        if any(n < 0 for n in sizes) or any(st < 0 for st in strides) or offset < 0:
            raise T7Error(f"{name}: negative size, stride or offset ({sizes}, {strides}, {offset + 1})")
        numel = int(np.prod(sizes, dtype=object))
        if numel == 0:
            return np.zeros(sizes, dtype=dtype)
        if not isinstance(storage, np.ndarray) or storage.dtype != np.dtype(dtype):
            raise T7Error(f"{name}: its storage is missing or of another type")
        # An expanded view (stride 0) may name more elements than its storage
        # holds; refused, so that no array is larger than the file (a module's
        # gradients are allocated at the size of its weights)
        if numel > storage.size:
            raise T7Error(f"{name} of size {sizes} (strides {strides}) has {numel} elements, more than its "
                          f"storage of {storage.size}: expanded views are not loaded")
        last = offset + sum((n - 1) * st for n, st in zip(sizes, strides))
        if last >= storage.size:
            raise T7Error(f"{name} of size {sizes} (strides {strides}, offset {offset + 1}) reaches element "
                          f"{last + 1} of a storage of {storage.size}")
        item = storage.itemsize
        return np.lib.stride_tricks.as_strided(storage[offset:], shape=sizes,
                                               strides=[st * item for st in strides])


def looks_like_t7(data):
    """Whether data can start a Torch7 file: binary, a type tag (nil, number,
    string, table, torch object, boolean, function) as a little-endian
    int32; ASCII, such a tag as a decimal line."""
    if len(data) >= 4 and struct.unpack("<i", data[:4])[0] in (NIL, NUMBER, STRING, TABLE, TORCH, BOOLEAN) + FUNCTIONS:
        return True
    return re.match(rb"\s*[0-8]\s", data[:16]) is not None


def _text(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def read_t7(path, ascii=None, long_size=8):
    """The object stored in a Torch7 file (see the module docstring).

    ascii: None to detect the format, or True / False.  long_size: 8 for files
    written on Linux and macOS, 4 for files written on Windows."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return Reader(data, ascii=ascii, long_size=long_size).read()
    except T7Error as e:
        raise T7Error(f"{path}: {e}") from None


# ---------------------------------------------------------------- nn modules
def _nn_classes():
    import nn_legacy
    from nn_legacy.Criterion import Criterion
    from nn_legacy.Module import Module
    return {f"nn.{name}": value for name, value in vars(nn_legacy).items()
            if isinstance(value, type) and issubclass(value, (Module, Criterion))}


def _class_names(value, seen, classes=None):
    """Every torch class name in the graph below value, except inside the
    fields a known class takes raw (``_t7_raw_fields``, see _Converter)."""
    if id(value) in seen:
        return set()
    seen.add(id(value))
    names = set()
    if isinstance(value, TorchObject):
        names.add(value.class_name)
        cls = (classes or {}).get(value.class_name)
        raw = getattr(cls, "_t7_raw_fields", ())
        if raw and isinstance(value.fields, dict):
            for k, v in value.fields.items():
                if k not in raw:
                    names |= _class_names(k, seen, classes) | _class_names(v, seen, classes)
            return names
        names |= _class_names(value.fields, seen, classes)
    elif isinstance(value, dict):
        for k, v in value.items():
            names |= _class_names(k, seen, classes) | _class_names(v, seen, classes)
    elif isinstance(value, list):
        for v in value:
            names |= _class_names(v, seen, classes)
    return names


class _Converter:
    """Turns the objects of nn classes into nn_legacy modules.

    A class may name fields it takes as read (``_t7_raw_fields``, a tuple of
    field names): those reach the module unconverted (TorchObject / LuaTable
    trees, as ``read_t7`` gives them), the classes inside them are not
    checked against the known ones, and the class's ``_t7_fixup`` rebuilds
    what it needs from them (an rnn-package cell built with nngraph, say)."""

    def __init__(self, classes):
        self.classes = classes
        self.memo = {}

    def convert(self, value):
        if id(value) in self.memo:
            return self.memo[id(value)]
        if isinstance(value, TorchObject):
            cls = self.classes.get(value.class_name)
            if cls is None:
                obj = TorchObject(value.class_name, value.version)
                self.memo[id(value)] = obj
                obj.fields = self.convert(value.fields)
                return obj
            return self._module(cls, value)
        if isinstance(value, LuaTable):
            items = value.as_list()
            result = [] if items is not None else {}
            self.memo[id(value)] = result
            if items is not None:
                result.extend(self.convert(v) for v in items)
            else:
                result.update((k, self.convert(v)) for k, v in value.items())
            return result
        return value

    def _module(self, cls, obj):
        module = cls.__new__(cls)
        self.memo[id(obj)] = module
        module.output, module.gradInput = None, None
        module.train = True
        fields = obj.fields if isinstance(obj.fields, dict) else {}
        raw = getattr(cls, "_t7_raw_fields", ())
        for key, value in fields.items():
            if not isinstance(key, str) or key == "_type":
                continue
            if key not in raw:
                value = self.convert(value)
            if key == "train":
                value = bool(value)          # written as a boolean or as the number 0
            elif isinstance(value, np.ndarray) and value.size == 0 and key in ("output", "gradInput"):
                value = None
            setattr(module, key, value)
        # gradients in Torch7 files are stale or uninitialised memory (the
        # files in the wild hold denormals and NaN there): start from zero
        declared = any("_parameter_names" in vars(k) for k in cls.__mro__[:-2])   # not Module's weight/bias default
        for p, g in getattr(cls, "_parameter_names", ()):
            param = getattr(module, p, None)
            if not declared and p not in vars(module) and g not in vars(module):
                continue   # a class without parameters: no weight/bias attributes to add
            if not isinstance(param, np.ndarray):
                setattr(module, p, None)
                setattr(module, g, None)
            else:
                setattr(module, g, np.zeros_like(param))
        for key, value in _defaults(cls).items():   # Torch7 makes buffers on first use
            module.__dict__.setdefault(key, value)
        fixup = getattr(module, "_t7_fixup", None)
        if fixup is not None:
            fixup(obj.version)               # class versions, 1-based fields -> 0-based
        return module


def _defaults(cls):
    """The attributes of a fresh instance, for classes built without
    arguments (the module generator's state is left as it was)."""
    from ._random import generator
    bits = generator().bit_generator
    state = bits.state
    try:
        return vars(cls())
    except (TypeError, ValueError):
        return {}
    finally:
        bits.state = state


def load_lua(path, unknown_classes="error", ascii=None, long_size=8):
    """Load a Torch7 file (binary or ASCII ``torch.save`` output) as nn_legacy
    objects: nn modules and criterions become instances of the nn_legacy
    class of the same name, tensors numpy arrays, tables lists (keys 1..n) or
    dicts.  No code in the file is ever run.

    unknown_classes: "error" (default) raises T7Error naming every torch class
    in the file that nn_legacy does not have; "object" keeps such objects as
    TorchObject (class_name, version, fields).  long_size: 4 for files
    written on Windows."""
    if unknown_classes not in ("error", "object"):
        raise ValueError(f"unknown_classes must be 'error' or 'object', got {unknown_classes!r}")
    raw = read_t7(path, ascii=ascii, long_size=long_size)
    classes = _nn_classes()
    if unknown_classes == "error":
        unknown = sorted(name for name in _class_names(raw, set(), classes) if name not in classes)
        if unknown:
            raise T7Error(f"{path}: classes nn_legacy does not have: {', '.join(unknown)} "
                          "(load_lua(..., unknown_classes='object') keeps them as TorchObject)")
    return _Converter(classes).convert(raw)

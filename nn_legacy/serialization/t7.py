"""Reading Torch7 files (``torch.save``), binary and ASCII, without running code.

``read_t7(path)`` returns the stored object graph as Python values:

- nil -> None, numbers -> float, strings -> str (bytes if not UTF-8),
  booleans -> bool;
- tables -> :class:`LuaTable` (a dict; ``as_list()`` gives the values of keys
  1..n when those are its only keys);
- tensors -> numpy arrays viewing their storage (tensors that share a
  storage in the file share memory here too), with the file's strides,
  zero strides (expanded tensors) included: read-only where two elements
  may be one element of the storage; storages -> 1-D arrays;
- tensors and storages saved on a GPU (``torch.CudaTensor``,
  ``torch.CudaDoubleTensor``, ``torch.CudaHalfStorage``...) -> host arrays of
  their element type (``CudaTensor`` is float32): cutorch wrote the bytes
  of a host copy, in the host classes' layout;
- other torch classes -> :class:`TorchObject` (class name, version, fields);
  ``tds.Hash`` and ``tds.Vec`` -> dict and list; ``nn.GPU`` and
  ``nn.DataParallelTable`` (which write a header before their fields) ->
  TorchObject with the header in ``.header``;
- Lua functions (bytecode) -> :class:`LuaFunction`, a placeholder that
  raises if called.  The bytecode is skipped, never parsed or run.

A repeated object (tables, torch objects) is the same Python object, so
back-references and cycles survive.

Binary files written where a C long is 4 bytes (Windows, 32-bit ARM) are
detected (:func:`read_bytes`).

Bad, truncated or hostile files raise :class:`T7Error`.  Every size read
from the file is checked against the bytes that remain before anything is
allocated, nesting is limited, and tensor views are checked to lie inside
their storage.

``nn_legacy.load_lua`` builds nn_legacy modules on top of this.
"""
import os
import re
import struct

import numpy as np

from .._helpers.lua import LuaFunction, LuaTable, T7Error, TorchObject, torch_objects  # noqa: F401 (re-exported)

NIL, NUMBER, STRING, TABLE, TORCH, BOOLEAN = 0, 1, 2, 3, 4, 5
FUNCTION, LEGACY_RECUR_FUNCTION, RECUR_FUNCTION = 6, 7, 8   # File.lua's TYPE_FUNCTION...
FUNCTIONS = (FUNCTION, LEGACY_RECUR_FUNCTION, RECUR_FUNCTION)
MAX_DEPTH = 200
MAX_DIM = 64

# torch class name prefix -> numpy element type ('long' depends on the file)
_ELEMENTS = {
    "Double": np.float64, "Float": np.float32, "Half": np.float16, "Long": "long",
    "Int": np.int32, "Short": np.int16, "Char": np.int8, "Byte": np.uint8,
}
# torch.FloatTensor, torch.CudaDoubleStorage, torch.CudaTensor (cutorch's float32 one)...
_TENSOR = re.compile(r"^torch\.(Cuda)?(\w*?)(Tensor|Storage)$")
# classes whose write() puts one object (a header) before their field table
_HEADER_CLASSES = {"nn.GPU": 0, "nn.DataParallelTable": 2}   # name -> first class version that does
# classes whose write() puts nothing at all after the class name: torch.Timer (nn.Profile holds one)
_NO_PAYLOAD = frozenset({"torch.Timer"})


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
        self.longs_read = 0   # (read_t7's long-size detection: a failure before the first long is not retried)

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
        self.longs_read += 1
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
        if np.dtype(dtype).itemsize == 1:   # Byte and Char storages: raw bytes, then a line end
            if n and self.data[self.pos:self.pos + 1] == b"\n":
                self.pos += 1
            if n > self.remaining():
                raise T7Error(f"truncated or hostile file: {what} declares {n} bytes "
                              f"but only {self.remaining()} remain")
            chunk = self.data[self.pos:self.pos + n]
            self.pos += n
            return np.frombuffer(chunk, dtype=dtype).copy()
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
        if tag == FUNCTION:   # written by no Torch7 version we know of, read by all: no index
            return self._function(None, depth)
        if tag not in (TABLE, TORCH, LEGACY_RECUR_FUNCTION, RECUR_FUNCTION):
            raise T7Error(f"unknown type tag {tag} at offset {s.pos - 4}")
        index = s.int("an object index")
        if index in self.objects:
            return self.objects[index]
        if tag == TABLE:
            return self._table(index, depth)
        if tag == TORCH:
            return self._torch(index, depth)
        return self._function(index, depth)

    def _function(self, index, depth):
        """Bytecode (skipped: never parsed) and then its upvalues, read as
        objects so that the objects after them keep their indices."""
        nbytes = len(self.stream.string())
        function = LuaFunction(nbytes)
        if index is not None:
            self.objects[index] = function   # before the upvalues: they may hold the function itself
        upvalues = self._object(depth + 1)
        names = []
        if isinstance(upvalues, LuaTable):
            for item in (upvalues.as_list() or []):
                name = item.get("name") if isinstance(item, LuaTable) else None
                if isinstance(name, str):
                    names.append(name)
        function.upvalues = tuple(names)
        return function

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
        element = (m.group(2) or ("Float" if m.group(1) else "")) if m else None
        if element in _ELEMENTS:
            dtype = _ELEMENTS[element]
            dtype = self.long_dtype if dtype == "long" else dtype
            if m.group(3) == "Storage":
                value = self._storage(name, dtype)
            else:
                value = self._tensor(name, dtype, depth)
            self.objects[index] = value
            return value
        if name == "torch.Generator":
            raise T7Error("the file holds a torch.Generator: its state is a C struct whose layout varied between "
                          "Torch7 builds, and it is not read (save torch.getRNGState(), a ByteTensor, instead)")
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
        if name in _HEADER_CLASSES and version >= _HEADER_CLASSES[name]:
            obj.header = self._object(depth + 1)
        obj.fields = self._object(depth + 1)
        return obj

    def _storage(self, name, dtype):
        n = self.stream.long_int("a storage size")
        if n < 0:
            raise T7Error(f"{name}: negative size {n}")
        return self.stream.array(dtype, n, name)

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
            raise T7Error(f"{name}: negative size, stride or offset ({sizes}, {strides}, {offset + 1}); Torch7 "
                          f"writes none (its strides are 0 or more)")
        numel = int(np.prod(sizes, dtype=object))
        # (numpy refuses a shape whose nonzero sizes multiply past its index range, even with a 0 among them)
        if int(np.prod([max(n, 1) for n in sizes], dtype=object)) * np.dtype(dtype).itemsize > _MAX_VIEW_BYTES:
            raise T7Error(f"{name} of size {sizes} has more elements than an array can index")
        if numel == 0:
            return np.zeros(sizes, dtype=dtype)
        if not isinstance(storage, np.ndarray) or storage.dtype != np.dtype(dtype):
            raise T7Error(f"{name}: its storage is missing or of another type")
        # Any view torch.save could write: strides of 0 (expand, Replicate) and
        # strides in any order; what bounds it is the largest offset it reaches,
        # not its element count.  No memory is allocated for it: the array is a
        # view of the storage, read-only when two of its elements may be one
        # element of the storage (a write there would change the other).
        item = storage.itemsize
        last = offset + sum((n - 1) * st for n, st in zip(sizes, strides))
        if last >= storage.size:
            raise T7Error(f"{name} of size {sizes} (strides {strides}, offset {offset + 1}) reaches element "
                          f"{last + 1} of a storage of {storage.size}")
        view = np.lib.stride_tricks.as_strided(storage[offset:], shape=sizes, strides=[st * item for st in strides],
                                               writeable=not may_overlap(sizes, strides))
        return view


# numpy's limit on an array's bytes (an npy_intp)
_MAX_VIEW_BYTES = 2 ** 63 - 1


def may_overlap(sizes, strides):
    """Whether two elements of a view of these sizes and strides (in
    elements) may be the same element of its storage.  False is a proof:
    taken by increasing stride, every dim of more than one element steps
    past all that the smaller dims reach.  True for every stride 0 and for
    interleaved strides, some of which overlap."""
    reach = 0
    for st, n in sorted((st, n) for n, st in zip(sizes, strides) if n > 1):
        if st <= reach:
            return True
        reach += (n - 1) * st
    return False


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


def read_t7(path, ascii=None, long_size=None):
    """The object stored in a Torch7 file (see the module docstring).

    ascii: None to detect the format, or True / False.  long_size: the bytes
    of a C long in a binary file: 8 (Linux, macOS), 4 (Windows, 32-bit ARM:
    torch-android, torch-ios, a Raspberry Pi), or None (default) to detect it
    (see :func:`read_bytes`)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return read_bytes(data, ascii=ascii, long_size=long_size)
    except T7Error as e:
        raise T7Error(f"{path}: {e}") from None


def read_bytes(data, ascii=None, long_size=None):
    """The object stored in the bytes of a Torch7 file.

    With long_size None, a binary file is read with 8-byte longs; if that
    fails after a long was read, it is read again with 4-byte longs, and
    loads if that parse takes the whole file.  Otherwise the 8-byte error is
    raised, with what the 4-byte reading found.  A failure before the first
    long is not retried (the two readings agree up to there), so the retry
    happens at most once and costs at most one more linear pass; the first
    reading's objects are dropped before it starts, so the peak memory is
    one reading's."""
    if long_size is not None:
        return Reader(data, ascii=ascii, long_size=long_size).read()
    reader = Reader(data, ascii=ascii, long_size=8)
    try:
        return reader.read()
    except T7Error as e:
        if isinstance(reader.stream, _Ascii) or reader.stream.longs_read == 0:
            raise
        failure = str(e)
    reader = None   # (the first reading's objects go before the second starts)
    four = Reader(data, ascii=False, long_size=4)
    try:
        value = four.read()
        if four.stream.remaining() == 0:
            return value
        note = f"that reading ends at byte {four.stream.pos} of {len(data)}"
    except T7Error as e:
        note = str(e)
    raise T7Error(f"{failure} (read with 8-byte longs; with the 4-byte longs of Torch7 on Windows and 32-bit ARM "
                  f"it does not parse either: {note})") from None


# ---------------------------------------------------------------- nn modules
class T7Warning(UserWarning):
    """load_lua loaded a file but left something of it out (Lua functions)."""


def _nn_classes():
    import nn_legacy
    from nn_legacy.Criterion import Criterion
    from nn_legacy.Module import Module
    return {f"nn.{name}": value for name, value in vars(nn_legacy).items()
            if isinstance(value, type) and issubclass(value, (Module, Criterion))}


def _all_classes(classes=None):
    """torch class name -> class: nn_legacy's own, then the registered ones
    (nn_legacy.register_class), then those given for one call."""
    from .registry import registered_classes
    table = _nn_classes()
    table.update(registered_classes())
    table.update(classes or {})
    return table


# errors a damaged file can provoke in a class's fields or _t7_fixup; reported as T7Error
_FIELD_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError, OverflowError,
                 MemoryError)
# methods Torch7 itself stored in fields (not user code), whose work the
# class's own method does here: field -> (the classes it is found in, None
# for any; what put it there)
_STORED_METHODS = {
    "accUpdateGradParameters": (None, "Module:share() stored it before 2017"),
    "reset": (None, "cudnn's convolutions stored it in 2015"),
    "updateOutput": (("nn.SpatialMaxPooling", "nn.VolumetricMaxPooling", "nn.SpatialDilatedMaxPooling",
                      "nn.VolumetricDilatedMaxPooling"),
                     "Spatial/VolumetricMaxUnpooling stored it to record the input size, which this pooling "
                     "records itself"),
}


class _Converter:
    """Turns the objects of known classes into nn_legacy modules.

    classes: torch class name -> Python class.  translations: torch class
    name -> function(TorchObject) giving what to load in its place (another
    backend's module as the nn class of the same meaning, see t7_translations);
    a registered class of that name wins over its translation.

    A class may say what a field older Torch7 files lack meant
    (``_t7_absent = {"sizeAverage": False}``: Torch7's code read the missing
    field as nil); those values come before the constructor's defaults.

    A class may name fields it takes as read (``_t7_raw_fields``, a tuple of
    field names): those reach the module unconverted (TorchObject / LuaTable
    trees, as ``read_t7`` gives them), the classes inside them are not
    checked against the known ones, and the class's ``_t7_fixup`` rebuilds
    what it needs from them (an rnn-package cell built with nngraph, say)."""

    def __init__(self, classes, translations=None, budget=0, graphs_as=None):
        self.classes = classes
        # id(TorchObject) of an object of a class nn_legacy does not have that holds nngraph's fields (a
        # gModule subclass: see graph_subclass_objects) -> the class it loads as (nn_legacy's gModule)
        self.graphs_as = graphs_as or {}
        self.graph_subclasses = []   # (path, torch class name, its own fields) of each one loaded so
        self.translations = translations or {}
        self.budget = budget    # bytes the copies of overlapping views may take (the file's size)
        self.owned = {}         # id(read-only view) -> its copy
        # torch class name -> an nn_legacy class of another name it loads as (classes={"nn.CustomLinear":
        # nn.Linear}): those objects' fields are checked against what the class needs (a user's own class,
        # written for the files that hold it, is not)
        self.mapped = {name: c for name, c in classes.items()
                       if name != f"nn.{c.__name__}" and c.__module__.startswith("nn_legacy.")}
        self.memo = {}
        self.replaced = {}      # id(TorchObject) -> (it, what loads in its place)
        self.functions = []     # (field path, note) of every Lua function met
        self.graphs = False     # an nn.gModule was met (checked for cycles once loaded)

    def resolve(self, value):
        """What loads in value's place: value itself, or its translation."""
        hops = 0
        while isinstance(value, TorchObject) and value.class_name not in self.classes \
                and value.class_name in self.translations:
            if id(value) not in self.replaced:
                self._own_fields(value, value.class_name)
                try:
                    replacement = self.translations[value.class_name](value)
                except T7Error:
                    raise
                except _FIELD_ERRORS as e:
                    raise T7Error(f"{value.class_name} v{value.version}: its fields do not describe one "
                                  f"({type(e).__name__}: {e})") from None
                self.replaced[id(value)] = (value, replacement)
            value = self.replaced[id(value)][1]
            hops += 1
            if hops > MAX_DEPTH:
                raise T7Error(f"{value!r}: translations loop")
        return value

    def class_names(self, value, seen):
        """Every torch class name in the graph below value, as it will load
        (translations applied), except inside the fields a class takes raw."""
        names = set()

        def below(obj):
            raw = getattr(self.graphs_as.get(id(obj)) or self.classes.get(obj.class_name), "_t7_raw_fields", ())
            fields = obj.fields
            if raw and isinstance(fields, dict):
                fields = {k: v for k, v in fields.items() if k not in raw}
            return [fields]

        for obj in torch_objects(value, self.resolve, below, seen):
            names.add("nn.gModule" if id(obj) in self.graphs_as else obj.class_name)
        return names

    def convert(self, value, path="root"):
        if id(value) in self.memo:
            return self.memo[id(value)]
        target = self.resolve(value)
        if target is not value:
            result = self.convert(target, path)
            self.memo[id(value)] = result
            return result
        if isinstance(value, TorchObject):
            if id(value) in self.graphs_as:
                return self._graph_subclass(value, path)
            cls = self.classes.get(value.class_name)
            if cls is None:
                obj = TorchObject(value.class_name, value.version)
                self.memo[id(value)] = obj
                obj.header = value.header
                obj.fields = self.convert(value.fields, path)
                return obj
            return self._module(cls, value, path)
        if isinstance(value, LuaTable):
            items = value.as_list()
            result = [] if items is not None else {}
            self.memo[id(value)] = result
            if items is not None:
                result.extend(self.convert(v, f"{path}[{i}]") for i, v in enumerate(items))
            else:
                result.update((k, self.convert(v, _field_path(path, k))) for k, v in value.items())
            return result
        if isinstance(value, LuaFunction):
            if value.where is None:
                value.where = path
                self.functions.append((path, "a placeholder that raises T7Error if called"))
        return value

    def _graph_subclass(self, obj, path):
        """An object of a gModule subclass nn_legacy does not have (a research
        model's ``torch.class('nn.MyNet', 'nn.gModule')``): loaded as its
        gModule base, its graph lowered, its own fields kept as attributes;
        ``lua_class`` names its class, ``lua_fields`` its own fields."""
        cls = self.graphs_as[id(obj)]
        module = self._module(cls, obj, path)
        fields = obj.fields if isinstance(obj.fields, dict) else {}
        own = tuple(sorted(k for k in fields if isinstance(k, str) and k not in _GMODULE_FIELDS))
        # a field named as one of the class's methods (a subclass's "clone", say) would hide the method
        # (_fill keeps the others aside; a subclass's Lua function there is its own method, not run either)
        shadowed = {k: vars(module).pop(k) for k in own if k in vars(module) and callable(getattr(cls, k, None))}
        module.lua_class, module.lua_fields = obj.class_name, own
        if shadowed:
            module.lua_shadowed = {**vars(module).get("lua_shadowed", {}), **shadowed}
        self.graph_subclasses.append((path, obj.class_name, own))
        return module

    def _module(self, cls, obj, path):
        self.graphs = self.graphs or obj.class_name == "nn.gModule" or getattr(cls, "_t7_graph", False)
        module = cls.__new__(cls)
        self.memo[id(obj)] = module
        try:
            self._fill(module, cls, obj, path)
        except T7Error:
            raise
        except _FIELD_ERRORS as e:
            raise T7Error(f"{path} ({obj.class_name} v{obj.version}): its fields do not describe one "
                          f"({type(e).__name__}: {e})") from None
        return module

    def _owned(self, view, where):
        """A writeable contiguous copy of a view whose elements overlap (an
        expanded tensor), for a module: its layers write into their
        parameters and buffers.  All such copies together may take at most
        the file's size, so that a hostile file cannot make load_lua
        allocate more than the file holds."""
        if id(view) not in self.owned:
            if view.nbytes > self.budget:
                raise T7Error(f"{where}: an expanded view of size {list(view.shape)} ({view.nbytes} bytes once "
                              f"copied) as a module's parameter or buffer: its copies would take more than the "
                              f"file's {self.budget} bytes")
            self.budget -= view.nbytes
            self.owned[id(view)] = (view, np.array(view, order="C"))
        return self.owned[id(view)][1]

    def _own_fields(self, obj, path):
        """obj's fields that are expanded views (read-only, their elements
        overlap) become copies of their own (see _owned), but for output and
        gradInput, which forward and backward replace rather than write into."""
        fields = obj.fields if isinstance(obj.fields, dict) else {}
        for key, value in fields.items():
            if isinstance(value, np.ndarray) and not value.flags.writeable and key not in ("output", "gradInput"):
                fields[key] = self._owned(value, _field_path(path, key))

    def _fill(self, module, cls, obj, path):
        module.output, module.gradInput = None, None
        module.train = True
        self._own_fields(obj, path)
        fields = obj.fields if isinstance(obj.fields, dict) else {}
        raw = getattr(cls, "_t7_raw_fields", ())
        for key, value in fields.items():
            if not isinstance(key, str) or key == "_type":
                continue
            where = _field_path(path, key)
            if key not in raw:
                if isinstance(value, LuaFunction) and _stored_method(obj.class_name, cls, key):
                    if value.where is None:
                        value.where = where
                        note = _STORED_METHODS[key][1]
                        self.functions.append((where, f"the class's own method is used ({note})"))
                    continue
                value = self.convert(value, where)
            if key == "train":
                value = bool(value)          # written as a boolean or as the number 0
            setattr(module, key, value)
        # gradients in Torch7 files are stale or uninitialised memory (the
        # files in the wild hold denormals and NaN there): start from zero.
        # A missing or empty parameter (a layer saved after noBias(), an
        # empty tensor for a non-affine normalization) is None.
        declared = any("_parameter_names" in vars(k) for k in cls.__mro__[:-2])   # not Module's weight/bias default
        for p, g in getattr(cls, "_parameter_names", ()):
            param = getattr(module, p, None)
            if not declared and p not in vars(module) and g not in vars(module):
                continue   # a class without parameters: no weight/bias attributes to add
            if not isinstance(param, np.ndarray) or param.size == 0:
                setattr(module, p, None)
                setattr(module, g, None)
            else:
                setattr(module, g, np.zeros_like(param))
        # what Torch7 made of a field older files lack (its nil), where that
        # is not what the constructor sets today
        for key, value in getattr(cls, "_t7_absent", {}).items():
            module.__dict__.setdefault(key, value)
        for key, value in _defaults(cls).items():   # Torch7 makes buffers on first use
            module.__dict__.setdefault(key, value)
        for key in getattr(cls, "_buffer_names", ()):   # work memory (not written: see save_lua) is made on use
            module.__dict__.setdefault(key, None)
        fixup = getattr(module, "_t7_fixup", None)
        try:
            if fixup is not None and getattr(cls, "_t7_fixup_converts", False):
                fixup(obj.version, self.convert)   # (nn.gModule: converts the modules in its raw nodes)
            elif fixup is not None:
                fixup(obj.version)           # class versions, 1-based fields -> 0-based
        except _FIELD_ERRORS:
            if self.mapped.get(obj.class_name) is cls:   # a class loaded under another name: what it lacks
                _check_mapped_fields(module, cls, obj, path)
            raise
        if self.mapped.get(obj.class_name) is cls:
            _check_mapped_fields(module, cls, obj, path)
        # a field the fixup left that is named as one of the class's methods (a damaged file's "forward = 0")
        # would hide the method: kept aside (a Lua function stays, and says it cannot run when called)
        shadowed = {k: vars(module).pop(k) for k in fields if isinstance(k, str) and k in vars(module)
                    and callable(getattr(cls, k, None)) and not isinstance(vars(module)[k], LuaFunction)}
        if shadowed:
            module.lua_shadowed = shadowed
        # Torch7's empty output / gradInput before a first forward (a tensor, or a table for the table
        # modules) is None here; the fixup has seen it first (its type is the type of some modules: Copy)
        for key in ("output", "gradInput"):
            value = vars(module).get(key)
            if isinstance(value, np.ndarray) and value.size == 0 or isinstance(value, (list, dict)) and not value:
                setattr(module, key, None)


def _check_mapped_fields(module, cls, obj, path):
    """A torch class loaded as a class of another name (load_lua's classes=,
    register_class under another name): its fields must hold what that
    class's constructor sets from its arguments (see _needed_fields)."""
    missing = [name for name in _needed_fields(cls)
               if name not in vars(module) or (name == "weight" and vars(module)[name] is None)]
    if missing:
        have = sorted(k for k in (obj.fields if isinstance(obj.fields, dict) else {}) if isinstance(k, str))
        where = "nn_legacy" if cls.__module__.startswith("nn_legacy.") else cls.__module__
        raise T7Error(f"{path}: {obj.class_name} loaded as {where}.{cls.__qualname__} lacks the field(s) "
                      f"{', '.join(missing)} that {cls.__name__} needs; its fields are {', '.join(have) or 'none'} "
                      f"(map it onto a class whose fields line up, or register a class of your own with a "
                      f"_t7_fixup that builds them)")


_NEEDED = {}


def _needed_fields(cls):
    """The attributes cls's constructors (its own and its bases') set from
    their arguments (``self.nfeatures = check_int(self, nFeature, ...)``,
    ``self.weight = np.zeros((outputSize, inputSize))``): what a Torch7
    object must carry to be one.  Gradients, output, gradInput, private
    names and parameters other than weight (a layer may be saved without
    its bias) are made or may be absent.  Found in the source, once per class."""
    if cls in _NEEDED:
        return _NEEDED[cls]
    import ast
    import inspect
    import textwrap
    from ..Criterion import Criterion
    from ..Module import Module
    params = [pair for klass in cls.__mro__ for pair in vars(klass).get("_parameter_names", ())]
    optional = {n for pair in params for n in pair} - {"weight"} | {"output", "gradInput", "train"}
    needed = []
    for klass in cls.__mro__:
        if klass in (Module, Criterion, object) or "__init__" not in vars(klass):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass.__init__)))
        except (OSError, TypeError, SyntaxError):
            continue
        args = {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)} - {"self"}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign):
                continue
            uses = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            for target in node.targets:
                for t in ast.walk(target):
                    if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                            and uses & args and not t.attr.startswith("_") and t.attr not in optional
                            and t.attr not in needed):
                        needed.append(t.attr)
    _NEEDED[cls] = tuple(needed)
    return _NEEDED[cls]


def _stored_method(class_name, cls, key):
    """Whether field `key` of a `class_name` object is a method Torch7
    itself put there (see _STORED_METHODS)."""
    if key not in _STORED_METHODS or not callable(getattr(cls, key, None)):
        return False
    where = _STORED_METHODS[key][0]
    return where is None or class_name in where


def _field_path(path, key):
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}"
    if isinstance(key, float) and key.is_integer():
        return f"{path}[{int(key)}]"
    return f"{path}[{key!r}]"


def _defaults(cls):
    """The attributes of a fresh instance, for classes built without
    arguments (the module generator's state is left as it was)."""
    from .._helpers.random import generator
    bits = generator().bit_generator
    state = bits.state
    try:
        return vars(cls())
    except (TypeError, ValueError):
        return {}
    finally:
        bits.state = state


# what nngraph's gModule itself saves (gmodule.lua, nn.Module); an object of
# an unknown class holding GRAPH_FIELDS is a gModule subclass, and any other
# field is its own
GRAPH_FIELDS = ("forwardnodes", "innode", "outnode")
_GMODULE_FIELDS = frozenset(GRAPH_FIELDS + ("backwardnodes", "fg", "bg", "verbose", "modules", "nInputs", "output",
                                            "gradInput", "train", "_type", "gradInputSkipped"))


def graph_subclass_objects(raw, known, graph_class):
    """(graphs_as, partial) for the objects read_t7 gave: graphs_as maps
    id(object) -> graph_class for each object of a class neither in known
    nor translated whose fields hold all of GRAPH_FIELDS (a subclass of
    nngraph's gModule: the file names the class, never its base); partial
    maps the class names of objects holding some of them but not all ->
    the ones they lack (an unknown class, said so in its error)."""
    from .t7_translations import TRANSLATIONS
    graphs_as, partial = {}, {}
    for obj in torch_objects(raw):
        fields, name = obj.fields, obj.class_name
        cls = known.get(name)
        # nn_legacy's own class of that name, for an object that is a graph: a subclass named as one
        # (torch.class('nn.LSTM', 'nn.gModule')), which that class would not make sense of
        taken = cls is not None and not (cls.__module__.startswith("nn_legacy.") and not issubclass(
            cls, graph_class) and not set(GRAPH_FIELDS) & set(getattr(cls, "_t7_raw_fields", ())))
        if isinstance(fields, dict) and not taken and name not in TRANSLATIONS:
            have = [f for f in GRAPH_FIELDS if f in fields]
            if len(have) == len(GRAPH_FIELDS):
                graphs_as[id(obj)] = graph_class
            elif have and cls is None:
                partial[name] = [f for f in GRAPH_FIELDS if f not in fields]
    return graphs_as, partial


def _unknown_message(path, unknown, names, partial=None):
    """The one-line error for classes nn_legacy does not have: nngraph's
    graphs are named as such (no graph engine, by design)."""
    hint = "load_lua(..., unknown_classes='object') keeps them as TorchObject"
    partial = {n: missing for n, missing in (partial or {}).items() if n in unknown}
    if partial:
        said = "; ".join(f"{n} holds some of nngraph's gModule fields but not {', '.join(missing)}"
                         for n, missing in sorted(partial.items()))
        return (f"{path}: {said}, so it does not load as a gModule subclass (loaded as its gModule base when its "
                f"objects hold {', '.join(GRAPH_FIELDS)}); classes nn_legacy does not have: {', '.join(unknown)} "
                f"({hint})")
    if "nn.gModule" in unknown:
        graph = [n for n in unknown if n == "nn.gModule" or n.startswith(("nngraph.", "graph."))]
        others = [n for n in unknown if n not in graph]
        inside = sorted(n for n in names if n not in graph and not n.startswith("torch."))
        more = f" (of which nn_legacy does not have {', '.join(others)})" if others else ""
        return (f"{path}: the file holds an nngraph graph ({', '.join(graph)}), which nn_legacy does not run by "
                f"design: it has no graph engine; the modules in the graph: {', '.join(inside) or 'none'}{more}; "
                f"{hint}, with the modules inside loaded")
    return (f"{path}: classes nn_legacy does not have: {', '.join(unknown)} ({hint}; load one as an nn_legacy "
            f"class whose fields line up, load_lua(..., classes={{{unknown[0]!r}: nn_legacy.Linear}}) say, "
            f"or register a class of your own with nn_legacy.register_class)")


def load_lua(path, unknown_classes="error", ascii=None, long_size=None, classes=None):
    """Load a Torch7 file (binary or ASCII ``torch.save`` output) as nn_legacy
    objects: nn modules and criterions become instances of the nn_legacy
    class of the same name, tensors numpy arrays, tables lists (keys 1..n) or
    dicts.  No code in the file is ever run.

    What else loads: tensors saved on a GPU (as host arrays of their element
    type); modules saved by older versions of nn (each class's ``_t7_fixup``
    fills in what they lack); the modules of cudnn, cunn, fbcunn and fbnn as
    the nn_legacy class of the same meaning, and ``nn.DataParallelTable``
    as the module it wraps (see nn_legacy/serialization/t7_translations.py; ``nn.GPU`` is
    nn_legacy's GPU decorator);
    checkpoint tables (``{model = ..., optimState = ...}``) as dicts holding
    live modules.  A Lua function in a field loads as a
    :class:`LuaFunction` placeholder that raises if called, and one
    :class:`T7Warning` names every such field.

    classes: {torch class name: class} for this call, on top of the classes
    registered with ``nn_legacy.register_class`` (a Module or Criterion
    subclass, built without its constructor, fields as attributes, then its
    ``_t7_fixup(version)`` if it has one).

    unknown_classes: "error" (default) raises T7Error naming every torch class
    in the file that nn_legacy does not have; "object" keeps such objects as
    TorchObject (class_name, version, fields).  long_size: None (default)
    detects the size of a C long in a binary file (8 on Linux and macOS, 4
    on Windows and 32-bit ARM, see :func:`read_bytes`); 8 or 4 read with
    that size only.

    The training flag loads as saved, as Torch7's torch.load kept it: a model
    saved during training has Dropout dropping and BatchNormalization using
    each batch's statistics.  A :class:`TrainingModeWarning` names such
    modules; call ``model.evaluate()`` before inference."""
    import warnings
    from .t7_translations import TRANSLATIONS
    from .registry import checked_classes
    if unknown_classes not in ("error", "object"):
        raise ValueError(f"unknown_classes must be 'error' or 'object', got {unknown_classes!r}")
    known = _all_classes(checked_classes(classes, "load_lua"))
    raw = read_t7(path, ascii=ascii, long_size=long_size)
    from .t7_torch_rnn import retag   # torch-rnn's nn.LSTM, told from the rnn package's by its fields
    retag(raw, known, _nn_classes())
    from ..gModule import gModule
    graphs_as, partial = graph_subclass_objects(raw, known, gModule)
    converter = _Converter(known, TRANSLATIONS, budget=os.path.getsize(path), graphs_as=graphs_as)
    if unknown_classes == "error":
        names = converter.class_names(raw, set())
        unknown = sorted(name for name in names if name not in known)
        if unknown:
            raise T7Error(_unknown_message(path, unknown, names, partial))
    result = converter.convert(raw)
    if converter.graphs:
        from ..gModule import refuse_graphs_holding_themselves
        refuse_graphs_holding_themselves(result)
    if converter.graph_subclasses:
        _warn_graph_subclasses(path, converter.graph_subclasses, known)
    if converter.functions:
        listed = "; ".join(f"{where}: {note}" for where, note in converter.functions[:20])
        more = f"; and {len(converter.functions) - 20} more" if len(converter.functions) > 20 else ""
        warnings.warn(f"{path}: {len(converter.functions)} Lua function(s) in the file were not loaded "
                      f"(nn_legacy never runs Lua code): {listed}{more}", T7Warning, stacklevel=2)
    training = _training_mode_modules(result)
    if training:
        warnings.warn(f"{path}: the model is in training mode, as saved (Torch7 kept the flag): {', '.join(training)} "
                      f"compute as in training (Dropout drops, batch normalization uses each batch's statistics); "
                      f"call model.evaluate() before inference", TrainingModeWarning, stacklevel=2)
    return result


def _warn_graph_subclasses(path, loaded, classes):
    """One T7Warning naming the gModule subclasses loaded as their base
    (classes: the known ones)."""
    import warnings
    by_class = {}
    for where, name, own in loaded:
        by_class.setdefault(name, (where, own, []))[2].append(where)
    said = []
    for name, (where, own, places) in by_class.items():
        more = f" and {len(places) - 1} more" if len(places) > 1 else ""
        fields = f"its own fields ({', '.join(own)}) kept as attributes" if own else "no fields of its own"
        what = (f"a subclass of nngraph's gModule named as nn_legacy's {name} (which it is not: it holds a graph)"
                if name in classes else "a class nn_legacy does not have holding nngraph's graph fields")
        said.append(f"{where}{more}: {name}, {what}, loaded as nn.gModule, its base ({fields})")
    warnings.warn(f"{path}: {'; '.join(said)}; the graph is lowered and computes what nngraph's gModule computes: "
                  f"methods the Lua class overrides are not run (nn_legacy runs no Lua code)",
                  T7Warning, stacklevel=3)


class TrainingModeWarning(UserWarning):
    """load_lua: the model holds Dropout or batch normalization in training mode, as the file saved them."""


def _training_mode_modules(value):
    """The class names (sorted, once each) of the modules in value (a module, or a checkpoint table holding
    modules) that compute differently in training mode and are in it."""
    from ..BatchNormalization import BatchNormalization
    from ..Dropout import Dropout
    from ..Module import Module
    from ..RReLU import RReLU
    from ..WhiteNoise import WhiteNoise
    from .._bases.plane_dropout import PlaneDropout
    stochastic = (BatchNormalization, Dropout, PlaneDropout, RReLU, WhiteNoise)
    found, seen, todo = set(), set(), [value]
    while todo:   # every module reached through fields, lists and dicts (a damaged file's too; parents loop)
        v = todo.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        if isinstance(v, Module):
            if isinstance(v, stochastic) and v.train is True:
                found.add(type(v).__name__)
            todo.extend(vars(v).values())
        elif isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, (list, tuple)):
            todo.extend(v)
    return sorted(found)

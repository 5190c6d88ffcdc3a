"""Saving and loading modules: ``nn_legacy.save(obj, path)`` and
``nn_legacy.load(path)``.

``obj`` is a module or criterion, or None, booleans, numbers, strings,
bytes, numpy arrays and scalars, and lists, tuples and dicts of those (so a
list of models, or a dict of a model and its optimizer state).  Loading
never runs code from the file: the file describes data, only classes of
nn_legacy and classes you registered (``nn_legacy.register_class``, see
nn_legacy/serialization/registry.py, or ``classes={...}`` for one call) are built from
it, and every size in it is checked against the file before anything is
allocated.

The format (version 1.0)
========================

A single binary file, little-endian throughout::

    offset 0   prelude, 24 bytes:
               magic    8 bytes  b"\\x89NNLEG\\r\\n"
               major    uint16   1  (a reader refuses a major version it does not know)
               minor    uint16   1  (additions only: a reader ignores what it does not know;
                                    1.1 added registered class names)
               crc32    uint32   zlib CRC-32 of the whole file, these 4 bytes taken as zero
               hlen     uint64   length of the header in bytes
    offset 24  header: hlen bytes of UTF-8 JSON (below)
               zero bytes up to the next multiple of 64: the data section starts there
    data       the raw bytes of the arrays' buffers, each at a multiple of 64
               from the start of the data section; the file ends with the data

The header is a JSON object with these keys (others are ignored)::

    "root"        the saved value
    "objects"     [object, ...]  everything that can be shared or form cycles
    "arrays"      [array, ...]
    "buffers"     [{"offset": o, "nbytes": n}, ...]  byte ranges of the data
                  section, in increasing order, not overlapping
    "data_nbytes" the length of the data section

A value is JSON null, true/false, an integer, a finite number or a string,
or a JSON object with one key saying what it is::

    {"ref": i}       objects[i] (the same Python object wherever it appears)
    {"array": i}     arrays[i]
    {"scalar": i}    the numpy scalar held by the 0-d arrays[i]
    {"float": "nan" | "inf" | "-inf"}
    {"tuple": [value, ...]}
    {"bytes": "<base64>"}
    {"dtype": "<name>"}

An object is one of::

    {"module": "<class name>", "fields": {"<attribute>": value, ...}}
    {"list": [value, ...]}
    {"dict": [[key value, value], ...]}

A module is an instance of the nn_legacy class of that name (a Module or
Criterion subclass; nothing else is accepted), or, for a name with a dot in
it ("nn.MyLayer", since 1.1), of the class registered under that name
(``nn_legacy.register_class``), built without calling its constructor, with
the fields as its attributes.  What ``clearState``
empties (``output``, ``gradInput`` and the class's ``_buffer_names``; for
a criterion ``gradInput``) is not stored and comes back as None.  A field
the file does not have (a module saved before its class gained it) takes
the value of a module built with no arguments, as ``load_lua`` does, when
the class (or else its nearest base class) can be built so; fields the
class does not know are kept.

An array is ``{"dtype": name, "shape": [...], "buffer": b, "offset":
bytes, "strides": [bytes, ...]}``: a view of buffer b, as
``np.ndarray(shape, dtype, buffer, offset, strides)``, little-endian.
dtype is one of bool, int8..int64, uint8..uint64, float16, float32,
float64, complex64, complex128.  Arrays that were views of one array when
saved (the parameters after ``flattenParameters``) are views of one
buffer again after loading, and an array reached twice is one array.
An empty array has ``"buffer": null`` and no data.  A view never overlaps
itself and lies inside its buffer.

Damaged, truncated or hostile files raise :class:`FormatError` (a
ValueError): the CRC catches damage, and every count, size, offset,
stride, index, class and field name is checked before it is used.
Nesting of tuples is limited to 64 levels and arrays to 64 dimensions.
"""
import base64
import collections
import inspect
import io
import json
import math
import os
import struct
import sys
import types
import warnings
import zlib

import numpy as np

from thnn.cuda import CudaTensor

MAGIC = b"\x89NNLEG\r\n"
MAJOR, MINOR = 1, 1
PRELUDE = struct.Struct("<8sHHIQ")
ALIGN = 64
MAX_DEPTH = 64
MAX_DIM = 64
_BIG = 1 << 62   # no size, stride or offset in a file comes near this

_DTYPES = {name: np.dtype(name).newbyteorder("<") for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128")}


class FormatError(ValueError):
    """The file is not an nn_legacy save file this version can read, or it
    is damaged."""


# ---------------------------------------------------------------- classes
def _classes():
    from .t7 import _nn_classes   # the nn_legacy Module and Criterion classes, by name
    return {name[3:]: cls for name, cls in _nn_classes().items()}


def _is_module(value):
    from ..Criterion import Criterion
    from ..Module import Module
    return isinstance(value, (Module, Criterion))


def _cleared(cls):
    """The attributes clearState empties and the caches (Module._cache_names), which are not stored."""
    from ..Criterion import Criterion
    base = ("gradInput",) if issubclass(cls, Criterion) else ("output", "gradInput")
    return base + tuple(getattr(cls, "_buffer_names", ())) + tuple(getattr(cls, "_cache_names", ()))


# ---------------------------------------------------------------- saving
def save(obj, path, classes=None):
    """Write obj (a module, criterion, or a list / dict / tuple holding
    them, arrays and plain values) to path (a file name, or a binary file
    object) in the format above.  A module of a class of your own is saved
    under the name it is registered under (``nn_legacy.register_class``, or
    classes={"nn.MyLayer": MyLayer} for this call).  A value the format
    cannot hold raises TypeError naming where it is
    (``model.modules[2].foo``).

    A model on a CUDA device is written as host arrays (CudaTensors that
    view one device storage stay views of one buffer), with a UserWarning
    saying so: ``load`` gives it back on the host, and ``.cuda()`` puts it
    on a device again."""
    if isinstance(obj, (str, os.PathLike)) and not isinstance(path, (str, bytes, os.PathLike)) \
            and not hasattr(path, "write"):
        raise TypeError(f"save(obj, path): the object comes first, then the file: nn_legacy.save(model, "
                        f"{os.fspath(obj)!r}) (Torch7's torch.save(path, model) had them the other way round)")
    from .registry import checked_classes
    writer = _Writer(checked_classes(classes, "save"))
    root = writer.value(obj, "obj", 0)
    writer.drain()
    if writer.device_views:
        warnings.warn(f"nn_legacy.save: {len(writer.device_views)} CUDA tensors of the saved value were written as host "
                      f"arrays; load() gives them back on the host (call .cuda() on the loaded model to place it "
                      f"on a device)", UserWarning, stacklevel=2)
    parts, layout, data_nbytes = [], [], 0
    for raw in writer.buffers:
        start = _aligned(data_nbytes)
        layout.append({"offset": start, "nbytes": raw.nbytes})
        parts += [bytes(start - data_nbytes), memoryview(raw)]
        data_nbytes = start + raw.nbytes
    header = json.dumps({"root": root, "objects": writer.objects, "arrays": writer.arrays, "buffers": layout,
                         "data_nbytes": data_nbytes}, allow_nan=False, separators=(",", ":")).encode("utf-8")
    parts = [header, bytes(_aligned(PRELUDE.size + len(header)) - PRELUDE.size - len(header))] + parts
    crc = zlib.crc32(PRELUDE.pack(MAGIC, MAJOR, MINOR, 0, len(header)))
    for part in parts:
        crc = zlib.crc32(part, crc)
    parts.insert(0, PRELUDE.pack(MAGIC, MAJOR, MINOR, crc, len(header)))
    if hasattr(path, "write"):
        for part in parts:
            path.write(part)
        return
    path = os.fspath(path)
    partial = path + ".partial"
    try:
        with open(partial, "wb") as f:
            for part in parts:
                f.write(part)
        os.replace(partial, path)   # an earlier file of that name stays whole until the new one is
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def _aligned(n):
    return -(-n // ALIGN) * ALIGN


class _Writer:
    def __init__(self, extra=None):
        self.classes = _classes()
        self.extra = extra or {}
        self.objects, self.object_index, self.pending = [], {}, collections.deque()
        self.arrays, self.array_index = [], {}
        self.buffers, self.buffer_index = [], {}
        self.keep = []   # everything indexed by id stays alive, so no id is reused
        # CudaTensors: each device storage copied to the host once, each tensor a view of its copy
        self.device_storages, self.device_views = {}, {}

    def value(self, v, path, depth):
        if isinstance(v, np.generic):   # before float: np.float64 is a float too
            return {"scalar": self.array(np.asarray(v), path)}
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return int(v)
        if isinstance(v, float):
            if math.isfinite(v):
                return float(v)
            return {"float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}
        if isinstance(v, np.ndarray):
            return {"array": self.array(v, path)}
        if isinstance(v, CudaTensor):
            return {"array": self.array(self.host(v), path)}
        if isinstance(v, np.dtype):
            return {"dtype": self.dtype_name(v, path)}
        if isinstance(v, bytes):
            return {"bytes": base64.b64encode(v).decode("ascii")}
        if isinstance(v, tuple):
            if depth >= MAX_DEPTH:
                raise TypeError(f"save: {path}: tuples nested deeper than {MAX_DEPTH}")
            return {"tuple": [self.value(x, f"{path}[{i}]", depth + 1) for i, x in enumerate(v)]}
        if isinstance(v, (list, dict)) or _is_module(v):
            return {"ref": self.ref(v, path)}
        raise TypeError(f"save: {path} is a {type(v).__name__}, which an nn_legacy file cannot hold "
                        f"(modules, arrays, numbers, strings, bytes, lists, tuples and dicts can)")

    def ref(self, obj, path):
        if id(obj) not in self.object_index:
            if _is_module(obj):
                self.class_name(obj, path)
            self.object_index[id(obj)] = len(self.objects)
            self.objects.append(None)
            self.keep.append(obj)
            self.pending.append((obj, path))
        return self.object_index[id(obj)]

    def drain(self):
        """Encode the objects met so far, and those they lead to (a work list,
        not recursion: deep trees and cycles are fine)."""
        while self.pending:
            obj, path = self.pending.popleft()
            index = self.object_index[id(obj)]
            if isinstance(obj, list):
                entry = {"list": [self.value(x, f"{path}[{i}]", 0) for i, x in enumerate(obj)]}
            elif isinstance(obj, dict):
                entry = {"dict": [[self.value(k, f"{path} key {k!r}", 0), self.value(x, f"{path}[{k!r}]", 0)]
                                  for k, x in obj.items()]}
            else:
                skip = _cleared(type(obj))
                fields = {}
                for key, x in vars(obj).items():
                    if not isinstance(key, str):
                        raise TypeError(f"save: {path} has an attribute named by a {type(key).__name__}")
                    if key not in skip:
                        fields[key] = self.value(x, f"{path}.{key}", 0)
                entry = {"module": self.class_name(obj, path), "fields": fields}
            self.objects[index] = entry

    def host(self, t):
        """A CudaTensor as a host view of its storage's host copy (so views of
        one storage stay views of one buffer), the same array for the same tensor."""
        if id(t) not in self.device_views:
            key = (t.device.name, t.data_ptr() - t.offset * t.itemsize)
            if key not in self.device_storages:
                self.device_storages[key] = t._view((t._storage.size,), (1,), 0).numpy()
            whole = self.device_storages[key]
            self.device_views[id(t)] = np.ndarray(t.shape, whole.dtype, whole, t.offset * whole.itemsize,
                                                  [s * whole.itemsize for s in t.strides]) if t.size \
                else np.empty(t.shape, whole.dtype)
            self.keep.append(t)
        return self.device_views[id(t)]

    def class_name(self, obj, path):
        """The name a module's class is saved under: nn_legacy's own by
        their names, others by the name they are registered under."""
        from .registry import name_of
        cls, name = type(obj), type(obj).__name__
        if self.classes.get(name) is cls:
            return name
        registered = name_of(cls, self.extra)
        if registered is None:
            raise TypeError(f"save: {path} is a {cls.__module__}.{cls.__qualname__}, which is not an nn_legacy "
                            f"class: register it (@nn_legacy.register_class) or pass classes={{'nn.{name}': "
                            f"{name}}} to save it")
        return registered

    def dtype_name(self, dtype, path):
        name = dtype.name
        if name not in _DTYPES or dtype.fields is not None or dtype.subdtype is not None:
            raise TypeError(f"save: {path} has dtype {dtype}; an nn_legacy file holds {', '.join(_DTYPES)}")
        return name

    def array(self, a, path):
        if id(a) in self.array_index:
            return self.array_index[id(a)]
        entry = {"dtype": self.dtype_name(a.dtype, path), "shape": list(a.shape)}
        if a.size == 0:
            entry.update(buffer=None, offset=0, strides=[0] * a.ndim)
        else:
            owner = _owner(a)
            if owner is not None:
                if id(owner) not in self.buffer_index:
                    self.buffer_index[id(owner)] = len(self.buffers)
                    self.buffers.append(np.ravel(owner, order="K").view(np.uint8))
                    self.keep.append(owner)
                start = a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
                entry.update(buffer=self.buffer_index[id(owner)], offset=start, strides=list(a.strides))
            else:   # a copy of its own: contiguous, little-endian
                copy = np.array(a, dtype=_DTYPES[entry["dtype"]], order="C")   # 0-d stays 0-d
                entry.update(buffer=len(self.buffers), offset=0, strides=list(copy.strides))
                self.buffers.append(copy.reshape(-1).view(np.uint8))
        self.array_index[id(a)] = len(self.arrays)
        self.arrays.append(entry)
        self.keep.append(a)
        return self.array_index[id(a)]


def _owner(a):
    """The array owning a's memory, when a can be stored as a view of it
    (little-endian, not overlapping itself, inside the owner); else None."""
    owner = a
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    little = a.dtype.byteorder in ("<", "|") or (a.dtype.byteorder == "=" and sys.byteorder == "little")
    if owner.base is not None or not little or not (owner.flags.c_contiguous or owner.flags.f_contiguous) \
            or owner.dtype.hasobject or not _compact(a.shape, a.strides, a.itemsize):
        return None
    start = a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    low, high = _extent(a.shape, a.strides, a.itemsize)
    return owner if 0 <= start + low and start + high <= owner.nbytes else None


def _extent(shape, strides, itemsize):
    """(lowest, one past highest) byte an array touches, from its first element."""
    low = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    high = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides)) + itemsize
    return low, high


def _compact(shape, strides, itemsize):
    """No two elements of the view share memory (checked the simple way:
    each dim steps past everything the smaller-stepping dims span)."""
    span = itemsize
    for n, s in sorted(((n, abs(s)) for n, s in zip(shape, strides) if n > 1), key=lambda d: d[1]):
        if s < span:
            return False
        span = s * (n - 1) + span
    return True


# ---------------------------------------------------------------- loading
def load(path, classes=None):
    """The object saved in path (a file name, or a binary file object) by
    save.  Modules of your own classes need them registered
    (``nn_legacy.register_class``) or given for this call as
    classes={"nn.MyLayer": MyLayer}.  Raises FormatError for a file that is
    not one, is damaged, names a class that is neither nn_legacy's nor
    registered, or comes from a newer major version of the format."""
    from .registry import checked_classes
    extra = checked_classes(classes, "load")
    if isinstance(path, io.TextIOBase):
        raise TypeError("load: the file object must be opened in binary mode ('rb')")
    if hasattr(path, "read"):
        data, where = path.read(), getattr(path, "name", "file")
    else:
        with open(path, "rb") as f:
            data = f.read()
        where = os.fspath(path)
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"load: the file object must be opened in binary mode, got {type(data).__name__}")
    return _Reader(bytes(data), where, extra).read()


class _Reader:
    def __init__(self, data, where, extra=None):
        self.data, self.where, self.extra = data, where, extra or {}

    def fail(self, message):
        return FormatError(f"{self.where}: {message}")

    def read(self):
        from .registry import registered_classes
        header = self.header()
        self.classes = _classes()
        self.registered = {**registered_classes(), **self.extra}
        objects, arrays, buffers = (self.field(header, k, list) for k in ("objects", "arrays", "buffers"))
        self.buffers = self.read_buffers(buffers, _buffer_dtypes(arrays))
        self.arrays = [self.read_array(i, a) for i, a in enumerate(arrays)]
        self.entries = objects
        self.objects = [self.shell(i, o) for i, o in enumerate(objects)]
        for i, o in enumerate(objects):
            self.fill(i, o)
        for i, o in enumerate(objects):
            if "module" in o:
                self.complete(self.objects[i])
        return self.value(self.field(header, "root", None), "root", 0)

    # ---- the prelude and the header ----
    def header(self):
        data = self.data
        if len(data) < PRELUDE.size or not data.startswith(MAGIC):
            if data[:len(MAGIC)] == MAGIC[:len(data)]:
                raise self.fail(f"truncated file: {len(data)} bytes, shorter than the {PRELUDE.size}-byte prelude")
            from .t7 import looks_like_t7
            hint = "; it looks like a Torch7 file: read it with nn_legacy.load_lua" if looks_like_t7(data) else ""
            raise self.fail(f"not an nn_legacy save file (it does not start with the nn_legacy magic bytes){hint}")
        _, major, minor, crc, hlen = PRELUDE.unpack_from(data)
        if major > MAJOR:
            raise self.fail(f"written in format version {major}.{minor}, newer than the {MAJOR}.x this "
                            f"nn_legacy reads; load it with a newer nn_legacy")
        if major < 1:
            raise self.fail(f"unknown format version {major}.{minor}")
        if hlen > len(data) - PRELUDE.size:
            raise self.fail(f"truncated file: a header of {hlen} bytes, {len(data) - PRELUDE.size} bytes follow "
                            f"the prelude")
        prelude = PRELUDE.pack(MAGIC, major, minor, 0, hlen)
        if zlib.crc32(memoryview(data)[PRELUDE.size:], zlib.crc32(prelude)) != crc:
            raise self.fail("damaged or truncated file: the checksum does not match the contents")
        try:
            header = json.loads(data[PRELUDE.size:PRELUDE.size + hlen].decode("utf-8"),
                                parse_constant=_no_constant)
        except (ValueError, RecursionError) as e:   # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise self.fail(f"the header is not valid JSON ({type(e).__name__}: {str(e)[:200]})") from None
        if not isinstance(header, dict):
            raise self.fail("the header is not a JSON object")
        self.data_start = _aligned(PRELUDE.size + hlen)
        data_nbytes = self.field(header, "data_nbytes", int)
        if self.data_start + data_nbytes != len(data):
            raise self.fail(f"the data section should be {data_nbytes} bytes from offset {self.data_start}, "
                            f"but the file has {len(data)} bytes")
        self.data_nbytes = data_nbytes
        return header

    def field(self, entry, key, kind, what="the header"):
        if key not in entry:
            raise self.fail(f"{what} has no '{key}'")
        value = entry[key]
        if kind is int:
            return self.integer(value, f"{what} '{key}'")
        if kind is not None and type(value) is not kind:
            raise self.fail(f"{what} '{key}' must be a JSON {kind.__name__}, got {type(value).__name__}")
        return value

    def integer(self, value, what, low=0, high=_BIG):
        if type(value) is not int or not low <= value <= high:
            raise self.fail(f"{what} must be an integer in [{low}, {high}], got {repr(value)[:40]}")
        return value

    # ---- arrays ----
    def read_buffers(self, entries, dtypes):
        """Each buffer copied out of the file, as an array of the dtype of
        the arrays viewing it when they all have one (so the parameters of
        a flattened model are views of one flat array again), else bytes."""
        buffers, end = [], 0
        for i, entry in enumerate(entries):
            what = f"buffer {i}"
            if not isinstance(entry, dict):
                raise self.fail(f"{what} is not a JSON object")
            offset = self.field(entry, "offset", int, what)
            nbytes = self.field(entry, "nbytes", int, what)
            if offset < end or offset + nbytes > self.data_nbytes:
                raise self.fail(f"{what} (bytes {offset}..{offset + nbytes}) overlaps the one before or "
                                f"lies outside the data section of {self.data_nbytes} bytes")
            end = offset + nbytes
            dtype = dtypes.get(i, np.dtype(np.uint8))
            if nbytes % dtype.itemsize:
                dtype = np.dtype(np.uint8)
            buffer = np.frombuffer(self.data, dtype, nbytes // dtype.itemsize, self.data_start + offset)
            buffers.append(buffer.astype(dtype.newbyteorder("=")))   # a copy: writable, its own memory
        return buffers

    def read_array(self, i, entry):
        what = f"array {i}"
        if not isinstance(entry, dict):
            raise self.fail(f"{what} is not a JSON object")
        name = self.field(entry, "dtype", str, what)
        if name not in _DTYPES:
            raise self.fail(f"{what} has dtype {name[:40]!r}, not one of {', '.join(_DTYPES)}")
        dtype = _DTYPES[name]
        shape, strides = self.field(entry, "shape", list, what), self.field(entry, "strides", list, what)
        if len(shape) > MAX_DIM or len(strides) != len(shape):
            raise self.fail(f"{what}: {len(shape)} sizes and {len(strides)} strides (at most {MAX_DIM} dims)")
        shape = [self.integer(n, f"{what} size") for n in shape]
        strides = [self.integer(s, f"{what} stride", -_BIG) for s in strides]
        offset = self.field(entry, "offset", int, what)
        buffer = entry.get("buffer")
        numel = math.prod(shape)
        if buffer is None:
            if numel != 0:
                raise self.fail(f"{what} of size {shape} has no buffer")
            try:
                return np.empty(shape, dtype.newbyteorder("="))
            except (ValueError, MemoryError) as e:
                raise self.fail(f"{what} of size {shape}: {e}") from None
        index = self.integer(buffer, f"{what} buffer", 0, len(self.buffers) - 1)
        raw = self.buffers[index]
        low, high = _extent(shape, strides, dtype.itemsize)
        if numel == 0 or not _compact(shape, strides, dtype.itemsize) or offset + low < 0 \
                or offset + high > raw.nbytes:
            raise self.fail(f"{what} of size {shape} (strides {strides}, offset {offset}) does not lie "
                            f"inside its buffer of {raw.nbytes} bytes without overlapping itself")
        # a typed buffer was converted to this machine's byte order when read; raw bytes are little-endian
        view_dtype = raw.dtype if raw.dtype.itemsize > 1 else dtype
        try:
            array = np.ndarray(shape, view_dtype, buffer=raw, offset=offset, strides=strides)
        except ValueError as e:
            raise self.fail(f"{what} of size {shape}: {e}") from None
        return array if array.dtype.isnative else array.astype(array.dtype.newbyteorder("="))

    # ---- objects ----
    def shell(self, i, entry):
        """An empty list, dict or module, to be filled once all exist (so
        references between objects, cycles included, need no recursion)."""
        what = f"object {i}"
        if not isinstance(entry, dict) or len(entry.keys() & {"list", "dict", "module"}) != 1:
            raise self.fail(f"{what} is not a JSON object with one of 'list', 'dict' or 'module'")
        if "list" in entry:
            return []
        if "dict" in entry:
            return {}
        name = self.field(entry, "module", str, what)
        if "." in name:   # a class of the user's, by its registered name
            cls = self.registered.get(name)
            if cls is None:
                raise self.fail(f"{what} is of class {name[:80]!r}, which is not registered: register the class "
                                f"(@nn_legacy.register_class) or pass classes={{{name[:80]!r}: ...}} to load")
            return cls.__new__(cls)
        cls = self.classes.get(name)
        if cls is None:
            raise self.fail(f"{what} is of class {name[:80]!r}, which is not an nn_legacy class")
        return cls.__new__(cls)

    def fill(self, i, entry):
        obj, what = self.objects[i], f"object {i}"
        if isinstance(obj, list):
            items = self.field(entry, "list", list, what)
            obj.extend(self.value(v, f"{what}[{k}]", 0) for k, v in enumerate(items))
        elif isinstance(obj, dict):
            for k, pair in enumerate(self.field(entry, "dict", list, what)):
                if type(pair) is not list or len(pair) != 2:
                    raise self.fail(f"{what} entry {k} is not a [key, value] pair")
                key = self.value(pair[0], f"{what} key {k}", 0)
                try:
                    hash(key)
                except TypeError:
                    raise self.fail(f"{what} key {k} is a {type(key).__name__}, which cannot be a key") from None
                obj[key] = self.value(pair[1], f"{what}[{k}]", 0)
        else:
            cls = type(obj)
            for key, v in self.field(entry, "fields", dict, what).items():
                self.check_field(cls, key, what)
                obj.__dict__[key] = self.value(v, f"{what}.{key}", 0)
            for key in _cleared(cls):
                obj.__dict__[key] = None

    def check_field(self, cls, key, what):
        if not key.isidentifier() or key.startswith("__"):
            raise self.fail(f"{what} ({cls.__name__}) has a field named {key[:80]!r}")
        attr = inspect.getattr_static(cls, key, None)
        if callable(attr) or isinstance(attr, (property, staticmethod, classmethod, types.MemberDescriptorType,
                                               types.GetSetDescriptorType)):
            raise self.fail(f"{what} ({cls.__name__}) has a field '{key}', which would hide its class's {key}")

    def complete(self, module):
        """Fields the file lacks, from a module built without arguments (of
        the module's class, or else of the nearest base class that can be)."""
        from .t7 import _defaults
        for cls in type(module).__mro__:
            defaults = _defaults(cls) if cls is not object else {}
            if defaults:
                break
        for key, value in defaults.items():
            module.__dict__.setdefault(key, value)

    def value(self, v, what, depth):
        if v is None or type(v) in (bool, int, float, str):
            return v
        if type(v) is not dict or len(v) != 1:
            raise self.fail(f"{what} is a JSON {type(v).__name__} where a value was expected")
        (tag, x), = v.items()
        if tag == "ref":
            return self.objects[self.integer(x, f"{what} reference", 0, len(self.objects) - 1)]
        if tag in ("array", "scalar"):
            array = self.arrays[self.integer(x, f"{what} array", 0, len(self.arrays) - 1)]
            if tag == "array":
                return array
            if array.ndim != 0:
                raise self.fail(f"{what}: a scalar must be a 0-d array, got {array.ndim} dims")
            return array[()]
        if tag == "float" and x in ("nan", "inf", "-inf"):
            return float(x)
        if tag == "tuple" and type(x) is list:
            if depth >= MAX_DEPTH:
                raise self.fail(f"{what}: tuples nested deeper than {MAX_DEPTH}")
            return tuple(self.value(e, f"{what}[{k}]", depth + 1) for k, e in enumerate(x))
        if tag == "bytes" and type(x) is str:
            try:
                return base64.b64decode(x, validate=True)
            except ValueError:
                raise self.fail(f"{what}: bad base64") from None
        if tag == "dtype" and type(x) is str and x in _DTYPES:
            return np.dtype(x)
        raise self.fail(f"{what}: {str(tag)[:40]!r} with {type(x).__name__} is not a value of this format")


def _buffer_dtypes(arrays):
    """buffer index -> the dtype of the arrays viewing it, for buffers whose
    arrays all have one dtype (malformed entries are left to read_array)."""
    seen = {}
    for entry in arrays:
        if isinstance(entry, dict) and type(entry.get("buffer")) is int and type(entry.get("dtype")) is str:
            seen.setdefault(entry["buffer"], set()).add(entry["dtype"])
    return {i: _DTYPES[next(iter(names))] for i, names in seen.items() if len(names) == 1 and names <= _DTYPES.keys()}


def _no_constant(name):
    raise ValueError(f"{name} is not a number of this format")

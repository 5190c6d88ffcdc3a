"""A writer of Torch7 files (torch.save's format, binary or ASCII) for tests
that load what Torch7 would have saved.  Test-only: it writes what Torch7's
File.lua (writeObject), Tensor.c / Storage.c (write) and THDiskFile.c wrote,
so that a test can build the exact byte stream a class of a given version
left behind.

    t7_bytes(value, ascii=False, long_size=8)

Values:
- None, bool, int / float (a Lua number), str;
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
        elif isinstance(v, str):
            out.int(2)
            out.chars(v.encode())
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

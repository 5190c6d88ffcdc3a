"""A minimal writer of Torch7 binary files (torch.save's format), for tests
that load modules Torch7 would have saved: numbers, strings, booleans,
tables (dicts), double tensors and torch objects."""
import struct

import numpy as np


#: fields of a T7Object whose class writes nothing (torch.Timer)
NO_PAYLOAD = object()


class T7Object:
    """A torch class instance to write: class name, version, field table
    (NO_PAYLOAD: none), and a header written before the fields for classes
    whose write() puts one there (nn.GPU)."""

    def __init__(self, class_name, fields, version=1, header=None):
        self.class_name, self.fields, self.version, self.header = class_name, fields, version, header


def t7_bytes(value):
    out, counter = [], [0]

    def i(v):
        return struct.pack("<i", v)

    def s(text):
        raw = text.encode()
        return i(len(raw)) + raw

    def index():
        counter[0] += 1
        return i(counter[0])

    def write(v):
        if v is None:
            out.append(i(0))
        elif isinstance(v, bool):
            out.append(i(5) + i(int(v)))
        elif isinstance(v, (int, float)):
            out.append(i(1) + struct.pack("<d", v))
        elif isinstance(v, str):
            out.append(i(2) + s(v))
        elif isinstance(v, dict):
            out.append(i(3) + index() + i(len(v)))
            for key, item in v.items():
                write(key)
                write(item)
        elif isinstance(v, np.ndarray):
            a = np.ascontiguousarray(v, dtype=np.float64)
            out.append(i(4) + index() + s("V 1") + s("torch.DoubleTensor") + i(a.ndim))
            out.append(b"".join(struct.pack("<q", n) for n in a.shape))
            out.append(b"".join(struct.pack("<q", st // 8) for st in a.strides) + struct.pack("<q", 1))
            out.append(i(4) + index() + s("V 1") + s("torch.DoubleStorage") + struct.pack("<q", a.size)
                       + a.tobytes())
        elif isinstance(v, T7Object):
            out.append(i(4) + index() + s(f"V {v.version}") + s(v.class_name))
            if v.header is not None:
                write(v.header)
            if v.fields is not NO_PAYLOAD:
                write(v.fields)
        else:
            raise TypeError(f"t7_bytes cannot write {type(v).__name__}")

    write(value)
    return b"".join(out)

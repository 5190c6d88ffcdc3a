"""tests/t7_writer.py writes what torch.save wrote: read each real Torch7
file of tests/data/t7 (binary and ASCII) into the writer's objects, keeping
classes, versions, field order and shared objects, write it again and get
the same bytes.  The tests that build Torch7 files with the writer rest on
this."""
import os

import numpy as np
import pytest

from nn_legacy.serialization.t7 import LuaTable, Reader, TorchObject
from t7_writer import Function, Key, Storage, T7Object, Tensor, t7_bytes

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "t7")


class _Recording(Reader):
    """The reader, keeping what the writer needs to write the file again:
    tensor and storage classes, views of shared storages, tables as keys."""

    def _storage(self, name, dtype):
        return Storage(super()._storage(name, dtype), name)

    def _tensor(self, name, dtype, depth):
        s = self.stream
        ndim = s.int()
        sizes, strides = s.longs(ndim, "sizes"), s.longs(ndim, "strides")
        offset = s.long_int()
        return Tensor(cls=name, storage=self._object(depth + 1), sizes=sizes, strides=strides, offset=offset)

    def _table(self, index, depth):
        table = LuaTable()
        self.objects[index] = table
        for _ in range(self.stream.int("a table size")):
            key = self._object(depth + 1)
            table[Key(key) if isinstance(key, dict) else key] = self._object(depth + 1)
        return table


def _mirror(value, memo):
    """The reader's objects as the writer's."""
    if id(value) in memo:
        return memo[id(value)]
    if isinstance(value, TorchObject):
        obj = memo[id(value)] = T7Object(value.class_name, None, value.version)
        obj.header = None if value.header is None else _mirror(value.header, memo)
        obj.fields = _mirror(value.fields, memo)
        return obj
    if isinstance(value, LuaTable):
        table = memo[id(value)] = {}
        for k, v in value.items():
            table[Key(_mirror(k.table, memo)) if isinstance(k, Key) else _mirror(k, memo)] = _mirror(v, memo)
        return table
    if isinstance(value, Tensor) and value.storage is not None:
        value.storage = _mirror(value.storage, memo)
    return value


def _files():
    found = []
    for folder, _, names in os.walk(DATA):
        for name in sorted(names):
            if name.endswith((".t7", ".txt")) and not name.startswith("tds_"):   # tds writes its own way
                found.append(os.path.relpath(os.path.join(folder, name), DATA))
    return sorted(found)


@pytest.mark.parametrize("name", _files())
def test_the_writer_gives_back_every_real_file_byte_for_byte(name):
    with open(os.path.join(DATA, name), "rb") as f:
        data = f.read()
    ascii = name.endswith(".txt")
    written = t7_bytes(_mirror(_Recording(data, ascii=ascii).read(), {}), ascii=ascii)
    assert written == data


def test_the_real_files_cover_what_the_writer_writes():
    """(The byte-for-byte test above is worth something only if the files hold
    these: binary and ASCII, tensors of two types, empty tensors, tables of
    both kinds, shared objects and cycles, versions, NaN in ASCII.)"""
    assert len(_files()) >= 40
    with open(os.path.join(DATA, "opencv_ascii", "net_batch_norm_net.txt"), "rb") as f:
        assert b"-nan" in f.read()


def test_the_writers_own_values():
    """Versions (none before Torch7 had them), headers, functions and 4-byte
    longs, read back by the reader."""
    from nn_legacy.serialization.t7 import LuaFunction
    obj = T7Object("Old", {"x": 1}, version=None)
    header = T7Object("nn.GPU", {"modules": {}}, header={1: "torch.CudaTensor"})
    value = {"old": obj, "gpu": header, "f": Function(upvalues={"a": obj}), "same": obj,
             "t": Tensor(np.arange(6.0).reshape(2, 3), "torch.FloatTensor")}
    for long_size in (8, 4):
        got = Reader(t7_bytes(value, long_size=long_size), long_size=long_size).read()
        assert got["old"].version == 0 and got["old"].fields == {"x": 1.0} and got["same"] is got["old"]
        assert got["gpu"].header == {1.0: "torch.CudaTensor"}
        assert isinstance(got["f"], LuaFunction) and got["f"].upvalues == ("a",)
        assert got["t"].dtype == np.float32 and got["t"].tolist() == [[0, 1, 2], [3, 4, 5]]
    ascii = Reader(t7_bytes(value, ascii=True), ascii=True).read()
    assert ascii["t"].tolist() == [[0, 1, 2], [3, 4, 5]] and ascii["old"].fields == {"x": 1.0}

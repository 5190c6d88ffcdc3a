"""Torch7 files from every build: 4-byte C longs (Windows, 32-bit ARM),
detected without being told; expanded and oddly strided tensor views,
loaded as views of their storage.  The files are written by tests/t7_writer.py
as torch.save wrote them."""
import struct
import tracemalloc

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization.t7 import (LuaFunction, Reader, T7Error, TorchObject, load_lua,
                                        may_overlap, read_bytes)
from t7_writer import NO_PAYLOAD, Function, Key, Storage, T7Object, Tensor, t7_bytes

ELEMENTS = {"Double": np.float64, "Float": np.float32, "Half": np.float16, "Long": np.int64, "Int": np.int32,
            "Short": np.int16, "Char": np.int8, "Byte": np.uint8}


def _every_kind():
    """One value of every kind of object torch.save wrote."""
    rng = np.random.default_rng(0)
    shared = Storage(np.arange(12.0), "torch.DoubleStorage")
    obj = T7Object("Blah", {"x": 1.5}, version=None)
    value = {
        "nil": None, "number": -2.5, "integer": 7, "string": "héllo", "true": True, "false": False,
        "list": {1: "a", 2: "b"}, "map": {0: "zero", "k": {1: 3}},
        "empty": Tensor(np.zeros(0)), "old": obj, "again": obj,
        "gpu": T7Object("nn.GPU", {"modules": {}}, header={1: "torch.CudaTensor"}),
        "timer": T7Object("torch.Timer", NO_PAYLOAD),
        "function": Function(upvalues={"up": obj}), "legacy_function": Function(upvalues={"a": 1}, tag=7),
        "view": Tensor(cls="torch.DoubleTensor", storage=shared, sizes=[3, 2], strides=[1, 3], offset=2),
        "view2": Tensor(cls="torch.DoubleTensor", storage=shared, sizes=[4], strides=[3], offset=1),
        "storage": shared,
        "cuda": Tensor(rng.standard_normal((2, 3)).astype(np.float32), "torch.CudaTensor"),
        "cuda_long": Tensor(np.arange(4), "torch.CudaLongTensor"),
    }
    for element, dtype in ELEMENTS.items():
        values = (rng.integers(-100, 100, size=(2, 3)) if np.dtype(dtype).kind in "iu"
                  else rng.standard_normal((2, 3))).astype(dtype)
        if element == "Byte":
            values = np.abs(values.astype(np.int64)).astype(np.uint8)
        value[f"tensor_{element}"] = Tensor(values, f"torch.{element}Tensor")
        value[f"storage_{element}"] = Storage(values.ravel(), f"torch.{element}Storage")
    key = {"a key": 1}
    value["keyed"] = {Key(key): True, "same key": key}
    return value


def _same(a, b, seen=None):
    """Deep equality of two read_t7 results (arrays by dtype-free values)."""
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, TorchObject):
        return (isinstance(b, TorchObject) and (a.class_name, a.version) == (b.class_name, b.version)
                and _same(a.header, b.header) and _same(a.fields, b.fields))
    if isinstance(a, LuaFunction):
        return isinstance(b, LuaFunction) and (a.nbytes, a.upvalues) == (b.nbytes, b.upvalues)
    if isinstance(a, dict):
        if not isinstance(b, dict) or len(a) != len(b):
            return False
        plain = [k for k in a if not isinstance(k, tuple)]
        return all(k in b and _same(a[k], b[k]) for k in plain)
    return a == b


def test_the_writer_writes_every_kind_of_object_with_four_byte_longs():
    value = _every_kind()
    eight, four = t7_bytes(value), t7_bytes(value, long_size=4)
    assert len(four) < len(eight)
    expected = Reader(eight).read()
    got = Reader(four, long_size=4).read()
    assert _same(expected, got) and _same(got, expected)
    # longs are int32 in such a file; the rest of the kinds read the same
    assert got["tensor_Long"].dtype == np.int32 and expected["tensor_Long"].dtype == np.int64
    assert got["again"] is got["old"] and got["view"].base is not None
    np.testing.assert_array_equal(got["view"], np.arange(1.0, 7.0).reshape(2, 3).T)
    got["storage"][1] = 100.0   # views share their storage as in Torch7
    assert got["view"][0, 0] == 100.0


@pytest.mark.parametrize("kind", sorted(_every_kind()))
def test_every_kind_of_object_loads_from_a_four_byte_file_without_being_told(kind):
    """Each kind alone, and next to a tensor (whose longs decide the size)."""
    value = _every_kind()
    for v in (value[kind], {"it": value[kind], "t": Tensor(np.arange(6.0).reshape(2, 3))}):
        four = t7_bytes(v, long_size=4)
        assert _same(read_bytes(four), Reader(four, long_size=4).read())
        assert _same(read_bytes(four), Reader(t7_bytes(v), long_size=8).read())


def _model():
    rng = np.random.default_rng(1)
    linear = T7Object("nn.Linear", {"weight": Tensor(rng.standard_normal((4, 3)), "torch.FloatTensor"),
                                    "bias": Tensor(rng.standard_normal(4), "torch.FloatTensor"), "train": False})
    lookup = T7Object("nn.LookupTable", {"weight": Tensor(rng.standard_normal((5, 3)), "torch.FloatTensor"),
                                         "paddingValue": 0, "train": False}, version=4)
    return T7Object("nn.Sequential", {"modules": {1: T7Object("nn.Tanh", {"train": False}), 2: linear},
                                      "lookup": lookup, "train": False})


def test_a_four_byte_model_loads_and_computes_as_the_eight_byte_one(tmp_path):
    x = np.random.default_rng(2).standard_normal((2, 3)).astype(np.float32)
    outputs = []
    for long_size in (8, 4):
        f = tmp_path / f"net{long_size}.t7"
        f.write_bytes(t7_bytes(_model(), long_size=long_size))
        net = load_lua(str(f))
        assert isinstance(net, nn.Sequential) and isinstance(net.lookup, nn.LookupTable)
        outputs.append(net.forward(x).copy())
        with pytest.raises(T7Error):   # told the wrong size: no detection
            load_lua(str(f), long_size=12 - long_size)
    np.testing.assert_array_equal(*outputs)


def test_ascii_files_have_no_longs_to_detect(tmp_path):
    f = tmp_path / "a.t7"
    f.write_bytes(t7_bytes(_model(), ascii=True))
    assert isinstance(load_lua(str(f)), nn.Sequential)
    bad = t7_bytes({"t": Tensor(np.arange(3.0))}, ascii=True).replace(b"\n3\n", b"\n-3\n", 1)
    with pytest.raises(T7Error) as info:
        read_bytes(bad)
    assert "4-byte" not in str(info.value)


def test_when_neither_size_parses_the_eight_byte_error_says_both_were_tried():
    data = t7_bytes({"t": Tensor(np.arange(6.0))}, long_size=4)[:-9]
    with pytest.raises(T7Error) as four:
        Reader(data, long_size=4).read()
    with pytest.raises(T7Error) as eight:
        Reader(data, long_size=8).read()
    with pytest.raises(T7Error) as auto:
        read_bytes(data)
    message = str(auto.value)
    assert message.startswith(str(eight.value)) and str(four.value) in message and "4-byte longs" in message


def test_a_four_byte_reading_must_take_the_whole_file():
    data = t7_bytes({"t": Tensor(np.arange(6.0))}, long_size=4)
    with pytest.raises(T7Error, match="ends at byte"):
        read_bytes(data + b"\x00" * 8)
    assert read_bytes(data)["t"].tolist() == list(range(6))


def test_a_failure_before_the_first_long_is_not_read_twice(monkeypatch):
    calls = []
    original = Reader.read
    monkeypatch.setattr(Reader, "read", lambda self: calls.append(self.stream.long_size) or original(self))
    with pytest.raises(T7Error, match="truncated") as info:
        read_bytes(struct.pack("<ii", 3, 1) + struct.pack("<i", 5))   # a table of 5 entries, none there
    assert calls == [8] and "4-byte" not in str(info.value)
    calls.clear()
    with pytest.raises(T7Error):
        read_bytes(t7_bytes(Tensor(np.arange(4.0)))[:-3])
    assert calls == [8, 4]


def test_the_retry_of_a_large_hostile_file_keeps_one_readings_memory():
    """A large file that fails late: the 4-byte reading happens once, after
    the 8-byte one's objects are gone (the peak is one reading's)."""
    big = {i + 1: float(i) for i in range(6000)}   # no long before the end: the readings agree up to there
    big["t"] = Tensor(np.arange(4.0))
    data = t7_bytes(big)[:-5]    # truncated in the tensor at the end: both readings go all the way
    peaks = []
    for long_size in (8, None):
        tracemalloc.start()
        try:
            with pytest.raises(T7Error):
                read_bytes(data, long_size=long_size)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] < 1.3 * peaks[0] + 100_000, peaks


# ---------------------------------------------------------------- expanded and strided views
def _view(storage, sizes, strides, offset=1, cls="torch.DoubleTensor", long_size=8):
    st = Storage(storage, cls.replace("Tensor", "Storage"))
    return Reader(t7_bytes(Tensor(cls=cls, storage=st, sizes=sizes, strides=strides, offset=offset),
                           long_size=long_size), long_size=long_size).read()


def _reference(storage, sizes, strides, offset):
    """The view's values by index arithmetic, element by element."""
    out = np.empty(sizes, dtype=np.asarray(storage).dtype)
    for index in np.ndindex(*sizes):
        out[index] = storage[offset - 1 + sum(i * s for i, s in zip(index, strides))]
    return out


@pytest.mark.parametrize("long_size", (8, 4))
def test_expanded_views_load_as_read_only_views_of_their_storage(long_size):
    storage = np.arange(1.0, 4.0)
    rows = _view(storage, [4, 3], [0, 1], long_size=long_size)      # expand(4, 3) of a row
    np.testing.assert_array_equal(rows, np.broadcast_to(storage, (4, 3)))
    assert rows.strides == (0, 8) and not rows.flags.writeable
    columns = _view(storage, [3, 5], [1, 0], long_size=long_size)    # Replicate along dim 2
    np.testing.assert_array_equal(columns, np.repeat(storage[:, None], 5, axis=1))
    one = _view(storage, [2, 3, 4], [0, 0, 0], offset=3, long_size=long_size)   # every element the 3rd
    assert one.shape == (2, 3, 4) and (one == 3.0).all() and not one.flags.writeable
    # more elements than the storage holds: what counts is the largest offset reached
    assert _view(np.arange(2.0), [1000, 2], [0, 1]).shape == (1000, 2)


def test_strided_views_that_do_not_overlap_stay_writeable_and_share_the_storage():
    storage = np.arange(24.0)
    every_other = _view(storage, [6], [2], offset=3)
    np.testing.assert_array_equal(every_other, storage[2::2][:6])
    transposed = _view(storage, [4, 3, 2], [1, 8, 4])
    np.testing.assert_array_equal(transposed, _reference(storage, [4, 3, 2], [1, 8, 4], 1))
    assert every_other.flags.writeable and transposed.flags.writeable
    every_other[0] = -1.0
    assert every_other.base is not None   # a view: the storage changed with it


def test_the_largest_reachable_offset_is_what_is_checked():
    storage = np.arange(10.0)
    assert _view(storage, [2, 2], [5, 4], offset=1)[1, 1] == 9.0          # reaches element 10 of 10
    with pytest.raises(T7Error, match="reaches element 11"):
        _view(storage, [2, 2], [5, 4], offset=2)
    with pytest.raises(T7Error, match="reaches element"):
        _view(storage, [3, 1000], [5, 0])    # 0 stride along the big dim, too far along the other
    with pytest.raises(T7Error, match="its strides are 0 or more"):
        _view(storage, [3], [-1], offset=3)
    with pytest.raises(T7Error, match="more elements than an array can index"):
        _view(storage, [0, 2 ** 62, 2 ** 62], [0, 0, 0])


def test_overlap_is_read_only_and_only_overlap():
    assert may_overlap([3, 2], [1, 1]) and may_overlap([4, 3], [0, 1]) and may_overlap([3, 2], [2, 3])
    assert not may_overlap([3, 2], [2, 1]) and not may_overlap([1, 5], [0, 1]) and not may_overlap([2, 2], [3, 2])
    assert not may_overlap([2, 1, 3], [3, 0, 1])   # a size-1 dim's stride reaches nothing


def test_random_layouts_load_exactly_or_are_refused_by_their_reach():
    """Any sizes, strides (0 included) and offset: loads, equal to index
    arithmetic, when the largest offset stays inside the storage; refused
    otherwise.  Never another error."""
    rng = np.random.default_rng(11)
    loaded = refused = 0
    for _ in range(400):
        ndim = int(rng.integers(1, 4))
        sizes = [int(n) for n in rng.integers(0, 5, size=ndim)]
        strides = [int(s) for s in rng.integers(0, 7, size=ndim)]
        storage = rng.standard_normal(int(rng.integers(1, 30)))
        offset = int(rng.integers(1, 8))
        reach = offset - 1 + sum((n - 1) * s for n, s in zip(sizes, strides))
        try:
            got = _view(storage, sizes, strides, offset)
        except T7Error as e:
            assert 0 not in sizes and reach >= storage.size, (sizes, strides, offset, e)
            refused += 1
            continue
        assert 0 in sizes or reach < storage.size
        np.testing.assert_array_equal(got, _reference(storage, sizes, strides, offset))
        distinct = len({offset - 1 + sum(i * s for i, s in zip(ix, strides)) for ix in np.ndindex(*sizes)})
        if distinct < got.size:   # overlapping elements are never writeable
            assert not got.flags.writeable
        loaded += 1
    assert loaded > 100 and refused > 50


def _expanded_model():
    """A Linear whose weight is one row expanded (Torch7's expandAs), shared
    by a second Linear, and a Replicate whose output is its expand()."""
    row = Storage(np.array([0.5, -1.0, 2.0]))
    weight = Tensor(storage=row, sizes=[2, 3], strides=[0, 1])
    bias = Tensor(np.array([0.25, -0.25]))
    linear = T7Object("nn.Linear", {"weight": weight, "bias": bias, "train": False})
    twin = T7Object("nn.Linear", {"weight": weight, "bias": Tensor(np.zeros(2)), "train": False})
    replicate = T7Object("nn.Replicate", {"nfeatures": 4, "dim": 1, "train": False,
                                          "output": Tensor(storage=Storage(np.arange(2.0)), sizes=[4, 2],
                                                           strides=[0, 1])})
    return T7Object("nn.Sequential", {"modules": {1: linear, 2: replicate}, "twin": twin, "train": False})


@pytest.mark.parametrize("long_size", (8, 4))
def test_a_module_with_an_expanded_weight_gets_a_copy_of_its_own(tmp_path, long_size):
    f = tmp_path / "expanded.t7"
    f.write_bytes(t7_bytes(_expanded_model(), long_size=long_size))
    net = load_lua(str(f))
    linear, replicate = net.get(0), net.get(1)
    w = linear.weight
    assert w.flags.writeable and w.flags.c_contiguous and w.shape == (2, 3)
    np.testing.assert_array_equal(w, [[0.5, -1.0, 2.0]] * 2)
    assert net.twin.weight is w                 # shared in the file, one copy here
    assert not replicate.output.flags.writeable  # a plain field: the view as saved
    x = np.array([1.0, 2.0, 3.0])
    y = net.forward(x)
    np.testing.assert_array_equal(y, np.broadcast_to(w @ x + [0.25, -0.25], (4, 2)))
    net.backward(x, np.ones((4, 2)))
    np.testing.assert_array_equal(linear.gradWeight, 4 * np.stack([x, x]))
    net.updateParameters(0.1)                   # the rows now differ: a copy, not the expanded row
    np.testing.assert_array_equal(linear.weight, [[0.5, -1.0, 2.0]] * 2 - 0.4 * np.stack([x, x]))


def _damaged_loads(raw, tmp_path, flips, seed):
    """Every truncation and `flips` random bit flips of raw, through
    load_lua with detection: a module, a TorchObject graph or T7Error, and
    no more memory than a few times the file."""
    f = tmp_path / "f.t7"
    for n in range(0, len(raw), max(1, len(raw) // 150)):
        f.write_bytes(raw[:n])
        with pytest.raises(T7Error):
            load_lua(str(f))
    rng = np.random.default_rng(seed)
    loaded = 0
    tracemalloc.start()
    try:
        for _ in range(flips):
            damaged = bytearray(raw)
            for pos in rng.integers(0, len(raw), size=int(rng.integers(1, 4))):
                damaged[pos] ^= 1 << int(rng.integers(0, 8))
            f.write_bytes(bytes(damaged))
            tracemalloc.reset_peak()
            try:
                load_lua(str(f), unknown_classes="object")
                loaded += 1
            except T7Error:
                pass
            assert tracemalloc.get_traced_memory()[1] < 2_000_000
    finally:
        tracemalloc.stop()
    return loaded


@pytest.mark.parametrize("long_size", (8, 4))
def test_fuzz_four_byte_and_stride_0_streams_within_the_files_memory(tmp_path, long_size):
    """(test_t7.py's test_truncations_and_bit_flips_of_a_written_model runs
    these streams too; here with a LookupTable, shared expanded weights, and
    the memory each damaged load takes.)"""
    for model in (_model(), _expanded_model()):
        raw = t7_bytes(model, long_size=long_size)
        loaded = _damaged_loads(raw, tmp_path, 120, long_size)
        assert 0 < loaded < 120


# ---------------------------------------------------------------- a user's class mapped onto nn_legacy's
def _custom_linear(fields):
    return T7Object("nn.Sequential", {"modules": {1: T7Object("nn.CustomLinear", fields)}, "train": False})


def test_a_custom_class_maps_onto_an_nn_legacy_class_whose_fields_line_up(tmp_path):
    rng = np.random.default_rng(3)
    w, b = rng.standard_normal((2, 3)), rng.standard_normal(2)
    f = tmp_path / "custom.t7"
    f.write_bytes(t7_bytes(_custom_linear({"weight": w, "bias": b, "train": False, "extra": 3})))
    with pytest.raises(T7Error, match=r"nn.CustomLinear .*classes=\{'nn.CustomLinear': nn_legacy.Linear\}"):
        load_lua(str(f))
    net = load_lua(str(f), classes={"nn.CustomLinear": nn.Linear})
    x = rng.standard_normal(3)
    np.testing.assert_allclose(net.forward(x), w @ x + b, rtol=1e-15)
    assert isinstance(net.get(0), nn.Linear) and net.get(0).extra == 3.0


def test_a_mapping_whose_fields_do_not_line_up_names_what_is_missing(tmp_path):
    f = tmp_path / "custom.t7"
    f.write_bytes(t7_bytes(_custom_linear({"bias": np.zeros(2), "train": False})))
    with pytest.raises(T7Error, match=r"root.modules\[0\]: nn.CustomLinear loaded as nn_legacy.Linear lacks the "
                                      r"field\(s\) weight that Linear needs; its fields are bias, train"):
        load_lua(str(f), classes={"nn.CustomLinear": nn.Linear})
    f.write_bytes(t7_bytes(_custom_linear({"size": np.array([4.0]), "train": False})))
    with pytest.raises(T7Error, match=r"lacks the field\(s\) nfeatures, dim\b.* that Replicate needs"):
        load_lua(str(f), classes={"nn.CustomLinear": nn.Replicate})
    f.write_bytes(t7_bytes(_custom_linear({"nfeatures": 3, "dim": 1, "train": False})))
    rep = load_lua(str(f), classes={"nn.CustomLinear": nn.Replicate}).get(0)   # ndim: absent in old files too
    assert rep.forward(np.ones(2)).shape == (3, 2)


def test_a_users_own_class_registered_under_another_name_is_not_checked(tmp_path):
    class Scale(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.k = k

        def updateOutput(self, input):
            self.output = getattr(self, "k", 2.0) * input
            return self.output
    f = tmp_path / "scale.t7"
    f.write_bytes(t7_bytes(T7Object("nnx.Scale", {"train": False})))
    assert load_lua(str(f), classes={"nnx.Scale": Scale}).forward(np.ones(2)).tolist() == [2.0, 2.0]

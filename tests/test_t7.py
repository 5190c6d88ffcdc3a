"""nn_legacy.t7: reading real Torch7 files, and refusing bad ones cleanly."""
import os
import struct
import tracemalloc

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.t7 import LuaTable, T7Error, TorchObject, load_lua, read_t7, Reader

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..", "shared", "t7data")
if not os.path.isdir(DATA):
    DATA = os.environ.get("THNN_T7DATA", DATA)
needs_data = pytest.mark.skipif(not os.path.isdir(DATA), reason="shared/t7data is not beside the checkout")


def path(*parts):
    return os.path.join(DATA, *parts)


# ---------------------------------------------------------------- format files
@needs_data
def test_double_tensor():
    t = read_t7(path("torchfile", "doubletensor.t7"))
    assert t.dtype == np.float64
    np.testing.assert_array_equal(t, [[1, 2, 3], [4, 5, 6.9]])


@needs_data
def test_float_tensor():
    t = read_t7(path("torchfile", "floattensor.t7"))
    assert t.dtype == np.float32 and t.shape == (2, 3, 4)
    assert abs(float(t.astype(np.float64).sum()) - 12.97241666913) < 1e-6


@needs_data
def test_tables():
    assert read_t7(path("torchfile", "hello=123.t7")) == {"hello": 123.0}
    t = read_t7(path("torchfile", "list_table.t7"))
    assert t.as_list() == ["hello", "world", "third item", 123.0]
    t = read_t7(path("torchfile", "map_table1.t7"))
    assert t.as_list() is None and t[0.0] == "zero" and t[4.0] == 123.0
    t = read_t7(path("torchfile", "map_table2.t7"))
    assert t.as_list() is None and t["a"] == "non number key" and t[3.0] == "third item"


@needs_data
def test_custom_and_recursive_objects():
    obj = read_t7(path("torchfile", "custom_class.t7"))
    assert isinstance(obj, TorchObject) and obj.class_name == "Blah" and obj.fields == {}
    a = read_t7(path("torchfile", "recursive_class.t7"))
    assert a.class_name == "A" and a.fields["a"] is a
    t = read_t7(path("torchfile", "recursive_kv_table.t7"))
    (value,) = t.values()
    assert value is t


@needs_data
def test_tds_containers():
    assert read_t7(path("torchfile", "tds_hash.t7")) == {1.0: 2.0, 2.0: 3.0, 10.0: 11.0}
    assert read_t7(path("torchfile", "tds_vec.t7")) == [123.0, 456.0]


@needs_data
def test_nngraph_is_refused_by_name_or_kept_as_objects():
    f = path("torchfile", "gmodule_with_linear_identity.t7")
    with pytest.raises(T7Error, match="nn.gModule") as info:
        load_lua(f)
    assert "nngraph.Node" in str(info.value)
    g = load_lua(f, unknown_classes="object")
    assert isinstance(g, TorchObject) and g.class_name == "nn.gModule"
    linears = [m for m in g.fields["modules"] if isinstance(m, nn.Linear)]
    assert len(linears) == 1 and linears[0].weight.shape == (2, 1)


@needs_data
def test_back_references_are_shared():
    raw = read_t7(path("opencv_ascii", "net_softmax_net.txt"))
    inner = raw.fields["modules"][1.0]
    assert raw.fields["output"] is inner.fields["output"]
    net = load_lua(path("opencv_ascii", "net_softmax_net.txt"))
    assert net.output is net.get(0).output


# ---------------------------------------------------------------- real nets
OPENCV_NETS = ["linear_2d", "softmax", "logsoftmax", "softmax_spatial", "logsoftmax_spatial", "concat", "parallel",
               "batch_norm", "deconv"]


@needs_data
@pytest.mark.parametrize("name", OPENCV_NETS)
def test_opencv_net_reproduces_its_recorded_output(name):
    net = load_lua(path("opencv_ascii", f"net_{name}_net.txt"))
    x = read_t7(path("opencv_ascii", f"net_{name}_input.txt"))
    expected = read_t7(path("opencv_ascii", f"net_{name}_output.txt"))
    net.evaluate()
    diff = np.abs(net.forward(np.ascontiguousarray(x)) - expected)
    assert diff.mean() <= 1e-5 and diff.max() <= 1e-4, (diff.mean(), diff.max())


@needs_data
def test_cpptorch_float_linear():
    net = load_lua(path("cpptorch", "net.t7"))
    assert isinstance(net, nn.Linear) and net.weight.dtype == np.float32
    np.testing.assert_array_equal(net.weight, [[0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(net.gradWeight, np.zeros((2, 3)))  # stale gradients start at zero
    x = read_t7(path("cpptorch", "x.t7"))
    np.testing.assert_array_equal(net.forward(x), read_t7(path("cpptorch", "y.t7")))


@needs_data
def test_loaded_module_trains():
    net = load_lua(path("opencv_ascii", "net_linear_2d_net.txt"))
    x = read_t7(path("opencv_ascii", "net_linear_2d_input.txt"))
    before = net.weight.copy()
    net.zeroGradParameters()
    net.backward(x, np.ones((13, 3)))
    net.updateParameters(0.1)
    np.testing.assert_allclose(before - net.weight, 0.1 * np.ones((3, 13)) @ x)


@needs_data
def test_train_stored_as_number_zero():
    raw = read_t7(path("opencv_ascii", "net_batch_norm_net.txt"))
    bn = raw.fields["modules"][1.0]
    assert bn.version == 2 and bn.fields["train"] == 0


def test_unknown_classes_option_is_checked():
    with pytest.raises(ValueError, match="unknown_classes"):
        load_lua(__file__, unknown_classes="maybe")


# ---------------------------------------------------------------- crafted files
def _i(v):
    return struct.pack("<i", v)


def _s(text):
    raw = text.encode()
    return _i(len(raw)) + raw


def _tensor(values, long_fmt="<q", cls="torch.DoubleTensor", storage_cls="torch.DoubleStorage", sizes=None,
            strides=None, offset=1, count=None):
    values = np.asarray(values, dtype=np.float64)
    sizes = list(values.shape) if sizes is None else sizes
    strides = [int(s) for s in np.array(values.strides) // 8] if strides is None else strides
    long = lambda v: struct.pack(long_fmt, v)  # noqa: E731
    body = _i(4) + _i(1) + _s("V 1") + _s(cls) + _i(len(sizes))
    body += b"".join(map(long, sizes)) + b"".join(map(long, strides)) + long(offset)
    body += _i(4) + _i(2) + _s("V 1") + _s(storage_cls)
    body += long(values.size if count is None else count) + values.tobytes()
    return body


def test_windows_four_byte_longs():
    data = _tensor([[1.0, 2.0], [3.0, 4.0]], long_fmt="<i")
    np.testing.assert_array_equal(Reader(data, long_size=4).read(), [[1, 2], [3, 4]])
    with pytest.raises(T7Error):
        Reader(data, long_size=8).read()


def test_tensor_sharing_a_storage_and_strides():
    storage = np.arange(6.0)
    t = Reader(_tensor(storage, sizes=[3, 2], strides=[1, 3])).read()  # a transposed view
    np.testing.assert_array_equal(t, storage.reshape(2, 3).T)


def test_views_outside_their_storage_are_refused():
    with pytest.raises(T7Error, match="reaches element"):
        Reader(_tensor(np.arange(4.0), sizes=[4], strides=[1], offset=3)).read()
    with pytest.raises(T7Error, match="negative"):
        Reader(_tensor(np.arange(4.0), sizes=[2], strides=[-1], offset=2)).read()


def test_huge_declared_sizes_are_refused_before_allocating():
    with pytest.raises(T7Error, match="declares"):
        Reader(_tensor(np.arange(4.0), count=2**60)).read()
    with pytest.raises(T7Error, match="declares"):
        Reader(_i(3) + _i(1) + _i(2**31 - 1)).read()  # a table of 2^31 entries in 12 bytes
    with pytest.raises(T7Error, match="truncated"):
        Reader(_i(2) + _i(2**31 - 1) + b"abc").read()  # a 2 GB string


def test_functions_are_never_loaded():
    with pytest.raises(T7Error, match="function"):
        Reader(_i(6) + _i(1) + _i(10) + b"\x1bLJ" + b"\0" * 7).read()


def test_deep_nesting_is_refused():
    data = b"".join(_i(3) + _i(i + 1) + _i(1) + _i(1) + struct.pack("<d", 1.0) for i in range(1000))
    with pytest.raises(T7Error, match="nested deeper"):
        Reader(data).read()


def test_unknown_tag():
    with pytest.raises(T7Error, match=r"^not a Torch7 file: .* \(read as the unknown type tag 42\)"):
        Reader(_i(42)).read()


def _sample_files():
    if not os.path.isdir(DATA):
        return []
    return [path("torchfile", "gmodule_with_linear_identity.t7"), path("cpptorch", "net.t7"),
            path("opencv_ascii", "net_batch_norm_net.txt"), path("opencv_ascii", "net_softmax_net.txt")]


@needs_data
@pytest.mark.parametrize("f", _sample_files(), ids=os.path.basename)
def test_every_truncation_raises_t7error(f):
    with open(f, "rb") as fh:
        data = fh.read()
    step = max(1, len(data) // 400)
    for n in range(0, len(data), step):
        with pytest.raises(T7Error):
            Reader(data[:n], ascii=f.endswith(".txt")).read()


@needs_data
@pytest.mark.parametrize("f", _sample_files(), ids=os.path.basename)
def test_bit_flips_never_escape_as_other_errors(f):
    with open(f, "rb") as fh:
        data = bytearray(fh.read())
    rng = np.random.default_rng(7)
    for _ in range(300):
        damaged = bytearray(data)
        for pos in rng.integers(0, len(data), size=3):
            damaged[pos] ^= 1 << int(rng.integers(0, 8))
        try:
            Reader(bytes(damaged), ascii=f.endswith(".txt")).read()
        except T7Error:
            pass


# ---------------------------------------------------------------- hostile files, without the sample data
def _peak_of(call):
    """(the exception call raised, the peak bytes Python allocated meanwhile)."""
    tracemalloc.start()
    try:
        with pytest.raises(T7Error) as info:
            call()
        return info.value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _object(class_name, fields_table, index):
    return _i(4) + _i(index) + _s("V 1") + _s(class_name) + fields_table


HUGE = {
    "a storage of 2**60 doubles": _tensor(np.arange(4.0), count=2 ** 60),
    "a table of 2**31 - 1 entries": _i(3) + _i(1) + _i(2 ** 31 - 1),
    "a string of 2 GB": _i(2) + _i(2 ** 31 - 1) + b"abc",
    "a class name of 2 GB": _i(4) + _i(1) + _i(2 ** 31 - 1) + b"V 1",
    "a tds.Vec of 2**62 items": _i(4) + _i(1) + _s("V 1") + _s("tds.Vec") + struct.pack("<q", 2 ** 62),
    "a tds.Hash of 2**62 items": _i(4) + _i(1) + _s("V 1") + _s("tds.Hash") + struct.pack("<q", 2 ** 62),
    "2**31 - 1 dimensions": _i(4) + _i(1) + _s("V 1") + _s("torch.DoubleTensor") + _i(2 ** 31 - 1),
    "sizes 2**40 x 2**40, strides 0": _tensor(np.arange(1.0), sizes=[2 ** 40, 2 ** 40], strides=[0, 0]),
    "sizes 2**31 x 2**31, strides 0": _tensor(np.arange(1.0), sizes=[2 ** 31, 2 ** 31], strides=[0, 0]),
    "2**20 elements of a 1-element storage": _tensor(np.arange(1.0), sizes=[2 ** 20], strides=[0]),
    "sizes of 2**63 - 1": _tensor(np.arange(4.0), sizes=[2 ** 63 - 1, 2], strides=[1, 1]),
    "an ASCII storage of 2**60 numbers": b"4\n1\n3\nV 1\n19\ntorch.DoubleStorage\n1152921504606846976\n1 2 3\n",
}


@pytest.mark.parametrize("case", HUGE, ids=list(HUGE))
def test_hostile_sizes_are_refused_before_allocating(case):
    error, peak = _peak_of(lambda: Reader(HUGE[case]).read())
    assert peak < 1_000_000, f"{case}: {peak} bytes at the peak ({error})"


def test_an_expanded_weight_is_refused_before_its_gradient_is_allocated(tmp_path):
    # a Linear whose weight claims 2**17 x 2**17 elements of one stored number:
    # load_lua would allocate a 128 GB gradWeight for it; it refuses the view
    weight = _tensor(np.arange(1.0), sizes=[2 ** 17, 2 ** 17], strides=[0, 0])
    fields = _i(3) + _i(11) + _i(1) + _i(2) + _s("weight") + weight   # (the tensor has index 1, its storage 2)
    f = tmp_path / "expanded.t7"
    f.write_bytes(_object("nn.Linear", fields, 10))
    error, peak = _peak_of(lambda: load_lua(str(f)))
    assert "expanded views are not loaded" in str(error) and peak < 1_000_000


def test_an_ascii_storage_takes_at_most_four_times_its_bytes():
    n = 200_000
    data = f"4\n1\n3\nV 1\n19\ntorch.DoubleStorage\n{n}\n".encode() + b"1 " * n + b"\n"
    tracemalloc.start()
    try:
        values = Reader(data).read()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert values.shape == (n,) and values.sum() == n
    assert peak < 4 * len(data) + 100_000, peak
    with pytest.raises(T7Error, match="holds b'99999999999999999999'"):
        Reader(b"4\n1\n3\nV 1\n17\ntorch.LongStorage\n2\n1 99999999999999999999\n").read()


def test_reference_cycles_are_rebuilt_without_recursion():
    # a table holding itself; an object whose field table refers back to it
    table = Reader(_i(3) + _i(1) + _i(1) + _i(2) + _s("self") + _i(3) + _i(1)).read()
    assert table["self"] is table
    obj = Reader(_object("Blah", _i(3) + _i(2) + _i(1) + _i(2) + _s("me") + _i(4) + _i(1), 1)).read()
    assert obj.class_name == "Blah" and obj.fields["me"] is obj
    # a Sequential whose child points back at it (a field holding its parent)
    linear_fields = _i(3) + _i(4) + _i(1) + _i(2) + _s("parent") + _i(4) + _i(1)
    seq_fields = (_i(3) + _i(2) + _i(1) + _i(2) + _s("modules")
                  + _i(3) + _i(3) + _i(1) + _i(1) + struct.pack("<d", 1.0) + _object("nn.Identity", linear_fields, 5))
    seq = Reader(_object("nn.Sequential", seq_fields, 1)).read()
    assert seq.fields["modules"][1.0].fields["parent"] is seq


def test_load_lua_of_a_cycle(tmp_path):
    linear_fields = _i(3) + _i(4) + _i(1) + _i(2) + _s("parent") + _i(4) + _i(1)
    seq_fields = (_i(3) + _i(2) + _i(1) + _i(2) + _s("modules")
                  + _i(3) + _i(3) + _i(1) + _i(1) + struct.pack("<d", 1.0) + _object("nn.Identity", linear_fields, 5))
    f = tmp_path / "cycle.t7"
    f.write_bytes(_object("nn.Sequential", seq_fields, 1))
    seq = load_lua(str(f))
    assert isinstance(seq, nn.Sequential) and seq.get(0).parent is seq
    np.testing.assert_array_equal(seq.forward(np.ones(3)), np.ones(3))


def _nested_sequentials(levels):
    """nn.Sequential inside nn.Sequential, levels deep, an Identity inside."""
    data, index = _object("nn.Identity", _i(3) + _i(1) + _i(0), 1), 1
    for _ in range(levels):
        index += 3
        modules = _i(3) + _i(index - 1) + _i(1) + _i(1) + struct.pack("<d", 1.0) + data
        data = _object("nn.Sequential", _i(3) + _i(index - 2) + _i(1) + _i(2) + _s("modules") + modules, index)
    return data


def test_load_lua_at_the_deepest_nesting_allowed_needs_no_more_stack(tmp_path):
    # each Sequential is 3 levels (object, field table, modules table): the
    # deepest file Reader takes loads and converts without RecursionError,
    # even with only 400 frames of Python stack to spare
    import sys
    from nn_legacy.t7 import MAX_DEPTH
    deepest = (MAX_DEPTH - 1) // 3
    f = tmp_path / "deep.t7"
    f.write_bytes(_nested_sequentials(deepest))
    depth = len(__import__("inspect").stack())
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 400 + 8 * deepest)
    try:
        m = load_lua(str(f))
    finally:
        sys.setrecursionlimit(old)
    for _ in range(deepest):
        assert isinstance(m, nn.Sequential)
        m = m.get(0)
    assert isinstance(m, nn.Identity)
    f.write_bytes(_nested_sequentials(deepest + 1))
    with pytest.raises(T7Error, match="nested deeper than"):
        load_lua(str(f))


def _written_model():
    from t7_writer import T7Object, t7_bytes
    rng = np.random.default_rng(0)

    def linear(n_in, n_out):
        return T7Object("nn.Linear", {"weight": rng.standard_normal((n_out, n_in)),
                                      "bias": rng.standard_normal(n_out), "train": True})
    return t7_bytes(T7Object("nn.Sequential", {"modules": {1: linear(3, 4), 2: T7Object("nn.Tanh", {}),
                                                           3: linear(4, 2)}, "train": True}))


def test_truncations_and_bit_flips_of_a_written_model(tmp_path):
    # (the same checks as the two above, on a file written here, so they run
    # without shared/t7data): load_lua loads a damaged file or raises T7Error
    raw = _written_model()
    f = tmp_path / "net.t7"
    f.write_bytes(raw)
    assert isinstance(load_lua(str(f)), nn.Sequential)
    for n in range(len(raw)):
        f.write_bytes(raw[:n])
        with pytest.raises(T7Error):
            load_lua(str(f))
    rng = np.random.default_rng(5)
    loaded = 0
    for _ in range(800):
        damaged = bytearray(raw)
        for pos in rng.integers(0, len(raw), size=int(rng.integers(1, 4))):
            damaged[pos] ^= 1 << int(rng.integers(0, 8))
        f.write_bytes(bytes(damaged))
        try:
            load_lua(str(f), unknown_classes="object")
            loaded += 1
        except T7Error:
            pass
    assert 0 < loaded < 800   # (flips in the weights' bytes load; the others are refused)


def test_raw_fields_reach_the_fixup_unconverted(tmp_path, monkeypatch):
    """A class naming _t7_raw_fields gets those fields as read (an unknown
    class inside them is no error) and rebuilds from them in _t7_fixup; its
    other fields are converted as usual."""
    from t7_writer import T7Object, t7_bytes

    class Holder(nn.Identity):
        _t7_raw_fields = ("cell",)

        def _t7_fixup(self, version):
            self.rebuilt = (self.cell.class_name, float(self.cell.fields["n"]))

    monkeypatch.setattr(nn, "Holder", Holder, raising=False)
    cell = T7Object("nn.gModule", {"n": 3.0})
    path = tmp_path / "holder.t7"
    path.write_bytes(t7_bytes(T7Object("nn.Holder", {"cell": cell, "inner": T7Object("nn.Tanh", {})})))
    m = load_lua(str(path))
    assert isinstance(m, Holder) and isinstance(m.cell, TorchObject)
    assert m.rebuilt == ("nn.gModule", 3.0)
    assert isinstance(m.inner, nn.Tanh)
    path.write_bytes(t7_bytes(T7Object("nn.Identity", {"cell": cell})))   # not raw elsewhere
    with pytest.raises(T7Error, match="nn.gModule"):
        load_lua(str(path))

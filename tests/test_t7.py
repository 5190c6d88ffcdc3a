"""nn_legacy.t7: reading real Torch7 files, and refusing bad ones cleanly."""
import os
import struct
import tracemalloc

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization.t7 import LuaFunction, T7Error, T7Warning, TorchObject, load_lua, read_t7, Reader
from cuda_devices import a_device

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "t7")   # real files; see its README.md


def path(*parts):
    return os.path.join(DATA, *parts)


# ---------------------------------------------------------------- format files
def test_double_tensor():
    t = read_t7(path("torchfile", "doubletensor.t7"))
    assert t.dtype == np.float64
    np.testing.assert_array_equal(t, [[1, 2, 3], [4, 5, 6.9]])


def test_float_tensor():
    t = read_t7(path("torchfile", "floattensor.t7"))
    assert t.dtype == np.float32 and t.shape == (2, 3, 4)
    assert abs(float(t.astype(np.float64).sum()) - 12.97241666913) < 1e-6


def test_tables():
    assert read_t7(path("torchfile", "hello=123.t7")) == {"hello": 123.0}
    t = read_t7(path("torchfile", "list_table.t7"))
    assert t.as_list() == ["hello", "world", "third item", 123.0]
    t = read_t7(path("torchfile", "map_table1.t7"))
    assert t.as_list() is None and t[0.0] == "zero" and t[4.0] == 123.0
    t = read_t7(path("torchfile", "map_table2.t7"))
    assert t.as_list() is None and t["a"] == "non number key" and t[3.0] == "third item"


def test_custom_and_recursive_objects():
    obj = read_t7(path("torchfile", "custom_class.t7"))
    assert isinstance(obj, TorchObject) and obj.class_name == "Blah" and obj.fields == {}
    a = read_t7(path("torchfile", "recursive_class.t7"))
    assert a.class_name == "A" and a.fields["a"] is a
    t = read_t7(path("torchfile", "recursive_kv_table.t7"))
    (value,) = t.values()
    assert value is t


def test_tds_containers():
    assert read_t7(path("torchfile", "tds_hash.t7")) == {1.0: 2.0, 2.0: 3.0, 10.0: 11.0}
    assert read_t7(path("torchfile", "tds_vec.t7")) == [123.0, 456.0]


def test_nngraph_graphs_load_lowered_into_containers():
    """(tests/test_gModule.py checks what they compute)"""
    f = path("torchfile", "gmodule_with_linear_identity.t7")
    for g in (load_lua(f), load_lua(f, unknown_classes="object")):
        assert isinstance(g, nn.gModule)
        linears = [m for m in g.graph_modules if isinstance(m, nn.Linear)]
        assert len(linears) == 1 and linears[0].weight.shape == (2, 1)


def test_back_references_are_shared():
    raw = read_t7(path("opencv_ascii", "net_softmax_net.txt"))
    inner = raw.fields["modules"][1.0]
    assert raw.fields["output"] is inner.fields["output"]
    net = load_lua(path("opencv_ascii", "net_softmax_net.txt"))
    assert net.output is net.get(0).output


# ---------------------------------------------------------------- real nets
OPENCV_NETS = ["linear_2d", "softmax", "logsoftmax", "softmax_spatial", "logsoftmax_spatial", "concat", "parallel",
               "batch_norm", "deconv"]


@pytest.mark.parametrize("name", OPENCV_NETS)
def test_opencv_net_reproduces_its_recorded_output(name):
    net = load_lua(path("opencv_ascii", f"net_{name}_net.txt"))
    x = read_t7(path("opencv_ascii", f"net_{name}_input.txt"))
    expected = read_t7(path("opencv_ascii", f"net_{name}_output.txt"))
    net.evaluate()
    diff = np.abs(net.forward(np.ascontiguousarray(x)) - expected)
    assert diff.mean() <= 1e-5 and diff.max() <= 1e-4, (diff.mean(), diff.max())


def test_cpptorch_float_linear():
    net = load_lua(path("cpptorch", "net.t7"))
    assert isinstance(net, nn.Linear) and net.weight.dtype == np.float32
    np.testing.assert_array_equal(net.weight, [[0, 1, 0], [0, 0, 1]])
    np.testing.assert_array_equal(net.gradWeight, np.zeros((2, 3)))  # stale gradients start at zero
    x = read_t7(path("cpptorch", "x.t7"))
    np.testing.assert_array_equal(net.forward(x), read_t7(path("cpptorch", "y.t7")))


def test_loaded_module_trains():
    net = load_lua(path("opencv_ascii", "net_linear_2d_net.txt"))
    x = read_t7(path("opencv_ascii", "net_linear_2d_input.txt"))
    before = net.weight.copy()
    net.zeroGradParameters()
    net.backward(x, np.ones((13, 3)))
    net.updateParameters(0.1)
    np.testing.assert_allclose(before - net.weight, 0.1 * np.ones((3, 13)) @ x)


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


def test_a_function_is_skipped_never_parsed():
    # tag 6 (no index): 10 bytes of "bytecode" (here: not even bytecode), then its upvalues (an empty table)
    f = Reader(_i(6) + _i(10) + b"\x1bLJ" + b"\xff" * 7 + _i(3) + _i(1) + _i(0)).read()
    assert isinstance(f, LuaFunction) and f.nbytes == 10
    with pytest.raises(T7Error, match="never runs Lua code"):
        f(1, 2)
    with pytest.raises(T7Error, match="truncated"):   # the bytecode's declared size is checked like a string's
        Reader(_i(6) + _i(2 ** 31 - 1) + b"\x1bLJ").read()


def test_deep_nesting_is_refused():
    data = b"".join(_i(3) + _i(i + 1) + _i(1) + _i(1) + struct.pack("<d", 1.0) for i in range(1000))
    with pytest.raises(T7Error, match="nested deeper"):
        Reader(data).read()


def test_unknown_tag():
    with pytest.raises(T7Error, match=r"^not a Torch7 file: .* \(read as the unknown type tag 42\)"):
        Reader(_i(42)).read()


def _sample_files():
    return [path("torchfile", "gmodule_with_linear_identity.t7"), path("cpptorch", "net.t7"),
            path("opencv_ascii", "net_batch_norm_net.txt"), path("opencv_ascii", "net_softmax_net.txt")]


@pytest.mark.parametrize("f", _sample_files(), ids=os.path.basename)
def test_every_truncation_raises_t7error(f):
    with open(f, "rb") as fh:
        data = fh.read()
    step = max(1, len(data) // 400)
    for n in range(0, len(data), step):
        with pytest.raises(T7Error):
            Reader(data[:n], ascii=f.endswith(".txt")).read()


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
    "sizes of 2**63 - 1": _tensor(np.arange(4.0), sizes=[2 ** 63 - 1, 2], strides=[1, 1]),
    "an ASCII storage of 2**60 numbers": b"4\n1\n3\nV 1\n19\ntorch.DoubleStorage\n1152921504606846976\n1 2 3\n",
}


@pytest.mark.parametrize("case", HUGE, ids=list(HUGE))
def test_hostile_sizes_are_refused_before_allocating(case):
    error, peak = _peak_of(lambda: Reader(HUGE[case]).read())
    assert peak < 1_000_000, f"{case}: {peak} bytes at the peak ({error})"


def test_an_expanded_view_loads_without_allocating_its_elements():
    tracemalloc.start()
    try:
        t = Reader(_tensor(np.arange(1.0), sizes=[2 ** 20], strides=[0])).read()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert t.shape == (2 ** 20,) and t.strides == (0,) and not t.flags.writeable and peak < 100_000


def test_an_expanded_weight_is_refused_before_its_gradient_is_allocated(tmp_path):
    # a Linear whose weight claims 2**17 x 2**17 elements of one stored number:
    # its copy (a module writes into its parameters) and gradWeight would take
    # 128 GB each; load_lua refuses a copy larger than the file
    weight = _tensor(np.arange(1.0), sizes=[2 ** 17, 2 ** 17], strides=[0, 0])
    fields = _i(3) + _i(11) + _i(1) + _i(2) + _s("weight") + weight   # (the tensor has index 1, its storage 2)
    f = tmp_path / "expanded.t7"
    f.write_bytes(_object("nn.Linear", fields, 10))
    error, peak = _peak_of(lambda: load_lua(str(f)))
    assert "more than the file's" in str(error) and "root.weight" in str(error) and peak < 1_000_000


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
    from nn_legacy.serialization.t7 import MAX_DEPTH
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


def _written_model(long_size=8, expanded=False):
    """A small model as torch.save wrote it: 8- or 4-byte longs; with
    expanded, its second Linear's weight a row expanded (stride 0) and the
    Sequential's output a Replicate's expand."""
    from t7_writer import Storage, T7Object, Tensor, t7_bytes
    rng = np.random.default_rng(0)

    def linear(n_in, n_out):
        weight = rng.standard_normal((n_out, n_in))
        if expanded and n_out == 2:
            weight = Tensor(storage=Storage(weight[0]), sizes=[n_out, n_in], strides=[0, 1])
        return T7Object("nn.Linear", {"weight": weight, "bias": rng.standard_normal(n_out), "train": True})
    fields = {"modules": {1: linear(3, 4), 2: T7Object("nn.Tanh", {}), 3: linear(4, 2)}, "train": True}
    if expanded:
        fields["output"] = Tensor(storage=Storage(np.arange(2.0)), sizes=[3, 2], strides=[0, 1])
    return t7_bytes(T7Object("nn.Sequential", fields), long_size=long_size)


@pytest.mark.parametrize("long_size,expanded", [(8, False), (4, False), (8, True), (4, True)],
                         ids=["8-byte", "4-byte", "8-byte-stride-0", "4-byte-stride-0"])
def test_truncations_and_bit_flips_of_a_written_model(tmp_path, long_size, expanded):
    # (the same checks as the two above, on a file written here, so they run
    # without shared/t7data): load_lua loads a damaged file or raises T7Error;
    # with 4-byte longs, through the long-size detection
    raw = _written_model(long_size, expanded)
    f = tmp_path / "net.t7"
    f.write_bytes(raw)
    assert isinstance(load_lua(str(f)), nn.Sequential)
    for n in range(len(raw)):
        f.write_bytes(raw[:n])
        with pytest.raises(T7Error):
            load_lua(str(f))
    rng = np.random.default_rng(5)
    loaded = 0
    flips = 800 if (long_size, expanded) == (8, False) else 250   # (the others: test_t7_builds.py has more)
    for _ in range(flips):
        damaged = bytearray(raw)
        for pos in rng.integers(0, len(raw), size=int(rng.integers(1, 4))):
            damaged[pos] ^= 1 << int(rng.integers(0, 8))
        f.write_bytes(bytes(damaged))
        try:
            load_lua(str(f), unknown_classes="object")
            loaded += 1
        except T7Error:
            pass
    assert 0 < loaded < flips   # (flips in the weights' bytes load; the others are refused)


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


# ---------------------------------------------------------------- files as people saved them
def _load(tmp_path, value, name="f.t7", **kwargs):
    from t7_writer import t7_bytes
    f = tmp_path / name
    f.write_bytes(t7_bytes(value, ascii=kwargs.pop("ascii", False)))
    return load_lua(str(f), **kwargs)


CUDA_TYPES = [("torch.CudaTensor", np.float32), ("torch.CudaDoubleTensor", np.float64),
              ("torch.CudaHalfTensor", np.float16), ("torch.CudaLongTensor", np.int64),
              ("torch.CudaIntTensor", np.int32), ("torch.CudaShortTensor", np.int16),
              ("torch.CudaCharTensor", np.int8), ("torch.CudaByteTensor", np.uint8)]


@pytest.mark.parametrize("ascii", [False, True], ids=["binary", "ascii"])
@pytest.mark.parametrize("cls, dtype", CUDA_TYPES, ids=[c for c, _ in CUDA_TYPES])
def test_gpu_tensors_and_storages_load_as_host_arrays(tmp_path, cls, dtype, ascii):
    """cutorch wrote a host copy of a device storage in the host layout:
    each CUDA class loads as a host array of its element type."""
    from t7_writer import Storage, Tensor
    values = np.arange(-3, 9).reshape(3, 4).astype(dtype)
    storage = Storage(values, cls.replace("Tensor", "Storage"))
    view = Tensor(cls=cls, storage=storage, sizes=[4, 2], strides=[1, 4], offset=2)   # a strided view
    got = _load(tmp_path, {1: Tensor(values, cls), 2: storage, 3: view}, ascii=ascii)
    assert [a.dtype for a in got] == [np.dtype(dtype)] * 3
    np.testing.assert_array_equal(got[0], values)
    np.testing.assert_array_equal(got[1], values.ravel())
    np.testing.assert_array_equal(got[2], values.ravel()[1:9].reshape(2, 4).T)
    assert np.shares_memory(got[1], got[2])   # one storage, as in the file


def _gpu_net(rng, cls="torch.CudaTensor"):
    """Sequential{SpatialConvolution(2 -> 3, 3x3, pad 1), ReLU} as cunn wrote it after :cuda()."""
    from t7_writer import T7Object, Tensor
    w, b = rng.standard_normal((3, 2, 3, 3)), rng.standard_normal(3)
    conv = T7Object("nn.SpatialConvolution", {
        "nInputPlane": 2, "nOutputPlane": 3, "kW": 3, "kH": 3, "dW": 1, "dH": 1, "padW": 1, "padH": 1,
        "weight": Tensor(w, cls), "bias": Tensor(b, cls), "gradWeight": Tensor(w * 0, cls),
        "gradBias": Tensor(b * 0, cls), "finput": Tensor(np.zeros(0), cls), "fgradInput": Tensor(np.zeros(0), cls),
        "output": Tensor(np.zeros(0), cls), "gradInput": Tensor(np.zeros(0), cls), "train": True, "_type": cls})
    relu = T7Object("nn.ReLU", {"threshold": 0, "val": 0, "inplace": False, "output": Tensor(np.zeros(0), cls),
                                "gradInput": Tensor(np.zeros(0), cls), "train": True, "_type": cls})
    net = T7Object("nn.Sequential", {"modules": {1: conv, 2: relu}, "output": Tensor(np.zeros(0), cls),
                                     "gradInput": Tensor(np.zeros(0), cls), "train": True, "_type": cls})
    want = nn.Sequential().add(nn.SpatialConvolution(2, 3, 3, 3, 1, 1, 1, 1)).add(nn.ReLU())
    want.get(0).weight[...], want.get(0).bias[...] = w, b
    return net, want


@pytest.mark.gpu   # (the default device: the GPU where there is one; tests/cuda_devices.py)
@a_device
def test_a_gpu_checkpoint_runs_on_the_host_and_on_the_device(tmp_path):
    rng = np.random.default_rng(3)
    raw, want = _gpu_net(rng)
    net = _load(tmp_path, raw)
    assert net.get(0).weight.dtype == np.float32 and net.type() == np.float32
    x = rng.standard_normal((2, 2, 5, 5))
    expected = want.forward(x)
    np.testing.assert_allclose(net.forward(x.astype(np.float32)), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(net.double().forward(x), expected, rtol=1e-6, atol=1e-6)
    import thnn.cuda
    on_device = net.float().cuda()                     # the device the machine has, else the emulator
    y = on_device.forward(thnn.cuda.to_device(x.astype(np.float32)))
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-5, atol=1e-5)


def test_a_half_precision_checkpoint_runs_after_float(tmp_path):
    rng = np.random.default_rng(4)
    raw, want = _gpu_net(rng, "torch.CudaHalfTensor")
    net = _load(tmp_path, raw)
    assert net.get(0).weight.dtype == np.float16   # as stored: its element type
    net.float()
    assert net.get(0).weight.dtype == np.float32 and net.get(0).gradWeight.dtype == np.float32
    w = want.get(0)
    w.weight[...], w.bias[...] = w.weight.astype(np.float16), w.bias.astype(np.float16)
    x = rng.standard_normal((1, 2, 4, 4))
    np.testing.assert_allclose(net.forward(x.astype(np.float32)), want.forward(x), rtol=1e-5, atol=1e-5)


def test_functions_in_fields_load_as_placeholders_with_one_warning(tmp_path):
    """A Lua function in a field: the rest loads, the function is a
    placeholder that raises when called, and one warning names every field
    path.  A method Torch7 itself stored (Module:share() put
    accUpdateGradParameters in the instance) leaves the class's method."""
    from t7_writer import Function, T7Object
    rng = np.random.default_rng(5)
    weight = rng.standard_normal((2, 3))
    shared = T7Object("nn.Linear", {"weight": weight, "bias": np.zeros(2), "train": True})
    # the upvalues hold objects (the weight again, a table, the module itself): read, so later indices hold
    shared.fields["accUpdateGradParameters"] = Function(upvalues={"self": shared, "w": weight, "t": {1: 2}})
    callback = Function(upvalues={"n": 3.0}, tag=7)
    net = T7Object("nn.Sequential", {"modules": {1: shared, 2: T7Object("nn.Tanh", {"callback": callback})},
                                     "after": weight, "train": True})
    with pytest.warns(T7Warning) as record:
        m = _load(tmp_path, net)
    assert len(record) == 1
    message = str(record[0].message)
    assert "root.modules[0].accUpdateGradParameters: the class's own method is used" in message
    assert "root.modules[1].callback: a placeholder that raises T7Error if called" in message
    assert m.after is m.get(0).weight   # the upvalues were read: the reference after them still resolves
    assert m.get(0).accUpdateGradParameters.__func__ is nn.Linear.accUpdateGradParameters
    assert isinstance(m.get(1).callback, LuaFunction) and m.get(1).callback.upvalues == ()
    with pytest.raises(T7Error, match=r"root.modules\[1\].callback .* never runs Lua code"):
        m.get(1).callback()
    np.testing.assert_allclose(m.forward(np.ones(3)), np.tanh(weight @ np.ones(3)))
    clone = m.clone()                                   # deepcopy keeps the placeholder
    assert isinstance(clone.get(1).callback, LuaFunction)


def test_a_monkey_patched_verb_raises_when_used(tmp_path):
    from t7_writer import Function, T7Object
    with pytest.warns(T7Warning, match=r"root.updateOutput"):
        m = _load(tmp_path, T7Object("nn.Tanh", {"updateOutput": Function(), "train": True}))
    with pytest.raises(T7Error, match="root.updateOutput"):
        m.forward(np.ones(3))
    del m.updateOutput   # the way back to the class's own
    np.testing.assert_allclose(m.forward(np.ones(3)), np.tanh(np.ones(3)))


def test_a_field_named_as_a_method_is_kept_aside(tmp_path):
    """A damaged file whose object holds a value (not a Lua function) under a
    method's name, a Sequential's forward = 0 or size = "x": the methods still
    work and the values are in lua_shadowed; a fixup that uses such a field
    for itself (WeightNorm's _norm work array) still gets it first."""
    from t7_writer import T7Object
    weight = np.arange(6.0).reshape(2, 3)
    linear = T7Object("nn.Linear", {"weight": weight, "bias": np.ones(2), "train": True, "clone": 3.0})
    m = _load(tmp_path, T7Object("nn.Sequential", {"modules": {1: linear}, "train": True, "forward": 0.0,
                                                   "size": "x"}))
    assert m.lua_shadowed == {"forward": 0.0, "size": "x"} and m.get(0).lua_shadowed == {"clone": 3.0}
    assert m.size() == 1 and type(m.get(0).clone()) is nn.Linear
    np.testing.assert_allclose(m.forward(np.ones(3)), weight @ np.ones(3) + 1)
    assert "lua_shadowed" not in vars(_load(tmp_path, T7Object("nn.Sequential", {"modules": {1: linear}})))


def test_read_t7_keeps_function_placeholders_and_their_upvalue_names(tmp_path):
    from t7_writer import Function, t7_bytes
    f = tmp_path / "f.t7"
    f.write_bytes(t7_bytes({"f": Function(upvalues={"a": 1.0, "b": "x"}), "g": Function(tag=6)}))
    table = read_t7(str(f))
    assert table["f"].upvalues == ("a", "b") and table["g"].nbytes > 0


@pytest.mark.parametrize("version", [1, 3])
def test_data_parallel_table_loads_its_module(tmp_path, version):
    """cunn's DataParallelTable: from class version 2 on it writes its GPU
    assignments before its fields; every replica is the same module."""
    from t7_writer import T7Object
    rng = np.random.default_rng(6)
    inner = T7Object("nn.Linear", {"weight": rng.standard_normal((2, 3)), "bias": rng.standard_normal(2)})
    fields = {"modules": {1: inner}, "gpuAssignments": {1: 1, 2: 2}, "dimension": 1, "typeStr": "torch.CudaTensor",
              "impl": T7Object("nn.DataParallelTable.Basic", {"dpt": None, "pool": {}}),
              "flattenedParams": {1: {1: rng.standard_normal(8), 2: np.zeros(8)}}}
    dpt = T7Object("nn.DataParallelTable", fields, version=version, header={1: 1, 2: 2} if version >= 2 else None)
    m = _load(tmp_path, T7Object("nn.Sequential", {"modules": {1: dpt, 2: T7Object("nn.Tanh", {})}}))
    assert isinstance(m.get(0), nn.Linear) and isinstance(m.get(1), nn.Tanh)
    np.testing.assert_array_equal(m.get(0).weight, inner.fields["weight"])


def test_nn_gpu_loads_as_the_gpu_decorator_of_its_module(tmp_path):
    from t7_writer import T7Object
    inner = T7Object("nn.Tanh", {"train": True})
    gpu = T7Object("nn.GPU", {"modules": {1: inner}, "device": 2, "outdevice": 2}, header={1: "torch.CudaTensor", 2: 2})
    m = _load(tmp_path, gpu)
    assert isinstance(m, nn.GPU) and isinstance(m.get(0), nn.Tanh) and m.device == 2


def test_a_random_generator_is_refused_by_name(tmp_path):
    from t7_writer import T7Object
    with pytest.raises(T7Error, match="torch.Generator"):
        _load(tmp_path, {"gen": T7Object("torch.Generator", {})})


def test_checkpoint_tables_come_back_as_dicts_of_live_modules(tmp_path):
    """char-rnn's {protos, opt, vocab, ...} and {model, optimState}: dicts
    (lists where the keys are 1..n) with modules that run."""
    from t7_writer import T7Object
    rng = np.random.default_rng(7)
    w = rng.standard_normal((4, 3))
    linear = T7Object("nn.Linear", {"weight": w, "bias": np.zeros(4), "train": True})
    checkpoint = {"protos": {"rnn": T7Object("nn.Sequential", {"modules": {1: linear, 2: T7Object("nn.LogSoftMax", {})}}),
                             "criterion": T7Object("nn.ClassNLLCriterion", {"sizeAverage": True})},
                  "opt": {"rnn_size": 128, "model": "lstm", "dropout": 0, "gpuid": 0},
                  "vocab": {"a": 1, "b": 2, "\n": 3}, "i": 1200, "train_losses": {1: 2.5, 2: 2.25},
                  "optimState": {"learningRate": 0.002, "m": rng.standard_normal(16)}}
    got = _load(tmp_path, checkpoint)
    assert set(got) == {"protos", "opt", "vocab", "i", "train_losses", "optimState"}
    assert got["opt"] == {"rnn_size": 128.0, "model": "lstm", "dropout": 0.0, "gpuid": 0.0}
    assert got["vocab"] == {"a": 1.0, "b": 2.0, "\n": 3.0} and got["train_losses"] == [2.5, 2.25]
    model, criterion = got["protos"]["rnn"], got["protos"]["criterion"]
    x = rng.standard_normal((2, 3))
    out = model.forward(x)
    np.testing.assert_allclose(np.exp(out).sum(1), 1)
    assert np.isfinite(criterion.forward(out, np.array([0, 3])))


def test_a_graph_holding_a_class_nn_legacy_lacks_names_it_in_one_line(tmp_path):
    from t7_writer import T7Object, t7_bytes
    with open(path("torchfile", "gmodule_with_linear_identity.t7"), "rb") as f:
        data = f.read()
    raw = read_t7(path("torchfile", "gmodule_with_linear_identity.t7"))
    assert isinstance(raw, TorchObject) and raw.class_name == "nn.gModule"
    p = tmp_path / "g.t7"
    p.write_bytes(data.replace(b"nn.CAddTable", b"nn.CFooTable"))
    with pytest.raises(T7Error) as info:
        load_lua(str(p))
    message = str(info.value)
    assert "\n" not in message and "classes nn_legacy does not have: nn.CFooTable" in message
    assert T7Object and t7_bytes   # (the writer is the port's: tests/nngraph_port.py)


# ---------------------------------------------------------------- your own classes
class Scale(nn.Module):
    """y = factor * x (a user's class for the registry tests)."""

    def __init__(self, factor=1.0):
        super().__init__()
        self.factor = factor

    def updateOutput(self, input):
        self.output = self.factor * input
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self.factor * gradOutput
        return self.gradInput

    def _t7_fixup(self, version):
        self.factor = float(self.factor)
        self.loaded_version = version


def test_a_class_given_for_one_call(tmp_path, registry):
    from t7_writer import T7Object
    net = T7Object("nn.Sequential", {"modules": {1: T7Object("nnx.Scale", {"factor": 3}, version=2),
                                                 2: T7Object("nn.Tanh", {})}})
    with pytest.raises(T7Error, match=r"nnx.Scale .*register_class"):
        _load(tmp_path, net)
    m = _load(tmp_path, net, classes={"nnx.Scale": Scale})
    assert isinstance(m.get(0), Scale) and m.get(0).loaded_version == 2
    np.testing.assert_allclose(m.forward(np.ones(2)), np.tanh(3 * np.ones(2)))
    with pytest.raises(T7Error, match="nnx.Scale"):   # for that call only
        _load(tmp_path, net)


def test_a_registered_class(tmp_path, registry):
    from t7_writer import T7Object
    decorated = nn.register_class(Scale)                    # as "nn.Scale"
    assert decorated is Scale
    nn.register_class("nnx.Times")(Scale)                   # and under another name
    m = _load(tmp_path, {1: T7Object("nn.Scale", {"factor": 2}), 2: T7Object("nnx.Times", {"factor": 5})})
    assert [type(x) for x in m] == [Scale, Scale] and [x.factor for x in m] == [2.0, 5.0]
    assert nn.registry.registered_classes() == {"nn.Scale": Scale, "nnx.Times": Scale}


def test_a_registered_class_may_replace_one_of_nn_legacys(tmp_path, registry):
    from t7_writer import T7Object
    nn.register_class("nn.Tanh", Scale)
    assert type(_load(tmp_path, T7Object("nn.Tanh", {"factor": 1}))) is Scale


def test_the_registry_checks_what_it_is_given(registry):
    with pytest.raises(TypeError, match="subclass of nn_legacy.Module"):
        nn.register_class("nn.Foo", dict)
    with pytest.raises(ValueError, match="Torch7 class name"):
        nn.register_class("Foo", Scale)
    with pytest.raises(TypeError, match="classes must be a dict"):
        load_lua(path("cpptorch", "net.t7"), classes=[Scale])
    with pytest.raises(TypeError, match="subclass"):
        load_lua(path("cpptorch", "net.t7"), classes={"nn.X": object})


# ---------------------------------------------------------------- damaged fields
def _module_classes():
    from nn_legacy.serialization.t7 import _nn_classes
    return sorted(_nn_classes())


GARBAGE = [None, True, -1.0, 1e300, float("nan"), "x", {1: "y"}, np.zeros((2, 0)), np.ones((2, 3))]


@pytest.mark.parametrize("name", _module_classes())
def test_garbage_fields_raise_only_t7error(tmp_path, name):
    """Every class, its fields replaced by values of the wrong kind: loads,
    or raises T7Error; nothing else escapes."""
    from t7_writer import T7Object
    from nn_legacy.serialization.t7 import _defaults
    names = sorted(set(_defaults(getattr(nn, name[3:]))) | {"weight", "bias", "dimension", "kW", "size", "modules",
                                                             "p", "nInputPlane", "nOutputPlane", "index"})
    rng = np.random.default_rng(sum(map(ord, name)))
    for trial in range(12):
        value = {k: GARBAGE[int(rng.integers(len(GARBAGE)))] for k in names if rng.random() < 0.5}
        try:
            _load(tmp_path, T7Object(name, value))
        except T7Error:
            pass


def test_a_damaged_module_is_named_by_its_place(tmp_path):
    from t7_writer import T7Object
    conv = T7Object("nn.SpatialConvolution", {"nInputPlane": 1, "nOutputPlane": 1, "kW": "x", "kH": 1,
                                              "weight": np.ones((1, 1, 1, 1)), "bias": np.ones(1)})
    with pytest.raises(T7Error, match=r"^root.modules\[1\] \(nn.SpatialConvolution v1\): its fields do not describe "
                                      r"one \(ValueError: invalid literal"):
        _load(tmp_path, T7Object("nn.Sequential", {"modules": {1: T7Object("nn.Tanh", {}), 2: conv}}))

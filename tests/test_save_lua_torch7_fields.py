"""What a real Lua Torch7 needs of the files save_lua writes, found by running
them there (tools/torch7_check.py): each check here stands without Lua.

- every module's output and gradInput are tensors of their own (one array
  written for both would be one tensor in Lua: a backward that resizes
  gradInput overwrote the output that Tanh's backward reads);
- the work fields Torch7's constructors made and their forward reads before
  setting them (nn.Add's _ones, nn.JoinTable's size, the up-samplings' sizes,
  SeqLSTM's state buffers), each a tensor or LongStorage of its own;
- a Recursor (any recurrent module without a cell tree of its own) with the
  fields of the rnn package's AbstractRecurrent constructor, in the layout
  of the package named."""
import os
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization.t7 import load_lua, read_t7


def _written(tmp_path, m, **kw):
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), m, **kw)
    return read_t7(str(f)), f


def _tensor_objects(raw):
    """(name, object) of every tensor field of a TorchObject read back raw."""
    return [(k, v) for k, v in raw.fields.items() if getattr(v, "class_name", "").endswith("Tensor")
            or isinstance(v, np.ndarray)]


@pytest.mark.parametrize("make", [lambda: nn.Linear(3, 2), lambda: nn.Tanh(), lambda: nn.SeqLSTM(3, 4),
                                  lambda: nn.Sequential().add(nn.Linear(3, 2)).add(nn.Tanh())])
def test_output_gradInput_and_buffers_are_tensors_of_their_own(tmp_path, make):
    raw, _ = _written(tmp_path, make())
    for obj in [raw] + list(getattr(raw.fields.get("modules"), "values", lambda: [])()):
        assert obj.fields["output"] is not obj.fields["gradInput"], obj.class_name
        empties = [(k, v) for k, v in obj.fields.items() if isinstance(v, np.ndarray) and v.size == 0]
        assert len({id(v) for _, v in empties}) == len(empties), (obj.class_name, [k for k, _ in empties])


def test_the_work_fields_torch7_constructors_made(tmp_path):
    m = nn.Sequential().add(nn.Add(3)).add(nn.JoinTable(0)).add(nn.SpatialUpSamplingNearest(2)) \
        .add(nn.Concat(0).add(nn.Identity()))
    raw, f = _written(tmp_path, m)
    add, join, up, concat = (raw.fields["modules"][float(i)] for i in (1, 2, 3, 4))
    np.testing.assert_array_equal(add.fields["_ones"], [1.0])
    assert add.fields["_ones"].dtype == np.float64
    # (read_t7 gives a storage as the int64 array of its values; the file names its class)
    assert join.fields["size"].dtype == np.int64 and join.fields["size"].size == 0
    assert up.fields["inputSize"].dtype == np.int64 and up.fields["inputSize"].shape == (4,)
    assert up.fields["outputSize"] is not up.fields["inputSize"]
    assert concat.fields["outputSize"].dtype == np.int64
    assert f.read_bytes().count(b"torch.LongStorage") == 4     # size, inputSize, outputSize, outputSize
    assert b"torch.LongTensor" not in f.read_bytes()
    # and the file still loads here, the layers as they were
    back = load_lua(str(f))
    x = np.random.default_rng(0).uniform(-1, 1, (1, 3, 2, 2))
    np.testing.assert_array_equal(back.modules[0].forward(x[0, :, 0, 0]), m.modules[0].forward(x[0, :, 0, 0]))


def test_float32_modules_get_float32_work_tensors(tmp_path):
    raw, _ = _written(tmp_path, nn.Add(3).float())
    assert raw.fields["_ones"].dtype == np.float32


def test_seqlstm_state_buffers(tmp_path):
    raw, _ = _written(tmp_path, nn.SeqLSTM(3, 4))
    for k in ("cell", "gates", "h0", "c0", "buffer1", "buffer2", "buffer3", "grad_a_buffer"):
        assert isinstance(raw.fields[k], np.ndarray) and raw.fields[k].size == 0, k
    assert raw.fields["h0"] is not raw.fields["c0"]
    assert raw.fields["_remember"] == "neither" and raw.fields["v2"] is True and raw.fields["maskzero"] is False


def test_a_field_the_module_has_is_not_replaced(tmp_path):
    pool = nn.SpatialMaxPooling(2, 2)
    pool.forward(np.random.default_rng(1).uniform(-1, 1, (1, 4, 4)))
    raw, _ = _written(tmp_path, pool)
    assert raw.fields["indices"].size == 4     # its own indices, not an empty LongTensor


@pytest.mark.parametrize("package", ["torch/rnn", "Element-Research/rnn"])
def test_recursor_has_the_abstract_recurrent_fields(tmp_path, package):
    inner = nn.Sequential().add(nn.Linear(3, 2))
    rec = nn.Recursor(inner, rho=5)
    rec.forward(np.zeros((2, 3)))          # a used one: written as a fresh sequence
    raw, f = _written(tmp_path, rec, rnn=package)
    fields = raw.fields
    for k in ("outputs", "gradInputs", "_gradOutputs", "gradOutputs"):
        assert len(fields[k]) == 0, k
    assert fields["step"] == 1
    step = fields["modules"][1.0]
    assert step.class_name == "nn.Sequential"
    assert fields["sharedClones"][1.0] is step and len(fields["sharedClones"]) == 1   # (both constructors' first clone)
    if package == "torch/rnn":
        assert fields["seqlen"] == 5
    else:
        assert fields["rho"] == 5 and fields["recurrentModule"] is step
    back = load_lua(str(f))
    x = np.random.default_rng(2).uniform(-1, 1, (2, 3))
    np.testing.assert_allclose(back.forward(x), inner.forward(x), rtol=0, atol=0)


def test_bisequencer_is_written_as_element_research_built_it(tmp_path):
    """Its forward in Lua runs modules[1]: the Sequential its constructor built around the sequencers."""
    nn.manualSeed(3)
    m = nn.BiSequencer(nn.FastLSTM(3, 2))
    raw, f = _written(tmp_path, m, rnn="Element-Research/rnn")
    brnn = raw.fields["module"]
    assert raw.fields["modules"][1.0] is brnn and len(raw.fields["modules"]) == 1
    concat, zipt, merge = (brnn.fields["modules"][float(i)] for i in (1, 2, 3))
    assert (concat.class_name, zipt.class_name) == ("nn.ConcatTable", "nn.ZipTable")
    assert merge is raw.fields["mergeSeq"]
    fwd, backward = concat.fields["modules"][1.0], concat.fields["modules"][2.0]
    assert fwd is raw.fields["fwdSeq"]
    rev1, bwd, rev2 = (backward.fields["modules"][float(i)] for i in (1, 2, 3))
    assert rev1.class_name == rev2.class_name == "nn.ReverseTable" and bwd is raw.fields["bwdSeq"]
    for table_module in (rev1, rev2, zipt, raw):      # tables, as dpnn's and rnn's constructors made them
        assert len(table_module.fields["output"]) == 0 and not isinstance(table_module.fields["output"], np.ndarray)
    xs = [np.random.default_rng(4).uniform(-1, 1, (2, 3)) for _ in range(3)]
    expected = [y.copy() for y in m.forward(xs)]
    back = load_lua(str(f))
    for y, z in zip(back.forward(xs), expected):
        np.testing.assert_array_equal(y, z)


def test_bisequencer_is_refused_for_torch_rnn(tmp_path):
    with pytest.raises(TypeError, match="torch/rnn's nn.BiSequencer is another module"):
        nn.save_lua(str(tmp_path / "b.t7"), nn.BiSequencer(nn.FastLSTM(3, 2)), rnn="torch/rnn")


def test_a_long_storage_read_from_a_torch7_file_is_written_as_one_again(tmp_path):
    """read_t7 gives nn.JoinTable's size (a torch.LongStorage) as an int64 array; written as a LongTensor,
    Lua's JoinTable:updateOutput failed in copy.  Torch7's own file, loaded and written again."""
    import os
    import warnings
    src = os.path.join(os.path.dirname(__file__), "data", "t7", "torch7_built", "nn_ParallelTable_JoinTable_double.t7")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        case = load_lua(src)
    join = case["model"].modules[1]
    assert isinstance(join.size, np.ndarray) and join.size.size > 0      # (what read_t7 gave)
    _, f = _written(tmp_path, case["model"])
    data = f.read_bytes()
    assert b"torch.LongTensor" not in data and data.count(b"torch.LongStorage") == 1
    raw = read_t7(str(f))
    np.testing.assert_array_equal(raw.fields["modules"][2.0].fields["size"], join.size)


def _ran_float(m):
    """(a module without parameters knows its type from the arrays of its last forward only)"""
    x = np.random.default_rng(3).uniform(0.1, 0.9, (2, 3)).astype(np.float32)
    m.forward(x, (x > 0.5).astype(np.float32)) if isinstance(m, nn.Criterion) else m.forward(x)
    return m


@pytest.mark.parametrize("make, field, cls", [
    (lambda: nn.TanhShrink(), "tanh", "nn.Tanh"),
    (lambda: nn.MultiLabelSoftMarginCriterion(np.linspace(0.5, 2, 3)).float(), "sigmoid", "nn.Sigmoid"),
])
def test_the_helper_modules_torch7_constructors_made(tmp_path, make, field, cls):
    raw, _ = _written(tmp_path, _ran_float(make()))
    helper = raw.fields[field]
    assert helper.class_name == cls
    assert helper.fields["_type"] == "torch.FloatTensor"
    assert helper.fields["output"].dtype == np.float32


def test_the_constructor_fields_of_mixture_simplex_weightnorm_bottle(tmp_path):
    raw, f = _written(tmp_path, nn.MixtureTable())
    assert f.read_bytes().count(b"torch.LongStorage") == 2      # size, size2
    assert raw.fields["size2"] is not raw.fields["size"]
    raw, _ = _written(tmp_path, nn.ClassSimplexCriterion(4))
    assert isinstance(raw.fields["_target"], np.ndarray)
    raw, _ = _written(tmp_path, nn.LinearWeightNorm(5, 3).float())
    for k in ("norm", "scale"):
        assert raw.fields[k].shape == (3, 1) and raw.fields[k].dtype == np.float32, k
    raw, _ = _written(tmp_path, nn.Bottle(nn.Linear(5, 3), 2, 1))
    assert raw.fields["inShape"].shape == (2,) and raw.fields["outShape"].shape == (1,)
    assert raw.fields["dimDelta"] == 1


def test_index_linear_gets_the_running_tables_and_lua_offset(tmp_path):
    raw, _ = _written(tmp_path, nn.IndexLinear(6, 3, keysOffset=2))
    running = raw.fields["running"]
    assert running["counter"] == 1
    assert all(len(running[k]) == 0 for k in ("keys", "gradWeight", "cumSumSizes"))
    assert raw.fields["offset"] == 1        # Lua adds it to a key counted from 1: row k + 2 counted from 0
    assert len(raw.fields["sizesCache"]) == 0 and len(raw.fields["cumSumSizesCache"]) == 0
    assert raw.fields["gradWeight"].size == 0 and raw.fields["weightDecay"] == 0


@pytest.mark.parametrize("cls", ["SpatialConvolutionMap", "SpatialFullConvolutionMap"])
def test_a_float_connection_map_writes_a_float_conn_table(tmp_path, cls):
    """THNN's float kernels took connTable as a THFloatTensor: a DoubleTensor failed in Lua."""
    m = getattr(nn, cls)(nn.SpatialConvolutionMap.full(3, 2), 2, 2).float()
    raw, f = _written(tmp_path, m)
    assert raw.fields["connTable"].dtype == np.float32
    np.testing.assert_array_equal(raw.fields["connTable"], np.asarray(m.connTable) + 1)     # planes from 1
    back = load_lua(str(f))
    np.testing.assert_array_equal(back.connTable, m.connTable)


def test_crelu_is_written_with_the_sequential_torch7_built(tmp_path):
    """Torch7's nn.CReLU is a Sequential: ConcatTable(Identity, MulConstant(-1)), JoinTable(2), ReLU."""
    raw, f = _written(tmp_path, nn.CReLU(1, inplace=True))
    both, join, relu = (raw.fields["modules"][float(i)] for i in (1, 2, 3))
    assert both.class_name == "nn.ConcatTable"
    ident, neg = (both.fields["modules"][float(i)] for i in (1, 2))
    assert (ident.class_name, neg.class_name, neg.fields["constant_scalar"]) == ("nn.Identity", "nn.MulConstant", -1)
    assert join.class_name == "nn.JoinTable" and join.fields["dimension"] == 2      # (from 1)
    assert relu.class_name == "nn.ReLU" and relu.fields["inplace"] is True
    x = np.random.default_rng(5).uniform(-1, 1, (3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # (T7Warnings for the Lua fields nn_legacy's CReLU has no use for)
        back = load_lua(str(f))
    np.testing.assert_array_equal(back.forward(x), np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], 1))


@pytest.mark.parametrize("shapes, expected", [
    (("bchw", "bf"), (1, 1, 4, 2, False)),
    (("bhwc", "bchw"), (1, 1, 4, 4, True)),
    (("chw", "bf"), (1, 1, 4, 2, False)),
])
def test_convert_gets_what_dpnns_constructor_derived(tmp_path, shapes, expected):
    raw, _ = _written(tmp_path, nn.Convert(*shapes))
    fields = raw.fields
    assert "b" in fields["inputShape"] and "b" in fields["outputShape"]
    got = (fields["inputBatchDim"], fields["outputBatchDim"], fields["nInputDim"], fields["nOutputDim"],
           fields.get("transposition", False))
    assert got == expected
    assert len(fields["modules"]) == 0


def test_a_narrow_counting_its_offset_from_the_end_is_refused(tmp_path):
    """Torch7's Narrow read a negative offset as offset 1 and length size - length (Lua's output had another
    shape): no file Lua would run as nn_legacy does."""
    with pytest.raises(TypeError, match=r"nn.Narrow\(offset=-3\) has no Torch7 counterpart"):
        nn.save_lua(str(tmp_path / "n.t7"), nn.Narrow(-1, -3, 2))
    raw, _ = _written(tmp_path, nn.Narrow(-1, 2, -1))      # (a negative dim and length: as Torch7's)
    assert (raw.fields["dimension"], raw.fields["index"], raw.fields["length"]) == (-1, 3, -1)


@pytest.mark.parametrize("package", ["torch/rnn", "Element-Research/rnn"])
def test_mask_zero_masks_its_output_from_the_input_in_torch_rnn(tmp_path, package):
    """torch/rnn's constructor set maskoutput (true); without it Lua's MaskZero left the output unmasked.  Its v1
    mode (v2 false) takes the mask from the input's zero rows, as Element-Research's and nn_legacy's."""
    raw, f = _written(tmp_path, nn.MaskZero(nn.Linear(3, 4), 1), rnn=package)
    assert raw.fields["maskoutput"] is True and raw.fields["maskinput"] is False and raw.fields["v2"] is False
    assert raw.fields["nInputDim"] == 1
    back = load_lua(str(f))
    x = np.random.default_rng(6).uniform(-1, 1, (3, 3))
    x[1] = 0
    y = back.forward(x)
    assert not y[1].any() and y[0].any()


def test_a_table_module_without_parameters_takes_its_type_from_its_last_table_output(tmp_path):
    """ZipTableOneToMany.float(), run on float arrays: its gradInputEl work tensor must be a FloatTensor (Lua's
    resizeAs refused a DoubleTensor against the float input)."""
    m = nn.ZipTableOneToMany()
    x = [np.ones((2, 3), np.float32), [np.ones((2, 3), np.float32), np.ones(2, np.float32)]]
    m.forward(x)
    raw, _ = _written(tmp_path, m)
    assert raw.fields["_type"] == "torch.FloatTensor"
    assert raw.fields["gradInputEl"].dtype == np.float32


def test_a_spatial_class_nll_ignoring_a_class_is_refused(tmp_path):
    """torch/nn's SpatialClassNLLCriterion has no ignoreIndex: Lua counted the class (loss 0.13 off in the check)."""
    with pytest.raises(TypeError, match=r"SpatialClassNLLCriterion\(ignore_index=1\) has no Torch7 counterpart"):
        nn.save_lua(str(tmp_path / "c.t7"), nn.SpatialClassNLLCriterion(np.array([0.5, 1, 2]), ignore_index=1))
    raw, _ = _written(tmp_path, nn.SpatialClassNLLCriterion(np.array([0.5, 1, 2])))     # (the default: none)
    np.testing.assert_array_equal(raw.fields["weights"], [0.5, 1, 2])


@pytest.mark.parametrize("make", [lambda: nn.MM(), lambda: nn.MV(), lambda: nn.DotProduct(), lambda: nn.CosineDistance(),
                                  lambda: nn.Bilinear(3, 4, 2)])
def test_a_fresh_pair_module_has_torch7s_pair_of_gradient_tensors(tmp_path, make):
    """Torch7's constructor made gradInput = {torch.Tensor(), torch.Tensor()}; MV's backward indexes both.
    An MM never run here was written with a gradInput tensor, which Lua's MM:updateGradInput indexed
    (PartialLinear's network: 'empty tensor')."""
    raw, _ = _written(tmp_path, make())
    pair = raw.fields["gradInput"]
    assert sorted(pair) == [1.0, 2.0]
    assert pair[1.0] is not pair[2.0] and pair[1.0].size == 0


def test_partial_linear_network_mm_has_the_pair(tmp_path):
    raw, _ = _written(tmp_path, nn.PartialLinear(5, 4))
    mm = raw.fields["network"].fields["modules"][2.0]
    assert mm.class_name == "nn.MM" and sorted(mm.fields["gradInput"]) == [1.0, 2.0]


@pytest.mark.parametrize("kernel", [np.ones((3, 3)), np.array([1.0, 2, 1])])
def test_subtractive_normalization_gets_torch7s_estimator_and_tables(tmp_path, kernel):
    """Torch7's forward runs meanestimator (padding, a convolution of the planes to one, two separable ones for
    a 1D kernel, Replicate over the planes), then divider and subtractor: written as its constructor made them."""
    m = nn.SpatialSubtractiveNormalization(3, kernel)
    raw, f = _written(tmp_path, m)
    est = raw.fields["meanestimator"]
    names = [est.fields["modules"][float(i)].class_name for i in range(1, len(est.fields["modules"]) + 1)]
    convs = ["nn.SpatialConvolution"] if kernel.ndim == 2 else ["nn.SpatialConvolutionMap", "nn.SpatialConvolution"]
    assert names == ["nn.SpatialZeroPadding"] + convs + ["nn.Replicate"]
    rep = est.fields["modules"][float(len(names))]
    assert (rep.fields["nfeatures"], rep.fields["dim"], rep.fields["ndim"]) == (3, 1, 3)
    last = est.fields["modules"][float(len(names) - 1)]
    k2 = m.kernel if kernel.ndim == 2 else m.kernel.reshape(-1, 1)
    for plane in range(3):      # (every plane's weights are the kernel, summing to 1 / nInputPlane)
        np.testing.assert_array_equal(last.fields["weight"][0, plane], k2)
    assert raw.fields["subtractor"].class_name == "nn.CSubTable"
    assert raw.fields["divider"].class_name == "nn.CDivTable"
    assert raw.fields["coef"].shape == (1, 1, 1)
    x = np.random.default_rng(8).uniform(-1, 1, (2, 3, 5, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = load_lua(str(f))
    np.testing.assert_allclose(back.forward(x), m.forward(x), rtol=0, atol=1e-15)


@pytest.mark.parametrize("kernel", [np.ones((3, 3)), np.array([1.0, 2, 1])])
def test_divisive_normalization_gets_torch7s_estimators(tmp_path, kernel):
    """Torch7's forward runs meanestimator, stdestimator (Square ... Sqrt), normalizer, divider, thresholder;
    a 1D kernel was scaled by sum * sqrt(nInputPlane) (each of the two passes), a 2D one by sum * nInputPlane."""
    m = nn.SpatialDivisiveNormalization(3, kernel, threshold=0.2, thresval=0.3)
    raw, f = _written(tmp_path, m)
    std = raw.fields["stdestimator"]
    names = [std.fields["modules"][float(i)].class_name for i in range(1, len(std.fields["modules"]) + 1)]
    assert names[0] == "nn.Square" and names[-2:] == ["nn.Replicate", "nn.Sqrt"]
    expected = kernel / (kernel.sum() * (3 if kernel.ndim == 2 else np.sqrt(3)))
    np.testing.assert_allclose(raw.fields["kernel"], expected, rtol=1e-15)
    thr = raw.fields["thresholder"]
    assert thr.class_name == "nn.Threshold" and (thr.fields["threshold"], thr.fields["val"]) == (0.2, 0.3)
    assert raw.fields["normalizer"].class_name == raw.fields["divider"].class_name == "nn.CDivTable"
    x = np.random.default_rng(9).uniform(-1, 1, (2, 3, 5, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = load_lua(str(f))
    np.testing.assert_allclose(back.forward(x), m.forward(x), rtol=1e-12, atol=0)


def test_weight_norm_gets_torch7s_sizes_work_vectors_and_aliases(tmp_path):
    """Torch7's WeightNorm:read made its weight from v.new(weightSize) (a LongStorage: a nil failed in Lua);
    its constructor kept viewIn, viewOut, otherDims, _norm, _scale and the module's weight as its own."""
    m = nn.WeightNorm(nn.SpatialConvolution(2, 3, 3, 2), 1)      # (outputDim 1: the input planes)
    raw, f = _written(tmp_path, m)
    fields = raw.fields
    assert f.read_bytes().count(b"torch.LongStorage") == 3
    np.testing.assert_array_equal(fields["weightSize"], [3, 2, 2, 3])
    np.testing.assert_array_equal(fields["viewIn"], [2, 18])
    np.testing.assert_array_equal(fields["viewOut"], [2, 3, 2, 3])
    assert fields["otherDims"] == 18 and fields["outputDim"] == 2
    assert fields["_norm"].shape == fields["_scale"].shape == (2,)
    conv = fields["modules"][1.0]
    assert fields["weight"] is conv.fields["weight"] and fields["bias"] is conv.fields["bias"]
    x = np.random.default_rng(10).uniform(-1, 1, (2, 2, 5, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = load_lua(str(f))
    np.testing.assert_allclose(back.forward(x), m.forward(x), rtol=0, atol=1e-14)


def test_profile_gets_its_timer_and_module_alias(tmp_path):
    """Lua's Profile:updateOutput reset self.timer (a torch.Timer, written with no payload) and ran self.module."""
    m = nn.Profile(nn.Linear(5, 3), 10 ** 9)
    raw, f = _written(tmp_path, m)
    assert raw.fields["timer"].class_name == "torch.Timer"
    assert raw.fields["module"] is raw.fields["modules"][1.0]
    x = np.random.default_rng(11).uniform(-1, 1, (4, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        back = load_lua(str(f))
    np.testing.assert_array_equal(back.forward(x), m.forward(x))


def test_a_padded_or_ceil_volumetric_average_pooling_is_refused(tmp_path):
    """torch/nn's VolumetricAveragePooling passes zeros, floor mode and count_include_pad to THNN: Lua's output
    had another size."""
    for m in (nn.VolumetricAveragePooling(2, 2, 2, 1, 1, 1, 1, 0, 0), nn.VolumetricAveragePooling(2, 2, 2).ceil(),
              nn.VolumetricAveragePooling(2, 2, 2).setCountExcludePad()):
        with pytest.raises(TypeError, match="VolumetricAveragePooling .* has no Torch7 counterpart"):
            nn.save_lua(str(tmp_path / "p.t7"), m)
    raw, _ = _written(tmp_path, nn.VolumetricAveragePooling(2, 3, 2, 1, 2, 1))
    assert (raw.fields["kT"], raw.fields["kW"], raw.fields["dW"]) == (2, 3, 2)


def _float64_arrays(raw):
    """The paths of the float64 arrays anywhere in a file read back raw (nngraph's nodes and keys included)."""
    seen, found = set(), []

    def walk(o, path):
        if id(o) in seen:
            return
        seen.add(id(o))
        if isinstance(o, np.ndarray):
            if o.dtype == np.float64:
                found.append(path)
            return
        fields = getattr(o, "fields", o)
        if isinstance(fields, dict):
            for k, v in fields.items():
                walk(getattr(k, "table", k), f"{path}[key]")
                walk(v, f"{path}.{k}")
    walk(raw, "root")
    return found


def _float_graph_after_clear_state():
    x = nn.Identity()()
    h = nn.ReLU()(nn.Linear(3, 3)(x))
    g = nn.gModule([x], [nn.ReLU()(nn.CAddTable()([h, x]))]).float()
    g.forward(np.ones((2, 3), np.float32))
    return g.clearState()     # (the parameter-free modules' buffers empty: their type comes from the graph)


@pytest.mark.parametrize("make", [
    _float_graph_after_clear_state,
    lambda: load_lua(os.path.join(os.path.dirname(__file__), "data", "t7", "torch7_built",
                                  "nn_nngraph_skip_float.t7"))["model"],     # (Torch7 saved it cleared)
])
def test_a_float_graph_is_written_float_throughout(tmp_path, make):
    """Modules reached only through nngraph's nodes (ReLU, Identity, CAddTable with empty buffers) take the
    graph's type: Lua refused a DoubleTensor met in a float model ("cannot convert THDoubleTensor")."""
    raw, _ = _written(tmp_path, make())
    assert _float64_arrays(raw) == []


@pytest.mark.parametrize("p", [np.arange(1.0, 8.0), np.array([1.0, 0, 0, 3]), np.ones(5), np.array([1e-9, 1.0, 2.0])])
def test_nce_module_is_written_with_the_alias_sampler_its_constructor_built(tmp_path, p):
    """Lua's training forward draws its noise from aliasmultinomial (torchx's torch.AliasMultinomial, J 1-based
    and q): the table written draws exactly from the unigrams (keep k with q[k], else take J[k])."""
    m = nn.NCEModule(3, len(p), 2, p)
    raw, _ = _written(tmp_path, m)
    sampler = raw.fields["aliasmultinomial"]
    assert sampler.class_name == "torch.AliasMultinomial"
    J, q = sampler.fields["J"], sampler.fields["q"]
    assert J.dtype == np.int64 and J.shape == q.shape == (len(p),)
    assert ((J >= 1) & (J <= len(p)) | (q == 1)).all() and ((q >= 0) & (q <= 1)).all()
    drawn = q.copy()                      # the chance of each outcome: kept, or reached as an alias
    np.add.at(drawn, J[J >= 1] - 1, 1 - q[J >= 1])
    np.testing.assert_allclose(drawn / len(p), p / p.sum(), rtol=1e-12, atol=1e-15)
    assert dict(sampler.fields["dpnn_parameters"]) == {1.0: "J", 2.0: "q"}


@pytest.mark.parametrize("seq", [lambda: nn.SeqGRU(3, 4), lambda: nn.SeqLSTM(3, 4)])
def test_a_seq_module_under_variable_length_is_written_v2_for_torch_rnn(tmp_path, seq):
    """torch/rnn's VariableLength hands its Seq module the zero mask (setZeroMask), which only v2 reads; with v2
    false the module recomputed the mask from its input into the decorator's own mask tensor, and Lua's backward
    failed on it.  A masked Seq module alone keeps v2 false: its mask comes from its input, as here."""
    alone = seq().maskZero()
    raw, _ = _written(tmp_path, alone, rnn="torch/rnn")
    assert raw.fields["v2"] is False and raw.fields["maskzero"] is True
    for m in (nn.VariableLength(seq(), True), load_lua(str(_written(tmp_path, nn.VariableLength(seq()))[1]))):
        raw, _ = _written(tmp_path, m, rnn="torch/rnn")
        inner = raw.fields["modules"][1.0]
        assert inner.fields["v2"] is True and inner.fields["maskzero"] is True

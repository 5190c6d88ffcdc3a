"""nn_legacy.VariableLength (torch/rnn): a sequence module over samples of
different lengths; each sample's outputs are those of the module run on it
alone, BPTT against central differences, loaded from torch/rnn's layout."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly
from nn_legacy.serialization.t7 import load_lua
from rnn_checks import TOL, check_sequence

D, H = 2, 3
LENGTHS = (3, 1, 4)


def _samples(seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.1, 1, (n, D)).astype(dtype) for n in LENGTHS]


@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
@pytest.mark.parametrize("lastOnly", [False, True])
def test_each_sample_as_if_alone(cls, lastOnly):
    nn.manualSeed(0)
    inner = getattr(nn, cls)(D, H)
    m = nn.VariableLength(inner, lastOnly)
    xs = _samples()
    out = m.forward(xs)
    alone = nn.SeqLSTM(D, H) if cls == "SeqLSTM" else nn.SeqGRU(D, H)
    alone.weight, alone.bias = inner.weight, inner.bias
    for i, x in enumerate(xs):
        want = alone.forward(x[:, None, :])[:, 0]
        np.testing.assert_allclose(out[i], want[-1] if lastOnly else want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("lastOnly", [False, True])
def test_bptt_against_central_differences(lastOnly):
    nn.manualSeed(1)
    m = nn.VariableLength(nn.SeqLSTM(D, H), lastOnly)
    assert check_sequence(m, _samples(2)) < TOL


def test_bad_input():
    m = nn.VariableLength(nn.SeqGRU(D, H))
    with raises_exactly(TypeError, "VariableLength: input must be a non-empty list of [len_i, ...] arrays, one per "
                                   "sample, got ndarray"):
        m.forward(np.zeros((3, 2, D)))
    with raises_exactly(ValueError, "VariableLength: input[1] is 2D of size [2, 3] float64, input[0] 2D of size "
                                    "[1, 2] float64: the samples' steps must agree in size and type"):
        m.forward([np.ones((1, D)), np.ones((2, 3))])
    with raises_exactly(TypeError, "VariableLength: the module must have maskZero() (SeqLSTM, SeqGRU), got Linear"):
        nn.VariableLength(nn.Linear(2, 2))


def test_saved_and_loaded_again(tmp_path):
    nn.manualSeed(3)
    m = nn.VariableLength(nn.SeqLSTM(D, H), True)
    f = tmp_path / "vl.t7"
    nn.save_lua(str(f), m)
    again = load_lua(str(f))
    assert type(again) is nn.VariableLength and again.lastOnly and again.modules[0].maskzero
    xs = _samples(4)
    np.testing.assert_array_equal(again.forward(xs), m.forward(xs))


def test_loaded_with_the_buffers_torch_rnn_left(tmp_path):
    """torch/rnn's VariableLength after a forward also held module (the
    Decorator's), the packed _input, its _mask (a ByteTensor) and the
    indexes / mappedLengths tables: read and dropped."""
    from nn_legacy.serialization.t7 import read_t7
    nn.manualSeed(5)
    m = nn.VariableLength(nn.SeqGRU(D, H))
    f = tmp_path / "vl.t7"
    nn.save_lua(str(f), m)
    raw = read_t7(str(f))
    raw.fields.update(module=raw.fields["modules"][1.0], _input=np.zeros((4, 2, D)),
                      _mask=np.zeros((4, 2), np.uint8),
                      indexes={1.0: {1.0: 1.0}}, mappedLengths={1.0: {1.0: 3.0}})
    nn.save_lua(str(f), raw)
    again = load_lua(str(f))
    assert "_input" not in vars(again) and "indexes" not in vars(again)
    xs = _samples(6)
    for a, b in zip(again.forward(xs), m.forward(xs)):
        np.testing.assert_array_equal(a, b)

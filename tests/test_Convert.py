"""nn_legacy.Convert: layouts named by letters, and the module's dtype, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, check_buffer_reuse, check_noncontiguous, check_pickle,
                          raises_exactly, uniform)
from numpy_checks import from_torch7

# (inputShape, outputShape, batch input shape, what the output is, as numpy)
CASES = [
    ("bchw", "bf", (2, 3, 4, 5), lambda x: x.reshape(2, -1)),
    ("chw", "f", (2, 3, 4, 5), lambda x: x.reshape(2, -1)),
    ("bhwc", "bchw", (2, 4, 5, 3), lambda x: x.transpose(0, 3, 1, 2)),
    ("hwcb", "bf", (4, 5, 3, 2), lambda x: np.moveaxis(x, 3, 0).reshape(2, -1)),
    ("fb", "bf", (3, 2), lambda x: x.T),
    ("bt", "b", (2, 3), lambda x: x[:, 0]),
    ("tb", "b", (3, 2), lambda x: x[0]),
    ("bf", "b", (2, 1), lambda x: x[:, 0]),
    ("b", "bt", (2,), lambda x: x.reshape(2, 1)),
    ("b", "bf", (2,), lambda x: x.reshape(2, 1)),
    (None, None, (2, 3, 4), lambda x: x),
]
IDS = [f"{a}-{b}" for a, b, _, _ in CASES]


def make(ins, outs):
    return nn.Convert() if ins is None else nn.Convert(ins, outs)


@pytest.mark.parametrize("ins, outs, shape, reference", CASES, ids=IDS)
def test_batch_matches_numpy(ins, outs, shape, reference):
    m = make(ins, outs)
    x = uniform(shape, 1)
    y = m.forward(x)
    np.testing.assert_array_equal(y, reference(x))
    assert y.flags.c_contiguous and not np.shares_memory(y, x)
    g = uniform(y.shape, 2)
    assert m.backward(x, g).shape == x.shape
    assert_input_jacobian(m, x)


SAMPLES = [c for c in CASES if c[0] is not None and len(c[2]) > 1]   # 'b*' and 'b' have no sample form


@pytest.mark.parametrize("ins, outs, shape, reference", SAMPLES, ids=[f"{a}-{b}" for a, b, _, _ in SAMPLES])
def test_one_sample_has_no_batch_dim(ins, outs, shape, reference):
    m = make(ins, outs)
    b_in = m.inputShape.index("b")
    x = uniform(shape, 1)
    sample = np.take(x, 0, axis=b_in)
    b_out = m.outputShape.index("b")
    np.testing.assert_array_equal(m.forward(sample), np.take(reference(x), 0, axis=b_out))
    assert_input_jacobian(m, sample)


def test_gradient_of_a_selection_goes_to_the_kept_entries():
    m = nn.Convert("bt", "b")
    x = uniform((2, 3), 1)
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, np.array([5.0, 7.0])), [[5, 0, 0], [7, 0, 0]])


def test_input_is_converted_to_the_module_dtype():
    images = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    m = nn.Convert("bhw", "bf")
    y = m.forward(images)
    assert y.dtype == np.float64
    np.testing.assert_array_equal(y, images.reshape(2, -1))
    assert m.backward(images, np.ones((2, 12))).dtype == np.float64
    m.float()
    assert m.forward(images).dtype == np.float32 and m.forward(uniform((2, 3, 4))).dtype == np.float32
    assert m.type() == np.float32
    assert nn.Convert().forward(uniform((2, 3)).astype(np.float32)).dtype == np.float64


def test_buffers_noncontiguous_pickle():
    m = nn.Convert("bchw", "bhwc")
    x, g = uniform((3, 2, 4, 5), 1), uniform((3, 4, 5, 2), 2)
    check_noncontiguous(m, x, g)
    check_buffer_reuse(m, x, g, uniform((2, 2, 4, 5), 3), uniform((2, 4, 5, 2), 4))
    check_pickle(m, x, g)


def test_bad_shapes_and_inputs():
    with raises_exactly(ValueError, "Convert: outputShape given without inputShape; Convert(inputShape, outputShape)"):
        nn.Convert(None, "bf")
    with raises_exactly(ValueError, "Convert: cannot convert shape 'bt' to 'bf'"):
        nn.Convert("bt", "bf")
    with raises_exactly(ValueError, "Convert: cannot convert shape 'bchw' to 'b'"):
        nn.Convert("bchw", "b")
    with raises_exactly(ValueError, "Convert: 'b*' converts only to 'b*', got 'b*' to 'bf'"):
        nn.Convert("b*", "bf")
    with raises_exactly(ValueError, "Convert: inputShape must be letters naming dims, each once (e.g. 'bchw', "
                                    "'bf'), or 'b*', got 'bcc'"):
        nn.Convert("bcc", "bf")
    with raises_exactly(ValueError, "Convert: input must have 4 dims ('bchw') or 3 (one sample), got 2D of size "
                                    "[2, 3]"):
        nn.Convert("bchw", "bf").forward(uniform((2, 3)))
    with raises_exactly(ValueError, "Convert: cannot convert 'bf' to 'b' when there is more than one feature, got "
                                    "input 2D of size [2, 3]"):
        nn.Convert("bf", "b").forward(uniform((2, 3)))
    m = nn.Convert("bchw", "bf")
    x = uniform((2, 3, 4, 5))
    m.forward(x)
    with raises_exactly(ValueError, "Convert: gradOutput must be of size [2, 60] like the output, got 2D of size "
                                    "[2, 59]"):
        m.backward(x, uniform((2, 59)))


def test_loads_from_torch7_fields():
    m = from_torch7("nn.Convert", inputShape="bchw", outputShape="bf", inputBatchDim=1.0, outputBatchDim=1.0,
                    nInputDim=4.0, nOutputDim=2.0, modules={}, converter=None, batchMode=True)
    assert vars(m).keys() >= {"inputShape", "outputShape", "outputType"} and "converter" not in vars(m)
    x = uniform((2, 3, 4, 5))
    np.testing.assert_array_equal(m.forward(x), x.reshape(2, -1))
    assert repr(m) == "nn.Convert('bchw', 'bf')"

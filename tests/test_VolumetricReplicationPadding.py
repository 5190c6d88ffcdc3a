"""nn_legacy.VolumetricReplicationPadding and its kernels: edge padding of
the last three dims, (pleft, pright, ptop, pbottom, pfront, pback) as in
Torch7, negative pads cropping."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, torch_forward_backward, torch_or_skip, uniform
from resampling_checks import check_common, check_linear_reference, pad_plane, per_plane

# (left, right, top, bottom, front, back): different on every side
PADS = [(2, 1, 0, 3, 1, 2), (-1, 2, 1, -2, 0, 3), (1, 0, 2, 1, -1, -1)]


def reference(pads):
    l, r, t, b, f, k = pads
    return lambda x: per_plane(lambda p: pad_plane(p, [(f, k), (t, b), (l, r)], "replicate"), x, 3)


@pytest.mark.parametrize("pads", PADS, ids=str)
@pytest.mark.parametrize("shape", [(2, 2, 3, 4, 5), (2, 3, 4, 2)], ids=["5D", "4D"])
def test_matches_the_definition(pads, shape):
    x = uniform(shape, 1)
    out_shape = reference(pads)(x).shape
    m = nn.VolumetricReplicationPadding(*pads)
    check_linear_reference(m, reference(pads), x, uniform(out_shape, 2), exact=True)


def test_matches_numpy_pad():
    x = uniform((2, 2, 3, 2, 4), 1)
    want = np.pad(x, [(0, 0), (0, 0), (1, 2), (3, 0), (2, 1)], mode="edge")
    np.testing.assert_array_equal(nn.VolumetricReplicationPadding(2, 1, 3, 0, 1, 2).forward(x), want)


@pytest.mark.parametrize("pads", PADS, ids=str)
def test_matches_torch(pads):
    torch = torch_or_skip()
    x = uniform((2, 2, 3, 4, 5), 1)
    m = nn.VolumetricReplicationPadding(*pads)
    g = uniform(reference(pads)(x).shape, 2)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.pad(t, pads, mode="replicate"), x, g)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-15, atol=1e-15)


def test_common_properties():
    check_common(lambda: nn.VolumetricReplicationPadding(1, 0, 2, 1, -1, 1), uniform((2, 2, 3, 2, 3), 3),
                 "VolumetricReplicationPadding", 3)


def test_default_pads_follow_pleft():
    m = nn.VolumetricReplicationPadding(2)
    assert (m.pleft, m.pright, m.ptop, m.pbottom, m.pfront, m.pback) == (2,) * 6
    assert repr(nn.VolumetricReplicationPadding(1, 2, 3, 4, 5, 6)) == \
        "nn.VolumetricReplicationPadding(l=1, r=2, t=3, b=4, f=5, k=6)"


# ---------------------------------------------------------------- bad input
def test_no_output_is_refused():
    with raises_exactly(thnn.THNNError, "VolumetricReplicationPadding_updateOutput: time 3 with pfront -2 and "
                                        "pback -1 leaves no output, the input time must be larger"):
        nn.VolumetricReplicationPadding(0, 0, 0, 0, -2, -1).forward(uniform((2, 2, 3, 4, 5)))


def test_wrong_input_layout():
    with raises_exactly(thnn.THNNError, "VolumetricReplicationPadding_updateOutput: input must be "
                                        "4D [nPlane, t, h, w] or 5D [batch, nPlane, t, h, w], "
                                        "got 3D of size [3, 4, 5]"):
        nn.VolumetricReplicationPadding(1).forward(np.zeros((3, 4, 5)))

"""nn_legacy.SpatialReflectionPadding and its kernels: mirror padding of
the last two dims, (pad_l, pad_r, pad_t, pad_b) as in Torch7, negative pads
cropping."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import check_matches_torch, raises_exactly, torch_or_skip, uniform
from resampling_checks import check_common, check_linear_reference, pad_plane, per_plane

# SpatialReflectionPadding and SpatialReplicationPadding are one family: the
# checks they share run here over FAMILY, each with its pads (pad_l, pad_r,
# pad_t, pad_b; always different on each side, and for replication beyond the
# input size too, which reflection refuses), numpy's and torch's name of its
# mode and its gradInput tolerance against torch; each file keeps the cases
# only its layer has.
FAMILY = {
    "SpatialReflectionPadding": ([(2, 1, 3, 0), (0, 3, 1, 2), (-1, 2, 1, -2), (2, -2, -1, 3), (-1, -2, 0, -1)],
                                 "reflect", None),
    "SpatialReplicationPadding": ([(2, 1, 3, 0), (0, 7, 1, 5), (-1, 2, 1, -2), (2, -2, -1, 3), (-1, -2, 0, -1)],
                                  "replicate", (1e-15, 1e-15)),
}
EACH_PADS = [(name, pads) for name, (all_pads, _, _) in FAMILY.items() for pads in all_pads]
EACH_PADS_IDS = [f"{name[7:10]}-{pads}" for name, pads in EACH_PADS]


def reference(name, pads):
    l, r, t, b = pads
    return lambda x: per_plane(lambda p: pad_plane(p, [(t, b), (l, r)], FAMILY[name][1]), x, 2)


@pytest.mark.parametrize("name, pads", EACH_PADS, ids=EACH_PADS_IDS)
@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (3, 5, 4)], ids=["4D", "3D"])
def test_matches_the_definition(name, pads, shape):
    x = uniform(shape, 1)
    out_shape = reference(name, pads)(x).shape
    m = getattr(nn, name)(*pads)
    check_linear_reference(m, reference(name, pads), x, uniform(out_shape, 2), exact=True)


@pytest.mark.parametrize("name, pads", EACH_PADS, ids=EACH_PADS_IDS)
def test_matches_torch(name, pads):
    torch = torch_or_skip()
    x = uniform((2, 3, 4, 5), 1)
    g = uniform(reference(name, pads)(x).shape, 2)
    check_matches_torch(getattr(nn, name)(*pads), lambda t: torch.nn.functional.pad(t, pads, mode=FAMILY[name][1]),
                        x, g, None, FAMILY[name][2])


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("pads", [(2, 1, 3, 0), (-1, 2, 1, -2)], ids=str)
def test_common_properties(pads, name):
    check_common(lambda: getattr(nn, name)(*pads), uniform((3, 2, 4, 5), 3), name, 2)


def test_a_row_reads_as_in_the_docstring():
    row = np.array([[[1.0, 2.0, 3.0, 4.0]]])
    np.testing.assert_array_equal(nn.SpatialReflectionPadding(3, 2, 0, 0).forward(row),
                                  [[[4, 3, 2, 1, 2, 3, 4, 3, 2]]])


def test_matches_numpy_pad():
    x = uniform((2, 3, 5, 6), 1)
    want = np.pad(x, [(0, 0), (0, 0), (3, 1), (2, 4)], mode="reflect")
    np.testing.assert_array_equal(nn.SpatialReflectionPadding(2, 4, 3, 1).forward(x), want)


def test_negative_pads_reflect_about_the_original_edge():
    """Torch7's rule: a crop on one side does not move the mirror of the
    other side, which may read elements the crop removed."""
    row = np.array([[[1.0, 2.0, 3.0, 4.0]]])
    np.testing.assert_array_equal(nn.SpatialReflectionPadding(2, -2, 0, 0).forward(row), [[[3, 2, 1, 2]]])
    np.testing.assert_array_equal(nn.SpatialReflectionPadding(-1, 2, 0, 0).forward(row), [[[2, 3, 4, 3, 2]]])


def test_default_pads_follow_pad_l():
    m = nn.SpatialReflectionPadding(2)
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b) == (2, 2, 2, 2)
    assert repr(m) == "nn.SpatialReflectionPadding(l=2, r=2, t=2, b=2)"
    assert repr(nn.SpatialReflectionPadding(1, 2, 3, 0)) == "nn.SpatialReflectionPadding(l=1, r=2, t=3, b=0)"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("pads, message", [
    ((5, 0, 0, 0), "pad_l and pad_r must be smaller than the input width (5), got 5 and 0"),
    ((0, 6, 0, 0), "pad_l and pad_r must be smaller than the input width (5), got 0 and 6"),
    ((0, 0, 1, 4), "pad_t and pad_b must be smaller than the input height (4), got 1 and 4"),
    ((-3, -2, 0, 0), "width 5 with pad_l -3 and pad_r -2 leaves no output, the input width must be larger"),
    ((0, 0, -4, 0), "height 4 with pad_t -4 and pad_b 0 leaves no output, the input height must be larger"),
])
def test_pads_torch7_refuses(pads, message):
    with raises_exactly(thnn.THNNError, "SpatialReflectionPadding_updateOutput: " + message):
        nn.SpatialReflectionPadding(*pads).forward(uniform((2, 3, 4, 5)))


LAYOUTS = "3D [nPlane, h, w] or 4D [batch, nPlane, h, w]"


@pytest.mark.parametrize("shape, expected", [
    ((4, 5), f"{LAYOUTS}, got 2D of size [4, 5]"),
    ((1, 2, 3, 4, 5), f"{LAYOUTS}, got 5D of size [1, 2, 3, 4, 5]"),
    ((2, 3, 0, 5), f"{LAYOUTS} with no empty spatial dim, got 4D of size [2, 3, 0, 5]")])
def test_wrong_input_layout(shape, expected):
    with raises_exactly(thnn.THNNError, "SpatialReflectionPadding_updateOutput: input must be " + expected):
        nn.SpatialReflectionPadding(1).forward(np.zeros(shape))


@pytest.mark.parametrize("value", ["2", True, 2**31])
def test_pads_must_be_integers(value):
    with pytest.raises(ValueError, match=r"^SpatialReflectionPadding: pad_t must be an integer within \+-"):
        nn.SpatialReflectionPadding(1, 1, value, 1)

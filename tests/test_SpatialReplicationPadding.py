"""nn_legacy.SpatialReplicationPadding and its kernels: edge padding of the
last two dims, (pad_l, pad_r, pad_t, pad_b) as in Torch7, negative pads
cropping.
Its values against the definition and torch and its common properties run
with SpatialReflectionPadding's, over the family table in
test_SpatialReflectionPadding.py."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, uniform


def test_a_row_reads_as_in_the_docstring():
    row = np.array([[[1.0, 2.0, 3.0, 4.0]]])
    np.testing.assert_array_equal(nn.SpatialReplicationPadding(3, 2, 0, 0).forward(row),
                                  [[[1, 1, 1, 1, 2, 3, 4, 4, 4]]])


def test_matches_numpy_pad():
    x = uniform((2, 3, 2, 3), 1)
    want = np.pad(x, [(0, 0), (0, 0), (3, 1), (2, 5)], mode="edge")
    np.testing.assert_array_equal(nn.SpatialReplicationPadding(2, 5, 3, 1).forward(x), want)


def test_gradient_of_an_edge_pixel_counts_its_copies():
    x = uniform((1, 1, 2, 3), 1)
    m = nn.SpatialReplicationPadding(2, 1, 1, 0)
    gin = m.backward(x, np.ones(m.forward(x).shape))
    # pixel (0, 0) fills 2 rows x 3 columns of the output
    np.testing.assert_array_equal(gin, [[[[6, 2, 4], [3, 1, 2]]]])


def test_crops_everything_but_the_edge_column():
    """Torch7's rule: a crop as large as the input leaves the edge column
    repeated (the clamped position), not an error."""
    row = np.array([[[1.0, 2.0, 3.0, 4.0]]])
    np.testing.assert_array_equal(nn.SpatialReplicationPadding(-4, 2, 0, 0).forward(row), [[[4, 4]]])


def test_default_pads_follow_pad_l():
    m = nn.SpatialReplicationPadding(3)
    assert (m.pad_l, m.pad_r, m.pad_t, m.pad_b) == (3, 3, 3, 3)
    assert repr(nn.SpatialReplicationPadding(1, 2, 3, 0)) == "nn.SpatialReplicationPadding(l=1, r=2, t=3, b=0)"


def test_one_pixel_input():
    m = nn.SpatialReplicationPadding(1, 2, 2, 0)
    np.testing.assert_array_equal(m.forward(np.full((1, 1, 1), 7.0)), np.full((1, 3, 4), 7.0))
    np.testing.assert_array_equal(m.backward(np.full((1, 1, 1), 7.0), np.ones((1, 3, 4))), [[[12.0]]])


# ---------------------------------------------------------------- bad input
def test_no_output_is_refused():
    with raises_exactly(thnn.THNNError, "SpatialReplicationPadding_updateOutput: width 5 with pad_l -3 and "
                                        "pad_r -2 leaves no output, the input width must be larger"):
        nn.SpatialReplicationPadding(-3, -2, 0, 0).forward(uniform((2, 3, 4, 5)))


def test_wrong_input_layout():
    with raises_exactly(thnn.THNNError, "SpatialReplicationPadding_updateOutput: input must be 3D [nPlane, h, w] "
                                        "or 4D [batch, nPlane, h, w], got 2D of size [4, 5]"):
        nn.SpatialReplicationPadding(1).forward(np.zeros((4, 5)))


def test_pads_must_be_integers():
    with pytest.raises(ValueError, match=r"^SpatialReplicationPadding: pad_r must be an integer within \+-"):
        nn.SpatialReplicationPadding(1, "0")

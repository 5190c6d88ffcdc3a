"""nn_legacy.SpatialDropout: whole planes zeroed with probability p, kept ones scaled by 1/(1-p)."""
import pytest

import nn_legacy as nn
import plane_dropout_checks as checks

N_SPACE = 2
SHAPES = [(4, 3, 5), (3, 4, 2, 5)]   # non-square planes, without and with a batch dim
IDS = ["3D", "4D"]


@pytest.mark.parametrize("v1", [False, True], ids=["inverted", "v1"])
@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_training_matches_numpy(shape, v1):
    checks.check_training_matches_numpy(nn.SpatialDropout, shape, N_SPACE, v1)


def test_whole_planes_are_dropped():
    checks.check_whole_planes_dropped(nn.SpatialDropout, (40, 10, 3, 2), N_SPACE)


@pytest.mark.parametrize("shape", [(40, 10, 3, 2)], ids=["4D"])
def test_scaling_matches_torch_dropout2d(shape):
    checks.check_scaling_matches_torch(nn.SpatialDropout, "dropout2d", shape, N_SPACE)


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_evaluation_and_extreme_p(shape):
    checks.check_modes(nn.SpatialDropout, shape)


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_jacobian_with_the_noise_repeated(shape):
    checks.check_jacobian(nn.SpatialDropout, shape)


def test_float32_matches_float64():
    checks.check_float32(nn.SpatialDropout, SHAPES[1])


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_noncontiguous_input_and_gradOutput(shape):
    checks.check_noncontiguous(nn.SpatialDropout, shape)


def test_batch_equals_samples_drawn_in_order():
    checks.check_batch_equals_samples_drawn_in_order(nn.SpatialDropout, (5, 3, 2, 4))


def test_buffer_reuse():
    checks.check_buffers(nn.SpatialDropout, (4, 3, 2, 5), (2, 3, 2, 5), N_SPACE)


def test_backward_needs_the_noise_of_a_forward_pass():
    checks.check_backward_needs_noise(nn.SpatialDropout, (2, 3, 2, 5), (2, 4, 2, 5))


def test_pickle_and_clearState():
    checks.check_pickle_and_state(nn.SpatialDropout, SHAPES[1])


def test_bad_input():
    checks.check_bad_input(nn.SpatialDropout, (2, 3, 4, 5), ("height", "width"))


def test_from_torch7_keeps_torch7_scaling():
    checks.check_from_torch7(nn.SpatialDropout, (3, 4, 2, 5), N_SPACE)


def test_repr():
    checks.check_repr(nn.SpatialDropout)

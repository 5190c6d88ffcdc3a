"""nn_legacy.VolumetricDropout: whole T x H x W planes zeroed with probability p, kept ones scaled by 1/(1-p)."""
import pytest

import nn_legacy as nn
import plane_dropout_checks as checks

N_SPACE = 3
SHAPES = [(4, 2, 3, 5), (3, 4, 2, 1, 3)]   # non-square planes, without and with a batch dim
IDS = ["4D", "5D"]


@pytest.mark.parametrize("v1", [False, True], ids=["inverted", "v1"])
@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_training_matches_numpy(shape, v1):
    checks.check_training_matches_numpy(nn.VolumetricDropout, shape, N_SPACE, v1)


def test_whole_planes_are_dropped():
    checks.check_whole_planes_dropped(nn.VolumetricDropout, (40, 10, 3, 2, 2), N_SPACE)


@pytest.mark.parametrize("shape", [(40, 10, 3, 2, 2)], ids=["5D"])
def test_scaling_matches_torch_dropout3d(shape):
    checks.check_scaling_matches_torch(nn.VolumetricDropout, "dropout3d", shape, N_SPACE)


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_evaluation_and_extreme_p(shape):
    checks.check_modes(nn.VolumetricDropout, shape)


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_jacobian_with_the_noise_repeated(shape):
    checks.check_jacobian(nn.VolumetricDropout, shape)


def test_float32_matches_float64():
    checks.check_float32(nn.VolumetricDropout, SHAPES[1])


@pytest.mark.parametrize("shape", SHAPES, ids=IDS)
def test_noncontiguous_input_and_gradOutput(shape):
    checks.check_noncontiguous(nn.VolumetricDropout, shape)


def test_batch_equals_samples_drawn_in_order():
    checks.check_batch_equals_samples_drawn_in_order(nn.VolumetricDropout, (5, 3, 2, 1, 4))


def test_buffer_reuse():
    checks.check_buffers(nn.VolumetricDropout, (4, 3, 2, 1, 5), (2, 3, 2, 1, 5), N_SPACE)


def test_backward_needs_the_noise_of_a_forward_pass():
    checks.check_backward_needs_noise(nn.VolumetricDropout, (2, 3, 2, 1, 5), (2, 4, 2, 1, 5))


def test_pickle_and_clearState():
    checks.check_pickle_and_state(nn.VolumetricDropout, SHAPES[1])


def test_bad_input():
    checks.check_bad_input(nn.VolumetricDropout, (2, 3, 2, 4, 5), ("time", "height", "width"))


def test_from_torch7_keeps_torch7_scaling():
    checks.check_from_torch7(nn.VolumetricDropout, (3, 4, 2, 1, 5), N_SPACE)


def test_repr():
    checks.check_repr(nn.VolumetricDropout)

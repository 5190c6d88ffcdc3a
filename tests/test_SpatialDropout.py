"""nn_legacy.SpatialDropout: whole planes zeroed with probability p, kept ones scaled by 1/(1-p).

SpatialDropout and VolumetricDropout (whole T x H x W planes) are one
family: the checks they share run here over FAMILY, each layer with its
own shapes; each file keeps its comparison with torch's dropout2d/3d."""
import pytest

import nn_legacy as nn
import plane_dropout_checks as checks

# name -> the layer's spatial dims, two inputs (without and with a batch dim, non-square planes) and their ids,
# and per check its shapes
FAMILY = {
    "SpatialDropout": dict(
        n_space=2, shapes=[(4, 3, 5), (3, 4, 2, 5)], ids=["3D", "4D"], whole=(40, 10, 3, 2), batch=(5, 3, 2, 4),
        buffers=((4, 3, 2, 5), (2, 3, 2, 5)), noise=((2, 3, 2, 5), (2, 4, 2, 5)),
        bad=((2, 3, 4, 5), ("height", "width")), torch7=(3, 4, 2, 5)),
    "VolumetricDropout": dict(
        n_space=3, shapes=[(4, 2, 3, 5), (3, 4, 2, 1, 3)], ids=["4D", "5D"], whole=(40, 10, 3, 2, 2),
        batch=(5, 3, 2, 1, 4), buffers=((4, 3, 2, 1, 5), (2, 3, 2, 1, 5)), noise=((2, 3, 2, 1, 5), (2, 4, 2, 1, 5)),
        bad=((2, 3, 2, 4, 5), ("time", "height", "width")), torch7=(3, 4, 2, 1, 5)),
}
# (layer, input shape) for the checks that run on both inputs of each layer
EACH_SHAPE = [(name, shape) for name, case in FAMILY.items() for shape in case["shapes"]]
EACH_SHAPE_IDS = [f"{name}-{case_id}" for name, case in FAMILY.items() for case_id in case["ids"]]


@pytest.mark.parametrize("v1", [False, True], ids=["inverted", "v1"])
@pytest.mark.parametrize("name, shape", EACH_SHAPE, ids=EACH_SHAPE_IDS)
def test_training_matches_numpy(name, shape, v1):
    checks.check_training_matches_numpy(getattr(nn, name), shape, FAMILY[name]["n_space"], v1)


@pytest.mark.parametrize("name", FAMILY)
def test_whole_planes_are_dropped(name):
    checks.check_whole_planes_dropped(getattr(nn, name), FAMILY[name]["whole"], FAMILY[name]["n_space"])


@pytest.mark.parametrize("shape", [(40, 10, 3, 2)], ids=["4D"])
def test_scaling_matches_torch_dropout2d(shape):
    checks.check_scaling_matches_torch(nn.SpatialDropout, "dropout2d", shape, 2)


@pytest.mark.parametrize("name, shape", EACH_SHAPE, ids=EACH_SHAPE_IDS)
def test_evaluation_and_extreme_p(name, shape):
    checks.check_modes(getattr(nn, name), shape)


@pytest.mark.parametrize("name, shape", EACH_SHAPE, ids=EACH_SHAPE_IDS)
def test_jacobian_with_the_noise_repeated(name, shape):
    checks.check_jacobian(getattr(nn, name), shape)


@pytest.mark.parametrize("name", FAMILY)
def test_float32_matches_float64(name):
    checks.check_float32(getattr(nn, name), FAMILY[name]["shapes"][1])


@pytest.mark.parametrize("name, shape", EACH_SHAPE, ids=EACH_SHAPE_IDS)
def test_noncontiguous_input_and_gradOutput(name, shape):
    checks.check_noncontiguous(getattr(nn, name), shape)


@pytest.mark.parametrize("name", FAMILY)
def test_batch_equals_samples_drawn_in_order(name):
    checks.check_batch_equals_samples_drawn_in_order(getattr(nn, name), FAMILY[name]["batch"])


@pytest.mark.parametrize("name", FAMILY)
def test_buffer_reuse(name):
    checks.check_buffers(getattr(nn, name), *FAMILY[name]["buffers"], FAMILY[name]["n_space"])


@pytest.mark.parametrize("name", FAMILY)
def test_backward_needs_the_noise_of_a_forward_pass(name):
    checks.check_backward_needs_noise(getattr(nn, name), *FAMILY[name]["noise"])


@pytest.mark.parametrize("name", FAMILY)
def test_pickle_and_clearState(name):
    checks.check_pickle_and_state(getattr(nn, name), FAMILY[name]["shapes"][1])


@pytest.mark.parametrize("name", FAMILY)
def test_bad_input(name):
    checks.check_bad_input(getattr(nn, name), *FAMILY[name]["bad"])


@pytest.mark.parametrize("name", FAMILY)
def test_from_torch7_keeps_torch7_scaling(name):
    checks.check_from_torch7(getattr(nn, name), FAMILY[name]["torch7"], FAMILY[name]["n_space"])


@pytest.mark.parametrize("name", FAMILY)
def test_repr(name):
    checks.check_repr(getattr(nn, name))

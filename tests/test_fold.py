"""nn_legacy.fold_batchnorm: the folded model computes what the model did,
checked against the model itself and against a numpy transcription of the
evaluation-mode normalization."""
import numpy as np
import pytest

import nn_legacy as nn


def _randomize(model, seed):
    rng = np.random.default_rng(seed)
    for m in model.listModules():
        if isinstance(m, nn.BatchNormalization):
            m.running_mean[...] = rng.standard_normal(m.running_mean.shape)
            m.running_var[...] = rng.uniform(0.2, 3.0, m.running_var.shape)
            if m.weight is not None:
                m.weight[...] = rng.uniform(-2.0, 2.0, m.weight.shape)
                m.bias[...] = rng.standard_normal(m.bias.shape)
        elif getattr(m, "weight", None) is not None:
            m.weight[...] = rng.standard_normal(m.weight.shape) * 0.3
            if getattr(m, "bias", None) is not None:
                m.bias[...] = rng.standard_normal(m.bias.shape)
    return model


def _no_bias(layer):
    return layer.noBias()


# name -> (the layer before, the normalization, the input's shape)
PAIRS = {
    "Linear": (lambda: nn.Linear(5, 4), lambda: nn.BatchNormalization(4), (3, 5)),
    "Linear one sample": (lambda: nn.Linear(5, 4), lambda: nn.BatchNormalization(4), (5,)),
    "Linear without bias": (lambda: _no_bias(nn.Linear(5, 4)), lambda: nn.BatchNormalization(4), (3, 5)),
    "Linear, normalization without affine": (lambda: nn.Linear(5, 4), lambda: nn.BatchNormalization(4, affine=False),
                                              (3, 5)),
    "SpatialConvolution": (lambda: nn.SpatialConvolution(3, 4, 3, 3, 1, 1, 1, 1),
                           lambda: nn.SpatialBatchNormalization(4), (2, 3, 6, 5)),
    "SpatialConvolution one sample": (lambda: nn.SpatialConvolution(3, 4, 3, 3),
                                      lambda: nn.SpatialBatchNormalization(4), (3, 6, 5)),
    "SpatialConvolution without bias": (lambda: _no_bias(nn.SpatialConvolution(3, 4, 3, 3, 2, 2)),
                                        lambda: nn.SpatialBatchNormalization(4, eps=1e-3), (2, 3, 7, 7)),
    "SpatialConvolutionMM": (lambda: nn.SpatialConvolutionMM(2, 3, 3, 3, 1, 1, 1, 1),
                             lambda: nn.SpatialBatchNormalization(3), (2, 2, 5, 5)),
    "SpatialDilatedConvolution": (lambda: nn.SpatialDilatedConvolution(2, 3, 3, 3, 1, 1, 2, 2, 2, 2),
                                  lambda: nn.SpatialBatchNormalization(3), (2, 2, 6, 6)),
    "SpatialFullConvolution": (lambda: nn.SpatialFullConvolution(3, 2, 3, 3, 2, 2, 1, 1, 1, 1),
                               lambda: nn.SpatialBatchNormalization(2), (2, 3, 4, 4)),
    "VolumetricConvolution": (lambda: nn.VolumetricConvolution(2, 3, 2, 3, 3),
                              lambda: nn.VolumetricBatchNormalization(3), (2, 2, 4, 5, 5)),
    "VolumetricFullConvolution": (lambda: nn.VolumetricFullConvolution(3, 2, 2, 2, 2),
                                  lambda: nn.VolumetricBatchNormalization(2), (2, 3, 3, 3, 3)),
}


def _normalized(y, norm):
    """Evaluation-mode batch normalization of y, written out (channels on the
    first dim of a single sample, the second of a batch)."""
    channel = 0 if y.ndim == norm.nDim - 1 else 1
    shape = [1] * y.ndim
    shape[channel] = -1
    weight = np.ones_like(norm.running_mean) if norm.weight is None else norm.weight
    bias = np.zeros_like(norm.running_mean) if norm.bias is None else norm.bias
    return ((y - norm.running_mean.reshape(shape)) / np.sqrt(norm.running_var.reshape(shape) + norm.eps)
            * weight.reshape(shape) + bias.reshape(shape))


@pytest.mark.parametrize("name", PAIRS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_folded_pair_computes_what_the_pair_did(name, dtype):
    layer, norm, shape = PAIRS[name]
    model = _randomize(nn.Sequential().add(nn.ReLU()).add(layer()).add(norm()).add(nn.Tanh()), 1)
    model = model.type(dtype)
    model.evaluate()
    x = np.random.default_rng(2).standard_normal(shape).astype(dtype)
    before = {i: (m.weight.copy(), None if m.bias is None else m.bias.copy())
              for i, m in enumerate(model.modules) if getattr(m, "weight", None) is not None}
    expected = model.forward(x).copy()
    # the pair, independently: the layer's output normalized by the formula
    reference = np.tanh(_normalized(model.modules[1].forward(np.maximum(x, 0)).astype(np.float64), model.modules[2]))

    folded = nn.fold_batchnorm(model)
    got = folded.forward(x)
    assert [type(m) for m in folded.modules] == [nn.ReLU, type(model.modules[1]), nn.Identity, nn.Tanh]
    assert folded.modules[1].bias is not None and folded.modules[1].bias.dtype == dtype
    assert folded.modules[1].weight.dtype == dtype
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == np.float64 else dict(rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got, expected, **tol)
    np.testing.assert_allclose(got, reference, **tol)
    # the original is untouched: its modules, weights and biases as they were
    assert isinstance(model.modules[2], nn.BatchNormalization)
    for i, (w, b) in before.items():
        np.testing.assert_array_equal(model.modules[i].weight, w)
        if b is None:
            assert model.modules[i].bias is None
        else:
            np.testing.assert_array_equal(model.modules[i].bias, b)


def test_the_folded_model_has_a_bias_gradient_and_trains_as_the_new_model():
    model = _randomize(nn.Sequential().add(_no_bias(nn.SpatialConvolution(2, 3, 3, 3)))
                       .add(nn.SpatialBatchNormalization(3)), 3)
    model.evaluate()
    folded = nn.fold_batchnorm(model)
    conv = folded.modules[0]
    assert conv.gradBias.shape == conv.bias.shape and not conv.gradBias.any()
    folded.training()
    x = np.random.default_rng(4).standard_normal((2, 2, 5, 5))
    report = nn.jacobian.testAllParameters(folded, x)
    assert report < 1e-5, report


def test_nested_containers_fold_inside_and_leave_what_does_not_pair():
    rng_model = nn.Sequential()
    block = nn.Sequential().add(nn.SpatialConvolution(3, 3, 3, 3, 1, 1, 1, 1)).add(nn.SpatialBatchNormalization(3)) \
        .add(nn.ReLU()).add(nn.SpatialConvolution(3, 3, 3, 3, 1, 1, 1, 1)).add(nn.SpatialBatchNormalization(3))
    residual = nn.ConcatTable().add(block).add(nn.Identity())
    rng_model.add(nn.SpatialBatchNormalization(3))                # first child: nothing before it
    rng_model.add(residual).add(nn.CAddTable())
    rng_model.add(nn.ReLU()).add(nn.SpatialBatchNormalization(3))  # after a ReLU: not foldable
    rng_model.add(nn.SpatialConvolution(3, 4, 1, 1)).add(nn.SpatialBatchNormalization(3))  # 4 channels vs 3
    model = _randomize(rng_model, 5)
    model.evaluate()
    x = np.random.default_rng(6).standard_normal((2, 3, 6, 6))
    expected_error = pytest.raises(ValueError)  # the mismatched pair fails in the model as it was, too
    with expected_error:
        model.forward(x)
    model.modules[-1] = _randomize(nn.SpatialBatchNormalization(4), 7)
    model.modules[-1].evaluate()
    expected = model.forward(x).copy()
    folded = nn.fold_batchnorm(model)
    kinds = [type(m).__name__ for m in folded.modules]
    assert kinds == ["SpatialBatchNormalization", "ConcatTable", "CAddTable", "ReLU", "SpatialBatchNormalization",
                     "SpatialConvolution", "Identity"]
    assert [type(m).__name__ for m in folded.modules[1].modules[0].modules] == [
        "SpatialConvolution", "Identity", "ReLU", "SpatialConvolution", "Identity"]
    np.testing.assert_allclose(folded.forward(x), expected, rtol=1e-10, atol=1e-12)


def test_a_normalization_in_training_mode_refuses_to_fold():
    model = nn.Sequential().add(nn.Linear(3, 2)).add(nn.Sequential().add(nn.Linear(2, 2))
                                                     .add(nn.BatchNormalization(2)))
    model.modules[0].evaluate()
    with pytest.raises(ValueError, match=r"Sequential \(1\) -> Sequential \(1\) -> BatchNormalization is in "
                                         r"training mode.*evaluate\(\)"):
        nn.fold_batchnorm(model)
    assert isinstance(model.modules[1].modules[1], nn.BatchNormalization)


def test_a_single_module_or_one_without_pairs_comes_back_as_an_equal_copy():
    for model in (nn.Linear(3, 2), nn.Sequential().add(nn.Tanh()).add(nn.Linear(3, 2))):
        model.evaluate()
        folded = nn.fold_batchnorm(model)
        assert folded is not model and type(folded) is type(model)
        x = np.ones((2, 3))
        np.testing.assert_array_equal(folded.forward(x), model.forward(x))

"""The checks of BatchNormalization, SpatialBatchNormalization and
VolumetricBatchNormalization, written once: each test file calls them with
its class and a batched input shape [batch, n, ...] (non-square where there
are spatial dims).  The references are the formulas of the
BatchNormalization docstring, in numpy."""
import numpy as np

from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_acc_update,
                          check_batch_equals_samples, check_buffer_reuse, check_float32, check_nan_propagates,
                          check_noncontiguous, check_pickle, raises_exactly, torch_or_skip, uniform)

EPS, MOMENTUM = 1e-3, 0.3


def make(cls, n, affine=True, train=True, seed=0):
    """A module with distinct weights, biases and running statistics per
    channel, so a channel mix-up shows."""
    m = cls(n, eps=EPS, momentum=MOMENTUM, affine=affine)
    rng = np.random.default_rng(seed + 100)
    if affine:
        m.weight[...] = rng.uniform(0.5, 1.5, n)
        m.bias[...] = rng.uniform(-1, 1, n)
    m.running_mean[...] = rng.uniform(-0.5, 0.5, n)
    m.running_var[...] = rng.uniform(0.5, 2.0, n)
    if not train:
        m.evaluate()
    return m


def axes(x):
    """Every dim but the channel's."""
    return (0,) + tuple(range(2, x.ndim))


def per_channel(v, x):
    return v.reshape((1, -1) + (1,) * (x.ndim - 2))


def numpy_forward(m, x):
    """(output, mean, invstd, new running_mean, new running_var) by the
    docstring's formulas, for m's mode (m is not changed)."""
    w = m.weight if m.weight is not None else 1.0
    b = m.bias if m.bias is not None else 0.0
    if m.train:
        mean, var = x.mean(axis=axes(x)), x.var(axis=axes(x))
        n = x.size // x.shape[1]
        running_mean = m.momentum * mean + (1 - m.momentum) * m.running_mean
        running_var = m.momentum * var * n / (n - 1) + (1 - m.momentum) * m.running_var
    else:
        mean, var = m.running_mean, m.running_var
        running_mean, running_var = m.running_mean, m.running_var
    invstd = 1 / np.sqrt(var + m.eps)
    y = (x - per_channel(mean, x)) * per_channel(invstd * w, x) + per_channel(np.broadcast_to(b, mean.shape), x)
    return y, mean, invstd, running_mean, running_var


def numpy_backward(m, x, g, scale=1.0):
    """(gradInput, gradWeight, gradBias) for m's mode, with the statistics
    of numpy_forward."""
    _, mean, invstd, _, _ = numpy_forward(m, x)
    w = m.weight if m.weight is not None else np.ones_like(mean)
    xhat = (x - per_channel(mean, x)) * per_channel(invstd, x)
    if m.train:
        inner = g - g.mean(axis=axes(x), keepdims=True) - xhat * (xhat * g).mean(axis=axes(x), keepdims=True)
    else:
        inner = g
    return (per_channel(w * invstd, x) * inner, scale * (xhat * g).sum(axis=axes(x)),
            scale * g.sum(axis=axes(x)))


def inputs(shape, seed=1):
    """x with a different offset and spread per channel, and gradOutput."""
    x = uniform(shape, seed)
    x = x * per_channel(np.linspace(0.5, 2.0, shape[1]), x) + per_channel(np.linspace(-1, 3, shape[1]), x)
    return x, uniform(shape, seed + 1)


# ---------------------------------------------------------------- values
def check_matches_numpy(cls, shape, affine, train):
    """Two forward/backward steps: outputs, saved statistics, running
    statistics (momentum), gradients with scale, accumulated."""
    m = make(cls, shape[1], affine, train)
    for step in range(2):
        x, g = inputs(shape, seed=10 * step + 1)
        want_y, mean, invstd, want_rm, want_rv = numpy_forward(m, x)
        want_gin, want_gw, want_gb = numpy_backward(m, x, g, scale=0.5)
        np.testing.assert_allclose(m.forward(x), want_y, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(m.running_mean, want_rm, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(m.running_var, want_rv, rtol=1e-13, atol=1e-15)
        if train:
            np.testing.assert_allclose(m.save_mean, mean, rtol=1e-13, atol=1e-15)
            np.testing.assert_allclose(m.save_std, invstd, rtol=1e-13, atol=1e-15)
        if affine:
            m.zeroGradParameters()
        np.testing.assert_allclose(m.backward(x, g, 0.5), want_gin, rtol=1e-11, atol=1e-12)
        if affine:
            np.testing.assert_allclose(m.gradWeight, want_gw, rtol=1e-12, atol=1e-13)
            np.testing.assert_allclose(m.gradBias, want_gb, rtol=1e-12, atol=1e-13)
            m.accGradParameters(x, g, 0.5)      # accumulates
            np.testing.assert_allclose(m.gradWeight, 2 * want_gw, rtol=1e-12, atol=1e-13)
            np.testing.assert_allclose(m.gradBias, 2 * want_gb, rtol=1e-12, atol=1e-13)
        gin = m.updateGradInput(x, g)
        np.testing.assert_allclose(gin, want_gin, rtol=1e-11, atol=1e-12)


def check_matches_torch(cls, shape, affine, train):
    """torch.nn.functional.batch_norm over two steps: outputs, running
    statistics, gradients w.r.t. input, weight and bias."""
    torch = torch_or_skip()
    m = make(cls, shape[1], affine, train)
    t_rm, t_rv = torch.from_numpy(m.running_mean.copy()), torch.from_numpy(m.running_var.copy())
    for step in range(2):
        x, g = inputs(shape, seed=10 * step + 1)
        tx = torch.from_numpy(x.copy()).requires_grad_(True)
        tw = torch.from_numpy(m.weight.copy()).requires_grad_(True) if affine else None
        tb = torch.from_numpy(m.bias.copy()).requires_grad_(True) if affine else None
        ty = torch.nn.functional.batch_norm(tx, t_rm, t_rv, tw, tb, training=train, momentum=MOMENTUM, eps=EPS)
        ty.backward(torch.from_numpy(g))
        if affine:
            m.zeroGradParameters()
        np.testing.assert_allclose(m.forward(x), ty.detach().numpy(), rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(m.running_mean, t_rm.numpy(), rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(m.running_var, t_rv.numpy(), rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(m.backward(x, g), tx.grad.numpy(), rtol=1e-11, atol=1e-12)
        if affine:
            np.testing.assert_allclose(m.gradWeight, tw.grad.numpy(), rtol=1e-12, atol=1e-13)
            np.testing.assert_allclose(m.gradBias, tb.grad.numpy(), rtol=1e-12, atol=1e-13)


# ---------------------------------------------------------------- gradients
def check_jacobians(cls, shape, affine, train):
    """d output / d input (through the batch statistics in training) and, when
    affine, d output / d weight and bias; returns the worst input error."""
    x, _ = inputs(shape, seed=3)
    report = assert_input_jacobian(make(cls, shape[1], affine, train), x)
    if affine:
        assert_parameter_jacobians(make(cls, shape[1], affine, train), x)
    return report


# ---------------------------------------------------------------- generic properties
def check_generic(cls, shape):
    """accUpdateGradParameters, float32, strided arrays, buffer reuse and
    pickling, in training and in evaluation; a batch against its samples one
    by one in evaluation (the only mode that takes one sample)."""
    x, g = inputs(shape, seed=4)
    n = shape[1]
    for train in (True, False):
        check_acc_update(make(cls, n, True, train), x, g, lr=0.3)
        check_float32(make(cls, n, True, train), x, g)
        check_float32(make(cls, n, False, train), x, g)
        check_noncontiguous(make(cls, n, True, train), x, g)
        check_buffer_reuse(make(cls, n, True, train), x, g, x[:2].copy(), g[:2].copy())
        check_pickle(make(cls, n, True, train), x, g)
    check_batch_equals_samples(make(cls, n, True, train=False), x, g)


def check_one_sample_in_evaluation(cls, shape):
    """Without the batch dim in evaluation: the batch-of-1 result, and the
    output and gradInput arrays reused from call to call."""
    x, g = inputs(shape, seed=5)
    m = make(cls, shape[1], train=False)
    ref = m.clone()
    out = m.forward(x[0])
    np.testing.assert_array_equal(out, ref.forward(x[:1])[0])
    gin = m.backward(x[0], g[0])
    np.testing.assert_array_equal(gin, ref.backward(x[:1], g[:1])[0])
    assert m.forward(x[1]) is out and m.backward(x[1], g[1]) is gin
    np.testing.assert_array_equal(out, ref.forward(x[1:2])[0])
    np.testing.assert_allclose(m.gradWeight, ref.gradWeight + numpy_backward(m, x[1:2], g[1:2])[1],
                               rtol=1e-13, atol=1e-14)


def check_nan_stays_in_its_channel(cls, shape):
    """Training: a NaN spoils the statistics of its channel, so every output
    of that channel, and nothing else."""
    x, g = inputs(shape, seed=6)
    index = (1, 1) + (0,) * (len(shape) - 2)
    mask = np.zeros(shape, dtype=bool)
    mask[:, 1] = True
    check_nan_propagates(make(cls, shape[1]), x, index, mask, g)


def check_defaults(cls):
    """Torch7's initial state: weight U(0, 1), bias 0, running mean 0, var 1."""
    m = cls(50)
    assert (m.eps, m.momentum, m.affine, m.train) == (1e-5, 0.1, True, True)
    assert np.all((m.weight >= 0) & (m.weight < 1)) and m.weight.std() > 0.1
    np.testing.assert_array_equal(m.bias, np.zeros(50))
    np.testing.assert_array_equal(m.running_mean, np.zeros(50))
    np.testing.assert_array_equal(m.running_var, np.ones(50))
    params, grads = m.parameters()
    assert params[0] is m.weight and params[1] is m.bias and grads[0] is m.gradWeight and grads[1] is m.gradBias
    m.running_mean += 1
    m.reset()
    assert not m.running_mean.any() and not m.bias.any()
    plain = cls(4, affine=False)
    assert plain.weight is None and plain.bias is None and plain.parameters() == ([], [])


def check_bad_input(cls, shape, layout):
    """Wrong layouts, channel counts and types, with messages naming the
    layer, the argument and the sizes.  layout: how the error spells the
    expected input, e.g. "4D [batch, 3, h, w]"."""
    name = cls.__name__
    n = shape[1]
    x, g = inputs(shape)
    m = make(cls, n)
    nd = len(shape)
    sample = f" (or {nd - 1}D without the batch dim in evaluation)"
    wrong_channels = (shape[0], n + 1) + shape[2:]
    for bad in (np.zeros(wrong_channels), np.zeros(shape[1:]), np.zeros(shape + (1,))):
        sizes = ", ".join(map(str, bad.shape))
        with raises_exactly(ValueError, f"{name}: input must be {layout}{sample}, got {bad.ndim}D of size [{sizes}]"):
            m.forward(bad)
    m.forward(x)
    with raises_exactly(ValueError, f"{name}: gradOutput must be of size [{', '.join(map(str, shape))}] like the "
                                    f"input, got {nd}D of size [{', '.join(map(str, (1,) + shape[1:]))}]"):
        m.backward(x, g[:1])
    with raises_exactly(TypeError, f"{name}: input must be a numpy array, got list"):
        m.forward(x.tolist())
    with raises_exactly(TypeError, f"{name}: gradOutput must be a numpy array, got list"):
        m.backward(x, g.tolist())
    with raises_exactly(TypeError, f"{name}: input must be float32 or float64, got int64"):
        m.forward(x.astype(np.int64))
    with raises_exactly(TypeError, f"{name}: input is float32 but the module is float64; "
                                   f"convert the input or call module.float()"):
        m.forward(x.astype(np.float32))
    with raises_exactly(TypeError, "BatchNormalization_backward: gradOutput must be float64 like the other tensors, "
                                   "got float32"):
        m.backward(x, g.astype(np.float32))
    with raises_exactly(ValueError, f"{name}: backward in training needs a forward in training first"):
        make(cls, n).backward(x, g)
    with raises_exactly(TypeError, f"{name}: input must be float32 or float64, got int64"):
        make(cls, n, affine=False).forward(x.astype(np.int64))
    # the module still works after all of that
    np.testing.assert_array_equal(m.forward(x), m.clone().forward(x))

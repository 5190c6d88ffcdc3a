"""Checks shared by the activation tests, on top of layer_checks:

- in place (ELU, HardTanh, LeakyReLU, RReLU): the properties
  tests/test_Threshold.py checks inline, written once for the four layers
  that take ``inplace=True``;
- any shape in any memory layout (hypothesis), for the elementwise layers;
- a minimal Torch7 file writer, to load modules saved with Torch7's field
  names (``t7_module``).

``make(inplace)`` builds the module; ``seed`` (for RReLU in training)
reseeds the module generator before every forward, so the in-place and
out-of-place runs draw the same noise.  Outputs must be identical;
gradInput too unless ``grad_rtol`` is given: a layer whose in-place backward
must use another formula (ELU: from the output, ``dL/dy * (y + alpha)``,
instead of ``dL/dy * alpha * exp(x)``) may differ by rounding."""
import struct

import numpy as np

import nn_legacy as nn
from layer_checks import arbitrary_views, draw_shape, noncontiguous_views, run_hypothesis


def _forward_backward(module, x, g, seed):
    if seed is not None:
        nn.manualSeed(seed)
    out = module.forward(x)
    return out, module.backward(x, g)


def reference(make, x, g, seed=None):
    """(output, gradInput) of the out-of-place module on contiguous copies."""
    out, grad = _forward_backward(make(False), np.ascontiguousarray(x), np.ascontiguousarray(g), seed)
    return out.copy(), grad.copy()


def _assert_grad_equal(grad, want, grad_rtol, msg=""):
    if grad_rtol:
        # two roundings of products that agree to grad_rtol: relative where the results are normal numbers;
        # among subnormals, whose spacing is fixed, each rounding may move a result by half that spacing
        # (hypothesis found 7.1360571133925e-311 against 7.136057113392e-311, one subnormal apart)
        subnormal = np.finfo(want.dtype).smallest_subnormal
        np.testing.assert_allclose(grad, want, rtol=grad_rtol, atol=subnormal, err_msg=msg)
    else:
        np.testing.assert_array_equal(grad, want, err_msg=msg)


def check_in_place(make, x, g, seed=None, grad_rtol=0.0):
    """In place, output IS the input array and gradInput IS gradOutput (which
    the backward pass receives with the input now holding the output, as in
    Torch7), with the out-of-place values."""
    want_out, want_grad = reference(make, x, g, seed)
    x_in, g_in = x.copy(), g.copy()
    out, grad = _forward_backward(make(True), x_in, g_in, seed)
    assert out is x_in, "in-place output is not the input array"
    assert grad is g_in, "in-place gradInput is not the gradOutput array"
    np.testing.assert_array_equal(x_in, want_out)
    _assert_grad_equal(g_in, want_grad, grad_rtol)


def check_in_place_views(make, x, g, seed=None, grad_rtol=0.0):
    """In place on transposed, strided and negatively strided views: the
    results land in the view itself, and nothing outside it is written."""
    want_out, want_grad = reference(make, x, g, seed)
    for (name, xv), (_, gv) in zip(noncontiguous_views(x), noncontiguous_views(g)):
        x_base, g_base = xv.base.copy(), gv.base.copy()
        out, grad = _forward_backward(make(True), xv, gv, seed)
        assert out is xv and grad is gv, name
        np.testing.assert_array_equal(xv, want_out, err_msg=f"output, {name}")
        _assert_grad_equal(gv, want_grad, grad_rtol, f"gradInput, {name}")
        for base, before in ((xv.base, x_base), (gv.base, g_base)):
            gaps = np.isnan(before)  # the views' gaps hold NaN, their elements do not
            assert np.isnan(base[gaps]).all(), f"wrote outside the view, {name}"


def check_in_place_any_layout(make, seed=None, grad_rtol=0.0, max_examples=60):
    """Hypothesis: inputs of 1 to 4 dims (sizes 0 to 4) in any memory layout
    give, in place, the out-of-place values on a contiguous copy."""
    def check(data):
        x = data.draw(arbitrary_views(draw_shape(data)), label="x")
        g = data.draw(arbitrary_views(x.shape), label="gradOutput")
        want_out, want_grad = reference(make, x, g, seed)
        out, grad = _forward_backward(make(True), x, g, seed)
        assert out is x and grad is g
        np.testing.assert_array_equal(x, want_out)
        _assert_grad_equal(g, want_grad, grad_rtol)
    run_hypothesis(check, max_examples)


def check_any_layout(make, low=-3.0, high=3.0, max_examples=60):
    """Hypothesis: inputs of 1 to 4 dims (sizes 0 to 4) in any memory layout,
    values in [low, high], give exactly the output and gradInput of a
    contiguous copy, and leave input and gradOutput unchanged.  ``make()``
    builds the (deterministic) module."""
    def check(data):
        x = data.draw(arbitrary_views(draw_shape(data), low, high), label="x")
        g = data.draw(arbitrary_views(x.shape), label="gradOutput")
        x_before, g_before = x.copy(), g.copy()
        ref = make()
        want_out = ref.forward(np.ascontiguousarray(x)).copy()
        want_grad = ref.backward(np.ascontiguousarray(x), np.ascontiguousarray(g)).copy()
        m = make()
        np.testing.assert_array_equal(m.forward(x), want_out)
        np.testing.assert_array_equal(m.backward(x, g), want_grad)
        np.testing.assert_array_equal(x, x_before)
        np.testing.assert_array_equal(g, g_before)
    run_hypothesis(check, max_examples)


def t7_module(path, class_name, fields):
    """Write a binary Torch7 file holding one object of class_name (e.g.
    "nn.HardShrink") whose fields are a table of numbers, booleans and
    strings, as torch.save would; return the path."""
    def i32(v):
        return struct.pack("<i", v)

    def string(text):
        return i32(len(text)) + text.encode()

    def value(v):
        if isinstance(v, bool):
            return i32(5) + i32(int(v))
        if isinstance(v, (int, float)):
            return i32(1) + struct.pack("<d", v)
        return i32(2) + string(v)

    table = i32(3) + i32(2) + i32(len(fields))
    table += b"".join(value(k) + value(v) for k, v in fields.items())
    with open(path, "wb") as f:
        f.write(i32(4) + i32(1) + string("V 1") + string(class_name) + table)
    return path

"""Checks shared by the tests of the modules written in numpy (issue 3),
on top of layer_checks.py.  Those modules call no kernel, so their errors
name the layer itself, not a THNN kernel."""
import numpy as np

from layer_checks import check_bad_input_arrays, raises_exactly


def check_bad_arrays_numpy(module, x, gradOutput, describe_output=None):
    """Lists, integer arrays, float16, and a gradOutput of the other float
    precision or the wrong shape are refused with a TypeError/ValueError
    naming the layer, the argument and what was wrong.  describe_output: how
    the shape message names the output's shape, when gradOutput is checked
    against the output ("[4, 5] like the output"); by default the input."""
    layer = type(module).__name__
    check_bad_input_arrays(module, x)
    expected = module.clone().forward(x).copy()
    module.forward(x)
    with raises_exactly(TypeError, f"{layer}: gradOutput must be a numpy array, got list"):
        module.backward(x, gradOutput.tolist())
    with raises_exactly(TypeError, f"{layer}: gradOutput must be float32 or float64, got int64"):
        module.backward(x, gradOutput.astype(np.int64))
    with raises_exactly(TypeError, f"{layer}: gradOutput is float32 but the input is float64"):
        module.backward(x, gradOutput.astype(np.float32))
    wrong = np.zeros(gradOutput.shape + (1,))
    shape = ", ".join(map(str, gradOutput.shape))
    like = describe_output or "the input"
    with raises_exactly(ValueError, f"{layer}: gradOutput must be of size [{shape}] like {like}, "
                                    f"got {wrong.ndim}D of size [{', '.join(map(str, wrong.shape))}]"):
        module.backward(x, wrong)
    # the module still works after all of that
    np.testing.assert_array_equal(module.forward(x), expected)


def check_float64_module_refuses_float32(module, x):
    """A module with float64 parameters names the dtype clash and the fix."""
    layer = type(module).__name__
    with raises_exactly(TypeError, f"{layer}: input is float32 but the module is float64; "
                                   f"convert the input or call module.float()"):
        module.forward(x.astype(np.float32))


def check_in_place(make_out_of_place, make_in_place, x, gradOutput):
    """The in-place variant returns the input (forward) and gradOutput
    (backward) arrays themselves, holding the values the out-of-place
    variant returns; the out-of-place one writes into neither."""
    reference = make_out_of_place()
    x_kept, g_kept = x.copy(), gradOutput.copy()
    expected_out = reference.forward(x).copy()
    expected_grad = reference.backward(x, gradOutput).copy()
    np.testing.assert_array_equal(x, x_kept, err_msg="out-of-place forward wrote into the input")
    np.testing.assert_array_equal(gradOutput, g_kept, err_msg="out-of-place backward wrote into gradOutput")
    m = make_in_place()
    x_in, g_in = x.copy(), gradOutput.copy()
    assert m.forward(x_in) is x_in
    np.testing.assert_array_equal(x_in, expected_out)
    assert m.backward(x_in, g_in) is g_in
    np.testing.assert_array_equal(g_in, expected_grad)
    return x_in


def from_torch7(class_name, **fields):
    """The nn_legacy module load_lua makes of a Torch7 object of this class
    holding these fields (numbers as Lua stores them: floats)."""
    from nn_legacy.serialization.t7 import TorchObject, _Converter, _nn_classes
    obj = TorchObject(class_name, 1)
    obj.fields = dict(fields, output=np.zeros(0), gradInput=np.zeros(0), train=True)
    return _Converter(_nn_classes()).convert(obj)

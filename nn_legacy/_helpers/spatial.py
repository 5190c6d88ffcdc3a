"""Argument checks and Torch7-file fixups shared by the spatial convolution
modules (the math is in each class's docstring)."""
import math
import operator

import numpy as np


def integers(layer, **values):
    """The values as Python ints; TypeError naming the layer for a float or
    anything else that is not an integer."""
    result = {}
    for name, value in values.items():
        try:
            result[name] = operator.index(value)
        except TypeError:
            raise TypeError(f"{layer}: {name} must be an integer, got {value!r}") from None
    return result


def at_least(layer, low, **values):
    """Every value must be an integer >= low; returns them as ints in order."""
    ints = integers(layer, **values)
    if any(v < low for v in ints.values()):
        shown = ", ".join(f"{k}={v}" for k, v in ints.items())
        raise ValueError(f"{layer}: {' and '.join(ints)} must be at least {low}, got {shown}")
    return tuple(ints.values())


def span(k, dilation=1):
    """Pixels a kernel of k taps, dilation apart, covers."""
    return (k - 1) * dilation + 1


def check_padding(layer, padW, padH, spanW, spanH):
    """Pads must lie in [0, span of the kernel): a larger pad would give
    output pixels that see nothing but padding."""
    padW, padH = integers(layer, padW=padW, padH=padH).values()
    if not (0 <= padW < spanW and 0 <= padH < spanH):
        raise ValueError(f"{layer}: padW and padH must be at least 0 and less than the kernel span "
                         f"({spanW} wide, {spanH} high), got padW={padW}, padH={padH}")
    return padW, padH


def t7_ints(module, *names):
    """After load_lua: Lua numbers arrive as floats; make these fields ints."""
    for name in names:
        setattr(module, name, int(getattr(module, name)))


def t7_padding(module):
    """Old Torch7 files have one ``padding`` field for both pads, older ones none."""
    padding = vars(module).pop("padding", None)
    if padding is not None:
        module.padW = module.padH = padding
    module.padW = getattr(module, "padW", 0)
    module.padH = getattr(module, "padH", module.padW)


def t7_strides(module):
    """SpatialConvolutionMM files from September 2012 to July 2014 have no
    dW, dH: that version moved by 1."""
    module.dW = getattr(module, "dW", 1)
    module.dH = getattr(module, "dH", 1)


def t7_parameter(module, name, shape):
    """A parameter Torch7 kept in another view of the same memory (nn's
    SpatialConvolutionMM as a 2D matrix, cudnn with kW and kH swapped in
    the declared shape): reshaped to the layout the module has here, its
    gradient zeroed to match."""
    value = getattr(module, name, None)
    if value is None:
        return
    if value.size != math.prod(shape):
        raise ValueError(f"{type(module).__name__}: {name} of size {list(value.shape)} does not have the "
                         f"{math.prod(shape)} elements of {list(shape)}")
    setattr(module, name, np.ascontiguousarray(value).reshape(shape))
    setattr(module, "grad" + name[0].upper() + name[1:], np.zeros(shape, value.dtype))

"""nn_legacy: the torch.legacy.nn API over the thnn kernels.

Modules hold their parameters and their output/gradInput buffers as numpy
arrays; there is no autograd: forward and backward are explicit, and
containers such as Sequential chain them.  Class targets, indices and dims
are 0-based.

    import numpy as np, nn_legacy as nn
    model = nn.Sequential().add(nn.Linear(64, 32)).add(nn.Tanh()).add(nn.Linear(32, 10))
    loss = nn.CrossEntropyCriterion()
    out = model.forward(x)                      # x: float64 [batch, 64]
    l = loss.forward(out, y)                    # y: int [batch], 0-based
    model.zeroGradParameters()
    model.backward(x, loss.backward(out, y))
    model.updateParameters(0.1)
"""
from . import jacobian
from ._random import manualSeed
from .ClassNLLCriterion import ClassNLLCriterion
from .Container import Container
from .Criterion import Criterion
from .CrossEntropyCriterion import CrossEntropyCriterion
from .Linear import Linear
from .LogSoftMax import LogSoftMax
from .Module import Module
from .MSECriterion import MSECriterion
from .ReLU import ReLU
from .Sequential import Sequential
from .Sigmoid import Sigmoid
from .SoftMax import SoftMax
from .Tanh import Tanh
from .Threshold import Threshold

__all__ = [
    "jacobian", "manualSeed",
    "Module", "Criterion", "Container", "Sequential",
    "Linear", "Sigmoid", "Tanh", "Threshold", "ReLU", "SoftMax", "LogSoftMax",
    "MSECriterion", "ClassNLLCriterion", "CrossEntropyCriterion",
]

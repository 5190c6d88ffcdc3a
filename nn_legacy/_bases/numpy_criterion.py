"""What the criterions written in numpy share: argument checks whose errors
name the criterion, the argument and the shapes, ``gradInput`` buffers kept
under the buffer contract (reused while the shapes and dtype stay the same,
new arrays otherwise), and the plumbing for criterions holding others."""
import math
import numbers

import numpy as np

from .._helpers.arrays import ARRAYS
from .._helpers.namespace import array_namespace
from ..Criterion import Criterion, _FLOATS


def described(shape):
    """'2D of size [4, 3]', the way the project's errors describe a shape."""
    if len(shape) == 0:
        return "a scalar (0D)"
    return f"{len(shape)}D of size [{', '.join(map(str, shape))}]"


def entries(n):
    """'1 entry', '3 entries'."""
    return f"{n} entry" if n == 1 else f"{n} entries"


def reuse(buffer, shape, dtype, xp=np):
    """buffer when it is an array of this shape and dtype (of namespace xp:
    on the host, or on that CUDA device), else a new one."""
    if _fits(buffer, shape, dtype, xp):
        return buffer
    return xp.empty(shape, dtype=dtype)


def reuse_table(table, shapes, dtype, xp=np):
    """table (a list) when it holds arrays of exactly these shapes and dtype,
    else a new list of new arrays: a list already handed out is never
    changed to hold arrays of other shapes."""
    if isinstance(table, list) and len(table) == len(shapes) and all(
            _fits(a, s, dtype, xp) for a, s in zip(table, shapes)):
        return table
    return [xp.empty(s, dtype=dtype) for s in shapes]


def _fits(a, shape, dtype, xp):
    return (isinstance(a, ARRAYS) and array_namespace(a) is xp and a.shape == tuple(shape)
            and a.dtype == dtype)


class NumpyCriterion(Criterion):
    """A criterion computed in numpy, in the dtype of its input."""

    def _name(self):
        return type(self).__name__

    def _array(self, value, name="input"):
        """value, checked to be a float32 or float64 array."""
        if not isinstance(value, ARRAYS):
            raise TypeError(f"{self._name()}: {name} must be a numpy array, got {type(value).__name__}")
        if value.dtype not in _FLOATS:
            raise TypeError(f"{self._name()}: {name} must be float32 or float64, got {value.dtype}")
        return value

    def _float_leaves(self, value, name="input"):
        """Check that value is a float array or a (nested) table of them;
        errors name the entry, e.g. ``input[1][0]``."""
        if isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                self._float_leaves(v, f"{name}[{i}]")
        else:
            self._array(value, name)

    def _contiguous(self, value, name="input"):
        """A checked float array in C order (a copy when strided), so that
        sums run in the same order whatever the layout: strided inputs give
        bit-identical results."""
        value = self._array(value, name)
        return array_namespace(value).ascontiguousarray(value) if value.ndim else value

    def _pair(self, input):
        """input[0], input[1]: a table of two float arrays of one shape and dtype."""
        if not isinstance(input, (list, tuple)):
            raise TypeError(f"{self._name()}: input must be a table (list) of 2 arrays, "
                            f"got {type(input).__name__}")
        if len(input) != 2:
            raise ValueError(f"{self._name()}: input must be a table (list) of 2 arrays, got {entries(len(input))}")
        a, b = self._contiguous(input[0], "input[0]"), self._contiguous(input[1], "input[1]")
        if b.dtype != a.dtype:
            raise TypeError(f"{self._name()}: input[1] must be {a.dtype} like input[0], got {b.dtype}")
        if b.shape != a.shape:
            raise ValueError(f"{self._name()}: input[1] must have the shape of input[0] ({described(a.shape)}), "
                             f"got {described(b.shape)}")
        return a, b

    def _numeric_target(self, target, dtype, xp=np):
        """target as an array of dtype (numbers, lists and other dtypes
        accepted) of namespace xp (the input's: a host target is copied to
        the input's device)."""
        if isinstance(target, (bool, np.bool_)):
            raise TypeError(f"{self._name()}: target must be numeric, got bool")
        array = np.asarray(target) if not isinstance(target, ARRAYS) else target
        if array.dtype.kind not in "fiu":
            raise TypeError(f"{self._name()}: target must be numeric, got {array.dtype}")
        if xp is np:
            return np.asarray(_host(array, self._name()), dtype=dtype, order="C")
        return xp.ascontiguousarray(xp.asarray(array, dtype=dtype)) if array.ndim else xp.asarray(array, dtype)

    def _shaped_target(self, target, shape, dtype, what, xp=np):
        """target with exactly this shape; a single number is taken when the
        shape holds one element.  `what` says what the target holds, for errors."""
        array = self._numeric_target(target, dtype, xp)
        if array.shape != tuple(shape):
            if array.size == 1 and int(math.prod(shape)) == 1:
                return array.reshape(shape)
            raise ValueError(f"{self._name()}: target must be {described(shape)} ({what}), "
                             f"got {described(array.shape)}")
        return array

    def _labels(self, target, shape, dtype, xp=np):
        """+1 / -1 labels of this shape, as an array of dtype (of namespace xp)."""
        y = self._shaped_target(target, shape, dtype, "labels 1 or -1", xp)
        bad = (y != 1) & (y != -1)
        if bad.any():
            index = tuple(int(i) for i in xp.argwhere(bad)[0])
            where = f" at index {index[0] if len(index) == 1 else index}" if index else ""
            raise ValueError(f"{self._name()}: target must hold only 1 or -1, got {float(y[bad][0]):g}{where}")
        return y

    def _number(self, value, name):
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise TypeError(f"{self._name()}: {name} must be a number, got {type(value).__name__}")
        return float(value)


# ---------------------------------------------------------------- tables of gradients
def same_layout(buffer, like):
    """buffer has like's nesting, and arrays of like's shapes and dtypes (and place)."""
    if isinstance(like, ARRAYS):
        return _fits(buffer, like.shape, like.dtype, array_namespace(like))
    return (isinstance(buffer, list) and len(buffer) == len(like)
            and all(same_layout(b, v) for b, v in zip(buffer, like)))


def zeroed_like(buffer, like):
    """A zero-filled array or table laid out like `like`: buffer itself
    (zeroed) when its layout matches, else a new one."""
    if same_layout(buffer, like):
        _fill_zero(buffer)
        return buffer
    return _zeros(like)


def _zeros(like):
    if isinstance(like, ARRAYS):
        return array_namespace(like).zeros(like.shape, dtype=like.dtype)
    return [_zeros(v) for v in like]


def _fill_zero(buffer):
    if isinstance(buffer, ARRAYS):
        buffer.fill(0)
    else:
        for b in buffer:
            _fill_zero(b)


def add_scaled(total, scale, grad, who):
    """total += scale * grad, over arrays or nested tables of one layout;
    `who` names the gradient's origin in the error raised otherwise."""
    if isinstance(total, ARRAYS):
        grad_shape = getattr(grad, "shape", None)
        if not isinstance(grad, ARRAYS) or grad_shape != total.shape:
            got = described(grad_shape) if isinstance(grad, ARRAYS) else type(grad).__name__
            raise ValueError(f"{who} returned a gradient of {got} for an input of {described(total.shape)}")
        total += scale * grad
        return
    if not isinstance(grad, (list, tuple)) or len(grad) != len(total):
        got = f"a table of {entries(len(grad))}" if isinstance(grad, (list, tuple)) else type(grad).__name__
        raise ValueError(f"{who} returned {got} as gradient for a table of {entries(len(total))}")
    for t, g in zip(total, grad):
        add_scaled(t, scale, g, who)


def _host(array, who):
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{who}: target is on CUDA device {array.device.name!r} but the input is a numpy array; "
                        f"bring it to the host with .numpy() or move the criterion's input to the device")
    return array


def convert_children(criterion, children, dtype, memo):
    """Criterion.type for a criterion holding others: its own arrays, then
    each child (Criterion.type alone would pass over the children)."""
    memo = {} if memo is None else memo
    Criterion.type(criterion, dtype, memo)
    for child in children:
        child.type(dtype, memo)
    return criterion


class WeightedCriterions(NumpyCriterion):
    """The shared half of MultiCriterion and ParallelCriterion: a list of
    criterions with a weight each (``criterions`` and ``weights``, the
    Torch7 field names), ``add``, type conversion, clearState and repr."""

    def __init__(self):
        super().__init__()
        self.criterions = []
        self.weights = []

    def add(self, criterion, weight=1):
        """Append criterion with this weight; returns self, for chaining."""
        if not isinstance(criterion, Criterion):
            raise TypeError(f"{self._name()}.add: expected a Criterion, got {type(criterion).__name__}")
        self.criterions.append(criterion)
        self.weights.append(self._number(weight, "weight"))
        return self

    def _t7_fixup(self, version):
        # Torch7 keeps MultiCriterion's weights in a DoubleStorage (an array here)
        self.criterions = list(self.criterions)
        self.weights = [float(w) for w in self.weights]

    def _add_gradient(self, total, k, grad):
        """total += weights[k] * grad, naming criterion k if grad does not fit."""
        add_scaled(total, self.weights[k], grad,
                   f"{self._name()}: criterion {k} ({type(self.criterions[k]).__name__})")

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return None
        return convert_children(self, self.criterions, dtype, _memo)

    def clearState(self):
        for c in self.criterions:
            c.clearState()
        return super().clearState()

    def __repr__(self):
        if not self.criterions:
            return f"nn.{self._name()}"
        lines = [f"  ({k}) {w:g} * {c!r}".replace("\n", "\n  ")
                 for k, (c, w) in enumerate(zip(self.criterions, self.weights))]
        return "\n".join([f"nn.{self._name()} {{"] + lines + ["}"])

import numbers

import numpy as np

from ._helpers.namespace import array_namespace
from ._bases.numpy_criterion import NumpyCriterion, described, reuse


def regular_simplex(n_vertices):
    """[n, n] rows: the n vertices of a regular simplex centred at the origin,
    each of norm 1, any two at inner product -1/(n-1).  They lie in the
    first n-1 coordinates (the last column is 0), built one coordinate at a
    time: vertex k gets the largest entry its norm allows in coordinate k,
    and the vertices after it a shared value there that gives every pair the
    required inner product."""
    dim = n_vertices - 1
    a = np.zeros((n_vertices, n_vertices))
    for k in range(dim):
        a[k, k] = np.sqrt(1 - np.sum(a[k, :k] ** 2))
        a[k + 1:, k] = (a[k, k] ** 2 - 1 - 1 / dim) / a[k, k]
    return a


class ClassSimplexCriterion(NumpyCriterion):
    """Classification by regression onto the vertices of a regular simplex
    (arXiv:1506.08230): class ``c`` (0-based) is embedded as ``simplex[c]``,
    a unit vector in ``nClasses`` dimensions, any two classes at inner
    product ``-1 / (nClasses - 1)``, and the loss is MSECriterion to the
    embedded targets::

        loss = sum_{i,j} (x[i, j] - simplex[t_i, j])^2

    divided by the number of elements when ``sizeAverage`` (an attribute,
    True by default, as Torch7 inherits it from MSECriterion).  input
    ``[nClasses]`` with an int target, or ``[batch, nClasses]`` with
    ``batch`` integer targets in ``[0, nClasses)``.

    Gradient: ``dL/dx[i, j] = 2 (x[i, j] - simplex[t_i, j])``, divided
    likewise.

    ``simplex`` (``[nClasses, nClasses]``) holds Torch7's coordinates: the
    vertices span the first nClasses - 1 coordinates, the last one is 0 (the
    extra dimension Torch7 found helps training).  ``getPredictions(x)``
    gives ``x @ simplex.T`` (``[batch, nClasses]``, a 1D x counting as one
    sample) and ``getTopPrediction(x)`` the 0-based class with the largest
    one per sample.  Torch7 and torch.legacy.nn checked only the element
    count; here the input must be ``[nClasses]`` or ``[batch, nClasses]``.
    """

    def __init__(self, nClasses):
        super().__init__()
        if not isinstance(nClasses, numbers.Integral) or isinstance(nClasses, bool):
            raise TypeError(f"{self._name()}: nClasses must be an integer, got {type(nClasses).__name__}")
        if nClasses < 2:
            raise ValueError(f"{self._name()}: nClasses must be at least 2, got {nClasses}")
        self.nClasses = int(nClasses)
        self.simplex = regular_simplex(self.nClasses)
        self.sizeAverage = True

    def _t7_fixup(self, version):
        self.nClasses = int(self.nClasses)  # a Lua number; the simplex is stored as is

    def _classes(self, target, n, xp):
        """n class indices, checked, as an array of namespace xp (the input's)."""
        t = xp.asarray(target)   # (a host target goes to the input's device)
        if t.dtype.kind not in "iu":
            raise TypeError(f"{self._name()}: target must be integer class indices, got {t.dtype}")
        if t.shape != (n,) and not (t.size == 1 and n == 1):
            raise ValueError(f"{self._name()}: target must be 1D of size [{n}] (one class index per sample), "
                             f"got {described(t.shape)}")
        t = t.reshape(n)
        bad = (t < 0) | (t >= self.nClasses)
        if bad.any():
            i = int(xp.argmax(bad))
            raise ValueError(f"{self._name()}: target {int(t[i])} at index {i} is out of range [0, {self.nClasses})")
        return t

    def _residual(self, input, target):
        """input minus the embedded targets."""
        x = self._contiguous(input)
        if x.ndim not in (1, 2) or x.shape[-1] != self.nClasses:
            raise ValueError(f"{self._name()}: input must be 1D [{self.nClasses}] or 2D [batch, {self.nClasses}] "
                             f"(nClasses = {self.nClasses}), got {described(x.shape)}")
        t = self._classes(target, 1 if x.ndim == 1 else x.shape[0], array_namespace(x))
        return x - self.simplex.astype(x.dtype)[t].reshape(x.shape)

    def _scale(self, r):
        return 1 / r.size if self.sizeAverage and r.size else 1

    def updateOutput(self, input, target):
        r = self._residual(input, target)
        self.output = float((r * r).sum() * self._scale(r))
        return self.output

    def updateGradInput(self, input, target):
        r = self._residual(input, target)
        xp = array_namespace(r)
        self.gradInput = reuse(self.gradInput, r.shape, r.dtype, xp)
        xp.multiply(r, 2 * self._scale(r), out=self.gradInput)
        return self.gradInput

    def getPredictions(self, input):
        x = self._array(input)
        x = x.reshape(1, -1) if x.ndim == 1 else x
        if x.ndim != 2 or x.shape[1] != self.nClasses:
            raise ValueError(f"{self._name()}.getPredictions: input must be 1D [{self.nClasses}] or 2D "
                             f"[batch, {self.nClasses}], got {described(input.shape)}")
        return x @ self.simplex.astype(x.dtype).T

    def getTopPrediction(self, input):
        predictions = self.getPredictions(input)
        return array_namespace(predictions).argmax(predictions, axis=1)

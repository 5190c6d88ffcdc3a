from ._bases.numpy_criterion import NumpyCriterion, described, reuse_table
from ._helpers.arrays import is_array
from ._helpers.namespace import array_namespace

_EPS = 1e-7


class NCECriterion(NumpyCriterion):
    """Noise-contrastive estimation's loss (the rnn package's NCECriterion),
    on NCEModule's output ``[Pmt, Pms, Pnt, Pns]`` (k = Pms.shape[1]); the
    target is not read (NCEModule took it)::

        loss = -sum_b [ log(Pmt / (Pmt + k Pnt + eps))
                        + sum_j log(k Pns / (Pms + k Pns + eps)) ]

    divided by the batch with ``sizeAverage`` (True), eps = 1e-7.  gradInput
    ``[dPmt, dPms, 0, 0]``: ``-k Pnt / ((Pmt + k Pnt + eps) (Pmt + eps))``
    and ``Pms / ((Pms + k Pns + eps) (Pms + eps))``, the noise
    probabilities constants (zeros), as the package computes them."""

    def __init__(self):
        super().__init__()
        self.sizeAverage = True

    def _parts(self, input):
        if not isinstance(input, (list, tuple)) or len(input) != 4:
            got = f"{len(input)} entries" if isinstance(input, (list, tuple)) else type(input).__name__
            raise TypeError(f"NCECriterion: input must be NCEModule's table [Pmt, Pms, Pnt, Pns], got {got}")
        pmt, pms, pnt, pns = (self._contiguous(a, f"input[{i}]") for i, a in enumerate(input))
        if pmt.ndim != 1 or pms.ndim != 2 or pms.shape[0] != pmt.shape[0]:
            raise ValueError(f"NCECriterion: input[0] (Pmt) must be [batch] and input[1] (Pms) [batch, k], got "
                             f"{described(pmt.shape)} and {described(pms.shape)}")
        if pnt.shape != pmt.shape or pns.shape != pms.shape:
            raise ValueError(f"NCECriterion: Pnt and Pns must have the shapes of Pmt and Pms, got "
                             f"{described(pnt.shape)} and {described(pns.shape)}")
        if len({a.dtype for a in (pmt, pms, pnt, pns)}) != 1:
            raise TypeError("NCECriterion: the four arrays must have one dtype")
        return pmt, pms, pnt, pns

    def _check_target(self, target, n):
        """The target is not read (NCEModule took it), but one given must hold
        one class per sample."""
        if target is not None and (not is_array(target) or target.size != n):
            got = f"{target.size} entries" if is_array(target) else type(target).__name__
            raise ValueError(f"NCECriterion: target (unused) must be None or hold {n} classes, got {got}")

    def updateOutput(self, input, target=None):
        pmt, pms, pnt, pns = self._parts(input)
        self._check_target(target, pmt.shape[0])
        xp = array_namespace(pmt)
        k = pms.shape[1]
        loss = -(float(xp.log(pmt / (pmt + k * pnt + _EPS)).sum()) + float(xp.log(k * pns / (pms + k * pns + _EPS)).sum()))
        self.output = float(loss / pmt.shape[0] if self.sizeAverage and pmt.shape[0] else loss)
        return self.output

    def updateGradInput(self, input, target=None):
        pmt, pms, pnt, pns = self._parts(input)
        k, n = pms.shape[1], pmt.shape[0]
        self._check_target(target, n)
        xp = array_namespace(pmt)
        d_pmt = -k * pnt / (pmt + k * pnt + _EPS) / (pmt + _EPS)
        d_pms = pms / (pms + k * pns + _EPS) / (pms + _EPS)
        if self.sizeAverage and n:
            d_pmt, d_pms = d_pmt / n, d_pms / n
        self.gradInput = reuse_table(self.gradInput, [a.shape for a in (pmt, pms, pnt, pns)], pmt.dtype, xp)
        for buffer, value in zip(self.gradInput, (d_pmt, d_pms, 0, 0)):
            buffer[...] = value
        return self.gradInput

    def _t7_fixup(self, version):
        for name in ("_Pom", "_Pomdiv", "_Pon", "_Pondiv", "_lnPom", "_lnPon"):
            vars(self).pop(name, None)
        self.sizeAverage = bool(vars(self).get("sizeAverage", True))
        self.gradInput = None

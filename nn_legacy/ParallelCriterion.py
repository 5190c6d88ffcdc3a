from ._bases.numpy_criterion import WeightedCriterions, entries, zeroed_like


class ParallelCriterion(WeightedCriterions):
    """A weighted sum of criterions, each on its own entry of an input
    table: ``add(criterion, weight=1)`` appends one (and returns self); the
    input is a table (list) ``[x_0, x_1, ...]`` and the target a table
    ``[t_0, t_1, ...]``, or, with ``repeatTarget=True``, one target given to
    every criterion::

        loss = sum_k weight_k * criterion_k(x_k, t_k)
        gradInput[k] = weight_k * dcriterion_k/dx_k

    gradInput is a table laid out like the input (an entry may itself be a
    table, for criterions such as CosineEmbeddingCriterion).  As in Torch7,
    input entries beyond the criterions count for nothing and get a zero
    gradient, and target entries beyond them are not read; fewer entries
    than criterions raise ValueError.
    """

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    def __init__(self, repeatTarget=False):
        super().__init__()
        self.repeatTarget = bool(repeatTarget)

    def _entries(self, input, target):
        """(input entry, target entry) for each criterion, checked."""
        n = len(self.criterions)
        if not isinstance(input, (list, tuple)):
            raise TypeError(f"{self._name()}: input must be a table (list) with an entry per criterion, "
                            f"got {type(input).__name__}")
        if len(input) < n:
            raise ValueError(f"{self._name()}: input has {entries(len(input))} for {n} criterions")
        if self.repeatTarget:
            return [(x, target) for x in input[:n]]
        if not isinstance(target, (list, tuple)):
            raise TypeError(f"{self._name()}: target must be a table (list) with an entry per criterion "
                            f"(or use repeatTarget=True), got {type(target).__name__}")
        if len(target) < n:
            raise ValueError(f"{self._name()}: target has {entries(len(target))} for {n} criterions")
        return list(zip(input[:n], target[:n]))

    def updateOutput(self, input, target):
        pairs = self._entries(input, target)
        self.output = float(sum(w * c.updateOutput(x, t) for c, w, (x, t) in
                                zip(self.criterions, self.weights, pairs)))
        return self.output

    def updateGradInput(self, input, target):
        pairs = self._entries(input, target)
        self._float_leaves(input)
        grads = [c.updateGradInput(x, t) for c, (x, t) in zip(self.criterions, pairs)]
        self.gradInput = zeroed_like(self.gradInput, input)
        for k, grad in enumerate(grads):
            self._add_gradient(self.gradInput[k], k, grad)
        return self.gradInput

from ._bases.numpy_criterion import WeightedCriterions, zeroed_like


class MultiCriterion(WeightedCriterions):
    """A weighted sum of criterions, each applied to the same input and
    target: ``add(criterion, weight=1)`` appends one (and returns self), then::

        loss = sum_k weight_k * criterion_k(input, target)
        dL/dinput = sum_k weight_k * dcriterion_k/dinput

    The input may be an array or a table (list) of arrays, as the children
    take it; gradInput has the same layout.  With no criterion added the
    loss is 0 and the gradient zero.
    """

    def updateOutput(self, input, target):
        self.output = float(sum(w * c.updateOutput(input, target) for c, w in zip(self.criterions, self.weights)))
        return self.output

    def updateGradInput(self, input, target):
        self._float_leaves(input)
        grads = [c.updateGradInput(input, target) for c in self.criterions]
        self.gradInput = zeroed_like(self.gradInput, input)
        for k, grad in enumerate(grads):
            self._add_gradient(self.gradInput, k, grad)
        return self.gradInput

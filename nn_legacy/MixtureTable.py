import math

from ._helpers.arrays import check_float_array, check_shape, describe, name_of, reuse
from ._helpers.checks import check_table
from ._bases.dims import batch_dim, check_int, from_lua
from ._helpers.namespace import array_namespace
from ._bases.tables import check_float_arrays, nested_zeros, table_leaves
from .Module import Module


class MixtureTable(Module):
    """A mixture of experts weighted by a gater: the input is a table
    ``[gater, experts]`` with gater ``[n]`` (one sample) or ``[batch, n]``,
    and ``output = sum_i gater[..., i] * expert_i``, each gate value
    multiplying a whole expert output (of its sample).

    The experts come as a table of n float arrays of one shape (in a batch
    each ``[batch, ...]``), or as one array with the experts along ``dim``
    (0-based; by default 1 for a batch, where dim 0 is the batch, and 0 for
    one sample).  gradInput is ``[dL/dgater, dL/dexperts]`` in the same
    layout: ``dL/dgater_i = sum(gradOutput * expert_i)`` over each sample's
    elements and ``dL/dexpert_i = gater_i * gradOutput``.
    """

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    def __init__(self, dim=None):
        super().__init__()
        self.dim = check_int(self, dim, "dim", optional=True)

    _t7_one_based = ('dim',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dim = from_lua(getattr(self, "dim", None))
        for key in ("_gaterView", "_expert", "_expertView", "_sum", "_expertView2", "_expert2", "size", "size2",
                    "batchSize", "backwardSetup", "table", "dimG"):   # Torch7's buffers and state
            self.__dict__.pop(key, None)

    def _split(self, input):
        """(gater as [batch, n], the experts stacked as [batch, n, ...], the
        experts' dim in input[1] or None for a table), after the checks."""
        xp = array_namespace(input)
        gater, experts = check_table(name_of(self), "input", input, ["gater", "experts"])
        check_float_array(self, gater, "input[0]")
        if gater.ndim not in (1, 2):
            raise ValueError(f"{name_of(self)}: input[0] (the gater) must be 1D [n] or 2D [batch, n], "
                             f"got {describe(gater)}")
        batch, n = gater.ndim == 2, gater.shape[-1]
        if isinstance(experts, (list, tuple)):
            xs = check_float_arrays(self, experts, "input[1]")
            if len(xs) != n:
                raise ValueError(f"{name_of(self)}: input[1] must hold one expert per gater output ({n}), "
                                 f"got {len(xs)}")
            if xs[0].dtype != gater.dtype:
                raise TypeError(f"{name_of(self)}: input[1][0] is {xs[0].dtype} but the gater is {gater.dtype}")
            if batch and (xs[0].ndim == 0 or xs[0].shape[0] != gater.shape[0]):
                raise ValueError(f"{name_of(self)}: input[1][0] must start with the batch size "
                                 f"{gater.shape[0]} of the gater, got {describe(xs[0])}")
            stacked, d = xp.stack(xs, axis=int(batch)), None
        else:
            check_float_array(self, experts, "input[1]", gater.dtype)
            default = 1 if batch else 0
            d = batch_dim(self, default if self.dim is None else self.dim, experts, name="dim", what="input[1]")
            if experts.shape[d] != n or (batch and (d == 0 or experts.shape[0] != gater.shape[0])):
                want = f"[{gater.shape[0]}, ...] with {n} at dim {d} (not 0)" if batch else f"{n} at dim {d}"
                raise ValueError(f"{name_of(self)}: input[1] (the experts) must be of size {want} for a gater "
                                 f"{describe(gater)}, got {describe(experts)}")
            stacked = xp.moveaxis(experts, d, int(batch))
        if not batch:
            gater, stacked = gater[None], stacked[None]
        return xp.ascontiguousarray(gater), xp.ascontiguousarray(stacked), d

    @staticmethod
    def _gates(gater, stacked):
        """gater shaped to multiply the stacked experts [batch, n, ...]."""
        return gater.reshape(gater.shape + (1,) * (stacked.ndim - 2))

    @staticmethod
    def _out_shape(input, stacked):
        return stacked.shape[:1] + stacked.shape[2:] if input[0].ndim == 2 else stacked.shape[2:]

    def updateOutput(self, input):
        gater, stacked, _ = self._split(input)
        shape = self._out_shape(input, stacked)
        self.output = reuse(self.output, shape, gater.dtype, *table_leaves(input))
        self.output[...] = (self._gates(gater, stacked) * stacked).sum(axis=1).reshape(shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        gater, stacked, d = self._split(input)
        check_shape(self, gradOutput, "gradOutput", self._out_shape(input, stacked), gater.dtype, "the output")
        g = xp.ascontiguousarray(gradOutput).reshape(stacked.shape[:1] + (1,) + stacked.shape[2:])
        grad_gater = (g * stacked).reshape(stacked.shape[:2] + (math.prod(stacked.shape[2:]),)).sum(axis=2)
        grad_experts = self._gates(gater, stacked) * g        # [batch, n, ...]
        batch, experts = input[0].ndim == 2, input[1]
        self.gradInput = nested_zeros(self.gradInput, [input[0], experts if d is not None else list(experts)])
        self.gradInput[0][...] = grad_gater.reshape(input[0].shape)
        if not batch:
            grad_experts = grad_experts[0]
        if d is None:
            for i, out in enumerate(self.gradInput[1]):
                out[...] = grad_experts[:, i] if batch else grad_experts[i]
        else:
            self.gradInput[1][...] = xp.moveaxis(grad_experts, int(batch), d)
        return self.gradInput

    def __repr__(self):
        return "nn.MixtureTable" + ("" if self.dim is None else f"({self.dim})")

    def _onnx(self, g, x, y):
        """Mul of the experts (stacked by Concat) by the gates, ReduceSum over the experts"""
        gater, experts = x
        batch = int(gater.ndim == 2)
        _, stacked, d = self._split([gater.value, _nested_values(experts)])
        if isinstance(experts, list):
            stacked_name = g.op("Concat", [g.op("Unsqueeze", [e, g.ints([batch])]) for e in experts], axis=batch)
        else:
            stacked_name = experts.name if d == batch else \
                g.op("Transpose", [experts], perm=_move(experts.ndim, d, batch))
        gates = g.op("Reshape", [gater, g.ints(([-1] if batch else []) + [gater.shape[-1]] + [1] * (stacked.ndim - 2))])
        return g.op("ReduceSum", [g.op("Mul", [stacked_name, gates]), g.ints([batch])], keepdims=0)


def _nested_values(value):
    return [v.value for v in value] if isinstance(value, list) else value.value


def _move(ndim, source, destination):
    """The permutation np.moveaxis(a, source, destination) makes."""
    order = [d for d in range(ndim) if d != source]
    order.insert(destination, source)
    return order

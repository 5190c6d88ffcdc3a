from ._helpers.arrays import check_float_array, describe, name_of, reuse
from ._helpers.namespace import array_namespace
from ._bases.tables import check_length, check_list, reuse_list
from .Container import same_list
from .Module import Module


class CAddTensorTable(Module):
    """Adds one array to every array of a table: the input is
    ``[v, [t_0, ..., t_{n-1}]]`` (n >= 1, every t_i of v's shape and dtype)
    and the output the table ``[t_0 + v, ..., t_{n-1} + v]``.

    Gradients: with ``g_i = dL/d(output_i)``, ``dL/dv = sum_i g_i`` and
    ``dL/dt_i = g_i``; gradInput is ``[dL/dv, [dL/dt_0, ...]]``.  (Torch7
    copied each t_i into v's shape when only the element counts matched;
    here the shapes must be equal.)
    """

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    def _parts(self, input):
        if not isinstance(input, (list, tuple)) or len(input) != 2:
            got = f"a table of {len(input)} entries" if isinstance(input, (list, tuple)) else type(input).__name__
            raise TypeError(f"{name_of(self)}: input must be a table [v, [t_0, t_1, ...]], got {got}")
        v, ts = input
        check_float_array(self, v, "input[0]")
        ts = check_list(self, ts, "input[1]", 1)
        for i, t in enumerate(ts):
            check_float_array(self, t, f"input[1][{i}]", v.dtype)
            if t.shape != v.shape:
                raise ValueError(f"{name_of(self)}: input[1][{i}] must be of size [{', '.join(map(str, v.shape))}] "
                                 f"like input[0], got {describe(t)}")
        return v, ts

    def updateOutput(self, input):
        v, ts = self._parts(input)
        self.output = reuse_list(self.output, [v.shape] * len(ts), v.dtype, v, *ts)
        xp = array_namespace(v)
        for out, t in zip(self.output, ts):
            xp.add(t, v, out=out)
        return self.output

    def updateGradInput(self, input, gradOutput):
        v, ts = self._parts(input)
        gs = check_length(self, gradOutput, len(ts))
        for i, g in enumerate(gs):
            check_float_array(self, g, f"gradOutput[{i}]", v.dtype)
            if g.shape != v.shape:
                raise ValueError(f"{name_of(self)}: gradOutput[{i}] must be of size [{', '.join(map(str, v.shape))}] "
                                 f"like the output, got {describe(g)}")
        old = self.gradInput if isinstance(self.gradInput, list) and len(self.gradInput) == 2 else [None, None]
        avoid = (v, *ts, *gs)
        grad_v = reuse(old[0], v.shape, v.dtype, *avoid)
        grad_ts = reuse_list(old[1], [v.shape] * len(ts), v.dtype, *avoid)
        self.gradInput = same_list(self.gradInput, [grad_v, grad_ts])
        grad_v[...] = gs[0]
        for g in gs[1:]:
            grad_v += g
        for out, g in zip(grad_ts, gs):
            out[...] = g
        return self.gradInput

    def _onnx(self, g, x, y):
        """Add of the array to every entry"""
        v, table = x
        return [g.op("Add", [t, v]) for t in table]

"""What SpatialConvolutionMap and SpatialFullConvolutionMap share: the
connection table and its checks, the weights, reset(), Torch7's table
builders, the calls of the kernels and the Torch7-file fixup.  Each layer's
math is in its own class docstring."""

import numpy as np

from .._helpers import volumetric as _volumetric
from .._helpers.arrays import to_host
from .._helpers.random import generator
from ..Module import Module, uniform


def connection_table(layer, conMatrix):
    """conMatrix as a contiguous int64 [nConnections, 2] array of 0-based
    (input plane, output plane) rows; ValueError naming the layer otherwise
    (Torch7's float tables are taken when their values are whole numbers)."""
    table = np.asarray(conMatrix)
    if table.ndim != 2 or table.shape[1] != 2 or table.shape[0] < 1 or table.dtype.kind not in "iuf":
        shape = "x".join(map(str, table.shape)) or "scalar"
        raise ValueError(f"{layer}: conMatrix must be a numeric [nConnections, 2] table of (input plane, "
                         f"output plane) rows with at least one row, got shape {shape} of {table.dtype}")
    bad = ~np.isfinite(table) | (table < 0) | (table != np.floor(table)) if table.dtype.kind == "f" else table < 0
    if bad.any():
        row = int(np.argwhere(bad)[0][0])
        raise ValueError(f"{layer}: conMatrix rows must be non-negative whole numbers (0-based plane indices), "
                         f"got row {row} = {table[row].tolist()}")
    return np.ascontiguousarray(table, dtype=np.int64)


class ConnectionMap(Module):
    """The base of SpatialConvolutionMap and SpatialFullConvolutionMap (not a
    layer itself): ``connTable`` [nConnections, 2] int64, 0-based (input
    plane, output plane) rows, one kernel ``weight[k]`` [kH, kW] per row,
    ``bias`` [nOutputPlane].  ``nInputPlane`` and ``nOutputPlane`` are one
    more than the largest plane the table names; an input may have more
    planes than nInputPlane (the others are unused, as in Torch7)."""

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _kernel = None

    def __init__(self, conMatrix, kW, kH, dW=1, dH=1):
        super().__init__()
        name = type(self).__name__
        self.connTable = connection_table(name, conMatrix)
        self.kW, self.kH = _volumetric.positive(name, kW=kW, kH=kH)
        self.dW, self.dH = _volumetric.positive(name, dW=dW, dH=dH)
        self.nInputPlane = int(self.connTable[:, 0].max()) + 1
        self.nOutputPlane = int(self.connTable[:, 1].max()) + 1
        self.weight = np.zeros((len(self.connTable), self.kH, self.kW))
        self.bias = np.zeros(self.nOutputPlane)
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    # ---- Torch7's table builders (nn.tables), 0-based ----
    @staticmethod
    def full(nin, nout):
        """Every input plane to every output plane: rows (i, o), o-major
        (all inputs of output 0 first), as nn.tables.full."""
        nin, nout = _volumetric.positive("full", nin=nin, nout=nout)
        return np.array([(i, o) for o in range(nout) for i in range(nin)], dtype=np.int64)

    @staticmethod
    def oneToOne(nfeat):
        """Plane i to plane i, for i < nfeat, as nn.tables.oneToOne."""
        (nfeat,) = _volumetric.positive("oneToOne", nfeat=nfeat)
        return np.repeat(np.arange(nfeat, dtype=np.int64)[:, None], 2, axis=1)

    @staticmethod
    def random(nin, nout, nto):
        """nto distinct random input planes for each output plane, as
        nn.tables.random: rows (i, o) grouped by o; the inputs are drawn in
        chunks of nto from a random permutation of the nin planes, a new
        permutation once the whole chunks of one are used, so the inputs
        are spread evenly.  Draws from the module generator (manualSeed)."""
        nin, nout, nto = _volumetric.positive("random", nin=nin, nout=nout, nto=nto)
        if nto > nin:
            raise ValueError(f"random: nto must be at most nin, got nto={nto}, nin={nin}")
        table = np.empty((nout * nto, 2), dtype=np.int64)
        chunks, perm, used = nin // nto, generator().permutation(nin), 0
        for o in range(nout):
            table[o * nto:(o + 1) * nto, 0] = perm[used * nto:(used + 1) * nto]
            table[o * nto:(o + 1) * nto, 1] = o
            used += 1
            if used == chunks:
                perm, used = generator().permutation(nin), 0
        return table

    def reset(self, stdv=None):
        """Torch7's: without stdv, kernel k and bias o are drawn from
        U(-1/sqrt(kW*kH*fanIn), +...) where fanIn counts the rows that feed
        output plane o (the plane of row k); with stdv from U(-stdv, stdv).
        An output plane no row feeds takes fanIn = 1 for its bias."""
        if stdv is not None:
            self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
            self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
            return self
        table = to_host(self.connTable)   # (where a module on a device keeps it)
        fan_in = np.maximum(np.bincount(table[:, 1], minlength=self.nOutputPlane), 1)
        bound = 1 / np.sqrt(self.kW * self.kH * fan_in)
        self.weight[...] = uniform(self.weight.shape, 1, np.float64) * bound[table[:, 1], None, None]
        self.bias[...] = uniform(self.bias.shape, 1, np.float64) * bound[:self.nOutputPlane]
        return self

    def _settings(self):
        """The kernel's arguments after bias, in header order."""
        return (self.connTable, self.nInputPlane, self.nOutputPlane, self.kW, self.kH, self.dW, self.dH)

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.weight, self.bias,
                                                             *self._settings())
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(input, gradOutput, self.gradInput,
                                                                   self.weight, *self._settings())
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernel_of(input, "accGradParameters")(input, gradOutput, self.gradWeight, self.gradBias,
                                                    *self._settings(), scale)

    def _t7_unfixup(self, fields):
        """save_lua: Torch7 counted planes from 1, and its connTable is a tensor of the module's type (type()
        converted it with the weight: THNN's float kernels take a THFloatTensor)."""
        fields["connTable"] = np.asarray(self.connTable, dtype=self.weight.dtype) + 1

    def _t7_fixup(self, version):
        table = np.asarray(self.connTable)
        self.connTable = connection_table(type(self).__name__, table - 1)   # Torch7 counts planes from 1
        _volumetric.t7_ints(self, "nInputPlane", "nOutputPlane", "kW", "kH", "dW", "dH")

    def __repr__(self):
        s = f"nn.{type(self).__name__}({self.nInputPlane} -> {self.nOutputPlane}, {self.kW}x{self.kH}"
        if (self.dW, self.dH) != (1, 1):
            s += f", {self.dW},{self.dH}"
        return s + f", {len(self.connTable)} connections)"

    def _onnx(self, g, x, y):
        """Conv (ConvTranspose for the full map) with the table's kernels in a dense weight, zeros elsewhere"""
        planes = x.shape[-3]
        full = self._kernel == "SpatialFullConvolutionMap"
        pair = (planes, self.nOutputPlane) if full else (self.nOutputPlane, planes)
        dense = np.zeros(pair + (self.kH, self.kW), self.weight.dtype)
        for (i, o), w in zip(self.connTable, self.weight):
            dense[(i, o) if full else (o, i)] += w
        return g.conv(x, g.param(dense, "weight"), g.param(self.bias, "bias"), (self.kH, self.kW), (self.dH, self.dW),
                      (0, 0), transpose=full)

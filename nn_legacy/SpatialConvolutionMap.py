from ._bases.connection_map import ConnectionMap


class SpatialConvolutionMap(ConnectionMap):
    """A 2D convolution whose input and output planes are linked by a
    connection table (Torch7's ``nn.SpatialConvolutionMap``)::

        output[o] = bias[o] + sum over the rows k = (i, o) of connTable of weight[k] (*) input[i]
        (w (*) x)[y, x'] = sum over a, b of w[a, b] * x[y*dH + a, x'*dW + b]

    (a valid cross-correlation, no padding).  ``connTable`` is ``[nConnections,
    2]``, 0-based (input plane, output plane) rows; ``weight`` is
    ``[nConnections, kH, kW]``, one kernel per row, and ``bias``
    ``[nOutputPlane]``.  input ``[planes, iH, iW]`` or ``[batch, planes, iH,
    iW]`` with at least ``nInputPlane`` planes; output ``[nOutputPlane, oH,
    oW]`` (or batched), ``oH = (iH - kH) // dH + 1``, ``oW = (iW - kW) // dW
    + 1``.  A full table is SpatialConvolution; ``oneToOne`` filters every
    plane by its own kernel.

    ``SpatialConvolutionMap(conMatrix, kW, kH, dW=1, dH=1)``.  The table
    builders of Torch7's ``nn.tables`` are static methods, 0-based:
    ``SpatialConvolutionMap.full(nin, nout)``, ``.oneToOne(nfeat)``,
    ``.random(nin, nout, nto)``.

    Gradients: each row k = (i, o) adds ``weight[k]`` spread over
    ``dL/doutput[o]`` to ``dL/dinput[i]`` (``dL/dinput[i, y*dH + a, x'*dW +
    b] += weight[k, a, b] * dL/doutput[o, y, x']``); ``dL/dweight[k, a, b] +=
    scale * sum over y, x' (and the batch) of dL/doutput[o, y, x'] *
    input[i, y*dH + a, x'*dW + b]``; ``dL/dbias[o] += scale * sum of
    dL/doutput[o]``.  reset(): see ConnectionMap.reset (Torch7's fan-in
    scaled draw).  Torch7 files: the 1-based float table becomes 0-based int64.
    """

    _kernel = "SpatialConvolutionMap"

from ._bases.connection_map import ConnectionMap


class SpatialFullConvolutionMap(ConnectionMap):
    """The transpose of SpatialConvolutionMap (Torch7's
    ``nn.SpatialFullConvolutionMap``; the transpose of the map whose table
    has the two columns swapped): each row k = (i, o) of the connection
    table spreads every pixel of input plane i over a kH x kW patch of
    output plane o::

        output[o, y*dH + a, x*dW + b] += weight[k, a, b] * input[i, y, x]

    on top of ``bias[o]``.  input ``[planes, iH, iW]`` or ``[batch, planes,
    iH, iW]`` with at least ``nInputPlane`` planes; output ``[nOutputPlane,
    (iH - 1)*dH + kH, (iW - 1)*dW + kW]`` (or batched).  ``connTable``,
    ``weight`` ``[nConnections, kH, kW]``, ``bias`` ``[nOutputPlane]``, the
    table builders (``full``, ``oneToOne``, ``random``) and reset() as in
    SpatialConvolutionMap.

    ``SpatialFullConvolutionMap(conMatrix, kW, kH, dW=1, dH=1)``.

    Gradients: ``dL/dinput[i] += weight[k] (*) dL/doutput[o]`` for each row
    k = (i, o), the valid cross-correlation of SpatialConvolutionMap;
    ``dL/dweight[k, a, b] += scale * sum over y, x (and the batch) of
    input[i, y, x] * dL/doutput[o, y*dH + a, x*dW + b]``; ``dL/dbias[o] +=
    scale * sum of dL/doutput[o]``.
    """

    _kernel = "SpatialFullConvolutionMap"

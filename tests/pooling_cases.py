"""Valid calls of the pooling kernels, for tests/kernel_cases.py (the
binding, lifetime and memory tests).

``BUILDERS[layer](dtype, rng, n, verb)`` returns the arguments of one call
by their THNN.h names; n is the batch size.  The indices a backward verb
reads come from the forward kernel on the same input, so they are valid.
``verb`` is the verb's name or the header function itself."""
import thnn


def _u(rng, shape, dtype, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape).astype(dtype)


def _forward(dtype, layer, kw):
    """The [OUT]/[BUFFER] results of layer's updateOutput on kw, by name."""
    fn = next(f for f in thnn.FUNCTIONS if f.name == f"{layer}_updateOutput")
    args = [kw.get(a.name) for a in fn.args[1:]]
    out = getattr(thnn.backend(dtype), fn.name)(*args)
    names = [a.name for a in fn.args[1:] if a.tags & {"OUT", "BUFFER"}]
    return dict(zip(names, out if len(names) > 1 else (out,)))


def _pooling(layer, shape, scalars, samples=0):
    """A layer whose backward takes (input, gradOutput, gradInput, [indices])
    and the window scalars; samples > 0 adds randomSamples of that many per
    plane (fractional pooling)."""
    def build(dtype, rng, n, verb):
        verb = getattr(verb, "verb", verb)
        kw = {"input": _u(rng, (n,) + shape, dtype), "output": None, "indices": None, **scalars}
        if samples:
            kw["randomSamples"] = rng.random((n, shape[0], samples), dtype=dtype)
        if verb in ("updateOutput", "updateOutputValues"):
            return kw
        results = _forward(dtype, layer, kw)
        kw.update(results, gradInput=None, gradOutput=_u(rng, results["output"].shape, dtype))
        return kw
    return build


def _unpooling(layer, pooled_shape, scalars, kernel):
    """Unpooling of the output of a max pooling with kernel == stride."""
    def build(dtype, rng, n, verb):
        verb = getattr(verb, "verb", verb)
        pool = "Spatial" if len(pooled_shape) == 3 else "Volumetric"
        sizes = [s * k for s, k in zip(pooled_shape[1:], kernel)]        # (T,) H, W
        window = kernel[::-1] if len(kernel) == 2 else (kernel[0], kernel[2], kernel[1])  # Torch7's order
        x = _u(rng, (n, pooled_shape[0], *sizes), dtype)
        _, ind = getattr(thnn.backend(dtype), f"{pool}MaxPooling_updateOutput")(
            x, None, None, *window, *window, *(0,) * len(kernel), False)
        kw = {"input": _u(rng, ind.shape, dtype), "output": None, "indices": ind, **scalars}
        if verb == "updateGradInput":
            kw.update(gradInput=None, gradOutput=_u(rng, (n, pooled_shape[0], *sizes), dtype))
        return kw
    return build


def _feature_lp(dtype, rng, n, verb):
    verb = getattr(verb, "verb", verb)
    kw = {"input": _u(rng, (n, 9, 3), dtype, 0.2, 2.0), "output": None, "power": 2.5, "width": 3, "stride": 2,
          "batchMode": True}
    if verb == "updateGradInput":
        kw.update(_forward(dtype, "FeatureLPPooling", kw), gradInput=None, gradOutput=_u(rng, (n, 4, 3), dtype))
    return kw


_SPATIAL = {"kW": 3, "kH": 2, "dW": 2, "dH": 1, "padW": 1, "padH": 0, "ceil_mode": True}
_VOLUMETRIC = {"kT": 2, "kW": 3, "kH": 2, "dT": 1, "dW": 2, "dH": 1, "padT": 1, "padW": 1, "padH": 0,
               "ceil_mode": True}

BUILDERS = {
    "SpatialMaxPooling": _pooling("SpatialMaxPooling", (2, 5, 7), _SPATIAL),
    "SpatialDilatedMaxPooling": _pooling("SpatialDilatedMaxPooling", (2, 6, 9),
                                         {**_SPATIAL, "dilationW": 2, "dilationH": 1}),
    "SpatialAveragePooling": _pooling("SpatialAveragePooling", (2, 5, 7),
                                      {**_SPATIAL, "padH": 1, "count_include_pad": False}),
    "SpatialAdaptiveMaxPooling": _pooling("SpatialAdaptiveMaxPooling", (2, 7, 9), {"owidth": 4, "oheight": 3}),
    "SpatialAdaptiveAveragePooling": _pooling("SpatialAdaptiveAveragePooling", (2, 7, 9),
                                              {"owidth": 4, "oheight": 3}),
    "SpatialFractionalMaxPooling": _pooling("SpatialFractionalMaxPooling", (2, 9, 11),
                                            {"outputW": 5, "outputH": 4, "poolSizeW": 3, "poolSizeH": 2}, 2),
    "SpatialMaxUnpooling": _unpooling("SpatialMaxUnpooling", (2, 3, 4), {"owidth": 8, "oheight": 6}, (2, 2)),
    "VolumetricMaxPooling": _pooling("VolumetricMaxPooling", (2, 3, 4, 5), _VOLUMETRIC),
    "VolumetricDilatedMaxPooling": _pooling("VolumetricDilatedMaxPooling", (2, 4, 5, 6),
                                            {**_VOLUMETRIC, "dilationT": 2, "dilationW": 1, "dilationH": 2}),
    "VolumetricAveragePooling": _pooling("VolumetricAveragePooling", (2, 3, 4, 5),
                                         {**_VOLUMETRIC, "count_include_pad": False}),
    "VolumetricFractionalMaxPooling": _pooling("VolumetricFractionalMaxPooling", (2, 5, 6, 7),
                                               {"outputT": 3, "outputW": 4, "outputH": 3, "poolSizeT": 2,
                                                "poolSizeW": 3, "poolSizeH": 2}, 3),
    "VolumetricMaxUnpooling": _unpooling("VolumetricMaxUnpooling", (2, 2, 2, 3), {"oT": 4, "oW": 6, "oH": 4},
                                         (2, 2, 2)),
    "FeatureLPPooling": _feature_lp,
}

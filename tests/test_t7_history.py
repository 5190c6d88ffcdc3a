"""Modules as older versions of Torch7's nn saved them.

Each case is one historical layout of a class: the fields its Lua
constructor and forward left in the object at that torch/nn commit (named
in the case id: class, date, commit), written with tests/t7_writer.py as
torch.save wrote them (every number a Lua number, so ``kW = 35.0``), and
the nn_legacy module of the same meaning.  The loaded module must compute
what that one computes: forward, gradInput and the parameter gradients.

What a missing field meant is what Torch7's own code did with it: its
``read`` methods and class versions, its constructor's defaults, and where
a later version reads the field as nil (a sum where ``sizeAverage`` is
missing, window sums where SpatialAveragePooling's ``divide`` is), that.
"""
import dataclasses
import zlib
from typing import Callable, Optional

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization.t7 import T7Warning
from t7_writer import Function, Storage, T7Object, Tensor, t7_bytes


def E():
    """An empty tensor, as Torch7 wrote torch.Tensor()."""
    return np.zeros(0)


def longs(*values):
    """A torch.LongStorage (sizes were kept in those)."""
    return Storage(np.array(values, dtype=np.int64), "torch.LongStorage")


def module(cls, era, fields, version=1):
    """A T7Object with the Module fields of that era: output and gradInput
    always, train from July 2014, _type from March 2016."""
    base = {"output": E(), "gradInput": E()}
    if era >= "2014-07":
        base["train"] = True
    if era >= "2016-03":
        base["_type"] = "torch.DoubleTensor"
    base.update(fields)
    return T7Object(cls, base, version)


def set_params(m, **values):
    for name, value in values.items():
        getattr(m, name)[...] = value
    return m


@dataclasses.dataclass
class Case:
    id: str                                   # class-date-commit (torch/nn unless said)
    saved: Callable                           # rng -> the object as torch.save wrote it
    want: Callable                            # the saved object's fields -> the nn_legacy module of that meaning
    input: Callable                           # rng -> input
    target: Optional[Callable] = None         # criterions: rng -> target
    backward: bool = True


def _u(rng, *shape):
    return rng.uniform(-1, 1, shape)


def _conv(nin, nout, k, rng, weight_shape=None):
    w = _u(rng, nout, nin, k, k)
    return {"nInputPlane": nin, "nOutputPlane": nout, "kW": k, "kH": k,
            "weight": w.reshape(weight_shape) if weight_shape else w, "bias": _u(rng, nout),
            "gradWeight": np.zeros(weight_shape or w.shape), "gradBias": np.zeros(nout)}


def _conv_want(cls, f, *args, shape=None):
    m = cls(f["nInputPlane"], f["nOutputPlane"], f["kW"], f["kH"], *args)
    w = f["weight"]
    set_params(m, weight=w.reshape(m.weight.shape))
    if "bias" in f:
        set_params(m, bias=f["bias"])
    else:
        m.noBias()
    return m


CASES = [
    # ---- convolutions
    Case("SpatialConvolution-2012-01-4df3893",
         lambda r: module("nn.SpatialConvolution", "2012-01", dict(_conv(2, 3, 3, r), dW=2, dH=1)),
         lambda f: _conv_want(nn.SpatialConvolution, f, 2, 1), lambda r: _u(r, 2, 2, 7, 6)),
    Case("SpatialConvolution-2015-02-bb808d9-padding",
         lambda r: module("nn.SpatialConvolution", "2015-02", dict(_conv(2, 3, 3, r), dW=1, dH=1, padding=1,
                                                                    finput=E(), fgradInput=E())),
         lambda f: _conv_want(nn.SpatialConvolution, f, 1, 1, 1, 1), lambda r: _u(r, 2, 2, 5, 6)),
    Case("SpatialConvolution-2016-noBias",
         lambda r: module("nn.SpatialConvolution", "2016-05", {**{k: v for k, v in _conv(2, 3, 3, r).items()
                                                                   if k not in ("bias", "gradBias")},
                                                                "dW": 1, "dH": 1, "padW": 1, "padH": 0}),
         lambda f: _conv_want(nn.SpatialConvolution, f, 1, 1, 1, 0), lambda r: _u(r, 2, 2, 5, 6)),
    Case("SpatialConvolutionMM-2012-09-4069dc4-2D-weight",
         lambda r: module("nn.SpatialConvolutionMM", "2012-09", dict(_conv(2, 3, 3, r, (3, 18)), dW=2, dH=2,
                                                                     finput=E(), fgradInput=E())),
         lambda f: _conv_want(nn.SpatialConvolutionMM, f, 2, 2), lambda r: _u(r, 2, 2, 7, 7)),
    Case("SpatialConvolutionMM-2012-09-fa66fb2-no-strides",
         lambda r: module("nn.SpatialConvolutionMM", "2012-09", dict(_conv(2, 3, 3, r, (3, 18)),
                                                                     finput=E(), fgradInput=E())),
         lambda f: _conv_want(nn.SpatialConvolutionMM, f), lambda r: _u(r, 2, 2, 5, 6)),
    Case("SpatialConvolutionMM-2014-07-9e7733a-padding",
         lambda r: module("nn.SpatialConvolutionMM", "2014-07", dict(_conv(2, 3, 3, r, (3, 18)), dW=1, dH=1,
                                                                     padding=1, finput=E(), fgradInput=E())),
         lambda f: _conv_want(nn.SpatialConvolutionMM, f, 1, 1, 1, 1), lambda r: _u(r, 2, 2, 5, 6)),
    Case("SpatialFullConvolution-2013-01-1ee64da-no-padding",
         lambda r: module("nn.SpatialFullConvolution", "2013-01",
                          dict(_conv(3, 2, 3, r), weight=_u(r, 3, 2, 3, 3), gradWeight=np.zeros((3, 2, 3, 3)),
                               dW=2, dH=1)),
         lambda f: set_params(nn.SpatialFullConvolution(3, 2, 3, 3, 2, 1), weight=f["weight"], bias=f["bias"]),
         lambda r: _u(r, 2, 3, 4, 4)),
    Case("SpatialFullConvolution-2015-12-6249756-no-adj",
         lambda r: module("nn.SpatialFullConvolution", "2015-12",
                          dict(_conv(3, 2, 3, r), weight=_u(r, 3, 2, 3, 3), gradWeight=np.zeros((3, 2, 3, 3)),
                               dW=2, dH=2, padW=1, padH=0, finput=E(), fgradInput=E())),
         lambda f: set_params(nn.SpatialFullConvolution(3, 2, 3, 3, 2, 2, 1, 0), weight=f["weight"],
                              bias=f["bias"]),
         lambda r: _u(r, 2, 3, 4, 4)),
    Case("SpatialDeconvolution-2015-08-9b51443",
         lambda r: module("nn.SpatialDeconvolution", "2015-08",
                          dict(_conv(3, 2, 3, r), weight=_u(r, 3, 18), gradWeight=np.zeros((3, 18)),
                               dW=1, dH=1, padW=1, padH=1, finput=E(), fgradInput=E())),
         lambda f: set_params(nn.SpatialFullConvolution(3, 2, 3, 3, 1, 1, 1, 1),
                              weight=f["weight"].reshape(3, 2, 3, 3), bias=f["bias"]),
         lambda r: _u(r, 2, 3, 4, 4)),
    Case("SpatialSubSampling-3D-weight",
         lambda r: module("nn.SpatialSubSampling", "2012-01",
                          {"nInputPlane": 2, "kW": 2, "kH": 2, "dW": 2, "dH": 2, "weight": _u(r, 2, 2, 2),
                           "bias": _u(r, 2), "gradWeight": np.zeros((2, 2, 2)), "gradBias": np.zeros(2)}),
         lambda f: set_params(nn.SpatialSubSampling(2, 2, 2, 2, 2), weight=f["weight"].ravel()[:2],
                              bias=f["bias"]),
         lambda r: _u(r, 2, 2, 4, 6)),
    Case("TemporalConvolution-2012-01-4df3893",
         lambda r: module("nn.TemporalConvolution", "2012-01",
                          {"inputFrameSize": 4, "outputFrameSize": 3, "kW": 3, "dW": 2, "weight": _u(r, 3, 12),
                           "bias": _u(r, 3), "gradWeight": np.zeros((3, 12)), "gradBias": np.zeros(3)}),
         lambda f: set_params(nn.TemporalConvolution(4, 3, 3, 2), weight=f["weight"], bias=f["bias"]),
         lambda r: _u(r, 2, 9, 4)),
    Case("VolumetricConvolution-2012-01-4df3893-no-padding",
         lambda r: module("nn.VolumetricConvolution", "2012-01",
                          {"nInputPlane": 2, "nOutputPlane": 2, "kT": 2, "kW": 2, "kH": 2, "dT": 1, "dW": 1,
                           "dH": 1, "weight": _u(r, 2, 2, 2, 2, 2), "bias": _u(r, 2),
                           "gradWeight": np.zeros((2, 2, 2, 2, 2)), "gradBias": np.zeros(2)}),
         lambda f: set_params(nn.VolumetricConvolution(2, 2, 2, 2, 2), weight=f["weight"], bias=f["bias"]),
         lambda r: _u(r, 1, 2, 3, 4, 4)),
    # ---- pooling
    Case("SpatialMaxPooling-2012-01-4df3893",
         lambda r: module("nn.SpatialMaxPooling", "2012-01", {"kW": 2, "kH": 2, "dW": 2, "dH": 2,
                                                              "indices": E()}),
         lambda f: nn.SpatialMaxPooling(2, 2, 2, 2), lambda r: _u(r, 2, 2, 5, 6)),
    Case("SpatialAveragePooling-2014-11-70f5424-sums",
         lambda r: module("nn.SpatialAveragePooling", "2014-11", {"kW": 2, "kH": 3, "dW": 2, "dH": 1}),
         lambda f: nn.Sequential(nn.SpatialAveragePooling(2, 3, 2, 1), nn.MulConstant(6)),
         lambda r: _u(r, 2, 2, 5, 6)),
    Case("SpatialAveragePooling-2015-03-cb30332",
         lambda r: module("nn.SpatialAveragePooling", "2015-03", {"kW": 2, "kH": 3, "dW": 2, "dH": 1,
                                                                  "divide": True}),
         lambda f: nn.SpatialAveragePooling(2, 3, 2, 1), lambda r: _u(r, 2, 2, 5, 6)),
    Case("VolumetricMaxPooling-2013-10-2a7a45d",
         lambda r: module("nn.VolumetricMaxPooling", "2013-10",
                          {"kT": 2, "kW": 2, "kH": 2, "dT": 2, "dW": 2, "dH": 2, "indices": E()}),
         lambda f: nn.VolumetricMaxPooling(2, 2, 2, 2, 2, 2), lambda r: _u(r, 1, 2, 4, 5, 5)),
    Case("SpatialLPPooling-2012-01-4df3893-ConvolutionMap",
         lambda r: module("nn.SpatialLPPooling", "2012-01", {
             "kW": 2, "kH": 2, "dW": 2, "dH": 2, "nInputPlane": 2, "modules": {
                 1: module("nn.Square", "2012-01", {}),
                 2: module("nn.SpatialConvolutionMap", "2012-01", {
                     "connTable": np.array([[1.0, 1.0], [2.0, 2.0]]), "nInputPlane": 2, "nOutputPlane": 2,
                     "kW": 2, "kH": 2, "dW": 2, "dH": 2, "weight": np.full((2, 2, 2), 0.25),
                     "bias": np.zeros(2), "gradWeight": np.zeros((2, 2, 2)), "gradBias": np.zeros(2)}),
                 3: module("nn.Sqrt", "2012-01", {"eps": 0})}}),
         # that layout took the mean of the squares in each window (its weights were 1/(kW*kH))
         lambda f: nn.Sequential(nn.SpatialLPPooling(2, 2, 2, 2, 2, 2), nn.MulConstant(0.5)),
         lambda r: r.uniform(0.5, 1, (2, 2, 4, 6)), backward=False),
    Case("SpatialLPPooling-2015-01-3f64a20-AveragePooling",
         lambda r: module("nn.SpatialLPPooling", "2015-01", {
             "kW": 2, "kH": 2, "dW": 2, "dH": 2, "modules": {
                 1: module("nn.Power", "2015-01", {"pow": 3}),
                 2: module("nn.SpatialAveragePooling", "2015-01", {"kW": 2, "kH": 2, "dW": 2, "dH": 2}),
                 3: module("nn.Power", "2015-01", {"pow": 1 / 3})}}),
         lambda f: nn.SpatialLPPooling(2, 3, 2, 2, 2, 2), lambda r: r.uniform(0.5, 1, (2, 2, 4, 6))),
    Case("SpatialMaxUnpooling-2015-12-c7f74f4-stored-updateOutput",
         lambda r: _unpooling(),
         lambda f: _unpooling_want(), lambda r: _u(r, 2, 2, 4, 6)),
    # ---- normalization and regularization
    Case("BatchNormalization-2015-03-fa12c6f-v1",
         lambda r: module("nn.BatchNormalization", "2015-03", {
             "eps": 1e-5, "momentum": 0.1, "affine": True, "train": False, "running_mean": _u(r, 3),
             "running_std": r.uniform(0.5, 2, 3), "weight": _u(r, 3), "bias": _u(r, 3), "gradWeight": E(),
             "gradBias": E(), "buffer": E(), "buffer2": E(), "centered": E(), "std": E(), "normalized": E()}),
         lambda f: _bn_want(nn.BatchNormalization, f), lambda r: _u(r, 4, 3)),
    Case("SpatialBatchNormalization-2016-01-a142233-v2",
         lambda r: module("nn.SpatialBatchNormalization", "2016-01", {
             "eps": 1e-3, "momentum": 0.1, "affine": True, "train": False, "running_mean": _u(r, 3),
             "running_var": r.uniform(0.5, 2, 3), "weight": _u(r, 3), "bias": _u(r, 3), "save_mean": E(),
             "save_std": E()}, version=2),
         lambda f: _bn_want(nn.SpatialBatchNormalization, f), lambda r: _u(r, 2, 3, 2, 2)),
    Case("Dropout-nnx-2013-07-c69bfb2-no-v2",   # clementfarabet/lua---nnx
         lambda r: module("nn.Dropout", "2013-07", {"p": 0.25, "train": False, "noise": E(), "fnoise": E()}),
         lambda f: nn.MulConstant(0.75), lambda r: _u(r, 3, 4)),
    Case("Dropout-2014-07-f08c7fc-v2",
         lambda r: module("nn.Dropout", "2014-07", {"p": 0.25, "v2": True, "train": False, "noise": E(),
                                                    "fnoise": E()}),
         lambda f: nn.Identity(), lambda r: _u(r, 3, 4)),
    Case("Normalize-2015-07-b80bda2",
         lambda r: module("nn.Normalize", "2015-07", {"p": 2, "eps": 1e-10, "buffer": E(), "norm": E(),
                                                      "normp": E(), "diag": E(), "eye": E()}),
         lambda f: nn.Normalize(2), lambda r: _u(r, 3, 4)),
    Case("L2Normalize-2015-05-905ea8c",
         lambda r: module("nn.L2Normalize", "2015-05", {}),
         lambda f: nn.Normalize(2, 0), lambda r: _u(r, 3, 4)),
    Case("SpatialCrossLRN-2015-11",
         lambda r: module("nn.SpatialCrossLRN", "2015-11", {"size": 3, "alpha": 1e-2, "beta": 0.75, "k": 2,
                                                            "scale": E()}),
         lambda f: nn.SpatialCrossMapLRN(3, 1e-2, 0.75, 2), lambda r: _u(r, 2, 4, 3, 3)),
    # ---- simple layers of 2012
    Case("Linear-2016-noBias",
         lambda r: module("nn.Linear", "2016-05", {"weight": _u(r, 3, 4), "gradWeight": np.zeros((3, 4))}),
         lambda f: set_params(nn.Linear(4, 3).noBias(), weight=f["weight"]), lambda r: _u(r, 2, 4)),
    Case("Add-2012-01-4df3893-no-scalar",
         lambda r: module("nn.Add", "2012-01", {"bias": _u(r, 4), "gradBias": np.zeros(4)}),
         lambda f: set_params(nn.Add(4), bias=f["bias"]), lambda r: _u(r, 2, 4)),
    Case("CMul-2012-01-4df3893-no-size",
         lambda r: module("nn.CMul", "2012-01", {"weight": _u(r, 4), "gradWeight": np.zeros(4)}),
         lambda f: set_params(nn.CMul(4), weight=f["weight"]), lambda r: _u(r, 2, 4)),
    Case("HardTanh-2012-01-4df3893-no-bounds",
         lambda r: module("nn.HardTanh", "2012-01", {}), lambda f: nn.HardTanh(), lambda r: _u(r, 3, 4) * 2),
    Case("SoftPlus-2012-01-4df3893-no-beta",
         lambda r: module("nn.SoftPlus", "2012-01", {}), lambda f: nn.SoftPlus(), lambda r: _u(r, 3, 4) * 3),
    Case("Threshold-2012-01-4df3893-no-inplace",
         lambda r: module("nn.Threshold", "2012-01", {"threshold": 0.1, "val": -1}),
         lambda f: nn.Threshold(0.1, -1), lambda r: _u(r, 3, 4)),
    Case("PReLU-2015-02-95f4145",
         lambda r: module("nn.PReLU", "2015-02", {"nOutputPlane": 3, "weight": r.uniform(0, 0.5, 3),
                                                  "gradWeight": np.zeros(3)}),
         lambda f: set_params(nn.PReLU(3), weight=f["weight"]), lambda r: _u(r, 2, 3, 2, 2)),
    Case("GradientReversal-2015-09-fc5dd62-no-lambda",
         lambda r: module("nn.GradientReversal", "2015-09", {}), lambda f: nn.GradientReversal(1),
         lambda r: _u(r, 3, 4)),
    Case("WeightedEuclidean-2012-01-4df3893-templates",
         lambda r: _weighted_euclidean(r), lambda f: set_params(
             nn.WeightedEuclidean(4, 3), weight=f["templates"], diagCov=f["diagCov"]), lambda r: _u(r, 2, 4)),
    Case("LookupTable-2012-01-4df3893-v2",
         lambda r: module("nn.LookupTable", "2012-01", {"size": longs(5, 3), "weight": _u(r, 5, 3),
                                                        "gradWeight": np.zeros((5, 3)), "inputs": {}}, version=2),
         lambda f: set_params(nn.LookupTable(5, 3), weight=f["weight"]),
         lambda r: r.integers(0, 5, 6).astype(np.float64), backward=False),
    Case("LookupTable-2016-04-ee1646f-v4-padding",
         lambda r: module("nn.LookupTable", "2016-04", {"weight": _u(r, 5, 3), "gradWeight": np.zeros((5, 3)),
                                                        "paddingValue": 2, "shouldScaleGradByFreq": False,
                                                        "_count": E(), "_input": E()}, version=4),
         lambda f: set_params(nn.LookupTable(5, 3, paddingValue=1), weight=f["weight"]),
         lambda r: r.integers(0, 5, 6).astype(np.float64), backward=False),
    # ---- dims, shapes and tables
    Case("Concat-2012-01-4df3893-size",
         lambda r: module("nn.Concat", "2012-01", {"dimension": 2, "size": longs(2, 6), "modules": {
             1: module("nn.Tanh", "2012-01", {}), 2: module("nn.Sigmoid", "2012-01", {})}}),
         lambda f: nn.Concat(1).add(nn.Tanh()).add(nn.Sigmoid()), lambda r: _u(r, 2, 3)),
    Case("DepthConcat-2014-09-8d7d03e-no-outputSize",
         lambda r: module("nn.DepthConcat", "2014-09", {"dimension": 2, "size": longs(1, 4, 5, 5), "modules": {
             1: module("nn.Identity", "2014-09", {}),
             2: module("nn.SpatialMaxPooling", "2014-09", {"kW": 3, "kH": 3, "dW": 1, "dH": 1, "indices": E()})}}),
         lambda f: nn.DepthConcat(1).add(nn.Identity()).add(nn.SpatialMaxPooling(3, 3, 1, 1)),
         lambda r: _u(r, 1, 2, 5, 5)),
    Case("Mean-2012-01-4df3893",
         lambda r: module("nn.Mean", "2012-01", {"dimension": 2}), lambda f: nn.Mean(1), lambda r: _u(r, 3, 4)),
    Case("Sum-2017-01-44a15a1-no-squeeze",
         lambda r: module("nn.Sum", "2017-01", {"dimension": 2, "sizeAverage": False, "squeeze": False}),
         lambda f: nn.Sequential(nn.Sum(1), nn.Unsqueeze(1)), lambda r: _u(r, 3, 4)),
    Case("Transpose-2017-04-aafe611-numInputDims",
         lambda r: module("nn.Transpose", "2017-04", {"permutations": {1: {1: 1, 2: 2}}, "numInputDims": 2}),
         lambda f: nn.Transpose((1, 2)), lambda r: _u(r, 2, 3, 4)),
    Case("JoinTable-2012-01-4df3893-no-nInputDims",
         lambda r: module("nn.JoinTable", "2012-01", {"dimension": 2, "size": longs()}),
         lambda f: nn.JoinTable(1), lambda r: [_u(r, 2, 3), _u(r, 2, 4)]),
    Case("Replicate-2012-01-4df3893-no-dim",
         lambda r: module("nn.Replicate", "2012-01", {"nfeatures": 3}), lambda f: nn.Replicate(3),
         lambda r: _u(r, 2, 4)),
    Case("View-2014-06-9386e79-no-numInputDims",
         lambda r: module("nn.View", "2014-06", {"size": longs(2, 6), "numElements": 12}),
         lambda f: nn.View(2, 6), lambda r: _u(r, 3, 4)),
    Case("Padding-2015-03-ba6f198-no-index",
         lambda r: module("nn.Padding", "2015-03", {"dim": 1, "pad": -2, "nInputDim": 2, "value": 0.5,
                                                    "outputSize": longs()}),
         lambda f: nn.Padding(0, -2, 2, 0.5), lambda r: _u(r, 2, 3, 4)),
    # ---- criterions
    Case("MarginCriterion-2012-01-4df3893-no-sizeAverage",
         lambda r: T7Object("nn.MarginCriterion", {"margin": 1, "output": 0, "gradInput": np.zeros(1)}),
         lambda f: _sum(nn.MarginCriterion(1)), lambda r: _u(r, 5), lambda r: np.sign(_u(r, 5))),
    Case("HingeEmbeddingCriterion-2012-01-4df3893-no-sizeAverage",
         lambda r: T7Object("nn.HingeEmbeddingCriterion", {"margin": 1, "output": 0, "gradInput": E()}),
         lambda f: nn.HingeEmbeddingCriterion(1), lambda r: r.uniform(0, 2, 5), lambda r: np.sign(_u(r, 5))),
    Case("CosineEmbeddingCriterion-2012-01-4df3893-no-sizeAverage",
         lambda r: T7Object("nn.CosineEmbeddingCriterion", {"margin": 0, "output": 0, "gradInput": {}}),
         lambda f: _sum(nn.CosineEmbeddingCriterion(0)), lambda r: [_u(r, 3, 4), _u(r, 3, 4)],
         lambda r: np.sign(_u(r, 3))),
    Case("MarginRankingCriterion-2013-06-4b3a22b-no-sizeAverage",
         lambda r: T7Object("nn.MarginRankingCriterion", {"margin": 0.5, "output": 0, "gradInput": {}}),
         lambda f: _sum(nn.MarginRankingCriterion(0.5)), lambda r: [_u(r, 5), _u(r, 5)],
         lambda r: np.sign(_u(r, 5))),
    Case("MultiMarginCriterion-2012-01-4df3893-no-p-margin",
         lambda r: T7Object("nn.MultiMarginCriterion", {"sizeAverage": True, "output": 0, "gradInput": E()}),
         lambda f: nn.MultiMarginCriterion(), lambda r: _u(r, 3, 4), lambda r: r.integers(0, 4, 3)),
    Case("CrossEntropyCriterion-2015-03-cef0cb0",
         lambda r: T7Object("nn.CrossEntropyCriterion", {
             "lsm": module("nn.LogSoftMax", "2015-03", {}),
             "nll": T7Object("nn.ClassNLLCriterion", {"sizeAverage": False, "output": 0, "gradInput": E()}),
             "output": 0, "gradInput": E()}),
         lambda f: nn.CrossEntropyCriterion(sizeAverage=False), lambda r: _u(r, 3, 4), lambda r: r.integers(0, 4, 3)),
    Case("CrossEntropyCriterion-2017-01-9209e17-sizeAverage-changed",
         lambda r: T7Object("nn.CrossEntropyCriterion", {
             "lsm": module("nn.LogSoftMax", "2017-01", {}),
             "nll": T7Object("nn.ClassNLLCriterion", {"sizeAverage": True, "output": 0, "gradInput": E()}),
             "sizeAverage": False, "oldSizeAverage": True, "output": 0, "gradInput": E()}),
         lambda f: nn.CrossEntropyCriterion(sizeAverage=False), lambda r: _u(r, 3, 4), lambda r: r.integers(0, 4, 3)),
    Case("ClassNLLCriterion-2012-01-4df3893-no-weights",
         lambda r: T7Object("nn.ClassNLLCriterion", {"sizeAverage": True, "output": 0, "gradInput": E()}),
         lambda f: nn.ClassNLLCriterion(), lambda r: _u(r, 3, 4), lambda r: r.integers(0, 4, 3)),
]


def _bn_want(cls, f):
    m = cls(3, f["eps"])
    var = f["running_std"] ** -2 - f["eps"] if "running_std" in f else f["running_var"]
    set_params(m, weight=f["weight"], bias=f["bias"], running_mean=f["running_mean"], running_var=var)
    m.evaluate()
    return m


def _sum(criterion):
    criterion.sizeAverage = False
    return criterion


def _weighted_euclidean(r):
    templates, diag = _u(r, 4, 3), r.uniform(0.5, 1.5, (4, 3))
    grad_t, grad_d = np.zeros((4, 3)), np.zeros((4, 3))
    # the same tensors under both names (the file refers back to them)
    return module("nn.WeightedEuclidean", "2012-01", {
        "templates": templates, "gradTemplates": grad_t, "diagCov": diag, "gradDiagCov": grad_d,
        "weight": templates, "gradWeight": grad_t, "bias": diag, "gradBias": grad_d, "temp": E()})


def _unpooling():
    """SpatialMaxUnpooling(pool) put a closure in pool.updateOutput to
    record the input size: a Lua function in every such file."""
    pool = module("nn.SpatialMaxPooling", "2015-12", {"kW": 2, "kH": 2, "dW": 2, "dH": 2, "padW": 0, "padH": 0,
                                                      "ceil_mode": False, "indices": E(),
                                                      "updateOutput": Function(upvalues={"nn": {}})})
    unpool = module("nn.SpatialMaxUnpooling", "2015-12", {"pooling": pool, "indices": E()})
    return module("nn.Sequential", "2015-12", {"modules": {1: pool, 2: unpool}})


def _unpooling_want():
    pool = nn.SpatialMaxPooling(2, 2, 2, 2)
    return nn.Sequential(pool, nn.SpatialMaxUnpooling(pool))


def _maxout(r):
    w, b = _u(r, 6, 4), _u(r, 6)
    linear = module("nn.Linear", "2017-02", {"weight": w, "bias": b, "gradWeight": np.zeros((6, 4)),
                                             "gradBias": np.zeros(6)})
    view = module("nn.View", "2017-02", {"size": longs(3, 2), "numElements": 6, "numInputDims": 1})
    top = module("nn.Max", "2017-02", {"dimension": 1, "nInputDims": 2})
    return module("nn.Maxout", "2017-02", {"modules": {1: linear, 2: view, 3: top}})


def _partial_linear(r):
    w, b = _u(r, 5, 3), _u(r, 1, 5)
    lookup = module("nn.LookupTable", "2016-02", {"weight": w, "gradWeight": np.zeros((5, 3))}, version=4)
    network = module("nn.Sequential", "2016-02", {"modules": {
        1: module("nn.ParallelTable", "2016-02", {"modules": {1: module("nn.Identity", "2016-02", {}), 2: lookup}}),
        2: module("nn.MM", "2016-02", {"transA": False, "transB": True})}})
    return module("nn.PartialLinear", "2016-02", {
        "network": network, "bias": b, "gradBias": np.zeros((1, 5)), "inputsize": 3, "outputsize": 5,
        "allcolumns": np.arange(1.0, 6), "partition": Tensor(np.array([2, 5, 1]), "torch.LongTensor")})


CASES += [
    Case("Maxout-2017-02-7c4a72b-Sequential", _maxout,
         lambda f: _maxout_want(f), lambda r: _u(r, 2, 4)),
    Case("PartialLinear-2016-02-c7f1695-LookupTable-inside", _partial_linear,
         lambda f: _partial_want(f), lambda r: _u(r, 2, 3)),
    Case("TemporalRowConvolution-2017-01-02ebb69",
         lambda r: module("nn.TemporalRowConvolution", "2017-01", {
             "inputFrameSize": 4, "kW": 3, "dW": 1, "featFirst": False, "weight": _u(r, 4, 1, 3), "bias": _u(r, 4),
             "gradWeight": np.zeros((4, 1, 3)), "gradBias": np.zeros(4), "finput": E(), "fgradInput": E()}),
         lambda f: set_params(nn.TemporalRowConvolution(4, 3, 1), weight=f["weight"], bias=f["bias"]),
         lambda r: _u(r, 2, 6, 4)),
]


def _maxout_want(f):
    linear = f["modules"][1].fields
    m = nn.Maxout(4, 2, 3)
    m.modules[0].weight[...], m.modules[0].bias[...] = linear["weight"], linear["bias"]
    return m


def _partial_want(f):
    m = nn.PartialLinear(3, 5)
    m.weight[...] = f["network"].fields["modules"][1].fields["modules"][2].fields["weight"]
    m.bias[...] = f["bias"].ravel()
    return m.setPartition(np.array([1, 4, 0]))


def _params(m):
    params, grads = m.parameters() if hasattr(m, "parameters") else ([], [])
    return params or [], grads or []


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_a_historical_layout_computes_what_it_did(tmp_path, case):
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    saved = case.saved(rng)
    path = tmp_path / f"{case.id}.t7"
    path.write_bytes(t7_bytes(saved))
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = nn.load_lua(str(path))
    functions = [w for w in caught if issubclass(w.category, T7Warning)]
    assert len(functions) == ("stored-updateOutput" in case.id), [str(w.message) for w in caught]
    want = case.want(saved.fields if isinstance(saved, T7Object) else saved)
    x = case.input(rng)
    if case.target is not None:
        t = case.target(rng)
        np.testing.assert_allclose(got.forward(x, t), want.forward(x, t), rtol=1e-12, atol=1e-14)
        _assert_same(got.backward(x, t), want.backward(x, t))
        return
    if isinstance(got, (nn.Dropout, nn.BatchNormalization)) and not got.train:
        want.evaluate()
    if not saved.fields.get("train", True):
        got.evaluate()
    _assert_same(got.forward(x), want.forward(x))
    if not case.backward:
        return
    g = np.random.default_rng(1).uniform(-1, 1, np.shape(got.output))
    for m in (got, want):
        m.zeroGradParameters()
    _assert_same(got.backward(x, g), want.backward(x, g))
    (_, got_grads), (_, want_grads) = _params(got), _params(want)
    assert len(got_grads) == len(want_grads)
    for a, b in zip(got_grads, want_grads):
        _assert_same(a, b)


def _assert_same(a, b):
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b):
            _assert_same(x, y)
        return
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)

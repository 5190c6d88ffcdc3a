"""Inference speed: convolutions against PyTorch CPU, whole models against onnxruntime.

    python benchmarks/inference.py [--quick] [--threads N] [--only TEXT] [--part convs|models|t7|layers|all] [--fold] [--freeze] [--tiny]

(a) Convolutions (float32, batch 1 and 8): nn_legacy's SpatialConvolution
    (SpatialDilatedConvolution, SpatialDepthWiseConvolution and
    SpatialFullConvolution where the shape calls for one) forward against
    torch.nn.functional.conv2d / conv_transpose2d.  PyTorch runs in a child
    process started with "spawn" (benchmarks/bench.py's Remote), as in
    bench.py: two OpenMP runtimes in one process take the cores from each
    other.
(b) Whole models (float32, batch 1 and 8, evaluation mode): nn_legacy's
    forward against onnxruntime running the ONNX file that nn_legacy.onnx
    exports of the same model, in the same process (onnxruntime has its own
    thread pool, not OpenMP; the warmup of each block lets the other side's
    spinning threads go to sleep), intra_op_num_threads = --threads,
    inter_op_num_threads = 1; thnn.set_num_threads(--threads).
(b') The Torch7 files of the test data (every model file of tests/data/t7,
    README.md there), measured as (b) on the file's own input (its batch as
    the file has it) and on that input repeated to a batch of 8: models of a
    few small layers, so the table shows the per-call cost of the Python
    layers against onnxruntime's per-run cost.  Table inputs and outputs go
    to and from onnxruntime as the graph's several inputs and outputs; times
    in microseconds.  Its own geometric mean lines.
(d) Single layers other than the convolutions (float32, batch 1 and 8,
    evaluation mode), measured as (b), each alone in a graph of its own:
    the poolings of the classic models' shapes, batch normalization in
    evaluation, PReLU, the activations, soft-max, nearest up-sampling, the
    table joins, the classifier's Linear.  Its own geometric mean lines.

How it measures (as bench.py): each side's block of calls begins with
warmup (3 calls and 50 ms at least), then every call is timed alone; the
two sides' blocks alternate over 3 rounds and the table shows the medians.
A block holds up to 30 calls (--quick: 10), fewer for slow calls (about
0.1 s of calls per block, 3 at least).  The outputs of the two sides are
compared after timing ("max rel diff": largest difference over largest
magnitude), so a fast but wrong kernel shows.  The ratio is ours / theirs
(below 1: thnn is faster); the model table ends with the geometric mean of
the ratios per batch size.  The load average is printed before and after:
on a shared machine run it as `chrt -r 1 python benchmarks/inference.py`.

--fold times nn.fold_batchnorm(model) on our side in table (b) (its batch
normalizations folded into the convolutions before them, as onnxruntime
does to the export of the model as it is).  --freeze times nn.freeze of
our model (after folding, with --fold) and of each convolution of table
(a): read-only parameters, every convolution's weight packed once rather
than in every call, as onnxruntime packs its weights when it loads the
model.

--tiny runs every code path on small shapes and narrow models (a few
seconds; the times mean nothing): tests/test_bench_inference.py uses it.
"""
import argparse
import datetime
import importlib.util
import math
import os
import statistics
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench import ROOT, Remote, _cpu_busy_elsewhere, _openblas_core, _rel_diff, _time_block  # noqa: E402,F401

BATCHES = (1, 8)
BLOCK_SECONDS = 0.1   # about this much time of timed calls per block


def _data(shape, seed, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


# --------------------------------------------------------------------------------------------- (a) convolutions

class Conv:
    """One convolution: kind "conv" (SpatialConvolution, or
    SpatialDilatedConvolution when dilation > 1), "dw" (depthwise:
    SpatialDepthWiseConvolution with multiplier 1, torch groups = cin) or
    "full" (SpatialFullConvolution, torch conv_transpose2d); also "linear"
    (Linear cin -> cout, torch F.linear: the classifier layers, whose
    forward at a small batch reads a large weight once).  k, stride, pad,
    dil, adj: (h, w) pairs or ints; size: (H, W) or an int."""

    def __init__(self, name, cin, cout, k, size, stride=1, pad=0, dil=1, kind="conv", adj=0):
        pair = (lambda v: (v, v) if isinstance(v, int) else tuple(v))
        self.name, self.cin, self.cout, self.kind = name, cin, cout, kind
        self.k, self.size, self.stride, self.pad = pair(k), pair(size), pair(stride), pair(pad)
        self.dil, self.adj = pair(dil), pair(adj)

    def out_size(self):
        (kh, kw), (h, w), (sh, sw), (ph, pw), (dh, dw) = self.k, self.size, self.stride, self.pad, self.dil
        if self.kind == "full":
            return ((h - 1) * sh - 2 * ph + kh + self.adj[0], (w - 1) * sw - 2 * pw + kw + self.adj[1])
        return ((h + 2 * ph - dh * (kh - 1) - 1) // sh + 1, (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1)

    def input_shape(self, batch):
        return (batch, self.cin) if self.kind == "linear" else (batch, self.cin) + self.size

    def flops(self, batch):
        kh, kw = self.k
        if self.kind == "linear":
            return 2 * batch * self.cin * self.cout
        if self.kind == "full":
            return 2 * batch * self.cin * self.cout * kh * kw * self.size[0] * self.size[1]
        oh, ow = self.out_size()
        per_group_in = 1 if self.kind == "dw" else self.cin
        return 2 * batch * self.cout * per_group_in * kh * kw * oh * ow

    def module(self, nn):
        (kh, kw), (sh, sw), (ph, pw), (dh, dw) = self.k, self.stride, self.pad, self.dil
        if self.kind == "linear":
            return nn.Linear(self.cin, self.cout)
        if self.kind == "dw":
            return nn.SpatialDepthWiseConvolution(self.cin, 1, kw, kh, sw, sh, pw, ph)
        if self.kind == "full":
            return nn.SpatialFullConvolution(self.cin, self.cout, kw, kh, sw, sh, pw, ph, self.adj[1], self.adj[0])
        if (dh, dw) != (1, 1):
            return nn.SpatialDilatedConvolution(self.cin, self.cout, kw, kh, sw, sh, pw, ph, dw, dh)
        return nn.SpatialConvolution(self.cin, self.cout, kw, kh, sw, sh, pw, ph)

    def torch_weight_shape(self):
        kh, kw = self.k
        if self.kind == "linear":
            return (self.cout, self.cin)
        if self.kind == "dw":
            return (self.cin, 1, kh, kw)
        if self.kind == "full":
            return (self.cin, self.cout, kh, kw)
        return (self.cout, self.cin, kh, kw)

    def label(self):
        if self.kind == "linear":
            return f"{self.name}: Linear {self.cin}->{self.cout}"
        (kh, kw), (sh, sw), (h, w) = self.k, self.stride, self.size
        text = f"{kh}x{kw}" + (f"/{sh}" if sh == sw and sh > 1 else f"/{sh},{sw}" if (sh, sw) != (1, 1) else "")
        text += f" {self.cin}->{self.cout}"
        if self.dil != (1, 1):
            text += f" dil {self.dil[0]}"
        text += {"dw": " depthwise", "full": " full (transposed)"}.get(self.kind, "")
        return f"{self.name}: {text} on {h}x{w}" if self.name else f"{text} on {h}x{w}"


CONVS = [
    # kernel 1
    Conv("ResNet-50 1x1 reduce", 256, 64, 1, 56),
    Conv("ResNet-50 1x1 expand", 64, 256, 1, 56),
    Conv("ResNet-18 downsample", 64, 128, 1, 56, stride=2),
    Conv("ENet 1x1 projection", 16, 4, 1, (128, 256)),
    # kernel 3
    Conv("VGG conv1_1", 3, 64, 3, 224, pad=1),
    Conv("VGG conv1_2 (input 112)", 64, 64, 3, 112, pad=1),
    Conv("VGG conv3", 256, 256, 3, 28, pad=1),
    Conv("VGG conv5", 512, 512, 3, 14, pad=1),
    Conv("ResNet-18 conv2_x", 64, 64, 3, 56, pad=1),
    Conv("ResNet-18 conv3_1", 64, 128, 3, 56, stride=2, pad=1),
    Conv("ResNet-18 conv5_x", 512, 512, 3, 7, pad=1),
    Conv("AlexNet conv3", 192, 384, 3, 13, pad=1),
    Conv("ENet initial", 3, 13, 3, (256, 512), stride=2, pad=1),
    Conv("ENet dilated 2", 128, 128, 3, (32, 64), pad=2, dil=2),
    Conv("ENet dilated 8", 128, 128, 3, (32, 64), pad=8, dil=8),
    Conv("face detector", 16, 16, 3, 126, pad=1),
    Conv("", 64, 64, 3, 32, pad=1),
    Conv("", 3, 16, 3, 64, pad=1),
    Conv("", 256, 256, 3, 14, stride=2, pad=1),
    Conv("MobileNet", 32, 32, 3, 112, pad=1, kind="dw"),
    Conv("MobileNet", 64, 64, 3, 112, stride=2, pad=1, kind="dw"),
    Conv("MobileNet", 256, 256, 3, 14, pad=1, kind="dw"),
    # kernel 5, asymmetric
    Conv("AlexNet conv2", 64, 192, 5, 27, pad=2),
    Conv("face detector", 32, 64, 5, 64, pad=2),
    Conv("48-net conv1", 3, 64, 5, 48),
    Conv("48-net conv2", 64, 64, 5, 21),
    Conv("LeNet conv2", 6, 16, 5, 12),
    Conv("ENet asymmetric", 128, 128, (5, 1), (32, 64), pad=(2, 0)),
    Conv("ENet asymmetric", 128, 128, (1, 5), (32, 64), pad=(0, 2)),
    # kernel 7
    Conv("ResNet conv1", 3, 64, 7, 224, stride=2, pad=3),
    Conv("SPyNet", 8, 32, 7, 64, pad=3),
    Conv("SPyNet", 64, 32, 7, 64, pad=3),
    Conv("", 32, 32, 7, 56, stride=4, pad=3),
    # kernel 11-12
    Conv("AlexNet conv1", 3, 64, 11, 224, stride=4, pad=2),
    Conv("face detector", 16, 16, 12, 126, stride=2),
    Conv("", 3, 32, 12, 128, stride=4),
    # transposed (ENet's decoder, DCGAN)
    Conv("ENet upsampling", 64, 64, 3, (32, 64), stride=2, pad=1, kind="full", adj=1),
    Conv("ENet fullconv", 16, 12, 2, (128, 256), stride=2, kind="full"),
    Conv("DCGAN", 128, 64, 4, 16, stride=2, pad=1, kind="full"),
    # the classifiers
    Conv("AlexNet fc6", 9216, 4096, 1, 1, kind="linear"),
    Conv("AlexNet fc7", 4096, 4096, 1, 1, kind="linear"),
    Conv("48-net fc", 4096, 256, 1, 1, kind="linear"),
    Conv("ResNet-18 fc", 512, 1000, 1, 1, kind="linear"),
]

TINY_CONVS = [
    Conv("", 3, 8, 3, 12, pad=1),
    Conv("", 4, 6, 5, 11, stride=2, pad=2),
    Conv("", 4, 4, 3, 12, pad=2, dil=2),
    Conv("", 6, 6, 3, 10, stride=2, pad=1, kind="dw"),
    Conv("", 4, 3, 3, 7, stride=2, pad=1, kind="full", adj=1),
    Conv("", 3, 4, 11, 23, stride=4, pad=2),
    Conv("", 300, 70, 1, 1, kind="linear"),
]


class OursConv:
    """Our side of a convolution, in this process (nn.freeze's copy of it with freeze)."""

    def __init__(self, freeze=False):
        self.freeze = freeze

    def build(self, conv, batch):
        import nn_legacy as nn
        m = conv.module(nn).float()
        scale = 1.0 / math.sqrt(conv.cin * conv.k[0] * conv.k[1])
        m.weight[...] = _data(m.weight.shape, 10, scale)
        m.bias[...] = _data(m.bias.shape, 11, 0.1)
        self.m, self.x = nn.freeze(m) if self.freeze else m, _data(conv.input_shape(batch), 12)
        return m.weight.reshape(conv.torch_weight_shape()).copy(), m.bias.reshape(-1).copy()

    def run(self):
        return self.m.forward(self.x)

    def time(self, count, warmup_calls=3):
        return _time_block(self.run, count, warmup_calls)

    def result(self):
        return self.run().copy()


class TorchConv:
    """PyTorch's side of a convolution (in the spawned worker)."""

    def __init__(self, threads):
        import torch
        torch.set_num_threads(threads)
        self.torch = torch

    def build(self, conv, batch, weight, bias):
        torch, F = self.torch, self.torch.nn.functional
        w, b = torch.from_numpy(weight), torch.from_numpy(bias)
        x = torch.from_numpy(_data(conv.input_shape(batch), 12))
        if conv.kind == "linear":
            self.f = lambda: F.linear(x, w, b)
        elif conv.kind == "full":
            self.f = lambda: F.conv_transpose2d(x, w, b, conv.stride, conv.pad, conv.adj)
        else:
            groups = conv.cin if conv.kind == "dw" else 1
            self.f = lambda: F.conv2d(x, w, b, conv.stride, conv.pad, conv.dil, groups)

    def run(self):
        with self.torch.no_grad():
            return self.f()

    def time(self, count, warmup_calls=3):
        return _time_block(self.run, count, warmup_calls)

    def result(self):
        return self.run().numpy().copy()


# --------------------------------------------------------------------------------------------- (b) whole models

def _conv_bn_relu(nn, s, cin, cout, k, stride=1, pad=0, relu=True):
    s.add(nn.SpatialConvolution(cin, cout, k, k, stride, stride, pad, pad).noBias())
    s.add(nn.SpatialBatchNormalization(cout, 1e-5))
    if relu:
        s.add(nn.ReLU(True))
    return s


def alexnet(nn, size=224, fc=4096, width=1):
    """AlexNet as in Torch7's imagenet-multiGPU.torch (one column, 64-192-384-256-256 planes)."""
    c = [max(1, n // width) for n in (64, 192, 384, 256, 256)]
    m = nn.Sequential()
    m.add(nn.SpatialConvolution(3, c[0], 11, 11, 4, 4, 2, 2)).add(nn.ReLU(True)).add(nn.SpatialMaxPooling(3, 3, 2, 2))
    m.add(nn.SpatialConvolution(c[0], c[1], 5, 5, 1, 1, 2, 2)).add(nn.ReLU(True)).add(nn.SpatialMaxPooling(3, 3, 2, 2))
    m.add(nn.SpatialConvolution(c[1], c[2], 3, 3, 1, 1, 1, 1)).add(nn.ReLU(True))
    m.add(nn.SpatialConvolution(c[2], c[3], 3, 3, 1, 1, 1, 1)).add(nn.ReLU(True))
    m.add(nn.SpatialConvolution(c[3], c[4], 3, 3, 1, 1, 1, 1)).add(nn.ReLU(True)).add(nn.SpatialMaxPooling(3, 3, 2, 2))
    s = ((size + 4 - 11) // 4 + 1 - 3) // 2 + 1
    s = (s - 3) // 2 + 1
    s = (s - 3) // 2 + 1
    n = c[4] * s * s
    m.add(nn.View(n).setNumInputDims(3)).add(nn.Dropout(0.5))
    m.add(nn.Linear(n, fc)).add(nn.ReLU(True)).add(nn.Dropout(0.5)).add(nn.Linear(fc, fc)).add(nn.ReLU(True))
    m.add(nn.Linear(fc, 1000))
    return m


def vgg16(nn, size=112, fc=4096, width=1):
    """VGG-16 (configuration D) with batch normalization, on size x size inputs."""
    m, cin = nn.Sequential(), 3
    for v in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"):
        if v == "M":
            m.add(nn.SpatialMaxPooling(2, 2, 2, 2))
            size //= 2
        else:
            _conv_bn_relu(nn, m, cin, v // width, 3, 1, 1)
            cin = v // width
    n = cin * size * size
    m.add(nn.View(n).setNumInputDims(3))
    m.add(nn.Linear(n, fc)).add(nn.ReLU(True)).add(nn.Dropout(0.5)).add(nn.Linear(fc, fc)).add(nn.ReLU(True))
    m.add(nn.Dropout(0.5)).add(nn.Linear(fc, 1000))
    return m


def _basic_block(nn, cin, cout, stride):
    body = nn.Sequential()
    _conv_bn_relu(nn, body, cin, cout, 3, stride, 1)
    _conv_bn_relu(nn, body, cout, cout, 3, 1, 1, relu=False)
    if stride == 1 and cin == cout:
        shortcut = nn.Identity()
    else:
        shortcut = _conv_bn_relu(nn, nn.Sequential(), cin, cout, 1, stride, 0, relu=False)
    return nn.Sequential().add(nn.ConcatTable().add(body).add(shortcut)).add(nn.CAddTable(True)).add(nn.ReLU(True))


def resnet18(nn, size=224, width=1):
    """ResNet-18 as in fb.resnet.torch (basic blocks, 1x1 convolution shortcuts where the shape changes)."""
    w = [64 // width, 128 // width, 256 // width, 512 // width]
    m = _conv_bn_relu(nn, nn.Sequential(), 3, w[0], 7, 2, 3)
    m.add(nn.SpatialMaxPooling(3, 3, 2, 2, 1, 1))
    cin = w[0]
    for i, cout in enumerate(w):
        m.add(_basic_block(nn, cin, cout, 1 if i == 0 else 2)).add(_basic_block(nn, cout, cout, 1))
        cin = cout
    final = -(-size // 32)
    m.add(nn.SpatialAveragePooling(final, final, 1, 1)).add(nn.View(cin).setNumInputDims(3))
    m.add(nn.Linear(cin, 1000))
    return m


def face48(nn, width=1):
    """A 48x48 face classifier as in the cascade detectors of the Torch7 era
    (conv 5x5 3->64, max-pool 3/2, conv 5x5 64->64, max-pool 3/2, 256 units, 2 classes)."""
    c = 64 // width
    m = nn.Sequential()
    m.add(nn.SpatialConvolution(3, c, 5, 5)).add(nn.ReLU(True)).add(nn.SpatialMaxPooling(3, 3, 2, 2))
    m.add(nn.SpatialConvolution(c, c, 5, 5)).add(nn.ReLU(True)).add(nn.SpatialMaxPooling(3, 3, 2, 2))
    m.add(nn.View(c * 8 * 8).setNumInputDims(3)).add(nn.Linear(c * 8 * 8, 256)).add(nn.ReLU(True))
    m.add(nn.Linear(256, 2)).add(nn.SoftMax())
    return m


def spynet_level(nn, width=1):
    """One level of SPyNet's pyramid: 7x7 convolutions 8-32-64-32-16-2 with ReLU."""
    planes = [8] + [max(2, n // width) for n in (32, 64, 32, 16)] + [2]
    m = nn.Sequential()
    for i in range(5):
        m.add(nn.SpatialConvolution(planes[i], planes[i + 1], 7, 7, 1, 1, 3, 3))
        if i < 4:
            m.add(nn.ReLU(True))
    return m


def _enet_bottleneck(nn, c, inner, kind="regular", dil=1):
    body = nn.Sequential()
    body.add(nn.SpatialConvolution(c, inner, 1, 1).noBias()).add(nn.SpatialBatchNormalization(inner, 1e-3))
    body.add(nn.PReLU(inner))
    if kind == "asym":
        body.add(nn.SpatialConvolution(inner, inner, 1, 5, 1, 1, 0, 2).noBias())
        body.add(nn.SpatialConvolution(inner, inner, 5, 1, 1, 1, 2, 0))
    elif dil > 1:
        body.add(nn.SpatialDilatedConvolution(inner, inner, 3, 3, 1, 1, dil, dil, dil, dil))
    else:
        body.add(nn.SpatialConvolution(inner, inner, 3, 3, 1, 1, 1, 1))
    body.add(nn.SpatialBatchNormalization(inner, 1e-3)).add(nn.PReLU(inner))
    body.add(nn.SpatialConvolution(inner, c, 1, 1).noBias()).add(nn.SpatialBatchNormalization(c, 1e-3))
    return nn.Sequential().add(nn.ConcatTable().add(body).add(nn.Identity())).add(nn.CAddTable()).add(nn.PReLU(c))


def _enet_down(nn, cin, cout):
    """Downsampling: the main branch 2x2/2 then 3x3 then 1x1, the shortcut max-pooling then a 1x1
    convolution to the new width (ENet pads the channels with zeros)."""
    inner = cout // 4
    body = nn.Sequential()
    body.add(nn.SpatialConvolution(cin, inner, 2, 2, 2, 2).noBias()).add(nn.SpatialBatchNormalization(inner, 1e-3))
    body.add(nn.PReLU(inner)).add(nn.SpatialConvolution(inner, inner, 3, 3, 1, 1, 1, 1))
    body.add(nn.SpatialBatchNormalization(inner, 1e-3)).add(nn.PReLU(inner))
    body.add(nn.SpatialConvolution(inner, cout, 1, 1).noBias()).add(nn.SpatialBatchNormalization(cout, 1e-3))
    shortcut = nn.Sequential().add(nn.SpatialMaxPooling(2, 2, 2, 2)).add(nn.SpatialConvolution(cin, cout, 1, 1))
    return nn.Sequential().add(nn.ConcatTable().add(body).add(shortcut)).add(nn.CAddTable()).add(nn.PReLU(cout))


def _enet_up(nn, cin, cout):
    """Upsampling: the main branch 1x1, full convolution 3x3/2, 1x1; the shortcut a 1x1 convolution and a
    full convolution 2x2/2 (ENet unpools with the encoder's indices)."""
    inner = cin // 4
    body = nn.Sequential()
    body.add(nn.SpatialConvolution(cin, inner, 1, 1).noBias()).add(nn.SpatialBatchNormalization(inner, 1e-3))
    body.add(nn.ReLU(True)).add(nn.SpatialFullConvolution(inner, inner, 3, 3, 2, 2, 1, 1, 1, 1))
    body.add(nn.SpatialBatchNormalization(inner, 1e-3)).add(nn.ReLU(True))
    body.add(nn.SpatialConvolution(inner, cout, 1, 1).noBias()).add(nn.SpatialBatchNormalization(cout, 1e-3))
    shortcut = nn.Sequential().add(nn.SpatialFullConvolution(cin, cout, 2, 2, 2, 2))
    return nn.Sequential().add(nn.ConcatTable().add(body).add(shortcut)).add(nn.CAddTable()).add(nn.ReLU(True))


def enet(nn, width=1, classes=12):
    """ENet-shaped (Paszke et al. 2016, e-lab's Torch7 model): the initial block (3x3/2 convolution beside
    max-pooling), bottlenecks with PReLU, dilated and asymmetric convolutions, full-convolution decoder."""
    c16, c64, c128 = 16 // width, 64 // width, 128 // width
    m = nn.Sequential()
    m.add(nn.Concat(1).add(nn.SpatialConvolution(3, c16 - 3, 3, 3, 2, 2, 1, 1)).add(nn.SpatialMaxPooling(2, 2, 2, 2)))
    m.add(nn.SpatialBatchNormalization(c16, 1e-3)).add(nn.PReLU(c16))
    m.add(_enet_down(nn, c16, c64))
    for _ in range(2):
        m.add(_enet_bottleneck(nn, c64, c64 // 4))
    m.add(_enet_down(nn, c64, c128))
    m.add(_enet_bottleneck(nn, c128, c128 // 4)).add(_enet_bottleneck(nn, c128, c128 // 4, dil=2))
    m.add(_enet_bottleneck(nn, c128, c128 // 4, "asym")).add(_enet_bottleneck(nn, c128, c128 // 4, dil=4))
    m.add(_enet_bottleneck(nn, c128, c128 // 4, dil=8)).add(_enet_bottleneck(nn, c128, c128 // 4, "asym"))
    m.add(_enet_up(nn, c128, c64)).add(_enet_bottleneck(nn, c64, c64 // 4))
    m.add(_enet_up(nn, c64, c16)).add(_enet_bottleneck(nn, c16, c16 // 4))
    m.add(nn.SpatialFullConvolution(c16, classes, 2, 2, 2, 2))
    return m


class Model:
    """A whole model: build(nn) -> module; sample: the shape of one input."""

    def __init__(self, name, build, sample):
        self.name, self.build, self.sample = name, build, sample


MODELS = [   # (the Torch7 files of tests/data/t7 have their own table: _t7_files)
    Model("48x48 face classifier (cascade 48-net)", face48, (3, 48, 48)),
    Model("SPyNet level, 7x7 8-32-64-32-16-2, 64x64", spynet_level, (8, 64, 64)),
    Model("ENet-shaped, 192x384", enet, (3, 192, 384)),
    Model("AlexNet, 224x224", alexnet, (3, 224, 224)),
    Model("VGG-16 with BN, 80x80", lambda nn: vgg16(nn, size=80), (3, 80, 80)),
    Model("ResNet-18, 224x224", resnet18, (3, 224, 224)),
]

TINY_MODELS = [
    Model("48x48 face classifier, width/16", lambda nn: face48(nn, width=16), (3, 48, 48)),
    Model("SPyNet level, width/8, 16x16", lambda nn: spynet_level(nn, width=8), (8, 16, 16)),
    Model("ENet-shaped, width/4, 32x64", lambda nn: enet(nn, width=4), (3, 32, 64)),
    Model("AlexNet, width/16, 67x67", lambda nn: alexnet(nn, size=67, fc=32, width=16), (3, 67, 67)),
    Model("VGG-16, width/16, 32x32", lambda nn: vgg16(nn, size=32, fc=32, width=16), (3, 32, 32)),
    Model("ResNet-18, width/16, 32x32", lambda nn: resnet18(nn, size=32, width=16), (3, 32, 32)),
]



# ------------------------------------------------------------------ (d) single layers

def _joined(nn, cls, *args):
    """A table of the input twice (ConcatTable of two Identity), then cls(*args) of it."""
    return nn.Sequential().add(nn.ConcatTable().add(nn.Identity()).add(nn.Identity())).add(cls(*args))


LAYERS = [   # (name, build(nn) -> module, shape of one sample): the shapes of the models above and of their kind
    Model("max pooling 3x3/2 (48-net) on 64x44x44", lambda nn: nn.SpatialMaxPooling(3, 3, 2, 2), (64, 44, 44)),
    Model("max pooling 3x3/2 pad 1 (ResNet) on 64x112x112",
          lambda nn: nn.SpatialMaxPooling(3, 3, 2, 2, 1, 1), (64, 112, 112)),
    Model("max pooling 3x3/2 (AlexNet pool5) on 256x13x13", lambda nn: nn.SpatialMaxPooling(3, 3, 2, 2), (256, 13, 13)),
    Model("max pooling 2x2/2 (VGG) on 64x80x80", lambda nn: nn.SpatialMaxPooling(2, 2, 2, 2), (64, 80, 80)),
    Model("max pooling 2x2/2 (VGG pool5) on 512x10x10", lambda nn: nn.SpatialMaxPooling(2, 2, 2, 2), (512, 10, 10)),
    Model("average pooling 3x3/1 pad 1 (Inception) on 192x28x28",
          lambda nn: nn.SpatialAveragePooling(3, 3, 1, 1, 1, 1), (192, 28, 28)),
    Model("average pooling 7x7 (ResNet, global) on 512x7x7", lambda nn: nn.SpatialAveragePooling(7, 7), (512, 7, 7)),
    Model("average pooling 2x2/2 on 64x56x56", lambda nn: nn.SpatialAveragePooling(2, 2, 2, 2), (64, 56, 56)),
    Model("batch normalization (evaluation) on 64x56x56", lambda nn: nn.SpatialBatchNormalization(64), (64, 56, 56)),
    Model("PReLU (ENet) on 128x32x64", lambda nn: nn.PReLU(128), (128, 32, 64)),
    Model("ReLU in place on 64x112x112", lambda nn: nn.ReLU(True), (64, 112, 112)),
    Model("Tanh on 256x14x14", lambda nn: nn.Tanh(), (256, 14, 14)),
    Model("Sigmoid on 256x14x14", lambda nn: nn.Sigmoid(), (256, 14, 14)),
    Model("SoftMax over 1000", lambda nn: nn.SoftMax(), (1000,)),
    Model("nearest up-sampling x2 on 64x32x32", lambda nn: nn.SpatialUpSamplingNearest(2), (64, 32, 32)),
    Model("CAddTable of 2x 64x56x56", lambda nn: _joined(nn, nn.CAddTable), (64, 56, 56)),
    Model("JoinTable (planes) of 2x 64x56x56", lambda nn: _joined(nn, nn.JoinTable, 1, 3), (64, 56, 56)),
    Model("Linear 512->1000 (ResNet-18 fc)", lambda nn: nn.Linear(512, 1000), (512,)),
]

TINY_LAYERS = [Model(m.name, m.build, m.sample[:1] + tuple(min(n, 9) for n in m.sample[1:]))   # (names kept)
               if len(m.sample) == 3 else m for m in LAYERS]

# ------------------------------------------------------------------ (b') the Torch7 files of the test data

T7_DIR = os.path.join(ROOT, "tests", "data", "t7")


def _arrays(value):
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _arrays(v)]
    return [value]


def _nested(fn, value):
    if isinstance(value, (list, tuple)):
        return [_nested(fn, v) for v in value]
    return fn(value)


class T7File:
    """A Torch7 file of tests/data/t7 as a model row: its model in float32 and evaluation mode, and its own
    input (float arrays made float32; LookupTable's indices, which count from 1 in Torch7, made 0-based).
    load() -> (model, sample).  batch_axis: where the batch is in the sample (an int, for a table the same
    for every array of it; "new": a single sample, the batch a new first dim; "seq": the rnn packages'
    sequence first, time x batch x features in one array (axis 1), or a table of T arrays batch x
    features (axis 0))."""

    def __init__(self, name, path, input_path=None, batch_axis=0, sample=None):
        self.name, self.path, self.input_path = name, path, input_path
        self.batch_axis, self.sample = batch_axis, sample

    def load(self):
        import nn_legacy as nn
        from nn_legacy.serialization.t7 import TrainingModeWarning
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TrainingModeWarning)  # Torch7 kept the training flag: evaluate()
            obj = nn.load_lua(os.path.join(T7_DIR, self.path))
        if isinstance(obj, dict):
            model, x = obj["model"], obj["input"]
        elif self.input_path is not None:
            model, x = obj, nn.load_lua(os.path.join(T7_DIR, self.input_path))
        else:
            model, x = obj, self.sample()
        model = model.float()
        model.evaluate()
        x = _nested(lambda a: a.astype(np.float32) if a.dtype.kind == "f" else a - 1, x)
        if self.batch_axis == "seq":
            self.batch_axis = 1 if isinstance(x, np.ndarray) else 0
        return model, x

    def batched(self, x, n):
        """The file's sample repeated to a batch of n (its samples in turn)."""
        if self.batch_axis == "new":
            return _nested(lambda a: np.ascontiguousarray(np.broadcast_to(a, (n,) + a.shape)), x)
        return _nested(lambda a: np.ascontiguousarray(np.take(a, np.arange(n) % a.shape[self.batch_axis],
                                                              axis=self.batch_axis)), x)

    def batch_of(self, x):
        if self.batch_axis == "new":
            return 1
        return _arrays(x)[0].shape[self.batch_axis]


def _t7_files():
    """Every Torch7 model file of tests/data/t7 (README.md there): torch7_built's cases (the float file, or
    the double one where only that was kept), OpenCV's ASCII nets with their inputs, cpp-torch's net.t7
    with x.t7, torchfile's gModule (no input saved: a seeded one)."""
    files = []
    built = os.path.join(T7_DIR, "torch7_built")
    names = sorted(os.listdir(built)) if os.path.isdir(built) else []
    cases = sorted({n.rsplit("_", 1)[0] for n in names if n.endswith(("_float.t7", "_double.t7"))})
    for case in cases:
        kind = "float" if f"{case}_float.t7" in names else "double"
        files.append(T7File(f"t7 {case}" + (" (double file, as float)" if kind == "double" else ""),
                            os.path.join("torch7_built", f"{case}_{kind}.t7"),
                            batch_axis="seq" if case.startswith(("torch_rnn_", "er_rnn_")) else 0))
    ascii_dir = os.path.join(T7_DIR, "opencv_ascii")
    for n in sorted(os.listdir(ascii_dir)) if os.path.isdir(ascii_dir) else []:
        if n.endswith("_net.txt"):
            files.append(T7File(f"t7 opencv {n[:-8]}", os.path.join("opencv_ascii", n),
                                os.path.join("opencv_ascii", n[:-8] + "_input.txt")))
    files.append(T7File("t7 cpptorch net.t7 (Linear 3->2) on x.t7", os.path.join("cpptorch", "net.t7"),
                        os.path.join("cpptorch", "x.t7"), batch_axis="new"))
    files.append(T7File("t7 torchfile gmodule_with_linear_identity", os.path.join("torchfile",
                        "gmodule_with_linear_identity.t7"),
                        sample=lambda: [_data((1, 1), 40), _data((1, 2), 41)]))
    return files


def _randomize(model):
    """Weights of a fan-in scale (so activations stay of order 1 through deep models), running statistics
    away from 0 and 1, PReLU slopes in (0, 0.5)."""
    rng = np.random.default_rng(20)
    for m in model.listModules():
        name = type(m).__name__
        if "BatchNormalization" in name and getattr(m, "running_mean", None) is not None:
            m.running_mean[...] = rng.standard_normal(m.running_mean.shape) * 0.1
            m.running_var[...] = rng.uniform(0.5, 1.5, m.running_var.shape)
            if getattr(m, "weight", None) is not None:
                m.weight[...] = rng.uniform(0.5, 1.5, m.weight.shape)
                m.bias[...] = rng.standard_normal(m.bias.shape) * 0.1
        elif name == "PReLU":
            m.weight[...] = rng.uniform(0, 0.5, m.weight.shape)
        elif getattr(m, "weight", None) is not None:
            w = m.weight
            fan_in = w.size // (w.shape[1] if name.startswith("SpatialFull") else w.shape[0])
            m.weight[...] = rng.standard_normal(w.shape) * math.sqrt(2.0 / max(fan_in, 1))
            if getattr(m, "bias", None) is not None:
                m.bias[...] = rng.standard_normal(m.bias.shape) * 0.01


class Session:
    """onnxruntime on the ONNX file nn_legacy exports of the model (one graph for every batch when the export
    leaves the batch free, else one per batch)."""

    def __init__(self, model, x, threads):
        import onnxruntime as ort
        from nn_legacy import onnx as nn_onnx
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            proto = nn_onnx.export(model, x, None)
        self.static = any(issubclass(w.category, nn_onnx.StaticBatchWarning) for w in caught)
        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.model_bytes = proto.SerializeToString()
        self.session = ort.InferenceSession(self.model_bytes, options, providers=["CPUExecutionProvider"])
        self.inputs = [i.name for i in self.session.get_inputs()]   # a table input: its arrays in order
        self.input = self.inputs[0]

    def feed(self, x):
        return dict(zip(self.inputs, _arrays(x)))

    def run(self, x):
        return self.run_fed({self.input: x} if isinstance(x, np.ndarray) else self.feed(x))

    def run_fed(self, feed):
        """The output, or the list of the output arrays of a table output (depth first)."""
        out = self.session.run(None, feed)
        return out[0] if len(out) == 1 else out


def _count(seconds_per_call, per_round):
    return max(3, min(per_round, int(BLOCK_SECONDS / max(seconds_per_call, 1e-9))))


def _alternate(sides, per_round, rounds):
    """sides: {name: time(count, warmup_calls) -> samples}.  One calibrating block of 1 call each, then
    `rounds` alternating blocks (3 warmup calls, or 1 for calls over 20 ms; 50 ms of warmup at least);
    medians per side."""
    names = list(sides)
    first = {n: sides[n](1, 3)[0] for n in names}
    counts = {n: _count(first[n], per_round) for n in names}
    samples = {n: [] for n in names}
    for r in range(rounds):
        for n in (names if r % 2 == 0 else names[::-1]):
            samples[n] += sides[n](counts[n], 1 if first[n] > 0.02 else 3)
    return {n: statistics.median(samples[n]) for n in names}


def _header(args, theirs_version, ort_version):
    import thnn
    load = os.getloadavg()
    settings = " ".join(f"{k}={os.environ[k]}" for k in sorted(os.environ)
                        if k.startswith(("OPENBLAS_", "OMP_", "GOMP_", "MKL_")))
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
        model = next((ln.split(":", 1)[1].strip() for ln in info.splitlines() if ln.startswith("model name")), "?")
        fl = next((ln.split(":", 1)[1].split() for ln in info.splitlines() if ln.startswith("flags")), [])
        flags = f"{model}, " + ("AVX-512" if "avx512f" in fl else "AVX2" if "avx2" in fl else "no AVX2")
    except OSError:
        pass
    print(f"thnn inference benchmark, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"{os.cpu_count()} CPUs ({flags}), {args.threads} threads, float32; torch {theirs_version}; "
          f"onnxruntime {ort_version}")
    print(f"thnn from {os.path.dirname(os.path.dirname(thnn.__file__))}; OpenBLAS kernels: {_openblas_core()}; "
          f"environment: {settings or '-'}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("medians of alternating blocks; ratio = ours / theirs, lower is better")


def run_convs(args, convs, per_round, theirs):
    """Table (a).  Returns the rows: (label, batch, ours s, torch s, max rel diff)."""
    ours = OursConv(args.freeze)
    rows = []
    print("\n(a) convolutions (and the classifiers' Linear layers), forward, against PyTorch CPU (F.conv2d / "
          "F.conv_transpose2d / F.linear)")
    head = f"{'convolution':58s} {'batch':>5s} {'ours ms':>9s} {'torch ms':>9s} {'ratio':>6s}  {'GFLOP/s':>13s}  max rel diff"
    print(head)
    print("-" * len(head))
    try:
        for conv in convs:
            if args.only.lower() not in conv.label().lower():
                continue
            for batch in BATCHES:
                weight, bias = ours.build(conv, batch)
                theirs.build(conv, batch, weight, bias)
                t = _alternate({"ours": ours.time, "torch": theirs.time}, per_round, args.rounds)
                diff = _rel_diff(ours.result(), theirs.result())
                gf = conv.flops(batch) / 1e9
                rate = f"{gf / t['ours']:.0f} / {gf / t['torch']:.0f}"
                print(f"{conv.label():58s} {batch:5d} {t['ours'] * 1e3:9.3f} {t['torch'] * 1e3:9.3f} "
                      f"{t['ours'] / t['torch']:6.2f}  {rate:>13s}  {diff:.1e}", flush=True)
                rows.append((conv.label(), batch, t["ours"], t["torch"], diff))
    finally:
        theirs.close()
    return rows


def run_models(args, models, per_round, title="(b) whole models", column="model"):
    """Table (b), or (d) with layers for models.  Returns the rows: (name, batch, ours s, onnxruntime s, max rel
    diff)."""
    import nn_legacy as nn
    rows = []
    print(f"\n{title}, forward (evaluation mode), against onnxruntime on nn_legacy's ONNX export")
    head = f"{column:62s} {'batch':>5s} {'ours ms':>9s} {'ort ms':>9s} {'ratio':>6s}  max rel diff"
    print(head)
    print("-" * len(head))
    for spec in models:
        if args.only.lower() not in spec.name.lower():
            continue
        model = spec.build(nn).float()
        _randomize(model)
        model.evaluate()
        # ours runs the folded copy; onnxruntime gets the model as it is (it folds batch normalization itself)
        ours = nn.fold_batchnorm(model) if args.fold else model
        ours = nn.freeze(ours) if args.freeze else ours
        session = None
        for batch in BATCHES:
            x = _data((batch,) + spec.sample, 30)
            if session is None or session.static:
                session = Session(model, _data((max(batch, 2),) + spec.sample, 31) if session is None and batch == 1
                                  else x, args.threads)
                if session.static and batch == 1:  # the graph's batch is fixed: export at this batch
                    session = Session(model, x, args.threads)
            t = _alternate({"ours": lambda n, w: _time_block(lambda: ours.forward(x), n, w),
                            "ort": lambda n, w: _time_block(lambda: session.run(x), n, w)}, per_round, args.rounds)
            diff = _rel_diff(ours.forward(x).copy(), session.run(x))
            print(f"{spec.name:62s} {batch:5d} {t['ours'] * 1e3:9.3f} {t['ort'] * 1e3:9.3f} "
                  f"{t['ours'] / t['ort']:6.2f}  {diff:.1e}", flush=True)
            rows.append((spec.name, batch, t["ours"], t["ort"], diff))
            if args.layers:
                profile_model(ours, x, session.model_bytes, args.threads)
    for batch in BATCHES:
        ratios = [r[2] / r[3] for r in rows if r[1] == batch]
        if ratios:
            print(f"geometric mean of the ratios, batch {batch}: {math.exp(statistics.fmean(map(math.log, ratios))):.2f}"
                  f" (worst {max(ratios):.2f})")
    return rows


def _table_diff(ours, theirs):
    """_rel_diff over every array of two outputs (tables flattened depth first); inf when they differ in
    number or shapes."""
    a, b = _arrays(ours), _arrays(theirs)
    if len(a) != len(b) or any(np.shape(u) != np.shape(v) for u, v in zip(a, b)):
        return math.inf
    return _rel_diff(np.concatenate([np.ravel(u) for u in a]), np.concatenate([np.ravel(v) for v in b]))


def _geomean_lines(rows, label):
    for batch in ("file", 8):
        ratios = [(r[3] / r[4], r[0]) for r in rows if r[1] == batch]
        if ratios:
            mean = math.exp(statistics.fmean(math.log(r) for r, _ in ratios))
            worst = max(ratios)
            print(f"{label}, geometric mean of the ratios, batch {'as in the file' if batch == 'file' else batch}: "
                  f"{mean:.2f} (worst {worst[0]:.2f}, {worst[1]}; {len(ratios)} models)")


def run_t7(args, files, per_round):
    """Table (b'): every Torch7 model file of tests/data/t7 on its own input (batch as in the file) and on
    that input repeated to a batch of 8.  Rows: (name, "file" or 8, batch, ours s, onnxruntime s, diff).
    A model that cannot run or export is listed once, as skipped, with the reason."""
    rows = []
    print("\n(b') the Torch7 files of the test data (tests/data/t7), forward (evaluation mode, float32) on the "
          "file's own input and on it repeated to a batch of 8, against onnxruntime on nn_legacy's ONNX export")
    head = f"{'model':62s} {'batch':>5s} {'ours us':>9s} {'ort us':>9s} {'ratio':>6s}  max rel diff"
    print(head)
    print("-" * len(head))
    for f in files:
        if args.only.lower() not in f.name.lower():
            continue
        try:
            model, x = f.load()
        except Exception as e:   # a benchmark lists what it cannot run
            print(f"{f.name:62s} skipped: {type(e).__name__}: {e}")
            continue
        for label, xb in (("file", x), (8, f.batched(x, 8))):
            batch = 8 if label == 8 else f.batch_of(x)
            try:
                session = Session(model, xb, args.threads)
            except Exception as e:
                print(f"{f.name:62s} {batch:5d} skipped: {type(e).__name__}: {str(e).splitlines()[0]}")
                continue
            feed = session.feed(xb)
            t = _alternate({"ours": lambda n, w: _time_block(lambda: model.forward(xb), n, w, args.warmup),
                            "ort": lambda n, w: _time_block(lambda: session.run_fed(feed), n, w, args.warmup)},
                           per_round, args.rounds)
            ours = _nested(lambda a: np.array(a, copy=True), model.forward(xb))
            diff = _table_diff(ours, session.run_fed(feed))
            print(f"{f.name:62s} {batch:5d} {t['ours'] * 1e6:9.1f} {t['ort'] * 1e6:9.1f} "
                  f"{t['ours'] / t['ort']:6.2f}  {diff:.1e}", flush=True)
            rows.append((f.name, label, batch, t["ours"], t["ort"], diff))
    _geomean_lines(rows, "Torch7 files of the test data: per-call cost")
    return rows


def _median_time(fn, per_round):
    first = _time_block(fn, 1)[0]
    return statistics.median(_time_block(fn, _count(first, per_round), 1 if first > 0.02 else 3))


def profile_convs(args, convs, per_round):
    """Where our convolution's time goes (our side only): the whole forward on 1 and on --threads threads,
    and the matrix product alone -- the same product as a 1x1 convolution of an image that already is the
    columns ([K = cin*kh*kw planes, outH*outW pixels]: no unfold) -- on --threads threads; the rest is the
    unfold (im2col), the bias fill and the call."""
    import nn_legacy as nn
    import thnn
    print("\n(c) our convolutions in pieces: ms per forward; the product alone is a 1x1 convolution of the "
          "columns (no unfold); rest = whole - product (unfold, bias, call)")
    head = (f"{'convolution':58s} {'batch':>5s} {'1 thr':>8s} {f'{args.threads} thr':>8s} {'speedup':>7s} "
            f"{'product':>8s} {'rest':>8s} {'rest %':>6s} {'GFLOP/s product':>15s}")
    print(head)
    print("-" * len(head))
    for conv in convs:
        if conv.kind != "conv" or args.only.lower() not in conv.label().lower():
            continue
        oh, ow = conv.out_size()
        K = conv.cin * conv.k[0] * conv.k[1]
        for batch in BATCHES:
            m = conv.module(nn).float()
            x = _data(conv.input_shape(batch), 12)
            gemm = nn.SpatialConvolution(K, conv.cout, 1, 1).float()
            cols = _data((batch, K, oh, ow), 13)
            t = {}
            for threads in (1, args.threads):
                thnn.set_num_threads(threads)
                t[threads] = _median_time(lambda: m.forward(x), per_round)
            product = _median_time(lambda: gemm.forward(cols), per_round)
            thnn.set_num_threads(args.threads)
            whole = t[args.threads]
            rest = whole - product
            print(f"{conv.label():58s} {batch:5d} {t[1] * 1e3:8.3f} {whole * 1e3:8.3f} {t[1] / whole:7.2f} "
                  f"{product * 1e3:8.3f} {rest * 1e3:8.3f} {100 * rest / whole:6.0f} "
                  f"{conv.flops(batch) / product / 1e9:15.0f}", flush=True)


def _leaves(module):
    children = getattr(module, "modules", None)
    if not children:
        return [module]
    return [leaf for child in children for leaf in _leaves(child)]


def profile_model(model, x, session_model, threads, calls=5, top=6):
    """Our forward layer by layer (each leaf module's updateOutput timed inside the model's forward, summed
    by class), onnxruntime's by operator (its own profiler, kernel time per node), per call."""
    import onnxruntime as ort
    totals, per_layer = {}, {}
    leaves = _leaves(model)

    def timer(leaf, original):
        def timed(*args):   # (the input is the last argument)
            t0 = time.perf_counter()
            out = original(*args)
            dt = time.perf_counter() - t0
            per_layer[id(leaf)] = per_layer.get(id(leaf), 0.0) + dt
            per_layer[(id(leaf), "in")] = "x".join(map(str, getattr(args[-1], "shape", ())))
            return out
        return timed
    for leaf in leaves:
        # (a step replaced on the instance is one Sequential never runs in a fused pass (Module._fuse_next):
        # a BatchNormalization or CAddTable and the in-place ReLU after it are timed here as two steps)
        leaf.updateOutput = timer(leaf, leaf.updateOutput)
    try:
        model.forward(x)
        per_layer.clear()
        t0 = time.perf_counter()
        for _ in range(calls):
            model.forward(x)
        whole = (time.perf_counter() - t0) / calls
    finally:
        for leaf in leaves:
            leaf.__dict__.pop("updateOutput")
    for leaf in leaves:
        name = type(leaf).__name__
        totals[name] = totals.get(name, 0.0) + per_layer.get(id(leaf), 0.0) / calls
    ours = ", ".join(f"{k} {v * 1e3:.2f}" for k, v in sorted(totals.items(), key=lambda kv: -kv[1]) if v > 1e-5)
    print(f"    ours {whole * 1e3:.2f} ms: {ours}")
    worst = sorted(leaves, key=lambda leaf: -per_layer.get(id(leaf), 0.0))[:top]
    for leaf in worst:
        print(f"      {per_layer.get(id(leaf), 0.0) / calls * 1e3:8.3f} ms  {leaf!r:.70s} on {per_layer.get((id(leaf), 'in'))}")
    import json
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    options.enable_profiling = True
    options.profile_file_prefix = os.path.join("/tmp", f"thnn_ort_profile_{os.getpid()}")
    session = ort.InferenceSession(session_model, options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    session.run(None, {name: x})
    t0 = time.perf_counter()
    for _ in range(calls):
        session.run(None, {name: x})
    whole = (time.perf_counter() - t0) / calls
    path = session.end_profiling()
    with open(path) as f:
        events = json.load(f)
    os.remove(path)
    ops = {}
    for e in events:
        if e.get("cat") == "Node" and e.get("name", "").endswith("_kernel_time"):
            op = e.get("args", {}).get("op_name", "?")
            ops[op] = ops.get(op, 0.0) + e["dur"] * 1e-6
    runs = calls + 1
    theirs = ", ".join(f"{k} {v / runs * 1e3:.2f}" for k, v in sorted(ops.items(), key=lambda kv: -kv[1]))
    print(f"    onnxruntime {whole * 1e3:.2f} ms: {theirs}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="blocks of 10 calls at most instead of 30")
    p.add_argument("--threads", type=int, default=2, help="threads for every library (default 2)")
    p.add_argument("--only", default="", help="only the rows whose name contains this text")
    p.add_argument("--part", choices=["convs", "models", "t7", "layers", "all"], default="all",
                   help="models: the model-size networks and the Torch7 files; t7: the Torch7 files only; "
                        "layers: table (d) only")
    p.add_argument("--layers", action="store_true",
                   help="after each model row, where the time goes: ours by layer class, onnxruntime by operator")
    p.add_argument("--pieces", action="store_true",
                   help="instead of the tables: our convolutions split into the matrix product and the rest, "
                        "on 1 and --threads threads")
    p.add_argument("--fold", action="store_true",
                   help="(b) times nn.fold_batchnorm(model) for ours (onnxruntime folds batch normalization itself)")
    p.add_argument("--freeze", action="store_true",
                   help="(a), (b) time nn.freeze of ours (after --fold): convolution weights packed once")
    p.add_argument("--tiny", action="store_true", help="small shapes and narrow models: checks the code, not speed")
    args = p.parse_args(argv)

    missing = [m for m in ("torch", "onnx", "onnxruntime")  # found, not imported: torch never loads here
               if m in sys.modules and sys.modules[m] is None or m not in sys.modules and importlib.util.find_spec(m) is None]
    if missing:
        print(f"inference.py needs {', '.join(missing)} (PyTorch for the convolutions, onnx and onnxruntime for "
              f"the models)", file=sys.stderr)
        return 2
    import onnxruntime

    import thnn
    busy = _cpu_busy_elsewhere()
    thnn.set_num_threads(args.threads)
    per_round = 3 if args.tiny else 10 if args.quick else 30
    args.rounds = 1 if args.tiny else 3
    args.warmup = 0.002 if args.tiny else 0.05   # seconds of warmup calls at least, per block (--tiny: a few)
    # torch never loads in this process; --pieces times only ours, whatever --part says
    theirs = Remote(args.threads, TorchConv) if args.part in ("convs", "all") and not args.pieces else None
    _header(args, theirs.version if theirs else "(not used)", onnxruntime.__version__)
    if busy is not None and busy > 0.10:
        print(f"WARNING: other processes used {busy:.0%} of the CPUs just before the run; the times are not reliable")
    start = time.perf_counter()
    if args.pieces:
        profile_convs(args, TINY_CONVS if args.tiny else CONVS, per_round)
    elif args.part in ("convs", "all"):
        run_convs(args, TINY_CONVS if args.tiny else CONVS, per_round, theirs)
    if args.part in ("models", "all") and not args.pieces:
        run_models(args, TINY_MODELS if args.tiny else MODELS, per_round)
    if args.part in ("models", "t7", "all") and not args.pieces:
        run_t7(args, _t7_files(), per_round)
    if args.part in ("layers", "all") and not args.pieces:
        run_models(args, TINY_LAYERS if args.tiny else LAYERS, per_round, "(d) single layers", "layer")
    load = os.getloadavg()
    print(f"\n{time.perf_counter() - start:.0f} s; load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    busy = _cpu_busy_elsewhere(0.3)
    if busy is not None and busy > 0.10:
        print(f"WARNING: other processes used {busy:.0%} of the CPUs right after the run")
    return 0


if __name__ == "__main__":
    sys.exit(main())

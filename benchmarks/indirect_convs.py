"""The float forward convolution at batch 1 through its three paths, GF/s per
shape: the indirect product (THConvDirect.c, THGemmConv_setMode(2)), THGemm
with its panels packed from the image (THGemm_setImagePacking(1), mode 0)
and THGemm on the column matrix (packing 0, mode 0); "packed" is the
indirect product with the weight packed once beforehand, as a module of
nn.freeze's copy runs it (SpatialDilatedConvolution_updateOutputPacked,
mode 2).  The paths alternate in blocks in one process (the machine is
shared: read ranges).

    PYTHONPATH=. chrt -r 1 python benchmarks/indirect_convs.py [--threads 1 2] [--blocks 3] [--only NAME]
"""
import argparse
import ctypes
import time

import numpy as np

import nn_legacy as nn
import thnn
import thnn._thnn

LIB = ctypes.CDLL(thnn._thnn.__file__)
LIB.THGemmConv_setMode.argtypes = [ctypes.c_int]
LIB.THGemm_setImagePacking.argtypes = [ctypes.c_int]

# (name, planes in, out, height, width, kernel, stride, pad)
SHAPES = [("face48 3->64 5x5", 3, 64, 48, 48, 5, 1, 0), ("face48 64->64 5x5", 64, 64, 21, 21, 5, 1, 0),
          ("spynet 8->32 7x7", 8, 32, 64, 64, 7, 1, 3), ("spynet 32->64 7x7", 32, 64, 64, 64, 7, 1, 3),
          ("spynet 64->32 7x7", 64, 32, 64, 64, 7, 1, 3), ("spynet 32->16 7x7", 32, 16, 64, 64, 7, 1, 3),
          ("spynet 16->2 7x7", 16, 2, 64, 64, 7, 1, 3), ("resnet 3->64 7x7/2", 3, 64, 224, 224, 7, 2, 3),
          ("resnet 64 3x3 56", 64, 64, 56, 56, 3, 1, 1), ("resnet 128 3x3 28", 128, 128, 28, 28, 3, 1, 1),
          ("resnet 256 3x3 14", 256, 256, 14, 14, 3, 1, 1), ("resnet 512 3x3 7", 512, 512, 7, 7, 3, 1, 1),
          ("resnet 64->128 3x3/2", 64, 128, 56, 56, 3, 2, 1), ("resnet 256->512 3x3/2", 256, 512, 14, 14, 3, 2, 1),
          ("alexnet 3->64 11x11/4", 3, 64, 224, 224, 11, 4, 2), ("alexnet 64->192 5x5", 64, 192, 27, 27, 5, 1, 2),
          ("vgg 3->64 3x3 80", 3, 64, 80, 80, 3, 1, 1), ("vgg 64->64 3x3 80", 64, 64, 80, 80, 3, 1, 1),
          ("vgg 128->128 3x3 40", 128, 128, 40, 40, 3, 1, 1),
          ("vgg 512 3x3 14", 512, 512, 14, 14, 3, 1, 1),
          ("vgg 512 3x3 10", 512, 512, 10, 10, 3, 1, 1), ("vgg 512 3x3 5", 512, 512, 5, 5, 3, 1, 1),
          ("alexnet 192->384 3x3 13", 192, 384, 13, 13, 3, 1, 1), ("alexnet 384->256 3x3 13", 384, 256, 13, 13, 3, 1, 1),
          ("alexnet 256 3x3 13", 256, 256, 13, 13, 3, 1, 1), ("resnet 256 3x3 7", 256, 256, 7, 7, 3, 1, 1),
          ("resnet 128 3x3 7", 128, 128, 7, 7, 3, 1, 1), ("resnet 64 3x3 10", 64, 64, 10, 10, 3, 1, 1)]
# path -> (THGemmConv mode, image packing, with the weight packed beforehand)
PATHS = {"packed": (2, 1, True), "indirect": (2, 1, False), "image-packed": (0, 1, False), "columns": (0, 0, False)}


def run(shape, threads, blocks):
    _, nin, nout, h, w, k, s, pad = shape
    plain = nn.SpatialConvolution(nin, nout, k, k, s, s, pad, pad).float()
    frozen = nn.freeze(plain)
    x = np.random.default_rng(0).standard_normal((1, nin, h, w)).astype(np.float32)
    y = plain.forward(x)
    flops = 2.0 * nin * k * k * y.size
    thnn.set_num_threads(threads)
    reps = max(3, int(0.05e9 * 60 / flops))
    best = {p: [] for p in PATHS}
    try:
        for _ in range(blocks):
            for path, (mode, packing, packed) in PATHS.items():
                m = frozen if packed else plain
                LIB.THGemmConv_setMode(mode)
                LIB.THGemm_setImagePacking(packing)
                m.forward(x)
                t = time.perf_counter()
                for _ in range(reps):
                    m.forward(x)
                best[path].append(flops * reps / (time.perf_counter() - t) / 1e9)
    finally:
        LIB.THGemmConv_setMode(1)
        LIB.THGemm_setImagePacking(1)
    return {p: (min(v), max(v)) for p, v in best.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--blocks", type=int, default=3)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    for threads in args.threads:
        print(f"threads {threads}: GF/s (min-max of {args.blocks} blocks)")
        for shape in SHAPES:
            if args.only not in shape[0]:
                continue
            r = run(shape, threads, args.blocks)
            print(f"  {shape[0]:24s} " + "  ".join(f"{p} {lo:5.1f}-{hi:5.1f}" for p, (lo, hi) in r.items()), flush=True)


if __name__ == "__main__":
    main()

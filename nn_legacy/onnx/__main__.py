"""Convert a Torch7 or nn_legacy model file to ONNX.

    python -m nn_legacy.onnx IN OUT.onnx --input-shape 2,3,32,32

IN is a Torch7 file (``torch.save`` output, binary or ASCII: ``.t7``,
``.net``, ...) or an nn_legacy save file (``nn_legacy.save``).  The model is
exported as it computes in evaluation mode (nn_legacy.onnx.export); the
input shape fixes every dim but the first, the batch, which stays free in
the ONNX graph where the model allows it: give a batch of 2 or more (with
a batch of 1 a View cannot tell the batch from the other sizes, and the
batch is then fixed in the graph).  Give ``--input-shape`` once per array
for a model that takes a table.

onnxruntime has no float64 kernel for Conv, pooling and a few more: a
float64 model (a Torch7 DoubleTensor model) whose float64 graph onnxruntime
cannot run is exported in float32 instead, and the output says so
(``--float64`` keeps float64, and the exit status is then 1).

It prints the module tree, the size of the ONNX graph and, when
onnxruntime is installed, the largest difference between nn_legacy and
onnxruntime on a random input of that shape.  Exit status: 0 when written
(and, if run, the check agrees to 1e-4 of the output's scale, or 1e-9 in
float64); 1 when the model cannot be exported (every module without an
ONNX equivalent is named), onnxruntime cannot run the graph or the check
disagrees; 2 for bad arguments (an input shape without its batch) or an
unreadable file or unwritable output, in one ``error:`` line.
"""
import argparse
import collections
import os
import sys
import warnings

import numpy as np

from . import exporter as nn_onnx
from ..serialization import MAGIC, load, load_lua

#: how check's text starts when onnxruntime cannot load the graph
CANNOT_RUN = "onnxruntime cannot run the graph"

#: largest difference the check accepts, relative to the output's largest |value|
AGREEMENT = {np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-9}


def shape_arg(text):
    try:
        shape = tuple(int(n) for n in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a shape is sizes separated by commas (1,3,32,32), got {text!r}") from None
    if not shape or any(n < 1 for n in shape):
        raise argparse.ArgumentTypeError(f"sizes must be positive, got {text!r}")
    return shape


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m nn_legacy.onnx", description=__doc__.split("\n\n")[0])
    p.add_argument("input", help="a Torch7 file (.t7, .net; binary or ASCII) or an nn_legacy save file")
    p.add_argument("output", help="the ONNX file to write")
    p.add_argument("--input-shape", type=shape_arg, action="append", required=True, metavar="N,C,H,W",
                   help="the input's shape, batch first (once per array for a table input)")
    p.add_argument("--input-dtype", choices=("float32", "float64", "int64"),
                   help="the input's element type (default: the model's float type; int64 for indices)")
    precision = p.add_mutually_exclusive_group()
    precision.add_argument("--float32", action="store_true", help="convert the model to float32 first "
                           "(onnxruntime has no float64 kernel for Conv, pooling, ...: the default for a float64 "
                           "model whose float64 graph onnxruntime cannot run)")
    precision.add_argument("--float64", action="store_true", help="keep a float64 model in float64 even where "
                           "onnxruntime cannot run the graph (exit status 1 then)")
    p.add_argument("--opset", type=int, default=None, help=f"the ONNX opset (default {nn_onnx.DEFAULT_OPSET}, "
                   f"at least {nn_onnx.MIN_OPSET})")
    p.add_argument("--long-size", type=int, choices=(4, 8), default=None,
                   help="bytes of a C long in a binary Torch7 file: 4 for files written on Windows or 32-bit ARM "
                        "(default: detected)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random check input")
    return p.parse_args(argv)


def read_model(path, long_size):
    """The module stored in an nn_legacy save file or a Torch7 file."""
    with open(path, "rb") as f:
        head = f.read(len(MAGIC))
    model = load(path) if head == MAGIC else load_lua(path, long_size=long_size)
    from ..Module import Module
    if not isinstance(model, Module):
        raise ValueError(f"{path} holds a {type(model).__name__}, not a module")
    return model


def random_input(shapes, dtype, seed):
    rng = np.random.default_rng(seed)
    arrays = [rng.integers(0, 2, s) if dtype.kind == "i" else rng.standard_normal(s).astype(dtype) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def graph_summary(proto, path):
    graph = proto.graph
    ops = collections.Counter(node.op_type for node in graph.node)
    parameters = sum(int(np.prod(t.dims)) for t in graph.initializer)

    def shape(v):
        return "[" + ", ".join(d.dim_param or str(d.dim_value) for d in v.type.tensor_type.shape.dim) + "]"
    lines = [f"ONNX graph: {len(graph.node)} nodes, {len(graph.initializer)} initializers ({parameters} values), "
             f"opset {proto.opset_import[0].version}, {os.path.getsize(path)} bytes",
             "  inputs:  " + ", ".join(f"{v.name} {shape(v)}" for v in graph.input),
             "  outputs: " + ", ".join(f"{v.name} {shape(v)}" for v in graph.output),
             "  nodes:   " + ", ".join(f"{op} x{n}" if n > 1 else op for op, n in sorted(ops.items()))]
    return "\n".join(lines)


def check(model, path, x):
    """(largest |difference| relative to the output scale, text) between
    nn_legacy and onnxruntime on x; None when onnxruntime is missing."""
    try:
        import onnxruntime
    except ImportError:
        return None, f"onnxruntime is not installed, no numerical check ({nn_onnx.INSTALL_HINT})"
    try:
        session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    except Exception as e:   # noqa: BLE001  (onnxruntime has its own exception types)
        return None, f"{CANNOT_RUN}: {str(e).strip().splitlines()[0]}" + (
            " (convert with --float32)" if "NOT_IMPLEMENTED" in str(e) else "")
    arrays = x if isinstance(x, list) else [x]
    got = session.run(None, {i.name: a for i, a in zip(session.get_inputs(), arrays)})
    model.evaluate()
    want = model.forward(x)
    want = want if isinstance(want, list) else [want]
    worst, scale = 0.0, 0.0
    for g, w in zip(got, _flat(want)):
        worst = max(worst, float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max(initial=0)))
        scale = max(scale, float(np.abs(w).max(initial=0)))
    relative = worst / scale if scale else worst
    return relative, (f"largest difference nn_legacy vs onnxruntime on a random input: {worst:.3g} "
                      f"({relative:.3g} of the output's largest value {scale:.3g})")


def _flat(value):
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _flat(v)]
    return [value]


def _error(text, status):
    print(f"error: {text}", file=sys.stderr)
    return status


def _os_error(what, path, e):
    """One line for an OSError on path: the path once, then why (no traceback)."""
    return f"cannot {what} {path}: {e.strerror or e}"


def _export(model, args, dtype):
    """Export model on a random input of dtype and print the graph; (the input, None) when written, else
    (None, the exit status) after one error line."""
    x = random_input(args.input_shape, dtype, args.seed)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", nn_onnx.StaticBatchWarning)
            proto = nn_onnx.export(model, x, args.output, opset=args.opset)
    except nn_onnx.ExportError as e:
        return None, _error(f"{args.input} cannot be exported to ONNX:\n  " + "\n  ".join(e.problems), 1)
    except OSError as e:
        return None, _error(_os_error("write", args.output, e), 2)
    except (ValueError, TypeError, ImportError) as e:
        return None, _error(e, 2)
    static = [w for w in caught if issubclass(w.category, nn_onnx.StaticBatchWarning)]
    sample = next((s for s in args.input_shape if len(s) == 1), None)
    if static and sample is not None and dtype.kind == "f":   # --input-shape 784: the batch forgotten
        os.remove(args.output)
        size = ",".join(map(str, sample))
        return None, _error(f"--input-shape {size} has no batch size: the shape is batch first; give a batch of "
                            f"2 or more: --input-shape 2,{size}", 2)
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    print(f"wrote {args.output}")
    print(graph_summary(proto, args.output))
    return x, None


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    try:
        model = read_model(args.input, args.long_size)
    except OSError as e:
        return _error(_os_error("read", args.input, e), 2)
    except ValueError as e:   # (load_lua's messages start with the path: it is not said twice)
        return _error(e if str(e).startswith(str(args.input)) else f"cannot read {args.input}: {e}", 2)
    if args.float32:
        model.float()
    dtype = np.dtype(args.input_dtype or model._dtype() or np.float32)
    print(repr(model))
    x, status = _export(model, args, dtype)
    if x is None:
        return status
    relative, text = check(model, args.output, x)
    print(text)
    if text.startswith(CANNOT_RUN) and model._dtype() == np.float64 and not args.float64:
        print("onnxruntime has no float64 kernel for this graph: exporting the model in float32 instead "
              "(--float32, the default for such a model; --float64 keeps float64)")
        model.float()
        dtype = np.dtype(np.float32) if dtype.kind == "f" else dtype
        x, status = _export(model, args, dtype)
        if x is None:
            return status
        relative, text = check(model, args.output, x)
        print(text)
    if text.startswith(CANNOT_RUN):
        return _error(f"{args.output} is written, but onnxruntime cannot run it, so it is not checked", 1)
    float_type = dtype if dtype.kind == "f" else np.dtype(model._dtype() or np.float32)
    if relative is not None and not relative <= AGREEMENT[float_type]:
        return _error(f"the difference is above {AGREEMENT[float_type]:g} of the output's scale", 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

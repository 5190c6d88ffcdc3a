"""A character-level LSTM language model, trained with explicit
backpropagation through time, the Torch7 rnn package's way.

    python -m nn_legacy.demos.charlm [--rounds N] [--batches N] [--seed S] [--hidden H] ...

The text is an excerpt of Shakespeare shipped with the project
(nn_legacy/demos/data/shakespeare.txt, public domain; its SOURCE.md says
where it comes from).  The first 90 % trains, the last 10 % validates.
The model reads one character per time step and predicts the next:

    LookupTable(V, E) -> Sequencer(FastLSTM(E, H)) -> View(-1, H) -> Linear(H, V) -> LogSoftMax

with ClassNLLCriterion.  The text is cut into ``batch`` parallel streams and
fed in chunks of ``seq-length`` steps; the Sequencer remembers the LSTM's
state from chunk to chunk (``remember()``) and backpropagates through the
steps of each chunk (truncated BPTT).  Before training it checks the
gradients of a small model of the same kind against central differences
(float64).  It trains with Adam on the flattened parameters, gradients
clipped to a norm of 5, printing the validation loss in bits per
character after every round, then samples some text from the model.
Exit status 1 if a gradient check fails or the validation loss did not go
down.  With --checkpoint PATH it writes a checkpoint after every --every
rounds and at the end (between rounds, where the LSTM's state is
forgotten, so none is lost); --resume PATH continues from one and ends with
the parameters of the uninterrupted run, bit for bit.
"""
import argparse
import math
import os
import sys
import time
import zlib

import numpy as np

import nn_legacy as nn
import thnn
from nn_legacy import jacobian, optim
from nn_legacy._helpers.progress import ProgressBar
from nn_legacy.serialization import checkpoint

TEXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "shakespeare.txt")
GRADIENT_TOLERANCE = 1e-5
KIND = "charlm"   # what the demo's checkpoints say wrote them


def load_text(path=TEXT):
    with open(path, encoding="utf-8") as f:
        return f.read()


def encode(text):
    """(the characters, sorted; the text as 0-based indices into them)."""
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    return chars, np.array([index[c] for c in text], dtype=np.int64)


def build_model(n_chars, embedding, hidden, remember=True):
    lstm = nn.Sequencer(nn.FastLSTM(embedding, hidden))
    if remember:
        lstm.remember("both")
    return (nn.Sequential().add(nn.LookupTable(n_chars, embedding)).add(lstm).add(nn.View(-1, hidden))
            .add(nn.Linear(hidden, n_chars)).add(nn.LogSoftMax()))


def streams(ids, batch):
    """The text as ``batch`` consecutive streams side by side: [length, batch]."""
    length = (len(ids) - 1) // batch
    x = ids[:length * batch].reshape(batch, length).T
    y = ids[1:length * batch + 1].reshape(batch, length).T
    return x, y


def chunks(x, y, seq_length):
    """(inputs [T, batch], next characters [T * batch]) chunk by chunk."""
    for start in range(0, len(x) - seq_length + 1, seq_length):
        yield x[start:start + seq_length], y[start:start + seq_length].reshape(-1)


# ---- gradient check ----

def gradient_check(seed):
    """A small model of the same kind, float64: the whole model w.r.t. each
    parameter over a 4-step chunk (so through time), the Sequencer(FastLSTM)
    w.r.t. its input sequence, the criterion w.r.t. its input."""
    nn.manualSeed(seed)
    model = build_model(5, 3, 4, remember=False)
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, (4, 2)).astype(np.float64)     # indices as whole numbers, [T, batch]
    y = rng.integers(0, 5, 8)
    rows = [("whole model, w.r.t. every parameter", None, jacobian.testAllParameters(model, x))]
    lstm = model.modules[1]
    embedded = np.array(model.modules[0].forward(x), copy=True)
    rows.append(("Sequencer(FastLSTM), w.r.t. its input", jacobian.testJacobian(lstm, embedded), None))
    rows.append(("ClassNLLCriterion", jacobian.testCriterion(nn.ClassNLLCriterion(),
                                                             np.array(model.forward(x), copy=True), y), None))
    passed = all(e < GRADIENT_TOLERANCE for _, a, b in rows for e in (a, b) if e is not None)
    return rows, passed


def print_gradient_table(rows):
    print(f"Gradient check (float64, central differences, pass if max abs error < {GRADIENT_TOLERANCE:g}) on "
          "LookupTable(5, 3) -> Sequencer(FastLSTM(3, 4)) -> View -> Linear(4, 5) -> LogSoftMax, 4 steps x 2:")
    for name, e_in, e_par in rows:
        errors = [e for e in (e_in, e_par) if e is not None]
        ok = all(e < GRADIENT_TOLERANCE for e in errors)
        print(f"  {name:<42} {max(float(e) for e in errors):.2e}  {'pass' if ok else 'FAIL'}")
        for e in errors:
            if not e < GRADIENT_TOLERANCE:
                print(f"      {e!r}")
    print()


# ---- training ----

def validation_bits(model, criterion, x, y, seq_length):
    """Mean negative log2-likelihood per character of the validation streams,
    read in order from a fresh state (the model remembers across chunks)."""
    model.evaluate()
    model.forget()
    total, count = 0.0, 0
    for xs, ys in chunks(x, y, seq_length):
        total += criterion.forward(model.forward(xs), ys) * len(ys)
        count += len(ys)
    model.training()
    model.forget()
    return total / count / math.log(2)


def clip(grads, max_norm):
    norm = float(np.sqrt(np.dot(grads, grads)))
    if norm > max_norm:
        grads *= max_norm / norm
    return norm


def train(model, criterion, data, args, saver=None, resume=None):
    """Rounds of args.batches chunks, each followed by the validation loss;
    returns the validation losses (bits per character), first before training.
    ``saver`` (a checkpoint.Saver) writes a checkpoint every saver.every
    rounds; ``resume`` (a checkpoint.read checkpoint) is where to continue."""
    (x, y), (vx, vy) = data
    params, grads = model.flattenParameters()
    config, state = {"learningRate": args.lr}, {}
    source, taken, first = chunks(x, y, args.seq_length), 0, 1
    if resume is None:
        losses = [validation_bits(model, criterion, vx, vy, args.seq_length)]
        print(f"round {0:>2}: validation {losses[0]:.3f} bits per character (untrained)")
    else:   # between two rounds: the LSTM's state was forgotten, the text read up to chunk `taken`
        checkpoint.restore_parameters(params, resume["model"])
        config, state, losses = resume["optim"]["config"], resume["optim"]["state"], list(resume["losses"])
        nn.setRNGState(resume["rng"])
        first, taken = resume["step"] + 1, resume["taken"]
        for _ in range(taken):
            next(source)
        print(f"round {resume['step']:>2}: validation {losses[-1]:.3f} bits per character (resumed from "
              f"{args.resume})")
    for r in range(first, args.rounds + 1):
        bar = ProgressBar(args.batches, f"round {r:>2}/{args.rounds}")
        total = 0.0
        for b in range(args.batches):
            chunk = next(source, None)
            if chunk is None:                    # the end of the text: start it again, from a fresh state
                model.forget()
                source, taken = chunks(x, y, args.seq_length), 0
                chunk = next(source)
            taken += 1
            xs, ys = chunk

            def feval(_):
                output = model.forward(xs)
                loss = criterion.forward(output, ys)
                model.zeroGradParameters()
                model.backward(xs, criterion.backward(output, ys))
                clip(grads, 5.0)
                return loss, grads

            _, (loss,) = optim.adam(feval, params, config, state)
            total += loss
            bar.update(b + 1, f"training {loss / math.log(2):.3f} bits/char")
        losses.append(validation_bits(model, criterion, vx, vy, args.seq_length))
        bar.finish(f"training {total / args.batches / math.log(2):.3f}, validation {losses[-1]:.3f} bits per "
                   "character")
        if saver is not None:   # (a step of the saver is a round)
            saver.after_step(r, lambda: {"model": model, "optim": {"config": config, "state": state},
                                         "rng": nn.getRNGState(), "taken": taken, "losses": losses},
                             last=r == args.rounds)
    return losses


def sample(model, chars, length, temperature, rng, prime="\n"):
    """Text drawn from the model one character at a time, fed back as the
    next input (evaluation mode, the state carried from step to step)."""
    index = {c: i for i, c in enumerate(chars)}
    model.evaluate()
    model.forget()
    out = []
    logp = None
    for c in prime:
        logp = model.forward(np.array([[index[c]]]))
    for _ in range(length):
        p = np.exp(np.asarray(logp, dtype=np.float64).reshape(-1) / temperature)
        k = int(rng.choice(len(chars), p=p / p.sum()))
        out.append(chars[k])
        logp = model.forward(np.array([[k]]))
    model.training()
    model.forget()
    return prime + "".join(out)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m nn_legacy.demos.charlm", description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=10, help="training rounds, each followed by validation (default 10)")
    p.add_argument("--batches", type=int, default=90, help="chunks per round (default 90)")
    p.add_argument("--seed", type=int, default=0, help="seed of the initialisation and the sampling (default 0)")
    p.add_argument("--embedding", type=int, default=32, help="character embedding size (default 32)")
    p.add_argument("--hidden", type=int, default=128, help="LSTM size (default 128)")
    p.add_argument("--seq-length", type=int, default=50, help="steps of backpropagation through time (default 50)")
    p.add_argument("--batch-size", type=int, default=32, help="parallel streams (default 32)")
    p.add_argument("--lr", type=float, default=0.003, help="Adam's learning rate (default 0.003)")
    p.add_argument("--float64", action="store_true", help="train in float64 (default float32)")
    p.add_argument("--threads", type=int, default=1,
                   help="threads of the kernels (default 1: the matrices are small)")
    p.add_argument("--sample-length", type=int, default=300, help="characters to sample (default 300)")
    p.add_argument("--temperature", type=float, default=0.8, help="sampling temperature (default 0.8)")
    p.add_argument("--text", default=TEXT, help="the text to learn (default: the shipped Shakespeare)")
    p.add_argument("--checkpoint", metavar="PATH", help="write a checkpoint there after every --every rounds "
                                                        "and at the end (atomically)")
    p.add_argument("--every", type=int, default=1, metavar="N", help="rounds between checkpoints (default 1)")
    p.add_argument("--resume", metavar="PATH", help="continue from this checkpoint (same options; --rounds "
                                                    "may grow)")
    args = p.parse_args(argv)
    if min(args.rounds, args.batches, args.embedding, args.hidden, args.seq_length, args.batch_size,
           args.threads, args.every) < 1 or not args.lr > 0 or not args.temperature > 0 or args.sample_length < 0:
        p.error("sizes and counts must be at least 1, --lr and --temperature positive")
    return args


def _cannot_read(path, why):
    print(f"error: cannot read {path}: {why}", file=sys.stderr)
    return 2


def main(argv=None):
    args = parse_args(argv)
    started = time.perf_counter()
    thnn.set_num_threads(args.threads)
    try:
        text = load_text(args.text)
    except OSError as e:   # one line, no traceback
        return _cannot_read(args.text, e.strerror or e)
    except UnicodeDecodeError:
        return _cannot_read(args.text, "not UTF-8 text")
    chars, ids = encode(text)
    split = int(len(ids) * 0.9)
    train_streams = streams(ids[:split], args.batch_size)
    valid_streams = streams(ids[split:], args.batch_size)
    if min(len(train_streams[0]), len(valid_streams[0])) < args.seq_length:
        sys.exit(f"the text is too short for {args.batch_size} streams of {args.seq_length} steps")
    print(f"{os.path.basename(args.text)}: {len(text)} characters, {len(chars)} distinct; "
          f"{split} to train, {len(ids) - split} to validate")

    rows, grads_ok = gradient_check(args.seed)
    print_gradient_table(rows)

    nn.manualSeed(args.seed)
    dtype = np.float64 if args.float64 else np.float32
    model = build_model(len(chars), args.embedding, args.hidden).type(dtype)
    criterion = nn.ClassNLLCriterion()
    print(model)
    print(f"Training: Adam, learning rate {args.lr:g}, {args.batch_size} streams, BPTT over {args.seq_length} "
          f"steps, {args.rounds} rounds of {args.batches} chunks, {np.dtype(dtype).name}, "
          f"{args.threads} thread{'s' if args.threads > 1 else ''}")
    settings = {"seed": args.seed, "embedding": args.embedding, "hidden": args.hidden, "lr": args.lr,
                "seq_length": args.seq_length, "batch_size": args.batch_size, "batches": args.batches,
                "float64": args.float64, "text_crc32": zlib.crc32(text.encode("utf-8"))}
    try:
        resume, saver = checkpoint.from_options(args, KIND, settings, model)
    except checkpoint.CheckpointError as e:
        print(f"--resume/--checkpoint: {e}", file=sys.stderr)
        return 2
    losses = train(model, criterion, (train_streams, valid_streams), args, saver, resume)
    if saver is not None and saver.summary():
        print(saver.summary())
    print()
    print(f"Sample (temperature {args.temperature:g}):")
    print(sample(model, chars, args.sample_length, args.temperature, np.random.default_rng(args.seed)))
    print()
    print(f"validation: {losses[0]:.3f} -> {losses[-1]:.3f} bits per character; "
          f"total time {time.perf_counter() - started:.1f} s")

    failures = []
    if not grads_ok:
        failures.append(f"a gradient check exceeded {GRADIENT_TOLERANCE:g}")
    if not losses[-1] < losses[0]:
        failures.append("the validation loss did not go down")
    if failures:
        print("FAILED: " + "; ".join(failures), file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

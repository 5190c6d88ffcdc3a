"""Generate text from a character-level language model checkpoint, as
torch-rnn's sample.lua and char-rnn's sample.lua did.

    python -m nn_legacy.sample CHECKPOINT --length 200 --temperature 0.8 --seed 1 --primetext "The "

The text alone goes to stdout (followed by a newline, as Lua's print);
messages go to stderr.  The same seed gives the same text; without --seed a
seed is drawn and reported on stderr.  --sample 0 takes the most likely
token at every step (greedy; the seed plays no part).  torch-rnn's and
char-rnn's spellings are accepted: -checkpoint, -start_text / -primetext,
-length, -temperature, -sample, -seed, -gpu / -gpuid, -verbose.  The
random stream is numpy's (PCG64), not Torch7's: a seed gives the same text
here from run to run, not the text Lua gave for that seed.

Exit status: 0 when the text is written; 1 when the checkpoint cannot be
read or sampled (one ``error:`` line on stderr); 2 for bad arguments.
"""
import argparse
import sys

import numpy as np

from . import Options, SampleError, backend_for, load_checkpoint


def _argument(convert, kind, allowed, bound):
    """An argparse type: `convert(text)`, which must satisfy `allowed`;
    the messages name what was expected ("a number, got 'x'")."""
    def parse(text):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind}, got {text!r}") from None
        if not allowed(value):
            raise argparse.ArgumentTypeError(f"{bound}, got {text!r}")
        return value
    return parse


# -sample / -verbose are Lua CmdLine numbers: 0 or 1
_flag = _argument(lambda text: int(float(text)), "0 or 1", lambda v: v in (0, 1), "0 or 1")
_positive_int = _argument(int, "a whole number", lambda v: v >= 1, "at least 1")
_positive = _argument(float, "a number", lambda v: v > 0, "greater than 0")


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m nn_legacy.sample", description=__doc__.split("\n\n")[0],
                                allow_abbrev=False)
    p.add_argument("checkpoint", nargs="?", help="a checkpoint file (torch-rnn's or char-rnn's train.lua output, .t7)")
    p.add_argument("-checkpoint", dest="checkpoint_option", metavar="CHECKPOINT", help=argparse.SUPPRESS)
    p.add_argument("--length", "-length", type=_positive_int, default=2000,
                   help="tokens to generate (default 2000): torch-rnn counts the start text in, char-rnn "
                        "generates this many after it (as each sample.lua did)")
    p.add_argument("--temperature", "-temperature", type=_positive, default=1.0,
                   help="divides the scores before the softmax: lower is more conservative (default 1)")
    p.add_argument("--seed", "-seed", type=int, default=None, help="the random seed (default: drawn, and reported)")
    p.add_argument("--primetext", "-primetext", "--start-text", "--start_text", "-start_text", dest="start_text",
                   default="", help="text to start from (fed through the model first)")
    p.add_argument("--sample", "-sample", type=_flag, default=1, help="1 to sample (default), 0 for the argmax")
    p.add_argument("--gpu", "-gpu", "-gpuid", "--gpuid", type=int, default=-1,
                   help="-1 (default): the CPU; 0 or more: the CUDA device")
    p.add_argument("--verbose", "-verbose", type=_flag, nargs="?", const=1, default=0, help="report progress")
    args = p.parse_args(argv)
    if args.checkpoint and args.checkpoint_option:
        p.error("give the checkpoint once (as the argument or as -checkpoint)")
    args.checkpoint = args.checkpoint or args.checkpoint_option
    if not args.checkpoint:
        p.error("a checkpoint file is needed")
    return args


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)

    def log(message):
        print(message, file=sys.stderr, flush=True)

    seed = args.seed
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0] & 0x7FFFFFFF)
        if args.sample:
            log(f"seed {seed} (--seed {seed} gives this text again)")
    try:
        checkpoint = load_checkpoint(args.checkpoint)
        backend = backend_for(checkpoint)
        if args.verbose and backend.describe is not None:
            log(backend.describe(checkpoint))
        options = Options(length=args.length, start_text=args.start_text, sample=args.sample,
                          temperature=args.temperature, rng=np.random.default_rng(seed), gpu=args.gpu,
                          verbose=bool(args.verbose), log=log)
        text = backend.generate(checkpoint, options)
    except (SampleError, OSError, ValueError) as e:   # (T7Error is a ValueError)
        log(f"error: {e}")
        return 1
    out = sys.stdout.buffer
    out.write(text + b"\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Hostile files made from good ones: bytes of a saved model set at random."""
import warnings

import numpy as np

import nn_legacy as nn
from nn_legacy.serialization import T7Error


def load_damaged(data, path, count, seed, use):
    """Write count copies of data, each with 1-3 bytes set at random, to path
    and load them; load_lua must raise T7Error or give a model, which
    use(model) then runs (a Python error from the layers is allowed there,
    anything else fails the test).  The number of copies that loaded."""
    rng = np.random.default_rng(seed)
    loaded = 0
    for _ in range(count):
        b = bytearray(data)
        for k in rng.integers(0, len(b), rng.integers(1, 4)):
            b[k] = rng.integers(0, 256)
        path.write_bytes(bytes(b))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = nn.load_lua(str(path))
        except T7Error:
            continue
        loaded += 1
        try:
            use(model)
        except (ValueError, TypeError, IndexError, RuntimeError):
            pass
    return loaded

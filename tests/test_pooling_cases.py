"""tests/pooling_cases.py gives a valid call of every pooling kernel of
THNN.h (for the binding, lifetime and memory tests of kernel_cases.py):
each runs for both types and several batch sizes, its indices are int64 and
its other results of the call's type, shaped by the batch."""
import numpy as np
import pytest

import thnn
from pooling_cases import BUILDERS

FUNCTIONS = [f for f in thnn.FUNCTIONS if f.layer in BUILDERS]


# the layers whose forward pass has a variant without indices, for inference
VALUES_ONLY = {"SpatialMaxPooling", "SpatialDilatedMaxPooling", "VolumetricMaxPooling", "VolumetricDilatedMaxPooling"}


def test_every_pooling_layer_of_the_header_has_both_verbs():
    verbs = {}
    for f in FUNCTIONS:
        verbs.setdefault(f.layer, set()).add(f.verb)
    assert set(verbs) == set(BUILDERS)
    assert all(v == {"updateOutput", "updateGradInput"} | ({"updateOutputValues"} if layer in VALUES_ONLY else set())
               for layer, v in verbs.items()), verbs


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
def test_each_case_is_a_valid_call(function, dtype):
    for n in (1, 3, 7):
        kw = BUILDERS[function.layer](np.dtype(dtype), np.random.default_rng(n), n, function.verb)
        out = getattr(thnn.backend(dtype), function.name)(*[kw[a.name] for a in function.args[1:]])
        produced = [a for a in function.args[1:] if a.tags & {"OUT", "BUFFER"}]
        for a, result in zip(produced, out if len(produced) > 1 else (out,)):
            assert result.dtype == (np.int64 if a.is_index else dtype), a.name
            assert result.shape[0] == n, a.name

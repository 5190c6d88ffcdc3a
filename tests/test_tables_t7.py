"""Shape and table modules saved by Torch7 (1-based dims, offsets and
indices, Lua numbers) load with nn_legacy.load_lua into modules that
compute what the same modules built here with 0-based arguments do."""
import numpy as np

import nn_legacy as nn
from layer_checks import uniform
from t7_writer import T7Object
from volumetric_checks import save_and_load, torch7


def test_a_torch7_pipeline_of_shape_modules(tmp_path):
    saved = torch7("nn.Sequential", modules={
        1: torch7("nn.Transpose", permutations={1: {1: 2.0, 2: 3.0}}),
        2: torch7("nn.SplitTable", dimension=2.0, nInputDims=2.0),
        3: torch7("nn.NarrowTable", offset=2.0, length=2.0),
        4: torch7("nn.JoinTable", dimension=1.0, nInputDims=1.0),
        5: torch7("nn.Narrow", dimension=2.0, index=2.0, length=-1.0),
        6: torch7("nn.Replicate", nfeatures=2.0, dim=1.0, ndim=1.0),
        7: torch7("nn.Sum", dimension=1.0, nInputDims=2.0, sizeAverage=False),
        8: torch7("nn.Padding", dim=1.0, pad=-1.0, nInputDim=1.0, value=0.5, index=1.0),
        9: torch7("nn.Mean", dimension=2.0),   # a Mean from before it was a Sum: no sizeAverage
    })
    loaded = save_and_load(tmp_path, saved)
    fresh = nn.Sequential(nn.Transpose((1, 2)), nn.SplitTable(1, 2), nn.NarrowTable(1, 2), nn.JoinTable(0, 1),
                          nn.Narrow(1, 1, -1), nn.Replicate(2, 0, 1), nn.Sum(0, 2), nn.Padding(0, -1, 1, 0.5),
                          nn.Mean(1))
    x = uniform((2, 3, 4), 1)
    out = fresh.forward(x).copy()
    assert out.shape == (2,)
    np.testing.assert_array_equal(loaded.forward(x), out)
    g = uniform((2,), 2)
    np.testing.assert_array_equal(loaded.backward(x, g), fresh.backward(x, g))


def test_torch7_table_modules(tmp_path):
    saved = torch7("nn.Sequential", modules={
        1: torch7("nn.SelectTable", index=-1.0),
        2: torch7("nn.Index", dimension=1.0),
    })
    loaded = save_and_load(tmp_path, saved)
    x = uniform((4, 3), 1)
    table = [uniform((2,), 2), [x, np.array([3, 0, 3])]]
    np.testing.assert_array_equal(loaded.forward(table), x[[3, 0, 3]])
    selected = save_and_load(tmp_path, torch7("nn.SelectTable", index=2.0))
    assert selected.forward(table) is table[1]


def test_a_torch7_criterion_table_does_not_scale_the_criterions_buffer(tmp_path):
    crit = T7Object("nn.MSECriterion", {"gradInput": np.zeros(3), "output": 0.0, "sizeAverage": True})
    loaded = save_and_load(tmp_path, torch7("nn.CriterionTable", criterion=crit))
    x, t = uniform((3,), 1), uniform((3,), 2)
    gin = loaded.backward([x, t], 3.0)
    np.testing.assert_array_equal(loaded.criterion.gradInput, nn.MSECriterion().backward(x, t))
    np.testing.assert_array_equal(gin[0], 3.0 * nn.MSECriterion().backward(x, t))

"""nn_legacy.Identity: output = input, gradInput = gradOutput, the objects themselves."""
import pickle

import numpy as np

import nn_legacy as nn
from layer_checks import uniform
from table_module_checks import check_table_pickle


def test_passes_the_objects_through():
    m = nn.Identity()
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    assert m.forward(x) is x and m.output is x
    assert m.backward(x, g) is g and m.gradInput is g


def test_passes_tables_and_other_dtypes_through():
    m = nn.Identity()
    table = [uniform((2,), 1), [np.arange(3), uniform((1, 2), 2)]]
    assert m.forward(table) is table
    assert m.backward(table, table) is table
    ints = np.arange(5)
    assert m.forward(ints) is ints


def test_float32_stays_float32():
    x = uniform((3,), 1).astype(np.float32)
    assert nn.Identity().float().forward(x) is x


def test_pickle_round_trip():
    check_table_pickle(nn.Identity(), uniform((3, 4), 1), uniform((3, 4), 2))
    assert repr(pickle.loads(pickle.dumps(nn.Identity()))) == "nn.Identity"

"""What a new user trips over gets a message that says what to do: the argument order of save, a Torch7 file
given to load (or another file to load_lua), a truncated file, the data sets StochasticGradient takes, a layer
too big for the machine, and the version."""
import re

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, uniform
from nn_legacy._helpers import checks as _checks
from nn_legacy.serialization.t7 import T7Error
from t7_writer import T7Object, t7_bytes


def test_save_names_the_order(tmp_path):
    model = nn.Linear(2, 2)
    path = str(tmp_path / "m.thnn")
    with raises_exactly(TypeError, f"save(obj, path): the object comes first, then the file: nn_legacy.save(model, "
                                   f"{path!r}) (Torch7's torch.save(path, model) had them the other way round)"):
        nn.save(path, model)
    nn.save("just a string", path)    # saving a string to a file is fine
    assert nn.load(path) == "just a string"


def test_load_of_a_torch7_file_points_to_load_lua(tmp_path):
    path = tmp_path / "net.t7"
    path.write_bytes(t7_bytes(T7Object("nn.Tanh", {"train": True})))
    with pytest.raises(nn.FormatError, match=r"not an nn_legacy save file .*; it looks like a Torch7 file: read it "
                                             r"with nn_legacy\.load_lua$"):
        nn.load(str(path))
    assert type(nn.load_lua(str(path))) is nn.Tanh
    (tmp_path / "ascii.t7").write_bytes(b"4\n1\n")
    with pytest.raises(nn.FormatError, match="load_lua"):
        nn.load(str(tmp_path / "ascii.t7"))


@pytest.mark.parametrize("content, says", [
    (b"PK\x03\x04 a zip file", r"not a Torch7 file: it starts with b'PK\\x03\\x04 a z' \(read as the unknown "
                                r"type tag "),
    (b"", "not a Torch7 file: it is empty"),
    (None, "not a Torch7 file but an nn_legacy save file: read it with nn_legacy.load"),
])
def test_load_lua_names_a_file_that_is_not_torch7(tmp_path, content, says):
    path = tmp_path / "other.bin"
    if content is None:
        nn.save(nn.Tanh(), str(path))
    else:
        path.write_bytes(content)
    with pytest.raises(T7Error, match="^" + re.escape(str(path)) + ": " + says):
        nn.load_lua(str(path))


def test_a_truncated_torch7_file_says_where(tmp_path):
    data = t7_bytes(T7Object("nn.Linear", {"weight": np.ones((3, 2)), "bias": np.ones(3), "train": True}))
    path = tmp_path / "cut.t7"
    for cut in (10, len(data) // 2, len(data) - 1):
        path.write_bytes(data[:cut])
        with pytest.raises(T7Error, match=rf"^{re.escape(str(path))}: truncated at byte \d+ of \d+"):
            nn.load_lua(str(path))


@pytest.mark.parametrize("dataset, says", [
    (lambda x, y: (x, y.tolist()), "a tuple (inputs, targets) where targets is a list: make them arrays, e.g. "
                                   "(np.asarray(inputs), np.asarray(targets))"),
    (lambda x, y: [x.tolist(), y], "a list (inputs, targets) where inputs is a list: make them arrays"),
    (lambda x, y: [(a, b) for a, b in zip(x, y)], "a list of 6 (input, target) pairs: stack them into (inputs, "
                                                  "targets) arrays"),
    (lambda x, y: x, "one numpy array: pass the targets with it, (inputs, targets)"),
])
def test_stochastic_gradient_says_what_a_data_set_is(dataset, says):
    x, y = uniform((6, 3), 1), uniform((6, 2), 2)
    trainer = nn.StochasticGradient(nn.Linear(3, 2), nn.MSECriterion())
    with pytest.raises(TypeError, match=r"^StochasticGradient\.train: dataset must have size\(\) and dataset\[i\] "
                                        r"-> \(input, target\), or be a pair \(inputs, targets\) of numpy arrays; "
                                        r"got " + re.escape(says)):
        trainer.train(dataset(x, y))


def test_a_huge_layer_is_refused_before_its_memory_is_touched(monkeypatch):
    monkeypatch.setattr(_checks, "available_memory", lambda: 8 << 30)
    with raises_exactly(MemoryError, "Linear: a parameter of size [1, 2147483656] (16 GiB as float64) needs about "
                                     "64 GiB with its gradient and initialisation, and 8 GiB of memory is available"):
        nn.Linear(2 ** 31 + 8, 1)
    with pytest.raises(MemoryError, match=r"^LookupTable: a parameter of size \[134217728, 8\] \(8 GiB as float64\)"):
        nn.LookupTable(2 ** 27, 8)
    with pytest.raises(MemoryError, match=r"^Linear: array is too big"):
        nn.Linear(2 ** 62, 8)
    assert nn.Linear(1000, 100).weight.shape == (100, 1000)   # below the threshold nothing is asked


def test_the_real_memory_is_asked():
    available = _checks.available_memory()
    if available is None or available > 64 << 30:
        pytest.skip(f"this machine has {available} bytes available: the layer would fit")
    with pytest.raises(MemoryError, match=r"^Linear: a parameter of size \[1, 2147483656\]"):
        nn.Linear(2 ** 31 + 8, 1)


def test_versions():
    assert thnn.__version__ == nn.__version__ and re.fullmatch(r"\d+\.\d+\.\d+", nn.__version__)
    with open(__file__.rsplit("/tests/", 1)[0] + "/pyproject.toml", encoding="utf-8") as f:
        assert 'version = { attr = "thnn._version.__version__" }' in f.read()   # one number, read by the build

"""python -m nn_legacy.sample on torch-rnn checkpoints: a tiny LanguageModel
trained here for a few steps, written as train.lua wrote its checkpoints
(tests/torch_rnn_files.py: the real class names, fields and 1-based token
tables; float, double and GPU-saved), loaded and sampled through the command
line; and the backend registry (char-rnn's backend is tested in
tests/test_sample_char_rnn.py)."""
import os

import numpy as np
import pytest

import nn_legacy as nn
import nn_legacy.sample as sampling
from sample_cli import sample_subprocess
from t7_writer import t7_bytes
from torch_rnn_files import Writer, params_of

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEXT = "the cat sat on the mat. " * 8


def _train():
    """A 2-layer LSTM LanguageModel trained on TEXT as train.lua trained
    (Adam on the flattened parameters, [2, 12] windows, cross-entropy on
    the scores): (model, first loss, last loss)."""
    tokens = sorted(set(TEXT))
    nn.manualSeed(3)
    model = nn.LanguageModel(tokens, model_type="lstm", wordvec_size=6, rnn_size=16, num_layers=2)
    crit = nn.CrossEntropyCriterion()
    ids = model.encode_string(TEXT)
    params, grads = model.flattenParameters()
    state, losses = {}, []
    for step in range(60):
        starts = [(step * 7) % 60, (step * 7 + 30) % 60]
        x = np.stack([ids[s:s + 12] for s in starts])
        y = np.stack([ids[s + 1:s + 13] for s in starts]).reshape(-1)

        def f(_):
            model.resetStates()
            scores = model.forward(x)
            flat = scores.reshape(-1, len(tokens))
            loss = crit.forward(flat, y)
            model.zeroGradParameters()
            model.backward(x, crit.backward(flat, y).reshape(scores.shape))
            return loss, grads
        losses.append(nn.optim.adam(f, params, {"learningRate": 0.03}, state)[1][0])
    model.resetStates()
    model.evaluate()
    return model, losses[0], losses[-1]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    model, first, last = _train()
    where = tmp_path_factory.mktemp("torch_rnn")
    paths = {}
    for name, cls in (("float", "torch.FloatTensor"), ("double", "torch.DoubleTensor"), ("cuda", "torch.CudaTensor")):
        w = Writer(cls)
        paths[name] = str(where / f"checkpoint_40_{name}.t7")
        with open(paths[name], "wb") as f:
            f.write(t7_bytes(w.checkpoint(w.language_model(model.idx_to_token, params_of(model)), i=40)))
    return model, first, last, paths


def test_the_model_trained(trained):
    _, first, last, _ = trained
    assert last < 0.2 * first, (first, last)


def test_as_a_command_the_text_alone_goes_to_stdout(trained):
    """Two real processes: the same seed gives the same bytes on stdout, the text and print's newline."""
    model, _, _, paths = trained
    rc, out, err = sample_subprocess(paths["float"], "--length", "40", "--seed", "5", "--primetext", "the ")
    assert rc == 0, err
    assert out.endswith(b"\n") and out.count(b"\n") == 1 and len(out) == 41
    assert set(out[:-1].decode()) <= set(model.idx_to_token) and err == ""
    rc, again, err = sample_subprocess("-checkpoint", paths["float"], "-length", "40", "-seed", "5", "-start_text", "the ")
    assert rc == 0 and again == out


def test_same_seed_same_text(trained, run_cli):
    model, _, _, paths = trained
    rc, out, err = run_cli(paths["float"], "--length", "60", "--temperature", "0.8", "--seed", "5", "--primetext", "the ")
    assert rc == 0, err
    assert out.endswith(b"\n") and out.count(b"\n") == 1        # the text and print's newline, nothing else
    text = out[:-1].decode()
    assert len(text) == 60 and text.startswith("the ") and set(text) <= set(model.idx_to_token)
    assert run_cli(paths["float"], "--length", "60", "--temperature", "0.8", "--seed", "5", "--primetext", "the ")[1] \
        == out
    # torch-rnn's spellings are the same options
    rc, lua, _ = run_cli("-checkpoint", paths["float"], "-length", "60", "-temperature", "0.8", "-seed", "5",
                      "-start_text", "the ")
    assert rc == 0 and lua == out
    assert run_cli(paths["float"], "--length", "60", "--temperature", "0.8", "--seed", "6", "--primetext", "the ")[1] \
        != out
    # the same draws as the library with that seed, on the loaded model
    loaded = sampling.load_checkpoint(paths["float"])
    assert sampling.generate(loaded, length=60, temperature=0.8, start_text="the ",
                             rng=np.random.default_rng(5)) + b"\n" == out


def test_greedy_is_deterministic_and_learned_the_text(trained, run_cli):
    model, _, _, paths = trained
    rc, out, err = run_cli(paths["float"], "--length", "48", "--sample", "0", "--primetext", "the c", "--verbose")
    assert rc == 0
    assert "torch-rnn LanguageModel: 2 LSTM layers of 16" in err and 'Seeding with: "the c"' in err
    assert run_cli(paths["float"], "-length", "48", "-sample", "0", "-start_text", "the c", "-seed", "9")[1] == out
    # what the trained model in memory gives, float64 or float32: the file held its weights
    assert out[:-1].decode() == model.sample(48, start_text="the c", sample=0)
    assert "the cat sat on the mat" in out.decode()          # a few steps taught it the sentence


@pytest.mark.parametrize("saved", ["double", "cuda"])
def test_double_and_gpu_saved_checkpoints_sample_alike(trained, saved, run_cli):
    model, _, _, paths = trained
    loaded = sampling.load_checkpoint(paths[saved])["model"]
    assert loaded.type() == (np.float64 if saved == "double" else np.float32)
    greedy = sampling.generate({"model": loaded}, length=40, sample=0, start_text="the ")
    assert greedy.decode() == model.sample(40, start_text="the ", sample=0)
    if saved == "cuda":   # the GPU-saved file holds the float32 bits of the float one: the same draws
        drawn = sampling.generate({"model": loaded}, length=40, start_text="on", rng=np.random.default_rng(2))
        float_model = sampling.load_checkpoint(paths["float"])
        assert drawn == sampling.generate(float_model, length=40, start_text="on", rng=np.random.default_rng(2))
        rc, out, _ = run_cli(paths["cuda"], "--length", "30", "--seed", "1")
        assert rc == 0 and out == run_cli(paths["float"], "--length", "30", "--seed", "1")[1]


def test_errors_are_one_line_on_stderr(trained, tmp_path, run_cli):
    _, _, _, paths = trained
    rc, out, err = run_cli(paths["float"], "--primetext", "dog!")
    assert rc == 1 and out == b"" and err.strip().splitlines()[-1].startswith("error: the start text holds")
    assert "'!dg'" in err
    other = tmp_path / "other.t7"
    other.write_bytes(t7_bytes({"weights": np.zeros(3)}))
    rc, out, err = run_cli(str(other))
    assert rc == 1 and out == b"" and "no sampling backend takes this checkpoint: it holds a table of weights" in err
    rc, _, err = run_cli(str(tmp_path / "missing.t7"))
    assert rc == 1 and "error:" in err and "missing.t7" in err
    rc, _, err = run_cli(paths["float"], "--temperature", "0")
    assert rc == 2 and "greater than 0" in err
    rc, _, err = run_cli()
    assert rc == 2 and "a checkpoint file is needed" in err


def test_a_checkpoint_is_picked_by_what_it_holds(trained):
    """The registry a char-rnn backend plugs into: claims by the dict's
    contents, generate(checkpoint, options), a name registered again
    replaces the earlier one."""
    model = trained[0]
    char_rnn = {"protos": {"rnn": None, "criterion": None}, "opt": {}, "vocab": {"a": 1.0}}
    assert [b.name for b in sampling.backends()] == ["torch-rnn", "char-rnn"]     # built in
    assert sampling.backend_for(char_rnn).name == "char-rnn"     # (tests/test_sample_char_rnn.py samples them)
    seen = []

    def generate(checkpoint, options):
        seen.append((options.length, options.start_text, options.sample))
        return b"x" * options.length

    saved = sampling.backends()
    try:
        sampling.unregister_backend("char-rnn")
        with pytest.raises(sampling.SampleError, match="looks like a char-rnn checkpoint.*backend is not registered"):
            sampling.backend_for(char_rnn)
        sampling.register_backend("char-rnn", lambda c: isinstance(c, dict) and "protos" in c and "vocab" in c,
                                  generate)
        assert sampling.generate(char_rnn, length=3, start_text="a", sample=0) == b"xxx"
        assert seen == [(3, "a", 0)]
        assert sampling.backend_for({"model": model}).name == "torch-rnn"
        assert sampling.backend_for(model).name == "torch-rnn"            # a LanguageModel saved alone
        names = [b.name for b in sampling.backends()]
        sampling.register_backend("char-rnn", lambda c: False, generate)   # replaced in its place
        assert [b.name for b in sampling.backends()] == names and names[0] == "torch-rnn"
        with pytest.raises(sampling.SampleError, match="looks like a char-rnn checkpoint"):
            sampling.backend_for(char_rnn)
        sampling.unregister_backend("char-rnn")
        assert "char-rnn" not in [b.name for b in sampling.backends()]
        with pytest.raises(KeyError):
            sampling.unregister_backend("char-rnn")
    finally:
        sampling._BACKENDS[:] = saved

"""What a new user coming from Torch7 tripped on (issue 24, item 5): each message names what the user called
and says what to do."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly
from cuda_devices import emulator_only

FORWARD_FIRST = "backward needs the outputs of forward: call forward first"


def two_layers():
    return nn.Sequential().add(nn.Linear(2, 2)).add(nn.Tanh())


@pytest.mark.parametrize("make, method, says", [
    (two_layers, "backward", f"Sequential: {FORWARD_FIRST}"),
    (two_layers, "updateGradInput", f"Sequential: {FORWARD_FIRST}"),
    (lambda: nn.Sequential().add(two_layers()), "backward", f"Sequential: {FORWARD_FIRST}"),
    (lambda: nn.Sequential().add(nn.Linear(2, 2)).add(nn.Tanh()).add(nn.Linear(2, 2)), "accGradParameters",
     f"Sequential: {FORWARD_FIRST}"),
])
def test_container_backward_before_forward_names_the_container(make, method, says):
    model = make()
    x = np.zeros((3, 2))
    with raises_exactly(RuntimeError, says):
        getattr(model, method)(x, np.ones((3, 2)))
    model.forward(x)   # and after forward it runs
    assert model.backward(x, np.ones((3, 2))).shape == (3, 2)


def test_criterion_backward_before_forward_names_the_criterion():
    says = "CrossEntropyCriterion: backward needs the output of forward: call forward first"
    with raises_exactly(RuntimeError, says):
        nn.CrossEntropyCriterion().backward(np.zeros((2, 3)), np.array([0, 1]))


def test_layer_backward_before_forward_says_call_forward():
    with raises_exactly(TypeError, "Tanh_updateGradInput: output is required, got None: backward needs the output "
                                   "of forward: call forward first"):
        nn.Tanh().backward(np.zeros((3, 2)), np.zeros((3, 2)))


def test_a_container_in_a_container_names_the_layer_that_failed_after_forward():
    model = nn.Sequential().add(nn.Linear(2, 2))
    model.forward(np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"^Sequential \(0\) -> Linear"):   # a real error still names the child
        model.backward(np.zeros((3, 2)), np.zeros((3, 5)))


@pytest.mark.parametrize("index, says", [
    (2, "Sequential.get(2): index out of range: the valid indices are 0..1 (or -2..-1 from the end); indices are "
        "0-based (Torch7's get(1) is get(0) here)"),
    (-3, "Sequential.get(-3): index out of range: the valid indices are 0..1 (or -2..-1 from the end); indices are "
         "0-based (Torch7's get(1) is get(0) here)"),
])
def test_get_names_the_valid_range(index, says):
    model = two_layers()
    with raises_exactly(IndexError, says):
        model.get(index)
    assert model.get(1) is model.modules[1] and model.get(-2) is model.modules[0]


def test_get_on_an_empty_container_and_with_a_non_integer():
    with raises_exactly(IndexError, "Sequential.get(0): index out of range: it has no modules; indices are 0-based "
                                    "(Torch7's get(1) is get(0) here)"):
        nn.Sequential().get(0)
    with raises_exactly(TypeError, "Concat.get: index must be an integer (0-based), got '1'"):
        nn.Concat(1).add(nn.Linear(2, 2)).get("1")


@pytest.mark.parametrize("make, says", [
    (lambda: nn.Linear("4", 3), "Linear: inputSize must be an integer, got '4' (str)"),
    (lambda: nn.Linear(4, "3"), "Linear: outputSize must be an integer, got '3' (str)"),
    (lambda: nn.LookupTable("4", 3), "LookupTable: nIndex must be an integer, got '4' (str)"),
    (lambda: nn.SpatialConvolution(3, 4, "5", 5), "SpatialConvolution: kW must be an integer, got '5'"),   # its own
])
def test_a_string_size_is_a_type_error_naming_the_argument(make, says):
    with raises_exactly(TypeError, says):
        make()


@pytest.mark.parametrize("make, name", [
    (lambda: nn.Linear(4, 3), "Linear"),
    (lambda: nn.Sequential().add(nn.Linear(4, 3)).add(nn.Tanh()), "Sequential"),
])
def test_update_parameters_names_a_learning_rate_that_is_not_a_number(make, name):
    model = make()
    with raises_exactly(TypeError, f"{name}.updateParameters: learningRate must be a number, got '0.1' (str)"):
        model.updateParameters("0.1")
    before = model.parameters()[0][0].copy()
    model.updateParameters(np.float32(0.5))   # numpy scalars are numbers
    assert np.array_equal(model.parameters()[0][0], before - 0.5 * model.parameters()[1][0])


def test_jacobian_of_a_float32_module_asks_for_float64():
    from nn_legacy import jacobian
    says = ("testJacobian: Linear is float32; these checks need a float64 module (central differences are below "
            "float32's precision): call module.double() first")
    for x in (np.zeros((2, 3), np.float32), np.zeros((2, 3))):   # whatever the input's dtype
        with raises_exactly(TypeError, says):
            jacobian.testJacobian(nn.Linear(3, 2).float(), x)
    with pytest.raises(TypeError, match="^testAllParameters: Linear is float32; .* call module.double"):
        jacobian.testAllParameters(nn.Linear(3, 2).float(), np.zeros((2, 3)))
    assert jacobian.testJacobian(nn.Linear(3, 2).float().double(), np.zeros((2, 3), np.float32)) < 1e-6


def test_jacobian_report_where_prints_plain_integers():
    from nn_legacy import jacobian
    report = jacobian.testJacobian(nn.Linear(3, 2), np.random.default_rng(0).standard_normal((2, 3)))
    assert all(type(i) is int for part in report.where for i in part)
    assert str(report.where) == repr(tuple(tuple(int(i) for i in part) for part in report.where))
    assert type(report.max_error) is float


# ---------------------------------------------------------------- python -m nn_legacy
MPI_VARIABLES = [name for pair in __import__("nn_legacy.__main__").__main__.MPI_ENVIRONMENT for name in pair]


@pytest.fixture
def no_launcher(monkeypatch):
    for name in MPI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_a_short_run_says_it_skips_the_accuracy_check(no_launcher, capsys):
    from nn_legacy import __main__ as demo
    assert demo.main(["--epochs", "1", "--lr", "0.0001"]) == 0   # (far below 90 %: the check would fail it)
    out = capsys.readouterr().out
    assert "; a short run (1 epoch, fewer than the default 20): the 90 % accuracy check is skipped)" in out
    assert out.rstrip().endswith("OK")
    assert demo.find_failures(True, True, 0.5, 19) == []
    assert demo.find_failures(True, True, 0.5, 20) == ["held-out accuracy 50.00 % is below 90 %"]


@pytest.mark.parametrize("env, world", [
    ({"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "1"}, (1, 2)),
    ({"PMI_SIZE": "4", "PMI_RANK": "0"}, (0, 4)),
    ({"MV2_COMM_WORLD_SIZE": "3", "MV2_COMM_WORLD_RANK": "2"}, (2, 3)),
    ({"MPI_LOCALNRANKS": "2", "MPI_LOCALRANKID": "0"}, (0, 2)),
    ({"PMI_SIZE": "1", "PMI_RANK": "0"}, None),       # one process: nothing to say
    ({"PMI_SIZE": "x"}, None),
    ({}, None),
])
def test_mpi_world_reads_the_launchers_variables(env, world):
    from nn_legacy import __main__ as demo
    assert demo.mpi_world(env) == world


def test_under_mpiexec_without_distributed_it_says_to_add_it(no_launcher, capsys):
    from nn_legacy import __main__ as demo
    no_launcher.setenv("OMPI_COMM_WORLD_SIZE", "2")
    no_launcher.setenv("OMPI_COMM_WORLD_RANK", "0")
    assert demo.main(["--epochs", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        "error: started as 2 processes (by mpiexec or srun), but without --distributed each would train a copy of "
        "its own: add --distributed (mpiexec -n 2 python -m nn_legacy --distributed)\n")
    no_launcher.setenv("OMPI_COMM_WORLD_RANK", "1")   # the other ranks stop without repeating it
    assert demo.main(["--epochs", "1"]) == 2
    assert capsys.readouterr() == ("", "")


def test_distributed_without_mpiexec_says_how_to_launch(no_launcher, capsys):
    from nn_legacy import __main__ as demo
    no_launcher.setitem(__import__("sys").modules, "mpi4py", None)
    assert demo.main(["--distributed"]) == 2   # (and without mpi4py, what to install)
    captured = capsys.readouterr()
    assert captured.out == ("note: --distributed without mpiexec runs one rank alone; launch several with "
                            "mpiexec -n 2 python -m nn_legacy --distributed\n")
    assert "needs mpi4py" in captured.err


# ---------------------------------------------------------------- .cuda() without a GPU
@emulator_only
def test_cuda_on_the_emulator_warns_once(monkeypatch):
    import warnings
    import thnn.cuda as cuda
    monkeypatch.setattr(cuda, "_emulator_warned", [])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.Linear(3, 2).float().cuda()
        nn.MSECriterion().cuda()
        nn.Tanh().cuda(cuda.emulator())   # the emulator named: meant
    emulated = [w for w in caught if issubclass(w.category, cuda.EmulatorWarning)]
    if cuda.is_available():
        assert cuda.default().name == "gpu" and emulated == []
        return
    assert cuda.default().name == "emulator"
    assert [str(w.message) for w in emulated] == [
        f"thnn.cuda: {cuda.gpu_unavailable_reason()}, so .cuda() runs on the CPU emulator, which is for testing the "
        f"CUDA twins and about 10x slower than the host kernels: keep the model on the host (or call "
        f".cuda(thnn.cuda.emulator()) to say the emulator is meant)"]
    assert emulated[0].filename == __file__   # it points at the user's .cuda() call


# ---------------------------------------------------------------- load_lua keeps the training flag
def _t7_model(path, train):
    from t7_writer import T7Object, t7_bytes
    bn = T7Object("nn.BatchNormalization", {"train": train, "eps": 1e-5, "momentum": 0.1, "affine": False,
                                            "running_mean": np.zeros(3), "running_var": np.ones(3)})
    model = T7Object("nn.Sequential", {"modules": {1: T7Object("nn.Linear", {"weight": np.eye(3), "bias": np.zeros(3),
                                                                             "train": train}),
                                                   2: bn, 3: T7Object("nn.Dropout", {"p": 0.5, "v2": True,
                                                                                      "train": train})},
                                       "train": train})
    path.write_bytes(t7_bytes(T7Object("nn.Sequential", {"modules": {1: model}, "train": train})))
    return str(path)


def test_load_lua_says_the_model_is_in_training_mode(tmp_path):
    from nn_legacy.t7 import TrainingModeWarning
    path = _t7_model(tmp_path / "trained.t7", True)
    with pytest.warns(TrainingModeWarning) as record:
        model = nn.load_lua(path)
    assert [str(w.message) for w in record] == [
        f"{path}: the model is in training mode, as saved (Torch7 kept the flag): BatchNormalization, Dropout "
        f"compute as in training (Dropout drops, batch normalization uses each batch's statistics); call "
        f"model.evaluate() before inference"]
    assert record[0].filename == __file__
    assert model.get(0).get(2).train is True   # kept, as Torch7 did
    doc = " ".join(nn.load_lua.__doc__.split())
    assert "The training flag loads as saved, as Torch7's torch.load kept it" in doc and "model.evaluate()" in doc


def test_load_lua_of_a_model_saved_in_evaluation_mode_says_nothing(tmp_path):
    import warnings
    path = _t7_model(tmp_path / "eval.t7", False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = nn.load_lua(path)
    assert model.get(0).get(2).train is False


def test_seqlstm_docstring_gives_the_constructor_signature():
    import inspect
    doc = " ".join(nn.SeqLSTM.__doc__.split())
    assert str(inspect.signature(nn.SeqLSTM)) == "(inputsize, hiddensize, outputsize=None)"
    assert f"``SeqLSTM{inspect.signature(nn.SeqLSTM)}``" in doc


# ---------------------------------------------------------------- Torch7 habits, caught on the first call
ONE_BASED = ("{name}: no target of the first batch is 0 (all are in 1..3); targets are 0-based class indices here "
             "(Torch7's were 1-based): if they come from Torch7 code, subtract 1")
PROBABILITIES = ("ClassNLLCriterion: the input looks like probabilities (no value below 0, each row sums to 1); it "
                 "takes log-probabilities: use LogSoftMax rather than SoftMax before it, or CrossEntropyCriterion "
                 "on raw scores")
SCORES = np.tile([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3], [0.0, 0.1, 0.2], [-2.0, 1.0, 0.5]], (3, 1))   # 12 = 4n
PROBS = np.exp(SCORES) / np.exp(SCORES).sum(axis=1, keepdims=True)


def batch(*targets):
    """12 targets (a first batch of 4n for n = 3 classes: enough to tell), these repeated."""
    return np.tile(targets, 12 // len(targets))


def habit_warnings(calls):
    import warnings
    from nn_legacy._helpers.habits import Torch7HabitWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for call in calls:
            call()
    found = [w for w in caught if issubclass(w.category, Torch7HabitWarning)]
    assert all(w.filename == __file__ for w in found), [w.filename for w in found]   # the user's forward call
    return [str(w.message) for w in found]


@pytest.mark.parametrize("make, input, target, says", [
    (nn.ClassNLLCriterion, np.log(PROBS), batch(1, 2, 2, 1), [ONE_BASED.format(name="ClassNLLCriterion")]),
    (nn.CrossEntropyCriterion, SCORES, batch(1, 2, 2, 1), [ONE_BASED.format(name="CrossEntropyCriterion")]),
    (nn.ClassNLLCriterion, PROBS, batch(0, 2, 1, 0), [PROBABILITIES]),
    (nn.ClassNLLCriterion, PROBS.astype(np.float32), batch(1, 2, 2, 1), [ONE_BASED.format(name="ClassNLLCriterion"),
                                                                     PROBABILITIES]),
    (nn.ClassNLLCriterion, np.log(PROBS), batch(-100, 2, 1, 2), [ONE_BASED.format(name="ClassNLLCriterion")]),
    (nn.ClassNLLCriterion, np.log(PROBS), batch(0, 2, 1, 0), []),           # the right habits: nothing
    (nn.CrossEntropyCriterion, SCORES, batch(0, 2, 1, 0), []),
    (nn.CrossEntropyCriterion, PROBS, batch(0, 2, 1, 0), []),              # (raw scores may be anything)
    (nn.ClassNLLCriterion, np.log(PROBS), batch(-100, 0, 1, -100), []),    # ignore_index is not a target
    (lambda: nn.CrossEntropyCriterion(ignore_index=-1), SCORES, batch(-1, 2, 1, 2),
     [ONE_BASED.format(name="CrossEntropyCriterion")]),
    (nn.ClassNLLCriterion, np.log(PROBS[:11]), batch(1, 2, 2, 1)[:11], []),   # fewer than 4n tell too little
])
def test_first_call_warns_about_torch7_habits(make, input, target, says):
    criterion = make()
    assert habit_warnings([lambda: criterion.forward(input, target)]) == says
    assert habit_warnings([lambda: criterion.forward(input, target)]) == []   # once per criterion
    assert habit_warnings([lambda: make().forward(input, target)]) == says    # and again for another one


def test_a_1_based_target_out_of_range_gets_the_warning_with_the_error():
    from nn_legacy._helpers.habits import Torch7HabitWarning
    with pytest.warns(Torch7HabitWarning, match="targets are 0-based class indices here"), \
            pytest.raises(ValueError, match="target 3 at index 2 is out of range"):
        nn.ClassNLLCriterion().forward(np.log(PROBS), batch(1, 2, 3, 1))


def test_a_model_ending_in_logsoftmax_with_0_based_targets_is_quiet():
    model = nn.Sequential().add(nn.Linear(3, 3)).add(nn.LogSoftMax())
    criterion = nn.ClassNLLCriterion()
    assert habit_warnings([lambda: criterion.forward(model.forward(SCORES), batch(0, 1, 2, 1))]) == []


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_the_torch7_habits_guide_lists_each_habit_and_its_warning():
    import os
    from nn_legacy import t7
    from nn_legacy._helpers import habits as _habits
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "guides",
                        "torch7-habits.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for habit in ("Class targets 1..n", "without `.copy()`", "zeroGradParameters()",
                  "ClassNLLCriterion` on probabilities", "Batch-first sequences", "after `flattenParameters()`",
                  "saved during training"):
        assert habit in text, habit
    assert "`Torch7HabitWarning`" in text and _habits.Torch7HabitWarning
    assert "`TrainingModeWarning`" in text and t7.TrainingModeWarning

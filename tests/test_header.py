"""The contract, thnn_c/generic/THNN.h: every declaration is read, documented,
and reaches both backends; the parser refuses a malformed declaration."""
import os
import re

import pytest

import thnn
from thnn import _header
from thnn._thnn import lib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER_PATH = os.path.join(ROOT, "thnn_c", "generic", "THNN.h")


def header_text():
    with open(HEADER_PATH, encoding="ascii") as f:
        return f.read()


def declared_names(text):
    """Every THNN_(name)( in the text outside comments, found more loosely
    than the parser looks (any return type, any spacing)."""
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    code = re.sub(r"//[^\n]*", "", code)
    return re.findall(r"THNN_\(\s*(\w+)\s*\)\s*\(", code)


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_the_extension_was_built_from_this_header():
    # the binding reads the header text compiled into the extension; a stale
    # build (header edited, extension not rebuilt) would disagree with the file
    assert _header.parse(header_text()) == thnn.FUNCTIONS


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_every_declaration_is_parsed():
    names = declared_names(header_text())
    assert names, "found no declaration at all"
    assert [f.name for f in thnn.FUNCTIONS] == names
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("function", thnn.FUNCTIONS, ids=lambda f: f.name)
def test_each_declaration_follows_the_contract(function):
    layer, _, verb = function.name.partition("_")
    assert layer and verb, f"{function.name}: names are Layer_verb"
    state, *args = function.args
    assert (state.name, state.ctype) == ("state", "THNNState*")
    assert args, f"{function.name} takes nothing but the state"
    assert any(a.is_tensor for a in args)
    for a in function.args:
        assert a.doc.strip(), f"{function.name}: {a.name} has an empty comment"
        assert a.tags <= set(_header.TAGS)
        if a.tags:
            assert a.is_tensor, f"{function.name}: tags on the scalar {a.name}"
    if any("INPLACE" in a.tags for a in args):
        assert any(a.name == "inplace" and a.ctype == "bool" for a in args)


def test_comment_tags_are_read_and_sizes_are_not_tags():
    by_name = {f.name: f for f in thnn.FUNCTIONS}
    acc = {a.name: a for a in by_name["Linear_accGradParameters"].args}
    assert acc["gradWeight"].tags == {"INOUT"}
    assert acc["gradBias"].tags == {"INOUT", "OPTIONAL"}
    assert acc["bias"].tags == {"OPTIONAL"}
    assert acc["input"].tags == frozenset()          # "[nIn]" in its comment is a size
    assert "[nIn]" in acc["input"].doc
    assert acc["scale"].ctype == "accreal" and not acc["scale"].is_tensor
    nll = {a.name: a for a in by_name["ClassNLLCriterion_updateOutput"].args}
    assert nll["target"].is_index and nll["target"].is_tensor
    assert nll["output"].tags == {"OUT"} and nll["total_weight"].tags == {"OUT"}
    thr = {a.name: a for a in by_name["Threshold_updateOutput"].args}
    assert thr["input"].tags == {"INPLACE"}


@pytest.mark.parametrize("backend", [thnn.Float, thnn.Double], ids=repr)
def test_every_function_is_in_both_backends(backend):
    real = backend.real
    for f in thnn.FUNCTIONS:
        kernel = getattr(backend, f.name)
        assert isinstance(kernel, thnn.Kernel)
        assert kernel.function is f and kernel.real == real
        assert hasattr(lib, f"THNN_{real}{f.name}")
        for a in f.args[1:]:                      # the docstring lists every argument
            assert f"{a.name}: " in kernel.__doc__


# ---- the parser refuses what breaks the contract ----

GOOD = """
TH_API int THNN_(Foo_updateOutput)(
          THNNState *state,            // library state
          THTensor *input,             // input, any shape
          THTensor *output);           // [OUT] output
"""


def test_the_good_example_parses():
    (f,) = _header.parse(GOOD)
    assert f.name == "Foo_updateOutput"
    assert [a.name for a in f.args] == ["state", "input", "output"]
    assert f.args[2].tags == {"OUT"}


@pytest.mark.parametrize("text, message", [
    (GOOD.replace("// input, any shape", ""), "cannot read argument line"),
    (GOOD.replace("THNNState *state,            // library state\n", ""), "first argument must be THNNState"),
    (GOOD.replace("[OUT]", "[OUTPUT]"), "unknown tag"),
    (GOOD.replace("[OUT]", "[OUT] [INOUT]"), "conflicting tags"),
    (GOOD.replace("[OUT]", "[INPLACE]"), "no 'bool inplace' argument"),
    (GOOD.replace("THTensor *input,             // input, any shape",
                  "accreal input,               // [OPTIONAL] a scalar"), "only tensors take tags"),
    (GOOD.replace("THTensor *input,             // input, any shape",
                  "THTensor *input, THTensor *x, // two on one line"), "cannot read argument line"),
    (GOOD.replace("*output);", "*input);"), "two arguments named input"),
    (GOOD + GOOD, "declared twice"),
    (GOOD + GOOD.replace("int THNN_(Foo_updateOutput)", "void THNN_(Foo_updateGradInput)"), "must return int"),
    (GOOD + GOOD.replace("THNN_(Foo_updateOutput)(", "THNN_(Bar_updateOutput) ("), "cannot read the declaration"),
    # a declaration missing its ");": alone, and followed by another one
    (GOOD.replace(");           // [OUT] output", ",           // [OUT] output"), "cannot read the declaration"),
    (GOOD.replace(");           // [OUT] output", ",           // [OUT] output") + GOOD.replace("Foo", "Bar"),
     "cannot read argument line"),
    ("/* nothing here */", "declares no function"),
    ("", "declares no function"),
])
def test_a_malformed_declaration_is_refused(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        _header.parse(text)


def test_errors_name_the_declaration():
    with pytest.raises(ValueError, match=r"THNN\.h, Foo_updateOutput: "):
        _header.parse(GOOD.replace("[OUT]", "[OUTPUT]"))


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_cdef_expands_every_kernel_for_float_and_double():
    with open(os.path.join(ROOT, "thnn_c", "THGeneral.h"), encoding="ascii") as f:
        general = f.read()
    with open(os.path.join(ROOT, "thnn_c", "generic", "THTensor.h"), encoding="ascii") as f:
        tensor = f.read()
    cdef = _header.cdef(general, tensor, header_text())
    for f in thnn.FUNCTIONS:
        for real in ("Float", "Double"):
            assert f"int THNN_{real}{f.name}(" in cdef
    for generic_word in ("THTensor ", "THIndexTensor", "accreal", "real ", "THNN_(", "TH_MAX_DIM"):
        assert generic_word not in cdef

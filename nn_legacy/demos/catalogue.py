"""The catalogue of nn_legacy's classes, from the classes themselves:
``python -m nn_legacy --layers``.

One row per module and criterion class of ``nn_legacy.__all__`` (less the
bases Module and Criterion), in name order: its kind, the THNN kernel it
calls (``_kernel``, '-' for a class written in numpy), whether it runs on a
CUDA device (``_cuda_unsupported`` says why not), whether it exports to ONNX
(``nn_legacy.onnx.support``; '-' for a criterion, which is not exported:
``nn_legacy.onnx.support_table()`` gives each module's ONNX form or why it
has none) and the first sentence of its docstring.  Nothing in it is kept by
hand: a new class is in it once its file is in the package."""
import re

import nn_legacy as nn

from ..onnx import support

_BASES = ("Module", "Criterion")
COLUMNS = ("class", "kind", "kernel", "CUDA", "ONNX", "summary")


def classes():
    """The catalogued classes, (name, class) in name order."""
    return [(name, getattr(nn, name)) for name in sorted(nn.__all__)
            if isinstance(getattr(nn, name), type) and issubclass(getattr(nn, name), (nn.Module, nn.Criterion))
            and name not in _BASES]


def _kind(cls):
    if issubclass(cls, nn.Criterion):
        return "criterion"
    return "container" if issubclass(cls, nn.Container) else "module"


SUMMARY_WIDTH = 100
# a full stop that ends a sentence: not "e.g.", "i.e.", "et al." or "..", before a capital or the end
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bal)(?<!\.)\.(?=\s+[A-Z`(]|$)|::?$")


def summary(cls):
    """The first sentence of the class's own docstring, on one line, cut
    at a word to at most SUMMARY_WIDTH characters (marked by ' ...')."""
    paragraph = (cls.__dict__.get("__doc__") or "").strip().split("\n\n")[0]
    text = " ".join(paragraph.split())
    end = _SENTENCE_END.search(text)
    text = text[:end.start()] + "." if end else text
    if len(text) > SUMMARY_WIDTH:
        text = text[:SUMMARY_WIDTH - 4].rsplit(" ", 1)[0] + " ..."
    return text


def rows():
    """The catalogue, one tuple of COLUMNS per class."""
    out = []
    for name, cls in classes():
        cuda = "no" if cls._cuda_unsupported else "yes"
        onnx = "-" if issubclass(cls, nn.Criterion) else "yes" if support(cls)[0] else "no"
        out.append((name, _kind(cls), cls._kernel or "-", cuda, onnx, summary(cls)))
    return out


def text(table=None):
    """The catalogue as aligned columns of text (the summary last, unpadded)."""
    table = [COLUMNS] + (rows() if table is None else table)
    widths = [max(len(row[i]) for row in table) for i in range(len(COLUMNS) - 1)]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1] for row in table)

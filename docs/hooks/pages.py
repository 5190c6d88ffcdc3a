"""MkDocs hook: the pages that are generated rather than written.

- ``reference/layers/<family>.md``: one ``::: nn_legacy.<Class>`` block for
  every class of ``nn_legacy.__all__``, grouped by family (``FAMILIES``
  below); mkdocstrings renders each from its docstring.  A class that no rule
  places lands on the activations page, and a family left empty fails the
  build, so a new layer is documented without an edit here.
- ``reference/optim.md``: the optimisers of ``nn_legacy.optim.__all__``.
- ``benchmarks.md``, ``inference-log.md`` and ``security.md``:
  benchmarks/README.md, benchmarks/inference-log.md and SECURITY.md as they
  are in the repository (a link to README.md made one to benchmarks.md), so
  that the site links to them without a copy to keep in step.

The build imports nn_legacy: run mkdocs from the repository root after the
extension is built (``pip install -e ".[docs]"``).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (page, title, rule): the first rule that takes a class places it
FAMILIES = [
    ("base", "Base classes", "Module, Criterion and Container, which every layer extends, and the trainer."),
    ("recurrent", "Recurrent modules", "The rnn package's cells, step modules and sequencers; torch-rnn's layers."),
    ("criterions", "Criterions", "Losses: forward(input, target) returns a float, backward the gradient."),
    ("containers", "Containers", "Modules that hold and chain other modules, and the decorators."),
    ("convolutions", "Convolutions", "Temporal, spatial and volumetric convolutions."),
    ("pooling", "Pooling, padding and resampling", "Pooling and unpooling, padding, up-sampling, the grid sampler."),
    ("normalization", "Normalization and dropout", "Batch, instance, layer and local normalizations; dropouts."),
    ("linear", "Linear, sparse and embedding layers", "Layers with a weight matrix or a table of embeddings."),
    ("tables", "Tables, shapes and utilities", "Reshaping, table (list) plumbing and debugging modules."),
    ("activations", "Activations and elementwise math", "Elementwise functions, softmaxes and the rest."),
]

_RECURRENT = {"AbstractRecurrent", "AbstractSequencer", "MaskZero", "SeqReverseSequence", "LSTMCellFused",
              "GRUCellFused", "VanillaRNN", "LanguageModel", "MaskZeroCriterion", "LookupTableMaskZero",
              "Recurrence", "LinearRNN", "LookupRNN", "SeqBRNN", "SeqBLSTM", "SeqBGRU", "ReverseUnreverse",
              "ReverseSequence", "ReverseTable", "RepeaterCriterion", "SAdd",
              "ArgMax", "CopyGrad", "TotalDropout", "NormStabilizer",
              "MuFuRu", "VariableLength"}
_LINEAR = {"Linear", "LinearNoBias", "LinearWeightNorm", "Bilinear", "SparseLinear", "IndexLinear", "LookupTable",
           "PartialLinear", "Cosine", "Euclidean", "WeightedEuclidean", "Add", "Mul", "CMul", "CAdd", "Maxout",
           "DotProduct", "CosineDistance", "PairwiseDistance", "MM", "MV", "Kmeans"}
_POOLING = ("Pooling", "Padding", "UpSampling", "GridSampler", "PixelShuffle", "ShaveImage", "Unpooling",
            "DynamicKMax", "SubSampling")
_NORMALIZATION = ("Normalization", "LRN", "Dropout", "Normalize", "WhiteNoise")
_TABLES = {"View", "Reshape", "Narrow", "Select", "Squeeze", "Unsqueeze", "Transpose", "Replicate", "Index",
           "MaskedSelect", "Contiguous", "Copy", "Collapse", "Padding", "Identity", "Constant", "OneHot", "Convert",
           "DontCast", "ZeroGrad", "GradientReversal", "PrintSize", "Profile", "NaN", "Max", "Min", "Mean", "Sum",
           "ZipTableOneToMany"}


def family(name):
    """The page of ``nn_legacy.<name>`` (a key of FAMILIES)."""
    import nn_legacy as nn
    cls = getattr(nn, name)
    if name in ("Module", "Criterion", "Container", "StochasticGradient", "Decorator"):
        return "base"
    if name in _RECURRENT or "LSTM" in name or "GRU" in name or "Sequencer" in name or name in (
            "Recurrent", "Recursor", "Repeater"):
        return "recurrent"
    if issubclass(cls, nn.Criterion):
        return "criterions"
    if name in _LINEAR:
        return "linear"
    if "Convolution" in name:
        return "convolutions"
    if any(part in name for part in _POOLING) and name != "Padding":
        return "pooling"
    if any(part in name for part in _NORMALIZATION):
        return "normalization"
    if issubclass(cls, nn.Container):
        return "containers"
    if name in _TABLES or name.endswith("Table"):
        return "tables"
    return "activations"


def classes():
    import nn_legacy as nn
    return [n for n in nn.__all__ if isinstance(getattr(nn, n), type)
            and (issubclass(getattr(nn, n), (nn.Module, nn.Criterion)) or n == "StochasticGradient")]


def entry(obj, public_name):
    """A ``:::`` block for ``obj`` headed ``public_name``.

    mkdocstrings is given the object's defining path (nn_legacy.Linear the
    class shares its name with the file nn_legacy/Linear.py, which the
    inspector would document instead) and the public name as its heading.
    Of a class it shows the documented methods the class defines itself:
    its public class attributes are plain values (an ``inplace = False``),
    which the inspector would document with their type's docstring."""
    path = f"{obj.__module__}.{obj.__qualname__}"
    lines = [f"::: {path}", "    options:", f'      heading: "{public_name}"',
             f'      toc_label: "{public_name.rsplit(".", 1)[-1]}"']
    if isinstance(obj, type):
        methods = [name for name, value in vars(obj).items()
                   if not name.startswith("_") and isinstance(value, (property, staticmethod, classmethod))
                   or not name.startswith("_") and callable(value) and getattr(value, "__doc__", None)]
        lines.append(f"      members: [{', '.join(methods)}]" if methods else "      members: false")
    return "\n".join(lines) + "\n"


def anchor(obj):
    return f"{obj.__module__}.{obj.__qualname__}"


def layer_pages():
    """{path: markdown} of the reference's family pages."""
    import nn_legacy as nn
    groups = {key: [] for key, _, _ in FAMILIES}
    for name in classes():
        groups[family(name)].append(name)
    pages = {}
    for key, title, blurb in FAMILIES:
        if not groups[key]:
            raise ValueError(f"docs/hooks/pages.py: the family {key!r} has no class")
        lines = [f"# {title}", "", blurb, "",
                 "Generated from `nn_legacy.__all__` by `docs/hooks/pages.py`; each entry is the class's "
                 "docstring. `python -m nn_legacy --layers` prints the same classes as a table.", ""]
        lines += [" ".join(f"[`{n}`](#{anchor(getattr(nn, n))})" for n in groups[key]), ""]
        for name in groups[key]:
            lines += [entry(getattr(nn, name), f"nn_legacy.{name}")]
        pages[f"reference/layers/{key}.md"] = "\n".join(lines)
    return pages


def optim_page():
    from nn_legacy import optim
    lines = ["# nn_legacy.optim", "", "Torch7's optimisers: each takes `feval(x) -> (loss, gradient)`, the flat "
             "parameter vector `x` (updated in place), a config dict and a state dict "
             "([getting started](../guides/getting-started.md#optimisers)). Generated from `optim.__all__`.", ""]
    lines += [entry(getattr(optim, name), f"nn_legacy.optim.{name}") for name in optim.__all__]
    return "\n".join(lines)


def _copied(path, title, links=()):
    """The file at path as a page; links: (target in the repository, page) pairs, rewritten as links."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    for target, page in links:
        text = text.replace(f"]({target}", f"]({page}")
    note = f"\n\n*This page is `{path}` of the repository, included as it is.*\n"
    return text + note if text.startswith("#") else f"# {title}\n\n{text}{note}"


def on_files(files, config):
    from mkdocs.structure.files import File   # here, so that tests/test_docs.py imports this file without mkdocs
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    pages = layer_pages()
    pages["reference/optim.md"] = optim_page()
    pages["benchmarks.md"] = _copied("benchmarks/README.md", "Benchmarks")
    pages["inference-log.md"] = _copied("benchmarks/inference-log.md", "Inference speed: the record",
                                        [("README.md", "benchmarks.md")])
    pages["security.md"] = _copied("SECURITY.md", "Security")
    for path, content in pages.items():
        files.append(File.generated(config, path, content=content))
    return files

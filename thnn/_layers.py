"""Which generic files are layers: the lists the build derives from the files.

Nothing here is kept by hand, layer by layer.  A *layer* is a name that
``thnn_c/generic/THNN.h`` declares kernels of (``THNN_(<Layer>_<verb>)``), and
its files are found by that name:

- ``thnn_c/generic/<Layer>.c``: its CPU kernels.  Every layer has one.
- ``thcunn_cu/generic/<Layer>.cu``: its CUDA twin.  The layer has a twin
  exactly when this file exists.

The contract of a twin: it has exactly the prototype of its CPU kernel (THC.h
declares the twins by expanding THNN.h under the Cuda names, so the compiler
holds each twin to it), the same arguments, tags and meaning; THNN.h, with
its comment on every argument, is the contract for both.  Every function
THNN.h declares for the layer is defined in the layer's file, as
``THNN_(<Layer>_<verb>)`` (``THNN_Cuda<name>`` for float,
``THNN_CudaDouble<name>`` for double on the CUDA side).  The build stops,
naming the file and the function, when a layer's file misses one, and when
a layer of THNN.h has no C file.

Every other generic file is a helper, not a layer: ``thnn_c/generic/THBlas.c``,
``THTensor.c`` and ``THVector.c`` are included by the top-level files of the
same names; the CUDA helpers (the tensor, cuBLAS and tensor-math files, the
drivers several twins share) are included by hand at the top of
``thcunn_cu/init.cu``, before the twins.  tests/test_layout.py checks that
every generic file is one or the other.  A layer's file relies on helpers
only, never on another layer's file: the build compiles the layers in parts
(``PARTS``, below), each part a translation unit of its own.

The build (thnn/_build.py, thnn/_build_cuda.py) writes the include lines of
the layer files, in name order, to ``build/generated/THNN_layers.h`` (which
``thnn_c/init.c`` includes) and ``build/generated/THCUNN_layers.h`` (which
``thcunn_cu/init.cu`` includes).  The CUDA libraries also carry the text of
the latter, which the binding reads (thnn/_header.twin_layers) to know which
layers have a twin.

Run as a script, it prints the two lists (``python thnn/_layers.py``)."""
import glob
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "thnn_c")
CUSRC = os.path.join(ROOT, "thcunn_cu")
GENERATED = os.path.join(ROOT, "build", "generated")

# (source folder, file extension, the header that expands a generic file, the generated header)
CPU = (SRC, "c", "THGenerateFloatTypes.h", "THNN_layers.h")
CUDA = (CUSRC, "cu", "THCGenerateFloatTypes.h", "THCUNN_layers.h")


def layers(functions):
    """The layers of THNN.h's functions (thnn/_header.parse), sorted."""
    return sorted({f.layer for f in functions})


def layer_files(functions, kind, texts=None):
    """The layers of ``functions`` that have a file in kind's generic folder
    (kind: CPU or CUDA), sorted.  ``texts`` maps a file name to its text (for
    a test); by default the files are read from the folder.

    Raises ValueError when a layer's file misses a function THNN.h declares
    for it, and (CPU) when a layer has no file."""
    folder, ext, _, _ = kind
    if texts is None:
        texts = {}
        for path in glob.glob(os.path.join(folder, "generic", f"*.{ext}")):
            with open(path, encoding="ascii") as f:
                texts[os.path.basename(path)] = f.read()
    found = []
    for layer in layers(functions):
        name = f"{layer}.{ext}"
        if name not in texts:
            if kind is CPU:
                raise ValueError(f"THNN.h declares the layer {layer}, but thnn_c/generic/{name} does not exist")
            continue
        defined = set(re.findall(r"\bint\s+THNN_\((\w+)\)\s*\(", texts[name]))
        missing = [f.name for f in functions if f.layer == layer and f.name not in defined]
        if missing:
            raise ValueError(f"{os.path.basename(folder)}/generic/{name} does not define {', '.join(missing)} "
                             f"(THNN.h declares them for the layer {layer}: each is int THNN_(<Layer>_<verb>)(...))")
        found.append(layer)
    return found


def includes_text(names, kind):
    """The generated header of kind: one generic file per layer, expanded for
    float and double, in the order given."""
    folder, ext, generate, header = kind
    lines = [f"/* {header}: written by the build (thnn/_layers.py) from the files "
             f"{os.path.basename(folder)}/generic/<Layer>.{ext}; do not edit. */"]
    for name in names:
        lines.append(f'#define TH_GENERIC_FILE "generic/{name}.{ext}"\n#include "{generate}"')
    return "\n".join(lines) + "\n"


def write_text(path, text):
    """Writes text to path only when it changed (so an unchanged list
    rebuilds nothing), atomically."""
    try:
        with open(path, encoding="ascii") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="ascii") as f:
        f.write(text)
    os.replace(tmp, path)   # a build running beside this one reads the old text or the new, never half


def write(kind, functions, directory=GENERATED):
    """Writes kind's generated header under directory and returns its text."""
    text = includes_text(layer_files(functions, kind), kind)
    write_text(os.path.join(directory, kind[3]), text)
    return text


# The layer files are compiled as PARTS translation units, so that a build
# on several cores compiles them side by side (thnn/_build_ext.py); one unit
# of every layer took most of a build's time on one core.  Each part is a
# unit of its own that includes thnn_c/init.c (thcunn_cu/init.cu) with the
# list of its layers: what the layers share are static helpers in headers
# and templates, so every part compiles and links on its own.
PARTS = 4
# kind: (the macro init.c / init.cu read the list's name from, the unit's name, its extension)
_UNIT = {CPU[3]: ("THNN_LAYERS", "THNN_part", "c"), CUDA[3]: ("THCUNN_LAYERS", "THCUNN_part", "cpp")}


def cpu_sources(functions):
    """The CPU library's C files, relative to the repository: the top-level
    files of thnn_c/ with the parts of the layer files in place of init.c."""
    tops = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(SRC, "*.c")))
    return [p for p in tops if os.path.basename(p) != "init.c"] + write_parts(CPU, functions)


def split(names, sizes, count=PARTS):
    """names in count groups of about equal total size (sizes: name -> size),
    each in name order; the largest go first, each to the lightest group."""
    groups = [[] for _ in range(min(count, len(names)))]
    load = [0] * len(groups)
    for name in sorted(names, key=lambda n: (-sizes[n], n)):
        k = load.index(min(load))
        groups[k].append(name)
        load[k] += sizes[name]
    return [sorted(g) for g in groups]


def write_parts(kind, functions, directory=GENERATED, count=PARTS):
    """Writes the parts of kind's layer files (their lists and their units)
    under directory; returns the units' paths, relative to the repository."""
    folder, ext, _, header = kind
    names = layer_files(functions, kind)
    sizes = {n: os.path.getsize(os.path.join(folder, "generic", f"{n}.{ext}")) for n in names}
    macro, unit, unit_ext = _UNIT[header]
    stem = header[:-len(".h")]
    units = []
    for k, group in enumerate(split(names, sizes, count)):
        write_text(os.path.join(directory, f"{stem}_part{k}.h"), includes_text(group, kind))
        path = os.path.join(directory, f"{unit}{k}.{unit_ext}")
        write_text(path, f"/* {unit}{k}.{unit_ext}: written by the build (thnn/_layers.py); do not edit.\n"
                          f" * Part {k} of the layer files, one translation unit. */\n"
                          f'#define {macro} "{stem}_part{k}.h"\n'
                          f'#include "init.{ext}"\n')
        units.append(os.path.relpath(path, ROOT))
    return units


if __name__ == "__main__":
    import sys
    sys.path.insert(0, HERE)
    import _header
    with open(os.path.join(SRC, "generic", "THNN.h"), encoding="ascii") as f:
        fns = _header.parse(f.read())
    for kind in (CPU, CUDA):
        print(includes_text(layer_files(fns, kind), kind))

"""Reads the kernel contract, ``thnn_c/generic/THNN.h``.

The same parser serves the build (which turns the header into the cffi cdef
for Float and Double) and the binding at run time (which reads the header
text compiled into the extension, so the two can never disagree).  Nothing
here imports the extension.
"""
import re
from dataclasses import dataclass

TAGS = ("OUT", "BUFFER", "INOUT", "INPLACE", "OPTIONAL")
TYPES = {"Float": "float", "Double": "double"}
# the CUDA twins: name prefix -> (the CPU type name whose struct they share, C type)
CUDA_TYPES = {"Cuda": ("Float", "float"), "CudaDouble": ("Double", "double")}

_FUNCTION = re.compile(r"TH_API\s+int\s+THNN_\((\w+)\)\((.*?\);[^\n]*)", re.S)  # through the last comment
# the device tensor math of thcunn_cu/generic/THCTensorMath.h, declared the same way
MATH_PREFIX, MATH_SOURCE = "THCTensor_", "THCTensorMath.h"
_ARG = re.compile(r"^\s*(?P<type>(?:const\s+)?\w+\s*\*?)\s*(?P<name>\w+)\s*(?:,|\);?)\s*//\s*(?P<doc>.+?)\s*$")


@dataclass(frozen=True)
class Arg:
    name: str
    ctype: str      # as written in the header: 'THTensor*', 'THIndexTensor*', 'accreal', 'bool', ...
    tags: frozenset
    doc: str

    @property
    def is_tensor(self):
        return self.ctype in ("THTensor*", "THIndexTensor*") or self.ctype in _FIXED

    @property
    def fixed_real(self):
        """The element type a tensor argument has whatever the function's
        ('Long' for THIndexTensor*, 'Float' for THFloatTensor*, ...), else None."""
        return "Long" if self.is_index else _FIXED.get(self.ctype)

    @property
    def is_index(self):
        return self.ctype == "THIndexTensor*"


@dataclass(frozen=True)
class Function:
    name: str       # 'Linear_updateOutput'
    args: tuple     # of Arg, the state first

    @property
    def layer(self):
        return self.name.split("_", 1)[0]

    @property
    def verb(self):
        return self.name.split("_", 1)[1]


_FIXED = {"THFloatTensor*": "Float", "THDoubleTensor*": "Double", "THLongTensor*": "Long"}


def _function_pattern(prefix):
    return _FUNCTION if prefix == "THNN_" else re.compile(
        rf"TH_API\s+int\s+{prefix}\((\w+)\)\((.*?\);[^\n]*)", re.S)


def parse(text, prefix="THNN_", source="THNN.h"):
    """The functions declared in THNN.h, in order, each argument with its tags.
    (With prefix MATH_PREFIX and source MATH_SOURCE: the device tensor math.)

    Raises ValueError for a declaration that breaks the contract's form (an
    argument without its comment, a first argument other than the state)."""
    functions = []
    for match in _function_pattern(prefix).finditer(text):
        name, body = match.group(1), match.group(2)
        args = []
        for line in body.splitlines():
            if not line.strip():
                continue
            m = _ARG.match(line)
            if not m:
                raise ValueError(f"{source}, {name}: cannot read argument line {line.strip()!r} "
                                 "(one argument a line, each with a // comment)")
            doc = m.group("doc")
            tags = frozenset(re.findall(r"\[([A-Z]+)\]", doc))  # sizes such as [nIn] are not tags
            unknown = tags - set(TAGS)
            if unknown:
                raise ValueError(f"{source}, {name}: unknown tag(s) {sorted(unknown)} on {m.group('name')}")
            ctype = re.sub(r"\s+", "", m.group("type"))
            args.append(Arg(m.group("name"), ctype, tags, re.sub(r"\[[A-Z]+\]\s*", "", doc)))
        if not args or args[0].ctype != "THNNState*":
            raise ValueError(f"{source}, {name}: the first argument must be THNNState *state")
        _check_tags(name, args, source)
        if any(f.name == name for f in functions):
            raise ValueError(f"{source}, {name}: declared twice")
        functions.append(Function(name, tuple(args)))
    _check_all_read(text, functions, prefix, source)
    if not functions:
        raise ValueError(f"{source} declares no function")
    return functions


def _check_tags(name, args, source="THNN.h"):
    names = [a.name for a in args]
    for a in args:
        if names.count(a.name) > 1:
            raise ValueError(f"{source}, {name}: two arguments named {a.name}")
        if a.tags and not a.is_tensor:
            raise ValueError(f"{source}, {name}: {a.name} is a {a.ctype}, only tensors take tags {sorted(a.tags)}")
        if len(a.tags & {"OUT", "BUFFER", "INOUT"}) > 1:
            raise ValueError(f"{source}, {name}: {a.name} has conflicting tags {sorted(a.tags)}")
        if "INPLACE" in a.tags and not any(b.name == "inplace" and b.ctype == "bool" for b in args):
            raise ValueError(f"{source}, {name}: {a.name} is [INPLACE] but the kernel has no 'bool inplace' argument")


def _check_all_read(text, functions, prefix="THNN_", source="THNN.h"):
    """Every THNN_(name)(...) declared in the text must have been read: a
    declaration the pattern skipped (say one returning void) is an error, not
    a kernel silently missing from the binding."""
    read = {f.name for f in functions}
    for m in re.finditer(rf"(\w+)\s*\*?\s*{prefix}\((\w+)\)\s*\(", _strip_comments(text)):
        if m.group(2) not in read:
            reason = "every kernel must return int" if m.group(1) != "int" else "cannot read the declaration"
            raise ValueError(f"{source}, {m.group(2)}: {reason} (TH_API int {prefix}(Name)(THNNState *state, ...))")


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _cdef_section(text):
    m = re.search(r"/\* cdef-begin \*/(.*?)/\* cdef-end \*/", text, re.S)
    if not m:
        raise ValueError("no cdef section")
    return _strip_comments(m.group(1))


def _expand(text, real_name, ctype):
    text = re.sub(r"\bTH(Storage|Tensor)_\((\w+)\)", rf"TH{real_name}\1_\2", text)
    text = re.sub(r"THNN_\((\w+)\)", rf"THNN_{real_name}\1", text)
    text = re.sub(r"\bTHIndexTensor\b", "THLongTensor", text)
    text = re.sub(r"\bTHStorage\b", f"TH{real_name}Storage", text)
    text = re.sub(r"\bTHTensor\b", f"TH{real_name}Tensor", text)
    text = re.sub(r"\baccreal\b", "double", text)
    text = re.sub(r"\breal\b", ctype, text)
    return text.replace("TH_API ", "")


def _expand_device(text, real_name, ctype):
    """thcunn_cu's device-memory helpers: THCTensor_(copy) -> THCFloatTensor_copy."""
    text = re.sub(r"\bTHC(Storage|Tensor)_\((\w+)\)", rf"THC{real_name}\1_\2", text)
    return _expand(text, real_name, ctype)


def twin_layers(layers_text):
    """The layers that have a CUDA twin, from the text of the generated
    build/generated/THCUNN_layers.h (thnn/_layers.py): one
    ``#define TH_GENERIC_FILE "generic/<Layer>.cu"`` line per twin."""
    return re.findall(r'^#define TH_GENERIC_FILE "generic/(\w+)\.cu"\s*$', layers_text, re.M)


def twin_functions(thnn_h, layers_text):
    """The functions of THNN.h whose layer has a twin, in THNN.h's order.
    A twin of a layer that THNN.h does not have is an error."""
    functions = parse(thnn_h)
    layers = twin_layers(layers_text)
    unknown = sorted(set(layers) - {f.layer for f in functions})
    if unknown:
        raise ValueError(f"twins of layers that THNN.h does not declare: {unknown}")
    return [f for f in functions if f.layer in set(layers)]


# thcunn_cu/THCSelfTest.cu: what the twins rely on, checked on every device
SELF_TESTS = """
int THCSelfTest_sum(THNNState *state, THDoubleTensor *input, THDoubleTensor *output);
int THCSelfTest_checkRange(THNNState *state, THLongTensor *input, int64_t limit);
int THCSelfTest_divergentBarrier(THNNState *state);
int THCSelfTest_badLaunch(THNNState *state);
"""


def cuda_cdef(general_h, tensor_h, thc_tensor_h, thnn_h, layers_text, math_ops_h, math_h):
    """The cffi cdef of the CUDA library: the same TH structs, the device
    helpers and the device tensor math (math_ops_h: THCTensorMath.h's
    operation codes, math_h: generic/THCTensorMath.h) for Float, Double and
    Long, and the twins THNN_Cuda<name> (float) and THNN_CudaDouble<name>
    (double) of the layers that have one (layers_text: see twin_layers)."""
    constants = dict(re.findall(r"#define\s+(TH_MAX_DIM|TH_ERROR_SIZE)\s+(\d+)", general_h))
    parts = [_cdef_section(general_h)]
    for real_name, ctype in (("Float", "float"), ("Double", "double"), ("Long", "int64_t")):
        parts.append(_expand(_cdef_section(tensor_h), real_name, ctype))
        parts.append(_expand_device(_cdef_section(thc_tensor_h), real_name, ctype))
    parts.append(_cdef_section(math_ops_h))
    for real_name, ctype in (("Float", "float"), ("Double", "double"), ("Long", "int64_t")):
        parts.append(_expand_device(_cdef_section(math_h), real_name, ctype))
    names = {f.name for f in twin_functions(thnn_h, layers_text)}
    prototypes = "\n".join(m.group(0) for m in _FUNCTION.finditer(_strip_comments(thnn_h))
                           if m.group(1) in names)
    for prefix, (real_name, ctype) in CUDA_TYPES.items():
        text = _expand(prototypes.replace("THNN_(", f"THNN_({prefix}"), real_name, ctype)
        parts.append(text.replace(f"THNN_{real_name}{prefix}", f"THNN_{prefix}"))
    parts.append("const char *THNN_headerText(void);")
    parts.append("const char *THCUNN_layersText(void);")
    parts.append("const char *THCTensorMath_headerText(void);")
    parts.append("int THCDeviceCount(int *count);")
    parts.append("int THCSynchronize(THNNState *state);")
    parts.append(SELF_TESTS)
    text = "\n".join(parts)
    for key, value in constants.items():
        text = text.replace(key, value)
    return text


def cdef(general_h, tensor_h, thnn_h):
    """The cffi cdef: the TH structs for Float, Double and Long, then every
    kernel of THNN.h for Float and Double."""
    constants = dict(re.findall(r"#define\s+(TH_MAX_DIM|TH_ERROR_SIZE)\s+(\d+)", general_h))
    parts = [_cdef_section(general_h)]
    for real_name, ctype in (("Float", "float"), ("Double", "double"), ("Long", "int64_t")):
        parts.append(_expand(_cdef_section(tensor_h), real_name, ctype))
    prototypes = "\n".join(m.group(0) for m in _FUNCTION.finditer(_strip_comments(thnn_h)))
    for real_name, ctype in TYPES.items():
        parts.append(_expand(prototypes, real_name, ctype))
    parts.append("const char *THNN_headerText(void);")
    text = "\n".join(parts)
    for key, value in constants.items():
        text = text.replace(key, value)
    return text


# scalar arguments of THNN.h as the binding's C caller (thnn/_call.c) passes
# them: integers and bools from an int64 array, reals from a double array
SCALAR_SLOTS = {"bool": "i", "int": "i", "int64_t": "i", "accreal": "d", "real": "d", "double": "d", "float": "d"}


def trampolines(thnn_h):
    """C source of one function per kernel and type (Float kernels first,
    then Double, each in the header's order) with a single signature,

        int f(THNNState *state, void *const *tensors, const int64_t *ints, const double *reals)

    that calls the kernel with its tensor arguments from ``tensors``, its
    integer and bool arguments from ``ints`` and its real ones from ``reals``,
    each in order; and ``uintptr_t THNN_trampoline(int k)``, the address of
    the k-th (0 past the end).  thnn/_call.c calls any kernel through them
    without knowing its signature."""
    functions = parse(thnn_h)
    out, names = [], []
    for real_name in TYPES:
        for f in functions:
            taken = {"t": 0, "i": 0, "d": 0}
            args = ["s"]
            for a in f.args[1:]:
                slot = "t" if a.is_tensor else SCALAR_SLOTS[a.ctype]
                value = f"{slot}[{taken[slot]}]"
                taken[slot] += 1
                args.append(f"{value} != 0" if a.ctype == "bool" else value)
            name = f"THNN_{real_name}{f.name}"
            names.append(f"T_{name}")
            out.append(f"static int T_{name}(THNNState *s, void *const *t, const int64_t *i, const double *d)\n"
                       f"{{ return {name}({', '.join(args)}); }}")
    out.append("typedef int (*THNNTrampoline)(THNNState *, void *const *, const int64_t *, const double *);")
    out.append("static const THNNTrampoline THNN_TRAMPOLINES[] = {\n  " + ",\n  ".join(names) + "\n};")
    out.append("uintptr_t THNN_trampoline(int k)\n{\n"
               f"  return k >= 0 && k < {len(names)} ? (uintptr_t)THNN_TRAMPOLINES[k] : 0;\n}}")
    return "\n".join(out) + "\n"

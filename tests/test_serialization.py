"""nn_legacy.save / nn_legacy.load: the file format of nn_legacy.serialization."""
import io
import json
import math
import os
import struct
import tracemalloc
import zlib

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import classes, raises_exactly, uniform

MAGIC = b"\x89NNLEG\r\n"


# ---------------------------------------------------------------- helpers
def dumps(obj):
    f = io.BytesIO()
    nn.save(obj, f)
    return f.getvalue()


def loads(raw):
    return nn.load(io.BytesIO(raw))


def split(raw):
    """(header dict, data section, (major, minor)) of a file, read by the spec."""
    magic, major, minor, crc, hlen = struct.unpack_from("<8sHHIQ", raw)
    assert magic == MAGIC and crc == zlib.crc32(raw[:12] + bytes(4) + raw[16:])
    start = -(-(24 + hlen) // 64) * 64
    assert raw[24 + hlen:start] == bytes(start - 24 - hlen)
    return json.loads(raw[24:24 + hlen]), raw[start:], (major, minor)


def pack(header, data, major=1, minor=0, text=None):
    """A file from its parts, by the spec, with a correct checksum."""
    h = text if text is not None else json.dumps(header).encode()
    body = h + bytes(-(-(24 + len(h)) // 64) * 64 - 24 - len(h)) + data
    crc = zlib.crc32(struct.pack("<8sHHIQ", MAGIC, major, minor, 0, len(h)) + body)
    return struct.pack("<8sHHIQ", MAGIC, major, minor, crc, len(h)) + body


def cleared(obj):
    """What a load leaves None: what clearState empties, and the caches (Module._cache_names)."""
    base = ("gradInput",) if isinstance(obj, nn.Criterion) else ("output", "gradInput")
    return base + tuple(getattr(type(obj), "_buffer_names", ())) + tuple(getattr(type(obj), "_cache_names", ()))


def assert_same(a, b, path="obj", seen=None):
    """b has a's state: same classes, values, dtypes, and the same sharing
    (an object reached twice in a is one object in b).  The state
    clearState empties must be None in b."""
    seen = {} if seen is None else seen
    if isinstance(a, (np.ndarray, list, dict, nn.Module, nn.Criterion)):
        if id(a) in seen:
            assert seen[id(a)] is b, f"{path}: shared in the original, not after loading"
            return
        seen[id(a)] = b
    assert type(a) is type(b), f"{path}: {type(a).__name__} became {type(b).__name__}"
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, f"{path}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        np.testing.assert_array_equal(a, b, err_msg=path)
        assert b.flags.writeable, path
    elif isinstance(a, (nn.Module, nn.Criterion)):
        skip = cleared(a)
        assert set(vars(a)) | set(skip) == set(vars(b)) | set(skip), path
        for key in vars(b):
            if key in skip:
                assert getattr(b, key) is None, f"{path}.{key} was stored"
            else:
                assert_same(vars(a)[key], vars(b)[key], f"{path}.{key}", seen)
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{path}[{i}]", seen)
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k in a:
            assert_same(a[k], b[k], f"{path}[{k!r}]", seen)
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b), path
    else:
        assert a == b, f"{path}: {a!r} vs {b!r}"


# ---------------------------------------------------------------- every class
def _graph_arguments():
    """gModule's: a graph x -> Tanh(Linear(x)), built the nngraph way."""
    x = nn.Identity()()
    return [x], [nn.Tanh()(nn.Linear(4, 3)(x))]


ARGUMENTS = [(), (2,), (4, 3), (4, 3, 2), (1, 2), (np.ones(3),), (nn.Linear(4, 3),), (nn.MSECriterion(),),
             (2, 2, 2, 1), (2, 2, 2, 2, 1, 1), (nn.SpatialMaxPooling(2, 2),), (nn.VolumetricMaxPooling(1, 2, 2),),
             (np.array([[0, 0], [1, 0]]), 2, 2),
             (nn.Linear(4, 3), 1), (3, nn.Linear(4, 3), nn.Linear(3, 3)),    # MaskZero, Repeater, GPU; Recurrent
             (2, [2, 1], [1, 1]), (2, np.ones((3, 3))),                      # Inception; SpatialNormalization
             (nn.Linear(4, 3), 3, 1),                                           # Recurrence
             _graph_arguments(),                                                # gModule
             (nn.SeqLSTM(4, 3),),                                               # VariableLength
             (4, 3, 2, np.ones(3)),                                             # NCEModule
             (nn.Linear(4, 3), nn.Linear(3, 2), 2, 3)]                          # RecurrentAttention


def build(cls):
    """An instance from the first argument list the class takes."""
    for args in ARGUMENTS:
        try:
            return cls(*args)
        except (TypeError, ValueError):
            continue
    return None


CLASSES = [name for name in nn.__all__ if isinstance(getattr(nn, name), type)
           and issubclass(getattr(nn, name), (nn.Module, nn.Criterion))]


def test_every_class_can_be_built_for_the_round_trip():
    assert len(CLASSES) > 80
    missing = [name for name in CLASSES if build(getattr(nn, name)) is None]
    assert not missing, f"add constructor arguments for {missing} to ARGUMENTS"


MODULE_PROBES = [lambda: uniform((2, 4), 1), lambda: uniform((4,), 2), lambda: uniform((2, 3, 4), 3),
                 lambda: uniform((2, 2), 8), lambda: np.array([0, 1, 2]),
                 lambda: [uniform((2, 4), 4), uniform((2, 3), 5)], lambda: [uniform((2, 4), 6), uniform((2, 4), 7)],
                 lambda: [uniform((2, 2, 2), 9), uniform((2, 2, 2), 10)],
                 lambda: uniform((1, 2, 3, 3, 3), 11), lambda: uniform((2, 2, 2), 12)]
CRITERION_PROBES = [lambda: (uniform((2, 4), 1), uniform((2, 4), 2)), lambda: (uniform((2, 4), 1), classes(2, 4)),
                    lambda: (uniform((2, 4), 1), np.array([1.0, -1.0])),
                    lambda: (uniform((2, 4), 1), np.sign(uniform((2, 4), 2))), lambda: (uniform((2, 4), 1), None),
                    lambda: ([uniform((2, 4), 3), uniform((2, 4), 4)], np.array([1.0, -1.0])),
                    lambda: ([uniform((2,), 3), uniform((2,), 4)], np.array([1.0, -1.0])),
                    lambda: (uniform((2, 2), 1), uniform((2, 2), 2)),
                    lambda: (uniform((2, 4), 1, 0.1, 0.9), uniform((2, 4), 2, 0.1, 0.9))]


def run(obj, probe):
    """The output of obj on a probe, with the generator seeded (Dropout, RReLU)."""
    nn.manualSeed(0)
    if isinstance(obj, nn.Criterion):
        x, t = probe()
        return obj.forward(x, t)
    out = obj.forward(probe())
    return [np.copy(o) for o in out] if isinstance(out, list) else np.copy(out)


def first_probe(obj):
    """The first probe the object takes (None if none)."""
    probes = CRITERION_PROBES if isinstance(obj, nn.Criterion) else MODULE_PROBES
    for probe in probes:
        try:
            run(obj.clone(), probe)
            return probe
        except Exception:   # noqa: BLE001 -- a probe of the wrong kind for this class
            continue
    return None


@pytest.mark.parametrize("name", CLASSES)
def test_round_trip_of_every_class(name):
    obj = build(getattr(nn, name))
    fresh = loads(dumps(obj))
    assert_same(obj, fresh)
    assert repr(fresh) == repr(obj)
    probe = first_probe(obj)
    if probe is None:
        return   # nothing runs it with these probes; its state was compared above
    expected = run(obj, probe)                # now holding output and buffers
    used = loads(dumps(obj))
    assert_same(obj, used)
    got = run(used, probe)
    if isinstance(expected, list):
        for a, b in zip(expected, got):
            np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_array_equal(got, expected)


def test_probes_reach_most_classes():
    """The round trip above runs forward for most classes (not only compares state)."""
    run_ = [n for n in CLASSES if first_probe(build(getattr(nn, n))) is not None]
    assert len(run_) > 0.75 * len(CLASSES), sorted(set(CLASSES) - set(run_))


# ---------------------------------------------------------------- models
def tree():
    return nn.Sequential(
        nn.Linear(5, 4), nn.Tanh(),
        nn.ConcatTable(nn.Sequential(nn.Linear(4, 3), nn.Sigmoid()),
                       nn.DepthConcat(1).add(nn.Linear(4, 2)).add(nn.WeightNorm(nn.Linear(4, 3)))),
        nn.ParallelTable(nn.Bottle(nn.Linear(3, 2)), nn.Decorator(nn.Sequential(nn.Dropout(0.3), nn.Linear(5, 2)))),
        nn.MapTable(nn.Linear(2, 2)))


def test_outputs_and_gradients_identical_after_loading():
    m, x = tree(), uniform((3, 5), 1)
    g = [uniform((3, 2), 2), uniform((3, 2), 3)]
    m.forward(x)
    restored = loads(dumps(m))
    for model in (m, restored):
        model.zeroGradParameters()
    nn.manualSeed(5)
    out = [o.copy() for o in m.forward(x)]
    gin = m.backward(x, g).copy()
    nn.manualSeed(5)
    for a, b in zip(restored.forward(x), out):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(restored.backward(x, g), gin)
    for a, b in zip(restored.parameters()[1], m.parameters()[1]):
        np.testing.assert_array_equal(a, b)
    restored.evaluate()
    assert not restored.get(3).get(1).get(0).get(0).train


def test_criterions_round_trip():
    c = nn.CrossEntropyCriterion(weights=np.array([1.0, 2.0, 0.5]))
    x, t = uniform((4, 3), 1), classes(4, 3)
    loss = c.forward(x, t)
    grad = c.backward(x, t).copy()
    r = loads(dumps(c))
    assert r.forward(x, t) == loss
    np.testing.assert_array_equal(r.backward(x, t), grad)
    pair = loads(dumps({"model": tree(), "loss": c}))
    assert isinstance(pair["loss"], nn.CrossEntropyCriterion) and isinstance(pair["model"], nn.Sequential)


def test_shared_parameters_stay_shared():
    a = nn.Linear(4, 4)
    m = nn.Sequential(a, nn.Tanh(), a.clone("weight", "bias", "gradWeight", "gradBias"), nn.MapTable(nn.Linear(4, 2)))
    m.get(3).forward([uniform((2, 4))] * 3)
    r = loads(dumps(m))
    assert r.get(2).weight is r.get(0).weight and r.get(2).gradBias is r.get(0).gradBias
    assert r.get(0).bias is not r.get(0).weight
    mt = r.get(3)
    assert mt.module is mt.modules[0] and mt.modules[2].weight is mt.module.weight
    x, g = uniform((2, 4), 1), uniform((2, 4), 2)
    r.zeroGradParameters()
    r.get(0).forward(x)
    r.get(0).backward(x, g)
    np.testing.assert_array_equal(r.get(2).gradWeight, r.get(0).gradWeight)


def test_flattened_parameters_come_back_as_one_flat_array():
    m = tree()
    flat, grads = m.getParameters()
    flat[:] = np.arange(flat.size) / flat.size
    r = loads(dumps(m))
    rflat, rgrads = r.getParameters()
    np.testing.assert_array_equal(rflat, flat)
    assert rflat.size == flat.size and rgrads.size == grads.size
    assert all(p.base is rflat for p in r.parameters()[0])   # no copy: the loaded views were kept
    rflat[:] = 0
    assert not any(p.any() for p in r.parameters()[0])


def test_what_clearState_empties_is_not_stored():
    m, x = tree(), uniform((3, 5), 1)
    m.forward(x)
    fresh = dumps(m)   # the MapTable has made its clone: the same modules from here on
    m.forward(x)
    m.backward(x, [uniform((3, 2)), uniform((3, 2))])
    assert m.get(0).output is not None
    used = dumps(m)
    assert len(used) == len(fresh)   # no output, gradInput or noise arrays in the file
    header, _, _ = split(used)
    stored = {k for o in header["objects"] if "module" in o for k in o["fields"]}
    assert not stored & {"output", "gradInput", "noise"}
    r = loads(used)
    for module in r.listModules():
        assert module.output is None and module.gradInput is None
    assert m.get(3).get(1).get(0).get(0).noise is not None and r.get(3).get(1).get(0).get(0).noise is None
    assert m.get(0).output is not None   # saving left the model as it was


# ---------------------------------------------------------------- plain values
def test_values_cycles_and_back_references():
    arr = np.arange(12.0).reshape(3, 4)
    lst = [1, 2.5, "text", None, True, b"\x00\xff", float("nan"), float("inf"), -float("inf"), 10 ** 30]
    lst.append(lst)   # a cycle
    value = {"list": lst, "again": lst, (1, "a"): (arr, arr.T, arr[::-1, ::2]), 3: np.float32(1.5),
             None: np.dtype("int16"), "int": np.int64(-7), "empty": np.zeros((0, 3), np.float32),
             "f64": np.float64(0.1), "b": np.bool_(True),
             "bool": np.array([True, False])}
    m = nn.Sequential(nn.Linear(2, 2))
    m.get(0).parent = m                      # a back-reference from a child to its container
    value["model"] = m
    r = loads(dumps(value))
    assert_same(value, r)
    assert r["list"][-1] is r["list"] and r["again"] is r["list"]
    a, at, ast = r[(1, "a")]
    assert at.base is a.base and ast.base is a.base   # views of one array are views again
    np.testing.assert_array_equal(ast, arr[::-1, ::2])
    assert type(r[3]) is np.float32 and type(r["int"]) is np.int64 and r[None] == np.dtype("int16")
    assert type(r["f64"]) is np.float64 and type(r["b"]) is np.bool_
    assert r["model"].get(0).parent is r["model"]


def test_arrays_of_every_layout():
    base = np.arange(24.0)
    values = [base.reshape(4, 6, order="F"), base.reshape(2, 3, 4).transpose(2, 0, 1), base[5:17:3],
              np.broadcast_to(base[:3], (4, 3)),          # overlaps itself: stored as a copy
              base.view(np.int64)[2:5], np.arange(6, dtype=">f4").reshape(2, 3),   # big-endian
              np.array(3.0), np.array(2.0, dtype=">f8"), np.zeros(0), np.asfortranarray(np.arange(6).reshape(2, 3))]
    r = loads(dumps(values))
    for a, b in zip(values, r):
        assert b.dtype == a.dtype.newbyteorder("=") and b.shape == a.shape
        np.testing.assert_array_equal(a, b)
        assert b.flags.writeable
    assert r[0].base is r[2].base is r[4].base   # views of base (of two dtypes) still share its memory
    r[0][2, 0] = -1.0                              # base[2]
    assert r[4][0] == np.float64(-1.0).view(np.int64)


def test_save_refuses_what_it_cannot_hold():
    m = nn.Sequential(nn.Linear(2, 2))
    m.get(0).hook = lambda x: x
    with raises_exactly(TypeError, "save: obj.modules[0].hook is a function, which an nn_legacy file cannot hold "
                                   "(modules, arrays, numbers, strings, bytes, lists, tuples and dicts can)"):
        dumps(m)
    with raises_exactly(TypeError, "save: obj[1] is a set, which an nn_legacy file cannot hold (modules, arrays, "
                                   "numbers, strings, bytes, lists, tuples and dicts can)"):
        dumps([1, {2}])

    class Mine(nn.Linear):
        pass

    with raises_exactly(TypeError, "save: obj.modules[0] is a test_serialization.test_save_refuses_what_it_cannot_"
                                   "hold.<locals>.Mine, which is not an nn_legacy class: register it "
                                   "(@nn_legacy.register_class) or pass classes={'nn.Mine': Mine} to save it"):
        dumps(nn.Sequential(Mine(2, 2)))
    with raises_exactly(TypeError, "save: obj has dtype object; an nn_legacy file holds bool, int8, int16, int32, "
                                   "int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, "
                                   "complex128"):
        dumps(np.array([None]))


def test_paths_and_file_objects(tmp_path):
    m = tree()
    path = tmp_path / "model.nnl"
    nn.save(m, path)
    assert os.listdir(tmp_path) == ["model.nnl"]   # written whole, then renamed: nothing left over
    assert_same(m, nn.load(path))
    assert_same(m, nn.load(str(path)))
    with open(path, "rb") as f:
        assert_same(m, nn.load(f))
    with open(path, "r") as f, raises_exactly(TypeError, "load: the file object must be opened in binary mode "
                                                         "('rb')"):
        nn.load(f)


def test_deep_trees_need_no_recursion():
    m = nn.Linear(2, 2)
    for _ in range(3000):
        m = nn.Sequential(m)
    r = loads(dumps(m))
    for _ in range(3000):
        r = r.get(0)
    assert isinstance(r, nn.Linear)


# ---------------------------------------------------------------- versions and fields
def test_missing_fields_come_from_a_default_instance_and_unknown_fields_stay():
    header, data, _ = split(dumps(nn.Sequential(nn.Dropout(0.2), nn.Linear(2, 2))))
    fields = [o["fields"] for o in header["objects"] if o.get("module") == "Dropout"][0]
    assert fields.pop("p") == 0.2
    fields["addedInAFutureVersion"] = [1, 2] and {"tuple": [1, 2]}
    r = loads(pack(header, data))
    assert r.get(0).p == 0.5   # nn.Dropout()'s
    assert r.get(0).addedInAFutureVersion == (1, 2)
    lin = [o["fields"] for o in header["objects"] if o.get("module") == "Linear"][0]
    del lin["train"]
    assert loads(pack(header, data)).get(1).train is True   # Linear() cannot be built: Module's default


def test_format_versions():
    header, data, version = split(dumps(nn.Tanh()))
    assert version == (1, 1)
    header["addedInVersion1_7"] = {"anything": [1]}
    assert isinstance(loads(pack(header, data, 1, 7)), nn.Tanh)   # a newer minor version: readable
    with raises_exactly(nn.FormatError, "file: written in format version 2.0, newer than the 1.x this nn_legacy "
                                        "reads; load it with a newer nn_legacy"):
        loads(pack(header, data, 2, 0))
    with raises_exactly(nn.FormatError, "file: unknown format version 0.3"):
        loads(pack(header, data, 0, 3))


# ---------------------------------------------------------------- hostile files
def hostile(header_text_or_dict, data=b""):
    if isinstance(header_text_or_dict, bytes):
        return pack(None, data, text=header_text_or_dict)
    return pack(header_text_or_dict, data)


def base_header(**changes):
    header = {"root": {"ref": 0}, "objects": [{"module": "Linear", "fields": {"weight": {"array": 0}}}],
              "arrays": [{"dtype": "float64", "shape": [2, 2], "buffer": 0, "offset": 0, "strides": [16, 8]}],
              "buffers": [{"offset": 0, "nbytes": 32}], "data_nbytes": 32}
    header.update(changes)
    return header


def test_a_hand_made_file_loads():
    m = loads(hostile(base_header(), np.arange(4.0).tobytes()))
    np.testing.assert_array_equal(m.weight, [[0, 1], [2, 3]])


@pytest.mark.parametrize("name", ["os.system", "system", "builtins.eval", "T7Error", "LuaTable", "FormatError",
                                  "__class__", "type", "nn.Linear", ""])
def test_only_nn_legacy_classes_are_built(name):
    header = base_header(objects=[{"module": name, "fields": {"weight": {"array": 0}}}])
    if "." in name:   # the name of a registered class: none is
        expected = (f"file: object 0 is of class {name!r}, which is not registered: register the class "
                    f"(@nn_legacy.register_class) or pass classes={{{name!r}: ...}} to load")
    else:
        expected = f"file: object 0 is of class {name!r}, which is not an nn_legacy class"
    with raises_exactly(nn.FormatError, expected):
        loads(hostile(header, bytes(32)))


@pytest.mark.parametrize("field", ["forward", "__class__", "__dict__", "parameters", "not an identifier"])
def test_fields_that_would_hide_the_class_are_refused(field):
    header = base_header(objects=[{"module": "Linear", "fields": {field: 1}}])
    with pytest.raises(nn.FormatError, match="^file: object 0 \\(Linear\\) has a field"):
        loads(hostile(header, bytes(32)))


HOSTILE = {
    "a huge array": dict(arrays=[{"dtype": "float64", "shape": [2 ** 40, 2 ** 40], "buffer": 0, "offset": 0,
                                  "strides": [8 * 2 ** 40, 8]}]),
    "a zero stride": dict(arrays=[{"dtype": "float64", "shape": [2 ** 40], "buffer": 0, "offset": 0,
                                   "strides": [0]}]),
    "a negative stride out of the buffer": dict(arrays=[{"dtype": "float64", "shape": [2], "buffer": 0,
                                                         "offset": 0, "strides": [-8]}]),
    "an offset past the buffer": dict(arrays=[{"dtype": "float64", "shape": [1], "buffer": 0, "offset": 32,
                                               "strides": [8]}]),
    "a buffer past the data": dict(buffers=[{"offset": 0, "nbytes": 2 ** 40}]),
    "overlapping buffers": dict(buffers=[{"offset": 0, "nbytes": 32}] * 1000),
    "an object dtype": dict(arrays=[{"dtype": "object", "shape": [1], "buffer": 0, "offset": 0, "strides": [8]}]),
    "a structured dtype": dict(arrays=[{"dtype": "[('a', '<f8')]", "shape": [1], "buffer": 0, "offset": 0,
                                        "strides": [8]}]),
    "too many dims": dict(arrays=[{"dtype": "float64", "shape": [1] * 65, "buffer": 0, "offset": 0,
                                   "strides": [8] * 65}]),
    "a size that is not a number": dict(arrays=[{"dtype": "float64", "shape": ["2", 2], "buffer": 0,
                                                 "offset": 0, "strides": [16, 8]}]),
    "a boolean size": dict(arrays=[{"dtype": "float64", "shape": [True, 2], "buffer": 0, "offset": 0,
                                    "strides": [16, 8]}]),
    "an empty array of huge size": dict(arrays=[{"dtype": "float64", "shape": [0, 2 ** 62], "buffer": None,
                                                 "offset": 0, "strides": [0, 0]}]),
    "a reference out of range": dict(root={"ref": 5}),
    "a negative reference": dict(root={"ref": -1}),
    "an array out of range": dict(root={"array": 3}),
    "an unknown tag": dict(root={"pickle": "cos\nsystem\n"}),
    "a bare list value": dict(root=[1, 2]),
    "a list key": dict(root={"ref": 1}, objects=[{"list": []}, {"dict": [[{"ref": 0}, 1]]}]),
    "deep tuples": dict(root=json.loads('{"tuple": [' * 100 + ']}' * 100)),
    "a bad object": dict(objects=[{"list": [], "dict": []}]),
    "bad base64": dict(root={"bytes": "!!!"}),
    "a wrong data size": dict(data_nbytes=64),
    "no arrays": dict(arrays=None),
}


@pytest.mark.parametrize("case", HOSTILE, ids=list(HOSTILE))
def test_hostile_headers_raise_FormatError_without_allocating(case):
    header = base_header(**HOSTILE[case])
    raw = hostile(header, bytes(32))
    tracemalloc.start()
    try:
        with pytest.raises(nn.FormatError):
            loads(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, f"{case}: {peak} bytes at the peak"


def test_hostile_bytes():
    good = hostile(base_header(), bytes(32))
    cases = {
        "empty": b"",
        "a pickle": b"\x80\x04\x95" + bytes(40),
        "a Torch7 file": struct.pack("<i", 4) + bytes(40),
        "a header longer than the file": good[:16] + struct.pack("<Q", 2 ** 63) + good[24:],
        "bad checksum": good[:12] + b"\0\0\0\0" + good[16:],
        "not JSON": hostile(b"{not json"),
        "not UTF-8": hostile(b'{"root": "\xff"}'),
        "deep JSON": hostile(b"[" * 100000 + b"]" * 100000),
        "NaN in JSON": hostile(b'{"root": NaN}'),
        "a huge integer": hostile(b'{"root": ' + b"9" * 10000 + b"}"),
        "a JSON list": hostile(b"[]"),
        "missing keys": hostile(b"{}"),
    }
    for name, raw in cases.items():
        with pytest.raises(nn.FormatError):
            loads(raw)


def test_truncation_at_every_offset():
    raw = dumps(nn.Sequential(nn.Linear(3, 2), nn.Tanh(), nn.ConcatTable(nn.Linear(2, 2))))
    assert len(raw) > 1000
    for n in range(len(raw)):
        with pytest.raises(nn.FormatError):
            loads(raw[:n])
    with pytest.raises(nn.FormatError, match="damaged or truncated file: the checksum does not match"):
        loads(raw + b"\0")


def test_bit_flips_are_caught():
    raw = bytearray(dumps(nn.Sequential(nn.Linear(3, 2), nn.WeightNorm(nn.Linear(2, 2)))))
    rng = np.random.default_rng(0)
    for _ in range(3000):
        bit = int(rng.integers(len(raw) * 8))
        raw[bit // 8] ^= 1 << (bit % 8)
        with pytest.raises(nn.FormatError):
            loads(bytes(raw))
        raw[bit // 8] ^= 1 << (bit % 8)
    assert isinstance(loads(bytes(raw)), nn.Sequential)


REPLACEMENTS = [None, True, -1, 0, 1, 7, 2 ** 40, 2 ** 70, -2 ** 70, 0.5, 1e308, "x", "float64", "Linear",
                [], [0], [2 ** 40, 2 ** 40], {}, {"ref": 0}, {"ref": 1}, {"array": 0}, {"scalar": 0},
                {"tuple": [{"ref": 0}]}, {"float": "nan"}, {"dtype": "float64"}, {"dtype": [1]}, {"list": []},
                {"module": "Tanh", "fields": {}}]


def test_mutated_headers_load_or_raise_FormatError():
    """A hostile writer can make the checksum right: every header it can
    write loads or raises FormatError, nothing else."""
    m = nn.Sequential(nn.Linear(3, 2), nn.MapTable(nn.WeightNorm(nn.Linear(2, 2))), nn.Dropout())
    m.get(1).forward([uniform((2, 2))] * 2)
    m.getParameters()
    header, data, _ = split(dumps(m))
    rng = np.random.default_rng(1)
    outcomes = {"loaded": 0, "refused": 0}

    def places(node, path=()):
        yield path
        if isinstance(node, dict):
            for k, v in node.items():
                yield from places(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from places(v, path + (i,))

    paths = list(places(header))[1:]
    for _ in range(1500):
        mutated = json.loads(json.dumps(header))
        path = paths[int(rng.integers(len(paths)))]
        parent = mutated
        for k in path[:-1]:
            parent = parent[k]
        if rng.random() < 0.15 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = REPLACEMENTS[int(rng.integers(len(REPLACEMENTS)))]
        try:
            loads(pack(mutated, data))
            outcomes["loaded"] += 1
        except nn.FormatError:
            outcomes["refused"] += 1
    assert outcomes["loaded"] > 50 and outcomes["refused"] > 500, outcomes


# ---------------------------------------------------------------- classes of your own
class Gain(nn.Module):
    """y = gain * x, with a parameter (a user's class for the registry tests)."""
    _parameter_names = (("gain", "gradGain"),)

    def __init__(self, n):
        super().__init__()
        self.gain, self.gradGain = np.full(n, 2.0), np.zeros(n)

    def updateOutput(self, input):
        self.output = self.gain * input
        return self.output


def test_a_registered_class_saves_and_loads(registry):
    nn.register_class(Gain)
    m = nn.Sequential(nn.Linear(3, 2), Gain(2))
    m.get(1).gain[...] = [3.0, -1.0]
    back = loads(dumps(m))
    assert type(back.get(1)) is Gain
    header, _, _ = split(dumps(m))
    assert [o.get("module") for o in header["objects"] if "module" in o] == ["Sequential", "Linear", "nn.Gain"]
    x = np.ones(3)
    np.testing.assert_array_equal(back.forward(x), m.forward(x))


def test_a_class_given_for_one_call_saves_and_loads(registry):
    m = Gain(2)
    with pytest.raises(TypeError, match="register it"):
        dumps(m)
    buffer = io.BytesIO()
    nn.save(m, buffer, classes={"mine.Gain": Gain})
    with pytest.raises(nn.FormatError, match="'mine.Gain', which is not registered"):
        nn.load(io.BytesIO(buffer.getvalue()))
    back = nn.load(io.BytesIO(buffer.getvalue()), classes={"mine.Gain": Gain})
    assert type(back) is Gain and back.gain.tolist() == [2.0, 2.0]
    nn.register_class("mine.Gain", Gain)
    assert type(nn.load(io.BytesIO(buffer.getvalue()))) is Gain


def test_a_registered_name_is_its_first(registry):
    nn.register_class("a.Gain", Gain)
    nn.register_class("b.Gain", Gain)
    header, _, _ = split(dumps(Gain(1)))
    assert header["objects"][0]["module"] == "a.Gain"

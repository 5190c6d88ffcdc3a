import copy
import numbers

import numpy as np

import thnn
from thnn.cuda import CudaTensor

from ._helpers import checks as _checks, threads as _threads
from ._helpers.namespace import array_namespace
from ._helpers.random import generator
from ._helpers.backend import FLOATS as _FLOATS, Layer, check_float as _check_float
from ._helpers.backend import convert as _convert, device_kernels as _device_kernels, move as _move

_ARRAYS = (np.ndarray, CudaTensor)
_F32, _F64 = _FLOATS
_ON_DEVICE = object()   # Module._host_dtype() of a module whose parameters are on a device
_GENERAL = object()     # _plain_dtype(): not answerable by the fast path


def _plain_dtype(module):
    """The fast path of Module._dtype and Module._host_dtype for a class whose
    parameters are all found by name: the first parameter's dtype when it and
    its gradient are host arrays, None without parameters, and _GENERAL for
    anything else (a list to convert, a missing gradient, a device array)."""
    d = module.__dict__
    for p, g in module._parameter_names:
        param = d.get(p)
        if param is None:
            continue
        if type(param) is np.ndarray and type(d.get(g)) is np.ndarray:
            return param.dtype
        return _GENERAL
    return None


class Module(Layer):
    """The base of every layer: explicit forward and backward over numpy arrays.

    A module owns its ``output`` and ``gradInput`` arrays.  While the shapes
    stay the same a call writes into the same arrays again (so an array you
    got from ``forward`` is overwritten by the next ``forward``, as in
    Torch7; copy it to keep it).  When a shape changes the module allocates
    new arrays, and arrays you hold from earlier calls stay valid and
    unchanged.  Parameters (``weight``, ``bias``) and their gradients
    (``gradWeight``, ``gradBias``) are plain numpy arrays you may read and
    assign.  Modules are float64 by default (like numpy and Torch7); call
    ``float()`` for float32.

    After ``cuda()`` the same arrays are ``thnn.cuda.CudaTensor`` s and the
    module runs on the device.  A module serves both with one source: it
    computes with its input's namespace, ``xp = array_namespace(input)``
    (numpy on the host), where it would write ``np``; nn_legacy/_helpers/namespace.py
    says how to make a new module device-ready.
    """

    #: (parameter, gradient) attribute names, in the order parameters() lists
    #: them.  Torch7's rule is the default: ``weight`` and ``bias`` are found
    #: by name (each counted when it is not None).  A module with other
    #: parameters declares them all here, e.g.
    #: ``_parameter_names = (("weight", "gradWeight"), ("alpha", "gradAlpha"))``
    #: (docs/guides/writing-a-module.md).
    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    #: attributes that hold work buffers, emptied by clearState()
    _buffer_names = ()
    #: attributes that hold what is derived from the module's arrays and
    #: kept by their identity (so, checked before each use); type() and
    #: cuda() set them to None rather than keep the old arrays alive
    _cache_names = ()
    #: the THNN name of the layer's kernels (``"Threshold"`` for ReLU, whose
    #: kernels are Threshold's; subclasses inherit it); None for numpy layers
    _kernel = None
    #: Sequential's evaluation step for this module and the next one, or None: a method
    #: ``_fuse_next(following, input)`` returning the following module's output, or None
    #: when it does not apply (BatchNormalization then an in-place ReLU)
    _fuse_next = None

    #: whether _all_parameters is _owned_parameters of _parameter_names (set per class)
    _plain_parameters = True
    #: and _kernels, _host_dtype and _dtype are Module's: _kernel_of may take their fast path itself (set per class)
    _plain_kernels = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _threads.guard_verbs(cls)  # one thread at a time per module: see _threads
        _checks.integral_sizes(cls)  # Linear(4.0, 3) as Linear(4, 3): see _checks
        if "type" in cls.__dict__:
            cls.type = _checks.torch_type_names(cls.type)
        cls._plain_parameters = _plain_parameters(cls)
        cls._plain_kernels = (cls._plain_parameters and cls._kernels is Module._kernels
                              and cls._host_dtype is Module._host_dtype and cls._dtype is Module._dtype)

    def __init__(self):
        self.output = None
        self.gradInput = None
        self.train = True

    def __call__(self, *inputs):
        """Build a node of a graph, nngraph's way: ``nn.Identity()()`` is a
        graph input, ``nn.Linear(4, 8)(x)`` a node fed by node x,
        ``nn.CAddTable()([a, b])`` one fed by several; ``nn.gModule(inputs,
        outputs)`` lowers the graph into containers.  Calling a module never
        computes anything (that is ``forward``): an array argument is a
        TypeError saying so."""
        from ._helpers.graph_nodes import GraphNode, node_inputs
        return GraphNode(self, node_inputs(self, inputs))

    # ---- the verbs ----
    def forward(self, input):
        return self.updateOutput(input)

    def backward(self, input, gradOutput, scale=1):
        """gradInput for gradOutput, and accumulate scale * parameter gradients
        (only the latter after skipGradInput())."""
        if self.gradInputSkipped:
            self.gradInput = None
        else:
            self.updateGradInput(input, gradOutput)
        self.accGradParameters(input, gradOutput, scale)
        return self.gradInput

    def backwardUpdate(self, input, gradOutput, lr):
        if self.gradInputSkipped:
            self.gradInput = None
        else:
            self.updateGradInput(input, gradOutput)
        self.accUpdateGradParameters(input, gradOutput, lr)
        return self.gradInput

    #: set by skipGradInput(): backward() leaves gradInput None
    gradInputSkipped = False

    def skipGradInput(self, skip=True):
        """Let backward() (and backwardUpdate()) skip the gradient with respect
        to the input: they accumulate the parameter gradients only, leave
        gradInput None and return None.  For the first layer of a network
        whose input is data, which nobody differentiates (in LeNet the
        first convolution's gradInput takes longer than its forward pass and
        weight gradient together).  PyTorch skips it by itself when the input does
        not require a gradient; here you say so, on the layer or on a
        Sequential (whose first module then skips it).  Off by default, so
        Torch7 code that reads gradInput keeps working; updateGradInput()
        called directly always computes it.  skipGradInput(False) turns it
        back on.  A layer whose own backward computes the two gradients
        together (BatchNormalization) and containers other than Sequential
        refuse it (TypeError).  Returns self."""
        if skip and type(self).backward is not Module.backward:
            raise TypeError(f"{type(self).__name__}.skipGradInput: its backward computes gradInput together "
                            "with the parameter gradients; skip it on a layer or a Sequential")
        self.gradInputSkipped = bool(skip)
        if skip:
            self.gradInput = None
        return self

    def updateOutput(self, input):
        return self.output

    def updateGradInput(self, input, gradOutput):
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        pass

    def accUpdateGradParameters(self, input, gradOutput, lr):
        """Step the parameters by -lr * their gradient for this sample, without
        touching the stored gradients: accumulate straight into the parameters."""
        pairs = [(p, g) for p, g in self._parameter_names if getattr(self, p, None) is not None]
        saved = [getattr(self, g, None) for _, g in pairs]
        for p, g in pairs:
            setattr(self, g, getattr(self, p))
        try:
            self.accGradParameters(input, gradOutput, -lr)
        finally:
            for (_, g), value in zip(pairs, saved):
                setattr(self, g, value)

    # ---- parameters ----
    def _owned_parameters(self):
        """(module, parameter name, gradient name) for every parameter present.
        A list or tuple assigned to a parameter or gradient (``m.weight =
        [[...]]``) is made an array here, before anything uses it.
        (_dtype reads the first of them without building the list: change both together.)"""
        owned = []
        for p, g in self._parameter_names:
            value = getattr(self, p, None)
            if value is None:
                continue
            for name, v in ((p, value), (g, getattr(self, g, None))):
                if type(v) is list or type(v) is tuple:
                    setattr(self, name, _parameter_array(self, name, v))
            if getattr(self, g, None) is None:
                raise AttributeError(f"{type(self).__name__} has a parameter '{p}' but no gradient '{g}' to "
                                     f"accumulate into: set self.{g} = np.zeros_like(self.{p}) in __init__")
            owned.append((self, p, g))
        return owned

    def _all_parameters(self):
        return self._owned_parameters()

    def parameters(self):
        """([parameters], [gradients]): the arrays themselves, not copies (empty lists if none)."""
        params, grads, seen = [], [], set()
        for m, p, g in self._all_parameters():
            param = getattr(m, p)
            if id(param) in seen:   # a parameter shared by several modules is listed once
                continue
            seen.add(id(param))
            params.append(param)
            grads.append(getattr(m, g))
        return params, grads

    def zeroGradParameters(self):
        for grad in self.parameters()[1]:
            grad.fill(0)

    def updateParameters(self, learningRate):
        try:
            for param, grad in zip(*self.parameters()):
                param -= learningRate * grad   # (numpy arrays and CudaTensors alike)
        except TypeError as e:
            raise self._learning_rate_error(learningRate, e) from None

    def _learning_rate_error(self, learningRate, error):
        """The TypeError updateParameters raises: naming the argument when it is not a number."""
        if isinstance(learningRate, numbers.Number):
            return error
        return TypeError(f"{type(self).__name__}.updateParameters: learningRate must be a number, "
                         f"got {learningRate!r} ({type(learningRate).__name__})")

    def flattenParameters(self):
        """One flat array of all parameters and one of all gradients; afterwards
        every parameter (and gradient) of the module is a view into them, so
        updating the flat arrays updates the module.  Calling it again returns
        the same two arrays while the module's parameters still view them.

        A parameter shared by several modules (``share``, ``clone(names)``)
        takes one place in the flat arrays and stays shared; its gradient
        must be shared the same way (Torch7 asked the same), or the two flat
        arrays would not line up.  On a CUDA device the flat arrays are
        CudaTensors of that device (what nn_legacy.optim steps there)."""
        entries = self._all_parameters()
        if not entries:
            return np.zeros(0), np.zeros(0)
        _check_shared_alike(self, entries)
        flat = []
        for which in (1, 2):
            arrays = [getattr(e[0], e[which]) for e in entries]
            flat.append(_flatten(arrays, [(e[0], e[which]) for e in entries]))
        return tuple(flat)

    getParameters = flattenParameters

    # ---- state ----
    def training(self):
        self.train = True

    def evaluate(self):
        self.train = False

    def type(self, dtype=None, _memo=None):
        """Without argument: the module's dtype.  With one (a numpy dtype, or
        Torch7's name: ``'torch.FloatTensor'``, ``'torch.DoubleTensor'``;
        ``'torch.CudaTensor'`` and ``'torch.CudaDoubleTensor'`` move the
        module to the CUDA device as ``cuda()`` does): convert every float
        array of the module to it and return self.  Arrays already of that
        dtype are kept as they are (as Torch7 did).  An array shared by
        several modules of the tree stays shared; to keep arrays shared
        between separate trees, convert them with the same dict as second
        argument (Torch7's tensorCache): ``a.type(t, cache); b.type(t, cache)``."""
        if dtype is None:
            return self._dtype()
        dtype = _checks.float_dtype(self, dtype)
        memo = {} if _memo is None else _memo
        memo[id(self)] = (self, self)   # reached again (MapTable's module, a shared child): done already
        caches = type(self)._cache_names
        for key, value in list(vars(self).items()):
            setattr(self, key, None if key in caches else _convert(value, dtype, memo))
        return self

    def float(self):
        """float32 on the host (from the host or from a CUDA device)."""
        return self.type(np.float32)

    def double(self):
        """float64 on the host (from the host or from a CUDA device)."""
        return self.type(np.float64)

    # Every module runs on a CUDA device (tests/test_cuda_modules.py runs
    # each class there against the host); a class that cannot says why here.
    _cuda_unsupported = None

    def cuda(self, device=None):
        """Move every array of the module (and of its children) to a CUDA
        device (thnn.cuda.default() unless given), keeping dtypes: float32
        runs the THNN_Cuda* twins, float64 the THNN_CudaDouble* ones, and
        the steps written in numpy run as the device tensor math (see
        nn_legacy/_helpers/namespace.py).  Then forward/backward take CudaTensors
        (thnn.cuda.to_device(array)) and return CudaTensors.  ``float()`` /
        ``double()`` bring it back.  TypeError, with the reason, for the few
        classes that cannot run on a device (docs/guides/cuda.md)."""
        from thnn import cuda
        return _move(self, device or cuda.module_default(), {})

    def _dtype(self):
        """The dtype of the first parameter, None without parameters."""
        if type(self)._plain_parameters:   # the usual case: the same answer without building the list
            dtype = _plain_dtype(self)
            if dtype is not _GENERAL:
                return dtype
        entries = self._all_parameters()
        if not entries:
            return None
        module, name, _ = entries[0]
        return getattr(module, name).dtype

    def _host_dtype(self):
        """_dtype() of a module whose parameters are on the host; _ON_DEVICE
        when its first parameter is on a CUDA device (Module._kernels' fast
        path: a host input to a device module goes on to the error)."""
        cls = type(self)
        if cls._plain_parameters and cls._dtype is Module._dtype:   # _dtype's fast path, knowing the place
            dtype = _plain_dtype(self)
            if dtype is not _GENERAL:
                return dtype
        expected = self._dtype()
        return _ON_DEVICE if expected is not None and isinstance(_first_parameter(self), CudaTensor) else expected

    def clearState(self):
        """Drop output, gradInput and work buffers (before saving a model)."""
        self.output = None
        self.gradInput = None
        for name in self._buffer_names:
            setattr(self, name, None)
        return self

    def reset(self, stdv=None):
        return self

    # ---- recurrence: the rnn package's additions to every module (see AbstractRecurrent) ----
    def forget(self):
        """Every recurrent module of the tree forgets its past steps: the
        next sequence starts from its initial state.  Returns self."""
        for m in getattr(self, "modules", ()):
            m.forget()
        return self

    def remember(self, mode="both"):
        """Sequencers and whole-sequence modules of the tree keep their state
        from one forward call to the next ("both", "train", "eval" or
        "neither"; see AbstractSequencer).  Returns self."""
        for m in getattr(self, "modules", ()):
            m.remember(mode)
        return self

    def maxBPTTstep(self, rho):
        """rho, the most steps backpropagation through time goes back, for
        every recurrent module of the tree."""
        for m in getattr(self, "modules", ()):
            m.maxBPTTstep(rho)

    def reinforce(self, reward):
        """Hand a reward to every REINFORCE module of the tree (Reinforce and
        its subclasses keep it for their backward): the rnn package's
        ``Module:reinforce``, which a reward criterion such as VRClassReward
        calls in its backward.  reward: an array ``[batch]``; a recurrent
        module also takes one reward per step (see AbstractRecurrent)."""
        for m in getattr(self, "modules", ()):
            m.reinforce(reward)

    # ---- the module tree ----
    def apply(self, fn):
        """fn(m) for this module and every module below it, parents first."""
        for m in self.listModules():
            fn(m)

    def listModules(self):
        return [self]

    def findModules(self, typename, container=None):
        """(modules of that class, the container holding each), in the order of
        listModules.  typename: a class (subclasses match too) or a class
        name ("Linear" or Torch7's "nn.Linear").  A match at the top has
        None as its container (Torch7 gave the module itself)."""
        nodes, containers = [], []
        if _matches(self, typename):
            nodes.append(self)
            containers.append(container)
        return nodes, containers

    def replace(self, fn):
        """Torch7's replace: returns fn(self), after replacing every child of a
        container by child.replace(fn) (so fn sees every module of the tree;
        what fn returns for a child takes the child's place)."""
        return fn(self)

    def share(self, other, *names):
        """Make the named attributes (``'weight'``, ``'bias'``,
        ``'gradWeight'``, ...) the very arrays of ``other``: updating one
        module updates the other.  Names this module does not have (or has
        as None) are skipped, as in Torch7; containers share child by child.
        Returns self.

        Unlike Torch7's ``tensor:set()`` this rebinds the attribute, so an
        array you held from this module before keeps its own memory."""
        if not isinstance(other, Module):
            raise TypeError(f"{type(self).__name__}.share: expected a Module to share with, "
                            f"got {type(other).__name__}")
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"{type(self).__name__}.share: attribute names must be strings, got {name!r}")
            mine = getattr(self, name, None)
            if mine is None:
                continue
            theirs = getattr(other, name, None)
            if not isinstance(mine, _ARRAYS) or not isinstance(theirs, _ARRAYS):
                raise TypeError(f"{type(self).__name__}.share: '{name}' must be an array in both modules, got "
                                f"{type(mine).__name__} here and {type(theirs).__name__} in {type(other).__name__}")
            setattr(self, name, theirs)
        return self

    def clone(self, *names):
        """A deep copy; with names (``clone('weight', 'bias', 'gradWeight',
        'gradBias')``) the copy shares those arrays with this module."""
        copy_ = copy.deepcopy(self)
        if names:
            copy_.share(self, *names)
        return copy_

    def __repr__(self):
        return f"nn.{type(self).__name__}"

    # ---- helpers for the layers ----
    def _xp(self, *arrays, name="input"):
        """The array namespace of arrays (numpy, or the namespace of the CUDA
        device they live on: see _namespace.py), after checking that they
        live where this module's own parameters do (the error names the
        module and says how to move one or the other)."""
        xp = array_namespace(*arrays)
        _check_same_place(self, _first_parameter(self), xp, name)
        return xp

    def _kernels(self, input, name="input"):
        """The thnn backend matching input (float32 or float64; on the host or
        on a CUDA device), with a clear error naming this layer for anything else."""
        if type(input) is np.ndarray:   # the usual case first (identity tests: hashing a dtype is slow)
            dtype = input.dtype
            backend = thnn.Float if dtype is _F32 else thnn.Double if dtype is _F64 else None
            if backend is not None:
                expected = self._host_dtype()
                if expected is None or expected is dtype or (expected is not _ON_DEVICE and expected == dtype):
                    return backend
        if isinstance(input, CudaTensor):
            return _device_kernels(self, input, name)
        if not isinstance(input, np.ndarray):
            raise TypeError(f"{type(self).__name__}: {name} must be a numpy array, got {type(input).__name__}")
        _check_same_place(self, _first_parameter(self), np, name)
        _check_float(self, input, name)
        expected = self._dtype()
        if expected is not None and input.dtype != expected:
            raise TypeError(f"{type(self).__name__}: {name} is {input.dtype} but the module is {expected}; "
                            f"convert the input or call module.{'float' if input.dtype == np.float32 else 'double'}()")
        return thnn.backend(input.dtype)

    def _kernel_of(self, input, verb, name="input"):
        """The kernel ``<_kernel>_<verb>`` for input's dtype and device."""
        if type(input) is np.ndarray and type(self)._plain_kernels:   # _kernels' usual case, without its calls
            dtype = input.dtype
            if dtype is _F32 or dtype is _F64:
                expected = _plain_dtype(self)
                if expected is None or expected is dtype or (expected is not _GENERAL and expected == dtype):
                    return getattr(thnn.Float if dtype is _F32 else thnn.Double, f"{self._kernel}_{verb}")
        return getattr(self._kernels(input, name), f"{self._kernel}_{verb}")


def _plain_parameters(cls):
    """Whether the parameters of cls's instances are exactly the entries of
    _parameter_names found in the instance's __dict__ (no override of how
    they are found, no class attribute or __getattr__ by those names): then
    Module._dtype may read them from __dict__."""
    names = [n for pair in cls._parameter_names for n in pair]
    return (cls._all_parameters is Module._all_parameters and cls._owned_parameters is Module._owned_parameters
            and not any(hasattr(cls, n) for n in names) and not hasattr(cls, "__getattr__")
            and cls.__getattribute__ is object.__getattribute__)


def uniform(shape, stdv, dtype):
    """U(-stdv, stdv) from the module generator; a MemoryError before
    drawing when the draw cannot fit in memory (see _checks.check_memory)."""
    _checks.check_memory(shape, dtype)
    return generator().uniform(-stdv, stdv, size=shape).astype(dtype)


def normal(shape, std, dtype):
    """N(0, std^2) from the module generator, checked as uniform is."""
    _checks.check_memory(shape, dtype)
    return generator().normal(0, std, size=shape).astype(dtype)


def _first_parameter(module):
    """The module's first parameter array (not its gradient: IndexLinear's
    is built on demand), or None."""
    for p, _ in module._parameter_names:
        value = getattr(module, p, None)
        if value is not None:
            return value
    return None


def _check_same_place(module, param, xp, name):
    """TypeError when the input (whose namespace is xp) is on the host and
    the parameter param on a device, or the other way round."""
    if isinstance(param, CudaTensor) and xp is np:
        raise TypeError(f"{type(module).__name__}: {name} is a numpy array but the module is on CUDA device "
                        f"{param.device.name!r}; use thnn.cuda.to_device(x) or module.float()/double()")
    if isinstance(param, np.ndarray) and xp is not np:
        raise TypeError(f"{type(module).__name__}: {name} is on CUDA device {xp.device.name!r} but the module "
                        f"is not; call module.cuda() first")


def _matches(module, typename):
    if isinstance(typename, str):
        name = typename[3:] if typename.startswith("nn.") else typename
        return type(module).__name__ == name
    if isinstance(typename, type):
        return isinstance(module, typename)
    raise TypeError(f"{type(module).__name__}.findModules: a class or a class name, got {type(typename).__name__}")


def _check_shared_alike(module, entries):
    """Every parameter shared between modules has its gradient shared the same way."""
    grad_of, param_of = {}, {}
    for m, p, g in entries:
        param, grad = getattr(m, p), getattr(m, g)
        if grad is None or grad.shape != param.shape:
            raise ValueError(f"{type(module).__name__}.flattenParameters: {type(m).__name__}.{g} must be an "
                             f"array shaped as {p} {list(param.shape)}, got "
                             f"{list(grad.shape) if grad is not None else None}")
        if grad_of.setdefault(id(param), id(grad)) != id(grad) or param_of.setdefault(id(grad), id(param)) != id(param):
            raise ValueError(f"{type(module).__name__}.flattenParameters: {type(m).__name__}.{p} is shared with "
                             f"another module but {g} is not (or the other way round); share both, "
                             f"e.g. clone('weight', 'bias', 'gradWeight', 'gradBias')")


def _flatten(arrays, owners):
    """One flat array whose consecutive slices the owners' attributes view."""
    unique = list({id(a): a for a in arrays}.values())
    if any(isinstance(a, CudaTensor) for a in unique):
        return _flatten_device(unique, arrays, owners)
    # (an array the Torch7 reader made views a buffer that is no ndarray: not flattened before)
    base = unique[0].base if isinstance(unique[0].base, np.ndarray) else None
    total = sum(a.size for a in unique)
    # already flattened: every array a consecutive view of the same flat array
    if base is not None and base.ndim == 1 and base.size == total:
        offset, ok = 0, True
        for a in unique:
            ok = ok and a.base is base and a.flags.c_contiguous and \
                a.__array_interface__["data"][0] == base.__array_interface__["data"][0] + offset * a.itemsize
            offset += a.size
        if ok:
            return base
    flat = np.empty(total, dtype=unique[0].dtype)
    views, offset = {}, 0
    for a in unique:
        flat[offset:offset + a.size] = a.ravel()
        views[id(a)] = flat[offset:offset + a.size].reshape(a.shape)
        offset += a.size
    for a, (module, name) in zip(arrays, owners):
        setattr(module, name, views[id(a)])
    return flat



def _flatten_device(unique, arrays, owners):
    """_flatten for CudaTensors (of one device and dtype)."""
    first = unique[0]
    if not all(isinstance(a, CudaTensor) and a.device is first.device and a.dtype == first.dtype for a in unique):
        raise TypeError("flattenParameters: the parameters must all be on one device with one dtype, got "
                        + ", ".join(sorted({repr(a) for a in unique})))
    total = sum(a.size for a in unique)
    # already flattened: consecutive contiguous views of a storage of exactly these elements
    at, ok = 0, first._storage.size == total
    for a in unique:
        ok = ok and a._storage.data == first._storage.data and a.is_contiguous() and a.offset == at
        at += a.size
    if ok:
        return first._view((total,), (1,), 0)
    flat = first.device.empty((total,), first.dtype)
    views, offset = {}, 0
    for a in unique:
        view = flat[offset:offset + a.size]
        view[...] = a.reshape(-1)
        views[id(a)] = view.reshape(a.shape)
        offset += a.size
    for a, (module, name) in zip(arrays, owners):
        setattr(module, name, views[id(a)])
    return flat


# ---- parameters given as lists ----
def _parameter_array(module, name, value):
    """A list or tuple assigned to a parameter (or gradient) attribute, as an
    array of the dtype (and on the device) of the module's other parameter
    arrays (float64 when there are none); a TypeError naming the attribute
    when it does not hold numbers in a regular shape."""
    arrays = [getattr(module, n, None) for pair in module._parameter_names for n in pair]
    like = next((a for a in arrays if isinstance(a, (np.ndarray, CudaTensor)) and a.dtype in _FLOATS), None)
    dtype = np.dtype(np.float64) if like is None else like.dtype
    try:
        array = np.array(value, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{type(module).__name__}.{name}: expected an array (or a list of numbers of a regular "
                        f"shape), got a {type(value).__name__} numpy cannot read as {dtype} ({e})") from None
    return like.device.to_device(array) if isinstance(like, CudaTensor) else array


Module.type = _checks.torch_type_names(Module.type)
_threads.guard_verbs(Module)

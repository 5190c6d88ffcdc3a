"""The shared host/device array interface: one module source for numpy
arrays and for CUDA tensors.

A module asks its arrays for their namespace and computes with it instead
of ``np``, as the Python array API standard's ``array_namespace`` does::

    from .namespace import array_namespace

    def updateOutput(self, input):
        xp = array_namespace(input)              # numpy, or input's device's namespace
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp.maximum(input, 0, out=self.output)     # numpy's function and arguments
        return self.output

For numpy arrays the namespace is numpy itself, so the host path is exactly
the numpy code it was.  For ``thnn.cuda.CudaTensor`` s it is their device's
``DeviceNumpy`` (thnn/_cuda_numpy.py): numpy's functions under numpy's
names, run as device kernels.  CudaTensors also have numpy's array methods,
operators, views and indexing, so ``x.sum(axis=1)``, ``x[:, None] * w.T``
and ``out[...] = y`` need no change.

How to make a module device-ready (see also docs/guides/cuda.md):

1. Compute with ``xp = array_namespace(input)`` (or ``self._xp(input)`` in a
   Module, which also checks that the input lives where the module's
   parameters do) in place of ``np`` wherever an array is made or
   computed: ``np.exp(x)`` becomes ``xp.exp(x)``, ``np.ascontiguousarray``
   ``xp.ascontiguousarray``.  ``np`` stays for what is not array data:
   dtypes, shapes (``np.prod(shape)``), ``np.errstate``, isinstance checks.
2. Allocate buffers with ``_arrays.reuse`` (it allocates where the input
   lives) or ``xp.empty``/``xp.zeros``, never ``np.empty``.
3. Draw random numbers with ``_random.uniform(xp, ...)`` (the device draws
   its own, seeded from the module generator).
4. Host-only steps (a data-dependent loop over a few values, an error
   message that quotes an element) read ``.item()`` or ``int(x)``; nothing
   else moves data to the host.
5. Give the class an entry in tests/module_table.py: the device parity
   test (tests/test_cuda_modules.py) runs it on the emulator against the
   host.  A class that truly cannot run on a device says why in
   ``_cuda_unsupported`` (the catalogue, python -m nn_legacy --layers, lists them).
"""
import numpy as np

from thnn.cuda import CudaTensor


def array_namespace(*arrays):
    """The namespace of numpy functions for arrays (numpy arrays, CudaTensors,
    and tables (lists) of them; None and numbers are skipped): numpy when
    none is a CudaTensor, else the namespace of the CUDA device they live on.
    TypeError when host arrays and CudaTensors (or tensors of two devices)
    are mixed, naming the first of each."""
    for a in arrays:   # the usual case first: numpy arrays only
        if type(a) is not np.ndarray:
            break
    else:
        return np
    device, host = None, None
    for i, a in enumerate(_leaves(arrays)):
        if isinstance(a, CudaTensor):
            if device is not None and a.device is not device:
                raise TypeError(f"arrays on two CUDA devices, {device.name!r} and {a.device.name!r}")
            device = a.device
        elif isinstance(a, np.ndarray) and host is None:
            host = i
    if device is None:
        return np
    if host is not None:
        raise TypeError(f"a numpy array and CudaTensors of device {device.name!r} in one call; move the array "
                        f"with thnn.cuda.to_device(a), or the tensors to the host with .numpy()")
    return device.numpy


def _leaves(value):
    for v in value:
        if isinstance(v, (list, tuple)):
            yield from _leaves(v)
        else:
            yield v

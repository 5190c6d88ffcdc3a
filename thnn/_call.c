/* thnn._call: the fast path of a kernel call (thnn/_binding.py, Kernel).
 *
 * A Kernel is a Caller.  Calling it runs the checks of the Python binding on
 * the arguments as they are, fills the TH structs on the C stack and calls
 * the kernel through its trampoline (thnn/_header.py, trampolines: one
 * signature for every kernel).  It only takes the ordinary case: the right
 * number of positional arguments; every array of the kernel's dtype
 * (int64 for indices), native byte order, aligned, 1 to TH_MAX_DIM
 * dimensions and strides of whole elements; arrays written in place
 * writeable; scalars a Python float (or int) for a real, an int in range
 * for an integer, True or False for a bool.  Anything else (a keyword
 * argument, a conversion, an error to report) goes to the Python path, the
 * `slow` callable, which gives the same results and raises the binding's
 * errors.  So the two paths differ in speed only; tests/test_binding.py
 * checks that every kernel case gives the same results through both.
 *
 * What it does with [OUT] and [BUFFER] arrays is Kernel._reusable's rule:
 * an array of the result dtype, C-contiguous, writeable, aligned, with 1 to
 * TH_MAX_DIM dimensions and whose memory overlaps none of the arrays the
 * kernel reads (or an earlier [OUT]) is handed to the kernel; any other is
 * left alone, as if None had been passed.  After the call, a tensor the
 * kernel resized holds a storage it allocated: the array returned for it
 * owns that storage (its base, a StorageOwner, frees it with
 * THStorage_free when the last array viewing it goes).  On an error those storages are freed and THNNError is raised with
 * "<kernel>: <message>".
 *
 * No struct outlives the call and none is shared between threads: each call
 * has its own on the C stack.  The GIL is released around the kernel when
 * the arrays hold more than GIL_ELEMENTS elements (below that, releasing
 * and taking it back costs more than the kernel). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define NPY_TARGET_VERSION NPY_1_22_API_VERSION
#include <numpy/arrayobject.h>
#include <stddef.h>
#include <string.h>

#include "TH.h"

/* The three tensor types share one layout but for the type of data. */
typedef THFloatTensor Tensor;
typedef THFloatStorage Storage;
_Static_assert(sizeof(THDoubleTensor) == sizeof(Tensor) && sizeof(THLongTensor) == sizeof(Tensor),
               "tensor layouts differ");
_Static_assert(sizeof(THDoubleStorage) == sizeof(Storage) && sizeof(THLongStorage) == sizeof(Storage),
               "storage layouts differ");

typedef int (*Trampoline)(THNNState *, void *const *, const int64_t *, const double *);
typedef void (*StorageFree)(void *);

#define MAX_ARGS 32
#define GIL_ELEMENTS 16384

/* One byte per argument (the state not counted), from thnn/_binding.py. */
enum {
  K_BOOL = 'b', K_INT = 'i', K_INT64 = 'l', K_REAL = 'd', K_OTHER = '?',
  K_TENSOR = 0x80,          /* a tensor; the low bits say what the call does with it: */
  T_PRODUCED = 1,           /* [OUT] or [BUFFER] */
  T_WRITTEN = 2,            /* [INOUT] */
  T_INPLACE = 4,            /* [INPLACE]: written when the bool `inplace` is true */
  T_OPTIONAL = 8,           /* [OPTIONAL]: None passes NULL */
  T_INDEX = 16              /* an index tensor (int64) */
};

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *name;           /* the kernel's name in THNN.h, for messages */
  PyObject *slow;           /* the Python path: slow(*args, **kwargs) */
  Trampoline fn;
  Py_ssize_t nargs;
  int inplace;              /* position of the bool `inplace`, or -1 */
  int real;                 /* NPY_FLOAT or NPY_DOUBLE */
  int fast;                 /* 0: every call takes the Python path */
  unsigned char kinds[MAX_ARGS];
} Caller;

static PyObject *THNNError;           /* thnn.THNNError */
static StorageFree storage_free[3];   /* THFloatStorage_free, THDoubleStorage_free, THLongStorage_free */

/* ---- arrays ---- */

/* numpy's may_share_memory (bounds only): do the memory extents overlap? */
static void extents(PyArrayObject *a, char **lo, char **hi)
{
  npy_intp low = 0, high = 0;
  int nd = PyArray_NDIM(a);
  const npy_intp *dims = PyArray_DIMS(a), *strides = PyArray_STRIDES(a);
  for (int d = 0; d < nd; d++) {
    if (dims[d] == 0) {
      *lo = *hi = PyArray_BYTES(a);
      return;
    }
    npy_intp span = strides[d] * (dims[d] - 1);
    if (span > 0)
      high += span;
    else
      low += span;
  }
  *lo = PyArray_BYTES(a) + low;
  *hi = PyArray_BYTES(a) + high + PyArray_ITEMSIZE(a);
}

static int overlap(PyArrayObject *a, PyArrayObject *b)
{
  char *a0, *a1, *b0, *b1;
  extents(a, &a0, &a1);
  extents(b, &b0, &b1);
  return a0 < b1 && b0 < a1 && a0 < a1 && b0 < b1;
}

static int is_dtype(PyArrayObject *a, int index, int real)
{
  if (PyArray_ISBYTESWAPPED(a))
    return 0;
  int t = PyArray_TYPE(a);
  if (index)
    return (t == NPY_LONG || t == NPY_LONGLONG) && PyArray_ITEMSIZE(a) == 8;
  return t == real;
}

/* An array the kernel may read as it is (1): aligned, strides of whole elements. */
static int readable(PyArrayObject *a)
{
  int nd = PyArray_NDIM(a);
  if (nd < 1 || nd > TH_MAX_DIM || !PyArray_ISALIGNED(a))
    return 0;
  npy_intp item = PyArray_ITEMSIZE(a);
  const npy_intp *strides = PyArray_STRIDES(a);
  for (int d = 0; d < nd; d++)
    if (strides[d] % item)
      return 0;
  return 1;
}

/* t views a's memory through s, as THTensor_(wrap) does for the Python path. */
static void wrap(Tensor *t, Storage *s, PyArrayObject *a)
{
  int nd = PyArray_NDIM(a);
  npy_intp item = PyArray_ITEMSIZE(a);
  const npy_intp *dims = PyArray_DIMS(a), *strides = PyArray_STRIDES(a);
  s->data = PyArray_DATA(a);
  s->size = PyArray_SIZE(a);
  s->flag = 0;
  t->storage = s;
  t->storageOffset = 0;
  t->nDimension = nd;
  for (int d = 0; d < nd; d++) {
    t->size[d] = dims[d];
    t->stride[d] = strides[d] / item;
  }
  for (int d = nd; d < TH_MAX_DIM; d++)
    t->size[d] = t->stride[d] = 0;
}

/* ---- storages the kernel allocated ---- */

/* The base of an array returned for a storage the kernel allocated: frees
 * the storage when the last array viewing it goes. */
typedef struct {
  PyObject_HEAD
  Storage *storage;
  StorageFree free;
  PyObject *weakrefs;
} Owner;

static void owner_dealloc(PyObject *op)
{
  Owner *self = (Owner *)op;
  if (self->weakrefs)
    PyObject_ClearWeakRefs(op);
  if (self->storage)
    self->free(self->storage);
  Py_TYPE(op)->tp_free(op);
}

static PyTypeObject OwnerType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "thnn._call.StorageOwner",
  .tp_basicsize = sizeof(Owner),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "Owns a storage a kernel allocated; the base of the arrays viewing it.",
  .tp_dealloc = owner_dealloc,
  .tp_weaklistoffset = offsetof(Owner, weakrefs),
};

/* A numpy array that owns the storage t now holds (contiguous, t's sizes),
 * or NULL (error set; the storage is still the caller's to free). */
static PyObject *adopt(Tensor *t, int typenum, StorageFree f)
{
  npy_intp dims[TH_MAX_DIM];
  int nd = t->nDimension;
  for (int d = 0; d < nd; d++)
    dims[d] = t->size[d];
  if (nd == 0) {   /* (no kernel leaves a storage on an empty tensor) */
    dims[0] = 0;
    nd = 1;
  }
  Owner *owner = PyObject_New(Owner, &OwnerType);
  if (!owner)
    return NULL;
  owner->storage = NULL;
  owner->free = f;
  owner->weakrefs = NULL;
  PyObject *a = PyArray_SimpleNewFromData(nd, dims, typenum, t->storage->data);
  if (!a) {
    Py_DECREF(owner);
    return NULL;
  }
  if (PyArray_SetBaseObject((PyArrayObject *)a, (PyObject *)owner) != 0) {   /* steals owner, even on failure */
    Py_DECREF(a);
    return NULL;
  }
  owner->storage = t->storage;   /* from here on the array frees it */
  return a;
}

/* ---- the call ---- */

/* which of storage_free frees the storages of a tensor argument */
static int free_of(const Caller *self, unsigned char kind)
{
  return (kind & T_INDEX) ? 2 : self->real == NPY_DOUBLE;
}

static PyObject *call_slow(Caller *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
  return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *caller_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
  Caller *self = (Caller *)op;
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (!self->fast || kwnames || n != self->nargs)
    return call_slow(self, args, nargsf, kwnames);

  THNNState state;
  Tensor tensors[MAX_ARGS];
  Storage storages[MAX_ARGS];
  void *pointers[MAX_ARGS];
  PyArrayObject *arrays[MAX_ARGS];        /* per tensor: the array wrapped, or NULL */
  unsigned char flags[MAX_ARGS];
  int64_t ints[MAX_ARGS];
  double reals[MAX_ARGS];
  int nt = 0, ni = 0, nr = 0;
  int64_t elements = 0;

  /* scalars first: whether in place decides which arrays are written */
  for (Py_ssize_t k = 0; k < n; k++) {
    PyObject *v = args[k];
    switch (self->kinds[k]) {
    case K_BOOL:
      if (v == Py_True || v == Py_False)
        ints[ni++] = v == Py_True;
      else
        return call_slow(self, args, nargsf, kwnames);
      break;
    case K_INT:
    case K_INT64: {
      if (!PyLong_CheckExact(v))
        return call_slow(self, args, nargsf, kwnames);
      int over = 0;
      long long x = PyLong_AsLongLongAndOverflow(v, &over);
      if (over || (x == -1 && PyErr_Occurred()) ||
          (self->kinds[k] == K_INT && (x < INT32_MIN || x > INT32_MAX))) {
        PyErr_Clear();
        return call_slow(self, args, nargsf, kwnames);
      }
      ints[ni++] = x;
      break;
    }
    case K_REAL:
      if (PyFloat_CheckExact(v))
        reals[nr++] = PyFloat_AS_DOUBLE(v);
      else if (PyLong_CheckExact(v)) {
        double x = PyLong_AsDouble(v);
        if (x == -1.0 && PyErr_Occurred()) {
          PyErr_Clear();
          return call_slow(self, args, nargsf, kwnames);
        }
        reals[nr++] = x;
      } else
        return call_slow(self, args, nargsf, kwnames);
      break;
    default:
      break;
    }
  }
  int inplace = self->inplace >= 0 && args[self->inplace] == Py_True;

  /* the arrays the kernel reads (or writes in place) */
  for (Py_ssize_t k = 0; k < n; k++) {
    unsigned char kind = self->kinds[k];
    if (!(kind & K_TENSOR))
      continue;
    PyObject *v = args[k];
    flags[nt] = kind;
    arrays[nt] = NULL;
    if (!(kind & T_PRODUCED)) {
      if (v == Py_None) {
        if (!(kind & T_OPTIONAL))
          return call_slow(self, args, nargsf, kwnames);
      } else {
        if (!PyArray_Check(v))
          return call_slow(self, args, nargsf, kwnames);
        PyArrayObject *a = (PyArrayObject *)v;
        int written = (kind & T_WRITTEN) || ((kind & T_INPLACE) && inplace);
        if (!is_dtype(a, kind & T_INDEX, self->real) || !readable(a) || (written && !PyArray_ISWRITEABLE(a)))
          return call_slow(self, args, nargsf, kwnames);
        arrays[nt] = a;
        elements += PyArray_SIZE(a);
      }
    }
    nt++;
  }
  /* [OUT] and [BUFFER] arrays: used when they fit and overlap nothing before them */
  for (Py_ssize_t k = 0, t = 0; k < n; k++) {
    unsigned char kind = self->kinds[k];
    if (!(kind & K_TENSOR))
      continue;
    PyObject *v = args[k];
    if ((kind & T_PRODUCED) && v != Py_None) {
      if (!PyArray_Check(v))
        return call_slow(self, args, nargsf, kwnames);
      PyArrayObject *a = (PyArrayObject *)v;
      int fits = is_dtype(a, kind & T_INDEX, self->real) && PyArray_NDIM(a) >= 1 &&
                 PyArray_NDIM(a) <= TH_MAX_DIM && PyArray_IS_C_CONTIGUOUS(a) && PyArray_ISWRITEABLE(a) &&
                 PyArray_ISALIGNED(a);
      /* against every array read, then the [OUT] arrays taken before this one */
      for (int j = 0; fits && j < nt; j++)
        if (arrays[j] && (!(flags[j] & T_PRODUCED) || j < t) && overlap(a, arrays[j]))
          fits = 0;
      if (fits) {
        arrays[t] = a;
        elements += PyArray_SIZE(a);
      }
    }
    t++;
  }
  for (int t = 0; t < nt; t++) {
    if (arrays[t]) {
      wrap(&tensors[t], &storages[t], arrays[t]);
      pointers[t] = &tensors[t];
    } else if (flags[t] & T_PRODUCED) {
      memset(&tensors[t], 0, sizeof(Tensor));
      pointers[t] = &tensors[t];
    } else {
      pointers[t] = NULL;   /* an [OPTIONAL] None */
    }
  }

  state.status = 0;
  state.message[0] = 0;
  int status;
  if (elements > GIL_ELEMENTS) {
    Py_BEGIN_ALLOW_THREADS
    status = self->fn(&state, pointers, ints, reals);
    Py_END_ALLOW_THREADS
  } else {
    status = self->fn(&state, pointers, ints, reals);
  }

  /* the results: the [OUT]/[BUFFER] arrays, in order */
  PyObject *results[MAX_ARGS];
  int nout = 0, failed = status != 0;
  for (int t = 0; t < nt; t++) {
    if (!(flags[t] & T_PRODUCED))
      continue;
    PyObject *r = NULL;
    Storage *s = tensors[t].storage, *own = arrays[t] ? &storages[t] : NULL;
    if (!failed) {
      if (s == own)
        r = arrays[t] ? (PyObject *)arrays[t] : Py_None;
      for (int j = 0; !r && j < nt; j++)   /* in place: a view of another argument */
        if (arrays[j] && s == &storages[j])
          r = (PyObject *)arrays[j];
      if (!r && !s)
        r = Py_None;
      if (r)
        Py_INCREF(r);
      else {
        int typenum = (flags[t] & T_INDEX) ? NPY_INT64 : self->real;
        r = adopt(&tensors[t], typenum, storage_free[free_of(self, flags[t])]);
        failed = !r;   /* (adopted, the array frees it) */
      }
    }
    if (failed && s && s != own && (s->flag & TH_STORAGE_OWNED))
      storage_free[free_of(self, flags[t])](s);   /* allocated by the kernel, owned by no array */
    results[nout++] = r;
  }
  if (failed) {   /* (the loop above freed every storage no array owns) */
    for (int k = 0; k < nout; k++)
      Py_XDECREF(results[k]);
    if (status != 0) {
      PyObject *message = PyUnicode_DecodeUTF8(state.message, (Py_ssize_t)strnlen(state.message, TH_ERROR_SIZE),
                                               "replace");
      if (message) {
        PyErr_Format(THNNError, "%U: %U", self->name, message);
        Py_DECREF(message);
      }
    }
    return NULL;
  }
  if (nout == 0)
    Py_RETURN_NONE;
  if (nout == 1)
    return results[0];
  PyObject *tuple = PyTuple_New(nout);
  if (!tuple) {
    for (int k = 0; k < nout; k++)
      Py_DECREF(results[k]);
    return NULL;
  }
  for (int k = 0; k < nout; k++)
    PyTuple_SET_ITEM(tuple, k, results[k]);
  return tuple;
}

/* ---- the type ---- */

static int caller_init(PyObject *op, PyObject *args, PyObject *kwds)
{
  Caller *self = (Caller *)op;
  static char *keywords[] = {"name", "kinds", "inplace", "trampoline", "real", "slow", NULL};
  PyObject *name, *slow;
  const char *kinds;
  Py_ssize_t nkinds;
  int inplace, real;
  unsigned long long address;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "Uy#iKpO", keywords, &name, &kinds, &nkinds, &inplace,
                                   &address, &real, &slow))
    return -1;
  if (nkinds > MAX_ARGS || inplace >= nkinds || !address || !PyCallable_Check(slow)) {
    PyErr_SetString(PyExc_ValueError, "Caller: bad plan");
    return -1;
  }
  Py_INCREF(name);
  Py_XSETREF(self->name, name);
  Py_INCREF(slow);
  Py_XSETREF(self->slow, slow);
  self->fn = (Trampoline)(uintptr_t)address;
  self->nargs = nkinds;
  self->inplace = inplace;
  self->real = real ? NPY_DOUBLE : NPY_FLOAT;
  self->fast = 1;
  memcpy(self->kinds, kinds, (size_t)nkinds);
  for (Py_ssize_t k = 0; k < nkinds; k++)
    if (kinds[k] == K_OTHER)
      self->fast = 0;
  self->vectorcall = caller_vectorcall;
  return 0;
}

static PyObject *caller_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  Caller *self = (Caller *)type->tp_alloc(type, 0);
  if (self)
    self->vectorcall = NULL;
  return (PyObject *)self;
}

static PyObject *caller_call(PyObject *op, PyObject *args, PyObject *kwargs)
{
  Caller *self = (Caller *)op;
  if (!self->vectorcall) {
    PyErr_SetString(PyExc_TypeError, "Caller: not initialized");
    return NULL;
  }
  return PyVectorcall_Call(op, args, kwargs);
}

static int caller_traverse(PyObject *op, visitproc visit, void *arg)
{
  Caller *self = (Caller *)op;
  Py_VISIT(self->slow);   /* (a subclass's type and __dict__ are visited by CPython) */
  return 0;
}

static int caller_clear(PyObject *op)
{
  Caller *self = (Caller *)op;
  Py_CLEAR(self->slow);
  Py_CLEAR(self->name);
  self->fast = 0;
  return 0;
}

static void caller_dealloc(PyObject *op)
{
  PyObject_GC_UnTrack(op);
  caller_clear(op);
  Py_TYPE(op)->tp_free(op);   /* (a subclass's dealloc drops its type's reference) */
}

static PyObject *caller_fast(PyObject *op, void *closure)
{
  return PyBool_FromLong(((Caller *)op)->fast);
}

static PyGetSetDef caller_getset[] = {
  {"_fast", caller_fast, NULL, "whether ordinary calls take the C path", NULL},
  {NULL, NULL, NULL, NULL, NULL}
};

static PyTypeObject CallerType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "thnn._call.Caller",
  .tp_basicsize = sizeof(Caller),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
  .tp_doc = "A kernel call's C path (see thnn/_call.c); thnn._binding.Kernel is one.",
  .tp_vectorcall_offset = offsetof(Caller, vectorcall),
  .tp_call = caller_call,
  .tp_init = caller_init,
  .tp_new = caller_new,
  .tp_traverse = caller_traverse,
  .tp_clear = caller_clear,
  .tp_dealloc = caller_dealloc,
  .tp_getset = caller_getset,
};

static PyObject *configure(PyObject *module, PyObject *args)
{
  PyObject *error;
  unsigned long long address[3];
  if (!PyArg_ParseTuple(args, "OKKK", &error, &address[0], &address[1], &address[2]))
    return NULL;
  Py_INCREF(error);
  Py_XSETREF(THNNError, error);
  for (int k = 0; k < 3; k++)
    storage_free[k] = (StorageFree)(uintptr_t)address[k];
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
  {"configure", configure, METH_VARARGS,
   "configure(THNNError, addresses of THFloatStorage_free, THDoubleStorage_free, THLongStorage_free)"},
  {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module_def = {
  PyModuleDef_HEAD_INIT, "thnn._call",
  "The C path of kernel calls (thnn/_call.c) and the guard of module verbs (thnn/_guard.c).", -1, methods,
  NULL, NULL, NULL, NULL
};

int thnn_guard_init(PyObject *module);   /* thnn/_guard.c */

PyMODINIT_FUNC PyInit__call(void)
{
  import_array();
  if (PyType_Ready(&CallerType) < 0 || PyType_Ready(&OwnerType) < 0)
    return NULL;
  PyObject *m = PyModule_Create(&module_def);
  if (!m)
    return NULL;
  Py_INCREF(&CallerType);
  if (PyModule_AddObject(m, "Caller", (PyObject *)&CallerType) < 0) {
    Py_DECREF(&CallerType);
    Py_DECREF(m);
    return NULL;
  }
  if (thnn_guard_init(m) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}

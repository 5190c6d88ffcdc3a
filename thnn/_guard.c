/* thnn._call.guard: one thread at a time per module, in C.
 *
 * nn_legacy/_helpers/threads.py wraps the verbs of every Module and Criterion class
 * (forward, backward, updateOutput, ...) with guard(verb, method, refuse).
 * A guarded verb called on a module records (module, thread, depth, verb)
 * while it runs; the same thread may nest verbs of the same module (forward
 * calls updateOutput; a container calls its children), another thread is
 * refused: refuse(module, verb, owner thread id, verb running) is called,
 * which raises, and the verb does not run.  The record goes when the
 * outermost verb returns or raises.  Nothing is stored on the module.
 *
 * The records are a small array searched by the module's address: only the
 * modules running a verb right now are in it (a module and its containers,
 * per thread).  Every access holds the GIL (no Python code runs between a
 * look-up and its update), which also orders the threads.
 *
 * A guarded verb is a method descriptor (like a Python function, without
 * the frame of a Python wrapper): `module.forward(x)` calls it with the
 * module first, `Class.forward` is the guard itself, and functools.wraps's
 * attributes (__name__, __doc__, __wrapped__, ...) live in its __dict__.
 *
 * Floating-point state.  A verb's numpy arithmetic runs with numpy's
 * floating-point errors ignored, as the C kernels and Torch7 run theirs: an
 * overflow gives inf and an invalid operation NaN, without a warning (or an
 * exception under np.errstate(all="raise") or -W error).  numpy keeps that
 * state in a context variable; quiet_verbs(variable, state) hands both here
 * once (nn_legacy/_helpers/threads.py), and the outermost guarded verb of a
 * thread sets the variable to the state while it runs (a verb that finds it
 * set, a container's child, leaves it: one context switch per call from
 * outside, none inside). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <structmember.h>
#include <stddef.h>

typedef struct {
  PyObject *module;          /* borrowed: the caller of the verb holds it */
  unsigned long thread;
  Py_ssize_t depth;
  PyObject *verb;            /* borrowed from the guard running outermost */
} Record;

static PyObject *quiet_var;     /* numpy's floating-point state variable, or NULL */
static PyObject *quiet_state;   /* the state "ignore every error" */

/* Set quiet_var to quiet_state unless it is already: *token is then what
 * quiet_leave resets, else NULL.  -1 with an exception on failure. */
static int quiet_enter(PyObject **token)
{
  *token = NULL;
  if (!quiet_var)
    return 0;
  PyObject *now = NULL;
  if (PyContextVar_Get(quiet_var, NULL, &now) < 0)
    return -1;
  int set = now == quiet_state;
  Py_XDECREF(now);
  if (set)
    return 0;
  *token = PyContextVar_Set(quiet_var, quiet_state);
  return *token ? 0 : -1;
}

/* The state before quiet_enter, restored; result passed through (NULL: the
 * verb's exception is kept). */
static PyObject *quiet_leave(PyObject *token, PyObject *result)
{
  if (!token)
    return result;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  int failed = PyContextVar_Reset(quiet_var, token);
  Py_DECREF(token);
  if (failed < 0) {
    Py_XDECREF(result);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    return NULL;
  }
  PyErr_Restore(type, value, traceback);
  return result;
}

static Record *records;
static Py_ssize_t nrecords, capacity;

static Record *find(PyObject *module)
{
  for (Py_ssize_t k = 0; k < nrecords; k++)
    if (records[k].module == module)
      return &records[k];
  return NULL;
}

static Record *add(PyObject *module, unsigned long thread, PyObject *verb)
{
  if (nrecords == capacity) {
    Py_ssize_t grown = capacity ? 2 * capacity : 16;
    Record *more = PyMem_Realloc(records, (size_t)grown * sizeof(Record));
    if (!more) {
      PyErr_NoMemory();
      return NULL;
    }
    records = more;
    capacity = grown;
  }
  Record *r = &records[nrecords++];
  r->module = module;
  r->thread = thread;
  r->depth = 0;
  r->verb = verb;
  return r;
}

static void leave(PyObject *module)
{
  Record *r = find(module);   /* (found again: other threads may have moved it) */
  if (r && --r->depth == 0)
    *r = records[--nrecords];
}

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *method;
  PyObject *verb;
  PyObject *refuse;
  PyObject *dict;
} Guard;

static PyObject *guard_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
  Guard *self = (Guard *)op;
  if (PyVectorcall_NARGS(nargsf) < 1)   /* no module: the method says what is missing */
    return PyObject_Vectorcall(self->method, args, nargsf, kwnames);
  PyObject *module = args[0];
  unsigned long me = PyThread_get_thread_ident();
  Record *r = find(module);
  if (r && r->thread != me) {
    PyObject *owner = PyLong_FromUnsignedLong(r->thread);
    if (!owner)
      return NULL;
    PyObject *result = PyObject_CallFunctionObjArgs(self->refuse, module, self->verb, owner, r->verb, NULL);
    Py_DECREF(owner);
    if (result) {   /* refuse must raise */
      Py_DECREF(result);
      PyErr_Format(PyExc_RuntimeError, "%U: refused (another thread runs it)", self->verb);
    }
    return NULL;
  }
  if (!r && !(r = add(module, me, self->verb)))
    return NULL;
  r->depth++;
  PyObject *token;
  if (quiet_enter(&token) < 0) {
    leave(module);
    return NULL;
  }
  PyObject *result = PyObject_Vectorcall(self->method, args, nargsf, kwnames);
  leave(module);
  return quiet_leave(token, result);
}

static PyObject *guard_get(PyObject *op, PyObject *obj, PyObject *type)
{
  if (obj == NULL || obj == Py_None) {
    Py_INCREF(op);
    return op;
  }
  return PyMethod_New(op, obj);
}

static PyObject *guard_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  static char *keywords[] = {"verb", "method", "refuse", NULL};
  PyObject *verb, *method, *refuse;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "UOO", keywords, &verb, &method, &refuse))
    return NULL;
  if (!PyCallable_Check(method) || !PyCallable_Check(refuse)) {
    PyErr_SetString(PyExc_TypeError, "guard(verb, method, refuse): method and refuse must be callable");
    return NULL;
  }
  Guard *self = (Guard *)type->tp_alloc(type, 0);
  if (!self)
    return NULL;
  Py_INCREF(verb);
  self->verb = verb;
  Py_INCREF(method);
  self->method = method;
  Py_INCREF(refuse);
  self->refuse = refuse;
  self->vectorcall = guard_vectorcall;
  return (PyObject *)self;
}

static int guard_traverse(PyObject *op, visitproc visit, void *arg)
{
  Guard *self = (Guard *)op;
  Py_VISIT(self->method);
  Py_VISIT(self->refuse);
  Py_VISIT(self->dict);
  return 0;
}

static int guard_clear(PyObject *op)
{
  Guard *self = (Guard *)op;
  Py_CLEAR(self->method);
  Py_CLEAR(self->refuse);
  Py_CLEAR(self->dict);
  return 0;
}

static void guard_dealloc(PyObject *op)
{
  PyObject_GC_UnTrack(op);
  guard_clear(op);
  Py_CLEAR(((Guard *)op)->verb);
  Py_TYPE(op)->tp_free(op);
}

static PyObject *guard_repr(PyObject *op)
{
  return PyUnicode_FromFormat("<guarded %R>", ((Guard *)op)->method);
}

static PyMemberDef guard_members[] = {
  {"verb", T_OBJECT, offsetof(Guard, verb), READONLY, "the verb's name"},
  {NULL, 0, 0, 0, NULL}
};

static PyGetSetDef guard_getset[] = {
  {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
  {NULL, NULL, NULL, NULL, NULL}
};

static PyTypeObject GuardType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "thnn._call.guard",
  .tp_basicsize = sizeof(Guard),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
  .tp_doc = "guard(verb, method, refuse): method, run by one thread at a time per object (see thnn/_guard.c)",
  .tp_vectorcall_offset = offsetof(Guard, vectorcall),
  .tp_call = PyVectorcall_Call,
  .tp_descr_get = guard_get,
  .tp_dictoffset = offsetof(Guard, dict),
  .tp_new = guard_new,
  .tp_traverse = guard_traverse,
  .tp_clear = guard_clear,
  .tp_dealloc = guard_dealloc,
  .tp_repr = guard_repr,
  .tp_members = guard_members,
  .tp_getset = guard_getset,
};

/* The thread ids of the modules running a verb now, for tests: {id(module): (thread id, depth)}. */
static PyObject *guard_records(PyObject *module, PyObject *unused)
{
  PyObject *d = PyDict_New();
  for (Py_ssize_t k = 0; d && k < nrecords; k++) {
    PyObject *key = PyLong_FromVoidPtr(records[k].module);
    PyObject *value = Py_BuildValue("(kn)", records[k].thread, records[k].depth);
    if (!key || !value || PyDict_SetItem(d, key, value) != 0)
      Py_CLEAR(d);
    Py_XDECREF(key);
    Py_XDECREF(value);
  }
  return d;
}

/* quiet_verbs(variable, state): the context variable and value guarded verbs run under (see the top). */
static PyObject *guard_quiet_verbs(PyObject *module, PyObject *args)
{
  PyObject *var, *state;
  if (!PyArg_ParseTuple(args, "OO", &var, &state))
    return NULL;
  if (var == Py_None) {   /* (off: for measurements) */
    Py_CLEAR(quiet_var);
    Py_CLEAR(quiet_state);
    Py_RETURN_NONE;
  }
  if (!PyContextVar_CheckExact(var)) {
    PyErr_SetString(PyExc_TypeError, "quiet_verbs(variable, state): variable must be a contextvars.ContextVar or None");
    return NULL;
  }
  Py_INCREF(var);
  Py_INCREF(state);
  Py_XSETREF(quiet_var, var);
  Py_XSETREF(quiet_state, state);
  Py_RETURN_NONE;
}

PyMethodDef thnn_guard_methods[] = {
  {"quiet_verbs", guard_quiet_verbs, METH_VARARGS,
   "quiet_verbs(variable, state): guarded verbs run with the context variable set to state (None: not set)"},
  {"guard_records", guard_records, METH_NOARGS,
   "{id(object): (thread id, depth)} of the objects running a guarded verb now"},
  {NULL, NULL, 0, NULL}
};

int thnn_guard_init(PyObject *m)
{
  if (PyType_Ready(&GuardType) < 0)
    return -1;
  Py_INCREF(&GuardType);
  if (PyModule_AddObject(m, "guard", (PyObject *)&GuardType) < 0) {
    Py_DECREF(&GuardType);
    return -1;
  }
  return PyModule_AddFunctions(m, thnn_guard_methods);
}

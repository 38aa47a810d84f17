/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_engine.c: the batch engine every Batch works on (py_batch_engine.h). P256_BATCH at
 * import ("avx512-ifma", "scalar"; unset or empty: the first that runs here), by the
 * extension's one chooser (backend.h, which also picks the field backend): an unknown or
 * unavailable name is an ImportError listing the valid ones. _core.batch_backend() names
 * it; _core._batch_select(name) changes it (tests); _core.batch_engines() lists those that
 * run here; _core.batch_secret_backend(op) names what runs the work with secrets.
 */
#include "py_batch_engine.h"
#include "backend.h"

/* The core's automatic choice is IFMA exactly where IFMA runs (p256.h). */
static int batch_ifma_runs(void)
{
    return strcmp(p256_batch_engine(), "avx512-ifma") == 0;
}

/* The engines in preference order, for the extension's one chooser (backend.h). */
static const p256_choice batch_choices[] = {
    {"avx512-ifma", 1, batch_ifma_runs,
     "AVX512F, AVX512VL, AVX512IFMA with the OS saving zmm registers (or this build lacks "
     "the engine)"},
    {"scalar", 1, NULL, NULL},
};
static const int batch_choice_engines[] = {P256_BATCH_IFMA, P256_BATCH_SCALAR};
#define BATCH_N_ENGINES (sizeof batch_choices / sizeof batch_choices[0])

/* Set at import (and by _batch_select, a test hook); each Batch copies it when made. Read
 * and written as a relaxed atomic: a GIL build needs none, a free-threaded one would. */
static int batch_engine = P256_BATCH_SCALAR;
#if defined(__GNUC__) || defined(__clang__)
#define BATCH_ENGINE() __atomic_load_n(&batch_engine, __ATOMIC_RELAXED)
#define BATCH_ENGINE_SET(e) __atomic_store_n(&batch_engine, (e), __ATOMIC_RELAXED)
#else
#define BATCH_ENGINE() batch_engine
#define BATCH_ENGINE_SET(e) (batch_engine = (e))
#endif

int batch_engine_now(void)
{
    return BATCH_ENGINE();
}

const char *batch_engine_name(int engine)
{
    for (size_t i = 0; i < BATCH_N_ENGINES; i++)
        if (batch_choice_engines[i] == engine)
            return batch_choices[i].name;
    return "?";
}

/* batch_secret_backend(op) -> "avx512-ifma" | "scalar": what runs the work with secrets
 * of op (P256_BATCH_OP_GEN, P256_BATCH_OP_ECDH) on the engine chosen now. */
static PyObject *batch_secret_backend(PyObject *self, PyObject *arg)
{
    const char *name;
    long op = PyLong_AsLong(arg);
    (void)self;
    if (op == -1 && PyErr_Occurred())
        return NULL;
    name = p256_batch_secret_engine((int)op, BATCH_ENGINE());
    if (name == NULL) {
        PyErr_SetString(PyExc_ValueError, "unknown batch operation");
        return NULL;
    }
    return PyUnicode_FromString(name);
}

/* batch_backend() -> "avx512-ifma" | "scalar": what verify_many uses now. */
static PyObject *batch_backend(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(batch_engine_name(BATCH_ENGINE()));
}

/* batch_engines() -> tuple of the engine names that run here, preferred first. */
static PyObject *batch_engines_here(PyObject *self, PyObject *unused)
{
    PyObject *names = PyList_New(0), *t;
    (void)self;
    (void)unused;
    if (names == NULL)
        return NULL;
    for (size_t i = 0; i < BATCH_N_ENGINES; i++) {
        PyObject *s;
        if (batch_choices[i].cpu_ok != NULL && !batch_choices[i].cpu_ok())
            continue;
        s = PyUnicode_FromString(batch_choices[i].name);
        if (s == NULL || PyList_Append(names, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(names);
            return NULL;
        }
        Py_DECREF(s);
    }
    t = PyList_AsTuple(names);
    Py_DECREF(names);
    return t;
}

/* _batch_select(name or None): as P256_BATCH at import (None: automatic), for tests;
 * ValueError with the import's message. Batches made before keep their engine. */
static PyObject *batch_select(PyObject *self, PyObject *arg)
{
    char err[300];
    const char *request = NULL;
    int i;
    (void)self;
    if (arg != Py_None && (request = PyUnicode_AsUTF8(arg)) == NULL)
        return NULL;
    i = p256_choose("P256_BATCH", "batch engine", batch_choices, BATCH_N_ENGINES, request, err,
                    sizeof err);
    if (i < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    (void)p256_batch_prepare(batch_choice_engines[i]); /* under the GIL: see batch_engine_init */
    BATCH_ENGINE_SET(batch_choice_engines[i]);
    Py_RETURN_NONE;
}

static PyMethodDef batch_engine_functions[] = {
    {"batch_backend", batch_backend, METH_NOARGS,
     "The batch engine verify_many uses: \"avx512-ifma\" or \"scalar\"."},
    {"batch_secret_backend", batch_secret_backend, METH_O,
     "batch_secret_backend(op): the engine of the work with secrets of op (BATCH_OP_GEN, "
     "BATCH_OP_ECDH)."},
    {"batch_engines", batch_engines_here, METH_NOARGS,
     "The batch engines that run here, preferred first."},
    {"_batch_select", batch_select, METH_O,
     "_batch_select(name or None): choose the engine as P256_BATCH does (tests)."},
    {NULL, NULL, 0, NULL},
};

int batch_engine_init(PyObject *module)
{
    char err[300];
    int i = p256_choose_env("P256_BATCH", "batch engine", batch_choices, BATCH_N_ENGINES, err,
                            sizeof err);
    if (i < 0) {
        PyErr_SetString(PyExc_ImportError, err);
        return -1;
    }
    BATCH_ENGINE_SET(batch_choice_engines[i]);
    /* The engine's tables, built now with the GIL held: built lazily by the first batch, a
     * fork by another thread during that build would leave the child waiting forever for
     * a builder it does not have (os.fork needs the GIL, so none can happen now). */
    (void)p256_batch_prepare(batch_choice_engines[i]);
    return PyModule_AddFunctions(module, batch_engine_functions);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * allocstat.c: p256._allocstat, a cumulative allocation counter for `p256 bench`.
 *
 * Go's benchmarks report alloc/op (bytes) and allocs/op (heap objects): the TOTAL
 * allocated during b.N operations divided by b.N, freed memory included. tracemalloc
 * cannot give that figure: it keeps only the blocks still alive (snapshots) plus the
 * current and peak traced size, so an operation that allocates and frees ten thousand
 * temporary ints (the pure-Python reference) would look like it allocated almost nothing.
 *
 * This module installs a hook on the PyMem_* (PYMEM_DOMAIN_MEM) and PyObject_*
 * (PYMEM_DOMAIN_OBJ) allocators, the same mechanism tracemalloc uses
 * (PyMem_GetAllocator / PyMem_SetAllocator, see the C API "Memory Management" page and
 * PEP 445). Every call is passed to the allocator that was installed before and counted:
 *   malloc(n), calloc(k, n): one block, n (k*n) bytes;
 *   realloc(p, n):           one block, n bytes (a new allocation of the new size, as a
 *                            Go append that outgrows its array would make);
 *   free:                    not counted (Go's figures do not subtract frees either).
 * Both domains require the GIL, so plain counters are race free. PYMEM_DOMAIN_RAW is not
 * hooked: it is called without the GIL by interpreter internals, and pymalloc forwards
 * its large requests to it, so counting it too would count those requests twice.
 * Memory that C libraries get from malloc() directly (OpenSSL inside pyca/cryptography)
 * is invisible here, as it is to tracemalloc; the p256 core itself never allocates.
 *
 * start() installs the hooks and zeroes the counters; stop() restores the previous
 * allocators and returns (blocks, bytes). Blocks allocated while hooked are freed
 * correctly after stop(): the hook only forwards, the underlying allocator is unchanged.
 * stop() refuses to unhook if somebody replaced the allocators in between (for example
 * tracemalloc.start()), since restoring then would remove their hook under them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct {
    PyMemAllocatorEx prev; /* the allocator we forward to */
    unsigned long long blocks;
    unsigned long long bytes;
} counter;

static counter counters[2];                /* [0] PYMEM_DOMAIN_MEM, [1] PYMEM_DOMAIN_OBJ */
static const PyMemAllocatorDomain domains[2] = {PYMEM_DOMAIN_MEM, PYMEM_DOMAIN_OBJ};
static int active;

static void *count_malloc(void *ctx, size_t size)
{
    counter *c = (counter *)ctx;
    c->blocks++;
    c->bytes += size;
    return c->prev.malloc(c->prev.ctx, size);
}

static void *count_calloc(void *ctx, size_t nelem, size_t elsize)
{
    counter *c = (counter *)ctx;
    c->blocks++;
    c->bytes += (unsigned long long)nelem * elsize;
    return c->prev.calloc(c->prev.ctx, nelem, elsize);
}

static void *count_realloc(void *ctx, void *ptr, size_t new_size)
{
    counter *c = (counter *)ctx;
    c->blocks++;
    c->bytes += new_size;
    return c->prev.realloc(c->prev.ctx, ptr, new_size);
}

static void count_free(void *ctx, void *ptr)
{
    counter *c = (counter *)ctx;
    c->prev.free(c->prev.ctx, ptr);
}

static PyObject *allocstat_start(PyObject *self, PyObject *unused)
{
    int i;
    (void)self;
    (void)unused;
    if (active) {
        PyErr_SetString(PyExc_RuntimeError, "allocation counter already running");
        return NULL;
    }
    for (i = 0; i < 2; i++) {
        PyMemAllocatorEx hook;
        PyMem_GetAllocator(domains[i], &counters[i].prev);
        counters[i].blocks = 0;
        counters[i].bytes = 0;
        hook.ctx = &counters[i];
        hook.malloc = count_malloc;
        hook.calloc = count_calloc;
        hook.realloc = count_realloc;
        hook.free = count_free;
        PyMem_SetAllocator(domains[i], &hook);
    }
    active = 1;
    Py_RETURN_NONE;
}

/* (blocks, bytes) counted so far, without allocating while reading them. */
static PyObject *counts_tuple(void)
{
    unsigned long long blocks = counters[0].blocks + counters[1].blocks;
    unsigned long long bytes = counters[0].bytes + counters[1].bytes;
    return Py_BuildValue("(KK)", blocks, bytes);
}

static PyObject *allocstat_stop(PyObject *self, PyObject *unused)
{
    int i;
    (void)self;
    (void)unused;
    if (!active) {
        PyErr_SetString(PyExc_RuntimeError, "allocation counter is not running");
        return NULL;
    }
    for (i = 0; i < 2; i++) {
        PyMemAllocatorEx now;
        PyMem_GetAllocator(domains[i], &now);
        if (now.ctx != &counters[i] || now.malloc != count_malloc) {
            PyErr_SetString(PyExc_RuntimeError,
                            "the allocators were replaced while counting (tracemalloc started?); "
                            "the counter stays installed");
            return NULL;
        }
    }
    for (i = 0; i < 2; i++)
        PyMem_SetAllocator(domains[i], &counters[i].prev);
    active = 0;
    return counts_tuple();
}

static PyObject *allocstat_is_running(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyBool_FromLong(active);
}

static PyMethodDef allocstat_methods[] = {
    {"start", allocstat_start, METH_NOARGS,
     "Hook the PyMem and PyObject allocators and zero the counters."},
    {"stop", allocstat_stop, METH_NOARGS,
     "Restore the allocators; return (blocks, bytes) allocated since start(), frees not subtracted."},
    {"is_running", allocstat_is_running, METH_NOARGS, "True between start() and stop()."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef allocstat_module = {
    PyModuleDef_HEAD_INIT,
    "p256._allocstat",
    "Cumulative allocation counter (blocks, bytes) for p256 bench; see csrc/allocstat.c.",
    -1,
    allocstat_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__allocstat(void)
{
    return PyModule_Create(&allocstat_module);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_pubtable.c: p256._core.PublicTable, the per-key table behind
 * p256.PublicKey.precompute (the core's p256_pubtable_* in p256.h).
 *
 * A table is made only by its key (PublicPoint._make_table in py_pubkey.c, which calls
 * p256py_pubtable_build here: this file knows tables, not keys), with the GIL released;
 * the object is complete when it is returned and never changes afterwards, so a
 * reference published by one thread (the key's) is safe to use from any other without a
 * lock. Built and verified with in variable time (public data); SecretKey.exchange reads
 * it with the secret scalar in constant time (p256_ecdh_pubtable).
 */
#include "py_binding.h"

typedef struct {
    PyObject_HEAD
    void *table; /* p256_pubtable_size(bits) bytes, built */
    size_t size;
    int bits;
} PublicTableObject;

static PyTypeObject PublicTable_Type;

static void pubtable_dealloc(PublicTableObject *self)
{
    PyMem_RawFree(self->table);
    PyObject_Free(self);
}

PyObject *p256py_pubtable_build(PyObject *owner, const p256_pubkey *pk, int bits)
{
    const size_t size = p256_pubtable_size(bits);
    void *table;
    int ok;
    PublicTableObject *self;

    if (size == 0) {
        PyErr_Format(PyExc_ValueError, "window must be 4 to 8 bits, got %d", bits);
        return NULL;
    }
    table = PyMem_RawMalloc(size); /* Raw: usable without the GIL, and not tracked per call */
    if (table == NULL)
        return PyErr_NoMemory();
    Py_INCREF(owner); /* pk lives in it */
    RELEASE_GIL
    ok = p256_pubtable_build_pubkey_vartime(table, size, bits, pk);
    ACQUIRE_GIL
    Py_DECREF(owner);
    if (!ok) { /* unreachable: size is right and the key valid */
        PyMem_RawFree(table);
        PyErr_SetString(PyExc_ValueError, "the table could not be built");
        return NULL;
    }
    self = PyObject_New(PublicTableObject, &PublicTable_Type);
    if (self == NULL) {
        PyMem_RawFree(table);
        return NULL;
    }
    self->table = table;
    self->size = size;
    self->bits = bits;
    return (PyObject *)self;
}

const void *p256py_pubtable_get(PyObject *obj)
{
    if (obj == NULL || !PyObject_TypeCheck(obj, &PublicTable_Type))
        return NULL;
    return ((PublicTableObject *)obj)->table;
}

int p256py_pubtable_bits(PyObject *obj)
{
    return ((PublicTableObject *)obj)->bits;
}

static PyObject *pubtable_sizeof(PublicTableObject *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromSize_t(sizeof(PublicTableObject) + self->size);
}

static PyObject *pubtable_get_bits(PublicTableObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->bits);
}

static PyObject *pubtable_get_nbytes(PublicTableObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromSize_t(self->size);
}

static PyObject *pubtable_reduce(PublicTableObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError, "a PublicTable is not pickled: rebuild it from the key");
    return NULL;
}

static PyMethodDef pubtable_methods[] = {
    {"__sizeof__", (PyCFunction)pubtable_sizeof, METH_NOARGS, "Bytes held, table included."},
    {"__reduce__", (PyCFunction)pubtable_reduce, METH_NOARGS, "Refuses: not picklable."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef pubtable_getset[] = {
    {"bits", (getter)pubtable_get_bits, NULL, "Window size in bits (4 to 8).", NULL},
    {"nbytes", (getter)pubtable_get_nbytes, NULL, "Size of the table in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PublicTable_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.PublicTable",
    .tp_basicsize = sizeof(PublicTableObject),
    .tp_dealloc = (destructor)pubtable_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A per-key table for verification and ECDH (made by PublicKey.precompute).",
    .tp_methods = pubtable_methods,
    .tp_getset = pubtable_getset,
};

int p256py_add_pubtable(PyObject *module)
{
    if (PyModule_AddIntConstant(module, "PUBTABLE_BITS", P256_PUBTABLE_BITS) < 0)
        return -1;
    return p256py_add_type(module, "PublicTable", &PublicTable_Type);
}

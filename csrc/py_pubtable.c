/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_pubtable.c: p256._core.PublicTable, the per-key table behind
 * p256.PublicKey.precompute (issue 14; the core's p256_pubtable_* in p256.h).
 *
 * PublicTable(sec1_pub, bits) builds the table with the GIL released; the object is
 * complete when the constructor returns and never changes afterwards, so a reference
 * published by one thread is safe to use from any other without a lock. verify() has
 * core_verify's contract. Public data only: variable time.
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

static PyObject *pubtable_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *pubobj;
    int bits, ok;
    byteview q;
    size_t size;
    void *table;
    PublicTableObject *self;
    (void)type;

    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "PublicTable() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "Oi:PublicTable", &pubobj, &bits))
        return NULL;
    size = p256_pubtable_size(bits);
    if (size == 0) {
        PyErr_Format(PyExc_ValueError, "window must be 4 to 8 bits, got %d", bits);
        return NULL;
    }
    if (byteview_get(&q, pubobj, "public key") < 0)
        return NULL;
    table = PyMem_RawMalloc(size); /* Raw: usable without the GIL, and not tracked per call */
    if (table == NULL) {
        byteview_release(&q);
        return PyErr_NoMemory();
    }
    RELEASE_GIL
    ok = p256_pubtable_build_vartime(table, size, bits, q.buf, (size_t)q.len);
    ACQUIRE_GIL
    byteview_release(&q);
    if (!ok) {
        PyMem_RawFree(table);
        PyErr_SetString(PyExc_ValueError, "not a valid P-256 public key");
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

/* verify(sig, digest, raw) -> bool, as _core.verify for the table's key. */
static PyObject *pubtable_verify(PublicTableObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    byteview dg;
    uint8_t rs[64];
    int ok;

    if (check_nargs(nargs, 3, "verify") < 0)
        return NULL;
    if (sig_digest_get(rs, &ok, &dg, args[0], args[1], args[2]) < 0)
        return NULL;
    if (ok) {
        /* The object (and so its table) outlives the call: the caller holds a reference. */
        RELEASE_GIL
        ok = p256_verify_pubtable_vartime(self->table, rs, dg.buf, (size_t)dg.len);
        ACQUIRE_GIL
    }
    byteview_release(&dg);
    return PyBool_FromLong(ok);
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
    {"verify", (PyCFunction)(void (*)(void))pubtable_verify, METH_FASTCALL,
     "verify(sig, digest, raw) -> bool, for the key the table was built from."},
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
    .tp_doc = "PublicTable(sec1_pub, bits): a per-key table for verification (vartime).",
    .tp_methods = pubtable_methods,
    .tp_getset = pubtable_getset,
    .tp_new = pubtable_new,
};

int p256py_add_pubtable(PyObject *module)
{
    if (PyModule_AddIntConstant(module, "PUBTABLE_BITS", P256_PUBTABLE_BITS) < 0)
        return -1;
    return p256py_add_type(module, "PublicTable", &PublicTable_Type);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_items.c: what the batch kinds share in reading their items (py_batch_shared.h): a
 * message's bytes, an item's tuple read within bounds, the index in an error, the check
 * of a hash id.
 */
#include "py_batch_shared.h"

int batch_known_hash(int hash, int nonce)
{
    if ((nonce && hash == P256_NONCE_HEDGED) ||
        (hash >= P256_NONCE_SHA224 && hash <= P256_NONCE_SHA3_512))
        return 0;
    PyErr_SetString(PyExc_ValueError, nonce ? "unknown nonce mode" : "unknown hash id");
    return -1;
}

void batch_name_index(const char *name, Py_ssize_t index)
{
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_TypeError, "%s[%zd]: %S", name, index, value);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
}

int batch_bytes_take(batch_bytes *m, PyObject *obj, const char *name, Py_ssize_t index,
                     const char *what)
{
    byteview b;
    int rc = 0;
    if (byteview_get(&b, obj, what) < 0) {
        batch_name_index(name, index);
        return -1;
    }
    if (b.view.obj == NULL) { /* a bytes object: immutable, kept alive by our reference */
        m->keep = obj;
        Py_INCREF(obj);
        m->buf = b.buf;
    } else if ((m->copy = (uint8_t *)PyMem_Malloc(b.len > 0 ? (size_t)b.len : 1)) == NULL) {
        PyErr_NoMemory();
        rc = -1;
    } else {
        memcpy(m->copy, b.buf, (size_t)b.len);
        m->buf = m->copy;
    }
    m->len = (size_t)b.len;
    byteview_release(&b);
    return rc;
}

void batch_bytes_clear(batch_bytes *m)
{
    Py_CLEAR(m->keep);
    PyMem_Free(m->copy);
    m->copy = NULL;
}

/* obj's items as a tuple, reading at most size + 1 of them from an iterable that is not a
 * tuple or list (it may be endless: one too many tells it is the wrong size), or NULL with
 * the iterable's own error (TypeError: it is not iterable). */
static PyObject *batch_tuple_bounded(PyObject *obj, Py_ssize_t size)
{
    PyObject *it, *t = NULL, *got[BATCH_TUPLE_MAX + 1];
    Py_ssize_t n = 0;
    if (PyTuple_CheckExact(obj))
        return Py_INCREF(obj), obj;
    if (PyTuple_Check(obj) || PyList_Check(obj))
        return PySequence_Tuple(obj);
    if (size > BATCH_TUPLE_MAX) {
        PyErr_SetString(PyExc_SystemError, "batch item larger than BATCH_TUPLE_MAX");
        return NULL;
    }
    if ((it = PyObject_GetIter(obj)) == NULL)
        return NULL;
    while (n <= size && (got[n] = PyIter_Next(it)) != NULL)
        n++;
    Py_DECREF(it);
    if (!PyErr_Occurred() && (t = PyTuple_New(n)) != NULL) {
        for (Py_ssize_t i = 0; i < n; i++)
            PyTuple_SET_ITEM(t, i, got[i]);
        return t;
    }
    while (n > 0)
        Py_DECREF(got[--n]);
    return NULL;
}

PyObject *batch_tuple_of(PyObject *obj, Py_ssize_t size, const char *name, Py_ssize_t index,
                         const char *shape)
{
    PyObject *t = batch_tuple_bounded(obj, size);
    if (t == NULL && !PyErr_ExceptionMatches(PyExc_TypeError))
        return NULL;
    if (t != NULL && PyTuple_GET_SIZE(t) == size)
        return t;
    PyErr_Clear();
    if (t != NULL && (PyTuple_Check(obj) || PyList_Check(obj)))
        PyErr_Format(PyExc_TypeError, "%s[%zd] must be %s, got a %.100s of %zd item%s", name,
                     index, shape, Py_TYPE(obj)->tp_name, PyTuple_GET_SIZE(t),
                     PyTuple_GET_SIZE(t) == 1 ? "" : "s");
    else
        PyErr_Format(PyExc_TypeError, "%s[%zd] must be %s, not %.100s", name, index, shape,
                     Py_TYPE(obj)->tp_name);
    Py_XDECREF(t);
    return NULL;
}


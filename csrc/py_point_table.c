/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_point_table.c: p256._core.PointTable, a table of one public point for several
 * products of it (the core's p256_point_table_*: the Lim-Lee comb). Private: the OPRF
 * server (src/p256/oprf.py) takes its evaluation and the proof's products of one blinded
 * element over one, in about 0.6 of the time of four ladders.
 *
 * PointTable(P) builds the table in variable time (P is public: a peer's element; the
 * identity is refused), with the GIL released; the object never changes afterwards, so
 * any thread may use it. table.mul(s) is s*P, constant time in the Scalar s, as a point
 * of P's class.
 */
#include "py_binding.h"

typedef struct {
    PyObject_HEAD
    PyTypeObject *point_type; /* P's class: the products' */
    p256_point_table table;
} PointTableObject;

static void point_table_dealloc(PointTableObject *self)
{
    Py_XDECREF(self->point_type);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *point_table_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"point", NULL};
    PyObject *point;
    const p256_point *p;
    PointTableObject *self;
    int ok;

    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:PointTable", kwlist, &point))
        return NULL;
    p = p256py_group_point_get(point);
    if (p == NULL)
        return PyErr_Format(PyExc_TypeError, "PointTable() takes a p256.Point, not %.100s",
                            Py_TYPE(point)->tp_name);
    self = (PointTableObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(point); /* p lives in it */
    RELEASE_GIL
    ok = p256_point_table_build_vartime(&self->table, p);
    ACQUIRE_GIL
    self->point_type = Py_TYPE(point);
    Py_INCREF(self->point_type);
    Py_DECREF(point);
    if (!ok) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "the identity has no table");
        return NULL;
    }
    return (PyObject *)self;
}

/* mul(s) -> s*P, constant time in s. */
static PyObject *point_table_mul(PointTableObject *self, PyObject *scalar)
{
    const uint8_t *k = p256py_scalar_get(scalar);
    p256_point r;
    if (k == NULL)
        return PyErr_Format(PyExc_TypeError, "mul() takes a p256.Scalar, not %.100s",
                            Py_TYPE(scalar)->tp_name);
    Py_INCREF(scalar); /* k lives in it */
    RELEASE_GIL
    p256_point_table_mult(&r, k, &self->table);
    ACQUIRE_GIL
    Py_DECREF(scalar);
    return p256py_group_point_take(self->point_type, &r);
}

static PyMethodDef point_table_methods[] = {
    {"mul", (PyCFunction)point_table_mul, METH_O, "mul(s) -> s*P, constant time in the Scalar s."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PointTable_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.PointTable",
    .tp_basicsize = sizeof(PointTableObject),
    .tp_dealloc = (destructor)point_table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "PointTable(P): a table of the public point P for several products s*P, each "
              "constant time in s (mul).",
    .tp_methods = point_table_methods,
    .tp_new = point_table_new,
};

int p256py_add_point_table(PyObject *module)
{
    return p256py_add_type(module, "PointTable", &PointTable_Type);
}

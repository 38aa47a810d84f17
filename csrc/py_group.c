/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_group.c: the module's functions over the group's points (py_point.c) and scalars
 * (py_scalar.c): the sums of many multiples, constant time and variable time, and RFC
 * 9380's map from uniform bytes (the native half of p256.hash_to_curve and
 * encode_to_curve). And the group's part of the module's init: the functions, then the
 * Point, PointTable and Scalar types.
 */
#include "py_binding.h"

/* The class of the points h2c_map makes (p256.Point), set once at import by p256._group
 * (_set_point_class); _core.Point until then (NULL). */
static PyTypeObject *point_class;

/* The most terms a sum takes: a stream of them that never ends is refused after this many,
 * not read until memory runs out (a million terms are seconds of work). */
#define GROUP_MULTI_MAX ((Py_ssize_t)1 << 20)

/*
 * The terms of a sum into two new lists of the same length, or -1 with the documented
 * error: TypeError for an argument that is not iterable, ValueError for counts that differ
 * or for more than GROUP_MULTI_MAX terms. The two are read in step, so a stream that never
 * ends beside a finite one is read one item past the other's end, no further (sized ones,
 * lists and tuples, have their lengths compared first, and the error names both).
 */
static int group_take_terms(PyObject *scalars, PyObject *points, PyObject **ks, PyObject **ps)
{
    PyObject *its[2] = {NULL, NULL}, *args[2] = {scalars, points}, *lists[2] = {NULL, NULL};
    static const char *const names[2] = {"scalars", "points"}, *const kinds[2] = {"Scalars", "Points"};
    Py_ssize_t sizes[2], n = 0;
    int rc = -1;

    for (int j = 0; j < 2; j++) {
        sizes[j] = PyObject_Length(args[j]); /* -1 (TypeError, cleared) without len() */
        if (sizes[j] < 0) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError))
                return -1;
            PyErr_Clear();
        }
    }
    if (sizes[0] >= 0 && sizes[1] >= 0 && sizes[0] != sizes[1]) {
        PyErr_Format(PyExc_ValueError, "multi_mult() takes as many points as scalars, got %zd "
                     "scalars and %zd points", sizes[0], sizes[1]);
        return -1;
    }
    for (int j = 0; j < 2; j++) {
        if ((its[j] = PyObject_GetIter(args[j])) == NULL) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "%s must be a sequence of %s, not %.100s", names[j],
                             kinds[j], Py_TYPE(args[j])->tp_name);
            }
            goto done;
        }
        if ((lists[j] = PyList_New(0)) == NULL)
            goto done;
    }
    for (;;) {
        PyObject *item[2];
        for (int j = 0; j < 2; j++)
            if ((item[j] = PyIter_Next(its[j])) == NULL && PyErr_Occurred()) {
                Py_XDECREF(j == 1 ? item[0] : NULL);
                goto done;
            }
        if (item[0] == NULL || item[1] == NULL) {
            const int ended = item[0] == NULL ? 0 : 1;
            Py_XDECREF(item[0]);
            Py_XDECREF(item[1]);
            if (item[0] == NULL && item[1] == NULL)
                break;
            PyErr_Format(PyExc_ValueError, "multi_mult() takes as many points as scalars: the %s "
                         "ended after %zd, the %s did not", names[ended], n, names[1 - ended]);
            goto done;
        }
        if (n == GROUP_MULTI_MAX) {
            Py_DECREF(item[0]);
            Py_DECREF(item[1]);
            PyErr_Format(PyExc_ValueError, "multi_mult() takes at most %zd terms", GROUP_MULTI_MAX);
            goto done;
        }
        for (int j = 0; j < 2; j++) {
            int bad = PyList_Append(lists[j], item[j]);
            Py_DECREF(item[j]);
            if (bad < 0) {
                Py_XDECREF(j == 0 ? item[1] : NULL);
                goto done;
            }
        }
        n++;
    }
    *ks = lists[0];
    *ps = lists[1];
    lists[0] = lists[1] = NULL;
    rc = 0;
done:
    for (int j = 0; j < 2; j++) {
        Py_XDECREF(its[j]);
        Py_XDECREF(lists[j]);
    }
    return rc;
}

/*
 * multi_mult(cls, scalars, points, vartime) -> sum of s_i * P_i as a point of class cls:
 * the items taken into lists of our own (the references held while the GIL is released:
 * a list changed by another thread meanwhile changes nothing here), checked, then summed
 * by the core in the scratch it needs. TypeError for an item of the wrong type (its index
 * named) or for arguments that are not iterable; ValueError for counts that differ.
 */
static PyObject *group_multi_mult(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *ks = NULL, *ps = NULL, *res = NULL;
    const uint8_t **kp = NULL;
    const p256_point **pp = NULL;
    void *scratch = NULL;
    size_t len;
    Py_ssize_t n;
    int vartime, ok;
    p256_point r;
    (void)self;
    if (check_nargs(nargs, 4, "multi_mult") < 0 || (vartime = flag_get(args[3], "vartime")) < 0)
        return NULL;
    if (!PyType_Check(args[0]) || !PyType_IsSubtype((PyTypeObject *)args[0], p256py_group_point_type()))
        return PyErr_Format(PyExc_TypeError, "multi_mult() makes a Point type");
    if (group_take_terms(args[1], args[2], &ks, &ps) < 0)
        goto done;
    n = PyList_GET_SIZE(ks);
    len = p256_point_multi_mult_scratch_size((size_t)n);
    kp = PyMem_Malloc(((size_t)n + 1) * sizeof *kp);
    pp = PyMem_Malloc(((size_t)n + 1) * sizeof *pp);
    scratch = PyMem_Malloc(len);
    if (kp == NULL || pp == NULL || scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyList_GET_ITEM(ks, i), *p = PyList_GET_ITEM(ps, i);
        if ((kp[i] = p256py_scalar_get(s)) == NULL) {
            PyErr_Format(PyExc_TypeError, "scalars[%zd] must be a p256.Scalar, not %.100s%s", i,
                         Py_TYPE(s)->tp_name, PyLong_Check(s) ? " (p256.Scalar.from_int() makes one)" : "");
            goto done;
        }
        if ((pp[i] = p256py_group_point_get(p)) == NULL) {
            PyErr_Format(PyExc_TypeError, "points[%zd] must be a p256.Point, not %.100s", i,
                         Py_TYPE(p)->tp_name);
            goto done;
        }
    }
    RELEASE_GIL
    ok = vartime ? p256_point_multi_mult_vartime(&r, kp, pp, (size_t)n, scratch, len)
                 : p256_point_multi_mult(&r, kp, pp, (size_t)n, scratch, len);
    ACQUIRE_GIL
    if (!ok) { /* unreachable: the scratch is the size the core asked for */
        PyErr_SetString(PyExc_RuntimeError, "multi_mult: scratch too small");
        goto done;
    }
    res = p256py_group_point_take((PyTypeObject *)args[0], &r);
done:
    PyMem_Free(kp);
    PyMem_Free(pp);
    PyMem_Free(scratch);
    Py_XDECREF(ks);
    Py_XDECREF(ps);
    return res;
}

/* h2c_map(uniform) -> RFC 9380's map of 48 uniform bytes (encode_to_curve) or of 96 (two
 * elements, mapped and added: hash_to_curve), as a point of the registered class. The
 * bytes are copied first (and wiped after): they may be a password's hash. */
static PyObject *group_h2c_map(PyObject *self, PyObject *uniform)
{
    byteview b;
    uint8_t buf[96];
    p256_point r;
    size_t len;
    (void)self;
    if (byteview_get(&b, uniform, "uniform bytes") < 0)
        return NULL;
    len = (size_t)b.len;
    if (len != 48 && len != 96) {
        byteview_release(&b);
        return PyErr_Format(PyExc_ValueError, "h2c_map() takes 48 or 96 bytes, got %zu", len);
    }
    memcpy(buf, b.buf, len);
    byteview_release(&b);
    RELEASE_GIL
    (void)p256_point_map_to_curve(&r, buf, len);
    ACQUIRE_GIL
    p256_wipe(buf, sizeof buf);
    return p256py_group_point_take(point_class != NULL ? point_class : p256py_group_point_type(), &r);
}

/* _set_point_class(cls): the class of the points the module's functions make (once, at
 * the import of p256._group, under the import lock). */
static PyObject *group_set_point_class(PyObject *self, PyObject *cls)
{
    (void)self;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, p256py_group_point_type()))
        return PyErr_Format(PyExc_TypeError, "_set_point_class() takes a subclass of Point");
    Py_INCREF(cls);
    point_class = (PyTypeObject *)cls; /* the one set before (if any) stays alive: a type */
    Py_RETURN_NONE;
}

static PyMethodDef group_functions[] = {
    {"multi_mult", (PyCFunction)(void (*)(void))group_multi_mult, METH_FASTCALL,
     "multi_mult(cls, scalars, points, vartime) -> sum of s_i * P_i, a point of class cls."},
    {"h2c_map", group_h2c_map, METH_O,
     "h2c_map(uniform) -> RFC 9380's map of 48 uniform bytes, or of 96 (two, added)."},
    {"_set_point_class", group_set_point_class, METH_O,
     "_set_point_class(cls): the class of the points h2c_map makes."},
    {NULL, NULL, 0, NULL},
};

int p256py_add_group(PyObject *module)
{
    if (PyModule_AddFunctions(module, group_functions) < 0 || p256py_add_group_point(module) < 0 ||
        p256py_add_point_table(module) < 0)
        return -1;
    return p256py_add_scalar(module);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_point.c: p256._core.Point, the native object of a p256.Point (which subclasses it in
 * src/p256/_group.py), and the module's functions over points: the sums of many multiples
 * and RFC 9380's map from uniform bytes.
 *
 * A Point holds a point of the group in the core's Jacobian form (p256_point: the identity
 * included, never an invalid point) and never changes. It stays projective: an addition
 * costs no inversion, and only what leaves the object (its bytes, its hash) is made
 * affine; == compares forms by cross-multiplication. Every operation is the core's
 * constant-time one (the point may be secret: a hashed password, a blinded element)
 * except mul_vartime and multi_mult_vartime, which are for public data. A point made by
 * _generator() remembers that it is G, so that k*G takes the comb of G (five times faster
 * than the ladder); nothing else about a point depends on how it was made. The point's
 * memory is wiped when the object dies.
 */
#include "py_binding.h"

typedef struct {
    PyObject_HEAD
    p256_point p;
    int generator; /* made by _generator(): k*G by the comb */
} PointObject;

static PyTypeObject Point_Type;

/* The class of the points the module's functions make (p256.Point), set once at import by
 * p256._group (_set_point_class); _core.Point until then. */
static PyTypeObject *point_class = &Point_Type;

PyObject *p256py_group_point_new(PyTypeObject *type, const p256_point *p, int generator)
{
    PointObject *self;
    if (!PyType_IsSubtype(type, &Point_Type)) {
        PyErr_SetString(PyExc_TypeError, "not a Point type");
        return NULL;
    }
    self = (PointObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->p = *p;
    self->generator = generator;
    return (PyObject *)self;
}

const p256_point *p256py_group_point_get(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &Point_Type))
        return NULL;
    return &((PointObject *)obj)->p;
}

/* A new point of `type` holding *p, which is wiped (it may be secret). */
static PyObject *point_result(PyTypeObject *type, p256_point *p)
{
    PyObject *r = p256py_group_point_new(type, p, 0);
    p256_wipe(p, sizeof *p);
    return r;
}

static void point_dealloc(PointObject *self)
{
    p256_wipe(&self->p, sizeof self->p);
    Py_TYPE(self)->tp_free((PyObject *)self); /* a subclass's type is released by CPython */
}

static PyObject *point_new_refused(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)type, (void)args, (void)kwargs;
    PyErr_SetString(PyExc_TypeError, "use Point.from_bytes(), Point.generator() or Point.identity()");
    return NULL;
}

/* The TypeError of a Python int where a Scalar belongs: what to write instead (the value
 * shown only when small: an int that should have been a Scalar may be a secret). */
PyObject *p256py_int_for_scalar(PyObject *value, const char *what)
{
    long v;
    int overflow;
    v = PyLong_AsLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    if (!overflow && v > -1000 && v < 1000 && !PyBool_Check(value))
        return PyErr_Format(PyExc_TypeError, "%s takes a p256.Scalar, not an int: use "
                            "p256.Scalar.from_int(%ld)", what, v);
    return PyErr_Format(PyExc_TypeError, "%s takes a p256.Scalar, not %s: use p256.Scalar.from_int()",
                        what, Py_TYPE(value)->tp_name);
}

/* k*P for the point object and a scalar's 32 bytes (in an object the caller holds), the
 * GIL released: the comb for G, else the ladder. */
PyObject *p256py_group_point_mult(PyObject *point, const uint8_t k[32])
{
    PointObject *self = (PointObject *)point;
    p256_point r;
    RELEASE_GIL
    if (self->generator)
        p256_point_mult_base(&r, k);
    else
        p256_point_mult(&r, k, &self->p);
    ACQUIRE_GIL
    return point_result(Py_TYPE(point), &r);
}

static PyObject *point_add(PyObject *a, PyObject *b)
{
    p256_point r;
    if (!PyObject_TypeCheck(a, &Point_Type) || !PyObject_TypeCheck(b, &Point_Type))
        Py_RETURN_NOTIMPLEMENTED;
    p256_point_add(&r, &((PointObject *)a)->p, &((PointObject *)b)->p);
    return point_result(Py_TYPE(a), &r);
}

static PyObject *point_subtract(PyObject *a, PyObject *b)
{
    p256_point r;
    if (!PyObject_TypeCheck(a, &Point_Type) || !PyObject_TypeCheck(b, &Point_Type))
        Py_RETURN_NOTIMPLEMENTED;
    p256_point_negate(&r, &((PointObject *)b)->p);
    p256_point_add(&r, &((PointObject *)a)->p, &r);
    return point_result(Py_TYPE(a), &r);
}

static PyObject *point_negative(PyObject *a)
{
    p256_point r;
    p256_point_negate(&r, &((PointObject *)a)->p);
    return point_result(Py_TYPE(a), &r);
}

/* P * s and s * P (Scalar's own multiplication sends s * P here too); an int on either
 * side is refused with what to write instead. */
static PyObject *point_multiply(PyObject *a, PyObject *b)
{
    const int a_point = PyObject_TypeCheck(a, &Point_Type);
    PyObject *point = a_point ? a : b, *other = a_point ? b : a;
    const uint8_t *k = p256py_scalar_get(other);
    if (k != NULL)
        return p256py_group_point_mult(point, k);
    if (PyLong_Check(other))
        return p256py_int_for_scalar(other, "Point multiplication");
    Py_RETURN_NOTIMPLEMENTED;
}

static PyObject *point_richcompare(PyObject *a, PyObject *b, int op)
{
    int eq;
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &Point_Type))
        Py_RETURN_NOTIMPLEMENTED;
    eq = p256_point_equal(&((PointObject *)a)->p, &((PointObject *)b)->p); /* constant time */
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* By value: the hash of the compressed bytes (the identity's 00), tagged so a point and its
 * bytes differ. */
static Py_hash_t point_hash(PointObject *self)
{
    uint8_t out[65];
    size_t len = p256_point_serialize(out, &self->p, 1);
    PyObject *b = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)len);
    Py_hash_t h;
    if (b == NULL)
        return -1;
    h = PyObject_Hash(b);
    Py_DECREF(b);
    if (h == -1)
        return -1;
    h ^= (Py_hash_t)0x5032353650543a47LL; /* "P256PT:G" */
    return h == -1 ? -2 : h;
}

/* _from_sec1(data) (class method) -> a point of this class (00: the identity), or the int
 * P256_POINT_* reason the core refuses data. */
static PyObject *point_load(PyObject *cls, PyObject *data)
{
    byteview b;
    p256_point p;
    int st;
    if (byteview_get(&b, data, "point") < 0)
        return NULL;
    st = p256_point_load(&p, b.buf, (size_t)b.len);
    byteview_release(&b);
    if (st != P256_POINT_OK)
        return PyLong_FromLong(st);
    return p256py_group_point_new((PyTypeObject *)cls, &p, 0);
}

/* _sec1(compressed: bool) -> SEC1 bytes, 00 for the identity. */
static PyObject *point_encode(PointObject *self, PyObject *compressed)
{
    uint8_t out[65];
    int c = flag_get(compressed, "compressed");
    if (c < 0)
        return NULL;
    return PyBytes_FromStringAndSize((const char *)out,
                                     (Py_ssize_t)p256_point_serialize(out, &self->p, c));
}

static PyObject *point_generator(PyObject *cls, PyObject *unused)
{
    p256_point p;
    (void)unused;
    p256_point_generator(&p);
    return p256py_group_point_new((PyTypeObject *)cls, &p, 1);
}

static PyObject *point_identity(PyObject *cls, PyObject *unused)
{
    p256_point p;
    (void)unused;
    p256_point_identity(&p);
    return p256py_group_point_new((PyTypeObject *)cls, &p, 0);
}

static PyObject *point_double(PointObject *self, PyObject *unused)
{
    p256_point r;
    (void)unused;
    p256_point_double(&r, &self->p);
    return point_result(Py_TYPE(self), &r);
}

static PyObject *point_is_identity(PointObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(p256_point_is_identity(&self->p));
}

/* _mul_vartime(s) -> s*P in variable time (public s and P only); TypeError unless a Scalar. */
static PyObject *point_mul_vartime(PointObject *self, PyObject *scalar)
{
    const uint8_t *k = p256py_scalar_get(scalar);
    p256_point r;
    if (k == NULL) {
        if (PyLong_Check(scalar))
            return p256py_int_for_scalar(scalar, "mul_vartime()");
        return PyErr_Format(PyExc_TypeError, "mul_vartime() takes a p256.Scalar, not %.100s",
                            Py_TYPE(scalar)->tp_name);
    }
    RELEASE_GIL
    if (self->generator) /* the comb is constant time and still the fastest way to k*G */
        p256_point_mult_base(&r, k);
    else
        p256_point_mult_vartime(&r, k, &self->p);
    ACQUIRE_GIL
    return point_result(Py_TYPE(self), &r);
}

/* _to_public_key(cls) -> this point as a key object of class cls (a _core.PublicPoint type);
 * ValueError for the identity, which is no public key. */
static PyObject *point_public_key(PointObject *self, PyObject *cls)
{
    p256_pubkey pk;
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "_to_public_key() takes the PublicKey class");
        return NULL;
    }
    if (!p256_point_to_pubkey(&pk, &self->p)) {
        PyErr_SetString(PyExc_ValueError, "the identity (the point at infinity) is not a public key");
        return NULL;
    }
    return p256py_point_new((PyTypeObject *)cls, &pk);
}

/* _from_public_key(key) (class method) -> the key's point, as a point of this class. */
static PyObject *point_from_public_key(PyObject *cls, PyObject *key)
{
    const p256_pubkey *pk = p256py_point_get(key);
    p256_point p;
    if (pk == NULL)
        return PyErr_Format(PyExc_TypeError, "a PublicKey is needed, not %.100s", Py_TYPE(key)->tp_name);
    p256_point_from_pubkey(&p, pk);
    return p256py_group_point_new((PyTypeObject *)cls, &p, 0);
}

static PyMethodDef group_point_methods[] = {
    {"_from_sec1", point_load, METH_O | METH_CLASS,
     "_from_sec1(sec1) -> point (00: the identity), or the int reason it is refused (P256_POINT_*)."},
    {"_sec1", (PyCFunction)point_encode, METH_O, "_sec1(compressed) -> SEC1 bytes (00: the identity)."},
    {"_generator", point_generator, METH_NOARGS | METH_CLASS, "G, as a point of this class."},
    {"_identity", point_identity, METH_NOARGS | METH_CLASS, "The identity, as a point of this class."},
    {"_double", (PyCFunction)point_double, METH_NOARGS, "2P."},
    {"_is_identity", (PyCFunction)point_is_identity, METH_NOARGS, "Whether P is the identity."},
    {"_mul_vartime", (PyCFunction)point_mul_vartime, METH_O, "_mul_vartime(s) -> s*P, variable time."},
    {"_to_public_key", (PyCFunction)point_public_key, METH_O,
     "_to_public_key(cls) -> P as a key object of class cls; ValueError for the identity."},
    {"_from_public_key", point_from_public_key, METH_O | METH_CLASS,
     "_from_public_key(key) -> the key's point, as a point of this class."},
    {NULL, NULL, 0, NULL},
};

static PyNumberMethods group_point_as_number = {
    .nb_add = point_add,
    .nb_subtract = point_subtract,
    .nb_multiply = point_multiply,
    .nb_negative = point_negative,
};

static PyTypeObject Point_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.Point",
    .tp_basicsize = sizeof(PointObject),
    .tp_dealloc = (destructor)point_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A point of the P-256 group (the identity included), immutable: the native part of "
              "a p256.Point.",
    .tp_methods = group_point_methods,
    .tp_as_number = &group_point_as_number,
    .tp_richcompare = point_richcompare,
    .tp_hash = (hashfunc)point_hash,
    .tp_new = point_new_refused,
};

/*
 * multi_mult(cls, scalars, points, vartime) -> sum of s_i * P_i as a point of class cls:
 * the items taken into tuples (the references held while the GIL is released: a list
 * changed by another thread meanwhile changes nothing here), checked, then summed by the
 * core in the scratch it needs. TypeError for an item of the wrong type (its index named)
 * or for arguments that are not iterable; ValueError for counts that differ.
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
    if (!PyType_Check(args[0]) || !PyType_IsSubtype((PyTypeObject *)args[0], &Point_Type))
        return PyErr_Format(PyExc_TypeError, "multi_mult() makes a Point type");
    if ((ks = PySequence_Tuple(args[1])) == NULL || (ps = PySequence_Tuple(args[2])) == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s must be a sequence of %s, not %.100s",
                         ks == NULL ? "scalars" : "points", ks == NULL ? "Scalars" : "Points",
                         Py_TYPE(args[ks == NULL ? 1 : 2])->tp_name);
        }
        goto done;
    }
    n = PyTuple_GET_SIZE(ks);
    if (PyTuple_GET_SIZE(ps) != n) {
        PyErr_Format(PyExc_ValueError, "multi_mult() takes as many points as scalars, got %zd "
                     "scalars and %zd points", n, PyTuple_GET_SIZE(ps));
        goto done;
    }
    len = p256_point_multi_mult_scratch_size((size_t)n);
    kp = PyMem_Malloc(((size_t)n + 1) * sizeof *kp);
    pp = PyMem_Malloc(((size_t)n + 1) * sizeof *pp);
    scratch = PyMem_Malloc(len);
    if (kp == NULL || pp == NULL || scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyTuple_GET_ITEM(ks, i), *p = PyTuple_GET_ITEM(ps, i);
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
    res = point_result((PyTypeObject *)args[0], &r);
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
    return point_result(point_class, &r);
}

/* _set_point_class(cls): the class of the points the module's functions make (once, at
 * the import of p256._group, under the import lock). */
static PyObject *group_set_point_class(PyObject *self, PyObject *cls)
{
    (void)self;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &Point_Type))
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
    if (PyModule_AddFunctions(module, group_functions) < 0 ||
        p256py_add_type(module, "Point", &Point_Type) < 0)
        return -1;
    return p256py_add_scalar(module);
}

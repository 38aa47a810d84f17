/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_point.c: p256._core.Point, the native object of a p256.Point (which subclasses it in
 * src/p256/_group.py). The module's functions over points (the sums of many multiples,
 * RFC 9380's map) are py_group.c's.
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

PyObject *p256py_group_point_take(PyTypeObject *type, p256_point *p)
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

/* k*P for the point object and a scalar's 32 bytes (in an object the caller holds), the
 * GIL released: the comb for G, else the ladder. */
static PyObject *point_mult(PyObject *point, const uint8_t k[32])
{
    PointObject *self = (PointObject *)point;
    p256_point r;
    RELEASE_GIL
    if (self->generator)
        p256_point_mult_base(&r, k);
    else
        p256_point_mult(&r, k, &self->p);
    ACQUIRE_GIL
    return p256py_group_point_take(Py_TYPE(point), &r);
}

static PyObject *point_add(PyObject *a, PyObject *b)
{
    p256_point r;
    if (!PyObject_TypeCheck(a, &Point_Type) || !PyObject_TypeCheck(b, &Point_Type))
        Py_RETURN_NOTIMPLEMENTED;
    p256_point_add(&r, &((PointObject *)a)->p, &((PointObject *)b)->p);
    return p256py_group_point_take(Py_TYPE(a), &r);
}

static PyObject *point_subtract(PyObject *a, PyObject *b)
{
    p256_point r;
    if (!PyObject_TypeCheck(a, &Point_Type) || !PyObject_TypeCheck(b, &Point_Type))
        Py_RETURN_NOTIMPLEMENTED;
    p256_point_negate(&r, &((PointObject *)b)->p);
    p256_point_add(&r, &((PointObject *)a)->p, &r);
    return p256py_group_point_take(Py_TYPE(a), &r);
}

static PyObject *point_negative(PyObject *a)
{
    p256_point r;
    p256_point_negate(&r, &((PointObject *)a)->p);
    return p256py_group_point_take(Py_TYPE(a), &r);
}

/* P * s and s * P (Scalar's own multiplication leaves s * P to this one); an int on either
 * side is refused with what to write instead. */
static PyObject *point_multiply(PyObject *a, PyObject *b)
{
    const int a_point = PyObject_TypeCheck(a, &Point_Type);
    PyObject *point = a_point ? a : b, *other = a_point ? b : a;
    const uint8_t *k = p256py_scalar_get(other);
    if (k != NULL)
        return point_mult(point, k);
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
    return p256py_group_point_take(Py_TYPE(self), &r);
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
    return p256py_group_point_take(Py_TYPE(self), &r);
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

int p256py_add_group_point(PyObject *module)
{
    return p256py_add_type(module, "Point", &Point_Type);
}

PyTypeObject *p256py_group_point_type(void)
{
    return &Point_Type;
}

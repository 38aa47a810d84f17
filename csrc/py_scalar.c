/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_scalar.c: p256._core.Scalar, the native object of a p256.Scalar (which subclasses it
 * in src/p256/_group.py): an integer mod n, immutable, that may be secret (a blind, an
 * OPRF key, a commitment's randomness).
 *
 * Its 32 big-endian bytes (always below n) live in the object and are wiped when it dies;
 * they leave only through an explicit to_bytes() or int(). The arithmetic is the core's,
 * constant time, == included (a verdict is all it reveals); the inverse of 0 is a
 * ValueError. Like a PrivateKey it is not hashable (a hash of a secret, kept in a set or a
 * dict's keys, would be a way to find it again), not pickled and not copied, and its repr
 * shows no value. A Python int is refused in its arithmetic, with what to write instead:
 * an int taken silently would be reduced and used, which is rarely what the caller meant.
 */
#include "py_binding.h"

typedef struct {
    PyObject_HEAD
    uint8_t k[32];
} ScalarObject;

static PyTypeObject Scalar_Type;

PyObject *p256py_scalar_new(PyTypeObject *type, const uint8_t k[32])
{
    ScalarObject *self;
    if (!PyType_IsSubtype(type, &Scalar_Type)) {
        PyErr_SetString(PyExc_TypeError, "not a Scalar type");
        return NULL;
    }
    self = (ScalarObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    memcpy(self->k, k, 32);
    return (PyObject *)self;
}

const uint8_t *p256py_scalar_get(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &Scalar_Type))
        return NULL;
    return ((ScalarObject *)obj)->k;
}

/* A new scalar of `type` holding r, which is wiped. */
static PyObject *scalar_result(PyTypeObject *type, uint8_t r[32])
{
    PyObject *s = p256py_scalar_new(type, r);
    p256_wipe(r, 32);
    return s;
}

static void scalar_dealloc(ScalarObject *self)
{
    p256_wipe(self->k, sizeof self->k);
    Py_TYPE(self)->tp_free((PyObject *)self); /* a subclass's type is released by CPython */
}

static PyObject *scalar_new_refused(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)type, (void)args, (void)kwargs;
    PyErr_SetString(PyExc_TypeError, "use Scalar.from_bytes(), Scalar.from_int(), "
                                     "Scalar.from_bytes_reduce() or Scalar.random()");
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

/*
 * The binary operations: both operands Scalars (the result of the left one's class), an int
 * on either side refused with what to write instead, anything else NotImplemented (so that
 * a Point's own multiplication answers s * P).
 */
static PyObject *scalar_binary(PyObject *a, PyObject *b, int (*op)(uint8_t *, const uint8_t *,
                                                                   const uint8_t *), const char *what)
{
    const uint8_t *x = p256py_scalar_get(a), *y = p256py_scalar_get(b);
    uint8_t r[32];
    if (x != NULL && y != NULL) {
        op(r, x, y);
        return scalar_result(Py_TYPE(a), r);
    }
    if ((x != NULL && PyLong_Check(b)) || (y != NULL && PyLong_Check(a)))
        return p256py_int_for_scalar(x != NULL ? b : a, what);
    Py_RETURN_NOTIMPLEMENTED;
}

static PyObject *scalar_add(PyObject *a, PyObject *b)
{
    return scalar_binary(a, b, p256_modn_add, "Scalar addition");
}

static PyObject *scalar_subtract(PyObject *a, PyObject *b)
{
    return scalar_binary(a, b, p256_modn_sub, "Scalar subtraction");
}

/* s * t; for s * P and P * s, NotImplemented sends Python to the Point's multiplication
 * (points know scalars, scalars know no points). */
static PyObject *scalar_multiply(PyObject *a, PyObject *b)
{
    return scalar_binary(a, b, p256_modn_mul, "Scalar multiplication");
}

static PyObject *scalar_negative(PyObject *a)
{
    uint8_t r[32];
    p256_modn_neg(r, ((ScalarObject *)a)->k);
    return scalar_result(Py_TYPE(a), r);
}

/* int(s): its value (the caller asked for it). */
static PyObject *scalar_int(PyObject *a)
{
    PyObject *b = PyBytes_FromStringAndSize((const char *)((ScalarObject *)a)->k, 32), *v;
    if (b == NULL)
        return NULL;
    v = PyObject_CallMethod((PyObject *)&PyLong_Type, "from_bytes", "Os", b, "big");
    Py_DECREF(b);
    return v;
}

static PyObject *scalar_richcompare(PyObject *a, PyObject *b, int op)
{
    const uint8_t *y = p256py_scalar_get(b);
    int eq;
    if ((op != Py_EQ && op != Py_NE) || y == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    eq = p256_modn_equal(((ScalarObject *)a)->k, y); /* constant time */
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *scalar_repr(PyObject *a)
{
    (void)a;
    return PyUnicode_FromString("<p256.Scalar (value not shown)>");
}

/* _from_bytes32(data) (class method) -> a scalar of this class from 32 bytes below n (0 allowed). */
static PyObject *scalar_load(PyObject *cls, PyObject *data)
{
    byteview b;
    uint8_t k[32];
    int ok;
    if (byteview_get(&b, data, "scalar") < 0)
        return NULL;
    if (b.len != 32) {
        byteview_release(&b);
        return PyErr_Format(PyExc_ValueError, "a scalar is 32 bytes, got %zd", b.len);
    }
    memcpy(k, b.buf, 32);
    byteview_release(&b);
    ok = p256_modn_check(k);
    if (!ok) {
        p256_wipe(k, sizeof k);
        PyErr_SetString(PyExc_ValueError, "a scalar must be below n (the group order)");
        return NULL;
    }
    return scalar_result((PyTypeObject *)cls, k);
}

/* _reduce(data) (class method) -> data, a big-endian integer of at least 48 bytes, mod n. */
static PyObject *scalar_reduce(PyObject *cls, PyObject *data)
{
    byteview b;
    uint8_t k[32];
    if (byteview_get(&b, data, "data") < 0)
        return NULL;
    if (b.len < 48) {
        byteview_release(&b);
        return PyErr_Format(PyExc_ValueError, "from_bytes_reduce() takes at least 48 bytes (so that "
                            "the result is uniform mod n), got %zd", b.len);
    }
    p256_modn_reduce(k, b.buf, (size_t)b.len);
    byteview_release(&b);
    return scalar_result((PyTypeObject *)cls, k);
}

/* _random() (class method) -> uniform in [1, n-1] from the OS CSPRNG. */
static PyObject *scalar_random(PyObject *cls, PyObject *unused)
{
    uint8_t k[32];
    (void)unused;
    if (!p256_seckey_generate(k)) {
        PyErr_SetString(PyExc_OSError, "the operating system's random generator failed");
        return NULL;
    }
    return scalar_result((PyTypeObject *)cls, k);
}

static PyObject *scalar_invert(ScalarObject *self, PyObject *unused)
{
    uint8_t r[32];
    (void)unused;
    if (!p256_modn_inv(r, self->k)) {
        PyErr_SetString(PyExc_ValueError, "0 has no inverse mod n");
        return NULL;
    }
    return scalar_result(Py_TYPE(self), r);
}

static PyObject *scalar_is_zero(ScalarObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(p256_modn_is_zero(self->k));
}

static PyObject *scalar_bytes(ScalarObject *self, PyObject *unused)
{
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)self->k, 32);
}

/* _from_private_key(key) (class method) -> the key's scalar d, copied in C. */
static PyObject *scalar_from_private_key(PyObject *cls, PyObject *key)
{
    const uint8_t *d = p256py_secretkey_get(key);
    if (d == NULL)
        return PyErr_Format(PyExc_TypeError, "a PrivateKey is needed, not %.100s", Py_TYPE(key)->tp_name);
    return p256py_scalar_new((PyTypeObject *)cls, d);
}

/* _private_key(cls) -> this scalar as a key object of class cls (a _core.SecretKey type);
 * ValueError for 0, which is no private key. */
static PyObject *scalar_private_key(ScalarObject *self, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "_private_key() takes the PrivateKey class");
        return NULL;
    }
    if (p256_modn_is_zero(self->k)) {
        PyErr_SetString(PyExc_ValueError, "0 is not a private key (a private key is in [1, n-1])");
        return NULL;
    }
    return p256py_secretkey_new((PyTypeObject *)cls, self->k, NULL);
}

/* Also refuses copy.copy and copy.deepcopy: a scalar is immutable, so a copy is never
 * needed, and a deepcopy of a structure holding it must not duplicate a secret silently. */
static PyObject *scalar_reduce_refused(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError, "scalars cannot be pickled or copied; export them explicitly "
                                     "with to_bytes()");
    return NULL;
}

static PyMethodDef scalar_methods[] = {
    {"_from_bytes32", scalar_load, METH_O | METH_CLASS, "_from_bytes32(b32) -> a scalar of this class (below n)."},
    {"_reduce", scalar_reduce, METH_O | METH_CLASS,
     "_reduce(data) -> data (>= 48 bytes, big-endian) mod n, a scalar of this class."},
    {"_random", scalar_random, METH_NOARGS | METH_CLASS, "A scalar uniform in [1, n-1]."},
    {"_invert", (PyCFunction)scalar_invert, METH_NOARGS, "1/s mod n; ValueError for 0."},
    {"_is_zero", (PyCFunction)scalar_is_zero, METH_NOARGS, "Whether s is 0."},
    {"_bytes", (PyCFunction)scalar_bytes, METH_NOARGS, "The 32 big-endian bytes."},
    {"_from_private_key", scalar_from_private_key, METH_O | METH_CLASS,
     "_from_private_key(key) -> the key's scalar, a scalar of this class."},
    {"_private_key", (PyCFunction)scalar_private_key, METH_O,
     "_private_key(cls) -> s as a key object of class cls; ValueError for 0."},
    {"__reduce__", scalar_reduce_refused, METH_NOARGS, NULL},
    {"__reduce_ex__", (PyCFunction)scalar_reduce_refused, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyNumberMethods scalar_as_number = {
    .nb_add = scalar_add,
    .nb_subtract = scalar_subtract,
    .nb_multiply = scalar_multiply,
    .nb_negative = scalar_negative,
    .nb_int = scalar_int,
};

static PyTypeObject Scalar_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.Scalar",
    .tp_basicsize = sizeof(ScalarObject),
    .tp_dealloc = (destructor)scalar_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "An integer mod n, immutable and wiped when freed: the native part of a p256.Scalar.",
    .tp_methods = scalar_methods,
    .tp_as_number = &scalar_as_number,
    .tp_richcompare = scalar_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_repr = scalar_repr,
    .tp_new = scalar_new_refused,
};

int p256py_add_scalar(PyObject *module)
{
    return p256py_add_type(module, "Scalar", &Scalar_Type);
}

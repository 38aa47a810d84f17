/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_pubkey.c: p256._core.PublicPoint, the native object of a p256.PublicKey (which
 * subclasses it in src/p256/_keys.py).
 *
 * It holds the validated point in the core's form (p256_pubkey: decoded once, never
 * again per call) and, once precomputed, a reference to its PublicTable. Its byte form
 * is made on demand and kept (an immutable bytes object: a 65-byte bytes input is kept
 * as it came). Nothing of it changes after construction but those two references, each
 * read and written under P256PY_LOCK (the GIL, or the object's lock in a free-threaded
 * build); a user of the table takes its own reference before releasing the GIL, so any
 * thread may use a key at any time, while another precomputes it.
 *
 * Verification takes its arguments as PublicKey.verify does, normalized by py_args.c
 * (the documented error for a wrong one). Public data only: variable time.
 */
#include "py_binding.h"

typedef struct {
    PyObject_HEAD
    p256_pubkey pk;
    PyObject *sec1;  /* the 65-byte uncompressed bytes, made once, or NULL */
    PyObject *table; /* a PublicTable built from pk, or NULL */
} PublicPointObject;

static PyTypeObject PublicPoint_Type;

static void point_dealloc(PublicPointObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    Py_CLEAR(self->sec1);
    Py_CLEAR(self->table);
    tp->tp_free((PyObject *)self); /* a subclass's type is released by CPython after this */
}

static PyObject *point_new_refused(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)type, (void)args, (void)kwargs;
    PyErr_SetString(PyExc_TypeError, "use PublicKey.from_bytes()");
    return NULL;
}

/* A new object of `type` (PublicPoint or a subclass) holding *pk. */
PyObject *p256py_point_new(PyTypeObject *type, const p256_pubkey *pk)
{
    PublicPointObject *self;
    if (!PyType_IsSubtype(type, &PublicPoint_Type)) {
        PyErr_SetString(PyExc_TypeError, "not a PublicPoint type");
        return NULL;
    }
    self = (PublicPointObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->pk = *pk;
    self->sec1 = NULL;
    self->table = NULL;
    return (PyObject *)self;
}

const p256_pubkey *p256py_point_get(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &PublicPoint_Type))
        return NULL;
    return &((PublicPointObject *)obj)->pk;
}

PyObject *p256py_point_table(PyObject *obj)
{
    PyObject *t;
    P256PY_LOCK(obj)
    t = ((PublicPointObject *)obj)->table;
    Py_XINCREF(t);
    P256PY_UNLOCK
    return t;
}

/* _load(data) (class method) -> a key of this class, or the int P256_POINT_* reason. */
static PyObject *point_load(PyObject *cls, PyObject *data)
{
    byteview b;
    p256_pubkey pk;
    PyObject *self;
    int st;
    if (byteview_get(&b, data, "public key") < 0)
        return NULL;
    st = p256_pubkey_load(&pk, b.buf, (size_t)b.len);
    byteview_release(&b);
    if (st != P256_POINT_OK)
        return PyLong_FromLong(st);
    self = p256py_point_new((PyTypeObject *)cls, &pk);
    if (self != NULL && PyBytes_CheckExact(data) && PyBytes_GET_SIZE(data) == 65) {
        Py_INCREF(data); /* already its canonical form */
        ((PublicPointObject *)self)->sec1 = data;
    }
    return self;
}

/* The uncompressed bytes, made on first use (a new reference). */
static PyObject *point_sec1(PublicPointObject *self)
{
    PyObject *b;
    P256PY_LOCK(self)
    if (self->sec1 == NULL) {
        uint8_t out[65];
        p256_pubkey_serialize(out, &self->pk, 0);
        self->sec1 = PyBytes_FromStringAndSize((const char *)out, 65);
    }
    b = self->sec1;
    Py_XINCREF(b);
    P256PY_UNLOCK
    return b;
}

PyObject *p256py_point_sec1(PyObject *obj)
{
    return point_sec1((PublicPointObject *)obj);
}

/* _encode(compressed: bool) -> SEC1 bytes; TypeError unless compressed is a bool. */
static PyObject *point_encode(PublicPointObject *self, PyObject *compressed)
{
    uint8_t out[65];
    int c = flag_get(compressed, "compressed");
    if (c <= 0)
        return c < 0 ? NULL : point_sec1(self);
    return PyBytes_FromStringAndSize((const char *)out,
                                     (Py_ssize_t)p256_pubkey_serialize(out, &self->pk, 1));
}

/*
 * The verification of both methods below: rs from sig (any malformed or out-of-range
 * signature is False), then the key's table if it has one, else its point; low_s also
 * requires s <= n/2.
 */
static PyObject *point_verify_rs(PublicPointObject *self, PyObject *sig_obj, int raw, int low_s,
                                 const uint8_t *digest, size_t digest_len)
{
    byteview sig;
    uint8_t rs[64];
    PyObject *table;
    int ok;
    if (byteview_get(&sig, sig_obj, "signature") < 0)
        return NULL;
    ok = p256_sig_parse(rs, sig.buf, (size_t)sig.len, raw) == P256_SIG_OK;
    byteview_release(&sig);
    if (ok && low_s && !p256_sig_is_low_s(rs))
        ok = 0;
    if (!ok)
        Py_RETURN_FALSE;
    table = p256py_point_table((PyObject *)self); /* a reference: a precompute() of
                                                   * another window may replace it meanwhile */
    if (table != NULL) {
        const void *t = p256py_pubtable_get(table);
        RELEASE_GIL
        ok = p256_verify_pubtable_vartime(t, rs, digest, digest_len);
        ACQUIRE_GIL
        Py_DECREF(table);
    } else {
        RELEASE_GIL
        ok = p256_pubkey_verify(&self->pk, rs, digest, digest_len);
        ACQUIRE_GIL
    }
    return PyBool_FromLong(ok);
}

/*
 * _verify(sig, data, is_digest, hash, encoding, low_s) -> bool: data the message, or with
 * is_digest the digest; the other arguments as PublicKey.verify and verify_digest take
 * them, normalized by py_args.c (the documented error for a wrong one).
 */
static PyObject *point_verify(PublicPointObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    p256py_sig_input in;
    PyObject *res;
    int is_digest;
    if (check_nargs(nargs, 6, "_verify") < 0 || (is_digest = flag_get(args[2], "is_digest")) < 0 ||
        p256py_sig_input_get(&in, args[1], is_digest, args[3], args[4], Py_False, args[5]) < 0)
        return NULL;
    res = point_verify_rs(self, args[0], in.raw, in.low_s, in.digest, in.digest_len);
    p256py_sig_input_release(&in);
    return res;
}

/* _table_bits() -> the table's window in bits, 0 without one. */
static PyObject *point_table_bits(PublicPointObject *self, PyObject *unused)
{
    PyObject *table = p256py_point_table((PyObject *)self);
    long bits = table == NULL ? 0 : p256py_pubtable_bits(table);
    (void)unused;
    Py_XDECREF(table);
    return PyLong_FromLong(bits);
}

/* _make_table(bits) -> a new PublicTable of this key (ValueError unless bits is 4..8). */
static PyObject *point_make_table(PublicPointObject *self, PyObject *bits_obj)
{
    int overflow;
    long bits = PyLong_AsLongAndOverflow(bits_obj, &overflow);
    if (bits == -1 && PyErr_Occurred())
        return NULL;
    if (overflow || bits < INT_MIN || bits > INT_MAX)
        return PyErr_Format(PyExc_ValueError, "window must be 4 to 8 bits, got %R", bits_obj);
    return p256py_pubtable_build((PyObject *)self, &self->pk, (int)bits);
}

/* _set_table(table): publish a PublicTable built from this key (the caller's lock makes
 * one build per key; the swap itself is under P256PY_LOCK). */
static PyObject *point_set_table(PublicPointObject *self, PyObject *table)
{
    PyObject *old;
    if (p256py_pubtable_get(table) == NULL) {
        PyErr_SetString(PyExc_TypeError, "_set_table() takes a PublicTable");
        return NULL;
    }
    Py_INCREF(table);
    P256PY_LOCK(self)
    old = self->table;
    self->table = table;
    P256PY_UNLOCK
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

/* _recover(rs, digest, recovery_id) (class method) -> a key of this class, or the int
 * P256_RECOVER_* reason there is none. rs: 64 bytes r||s, r and s in [1, n-1]. */
static PyObject *point_recover(PyObject *cls, PyObject *const *args, Py_ssize_t nargs)
{
    byteview rs, dg;
    p256_pubkey pk;
    long recid;
    int st = P256_RECOVER_RANGE;
    if (check_nargs(nargs, 3, "_recover") < 0)
        return NULL;
    recid = PyLong_AsLong(args[2]);
    if (recid == -1 && PyErr_Occurred())
        return NULL;
    if (byteview_get(&rs, args[0], "signature") < 0)
        return NULL;
    if (byteview_get(&dg, args[1], "digest") < 0) {
        byteview_release(&rs);
        return NULL;
    }
    if (rs.len == 64 && recid >= 0 && recid <= 3) {
        RELEASE_GIL
        st = p256_pubkey_recover(&pk, rs.buf, dg.buf, (size_t)dg.len, (int)recid);
        ACQUIRE_GIL
    }
    byteview_release(&rs);
    byteview_release(&dg);
    if (st != P256_RECOVER_OK)
        return PyLong_FromLong(st);
    return p256py_point_new((PyTypeObject *)cls, &pk);
}

static PyObject *point_get_table(PublicPointObject *self, void *closure)
{
    PyObject *table = p256py_point_table((PyObject *)self);
    (void)closure;
    if (table == NULL)
        Py_RETURN_NONE;
    return table;
}

static PyObject *point_richcompare(PyObject *a, PyObject *b, int op)
{
    int eq;
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &PublicPoint_Type))
        Py_RETURN_NOTIMPLEMENTED;
    eq = p256_pubkey_equal(&((PublicPointObject *)a)->pk, &((PublicPointObject *)b)->pk);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* By value: the hash of the uncompressed bytes, with a tag so a key and its bytes differ. */
static Py_hash_t point_hash(PublicPointObject *self)
{
    PyObject *b = point_sec1(self);
    Py_hash_t h;
    if (b == NULL)
        return -1;
    h = PyObject_Hash(b);
    Py_DECREF(b);
    if (h == -1)
        return -1;
    h ^= (Py_hash_t)0x5032353650554221LL; /* "P256PUB!" */
    return h == -1 ? -2 : h;
}

static PyMethodDef point_methods[] = {
    {"_load", point_load, METH_O | METH_CLASS,
     "_load(sec1) -> key, or the int reason the core refuses it (P256_POINT_*)."},
    {"_encode", (PyCFunction)point_encode, METH_O, "_encode(compressed) -> SEC1 bytes."},
    {"_verify", (PyCFunction)(void (*)(void))point_verify, METH_FASTCALL,
     "_verify(sig, data, is_digest, hash, encoding, low_s) -> bool."},
    {"_table_bits", (PyCFunction)point_table_bits, METH_NOARGS, "The table's window, 0 for none."},
    {"_make_table", (PyCFunction)point_make_table, METH_O, "_make_table(bits) -> PublicTable."},
    {"_set_table", (PyCFunction)point_set_table, METH_O, "_set_table(PublicTable)."},
    {"_recover", (PyCFunction)(void (*)(void))point_recover, METH_FASTCALL | METH_CLASS,
     "_recover(rs, digest, recovery_id) -> key, or the int reason (P256_RECOVER_*)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef point_getset[] = {
    {"_t", (getter)point_get_table, NULL, "The key's PublicTable, or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PublicPoint_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.PublicPoint",
    .tp_basicsize = sizeof(PublicPointObject),
    .tp_dealloc = (destructor)point_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A validated P-256 point in the core's form: the native part of a PublicKey.",
    .tp_methods = point_methods,
    .tp_getset = point_getset,
    .tp_richcompare = point_richcompare,
    .tp_hash = (hashfunc)point_hash,
    .tp_new = point_new_refused,
};

int p256py_add_point(PyObject *module)
{
    return p256py_add_type(module, "PublicPoint", &PublicPoint_Type);
}

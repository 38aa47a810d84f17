/*
 * module.c: p256._core, the CPython binding of the core (p256.h).
 *
 * The Python layer (src/p256/_keys.py) does argument policy and hashing; this module
 * does the work with as little per-call overhead as CPython allows: METH_FASTCALL,
 * bytes in and bytes out, the GIL released while the core computes.
 *
 * SecretKey owns the private scalar: it lives in the object's own memory, is never
 * handed to Python except by an explicit to_bytes(), and is wiped when the object dies.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "p256.h"
#include "backend.h"

#define P256_VERSION "0.1.0"

/* Which compiler built the core (its code generation matters here: see README). */
#if defined(__clang__)
#define P256_COMPILER __VERSION__
#elif defined(__GNUC__)
#define P256_COMPILER "gcc " __VERSION__
#else
#define P256_COMPILER "unknown"
#endif

/* Scalar multiplications take 10-60 us: other Python threads run meanwhile (~0.1 us to switch). */
#define RELEASE_GIL Py_BEGIN_ALLOW_THREADS
#define ACQUIRE_GIL Py_END_ALLOW_THREADS

/* A read-only view of a bytes-like argument. */
typedef struct {
    Py_buffer view;
    const uint8_t *buf;
    Py_ssize_t len;
} byteview;

static int byteview_get(byteview *b, PyObject *obj, const char *what)
{
    if (PyBytes_Check(obj)) {
        b->view.obj = NULL;
        b->buf = (const uint8_t *)PyBytes_AS_STRING(obj);
        b->len = PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (PyObject_CheckBuffer(obj) && !PyUnicode_Check(obj)) {
        if (PyObject_GetBuffer(obj, &b->view, PyBUF_SIMPLE) < 0)
            return -1;
        b->buf = (const uint8_t *)b->view.buf;
        b->len = b->view.len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be bytes-like, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

static void byteview_release(byteview *b)
{
    if (b->view.obj != NULL)
        PyBuffer_Release(&b->view);
}

static int check_nargs(Py_ssize_t nargs, Py_ssize_t want, const char *name)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, want, nargs);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* SecretKey                                                                             */

typedef struct {
    PyObject_HEAD
    uint8_t d[32];
    uint8_t pub[65];
    int have_pub;
} SecretKeyObject;

static PyTypeObject SecretKey_Type;

static SecretKeyObject *secretkey_alloc(void)
{
    SecretKeyObject *self = PyObject_New(SecretKeyObject, &SecretKey_Type);
    if (self != NULL)
        self->have_pub = 0;
    return self;
}

static void secretkey_dealloc(SecretKeyObject *self)
{
    volatile uint8_t *p = self->d;
    for (size_t i = 0; i < sizeof self->d; i++)
        p[i] = 0;
    PyObject_Free(self);
}

static PyObject *secretkey_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *data;
    byteview b;
    SecretKeyObject *self;
    int ok;
    static char *kwlist[] = {"data", NULL};

    (void)type;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:SecretKey", kwlist, &data))
        return NULL;
    if (byteview_get(&b, data, "private key") < 0)
        return NULL;
    if (b.len != 32) {
        byteview_release(&b);
        PyErr_Format(PyExc_ValueError, "private key must be 32 bytes, got %zd", b.len);
        return NULL;
    }
    self = secretkey_alloc();
    if (self == NULL) {
        byteview_release(&b);
        return NULL;
    }
    memcpy(self->d, b.buf, 32);
    byteview_release(&b);
    ok = p256_seckey_verify(self->d);
    if (!ok) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "private key must be an integer in [1, n-1]");
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *secretkey_generate(PyObject *cls, PyObject *unused)
{
    SecretKeyObject *self;
    int ok;
    (void)cls;
    (void)unused;
    self = secretkey_alloc();
    if (self == NULL)
        return NULL;
    ok = p256_seckey_generate(self->d);
    if (!ok) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_OSError, "the operating system's random generator failed");
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *secretkey_to_bytes(SecretKeyObject *self, PyObject *unused)
{
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)self->d, 32);
}

/*
 * d*G, computed once per key and kept (it is public). It is computed into a local
 * buffer with the GIL released and stored under the GIL, so threads racing on the same
 * key at worst both compute it.
 */
static PyObject *secretkey_public_key(SecretKeyObject *self, PyObject *unused)
{
    (void)unused;
    if (!self->have_pub) {
        uint8_t pub[65];
        int ok;
        RELEASE_GIL
        ok = p256_pubkey_create(pub, self->d);
        ACQUIRE_GIL
        if (!ok) { /* unreachable: d was validated at construction */
            PyErr_SetString(PyExc_ValueError, "invalid private key");
            return NULL;
        }
        memcpy(self->pub, pub, sizeof pub);
        self->have_pub = 1;
    }
    return PyBytes_FromStringAndSize((const char *)self->pub, 65);
}

/* sign(digest, raw: bool, nonce: int) -> signature bytes (DER, or r||s when raw). */
static PyObject *secretkey_sign(SecretKeyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    byteview dg;
    uint8_t rs[64], der[72];
    int raw, ok;
    long nonce;

    if (check_nargs(nargs, 3, "sign") < 0)
        return NULL;
    raw = PyObject_IsTrue(args[1]);
    if (raw < 0)
        return NULL;
    nonce = PyLong_AsLong(args[2]);
    if (nonce == -1 && PyErr_Occurred())
        return NULL;
    if (nonce < P256_NONCE_HEDGED || nonce > P256_NONCE_SHA3_512) {
        PyErr_SetString(PyExc_ValueError, "unknown nonce mode");
        return NULL;
    }
    if (byteview_get(&dg, args[0], "digest") < 0)
        return NULL;
    RELEASE_GIL
    ok = p256_sign(rs, self->d, dg.buf, (size_t)dg.len, (int)nonce);
    ACQUIRE_GIL
    byteview_release(&dg);
    if (!ok) {
        PyErr_SetString(PyExc_OSError, "the operating system's random generator failed");
        return NULL;
    }
    if (raw)
        return PyBytes_FromStringAndSize((const char *)rs, 64);
    return PyBytes_FromStringAndSize((const char *)der, (Py_ssize_t)p256_sig_to_der(der, rs));
}

/* exchange(public SEC1 bytes) -> 32-byte shared x. */
static PyObject *secretkey_exchange(SecretKeyObject *self, PyObject *pub)
{
    byteview q;
    uint8_t out[32];
    int ok;
    PyObject *res;

    if (byteview_get(&q, pub, "public key") < 0)
        return NULL;
    RELEASE_GIL
    ok = p256_ecdh(out, self->d, q.buf, (size_t)q.len);
    ACQUIRE_GIL
    byteview_release(&q);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "invalid public key");
        return NULL;
    }
    res = PyBytes_FromStringAndSize((const char *)out, 32);
    return res;
}

static PyObject *secretkey_reduce(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError, "private keys cannot be pickled or copied implicitly; "
                                     "export them with to_bytes() or a key format");
    return NULL;
}

static PyMethodDef secretkey_methods[] = {
    {"generate", secretkey_generate, METH_NOARGS | METH_CLASS,
     "New key with d uniform in [1, n-1] from the OS CSPRNG."},
    {"to_bytes", (PyCFunction)secretkey_to_bytes, METH_NOARGS, "The 32-byte big-endian scalar."},
    {"public_key", (PyCFunction)secretkey_public_key, METH_NOARGS,
     "The 65-byte uncompressed SEC1 public key d*G."},
    {"sign", (PyCFunction)(void (*)(void))secretkey_sign, METH_FASTCALL,
     "sign(digest, raw, nonce) -> signature (DER, or r||s when raw)."},
    {"exchange", (PyCFunction)secretkey_exchange, METH_O,
     "exchange(sec1_point) -> 32-byte x coordinate of d*Q."},
    {"__reduce__", secretkey_reduce, METH_NOARGS, NULL},
    {"__reduce_ex__", (PyCFunction)secretkey_reduce, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SecretKey_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.SecretKey",
    .tp_basicsize = sizeof(SecretKeyObject),
    .tp_dealloc = (destructor)secretkey_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A P-256 private scalar held and wiped by the native core.",
    .tp_methods = secretkey_methods,
    .tp_new = secretkey_new,
};

/* ------------------------------------------------------------------------------------ */
/* Module functions                                                                     */

static PyObject *core_backend(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(p256_backend_name());
}

/* point_decode(data) -> 65-byte uncompressed point; ValueError if invalid. */
static PyObject *core_point_decode(PyObject *self, PyObject *data)
{
    byteview b;
    uint8_t out[65];
    int ok;
    (void)self;
    if (byteview_get(&b, data, "public key") < 0)
        return NULL;
    ok = p256_pubkey_parse(out, b.buf, (size_t)b.len);
    if (!ok) {
        const char *why;
        if (b.len == 1 && b.buf[0] == 0x00)
            why = "the point at infinity is not a valid public key";
        else if (b.len == 65 && b.buf[0] == 0x04)
            why = "invalid public key: coordinate >= p or point not on the curve";
        else if (b.len == 33 && (b.buf[0] == 0x02 || b.buf[0] == 0x03))
            why = "invalid compressed public key: x >= p or no curve point has this x";
        else
            why = "invalid SEC1 public key: expected 65 bytes 04||X||Y or 33 bytes 02/03||X";
        byteview_release(&b);
        PyErr_SetString(PyExc_ValueError, why);
        return NULL;
    }
    byteview_release(&b);
    /* Already canonical uncompressed bytes: hand the same immutable object back. */
    if (PyBytes_CheckExact(data) && b.len == 65) {
        Py_INCREF(data);
        return data;
    }
    return PyBytes_FromStringAndSize((const char *)out, 65);
}

/* verify(pub, sig, digest, raw) -> bool. Any malformed signature is just False. */
static PyObject *core_verify(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    byteview q, sig, dg;
    uint8_t rs[64];
    int raw, ok = 0;
    (void)self;

    if (check_nargs(nargs, 4, "verify") < 0)
        return NULL;
    raw = PyObject_IsTrue(args[3]);
    if (raw < 0)
        return NULL;
    if (byteview_get(&q, args[0], "public key") < 0)
        return NULL;
    if (byteview_get(&sig, args[1], "signature") < 0) {
        byteview_release(&q);
        return NULL;
    }
    if (byteview_get(&dg, args[2], "digest") < 0) {
        byteview_release(&q);
        byteview_release(&sig);
        return NULL;
    }
    if (raw)
        ok = sig.len == 64 && (memcpy(rs, sig.buf, 64), 1);
    else
        ok = p256_sig_from_der(rs, sig.buf, (size_t)sig.len);
    if (ok) {
        RELEASE_GIL
        ok = p256_verify(q.buf, (size_t)q.len, rs, dg.buf, (size_t)dg.len);
        ACQUIRE_GIL
    }
    byteview_release(&q);
    byteview_release(&sig);
    byteview_release(&dg);
    return PyBool_FromLong(ok);
}

static int get_scalar32(byteview *k, PyObject *obj)
{
    if (byteview_get(k, obj, "scalar") < 0)
        return -1;
    if (k->len != 32) {
        byteview_release(k);
        PyErr_Format(PyExc_ValueError, "scalar must be 32 bytes, got %zd", k->len);
        return -1;
    }
    return 0;
}

static PyObject *core_scalar_base_mult(PyObject *self, PyObject *kobj)
{
    byteview k;
    uint8_t out[65];
    int ok;
    (void)self;
    if (get_scalar32(&k, kobj) < 0)
        return NULL;
    RELEASE_GIL
    ok = p256_mult_base(out, k.buf);
    ACQUIRE_GIL
    byteview_release(&k);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "scalar is 0 mod n: the result is the point at infinity");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)out, 65);
}

static PyObject *core_scalar_mult(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    byteview k, q;
    uint8_t point[65], out[65];
    int ok;
    (void)self;
    if (check_nargs(nargs, 2, "scalar_mult") < 0)
        return NULL;
    if (get_scalar32(&k, args[0]) < 0)
        return NULL;
    if (byteview_get(&q, args[1], "point") < 0) {
        byteview_release(&k);
        return NULL;
    }
    ok = p256_pubkey_parse(point, q.buf, (size_t)q.len);
    byteview_release(&q);
    if (!ok) {
        byteview_release(&k);
        PyErr_SetString(PyExc_ValueError, "invalid SEC1 point");
        return NULL;
    }
    RELEASE_GIL
    ok = p256_mult(out, k.buf, point, sizeof point);
    ACQUIRE_GIL
    byteview_release(&k);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "scalar is 0 mod n: the result is the point at infinity");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)out, 65);
}

/* ------------------------------------------------------------------------------------ */
/* Known-answer self-test, run by PyInit__core: a miscompiled or broken core fails the   */
/* import with ImportError instead of signing garbage. RFC 6979 A.2.5 (P-256, SHA-256,   */
/* message "sample"): d*G, the deterministic signature, its verification, and the       */
/* rejection of the same signature over a digest with one bit flipped. Only the p256.h   */
/* API is used, so it checks whatever backend that API dispatches to.                    */

/* Harness only: 1-4 corrupt one expected value, to see the import fail (README). */
#ifndef P256_SELFTEST_CORRUPT
#define P256_SELFTEST_CORRUPT 0
#endif

static const uint8_t selftest_d[32] = {
    0xc9, 0xaf, 0xa9, 0xd8, 0x45, 0xba, 0x75, 0x16, 0x6b, 0x5c, 0x21, 0x57, 0x67, 0xb1, 0xd6, 0x93,
    0x4e, 0x50, 0xc3, 0xdb, 0x36, 0xe8, 0x9b, 0x12, 0x7b, 0x8a, 0x62, 0x2b, 0x12, 0x0f, 0x67, 0x21};
static const uint8_t selftest_pub[65] = {
    0x04, 0x60, 0xfe, 0xd4, 0xba, 0x25, 0x5a, 0x9d, 0x31, 0xc9, 0x61, 0xeb, 0x74, 0xc6, 0x35, 0x6d,
    0x68, 0xc0, 0x49, 0xb8, 0x92, 0x3b, 0x61, 0xfa, 0x6c, 0xe6, 0x69, 0x62, 0x2e, 0x60, 0xf2, 0x9f,
    0xb6, 0x79, 0x03, 0xfe, 0x10, 0x08, 0xb8, 0xbc, 0x99, 0xa4, 0x1a, 0xe9, 0xe9, 0x56, 0x28, 0xbc,
    0x64, 0xf2, 0xf1, 0xb2, 0x0c, 0x2d, 0x7e, 0x9f, 0x51, 0x77, 0xa3, 0xc2, 0x94, 0xd4, 0x46, 0x22,
    0x99};
static const uint8_t selftest_digest[32] = { /* SHA-256("sample") */
    0xaf, 0x2b, 0xdb, 0xe1, 0xaa, 0x9b, 0x6e, 0xc1, 0xe2, 0xad, 0xe1, 0xd6, 0x94, 0xf4, 0x1f, 0xc7,
    0x1a, 0x83, 0x1d, 0x02, 0x68, 0xe9, 0x89, 0x15, 0x62, 0x11, 0x3d, 0x8a, 0x62, 0xad, 0xd1, 0xbf};
static const uint8_t selftest_rs[64] = {
    0xef, 0xd4, 0x8b, 0x2a, 0xac, 0xb6, 0xa8, 0xfd, 0x11, 0x40, 0xdd, 0x9c, 0xd4, 0x5e, 0x81, 0xd6,
    0x9d, 0x2c, 0x87, 0x7b, 0x56, 0xaa, 0xf9, 0x91, 0xc3, 0x4d, 0x0e, 0xa8, 0x4e, 0xaf, 0x37, 0x16,
    0xf7, 0xcb, 0x1c, 0x94, 0x2d, 0x65, 0x7c, 0x41, 0xd4, 0x36, 0xc7, 0xa1, 0xb6, 0xe2, 0x9f, 0x65,
    0xf3, 0xe9, 0x00, 0xdb, 0xb9, 0xaf, 0xf4, 0x06, 0x4d, 0xc4, 0xab, 0x2f, 0x84, 0x3a, 0xcd, 0xa8};

/* 0 if every answer is right, else -1 with ImportError set. corrupt: see above. */
static int core_selftest_run(int corrupt)
{
    uint8_t pub[65], rs[64], want_pub[65], want_rs[64], dg[32], bad[32];
    const char *why = NULL;

    memcpy(want_pub, selftest_pub, 65);
    memcpy(want_rs, selftest_rs, 64);
    memcpy(dg, selftest_digest, 32);
    memcpy(bad, selftest_digest, 32);
    bad[31] ^= 1;
    if (corrupt == 1)
        want_pub[64] ^= 1;
    else if (corrupt == 2)
        want_rs[63] ^= 1;
    else if (corrupt == 3)
        dg[0] ^= 0x80;
    else if (corrupt == 4)
        bad[31] ^= 1;

    if (!p256_pubkey_create(pub, selftest_d) || memcmp(pub, want_pub, 65) != 0)
        why = "base-point multiplication d*G";
    else if (!p256_sign(rs, selftest_d, selftest_digest, 32, P256_NONCE_SHA256) ||
             memcmp(rs, want_rs, 64) != 0)
        why = "RFC 6979 deterministic signature";
    else if (p256_verify(selftest_pub, 65, selftest_rs, dg, 32) != 1)
        why = "verification of a valid signature";
    else if (p256_verify(selftest_pub, 65, selftest_rs, bad, 32) != 0)
        why = "rejection of a signature over another digest";
    if (why == NULL)
        return 0;
    PyErr_Format(PyExc_ImportError,
                 "p256._core known-answer self-test failed (%s, backend %s): the native core "
                 "is miscompiled or broken; refusing to load it", why, p256_backend_name());
    return -1;
}

/* _selftest(corrupt=0): runs the import self-test again; for the tests. */
static PyObject *core_selftest(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    long corrupt = 0;
    (void)self;
    if (nargs > 1) {
        (void)check_nargs(nargs, 1, "_selftest");
        return NULL;
    }
    if (nargs == 1 && (corrupt = PyLong_AsLong(args[0])) == -1 && PyErr_Occurred())
        return NULL;
    if (core_selftest_run((int)corrupt) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* Batch verification (p256.verify_many) and EIP-7951 P256VERIFY (p256.p256verify)       */
/*
 * Batch(items, PublicKey, raw, hash_id) takes every (PublicKey, sig, msg) triple apart
 * under the GIL: the key's 65 bytes and the signature's bytes (at most 72) are copied,
 * a message is referenced when it is a bytes object (immutable, and we hold a
 * reference) and copied otherwise. Any wrong type raises TypeError here, before any
 * work. run() then releases the GIL once and verifies items until none is left; several
 * Python threads may call run() on the same batch at once: they claim items one at a
 * time (dynamic balancing, so a core slowed by other load just takes fewer items), and
 * each item is hashed (SHA-2/SHA-3 of the core's hash layer, compiled into
 * this translation unit: hashing is backend-independent), DER-decoded and verified
 * without the GIL. results() gives the list of bools in input order.
 */
#include "hash_impl.h"

typedef struct {
    const uint8_t *msg; /* into `keep` (a bytes object) or `copy` */
    size_t msg_len;
    PyObject *keep;
    uint8_t *copy;
    uint8_t pub[65];
    uint8_t sig[72];
    uint8_t sig_len;
    uint8_t well_formed; /* 0: the signature's length already rules it out */
    uint8_t result;
} batch_item;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    batch_item *items;
    int raw;
    p256_hash_id hash;
    Py_ssize_t next;         /* first unclaimed item */
    Py_ssize_t done;         /* items finished */
    PyThread_type_lock lock; /* guards next and done where there are no atomics */
} BatchObject;

/* Claims are atomic increments: a thread preempted while holding a lock would stall the
 * others (likely on a loaded machine). Without GCC/clang builtins (or with
 * -DP256_BATCH_NO_ATOMICS, to test that path), a PyThread lock. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(P256_BATCH_NO_ATOMICS)
#define BATCH_ATOMICS 1
#endif

static PyTypeObject Batch_Type;

static void batch_dealloc(BatchObject *self)
{
    if (self->items != NULL) {
        for (Py_ssize_t i = 0; i < self->n; i++) {
            Py_XDECREF(self->items[i].keep);
            PyMem_Free(self->items[i].copy);
        }
        PyMem_Free(self->items);
    }
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    PyObject_Free(self);
}

/* Fill *it from items[index] = (PublicKey, sig, msg); -1 with TypeError if it is not one. */
static int batch_take(batch_item *it, PyObject *triple, Py_ssize_t index, PyObject *pk_type,
                      int raw)
{
    static PyObject *name_b = NULL; /* interned "_b", the PublicKey's uncompressed SEC1 */
    PyObject *t, *pk, *pub;
    byteview sig, msg;
    int rc = -1;

    if (name_b == NULL && (name_b = PyUnicode_InternFromString("_b")) == NULL)
        return -1;
    t = PyTuple_CheckExact(triple) ? (Py_INCREF(triple), triple) : PySequence_Tuple(triple);
    if (t == NULL && !PyErr_ExceptionMatches(PyExc_TypeError))
        return -1;
    if (t == NULL || PyTuple_GET_SIZE(t) != 3) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "items[%zd] must be a (PublicKey, signature, message) triple, not %.100s",
                     index, Py_TYPE(triple)->tp_name);
        Py_XDECREF(t);
        return -1;
    }
    pk = PyTuple_GET_ITEM(t, 0);
    if (!PyObject_TypeCheck(pk, (PyTypeObject *)pk_type)) {
        PyErr_Format(PyExc_TypeError, "items[%zd][0] must be a PublicKey, not %.100s", index,
                     Py_TYPE(pk)->tp_name);
        goto out;
    }
    pub = PyObject_GetAttr(pk, name_b);
    if (pub == NULL)
        goto out;
    if (!PyBytes_CheckExact(pub) || PyBytes_GET_SIZE(pub) != 65) {
        Py_DECREF(pub);
        PyErr_Format(PyExc_TypeError, "items[%zd][0] is a corrupted PublicKey", index);
        goto out;
    }
    memcpy(it->pub, PyBytes_AS_STRING(pub), 65);
    Py_DECREF(pub);

    if (byteview_get(&sig, PyTuple_GET_ITEM(t, 1), "signature") < 0)
        goto bad_buffer;
    it->well_formed = raw ? sig.len == 64 : sig.len <= 72;
    if (it->well_formed) {
        memcpy(it->sig, sig.buf, (size_t)sig.len);
        it->sig_len = (uint8_t)sig.len;
    }
    byteview_release(&sig);

    if (byteview_get(&msg, PyTuple_GET_ITEM(t, 2), "message") < 0)
        goto bad_buffer;
    if (msg.view.obj == NULL) { /* a bytes object: immutable, keep a reference */
        it->keep = PyTuple_GET_ITEM(t, 2);
        Py_INCREF(it->keep);
        it->msg = msg.buf;
    } else { /* a mutable or foreign buffer: copy it */
        it->copy = (uint8_t *)PyMem_Malloc(msg.len > 0 ? (size_t)msg.len : 1);
        if (it->copy == NULL) {
            byteview_release(&msg);
            PyErr_NoMemory();
            goto out;
        }
        memcpy(it->copy, msg.buf, (size_t)msg.len);
        it->msg = it->copy;
    }
    it->msg_len = (size_t)msg.len;
    byteview_release(&msg);
    rc = 0;
    goto out;
bad_buffer:
    if (PyErr_ExceptionMatches(PyExc_TypeError)) { /* say which item */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_TypeError, "items[%zd]: %S", index, value);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
out:
    Py_DECREF(t);
    return rc;
}

static PyObject *batch_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *items, *pk_type, *seq;
    int raw, hash;
    BatchObject *self;
    Py_ssize_t n;
    (void)type;

    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Batch() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOpi:Batch", &items, &pk_type, &raw, &hash))
        return NULL;
    if (!PyType_Check(pk_type)) {
        PyErr_SetString(PyExc_TypeError, "Batch() needs the PublicKey class");
        return NULL;
    }
    if (hash < P256_HASH_SHA224 || hash > P256_HASH_SHA3_512) {
        PyErr_SetString(PyExc_ValueError, "unknown hash id");
        return NULL;
    }
    /* A private tuple: a list could change under us if a triple's __iter__ ran Python code. */
    seq = PySequence_Tuple(items);
    if (seq == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "items must be an iterable of (PublicKey, signature, message), not %.100s",
                         Py_TYPE(items)->tp_name);
        }
        return NULL;
    }
    n = PyTuple_GET_SIZE(seq);
    self = PyObject_New(BatchObject, &Batch_Type);
    if (self == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    self->n = 0; /* items live up to n: dealloc frees only those */
    self->raw = raw;
    self->hash = (p256_hash_id)hash;
    self->next = self->done = 0;
    self->lock = NULL;
    self->items = (batch_item *)PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof(batch_item));
#ifndef BATCH_ATOMICS
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL)
        self->items = (PyMem_Free(self->items), NULL);
#endif
    if (self->items == NULL) {
        Py_DECREF(seq);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        self->n = i + 1;
        if (batch_take(&self->items[i], PyTuple_GET_ITEM(seq, i), i, pk_type, raw) < 0) {
            Py_DECREF(seq);
            Py_DECREF(self);
            return NULL;
        }
    }
    Py_DECREF(seq);
    return (PyObject *)self;
}

/* One item, without the GIL: decode, hash, verify. */
static void batch_verify_item(batch_item *it, int raw, p256_hash_id hash)
{
    uint8_t rs[64], digest[P256_HASH_MAX_SIZE];
    int ok = it->well_formed;
    if (ok && raw)
        memcpy(rs, it->sig, 64);
    else if (ok)
        ok = p256_sig_from_der(rs, it->sig, it->sig_len);
    if (ok) {
        p256_hash(hash, it->msg, it->msg_len, digest);
        ok = p256_verify(it->pub, sizeof it->pub, rs, digest, p256_hash_size(hash));
    }
    it->result = (uint8_t)(ok != 0);
}

/* Claim the next item (-1 when none is left), reporting the previous one as done. */
static Py_ssize_t batch_claim(BatchObject *self, int finished)
{
    Py_ssize_t i = -1;
#ifdef BATCH_ATOMICS
    if (finished) /* release: the item's result is written before it counts as done */
        __atomic_fetch_add(&self->done, 1, __ATOMIC_RELEASE);
    i = __atomic_fetch_add(&self->next, 1, __ATOMIC_RELAXED); /* passes n by one per thread */
    if (i >= self->n)
        i = -1;
#else
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    self->done += finished;
    if (self->next < self->n)
        i = self->next++;
    PyThread_release_lock(self->lock);
#endif
    return i;
}

static Py_ssize_t batch_done(BatchObject *self)
{
    Py_ssize_t done;
#ifdef BATCH_ATOMICS
    done = __atomic_load_n(&self->done, __ATOMIC_ACQUIRE);
#else
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    done = self->done;
    PyThread_release_lock(self->lock);
#endif
    return done;
}

static PyObject *batch_run(BatchObject *self, PyObject *unused)
{
    (void)unused;
    Py_INCREF(self); /* stays alive while the GIL is released, whoever holds it */
    RELEASE_GIL
    Py_ssize_t i = batch_claim(self, 0);
    while (i >= 0) {
        batch_verify_item(&self->items[i], self->raw, self->hash);
        i = batch_claim(self, 1);
    }
    ACQUIRE_GIL
    Py_DECREF(self);
    Py_RETURN_NONE;
}

static PyObject *batch_results(BatchObject *self, PyObject *unused)
{
    PyObject *list, *r;
    Py_ssize_t done;
    r = batch_run(self, unused); /* whatever is still unclaimed, on this thread */
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    done = batch_done(self);
    if (done != self->n) {
        PyErr_SetString(PyExc_RuntimeError, "results() called while run() is still working");
        return NULL;
    }
    list = PyList_New(self->n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *b = self->items[i].result ? Py_True : Py_False;
        Py_INCREF(b);
        PyList_SET_ITEM(list, i, b);
    }
    return list;
}

static Py_ssize_t batch_len(BatchObject *self)
{
    return self->n;
}

static PyMethodDef batch_methods[] = {
    {"run", (PyCFunction)batch_run, METH_NOARGS,
     "Verify unclaimed items with the GIL released until none is left (thread-safe)."},
    {"results", (PyCFunction)batch_results, METH_NOARGS,
     "Finish any unclaimed items, then the list of bools in input order."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods batch_as_sequence = {
    .sq_length = (lenfunc)batch_len,
};

static PyTypeObject Batch_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(items, PublicKey, raw, hash_id): signatures to verify off the GIL.",
    .tp_methods = batch_methods,
    .tp_as_sequence = &batch_as_sequence,
    .tp_new = batch_new,
};

/*
 * p256verify(data) -> 32-byte 0..01 or b"": EIP-7951 P256VERIFY. data = h || r || s || qx
 * || qy, 32 bytes each. The core's verify already has the precompile's checks: r and s
 * in [1, n-1], qx and qy < p, (qx, qy) on the curve (which excludes (0, 0): b != 0), h
 * taken as a 256-bit integer reduced mod n, R = u1*G + u2*Q not at infinity, and
 * r == x(R) mod n (it tries x(R) = r and x(R) = r + n). There is no low-s rule.
 */
static PyObject *core_p256verify(PyObject *self, PyObject *data)
{
    static const uint8_t one[32] = {[31] = 1};
    byteview b;
    uint8_t in[160], pub[65];
    int ok;
    (void)self;
    if (byteview_get(&b, data, "input") < 0)
        return NULL;
    ok = b.len == 160;
    if (ok)
        memcpy(in, b.buf, 160);
    byteview_release(&b);
    if (!ok)
        return PyBytes_FromStringAndSize(NULL, 0);
    pub[0] = 0x04;
    memcpy(pub + 1, in + 96, 64);
    RELEASE_GIL
    ok = p256_verify(pub, sizeof pub, in + 32, in, 32);
    ACQUIRE_GIL
    return PyBytes_FromStringAndSize(ok ? (const char *)one : NULL, ok ? 32 : 0);
}

static PyMethodDef core_methods[] = {
    {"backend", core_backend, METH_NOARGS, "Name of the field-arithmetic backend in use."},
    {"point_decode", core_point_decode, METH_O,
     "point_decode(sec1) -> 65-byte uncompressed point; ValueError if invalid."},
    {"verify", (PyCFunction)(void (*)(void))core_verify, METH_FASTCALL,
     "verify(sec1_pub, sig, digest, raw) -> bool."},
    {"scalar_base_mult", core_scalar_base_mult, METH_O,
     "scalar_base_mult(k32) -> 65-byte k*G."},
    {"scalar_mult", (PyCFunction)(void (*)(void))core_scalar_mult, METH_FASTCALL,
     "scalar_mult(k32, sec1_point) -> 65-byte k*Q."},
    {"_selftest", (PyCFunction)(void (*)(void))core_selftest, METH_FASTCALL,
     "_selftest(corrupt=0): the import's known-answer self-test; raises ImportError."},
    {"p256verify", core_p256verify, METH_O,
     "p256verify(160 bytes h||r||s||qx||qy) -> 32-byte 1 or b\"\" (EIP-7951)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "p256._core", "Native P-256 core.", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

/* hashlib names -> the core's hash ids, for RFC 6979 nonces. */
static PyObject *nonce_hash_ids(void)
{
    static const struct {
        const char *name;
        int id;
    } ids[] = {
        {"sha224", P256_NONCE_SHA224},     {"sha256", P256_NONCE_SHA256},
        {"sha384", P256_NONCE_SHA384},     {"sha512", P256_NONCE_SHA512},
        {"sha3_256", P256_NONCE_SHA3_256}, {"sha3_384", P256_NONCE_SHA3_384},
        {"sha3_512", P256_NONCE_SHA3_512},
    };
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        PyObject *v = PyLong_FromLong(ids[i].id);
        if (v == NULL || PyDict_SetItemString(d, ids[i].name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m, *ids;
    /* The field backend, once, before anything runs (backend.c; README, Backends). */
    {
        char err[300];
        if (p256_backend_select(getenv("P256_BACKEND"), err, sizeof err) != 0) {
            PyErr_SetString(PyExc_ImportError, err);
            return NULL;
        }
    }
    if (PyType_Ready(&SecretKey_Type) < 0)
        return NULL;
    if (core_selftest_run(P256_SELFTEST_CORRUPT) < 0)
        return NULL;
    m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SecretKey_Type);
    if (PyModule_AddObject(m, "SecretKey", (PyObject *)&SecretKey_Type) < 0) {
        Py_DECREF(&SecretKey_Type);
        Py_DECREF(m);
        return NULL;
    }
    if (PyType_Ready(&Batch_Type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&Batch_Type);
    if (PyModule_AddObject(m, "Batch", (PyObject *)&Batch_Type) < 0) {
        Py_DECREF(&Batch_Type);
        Py_DECREF(m);
        return NULL;
    }
    ids = nonce_hash_ids();
    if (ids == NULL || PyModule_AddObject(m, "NONCE_HASH", ids) < 0) {
        Py_XDECREF(ids);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddStringConstant(m, "__version__", P256_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "compiler", P256_COMPILER) < 0 ||
        PyModule_AddIntConstant(m, "NONCE_HEDGED", P256_NONCE_HEDGED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

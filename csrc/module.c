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
    m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SecretKey_Type);
    if (PyModule_AddObject(m, "SecretKey", (PyObject *)&SecretKey_Type) < 0) {
        Py_DECREF(&SecretKey_Type);
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

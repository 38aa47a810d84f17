/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_secretkey.c: p256._core.SecretKey, the private scalar of a p256.PrivateKey.
 *
 * The scalar lives in the object's own memory, is never handed to Python except by an
 * explicit to_bytes(), and is wiped when the object dies. Its methods release the GIL
 * while the core computes.
 */
#include "py_binding.h"

/* OSError text when p256_seckey_generate or hedged p256_sign had no OS randomness. */
#define P256_RNG_FAILED "the operating system's random generator failed"

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
    p256_wipe(self->d, sizeof self->d);
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
        PyErr_SetString(PyExc_OSError, P256_RNG_FAILED);
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
        PyErr_SetString(PyExc_OSError, P256_RNG_FAILED);
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
    p256_wipe(out, sizeof out); /* the shared secret: only the returned object keeps it */
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

int p256py_add_secretkey(PyObject *module)
{
    return p256py_add_type(module, "SecretKey", &SecretKey_Type);
}

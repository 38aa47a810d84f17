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
} SecretKeyObject;

static PyTypeObject SecretKey_Type;

static SecretKeyObject *secretkey_alloc(void)
{
    return PyObject_New(SecretKeyObject, &SecretKey_Type);
}

static void secretkey_dealloc(SecretKeyObject *self)
{
    p256_wipe(self->d, sizeof self->d);
    PyObject_Free(self);
}

PyObject *p256py_secretkey_new(const uint8_t d[32])
{
    SecretKeyObject *self = secretkey_alloc();
    if (self != NULL)
        memcpy(self->d, d, 32);
    return (PyObject *)self;
}

const uint8_t *p256py_secretkey_get(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &SecretKey_Type))
        return NULL;
    return ((SecretKeyObject *)obj)->d;
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

/* public_key(cls) -> d*G as a new key object of class cls (a _core.PublicPoint type). */
static PyObject *secretkey_public_key(SecretKeyObject *self, PyObject *cls)
{
    p256_pubkey pk;
    int ok;
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "public_key() takes the PublicKey class");
        return NULL;
    }
    RELEASE_GIL
    ok = p256_pubkey_derive(&pk, self->d);
    ACQUIRE_GIL
    if (!ok) { /* unreachable: d was validated at construction */
        PyErr_SetString(PyExc_ValueError, "invalid private key");
        return NULL;
    }
    return p256py_point_new((PyTypeObject *)cls, &pk);
}

/*
 * sign(data, hash_id, size, nonce_id, raw, deterministic, low_s, recoverable) -> signature
 * (DER, or r||s when raw), or (signature, recovery id) when recoverable. hash_id >= 0:
 * data is the message, hashed by the core; -1: data is the digest, exactly `size` bytes
 * (size -1: any length but 0). The nonce: hedged when deterministic is False, RFC 6979
 * with HMAC over nonce_id when True. The arguments come normalized from the Python layer
 * (_args.py): anything else is a TypeError or ValueError it explains.
 */
static PyObject *secretkey_sign(SecretKeyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t digest[P256_DIGEST_MAX], rs[64], der[72];
    const uint8_t *dg = digest;
    size_t dg_len = 0;
    byteview view;
    long hash, size, nonce;
    int raw, det, low_s, recoverable, ok, recid = 0;
    PyObject *sig;

    view.view.obj = NULL; /* released below whether or not a digest was taken */
    view.copy = NULL;
    if (check_nargs(nargs, 8, "sign") < 0)
        return NULL;
    if ((hash = PyLong_AsLong(args[1])) == -1 && PyErr_Occurred())
        return NULL;
    if ((size = PyLong_AsLong(args[2])) == -1 && PyErr_Occurred())
        return NULL;
    if ((nonce = PyLong_AsLong(args[3])) == -1 && PyErr_Occurred())
        return NULL;
    if ((raw = flag_get(args[4], "raw")) < 0 || (det = flag_get(args[5], "deterministic")) < 0 ||
        (low_s = flag_get(args[6], "low_s")) < 0 ||
        (recoverable = flag_get(args[7], "recoverable")) < 0)
        return NULL;
    if (det && (nonce < P256_NONCE_SHA224 || nonce > P256_NONCE_SHA3_512)) {
        PyErr_SetString(PyExc_ValueError, "unknown nonce mode");
        return NULL;
    }
    if (hash >= 0) {
        if (p256py_digest(digest, &dg_len, args[0], hash) < 0)
            return NULL;
    } else {
        if (byteview_get(&view, args[0], "digest") < 0)
            return NULL;
        if (size >= 0 ? view.len != size : view.len == 0) {
            byteview_release(&view);
            PyErr_SetString(PyExc_ValueError, "digest of the wrong size");
            return NULL;
        }
        dg = view.buf;
        dg_len = (size_t)view.len;
    }
    RELEASE_GIL
    ok = p256_sign_recoverable(rs, &recid, self->d, dg, dg_len, det ? (int)nonce : P256_NONCE_HEDGED,
                               low_s);
    ACQUIRE_GIL
    byteview_release(&view);
    if (!ok) {
        PyErr_SetString(PyExc_OSError, P256_RNG_FAILED);
        return NULL;
    }
    if (raw)
        sig = PyBytes_FromStringAndSize((const char *)rs, 64);
    else
        sig = PyBytes_FromStringAndSize((const char *)der, (Py_ssize_t)p256_sig_to_der(der, rs));
    if (sig == NULL || !recoverable)
        return sig;
    return Py_BuildValue("(Ni)", sig, recid);
}

/* exchange(public key object) -> 32-byte shared x: over the key's table when it has one
 * (precompute()), the same bytes faster, else from its point. */
static PyObject *secretkey_exchange(SecretKeyObject *self, PyObject *pub)
{
    const p256_pubkey *pk = p256py_point_get(pub);
    PyObject *table;
    uint8_t out[32];
    int ok;
    PyObject *res;

    if (pk == NULL) {
        PyErr_Format(PyExc_TypeError, "exchange() takes a PublicKey, not %.100s",
                     Py_TYPE(pub)->tp_name);
        return NULL;
    }
    /* A reference of our own: a precompute() of another window may replace the key's. */
    table = p256py_point_table(pub);
    Py_INCREF(pub); /* pk lives in it */
    RELEASE_GIL
    if (table != NULL)
        ok = p256_ecdh_pubtable(out, self->d, p256py_pubtable_get(table));
    else
        ok = p256_pubkey_ecdh(out, self->d, pk);
    ACQUIRE_GIL
    Py_XDECREF(table);
    Py_DECREF(pub);
    if (!ok) { /* unreachable: d and the key were validated at construction */
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
    {"public_key", (PyCFunction)secretkey_public_key, METH_O,
     "public_key(cls) -> the public key d*G as an object of class cls."},
    {"sign", (PyCFunction)(void (*)(void))secretkey_sign, METH_FASTCALL,
     "sign(data, hash_id, size, nonce_id, raw, deterministic, low_s, recoverable) -> "
     "signature, or (signature, recovery id)."},
    {"exchange", (PyCFunction)secretkey_exchange, METH_O,
     "exchange(key) -> 32-byte x coordinate of d*Q."},
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

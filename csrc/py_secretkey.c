/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_secretkey.c: p256._core.SecretKey, the native object of a p256.PrivateKey (which
 * subclasses it in src/p256/_keys.py, as PublicKey subclasses PublicPoint).
 *
 * The scalar lives in the object's own memory, is never handed to Python except by an
 * explicit to_bytes(), and is wiped when the object dies; the public key d*G is made on
 * first use and kept (under P256PY_LOCK). Its methods release the GIL while the core
 * computes. Objects come
 * from the class methods _load and generate (and the batch's generate_many), never from
 * calling the class. Pickling and copying are refused.
 */
#include "py_binding.h"

/* OSError text when p256_seckey_generate or hedged p256_sign had no OS randomness. */
#define P256_RNG_FAILED "the operating system's random generator failed"

typedef struct {
    PyObject_HEAD
    uint8_t d[32];
    PyObject *pub; /* d*G as a key object, made on first use, or NULL */
} SecretKeyObject;

static PyTypeObject SecretKey_Type;

/* A new object of `type` (SecretKey or a subclass), d zeroed, or NULL with TypeError. */
static SecretKeyObject *secretkey_alloc(PyTypeObject *type)
{
    if (!PyType_IsSubtype(type, &SecretKey_Type)) {
        PyErr_SetString(PyExc_TypeError, "not a SecretKey type");
        return NULL;
    }
    return (SecretKeyObject *)type->tp_alloc(type, 0);
}

static void secretkey_dealloc(SecretKeyObject *self)
{
    p256_wipe(self->d, sizeof self->d);
    Py_CLEAR(self->pub);
    Py_TYPE(self)->tp_free((PyObject *)self); /* a subclass's type is released by CPython */
}

PyObject *p256py_secretkey_new(PyTypeObject *type, const uint8_t d[32], PyObject *pub)
{
    SecretKeyObject *self = secretkey_alloc(type);
    if (self == NULL) {
        Py_XDECREF(pub);
        return NULL;
    }
    memcpy(self->d, d, 32);
    self->pub = pub;
    return (PyObject *)self;
}

const uint8_t *p256py_secretkey_get(PyObject *obj)
{
    if (!PyObject_TypeCheck(obj, &SecretKey_Type))
        return NULL;
    return ((SecretKeyObject *)obj)->d;
}

static PyObject *secretkey_new_refused(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    (void)type, (void)args, (void)kwargs;
    PyErr_SetString(PyExc_TypeError,
                    "use PrivateKey.generate(), PrivateKey.from_bytes() or PrivateKey.from_int()");
    return NULL;
}

/* _load(cls, data) -> a key of class cls from 32 bytes, 1 <= d < n. */
static PyObject *secretkey_load(PyObject *cls, PyObject *data)
{
    byteview b;
    SecretKeyObject *self;
    if (byteview_get(&b, data, "private key") < 0)
        return NULL;
    if (b.len != 32) {
        byteview_release(&b);
        PyErr_Format(PyExc_ValueError, "private key must be 32 bytes, got %zd", b.len);
        return NULL;
    }
    self = secretkey_alloc((PyTypeObject *)cls);
    if (self == NULL) {
        byteview_release(&b);
        return NULL;
    }
    memcpy(self->d, b.buf, 32);
    byteview_release(&b);
    if (!p256_seckey_verify(self->d)) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "private key must be an integer in [1, n-1]");
        return NULL;
    }
    return (PyObject *)self;
}

/* _generate(cls) -> a new key of class cls, d uniform in [1, n-1] from the OS CSPRNG. */
static PyObject *secretkey_generate(PyObject *cls, PyObject *unused)
{
    SecretKeyObject *self;
    (void)unused;
    self = secretkey_alloc((PyTypeObject *)cls);
    if (self == NULL)
        return NULL;
    if (!p256_seckey_generate(self->d)) {
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

/* The kept public key (a new reference), or NULL; with pub, stores it first unless one is
 * kept already. Under P256PY_LOCK: the GIL, or the object's lock in a free-threaded build. */
static PyObject *secretkey_kept_public(SecretKeyObject *self, PyObject *pub)
{
    PyObject *kept;
    P256PY_LOCK(self)
    if (self->pub == NULL && pub != NULL) {
        Py_INCREF(pub);
        self->pub = pub;
    }
    kept = self->pub;
    Py_XINCREF(kept);
    P256PY_UNLOCK
    return kept;
}

/* _public_key(cls) -> d*G as a key object of class cls (a _core.PublicPoint type), made
 * once and kept: later calls return the same object. Two threads asking at once may both
 * compute it; the first one stored is the one every caller gets. */
static PyObject *secretkey_public_key(SecretKeyObject *self, PyObject *cls)
{
    p256_pubkey pk;
    PyObject *pub, *kept = secretkey_kept_public(self, NULL);
    int ok;
    if (kept != NULL)
        return kept;
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "_public_key() takes the PublicKey class");
        return NULL;
    }
    RELEASE_GIL
    ok = p256_pubkey_derive(&pk, self->d);
    ACQUIRE_GIL
    if (!ok) { /* unreachable: d was validated at construction */
        PyErr_SetString(PyExc_ValueError, "invalid private key");
        return NULL;
    }
    if ((pub = p256py_point_new((PyTypeObject *)cls, &pk)) == NULL)
        return NULL;
    kept = secretkey_kept_public(self, pub); /* another thread's, if it stored one first */
    Py_DECREF(pub);
    return kept;
}

/*
 * _sign(data, is_digest, hash, encoding, deterministic, low_s, recoverable) -> signature
 * (DER, or r||s for encoding "raw"), or (signature, recovery id) when recoverable. data:
 * the message, or with is_digest the digest; the other arguments as PrivateKey.sign and
 * sign_digest take them, normalized by py_args.c (the documented error for a wrong one).
 * The nonce: hedged unless deterministic, then RFC 6979 with HMAC over the hash.
 */
static PyObject *secretkey_sign(SecretKeyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    p256py_sig_input in;
    uint8_t rs[64], der[72];
    int is_digest, recoverable, ok, recid = 0;
    PyObject *sig;

    if (check_nargs(nargs, 7, "_sign") < 0 || (is_digest = flag_get(args[1], "is_digest")) < 0 ||
        (recoverable = flag_get(args[6], "recoverable")) < 0 ||
        p256py_sig_input_get(&in, args[0], is_digest, args[2], args[3], args[4], args[5]) < 0)
        return NULL;
    RELEASE_GIL
    ok = p256_sign_recoverable(rs, &recid, self->d, in.digest, in.digest_len,
                               in.deterministic ? in.nonce : P256_NONCE_HEDGED, in.low_s);
    ACQUIRE_GIL
    p256py_sig_input_release(&in);
    if (!ok) {
        PyErr_SetString(PyExc_OSError, P256_RNG_FAILED);
        return NULL;
    }
    if (in.raw)
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

/* Also refuses copy.copy and copy.deepcopy: the key is immutable, so a copy is never
 * needed, and a deepcopy of a structure holding it must not duplicate the secret silently. */
static PyObject *secretkey_reduce(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyErr_SetString(PyExc_TypeError, "private keys cannot be pickled or copied; export them "
                                     "explicitly with to_bytes() or to_pem()");
    return NULL;
}

static PyMethodDef secretkey_methods[] = {
    {"_load", secretkey_load, METH_O | METH_CLASS,
     "_load(data) -> a key of this class from its 32-byte scalar, 1 <= d < n."},
    {"_generate", secretkey_generate, METH_NOARGS | METH_CLASS,
     "A new key of this class, d uniform in [1, n-1] from the OS CSPRNG."},
    {"to_bytes", (PyCFunction)secretkey_to_bytes, METH_NOARGS, "The 32-byte big-endian scalar."},
    {"_public_key", (PyCFunction)secretkey_public_key, METH_O,
     "_public_key(cls) -> the public key d*G as an object of class cls, made once."},
    {"_sign", (PyCFunction)(void (*)(void))secretkey_sign, METH_FASTCALL,
     "_sign(data, is_digest, hash, encoding, deterministic, low_s, recoverable) -> "
     "signature, or (signature, recovery id)."},
    {"_exchange", (PyCFunction)secretkey_exchange, METH_O,
     "_exchange(key) -> 32-byte x coordinate of d*Q."},
    {"__reduce__", secretkey_reduce, METH_NOARGS, NULL},
    {"__reduce_ex__", (PyCFunction)secretkey_reduce, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SecretKey_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.SecretKey",
    .tp_basicsize = sizeof(SecretKeyObject),
    .tp_dealloc = (destructor)secretkey_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A P-256 private scalar held and wiped by the native core.",
    .tp_methods = secretkey_methods,
    .tp_new = secretkey_new_refused,
};

int p256py_add_secretkey(PyObject *module)
{
    return p256py_add_type(module, "SecretKey", &SecretKey_Type);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_binding.h: what the files of the CPython binding (p256._core) share: argument
 * helpers, the GIL macros, and each file's entry points for module.c.
 *
 *   module.c        the module: functions (verify, point_decode, ...) and PyInit__core
 *   py_secretkey.c  the SecretKey type (the private scalar, held and wiped in C)
 *   py_pubkey.c     the PublicPoint type, the native object of p256.PublicKey
 *   py_batch*.c     the Batch type: the machinery of every *_many call, the engine, and
 *                   each kind's items in a file of its own (py_batch_shared.h lists them)
 *   py_pubtable.c   the PublicTable type behind p256.PublicKey.precompute
 *   py_point.c      the Point type (p256.Point)
 *   py_point_table.c  the PointTable type: several products of one public point
 *   py_group.c      the functions over points: the sums of many multiples, RFC 9380's map
 *   py_scalar.c     the Scalar type (p256.Scalar): integers mod n
 *   py_selftest.c   the known-answer self-test run at import
 *   py_aes.c        AES-CBC for password-encrypted keys
 *
 *   py_args.c       the one normalizer of sign's and verify's arguments
 *
 * The binding reaches the core only through p256.h (and backend.h, for the choice of
 * variant at import); it compiles no core code of its own.
 */
#ifndef P256_PY_BINDING_H
#define P256_PY_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "p256.h"

/* Scalar multiplications take 10-60 us: other Python threads run meanwhile (~0.1 us to switch). */
#define RELEASE_GIL Py_BEGIN_ALLOW_THREADS
#define ACQUIRE_GIL Py_END_ALLOW_THREADS

/* Around the few fields an object changes after construction (a PublicPoint's cached
 * bytes and its table): a per-object critical section where 3.13+ has one, which in the
 * free-threaded build locks the object and in a GIL build is nothing (the GIL is the
 * guard there). docs/development.md, Threads, lists the binding's shared state. */
#if PY_VERSION_HEX >= 0x030D0000
#define P256PY_LOCK(obj) Py_BEGIN_CRITICAL_SECTION(obj)
#define P256PY_UNLOCK Py_END_CRITICAL_SECTION()
#else
#define P256PY_LOCK(obj) {
#define P256PY_UNLOCK }
#endif

/* A read-only view of a bytes-like argument; release it with byteview_release. */
typedef struct {
    Py_buffer view; /* view.obj is NULL for a bytes object (no buffer taken) */
    const uint8_t *buf;
    Py_ssize_t len;
    uint8_t *copy; /* a non-contiguous buffer's bytes in order, or NULL; wiped and freed */
} byteview;

/*
 * 0, or -1 with TypeError naming `what` when obj is not bytes-like (str is not). A
 * contiguous buffer is read in place; a non-contiguous one (a strided memoryview, such as
 * memoryview(b)[::2]) is read as bytes(obj) would read it: its bytes in C order, copied
 * into memory that byteview_release wipes (it may be a private key) and frees. So every
 * entry point takes what bytes() takes, instead of raising BufferError for some views.
 */
static inline int byteview_get(byteview *b, PyObject *obj, const char *what)
{
    b->copy = NULL;
    if (PyBytes_Check(obj)) {
        b->view.obj = NULL;
        b->buf = (const uint8_t *)PyBytes_AS_STRING(obj);
        b->len = PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (PyObject_CheckBuffer(obj) && !PyUnicode_Check(obj)) {
        Py_ssize_t len;
        if (PyObject_GetBuffer(obj, &b->view, PyBUF_SIMPLE) == 0) {
            b->buf = (const uint8_t *)b->view.buf;
            b->len = b->view.len;
            return 0;
        }
        if (!PyErr_ExceptionMatches(PyExc_BufferError))
            return -1;
        PyErr_Clear(); /* not contiguous: copy it */
        if (PyObject_GetBuffer(obj, &b->view, PyBUF_FULL_RO) < 0)
            return -1;
        len = b->view.len;
        b->copy = (uint8_t *)PyMem_Malloc(len > 0 ? (size_t)len : 1);
        if (b->copy == NULL) {
            PyBuffer_Release(&b->view);
            PyErr_NoMemory();
            return -1;
        }
        if (PyBuffer_ToContiguous(b->copy, &b->view, len, 'C') < 0) {
            PyBuffer_Release(&b->view);
            PyMem_Free(b->copy);
            b->copy = NULL;
            return -1;
        }
        /* The view stays held until byteview_release: view.obj == NULL keeps meaning "a
         * bytes object", whose memory outlives the call (py_batch.c relies on it). */
        b->buf = b->copy;
        b->len = len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s must be bytes-like, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

static inline void byteview_release(byteview *b)
{
    if (b->view.obj != NULL)
        PyBuffer_Release(&b->view);
    if (b->copy != NULL) {
        p256_wipe(b->copy, (size_t)b->len);
        PyMem_Free(b->copy);
        b->copy = NULL;
    }
}

/* A flag argument as 0 or 1; -1 with TypeError for anything but True or False. */
static inline int flag_get(PyObject *obj, const char *what)
{
    if (obj == Py_False)
        return 0;
    if (obj == Py_True)
        return 1;
    PyErr_Format(PyExc_TypeError, "%s must be True or False, not %.100s", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
}

/* Messages at least this long are hashed with the GIL released (as hashlib does). */
#define P256PY_HASH_NOGIL 2048

/*
 * out = H(msg) for a P256_NONCE_SHA* id (the one hashing layer of every entry point:
 * the core's SHA-2/SHA-3), *len its size. 0, or -1 with TypeError (msg not bytes-like)
 * or ValueError (an unknown id).
 */
static inline int p256py_digest(uint8_t out[P256_DIGEST_MAX], size_t *len, PyObject *msg,
                                long hash)
{
    byteview m;
    if (hash < P256_NONCE_SHA224 || hash > P256_NONCE_SHA3_512) {
        PyErr_SetString(PyExc_ValueError, "unknown hash id");
        return -1;
    }
    if (byteview_get(&m, msg, "msg") < 0)
        return -1;
    if (m.len >= P256PY_HASH_NOGIL) {
        RELEASE_GIL
        *len = p256_digest((int)hash, m.buf, (size_t)m.len, out);
        ACQUIRE_GIL
    } else {
        *len = p256_digest((int)hash, m.buf, (size_t)m.len, out);
    }
    byteview_release(&m);
    return 0;
}

/*
 * py_args.c: the arguments of a sign or verify call, normalized: hash= (a name; None for a
 * digest of any non-empty length), encoding= ("der" or "raw"), the message (hashed here)
 * or digest (its size checked against the hash's), deterministic= and low_s= (bools).
 * p256py_sig_input_get fills *in, or returns -1 with the documented error of the first
 * argument that is wrong (in that order); then digest[0..digest_len) is what the core
 * signs or verifies, held until p256py_sig_input_release. p256py_sig_args is
 * _core.sig_args, the same for the Python layer.
 */
typedef struct {
    int hash;            /* a message's hash, a P256_NONCE_SHA* id; -1 for hash=None */
    Py_ssize_t size;     /* the hash's digest size; -1 for hash=None */
    int nonce;           /* the RFC 6979 HMAC's hash id (SHA-256 for hash=None) */
    int raw, deterministic, low_s;
    const uint8_t *digest;
    size_t digest_len;
    uint8_t buf[P256_DIGEST_MAX]; /* a message's digest */
    byteview view;                /* a digest argument, while held */
    int held;
} p256py_sig_input;
int p256py_sig_input_get(p256py_sig_input *in, PyObject *data, int is_digest, PyObject *hash,
                         PyObject *encoding, PyObject *deterministic, PyObject *low_s);
void p256py_sig_input_release(p256py_sig_input *in);
PyObject *p256py_sig_args(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
/* The names it knows, made once at import: 0, or -1 with an exception. */
int p256py_args_init(void);

/* For METH_FASTCALL functions: 0, or -1 with TypeError unless nargs == want. */
static inline int check_nargs(Py_ssize_t nargs, Py_ssize_t want, const char *name)
{
    if (nargs != want) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, want, nargs);
        return -1;
    }
    return 0;
}

/* Readies a static type and adds it to the module as `name`; 0 or -1. */
static inline int p256py_add_type(PyObject *module, const char *name, PyTypeObject *type)
{
    if (PyType_Ready(type) < 0)
        return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(module, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

/* py_secretkey.c, py_pubkey.c, py_batch.c, py_pubtable.c: ready the type and add it to
 * the module; 0 or -1. */
int p256py_add_secretkey(PyObject *module);
int p256py_add_point(PyObject *module);
int p256py_add_batch(PyObject *module);
int p256py_add_pubtable(PyObject *module);

/* py_secretkey.c: a new key object of `type` (_core.SecretKey or a subclass:
 * p256.PrivateKey) holding d (a valid key: not checked here) and, unless NULL, its public
 * key pub (a reference stolen, also on failure), or NULL with an exception; the scalar of
 * a key object (it lives as long as the object), or NULL for any other object. */
PyObject *p256py_secretkey_new(PyTypeObject *type, const uint8_t d[32], PyObject *pub);
const uint8_t *p256py_secretkey_get(PyObject *obj);

/* py_pubkey.c: a new key object of `type` (_core.PublicPoint or a subclass: p256.PublicKey)
 * holding *pk, or NULL with an exception. */
PyObject *p256py_point_new(PyTypeObject *type, const p256_pubkey *pk);
/* The p256_pubkey of a key object (it lives as long as the object), or NULL for any other. */
const p256_pubkey *p256py_point_get(PyObject *obj);
/* A key object's PublicTable (a new reference) or NULL; its uncompressed SEC1 bytes (a
 * new reference, NULL with MemoryError). obj must be a key object. */
PyObject *p256py_point_table(PyObject *obj);
PyObject *p256py_point_sec1(PyObject *obj);

/* py_pubtable.c: a new _core.PublicTable of *pk with a window of bits (ValueError outside
 * 4..8), built with the GIL released while owner, the object pk lives in, is held; NULL
 * with an exception. The core table of a PublicTable, or NULL for any other object (the
 * table lives as long as the object); bits: its window (obj must be a PublicTable). */
PyObject *p256py_pubtable_build(PyObject *owner, const p256_pubkey *pk, int bits);
const void *p256py_pubtable_get(PyObject *obj);
int p256py_pubtable_bits(PyObject *obj);

/* py_group.c: the module's functions over the group (sums of multiples, RFC 9380's map),
 * then the Point, PointTable and Scalar types; 0 or -1. */
int p256py_add_group(PyObject *module);

/* py_point.c: adds the Point type (0 or -1); the type. A new point object of `type`
 * (_core.Point or a subclass) holding *p, marked as G when generator is nonzero (k*G then
 * takes the comb), or NULL with an exception; the same, not marked, with *p wiped after
 * (take: the point may be secret); the p256_point of a point object (it lives as long as
 * the object), or NULL for any other object. */
int p256py_add_group_point(PyObject *module);
PyTypeObject *p256py_group_point_type(void);
PyObject *p256py_group_point_new(PyTypeObject *type, const p256_point *p, int generator);
PyObject *p256py_group_point_take(PyTypeObject *type, p256_point *p);
const p256_point *p256py_group_point_get(PyObject *obj);

/* py_point_table.c: adds the PointTable type (0 or -1). */
int p256py_add_point_table(PyObject *module);

/* py_scalar.c: adds the Scalar type; a new scalar object of `type` holding k (below n: not
 * checked here), or NULL with an exception; the 32 bytes of a scalar object (they live as
 * long as the object), or NULL for any other object. */
int p256py_add_scalar(PyObject *module);
PyObject *p256py_scalar_new(PyTypeObject *type, const uint8_t k[32]);
const uint8_t *p256py_scalar_get(PyObject *obj);
/* The TypeError for a Python int where `what` takes a Scalar, saying what to write
 * instead (always NULL). */
PyObject *p256py_int_for_scalar(PyObject *value, const char *what);

/* py_selftest.c: 0 if every known answer is right, else -1 with ImportError set.
 * corrupt (tests only): 1-4 corrupt one expected value, to see the check fail. */
int p256py_selftest_run(int corrupt);
/* _core._selftest(corrupt=0): the same, from Python. */
PyObject *p256py_selftest(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* py_aes.c: _core.aes_cbc(decrypt, key, iv, data, impl) -> bytes (ValueError on bad
 * lengths or an unavailable impl) and _core.aes_impl() -> "aes-ni" | "portable". */
PyObject *p256py_aes_cbc(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *p256py_aes_impl(PyObject *self, PyObject *unused);

#endif /* P256_PY_BINDING_H */

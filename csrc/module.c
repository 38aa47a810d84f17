/* SPDX-License-Identifier: Apache-2.0 */
/*
 * module.c: p256._core, the CPython binding of the core (p256.h): the module's
 * functions and PyInit__core. The types and the self-test have their own files
 * (py_binding.h lists them).
 *
 * The Python layer (src/p256/) does argument policy and error messages; the binding does
 * the work, hashing included, with as little per-call overhead as CPython allows:
 * METH_FASTCALL, bytes in and bytes out, the GIL released while the core computes.
 */
#include "py_binding.h"
#include "backend.h"

/* The project's version, from meson.build's project(version:). */
#ifndef P256_VERSION
#error "P256_VERSION is not defined: meson.build passes -DP256_VERSION=<project version>"
#endif

/* Which compiler built the core (its code generation matters here: see docs/performance.md). */
#if defined(__clang__)
#define P256_COMPILER __VERSION__
#elif defined(__GNUC__)
#define P256_COMPILER "gcc " __VERSION__
#else
#define P256_COMPILER "unknown"
#endif

/* Harness only: 1-4 corrupt one expected value of the import's self-test, to see the
 * import fail (docs/security.md; py_selftest.c). */
#ifndef P256_SELFTEST_CORRUPT
#define P256_SELFTEST_CORRUPT 0
#endif

static PyObject *core_backend(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(p256_backend_name());
}

/* sig_parse(sig, raw) -> 64 bytes r||s with r, s in [1, n-1], or the int reason the core
 * refuses it (P256_SIG_*): the one signature parser, for p256._sig's messages. */
static PyObject *core_sig_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    byteview sig;
    uint8_t rs[64];
    int raw, st;
    (void)self;
    if (check_nargs(nargs, 2, "sig_parse") < 0 || (raw = flag_get(args[1], "raw")) < 0)
        return NULL;
    if (byteview_get(&sig, args[0], "signature") < 0)
        return NULL;
    st = p256_sig_parse(rs, sig.buf, (size_t)sig.len, raw);
    byteview_release(&sig);
    if (st != P256_SIG_OK)
        return PyLong_FromLong(st);
    return PyBytes_FromStringAndSize((const char *)rs, 64);
}

/* sig_encode(rs) -> the minimal DER of a 64-byte r||s (the one DER signature writer). */
static PyObject *core_sig_encode(PyObject *self, PyObject *rs_obj)
{
    byteview rs;
    uint8_t der[72];
    size_t len;
    (void)self;
    if (byteview_get(&rs, rs_obj, "signature") < 0)
        return NULL;
    if (rs.len != 64) {
        byteview_release(&rs);
        PyErr_SetString(PyExc_ValueError, "r||s must be 64 bytes");
        return NULL;
    }
    len = p256_sig_to_der(der, rs.buf);
    byteview_release(&rs);
    return PyBytes_FromStringAndSize((const char *)der, (Py_ssize_t)len);
}

/* digest(hash_id, msg) -> bytes: the core's hash (the one every entry point uses). */
static PyObject *core_digest(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    uint8_t out[P256_DIGEST_MAX];
    size_t len;
    long hash;
    (void)self;
    if (check_nargs(nargs, 2, "digest") < 0)
        return NULL;
    if ((hash = PyLong_AsLong(args[0])) == -1 && PyErr_Occurred())
        return NULL;
    if (p256py_digest(out, &len, args[1], hash) < 0)
        return NULL;
    return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)len);
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

/* scalar_mult(k, point) -> 65-byte k*Q: the point decoded and validated once, into the
 * core's key form, and multiplied in it. */
static PyObject *core_scalar_mult(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    byteview k, q;
    p256_pubkey point, out;
    uint8_t sec1[65];
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
    ok = p256_pubkey_load(&point, q.buf, (size_t)q.len) == P256_POINT_OK;
    byteview_release(&q);
    if (!ok) {
        byteview_release(&k);
        PyErr_SetString(PyExc_ValueError, "invalid SEC1 point");
        return NULL;
    }
    RELEASE_GIL
    ok = p256_pubkey_mult(&out, k.buf, &point);
    ACQUIRE_GIL
    byteview_release(&k);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "scalar is 0 mod n: the result is the point at infinity");
        return NULL;
    }
    p256_pubkey_serialize(sec1, &out, 0);
    return PyBytes_FromStringAndSize((const char *)sec1, 65);
}

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
    {"sig_parse", (PyCFunction)(void (*)(void))core_sig_parse, METH_FASTCALL,
     "sig_parse(sig, raw) -> 64-byte r||s (r, s in [1, n-1]), or the int reason (P256_SIG_*)."},
    {"sig_encode", core_sig_encode, METH_O,
     "sig_encode(rs) -> the minimal DER encoding of a 64-byte r||s."},
    {"digest", (PyCFunction)(void (*)(void))core_digest, METH_FASTCALL,
     "digest(hash_id, msg) -> the message's digest by the core's hash."},
    {"scalar_base_mult", core_scalar_base_mult, METH_O,
     "scalar_base_mult(k32) -> 65-byte k*G."},
    {"scalar_mult", (PyCFunction)(void (*)(void))core_scalar_mult, METH_FASTCALL,
     "scalar_mult(k32, sec1_point) -> 65-byte k*Q."},
    {"_selftest", (PyCFunction)(void (*)(void))p256py_selftest, METH_FASTCALL,
     "_selftest(corrupt=0): the import's known-answer self-test; raises ImportError."},
    {"p256verify", core_p256verify, METH_O,
     "p256verify(160 bytes h||r||s||qx||qy) -> 32-byte 1 or b\"\" (EIP-7951)."},
    {"aes_cbc", (PyCFunction)(void (*)(void))p256py_aes_cbc, METH_FASTCALL,
     "aes_cbc(decrypt, key, iv, data, impl) -> bytes: AES-CBC, no padding (impl 0 auto, "
     "1 portable, 2 AES-NI)."},
    {"aes_impl", p256py_aes_impl, METH_NOARGS, "The AES implementation in use: \"aes-ni\" or \"portable\"."},
    {"sig_args", (PyCFunction)(void (*)(void))p256py_sig_args, METH_FASTCALL,
     "sig_args(data, is_digest, hash, encoding, deterministic=False, low_s=False) -> (hash "
     "id, digest size, RFC 6979 id, raw, deterministic, low_s), or the documented error."},
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

/* The core's reason codes (p256.h), by the name the Python layer uses for each:
 * POINT_* why a SEC1 point is refused, SIG_* why a signature is, RECOVER_* why recovery
 * finds no key (tests/test_structure.py ties each to its #define). */
static const struct {
    const char *name;
    int value;
} core_reasons[] = {
    {"POINT_OK", P256_POINT_OK},
    {"POINT_INFINITY", P256_POINT_INFINITY},
    {"POINT_HYBRID", P256_POINT_HYBRID},
    {"POINT_X_RANGE", P256_POINT_X_RANGE},
    {"POINT_Y_RANGE", P256_POINT_Y_RANGE},
    {"POINT_NOT_ON_CURVE", P256_POINT_NOT_ON_CURVE},
    {"POINT_COMPRESSED_RANGE", P256_POINT_COMPRESSED_RANGE},
    {"POINT_NO_POINT", P256_POINT_NO_POINT},
    {"POINT_ENCODING", P256_POINT_ENCODING},
    {"SIG_OK", P256_SIG_OK},
    {"SIG_RAW_LENGTH", P256_SIG_RAW_LENGTH},
    {"SIG_DER_EMPTY", P256_SIG_DER_EMPTY},
    {"SIG_DER_NOT_SEQUENCE", P256_SIG_DER_NOT_SEQUENCE},
    {"SIG_DER_LENGTH", P256_SIG_DER_LENGTH},
    {"SIG_DER_OVERRUN", P256_SIG_DER_OVERRUN},
    {"SIG_DER_TRAILING", P256_SIG_DER_TRAILING},
    {"SIG_DER_NOT_INTEGER", P256_SIG_DER_NOT_INTEGER},
    {"SIG_DER_INTEGER", P256_SIG_DER_INTEGER},
    {"SIG_DER_EXTRA", P256_SIG_DER_EXTRA},
    {"SIG_R_RANGE", P256_SIG_R_RANGE},
    {"SIG_S_RANGE", P256_SIG_S_RANGE},
    {"RECOVER_OK", P256_RECOVER_OK},
    {"RECOVER_R_PLUS_N", P256_RECOVER_R_PLUS_N},
    {"RECOVER_NO_POINT", P256_RECOVER_NO_POINT},
    {"RECOVER_INFINITY", P256_RECOVER_INFINITY},
    {"RECOVER_UNVERIFIED", P256_RECOVER_UNVERIFIED},
    {"RECOVER_RANGE", P256_RECOVER_RANGE},
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m, *ids;
    /* The field backend, once, before anything runs (backend.c; docs/backends.md). */
    {
        char err[300];
        if (p256_backend_select(err, sizeof err) != 0) {
            PyErr_SetString(PyExc_ImportError, err);
            return NULL;
        }
    }
    if (p256py_selftest_run(P256_SELFTEST_CORRUPT) < 0 || p256py_args_init() < 0)
        return NULL;
    m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    if (p256py_add_secretkey(m) < 0 || p256py_add_point(m) < 0 || p256py_add_batch(m) < 0 ||
        p256py_add_pubtable(m) < 0 || p256py_add_group(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    ids = nonce_hash_ids();
    if (ids == NULL || PyModule_AddObject(m, "NONCE_HASH", ids) < 0) {
        Py_XDECREF(ids);
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < sizeof core_reasons / sizeof core_reasons[0]; i++) {
        if (PyModule_AddIntConstant(m, core_reasons[i].name, core_reasons[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    if (PyModule_AddStringConstant(m, "__version__", P256_VERSION) < 0 ||
        PyModule_AddStringConstant(m, "compiler", P256_COMPILER) < 0 ||
        PyModule_AddIntConstant(m, "NONCE_HEDGED", P256_NONCE_HEDGED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_args.c: the one argument normalizer of every sign and verify entry point: the hash
 * and encoding names, the message or digest, the flags, checked in one order (hash,
 * encoding, the data, deterministic, low_s) with the documented error for the first one
 * that is wrong, and the digest the core signs or verifies. PrivateKey's sign methods
 * (py_secretkey.c), PublicKey's verify methods (py_pubkey.c) and, through
 * _core.sig_args, the Python layer's recovery and batch calls take their arguments here,
 * so the rules and their messages are written once.
 */
#include "py_binding.h"

/* hash= names, sorted as the messages list them, with the core's id and digest size. */
static const struct {
    const char *name;
    int id;
    Py_ssize_t size;
} sig_hashes[] = {
    {"sha224", P256_NONCE_SHA224, 28},     {"sha256", P256_NONCE_SHA256, 32},
    {"sha384", P256_NONCE_SHA384, 48},     {"sha3_256", P256_NONCE_SHA3_256, 32},
    {"sha3_384", P256_NONCE_SHA3_384, 48}, {"sha3_512", P256_NONCE_SHA3_512, 64},
    {"sha512", P256_NONCE_SHA512, 64},
};
#define SIG_N_HASHES (sizeof sig_hashes / sizeof sig_hashes[0])
#define SIG_HASH_NAMES "sha224, sha256, sha384, sha3_256, sha3_384, sha3_512, sha512"

/* The names as interned str objects, made at import: a name written in Python code (a
 * default argument, a literal) is the same object, found by identity before any compare. */
static PyObject *sig_hash_names[SIG_N_HASHES], *sig_encoding_names[2];

int p256py_args_init(void)
{
    for (size_t i = 0; i < SIG_N_HASHES; i++)
        if ((sig_hash_names[i] = PyUnicode_InternFromString(sig_hashes[i].name)) == NULL)
            return -1;
    if ((sig_encoding_names[0] = PyUnicode_InternFromString("der")) == NULL ||
        (sig_encoding_names[1] = PyUnicode_InternFromString("raw")) == NULL)
        return -1;
    return 0;
}

/* The index of hash= in sig_hashes, SIG_N_HASHES for None where a digest allows it, or
 * -1 with its error. */
static int sig_hash(PyObject *hash, int is_digest)
{
    if (hash == Py_None && is_digest)
        return SIG_N_HASHES;
    for (size_t i = 0; i < SIG_N_HASHES; i++)
        if (hash == sig_hash_names[i])
            return (int)i;
    if (!PyUnicode_Check(hash)) {
        PyErr_Format(PyExc_TypeError, "hash must be a str%s, not %.100s",
                     is_digest ? " or None" : "", Py_TYPE(hash)->tp_name);
        return -1;
    }
    for (size_t i = 0; i < SIG_N_HASHES; i++)
        if (PyUnicode_CompareWithASCIIString(hash, sig_hashes[i].name) == 0)
            return (int)i;
    PyErr_Format(PyExc_ValueError, "unknown hash %R; expected one of " SIG_HASH_NAMES, hash);
    return -1;
}

/* encoding= as the core's raw flag, or -1 with its error. */
static int sig_encoding(PyObject *encoding)
{
    if (encoding == sig_encoding_names[0] || encoding == sig_encoding_names[1])
        return encoding == sig_encoding_names[1];
    if (!PyUnicode_Check(encoding)) {
        PyErr_Format(PyExc_TypeError, "encoding must be a str, not %.100s",
                     Py_TYPE(encoding)->tp_name);
        return -1;
    }
    if (PyUnicode_CompareWithASCIIString(encoding, "der") == 0)
        return 0;
    if (PyUnicode_CompareWithASCIIString(encoding, "raw") == 0)
        return 1;
    PyErr_Format(PyExc_ValueError, "unknown encoding %R; expected one of der, raw", encoding);
    return -1;
}

/* The data as a held view, or -1 with the TypeError naming it, with a hint for a str. */
static int sig_data(byteview *view, PyObject *data, int is_digest)
{
    if (!PyUnicode_Check(data) && PyObject_CheckBuffer(data))
        return byteview_get(view, data, is_digest ? "digest" : "msg");
    PyErr_Format(PyExc_TypeError, "%s must be bytes-like (bytes, bytearray, memoryview), not "
                 "%.100s%s", is_digest ? "digest" : "msg", Py_TYPE(data)->tp_name,
                 !PyUnicode_Check(data) ? ""
                 : is_digest ? " (digest is binary: decode its text form first, e.g. "
                               "bytes.fromhex(s) or base64.b64decode(s))"
                             : " (encode text first, e.g. msg.encode())");
    return -1;
}

int p256py_sig_input_get(p256py_sig_input *in, PyObject *data, int is_digest, PyObject *hash,
                         PyObject *encoding, PyObject *deterministic, PyObject *low_s)
{
    int h = sig_hash(hash, is_digest);
    in->view.view.obj = NULL;
    in->view.copy = NULL;
    in->held = 0;
    if (h < 0 || (in->raw = sig_encoding(encoding)) < 0)
        return -1;
    in->hash = h < (int)SIG_N_HASHES ? sig_hashes[h].id : -1;
    in->size = h < (int)SIG_N_HASHES ? sig_hashes[h].size : -1;
    in->nonce = h < (int)SIG_N_HASHES ? sig_hashes[h].id : P256_NONCE_SHA256;
    if (sig_data(&in->view, data, is_digest) < 0)
        return -1;
    in->held = 1;
    if (is_digest && (in->size >= 0 ? in->view.len != in->size : in->view.len == 0)) {
        if (in->view.len == 0 && in->size < 0)
            PyErr_SetString(PyExc_ValueError, "digest must not be empty");
        else
            PyErr_Format(PyExc_ValueError, "digest must be %zd bytes for hash=%R (the size of "
                         "its output), got %zd; name the hash that made it, or use "
                         "sign()/verify() on the message", in->size, hash, in->view.len);
        p256py_sig_input_release(in);
        return -1;
    }
    if ((in->deterministic = flag_get(deterministic, "deterministic")) < 0 ||
        (in->low_s = flag_get(low_s, "low_s")) < 0) {
        p256py_sig_input_release(in);
        return -1;
    }
    if (is_digest) {
        in->digest = in->view.buf;
        in->digest_len = (size_t)in->view.len;
        return 0;
    }
    /* A message: hashed here by the core (with the GIL released for a long one), and the
     * view let go. */
    if (in->view.len >= P256PY_HASH_NOGIL) {
        RELEASE_GIL
        in->digest_len = p256_digest(in->hash, in->view.buf, (size_t)in->view.len, in->buf);
        ACQUIRE_GIL
    } else {
        in->digest_len = p256_digest(in->hash, in->view.buf, (size_t)in->view.len, in->buf);
    }
    in->digest = in->buf;
    p256py_sig_input_release(in);
    return 0;
}

void p256py_sig_input_release(p256py_sig_input *in)
{
    if (in->held) {
        byteview_release(&in->view);
        in->held = 0;
    }
}

/* sig_args(data, is_digest, hash, encoding, deterministic=False, low_s=False) -> (hash id
 * of a message or -1, digest size or -1, RFC 6979 hash id, raw, deterministic, low_s), or
 * the documented error of the first argument that is wrong. */
PyObject *p256py_sig_args(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    p256py_sig_input in;
    int is_digest;
    (void)self;
    if (nargs != 4 && nargs != 6) {
        PyErr_Format(PyExc_TypeError, "sig_args() takes 4 or 6 arguments (%zd given)", nargs);
        return NULL;
    }
    if ((is_digest = flag_get(args[1], "is_digest")) < 0 ||
        p256py_sig_input_get(&in, args[0], is_digest, args[2], args[3],
                             nargs == 6 ? args[4] : Py_False, nargs == 6 ? args[5] : Py_False) < 0)
        return NULL;
    p256py_sig_input_release(&in);
    return Py_BuildValue("(iniNNN)", is_digest ? -1 : in.hash, is_digest ? in.size : (Py_ssize_t)-1,
                         in.nonce, PyBool_FromLong(in.raw), PyBool_FromLong(in.deterministic),
                         PyBool_FromLong(in.low_s));
}

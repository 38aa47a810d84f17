/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_sign.c: the batch kind of sign_many (py_batch_shared.h): (PrivateKey, message) pairs,
 * the key object referenced (its scalar stays in it), a bytes message referenced and any
 * other buffer copied. A group's messages are hashed, then signed by the core's
 * p256_sign_many (constant time, the nonces' k*G eight at a time on the IFMA engine where
 * it runs), each signature byte for byte the single call's.
 */
#include "py_batch_shared.h"

/* OSError text when the OS random generator failed (hedged nonces). */
#define BATCH_RNG_FAILED "the operating system's random generator failed"

typedef struct {
    PyObject *key;    /* the PrivateKey (a reference): its scalar is *d */
    const uint8_t *d;
    batch_bytes msg;
    uint8_t rs[64];   /* the signature made */
    uint8_t ok;       /* the core's: 0 when the OS random generator failed */
} sign_item;

static int sign_check(const batch_params *p)
{
    return batch_known_hash(p->hash, 0) < 0 ? -1 : batch_known_hash(p->nonce, 1);
}

static int sign_take(void *item, PyObject *obj, Py_ssize_t index, const batch_params *p)
{
    sign_item *it = (sign_item *)item;
    PyObject *t, *sk;
    int rc = -1;
    (void)p;
    t = batch_tuple_of(obj, 2, "items", index, "a (PrivateKey, message) pair");
    if (t == NULL)
        return -1;
    sk = PyTuple_GET_ITEM(t, 0);
    if ((it->d = p256py_secretkey_get(sk)) == NULL) {
        PyErr_Format(PyExc_TypeError, "items[%zd][0] must be a PrivateKey, not %.100s", index,
                     Py_TYPE(sk)->tp_name);
        goto out;
    }
    it->key = sk;
    Py_INCREF(sk);
    rc = batch_bytes_take(&it->msg, PyTuple_GET_ITEM(t, 1), "items", index, "message");
out:
    Py_DECREF(t);
    return rc;
}

static int sign_work(void *items, Py_ssize_t count, const batch_params *p, int engine)
{
    sign_item *its = (sign_item *)items;
    p256_sign_item in[BATCH_GROUP_MAX];
    uint8_t ok[BATCH_GROUP_MAX], rs[BATCH_GROUP_MAX * 64];
    uint8_t digest[BATCH_GROUP_MAX][P256_DIGEST_MAX];
    if (count < 1 || count > BATCH_GROUP_MAX) /* never: and gcc then sees in[] written */
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        in[i].d = its[i].d;
        in[i].digest = digest[i];
        in[i].digest_len = p256_digest(p->hash, its[i].msg.buf, its[i].msg.len, digest[i]);
    }
    if (!p256_sign_many(rs, ok, in, (size_t)count, p->nonce, p->low_s, engine))
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        memcpy(its[i].rs, rs + 64 * i, 64);
        its[i].ok = ok[i];
    }
    return 0;
}

/* The signature, DER or r||s; OSError when the OS random generator failed. */
static PyObject *sign_answer(void *item, Py_ssize_t index, const batch_params *p)
{
    sign_item *it = (sign_item *)item;
    uint8_t der[72];
    (void)index;
    if (!it->ok) {
        PyErr_SetString(PyExc_OSError, BATCH_RNG_FAILED);
        return NULL;
    }
    if (p->raw)
        return PyBytes_FromStringAndSize((const char *)it->rs, 64);
    return PyBytes_FromStringAndSize((const char *)der, (Py_ssize_t)p256_sig_to_der(der, it->rs));
}

static void sign_clear(void *item)
{
    sign_item *it = (sign_item *)item;
    Py_CLEAR(it->key);
    batch_bytes_clear(&it->msg);
}

const batch_kind batch_sign_kind = {
    "items", sizeof(sign_item), 2, sign_check, sign_take, sign_work, sign_answer, sign_clear,
};

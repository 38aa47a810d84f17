/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_verify.c: the batch kinds of verify_many and p256verify_many (py_batch_shared.h).
 *
 * verify_many's items are (PublicKey, signature, message) triples: the key object and its
 * table, if it has one, are referenced (a precompute() of another window may replace the
 * key's table meanwhile); the signature's bytes, at most 72, are copied; a bytes message
 * is referenced, any other buffer copied. p256verify_many's items are 160-byte EIP-7951
 * inputs h || r || s || qx || qy, copied; another length is answered b"". A group goes to
 * the core's batch module (p256_batch_verify_vartime: it decodes, hashes, answers
 * malformed items False, uses a precomputed key's table, runs the engine on the rest).
 * Public data only: variable time.
 */
#include "py_batch_shared.h"

typedef struct {
    PyObject *key_obj;   /* the PublicKey (a reference): its point is *key */
    const p256_pubkey *key;
    PyObject *table_obj; /* the key's PublicTable (a reference), or NULL */
    const void *table;   /* its core table, or NULL */
    uint8_t sig[72];     /* the signature as it came */
    uint8_t sig_len;     /* 0 when its length already rules it out */
    batch_bytes msg;
    uint8_t result;
} verify_item;

typedef struct {
    uint8_t pub[65];    /* 04 || qx || qy */
    uint8_t rs[64];     /* r || s */
    uint8_t digest[32]; /* h */
    uint8_t rs_len;     /* 64, or 0 for an input that is not 160 bytes */
    uint8_t result;
} eip7951_item;

static int verify_check(const batch_params *p)
{
    if (p->pk_type == NULL || !PyType_Check(p->pk_type)) {
        PyErr_SetString(PyExc_TypeError, "verify batches need pk_type, the PublicKey class");
        return -1;
    }
    return batch_known_hash(p->hash, 0);
}

static int verify_take(void *item, PyObject *obj, Py_ssize_t index, const batch_params *p)
{
    verify_item *it = (verify_item *)item;
    PyObject *t, *pk;
    byteview sig;
    int rc = -1;

    t = batch_tuple_of(obj, 3, "items", index, "a (PublicKey, signature, message) triple");
    if (t == NULL)
        return -1;
    pk = PyTuple_GET_ITEM(t, 0);
    if (!PyObject_TypeCheck(pk, (PyTypeObject *)p->pk_type) || p256py_point_get(pk) == NULL) {
        PyErr_Format(PyExc_TypeError, "items[%zd][0] must be a PublicKey, not %.100s", index,
                     Py_TYPE(pk)->tp_name);
        goto out;
    }
    it->key_obj = pk;
    Py_INCREF(pk);
    it->key = p256py_point_get(pk);
    it->table_obj = p256py_point_table(pk);
    it->table = p256py_pubtable_get(it->table_obj);

    if (byteview_get(&sig, PyTuple_GET_ITEM(t, 1), "signature") < 0) {
        batch_name_index("items", index);
        goto out;
    }
    if (p->raw ? sig.len == 64 : sig.len <= 72) {
        memcpy(it->sig, sig.buf, (size_t)sig.len);
        it->sig_len = (uint8_t)sig.len;
    }
    byteview_release(&sig);
    rc = batch_bytes_take(&it->msg, PyTuple_GET_ITEM(t, 2), "items", index, "message");
out:
    Py_DECREF(t);
    return rc;
}

static int verify_work(void *items, Py_ssize_t count, const batch_params *p, int engine)
{
    verify_item *its = (verify_item *)items;
    p256_batch_item in[BATCH_GROUP_MAX];
    uint8_t res[BATCH_GROUP_MAX];
    if (count < 1 || count > BATCH_GROUP_MAX) /* never: and gcc then sees in[] written */
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        in[i].key = its[i].key;
        in[i].pub = NULL;
        in[i].pub_len = 0;
        in[i].table = its[i].table;
        in[i].sig = its[i].sig;
        in[i].sig_len = its[i].sig_len;
        in[i].msg = its[i].msg.buf;
        in[i].msg_len = its[i].msg.len;
    }
    if (!p256_batch_verify_vartime(res, in, (size_t)count, p->raw, p->hash, engine))
        return -1;
    for (Py_ssize_t i = 0; i < count; i++)
        its[i].result = res[i];
    return 0;
}

static PyObject *verify_answer(void *item, Py_ssize_t index, const batch_params *p)
{
    (void)index, (void)p;
    return PyBool_FromLong(((verify_item *)item)->result);
}

static void verify_clear(void *item)
{
    verify_item *it = (verify_item *)item;
    Py_CLEAR(it->key_obj);
    Py_CLEAR(it->table_obj);
    batch_bytes_clear(&it->msg);
}

const batch_kind batch_verify_kind = {
    "items", sizeof(verify_item), 3, verify_check, verify_take, verify_work, verify_answer,
    verify_clear,
};

static int eip7951_check(const batch_params *p)
{
    (void)p;
    return 0;
}

/* A bytes-like input of another length than 160 is well formed: its answer is b"". */
static int eip7951_take(void *item, PyObject *obj, Py_ssize_t index, const batch_params *p)
{
    eip7951_item *it = (eip7951_item *)item;
    byteview b;
    (void)p;
    if (byteview_get(&b, obj, "input") < 0) {
        batch_name_index("inputs", index);
        return -1;
    }
    if (b.len == 160) {
        memcpy(it->digest, b.buf, 32);
        memcpy(it->rs, b.buf + 32, 64);
        it->pub[0] = 0x04;
        memcpy(it->pub + 1, b.buf + 96, 64);
        it->rs_len = 64;
    }
    byteview_release(&b);
    return 0;
}

static int eip7951_work(void *items, Py_ssize_t count, const batch_params *p, int engine)
{
    eip7951_item *its = (eip7951_item *)items;
    p256_batch_item in[BATCH_GROUP_MAX];
    uint8_t res[BATCH_GROUP_MAX];
    (void)p;
    if (count < 1 || count > BATCH_GROUP_MAX)
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        in[i].key = NULL;
        in[i].pub = its[i].pub;
        in[i].pub_len = sizeof its[i].pub;
        in[i].table = NULL;
        in[i].sig = its[i].rs;
        in[i].sig_len = its[i].rs_len;
        in[i].msg = its[i].digest;
        in[i].msg_len = sizeof its[i].digest;
    }
    if (!p256_batch_verify_vartime(res, in, (size_t)count, 1, P256_BATCH_PREHASHED, engine))
        return -1;
    for (Py_ssize_t i = 0; i < count; i++)
        its[i].result = res[i];
    return 0;
}

/* EIP-7951's answer: 32-byte 0..01, or b"". */
static PyObject *eip7951_answer(void *item, Py_ssize_t index, const batch_params *p)
{
    static const char one[32] = {[31] = 1};
    int ok = ((eip7951_item *)item)->result;
    (void)index, (void)p;
    return PyBytes_FromStringAndSize(ok ? one : NULL, ok ? 32 : 0);
}

static void eip7951_clear(void *item)
{
    (void)item; /* nothing referenced; the machinery wipes the block */
}

const batch_kind batch_eip7951_kind = {
    "inputs", sizeof(eip7951_item), 0, eip7951_check, eip7951_take, eip7951_work,
    eip7951_answer, eip7951_clear,
};

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_exchange.c: the batch kind of exchange_many (py_batch_shared.h): (PrivateKey,
 * PublicKey) pairs, both objects referenced, and the peer's table if it has one (a
 * precompute() of another window may replace it meanwhile). A group goes to the core's
 * p256_ecdh_many (constant time in every d; over a precomputed peer's table, the comb);
 * each shared secret is the single call's, and is wiped with the item.
 */
#include "py_batch_shared.h"

typedef struct {
    PyObject *key;       /* the PrivateKey (a reference): its scalar is *d */
    const uint8_t *d;
    PyObject *peer;      /* the peer's PublicKey (a reference): its point is *pk */
    const p256_pubkey *pk;
    PyObject *table_obj; /* the peer's PublicTable (a reference), or NULL */
    const void *table;   /* its core table, or NULL */
    uint8_t secret[32];  /* the shared x */
    uint8_t ok;          /* the core's (always 1: both keys were validated) */
} exchange_item;

static int exchange_check(const batch_params *p)
{
    if (p->pk_type == NULL || !PyType_Check(p->pk_type)) {
        PyErr_SetString(PyExc_TypeError, "exchange batches need pk_type, the PublicKey class");
        return -1;
    }
    return 0;
}

static int exchange_take(void *item, PyObject *obj, Py_ssize_t index, const batch_params *p)
{
    exchange_item *it = (exchange_item *)item;
    PyObject *t, *sk, *peer;
    int rc = -1;
    t = batch_tuple_of(obj, 2, "pairs", index, "a (PrivateKey, PublicKey) pair");
    if (t == NULL)
        return -1;
    sk = PyTuple_GET_ITEM(t, 0);
    peer = PyTuple_GET_ITEM(t, 1);
    if ((it->d = p256py_secretkey_get(sk)) == NULL) {
        PyErr_Format(PyExc_TypeError, "pairs[%zd][0] must be a PrivateKey, not %.100s", index,
                     Py_TYPE(sk)->tp_name);
        goto out;
    }
    it->key = sk;
    Py_INCREF(sk);
    if (!PyObject_TypeCheck(peer, (PyTypeObject *)p->pk_type) ||
        (it->pk = p256py_point_get(peer)) == NULL) {
        PyErr_Format(PyExc_TypeError, "pairs[%zd][1] must be a PublicKey, not %.100s", index,
                     Py_TYPE(peer)->tp_name);
        goto out;
    }
    it->peer = peer;
    Py_INCREF(peer);
    it->table_obj = p256py_point_table(peer);
    it->table = p256py_pubtable_get(it->table_obj);
    rc = 0;
out:
    Py_DECREF(t);
    return rc;
}

static int exchange_work(void *items, Py_ssize_t count, const batch_params *p, int engine)
{
    exchange_item *its = (exchange_item *)items;
    p256_ecdh_item in[BATCH_GROUP_MAX];
    uint8_t ok[BATCH_GROUP_MAX], out[BATCH_GROUP_MAX * 32];
    int done;
    (void)p;
    if (count < 1 || count > BATCH_GROUP_MAX) /* never: and gcc then sees in[] written */
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        in[i].d = its[i].d;
        in[i].pk = its[i].pk;
        in[i].table = its[i].table;
    }
    done = p256_ecdh_many(out, ok, in, (size_t)count, engine);
    for (Py_ssize_t i = 0; done && i < count; i++) {
        memcpy(its[i].secret, out + 32 * i, 32);
        its[i].ok = ok[i];
    }
    p256_wipe(out, sizeof out); /* shared secrets */
    return done ? 0 : -1;
}

/* The 32-byte shared secret (only the returned object keeps it once the item is wiped). */
static PyObject *exchange_answer(void *item, Py_ssize_t index, const batch_params *p)
{
    exchange_item *it = (exchange_item *)item;
    (void)p;
    if (!it->ok) { /* unreachable: both keys were validated */
        PyErr_Format(PyExc_ValueError, "pairs[%zd]: invalid key", index);
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)it->secret, 32);
}

static void exchange_clear(void *item)
{
    exchange_item *it = (exchange_item *)item;
    Py_CLEAR(it->key);
    Py_CLEAR(it->peer);
    Py_CLEAR(it->table_obj);
}

const batch_kind batch_exchange_kind = {
    "pairs", sizeof(exchange_item), 2, exchange_check, exchange_take, exchange_work,
    exchange_answer, exchange_clear,
};

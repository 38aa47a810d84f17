/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch.c: p256._core.Batch, behind p256.verify_many and p256.p256verify_many, and the
 * batch engine's name in P256_BATCH.
 *
 * Batch(items, PublicKey, raw, hash_id, offset, group, limit) takes one chunk of the
 * caller's stream (at most `limit` items from an iterator) apart under the GIL: for
 * verify_many, (PublicKey, sig, msg) triples (the key object and its table, if it has
 * one, are referenced; the signature's bytes, at most 72, are copied; a bytes message is
 * referenced, any other buffer copied); for p256verify_many (hash_id == BATCH_EIP7951,
 * PublicKey ignored), 160-byte EIP-7951 inputs h || r || s || qx || qy. A wrong type
 * raises TypeError naming the item's index plus `offset` (its index in the whole
 * stream), before any work on this chunk, and the iterator is left just after it.
 *
 * run() releases the GIL once and verifies until nothing is left; several Python threads
 * may call run() on one batch: each claims `group` items at a time (dynamic balancing: a
 * core slowed by other load takes fewer groups) and hands them to the core's batch
 * module (p256_batch_verify_vartime: it decodes, hashes, answers malformed items False,
 * uses a precomputed key's table, runs the engine chosen at import on the rest).
 * results() gives the answers in input order.
 *
 * The same machinery runs the work with secrets, by `kind` (BATCH_GENERATE, BATCH_BASE_MULT,
 * BATCH_SIGN, BATCH_EXCHANGE; BATCH_VERIFY is the above): items are ignored (generate: a
 * new key each, drawn off the GIL), 32-byte scalars (copied, wiped), (SecretKey, message)
 * pairs or (SecretKey, PublicKey) pairs (the objects referenced), and each claim goes to
 * the core's p256_pubkey_derive_many, p256_sign_many or p256_ecdh_many (constant time, on
 * the same engine). The Python layer hands the native key objects over (the PrivateKey
 * checks are its own); results() gives (SecretKey, PublicKey) pairs, 65-byte points,
 * signatures or shared secrets, and every item is wiped when the answers are made.
 *
 * The engine: P256_BATCH at import ("avx512-ifma", "scalar"; unset or empty: the first
 * that runs here), by the extension's one chooser (backend.h, which also picks the field
 * backend): an unknown or unavailable name is an ImportError listing the valid ones.
 * _core.batch_backend() names it; _core._batch_select(name) changes it (tests);
 * _core.batch_engines() lists those that run here.
 */
#include "py_binding.h"
#include "backend.h"

/* hash_id of an EIP-7951 batch: the 32-byte hash is the digest itself. */
#define BATCH_EIP7951 P256_BATCH_PREHASHED
/* The most objects an item holds: (PublicKey, signature, message). */
#define BATCH_TUPLE_MAX 3
/* The largest claim, in items (the per-claim work space is on the stack). */
#define BATCH_GROUP_MAX 64
/* What a batch does (Batch()'s kind). */
#define BATCH_VERIFY 0
#define BATCH_GENERATE 1
#define BATCH_BASE_MULT 2
#define BATCH_SIGN 3
#define BATCH_EXCHANGE 4

/* OSError text when the OS random generator failed (generate; hedged signatures). */
#define BATCH_RNG_FAILED "the operating system's random generator failed"

/* One item: its kind's fields share their memory (a chunk of a stream holds thousands). */
typedef struct {
    const uint8_t *msg; /* into `keep` (a bytes object) or `copy`; EIP-7951: the hash */
    size_t msg_len;
    PyObject *keep;
    uint8_t *copy;
    PyObject *key_obj;    /* the key (a reference): its p256_pubkey is `key` */
    const p256_pubkey *key;
    PyObject *table_obj;  /* the key's PublicTable (a reference), or NULL; sign, exchange:
                           * the SecretKey (a reference), whose scalar is u.s.d */
    const void *table;    /* its core table: verified with it when not NULL; exchange: the
                           * peer's table (its reference in keep), or NULL */
    union {
        struct {              /* verify */
            uint8_t pub[65];  /* EIP-7951: 04 || qx || qy (key is NULL) */
            uint8_t sig[72];  /* EIP-7951: r || s */
            uint8_t sig_len;  /* 0 when the length already rules it out */
            uint8_t result;   /* the verdict */
        } v;
        struct {              /* the work with secrets */
            const uint8_t *d; /* sign, exchange: the scalar of the SecretKey in table_obj */
            union {
                p256_pubkey point; /* generate, base mult: k*G */
                uint8_t rs[64];    /* sign: the signature r || s made */
            } out;
            uint8_t secret[32]; /* generate, base mult: the scalar; exchange: the shared x */
            uint8_t result;     /* the core's ok */
        } s;
    } u;
} batch_item;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    batch_item *items;
    int raw;
    int hash;                /* a P256_NONCE_SHA* id or BATCH_EIP7951, checked by batch_new */
    int kind;                /* BATCH_VERIFY, ... BATCH_EXCHANGE */
    int nonce;               /* sign: P256_NONCE_HEDGED or the RFC 6979 hash id */
    int low_s;               /* sign: the low-s form */
    Py_ssize_t offset;       /* the index of item 0 in the caller's stream (for messages) */
    PyObject *pk_type;       /* generate: the PublicKey class of the keys made */
    int engine;              /* a P256_BATCH_* engine, the selection when the batch was made */
    int failed;              /* the engine refused a call (cannot happen for a checked engine) */
    Py_ssize_t group;        /* items per claim, 1..BATCH_GROUP_MAX */
    Py_ssize_t next;         /* first unclaimed item */
    Py_ssize_t done;         /* items finished */
    PyThread_type_lock lock; /* guards next, done and failed where there are no atomics */
    PyObject *answers;           /* the list results() made; the items are freed then */
    PyThread_type_lock finished; /* held from creation until done reaches n (a semaphore:
                                  * the thread finishing the last group releases it) */
} BatchObject;

/* Claims are atomic increments: a thread preempted while holding a lock would stall the
 * others (likely on a loaded machine). Without GCC/clang builtins (or with
 * -DP256_BATCH_NO_ATOMICS, to test that path), a PyThread lock. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(P256_BATCH_NO_ATOMICS)
#define BATCH_ATOMICS 1
#endif

/* -- the engine --------------------------------------------------------------------------- */

/* The core's automatic choice is IFMA exactly where IFMA runs (p256.h). */
static int batch_ifma_runs(void)
{
    return strcmp(p256_batch_engine(), "avx512-ifma") == 0;
}

/* The engines in preference order, for the extension's one chooser (backend.h). */
static const p256_choice batch_choices[] = {
    {"avx512-ifma", 1, batch_ifma_runs,
     "AVX512F, AVX512VL, AVX512IFMA with the OS saving zmm registers (or this build lacks "
     "the engine)"},
    {"scalar", 1, NULL, NULL},
};
static const int batch_choice_engines[] = {P256_BATCH_IFMA, P256_BATCH_SCALAR};
#define BATCH_N_ENGINES (sizeof batch_choices / sizeof batch_choices[0])

/* Set at import, under the GIL (and by _batch_select); each Batch copies it when made. */
static int batch_engine = P256_BATCH_SCALAR;

static const char *batch_engine_name(int engine)
{
    for (size_t i = 0; i < BATCH_N_ENGINES; i++)
        if (batch_choice_engines[i] == engine)
            return batch_choices[i].name;
    return "?";
}

/* batch_secret_backend(op) -> "avx512-ifma" | "scalar": what runs the work with secrets
 * of op (P256_BATCH_OP_GEN, P256_BATCH_OP_ECDH) on the engine chosen now. */
static PyObject *batch_secret_backend(PyObject *self, PyObject *arg)
{
    const char *name;
    long op = PyLong_AsLong(arg);
    (void)self;
    if (op == -1 && PyErr_Occurred())
        return NULL;
    name = p256_batch_secret_engine((int)op, batch_engine);
    if (name == NULL) {
        PyErr_SetString(PyExc_ValueError, "unknown batch operation");
        return NULL;
    }
    return PyUnicode_FromString(name);
}

/* batch_backend() -> "avx512-ifma" | "scalar": what verify_many uses now. */
static PyObject *batch_backend(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(batch_engine_name(batch_engine));
}

/* batch_engines() -> tuple of the engine names that run here, preferred first. */
static PyObject *batch_engines_here(PyObject *self, PyObject *unused)
{
    PyObject *names = PyList_New(0), *t;
    (void)self;
    (void)unused;
    if (names == NULL)
        return NULL;
    for (size_t i = 0; i < BATCH_N_ENGINES; i++) {
        PyObject *s;
        if (batch_choices[i].cpu_ok != NULL && !batch_choices[i].cpu_ok())
            continue;
        s = PyUnicode_FromString(batch_choices[i].name);
        if (s == NULL || PyList_Append(names, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(names);
            return NULL;
        }
        Py_DECREF(s);
    }
    t = PyList_AsTuple(names);
    Py_DECREF(names);
    return t;
}

/* _batch_select(name or None): as P256_BATCH at import (None: automatic), for tests;
 * ValueError with the import's message. Batches made before keep their engine. */
static PyObject *batch_select(PyObject *self, PyObject *arg)
{
    char err[300];
    const char *request = NULL;
    int i;
    (void)self;
    if (arg != Py_None && (request = PyUnicode_AsUTF8(arg)) == NULL)
        return NULL;
    i = p256_choose("P256_BATCH", "batch engine", batch_choices, BATCH_N_ENGINES, request, err,
                    sizeof err);
    if (i < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    batch_engine = batch_choice_engines[i];
    Py_RETURN_NONE;
}

/* -- taking items in ---------------------------------------------------------------------- */

static PyTypeObject Batch_Type;

/* Drops the item's references and wipes it (it may hold a scalar or a shared secret). */
static void batch_item_clear(batch_item *it)
{
    Py_CLEAR(it->keep);
    Py_CLEAR(it->key_obj);
    Py_CLEAR(it->table_obj);
    PyMem_Free(it->copy);
    p256_wipe(it, sizeof *it);
}

static void batch_dealloc(BatchObject *self)
{
    if (self->items != NULL) {
        for (Py_ssize_t i = 0; i < self->n; i++)
            batch_item_clear(&self->items[i]);
        PyMem_Free(self->items);
    }
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    Py_XDECREF(self->answers);
    Py_XDECREF(self->pk_type);
    if (self->finished != NULL) /* no one waits: wait() holds a reference */
        PyThread_free_lock(self->finished);
    PyObject_Free(self);
}

/* items[0..cap) moved into a new zeroed block of `more` items, or NULL (items kept). Not
 * PyMem_Realloc: the items may hold scalars, and a block realloc leaves behind is freed
 * without being wiped; here the old block is wiped before it is freed. The items' own
 * pointers (msg into copy, references) move with them unchanged. */
static batch_item *batch_items_grow(batch_item *items, Py_ssize_t cap, Py_ssize_t more)
{
    batch_item *grown = (batch_item *)PyMem_Calloc((size_t)more, sizeof(batch_item));
    if (grown == NULL)
        return NULL;
    memcpy(grown, items, (size_t)cap * sizeof(batch_item));
    p256_wipe(items, (size_t)cap * sizeof(batch_item));
    PyMem_Free(items);
    return grown;
}

/* it->msg = msg[0..len): referenced when obj is a bytes object (immutable, and we hold a
 * reference), else copied; 0, or -1 with MemoryError. */
static int batch_keep(batch_item *it, PyObject *obj, const byteview *b, const uint8_t *msg,
                      size_t len)
{
    if (b->view.obj == NULL) {
        it->keep = obj;
        Py_INCREF(obj);
        it->msg = msg;
    } else {
        it->copy = (uint8_t *)PyMem_Malloc(len > 0 ? len : 1);
        if (it->copy == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(it->copy, msg, len);
        it->msg = it->copy;
    }
    it->msg_len = len;
    return 0;
}

/* Re-raise the pending TypeError as "<what>[index]: <message>". */
static void batch_name_index(const char *what, Py_ssize_t index)
{
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_TypeError, "%s[%zd]: %S", what, index, value);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
}

/* Fill *it from one 160-byte EIP-7951 input; a bytes-like of another length is well
 * formed 0 (answered b""). -1 with TypeError if not bytes-like. */
static int batch_take_eip(batch_item *it, PyObject *obj, Py_ssize_t index)
{
    byteview b;
    int rc = 0;
    if (byteview_get(&b, obj, "input") < 0) {
        batch_name_index("inputs", index);
        return -1;
    }
    if (b.len == 160) {
        it->u.v.pub[0] = 0x04;
        memcpy(it->u.v.pub + 1, b.buf + 96, 64);
        memcpy(it->u.v.sig, b.buf + 32, 64);
        it->u.v.sig_len = 64;
        rc = batch_keep(it, obj, &b, b.buf, 32);
    }
    byteview_release(&b);
    return rc;
}

/* obj's items as a tuple, reading at most size + 1 of them from an iterable that is not a
 * tuple or list (it may be endless: one too many tells it is the wrong size), or NULL with
 * the iterable's own error (TypeError: it is not iterable). */
static PyObject *batch_tuple_bounded(PyObject *obj, Py_ssize_t size)
{
    PyObject *it, *t = NULL, *got[BATCH_TUPLE_MAX + 1];
    Py_ssize_t n = 0;
    if (PyTuple_CheckExact(obj))
        return Py_INCREF(obj), obj;
    if (PyTuple_Check(obj) || PyList_Check(obj))
        return PySequence_Tuple(obj);
    if (size > BATCH_TUPLE_MAX) {
        PyErr_SetString(PyExc_SystemError, "batch item larger than BATCH_TUPLE_MAX");
        return NULL;
    }
    if ((it = PyObject_GetIter(obj)) == NULL)
        return NULL;
    while (n <= size && (got[n] = PyIter_Next(it)) != NULL)
        n++;
    Py_DECREF(it);
    if (!PyErr_Occurred() && (t = PyTuple_New(n)) != NULL) {
        for (Py_ssize_t i = 0; i < n; i++)
            PyTuple_SET_ITEM(t, i, got[i]);
        return t;
    }
    while (n > 0)
        Py_DECREF(got[--n]);
    return NULL;
}

/* items[index] as a tuple of `size` items (a new reference), or NULL with TypeError
 * "items[index] must be <shape>, ..." naming what it is instead (and the size of a tuple or
 * list of another size), or the item's own error if reading it raised another one. */
static PyObject *batch_tuple_of(PyObject *obj, Py_ssize_t size, Py_ssize_t index,
                                const char *shape)
{
    PyObject *t = batch_tuple_bounded(obj, size);
    if (t == NULL && !PyErr_ExceptionMatches(PyExc_TypeError))
        return NULL;
    if (t != NULL && PyTuple_GET_SIZE(t) == size)
        return t;
    PyErr_Clear();
    if (t != NULL && (PyTuple_Check(obj) || PyList_Check(obj)))
        PyErr_Format(PyExc_TypeError, "items[%zd] must be %s, got a %.100s of %zd item%s", index,
                     shape, Py_TYPE(obj)->tp_name, PyTuple_GET_SIZE(t),
                     PyTuple_GET_SIZE(t) == 1 ? "" : "s");
    else
        PyErr_Format(PyExc_TypeError, "items[%zd] must be %s, not %.100s", index, shape,
                     Py_TYPE(obj)->tp_name);
    Py_XDECREF(t);
    return NULL;
}

/* Fill *it from items[index] = (PublicKey, sig, msg); -1 with TypeError if it is not one. */
static int batch_take(batch_item *it, PyObject *triple, Py_ssize_t index, PyObject *pk_type,
                      int raw)
{
    PyObject *t, *pk;
    byteview sig, msg;
    int rc = -1;

    t = batch_tuple_of(triple, 3, index, "a (PublicKey, signature, message) triple");
    if (t == NULL)
        return -1;
    pk = PyTuple_GET_ITEM(t, 0);
    if (!PyObject_TypeCheck(pk, (PyTypeObject *)pk_type) || p256py_point_get(pk) == NULL) {
        PyErr_Format(PyExc_TypeError, "items[%zd][0] must be a PublicKey, not %.100s", index,
                     Py_TYPE(pk)->tp_name);
        goto out;
    }
    /* The key object's own fields: its point and its table, if any (references: a
     * precompute() of another window may replace the key's table meanwhile). */
    it->key_obj = pk;
    Py_INCREF(pk);
    it->key = p256py_point_get(pk);
    it->table_obj = p256py_point_table(pk);
    it->table = p256py_pubtable_get(it->table_obj);

    if (byteview_get(&sig, PyTuple_GET_ITEM(t, 1), "signature") < 0)
        goto bad_buffer;
    if (raw ? sig.len == 64 : sig.len <= 72) {
        memcpy(it->u.v.sig, sig.buf, (size_t)sig.len);
        it->u.v.sig_len = (uint8_t)sig.len;
    }
    byteview_release(&sig);

    if (byteview_get(&msg, PyTuple_GET_ITEM(t, 2), "message") < 0)
        goto bad_buffer;
    rc = batch_keep(it, PyTuple_GET_ITEM(t, 2), &msg, msg.buf, (size_t)msg.len);
    byteview_release(&msg);
    goto out;
bad_buffer:
    batch_name_index("items", index);
out:
    Py_DECREF(t);
    return rc;
}

/* Fill *it from scalars[index]: 32 bytes, copied (TypeError / ValueError naming the index). */
static int batch_take_scalar(batch_item *it, PyObject *obj, Py_ssize_t index)
{
    byteview b;
    if (byteview_get(&b, obj, "scalar") < 0) {
        batch_name_index("scalars", index);
        return -1;
    }
    if (b.len != 32) {
        PyErr_Format(PyExc_ValueError, "scalars[%zd]: scalar must be 32 bytes, got %zd", index,
                     b.len);
        byteview_release(&b);
        return -1;
    }
    memcpy(it->u.s.secret, b.buf, 32);
    byteview_release(&b);
    return 0;
}

/* Fill *it from items[index] = (SecretKey, message) (sign) or (SecretKey, key object of
 * pk_type) (exchange); -1 with TypeError if it is not one. */
static int batch_take_secret_pair(batch_item *it, PyObject *pair, Py_ssize_t index,
                                  PyObject *pk_type, int kind)
{
    PyObject *t, *sk, *second;
    byteview msg;
    int rc = -1;

    t = batch_tuple_of(pair, 2, index, kind == BATCH_SIGN ? "a (PrivateKey, message) pair"
                                                           : "a (PrivateKey, PublicKey) pair");
    if (t == NULL)
        return -1;
    sk = PyTuple_GET_ITEM(t, 0);
    second = PyTuple_GET_ITEM(t, 1);
    if (p256py_secretkey_get(sk) == NULL) {
        PyErr_Format(PyExc_TypeError, "items[%zd][0] must be a PrivateKey, not %.100s", index,
                     Py_TYPE(sk)->tp_name);
        goto out;
    }
    it->table_obj = sk;
    Py_INCREF(sk);
    it->u.s.d = p256py_secretkey_get(sk);
    if (kind == BATCH_EXCHANGE) {
        if (!PyObject_TypeCheck(second, (PyTypeObject *)pk_type) ||
            p256py_point_get(second) == NULL) {
            PyErr_Format(PyExc_TypeError, "items[%zd][1] must be a PublicKey, not %.100s", index,
                         Py_TYPE(second)->tp_name);
            goto out;
        }
        it->key_obj = second;
        Py_INCREF(second);
        it->key = p256py_point_get(second);
        /* a precomputed peer's table (a reference), which the core's ECDH runs over */
        it->keep = p256py_point_table(second);
        it->table = p256py_pubtable_get(it->keep);
        rc = 0;
        goto out;
    }
    if (byteview_get(&msg, second, "message") < 0) {
        batch_name_index("items", index);
        goto out;
    }
    rc = batch_keep(it, second, &msg, msg.buf, (size_t)msg.len);
    byteview_release(&msg);
out:
    Py_DECREF(t);
    return rc;
}

/* A private tuple of the chunk: a list could change under us if an item's __iter__ ran
 * Python code. NULL with TypeError if items is not iterable. */
static PyObject *batch_tuple(PyObject *items, int eip)
{
    PyObject *seq = PySequence_Tuple(items);
    if (seq == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, eip ? "inputs must be an iterable of bytes-like objects, "
                                            "not %.100s"
                                          : "items must be an iterable of (PublicKey, "
                                            "signature, message), not %.100s",
                     Py_TYPE(items)->tp_name);
    }
    return seq;
}

/* Check the kind, PublicKey class, hash id and nonce Batch() and batch_check() take (the
 * hash for verify and sign, the nonce for sign); 0 or -1. */
static int batch_args(PyObject *pk_type, int hash, int kind, int nonce)
{
    const int hashed = kind == BATCH_SIGN || (kind == BATCH_VERIFY && hash != BATCH_EIP7951);
    if (kind < BATCH_VERIFY || kind > BATCH_EXCHANGE) {
        PyErr_SetString(PyExc_ValueError, "unknown batch kind");
        return -1;
    }
    if (!(kind == BATCH_VERIFY && hash == BATCH_EIP7951) && !PyType_Check(pk_type)) {
        PyErr_SetString(PyExc_TypeError, "Batch() needs the PublicKey class");
        return -1;
    }
    if (hashed && (hash < P256_NONCE_SHA224 || hash > P256_NONCE_SHA3_512)) {
        PyErr_SetString(PyExc_ValueError, "unknown hash id");
        return -1;
    }
    if (kind == BATCH_SIGN && nonce != P256_NONCE_HEDGED &&
        (nonce < P256_NONCE_SHA224 || nonce > P256_NONCE_SHA3_512)) {
        PyErr_SetString(PyExc_ValueError, "unknown nonce mode");
        return -1;
    }
    return 0;
}

static int batch_take_any(batch_item *it, PyObject *obj, Py_ssize_t index, PyObject *pk_type,
                          int raw, int hash, int kind)
{
    switch (kind) {
    case BATCH_GENERATE:
        return 0; /* the item itself is not used: a new key is drawn for it */
    case BATCH_BASE_MULT:
        return batch_take_scalar(it, obj, index);
    case BATCH_SIGN:
    case BATCH_EXCHANGE:
        return batch_take_secret_pair(it, obj, index, pk_type, kind);
    default:
        if (hash == BATCH_EIP7951)
            return batch_take_eip(it, obj, index);
        return batch_take(it, obj, index, pk_type, raw);
    }
}

/* Items of this kind are tuples (or lists) of objects, which batch_check looks into. */
static int batch_kind_has_tuples(int kind, int hash)
{
    return kind == BATCH_SIGN || kind == BATCH_EXCHANGE ||
           (kind == BATCH_VERIFY && hash != BATCH_EIP7951);
}

/* batch_check(seq, PublicKey, raw, hash_id, kind=0): the error Batch() would raise for any
 * item of a list or tuple, keeping nothing (verify_many checks a sequence whole before
 * verifying any of it); a triple that is an iterable other than a tuple or list is left to
 * Batch(). Indexed afresh each time: an item's __iter__ may change a list. */
static PyObject *batch_check(PyObject *self, PyObject *args)
{
    PyObject *seq, *pk_type, *item;
    int raw, hash, rc, kind = BATCH_VERIFY;
    batch_item scratch;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOpi|i:batch_check", &seq, &pk_type, &raw, &hash, &kind) ||
        batch_args(pk_type, hash, kind, P256_NONCE_HEDGED) < 0)
        return NULL;
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "batch_check() takes a list or tuple");
        return NULL;
    }
    memset(&scratch, 0, sizeof scratch);
    for (Py_ssize_t i = 0; i < PySequence_Size(seq); i++) {
        if ((item = PySequence_GetItem(seq, i)) == NULL)
            return NULL;
        if (batch_kind_has_tuples(kind, hash) && !PyTuple_Check(item) && !PyList_Check(item)) {
            /* another iterable may be one-shot (an iterator): checking it would use it up,
             * so it is checked when its chunk takes it; a non-iterable fails here */
            PyObject *probe = PyObject_GetIter(item);
            PyErr_Clear();
            if (probe != NULL) {
                Py_DECREF(probe);
                Py_DECREF(item);
                continue;
            }
        }
        rc = batch_take_any(&scratch, item, i, pk_type, raw, hash, kind);
        Py_DECREF(item);
        batch_item_clear(&scratch);
        if (rc < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* Batch(items, PublicKey, raw, hash_id, offset=0, group=8, limit=-1, kind=BATCH_VERIFY,
 * nonce=NONCE_HEDGED, low_s=False): limit < 0 takes all of items (any iterable, copied to
 * a private tuple first); limit >= 0 takes the next `limit` items (or fewer, at its end)
 * from items, an iterator, one at a time: a wrong item stops it there, and nothing of the
 * stream is held beyond this chunk. raw: signatures in r||s (verify, sign). */
static PyObject *batch_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *items, *pk_type, *seq = NULL, *item;
    int raw, hash, kind = BATCH_VERIFY, nonce = P256_NONCE_HEDGED, low_s = 0;
    Py_ssize_t n, cap, offset = 0, group = 8, limit = -1;
    BatchObject *self;
    (void)type;

    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Batch() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOpi|nnniip:Batch", &items, &pk_type, &raw, &hash, &offset,
                          &group, &limit, &kind, &nonce, &low_s) ||
        batch_args(pk_type, hash, kind, nonce) < 0)
        return NULL;
    if (offset < 0 || group < 1 || group > BATCH_GROUP_MAX) {
        PyErr_Format(PyExc_ValueError, "Batch(): offset >= 0 and group in 1..%d",
                     BATCH_GROUP_MAX);
        return NULL;
    }
    if (limit < 0) {
        if ((seq = batch_tuple(items, kind == BATCH_VERIFY && hash == BATCH_EIP7951)) == NULL)
            return NULL;
        cap = PyTuple_GET_SIZE(seq);
    } else if (!PyIter_Check(items)) {
        PyErr_SetString(PyExc_TypeError, "Batch() with a limit takes an iterator");
        return NULL;
    } else {
        cap = limit < 64 ? limit : 64; /* grows by doubling: a short stream stays small */
    }
    self = PyObject_New(BatchObject, &Batch_Type);
    if (self == NULL) {
        Py_XDECREF(seq);
        return NULL;
    }
    self->n = 0; /* items live up to n: dealloc frees only those */
    self->raw = raw || hash == BATCH_EIP7951;
    self->hash = hash;
    self->kind = kind;
    self->nonce = nonce;
    self->low_s = low_s;
    self->offset = offset;
    self->pk_type = kind == BATCH_GENERATE ? (Py_INCREF(pk_type), pk_type) : NULL;
    self->engine = batch_engine;
    self->failed = 0;
    self->group = group;
    self->next = self->done = 0;
    self->lock = NULL;
    self->finished = NULL;
    self->answers = NULL;
    self->items = (batch_item *)PyMem_Calloc(cap > 0 ? (size_t)cap : 1, sizeof(batch_item));
#ifndef BATCH_ATOMICS
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL)
        self->items = (PyMem_Free(self->items), NULL);
#endif
    if (self->items == NULL || (self->finished = PyThread_allocate_lock()) == NULL)
        goto nomem;
    PyThread_acquire_lock(self->finished, WAIT_LOCK); /* free: never waits */
    for (n = 0; seq != NULL ? n < cap : n < limit; n++) {
        int rc;
        if (seq != NULL) {
            item = PyTuple_GET_ITEM(seq, n);
            Py_INCREF(item);
        } else if ((item = PyIter_Next(items)) == NULL) {
            if (PyErr_Occurred())
                goto fail;
            break;
        }
        if (n == cap) {
            Py_ssize_t more = cap * 2 < limit ? cap * 2 : limit;
            batch_item *grown = batch_items_grow(self->items, cap, more);
            if (grown == NULL) {
                Py_DECREF(item);
                goto nomem;
            }
            self->items = grown;
            cap = more;
        }
        self->n = n + 1;
        rc = batch_take_any(&self->items[n], item, offset + n, pk_type, raw, hash, kind);
        Py_DECREF(item);
        if (rc < 0)
            goto fail;
    }
    Py_XDECREF(seq);
    if (self->n == 0)
        PyThread_release_lock(self->finished);
    return (PyObject *)self;
nomem:
    PyErr_NoMemory();
fail:
    Py_XDECREF(seq);
    Py_DECREF(self);
    return NULL;
}

/* -- verifying, without the GIL ----------------------------------------------------------- */

/* items[0..count), 1 <= count <= BATCH_GROUP_MAX (batch_claim's groups): the core's batch
 * module verifies them (it decodes, hashes, chooses a key's table or the engine). 0, or -1
 * if the engine refused. */
static int batch_verify_group(batch_item *items, Py_ssize_t count, int raw, int hash, int engine)
{
    p256_batch_item in[BATCH_GROUP_MAX];
    uint8_t res[BATCH_GROUP_MAX];
    if (count < 1 || count > BATCH_GROUP_MAX) /* never: and gcc then sees in[] written */
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        const batch_item *it = &items[i];
        in[i].key = it->key;
        in[i].pub = it->u.v.pub;
        in[i].pub_len = sizeof it->u.v.pub;
        in[i].table = it->table;
        in[i].sig = it->u.v.sig;
        in[i].sig_len = it->u.v.sig_len;
        in[i].msg = it->msg;
        in[i].msg_len = it->msg_len;
    }
    if (!p256_batch_verify_vartime(res, in, (size_t)count, raw, hash, engine))
        return -1;
    for (Py_ssize_t i = 0; i < count; i++)
        items[i].u.v.result = res[i];
    return 0;
}

/* items[0..count) of a batch with secrets, 1 <= count <= BATCH_GROUP_MAX: the core's
 * constant-time *_many functions, with the messages hashed first (sign). 0, or -1 if the
 * engine refused. */
static int batch_secret_group(batch_item *items, Py_ssize_t count, const BatchObject *b)
{
    p256_pubkey points[BATCH_GROUP_MAX];
    const uint8_t *k[BATCH_GROUP_MAX];
    uint8_t ok[BATCH_GROUP_MAX], out[BATCH_GROUP_MAX * 64];
    uint8_t digest[BATCH_GROUP_MAX][P256_DIGEST_MAX];
    p256_sign_item sign[BATCH_GROUP_MAX];
    p256_ecdh_item ecdh[BATCH_GROUP_MAX];
    int done = 0;
    Py_ssize_t i;

    if (count < 1 || count > BATCH_GROUP_MAX) /* never: and gcc then sees the items written */
        return -1;

    switch (b->kind) {
    case BATCH_GENERATE:
    case BATCH_BASE_MULT:
        for (i = 0; i < count; i++) {
            /* a failed RNG leaves a zero scalar, which derive_many refuses */
            if (b->kind == BATCH_GENERATE)
                (void)p256_seckey_generate(items[i].u.s.secret);
            k[i] = items[i].u.s.secret;
        }
        done = p256_pubkey_derive_many(points, ok, k, (size_t)count, b->kind == BATCH_BASE_MULT,
                                       b->engine);
        for (i = 0; done && i < count; i++)
            items[i].u.s.out.point = points[i];
        break;
    case BATCH_SIGN:
        for (i = 0; i < count; i++) {
            sign[i].d = items[i].u.s.d;
            sign[i].digest = digest[i];
            sign[i].digest_len = p256_digest(b->hash, items[i].msg, items[i].msg_len, digest[i]);
        }
        done = p256_sign_many(out, ok, sign, (size_t)count, b->nonce, b->low_s, b->engine);
        for (i = 0; done && i < count; i++)
            memcpy(items[i].u.s.out.rs, out + 64 * i, 64);
        break;
    default: /* BATCH_EXCHANGE */
        for (i = 0; i < count; i++) {
            ecdh[i].d = items[i].u.s.d;
            ecdh[i].pk = items[i].key;
            ecdh[i].table = items[i].table;
        }
        done = p256_ecdh_many(out, ok, ecdh, (size_t)count, b->engine);
        for (i = 0; done && i < count; i++)
            memcpy(items[i].u.s.secret, out + 32 * i, 32);
        break;
    }
    for (i = 0; done && i < count; i++)
        items[i].u.s.result = ok[i];
    p256_wipe(out, sizeof out); /* shared secrets */
    return done ? 0 : -1;
}

/* Claim the next group (*count items from the returned index; -1 when none is left),
 * reporting `finished` items of the previous one as done. */
static Py_ssize_t batch_claim(BatchObject *self, Py_ssize_t finished, int failed,
                              Py_ssize_t *count)
{
    Py_ssize_t i = -1, g;
#ifdef BATCH_ATOMICS
    if (failed)
        __atomic_store_n(&self->failed, 1, __ATOMIC_RELAXED);
    /* release: the results are written before they count as done; the one that makes
     * done reach n lets wait() through */
    if (finished && __atomic_add_fetch(&self->done, finished, __ATOMIC_ACQ_REL) == self->n)
        PyThread_release_lock(self->finished);
    /* passes n by up to a group per thread: claims are disjoint, and n + threads * group
     * stays far below PY_SSIZE_T_MAX */
    g = __atomic_load_n(&self->group, __ATOMIC_RELAXED);
    i = __atomic_fetch_add(&self->next, g, __ATOMIC_RELAXED);
    if (i >= self->n)
        i = -1;
#else
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    self->failed |= failed;
    self->done += finished;
    if (finished && self->done == self->n)
        PyThread_release_lock(self->finished);
    g = self->group;
    if (self->next < self->n) {
        i = self->next;
        self->next += g;
    }
    PyThread_release_lock(self->lock);
#endif
    if (i >= 0)
        *count = self->n - i < g ? self->n - i : g;
    return i;
}

/* Block (without the GIL) until every item is done; whether the engine ever refused. */
static int batch_wait(BatchObject *self)
{
    int failed;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->finished, WAIT_LOCK);
    PyThread_release_lock(self->finished); /* stays open for any later wait */
    Py_END_ALLOW_THREADS
#ifdef BATCH_ATOMICS
    failed = __atomic_load_n(&self->failed, __ATOMIC_ACQUIRE);
#else
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    failed = self->failed;
    PyThread_release_lock(self->lock);
#endif
    return failed;
}

static PyObject *batch_run(BatchObject *self, PyObject *unused)
{
    Py_ssize_t count = 0, i;
    int failed = 0;
    (void)unused;
    Py_INCREF(self); /* stays alive while the GIL is released, whoever holds it */
    RELEASE_GIL
    i = batch_claim(self, 0, 0, &count);
    while (i >= 0) {
        if (self->kind == BATCH_VERIFY)
            failed = batch_verify_group(&self->items[i], count, self->raw, self->hash,
                                        self->engine) < 0;
        else
            failed = batch_secret_group(&self->items[i], count, self) < 0;
        i = batch_claim(self, count, failed, &count);
    }
    ACQUIRE_GIL
    Py_DECREF(self);
    Py_RETURN_NONE;
}

/* The answer of one finished item of a batch with secrets (a new reference), or NULL with
 * the error a failed item means: OSError (the OS RNG), ValueError (a scalar 0 mod n). */
static PyObject *batch_secret_answer(const BatchObject *self, const batch_item *it,
                                     Py_ssize_t index)
{
    uint8_t buf[72];
    if (!it->u.s.result) {
        if (self->kind == BATCH_BASE_MULT)
            PyErr_Format(PyExc_ValueError, "scalars[%zd]: scalar is 0 mod n: the result is the "
                         "point at infinity", self->offset + index);
        else if (self->kind == BATCH_EXCHANGE) /* unreachable: both keys were validated */
            PyErr_Format(PyExc_ValueError, "items[%zd]: invalid key", self->offset + index);
        else
            PyErr_SetString(PyExc_OSError, BATCH_RNG_FAILED);
        return NULL;
    }
    switch (self->kind) {
    case BATCH_GENERATE: {
        PyObject *sk = p256py_secretkey_new(it->u.s.secret), *pk;
        if (sk == NULL)
            return NULL;
        if ((pk = p256py_point_new((PyTypeObject *)self->pk_type, &it->u.s.out.point)) == NULL) {
            Py_DECREF(sk);
            return NULL;
        }
        return Py_BuildValue("(NN)", sk, pk);
    }
    case BATCH_BASE_MULT:
        p256_pubkey_serialize(buf, &it->u.s.out.point, 0);
        return PyBytes_FromStringAndSize((const char *)buf, 65);
    case BATCH_SIGN:
        if (self->raw)
            return PyBytes_FromStringAndSize((const char *)it->u.s.out.rs, 64);
        return PyBytes_FromStringAndSize((const char *)buf,
                                         (Py_ssize_t)p256_sig_to_der(buf, it->u.s.out.rs));
    default:
        return PyBytes_FromStringAndSize((const char *)it->u.s.secret, 32);
    }
}

static PyObject *batch_results(BatchObject *self, PyObject *unused)
{
    static const char one[32] = {[31] = 1};
    PyObject *list, *r, *yes, *no;
    if (self->answers != NULL)
        return PyList_GetSlice(self->answers, 0, self->n);
    r = batch_run(self, unused); /* whatever is still unclaimed, on this thread */
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    if (batch_wait(self)) { /* the groups other threads still verify */
        PyErr_Format(PyExc_RuntimeError, "the %s batch engine refused to run",
                     batch_engine_name(self->engine));
        return NULL;
    }
    if (self->kind != BATCH_VERIFY) {
        list = PyList_New(self->n);
        for (Py_ssize_t i = 0; list != NULL && i < self->n; i++) {
            PyObject *a = batch_secret_answer(self, &self->items[i], i);
            if (a == NULL)
                Py_CLEAR(list);
            else
                PyList_SET_ITEM(list, i, a);
        }
        goto made;
    }
    if (self->hash == BATCH_EIP7951) { /* EIP-7951: 32-byte 1, or b"" */
        yes = PyBytes_FromStringAndSize(one, 32);
        no = PyBytes_FromStringAndSize(NULL, 0);
    } else {
        yes = (Py_INCREF(Py_True), Py_True);
        no = (Py_INCREF(Py_False), Py_False);
    }
    list = yes != NULL && no != NULL ? PyList_New(self->n) : NULL;
    for (Py_ssize_t i = 0; list != NULL && i < self->n; i++) {
        PyObject *b = self->items[i].u.v.result ? yes : no;
        Py_INCREF(b);
        PyList_SET_ITEM(list, i, b);
    }
    Py_XDECREF(yes);
    Py_XDECREF(no);
made:
    if (list == NULL)
        return NULL;
    /* Every item is claimed and done: no run() reads them again. Free them now, so that
     * a batch still referenced (by a helper thread scheduled late) holds only this list. */
    for (Py_ssize_t i = 0; i < self->n; i++)
        batch_item_clear(&self->items[i]);
    PyMem_Free(self->items);
    self->items = NULL;
    self->answers = list;
    return PyList_GetSlice(list, 0, self->n);
}

static Py_ssize_t batch_len(BatchObject *self)
{
    return self->n;
}

static PyMethodDef batch_methods[] = {
    {"run", (PyCFunction)batch_run, METH_NOARGS,
     "Verify unclaimed items with the GIL released until none is left (thread-safe)."},
    {"results", (PyCFunction)batch_results, METH_NOARGS,
     "Verify any unclaimed items, wait for those other threads verify, then the answers in "
     "input order (bools; EIP-7951: bytes)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *batch_get_group(BatchObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromSsize_t(self->group);
}

/* Set before run(): claims in flight keep the size they were made with (still disjoint). */
static int batch_set_group(BatchObject *self, PyObject *value, void *closure)
{
    Py_ssize_t g;
    (void)closure;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete group");
        return -1;
    }
    g = PyLong_AsSsize_t(value);
    if (g == -1 && PyErr_Occurred())
        return -1;
    if (g < 1 || g > BATCH_GROUP_MAX) {
        PyErr_Format(PyExc_ValueError, "group must be in 1..%d", BATCH_GROUP_MAX);
        return -1;
    }
#ifdef BATCH_ATOMICS
    __atomic_store_n(&self->group, g, __ATOMIC_RELAXED);
#else
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    self->group = g;
    PyThread_release_lock(self->lock);
#endif
    return 0;
}

static PyGetSetDef batch_getset[] = {
    {"group", (getter)batch_get_group, (setter)batch_set_group,
     "Items a thread claims at a time (1..BATCH_GROUP_MAX).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods batch_as_sequence = {
    .sq_length = (lenfunc)batch_len,
};

static PyTypeObject Batch_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "p256._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(items, PublicKey, raw, hash_id, offset=0, group=8, limit=-1, kind=0, "
              "nonce=-1, low_s=False): signatures to verify, or the work with secrets of kind, "
              "off the GIL.",
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
    .tp_as_sequence = &batch_as_sequence,
    .tp_new = batch_new,
};

static PyMethodDef batch_functions[] = {
    {"batch_backend", batch_backend, METH_NOARGS,
     "The batch engine verify_many uses: \"avx512-ifma\" or \"scalar\"."},
    {"batch_secret_backend", batch_secret_backend, METH_O,
     "batch_secret_backend(op): the engine of the work with secrets of op (BATCH_OP_GEN, "
     "BATCH_OP_ECDH)."},
    {"batch_engines", batch_engines_here, METH_NOARGS,
     "The batch engines that run here, preferred first."},
    {"_batch_select", batch_select, METH_O,
     "_batch_select(name or None): choose the engine as P256_BATCH does (tests)."},
    {"batch_check", batch_check, METH_VARARGS,
     "batch_check(items, PublicKey, raw, hash_id, kind=0): Batch()'s error, keeping nothing."},
    {NULL, NULL, 0, NULL},
};

/* The engine from P256_BATCH (ImportError if it is not one that runs here), then the type
 * and the functions. */
int p256py_add_batch(PyObject *module)
{
    char err[300];
    int i = p256_choose_env("P256_BATCH", "batch engine", batch_choices, BATCH_N_ENGINES, err,
                            sizeof err);
    if (i < 0) {
        PyErr_SetString(PyExc_ImportError, err);
        return -1;
    }
    batch_engine = batch_choice_engines[i];
    if (PyModule_AddFunctions(module, batch_functions) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_EIP7951", BATCH_EIP7951) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_GROUP_MAX", BATCH_GROUP_MAX) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_VERIFY", BATCH_VERIFY) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_GENERATE", BATCH_GENERATE) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_BASE_MULT", BATCH_BASE_MULT) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_SIGN", BATCH_SIGN) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_EXCHANGE", BATCH_EXCHANGE) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_OP_GEN", P256_BATCH_OP_GEN) < 0 ||
        PyModule_AddIntConstant(module, "BATCH_OP_ECDH", P256_BATCH_OP_ECDH) < 0)
        return -1;
    return p256py_add_type(module, "Batch", &Batch_Type);
}

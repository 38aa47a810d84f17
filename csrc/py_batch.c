/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch.c: p256._core.Batch, behind p256.verify_many.
 *
 * Batch(items, PublicKey, raw, hash_id) takes every (PublicKey, sig, msg) triple apart
 * under the GIL: the key's 65 bytes and the signature's bytes (at most 72) are copied,
 * a precomputed key's table (PublicKey._t, a _core.PublicTable) is referenced,
 * a message is referenced when it is a bytes object (immutable, and we hold a
 * reference) and copied otherwise. Any wrong type raises TypeError here, before any
 * work. run() then releases the GIL once and verifies items until none is left; several
 * Python threads may call run() on the same batch at once: they claim items one at a
 * time (dynamic balancing, so a core slowed by other load just takes fewer items), and
 * each item is hashed (the core's p256_digest), DER-decoded and verified without the
 * GIL. results() gives the list of bools in input order.
 */
#include "py_binding.h"

typedef struct {
    const uint8_t *msg; /* into `keep` (a bytes object) or `copy` */
    size_t msg_len;
    PyObject *keep;
    uint8_t *copy;
    PyObject *table_obj;  /* the key's PublicTable (a reference), or NULL */
    const void *table;    /* its core table: verified with it when not NULL */
    uint8_t pub[65];
    uint8_t sig[72];
    uint8_t sig_len;
    uint8_t well_formed; /* 0: the signature's length already rules it out */
    uint8_t result;
} batch_item;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    batch_item *items;
    int raw;
    int hash;                /* a P256_NONCE_SHA* id, checked by batch_new */
    Py_ssize_t next;         /* first unclaimed item */
    Py_ssize_t done;         /* items finished */
    PyThread_type_lock lock; /* guards next and done where there are no atomics */
} BatchObject;

/* Claims are atomic increments: a thread preempted while holding a lock would stall the
 * others (likely on a loaded machine). Without GCC/clang builtins (or with
 * -DP256_BATCH_NO_ATOMICS, to test that path), a PyThread lock. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(P256_BATCH_NO_ATOMICS)
#define BATCH_ATOMICS 1
#endif

static PyTypeObject Batch_Type;

static void batch_dealloc(BatchObject *self)
{
    if (self->items != NULL) {
        for (Py_ssize_t i = 0; i < self->n; i++) {
            Py_XDECREF(self->items[i].keep);
            Py_XDECREF(self->items[i].table_obj);
            PyMem_Free(self->items[i].copy);
        }
        PyMem_Free(self->items);
    }
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    PyObject_Free(self);
}

/* Fill *it from items[index] = (PublicKey, sig, msg); -1 with TypeError if it is not one. */
static int batch_take(batch_item *it, PyObject *triple, Py_ssize_t index, PyObject *pk_type,
                      int raw)
{
    static PyObject *name_b = NULL; /* interned "_b", the PublicKey's uncompressed SEC1 */
    static PyObject *name_t = NULL; /* interned "_t", its PublicTable or None */
    PyObject *t, *pk, *pub, *tab;
    byteview sig, msg;
    int rc = -1;

    if (name_b == NULL && (name_b = PyUnicode_InternFromString("_b")) == NULL)
        return -1;
    if (name_t == NULL && (name_t = PyUnicode_InternFromString("_t")) == NULL)
        return -1;
    t = PyTuple_CheckExact(triple) ? (Py_INCREF(triple), triple) : PySequence_Tuple(triple);
    if (t == NULL && !PyErr_ExceptionMatches(PyExc_TypeError))
        return -1;
    if (t == NULL || PyTuple_GET_SIZE(t) != 3) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "items[%zd] must be a (PublicKey, signature, message) triple, not %.100s",
                     index, Py_TYPE(triple)->tp_name);
        Py_XDECREF(t);
        return -1;
    }
    pk = PyTuple_GET_ITEM(t, 0);
    if (!PyObject_TypeCheck(pk, (PyTypeObject *)pk_type)) {
        PyErr_Format(PyExc_TypeError, "items[%zd][0] must be a PublicKey, not %.100s", index,
                     Py_TYPE(pk)->tp_name);
        goto out;
    }
    pub = PyObject_GetAttr(pk, name_b);
    if (pub == NULL)
        goto out;
    if (!PyBytes_CheckExact(pub) || PyBytes_GET_SIZE(pub) != 65) {
        Py_DECREF(pub);
        PyErr_Format(PyExc_TypeError, "items[%zd][0] is a corrupted PublicKey", index);
        goto out;
    }
    memcpy(it->pub, PyBytes_AS_STRING(pub), 65);
    Py_DECREF(pub);
    tab = PyObject_GetAttr(pk, name_t); /* None, or a table built for exactly this _b */
    if (tab == NULL)
        goto out;
    it->table = p256py_pubtable_get(tab);
    if (it->table != NULL)
        it->table_obj = tab;
    else
        Py_DECREF(tab);

    if (byteview_get(&sig, PyTuple_GET_ITEM(t, 1), "signature") < 0)
        goto bad_buffer;
    it->well_formed = raw ? sig.len == 64 : sig.len <= 72;
    if (it->well_formed) {
        memcpy(it->sig, sig.buf, (size_t)sig.len);
        it->sig_len = (uint8_t)sig.len;
    }
    byteview_release(&sig);

    if (byteview_get(&msg, PyTuple_GET_ITEM(t, 2), "message") < 0)
        goto bad_buffer;
    if (msg.view.obj == NULL) { /* a bytes object: immutable, keep a reference */
        it->keep = PyTuple_GET_ITEM(t, 2);
        Py_INCREF(it->keep);
        it->msg = msg.buf;
    } else { /* a mutable or foreign buffer: copy it */
        it->copy = (uint8_t *)PyMem_Malloc(msg.len > 0 ? (size_t)msg.len : 1);
        if (it->copy == NULL) {
            byteview_release(&msg);
            PyErr_NoMemory();
            goto out;
        }
        memcpy(it->copy, msg.buf, (size_t)msg.len);
        it->msg = it->copy;
    }
    it->msg_len = (size_t)msg.len;
    byteview_release(&msg);
    rc = 0;
    goto out;
bad_buffer:
    if (PyErr_ExceptionMatches(PyExc_TypeError)) { /* say which item */
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_TypeError, "items[%zd]: %S", index, value);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
    }
out:
    Py_DECREF(t);
    return rc;
}

static PyObject *batch_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *items, *pk_type, *seq;
    int raw, hash;
    BatchObject *self;
    Py_ssize_t n;
    (void)type;

    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) != 0) {
        PyErr_SetString(PyExc_TypeError, "Batch() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOpi:Batch", &items, &pk_type, &raw, &hash))
        return NULL;
    if (!PyType_Check(pk_type)) {
        PyErr_SetString(PyExc_TypeError, "Batch() needs the PublicKey class");
        return NULL;
    }
    if (hash < P256_NONCE_SHA224 || hash > P256_NONCE_SHA3_512) {
        PyErr_SetString(PyExc_ValueError, "unknown hash id");
        return NULL;
    }
    /* A private tuple: a list could change under us if a triple's __iter__ ran Python code. */
    seq = PySequence_Tuple(items);
    if (seq == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "items must be an iterable of (PublicKey, signature, message), not %.100s",
                         Py_TYPE(items)->tp_name);
        }
        return NULL;
    }
    n = PyTuple_GET_SIZE(seq);
    self = PyObject_New(BatchObject, &Batch_Type);
    if (self == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    self->n = 0; /* items live up to n: dealloc frees only those */
    self->raw = raw;
    self->hash = hash;
    self->next = self->done = 0;
    self->lock = NULL;
    self->items = (batch_item *)PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof(batch_item));
#ifndef BATCH_ATOMICS
    self->lock = PyThread_allocate_lock();
    if (self->lock == NULL)
        self->items = (PyMem_Free(self->items), NULL);
#endif
    if (self->items == NULL) {
        Py_DECREF(seq);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        self->n = i + 1;
        if (batch_take(&self->items[i], PyTuple_GET_ITEM(seq, i), i, pk_type, raw) < 0) {
            Py_DECREF(seq);
            Py_DECREF(self);
            return NULL;
        }
    }
    Py_DECREF(seq);
    return (PyObject *)self;
}

/* One item, without the GIL: decode, hash, verify. */
static void batch_verify_item(batch_item *it, int raw, int hash)
{
    uint8_t rs[64], digest[P256_DIGEST_MAX];
    size_t digest_len;
    int ok = it->well_formed;
    if (ok && raw)
        memcpy(rs, it->sig, 64);
    else if (ok)
        ok = p256_sig_from_der(rs, it->sig, it->sig_len);
    if (ok) {
        digest_len = p256_digest(hash, it->msg, it->msg_len, digest);
        if (digest_len == 0)
            ok = 0;
        else if (it->table != NULL)
            ok = p256_verify_pubtable_vartime(it->table, rs, digest, digest_len);
        else
            ok = p256_verify(it->pub, sizeof it->pub, rs, digest, digest_len);
    }
    it->result = (uint8_t)(ok != 0);
}

/* Claim the next item (-1 when none is left), reporting the previous one as done. */
static Py_ssize_t batch_claim(BatchObject *self, int finished)
{
    Py_ssize_t i = -1;
#ifdef BATCH_ATOMICS
    if (finished) /* release: the item's result is written before it counts as done */
        __atomic_fetch_add(&self->done, 1, __ATOMIC_RELEASE);
    i = __atomic_fetch_add(&self->next, 1, __ATOMIC_RELAXED); /* passes n by one per thread */
    if (i >= self->n)
        i = -1;
#else
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    self->done += finished;
    if (self->next < self->n)
        i = self->next++;
    PyThread_release_lock(self->lock);
#endif
    return i;
}

static Py_ssize_t batch_done(BatchObject *self)
{
    Py_ssize_t done;
#ifdef BATCH_ATOMICS
    done = __atomic_load_n(&self->done, __ATOMIC_ACQUIRE);
#else
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    done = self->done;
    PyThread_release_lock(self->lock);
#endif
    return done;
}

static PyObject *batch_run(BatchObject *self, PyObject *unused)
{
    (void)unused;
    Py_INCREF(self); /* stays alive while the GIL is released, whoever holds it */
    RELEASE_GIL
    Py_ssize_t i = batch_claim(self, 0);
    while (i >= 0) {
        batch_verify_item(&self->items[i], self->raw, self->hash);
        i = batch_claim(self, 1);
    }
    ACQUIRE_GIL
    Py_DECREF(self);
    Py_RETURN_NONE;
}

static PyObject *batch_results(BatchObject *self, PyObject *unused)
{
    PyObject *list, *r;
    Py_ssize_t done;
    r = batch_run(self, unused); /* whatever is still unclaimed, on this thread */
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    done = batch_done(self);
    if (done != self->n) {
        PyErr_SetString(PyExc_RuntimeError, "results() called while run() is still working");
        return NULL;
    }
    list = PyList_New(self->n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        PyObject *b = self->items[i].result ? Py_True : Py_False;
        Py_INCREF(b);
        PyList_SET_ITEM(list, i, b);
    }
    return list;
}

static Py_ssize_t batch_len(BatchObject *self)
{
    return self->n;
}

static PyMethodDef batch_methods[] = {
    {"run", (PyCFunction)batch_run, METH_NOARGS,
     "Verify unclaimed items with the GIL released until none is left (thread-safe)."},
    {"results", (PyCFunction)batch_results, METH_NOARGS,
     "Finish any unclaimed items, then the list of bools in input order."},
    {NULL, NULL, 0, NULL},
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
    .tp_doc = "Batch(items, PublicKey, raw, hash_id): signatures to verify off the GIL.",
    .tp_methods = batch_methods,
    .tp_as_sequence = &batch_as_sequence,
    .tp_new = batch_new,
};

int p256py_add_batch(PyObject *module)
{
    return p256py_add_type(module, "Batch", &Batch_Type);
}

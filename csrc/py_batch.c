/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch.c: the batch machinery behind every *_many call (p256._core.Batch).
 *
 * Batch(kind, items, offset=0, limit=-1, group=8, **params) takes one chunk of the caller's
 * stream apart under the GIL: limit < 0 takes all of items (any iterable, copied to a
 * private tuple first); limit >= 0 the next `limit` items of an iterator, one at a time,
 * so nothing of the stream is held beyond this chunk. Each item goes to its kind's reader
 * (py_batch_shared.h lists the kinds and their files). A wrong one (the reader's error, naming
 * its index plus `offset`, its index in the whole stream), or an exception of the stream
 * itself, stops the taking there: the items before it are the batch, the iterator is left
 * just after the bad item, and the exception is the batch's `error`, for the caller to
 * raise after the answers (MemoryError is raised at once).
 *
 * run() releases the GIL once and works until nothing is left; several Python threads
 * may call run() on one batch: each claims `group` items at a time (dynamic balancing: a
 * core slowed by other load takes fewer groups) and hands them to the kind's work, which
 * calls the core's batch module on the engine chosen when the batch was made. results()
 * works what is still unclaimed, waits for the groups other threads hold, and gives the
 * answers in input order; the items are cleared (wiped) then.
 *
 * The engine is py_batch_engine.c's choice when the batch is made; what the kinds share
 * (their messages' bytes, a tuple read within bounds) is py_batch_items.c's.
 */
#include "py_batch_shared.h"
#include "py_batch_engine.h"

/* The kinds, by the number Batch() takes (_core.BATCH_*). */
#define BATCH_VERIFY 0
#define BATCH_EIP7951 1
#define BATCH_GENERATE 2
#define BATCH_BASE_MULT 3
#define BATCH_SIGN 4
#define BATCH_EXCHANGE 5
static const batch_kind *const batch_kinds[] = {
    &batch_verify_kind, &batch_eip7951_kind, &batch_generate_kind,
    &batch_base_mult_kind, &batch_sign_kind, &batch_exchange_kind,
};
#define BATCH_N_KINDS (sizeof batch_kinds / sizeof batch_kinds[0])

/* -- taking items in ---------------------------------------------------------------------- */

static PyTypeObject Batch_Type;

/* items[0..cap) moved into a new zeroed block of `more` items, or NULL (items kept). Not
 * PyMem_Realloc: the items may hold scalars, and a block realloc leaves behind is freed
 * without being wiped; here the old block is wiped before it is freed. The items' own
 * pointers (into a copy, references) move with them unchanged. */
static char *batch_items_grow(const batch_kind *kind, char *items, Py_ssize_t cap,
                              Py_ssize_t more)
{
    char *grown = (char *)PyMem_Calloc((size_t)more, kind->item_size);
    if (grown == NULL)
        return NULL;
    memcpy(grown, items, (size_t)cap * kind->item_size);
    p256_wipe(items, (size_t)cap * kind->item_size);
    PyMem_Free(items);
    return grown;
}

static void batch_dealloc(BatchObject *self)
{
    batch_items_free(self->kind, self->items, self->n);
    if (self->lock != NULL)
        PyThread_free_lock(self->lock);
    Py_XDECREF(self->answers);
    Py_XDECREF(self->error);
    Py_XDECREF(self->p.pk_type);
    Py_XDECREF(self->p.sk_type);
    if (self->finished != NULL) /* no one waits: wait() holds a reference */
        PyThread_free_lock(self->finished);
    PyObject_Free(self);
}

/* The kind and parameters of Batch() and batch_check(): 0, or -1 with an exception. */
static const char *const batch_keywords[] = {"kind", "items", "offset", "limit", "group",
                                             "pk_type", "sk_type", "raw", "hash", "nonce",
                                             "low_s", NULL};
static int batch_parse(PyObject *args, PyObject *kwargs, const char *fname,
                       const batch_kind **kind, PyObject **items, Py_ssize_t *offset,
                       Py_ssize_t *limit, Py_ssize_t *group, batch_params *p)
{
    char format[40];
    int k;
    p->pk_type = p->sk_type = NULL;
    p->raw = p->low_s = 0;
    p->hash = p->nonce = P256_NONCE_HEDGED;
    PyOS_snprintf(format, sizeof format, "iO|$nnnOOpiip:%s", fname);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, (char **)batch_keywords, &k, items,
                                     offset, limit, group, &p->pk_type, &p->sk_type, &p->raw,
                                     &p->hash, &p->nonce, &p->low_s))
        return -1;
    if (k < 0 || (size_t)k >= BATCH_N_KINDS) {
        PyErr_SetString(PyExc_ValueError, "unknown batch kind");
        return -1;
    }
    *kind = batch_kinds[k];
    if (*offset < 0 || *group < 1 || *group > BATCH_GROUP_MAX) {
        PyErr_Format(PyExc_ValueError, "%s(): offset >= 0 and group in 1..%d", fname,
                     BATCH_GROUP_MAX);
        return -1;
    }
    return (*kind)->check(p);
}

/* batch_check(kind, items, **params): the error Batch() would raise for any item of a list
 * or tuple, keeping nothing (a *_many call checks a sequence whole before working any of
 * it); an item that is an iterable other than a tuple or list is left to Batch() (it may
 * be one-shot). Indexed afresh each time: an item's __iter__ may change a list. */
static PyObject *batch_check(PyObject *self, PyObject *args, PyObject *kwargs)
{
    const batch_kind *kind;
    PyObject *seq, *item;
    Py_ssize_t offset = 0, limit = -1, group = 8;
    batch_params p;
    union { /* any kind's item, aligned for its pointers and words */
        char bytes[1024];
        void *pointer;
        uint64_t word;
    } scratch;
    int rc;
    (void)self;
    if (batch_parse(args, kwargs, "batch_check", &kind, &seq, &offset, &limit, &group, &p) < 0)
        return NULL;
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "batch_check() takes a list or tuple");
        return NULL;
    }
    if (kind->item_size > sizeof scratch) {
        PyErr_SetString(PyExc_SystemError, "batch item larger than batch_check's scratch");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PySequence_Size(seq); i++) {
        if ((item = PySequence_GetItem(seq, i)) == NULL)
            return NULL;
        if (kind->tuple_size > 0 && !PyTuple_Check(item) && !PyList_Check(item)) {
            PyObject *probe = PyObject_GetIter(item);
            PyErr_Clear();
            if (probe != NULL) {
                Py_DECREF(probe);
                Py_DECREF(item);
                continue;
            }
        }
        memset(&scratch, 0, kind->item_size);
        rc = kind->take(&scratch, item, offset + i, &p);
        Py_DECREF(item);
        kind->clear(&scratch);
        p256_wipe(&scratch, kind->item_size);
        if (rc < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* A private tuple of all of items: a list could change under us if an item's __iter__
 * ran Python code. NULL with TypeError naming the argument if items is not iterable. */
static PyObject *batch_tuple(PyObject *items, const batch_kind *kind)
{
    PyObject *seq = PySequence_Tuple(items);
    if (seq == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be iterable, not %.100s", kind->name,
                     Py_TYPE(items)->tp_name);
    }
    return seq;
}

static PyObject *batch_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    const batch_kind *kind;
    PyObject *items, *seq = NULL, *item;
    Py_ssize_t n, cap, offset = 0, limit = -1, group = 8;
    batch_params p;
    BatchObject *self;
    (void)type;

    if (batch_parse(args, kwargs, "Batch", &kind, &items, &offset, &limit, &group, &p) < 0)
        return NULL;
    if (limit < 0) {
        if ((seq = batch_tuple(items, kind)) == NULL)
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
    self->kind = kind;
    self->p = p;
    Py_XINCREF(p.pk_type);
    Py_XINCREF(p.sk_type);
    self->n = 0; /* items live up to n: dealloc clears only those */
    self->offset = offset;
    self->engine = batch_engine_now();
    self->failed = 0;
    self->group = group;
    self->next = self->done = 0;
    self->lock = NULL;
    self->finished = NULL;
    self->answers = NULL;
    self->error = NULL;
    self->making = 0;
    self->items = (char *)PyMem_Calloc(cap > 0 ? (size_t)cap : 1, kind->item_size);
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
                goto stop;
            break;
        }
        if (n == cap) {
            Py_ssize_t more = cap * 2 < limit ? cap * 2 : limit;
            char *grown = batch_items_grow(kind, self->items, cap, more);
            if (grown == NULL) {
                Py_DECREF(item);
                goto nomem;
            }
            self->items = grown;
            cap = more;
        }
        self->n = n + 1;
        rc = kind->take(BATCH_ITEM(self, n), item, offset + n, &self->p);
        Py_DECREF(item);
        if (rc < 0) {
            kind->clear(BATCH_ITEM(self, n)); /* the bad item's references; wiped when freed */
            self->n = n;
            goto stop;
        }
    }
    Py_XDECREF(seq);
    if (self->n == 0)
        PyThread_release_lock(self->finished);
    return (PyObject *)self;
stop: /* the items before keep their place; the error waits for their answers */
    if (PyErr_ExceptionMatches(PyExc_MemoryError))
        goto fail;
    {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_NormalizeException(&t, &v, &tb);
        if (tb != NULL)
            PyException_SetTraceback(v, tb);
        self->error = v;
        Py_XDECREF(t);
        Py_XDECREF(tb);
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

static Py_ssize_t batch_len(BatchObject *self)
{
    return self->n;
}

/* pop_error() -> what stopped the taking of items, or None; the batch lets go of it (the
 * exception, once raised, refers to frames that may refer to the batch: kept here too,
 * it would make a cycle through an object the collector cannot see into). */
static PyObject *batch_pop_error(BatchObject *self, PyObject *unused)
{
    PyObject *error = self->error;
    (void)unused;
    self->error = NULL;
    if (error == NULL)
        Py_RETURN_NONE;
    return error;
}

static PyMethodDef batch_methods[] = {
    {"pop_error", (PyCFunction)batch_pop_error, METH_NOARGS,
     "What stopped the taking of items (to raise after the answers), or None; once."},
    {"run", (PyCFunction)batch_run, METH_NOARGS,
     "Work unclaimed items with the GIL released until none is left (thread-safe)."},
    {"results", (PyCFunction)batch_results, METH_NOARGS,
     "Work any unclaimed items, wait for those other threads work, then the answers in "
     "input order."},
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
    .tp_doc = "Batch(kind, items, *, offset=0, limit=-1, group=8, pk_type=None, sk_type=None, "
              "raw=False, hash=-1, nonce=-1, low_s=False): one chunk of a *_many call's "
              "items, worked off the GIL.",
    .tp_methods = batch_methods,
    .tp_getset = batch_getset,
    .tp_as_sequence = &batch_as_sequence,
    .tp_new = batch_new,
};

static PyMethodDef batch_functions[] = {
    {"batch_check", (PyCFunction)(void (*)(void))batch_check, METH_VARARGS | METH_KEYWORDS,
     "batch_check(kind, items, **params): Batch()'s error for a list or tuple, keeping "
     "nothing."},
    {NULL, NULL, 0, NULL},
};

/* The engine (py_batch_engine.c), then the type, the functions and the constants. */
int p256py_add_batch(PyObject *module)
{
    static const struct {
        const char *name;
        int value;
    } constants[] = {
        {"BATCH_GROUP_MAX", BATCH_GROUP_MAX}, {"BATCH_VERIFY", BATCH_VERIFY},
        {"BATCH_EIP7951", BATCH_EIP7951},     {"BATCH_GENERATE", BATCH_GENERATE},
        {"BATCH_BASE_MULT", BATCH_BASE_MULT}, {"BATCH_SIGN", BATCH_SIGN},
        {"BATCH_EXCHANGE", BATCH_EXCHANGE},   {"BATCH_OP_GEN", P256_BATCH_OP_GEN},
        {"BATCH_OP_ECDH", P256_BATCH_OP_ECDH},
    };
    batch_race_arm();
    if (batch_engine_init(module) < 0 || PyModule_AddFunctions(module, batch_functions) < 0)
        return -1;
    for (size_t c = 0; c < sizeof constants / sizeof constants[0]; c++)
        if (PyModule_AddIntConstant(module, constants[c].name, constants[c].value) < 0)
            return -1;
    return p256py_add_type(module, "Batch", &Batch_Type);
}

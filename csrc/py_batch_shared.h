/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_shared.h: what the parts of the batch machinery and the kinds of batch work
 * share (a header of its own: no part of the machinery owns it).
 *
 * A _core.Batch holds one chunk of a caller's stream of items, taken apart under the GIL
 * by its kind's reader, then worked with the GIL released by any number of threads that
 * claim groups of items, and answered in input order (py_batch.c: the Batch type and its
 * chunks of items taken in; py_batch_work.c: claims, threads, waiting, answers;
 * py_batch_engine.c: the engine; py_batch_items.c: what the kinds' readers share). What
 * an item is, how it is read, worked and answered is the kind's, each in its own file
 * with its own item struct:
 *
 *   py_batch_verify.c    verify_many's (PublicKey, signature, message) triples and
 *                        p256verify_many's 160-byte EIP-7951 inputs
 *   py_batch_keys.c      generate_many's new keys and scalar_base_mult_many's k*G
 *   py_batch_sign.c      sign_many's (PrivateKey, message) pairs
 *   py_batch_exchange.c  exchange_many's (PrivateKey, PublicKey) pairs
 *
 * An item may hold a scalar or a shared secret: its kind's clear() wipes it, and the
 * machinery wipes every block of items it frees or outgrows.
 */
#ifndef P256_PY_BATCH_SHARED_H
#define P256_PY_BATCH_SHARED_H

#include "py_binding.h"

/* The largest claim, in items (a group's work space is on the stack). */
#define BATCH_GROUP_MAX 64
/* The most objects an item holds: (PublicKey, signature, message). */
#define BATCH_TUPLE_MAX 3

typedef struct BatchObject BatchObject;

/* The arguments of a batch, as Batch() takes them by keyword; each kind reads those it
 * names and ignores the rest. */
typedef struct {
    PyObject *pk_type; /* the PublicKey class: what verify's and exchange's keys must be,
                        * and what generate makes */
    PyObject *sk_type; /* the PrivateKey class, what generate makes */
    int raw;           /* signatures in r||s, not DER (verify, sign) */
    int hash;          /* the message hash, a P256_NONCE_SHA* id (verify, sign) */
    int nonce;         /* P256_NONCE_HEDGED or an RFC 6979 hash id (sign) */
    int low_s;         /* the low-s form (sign) */
} batch_params;

/* A kind of batch work: its item and the four things done with one. */
typedef struct {
    const char *name;      /* the argument in messages: "items", "pairs", "scalars", ... */
    size_t item_size;      /* sizeof its item struct */
    Py_ssize_t tuple_size; /* items are tuples (or lists) of this many objects; 0: not */
    /* the parameters it needs: 0, or -1 with an exception */
    int (*check)(const batch_params *p);
    /* fill a zeroed item from the caller's object at `index` of the whole stream: 0, or
     * -1 with an exception naming the index (the item is cleared either way) */
    int (*take)(void *item, PyObject *obj, Py_ssize_t index, const batch_params *p);
    /* work items[0..count), 1 <= count <= BATCH_GROUP_MAX, without the GIL: 0, or -1
     * if the engine refused */
    int (*work)(void *items, Py_ssize_t count, const batch_params *p, int engine);
    /* the answer of a worked item (a new reference), or NULL with its exception */
    PyObject *(*answer)(void *item, Py_ssize_t index, const batch_params *p);
    /* drop the item's references and wipe it */
    void (*clear)(void *item);
} batch_kind;

extern const batch_kind batch_verify_kind, batch_eip7951_kind, batch_generate_kind,
    batch_base_mult_kind, batch_sign_kind, batch_exchange_kind;

/* One chunk of a *_many call (py_batch.c makes it, py_batch_work.c works it). */
struct BatchObject {
    PyObject_HEAD
    const batch_kind *kind;
    batch_params p;
    Py_ssize_t n;            /* items taken: items[0..n) are live */
    char *items;             /* n items of kind->item_size bytes, or NULL once answered */
    Py_ssize_t offset;       /* the index of item 0 in the caller's stream */
    int engine;              /* a P256_BATCH_* engine, the selection when the batch was made */
    int failed;              /* the engine refused a call (cannot happen for a checked engine) */
    Py_ssize_t group;        /* items per claim, 1..BATCH_GROUP_MAX */
    Py_ssize_t next;         /* first unclaimed item */
    Py_ssize_t done;         /* items finished */
    PyThread_type_lock lock; /* guards next, done and failed where there are no atomics */
    PyThread_type_lock finished; /* held from creation until done reaches n (a semaphore:
                                  * the thread finishing the last group releases it) */
    PyObject *answers;       /* the list results() made */
    PyObject *error;         /* what stopped the taking at item n (a bad item, the stream's
                              * own exception), or NULL: raised after the answers */
    int making;              /* a results() call is making it (one at a time) */
};

/* Claims are atomic increments: a thread preempted while holding a lock would stall the
 * others (likely on a loaded machine). Without GCC/clang builtins (or with
 * -DP256_BATCH_NO_ATOMICS, to test that path), a PyThread lock. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(P256_BATCH_NO_ATOMICS)
#define BATCH_ATOMICS 1
#endif

/* The BATCH_ITEM(b, i)-th item of a batch. */
#define BATCH_ITEM(b, i) ((void *)((b)->items + (size_t)(i) * (b)->kind->item_size))

/* py_batch_work.c: clear items[0..n) and free their block, wiped (after the answers, or
 * when a batch is freed unanswered). */
void batch_items_free(const batch_kind *kind, char *items, Py_ssize_t n);
/* py_batch_work.c: Batch.run() and Batch.results(); make tsan's planted race, armed at
 * import by P256_PLANT_RACE=1 in its builds (a no-op in every other). */
PyObject *batch_run(BatchObject *self, PyObject *unused);
PyObject *batch_results(BatchObject *self, PyObject *unused);
void batch_race_arm(void);

/* A message or digest of an item: a bytes object referenced (immutable, and kept alive),
 * any other buffer copied. */
typedef struct {
    const uint8_t *buf;
    size_t len;
    PyObject *keep;
    uint8_t *copy;
} batch_bytes;

/* Fill *m from obj (bytes-like): 0, or -1 with TypeError "<name>[index]...: <what> must
 * be bytes-like" or MemoryError. */
int batch_bytes_take(batch_bytes *m, PyObject *obj, const char *name, Py_ssize_t index,
                     const char *what);
void batch_bytes_clear(batch_bytes *m);

/* obj (item `index` of the argument `name`) as a tuple of exactly `size` objects (a new
 * reference), reading at most size + 1 of an iterable that is not a tuple or list; NULL
 * with TypeError "<name>[index] must be <shape>, ..." naming what it is instead, or the
 * item's own error if reading it raised another one. */
PyObject *batch_tuple_of(PyObject *obj, Py_ssize_t size, const char *name, Py_ssize_t index,
                         const char *shape);

/* 0 if hash is a P256_NONCE_SHA* id, or (also P256_NONCE_HEDGED, with nonce) a nonce
 * mode; else -1 with ValueError naming what it is ("hash id" or "nonce mode"). */
int batch_known_hash(int hash, int nonce);

/* The pending TypeError re-raised as "<name>[index]: <message>". */
void batch_name_index(const char *name, Py_ssize_t index);

#endif /* P256_PY_BATCH_SHARED_H */

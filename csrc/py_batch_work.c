/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_work.c: a Batch's work (py_batch_shared.h), with the GIL released: the claims of
 * groups by any number of threads (atomic increments: a thread preempted while holding a
 * lock would stall the others, likely on a loaded machine), the wait for the groups other
 * threads hold, and the answers in input order, made once.
 */
#include "py_batch_shared.h"
#include "py_batch_engine.h"

/* Clear items[0..n) and free the block, wiped. */
void batch_items_free(const batch_kind *kind, char *items, Py_ssize_t n)
{
    if (items == NULL)
        return;
    for (Py_ssize_t i = 0; i < n; i++)
        kind->clear(items + (size_t)i * kind->item_size);
    p256_wipe(items, (size_t)n * kind->item_size);
    PyMem_Free(items);
}

/* make tsan's negative control, in its builds only (-DP256_PLANT_RACE; tools/tsan.py):
 * armed by P256_PLANT_RACE=1 in the environment at import, every claim also counts
 * itself in a plain static from whichever thread claims, with no lock or atomic: the data
 * race ThreadSanitizer must report in batch_claim, or the check is blind. */
#ifdef P256_PLANT_RACE
static int batch_race_armed; /* set at import, under the GIL, before any helper thread */
static long batch_race_claims;
#endif


void batch_race_arm(void)
{
#ifdef P256_PLANT_RACE
    batch_race_armed = getenv("P256_PLANT_RACE") != NULL && strcmp(getenv("P256_PLANT_RACE"), "1") == 0;
#endif
}

/* Claim the next group (*count items from the returned index; -1 when none is left),
 * reporting `finished` items of the previous one as done. */
static Py_ssize_t batch_claim(BatchObject *self, Py_ssize_t finished, int failed,
                              Py_ssize_t *count)
{
    Py_ssize_t i = -1, g;
#ifdef P256_PLANT_RACE
    if (batch_race_armed)
        batch_race_claims++;
#endif
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

PyObject *batch_run(BatchObject *self, PyObject *unused)
{
    Py_ssize_t count = 0, i;
    int failed = 0;
    (void)unused;
    Py_INCREF(self); /* stays alive while the GIL is released, whoever holds it */
    RELEASE_GIL
    i = batch_claim(self, 0, 0, &count);
    while (i >= 0) {
        failed = self->kind->work(BATCH_ITEM(self, i), count, &self->p, self->engine) < 0;
        i = batch_claim(self, count, failed, &count);
    }
    ACQUIRE_GIL
    Py_DECREF(self);
    Py_RETURN_NONE;
}

/* Whether this call may make the answers: one results() at a time does (the list made,
 * it frees the items), another meanwhile is refused rather than reading freed items. */
static int batch_results_enter(BatchObject *self)
{
#ifdef BATCH_ATOMICS
    int idle = 0;
    return __atomic_compare_exchange_n(&self->making, &idle, 1, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
#else
    return self->making ? 0 : (self->making = 1); /* under the GIL */
#endif
}

#ifdef BATCH_ATOMICS
#define BATCH_ANSWERS(b) __atomic_load_n(&(b)->answers, __ATOMIC_ACQUIRE)
#define BATCH_ANSWERS_SET(b, v) __atomic_store_n(&(b)->answers, (v), __ATOMIC_RELEASE)
#else
#define BATCH_ANSWERS(b) ((b)->answers)
#define BATCH_ANSWERS_SET(b, v) ((b)->answers = (v))
#endif

PyObject *batch_results(BatchObject *self, PyObject *unused)
{
    PyObject *list, *r, *answers = BATCH_ANSWERS(self);
    if (answers != NULL)
        return PyList_GetSlice(answers, 0, self->n);
    if (!batch_results_enter(self)) {
        PyErr_SetString(PyExc_RuntimeError, "results() of this batch is running in another thread");
        return NULL;
    }
    r = batch_run(self, unused); /* whatever is still unclaimed, on this thread */
    if (r == NULL)
        goto failed;
    Py_DECREF(r);
    if (batch_wait(self)) { /* the groups other threads still work */
        PyErr_Format(PyExc_RuntimeError, "the %s batch engine refused to run",
                     batch_engine_name(self->engine));
        goto failed;
    }
    list = PyList_New(self->n);
    for (Py_ssize_t i = 0; list != NULL && i < self->n; i++) {
        PyObject *a = self->kind->answer(BATCH_ITEM(self, i), self->offset + i, &self->p);
        if (a == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, a);
    }
    if (list == NULL)
        goto failed;
    /* Every item is claimed and done: no run() reads them again. Free them now, so that
     * a batch still referenced (by a helper thread scheduled late) holds only this list. */
    batch_items_free(self->kind, self->items, self->n);
    self->items = NULL;
    BATCH_ANSWERS_SET(self, list);
    return PyList_GetSlice(list, 0, self->n);
failed: /* nothing freed: a later call may try again */
#ifdef BATCH_ATOMICS
    __atomic_store_n(&self->making, 0, __ATOMIC_RELEASE);
#else
    self->making = 0;
#endif
    return NULL;
}

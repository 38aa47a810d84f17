/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_keys.c: the batch kinds of PrivateKey.generate_many (a new key per item, drawn
 * off the GIL) and scalar_base_mult_many (32-byte scalars, copied) (py_batch_shared.h). A group's
 * k*G go to the core's p256_pubkey_derive_many (constant time, eight at a time on the
 * IFMA engine where it runs, one field inversion for the group's affine forms).
 */
#include "py_batch_shared.h"

/* OSError text when the OS random generator failed. */
#define BATCH_RNG_FAILED "the operating system's random generator failed"

typedef struct {
    uint8_t k[32];     /* the scalar: drawn (generate) or given (base mult); secret */
    p256_pubkey point; /* k*G */
    uint8_t ok;        /* the core's: a key was drawn, or k != 0 mod n */
} keys_item;

static int generate_check(const batch_params *p)
{
    if (p->pk_type == NULL || !PyType_Check(p->pk_type) || p->sk_type == NULL ||
        !PyType_Check(p->sk_type)) {
        PyErr_SetString(PyExc_TypeError, "generate batches need pk_type and sk_type, the "
                                         "PublicKey and PrivateKey classes");
        return -1;
    }
    return 0;
}

static int generate_take(void *item, PyObject *obj, Py_ssize_t index, const batch_params *p)
{
    (void)item, (void)obj, (void)index, (void)p; /* the item is a new key: nothing to read */
    return 0;
}

static int keys_work(keys_item *its, Py_ssize_t count, int reduce, int engine)
{
    p256_pubkey points[BATCH_GROUP_MAX];
    const uint8_t *k[BATCH_GROUP_MAX];
    uint8_t ok[BATCH_GROUP_MAX];
    if (count < 1 || count > BATCH_GROUP_MAX) /* never: and gcc then sees the items written */
        return -1;
    for (Py_ssize_t i = 0; i < count; i++)
        k[i] = its[i].k;
    if (!p256_pubkey_derive_many(points, ok, k, (size_t)count, reduce, engine))
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        its[i].point = points[i];
        its[i].ok = ok[i];
    }
    return 0;
}

static int generate_work(void *items, Py_ssize_t count, const batch_params *p, int engine)
{
    keys_item *its = (keys_item *)items;
    (void)p;
    for (Py_ssize_t i = 0; i < count; i++)
        (void)p256_seckey_generate(its[i].k); /* a failed RNG leaves 0: derive refuses it */
    return keys_work(its, count, 0, engine);
}

/* A new PrivateKey of sk_type with its public key of pk_type already made. */
static PyObject *generate_answer(void *item, Py_ssize_t index, const batch_params *p)
{
    keys_item *it = (keys_item *)item;
    PyObject *pk;
    (void)index;
    if (!it->ok) {
        PyErr_SetString(PyExc_OSError, BATCH_RNG_FAILED);
        return NULL;
    }
    if ((pk = p256py_point_new((PyTypeObject *)p->pk_type, &it->point)) == NULL)
        return NULL;
    return p256py_secretkey_new((PyTypeObject *)p->sk_type, it->k, pk);
}

static void keys_clear(void *item)
{
    (void)item; /* nothing referenced; the machinery wipes the block, the scalar with it */
}

const batch_kind batch_generate_kind = {
    "n", sizeof(keys_item), 0, generate_check, generate_take, generate_work, generate_answer,
    keys_clear,
};

static int base_mult_check(const batch_params *p)
{
    (void)p;
    return 0;
}

/* scalars[index]: 32 bytes, copied (TypeError / ValueError naming the index). */
static int base_mult_take(void *item, PyObject *obj, Py_ssize_t index, const batch_params *p)
{
    keys_item *it = (keys_item *)item;
    byteview b;
    (void)p;
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
    memcpy(it->k, b.buf, 32);
    byteview_release(&b);
    return 0;
}

static int base_mult_work(void *items, Py_ssize_t count, const batch_params *p, int engine)
{
    (void)p;
    return keys_work((keys_item *)items, count, 1, engine);
}

/* The 65-byte k*G, or ValueError for a scalar 0 mod n. */
static PyObject *base_mult_answer(void *item, Py_ssize_t index, const batch_params *p)
{
    keys_item *it = (keys_item *)item;
    uint8_t out[65];
    (void)p;
    if (!it->ok) {
        PyErr_Format(PyExc_ValueError, "scalars[%zd]: scalar is 0 mod n: the result is the "
                     "point at infinity", index);
        return NULL;
    }
    p256_pubkey_serialize(out, &it->point, 0);
    return PyBytes_FromStringAndSize((const char *)out, 65);
}

const batch_kind batch_base_mult_kind = {
    "scalars", sizeof(keys_item), 0, base_mult_check, base_mult_take, base_mult_work,
    base_mult_answer, keys_clear,
};

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_batch.c: the batch module (csrc/modules/batch), run by `make ctest` once per field
 * backend. p256_batch_verify_vartime against the per-item answer (parse the signature,
 * hash the message, p256_verify), on mixed items: valid and altered signatures, DER and
 * raw, malformed and out-of-range signatures, keys loaded and as SEC1 bytes (invalid ones
 * too), precomputed keys, every hash and prehashed digests, batches across the group
 * size, on every engine that runs here; and its refusals (an unknown engine or hash).
 * The IFMA engine itself is tests/c/test_batch_ifma.c's. Built with
 * -DP256_PLANT_BATCH_BUG=1 (a precomputed key's message left unhashed) it must fail (make
 * ctest-module-plants).
 */
#include "harness.h"
#include "p256.c"

#define NKEYS 6
#define NITEMS 150

static uint8_t seckeys[NKEYS][32], pubs[NKEYS][65];
static p256_pubkey keys[NKEYS];
static void *tables[NKEYS];

static void setup(void)
{
    size_t size = p256_pubtable_size(5);
    for (int k = 0; k < NKEYS; k++) {
        do
            rng_fill(seckeys[k], 32);
        while (!p256_seckey_verify(seckeys[k]));
        CHECK(p256_pubkey_derive(&keys[k], seckeys[k]), "derive %d", k);
        p256_pubkey_serialize(pubs[k], &keys[k], 0);
        tables[k] = malloc(size);
        CHECK(tables[k] != NULL && p256_pubtable_build_pubkey_vartime(tables[k], size, 5, &keys[k]),
              "table %d", k);
    }
}

typedef struct {
    uint8_t sig[80], msg[40], pub[65];
    size_t sig_len, msg_len;
} item_data;

/* The answer item by item, through the byte API. */
static int expected(const p256_batch_item *it, int raw, int hash)
{
    uint8_t rs[64], dg[P256_DIGEST_MAX];
    const uint8_t *d = it->msg;
    size_t dl = it->msg_len;
    uint8_t pub[65];
    const uint8_t *q = it->pub;
    size_t ql = it->pub_len;
    if (p256_sig_parse(rs, it->sig, it->sig_len, raw) != P256_SIG_OK)
        return 0;
    if (hash != P256_BATCH_PREHASHED) {
        dl = p256_digest(hash, it->msg, it->msg_len, dg);
        d = dg;
    }
    if (it->key != NULL) {
        p256_pubkey_serialize(pub, it->key, 0);
        q = pub;
        ql = 65;
    }
    return p256_verify(q, ql, rs, d, dl);
}

static void run(int raw, int hash, int engine, size_t n)
{
    static item_data data[NITEMS];
    static p256_batch_item items[NITEMS];
    uint8_t results[NITEMS + 1];
    size_t dsize = hash == P256_BATCH_PREHASHED ? 32 : 0;
    for (size_t i = 0; i < n; i++) {
        item_data *d = &data[i];
        p256_batch_item *it = &items[i];
        int k = (int)(rng64() % NKEYS), kind = (int)(rng64() % 10);
        uint8_t rs[64], dg[P256_DIGEST_MAX];
        size_t dl;
        d->msg_len = dsize ? dsize : (size_t)(rng64() % sizeof d->msg);
        rng_fill(d->msg, d->msg_len);
        if (hash == P256_BATCH_PREHASHED) {
            memcpy(dg, d->msg, 32);
            dl = 32;
        } else {
            dl = p256_digest(hash, d->msg, d->msg_len, dg);
        }
        p256_sign(rs, seckeys[k], dg, dl, P256_NONCE_HEDGED);
        if (raw) {
            memcpy(d->sig, rs, 64);
            d->sig_len = 64;
        } else {
            d->sig_len = p256_sig_to_der(d->sig, rs);
        }
        memset(it, 0, sizeof *it);
        it->key = &keys[k];
        it->sig = d->sig;
        it->sig_len = d->sig_len;
        it->msg = d->msg;
        it->msg_len = d->msg_len;
        switch (kind) {
        case 0: /* altered */
            d->sig[d->sig_len - 1] ^= 1;
            break;
        case 1: /* malformed or out of range */
            if (raw)
                memset(d->sig, rng64() & 1 ? 0x00 : 0xff, 32);
            else
                d->sig_len = (size_t)(rng64() % d->sig_len);
            break;
        case 2: /* precomputed */
            it->table = tables[k];
            break;
        case 3: /* precomputed, another key's signature */
            it->table = tables[(k + 1) % NKEYS];
            it->key = &keys[(k + 1) % NKEYS];
            break;
        case 4: /* SEC1 bytes */
            memcpy(d->pub, pubs[k], 65);
            it->key = NULL;
            it->pub = d->pub;
            it->pub_len = 65;
            break;
        case 5: /* invalid SEC1 bytes */
            memcpy(d->pub, pubs[k], 65);
            d->pub[64] ^= 1;
            it->key = NULL;
            it->pub = d->pub;
            it->pub_len = rng64() & 1 ? 65 : 64;
            break;
        default:
            break;
        }
    }
    results[n] = 0xa5;
    CHECK(p256_batch_verify_vartime(results, items, n, raw, hash, engine) == 1,
          "batch of %zu (engine %d, hash %d)", n, engine, hash);
    CHECK(results[n] == 0xa5, "no write past the results");
    for (size_t i = 0; i < n; i++) {
        int want = expected(&items[i], raw, hash);
        CHECK(results[i] == want, "item %zu of %zu: %d, expected %d (engine %d, raw %d, hash %d)",
              i, n, results[i], want, engine, raw, hash);
    }
}

int main(void)
{
    static const size_t sizes[] = {0, 1, 7, 63, 64, 65, NITEMS};
    int engines[3] = {P256_BATCH_SCALAR, P256_BATCH_AUTO, P256_BATCH_IFMA};
    int nengines = strcmp(p256_batch_engine(), "avx512-ifma") == 0 ? 3 : 2;
    uint8_t res[1];
    p256_batch_item one = {0};
    setup();
    for (int e = 0; e < nengines; e++)
        for (int hash = P256_BATCH_PREHASHED; hash <= P256_NONCE_SHA3_512; hash++) {
            if (hash == -1)
                continue;
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                run((int)(s & 1), hash, engines[e], sizes[s]);
        }
    res[0] = 0x5a;
    CHECK(p256_batch_verify_vartime(res, &one, 1, 0, 7, P256_BATCH_SCALAR) == 0 && res[0] == 0x5a,
          "unknown hash refused, results untouched");
    CHECK(p256_batch_verify_vartime(res, &one, 1, 0, P256_NONCE_SHA256, 9) == 0 && res[0] == 0x5a,
          "unknown engine refused, results untouched");
    if (nengines == 2)
        CHECK(p256_batch_verify_vartime(res, &one, 1, 0, P256_NONCE_SHA256, P256_BATCH_IFMA) == 0,
              "IFMA refused where it does not run");
    for (int k = 0; k < NKEYS; k++)
        free(tables[k]);
    printf("test_batch (%s, engines: %s): %ld checks, %ld failures\n", p256_backend_name(),
           p256_batch_engine(), checks, failures);
    return failures != 0;
}

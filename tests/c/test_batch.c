/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_batch.c: the batch module (csrc/modules/batch), run by `make ctest` once per field
 * backend. p256_batch_verify_vartime against the per-item answer (parse the signature,
 * hash the message, p256_verify), on mixed items: valid and altered signatures, DER and
 * raw, malformed and out-of-range signatures, keys loaded and as SEC1 bytes (invalid ones
 * too), precomputed keys, every hash and prehashed digests, batches across the group
 * size, on every engine that runs here; and its refusals (an unknown engine or hash).
 * The IFMA engine itself is tests/c/test_batch_ifma.c's. The work with secrets
 * (p256_pubkey_derive_many, p256_sign_many, p256_ecdh_many) against the single calls byte
 * for byte, every batch length to 17 and across the groups, edge and invalid scalars at
 * every position, every nonce mode and low_s, precomputed peers among plain ones, on every
 * engine. With the plant batch:1 (a precomputed key's message left unhashed) or batch:2 (a
 * nonce's inverse taken from its neighbour's prefix) armed it must fail (tools/plants.py).
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

/* -- the work with secrets ------------------------------------------------------------ */

#define SMAX 70

/* n - 1 - j, n - j: the top of the range and just past it. */
static void batch_n_minus(uint8_t out[32], unsigned j)
{
    static const uint8_t n_be[32] = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
    memcpy(out, n_be, 32);
    out[31] = (uint8_t)(out[31] - j); /* n ends in 0x51: no borrow for j < 0x52 */
}

/* Scalar number i of a batch: mostly random keys, with the edge ones (1, 2, n-1, n-2, 2^j)
 * and, where `bad`, the invalid ones (0, n, n+1 for a key; 0 and n are 0 mod n) placed at
 * a position that moves with `shift`. Returns whether it is a valid key. */
static int batch_edge_scalar(uint8_t k[32], size_t i, size_t shift, int bad)
{
    const size_t kind = (i + shift) % 12;
    memset(k, 0, 32);
    switch (kind) {
    case 0: k[31] = 1; return 1;
    case 1: k[31] = 2; return 1;
    case 2: batch_n_minus(k, 1); return 1;
    case 3: batch_n_minus(k, 2); return 1;
    case 4: { unsigned b = (unsigned)(rng64() % 256); k[31 - b / 8] = (uint8_t)(1u << (b % 8)); }
        return 1;
    case 5: if (bad) return 0; break;               /* 0 */
    case 6: if (bad) { batch_n_minus(k, 0); return 0; } break; /* n */
    case 7: if (bad) { batch_n_minus(k, 0); k[31]++; return 0; } break; /* n + 1 */
    default: break;
    }
    do
        rng_fill(k, 32);
    while (!p256_seckey_verify(k));
    return 1;
}

static p256_pubtable not_a_table; /* zeros: no table's header */

static void secret_run(int engine, size_t n, size_t shift, int bad)
{
    static uint8_t k[SMAX][32], dg[SMAX][P256_DIGEST_MAX], out[SMAX * 65];
    static p256_pubkey pks[SMAX + 1], peers[SMAX];
    static size_t dl[SMAX];
    static int valid[SMAX];
    const uint8_t *kp[SMAX];
    p256_sign_item si[SMAX];
    p256_ecdh_item ei[SMAX];
    uint8_t ok[SMAX + 1];
    for (size_t i = 0; i < n; i++) {
        valid[i] = batch_edge_scalar(k[i], i, shift, bad);
        kp[i] = k[i];
        dl[i] = p256_digest((int)((i + shift) % 7), k[i], 32, dg[i]);
        peers[i] = keys[(i + shift) % NKEYS];
        si[i].d = k[i];
        si[i].digest = dg[i];
        si[i].digest_len = dl[i];
        ei[i].d = k[i];
        ei[i].pk = &peers[i];
        /* a third of the peers precomputed, a third with memory that is not a table */
        ei[i].table = (i + shift) % 3 == 0 ? tables[(i + shift) % NKEYS]
                      : (i + shift) % 3 == 1 ? (const void *)&not_a_table : NULL;
    }

    /* keys, and base multiples (k mod n: n + 1 is 1 there) */
    for (int reduce = 0; reduce < 2; reduce++) {
        ok[n] = 0xa5;
        memset(&pks[n], 0xa5, sizeof pks[n]);
        CHECK(p256_pubkey_derive_many(pks, ok, kp, n, reduce, engine) == 1, "derive_many %zu", n);
        CHECK(ok[n] == 0xa5 && ((uint8_t *)&pks[n])[0] == 0xa5, "no write past item %zu", n);
        for (size_t i = 0; i < n; i++) {
            p256_pubkey one;
            uint8_t a[65], b[65];
            int w = reduce ? p256_mult_base(b, k[i]) : p256_pubkey_derive(&one, k[i]);
            if (w && !reduce)
                p256_pubkey_serialize(b, &one, 0);
            CHECK(ok[i] == w, "derive_many item %zu/%zu (reduce %d, engine %d): ok %d, single %d",
                  i, n, reduce, engine, ok[i], w);
            CHECK(!reduce ? w == valid[i] : 1, "derive of item %zu agrees with the edge kind", i);
            if (w && ok[i]) {
                p256_pubkey_serialize(a, &pks[i], 0);
                CHECK(memcmp(a, b, 65) == 0, "derive_many item %zu/%zu (reduce %d) differs", i,
                      n, reduce);
            }
        }
    }

    /* signatures: every deterministic nonce, low_s both ways; hedged ones verify */
    for (int nonce = P256_NONCE_HEDGED; nonce <= P256_NONCE_SHA3_512; nonce++)
        for (int low_s = 0; low_s < 2; low_s++) {
            ok[n] = 0xa5;
            CHECK(p256_sign_many(out, ok, si, n, nonce, low_s, engine) == 1, "sign_many %zu", n);
            CHECK(ok[n] == 0xa5, "no write past item %zu", n);
            for (size_t i = 0; i < n; i++) {
                uint8_t rs[64];
                int w = p256_sign_recoverable(rs, NULL, k[i], dg[i], dl[i],
                                              nonce == P256_NONCE_HEDGED ? P256_NONCE_SHA256
                                                                         : nonce,
                                              low_s);
                CHECK(ok[i] == w, "sign_many item %zu/%zu: ok %d, single %d", i, n, ok[i], w);
                if (!ok[i] || !w)
                    continue;
                if (nonce != P256_NONCE_HEDGED) {
                    CHECK(memcmp(out + 64 * i, rs, 64) == 0,
                          "sign_many item %zu/%zu (nonce %d, low_s %d, engine %d) differs", i, n,
                          nonce, low_s, engine);
                } else {
                    uint8_t pub[65];
                    CHECK(p256_pubkey_create(pub, k[i]) &&
                          p256_verify(pub, 65, out + 64 * i, dg[i], dl[i]),
                          "hedged sign_many item %zu/%zu verifies", i, n);
                    CHECK(memcmp(out + 64 * i, rs, 64) != 0, "hedged nonce is fresh (item %zu)", i);
                }
                if (low_s)
                    CHECK(p256_sig_is_low_s(out + 64 * i), "low-s item %zu", i);
            }
        }

    /* ECDH */
    ok[n] = 0xa5;
    CHECK(p256_ecdh_many(out, ok, ei, n, engine) == 1, "ecdh_many %zu", n);
    CHECK(ok[n] == 0xa5, "no write past item %zu", n);
    for (size_t i = 0; i < n; i++) {
        uint8_t x[32];
        int w = p256_pubkey_ecdh(x, k[i], &peers[i]);
        CHECK(ok[i] == w && w == valid[i], "ecdh_many item %zu/%zu: ok %d, single %d", i, n, ok[i],
              w);
        if (w && ok[i])
            CHECK(memcmp(out + 32 * i, x, 32) == 0, "ecdh_many item %zu/%zu (engine %d) differs", i,
                  n, engine);
    }
}

/* The group's inversions alone, against the one-at-a-time ones. */
static void secret_inversions(void)
{
    for (size_t m = 1; m <= P256_BATCH_LANES; m++) {
        p256_scalar k[P256_BATCH_LANES], inv[P256_BATCH_LANES], one;
        p256_jac p[P256_BATCH_LANES];
        p256_aff a[P256_BATCH_LANES], b;
        uint64_t inf[P256_BATCH_LANES];
        uint8_t kb[32];
        for (size_t i = 0; i < m; i++) {
            do
                rng_fill(kb, 32);
            while (!p256_seckey_verify(kb));
            (void)p256_scalar_set_bytes_checked(&k[i], kb);
            p256_ecmult_gen(&p[i], &k[i]);
            if (i == m / 2 && m > 2)
                memset(&p[i], 0, sizeof p[i]); /* an infinity among them leaves the others */
        }
        p256_batch_scalar_inv(inv, k, m);
        p256_batch_to_aff(a, inf, p, m);
        for (size_t i = 0; i < m; i++) {
            uint64_t binf = p256_jac_to_aff(&b, &p[i]);
            p256_scalar_inv(&one, &k[i]);
            CHECK(memcmp(&one, &inv[i], sizeof one) == 0, "scalar inverse %zu of %zu", i, m);
            CHECK(inf[i] == binf && memcmp(&a[i], &b, sizeof b) == 0, "affine %zu of %zu", i, m);
        }
    }
}

static void secret_tests(const int *engines, int nengines)
{
    static const size_t big[] = {31, 64, 65, SMAX};
    uint8_t ok[1], out[65], k[32] = {[31] = 1};
    const uint8_t *kp[1] = {k};
    p256_pubkey pk;
    p256_sign_item si = {k, k, 32};
    p256_ecdh_item ei = {k, &keys[0], NULL};
    secret_inversions();
    for (int e = 0; e < nengines; e++) {
        for (size_t n = 0; n <= 17; n++)
            for (size_t shift = 0; shift < (n < 3 ? 12 : 2); shift++)
                secret_run(engines[e], n, shift, (int)((n + shift) & 1));
        for (size_t b = 0; b < sizeof big / sizeof big[0]; b++)
            secret_run(engines[e], big[b], b, 1);
    }
    ok[0] = 0x5a;
    CHECK(p256_pubkey_derive_many(&pk, ok, kp, 1, 0, 9) == 0 && ok[0] == 0x5a,
          "derive_many: unknown engine refused");
    CHECK(p256_sign_many(out, ok, &si, 1, 9, 0, P256_BATCH_SCALAR) == 0 && ok[0] == 0x5a,
          "sign_many: unknown nonce refused");
    CHECK(p256_sign_many(out, ok, &si, 1, P256_NONCE_SHA256, 0, 9) == 0 && ok[0] == 0x5a,
          "sign_many: unknown engine refused");
    CHECK(p256_ecdh_many(out, ok, &ei, 1, 9) == 0 && ok[0] == 0x5a, "ecdh_many: unknown engine");
    CHECK(p256_batch_secret_engine(P256_BATCH_OP_GEN, P256_BATCH_SCALAR) != NULL &&
          strcmp(p256_batch_secret_engine(P256_BATCH_OP_GEN, P256_BATCH_SCALAR), "scalar") == 0,
          "the scalar engine names itself");
    CHECK(p256_batch_secret_engine(2, P256_BATCH_SCALAR) == NULL &&
          p256_batch_secret_engine(P256_BATCH_OP_ECDH, 9) == NULL, "unknown op or engine: NULL");
    if (nengines == 2)
        CHECK(p256_ecdh_many(out, ok, &ei, 1, P256_BATCH_IFMA) == 0,
              "IFMA refused where it does not run");
    if (nengines == 3) { /* the lanes run exactly where the engine has them */
        const char *gen = p256_batch_secret_engine(P256_BATCH_OP_GEN, P256_BATCH_IFMA);
        const char *ecdh = p256_batch_secret_engine(P256_BATCH_OP_ECDH, P256_BATCH_AUTO);
#if defined(P256_IFMA_HAVE_GEN8)
        CHECK(strcmp(gen, P256_IFMA_ENGINE_NAME) == 0, "k*G on the lanes: %s", gen);
#else
        CHECK(strcmp(gen, "scalar") == 0, "k*G item by item: %s", gen);
#endif
#if defined(P256_IFMA_HAVE_CONST8)
        CHECK(strcmp(ecdh, P256_IFMA_ENGINE_NAME) == 0, "k*Q on the lanes: %s", ecdh);
#else
        CHECK(strcmp(ecdh, "scalar") == 0, "k*Q item by item: %s", ecdh);
#endif
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
    secret_tests(engines, nengines);
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

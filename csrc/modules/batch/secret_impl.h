/* SPDX-License-Identifier: Apache-2.0 */
/* modules/batch/secret_impl.h: the batch module's work with secrets (secret.h) and its API
 * functions p256_pubkey_derive_many, p256_sign_many, p256_ecdh_many (p256.h). */
#ifndef P256_MODULE_BATCH_SECRET_IMPL_H
#define P256_MODULE_BATCH_SECRET_IMPL_H

#include "secret.h"
#include "ifma_impl.h"

static const p256_scalar p256_batch_scalar_one = {{1, 0, 0, 0}};

/* r = a where mask is all-ones, r unchanged where 0. */
P256_FN void p256_batch_scalar_cmov(p256_scalar *r, const p256_scalar *a, uint64_t mask)
{
    for (int i = 0; i < 4; i++)
        r->v[i] = (r->v[i] & ~mask) | (a->v[i] & mask);
}

P256_FN int p256_batch_secret_lanes(int op, int engine)
{
    if (engine == P256_BATCH_AUTO)
        engine = p256_ifma_available() ? P256_BATCH_IFMA : P256_BATCH_SCALAR;
    if (engine != P256_BATCH_IFMA || !p256_ifma_available())
        return 0;
#if defined(P256_IFMA_HAVE_GEN8)
    if (op == P256_BATCH_OP_GEN)
        return 1;
#endif
#if defined(P256_IFMA_HAVE_CONST8)
    if (op == P256_BATCH_OP_ECDH)
        return 1;
#endif
    (void)op;
    return 0;
}

#if defined(P256_IFMA_HAVE_GEN8) || defined(P256_IFMA_HAVE_CONST8)
/* r[i] = (x[i] : y[i] : z[i]) for i < m: the lanes' output as the core's points. */
P256_FN void p256_batch_from_lanes(p256_jac *r, const p256_fe *x, const p256_fe *y,
                                   const p256_fe *z, size_t m)
{
    for (size_t i = 0; i < m; i++) {
        r[i].x = x[i];
        r[i].y = y[i];
        r[i].z = z[i];
    }
}
#endif

P256_FN void p256_batch_mult_group(p256_jac *r, const p256_scalar *k, const p256_aff *const *q,
                                   size_t m, int lanes)
{
#if defined(P256_IFMA_HAVE_GEN8) || defined(P256_IFMA_HAVE_CONST8)
    if (lanes && m >= P256_BATCH_SECRET_MIN_LANES) {
        p256_scalar kl[P256_BATCH_LANES];
        p256_fe x[P256_BATCH_LANES], y[P256_BATCH_LANES], z[P256_BATCH_LANES];
        int done = 0;
        for (size_t i = 0; i < P256_BATCH_LANES; i++) /* m is public */
            kl[i] = i < m ? k[i] : p256_batch_scalar_one;
#if defined(P256_IFMA_HAVE_GEN8)
        if (q == NULL) {
            p256_ifma_ecmult_gen8(x, y, z, kl);
            done = 1;
        }
#endif
#if defined(P256_IFMA_HAVE_CONST8)
        if (q != NULL) {
            p256_aff ql[P256_BATCH_LANES];
            for (size_t i = 0; i < P256_BATCH_LANES; i++)
                ql[i] = i < m ? *q[i] : p256_generator; /* padding: 1*G, public */
            p256_ifma_ecmult_const8(x, y, z, kl, ql);
            done = 1;
        }
#endif
        p256_memzero(kl, sizeof kl);
        if (done) { /* else: lanes for an operation the engine lacks (never asked for) */
            p256_batch_from_lanes(r, x, y, z, m);
            p256_memzero(x, sizeof x);
            p256_memzero(y, sizeof y);
            p256_memzero(z, sizeof z);
            return;
        }
    }
#endif
    (void)lanes;
    for (size_t i = 0; i < m; i++) {
        if (q == NULL)
            p256_ecmult_gen(&r[i], &k[i]);
        else
            p256_ecmult_const(&r[i], &k[i], q[i]);
    }
}

/* Prefix products c[i] = z[0] ... z[i], one inversion of c[m-1], then back down the
 * prefixes: z[i]^-1 = (c[m-1]^-1 z[m-1] ... z[i+1]) c[i-1]. An infinite point's Z (0) is
 * replaced by 1 in the products, so it cannot zero the others' inverses. */
P256_FN void p256_batch_to_aff(p256_aff *a, uint64_t *inf, const p256_jac *p, size_t m)
{
    p256_fe z[P256_BATCH_LANES], c[P256_BATCH_LANES], inv, zi, zi2;
    if (m == 0)
        return;
    memset(c, 0, sizeof c); /* gcc cannot see c[m - 1] written for 1 <= m <= 8 */
    for (size_t i = 0; i < m; i++) {
        inf[i] = p256_fe_mask_is_zero(&p[i].z);
        z[i] = p[i].z;
        p256_fe_cmov(&z[i], &p256_fe_one, inf[i]);
        if (i == 0)
            c[0] = z[0];
        else
            p256_fe_mul(&c[i], &c[i - 1], &z[i]);
    }
    p256_fe_inv(&inv, &c[m - 1]);
    for (size_t i = m; i-- > 0;) {
        if (i > 0) {
            p256_fe_mul(&zi, &inv, &c[i - 1]);
            p256_fe_mul(&inv, &inv, &z[i]);
        } else {
            zi = inv;
        }
        p256_fe_sqr(&zi2, &zi);
        p256_fe_mul(&a[i].x, &p[i].x, &zi2);
        p256_fe_mul(&zi2, &zi2, &zi);
        p256_fe_mul(&a[i].y, &p[i].y, &zi2);
        p256_fe_cmov(&a[i].x, &p256_fe_zero, inf[i]);
        p256_fe_cmov(&a[i].y, &p256_fe_zero, inf[i]);
    }
    p256_memzero(z, sizeof z);
    p256_memzero(c, sizeof c);
    p256_memzero(&inv, sizeof inv);
    p256_memzero(&zi, sizeof zi);
    p256_memzero(&zi2, sizeof zi2);
}

/* The same trick mod n, for a signing group's nonces. */
P256_FN void p256_batch_scalar_inv(p256_scalar *r, const p256_scalar *k, size_t m)
{
    p256_scalar c[P256_BATCH_LANES], inv;
    c[0] = k[0];
    for (size_t i = 1; i < m; i++)
        p256_scalar_mul(&c[i], &c[i - 1], &k[i]);
    p256_scalar_inv(&inv, &c[m - 1]);
    for (size_t i = m; i-- > 1;) {
        if (P256_PLANT(batch, 2)) /* control: each nonce's inverse from its neighbour's prefix */
            p256_scalar_mul(&r[i], &inv, &c[i > 1 ? i - 2 : 0]);
        else
            p256_scalar_mul(&r[i], &inv, &c[i - 1]);
        p256_scalar_mul(&inv, &inv, &k[i]);
    }
    r[0] = inv;
    p256_memzero(c, sizeof c);
    p256_memzero(&inv, sizeof inv);
}

/* A 32-byte secret key into *d, 1 is put in its place (by masks) when it is not in
 * [1, n-1] (or, reduce: 0 mod n, after the reduction); returns whether it was valid,
 * which is public (the caller learns it anyway). */
P256_FN int p256_batch_load_scalar(p256_scalar *d, const uint8_t k[32], int reduce)
{
    uint64_t ok;
    if (reduce) {
        p256_scalar_set_bytes_reduce(d, k);
        ok = ~p256_scalar_mask_is_zero(d);
    } else {
        ok = p256_scalar_set_bytes_checked(d, k) & ~p256_scalar_mask_is_zero(d);
    }
    p256_batch_scalar_cmov(d, &p256_batch_scalar_one, ~ok);
    P256_DECLASSIFY(&ok, sizeof ok);
    return ok != 0;
}

/* -- the API functions ---------------------------------------------------------------- */

/*
 * a[i] = k[i]*G (q NULL) or k[i]*q[i] (q[i] valid points), affine, for i < m <=
 * P256_BATCH_LANES, through one inversion; ok[i] = 1 unless k[i] is not a valid key (see
 * p256_batch_load_scalar) or the product is infinity: public verdicts. Constant time in k.
 */
P256_FN void p256_batch_mult_affine(p256_aff *a, uint8_t *ok, const uint8_t *const *k,
                                    const p256_aff *const *q, size_t m, int reduce, int lanes)
{
    p256_scalar d[P256_BATCH_LANES];
    p256_jac r[P256_BATCH_LANES];
    uint64_t inf[P256_BATCH_LANES];
    int good[P256_BATCH_LANES];
    if (m == 0)
        return;
    memset(r, 0, sizeof r); /* for gcc, as in p256_batch_to_aff: it cannot see that only */
    memset(d, 0, sizeof d); /* the m entries written are read */
    for (size_t i = 0; i < m; i++)
        good[i] = p256_batch_load_scalar(&d[i], k[i], reduce);
    p256_batch_mult_group(r, d, q, m, lanes);
    p256_batch_to_aff(a, inf, r, m);
    for (size_t i = 0; i < m; i++) {
        P256_DECLASSIFY(&inf[i], sizeof inf[i]); /* never, for a valid key and point */
        ok[i] = (uint8_t)(good[i] && !inf[i]);
    }
    p256_memzero(d, sizeof d);
    p256_memzero(r, sizeof r);
}

int p256_pubkey_derive_many(p256_pubkey *out, uint8_t *ok, const uint8_t *const *k, size_t n,
                            int reduce, int engine)
{
    p256_aff a[P256_BATCH_LANES];
    int lanes, dit;
    if (!p256_batch_engine_runs(engine))
        return 0;
    lanes = p256_batch_secret_lanes(P256_BATCH_OP_GEN, engine);
    dit = p256_dit_on();
    for (size_t g = 0; g < n; g += P256_BATCH_LANES) {
        const size_t m = n - g < P256_BATCH_LANES ? n - g : P256_BATCH_LANES;
        p256_batch_mult_affine(a, ok + g, k + g, NULL, m, reduce, lanes);
        for (size_t i = 0; i < m; i++) {
            P256_DECLASSIFY(&a[i], sizeof a[i]); /* the public key */
            if (ok[g + i])
                memcpy(&out[g + i], &a[i], sizeof a[i]);
            else
                memset(&out[g + i], 0, sizeof out[g + i]);
        }
    }
    p256_memzero(a, sizeof a);
    p256_dit_restore(dit);
    return 1;
}

/* s > n/2 becomes n - s (s is public then: variable time), as p256_sign_recoverable's low_s. */
P256_FN void p256_batch_low_s(uint8_t rs[64])
{
    if (memcmp(rs + 32, p256_half_n, 32) > 0) {
        p256_scalar s;
        (void)p256_scalar_set_bytes_checked(&s, rs + 32);
        p256_scalar_negate(&s, &s);
        p256_scalar_to_bytes(rs + 32, &s);
    }
}

/*
 * One group of signatures. Per item, as p256_ecdsa_sign_recoverable: e, the DRBG keyed by
 * d and e (and the hedged nonce's fresh bytes), its first candidate in [1, n-1]; then the
 * group's R = k*G, their affine x through one inversion, the nonces' inverses through
 * another. An item whose r or s comes out 0 (probability ~2^-256) is signed again by the
 * single signer with the same fresh bytes: it takes the DRBG's next candidate, as sign does.
 */
P256_FN void p256_batch_sign_group(uint8_t *rs, uint8_t *ok, const p256_sign_item *items,
                                   size_t m, p256_hash_id nonce_hash, int hedged, int lanes)
{
    p256_scalar d[P256_BATCH_LANES], e[P256_BATCH_LANES], k[P256_BATCH_LANES];
    p256_scalar kinv[P256_BATCH_LANES], r, s;
    p256_jac kg[P256_BATCH_LANES];
    p256_aff kga[P256_BATCH_LANES];
    uint64_t inf[P256_BATCH_LANES], valid;
    uint8_t extra[P256_BATCH_LANES][32], x[32], h1[32], kb[32];
    int good[P256_BATCH_LANES];
    p256_rfc6979 drbg;

    for (size_t i = 0; i < m; i++) {
        good[i] = p256_batch_load_scalar(&d[i], items[i].d, 0);
        if (hedged) {
            memset(extra[i], 0, 32); /* defined even where the RNG fails */
            good[i] &= p256_random_bytes(extra[i], 32); /* a failed RNG is public */
            P256_SECRET(extra[i], 32);
        }
        p256_scalar_from_digest(&e[i], items[i].digest, items[i].digest_len);
        p256_scalar_to_bytes(h1, &e[i]);
        p256_scalar_to_bytes(x, &d[i]);
        p256_rfc6979_init(&drbg, nonce_hash, x, h1, hedged ? extra[i] : NULL, hedged ? 32 : 0);
        for (;;) { /* RFC 6979 3.2 h.3, as sign: a candidate outside [1, n-1] is discarded */
            p256_rfc6979_generate(&drbg, kb);
            valid = p256_scalar_set_bytes_checked(&k[i], kb) & ~p256_scalar_mask_is_zero(&k[i]);
            P256_DECLASSIFY(&valid, sizeof valid);
            if (valid)
                break;
        }
        p256_rfc6979_clear(&drbg);
    }
    p256_batch_mult_group(kg, k, NULL, m, lanes);
    p256_batch_to_aff(kga, inf, kg, m); /* k in [1, n-1]: never infinity */
    p256_batch_scalar_inv(kinv, k, m);
    for (size_t i = 0; i < m; i++) {
        uint8_t *out = rs + 64 * i;
        p256_fe_to_bytes(x, &kga[i].x);
        p256_scalar_set_bytes_reduce(&r, x);
        p256_scalar_mul(&s, &r, &d[i]);
        p256_scalar_add(&s, &s, &e[i]);
        p256_scalar_mul(&s, &s, &kinv[i]);
        /* r and s are the output: public from here on */
        valid = ~p256_scalar_mask_is_zero(&r) & ~p256_scalar_mask_is_zero(&s);
        P256_DECLASSIFY(&valid, sizeof valid);
        ok[i] = (uint8_t)good[i];
        if (!good[i]) {
            memset(out, 0, 64);
            continue;
        }
        if (valid) {
            p256_scalar_to_bytes(out, &r);
            p256_scalar_to_bytes(out + 32, &s);
        } else {
            (void)p256_ecdsa_sign_recoverable(out, NULL, &d[i], items[i].digest,
                                              items[i].digest_len, nonce_hash,
                                              hedged ? extra[i] : NULL);
        }
        P256_DECLASSIFY(out, 64);
    }
    p256_memzero(d, sizeof d);
    p256_memzero(k, sizeof k);
    p256_memzero(kinv, sizeof kinv);
    p256_memzero(kg, sizeof kg);
    p256_memzero(kga, sizeof kga);
    p256_memzero(extra, sizeof extra);
    p256_memzero(kb, sizeof kb);
    p256_memzero(x, sizeof x);
    p256_memzero(&s, sizeof s);
}

int p256_sign_many(uint8_t *rs, uint8_t *ok, const p256_sign_item *items, size_t n, int nonce,
                   int low_s, int engine)
{
    const int hedged = nonce == P256_NONCE_HEDGED;
    int lanes, dit;
    if (!hedged && (nonce < P256_NONCE_SHA224 || nonce > P256_NONCE_SHA3_512))
        return 0;
    if (!p256_batch_engine_runs(engine))
        return 0;
    lanes = p256_batch_secret_lanes(P256_BATCH_OP_GEN, engine);
    dit = p256_dit_on();
    for (size_t g = 0; g < n; g += P256_BATCH_LANES) {
        const size_t m = n - g < P256_BATCH_LANES ? n - g : P256_BATCH_LANES;
        p256_batch_sign_group(rs + 64 * g, ok + g, items + g, m,
                              hedged ? P256_HASH_SHA256 : (p256_hash_id)nonce, hedged, lanes);
        for (size_t i = 0; low_s && i < m; i++)
            if (ok[g + i])
                p256_batch_low_s(rs + 64 * (g + i));
    }
    p256_dit_restore(dit);
    return 1;
}

/* Per group: an item whose peer has a per-key table is computed over it (the comb, faster
 * than any lane; which items have one is public), the rest together. */
int p256_ecdh_many(uint8_t *out, uint8_t *ok, const p256_ecdh_item *items, size_t n,
                   int engine)
{
    const uint8_t *k[P256_BATCH_LANES];
    const p256_aff *q[P256_BATCH_LANES];
    p256_aff a[P256_BATCH_LANES];
    uint8_t okc[P256_BATCH_LANES];
    size_t where[P256_BATCH_LANES];
    int lanes, dit;
    if (!p256_batch_engine_runs(engine))
        return 0;
    lanes = p256_batch_secret_lanes(P256_BATCH_OP_ECDH, engine);
    dit = p256_dit_on();
    for (size_t g = 0; g < n; g += P256_BATCH_LANES) {
        const size_t m = n - g < P256_BATCH_LANES ? n - g : P256_BATCH_LANES;
        size_t c = 0;
        for (size_t i = 0; i < m; i++) {
            const p256_ecdh_item *it = &items[g + i];
            const p256_pubtable *tab = it->table != NULL ? p256_pubtable_checked(it->table) : NULL;
            if (tab != NULL) {
                ok[g + i] = (uint8_t)p256_ecdh_point(out + 32 * (g + i), it->d, NULL, tab);
                if (!ok[g + i])
                    memset(out + 32 * (g + i), 0, 32);
                continue;
            }
            k[c] = it->d;
            q[c] = p256_pubkey_point(it->pk);
            where[c++] = g + i;
        }
        if (c > 0)
            p256_batch_mult_affine(a, okc, k, q, c, 0, lanes);
        for (size_t j = 0; j < c; j++) {
            ok[where[j]] = okc[j];
            if (okc[j])
                p256_fe_to_bytes(out + 32 * where[j], &a[j].x);
            else
                memset(out + 32 * where[j], 0, 32);
        }
    }
    p256_memzero(a, sizeof a);
    p256_dit_restore(dit);
    return 1;
}

const char *p256_batch_secret_engine(int op, int engine)
{
    if ((op != P256_BATCH_OP_GEN && op != P256_BATCH_OP_ECDH) || !p256_batch_engine_runs(engine))
        return NULL;
    return p256_batch_secret_lanes(op, engine) ? P256_IFMA_ENGINE_NAME : "scalar";
}

#endif /* P256_MODULE_BATCH_SECRET_IMPL_H */

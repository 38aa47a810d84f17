/* SPDX-License-Identifier: Apache-2.0 */
/* ecdsa_impl.h: ECDSA signing, verification and DER for ecdsa.h. */
#ifndef P256_ECDSA_IMPL_H
#define P256_ECDSA_IMPL_H

#include "ecdsa.h"
#include "ecmult_impl.h"
#include "modules/pubtable/main_impl.h"
#include "rfc6979_impl.h"

P256_FN int p256_ecdsa_sign(uint8_t rs[64], const p256_scalar *d, const uint8_t *digest,
                           size_t digest_len, p256_hash_id nonce_hash, const uint8_t *extra)
{
    p256_scalar e, k, kinv, r, s;
    p256_jac kg;
    p256_aff kga;
    p256_rfc6979 drbg;
    uint8_t x[32], h1[32], kb[32];
    uint64_t ok;

    /* e = bits2int(digest) mod n; its 32 bytes are also RFC 6979's bits2octets(h1). */
    p256_scalar_from_digest(&e, digest, digest_len);
    p256_scalar_to_bytes(h1, &e);
    p256_scalar_to_bytes(x, d);
    p256_rfc6979_init(&drbg, nonce_hash, x, h1, extra, extra ? 32 : 0);

    for (;;) {
        /* RFC 6979 3.2 h.3: a candidate outside [1, n-1] is discarded (probability < 2^-32). */
        p256_rfc6979_generate(&drbg, kb);
        ok = p256_scalar_set_bytes_checked(&k, kb) & ~p256_scalar_mask_is_zero(&k);
        P256_DECLASSIFY(&ok, sizeof ok);
        if (!ok)
            continue;

        /* r = x(kG) mod n; x < p < 2n, so one conditional subtraction. */
        p256_ecmult_gen(&kg, &k);
        (void)p256_jac_to_aff(&kga, &kg); /* k in [1, n-1]: never infinity */
        p256_fe_to_bytes(x, &kga.x);
        p256_scalar_set_bytes_reduce(&r, x);

        /* s = k^-1 (e + r d) mod n. */
        p256_scalar_inv(&kinv, &k);
        p256_scalar_mul(&s, &r, d);
        p256_scalar_add(&s, &s, &e);
        p256_scalar_mul(&s, &s, &kinv);

        /* r and s are the output: public from here on. r = 0 or s = 0: next candidate. */
        ok = ~p256_scalar_mask_is_zero(&r) & ~p256_scalar_mask_is_zero(&s);
        P256_DECLASSIFY(&ok, sizeof ok);
        if (ok)
            break;
    }
    p256_scalar_to_bytes(rs, &r);
    p256_scalar_to_bytes(rs + 32, &s);
    P256_DECLASSIFY(rs, 64);

    p256_rfc6979_clear(&drbg);
    p256_memzero(&k, sizeof k);
    p256_memzero(&kinv, sizeof kinv);
    p256_memzero(kb, sizeof kb);
    p256_memzero(x, sizeof x);
    p256_memzero(&kg, sizeof kg);
    p256_memzero(&kga, sizeof kga);
    return 1;
}

/* p - n, for the rare x(R) in [n, p) whose residue mod n is r: then x = r + n. */
static const uint64_t p256_p_minus_n[4] = {0x0c46353d039cdaaeULL, 0x4319055358e8617bULL,
                                           0x0000000000000000ULL, 0x0000000000000000ULL};

/*
 * 1 if the finite Jacobian point with coordinates x, z (z != 0) has affine x equal to r
 * or to r + n (the latter only if r + n < p), i.e. x(R) mod n == r. Comparing X with
 * r Z^2 avoids the inversion. Public data: variable time.
 */
P256_FN int p256_ecdsa_x_matches_vartime(const p256_fe *x, const p256_fe *z,
                                        const p256_scalar *r)
{
    p256_fe rz, z2, t;
    p256_fe_sqr(&z2, z);
    p256_fe_from_limbs(&rz, r->v);
    p256_fe_mul(&t, &rz, &z2);
    if (p256_fe_mask_eq(&t, x))
        return 1;
    if (p256_limbs_mask_lt(r->v, p256_p_minus_n)) {
        uint64_t rn[4];
        unsigned char c = 0;
        for (int i = 0; i < 4; i++)
            rn[i] = p256_adc(r->v[i], p256_n[i], &c);
        p256_fe_from_limbs(&rz, rn);
        p256_fe_mul(&t, &rz, &z2);
        if (p256_fe_mask_eq(&t, x))
            return 1;
    }
    return 0;
}

/* Verification by q's wNAF (tab NULL) or by the per-key table tab of the same q. */
P256_FN int p256_ecdsa_verify_with_vartime(const p256_aff *q, const p256_pubtable *tab,
                                          const uint8_t rs[64], const uint8_t *digest,
                                          size_t digest_len)
{
    p256_scalar r, s, e, w, u1, u2;
    p256_jac pt;

    if (!p256_scalar_set_bytes_checked(&r, rs) || p256_scalar_mask_is_zero(&r))
        return 0;
    if (!p256_scalar_set_bytes_checked(&s, rs + 32) || p256_scalar_mask_is_zero(&s))
        return 0;
    p256_scalar_from_digest(&e, digest, digest_len);

    p256_scalar_inv_vartime(&w, &s);
    p256_scalar_mul(&u1, &e, &w);
    p256_scalar_mul(&u2, &r, &w);
    if (tab != NULL)
        p256_ecmult_pubtable_vartime(&pt, &u1, &u2, tab);
    else
        p256_ecmult_vartime(&pt, &u1, &u2, q);
    if (p256_fe_mask_is_zero(&pt.z))
        return 0;
    return p256_ecdsa_x_matches_vartime(&pt.x, &pt.z, &r);
}

P256_FN int p256_ecdsa_verify_vartime(const p256_aff *q, const uint8_t rs[64],
                                     const uint8_t *digest, size_t digest_len)
{
    return p256_ecdsa_verify_with_vartime(q, NULL, rs, digest, digest_len);
}

P256_FN int p256_ecdsa_verify_pubtable_vartime(const p256_pubtable *tab, const uint8_t rs[64],
                                              const uint8_t *digest, size_t digest_len)
{
    return p256_ecdsa_verify_with_vartime(NULL, tab, rs, digest, digest_len);
}

/*
 * One DER INTEGER holding a value in [0, 2^256): minimal length (no leading 0x00 unless
 * the next byte has its top bit set), non-negative, at most 32 value bytes.
 */
P256_FN int p256_der_integer(uint8_t out[32], const uint8_t **p, const uint8_t *end)
{
    const uint8_t *c = *p;
    size_t len;

    if (end - c < 2 || c[0] != 0x02)
        return 0;
    len = c[1];
    c += 2;
    if (len == 0 || len > 33 || (size_t)(end - c) < len)
        return 0; /* also rejects long-form lengths (0x81..): never needed below 128 */
    if (c[0] & 0x80)
        return 0; /* negative */
    if (len > 1 && c[0] == 0x00 && !(c[1] & 0x80))
        return 0; /* non-minimal */
    if (len == 33) {
        if (c[0] != 0x00)
            return 0; /* a value of 2^256 or more */
        c++;
        len--; /* the sign byte; c[0] >= 0x80 now, 32 value bytes */
    }
    memset(out, 0, 32);
    memcpy(out + 32 - len, c, len);
    *p = c + len;
    return 1;
}

P256_FN int p256_sig_der_decode(uint8_t rs[64], const uint8_t *der, size_t len)
{
    const uint8_t *p = der, *end;
    if (len < 2 || der[0] != 0x30 || der[1] >= 0x80 || (size_t)der[1] + 2 != len)
        return 0; /* the content is at most 70 bytes, so DER uses the short length form */
    p = der + 2;
    end = der + len;
    if (!p256_der_integer(rs, &p, end) || !p256_der_integer(rs + 32, &p, end))
        return 0;
    return p == end;
}

P256_FN size_t p256_der_put_integer(uint8_t *out, const uint8_t v[32])
{
    size_t i = 0, n;
    while (i < 31 && v[i] == 0)
        i++;
    n = 32 - i;
    out[0] = 0x02;
    if (v[i] & 0x80) {
        out[1] = (uint8_t)(n + 1);
        out[2] = 0x00;
        memcpy(out + 3, v + i, n);
        return n + 3;
    }
    out[1] = (uint8_t)n;
    memcpy(out + 2, v + i, n);
    return n + 2;
}

P256_FN size_t p256_sig_der_encode(uint8_t out[72], const uint8_t rs[64])
{
    size_t n = 2;
    n += p256_der_put_integer(out + n, rs);
    n += p256_der_put_integer(out + n, rs + 32);
    out[0] = 0x30;
    out[1] = (uint8_t)(n - 2);
    return n;
}

#endif /* P256_ECDSA_IMPL_H */

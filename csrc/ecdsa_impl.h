/* SPDX-License-Identifier: Apache-2.0 */
/* ecdsa_impl.h: ECDSA signing, verification and DER for ecdsa.h. */
#ifndef P256_ECDSA_IMPL_H
#define P256_ECDSA_IMPL_H

#include "ecdsa.h"
#include "ecmult_impl.h"
#include "rfc6979_impl.h"

P256_FN int p256_ecdsa_recovery_id(const p256_aff *r)
{
    /* x < n exactly when it loads as a scalar; both tests are masks, no branch. */
    p256_scalar xs;
    uint8_t x[32], y[32];
    uint64_t id;
    p256_fe_to_bytes(x, &r->x);
    p256_fe_to_bytes(y, &r->y);
    id = (uint64_t)(y[31] & 1) | (~p256_scalar_set_bytes_checked(&xs, x) & 2);
    p256_memzero(&xs, sizeof xs);
    p256_memzero(x, sizeof x);
    p256_memzero(y, sizeof y);
    return (int)id;
}

P256_FN int p256_ecdsa_sign_recoverable(uint8_t rs[64], int *recid, const p256_scalar *d,
                                       const uint8_t *digest, size_t digest_len,
                                       p256_hash_id nonce_hash, const uint8_t *extra)
{
    p256_scalar e, k, kinv, r, s;
    p256_jac kg;
    p256_aff kga;
    p256_fe zi;
    p256_rfc6979 drbg;
    uint8_t x[32], h1[32], kb[32];
    uint64_t ok, id;

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

        /* r = x(kG) mod n; x < p < 2n, so one conditional subtraction. kG is finite
         * (k in [1, n-1]). Its Z^-1 mod p and k^-1 mod n are one p256_modinv_pair: the
         * two divstep chains interleaved cost less than the two inversions apart. */
        p256_ecmult_gen(&kg, &k);
        p256_modinv_pair(zi.v, kg.z.v, &p256_modinv_p, kinv.v, k.v, &p256_modinv_n);
        p256_fe_from_plain_inverse(&zi, &zi);
        p256_jac_to_aff_zinv(&kga, &kg, &zi);
        p256_fe_to_bytes(x, &kga.x);
        p256_scalar_set_bytes_reduce(&r, x);

        /* s = k^-1 (e + r d) mod n. */
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
    /* The recovery id, from R itself (no extra multiplication). */
    id = (uint64_t)p256_ecdsa_recovery_id(&kga);
    P256_DECLASSIFY(&id, sizeof id);
    if (recid != NULL)
        *recid = (int)id;

    p256_rfc6979_clear(&drbg);
    p256_memzero(&k, sizeof k);
    p256_memzero(&kinv, sizeof kinv);
    p256_memzero(kb, sizeof kb);
    p256_memzero(x, sizeof x);
    p256_memzero(&kg, sizeof kg);
    p256_memzero(&kga, sizeof kga);
    p256_memzero(&zi, sizeof zi);
    return 1;
}

P256_FN int p256_ecdsa_sign(uint8_t rs[64], const p256_scalar *d, const uint8_t *digest,
                           size_t digest_len, p256_hash_id nonce_hash, const uint8_t *extra)
{
    return p256_ecdsa_sign_recoverable(rs, NULL, d, digest, digest_len, nonce_hash, extra);
}

/* p - n, for the rare x(R) in [n, p) whose residue mod n is r: then x = r + n. */
static const uint64_t p256_p_minus_n[4] = {0x0c46353d039cdaaeULL, 0x4319055358e8617bULL,
                                           0x0000000000000000ULL, 0x0000000000000000ULL};

P256_FN int p256_ecdsa_r_plus_n_vartime(uint64_t x[4], const p256_scalar *r)
{
    unsigned char c = 0;
    if (!p256_limbs_mask_lt(r->v, p256_p_minus_n))
        return 0;
    for (int i = 0; i < 4; i++)
        x[i] = p256_adc(r->v[i], p256_n[i], &c);
    return 1;
}

P256_FN int p256_ecdsa_r_point_vartime(p256_aff *big_r, const p256_scalar *r, int recid)
{
    uint8_t enc[33];
    uint64_t x[4];
    enc[0] = (uint8_t)(0x02 | (recid & 1));
    if (!(recid & 2))
        memcpy(x, r->v, sizeof x);
    else if (!p256_ecdsa_r_plus_n_vartime(x, r))
        return P256_ECDSA_R_PLUS_N;
    p256_limbs_to_be32(enc + 1, x);
    if (p256_aff_decode_status_vartime(big_r, enc, sizeof enc) != P256_SEC1_OK)
        return P256_ECDSA_R_NO_POINT;
    return P256_ECDSA_R_OK;
}

/*
 * 1 if the finite Jacobian point with coordinates x, z (z != 0) has affine x equal to r
 * or to r + n (the latter only if r + n < p), i.e. x(R) mod n == r. Comparing X with
 * r Z^2 avoids the inversion. Public data: variable time.
 */
P256_FN int p256_ecdsa_x_matches_vartime(const p256_fe *x, const p256_fe *z,
                                        const p256_scalar *r)
{
    p256_fe rz, z2, t;
    uint64_t rn[4];
    p256_fe_sqr(&z2, z);
    p256_fe_from_limbs(&rz, r->v);
    p256_fe_mul(&t, &rz, &z2);
    if (p256_fe_mask_eq(&t, x))
        return 1;
    if (p256_ecdsa_r_plus_n_vartime(rn, r)) {
        p256_fe_from_limbs(&rz, rn);
        p256_fe_mul(&t, &rz, &z2);
        if (p256_fe_mask_eq(&t, x))
            return 1;
    }
    return 0;
}

P256_FN int p256_ecdsa_verify_scalars_vartime(p256_scalar *r, p256_scalar *u1, p256_scalar *u2,
                                              const uint8_t rs[64], const uint8_t *digest,
                                              size_t digest_len)
{
    p256_scalar s, e, w;

    if (!p256_scalar_set_bytes_checked(r, rs) || p256_scalar_mask_is_zero(r))
        return 0;
    if (!p256_scalar_set_bytes_checked(&s, rs + 32) || p256_scalar_mask_is_zero(&s))
        return 0;
    p256_scalar_from_digest(&e, digest, digest_len);

    p256_scalar_inv_vartime(&w, &s);
    p256_scalar_mul(u1, &e, &w);
    p256_scalar_mul(u2, r, &w);
    return 1;
}

/* Verification by q's wNAF (tab NULL) or by the per-key table tab of the same q. */
P256_FN int p256_ecdsa_verify_with_vartime(const p256_aff *q, const p256_pubtable *tab,
                                          const uint8_t rs[64], const uint8_t *digest,
                                          size_t digest_len)
{
    p256_scalar r, u1, u2;
    p256_jac pt;

    if (!p256_ecdsa_verify_scalars_vartime(&r, &u1, &u2, rs, digest, digest_len))
        return 0;
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

P256_FN int p256_ecdsa_verify_sec1_vartime(const uint8_t *pub, size_t pub_len,
                                          const uint8_t rs[64], const uint8_t *digest,
                                          size_t digest_len)
{
    p256_aff q;
    if (!p256_aff_decode_vartime(&q, pub, pub_len))
        return 0;
    return p256_ecdsa_verify_vartime(&q, rs, digest, digest_len);
}

/*
 * One DER TLV at *p (strict: definite length, the short form below 128, a long form of
 * at most 4 octets with no leading zero and only for lengths >= 128): its tag, value
 * [*v, *v + *vlen), *p moved past it. P256_SIGDER_OK or the reason (EMPTY, LENGTH,
 * OVERRUN).
 */
P256_FN int p256_der_tlv(const uint8_t **p, const uint8_t *end, uint8_t *tag,
                         const uint8_t **v, size_t *vlen)
{
    const uint8_t *c = *p;
    size_t len;
    if (c >= end)
        return P256_SIGDER_EMPTY;
    *tag = *c++;
    if (c >= end)
        return P256_SIGDER_LENGTH;
    len = *c++;
    if (len == 0x80)
        return P256_SIGDER_LENGTH; /* indefinite: BER */
    if (len > 0x80) {
        size_t count = len & 0x7f;
        if (count > 4 || count > (size_t)(end - c) || c[0] == 0)
            return P256_SIGDER_LENGTH;
        for (len = 0; count > 0; count--)
            len = (len << 8) | *c++;
        if (len < 0x80)
            return P256_SIGDER_LENGTH; /* long form where the short one fits */
    }
    if (len > (size_t)(end - c))
        return P256_SIGDER_OVERRUN;
    *v = c;
    *vlen = len;
    *p = c + len;
    return P256_SIGDER_OK;
}

/*
 * One DER INTEGER at *p into out (32 bytes, big endian): OK; INTEGER for an empty or
 * non-minimal one (a superfluous leading 0x00 or 0xFF); range_bad = 1 (and OK) for a
 * minimal one that is negative or 2^256 or more; NOT_INTEGER / the TLV's reasons.
 */
P256_FN int p256_der_integer(uint8_t out[32], int *range_bad, const uint8_t **p,
                             const uint8_t *end)
{
    const uint8_t *v;
    size_t len;
    uint8_t tag;
    int st;
    if (*p >= end)
        return P256_SIGDER_NOT_INTEGER; /* r or s missing */
    st = p256_der_tlv(p, end, &tag, &v, &len);
    if (st != P256_SIGDER_OK)
        return st;
    if (tag != 0x02)
        return P256_SIGDER_NOT_INTEGER;
    if (len == 0)
        return P256_SIGDER_INTEGER;
    if (len > 1 && ((v[0] == 0x00 && !(v[1] & 0x80)) || (v[0] == 0xff && (v[1] & 0x80))))
        return P256_SIGDER_INTEGER;
    if (v[0] & 0x80) {
        *range_bad = 1; /* negative */
        return P256_SIGDER_OK;
    }
    if (v[0] == 0x00) { /* the sign byte of a value whose top bit is set */
        v++;
        len--;
    }
    if (len > 32) {
        *range_bad = 1;
        return P256_SIGDER_OK;
    }
    memset(out, 0, 32);
    memcpy(out + 32 - len, v, len);
    return P256_SIGDER_OK;
}

P256_FN int p256_sig_der_parse(uint8_t rs[64], const uint8_t *der, size_t len)
{
    const uint8_t *p = der, *end = der + len, *body, *body_end;
    size_t body_len;
    uint8_t tag, tmp[64];
    int st, r_bad = 0, s_bad = 0;

    if (len == 0)
        return P256_SIGDER_EMPTY;
    if (der[0] != 0x30)
        return P256_SIGDER_NOT_SEQUENCE;
    st = p256_der_tlv(&p, end, &tag, &body, &body_len);
    if (st != P256_SIGDER_OK)
        return st;
    if (p != end)
        return P256_SIGDER_TRAILING;
    body_end = body + body_len;
    if ((st = p256_der_integer(tmp, &r_bad, &body, body_end)) != P256_SIGDER_OK ||
        (st = p256_der_integer(tmp + 32, &s_bad, &body, body_end)) != P256_SIGDER_OK)
        return st;
    if (body != body_end)
        return P256_SIGDER_EXTRA;
    if (r_bad)
        return P256_SIGDER_R_RANGE;
    if (s_bad)
        return P256_SIGDER_S_RANGE;
    memcpy(rs, tmp, 64);
    return P256_SIGDER_OK;
}

P256_FN int p256_sig_der_decode(uint8_t rs[64], const uint8_t *der, size_t len)
{
    return p256_sig_der_parse(rs, der, len) == P256_SIGDER_OK;
}

P256_FN int p256_sig_parse_any(uint8_t rs[64], const uint8_t *sig, size_t len, int raw)
{
    p256_scalar v;
    int st;
    if (raw) {
        if (len != 64)
            return P256_SIGDER_RAW_LENGTH;
        memcpy(rs, sig, 64);
    } else if ((st = p256_sig_der_parse(rs, sig, len)) != P256_SIGDER_OK) {
        return st;
    }
    if (!p256_scalar_set_bytes_checked(&v, rs) || p256_scalar_mask_is_zero(&v))
        return P256_SIGDER_R_RANGE;
    if (!p256_scalar_set_bytes_checked(&v, rs + 32) || p256_scalar_mask_is_zero(&v))
        return P256_SIGDER_S_RANGE;
    return P256_SIGDER_OK;
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

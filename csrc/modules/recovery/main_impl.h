/* SPDX-License-Identifier: Apache-2.0 */
/* modules/recovery/main_impl.h: public-key recovery (recovery.h) and its API function. */
#ifndef P256_MODULE_RECOVERY_MAIN_IMPL_H
#define P256_MODULE_RECOVERY_MAIN_IMPL_H

#include "recovery.h"
#include "../../ecdsa_impl.h"

P256_FN int p256_ecdsa_recover_vartime(p256_aff *q, const uint8_t rs[64], const uint8_t *digest,
                                      size_t digest_len, int recid)
{
    p256_scalar r, s, e, w, u1, u2;
    p256_aff big_r;
    p256_jac pt;

    if (recid < 0 || recid > 3)
        return P256_ECDSA_RECOVER_RANGE;
    if (!p256_scalar_set_bytes_checked(&r, rs) || p256_scalar_mask_is_zero(&r) ||
        !p256_scalar_set_bytes_checked(&s, rs + 32) || p256_scalar_mask_is_zero(&s))
        return P256_ECDSA_RECOVER_RANGE;
    /* R.x = r, or r + n when that is still below p (recid bit 1). */
    switch (p256_ecdsa_r_point_vartime(&big_r, &r, recid)) {
    case P256_ECDSA_R_OK:
        break;
    case P256_ECDSA_R_PLUS_N:
        return P256_ECDSA_RECOVER_R_PLUS_N;
    default:
        return P256_ECDSA_RECOVER_NO_POINT;
    }
    /* q = u1 G + u2 R with u1 = -e/r, u2 = s/r: one double-base multiplication. */
    p256_scalar_from_digest(&e, digest, digest_len);
    p256_scalar_inv_vartime(&w, &r);
    p256_scalar_mul(&u1, &e, &w);
    p256_scalar_negate(&u1, &u1);
    if (P256_PLANT(recover, 1))
        u2 = s; /* negative control (tests/c/test_recover.c): s instead of s/r */
    else
        p256_scalar_mul(&u2, &s, &w);
    p256_ecmult_vartime(&pt, &u1, &u2, &big_r);
    if (p256_fe_mask_is_zero(&pt.z))
        return P256_ECDSA_RECOVER_INFINITY;
    {
        p256_fe zi, zi2;
        p256_fe_inv_vartime(&zi, &pt.z);
        p256_fe_sqr(&zi2, &zi);
        p256_fe_mul(&q->x, &pt.x, &zi2);
        p256_fe_mul(&zi2, &zi2, &zi);
        p256_fe_mul(&q->y, &pt.y, &zi2);
    }
    if (!p256_ecdsa_verify_vartime(q, rs, digest, digest_len))
        return P256_ECDSA_RECOVER_UNVERIFIED;
    return P256_ECDSA_RECOVER_OK;
}

/* p256.h's reasons are this module's. */
typedef char p256_recover_reasons_agree[(P256_RECOVER_OK == P256_ECDSA_RECOVER_OK &&
                                         P256_RECOVER_R_PLUS_N == P256_ECDSA_RECOVER_R_PLUS_N &&
                                         P256_RECOVER_NO_POINT == P256_ECDSA_RECOVER_NO_POINT &&
                                         P256_RECOVER_INFINITY == P256_ECDSA_RECOVER_INFINITY &&
                                         P256_RECOVER_UNVERIFIED ==
                                             P256_ECDSA_RECOVER_UNVERIFIED &&
                                         P256_RECOVER_RANGE == P256_ECDSA_RECOVER_RANGE) ? 1 : -1];

int p256_pubkey_recover(p256_pubkey *pk, const uint8_t rs[64], const uint8_t *digest,
                        size_t digest_len, int recid)
{
    p256_aff q;
    int st = p256_ecdsa_recover_vartime(&q, rs, digest, digest_len, recid);
    if (st == P256_ECDSA_RECOVER_OK)
        memcpy(pk, &q, sizeof q);
    return st;
}

#endif /* P256_MODULE_RECOVERY_MAIN_IMPL_H */

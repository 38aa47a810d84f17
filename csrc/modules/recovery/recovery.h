/* SPDX-License-Identifier: Apache-2.0 */
/*
 * modules/recovery/recovery.h: public-key recovery from an ECDSA signature (SEC 1 v2
 * 4.1.6), a module of the core: p256.c includes its main_impl.h after the core's layers,
 * as libsecp256k1 includes src/modules/<name>/main_impl.h. Its API function is
 * p256_pubkey_recover (p256.h); the signer's half, the recovery id of a signature, is the
 * ECDSA layer's (p256_ecdsa_recovery_id: it comes from the R the signer computed).
 * Harness: tests/c/test_recover.c.
 */
#ifndef P256_MODULE_RECOVERY_H
#define P256_MODULE_RECOVERY_H

#include "../../ecdsa.h"

/*
 * q = r^-1 (s R - e G) for the R whose x is r (recid bit 1 clear) or r + n (set) and
 * whose y has the parity of recid bit 0, checked by verifying the signature under q:
 * one double-base multiplication u1 G + u2 R (u1 = -e/r, u2 = s/r) and one verification.
 * Returns P256_ECDSA_RECOVER_OK (q set) or why there is no key. Variable time: public data.
 */
#define P256_ECDSA_RECOVER_OK 0
#define P256_ECDSA_RECOVER_R_PLUS_N 1   /* recid 2 or 3 and r + n >= p: no such R */
#define P256_ECDSA_RECOVER_NO_POINT 2   /* no curve point has that x */
#define P256_ECDSA_RECOVER_INFINITY 3   /* q would be the point at infinity */
#define P256_ECDSA_RECOVER_UNVERIFIED 4 /* q does not verify the signature (cannot happen:
                                         * the check against a wrong computation) */
#define P256_ECDSA_RECOVER_RANGE 5      /* r or s outside [1, n-1], or recid outside 0..3 */
P256_FN int p256_ecdsa_recover_vartime(p256_aff *q, const uint8_t rs[64], const uint8_t *digest,
                                      size_t digest_len, int recid);

#endif /* P256_MODULE_RECOVERY_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_core.c: constant-time check of every secret-handling path of the core.
 *
 * Built with -DP256_CTIME_TEST and run under valgrind memcheck (make ctime). Private
 * scalars and nonces are marked undefined (P256_SECRET); memcheck then reports every
 * conditional branch and every memory address computed from them, so a secret-dependent
 * branch or table index anywhere below (field, scalar, group, comb and window lookups,
 * inversion, RFC 6979, DER encoding) fails the build. Values that become public (the
 * signature, a yes/no the caller sees anyway) are declassified inside the core with
 * P256_DECLASSIFY, which is the only place where it says so.
 *
 * Not named test_*.c: it is meant for valgrind, not for the plain `make ctest` run.
 */
#include "ctime.h"

/* Eight fresh keys: a branch on a value the core declassifies (the low-s choice, say)
 * takes each side in some round. run_ctime's core_noavx2 runs two (see there). */
static int ctime_core_rounds = 8;

int main(void)
{
    uint8_t d[32], k[32], pub[65], peer[65], rs[64], shared[32], out[65];
    uint8_t digest[48];
    int ok, rounds = ctime_core_rounds;

    memset(digest, 0x5a, sizeof digest);
    for (int i = 0; i < rounds; i++) {
        /* A fresh key each round, so different secrets take the same paths. */
        ok = p256_seckey_generate(d);
        public(&ok, sizeof ok);
        if (!ok)
            return 2;
        secret(d, sizeof d);
        ok = p256_seckey_verify(d);
        public(&ok, sizeof ok);

        ok = p256_pubkey_create(pub, d);
        public(&ok, sizeof ok);
        public(pub, sizeof pub);

        /* Hedged and deterministic signatures, every nonce hash. */
        ok = p256_sign(rs, d, digest, 32, P256_NONCE_HEDGED);
        public(&ok, sizeof ok);
        for (int h = P256_NONCE_SHA224; h <= P256_NONCE_SHA3_512; h++) {
            ok = p256_sign(rs, d, digest, (size_t)(h == P256_NONCE_SHA224 ? 28 : 32 + h), h);
            public(&ok, sizeof ok);
        }

        /* The recoverable form, low-s or not: the recovery id comes from the secret R. */
        {
            int recid;
            ok = p256_sign_recoverable(rs, &recid, d, digest, 32, P256_NONCE_HEDGED, i & 1);
            public(&ok, sizeof ok);
            public(&recid, sizeof recid);
        }

        /* ECDH against the previous round's key (public), by bytes and by key object. */
        if (i == 0)
            memcpy(peer, pub, sizeof peer);
        ok = p256_ecdh(shared, d, peer, sizeof peer);
        public(&ok, sizeof ok);
        {
            p256_pubkey q;
            ok = p256_pubkey_load(&q, peer, sizeof peer) == P256_POINT_OK &&
                 p256_pubkey_ecdh(shared, d, &q);
            public(&ok, sizeof ok);
            ok = p256_pubkey_derive(&q, d);
            public(&ok, sizeof ok);
        }
        memcpy(peer, pub, sizeof peer);

        /* The batch module's work with secrets: d, an invalid key (0: the masks put 1 in
         * its place) and d again, as one group of keys, signatures and ECDH. */
        {
            uint8_t keys[3][32], pts[3 * 64], ok3[3];
            const uint8_t *kp[3] = {keys[0], keys[1], keys[2]};
            p256_pubkey many[3], q;
            p256_sign_item si[3];
            p256_ecdh_item ei[3];
            memcpy(keys[0], d, 32);
            memset(keys[1], 0, 32);
            memcpy(keys[2], d, 32);
            secret(keys, sizeof keys);
            (void)p256_pubkey_load(&q, peer, sizeof peer);
            for (int j = 0; j < 3; j++) {
                si[j].d = keys[j];
                si[j].digest = digest;
                si[j].digest_len = 32;
                ei[j].d = keys[j];
                ei[j].pk = &q;
                ei[j].table = NULL;
            }
            ok = p256_pubkey_derive_many(many, ok3, kp, 3, i & 1, P256_BATCH_AUTO);
            public(&ok, sizeof ok);
            ok = p256_sign_many(pts, ok3, si, 3, i & 1 ? P256_NONCE_HEDGED : P256_NONCE_SHA256,
                                i & 1, P256_BATCH_AUTO);
            public(&ok, sizeof ok);
            ok = p256_ecdh_many(pts, ok3, ei, 3, P256_BATCH_AUTO);
            public(&ok, sizeof ok);
        }

        /* The low-level multiplications with a secret scalar (any 32 bytes). */
        for (int j = 0; j < 32; j++)
            k[j] = (uint8_t)(d[j] ^ (uint8_t)(0x3c * j + i));
        public(k, sizeof k);
        if (i == 1)
            memset(k, 0xff, sizeof k); /* >= n: exercises the reduction */
        secret(k, sizeof k);
        ok = p256_mult_base(out, k);
        public(&ok, sizeof ok);
        ok = p256_mult(out, k, peer, sizeof peer);
        public(&ok, sizeof ok);
    }
    printf("ctime_core: %d rounds done\n", rounds);
    return 0;
}

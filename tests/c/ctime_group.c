/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_group.c: constant-time check (valgrind, make ctime) of the group API of p256.h
 * with everything secret: the scalars and the points (a point made from a secret scalar,
 * and the identity, which must not stand out), the uniform bytes of the map to the curve
 * (a hashed password, in an OPRF): p256_point_mult, _mult_base, _multi_mult (a zero
 * scalar and an identity term among the terms), _table_mult (secret scalars over a table
 * of a public point), _add, _double, _negate, _equal,
 * _serialize, _to_pubkey, _map_to_curve (48 and 96 bytes), and every p256_modn_*
 * function (0 and n - 1 among the values). What the API declassifies itself (equality's
 * verdict, whether a point is the identity, inv's zero) is the only thing that may be.
 *
 * Negative controls (run_ctime -c group_map, group_mult, group_multi, group_modn,
 * group_table): a branch on the result of the map, of k*P, of the constant-time sum, of
 * the inversion mod n and of k*P over a table
 * must be reported, or valgrind lost track of the secret on that path and a clean run of
 * it would mean nothing (make ctime requires each report).
 */
#include "ctime.h"

int main(void)
{
    static uint64_t scratch[1 << 13];
    static const uint8_t nm1[32] = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
                                    0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17,
                                    0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x50};
    uint8_t k[4][32], uniform[96], out[65], r32[32];
    p256_point pt[4], r, s, pub;
    static p256_point_table tab;
    const uint8_t *kp[4];
    const p256_point *pp[4];
    p256_pubkey pk;
    volatile int sink = 0;
    int ok;

    if (p256_point_multi_mult_scratch_size(4) > sizeof scratch)
        return 2;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) {
            ok = p256_seckey_generate(k[i]);
            public(&ok, sizeof ok);
            if (!ok)
                return 2;
            secret(k[i], 32);
            p256_point_mult_base(&pt[i], k[i]);     /* a secret point */
            kp[i] = k[i];
            pp[i] = &pt[i];
        }
        /* the identity and the edge scalars, as secret as the rest */
        p256_point_identity(&pt[3]);
        secret(&pt[3], sizeof pt[3]);
        memset(k[2], 0, 32);
        if (round == 1)
            memcpy(k[1], nm1, 32);
        secret(k[1], 32);
        secret(k[2], 32);

        p256_point_add(&r, &pt[0], &pt[1]);
        p256_point_add(&r, &r, &r);                /* P + P */
        p256_point_add(&s, &pt[0], &pt[3]);        /* P + O */
        p256_point_negate(&s, &s);
        p256_point_add(&s, &s, &pt[0]);            /* P + (-P) */
        p256_point_double(&s, &pt[1]);
        ok = p256_point_equal(&r, &s);
        public(&ok, sizeof ok);

        for (int i = 0; i < 4; i++) {
            p256_point_mult(&r, k[i], &pt[(i + 1) % 4]);
            p256_point_mult(&s, k[(i + 1) % 4], &pt[3]); /* k O */
            if (ctime_canary == CTIME_CANARY_GROUP_MULT && (((const uint8_t *)&r)[0] & 1))
                sink++; /* the deliberate leak, after k*P */
            p256_point_mult_base(&s, k[i]);
            ok = p256_point_to_pubkey(&pk, &r);
            public(&ok, sizeof ok);
            p256_point_serialize(out, &r, i & 1);
            public(out, sizeof out);
        }
        /* several secret scalars over a table of one public point (k[2] is 0, k[1] n - 1) */
        pub = pt[0];
        public(&pub, sizeof pub);
        ok = p256_point_table_build_vartime(&tab, &pub);
        public(&ok, sizeof ok);
        for (int i = 0; i < 4; i++) {
            p256_point_table_mult(&r, k[i], &tab);
            if (ctime_canary == CTIME_CANARY_GROUP_TABLE && (((const uint8_t *)&r)[16] & 1))
                sink++; /* the deliberate leak, after k*P over the table */
            p256_point_serialize(out, &r, 1);
            public(out, sizeof out);
        }

        ok = p256_point_multi_mult(&r, kp, pp, 4, scratch, sizeof scratch);
        public(&ok, sizeof ok);
        if (ctime_canary == CTIME_CANARY_GROUP_MULTI && (((const uint8_t *)&r)[8] & 1))
            sink++; /* the deliberate leak, after the sum */

        for (int i = 0; i < 96; i++)
            uniform[i] = (uint8_t)(k[0][i % 32] ^ (uint8_t)(i * 37 + round));
        secret(uniform, sizeof uniform);
        p256_point_map_to_curve(&r, uniform, 48);
        p256_point_map_to_curve(&s, uniform, 96);
        if (ctime_canary == CTIME_CANARY_GROUP_MAP && (((const uint8_t *)&s)[0] & 1))
            sink++; /* the deliberate leak, after the map */

        /* scalars mod n: k[1] is n - 1 in round 1, k[2] is 0 */
        p256_modn_reduce(r32, uniform, 48);
        ok = p256_modn_check(k[0]);
        public(&ok, sizeof ok);
        p256_modn_add(r32, k[0], k[1]);
        p256_modn_sub(r32, r32, k[2]);
        p256_modn_mul(r32, r32, k[3]);
        p256_modn_neg(r32, r32);
        for (int i = 0; i < 4; i++) {
            ok = p256_modn_inv(r32, k[i]);
            public(&ok, sizeof ok);
            if (ctime_canary == CTIME_CANARY_GROUP_MODN && (r32[31] & 1))
                sink++; /* the deliberate leak, after the inversion */
            ok = p256_modn_is_zero(k[i]) + p256_modn_equal(k[i], r32);
            public(&ok, sizeof ok);
        }
    }
    printf("ctime_group [%s]: done\n", p256_backend_name());
    return sink * 0;
}

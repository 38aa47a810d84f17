/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctime_pubtable.c: constant-time check (valgrind, make ctime) of ECDH over a peer's
 * per-key table (p256_ecdh_pubtable: the comb of ecmult_gen_impl.h over the table), for
 * every window width 4..8. The table is built first from a public key (public data,
 * variable time); then the private scalar is marked secret (random keys and the edges 1,
 * 2, n-1, n-2), so that memcheck reports any branch or address computed from it in the
 * comb: its Booth digits, the masked scan of each row, the additions.
 *
 * Negative control (run_ctime -c pubtable_index): the same run, plus a lookup that reads
 * the top row at the secret scalar's Booth digit directly, as a table lookup without the
 * masked scan would: memcheck must report the address (make ctime requires it).
 */
#include "ctime.h"

#include <stdlib.h>

/* The leak of the negative control: row `row` of tab read at k's Booth digit there. */
static P256_NOINLINE uint64_t ctime_pubtable_direct_lookup(const p256_pubtable *tab,
                                                           const p256_scalar *k, int row)
{
    const int bits = (int)tab->bits, entries = 1 << (bits - 1);
    uint64_t neg, idx = p256_booth(p256_scalar_bits(k, bits * row - 1, bits + 1), bits, &neg);
    return tab->t[(size_t)row * (size_t)entries + (idx & (uint64_t)(entries - 1))].x.v[0] ^ neg;
}

int main(void)
{
    static const uint8_t n_minus_1[32] = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x50};
    uint8_t peer_sk[32], peer[65], d[32], shared[32];
    volatile uint64_t sink = 0;
    int ok;

    ok = p256_seckey_generate(peer_sk) && p256_pubkey_create(peer, peer_sk);
    public(&ok, sizeof ok);
    public(peer, sizeof peer);
    if (!ok)
        return 2;
    for (int bits = P256_PUBTABLE_MIN_BITS; bits <= P256_PUBTABLE_MAX_BITS; bits++) {
        size_t size = p256_pubtable_size(bits);
        void *table = malloc(size);
        if (table == NULL || !p256_pubtable_build_vartime(table, size, bits, peer, sizeof peer))
            return 2;
        for (int i = 0; i < 6; i++) {
            if (i < 4) { /* 1, 2, n-1, n-2 */
                memcpy(d, n_minus_1, 32);
                if (i < 2) {
                    memset(d, 0, 31);
                    d[31] = (uint8_t)(i + 1);
                } else {
                    d[31] = (uint8_t)(d[31] - (i - 2));
                }
            } else if (!p256_seckey_generate(d)) {
                return 2;
            }
            secret(d, sizeof d);
            ok = p256_ecdh_pubtable(shared, d, table);
            public(&ok, sizeof ok);
            public(shared, sizeof shared);
            if (!ok)
                return 2;
            if (ctime_canary == CTIME_CANARY_PUBTABLE_INDEX) {
                p256_scalar k;
                p256_scalar_set_bytes_reduce(&k, d);
                sink += ctime_pubtable_direct_lookup(table, &k,
                                                     (int)((p256_pubtable *)table)->rows - 1);
                p256_memzero(&k, sizeof k);
            }
            public(d, sizeof d);
        }
        free(table);
    }
    printf("ctime_pubtable: widths %d..%d done\n", P256_PUBTABLE_MIN_BITS, P256_PUBTABLE_MAX_BITS);
    return (int)(sink * 0);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * batch_engine_name.c: prints p256_batch_engine() after a P256_BATCH_AUTO batch of 9
 * signatures (8 valid, 1 not) that must verify as expected. `make ctime` runs it under
 * valgrind, which has no AVX-512: the dispatch must say "scalar" there (an AVX-512
 * instruction would kill the run with SIGILL), and natively "avx512-ifma" where the CPU
 * has IFMA (which shows the check can tell the two apart). Exit status 1 on a bad verdict.
 */
#include "harness.h"
#include "p256.c"

int main(void)
{
    uint8_t d[32], pub[65], rs[64], digest[32], bad[32], res[9];
    p256_batch_item items[9] = {{0}};
    memset(d, 0x42, sizeof d);
    memset(digest, 0x17, sizeof digest);
    memset(bad, 0x18, sizeof bad);
    if (!p256_pubkey_create(pub, d) || !p256_sign(rs, d, digest, 32, P256_NONCE_SHA256))
        return 1;
    for (int i = 0; i < 9; i++) {
        items[i].pub = pub;
        items[i].pub_len = 65;
        items[i].sig = rs;
        items[i].sig_len = 64;
        items[i].msg = i == 5 ? bad : digest;
        items[i].msg_len = 32;
    }
    if (!p256_batch_verify_vartime(res, items, 9, 1, P256_BATCH_PREHASHED, P256_BATCH_AUTO))
        return 1;
    for (int i = 0; i < 9; i++)
        if (res[i] != (i != 5))
            return 1;
    printf("%s\n", p256_batch_engine());
    return 0;
}

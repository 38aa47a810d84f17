/* SPDX-License-Identifier: Apache-2.0 */
/* Constant-time check of AES and CBC under valgrind (run by `make ctime`): the key, the
 * IV and the data are marked secret (undefined for memcheck), so a branch or a memory
 * index that depends on them is reported. Both implementations the CPU runs are checked
 * (the portable one always), each key size, both directions, and the key schedule alone.
 * The negative control of the method is tests/c/canary_ctime.c. */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "aes_impl.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

int main(void)
{
    uint8_t key[32], iv[16], data[96], out[96], acc = 0;
    int impl, dir, i;
    size_t kl;

    for (i = 0; i < (int)sizeof data; i++)
        data[i] = (uint8_t)(i * 37 + 11);
    memcpy(key, data + 5, 32);
    memcpy(iv, data + 40, 16);
    printf("ctime_aes: AES-NI %s\n", p256_aes_ni_available() ? "checked too" : "absent");
    for (impl = P256_AES_PORTABLE; impl <= P256_AES_NI; impl++) {
        if (impl == P256_AES_NI && !p256_aes_ni_available())
            continue;
        for (kl = 16; kl <= 32; kl += 8)
            for (dir = 0; dir < 2; dir++) {
                p256_aes_key k;
                SECRET(key, sizeof key);
                SECRET(iv, sizeof iv);
                SECRET(data, sizeof data);
                if (!p256_aes_cbc(dir, impl, out, key, kl, iv, data, sizeof data))
                    return 2;
                p256_aes_key_init(&k, key, kl);
                PUBLIC(out, sizeof out);
                PUBLIC(&k, sizeof k);
                acc ^= (uint8_t)(out[0] ^ k.rk[k.nr][0]);
            }
    }
    printf("ctime_aes: done (%02x)\n", acc);
    return 0;
}

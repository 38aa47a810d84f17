/* SPDX-License-Identifier: Apache-2.0 */
/* Constant-time check of the hashing layer under valgrind (run by `make ctime`, not `make ctest`):
 *
 *   cc -O2 -g -std=c99 -Wall -Wextra -Werror -Icsrc -o tests/c/bin/ctime_hash tests/c/ctime_hash.c
 *   valgrind --error-exitcode=1 tests/c/bin/ctime_hash
 *
 * Secret inputs (key, message, DRBG inputs) are marked undefined for memcheck; a branch or a
 * memory index that depends on them is then reported as a use of uninitialised data, so a
 * clean run shows that no control flow or address depends on secrets. Outputs are marked
 * defined again before they are printed. Needs valgrind/memcheck.h (Debian package valgrind).
 */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "rfc6979_impl.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

int main(void)
{
    uint8_t key[300], msg[1000], x[32], h1[32], extra[200], out[64], acc = 0;
    int id, i;

    for (i = 0; i < (int)sizeof msg; i++)
        msg[i] = (uint8_t)(i * 29 + 1);
    memcpy(key, msg + 100, sizeof key);
    memcpy(x, msg + 3, 32);
    memcpy(h1, msg + 50, 32);
    memcpy(extra, msg + 400, sizeof extra);

    printf("ct_hash: SHA-256 path under test: %s\n", p256_sha256_impl_name());
    for (id = 0; id < 7; id++) {
        size_t lens[] = {0, 1, 55, 56, 64, 72, 104, 136, 137, 200, 1000};
        size_t klens[] = {0, 32, 64, 72, 104, 128, 136, 137, 300};
        p256_hmac_key k;
        p256_rfc6979 st;
        const uint8_t *parts[2];
        size_t pl[2];
        size_t j;

        for (j = 0; j < sizeof lens / sizeof lens[0]; j++) {
            SECRET(msg, sizeof msg);
            p256_hash((p256_hash_id)id, msg, lens[j], out);
            PUBLIC(out, sizeof out);
            acc ^= out[0];
        }
        for (j = 0; j < sizeof klens / sizeof klens[0]; j++) {
            SECRET(key, sizeof key);
            SECRET(msg, sizeof msg);
            p256_hmac_key_init(&k, (p256_hash_id)id, key, klens[j]);
            parts[0] = msg;
            pl[0] = 33;
            parts[1] = msg + 33;
            pl[1] = 150;
            p256_hmac(&k, parts, pl, 2, out);
            p256_hmac_key_clear(&k);
            PUBLIC(out, sizeof out);
            acc ^= out[0];
        }
        for (j = 0; j < 3; j++) {
            size_t el = j == 0 ? 0 : j == 1 ? 32 : sizeof extra;
            SECRET(x, sizeof x);
            SECRET(h1, sizeof h1);
            SECRET(extra, sizeof extra);
            p256_rfc6979_init(&st, (p256_hash_id)id, x, h1, el ? extra : NULL, el);
            for (i = 0; i < 3; i++) {
                p256_rfc6979_generate(&st, out);
                PUBLIC(out, 32);
                acc ^= out[0];
            }
            p256_rfc6979_clear(&st);
        }
    }
    printf("ct_hash: done (%02x)\n", acc);
    return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* Constant-time check of p256_modinv and p256_modinv_pair under valgrind memcheck.
 *
 * The input is marked undefined (VALGRIND_MAKE_MEM_UNDEFINED); memcheck then
 * reports every conditional jump and every memory address that depends on it
 * ("Conditional jump or move depends on uninitialised value(s)", "Use of
 * uninitialised value of size 8").  The output is marked defined again before
 * it is compared, so only the inversion itself is checked.  Not named test_*:
 * `make ctest` does not run it; it is run under valgrind (from the repository
 * root; exit code nonzero on any report or on a wrong result):
 *
 *   mkdir -p tests/c/bin
 *   cc -O2 -g -std=c99 -Wall -Wextra -Werror -Icsrc -o tests/c/bin/ctime_modinv tests/c/ctime_modinv.c
 *   valgrind --error-exitcode=1 --track-origins=yes tests/c/bin/ctime_modinv
 *
 * It passes with gcc 12 and clang 14 at -O0 to -O3 and -Os (with clang 14 add
 * -gdwarf-4 so that valgrind can read the line numbers).  Without the
 * optimization barriers in modinv_impl.h, clang -Os turns the masked select of
 * p256_modinv_load_reduced into a secret-dependent load, which this catches.
 * p256_modinv_vartime is not checked: it is variable time by design.  Built
 * with -DCTIME_SELFTEST the harness runs p256_modinv_vartime on the undefined
 * input instead, and valgrind must then fail: a check that the harness can see
 * secret-dependent branches at all.
 */
#include "modinv_impl.h"

#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

int main(void)
{
    /* Inputs covering the different paths the code could take if it were not
     * constant time: 0, 1, m - 1, an input >= m (reduced), and others. */
    static const uint64_t inputs[][4] = {
        {0, 0, 0, 0},
        {1, 0, 0, 0},
        {0xfffffffffffffffeULL, 0x00000000ffffffffULL, 0, 0xffffffff00000001ULL},
        {0xffffffffffffffffULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL},
        {0x0123456789abcdefULL, 0xfedcba9876543210ULL, 0x0f1e2d3c4b5a6978ULL, 0x8796a5b4c3d2e1f0ULL},
        {0, 0, 0, 0x8000000000000000ULL},
    };
    const p256_modinv_modulus *mods[2] = {&p256_modinv_p, &p256_modinv_n};
    size_t i;
    int k, bad = 0;
    if (!RUNNING_ON_VALGRIND)
        fprintf(stderr, "ctime_modinv: not running under valgrind, checking results only\n");
    for (k = 0; k < 2; k++) {
        for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            uint64_t a[4], r[4], r2[4];
            memcpy(a, inputs[i], sizeof a);
            VALGRIND_MAKE_MEM_UNDEFINED(a, sizeof a);
#ifdef CTIME_SELFTEST
            p256_modinv_vartime(r, a, mods[k]); /* must make valgrind complain */
#else
            p256_modinv(r, a, mods[k]);
#endif
            VALGRIND_MAKE_MEM_DEFINED(r, sizeof r);
            VALGRIND_MAKE_MEM_DEFINED(a, sizeof a);
            /* Sanity: same answer as the other function (on defined input). */
#ifdef CTIME_SELFTEST
            p256_modinv(r2, a, mods[k]);
#else
            p256_modinv_vartime(r2, a, mods[k]);
#endif
            if (memcmp(r, r2, sizeof r) != 0) {
                fprintf(stderr, "ctime_modinv: wrong result for input %zu mod %s\n", i, k ? "n" : "p");
                bad = 1;
            }
        }
    }
    /* The pair: each input beside the next one, on the other modulus, both undefined. */
    for (i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        const size_t j = (i + 1) % (sizeof inputs / sizeof inputs[0]);
        uint64_t a[4], b[4], r[4], s[4], r2[4], s2[4];
        k = (int)(i & 1);
        memcpy(a, inputs[i], sizeof a);
        memcpy(b, inputs[j], sizeof b);
        VALGRIND_MAKE_MEM_UNDEFINED(a, sizeof a);
        VALGRIND_MAKE_MEM_UNDEFINED(b, sizeof b);
        p256_modinv_pair(r, a, mods[k], s, b, mods[1 - k]);
        VALGRIND_MAKE_MEM_DEFINED(r, sizeof r);
        VALGRIND_MAKE_MEM_DEFINED(s, sizeof s);
        VALGRIND_MAKE_MEM_DEFINED(a, sizeof a);
        VALGRIND_MAKE_MEM_DEFINED(b, sizeof b);
        p256_modinv_vartime(r2, a, mods[k]);
        p256_modinv_vartime(s2, b, mods[1 - k]);
        if (memcmp(r, r2, sizeof r) != 0 || memcmp(s, s2, sizeof s) != 0) {
            fprintf(stderr, "ctime_modinv: wrong pair result for inputs %zu, %zu\n", i, j);
            bad = 1;
        }
    }
    printf("ctime_modinv: %s\n", bad ? "FAILED" : "done");
    return bad;
}

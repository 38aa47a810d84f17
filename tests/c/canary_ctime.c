/* SPDX-License-Identifier: Apache-2.0 */
/*
 * canary_ctime.c: proof that the constant-time check can fail. Two negative controls,
 * chosen by the argument, each leaking a byte marked secret exactly as the core marks
 * its secrets (P256_SECRET):
 *
 *   canary_ctime branch   a conditional branch on the secret: memcheck must report
 *                         "Conditional jump or move depends on uninitialised value(s)"
 *   canary_ctime index    a table load at a secret index (the cache-timing leak of a
 *                         lookup table): memcheck must report "Use of uninitialised
 *                         value of size 8" in the address computation
 *   canary_ctime madd52   a branch on a secret that went through the emulated vpmadd52
 *                         (modules/batch/ifma_emu.h): valgrind tracks secrets through the
 *                         emulation the IFMA engine runs on under valgrind
 *   canary_ctime gather   the emulated gather at a secret index: reported as an address,
 *                         as the hardware's gather would leak it
 *
 * `make ctime` runs each under valgrind (from tests/c/run_ctime.c: run_ctime -c branch),
 * prints the reports and fails unless each one is reported inside its own function. If
 * either ever passes quietly, P256_SECRET or the valgrind setup has stopped working and
 * every clean ctime run means nothing.
 */
#include "p256.c"
#include "modules/batch/ifma_emu.h"

#include <stdio.h>

static volatile int canary_sink;

/* The deliberate leak through control flow (volatile: the compiler must branch). */
static P256_NOINLINE void canary_branch(const uint8_t *d)
{
    if (d[0] & 1)
        canary_sink++;
}

/* The deliberate leak through a memory address: an S-box style table lookup. */
static P256_NOINLINE void canary_index(const uint8_t *d)
{
    static volatile uint8_t table[256];
    canary_sink += table[d[0]];
}

/* The secret's lanes through the emulated multiply-add, then a branch on a lane. */
static P256_NOINLINE void canary_madd52(const uint8_t *d)
{
    p256_emu_m512i v = p256_emu_loadu_si512(d), one = p256_emu_set1_epi64(1);
    v = p256_emu_madd52hi_epu64(p256_emu_madd52lo_epu64(one, v, v), v, one);
    if (v.lane[0] & 1)
        canary_sink++;
}

/* The secret's lanes as a gather index into a table of 16 (in bounds, masked); the table
 * has external linkage, so that the compiler cannot fold its loads. */
uint64_t canary_gather_table[16];

static P256_NOINLINE void canary_gather(const uint8_t *d)
{
    p256_emu_m512i idx = p256_emu_and_si512(p256_emu_loadu_si512(d), p256_emu_set1_epi64(15));
    canary_sink += (int)p256_emu_i64gather_epi64(idx, canary_gather_table, 8).lane[3];
}

int main(int argc, char **argv)
{
    uint8_t d[64];
    static const char *const modes[] = {"branch", "index", "madd52", "gather"};
    int mode = -1;
    for (int i = 0; i < 4; i++)
        if (argc == 2 && strcmp(argv[1], modes[i]) == 0)
            mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: canary_ctime branch|index|madd52|gather\n");
        return 2;
    }
    if (!p256_seckey_generate(d) || !p256_seckey_generate(d + 32))
        return 2;
    P256_SECRET(d, sizeof d);
    if (mode == 0)
        canary_branch(d);
    else if (mode == 1)
        canary_index(d);
    else if (mode == 2)
        canary_madd52(d);
    else
        canary_gather(d);
    P256_DECLASSIFY(d, sizeof d);
    printf("canary_ctime %s: ran (valgrind must have reported the leak above)\n", argv[1]);
    return 0;
}

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
 *
 * `make ctime` runs both under valgrind, prints the reports and fails unless each one
 * is reported inside its own function. If either ever passes quietly, P256_SECRET or
 * the valgrind setup has stopped working and every clean ctime run means nothing.
 */
#include "p256.c"

#include <stdio.h>

static volatile int sink;

/* The deliberate leak through control flow (volatile: the compiler must branch). */
static P256_NOINLINE void canary_branch(const uint8_t *d)
{
    if (d[0] & 1)
        sink++;
}

/* The deliberate leak through a memory address: an S-box style table lookup. */
static P256_NOINLINE void canary_index(const uint8_t *d)
{
    static volatile uint8_t table[256];
    sink += table[d[0]];
}

int main(int argc, char **argv)
{
    uint8_t d[32];
    if (argc != 2 || (strcmp(argv[1], "branch") != 0 && strcmp(argv[1], "index") != 0)) {
        fprintf(stderr, "usage: canary_ctime branch|index\n");
        return 2;
    }
    if (!p256_seckey_generate(d))
        return 2;
    P256_SECRET(d, sizeof d);
    if (argv[1][0] == 'b')
        canary_branch(d);
    else
        canary_index(d);
    P256_DECLASSIFY(d, sizeof d);
    printf("canary_ctime %s: ran (valgrind must have reported the leak above)\n", argv[1]);
    return 0;
}

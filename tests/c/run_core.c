/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_core.c: the core's harnesses that need nothing but the core, in one binary.
 *
 * Each tests/c/test_NAME.c included below also builds and runs alone (it has its own
 * main, renamed here). Compiling the core is most of a harness's cost (it is one
 * translation unit of static functions), and make ctest builds every harness per compiler
 * and per field backend: one binary for these harnesses compiles the core once instead of
 * once each. A harness that hooks into the core before including it (test_ecmult,
 * test_random, test_batch_ifma) changes the core it sees, so it stays a binary of its own.
 *
 *   run_core              every harness, in order
 *   run_core -t NAME ...  the named harnesses (NAME as in test_NAME.c)
 *   run_core -l           the list
 *
 * Each harness starts from the state its own binary starts from: the check counters at
 * zero and the harness RNG at its seed. Exit status 0 when every harness run passed.
 */
#include "harness.h"
#include "p256.c"

#define main harness_main_api
#include "test_api.c"
#undef main
#define main harness_main_batch
#include "test_batch.c"
#undef main
#define main harness_main_core
#include "test_core.c"
#undef main
#define main harness_main_group
#include "test_group.c"
#undef main
#define main harness_main_halflen
#include "test_halflen.c"
#undef main
#define main harness_main_point_asm
#include "test_point_asm.c"
#undef main
#define main harness_main_precompute
#include "test_precompute.c"
#undef main
#define main harness_main_pubkey
#include "test_pubkey.c"
#undef main
#define main harness_main_recover
#include "test_recover.c"
#undef main
#define main harness_main_scalar_asm
#include "test_scalar_asm.c"
#undef main

#define RUN_CORE_HARNESSES(X) \
    X(api) X(batch) X(core) X(group) X(halflen) X(point_asm) X(precompute) X(pubkey) X(recover) \
    X(scalar_asm)

static const struct {
    const char *name;
    int (*run)(void);
} harnesses[] = {
#define RUN_CORE_ENTRY(name) {#name, harness_main_##name},
    RUN_CORE_HARNESSES(RUN_CORE_ENTRY)
#undef RUN_CORE_ENTRY
};
#define N_HARNESSES (sizeof harnesses / sizeof harnesses[0])

static int run_one(size_t i)
{
    checks = failures = 0;
    rng_state = HARNESS_RNG_SEED;
    return harnesses[i].run() != 0;
}

int main(int argc, char **argv)
{
    int failed = 0, ran = 0;
    if (argc == 2 && strcmp(argv[1], "-l") == 0) {
        for (size_t i = 0; i < N_HARNESSES; i++)
            printf("%s\n", harnesses[i].name);
        return 0;
    }
    if (argc == 1) {
        for (size_t i = 0; i < N_HARNESSES; i++, ran++)
            failed += run_one(i);
    } else if (strcmp(argv[1], "-t") == 0 && argc > 2) {
        for (int a = 2; a < argc; a++) {
            size_t i = 0;
            while (i < N_HARNESSES && strcmp(harnesses[i].name, argv[a]) != 0)
                i++;
            if (i == N_HARNESSES) {
                fprintf(stderr, "run_core: no harness %s (run_core -l lists them)\n", argv[a]);
                return 2;
            }
            failed += run_one(i);
            ran++;
        }
    } else {
        fprintf(stderr, "usage: run_core [-l | -t NAME ...]\n");
        return 2;
    }
    printf("run_core (%s): %d harnesses, %d failed\n", p256_backend_name(), ran, failed);
    return failed != 0;
}

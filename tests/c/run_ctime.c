/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_ctime.c: the constant-time checks of the core and their negative controls, in one
 * binary per compiler and field backend (make ctime runs each under valgrind memcheck).
 *
 * Compiling the core is most of a check's cost, and the checks below all need it: one
 * binary compiles it once instead of ten times. Each tests/c/ctime_NAME.c included here
 * still builds and runs alone (its main is renamed here).
 *
 *   run_ctime -t NAME...  checks in the order named: core, edges, scalar, batch_ifma,
 *                       batch_gen and batch_const (the IFMA engine's constant-time k*G
 *                       and k*q), pubtable, group (the group API: points, scalars mod n,
 *                       the map to the curve), core_other_step (with the x86-64
 *                       Montgomery schedule this CPU does not choose), and last
 *                       core_noavx2, pubtable_noavx2
 *   run_ctime -c NAME   one negative control (a deliberate leak valgrind must report):
 *                       branch, index, madd52, gather (canary_ctime.c: a branch on a
 *                       secret, a load at a secret index, both through the emulated
 *                       IFMA intrinsics), field (a branch on a secret after the
 *                       backend's multiplication), scalar_mul (after the product mod n),
 *                       scalar_scan (after the table scan), pubtable_index (a per-key
 *                       table's row read at the secret digit, ctime_pubtable.c),
 *                       batch_gen_index (the IFMA k*G's comb read at a secret digit),
 *                       batch_const_index (a table read at a secret digit after the IFMA
 *                       engine's recoding, ctime_batch_const.c), group_map, group_mult,
 *                       group_multi, group_modn, group_table (a branch on the result
 *                       of the map to the curve, of k*P, of a sum of multiples, of an
 *                       inverse mod n, of k*P over a table of P, ctime_group.c)
 *   run_ctime -l        the checks' names; -L: the controls' names
 *
 * All the checks can run in one process (make ctime runs them so: a valgrind start-up
 * per check was a third of its time), the _noavx2 ones last: they turn the AVX2 scan off
 * for the rest of the process (p256_cpu_disable), as a CPU without AVX2 runs it, so a
 * check named after one of them is refused. One control per process: a control's report
 * must not be confused with a check's.
 *
 * The IFMA engine is built on the emulation of its intrinsics (valgrind has no AVX-512).
 * That changes only the batch module, which no other check here reaches.
 */
#define P256_IFMA_EMULATE
#include "ctime.h"

#define main ctime_main_core
#include "ctime_core.c"
#undef main
#define main ctime_main_edges
#include "ctime_edges.c"
#undef main
#define main ctime_main_scalar
#include "ctime_scalar.c"
#undef main
#define main ctime_main_batch_ifma
#include "ctime_batch_ifma.c"
#undef main
#define main ctime_main_pubtable
#include "ctime_pubtable.c"
#undef main
#define main ctime_main_batch_gen
#include "ctime_batch_gen.c"
#undef main
#define main ctime_main_batch_const
#include "ctime_batch_const.c"
#undef main
#define main ctime_main_group
#include "ctime_group.c"
#undef main
#define main ctime_main_canaries
#include "canary_ctime.c"
#undef main
#define main ctime_main_canary_field
#include "canary_ctime_field.c"
#undef main

/* ctime_core.c with the baseline (non-AVX2) table scan, so both lookup paths are checked.
 * Two rounds: both values of the loop's i & 1 and round 1's k >= n. The scan is the only
 * code that differs from core's (eight rounds), and it runs in every call of each. */
static int ctime_main_core_noavx2(void)
{
    p256_cpu_disable(P256_CPU_AVX2);
    ctime_core_rounds = 2;
    return ctime_main_core();
}

/* ctime_core.c with the other schedule of the x86-64 Montgomery step (asm.h: by MULX
 * where this CPU prefers shifts, and the reverse), two rounds: the field and point
 * assembly is the only code that differs, and every operation runs it. Elsewhere (no
 * second schedule) it has nothing to add and returns at once. */
static int ctime_main_core_other_step(void)
{
#if defined(P256_ASM_MULX_FN)
    const int mulx = p256_cpu_has(P256_CPU_MULX_STEP);
    int rc;
    p256_cpu_set_mulx_step(!mulx);
    ctime_core_rounds = 2;
    rc = ctime_main_core();
    p256_cpu_set_mulx_step(mulx); /* this CPU's own choice again, for the checks after */
    return rc;
#else
    return 0;
#endif
}

/* The same for ECDH over a per-key table (row sizes 8..128, not only the core's 16, 64). */
static int ctime_main_pubtable_noavx2(void)
{
    p256_cpu_disable(P256_CPU_AVX2);
    return ctime_main_pubtable();
}

#define CTIME_CANARY_MODE(mode)                                  \
    static int ctime_main_canary_##mode(void)                    \
    {                                                            \
        char arg0[] = "run_ctime", arg1[] = #mode;               \
        char *argv[] = {arg0, arg1, NULL};                       \
        return ctime_main_canaries(2, argv);                     \
    }
CTIME_CANARY_MODE(branch)
CTIME_CANARY_MODE(index)
CTIME_CANARY_MODE(madd52)
CTIME_CANARY_MODE(gather)

static int ctime_main_canary_scalar_mul(void)
{
    ctime_canary = CTIME_CANARY_SCALAR_MUL;
    return ctime_main_scalar();
}

static int ctime_main_canary_scalar_scan(void)
{
    ctime_canary = CTIME_CANARY_SCALAR_SCAN;
    return ctime_main_scalar();
}

static int ctime_main_canary_pubtable_index(void)
{
    ctime_canary = CTIME_CANARY_PUBTABLE_INDEX;
    return ctime_main_pubtable();
}

static int ctime_main_canary_batch_gen_index(void)
{
    ctime_canary = CTIME_CANARY_BATCH_GEN_INDEX;
    return ctime_main_batch_gen();
}

static int ctime_main_canary_batch_const_index(void)
{
    ctime_canary = CTIME_CANARY_BATCH_CONST_INDEX;
    return ctime_main_batch_const();
}

#define CTIME_CANARY_GROUP(what, which)        \
    static int ctime_main_canary_group_##what(void) \
    {                                          \
        ctime_canary = which;                  \
        return ctime_main_group();             \
    }
CTIME_CANARY_GROUP(map, CTIME_CANARY_GROUP_MAP)
CTIME_CANARY_GROUP(mult, CTIME_CANARY_GROUP_MULT)
CTIME_CANARY_GROUP(multi, CTIME_CANARY_GROUP_MULTI)
CTIME_CANARY_GROUP(modn, CTIME_CANARY_GROUP_MODN)
CTIME_CANARY_GROUP(table, CTIME_CANARY_GROUP_TABLE)

#define RUN_CTIME_CHECKS(X) X(core) X(edges) X(scalar) X(batch_ifma) X(batch_gen) X(batch_const) \
    X(pubtable) X(group) X(core_other_step) X(core_noavx2) X(pubtable_noavx2)
#define RUN_CTIME_CANARIES(X)                                                        \
    X(canary_branch) X(canary_index) X(canary_madd52) X(canary_gather) X(canary_field) \
        X(canary_scalar_mul) X(canary_scalar_scan) X(canary_pubtable_index)          \
            X(canary_batch_gen_index) X(canary_batch_const_index) X(canary_group_map)     \
                X(canary_group_mult) X(canary_group_multi) X(canary_group_modn) \
                    X(canary_group_table)

static const struct {
    const char *name;
    int (*run)(void);
} checks_[] = {
#define RUN_CTIME_ENTRY(name) {#name, ctime_main_##name},
    RUN_CTIME_CHECKS(RUN_CTIME_ENTRY)
}, canaries_[] = {
    RUN_CTIME_CANARIES(RUN_CTIME_ENTRY)
#undef RUN_CTIME_ENTRY
};

/* The index of the check NAME in checks_, or its count if there is none. */
static size_t find_check(const char *name)
{
    size_t i = 0;
    while (i < sizeof checks_ / sizeof checks_[0] && strcmp(name, checks_[i].name) != 0)
        i++;
    return i;
}

int main(int argc, char **argv)
{
    size_t nchecks = sizeof checks_ / sizeof checks_[0];
    size_t ncanaries = sizeof canaries_ / sizeof canaries_[0];
    if (argc == 2 && strcmp(argv[1], "-l") == 0) {
        for (size_t i = 0; i < nchecks; i++)
            printf("%s\n", checks_[i].name);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "-L") == 0) {
        for (size_t i = 0; i < ncanaries; i++)
            printf("%s\n", canaries_[i].name + strlen("canary_"));
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "-t") == 0) {
        int failed = 0, avx2_off = 0;
        /* Every name checked before any check runs. */
        for (int a = 2; a < argc; a++) {
            size_t i = find_check(argv[a]), n = strlen(argv[a]);
            int noavx2 = n > 7 && strcmp(argv[a] + n - 7, "_noavx2") == 0;
            if (i == nchecks || (avx2_off && !noavx2)) {
                fprintf(stderr, "%s: %s: %s\n", argv[0], argv[a],
                        i == nchecks ? "no such check" : "after a _noavx2 check (AVX2 is off): name it first");
                return 2;
            }
            avx2_off |= noavx2;
        }
        for (int a = 2; a < argc; a++)
            failed |= checks_[find_check(argv[a])].run() != 0;
        return failed;
    } else if (argc == 3 && strcmp(argv[1], "-c") == 0) {
        for (size_t i = 0; i < ncanaries; i++)
            if (strcmp(argv[2], canaries_[i].name + strlen("canary_")) == 0)
                return canaries_[i].run();
    }
    fprintf(stderr, "usage: %s -t CHECK... | -c CONTROL | -l | -L (-l lists the checks, -L the controls)\n", argv[0]);
    return 2;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend.c: the extension's run-time choice between the variants of the core.
 *
 * meson.build compiles csrc/p256.c once per field backend that the host can build, each
 * with -DP256_VARIANT=p256_api_<name> (its API functions static, reachable through that
 * table) and -DP256_HAVE_<NAME> for this file. Here: the table of variants in
 * preference order, the choice at import (CPU features, the P256_BACKEND environment
 * variable, by the chooser that also picks the batch engine), and the external p256_*
 * functions of p256.h, which forward to the chosen table. A forwarding call costs an
 * indirect jump (~1 ns) against operations of 0.1 to 50 us.
 *
 * Adding a variant: one line in csrc/variants.txt, one entry in p256_backends and in
 * p256_backend_apis below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p256.h"
#include "backend.h"
#include "cpu.h"

/*
 * The one chooser of the extension, for the field backend (P256_BACKEND, the table
 * below) and the batch engine (P256_BATCH, py_batch.c): a name from the environment, or
 * automatic (unset or empty: the first entry that runs here, in preference order). Kept
 * apart from the CPU so that tests/c/test_backend.c can test it on a fake table. Every
 * refusal has the one pattern "VAR=value: why; valid values[ here]: a, b".
 */
int p256_choose(const char *var, const char *kind, const p256_choice *table, size_t n,
                const char *request, char *err, size_t errlen)
{
    size_t i, len;
    const char *why = NULL;
#define P256_RUNS(c) ((c)->built && ((c)->cpu_ok == NULL || (c)->cpu_ok()))
    if (request == NULL || request[0] == '\0') {
        for (i = 0; i < n; i++)
            if (P256_RUNS(&table[i]))
                return (int)i;
        snprintf(err, errlen, "%s: no %s of this build runs on this CPU", var, kind);
        return -1;
    }
    for (i = 0; i < n && strcmp(request, table[i].name) != 0; i++)
        ;
    if (i == n) {
        snprintf(err, errlen, "%s=%.40s: unknown %s; valid values:", var, request, kind);
        for (i = 0; i < n; i++) {
            len = strlen(err);
            snprintf(err + len, errlen - len, "%s %s", i ? "," : "", table[i].name);
        }
        return -1;
    }
    if (P256_RUNS(&table[i]))
        return (int)i;
    if (!table[i].built)
        why = "(it is built only for its CPU architecture on ELF platforms)";
    snprintf(err, errlen, why != NULL ? "%s=%s: this build of p256 has no %s %s %s"
                                      : "%s=%s: the %s %s does not run here: this CPU lacks %s",
             var, request, request, kind, why != NULL ? why : table[i].needs);
    len = strlen(err);
    snprintf(err + len, errlen - len, "; valid values here:");
    for (size_t j = 0, first = 1; j < n; j++) {
        if (!P256_RUNS(&table[j]))
            continue;
        len = strlen(err);
        snprintf(err + len, errlen - len, "%s %s", first ? "" : ",", table[j].name);
        first = 0;
    }
#undef P256_RUNS
    return -1;
}

int p256_choose_env(const char *var, const char *kind, const p256_choice *table, size_t n,
                    char *err, size_t errlen)
{
    return p256_choose(var, kind, table, n, getenv(var), err, errlen);
}

#ifndef P256_BACKEND_CHOOSE_ONLY /* tests/c/test_backend.c takes just the function above */

extern const p256_api p256_api_portable;
extern const p256_api p256_api_x86_64_adx;
extern const p256_api p256_api_aarch64_asm;

/* Every backend name, in preference order; the portable C last, always present. */
static const p256_choice p256_backends[] = {
#if defined(P256_HAVE_X86_64_ADX)
    {"x86_64-adx", 1, p256_cpu_has_x86_64_adx, "BMI2 and ADX"},
#else
    {"x86_64-adx", 0, NULL, NULL},
#endif
#if defined(P256_HAVE_AARCH64_ASM)
    {"aarch64-asm", 1, NULL, NULL},
#else
    {"aarch64-asm", 0, NULL, NULL},
#endif
    {"portable", 1, NULL, NULL},
};
/* Their tables, in the same order (NULL where the build lacks one). */
static const p256_api *const p256_backend_apis[] = {
#if defined(P256_HAVE_X86_64_ADX)
    &p256_api_x86_64_adx,
#else
    NULL,
#endif
#if defined(P256_HAVE_AARCH64_ASM)
    &p256_api_aarch64_asm,
#else
    NULL,
#endif
    &p256_api_portable,
};

/* Set once by p256_backend_select (at import, under the GIL, before any use). */
static const p256_api *p256_active = &p256_api_portable;

int p256_backend_select(char *err, size_t errlen)
{
    int i = p256_choose_env("P256_BACKEND", "backend", p256_backends,
                            sizeof p256_backends / sizeof p256_backends[0], err, errlen);
    if (i < 0)
        return -1;
    p256_active = p256_backend_apis[i];
    return 0;
}

/* The external API of p256.h: forwarders to the active variant. */
#define P256_FORWARD(ret, name, params, args) \
    ret p256_##name params { return p256_active->name args; }
P256_API_LIST(P256_FORWARD)
#undef P256_FORWARD

#endif /* P256_BACKEND_CHOOSE_ONLY */

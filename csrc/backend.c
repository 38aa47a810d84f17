/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend.c: the extension's run-time choice between the variants of the core.
 *
 * meson.build compiles csrc/p256.c once per field backend that the host can build, each
 * with -DP256_VARIANT=p256_api_<name> (its API functions static, reachable through that
 * table) and -DP256_HAVE_<NAME> for this file. Here: the table of variants in
 * preference order, the choice at import (CPU features, the P256_BACKEND environment
 * variable), and the external p256_* functions of p256.h, which forward to the chosen
 * table. A forwarding call costs an indirect jump (~1 ns) against operations of 0.1 to
 * 50 us.
 *
 * Adding a variant: one line in meson.build's core_variants, one entry in
 * p256_backends below.
 */
#include <stdio.h>
#include <string.h>

#include "p256.h"
#include "backend.h"
#include "cpu.h"

typedef struct {
    const char *name;             /* the P256_BACKEND / p256.backend() name */
    const p256_api *api;          /* NULL when this build lacks the variant */
    int (*cpu_ok)(void);          /* NULL: runs on every CPU of its architecture */
} p256_backend;

/* Answers for the selection logic, kept apart from the CPU so that it can be tested. */
static int p256_backend_choose(const p256_backend *table, size_t n, const char *request,
                               char *err, size_t errlen)
{
    size_t i;
    if (request == NULL || request[0] == '\0') {
        for (i = 0; i < n; i++)
            if (table[i].api != NULL && (table[i].cpu_ok == NULL || table[i].cpu_ok()))
                return (int)i;
        snprintf(err, errlen, "p256: no backend of this build runs on this CPU");
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (strcmp(request, table[i].name) != 0)
            continue;
        if (table[i].api == NULL) {
            snprintf(err, errlen,
                     "P256_BACKEND=%s: this build of p256 has no %s backend (it is built only "
                     "for its CPU architecture on ELF platforms)", request, table[i].name);
            return -1;
        }
        if (table[i].cpu_ok != NULL && !table[i].cpu_ok()) {
            snprintf(err, errlen,
                     "P256_BACKEND=%s: this CPU lacks the instructions the %s backend needs%s",
                     request, table[i].name,
                     strcmp(table[i].name, "x86_64-adx") == 0 ? " (BMI2 and ADX)" : "");
            return -1;
        }
        return (int)i;
    }
    {
        size_t len;
        snprintf(err, errlen, "P256_BACKEND=%.40s: unknown backend; valid values:", request);
        for (i = 0; i < n; i++) {
            len = strlen(err);
            snprintf(err + len, errlen - len, "%s %s", i ? "," : "", table[i].name);
        }
    }
    return -1;
}

#ifndef P256_BACKEND_CHOOSE_ONLY /* tests/c/test_backend.c takes just the function above */

extern const p256_api p256_api_portable;
extern const p256_api p256_api_x86_64_adx;
extern const p256_api p256_api_aarch64_asm;

/* Every backend name, in preference order; the portable C last, always present. */
static const p256_backend p256_backends[] = {
#if defined(P256_HAVE_X86_64_ADX)
    {"x86_64-adx", &p256_api_x86_64_adx, p256_cpu_has_x86_64_adx},
#else
    {"x86_64-adx", NULL, NULL},
#endif
#if defined(P256_HAVE_AARCH64_ASM)
    {"aarch64-asm", &p256_api_aarch64_asm, NULL},
#else
    {"aarch64-asm", NULL, NULL},
#endif
    {"portable", &p256_api_portable, NULL},
};

/* Set once by p256_backend_select (at import, under the GIL, before any use). */
static const p256_api *p256_active = &p256_api_portable;

int p256_backend_select(const char *request, char *err, size_t errlen)
{
    int i = p256_backend_choose(p256_backends, sizeof p256_backends / sizeof p256_backends[0],
                                request, err, errlen);
    if (i < 0)
        return -1;
    p256_active = p256_backends[i].api;
    return 0;
}

/* The external API of p256.h: forwarders to the active variant. */
#define P256_FORWARD(ret, name, params, args) \
    ret p256_##name params { return p256_active->name args; }
P256_API_LIST(P256_FORWARD)
#undef P256_FORWARD

#endif /* P256_BACKEND_CHOOSE_ONLY */

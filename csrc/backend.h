/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend.h: the extension's chooser (the field backend, the batch engine) and the
 * choice of the core's variant at import. Only the extension has several variants (see
 * p256.h, Variants); csrc/backend.c implements this.
 */
#ifndef P256_BACKEND_H
#define P256_BACKEND_H

#include <stddef.h>

/*
 * A choice of the extension's: a field backend, a batch engine. built is 0 where this
 * build lacks it; cpu_ok (NULL: always) says whether it runs on this CPU, and `needs`
 * names what it tests ("BMI2 and ADX"), for the message.
 */
typedef struct {
    const char *name;
    int built;
    int (*cpu_ok)(void);
    const char *needs;
} p256_choice;

/*
 * The index of `request` in table (n entries, in preference order; NULL or "": the first
 * that runs here), or -1 with a message in err naming the environment variable `var` and
 * the `kind` of thing chosen: an unknown name (the message lists the valid ones), or one
 * this build lacks or this CPU cannot run (the message lists those that run here).
 * p256_choose_env reads request from the environment variable `var`.
 */
int p256_choose(const char *var, const char *kind, const p256_choice *table, size_t n,
                const char *request, char *err, size_t errlen);
int p256_choose_env(const char *var, const char *kind, const p256_choice *table, size_t n,
                    char *err, size_t errlen);

/*
 * Selects the variant the p256_* functions forward to, once, before any of them is
 * called, from P256_BACKEND (unset or empty: the first variant in preference order that
 * this CPU runs). Returns 0, or -1 with the chooser's message in err.
 */
int p256_backend_select(char *err, size_t errlen);

#endif /* P256_BACKEND_H */

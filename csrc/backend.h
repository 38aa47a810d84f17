/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend.h: choosing the core's variant (field backend) at import. Only the extension
 * has several variants (see p256.h, Variants); csrc/backend.c implements this.
 */
#ifndef P256_BACKEND_H
#define P256_BACKEND_H

#include <stddef.h>

/*
 * Selects the variant the p256_* functions forward to, once, before any of them is
 * called. request is the P256_BACKEND environment value (NULL or "" for automatic: the
 * first variant in preference order that this CPU runs). Returns 0, or -1 with a
 * message in err: unknown name (the message lists the valid ones), or a variant this
 * build lacks or this CPU cannot run.
 */
int p256_backend_select(const char *request, char *err, size_t errlen);

#endif /* P256_BACKEND_H */

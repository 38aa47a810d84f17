/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ecmult_vartime.h: r = u1*G + u2*Q, variable time, public inputs only (verify). The
 * scalars are reduced (< n); the result is Jacobian. Code: ecmult_vartime_impl.h.
 */
#ifndef P256_ECMULT_VARTIME_H
#define P256_ECMULT_VARTIME_H

#include "group.h"
#include "scalar.h"

P256_FN void p256_ecmult_vartime(p256_jac *r, const p256_scalar *u1, const p256_scalar *u2,
                                const p256_aff *q);

#endif /* P256_ECMULT_VARTIME_H */

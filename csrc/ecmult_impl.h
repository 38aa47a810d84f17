/* SPDX-License-Identifier: Apache-2.0 */
/* ecmult_impl.h: the scalar multiplications of ecmult.h, one file per kind. */
#ifndef P256_ECMULT_IMPL_H
#define P256_ECMULT_IMPL_H

#include "ecmult.h"
#include "ecmult_common_impl.h"
#include "ecmult_gen_impl.h"
#include "ecmult_const_impl.h"
#include "ecmult_vartime_impl.h"
#include "ecmult_pubtable_impl.h"
#include "ecmult_multi_impl.h"
#include "ecmult_limlee_impl.h"

#endif /* P256_ECMULT_IMPL_H */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * py_batch_engine.h: the batch engine every Batch works on (py_batch_engine.c), for the
 * machinery (py_batch.c), which takes it when a batch is made.
 */
#ifndef P256_PY_BATCH_ENGINE_H
#define P256_PY_BATCH_ENGINE_H

#include "py_binding.h"

/* py_batch_engine.c: the engine chosen now (a P256_BATCH_* value), its name, and the
 * choice at import from P256_BATCH with the engine functions added to the module (0, or
 * -1 with ImportError). */
int batch_engine_now(void);
const char *batch_engine_name(int engine);
int batch_engine_init(PyObject *module);

#endif /* P256_PY_BATCH_ENGINE_H */

/* SPDX-License-Identifier: Apache-2.0 */
/* modules/batch/main_impl.h: batch verification (batch.h) and its API functions; the work
 * with secrets is secret_impl.h, included at the end. */
#ifndef P256_MODULE_BATCH_MAIN_IMPL_H
#define P256_MODULE_BATCH_MAIN_IMPL_H

#include "batch.h"
#include "../../ecdsa_impl.h"
#include "ifma_impl.h"

/* 1 if `engine` is known and runs here. */
P256_FN int p256_batch_engine_runs(int engine)
{
    return engine == P256_BATCH_IFMA ? p256_ifma_available()
                                     : engine == P256_BATCH_SCALAR || engine == P256_BATCH_AUTO;
}

/* The chosen engine: the IFMA engine, or the loop of the core's verification. */
P256_FN int p256_batch_engine_run_vartime(uint8_t *results, const p256_batch_point_item *items,
                                         size_t n, int engine)
{
    if (engine == P256_BATCH_AUTO)
        engine = p256_ifma_available() ? P256_BATCH_IFMA : P256_BATCH_SCALAR;
    if (engine == P256_BATCH_IFMA) {
        if (!p256_ifma_available())
            return 0;
        p256_ifma_verify_batch_vartime(results, items, n);
        return 1;
    }
    if (engine != P256_BATCH_SCALAR)
        return 0;
    for (size_t i = 0; i < n; i++)
        results[i] = (uint8_t)p256_ecdsa_verify_vartime(items[i].q, items[i].rs, items[i].digest,
                                                        items[i].digest_len);
    return 1;
}

const char *p256_batch_engine(void)
{
    return p256_ifma_available() ? P256_IFMA_ENGINE_NAME : "scalar";
}

int p256_batch_prepare(int engine)
{
    if (!p256_batch_engine_runs(engine))
        return 0;
    if (engine == P256_BATCH_IFMA || (engine == P256_BATCH_AUTO && p256_ifma_available()))
        p256_ifma_prepare();
    return 1;
}

/*
 * Each group of P256_BATCH_GROUP items: the malformed and out-of-range signatures and
 * invalid SEC1 keys are False at once, a precomputed key's item is verified with its
 * table, and the rest go to the engine in one call, each key as a decoded point (a
 * loaded key's own, never encoded and decoded again).
 */
int p256_batch_verify_vartime(uint8_t *results, const p256_batch_item *items, size_t n,
                              int raw, int hash, int engine)
{
    uint8_t rs[P256_BATCH_GROUP][64], digest[P256_BATCH_GROUP][P256_HASH_MAX_SIZE];
    uint8_t res[P256_BATCH_GROUP];
    p256_aff q[P256_BATCH_GROUP];
    p256_batch_point_item todo[P256_BATCH_GROUP];
    size_t where[P256_BATCH_GROUP];

    if (hash != P256_BATCH_PREHASHED && (hash < P256_HASH_SHA224 || hash > P256_HASH_SHA3_512))
        return 0;
    if (!p256_batch_engine_runs(engine))
        return 0;
    for (size_t g = 0; g < n; g += P256_BATCH_GROUP) {
        const size_t count = n - g < P256_BATCH_GROUP ? n - g : P256_BATCH_GROUP;
        size_t m = 0;
        for (size_t i = 0; i < count; i++) {
            const p256_batch_item *it = &items[g + i];
            const p256_pubtable *tab = it->table != NULL ? p256_pubtable_checked(it->table) : NULL;
            const uint8_t *dg = it->msg;
            size_t dg_len = it->msg_len;
            results[g + i] = 0;
            if (p256_sig_parse_any(rs[m], it->sig, it->sig_len, raw) != P256_SIGDER_OK)
                continue;
            /* P256_PLANT(batch, 1), a control: the messages of precomputed keys unhashed */
            if (hash != P256_BATCH_PREHASHED && !(P256_PLANT(batch, 1) && tab != NULL)) {
                p256_hash((p256_hash_id)hash, it->msg, it->msg_len, digest[m]);
                dg = digest[m];
                dg_len = p256_hash_size((p256_hash_id)hash);
            }
            if (tab != NULL) {
                results[g + i] = (uint8_t)p256_ecdsa_verify_pubtable_vartime(tab, rs[m], dg, dg_len);
                continue;
            }
            if (it->key != NULL) {
                todo[m].q = (const p256_aff *)(const void *)it->key;
            } else {
                if (!p256_aff_decode_vartime(&q[m], it->pub, it->pub_len))
                    continue;
                todo[m].q = &q[m];
            }
            todo[m].rs = rs[m];
            todo[m].digest = dg;
            todo[m].digest_len = dg_len;
            where[m++] = g + i;
        }
        if (m > 0 && !p256_batch_engine_run_vartime(res, todo, m, engine))
            return 0; /* unreachable: the engine was checked above */
        for (size_t j = 0; j < m; j++)
            results[where[j]] = (uint8_t)(res[j] != 0);
    }
    return 1;
}

/* The work with secrets (secret.h), on the same engines. */
#include "secret_impl.h"

#endif /* P256_MODULE_BATCH_MAIN_IMPL_H */

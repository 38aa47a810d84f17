#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Python-level fixed-vs-random timing of signing, the counterpart of tests/c/timing_core.c.

tools/timing_python.py CLASS MODE N [MAKING], with the installed p256 (.venv/bin/python):

    CLASS   1, n-1: class 0 is 256 keys all with that d; AA: class 0 is random keys too
            (an A/A test: any |t| it shows is the setup's, not d's)
    MODE    det: sign(msg, deterministic=True, encoding="raw") of one fixed message;
            hedged: sign_digest(digest) of one fixed digest
    N       measurements, after 2000 of warm-up that give the crops
    MAKING  how the 2 x 256 key objects are made:
            shuffled (default): all by PrivateKey.from_bytes of prebuilt bytes, in a
                random order of the classes, so where an object lands does not depend on
                its class;
            pools: class 0's keys by from_int (AA: of random ints), then class 1's by
                generate(), as a first measurement would;
            interleaved: as pools, the two classes made alternately

Measurements alternate between the classes in a random order, each a key drawn from its
class; time.perf_counter_ns around the call. Prints Welch's t (the largest |t| over all
measurements and those below the 1 - 2^-j percentiles of the warm-up, j = 1..10) and the
medians. The figures are in docs/security.md (Timing test).
"""

import math
import os
import random
import sys
import time

import p256

N_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
SPECIAL = {"1": 1, "n-1": N_ORDER - 1}
POOL = 256
WARMUP = 2000


def make_keys(cls, making, rng):
    """(class 0 keys, class 1 keys), POOL of each, made the MAKING way."""
    def fixed_value():
        return SPECIAL[cls] if cls in SPECIAL else rng.randrange(1, N_ORDER)

    if making == "shuffled":
        plan = [0] * POOL + [1] * POOL
        rng.shuffle(plan)
        data = [(c, (fixed_value() if c == 0 else rng.randrange(1, N_ORDER)).to_bytes(32, "big"))
                for c in plan]
        made = [(c, p256.PrivateKey.from_bytes(b)) for c, b in data]
        return [k for c, k in made if c == 0], [k for c, k in made if c == 1]
    if making == "pools":
        return ([p256.PrivateKey.from_int(fixed_value()) for _ in range(POOL)],
                [p256.PrivateKey.generate() for _ in range(POOL)])
    if making == "interleaved":
        zero, one = [], []
        for _ in range(POOL):
            zero.append(p256.PrivateKey.from_int(fixed_value()))
            one.append(p256.PrivateKey.generate())
        return zero, one
    raise SystemExit("MAKING: shuffled, pools or interleaved")


def welch_max(classes, times, cuts):
    """(t, crop) of the largest |t| over the crops."""
    best = (0.0, 0)
    for ci, cut in enumerate(cuts):
        n, s, q = [0, 0], [0.0, 0.0], [0.0, 0.0]
        for c, t in zip(classes, times):
            if ci == 0 or t < cut:
                n[c] += 1
                s[c] += t
                q[c] += t * t
        if min(n) < 2:
            continue
        m = [s[c] / n[c] for c in (0, 1)]
        v = [(q[c] - n[c] * m[c] * m[c]) / (n[c] - 1) for c in (0, 1)]
        se = math.sqrt(v[0] / n[0] + v[1] / n[1])
        t = (m[0] - m[1]) / se if se > 0 else 0.0
        if abs(t) > abs(best[0]):
            best = (t, ci)
    return best


def main(argv):
    if len(argv) not in (4, 5) or argv[1] not in ("1", "n-1", "AA") or argv[2] not in ("det", "hedged"):
        raise SystemExit(__doc__)
    cls, mode, n_meas = argv[1], argv[2], int(argv[3])
    making = argv[4] if len(argv) == 5 else "shuffled"
    rng = random.Random(int.from_bytes(os.urandom(8), "big"))
    keys = make_keys(cls, making, rng)
    msg, digest = b"timing", os.urandom(32)
    clock = time.perf_counter_ns
    classes, times = [], []
    while len(times) < n_meas + WARMUP:
        batch = [rng.getrandbits(1) for _ in range(1000)]
        chosen = [keys[c][rng.randrange(POOL)] for c in batch]
        for k in chosen:
            if mode == "det":
                t0 = clock()
                k.sign(msg, deterministic=True, encoding="raw")
                t1 = clock()
            else:
                t0 = clock()
                k.sign_digest(digest)
                t1 = clock()
            times.append(t1 - t0)
        classes += batch
    warm = sorted(times[:WARMUP])
    cuts = [math.inf] + [warm[int((1 - 2.0 ** -j) * (WARMUP - 1))] for j in range(1, 11)]
    classes, times = classes[WARMUP:], times[WARMUP:]
    t, crop = welch_max(classes, times, cuts)
    med = [sorted(x for c, x in zip(classes, times) if c == k) for k in (0, 1)]
    print("%s d=%s %s (%s): N=%d max t=%+.2f (crop %s) median %d vs %d ns"
          % (mode, cls, p256.backend(), making, len(times), t, "all" if crop == 0 else "p%d" % crop,
             med[0][len(med[0]) // 2], med[1][len(med[1]) // 2]))


if __name__ == "__main__":
    main(sys.argv)

# SPDX-License-Identifier: Apache-2.0
"""Thread scaling of p256.verify_many (a benchmark, not a test).

    python benchmarks/bench_batch.py [--n 1000] [--rounds 21] [--threads 1,2]

Verifies the same N signatures (DER, SHA-256, 64-byte messages, 100 keys) with each
thread count, interleaved round by round so that load from other processes hits every
configuration alike, and prints per configuration the median and best wall time, the
throughput, the CPU time per wall time (how many cores the process actually got: close
to the thread count on an idle machine) and, on Linux, how many cores other processes
kept busy meanwhile (/proc/stat). The speedup is the median of the
per-round ratios against the first thread count, and the ratio of the best times. A loop
of PublicKey.verify is timed as well, for the per-call overhead that the batch avoids.
The load average before and after is printed: on a shared machine, read the numbers with it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import p256


def _make_items(n, nkeys=100):
    keys = [p256.PrivateKey.generate() for _ in range(nkeys)]
    items = []
    for i in range(n):
        sk = keys[i % nkeys]
        msg = os.urandom(64)
        items.append((sk.public_key, sk.sign(msg), msg))
    return items


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _busy_seconds():
    """CPU seconds spent busy by the whole machine so far (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / _TICK


def _timed(fn):
    b0 = _busy_seconds()
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    w1, c1 = time.perf_counter(), time.process_time()
    b1 = _busy_seconds()
    busy = None if b0 is None or b1 is None else b1 - b0
    return out, w1 - w0, c1 - c0, busy


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="signatures per batch")
    ap.add_argument("--rounds", type=int, default=21, help="interleaved rounds")
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    args = ap.parse_args(argv)
    counts = [int(t) for t in args.threads.split(",")]

    items = _make_items(args.n)
    load0 = os.getloadavg()
    configs = ["loop"] + counts
    wall = {c: [] for c in configs}
    cpu = {c: [] for c in configs}
    busy = {c: [] for c in configs}
    for rnd in range(args.rounds):
        order = configs if rnd % 2 == 0 else configs[::-1]
        for c in order:
            if c == "loop":
                fn = lambda: [pk.verify(s, m) for pk, s, m in items]  # noqa: E731
            else:
                fn = lambda c=c: p256.verify_many(items, threads=c)  # noqa: E731
            out, w, u, b = _timed(fn)
            if not all(out):
                raise SystemExit("a valid signature was rejected")
            wall[c].append(w)
            cpu[c].append(u)
            busy[c].append(b)
    load1 = os.getloadavg()

    print("p256.verify_many: %d signatures (DER, SHA-256, 64-byte messages), %d rounds, "
          "os.cpu_count() = %s, backend %s" % (args.n, args.rounds, os.cpu_count(),
                                               p256._core.backend()))
    print("load average before %.2f %.2f %.2f, after %.2f %.2f %.2f"
          % (load0 + load1))
    print()
    print("| threads | median | best | throughput (median) | CPU/wall (median) | other processes (cores) | speedup (median of rounds) | speedup (best) |")
    print("|---|---|---|---|---|---|---|---|")
    base = counts[0]
    for c in configs:
        med, best = statistics.median(wall[c]), min(wall[c])
        util = statistics.median(u / w for u, w in zip(cpu[c], wall[c]))
        ratios = [b / w for b, w in zip(wall[base], wall[c])]
        name = "loop of verify()" if c == "loop" else str(c)
        if None in busy[c]:
            others = "n/a"
        else:  # machine busy time minus ours, per wall second, over all rounds (/proc/stat ticks)
            others = "%.2f" % max(0.0, (sum(busy[c]) - sum(cpu[c])) / sum(wall[c]))
        print("| %s | %.1f ms | %.1f ms | %.0f /s | %.2f | %s | %.2fx | %.2fx |"
              % (name, med * 1e3, best * 1e3, args.n / med, util, others,
                 statistics.median(ratios), min(wall[base]) / best))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

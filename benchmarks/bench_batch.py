# SPDX-License-Identifier: Apache-2.0
"""verify_many and p256verify_many against loops of single calls (a benchmark, not a test).

    python benchmarks/bench_batch.py [--sizes 1000] [--rounds 21] [--threads 1,2] [--eip]
    python benchmarks/bench_batch.py --sizes 8,64,1000,100000 --eip     # the docs' table
    python benchmarks/bench_batch.py ... --json FILE   # also the figures, for plot.py

For each batch size: the same signatures (DER, SHA-256, 64-byte messages, 100 keys; with
--eip also their EIP-7951 inputs) through a loop of PublicKey.verify, verify_many with
each thread count, and with --eip a loop of p256verify and p256verify_many, interleaved
round by round (order reversed every other round) so that load from other processes hits
every configuration alike. Per configuration: the median and best time per signature,
the throughput, the CPU time per wall time (how many cores the process actually got:
close to the thread count on an idle machine), on Linux how many cores other processes
kept busy meanwhile (/proc/stat), and the median of the per-round ratios against the
loop of verify. Large sizes run fewer rounds (--budget signatures per configuration);
--group sets the claim size, to tune it against the engine. The batch engine
(p256.batch_backend(), P256_BATCH), the claim size and the field backend are printed; so
is the load average before and after: on a shared machine, read the numbers with it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time

import _runinfo
import p256
import p256._many


def _der_int(v):
    b = v.to_bytes(33, "big").lstrip(b"\x00") or b"\x00"
    return b"\x02" + bytes([len(b) + (b[0] >> 7)]) + (b"\x00" if b[0] & 0x80 else b"") + b


def _make_items(n, nkeys=100):
    """(verify_many items, p256verify inputs) for the same n signatures."""
    keys = [p256.PrivateKey.generate() for _ in range(nkeys)]
    items, eip = [], []
    for i in range(n):
        sk = keys[i % nkeys]
        msg = os.urandom(64)
        rs = sk.sign(msg, encoding="raw")
        body = _der_int(int.from_bytes(rs[:32], "big")) + _der_int(int.from_bytes(rs[32:], "big"))
        items.append((sk.public_key, b"\x30" + bytes([len(body)]) + body, msg))
        eip.append(hashlib.sha256(msg).digest() + rs + sk.public_key.to_bytes()[1:])
    return items, eip


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


def _timed(fn, calls=1):
    """(the last call's answer, wall, CPU and machine-busy seconds per call) of `calls`
    calls of fn in a row."""
    b0 = _busy_seconds()
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(calls):
        out = fn()
    w1, c1 = time.perf_counter(), time.process_time()
    b1 = _busy_seconds()
    busy = None if b0 is None or b1 is None else (b1 - b0) / calls
    return out, (w1 - w0) / calls, (c1 - c0) / calls, busy


def _configs(items, eip, counts, with_eip):
    """(name, fn, check, call, threads) per configuration; check(out) says every answer is
    a success; call and threads name it in the JSON (threads 0: a loop of single calls)."""
    ok = bytes(31) + b"\x01"
    out = [("loop of verify()", lambda: [pk.verify(s, m) for pk, s, m in items], all,
            "verify", 0)]
    for c in counts:
        out.append(("verify_many, %d thread%s" % (c, "s" if c > 1 else ""),
                    lambda c=c: p256.verify_many(items, threads=c), all, "verify_many", c))
    if with_eip:
        every_one = lambda res: all(r == ok for r in res)  # noqa: E731
        out.append(("loop of p256verify()", lambda: [p256.p256verify(x) for x in eip], every_one,
                    "p256verify", 0))
        for c in counts:
            out.append(("p256verify_many, %d thread%s" % (c, "s" if c > 1 else ""),
                        lambda c=c: p256.p256verify_many(eip, threads=c), every_one,
                        "p256verify_many", c))
    return out


def bench_size(n, rounds, counts, with_eip, min_items=1):
    """The rows and JSON records of one batch size; a round calls each configuration
    enough times to verify at least min_items signatures (one call of a small batch is
    too short to time alone)."""
    calls = max(1, -(-min_items // n))
    items, eip = _make_items(n)
    configs = _configs(items, eip, counts, with_eip)
    wall = {c[0]: [] for c in configs}
    cpu = {c[0]: [] for c in configs}
    busy = {c[0]: [] for c in configs}
    for rnd in range(rounds):
        for name, fn, check, _, _ in (configs if rnd % 2 == 0 else configs[::-1]):
            out, w, u, b = _timed(fn, calls)
            if not check(out):
                raise SystemExit("%s: a valid signature was rejected" % name)
            wall[name].append(w)
            cpu[name].append(u)
            busy[name].append(b)
    base = configs[0][0]
    rows, records = [], []
    for name, _, _, call, threads in configs:
        med, best = statistics.median(wall[name]), min(wall[name])
        util = statistics.median(u / w for u, w in zip(cpu[name], wall[name]))
        ratio = statistics.median(b / w for b, w in zip(wall[base], wall[name]))
        if None in busy[name]:
            others = "n/a"
        else:  # machine busy time minus ours, per wall second, over all rounds
            others = "%.2f" % max(0.0, (sum(busy[name]) - sum(cpu[name])) / sum(wall[name]))
        rows.append("| %s | %s | %.1f µs | %.1f µs | %.0f /s | %.2f | %s | %.2fx |"
                    % ("{:,}".format(n), name, med / n * 1e6, best / n * 1e6, n / med, util,
                       others, ratio))
        records.append({"size": n, "configuration": name, "call": call, "threads": threads,
                        "rounds": rounds, "calls_per_round": calls, "per_signature_s": [w / n for w in wall[name]],
                        "median_s": med / n, "best_s": best / n,
                        "spread": _runinfo.spread(wall[name]), "throughput_per_s": n / med,
                        "cpu_per_wall": util, "vs_loop": ratio})
    return rows, records


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", "--n", default="1000", help="comma-separated batch sizes")
    ap.add_argument("--rounds", type=int, default=21, help="interleaved rounds (at most)")
    ap.add_argument("--budget", type=int, default=100_000,
                    help="signatures per configuration and size, over all its rounds")
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("--eip", action="store_true", help="also p256verify and p256verify_many")
    ap.add_argument("--min-items", type=int, default=1,
                    help="signatures per configuration and round at least: a small batch is "
                         "called this many items' worth of times in a row (default 1)")
    ap.add_argument("--json", metavar="FILE",
                    help="also write every configuration's figures as JSON (benchmarks/plot.py)")
    ap.add_argument("--group", type=int, default=None,
                    help="items a thread claims at a time (sets p256._many.GROUP, 1..64; "
                         "for tuning the claim size against the engine)")
    args = ap.parse_args(argv)
    if args.group is not None:
        p256._many.GROUP = args.group
    sizes = [int(v) for v in args.sizes.split(",")]
    counts = [int(t) for t in args.threads.split(",")]

    run = _runinfo.Run("p256-bench-batch/1", argv if argv is not None else sys.argv[1:])
    load0 = os.getloadavg()
    rows, records = [], []
    for n in sizes:
        r, rec = bench_size(n, max(3, min(args.rounds, args.budget // n)), counts, args.eip,
                            args.min_items)
        rows += r
        records += rec
    load1 = os.getloadavg()
    print("p256 batches: DER, SHA-256, 64-byte messages, 100 keys; batch engine %s, field "
          "backend %s, claims of up to %d items, os.cpu_count() = %s, up to %d rounds"
          % (p256.batch_backend(), p256.backend(), p256._many.GROUP, os.cpu_count(),
             args.rounds))
    print("load average before %.2f %.2f %.2f, after %.2f %.2f %.2f" % (load0 + load1))
    print()
    print("| batch | configuration | per signature (median) | best | throughput (median) "
          "| CPU/wall (median) | other processes (cores) | vs loop of verify (median of rounds) |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    if args.json:
        _runinfo.write_json(args.json, run.doc(
            batch_engine=p256.batch_backend(), claim=p256._many.GROUP,
            what="DER ECDSA/SHA-256 signatures of 64-byte messages by 100 keys", results=records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

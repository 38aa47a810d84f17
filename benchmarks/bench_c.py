# SPDX-License-Identifier: Apache-2.0
"""`make bench-c`: the C benchmark of the core (tests/c/bench_core.c -go) per field backend,
and `openssl speed` for ECDSA and ECDH P-256 in the same run, with ratios.

    python3 benchmarks/bench_c.py tests/c/bin/bench_core-portable tests/c/bin/bench_core-x86_64_adx
    .venv/bin/python benchmarks/bench_c.py --json FILE BINARY...   # also the figures (plot.py)

Rounds alternate OpenSSL and every backend (ROUNDS, default 3), printing the Go benchmark
lines as they come. The summary takes, for every figure on both sides, its best round:
on a shared machine the fastest run is the one least disturbed by other processes, and
treating both sides alike keeps the ratio fair. Ratio = p256 / OpenSSL (below 1: p256 is
faster).
"""
import os
import re
import shutil
import subprocess
import sys

# ECDHP256Precomputed<w>: ECDH with the peer's per-key table of w-bit windows, against
# OpenSSL's plain ECDH (it has no such table); PubTableBuild<w>, its build, has no ratio.
OPS = [("SignP256", "sign"), ("VerifyP256", "verify"), ("ECDHP256", "ecdh")] + [
    ("ECDHP256Precomputed%d" % w, "ecdh") for w in range(4, 9)]
ROUNDS = int(os.environ.get("ROUNDS", "3"))


def run_openssl():
    """(version, {sign, verify, ecdh: ns/op}) from `openssl speed`, or None."""
    if shutil.which("openssl") is None:
        return None
    r = subprocess.run(["openssl", "speed", "-seconds", "1", "ecdsap256", "ecdhp256"],
                       capture_output=True, text=True)
    res = {}
    for line in r.stdout.splitlines():
        m = re.match(r"\s*256 bits ecdsa \(nistp256\)\s+\S+s\s+\S+s\s+([\d.]+)\s+([\d.]+)", line)
        if m:
            res["sign"] = 1e9 / float(m.group(1))
            res["verify"] = 1e9 / float(m.group(2))
        m = re.match(r"\s*256 bits ecdh \(nistp256\)\s+\S+s\s+([\d.]+)", line)
        if m:
            res["ecdh"] = 1e9 / float(m.group(1))
    if len(res) != 3:
        return None
    version = subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout
    print("openssl speed: sign %.1f us, verify %.1f us, ecdh %.1f us" %
          (res["sign"] / 1e3, res["verify"] / 1e3, res["ecdh"] / 1e3))
    return version.strip(), res


def run_backend(binary):
    r = subprocess.run([binary, "-go"], capture_output=True, text=True, check=True)
    sys.stdout.write(r.stdout)
    sys.stdout.flush()
    backend = re.search(r"^pkg: p256/(\S+)", r.stdout, re.M).group(1)
    ns = {m.group(1): float(m.group(2))
          for m in re.finditer(r"^Benchmark(\w+)-\d+\s+\d+\s+([\d.]+) ns/op", r.stdout, re.M)}
    return backend, ns


def best(dicts):
    return {k: min(d[k] for d in dicts) for k in dicts[0]}


def main(binaries, json_path=None):
    run = None
    if json_path:  # the venv's python: p256 describes the machine (benchmarks/_runinfo.py)
        import _runinfo
        run = _runinfo.Run("p256-bench-c/1", sys.argv[1:])
    ossl_runs, ours = [], {}
    for rnd in range(ROUNDS):
        print("\n# round %d of %d" % (rnd + 1, ROUNDS))
        o = run_openssl()
        if o is not None:
            ossl_runs.append(o)
        for b in binaries:
            name, ns = run_backend(b)
            ours.setdefault(name, []).append(ns)
    names = list(ours)
    rounds = ours
    ours = {name: best(runs) for name, runs in ours.items()}
    if run is not None:
        _runinfo.write_json(json_path, run.doc(
            rounds=ROUNDS, figure="best of the rounds, ns/op (thread CPU time)",
            openssl_version=ossl_runs[0][0] if ossl_runs else None,
            openssl={op: {"best_ns": min(r[1][op] for r in ossl_runs),
                          "rounds_ns": [r[1][op] for r in ossl_runs],
                          "spread": _runinfo.spread([r[1][op] for r in ossl_runs])}
                     for op in ("sign", "verify", "ecdh")} if ossl_runs else None,
            backends={name: {k: {"best_ns": ours[name][k], "rounds_ns": [r[k] for r in runs],
                                 "spread": _runinfo.spread([r[k] for r in runs])}
                             for k in ours[name]} for name, runs in rounds.items()},
            ops=OPS))

    print("\n# best of %d rounds, ns/op" % ROUNDS)
    benches = list(ours[names[0]])
    print("| benchmark | " + " | ".join(names) + " |")
    print("|---" * (1 + len(names)) + "|")
    for k in benches:
        print("| %s | " % k + " | ".join("%.1f" % ours[n][k] for n in names) + " |")
    if "portable" in ours and len(names) > 1:
        for n in names:
            if n != "portable":
                print("\n%s / portable: " % n + ", ".join(
                    "%s %.2f" % (k, ours[n][k] / ours["portable"][k]) for k in benches))
    if not ossl_runs:
        print("\nopenssl not found: no ratios")
        return 0
    ossl = best([r[1] for r in ossl_runs])
    print("\n# p256 vs %s (`openssl speed -seconds 1 ecdsap256 ecdhp256`), best of %d rounds"
          % (ossl_runs[0][0], len(ossl_runs)))
    print("| operation | OpenSSL | " + " | ".join("p256 %s | ratio" % n for n in names) + " |")
    print("|---" * (2 + 2 * len(names)) + "|")
    for bench, op in OPS:
        print("| %s | %.1f us |" % (bench, ossl[op] / 1e3) + "".join(
            " %.1f us | %.2f |" % (ours[n][bench] / 1e3, ours[n][bench] / ossl[op])
            for n in names))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    json_path = None
    if "--json" in args:  # --json FILE: also the figures, for benchmarks/plot.py
        i = args.index("--json")
        json_path = args[i + 1]
        del args[i:i + 2]
    sys.exit(main(args, json_path))

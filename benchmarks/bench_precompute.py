# SPDX-License-Identifier: Apache-2.0
"""Precomputed public keys (a benchmark, not a test): docs/precompute.md, docs/performance.md.

    python benchmarks/bench_precompute.py [--rounds 15] [--number 200] [--tokens 10000] [--json FILE]

Part 1, in one process with alternating rounds (so that load from other processes hits
every configuration alike): one verification of a DER ECDSA/SHA-256 signature over a
64-byte message by a plain p256.PublicKey, by precomputed keys of each window size and by
cryptography (OpenSSL); the build cost of each table, also in plain verifications. Medians
of the rounds, in microseconds.

Part 2, ECDH with a reused peer key: sk.exchange(peer) with a plain peer, with peers
precomputed at each window size (the constant-time comb over the peer's table) and
cryptography's exchange(ECDH()); the build cost of each table, also in plain exchanges.
Medians of the rounds, in microseconds of the thread's CPU time (as make bench-c counts:
on a shared machine other processes then slow neither side); --no-verify skips part 1.

Part 3, a JWT gateway: N ES256 compact tokens signed by 3 issuer keys, verified by p256
(JWK -> precomputed PublicKey -> verify of the raw signature over header.payload) and by
PyJWT with cryptography (jwt.decode with the issuer's key); tokens/s for both.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import sys
import time

import _runinfo
from _timing import per_call
import p256

WINDOWS = (4, 5, 6, 7, 8)


def _per_call_us(fn, number, timer=time.perf_counter):
    return per_call(fn, number, timer) * 1e6


def _timed_rounds(cases, sec1, rounds, number, timer):
    """Medians (us) of every case and of each window's build from sec1, over alternating
    rounds; prints the cases against "cryptography" and "plain"."""
    builds = {w: (lambda w: lambda: p256.PublicKey.from_bytes(sec1).precompute(window=w))(w)
              for w in WINDOWS}
    times = {name: [] for name in list(cases) + ["build w=%d" % w for w in WINDOWS]}
    for _ in range(rounds):
        for name, fn in cases.items():
            times[name].append(_per_call_us(fn, number, timer))
        for w, fn in builds.items():
            times["build w=%d" % w].append(_per_call_us(fn, max(1, number // 20), timer))
    med = {name: statistics.median(v) for name, v in times.items()}
    print("%-20s %10s %12s %10s" % ("", "median us", "x crypto", "x plain"))
    for name in cases:
        print("%-20s %10.1f %12.2f %10.2f" % (name, med[name], med[name] / med["cryptography"],
                                               med[name] / med["plain"]))
    return med, times


def _figures(times, pre):
    """The JSON of one part: per case and build, the rounds' microseconds, their median
    and spread; per window, the table's bytes."""
    return {"cases": {name: {"us": v, "median_us": statistics.median(v),
                             "spread": _runinfo.spread(v)} for name, v in times.items()},
            "table_bytes": {str(w): pre[w]._t.nbytes for w in WINDOWS}}


def part1(rounds, number):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec

    sk = p256.PrivateKey.generate()
    msg = os.urandom(64)
    sig = sk.sign(msg)
    sec1 = sk.public_key.to_bytes()
    plain = p256.PublicKey.from_bytes(sec1)
    pre = {w: p256.PublicKey.from_bytes(sec1).precompute(window=w) for w in WINDOWS}
    cpub = sk.public_key.to_cryptography()
    algo = ec.ECDSA(hashes.SHA256())

    def crypto_verify():
        cpub.verify(sig, msg, algo)

    cases = {"plain": lambda: plain.verify(sig, msg), "cryptography": crypto_verify}
    for w in WINDOWS:
        cases["precomputed w=%d" % w] = (lambda k: lambda: k.verify(sig, msg))(pre[w])
    med, times = _timed_rounds(cases, sec1, rounds, number, time.perf_counter)
    print("%-20s %10s %12s %10s" % ("build", "median us", "plain verif.", "bytes"))
    for w in WINDOWS:
        name = "build w=%d" % w
        print("%-20s %10.1f %12.1f %10d" % (name, med[name], med[name] / med["plain"],
                                             pre[w]._t.nbytes))
    return dict(_figures(times, pre), timer="wall (perf_counter)")


def part_ecdh(rounds, number):
    from cryptography.hazmat.primitives.asymmetric import ec

    sk, peer_sk = p256.PrivateKey.generate(), p256.PrivateKey.generate()
    sec1 = peer_sk.public_key.to_bytes()
    plain = p256.PublicKey.from_bytes(sec1)
    pre = {w: p256.PublicKey.from_bytes(sec1).precompute(window=w) for w in WINDOWS}
    csk = ec.derive_private_key(int.from_bytes(sk.to_bytes(), "big"), ec.SECP256R1())
    cpeer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sec1)
    want = sk.exchange(plain)
    assert csk.exchange(ec.ECDH(), cpeer) == want
    assert all(sk.exchange(k) == want for k in pre.values())

    cases = {"plain": lambda: sk.exchange(plain),
             "cryptography": lambda: csk.exchange(ec.ECDH(), cpeer)}
    for w in WINDOWS:
        cases["precomputed w=%d" % w] = (lambda k: lambda: sk.exchange(k))(pre[w])
    print("ECDH with a reused peer key (CPU time of the thread)")
    med, times = _timed_rounds(cases, sec1, rounds, number, time.thread_time)
    print("%-20s %10s %12s" % ("build", "median us", "plain ecdh"))
    for w in WINDOWS:
        name = "build w=%d" % w
        print("%-20s %10.1f %12.1f" % (name, med[name], med[name] / med["plain"]))
    return dict(_figures(times, pre), timer="CPU time of the thread (thread_time)")


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def _unb64url(text):
    return base64.urlsafe_b64decode(text + b"=" * (-len(text) % 4))


def part2(ntokens):
    import jwt
    from cryptography.hazmat.primitives.serialization import load_der_public_key

    issuers = [p256.PrivateKey.generate() for _ in range(3)]
    jwks = {"k%d" % i: sk.public_key.to_jwk() for i, sk in enumerate(issuers)}
    tokens = []
    for i in range(ntokens):
        kid = "k%d" % (i % 3)
        header = _b64url(json.dumps({"alg": "ES256", "typ": "JWT", "kid": kid}).encode())
        payload = _b64url(json.dumps({"sub": "user%d" % i, "iat": 1700000000 + i}).encode())
        signing_input = header + b"." + payload
        sig = issuers[i % 3].sign(signing_input, encoding="raw")
        tokens.append((signing_input + b"." + _b64url(sig)).decode())

    def with_p256():
        keys = {kid: p256.PublicKey.from_jwk(j).precompute() for kid, j in jwks.items()}
        ok = 0
        for token in tokens:
            t = token.encode()
            signing_input, _, sig = t.rpartition(b".")
            header = json.loads(_unb64url(signing_input.partition(b".")[0]))
            ok += keys[header["kid"]].verify(_unb64url(sig), signing_input, encoding="raw")
        return ok

    def with_pyjwt():
        keys = {kid: load_der_public_key(p256.PublicKey.from_jwk(j).to_der())
                for kid, j in jwks.items()}
        ok = 0
        for token in tokens:
            kid = jwt.get_unverified_header(token)["kid"]
            jwt.decode(token, key=keys[kid], algorithms=["ES256"])
            ok += 1
        return ok

    rates = {"p256 (precomputed keys)": [], "PyJWT + cryptography": []}
    for _ in range(3):
        for name, fn in (("p256 (precomputed keys)", with_p256),
                         ("PyJWT + cryptography", with_pyjwt)):
            t0 = time.perf_counter()
            assert fn() == ntokens
            rates[name].append(ntokens / (time.perf_counter() - t0))
    for name, r in rates.items():
        print("%-26s %10.0f tokens/s (median of 3)" % (name, statistics.median(r)))
    return {name: {"tokens_per_s": r, "median_tokens_per_s": statistics.median(r)}
            for name, r in rates.items()}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--number", type=int, default=200)
    ap.add_argument("--tokens", type=int, default=10000)
    ap.add_argument("--no-verify", action="store_true", help="skip part 1 (verification)")
    ap.add_argument("--json", metavar="FILE",
                    help="also write the rounds' figures as JSON (benchmarks/plot.py)")
    args = ap.parse_args(argv)
    run = _runinfo.Run("p256-bench-precompute/1", argv if argv is not None else sys.argv[1:])
    print("p256 %s, backend %s, load average %s" % (p256.__version__, p256.backend(),
                                                     " ".join("%.2f" % v for v in os.getloadavg())))
    figures = {"rounds": args.rounds, "number": args.number}
    if not args.no_verify:
        figures["verify"] = part1(args.rounds, args.number)
    figures["ecdh"] = part_ecdh(args.rounds, args.number)
    if args.tokens:
        figures["jwt"] = part2(args.tokens)
    print("load average after: %s" % " ".join("%.2f" % v for v in os.getloadavg()))
    if args.json:
        _runinfo.write_json(args.json, run.doc(**figures))


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: Apache-2.0
"""End-to-end ES256 in PyJWT and joserfc: the library's default against the library with
p256 registered (p256.contrib), in the same run.

    python benchmarks/bench_jose.py [--rounds 9] [--n 300]

For each library: encode (sign) and decode (verify) of a typical token (a protected
header with kid, seven claims), with the same key every time ("repeated key": the
precomputed table of p256's cache applies after the first sighting) and with a new key
every time ("new key each time": keys that never come back, no table is built). Keys are
what each library's users hold: PEM text for PyJWT, joserfc ECKey objects for joserfc.
Rounds alternate default and p256 (interleaved), each round timing n operations; the
table gives each side's median time per operation and the ratio p256 / default (below
1: p256 is faster). Decoding checks the claims (exp, aud, iss) as services do.
"""

from __future__ import annotations

import argparse
import statistics
import time

import p256

CLAIMS = {"iss": "https://issuer.example", "sub": "user-1234567890", "aud": "api.example",
          "iat": 1767225600, "nbf": 1767225600, "exp": 4102444800,
          "scope": "openid profile email"}


def _keys(count: int):
    return [p256.PrivateKey.generate() for _ in range(count)]


def pyjwt_cases(n: int, rounds: int):
    import jwt
    from jwt import api_jwk, api_jws

    default = jwt.PyJWT()  # PyJWT's own ES256
    default._jws = api_jws.PyJWS()
    ours = jwt.PyJWT()
    ours._jws = api_jws.PyJWS()
    saved = api_jwk.get_default_algorithms
    from p256.contrib import pyjwt as contrib

    contrib.register(ours._jws)
    api_jwk.get_default_algorithms = saved
    one = _keys(1)[0]
    sk_pem, pk_pem = one.to_pem().decode(), one.public_key.to_pem().decode()
    opts = {"algorithms": ["ES256"], "audience": "api.example", "issuer": "https://issuer.example"}

    def case(lib):
        token = lib.encode(CLAIMS, sk_pem, algorithm="ES256", headers={"kid": "k1"})
        pool = iter([(lib.encode(CLAIMS, k.to_pem().decode(), algorithm="ES256",
                                 headers={"kid": "k1"}), k.public_key.to_pem().decode())
                     for k in _keys(n * (rounds + 1))])

        def new_keys():
            for _ in range(n):
                t, p = next(pool)
                lib.decode(t, p, **opts)
        return {
            "encode": lambda: [lib.encode(CLAIMS, sk_pem, algorithm="ES256",
                                          headers={"kid": "k1"}) for _ in range(n)],
            "decode, repeated key": lambda: [lib.decode(token, pk_pem, **opts) for _ in range(n)],
            "decode, new key each time": new_keys,
        }
    return {"default": case(default), "p256": case(ours)}


def joserfc_cases(n: int, rounds: int):
    from joserfc import jwt as jf_jwt
    from joserfc.jwk import ECKey
    from joserfc.jws import JWSRegistry
    from p256.contrib import joserfc as contrib

    theirs = JWSRegistry.algorithms["ES256"]
    mine = contrib.ES256Algorithm()
    one = _keys(1)[0]
    sk, pk = ECKey.import_key(one.to_pem()), ECKey.import_key(one.public_key.to_pem())
    header = {"alg": "ES256", "kid": "k1"}

    def use(algorithm):
        def switch():
            JWSRegistry.algorithms["ES256"] = algorithm
        return switch

    def case(switch):
        switch()
        token = jf_jwt.encode(header, CLAIMS, sk)
        pool = iter([(jf_jwt.encode(header, CLAIMS, ECKey.import_key(k.to_pem())),
                      ECKey.import_key(k.public_key.to_pem())) for k in _keys(n * (rounds + 1))])

        def new_keys():
            for _ in range(n):
                decode(*next(pool))

        def decode(t, k):
            claims = jf_jwt.decode(t, k).claims
            jf_jwt.JWTClaimsRegistry(aud={"essential": True, "value": "api.example"},
                                     iss={"essential": True,
                                          "value": "https://issuer.example"}).validate(claims)

        def timed(fn):
            def run():
                switch()
                fn()
            return run
        return {
            "encode": timed(lambda: [jf_jwt.encode(header, CLAIMS, sk) for _ in range(n)]),
            "decode, repeated key": timed(lambda: [decode(token, pk) for _ in range(n)]),
            "decode, new key each time": timed(new_keys),
        }
    cases = {"default": case(use(theirs)), "p256": case(use(mine))}
    JWSRegistry.algorithms["ES256"] = theirs
    return cases


def measure(cases, n: int, rounds: int):
    """{operation: {side: median seconds per operation}}, default and p256 interleaved."""
    times = {op: {side: [] for side in cases} for op in cases["default"]}
    for op in times:
        for side in cases:  # warm up (the repeated key's table is built here)
            cases[side][op]()
        for r in range(rounds):
            for side in (("default", "p256") if r % 2 == 0 else ("p256", "default")):
                start = time.perf_counter()
                cases[side][op]()
                times[op][side].append((time.perf_counter() - start) / n)
    return {op: {side: statistics.median(v) for side, v in sides.items()}
            for op, sides in times.items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args(argv)
    print("| library | operation | default (us) | with p256 (us) | p256 / default |")
    print("|---|---|---:|---:|---:|")
    for library, make in (("PyJWT", pyjwt_cases), ("joserfc", joserfc_cases)):
        for op, sides in measure(make(args.n, args.rounds), args.n, args.rounds).items():
            print("| %s | %s | %.1f | %.1f | %.2f |" % (
                library, op, sides["default"] * 1e6, sides["p256"] * 1e6,
                sides["p256"] / sides["default"]))


if __name__ == "__main__":
    main()

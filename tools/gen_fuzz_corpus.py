#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpus of tests/c/fuzz_parse.c into tests/c/fuzz_corpus/ (one valid
input per target, so the fuzzer starts from the accepting paths):

    python3 tools/gen_fuzz_corpus.py
"""
import hashlib
import pathlib

from p256_affine import G, N, mul

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "c" / "fuzz_corpus"


def be(v, n=32):
    return v.to_bytes(n, "big")


def main():
    d, k = 0xC0FFEE, 0x1234567
    q = mul(d, G)
    pub = b"\x04" + be(q[0]) + be(q[1])
    digest = hashlib.sha256(b"fuzz").digest()
    e = int.from_bytes(digest, "big") % N
    r = mul(k, G)[0] % N
    s = pow(k, -1, N) * (e + r * d) % N

    def der_int(v):
        b = v.to_bytes((v.bit_length() + 8) // 8, "big")
        return b"\x02" + bytes([len(b)]) + b

    body = der_int(r) + der_int(s)
    seeds = {
        "0-uncompressed": b"\x00" + pub,
        "0-compressed": b"\x00" + bytes([2 + (q[1] & 1)]) + be(q[0]),
        "1-der": b"\x01" + b"\x30" + bytes([len(body)]) + body,
        "2-valid-signature": b"\x02" + pub + be(r) + be(s) + digest,
        "3-mult": b"\x03" + be(k) + pub,
    }
    OUT.mkdir(exist_ok=True)
    for name, blob in seeds.items():
        (OUT / name).write_bytes(blob)


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: Apache-2.0
"""Hashing to P-256, RFC 9380: p256.expand_message_xmd, hash_to_curve, encode_to_curve,
hash_to_scalar, and p256.reference's pure-Python twins (the oracle).

- every vector of RFC 9380 J.1.1 (P256_XMD:SHA-256_SSWU_RO_), J.1.2 (_NU_) and K.1
  (expand_message_xmd, SHA-256, with a 38-byte and a 256-byte DST) through the reference
  step by step (msg -> u -> Q0, Q1 -> P) and through the public functions;
- the public functions against the reference on random messages and tags (tags of 1,
  255, 256 and 300 bytes: the oversize rule on both sides of its edge);
- the reference's map against the RFC's other statement of it (6.6.2, with an inversion
  and a square root), and sqrt_ratio's contract;
- every argument error;
- negative controls: the vector checks fail for a wrong tag, a DST over 255 bytes used
  as is, a map that picks the other root, a hash_to_field that reduces 32 bytes.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import p256
from p256 import reference as ref
from vectors_util import VECTORS

H2C = VECTORS / "hash_to_curve"
C = ref.P256
P, N = C.p, C.n


def load(name: str) -> dict:
    with open(H2C / name, "rb") as f:
        return json.load(f)


RO = load("P256_XMD_SHA-256_SSWU_RO_.json")
NU = load("P256_XMD_SHA-256_SSWU_NU_.json")
EXPAND = [load("expand_message_xmd_SHA256_38.json"), load("expand_message_xmd_SHA256_256.json")]


def xy(obj: dict) -> tuple:
    return int(obj["x"], 16), int(obj["y"], 16)


def sec1(pt: tuple) -> bytes:
    return b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big")


def test_the_vector_files_are_complete():
    assert RO["ciphersuite"] == "P256_XMD:SHA-256_SSWU_RO_" and len(RO["vectors"]) == 5
    assert NU["ciphersuite"] == "P256_XMD:SHA-256_SSWU_NU_" and len(NU["vectors"]) == 5
    assert [len(e["tests"]) for e in EXPAND] == [10, 10]
    assert len(EXPAND[1]["DST"]) > 255  # K.1's long tag: the oversize rule
    for suite in (RO, NU):
        assert int(suite["Z"], 16) == ref.H2C_Z == P - 10 and int(suite["L"], 16) == ref.H2C_L
        assert int(suite["field"]["p"], 16) == P


# -- the reference, step by step ----------------------------------------------------------

def suite_mismatches(suite: dict, dst: bytes, hash_to_field, map_to_curve, encode) -> list:
    """Every step of a J.1 suite's vectors that the given functions get wrong."""
    count = 2 if suite["randomOracle"] else 1
    names = ("Q0", "Q1") if count == 2 else ("Q",)
    wrong = []
    for v in suite["vectors"]:
        msg = v["msg"].encode()
        u = hash_to_field(msg, dst, count)
        if u != [int(x, 16) for x in v["u"]]:
            wrong.append((v["msg"], "u"))
            continue
        for ui, name in zip(u, names):
            if map_to_curve(ui) != xy(v[name]):
                wrong.append((v["msg"], name))
        if encode(msg, dst) != xy(v["P"]):
            wrong.append((v["msg"], "P"))
    return wrong


def expand_mismatches(expand) -> list:
    wrong = []
    for f in EXPAND:
        for t in f["tests"]:
            out = expand(t["msg"].encode(), f["DST"].encode(), int(t["len_in_bytes"], 16))
            if out.hex() != t["uniform_bytes"]:
                wrong.append((len(f["DST"]), t["msg"][:10], t["len_in_bytes"]))
    return wrong


@pytest.mark.parametrize("suite", [RO, NU], ids=["RO", "NU"])
def test_reference_passes_every_suite_vector(suite):
    encode = ref.hash_to_curve if suite["randomOracle"] else ref.encode_to_curve
    assert suite_mismatches(suite, suite["dst"].encode(), ref.hash_to_field,
                            ref.map_to_curve_simple_swu, encode) == []


def test_reference_passes_every_expand_vector():
    assert expand_mismatches(ref.expand_message_xmd) == []


def test_reference_sums_the_two_maps():
    for v in RO["vectors"]:
        assert C.add(xy(v["Q0"]), xy(v["Q1"])) == xy(v["P"])
    for v in NU["vectors"]:
        assert xy(v["Q"]) == xy(v["P"])  # cofactor 1: nothing to clear


# -- negative controls: the checks above fail when the code is wrong ------------------------

@pytest.mark.parametrize("suite", [RO, NU], ids=["RO", "NU"])
def test_a_wrong_tag_fails_every_vector(suite):
    encode = ref.hash_to_curve if suite["randomOracle"] else ref.encode_to_curve
    wrong = suite_mismatches(suite, suite["dst"].encode() + b"!", ref.hash_to_field,
                             ref.map_to_curve_simple_swu, encode)
    assert len(wrong) == len(suite["vectors"])


def test_a_long_tag_used_as_is_fails_the_long_tag_vectors(monkeypatch):
    real = ref.expand_message_xmd

    def no_oversize_rule(msg, dst, n):  # the tag's length byte wraps instead
        dst = bytes(dst)
        if len(dst) <= 255:
            return real(msg, dst, n)
        dst_prime = dst + bytes([len(dst) & 0xFF])
        b0 = hashlib.sha256(bytes(64) + msg + n.to_bytes(2, "big") + b"\x00" + dst_prime).digest()
        out, bi = b"", b"\x00" * 32
        for i in range(1, -(-n // 32) + 1):
            bi = hashlib.sha256(bytes(a ^ b for a, b in zip(b0, bi)) + bytes([i]) + dst_prime).digest()
            out += bi
        return out[:n]

    wrong = expand_mismatches(no_oversize_rule)
    assert len(wrong) == 10 and {w[0] for w in wrong} == {len(EXPAND[1]["DST"])}


@pytest.mark.parametrize("suite", [RO, NU], ids=["RO", "NU"])
def test_the_other_root_fails_the_map_vectors(suite):
    def other_root(u):
        x, y = ref.map_to_curve_simple_swu(u)
        return x, P - y

    def encode(msg, dst):
        us = ref.hash_to_field(msg, dst, 2 if suite["randomOracle"] else 1)
        pt = None
        for u in us:
            pt = C.add(pt, other_root(u))
        return pt

    wrong = suite_mismatches(suite, suite["dst"].encode(), ref.hash_to_field, other_root, encode)
    assert {w[1] for w in wrong} >= {"P"} and len(wrong) >= len(suite["vectors"])


def test_a_short_field_element_fails_the_u_vectors():
    def hash_to_field_32(msg, dst, count):  # L = 32: the biased reduction RFC 9380 5 warns of
        uniform = ref.expand_message_xmd(msg, dst, 32 * count)
        return [int.from_bytes(uniform[32 * i:32 * i + 32], "big") % P for i in range(count)]

    wrong = suite_mismatches(RO, RO["dst"].encode(), hash_to_field_32, ref.map_to_curve_simple_swu,
                             ref.hash_to_curve)
    assert [w[1] for w in wrong] == ["u"] * 5


# -- the reference's map, against the RFC's other statement of it --------------------------

def sswu_by_definition(u: int) -> tuple:
    """RFC 9380 6.6.2 as first written: x1 = (-B / A) * (1 + tv1), the exceptional case,
    gx1 square or else x2 = Z u^2 x1, the sign of y from u."""
    a, b, z = P - 3, C.b, ref.H2C_Z
    zu2 = z * u * u % P
    den = (zu2 * zu2 + zu2) % P
    if den == 0:
        x1 = b * pow(z * a, -1, P) % P
    else:
        x1 = (P - b) * pow(a, -1, P) % P * (1 + pow(den, -1, P)) % P
    gx1 = (x1 ** 3 + a * x1 + b) % P
    if pow(gx1, (P - 1) // 2, P) in (0, 1):
        x, gx = x1, gx1
    else:
        x = zu2 * x1 % P
        gx = (x ** 3 + a * x + b) % P
    y = pow(gx, (P + 1) // 4, P)
    assert y * y % P == gx
    if (u & 1) != (y & 1):
        y = P - y if y else 0
    return x, y


def test_map_agrees_with_its_definition():
    rng = random.Random(9380)
    specials = [0, 1, 2, P - 1, P - 2, (P - 1) // 2]
    for u in specials + [rng.randrange(P) for _ in range(200)]:
        pt = ref.map_to_curve_simple_swu(u)
        assert pt == sswu_by_definition(u), u
        assert C.is_on_curve(*pt)


def test_map_definition_catches_a_wrong_exceptional_case():
    """Negative control: u = 0 takes the exceptional branch (tv2 = 0 in the straight-line
    form); a map that gets it wrong differs there."""
    x0, y0 = ref.map_to_curve_simple_swu(0)
    assert (x0, y0) == sswu_by_definition(0)
    assert (x0, y0) != sswu_by_definition(1)


def test_sqrt_ratio_contract():
    rng = random.Random(3)
    seen = set()
    for _ in range(200):
        u, v = rng.randrange(P), rng.randrange(1, P)
        ok, y = ref.sqrt_ratio(u, v)
        seen.add(ok)
        assert y * y * v % P == (u if ok else ref.H2C_Z * u % P)
    assert seen == {True, False}
    assert ref.sqrt_ratio(0, 5) == (True, 0)
    with pytest.raises(ValueError):
        ref.sqrt_ratio(1, 0)
    with pytest.raises(ValueError):
        ref.sqrt_ratio(P, 1)


def test_reference_argument_errors():
    with pytest.raises(TypeError):
        ref.expand_message_xmd("msg", b"dst", 32)
    with pytest.raises(TypeError):
        ref.expand_message_xmd(b"msg", b"dst", True)
    for n in (0, 8161):
        with pytest.raises(ValueError):
            ref.expand_message_xmd(b"msg", b"dst", n)
    with pytest.raises(ValueError):
        ref.expand_message_xmd(b"msg", b"", 32)
    with pytest.raises(ValueError):
        ref.hash_to_field(b"m", b"d", 1, 7)
    with pytest.raises(ValueError):
        ref.hash_to_field(b"m", b"d", 0)
    with pytest.raises(ValueError):
        ref.map_to_curve_simple_swu(P)
    assert len(ref.expand_message_xmd(b"", b"d", 8160)) == 8160
    assert 0 <= ref.hash_to_scalar(b"m", b"d") < N


# -- the public functions ---------------------------------------------------------------------

def test_public_expand_passes_every_vector():
    assert expand_mismatches(p256.expand_message_xmd) == []


@pytest.mark.parametrize("suite", [RO, NU], ids=["RO", "NU"])
def test_public_hash_passes_every_vector(suite):
    fn = p256.hash_to_curve if suite["randomOracle"] else p256.encode_to_curve
    dst = suite["dst"].encode()
    for v in suite["vectors"]:
        pt = fn(v["msg"].encode(), dst)
        assert pt.to_bytes() == sec1(xy(v["P"])), v["msg"]
        assert pt == type(pt).from_bytes(sec1(xy(v["P"])))


@pytest.mark.parametrize("suite", [RO, NU], ids=["RO", "NU"])
def test_public_hash_fails_the_vectors_with_a_wrong_tag(suite):
    """Negative control of the test above."""
    fn = p256.hash_to_curve if suite["randomOracle"] else p256.encode_to_curve
    dst = suite["dst"].encode()[:-1]
    for v in suite["vectors"]:
        assert fn(v["msg"].encode(), dst).to_bytes() != sec1(xy(v["P"]))


def random_tags(rng: random.Random) -> list:
    return [bytes([rng.randrange(256)]), rng.randbytes(37), rng.randbytes(255), rng.randbytes(256),
            rng.randbytes(300)]


def test_public_functions_agree_with_the_reference():
    rng = random.Random(44)
    for dst in random_tags(rng):
        for n in (0, 1, 63, 64, 65, 200):
            msg = rng.randbytes(n)
            for length in (1, 31, 32, 33, 48, 96, 255, 256, 8160):
                assert p256.expand_message_xmd(msg, dst, length) == ref.expand_message_xmd(msg, dst, length)
            assert p256.hash_to_curve(msg, dst).to_bytes() == sec1(ref.hash_to_curve(msg, dst))
            assert p256.encode_to_curve(msg, dst).to_bytes() == sec1(ref.encode_to_curve(msg, dst))
            assert int(p256.hash_to_scalar(msg, dst)) == ref.hash_to_scalar(msg, dst)


def test_hash_to_scalar_is_hash_to_field_over_n():
    msg, dst = b"hash to a scalar", b"HashToScalar-test"
    uniform = p256.expand_message_xmd(msg, dst, 48)
    assert int(p256.hash_to_scalar(msg, dst)) == int.from_bytes(uniform, "big") % N
    assert ref.hash_to_field(msg, dst, 1, N) == [int.from_bytes(uniform, "big") % N]


def test_bytes_like_arguments_are_bytes():
    msg, dst = b"\x00\x01message", b"QUUX-V01-CS02-with-P256_XMD:SHA-256_SSWU_RO_"
    want = p256.hash_to_curve(msg, dst)
    for conv in (bytearray, memoryview):
        assert p256.hash_to_curve(conv(msg), conv(dst)) == want
        assert p256.expand_message_xmd(conv(msg), conv(dst), 40) == p256.expand_message_xmd(msg, dst, 40)
        assert p256.encode_to_curve(conv(msg), conv(dst)) == p256.encode_to_curve(msg, dst)
        assert p256.hash_to_scalar(conv(msg), conv(dst)) == p256.hash_to_scalar(msg, dst)


@pytest.mark.parametrize("fn", [p256.hash_to_curve, p256.encode_to_curve, p256.hash_to_scalar],
                         ids=lambda f: f.__name__)
def test_public_argument_errors(fn):
    with pytest.raises(TypeError, match="msg"):
        fn("text", b"dst")
    with pytest.raises(TypeError, match="dst"):
        fn(b"msg", "dst")
    with pytest.raises(TypeError, match="msg"):
        fn(None, b"dst")
    with pytest.raises(ValueError, match="dst must not be empty"):
        fn(b"msg", b"")


def test_expand_argument_errors():
    with pytest.raises(TypeError, match="length"):
        p256.expand_message_xmd(b"m", b"d", 32.0)
    with pytest.raises(TypeError, match="length"):
        p256.expand_message_xmd(b"m", b"d", True)
    with pytest.raises(TypeError, match="msg"):
        p256.expand_message_xmd("m", b"d", 32)
    with pytest.raises(TypeError, match="dst"):
        p256.expand_message_xmd(b"m", ["d"], 32)
    for bad in (0, -1, 8161, 65535, 2**70):
        with pytest.raises(ValueError, match="length must be 1 to 8160"):
            p256.expand_message_xmd(b"m", b"d", bad)
    with pytest.raises(ValueError, match="dst must not be empty"):
        p256.expand_message_xmd(b"m", b"", 32)
    assert len(p256.expand_message_xmd(b"m", b"d", 8160)) == 8160
    assert len(p256.expand_message_xmd(b"m", b"d", 1)) == 1


def test_the_oversize_rule_is_exactly_at_255():
    msg = b"edge"
    for size in (254, 255, 256):
        dst = b"t" * size
        assert p256.expand_message_xmd(msg, dst, 32) == ref.expand_message_xmd(msg, dst, 32)
    long_dst = b"t" * 256
    hashed = hashlib.sha256(b"H2C-OVERSIZE-DST-" + long_dst).digest()
    assert p256.expand_message_xmd(msg, long_dst, 32) == p256.expand_message_xmd(msg, hashed, 32)
    assert p256.expand_message_xmd(msg, b"t" * 255, 32) != p256.expand_message_xmd(
        msg, hashlib.sha256(b"H2C-OVERSIZE-DST-" + b"t" * 255).digest(), 32)


def test_many_tags_and_lengths_stay_right():
    """expand_message_xmd keeps per-tag work between calls: more tags than it keeps, each
    with two lengths, in two passes, all agree with the reference."""
    for _ in range(2):
        for i in range(150):
            dst = b"tag %d" % i
            for length in (48, 96):
                assert p256.expand_message_xmd(b"m", dst, length) == ref.expand_message_xmd(b"m", dst, length)

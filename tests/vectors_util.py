# SPDX-License-Identifier: Apache-2.0
"""Shared helpers for tests that use the vendored test vectors (tests/vectors/).

Public API (other test modules import these names; keep them stable):

    VECTORS                      pathlib.Path of tests/vectors (override with env P256_VECTORS)
    load_wycheproof(name)        parsed JSON of tests/vectors/wycheproof/<name>
    wycheproof_params(names)     pytest.param(file_name, group, test, id="file:tcId") for every test
    der_sig_decode(sig)          strict DER ECDSA signature -> (r, s), or None if malformed
    spki_decode(der)             SubjectPublicKeyInfo (id-ecPublicKey, named curve) -> (curve name, SEC1 bytes)
    sec1_decode(curve, data)     SEC1 point (uncompressed or compressed) -> (x, y) on a reference curve
    hash_name(wycheproof_sha)    "SHA-256" -> "sha256" (hashlib name)
    eip7951_inputs(name)         (tcId, comment, 160-byte P256VERIFY input, expected output) of a
                                 secp256r1 ECDSA file, derived as EIP-7951's own test list is

Everything here is strict: DER means DER (definite, minimal lengths; minimal INTEGERs; no
trailing bytes), so BER-only encodings are rejected.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib

import pytest

VECTORS: pathlib.Path = pathlib.Path(
    os.environ.get("P256_VECTORS") or pathlib.Path(__file__).resolve().parent / "vectors"
)

__all__ = [
    "VECTORS",
    "load_wycheproof",
    "wycheproof_params",
    "der_sig_decode",
    "spki_decode",
    "sec1_decode",
    "hash_name",
    "eip7951_inputs",
]


# ---------------------------------------------------------------------------------------------
# Wycheproof files
# ---------------------------------------------------------------------------------------------


def load_wycheproof(name: str) -> dict:
    """The parsed JSON of VECTORS/wycheproof/<name> (e.g. "ecdsa_secp256r1_sha256_test.json")."""
    with open(VECTORS / "wycheproof" / name, "rb") as f:
        return json.load(f)


def wycheproof_params(names: list) -> list:
    """pytest.param(file_name, group, test, id=f"{file_name}:{tcId}") over every group and test."""
    params = []
    for file_name in names:
        data = load_wycheproof(file_name)
        for group in data["testGroups"]:
            for test in group["tests"]:
                params.append(pytest.param(file_name, group, test, id=f"{file_name}:{test['tcId']}"))
    return params


def eip7951_inputs(name: str) -> list:
    """(tcId, comment, input, expected) for every vector of a secp256r1 ECDSA file that a
    P256VERIFY input can carry, as EIP-7951 derives its test list: h = the message's hash
    (SHA-512's leftmost 256 bits, the ECDSA integer of FIPS 186-5), r and s as 32 bytes
    each, the key's x and y; expected 00..01 for "valid", b"" otherwise. Left out: r||s
    signatures that are not 64 bytes, DER that is malformed or holds an integer >= 2^256."""
    out = []
    for group in load_wycheproof(name)["testGroups"]:
        q = bytes.fromhex(group["publicKey"]["uncompressed"])[1:]
        for t in group["tests"]:
            sig = bytes.fromhex(t["sig"])
            if "p1363" in name:
                if len(sig) != 64:
                    continue
                rs = sig
            else:
                pair = der_sig_decode(sig)
                if pair is None or max(pair) >= 2**256:
                    continue
                rs = pair[0].to_bytes(32, "big") + pair[1].to_bytes(32, "big")
            h = hashlib.new(hash_name(group["sha"]), bytes.fromhex(t["msg"])).digest()[:32]
            assert t["result"] in ("valid", "invalid")
            expected = bytes(31) + b"\x01" if t["result"] == "valid" else b""
            out.append((t["tcId"], t["comment"], h + rs + q, expected))
    return out


_HASH_NAMES = {
    "SHA-1": "sha1",
    "SHA-224": "sha224",
    "SHA-256": "sha256",
    "SHA-384": "sha384",
    "SHA-512": "sha512",
    "SHA-512/224": "sha512_224",
    "SHA-512/256": "sha512_256",
    "SHA3-224": "sha3_224",
    "SHA3-256": "sha3_256",
    "SHA3-384": "sha3_384",
    "SHA3-512": "sha3_512",
}


def hash_name(wycheproof_sha: str) -> str:
    """hashlib name for a Wycheproof "sha" field: "SHA-256" -> "sha256" (ValueError if unknown)."""
    try:
        return _HASH_NAMES[wycheproof_sha]
    except KeyError:
        raise ValueError(f"unknown Wycheproof hash name {wycheproof_sha!r}") from None


# ---------------------------------------------------------------------------------------------
# Strict DER reading (X.690 section 10: definite, minimal lengths)
# ---------------------------------------------------------------------------------------------


class _DerError(ValueError):
    pass


def _der_read(buf: bytes, pos: int, end: int):
    """Read one TLV from buf[pos:end]; return (tag, value_start, value_end). _DerError if malformed.

    Only single-byte (low-number) tags are supported, which is all X.509 SPKIs and ECDSA
    signatures use.  Lengths must be definite and minimally encoded.
    """
    if pos >= end:
        raise _DerError("truncated: missing tag")
    tag = buf[pos]
    pos += 1
    if tag & 0x1F == 0x1F:
        raise _DerError("high tag number form is not expected here")
    if pos >= end:
        raise _DerError("truncated: missing length")
    first = buf[pos]
    pos += 1
    if first < 0x80:
        length = first
    elif first == 0x80:
        raise _DerError("indefinite length (BER) is not DER")
    else:
        nbytes = first & 0x7F
        if nbytes > 4 or pos + nbytes > end:  # 0xFF is reserved; >= 2^32 bytes cannot fit
            raise _DerError("bad long-form length")
        if buf[pos] == 0:
            raise _DerError("long-form length with a leading zero byte")
        length = int.from_bytes(buf[pos:pos + nbytes], "big")
        if length < 0x80:
            raise _DerError("long-form length for a value under 128 bytes")
        pos += nbytes
    if length > end - pos:
        raise _DerError("length runs past the end of the data")
    return tag, pos, pos + length


def _der_expect(buf, pos, end, tag):
    t, start, stop = _der_read(buf, pos, end)
    if t != tag:
        raise _DerError(f"expected tag 0x{tag:02x}, found 0x{t:02x}")
    return start, stop


def _der_uint(buf, start, stop) -> int:
    """Value of a DER INTEGER's contents that must be minimal and non-negative."""
    if stop == start:
        raise _DerError("empty INTEGER")
    if buf[start] & 0x80:
        raise _DerError("negative INTEGER")
    if stop - start > 1 and buf[start] == 0 and not buf[start + 1] & 0x80:
        raise _DerError("INTEGER with a superfluous leading zero")
    return int.from_bytes(buf[start:stop], "big")


def _as_bytes(data, what):
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{what} must be bytes, not {type(data).__name__}")


def der_sig_decode(sig: bytes):
    """Strict DER `SEQUENCE { INTEGER r, INTEGER s }` -> (r, s); None for ANY malformed input.

    Rejected: BER length forms (indefinite, long form where short suffices, leading zero length
    bytes), non-minimal or negative INTEGERs, wrong tags, extra elements, trailing bytes.
    Zero values are well-formed DER and are returned (range checks belong to the verifier).
    """
    sig = _as_bytes(sig, "sig")
    try:
        start, stop = _der_expect(sig, 0, len(sig), 0x30)
        if stop != len(sig):
            return None
        rs, re_ = _der_expect(sig, start, stop, 0x02)
        ss, se = _der_expect(sig, re_, stop, 0x02)
        if se != stop:
            return None
        return _der_uint(sig, rs, re_), _der_uint(sig, ss, se)
    except _DerError:
        return None


# DER encodings (tag 06, length, value) of the OIDs we know.
_OID_EC_PUBLIC_KEY = bytes.fromhex("06072a8648ce3d0201")  # 1.2.840.10045.2.1
_CURVE_OIDS = {
    bytes.fromhex("06052b81040021"): "P-224",  # 1.3.132.0.33 secp224r1
    bytes.fromhex("06082a8648ce3d030107"): "P-256",  # 1.2.840.10045.3.1.7 prime256v1
    bytes.fromhex("06052b81040022"): "P-384",  # 1.3.132.0.34 secp384r1
    bytes.fromhex("06052b81040023"): "P-521",  # 1.3.132.0.35 secp521r1
}


def spki_decode(der: bytes):
    """Parse a DER SubjectPublicKeyInfo (RFC 5280 4.1, RFC 5480) for an EC key on a named curve.

    Returns (curve name among "P-224", "P-256", "P-384", "P-521", SEC1 point bytes; the point
    itself is not checked here -- pass it to sec1_decode).  ValueError for anything else:
    malformed or non-DER encodings, trailing data, another algorithm, an unknown curve OID,
    explicit (specifiedCurve) or absent parameters, a BIT STRING with unused bits.
    """
    der = _as_bytes(der, "der")
    try:
        start, stop = _der_expect(der, 0, len(der), 0x30)
        if stop != len(der):
            raise _DerError("trailing data after SubjectPublicKeyInfo")
        alg_start, alg_stop = _der_expect(der, start, stop, 0x30)
        # AlgorithmIdentifier { algorithm OID, parameters ECParameters }
        t, os_, oe = _der_read(der, alg_start, alg_stop)
        if der[alg_start:oe] != _OID_EC_PUBLIC_KEY:
            raise ValueError("not an id-ecPublicKey SubjectPublicKeyInfo")
        t, ps, pe = _der_read(der, oe, alg_stop)
        if t == 0x30:
            raise ValueError("explicit EC parameters (specifiedCurve) are not supported")
        if t != 0x06:
            raise ValueError("EC parameters must be a namedCurve OID")
        if pe != alg_stop:
            raise _DerError("extra data in AlgorithmIdentifier")
        curve = _CURVE_OIDS.get(der[oe:pe])
        if curve is None:
            raise ValueError("unknown or unsupported named curve")
        bs, be = _der_expect(der, alg_stop, stop, 0x03)
        if be != stop:
            raise _DerError("extra data after subjectPublicKey")
        if bs == be or der[bs] != 0:
            raise ValueError("subjectPublicKey BIT STRING must have zero unused bits")
        return curve, der[bs + 1:be]
    except _DerError as exc:
        raise ValueError(f"malformed SubjectPublicKeyInfo: {exc}") from None


# ---------------------------------------------------------------------------------------------
# SEC1 points
# ---------------------------------------------------------------------------------------------


def _sqrt_mod(a: int, p: int):
    """A square root of a mod the odd prime p, or None if a is a non-residue.

    p = 3 (mod 4): a^((p+1)/4).  Otherwise (P-224: p = 1 mod 4) Tonelli-Shanks
    (Cohen, "A Course in Computational Algebraic Number Theory", Alg. 1.5.1).
    """
    a %= p
    if a == 0:
        return 0
    if pow(a, (p - 1) // 2, p) != 1:
        return None
    if p % 4 == 3:
        return pow(a, (p + 1) // 4, p)
    q, e = p - 1, 0
    while not q & 1:
        q >>= 1
        e += 1
    z = 2
    while pow(z, (p - 1) // 2, p) != p - 1:
        z += 1
    y = pow(z, q, p)  # generator of the 2-Sylow subgroup
    r = e
    x = pow(a, (q + 1) // 2, p)
    b = pow(a, q, p)
    while b != 1:
        m, t = 0, b
        while t != 1:
            t = t * t % p
            m += 1
        t = pow(y, 1 << (r - m - 1), p)
        y = t * t % p
        r = m
        x = x * t % p
        b = b * y % p
    return x


def sec1_decode(curve, data: bytes):
    """SEC 1 v2 section 2.3.4: 04||X||Y or 02/03||X -> (x, y) on the reference curve `curve`.

    ValueError for: the point at infinity (00), wrong length or prefix (hybrid 06/07 included),
    a coordinate >= p, a point not on the curve, a compressed X with no square root.
    """
    data = _as_bytes(data, "data")
    p = curve.p
    size = (p.bit_length() + 7) // 8
    if not data:
        raise ValueError("empty point encoding")
    prefix = data[0]
    if prefix == 0x00:
        raise ValueError("the point at infinity is not a valid public key")
    if prefix == 0x04:
        if len(data) != 1 + 2 * size:
            raise ValueError("uncompressed point has the wrong length")
        x = int.from_bytes(data[1:1 + size], "big")
        y = int.from_bytes(data[1 + size:], "big")
        if x >= p or y >= p:
            raise ValueError("coordinate >= p")
    elif prefix in (0x02, 0x03):
        if len(data) != 1 + size:
            raise ValueError("compressed point has the wrong length")
        x = int.from_bytes(data[1:], "big")
        if x >= p:
            raise ValueError("coordinate >= p")
        y = _sqrt_mod(x * x * x - 3 * x + curve.b, p)
        if y is None:
            raise ValueError("compressed x has no square root: not on the curve")
        if (y & 1) != (prefix & 1):
            y = (p - y) % p
    else:
        raise ValueError(f"unsupported point prefix 0x{prefix:02x}")
    if not curve.is_on_curve(x, y):
        raise ValueError(f"point is not on {curve.name}")
    return x, y

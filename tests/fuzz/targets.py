# SPDX-License-Identifier: Apache-2.0
"""Fuzz targets for the public Python API, each with a differential oracle.

Run one under atheris with ``python tests/fuzz/run.py TARGET`` (``make fuzz-smoke`` runs
them all for a bounded time); ``tests/test_fuzz_targets.py`` feeds each one the seed
corpus directly. A target is a function of one bytes input that returns normally or
raises ``Finding`` (an AssertionError) when a property fails; any other exception that
escapes is a finding too (atheris reports every uncaught exception as a crash).

What every target checks, beyond "no crash":

- the entry point raises only what docs/api.md documents for bad input (ValueError, with a
  message; never TypeError for bytes/str/dict arguments, never anything else), and the
  bytes-like variants (memoryview, bytearray; str for PEM) behave exactly like bytes;
- whatever is accepted round-trips: it re-encodes to the same bytes where the encoding
  is canonical (SEC1, SPKI DER, the canonical PEM rendering of the block, JWK members)
  and is strict DER (checked by the independent tests/fuzz/dertree.py);
- a differential oracle agrees on accept/reject and on the key or verdict:
  pyca/cryptography (OpenSSL) for SEC1 points, SPKI, PKCS#8/SEC1 private keys, PEM and
  ECDSA verification (DER and raw), an independent base64url decoder plus cryptography
  for JWK, and p256.reference (pure Python, written from the EIP text) for p256verify.

Where p256 and cryptography legitimately differ, the difference is listed in
DIFFERENCES below and checked narrowly, never skipped: the target proves that the input
is exactly of that kind (for instance, by rebuilding it in the form the other side
accepts and getting the same key). p256 may reject what cryptography accepts only for
the listed non-DER, non-canonical or out-of-contract encodings; it accepts what
cryptography rejects only for the two standard structures listed (E1, E2).

Negative controls: with the environment variable P256_FUZZ_PLANT set to a name in
PLANTS, the targets run against a deliberately broken p256 (a monkeypatch applied at
import) and must report it; ``make fuzz-smoke`` checks that they do.
"""

from __future__ import annotations

import base64
import collections
import hashlib
import itertools
import json
import os
import re
import time
import tracemalloc

import p256
from p256 import _der, reference as ref
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric import utils as ec_utils

import dertree

__all__ = ["TARGETS", "DESCRIPTIONS", "DIFFERENCES", "PLANTS", "Finding", "split_verify_input"]

N, P = p256.N, p256.P
CURVE = ec.SECP256R1()
EIP_ONE = (1).to_bytes(32, "big")
SCALAR_ONE = EIP_ONE
PublicKey, PrivateKey = p256.PublicKey, p256.PrivateKey

PRIME256V1 = bytes.fromhex("06082a8648ce3d030107")  # OID 1.2.840.10045.3.1.7, DER

# The documented differences between p256 and the oracle, by id. Each is checked by the
# function named in its text; docs/fuzzing.md lists them.
DIFFERENCES = {
    "D1-hybrid": "p256 rejects the X9.62 hybrid point form (prefix 06/07) inside an SPKI (a "
                 "certificate's subject key too), an ECPrivateKey or a PKCS#8 v2 publicKey, "
                 "which OpenSSL accepts: the API allows only SEC1 04/02/03 (SEC 1 v2 2.3.3 does not define hybrid; RFC 5480 2.2 "
                 "says to reject any other first octet; cryptography's own from_encoded_point "
                 "refuses it). "
                 "Checked: the same structure with the point rewritten as 04||X||Y loads in p256 "
                 "as cryptography's key.",
    "D2-explicit": "p256 rejects explicit (specifiedCurve) EC parameters, which cryptography "
                   "accepts when they equal P-256's: RFC 5480 2.1.1 says they MUST NOT be used. "
                   "Checked: the parameters element is a SEQUENCE.",
    "D3-pem-layout": "p256's PEM reader is stricter about layout than cryptography's: no whitespace "
                     "inside or before base64 lines, no blank lines or RFC 1421 headers inside a "
                     "block, lines end in LF or CRLF, \"-----BEGIN \" only at the start of a "
                     "well-formed BEGIN line. Checked: a block cryptography could have read, in "
                     "canonical PEM layout, loads in p256 as cryptography's key.",
    "D0-not-der": "p256 rejects input that is not DER (tests/fuzz/dertree.py finds a violation: "
                  "BER lengths, non-minimal INTEGERs, unsorted SET OF, high tag numbers, ...) "
                  "where cryptography checks less, as inside PKCS#8 attribute values (ASN.1 ANY). "
                  "Checked: dertree reports the violation.",
    "D4-attribute-depth": "p256 refuses PKCS#8 attribute values nested more than "
                          "p256._der.MAX_NESTING (32) levels deep, which cryptography does not "
                          "look into. Checked: the attributes' depth exceeds the limit.",
    "D5-pbes2-params": "p256 refuses PBES2 parameters that RFC 8018 rules out but cryptography "
                       "ignores: a PBKDF2/scrypt keyLength other than the AES key size. Checked: "
                       "the harness's own reading of the container finds that keyLength.",
    "E1-sec1-no-params": "p256 accepts a SEC1 ECPrivateKey without its [0] parameters (P-256 is "
                         "the only curve it knows; RFC 5915 makes them optional in the ASN.1); "
                         "cryptography cannot tell the curve and rejects it. Checked: the same "
                         "key with [0] prime256v1 inserted loads in cryptography with the same d.",
    "E2-pkcs8-v2": "p256 accepts PKCS#8 version 1 (RFC 5958 OneAsymmetricKey v2), with or without "
                   "its [1] publicKey (which must equal d*G); cryptography rejects v2. Checked: the "
                   "v1 structure (version 0, [1] removed) loads in cryptography with the same d, "
                   "and the [1] point is d*G. cryptography 51 reads v2 too: there the two agree.",
    "E3-pem-one-block": "p256 reads the first PEM block whose label fits and ignores the text "
                        "around it, other blocks included (as OpenSSL does; `openssl ecparam "
                        "-genkey` writes EC PARAMETERS first); cryptography parses every block "
                        "of the file and fails on a malformed one, and for a public key takes "
                        "only the first. Checked: cryptography loads the same key from p256's "
                        "block alone (BEGIN line to END line).",
}

HASHES = ("sha256", "sha224", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512")
_CRYPTO_HASHES = {
    "sha256": hashes.SHA256, "sha224": hashes.SHA224, "sha384": hashes.SHA384,
    "sha512": hashes.SHA512, "sha3_256": hashes.SHA3_256, "sha3_384": hashes.SHA3_384,
    "sha3_512": hashes.SHA3_512,
}


class Finding(AssertionError):
    """A property of the API failed for this input."""


_PLANT = os.environ.get("P256_FUZZ_PLANT") or None


def check(ok, what, data=None):
    if not ok:
        msg = what
        if data is not None:
            shown = data if len(data) <= 400 else data[:400] + b"..."
            msg += "\n  input (%d bytes): %s" % (len(data), shown.hex() if isinstance(shown, bytes) else shown)
        if _PLANT:
            msg += "\n  (negative control active: P256_FUZZ_PLANT=%s)" % _PLANT
        raise Finding(msg)


class Rejected:
    """The documented failure of an entry point: the ValueError it raised."""

    __slots__ = ("exc",)

    def __init__(self, exc):
        self.exc = exc

    def __repr__(self):
        return "Rejected(%s: %s)" % (type(self.exc).__name__, self.exc)


def attempt(what, fn, *args):
    """fn(*args), or Rejected for a ValueError; any other exception is a finding."""
    try:
        return fn(*args)
    except ValueError as exc:
        if not str(exc):
            raise Finding("%s raised ValueError without a message" % what) from exc
        return Rejected(exc)
    except Exception as exc:  # noqa: BLE001 -- exactly what we are looking for
        raise Finding("%s raised %s (%s); only ValueError is documented for bad input"
                      % (what, type(exc).__name__, exc)) from exc


#: Per-input limits of the DER targets: a slow or memory-hungry input is a finding (the
#: readers' work is linear in the input, tests/test_bounded_work.py; inputs here are a
#: few KiB, read in microseconds to a few milliseconds). CPU time, so a loaded machine
#: does not make findings of its own; Python allocations as tracemalloc counts them.
INPUT_CPU_SECONDS = 0.25
INPUT_MEMORY_MULTIPLE, INPUT_MEMORY_SLACK = 64, 1 << 20


def bounded(what, size, fn, *args):
    """attempt(what, fn, *args) within the per-input limits for an input of size bytes."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    tracemalloc.reset_peak()
    begin = time.thread_time()
    try:
        return attempt(what, fn, *args)
    finally:
        spent = time.thread_time() - begin
        peak = tracemalloc.get_traced_memory()[1]
        if started:
            tracemalloc.stop()
        check(spent <= INPUT_CPU_SECONDS, "%s took %.2f s of CPU on %d bytes (the per-input limit "
              "is %.2f s): unbounded work" % (what, spent, size, INPUT_CPU_SECONDS))
        limit = INPUT_MEMORY_MULTIPLE * size + INPUT_MEMORY_SLACK
        check(peak <= limit, "%s: peak memory %d bytes on %d bytes of input (the per-input limit "
              "is %d)" % (what, peak, size, limit))


def same_outcome(a, b, what, data):
    """Two calls that must behave identically (bytes vs memoryview, str vs bytes, ...)."""
    if isinstance(a, Rejected) or isinstance(b, Rejected):
        check(isinstance(a, Rejected) and isinstance(b, Rejected),
              "%s: accepted one way and rejected the other (%r vs %r)" % (what, a, b), data)
    else:
        check(type(a) is type(b), "%s: different result types" % what, data)
        if isinstance(a, PrivateKey):
            check(a.to_bytes() == b.to_bytes(), "%s: different keys" % what, data)
        else:
            check(a == b, "%s: different results" % what, data)


def oracle(fn, *args):
    """What cryptography makes of the input: its result, or None if it raises anything."""
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001 -- the oracle's reasons do not matter, only its verdict
        return None


def c_point(key):
    """SEC1 uncompressed point of a cryptography P-256 public key, else None."""
    if isinstance(key, ec.EllipticCurvePublicKey) and key.curve.name == "secp256r1":
        return key.public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint)
    return None


def c_scalar(key):
    """32-byte scalar of a cryptography P-256 private key, else None."""
    if isinstance(key, ec.EllipticCurvePrivateKey) and key.curve.name == "secp256r1":
        return key.private_numbers().private_value.to_bytes(32, "big")
    return None


def c_load_der_private(data):
    return c_scalar(ser.load_der_private_key(data, None))


def c_load_pem_private(data):
    return c_scalar(ser.load_pem_private_key(data, None))


def c_public_of(d: bytes):
    """(uncompressed, compressed) SEC1 encodings of d*G, computed by cryptography."""
    pub = ec.derive_private_key(int.from_bytes(d, "big"), CURVE).public_key()
    return (pub.public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint),
            pub.public_bytes(ser.Encoding.X962, ser.PublicFormat.CompressedPoint))


def _children(node, *tags):
    """node's children when node is constructed and they have exactly these leading tags."""
    kids = node.children
    if kids is None or len(kids) < len(tags):
        return None
    if any(k.tag != t for k, t in zip(kids, tags)):
        return None
    return kids


# ---------------------------------------------------------------------------------------
# SEC1 points
# ---------------------------------------------------------------------------------------

TARGETS = {}
DESCRIPTIONS = {}


def target(name, description):
    def register(fn):
        TARGETS[name] = fn
        DESCRIPTIONS[name] = description
        return fn
    return register


def _hint_point(data: bytes, accepted: bool) -> None:
    """Coverage hint (see _hint_verify): the shape of a SEC1 input and the verdict."""
    n = len(data)
    if n == 0:
        return
    prefix = data[0]
    if n == 65:
        x, y = int.from_bytes(data[1:33], "big"), int.from_bytes(data[33:], "big")
        if prefix != 4:
            _ = "65, wrong prefix"
        elif x >= P or y >= P:
            _ = "coordinate >= p"
        elif x == 0 or y == 0:
            _ = "zero coordinate"
        elif accepted:
            _ = "valid uncompressed"
        else:
            _ = "off the curve"
    elif n == 33:
        x = int.from_bytes(data[1:], "big")
        if prefix not in (2, 3):
            _ = "33, wrong prefix"
        elif x >= P:
            _ = "x >= p"
        elif accepted:
            _ = "valid compressed"
        else:
            _ = "no square root"
    elif n == 1:
        _ = "one byte"
    else:
        _ = "other length"


@target("pub_bytes", "PublicKey.from_bytes (SEC1) vs cryptography from_encoded_point; "
                     "re-encodes to the input; scalar_mult(1, Q) agrees")
def pub_bytes(data: bytes) -> None:
    ours = attempt("PublicKey.from_bytes", PublicKey.from_bytes, data)
    same_outcome(ours, attempt("PublicKey.from_bytes(bytearray)", PublicKey.from_bytes, bytearray(data)),
                 "PublicKey.from_bytes: bytes vs bytearray", data)
    theirs = oracle(lambda: c_point(ec.EllipticCurvePublicKey.from_encoded_point(CURVE, data)))
    mult = attempt("scalar_mult(1, Q)", p256.scalar_mult, SCALAR_ONE, data)
    _hint_point(data, isinstance(ours, PublicKey))
    if isinstance(ours, Rejected):
        check(theirs is None, "PublicKey.from_bytes rejected a point cryptography accepts (%r)" % ours, data)
        check(isinstance(mult, Rejected), "scalar_mult(1, Q) accepted a point from_bytes rejects", data)
        return
    check(isinstance(ours, PublicKey), "PublicKey.from_bytes returned %r" % type(ours), data)
    check(theirs is not None, "PublicKey.from_bytes accepted a point cryptography rejects", data)
    check(ours.to_bytes() == theirs, "PublicKey.from_bytes: a different point from cryptography's", data)
    check(ours.to_bytes(compressed=len(data) == 33) == data, "the point does not re-encode to the input", data)
    check(PublicKey.from_bytes(ours.to_bytes(compressed=True)) == ours, "compressed round trip", data)
    check((ours.x, ours.y) == (int.from_bytes(theirs[1:33], "big"), int.from_bytes(theirs[33:], "big")),
          "x, y differ from the encoding", data)
    check(mult == theirs, "scalar_mult(1, Q) != Q", data)


# ---------------------------------------------------------------------------------------
# The group: Point and Scalar from bytes
# ---------------------------------------------------------------------------------------


@target("point_bytes", "Point.from_bytes (SEC1 and 00, the identity) vs cryptography "
                       "from_encoded_point and PublicKey.from_bytes; re-encodes to the input; "
                       "P + (-P), 2P and (n - 1)P agree with the group's rules")
def point_bytes(data: bytes) -> None:
    Point = p256.Point
    ours = attempt("Point.from_bytes", Point.from_bytes, data)
    same_outcome(ours, attempt("Point.from_bytes(memoryview)", Point.from_bytes, memoryview(data)),
                 "Point.from_bytes: bytes vs memoryview", data)
    _hint_point(data, isinstance(ours, Point))
    if data == b"\x00":
        check(isinstance(ours, Point) and ours.is_identity(), "00 is not the identity", data)
        check(ours.to_bytes() == b"\x00" and ours == Point.identity(), "the identity round trip", data)
        return
    theirs = oracle(lambda: c_point(ec.EllipticCurvePublicKey.from_encoded_point(CURVE, data)))
    if isinstance(ours, Rejected):
        check(theirs is None, "Point.from_bytes rejected a point cryptography accepts (%r)" % ours, data)
        return
    check(theirs is not None, "Point.from_bytes accepted a point cryptography rejects", data)
    check(isinstance(ours, Point) and not ours.is_identity(), "Point.from_bytes returned %r" % ours, data)
    check(ours.to_bytes() == theirs, "Point.from_bytes: a different point from cryptography's", data)
    check(ours.to_bytes(compressed=len(data) == 33) == data, "the point does not re-encode to the input", data)
    check(PublicKey.from_bytes(data).point == ours, "PublicKey.from_bytes gives another point", data)
    check((ours + -ours).is_identity() and ours - ours == Point.identity(), "P + (-P) is not the identity", data)
    check(ours + ours == ours.double() != ours, "P + P != 2P", data)
    check(p256.Scalar.from_int(N - 1) * ours == -ours, "(n - 1) P != -P", data)


@target("scalar_bytes", "Scalar.from_bytes (32 bytes below n) and from_bytes_reduce (at least "
                        "48 bytes, mod n) against the rule written out over Python ints; "
                        "to_bytes and int round trip")
def scalar_bytes(data: bytes) -> None:
    Scalar = p256.Scalar
    value = int.from_bytes(data, "big")
    ours = attempt("Scalar.from_bytes", Scalar.from_bytes, data)
    same_outcome(ours, attempt("Scalar.from_bytes(bytearray)", Scalar.from_bytes, bytearray(data)),
                 "Scalar.from_bytes: bytes vs bytearray", data)
    if len(data) == 32 and value < N:
        check(isinstance(ours, Scalar), "Scalar.from_bytes refused a value below n (%r)" % ours, data)
        check(ours.to_bytes() == data and int(ours) == value, "the scalar does not round-trip", data)
        check(ours.is_zero() == (value == 0), "is_zero is wrong", data)
    else:
        check(isinstance(ours, Rejected), "Scalar.from_bytes accepted %d bytes of value %s n"
              % (len(data), ">=" if len(data) == 32 else "?"), data)
    reduced = attempt("Scalar.from_bytes_reduce", Scalar.from_bytes_reduce, data)
    if len(data) >= 48:
        check(isinstance(reduced, Scalar) and int(reduced) == value % N,
              "Scalar.from_bytes_reduce is not the value mod n (%r)" % reduced, data)
    else:
        check(isinstance(reduced, Rejected), "Scalar.from_bytes_reduce took %d bytes" % len(data), data)


# ---------------------------------------------------------------------------------------
# SubjectPublicKeyInfo (DER, PEM)
# ---------------------------------------------------------------------------------------


def _spki_parts(der):
    """(AlgorithmIdentifier children, BIT STRING node) of an SPKI, or None."""
    try:
        tree = dertree.parse(der)
    except dertree.NotDer:
        return None
    top = _children(tree, 0x30, 0x03) if tree.tag == 0x30 else None
    if top is None or len(top) != 2:
        return None
    return top[0].children, top[1]


def explain_spki_rejection(der, theirs):
    """The DIFFERENCES id explaining why p256 rejects an SPKI cryptography accepts, or None."""
    parts = _spki_parts(der)
    if parts is None:
        return None
    alg, bits = parts
    if alg and len(alg) == 2 and alg[1].tag == 0x30:
        return "D2-explicit"
    if len(bits.value) == 66 and bits.value[0] == 0 and bits.value[1] in (6, 7):
        fixed = dertree.tlv(0x30, dertree.tlv(0x30, b"".join(dertree.encode(a) for a in alg))
                            + dertree.tlv(0x03, b"\x00\x04" + bits.value[2:]))
        again = attempt("PublicKey.from_der", PublicKey.from_der, fixed)
        if isinstance(again, PublicKey) and again.to_bytes() == theirs:
            return "D1-hybrid"
    return None


def compare_spki(der, ours, theirs, what):
    """Check p256's outcome on an SPKI against cryptography's; the DIFFERENCES id applied,
    if any (every target returns that, for tests/test_fuzz_targets.py)."""
    if isinstance(ours, Rejected):
        if theirs is None:
            return None
        why = explain_spki_rejection(der, theirs)
        check(why is not None, "%s rejected an SPKI cryptography accepts as a P-256 key (%r)" % (what, ours), der)
        return why
    check(isinstance(ours, PublicKey), "%s returned %r" % (what, type(ours)), der)
    problems = dertree.der_problems(der)
    check(not problems, "%s accepted non-DER input: %s" % (what, problems), der)
    point = _spki_parts(der)[1].value[1:]
    check(ours.to_der(compressed=len(point) == 33) == der, "%s: the key does not re-encode to the input" % what, der)
    check(theirs is not None, "%s accepted an SPKI cryptography rejects" % what, der)
    check(ours.to_bytes() == theirs, "%s: a different key from cryptography's" % what, der)
    return None


@target("pub_der", "PublicKey.from_der (SPKI) vs cryptography load_der_public_key; strict DER; "
                   "re-encodes to the input")
def pub_der(data: bytes) -> None:
    ours = bounded("PublicKey.from_der", len(data), PublicKey.from_der, data)
    same_outcome(ours, attempt("PublicKey.from_der(memoryview)", PublicKey.from_der, memoryview(data)),
                 "PublicKey.from_der: bytes vs memoryview", data)
    theirs = oracle(lambda: c_point(ser.load_der_public_key(data)))
    return compare_spki(data, ours, theirs, "PublicKey.from_der")


# PEM -----------------------------------------------------------------------------------

_B64 = re.compile(rb"[A-Za-z0-9+/]*={0,2}")


def harness_pem_block(data: bytes, labels):
    """The block p256 documents it uses: (label, DER, offset of its BEGIN line, offset
    after its END line), or None.

    Written from the documented rules, independently of p256/_formats.py: lines split at
    LF, trailing spaces/tabs/CR ignored; "-----BEGIN " only at the start of a line; a
    block is a BEGIN line and the next END line; the first block whose label is wanted is
    used, others are skipped; its body is base64 lines only, joined, canonical."""
    offset = 0
    begins = []  # offsets of the BEGIN lines that open blocks
    lines = data.split(b"\n")
    i = 0
    while i < len(lines):
        line = lines[i].rstrip(b" \t\r")
        begin_at = offset
        offset += len(lines[i]) + 1
        i += 1
        if not (line.startswith(b"-----BEGIN ") and line.endswith(b"-----") and len(line) > 16):
            continue
        label = line[11:-5].decode("latin-1")
        begins.append(begin_at)
        body = []
        while i < len(lines) and not lines[i].startswith(b"-----END "):
            body.append(lines[i].rstrip(b" \t\r"))
            offset += len(lines[i]) + 1
            i += 1
        if i == len(lines):
            return None
        offset += len(lines[i]) + 1
        i += 1
        if label not in labels:
            continue
        end_at = min(offset, len(data))
        b64 = b"".join(body)
        if not body or not all(_B64.fullmatch(x) for x in body) or not b64 or len(b64) % 4:
            return None
        try:
            raw = base64.b64decode(b64, validate=True)
        except ValueError:
            return None
        if base64.b64encode(raw) != b64:
            return None
        # p256 refuses a "-----BEGIN " anywhere else before the end of its block
        at = data.find(b"-----BEGIN ", 0, end_at)
        while at >= 0:
            if at not in begins:
                return None
            at = data.find(b"-----BEGIN ", at + 1, end_at)
        return label, raw, begin_at, end_at
    return None


def lenient_pem_blocks(data: bytes, labels):
    """Every (label, DER) that a lenient PEM reader could take from data, in order: each
    "-----BEGIN <label>-----" anywhere (even inside a line), its text up to the next
    "-----END <label>-----", RFC 1421 headers up to a blank line skipped, whitespace
    anywhere ignored. cryptography's and OpenSSL's readers pick one of these."""
    at = data.find(b"-----BEGIN ")
    while at >= 0:
        label_end = data.find(b"-----", at + 11)
        label = data[at + 11:label_end]
        if label_end >= 0 and b"\n" not in label and label.decode("latin-1") in labels:
            body_end = data.find(b"-----END ", label_end + 5)
            if body_end >= 0 and data.startswith(b"-----END %s-----" % label, body_end):
                lines = data[label_end + 5:body_end].replace(b"\r", b"\n").split(b"\n")
                while lines and not lines[0].strip():
                    lines.pop(0)
                if lines and b":" in lines[0]:
                    while lines and lines[0].strip():
                        lines.pop(0)
                try:
                    yield label.decode("latin-1"), base64.b64decode(re.sub(rb"\s+", b"", b"".join(lines)),
                                                                    validate=True)
                except ValueError:
                    pass
        at = data.find(b"-----BEGIN ", at + 1)


def canonical_pem(label: str, der: bytes) -> bytes:
    b64 = base64.b64encode(der)
    body = b"\n".join(b64[i:i + 64] for i in range(0, len(b64), 64))
    return b"-----BEGIN %s-----\n%s\n-----END %s-----\n" % (label.encode(), body, label.encode())


def _as_text(data: bytes):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


@target("pub_pem", "PublicKey.from_pem vs cryptography load_pem_public_key; the block's DER as "
                   "in pub_der; canonical PEM round trip; str and bytes agree")
def pub_pem(data: bytes) -> None:
    ours = bounded("PublicKey.from_pem", len(data), PublicKey.from_pem, data)
    text = _as_text(data)
    if text is not None:
        same_outcome(ours, attempt("PublicKey.from_pem(str)", PublicKey.from_pem, text),
                     "PublicKey.from_pem: bytes vs str", data)
    theirs = oracle(lambda: c_point(ser.load_pem_public_key(data)))
    if isinstance(ours, Rejected):
        if theirs is None:
            return None
        for label, der in lenient_pem_blocks(data, ("PUBLIC KEY",)):
            canon = attempt("PublicKey.from_pem", PublicKey.from_pem, canonical_pem(label, der))
            if isinstance(canon, PublicKey) and canon.to_bytes() == theirs:
                return "D3-pem-layout"  # the same key in canonical layout
            why = explain_spki_rejection(der, theirs) if isinstance(canon, Rejected) else None
            if why is not None:
                return why
        check(False, "PublicKey.from_pem rejected (%r) a PEM cryptography accepts, and no block "
                     "in it explains why" % ours, data)
    check(isinstance(ours, PublicKey), "PublicKey.from_pem returned %r" % type(ours), data)
    block = harness_pem_block(data, ("PUBLIC KEY",))
    check(block is not None, "PublicKey.from_pem accepted a PEM in which the harness finds no "
                             "valid PUBLIC KEY block", data)
    _, der, begin, end = block
    check(PublicKey.from_der(der) == ours, "from_pem and from_der of its block differ", data)
    why = compare_spki(der, ours, oracle(lambda: c_point(ser.load_der_public_key(der))), "PublicKey.from_pem")
    pem = ours.to_pem(compressed=len(der) < 91)
    check(pem == canonical_pem("PUBLIC KEY", der), "to_pem is not the canonical PEM of the block", data)
    if theirs is None:
        why = "E3-pem-one-block"
        theirs = oracle(lambda: c_point(ser.load_pem_public_key(data[begin:end])))
        check(theirs is not None, "PublicKey.from_pem accepted a PEM cryptography rejects, even "
                                  "its block alone", data)
    check(theirs == ours.to_bytes(), "PublicKey.from_pem: a different key from cryptography's", data)
    return why


# ---------------------------------------------------------------------------------------
# Private keys: PKCS#8 and SEC1 ECPrivateKey (DER, PEM)
# ---------------------------------------------------------------------------------------


def _private_parts(der):
    """(kind, top node, ECPrivateKey node) with kind "pkcs8" or "sec1", or None."""
    try:
        tree = dertree.parse(der)
        if tree.tag != 0x30 or not tree.children or len(tree.children) < 2:
            return None
        if tree.children[1].tag == 0x30:  # PKCS#8: version, AlgorithmIdentifier, OCTET STRING
            kids = _children(tree, 0x02, 0x30, 0x04)
            if kids is None:
                return None
            return "pkcs8", tree, dertree.parse(kids[2].value)
        if tree.children[1].tag == 0x04:
            return "sec1", tree, tree
    except dertree.NotDer:
        pass
    return None


def _ec_fields(ec_node):
    """{tag: node} of an ECPrivateKey's fields after version and privateKey."""
    return {k.tag: k for k in (ec_node.children or [])[2:]}


def _rebuild(kind, top, ec_children):
    """An ECPrivateKey from its children, wrapped back in top's PKCS#8 frame if kind = pkcs8."""
    ec_der = dertree.tlv(0x30, b"".join(dertree.encode(c) for c in ec_children))
    if kind == "sec1":
        return ec_der
    kids = list(top.children)
    return dertree.tlv(0x30, b"".join(dertree.encode(k) for k in kids[:2]) + dertree.tlv(0x04, ec_der)
                       + b"".join(dertree.encode(k) for k in kids[3:]))


def explain_private_acceptance(der, d):
    """The DIFFERENCES id explaining why cryptography rejects a key p256 accepts, or None."""
    parts = _private_parts(der)
    if parts is None:
        return None
    kind, top, ec_node = parts
    if kind == "sec1" and 0xA0 not in _ec_fields(ec_node):
        kids = ec_node.children
        with_params = _rebuild("sec1", top, kids[:2] + [dertree.parse(dertree.tlv(0xA0, PRIME256V1))] + kids[2:])
        if oracle(c_load_der_private, with_params) == d:
            return "E1-sec1-no-params"
    if kind == "pkcs8" and top.children[0].value == b"\x01":
        v1 = dertree.tlv(0x30, dertree.uint(0) + b"".join(
            dertree.encode(k) for k in top.children[1:] if k.tag != 0x81))
        if oracle(c_load_der_private, v1) == d:
            return "E2-pkcs8-v2"
    return None


def _private_der_problems(der):
    """DER violations anywhere in a private key, inside PKCS#8's OCTET STRING included."""
    problems = dertree.der_problems(der, set_tags=(0x31, 0xA0))
    parts = _private_parts(der) if not problems else None
    if parts is not None and parts[0] == "pkcs8":
        inner = parts[1].children[2].value
        problems += ["inside the privateKey OCTET STRING: " + p for p in dertree.der_problems(inner)]
    return problems


def explain_private_rejection(der, theirs):
    """The DIFFERENCES id explaining why p256 rejects a key cryptography accepts, or None."""
    if _private_der_problems(der):
        return "D0-not-der"
    parts = _private_parts(der)
    if parts is None:
        return None
    kind, top, ec_node = parts
    if kind == "pkcs8":
        attributes = [k for k in top.children if k.tag == 0xA0]
        # [0] > Attribute > values SET > the value: p256 follows MAX_NESTING levels below
        # the SET, so it refuses when the [0] is more than MAX_NESTING + 2 deep
        if attributes and dertree.depth(attributes[0]) > _der.MAX_NESTING + 2:
            return "D4-attribute-depth"
    fields = _ec_fields(ec_node)
    if kind == "pkcs8":
        alg = top.children[1].children or []
        if len(alg) == 2 and alg[1].tag == 0x30:
            return "D2-explicit"
    params = fields.get(0xA0)
    if params is not None and params.children and params.children[0].tag == 0x30:
        return "D2-explicit"
    plain = _without_hybrid_points(kind, top, ec_node)
    if plain is not None:
        again = attempt("PrivateKey.from_der", PrivateKey.from_der, plain)
        if isinstance(again, PrivateKey) and again.to_bytes() == theirs:
            return "D1-hybrid"
    return None


def _is_hybrid_bits(bits):
    """Whether a BIT STRING's contents are a hybrid (06/07) uncompressed-size point."""
    return len(bits) == 66 and bits[0] == 0 and bits[1] in (6, 7)


def _without_hybrid_points(kind, top, ec_node):
    """The private key with each stored public key in hybrid form (the ECPrivateKey's [1]
    and PKCS#8 v2's [1] publicKey) rewritten as 04||X||Y, or None if there is none."""
    changed = False
    ec_kids = []
    for k in ec_node.children or []:
        if k.tag == 0xA1 and k.children and k.children[0].tag == 0x03 and _is_hybrid_bits(k.children[0].value):
            k = dertree.parse(dertree.tlv(0xA1, dertree.tlv(0x03, b"\x00\x04" + k.children[0].value[2:])))
            changed = True
        ec_kids.append(k)
    if kind == "pkcs8" and any(k.tag == 0x81 and _is_hybrid_bits(k.value) for k in top.children):
        top = dertree.parse(dertree.tlv(0x30, b"".join(
            dertree.tlv(0x81, b"\x00\x04" + k.value[2:]) if k.tag == 0x81 else dertree.encode(k)
            for k in top.children)))
        changed = True
    return _rebuild(kind, top, ec_kids) if changed else None


def compare_private_der(der, ours, theirs, what):
    """As compare_spki, for PKCS#8 and SEC1 private keys."""
    if isinstance(ours, Rejected):
        if theirs is None:
            return None
        why = explain_private_rejection(der, theirs)
        check(why is not None, "%s rejected a key cryptography accepts as a P-256 key (%r)" % (what, ours), der)
        return why
    check(isinstance(ours, PrivateKey), "%s returned %r" % (what, type(ours)), der)
    d = ours.to_bytes()
    problems = _private_der_problems(der)
    check(not problems, "%s accepted non-DER input: %s" % (what, problems), der)
    parts = _private_parts(der)
    check(parts is not None, "%s accepted something that is neither PKCS#8 nor SEC1" % what, der)
    kind, top, ec_node = parts
    kids = _children(ec_node, 0x02, 0x04)
    check(kids is not None and kids[0].value == b"\x01" and kids[1].value == d,
          "%s: the ECPrivateKey's version/privateKey are not the key's" % what, der)
    unc, comp = c_public_of(d)
    stored = []
    fields = _ec_fields(ec_node)
    if 0xA1 in fields:
        stored.append(fields[0xA1].children[0].value[1:])
    if kind == "pkcs8":
        stored += [k.value[1:] for k in top.children if k.tag == 0x81]
    for point in stored:
        check(point in (unc, comp), "%s accepted a stored public key that is not d*G" % what, der)
    check(ours.public_key.to_bytes() == unc, "%s: public_key is not d*G" % what, der)
    ckey = ec.derive_private_key(int.from_bytes(d, "big"), CURVE)
    for fmt, cfmt in (("pkcs8", ser.PrivateFormat.PKCS8), ("sec1", ser.PrivateFormat.TraditionalOpenSSL)):
        enc = ours.to_der(fmt)
        check(enc == ckey.private_bytes(ser.Encoding.DER, cfmt, ser.NoEncryption()),
              "to_der(%r) differs from cryptography's encoding of the same key" % fmt, der)
        check(PrivateKey.from_der(enc).to_bytes() == d, "to_der(%r) does not load back" % fmt, der)
    if theirs is None:
        why = explain_private_acceptance(der, d)
        check(why is not None, "%s accepted a key cryptography rejects, not for a documented reason" % what, der)
        return why
    check(theirs == d, "%s: a different scalar from cryptography's" % what, der)
    return None


@target("priv_der", "PrivateKey.from_der (PKCS#8, SEC1) vs cryptography load_der_private_key; "
                    "strict DER; stored public keys are d*G; to_der equals cryptography's")
def priv_der(data: bytes) -> None:
    ours = bounded("PrivateKey.from_der", len(data), PrivateKey.from_der, data)
    same_outcome(ours, attempt("PrivateKey.from_der(bytearray)", PrivateKey.from_der, bytearray(data)),
                 "PrivateKey.from_der: bytes vs bytearray", data)
    return compare_private_der(data, ours, oracle(c_load_der_private, data), "PrivateKey.from_der")


_PRIVATE_LABELS = ("PRIVATE KEY", "EC PRIVATE KEY")


@target("priv_pem", "PrivateKey.from_pem vs cryptography load_pem_private_key; the block's DER "
                    "as in priv_der; canonical PEM round trip; str and bytes agree")
def priv_pem(data: bytes) -> None:
    ours = bounded("PrivateKey.from_pem", len(data), PrivateKey.from_pem, data)
    text = _as_text(data)
    if text is not None:
        same_outcome(ours, attempt("PrivateKey.from_pem(str)", PrivateKey.from_pem, text),
                     "PrivateKey.from_pem: bytes vs str", data)
    theirs = oracle(c_load_pem_private, data)
    if isinstance(ours, Rejected):
        if theirs is None:
            return None
        for label, der in lenient_pem_blocks(data, _PRIVATE_LABELS):
            canon = attempt("PrivateKey.from_pem", PrivateKey.from_pem, canonical_pem(label, der))
            if isinstance(canon, PrivateKey) and canon.to_bytes() == theirs:
                return "D3-pem-layout"  # the same key in canonical layout
            why = explain_private_rejection(der, theirs) if isinstance(canon, Rejected) else None
            if why is not None:
                return why
        check(False, "PrivateKey.from_pem rejected (%r) a PEM cryptography accepts, and no block "
                     "in it explains why" % ours, data)
    check(isinstance(ours, PrivateKey), "PrivateKey.from_pem returned %r" % type(ours), data)
    block = harness_pem_block(data, _PRIVATE_LABELS)
    check(block is not None, "PrivateKey.from_pem accepted a PEM in which the harness finds no "
                             "valid private key block", data)
    label, der, begin, end = block
    d = ours.to_bytes()
    check(PrivateKey.from_der(der).to_bytes() == d, "from_pem and from_der of its block differ", data)
    parts = _private_parts(der)
    check(parts is not None and parts[0] == ("pkcs8" if label == "PRIVATE KEY" else "sec1"),
          "PrivateKey.from_pem accepted a block whose label does not fit its contents", data)
    why = compare_private_der(der, ours, oracle(c_load_der_private, der), "PrivateKey.from_pem")
    fmt = "pkcs8" if label == "PRIVATE KEY" else "sec1"
    if der == ours.to_der(fmt):
        check(ours.to_pem(fmt) == canonical_pem(label, der), "to_pem is not the canonical PEM of the block", data)
    if theirs is None and why is None:  # (E1/E2 were checked on the DER)
        why = "E3-pem-one-block"
        theirs = oracle(c_load_pem_private, data[begin:end])
        check(theirs is not None, "PrivateKey.from_pem accepted a PEM cryptography rejects, even "
                                  "its block alone", data)
    check(theirs in (None, d), "PrivateKey.from_pem: a different scalar from cryptography's", data)
    return why


# ---------------------------------------------------------------------------------------
# Encrypted PKCS#8 (PBES2)
# ---------------------------------------------------------------------------------------

FUZZ_PASSWORD = b"fuzz"
FUZZ_MAX_ITERATIONS = 64  # a fuzz input costs at most this much PBKDF2 (the bounds are unit-tested)
FUZZ_MAX_SCRYPT = 1 << 16  # 128 * r * N * p bytes of scrypt work
_PBES2_OIDS = {
    "pbes2": bytes.fromhex("2a864886f70d01050d"), "pbkdf2": bytes.fromhex("2a864886f70d01050c"),
    "scrypt": bytes.fromhex("2b06010401da47040b"),
}
_PRF_OIDS = {bytes.fromhex("2a864886f70d02") + bytes([n]): h for n, h in
             ((7, "sha1"), (8, "sha224"), (9, "sha256"), (10, "sha384"), (11, "sha512"))}
_AES_OIDS = {bytes.fromhex("608648016503040102"): 16, bytes.fromhex("608648016503040116"): 24,
             bytes.fromhex("60864801650304012a"): 32}


def _int(node):
    return int.from_bytes(node.value, "big", signed=True) if node.tag == 0x02 and node.value else None


def pbes2_view(data: bytes):
    """The harness's own reading of an EncryptedPrivateKeyInfo (dertree, hashlib, and
    cryptography's AES as the cipher): {"plain": the decrypted bytes with padding or None
    (unsupported or too costly to fuzz), "costly": bool, "keylength": the stated keyLength
    or None, "aes": key size}; None when it is not the shape p256 documents."""
    try:
        top = dertree.parse(data)
    except dertree.NotDer:
        return None
    kids = top.children if top.tag == 0x30 else None
    if not kids or len(kids) != 2 or kids[1].tag != 0x04 or kids[0].tag != 0x30:
        return None
    alg = kids[0].children
    if len(alg) != 2 or alg[0].tag != 0x06 or alg[0].value != _PBES2_OIDS["pbes2"] or alg[1].tag != 0x30:
        return None
    params = alg[1].children
    if len(params) != 2 or any(k.tag != 0x30 or not k.children for k in params):
        return None
    kdf, enc = params[0].children, params[1].children
    if len(enc) != 2 or enc[0].tag != 0x06 or enc[0].value not in _AES_OIDS or enc[1].tag != 0x04 \
            or len(enc[1].value) != 16:
        return None
    aes = _AES_OIDS[enc[0].value]
    ct = kids[1].value
    if not ct or len(ct) % 16 or len(kdf) != 2 or kdf[0].tag != 0x06 or kdf[1].tag != 0x30 \
            or kdf[1].children is None:
        return None
    f = kdf[1].children
    view = {"costly": False, "keylength": None, "aes": aes, "plain": None}
    if kdf[0].value == _PBES2_OIDS["pbkdf2"]:
        if len(f) < 2 or f[0].tag != 0x04 or _int(f[1]) is None:
            return None
        rest = f[2:]
        if rest and rest[0].tag == 0x02:
            view["keylength"] = _int(rest[0])
            rest = rest[1:]
        prf = "sha1"
        if rest:
            p_ = rest[0].children
            if rest[0].tag != 0x30 or not p_ or p_[0].tag != 0x06 or p_[0].value not in _PRF_OIDS \
                    or len(rest) > 1 or len(p_) > 2 or (len(p_) == 2 and (p_[1].tag, p_[1].value) != (0x05, b"")):
                return None
            prf = _PRF_OIDS[p_[0].value]
            if prf == "sha1":  # an explicitly encoded DEFAULT: not DER
                return None
        iterations = _int(f[1])
        if not 1 <= iterations <= FUZZ_MAX_ITERATIONS:
            view["costly"] = iterations > FUZZ_MAX_ITERATIONS
            return view
        key = hashlib.pbkdf2_hmac(prf, FUZZ_PASSWORD, f[0].value, iterations, aes)
    elif kdf[0].value == _PBES2_OIDS["scrypt"]:
        if not 4 <= len(f) <= 5 or f[0].tag != 0x04 or any(_int(k) is None for k in f[1:]):
            return None
        n, r, par = (_int(k) for k in f[1:4])
        if len(f) == 5:
            view["keylength"] = _int(f[4])
        if n < 2 or n & (n - 1) or r < 1 or par < 1:
            return None
        if 128 * r * n * par > FUZZ_MAX_SCRYPT or par > 16:
            view["costly"] = True
            return view
        key = hashlib.scrypt(FUZZ_PASSWORD, salt=f[0].value, n=n, r=r, p=par, dklen=aes,
                             maxmem=1 << 26)
    else:
        return None
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    d = Cipher(algorithms.AES(key), modes.CBC(enc[1].value)).decryptor()
    view["plain"] = d.update(ct) + d.finalize()
    return view


def _unpadded(plain: bytes):
    pad = plain[-1]
    if 1 <= pad <= 16 and plain[-pad:] == bytes([pad]) * pad:
        return plain[:-pad]
    return None


def c_load_der_encrypted(data):
    return c_scalar(ser.load_der_private_key(data, FUZZ_PASSWORD))


@target("priv_encrypted", "PrivateKey.from_der(password=) on PKCS#8 EncryptedPrivateKeyInfo (PBES2) "
                          "vs cryptography load_der_private_key with the same password; the harness "
                          "decrypts too (hashlib, cryptography's AES) and holds the inner key to "
                          "priv_der's checks; one message for every failure after decryption")
def priv_encrypted(data: bytes) -> None:
    view = pbes2_view(data)
    if view is not None and view["costly"]:
        return None  # too slow to fuzz; the cost bounds are tests/test_encrypted_keys.py's
    ours = attempt("PrivateKey.from_der(password)", PrivateKey.from_der, data, FUZZ_PASSWORD)
    same_outcome(ours, attempt("PrivateKey.from_der(bytearray, str password)", PrivateKey.from_der,
                               bytearray(data), FUZZ_PASSWORD.decode()),
                 "PrivateKey.from_der(password): bytes vs bytearray/str", data)
    theirs = oracle(c_load_der_encrypted, data)
    plain = view["plain"] if view is not None else None
    inner = _unpadded(plain) if plain is not None else None
    if isinstance(ours, Rejected):
        if plain is not None and view["keylength"] in (None, view["aes"]) \
                and not dertree.der_problems(data):  # it decrypted: one message for any failure
            check(str(ours.exc) == p256._pbes2.WRONG_PASSWORD,
                  "a failure after decryption has its own message (%r): a padding oracle" % ours, data)
        if theirs is None:
            return None
        if dertree.der_problems(data):
            return "D0-not-der"
        if view is not None and view["keylength"] not in (None, view["aes"]):
            return "D5-pbes2-params"
        check(inner is not None, "PrivateKey.from_der(password) rejected (%r) a key cryptography "
                                 "decrypts, and the harness could not decrypt it" % ours, data)
        why = explain_private_rejection(inner, theirs)
        check(why is not None, "PrivateKey.from_der(password) rejected (%r) a key cryptography "
                               "accepts, and its plaintext does not explain why" % ours, data)
        return why
    check(isinstance(ours, PrivateKey), "PrivateKey.from_der(password) returned %r" % type(ours), data)
    check(not dertree.der_problems(data), "accepted a non-DER EncryptedPrivateKeyInfo", data)
    check(inner is not None and view["keylength"] in (None, view["aes"]),
          "accepted an encrypted key the harness cannot decrypt (or with a bad keyLength)", data)
    d = ours.to_bytes()
    plain_ours = attempt("PrivateKey.from_der", PrivateKey.from_der, inner)
    check(isinstance(plain_ours, PrivateKey) and plain_ours.to_bytes() == d,
          "the decrypted PKCS#8 does not load as the same key without a password", data)
    check(_private_parts(inner) is not None and _private_parts(inner)[0] == "pkcs8",
          "accepted an encrypted key whose plaintext is not PKCS#8", data)
    why = compare_private_der(inner, plain_ours, oracle(c_load_der_private, inner),
                              "PrivateKey.from_der(decrypted)")
    check(theirs == d or (theirs is None and why is not None),
          "PrivateKey.from_der(password): a different key from cryptography's", data)
    again = p256._pbes2.encrypt(ours.to_der(), FUZZ_PASSWORD, "pbkdf2", 2)
    check(oracle(c_load_der_encrypted, again) == d, "cryptography does not read our re-encryption", data)
    check(PrivateKey.from_der(again, FUZZ_PASSWORD).to_bytes() == d, "our re-encryption does not load", data)
    wrong = attempt("PrivateKey.from_der(wrong password)", PrivateKey.from_der, data, b"fuzz!")
    check(isinstance(wrong, Rejected) or wrong.to_bytes() != d,
          "a wrong password gives the same key", data)
    return why


# ---------------------------------------------------------------------------------------
# JWK
# ---------------------------------------------------------------------------------------

_B64URL = re.compile(r"[A-Za-z0-9_-]*")


def b64url32(value):
    """The 32 bytes of a JWK coordinate (RFC 7518 6.2.1.2: base64url, no padding, canonical,
    exactly 32 bytes), decoded with the standard library, or None."""
    if not isinstance(value, str) or not _B64URL.fullmatch(value) or len(value) % 4 == 1:
        return None
    raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != value or len(raw) != 32:
        return None
    return raw


def _strict_pairs(pairs):
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        raise ValueError("duplicate member")
    return dict(pairs)


def _no_constant(name):
    raise ValueError("NaN or Infinity")


def _short_number(convert):
    def parse(text):
        if len(text) > 64:
            raise ValueError("a long number")
        return convert(text)
    return parse


def _jwk_input(data: bytes):
    """(JSON text, the parsed object or None) of a fuzz input. The object is read by the
    documented JOSE rules (docs/key-formats.md), written here independently of p256._jose:
    a member twice, NaN/Infinity or a number over 64 characters make it None (the text is
    then refused, and there is no dict to compare)."""
    text = _as_text(data)
    if text is None:
        text = data.decode("latin-1")
    try:
        obj = json.loads(text, object_pairs_hook=_strict_pairs, parse_constant=_no_constant,
                         parse_int=_short_number(int), parse_float=_short_number(float))
    except (ValueError, RecursionError):
        obj = None
    return text, obj


def _jwk_point(obj):
    """The 65-byte point of a JWK object that passes the common checks, or None."""
    if obj.get("kty") != "EC" or obj.get("crv") != "P-256":
        return None
    x, y = b64url32(obj.get("x")), b64url32(obj.get("y"))
    if x is None or y is None:
        return None
    return b"\x04" + x + y


@target("pub_jwk", "PublicKey.from_jwk (JSON text and dict) vs an independent base64url decoder "
                   "+ cryptography point validation; to_jwk round trip")
def pub_jwk(data: bytes) -> None:
    text, obj = _jwk_input(data)
    ours = attempt("PublicKey.from_jwk(str)", PublicKey.from_jwk, text)
    if not isinstance(obj, dict):
        check(isinstance(ours, Rejected), "PublicKey.from_jwk accepted JSON that is not an object", data)
        return
    same_outcome(ours, attempt("PublicKey.from_jwk(dict)", PublicKey.from_jwk, obj),
                 "PublicKey.from_jwk: JSON text vs dict", data)
    point = _jwk_point(obj)
    expected = None
    if point is not None and "d" not in obj:
        expected = oracle(lambda: c_point(ec.EllipticCurvePublicKey.from_encoded_point(CURVE, point)))
    if isinstance(ours, Rejected):
        check(expected is None, "PublicKey.from_jwk rejected a valid public JWK (%r)" % ours, data)
        return
    check(expected is not None, "PublicKey.from_jwk accepted an invalid public JWK", data)
    check(ours.to_bytes() == expected, "PublicKey.from_jwk: a different point", data)
    check(ours.to_jwk() == {k: obj[k] for k in ("kty", "crv", "x", "y")},
          "to_jwk does not give back the JWK's members", data)


@target("priv_jwk", "PrivateKey.from_jwk (JSON text and dict) vs an independent base64url decoder "
                    "+ cryptography (x, y must be d*G); to_jwk round trip")
def priv_jwk(data: bytes) -> None:
    text, obj = _jwk_input(data)
    ours = attempt("PrivateKey.from_jwk(str)", PrivateKey.from_jwk, text)
    if not isinstance(obj, dict):
        check(isinstance(ours, Rejected), "PrivateKey.from_jwk accepted JSON that is not an object", data)
        return
    same_outcome(ours, attempt("PrivateKey.from_jwk(dict)", PrivateKey.from_jwk, obj),
                 "PrivateKey.from_jwk: JSON text vs dict", data)
    point = _jwk_point(obj)
    d = b64url32(obj.get("d"))
    valid = (point is not None and d is not None and 1 <= int.from_bytes(d, "big") < N
             and c_public_of(d)[0] == point)
    if isinstance(ours, Rejected):
        check(not valid, "PrivateKey.from_jwk rejected a valid private JWK (%r)" % ours, data)
        return
    check(valid, "PrivateKey.from_jwk accepted an invalid private JWK", data)
    check(ours.to_bytes() == d, "PrivateKey.from_jwk: a different scalar", data)
    check(ours.to_jwk() == {k: obj[k] for k in ("kty", "crv", "x", "y", "d")},
          "to_jwk does not give back the JWK's members", data)


# ---------------------------------------------------------------------------------------
# ECDSA verification
# ---------------------------------------------------------------------------------------


def split_verify_input(data: bytes):
    """mode(1) | SEC1 uncompressed public key(65) | message length(1) | message | signature.

    mode bit 0 set: verify_digest(sig, message, hash=None) (any length); else verify(sig, message, hash=HASHES[(mode >> 1) % 7]).
    A length past the end takes what is there. None when the input is too short."""
    if len(data) < 67:
        return None
    mode, pub, n = data[0], data[1:66], min(data[66], len(data) - 67)
    return mode, pub, data[67:67 + n], data[67 + n:]


def _crypto_verify(pub: bytes, der_sig: bytes, msg: bytes, mode: int) -> bool:
    key = ec.EllipticCurvePublicKey.from_encoded_point(CURVE, pub)
    if mode & 1 and not msg:
        return False  # p256 refuses an empty digest (ValueError): _verify_ours says False
    if mode & 1:
        # FIPS 186-5 6.4.2 / SEC 1 4.1.4: e = the leftmost 256 bits of the digest, or the
        # whole of a shorter one; as a 32-byte digest, OpenSSL reads exactly that integer.
        digest = msg[:32].rjust(32, b"\x00")
        algorithm = ec.ECDSA(ec_utils.Prehashed(hashes.SHA256()))
    else:
        digest = msg
        algorithm = ec.ECDSA(_CRYPTO_HASHES[HASHES[(mode >> 1) % len(HASHES)]]())
    try:
        key.verify(der_sig, digest, algorithm)
        return True
    except InvalidSignature:
        return False


def _strict_der_sig(sig: bytes):
    """(r, s) of a strict DER ECDSA-Sig-Value with non-negative INTEGERs, or None."""
    if dertree.der_problems(sig):
        return None
    tree = dertree.parse(sig)
    kids = _children(tree, 0x02, 0x02) if tree.tag == 0x30 else None
    if kids is None or len(kids) != 2 or any(k.value[0] & 0x80 for k in kids):
        return None
    return int.from_bytes(kids[0].value, "big"), int.from_bytes(kids[1].value, "big")


def _verify_ours(pk, sig, msg, mode, encoding):
    if mode & 1:
        what = "verify_digest(%s, hash=None)" % encoding
        if not len(msg):  # hash=None takes any digest but an empty one
            try:
                pk.verify_digest(sig, msg, hash=None, encoding=encoding)
            except ValueError:
                return False
            check(False, "verify_digest(hash=None) took an empty digest", msg)
        ok = attempt(what, lambda: pk.verify_digest(sig, msg, hash=None, encoding=encoding))
    else:
        what = "verify(%s, hash=%s)" % (encoding, HASHES[(mode >> 1) % len(HASHES)])
        ok = attempt(what, lambda: pk.verify(sig, msg, hash=HASHES[(mode >> 1) % len(HASHES)],
                                             encoding=encoding))
    check(type(ok) is bool, "%s returned %r, not a bool (it must never raise for bytes)" % (what, ok))
    return ok


# Coverage hints. libFuzzer sees the coverage of instrumented Python code only (run.py
# instruments p256's modules and this harness), not the C core's, so every signature
# would look alike and the corpus would collapse to a handful of inputs. These branches
# classify what reaches the core (which hash, how long a digest, where r and s lie, the
# verdict), so inputs that take the core down different paths count as new coverage.


def _hint_scalar(v: int) -> int:
    if v == 0:
        return 0
    if v == 1:
        return 1
    if v < N // 2:
        return 2
    if v == N // 2 or v == N // 2 + 1:
        return 3
    if v < N - 1:
        return 4
    if v == N - 1:
        return 5
    if v == N:
        return 6
    if v < P:
        return 7
    if v < 2**256:
        return 8
    return 9


def _hint_verify(mode: int, msg: bytes, r: int, s: int, ok: bool) -> None:
    if mode & 1:
        if len(msg) < 32:
            _ = "short digest"
        elif len(msg) == 32:
            _ = "digest"
        else:
            _ = "long digest"
    else:
        h = (mode >> 1) % len(HASHES)
        if h == 0:
            _ = "sha256"
        elif h < 4:
            _ = "sha2"
        else:
            _ = "sha3"
    a, b = _hint_scalar(r), _hint_scalar(s)
    if a == b:
        _ = "same range"
    if ok:
        _ = "valid"


def _verify_input(data, encoding):
    """(mode, pub, msg, sig, PublicKey, p256's verdict), or None for inputs without a valid key."""
    parts = split_verify_input(data)
    if parts is None:
        return None
    mode, pub, msg, sig = parts
    pk = oracle(PublicKey.from_bytes, pub)
    if pk is None:
        # pub_bytes covers invalid keys; here a mutated key is replaced by a valid one
        # derived from its bytes, so that the signature and message are still verified
        # (mutations anywhere before them would otherwise waste most inputs).
        pk = oracle(lambda: PublicKey.from_bytes(p256.scalar_base_mult(hashlib.sha256(pub).digest())))
        if pk is None:
            return None
        pub = pk.to_bytes()
    return mode, pub, msg, sig, pk, _verify_ours(pk, sig, msg, mode, encoding)


# Precomputed copies of the keys seen (a build costs ~10 verifications; fuzz inputs
# reuse keys), bounded: cleared when full.
_PRECOMPUTED: dict = {}


def _precomputed(pk):
    key = pk.to_bytes()
    pre = _PRECOMPUTED.get(key)
    if pre is None:
        if len(_PRECOMPUTED) >= 32:
            _PRECOMPUTED.clear()
        pre = _PRECOMPUTED[key] = PublicKey.from_bytes(key).precompute()
    return pre


def _verify_variants(data, pk, sig, msg, mode, encoding, ok):
    """Other ways to ask the same question must give the same answer."""
    check(_verify_ours(pk, memoryview(sig), bytearray(msg), mode, encoding) == ok,
          "verify: bytes vs memoryview/bytearray differ", data)
    pre = _precomputed(pk)
    check(_verify_ours(pre, sig, msg, mode, encoding) == ok,
          "verify: a precomputed key differs from a plain one", data)
    if not mode & 1:
        many = p256.verify_many([(pk, sig, msg)], hash=HASHES[(mode >> 1) % len(HASHES)],
                                encoding=encoding, threads=1)
        check(many == [ok], "verify_many %r != verify %r" % (many, ok), data)
        many = p256.verify_many([(pre, sig, msg)], hash=HASHES[(mode >> 1) % len(HASHES)],
                                encoding=encoding, threads=1)
        check(many == [ok], "verify_many with a precomputed key %r != verify %r" % (many, ok), data)


@target("verify_der", "PublicKey.verify / verify_digest with DER signatures (7 hashes) vs "
                      "cryptography (OpenSSL; strict DER); raw encoding and verify_many agree")
def verify_der(data: bytes) -> None:
    common = _verify_input(data, "der")
    if common is None:
        return
    mode, pub, msg, sig, pk, ok = common
    theirs = _crypto_verify(pub, sig, msg, mode)
    check(ok == theirs, "verify(der) says %s, cryptography says %s" % (ok, theirs), data)
    rs = _strict_der_sig(sig)
    if rs is not None:
        _hint_verify(mode, msg, rs[0], rs[1], ok)
    if rs is not None and rs[0] < 2**256 and rs[1] < 2**256:
        raw = rs[0].to_bytes(32, "big") + rs[1].to_bytes(32, "big")
        check(_verify_ours(pk, raw, msg, mode, "raw") == ok, "verify: DER and raw encodings of the "
                                                            "same (r, s) differ", data)
    else:
        check(not ok, "verify(der) accepted a signature that is not strict DER", data)
    _verify_variants(data, pk, sig, msg, mode, "der", ok)


@target("verify_raw", "PublicKey.verify / verify_digest with raw r||s signatures (7 hashes) vs "
                      "cryptography; the DER encoding of the same (r, s) agrees")
def verify_raw(data: bytes) -> None:
    common = _verify_input(data, "raw")
    if common is None:
        return
    mode, pub, msg, sig, pk, ok = common
    if len(sig) != 64:
        check(not ok, "verify(raw) accepted a signature of %d bytes" % len(sig), data)
    else:
        r, s = int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
        _hint_verify(mode, msg, r, s, ok)
        der = ec_utils.encode_dss_signature(r, s)
        theirs = _crypto_verify(pub, der, msg, mode)
        check(ok == theirs, "verify(raw) says %s, cryptography says %s" % (ok, theirs), data)
        check(_verify_ours(pk, der, msg, mode, "der") == ok, "verify: raw and DER encodings of the "
                                                            "same (r, s) differ", data)
    _verify_variants(data, pk, sig, msg, mode, "raw", ok)


# ---------------------------------------------------------------------------------------
# EIP-7951 P256VERIFY
# ---------------------------------------------------------------------------------------

_C = ref.P256


def eip7951_reference(data: bytes) -> bytes:
    """P256VERIFY written from the EIP-7951 text, over p256.reference (pure Python)."""
    if len(data) != 160:
        return b""
    h, r, s, qx, qy = (int.from_bytes(data[i:i + 32], "big") for i in range(0, 160, 32))
    if not (0 < r < N and 0 < s < N):
        return b""
    if not (qx < P and qy < P) or not _C.is_on_curve(qx, qy):
        return b""
    w = pow(s, -1, N)
    u1, u2 = h * w % N, r * w % N
    R = _C.add(_C.scalar_base_mult(u1) if u1 else None, _C.scalar_mult((qx, qy), u2))
    if R is None:
        return b""
    return EIP_ONE if R[0] % N == r else b""


@target("p256verify", "p256.p256verify (EIP-7951) vs the EIP text over p256.reference; "
                      "cryptography and verify_digest agree on well-formed inputs")
def p256verify(data: bytes) -> None:
    out = p256.p256verify(data)  # no exception is allowed here: any one escapes as a finding
    check(out in (b"", EIP_ONE), "p256verify returned %r" % (out,), data)
    check(p256.p256verify(memoryview(data)) == out, "p256verify: bytes vs memoryview differ", data)
    expected = eip7951_reference(data)
    check(out == expected, "p256verify says %r, the reference says %r" % (out, expected), data)
    if len(data) != 160:
        return
    _hint_point(b"\x04" + data[96:160], expected == EIP_ONE)
    _hint_verify(1, data[:32], int.from_bytes(data[32:64], "big"), int.from_bytes(data[64:96], "big"),
                 out == EIP_ONE)
    pub = b"\x04" + data[96:160]
    pk = oracle(PublicKey.from_bytes, pub)
    r, s = int.from_bytes(data[32:64], "big"), int.from_bytes(data[64:96], "big")
    if pk is None or not (0 < r < N and 0 < s < N):
        check(out == b"", "p256verify accepted an invalid key or r, s", data)
        return
    check(pk.verify_digest(data[32:96], data[:32], encoding="raw") == (out == EIP_ONE),
          "p256verify and verify_digest(raw) differ", data)
    theirs = _crypto_verify(pub, ec_utils.encode_dss_signature(r, s), data[:32], 1)
    check(theirs == (out == EIP_ONE), "p256verify and cryptography differ", data)


# ---------------------------------------------------------------------------------------
# Key recovery and low-s (PublicKey.recover, recover_candidates, normalize_s)
# ---------------------------------------------------------------------------------------


def split_recover_input(data: bytes):
    """mode(1) | digest length(1) | digest | signature. mode bit 0: raw (else DER); bits
    1-2: the recovery id for recover. hash=None (any non-empty digest). A length past
    the end takes what is there. None when the input is too short."""
    if len(data) < 2:
        return None
    n = min(data[1], len(data) - 2)
    return data[0], data[2:2 + n], data[2 + n:]


def _lift(x: int, odd: int):
    y2 = (x * x * x - 3 * x + _C.b) % P
    y = pow(y2, (P + 1) // 4, P)
    if y * y % P != y2:
        return None
    return x, (y if y & 1 == odd else P - y)


def recover_reference(r: int, s: int, digest: bytes):
    """{recovery id: SEC1 key} that SEC 1 v2 4.1.6 gives, each checked with
    ref.ecdsa_verify, over p256.reference (pure Python, written from the SEC 1 text)."""
    e = ref.bits2int(digest, 256) % N
    rinv = pow(r, -1, N)
    g_term = _C.scalar_base_mult(-e * rinv % N) if e else None
    out = {}
    for rid in range(4):
        x = r + N if rid & 2 else r
        big_r = _lift(x, rid & 1) if x < P else None
        if big_r is None:
            continue
        q = _C.add(_C.scalar_mult(big_r, s * rinv % N), g_term)
        if q is not None and ref.ecdsa_verify(_C, q, digest, r, s):
            out[rid] = b"\x04" + q[0].to_bytes(32, "big") + q[1].to_bytes(32, "big")
    return out


def _expected_rs(sig: bytes, raw: bool):
    """(r, s) in [1, n-1] of a well-formed signature (strict DER by dertree), or None."""
    if raw:
        rs = (int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")) if len(sig) == 64 else None
    else:
        rs = _strict_der_sig(sig)
    if rs is None or not (0 < rs[0] < N and 0 < rs[1] < N):
        return None
    return rs


@target("recover", "PublicKey.recover / recover_candidates (hash=None, DER and raw) vs SEC 1 "
                   "4.1.6 over p256.reference; cryptography verifies every key; normalize_s "
                   "vs cryptography's DER encoder")
def recover(data: bytes) -> None:
    parts = split_recover_input(data)
    if parts is None:
        return
    mode, digest, sig = parts
    raw = bool(mode & 1)
    enc = "raw" if raw else "der"
    rid = (mode >> 1) & 3
    ours = attempt("recover_candidates", lambda: PublicKey.recover_candidates(
        sig, digest, hash=None, encoding=enc))
    same_outcome(ours, attempt("recover_candidates(memoryview)", lambda: PublicKey.recover_candidates(
        memoryview(sig), bytearray(digest), hash=None, encoding=enc)), "recover_candidates", data)
    one = attempt("recover", lambda: PublicKey.recover(sig, digest, rid, hash=None, encoding=enc))
    low = attempt("normalize_s", lambda: p256.normalize_s(sig, encoding=enc))
    rs = _expected_rs(sig, raw)
    if rs is None:
        check(isinstance(low, Rejected), "normalize_s accepted a malformed signature", data)
    else:
        r, s = rs
        want = (r, min(s, N - s))
        want_b = (want[0].to_bytes(32, "big") + want[1].to_bytes(32, "big") if raw
                  else ec_utils.encode_dss_signature(*want))
        check(low == want_b, "normalize_s gave %r, expected %s" % (low, want_b.hex()), data)
        _hint_verify(1, digest, r, s, s <= N // 2)
    if rs is None or not digest:
        check(isinstance(ours, Rejected) and isinstance(one, Rejected),
              "recover accepted a malformed signature or an empty digest", data)
        return
    expected = recover_reference(rs[0], rs[1], digest)
    check(not isinstance(ours, Rejected), "recover_candidates rejected a well-formed signature (%r)"
          % (ours,), data)
    got = [k.to_bytes() for k in ours]
    check(got == [expected[i] for i in sorted(expected)],
          "recover_candidates differs from the reference (%d vs %d keys)" % (len(got), len(expected)), data)
    if rid in expected:
        check(not isinstance(one, Rejected) and one.to_bytes() == expected[rid],
              "recover(id %d) differs from the reference (%r)" % (rid, one), data)
    else:
        check(isinstance(one, Rejected), "recover(id %d) gave a key the reference does not" % rid, data)
    der_sig = ec_utils.encode_dss_signature(*rs)
    for k in ours:
        check(_crypto_verify(k.to_bytes(), der_sig, digest, 1),
              "cryptography does not verify the signature under a recovered key", data)
        check(k.verify_digest(sig, digest, hash=None, encoding=enc, low_s=True) == (rs[1] <= N // 2),
              "verify_digest(low_s=True) disagrees with s <= n/2", data)
    if len(got) == 4:
        _ = "four keys: R.x = r + n"


# ---------------------------------------------------------------------------------------
# Negative controls: deliberately broken variants of p256 the targets must catch
# ---------------------------------------------------------------------------------------

PLANTS = {
    "offcurve": ("PublicKey.from_bytes accepts any 04||X||Y with X, Y < p, on the curve or not "
                 "(the invalid-curve bug)", "pub_bytes", "accepted a point cryptography rejects"),
    "ber-length": ("the DER reader accepts non-minimal long-form lengths (BER)", "pub_der",
                   "accepted non-DER input"),
    "sig-trailing": ("verify ignores bytes after a DER signature's SEQUENCE", "verify_der",
                     "cryptography says False"),
    "eip-length": ("p256verify ignores input bytes after the first 160", "p256verify",
                   "the reference says b''"),
    "recover-digest-tail": ("key recovery takes e from the last 32 bytes of a longer digest, "
                            "not its leftmost 256 bits", "recover",
                            "recover_candidates differs from the reference"),
    "pad-message": ("bad PKCS#7 padding after decryption gets its own message (a padding "
                    "oracle)", "priv_encrypted", "a failure after decryption has its own message"),
    "slow-der": ("the SPKI reader's work grows as 4^k for an input with k octets >= 0x80 in a "
                 "row (a backtracking loop over long sub-identifiers)", "pub_der", "unbounded work"),
    "der-memory": ("the SPKI reader buffers 2^(k+8) bytes for an input with k octets >= 0x80 "
                   "in a row", "pub_der", "peak memory"),
    "point-zero-prefix": ("Point.from_bytes takes any input starting with 00 for the identity",
                          "point_bytes", "Point.from_bytes accepted a point cryptography rejects"),
    "scalar-wraps": ("Scalar.from_bytes reduces a value >= n instead of refusing it", "scalar_bytes",
                     "Scalar.from_bytes accepted 32 bytes of value >= n"),
    "oprf-trailing": ("oprf.deserialize_element reads the first 33 bytes of a longer input",
                      "oprf_element", "expected DeserializeError"),
    "proof-unchecked": ("Client.finalize unblinds the answer when its proof does not verify",
                        "oprf_finalize", "finalize accepted an answer the reference refuses"),
}


def _high_run(data: bytes) -> int:
    """The longest run of octets >= 0x80 in data, with a coverage ladder (one edge per
    length, as _hint_point does), so that the fuzzer climbs towards the slow-der and
    der-memory plants' trigger by mutation instead of having to guess it."""
    run = best = 0
    for octet in data:
        run = run + 1 if octet & 0x80 else 0
        best = max(best, run)
    if best >= 2:
        _ = "2"
    if best >= 3:
        _ = "3"
    if best >= 4:
        _ = "4"
    if best >= 5:
        _ = "5"
    if best >= 6:
        _ = "6"
    if best >= 7:
        _ = "7"
    if best >= 8:
        _ = "8"
    if best >= 9:
        _ = "9"
    if best >= 10:
        _ = "10"
    if best >= 11:
        _ = "11"
    if best >= 12:
        _ = "12"
    return best


def _plant(name, set_attr=setattr):
    """Break p256 as PLANTS[name] says (set_attr: how to patch; pytest passes its
    monkeypatch.setattr so the damage is undone after the test)."""
    if name == "offcurve":
        # An invalid point cannot be held by a key object: the bug is that from_bytes
        # answers such input with a key (here the generator's) instead of refusing it.
        real = PublicKey.from_bytes.__func__
        some_key = PrivateKey.from_int(1).public_key

        def from_bytes(cls, data):
            try:
                return real(cls, data)
            except ValueError:
                b = bytes(data)
                if len(b) == 65 and b[0] == 4 and max(int.from_bytes(b[1:33], "big"),
                                                      int.from_bytes(b[33:], "big")) < P:
                    return some_key
                raise
        set_attr(PublicKey, "from_bytes", classmethod(from_bytes))
    elif name == "ber-length":
        real_tlv = _der.Reader.read_tlv

        def read_tlv(self):
            buf, pos, end = self.buf, self.pos, self.end
            if end - pos > 3 and buf[pos + 1] in (0x81, 0x82):
                count = buf[pos + 1] & 0x7F
                start = pos + 2 + count
                length = int.from_bytes(buf[pos + 2:start], "big")
                if length <= end - start:
                    self.pos = start + length
                    return buf[pos], start, start + length
            return real_tlv(self)
        set_attr(_der.Reader, "read_tlv", read_tlv)
    elif name == "sig-trailing":
        real_verify, real_digest = PublicKey.verify, PublicKey.verify_digest

        def cut(sig):
            sig = bytes(sig)
            if len(sig) > 2 and sig[0] == 0x30 and sig[1] < 0x80 and len(sig) > sig[1] + 2:
                return sig[:sig[1] + 2]
            return sig

        def verify(self, sig, msg, *, hash="sha256", encoding="der"):
            return real_verify(self, cut(sig) if encoding == "der" else sig, msg, hash=hash, encoding=encoding)

        def verify_digest(self, sig, digest, *, hash="sha256", encoding="der"):
            return real_digest(self, cut(sig) if encoding == "der" else sig, digest, hash=hash,
                               encoding=encoding)
        set_attr(PublicKey, "verify", verify)
        set_attr(PublicKey, "verify_digest", verify_digest)
    elif name == "eip-length":
        real_eip = p256.p256verify
        set_attr(p256, "p256verify", lambda data: real_eip(bytes(data)[:160]))
    elif name == "recover-digest-tail":
        # the core recovers with e from the digest it is given: hand it the last 32 bytes
        real_recover = PublicKey._recover  # a native class method, bound to PublicKey

        def recover(cls, rs, digest, recovery_id):
            return real_recover(rs, bytes(digest)[-32:], recovery_id)
        set_attr(PublicKey, "_recover", classmethod(recover))
    elif name == "pad-message":
        from p256 import _pbes2
        real_unpad = _pbes2._unpad

        def unpad(plain):
            inner, bad = real_unpad(plain)
            if bad:
                raise ValueError("bad padding")
            return inner, bad
        set_attr(_pbes2, "_unpad", unpad)
    elif name in ("slow-der", "der-memory"):
        from p256 import _formats
        real_from_der = _formats._public_from_der

        def from_der(data):
            run = _high_run(data)
            if name == "slow-der":  # C-level iterations: the loop itself allocates nothing
                collections.deque(itertools.repeat(None, 4 ** min(run, 14)), maxlen=0)
            else:
                hog = bytearray(1 << (min(run, 14) + 8))
                del hog
            return real_from_der(data)
        set_attr(_formats, "_public_from_der", from_der)
    elif name == "point-zero-prefix":
        real_point = p256.Point.from_bytes.__func__

        def point_from_bytes(cls, data):
            return cls.identity() if bytes(data)[:1] == b"\x00" else real_point(cls, data)
        set_attr(p256.Point, "from_bytes", classmethod(point_from_bytes))
    elif name == "scalar-wraps":
        real_scalar = p256.Scalar.from_bytes.__func__

        def scalar_from_bytes(cls, data):
            b = bytes(data)
            if len(b) == 32 and int.from_bytes(b, "big") >= N:
                return cls.from_int(int.from_bytes(b, "big") - N)
            return real_scalar(cls, data)
        set_attr(p256.Scalar, "from_bytes", classmethod(scalar_from_bytes))
    elif name == "oprf-trailing":
        from p256 import oprf as p_oprf
        real_deserialize = p_oprf.deserialize_element
        set_attr(p_oprf, "deserialize_element", lambda data: real_deserialize(bytes(data)[:33]))
    elif name == "proof-unchecked":
        from p256 import _oprf_ref, oprf as p_oprf
        real_finalize = p_oprf.Client.finalize

        def finalize(self, inputs, states, evaluated, proof=None, info=b""):
            try:
                return real_finalize(self, inputs, states, evaluated, proof, info)
            except p_oprf.VerifyError:  # the bug: go on as if it had verified
                return [p_oprf._output(bytes(x), bytes(info) if self.mode == p_oprf.POPRF else None,
                                       st._blind.invert() * p_oprf.deserialize_element(e))
                        for x, st, e in zip(inputs, states, evaluated)]
        set_attr(_oprf_ref.Client, "finalize", real_finalize)  # the oracle stays sound
        set_attr(p_oprf.Client, "finalize", finalize)
    else:
        raise SystemExit("P256_FUZZ_PLANT=%s: unknown; known: %s" % (name, ", ".join(PLANTS)))


if _PLANT:
    _plant(_PLANT)


# ---------------------------------------------------------------------------------------
# COSE_Key, JWS ES256, X.509: cbor2, PyJWT and cryptography as the oracles
# ---------------------------------------------------------------------------------------

import cbor2  # noqa: E402
import jwt as pyjwt  # noqa: E402
from cryptography import x509 as c_x509  # noqa: E402

from p256 import _cose, jws as p_jws, x509 as p_x509  # noqa: E402

DIFFERENCES.update({
    "C1-cbor-types": "p256 refuses CBOR tags, floating-point numbers and simple values other than "
                     "false/true/null anywhere in a COSE_Key (no COSE_Key parameter uses them), "
                     "which cbor2 decodes. Checked: cbor2's decoding holds a value of another type "
                     "(float, a tag's object, undefined, or an int beyond 64 bits, which only a "
                     "bignum tag gives).",
    "C2-cbor-depth": "p256 refuses arrays and maps nested more than p256._cose.MAX_DEPTH (16) "
                     "levels in a COSE_Key; cbor2 reads deeper. Checked: the decoded value's depth "
                     "exceeds the limit.",
    "J1-base64": "p256 refuses base64url that is not canonical (padding, characters outside the "
                 "alphabet, non-zero unused bits), which PyJWT's lenient decoder (re-padding, then "
                 "urlsafe_b64decode, which drops other characters) accepts. Checked: a part, split "
                 "as PyJWT splits the token, is not the canonical base64url of what it decodes to.",
    "J2-header-json": "p256 refuses a JWS header with a duplicate member (PyJWT takes the last), "
                      "NaN or Infinity, or text that is not UTF-8 (json.loads of bytes also reads "
                      "UTF-16 and UTF-32; RFC 7515 says UTF-8). Checked: the header, read strictly "
                      "as UTF-8 JSON, has that defect.",
    "J3-crit": "p256 refuses every 'crit' (it implements no extension; RFC 7515 4.1.11) and 'b64' "
               "other than true, which PyJWT may accept. Checked: the header has them.",
    "X1-structure": "p256 checks RFC 5280 4.1 rules that cryptography does not: unique identifiers "
                    "only from v2 and extensions only in v3, the inner signature algorithm equal to "
                    "the outer one, no parameters with ECDSA, a signatureValue of whole octets (no "
                    "unused bits: an ECDSA signature is a DER SEQUENCE), RDNs and the extensions "
                    "list non-empty (SIZE (1..MAX)), no extension twice (4.2; cryptography finds "
                    "that only when its extensions are read). Checked: the certificate (parsed by "
                    "tests/fuzz/dertree.py) breaks one of them.",
    "X2-fields": "p256 does not interpret names, validity, serial number, extensions or the "
                 "subject key's algorithm (it checks them as DER only), which cryptography parses "
                 "and may reject. Checked: cryptography's error points into one of those fields.",
    "X3-v2": "p256 reads v2 certificates (RFC 5280 4.1.2.1 defines them); cryptography refuses "
             "version 1 (v2). Checked: the explicit version is 1 and cryptography says so.",
})

INTEGRATION_SK = [PrivateKey.from_int(d) for d in (0x1D1D0001, 0x2E2E0002)]  # gen_py_fuzz_corpus
INTEGRATION_PK = [sk.public_key for sk in INTEGRATION_SK]
_C_INTEGRATION = [ser.load_der_public_key(pk.to_der()) for pk in INTEGRATION_PK]
_JWKS = {"keys": [dict(pk.to_jwk(), kid="k%d" % (i + 1)) for i, pk in enumerate(INTEGRATION_PK)]}


def _cbor_allowed(v) -> bool:
    """Whether a cbor2-decoded value holds only what a COSE_Key may (see C1)."""
    if v is None or isinstance(v, (bool, bytes, str)):
        return True
    if isinstance(v, int):
        return -2**64 <= v < 2**64
    if isinstance(v, (list, tuple)):
        return all(_cbor_allowed(x) for x in v)
    if isinstance(v, dict) or type(v).__name__ == "FrozenDict":
        return all(_cbor_allowed(k) and _cbor_allowed(x) for k, x in v.items())
    return False


def _cbor_depth(v) -> int:
    if isinstance(v, (list, tuple)):
        return 1 + max((_cbor_depth(x) for x in v), default=0)
    if isinstance(v, dict) or type(v).__name__ == "FrozenDict":
        return 1 + max((max(_cbor_depth(k), _cbor_depth(x)) for k, x in v.items()), default=0)
    return 0


def _cbor_head(major: int, n: int) -> bytes:
    if n < 24:
        return bytes([major << 5 | n])
    size = 1 if n < 256 else 2 if n < 65536 else 4 if n < 2**32 else 8
    return bytes([major << 5 | {1: 24, 2: 25, 4: 26, 8: 27}[size]]) + n.to_bytes(size, "big")


def _cbor_bytewise(v) -> bytes:
    """RFC 8949 4.2.1 encoding (bytewise key order): containers written out here, the
    leaves by cbor2 (cbor2's canonical=True sorts maps length-first, RFC 8949 4.2.3)."""
    if isinstance(v, (list, tuple)):
        return _cbor_head(4, len(v)) + b"".join(_cbor_bytewise(x) for x in v)
    if isinstance(v, dict) or type(v).__name__ == "FrozenDict":
        items = sorted((_cbor_bytewise(k), _cbor_bytewise(x)) for k, x in v.items())
        return _cbor_head(5, len(items)) + b"".join(k + x for k, x in items)
    return cbor2.dumps(v, canonical=True)


def _cose_expected(v):
    """The point an independent reading of the COSE_Key rules gives, or None."""
    if not isinstance(v, dict) or any(type(k) is not int and not isinstance(k, str) for k in v):
        return None
    if type(v.get(1)) is not int or v[1] != 2 or type(v.get(-1)) is not int or v[-1] != 1:
        return None
    if 3 in v and (type(v[3]) is not int or v[3] != -7):
        return None
    if -4 in v or any(k in v and not isinstance(v[k], bytes) for k in (2, 5)):
        return None
    if 4 in v and not (isinstance(v[4], list) and v[4] and all(
            type(o) is int or isinstance(o, str) for o in v[4])):
        return None
    x, y = v.get(-2), v.get(-3)
    if not (isinstance(x, bytes) and isinstance(y, bytes) and len(x) == len(y) == 32):
        return None
    return oracle(lambda: c_point(ec.EllipticCurvePublicKey.from_encoded_point(CURVE, b"\x04" + x + y)))


@target("cose_key", "PublicKey.from_cose (deterministic CBOR, COSE_Key rules) vs cbor2 plus the "
                    "rules written out; the mapping form agrees; to_cose round-trips")
def cose_key(data: bytes):
    ours = bounded("PublicKey.from_cose", len(data), PublicKey.from_cose, data)
    same_outcome(ours, attempt("PublicKey.from_cose(memoryview)", PublicKey.from_cose, memoryview(data)),
                 "PublicKey.from_cose: bytes vs memoryview", data)
    try:
        v = cbor2.loads(data)
    except Exception:  # noqa: BLE001 -- not one CBOR item (or trailing data): p256 must agree
        check(isinstance(ours, Rejected), "PublicKey.from_cose accepted what cbor2 cannot read", data)
        return None
    if not _cbor_allowed(v):
        check(isinstance(ours, Rejected), "PublicKey.from_cose accepted a tag, float or simple value", data)
        return "C1-cbor-types"
    if _cbor_depth(v) > _cose.MAX_DEPTH:
        check(isinstance(ours, Rejected), "PublicKey.from_cose accepted nesting beyond MAX_DEPTH", data)
        return "C2-cbor-depth"
    expected = _cose_expected(v)
    if isinstance(v, dict):
        mapped = attempt("PublicKey.from_cose(mapping)", PublicKey.from_cose, v)
        check(isinstance(mapped, Rejected) == (expected is None),
              "PublicKey.from_cose(mapping) says %r, the rules say %r" % (mapped, expected), data)
        if expected is not None:
            check(mapped.to_bytes() == expected, "PublicKey.from_cose(mapping): another point", data)
    deterministic = data in (cbor2.dumps(v, canonical=True), _cbor_bytewise(v))
    if not deterministic or expected is None:
        check(isinstance(ours, Rejected), "PublicKey.from_cose accepted %s" %
              ("a non-deterministic encoding" if not deterministic else "a map the rules refuse"), data)
        return None
    check(isinstance(ours, PublicKey), "PublicKey.from_cose rejected a valid COSE_Key (%r)" % (ours,), data)
    check(ours.to_bytes() == expected, "PublicKey.from_cose: a different point from the rules'", data)
    check(PublicKey.from_cose(ours.to_cose()) == ours, "to_cose does not round-trip", data)
    if set(v) <= {1, 3, -1, -2, -3}:
        check(ours.to_cose(include_alg=3 in v) == data, "to_cose does not re-encode the input", data)
    return None


def _lenient_b64(part: bytes) -> bytes:
    return base64.urlsafe_b64decode(part + b"=" * (-len(part) % 4))


def explain_jws_rejection(token: bytes):
    """The DIFFERENCES id explaining why p256 refuses a token PyJWT accepts, or None."""
    rest, _, sig = token.rpartition(b".")
    header, _, payload = rest.partition(b".")
    for part in (header, payload, sig):
        try:
            canonical = base64.urlsafe_b64encode(_lenient_b64(part)).rstrip(b"=")
        except Exception:  # noqa: BLE001
            return "J1-base64"
        if canonical != part:
            return "J1-base64"
    raw = _lenient_b64(header)

    def no_dup(pairs):
        names = [k for k, _ in pairs]
        if len(set(names)) != len(names):
            raise ValueError("dup")
        return dict(pairs)

    def no_constant(name):
        raise ValueError(name)

    try:
        h = json.loads(raw.decode("utf-8"), object_pairs_hook=no_dup, parse_constant=no_constant)
    except ValueError:
        return "J2-header-json"
    if isinstance(h, dict) and ("crit" in h or h.get("b64", True) is not True):
        return "J3-crit"
    return None


@target("jws_verify", "p256.jws.verify (ES256 compact; PublicKey, JWK set by kid, single JWK) vs "
                      "PyJWT's PyJWS.decode with the key the kid names; str and bytes agree")
def jws_verify(data: bytes):
    if not data:
        return None
    mode, token = data[0] % 3, data[1:]
    key = (INTEGRATION_PK[0], _JWKS, _JWKS["keys"][0])[mode]
    ours = bounded("jws.verify", len(token), p_jws.verify, token, key)
    try:
        text = token.decode("ascii")
    except UnicodeDecodeError:
        check(isinstance(ours, Rejected), "jws.verify accepted a token that is not ASCII", data)
        return None
    same_outcome(ours, attempt("jws.verify(str)", p_jws.verify, text, key), "jws.verify: bytes vs str", data)
    header = oracle(pyjwt.get_unverified_header, token)
    kid = header.get("kid") if isinstance(header, dict) else None
    if mode == 0:
        c_key = _C_INTEGRATION[0]
    elif mode == 1:
        c_key = {"k1": _C_INTEGRATION[0], "k2": _C_INTEGRATION[1]}.get(kid) if isinstance(kid, str) else None
    else:
        c_key = _C_INTEGRATION[0] if kid in (None, "k1") else None
    theirs = None
    if c_key is not None:
        theirs = oracle(lambda: pyjwt.PyJWS().decode(token, c_key, algorithms=["ES256"]))
    if isinstance(ours, Rejected):
        if theirs is None:
            return None
        why = explain_jws_rejection(token)
        check(why is not None, "jws.verify refused a token PyJWT accepts (%r)" % (ours,), data)
        return why
    check(isinstance(ours, bytes), "jws.verify returned %r" % type(ours), data)
    check(theirs is not None, "jws.verify accepted a token PyJWT refuses (or a kid it should not)", data)
    check(ours == theirs, "jws.verify and PyJWT return different payloads", data)
    check(kid is not None or mode != 1, "jws.verify chose a key of a JWK set without a kid", data)
    return None


# Where cryptography's parse errors point (its Rust structures) for the fields p256 does
# not interpret; names are parsed lazily, so their errors may lack the TbsCertificate prefix.
_X509_FIELDS = ("TbsCertificate::issuer", "TbsCertificate::subject", "TbsCertificate::validity",
                "TbsCertificate::serial", "TbsCertificate::raw_extensions", "TbsCertificate::spki",
                "TbsCertificate::issuer_unique_id", "TbsCertificate::subject_unique_id",
                "\"AttributeTypeValue::", "\"AttributeValue::", "\"Validity::", "\"Time::",
                "\"Extension::")


def _x509_structure_problem(data: bytes):
    """Which RFC 5280 rule of X1 the certificate breaks, or None (dertree's reading)."""
    try:
        cert = dertree.parse(data)
    except dertree.NotDer:
        return None
    kids = _children(cert, 0x30, 0x30, 0x03)
    if kids is None or len(kids) != 3 or kids[0].children is None:
        return None
    if kids[2].value[:1] != b"\x00":
        return "signatureValue with unused bits"
    tbs = kids[0].children
    version = 0
    if tbs and tbs[0].tag == 0xA0 and tbs[0].children and tbs[0].children[0].tag == 0x02:
        version = int.from_bytes(tbs[0].children[0].value, "big", signed=True)
        tbs = tbs[1:]
    if len(tbs) > 2 and dertree.encode(tbs[1]) != dertree.encode(kids[1]):
        return "inner and outer signature algorithms differ"
    alg = kids[1].children or []
    if len(alg) > 1 and alg[0].value in p_x509.SIGNATURE_HASHES:
        return "ECDSA with parameters"
    for node in tbs[6:]:
        if node.tag in (0x81, 0x82) and version < 1 or node.tag == 0xA3 and version < 2:
            return "a field its version does not have"
    for name in tbs[2:5:2]:  # issuer, subject: RDNs are SET SIZE (1..MAX)
        if name.children is not None and any(rdn.children == [] for rdn in name.children):
            return "an empty RelativeDistinguishedName"
    exts = [node for node in tbs[6:] if node.tag == 0xA3]
    if exts and exts[0].children and exts[0].children[0].children is not None:
        items = exts[0].children[0].children
        if not items:
            return "an empty extensions list (SIZE (1..MAX))"
        oids = [e.children[0].value for e in items if e.children]
        if len(set(oids)) != len(oids):
            return "an extension twice (RFC 5280 4.2)"
    return None


def _certificate_spki(tbs: bytes) -> bytes:
    """The subjectPublicKeyInfo of a TBSCertificate x509.parse accepted, as DER."""
    fields = dertree.parse(tbs).children
    return dertree.encode(fields[6 if fields[0].tag == 0xA0 else 5])


@target("x509_cert", "p256.x509.parse / PublicKey.from_certificate / verify_signature (DER) vs "
                     "cryptography's load_der_x509_certificate and ECDSA verification")
def x509_cert(data: bytes):
    if data[:1] != b"\x30":
        return None  # PEM is the PEM reader's (pub_pem); this target is about the DER
    ours = bounded("x509.parse", len(data), p_x509.parse, data)
    same_outcome(ours, attempt("x509.parse(memoryview)", p_x509.parse, memoryview(data)),
                 "x509.parse: bytes vs memoryview", data)
    key = attempt("PublicKey.from_certificate", PublicKey.from_certificate, data)
    errors = []

    def load(raw):
        try:
            return c_x509.load_der_x509_certificate(raw)
        except Exception as exc:  # noqa: BLE001
            errors.append(str(exc))
            raise

    theirs = oracle(load, data)
    if isinstance(ours, Rejected):
        check(isinstance(key, Rejected), "from_certificate accepted what x509.parse refuses", data)
        if theirs is None:
            return None
        if dertree.der_problems(data):
            return "D0-not-der"
        why = _x509_structure_problem(data)
        check(why is not None, "x509.parse refused a certificate cryptography accepts (%r)" % (ours,), data)
        return "X1-structure"
    if theirs is None:
        if any(f in e for e in errors for f in _X509_FIELDS):
            return "X2-fields"
        first = dertree.parse(ours.tbs_certificate).children[0]
        check(dertree.encode(first) == b"\xa0\x03\x02\x01\x01"  # [0] EXPLICIT INTEGER 1: v2
              and any("1 is not a valid X509 version" in e for e in errors),
              "x509.parse accepted a certificate cryptography refuses (%s)" % errors[:1], data)
        return "X3-v2"
    check(ours.tbs_certificate == theirs.tbs_certificate_bytes, "a different TBSCertificate", data)
    check(ours.signature == theirs.signature, "a different signature", data)
    check(_der.oid_to_str(ours.signature_algorithm) == theirs.signature_algorithm_oid.dotted_string,
          "a different signature algorithm", data)
    c_key = oracle(theirs.public_key)
    c_q = c_point(c_key)
    difference = None
    if isinstance(key, Rejected):
        if c_q is not None:  # the subject key: the SPKI readers' differences apply
            difference = explain_spki_rejection(_certificate_spki(ours.tbs_certificate), c_q)
            check(difference is not None, "from_certificate refused a P-256 key cryptography reads", data)
    else:
        check(key.to_bytes() == c_q, "from_certificate: a different key from cryptography's", data)
    hash_name = p_x509.SIGNATURE_HASHES.get(ours.signature_algorithm)
    for issuer, c_issuer in zip(INTEGRATION_PK, _C_INTEGRATION):
        ok = attempt("x509.verify_signature", p_x509.verify_signature, data, issuer)
        if hash_name is None:
            check(isinstance(ok, Rejected), "verify_signature accepted a non-ECDSA-SHA2 algorithm", data)
            continue
        check(type(ok) is bool, "verify_signature returned %r" % (ok,), data)
        c_hash = {"sha256": hashes.SHA256, "sha384": hashes.SHA384, "sha512": hashes.SHA512}[hash_name]
        try:
            c_issuer.verify(theirs.signature, theirs.tbs_certificate_bytes, ec.ECDSA(c_hash()))
            c_ok = True
        except Exception:  # noqa: BLE001
            c_ok = False
        check(ok == c_ok, "verify_signature says %s, cryptography says %s" % (ok, c_ok), data)
    return difference


# ---------------------------------------------------------------------------------------
# p256.oprf (RFC 9497): its element decoder and the client's reading of the server's answer
# ---------------------------------------------------------------------------------------

import pathlib  # noqa: E402

from p256 import _oprf_ref, _refgroup, oprf  # noqa: E402

_OPRF_VECTORS = pathlib.Path(os.environ.get("P256_VECTORS") or
                             pathlib.Path(__file__).resolve().parent.parent / "vectors")
with open(_OPRF_VECTORS / "oprf" / "P256-SHA256.json", "rb") as _f:
    _OPRF_SUITES = {s["mode"]: s for s in json.load(_f)}

#: oprf_element's server key (OPRF mode) on both sides, and the expected decoder rule.
OPRF_ELEMENT_SEED = bytes(range(32))  # tools/gen_py_fuzz_corpus.py knows it too
_OPRF_SERVERS = [inst.Server(oprf.OPRF, inst.derive_key_pair(OPRF_ELEMENT_SEED, b"fuzz", oprf.OPRF)[0])
                 for inst in (oprf, _oprf_ref)]
#: And a VOPRF server on both sides with a fixed proof scalar: one element's evaluation and
#: proof (the native side's products over a table of the element) are the same bytes.
_VOPRF_SERVERS = [(inst.Server(oprf.VOPRF, inst.derive_key_pair(OPRF_ELEMENT_SEED, b"fuzz", oprf.VOPRF)[0]),
                   scalar.from_bytes(b"\x07" * 32))
                  for inst, scalar in ((oprf, p256.Scalar), (_oprf_ref, _refgroup.Scalar))]


def _element_rule(data: bytes):
    """RFC 9497 4.3's DeserializeElement for P-256, written out: 33 bytes, 02 or 03, and
    cryptography's from_encoded_point takes it; the point's compressed bytes, or None."""
    if len(data) != 33 or data[0] not in (2, 3):
        return None
    key = oracle(ec.EllipticCurvePublicKey.from_encoded_point, CURVE, data)
    if key is None:
        return None
    return key.public_bytes(ser.Encoding.X962, ser.PublicFormat.CompressedPoint)


def _oprf_rejected(result, what, data):
    check(isinstance(result, Rejected) and isinstance(result.exc, oprf.DeserializeError),
          "%s: expected DeserializeError, got %r" % (what, result), data)


@target("oprf_element", "oprf.deserialize_element and Server.blind_evaluate's decoding vs the "
                        "rule written out over cryptography; the reference instance agrees, and "
                        "on one element's VOPRF evaluation and proof")
def oprf_element(data: bytes) -> None:
    ours = attempt("oprf.deserialize_element", oprf.deserialize_element, data)
    same_outcome(ours, attempt("oprf.deserialize_element(bytearray)", oprf.deserialize_element,
                               bytearray(data)), "deserialize_element: bytes vs bytearray", data)
    theirs = attempt("reference deserialize_element", _oprf_ref.deserialize_element, data)
    rule = _element_rule(data)
    _hint_point(data, not isinstance(ours, Rejected))
    if rule is None:
        _oprf_rejected(ours, "deserialize_element", data)
        _oprf_rejected(theirs, "the reference's deserialize_element", data)
        _oprf_rejected(attempt("Server.blind_evaluate", _OPRF_SERVERS[0].blind_evaluate, [data]),
                       "blind_evaluate", data)
        return
    check(not isinstance(ours, Rejected), "deserialize_element refused a valid element (%r)" % (ours,), data)
    check(not isinstance(theirs, Rejected), "the reference refused a valid element", data)
    check(ours.to_bytes(compressed=True) == rule == data, "the element does not re-encode to the input", data)
    evaluated = [attempt("blind_evaluate", server.blind_evaluate, [data])[0][0].to_bytes(compressed=True)
                 for server in _OPRF_SERVERS]
    check(evaluated[0] == evaluated[1], "blind_evaluate differs from the reference instance's", data)
    proved = []
    for server, r in _VOPRF_SERVERS:
        [element], proof = attempt("VOPRF blind_evaluate", server.blind_evaluate, [data], b"", r)
        proved.append((element.to_bytes(compressed=True), proof))
    check(proved[0] == proved[1], "VOPRF blind_evaluate (its element and proof) differs from the "
          "reference instance's", data)


def _oprf_cases():
    """(mode, input, info, blind, the vector's output) of the batch-of-one vectors of
    VOPRF and POPRF: oprf_finalize's clients, case = data[0] % 4."""
    cases = []
    for mode in (oprf.VOPRF, oprf.POPRF):
        suite = _OPRF_SUITES[mode]
        for v in suite["vectors"][:2]:
            cases.append((mode, bytes.fromhex(suite["seed"]), bytes.fromhex(suite["keyInfo"]),
                          bytes.fromhex(v["Input"]), bytes.fromhex(v.get("Info", "")),
                          bytes.fromhex(v["Blind"]), bytes.fromhex(v["Output"])))
    return cases


def _oprf_clients():
    """Per case: (output, info, input, [(client, state) per instance])."""
    out = []
    for mode, seed, key_info, x, info, blind, output in _oprf_cases():
        sides = []
        for inst, scalar in ((oprf, oprf._NATIVE.scalar), (_oprf_ref, _oprf_ref.GROUP.scalar)):
            pk = inst.derive_key_pair(seed, key_info, mode)[1]
            client = inst.Client(mode, pk)
            state, _ = client.blind(x, info, blind=scalar.from_bytes(blind))
            sides.append((client, state))
        out.append((output, info, x, sides))
    return out


_OPRF_CLIENTS = _oprf_clients()


@target("oprf_finalize", "Client.finalize (VOPRF, POPRF) on a server's answer: evaluated element || "
                         "proof; decoding by the rules written out; verdicts and outputs agree "
                         "with the reference instance; an accepted answer gives the RFC's output")
def oprf_finalize(data: bytes) -> None:
    if not data:
        return
    output, info, x, sides = _OPRF_CLIENTS[data[0] % len(_OPRF_CLIENTS)]
    element, proof = data[1:34], data[34:]
    results = [attempt("Client.finalize", client.finalize, [x], [state], [element], proof, info)
               for client, state in sides]
    same_outcome(results[0], attempt("Client.finalize(memoryview)", sides[0][0].finalize, [x],
                                     [sides[0][1]], [memoryview(element)], memoryview(proof), info),
                 "finalize: bytes vs memoryview", data)
    proof_ok = len(proof) == 64 and max(int.from_bytes(proof[:32], "big"),
                                        int.from_bytes(proof[32:], "big")) < N
    if _element_rule(element) is None or not proof_ok:
        _ = "element" if _element_rule(element) is None else "proof"
        for r, who in zip(results, ("finalize", "the reference's finalize")):
            _oprf_rejected(r, who, data)
        return
    ours, theirs = results
    check(isinstance(ours, Rejected) or not isinstance(theirs, Rejected),
          "finalize accepted an answer the reference refuses (%r)" % (theirs,), data)
    if isinstance(ours, Rejected) or isinstance(theirs, Rejected):
        check(isinstance(ours, Rejected) and isinstance(theirs, Rejected)
              and type(ours.exc) is type(theirs.exc) is oprf.VerifyError,
              "finalize: %r, the reference: %r" % (ours, theirs), data)
        return
    _ = "accepted"
    check(ours == theirs == [output], "an accepted answer with another output than the RFC's", data)

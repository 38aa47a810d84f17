# SPDX-License-Identifier: Apache-2.0
"""Every Wycheproof ECDSA and ECDH vector in tests/vectors/wycheproof, run against p256.reference.

One parametrized test per file kind, ids "<file>:<tcId>":

    ecdsa-der       EcdsaVerify           DER signature (strict DER decoding)
    ecdsa-p1363     EcdsaP1363Verify      r || s, exactly 2 * byte_len(n) bytes
    ecdh-asn        EcdhTest              public key as a DER SubjectPublicKeyInfo
    ecdh-ecpoint    EcdhEcpointTest       public key as a SEC1 point
    ecdh-pem        EcdhPemTest           SPKI in PEM; private key as PKCS#8 PEM
    ecdh-webcrypto  EcdhWebcryptoTest     JWK public / private keys

`valid` must be accepted (signature verifies / shared secret equals the expected one),
`invalid` must be rejected (decoding fails, verification fails or ecdh raises ValueError).
`acceptable` cases are run and must follow this documented policy (POLICY below):

    * compressed public points (flags CompressedPublic / CompressedPoint): ACCEPTED, and the
      shared secret must then equal the expected one;
    * BER / non-DER / otherwise malformed ASN.1 or PEM (InvalidAsn, InvalidPem): REJECTED;
    * explicit curve parameters (UnnamedCurve): REJECTED (only named curves are supported).

An acceptable case whose flags match no rule fails the test, so a new kind of acceptable vector
needs an explicit decision here.  A summary of how every kind of case went (including which way
each acceptable class went) is printed at the end of the module.
"""

from __future__ import annotations

import base64
import binascii
import collections
import hashlib
import re

import pytest

import vectors_util as vu
from p256 import reference as ref
from vectors_util import (
    VECTORS,
    der_sig_decode,
    hash_name,
    load_wycheproof,
    sec1_decode,
    spki_decode,
    wycheproof_params,
)

ALL_FILES = sorted(p.name for p in (VECTORS / "wycheproof").glob("*.json"))

# file-name pattern -> (kind, Wycheproof test-group type)
KINDS = [
    (r"^ecdsa_secp\d+r1_sha\d+_p1363_test\.json$", "ecdsa-p1363", "EcdsaP1363Verify"),
    (r"^ecdsa_secp\d+r1_sha\d+_test\.json$", "ecdsa-der", "EcdsaVerify"),
    (r"^ecdh_secp\d+r1_ecpoint_test\.json$", "ecdh-ecpoint", "EcdhEcpointTest"),
    (r"^ecdh_secp\d+r1_pem_test\.json$", "ecdh-pem", "EcdhPemTest"),
    (r"^ecdh_secp\d+r1_webcrypto_test\.json$", "ecdh-webcrypto", "EcdhWebcryptoTest"),
    (r"^ecdh_secp\d+r1_test\.json$", "ecdh-asn", "EcdhTest"),
]
GROUP_TYPE = {kind: gtype for _, kind, gtype in KINDS}


def _kind_of(file_name):
    for pattern, kind, _ in KINDS:
        if re.match(pattern, file_name):
            return kind
    return None


FILES_BY_KIND = collections.defaultdict(list)
for _name in ALL_FILES:
    if _kind_of(_name):
        FILES_BY_KIND[_kind_of(_name)].append(_name)

# ---------------------------------------------------------------------------------------------
# Policy for `acceptable` results, and the record of outcomes
# ---------------------------------------------------------------------------------------------

ACCEPT_FLAGS = {"CompressedPublic", "CompressedPoint"}
REJECT_FLAGS = {"InvalidAsn", "InvalidPem", "UnnamedCurve"}
POLICY = "accept compressed points; reject non-DER/BER ASN.1, malformed PEM and explicit curve parameters"

# (kind, result, outcome) -> count; (file, flags, outcome) -> count for acceptable cases
RECORD = collections.Counter()
ACCEPTABLE = collections.Counter()


def _policy_accepts(flags):
    flags = set(flags)
    if flags & REJECT_FLAGS:
        return False
    if flags & ACCEPT_FLAGS:
        return True
    pytest.fail(f"no policy for an acceptable case with flags {sorted(flags)}; decide one in POLICY")


def _judge(kind, file_name, test, accepted, detail=""):
    result = test["result"]
    where = f"{file_name}:{test['tcId']} ({test['comment']!r}, flags {test['flags']})"
    if result == "valid":
        assert accepted, f"valid case rejected: {where} {detail}"
    elif result == "invalid":
        assert not accepted, f"invalid case accepted: {where}"
    elif result == "acceptable":
        want = _policy_accepts(test["flags"])
        assert accepted == want, (
            f"acceptable case went against the policy ({POLICY}): {where} -> "
            f"{'accepted' if accepted else 'rejected'} {detail}"
        )
        ACCEPTABLE[(file_name, tuple(test["flags"]), "accepted" if accepted else "rejected")] += 1
    else:
        pytest.fail(f"unknown result {result!r} in {where}")
    RECORD[(kind, result, "accepted" if accepted else "rejected")] += 1


def _summary_lines():
    lines = [f"passed cases by outcome (acceptable policy: {POLICY})"]
    for kind in sorted({k for k, _, _ in RECORD}):
        parts = [f"{res} {out} {cnt}" for (k, res, out), cnt in sorted(RECORD.items()) if k == kind]
        lines.append(f"  {kind:15s} " + ", ".join(parts))
    for (file_name, flags, outcome), cnt in sorted(ACCEPTABLE.items()):
        lines.append(f"  acceptable {file_name} {'+'.join(flags)}: {outcome} x{cnt}")
    return lines


class _SummaryPlugin:
    """Prints the record in pytest's terminal summary (output during tests is captured)."""

    def pytest_terminal_summary(self, terminalreporter):
        if RECORD:
            terminalreporter.write_sep("-", "reference vs Wycheproof")
            for line in _summary_lines():
                terminalreporter.write_line(line)


@pytest.fixture(scope="module", autouse=True)
def _report(request):
    pm = request.config.pluginmanager
    if pm.get_plugin("reference-wycheproof-summary") is None:
        pm.register(_SummaryPlugin(), "reference-wycheproof-summary")
    yield


# ---------------------------------------------------------------------------------------------
# Coverage of the vector directory
# ---------------------------------------------------------------------------------------------


def test_every_vector_file_is_run():
    ecc_files = [f for f in ALL_FILES if f.startswith(("ecdsa_", "ecdh_"))]
    assert ecc_files, f"no vectors found under {VECTORS}"
    unclassified = [f for f in ecc_files if _kind_of(f) is None]
    assert not unclassified, f"files no test runs: {unclassified}"
    total = 0
    for f in ecc_files:
        data = load_wycheproof(f)
        n = sum(len(g["tests"]) for g in data["testGroups"])
        assert n == data["numberOfTests"], f
        total += n
    assert total == sum(len(PARAMS[k]) for k in PARAMS)
    for curve in ("secp224r1", "secp256r1", "secp384r1", "secp521r1"):
        assert any(curve in f for f in FILES_BY_KIND["ecdsa-der"]), curve
        assert any(curve in f for f in FILES_BY_KIND["ecdh-asn"]), curve


PARAMS = {kind: wycheproof_params(FILES_BY_KIND[kind]) for kind in GROUP_TYPE}


# ---------------------------------------------------------------------------------------------
# ECDSA
# ---------------------------------------------------------------------------------------------

_KEY_CACHE = {}


def _ecdsa_group_key(group):
    """(curve, Q) of an ECDSA test group, from its SPKI, cross-checked with the raw forms."""
    der = group["publicKeyDer"]
    if der not in _KEY_CACHE:
        c = ref.curve_by_name(group["publicKey"]["curve"])
        name, point = spki_decode(bytes.fromhex(der))
        assert name == c.name
        Q = sec1_decode(c, point)
        assert Q == sec1_decode(c, bytes.fromhex(group["publicKey"]["uncompressed"]))
        assert Q == (int(group["publicKey"]["wx"], 16), int(group["publicKey"]["wy"], 16))
        _KEY_CACHE[der] = (c, Q)
    return _KEY_CACHE[der]


def _digest(group, test):
    return hashlib.new(hash_name(group["sha"]), bytes.fromhex(test["msg"])).digest()


@pytest.mark.parametrize("file_name,group,test", PARAMS["ecdsa-der"])
def test_ecdsa_der(file_name, group, test):
    assert group["type"] == GROUP_TYPE["ecdsa-der"]
    c, Q = _ecdsa_group_key(group)
    rs = der_sig_decode(bytes.fromhex(test["sig"]))
    accepted = rs is not None and ref.ecdsa_verify(c, Q, _digest(group, test), *rs)
    _judge("ecdsa-der", file_name, test, accepted)


@pytest.mark.parametrize("file_name,group,test", PARAMS["ecdsa-p1363"])
def test_ecdsa_p1363(file_name, group, test):
    assert group["type"] == GROUP_TYPE["ecdsa-p1363"]
    c, Q = _ecdsa_group_key(group)
    sig = bytes.fromhex(test["sig"])
    size = (c.n.bit_length() + 7) // 8
    accepted = False
    if len(sig) == 2 * size:
        r, s = int.from_bytes(sig[:size], "big"), int.from_bytes(sig[size:], "big")
        accepted = ref.ecdsa_verify(c, Q, _digest(group, test), r, s)
    _judge("ecdsa-p1363", file_name, test, accepted)


# ---------------------------------------------------------------------------------------------
# ECDH
# ---------------------------------------------------------------------------------------------


def _run_ecdh(kind, file_name, test, c, d, decode_public):
    """decode_public() -> (x, y) or ValueError; then ecdh; judge, checking the shared secret."""
    try:
        Q = decode_public()
        shared = ref.ecdh(c, d, Q)
    except ValueError as exc:
        _judge(kind, file_name, test, False, detail=f"({exc})")
        return
    if test["result"] != "invalid":
        assert shared.hex() == test["shared"], f"{file_name}:{test['tcId']} wrong shared secret"
    _judge(kind, file_name, test, True)


def _spki_point(c, der):
    name, point = spki_decode(der)
    if name != c.name:
        raise ValueError(f"public key is on {name}, not {c.name}")
    return sec1_decode(c, point)


@pytest.mark.parametrize("file_name,group,test", PARAMS["ecdh-asn"])
def test_ecdh_asn(file_name, group, test):
    assert group["type"] == GROUP_TYPE["ecdh-asn"] and group["encoding"] == "asn"
    c = ref.curve_by_name(group["curve"])
    d = int(test["private"], 16)
    _run_ecdh("ecdh-asn", file_name, test, c, d, lambda: _spki_point(c, bytes.fromhex(test["public"])))


@pytest.mark.parametrize("file_name,group,test", PARAMS["ecdh-ecpoint"])
def test_ecdh_ecpoint(file_name, group, test):
    assert group["type"] == GROUP_TYPE["ecdh-ecpoint"] and group["encoding"] == "ecpoint"
    c = ref.curve_by_name(group["curve"])
    d = int(test["private"], 16)
    _run_ecdh("ecdh-ecpoint", file_name, test, c, d, lambda: sec1_decode(c, bytes.fromhex(test["public"])))


# -- PEM (RFC 7468 strict textual encoding) -------------------------------------------------------

_PEM_RE = re.compile(
    r"\A-----BEGIN (?P<label>[A-Z ]+)-----\n(?P<body>(?:[A-Za-z0-9+/=]+\n)+)-----END (?P=label)-----\n?\Z"
)


def _pem_decode(text, label):
    m = _PEM_RE.match(text)
    if not m or m.group("label") != label:
        raise ValueError(f"not a strict PEM {label}")
    try:
        return base64.b64decode("".join(m.group("body").split()), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"bad base64 in PEM: {exc}") from None


def _pkcs8_ec_private(der, c):
    """d from a PKCS#8 PrivateKeyInfo (RFC 5958) holding an ECPrivateKey (RFC 5915) on curve c."""
    start, stop = vu._der_expect(der, 0, len(der), 0x30)
    assert stop == len(der)
    vs, ve = vu._der_expect(der, start, stop, 0x02)
    assert vu._der_uint(der, vs, ve) == 0
    alg_s, alg_e = vu._der_expect(der, ve, stop, 0x30)
    assert der[alg_s:alg_e] == vu._OID_EC_PUBLIC_KEY + next(
        oid for oid, name in vu._CURVE_OIDS.items() if name == c.name
    )
    os_, oe = vu._der_expect(der, alg_e, stop, 0x04)
    es, ee = vu._der_expect(der, os_, oe, 0x30)
    vs, ve = vu._der_expect(der, es, ee, 0x02)
    assert vu._der_uint(der, vs, ve) == 1
    ks, ke = vu._der_expect(der, ve, ee, 0x04)
    return int.from_bytes(der[ks:ke], "big")


@pytest.mark.parametrize("file_name,group,test", PARAMS["ecdh-pem"])
def test_ecdh_pem(file_name, group, test):
    assert group["type"] == GROUP_TYPE["ecdh-pem"] and group["encoding"] == "pem"
    c = ref.curve_by_name(group["curve"])
    # The private key is test input, always well formed: a parse failure is a harness bug.
    d = _pkcs8_ec_private(_pem_decode(test["private"], "PRIVATE KEY"), c)
    _run_ecdh("ecdh-pem", file_name, test, c, d,
              lambda: _spki_point(c, _pem_decode(test["public"], "PUBLIC KEY")))


# -- JWK (RFC 7517 / RFC 7518 section 6.2) ------------------------------------------------------

_B64URL_RE = re.compile(r"\A[A-Za-z0-9_-]*\Z")


def _b64url(s, size):
    """Unpadded base64url of exactly `size` bytes, canonical (RFC 7515 2, RFC 7518 6.2.1.2)."""
    if not isinstance(s, str) or not _B64URL_RE.match(s):
        raise ValueError("not unpadded base64url")
    raw = base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != s:
        raise ValueError("non-canonical base64url")
    if len(raw) != size:
        raise ValueError(f"JWK coordinate must be {size} bytes, got {len(raw)}")
    return int.from_bytes(raw, "big")


def _jwk_public(c, jwk):
    if jwk.get("kty") != "EC":
        raise ValueError("JWK kty is not EC")
    if jwk.get("crv") != c.name:
        raise ValueError(f"JWK crv {jwk.get('crv')!r} is not {c.name}")
    x, y = _b64url(jwk.get("x"), c.byte_len), _b64url(jwk.get("y"), c.byte_len)
    if not c.is_on_curve(x, y):
        raise ValueError(f"JWK point is not on {c.name}")
    return x, y


@pytest.mark.parametrize("file_name,group,test", PARAMS["ecdh-webcrypto"])
def test_ecdh_webcrypto(file_name, group, test):
    assert group["type"] == GROUP_TYPE["ecdh-webcrypto"] and group["encoding"] == "webcrypto"
    c = ref.curve_by_name(group["curve"])
    priv = test["private"]  # test input, always well formed
    assert priv["kty"] == "EC" and priv["crv"] == c.name
    d = _b64url(priv["d"], c.byte_len)
    assert _jwk_public(c, priv) == c.scalar_base_mult(d)
    _run_ecdh("ecdh-webcrypto", file_name, test, c, d, lambda: _jwk_public(c, test["public"]))

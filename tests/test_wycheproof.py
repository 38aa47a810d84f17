# SPDX-License-Identifier: Apache-2.0
"""Every Wycheproof ECDSA and ECDH vector (tests/vectors/wycheproof) through every path that
verifies a signature or agrees on a secret: one parametrized test per path and file, whose
failure names every tcId that went wrong.

ECDSA, the secp256r1 files (DER and r||s; SHA-256 and SHA-512), through:

    verify              PublicKey.verify and verify_digest on a plain key
    precomputed         the same on a key after precompute(); low_s=True as on the plain
                        key; verify_many of precomputed keys (they leave the batch engine)
    verify_many:E       verify_many on batch engine E, every vector at every lane position of
                        a block of eight (one thread), then in order on two threads; DER
                        vectors with 32-byte r and s again as r||s
    p256verify          EIP-7951 P256VERIFY, on every vector an input can carry
    p256verify_many:E   those inputs through p256verify_many on engine E, as verify_many:E

ECDH, the secp256r1 files (SPKI, SEC1 point, PEM, JWK): PrivateKey.exchange after the
public parsers, the same with the peer precomputed (window 4 to 8 in turn by tcId: the
constant-time comb over its table), and p256.scalar_mult (given the SEC1 point itself
where the file has one).

The pure-Python reference (p256.reference): every file, all four curves, and the EIP-7951
oracle of test_p256verify on the P256VERIFY inputs. These tests are named test_reference_*
so that a run which varies only the native code leaves them out with
--deselect=tests/test_wycheproof.py::test_reference (tests/quick.txt, make pytest-portable).

`valid` must verify / agree, `invalid` must be rejected; `acceptable` follows the policy
written below (for the binding: ACCEPTABLE_POLICY; for the reference: REFERENCE_POLICY).
A batch engine that does not run here is skipped with the reason. The backend is not a
parameter: make pytest-portable runs this file again with P256_BACKEND=portable.
"""

from __future__ import annotations

import base64
import binascii
import collections
import hashlib
import re

import pytest

import p256
import p256._keys as keys_module
import vectors_util as vu
from p256 import _core
from p256 import reference as ref
from test_batch import at_every_lane, with_engine
from test_p256verify import eip_reference
from vectors_util import (
    VECTORS,
    der_sig_decode,
    eip7951_inputs,
    hash_name,
    load_wycheproof,
    sec1_decode,
    spki_decode,
)

ALL_FILES = sorted(p.name for p in (VECTORS / "wycheproof").glob("*.json"))
P256_ECDSA = [
    "ecdsa_secp256r1_sha256_test.json",
    "ecdsa_secp256r1_sha512_test.json",
    "ecdsa_secp256r1_sha256_p1363_test.json",
    "ecdsa_secp256r1_sha512_p1363_test.json",
]
P256_ECDH = [
    "ecdh_secp256r1_test.json",
    "ecdh_secp256r1_ecpoint_test.json",
    "ecdh_secp256r1_pem_test.json",
    "ecdh_secp256r1_webcrypto_test.json",
]
ENGINES = ["scalar", "avx512-ifma"]  # every engine of the core (test_batch checks the list)
ONE = bytes(31) + b"\x01"


def _failures(bad, what):
    """The assertion message of a path: how many vectors failed and the first of them."""
    return "%d %s wrong: %s%s" % (len(bad), what, "; ".join(bad[:12]), " ..." if len(bad) > 12 else "")


def _engine_path(prefix, engine):
    runs = engine in _core.batch_engines()
    reason = ("the %s batch engine does not run here (this build or CPU lacks it, or it runs "
              "under valgrind): p256._core.batch_engines() = %r" % (engine, _core.batch_engines()))
    return pytest.param("%s:%s" % (prefix, engine), id="%s:%s" % (prefix, engine),
                        marks=() if runs else pytest.mark.skip(reason=reason))


ECDSA_PATHS = (["verify", "precomputed"] + [_engine_path("verify_many", e) for e in ENGINES]
               + ["p256verify"] + [_engine_path("p256verify_many", e) for e in ENGINES])


# ---------------------------------------------------------------------------------------------
# ECDSA through the binding
# ---------------------------------------------------------------------------------------------

Vector = collections.namedtuple("Vector", "tc key sig msg digest hash encoding valid")


def _ecdsa_vectors(file_name):
    """Vector per test: tc "tcId N (comment)", a plain key per group, valid = the verdict."""
    encoding = "raw" if "p1363" in file_name else "der"
    out = []
    for group in load_wycheproof(file_name)["testGroups"]:
        key = p256.PublicKey.from_bytes(bytes.fromhex(group["publicKey"]["uncompressed"]))
        h = hash_name(group["sha"])
        for t in group["tests"]:
            assert t["result"] in ("valid", "invalid")  # these files have no "acceptable" case
            msg = bytes.fromhex(t["msg"])
            out.append(Vector("tcId %d (%s)" % (t["tcId"], t["comment"]), key,
                              bytes.fromhex(t["sig"]), msg, hashlib.new(h, msg).digest(), h,
                              encoding, t["result"] == "valid"))
    return out


def _path_verify(vectors):
    bad = []
    for v in vectors:
        a = v.key.verify(v.sig, v.msg, hash=v.hash, encoding=v.encoding)
        b = v.key.verify_digest(v.sig, v.digest, hash=v.hash, encoding=v.encoding)
        if not (a is b is v.valid):
            bad.append("%s: verify %s, verify_digest %s, want %s" % (v.tc, a, b, v.valid))
    return bad


def _path_precomputed(vectors):
    tables = {}
    bad = []
    for v in vectors:
        pre = tables.get(v.key)
        if pre is None:
            pre = tables[v.key] = p256.PublicKey.from_bytes(v.key.to_bytes()).precompute()
        a = pre.verify(v.sig, v.msg, hash=v.hash, encoding=v.encoding)
        b = pre.verify_digest(v.sig, v.digest, hash=v.hash, encoding=v.encoding)
        c = pre.verify(v.sig, v.msg, hash=v.hash, encoding=v.encoding, low_s=True)
        d = v.key.verify(v.sig, v.msg, hash=v.hash, encoding=v.encoding, low_s=True)
        if not (a is b is v.valid) or c is not d:
            bad.append("%s: verify %s, verify_digest %s, want %s; low_s %s, plain key's %s"
                       % (v.tc, a, b, v.valid, c, d))
    h, encoding = vectors[0].hash, vectors[0].encoding
    got = p256.verify_many([(tables[v.key], v.sig, v.msg) for v in vectors], hash=h,
                           encoding=encoding)
    bad += ["%s: verify_many %s" % (v.tc, g) for v, g in zip(vectors, got) if g is not v.valid]
    return bad


def test_precomputed_path_notices_a_wrong_table(monkeypatch):
    """Negative control: tables built for the wrong point (here -Q, as if a sign were lost
    in the build) make the precomputed path fail."""
    real = keys_module._build_table

    def negated(key, bits):
        sec1 = key.to_bytes()
        y = (-int.from_bytes(sec1[33:], "big")) % ref.P256.p
        return real(p256.PublicKey.from_bytes(sec1[:33] + y.to_bytes(32, "big")), bits)

    monkeypatch.setattr(keys_module, "_build_table", negated)
    assert len(_path_precomputed(_ecdsa_vectors(P256_ECDSA[2]))) > 100


def _batch_cases(vectors):
    """{(hash, encoding): [(tc, (key, sig, msg), expected)]}: the file's vectors, and the DER
    ones that decode to 32-byte r and s again as r||s (a well-formed signature that reaches
    the engine; strict DER, so the verdict is the vector's)."""
    out = collections.defaultdict(list)
    for v in vectors:
        out[v.hash, v.encoding].append((v.tc, (v.key, v.sig, v.msg), v.valid))
        rs = der_sig_decode(v.sig) if v.encoding == "der" else None
        if rs is not None and max(rs) < 2**256:
            raw = rs[0].to_bytes(32, "big") + rs[1].to_bytes(32, "big")
            out[v.hash, "raw"].append((v.tc + " as r||s", (v.key, raw, v.msg), v.valid))
    return out


def _every_lane_then_two_threads(engine, cases, run):
    """run(inputs, threads) on `engine`: the cases at every lane of a block of eight on one
    thread (whole claims: blocks of eight stay blocks of eight in the engine's call), then
    in order on two threads. The failures, with their lane."""
    bad = []
    for rotation in at_every_lane(cases):
        got = with_engine(engine, lambda: run([c[1] for c in rotation], 1))
        bad += ["%s at lane %d: got %r" % (c[0], i % 8, g)
                for i, (c, g) in enumerate(zip(rotation, got)) if g != c[2]]
    got = with_engine(engine, lambda: run([c[1] for c in cases], 2))
    bad += ["%s on two threads: got %r" % (c[0], g) for c, g in zip(cases, got) if g != c[2]]
    return bad


def _path_verify_many(engine, vectors):
    bad = []
    for (h, encoding), cases in sorted(_batch_cases(vectors).items()):
        bad += _every_lane_then_two_threads(engine, cases, lambda items, threads: p256.verify_many(
            items, hash=h, encoding=encoding, threads=threads))
    return bad


def _eip_cases(file_name):
    return [("tcId %d (%s)" % (tc, comment), data, expected)
            for tc, comment, data, expected in eip7951_inputs(file_name)]


def _path_p256verify(file_name):
    return ["%s: got %r" % (tc, got) for tc, data, expected in _eip_cases(file_name)
            for got in [p256.p256verify(data)] if got != expected]


def _path_p256verify_many(engine, file_name):
    return _every_lane_then_two_threads(engine, _eip_cases(file_name), lambda inputs, threads:
                                        p256.p256verify_many(inputs, threads=threads))


@pytest.mark.parametrize("file_name", P256_ECDSA)
@pytest.mark.parametrize("path", ECDSA_PATHS)
def test_ecdsa(path, file_name):
    if path == "verify":
        bad = _path_verify(_ecdsa_vectors(file_name))
    elif path == "precomputed":
        bad = _path_precomputed(_ecdsa_vectors(file_name))
    elif path.startswith("verify_many:"):
        bad = _path_verify_many(path.split(":")[1], _ecdsa_vectors(file_name))
    elif path == "p256verify":
        bad = _path_p256verify(file_name)
    else:
        bad = _path_p256verify_many(path.split(":")[1], file_name)
    assert not bad, _failures(bad, "vectors")


def test_derived_cases_cover_the_files():
    """What the batch and P256VERIFY paths add or leave out: the batch paths give most DER
    vectors again as r||s; P256VERIFY leaves out only what no input can carry (r||s of
    another length, malformed DER, integers >= 2^256). Each has valid and invalid cases."""
    for name in P256_ECDSA:
        total = load_wycheproof(name)["numberOfTests"]
        inputs = eip7951_inputs(name)
        assert 0.5 * total < len(inputs) <= total, name
        assert {expected for _, _, _, expected in inputs} == {ONE, b""}, name
        cases = _batch_cases(_ecdsa_vectors(name))
        assert sum(map(len, cases.values())) == total + (len(inputs) if "p1363" not in name else 0)
        assert {want for c in cases.values() for _, _, want in c} == {True, False}, name


@pytest.mark.parametrize("file_name", P256_ECDSA)
def test_group_keys_load_through_every_parser(file_name):
    """Every ECDSA group's key, in each encoding the file gives, loads through the public
    parsers as the same key; what we write is what the file has (the SPKI helper of
    vectors_util agrees too)."""
    for group in load_wycheproof(file_name)["testGroups"]:
        pk = p256.PublicKey.from_bytes(bytes.fromhex(group["publicKey"]["uncompressed"]))
        der = bytes.fromhex(group["publicKeyDer"])
        assert p256.PublicKey.from_der(der) == pk
        assert p256.PublicKey.from_pem(group["publicKeyPem"]) == pk
        assert pk.to_der() == der and pk.to_pem().decode() == group["publicKeyPem"]
        if "publicKeyJwk" in group:  # carries a "kid", which is ignored
            assert p256.PublicKey.from_jwk(group["publicKeyJwk"]) == pk
        curve, point = spki_decode(der)
        assert curve == "P-256" and p256.PublicKey.from_bytes(point) == pk


# ---------------------------------------------------------------------------------------------
# ECDH through the binding
# ---------------------------------------------------------------------------------------------

# What we do with Wycheproof's "acceptable" cases, by flag: compressed points are valid
# SEC1 and are accepted; keys that are not a strict-DER SPKI with the P-256 named curve
# (explicit or modified parameters, BER/mangled PEM contents) are rejected.
ACCEPTABLE_POLICY = {
    "CompressedPublic": "agree",
    "CompressedPoint": "agree",
    "UnnamedCurve": "rejected",
    "UnusedParam": "rejected",
    "InvalidPem": "rejected",
    "InvalidAsn": "rejected",
}

# The files' keys go through the public parsers: public keys as SPKI DER ("asn"), PEM
# ("pem"), JWK ("webcrypto") or a SEC1 point ("ecpoint"); private keys as PKCS#8 PEM, JWK or
# a hex integer (some with a leading 00, some shorter than 32 bytes).
_PUBLIC_PARSERS = {
    "asn": lambda v: p256.PublicKey.from_der(bytes.fromhex(v)),
    "pem": p256.PublicKey.from_pem,
    "webcrypto": p256.PublicKey.from_jwk,
    "ecpoint": lambda v: p256.PublicKey.from_bytes(bytes.fromhex(v)),
}
_PRIVATE_PARSERS = {
    "asn": lambda v: p256.PrivateKey.from_int(int(v, 16)),
    "pem": p256.PrivateKey.from_pem,
    "webcrypto": p256.PrivateKey.from_jwk,
    "ecpoint": lambda v: p256.PrivateKey.from_int(int(v, 16)),
}


def _exchange(encoding, test):
    pk = _PUBLIC_PARSERS[encoding](test["public"])
    return _PRIVATE_PARSERS[encoding](test["private"]).exchange(pk)


def _exchange_precomputed(encoding, test):
    pk = _PUBLIC_PARSERS[encoding](test["public"]).precompute(window=4 + test["tcId"] % 5)
    return _PRIVATE_PARSERS[encoding](test["private"]).exchange(pk)


def _scalar_mult(encoding, test):
    """x(d*Q) from p256.scalar_mult: the file's SEC1 point itself where it has one (the
    low-level entry validates it), else the point the parser gives."""
    d = _PRIVATE_PARSERS[encoding](test["private"]).to_bytes()
    if encoding == "ecpoint":
        point = bytes.fromhex(test["public"])
    else:
        point = _PUBLIC_PARSERS[encoding](test["public"]).to_bytes()
    return p256.scalar_mult(d, point)[1:33]


ECDH_PATHS = {"exchange": _exchange, "exchange_precomputed": _exchange_precomputed,
              "scalar_mult": _scalar_mult}


def test_exchange_precomputed_path_notices_a_wrong_table(monkeypatch):
    """Negative control: tables built for 2Q instead of Q give other shared secrets on the
    file's valid vectors (a lost sign would not show: x(-dQ) = x(dQ))."""
    real = keys_module._build_table

    def doubled(key, bits):
        two = (2).to_bytes(32, "big")
        return real(p256.PublicKey.from_bytes(p256.scalar_mult(two, key.to_bytes())), bits)

    monkeypatch.setattr(keys_module, "_build_table", doubled)
    wrong = valid = 0
    for group in load_wycheproof(P256_ECDH[0])["testGroups"]:
        for test in group["tests"]:
            if test["result"] == "valid":
                valid += 1
                wrong += _exchange_precomputed(group["encoding"], test).hex() != test["shared"]
    assert valid > 50 and wrong == valid


@pytest.mark.parametrize("file_name", P256_ECDH)
@pytest.mark.parametrize("path", sorted(ECDH_PATHS))
def test_ecdh(path, file_name, record_property):
    agree = ECDH_PATHS[path]
    bad, acceptable = [], collections.Counter()
    for group in load_wycheproof(file_name)["testGroups"]:
        for test in group["tests"]:
            # Every private key in these files is valid and must load; the public key is
            # where the files put their traps, and only its parser (or scalar_mult's
            # check of the point) may reject, with ValueError.
            try:
                shared = agree(group["encoding"], test)
            except ValueError as exc:
                outcome, reason = "rejected", str(exc)
            else:
                outcome = "agree" if shared.hex() == test["shared"] else "WRONG RESULT"
                reason = ""
            if test["result"] == "valid":
                want = "agree"
            elif test["result"] == "invalid":
                want = "rejected"
            else:
                policies = {ACCEPTABLE_POLICY[f] for f in test["flags"] if f in ACCEPTABLE_POLICY}
                assert len(policies) == 1, "no single policy for flags %s" % test["flags"]
                want = policies.pop()
                acceptable["%s: %s" % ("/".join(test["flags"]), outcome)] += 1
            if outcome != want:
                bad.append("tcId %d (%s, %s): %s %s, want %s" % (
                    test["tcId"], test["comment"], test["result"], outcome, reason, want))
    record_property("acceptable", dict(acceptable))
    assert not bad, _failures(bad, "vectors")


# ---------------------------------------------------------------------------------------------
# The pure-Python reference: every file, every curve
# ---------------------------------------------------------------------------------------------

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


ECC_FILES = [f for f in ALL_FILES if f.startswith(("ecdsa_", "ecdh_"))]

# The reference's policy for `acceptable` cases: compressed public points (flags
# CompressedPublic / CompressedPoint) are accepted, and the shared secret must then be the
# expected one; BER / non-DER / otherwise malformed ASN.1 or PEM (InvalidAsn, InvalidPem) and
# explicit curve parameters (UnnamedCurve) are rejected. An acceptable case whose flags match
# no rule fails, so a new kind of acceptable vector needs an explicit decision here.
ACCEPT_FLAGS = {"CompressedPublic", "CompressedPoint"}
REJECT_FLAGS = {"InvalidAsn", "InvalidPem", "UnnamedCurve"}
REFERENCE_POLICY = ("accept compressed points; reject non-DER/BER ASN.1, malformed PEM and "
                    "explicit curve parameters")

# (kind, result, outcome) -> count; (file, flags, outcome) -> count for acceptable cases;
# printed at the end of the run.
RECORD = collections.Counter()
ACCEPTABLE = collections.Counter()


def _judge(kind, file_name, test, accepted, detail=""):
    """None if the reference's verdict is the vector's (recorded), else what went wrong."""
    result = test["result"]
    where = "tcId %d (%r, flags %s)" % (test["tcId"], test["comment"], test["flags"])
    outcome = "accepted" if accepted else "rejected"
    if result == "valid":
        if not accepted:
            return "valid case rejected: %s %s" % (where, detail)
    elif result == "invalid":
        if accepted:
            return "invalid case accepted: %s" % where
    elif result == "acceptable":
        flags = set(test["flags"])
        if not flags & (ACCEPT_FLAGS | REJECT_FLAGS):
            return "no policy for an acceptable case with flags %s: %s" % (sorted(flags), where)
        if accepted != (not flags & REJECT_FLAGS):
            return "acceptable case went against the policy (%s): %s -> %s %s" % (
                REFERENCE_POLICY, where, outcome, detail)
        ACCEPTABLE[(file_name, tuple(test["flags"]), outcome)] += 1
    else:
        return "unknown result %r in %s" % (result, where)
    RECORD[(kind, result, outcome)] += 1
    return None


class _SummaryPlugin:
    """Prints the record in pytest's terminal summary (output during tests is captured)."""

    def pytest_terminal_summary(self, terminalreporter):
        if not RECORD:
            return
        terminalreporter.write_sep("-", "reference vs Wycheproof")
        terminalreporter.write_line("passed cases by outcome (acceptable policy: %s)" % REFERENCE_POLICY)
        for kind in sorted({k for k, _, _ in RECORD}):
            parts = ["%s %s %d" % (res, out, cnt) for (k, res, out), cnt in sorted(RECORD.items())
                     if k == kind]
            terminalreporter.write_line("  %-15s %s" % (kind, ", ".join(parts)))
        for (file_name, flags, outcome), cnt in sorted(ACCEPTABLE.items()):
            terminalreporter.write_line("  acceptable %s %s: %s x%d"
                                        % (file_name, "+".join(flags), outcome, cnt))


@pytest.fixture(scope="module", autouse=True)
def _report(request):
    pm = request.config.pluginmanager
    if pm.get_plugin("reference-wycheproof-summary") is None:
        pm.register(_SummaryPlugin(), "reference-wycheproof-summary")
    yield


def test_every_vector_file_is_run():
    """Every ECDSA/ECDH file has a kind (the reference runs it) and its stated number of
    tests; the secp256r1 ones are the binding's; every curve is there."""
    assert ECC_FILES, "no vectors found under %s" % VECTORS
    unclassified = [f for f in ECC_FILES if _kind_of(f) is None]
    assert not unclassified, "files no test runs: %s" % unclassified
    for f in ECC_FILES:
        data = load_wycheproof(f)
        assert sum(len(g["tests"]) for g in data["testGroups"]) == data["numberOfTests"], f
    assert sorted(P256_ECDSA + P256_ECDH) == [f for f in ECC_FILES if "secp256r1" in f]
    for curve in ("secp224r1", "secp256r1", "secp384r1", "secp521r1"):
        assert any(curve in f and _kind_of(f) == "ecdsa-der" for f in ECC_FILES), curve
        assert any(curve in f and _kind_of(f) == "ecdh-asn" for f in ECC_FILES), curve


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


def _reference_ecdsa(kind, group, test):
    c, Q = _ecdsa_group_key(group)
    digest = hashlib.new(hash_name(group["sha"]), bytes.fromhex(test["msg"])).digest()
    sig = bytes.fromhex(test["sig"])
    if kind == "ecdsa-der":
        rs = der_sig_decode(sig)
    else:
        size = (c.n.bit_length() + 7) // 8
        rs = None
        if len(sig) == 2 * size:
            rs = int.from_bytes(sig[:size], "big"), int.from_bytes(sig[size:], "big")
    return rs is not None and ref.ecdsa_verify(c, Q, digest, *rs), ""


def _spki_point(c, der):
    name, point = spki_decode(der)
    if name != c.name:
        raise ValueError("public key is on %s, not %s" % (name, c.name))
    return sec1_decode(c, point)


# -- PEM (RFC 7468 strict textual encoding) -------------------------------------------------------

_PEM_RE = re.compile(
    r"\A-----BEGIN (?P<label>[A-Z ]+)-----\n(?P<body>(?:[A-Za-z0-9+/=]+\n)+)-----END (?P=label)-----\n?\Z"
)


def _pem_decode(text, label):
    m = _PEM_RE.match(text)
    if not m or m.group("label") != label:
        raise ValueError("not a strict PEM %s" % label)
    try:
        return base64.b64decode("".join(m.group("body").split()), validate=True)
    except binascii.Error as exc:
        raise ValueError("bad base64 in PEM: %s" % exc) from None


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
        raise ValueError("JWK coordinate must be %d bytes, got %d" % (size, len(raw)))
    return int.from_bytes(raw, "big")


def _jwk_public(c, jwk):
    if jwk.get("kty") != "EC":
        raise ValueError("JWK kty is not EC")
    if jwk.get("crv") != c.name:
        raise ValueError("JWK crv %r is not %s" % (jwk.get("crv"), c.name))
    x, y = _b64url(jwk.get("x"), c.byte_len), _b64url(jwk.get("y"), c.byte_len)
    if not c.is_on_curve(x, y):
        raise ValueError("JWK point is not on %s" % c.name)
    return x, y


def _reference_ecdh_keys(kind, c, test):
    """(d, decode_public) of an ECDH test; the private key is test input, always well formed
    (a parse failure is a harness bug), the public key may be a trap (ValueError)."""
    if kind == "ecdh-asn":
        return int(test["private"], 16), lambda: _spki_point(c, bytes.fromhex(test["public"]))
    if kind == "ecdh-ecpoint":
        return int(test["private"], 16), lambda: sec1_decode(c, bytes.fromhex(test["public"]))
    if kind == "ecdh-pem":
        d = _pkcs8_ec_private(_pem_decode(test["private"], "PRIVATE KEY"), c)
        return d, lambda: _spki_point(c, _pem_decode(test["public"], "PUBLIC KEY"))
    priv = test["private"]
    assert priv["kty"] == "EC" and priv["crv"] == c.name
    d = _b64url(priv["d"], c.byte_len)
    assert _jwk_public(c, priv) == c.scalar_base_mult(d)
    return d, lambda: _jwk_public(c, test["public"])


def _reference_ecdh(kind, group, test):
    """(accepted, detail, shared secret or None)."""
    assert group["encoding"] == kind.split("-")[1]
    c = ref.curve_by_name(group["curve"])
    d, decode_public = _reference_ecdh_keys(kind, c, test)
    try:
        return True, "", ref.ecdh(c, d, decode_public())
    except ValueError as exc:
        return False, "(%s)" % exc, None


@pytest.mark.parametrize("file_name", ECC_FILES)
def test_reference(file_name):
    kind = _kind_of(file_name)
    bad = []
    for group in load_wycheproof(file_name)["testGroups"]:
        assert group["type"] == GROUP_TYPE[kind]
        for test in group["tests"]:
            if kind.startswith("ecdsa"):
                accepted, detail = _reference_ecdsa(kind, group, test)
            else:
                accepted, detail, shared = _reference_ecdh(kind, group, test)
                if accepted and test["result"] != "invalid" and shared.hex() != test["shared"]:
                    bad.append("tcId %d: wrong shared secret" % test["tcId"])
                    continue
            wrong = _judge(kind, file_name, test, accepted, detail)
            if wrong:
                bad.append(wrong)
    assert not bad, _failures(bad, "vectors")


@pytest.mark.parametrize("file_name", P256_ECDSA)
def test_reference_eip7951(file_name):
    """test_p256verify's oracle, written from the EIP's text over p256.reference, gives each
    P256VERIFY input's expected output (its differential test trusts it)."""
    bad = ["%s: got %r" % (tc, got) for tc, data, expected in _eip_cases(file_name)
           for got in [eip_reference(data)] if got != expected]
    assert not bad, _failures(bad, "inputs")

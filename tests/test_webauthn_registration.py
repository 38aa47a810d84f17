# SPDX-License-Identifier: Apache-2.0
"""WebAuthn registration (p256.webauthn.verify_registration, WebAuthn Level 3 7.1) against
py_webauthn's verdicts on its own registration fixtures (read from its pinned sdist:
tests/webauthn_fixtures.py) and on registrations made by soft-webauthn's software
authenticator, untouched and tampered; attestation statements none, packed (self and
x5c, with WebAuthn 8.2.1's certificate requirements) and fido-u2f built here with
pyca/cryptography certificates; each refusal names its step.

py_webauthn runs in a venv of its own (its pyOpenSSL caps cryptography below the newest,
which this venv keeps): tests/py_webauthn_oracle.py, made once by tools/third_party.py.
Where pip cannot reach the index to make it, the comparisons with it are skipped (after
p256's own checks ran), and fail with P256_STRICT=1 (CI)."""

from __future__ import annotations

import ast
import base64
import datetime
import hashlib
import importlib
import json
import os
import pathlib
import sys

import cbor2
import pytest

import p256
from p256 import _cose, webauthn

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests"))
import py_webauthn_oracle  # noqa: E402
import third_party  # noqa: E402
import webauthn_fixtures  # noqa: E402

from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, rsa  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402

RP_ID, ORIGIN = "example.org", "https://example.org"
CHALLENGE = bytes(range(32))
AAGUID = bytes.fromhex("f8a011f38c0a4d15800617111f9edc7d")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def register(att: bytes, client: bytes, **changes):
    args = dict(rp_id=RP_ID, origin=ORIGIN, challenge=CHALLENGE, require_user_verification=False)
    args.update(changes)
    return webauthn.verify_registration(att, client, **args)


def outcome(att: bytes, client: bytes, **changes) -> str:
    """"accept" or the step of the refusal."""
    try:
        register(att, client, **changes)
    except webauthn.RegistrationRejected as exc:
        return exc.step
    return "accept"


# -- py_webauthn, in its own process ------------------------------------------------------------

_ORACLE: dict = {}  # "oracle": the running Oracle, or "unavailable": why it cannot run


def py_webauthn() -> py_webauthn_oracle.Oracle:
    """py_webauthn's process (its venv made the first time). Without a network to make
    the venv: skipped, or failed with P256_STRICT=1."""
    if "oracle" not in _ORACLE and "unavailable" not in _ORACLE:
        try:
            python = third_party.venv("webauthn")
        except third_party.Offline as exc:
            _ORACLE["unavailable"] = "py_webauthn's venv cannot be made offline: %s" % exc
        else:
            _ORACLE["oracle"] = py_webauthn_oracle.Oracle(python)
            assert _ORACLE["oracle"].versions["webauthn"] == third_party.PINS["webauthn"][0]
    if "unavailable" in _ORACLE:
        if os.environ.get("P256_STRICT") == "1":
            pytest.fail(_ORACLE["unavailable"] + " (P256_STRICT=1)", pytrace=False)
        pytest.skip(_ORACLE["unavailable"])
    return _ORACLE["oracle"]


@pytest.fixture(scope="module", autouse=True)
def _close_py_webauthn():
    yield
    oracle = _ORACLE.pop("oracle", None)
    if oracle is not None:
        oracle.close()


def _offline_pip(monkeypatch, tmp_path) -> None:
    """pip as on a machine without a network: its only index refuses connections (nothing
    listens on the loopback's port 9), no configuration file, no other package source."""
    for name in [n for n in os.environ if n.startswith("PIP_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_RETRIES", "1")
    monkeypatch.setenv("P256_CACHE", str(tmp_path))


def test_py_webauthn_offline_is_skipped_and_fails_when_strict(monkeypatch, tmp_path):
    """Without a network, py_webauthn's venv cannot be made: third_party.venv says Offline
    (and leaves no half-made venv), and the comparisons are skipped, or fail with
    P256_STRICT=1; a pip failure of another kind (no such release) is an error."""
    _offline_pip(monkeypatch, tmp_path)
    with pytest.raises(third_party.Offline) as info:
        third_party.venv("webauthn")
    assert not third_party.venv_dir("webauthn").exists()
    offline = info.value

    def refused(name):
        raise offline
    monkeypatch.setattr(third_party, "venv", refused)
    for strict, outcome_of_test in (("0", pytest.skip.Exception), ("1", pytest.fail.Exception)):
        monkeypatch.setenv("P256_STRICT", strict)
        monkeypatch.setitem(globals(), "_ORACLE", {})
        with pytest.raises(outcome_of_test, match="py_webauthn's venv cannot be made offline"):
            py_webauthn()
    monkeypatch.undo()
    _offline_pip(monkeypatch, tmp_path)
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # reachable, but holds nothing: not Offline
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    with pytest.raises(RuntimeError) as info:
        third_party.venv("webauthn")
    assert not isinstance(info.value, third_party.Offline), info.value


def py_arguments(att: bytes, client: bytes, rp_id=RP_ID, origin=ORIGIN, challenge=CHALLENGE,
                 require_user_verification=False) -> dict:
    """The arguments of py_webauthn's verify_registration_response for the registration
    register(att, client, ...) verifies (the same four expectations; no others)."""
    credential = {"id": "AA", "rawId": "AA", "type": "public-key",
                  "response": {"attestationObject": b64(att), "clientDataJSON": b64(client)}}
    return dict(credential=credential, expected_challenge=challenge, expected_origin=origin,
                expected_rp_id=rp_id, require_user_verification=require_user_verification)


def disagreements(rows, differ=()) -> list:
    """rows: (label, attestation object, client data, changes of register's arguments).
    p256's verdict (outcome) beside py_webauthn's on each, in one request; the labels in
    differ are the documented differences, where py_webauthn accepts what p256 refuses.
    Returns what disagrees (each documented difference that no longer differs, too)."""
    mine = [outcome(att, client, **changes) for _, att, client, changes in rows]
    theirs = py_webauthn().verdicts([py_arguments(att, client, **changes)
                                     for _, att, client, changes in rows])
    found = []
    for (label, _, _, _), p, py in zip(rows, mine, theirs):
        documented = label in differ
        if (p == "accept") != (py["verdict"] == "accept") and not (
                documented and p != "accept" and py["verdict"] == "accept"):
            found.append("%s: p256 %s, py_webauthn %s (%s)" % (label, p, py["verdict"],
                                                               py["error"]))
        elif documented and (p == "accept") == (py["verdict"] == "accept"):
            found.append("%s: a documented difference, yet both %s" % (label, p))
    return found


# -- py_webauthn's own registration fixtures ----------------------------------------------------

FIXTURE_DIR = third_party.sdist("webauthn") / "tests"
CASES = webauthn_fixtures.cases(FIXTURE_DIR)


def _key_of(case) -> str:
    """The credential key's COSE (kty, crv, alg) as text, or why it has none."""
    try:
        obj = cbor2.loads(webauthn_fixtures.b64url(case.credential["response"]["attestationObject"]))
        auth = obj["authData"]
        length = int.from_bytes(auth[53:55], "big")
        key = cbor2.loads(auth[55 + length:])
        return "kty %s crv %s alg %s" % (key.get(1), key.get(-1) if key.get(1) == 2 else "-",
                                          key.get(3))
    except Exception as exc:  # noqa: BLE001  (a fixture that is malformed on purpose)
        return "unreadable (%s)" % type(exc).__name__


def fixture_verdict(case):
    """(py_webauthn's asserted verdict, p256's outcome, p256's attestation type)."""
    kw = case.kwargs
    response = case.credential["response"]
    att = webauthn_fixtures.b64url(response["attestationObject"])
    client = webauthn_fixtures.b64url(response["clientDataJSON"])
    args = dict(rp_id=kw["expected_rp_id"], origin=kw["expected_origin"],
                challenge=kw["expected_challenge"],
                require_user_verification=kw.get("require_user_verification", False))
    try:
        reg = webauthn.verify_registration(att, client, **args)
    except webauthn.RegistrationRejected as exc:
        return ("accept" if case.accepts else "reject"), "reject at " + exc.step, None
    return ("accept" if case.accepts else "reject"), "accept", reg


def test_fixtures_were_found():
    """The extraction reads every registration test of py_webauthn: a change of its files
    that hid them would fail here, not silently compare nothing."""
    compared = [c for c in CASES if not c.excluded]
    assert len(CASES) >= 25 and len(compared) >= 18
    assert {c.name.split("::")[0] for c in compared} >= {
        "test_verify_registration_response.py", "test_verify_registration_response_packed.py",
        "test_verify_registration_response_fido_u2f.py", "test_verify_registration_response_tpm.py"}


_LIVE: dict = {}  # fixture name -> py_webauthn's verdict now, asked once for all of them


def live_verdict(case) -> str:
    """py_webauthn's verdict on the fixture, run now (not a fixture whose test fixes the
    X.509 validation time: its chains have expired since)."""
    assert not case.time_patched, case.name
    if not _LIVE:
        asked = [c for c in CASES if not c.excluded and not c.time_patched]
        answers = py_webauthn().verdicts([dict(c.kwargs, credential=c.credential) for c in asked])
        _LIVE.update((c.name, a["verdict"]) for c, a in zip(asked, answers))
    return _LIVE[case.name]


@pytest.mark.parametrize("case", [c for c in CASES if not c.excluded], ids=lambda c: c.name)
def test_py_webauthn_fixture(case):
    """P-256 ES256 credentials: p256's verdict is py_webauthn's. Other credential keys
    (RS256, EdDSA, ML-DSA) are refused at step "alg", by design. py_webauthn, run now,
    says what its test asserts."""
    want, got, reg = fixture_verdict(case)
    if not _key_of(case).startswith("kty 2 crv 1 alg -7"):
        if want == "accept":
            assert got == "reject at alg", (case.name, _key_of(case), got)
    else:
        assert got.split(" at ")[0] == want, (case.name, got)
    if reg is not None:
        fmt = cbor2.loads(webauthn_fixtures.b64url(
            case.credential["response"]["attestationObject"]))["fmt"]
        assert reg.attestation_format == fmt
        assert reg.attestation_type == {"none": "none", "packed": "x5c", "fido-u2f": "x5c"}.get(
            fmt, "unverified"), (case.name, reg.attestation_type)
        assert reg.credential_id == webauthn_fixtures.b64url(case.credential["rawId"])
    if not case.time_patched:  # last: p256's checks above ran even where py_webauthn cannot
        assert live_verdict(case) == want, case.name


def test_excluded_fixtures_are_named():
    """Each fixture left out of the comparison has its reason (the report lists them)."""
    excluded = {c.name: c.excluded for c in CASES if c.excluded}
    assert all(excluded.values()) and len(excluded) <= 8, excluded


def _literal(function: str, name: str):
    tree = ast.parse((FIXTURE_DIR / "test_verify_registration_response.py").read_text())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    node = next(n for n in ast.walk(fn) if isinstance(n, ast.Assign)
                and getattr(n.targets[0], "id", None) == name)
    return ast.literal_eval(node.value)


NONE_CASE = next(c for c in CASES if c.name.endswith("::test_verifies_none_attestation_response"))


def test_py_webauthn_bad_attestation_objects():
    """py_webauthn's test_raises_useful_error_on_bad_attestation_object: every value it
    refuses as attestationObject, p256 refuses at step attestationObject."""
    values = _literal("test_raises_useful_error_on_bad_attestation_object", "bad_values")
    assert len(values) >= 8
    kw = NONE_CASE.kwargs
    client = webauthn_fixtures.b64url(NONE_CASE.credential["response"]["clientDataJSON"])
    for value in values:
        with pytest.raises(webauthn.RegistrationRejected) as info:
            webauthn.verify_registration(
                webauthn_fixtures.b64url(value), client, rp_id=kw["expected_rp_id"],
                origin=kw["expected_origin"], challenge=kw["expected_challenge"],
                require_user_verification=False)
        assert info.value.step == "attestationObject", value


def test_py_webauthn_bad_formats():
    """py_webauthn's test_raises_exception_on_invalid_attestation_type: fmt "not_real_fmt",
    0 and ["none"] are refused (an unknown format; not a text string)."""
    cases = _literal("test_raises_exception_on_invalid_attestation_type", "cases")
    response = NONE_CASE.credential["response"]
    obj = cbor2.loads(webauthn_fixtures.b64url(response["attestationObject"]))
    kw = NONE_CASE.kwargs
    steps = []
    for fmt, _ in cases:
        obj["fmt"] = fmt
        with pytest.raises(webauthn.RegistrationRejected) as info:
            webauthn.verify_registration(
                cbor2.dumps(obj, canonical=True), webauthn_fixtures.b64url(response["clientDataJSON"]),
                rp_id=kw["expected_rp_id"], origin=kw["expected_origin"],
                challenge=kw["expected_challenge"], require_user_verification=False)
        steps.append(info.value.step)
    assert steps == ["fmt", "attestationObject", "attestationObject"]


def test_fixture_comparison_catches_a_lax_client_data_reader(monkeypatch):
    """Negative control: a client data reader that ignores tokenBinding accepts the
    fixture py_webauthn refuses for its status "not-supported" (its test asserts it, and
    py_webauthn run now says it)."""
    case = next(c for c in CASES if c.name.endswith("unsupported_token_binding_status"))
    assert fixture_verdict(case)[:2] == ("reject", "reject at tokenBinding")
    real = webauthn._client_data_steps

    def lax(raw, ceremony, expect):
        data = json.loads(raw)
        data.pop("tokenBinding", None)
        return real(json.dumps(data).encode(), ceremony, expect)

    monkeypatch.setattr(webauthn, "_client_data_steps", lax)
    assert fixture_verdict(case)[:2] == ("reject", "accept")
    assert live_verdict(case) == "reject"


def test_unverified_format_and_required_attestation():
    """A P-256 credential with tpm attestation (py_webauthn's fixture) is registered with
    attestation type "unverified"; asked for verified attestation, p256 raises
    UnsupportedAttestation, which carries the registration."""
    case = next(c for c in CASES if c.name.endswith("test_verify_tpm_with_ecc_public_area_type"))
    want, got, reg = fixture_verdict(case)
    assert (want, got, reg.attestation_type) == ("accept", "accept", "unverified")
    kw = case.kwargs
    response = case.credential["response"]
    with pytest.raises(webauthn.UnsupportedAttestation) as info:
        webauthn.verify_registration(
            webauthn_fixtures.b64url(response["attestationObject"]),
            webauthn_fixtures.b64url(response["clientDataJSON"]), rp_id=kw["expected_rp_id"],
            origin=kw["expected_origin"], challenge=kw["expected_challenge"],
            require_user_verification=False, require_verified_attestation=True)
    assert info.value.step == "attestation" and "tpm" in str(info.value)
    assert info.value.registration == reg


# -- soft-webauthn's software authenticator -----------------------------------------------------


def soft_device():
    """soft-webauthn's SoftWebauthnDevice, from its pinned sdist (its metadata pins
    fido2 < 2, whose cryptography < 45 the test extra cannot have; the module itself
    runs on the fido2 2 of the test extra)."""
    path = str(third_party.sdist("soft-webauthn"))
    if path not in sys.path:
        sys.path.insert(0, path)
    return importlib.import_module("soft_webauthn").SoftWebauthnDevice()


def soft_registration(device=None):
    device = device or soft_device()
    options = {"publicKey": {"challenge": CHALLENGE, "rp": {"id": RP_ID, "name": "Example"},
                             "user": {"id": b"user-1", "name": "user"},
                             "pubKeyCredParams": [{"alg": -7, "type": "public-key"}]}}
    made = device.create(options, ORIGIN)
    return device, made["response"]["attestationObject"], made["response"]["clientDataJSON"]


def test_soft_webauthn_registration_then_assertion():
    device, att, client = soft_registration()
    reg = register(att, client, transports=["usb"])
    assert reg.credential_id == device.credential_id
    assert reg.public_key == p256.PublicKey.from_cryptography(device.private_key.public_key())
    assert (reg.attestation_format, reg.attestation_type, reg.trust_path) == ("none", "none", ())
    assert (reg.sign_count, reg.aaguid, reg.transports) == (0, bytes(16), ("usb",))
    assert not (reg.user_verified or reg.backup_eligible or reg.backed_up)
    # what the relying party stores, and the next sign-in
    stored = reg.credential_public_key
    challenge = b"\x07" * 32
    got = device.get({"publicKey": {"challenge": challenge, "rpId": RP_ID}}, ORIGIN)["response"]
    count = webauthn.verify_assertion(
        p256.PublicKey.from_cose(stored), got["authenticatorData"], got["clientDataJSON"],
        got["signature"], rp_id=RP_ID, origin=ORIGIN, challenge=challenge,
        require_user_verification=False, sign_count=reg.sign_count)
    assert count == 1
    assert disagreements([("soft-webauthn, none", att, client, {})]) == []


def _rewrite(att: bytes, flags_and=0xFF, flags_or=0, fmt=None, statement=None) -> bytes:
    obj = cbor2.loads(att)
    auth = bytearray(obj["authData"])
    auth[32] = (auth[32] & flags_and) | flags_or
    obj["authData"] = bytes(auth)
    if fmt is not None:
        obj["fmt"], obj["attStmt"] = fmt, statement
    return cbor2.dumps(obj, canonical=True)


def _client(client: bytes, **changes) -> bytes:
    data = json.loads(client)
    data.update(changes)
    return json.dumps(data).encode()


def test_soft_webauthn_tampered():
    """Each tampered registration is refused at its step, and py_webauthn refuses it too
    (given the same expectations: user verification required for UV)."""
    _, att, client = soft_registration()
    cases = {
        "type": (att, _client(client, type="webauthn.get"), {}),
        "challenge": (att, client, {"challenge": b"\x00" * 32}),
        "origin": (att, _client(client, origin="https://evil.example"), {}),
        "rpIdHash": (att, client, {"rp_id": "evil.example"}),
        "UP": (_rewrite(att, flags_and=~0x01), client, {}),
        "UV": (att, client, {"require_user_verification": True}),
        "BS": (_rewrite(att, flags_or=0x10), client, {}),
        "authenticatorData": (_rewrite(att, flags_and=~0x40), client, {}),
    }
    for step, (a, c, changes) in cases.items():
        assert outcome(a, c, **changes) == step, step
    rows = [("untouched", att, client, {})] + [(step, a, c, changes)
                                               for step, (a, c, changes) in cases.items()]
    assert disagreements(rows) == []


def test_comparison_catches_a_verifier_that_accepts_everything(monkeypatch):
    """Negative control of the comparison with py_webauthn: a planted verify_registration
    that accepts every registration disagrees on each tampered one, and agrees with
    py_webauthn on a documented difference (and one that refuses every registration
    disagrees on the untouched one)."""
    device, att, client = soft_registration()
    rows = [("untouched", att, client, {}),
            ("origin", att, _client(client, origin="https://evil.example"), {}),
            ("challenge", att, client, {"challenge": b"\x00" * 32}),
            ("UP", _rewrite(att, flags_and=~0x01), client, {}),
            ("no OU", _packed(device, att, client, [_cert(_name(ou=None), ATT_KEY, CA_NAME,
                                                          CA_KEY), CA_CERT]), client, {})]
    assert disagreements(rows, differ={"no OU"}) == []
    monkeypatch.setattr(webauthn, "verify_registration", lambda *args, **kwargs: None)
    assert [d.split(":")[0] for d in disagreements(rows, differ={"no OU"})] == [
        "origin", "challenge", "UP", "no OU"]
    assert "a documented difference, yet both accept" in disagreements(rows, differ={"no OU"})[-1]
    rows.pop()

    def refuse(*args, **kwargs):
        raise webauthn.RegistrationRejected("planted", "every registration is refused")
    monkeypatch.setattr(webauthn, "verify_registration", refuse)
    assert [d.split(":")[0] for d in disagreements(rows)] == ["untouched"]


# -- attestation statements built here: packed (self, x5c) and fido-u2f -------------------------


def _name(ou="Authenticator Attestation", cn="Test Authenticator"):
    parts = [x509.NameAttribute(NameOID.COUNTRY_NAME, "SE"),
             x509.NameAttribute(NameOID.ORGANIZATION_NAME, "p256 tests")]
    if ou is not None:
        parts.append(x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou))
    parts.append(x509.NameAttribute(NameOID.COMMON_NAME, cn))
    return x509.Name(parts)


NOW = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
CA_KEY = ec.derive_private_key(0xCA, ec.SECP256R1())
RSA_CA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
ATT_KEY = ec.derive_private_key(0xA77E57, ec.SECP256R1())
FIDO_AAGUID_OID = x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4")


def _cert(subject, key, issuer_name, issuer_key, *, ca=False, aaguid=AAGUID, critical=False,
          basic=True):
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer_name)
         .public_key(key.public_key()).serial_number(7)
         .not_valid_before(NOW).not_valid_after(NOW + datetime.timedelta(days=3650)))
    if basic:
        b = b.add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    if aaguid is not None:
        b = b.add_extension(x509.UnrecognizedExtension(FIDO_AAGUID_OID,
                                                       b"\x04\x10" + aaguid), critical=critical)
    return b.sign(issuer_key, hashes.SHA256()).public_bytes(serialization.Encoding.DER)


CA_NAME = _name(cn="Test Root")
CA_CERT = _cert(CA_NAME, CA_KEY, CA_NAME, CA_KEY, ca=True, aaguid=None)
LEAF = _cert(_name(), ATT_KEY, CA_NAME, CA_KEY)


def _attested(att: bytes, client: bytes, fmt: str, statement) -> bytes:
    return _rewrite(att, fmt=fmt, statement=statement)


def _signed_by(key, data: bytes) -> bytes:
    return key.sign(data, ec.ECDSA(hashes.SHA256()))


def _packed(device, att, client, chain, key=ATT_KEY, aaguid=AAGUID, alg=-7):
    """A packed x5c registration of the soft device's credential (its AAGUID set)."""
    obj = cbor2.loads(att)
    auth = bytearray(obj["authData"])
    auth[37:53] = aaguid
    signed = bytes(auth) + hashlib.sha256(client).digest()
    statement = {"alg": alg, "sig": _signed_by(key, signed), "x5c": chain}
    obj.update(authData=bytes(auth), fmt="packed", attStmt=statement)
    return cbor2.dumps(obj, canonical=True)


def test_packed_self_attestation():
    device, att, client = soft_registration()
    obj = cbor2.loads(att)
    sig = _signed_by(device.private_key, obj["authData"] + hashlib.sha256(client).digest())
    good = _attested(att, client, "packed", {"alg": -7, "sig": sig})
    reg = register(good, client)
    assert (reg.attestation_type, reg.trust_path) == ("self", ())
    flipped = bytearray(sig)
    flipped[-1] ^= 1
    bad = _attested(att, client, "packed", {"alg": -7, "sig": bytes(flipped)})
    assert outcome(bad, client) == "signature"
    wrong_alg = _attested(att, client, "packed", {"alg": -257, "sig": sig})
    assert outcome(wrong_alg, client) == "attStmt"
    assert disagreements([("self", good, client, {}), ("flipped", bad, client, {}),
                          ("RS256 named", wrong_alg, client, {})]) == []


def flipped_signature(att: bytes) -> bytes:
    """The attestation object with its statement's signature's last bit flipped."""
    obj = cbor2.loads(att)
    sig = bytearray(obj["attStmt"]["sig"])
    sig[-1] ^= 1
    obj["attStmt"]["sig"] = bytes(sig)
    return cbor2.dumps(obj, canonical=True)


def test_packed_x5c_chain_verified():
    device, att, client = soft_registration()
    good = _packed(device, att, client, [LEAF, CA_CERT])
    reg = register(good, client, require_verified_attestation=True)
    assert reg.attestation_type == "x5c" and reg.aaguid == AAGUID
    assert [c.status for c in reg.trust_path] == ["verified", "last"]
    assert reg.trust_path[0].verified and not reg.trust_path[1].verified
    assert [c.certificate for c in reg.trust_path] == [LEAF, CA_CERT]
    assert outcome(flipped_signature(good), client) == "signature"
    # the chain's link, signed by another key than the CA certificate's
    other_ca = ec.derive_private_key(0xBAD, ec.SECP256R1())
    forged = _packed(device, att, client, [_cert(_name(), ATT_KEY, CA_NAME, other_ca), CA_CERT])
    assert outcome(forged, client) == "x5c"
    # py_webauthn checks a chain only against the trust anchors it is handed (none here):
    # it accepts the forged link, a documented difference
    assert disagreements([("x5c", good, client, {}),
                          ("flipped", flipped_signature(good), client, {}),
                          ("forged link", forged, client, {})], differ={"forged link"}) == []


@pytest.mark.parametrize("problem", ["no OU", "other OU", "CA true", "AAGUID differs",
                                     "AAGUID critical", "no C"])
def test_packed_x5c_certificate_requirements(problem):
    """WebAuthn 8.2.1: each broken requirement is refused at step x5c. py_webauthn 3.0.1
    accepts all six (checked: a documented difference): it does not check 8.2.1, which
    8.2's verification procedure requires. The verdicts differ here, by design, and on a
    chain link that its CA certificate did not sign (py_webauthn checks a chain only
    against trust anchors it is handed)."""
    device, att, client = soft_registration()
    subject = {"no OU": _name(ou=None), "other OU": _name(ou="Engineering")}.get(problem, _name())
    if problem == "no C":
        subject = x509.Name([a for a in _name() if a.oid != NameOID.COUNTRY_NAME])
    leaf = _cert(subject, ATT_KEY, CA_NAME, CA_KEY, ca=problem == "CA true",
                 aaguid=b"\xee" * 16 if problem == "AAGUID differs" else AAGUID,
                 critical=problem == "AAGUID critical")
    bad = _packed(device, att, client, [leaf, CA_CERT])
    with pytest.raises(webauthn.RegistrationRejected, match="8.2.1") as info:
        register(bad, client)
    assert info.value.step == "x5c"
    assert disagreements([(problem, bad, client, {})], differ={problem}) == []


def test_certificate_requirements_can_pass_each_control():
    """The controls above differ from a good certificate only in the requirement: the
    same builder with no problem registers (so each refusal is the requirement's)."""
    device, att, client = soft_registration()
    leaf = _cert(_name(), ATT_KEY, CA_NAME, CA_KEY, aaguid=AAGUID)
    assert outcome(_packed(device, att, client, [leaf, CA_CERT]), client) == "accept"
    no_extensions = _cert(_name(), ATT_KEY, CA_NAME, CA_KEY, aaguid=None, basic=False)
    assert outcome(_packed(device, att, client, [no_extensions, CA_CERT]), client) == "accept"


def test_rsa_link_is_marked_not_guessed():
    """A chain link signed with RSA: returned marked "unverified" with the reason, or
    UnsupportedAttestation when the relying party requires verified attestation; the
    docs' recipe finishes it with pyca/cryptography."""
    device, att, client = soft_registration()
    rsa_ca = _cert(_name(cn="RSA Root"), RSA_CA_KEY, _name(cn="RSA Root"), RSA_CA_KEY, ca=True,
                   aaguid=None)
    leaf = _cert(_name(), ATT_KEY, _name(cn="RSA Root"), RSA_CA_KEY)
    good = _packed(device, att, client, [leaf, rsa_ca])
    reg = register(good, client)
    assert [c.status for c in reg.trust_path] == ["unverified", "last"]
    assert "not one p256 verifies" in reg.trust_path[0].reason
    with pytest.raises(webauthn.UnsupportedAttestation) as info:
        register(good, client, require_verified_attestation=True)
    assert info.value.step == "attestation" and info.value.registration == reg
    # finishing it as the docs show: the relying party's own X.509 stack
    x509.load_der_x509_certificate(reg.trust_path[0].certificate).verify_directly_issued_by(
        x509.load_der_x509_certificate(reg.trust_path[1].certificate))


def test_non_p256_attestation_key_is_unverified():
    device, att, client = soft_registration()
    key384 = ec.derive_private_key(0x384, ec.SECP384R1())
    leaf = _cert(_name(), key384, CA_NAME, CA_KEY)
    reg = register(_packed(device, att, client, [leaf, CA_CERT], key=key384, alg=-35), client)
    assert reg.attestation_type == "unverified" and "ES384" in reg.attestation_reason
    with pytest.raises(webauthn.UnsupportedAttestation):
        register(_packed(device, att, client, [leaf, CA_CERT], key=key384, alg=-35), client,
                 require_verified_attestation=True)


def _u2f(device, att, client, key=ATT_KEY, cert=None):
    obj = cbor2.loads(att)
    auth = obj["authData"]
    cred_id = device.credential_id
    point = p256.PublicKey.from_cryptography(device.private_key.public_key()).to_bytes()
    signed = b"\x00" + auth[:32] + hashlib.sha256(client).digest() + cred_id + point
    cert = cert or _cert(_name(cn="U2F"), key, CA_NAME, CA_KEY, aaguid=None)
    return _attested(att, client, "fido-u2f", {"sig": _signed_by(key, signed), "x5c": [cert]})


def test_fido_u2f():
    device, att, client = soft_registration()
    good = _u2f(device, att, client)
    reg = register(good, client)
    assert reg.attestation_type == "x5c" and [c.status for c in reg.trust_path] == ["last"]
    assert outcome(flipped_signature(good), client) == "signature"
    key384 = ec.derive_private_key(0x384, ec.SECP384R1())
    p384 = _u2f(device, att, client, cert=_cert(_name(cn="U2F"), key384, CA_NAME, CA_KEY,
                                                aaguid=None))
    assert outcome(p384, client) == "x5c"
    obj = cbor2.loads(good)
    obj["attStmt"]["x5c"] = [obj["attStmt"]["x5c"][0], CA_CERT]
    two = cbor2.dumps(obj, canonical=True)
    assert outcome(two, client) == "attStmt"
    assert disagreements([("fido-u2f", good, client, {}),
                          ("flipped", flipped_signature(good), client, {}),
                          ("P-384 certificate", p384, client, {}),
                          ("two certificates", two, client, {})]) == []


# -- the structure ------------------------------------------------------------------------------


def test_attestation_object_structure():
    _, att, client = soft_registration()
    obj = cbor2.loads(att)
    bad = {
        "not a map": cbor2.dumps([1]),
        "trailing byte": att + b"\x00",
        "unknown member": cbor2.dumps(dict(obj, extra=1), canonical=True),
        "no authData": cbor2.dumps({k: v for k, v in obj.items() if k != "authData"},
                                   canonical=True),
        "authData text": cbor2.dumps(dict(obj, authData="x"), canonical=True),
        "attStmt array": cbor2.dumps(dict(obj, attStmt=[]), canonical=True),
        "indefinite map": b"\xbf" + att[1:] + b"\xff",
    }
    for what, data in bad.items():
        assert outcome(data, client) == "attestationObject", what
    assert outcome(_rewrite(att, fmt="none", statement={"x": 1}), client) == "attStmt"
    assert outcome(_rewrite(att, fmt="unknown", statement={}), client) == "fmt"


def test_a_key_other_than_es256_is_refused_clearly():
    _, att, client = soft_registration()
    obj = cbor2.loads(att)
    auth = obj["authData"]
    length = int.from_bytes(auth[53:55], "big")
    okp = _cose.dumps({1: 1, 3: -8, -1: 6, -2: b"\x01" * 32})
    obj["authData"] = auth[:55 + length] + okp
    with pytest.raises(webauthn.RegistrationRejected, match="alg -8.*ES256") as info:
        register(cbor2.dumps(obj, canonical=True), client)
    assert info.value.step == "alg"


def test_arguments_are_checked():
    _, att, client = soft_registration()
    with pytest.raises(TypeError, match="attestation_object"):
        register("text", client)
    with pytest.raises(TypeError, match="require_verified_attestation"):
        register(att, client, require_verified_attestation=1)
    with pytest.raises(TypeError, match="transports"):
        register(att, client, transports="usb")
    with pytest.raises(TypeError, match="require_user_verification"):
        register(att, client, require_user_verification=None)
    with pytest.raises(TypeError):
        webauthn.verify_registration(att, client)  # type: ignore[call-arg]


def test_token_binding_is_read_in_assertions_too():
    """The client data reader is one for both ceremonies: a tokenBinding object with
    another status is an AssertionRejected at step tokenBinding (a string, which old U2F
    clients wrote, is let through, as py_webauthn does)."""
    sk = p256.PrivateKey.from_int(5)
    auth = hashlib.sha256(RP_ID.encode()).digest() + b"\x01" + b"\x00\x00\x00\x01"
    for binding, ok in (({"status": "supported"}, True), ({"status": "not-supported"}, False),
                        ("unused", True), ({"status": "present", "id": 5}, False)):
        client = json.dumps({"type": "webauthn.get", "challenge": b64(CHALLENGE),
                             "origin": ORIGIN, "tokenBinding": binding}).encode()
        sig = sk.sign(auth + hashlib.sha256(client).digest())
        args = dict(rp_id=RP_ID, origin=ORIGIN, challenge=CHALLENGE,
                    require_user_verification=False, sign_count=0)
        if ok:
            assert webauthn.verify_assertion(sk.public_key, auth, client, sig, **args) == 1
        else:
            with pytest.raises(webauthn.AssertionRejected) as info:
                webauthn.verify_assertion(sk.public_key, auth, client, sig, **args)
            assert info.value.step == "tokenBinding"


def test_module_namespace_holds_public_names():
    """dir(p256.webauthn) shows its public names and no imported helpers."""
    stray = {n for n in dir(webauthn) if not n.startswith("_")} - set(webauthn.__all__)
    assert stray == set(), stray


# SPDX-License-Identifier: Apache-2.0
"""WebAuthn on hostile input: the strict reader of authenticator data (WebAuthn Level 3
6.1: attested credential data exactly when AT is set, extensions exactly when ED is, in
that order, each CBOR map delimited by its own encoding, then nothing), and
verify_assertion, which refuses every malformed authenticatorData with AssertionRejected.

The assertions made by real authenticators and the step-by-step refusals are in
tests/test_cose.py; this file holds the rules of the structure and the properties over
generated input (hypothesis), each with a planted broken reader it must catch."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re

import cbor2
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import p256
from p256 import _cose, webauthn

CRED = p256.PrivateKey.from_int(0x5EED)
PK = CRED.public_key
RP_ID, ORIGIN, TOP_ORIGIN, CHALLENGE = "example.com", "https://example.com", "https://top.example", b"\x01" * 32
CHALLENGE_B64 = base64.urlsafe_b64encode(CHALLENGE).rstrip(b"=").decode()
RP_HASH = hashlib.sha256(RP_ID.encode()).digest()
COSE = PK.to_cose()
AAGUID = bytes(range(16))
CRED_ID = b"\xc1" * 32
EXTENSIONS = _cose.dumps({"credProtect": 2, "hmac-secret": True})
UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80


def auth_data(flags: int, tail: bytes = b"", count: int = 7) -> bytes:
    return RP_HASH + bytes([flags]) + count.to_bytes(4, "big") + tail


def attested(cred_id: bytes = CRED_ID, key: bytes = COSE, aaguid: bytes = AAGUID) -> bytes:
    """Attested credential data: aaguid || credentialIdLength || credentialId || key."""
    return aaguid + len(cred_id).to_bytes(2, "big") + cred_id + key


def client_json(**members) -> bytes:
    base = {"type": "webauthn.get", "challenge": CHALLENGE_B64, "origin": ORIGIN}
    base.update(members)
    return json.dumps({k: v for k, v in base.items() if v is not None}).encode()


CLIENT = client_json()


def rp_check(auth: bytes, client: bytes = CLIENT, **changes) -> int:
    """verify_assertion of (auth, client) signed by the credential, with these changes."""
    args = dict(rp_id=RP_ID, origin=ORIGIN, challenge=CHALLENGE, require_user_verification=False,
                sign_count=5)
    args.update(changes)
    sig = CRED.sign(auth + hashlib.sha256(client).digest())
    return webauthn.verify_assertion(PK, auth, client, sig, **args)


def outcome(auth: bytes, client: bytes, top_origin=None):
    """verify_assertion's result on (auth, client), signed by the credential: the new
    count, or the AssertionRejected's step. Any other exception propagates."""
    try:
        return rp_check(auth, client, top_origin=top_origin)
    except webauthn.AssertionRejected as exc:
        return exc.step


# -- the authenticator data's structure ------------------------------------------------------


def test_fixed_fields_alone():
    ad = webauthn.parse_authenticator_data(auth_data(UP | UV, count=0xDEADBEEF))
    assert (ad.rp_id_hash, ad.flags, ad.sign_count) == (RP_HASH, UP | UV, 0xDEADBEEF)
    assert (ad.aaguid, ad.credential_id, ad.credential_public_key, ad.extensions) == (None,) * 4
    with pytest.raises(ValueError, match="no attested credential data"):
        ad.public_key


def test_attested_credential_data_then_extensions():
    """AT and ED together: the COSE_Key ends where its CBOR map ends, not at the end of
    the data, and the extensions are the map after it."""
    for key in (COSE, cbor2.dumps(cbor2.loads(COSE), canonical=True),
                _cose.dumps({1: 2, 3: -7, -1: 1, -2: PK.to_bytes()[1:33],
                             -3: PK.to_bytes()[33:], 100: {"a": [1, 2]}})):
        raw = auth_data(UP | UV | AT | ED, attested(key=key) + EXTENSIONS)
        ad = webauthn.parse_authenticator_data(bytearray(raw))
        assert ad.aaguid == AAGUID and ad.credential_id == CRED_ID
        assert ad.credential_public_key == key
        assert ad.extensions == EXTENSIONS
        assert cbor2.loads(ad.extensions) == {"credProtect": 2, "hmac-secret": True}
        assert ad.public_key == PK
        assert ad.attested_credential_data and ad.extension_data


def test_attested_credential_data_alone_and_extensions_alone():
    ad = webauthn.parse_authenticator_data(auth_data(UP | AT, attested()))
    assert (ad.credential_public_key, ad.extensions, ad.public_key) == (COSE, None, PK)
    ad = webauthn.parse_authenticator_data(auth_data(UP | ED, EXTENSIONS))
    assert (ad.aaguid, ad.credential_id, ad.credential_public_key) == (None, None, None)
    assert ad.extensions == EXTENSIONS
    empty = webauthn.parse_authenticator_data(auth_data(UP | ED, b"\xa0"))
    assert empty.extensions == b"\xa0"
    longest = webauthn.parse_authenticator_data(auth_data(AT, attested(cred_id=bytes(1023))))
    assert longest.credential_id == bytes(1023)


def test_flags():
    names = ("user_present", "user_verified", "backup_eligible", "backed_up",
             "attested_credential_data", "extension_data")
    tails = {AT: attested(), ED: EXTENSIONS}
    for bit, name in zip((UP, UV, BE, BS, AT, ED), names):
        ad = webauthn.parse_authenticator_data(auth_data(bit, tails.get(bit, b"")))
        assert [getattr(ad, n) for n in names] == [n == name for n in names], name
    # the reserved bits 1 and 5 are read and ignored (6.1: RFU)
    assert webauthn.parse_authenticator_data(auth_data(0x22)).flags == 0x22


def test_the_result_is_immutable_and_typed():
    ad = webauthn.parse_authenticator_data(auth_data(UP | AT | ED, attested() + EXTENSIONS))
    with pytest.raises(AttributeError):
        ad.sign_count = 8  # type: ignore[misc]
    assert isinstance(ad, tuple) and ad._replace(sign_count=8).sign_count == 8
    assert ad.sign_count == 7


NO_ALG = _cose.dumps({1: 2, -1: 1, -2: PK.to_bytes()[1:33], -3: PK.to_bytes()[33:]})
NO_KTY = _cose.dumps({3: -7, -1: 1, -2: PK.to_bytes()[1:33], -3: PK.to_bytes()[33:]})
TRUE_FOR_KTY = _cose.dumps({True: 2, 3: -7, -1: 1, -2: PK.to_bytes()[1:33], -3: PK.to_bytes()[33:]})
DEEP = b"\xa1\x61a" + b"\x81" * 20 + b"\x00"
HUGE_LENGTH = b"\xa1\x61a\x5b" + (2**40).to_bytes(8, "big")

#: name -> (authenticator data, fragment of the message): one per rule, each otherwise valid.
MALFORMED = {
    "shorter than the fixed fields": (auth_data(UP)[:36], r"36 bytes; it has at least 37"),
    "bytes after signCount, neither AT nor ED": (auth_data(UP, b"\xa0"),
                                                 r"1 byte at offset 37 after the signCount; neither AT nor ED"),
    "ED with nothing after": (auth_data(UP | ED), r"ED flag is set, and no extensions .*offset 37"),
    "ED, extensions not a map": (auth_data(UP | ED, b"\x80"), r"extensions at offset 37 must be a CBOR map"),
    "ED, extensions a text string": (auth_data(UP | ED, b"\x61a"), r"must be a CBOR map"),
    "ED, two maps": (auth_data(UP | ED, EXTENSIONS + b"\xa0"), r"1 byte at offset \d+ after the extensions"),
    "ED, a map then a byte": (auth_data(UP | ED, b"\xa0\x00"), r"1 byte at offset 38 after the extensions"),
    "ED, a map cut short": (auth_data(UP | ED, EXTENSIONS[:-1]), r"extensions at offset 37: .*(past the end|data ends)"),
    "ED, keyed by an int": (auth_data(UP | ED, b"\xa1\x01\x02"), r"keyed by int; extension identifiers"),
    "ED, non-minimal head": (auth_data(UP | ED, b"\xa1\x61a\x18\x01"), r"non-minimal"),
    "ED, indefinite map": (auth_data(UP | ED, b"\xbf\x61a\x01\xff"), r"indefinite"),
    "ED, duplicate identifier": (auth_data(UP | ED, b"\xa2\x61a\x01\x61a\x02"), r"duplicate map key"),
    "ED, identifiers out of order": (auth_data(UP | ED, b"\xa2\x61b\x01\x61a\x02"), r"deterministic order"),
    "ED, nested too deep": (auth_data(UP | ED, DEEP), r"nested more than 16"),
    "ED, a length past the end": (auth_data(UP | ED, HUGE_LENGTH), r"runs past the end"),
    "ED, too many items": (auth_data(UP | ED, b"\xb9\x04\x01" + b"".join(
        _cose.dumps("k%04d" % i) + b"\x00" for i in range(1025))), r"more than 1024 CBOR items"),
    "ED, a tag": (auth_data(UP | ED, b"\xa1\x61a\xc1\x01"), r"CBOR tag"),
    "ED, a float": (auth_data(UP | ED, b"\xa1\x61a\xf9\x3c\x00"), r"floating-point"),
    "ED, bad UTF-8": (auth_data(UP | ED, b"\xa1\x61\xff\x01"), r"not valid UTF-8"),
    "AT with nothing after": (auth_data(UP | AT), r"AT flag is set, .*offset 37 has 0 bytes"),
    "AT, aaguid cut short": (auth_data(UP | AT, AAGUID[:10]), r"offset 37 has 10 bytes"),
    "AT, no credentialIdLength": (auth_data(UP | AT, AAGUID + b"\x00"), r"has 17 bytes"),
    "AT, credentialIdLength 1024": (auth_data(UP | AT, attested(cred_id=bytes(1024))),
                                    r"credentialIdLength 1024 at offset 53; at most 1023"),
    "AT, credentialIdLength 65535": (auth_data(UP | AT, AAGUID + b"\xff\xff"), r"credentialIdLength 65535"),
    "AT, credentialId cut short": (auth_data(UP | AT, AAGUID + b"\x00\x20" + bytes(31)),
                                   r"credentialId of 32 bytes at offset 55 runs past the end .*31 bytes left"),
    "AT, no key": (auth_data(UP | AT, attested(key=b"")), r"no credentialPublicKey .*offset 87"),
    "AT, key not a map": (auth_data(UP | AT, attested(key=b"\x82\x01\x02")),
                          r"credentialPublicKey at offset 87 must be a CBOR map"),
    "AT, key cut short": (auth_data(UP | AT, attested(key=COSE[:-1])),
                          r"credentialPublicKey at offset 87: .*past the end"),
    "AT, key without alg": (auth_data(UP | AT, attested(key=NO_ALG)), r"has no alg \(3\)"),
    "AT, key without kty": (auth_data(UP | AT, attested(key=NO_KTY)), r"has no kty \(1\)"),
    "AT, key with true for kty": (auth_data(UP | AT, attested(key=TRUE_FOR_KTY)), r"has no kty \(1\)"),
    "AT, key then bytes, ED not set": (auth_data(UP | AT, attested() + EXTENSIONS),
                                       r"after the credentialPublicKey; ED is not set"),
    "AT and ED, no extensions": (auth_data(UP | AT | ED, attested()),
                                 r"no extensions follow the credentialPublicKey"),
    "AT and ED, extensions before the key": (auth_data(UP | AT | ED, attested(key=EXTENSIONS) + COSE),
                                             r"credentialPublicKey at offset 87 has no kty"),
    "AT and ED, bytes after the extensions": (auth_data(UP | AT | ED, attested() + EXTENSIONS + b"\x00"),
                                              r"1 byte at offset \d+ after the extensions"),
    "ED set, attested credential data instead": (auth_data(UP | ED, attested()),
                                                 r"extensions at offset 37 must be a CBOR map"),
    "AT not set, attested credential data": (auth_data(UP, attested()), r"neither AT nor ED"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_each_rule_of_authenticator_data(case):
    raw, fragment = MALFORMED[case]
    with pytest.raises(ValueError, match="malformed authenticator data: .*" + fragment):
        webauthn.parse_authenticator_data(raw)
    # the relying party's check refuses it at its step, before the signature
    with pytest.raises(webauthn.AssertionRejected) as info:
        rp_check(raw)
    assert info.value.step == "authenticatorData", info.value


def test_the_rules_are_not_all_refusals():
    """Each refused input above differs from an accepted one by the rule it breaks."""
    for raw in (auth_data(UP), auth_data(UP | ED, b"\xa0"), auth_data(UP | ED, b"\xa1\x61a\x01"),
                auth_data(UP | ED, b"\xa2\x61a\x01\x61b\x02"), auth_data(UP | AT, attested()),
                auth_data(UP | AT | ED, attested() + EXTENSIONS), auth_data(UP | AT, attested(cred_id=b""))):
        webauthn.parse_authenticator_data(raw)
        assert rp_check(raw) == 7


def test_the_credential_public_key_kinds():
    """public_key reads an ES256 key; any other COSE key is a ValueError naming why."""
    x, y = PK.to_bytes()[1:33], PK.to_bytes()[33:]
    for params, fragment in (({1: 3, 3: -257, -1: bytes(256), -2: b"\x01\x00\x01"}, r"kty \(1\) 3"),
                             ({1: 1, 3: -8, -1: 6, -2: bytes(32)}, r"kty \(1\) 1"),
                             ({1: 2, 3: -35, -1: 2, -2: bytes(48), -3: bytes(48)}, r"crv \(-1\) 2"),
                             ({1: 2, 3: -35, -1: 1, -2: x, -3: y}, r"ES256"),
                             ({1: 2, 3: -7, -1: 1, -2: x, -3: bytes(32)}, r"public key")):
        ad = webauthn.parse_authenticator_data(auth_data(UP | AT, attested(key=_cose.dumps(params))))
        assert ad.credential_public_key == _cose.dumps(params)  # read, whatever the kind
        with pytest.raises(ValueError, match=fragment):
            ad.public_key
    built = webauthn.AuthenticatorData(RP_HASH, AT, 0, AAGUID, CRED_ID, NO_ALG, None)
    with pytest.raises(ValueError, match="no alg"):
        built.public_key


def test_authenticator_data_argument_type():
    with pytest.raises(TypeError, match="authenticator data"):
        webauthn.parse_authenticator_data(auth_data(UP).hex())  # type: ignore[arg-type]


def test_a_planted_end_of_data_delimiter_is_caught(monkeypatch):
    """Negative control: a reader that takes the COSE_Key as "the rest of the bytes"
    (the defect strict delimiting prevents) fails the AT+ED test and lets trailing bytes
    through."""
    real = _cose.read_item

    def rest_of_the_bytes(data, offset, what):
        value, _ = real(data, offset, what)
        return value, len(data)

    monkeypatch.setattr(_cose, "read_item", rest_of_the_bytes)
    with pytest.raises((AssertionError, ValueError), match="no extensions follow"):
        test_attested_credential_data_then_extensions()
    # and the rule's own case would pass: the byte after the map read as extensions
    assert webauthn.parse_authenticator_data(MALFORMED["ED, a map then a byte"][0]).extensions == b"\xa0\x00"


# -- verify_assertion and parse_authenticator_data: hostile authenticator data --------------


_cbor_leaf = (st.integers(-2**64, 2**64 - 1) | st.binary(max_size=8) | st.text(max_size=6)
              | st.booleans() | st.none())
_cbor_value = st.recursive(_cbor_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.integers(-30, 30) | st.text(max_size=4), inner, max_size=3), max_leaves=8)


@st.composite
def cbor_piece(draw) -> bytes:
    """A CBOR encoding: a valid key or extensions, or generated values (deterministic,
    cbor2's length-first or bytewise, or not deterministic at all), maybe cut short."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.sampled_from([COSE, EXTENSIONS, b"\xa0", NO_ALG, NO_KTY, TRUE_FOR_KTY, DEEP,
                                     HUGE_LENGTH]))
    value = draw(_cbor_value)
    data = _cose.dumps(value) if kind == 1 else cbor2.dumps(value, canonical=kind == 2)
    if draw(st.booleans()):
        data = data[:draw(st.integers(0, len(data)))]
    return data


@st.composite
def hostile_authenticator_data(draw) -> bytes:
    """Authenticator data whose flags mostly, not always, agree with what follows them:
    attested credential data (a valid one, or one with a wrong length or a short aaguid)
    with a generated key, generated extensions, and stray bytes."""
    flags = draw(st.integers(0, 255)) & ~(AT | ED)
    tail = b""
    with_credential, with_extensions = draw(st.booleans()), draw(st.booleans())
    if with_credential:
        cred_id = draw(st.binary(max_size=20))
        length = draw(st.sampled_from([len(cred_id)] * 4 + [len(cred_id) + 1, 1023, 1024, 65535]))
        aaguid = draw(st.sampled_from([AAGUID] * 3 + [AAGUID[:15]]))
        key = COSE if draw(st.integers(0, 2)) == 0 else draw(cbor_piece())
        tail += aaguid + length.to_bytes(2, "big") + cred_id + key
    if with_extensions:
        tail += EXTENSIONS if draw(st.integers(0, 2)) == 0 else draw(cbor_piece())
    if draw(st.integers(0, 4)) == 0:
        tail += draw(st.binary(max_size=6))
    if draw(st.integers(0, 4)) == 0:  # the flags disagree with the data
        with_credential, with_extensions = draw(st.booleans()), draw(st.booleans())
    flags |= (AT if with_credential else 0) | (ED if with_extensions else 0)
    return auth_data(flags, tail, draw(st.integers(0, 2**32 - 1)))


def cbor2_map(data: bytes):
    """The map cbor2 reads in data, when it is one item and the whole of data, or None."""
    fp = io.BytesIO(data)
    try:
        value = cbor2.CBORDecoder(fp).decode()
    except Exception:
        return None
    return value if isinstance(value, dict) and fp.tell() == len(data) else None


def check_authenticator_data(raw: bytes) -> None:
    """parse_authenticator_data: the fields, which write back to exactly raw (nothing
    skipped, nothing left over), with each part present exactly when its flag is set, or
    ValueError; verify_assertion: the count, or AssertionRejected."""
    try:
        ad = webauthn.parse_authenticator_data(raw)
    except ValueError as exc:
        assert type(exc) is ValueError and str(exc).startswith("malformed authenticator data: ")
        assert outcome(raw, CLIENT) == "authenticatorData"
        return
    assert (ad.aaguid is not None) == (ad.credential_id is not None) == (
        ad.credential_public_key is not None) == bool(ad.flags & AT)
    assert (ad.extensions is not None) == bool(ad.flags & ED)
    again = ad.rp_id_hash + bytes([ad.flags]) + ad.sign_count.to_bytes(4, "big")
    if ad.credential_public_key is not None:
        assert len(ad.aaguid) == 16 and len(ad.credential_id) <= 1023
        again += ad.aaguid + len(ad.credential_id).to_bytes(2, "big") + ad.credential_id
        again += ad.credential_public_key
        key = cbor2_map(ad.credential_public_key)  # the independent reader agrees
        assert key is not None and 1 in key and 3 in key
    if ad.extensions is not None:
        again += ad.extensions
        outputs = cbor2_map(ad.extensions)
        assert outputs is not None and all(isinstance(k, str) for k in outputs)
    assert again == raw
    result = outcome(raw, CLIENT)
    assert isinstance(result, int) or result in ("rpIdHash", "UP", "BS", "signCount"), result


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_authenticator_data())
@example(auth_data(UP | ED))
@example(auth_data(UP | AT))
@example(auth_data(UP | AT | ED, attested() + EXTENSIONS))
def test_hostile_authenticator_data_is_read_or_refused(raw):
    check_authenticator_data(raw)


def test_the_authenticator_data_property_catches_a_lax_reader(monkeypatch):
    """Negative control: the reader this replaced (the fixed fields, then whatever
    follows taken as extensions) fails the property on ED with nothing after."""
    def lax(data):
        raw = bytes(data)
        return webauthn.AuthenticatorData(raw[:32], raw[32], int.from_bytes(raw[33:37], "big"),
                                          None, None, None, raw[37:] if raw[32] & ED else None)

    monkeypatch.setattr(webauthn, "parse_authenticator_data", lax)
    with pytest.raises(AssertionError):
        check_authenticator_data(auth_data(UP | ED))

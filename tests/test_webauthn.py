# SPDX-License-Identifier: Apache-2.0
"""WebAuthn on hostile input: the strict reader of authenticator data (WebAuthn Level 3
6.1: attested credential data exactly when AT is set, extensions exactly when ED is, in
that order, each CBOR map delimited by its own encoding, then nothing), and
verify_assertion, which refuses every malformed clientDataJSON or authenticatorData with
AssertionRejected and nothing else, and names a wrong sign_count as ValueError or
TypeError.

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


# -- verify_assertion: hostile client data ---------------------------------------------------


SURROGATE_CASES = {
    "challenge": rb'{"type":"webauthn.get","challenge":"\ud800","origin":"https://example.com"}',
    "type": rb'{"type":"webauthn.get\udfff","challenge":"AQ","origin":"https://example.com"}',
    "origin": (b'{"type":"webauthn.get","challenge":"%s","origin":"https://example.com\\ud800"}'
               % CHALLENGE_B64.encode()),
    "topOrigin": (b'{"type":"webauthn.get","challenge":"%s","origin":"https://example.com",'
                  b'"crossOrigin":true,"topOrigin":"\\ud800https://top.example"}' % CHALLENGE_B64.encode()),
}


@pytest.mark.parametrize("member", sorted(SURROGATE_CASES))
def test_a_lone_surrogate_is_refused_at_its_member(member):
    client = SURROGATE_CASES[member]
    assert "\\ud" in client.decode()  # a JSON escape, valid UTF-8 bytes
    with pytest.raises(webauthn.AssertionRejected, match="lone surrogate") as info:
        rp_check(auth_data(UP), client, top_origin=TOP_ORIGIN)
    assert info.value.step == member
    # a surrogate pair is a character, not a lone surrogate: read as one
    paired = client.replace(b"\\ud800", b"\\ud83d\\ude00").replace(b"\\udfff", b"\\ud83d\\ude00")
    assert outcome(auth_data(UP), paired, TOP_ORIGIN) != "clientDataJSON"


def test_a_lone_surrogate_rp_id_is_a_value_error():
    with pytest.raises(ValueError, match="rp_id is not Unicode text") as info:
        rp_check(auth_data(UP), rp_id="example.com\udc80")
    assert type(info.value) is ValueError


_json_leaf = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
              | st.text(max_size=12) | st.sampled_from(["webauthn.get", "webauthn.create", CHALLENGE_B64,
                                                          ORIGIN, TOP_ORIGIN, "\ud800", "a\udfffb"]))
_json_value = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)
_MEMBER_NAMES = ("type", "challenge", "origin", "crossOrigin", "topOrigin", "other")


@st.composite
def _members(draw) -> dict:
    """Valid members, some of them replaced by hostile values or left out."""
    members = {"type": "webauthn.get", "challenge": CHALLENGE_B64, "origin": ORIGIN,
               "crossOrigin": True, "topOrigin": TOP_ORIGIN}
    for name in draw(st.lists(st.sampled_from(_MEMBER_NAMES), max_size=3)):
        if draw(st.integers(0, 4)):
            members[name] = draw(_json_value)
        else:
            members.pop(name, None)
    return members


@st.composite
def hostile_client_data(draw) -> bytes:
    """clientDataJSON an attacker may send: member values of every JSON type (lone
    surrogates written as escapes, or raw, which is not UTF-8), non-objects, deep
    nesting, duplicate members, bytes that are not UTF-8, mutations of a valid one."""
    kind = draw(st.integers(0, 6))
    if kind == 0:
        members = draw(_members())
        ascii_only = draw(st.booleans())
        text = json.dumps(members, ensure_ascii=ascii_only)
        return text.encode("utf-8", "surrogatepass")
    if kind == 1:
        return json.dumps(draw(_json_value)).encode("utf-8", "surrogatepass")
    if kind == 2:
        depth = draw(st.integers(1, 3000))
        opener = draw(st.sampled_from(["[", '{"a":']))
        closer = "]" if opener == "[" else "}"
        inner = opener * depth + "1" + closer * draw(st.integers(0, depth))
        return ('{"type":"webauthn.get","challenge":%s,"origin":"%s"}' % (inner, ORIGIN)).encode()
    if kind == 3:
        name = draw(st.sampled_from(["type", "challenge", "origin", "crossOrigin", "topOrigin"]))
        return (client_json()[:-1] + b',"%s":%s}' % (name.encode(), json.dumps(draw(_json_leaf)).encode(
            "utf-8", "surrogatepass")))
    if kind == 4:
        return draw(st.binary(max_size=80))
    valid = client_json(crossOrigin=draw(st.sampled_from([None, False, True])),
                        topOrigin=draw(st.sampled_from([None, TOP_ORIGIN])))
    if kind == 5:
        at = draw(st.integers(0, len(valid)))
        return valid[:at] + draw(st.binary(min_size=1, max_size=4)) + valid[at + draw(st.integers(0, 4)):]
    return valid[:draw(st.integers(0, len(valid)))]


def _only_rejections(client: bytes) -> None:
    for top in (None, TOP_ORIGIN):
        result = outcome(auth_data(UP), client, top)
        assert result == 7 or result in (
            "clientDataJSON", "type", "challenge", "origin", "topOrigin"), result


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_client_data())
@example(SURROGATE_CASES["challenge"])
@example(b'{"type":"webauthn.get","challenge":"\xed\xa0\x80","origin":"x"}')  # CESU-8 surrogate
@example(b'{"type":"webauthn.get","challenge":' + b"[" * 100000 + b"]" * 100000 + b"}")
@example(client_json(crossOrigin="true", topOrigin=5))
def test_hostile_client_data_is_only_ever_rejected(client):
    """Whatever clientDataJSON holds, verify_assertion returns the count or raises
    AssertionRejected at a client data step: never another exception."""
    _only_rejections(client)


def test_the_client_data_property_catches_a_planted_encode(monkeypatch):
    """Negative control: a member reader that lets a lone surrogate through (the
    challenge then meets str.encode) makes the property fail with UnicodeEncodeError."""
    def unchecked(client_data, name):
        value = client_data.get(name)
        if not isinstance(value, str):
            raise webauthn.AssertionRejected(name, "not a string")
        return value

    monkeypatch.setattr(webauthn, "_member", unchecked)
    with pytest.raises(UnicodeEncodeError):
        _only_rejections(SURROGATE_CASES["challenge"])


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


# -- verify_assertion's sign_count argument --------------------------------------------------


@pytest.mark.parametrize("value,shown", [(-1, "-1"), (2**32, "4294967296"), (-2**63, str(-2**63)),
                                         (2**100, "a 101-bit integer"), (10**5000, "a 16610-bit integer")],
                         ids=["-1", "2^32", "-2^63", "2^100", "10^5000"])
def test_sign_count_out_of_range_is_a_value_error_naming_it(value, shown):
    with pytest.raises(ValueError, match=r"sign_count must be in 0\.\.2\^32-1 .*not %s$" % re.escape(shown)) as info:
        rp_check(auth_data(UP), sign_count=value)
    assert type(info.value) is ValueError  # an argument error, not a refused assertion


@pytest.mark.parametrize("value,type_name", [(True, "bool"), (False, "bool"), (1.0, "float"),
                                             ("5", "str"), (None, "NoneType")])
def test_sign_count_of_another_type_is_a_type_error_naming_it(value, type_name):
    with pytest.raises(TypeError, match=r"sign_count must be an int .*not %s$" % type_name):
        rp_check(auth_data(UP), sign_count=value)


def test_sign_count_bounds_are_inclusive():
    assert rp_check(auth_data(UP, count=2**32 - 1), sign_count=2**32 - 2) == 2**32 - 1
    with pytest.raises(webauthn.PossibleClone):
        rp_check(auth_data(UP, count=2**32 - 1), sign_count=2**32 - 1)
    assert rp_check(auth_data(UP, count=0), sign_count=0) == 0

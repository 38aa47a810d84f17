# SPDX-License-Identifier: Apache-2.0
"""COSE_Key (PublicKey.from_cose / to_cose, p256._cose's strict CBOR) and the WebAuthn
assertion check (p256.webauthn), against cbor2 and assertions of real authenticators."""

import base64
import hashlib
import json

import pytest

import p256
from p256 import _cose, webauthn

cbor2 = pytest.importorskip("cbor2")


def b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


SK = p256.PrivateKey.from_int(0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721)
PK = SK.public_key
X, Y = PK.to_bytes()[1:33], PK.to_bytes()[33:]


def key_map(**extra):
    m = {1: 2, 3: -7, -1: 1, -2: X, -3: Y}
    m.update(extra)
    return m


def enc(m) -> bytes:
    """cbor2's canonical (length-first) encoding: the independent writer."""
    return cbor2.dumps(m, canonical=True)


# -- round trips and the independent encoder ----------------------------------------------


def test_to_cose_is_cbor2_canonical_and_webauthn_layout():
    data = PK.to_cose()
    assert data == enc(key_map())
    assert data[:10] == bytes.fromhex("a5010203262001215820")  # as authenticators write it
    assert cbor2.loads(data) == key_map()
    assert PK.to_cose(include_alg=False) == enc({1: 2, -1: 1, -2: X, -3: Y})


def test_round_trip_bytes_mapping_and_buffers():
    for data in (PK.to_cose(), PK.to_cose(include_alg=False)):
        assert p256.PublicKey.from_cose(data) == PK
        assert p256.PublicKey.from_cose(bytearray(data)) == PK
        assert p256.PublicKey.from_cose(memoryview(data)) == PK
        assert p256.PublicKey.from_cose(cbor2.loads(data)) == PK
    for _ in range(20):
        pk = p256.PrivateKey.generate().public_key
        assert p256.PublicKey.from_cose(pk.to_cose()) == pk


def test_known_common_parameters_are_checked_and_ignored():
    m = key_map()
    m[2] = b"credential-id"
    m[4] = ["verify", 2]
    m[5] = b"\x00" * 8
    assert p256.PublicKey.from_cose(enc(m)) == PK
    assert p256.PublicKey.from_cose(m) == PK


@pytest.mark.parametrize("label,value", [
    (-70000, b"private use"), (200, [1, {"a": [True, False, None]}]), ("note", "text"),
    (-5, 7), (24, -1000000000000),
])
def test_unknown_labels_are_ignored(label, value):
    m = key_map()
    m[label] = value
    assert p256.PublicKey.from_cose(enc(m)) == PK
    assert p256.PublicKey.from_cose(m) == PK


def test_both_deterministic_key_orders():
    # keys whose encodings differ in length: -1 is 0x20, 24 is 0x18 0x18
    m = key_map()
    m[24] = 0
    length_first = enc(m)  # cbor2: RFC 7049 / CTAP2 order, -1 before 24
    bytewise = _cose.dumps(m)  # RFC 8949 4.2.1, 24 before -1
    assert length_first != bytewise
    assert p256.PublicKey.from_cose(length_first) == PK
    assert p256.PublicKey.from_cose(bytewise) == PK
    assert cbor2.loads(bytewise) == m


# -- strict CBOR: each violation refused, with its own message -----------------------------

GOOD = PK.to_cose()


def swap_entry(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1
    return data.replace(old, new)


@pytest.mark.parametrize("data,message", [
    (b"", "data ends"),
    (GOOD[:-1], "runs past the end"),
    (GOOD + b"\x00", "bytes after the map"),
    (b"\x80", "expected a CBOR map"),
    (swap_entry(GOOD, b"\x01\x02", b"\x01\x18\x02"), "non-minimal"),  # kty 2 as 0x18 0x02
    (swap_entry(GOOD, b"\x21\x58\x20", b"\x21\x59\x00\x20"), "non-minimal"),  # x length
    (b"\xb9\x00\x05" + GOOD[1:], "non-minimal"),  # map count in two bytes
    (swap_entry(GOOD, b"\x21\x58\x20" + X, b"\x21\x5f\x58\x20" + X + b"\xff"), "indefinite"),
    (b"\xbf" + GOOD[1:] + b"\xff", "indefinite"),
    (bytes([0xA6]) + GOOD[1:] + b"\x03\x26", "duplicate map key"),
    (bytes.fromhex("a5032601022001") + GOOD[7:], "not in a deterministic order"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\xc1\x01", "tag"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\xf9\x3c\x00", "floating-point"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\xf7", "simple value"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\xf8\x20", "simple value"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\x62\xc3\x28", "UTF-8"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\x1c", "reserved"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\xff", "break"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64" + b"\x81" * 20 + b"\x00", "nested more than"),
    (bytes([0xA6]) + GOOD[1:] + b"\x18\x64\x9b" + (2**40).to_bytes(8, "big"), "past the end"),
])
def test_strict_cbor(data, message):
    with pytest.raises(ValueError, match=message):
        p256.PublicKey.from_cose(data)


def test_strict_cbor_controls_are_otherwise_valid():
    """The duplicate and unordered inputs above are what cbor2 reads happily: the
    refusal is ours, not a side effect of another defect."""
    dup = bytes([0xA6]) + GOOD[1:] + b"\x03\x26"
    assert cbor2.loads(dup) == key_map()
    unordered = bytes.fromhex("a5032601022001") + GOOD[7:]
    assert cbor2.loads(unordered) == key_map()
    nonminimal = swap_entry(GOOD, b"\x01\x02", b"\x01\x18\x02")
    assert cbor2.loads(nonminimal) == key_map()


# -- the COSE_Key rules --------------------------------------------------------------------


def without(m, label):
    m = dict(m)
    del m[label]
    return m


@pytest.mark.parametrize("m,message", [
    (without(key_map(), 1), "no kty"),
    (key_map(**{}) | {1: 1}, "kty 2"),
    (key_map() | {1: "EC2"}, "must be an int"),
    (without(key_map(), -1), "no crv"),
    (key_map() | {-1: 2}, "crv 1"),
    (key_map() | {3: -35}, "ES256"),
    (key_map() | {3: "ES256"}, "must be an int"),
    (without(key_map(), -2), "no x"),
    (without(key_map(), -3), "no y"),
    (key_map() | {-3: True}, "sign bit"),
    (key_map() | {-2: True}, r"x \(-2\) must be a byte string, not bool"),
    (key_map() | {-2: False, -3: True}, r"x \(-2\) must be a byte string, not bool"),
    (key_map() | {-2: X[1:]}, "32 bytes"),
    (key_map() | {-3: Y + b"\x00"}, "32 bytes"),
    (key_map() | {-2: "x"}, "byte string"),
    (key_map() | {-4: b"\x01" * 32}, "private key"),
    (key_map() | {2: "kid"}, "kid"),
    (key_map() | {5: 5}, "Base IV"),
    (key_map() | {4: []}, "key_ops"),
    (key_map() | {4: [b"verify"]}, "key_ops"),
    (key_map() | {b"label": 1}, "label must be an int or a text string"),
    (key_map() | {-3: bytes(32)}, "public key"),  # (x, 0) is not on the curve
])
def test_cose_key_rules(m, message):
    with pytest.raises(ValueError, match=message):
        p256.PublicKey.from_cose(m)
    with pytest.raises(ValueError, match=message):
        p256.PublicKey.from_cose(enc(m))


def test_bool_is_not_an_int_label_or_value():
    m = {True: 2, 3: -7, -1: 1, -2: X, -3: Y}  # True == 1 in Python: must not pass as kty
    with pytest.raises(ValueError, match="label must be an int"):
        p256.PublicKey.from_cose(m)
    with pytest.raises(ValueError, match="label must be an int"):
        p256.PublicKey.from_cose(cbor2.dumps(m, canonical=True))  # f5 02: true, not 1
    with pytest.raises(ValueError, match="must be an int"):
        p256.PublicKey.from_cose(key_map() | {1: True})


@pytest.mark.parametrize("value", ["pQECAy", 5, None, [1, 2]])
def test_type_errors(value):
    with pytest.raises(TypeError, match="CBOR bytes or a mapping"):
        p256.PublicKey.from_cose(value)


def test_loads_dumps_agree_with_cbor2():
    values = [0, 23, 24, 255, 256, 65535, 65536, 2**32, 2**64 - 1, -1, -24, -25, -2**64,
              b"", b"\x00" * 300, "", "é" * 40, [], [1, [2, [3]]], {}, {1: {"a": b"b"}},
              True, False, None]
    for v in values:
        data = _cose.dumps(v)
        assert cbor2.loads(data) == v
        got = _cose.loads(data)
        assert (dict(got) if isinstance(got, _cose.CborMap) else got) == v or isinstance(v, dict)
    with pytest.raises(ValueError):
        _cose.dumps(2**64)


# -- WebAuthn: assertions made by real authenticators --------------------------------------
# From duo-labs/py_webauthn tests/test_verify_authentication_response.py (an ES256
# credential registered and used through a browser against http://localhost:5000).

REAL = [
    dict(
        cose="pQECAyYgASFYIIeDTe-gN8A-zQclHoRnGFWN8ehM1b7yAsa8I8KIvmplIlgg4nFGT5px8o6gpPZZhO01wdy9crDSA_Ngtkx0vGpvPHI",
        auth="SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MBAAAATg",
        client="eyJjaGFsbGVuZ2UiOiJ4aTMwR1BHQUZZUnhWRHBZMXNNMTBEYUx6VlFHNjZudi1fN1JVYXpIMHZJMll2RzhMWWdERW52TjVmWlpOVnV2RUR1TWk5dGUzVkxxYjQyTjBma0xHQSIsImNsaWVudEV4dGVuc2lvbnMiOnt9LCJoYXNoQWxnb3JpdGhtIjoiU0hBLTI1NiIsIm9yaWdpbiI6Imh0dHA6Ly9sb2NhbGhvc3Q6NTAwMCIsInR5cGUiOiJ3ZWJhdXRobi5nZXQifQ",
        sig="MEUCIGisVZOBapCWbnJJvjelIzwpixxIwkjCCb5aCHafQu68AiEA88v-2pJNNApPFwAKFiNuf82-2hBxYW5kGwVweeoxCwo",
        challenge="xi30GPGAFYRxVDpY1sM10DaLzVQG66nv-_7RUazH0vI2YvG8LYgDEnvN5fZZNVuvEDuMi9te3VLqb42N0fkLGA",
        count=78, flags=0x01),
    dict(
        cose="pQECAyYgASFYIFm1Py-FzzFOuwXbRbTr95SiDxuB1BkZsEEJxFhquzqkIlggL1U1T713Jo_2muzhXvpbwRNdoAs8CYK6PflvY1MBdCI",
        auth="SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFYN-Mog",
        client="eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiNnpyU1JYOEN4d1BTWEVBclh5WEwydHBiNnJCN1N0YXIwckxWSWo1cnZmNzRtWktGNWlyNzE1WG1nejV0QV9HeUhleE40b1hmclE4ODlBclZDTGFSZEEiLCJvcmlnaW4iOiJodHRwOi8vbG9jYWxob3N0OjUwMDAiLCJjcm9zc09yaWdpbiI6ZmFsc2V9",
        sig="MEUCIQDBqeI274exaKWGQz37g7yo1--TVcZSCcYVftZ1AnEJkQIgNw-nlx-_U9rVfFfER8oX6BlYZTuPFyGaL_wCDY23s0E",
        challenge="6zrSRX8CxwPSXEArXyXL2tpb6rB7Star0rLVIj5rvf74mZKF5ir715Xmgz5tA_GyHexN4oXfrQ889ArVCLaRdA",
        count=1625263266, flags=0x05),
]


def _expect(case, **changes):
    """The relying party's expectations for a REAL case, with changes."""
    args = dict(rp_id="localhost", origin="http://localhost:5000",
                challenge=b64url(case["challenge"]), require_user_verification=False,
                sign_count=case["count"] - 1)
    args.update(changes)
    return args


@pytest.mark.parametrize("case", REAL, ids=["sign-count-78", "uv"])
def test_real_authenticator_assertion(case):
    cose, auth, client, sig = (b64url(case[k]) for k in ("cose", "auth", "client", "sig"))
    pk = p256.PublicKey.from_cose(cose)
    assert pk.to_cose() == cose  # authenticators write exactly p256's encoding
    assert p256.PublicKey.from_cose(cbor2.loads(cose)) == pk
    assert webauthn.verify_assertion(pk, auth, client, sig, **_expect(case)) == case["count"]
    assert webauthn.verify_assertion(pk, auth, client, sig, **_expect(
        case, origin=["https://example.com", "http://localhost:5000"])) == case["count"]
    assert webauthn.verify_assertion_signature(pk, auth, client, sig) is True
    ad = webauthn.parse_authenticator_data(auth)
    assert ad.rp_id_hash == hashlib.sha256(b"localhost").digest()
    assert (ad.sign_count, ad.flags) == (case["count"], case["flags"])
    assert (ad.aaguid, ad.credential_id, ad.credential_public_key, ad.extensions) == (None,) * 4
    assert ad.user_present and ad.user_verified == bool(case["flags"] & 4)
    data = json.loads(client)
    assert data["type"] == "webauthn.get" and data["origin"] == "http://localhost:5000"
    assert data["challenge"] == case["challenge"]
    # the same check written out: authenticatorData || SHA-256(clientDataJSON), DER
    assert pk.verify(sig, auth + hashlib.sha256(client).digest())
    # user verification: required and present only in the second assertion
    if case["flags"] & 4:
        assert webauthn.verify_assertion(pk, auth, client, sig, **_expect(
            case, require_user_verification=True)) == case["count"]
    else:
        with pytest.raises(webauthn.AssertionRejected, match="UV flag") as info:
            webauthn.verify_assertion(pk, auth, client, sig, **_expect(
                case, require_user_verification=True))
        assert info.value.step == "UV"


@pytest.mark.parametrize("case", REAL, ids=["sign-count-78", "uv"])
def test_real_assertion_tampered(case):
    cose, auth, client, sig = (b64url(case[k]) for k in ("cose", "auth", "client", "sig"))
    pk = p256.PublicKey.from_cose(cose)
    check = webauthn.verify_assertion_signature
    flipped_flags = auth[:32] + bytes([auth[32] ^ 0x04]) + auth[33:]
    assert not check(pk, flipped_flags, client, sig)
    assert not check(pk, auth, client.replace(b"localhost", b"evil.test"), sig)
    assert not check(pk, auth, client, sig[:-1] + bytes([sig[-1] ^ 1]))
    assert not check(pk, auth, client, sig + b"\x00")  # not strict DER
    other = p256.PublicKey.from_cose(b64url(REAL[1 - REAL.index(case)]["cose"]))
    assert not check(other, auth, client, sig)
    # the raw r||s form is not what WebAuthn uses
    assert not check(pk, auth, client, bytes(64))
    for bad_sig, bad_pk in ((sig[:-1] + bytes([sig[-1] ^ 1]), pk), (sig, other), (bytes(64), pk)):
        with pytest.raises(webauthn.AssertionRejected) as info:
            webauthn.verify_assertion(bad_pk, auth, client, bad_sig, **_expect(case))
        assert info.value.step == "signature"


# Synthetic assertions, signed by a test credential, each with one field wrong: the
# cases which the signature-only check passes and the relying party's check refuses.
CRED = p256.PrivateKey.from_int(0x5EED)
RP_ID, ORIGIN, CHALLENGE = "example.com", "https://example.com", b"\x01" * 32


def assertion(flags=0x05, count=7, rp_id=RP_ID, extra=b"", **client_members):
    """(authenticatorData, clientDataJSON, signature) with these fields."""
    auth = hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + count.to_bytes(4, "big") + extra
    members = {"type": "webauthn.get", "challenge": base64.urlsafe_b64encode(CHALLENGE).rstrip(b"=").decode(),
               "origin": ORIGIN, "crossOrigin": False}
    members.update(client_members)
    client = json.dumps({k: v for k, v in members.items() if v is not None}).encode()
    return auth, client, CRED.sign(auth + hashlib.sha256(client).digest())


def rp_check(auth, client, sig, **changes):
    args = dict(rp_id=RP_ID, origin=ORIGIN, challenge=CHALLENGE, require_user_verification=True,
                sign_count=5)
    args.update(changes)
    return webauthn.verify_assertion(CRED.public_key, auth, client, sig, **args)


HOSTILE_ASSERTIONS = {
    "UP not set": (assertion(flags=0x04), {}, "UP"),
    "UV not set, but required": (assertion(flags=0x01), {}, "UV"),
    "another RP's rpIdHash": (assertion(rp_id="evil.example"), {}, "rpIdHash"),
    "type webauthn.create": (assertion(type="webauthn.create"), {}, "type"),
    "no type": (assertion(type=None), {}, "type"),
    "a foreign origin": (assertion(origin="https://evil.example"), {}, "origin"),
    "another challenge": (assertion(challenge="AAAA"), {}, "challenge"),
    "challenge not a string": (assertion(challenge=5), {}, "challenge"),
    "cross-origin, not expected": (assertion(crossOrigin=True, topOrigin="https://top.example"), {},
                                   "topOrigin"),
    "an unexpected top origin": (assertion(crossOrigin=True, topOrigin="https://evil.example"),
                                 {"top_origin": "https://top.example"}, "topOrigin"),
    "BS without BE": (assertion(flags=0x15), {}, "BS"),
    "bytes after the fixed fields without AT or ED": (assertion(extra=b"\xa0"), {}, "authenticatorData"),
    "a counter that went back to 0": (assertion(count=0), {"sign_count": 77}, "signCount"),
    "a counter that did not move": (assertion(count=77), {"sign_count": 77}, "signCount"),
    "a counter that went back": (assertion(count=76), {"sign_count": 77}, "signCount"),
}


def test_the_synthetic_assertion_passes():
    auth, client, sig = assertion()
    assert rp_check(auth, client, sig) == 7
    assert rp_check(*assertion(count=0), sign_count=0) == 0  # no counter: nothing to compare
    assert rp_check(*assertion(count=1), sign_count=0) == 1
    assert rp_check(*assertion(flags=0x1D)) == 7  # BE and BS: a synced passkey
    framed = assertion(crossOrigin=True, topOrigin="https://top.example")
    assert rp_check(*framed, top_origin=["https://top.example"]) == 7
    assert rp_check(*assertion(flags=0x01), require_user_verification=False) == 7


@pytest.mark.parametrize("case", sorted(HOSTILE_ASSERTIONS))
def test_hostile_assertions_are_refused_at_their_step(case):
    (auth, client, sig), changes, step = HOSTILE_ASSERTIONS[case]
    # the signature alone is valid: this is what verify_assertion_signature accepts
    assert webauthn.verify_assertion_signature(CRED.public_key, auth, client, sig) is True
    with pytest.raises(webauthn.AssertionRejected) as info:
        rp_check(auth, client, sig, **changes)
    assert info.value.step == step, info.value
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, webauthn.PossibleClone) is (step == "signCount")


def test_client_data_is_read_strictly():
    auth, _, _ = assertion()
    for text, fragment in ((b'{"type":"webauthn.get","type":"webauthn.get"}', "duplicate member"),
                           (b"[]", "must be a JSON object"), (b"\xff", "not UTF-8")):
        sig = CRED.sign(auth + hashlib.sha256(text).digest())
        with pytest.raises(webauthn.AssertionRejected, match=fragment) as info:
            rp_check(auth, text, sig)
        assert info.value.step == "clientDataJSON"


def test_webauthn_round_trip_as_an_authenticator_would():
    sk = p256.PrivateKey.generate()
    cose = sk.public_key.to_cose()
    auth = hashlib.sha256(b"example.com").digest() + b"\x05" + (7).to_bytes(4, "big")
    client = b'{"type":"webauthn.get","challenge":"AAAA","origin":"https://example.com"}'
    sig = sk.sign(auth + hashlib.sha256(client).digest())
    pk = p256.PublicKey.from_cose(cose)
    assert webauthn.verify_assertion_signature(pk, auth, client, sig)
    assert webauthn.verify_assertion(pk, auth, client, sig, rp_id="example.com",
                                     origin="https://example.com", challenge=b"\x00\x00\x00",
                                     require_user_verification=True, sign_count=6) == 7


def test_webauthn_bad_arguments():
    case = REAL[0]
    pk = p256.PublicKey.from_cose(b64url(case["cose"]))
    with pytest.raises(ValueError, match="at least 37"):
        webauthn.verify_assertion_signature(pk, b"\x00" * 36, b"{}", b"")
    with pytest.raises(ValueError, match="at least 37"):
        webauthn.parse_authenticator_data(b"")
    with pytest.raises(TypeError, match="PublicKey"):
        webauthn.verify_assertion_signature(b64url(case["cose"]), b"\x00" * 37, b"{}", b"")
    with pytest.raises(TypeError, match="client_data_json"):
        webauthn.verify_assertion_signature(pk, b"\x00" * 37, "{}", b"")
    auth, client, sig = (b64url(case[k]) for k in ("auth", "client", "sig"))
    # the relying party's expectations are required, by keyword: no unsafe default
    with pytest.raises(TypeError):
        webauthn.verify_assertion(pk, auth, client, sig)  # type: ignore[call-arg]
    for changes, fragment in (({"rp_id": b"localhost"}, "rp_id"), ({"origin": [b"x"]}, "origin"),
                              ({"sign_count": True}, "sign_count"),
                              ({"require_user_verification": 1}, "require_user_verification"),
                              ({"challenge": "text"}, "challenge")):
        with pytest.raises(TypeError, match=fragment):
            webauthn.verify_assertion(pk, auth, client, sig, **_expect(case, **changes))
    # a value out of range is a ValueError naming the argument and the value
    with pytest.raises(ValueError, match="sign_count .* not -1"):
        webauthn.verify_assertion(pk, auth, client, sig, **_expect(case, sign_count=-1))


def test_one_key_order_for_the_whole_item():
    m = key_map()
    m[24] = {24: 0, -1: 0}
    length_first, bytewise = enc(m), _cose.dumps(m)
    assert p256.PublicKey.from_cose(length_first) == PK
    assert p256.PublicKey.from_cose(bytewise) == PK
    inner_lf, inner_bw = bytes.fromhex("a2200018180 0".replace(" ", "")), bytes.fromhex("a2181800 2000".replace(" ", ""))
    mixed = length_first.replace(inner_lf, inner_bw)
    assert mixed != length_first and cbor2.loads(mixed) == m
    with pytest.raises(ValueError, match="same rule for every map"):
        p256.PublicKey.from_cose(mixed)


def test_read_item_delimits_one_item_inside_a_buffer():
    """read_item reads the item where it starts and says where it ends: what follows is
    left alone, and its messages name the item and give offsets into the whole buffer."""
    buf = b"prefix" + GOOD + b"\xa1\x61a\x01" + b"rest"
    value, end = _cose.read_item(buf, 6, "COSE_Key")
    assert dict(value) == key_map() and end == 6 + len(GOOD)
    value, after = _cose.read_item(buf, end, "extensions")
    assert dict(value) == {"a": 1} and buf[after:] == b"rest"
    with pytest.raises(ValueError, match=r"^malformed the thing: non-minimal CBOR head for 1 \(offset 3\)"):
        _cose.read_item(b"abc\x18\x01", 3, "the thing")
    with pytest.raises(ValueError, match=r"byte string of 100 bytes \(offset 4\) runs past the end"):
        _cose.read_item(b"abc\xa1\x58\x64" + bytes(99), 3, "the thing")
    with pytest.raises(ValueError, match=r"data ends where a CBOR item was expected \(offset 3\)"):
        _cose.read_item(b"abc", 3, "the thing")


# -- the CBOR reader and writer against cbor2, on generated values -------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_leaves = (st.integers(-2**64, 2**64 - 1) | st.binary(max_size=40) | st.text(max_size=20)
           | st.booleans() | st.none())
_values = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.integers(-2**64, 2**64 - 1) | st.text(max_size=8), inner, max_size=4), max_leaves=12)


def plain(v):
    if isinstance(v, _cose.CborMap):
        return {plain(k): plain(x) for k, x in v}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


@settings(max_examples=300, deadline=None)
@given(_values)
def test_cbor_round_trips_with_cbor2(v):
    ours = _cose.dumps(v)
    assert cbor2.loads(ours) == v
    assert plain(_cose.loads(ours)) == v
    theirs = cbor2.dumps(v, canonical=True)  # length-first: accepted too
    assert plain(_cose.loads(theirs)) == v
    if len(ours) > 1:
        with pytest.raises(ValueError):
            _cose.loads(ours[:-1])
        with pytest.raises(ValueError, match="after the CBOR item"):
            _cose.loads(ours + b"\x00")

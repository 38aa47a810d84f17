"""Every secp256r1 Wycheproof file through the public API (PublicKey.verify, exchange).

One parametrized test per file kind; ids name the file and tcId. `valid` must verify /
agree, `invalid` must be rejected, `acceptable` must follow the policy written in
ACCEPTABLE_POLICY (and is recorded in the test report via record_property).
"""

import base64
import json

import pytest

import p256
from vectors_util import VECTORS, hash_name, spki_decode, wycheproof_params

ECDSA_DER = ["ecdsa_secp256r1_sha256_test.json", "ecdsa_secp256r1_sha512_test.json"]
ECDSA_P1363 = ["ecdsa_secp256r1_sha256_p1363_test.json", "ecdsa_secp256r1_sha512_p1363_test.json"]
ECDH = [
    "ecdh_secp256r1_test.json",
    "ecdh_secp256r1_ecpoint_test.json",
    "ecdh_secp256r1_pem_test.json",
    "ecdh_secp256r1_webcrypto_test.json",
]

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


@pytest.mark.parametrize("file_name,group,test", wycheproof_params(ECDSA_DER + ECDSA_P1363))
def test_ecdsa_verify(file_name, group, test):
    assert test["result"] in ("valid", "invalid")  # these files have no "acceptable" case
    pk = p256.PublicKey.from_bytes(bytes.fromhex(group["publicKey"]["uncompressed"]))
    curve, point = spki_decode(bytes.fromhex(group["publicKeyDer"]))
    assert curve == "P-256" and p256.PublicKey.from_bytes(point) == pk
    encoding = "raw" if "p1363" in file_name else "der"
    sig, msg = bytes.fromhex(test["sig"]), bytes.fromhex(test["msg"])
    got = pk.verify(sig, msg, hash=hash_name(group["sha"]), encoding=encoding)
    assert got is (test["result"] == "valid")


def _b64url(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def _pem_body(pem, label):
    lines = pem.strip().splitlines()
    if lines[0] != f"-----BEGIN {label}-----" or lines[-1] != f"-----END {label}-----":
        raise ValueError("bad PEM armor")
    return base64.b64decode("".join(lines[1:-1]), validate=True)


def _pkcs8_scalar(der):
    """The private scalar of a PKCS#8 P-256 key (a test helper until the key-formats issue)."""
    # SEQUENCE { INTEGER 0, SEQUENCE { ecPublicKey, prime256v1 }, OCTET STRING { ECPrivateKey } }
    prefix = bytes.fromhex("020100301306072a8648ce3d020106082a8648ce3d030107")
    assert der[0] == 0x30 and der[2:2 + len(prefix)] == prefix
    inner = der[2 + len(prefix):]
    assert inner[0] == 0x04
    ec = inner[2:]  # ECPrivateKey: SEQUENCE { INTEGER 1, OCTET STRING d, ... }
    assert ec[0] == 0x30 and ec[2:5] == b"\x02\x01\x01" and ec[5] == 0x04
    return ec[7:7 + ec[6]]


def _decode_public(encoding, public):
    if encoding == "asn":
        curve, point = spki_decode(bytes.fromhex(public))
    elif encoding == "pem":
        curve, point = spki_decode(_pem_body(public, "PUBLIC KEY"))
    elif encoding == "webcrypto":
        if public.get("kty") != "EC" or public.get("crv") != "P-256":
            raise ValueError("not a P-256 JWK")
        return p256.PublicKey.from_bytes(b"\x04" + _b64url(public["x"]) + _b64url(public["y"]))
    else:
        return p256.PublicKey.from_bytes(bytes.fromhex(public))
    if curve != "P-256":
        raise ValueError("key on " + curve)
    return p256.PublicKey.from_bytes(point)


def _decode_private(encoding, private):
    if encoding == "pem":
        d = _pkcs8_scalar(_pem_body(private, "PRIVATE KEY"))
    elif encoding == "webcrypto":
        d = _b64url(private["d"])
    else:
        d = bytes.fromhex(private)
    return p256.PrivateKey.from_int(int.from_bytes(d, "big"))


@pytest.mark.parametrize("file_name,group,test", wycheproof_params(ECDH))
def test_ecdh(file_name, group, test, record_property):
    sk = _decode_private(group["encoding"], test["private"])
    try:
        pk = _decode_public(group["encoding"], test["public"])
        shared = sk.exchange(pk)
    except ValueError:
        outcome = "rejected"
    else:
        outcome = "agree" if shared.hex() == test["shared"] else "WRONG RESULT"
    if test["result"] == "valid":
        assert outcome == "agree"
    elif test["result"] == "invalid":
        assert outcome == "rejected"
    else:
        policies = {ACCEPTABLE_POLICY[f] for f in test["flags"] if f in ACCEPTABLE_POLICY}
        assert len(policies) == 1, f"no single policy for flags {test['flags']}"
        record_property("acceptable", f"{'/'.join(test['flags'])}: {outcome}")
        assert outcome == policies.pop()


def test_rfc6979_vectors():
    """RFC 6979 A.2.5 through sign(..., deterministic=True); SHA-1 is not offered."""
    with open(VECTORS / "rfc6979_p256.json") as f:
        v = json.load(f)
    sk = p256.PrivateKey.from_bytes(bytes.fromhex(v["private_key"]))
    assert sk.public_key.to_bytes().hex() == v["public_key"]["uncompressed"]
    done = 0
    for t in v["tests"]:
        msg = t["message"].encode()
        if t["hash"] == "sha1":
            with pytest.raises(ValueError):
                sk.sign(msg, hash="sha1", deterministic=True)
            continue
        der = sk.sign(msg, hash=t["hash"], deterministic=True)
        raw = sk.sign(msg, hash=t["hash"], encoding="raw", deterministic=True)
        assert der.hex() == t["sig_der"]
        assert raw.hex() == t["sig_raw"] == t["r"] + t["s"]
        assert sk.public_key.verify(der, msg, hash=t["hash"])
        if t["hash"] == "sha256":
            digest = bytes.fromhex(t["digest"])
            assert sk.sign_digest(digest, deterministic=True).hex() == t["sig_der"]
        done += 1
    assert done == 8

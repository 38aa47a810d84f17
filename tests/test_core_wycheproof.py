# SPDX-License-Identifier: Apache-2.0
"""Every secp256r1 Wycheproof file through the public API (PublicKey.verify, exchange).

One parametrized test per file kind; ids name the file and tcId. `valid` must verify /
agree, `invalid` must be rejected, `acceptable` must follow the policy written in
ACCEPTABLE_POLICY (and is recorded in the test report via record_property).
"""

import json

import pytest

import p256
from vectors_util import VECTORS, hash_name, load_wycheproof, spki_decode, wycheproof_params

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
    encoding = "raw" if "p1363" in file_name else "der"
    sig, msg = bytes.fromhex(test["sig"]), bytes.fromhex(test["msg"])
    got = pk.verify(sig, msg, hash=hash_name(group["sha"]), encoding=encoding)
    assert got is (test["result"] == "valid")


def _ecdsa_groups():
    for file_name in ECDSA_DER + ECDSA_P1363:
        for i, group in enumerate(load_wycheproof(file_name)["testGroups"]):
            yield pytest.param(group, id=f"{file_name}:group{i}")


@pytest.mark.parametrize("group", list(_ecdsa_groups()))
def test_ecdsa_group_keys_through_parsers(group):
    """Every ECDSA group's key, in each encoding the file gives, loads through the public
    parsers as the same key; what we write is what the file has (the SPKI helper of
    vectors_util agrees too)."""
    pk = p256.PublicKey.from_bytes(bytes.fromhex(group["publicKey"]["uncompressed"]))
    der = bytes.fromhex(group["publicKeyDer"])
    assert p256.PublicKey.from_der(der) == pk
    assert p256.PublicKey.from_pem(group["publicKeyPem"]) == pk
    assert pk.to_der() == der and pk.to_pem().decode() == group["publicKeyPem"]
    if "publicKeyJwk" in group:  # carries a "kid", which is ignored
        assert p256.PublicKey.from_jwk(group["publicKeyJwk"]) == pk
    curve, point = spki_decode(der)
    assert curve == "P-256" and p256.PublicKey.from_bytes(point) == pk


# The ECDH files' keys go through the public parsers: public keys as SPKI DER ("asn"), PEM
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


@pytest.mark.parametrize("file_name,group,test", wycheproof_params(ECDH))
def test_ecdh(file_name, group, test, record_property):
    # Every private key in these files is valid: it must load.
    sk = _PRIVATE_PARSERS[group["encoding"]](test["private"])
    # The public key is where the files put their traps; only the parsers may reject
    # (with ValueError), a PublicKey object once made is always a valid point.
    try:
        pk = _PUBLIC_PARSERS[group["encoding"]](test["public"])
    except ValueError as exc:
        outcome, reason = "rejected", str(exc)
    else:
        shared = sk.exchange(pk)
        outcome = "agree" if shared.hex() == test["shared"] else "WRONG RESULT"
        reason = ""
    if test["result"] == "valid":
        assert outcome == "agree", reason
    elif test["result"] == "invalid":
        assert outcome == "rejected"
    else:
        policies = {ACCEPTABLE_POLICY[f] for f in test["flags"] if f in ACCEPTABLE_POLICY}
        assert len(policies) == 1, f"no single policy for flags {test['flags']}"
        record_property("acceptable", f"{'/'.join(test['flags'])}: {outcome} {reason}")
        assert outcome == policies.pop(), reason


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

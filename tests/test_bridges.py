# SPDX-License-Identifier: Apache-2.0
"""Bridges to pyca/cryptography: PrivateKey/PublicKey.from_cryptography and
to_cryptography round trips both ways, interop (sign on one side, verify on the other,
ECDH agreeing), the refusals (another curve, another key type, a public key for a
private one), and the ImportError when cryptography is absent."""

from __future__ import annotations

import ast
import hashlib
import os
import subprocess
import sys

import pytest

import p256

pytest.importorskip("cryptography")
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa, utils  # noqa: E402
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat  # noqa: E402

_X962_UNCOMPRESSED = (Encoding.X962, PublicFormat.UncompressedPoint)


def test_private_round_trips_both_ways():
    for _ in range(20):
        theirs = ec.generate_private_key(ec.SECP256R1())
        ours = p256.PrivateKey.from_cryptography(theirs)
        assert ours.to_int() == theirs.private_numbers().private_value
        assert ours.public_key.to_bytes() == theirs.public_key().public_bytes(
            *_X962_UNCOMPRESSED)
        back = ours.to_cryptography()
        assert isinstance(back, ec.EllipticCurvePrivateKey)
        assert isinstance(back.curve, ec.SECP256R1)
        assert back.private_numbers() == theirs.private_numbers()

        sk = p256.PrivateKey.generate()
        assert p256.PrivateKey.from_cryptography(sk.to_cryptography()).to_bytes() == sk.to_bytes()


def test_public_round_trips_both_ways():
    for _ in range(20):
        theirs = ec.generate_private_key(ec.SECP256R1()).public_key()
        ours = p256.PublicKey.from_cryptography(theirs)
        assert (ours.x, ours.y) == (theirs.public_numbers().x, theirs.public_numbers().y)
        back = ours.to_cryptography()
        assert isinstance(back, ec.EllipticCurvePublicKey)
        assert back.public_numbers() == theirs.public_numbers()
        pk = p256.PrivateKey.generate().public_key
        assert p256.PublicKey.from_cryptography(pk.to_cryptography()) == pk
    # edge scalars: 1 and n - 1
    for d in (1, 2, p256.N - 1):
        sk = p256.PrivateKey.from_int(d)
        assert sk.to_cryptography().private_numbers().private_value == d
        assert p256.PublicKey.from_cryptography(sk.to_cryptography().public_key()) == sk.public_key


@pytest.mark.parametrize("hash_name, algorithm", [
    ("sha256", hashes.SHA256()), ("sha384", hashes.SHA384()), ("sha512", hashes.SHA512()),
    ("sha224", hashes.SHA224()), ("sha3_256", hashes.SHA3_256())])
def test_interop_sign_and_verify_across_the_bridge(hash_name, algorithm):
    sk = p256.PrivateKey.generate()
    their_sk = sk.to_cryptography()
    their_pk = sk.public_key.to_cryptography()
    for i in range(5):
        msg = b"interop %d" % i
        # p256 signs, cryptography verifies (raises InvalidSignature if not)
        for low_s in (False, True):
            their_pk.verify(sk.sign(msg, hash=hash_name, low_s=low_s), msg, ec.ECDSA(algorithm))
        raw = sk.sign(msg, hash=hash_name, encoding="raw")
        their_pk.verify(utils.encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                                   int.from_bytes(raw[32:], "big")),
                        msg, ec.ECDSA(algorithm))
        # cryptography signs, p256 verifies through the bridged public key
        sig = their_sk.sign(msg, ec.ECDSA(algorithm))
        pk = p256.PublicKey.from_cryptography(their_sk.public_key())
        assert pk.verify(sig, msg, hash=hash_name)
        assert not pk.verify(sig, msg + b"!", hash=hash_name)  # negative control
        # and a key recovered from cryptography's signature is among the candidates
        digest = hashlib.new(hash_name, msg).digest()
        assert pk in p256.PublicKey.recover_candidates(sig, digest, hash=hash_name, encoding="der")


def test_ecdh_agrees_across_the_bridge():
    ours = p256.PrivateKey.generate()
    theirs = ec.generate_private_key(ec.SECP256R1())
    a = ours.exchange(p256.PublicKey.from_cryptography(theirs.public_key()))
    b = theirs.exchange(ec.ECDH(), ours.public_key.to_cryptography())
    c = p256.PrivateKey.from_cryptography(theirs).exchange(ours.public_key)
    assert a == b == c


@pytest.mark.parametrize("curve", [ec.SECP384R1(), ec.SECP521R1(), ec.SECP256K1(),
                                   ec.SECP224R1()])
def test_another_curve_is_a_value_error_naming_it(curve):
    try:
        key = ec.generate_private_key(curve)
    except Exception:  # a curve this OpenSSL build lacks
        pytest.skip("%s not supported by this cryptography" % curve.name)
    with pytest.raises(ValueError, match=r"on %s, not P-256" % curve.name):
        p256.PrivateKey.from_cryptography(key)
    with pytest.raises(ValueError, match=r"on %s, not P-256" % curve.name):
        p256.PublicKey.from_cryptography(key.public_key())


def test_another_type_is_a_type_error_naming_it():
    ed = ed25519.Ed25519PrivateKey.generate()
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    for obj, name in [(ed, "Ed25519PrivateKey"), (rsa_key, "RSAPrivateKey"), (b"\x01" * 32, "bytes"),
                      (None, "NoneType"), (p256.PrivateKey.generate(), "p256._keys.PrivateKey")]:
        with pytest.raises(TypeError, match="not .*%s" % name):
            p256.PrivateKey.from_cryptography(obj)
    for obj, name in [(ed.public_key(), "Ed25519PublicKey"), (rsa_key.public_key(), "RSAPublicKey"),
                      (p256.PrivateKey.generate().public_key, "p256._keys.PublicKey")]:
        with pytest.raises(TypeError, match="not .*%s" % name):
            p256.PublicKey.from_cryptography(obj)
    with pytest.raises(TypeError, match="use PublicKey.from_cryptography"):
        p256.PrivateKey.from_cryptography(ec_key.public_key())
    with pytest.raises(TypeError, match=r"pass its \.public_key\(\)"):
        p256.PublicKey.from_cryptography(ec_key)


def test_missing_cryptography_is_an_import_error(monkeypatch):
    """Every cryptography module hidden: each bridge says how to install it."""
    for name in [m for m in sys.modules if m == "cryptography" or m.startswith("cryptography.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    sk = p256.PrivateKey.generate()
    calls = [("PrivateKey.from_cryptography", lambda: p256.PrivateKey.from_cryptography(object())),
             ("PrivateKey.to_cryptography", sk.to_cryptography),
             ("PublicKey.from_cryptography", lambda: p256.PublicKey.from_cryptography(object())),
             ("PublicKey.to_cryptography", sk.public_key.to_cryptography)]
    for caller, call in calls:
        with pytest.raises(ImportError, match=r"%s needs the cryptography package: "
                                              r"pip install cryptography" % caller):
            call()


def test_importing_p256_does_not_import_cryptography():
    code = ("import sys, p256; sk = p256.PrivateKey.generate(); sk.sign(b'm'); "
            "assert not any(m.split('.')[0] == 'cryptography' for m in sys.modules), 'imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=os.path.dirname(__file__))


def test_bridge_uses_no_private_attribute_of_cryptography():
    """Through bytes and cryptography's public API only: no `obj._x` in _bridge."""
    from p256 import _bridge

    with open(_bridge.__file__, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    private = [n.attr for n in ast.walk(tree)
               if isinstance(n, ast.Attribute) and n.attr.startswith("_")
               and not n.attr.startswith("__")]
    assert private == []

# SPDX-License-Identifier: Apache-2.0
"""Negative twin of usage.py: wrong calls that mypy --strict must report.

Each wrong line ends with `# E: <error code>[, <code>...]`: tests/test_typing.py checks that
mypy reports exactly those codes on exactly those lines, and nothing anywhere else. Never
run (it would fail at the first line of bad()).
"""

from __future__ import annotations

import hashlib

import p256
from p256 import PrivateKey, PublicKey
from p256 import reference as ref


def needs_private(sk: PrivateKey) -> bytes:
    return sk.sign(b"m")


def bad(sk: PrivateKey, pk: PublicKey) -> None:
    sig = sk.sign(b"m")
    digest = hashlib.sha256(b"m").digest()
    # JWS and WebAuthn: bytes-like, not text.
    p256.jws.sign("text", sk)  # E: arg-type
    p256.webauthn.parse_authenticator_data("00" * 37)  # E: arg-type
    p256.webauthn.verify_registration(b"", b"", rp_id="a", origin="o", challenge=b"c")  # E: call-arg
    name: p256.HashName = "md5"  # E: assignment
    # Keys.
    PrivateKey.from_bytes("00" * 32)  # E: arg-type
    PrivateKey.from_int(b"\x01" * 32)  # E: arg-type
    PublicKey.from_xy(pk.x, str(pk.y))  # E: arg-type
    pk.to_bytes(compressed="yes")  # E: arg-type
    sk.public_key()  # E: operator
    pk.x.decode()  # E: attr-defined
    d: str = sk.to_bytes()  # E: assignment
    # The group: a Scalar is made from an int, never used as one.
    p256.Point.generator() * 5  # E: operator
    p256.Scalar.from_int("5")  # E: arg-type
    p256.Scalar.random() + 1  # E: operator
    p256.multi_mult([1], [p256.Point.generator()])  # E: list-item
    p256.PublicKey.from_point(pk)  # E: arg-type
    # Signing and verifying.
    sk.sign("text")  # E: arg-type
    sk.sign(b"m", hash="md5")  # E: arg-type
    sk.sign(b"m", hash="SHA256")  # E: arg-type
    sk.sign(b"m", hash=None)  # E: arg-type
    sk.sign(b"m", encoding="pem")  # E: arg-type
    sk.sign(b"m", deterministic="yes")  # E: arg-type
    sk.sign(b"m", "sha256")  # E: misc
    sk.sign_digest(digest, hash="md5")  # E: arg-type
    sk.sign_digest("ab" * 32)  # E: arg-type
    pk.verify(sig, "m")  # E: arg-type
    pk.verify(sig, b"m", encoding="jws")  # E: arg-type
    pk.verify(sig, b"m", hash=None)  # E: arg-type
    pk.verify_digest(sig, digest, hash="sha1")  # E: arg-type
    pk.sign(b"m")  # E: attr-defined
    needs_private(pk)  # E: arg-type
    sk.exchange(sk)  # E: arg-type
    pk.verify(sig, b"m").hex()  # E: attr-defined
    as_bytes: bytes = pk.verify(sig, b"m")  # E: assignment
    # Formats.
    sk.to_der(format="pkcs1")  # E: arg-type
    sk.to_pem(format="PKCS8")  # E: arg-type
    sk.to_pem(password=123)  # E: arg-type
    PrivateKey.from_der(b"", password=["pw"])  # E: arg-type
    PrivateKey.from_der("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg")  # E: arg-type
    PublicKey.from_jwk(42)  # E: arg-type
    jwk: dict[str, int] = sk.to_jwk()  # E: assignment
    pem: str = pk.to_pem()  # E: assignment
    # Batch and P256VERIFY.
    p256.verify_many([(pk, sig)])  # E: list-item
    p256.verify_many([(sk, sig, b"m")])  # E: list-item
    p256.verify_many([(pk, sig, b"m")], hash="md5")  # E: arg-type
    p256.verify_many([(pk, sig, b"m")], threads="4")  # E: arg-type
    flags: list[bytes] = p256.verify_many([(pk, sig, b"m")])  # E: assignment
    p256.p256verify("00" * 160)  # E: arg-type
    ok: bool = p256.p256verify(b"")  # E: assignment
    p256.p256verify_many(["00" * 160])  # E: list-item
    oks: list[bool] = p256.p256verify_many([b""])  # E: assignment
    engine: int = p256.batch_backend()  # E: assignment
    p256.sign_many([(pk, b"m")])  # E: list-item
    p256.exchange_many([(sk, sk)])  # E: list-item
    p256.scalar_base_mult_many(["00" * 32])  # E: list-item
    PrivateKey.generate_many("3")  # E: arg-type
    made: list[PublicKey] = PrivateKey.generate_many(2)  # E: assignment
    p256.__version__ + 1  # E: operator
    # Key recovery and low-s.
    PublicKey.recover(sig, digest, "0")  # E: arg-type
    PublicKey.recover(sig, digest, 0, encoding="jws")  # E: arg-type
    PublicKey.recover_candidates("ab" * 32, digest)  # E: arg-type
    key: PublicKey = PublicKey.recover_candidates(sig, digest)  # E: assignment
    sk.sign(b"m", low_s="yes")  # E: arg-type
    pk.verify(sig, b"m", low_s=1.0)  # E: arg-type
    one: bytes = sk.sign_recoverable(b"m")  # E: assignment
    p256.normalize_s(sig, encoding="p1363")  # E: arg-type
    pk.recover(sig, digest)  # E: call-arg
    # Precomputed keys.
    pk.precompute(window="7")  # E: arg-type
    pk.precompute(7)  # E: misc
    flag: str = pk.is_precomputed  # E: assignment
    p256.PublicKeyCache(max_keys=None)  # E: arg-type
    p256.PublicKeyCache().get(1)  # E: arg-type
    # The reference module.
    ref.P256.scalar_base_mult(b"\x01")  # E: arg-type
    ref.P256.is_on_curve(pk.x, None)  # E: arg-type
    ref.ecdsa_verify(ref.P256, None, digest, 1, 1)  # E: arg-type
    r, s, t = ref.ecdsa_sign(ref.P256, 1, digest)  # E: misc
    ref.ecdh(ref.P256, sk, (pk.x, pk.y))  # E: arg-type
    point: tuple[int, int] = ref.P256.scalar_base_mult(1)  # E: assignment
    ref.hash_to_curve("msg", b"dst")  # E: arg-type
    maybe: tuple[int, int] = ref.hash_to_curve(b"msg", b"dst")  # E: assignment
    # Hashing to the group.
    p256.hash_to_curve("msg", b"dst")  # E: arg-type
    p256.encode_to_curve(b"msg", "dst")  # E: arg-type
    p256.expand_message_xmd(b"msg", b"dst", "32")  # E: arg-type
    p256.hash_to_scalar(b"msg", b"dst").to_bytes(32)  # E: call-arg
    uniform: str = p256.expand_message_xmd(b"msg", b"dst", 32)  # E: assignment
    # OPRF.
    p256.oprf.Client("0")  # E: arg-type
    p256.oprf.Server(p256.oprf.OPRF, b"\x01" * 32)  # E: arg-type
    p256.oprf.Client(p256.oprf.OPRF).blind("text")  # E: arg-type
    p256.oprf.Client(p256.oprf.OPRF).blind(b"x", blind=5)  # E: arg-type
    p256.oprf.derive_key_pair(b"seed", b"info")  # E: call-arg
    outs: bytes = p256.oprf.Server(p256.oprf.OPRF, p256.hash_to_scalar(b"k", b"d")).evaluate(b"x", b"i").hex()  # E: assignment

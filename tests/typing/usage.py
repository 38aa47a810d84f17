# SPDX-License-Identifier: Apache-2.0
"""A typed program using the whole public API (the API contract) as a user would.

tests/test_typing.py runs mypy --strict on it (it must be clean) and runs it (it must
work): assert_type pins each result to its precise type, so an annotation that slips to
Any or to a wider type fails the check. Its negative twin is usage_bad.py.
"""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING, Iterable, List, Literal, Optional, Tuple

import p256
from p256 import PrivateKey, PublicKey
from p256 import reference as ref

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:  # no runtime dependency: at run time assert_type only hands its value back

    def assert_type(value, _type):
        return value


Hash = Literal["sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"]
HASHES: Tuple[Hash, ...] = ("sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_384",
                            "sha3_512")
Encoding = Literal["der", "raw"]


def keys() -> tuple[PrivateKey, PublicKey]:
    sk = PrivateKey.generate()
    assert_type(sk, PrivateKey)
    d = sk.to_bytes()
    assert_type(d, bytes)
    assert_type(sk.to_int(), int)
    assert PrivateKey.from_bytes(d).to_int() == sk.to_int()
    assert PrivateKey.from_bytes(bytearray(d)).to_bytes() == d  # any bytes-like
    assert PrivateKey.from_bytes(memoryview(d)).to_bytes() == d
    assert PrivateKey.from_int(sk.to_int()).to_bytes() == d
    pk = sk.public_key
    assert_type(pk, PublicKey)

    sec1 = pk.to_bytes()
    assert_type(sec1, bytes)
    short = pk.to_bytes(compressed=True)
    assert len(sec1) == 65 and len(short) == 33
    assert PublicKey.from_bytes(short) == PublicKey.from_bytes(bytearray(sec1))
    x, y = pk.x, pk.y
    assert_type(x, int)
    assert_type(y, int)
    same = PublicKey.from_xy(x, y)
    assert_type(same == pk, bool)
    assert same == pk and hash(same) == hash(pk)
    assert {pk: "alice"}[same] == "alice"  # hashable, by value
    assert d.hex() not in repr(sk) and str(sk.to_int()) not in repr(sk)
    return sk, pk


def ecdsa(sk: PrivateKey, pk: PublicKey) -> None:
    msg = b"pay alice 10"
    sig = sk.sign(msg)
    assert_type(sig, bytes)
    ok = pk.verify(sig, msg)
    assert_type(ok, bool)
    assert ok and not pk.verify(sig, msg + b"0")
    assert pk.verify(bytearray(sig), memoryview(msg))

    encodings: tuple[Encoding, ...] = ("der", "raw")
    for h in HASHES:
        for enc in encodings:
            for det in (False, True):
                s = sk.sign(msg, hash=h, encoding=enc, deterministic=det)
                assert pk.verify(s, msg, hash=h, encoding=enc)
    raw = sk.sign(msg, hash="sha384", encoding="raw", deterministic=True)
    assert len(raw) == 64 and raw == sk.sign(msg, hash="sha384", encoding="raw", deterministic=True)

    # Digests: the length must be that of `hash`; hash=None takes any length.
    digest = hashlib.sha512(msg).digest()
    dsig = sk.sign_digest(digest, hash="sha512", deterministic=True)
    assert_type(dsig, bytes)
    assert dsig == sk.sign(msg, hash="sha512", deterministic=True)
    dok = pk.verify_digest(dsig, digest, hash="sha512")
    assert_type(dok, bool)
    assert dok and pk.verify(dsig, msg, hash="sha512")
    d256 = hashlib.sha256(msg).digest()
    assert pk.verify_digest(sk.sign_digest(d256), d256)
    anylen = sk.sign_digest(b"\x01" * 20, hash=None, encoding="raw")
    assert pk.verify_digest(anylen, b"\x01" * 20, hash=None, encoding="raw")
    try:
        sk.sign_digest(digest)  # 64 bytes, but sha256 is the default
    except ValueError:
        pass
    else:
        raise AssertionError("sign_digest took a digest of another hash's length")


def ecdh(sk: PrivateKey, pk: PublicKey) -> None:
    other = PrivateKey.generate()
    shared = sk.exchange(other.public_key)
    assert_type(shared, bytes)
    assert shared == other.exchange(pk) and len(shared) == 32


def formats(sk: PrivateKey, pk: PublicKey) -> None:
    pkcs8 = sk.to_der()
    assert_type(pkcs8, bytes)
    sec1 = sk.to_der(format="sec1")
    for blob in (pkcs8, sec1):
        loaded = PrivateKey.from_der(blob)
        assert_type(loaded, PrivateKey)
        assert loaded.to_int() == sk.to_int()
    pem = sk.to_pem()
    assert_type(pem, bytes)
    assert PrivateKey.from_pem(pem).to_bytes() == sk.to_bytes()
    assert PrivateKey.from_pem(sk.to_pem(format="sec1")).to_bytes() == sk.to_bytes()
    enc = assert_type(sk.to_pem(password="pw"), bytes)  # encrypted PKCS#8 (PBES2)
    assert PrivateKey.from_pem(enc, password=b"pw").to_bytes() == sk.to_bytes()
    assert PrivateKey.from_der(sk.to_der("pkcs8", "pw"), "pw").to_bytes() == sk.to_bytes()

    spki = pk.to_der()
    assert_type(spki, bytes)
    assert PublicKey.from_der(spki) == pk
    assert PublicKey.from_der(pk.to_der(compressed=True)) == pk  # p256's addition
    assert PublicKey.from_pem(pk.to_pem(compressed=True)) == pk
    pub_pem = pk.to_pem()
    assert_type(pub_pem, bytes)
    assert PublicKey.from_pem(pub_pem) == pk
    assert PublicKey.from_pem(pub_pem.decode("ascii")) == pk  # PEM text read as str

    jwk = pk.to_jwk()
    assert_type(jwk, dict[str, str])
    assert jwk["crv"] == "P-256" and PublicKey.from_jwk(jwk) == pk
    private_jwk = sk.to_jwk()
    assert_type(private_jwk, dict[str, str])
    assert PrivateKey.from_jwk(private_jwk).to_int() == sk.to_int()


def batch(sk: PrivateKey, pk: PublicKey) -> None:
    msgs = [b"m%d" % i for i in range(8)]
    items: list[tuple[PublicKey, bytes, bytes]] = [(pk, sk.sign(m), m) for m in msgs]
    results = p256.verify_many(items)
    assert_type(results, list[bool])
    assert results == [True] * len(msgs)

    def generated() -> Iterable[tuple[PublicKey, bytes, bytes]]:
        for m in msgs:
            yield pk, sk.sign(m, hash="sha3_256", encoding="raw"), m

    assert all(p256.verify_many(generated(), hash="sha3_256", encoding="raw", threads=2))
    assert p256.verify_many([], threads=None) == []

    # EIP-7951 P256VERIFY: hash || r || s || qx || qy.
    digest = hashlib.sha256(b"eip").digest()
    rs = sk.sign_digest(digest, encoding="raw")
    out = p256.p256verify(digest + rs + pk.to_bytes()[1:])
    assert_type(out, bytes)
    assert out == (1).to_bytes(32, "big") and p256.p256verify(b"") == b""
    many = p256.p256verify_many([digest + rs + pk.to_bytes()[1:], b""], threads=1)
    assert_type(many, list[bytes])
    assert many == [out, b""]
    assert_type(p256.batch_backend(), str)

    # The work with secrets many at a time.
    keys = PrivateKey.generate_many(4, threads=1)
    assert_type(keys, list[PrivateKey])
    sigs = p256.sign_many(zip(keys, msgs), deterministic=True, low_s=True, threads=None)
    assert_type(sigs, list[bytes])
    assert sigs == [k.sign(m, deterministic=True, low_s=True) for k, m in zip(keys, msgs)]
    shared = p256.exchange_many([(k, pk) for k in keys])
    assert_type(shared, list[bytes])
    points = p256.scalar_base_mult_many(k.to_bytes() for k in keys)
    assert_type(points, list[bytes])
    assert_type(p256.batch_backend("sign_many"), str)


def precomputed(sk: PrivateKey, pk: PublicKey) -> None:
    sig = sk.sign(b"p")
    fast = PublicKey.from_bytes(pk.to_bytes()).precompute(window=6)
    assert_type(fast, PublicKey)
    assert_type(fast.is_precomputed, bool)
    assert fast.is_precomputed and fast.verify(sig, b"p") and fast == pk
    cache = p256.PublicKeyCache(max_keys=4)
    hit = cache.get(pk.to_bytes())
    assert_type(hit, PublicKey)
    assert cache.from_jwk(pk.to_jwk()) is hit and cache.get(pk) is hit and len(cache) == 1
    assert_type(cache.max_keys, int)


def low_level(sk: PrivateKey, pk: PublicKey) -> None:
    k = sk.to_bytes()
    point = p256.scalar_base_mult(k)
    assert_type(point, bytes)
    assert point == pk.to_bytes()
    two = (2).to_bytes(32, "big")
    assert_type(p256.scalar_mult(two, point), bytes)
    assert_type(p256.__version__, str)
    assert_type(p256.N, int)  # the group order and the field prime, p256's additions
    assert_type(p256.P, int)
    assert 1 <= sk.to_int() < p256.N < p256.P
    assert_type(p256.backend(), str)


def recovery(sk: PrivateKey, pk: PublicKey) -> None:
    """Key recovery, low-s and the cryptography bridges."""
    sig, rid = sk.sign_recoverable(b"r", deterministic=True, low_s=True)
    assert_type(sig, bytes)
    assert_type(rid, int)
    digest = hashlib.sha256(b"r").digest()
    assert_type(sk.sign_digest_recoverable(digest, hash="sha256"), Tuple[bytes, int])
    assert_type(PublicKey.recover(sig, digest, rid), PublicKey)
    keys = PublicKey.recover_candidates(sig, digest, hash="sha256", encoding="raw")
    assert_type(keys, List[PublicKey])
    assert pk in keys
    low = sk.sign(b"r", low_s=True)
    assert_type(p256.normalize_s(low), bytes)
    assert p256.normalize_s(low) == low
    assert_type(pk.verify(low, b"r", low_s=True), bool)
    assert_type(sk.sign_digest(digest, encoding="raw", low_s=True), bytes)
    assert_type(pk.verify_digest(sig, digest, encoding="raw", low_s=True), bool)
    try:  # cryptography is optional (its types are checked where it is installed)
        import cryptography  # noqa: F401
    except ImportError:
        return
    assert PrivateKey.from_cryptography(sk.to_cryptography()).to_bytes() == sk.to_bytes()
    assert PublicKey.from_cryptography(pk.to_cryptography()) == pk


def reference(sk: PrivateKey, pk: PublicKey) -> None:
    c = ref.P256
    assert_type(c, ref.Curve)
    assert_type(c.name, str)
    assert c.name == "P-256" and c.bit_size == 256
    assert_type(c.p, int)
    assert_type(c.n, int)
    assert_type(c.b, int)
    assert_type(c.gx, int)
    assert_type(c.gy, int)
    q = (pk.x, pk.y)
    assert_type(c.is_on_curve(*q), bool)
    g = c.scalar_base_mult(1)
    assert_type(g, Optional[Tuple[int, int]])
    assert g == (c.gx, c.gy)
    assert c.add(g, None) == g and c.double(g) == c.add(g, g) == c.scalar_mult(g, 2)
    assert c.scalar_mult(q, c.n) is None  # the point at infinity
    assert c.scalar_base_mult(sk.to_int()) == q

    digest = hashlib.sha256(b"ref").digest()
    r, s = ref.ecdsa_sign(c, sk.to_int(), digest)
    assert_type(r, int)
    assert ref.ecdsa_sign(c, sk.to_int(), digest, k=12345) != (r, s)
    assert_type(ref.ecdsa_verify(c, q, digest, r, s), bool)
    assert pk.verify((r).to_bytes(32, "big") + (s).to_bytes(32, "big"), b"ref", encoding="raw")
    shared = ref.ecdh(c, sk.to_int(), q)
    assert_type(shared, bytes)
    for curve in (ref.P224, ref.P384, ref.P521):
        assert curve.is_on_curve(curve.gx, curve.gy)


def hashing() -> None:
    # RFC 9380: bytes to the group and to its scalars; the pure-Python twins in reference.
    dst = b"USAGE-V01-CS01-with-P256_XMD:SHA-256_SSWU_RO_"
    uniform = p256.expand_message_xmd(b"msg", bytearray(dst), 96)
    assert_type(uniform, bytes)
    pt = p256.hash_to_curve(memoryview(b"msg"), dst)
    assert_type(pt.to_bytes(compressed=True), bytes)
    assert pt == p256.hash_to_curve(b"msg", dst) and pt != p256.encode_to_curve(b"msg", dst)
    e = p256.hash_to_scalar(b"msg", dst)
    assert_type(e.to_bytes(), bytes)
    assert_type(ref.expand_message_xmd(b"msg", dst, 96), bytes)
    assert ref.expand_message_xmd(b"msg", dst, 96) == uniform
    assert_type(ref.hash_to_field(b"msg", dst, 2), List[int])
    assert_type(ref.sqrt_ratio(4, 1), Tuple[bool, int])
    assert_type(ref.map_to_curve_simple_swu(0), Tuple[int, int])
    xy = ref.hash_to_curve(b"msg", dst)
    assert_type(xy, Optional[Tuple[int, int]])
    assert xy is not None and pt.to_bytes()[1:33] == xy[0].to_bytes(32, "big")
    assert_type(ref.encode_to_curve(b"msg", dst), Tuple[int, int])
    assert_type(ref.hash_to_scalar(b"msg", dst), int)
    assert int(e) == ref.hash_to_scalar(b"msg", dst)


def oprf_round_trip() -> None:
    from p256 import oprf

    sk, pk = oprf.generate_key_pair()
    assert_type(sk.is_zero(), bool)
    assert_type(pk.to_bytes(compressed=True), bytes)
    server = oprf.Server(oprf.VOPRF, sk)
    assert_type(server, oprf.Server)
    assert_type(server.mode, int)
    client = oprf.Client(oprf.VOPRF, server.public_key.to_bytes(compressed=True))
    state, blinded = client.blind(b"input")
    assert_type(state, oprf.BlindState)
    wire = blinded.to_bytes(compressed=True)
    batch: List[oprf.Element] = [wire, blinded]  # a Point or its 33 bytes
    evaluated, proof = server.blind_evaluate(batch[:1])
    assert_type(proof, Optional[bytes])
    outputs = client.finalize([b"input"], [state], evaluated, proof)
    assert_type(outputs, List[bytes])
    assert_type(server.evaluate(b"input"), bytes)
    assert outputs == [server.evaluate(b"input")]
    derived = oprf.derive_key_pair(bytes(32), b"info", oprf.POPRF)
    assert_type(derived[1].to_bytes(), bytes)
    assert oprf.deserialize_element(wire) == blinded
    try:
        client.finalize([b"input"], [state], evaluated, bytes(64))
    except oprf.DeserializeError:  # c = 0 decodes; the proof then fails to verify
        raise AssertionError("a zero proof did not decode")
    except oprf.VerifyError as exc:
        assert_type(exc, oprf.VerifyError)


def integrations(sk: PrivateKey, pk: PublicKey) -> None:
    # JWS and WebAuthn take any bytes-like argument, as the keys' methods do.
    token = p256.jws.sign(bytearray(b'{"sub":"a"}'), sk, {"kid": "k1"})
    assert_type(token, str)
    assert p256.jws.verify(token, pk) == b'{"sub":"a"}'
    rp_hash = hashlib.sha256(b"example.com").digest()
    auth = bytearray(rp_hash + b"\x01" + (1).to_bytes(4, "big"))  # UP set, signCount 1
    fields = p256.webauthn.parse_authenticator_data(memoryview(auth))
    assert_type(fields, p256.webauthn.AuthenticatorData)
    assert_type(fields.rp_id_hash, bytes)
    assert_type(fields.sign_count, int)
    assert_type(fields.user_present, bool)
    assert_type(fields.backed_up, bool)
    assert_type(fields.attested_credential_data, bool)
    assert_type(fields.credential_id, Optional[bytes])
    assert_type(fields.credential_public_key, Optional[bytes])
    assert_type(fields.extensions, Optional[bytes])
    if fields.attested_credential_data:  # a registration's: the credential's key
        assert_type(fields.public_key, PublicKey)
    challenge = bytearray(b"challenge issued")
    client = ('{"type":"webauthn.get","challenge":"%s","origin":"https://example.com"}'
              % base64.urlsafe_b64encode(challenge).rstrip(b"=").decode()).encode()
    sig = bytearray(sk.sign(bytes(auth) + hashlib.sha256(client).digest()))
    assert p256.webauthn.verify_assertion_signature(pk, auth, memoryview(client), sig)
    count = p256.webauthn.verify_assertion(
        pk, auth, bytearray(client), sig, rp_id="example.com", origin="https://example.com",
        challenge=challenge, require_user_verification=False, sign_count=0)
    assert_type(count, int)
    assert count == 1
    # A registration: 'none' attestation of this key, the attestationObject written by hand.
    att_auth = (rp_hash + b"\x41" + bytes(4) + bytes(16) + (4).to_bytes(2, "big") + b"cred"
                + pk.to_cose())
    att = (b"\xa3\x63fmt\x64none\x67attStmt\xa0\x68authData\x58" + bytes([len(att_auth)])
           + att_auth)
    created = ('{"type":"webauthn.create","challenge":"%s","origin":"https://example.com"}'
               % base64.urlsafe_b64encode(challenge).rstrip(b"=").decode()).encode()
    reg = p256.webauthn.verify_registration(
        bytearray(att), memoryview(created), rp_id="example.com", origin=["https://example.com"],
        challenge=challenge, require_user_verification=False, transports=("usb",))
    assert_type(reg, p256.webauthn.Registration)
    assert_type(reg.public_key, PublicKey)
    assert_type(reg.trust_path, Tuple[p256.webauthn.AttestationCertificate, ...])
    assert_type(reg.transports, Optional[Tuple[str, ...]])
    assert reg.public_key == pk and reg.credential_id == b"cred" and not reg.trust_path


def type_aliases(sk: PrivateKey, pk: PublicKey) -> None:
    # The public aliases annotate variables that are passed on (docs/api.md, Types).
    name: p256.HashName = "sha384"
    encoding: p256.SigEncoding = "raw"
    data: p256.Buffer = bytearray(b"m")
    sig = sk.sign(data, hash=name, encoding=encoding)
    assert pk.verify(sig, data, hash=name, encoding=encoding)
    form: p256.PrivateFormat = "pkcs8"
    assert PrivateKey.from_der(sk.to_der(format=form)).to_bytes() == sk.to_bytes()
    jwk: p256.JWK = pk.to_jwk()
    assert PublicKey.from_jwk(jwk) == pk


def group(sk: PrivateKey, pk: PublicKey) -> None:
    # Points and scalars (docs/api.md, The group).
    g = p256.Point.generator()
    assert_type(g, p256.Point)
    s = p256.Scalar.random()
    assert_type(s, p256.Scalar)
    t = p256.Scalar.from_int(7) + p256.Scalar.from_bytes(bytes(32)) - s * s
    assert_type(t, p256.Scalar)
    assert_type(-t, p256.Scalar)
    assert_type(t.invert(), p256.Scalar)
    assert_type(int(t), int)
    assert_type(t.is_zero(), bool)
    assert_type(t.to_bytes(), bytes)
    assert_type(p256.Scalar.from_bytes_reduce(bytes(48)), p256.Scalar)
    p = s * g
    assert_type(p, p256.Point)
    assert_type(g * s, p256.Point)
    q = p + g - p256.Point.identity()
    assert_type(q, p256.Point)
    assert_type(-q, p256.Point)
    assert_type(q.double(), p256.Point)
    assert_type(q.mul_vartime(s), p256.Point)
    assert_type(q.is_identity(), bool)
    assert_type(q.to_bytes(compressed=True), bytes)
    assert p256.Point.from_bytes(q.to_bytes()) == q
    assert_type(p256.multi_mult([s, t], [p, q]), p256.Point)
    assert_type(p256.multi_mult_vartime((s,), (p,)), p256.Point)
    assert_type(pk.point, p256.Point)
    assert_type(sk.scalar, p256.Scalar)
    assert_type(PublicKey.from_point(pk.point), PublicKey)
    assert_type(PrivateKey.from_scalar(sk.scalar), PrivateKey)
    assert sk.scalar * g == pk.point


def main() -> None:
    sk, pk = keys()
    ecdsa(sk, pk)
    ecdh(sk, pk)
    formats(sk, pk)
    batch(sk, pk)
    precomputed(sk, pk)
    low_level(sk, pk)
    recovery(sk, pk)
    reference(sk, pk)
    hashing()
    oprf_round_trip()
    integrations(sk, pk)
    type_aliases(sk, pk)
    group(sk, pk)


if __name__ == "__main__":
    main()
    print("usage.py: ok")

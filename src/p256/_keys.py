"""PrivateKey and PublicKey: the public API over the native core (see API.md)."""

from __future__ import annotations

import hashlib
from typing import Mapping, Union

from . import _core, _cose, _jose, _x509

__all__ = ["PrivateKey", "PublicKey", "scalar_base_mult", "scalar_mult", "N", "P"]

#: The field prime p and the group order n of P-256 (FIPS 186-5, SEC 2).
P = 2**256 - 2**224 + 2**192 + 2**96 - 1
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551

# hash name -> (hashlib constructor, the core's RFC 6979 id for that hash)
_HASHES = {name: (getattr(hashlib, name), ident) for name, ident in _core.NONCE_HASH.items()}
_ENCODINGS = {"der": False, "raw": True}
_new = object.__new__
_generate = _core.SecretKey.generate
_verify = _core.verify
_HEDGED = _core.NONCE_HEDGED
_SHA256_NONCE = _core.NONCE_HASH["sha256"]


def _lookup(table, name, what):
    """table[name], or TypeError for a non-str name and ValueError for an unknown one.
    The dict lookup comes first so the common case costs one hash probe."""
    try:
        return table[name]
    except (KeyError, TypeError):
        pass
    if not isinstance(name, str):
        raise TypeError("%s must be a str, not %s" % (what, type(name).__name__))
    raise ValueError("unknown %s %r; expected one of %s" % (what, name, ", ".join(sorted(table))))


class PrivateKey:
    """A P-256 private key: a scalar d in [1, n-1] held by the native core.

    The scalar stays in memory owned by the core and is wiped when the key is freed;
    ``repr`` never shows it. Create keys with :meth:`generate`, :meth:`from_bytes` or
    :meth:`from_int`.
    """

    __slots__ = ("_sk", "_pub")

    def __init__(self, *args, **kwargs):
        raise TypeError("use PrivateKey.generate(), PrivateKey.from_bytes() or PrivateKey.from_int()")

    @classmethod
    def _wrap(cls, sk):
        self = _new(cls)
        self._sk = sk
        self._pub = None
        return self

    @classmethod
    def generate(cls) -> PrivateKey:
        """A new key, d uniform in [1, n-1] from the OS CSPRNG (rejection sampling)."""
        self = _new(cls)  # _wrap inlined: keygen is a hot path
        self._sk = _generate()
        self._pub = None
        return self

    @classmethod
    def from_bytes(cls, data) -> PrivateKey:
        """From a 32-byte big-endian scalar; ValueError unless 1 <= d < n."""
        return cls._wrap(_core.SecretKey(data))

    @classmethod
    def from_int(cls, d: int) -> PrivateKey:
        """From an integer; ValueError unless 1 <= d < n."""
        if not isinstance(d, int) or isinstance(d, bool):
            raise TypeError("private key must be an int, not %s" % type(d).__name__)
        if not 1 <= d < N:
            raise ValueError("private key must be an integer in [1, n-1]")
        return cls._wrap(_core.SecretKey(d.to_bytes(32, "big")))

    def to_bytes(self) -> bytes:
        """The 32-byte big-endian scalar."""
        return self._sk.to_bytes()

    @property
    def public_key(self) -> PublicKey:
        """The public key d*G (computed once, then cached)."""
        pub = self._pub
        if pub is None:
            # Complete the object before publishing it: public_key() releases the GIL,
            # and another thread must never see a PublicKey without its point.
            pub = _new(PublicKey)
            pub._b = self._sk.public_key()
            self._pub = pub
        return pub

    def sign(self, msg, *, hash: str = "sha256", encoding: str = "der",
             deterministic: bool = False) -> bytes:
        """ECDSA signature of msg hashed with `hash`.

        A digest longer than 32 bytes is truncated to its leftmost 256 bits (FIPS 186-5).
        The nonce is hedged (fresh randomness mixed with the key and digest) unless
        ``deterministic=True``, which gives RFC 6979 with HMAC over the same hash.
        ``encoding`` is "der" (X9.62) or "raw" (r||s, 64 bytes).
        """
        try:  # the common case in two dict probes; _lookup explains any failure
            h, ident = _HASHES[hash]
            raw = _ENCODINGS[encoding]
        except (KeyError, TypeError):
            (h, ident), raw = _lookup(_HASHES, hash, "hash"), _lookup(_ENCODINGS, encoding, "encoding")
        return self._sk.sign(h(msg).digest(), raw, ident if deterministic else _HEDGED)

    def sign_digest(self, digest, *, encoding: str = "der", deterministic: bool = False) -> bytes:
        """ECDSA signature of a precomputed digest (RFC 6979 with SHA-256 when deterministic)."""
        raw = _lookup(_ENCODINGS, encoding, "encoding")
        return self._sk.sign(digest, raw, _SHA256_NONCE if deterministic else _HEDGED)

    def exchange(self, public_key: PublicKey) -> bytes:
        """ECDH: the 32-byte big-endian x coordinate of d*Q (SEC 1 3.3.1, RFC 5903)."""
        if not isinstance(public_key, PublicKey):
            raise TypeError("exchange() takes a PublicKey, not %s" % type(public_key).__name__)
        return self._sk.exchange(public_key._b)

    def __repr__(self) -> str:
        return "<p256.PrivateKey (secret)>"

    def __reduce__(self):
        # Also refuses copy.copy/deepcopy: the key is immutable, so a copy is never needed,
        # and a deepcopy of a structure holding it must not duplicate the secret silently.
        raise TypeError("private keys cannot be pickled or copied; export them explicitly "
                        "with to_bytes() or to_pem()")

    # Key formats (the code is in _formats; see its docstring for what is accepted).

    def to_der(self, format: str = "pkcs8") -> bytes:
        """DER PKCS#8 PrivateKeyInfo (``format="pkcs8"``) or SEC1 ECPrivateKey ("sec1")."""
        return _formats.private_to_der(self, format)

    def to_pem(self, format: str = "pkcs8") -> bytes:
        """PEM "PRIVATE KEY" (PKCS#8) or "EC PRIVATE KEY" (``format="sec1"``)."""
        return _formats.private_to_pem(self, format)

    def to_jwk(self) -> dict:
        """RFC 7517 JWK: {"kty": "EC", "crv": "P-256", "x", "y", "d"} (base64url)."""
        return _formats.private_to_jwk(self)

    @classmethod
    def from_der(cls, data) -> PrivateKey:
        """From DER PKCS#8 (RFC 5208/5958) or SEC1 ECPrivateKey (RFC 5915), detected."""
        return _formats.private_from_der(data)

    @classmethod
    def from_pem(cls, data) -> PrivateKey:
        """From PEM "PRIVATE KEY" (PKCS#8) or "EC PRIVATE KEY" (SEC1); str or bytes."""
        return _formats.private_from_pem(data)

    @classmethod
    def from_jwk(cls, jwk) -> PrivateKey:
        """From a private JWK (dict or JSON str); its x, y must equal d*G."""
        return _formats.private_from_jwk(jwk)


class PublicKey:
    """A P-256 public key: always a valid point of the group, never infinity.

    The only constructor is :meth:`from_bytes` (SEC1), which validates fully.
    """

    __slots__ = ("_b",)

    def __init__(self, *args, **kwargs):
        raise TypeError("use PublicKey.from_bytes()")

    @classmethod
    def _wrap(cls, uncompressed: bytes):
        self = object.__new__(cls)
        self._b = uncompressed
        return self

    @classmethod
    def from_bytes(cls, data) -> PublicKey:
        """From SEC1: 65-byte 04||X||Y or 33-byte 02/03||X. ValueError if invalid."""
        self = object.__new__(cls)
        self._b = _core.point_decode(data)
        return self

    def to_bytes(self, compressed: bool = False) -> bytes:
        """SEC1 encoding: 65-byte uncompressed, or 33-byte compressed."""
        b = self._b
        if compressed:
            return (b"\x03" if b[64] & 1 else b"\x02") + b[1:33]
        return b

    @property
    def x(self) -> int:
        return int.from_bytes(self._b[1:33], "big")

    @property
    def y(self) -> int:
        return int.from_bytes(self._b[33:], "big")

    def verify(self, sig, msg, *, hash: str = "sha256", encoding: str = "der") -> bool:
        """True iff sig is a valid ECDSA signature of msg; False for any invalid signature."""
        try:
            h = _HASHES[hash][0]
            raw = _ENCODINGS[encoding]
        except (KeyError, TypeError):
            h, raw = _lookup(_HASHES, hash, "hash")[0], _lookup(_ENCODINGS, encoding, "encoding")
        return _verify(self._b, sig, h(msg).digest(), raw)

    def verify_digest(self, sig, digest, *, encoding: str = "der") -> bool:
        """True iff sig is a valid ECDSA signature of the given digest."""
        return _verify(self._b, sig, digest, _lookup(_ENCODINGS, encoding, "encoding"))

    def __eq__(self, other):
        if not isinstance(other, PublicKey):
            return NotImplemented
        return self._b == other._b

    def __hash__(self):
        return hash((PublicKey, self._b))

    def __repr__(self) -> str:
        return "p256.PublicKey.from_bytes(bytes.fromhex(%r))" % self._b.hex()

    def __reduce__(self):
        # pickle, copy and deepcopy go through the SEC1 bytes and from_bytes, which
        # validates the point again on load.
        return (PublicKey.from_bytes, (self._b,))

    # Key formats (the code is in _formats).

    def to_der(self, compressed: bool = False) -> bytes:
        """DER SubjectPublicKeyInfo (RFC 5480); the point compressed if asked."""
        return _formats.public_to_der(self, compressed)

    def to_pem(self, compressed: bool = False) -> bytes:
        """PEM "PUBLIC KEY" (SubjectPublicKeyInfo)."""
        return _formats.public_to_pem(self, compressed)

    def to_jwk(self) -> dict:
        """RFC 7517 JWK: {"kty": "EC", "crv": "P-256", "x", "y"} (base64url)."""
        return _formats.public_to_jwk(self)

    @classmethod
    def from_der(cls, data) -> PublicKey:
        """From a DER SubjectPublicKeyInfo (id-ecPublicKey, prime256v1)."""
        return _formats.public_from_der(data)

    @classmethod
    def from_pem(cls, data) -> PublicKey:
        """From PEM "PUBLIC KEY" (str or bytes)."""
        return _formats.public_from_pem(data)

    @classmethod
    def from_jwk(cls, jwk) -> PublicKey:
        """From a public JWK (dict or JSON str)."""
        return _formats.public_from_jwk(jwk)

    # COSE, JWK thumbprint, X.509: the code is in _cose, _jose, _x509 (bytes in, bytes out).

    def to_cose(self, *, include_alg: bool = True) -> bytes:
        """COSE_Key (RFC 9053 EC2, crv 1) in deterministic CBOR, as WebAuthn writes it.

        Args:
            include_alg: write alg -7 (ES256), which restricts the key to ES256.

        Returns:
            The CBOR bytes of {1: 2, 3: -7, -1: 1, -2: x, -3: y}.
        """
        return _cose.encode(self.to_bytes(), include_alg is True)

    @classmethod
    def from_cose(cls, data: Union[bytes, bytearray, memoryview, Mapping[object, object]]
                  ) -> PublicKey:
        """From a COSE_Key: deterministic CBOR bytes, or a mapping (as cbor2 decodes it).

        Args:
            data: the CBOR encoding (bytes-like) or a mapping of labels to values.

        Returns:
            The public key.

        Raises:
            TypeError: data is neither bytes-like nor a mapping.
            ValueError: malformed or non-deterministic CBOR, not an EC2 P-256 public key,
                or a point not on the curve; see p256._cose for the rules.
        """
        return cls.from_bytes(_cose.decode_any(data))

    def jwk_thumbprint(self) -> str:
        """RFC 7638 JWK thumbprint: base64url SHA-256 of the canonical public JWK.

        Returns:
            43 characters of base64url (no padding).
        """
        return _jose.thumbprint(self.to_bytes())

    @classmethod
    def from_certificate(cls, data: Union[bytes, bytearray, memoryview, str]) -> PublicKey:
        """The subject's key of an X.509 certificate (DER, or PEM "CERTIFICATE").

        Args:
            data: the certificate.

        Returns:
            The P-256 public key of its SubjectPublicKeyInfo.

        Raises:
            TypeError: data is not bytes-like or str.
            ValueError: a malformed certificate (strict DER, RFC 5280 structure), or a
                key that is not P-256 (named in the message).
        """
        return cls.from_der(_x509.subject_public_key_info(data))


def scalar_base_mult(k) -> bytes:
    """k*G for a 32-byte big-endian k (reduced mod n); 65-byte uncompressed result.

    ValueError when k = 0 mod n (the point at infinity)."""
    return _core.scalar_base_mult(k)


def scalar_mult(k, point) -> bytes:
    """k*Q for a 32-byte k and a SEC1 point Q; 65-byte uncompressed result.

    ValueError for an invalid point or when k = 0 mod n."""
    return _core.scalar_mult(k, point)


# Last: _formats imports the classes above.
from . import _formats  # noqa: E402

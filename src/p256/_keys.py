# SPDX-License-Identifier: Apache-2.0
"""PrivateKey and PublicKey: the public API over the native key objects (docs/api.md).

Both classes extend their native objects: PrivateKey the core's _core.SecretKey, which
holds the scalar, hashes, signs (the recovery id and the low-s form included) and keeps
the public key once made; PublicKey the core's _core.PublicPoint, which holds the point
in the core's form: verification, recovery, equality and hashing run there, the byte
forms are made on demand. The arguments of sign and verify go to the core as the caller
gave them, and its one normalizer (csrc/py_args.c) checks them; _args checks the others
(a scalar or coordinates as ints, a table window, a recovery id). The key formats are read and written by _formats
and the per-format modules, on bytes; each format method here is a delegation to one of
them, and the classes check what they return (the scalar's range, a stored public key
against d*G)."""

from __future__ import annotations

import os
import threading
from itertools import repeat as _repeat
from typing import TYPE_CHECKING, Any, Iterator, List, Mapping, Optional, Tuple, Union

from . import _args, _bridge, _core, _cose, _formats, _jose, _jwk, _pbes2, _many, _sig, _spki, _x509
from ._group import Point, Scalar
from ._common import (
    JWK,
    Buffer,
    HashName,
    N,
    P,
    Password,
    PrivateFormat,
    SigEncoding,
    flag_error,
    point_problem,
)

if TYPE_CHECKING:

    from cryptography.hazmat.primitives.asymmetric.ec import (
        EllipticCurvePrivateKey,
        EllipticCurvePublicKey,
    )

    from ._sec1 import Parts

__all__ = ["PrivateKey", "PublicKey", "scalar_base_mult", "scalar_mult", "normalize_s", "N", "P"]


def _build_table(key: _core.PublicPoint, bits: int) -> _core.PublicTable:
    """key's table for a window of bits (precompute's one builder, which tests replace)."""
    if not isinstance(key, _core.PublicPoint):
        raise TypeError(f"a table is built from a PublicKey, not {type(key).__name__}")
    return key._make_table(bits)


# precompute() builds under one of these, chosen by the key's hash: two threads
# precomputing one key build one table, different keys mostly build in parallel.
_BUILD_LOCKS = tuple(threading.Lock() for _ in range(16))


def _new_build_locks() -> None:
    """Gives a forked child build locks of its own. A lock that another thread of the
    parent held at the fork would stay held in the child, where that thread does not exist;
    the key it was building has no table there (a table is published only once complete),
    so the child's precompute() builds it again."""
    global _BUILD_LOCKS
    _BUILD_LOCKS = tuple(threading.Lock() for _ in range(16))


if hasattr(os, "register_at_fork"):  # POSIX; looked up at each fork, so tests can replace it
    os.register_at_fork(after_in_child=lambda: _new_build_locks())
normalize_s = _sig.normalize_s


class PrivateKey(_core.SecretKey):
    """A P-256 private key: a scalar d in [1, n-1] held by the native core.

    Keys come from the class methods, not from ``PrivateKey(...)`` (which raises
    TypeError): ``generate`` makes a new one; ``from_bytes`` and ``from_int`` take a known
    scalar; ``from_pem``, ``from_der``, ``from_jwk`` and ``from_cryptography`` read a stored
    one. Its public key is ``public_key``.

    The scalar stays in memory owned by the core and is wiped when the key is freed;
    ``repr`` never shows it, and the key refuses to be pickled or copied.
    """

    # The scalar and the public key, once made, live in the native object
    # (csrc/py_secretkey.c): a PrivateKey has no attributes of its own.
    __slots__ = ()

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Not a constructor: always raises TypeError. Use PrivateKey.generate(),
        from_bytes(), from_int() or a key-format reader (from_pem, from_der, from_jwk,
        from_cryptography)."""
        # The native object refuses PrivateKey(...) before this runs (the same message);
        # this is what help(p256.PrivateKey) shows of the constructor.
        raise TypeError("use PrivateKey.generate(), PrivateKey.from_bytes() or PrivateKey.from_int()")

    @classmethod
    def generate(cls) -> PrivateKey:
        """A new key from the operating system's CSPRNG.

        Returns:
            A key with d uniform in [1, n-1] (rejection sampling).

        Raises:
            OSError: The operating system's random generator failed.
        """
        return cls._generate()

    @classmethod
    def from_bytes(cls, data: Buffer) -> PrivateKey:
        """A key from its 32-byte big-endian scalar.

        Args:
            data: Exactly 32 bytes, the scalar d with 1 <= d < n.

        Returns:
            The key.

        Raises:
            ValueError: Not 32 bytes (the message says how many came), or d = 0 or d >= n.
            TypeError: data is not bytes-like.
        """
        return cls._load(data)

    @classmethod
    def from_int(cls, d: int) -> PrivateKey:
        """A key from its scalar as an integer.

        Args:
            d: The scalar, 1 <= d < n.

        Returns:
            The key.

        Raises:
            ValueError: d is not in [1, n-1].
            TypeError: d is not an int (a bool is refused too).
        """
        return cls._load(_args.scalar(d))

    @classmethod
    def generate_many(cls, n: int, *, threads: Optional[int] = None) -> List[PrivateKey]:
        """Many new keys at once, each with its public key already computed.

        Each key is what ``generate`` makes (d uniform in [1, n-1] from the OS CSPRNG)
        with ``public_key`` filled in by the batch: the scalars are drawn and their
        multiples d*G computed off the GIL, in chunks, on `threads` threads, eight at a
        time on the batch engine (``p256.batch_backend("generate_many")``), each group's
        conversions to affine sharing one field inversion. Constant time in every key.

        Args:
            n: How many keys, 0 to 2**24 (0 gives []).
            threads: How many threads (this one included); None: ``os.cpu_count()``;
                at most 4 per CPU are started (a larger value is taken as that).

        Returns:
            n new keys.

        Raises:
            TypeError: n or threads is not an int (a bool is refused too).
            ValueError: n < 0 or n > 2**24 (before any work; the message names both),
                or threads < 1.
            OSError: The operating system's random generator failed.
        """
        return _many.run(cls._generate_job(n, threads))

    @classmethod
    def generate_iter(cls, n: int, *, threads: Optional[int] = None) -> Iterator[PrivateKey]:
        """``generate_many`` as a stream: n new keys, one at a time, with at most two
        chunks of a few thousand held at any time; its arguments and errors (checked
        when it is called).

        Args:
            n: How many keys, 0 to 2**24.
            threads: As for ``generate_many``.

        Returns:
            An iterator of n new keys, each with its public key already computed.
        """
        return _many.stream(cls._generate_job(n, threads))

    @classmethod
    def _generate_job(cls, n: object, threads: Optional[int]) -> _many.Job:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError("n must be an int, not %s" % type(n).__name__)
        if not 0 <= n <= _many.GENERATE_MAX:
            raise ValueError("n must be in 0..%d, got %d" % (_many.GENERATE_MAX, n))
        return _many.Job(_repeat(None, n), _core.BATCH_GENERATE,
                         {"pk_type": PublicKey, "sk_type": cls}, _many.thread_count(threads),
                         _many.lanes_of(_core.batch_secret_backend(_core.BATCH_OP_GEN)),
                         "n", "keys", "p256.generate_many")

    # to_bytes() -> the 32-byte big-endian scalar d: the native object's.

    def to_int(self) -> int:
        """The scalar d as an integer.

        A Python int cannot be wiped and its arithmetic is not constant time: prefer the
        key object, or ``to_bytes``, wherever that will do.

        Returns:
            d, in [1, n-1].
        """
        return int.from_bytes(self.to_bytes(), "big")

    @property
    def public_key(self) -> PublicKey:
        """The public key d*G (computed once, then cached)."""
        return self._public_key(PublicKey)

    @property
    def scalar(self) -> Scalar:
        """The scalar d as a p256.Scalar (copied from key to scalar in the native core),
        for the group's arithmetic."""
        return Scalar._from_private_key(self)

    @classmethod
    def from_scalar(cls, scalar: Scalar) -> PrivateKey:
        """A key from a p256.Scalar.

        Args:
            scalar: The scalar d, which must not be 0.

        Returns:
            The key.

        Raises:
            ValueError: The scalar is 0.
            TypeError: scalar is not a p256.Scalar.
        """
        if not isinstance(scalar, Scalar):
            raise TypeError("from_scalar() takes a p256.Scalar, not %s" % type(scalar).__name__)
        return scalar._private_key(cls)

    def sign(self, msg: Buffer, *, hash: HashName = "sha256", encoding: SigEncoding = "der",
             deterministic: bool = False, low_s: bool = False) -> bytes:
        """ECDSA signature of a message.

        The message is hashed with `hash`; a digest longer than 32 bytes is truncated to
        its leftmost 256 bits (FIPS 186-5).

        Args:
            msg: The message.
            hash: "sha256", "sha224", "sha384", "sha512", "sha3_256", "sha3_384" or
                "sha3_512".
            encoding: "der" (X9.62 SEQUENCE of two INTEGERs) or "raw" (r || s, 64 bytes).
            deterministic: False (the default): a hedged nonce, fresh randomness mixed
                with the key and the digest. True: RFC 6979, HMAC with `hash`.
            low_s: True: the signature with s <= n/2 (of s and n - s, which both verify),
                as Bitcoin and Ethereum require; see ``normalize_s``.

        Returns:
            The signature.

        Raises:
            TypeError: msg is not bytes-like, hash or encoding is not a str, or
                deterministic or low_s is not a bool.
            ValueError: Unknown hash or encoding name.
            OSError: The OS random generator failed (hedged nonces only).
        """
        return self._sign(msg, False, hash, encoding, deterministic, low_s, False)

    def sign_digest(self, digest: Buffer, *, hash: Optional[HashName] = "sha256",
                    encoding: SigEncoding = "der", deterministic: bool = False,
                    low_s: bool = False) -> bytes:
        """ECDSA signature of a digest computed elsewhere.

        The digest must be exactly the size of `hash`'s output, so a digest is never
        silently taken for a message of another length. With ``deterministic=True``,
        ``sign_digest(H(m), hash=H)`` equals ``sign(m, hash=H, deterministic=True)``.

        ``hash=None`` is the explicit opt-in for a digest of any non-empty length: its
        leftmost 256 bits are signed (FIPS 186-5), the RFC 6979 nonce uses HMAC-SHA-256.
        That truncation is why it is opt-in: two inputs that share their first 32 bytes
        (``b"A" * 32 + b" pay alice"`` and ``b"A" * 32 + b" pay mallory"``) get the same
        signature, so hash=None is only for true digests of a hash p256 does not name.

        Args:
            digest: The digest: 28 bytes for sha224, 32 for sha256 and sha3_256, 48 for
                sha384 and sha3_384, 64 for sha512 and sha3_512; any non-empty length
                for None.
            hash: The hash that made the digest, or None (see above).
            encoding: "der" or "raw" (r || s, 64 bytes).
            deterministic: True for RFC 6979 with HMAC of `hash` (of SHA-256 for None);
                False (the default) for a hedged nonce.
            low_s: True: the signature with s <= n/2, as for ``sign``.

        Returns:
            The signature.

        Raises:
            ValueError: The digest's length does not fit `hash` (the message names both),
                an empty digest, or an unknown hash/encoding name.
            TypeError: digest is not bytes-like, a name is not a str (hash: or None), or
                deterministic or low_s is not a bool.
            OSError: The OS random generator failed (hedged nonces only).
        """
        return self._sign(digest, True, hash, encoding, deterministic, low_s, False)

    def sign_recoverable(self, msg: Buffer, *, hash: HashName = "sha256",
                         encoding: SigEncoding = "raw", deterministic: bool = False,
                         low_s: bool = False) -> Tuple[bytes, int]:
        """ECDSA signature of a message together with its recovery id.

        The recovery id (SEC 1 v2, 4.1.6) lets
        ``PublicKey.recover`` compute the signer's key from the
        signature and the digest alone: bit 0 is the parity of the nonce point's y,
        bit 1 says its x is r + n (for P-256 about once in 2^128 signatures). Unlike
        sign, the signature is r || s (64 bytes) unless `encoding` says otherwise.

        Args:
            msg: The message, hashed with `hash`.
            hash: As for ``sign``.
            encoding: "raw" (the default here: r || s) or "der".
            deterministic: As for sign.
            low_s: As for sign; the recovery id is that of the signature returned.

        Returns:
            (signature, recovery id in 0..3).

        Raises:
            TypeError: msg is not bytes-like, a name is not a str, or a flag not a bool.
            ValueError: Unknown hash or encoding name.
            OSError: The OS random generator failed (hedged nonces only).
        """
        sig, recovery_id = self._sign(msg, False, hash, encoding, deterministic, low_s, True)
        return sig, recovery_id

    def sign_digest_recoverable(self, digest: Buffer, *, hash: Optional[HashName] = "sha256",
                                encoding: SigEncoding = "raw", deterministic: bool = False,
                                low_s: bool = False) -> Tuple[bytes, int]:
        """ECDSA signature of a digest computed elsewhere, with its recovery id.

        ``sign_recoverable`` for a digest; the rules for
        `digest` and `hash` are those of ``sign_digest``.

        Args:
            digest: The digest, exactly the size of `hash`'s output.
            hash: The hash that made the digest, or None (any non-empty length).
            encoding: "raw" (the default here: r || s) or "der".
            deterministic: As for sign_digest.
            low_s: As for sign_digest; the recovery id is that of the signature returned.

        Returns:
            (signature, recovery id in 0..3).

        Raises:
            ValueError: The digest's length does not fit `hash`, an empty digest, or an
                unknown hash/encoding name.
            TypeError: digest is not bytes-like, a name is not a str, or a flag not a bool.
            OSError: The OS random generator failed (hedged nonces only).
        """
        sig, recovery_id = self._sign(digest, True, hash, encoding, deterministic, low_s, True)
        return sig, recovery_id

    def exchange(self, public_key: PublicKey) -> bytes:
        """ECDH shared secret (SEC 1 3.3.1, RFC 5903).

        Feed it to a KDF (such as HKDF) before using it as a key. Constant time in the
        private key. A precomputed peer key (PublicKey.precompute, PublicKeyCache) is
        multiplied from its table, the same bytes faster.

        Args:
            public_key: The peer's key.

        Returns:
            The 32-byte big-endian x coordinate of d*Q.

        Raises:
            TypeError: public_key is not a PublicKey.
        """
        if not isinstance(public_key, PublicKey):
            raise TypeError("exchange() takes a PublicKey, not %s" % type(public_key).__name__)
        return self._exchange(public_key)

    def __repr__(self) -> str:
        return "<p256.PrivateKey (secret)>"

    # Pickling and copying (copy.copy, copy.deepcopy) raise TypeError in the native
    # object: the key is immutable, so a copy is never needed, and a deepcopy of a structure
    # holding it must not duplicate the secret silently.

    # Key formats (the code is in _formats and the modules it names).

    def to_der(self, format: PrivateFormat = "pkcs8", password: Optional[Password] = None) -> bytes:
        """The key in DER.

        Args:
            format: "pkcs8" (PrivateKeyInfo, as `openssl genpkey` writes) or "sec1"
                (ECPrivateKey, as `openssl ecparam -genkey` writes).
            password: None for a plain key; else (str as UTF-8, or bytes) a PKCS#8
                EncryptedPrivateKeyInfo: PBES2 with PBKDF2-HMAC-SHA256 (600,000
                iterations, a fresh 16-byte salt) and AES-256-CBC (a fresh IV), which
                every PKCS#8 reader takes. Only with format "pkcs8".

        Returns:
            The DER bytes, what OpenSSL and pyca/cryptography write for this key.

        Raises:
            ValueError: Unknown format name, or a password with format "sec1".
            TypeError: format is not a str, or password neither str nor bytes.
            OSError: With a password, the operating system's random generator failed
                (it gives the salt and the IV); nothing is returned.
        """
        return _formats.private_to_der(self.to_bytes(), self.public_key.to_bytes(), format, password)

    def to_pem(self, format: PrivateFormat = "pkcs8", password: Optional[Password] = None) -> bytes:
        """The key in PEM: "PRIVATE KEY" (PKCS#8), "EC PRIVATE KEY" (``format="sec1"``) or,
        with a password, "ENCRYPTED PRIVATE KEY".

        Args:
            format: "pkcs8" or "sec1", as for ``to_der``.
            password: None, or the password to encrypt a PKCS#8 key with, as for
                ``to_der``.

        Returns:
            The PEM text as ASCII bytes.

        Raises:
            ValueError: Unknown format name, or a password with format "sec1".
            TypeError: format is not a str, or password neither str nor bytes.
            OSError: With a password, the operating system's random generator failed
                (it gives the salt and the IV); nothing is returned.
        """
        return _formats.private_to_pem(self.to_bytes(), self.public_key.to_bytes(), format, password)

    def to_jwk(self) -> JWK:
        """The key as an RFC 7517 JWK.

        Returns:
            {"kty": "EC", "crv": "P-256", "x", "y", "d"}, values in base64url.
        """
        return _jwk.encode(self.public_key.to_bytes(), self.to_bytes())

    @classmethod
    def from_der(cls, data: Buffer, password: Optional[Password] = None) -> PrivateKey:
        """A key from DER PKCS#8 (RFC 5208/5958), SEC1 ECPrivateKey (RFC 5915) or, with
        its password, PKCS#8 EncryptedPrivateKeyInfo (PBES2, RFC 8018).

        The format is told by the structure. A public key stored beside the scalar must
        equal d*G. Encrypted keys: PBKDF2 (HMAC-SHA1/224/256/384/512, at most 10,000,000
        iterations) or scrypt (128*r*N at most 256 MiB, p <= 16), with AES-128/192/256-CBC;
        The documentation's Key formats page has the details.

        Args:
            data: The DER bytes.
            password: The password of an encrypted key (str as UTF-8, or bytes); None
                for a plain one.

        Returns:
            The key.

        Raises:
            ValueError: Malformed or not P-256 (the message names the problem: another
                curve or algorithm, PEM text, a public key, ...); an encrypted key without
                a password, a password for a key that is not encrypted, or a wrong
                password (each its own message).
            TypeError: data is not bytes-like, or password neither str nor bytes.
        """
        return cls._from_decrypted(_formats.private_from_der(data, password), password)

    @classmethod
    def from_pem(cls, data: Union[str, Buffer], password: Optional[Password] = None) -> PrivateKey:
        """A key from PEM "PRIVATE KEY" (PKCS#8), "EC PRIVATE KEY" (SEC1) or, with its
        password, "ENCRYPTED PRIVATE KEY" (as for ``from_der``).

        The first such block is used; text around it is ignored, and so is a UTF-8 byte
        order mark at the start. Legacy PEM encryption ("Proc-Type: 4,ENCRYPTED") is
        refused with a message saying how to convert the key to encrypted PKCS#8.

        Args:
            data: The PEM text, str or bytes.
            password: The password of an encrypted key (str as UTF-8, or bytes); None
                for a plain one.

        Returns:
            The key.

        Raises:
            ValueError: No such block, malformed PEM or DER, or not a P-256 key; an
                encrypted key without a password, a password for a key that is not
                encrypted, or a wrong password (each its own message).
            TypeError: data is neither str nor bytes-like, or password neither str nor
                bytes.
        """
        return cls._from_decrypted(_formats.private_from_pem(data, password), password)

    @classmethod
    def from_jwk(cls, jwk: Union[Mapping[str, Any], str]) -> PrivateKey:
        """A key from a private JWK (RFC 7517/7518, crv "P-256").

        Args:
            jwk: A mapping or its JSON text; its x, y must equal d*G. Members other than
                kty, crv, x, y, d are ignored.

        Returns:
            The key.

        Raises:
            ValueError: A member missing, malformed or not matching.
            TypeError: jwk is neither a mapping nor a str.
        """
        return cls._from_parts(_jwk.read_private(jwk))

    # Bridges to pyca/cryptography (the code is in _bridge).

    @classmethod
    def from_cryptography(cls, obj: EllipticCurvePrivateKey) -> PrivateKey:
        """The same key as a pyca/cryptography private key object.

        The scalar is copied out through cryptography's public API
        (``private_numbers()``); cryptography is imported only by this call.

        Args:
            obj: A cryptography ``EllipticCurvePrivateKey`` on SECP256R1.

        Returns:
            The key.

        Raises:
            ImportError: cryptography is not installed (``pip install cryptography``).
            TypeError: obj is not a cryptography EC private key (a public key is named).
            ValueError: The key is on another curve (the message names it).
        """
        return cls.from_bytes(_bridge.private_from_cryptography(obj))

    def to_cryptography(self) -> EllipticCurvePrivateKey:
        """The key as a pyca/cryptography object, for APIs that take one (TLS, X.509
        builders, ...).

        Returns:
            A cryptography ``EllipticCurvePrivateKey`` on SECP256R1 with the same scalar.

        Raises:
            ImportError: cryptography is not installed (``pip install cryptography``).
        """
        return _bridge.private_to_cryptography(self.to_bytes())

    @classmethod
    def _from_parts(cls, parts: Parts) -> PrivateKey:
        """The key from a format's fields: d in range, every stored public key d*G."""
        d, stored = parts
        self = cls.from_bytes(d)
        for point, where in stored:
            if PublicKey._from_point(point, where) != self.public_key:
                raise ValueError("the public key in %s does not match the private key" % where)
        return self

    @classmethod
    def _from_decrypted(cls, parts: Parts, password: object) -> PrivateKey:
        """_from_parts; for a decrypted key (password given: _formats raised for anything
        else), any failure is the one wrong-password message (no padding/format oracle)."""
        if password is None:
            return cls._from_parts(parts)
        try:
            return cls._from_parts(parts)
        except ValueError:
            raise ValueError(_pbes2.WRONG_PASSWORD) from None


class PublicKey(_core.PublicPoint):
    """A P-256 public key: always a valid point of the group, never infinity.

    Constructed by ``from_bytes`` (SEC1),
    ``from_xy`` or a key-format reader, each of which validates
    fully. Compared and hashed by value; pickled as its SEC1 bytes (validated again on
    load).
    """

    # The point (in the core's form) and the table of precompute() live in the native
    # object (csrc/py_pubkey.c): a PublicKey has no attributes of its own.
    __slots__ = ()

    @classmethod
    def from_bytes(cls, data: Buffer) -> PublicKey:
        """A key from its SEC1 encoding.

        Args:
            data: 65 bytes 04||X||Y (uncompressed) or 33 bytes 02/03||X (compressed).

        Returns:
            The key.

        Raises:
            ValueError: Not a valid point, with its own message for each reason: wrong
                length or prefix (the length that came is named), the hybrid 06/07
                prefix, a coordinate >= p, a point not on the curve, an X with no point,
                the point at infinity.
            TypeError: data is not bytes-like.
        """
        pk = cls._load(data)
        if isinstance(pk, int):
            raise ValueError(point_problem(pk, data))
        return pk

    @classmethod
    def from_xy(cls, x: int, y: int) -> PublicKey:
        """A key from its affine coordinates, validated as by from_bytes.

        Args:
            x: The x coordinate, 0 <= x < p.
            y: The y coordinate, 0 <= y < p.

        Returns:
            The key.

        Raises:
            ValueError: A coordinate out of [0, p-1], or (x, y) not on the curve.
            TypeError: x or y is not an int (a bool is refused too).
        """
        return cls.from_bytes(_args.point_xy(x, y))

    def to_bytes(self, compressed: bool = False) -> bytes:
        """The SEC1 encoding.

        Args:
            compressed: False: 65 bytes 04||X||Y; True: 33 bytes 02/03||X.

        Returns:
            The encoded point.

        Raises:
            TypeError: compressed is not a bool.
        """
        try:
            return self._encode(compressed)
        except TypeError:
            flag_error("compressed", compressed)

    @property
    def point(self) -> Point:
        """The key's point as a p256.Point, for the group's arithmetic."""
        return Point._from_public_key(self)

    @classmethod
    def from_point(cls, point: Point) -> PublicKey:
        """A key from a p256.Point.

        Args:
            point: The point, which must not be the identity.

        Returns:
            The key.

        Raises:
            ValueError: The point is the identity (the point at infinity).
            TypeError: point is not a p256.Point.
        """
        if not isinstance(point, Point):
            raise TypeError("from_point() takes a p256.Point, not %s" % type(point).__name__)
        return point._to_public_key(cls)

    @property
    def x(self) -> int:
        """The affine x coordinate."""
        return int.from_bytes(self._encode(False)[1:33], "big")

    @property
    def y(self) -> int:
        """The affine y coordinate."""
        return int.from_bytes(self._encode(False)[33:], "big")

    def verify(self, sig: Buffer, msg: Buffer, *, hash: HashName = "sha256",
               encoding: SigEncoding = "der", low_s: bool = False) -> bool:
        """Whether sig is a valid ECDSA signature of msg under this key.

        Args:
            sig: The signature, in `encoding` (strict DER, or exactly 64 bytes for raw).
            msg: The message, hashed with `hash`.
            hash: As for ``PrivateKey.sign``.
            encoding: "der" or "raw".
            low_s: True: also require s <= n/2 (a signature with s > n/2 is False), for
                protocols that accept only the low-s form.

        Returns:
            True for a valid signature; False for every invalid one, malformed encodings
            and r or s outside [1, n-1] included.

        Raises:
            TypeError: sig or msg is not bytes-like, a name is not a str, or low_s is not
                a bool.
            ValueError: Unknown hash or encoding name.
        """
        return self._verify(sig, msg, False, hash, encoding, low_s)

    def verify_digest(self, sig: Buffer, digest: Buffer, *, hash: Optional[HashName] = "sha256",
                      encoding: SigEncoding = "der", low_s: bool = False) -> bool:
        """Whether sig is a valid ECDSA signature of a digest computed elsewhere.

        The rules for `digest` and `hash` are those of
        ``PrivateKey.sign_digest``; hash=None (any length,
        leftmost 256 bits) is the explicit opt-in it describes.

        Args:
            sig: The signature, in `encoding`.
            digest: The digest, exactly the size of `hash`'s output.
            hash: The hash that made the digest, or None.
            encoding: "der" or "raw".
            low_s: True: also require s <= n/2, as for ``verify``.

        Returns:
            True for a valid signature, False for every invalid one.

        Raises:
            ValueError: The digest's length does not fit `hash`, an empty digest, or an
                unknown hash/encoding name.
            TypeError: sig or digest is not bytes-like, a name is not a str, or low_s is
                not a bool.
        """
        return self._verify(sig, digest, True, hash, encoding, low_s)

    # Precomputed keys (docs/precompute.md).

    def precompute(self, *, window: int = _core.PUBTABLE_BITS) -> PublicKey:
        """Build this key's table once; verify* and exchange then use it.

        For a key that verifies many signatures: afterwards verify, verify_digest and
        verify_many compute u1*G + u2*Q from two fixed-base tables, without doublings
        (variable time; everything involved is public). The verdicts are exactly those
        of a key without a table. For a peer key agreed with again and again,
        PrivateKey.exchange computes d*Q from the table without doublings, in constant
        time in d (every lookup scans a whole row), the same bytes. Equality, hashing and pickling are unchanged; a copy
        or an unpickled key has no table until precomputed again. Thread-safe: threads
        that precompute one key at once build one table, and verifiers see either no
        table or a complete one.

        Args:
            window: Window size in bits, 4 to 8: the table takes 33 KB, 53 KB, 88 KB,
                152 KB (7, the default) or 270 KB; bigger is faster to verify with and
                slower to build; ECDH is fastest at 7 (documentation: Precomputed keys).

        Returns:
            This key (so that ``PublicKey.from_jwk(j).precompute()`` reads well).

        Raises:
            TypeError: window is not an int.
            ValueError: window is outside 4..8.
        """
        if self._table_bits() == _args.window_type(window):
            return self
        _args.window_range(window)
        with _BUILD_LOCKS[hash(self) & 15]:
            if self._table_bits() != window:
                self._set_table(_build_table(self, window))  # published only once complete
        return self

    @property
    def is_precomputed(self) -> bool:
        """Whether ``precompute`` has built this key's table."""
        return self._table_bits() != 0

    # Key recovery (SEC 1 v2, 4.1.6; the native core recovers, this checks the arguments).

    @classmethod
    def recover(cls, sig: Buffer, digest: Buffer, recovery_id: int, *,
                hash: Optional[HashName] = "sha256", encoding: SigEncoding = "raw") -> PublicKey:
        """The public key that made a signature, from the signature, the digest and the
        recovery id (as ``PrivateKey.sign_recoverable``
        returns it, or as a protocol such as WebAuthn's or a wallet's carries it).

        The key returned is checked: the signature verifies under it
        (``verify_digest``). That makes it *a* key for which
        the signature is valid; whether it is the key you trust is for you to check (a
        signature verifies under up to four keys, see
        ``recover_candidates``). Variable time: it
        works on public data only.

        Args:
            sig: The signature, in `encoding` (r || s by default; strict DER with "der").
            digest: The signed digest, exactly the size of `hash`'s output (any non-empty
                length with hash=None), as for verify_digest.
            recovery_id: 0..3: bit 0 is the parity of R.y, bit 1 says R.x = r + n.
            hash: The hash that made the digest, or None.
            encoding: "raw" (the default here) or "der".

        Returns:
            The key.

        Raises:
            ValueError: A malformed signature, r or s outside [1, n-1], recovery_id
                outside 0..3, a digest of the wrong length, an unknown name, or no key
                for this recovery id (R.x = r + n would be >= p, no point has that x, or
                the result is the point at infinity).
            TypeError: sig or digest is not bytes-like, recovery_id is not an int (a
                bool is refused too), or a name is not a str.
        """
        _args.recovery_id(recovery_id)
        rs, d = _args.recovery_input(sig, digest, hash, encoding)
        pk = cls._recover(rs, d, recovery_id)
        if isinstance(pk, int):
            raise ValueError("no public key for this signature and digest: "
                             + _NO_KEY[pk] % {"id": recovery_id,
                                              "x": "r + n" if recovery_id & 2 else "r"})
        return pk

    @classmethod
    def recover_candidates(cls, sig: Buffer, digest: Buffer, *, hash: Optional[HashName] = "sha256",
                           encoding: SigEncoding = "raw") -> List[PublicKey]:
        """Every public key under which a signature of this digest verifies.

        Without a recovery id there are up to four (two in practice: R.y even or odd),
        one per recovery id; each is checked by
        ``verify_digest``. Pick the one you expect (by its
        fingerprint, its address, ...): the signature alone cannot tell them apart.

        Args:
            sig: The signature, in `encoding`.
            digest: The signed digest, as for ``recover``.
            hash: The hash that made the digest, or None.
            encoding: "raw" (the default here) or "der".

        Returns:
            The keys in the order of their recovery id (the id of the i-th key is not
            always i: ids with no key are skipped). Empty when r is no point's x.

        Raises:
            ValueError: A malformed signature, r or s outside [1, n-1], a digest of the
                wrong length, or an unknown name.
            TypeError: sig or digest is not bytes-like, or a name is not a str.
        """
        rs, d = _args.recovery_input(sig, digest, hash, encoding)
        keys = [cls._recover(rs, d, recovery_id) for recovery_id in range(4)]
        return [pk for pk in keys if not isinstance(pk, int)]

    # == and hash() are the native object's: by value (the point).

    def __repr__(self) -> str:
        return "p256.PublicKey.from_bytes(bytes.fromhex(%r))" % self._encode(False).hex()

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        # pickle, copy and deepcopy go through the SEC1 bytes and from_bytes, which
        # validates the point again on load.
        return (PublicKey.from_bytes, (self._encode(False),))

    # Key formats (the code is in _formats and the modules it names).

    def to_der(self, compressed: bool = False) -> bytes:
        """DER SubjectPublicKeyInfo (RFC 5480).

        Args:
            compressed: Whether the point inside is compressed.

        Returns:
            The DER bytes.

        Raises:
            TypeError: compressed is not a bool.
        """
        return _formats.public_to_der(self.to_bytes(compressed))

    def to_pem(self, compressed: bool = False) -> bytes:
        """PEM "PUBLIC KEY" (SubjectPublicKeyInfo), as `openssl pkey -pubout` writes it.

        Args:
            compressed: Whether the point inside is compressed.

        Returns:
            The PEM text as ASCII bytes.

        Raises:
            TypeError: compressed is not a bool.
        """
        return _formats.public_to_pem(self.to_bytes(compressed))

    def to_jwk(self) -> JWK:
        """The key as an RFC 7517 JWK.

        Returns:
            {"kty": "EC", "crv": "P-256", "x", "y"}, values in base64url.
        """
        return _jwk.encode(self._encode(False))

    @classmethod
    def from_der(cls, data: Buffer) -> PublicKey:
        """A key from a DER SubjectPublicKeyInfo (id-ecPublicKey, prime256v1).

        Args:
            data: The DER bytes.

        Returns:
            The key.

        Raises:
            ValueError: Malformed, not P-256, or not a public key (the message says what
                it is and which reader takes it, when one does).
            TypeError: data is not bytes-like.
        """
        return cls._from_point(_formats.public_from_der(data), _spki.WHERE)

    @classmethod
    def from_pem(cls, data: Union[str, Buffer]) -> PublicKey:
        """A key from the first PEM "PUBLIC KEY" block.

        Args:
            data: The PEM text, str or bytes (a leading UTF-8 byte order mark is skipped).

        Returns:
            The key.

        Raises:
            ValueError: No such block, malformed PEM or DER, or not a P-256 key.
            TypeError: data is neither str nor bytes-like.
        """
        return cls._from_point(_formats.public_from_pem(data), _spki.WHERE)

    @classmethod
    def from_jwk(cls, jwk: Union[Mapping[str, Any], str]) -> PublicKey:
        """A key from a public JWK (RFC 7517/7518, crv "P-256").

        Args:
            jwk: A mapping or its JSON text; one holding "d" is refused (load it with
                PrivateKey.from_jwk).

        Returns:
            The key.

        Raises:
            ValueError: A member missing or malformed, an invalid point, or a private JWK.
            TypeError: jwk is neither a mapping nor a str.
        """
        return cls._from_point(_jwk.read_public(jwk), _jwk.WHERE)

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
    def from_cose(cls, data: Union[Buffer, Mapping[object, object]]
                  ) -> PublicKey:
        """From a COSE_Key: deterministic CBOR bytes, or a mapping (as cbor2 decodes it).

        Args:
            data: the CBOR encoding (bytes-like) or a mapping of labels to values.

        Returns:
            The public key.

        Raises:
            TypeError: data is neither bytes-like nor a mapping.
            ValueError: malformed or non-deterministic CBOR, not an EC2 P-256 public key,
                or a point not on the curve; the documentation's "Integrations" page
                (COSE keys) has the rules.
        """
        return cls.from_bytes(_cose.decode_any(data))

    def jwk_thumbprint(self) -> str:
        """RFC 7638 JWK thumbprint: base64url SHA-256 of the canonical public JWK.

        Returns:
            43 characters of base64url (no padding).
        """
        return _jose.thumbprint(self.to_bytes())

    @classmethod
    def from_certificate(cls, data: Union[Buffer, str]) -> PublicKey:
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

    # Bridges to pyca/cryptography (the code is in _bridge).

    @classmethod
    def from_cryptography(cls, obj: EllipticCurvePublicKey) -> PublicKey:
        """The same key as a pyca/cryptography public key object.

        The point is copied out as SEC1 bytes (X9.62 uncompressed) and validated again;
        cryptography is imported only by this call.

        Args:
            obj: A cryptography ``EllipticCurvePublicKey`` on SECP256R1.

        Returns:
            The key.

        Raises:
            ImportError: cryptography is not installed (``pip install cryptography``).
            TypeError: obj is not a cryptography EC public key (a private key is named).
            ValueError: The key is on another curve (the message names it).
        """
        return cls.from_bytes(_bridge.public_from_cryptography(obj))

    def to_cryptography(self) -> EllipticCurvePublicKey:
        """The key as a pyca/cryptography object.

        Returns:
            A cryptography ``EllipticCurvePublicKey`` on SECP256R1 with the same point.

        Raises:
            ImportError: cryptography is not installed (``pip install cryptography``).
        """
        return _bridge.public_to_cryptography(self._encode(False))

    @classmethod
    def _from_point(cls, point: bytes, where: str) -> PublicKey:
        """The key of a SEC1 point found in a format (where names it in errors)."""
        pk = cls._load(point)
        if isinstance(pk, int):
            raise ValueError("invalid public key in %s: %s" % (where, point_problem(pk, point)))
        return pk


# Why the core recovers no key, by its reason (p256.h, P256_RECOVER_*).
_NO_KEY = {
    _core.RECOVER_R_PLUS_N: "recovery id %(id)d needs R.x = r + n < p, and r + n >= p here",
    _core.RECOVER_NO_POINT: "no curve point has x = %(x)s",
    _core.RECOVER_INFINITY: "recovery id %(id)d gives the point at infinity",
    _core.RECOVER_UNVERIFIED: "the key for recovery id %(id)d does not verify it",
}


def scalar_base_mult(k: Buffer) -> bytes:
    """k*G.

    A result of bytes cannot be the identity, so k = 0 mod n raises here; with
    ``p256.Scalar`` and ``p256.Point``, ``Scalar.from_int(0) * Point.generator()`` is the
    identity (group semantics).

    Args:
        k: A 32-byte big-endian scalar (reduced mod n).

    Returns:
        The 65-byte uncompressed SEC1 point.

    Raises:
        ValueError: k is not 32 bytes, or k = 0 mod n (the point at infinity).
        TypeError: k is not bytes-like.
    """
    return _core.scalar_base_mult(k)


def scalar_mult(k: Buffer, point: Buffer) -> bytes:
    """k*Q for a scalar and a SEC1 point.

    A result of bytes cannot be the identity, so k = 0 mod n raises here; with
    ``p256.Scalar`` and ``p256.Point``, ``Scalar.from_int(0) * Q`` is the identity (group
    semantics).

    Args:
        k: A 32-byte big-endian scalar (reduced mod n).
        point: Q in SEC1 (compressed or uncompressed), validated.

    Returns:
        The 65-byte uncompressed SEC1 point.

    Raises:
        ValueError: An invalid point or scalar length, or k = 0 mod n.
        TypeError: An argument is not bytes-like.
    """
    return _core.scalar_mult(k, point)


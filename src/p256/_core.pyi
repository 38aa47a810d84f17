# SPDX-License-Identifier: Apache-2.0
"""Types of p256._core, the native binding (csrc/module.c). Internal: the public API is
p256.PrivateKey/PublicKey; these signatures follow the C argument parsing exactly
(METH_O, METH_NOARGS and METH_FASTCALL arguments are positional-only)."""

from collections.abc import Iterable
from typing import Any, ClassVar, Literal, NoReturn, SupportsIndex, TypeVar, final, overload

from typing_extensions import Buffer, disjoint_base

from . import _group  # the class of h2c_map's points (_set_point_class)

_T = TypeVar("_T")

__version__: str
compiler: str
# hashlib name -> the core's RFC 6979 nonce id (sign's `nonce`, Batch's `hash_id`).
NONCE_HASH: dict[str, int]
# sign's `nonce` for a hedged (randomised) nonce.
NONCE_HEDGED: int

_P = TypeVar("_P", bound="PublicPoint")
_S = TypeVar("_S", bound="SecretKey")

@disjoint_base
class SecretKey:
    """A P-256 private scalar held and wiped by the native core: the native part of a
    PrivateKey. Not made by calling the class (TypeError): by _load and generate."""

    # A key of this class from its 32-byte scalar, 1 <= d < n, else ValueError; not
    # bytes-like (or a str): TypeError.
    @classmethod
    def _load(cls: type[_S], data: Buffer, /) -> _S: ...
    @classmethod
    def _generate(cls: type[_S]) -> _S: ...  # OSError if the OS generator fails
    def to_bytes(self) -> bytes: ...
    # d*G as an object of class cls, made on the first call; later calls return it.
    def _public_key(self, cls: type[_P], /) -> _P: ...
    # data: the message, or with is_digest the digest; the rest as PrivateKey.sign takes
    # them (the documented errors). DER, or r||s for "raw"; with recoverable,
    # (signature, recovery id).
    @overload
    def _sign(self, data: Buffer, is_digest: bool, hash: object, encoding: object,
              deterministic: object, low_s: object, recoverable: Literal[False], /) -> bytes: ...
    @overload
    def _sign(self, data: Buffer, is_digest: bool, hash: object, encoding: object,
              deterministic: object, low_s: object, recoverable: Literal[True], /
              ) -> tuple[bytes, int]: ...
    def _exchange(self, key: PublicPoint, /) -> bytes: ...  # 32-byte x of d*Q
    # Always TypeError: a private key is not pickled or copied.
    def __reduce__(self) -> NoReturn: ...
    def __reduce_ex__(self, protocol: SupportsIndex, /) -> NoReturn: ...

@disjoint_base
class PublicPoint:
    """A validated P-256 point in the core's form: the native part of a PublicKey."""

    # A key of this class, or the int reason (P256_POINT_*) the core refuses data.
    @classmethod
    def _load(cls: type[_P], sec1: Buffer, /) -> _P | int: ...
    def _encode(self, compressed: bool, /) -> bytes: ...  # TypeError unless a bool
    # data: the message, or with is_digest the digest; the rest as PublicKey.verify takes
    # them (the documented errors).
    def _verify(self, sig: Buffer, data: Buffer, is_digest: bool, hash: object, encoding: object,
                low_s: object, /) -> bool: ...
    def _table_bits(self) -> int: ...  # the table's window in bits, 0 without one
    # A new table of this key; bits: 4..8 (ValueError otherwise); built without the GIL.
    def _make_table(self, bits: int, /) -> PublicTable: ...
    def _set_table(self, table: PublicTable, /) -> None: ...
    # A key of this class, or the int reason (P256_RECOVER_*) there is none.
    @classmethod
    def _recover(cls: type[_P], rs: Buffer, digest: Buffer, recovery_id: int, /) -> _P | int: ...
    @property
    def _t(self) -> PublicTable | None: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

_PT = TypeVar("_PT", bound="Point")
_ST = TypeVar("_ST", bound="Scalar")

@disjoint_base
class Point:
    """A point of the P-256 group (the identity included), immutable: the native part of
    a p256.Point. Not made by calling the class (TypeError)."""

    # A point of this class (b"\x00": the identity), or the int reason (P256_POINT_*).
    @classmethod
    def _from_sec1(cls: type[_PT], data: Buffer, /) -> _PT | int: ...
    def _sec1(self, compressed: bool, /) -> bytes: ...  # TypeError unless a bool
    @classmethod
    def _generator(cls: type[_PT]) -> _PT: ...
    @classmethod
    def _identity(cls: type[_PT]) -> _PT: ...
    def _double(self: _PT) -> _PT: ...
    def _is_identity(self) -> bool: ...
    def _mul_vartime(self: _PT, scalar: Scalar, /) -> _PT: ...  # TypeError unless a Scalar
    # This point as a key object of class cls; ValueError for the identity.
    def _to_public_key(self, cls: type[_P], /) -> _P: ...
    @classmethod
    def _from_public_key(cls: type[_PT], key: PublicPoint, /) -> _PT: ...
    # The operators: complete additions; products with a Scalar (an int: TypeError).
    def __add__(self: _PT, other: Point, /) -> _PT: ...
    def __radd__(self: _PT, other: Point, /) -> _PT: ...
    def __sub__(self: _PT, other: Point, /) -> _PT: ...
    def __rsub__(self: _PT, other: Point, /) -> _PT: ...
    def __neg__(self: _PT) -> _PT: ...
    def __mul__(self: _PT, other: Scalar, /) -> _PT: ...
    def __rmul__(self: _PT, other: Scalar, /) -> _PT: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class PointTable:
    """A table of one public point P (not the identity: ValueError) for several products
    s*P, each constant time in s (the OPRF server's, over one blinded element)."""

    def __new__(cls, point: Point) -> PointTable: ...  # TypeError unless a Point
    def mul(self, scalar: Scalar, /) -> Point: ...  # s*P as a point of P's class

@disjoint_base
class Scalar:
    """An integer mod n, immutable and wiped when freed: the native part of a
    p256.Scalar. Not made by calling the class (TypeError); not hashable, pickled or
    copied."""

    @classmethod
    def _from_bytes32(cls: type[_ST], data: Buffer, /) -> _ST: ...  # 32 bytes below n, else ValueError
    @classmethod
    def _reduce(cls: type[_ST], data: Buffer, /) -> _ST: ...  # >= 48 bytes, else ValueError
    @classmethod
    def _random(cls: type[_ST]) -> _ST: ...  # OSError if the OS generator fails
    def _invert(self: _ST) -> _ST: ...  # ValueError for 0
    def _is_zero(self) -> bool: ...
    def _bytes(self) -> bytes: ...
    @classmethod
    def _from_private_key(cls: type[_ST], key: SecretKey, /) -> _ST: ...
    # This scalar as a key object of class cls; ValueError for 0.
    def _private_key(self, cls: type[_S], /) -> _S: ...
    def __add__(self: _ST, other: Scalar, /) -> _ST: ...
    def __radd__(self: _ST, other: Scalar, /) -> _ST: ...
    def __sub__(self: _ST, other: Scalar, /) -> _ST: ...
    def __rsub__(self: _ST, other: Scalar, /) -> _ST: ...
    @overload
    def __mul__(self: _ST, other: Scalar, /) -> _ST: ...
    @overload
    def __mul__(self, other: _PT, /) -> _PT: ...
    @overload
    def __rmul__(self: _ST, other: Scalar, /) -> _ST: ...
    @overload
    def __rmul__(self, other: _PT, /) -> _PT: ...
    def __neg__(self: _ST) -> _ST: ...
    def __int__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    # Always TypeError: a scalar is not pickled or copied.
    def __reduce__(self) -> NoReturn: ...
    def __reduce_ex__(self, protocol: SupportsIndex, /) -> NoReturn: ...

# The sum of s_i * P_i as a point of class cls (vartime: for public data only); TypeError
# for an item of the wrong type or an argument that is not iterable, ValueError for counts
# that differ.
def multi_mult(cls: type[_PT], scalars: Iterable[Scalar], points: Iterable[Point], vartime: bool, /
               ) -> _PT: ...
# RFC 9380's map of 48 uniform bytes (one element: encode_to_curve), or of 96 (two,
# mapped and added: hash_to_curve), as a p256.Point; ValueError for another length.
def h2c_map(uniform: Buffer, /) -> _group.Point: ...
def _set_point_class(cls: type[Point], /) -> None: ...

# The default window of PublicTable, in bits.
PUBTABLE_BITS: int

@final
class PublicTable:
    """A per-key table for verification and ECDH (made by PublicKey.precompute)."""

    @property
    def bits(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    def __reduce__(self) -> NoReturn: ...

# Batch's kinds: verify_many, p256verify_many, generate_many, scalar_base_mult_many,
# sign_many, exchange_many.
BATCH_VERIFY: int
BATCH_EIP7951: int
BATCH_GENERATE: int
BATCH_BASE_MULT: int
BATCH_SIGN: int
BATCH_EXCHANGE: int
# The largest Batch.group.
BATCH_GROUP_MAX: int
# batch_secret_backend's operations: k*G (keys, base multiples, signatures), k*Q (ECDH).
BATCH_OP_GEN: int
BATCH_OP_ECDH: int

@final
class Batch:
    """One chunk of a *_many call's items, worked off the GIL."""

    # kind: a BATCH_* kind; items: its items (verify: (pk_type key, signature, message)
    # triples; EIP7951: bytes-like inputs; GENERATE: anything, a key per item; BASE_MULT:
    # 32-byte scalars; SIGN: (SecretKey, message) and EXCHANGE: (SecretKey, pk_type key)
    # pairs). limit < 0: all of items; else the next `limit` items of an iterator. The
    # parameters: pk_type (verify, generate, exchange), sk_type (generate), raw and hash
    # (verify, sign: a NONCE_HASH value), nonce (sign: NONCE_HEDGED or a NONCE_HASH value)
    # and low_s (sign). Wrong items: the error naming the item's index + offset.
    def __new__(
        cls, kind: int, items: Iterable[object], *, offset: int = 0, limit: int = -1,
        group: int = 8, pk_type: type[object] | None = None, sk_type: type[object] | None = None,
        raw: bool = False, hash: int = -1, nonce: int = -1, low_s: bool = False,
    ) -> Batch: ...
    group: int  # items a thread claims at a time, 1..BATCH_GROUP_MAX
    # What stopped the taking of items (the items before it are the batch), or None;
    # given once (the batch lets go of it).
    def pop_error(self) -> BaseException | None: ...
    def run(self) -> None: ...
    # bools (verify), bytes (EIP-7951, points, signatures, shared secrets), or keys of
    # sk_type (GENERATE)
    def results(self) -> list[Any]: ...
    def __len__(self) -> int: ...

# Batch()'s error for any item of a list or tuple, keeping nothing.
def batch_check(
    kind: int, items: list[object] | tuple[object, ...], *, offset: int = 0, limit: int = -1,
    group: int = 8, pk_type: type[object] | None = None, sk_type: type[object] | None = None,
    raw: bool = False, hash: int = -1, nonce: int = -1, low_s: bool = False,
) -> None: ...
def batch_backend() -> str: ...  # "avx512-ifma" or "scalar"
# the engine of the work with secrets of a BATCH_OP_*; ValueError for another int
def batch_secret_backend(op: int, /) -> str: ...
def batch_engines() -> tuple[str, ...]: ...  # the engines that run here, preferred first
def _batch_select(name: str | None, /) -> None: ...  # as P256_BATCH; ValueError if not valid

def backend() -> str: ...
# r||s (64 bytes, r and s in [1, n-1]) of a signature, or the int reason (P256_SIG_*).
def sig_parse(sig: Buffer, raw: bool, /) -> bytes | int: ...
def sig_encode(rs: Buffer, /) -> bytes: ...  # minimal DER of 64-byte r||s; ValueError otherwise
def digest(hash_id: int, msg: Buffer, /) -> bytes: ...  # the core's hash of msg
def scalar_base_mult(k: Buffer, /) -> bytes: ...
def scalar_mult(k: Buffer, sec1_point: Buffer, /) -> bytes: ...
def _selftest(corrupt: int = 0, /) -> None: ...  # ImportError if an answer is wrong
def p256verify(data: Buffer, /) -> bytes: ...  # 32-byte 0..01, or b"" on any failure
def aes_cbc(decrypt: bool, key: Buffer, iv: Buffer, data: Buffer, impl: int, /) -> bytes: ...
def aes_impl() -> str: ...  # "aes-ni" or "portable"
# The arguments of sign and verify, normalized: (a message's hash id or -1 for a digest,
# a digest's size or -1, the RFC 6979 hash id, raw, deterministic, low_s); the documented
# error of the first argument that is wrong.
def sig_args(data: object, is_digest: bool, hash: object, encoding: object,
             deterministic: object = False, low_s: object = False, /
             ) -> tuple[int, int, int, bool, bool, bool]: ...

# The core's reason codes (p256.h): why a SEC1 point, a signature or a recovery is refused.
POINT_OK: int
POINT_INFINITY: int
POINT_HYBRID: int
POINT_X_RANGE: int
POINT_Y_RANGE: int
POINT_NOT_ON_CURVE: int
POINT_COMPRESSED_RANGE: int
POINT_NO_POINT: int
POINT_ENCODING: int
SIG_OK: int
SIG_RAW_LENGTH: int
SIG_DER_EMPTY: int
SIG_DER_NOT_SEQUENCE: int
SIG_DER_LENGTH: int
SIG_DER_OVERRUN: int
SIG_DER_TRAILING: int
SIG_DER_NOT_INTEGER: int
SIG_DER_INTEGER: int
SIG_DER_EXTRA: int
SIG_R_RANGE: int
SIG_S_RANGE: int
RECOVER_OK: int
RECOVER_R_PLUS_N: int
RECOVER_NO_POINT: int
RECOVER_INFINITY: int
RECOVER_UNVERIFIED: int
RECOVER_RANGE: int

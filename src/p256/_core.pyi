# SPDX-License-Identifier: Apache-2.0
"""Types of p256._core, the native binding (csrc/module.c). Internal: the public API is
p256.PrivateKey/PublicKey; these signatures follow the C argument parsing exactly
(METH_O, METH_NOARGS and METH_FASTCALL arguments are positional-only)."""

from collections.abc import Iterable
from typing import Any, Literal, NoReturn, SupportsIndex, TypeVar, final, overload

from typing_extensions import Buffer, disjoint_base

_T = TypeVar("_T")

__version__: str
compiler: str
# hashlib name -> the core's RFC 6979 nonce id (sign's `nonce`, Batch's `hash_id`).
NONCE_HASH: dict[str, int]
# sign's `nonce` for a hedged (randomised) nonce.
NONCE_HEDGED: int

_P = TypeVar("_P", bound="PublicPoint")

@final
class SecretKey:
    """A P-256 private scalar held and wiped by the native core."""

    # 32 bytes, 1 <= d < n, else ValueError; not bytes-like (or a str): TypeError.
    def __new__(cls, data: Buffer) -> SecretKey: ...
    @classmethod
    def generate(cls) -> SecretKey: ...  # OSError if the OS generator fails
    def to_bytes(self) -> bytes: ...
    def public_key(self, cls: type[_P], /) -> _P: ...  # d*G as an object of class cls
    # hash_id >= 0: data is a message hashed by the core with it; -1: data is the digest,
    # exactly `size` bytes (-1: any but none). The nonce: hedged when deterministic is
    # False, RFC 6979 with HMAC over nonce_id when True. DER, or r||s when raw; with
    # recoverable, (signature, recovery id). Flags must be bools, else TypeError.
    @overload
    def sign(self, data: Buffer, hash_id: int, size: int, nonce_id: int, raw: bool,
             deterministic: bool, low_s: bool, recoverable: Literal[False], /) -> bytes: ...
    @overload
    def sign(self, data: Buffer, hash_id: int, size: int, nonce_id: int, raw: bool,
             deterministic: bool, low_s: bool, recoverable: Literal[True], /
             ) -> tuple[bytes, int]: ...
    def exchange(self, key: PublicPoint, /) -> bytes: ...  # 32-byte x of d*Q
    # Always TypeError: a private key is not pickled or copied implicitly.
    def __reduce__(self) -> NoReturn: ...
    def __reduce_ex__(self, protocol: SupportsIndex, /) -> NoReturn: ...

@disjoint_base
class PublicPoint:
    """A validated P-256 point in the core's form: the native part of a PublicKey."""

    # A key of this class, or the int reason (P256_POINT_*) the core refuses data.
    @classmethod
    def _load(cls: type[_P], sec1: Buffer, /) -> _P | int: ...
    def _encode(self, compressed: bool, /) -> bytes: ...  # TypeError unless a bool
    # hash_id: a NONCE_HASH value (the core hashes msg); size: the digest's (-1: any).
    def _verify(self, sig: Buffer, msg: Buffer, hash_id: int, raw: bool, low_s: bool, /) -> bool: ...
    def _verify_digest(self, sig: Buffer, digest: Buffer, size: int, raw: bool, low_s: bool, /
                       ) -> bool: ...
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

# Batch's hash_id for EIP-7951 inputs (160 bytes, the hash used as the digest).
BATCH_EIP7951: int
# The largest Batch.group.
BATCH_GROUP_MAX: int
# Batch's kind: verification (the default), or the work with secrets.
BATCH_VERIFY: int
BATCH_GENERATE: int
BATCH_BASE_MULT: int
BATCH_SIGN: int
BATCH_EXCHANGE: int
# batch_secret_backend's operations: k*G (keys, base multiples, signatures), k*Q (ECDH).
BATCH_OP_GEN: int
BATCH_OP_ECDH: int

@final
class Batch:
    """Batch(items, PublicKey, raw, hash_id, offset=0, group=8, limit=-1, kind=0, nonce=-1,
    low_s=False): signatures to verify, or the work with secrets of kind, off the GIL."""

    # items: (key, signature, message) triples, each key an instance of pk_type, or for
    # hash_id BATCH_EIP7951 bytes-like inputs (pk_type ignored); hash_id: a NONCE_HASH
    # value. limit < 0: all of items; else the next `limit` items of an iterator. Wrong
    # types: TypeError naming the item's index + offset. The kinds with secrets take:
    # GENERATE anything (a key per item), BASE_MULT 32-byte scalars, SIGN (SecretKey,
    # message) and EXCHANGE (SecretKey, key of pk_type) pairs; nonce NONCE_HEDGED or a
    # NONCE_HASH value.
    def __new__(
        cls, items: Iterable[object], pk_type: type[object] | None, raw: bool, hash_id: int,
        offset: int = 0, group: int = 8, limit: int = -1, kind: int = 0, nonce: int = -1,
        low_s: bool = False, /
    ) -> Batch: ...
    group: int  # items a thread claims at a time, 1..BATCH_GROUP_MAX
    def run(self) -> None: ...
    # bools (verify), bytes (EIP-7951, points, signatures, shared secrets), or
    # (SecretKey, PublicPoint of pk_type) pairs (GENERATE)
    def results(self) -> list[Any]: ...
    def __len__(self) -> int: ...

# Batch()'s error for any item of a list or tuple, keeping nothing.
def batch_check(items: list[object] | tuple[object, ...], pk_type: type[object] | None, raw: bool,
                hash_id: int, kind: int = 0, /) -> None: ...
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

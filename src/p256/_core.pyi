# SPDX-License-Identifier: Apache-2.0
"""Types of p256._core, the native binding (csrc/module.c). Internal: the public API is
p256.PrivateKey/PublicKey; these signatures follow the C argument parsing exactly
(METH_O, METH_NOARGS and METH_FASTCALL arguments are positional-only)."""

from collections.abc import Iterable
from typing import NoReturn, SupportsIndex, TypeVar, final

from typing_extensions import Buffer

_T = TypeVar("_T")

__version__: str
compiler: str
# hashlib name -> the core's RFC 6979 nonce id (sign's `nonce`, Batch's `hash_id`).
NONCE_HASH: dict[str, int]
# sign's `nonce` for a hedged (randomised) nonce.
NONCE_HEDGED: int

@final
class SecretKey:
    """A P-256 private scalar held and wiped by the native core."""

    # 32 bytes, 1 <= d < n, else ValueError; not bytes-like (or a str): TypeError.
    def __new__(cls, data: Buffer) -> SecretKey: ...
    @classmethod
    def generate(cls) -> SecretKey: ...  # OSError if the OS generator fails
    def to_bytes(self) -> bytes: ...
    def public_key(self) -> bytes: ...  # 65-byte uncompressed SEC1
    # nonce: NONCE_HEDGED or a NONCE_HASH value; DER, or r||s (64 bytes) when raw.
    def sign(self, digest: Buffer, raw: bool, nonce: int, /) -> bytes: ...
    def exchange(self, sec1_point: Buffer, /) -> bytes: ...  # 32-byte x of d*Q
    # Always TypeError: a private key is not pickled or copied implicitly.
    def __reduce__(self) -> NoReturn: ...
    def __reduce_ex__(self, protocol: SupportsIndex, /) -> NoReturn: ...

# The default window of PublicTable, in bits.
PUBTABLE_BITS: int

@final
class PublicTable:
    """PublicTable(sec1_pub, bits): a per-key table for verification (vartime)."""

    # bits: 4..8 (ValueError otherwise, and for an invalid key); built without the GIL.
    def __new__(cls, sec1_pub: Buffer, bits: int, /) -> PublicTable: ...
    def verify(self, sig: Buffer, digest: Buffer, raw: bool, /) -> bool: ...
    @property
    def bits(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    def __reduce__(self) -> NoReturn: ...

# Batch's hash_id for EIP-7951 inputs (160 bytes, the hash used as the digest).
BATCH_EIP7951: int
# The largest Batch.group.
BATCH_GROUP_MAX: int

@final
class Batch:
    """Batch(items, PublicKey, raw, hash_id, offset=0, group=8, limit=-1): signatures to
    verify off the GIL."""

    # items: (key, signature, message) triples, each key an instance of pk_type, or for
    # hash_id BATCH_EIP7951 bytes-like inputs (pk_type ignored); hash_id: a NONCE_HASH
    # value. limit < 0: all of items; else the next `limit` items of an iterator. Wrong
    # types: TypeError naming the item's index + offset.
    def __new__(
        cls, items: Iterable[object], pk_type: type[object] | None, raw: bool, hash_id: int,
        offset: int = 0, group: int = 8, limit: int = -1, /
    ) -> Batch: ...
    group: int  # items a thread claims at a time, 1..BATCH_GROUP_MAX
    def run(self) -> None: ...
    def results(self) -> list[bool] | list[bytes]: ...  # bytes for BATCH_EIP7951
    def __len__(self) -> int: ...

# Batch()'s TypeError for any item of a list or tuple, keeping nothing.
def batch_check(items: list[object] | tuple[object, ...], pk_type: type[object] | None, raw: bool,
                hash_id: int, /) -> None: ...
def batch_backend() -> str: ...  # "avx512-ifma" or "scalar"
def batch_engines() -> tuple[str, ...]: ...  # the engines that run here, preferred first
def _batch_select(name: str | None, /) -> None: ...  # as P256_BATCH; ValueError if not valid

def backend() -> str: ...
def point_decode(sec1: Buffer, /) -> bytes: ...  # 65-byte uncompressed; ValueError if invalid
def verify(sec1_pub: Buffer, sig: Buffer, digest: Buffer, raw: bool, /) -> bool: ...
def scalar_base_mult(k: Buffer, /) -> bytes: ...
def scalar_mult(k: Buffer, sec1_point: Buffer, /) -> bytes: ...
def _selftest(corrupt: int = 0, /) -> None: ...  # ImportError if an answer is wrong
def p256verify(data: Buffer, /) -> bytes: ...  # 32-byte 0..01, or b"" on any failure
def aes_cbc(decrypt: bool, key: Buffer, iv: Buffer, data: Buffer, impl: int, /) -> bytes: ...
def aes_impl() -> str: ...  # "aes-ni" or "portable"

# SPDX-License-Identifier: Apache-2.0
"""PKCS#8 ``PrivateKeyInfo`` (RFC 5208) and RFC 5958 ``OneAsymmetricKey`` holding a P-256
ECPrivateKey, on bytes (see _sec1 for the inner structure and Parts).

Read: version 0 (v1) or 1 (v2); algorithm id-ecPublicKey (1.2.840.10045.2.1) with the
namedCurve parameter prime256v1 (1.2.840.10045.3.1.7); privateKey an OCTET STRING holding
an ECPrivateKey; then optionally attributes [0] (accepted when they are strict DER, X.501
Attributes in DER order; not interpreted) and, in v2 only, publicKey [1] (checked against
the scalar like SEC1's). Written: v1 holding ECPrivateKey {1, d, [1] publicKey} (no inner
parameters), as OpenSSL and pyca/cryptography write it. Encrypted PKCS#8
(EncryptedPrivateKeyInfo) is _pbes2's; it holds this structure.
"""

from __future__ import annotations

from typing import Optional

from . import _der as der
from . import _sec1
from ._common import small
from ._der import Reader
from ._ecparams import ALGORITHM_ID, read_algorithm
from ._sec1 import Parts

__all__ = ["encode", "load", "fast"]

_VERSION_0 = der.integer(0)
WHERE_OUTER = "the PKCS#8 publicKey field"


def encode(d: bytes, q: bytes) -> bytes:
    return der.sequence(_VERSION_0, ALGORITHM_ID, der.octet_string(_sec1.encode(d, q, False)))


def read_attributes(a: Reader) -> None:
    """PKCS#8 attributes (RFC 5958 2): a SET OF X.501 Attribute, each a SEQUENCE { type
    OBJECT IDENTIFIER, values SET OF ANY }. Not interpreted, but held to strict DER like
    the rest of the key (found by the fuzzer, tests/fuzz: they used to be skipped
    unread): every value is DER all the way down (Reader.any_der) and both SET OFs are in
    ascending order (X.690 11.6)."""
    previous = None
    while not a.at_end():
        start = a.pos
        attribute = a.enter(der.SEQUENCE, "Attribute")
        attribute.oid("Attribute type")
        if attribute.peek() != 0x31:
            attribute.read(0x31, "Attribute values (SET OF)")  # raises, naming what is there
        attribute.any_der("Attribute values")
        attribute.finish()
        encoding = a.buf[start:a.pos]
        if previous is not None and encoding < previous:
            raise a.error("attributes not in ascending order (X.690 11.6)")
        previous = encoding


def load(r: Reader) -> Parts:
    """PrivateKeyInfo / OneAsymmetricKey after its SEQUENCE header (RFC 5208, RFC 5958)."""
    version = r.integer("version")
    if version not in (0, 1):
        raise ValueError("unsupported PKCS#8 version %s (0 = v1, 1 = v2 of RFC 5958)"
                         % small(version))
    read_algorithm(r)
    inner = r.octet_string_reader("privateKey", "ECPrivateKey inside PKCS#8")
    if r.optional(0xA0):  # attributes [0] IMPLICIT SET OF Attribute: checked, not used
        read_attributes(r.enter(0xA0, "attributes [0]"))
    outer_point = None
    if r.optional(0x81):  # publicKey [1] IMPLICIT BIT STRING, v2 only
        if version != 1:
            raise ValueError("malformed PKCS#8: a publicKey [1] field requires version 1 "
                             "(v2, RFC 5958)")
        outer_point = r.bit_string("publicKey [1]", tag=0x81)
    r.finish()
    ec = inner.enter(der.SEQUENCE, "ECPrivateKey")
    inner.finish()
    d, stored = _sec1.load(ec)
    if outer_point is not None:
        stored.append((outer_point, WHERE_OUTER))
    return d, stored


FAST = _sec1.template(encode(*_sec1.EMPTY_KEY))


def fast(data: bytes) -> Optional[Parts]:
    """Parts when data is exactly the PKCS#8 we write (any d, Q), else None."""
    return _sec1.fast(data, FAST)

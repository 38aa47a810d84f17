# SPDX-License-Identifier: Apache-2.0
"""The EC key's algorithm identifier and curve parameters (RFC 5480), shared by every
format that carries a P-256 key (PKCS#8, SEC1, SubjectPublicKeyInfo, X.509, and PKCS#8
inside an EncryptedPrivateKeyInfo): the OIDs, the readers that accept only id-ecPublicKey with the
namedCurve prime256v1, and the names of the curves and algorithms they refuse."""

from __future__ import annotations

from . import _der as der
from ._der import Reader

OID_EC_PUBLIC_KEY = der.oid_from_str("1.2.840.10045.2.1")  # RFC 5480 2.1.1
OID_PRIME256V1 = der.oid_from_str("1.2.840.10045.3.1.7")  # RFC 5480 2.1.1.1 (secp256r1)

# Named curves we recognise only to say which curve a rejected key is on
# (SEC 2 v2 A.2, RFC 5480 2.1.1.1, RFC 5639 4.1, GM/T 0006, ANSSI).
_OTHER_CURVES = der.oid_table(
    [
        ("1.2.840.10045.3.1.1", "secp192r1 (P-192)"),
        ("1.2.840.10045.3.1.2", "prime192v2"),
        ("1.2.840.10045.3.1.3", "prime192v3"),
        ("1.2.840.10045.3.1.4", "prime239v1"),
        ("1.2.840.10045.3.1.5", "prime239v2"),
        ("1.2.840.10045.3.1.6", "prime239v3"),
        ("1.3.132.0.6", "secp112r1"),
        ("1.3.132.0.7", "secp112r2"),
        ("1.3.132.0.28", "secp128r1"),
        ("1.3.132.0.29", "secp128r2"),
        ("1.3.132.0.9", "secp160k1"),
        ("1.3.132.0.8", "secp160r1"),
        ("1.3.132.0.30", "secp160r2"),
        ("1.3.132.0.31", "secp192k1"),
        ("1.3.132.0.32", "secp224k1"),
        ("1.3.132.0.33", "secp224r1 (P-224)"),
        ("1.3.132.0.10", "secp256k1"),
        ("1.3.132.0.34", "secp384r1 (P-384)"),
        ("1.3.132.0.35", "secp521r1 (P-521)"),
        ("1.3.132.0.1", "sect163k1"),
        ("1.3.132.0.15", "sect163r2"),
        ("1.3.132.0.26", "sect233k1"),
        ("1.3.132.0.27", "sect233r1"),
        ("1.3.132.0.16", "sect283k1"),
        ("1.3.132.0.17", "sect283r1"),
        ("1.3.132.0.36", "sect409k1"),
        ("1.3.132.0.37", "sect409r1"),
        ("1.3.132.0.38", "sect571k1"),
        ("1.3.132.0.39", "sect571r1"),
        ("1.3.36.3.3.2.8.1.1.1", "brainpoolP160r1"),
        ("1.3.36.3.3.2.8.1.1.3", "brainpoolP192r1"),
        ("1.3.36.3.3.2.8.1.1.5", "brainpoolP224r1"),
        ("1.3.36.3.3.2.8.1.1.7", "brainpoolP256r1"),
        ("1.3.36.3.3.2.8.1.1.8", "brainpoolP256t1"),
        ("1.3.36.3.3.2.8.1.1.9", "brainpoolP320r1"),
        ("1.3.36.3.3.2.8.1.1.11", "brainpoolP384r1"),
        ("1.3.36.3.3.2.8.1.1.13", "brainpoolP512r1"),
        ("1.2.156.10197.1.301", "SM2"),
        ("1.2.250.1.223.101.256.1", "FRP256v1"),
    ]
)

# Key algorithms we recognise only to name them in an error (RFC 8017, RFC 8410, RFC 5480).
_OTHER_ALGORITHMS = der.oid_table(
    [
        ("1.2.840.113549.1.1.1", "rsaEncryption (RSA)"),
        ("1.2.840.113549.1.1.10", "id-RSASSA-PSS (RSA-PSS)"),
        ("1.2.840.10040.4.1", "id-dsa (DSA)"),
        ("1.2.840.10046.2.1", "dhpublicnumber (DH)"),
        ("1.3.101.110", "X25519"),
        ("1.3.101.111", "X448"),
        ("1.3.101.112", "Ed25519"),
        ("1.3.101.113", "Ed448"),
        ("1.3.132.1.12", "id-ecDH (EC restricted to ECDH, RFC 5480 2.1.2)"),
        ("1.3.132.1.13", "id-ecMQV (EC restricted to ECMQV, RFC 5480 2.1.2)"),
    ]
)

EXPLICIT = "explicit curve parameters are not supported; use a named curve (prime256v1)"

# Encodings that never change.
P256_PARAMS = der.oid(OID_PRIME256V1)
ALGORITHM_ID = der.sequence(der.oid(OID_EC_PUBLIC_KEY), P256_PARAMS)


def algorithm_name(contents: bytes) -> str:
    """A key algorithm OID for a message: its name when known, else "OID <dotted>"."""
    return _OTHER_ALGORITHMS.get(contents) or "OID " + der.oid_text(contents)


def read_curve(r: Reader) -> None:
    """ECParameters (RFC 5480 2.1.1): must be the namedCurve prime256v1."""
    tag = r.peek()
    if tag == der.SEQUENCE:
        raise ValueError(EXPLICIT)
    if tag == der.NULL:
        raise ValueError("implicitCA curve parameters (NULL) are not supported; "
                         "use a named curve (prime256v1)")
    curve = r.oid("namedCurve")
    if curve == OID_PRIME256V1:
        return
    name = _OTHER_CURVES.get(curve)
    if name is not None:
        raise ValueError("the key is on the curve %s, not P-256 (prime256v1)" % name)
    raise ValueError("the key is on an unknown curve (OID %s), not P-256 (prime256v1)"
                     % der.oid_text(curve))


def read_algorithm(r: Reader) -> None:
    """AlgorithmIdentifier: id-ecPublicKey with namedCurve prime256v1."""
    a = r.enter(der.SEQUENCE, "AlgorithmIdentifier")
    algorithm = a.oid("algorithm")
    if algorithm != OID_EC_PUBLIC_KEY:
        raise ValueError("not an EC key: the algorithm is %s, expected id-ecPublicKey "
                         "(1.2.840.10045.2.1)" % algorithm_name(algorithm))
    if a.at_end():
        raise ValueError("malformed %s: id-ecPublicKey without curve parameters" % r.what)
    read_curve(a)
    a.finish()

# SPDX-License-Identifier: Apache-2.0
"""X.509 certificates (RFC 5280) with P-256 keys: the issuer's ECDSA signature.

No chain building, no validity dates, names, extensions or policy:
``verify_signature`` answers only "did this key sign this certificate's
TBSCertificate?", which is one step of path validation (RFC 5280 section 6), not all
of it. Use a full X.509 library (pyca/cryptography's verification API, OpenSSL) to
decide whether to trust a certificate. ``PublicKey.from_certificate`` reads the
subject's key; ``parse`` returns the parts both use. What is accepted: strict DER,
the RFC 5280 4.1 structure, ecdsa-with-SHA256/384/512 (the documentation's page
"COSE, WebAuthn, JWS, X.509" has the details).
"""
# The parsing is in the bytes-level _x509 (which _keys imports); this module imports
# _keys and nothing imports it back, so there is no cycle.

from __future__ import annotations

from ._keys import PublicKey
from ._x509 import (SIGNATURE_HASHES, Certificate, Data, Extension, parse, signature_hash,
                    subject_public_key_info)

__all__ = ["Certificate", "Extension", "parse", "subject_public_key_info", "verify_signature",
           "SIGNATURE_HASHES"]


def verify_signature(cert: Data, issuer_key: PublicKey) -> bool:
    """Whether ``issuer_key`` signed this certificate (its TBSCertificate).

    Only the signature: no chain, dates, names, key usage or policy (see the module
    docstring).

    Args:
        cert: the certificate, DER or PEM.
        issuer_key: the issuer's P-256 key (``PublicKey.from_certificate(issuer_cert)``;
            for a self-signed certificate, its own key).

    Returns:
        True when the ECDSA signature verifies over the TBSCertificate with the hash of
        the signature algorithm; False for any invalid signature (a malformed
        Ecdsa-Sig-Value inside the BIT STRING included).

    Raises:
        TypeError: issuer_key is not a p256.PublicKey, or cert is not bytes/str.
        ValueError: a malformed certificate (a signatureValue BIT STRING with unused
            bits included), or a signature algorithm other than
            ecdsa-with-SHA256/384/512 (named in the message).
    """
    if not isinstance(issuer_key, PublicKey):
        raise TypeError("issuer_key must be a p256.PublicKey, not %s" % type(issuer_key).__name__)
    c = parse(cert)
    return issuer_key.verify(c.signature, c.tbs_certificate, hash=signature_hash(c), encoding="der")


def __dir__() -> list[str]:
    """What dir() shows of this module: its public names (PEP 562), not its imports."""
    return sorted(__all__)

# SPDX-License-Identifier: Apache-2.0
"""p256.x509 and PublicKey.from_certificate on certificates made by the openssl CLI and
by pyca/cryptography, chains of two included."""

import datetime
import re
import shutil
import subprocess

import pytest

import p256
from p256 import _der as bdr
from p256 import x509 as px509

pytest.importorskip("cryptography")
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives import serialization as ser  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, rsa  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def c_point(pub) -> bytes:
    return pub.public_bytes(ser.Encoding.X962, ser.PublicFormat.UncompressedPoint)


def make_cert(subject_key, issuer_key, subject="leaf", issuer="Test CA", algorithm=None,
              ca=False):
    """A certificate made by cryptography."""
    builder = (x509.CertificateBuilder()
               .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
               .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
               .public_key(subject_key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(NOW)
               .not_valid_after(NOW + datetime.timedelta(days=30))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    return builder.sign(issuer_key, algorithm if algorithm is not None else hashes.SHA256())


CA_KEY = ec.generate_private_key(ec.SECP256R1())
LEAF_KEY = ec.generate_private_key(ec.SECP256R1())
CA = make_cert(CA_KEY, CA_KEY, "Test CA", ca=True)
LEAF = make_cert(LEAF_KEY, CA_KEY)


def der(cert) -> bytes:
    return cert.public_bytes(ser.Encoding.DER)


def pem(cert) -> bytes:
    return cert.public_bytes(ser.Encoding.PEM)


def test_chain_of_two_made_by_cryptography():
    ca_pk = p256.PublicKey.from_certificate(der(CA))
    leaf_pk = p256.PublicKey.from_certificate(pem(LEAF))
    assert ca_pk.to_bytes() == c_point(CA_KEY.public_key())
    assert leaf_pk.to_bytes() == c_point(LEAF_KEY.public_key())
    assert p256.PublicKey.from_certificate(pem(LEAF).decode()) == leaf_pk
    assert px509.verify_signature(der(CA), ca_pk) is True  # self-signed
    assert px509.verify_signature(pem(LEAF), ca_pk) is True
    assert px509.verify_signature(der(LEAF), leaf_pk) is False  # not its own issuer
    assert px509.verify_signature(der(CA), leaf_pk) is False
    # cryptography agrees on who signed what
    LEAF.verify_directly_issued_by(CA)


@pytest.mark.parametrize("algorithm,name", [(hashes.SHA256(), "sha256"),
                                            (hashes.SHA384(), "sha384"),
                                            (hashes.SHA512(), "sha512")])
def test_ecdsa_hashes(algorithm, name):
    cert = make_cert(LEAF_KEY, CA_KEY, algorithm=algorithm)
    ca_pk = p256.PublicKey.from_certificate(der(CA))
    assert px509.verify_signature(der(cert), ca_pk)
    parts = px509.parse(der(cert))
    assert px509.SIGNATURE_HASHES[parts.signature_algorithm] == name
    assert parts.tbs_certificate == cert.tbs_certificate_bytes
    assert parts.signature == cert.signature
    # the signature is over the TBSCertificate with that hash, as PublicKey.verify checks it
    assert ca_pk.verify(cert.signature, cert.tbs_certificate_bytes, hash=name)


openssl = shutil.which("openssl")


@pytest.mark.skipif(openssl is None, reason="no openssl CLI")
def test_chain_of_two_made_by_openssl(tmp_path):
    def run(*args):
        subprocess.run([openssl, *args], cwd=tmp_path, check=True, capture_output=True)

    run("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key")
    run("req", "-x509", "-new", "-key", "ca.key", "-subj", "/CN=OpenSSL CA", "-days", "30",
        "-sha256", "-out", "ca.pem")
    run("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "leaf.key")
    run("req", "-new", "-key", "leaf.key", "-subj", "/CN=leaf", "-out", "leaf.csr")
    run("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "10", "-sha384", "-out", "leaf.pem")
    run("x509", "-in", "leaf.pem", "-outform", "DER", "-out", "leaf.der")
    run("pkey", "-in", "leaf.key", "-pubout", "-out", "leaf.pub")
    ca_pem = (tmp_path / "ca.pem").read_bytes()
    leaf_pem = (tmp_path / "leaf.pem").read_bytes()
    leaf_der = (tmp_path / "leaf.der").read_bytes()
    ca_pk = p256.PublicKey.from_certificate(ca_pem)
    leaf_pk = p256.PublicKey.from_certificate(leaf_der)
    assert leaf_pk == p256.PublicKey.from_certificate(leaf_pem)
    assert leaf_pk == p256.PublicKey.from_pem((tmp_path / "leaf.pub").read_bytes())
    assert px509.verify_signature(ca_pem, ca_pk)
    assert px509.verify_signature(leaf_der, ca_pk)
    assert not px509.verify_signature(leaf_der, leaf_pk)
    # and openssl agrees that p256 found the right chain
    subprocess.run([openssl, "verify", "-CAfile", "ca.pem", "leaf.pem"], cwd=tmp_path,
                   check=True, capture_output=True)


def test_tampered_tbs_is_false():
    ca_pk = p256.PublicKey.from_certificate(der(CA))
    raw = bytearray(der(LEAF))
    i = raw.index(b"leaf")
    raw[i] ^= 0x20  # "Leaf": same structure, different TBSCertificate
    assert px509.verify_signature(bytes(raw), ca_pk) is False


def test_other_key_types_and_algorithms():
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_signed = make_cert(LEAF_KEY, rsa_key)
    with pytest.raises(ValueError, match="sha256WithRSAEncryption"):
        px509.verify_signature(der(rsa_signed), p256.PublicKey.from_certificate(der(CA)))
    assert p256.PublicKey.from_certificate(der(rsa_signed)).to_bytes() == c_point(LEAF_KEY.public_key())
    rsa_subject = make_cert(rsa_key, CA_KEY)
    with pytest.raises(ValueError):
        p256.PublicKey.from_certificate(der(rsa_subject))
    p384_subject = make_cert(ec.generate_private_key(ec.SECP384R1()), CA_KEY)
    with pytest.raises(ValueError, match="384|curve"):
        p256.PublicKey.from_certificate(der(p384_subject))
    p384_ca = ec.generate_private_key(ec.SECP384R1())
    signed_by_p384 = make_cert(LEAF_KEY, p384_ca, algorithm=hashes.SHA384())
    # the signature is not by this P-256 key: False, not an error
    assert not px509.verify_signature(der(signed_by_p384), p256.PublicKey.from_certificate(der(CA)))


# -- strict DER and the RFC 5280 structure --------------------------------------------------


def replace_once(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1, (old, data.count(old))
    return data.replace(old, new)


def test_strict_der():
    raw = der(LEAF)
    with pytest.raises(ValueError, match="unexpected octet"):
        p256.PublicKey.from_certificate(raw + b"\x00")
    with pytest.raises(ValueError):
        p256.PublicKey.from_certificate(raw[:-1])
    # the outer length in a non-minimal form: 30 82 xx xx -> 30 83 00 xx xx
    assert raw[1] == 0x82
    longer = b"\x30\x83\x00" + raw[2:]
    with pytest.raises(ValueError, match="non-minimal length"):
        p256.PublicKey.from_certificate(longer)
    with pytest.raises(ValueError, match="non-minimal length"):
        px509.verify_signature(longer, p256.PublicKey.from_certificate(raw))
    # BasicConstraints critical TRUE written as 0x01 (BER; DER says 0xFF)
    ca_raw = der(CA)
    assert ca_raw.count(b"\x01\x01\xff") == 2  # critical TRUE and cA TRUE
    bad_bool = ca_raw.replace(b"\x01\x01\xff", b"\x01\x01\x01", 1)
    with pytest.raises(ValueError, match="BOOLEAN"):
        p256.PublicKey.from_certificate(bad_bool)


def test_algorithm_mismatch_and_parameters():
    raw = der(LEAF)
    sha256_oid = b"\x06\x08\x2a\x86\x48\xce\x3d\x04\x03\x02"
    assert raw.count(sha256_oid) == 2  # inside the TBSCertificate, and outside
    i = raw.rindex(sha256_oid)
    outer_384 = raw[:i] + sha256_oid[:-1] + b"\x03" + raw[i + len(sha256_oid):]
    with pytest.raises(ValueError, match="4.1.1.2"):
        px509.verify_signature(outer_384, p256.PublicKey.from_certificate(der(CA)))


def test_version_rules():
    raw = der(LEAF)
    version = b"\xa0\x03\x02\x01\x02"  # [0] EXPLICIT INTEGER 2 (v3)
    assert raw.count(version) == 1
    v1_explicit = raw.replace(version, b"\xa0\x03\x02\x01\x00")
    with pytest.raises(ValueError, match="explicit version v1"):
        p256.PublicKey.from_certificate(v1_explicit)
    v9 = raw.replace(version, b"\xa0\x03\x02\x01\x09")
    with pytest.raises(ValueError, match="unknown version"):
        p256.PublicKey.from_certificate(v9)
    v2 = raw.replace(version, b"\xa0\x03\x02\x01\x01")  # extensions need v3
    with pytest.raises(ValueError, match="extensions in a v2"):
        p256.PublicKey.from_certificate(v2)


def test_inputs():
    with pytest.raises(TypeError, match="bytes"):
        p256.PublicKey.from_certificate(5)
    with pytest.raises(ValueError, match="CERTIFICATE"):
        p256.PublicKey.from_certificate(p256.PrivateKey.generate().public_key.to_pem())
    with pytest.raises(ValueError):
        p256.PublicKey.from_certificate(b"")
    with pytest.raises(TypeError, match="PublicKey"):
        px509.verify_signature(der(LEAF), der(CA))
    text = b"subject=CN = leaf\nissuer=CN = Test CA\n" + pem(LEAF) + b"trailing text\n"
    assert p256.PublicKey.from_certificate(text).to_bytes() == c_point(LEAF_KEY.public_key())
    # a certificate is not a SubjectPublicKeyInfo, and the readers say where to go
    for reader, data in ((p256.PublicKey.from_der, der(LEAF)), (p256.PublicKey.from_pem, pem(LEAF)),
                         (p256.PrivateKey.from_der, der(LEAF)), (p256.PrivateKey.from_pem, pem(LEAF))):
        with pytest.raises(ValueError, match=r"PublicKey\.from_certificate"):
            reader(data)


def test_signature_bit_string_with_unused_bits():
    raw = der(LEAF)
    n = len(LEAF.signature)
    assert raw[-n - 3:-n] == bytes([0x03, n + 1, 0x00])  # BIT STRING, length, 0 unused bits
    # 2 unused bits (zero, so still DER): an ECDSA signature is never that
    shifted = raw[:-n - 1] + b"\x02" + LEAF.signature[:-1] + bytes([LEAF.signature[-1] & 0xFC])
    with pytest.raises(ValueError, match="unused bits"):
        px509.verify_signature(shifted, p256.PublicKey.from_certificate(der(CA)))


# -- hostile certificates: each one validly signed, each refused ---------------------------
# Built field by field with p256's DER writer and signed by CA_KEY, so that only the one
# defect stands between the certificate and a True from verify_signature; pyca/cryptography
# is the oracle (it refuses each, except where noted).

_ECDSA_SHA256 = bdr.sequence(bdr.oid(bdr.oid_from_str("1.2.840.10045.4.3.2")))
_CN = bdr.oid(bdr.oid_from_str("2.5.4.3"))
_LEAF_SPKI = LEAF_KEY.public_key().public_bytes(ser.Encoding.DER,
                                                ser.PublicFormat.SubjectPublicKeyInfo)


def _name(value=bdr.tlv(0x0C, b"Test CA"), extra=b""):
    return bdr.sequence(bdr.tlv(0x31, bdr.sequence(_CN, value)), extra)


def _validity(not_before=bdr.tlv(0x17, b"260101000000Z"), not_after=bdr.tlv(0x17, b"260201000000Z")):
    return bdr.sequence(not_before, not_after)


def _ext(oid="2.5.29.19", critical=b"\x01\x01\xff", value=bdr.octet_string(bdr.sequence())):
    return bdr.sequence(bdr.oid(bdr.oid_from_str(oid)), critical, value)


def signed_cert(issuer=None, validity=None, extensions=None, subject=None):
    """A v3 certificate of LEAF_KEY signed by CA_KEY, with these fields as given."""
    exts = [_ext()] if extensions is None else extensions
    tbs = bdr.sequence(bdr.explicit(0, bdr.integer(2)), bdr.integer(12345), _ECDSA_SHA256,
                       _name() if issuer is None else issuer, validity or _validity(),
                       _name(bdr.tlv(0x0C, b"leaf")) if subject is None else subject,
                       _LEAF_SPKI, bdr.explicit(3, bdr.sequence(*exts)))
    return bdr.sequence(tbs, _ECDSA_SHA256,
                        bdr.bit_string(CA_KEY.sign(tbs, ec.ECDSA(hashes.SHA256()))))


HOSTILE_CERTS = {
    "constructed UTF8String in the issuer": (
        signed_cert(issuer=_name(bdr.tlv(0x2C, bdr.tlv(0x0C, b"Test") + bdr.tlv(0x0C, b" CA")))),
        "UTF8String in the constructed form"),
    "constructed OCTET STRING as extnValue": (
        signed_cert(extensions=[_ext(value=bdr.tlv(0x24, bdr.octet_string(bdr.sequence())))]),
        "found constructed OCTET STRING"),
    "constructed UTCTime as notBefore": (
        signed_cert(validity=_validity(bdr.tlv(0x37, bdr.tlv(0x1A, b"260101") + bdr.tlv(0x1A, b"000000Z")))),
        "notBefore must be a UTCTime or a GeneralizedTime, not constructed UTCTime"),
    "empty constructed BOOLEAN as critical": (
        signed_cert(extensions=[_ext(critical=b"\x21\x00")]),
        "expected critical (BOOLEAN), found constructed BOOLEAN"),
    "end-of-contents inside the issuer": (
        signed_cert(issuer=_name(extra=b"\x00\x00")), "found end-of-contents"),
    "primitive SEQUENCE in an attribute value": (
        signed_cert(issuer=_name(bdr.tlv(0x10, b"\x0c\x02ab"))), "SEQUENCE in the primitive form"),
    "critical FALSE written out": (
        signed_cert(extensions=[_ext(critical=b"\x01\x01\x00")]), "critical FALSE written out"),
    "an extension twice": (
        signed_cert(extensions=[_ext(), _ext(critical=b"")]), "appears twice"),
    "UTCTime without seconds": (
        signed_cert(validity=_validity(bdr.tlv(0x17, b"2601010000Z"))), "UTCTime not in the DER form"),
    "GeneralizedTime with a trailing zero": (
        signed_cert(validity=_validity(not_after=bdr.tlv(0x18, b"20500101000000.10Z"))),
        "no trailing zeros"),
    "an empty RelativeDistinguishedName": (
        signed_cert(subject=bdr.sequence(bdr.tlv(0x31, b""))), "empty RelativeDistinguishedName"),
    "an OID with a 2^128 sub-identifier": (
        signed_cert(issuer=bdr.sequence(bdr.tlv(0x31, bdr.sequence(
            bdr.oid(bdr.oid_from_str("2.25.%d" % 2**128)), bdr.tlv(0x0C, b"x"))))),
        "sub-identifier of 2^128 or more"),
    # cryptography accepts this one; RFC 5280 4.1 gives Extensions SIZE (1..MAX)
    "an empty extensions list": (signed_cert(extensions=[]), "empty extensions list"),
}
_CRYPTOGRAPHY_ACCEPTS = {"an empty extensions list"}


def _cryptography_reads(data: bytes) -> bool:
    try:
        c = x509.load_der_x509_certificate(data)
        c.extensions, c.issuer, c.subject, c.not_valid_before_utc, c.not_valid_after_utc
    except Exception:  # noqa: BLE001 -- only the verdict matters
        return False
    return True


def test_the_builder_makes_certificates_both_sides_accept():
    good = signed_cert()
    assert _cryptography_reads(good)
    ca_pk = p256.PublicKey.from_der(CA_KEY.public_key().public_bytes(
        ser.Encoding.DER, ser.PublicFormat.SubjectPublicKeyInfo))
    assert px509.verify_signature(good, ca_pk) is True
    parts = px509.parse(good)
    assert parts.extensions == (px509.Extension(bdr.oid_from_str("2.5.29.19"), True, b"\x30\x00"),)
    assert px509.parse(signed_cert(extensions=[_ext(critical=b"")])).extensions[0].critical is False
    # a UUID OID (X.667: 2.25 and a 128-bit arc) is the largest sub-identifier read
    uuid = bdr.sequence(bdr.tlv(0x31, bdr.sequence(bdr.oid(bdr.oid_from_str("2.25.%d" % (2**128 - 1))),
                                                  bdr.tlv(0x0C, b"x"))))
    assert px509.verify_signature(signed_cert(issuer=uuid), ca_pk) is True


@pytest.mark.parametrize("case", sorted(HOSTILE_CERTS))
def test_hostile_certificates_are_refused(case):
    data, fragment = HOSTILE_CERTS[case]
    assert _cryptography_reads(data) is (case in _CRYPTOGRAPHY_ACCEPTS)
    ca_pk = p256.PublicKey.from_certificate(der(CA))
    for call in (lambda: px509.parse(data), lambda: px509.verify_signature(data, ca_pk),
                 lambda: p256.PublicKey.from_certificate(data)):
        with pytest.raises(ValueError, match=re.escape(fragment)):
            call()


def _lax_form(tag):
    return None


def _lax_read(self, tag, name):
    """Reader.read with the planted non-strict tag check: the tag number only."""
    got, start, stop = self.read_tlv()
    if got & 0x1F != tag & 0x1F:
        raise self.error("expected %s" % name)
    return start, stop


def _lax_extensions(r):
    r.read(0xA3, "extensions [3]")
    return ()


# negative controls: each planted laxity makes some of the hostile certificates pass, so
# the test above fails without the check that refuses them
@pytest.mark.parametrize("plant,target,replacement,passing", [
    ("form check off", bdr, ("form_problem", _lax_form),
     {"constructed UTF8String in the issuer", "primitive SEQUENCE in an attribute value"}),
    ("tag number only", bdr.Reader, ("read", _lax_read),
     {"constructed OCTET STRING as extnValue"}),
    ("extensions skipped", p256._x509, ("_extensions", _lax_extensions),
     {"critical FALSE written out", "an extension twice", "an empty extensions list",
      "empty constructed BOOLEAN as critical"}),
])
def test_planted_laxity_is_caught(monkeypatch, plant, target, replacement, passing):
    monkeypatch.setattr(target, *replacement)
    accepted = set()
    for case, (data, _) in HOSTILE_CERTS.items():
        try:
            px509.parse(data)
        except ValueError:
            continue
        accepted.add(case)
    assert passing <= accepted, (plant, accepted)

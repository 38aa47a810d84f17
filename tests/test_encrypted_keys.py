# SPDX-License-Identifier: Apache-2.0
"""Encrypted private keys: PKCS#8 EncryptedPrivateKeyInfo with PBES2
(RFC 8018), read and written, against the openssl CLI and pyca/cryptography both ways;
the core's AES on both paths against cryptography's; the errors (wrong password, bad
padding, missing password, password for a plain key, legacy PEM, costs) each with its
message."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import time

import pytest
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import p256
from p256 import _core, _der as der, _pbes2

OPENSSL = shutil.which("openssl")
needs_openssl = pytest.mark.skipif(OPENSSL is None, reason="the openssl CLI is not installed")

D = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721
SK = p256.PrivateKey.from_int(D)
SECRET = D.to_bytes(32, "big")
PEM, DER, PKCS8 = ser.Encoding.PEM, ser.Encoding.DER, ser.PrivateFormat.PKCS8
PASSWORD = "pässwörd"  # non-ASCII: str is UTF-8
LOW = 1000  # iterations for keys this file writes itself (the cost is not under test)


def openssl(*args, data=None):
    return subprocess.run([OPENSSL, *map(str, args)], input=data, capture_output=True,
                          check=True).stdout


@pytest.fixture(scope="module")
def plain_pem(tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "plain.pem"
    path.write_bytes(SK.to_pem())
    return path


def crypto_key():
    return ser.load_der_private_key(SK.to_der(), None)


def low_cost(password=PASSWORD, kdf="pbkdf2", plain=None):
    """An EncryptedPrivateKeyInfo of SK written by _pbes2 with a low iteration count."""
    return _pbes2.encrypt(plain if plain is not None else SK.to_der(), password, kdf, LOW)


# -- reading what others write --------------------------------------------------------------

OPENSSL_WRITERS = [
    ("pkey -aes256 (OpenSSL 3 default PBES2)", ["pkey", "-aes256"]),
    ("pkcs8 -topk8 -v2 aes256", ["pkcs8", "-topk8", "-v2", "aes256", "-iter", LOW]),
    ("pkcs8 -v2 aes128 sha1", ["pkcs8", "-topk8", "-v2", "aes128", "-v2prf", "hmacWithSHA1", "-iter", LOW]),
    ("pkcs8 -v2 aes192 sha224", ["pkcs8", "-topk8", "-v2", "aes192", "-v2prf", "hmacWithSHA224", "-iter", LOW]),
    ("pkcs8 -v2 aes256 sha384", ["pkcs8", "-topk8", "-v2", "aes256", "-v2prf", "hmacWithSHA384", "-iter", LOW]),
    ("pkcs8 -v2 aes128 sha512", ["pkcs8", "-topk8", "-v2", "aes128", "-v2prf", "hmacWithSHA512", "-iter", LOW]),
    ("pkcs8 -scrypt", ["pkcs8", "-topk8", "-scrypt", "-scrypt_N", 1024, "-scrypt_r", 8, "-scrypt_p", 1]),
    ("pkcs8 -scrypt -v2 aes128", ["pkcs8", "-topk8", "-scrypt", "-v2", "aes128"]),  # N = 16384
]


@needs_openssl
@pytest.mark.parametrize("name,args", OPENSSL_WRITERS, ids=[w[0] for w in OPENSSL_WRITERS])
def test_reads_openssl(plain_pem, name, args):
    pem = openssl(*args, "-in", plain_pem, "-passout", "pass:" + PASSWORD)
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert p256.PrivateKey.from_pem(pem, password=PASSWORD).to_bytes() == SECRET
    assert p256.PrivateKey.from_pem(pem.decode(), PASSWORD.encode()).to_bytes() == SECRET
    der_data = p256._pem.decode(pem, ["ENCRYPTED PRIVATE KEY"])[1]  # `pkey -aes256` writes no DER
    assert p256.PrivateKey.from_der(der_data, password=PASSWORD).to_bytes() == SECRET
    assert p256.PrivateKey.from_der(memoryview(der_data), bytearray(PASSWORD.encode())).to_bytes() == SECRET
    with pytest.raises(ValueError, match="wrong password"):
        p256.PrivateKey.from_der(der_data, password=PASSWORD + "x")


@needs_openssl
@pytest.mark.parametrize("args,fragment", [
    (["-v1", "PBE-SHA1-3DES"], "PKCS#12 pbeWithSHAAnd3-KeyTripleDES-CBC"),
    (["-v2", "des3"], "des-ede3-cbc (3DES)"),
])
def test_openssl_schemes_not_read_are_named(plain_pem, args, fragment):
    der_data = openssl("pkcs8", "-topk8", *args, "-in", plain_pem, "-passout", "pass:pw",
                       "-outform", "DER")
    with pytest.raises(ValueError, match=r"%s.*openssl pkcs8 -topk8 -v2 aes256" % re.escape(fragment)):
        p256.PrivateKey.from_der(der_data, password="pw")


@needs_openssl
def test_reads_openssl_genpkey_aes256():
    pem = openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                  "-aes256", "-pass", "pass:" + PASSWORD)
    sk = p256.PrivateKey.from_pem(pem, password=PASSWORD)
    plain = openssl("pkey", "-passin", "pass:" + PASSWORD, data=pem)
    assert sk.to_bytes() == p256.PrivateKey.from_pem(plain).to_bytes()


def test_reads_cryptography_best_available():
    for enc in (DER, PEM):
        data = crypto_key().private_bytes(enc, PKCS8, ser.BestAvailableEncryption(b"pw"))
        read = p256.PrivateKey.from_der if enc is DER else p256.PrivateKey.from_pem
        assert read(data, password="pw").to_bytes() == SECRET
        assert read(data, password=b"pw").to_bytes() == SECRET


# -- others reading what p256 writes --------------------------------------------------------


def test_written_structure():
    data = SK.to_der(password=PASSWORD)
    r = der.Reader(data, "test").enter(der.SEQUENCE, "top")
    alg = r.enter(der.SEQUENCE, "alg")
    assert alg.oid("pbes2") == _pbes2.OID_PBES2
    pbes2 = alg.enter(der.SEQUENCE, "params")
    kdf = pbes2.enter(der.SEQUENCE, "kdf")
    assert kdf.oid("kdf") == _pbes2.OID_PBKDF2
    params = kdf.enter(der.SEQUENCE, "pbkdf2")
    assert len(params.octet_string("salt")) == 16
    assert params.integer("iterations") == 600_000 == _pbes2.ITERATIONS
    prf = params.enter(der.SEQUENCE, "prf")
    assert der.oid_to_str(prf.oid("prf")) == "1.2.840.113549.2.9"  # hmacWithSHA256
    cipher = pbes2.enter(der.SEQUENCE, "cipher")
    assert cipher.oid("cipher") == _pbes2.OID_AES256_CBC
    assert len(cipher.octet_string("iv")) == 16
    assert len(r.octet_string("data")) % 16 == 0
    # fresh salt and IV every time
    again = SK.to_der(password=PASSWORD)
    assert again != data and again[:40] != data[:40]
    assert p256.PrivateKey.from_der(again, PASSWORD).to_bytes() == SECRET


def test_cryptography_reads_ours():
    for kdf in ("pbkdf2", "scrypt"):
        data = low_cost(kdf=kdf)
        key = ser.load_der_private_key(data, PASSWORD.encode())
        assert key.private_numbers().private_value == D
    pem = SK.to_pem(password=PASSWORD)  # the public default, 600,000 iterations
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----\n")
    assert ser.load_pem_private_key(pem, PASSWORD.encode()).private_numbers().private_value == D


@needs_openssl
def test_openssl_reads_ours(tmp_path):
    pem = SK.to_pem("pkcs8", password=PASSWORD)
    out = openssl("pkey", "-passin", "pass:" + PASSWORD, data=pem)
    assert p256.PrivateKey.from_pem(out).to_bytes() == SECRET
    for kdf in ("pbkdf2", "scrypt"):
        (tmp_path / "k.der").write_bytes(low_cost(kdf=kdf))
        out = openssl("pkcs8", "-inform", "DER", "-in", tmp_path / "k.der", "-passin",
                      "pass:" + PASSWORD)
        assert p256.PrivateKey.from_pem(out).to_bytes() == SECRET
    with pytest.raises(subprocess.CalledProcessError):  # and openssl checks the password
        openssl("pkey", "-passin", "pass:wrong", data=pem)


def test_round_trip_and_password_types():
    for pw in ("x", PASSWORD, b"\x00\xff", bytearray(b"abc"), memoryview(b"abc"),
               memoryview(b"aXbXc")[::2]):  # a non-contiguous view reads as its bytes
        data = low_cost(password=pw)
        assert p256.PrivateKey.from_der(data, password=pw).to_bytes() == SECRET
    assert p256.PrivateKey.from_der(low_cost(password=b"abc"),
                                    password=memoryview(b"aXbXc")[::2]).to_bytes() == SECRET
    with pytest.raises(TypeError, match="password must be str or bytes"):
        SK.to_pem(password=123)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="password must be str or bytes"):
        p256.PrivateKey.from_der(low_cost(), password=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="format=\"pkcs8\""):
        SK.to_pem("sec1", password="x")
    with pytest.raises(ValueError, match="format=\"pkcs8\""):
        SK.to_der("sec1", password="x")


# -- errors ---------------------------------------------------------------------------------


def _encrypted_with(plain: bytes, password=PASSWORD) -> bytes:
    """An EncryptedPrivateKeyInfo whose ciphertext decrypts (with the right password) to
    plain exactly, padding included: for bad-padding and bad-contents cases."""
    good = low_cost(password)
    r = der.Reader(good, "t").enter(der.SEQUENCE, "top")
    start = r.pos
    r.read_tlv()
    alg = good[start:r.pos]
    derive, iv, _ = _pbes2._read(good)
    ciphertext = _core.aes_cbc(False, derive(_pbes2.password_bytes(password)), iv, plain, 0)
    return der.sequence(alg, der.octet_string(ciphertext))


def test_wrong_password_bad_padding_and_bad_contents_look_the_same():
    inner = SK.to_der()
    pad = 16 - len(inner) % 16
    assert pad > 1  # the cases below need room for two pad bytes
    cases = {
        "wrong password": (low_cost(), "not the password"),
        "pad byte 0": (_encrypted_with(inner + bytes(pad)), PASSWORD),
        "pad byte 17": (_encrypted_with(inner + bytes(pad) + b"\x11" * 16), PASSWORD),
        "pad bytes differ": (_encrypted_with(inner + b"\x01" * (pad - 1) + bytes([pad])), PASSWORD),
        "good padding, not DER": (_encrypted_with(b"\x55" * 31 + b"\x01"), PASSWORD),
        "good padding, DER but no key": (_encrypted_with(der.sequence(der.integer(0)) + b"\x0b" * 11),
                                         PASSWORD),
        # found by tests/fuzz (priv_encrypted): the point check ran after decrypt() and
        # had its own message
        "good padding, PKCS#8 with an off-curve public key": (
            _encrypted_with(inner[:-1] + bytes([inner[-1] ^ 1]) + bytes([pad]) * pad), PASSWORD),
        "good padding, PKCS#8 with another public key": (
            _encrypted_with(p256.PrivateKey.from_int(5).to_der()[:-65] + inner[-65:] + bytes([pad]) * pad),
            PASSWORD),
        "good padding, a trailing byte": (_encrypted_with(inner + b"\x00" + bytes([pad - 1]) * (pad - 1)),
                                          PASSWORD),
    }
    messages = set()
    for name, (data, pw) in cases.items():
        with pytest.raises(ValueError) as info:
            p256.PrivateKey.from_der(data, password=pw)
        messages.add(str(info.value))
        assert info.value.__cause__ is None and info.value.__suppress_context__, name
    assert messages == {_pbes2.WRONG_PASSWORD}
    # negative control: the crafted container decrypts when its plaintext is right
    good_pad = inner + bytes([pad]) * pad
    assert p256.PrivateKey.from_der(_encrypted_with(good_pad), PASSWORD).to_bytes() == SECRET


def _unpad_reference(plain: bytes):
    pad = plain[-1]
    ok = 1 <= pad <= 16 and plain[-pad:] == bytes([pad]) * pad
    return ok, plain[:-pad] if ok else None


def test_unpad_against_a_plain_reference():
    import random
    rng = random.Random(5)
    for pad in range(256):
        for case in ("right", "one wrong", "random"):
            plain = bytearray(rng.randbytes(32))
            if case != "random":
                n = min(max(pad, 1), 16)
                plain[32 - n:] = bytes([pad]) * n
                if case == "one wrong" and n > 1:
                    plain[32 - rng.randrange(2, n + 1)] ^= 1 << rng.randrange(8)
            plain[31] = pad
            ok, stripped = _unpad_reference(bytes(plain))
            got, bad = _pbes2._unpad(bytes(plain))
            assert (bad == 0) == ok, (pad, case)
            if ok:
                assert got == stripped
            else:
                assert got == bytes(plain[:16])  # a fixed cut, whatever the byte was


def test_missing_password_and_password_for_a_plain_key():
    enc = low_cost()
    pem = p256._pem.encode("ENCRYPTED PRIVATE KEY", enc)
    for fn, data in ((p256.PrivateKey.from_der, enc), (p256.PrivateKey.from_pem, pem)):
        with pytest.raises(ValueError) as info:
            fn(data)
        assert str(info.value) == _pbes2.MISSING_PASSWORD
        assert "password=" in str(info.value)
    for fn, data in ((p256.PrivateKey.from_der, SK.to_der()), (p256.PrivateKey.from_der, SK.to_der("sec1")),
                     (p256.PrivateKey.from_pem, SK.to_pem()), (p256.PrivateKey.from_pem, SK.to_pem("sec1"))):
        with pytest.raises(ValueError) as info:
            fn(data, password="x")
        assert str(info.value) == _pbes2.NOT_ENCRYPTED
        assert fn(data).to_bytes() == SECRET
    # a password with something that is no key at all: that problem, not NOT_ENCRYPTED
    with pytest.raises(ValueError) as info:
        p256.PrivateKey.from_der(b"\x30\x00", password="x")
    assert str(info.value) != _pbes2.NOT_ENCRYPTED
    # the three messages differ from each other
    assert len({_pbes2.MISSING_PASSWORD, _pbes2.NOT_ENCRYPTED, _pbes2.WRONG_PASSWORD}) == 3
    # an encrypted key under a plain label
    with pytest.raises(ValueError, match="does not fit its contents"):
        p256.PrivateKey.from_pem(p256._pem.encode("PRIVATE KEY", enc), password=PASSWORD)


def test_legacy_pem_encryption_says_how_to_convert():
    trad = crypto_key().private_bytes(PEM, ser.PrivateFormat.TraditionalOpenSSL,
                                      ser.BestAvailableEncryption(b"pw"))
    assert b"Proc-Type: 4,ENCRYPTED" in trad
    for pw in (None, "pw"):
        with pytest.raises(ValueError, match=r"openssl pkcs8 -topk8 .*password="):
            p256.PrivateKey.from_pem(trad, password=pw)


@needs_openssl
def test_legacy_conversion_advice_works(tmp_path):
    trad = crypto_key().private_bytes(PEM, ser.PrivateFormat.TraditionalOpenSSL,
                                      ser.BestAvailableEncryption(b"pw"))
    (tmp_path / "key.pem").write_bytes(trad)
    out = openssl("pkcs8", "-topk8", "-v2", "aes256", "-in", tmp_path / "key.pem",
                  "-passin", "pass:pw", "-passout", "pass:pw")
    assert p256.PrivateKey.from_pem(out, password="pw").to_bytes() == SECRET


def _pbes2_with(kdf: bytes, cipher_oid: str = "2.16.840.1.101.3.4.1.42", iv: bytes = bytes(16),
                data: bytes = bytes(48), scheme: bytes = _pbes2.OID_PBES2) -> bytes:
    enc = der.sequence(der.oid(der.oid_from_str(cipher_oid)), der.octet_string(iv))
    return der.sequence(der.sequence(der.oid(scheme), der.sequence(kdf, enc)),
                        der.octet_string(data))


def _pbkdf2(iterations: int, prf: str = "1.2.840.113549.2.9", salt: bytes = b"s" * 16) -> bytes:
    return der.sequence(der.oid(_pbes2.OID_PBKDF2), der.sequence(
        der.octet_string(salt), der.integer(iterations),
        der.sequence(der.oid(der.oid_from_str(prf)), der.tlv(der.NULL, b""))))


def _pbkdf2_sha1(iterations: int, prf_params: bytes = b"") -> bytes:
    """PBKDF2-params with the PRF {hmacWithSHA1} written out, its parameters absent or
    prf_params."""
    return der.sequence(der.oid(_pbes2.OID_PBKDF2), der.sequence(
        der.octet_string(b"s" * 16), der.integer(iterations),
        der.sequence(der.oid(der.oid_from_str("1.2.840.113549.2.7")) + prf_params)))


def _scrypt(n: int, r: int, p: int) -> bytes:
    return der.sequence(der.oid(_pbes2.OID_SCRYPT), der.sequence(
        der.octet_string(b"s" * 16), der.integer(n), der.integer(r), der.integer(p)))


@pytest.mark.parametrize("data,fragment", [
    (_pbes2_with(_pbkdf2(_pbes2.MAX_ITERATIONS + 1)), "iteration count"),
    (_pbes2_with(_pbkdf2(2**64)), "iteration count"),
    (_pbes2_with(_pbkdf2(0)), "iteration count"),
    (_pbes2_with(_scrypt(1 << 30, 8, 1)), "scrypt parameters"),
    (_pbes2_with(_scrypt(1 << 19, 8, 1)), "at most 257 MiB"),
    (_pbes2_with(_scrypt(1 << 18, 8, 2)), "work r*p*"),
    # r so large that B = 128 r p, not V = 128 r N, is the memory
    (_pbes2_with(_scrypt(2, 1 << 17, 16)), "at most 257 MiB"),
    (_pbes2_with(_scrypt(2, 1 << 24, 1)), "at most 257 MiB"),
    (_pbes2_with(_scrypt(2, 1 << 16, 1)), "work r*p*"),
    # PBKDF2's work, not its count: two blocks for AES-256 with SHA-1, SHA-512 costs more
    (_pbes2_with(_pbkdf2(_pbes2.MAX_ITERATIONS, prf="1.2.840.113549.2.11")), "iteration count"),
    (_pbes2_with(_pbkdf2(_pbes2.MAX_ITERATIONS // 2, prf="1.2.840.113549.2.10")),
     "iteration count"),
    (_pbes2_with(_pbkdf2_sha1(_pbes2.MAX_ITERATIONS // 2)), "outside 1..4000000"),
    (_pbes2_with(_scrypt(1000, 8, 1)), "power of 2"),
    (_pbes2_with(_scrypt(1024, 8, 17)), "p <= 16"),
    (_pbes2_with(_scrypt(1024, 0, 1)), "r >= 1"),
    (_pbes2_with(_pbkdf2(10, prf="1.2.840.113549.2.5")), "unsupported PBKDF2 PRF"),
    (_pbes2_with(_pbkdf2(10), cipher_oid="1.2.840.113549.3.7"), "unsupported PBES2 cipher"),
    (_pbes2_with(_pbkdf2(10), iv=bytes(8)), "IV of 8 bytes"),
    (_pbes2_with(_pbkdf2(10), data=bytes(47)), "whole AES blocks"),
    (_pbes2_with(_pbkdf2(10), data=b""), "whole AES blocks"),
    (_pbes2_with(_pbkdf2(10, salt=bytes(1025))), "salt of 1025 bytes"),
    (_pbes2_with(_pbkdf2(10, prf="1.2.840.113549.2.7")), "DEFAULT value"),
    (_pbes2_with(_pbkdf2(10), scheme=der.oid_from_str("1.2.840.113549.1.5.10")), "PBES1"),
    (_pbes2_with(_pbkdf2(10), scheme=der.oid_from_str("1.2.840.113549.1.12.1.3")), "PKCS#12"),
    (_pbes2_with(der.sequence(der.oid(der.oid_from_str("1.2.3.4")))), "unsupported PBES2 key derivation"),
    (_pbes2_with(_pbkdf2(10)) + b"\x00", "unexpected octet"),
])
def test_bad_containers_are_refused_before_any_work(data, fragment):
    start = time.perf_counter()
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(").replace("*", r"\*")):
        p256.PrivateKey.from_der(data, password="x")
    assert time.perf_counter() - start < 1.0  # the bound is checked before deriving
    pem = p256._pem.encode("ENCRYPTED PRIVATE KEY", data)
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(").replace("*", r"\*")):
        p256.PrivateKey.from_pem(pem, password="x")


def test_bounds_admit_what_tools_write():
    # OpenSSL's scrypt default (N = 16384, r = 8, p = 1) and the largest allowed N at r = 8
    for n, r, p in ((16384, 8, 1), (1 << 18, 8, 1), (16384, 8, 15)):
        assert _pbes2.scrypt_memory(n, r, p) <= _pbes2.MAX_SCRYPT_MEMORY
        assert _pbes2.scrypt_work(n, r, p) <= _pbes2.MAX_SCRYPT_WORK
    assert _pbes2.scrypt_memory(1 << 19, 8, 1) > _pbes2.MAX_SCRYPT_MEMORY
    assert _pbes2.scrypt_work(1 << 18, 8, 2) > _pbes2.MAX_SCRYPT_WORK
    assert _pbes2.ITERATIONS <= _pbes2.MAX_ITERATIONS
    # what we write and OpenSSL's default, and the documented cap itself, are accepted
    limit = _pbes2.pbkdf2_work("sha256", _pbes2.MAX_ITERATIONS, 32)
    assert _pbes2.pbkdf2_work("sha256", _pbes2.ITERATIONS, 32) <= limit
    assert _pbes2.pbkdf2_work("sha1", 2048, 32) <= limit
    # the work counts the output blocks and the PRF's cost
    assert _pbes2.pbkdf2_work("sha1", 1000, 32) == 2 * _pbes2.pbkdf2_work("sha1", 1000, 16)
    assert _pbes2.pbkdf2_work("sha512", 1000, 32) > 2 * _pbes2.pbkdf2_work("sha256", 1000, 32)


def test_hashlib_gets_a_maxmem_within_the_cap(monkeypatch):
    """hashlib.scrypt's maxmem is what the parameters need (OpenSSL's own formula), never
    more than the documented cap: for the largest accepted parameters too."""
    seen = {}

    def fake_scrypt(password, *, salt, n, r, p, maxmem, dklen):
        seen.update(n=n, r=r, p=p, maxmem=maxmem)
        return bytes(dklen)

    monkeypatch.setattr(_pbes2.hashlib, "scrypt", fake_scrypt)
    for n, r, p in ((1 << 18, 8, 1), (2, 3855, 16), (16384, 8, 1)):
        with pytest.raises(ValueError, match="wrong password"):
            p256.PrivateKey.from_der(_pbes2_with(_scrypt(n, r, p)), password="x")
        assert seen["maxmem"] == 128 * r * (n + p + 2) <= _pbes2.MAX_SCRYPT_MEMORY


def test_hmac_with_sha1_with_absent_parameters_is_read():
    """{hmacWithSHA1} without parameters is not the DEFAULT value {hmacWithSHA1, NULL}:
    OpenSSL and cryptography read such a file, and so does p256; the DEFAULT written out
    is refused (above)."""
    from cryptography.hazmat.primitives import serialization

    plain = SK.to_der()
    salt, iv = b"s" * 16, b"i" * 16
    key = hashlib.pbkdf2_hmac("sha1", PASSWORD.encode(), salt, 10, 32)
    pad = 16 - len(plain) % 16
    body = p256._core.aes_cbc(False, key, iv, plain + bytes([pad]) * pad, 0)
    kdf = der.sequence(der.oid(_pbes2.OID_PBKDF2), der.sequence(
        der.octet_string(salt), der.integer(10),
        der.sequence(der.oid(der.oid_from_str("1.2.840.113549.2.7")))))
    data = der.sequence(der.sequence(der.oid(_pbes2.OID_PBES2), der.sequence(
        kdf, der.sequence(der.oid(_pbes2.OID_AES256_CBC), der.octet_string(iv)))),
        der.octet_string(body))
    theirs = serialization.load_der_private_key(data, PASSWORD.encode())
    assert theirs.private_numbers().private_value.to_bytes(32, "big") == SECRET
    assert p256.PrivateKey.from_der(data, password=PASSWORD).to_bytes() == SECRET


@pytest.mark.parametrize("pw", ["", b"", bytearray(), memoryview(b"")])
def test_an_empty_password_is_refused_on_write(pw):
    for write in (lambda: SK.to_pem(password=pw), lambda: SK.to_der(password=pw)):
        with pytest.raises(ValueError, match="empty password"):
            write()


def test_public_readers_still_name_encrypted_keys():
    enc = low_cost()
    with pytest.raises(ValueError, match="encrypted private key"):
        p256.PublicKey.from_der(enc)


# -- the core's AES, both paths, against cryptography ------------------------------------------


def _impls():
    return [1, 2] if _core.aes_impl() == "aes-ni" else [1]


def test_core_aes_cbc_matches_cryptography():
    import random
    rng = random.Random(1)
    for impl in _impls():
        for n in range(60):
            key = rng.randbytes([16, 24, 32][n % 3])
            iv = rng.randbytes(16)
            data = rng.randbytes(16 * (n % 7))
            ref = Cipher(algorithms.AES(key), modes.CBC(iv))
            enc = ref.encryptor().update(data)
            assert _core.aes_cbc(False, key, iv, data, impl) == enc, (impl, n)
            assert _core.aes_cbc(True, key, iv, enc, impl) == data, (impl, n)
            assert _core.aes_cbc(True, bytearray(key), memoryview(iv), enc, impl) == data


def test_core_aes_cbc_argument_errors():
    for key, iv, data in ((bytes(15), bytes(16), bytes(16)), (bytes(16), bytes(15), bytes(16)),
                          (bytes(16), bytes(16), bytes(17))):
        with pytest.raises(ValueError, match="aes_cbc"):
            _core.aes_cbc(True, key, iv, data, 0)
    with pytest.raises(ValueError):
        _core.aes_cbc(True, bytes(16), bytes(16), bytes(16), 3)
    with pytest.raises(TypeError):
        _core.aes_cbc(True, "k" * 16, bytes(16), bytes(16), 0)
    with pytest.raises(TypeError):
        _core.aes_cbc(True, bytes(16), bytes(16), bytes(16))
    if _core.aes_impl() != "aes-ni":
        with pytest.raises(ValueError, match="AES-NI"):
            _core.aes_cbc(True, bytes(16), bytes(16), bytes(16), 2)


def test_decryption_uses_the_core(monkeypatch):
    """Negative control for the interop tests: with a broken AES they fail."""
    data = low_cost()
    real = _core.aes_cbc

    def broken(decrypt, key, iv, ct, impl):
        out = bytearray(real(decrypt, key, iv, ct, impl))
        out[20] ^= 1
        return bytes(out)

    monkeypatch.setattr(_pbes2._core, "aes_cbc", broken)
    with pytest.raises(ValueError, match="wrong password"):
        p256.PrivateKey.from_der(data, password=PASSWORD)
    monkeypatch.undo()
    assert p256.PrivateKey.from_der(data, password=PASSWORD).to_bytes() == SECRET


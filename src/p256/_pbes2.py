# SPDX-License-Identifier: Apache-2.0
"""PKCS#8 EncryptedPrivateKeyInfo (RFC 5958 3) with PBES2 (RFC 8018 6.2), on bytes:
the encrypted structure <-> the DER PrivateKeyInfo inside (which _pkcs8 reads).

Read: encryptionAlgorithm PBES2 with the key derivation PBKDF2 (RFC 8018 5.2; PRF
HMAC-SHA-1, the default when absent, or HMAC-SHA-224/256/384/512) or scrypt (RFC 7914
7), and the encryption scheme AES-128/192/256-CBC (NIST SP 800-38A; RFC 8018 B.2.5's
OIDs from NIST, a 16-byte IV), then PKCS#7 padding (RFC 8018 6.1.1 step 4). That is what
`openssl pkcs8 -topk8 -v2 aes256`, `openssl genpkey -aes256`, OpenSSL 3's defaults
(PBKDF2-HMAC-SHA-256, 2048 iterations, AES-256-CBC), `openssl pkcs8 -scrypt` and
pyca/cryptography's BestAvailableEncryption write. PBES1 and PKCS#12 schemes are
refused by name. Costs are bounded by what will be computed, before any work: PBKDF2's
iterations x output blocks x the PRF's cost (``pbkdf2_work``) at most the work of
MAX_ITERATIONS HMAC-SHA-256 iterations; scrypt's memory 128 r (N + p + 2) (what
OpenSSL allocates, and exactly the ``maxmem`` given to hashlib) at most
MAX_SCRYPT_MEMORY and its work r p (N + 32) (``scrypt_work``) at most MAX_SCRYPT_WORK.

Written: PBES2, PBKDF2-HMAC-SHA-256 with ITERATIONS (600,000: OWASP's 2023 figure for
it) and a 16-byte salt, AES-256-CBC with a fresh IV; scrypt can be asked for here (not
by the public API, whose default must be readable by every PKCS#8 reader: PBKDF2 is
RFC 8018's own KDF and SP 800-132 approves it; scrypt is RFC 7914's, absent from some).

AES runs in the C core (constant time; AES-NI where present); PBKDF2 and scrypt are
hashlib's. After decryption, a wrong password, bad padding and a plaintext that is not
a PKCS#8 key all raise the same WRONG_PASSWORD message (and so do the key checks that
PrivateKey runs on the parts, _keys._from_decrypted), and the padding check and the
parse run whichever way the padding came out, so that the error does not tell a
padding oracle anything (timing in Python is not claimed constant).
"""

from __future__ import annotations

import hashlib
import os
from typing import Callable, Optional, Tuple, TypeVar

from . import _core
from . import _der as der
from ._common import as_bytes, small
from ._der import Reader

__all__ = ["decrypt", "encrypt", "password_bytes", "pbkdf2_work", "scrypt_work", "scrypt_memory",
           "WRONG_PASSWORD", "MISSING_PASSWORD", "NOT_ENCRYPTED", "EMPTY_PASSWORD", "ITERATIONS",
           "MAX_ITERATIONS", "MAX_SCRYPT_MEMORY", "MAX_SCRYPT_WORK"]

ITERATIONS = 600_000
MAX_ITERATIONS = 10_000_000  # HMAC-SHA-256 iterations; the bounds and why: docs/key-formats.md
MAX_SCRYPT_P = 16
#: scrypt's memory, 128 r (N + p + 2) bytes: 256 MiB of V for N = 2^18 at r = 8 (16 times
#: OpenSSL's default N = 2^14, r = 8), plus 1 MiB for B and the scratch of p lanes.
MAX_SCRYPT_MEMORY = (1 << 28) + (1 << 20)
#: scrypt's work, r p (N + 32) (``scrypt_work``): that of N = 2^18, r = 8, p = 1.
MAX_SCRYPT_WORK = 8 * ((1 << 18) + 32)
MAX_SALT = 1024
SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 14, 8, 1  # written on request: OpenSSL's default (16 MiB;
# OpenSSL reads at most 32 MiB)

WRONG_PASSWORD = ("wrong password, or a corrupted encrypted key (it did not decrypt to a "
                  "PKCS#8 private key)")
MISSING_PASSWORD = ("this is an encrypted private key (PKCS#8 EncryptedPrivateKeyInfo): pass "
                    "its password (password=...), or decrypt it first with `openssl pkey -in "
                    "key.pem -out plain.pem`")
EMPTY_PASSWORD = ("an empty password: refused when encrypting (the key would be as good as "
                  "plain, and cryptography refuses to write or read such a file); pass a "
                  "non-empty password, or password=None for a plain key")
NOT_ENCRYPTED = "a password was given, but this private key is not encrypted: pass password=None"

_OID = der.oid_from_str
OID_PBES2 = _OID("1.2.840.113549.1.5.13")
OID_PBKDF2 = _OID("1.2.840.113549.1.5.12")
OID_SCRYPT = _OID("1.3.6.1.4.1.11591.4.11")
_PRFS = {
    _OID("1.2.840.113549.2.7"): "sha1",
    _OID("1.2.840.113549.2.8"): "sha224",
    _OID("1.2.840.113549.2.9"): "sha256",
    _OID("1.2.840.113549.2.10"): "sha384",
    _OID("1.2.840.113549.2.11"): "sha512",
}
_PRF_OID = {name: oid for oid, name in _PRFS.items()}
#: The cost of one PRF iteration in quarters of an HMAC-SHA-256 iteration: SHA-1 5/4 and
#: SHA-384/512 5/2, rounded up from the measured ratios on x86-64 with SHA extensions
#: (docs/key-formats.md; where SHA-256 is slower, in software, SHA-512 costs less than
#: twice, so the bound holds there too).
_PRF_COST = {"sha1": 5, "sha224": 4, "sha256": 4, "sha384": 10, "sha512": 10}
_DIGEST_SIZE = {"sha1": 20, "sha224": 28, "sha256": 32, "sha384": 48, "sha512": 64}
_CIPHERS = {  # NIST aes*-CBC: key length
    _OID("2.16.840.1.101.3.4.1.2"): 16,
    _OID("2.16.840.1.101.3.4.1.22"): 24,
    _OID("2.16.840.1.101.3.4.1.42"): 32,
}
OID_AES256_CBC = _OID("2.16.840.1.101.3.4.1.42")
_OTHER_CIPHERS = der.oid_table((  # named in the refusal
    ("1.2.840.113549.3.7", "des-ede3-cbc (3DES)"),
    ("1.3.14.3.2.7", "des-cbc"),
    ("1.2.840.113549.3.2", "rc2-cbc"),
    ("2.16.840.1.101.3.4.1.6", "aes128-gcm"), ("2.16.840.1.101.3.4.1.46", "aes256-gcm")))
_PBES1 = der.oid_table((  # RFC 8018 A.3, PKCS#12 B.2: not supported
    ("1.2.840.113549.1.5.3", "PBES1 (pbeWithMD5AndDES-CBC)"),
    ("1.2.840.113549.1.5.10", "PBES1 (pbeWithSHA1AndDES-CBC)"),
    ("1.2.840.113549.1.12.1.3", "PKCS#12 pbeWithSHAAnd3-KeyTripleDES-CBC"),
    ("1.2.840.113549.1.12.1.6", "PKCS#12 pbeWithSHAAnd40BitRC2-CBC")))

KeyFn = Callable[[bytes], bytes]  # password -> key
_T = TypeVar("_T")


def password_bytes(password: object) -> bytes:
    """The password's octets: bytes-like as they are, str as UTF-8 (RFC 8018 3)."""
    if isinstance(password, str):
        return password.encode("utf-8")
    if isinstance(password, (bytes, bytearray, memoryview)):
        return as_bytes(password, "password")
    raise TypeError("password must be str or bytes, not %s" % type(password).__name__)


def pbkdf2_work(prf: str, iterations: int, key_len: int) -> int:
    """What PBKDF2 computes, in quarters of an HMAC-SHA-256 iteration: iterations x the
    output blocks (RFC 8018 5.2: ceil(key_len / hLen), two for AES-192/256 with SHA-1)
    x the PRF's cost."""
    blocks = -(-key_len // _DIGEST_SIZE[prf])
    return iterations * blocks * _PRF_COST[prf]


def scrypt_work(n: int, r: int, p: int) -> int:
    """What scrypt computes, in units of two BlockMix passes over 128 r bytes: per lane,
    ROMix makes 2N passes (RFC 7914 5), and the lane's part of PBKDF2's expansion and
    the copies costs less than 32 more units (measured: docs/key-formats.md), so
    r p (N + 32) in all."""
    return r * p * (n + 32)


def scrypt_memory(n: int, r: int, p: int) -> int:
    """What OpenSSL's scrypt allocates and checks against maxmem: V (128 r N), B (128 r p)
    and the scratch XY (256 r), in bytes."""
    return 128 * r * (n + p + 2)


def _algorithm(r: Reader, name: str) -> Tuple[bytes, Reader]:
    """(OID, Reader over what follows it) of an AlgorithmIdentifier."""
    alg = r.enter(der.SEQUENCE, name)
    return alg.oid(name), alg


def _pbkdf2(p: Reader, key_len: int) -> KeyFn:
    """PBKDF2-params (RFC 8018 A.2)."""
    params = p.enter(der.SEQUENCE, "PBKDF2-params")
    p.finish()
    salt = params.octet_string("salt")  # the otherSource CHOICE is reserved: refused here
    iterations = params.integer("iterationCount")
    if params.peek() == der.INTEGER:
        stated = params.integer("keyLength")
        if stated != key_len:
            raise params.error("keyLength %s does not fit the cipher's %d-byte key"
                               % (small(stated), key_len))
    prf = "sha1"
    if not params.at_end():
        oid, prf_params = _algorithm(params, "prf")
        if oid not in _PRFS:
            raise ValueError("unsupported PBKDF2 PRF %s (supported: hmacWithSHA1, SHA224, "
                             "SHA256, SHA384, SHA512)" % der.oid_text(oid))
        prf = _PRFS[oid]
        if not prf_params.at_end():
            prf_params.null("prf parameters")
            # X.690 11.5: DER omits a DEFAULT value, and the default PRF is exactly
            # {hmacWithSHA1, NULL}. Without its NULL it is another value, which OpenSSL
            # and cryptography read (some writers put it there): read too.
            if prf == "sha1":
                raise params.error("the default PRF {hmacWithSHA1, NULL} explicitly encoded "
                                   "(DER omits a DEFAULT value, X.690 11.5)")
        prf_params.finish()
    params.finish()
    if iterations < 1 or pbkdf2_work(prf, iterations, key_len) > pbkdf2_work(
            "sha256", MAX_ITERATIONS, 32):
        raise ValueError("PBKDF2 iteration count %s refused before any work: with HMAC-%s "
                         "and a %d-byte key it is outside 1..%d (the work of %d HMAC-SHA-256 "
                         "iterations)" % (small(iterations), prf.upper(), key_len,
                                          _max_iterations(prf, key_len), MAX_ITERATIONS))
    if len(salt) > MAX_SALT:
        raise ValueError("PBKDF2 salt of %d bytes (at most %d accepted)" % (len(salt), MAX_SALT))
    return lambda pw: hashlib.pbkdf2_hmac(prf, pw, salt, iterations, key_len)


def _max_iterations(prf: str, key_len: int) -> int:
    """The most iterations accepted for this PRF and key length."""
    return pbkdf2_work("sha256", MAX_ITERATIONS, 32) // pbkdf2_work(prf, 1, key_len)


def _scrypt(p: Reader, key_len: int) -> KeyFn:
    """scrypt-params (RFC 7914 7)."""
    params = p.enter(der.SEQUENCE, "scrypt-params")
    p.finish()
    salt = params.octet_string("salt")
    n = params.integer("costParameter")
    r = params.integer("blockSize")
    par = params.integer("parallelizationParameter")
    if not params.at_end():
        stated = params.integer("keyLength")
        if stated != key_len:
            raise params.error("keyLength %s does not fit the cipher's %d-byte key"
                               % (small(stated), key_len))
    params.finish()
    if n < 2 or n & (n - 1) or r < 1 or not 1 <= par <= MAX_SCRYPT_P \
            or scrypt_memory(n, r, par) > MAX_SCRYPT_MEMORY \
            or scrypt_work(n, r, par) > MAX_SCRYPT_WORK:
        raise ValueError("scrypt parameters N=%s r=%s p=%s refused before any work: N a "
                         "power of 2 >= 2, r >= 1, 1 <= p <= %d, memory 128*r*(N+p+2) at most "
                         "%d MiB, work r*p*(N+32) at most %d (that of N=2^18, r=8, p=1)"
                         % (small(n), small(r), small(par), MAX_SCRYPT_P,
                            MAX_SCRYPT_MEMORY >> 20, MAX_SCRYPT_WORK))
    if len(salt) > MAX_SALT:
        raise ValueError("scrypt salt of %d bytes (at most %d accepted)" % (len(salt), MAX_SALT))
    if not hasattr(hashlib, "scrypt"):  # Python built without OpenSSL 1.1's scrypt
        raise ValueError("this key uses scrypt, which this Python's hashlib lacks")
    maxmem = scrypt_memory(n, r, par)  # exactly what it will allocate: within the cap
    return lambda pw: hashlib.scrypt(pw, salt=salt, n=n, r=r, p=par, maxmem=maxmem,
                                     dklen=key_len)


def _read(data: bytes) -> Tuple[KeyFn, bytes, bytes]:
    """(key derivation, IV, ciphertext) of an EncryptedPrivateKeyInfo."""
    top = Reader(data, "PKCS#8 EncryptedPrivateKeyInfo")
    r = top.enter(der.SEQUENCE, "EncryptedPrivateKeyInfo")
    top.finish()
    scheme, params = _algorithm(r, "encryptionAlgorithm")
    if scheme != OID_PBES2:
        raise ValueError("unsupported key encryption %s; only PBES2 (RFC 8018) is read: "
                         "re-encrypt with `openssl pkcs8 -topk8 -v2 aes256`"
                         % (_PBES1.get(scheme) or der.oid_text(scheme)))
    pbes2 = params.enter(der.SEQUENCE, "PBES2-params")
    params.finish()
    kdf_oid, kdf = _algorithm(pbes2, "keyDerivationFunc")
    cipher_oid, cipher = _algorithm(pbes2, "encryptionScheme")
    pbes2.finish()
    if cipher_oid not in _CIPHERS:
        raise ValueError("unsupported PBES2 cipher %s (supported: AES-128/192/256-CBC); "
                         "re-encrypt with `openssl pkcs8 -topk8 -v2 aes256`"
                         % (_OTHER_CIPHERS.get(cipher_oid) or der.oid_text(cipher_oid)))
    key_len = _CIPHERS[cipher_oid]
    iv = cipher.octet_string("AES-CBC IV")
    cipher.finish()
    if len(iv) != 16:
        raise ValueError("malformed PBES2: an AES-CBC IV of %d bytes (16 expected)" % len(iv))
    if kdf_oid == OID_PBKDF2:
        derive = _pbkdf2(kdf, key_len)
    elif kdf_oid == OID_SCRYPT:
        derive = _scrypt(kdf, key_len)
    else:
        raise ValueError("unsupported PBES2 key derivation %s (supported: PBKDF2, scrypt)"
                         % der.oid_text(kdf_oid))
    ciphertext = r.octet_string("encryptedData")
    r.finish()
    if not ciphertext or len(ciphertext) % 16:
        raise ValueError("malformed PBES2: encrypted data of %d bytes (whole AES blocks "
                         "expected)" % len(ciphertext))
    return derive, iv, ciphertext


def _unpad(plain: bytes) -> Tuple[bytes, int]:
    """(plaintext without its PKCS#7 padding, 0 if the padding was right else nonzero).
    The same work whatever the padding is; on bad padding a fixed 16 bytes are cut."""
    pad = plain[-1]
    bad = ((pad - 1) >> 8) | ((16 - pad) >> 8)  # nonzero (negative) unless 1 <= pad <= 16
    for i in range(1, 17):
        in_pad = ((i - pad - 1) >> 8) & 1  # 1 when i <= pad
        bad |= (plain[-i] ^ pad) * in_pad
    cut = pad if bad == 0 else 16
    return plain[:len(plain) - cut], bad


def decrypt(data: bytes, password: object, parse: Callable[[bytes], _T]) -> _T:
    """parse(the PrivateKeyInfo DER inside data), with any failure after decryption raised
    as WRONG_PASSWORD; structural problems of the encrypted container raise their own
    ValueError first (they are public)."""
    pw = password_bytes(password)
    derive, iv, ciphertext = _read(data)
    key = derive(pw)
    plain = _core.aes_cbc(True, key, iv, ciphertext, 0)
    inner, bad = _unpad(plain)
    result: Optional[_T] = None
    try:
        result = parse(inner)
    except ValueError:
        result = None
    if bad or result is None:
        raise ValueError(WRONG_PASSWORD) from None
    return result


def _random(n: int) -> bytes:
    """n bytes of os.urandom, whose failure is an OSError as the core's own draws are (CPython
    raises NotImplementedError where it finds no generator at all)."""
    try:
        return os.urandom(n)
    except NotImplementedError:
        raise OSError("the operating system's random generator failed") from None


def encrypt(plain: bytes, password: object, kdf: str = "pbkdf2",
            iterations: int = ITERATIONS) -> bytes:
    """EncryptedPrivateKeyInfo of the PrivateKeyInfo DER plain: PBES2 with PBKDF2-HMAC-
    SHA-256 (iterations) or scrypt (SCRYPT_N/R/P), a 16-byte salt, AES-256-CBC."""
    pw = password_bytes(password)
    if not pw:
        raise ValueError(EMPTY_PASSWORD)
    salt, iv = _random(16), _random(16)
    if kdf == "pbkdf2":
        if not 1 <= iterations <= MAX_ITERATIONS:  # HMAC-SHA-256, AES-256: one block
            raise ValueError("iterations must be in 1..%d" % MAX_ITERATIONS)
        key = hashlib.pbkdf2_hmac("sha256", pw, salt, iterations, 32)
        kdf_id = der.sequence(der.oid(OID_PBKDF2), der.sequence(
            der.octet_string(salt), der.integer(iterations),
            der.sequence(der.oid(_PRF_OID["sha256"]), der.tlv(der.NULL, b""))))
    elif kdf == "scrypt":
        key = hashlib.scrypt(pw, salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                             maxmem=scrypt_memory(SCRYPT_N, SCRYPT_R, SCRYPT_P),
                             dklen=32)
        kdf_id = der.sequence(der.oid(OID_SCRYPT), der.sequence(
            der.octet_string(salt), der.integer(SCRYPT_N), der.integer(SCRYPT_R),
            der.integer(SCRYPT_P)))
    else:
        raise ValueError("kdf must be 'pbkdf2' or 'scrypt'")
    pad = 16 - len(plain) % 16
    ciphertext = _core.aes_cbc(False, key, iv, plain + bytes([pad]) * pad, 0)
    scheme = der.sequence(der.oid(OID_PBES2), der.sequence(
        kdf_id, der.sequence(der.oid(OID_AES256_CBC), der.octet_string(iv))))
    return der.sequence(scheme, der.octet_string(ciphertext))

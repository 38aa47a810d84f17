#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Seed corpora for the atheris targets of tests/fuzz/targets.py, from the Wycheproof
vectors in tests/vectors/ plus hand-made variants of the structures each parser accepts
(so the fuzzer starts on every accepting path, not only on the rejecting ones):

    python3 tools/gen_py_fuzz_corpus.py OUTDIR     # writes OUTDIR/<target>/<name>,
                                                   # and OUTDIR/controls/<target>/<name>

`make fuzz-smoke` runs it into tests/fuzz/bin/seeds on every run: the seeds are a
deterministic function of the committed vectors and this script, a few thousand small
files that would only duplicate the vectors in git. tests/test_fuzz_targets.py calls
seeds() directly. Standard library only (and tools/p256_affine.py), so the seeds do not
depend on the package under test.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from p256_affine import A, B, G, N, P, mul  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
VECTORS = pathlib.Path(os.environ.get("P256_VECTORS") or ROOT / "tests" / "vectors") / "wycheproof"
OPRF_VECTORS = VECTORS.parent / "oprf" / "P256-SHA256.json"

TARGETS = ("pub_bytes", "pub_der", "pub_pem", "pub_jwk", "priv_der", "priv_pem", "priv_jwk",
           "verify_der", "verify_raw", "p256verify", "cose_key", "jws_verify", "x509_cert",
           "recover", "priv_encrypted", "point_bytes", "scalar_bytes", "oprf_element",
           "oprf_finalize")


# -- DER / PEM / JWK writers -------------------------------------------------------------


def tlv(tag, value):
    n = len(value)
    if n < 0x80:
        return bytes((tag, n)) + value
    ln = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes((tag, 0x80 | len(ln))) + ln + value


def seq(*parts):
    return tlv(0x30, b"".join(parts))


def uint(v):
    return tlv(0x02, v.to_bytes(v.bit_length() // 8 + 1, "big"))


def octets(b):
    return tlv(0x04, b)


def bits(b, tag=0x03):
    return tlv(tag, b"\x00" + b)


def explicit(n, inner):
    return tlv(0xA0 | n, inner)


OID_EC = bytes.fromhex("06072a8648ce3d0201")  # id-ecPublicKey
OID_P256 = bytes.fromhex("06082a8648ce3d030107")  # prime256v1
OID_K256 = bytes.fromhex("06052b8104000a")  # secp256k1
OID_PRIME_FIELD = bytes.fromhex("06072a8648ce3d0101")  # prime-field
ALG = seq(OID_EC, OID_P256)


def be(v, n=32):
    return v.to_bytes(n, "big")


def explicit_p256_params():
    """SEC 1 C.2 specifiedCurve ECParameters equal to P-256's (version 1, no seed)."""
    return seq(uint(1), seq(OID_PRIME_FIELD, uint(P)), seq(octets(be(A)), octets(be(B))),
               octets(b"\x04" + be(G[0]) + be(G[1])), uint(N), uint(1))


def pem(label, der, newline=b"\n"):
    b64 = base64.b64encode(der)
    lines = [b"-----BEGIN %s-----" % label.encode()] + [b64[i:i + 64] for i in range(0, len(b64), 64)]
    return newline.join(lines + [b"-----END %s-----" % label.encode(), b""])


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def point(d):
    q = mul(d, G)
    return b"\x04" + be(q[0]) + be(q[1]), bytes([2 + (q[1] & 1)]) + be(q[0])


# -- Wycheproof ----------------------------------------------------------------------------


def load(name):
    with open(VECTORS / name, "rb") as f:
        return json.load(f)


def tests(name):
    for group in load(name)["testGroups"]:
        for t in group["tests"]:
            yield group, t


def fixed32(hexval):
    """A Wycheproof coordinate/scalar hex (maybe with a leading 00 or short) as 32 bytes."""
    return int(hexval, 16).to_bytes(32, "big")


# -- the corpora ---------------------------------------------------------------------------


def seeds():
    """{target: {name: bytes}}, deterministic."""
    out = {t: {} for t in TARGETS}
    seen = {t: set() for t in TARGETS}

    def add(target, name, blob):
        if blob not in seen[target]:
            seen[target].add(blob)
            out[target][name] = blob

    ecdsa_files = {
        "ecdsa_secp256r1_sha256_test.json": ("der", "sha256"),
        "ecdsa_secp256r1_sha512_test.json": ("der", "sha512"),
        "ecdsa_secp256r1_sha256_p1363_test.json": ("raw", "sha256"),
        "ecdsa_secp256r1_sha512_p1363_test.json": ("raw", "sha512"),
    }
    hash_modes = {"sha256": 0 << 1, "sha512": 3 << 1}  # index into targets.HASHES, shifted
    keys = []  # (uncompressed, DER, PEM, JWK or None) of the ECDSA test groups
    for name, (encoding, hname) in ecdsa_files.items():
        short = name.replace("ecdsa_secp256r1_", "").replace("_test.json", "")
        for group, t in tests(name):
            pub = bytes.fromhex(group["publicKey"]["uncompressed"])
            keys.append((pub, bytes.fromhex(group["publicKeyDer"]), group["publicKeyPem"].encode(),
                         group.get("publicKeyJwk")))
            msg, sig = bytes.fromhex(t["msg"]), bytes.fromhex(t["sig"])
            tid = "%s-%s" % (short, t["tcId"])
            if len(msg) > 255:
                continue
            target = "verify_der" if encoding == "der" else "verify_raw"
            add(target, tid, bytes([hash_modes[hname]]) + pub + bytes([len(msg)]) + msg + sig)
            if hname == "sha256" and int(t["tcId"]) % 8 == 1:  # verify_digest with the digest
                digest = hashlib.sha256(msg).digest()
                add(target, tid + "-digest", b"\x01" + pub + bytes([32]) + digest + sig)
            if hname == "sha256":  # EIP-7951 input: h || r || s || qx || qy
                if encoding == "raw" and len(sig) == 64:
                    rs = sig
                elif encoding == "der":
                    rs = _der_rs(sig)
                    if rs is None:
                        continue
                else:
                    continue
                add("p256verify", tid, hashlib.sha256(msg).digest() + rs + pub[1:])
            if hname == "sha256" and int(t["tcId"]) % 4 == 1:  # recover: mode | len | digest | sig
                digest = hashlib.sha256(msg).digest()
                add("recover", tid, bytes([(int(t["tcId"]) & 6) | (encoding == "raw")])
                    + bytes([32]) + digest + sig)
            if hname == "sha512" and int(t["tcId"]) % 16 == 1:  # a 64-byte digest: truncation
                digest = hashlib.sha512(msg).digest()
                add("recover", tid, bytes([encoding == "raw"]) + bytes([64]) + digest + sig)
    eip = list(out["p256verify"].values())[0]
    add("p256verify", "short", eip[:159])
    add("p256verify", "long", eip + b"\x00")
    add("p256verify", "zero-point", eip[:96] + bytes(64))

    for i, (pub, der, pem_, jwk) in enumerate(keys):
        add("pub_bytes", "ecdsa-key-%d" % i, pub)
        add("pub_der", "ecdsa-key-%d" % i, der)
        add("pub_pem", "ecdsa-key-%d" % i, pem_)
        if jwk is not None:
            add("pub_jwk", "ecdsa-key-%d" % i, json.dumps(jwk).encode())

    for group, t in tests("ecdh_secp256r1_ecpoint_test.json"):
        add("pub_bytes", "ecpoint-%s" % t["tcId"], bytes.fromhex(t["public"]))
    for group, t in tests("ecdh_secp256r1_test.json"):
        add("pub_der", "ecdh-%s" % t["tcId"], bytes.fromhex(t["public"]))
    for group, t in tests("ecdh_secp256r1_pem_test.json"):
        add("pub_pem", "ecdh-%s" % t["tcId"], t["public"].encode())
        add("priv_pem", "ecdh-%s" % t["tcId"], t["private"].encode())
    for group, t in tests("ecdh_secp256r1_webcrypto_test.json"):
        add("pub_jwk", "webcrypto-%s" % t["tcId"], json.dumps(t["public"]).encode())
        add("priv_jwk", "webcrypto-%s" % t["tcId"], json.dumps(t["private"]).encode())

    # SEC1 and SPKI variants of one key
    pub, der, pem_, jwk = keys[0]
    comp = bytes([2 + (pub[64] & 1)]) + pub[1:33]
    add("pub_bytes", "compressed", comp)
    add("pub_bytes", "hybrid", bytes([6 + (pub[64] & 1)]) + pub[1:])
    add("pub_bytes", "infinity", b"\x00")
    # the group's points (the identity is one) and scalars
    add("point_bytes", "uncompressed", pub)
    add("point_bytes", "compressed", comp)
    add("point_bytes", "identity", b"\x00")
    add("point_bytes", "hybrid", bytes([6 + (pub[64] & 1)]) + pub[1:])
    add("point_bytes", "x-eq-p", b"\x02" + be(P))
    for name, v in (("zero", 0), ("one", 1), ("n-1", N - 1), ("n", N), ("2^256-1", 2**256 - 1)):
        add("scalar_bytes", name, be(v))
    add("scalar_bytes", "wide-48", b"\xff" * 48)
    add("scalar_bytes", "wide-64", be(N, 64))
    add("scalar_bytes", "short-31", b"\x01" * 31)
    add("pub_der", "compressed", seq(ALG, bits(comp)))
    add("pub_der", "hybrid", seq(ALG, bits(bytes([6 + (pub[64] & 1)]) + pub[1:])))
    add("pub_der", "explicit-params", seq(seq(OID_EC, explicit_p256_params()), bits(pub)))
    add("pub_pem", "compressed", pem("PUBLIC KEY", seq(ALG, bits(comp))))
    add("pub_pem", "crlf", pem_.replace(b"\n", b"\r\n"))
    add("pub_pem", "surrounded", b"Subject: test key\n\n" + pem_ + b"\ntrailing text\n")
    add("pub_pem", "params-first", pem("EC PARAMETERS", OID_P256) + pem_)
    add("pub_pem", "private-label", pem("PRIVATE KEY", der))
    jx, jy = b64url(pub[1:33]), b64url(pub[33:])
    add("pub_jwk", "members", json.dumps({"kty": "EC", "crv": "P-256", "x": jx, "y": jy,
                                          "kid": "k1", "use": "sig", "alg": "ES256"}).encode())
    add("pub_jwk", "compact", b'{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}' % (jx.encode(), jy.encode()))
    add("pub_jwk", "with-d", json.dumps({"kty": "EC", "crv": "P-256", "x": jx, "y": jy,
                                         "d": b64url(be(1))}).encode())
    # Regression seed: JSON nested deeper than the interpreter's recursion limit (found by
    # review; from_jwk raised RecursionError instead of ValueError).
    add("pub_jwk", "deep-nesting", b"[" * 1200)
    add("priv_jwk", "deep-nesting", b'{"a":' * 1200)

    # Private keys: the structures PrivateKey.from_der accepts, over Wycheproof scalars
    scalars = sorted({int(t["private"], 16) for _, t in tests("ecdh_secp256r1_test.json")})
    valid = [d for d in scalars if 1 <= d < N]
    for i, d in enumerate(valid):
        unc, cmp_ = point(d)
        db = be(d)
        ec_full = seq(uint(1), octets(db), explicit(0, OID_P256), explicit(1, bits(unc)))
        ec_inner = seq(uint(1), octets(db), explicit(1, bits(unc)))
        p8 = seq(uint(0), ALG, octets(ec_inner))
        add("priv_der", "pkcs8-%d" % i, p8)
        add("priv_der", "sec1-%d" % i, ec_full)
        if i >= 6:
            continue
        pk8, sec = "PRIVATE KEY", "EC PRIVATE KEY"
        variants = {
            "sec1-no-params": (sec, seq(uint(1), octets(db), explicit(1, bits(unc)))),
            "sec1-no-public": (sec, seq(uint(1), octets(db), explicit(0, OID_P256))),
            "sec1-bare": (sec, seq(uint(1), octets(db))),
            "sec1-compressed": (sec, seq(uint(1), octets(db), explicit(0, OID_P256), explicit(1, bits(cmp_)))),
            "sec1-hybrid": (sec, seq(uint(1), octets(db), explicit(0, OID_P256),
                                     explicit(1, bits(bytes([6 + (unc[64] & 1)]) + unc[1:])))),
            "sec1-explicit": (sec, seq(uint(1), octets(db), explicit(0, explicit_p256_params()),
                                       explicit(1, bits(unc)))),
            "pkcs8-inner-params": (pk8, seq(uint(0), ALG, octets(ec_full))),
            "pkcs8-no-public": (pk8, seq(uint(0), ALG, octets(seq(uint(1), octets(db))))),
            "pkcs8-attributes": (pk8, seq(uint(0), ALG, octets(ec_inner), explicit(0, seq(
                bytes.fromhex("06092a864886f70d010914"), tlv(0x31, tlv(0x0C, b"key one")))))),
            "pkcs8-v2-public": (pk8, seq(uint(1), ALG, octets(seq(uint(1), octets(db))), bits(unc, 0x81))),
            "pkcs8-v2": (pk8, seq(uint(1), ALG, octets(ec_inner))),
            "pkcs8-explicit": (pk8, seq(uint(0), seq(OID_EC, explicit_p256_params()), octets(ec_inner))),
            "pkcs8-secp256k1-inner": (pk8, seq(uint(0), ALG, octets(seq(uint(1), octets(db),
                                                                          explicit(0, OID_K256))))),
            "encrypted-pkcs8": (pk8, seq(seq(bytes.fromhex("06092a864886f70d01050d"), seq()),
                                         octets(b"\x00" * 48))),
        }
        for name, (label, blob) in variants.items():
            add("priv_der", "%s-%d" % (name, i), blob)
            if i < 2:
                add("priv_pem", "%s-%d" % (name, i), pem(label, blob))
        if i < 2:
            add("priv_pem", "pkcs8-%d" % i, pem("PRIVATE KEY", p8))
            add("priv_pem", "sec1-%d" % i, pem("EC PRIVATE KEY", ec_full))
            add("priv_pem", "ecparam-genkey-%d" % i, pem("EC PARAMETERS", OID_P256) + pem("EC PRIVATE KEY", ec_full))
            add("priv_pem", "crlf-%d" % i, pem("PRIVATE KEY", p8, b"\r\n"))
            add("priv_pem", "encrypted-%d" % i, b"-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                b"DEK-Info: AES-128-CBC,00000000000000000000000000000000\n\nAAAA\n-----END EC PRIVATE KEY-----\n")
            add("priv_pem", "public-%d" % i, pem("PUBLIC KEY", seq(ALG, bits(unc))))
        jwk = {"kty": "EC", "crv": "P-256", "x": b64url(unc[1:33]), "y": b64url(unc[33:]), "d": b64url(db)}
        add("priv_jwk", "key-%d" % i, json.dumps(jwk).encode())
        add("priv_jwk", "members-%d" % i, json.dumps(dict(jwk, kid="k", use="sig")).encode())
    for d in (0, N, N + 1, 2**256 - 1):
        add("priv_der", "scalar-out-of-range-%x" % (d & 0xFFFF), seq(uint(1), octets(be(d)), explicit(0, OID_P256)))
    add("priv_der", "short-scalar", seq(uint(1), octets(be(5)[1:]), explicit(0, OID_P256)))
    integration_seeds(add)
    oprf_seeds(add)
    encrypted_seeds(add, [b for n, b in out["priv_der"].items() if n.startswith("pkcs8")])
    # the group's points: every SEC1 seed of the keys (the identity among them) too
    for name, blob in list(out["pub_bytes"].items()):
        add("point_bytes", name, blob)
    for i, v in enumerate([2, 2**128, 2**255, N // 2, N - 2, N + 1, 2**256 - N, P, P - 1]):
        add("scalar_bytes", "edge-%d" % i, be(v))
    for n in (0, 1, 16, 33, 47, 49, 80, 96, 128):
        add("scalar_bytes", "length-%d" % n, bytes((7 * j + n) % 256 for j in range(n)))
    for n in (48, 64):
        add("scalar_bytes", "wide-n-multiple-%d" % n, be(N * 12345, n))
        add("scalar_bytes", "wide-p-%d" % n, be(P, n))
    return out


# -- encrypted PKCS#8 (target priv_encrypted): PBES2 written here with hashlib and
# cryptography's AES; the password is tests/fuzz/targets.FUZZ_PASSWORD, costs are tiny.

PBES2_PASSWORD = b"fuzz"
_PBES2 = bytes.fromhex("06092a864886f70d01050d")
_PBKDF2 = bytes.fromhex("06092a864886f70d01050c")
_SCRYPT = bytes.fromhex("06092b06010401da47040b")
_PRF = {h: bytes.fromhex("06082a864886f70d02") + bytes([n]) for h, n in
        (("sha1", 7), ("sha224", 8), ("sha256", 9), ("sha384", 10), ("sha512", 11))}
_AES = {16: bytes.fromhex("0609608648016503040102"), 24: bytes.fromhex("0609608648016503040116"),
        32: bytes.fromhex("060960864801650304012a")}


def pbes2(inner, kdf="pbkdf2", prf="sha256", aes=32, iterations=2, salt=b"salt-salt-salt!!",
          iv=bytes(range(16)), scrypt=(2, 1, 1), keylength=None, pad=None):
    """An EncryptedPrivateKeyInfo of inner (pad: the PKCS#7 padding to use, default right)."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    kl = [uint(keylength)] if keylength is not None else []
    if kdf == "pbkdf2":
        key = hashlib.pbkdf2_hmac(prf, PBES2_PASSWORD, salt, iterations, aes)
        prf_id = [] if prf == "sha1" else [seq(_PRF[prf], tlv(0x05, b""))]
        kdf_id = seq(_PBKDF2, seq(octets(salt), uint(iterations), *kl, *prf_id))
    else:
        n, r, p = scrypt
        key = hashlib.scrypt(PBES2_PASSWORD, salt=salt, n=n, r=r, p=p, dklen=aes)
        kdf_id = seq(_SCRYPT, seq(octets(salt), uint(n), uint(r), uint(p), *kl))
    if pad is None:
        pad = bytes([16 - len(inner) % 16]) * (16 - len(inner) % 16)
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    ct = enc.update(inner + pad) + enc.finalize()
    return seq(seq(_PBES2, seq(kdf_id, seq(_AES[aes], octets(iv)))), octets(ct))


def encrypted_seeds(add, pkcs8s):
    for i, inner in enumerate(pkcs8s[:12]):
        add("priv_encrypted", "pbkdf2-sha256-aes256-%d" % i, pbes2(inner))
        prf = ("sha1", "sha224", "sha256", "sha384", "sha512")[i % 5]
        aes = (16, 24, 32)[i % 3]
        add("priv_encrypted", "pbkdf2-%s-aes%d-%d" % (prf, aes * 8, i), pbes2(inner, prf=prf, aes=aes))
        add("priv_encrypted", "scrypt-aes%d-%d" % (aes * 8, i),
            pbes2(inner, "scrypt", aes=aes, scrypt=(2 << (i % 4), 1 + i % 2, 1)))
    inner = pkcs8s[0]
    add("priv_encrypted", "keylength", pbes2(inner, keylength=32))
    add("priv_encrypted", "keylength-wrong", pbes2(inner, keylength=16))
    add("priv_encrypted", "empty-salt", pbes2(inner, salt=b""))
    add("priv_encrypted", "pad-zero", pbes2(inner, pad=bytes(16 - len(inner) % 16)))
    add("priv_encrypted", "pad-17", pbes2(inner, pad=bytes(16 - len(inner) % 16) + b"\x11" * 16))
    add("priv_encrypted", "not-der-inside", pbes2(b"\x55" * 40))
    add("priv_encrypted", "costly", seq(seq(_PBES2, seq(seq(_PBKDF2, seq(octets(b"s"), uint(10**9))), seq(_AES[32], octets(bytes(16))))),
            octets(bytes(32))))
    add("priv_encrypted", "plain-pkcs8", inner)


# -- COSE_Key, JWS, X.509 (targets cose_key, jws_verify, x509_cert) ----------------------
# The keys tests/fuzz/targets.py verifies with: INTEGRATION_D[0] is "k1" and the CA,
# INTEGRATION_D[1] is "k2" and the leaf.

INTEGRATION_D = (0x1D1D0001, 0x2E2E0002)


def ecdsa_sign(d, msg, hash_name="sha256"):
    """(r, s) of a deterministic ECDSA signature (nonce from a hash of d and msg; for
    seeds only)."""
    digest = hashlib.new(hash_name, msg).digest()
    e = int.from_bytes(digest[:32], "big")
    k = int.from_bytes(hashlib.sha256(be(d) + msg).digest(), "big") % (N - 1) + 1
    r = mul(k, G)[0] % N
    s = pow(k, -1, N) * (e + r * d) % N
    return r, s


def cbor_head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | info]) + value.to_bytes(size, "big")
    raise ValueError(value)


def cbor(v):
    """Deterministic CBOR (bytewise key order) of int, bytes, str, list, dict, bool, None."""
    if v is None or v is True or v is False:
        return {None: b"\xf6", True: b"\xf5", False: b"\xf4"}[v]
    if isinstance(v, int):
        return cbor_head(0, v) if v >= 0 else cbor_head(1, -1 - v)
    if isinstance(v, bytes):
        return cbor_head(2, len(v)) + v
    if isinstance(v, str):
        return cbor_head(3, len(v.encode())) + v.encode()
    if isinstance(v, list):
        return cbor_head(4, len(v)) + b"".join(cbor(x) for x in v)
    items = sorted((cbor(k), cbor(x)) for k, x in v.items())
    return cbor_head(5, len(items)) + b"".join(k + x for k, x in items)


def jws_token(d, header, payload, sig=None):
    h = b64url(header if isinstance(header, bytes) else json.dumps(header).encode())
    signing_input = "%s.%s" % (h, b64url(payload))
    if sig is None:
        r, s_ = ecdsa_sign(d, signing_input.encode())
        sig = be(r) + be(s_)
    return ("%s.%s" % (signing_input, b64url(sig))).encode()


OID_ECDSA_SHA = {"sha256": bytes.fromhex("06082a8648ce3d040302"),
                 "sha384": bytes.fromhex("06082a8648ce3d040303"),
                 "sha512": bytes.fromhex("06082a8648ce3d040304")}


def name(cn):
    return seq(tlv(0x31, seq(bytes.fromhex("0603550403"), tlv(0x0C, cn.encode()))))


def certificate(subject_d, issuer_d, subject="leaf", issuer="CA", hash_name="sha256",
                version=2, extensions=True, serial=0x1234, explicit_v1=False, spki=None):
    """A certificate (RFC 5280 4.1) in DER, signed with issuer_d; its subject key is
    subject_d's, or the subjectPublicKeyInfo spki (DER) when given."""
    alg = seq(OID_ECDSA_SHA[hash_name])
    validity = seq(tlv(0x17, b"260101000000Z"), tlv(0x17, b"260201000000Z"))
    parts = [explicit(0, uint(version))] if version or explicit_v1 else []
    parts += [uint(serial), alg, name(issuer), validity, name(subject),
              spki if spki is not None else seq(ALG, bits(point(subject_d)[0]))]
    if extensions:  # basicConstraints, critical, cA TRUE
        parts.append(explicit(3, seq(seq(bytes.fromhex("0603551d13"), b"\x01\x01\xff",
                                         octets(seq(b"\x01\x01\xff"))))))
    tbs = seq(*parts)
    r, s_ = ecdsa_sign(issuer_d, tbs, hash_name)
    return seq(tbs, alg, bits(seq(uint(r), uint(s_))))


def integration_seeds(add):
    d1, d2 = INTEGRATION_D
    # cose_key: the COSE_Key CBOR bytes
    for i, d in enumerate((d1, d2, 3, N - 1)):
        q = point(d)[0]
        x, y = q[1:33], q[33:]
        key = {1: 2, 3: -7, -1: 1, -2: x, -3: y}
        add("cose_key", "webauthn-%d" % i, cbor(key))
        add("cose_key", "no-alg-%d" % i, cbor({1: 2, -1: 1, -2: x, -3: y}))
        add("cose_key", "kid-ops-%d" % i, cbor(dict(key) | {2: b"id", 4: ["verify", 2], 5: b"iv"}))
        add("cose_key", "unknown-%d" % i, cbor(dict(key) | {-70000: [1, {"a": None}], "t": True}))
        # RFC 8949 4.2.3 length-first order (CTAP2's): -1 (0x20) before 24 (0x18 0x18)
        add("cose_key", "length-first-%d" % i, cbor_head(5, 6) + b"".join(
            cbor(k) + cbor(v) for k, v in [(1, 2), (3, -7), (-1, 1), (-2, x), (-3, y), (24, 0)]))
        add("cose_key", "y-bool-%d" % i, cbor(dict(key) | {-3: bool(q[64] & 1)}))
        add("cose_key", "private-%d" % i, cbor(dict(key) | {-4: be(d)}))
        add("cose_key", "nested-%d" % i, cbor(dict(key) | {100: [[[[[[1]]]]]]}))
        add("cose_key", "crv2-%d" % i, cbor(dict(key) | {-1: 2}))
        add("cose_key", "es384-%d" % i, cbor(dict(key) | {3: -35}))
        add("cose_key", "off-curve-%d" % i, cbor(dict(key) | {-3: y[:-1] + bytes([y[-1] ^ 1])}))
        good = cbor(key)
        add("cose_key", "nonminimal-%d" % i, good.replace(b"\x01\x02", b"\x01\x18\x02", 1))
        add("cose_key", "indefinite-%d" % i, b"\xbf" + good[1:] + b"\xff")
        add("cose_key", "duplicate-%d" % i, b"\xa6" + good[1:] + b"\x03\x26")
        add("cose_key", "tag-%d" % i, b"\xa6" + good[1:] + b"\x18\x64\xc2\x41\x05")
        add("cose_key", "float-%d" % i, b"\xa6" + good[1:] + b"\x18\x64\xf9\x3c\x00")
    # jws_verify: one mode byte (0 PublicKey k1, 1 JWK set k1+k2, 2 JWK k1) + the token
    for mode in (0, 1, 2):
        m = bytes([mode])
        for j, payload in enumerate((b"", b'{"sub":"alice"}', bytes(range(40)))):
            add("jws_verify", "k1-%d-%d" % (mode, j), m + jws_token(d1, {"alg": "ES256", "kid": "k1"}, payload))
            add("jws_verify", "nokid-%d-%d" % (mode, j), m + jws_token(d1, {"alg": "ES256"}, payload))
            add("jws_verify", "k2-%d-%d" % (mode, j), m + jws_token(d2, {"alg": "ES256", "kid": "k2"}, payload))
        add("jws_verify", "typ-%d" % mode, m + jws_token(d1, {"typ": "JWT", "alg": "ES256", "kid": "k1"}, b"{}"))
        add("jws_verify", "none-%d" % mode, m + jws_token(d1, {"alg": "none"}, b"{}", b""))
        add("jws_verify", "hs256-%d" % mode, m + jws_token(d1, {"alg": "HS256"}, b"{}", bytes(32)))
        add("jws_verify", "crit-%d" % mode, m + jws_token(d1, {"alg": "ES256", "crit": ["exp"], "exp": 1}, b"{}"))
        add("jws_verify", "b64-%d" % mode, m + jws_token(d1, {"alg": "ES256", "b64": False, "crit": ["b64"]}, b"{}"))
        add("jws_verify", "dup-%d" % mode, m + jws_token(d1, b'{"alg":"ES256","alg":"ES256"}', b"{}"))
        r, s_ = ecdsa_sign(d1, b"x")
        add("jws_verify", "der-%d" % mode, m + jws_token(d1, {"alg": "ES256"}, b"{}", seq(uint(r), uint(s_))))
        add("jws_verify", "padded-%d" % mode, m + jws_token(d1, {"alg": "ES256"}, b"{}") + b"==")
    # x509_cert: DER certificates, a CA (k1, self-signed) and leaves it signed
    for hash_name in ("sha256", "sha384", "sha512"):
        add("x509_cert", "ca-" + hash_name, certificate(d1, d1, "CA", "CA", hash_name))
        add("x509_cert", "leaf-" + hash_name, certificate(d2, d1, hash_name=hash_name, extensions=False))
    add("x509_cert", "v1", certificate(d2, d1, version=0, extensions=False))
    add("x509_cert", "v2", certificate(d2, d1, version=1, extensions=False))
    add("x509_cert", "v1-with-extensions", certificate(d2, d1, version=0))
    add("x509_cert", "explicit-v1", certificate(d2, d1, version=0, extensions=False, explicit_v1=True))
    for serial in (1, 2**63, 2**159):
        add("x509_cert", "serial-%x" % (serial & 0xFFFF), certificate(d2, d1, serial=serial))
    for i in range(3, 20):
        add("x509_cert", "leaf-d%d" % i, certificate(i, d1 if i % 2 else i, "leaf%d" % i))
    ca = certificate(d1, d1, "CA", "CA")
    add("x509_cert", "trailing", ca + b"\x00")
    add("x509_cert", "nonminimal", b"\x30\x82\x00" + bytes([ca[1]]) + ca[2:] if ca[1] < 0x80 else
        b"\x30\x83\x00" + ca[2:])
    add("x509_cert", "ber-bool", ca.replace(b"\x01\x01\xff", b"\x01\x01\x01", 1))


def oprf_seeds(add):
    """oprf_element: SEC1 compressed elements, valid and not; oprf_finalize: one case byte
    (tests/fuzz/targets.py: VOPRF vectors 1 and 2, POPRF vectors 1 and 2 of RFC 9497 A.3)
    then the server's answer, evaluated element || proof: the RFC's, and spoilt ones."""
    with open(OPRF_VECTORS, "rb") as f:
        suites = {s_["mode"]: s_ for s_ in json.load(f)}
    for d in list(range(1, 13)) + [N - 1, N - 2, 2**128 + 1]:
        add("oprf_element", "d-%x" % (d & 0xFFFF), point(d)[1])
    for mode, suite in suites.items():
        for i, v in enumerate(suite["vectors"]):
            for field in ("BlindedElement", "EvaluationElement"):
                for j, e in enumerate(v[field].split(",")):
                    add("oprf_element", "%s-%d-%d-%d" % (field, mode, i, j), bytes.fromhex(e))
    comp = point(7)[1]
    x = 1
    while pow((x ** 3 + A * x + B) % P, (P - 1) // 2, P) == 1:
        x += 1
    for name, blob in (("uncompressed", point(7)[0]), ("identity", b"\x00"), ("empty", b""),
                       ("short", comp[:32]), ("long", comp + b"\x00"), ("prefix-04", b"\x04" + comp[1:]),
                       ("prefix-00", b"\x00" + comp[1:]), ("prefix-06", b"\x06" + comp[1:]),
                       ("x-p", b"\x02" + be(P)), ("x-max", b"\x03" + b"\xff" * 32),
                       ("no-point", b"\x02" + be(x)), ("x-zero", b"\x02" + bytes(32))):
        add("oprf_element", name, blob)
    case = 0
    answers = []
    for mode in (1, 2):
        for v in suites[mode]["vectors"][:2]:
            answers.append((bytes([case]), bytes.fromhex(v["EvaluationElement"]),
                            bytes.fromhex(v["Proof"]["proof"])))
            case += 1
    n = be(N)
    for c, ev, proof in answers:
        k = c.hex()
        add("oprf_finalize", "rfc-" + k, c + ev + proof)
        add("oprf_finalize", "case-shifted-" + k, bytes([c[0] + 4]) + ev + proof)
        for i in (0, 31, 32, 63):
            bad = bytearray(proof)
            bad[i] ^= 0x01
            add("oprf_finalize", "proof-bit-%d-%s" % (i, k), c + ev + bytes(bad))
        add("oprf_finalize", "negated-" + k, c + bytes([ev[0] ^ 1]) + ev[1:] + proof)
        add("oprf_finalize", "c-n-" + k, c + ev + n + proof[32:])
        add("oprf_finalize", "s-n-" + k, c + ev + proof[:32] + n)
        add("oprf_finalize", "short-proof-" + k, c + ev + proof[:63])
        add("oprf_finalize", "long-proof-" + k, c + ev + proof + b"\x00")
        add("oprf_finalize", "no-proof-" + k, c + ev)
        add("oprf_finalize", "zero-proof-" + k, c + ev + bytes(64))
        add("oprf_finalize", "identity-" + k, c + b"\x00" + proof)
    for (c, ev, proof), (_, ev2, proof2) in zip(answers, answers[1:] + answers[:1]):
        add("oprf_finalize", "other-answer-" + c.hex(), c + ev2 + proof2)
        add("oprf_finalize", "other-proof-" + c.hex(), c + ev + proof2)


def control_seeds(all_seeds=None):
    """{target: {name: bytes}}: one input per target that passes under every planted bug
    of tests/fuzz/targets.PLANTS (a valid key, a valid signature, a 160-byte EIP input),
    for the negative controls, so that the fuzzer must find each bug by mutation; the
    full corpora contain Wycheproof's invalid cases, which would hand it the bug."""
    all_seeds = all_seeds or seeds()
    picks = {
        "pub_bytes": "ecdsa-key-0",
        "pub_der": "ecdsa-key-0",
        "verify_der": "sha256-1",
        "p256verify": "sha256-1",
        "recover": "sha256-1",
        "priv_encrypted": "pbkdf2-sha256-aes256-0",
        "point_bytes": "uncompressed",
        "scalar_bytes": "one",
        "oprf_element": "d-7",
        "oprf_finalize": "rfc-00",
    }
    controls = {t: {name: all_seeds[t][name]} for t, name in picks.items()}
    # recover: the same signature over a 33-byte digest whose leftmost and rightmost 32
    # bytes are equal, so that e is the same whichever end a bug takes it from (the seed
    # does not hand over recover-digest-tail), and almost any one-byte change in the
    # digest makes the two ends differ: one mutation from the bug, not two coordinated
    # ones (a longer digest and a signature that still parses).
    sig = all_seeds["recover"]["sha256-1"][2 + 32:]
    controls["recover"] = {"digest-33": bytes([0, 33]) + bytes([0x5A]) * 33 + sig}
    return controls


def _der_rs(sig):
    """r || s (32 bytes each) of a minimal DER signature with small positive INTEGERs."""
    if len(sig) < 8 or sig[0] != 0x30 or sig[1] != len(sig) - 2:
        return None
    pos, vals = 2, []
    for _ in range(2):
        if pos + 2 > len(sig) or sig[pos] != 0x02:
            return None
        n = sig[pos + 1]
        v = sig[pos + 2:pos + 2 + n]
        if n == 0 or n > 33 or len(v) != n or v[0] & 0x80 or (n > 1 and v[0] == 0 and v[1] < 0x80):
            return None
        vals.append(int.from_bytes(v, "big"))
        pos += 2 + n
    if pos != len(sig) or max(vals) >= 2**256:
        return None
    return be(vals[0]) + be(vals[1])


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    outdir = pathlib.Path(argv[1])
    all_seeds = seeds()
    for target, corpus in all_seeds.items():
        d = outdir / target
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        for name, blob in corpus.items():
            (d / name).write_bytes(blob)
    for target, corpus in control_seeds(all_seeds).items():
        d = outdir / "controls" / target
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        for name, blob in corpus.items():
            (d / name).write_bytes(blob)
    print("gen_py_fuzz_corpus: %s" % ", ".join("%s %d" % (t, len(c)) for t, c in all_seeds.items()))


if __name__ == "__main__":
    main(sys.argv)

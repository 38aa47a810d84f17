# SPDX-License-Identifier: Apache-2.0
"""Interop with the openssl command line: keys and signatures in both directions.

Skipped when `openssl` is not installed, except under CI (CI=true), where .ci/run installs
it and its absence is a failure rather than a silent skip.
"""

import os
import shutil
import subprocess

import pytest

import p256

OPENSSL = shutil.which("openssl")
if OPENSSL is None:
    if os.environ.get("CI"):
        raise RuntimeError("openssl is required under CI (.ci/run installs it)")
    pytest.skip("the openssl command line is not installed", allow_module_level=True)


def openssl(*args, input=None, check=True):
    """Run openssl; return its stdout (bytes). Raises with stderr when it fails and check."""
    proc = subprocess.run([OPENSSL, *map(str, args)], input=input, capture_output=True,
                          timeout=60)
    if check and proc.returncode != 0:
        raise AssertionError("openssl %s failed (%d): %s"
                             % (" ".join(map(str, args)), proc.returncode, proc.stderr.decode()))
    return proc if not check else proc.stdout


def write(path, data):
    path.write_bytes(data)
    return path


MSG = b"interop message\n" * 7


# -- keys written by openssl load here -------------------------------------------------------


def _check_openssl_key(sk, key_pem, tmp_path):
    """sk is the key openssl wrote to key_pem: same public key, same scalar."""
    pub_pem = openssl("pkey", "-in", key_pem, "-pubout")
    assert p256.PublicKey.from_pem(pub_pem) == sk.public_key
    pub_der = openssl("pkey", "-in", key_pem, "-pubout", "-outform", "DER")
    assert p256.PublicKey.from_der(pub_der) == sk.public_key
    # openssl's DER of the same key, both formats, equal ours byte for byte
    pkcs8 = openssl("pkcs8", "-topk8", "-nocrypt", "-in", key_pem, "-outform", "DER")
    assert pkcs8 == sk.to_der("pkcs8")
    assert p256.PrivateKey.from_der(pkcs8).to_bytes() == sk.to_bytes()
    assert openssl("ec", "-in", key_pem, "-outform", "DER") == sk.to_der("sec1")
    assert p256.PrivateKey.from_der(openssl("ec", "-in", key_pem, "-outform", "DER")).to_bytes() \
        == sk.to_bytes()


def test_ecparam_genkey_sec1(tmp_path):
    key = write(tmp_path / "k.pem", openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout"))
    assert b"-----BEGIN EC PRIVATE KEY-----" in key.read_bytes()
    sk = p256.PrivateKey.from_pem(key.read_bytes())
    _check_openssl_key(sk, key, tmp_path)


def test_ecparam_genkey_with_parameters_block(tmp_path):
    out = openssl("ecparam", "-name", "prime256v1", "-genkey")
    assert out.startswith(b"-----BEGIN EC PARAMETERS-----")
    key = write(tmp_path / "k.pem", out)
    _check_openssl_key(p256.PrivateKey.from_pem(out), key, tmp_path)


def test_genpkey_pkcs8(tmp_path):
    out = openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256")
    assert out.startswith(b"-----BEGIN PRIVATE KEY-----")
    key = write(tmp_path / "k.pem", out)
    sk = p256.PrivateKey.from_pem(out)
    assert sk.to_pem() == out
    _check_openssl_key(sk, key, tmp_path)
    der = openssl("pkey", "-in", key, "-outform", "DER")  # SEC1 or PKCS#8 by version
    assert p256.PrivateKey.from_der(der).to_bytes() == sk.to_bytes()


def test_compressed_spki_from_openssl(tmp_path):
    key = write(tmp_path / "k.pem", openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout"))
    sk = p256.PrivateKey.from_pem(key.read_bytes())
    der = openssl("ec", "-in", key, "-pubout", "-conv_form", "compressed", "-outform", "DER")
    assert der == sk.public_key.to_der(compressed=True)
    assert p256.PublicKey.from_der(der) == sk.public_key
    pem = openssl("ec", "-in", key, "-pubout", "-conv_form", "compressed")
    assert pem == sk.public_key.to_pem(compressed=True)


# -- keys written here load in openssl -------------------------------------------------------


def test_our_keys_load_in_openssl(tmp_path):
    sk = p256.PrivateKey.generate()
    for fmt in ("pkcs8", "sec1"):
        key = write(tmp_path / f"{fmt}.pem", sk.to_pem(fmt))
        text = openssl("pkey", "-in", key, "-text", "-noout").decode()
        assert "ASN1 OID: prime256v1" in text
        assert openssl("pkey", "-in", key) == sk.to_pem("pkcs8")
        assert openssl("ec", "-in", key) == sk.to_pem("sec1")
        check = openssl("ec", "-in", key, "-check", "-noout", check=False)
        assert check.returncode == 0 and b"EC Key valid" in check.stdout + check.stderr
        assert openssl("pkey", "-in", key, "-pubout") == sk.public_key.to_pem()
        der = write(tmp_path / f"{fmt}.der", sk.to_der(fmt))
        assert openssl("pkey", "-inform", "DER", "-in", der) == sk.to_pem("pkcs8")
    for compressed in (False, True):
        pub = write(tmp_path / "pub.pem", sk.public_key.to_pem(compressed))
        # openssl keeps the point form it read
        assert openssl("pkey", "-pubin", "-in", pub, "-pubout") == sk.public_key.to_pem(compressed)
        pub_der = write(tmp_path / "pub.der", sk.public_key.to_der(compressed))
        assert openssl("pkey", "-pubin", "-inform", "DER", "-in", pub_der, "-pubout") \
            == sk.public_key.to_pem(compressed)
        text = openssl("pkey", "-pubin", "-in", pub, "-text", "-noout").decode()
        assert "ASN1 OID: prime256v1" in text


# -- signatures, both directions -------------------------------------------------------------


@pytest.mark.parametrize("hname", ["sha256", "sha384", "sha512"])
def test_openssl_signatures_verify_here(tmp_path, hname):
    key = write(tmp_path / "k.pem", openssl("genpkey", "-algorithm", "EC", "-pkeyopt",
                                            "ec_paramgen_curve:P-256"))
    msg = write(tmp_path / "msg", MSG)
    pk = p256.PrivateKey.from_pem(key.read_bytes()).public_key
    for _ in range(3):
        sig = openssl("dgst", f"-{hname}", "-sign", key, msg)
        assert pk.verify(sig, MSG, hash=hname)
        assert not pk.verify(sig, MSG + b"x", hash=hname)


@pytest.mark.parametrize("hname", ["sha256", "sha384", "sha512"])
@pytest.mark.parametrize("deterministic", [False, True])
def test_our_signatures_verify_in_openssl(tmp_path, hname, deterministic):
    sk = p256.PrivateKey.generate()
    pub = write(tmp_path / "pub.pem", sk.public_key.to_pem())
    msg = write(tmp_path / "msg", MSG)
    sig = write(tmp_path / "sig", sk.sign(MSG, hash=hname, deterministic=deterministic))
    out = openssl("dgst", f"-{hname}", "-verify", pub, "-signature", sig, msg)
    assert b"Verified OK" in out
    # and openssl does say no to a wrong signature, so the check above can fail
    bad = write(tmp_path / "bad", sk.sign(MSG + b"x", hash=hname))
    proc = openssl("dgst", f"-{hname}", "-verify", pub, "-signature", bad, msg, check=False)
    assert proc.returncode == 1 and b"Verification failure" in proc.stdout + proc.stderr


def test_ecdh_with_openssl(tmp_path):
    ours = p256.PrivateKey.generate()
    theirs_pem = openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout")
    theirs = p256.PrivateKey.from_pem(theirs_pem)
    a = write(tmp_path / "a.pem", ours.to_pem())
    b_pub = write(tmp_path / "b_pub.pem", theirs.public_key.to_pem())
    shared = openssl("pkeyutl", "-derive", "-inkey", a, "-peerkey", b_pub)
    assert shared == ours.exchange(theirs.public_key) == theirs.exchange(ours.public_key)


# -- what openssl can write and we refuse ----------------------------------------------------


def test_explicit_parameters_from_openssl(tmp_path):
    out = openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-param_enc", "explicit")
    with pytest.raises(ValueError, match="explicit curve parameters are not supported"):
        p256.PrivateKey.from_pem(out)
    key = write(tmp_path / "k.pem", out)
    for fmt in ("pkcs8", "sec1"):
        conv = openssl("pkey" if fmt == "pkcs8" else "ec", "-in", key)
        with pytest.raises(ValueError, match="explicit curve parameters"):
            p256.PrivateKey.from_pem(conv)
    pub = openssl("pkey", "-in", key, "-pubout")
    with pytest.raises(ValueError, match="explicit curve parameters"):
        p256.PublicKey.from_pem(pub)


def test_encrypted_keys_from_openssl(tmp_path):
    key = write(tmp_path / "k.pem", openssl("genpkey", "-algorithm", "EC", "-pkeyopt",
                                            "ec_paramgen_curve:P-256"))
    pkcs8 = openssl("pkey", "-in", key, "-aes256", "-passout", "pass:secret")
    assert b"ENCRYPTED PRIVATE KEY" in pkcs8
    trad = openssl("ec", "-in", key, "-aes256", "-passout", "pass:secret")
    assert b"Proc-Type: 4,ENCRYPTED" in trad
    der = openssl("pkcs8", "-topk8", "-in", key, "-outform", "DER", "-passout", "pass:secret")
    for fn, data in [(p256.PrivateKey.from_pem, pkcs8), (p256.PrivateKey.from_der, der)]:
        with pytest.raises(ValueError, match="openssl pkey -in key.pem -out plain.pem"):
            fn(data)  # no password given (tests/test_encrypted_keys.py reads them with one)
        assert fn(data, password="secret").to_bytes() == p256.PrivateKey.from_pem(
            key.read_bytes()).to_bytes()
    with pytest.raises(ValueError, match="openssl pkcs8 -topk8"):
        p256.PrivateKey.from_pem(trad, password="secret")
    # and the advice works
    plain = openssl("pkey", "-in", write(tmp_path / "e.pem", pkcs8), "-passin", "pass:secret")
    assert p256.PrivateKey.from_pem(plain).to_bytes() == p256.PrivateKey.from_pem(
        key.read_bytes()).to_bytes()


@pytest.mark.parametrize("curve", ["secp384r1", "secp521r1", "secp256k1", "secp224r1"])
def test_other_curves_from_openssl(tmp_path, curve):
    out = openssl("ecparam", "-name", curve, "-genkey", "-noout")
    with pytest.raises(ValueError, match=curve):
        p256.PrivateKey.from_pem(out)
    key = write(tmp_path / "k.pem", out)
    with pytest.raises(ValueError, match=curve):
        p256.PrivateKey.from_pem(openssl("pkey", "-in", key))
    with pytest.raises(ValueError, match=curve):
        p256.PublicKey.from_pem(openssl("pkey", "-in", key, "-pubout"))

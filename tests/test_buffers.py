# SPDX-License-Identifier: Apache-2.0
"""Non-contiguous buffers (a strided memoryview such as memoryview(b)[::2]) are read as
bytes(view) in every entry point that takes bytes: the same answer as for the bytes
themselves, never a BufferError (the C binding's byteview_get copies such a view into
wiped memory; the Python layer hashes or copies it)."""

import hashlib

import pytest

import p256
from p256 import jws, webauthn

SK = p256.PrivateKey.from_int(0xC0FFEE)
PK = SK.public_key
MSG = b"a message of some length"
DIGEST = hashlib.sha256(MSG).digest()
SIG = SK.sign(MSG, deterministic=True)
RAW = SK.sign(MSG, deterministic=True, encoding="raw")


def strided(data: bytes) -> memoryview:
    """A non-contiguous view whose bytes are data."""
    view = memoryview(bytes(x for b in data for x in (b, 0xEE)))[::2]
    assert not view.contiguous and bytes(view) == data
    return view


CASES = {
    "PrivateKey.from_bytes": lambda b: p256.PrivateKey.from_bytes(b(SK.to_bytes())).to_bytes(),
    "PublicKey.from_bytes": lambda b: p256.PublicKey.from_bytes(b(PK.to_bytes())),
    "PublicKey.from_der": lambda b: p256.PublicKey.from_der(b(PK.to_der())),
    "PublicKey.from_pem": lambda b: p256.PublicKey.from_pem(b(PK.to_pem())),
    "PrivateKey.from_der": lambda b: p256.PrivateKey.from_der(b(SK.to_der())).to_bytes(),
    "PublicKey.from_cose": lambda b: p256.PublicKey.from_cose(b(PK.to_cose())),
    "sign (message)": lambda b: SK.sign(b(MSG), deterministic=True),
    "sign_digest": lambda b: SK.sign_digest(b(DIGEST), deterministic=True),
    "verify (signature)": lambda b: PK.verify(b(SIG), MSG),
    "verify (message)": lambda b: PK.verify(SIG, b(MSG)),
    "verify raw": lambda b: PK.verify(b(RAW), b(MSG), encoding="raw"),
    "verify_digest": lambda b: PK.verify_digest(b(SIG), b(DIGEST)),
    "scalar_mult": lambda b: p256.scalar_mult(b((5).to_bytes(32, "big")), b(PK.to_bytes())),
    "scalar_base_mult": lambda b: p256.scalar_base_mult(b((5).to_bytes(32, "big"))),
    "verify_many": lambda b: p256.verify_many([(PK, b(SIG), b(MSG))]),
    "p256verify": lambda b: p256.p256verify(b(DIGEST + RAW + PK.to_bytes()[1:])),
    "normalize_s": lambda b: p256.normalize_s(b(SIG)),
    "recover": lambda b: p256.PublicKey.recover(b(RAW), b(DIGEST), 0).to_bytes()
    if SK.sign_digest_recoverable(DIGEST, deterministic=True)[1] == 0
    else p256.PublicKey.recover(b(RAW), b(DIGEST), 1).to_bytes(),
    "jws.sign": lambda b: jws.verify(jws.sign(b(MSG), SK), PK),
    "webauthn signature": lambda b: webauthn.verify_assertion_signature(
        PK, b(bytes(37)), b(b"{}"), b(SK.sign(bytes(37) + hashlib.sha256(b"{}").digest()))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_non_contiguous_view_reads_as_its_bytes(name):
    call = CASES[name]
    expected = call(bytes)
    assert call(strided) == expected
    assert expected not in (False, None)


# A str where bytes are wanted: text to sign wants .encode(), binary data (a signature, a
# digest, DER, WebAuthn's base64url fields) wants decoding. The hint names the right one.
TEXT_CASES = {
    "sign(msg)": (lambda s: SK.sign(s), "msg.encode()"),
    "verify(msg)": (lambda s: PK.verify(SIG, s), "msg.encode()"),
    "jws.sign(payload)": (lambda s: jws.sign(s, SK), "payload.encode()"),
    "sign_digest(digest)": (lambda s: SK.sign_digest(s), "bytes.fromhex"),
    "verify_digest(digest)": (lambda s: PK.verify_digest(SIG, s), "bytes.fromhex"),
    "normalize_s(sig)": (lambda s: p256.normalize_s(s), "bytes.fromhex"),
    "recover(sig)": (lambda s: p256.PublicKey.recover(s, DIGEST, 0), "bytes.fromhex"),
    "webauthn signature": (lambda s: webauthn.verify_assertion_signature(
        PK, b"\x00" * 37, b"{}", s), "base64url"),
    "webauthn authenticator data": (lambda s: webauthn.parse_authenticator_data(s), "base64url"),
}


@pytest.mark.parametrize("name", sorted(TEXT_CASES))
def test_str_gets_the_hint_its_argument_needs(name):
    call, hint = TEXT_CASES[name]
    with pytest.raises(TypeError, match="not str") as info:
        call("ab" * 32)
    message = str(info.value)
    assert hint in message, message
    if hint.endswith(".encode()"):
        assert "decode" not in message, message
    else:
        assert "encode text" not in message, message

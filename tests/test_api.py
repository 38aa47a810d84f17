# SPDX-License-Identifier: Apache-2.0
"""The public API's contract (API.md): types, errors, encodings, bad input."""

import copy
import pickle
import pydoc

import pytest

import p256
from p256 import reference as ref

N, P = p256.N, p256.P
G = ref.P256.scalar_base_mult(1)
G_BYTES = b"\x04" + G[0].to_bytes(32, "big") + G[1].to_bytes(32, "big")


def test_constants():
    assert (N, P) == (ref.P256.n, ref.P256.p)


# -- PrivateKey ---------------------------------------------------------------------------


def test_generate_gives_distinct_valid_keys():
    keys = {p256.PrivateKey.generate().to_bytes() for _ in range(50)}
    assert len(keys) == 50
    assert all(1 <= int.from_bytes(k, "big") < N for k in keys)


@pytest.mark.parametrize("d", [0, N, N + 1, 2**256 - 1])
def test_private_key_out_of_range(d):
    with pytest.raises(ValueError):
        p256.PrivateKey.from_bytes(d.to_bytes(32, "big"))
    with pytest.raises(ValueError):
        p256.PrivateKey.from_int(d)


@pytest.mark.parametrize("d", [1, 2, N - 1])
def test_private_key_round_trip(d):
    b = d.to_bytes(32, "big")
    assert p256.PrivateKey.from_bytes(b).to_bytes() == b
    assert p256.PrivateKey.from_bytes(bytearray(b)).to_bytes() == b
    assert p256.PrivateKey.from_bytes(memoryview(b)).to_bytes() == b
    assert p256.PrivateKey.from_int(d).to_bytes() == b


@pytest.mark.parametrize("data", [b"", b"\x01" * 31, b"\x01" * 33])
def test_private_key_wrong_length(data):
    with pytest.raises(ValueError, match="32 bytes"):
        p256.PrivateKey.from_bytes(data)


@pytest.mark.parametrize("bad", ["00" * 32, 1, None, 1.0])
def test_private_key_wrong_type(bad):
    with pytest.raises(TypeError):
        p256.PrivateKey.from_bytes(bad)


@pytest.mark.parametrize("bad", [True, 1.0, "1", b"\x01"])
def test_private_key_from_int_wrong_type(bad):
    with pytest.raises(TypeError):
        p256.PrivateKey.from_int(bad)


def test_private_key_hides_secret():
    sk = p256.PrivateKey.from_int(0x1234567890ABCDEF)
    assert "1234567890" not in repr(sk).lower() and "90abcdef" not in repr(sk).lower()
    assert "1234567890abcdef" not in repr(sk._sk).lower()
    for dump in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError):
            dump(sk)
    with pytest.raises(TypeError):
        pickle.dumps(sk._sk)
    with pytest.raises(TypeError):
        p256.PrivateKey()


def test_help_on_private_key_says_how_to_get_one():
    # help(p256.PrivateKey) shows the constructor's signature: the class and the
    # constructor's docstrings say that it raises and which class methods make keys.
    text = pydoc.render_doc(p256.PrivateKey, renderer=pydoc.plaintext)
    for name in ("generate", "from_bytes", "from_int", "from_pem", "from_der", "from_jwk"):
        assert name in p256.PrivateKey.__doc__, name
    assert "raises" in p256.PrivateKey.__doc__
    assert "TypeError" in p256.PrivateKey.__init__.__doc__
    assert "Not a constructor" in text
    with pytest.raises(TypeError, match=r"use PrivateKey\.generate\(\), PrivateKey\.from_bytes"
                                        r"\(\) or PrivateKey\.from_int\(\)"):
        p256.PrivateKey(b"\x01" * 32)
    # from_cose points to the public documentation, not to a private module.
    assert "p256._cose" not in p256.PublicKey.from_cose.__doc__
    assert "Integrations" in p256.PublicKey.from_cose.__doc__


def test_public_key_is_cached_and_correct():
    sk = p256.PrivateKey.from_int(1)
    assert sk.public_key is sk.public_key
    assert sk.public_key.to_bytes() == G_BYTES


# -- PublicKey ----------------------------------------------------------------------------


def test_public_key_round_trips():
    pk = p256.PublicKey.from_bytes(G_BYTES)
    assert (pk.x, pk.y) == G
    assert pk.to_bytes() == G_BYTES
    c = pk.to_bytes(compressed=True)
    assert len(c) == 33 and c[0] == 2 + (G[1] & 1)
    assert p256.PublicKey.from_bytes(c) == pk
    assert hash(p256.PublicKey.from_bytes(c)) == hash(pk)
    assert p256.PublicKey.from_bytes(bytearray(G_BYTES)) == pk
    assert pk != p256.PrivateKey.from_int(2).public_key
    assert pk != G_BYTES
    assert eval(repr(pk), {"p256": p256}) == pk
    with pytest.raises(TypeError):
        p256.PublicKey()


def _bad_points():
    x, y = G
    xb, yb = x.to_bytes(32, "big"), y.to_bytes(32, "big")
    p_bytes = P.to_bytes(32, "big")
    yield "infinity", b"\x00"
    yield "empty", b""
    yield "short", G_BYTES[:-1]
    yield "long", G_BYTES + b"\x00"
    yield "prefix 05", b"\x05" + xb + yb
    yield "hybrid 06", b"\x06" + xb + yb
    yield "hybrid 07", b"\x07" + xb + yb
    yield "compressed with 04", b"\x04" + xb
    yield "uncompressed with 02", b"\x02" + xb + yb
    yield "x >= p", b"\x04" + p_bytes + yb
    yield "y >= p", b"\x04" + xb + p_bytes
    yield "y + p (fits 32 bytes? no: x + p)", b"\x04" + (x + P).to_bytes(33, "big")[1:] + yb
    yield "off curve", b"\x04" + xb + ((y + 1) % P).to_bytes(32, "big")
    yield "zero point", b"\x04" + bytes(64)
    yield "compressed x >= p", b"\x02" + p_bytes
    # x = 0 has no point on P-256? find an x without a square root deterministically
    for cand in range(1, 200):
        rhs = (cand**3 - 3 * cand + ref.P256.b) % P
        if pow(rhs, (P - 1) // 2, P) != 1:
            yield "compressed no sqrt", b"\x03" + cand.to_bytes(32, "big")
            break


@pytest.mark.parametrize("name,data", list(_bad_points()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_key_rejects(name, data):
    with pytest.raises(ValueError):
        p256.PublicKey.from_bytes(data)
    with pytest.raises(ValueError):
        p256.scalar_mult(b"\x01" * 32, data)


@pytest.mark.parametrize("bad", [None, "04" * 65, 5, [4] * 65])
def test_public_key_wrong_type(bad):
    with pytest.raises(TypeError):
        p256.PublicKey.from_bytes(bad)


# -- ECDSA --------------------------------------------------------------------------------

SK = p256.PrivateKey.from_int(0xC0FFEE)
PK = SK.public_key
MSG = b"p256 test message"


@pytest.mark.parametrize("hname", ["sha224", "sha256", "sha384", "sha512", "sha3_256", "sha3_384", "sha3_512"])
@pytest.mark.parametrize("encoding", ["der", "raw"])
@pytest.mark.parametrize("det", [False, True])
def test_sign_verify_all_modes(hname, encoding, det):
    sig = SK.sign(MSG, hash=hname, encoding=encoding, deterministic=det)
    assert PK.verify(sig, MSG, hash=hname, encoding=encoding)
    assert not PK.verify(sig, MSG + b"x", hash=hname, encoding=encoding)
    other = "der" if encoding == "raw" else "raw"
    assert not PK.verify(sig, MSG, hash=hname, encoding=other)
    if det:
        assert sig == SK.sign(MSG, hash=hname, encoding=encoding, deterministic=True)


def test_hedged_signatures_differ():
    sigs = {SK.sign(MSG) for _ in range(20)}
    assert len(sigs) == 20


def test_sign_digest():
    import hashlib
    d = hashlib.sha256(MSG).digest()
    assert SK.sign_digest(d, deterministic=True) == SK.sign(MSG, deterministic=True)
    assert PK.verify_digest(SK.sign_digest(d), d)
    with pytest.raises(TypeError):
        SK.sign_digest("abc")


@pytest.mark.parametrize("kw", [{"hash": "md5"}, {"hash": "sha1"}, {"hash": "SHA256"}, {"encoding": "pem"}])
def test_unknown_names(kw):
    with pytest.raises(ValueError):
        SK.sign(MSG, **kw)
    with pytest.raises(ValueError):
        PK.verify(b"", MSG, **kw)


@pytest.mark.parametrize("kw", [{"hash": None}, {"hash": 256}, {"encoding": None}])
def test_name_wrong_types(kw):
    with pytest.raises(TypeError):
        SK.sign(MSG, **kw)
    with pytest.raises(TypeError):
        PK.verify(b"", MSG, **kw)


@pytest.mark.parametrize("args", [("sig", MSG), (b"", "msg"), (None, MSG), (b"", None)])
def test_verify_wrong_types(args):
    with pytest.raises(TypeError):
        PK.verify(*args)


def _rs(r, s):
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def test_verify_rejects_out_of_range_raw():
    sig = SK.sign(MSG, encoding="raw")
    r, s = int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big")
    assert PK.verify(sig, MSG, encoding="raw")
    for bad in (_rs(0, s), _rs(r, 0), _rs(r + N, s) if r + N < 2**256 else _rs(N, s),
                _rs(r, N), _rs(N, N), sig[:-1], sig + b"\x00", b""):
        assert PK.verify(bad, MSG, encoding="raw") is False
    # s and n - s are both valid (no low-s rule in ECDSA)
    assert PK.verify(_rs(r, N - s), MSG, encoding="raw")


def test_verify_rejects_malformed_der():
    der = SK.sign(MSG)
    assert PK.verify(der, MSG)
    cases = [
        der + b"\x00",                      # trailing data
        der[:-1],                           # truncated
        b"\x31" + der[1:],                  # SET instead of SEQUENCE
        der[:1] + b"\x81" + der[1:],        # long-form length
        b"",
        b"\x30\x00",
    ]
    for bad in cases:
        assert PK.verify(bad, MSG) is False


# -- ECDH and low level ---------------------------------------------------------------------


def test_exchange_types():
    with pytest.raises(TypeError):
        SK.exchange(PK.to_bytes())
    with pytest.raises(TypeError):
        SK.exchange(None)


def test_low_level_errors():
    with pytest.raises(ValueError):
        p256.scalar_base_mult(b"\x01" * 31)
    with pytest.raises(ValueError):
        p256.scalar_base_mult(bytes(32))
    with pytest.raises(ValueError):
        p256.scalar_base_mult(N.to_bytes(32, "big"))
    with pytest.raises(TypeError):
        p256.scalar_base_mult(1)
    with pytest.raises(TypeError):
        p256.scalar_mult(b"\x01" * 32, None)
    assert p256.scalar_base_mult((N + 1).to_bytes(32, "big")) == G_BYTES
    assert p256.scalar_mult((1).to_bytes(32, "big"), G_BYTES) == G_BYTES

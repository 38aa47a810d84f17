# SPDX-License-Identifier: Apache-2.0
"""p256.jws (ES256 compact JWS) and PublicKey.jwk_thumbprint, with PyJWT as the peer."""

import base64
import hashlib
import json

import pytest

import p256
from p256 import jws

jwt = pytest.importorskip("jwt")
pytest.importorskip("cryptography")
from cryptography.hazmat.primitives import serialization as ser  # noqa: E402


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token_of(header, payload: bytes, sig: bytes) -> str:
    h = header if isinstance(header, bytes) else json.dumps(header).encode()
    return "%s.%s.%s" % (b64(h), b64(payload), b64(sig))


def resign(sk, header, payload: bytes) -> str:
    """A token with an arbitrary header, validly signed (to test header rules alone)."""
    h = header if isinstance(header, bytes) else json.dumps(header).encode()
    signing_input = "%s.%s" % (b64(h), b64(payload))
    return signing_input + "." + b64(sk.sign(signing_input.encode(), encoding="raw"))


SK = p256.PrivateKey.generate()
PK = SK.public_key
C_SK = ser.load_pem_private_key(SK.to_pem(), None)
C_PK = C_SK.public_key()


# -- interop with PyJWT, both ways ---------------------------------------------------------


def test_p256_signs_pyjwt_verifies():
    claims = {"sub": "alice", "n": 1, "text": "é€"}
    token = jws.sign(json.dumps(claims).encode(), SK, {"typ": "JWT", "kid": "k1"})
    assert jwt.decode(token, C_PK, algorithms=["ES256"]) == claims
    assert jwt.get_unverified_header(token) == {"alg": "ES256", "typ": "JWT", "kid": "k1"}
    # arbitrary payload bytes through PyJWT's JWS layer
    for payload in (b"", b"\x00\xff binary", b"x" * 1000):
        token = jws.sign(payload, SK)
        assert jwt.PyJWS().decode(token, C_PK, algorithms=["ES256"]) == payload
        # and through a JWK PyJWT built from p256's JWK
        assert jwt.PyJWS().decode(token, jwt.PyJWK(PK.to_jwk()).key, algorithms=["ES256"]) == payload


def test_pyjwt_signs_p256_verifies():
    claims = {"iss": "https://issuer.example", "aud": ["a", "b"], "exp": 4102444800}
    token = jwt.encode(claims, C_SK, algorithm="ES256", headers={"kid": "k1"})
    assert json.loads(jws.verify(token, PK)) == claims
    assert json.loads(jws.verify(token, {"keys": [dict(PK.to_jwk(), kid="k1")]})) == claims
    for payload in (b"", b"\x00\xff binary", b"y" * 1000):
        token = jwt.PyJWS().encode(payload, C_SK, algorithm="ES256")
        assert jws.verify(token, PK) == payload
        assert jws.verify(token.encode(), PK.to_jwk()) == payload


def test_round_trip_and_header_layout():
    token = jws.sign(b"payload", SK, {"kid": "x"})
    header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
    assert list(header) == ["alg", "kid"] and header["alg"] == "ES256"
    assert jws.verify(token, PK) == b"payload"
    assert token.count(".") == 2 and "=" not in token
    sig = base64.urlsafe_b64decode(token.split(".")[2] + "==")
    assert len(sig) == 64


def test_wrong_key_or_tampering_is_refused():
    token = jws.sign(b"payload", SK)
    with pytest.raises(ValueError, match="does not verify"):
        jws.verify(token, p256.PrivateKey.generate().public_key)
    h, p, s = token.split(".")
    with pytest.raises(ValueError, match="does not verify"):
        jws.verify("%s.%s.%s" % (h, b64(b"other"), s), PK)
    # a valid signature of a different signing input (header changed)
    with pytest.raises(ValueError, match="does not verify"):
        jws.verify("%s.%s.%s" % (b64(b'{"alg":"ES256","x":1}'), p, s), PK)


# -- alg: ES256 only ------------------------------------------------------------------------


def test_alg_none_refused():
    unsecured = token_of({"alg": "none"}, b"{}", b"")
    with pytest.raises(ValueError, match="alg 'none'"):
        jws.verify(unsecured, PK)
    pyjwt_none = jwt.encode({"a": 1}, None, algorithm="none")
    with pytest.raises(ValueError, match="alg 'none'"):
        jws.verify(pyjwt_none, PK)


def test_other_algs_refused_including_hmac_confusion():
    # the classic confusion: HS256 keyed with the verifier's public key bytes
    pem = PK.to_pem()
    h = b64(json.dumps({"alg": "HS256"}).encode())
    p = b64(b"{}")
    import hmac
    mac = hmac.new(pem, ("%s.%s" % (h, p)).encode(), hashlib.sha256).digest()
    with pytest.raises(ValueError, match="alg 'HS256'"):
        jws.verify("%s.%s.%s" % (h, p, b64(mac)), PK)
    for alg in ("ES384", "ES512", "RS256", "EdDSA", "es256", "ES256 "):
        with pytest.raises(ValueError, match="verifies ES256 only"):
            jws.verify(resign(SK, {"alg": alg}, b"{}"), PK)
    with pytest.raises(ValueError, match="no 'alg'"):
        jws.verify(resign(SK, {"typ": "JWT"}, b"{}"), PK)
    with pytest.raises(ValueError, match="must be a string"):
        jws.verify(resign(SK, {"alg": ["ES256"]}, b"{}"), PK)


# -- crit (RFC 7515 4.1.11) and b64 ---------------------------------------------------------


@pytest.mark.parametrize("header,message", [
    ({"alg": "ES256", "crit": ["exp"], "exp": 1}, "implements none"),
    ({"alg": "ES256", "crit": ["a", "b"], "a": 1, "b": 2}, "extensions 'a', 'b'"),
    ({"alg": "ES256", "crit": ["exp"]}, "does not have"),
    ({"alg": "ES256", "crit": ["alg"]}, "RFC 7515/7518 define"),
    ({"alg": "ES256", "crit": ["kid"], "kid": "k"}, "RFC 7515/7518 define"),
    ({"alg": "ES256", "crit": []}, "non-empty array"),
    ({"alg": "ES256", "crit": "exp", "exp": 1}, "non-empty array"),
    ({"alg": "ES256", "crit": ["exp", "exp"], "exp": 1}, "distinct"),
    ({"alg": "ES256", "crit": [1]}, "strings"),
    ({"alg": "ES256", "b64": False}, "RFC 7797"),
    ({"alg": "ES256", "kid": 7}, "'kid' must be a string"),
])
def test_header_rules(header, message):
    with pytest.raises(ValueError, match=message):
        jws.verify(resign(SK, header, b"{}"), PK)


def test_ignored_header_members_and_embedded_keys():
    attacker = p256.PrivateKey.generate()
    # a header jwk names the attacker's key: never used, the caller's key decides
    token = resign(attacker, {"alg": "ES256", "jwk": attacker.public_key.to_jwk()}, b"{}")
    with pytest.raises(ValueError, match="does not verify"):
        jws.verify(token, PK)
    token = resign(SK, {"alg": "ES256", "typ": "JWT", "cty": "x", "b64": True, "x-custom": [1]},
                   b"{}")
    assert jws.verify(token, PK) == b"{}"


# -- strict structure and base64url ---------------------------------------------------------


def test_structure_refused():
    good = jws.sign(b"payload", SK)
    h, p, s = good.split(".")
    cases = {
        "%s.%s" % (h, p): "3 parts",
        "%s.%s.%s.x" % (h, p, s): "3 parts",
        "%s.x.%s.%s.y" % (h, p, s): "a JWE has 5",
        "%s.%s.%s=" % (h, p, s): "padding",
        "%s=.%s.%s" % (h, p, s): "padding",
        "%s.%s.%s" % (h, p + " ", s): "not base64url",
        "%s.%s.%s" % (h, p, s[:10] + "\n" + s[10:]): "not base64url",
        "%s.%s.%s" % (h, p, s.replace("-", "+").replace("_", "/") if ("-" in s or "_" in s)
                      else "+" + s[1:]): "not base64url",
        "%s.%s.%s" % (h, p[:-1] + chr(ord(p[-1]) + 1), s): "canonical",
        "%s.%s.%s" % (h, p, s + "AAA"): "1 mod 4",
        "%s.%s.%s" % (h, p, "é" + s[1:]): "not base64url",
    }
    for token, message in cases.items():
        with pytest.raises(ValueError, match=message):
            jws.verify(token, PK)
    # 'payload' is 7 bytes: its base64url ends in a character with unused bits
    assert p == "cGF5bG9hZA"


def test_signature_length_and_der_named():
    signing_input = jws.sign(b"x", SK).rsplit(".", 1)[0]
    der = SK.sign(signing_input.encode())
    with pytest.raises(ValueError, match="looks like DER"):
        jws.verify(signing_input + "." + b64(der), PK)
    for n in (0, 63, 65, 96):
        with pytest.raises(ValueError, match="64 bytes"):
            jws.verify(signing_input + "." + b64(bytes(n)), PK)
    with pytest.raises(ValueError, match="does not verify"):
        jws.verify(signing_input + "." + b64(bytes(64)), PK)


def test_header_json_refused():
    for raw, message in [
        (b'{"alg":"ES256","alg":"none"}', "duplicate member 'alg'"),
        (b'{"alg":"ES256","kid":"a","kid":"b"}', "duplicate"),
        (b'["ES256"]', "JSON object"),
        (b'{"alg":"ES256"', "not valid JSON"),
        (b'{"alg":"ES256","n":NaN}', "NaN"),
        (b'{"alg":"ES256","n":Infinity}', "NaN or Infinity"),
        (b'{"alg":"ES\xff"}', "not UTF-8"),
        (b"[" * 100000 + b"]" * 100000, "not valid JSON"),
    ]:
        with pytest.raises(ValueError, match=message):
            jws.verify(resign(SK, raw, b"{}"), PK)
    # PyJWT, for comparison, takes the last 'alg' of a duplicated header
    assert jwt.get_unverified_header(resign(SK, b'{"alg":"none","alg":"ES256"}', b"{}"))["alg"] == "ES256"


# -- keys, kid and JWK sets -----------------------------------------------------------------

KEYS = [p256.PrivateKey.generate() for _ in range(3)]
JWKS = {"keys": [dict(k.public_key.to_jwk(), kid="k%d" % i, use="sig") for i, k in enumerate(KEYS)]}


def test_kid_selects_from_a_set():
    for i, sk in enumerate(KEYS):
        token = jws.sign(b"m%d" % i, sk, {"kid": "k%d" % i})
        assert jws.verify(token, JWKS) == b"m%d" % i
        assert jws.verify(token, json.dumps(JWKS)) == b"m%d" % i
        pyjwt_token = jwt.PyJWS().encode(b"p", ser.load_pem_private_key(sk.to_pem(), None),
                                         algorithm="ES256", headers={"kid": "k%d" % i})
        assert jws.verify(pyjwt_token, JWKS) == b"p"
        # PyJWT agrees on which key the kid names
        pyjwk = jwt.PyJWKSet.from_dict(JWKS)["k%d" % i]
        assert jwt.PyJWS().decode(token, pyjwk.key, algorithms=["ES256"]) == b"m%d" % i
    # the right kid on the wrong key's signature
    forged = jws.sign(b"m", KEYS[0], {"kid": "k1"})
    with pytest.raises(ValueError, match="does not verify"):
        jws.verify(forged, JWKS)


def test_kid_errors():
    with pytest.raises(ValueError, match="no key in the JWK set has the token's kid 'zz'"):
        jws.verify(jws.sign(b"m", KEYS[0], {"kid": "zz"}), JWKS)
    dup = {"keys": JWKS["keys"] + [dict(JWKS["keys"][0])]}
    with pytest.raises(ValueError, match="2 keys in the JWK set have the kid 'k0'"):
        jws.verify(jws.sign(b"m", KEYS[0], {"kid": "k0"}), dup)


def test_no_kid():
    token = jws.sign(b"m", KEYS[1])
    with pytest.raises(ValueError, match="no kid and the JWK set holds 3 keys"):
        jws.verify(token, JWKS)
    assert jws.verify(token, {"keys": [JWKS["keys"][1]]}) == b"m"  # exactly one: used
    with pytest.raises(ValueError, match="holds 0 keys"):
        jws.verify(token, {"keys": []})
    # a single key passed directly is used whatever the token's kid says
    assert jws.verify(jws.sign(b"m", KEYS[1], {"kid": "other"}), KEYS[1].public_key) == b"m"


def test_single_jwk_kid_must_match():
    jwk = dict(KEYS[0].public_key.to_jwk(), kid="k0")
    assert jws.verify(jws.sign(b"m", KEYS[0], {"kid": "k0"}), jwk) == b"m"
    assert jws.verify(jws.sign(b"m", KEYS[0]), jwk) == b"m"
    with pytest.raises(ValueError, match="not the JWK's kid"):
        jws.verify(jws.sign(b"m", KEYS[0], {"kid": "k9"}), jwk)


@pytest.mark.parametrize("extra,message", [
    ({"use": "enc"}, "use 'enc'"),
    ({"alg": "ES384"}, "alg 'ES384'"),
    ({"key_ops": ["sign"]}, "without 'verify'"),
    ({"key_ops": "verify"}, "key_ops must be an array of strings"),
    ({"crv": "P-384"}, "P-384"),
    ({"kty": "RSA"}, "RSA"),
])
def test_jwk_fitness(extra, message):
    jwk = dict(PK.to_jwk(), **extra)
    with pytest.raises(ValueError, match=message):
        jws.verify(jws.sign(b"m", SK), jwk)
    with pytest.raises(ValueError, match=message):
        jws.verify(jws.sign(b"m", SK), {"keys": [jwk]})


def test_jwk_fitness_allows_verify_ops():
    jwk = dict(PK.to_jwk(), alg="ES256", use="sig", key_ops=["verify"])
    assert jws.verify(jws.sign(b"m", SK), jwk) == b"m"


def test_bad_jwks_shape():
    token = jws.sign(b"m", SK)
    for keys in ({"keys": {}}, {"keys": [1]}, {"keys": "x"}):
        with pytest.raises(ValueError, match="array of JWK objects"):
            jws.verify(token, keys)


def test_type_errors():
    token = jws.sign(b"m", SK)
    with pytest.raises(TypeError, match="public key"):
        jws.verify(token, SK)
    with pytest.raises(TypeError, match="JWK set"):
        jws.verify(token, 5)
    with pytest.raises(TypeError, match="str or bytes"):
        jws.verify(5, PK)
    with pytest.raises(TypeError, match="encode text first"):
        jws.sign("text", SK)
    with pytest.raises(TypeError, match="PrivateKey"):
        jws.sign(b"m", PK)
    with pytest.raises(TypeError, match="mapping"):
        jws.sign(b"m", SK, [("kid", "x")])
    with pytest.raises(TypeError, match="names must be str"):
        jws.sign(b"m", SK, {1: "x"})
    with pytest.raises(TypeError):
        jws.sign(b"m", SK, {"x": object()})


def test_sign_header_rules():
    with pytest.raises(ValueError, match="ES256 only"):
        jws.sign(b"m", SK, {"alg": "none"})
    with pytest.raises(ValueError, match="crit"):
        jws.sign(b"m", SK, {"crit": ["exp"], "exp": 1})
    with pytest.raises(ValueError, match="RFC 7797"):
        jws.sign(b"m", SK, {"b64": False})
    with pytest.raises(ValueError):
        jws.sign(b"m", SK, {"n": float("nan")})
    assert jws.verify(jws.sign(b"m", SK, {"alg": "ES256"}), PK) == b"m"


# -- RFC 7638 thumbprint ------------------------------------------------------------------


def thumbprint_independent(pub) -> str:
    """RFC 7638 3: the required members in lexicographic order, no whitespace, SHA-256."""
    nums = pub.public_numbers()
    members = {"kty": "EC", "crv": "P-256",
               "x": b64(nums.x.to_bytes(32, "big")), "y": b64(nums.y.to_bytes(32, "big"))}
    canonical = json.dumps(members, sort_keys=True, separators=(",", ":"))
    return b64(hashlib.sha256(canonical.encode()).digest())


def test_jwk_thumbprint():
    for _ in range(10):
        sk = p256.PrivateKey.generate()
        pub = ser.load_pem_public_key(sk.public_key.to_pem())
        tp = sk.public_key.jwk_thumbprint()
        assert tp == thumbprint_independent(pub)
        assert len(tp) == 43 and "=" not in tp
    # RFC 7638 3.1 worked example form, for the P-256 key of RFC 7515 appendix A.3
    a3 = p256.PublicKey.from_jwk({"kty": "EC", "crv": "P-256",
                                  "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                                  "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"})
    canonical = ('{"crv":"P-256","kty":"EC","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",'
                 '"y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}')
    assert a3.jwk_thumbprint() == b64(hashlib.sha256(canonical.encode()).digest())


def test_rfc7515_a3_example_verifies():
    """RFC 7515 appendix A.3: the ES256 example JWS, verified with the key it gives."""
    jwk = {"kty": "EC", "crv": "P-256",
           "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
           "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}
    token = ("eyJhbGciOiJFUzI1NiJ9"
             ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFt"
             "cGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
             ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSA"
             "pmWQxfKTUJqPP3-Kg6NU1Q")
    assert jws.verify(token, jwk) == (b'{"iss":"joe",\r\n "exp":1300819380,\r\n '
                                      b'"http://example.com/is_root":true}')


# -- one JSON reader for JOSE: the same text means the same key to every reader ------------


def _jwk_text(**dupes):
    """A public JWK as JSON text with members repeated (the second value last)."""
    jwk = PK.to_jwk()
    body = ", ".join('"%s": "%s"' % kv for kv in jwk.items())
    for name, value in dupes.items():
        body += ', "%s": "%s"' % (name, value)
    return "{" + body + "}"


def test_duplicate_members_are_refused_by_every_jose_reader():
    other = p256.PrivateKey.generate().public_key.to_jwk()
    text = _jwk_text(x=other["x"], y=other["y"])  # the last x/y are another key's
    with pytest.raises(ValueError, match="duplicate member 'x'"):
        p256.PublicKey.from_jwk(text)
    with pytest.raises(ValueError, match="duplicate member 'x'"):
        jws.verify(jws.sign(b"m", SK), text)
    private = dict(SK.to_jwk())
    priv_text = json.dumps(private)[:-1] + ', "d": "%s"}' % private["d"]
    with pytest.raises(ValueError, match="duplicate member 'd'"):
        p256.PrivateKey.from_jwk(priv_text)
    # in a JWK set: the set's own members and each key's
    key = json.dumps(PK.to_jwk())
    for jwks in ('{"keys": [%s], "keys": []}' % key,
                 '{"keys": [%s]}' % _jwk_text(kty="EC")):
        with pytest.raises(ValueError, match="duplicate member"):
            jws.verify(jws.sign(b"m", SK), jwks)


def test_huge_json_numbers_are_refused_quickly():
    digits = "9" * 100_000
    header = b64(b'{"alg":"ES256","exp":%s}' % digits.encode())
    token = header + "." + b64(b"m") + "." + b64(bytes(64))
    with pytest.raises(ValueError, match="a number of 100000 characters"):
        jws.verify(token, PK)
    text = _jwk_text()[:-1] + ', "n": %s}' % digits
    with pytest.raises(ValueError, match="a number of"):
        p256.PublicKey.from_jwk(text)
    with pytest.raises(ValueError, match="a number of"):
        p256.PublicKey.from_jwk(_jwk_text()[:-1] + ', "n": 1.%se5}' % digits)

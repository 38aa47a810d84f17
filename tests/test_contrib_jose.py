# SPDX-License-Identifier: Apache-2.0
"""p256.contrib.pyjwt and p256.contrib.joserfc: ES256 on p256 inside PyJWT and joserfc.

The proof is their own test suites (tools/third_party_suites.py, run here in a
subprocess: ~30 s), which pass with p256's ES256 in place of theirs, and fail with a
planted broken one; the tests below check what the modules promise besides: the keys
users hold, tokens that the libraries' own ES256 reads and writes, the cache of
precomputed keys, the errors the libraries document, and that registering is undone
cleanly here (each test restores the library's state)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

import p256

jwt = pytest.importorskip("jwt")
joserfc = pytest.importorskip("joserfc")
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from jwt import api_jwk, api_jws  # noqa: E402
from joserfc import jws as jf_jws, jwt as jf_jwt  # noqa: E402
from joserfc.errors import InvalidKeyCurveError, UnsupportedKeyOperationError  # noqa: E402
from joserfc.jwk import ECKey  # noqa: E402

from p256.contrib import joserfc as p256_joserfc, pyjwt as p256_pyjwt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SK = p256.PrivateKey.from_int(0x1234567)
PK = SK.public_key
CLAIMS = {"sub": "user-1", "iss": "https://issuer.example", "aud": "api", "exp": 4102444800}


@pytest.fixture
def pyjwt_registered():
    """p256's ES256 on PyJWT's default instance, PyJWT's own put back afterwards."""
    default = api_jws._jws_global_obj
    saved = default._algorithms["ES256"], api_jwk.get_default_algorithms
    algorithm = p256_pyjwt.register()
    yield algorithm
    default.unregister_algorithm("ES256")
    default.register_algorithm("ES256", saved[0])
    api_jwk.get_default_algorithms = saved[1]


@pytest.fixture
def joserfc_registered():
    registry = jf_jws.JWSRegistry
    saved = registry.algorithms["ES256"], list(registry.recommended)
    algorithm = p256_joserfc.register()
    yield algorithm
    registry.algorithms["ES256"] = saved[0]
    registry.recommended[:] = saved[1]


# -- their own suites ---------------------------------------------------------------------------


def _suites(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "third_party_suites.py"), *args],
                          capture_output=True, text=True, timeout=900)


def test_their_own_suites_pass_with_p256(tmp_path):
    """PyJWT's and joserfc's suites (pinned sdists): every test passes with p256's
    ES256, and enough of them reach p256 (the script's MIN_REACHING)."""
    done = _suites("--json", str(tmp_path / "suites.json"))
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    results = {r["library"]: r for r in json.loads((tmp_path / "suites.json").read_text())}
    assert set(results) == {"pyjwt", "joserfc"}
    for library, r in results.items():
        assert r["failed"] == 0 and r["passed"] >= 300, (library, r["failed_tests"])
        assert r["reaching_p256"] == r["reaching_p256_passed"] >= 5, library
    print(done.stdout)


def test_their_suites_catch_a_broken_es256():
    """Negative control: with a planted ES256 that verifies every signature, PyJWT's
    suite fails (the script's exit status says it did) in the tests that expect
    invalid signatures."""
    done = _suites("--plant", "--only", "pyjwt")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "FAILED tests/test_algorithms.py::TestAlgorithms::test_ec_verify_should_return_false" \
        in done.stdout


# -- PyJWT --------------------------------------------------------------------------------------


def test_pyjwt_keys_users_hold(pyjwt_registered):
    pem, public_pem = SK.to_pem(), PK.to_pem().decode()
    crypto_sk, crypto_pk = SK.to_cryptography(), PK.to_cryptography()
    for signing in (pem, pem.decode(), SK, crypto_sk):
        token = jwt.encode(CLAIMS, signing, algorithm="ES256", headers={"kid": "k1"})
        assert jwt.get_unverified_header(token) == {"alg": "ES256", "kid": "k1", "typ": "JWT"}
        for verifying in (public_pem, PK, crypto_pk, pem):
            assert jwt.decode(token, verifying, algorithms=["ES256"], audience="api") == CLAIMS
        jwk = jwt.PyJWK(PK.to_jwk())  # made after register(): p256's ES256
        assert isinstance(jwk.Algorithm, p256_pyjwt.ES256Algorithm)
        assert jwt.decode(token, jwk, audience="api") == CLAIMS


def test_pyjwt_tokens_agree_with_pyjwt_own_es256(pyjwt_registered):
    """A token p256 signs verifies under PyJWT's own ES256, and the reverse; a token
    signed by another key fails under both (the comparison can fail)."""
    theirs = jwt.PyJWS(algorithms=["ES256"])  # made with PyJWT's get_default_algorithms
    assert not isinstance(theirs.get_algorithm_by_name("ES256"), p256_pyjwt.ES256Algorithm)
    payload = json.dumps(CLAIMS).encode()
    ours = jwt.api_jws.encode(payload, SK.to_pem(), algorithm="ES256")
    assert theirs.decode(ours, PK.to_pem(), algorithms=["ES256"]) == payload
    mine = theirs.encode(payload, SK.to_pem(), algorithm="ES256")
    assert jwt.api_jws.decode(mine, PK.to_pem(), algorithms=["ES256"]) == payload
    other = p256.PrivateKey.from_int(99).to_pem()
    forged = jwt.api_jws.encode(payload, other, algorithm="ES256")
    for reader in (theirs, api_jws._jws_global_obj):
        with pytest.raises(jwt.InvalidSignatureError):
            reader.decode(forged, PK.to_pem(), algorithms=["ES256"])


def test_pyjwt_errors_stay_pyjwt_errors(pyjwt_registered):
    token = jwt.encode(CLAIMS, SK, algorithm="ES256")
    k1 = ec.generate_private_key(ec.SECP256K1())
    with pytest.raises(jwt.InvalidKeyError, match="secp256k1"):
        jwt.encode(CLAIMS, k1, algorithm="ES256")
    with pytest.raises(jwt.InvalidKeyError):
        jwt.decode(token, ec.generate_private_key(ec.SECP384R1()).public_key(), algorithms=["ES256"])
    with pytest.raises(TypeError):
        jwt.decode(token, 12345, algorithms=["ES256"])
    head, body, sig = token.split(".")
    short = jwt.utils.base64url_encode(jwt.utils.base64url_decode(sig)[:63]).decode()
    with pytest.raises(jwt.InvalidSignatureError):  # PyJWT's: a malformed one is invalid
        jwt.decode(head + "." + body + "." + short, PK, algorithms=["ES256"], audience="api")
    with pytest.raises(jwt.InvalidAlgorithmError):
        jwt.decode(token, PK, algorithms=["ES384"], audience="api")


def test_pyjwt_cache_keeps_one_precomputed_key(pyjwt_registered):
    text = PK.to_pem().decode()
    token = jwt.encode(CLAIMS, SK, algorithm="ES256")
    for _ in range(3):
        jwt.decode(token, text, algorithms=["ES256"], audience="api")
        jwt.decode(token, PK, algorithms=["ES256"], audience="api")
    assert len(pyjwt_registered.cache) == 1 and PK in pyjwt_registered.cache
    assert pyjwt_registered.cache.get(PK).is_precomputed
    prepared = pyjwt_registered.prepare_key(text)
    assert prepared is pyjwt_registered.prepare_key(text.encode())  # read once
    assert isinstance(prepared, ec.EllipticCurvePublicKey)  # PyJWT's result type


def test_pyjwt_keys_seen_once_build_no_table(pyjwt_registered):
    """A stream of keys that never come back verifies with plain keys: no table is
    built (a table costs about 20 verifications); the second sighting builds it."""
    keys = [p256.PrivateKey.from_int(1000 + i) for i in range(5)]
    tokens = [jwt.encode(CLAIMS, k, algorithm="ES256") for k in keys]
    for k, token in zip(keys, tokens):
        jwt.decode(token, k.public_key.to_pem(), algorithms=["ES256"], audience="api")
    assert len(pyjwt_registered.cache) == 0
    jwt.decode(tokens[0], keys[0].public_key.to_pem(), algorithms=["ES256"], audience="api")
    assert len(pyjwt_registered.cache) == 1


def test_pyjwt_to_jwk_of_p256_keys(pyjwt_registered):
    jwk = p256_pyjwt.ES256Algorithm.to_jwk(SK, as_dict=True)
    assert jwk == SK.to_jwk()
    assert json.loads(p256_pyjwt.ES256Algorithm.to_jwk(PK)) == PK.to_jwk()
    back = p256_pyjwt.ES256Algorithm.from_jwk(jwk)  # PyJWT's: a pyca key
    assert p256.PrivateKey.from_cryptography(back).to_int() == SK.to_int()


def test_pyjwt_register_on_an_instance():
    mine = jwt.PyJWS()
    algorithm = p256_pyjwt.register(mine)
    assert mine.get_algorithm_by_name("ES256") is algorithm
    assert not isinstance(api_jws._jws_global_obj.get_algorithm_by_name("ES256"),
                          p256_pyjwt.ES256Algorithm)
    with pytest.raises(TypeError, match="PyJWS"):
        p256_pyjwt.register(object())  # type: ignore[arg-type]


# -- joserfc ------------------------------------------------------------------------------------


def test_joserfc_keys_and_tokens(joserfc_registered):
    key = p256_joserfc.import_key(SK)
    for signing in (key, ECKey.import_key(SK.to_pem()), ECKey.import_key(SK.to_jwk())):
        token = jf_jwt.encode({"alg": "ES256", "kid": "k1"}, CLAIMS, signing)
        for verifying in (p256_joserfc.import_key(PK), ECKey.import_key(PK.to_jwk())):
            decoded = jf_jwt.decode(token, verifying)
            assert decoded.claims == CLAIMS and decoded.header["kid"] == "k1"
        assert jwt.decode(token, PK.to_pem(), algorithms=["ES256"], audience="api") == CLAIMS
    with pytest.raises(TypeError):
        p256_joserfc.import_key(SK.to_pem())


def test_joserfc_agrees_with_its_own_es256(joserfc_registered):
    ours = joserfc_registered
    theirs = p256_joserfc._ESAlgorithm("ES256", "P-256", 256, True)
    key = p256_joserfc.import_key(SK)
    msg = b"header.payload"
    assert theirs.verify(msg, ours.sign(msg, key), key)
    assert ours.verify(msg, theirs.sign(msg, key), key)
    other = p256_joserfc.import_key(p256.PrivateKey.from_int(99))
    assert not ours.verify(msg, theirs.sign(msg, other), key)
    assert not ours.verify(msg, b"\x00" * 63, key)


def test_joserfc_errors_stay_joserfc_errors(joserfc_registered):
    p384 = ECKey.generate_key("P-384")
    with pytest.raises(InvalidKeyCurveError):
        jf_jwt.encode({"alg": "ES256"}, CLAIMS, p384)
    limited = ECKey.import_key(SK.to_jwk() | {"key_ops": ["verify"]})
    with pytest.raises(UnsupportedKeyOperationError):
        jf_jwt.encode({"alg": "ES256"}, CLAIMS, limited)


def test_joserfc_keys_are_read_once(joserfc_registered):
    key = p256_joserfc.import_key(SK)
    public = p256_joserfc.import_key(PK)
    token = jf_jwt.encode({"alg": "ES256"}, CLAIMS, key)
    for _ in range(3):
        jf_jwt.decode(token, public)
    assert len(joserfc_registered.cache) == 1
    assert joserfc_registered._verifiers.get(public).is_precomputed
    assert joserfc_registered._signers.get(key).to_int() == SK.to_int()


def test_contrib_namespaces_hold_public_names():
    import p256.contrib

    for module in (p256_pyjwt, p256_joserfc, p256.contrib):
        stray = {n for n in dir(module) if not n.startswith("_")} - set(module.__all__)
        stray -= {"pyjwt", "joserfc"} if module is p256.contrib else set()
        assert stray == set(), (module.__name__, stray)

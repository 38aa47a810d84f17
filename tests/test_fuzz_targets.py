# SPDX-License-Identifier: Apache-2.0
"""The fuzz targets of tests/fuzz/ (run by `make fuzz-smoke` under atheris) on fixed
inputs, so that their code cannot rot between fuzzing runs:

- every target passes on its whole seed corpus (tools/gen_py_fuzz_corpus.py, from the
  Wycheproof vectors) and on simple mutations of its first seeds;
- every documented difference from the oracle (targets.DIFFERENCES) is reached by a
  concrete input, which the target accepts and attributes to exactly that difference;
- every negative control (targets.PLANTS) is caught: with the deliberately broken p256
  a witness input raises Finding with the expected message, and passes without it;
- the findings the fuzzer made while this harness was written stay fixed (regressions);
- with atheris installed, tests/fuzz/run.py fuzzes and catches a planted bug.
"""

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("cryptography")

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "fuzz"))
sys.path.insert(0, str(HERE.parent / "tools"))

import dertree  # noqa: E402
import gen_py_fuzz_corpus  # noqa: E402
import targets  # noqa: E402

import p256  # noqa: E402

SEEDS = gen_py_fuzz_corpus.seeds()


def mutants(blob: bytes, i: int):
    """A few deterministic mutations (what libFuzzer does first: flip, cut, grow)."""
    n = len(blob)
    if not n:
        return [b"\x00"]
    at = (i * 7919) % n
    return [
        blob[:at] + bytes([blob[at] ^ 0x01]) + blob[at + 1:],
        blob[:at] + bytes([blob[at] ^ 0x80]) + blob[at + 1:],
        blob[:-1],
        blob + b"\x00",
        blob[:at] + blob[at + 1:],
        blob[:at] + b"\xff" + blob[at:],
    ]


def test_every_target_has_seeds():
    assert set(SEEDS) == set(targets.TARGETS)
    for name, corpus in SEEDS.items():
        assert len(corpus) >= 30, name


@pytest.mark.parametrize("name", sorted(targets.TARGETS))
def test_target_passes_seeds_and_mutants(name):
    fn = targets.TARGETS[name]
    for blob in SEEDS[name].values():
        fn(blob)
    for i, blob in enumerate(list(SEEDS[name].values())[:25]):
        for m in mutants(blob, i):
            fn(m)


# -- the documented differences, each reached -----------------------------------------

SK = p256.PrivateKey.from_int(0xC0FFEE)
PK = SK.public_key
Q = PK.to_bytes()
D = SK.to_bytes()
HYBRID = bytes([6 + (Q[64] & 1)]) + Q[1:]
tlv, seq = gen_py_fuzz_corpus.tlv, gen_py_fuzz_corpus.seq
uint, octets, bits = gen_py_fuzz_corpus.uint, gen_py_fuzz_corpus.octets, gen_py_fuzz_corpus.bits
ALG, OID_P256 = gen_py_fuzz_corpus.ALG, gen_py_fuzz_corpus.OID_P256
EXPLICIT = gen_py_fuzz_corpus.explicit_p256_params()
ATTR_OID = bytes.fromhex("06092a864886f70d010914")
INNER = seq(uint(1), octets(D), tlv(0xA1, bits(Q)))


def pkcs8_with_attribute(value: bytes) -> bytes:
    return seq(uint(0), ALG, octets(INNER), tlv(0xA0, seq(ATTR_OID, tlv(0x31, value))))


def nested(depth: int) -> bytes:
    v = b"\x05\x00"
    for _ in range(depth):
        v = seq(v)
    return v


DIFFERENCE_WITNESSES = {
    "D0-not-der": ("priv_der", pkcs8_with_attribute(b"\x02\x02\x00\x01")),  # non-minimal INTEGER
    "D1-hybrid": ("pub_der", seq(ALG, bits(HYBRID))),
    "D2-explicit": ("pub_der", seq(seq(gen_py_fuzz_corpus.OID_EC, EXPLICIT), bits(Q))),
    "D3-pem-layout": ("pub_pem", PK.to_pem().replace(b"\nMFkw", b"\n MFkw")),
    "D4-attribute-depth": ("priv_der", pkcs8_with_attribute(nested(40))),
    "E1-sec1-no-params": ("priv_der", INNER),
    "E2-pkcs8-v2": ("priv_der", seq(uint(1), ALG, octets(INNER), bits(Q, 0x81))),
    "E3-pem-one-block": ("pub_pem", gen_py_fuzz_corpus.pem("EC PARAMETERS", OID_P256) + PK.to_pem()),
}

# COSE_Key, JWS and X.509: inputs from the seeds' own builders.
_COSE = SEEDS["cose_key"]["webauthn-0"]
_D1 = gen_py_fuzz_corpus.INTEGRATION_D[0]
_CA = SEEDS["x509_cert"]["ca-sha256"]
_T = _CA.index(b"\x17\x0d")  # the first UTCTime, with a letter among its digits
DIFFERENCE_WITNESSES.update({
    "C1-cbor-types": ("cose_key", SEEDS["cose_key"]["float-0"]),
    "C2-cbor-depth": ("cose_key", b"\xa6" + _COSE[1:] + b"\x18\x64" + b"\x81" * 20 + b"\x00"),
    "J1-base64": ("jws_verify", SEEDS["jws_verify"]["padded-0"]),
    "J2-header-json": ("jws_verify", SEEDS["jws_verify"]["dup-0"]),
    "J3-crit": ("jws_verify", b"\x00" + gen_py_fuzz_corpus.jws_token(_D1, {"alg": "ES256", "b64": "x"}, b"{}")),
    "X1-structure": ("x509_cert", SEEDS["x509_cert"]["v1-with-extensions"]),
    "X2-fields": ("x509_cert", _CA[:_T + 2] + b"261301000000Z" + _CA[_T + 15:]),
    "X3-v2": ("x509_cert", SEEDS["x509_cert"]["v2"]),
    "D5-pbes2-params": ("priv_encrypted", SEEDS["priv_encrypted"]["keylength-wrong"]),
})


def test_every_difference_has_a_witness():
    assert set(DIFFERENCE_WITNESSES) == set(targets.DIFFERENCES)


def _closed_upstream(difference, data):
    """Whether the installed cryptography no longer differs on this witness: cryptography
    51 reads PKCS#8 version 1 (v2) keys as p256 does, so there the target finds no
    difference (the test extra admits releases from 43, which reject them)."""
    if difference == "E2-pkcs8-v2":
        return targets.oracle(targets.c_load_der_private, data) is not None
    return False


@pytest.mark.parametrize("difference", sorted(DIFFERENCE_WITNESSES))
def test_difference_is_reached_and_attributed(difference):
    name, data = DIFFERENCE_WITNESSES[difference]
    want = None if _closed_upstream(difference, data) else difference
    assert targets.TARGETS[name](data) == want


def test_d4_is_exactly_the_nesting_limit():
    limit = p256._der.MAX_NESTING
    assert targets.priv_der(pkcs8_with_attribute(nested(limit - 1))) is None  # accepted by both
    assert targets.priv_der(pkcs8_with_attribute(nested(limit))) == "D4-attribute-depth"


def test_d1_hybrid_inside_private_keys():
    data = seq(uint(1), octets(D), tlv(0xA0, OID_P256), tlv(0xA1, bits(HYBRID)))
    assert targets.priv_der(data) == "D1-hybrid"


def test_d1_hybrid_in_the_pkcs8_v2_public_key():
    # PKCS#8 v2 (RFC 5958) carries the public key a second time, in [1] outside the
    # ECPrivateKey. A cryptography that reads v2 keys accepts it hybrid; one that does not
    # rejects the key as p256 does, and then there is no difference to attribute.
    data = seq(uint(1), ALG, octets(INNER), bits(HYBRID, 0x81))
    reads_v2 = targets.oracle(targets.c_load_der_private, seq(uint(1), ALG, octets(INNER), bits(Q, 0x81)))
    assert targets.priv_der(data) == ("D1-hybrid" if reads_v2 is not None else None)
    pem = gen_py_fuzz_corpus.pem("PRIVATE KEY", data)
    assert targets.priv_pem(pem) == ("D1-hybrid" if reads_v2 is not None else None)
    # a privateKey OCTET STRING that holds no SEQUENCE is no hybrid point's
    assert targets.explain_private_rejection(seq(uint(0), ALG, octets(uint(1))), D) is None


def test_d0_is_not_a_blanket_excuse():
    # A DER key that p256 rejects while cryptography accepts it, with no documented reason,
    # must be a finding: simulate p256 rejecting the plain PKCS#8 encoding.
    der = SK.to_der()
    ours = targets.Rejected(ValueError("simulated"))
    with pytest.raises(targets.Finding, match="rejected a key cryptography accepts"):
        targets.compare_private_der(der, ours, D, "simulated")
    with pytest.raises(targets.Finding, match="rejected an SPKI cryptography accepts"):
        targets.compare_spki(PK.to_der(), ours, Q, "simulated")


def test_dertree_finds_what_it_should():
    assert dertree.der_problems(SK.to_der()) == []
    assert dertree.der_problems(b"\x30\x81\x03\x02\x01\x01")  # long form for 3
    assert dertree.der_problems(b"\x02\x02\x00\x01")  # non-minimal INTEGER
    assert dertree.der_problems(b"\x31\x06\x04\x01\x02\x04\x01\x01")  # SET OF out of order
    assert dertree.der_problems(b"\x03\x02\x01\x01")  # BIT STRING padding bit set
    assert dertree.der_problems(b"\x30\x02\x05\x00\x00")  # trailing
    assert dertree.der_problems(b"\x0a\x02\x00\x01")  # non-minimal ENUMERATED
    assert dertree.der_problems(b"\x0d\x02\x6b\x9a")  # RELATIVE-OID ends mid sub-identifier
    assert dertree.der_problems(b"\x0d\x02\x80\x01")  # RELATIVE-OID, non-minimal
    assert dertree.der_problems(b"\x0d\x01\x2a") == []
    assert dertree.encode(dertree.parse(b"\x30\x81\x03\x02\x01\x01")) == b"\x30\x03\x02\x01\x01"


# -- negative controls ------------------------------------------------------------------


def _plant_witness(plant):
    if plant in ("slow-der", "der-memory"):  # 14 octets >= 0x80 in a row
        return PK.to_der() + b"\xff" * 14
    if plant == "offcurve":
        return Q[:-1] + bytes([Q[-1] ^ 1])
    if plant == "ber-length":
        der = PK.to_der()
        return b"\x30\x81" + der[1:]
    if plant == "sig-trailing":
        msg = b"fuzz"
        return b"\x00" + Q + bytes([len(msg)]) + msg + SK.sign(msg) + b"\x00"
    if plant == "eip-length":
        import hashlib

        h = hashlib.sha256(b"fuzz").digest()
        return h + SK.sign_digest(h, encoding="raw") + Q[1:] + b"\x00"
    if plant == "recover-digest-tail":
        import hashlib

        h = hashlib.sha512(b"fuzz").digest()
        return b"\x01" + bytes([len(h)]) + h + SK.sign_digest(h, hash="sha512", encoding="raw")
    if plant == "point-zero-prefix":
        return b"\x00" + Q[1:33]
    if plant == "scalar-wraps":
        return (p256.N + 5).to_bytes(32, "big")
    if plant == "oprf-trailing":
        return SEEDS["oprf_element"]["d-7"] + b"\x00"
    if plant == "proof-unchecked":
        return SEEDS["oprf_finalize"]["proof-bit-0-00"]
    if plant == "pad-message":
        inner = SK.to_der()
        return gen_py_fuzz_corpus.pbes2(inner, pad=bytes(16 - len(inner) % 16))
    raise AssertionError(plant)


def test_every_plant_has_a_witness():
    for plant in targets.PLANTS:
        assert _plant_witness(plant)


@pytest.mark.parametrize("plant", sorted(targets.PLANTS))
def test_plant_is_caught(plant, monkeypatch):
    _, name, expected = targets.PLANTS[plant]
    data = _plant_witness(plant)
    targets.TARGETS[name](data)  # sound p256: no finding
    monkeypatch.setattr(targets, "_PLANT", plant)
    targets._plant(plant, monkeypatch.setattr)
    with pytest.raises(targets.Finding, match=expected.replace("(", r"\(").replace(")", r"\)")) as info:
        targets.TARGETS[name](data)
    assert "negative control active: P256_FUZZ_PLANT=%s" % plant in str(info.value)


@pytest.mark.parametrize("plant", sorted(targets.PLANTS))
def test_control_seed_does_not_hand_over_the_plant(plant, monkeypatch):
    # make fuzz-smoke starts each negative control from one valid input, so that the
    # fuzzer has to find the planted bug by mutating it
    _, name, _ = targets.PLANTS[plant]
    controls = gen_py_fuzz_corpus.control_seeds(SEEDS)
    assert name in controls
    monkeypatch.setattr(targets, "_PLANT", plant)
    targets._plant(plant, monkeypatch.setattr)
    for blob in controls[name].values():
        targets.TARGETS[name](blob)


# -- what the fuzzer found while the harness was written (fixed in p256) -----------------


@pytest.mark.parametrize("value", [
    b"\x30\x03\xff\xff\xff",  # junk inside a constructed value
    b"\x02\x02\x00\x01",  # non-minimal INTEGER
    b"\x04\x81\x01\x00",  # non-minimal length
    b"\x01\x01\x01",  # BOOLEAN neither 00 nor FF
    b"\x31\x06\x04\x01\x02\x04\x01\x01",  # SET OF out of order
    b"\x04\x01\x02\x04\x01\x01",  # the values SET OF itself out of order
    b"\x30\x80\x00\x00",  # indefinite length
    b"\x0a\x02\x00\x01",  # non-minimal ENUMERATED
    b"\x0d\x02\x6b\x9a",  # RELATIVE-OID ending inside a sub-identifier
    nested(40),  # deeper than p256._der.MAX_NESTING
])
def test_pkcs8_attributes_must_be_der(value):
    with pytest.raises(ValueError, match="PKCS#8"):
        p256.PrivateKey.from_der(pkcs8_with_attribute(value))


@pytest.mark.parametrize("attributes", [
    b"",
    seq(ATTR_OID, tlv(0x31, b"")),
    seq(ATTR_OID, tlv(0x31, b"\x04\x01\x01\x04\x01\x02")),
    seq(ATTR_OID, tlv(0x31, nested(20))),
    seq(ATTR_OID, tlv(0x31, b"\x05\x00")) + seq(ATTR_OID + b"", tlv(0x31, b"\x0c\x01a")),
])
def test_pkcs8_der_attributes_still_load(attributes):
    der = seq(uint(0), ALG, octets(INNER), tlv(0xA0, attributes))
    assert p256.PrivateKey.from_der(der).to_bytes() == D


def test_malformed_relative_oid_attribute_is_a_der_difference():
    # make fuzz-smoke's find: a friendlyName attribute whose value is a RELATIVE-OID
    # ending inside a sub-identifier. cryptography does not read attribute values; p256
    # refuses non-DER anywhere, and the oracle must see the input as not DER (D0).
    data = bytes.fromhex(
        "3081a1020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420010000000000"
        "0000000000000000000000000000000000000000000000000000a144034200049bbf06dad9ab5905e054"
        "71ce16d5222c89c2caa39f26267ac0747129885fbd441bcc7fa84de120a36755daf30a6f47e8c0d4bddc"
        "15036ed2a3447dfa7a1d3e88a018301606092a864886f70d01091431090d076b6579e390919a")
    assert targets.priv_der(data) == "D0-not-der"


def test_pkcs8_attributes_out_of_order():
    a, b = seq(ATTR_OID, tlv(0x31, b"\x05\x00")), seq(ATTR_OID, tlv(0x31, b"\x0c\x01a"))
    assert a < b
    der = seq(uint(0), ALG, octets(INNER), tlv(0xA0, b + a))
    with pytest.raises(ValueError, match="ascending order"):
        p256.PrivateKey.from_der(der)


@pytest.mark.parametrize("text,message", [("[" * 100000, "nested too deeply"),
                                          ('{"a":' * 100000, "more than 10000 members")])
def test_jwk_nested_too_deeply_is_a_value_error(text, message):
    with pytest.raises(ValueError, match=message):
        p256.PublicKey.from_jwk(text)
    with pytest.raises(ValueError, match=message):
        p256.PrivateKey.from_jwk(text)
    with pytest.raises(ValueError, match="nested too deeply"):  # under the member bound
        p256.PublicKey.from_jwk('{"a":' * 5000)


@pytest.mark.parametrize("make", [
    lambda pem: b"AAAA" + pem,  # BEGIN inside a line, before the block
    lambda pem: b"-----BEGIN PUBLIC KEY-----junk\n" + pem,  # a malformed BEGIN line
    lambda pem: b"-----BEGIN FOO-----\nx-----BEGIN PUBLIC KEY-----\n-----END FOO-----\n" + pem,
])
def test_pem_begin_boundaries_that_readers_disagree_on_are_refused(make):
    data = make(PK.to_pem())
    with pytest.raises(ValueError, match="PEM"):
        p256.PublicKey.from_pem(data)
    targets.pub_pem(data)  # and the harness agrees: documented (D3), not a finding


def test_pem_text_after_the_block_is_still_ignored():
    assert p256.PublicKey.from_pem(PK.to_pem() + b"x-----BEGIN junk\n") == PK


# -- the atheris runner -----------------------------------------------------------------


def _run(args, env=None, timeout=300):
    return subprocess.run([sys.executable, str(HERE / "fuzz" / "run.py")] + args, capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ, **(env or {})))


def test_runner_lists_every_target():
    pytest.importorskip("atheris")
    out = _run(["--list"]).stdout
    assert [line.split()[0] for line in out.splitlines()] == list(targets.TARGETS)


def test_runner_fuzzes_and_catches_a_planted_bug(tmp_path):
    pytest.importorskip("atheris")
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for i, blob in enumerate(list(SEEDS["pub_bytes"].values())[:20]):
        (seeds / str(i)).write_bytes(blob)
    work = tmp_path / "work"
    work.mkdir()
    ok = _run(["pub_bytes", "-runs=2000", "-seed=1", str(work), str(seeds)])
    assert ok.returncode == 0, ok.stderr[-2000:]
    assert "Done 2000 runs" in ok.stderr
    bad = _run(["pub_bytes", "-runs=200000", "-seed=1", "-artifact_prefix=%s/" % tmp_path, str(work),
                str(seeds)], env={"P256_FUZZ_PLANT": "offcurve"})
    assert bad.returncode != 0
    assert "negative control active: P256_FUZZ_PLANT=offcurve" in bad.stdout + bad.stderr  # atheris: stdout
    crash = list(tmp_path.glob("crash-*"))
    assert crash
    replay = _run(["pub_bytes", str(crash[0])], env={"P256_FUZZ_PLANT": "offcurve"})
    assert replay.returncode != 0
    assert _run(["pub_bytes", str(crash[0])]).returncode == 0  # sound p256: no finding


# -- the COSE, JWS and X.509 targets catch a broken p256 (negative controls) --------------


def test_cose_target_catches_a_lenient_reader(monkeypatch):
    import cbor2
    from p256 import _cose

    unordered = b"\xa5\x03\x26\x01\x02" + _COSE[5:]
    assert targets.cose_key(unordered) is None  # sound: refused by both readings
    monkeypatch.setattr(_cose, "decode", lambda data: _cose.decode_mapping(cbor2.loads(data)))
    with pytest.raises(targets.Finding, match="non-deterministic"):
        targets.cose_key(unordered)


def test_jws_target_catches_a_missing_header_check(monkeypatch):
    from p256 import jws

    token = b"\x00" + gen_py_fuzz_corpus.jws_token(_D1, {"alg": "ES256", "crit": ["exp"], "exp": 1}, b"{}")
    assert targets.jws_verify(token) is None
    monkeypatch.setattr(jws, "_check_header", lambda header: None)
    with pytest.raises(targets.Finding, match="PyJWT refuses"):
        targets.jws_verify(token)


def test_x509_target_catches_a_wrong_verdict(monkeypatch):
    from p256 import x509

    leaf = SEEDS["x509_cert"]["leaf-sha256"]
    assert targets.x509_cert(leaf) is None
    real = x509.verify_signature
    monkeypatch.setattr(x509, "verify_signature", lambda cert, key: True if real(cert, key) is not None else None)
    with pytest.raises(targets.Finding, match="cryptography says False"):
        targets.x509_cert(leaf)


def test_x509_v2_with_a_bad_name_is_a_field_difference():
    # found by x509_cert: a v2 certificate whose issuer name cryptography cannot parse
    # (the harness first demanded cryptography's v2 error for every v2 certificate)
    # (an AttributeTypeAndValue without its value: since x509.parse reads Names by their
    # grammar, p256 refuses it too, naming the field)
    data = bytes.fromhex("3082010a3081b0a00302010102021234300a06082a8648ce3d040302300d310b300906075504030c024341301e170d3236303130313030303030305a170d3236303230313030303030305a300f310d300b06035504030c046c6561663059301306072a8648ce3d060106082a8648ce3d030107034200041b5f15b2f4bec16538218146137f47dcb94fef2d44b073f4ec83cb7b88044c25da9797b73e302aae49540a6e98e96b35929c68f181f3537c988a29440a9d9fe1300a06082a8648ce3d0403020349003046022100ab174f6a817cf3c2f96363df86a2d97f11540c6b9b7f4eaa36470180d7d4f617022100955920f6d499185c1c87e51e20b12ec7b927eac97fe14321bef4180eedacc39a")
    assert targets.x509_cert(data) is None
    with pytest.raises(ValueError, match="data ends where an attribute value of the issuer was expected"):
        p256.x509.parse(data)


def test_x509_signature_with_unused_bits_is_a_structure_difference():
    # found by x509_cert: cryptography reads a signatureValue with unused bits (their
    # value dropped); p256 refuses it, an ECDSA signature being whole octets
    data = bytes.fromhex("308201303081d8a0030201020215008000000000000000000000000000000000000000300a06082a8648ce3d040302300d310b300906035504030c024341301e170d3236303130313030303030305a170d3236303230313030303030305a300f310d300b06035504030c046c6561663059301306072a8648ce3d020106082a8648ce3d030107034200041b5f15b2f4bec16538218146137f47dcb94fef2d44b073f4ec83cb7b88044c25da9797b73e4931ae2a540a6e98e96b35929c68f181f3537c988a29440a9d9fe1a3133011300f0603551d130101ff040530030101ff300a06082a8648ce3d04030203470224b62b204400304235db3e7f9d2e0a03b19deb4d3e638a5f3ff177906c910a01b7e57af1022072b179e70ac37112899ebac4226842424339fc7af6bfdc11f285f7290bfe157c")
    assert targets.x509_cert(data) == "X1-structure"


def test_x509_name_error_without_the_tbs_prefix_is_a_field_difference():
    # found by x509_cert: cryptography parses names lazily, and its error's location then
    # starts inside the name (a UniversalString of the wrong length)
    data = bytes.fromhex("308201303081d8a0030201020215008000000000000000000000000000000000000000300a06082a8648ce3d040302300d310b300906035504031c024341301e170d3236303130313030303030305a170d3236303230313030303030305a300f310d300b06035504030c046c6561663059301306072a86bcce3d020106082a8648ce3d030107034200041b5f15b2f4bec16538218146137f47dcb94fef2d44b073f4ec83cb7b88044c25da9797b73e4931ae2a540a6e98e96b35929c68f181f3537c988a29440a9d9fe1a3133011300f0603551d130101ff040530030101ff300a06082a8648ce3d040302034700304402202bb6244235db3e7f9d2e0a03b19deb4d3e638a5f3ff177906c910a01b7e57af1022072b179e70ac37112899ebac4226842424339fc7af6bfdc11f285f7290bfe157c")
    assert targets.x509_cert(data) == "X2-fields"


def test_x509_hybrid_subject_key_is_the_spki_difference():
    # found by x509_cert: one bit turned the leaf's point prefix 04 into 06, the hybrid
    # form, which cryptography reads and RFC 5480 2.2 says to reject; the target now
    # explains a refused subject key as the SPKI readers do
    data = bytes.fromhex("3082011f3081c6a00302010202021234300a06082a8648ce3d040302300d310b300906035504030c024341301e170d3236303130313030303030305a170d3236303230313030303030305a3010310e300c06035504030c056c656166343059301306072a8648ce3d020106082a8648ce3d03010703420006e2534a3532d08fbba02dde659ee62bd0031fe2db785596ef509302446b030852e0f1575a4c633cc719dfee5fda862d764efc96c3f30ee0055c42c23f184ed8c6a3133011300f0603551d130101ff040530030101ff300a06082a8648ce3d0403020348003045022100e5a8af168d8a6394660f1970cd919f299045819fba8010664e64730dcc54fddd022023e22bd8c4bb49dae3bc77021f2b4e89cb4cff886cbd427e1905f2ea0547460a")
    assert targets.x509_cert(data) == "D1-hybrid"
    with pytest.raises(ValueError, match=r"hybrid SEC1 encoding \(prefix 0x06\) is not supported"):
        p256.PublicKey.from_certificate(data)


@pytest.mark.parametrize("spki, difference", [
    (seq(ALG, bits(HYBRID)), "D1-hybrid"),
    (seq(seq(gen_py_fuzz_corpus.OID_EC, EXPLICIT), bits(Q)), "D2-explicit"),
], ids=["hybrid", "explicit"])
def test_x509_subject_key_differences(spki, difference):
    # a leaf certificate whose subjectPublicKeyInfo is one the SPKI readers' differences
    # explain: x509_cert must find the same one
    d1 = gen_py_fuzz_corpus.INTEGRATION_D[0]
    data = gen_py_fuzz_corpus.certificate(None, d1, extensions=False, spki=spki)
    assert targets.x509_cert(data) == difference


def test_x509_refused_subject_key_needs_a_reason(monkeypatch):
    # the explanation is narrow: a subject key refused for no documented reason is a finding
    leaf = SEEDS["x509_cert"]["leaf-sha256"]
    real_attempt = targets.attempt
    monkeypatch.setattr(targets, "attempt", lambda what, fn, *args: targets.Rejected(ValueError("simulated"))
                        if what == "PublicKey.from_certificate" else real_attempt(what, fn, *args))
    with pytest.raises(targets.Finding, match="from_certificate refused a P-256 key cryptography reads"):
        targets.x509_cert(leaf)


def test_jwk_text_with_a_duplicate_member_is_refused_not_compared():
    # found by pub_jwk and priv_jwk once JWK text went through the one JOSE reader: the
    # harness parsed the text with json.loads (the last member wins) and compared the dict
    jwk = PK.to_jwk()
    text = '{"kty":"EC","crv":"P-256","crv":"P-256","x":"%s","y":"%s"}' % (jwk["x"], jwk["y"])
    assert targets.pub_jwk(text.encode()) is None
    with pytest.raises(ValueError, match="duplicate member 'crv'"):
        p256.PublicKey.from_jwk(text)

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


def test_every_difference_has_a_witness():
    assert set(DIFFERENCE_WITNESSES) == set(targets.DIFFERENCES)


@pytest.mark.parametrize("difference", sorted(DIFFERENCE_WITNESSES))
def test_difference_is_reached_and_attributed(difference):
    name, data = DIFFERENCE_WITNESSES[difference]
    assert targets.TARGETS[name](data) == difference


def test_d4_is_exactly_the_nesting_limit():
    limit = p256._der.MAX_NESTING
    assert targets.priv_der(pkcs8_with_attribute(nested(limit - 1))) is None  # accepted by both
    assert targets.priv_der(pkcs8_with_attribute(nested(limit))) == "D4-attribute-depth"


def test_d1_hybrid_inside_private_keys():
    data = seq(uint(1), octets(D), tlv(0xA0, OID_P256), tlv(0xA1, bits(HYBRID)))
    assert targets.priv_der(data) == "D1-hybrid"


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
    assert dertree.encode(dertree.parse(b"\x30\x81\x03\x02\x01\x01")) == b"\x30\x03\x02\x01\x01"


# -- negative controls ------------------------------------------------------------------


def _plant_witness(plant):
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


def test_pkcs8_attributes_out_of_order():
    a, b = seq(ATTR_OID, tlv(0x31, b"\x05\x00")), seq(ATTR_OID, tlv(0x31, b"\x0c\x01a"))
    assert a < b
    der = seq(uint(0), ALG, octets(INNER), tlv(0xA0, b + a))
    with pytest.raises(ValueError, match="ascending order"):
        p256.PrivateKey.from_der(der)


@pytest.mark.parametrize("text", ["[" * 5000, '{"a":' * 5000])
def test_jwk_nested_too_deeply_is_a_value_error(text):
    with pytest.raises(ValueError, match="nested too deeply"):
        p256.PublicKey.from_jwk(text)
    with pytest.raises(ValueError, match="nested too deeply"):
        p256.PrivateKey.from_jwk(text)


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

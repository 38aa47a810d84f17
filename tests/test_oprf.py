# SPDX-License-Identifier: Apache-2.0
"""p256.oprf: RFC 9497, suite P256-SHA256, in the modes OPRF, VOPRF and POPRF.

- every vector of RFC 9497 A.3 (all three modes, the batches of two included) through the
  public module and through its reference instance (p256._oprf_ref: the same protocol
  code over pure-Python stand-ins and p256.reference's hash-to-curve), with the blinds
  and proof scalars passed as the documented parameters;
- round trips with fresh randomness, batches, bytes on the wire;
- the two instances against each other on random inputs, both ways: a client of one
  finalizes what the other's server answered, and fixed randomness gives the same bytes;
- every error RFC 9497 names (InvalidInputError, DeserializeError, VerifyError,
  InverseError, DeriveKeyPairError), each from an input that triggers it, and every
  argument error;
- negative controls: a wrong context string, a wrong hash-to-group tag and a tampered
  proof are caught by the checks above.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

import p256
from p256 import _oprf_ref, _refgroup, oprf
from vectors_util import VECTORS

with open(VECTORS / "oprf" / "P256-SHA256.json", "rb") as _f:
    SUITES = {s["mode"]: s for s in json.load(_f)}

MODES = (oprf.OPRF, oprf.VOPRF, oprf.POPRF)
NAMES = {oprf.OPRF: "OPRF", oprf.VOPRF: "VOPRF", oprf.POPRF: "POPRF"}


class Instance:
    """One implementation of the protocol: the public module or the reference instance."""

    def __init__(self, name, client, server, derive, generate, deserialize, scalar, point):
        self.name, self.Client, self.Server = name, client, server
        self.derive_key_pair, self.generate_key_pair = derive, generate
        self.deserialize_element, self.Scalar, self.Point = deserialize, scalar, point


NATIVE = Instance("public", oprf.Client, oprf.Server, oprf.derive_key_pair, oprf.generate_key_pair,
                  oprf.deserialize_element, oprf._NATIVE.scalar, oprf._NATIVE.point)
REFERENCE = Instance("reference", _oprf_ref.Client, _oprf_ref.Server, _oprf_ref.derive_key_pair,
                     _oprf_ref.generate_key_pair, _oprf_ref.deserialize_element,
                     _refgroup.Scalar, _refgroup.Point)
INSTANCES = [NATIVE, REFERENCE]


def hexes(field: str) -> list:
    return [bytes.fromhex(x) for x in field.split(",")]


def enc(points) -> str:
    return ",".join(pt.to_bytes(compressed=True).hex() for pt in points)


def vector_params() -> list:
    return [pytest.param(inst, mode, i, id="%s-%s-%d" % (inst.name, NAMES[mode], i + 1))
            for mode, suite in SUITES.items() for i in range(len(suite["vectors"]))
            for inst in INSTANCES]


def run_vector(inst: Instance, mode: int, index: int) -> list:
    """The steps of one RFC 9497 A.3 vector that `inst` gets wrong (empty: all right)."""
    suite = SUITES[mode]
    v = suite["vectors"][index]
    wrong = []
    sk, pk = inst.derive_key_pair(bytes.fromhex(suite["seed"]), bytes.fromhex(suite["keyInfo"]), mode)
    if sk.to_bytes().hex() != suite["skSm"]:
        wrong.append("skSm")
    if "pkSm" in suite and pk.to_bytes(compressed=True).hex() != suite["pkSm"]:
        wrong.append("pkSm")
    inputs = hexes(v["Input"])
    blinds = [inst.Scalar.from_bytes(b) for b in hexes(v["Blind"])]
    info = bytes.fromhex(v.get("Info", ""))
    assert len(inputs) == len(blinds) == v["Batch"]
    client = inst.Client(mode, None if mode == oprf.OPRF else pk)
    server = inst.Server(mode, sk)
    states, blinded = [], []
    for x, b in zip(inputs, blinds):
        st, be = client.blind(x, info, blind=b)
        states.append(st)
        blinded.append(be)
    if enc(blinded) != v["BlindedElement"]:
        wrong.append("BlindedElement")
    r = None if mode == oprf.OPRF else inst.Scalar.from_bytes(bytes.fromhex(v["Proof"]["r"]))
    evaluated, proof = server.blind_evaluate(blinded, info, proof_random=r)
    if enc(evaluated) != v["EvaluationElement"]:
        wrong.append("EvaluationElement")
    if mode == oprf.OPRF:
        if proof is not None:
            wrong.append("Proof")
    elif proof.hex() != v["Proof"]["proof"]:
        wrong.append("Proof")
    wire = [e.to_bytes(compressed=True) for e in evaluated]
    outputs = client.finalize(inputs, states, wire, proof, info)
    if ",".join(o.hex() for o in outputs) != v["Output"]:
        wrong.append("Output")
    if [server.evaluate(x, info) for x in inputs] != outputs:
        wrong.append("Evaluate")
    return wrong


def test_the_vector_file_is_complete():
    assert sorted(SUITES) == [0, 1, 2]
    assert [len(SUITES[m]["vectors"]) for m in MODES] == [2, 3, 3]
    for mode in MODES:
        assert SUITES[mode]["identifier"] == "P256-SHA256"
        ctx = b"OPRFV1-" + bytes([mode]) + b"-P256-SHA256"
        assert bytes.fromhex(SUITES[mode]["groupDST"]) == b"HashToGroup-" + ctx
        assert [v["Batch"] for v in SUITES[mode]["vectors"]][-1] == (1 if mode == oprf.OPRF else 2)


@pytest.mark.parametrize("inst, mode, index", vector_params())
def test_every_rfc_vector(inst, mode, index):
    assert run_vector(inst, mode, index) == []


# -- negative controls of the vector test -------------------------------------------------

def test_a_wrong_context_string_fails_the_vectors(monkeypatch):
    """The suite's identifier written "P256-SHA-256": every key, element and output differs."""
    monkeypatch.setattr(oprf, "_IDENTIFIER", b"P256-SHA-256")
    monkeypatch.setattr(oprf, "_CONTEXTS", tuple(oprf._Context(m) for m in MODES))
    for mode in MODES:
        wrong = run_vector(NATIVE, mode, 0)
        assert {"skSm", "BlindedElement", "Output"} <= set(wrong), (mode, wrong)


def test_a_wrong_group_tag_fails_the_vectors(monkeypatch):
    """HashToGroup with the HashToScalar tag: the blinded elements and outputs differ,
    the key (derived with its own tag) does not."""
    for mode in MODES:
        ctx = oprf._Context(mode)
        ctx.group_dst = ctx.scalar_dst
        contexts = list(oprf._CONTEXTS)
        contexts[mode] = ctx
        monkeypatch.setattr(oprf, "_CONTEXTS", tuple(contexts))
        wrong = run_vector(NATIVE, mode, 0)
        assert "skSm" not in wrong and {"BlindedElement", "Output"} <= set(wrong), (mode, wrong)


def test_a_wrong_proof_scalar_fails_the_proof_vectors():
    """proof_random is what the vectors' proofs are made with: another value, another proof."""
    suite, v = SUITES[oprf.VOPRF], SUITES[oprf.VOPRF]["vectors"][0]
    sk, pk = oprf.derive_key_pair(bytes.fromhex(suite["seed"]), bytes.fromhex(suite["keyInfo"]), oprf.VOPRF)
    blinded = [oprf.deserialize_element(b) for b in hexes(v["BlindedElement"])]
    r = NATIVE.Scalar.from_bytes(bytes.fromhex(v["Proof"]["r"]))
    server = oprf.Server(oprf.VOPRF, sk)
    assert server.blind_evaluate(blinded, proof_random=r)[1].hex() == v["Proof"]["proof"]
    other = NATIVE.Scalar.from_bytes(bytes.fromhex(v["Proof"]["r"][:-1] + "0"))
    assert server.blind_evaluate(blinded, proof_random=other)[1].hex() != v["Proof"]["proof"]


# -- round trips with fresh randomness -------------------------------------------------------

@pytest.mark.parametrize("mode", MODES, ids=NAMES.get)
def test_round_trip(mode):
    sk, pk = oprf.generate_key_pair()
    client = oprf.Client(mode, None if mode == oprf.OPRF else pk)
    server = oprf.Server(mode, sk)
    info = b"public info" if mode == oprf.POPRF else b""
    for size in (1, 2, 5):
        inputs = [b"input %d" % i for i in range(size)]
        pairs = [client.blind(x, info) for x in inputs]
        states = [s for s, _ in pairs]
        wire = [b.to_bytes(compressed=True) for _, b in pairs]
        evaluated, proof = server.blind_evaluate(wire, info)
        assert (proof is None) == (mode == oprf.OPRF) and len(evaluated) == size
        outputs = client.finalize(inputs, states, [e.to_bytes(compressed=True) for e in evaluated],
                                  proof, info)
        assert outputs == [server.evaluate(x, info) for x in inputs]
        assert len(set(outputs)) == size and all(len(o) == 32 for o in outputs)
    # fresh blinds: the same input blinds differently each time, and gives the same output
    (s1, b1), (s2, b2) = client.blind(b"x", info), client.blind(b"x", info)
    assert b1 != b2
    ev, proof = server.blind_evaluate([b1, b2], info)
    o1, o2 = client.finalize([b"x", b"x"], [s1, s2], ev, proof, info)
    assert o1 == o2
    # fresh proof scalars: two proofs of the same batch differ, both verify
    if mode != oprf.OPRF:
        assert server.blind_evaluate([b1], info)[1] != server.blind_evaluate([b1], info)[1]


def test_the_modes_and_infos_give_different_functions():
    sk, pk = oprf.generate_key_pair()
    outs = {oprf.Server(m, sk).evaluate(b"x") for m in MODES}
    outs.add(oprf.Server(oprf.POPRF, sk).evaluate(b"x", b"other info"))
    assert len(outs) == 4


def test_keys_derive_per_mode_and_info():
    seed = bytes(range(32))
    keys = {oprf.derive_key_pair(seed, info, m)[0].to_bytes() for m in MODES for info in (b"", b"a")}
    assert len(keys) == 6
    sk, pk = oprf.derive_key_pair(seed, b"a", oprf.VOPRF)
    assert pk == sk * NATIVE.Point.generator()
    assert oprf.Server(oprf.VOPRF, sk).public_key == pk
    again = oprf.derive_key_pair(bytearray(seed), memoryview(b"a"), oprf.VOPRF)
    assert again[0] == sk and again[1] == pk


# -- the two instances against each other ------------------------------------------------------

@pytest.mark.parametrize("mode", MODES, ids=NAMES.get)
def test_native_and_reference_agree(mode):
    rng = random.Random(9497 + mode)
    seed, key_info = rng.randbytes(32), rng.randbytes(rng.randrange(20))
    info = rng.randbytes(rng.randrange(1, 30)) if mode == oprf.POPRF else b""
    keys = {inst.name: inst.derive_key_pair(seed, key_info, mode) for inst in INSTANCES}
    assert keys["public"][0].to_bytes() == keys["reference"][0].to_bytes()
    pk_bytes = keys["public"][1].to_bytes(compressed=True)
    assert keys["reference"][1].to_bytes(compressed=True) == pk_bytes
    batch = [rng.randbytes(rng.randrange(40)) for _ in range(3)]
    batch_blinds = [rng.randbytes(31).rjust(32, b"\x00") for _ in batch]
    r_bytes = rng.randbytes(31).rjust(32, b"\x00")
    # one element (the server's products over one table of it) and a batch of three
    for size in (1, 3):
        inputs, blind_bytes = batch[:size], batch_blinds[:size]
        for client_side in INSTANCES:
            for server_side in INSTANCES:
                client = client_side.Client(mode, None if mode == oprf.OPRF else pk_bytes)
                server = server_side.Server(mode, keys[server_side.name][0])
                fixed = [client.blind(x, info, blind=client_side.Scalar.from_bytes(b))
                         for x, b in zip(inputs, blind_bytes)]
                fresh = [client.blind(x, info) for x in inputs]
                for pairs, r in ((fixed, server_side.Scalar.from_bytes(r_bytes)), (fresh, None)):
                    wire = [b.to_bytes(compressed=True) for _, b in pairs]
                    if mode == oprf.OPRF:
                        r = None
                    evaluated, proof = server.blind_evaluate(wire, info, proof_random=r)
                    ev_wire = [e.to_bytes(compressed=True) for e in evaluated]
                    outputs = client.finalize(inputs, [s for s, _ in pairs], ev_wire, proof, info)
                    for inst in INSTANCES:  # the other side's Evaluate agrees
                        other = inst.Server(mode, keys[inst.name][0])
                        assert outputs == [other.evaluate(x, info) for x in inputs], inst.name
                    if pairs is fixed:
                        answer = (wire, ev_wire, proof)
                        if client_side is server_side is NATIVE:
                            expected = answer
                        else:  # the same blinds and proof scalar: the same bytes
                            assert answer == expected


def test_the_differential_test_catches_a_broken_instance(monkeypatch):
    """Negative control: the reference instance's hash-to-group with the wrong tag."""
    monkeypatch.setattr(_oprf_ref.GROUP, "hash_to_curve",
                        lambda msg, dst: _oprf_ref._hash_to_curve(msg, dst + b"!"))
    with pytest.raises(AssertionError):
        test_native_and_reference_agree(oprf.OPRF)


def test_the_differential_test_catches_a_wrong_table_product(monkeypatch):
    """Negative control of the one-element path: a native table one of whose products
    (the third: the proof's Z) is off by the point itself."""
    class OffTable:
        def __init__(self, point):
            self.table, self.point, self.calls = p256._core.PointTable(point), point, 0

        def mul(self, k):
            self.calls += 1
            return self.table.mul(k) + (self.point if self.calls == 3 else p256.Point.identity())

    monkeypatch.setattr(oprf._NATIVE, "point_table", OffTable)
    with pytest.raises((AssertionError, oprf.VerifyError)):
        test_native_and_reference_agree(oprf.VOPRF)


def test_protocol_code_never_reads_a_scalar_as_an_int(monkeypatch):
    """The protocol code handles secrets only as Scalars: with int() of a Scalar made to
    fail, the reference instance (the same code) still runs every vector."""
    def no_int(self):
        raise AssertionError("int() of a Scalar in the protocol code")
    monkeypatch.setattr(_refgroup.Scalar, "__int__", no_int)
    for mode in MODES:
        assert run_vector(REFERENCE, mode, len(SUITES[mode]["vectors"]) - 1) == []
    with pytest.raises(AssertionError, match="int"):  # negative control: the tripwire trips
        int(REFERENCE.Scalar.from_int(5))


# -- the errors RFC 9497 names -------------------------------------------------------------------

def vopf_setup(mode=oprf.VOPRF, info=b""):
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(mode, pk), oprf.Server(mode, sk)
    state, blinded = client.blind(b"input", info)
    evaluated, proof = server.blind_evaluate([blinded], info)
    return client, server, state, blinded, evaluated, proof


def test_verify_error_for_a_tampered_proof():
    client, server, state, blinded, evaluated, proof = vopf_setup()
    assert client.finalize([b"input"], [state], evaluated, proof)
    for i in (0, 31, 32, 63):  # c and s, each end
        bad = bytearray(proof)
        bad[i] ^= 1
        with pytest.raises(oprf.VerifyError):
            client.finalize([b"input"], [state], evaluated, bytes(bad))


def test_verify_error_for_an_answer_under_another_key():
    client, server, state, blinded, evaluated, proof = vopf_setup()
    other = oprf.Server(oprf.VOPRF, oprf.generate_key_pair()[0])
    ev2, proof2 = other.blind_evaluate([blinded])
    with pytest.raises(oprf.VerifyError):
        client.finalize([b"input"], [state], ev2, proof2)
    with pytest.raises(oprf.VerifyError):  # the right elements with another key's proof
        client.finalize([b"input"], [state], evaluated, proof2)


def test_verify_error_for_a_swapped_batch():
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(oprf.VOPRF, pk), oprf.Server(oprf.VOPRF, sk)
    (s1, b1), (s2, b2) = client.blind(b"one"), client.blind(b"two")
    (e1, e2), proof = server.blind_evaluate([b1, b2])
    assert client.finalize([b"one", b"two"], [s1, s2], [e1, e2], proof)
    with pytest.raises(oprf.VerifyError):
        client.finalize([b"one", b"two"], [s1, s2], [e2, e1], proof)
    with pytest.raises(oprf.VerifyError):  # a proof of a batch of two for one element
        client.finalize([b"one"], [s1], [e1], proof)


def test_verify_error_for_another_info():
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(oprf.POPRF, pk), oprf.Server(oprf.POPRF, sk)
    state, blinded = client.blind(b"input", b"info A")
    evaluated, proof = server.blind_evaluate([blinded], b"info B")
    with pytest.raises(oprf.VerifyError):
        client.finalize([b"input"], [state], evaluated, proof, b"info A")


def _no_point() -> bytes:
    """02 || x for the first x > 0 of no point of the curve (x^3 - 3x + b not a square)."""
    x = 1
    while pow((x ** 3 - 3 * x + _refgroup._C.b) % p256.P, (p256.P - 1) // 2, p256.P) == 1:
        x += 1
    return b"\x02" + x.to_bytes(32, "big")


NO_POINT = _no_point()


def test_deserialize_error_for_bad_elements():
    sk, pk = oprf.generate_key_pair()
    server = oprf.Server(oprf.OPRF, sk)
    good = pk.to_bytes(compressed=True)
    bad = [b"", b"\x00", good[:32], good + b"\x00", pk.to_bytes(), b"\x04" + good[1:],
           b"\x00" + good[1:], b"\x05" + good[1:], b"\x02" + p256.P.to_bytes(32, "big"),
           b"\x03" + b"\xff" * 32, NO_POINT]
    for data in bad:
        with pytest.raises(oprf.DeserializeError):
            oprf.deserialize_element(data)
        with pytest.raises(oprf.DeserializeError):
            server.blind_evaluate([data])
        with pytest.raises(oprf.DeserializeError):
            oprf.Client(oprf.VOPRF, data)
    identity = NATIVE.Point.identity()
    for call in (lambda: server.blind_evaluate([identity]), lambda: oprf.Client(oprf.VOPRF, identity)):
        with pytest.raises(oprf.DeserializeError, match="identity"):
            call()
    assert oprf.deserialize_element(good) == pk  # control: the good one decodes
    assert oprf.deserialize_element(bytearray(good)) == pk


def test_deserialize_error_for_bad_evaluated_elements_and_proofs():
    client, server, state, blinded, evaluated, proof = vopf_setup()
    with pytest.raises(oprf.DeserializeError):
        client.finalize([b"input"], [state], [NO_POINT], proof)
    with pytest.raises(oprf.DeserializeError):
        client.finalize([b"input"], [state], [NATIVE.Point.identity()], proof)
    for bad in (proof[:63], proof + b"\x00", b""):
        with pytest.raises(oprf.DeserializeError, match="64 bytes"):
            client.finalize([b"input"], [state], evaluated, bad)
    n = p256.N.to_bytes(32, "big")
    for bad in (n + proof[32:], proof[:32] + n, b"\xff" * 64):  # a scalar not below n
        with pytest.raises(oprf.DeserializeError):
            client.finalize([b"input"], [state], evaluated, bad)
    assert client.finalize([b"input"], [state], evaluated, proof)  # control


def info_scalar(mode: int, info: bytes):
    return oprf._info_scalar(oprf._NATIVE, oprf._CONTEXTS[mode], info)


def test_inverse_error_when_info_maps_to_the_negated_key():
    """POPRF: a key sk = -m for m = HashToScalar(framed info): t = sk + m = 0."""
    info = b"the info whose scalar is the key's negative"
    sk = -info_scalar(oprf.POPRF, info)
    server = oprf.Server(oprf.POPRF, sk)
    blinded = oprf.Client(oprf.OPRF).blind(b"input")[1]
    with pytest.raises(oprf.InverseError):
        server.blind_evaluate([blinded], info)
    with pytest.raises(oprf.InverseError):
        server.evaluate(b"input", info)
    assert server.evaluate(b"input", info + b"!")  # control: another info is fine
    # and the client: the tweaked key m*G + pk is the identity
    with pytest.raises(oprf.InvalidInputError, match="tweaked key"):
        oprf.Client(oprf.POPRF, server.public_key).blind(b"input", info)


def test_invalid_input_error_when_the_input_hashes_to_the_identity(monkeypatch):
    """An input whose hash is the identity cannot be found (probability 2^-256): the group's
    hash_to_curve is made to answer the identity for one input."""
    real = oprf._NATIVE.hash_to_curve

    def h2c(msg, dst):
        return NATIVE.Point.identity() if msg == b"the unlucky input" else real(msg, dst)

    monkeypatch.setattr(oprf._NATIVE, "hash_to_curve", h2c)
    sk, pk = oprf.generate_key_pair()
    for mode in MODES:
        client = oprf.Client(mode, None if mode == oprf.OPRF else pk)
        server = oprf.Server(mode, sk)
        with pytest.raises(oprf.InvalidInputError):
            client.blind(b"the unlucky input")
        with pytest.raises(oprf.InvalidInputError):
            server.evaluate(b"the unlucky input")
        client.blind(b"a lucky input")  # control
        server.evaluate(b"a lucky input")


def test_derive_key_pair_error_after_256_zero_scalars(monkeypatch):
    real = oprf._NATIVE.hash_to_scalar
    zero = NATIVE.Scalar.from_int(0)
    calls = []

    def h2s(msg, dst, zeros):
        if dst.startswith(b"DeriveKeyPair"):
            calls.append(msg[-1])
            if len(calls) <= zeros:
                return zero
        return real(msg, dst)

    monkeypatch.setattr(oprf._NATIVE, "hash_to_scalar", lambda m, d: h2s(m, d, 256))
    with pytest.raises(oprf.DeriveKeyPairError):
        oprf.derive_key_pair(bytes(32), b"", oprf.OPRF)
    assert calls == list(range(256))  # the counter runs 0..255, one byte each
    calls.clear()
    monkeypatch.setattr(oprf._NATIVE, "hash_to_scalar", lambda m, d: h2s(m, d, 255))
    sk, pk = oprf.derive_key_pair(bytes(32), b"", oprf.OPRF)  # the last counter saves it
    assert calls == list(range(256)) and not sk.is_zero()


def test_the_errors_are_value_errors():
    for cls in (oprf.InvalidInputError, oprf.DeserializeError, oprf.VerifyError, oprf.InverseError,
                oprf.DeriveKeyPairError):
        assert issubclass(cls, ValueError) and cls.__module__ == "p256.oprf"
    assert len({oprf.InvalidInputError, oprf.DeserializeError, oprf.VerifyError, oprf.InverseError,
                oprf.DeriveKeyPairError}) == 5


# -- argument errors --------------------------------------------------------------------------

def test_mode_and_key_arguments():
    sk, pk = oprf.generate_key_pair()
    for bad in (True, "0", 0.0, None):
        with pytest.raises(TypeError, match="mode"):
            oprf.Client(bad)
        with pytest.raises(TypeError, match="mode"):
            oprf.Server(bad, sk)
        with pytest.raises(TypeError, match="mode"):
            oprf.derive_key_pair(bytes(32), b"", bad)
    for bad in (3, -1, 256):
        with pytest.raises(ValueError, match="mode"):
            oprf.Client(bad)
        with pytest.raises(ValueError, match="mode"):
            oprf.Server(bad, sk)
    with pytest.raises(ValueError, match="no server public key"):
        oprf.Client(oprf.OPRF, pk)
    for mode in (oprf.VOPRF, oprf.POPRF):
        with pytest.raises(ValueError, match="needs the server's public key"):
            oprf.Client(mode)
    with pytest.raises(TypeError, match="server_public_key"):
        oprf.Client(oprf.VOPRF, "02" * 33)
    with pytest.raises(TypeError, match="sk"):
        oprf.Server(oprf.OPRF, sk.to_bytes())
    with pytest.raises(TypeError, match="sk"):
        oprf.Server(oprf.OPRF, 5)
    with pytest.raises(ValueError, match="sk must not be zero"):
        oprf.Server(oprf.OPRF, NATIVE.Scalar.from_int(0))
    with pytest.raises(TypeError, match="sk"):
        oprf.Server(oprf.OPRF, object())
    assert oprf.Client(oprf.VOPRF, pk.to_bytes(compressed=True)).mode == oprf.VOPRF
    assert oprf.Server(oprf.POPRF, sk).mode == oprf.POPRF


def test_derive_key_pair_arguments():
    for seed in (bytes(31), bytes(33), b""):
        with pytest.raises(ValueError, match="seed must be 32 bytes"):
            oprf.derive_key_pair(seed, b"", oprf.OPRF)
    with pytest.raises(TypeError, match="seed"):
        oprf.derive_key_pair("00" * 32, b"", oprf.OPRF)
    with pytest.raises(TypeError, match="info"):
        oprf.derive_key_pair(bytes(32), "info", oprf.OPRF)
    with pytest.raises(ValueError, match="info must be shorter"):
        oprf.derive_key_pair(bytes(32), bytes(65535), oprf.OPRF)
    oprf.derive_key_pair(bytes(32), bytes(65534), oprf.OPRF)


def test_input_and_info_limits():
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(oprf.POPRF, pk), oprf.Server(oprf.POPRF, sk)
    longest = bytes(65534)  # RFC 9497 7.1: smaller than 2^16 - 1 bytes
    state, blinded = client.blind(longest, longest)
    ev, proof = server.blind_evaluate([blinded], longest)
    assert client.finalize([longest], [state], ev, proof, longest) == [server.evaluate(longest, longest)]
    for call in (lambda: client.blind(bytes(65535)), lambda: client.blind(b"x", bytes(65535)),
                 lambda: server.evaluate(bytes(65535)), lambda: server.blind_evaluate([blinded], bytes(65535)),
                 lambda: client.finalize([bytes(65535)], [state], ev, proof, longest)):
        with pytest.raises(ValueError, match="shorter than 2"):
            call()


def test_info_only_in_poprf():
    sk, pk = oprf.generate_key_pair()
    for mode in (oprf.OPRF, oprf.VOPRF):
        client = oprf.Client(mode, None if mode == oprf.OPRF else pk)
        server = oprf.Server(mode, sk)
        state, blinded = client.blind(b"x")
        ev, proof = server.blind_evaluate([blinded])
        for call in (lambda: client.blind(b"x", b"i"), lambda: server.blind_evaluate([blinded], b"i"),
                     lambda: server.evaluate(b"x", b"i"),
                     lambda: client.finalize([b"x"], [state], ev, proof, b"i")):
            with pytest.raises(ValueError, match="info is POPRF's"):
                call()


def test_proof_arguments():
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(oprf.OPRF), oprf.Server(oprf.OPRF, sk)
    state, blinded = client.blind(b"x")
    ev, proof = server.blind_evaluate([blinded])
    with pytest.raises(ValueError, match="OPRF mode has no proof"):
        client.finalize([b"x"], [state], ev, bytes(64))
    with pytest.raises(ValueError, match="no proof_random"):
        server.blind_evaluate([blinded], proof_random=NATIVE.Scalar.from_int(1))
    client, server, state, blinded, evaluated, proof = vopf_setup()
    with pytest.raises(ValueError, match="needs the server's proof"):
        client.finalize([b"input"], [state], evaluated)
    with pytest.raises(TypeError, match="proof"):
        client.finalize([b"input"], [state], evaluated, proof.hex())
    with pytest.raises(ValueError, match="proof_random must not be zero"):
        server.blind_evaluate([blinded], proof_random=NATIVE.Scalar.from_int(0))
    with pytest.raises(TypeError, match="proof_random"):
        server.blind_evaluate([blinded], proof_random=1)


def test_blind_arguments():
    client = oprf.Client(oprf.OPRF)
    with pytest.raises(ValueError, match="blind must not be zero"):
        client.blind(b"x", blind=NATIVE.Scalar.from_int(0))
    with pytest.raises(TypeError, match="blind"):
        client.blind(b"x", blind=5)
    with pytest.raises(TypeError, match="blind"):
        client.blind(b"x", blind=bytes(31) + b"\x05")
    with pytest.raises(TypeError, match="input"):
        client.blind("text")
    with pytest.raises(TypeError, match="info"):
        client.blind(b"x", "info")


def test_batch_arguments():
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(oprf.VOPRF, pk), oprf.Server(oprf.VOPRF, sk)
    state, blinded = client.blind(b"x")
    ev, proof = server.blind_evaluate([blinded])
    with pytest.raises(TypeError, match="blinded must be a list"):
        server.blind_evaluate(blinded)
    with pytest.raises(TypeError, match="blinded must be a list"):
        server.blind_evaluate(blinded.to_bytes(compressed=True))
    with pytest.raises(ValueError, match="at least one"):
        server.blind_evaluate([])
    with pytest.raises(TypeError, match=r"blinded\[1\]"):
        server.blind_evaluate([blinded, "02" * 33])
    assert server.blind_evaluate((blinded,))[1]  # a tuple is a list here
    with pytest.raises(ValueError, match="as long as each other"):
        client.finalize([b"x", b"y"], [state, state], ev, proof)
    with pytest.raises(ValueError, match="at least one"):
        client.finalize([], [], [], proof)
    with pytest.raises(TypeError, match="states"):
        client.finalize([b"x"], [blinded], ev, proof)
    with pytest.raises(TypeError, match="inputs"):
        client.finalize(b"x", [state], ev, proof)
    with pytest.raises(ValueError, match="at most 2"):
        server.blind_evaluate([blinded] * (2**16 + 1))


def test_states_belong_to_their_client_mode_and_info():
    sk, pk = oprf.generate_key_pair()
    other_pk = oprf.generate_key_pair()[1]
    voprf, other = oprf.Client(oprf.VOPRF, pk), oprf.Client(oprf.VOPRF, other_pk)
    server = oprf.Server(oprf.VOPRF, sk)
    state, blinded = other.blind(b"x")
    ev, proof = server.blind_evaluate([blinded])
    with pytest.raises(ValueError, match="another mode or server key"):
        voprf.finalize([b"x"], [state], ev, proof)
    o_state, o_blinded = oprf.Client(oprf.OPRF).blind(b"x")
    with pytest.raises(ValueError, match="another mode or server key"):
        voprf.finalize([b"x"], [o_state], ev, proof)
    poprf = oprf.Client(oprf.POPRF, pk)
    p_state, p_blinded = poprf.blind(b"x", b"info A")
    p_server = oprf.Server(oprf.POPRF, sk)
    p_ev, p_proof = p_server.blind_evaluate([p_blinded], b"info A")
    with pytest.raises(ValueError, match="another info"):
        poprf.finalize([b"x"], [p_state], p_ev, p_proof, b"info B")
    assert poprf.finalize([b"x"], [p_state], p_ev, p_proof, b"info A")  # control


def test_secrets_stay_in_their_objects():
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(oprf.VOPRF, pk), oprf.Server(oprf.VOPRF, sk)
    state, _ = client.blind(b"x")
    assert repr(state) == "<oprf.BlindState mode=1>" and repr(server) == "<oprf.Server mode=1>"
    for obj in (state, server):
        with pytest.raises(TypeError):
            pickle.dumps(obj)
    for fn in (copy.copy, copy.deepcopy):
        with pytest.raises(TypeError):
            fn(state)
    with pytest.raises(TypeError):
        oprf.BlindState()
    with pytest.raises(AttributeError):
        state.extra = 1


def test_dir_shows_the_public_names():
    assert dir(oprf) == sorted(oprf.__all__)
    assert {"Client", "Server", "derive_key_pair", "generate_key_pair", "OPRF", "VOPRF", "POPRF",
            "InvalidInputError", "DeserializeError", "VerifyError", "InverseError",
            "DeriveKeyPairError"} <= set(oprf.__all__)
    assert (oprf.OPRF, oprf.VOPRF, oprf.POPRF) == (0, 1, 2)
    assert p256.oprf is oprf


def test_the_reference_stand_ins_keep_the_group_rules():
    """The reference instance's Point and Scalar follow the native types' rules (the
    protocol code may rely on nothing else): ints refused, a Scalar unhashable and not
    copied, the identity as b"\\x00", the constructors' ranges."""
    S, Pt = _refgroup.Scalar, _refgroup.Point
    G = Pt.generator()
    five = S.from_int(5)
    assert five * G == G * five == G + G.double().double()
    for bad in (lambda: 5 * G, lambda: G * 5, lambda: five + 5, lambda: five * 5, lambda: G + 1):
        with pytest.raises(TypeError):
            bad()
    for fn in (hash, pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError):
            fn(five)
    assert "5" not in repr(five)
    for bad in (lambda: S.from_bytes(p256.N.to_bytes(32, "big")), lambda: S.from_int(p256.N),
                lambda: S.from_int(-1), lambda: S.from_bytes(bytes(31)), lambda: S.from_bytes_reduce(bytes(47)),
                lambda: S.from_int(0).invert(), lambda: Pt.from_bytes(b"\x02" + bytes(31))):
        with pytest.raises(ValueError):
            bad()
    assert five.invert() * five == S.from_int(1) and (five - five).is_zero()
    assert int(S.from_bytes_reduce(p256.N.to_bytes(48, "big"))) == 0
    assert Pt.from_bytes(b"\x00").is_identity() and Pt.identity().to_bytes() == b"\x00"
    assert G - G == Pt.identity() and -Pt.identity() == Pt.identity()
    assert pickle.loads(pickle.dumps(G)) == G
    assert Pt.from_bytes(G.to_bytes(compressed=True)) == Pt.from_bytes(G.to_bytes()) == G
    assert _refgroup.multi_mult_vartime([five, five], [G, G]) == S.from_int(10) * G

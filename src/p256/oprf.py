# SPDX-License-Identifier: Apache-2.0
"""Oblivious pseudorandom functions: RFC 9497, suite P256-SHA256.

Three modes: OPRF (the client learns F(sk, input), the server learns nothing), VOPRF (the
client also checks, by a DLEQ proof, that the server used the key of its public key) and
POPRF (VOPRF with a public `info` bound into the function).

    from p256 import oprf
    sk, pk = oprf.generate_key_pair()
    client, server = oprf.Client(oprf.VOPRF, pk), oprf.Server(oprf.VOPRF, sk)
    state, blinded = client.blind(b"password")
    evaluated, proof = server.blind_evaluate([blinded])
    [output] = client.finalize([b"password"], [state], evaluated, proof)
    assert output == server.evaluate(b"password")

Elements travel as 33-byte compressed SEC1 (`Point.to_bytes(compressed=True)`); wherever
an element is taken, a Point or those 33 bytes are accepted, and the identity is refused
(DeserializeError). A proof travels as 64 bytes (c || s). Secrets (the server's key, the
client's blinds, the proof's random scalar) are Scalars and every operation on them is
the native group's constant-time arithmetic.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Callable, List, NoReturn, Optional, Sequence, Tuple, Union

from . import _core, _h2c
from ._common import Buffer, as_bytes, small
from ._h2c import Point, Scalar

if TYPE_CHECKING:
    from typing_extensions import TypeAlias

__all__ = [
    "OPRF",
    "VOPRF",
    "POPRF",
    "Client",
    "Server",
    "BlindState",
    "derive_key_pair",
    "generate_key_pair",
    "deserialize_element",
    "InvalidInputError",
    "DeserializeError",
    "VerifyError",
    "InverseError",
    "DeriveKeyPairError",
    "Element",
]

#: The modes (RFC 9497 3.1): base, verifiable, partially oblivious.
OPRF = 0
VOPRF = 1
POPRF = 2
_MODES = (OPRF, VOPRF, POPRF)
_IDENTIFIER = b"P256-SHA256"

#: An element as the API takes it: a Point, or its 33-byte compressed SEC1 encoding.
Element: TypeAlias = Union[Point, Buffer]

# RFC 9497 7.1: inputs and info "MUST be smaller than 2^16-1 bytes".
_MAX_INPUT = 2**16 - 2
# A batch's elements are numbered by I2OSP(i, 2) in the composite transcript.
_MAX_BATCH = 2**16


class InvalidInputError(ValueError):
    """An input that hashes to the identity, or (POPRF) an info whose tweaked key is the
    identity (RFC 9497 3.3.1, 3.3.3)."""


class DeserializeError(ValueError):
    """An element or scalar that does not decode: not 33 bytes of a compressed point of the
    curve, the identity, a scalar not below n (RFC 9497 2.1, 3.3)."""


class VerifyError(ValueError):
    """The server's proof does not verify (RFC 9497 3.3.2, 3.3.3)."""


class InverseError(ValueError):
    """POPRF: the info maps to the negated private key, so the tweaked key has no inverse
    (RFC 9497 3.3.3). The client that sent it knows the key: replace it."""


class DeriveKeyPairError(ValueError):
    """derive_key_pair found no nonzero scalar in 256 tries (RFC 9497 3.2.1)."""


for _cls in (InvalidInputError, DeserializeError, VerifyError, InverseError, DeriveKeyPairError):
    _cls.__module__ = __name__
del _cls


class _Group:
    """What the protocol uses of P-256: the Point and Scalar types (constructors and
    operators as the API reference's "The group" has them), hash_to_curve, hash_to_scalar,
    multi_mult_vartime, and point_table: point_table(P) for a public P, not the identity,
    whose mul(s) is s*P in constant time in s (a table costs about two thirds of a
    ladder, each product under half of one). The public classes run on the native types; the
    differential tests' reference instance on pure-Python stand-ins."""

    __slots__ = ("point", "scalar", "hash_to_curve", "hash_to_scalar", "multi_mult_vartime",
                 "point_table")

    def __init__(self, point: Any, scalar: Any, hash_to_curve: Callable[[bytes, bytes], Any],
                 hash_to_scalar: Callable[[bytes, bytes], Any],
                 multi_mult_vartime: Callable[[List[Any], List[Any]], Any],
                 point_table: Callable[[Any], Any]) -> None:
        self.point = point
        self.scalar = scalar
        self.hash_to_curve = hash_to_curve
        self.hash_to_scalar = hash_to_scalar
        self.multi_mult_vartime = multi_mult_vartime
        self.point_table = point_table


_NATIVE = _Group(Point, Scalar, _h2c.hash_to_curve, _h2c.hash_to_scalar, _h2c.multi_mult_vartime,
                 _core.PointTable)


def _lp(data: bytes) -> bytes:
    """I2OSP(len(data), 2) || data."""
    return len(data).to_bytes(2, "big") + data


class _Context:
    """A mode's context string (RFC 9497 3.1) and the domain separation tags made of it."""

    __slots__ = ("mode", "context", "group_dst", "scalar_dst", "derive_dst", "seed_dst")

    def __init__(self, mode: int) -> None:
        self.mode = mode
        self.context = b"OPRFV1-" + bytes((mode,)) + b"-" + _IDENTIFIER
        self.group_dst = b"HashToGroup-" + self.context
        self.scalar_dst = b"HashToScalar-" + self.context
        self.derive_dst = b"DeriveKeyPair" + self.context
        self.seed_dst = _lp(b"Seed-" + self.context)


_CONTEXTS = tuple(_Context(m) for m in _MODES)


def _context(mode: object) -> _Context:
    if not isinstance(mode, int) or isinstance(mode, bool):
        raise TypeError("mode must be oprf.OPRF, oprf.VOPRF or oprf.POPRF (an int), not %s"
                        % type(mode).__name__)
    if mode not in _MODES:
        raise ValueError("mode must be oprf.OPRF (0), oprf.VOPRF (1) or oprf.POPRF (2), not %s"
                         % small(mode))
    return _CONTEXTS[mode]


def _public_input(value: object, what: str) -> bytes:
    data = as_bytes(value, what)
    if len(data) > _MAX_INPUT:
        raise ValueError("%s must be shorter than 2^16 - 1 bytes (RFC 9497 7.1), not %d bytes"
                         % (what, len(data)))
    return data


def _serialize(pt: Any) -> bytes:
    return pt.to_bytes(compressed=True)  # type: ignore[no-any-return]


def _deserialize(g: _Group, value: object, what: str) -> tuple[Any, bytes]:
    """(the element, its 33 bytes) from a Point or its compressed encoding; the identity
    and anything that does not decode are a DeserializeError."""
    if isinstance(value, g.point):
        if value.is_identity():
            raise DeserializeError("%s: the identity is not a valid element" % what)
        return value, _serialize(value)
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError("%s must be a Point or its 33-byte compressed encoding, not %s"
                        % (what, type(value).__name__))
    data = bytes(value)
    if len(data) != 33 or data[0] not in (2, 3):
        raise DeserializeError("%s: an element is 33 bytes, 02 or 03 then x (compressed SEC1); "
                               "got %d bytes" % (what, len(data)))
    try:
        pt = g.point.from_bytes(data)
    except ValueError as exc:
        raise DeserializeError("%s: %s" % (what, exc)) from None
    return pt, data


def _elements(g: _Group, values: object, what: str) -> tuple[list[Any], list[bytes]]:
    """A batch of elements: (the points, their encodings)."""
    items = _batch(values, what)
    pts, encs = [], []
    for i, v in enumerate(items):
        pt, enc = _deserialize(g, v, "%s[%d]" % (what, i))
        pts.append(pt)
        encs.append(enc)
    return pts, encs


def _batch(values: object, what: str) -> list[Any]:
    if isinstance(values, (bytes, bytearray, memoryview, str)) or not isinstance(values, (list, tuple)):
        raise TypeError("%s must be a list, not %s" % (what, type(values).__name__))
    if not values:
        raise ValueError("%s must hold at least one item" % what)
    if len(values) > _MAX_BATCH:
        raise ValueError("%s holds %d items; a batch holds at most 2^16" % (what, len(values)))
    return list(values)


def _scalar_arg(g: _Group, value: object, what: str) -> Any:
    """A nonzero Scalar argument (the server's key, a blind, a proof's random scalar)."""
    if not isinstance(value, g.scalar):
        raise TypeError("%s must be a p256.Scalar, not %s" % (what, type(value).__name__))
    if value.is_zero():
        raise ValueError("%s must not be zero" % what)
    return value


def _hash_to_group(g: _Group, ctx: _Context, data: bytes) -> Any:
    pt = g.hash_to_curve(data, ctx.group_dst)
    if pt.is_identity():
        raise InvalidInputError("the input hashes to the identity")
    return pt


def _info_scalar(g: _Group, ctx: _Context, info: bytes) -> Any:
    """POPRF's m = HashToScalar("Info" || I2OSP(len(info), 2) || info)."""
    return g.hash_to_scalar(b"Info" + _lp(info), ctx.scalar_dst)


def _weights(g: _Group, ctx: _Context, key_bytes: bytes, c_enc: list[bytes],
             d_enc: list[bytes]) -> list[Any]:
    """RFC 9497 2.2.2 ComputeComposites' weights d_i, one per pair (C_i, D_i)."""
    seed = hashlib.sha256(_lp(key_bytes) + ctx.seed_dst).digest()
    prefix = _lp(seed)
    return [g.hash_to_scalar(prefix + i.to_bytes(2, "big") + _lp(ci) + _lp(di) + b"Composite",
                             ctx.scalar_dst)
            for i, (ci, di) in enumerate(zip(c_enc, d_enc))]


def _composites(g: _Group, ctx: _Context, key_bytes: bytes, cs: list[Any], c_enc: list[bytes],
                ds: list[Any], d_enc: list[bytes]) -> tuple[Any, Any]:
    """RFC 9497 2.2.2 ComputeComposites: (M, Z) = the sums of the C's and the D's with the
    same weights, from public data only (variable time)."""
    weights = _weights(g, ctx, key_bytes, c_enc, d_enc)
    return g.multi_mult_vartime(weights, cs), g.multi_mult_vartime(weights, ds)


def _challenge(g: _Group, ctx: _Context, key_bytes: bytes, *points: Any) -> Any:
    transcript = _lp(key_bytes) + b"".join(_lp(_serialize(pt)) for pt in points) + b"Challenge"
    return g.hash_to_scalar(transcript, ctx.scalar_dst)


def _proof(g: _Group, ctx: _Context, k: Any, key_bytes: bytes, m: Any, z: Any, t3: Any,
           r: Any) -> bytes:
    """RFC 9497 2.2.1 GenerateProof from its composites M and Z and t3 = r * M."""
    t2 = r * g.point.generator()
    c = _challenge(g, ctx, key_bytes, m, z, t2, t3)
    s = r - c * k
    return c.to_bytes() + s.to_bytes()  # type: ignore[no-any-return]


def _generate_proof(g: _Group, ctx: _Context, k: Any, key_bytes: bytes, cs: list[Any],
                    c_enc: list[bytes], ds: list[Any], d_enc: list[bytes], r: Any) -> bytes:
    """RFC 9497 2.2.1 GenerateProof with A = G, B the key k*G (given as key_bytes), for the
    pairs D_i = k C_i of a batch.

    The composites are ComputeComposites' (Z = sum d_i D_i), not ComputeCompositesFast's
    (Z = k * M): the same point, since D_i = k C_i, from public data in variable time
    instead of one more constant-time multiplication by the secret k."""
    m, z = _composites(g, ctx, key_bytes, cs, c_enc, ds, d_enc)
    return _proof(g, ctx, k, key_bytes, m, z, r * m, r)


def _evaluate_one(g: _Group, ctx: _Context, k: Any, key_bytes: bytes, c: Any, c_enc: bytes,
                  e: Any, r: Any) -> tuple[Any, bytes]:
    """One blinded element C (a public point, not the identity): D = e C and its proof,
    every product a multiple of C taken over one table of C (g.point_table), constant
    time in its scalar.

    The proof is GenerateProof's for the pair (A, B) with B = k A: (C, D) in VOPRF (e =
    k), (D, C) in POPRF (e = 1/k, k the tweaked key t). With the pair's weight w and A =
    a C (a = 1, or e in POPRF), the composites are M = w A = (w a) C and Z = k M =
    (w a k) C, and t3 = r M = (r w a) C: four products of C in all, for the time of
    about 2.3 ladders (against four multiplications of separate points)."""
    table = g.point_table(c)
    d = table.mul(e)
    d_enc = _serialize(d)
    if ctx.mode == VOPRF:
        w = _weights(g, ctx, key_bytes, [c_enc], [d_enc])[0]
        wa = w
    else:
        w = _weights(g, ctx, key_bytes, [d_enc], [c_enc])[0]
        wa = w * e
    m = table.mul(wa)
    z = table.mul(wa * k)
    return d, _proof(g, ctx, k, key_bytes, m, z, table.mul(r * wa), r)


def _verify_proof(g: _Group, ctx: _Context, key: Any, key_bytes: bytes, cs: list[Any],
                  c_enc: list[bytes], ds: list[Any], d_enc: list[bytes], proof: object) -> None:
    """RFC 9497 2.2.2 VerifyProof with A = G, B = key; VerifyError if it fails."""
    data = as_bytes(proof, "proof")
    if len(data) != 64:
        raise DeserializeError("a proof is 64 bytes (two scalars), not %d" % len(data))
    try:
        c, s = g.scalar.from_bytes(data[:32]), g.scalar.from_bytes(data[32:])
    except ValueError as exc:
        raise DeserializeError("proof: %s" % exc) from None
    m, z = _composites(g, ctx, key_bytes, cs, c_enc, ds, d_enc)
    t2 = g.multi_mult_vartime([s, c], [g.point.generator(), key])
    t3 = g.multi_mult_vartime([s, c], [m, z])
    if not _challenge(g, ctx, key_bytes, m, z, t2, t3) == c:
        raise VerifyError("the server's proof does not verify")


def _output(input: bytes, info: bytes | None, element: Any) -> bytes:
    """Finalize's and Evaluate's hash of the input, POPRF's info and the unblinded element."""
    h = hashlib.sha256(_lp(input))
    if info is not None:
        h.update(_lp(info))
    h.update(_lp(_serialize(element)))
    h.update(b"Finalize")
    return h.digest()


def _derive_key_pair(g: _Group, seed: object, info: object, mode: object) -> tuple[Any, Any]:
    ctx = _context(mode)
    s = as_bytes(seed, "seed")
    if len(s) != 32:
        raise ValueError("seed must be 32 bytes (Ns, RFC 9497 3.2.1), not %d" % len(s))
    derive_input = s + _lp(_public_input(info, "info"))
    for counter in range(256):
        sk = g.hash_to_scalar(derive_input + bytes((counter,)), ctx.derive_dst)
        if not sk.is_zero():
            return sk, sk * g.point.generator()
    raise DeriveKeyPairError("no nonzero scalar in 256 tries (RFC 9497 3.2.1)")


def derive_key_pair(seed: Buffer, info: Buffer, mode: int) -> Tuple[Scalar, Point]:
    """A key pair from a seed (RFC 9497 3.2.1 DeriveKeyPair).

    Args:
        seed: 32 bytes from a CSPRNG (bytes-like): the key's secret.
        info: public bytes-like string bound into the key, shorter than 2^16 - 1 bytes.
        mode: OPRF, VOPRF or POPRF (the context string of each differs, so do the keys).

    Returns:
        (sk, pk): the private Scalar and the public Point sk * G.

    Raises:
        TypeError: seed or info not bytes-like, mode not an int.
        ValueError: a seed of another length, an info too long, an unknown mode.
        DeriveKeyPairError: no nonzero scalar in 256 tries (probability 2^-65536).
    """
    return _derive_key_pair(_NATIVE, seed, info, mode)


def generate_key_pair() -> Tuple[Scalar, Point]:
    """A fresh random key pair (RFC 9497 3.2 GenerateKeyPair), for any mode.

    Returns:
        (sk, pk): a uniformly random nonzero Scalar from the OS CSPRNG and the Point sk * G.
    """
    sk = Scalar.random()
    return sk, sk * Point.generator()


def deserialize_element(data: Buffer) -> Point:
    """RFC 9497's DeserializeElement for P-256: exactly 33 bytes, 02 or 03 then x, a point
    of the curve (the identity has no such encoding).

    Raises:
        TypeError: data not bytes-like.
        DeserializeError: anything else.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("data must be bytes-like, not %s" % type(data).__name__)
    return _deserialize(_NATIVE, data, "element")[0]  # type: ignore[no-any-return]


class BlindState:
    """What Client.blind keeps for finalize: the blind (secret), the blinded element and,
    in POPRF, the info and the tweaked key. Opaque: no value in its repr, not pickled or
    copied (the blind unblinds the server's answer)."""

    __slots__ = ("_mode", "_server", "_blind", "_blinded", "_blinded_bytes", "_key", "_key_bytes",
                 "_info")
    _mode: int
    _server: bytes  # the server key's encoding (b"" in OPRF mode)
    _blind: Scalar
    _blinded: Point
    _blinded_bytes: bytes
    _key: Any  # the key the proof is checked against: the server's, POPRF's tweaked one
    _key_bytes: bytes
    _info: bytes

    def __init__(self) -> None:
        raise TypeError("a BlindState comes from Client.blind")

    def __repr__(self) -> str:
        return "<oprf.BlindState mode=%d>" % self._mode

    def __reduce__(self) -> NoReturn:
        raise TypeError("a BlindState holds a secret blind: it is not pickled or copied")

    def __copy__(self) -> NoReturn:
        raise TypeError("a BlindState holds a secret blind: it is not pickled or copied")

    def __deepcopy__(self, memo: object) -> NoReturn:
        raise TypeError("a BlindState holds a secret blind: it is not pickled or copied")


class Client:
    """The client of RFC 9497: blinds its inputs, then finalizes the server's answers.

    Args:
        mode: OPRF, VOPRF or POPRF.
        server_public_key: the server's public key (a Point or its 33-byte compressed
            encoding), required in VOPRF and POPRF, refused in OPRF.

    Raises:
        TypeError, ValueError: a wrong mode or key argument.
        DeserializeError: a key that does not decode, or the identity.
    """

    __slots__ = ("_ctx", "_key", "_key_bytes")
    _group: _Group = _NATIVE

    def __init__(self, mode: int, server_public_key: Optional[Element] = None) -> None:
        self._ctx = _context(mode)
        if mode == OPRF:
            if server_public_key is not None:
                raise ValueError("OPRF mode has no server public key (it has no proof)")
            self._key, self._key_bytes = None, b""
        elif server_public_key is None:
            raise ValueError("%s mode needs the server's public key" % ("VOPRF", "POPRF")[mode - 1])
        else:
            self._key, self._key_bytes = _deserialize(self._group, server_public_key,
                                                      "server_public_key")

    @property
    def mode(self) -> int:
        """OPRF, VOPRF or POPRF."""
        return self._ctx.mode

    def __repr__(self) -> str:
        return "<oprf.Client mode=%d>" % self._ctx.mode

    def blind(self, input: Buffer, info: Buffer = b"", blind: Optional[Scalar] = None
              ) -> Tuple[BlindState, Point]:
        """Blind one input (RFC 9497 Blind).

        Args:
            input: the private input, bytes-like, shorter than 2^16 - 1 bytes.
            info: POPRF's public input (the same at finalize); must be empty in the other
                modes.
            blind: a nonzero Scalar, for tests and test vectors only; None (the default)
                draws a fresh one from the OS CSPRNG, as it must be for each input.

        Returns:
            (state, blinded): the state finalize needs (keep it secret), and the blinded
            element to send (`blinded.to_bytes(compressed=True)` on the wire).

        Raises:
            InvalidInputError: the input hashes to the identity, or (POPRF) the info makes
                the tweaked key the identity.
        """
        g, ctx = self._group, self._ctx
        data = _public_input(input, "input")
        info_b = _public_input(info, "info")
        key, key_bytes = self._key, self._key_bytes
        if ctx.mode == POPRF:
            m = _info_scalar(g, ctx, info_b)
            key = g.point.generator().mul_vartime(m) + self._key
            if key.is_identity():
                raise InvalidInputError("the tweaked key of this info is the identity")
            key_bytes = _serialize(key)
        elif info_b:
            raise ValueError("info is POPRF's; in OPRF and VOPRF mode it must be empty")
        r = g.scalar.random() if blind is None else _scalar_arg(g, blind, "blind")
        blinded = r * _hash_to_group(g, ctx, data)
        state = object.__new__(BlindState)
        state._mode, state._server = ctx.mode, self._key_bytes
        state._blind, state._blinded = r, blinded
        state._blinded_bytes = _serialize(blinded)
        state._key, state._key_bytes = key, key_bytes
        state._info = info_b
        return state, blinded

    def finalize(self, inputs: Sequence[Buffer], states: Sequence[BlindState],
                 evaluated: Sequence[Element], proof: Optional[Buffer] = None,
                 info: Buffer = b"") -> List[bytes]:
        """Unblind the server's answers to a batch and derive the outputs (RFC 9497 Finalize),
        after checking the batch's proof in VOPRF and POPRF.

        Args:
            inputs: the inputs, in the order they were blinded.
            states: their states from blind, in the same order (from this client, with
                the same info).
            evaluated: the server's evaluated elements, in the same order (Points or
                their 33-byte encodings).
            proof: the server's 64-byte proof for the batch: required in VOPRF and POPRF,
                refused in OPRF.
            info: POPRF's public input, as given to blind.

        Returns:
            The 32-byte outputs, in order.

        Raises:
            DeserializeError: an evaluated element or the proof does not decode.
            VerifyError: the proof does not verify.
            ValueError: lists of different lengths, a state of another client or info.
        """
        g, ctx = self._group, self._ctx
        ins = [_public_input(x, "inputs[%d]" % i) for i, x in enumerate(_batch(inputs, "inputs"))]
        sts = _batch(states, "states")
        info_b = _public_input(info, "info")
        if ctx.mode != POPRF and info_b:
            raise ValueError("info is POPRF's; in OPRF and VOPRF mode it must be empty")
        for i, st in enumerate(sts):
            if not isinstance(st, BlindState):
                raise TypeError("states[%d] must be a BlindState, not %s" % (i, type(st).__name__))
            if st._mode != ctx.mode or st._server != self._key_bytes:
                raise ValueError("states[%d] was made by a client of another mode or server key" % i)
            if st._info != info_b:
                raise ValueError("states[%d] was made with another info" % i)
        evs, ev_enc = _elements(g, evaluated, "evaluated")
        if not len(ins) == len(sts) == len(evs):
            raise ValueError("inputs, states and evaluated must be as long as each other "
                             "(%d, %d, %d)" % (len(ins), len(sts), len(evs)))
        blinded = [st._blinded for st in sts]
        blinded_enc = [st._blinded_bytes for st in sts]
        if ctx.mode == OPRF:
            if proof is not None:
                raise ValueError("OPRF mode has no proof")
        elif proof is None:
            raise ValueError("%s mode needs the server's proof" % ("VOPRF", "POPRF")[ctx.mode - 1])
        elif ctx.mode == VOPRF:
            _verify_proof(g, ctx, self._key, self._key_bytes, blinded, blinded_enc, evs, ev_enc, proof)
        else:  # every state has the tweaked key of this server key and info
            key, key_bytes = sts[0]._key, sts[0]._key_bytes
            _verify_proof(g, ctx, key, key_bytes, evs, ev_enc, blinded, blinded_enc, proof)
        out_info = info_b if ctx.mode == POPRF else None
        return [_output(x, out_info, st._blind.invert() * ev) for x, st, ev in zip(ins, sts, evs)]


class Server:
    """The server of RFC 9497: evaluates blinded elements with its private key.

    Args:
        mode: OPRF, VOPRF or POPRF.
        sk: the private key, a nonzero Scalar (from derive_key_pair or generate_key_pair).

    Raises:
        TypeError: sk not a Scalar, mode not an int.
        ValueError: a zero key, an unknown mode.
    """

    __slots__ = ("_ctx", "_sk", "_pk", "_pk_bytes")
    _group: _Group = _NATIVE

    def __init__(self, mode: int, sk: Scalar) -> None:
        self._ctx = _context(mode)
        self._sk = _scalar_arg(self._group, sk, "sk")
        self._pk = self._sk * self._group.point.generator()
        self._pk_bytes = _serialize(self._pk)

    @property
    def mode(self) -> int:
        """OPRF, VOPRF or POPRF."""
        return self._ctx.mode

    @property
    def public_key(self) -> Point:
        """The public key sk * G, the Point a VOPRF or POPRF client needs."""
        return self._pk  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return "<oprf.Server mode=%d>" % self._ctx.mode

    def __reduce__(self) -> NoReturn:
        raise TypeError("a Server holds a private key: it is not pickled or copied")

    def _tweaked(self, info: bytes) -> tuple[Any, Any]:
        """POPRF's (t = sk + m, m), or InverseError when t is zero."""
        m = _info_scalar(self._group, self._ctx, info)
        t = self._sk + m
        if t.is_zero():
            raise InverseError("this info maps to the negated private key (t = sk + m = 0): "
                               "whoever sent it knows the key")
        return t, m

    def blind_evaluate(self, blinded: Sequence[Element], info: Buffer = b"",
                       proof_random: Optional[Scalar] = None) -> Tuple[List[Point], Optional[bytes]]:
        """Evaluate a batch of blinded elements (RFC 9497 BlindEvaluate), with one proof for
        the whole batch in VOPRF and POPRF.

        Args:
            blinded: the clients' blinded elements (Points or their 33-byte encodings).
            info: POPRF's public input; must be empty in the other modes.
            proof_random: the proof's random nonzero Scalar, for tests and test vectors
                only; None (the default) draws a fresh one, as it must be for each proof.
                Refused in OPRF mode.

        Returns:
            (evaluated, proof): the evaluated elements in order, and the 64-byte proof
            (None in OPRF mode).

        Raises:
            DeserializeError: a blinded element does not decode, or is the identity.
            InverseError: POPRF, an info that maps to the negated private key.
        """
        g, ctx = self._group, self._ctx
        cs, c_enc = _elements(g, blinded, "blinded")
        info_b = _public_input(info, "info")
        if ctx.mode != POPRF and info_b:
            raise ValueError("info is POPRF's; in OPRF and VOPRF mode it must be empty")
        if ctx.mode == OPRF:
            if proof_random is not None:
                raise ValueError("OPRF mode has no proof, so no proof_random")
            return [self._sk * c for c in cs], None
        r = g.scalar.random() if proof_random is None else _scalar_arg(g, proof_random, "proof_random")
        if ctx.mode == VOPRF:
            k, key_bytes = self._sk, self._pk_bytes
            e = k
        else:
            k, m = self._tweaked(info_b)
            e = k.invert()
            key_bytes = _serialize(g.point.generator().mul_vartime(m) + self._pk)
        if len(cs) == 1:
            d, proof = _evaluate_one(g, ctx, k, key_bytes, cs[0], c_enc[0], e, r)
            return [d], proof
        ds = [e * c for c in cs]
        d_enc = [_serialize(d) for d in ds]
        if ctx.mode == VOPRF:
            return ds, _generate_proof(g, ctx, k, key_bytes, cs, c_enc, ds, d_enc, r)
        return ds, _generate_proof(g, ctx, k, key_bytes, ds, d_enc, cs, c_enc, r)

    def evaluate(self, input: Buffer, info: Buffer = b"") -> bytes:
        """The function's output on an input, computed with the key directly (RFC 9497
        Evaluate): what a client's finalize gives for the same input (and info).

        Args:
            input: bytes-like, shorter than 2^16 - 1 bytes.
            info: POPRF's public input; must be empty in the other modes.

        Returns:
            32 bytes.

        Raises:
            InvalidInputError: the input hashes to the identity.
            InverseError: POPRF, an info that maps to the negated private key.
        """
        g, ctx = self._group, self._ctx
        data = _public_input(input, "input")
        info_b = _public_input(info, "info")
        element = _hash_to_group(g, ctx, data)
        if ctx.mode == POPRF:
            return _output(data, info_b, self._tweaked(info_b)[0].invert() * element)
        if info_b:
            raise ValueError("info is POPRF's; in OPRF and VOPRF mode it must be empty")
        return _output(data, None, self._sk * element)


def __dir__() -> list[str]:
    """What dir() shows of this module: its public names (PEP 562), not its imports."""
    return sorted(__all__)

# SPDX-License-Identifier: Apache-2.0
"""COSE_Key (RFC 9052 section 7, RFC 9053 section 7.1.1) of a P-256 public key, on
bytes, over a minimal strict CBOR (RFC 8949) reader and writer of its own.

What is read: one CBOR map, the whole input, in deterministic encoding (RFC 8949
4.2.1): every head minimal (no non-minimal integers or lengths), definite lengths
only (no indefinite strings, arrays or maps), map keys distinct and in ascending
bytewise order of their encodings (RFC 8949 4.2.1) or in length-first order (4.2.3,
the RFC 7049 "canonical" order that CTAP2 authenticators use; both orders agree on
every registered COSE_Key label; one order for all maps of the input), text strings valid
UTF-8, nesting at most ``MAX_DEPTH`` levels, at most ``MAX_ITEMS`` items in all. Tags, floating-point numbers and simple
values other than false/true/null are refused: no COSE_Key parameter uses them.
:func:`read_item` reads one item by the same rules where it starts inside a larger
buffer and says where it ends (how WebAuthn's authenticator data is delimited).

The map must hold exactly one EC2 P-256 public key:

- 1 (kty) = 2 (EC2), -1 (crv) = 1 (P-256), -2 (x) and -3 (y) 32-byte byte strings;
- 3 (alg), optional, = -7 (ES256): RFC 9052 7.1 says an ``alg`` in a key restricts the
  key to that algorithm, and ES256 is the only one p256 uses a COSE key for;
- the other common parameters of RFC 9052 7.1 are type-checked and ignored: 2 (kid,
  bstr), 4 (key_ops, a non-empty array of tstr/int), 5 (Base IV, bstr);
- -4 (d) is refused: a private key never passes silently through a public-key path;
- y as a bool (RFC 9053's compressed point, a sign bit) is refused: WebAuthn and
  every COSE producer p256 knows write y in full, so each key has one encoding;
- every other label (an int or a text string) is ignored, after its value was read
  strictly: RFC 9052 has no "crit" for keys, and labels a reader does not know are
  left alone, as RFC 7517 4 says for JWK members.

A mapping (what cbor2.loads returns) is checked by the same rules, minus the encoding
ones. Errors are ValueError (TypeError for an argument of the wrong type) whose
message starts with "malformed COSE_Key" or names the parameter. Public data only:
nothing here needs constant time. This module works on bytes and never imports the
key classes (``_keys`` wraps it).
"""

from __future__ import annotations

from typing import Dict, List, Mapping, Set, Tuple, Union

__all__ = ["encode", "decode", "decode_mapping", "decode_any", "loads", "read_item", "dumps", "CborMap",
           "MAX_DEPTH", "MAX_ITEMS"]

#: How deep arrays and maps may nest (a COSE_Key needs 2; the limit keeps recursion bounded).
MAX_DEPTH = 16
#: How many CBOR items one input may hold, nested ones included (a COSE_Key has about 11):
#: the decoded values then take bounded memory, whatever the input's length.
MAX_ITEMS = 1024

KTY, KID, ALG, KEY_OPS, BASE_IV = 1, 2, 3, 4, 5
CRV, X, Y, D = -1, -2, -3, -4
KTY_EC2, CRV_P256, ALG_ES256 = 2, 1, -7

#: A decoded CBOR value (CborMap for a map: its (key, value) pairs in order).
Value = Union[int, bytes, str, bool, None, List["Value"], "CborMap"]
Label = Union[int, str]


class CborMap(Tuple[Tuple["Value", "Value"], ...]):
    """A decoded CBOR map nested inside another value: its (key, value) pairs in order
    (a tuple, since CBOR keys need not be hashable)."""


_BYTEWISE, _LENGTH_FIRST = 1, 2
_BOTH = _BYTEWISE | _LENGTH_FIRST


def _error(problem: str, what: str = "COSE_Key") -> ValueError:
    return ValueError("malformed %s: %s" % (what, problem))


class _Reader:
    """Reads one deterministic CBOR item at a time from ``buf``."""

    __slots__ = ("buf", "pos", "orders", "items", "what")

    def __init__(self, buf: bytes, pos: int = 0, what: str = "COSE_Key"):
        self.buf = buf
        self.pos = pos  # offsets in messages are offsets into buf
        self.what = what  # what the item is, for messages: "malformed <what>: ..."
        self.items = 0
        # the key orders every map read so far satisfies: one rule for the whole item
        self.orders = _BOTH

    def error(self, problem: str) -> ValueError:
        return _error(problem, self.what)

    def head(self) -> Tuple[int, int]:
        """(major type, argument) of the next head; minimal and definite, else ValueError."""
        buf, pos = self.buf, self.pos
        if pos >= len(buf):
            raise self.error("data ends where a CBOR item was expected (offset %d)" % pos)
        self.items += 1
        if self.items > MAX_ITEMS:
            raise self.error("more than %d CBOR items (offset %d); a COSE_Key has a dozen, "
                             "WebAuthn's authenticator extension outputs a few"
                             % (MAX_ITEMS, pos))
        initial = buf[pos]
        major, info = initial >> 5, initial & 0x1F
        pos += 1
        if info < 24:
            value = info
        elif info <= 27:
            size = 1 << (info - 24)
            if len(buf) - pos < size:
                raise self.error("data ends inside a CBOR head (offset %d)" % (pos - 1))
            value = int.from_bytes(buf[pos:pos + size], "big")
            pos += size
            if major == 7:
                if info == 24:
                    raise self.error("simple value %d (offset %d); only false, true and null "
                                     "are allowed" % (value, self.pos))
                raise self.error("floating-point number (offset %d); no COSE_Key parameter "
                                 "or WebAuthn authenticator extension output is a float"
                                 % self.pos)
            if value < (24 if info == 24 else 1 << (4 << (info - 24))):
                raise self.error("non-minimal CBOR head for %d (offset %d); deterministic "
                                 "encoding needs the shortest form" % (value, self.pos))
        elif info == 31:
            if major in (2, 3, 4, 5):
                raise self.error("indefinite-length item (offset %d); deterministic encoding "
                                 "uses definite lengths" % self.pos)
            raise self.error("unexpected CBOR break or invalid head 0x%02x (offset %d)"
                             % (initial, self.pos))
        else:
            raise self.error("reserved CBOR head 0x%02x (offset %d)" % (initial, self.pos))
        self.pos = pos
        return major, value

    def take(self, length: int, what: str, start: int) -> bytes:
        """The next length bytes, the contents of the string whose head is at start."""
        pos = self.pos
        if length > len(self.buf) - pos:
            raise self.error("%s of %d bytes (offset %d) runs past the end of the data"
                             % (what, length, start))
        self.pos = pos + length
        return self.buf[pos:pos + length]

    def item(self, depth: int) -> Value:
        """The next item, decoded (maps nested in values as CborMap)."""
        start = self.pos
        major, value = self.head()
        if major == 0:
            return value
        if major == 1:
            return -1 - value
        if major == 2:
            return self.take(value, "byte string", start)
        if major == 3:
            raw = self.take(value, "text string", start)
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                raise self.error("text string at offset %d is not valid UTF-8" % start) from None
        if major == 6:
            raise self.error("CBOR tag %d (offset %d); no COSE_Key parameter or WebAuthn "
                             "authenticator extension output is tagged"
                             % (value, start))
        if major == 7:
            if value == 20:
                return False
            if value == 21:
                return True
            if value == 22:
                return None
            raise self.error("simple value %d (offset %d); only false, true and null are "
                             "allowed" % (value, start))
        if depth >= MAX_DEPTH:
            raise self.error("arrays and maps nested more than %d levels deep (offset %d)"
                             % (MAX_DEPTH, start))
        if value > len(self.buf) - self.pos:  # each element takes at least one byte
            raise self.error("%s of %d elements (offset %d) runs past the end of the data"
                             % ("array" if major == 4 else "map", value, start))
        if major == 4:
            return [self.item(depth + 1) for _ in range(value)]
        return CborMap(self.pairs(value, depth))

    def pairs(self, count: int, depth: int) -> List[Tuple[Value, Value]]:
        """The (key, value) pairs of a map of count entries, its keys distinct and in a
        deterministic order: RFC 8949 4.2.1 (bytewise) or 4.2.3 (length-first, the order
        of RFC 7049 canonical CBOR and of CTAP2, which WebAuthn authenticators write),
        the same one for all maps of the item. The two agree on every registered
        COSE_Key label; only maps whose keys encode to different lengths have two
        accepted encodings. Each key's encoding is compared with the one before it, so
        the check costs no memory per entry: keys strictly ascending in an order are
        distinct; only when neither order holds are they looked at again, to name a
        duplicate."""
        out: List[Tuple[Value, Value]] = []
        buf, start_of_map = self.buf, self.pos
        previous = b""
        orders = _BOTH  # the orders this map's keys satisfy
        for i in range(count):
            start = self.pos
            key = self.item(depth + 1)
            raw = buf[start:self.pos]
            if i:
                if raw == previous:
                    raise self.error("duplicate map key %s" % _short(key))
                if raw < previous:
                    orders &= ~_BYTEWISE
                if len(raw) < len(previous) or (len(raw) == len(previous) and raw < previous):
                    orders &= ~_LENGTH_FIRST
            previous = raw
            out.append((key, self.item(depth + 1)))
        orders &= self.orders  # and those of every map read so far, nested ones included
        if not orders:
            self._name_duplicate(start_of_map, count, depth)
            raise self.error("map keys not in a deterministic order (RFC 8949 4.2.1: ascending "
                         "bytewise order of their encodings, or 4.2.3 length-first, the "
                         "same rule for every map of the item)")
        self.orders = orders
        return out

    def _name_duplicate(self, start: int, count: int, depth: int) -> None:
        """Raise for a key that appears twice in the map at start (read again), if any."""
        end, self.pos = self.pos, start
        seen: Set[bytes] = set()
        for _ in range(count):
            begin = self.pos
            key = self.item(depth + 1)
            raw = self.buf[begin:self.pos]
            if raw in seen:
                raise self.error("duplicate map key %s" % _short(key))
            seen.add(raw)
            self.item(depth + 1)
        self.pos = end


def _short(value: Value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def loads(data: bytes) -> Value:
    """One CBOR item in deterministic encoding, the whole of data (maps as CborMap).

    Args:
        data: the encoding.

    Returns:
        The decoded value.

    Raises:
        ValueError: for anything that is not exactly one deterministically encoded item
            of the supported kinds.
    """
    value, end = read_item(data, 0, "COSE_Key")
    if end != len(data):
        raise _error("%d bytes after the CBOR item" % (len(data) - end))
    return value


def read_item(data: bytes, offset: int, what: str) -> Tuple[Value, int]:
    """One CBOR item of data starting at offset, by the rules of :func:`loads`, and the
    offset just after it: what follows the item is the caller's to read. The CBOR
    items inside WebAuthn's authenticator data (the credential's COSE_Key, then the
    extensions) are delimited this way, by their own encoding.

    Args:
        data: the buffer the item is in.
        offset: where the item starts.
        what: what the item is, for messages ("malformed <what>: ...").

    Returns:
        (the decoded value, the offset after the item).

    Raises:
        ValueError: the bytes from offset on do not start with one deterministically
            encoded item of the supported kinds; the message gives offsets into data.
    """
    r = _Reader(data, offset, what)
    value = r.item(0)
    return value, r.pos


def _head(major: int, value: int) -> bytes:
    """The shortest head for (major type, argument): RFC 8949 4.2.1 preferred form."""
    if value < 24:
        return bytes((major << 5 | value,))
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes((major << 5 | info,)) + value.to_bytes(size, "big")
    raise ValueError("integer %d does not fit a CBOR head" % value)


def dumps(value: Union[int, bytes, str, bool, None, List[object], Dict[object, object]]) -> bytes:
    """Deterministic CBOR (RFC 8949 4.2.1) of int, bytes, str, bool, None, list and dict.

    Args:
        value: what to encode; dict keys are sorted by their encodings.

    Returns:
        The encoding.

    Raises:
        TypeError: for a value of another type.
        ValueError: for an integer outside [-2**64, 2**64 - 1].
    """
    if value is False or value is True or value is None:
        return {False: b"\xf4", True: b"\xf5", None: b"\xf6"}[value]
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return _head(3, len(raw)) + raw
    if isinstance(value, list):
        return _head(4, len(value)) + b"".join(dumps(v) for v in value)  # type: ignore[arg-type]
    if isinstance(value, dict):
        items = sorted((dumps(k), dumps(v)) for k, v in value.items())  # type: ignore[arg-type]
        return _head(5, len(items)) + b"".join(k + v for k, v in items)
    raise TypeError("cannot encode %s as CBOR" % type(value).__name__)


def encode(point: bytes, include_alg: bool = True) -> bytes:
    """The COSE_Key of a 65-byte uncompressed SEC1 point, as WebAuthn writes it:
    {1: 2, 3: -7, -1: 1, -2: x, -3: y} (alg left out when ``include_alg`` is False)."""
    key: Dict[object, object] = {KTY: KTY_EC2, CRV: CRV_P256, X: point[1:33], Y: point[33:65]}
    if include_alg:
        key[ALG] = ALG_ES256
    return dumps(key)


_NAMES = {KTY: "kty (1)", KID: "kid (2)", ALG: "alg (3)", KEY_OPS: "key_ops (4)",
          BASE_IV: "Base IV (5)", CRV: "crv (-1)", X: "x (-2)", Y: "y (-3)", D: "d (-4)"}


def _coordinate(params: Mapping[object, object], label: int) -> bytes:
    if label not in params:
        raise ValueError("the COSE_Key has no %s parameter" % _NAMES[label])
    value = params[label]
    if isinstance(value, bool) and label == Y:
        raise ValueError("the COSE_Key's y (-3) is a sign bit (a compressed point); "
                         "p256 reads only y as a 32-byte byte string")
    if not isinstance(value, (bytes, bytearray)):
        raise ValueError("the COSE_Key's %s must be a byte string, not %s"
                         % (_NAMES[label], type(value).__name__))
    if len(value) != 32:
        raise ValueError("the COSE_Key's %s must be 32 bytes for P-256, got %d"
                         % (_NAMES[label], len(value)))
    return bytes(value)


def _check_int(params: Mapping[object, object], label: int, want: int, what: str) -> None:
    value = params[label]
    if type(value) is not int:
        raise ValueError("the COSE_Key's %s must be an int, not %s; %s"
                         % (_NAMES[label], type(value).__name__, what))
    if value != want:
        raise ValueError("the COSE_Key has %s %s; %s"
                         % (_NAMES[label], value if -10**6 < value < 10**6 else "(huge)", what))


def _point(pairs: List[Tuple[Value, Value]]) -> bytes:
    """The 65-byte SEC1 point (not yet validated) of a COSE_Key's (label, value) pairs."""
    params: Dict[object, object] = {}
    for label, value in pairs:
        if type(label) is not int and not isinstance(label, str):
            raise ValueError("a COSE_Key label must be an int or a text string, not %s"
                             % type(label).__name__)
        params[label] = value
    if KTY not in params:
        raise ValueError("the COSE_Key has no kty (1) parameter")
    _check_int(params, KTY, KTY_EC2, "a P-256 key has kty 2 (EC2)")
    if CRV not in params:
        raise ValueError("the COSE_Key has no crv (-1) parameter")
    _check_int(params, CRV, CRV_P256, "a P-256 key has crv 1 (P-256)")
    if ALG in params:
        _check_int(params, ALG, ALG_ES256, "p256 reads COSE keys for alg -7 (ES256) only")
    if D in params:
        raise ValueError("this COSE_Key holds a private key (d, -4); p256 reads public "
                         "COSE keys only")
    for label in (KID, BASE_IV):
        if label in params and not isinstance(params[label], (bytes, bytearray)):
            raise ValueError("the COSE_Key's %s must be a byte string, not %s"
                             % (_NAMES[label], type(params[label]).__name__))
    if KEY_OPS in params:
        ops = params[KEY_OPS]
        if not isinstance(ops, list) or not ops or not all(
                type(op) is int or isinstance(op, str) for op in ops):
            raise ValueError("the COSE_Key's key_ops (4) must be a non-empty array of "
                             "ints and text strings")
    return b"\x04" + _coordinate(params, X) + _coordinate(params, Y)


def decode(data: bytes) -> bytes:
    """The SEC1 point (not yet validated) of a COSE_Key in deterministic CBOR.

    Args:
        data: the CBOR encoding of the COSE_Key map.

    Returns:
        04 || x || y (65 bytes); the caller checks it is on the curve.

    Raises:
        ValueError: malformed or non-deterministic CBOR, or not a P-256 EC2 public key.
    """
    r = _Reader(data)
    major, count = r.head()
    if major != 5:
        raise _error("expected a CBOR map, found major type %d" % major)
    if count > len(data) - r.pos:
        raise _error("map of %d entries runs past the end of the data" % count)
    pairs = r.pairs(count, 0)
    if r.pos != len(data):
        raise _error("%d bytes after the map" % (len(data) - r.pos))
    return _point(pairs)


def decode_mapping(mapping: Mapping[object, object]) -> bytes:
    """The SEC1 point (not yet validated) of a COSE_Key given as a mapping (as cbor2
    decodes it): the same rules as :func:`decode`, minus those of the encoding."""
    return _point(list(mapping.items()))  # type: ignore[arg-type]


def decode_any(data: object) -> bytes:
    """:func:`decode` for bytes-like data, :func:`decode_mapping` for a mapping.

    Raises:
        TypeError: data is neither.
        ValueError: as decode and decode_mapping.
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        return decode(bytes(data))
    from collections.abc import Mapping as _Mapping  # lazily: ~1.5 ms to import

    if isinstance(data, _Mapping):
        return decode_mapping(data)
    hint = " (decode base64 first)" if isinstance(data, str) else ""
    raise TypeError("a COSE_Key must be CBOR bytes or a mapping, not %s%s"
                    % (type(data).__name__, hint))

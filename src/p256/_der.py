# SPDX-License-Identifier: Apache-2.0
"""A small, strict DER reader and writer (ITU-T X.690 section 10) for the key formats.

Only what PKCS#8, SEC1 ECPrivateKey and SubjectPublicKeyInfo need: single-byte tags,
SEQUENCE, INTEGER, OCTET STRING, BIT STRING, OBJECT IDENTIFIER, NULL and context tags.
Everything is strict DER, nothing BER:

- lengths are definite and minimal (short form below 128, no leading zero length octet);
- INTEGERs are minimal two's complement (no superfluous leading 0x00 or 0xFF);
- a BIT STRING used for a key has zero unused bits;
- OBJECT IDENTIFIERs are compared as exact encodings; their sub-identifiers must be
  minimal (no leading 0x80 octet) to be decoded for a message;
- every structure is read to its exact end: no trailing or missing data.

Errors are :class:`DerError`, a ``ValueError`` whose message says what is malformed
and where. Nothing here is constant time: it parses structure (tags and lengths, which
are public); secret bytes are only sliced, never branched on.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

__all__ = [
    "DerError",
    "Reader",
    "oid_to_str",
    "oid_from_str",
    "tlv",
    "sequence",
    "integer",
    "octet_string",
    "bit_string",
    "explicit",
    "SEQUENCE",
    "INTEGER",
    "OCTET_STRING",
    "BIT_STRING",
    "OID",
    "NULL",
]

# Universal tags as they appear on the wire (constructed bit included for SEQUENCE).
INTEGER = 0x02
BIT_STRING = 0x03
OCTET_STRING = 0x04
NULL = 0x05
OID = 0x06
SEQUENCE = 0x30

_TAG_NAMES = {
    INTEGER: "INTEGER",
    BIT_STRING: "BIT STRING",
    OCTET_STRING: "OCTET STRING",
    NULL: "NULL",
    OID: "OBJECT IDENTIFIER",
    SEQUENCE: "SEQUENCE",
    0x31: "SET",
}


def tag_name(tag: int) -> str:
    """'SEQUENCE', '[0]' (context-specific, constructed), '[1] primitive', or '0x..'."""
    if tag in _TAG_NAMES:
        return _TAG_NAMES[tag]
    if tag & 0xC0 == 0x80:
        return "[%d]%s" % (tag & 0x1F, "" if tag & 0x20 else " primitive")
    return "tag 0x%02x" % tag


class DerError(ValueError):
    """Malformed DER (a ValueError)."""


class Reader:
    """Reads the TLVs of buf[pos:end] in order.

    ``what`` names the structure being read (for instance "ECPrivateKey") and prefixes
    every error message.
    """

    __slots__ = ("buf", "pos", "end", "what")

    def __init__(self, buf: bytes, what: str, pos: int = 0, end: int = -1):
        self.buf = buf
        self.pos = pos
        self.end = len(buf) if end < 0 else end
        self.what = what

    def error(self, problem: str) -> DerError:
        return DerError("malformed %s: %s" % (self.what, problem))

    def at_end(self) -> bool:
        return self.pos >= self.end

    def peek(self) -> Optional[int]:
        """The next tag, or None at the end."""
        return self.buf[self.pos] if self.pos < self.end else None

    def read_tlv(self) -> Tuple[int, int, int]:
        """The next TLV as (tag, value start, value end); advances past it."""
        buf, pos, end = self.buf, self.pos, self.end
        if pos >= end:
            raise self.error("data ends where an element was expected")
        tag = buf[pos]
        if tag & 0x1F == 0x1F:
            raise self.error("high tag numbers are not used by this format")
        pos += 1
        if pos >= end:
            raise self.error("data ends inside a length")
        first = buf[pos]
        pos += 1
        if first < 0x80:
            length = first
        elif first == 0x80:
            raise self.error("indefinite length (BER, not DER)")
        else:
            count = first & 0x7F
            if count > 4:  # 0xFF is reserved; nothing here is 4 GiB long
                raise self.error("length of %d octets" % count)
            if count > end - pos:
                raise self.error("data ends inside a length")
            if buf[pos] == 0:
                raise self.error("non-minimal length (leading zero octet)")
            length = int.from_bytes(buf[pos:pos + count], "big")
            if length < 0x80:
                raise self.error("non-minimal length (long form for %d octets)" % length)
            pos += count
        if length > end - pos:
            raise self.error("%s runs %d octets past the end of the data"
                             % (tag_name(tag), length - (end - pos)))
        self.pos = pos + length
        return tag, pos, pos + length

    def read(self, tag: int, name: str) -> Tuple[int, int]:
        """The next TLV, which must have this tag; returns (value start, value end)."""
        got, start, stop = self.read_tlv()
        if got != tag:
            raise self.error("expected %s (%s), found %s" % (name, tag_name(tag), tag_name(got)))
        return start, stop

    def optional(self, tag: int) -> bool:
        """Whether the next element has this tag (and there is a next element)."""
        return self.pos < self.end and self.buf[self.pos] == tag

    def enter(self, tag: int, name: str, what: str = "") -> Reader:
        """A Reader over the contents of the next element (a constructed one)."""
        start, stop = self.read(tag, name)
        return Reader(self.buf, what or self.what, start, stop)

    def integer(self, name: str) -> int:
        """A minimal INTEGER (negative values allowed by DER; callers check ranges)."""
        start, stop = self.read(INTEGER, name)
        buf = self.buf
        if start == stop:
            raise self.error("empty INTEGER (%s)" % name)
        if stop - start > 1 and (
            (buf[start] == 0x00 and not buf[start + 1] & 0x80)
            or (buf[start] == 0xFF and buf[start + 1] & 0x80)
        ):
            raise self.error("non-minimal INTEGER encoding (%s)" % name)
        return int.from_bytes(buf[start:stop], "big", signed=True)

    def octet_string(self, name: str) -> bytes:
        start, stop = self.read(OCTET_STRING, name)
        return self.buf[start:stop]

    def octet_string_reader(self, name: str, what: str) -> Reader:
        """A Reader over an OCTET STRING whose contents are themselves DER (PKCS#8)."""
        start, stop = self.read(OCTET_STRING, name)
        return Reader(self.buf, what, start, stop)

    def bit_string(self, name: str, tag: int = BIT_STRING) -> bytes:
        """The bytes of a BIT STRING with zero unused bits (all keys are whole octets)."""
        start, stop = self.read(tag, name)
        if start == stop:
            raise self.error("empty BIT STRING (%s)" % name)
        if self.buf[start] != 0:
            raise self.error("BIT STRING (%s) with %d unused bits; keys use whole octets"
                             % (name, self.buf[start]))
        return self.buf[start + 1:stop]

    def oid(self, name: str) -> bytes:
        """The contents octets of an OBJECT IDENTIFIER (compare them exactly)."""
        start, stop = self.read(OID, name)
        if start == stop:
            raise self.error("empty OBJECT IDENTIFIER (%s)" % name)
        return self.buf[start:stop]

    def null(self, name: str) -> None:
        start, stop = self.read(NULL, name)
        if start != stop:
            raise self.error("NULL with contents (%s)" % name)

    def any_der(self, name: str, depth: int = 0) -> bytes:
        """The complete encoding of the next element, of any type (ASN.1 ANY), after checking
        that it is DER all the way down: minimal definite lengths at every level; the
        contents of a constructed encoding are elements themselves (at most MAX_NESTING
        levels deep); BOOLEAN is 00 or FF, NULL is empty, INTEGER and OBJECT IDENTIFIER are
        minimal, a BIT STRING's padding bits are zero; the elements of a SET appear in
        ascending order of their encodings (X.690 11.6, which DER requires of SET OF)."""
        start = self.pos
        tag, vstart, vend = self.read_tlv()
        buf = self.buf
        if tag & 0x20:
            if depth >= MAX_NESTING:
                raise self.error("%s nested more than %d levels deep" % (name, MAX_NESTING))
            inner = Reader(buf, self.what, vstart, vend)
            previous = None
            while not inner.at_end():
                element = inner.any_der(name, depth + 1)
                if tag == 0x31:
                    if previous is not None and element < previous:
                        raise self.error("%s: SET OF elements not in ascending order (X.690 11.6)"
                                         % name)
                    previous = element
        else:
            problem = _primitive_problem(tag, buf[vstart:vend])
            if problem:
                raise self.error("%s: %s" % (name, problem))
        return buf[start:self.pos]

    def finish(self) -> None:
        """Require that everything was read."""
        if self.pos != self.end:
            extra = self.end - self.pos
            raise self.error("%d unexpected octet%s after the last element (starting with %s)"
                             % (extra, "" if extra == 1 else "s", tag_name(self.buf[self.pos])))


#: How deep Reader.any_der follows constructed encodings (no real attribute comes close).
MAX_NESTING = 32


def _primitive_problem(tag: int, v: bytes) -> Optional[str]:
    """Why the contents v of a primitive universal element are not DER, or None."""
    if tag == 0x01:
        return None if len(v) == 1 and v[0] in (0x00, 0xFF) else "BOOLEAN other than 00 or FF"
    if tag == INTEGER:
        if not v:
            return "empty INTEGER"
        if len(v) > 1 and ((v[0] == 0 and v[1] < 0x80) or (v[0] == 0xFF and v[1] >= 0x80)):
            return "non-minimal INTEGER encoding"
    elif tag == BIT_STRING:
        if not v or v[0] > 7 or (len(v) == 1 and v[0]) or (len(v) > 1 and v[-1] & ((1 << v[0]) - 1)):
            return "malformed BIT STRING"
    elif tag == NULL:
        return "NULL with contents" if v else None
    elif tag == OID:
        return None if oid_to_str(v) is not None else "malformed OBJECT IDENTIFIER"
    return None


# ---------------------------------------------------------------------------------------
# OBJECT IDENTIFIER text <-> contents octets (X.690 8.19)
# ---------------------------------------------------------------------------------------


def oid_from_str(dotted: str) -> bytes:
    """Contents octets of an OID given as "1.2.840.10045.3.1.7"."""
    arcs = [int(a) for a in dotted.split(".")]
    if len(arcs) < 2 or arcs[0] > 2 or (arcs[0] < 2 and arcs[1] > 39):
        raise ValueError("invalid OBJECT IDENTIFIER %r" % dotted)
    out = bytearray()
    for value in [arcs[0] * 40 + arcs[1]] + arcs[2:]:
        chunk = [value & 0x7F]
        value >>= 7
        while value:
            chunk.append(0x80 | (value & 0x7F))
            value >>= 7
        out += bytes(reversed(chunk))
    return bytes(out)


def oid_to_str(contents: bytes) -> Optional[str]:
    """Dotted text of an OID's contents octets, or None if they are not a valid DER OID."""
    arcs: List[int] = []
    value, fresh = 0, True
    for octet in contents:
        if fresh and octet == 0x80:
            return None  # non-minimal sub-identifier
        value = (value << 7) | (octet & 0x7F)
        fresh = not octet & 0x80
        if fresh:
            arcs.append(value)
            value = 0
    if not arcs or not fresh:
        return None
    first = arcs[0]
    head = [0, first] if first < 40 else [1, first - 40] if first < 80 else [2, first - 80]
    return ".".join(str(a) for a in head + arcs[1:])


# ---------------------------------------------------------------------------------------
# Writer: each function returns the complete DER encoding of one element.
# ---------------------------------------------------------------------------------------


def tlv(tag: int, contents: bytes) -> bytes:
    n = len(contents)
    if n < 0x80:
        return bytes((tag, n)) + contents
    length = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes((tag, 0x80 | len(length))) + length + contents


def sequence(*elements: bytes) -> bytes:
    return tlv(SEQUENCE, b"".join(elements))


def integer(value: int) -> bytes:
    """A minimal two's-complement INTEGER."""
    size = (value + (value < 0)).bit_length() // 8 + 1
    return tlv(INTEGER, value.to_bytes(size, "big", signed=True))


def octet_string(data: bytes) -> bytes:
    return tlv(OCTET_STRING, data)


def bit_string(data: bytes, tag: int = BIT_STRING) -> bytes:
    """A BIT STRING of whole octets (zero unused bits)."""
    return tlv(tag, b"\x00" + data)


def oid(contents: bytes) -> bytes:
    return tlv(OID, contents)


def explicit(number: int, element: bytes) -> bytes:
    """[number] EXPLICIT: a constructed context-specific tag around one element."""
    return tlv(0xA0 | number, element)

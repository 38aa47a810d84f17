# SPDX-License-Identifier: Apache-2.0
"""The one strict DER reader and writer (ITU-T X.690 section 10) of p256's formats:
PKCS#8, SEC1 ECPrivateKey, SubjectPublicKeyInfo, PBES2 and X.509 all read through it.

Everything is strict DER, nothing BER, and the work is linear in the input:

- tags are single octets (no high tag numbers) and each position of a grammar names the
  one tag (class, constructed bit and number) it allows: ``Reader.read`` compares the
  whole octet, so a constructed OCTET STRING or a primitive SEQUENCE is refused where
  the grammar reads those types;
- lengths are definite and minimal (short form below 128, no leading zero length octet),
  at most 4 length octets;
- INTEGERs and ENUMERATEDs are minimal two's complement, BOOLEAN is 00 or FF, NULL is
  empty, a BIT STRING's unused bits are at most 7 and zero (and a key's BIT STRING has
  none), UTCTime and GeneralizedTime have the DER forms of X.690 11.7-11.8;
- OBJECT IDENTIFIERs: every sub-identifier minimal (no leading 0x80 octet) and below
  2^128 (at most 19 octets: X.667's UUID arcs, 2.25.N, are the largest in use; nothing
  registers larger), so decoding one is linear in its length (see ``oid_problem``);
  they are compared as exact encodings;
- where the grammar has ASN.1 ANY (attribute values, algorithm parameters),
  ``Reader.any_der`` checks DER all the way down, with the form X.690 10.2 gives each
  universal type (string types and time types primitive, SEQUENCE and SET constructed,
  end-of-contents never), SET OF in order, at most MAX_NESTING levels;
- every structure is read to its exact end: no trailing or missing data.

Errors are plain ``ValueError`` (what the API documents, and what a traceback shows:
no private class), whose message says what is malformed and where. Nothing here is constant time: it parses structure (tags and lengths, which
are public); secret bytes are only sliced, never branched on.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple

__all__ = [
    "Reader",
    "oid_to_str",
    "oid_from_str",
    "oid_problem",
    "oid_table",
    "oid_text",
    "form_problem",
    "primitive_problem",
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
    "BOOLEAN",
    "SET",
]

# Universal tags as they appear on the wire (constructed bit included for SEQUENCE, SET).
BOOLEAN = 0x01
INTEGER = 0x02
BIT_STRING = 0x03
OCTET_STRING = 0x04
NULL = 0x05
OID = 0x06
UTC_TIME = 0x17
GENERALIZED_TIME = 0x18
SEQUENCE = 0x30
SET = 0x31

#: Universal tag number -> (name, constructed) in DER (X.690 10.2: the string and time
#: types are primitive; 8.9-8.12, 8.18, 8.21.5: SEQUENCE, SET, EXTERNAL, EMBEDDED PDV and
#: CHARACTER STRING constructed). Number 0 (end-of-contents, BER's indefinite lengths)
#: and 15 (reserved) are not here, so they are refused.
_UNIVERSAL = {
    1: ("BOOLEAN", False), 2: ("INTEGER", False), 3: ("BIT STRING", False),
    4: ("OCTET STRING", False), 5: ("NULL", False), 6: ("OBJECT IDENTIFIER", False),
    7: ("ObjectDescriptor", False), 8: ("EXTERNAL", True), 9: ("REAL", False),
    10: ("ENUMERATED", False), 11: ("EMBEDDED PDV", True), 12: ("UTF8String", False),
    13: ("RELATIVE-OID", False), 14: ("TIME", False), 16: ("SEQUENCE", True),
    17: ("SET", True), 18: ("NumericString", False), 19: ("PrintableString", False),
    20: ("TeletexString", False), 21: ("VideotexString", False), 22: ("IA5String", False),
    23: ("UTCTime", False), 24: ("GeneralizedTime", False), 25: ("GraphicString", False),
    26: ("VisibleString", False), 27: ("GeneralString", False),
    28: ("UniversalString", False), 29: ("CHARACTER STRING", True), 30: ("BMPString", False),
}


def tag_name(tag: int) -> str:
    """'SEQUENCE', 'OCTET STRING', 'constructed OCTET STRING', '[0]' (context-specific,
    constructed), '[1] primitive', 'end-of-contents', or 'tag 0x..'."""
    number, constructed = tag & 0x1F, bool(tag & 0x20)
    if tag & 0xC0 == 0x80:
        return "[%d]%s" % (number, "" if constructed else " primitive")
    if tag & 0xC0 == 0 and number in _UNIVERSAL:
        name, usual = _UNIVERSAL[number]
        if constructed == usual:
            return name
        return "%s %s" % ("constructed" if constructed else "primitive", name)
    if tag == 0:
        return "end-of-contents"
    return "tag 0x%02x" % tag


def form_problem(tag: int) -> Optional[str]:
    """Why a tag cannot appear in DER at all, or None: an unknown or reserved universal
    tag (end-of-contents included), or a universal type in the other form than X.690
    10.2 and 8 give it. Tags of the other classes may be either form."""
    if tag & 0xC0:
        return None
    entry = _UNIVERSAL.get(tag & 0x1F)
    if entry is None:
        return ("end-of-contents octets (BER's indefinite length, not DER)" if tag == 0
                else "universal tag 0x%02x, which no DER encoding uses" % tag)
    name, constructed = entry
    if bool(tag & 0x20) != constructed:
        return ("%s in the %s form (DER: %s only, X.690 10.2)"
                % (name, "constructed" if tag & 0x20 else "primitive",
                   "constructed" if constructed else "primitive"))
    return None


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

    def error(self, problem: str) -> ValueError:
        return ValueError("malformed %s: %s" % (self.what, problem))

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
        if self.pos >= self.end:
            raise self.error("data ends where %s (%s) was expected" % (name, tag_name(tag)))
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
        problem = primitive_problem(INTEGER, self.buf[start:stop])
        if problem:
            raise self.error("%s (%s)" % (problem, name))
        return int.from_bytes(self.buf[start:stop], "big", signed=True)

    def boolean(self, name: str) -> bool:
        """A DER BOOLEAN: one octet, 00 or FF (X.690 11.1)."""
        start, stop = self.read(BOOLEAN, name)
        problem = primitive_problem(BOOLEAN, self.buf[start:stop])
        if problem:
            raise self.error("%s (%s)" % (problem, name))
        return self.buf[start] == 0xFF

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
        """The contents octets of an OBJECT IDENTIFIER (compare them exactly), after
        checking its sub-identifiers (``oid_problem``)."""
        start, stop = self.read(OID, name)
        problem = oid_problem(self.buf[start:stop])
        if problem:
            raise self.error("%s (%s)" % (problem, name))
        return self.buf[start:stop]

    def null(self, name: str) -> None:
        start, stop = self.read(NULL, name)
        if start != stop:
            raise self.error("NULL with contents (%s)" % name)

    def any_der(self, name: str, depth: int = 0) -> bytes:
        """The complete encoding of the next element, of any type (ASN.1 ANY), after checking
        that it is DER all the way down: minimal definite lengths at every level; each
        universal tag in its DER form (``form_problem``: a constructed string or time, a
        primitive SEQUENCE or SET, end-of-contents octets are refused); the contents of a
        constructed encoding are elements themselves (at most MAX_NESTING levels deep);
        the primitive contents of the checked types in their DER form
        (``primitive_problem``); the elements of a SET appear in ascending order of their
        encodings (X.690 11.6, which DER requires of SET OF). The work is linear in the
        element's length (each level is read once; the nesting bound keeps the recursion
        short)."""
        start = self.pos
        if start >= self.end:
            raise self.error("data ends where %s was expected" % name)
        tag, vstart, vend = self.read_tlv()
        buf = self.buf
        problem = form_problem(tag)
        if problem:
            raise self.error("%s: %s" % (name, problem))
        if tag & 0x20:
            if depth >= MAX_NESTING:
                raise self.error("%s nested more than %d levels deep" % (name, MAX_NESTING))
            inner = Reader(buf, self.what, vstart, vend)
            previous = None
            while not inner.at_end():
                element = inner.any_der(name, depth + 1)
                if tag == SET:
                    if previous is not None and element < previous:
                        raise self.error("%s: SET OF elements not in ascending order (X.690 11.6)"
                                         % name)
                    previous = element
        elif not tag & 0xC0:
            problem = primitive_problem(tag, buf[vstart:vend])
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

_DIGITS = frozenset(b"0123456789")


def _time_problem(tag: int, v: bytes) -> Optional[str]:
    """Why v is not a DER UTCTime (X.690 11.8: YYMMDDHHMMSSZ) or GeneralizedTime (11.7:
    YYYYMMDDHHMMSS[.f*]Z, the fraction without trailing zeros), or None. The digits'
    ranges (months, days, ...) are the reader of the value's business, not DER's."""
    head = 12 if tag == UTC_TIME else 14
    name = "UTCTime" if tag == UTC_TIME else "GeneralizedTime"
    if len(v) < head + 1 or v[-1:] != b"Z" or not _DIGITS.issuperset(v[:head]):
        return "%s not in the DER form %s" % (name, "YYMMDDHHMMSSZ" if tag == UTC_TIME
                                              else "YYYYMMDDHHMMSS[.fff]Z")
    fraction = v[head:-1]
    if tag == UTC_TIME and fraction:
        return "UTCTime not in the DER form YYMMDDHHMMSSZ"
    if fraction and (fraction[:1] != b"." or len(fraction) < 2 or fraction[-1:] == b"0"
                     or not _DIGITS.issuperset(fraction[1:])):
        return "GeneralizedTime with a fraction not in DER form (X.690 11.7: no trailing zeros)"
    return None


def primitive_problem(tag: int, v: bytes) -> Optional[str]:
    """Why the contents v of a primitive universal element are not DER, or None."""
    if tag == BOOLEAN:
        return None if len(v) == 1 and v[0] in (0x00, 0xFF) else "BOOLEAN other than 00 or FF"
    if tag in (INTEGER, 0x0A):  # ENUMERATED is encoded as an INTEGER (X.690 8.4)
        if not v:
            return "empty INTEGER"
        if len(v) > 1 and ((v[0] == 0 and v[1] < 0x80) or (v[0] == 0xFF and v[1] >= 0x80)):
            return "non-minimal INTEGER encoding"
    elif tag == BIT_STRING:
        if not v or v[0] > 7 or (len(v) == 1 and v[0]) or (len(v) > 1 and v[-1] & ((1 << v[0]) - 1)):
            return "malformed BIT STRING"
    elif tag == NULL:
        return "NULL with contents" if v else None
    elif tag in (OID, 0x0D):  # RELATIVE-OID: the same sub-identifiers (X.690 8.20)
        return oid_problem(v, relative=tag == 0x0D)
    elif tag in (UTC_TIME, GENERALIZED_TIME):
        return _time_problem(tag, v)
    return None


# ---------------------------------------------------------------------------------------
# OBJECT IDENTIFIER text <-> contents octets (X.690 8.19)
# ---------------------------------------------------------------------------------------

#: The largest sub-identifier read: 2^128 - 1 (19 octets of 7 bits), X.667's UUID arcs.
MAX_ARC_OCTETS = 19

# Each octet by class, to check an OID with C-speed bytes operations instead of a loop:
# "." ends a sub-identifier (< 0x80), "z" is 0x80 (a non-minimal start), "h" the rest;
# and "." or "h" alone, for the lengths of the sub-identifiers.
_STARTS = bytes(0x2E if b < 0x80 else 0x7A if b == 0x80 else 0x68 for b in range(256))
_RUNS = bytes(0x2E if b < 0x80 else 0x68 for b in range(256))
_LONGEST_RUN = b"h" * (MAX_ARC_OCTETS - 1)  # continuation octets of the longest sub-identifier


def oid_problem(contents: bytes, relative: bool = False) -> Optional[str]:
    """Why contents are not the contents octets of a DER OBJECT IDENTIFIER (X.690 8.19),
    or None: empty, ending inside a sub-identifier, a sub-identifier with a leading 0x80
    octet (non-minimal), or one of 2^128 or more (over 19 octets, or 19 whose first
    carries more than 2 bits). Linear in the length, and nothing is decoded: two
    bytes.translate passes and substring searches (a 1 MiB OID costs about 2 ms here)."""
    what = "RELATIVE-OID" if relative else "OBJECT IDENTIFIER"
    if not contents:
        return "empty %s" % what
    if contents[-1] & 0x80:
        return "%s ends inside a sub-identifier" % what
    starts = contents.translate(_STARTS)
    if starts[0] == 0x7A or b".z" in starts:
        return "%s with a non-minimal sub-identifier (leading 0x80 octet)" % what
    runs = contents.translate(_RUNS)
    too_big = "%s with a sub-identifier of 2^128 or more (at most %d octets are read)" % (
        what, MAX_ARC_OCTETS)
    if _LONGEST_RUN + b"h" in runs:
        return too_big
    at = runs.find(_LONGEST_RUN)
    while at >= 0:  # each a whole 19-octet sub-identifier: 7 x 19 = 133 bits, the top 5 zero
        if contents[at] > 0x83:
            return too_big
        at = runs.find(_LONGEST_RUN, at + MAX_ARC_OCTETS)
    return None


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


def oid_table(names: Iterable[Tuple[str, str]]) -> Dict[bytes, str]:
    """{contents octets: name} of (dotted OID, name) pairs: the input's OID is looked up
    by its exact encoding, never decoded."""
    return {oid_from_str(dotted): name for dotted, name in names}


def oid_to_str(contents: bytes) -> Optional[str]:
    """Dotted text of an OID's contents octets, or None if they are not a valid DER OID
    (``oid_problem``; so every sub-identifier is below 2^128 and the work is linear)."""
    if oid_problem(contents):
        return None
    arcs: List[int] = []
    value = 0
    for octet in contents:
        value = (value << 7) | (octet & 0x7F)
        if not octet & 0x80:
            arcs.append(value)
            value = 0
    first = arcs[0]
    head = [0, first] if first < 40 else [1, first - 40] if first < 80 else [2, first - 80]
    return ".".join(str(a) for a in head + arcs[1:])


def oid_text(contents: bytes, limit: int = 64) -> str:
    """An OID for an error message: dotted (only its first octets decoded, so a long one
    costs nothing), or hex when malformed; cut to about ``limit`` characters."""
    cut = contents[:limit]
    while cut and cut[-1] & 0x80:  # end the prefix on a whole sub-identifier
        cut = cut[:-1]
    text = oid_to_str(cut) if cut else None  # only the prefix is decoded, and checked
    if text is None:
        return "0x" + contents[:limit // 2].hex() + ("..." if len(contents) > limit // 2 else "")
    if len(text) > limit or len(cut) < len(contents):
        return text[:limit - 4] + "..."
    return text


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

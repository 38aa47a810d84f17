# SPDX-License-Identifier: Apache-2.0
"""An independent, deliberately lenient ASN.1 TLV reader and a strict DER checker, for the
fuzz targets' oracles (tests/fuzz/targets.py). Written separately from p256/_der.py so
that a bug in one is not copied into the other.

- ``parse(data)`` reads exactly one TLV covering all of data into a tree of ``Node``s,
  accepting BER length forms that DER forbids (long form where short would do, leading
  zero length octets) so that such inputs can be *recognised* and reported; indefinite
  lengths and high tag numbers are not needed by any format here and raise NotDer.
- ``encode(node)`` writes a tree back with minimal (DER) lengths.
- ``der_problems(data)`` lists every way data is not DER (X.690 section 10 and 11):
  non-minimal lengths, empty or non-minimal INTEGERs and ENUMERATEDs, BOOLEANs other
  than 00/FF, NULL with contents, malformed OBJECT IDENTIFIERs and RELATIVE-OIDs, BIT
  STRINGs with bad unused-bit counts or non-zero padding bits, SET OF elements out of
  order, trailing data, a universal type in the form DER does not use (a constructed
  string or time, a primitive SEQUENCE, end-of-contents octets: X.690 10.2),
  UTCTime/GeneralizedTime not in their DER forms (11.7, 11.8), and OID sub-identifiers
  of 2^128 or more (beyond what p256 reads). Empty list = the input is DER for every
  universal type these formats use.
"""

from __future__ import annotations

import re

__all__ = ["NotDer", "Node", "parse", "encode", "der_problems", "depth", "tlv", "uint"]

MAX_DEPTH = 64


class NotDer(ValueError):
    """Not even a well-formed TLV tree."""


class Node:
    __slots__ = ("tag", "value", "children", "minimal_length")

    def __init__(self, tag, value, children, minimal_length):
        self.tag = tag  # the identifier octet
        self.value = value  # contents octets (bytes)
        self.children = children  # list of Node for constructed encodings, else None
        self.minimal_length = minimal_length  # whether the length octets were minimal

    @property
    def constructed(self) -> bool:
        return bool(self.tag & 0x20)

    def __repr__(self):
        return "Node(0x%02x, %d bytes%s)" % (
            self.tag, len(self.value), ", %d children" % len(self.children) if self.children is not None else "")


def _read(data: bytes, pos: int, end: int, depth: int):
    if depth > MAX_DEPTH:
        raise NotDer("nested deeper than %d" % MAX_DEPTH)
    if pos >= end:
        raise NotDer("missing tag")
    tag = data[pos]
    if tag & 0x1F == 0x1F:
        raise NotDer("high tag number")
    pos += 1
    if pos >= end:
        raise NotDer("missing length")
    first = data[pos]
    pos += 1
    if first < 0x80:
        length, minimal = first, True
    elif first == 0x80:
        raise NotDer("indefinite length")
    else:
        count = first & 0x7F
        if count > 8 or count > end - pos:
            raise NotDer("bad long-form length")
        length = int.from_bytes(data[pos:pos + count], "big")
        minimal = length >= 0x80 and data[pos] != 0
        pos += count
    if length > end - pos:
        raise NotDer("contents run past the end")
    value = data[pos:pos + length]
    children = None
    if tag & 0x20:
        children = []
        p = 0
        while p < length:
            child, p = _read(value, p, length, depth + 1)
            children.append(child)
    return Node(tag, value, children, minimal), pos + length


def parse(data: bytes) -> Node:
    """The TLV tree of data, which must be exactly one element (NotDer otherwise)."""
    node, end = _read(bytes(data), 0, len(data), 0)
    if end != len(data):
        raise NotDer("%d trailing octets" % (len(data) - end))
    return node


def tlv(tag: int, value: bytes) -> bytes:
    n = len(value)
    if n < 0x80:
        return bytes((tag, n)) + value
    ln = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes((tag, 0x80 | len(ln))) + ln + value


def encode(node: Node) -> bytes:
    if node.children is not None:
        return tlv(node.tag, b"".join(encode(c) for c in node.children))
    return tlv(node.tag, node.value)


def uint(value: int) -> bytes:
    """DER INTEGER of a non-negative int."""
    return tlv(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def depth(node: Node) -> int:
    """Levels of constructed encodings from node down (0 for a primitive element)."""
    if node.children is None:
        return 0
    return 1 + max((depth(c) for c in node.children), default=0)


# Universal tag numbers DER encodes constructed (X.690 8.9-8.12, 8.18, 8.21.5): SEQUENCE,
# SET, EXTERNAL, EMBEDDED PDV, CHARACTER STRING. Every other known one is primitive in DER
# (10.2 for the strings; the rest have no constructed form at all); 0 is end-of-contents.
_CONSTRUCTED_ONLY = {16, 17, 8, 11, 29}
_KNOWN = set(range(1, 31)) - {15}
_UTC = re.compile(rb"[0-9]{12}Z")
_GENERALIZED = re.compile(rb"[0-9]{14}(\.[0-9]*[1-9])?Z")


def _form_problem(tag: int):
    if tag & 0xC0:
        return None
    number = tag & 0x1F
    if number not in _KNOWN:
        return "end-of-contents or an unknown universal tag"
    if bool(tag & 0x20) != (number in _CONSTRUCTED_ONLY):
        return "a universal type in the form DER does not use"
    return None


def _problems(node: Node, path: str, out: list, set_tags) -> None:
    v = node.value
    where = "%s(0x%02x)" % (path, node.tag)
    if not node.minimal_length:
        out.append("%s: non-minimal length" % where)
    form = _form_problem(node.tag)
    if form:
        out.append("%s: %s" % (where, form))
    if node.children is not None:
        for i, child in enumerate(node.children):
            _problems(child, "%s/%d" % (path, i), out, set_tags)
        if node.tag in set_tags:  # SET OF: X.690 11.6, elements in ascending order
            encs = [encode(c) for c in node.children]
            if encs != sorted(encs):
                out.append("%s: SET OF elements not in DER order" % where)
        return
    if node.tag == 0x01 and (len(v) != 1 or v[0] not in (0x00, 0xFF)):
        out.append("%s: BOOLEAN not 00/FF" % where)
    elif node.tag in (0x02, 0x0A):  # ENUMERATED is encoded as an INTEGER (X.690 8.4)
        if not v:
            out.append("%s: empty INTEGER" % where)
        elif len(v) > 1 and ((v[0] == 0 and v[1] < 0x80) or (v[0] == 0xFF and v[1] >= 0x80)):
            out.append("%s: non-minimal INTEGER" % where)
    elif node.tag == 0x03:
        if not v or v[0] > 7 or (len(v) == 1 and v[0]) or (len(v) > 1 and v[-1] & ((1 << v[0]) - 1)):
            out.append("%s: malformed BIT STRING" % where)
    elif node.tag == 0x05 and v:
        out.append("%s: NULL with contents" % where)
    elif node.tag in (0x06, 0x0D):  # RELATIVE-OID: the same sub-identifiers (X.690 8.20)
        fresh = True
        for octet in v:
            if fresh and octet == 0x80:
                out.append("%s: non-minimal OID sub-identifier" % where)
                break
            fresh = not octet & 0x80
        if not v or v[-1] & 0x80:
            out.append("%s: malformed OBJECT IDENTIFIER" % where)
        if _arc_too_big(v):  # p256 reads sub-identifiers below 2^128 (X.667's UUID arcs)
            out.append("%s: OID sub-identifier of 2^128 or more" % where)
    elif node.tag == 0x17 and not _UTC.fullmatch(v):
        out.append("%s: UTCTime not YYMMDDHHMMSSZ" % where)
    elif node.tag == 0x18 and not _GENERALIZED.fullmatch(v):
        out.append("%s: GeneralizedTime not in DER form" % where)


def _arc_too_big(v: bytes) -> bool:
    """Whether a sub-identifier of these OID contents is 2^128 or more."""
    value = 0
    for octet in v:
        value = (value << 7) | (octet & 0x7F)
        if value >> 128:
            return True
        if not octet & 0x80:
            value = 0
    return False


def der_problems(data: bytes, set_tags=(0x31,)) -> list:
    """Every DER violation in data (empty if none); a NotDer message if it is no TLV tree.

    set_tags: the identifier octets of SET OF values whose order is checked (0x31, plus
    the tag of any IMPLICIT-tagged SET OF, such as PKCS#8's attributes [0] = 0xA0)."""
    try:
        node = parse(data)
    except NotDer as exc:
        return ["not a TLV tree: %s" % exc]
    out = []
    _problems(node, "", out, set_tags)
    return out

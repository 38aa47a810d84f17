# SPDX-License-Identifier: Apache-2.0
"""PEM armor (RFC 7468) and strict base64: label + DER bytes <-> text. Knows nothing of
what the DER holds; the format modules say which labels they take (see _formats).

Read: the first block whose label is wanted is used; text before, between and after
blocks is ignored, as OpenSSL does (`openssl ecparam -genkey` writes an "EC PARAMETERS"
block first). One UTF-8 byte order mark at the very start of the data is skipped (editors
write one; OpenSSL and cryptography skip it too); anywhere else it is text like any other.
Lines may end in CRLF and trailing blanks; the base64 must be canonical; BEGIN and END
labels must match; headers are refused (a legacy-encrypted "Proc-Type: 4,ENCRYPTED" key
gets a message saying how to convert it to encrypted PKCS#8). Up to the end of the block used, a "-----BEGIN "
anywhere but at the start of a well-formed BEGIN line that opens a block is refused:
OpenSSL ignores it, cryptography's reader takes it as a block, so such a file holds
different keys for different readers (found by tests/fuzz, pub_pem).
"""

from __future__ import annotations

import binascii
from typing import Callable, List, Optional, Sequence, Tuple, Union

from ._common import Buffer

__all__ = ["encode", "decode", "labels", "ENCRYPTED", "ENCRYPTED_LABEL"]

ENCRYPTED = (
    "legacy PEM encryption (Proc-Type: 4,ENCRYPTED) is not supported; convert the key to "
    "encrypted PKCS#8 with `openssl pkcs8 -topk8 -v2 aes256 -in key.pem -out key8.pem` (it "
    "asks for the passphrase) and read that with password=..."
)
ENCRYPTED_LABEL = "ENCRYPTED PRIVATE KEY"
_BOM = "\ufeff"  # U+FEFF as text; its UTF-8 bytes EF BB BF read as latin-1 below
_BOM_LATIN1 = "\xef\xbb\xbf"

_B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_DELETE = str.maketrans("", "", _B64_ALPHABET)


def b64_decode_strict(text: str, what: str) -> bytes:
    """Canonical base64 (RFC 4648 4): alphabet, padding and zero pad bits all checked."""
    body = text.rstrip("=")
    if len(text) % 4 or len(text) - len(body) > 2 or body.translate(_B64_DELETE):
        raise ValueError("%s is not valid base64" % what)
    raw = binascii.a2b_base64(text)
    if binascii.b2a_base64(raw, newline=False).decode("ascii") != text:
        raise ValueError("%s is not canonical base64 (non-zero pad bits)" % what)
    return raw


def encode(label: str, der: bytes) -> bytes:
    """A PEM block: BEGIN line, base64 in lines of 64, END line, "\\n" line ends."""
    b64 = binascii.b2a_base64(der, newline=False)
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    head = ("-----BEGIN %s-----\n" % label).encode("ascii")
    tail = ("-----END %s-----\n" % label).encode("ascii")
    return head + b"\n".join(lines) + b"\n" + tail


def text_of(data: Union[str, Buffer], what: str = "PEM data") -> str:
    """PEM input as text (bytes read as latin-1: the text around blocks may be anything),
    without a leading byte order mark."""
    if isinstance(data, str):
        text = data
        return text[1:] if text.startswith(_BOM) else text
    if isinstance(data, (bytes, bytearray, memoryview)):
        text = bytes(data).decode("latin-1")
        return text[3:] if text.startswith(_BOM_LATIN1) else text
    raise TypeError("%s must be str or bytes, not %s" % (what, type(data).__name__))


def labels(data: Union[str, Buffer]) -> List[str]:
    """The labels of the well-formed BEGIN lines, in order (for choosing a reader)."""
    out = []
    for raw in text_of(data).split("\n"):
        line = raw.rstrip(" \t\r")
        if line.startswith("-----BEGIN ") and line.endswith("-----") and len(line) > 16:
            out.append(line[11:-5])
    return out


def decode(data: Union[str, Buffer], wanted: Sequence[str],
           hint: Optional[Callable[[List[str]], str]] = None) -> Tuple[str, bytes]:
    """(label, DER bytes) of the first PEM block whose label is in wanted.

    When there is none, ValueError naming the labels seen, plus ``hint(seen)`` (text to
    append, such as which reader to use)."""
    text = text_of(data)
    lines = text.split("\n")
    seen: List[str] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.rstrip(" \t\r")
        i += 1
        if raw.find("-----BEGIN ", 1) >= 0:
            raise ValueError("ambiguous PEM: a '-----BEGIN ' boundary that does not start "
                             "its line (readers disagree on where such a block starts)")
        if not (line.startswith("-----BEGIN ") and line.endswith("-----") and len(line) > 16):
            if raw.startswith("-----BEGIN "):
                raise ValueError("malformed PEM BEGIN line %r" % line[:80])
            continue
        label = line[11:-5]
        start = i
        while i < len(lines) and not lines[i].startswith("-----END "):
            if "-----BEGIN " in lines[i]:
                raise ValueError("ambiguous PEM: a '-----BEGIN ' inside the block %r (readers "
                                 "disagree on where a block starts)" % label)
            i += 1
        if i == len(lines):
            raise ValueError("PEM block %r has no END line" % label)
        end = lines[i].rstrip(" \t\r")
        i += 1
        if end != "-----END %s-----" % label:
            raise ValueError("PEM END line %r does not match its BEGIN label %r" % (end, label))
        body = [x.rstrip(" \t\r") for x in lines[start:i - 1]]
        if label not in wanted:
            seen.append(label)
            continue
        if body and ":" in body[0]:  # RFC 1421 headers: only for legacy encryption
            headers = body[:body.index("")] if "" in body else body
            if any(h.startswith("Proc-Type:") and "ENCRYPTED" in h for h in headers):
                raise ValueError(ENCRYPTED)
            raise ValueError("PEM headers are not supported (%r)" % body[0])
        if "" in body:
            raise ValueError("empty line inside the PEM block %r" % label)
        b64 = "".join(body)
        if not b64:
            raise ValueError("empty PEM block %r" % label)
        if not b64.isascii():
            raise ValueError("the PEM block %r is not valid base64" % label)
        return label, b64_decode_strict(b64, "the PEM block %r" % label)
    names = " or ".join(repr(x) for x in wanted)
    if not seen:
        raise ValueError("no PEM block found (expected %s)" % names)
    raise ValueError("no %s PEM block found, only %s%s"
                     % (names, ", ".join(repr(x) for x in seen), hint(seen) if hint else ""))

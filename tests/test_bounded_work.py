# SPDX-License-Identifier: Apache-2.0
"""Work bounded by the input, for every reader of untrusted data.

Each hostile shape (long OBJECT IDENTIFIERs, long lengths, deep nesting, many
extensions, members or map entries, huge JSON numbers, long base64) is grown from 1 KiB
to 1 MiB and fed to its reader: from_der/from_pem/from_jwk/from_cose, x509.parse,
jws.verify, webauthn.verify_assertion, webauthn.parse_authenticator_data and the CLI.
The rule (docs/key-formats.md): 10 times the input costs at most MAX_GROWTH (15) times
the time, and the peak of Python allocations (tracemalloc) stays within MEMORY_MULTIPLE
times the input plus a constant.
A quadratic reader grows 100 times per step and fails at once.

No absolute speed is asserted. The VM is shared and noisy, so the time is the thread's
CPU time (time.thread_time: what the reader computes, not how long other processes held
the core: wall time under a load of 6 on 2 cores inflated long runs 2-3 times), each
size's time is the best of up to 9 runs (what is left is mostly other processes' use of
the shared caches: 100 KiB of work fits in L2, 1 MiB does not, which costs streaming
readers up to 1.4 times per byte here), a ratio over the bound is measured again
(interleaved, up to 5 times, unless it is NOT_NOISE times over) before it counts, and
the first step compared is 10 KiB -> 100 KiB, where the work dominates the call's fixed
cost, and only when the larger input takes over COMPARE_ABOVE (2 ms). Negative controls:
planted quadratic loops (the OID decoding this replaced, base64url decoded by
concatenation) and a planted memory hog must fail the check.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import json
import statistics
import time
import tracemalloc
from typing import Callable, Dict, List, Tuple

import pytest

import p256
from p256 import _cli, _cose, _der as der, _jose, _pbes2, jws, webauthn, x509

KiB = 1 << 10
SIZES = (KiB, 10 * KiB, 100 * KiB, 1 << 20)
MAX_GROWTH = 15
#: A parsed JSON object or CBOR map costs about 20 times its text (a str, a tuple and a
#: dict slot per 8-byte member): the multiple leaves room for that, not for more.
MEMORY_MULTIPLE = 32
MEMORY_SLACK = 256 * KiB
COMPARE_FROM = 10 * KiB  # ratios from this size up (below it the call's fixed cost dominates)
#: Below this, a step is not compared: the larger input took under 2 ms of CPU, where
#: cache tiers (100 KiB fits in L2, 1 MiB does not: a plain str.count slows 2 times per
#: byte) and the timer's grain dominate; a reader that takes 1 MiB in 2 ms denies no one.
COMPARE_ABOVE = 0.002
#: A step over its bound is measured again, unless it is over this many times the bound:
#: the best of several CPU times varies by well under 2 times here, so 4 times is a reader
#: that grows faster than the bound allows, not noise (a quadratic one grows ~100 times).
NOT_NOISE = 4

SK = p256.PrivateKey.from_int(0xB0B)
PK = SK.public_key


# -- DER shapes ---------------------------------------------------------------------------

def _nested(tag: int, depth: int, inner: bytes) -> bytes:
    """depth levels of tag around inner, built in linear time (headers computed inside out)."""
    heads = []
    total = len(inner)
    for _ in range(depth):
        n = total
        head = bytes((tag, n)) if n < 0x80 else bytes((tag, 0x80 | ((n.bit_length() + 7) // 8))) \
            + n.to_bytes((n.bit_length() + 7) // 8, "big")
        heads.append(head)
        total += len(head)
    return b"".join(reversed(heads)) + inner


def _depth_for(size: int, tag: int = 0x30) -> int:
    return max(1, size // 4)


def spki_with_algorithm(contents: bytes) -> bytes:
    return der.sequence(der.sequence(der.oid(contents)), der.bit_string(PK.to_bytes()))


def oid_arcs(size: int) -> bytes:
    """1.2.1.1.1...: size one-octet sub-identifiers (what the old decoder listed and joined)."""
    return b"\x2a" + b"\x01" * size


def oid_long_arc(size: int) -> bytes:
    """One sub-identifier of size octets (what the old decoder shifted in, quadratically)."""
    return b"\x2a" + b"\x81" * size + b"\x01"


def spki_curve(contents: bytes) -> bytes:
    alg = der.sequence(der.oid(der.oid_from_str("1.2.840.10045.2.1")), der.oid(contents))
    return der.sequence(alg, der.bit_string(PK.to_bytes()))


def pkcs8_attributes(attributes: bytes) -> bytes:
    return der.sequence(der.integer(0), der.sequence(
        der.oid(der.oid_from_str("1.2.840.10045.2.1")), der.oid(der.oid_from_str("1.2.840.10045.3.1.7"))),
        der.octet_string(SK.to_der("sec1")), der.tlv(0xA0, attributes))


def many_attributes(size: int) -> bytes:
    one = der.sequence(der.oid(der.oid_from_str("1.2.3.4")), der.tlv(0x31, der.tlv(0x0C, b"v")))
    return pkcs8_attributes(one * (size // len(one)))  # equal, so in DER order


def encrypted_with_prf(contents: bytes) -> bytes:
    kdf = der.sequence(der.oid(_pbes2.OID_PBKDF2), der.sequence(
        der.octet_string(b"s" * 16), der.integer(10), der.sequence(der.oid(contents))))
    return der.sequence(der.sequence(der.oid(_pbes2.OID_PBES2), der.sequence(
        kdf, der.sequence(der.oid(_pbes2.OID_AES256_CBC), der.octet_string(bytes(16))))),
        der.octet_string(bytes(48)))


# -- certificates ---------------------------------------------------------------------------

_ALG = der.sequence(der.oid(der.oid_from_str("1.2.840.10045.4.3.2")))
_CN = der.oid(der.oid_from_str("2.5.4.3"))
_SPKI = PK.to_der()


def certificate(issuer: bytes = b"", extensions: bytes = b"") -> bytes:
    name = issuer or der.sequence(der.tlv(0x31, der.sequence(_CN, der.tlv(0x0C, b"CA"))))
    validity = der.sequence(der.tlv(0x17, b"260101000000Z"), der.tlv(0x17, b"270101000000Z"))
    exts = extensions or der.sequence(der.oid(der.oid_from_str("2.5.29.19")),
                                      der.octet_string(der.sequence()))
    tbs = der.sequence(der.explicit(0, der.integer(2)), der.integer(1), _ALG, name, validity,
                       name, _SPKI, der.explicit(3, der.sequence(exts)))
    return der.sequence(tbs, _ALG, der.bit_string(b"\x30\x00"))


def cert_many_extensions(size: int) -> bytes:
    exts = []
    total, i = 0, 0
    while total < size:
        e = der.sequence(der.oid(der.oid_from_str("1.3.6.1.4.1.99999.%d" % i)), der.octet_string(b""))
        exts.append(e)
        total += len(e)
        i += 1
    return certificate(extensions=b"".join(exts))


def cert_issuer_oid(size: int) -> bytes:
    return certificate(issuer=der.sequence(der.tlv(0x31, der.sequence(
        der.oid(oid_arcs(size)), der.tlv(0x0C, b"x")))))


def cert_deep_value(size: int) -> bytes:
    return certificate(issuer=der.sequence(der.tlv(0x31, der.sequence(
        _CN, _nested(0x30, _depth_for(size), b"")))))


def cert_big_extension(size: int) -> bytes:
    return certificate(extensions=der.sequence(der.oid(der.oid_from_str("2.5.29.17")),
                                               der.octet_string(bytes(size))))


def cert_many_rdns(size: int) -> bytes:
    rdn = der.tlv(0x31, der.sequence(_CN, der.tlv(0x0C, b"x")))
    return certificate(issuer=der.sequence(rdn * (size // len(rdn))))


# -- PEM, JSON, CBOR, JWS, WebAuthn ---------------------------------------------------------

def pem_block(size: int, width: int = 64) -> bytes:
    body = p256._pem.encode("PUBLIC KEY", bytes(size * 3 // 4))
    if width != 64:
        lines = body.split(b"\n")
        body = lines[0] + b"\n" + b"".join(lines[1:-2]) + b"\n" + lines[-2] + b"\n"
    return body


def pem_many_blocks(size: int) -> bytes:
    block = b"-----BEGIN OTHER-----\nAAAA\n-----END OTHER-----\n"
    return block * (size // len(block)) + PK.to_pem()


def jwk_text(extra: str) -> str:
    jwk = PK.to_jwk()
    return '{"kty":"EC","crv":"P-256","x":"%s","y":"%s",%s}' % (jwk["x"], jwk["y"], extra)


def jwk_members(size: int) -> str:
    return jwk_text(",".join('"m%d":0' % i for i in range(size // 8)))


def cose_many_entries(size: int) -> bytes:
    key = _cose.dumps({1: 2, 3: -7, -1: 1, -2: PK.to_bytes()[1:33], -3: PK.to_bytes()[33:]})
    count = size // 6
    # integer labels 1000.. in order after the key's: bytewise order holds (all 3-byte heads)
    entries = b"".join(_cose.dumps(1000 + i) + b"\x00" for i in range(count))
    head = _cose._head(5, 5 + count)
    return head + key[1:] + entries


def token(header: bytes, payload: bytes = b"m") -> str:
    b64 = _jose.b64url_encode
    return b64(header) + "." + b64(payload) + "." + b64(bytes(64))


RP = dict(rp_id="example.com", origin="https://example.com", challenge=b"c" * 16,
          require_user_verification=False, sign_count=0)
AUTH = hashlib.sha256(b"example.com").digest() + b"\x01" + bytes(4)


def assertion(client: bytes, auth: bytes = AUTH):
    return auth, client, SK.sign(auth + hashlib.sha256(client).digest())


def cli_pubkey(data: bytes, tmp_dir) -> Callable[[], object]:
    path = tmp_dir / "key.der"
    path.write_bytes(data)

    def run():
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            return _cli.main(["pubkey", str(path)])
    return run


def _refused(fn: Callable[..., object]) -> Callable[..., object]:
    return fn


#: name -> (build(size) -> input, reader(input)): every reader of untrusted input.
SHAPES: Dict[str, Tuple[Callable[[int], object], Callable[[object], object]]] = {
    "from_der: OID of many arcs": (lambda n: spki_with_algorithm(oid_arcs(n)), p256.PublicKey.from_der),
    "from_der: OID of one long arc": (lambda n: spki_with_algorithm(oid_long_arc(n)), p256.PublicKey.from_der),
    "from_der: long curve OID": (lambda n: spki_curve(oid_arcs(n)), p256.PublicKey.from_der),
    "from_der: long BIT STRING": (lambda n: der.sequence(der.sequence(
        der.oid(der.oid_from_str("1.2.840.10045.2.1")), der.oid(der.oid_from_str("1.2.840.10045.3.1.7"))),
        der.bit_string(bytes(n))), p256.PublicKey.from_der),
    "from_der: deep nesting": (lambda n: _nested(0x30, _depth_for(n), b""), p256.PublicKey.from_der),
    "PrivateKey.from_der: deep attributes": (
        lambda n: pkcs8_attributes(der.sequence(der.oid(der.oid_from_str("1.2.3")), der.tlv(
            0x31, _nested(0x30, _depth_for(n), b"")))), p256.PrivateKey.from_der),
    "PrivateKey.from_der: many attributes": (many_attributes, p256.PrivateKey.from_der),
    "PrivateKey.from_der: encrypted, long PRF OID": (
        lambda n: encrypted_with_prf(oid_arcs(n)), lambda d: p256.PrivateKey.from_der(d, password="x")),
    "from_pem: long base64": (pem_block, p256.PublicKey.from_pem),
    "from_pem: one long base64 line": (lambda n: pem_block(n, width=0), p256.PublicKey.from_pem),
    "from_pem: many blocks": (pem_many_blocks, p256.PublicKey.from_pem),
    "x509.parse: many extensions": (cert_many_extensions, x509.parse),
    "x509.parse: long OID": (cert_issuer_oid, x509.parse),
    "x509.parse: deep attribute value": (cert_deep_value, x509.parse),
    "x509.parse: long extension": (cert_big_extension, x509.parse),
    "x509.parse: many RDNs": (cert_many_rdns, x509.parse),
    "from_jwk: huge number": (lambda n: jwk_text('"n":' + "9" * n), p256.PublicKey.from_jwk),
    "from_jwk: huge fraction": (lambda n: jwk_text('"n":1.' + "9" * n), p256.PublicKey.from_jwk),
    "from_jwk: long base64": (lambda n: jwk_text('"x":"%s"' % ("A" * n)).replace(
        '"x":"%s",' % PK.to_jwk()["x"], ""), p256.PublicKey.from_jwk),
    "from_jwk: deep nesting": (lambda n: jwk_text('"n":' + "[" * (n // 2) + "]" * (n // 2)),
                               p256.PublicKey.from_jwk),
    "from_jwk: many members": (jwk_members, p256.PublicKey.from_jwk),
    "from_cose: many entries": (cose_many_entries, p256.PublicKey.from_cose),
    "from_cose: long byte string": (lambda n: _cose.dumps({1: 2, -1: 1, -2: bytes(n), -3: bytes(32)}),
                                    p256.PublicKey.from_cose),
    "from_cose: deep arrays": (lambda n: b"\xa1\x0a" + b"\x81" * n + b"\x00", p256.PublicKey.from_cose),
    "jws.verify: long header": (lambda n: token(b'{"alg":"ES256","kid":"%s"}' % (b"k" * n)),
                                lambda t: jws.verify(t, PK)),
    "jws.verify: huge header number": (lambda n: token(b'{"alg":"ES256","exp":%s}' % (b"9" * n)),
                                       lambda t: jws.verify(t, PK)),
    "jws.verify: many header members": (lambda n: token(("{" + ",".join(
        '"m%d":0' % i for i in range(n // 8)) + ',"alg":"ES256"}').encode()), lambda t: jws.verify(t, PK)),
    "jws.verify: long payload": (lambda n: token(b'{"alg":"ES256"}', bytes(n)), lambda t: jws.verify(t, PK)),
    "jws.verify: long JWK set": (lambda n: (token(b'{"alg":"ES256","kid":"k"}'), json.dumps(
        {"keys": [dict(PK.to_jwk(), kid="x%d" % i) for i in range(n // 150)]})),
        lambda a: jws.verify(*a)),
    "webauthn: long client data": (
        lambda n: assertion(b'{"type":"webauthn.get","challenge":"Y2NjY2NjY2NjY2NjY2NjYw",'
                            b'"origin":"https://example.com","pad":"%s"}' % (b"p" * n)),
        lambda a: webauthn.verify_assertion(PK, *a, **RP)),
    "webauthn: many client data members": (
        lambda n: assertion(("{" + ",".join('"m%d":0' % i for i in range(n // 8))
                             + ',"type":"webauthn.get"}').encode()),
        lambda a: webauthn.verify_assertion(PK, *a, **RP)),
    "webauthn: long authenticator data": (
        lambda n: assertion(b'{"type":"webauthn.get","challenge":"Y2NjY2NjY2NjY2NjY2NjYw",'
                            b'"origin":"https://example.com"}', AUTH[:32] + b"\x81" + bytes(4) + bytes(n)),
        lambda a: webauthn.verify_assertion(PK, *a, **RP)),
    "webauthn: long extension output": (
        lambda n: assertion(b'{"type":"webauthn.get","challenge":"Y2NjY2NjY2NjY2NjY2NjYw",'
                            b'"origin":"https://example.com"}',
                            AUTH[:32] + b"\x81" + bytes(4) + _cose.dumps({"x": bytes(n)})),
        lambda a: webauthn.verify_assertion(PK, *a, **RP)),
    "parse_authenticator_data: long credential key": (
        lambda n: AUTH[:32] + b"\x41" + bytes(4) + bytes(16) + b"\x00\x01c" + _cose.dumps(
            {1: 2, 3: -7, -1: 1, -2: PK.to_bytes()[1:33], -3: PK.to_bytes()[33:], 100: bytes(n)}),
        webauthn.parse_authenticator_data),
    "parse_authenticator_data: many extensions": (
        lambda n: AUTH[:32] + b"\x81" + bytes(4) + _cose._head(5, n // 8) + b"".join(
            _cose.dumps("e%06d" % i) + b"\x00" for i in range(n // 8)),
        webauthn.parse_authenticator_data),
}

#: The CLI's inputs, each at most its 1 MiB key-file limit (a larger one is refused unread).
CLI_SHAPES = {
    "CLI pubkey: OID of many arcs": lambda n: spki_with_algorithm(oid_arcs(n - 256)),
    "CLI pubkey: OID of one long arc": lambda n: spki_with_algorithm(oid_long_arc(n - 256)),
    "CLI pubkey: long PEM": lambda n: pem_block(n * 98 // 100),
}


def _once(reader: Callable[[], object]) -> None:
    try:
        reader()
    except ValueError:
        pass  # most shapes are refused: how fast and how small is the point


def best_time(reader: Callable[[], object], runs: int = 9) -> float:
    """The best of up to `runs` timings (fewer when one run is long: noise matters less)."""
    best, spent = float("inf"), 0.0
    for _ in range(runs):
        start = time.thread_time()
        _once(reader)
        elapsed = time.thread_time() - start
        best, spent = min(best, elapsed), spent + elapsed
        if spent > 1.0:
            break
    return best


def peak_memory(reader: Callable[[], object]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        _once(reader)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(readers: List[Tuple[int, Callable[[], object]]]) -> List[Tuple[int, float, int]]:
    """(input size, best time, peak memory) per size, after checking the bounds: raises
    AssertionError naming the step that broke one."""
    rows: List[Tuple[int, float, int]] = []
    for size, reader in readers:
        t = best_time(reader)
        if rows and rows[-1][0] >= COMPARE_FROM and t > COMPARE_ABOVE:
            previous_size, previous, _ = rows[-1]
            small = dict(readers)[previous_size]
            allowed = MAX_GROWTH / 10 * size / previous_size  # 15x for 10x the input
            growth = t / previous
            if allowed < growth <= NOT_NOISE * allowed:
                # Over the bound: five pairs, each the smaller input then the larger back to
                # back, and the median of their ratios. The best times of the two sizes
                # taken minutes apart are not a ratio on a host whose speed drifts: the
                # short runs of the smaller input catch its fastest moment (on CI a step
                # 8.5x here measured 15.8x so).
                pairs = []
                for _ in range(5):
                    small_time = best_time(small)
                    pairs.append(best_time(reader) / small_time)
                growth = statistics.median(pairs)
            assert growth <= allowed, (
                "%d -> %d bytes: time %.2g -> %.2g s, %.1f times (at most %.1f)"
                % (previous_size, size, previous, t, growth, allowed))
        peak = peak_memory(reader)
        assert peak <= MEMORY_MULTIPLE * size + MEMORY_SLACK, (
            "%d bytes: peak memory %d bytes, %.1f times the input (at most %d + %d KiB)"
            % (size, peak, peak / size, MEMORY_MULTIPLE, MEMORY_SLACK // KiB))
        rows.append((size, t, peak))
        if t > 5.0:  # clearly unbounded (a planted control): stop before it takes minutes
            break
    return rows


def readers_of(build, reader) -> List[Tuple[int, Callable[[], object]]]:
    out = []
    for size in SIZES:
        data = build(size)
        out.append((len(data[1]) if isinstance(data, tuple) and name_is_jwks(data) else _size(data),
                    (lambda d=data: reader(d))))
    return out


def name_is_jwks(data) -> bool:
    return isinstance(data[1], str) and data[1].startswith('{"keys"')


def _size(data) -> int:
    if isinstance(data, tuple):
        return sum(len(x) for x in data if isinstance(x, (bytes, str)))
    return len(data)


RESULTS: Dict[str, List[Tuple[int, float, int]]] = {}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_work_is_bounded_by_the_input(shape):
    build, reader = SHAPES[shape]
    RESULTS[shape] = measure(readers_of(build, reader))


@pytest.mark.parametrize("shape", sorted(CLI_SHAPES))
def test_cli_work_is_bounded_by_the_input(shape, tmp_path):
    readers = []
    for size in SIZES:
        data = CLI_SHAPES[shape](size)
        assert len(data) <= _cli._KEY_LIMIT
        d = tmp_path / str(size)
        d.mkdir()
        readers.append((len(data), cli_pubkey(data, d)))
    RESULTS[shape] = measure(readers)


# -- negative controls: planted unbounded work must fail the check ------------------------


def _quadratic_oid_problem(contents, relative=False):
    """The decoding this replaced: each sub-identifier shifted in octet by octet (a long
    one is quadratic) and turned into text."""
    value, arcs = 0, []
    for octet in contents:
        value = (value << 7) | (octet & 0x7F)
        if not octet & 0x80:
            arcs.append(value)
            value = 0
    try:
        ".".join(str(a) for a in arcs)
    except ValueError:  # Python's int-to-str digit limit: where the old code ended up
        pass
    return None if arcs else "empty"


def _quadratic_b64url_decode(text, what, _real=_jose.b64url_decode):
    """base64url decoded four characters at a time into a growing bytes: quadratic."""
    _real(text[:4 * (len(text) // 4)] or "", what)
    out = b""
    for i in range(0, len(text) - len(text) % 4, 4):
        out += _real(text[i:i + 4], what)
    return _real(text, what)


def _memory_hog_oid_problem(contents, relative=False, _real=getattr(der, "oid_problem", None)):
    """Linear time, but 64 bytes buffered per input byte (a decoder that keeps a wide
    record per octet)."""
    hog = bytearray(64 * len(contents))
    return _real(contents) if hog is not None else None


@pytest.mark.parametrize("plant,target,name,replacement,shape,check", [
    ("quadratic OID decoding", der, "oid_problem", _quadratic_oid_problem,
     "from_der: OID of one long arc", "time"),
    ("base64url by concatenation", jws, "b64url_decode", _quadratic_b64url_decode,
     "jws.verify: long payload", "time"),
    ("memory hog", der, "oid_problem", _memory_hog_oid_problem,
     "from_der: OID of many arcs", "memory"),
])
def test_planted_unbounded_work_is_caught(monkeypatch, plant, target, name, replacement, shape,
                                          check):
    build, reader = SHAPES[shape]
    readers = readers_of(build, reader)  # built before the plant, which may break building
    monkeypatch.setattr(target, name, replacement)
    with pytest.raises(AssertionError, match="bytes: time" if check == "time" else "peak memory"):
        measure(readers)

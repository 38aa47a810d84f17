# SPDX-License-Identifier: Apache-2.0
"""p256.Point and p256.Scalar, the sums of many multiples and the native map of RFC 9380:
differential cases against p256.reference in both directions (points made by each side,
checked by the other), the RFC's vectors through _core.h2c_map from their u values, the
identity and the edge scalars, the documented errors, the refusals of a Scalar (hash,
pickle, copy, ints), the keys' doors (PublicKey.point, from_point; PrivateKey.scalar,
from_scalar) and the objects shared by threads."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import p256
from p256 import Point, Scalar
from p256 import reference as ref
from vectors_util import VECTORS

C = ref.P256
N = C.n
G = Point.generator()
O = Point.identity()

scalars = st.one_of(st.integers(min_value=0, max_value=N - 1), st.integers(min_value=0, max_value=40),
                    st.integers(min_value=N - 40, max_value=N - 1))
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ref_point(p: Point):
    """The reference's form of a point: (x, y), or None for the identity."""
    b = p.to_bytes()
    return None if b == b"\x00" else (int.from_bytes(b[1:33], "big"), int.from_bytes(b[33:], "big"))


def point_of(pt) -> Point:
    """A Point from the reference's form."""
    if pt is None:
        return Point.identity()
    return Point.from_bytes(b"\x04" + pt[0].to_bytes(32, "big") + pt[1].to_bytes(32, "big"))


# ---- differential, both ways -------------------------------------------------------------

@SETTINGS
@given(scalars, scalars, scalars)
def test_arithmetic_matches_the_reference(a, b, k):
    # points made here, checked by the reference
    pa, pb = Scalar.from_int(a) * G, Scalar.from_int(b) * G
    ra, rb = ref_point(pa), ref_point(pb)
    assert ra == C.scalar_base_mult(a) and rb == C.scalar_base_mult(b)
    assert ref_point(pa + pb) == C.add(ra, rb)
    assert ref_point(pa - pb) == C.add(ra, None if rb is None else (rb[0], (-rb[1]) % C.p))
    assert ref_point(pa.double()) == C.double(ra)
    assert ref_point(-pa) == (None if ra is None else (ra[0], (-ra[1]) % C.p))
    assert ref_point(Scalar.from_int(k) * pa) == C.scalar_mult(ra, k)
    assert ref_point(pa.mul_vartime(Scalar.from_int(k))) == C.scalar_mult(ra, k)


@SETTINGS
@given(scalars, scalars, scalars)
def test_reference_points_behave_here(a, b, k):
    # points made by the reference, loaded here, the results compared there
    ra, rb = C.scalar_base_mult(a), C.scalar_base_mult(b)
    pa, pb = point_of(ra), point_of(rb)
    assert pa + pb == point_of(C.add(ra, rb))
    assert pa + pa == pa.double() == point_of(C.double(ra))
    assert pa * Scalar.from_int(k) == point_of(C.scalar_mult(ra, k))
    assert Point.from_bytes(pa.to_bytes(compressed=True)) == pa


def test_the_comparisons_tell_a_wrong_answer():
    # negative control of the differential tests: a result one G off, a sign flipped, a
    # scalar off by one are each told apart by the comparisons above
    a, b = 12345, 67890
    pa, pb = Scalar.from_int(a) * G, Scalar.from_int(b) * G
    ra, rb = C.scalar_base_mult(a), C.scalar_base_mult(b)
    assert ref_point(pa + pb + G) != C.add(ra, rb)
    assert ref_point(-(pa + pb)) != C.add(ra, rb)
    assert point_of(C.scalar_mult(ra, 7)) != Scalar.from_int(8) * pa
    assert int(Scalar.from_int(a) * Scalar.from_int(b)) != (a * b + 1) % N


def test_scalars_match_python_integers():
    rng = random.Random(9497)
    values = [0, 1, 2, N - 1, N - 2, (N - 1) // 2] + [rng.randrange(N) for _ in range(40)]
    for x in values:
        for y in values[:8] + [rng.randrange(N)]:
            sx, sy = Scalar.from_int(x), Scalar.from_int(y)
            assert int(sx + sy) == (x + y) % N
            assert int(sx - sy) == (x - y) % N
            assert int(sx * sy) == x * y % N
            assert int(-sx) == -x % N
            assert (sx == sy) is (x == y) and (sx != sy) is (x != y)
        sx = Scalar.from_int(x)
        assert sx.to_bytes() == x.to_bytes(32, "big") and Scalar.from_bytes(sx.to_bytes()) == sx
        assert sx.is_zero() is (x == 0)
        if x:
            assert int(sx.invert()) == pow(x, -1, N)
    for length in (48, 49, 64, 96, 200):
        data = bytes(rng.randrange(256) for _ in range(length))
        assert int(Scalar.from_bytes_reduce(data)) == int.from_bytes(data, "big") % N


def test_sums_match_the_products():
    rng = random.Random(2012)
    for n in (0, 1, 2, 7, 64, 65, 300):
        ks = [Scalar.from_int(rng.randrange(N)) for _ in range(n)]
        ps = [Scalar.from_int(rng.randrange(1, N)) * G for _ in range(n)]
        if n > 3:  # a zero scalar, the identity, a repeated point, a point and its negative
            ks[0], ps[1], ps[2] = Scalar.from_int(0), O, ps[3]
            ps[n - 1], ks[n - 1] = -ps[n - 2], ks[n - 2]
        want = O
        for k, p in zip(ks, ps):
            want = want + k * p
        assert p256.multi_mult_vartime(ks, ps) == want, n
        if n <= 65:
            assert p256.multi_mult(ks, ps) == want, n
    # iterables and tuples are taken, their items once
    assert p256.multi_mult(iter([Scalar.from_int(2)]), (G,)) == G.double()


def test_a_point_table_gives_the_products_of_its_point():
    """_core.PointTable (the OPRF server's several products of one blinded element): s*P
    over the table against the ladder and the reference, for random points and scalars,
    0, 1, n - 1 and the scalars whose comb columns are all full or all empty."""
    rng = random.Random(1994)
    edges = [0, 1, 2, N - 1, 2**192 - 1, 2**255 + 2**191 + 2**127 + 2**63, 2**255, 2**64 + 1]
    for i in range(12):
        p = G.double() if i == 0 else Scalar.from_int(rng.randrange(1, N)) * G
        table = p256._core.PointTable(p)
        for v in edges + [rng.randrange(N) for _ in range(6)]:
            k = Scalar.from_int(v)
            got = table.mul(k)
            assert type(got) is Point and got == k * p, (i, v)
            if i < 2:
                assert ref_point(got) == C.scalar_mult(ref_point(p), v), (i, v)
    with pytest.raises(ValueError, match="identity"):
        p256._core.PointTable(O)
    with pytest.raises(TypeError):
        p256._core.PointTable(G.to_bytes())
    with pytest.raises(TypeError):
        p256._core.PointTable(G).mul(5)


# ---- RFC 9380: the map from the vectors' u values --------------------------------------

def _h2c_vectors(name):
    data = json.loads((VECTORS / "hash_to_curve" / ("P256_XMD_SHA-256_SSWU_%s_.json" % name)).read_text())
    return data["vectors"]


def _xy(v) -> Point:
    return point_of((int(v["x"], 16), int(v["y"], 16)))


def _u48(u: str) -> bytes:
    return int(u, 16).to_bytes(48, "big")


@pytest.mark.parametrize("name", ["RO", "NU"])
def test_rfc9380_vectors_through_the_map(name):
    vectors = _h2c_vectors(name)
    assert len(vectors) == 5
    for v in vectors:
        us = [_u48(u) for u in v["u"]]
        if name == "RO":
            assert p256._core.h2c_map(us[0]) == _xy(v["Q0"]), v["msg"]
            assert p256._core.h2c_map(us[1]) == _xy(v["Q1"]), v["msg"]
            assert p256._core.h2c_map(us[0] + us[1]) == _xy(v["P"]), v["msg"]
        else:
            assert p256._core.h2c_map(us[0]) == _xy(v["Q"]) == _xy(v["P"]), v["msg"]
    # negative control: another u gives another point
    assert p256._core.h2c_map(_u48(hex(int(vectors[0]["u"][0], 16) + 1))) != _xy(vectors[0]["P"])


def test_h2c_map_reduces_mod_p_and_checks_its_length():
    u = 12345
    assert p256._core.h2c_map((u + C.p).to_bytes(48, "big")) == p256._core.h2c_map(u.to_bytes(48, "big"))
    assert isinstance(p256._core.h2c_map(bytes(48)), Point)
    for n in (0, 32, 47, 49, 95, 97):
        with pytest.raises(ValueError, match="48 or 96 bytes, got %d" % n):
            p256._core.h2c_map(bytes(n))
    with pytest.raises(TypeError):
        p256._core.h2c_map("x" * 48)


# ---- the identity and the edges ---------------------------------------------------------

def test_identity_and_edges():
    P = Scalar.random() * G
    zero, one, nm1 = Scalar.from_int(0), Scalar.from_int(1), Scalar.from_int(N - 1)
    assert O.is_identity() and not G.is_identity() and O == -O and O == O + O == O.double()
    assert P + O == O + P == P and (P - P).is_identity() and (P + -P).is_identity()
    assert P + P == P.double() and P - -P == P.double()
    assert zero * P == O and P * zero == O and zero * G == O and P.mul_vartime(zero) == O
    assert one * P == P and nm1 * P == -P and nm1 * G == -G and G.mul_vartime(nm1) == -G
    assert Scalar.random() * O == O and O.mul_vartime(Scalar.random()) == O
    assert O.to_bytes() == O.to_bytes(compressed=True) == b"\x00" and Point.from_bytes(b"\x00") == O
    assert O != G and G != O and P != -P
    assert hash(O) == hash(Point.from_bytes(b"\x00"))
    assert hash(P) == hash(Point.from_bytes(P.to_bytes())) == hash(P + O)
    assert repr(O) == "p256.Point.identity()" and eval(repr(P), {"p256": p256}) == P
    # the same point from another projective form compares, hashes and encodes the same
    Q = (Scalar.from_int(3) * P) - P - P
    assert Q == P and hash(Q) == hash(P) and Q.to_bytes() == P.to_bytes()
    assert int(Scalar.from_int(7)) == 7 and (zero == Scalar.from_int(0)) and zero.is_zero()


def test_generator_is_g_in_every_path():
    k = Scalar.random()
    g_bytes = G.to_bytes()
    assert g_bytes == b"\x04" + C.gx.to_bytes(32, "big") + C.gy.to_bytes(32, "big")
    G2 = Point.from_bytes(g_bytes)  # not marked as G: the ladder, not the comb
    assert k * G == k * G2 == G2 * k == G.mul_vartime(k) == G2.mul_vartime(k)
    assert ref_point(k * G) == C.scalar_base_mult(int(k))


# ---- errors ----------------------------------------------------------------------------

def test_point_errors():
    enc = G.to_bytes()
    cases = [
        (b"", "got 0 bytes"), (b"\x04" + enc[1:-1], "got 64 bytes starting with 0x04"),
        (b"\x06" + enc[1:], "hybrid SEC1 encoding \\(prefix 0x06\\)"),
        (b"\x04" + C.p.to_bytes(32, "big") + enc[33:], "coordinate x >= p"),
        (enc[:33] + C.p.to_bytes(32, "big"), "coordinate y >= p"),
        (enc[:-1] + bytes([enc[-1] ^ 1]), "not on the curve"),
        (b"\x02" + C.p.to_bytes(32, "big"), "compressed point: coordinate x >= p"),
        (b"\x00\x00", "got 2 bytes"),
    ]
    for data, message in cases:
        with pytest.raises(ValueError, match=message):
            Point.from_bytes(data)
    with pytest.raises(TypeError):
        Point.from_bytes("04")
    with pytest.raises(TypeError, match="compressed"):
        G.to_bytes(compressed=1)
    with pytest.raises(TypeError, match="Point.from_bytes"):
        Point()
    with pytest.raises(TypeError, match="Point.from_bytes"):
        p256._core.Point()


def test_scalar_errors():
    for bad in (b"\x00" * 31, b"\x00" * 33, N.to_bytes(32, "big"), b"\xff" * 32):
        with pytest.raises(ValueError):
            Scalar.from_bytes(bad)
    for bad in (-7, N, 2**256):
        with pytest.raises(ValueError, match=r"\[0, n-1\]") as exc:
            Scalar.from_int(bad)
        assert str(bad) not in str(exc.value)  # the value may be a secret: never shown
    for bad in (True, 1.0, "1", b"\x01"):
        with pytest.raises(TypeError):
            Scalar.from_int(bad)
    with pytest.raises(ValueError, match=r"at least 48 bytes .*, got 47"):
        Scalar.from_bytes_reduce(bytes(47))
    with pytest.raises(ValueError, match="no inverse"):
        Scalar.from_int(0).invert()
    with pytest.raises(TypeError, match="Scalar.from_bytes"):
        Scalar()


def test_python_ints_are_refused_with_what_to_write():
    s, P = Scalar.from_int(3), G
    for expr in (lambda: 5 * P, lambda: P * 5, lambda: P.mul_vartime(5)):
        with pytest.raises(TypeError, match=r"Scalar.from_int\(5\)"):
            expr()
    for expr in (lambda: s + 5, lambda: 5 + s, lambda: s - 5, lambda: 5 - s, lambda: s * 5, lambda: 5 * s):
        with pytest.raises(TypeError, match=r"Scalar.from_int\(5\)"):
            expr()
    big = 2**200 + 12345  # a large int (maybe a secret) is not echoed
    with pytest.raises(TypeError) as exc:
        big * P
    assert "12345" not in str(exc.value) and "Scalar.from_int" in str(exc.value)
    for expr in (lambda: P + 1, lambda: P * 1.5, lambda: s * "x", lambda: P * P, lambda: s + P):
        with pytest.raises(TypeError):
            expr()


class _Endless:
    """An iterator of one value forever, counting what was read (the hostile iterables'
    rule: a stream beside a finite one is read at most one item past the other's end)."""

    def __init__(self, value):
        self.value, self.pulled = value, 0

    def __iter__(self):
        return self

    def __next__(self):
        self.pulled += 1
        assert self.pulled < 1000, "read without end"
        return self.value


def test_multi_mult_reads_an_endless_stream_one_item_past_the_other():
    two = [Scalar.from_int(2), Scalar.from_int(3)]
    for fn in (p256.multi_mult, p256.multi_mult_vartime):
        endless = _Endless(G)
        with pytest.raises(ValueError, match="the scalars ended after 2, the points did not"):
            fn(two, endless)
        assert endless.pulled == 3
        endless = _Endless(Scalar.from_int(1))
        with pytest.raises(ValueError, match="the points ended after 1, the scalars did not"):
            fn(endless, iter([G]))
        assert endless.pulled == 2
    # streams of equal length are summed; a stream that raises passes its exception on
    assert p256.multi_mult(iter(two), (p for p in [G, G])) == Scalar.from_int(5) * G

    class Boom(Exception):
        pass

    def raising():
        yield G
        raise Boom()
    with pytest.raises(Boom):
        p256.multi_mult_vartime(iter(two), raising())
    # two streams that never end: refused at the documented maximum, not read on
    with pytest.raises(ValueError, match="at most 1048576 terms"):
        p256.multi_mult_vartime(itertools.repeat(Scalar.from_int(1)), itertools.repeat(G))
    # negative control: the counter sees a reader that does not stop
    with pytest.raises(AssertionError, match="without end"):
        list(_Endless(G))


def test_multi_mult_errors():
    s = Scalar.from_int(2)
    with pytest.raises(ValueError, match="got 1 scalars and 2 points"):
        p256.multi_mult([s], [G, G])
    with pytest.raises(ValueError, match="got 2 scalars and 1 points"):
        p256.multi_mult_vartime([s, s], [G])
    with pytest.raises(TypeError, match=r"scalars\[1\] must be a p256.Scalar, not int"):
        p256.multi_mult([s, 2], [G, G])
    with pytest.raises(TypeError, match=r"points\[0\] must be a p256.Point, not PublicKey"):
        p256.multi_mult_vartime([s], [p256.PrivateKey.generate().public_key])
    with pytest.raises(TypeError, match="scalars must be a sequence of Scalars, not int"):
        p256.multi_mult(3, [G])
    with pytest.raises(TypeError, match="points must be a sequence of Points, not NoneType"):
        p256.multi_mult([s], None)


# ---- what a secret scalar refuses ------------------------------------------------------

def test_scalar_is_unhashable_unpicklable_uncopyable_and_hides_its_value():
    s = Scalar.from_int(123456789)
    with pytest.raises(TypeError, match="unhashable"):
        hash(s)
    with pytest.raises(TypeError, match="cannot be pickled or copied"):
        pickle.dumps(s)
    with pytest.raises(TypeError, match="cannot be pickled or copied"):
        copy.copy(s)
    with pytest.raises(TypeError, match="cannot be pickled or copied"):
        copy.deepcopy([s])
    assert "123456789" not in repr(s) and "75bcd15" not in repr(s).lower()
    assert repr(s) == "<p256.Scalar (value not shown)>"


def test_points_pickle_and_copy_by_value():
    for P in (G, O, Scalar.random() * G):
        for q in (pickle.loads(pickle.dumps(P)), copy.copy(P), copy.deepcopy(P)):
            assert q == P and type(q) is Point
    assert len({G, G + O, Point.from_bytes(G.to_bytes(compressed=True)), O, O.double()}) == 2


def test_random_scalars_are_nonzero_and_differ():
    seen = {int(Scalar.random()) for _ in range(50)}
    assert len(seen) == 50 and 0 not in seen and all(0 < v < N for v in seen)


# ---- the keys' doors --------------------------------------------------------------------

def test_keys_and_the_group():
    sk = p256.PrivateKey.generate()
    pk = sk.public_key
    assert isinstance(pk.point, Point) and pk.point == sk.scalar * G
    assert p256.PublicKey.from_point(pk.point) == pk
    assert p256.PrivateKey.from_scalar(sk.scalar).to_bytes() == sk.to_bytes()
    assert int(sk.scalar) == sk.to_int()
    # ECDH through the group: the x coordinate of d*Q
    other = p256.PrivateKey.generate()
    assert (sk.scalar * other.public_key.point).to_bytes()[1:33] == sk.exchange(other.public_key)
    with pytest.raises(ValueError, match="identity"):
        p256.PublicKey.from_point(O)
    with pytest.raises(ValueError, match="not a private key"):
        p256.PrivateKey.from_scalar(Scalar.from_int(0))
    with pytest.raises(TypeError, match="p256.Point"):
        p256.PublicKey.from_point(pk.to_bytes())
    with pytest.raises(TypeError, match="p256.Scalar"):
        p256.PrivateKey.from_scalar(sk.to_int())


# ---- threads ------------------------------------------------------------------------------

def test_shared_points_and_scalars_from_threads():
    """Immutable objects shared by 4 threads (the products release the GIL): every thread
    gets the answers one thread gets."""
    ks = [Scalar.random() for _ in range(8)]
    ps = [k * G for k in ks]
    want = [(k * p, p + q, p256.multi_mult(ks, ps), k * k) for k, p, q in zip(ks, ps, ps[1:] + ps[:1])]
    errors = []

    def work():
        for _ in range(3):
            got = [(k * p, p + q, p256.multi_mult(ks, ps), k * k) for k, p, q in zip(ks, ps, ps[1:] + ps[:1])]
            if got != want:
                errors.append(got)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []

"""Deciding an inequality for every parameter value in an interval (verifier.checks.ranges).

Every expectation below is derived by hand in the comment next to it; exact values
are compared exactly (``sp.simplify(x - y) == 0`` or ``==``), never with floats.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from sympy import Rational as R
from sympy import exp, log

from verifier.arithmetic.exact import Enclosure, Verdict, decide_le
from verifier.checks import ranges
from verifier.checks.ranges import (
    IntervalDecision,
    decide_all_on_interval,
    decide_on_interval,
)
from verifier.errors import InvalidParameter

eps = sp.Symbol("eps")
x = sp.Symbol("x")


def same(u: sp.Expr, v: sp.Expr) -> bool:
    """Exact equality of two constants (symbolic, not numeric)."""
    return u == v or sp.simplify(u - v) == 0


def check_witnesses(d: IntervalDecision, lhs: sp.Expr, rhs: sp.Expr) -> None:
    """Every failing piece carries an exact witness at which lhs > rhs is certified,
    lying inside the piece (strictly inside unless the piece is a single point)."""
    assert d.verdict is Verdict.VIOLATED
    assert d.failing
    for piece in d.failing:
        w = piece.witness
        assert w is not None
        assert not w.free_symbols
        assert decide_le(lhs.subs(eps, w), rhs.subs(eps, w)).verdict is Verdict.VIOLATED
        with mpmath.workdps(60):
            v = mpmath.mpf(str(sp.N(w, 50)))
            if piece.lo == piece.hi:
                assert w == piece.lo
            else:  # strictly inside, certified by the endpoint enclosures
                assert piece.lo_enclosure.hi < v < piece.hi_enclosure.lo


def check_combined_witnesses(d: IntervalDecision, pairs: list) -> None:
    """For a conjunction: each witness violates at least one of the inequalities."""
    assert d.verdict is Verdict.VIOLATED and d.failing
    for piece in d.failing:
        w = piece.witness
        assert w is not None
        assert any(
            decide_le(lhs.subs(eps, w), rhs.subs(eps, w)).verdict is Verdict.VIOLATED
            for lhs, rhs in pairs
        )


def encloses(enc: Enclosure, value: sp.Expr) -> bool:
    """The certified enclosure contains an independent 50-digit evaluation of value."""
    with mpmath.workdps(60):
        v = mpmath.mpf(str(sp.N(value, 50)))
        return bool(enc.lo <= v <= enc.hi) and enc.hi - enc.lo < 1e-15


# ---------------------------------------------------------------------------
# randomized response
# ---------------------------------------------------------------------------

P = exp(eps) / (1 + exp(eps))
P_ = 1 / (1 + exp(eps))


def test_randomized_response_is_eps_dp_with_zero_slack():
    # P = e^eps/(1+e^eps) = e^eps * P'  identically: rhs - lhs == 0 for every eps.
    d = decide_on_interval(P, exp(eps) * P_, eps, 0, 5)
    assert d.verdict is Verdict.HOLDS
    assert d.identically_equal
    assert d.failing == ()
    assert d.method == "polynomial"
    # the other direction: P' <= e^eps P  <=>  1 <= e^(2 eps), equality only at 0.
    d = decide_on_interval(P_, exp(eps) * P, eps, 0, 5)
    assert d.verdict is Verdict.HOLDS
    assert not d.identically_equal
    assert d.equality_points == (0,)


def test_randomized_response_is_not_half_eps_dp():
    # rhs - lhs = (e^(eps/2) - e^eps)/(1+e^eps) = e^(eps/2)(1 - e^(eps/2))/(1+e^eps):
    # zero at eps = 0, negative for every eps > 0 -> fails on (0, 5] exactly.
    lhs, rhs = P, exp(eps / 2) * P_
    d = decide_on_interval(lhs, rhs, eps, 0, 5)
    assert d.verdict is Verdict.VIOLATED
    assert d.method == "polynomial"
    assert len(d.failing) == 1
    piece = d.failing[0]
    assert piece.lo == 0 and not piece.lo_included  # equality at 0 is not a failure
    assert piece.hi == 5 and piece.hi_included
    assert d.equality_points == (0,)
    assert str(piece) == "(0, 5]"
    check_witnesses(d, lhs, rhs)


# ---------------------------------------------------------------------------
# Liu-Talwar best-of-K
# ---------------------------------------------------------------------------


def test_liu_talwar_best_of_k():
    K = 3
    half = sp.Integer(2) ** -K
    # lhs = e^(3 eps)/8, rhs = e^eps/8: rhs - lhs = e^eps (1 - e^(2 eps))/8 < 0 for
    # eps > 0, = 0 at eps = 0 -> fails on (0, log 2].
    lhs, rhs = half * exp(K * eps), exp(eps) * half
    d = decide_on_interval(lhs, rhs, eps, 0, log(2))
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    assert piece.lo == 0 and not piece.lo_included
    assert piece.hi == log(2) and piece.hi_included
    assert d.equality_points == (0,)
    check_witnesses(d, lhs, rhs)
    # with e^(K eps) on the right the two sides coincide.
    d = decide_on_interval(lhs, exp(K * eps) * half, eps, 0, log(2))
    assert d.verdict is Verdict.HOLDS and d.identically_equal


# ---------------------------------------------------------------------------
# roots strictly inside, rational exponents, shifts, constants
# ---------------------------------------------------------------------------


def test_root_strictly_inside():
    # e^-eps <= 1/2  <=>  eps >= log 2.  On [0, 2]: fails on [0, log 2) (at 0:
    # 1 > 1/2), equality at log 2, holds on [log 2, 2].
    lhs, rhs = exp(-eps), R(1, 2)
    d = decide_on_interval(lhs, rhs, eps, 0, 2)
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    assert same(piece.lo, 0) and piece.lo_included
    assert same(piece.hi, log(2)) and not piece.hi_included
    assert len(d.equality_points) == 1 and same(d.equality_points[0], log(2))
    assert encloses(piece.hi_enclosure, log(2))
    check_witnesses(d, lhs, rhs)
    # past the root it holds: on [log 2, 2] with equality at the left end.
    d = decide_on_interval(lhs, rhs, eps, log(2), 2)
    assert d.verdict is Verdict.HOLDS
    assert d.equality_points == (log(2),)


def test_rational_exponent():
    # e^(eps/3) <= 2  <=>  eps <= 3 log 2 (~2.079).  On [0, 6]: fails on (3 log 2, 6].
    lhs, rhs = exp(eps / 3), sp.Integer(2)
    d = decide_on_interval(lhs, rhs, eps, 0, 6)
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    assert same(piece.lo, 3 * log(2)) and not piece.lo_included
    assert piece.hi == 6 and piece.hi_included
    assert same(d.equality_points[0], 3 * log(2))
    check_witnesses(d, lhs, rhs)


def test_cubic_root_in_the_third_root_of_w():
    # w = e^(eps/3): e^eps <= 1 + e^(eps/3)  <=>  w^3 - w - 1 <= 0.  The cubic has
    # one real root rho (discriminant -4(-1)^3 - 27 = -23 < 0), rho ~ 1.3247 > 1,
    # negative at w = 1 (-1).  So it holds for eps <= 3 log rho (~0.8436) and fails
    # on (3 log rho, 2].
    lhs, rhs = exp(eps), 1 + exp(eps / 3)
    d = decide_on_interval(lhs, rhs, eps, 0, 2)
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    rho = sp.CRootOf(x**3 - x - 1, 0)
    assert piece.lo == 3 * log(rho)
    assert encloses(piece.lo_enclosure, 3 * log(rho))
    assert not piece.lo_included and piece.hi == 2
    assert d.equality_points == (3 * log(rho),)
    check_witnesses(d, lhs, rhs)


def test_mechanism_like_cubic():
    # w = e^eps: e^(2eps)(1 - e^-eps)^3 = (w-1)^3/w <= w  <=>  p(w) = w^3 - 4w^2 + 3w - 1
    # <= 0.  p(1) = -1, p(3) = -1, p(4) = 11: one real root r in (3, 4) (p' has roots
    # (4 +- sqrt 7)/3 where p < 0, so only one sign change).  Fails on (log r, 3].
    lhs, rhs = exp(2 * eps) * (1 - exp(-eps)) ** 3, exp(eps)
    d = decide_on_interval(lhs, rhs, eps, 0, 3)
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    r = sp.CRootOf(x**3 - 4 * x**2 + 3 * x - 1, 0)
    assert piece.lo == log(r)
    assert encloses(piece.lo_enclosure, log(r))
    assert 1.0986 < piece.lo_enclosure.lo and piece.lo_enclosure.hi < 1.3863  # log 3, log 4
    check_witnesses(d, lhs, rhs)


def test_rational_constant_shift():
    # e^(eps - 1) <= 1  <=>  eps <= 1.  On [0, 2]: fails on (1, 2], equality at 1.
    lhs, rhs = exp(eps - 1), sp.Integer(1)
    d = decide_on_interval(lhs, rhs, eps, 0, 2)
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    assert same(piece.lo, 1) and not piece.lo_included
    assert d.equality_points == (1,)
    check_witnesses(d, lhs, rhs)
    # e^(eps+1)/(1+e^(eps+1)) <= 2/3  <=>  e^(eps+1) <= 2  <=>  eps <= log 2 - 1 (< 0).
    lhs, rhs = exp(eps + 1) / (1 + exp(eps + 1)), R(2, 3)
    d = decide_on_interval(lhs, rhs, eps, -1, 1)
    assert d.method == "polynomial"
    (piece,) = d.failing
    assert same(piece.lo, log(2) - 1) and piece.hi == 1
    check_witnesses(d, lhs, rhs)


def test_constant_factors_and_shifts_that_cancel():
    # E e^eps <= 2E  <=>  eps <= log 2; the transcendental factor E cancels exactly.
    d = decide_on_interval(sp.E * exp(eps), 2 * sp.E, eps, 0, 2)
    assert d.method == "polynomial"
    assert same(d.failing[0].lo, log(2))
    check_witnesses(d, sp.E * exp(eps), 2 * sp.E)
    # e^(eps+1) == E e^eps identically.
    d = decide_on_interval(exp(eps + 1), sp.E * exp(eps), eps, 0, 2)
    assert d.verdict is Verdict.HOLDS and d.identically_equal


def test_endpoint_that_is_an_irrational_root():
    # e^(2 eps) <= 2 on [0, log(2)/2]: w = e^eps, 2 - w^2 = 0 at w = sqrt 2 = w(b);
    # the bound is attained exactly at b, which must be proved (not approximated).
    d = decide_on_interval(exp(2 * eps), 2, eps, 0, log(2) / 2)
    assert d.verdict is Verdict.HOLDS
    assert d.equality_points == (log(2) / 2,)
    # one step further it fails on (log(2)/2, 1].
    d = decide_on_interval(exp(2 * eps), 2, eps, 0, 1)
    (piece,) = d.failing
    assert same(piece.lo, log(2) / 2)
    check_witnesses(d, exp(2 * eps), sp.Integer(2))


# ---------------------------------------------------------------------------
# plain polynomials / rational functions in the parameter
# ---------------------------------------------------------------------------


def test_polynomial_in_eps():
    # eps^2 <= eps  <=>  eps (1 - eps) >= 0  <=>  0 <= eps <= 1, equality at 0 and 1.
    d = decide_on_interval(eps**2, eps, eps, 0, 1)
    assert d.verdict is Verdict.HOLDS
    assert d.equality_points == (0, 1)
    assert d.method == "polynomial"
    d = decide_on_interval(eps**2, eps, eps, 0, 2)
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    assert piece.lo == 1 and not piece.lo_included
    assert piece.hi == 2 and piece.hi_included
    assert piece.witness == R(3, 2)  # the simplest rational in (1, 2)
    check_witnesses(d, eps**2, eps)


def test_cubic_with_two_failing_pieces():
    # eps - eps^3 = eps (1 - eps)(1 + eps): negative on (-1, 0) and (1, 2], zero at
    # -1, 0, 1, positive on [-2, -1) and (0, 1).
    d = decide_on_interval(eps**3, eps, eps, -2, 2)
    assert d.verdict is Verdict.VIOLATED
    assert [(p.lo, p.hi, p.lo_included, p.hi_included) for p in d.failing] == [
        (-1, 0, False, False),
        (1, 2, False, True),
    ]
    assert d.equality_points == (-1, 0, 1)
    check_witnesses(d, eps**3, eps)


def test_rational_function_and_irrational_endpoint():
    # eps/(1+eps) <= 1/2  <=>  eps <= 1 (1 + eps > 0 on [0, 3]): fails on (1, 3].
    d = decide_on_interval(eps / (1 + eps), R(1, 2), eps, 0, 3)
    assert [(p.lo, p.hi) for p in d.failing] == [(1, 3)]
    check_witnesses(d, eps / (1 + eps), R(1, 2))
    # eps^2 <= 2 on [0, sqrt 2]: attained exactly at the endpoint sqrt 2.
    d = decide_on_interval(eps**2, 2, eps, 0, sp.sqrt(2))
    assert d.verdict is Verdict.HOLDS
    assert d.equality_points == (sp.sqrt(2),)


def test_pole_is_undecided():
    # 1/(e^eps - 2) has a pole at eps = log 2 in [0, 2]: no probability does.
    # 1 - 1/(w - 2) = (w - 3)/(w - 2) with w = e^eps is < 0 exactly for 2 < w < 3:
    # that failing piece is still reported, but the verdict stays undecided.
    d = decide_on_interval(1 / (exp(eps) - 2), 1, eps, 0, 2)
    assert d.verdict is Verdict.UNDECIDED
    assert "pole" in d.note and "log(2)" in d.note
    assert [(p.lo, p.hi) for p in d.failing] == [(log(2), log(3))]


# ---------------------------------------------------------------------------
# the bisection fallback
# ---------------------------------------------------------------------------


def test_bisection_proves_and_refutes():
    # log(1+x) <= x for x >= 0 with equality only at 0; on [1/10, 1] the slack is at
    # least 1/10 - log(11/10) > 0.0046, so interval bisection proves it.
    d = decide_on_interval(log(1 + eps), eps, eps, R(1, 10), 1)
    assert d.method == "bisection"
    assert d.verdict is Verdict.HOLDS
    # the reverse inequality fails everywhere on [1/10, 1].
    lhs, rhs = eps, log(1 + eps)
    d = decide_on_interval(lhs, rhs, eps, R(1, 10), 1)
    assert d.verdict is Verdict.VIOLATED
    assert d.method == "bisection"
    assert [(p.lo, p.hi) for p in d.failing] == [(R(1, 10), 1)]
    check_witnesses(d, lhs, rhs)


def test_bisection_cannot_prove_an_attained_bound():
    # On [0, 1] the bound log(1+x) <= x is attained at 0: interval arithmetic never
    # certifies a zero slack, so this is honestly undecided.
    d = decide_on_interval(log(1 + eps), eps, eps, 0, 1)
    assert d.method == "bisection"
    assert d.verdict is Verdict.UNDECIDED
    assert "equality" in d.note


def test_bisection_partial_failure_and_other_functions():
    # sqrt(x) <= x  <=>  x >= 1: fails on [1/4, 1), holds (with equality at 1) after.
    d = decide_on_interval(sp.sqrt(eps), eps, eps, R(1, 4), 4)
    assert d.method == "bisection"
    assert d.verdict is Verdict.VIOLATED
    for piece in d.failing:  # inner approximation of [1/4, 1)
        assert piece.lo_enclosure.lo >= 0.25 and piece.hi_enclosure.hi < 1
    assert d.failing[0].lo == R(1, 4)
    check_witnesses(d, sp.sqrt(eps), eps)
    # 2^x <= 1 + x on [1/10, 9/10] (convexity: equality only at 0 and 1).
    d = decide_on_interval(2**eps, 1 + eps, eps, R(1, 10), R(9, 10))
    assert d.method == "bisection"
    assert d.verdict is Verdict.HOLDS


def test_bisection_zero_test_only_when_no_point_separates(monkeypatch):
    # An identity outside the polynomial rewrite is still proved identically equal
    # (the symbolic zero test runs: no point of the range shows rhs - lhs != 0) ...
    calls: list[sp.Expr] = []
    real = ranges.is_exactly_zero

    def spy(x: sp.Expr) -> bool | None:
        calls.append(x)
        return real(x)

    monkeypatch.setattr(ranges, "is_exactly_zero", spy)
    s = sp.Symbol("s", positive=True)
    for lhs, rhs in (
        (log(1 + s) + log(2), log(2 + 2 * s)),
        (sp.sqrt(s) * sp.sqrt(s + 1), sp.sqrt(s**2 + s)),
    ):
        calls.clear()
        d = ranges.decide_on_interval(lhs, rhs, s, R(1, 10), 1)
        assert d.method == "bisection"
        assert d.verdict is Verdict.HOLDS and d.identically_equal
        assert len(calls) == 1
    # ... and is skipped when an inner point certifies rhs - lhs != 0, with the same
    # verdicts as before (proved and refuted by bisection, never identically equal)
    calls.clear()
    d = ranges.decide_on_interval(log(1 + eps), eps, eps, R(1, 10), 1)
    assert d.verdict is Verdict.HOLDS and not d.identically_equal
    d = ranges.decide_on_interval(eps, log(1 + eps), eps, R(1, 10), 1)
    assert d.verdict is Verdict.VIOLATED and not d.identically_equal
    assert calls == []


def test_bisection_with_irrational_endpoints():
    # eps e^eps mixes eps and e^eps (no polynomial rewrite).  On [log 2, log 3] it is
    # >= log 2 * 2 > 1.38 > 1, so eps e^eps <= 1 fails everywhere there.
    lhs, rhs = eps * exp(eps), sp.Integer(1)
    d = decide_on_interval(lhs, rhs, eps, log(2), log(3))
    assert d.method == "bisection"
    assert d.verdict is Verdict.VIOLATED
    assert d.failing[0].lo == log(2) and d.failing[-1].hi == log(3)
    check_witnesses(d, lhs, rhs)


# ---------------------------------------------------------------------------
# single point, bad input
# ---------------------------------------------------------------------------


def test_single_point_interval():
    d = decide_on_interval(exp(-eps), R(1, 2), eps, log(2), log(2))
    assert d.verdict is Verdict.HOLDS and d.equality_points == (log(2),)
    d = decide_on_interval(exp(-eps), R(1, 2), eps, 0, 0)
    assert d.verdict is Verdict.VIOLATED
    assert d.failing[0].witness == 0
    check_witnesses(d, exp(-eps), R(1, 2))


def test_bad_input():
    delta = sp.Symbol("delta")
    with pytest.raises(InvalidParameter, match="delta"):
        decide_on_interval(eps * delta, 1, eps, 0, 1)
    with pytest.raises(InvalidParameter, match="delta"):
        decide_on_interval(eps, exp(delta), eps, 0, 1)
    with pytest.raises(InvalidParameter, match="empty interval"):
        decide_on_interval(eps, 1, eps, 2, 1)
    with pytest.raises(InvalidParameter, match="empty interval"):
        decide_on_interval(eps, 1, eps, log(3), 1)
    with pytest.raises(InvalidParameter, match="not finite"):
        decide_on_interval(eps, 1, eps, 0, sp.oo)
    with pytest.raises(InvalidParameter, match="not finite"):
        decide_on_interval(eps, 1, eps, -sp.oo, 0)
    with pytest.raises(InvalidParameter, match="float"):
        decide_on_interval(eps, 1, eps, 0, 0.5)
    with pytest.raises(InvalidParameter, match="constant"):
        decide_on_interval(eps, 1, eps, 0, delta)
    with pytest.raises(InvalidParameter, match="Symbol"):
        decide_on_interval(eps, 1, "eps", 0, 1)
    with pytest.raises(InvalidParameter):
        decide_all_on_interval([(eps, 1)], eps, 1, 0)


# ---------------------------------------------------------------------------
# many inequalities at once
# ---------------------------------------------------------------------------


def test_decide_all_randomized_response():
    # all four (dataset pair, output) constraints of randomized response for eps-DP:
    # two are identities, two reduce to 1 <= e^(2 eps).
    pairs = [(P, exp(eps) * P_), (P_, exp(eps) * P), (P_, exp(eps) * P), (P, exp(eps) * P_)]
    d = decide_all_on_interval(pairs, eps, 0, 5)
    assert d.verdict is Verdict.HOLDS
    assert not d.identically_equal
    assert d.equality_points == (0,)
    # for eps/2-DP every output fails on (0, 5] (see the single-pair test).
    half = [(P, exp(eps / 2) * P_), (P_, exp(eps / 2) * P)]
    d = decide_all_on_interval(half, eps, 0, 5)
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    assert piece.lo == 0 and not piece.lo_included and piece.hi == 5
    check_combined_witnesses(d, half)


def test_decide_all_union_and_duplicates(monkeypatch):
    # e^-eps <= 1/2 fails on [0, log 2); eps <= 1/2 fails on (1/2, 2]; since
    # 1/2 < log 2 (~0.693) the union is all of [0, 2].
    ranges._decide_cached.cache_clear()
    calls = []
    real = ranges._difference_rewrite

    def counting(lhs, rhs, diff, symbol):
        calls.append(diff)
        return real(lhs, rhs, diff, symbol)

    monkeypatch.setattr(ranges, "_difference_rewrite", counting)
    pairs = [(exp(-eps), R(1, 2)), (eps, R(1, 2)), (exp(-eps), R(1, 2))]
    d = decide_all_on_interval(pairs, eps, 0, 2)
    assert len(calls) == 2  # the duplicate pair is decided once
    assert d.verdict is Verdict.VIOLATED
    (piece,) = d.failing
    assert piece.lo == 0 and piece.lo_included
    assert piece.hi == 2 and piece.hi_included
    assert set(d.equality_points) == {log(2), R(1, 2)}
    check_combined_witnesses(d, pairs)
    # e^-eps <= 1/2 and eps <= 1 fail on [0, log 2) and (1, 2]: two pieces.
    two = [(exp(-eps), R(1, 2)), (eps, sp.Integer(1))]
    d = decide_all_on_interval(two, eps, 0, 2)
    assert [(p.lo, p.hi) for p in d.failing] == [(0, log(2)), (1, 2)]
    check_combined_witnesses(d, two)
    assert d.method == "polynomial"
    # mixed methods
    d = decide_all_on_interval([(eps**2, eps), (log(1 + eps), eps)], eps, R(1, 10), 1)
    assert d.verdict is Verdict.HOLDS and d.method == "mixed"


def test_decide_all_empty():
    d = decide_all_on_interval([], eps, 0, 1)
    assert d.verdict is Verdict.HOLDS and d.failing == ()


def test_simplest_rational_helper():
    f = ranges._simplest_between
    assert f(Fraction(0), Fraction(693, 1000)) == Fraction(1, 2)
    assert f(Fraction(1), Fraction(2)) == Fraction(3, 2)
    assert f(Fraction(-1, 3), Fraction(1, 7)) == 0
    assert f(Fraction(-2), Fraction(-1)) == Fraction(-3, 2)
    assert f(Fraction(31, 100), Fraction(32, 100)) == Fraction(5, 16)


# -- constructs the one-parameter decision must not get wrong -------------------------

s_real = sp.Symbol("s", real=True)


def test_a_pole_of_both_sides_lost_by_the_difference_is_not_a_holds():
    # 1/s + 1 <= 1/s + 2: rhs - lhs = 1, but both sides are undefined at s = 0
    d = decide_on_interval(1 / s_real + 1, 1 / s_real + 2, s_real, -1, 1)
    assert d.verdict is Verdict.UNDECIDED and "pole" in d.note
    # away from the pole it holds
    assert decide_on_interval(1 / s_real + 1, 1 / s_real + 2, s_real, R(1, 2), 1).verdict is (
        Verdict.HOLDS
    )
    # a log of both sides, undefined for s <= 0: no verdict on [-1, 1]
    d = decide_on_interval(log(s_real) + s_real, log(s_real) + 2 * s_real + 2, s_real, -1, 1)
    assert d.verdict is Verdict.UNDECIDED


def test_floor_and_ceil_by_bisection_and_at_the_ends():
    # floor(s) <= 1/2 fails only at s = 1 (floor(1) = 1): found at the end point
    d = decide_on_interval(sp.floor(s_real), R(1, 2), s_real, -1, 1)
    assert d.verdict is Verdict.VIOLATED
    assert [(p.lo, p.hi) for p in d.failing] == [(1, 1)]
    # ceil(s) <= 1/2 fails on (0, 1]: a failing piece inside it
    d = decide_on_interval(sp.ceiling(s_real), R(1, 2), s_real, -1, 1)
    assert d.verdict is Verdict.VIOLATED
    for p in d.failing:
        assert p.witness is not None and 0 < p.witness <= 1
    # floor(s) <= s + 1/10 everywhere
    assert decide_on_interval(sp.floor(s_real), s_real + R(1, 10), s_real, -2, 2).verdict is (
        Verdict.HOLDS
    )


def test_binomial_with_a_constant_k_is_decided_exactly():
    # binomial(s, 2) = s (s - 1) / 2 <= 1 on [-1, 1], equal to 1 at s = -1
    d = decide_on_interval(sp.binomial(s_real, 2), 1, s_real, -1, 1)
    assert d.verdict is Verdict.HOLDS and d.method == "polynomial"
    assert d.equality_points == (-1,)


def test_abs_min_max_of_a_parameter_reaching_negative_values():
    # |s| <= s + 1/2 fails exactly for s < -1/4
    for lhs in (sp.Abs(s_real), sp.Max(s_real, -s_real), sp.sqrt(s_real**2)):
        d = decide_on_interval(lhs, s_real + R(1, 2), s_real, -1, 1)
        assert d.verdict is Verdict.VIOLATED
        for p in d.failing:
            assert p.witness < -R(1, 4)


def test_ranges_outside_the_parameters_assumptions_are_refused():
    t = sp.Symbol("t", positive=True)
    with pytest.raises(InvalidParameter, match="t is declared positive.*reaches 0"):
        decide_on_interval(t, 1, t, 0, 1)
    n = sp.Symbol("n", integer=True)
    with pytest.raises(InvalidParameter, match="declared integer"):
        decide_on_interval(n, 5, n, 0, 3)
    assert decide_on_interval(n, 5, n, 3, 3).verdict is Verdict.HOLDS
    w = sp.Symbol("w", nonnegative=True)
    with pytest.raises(InvalidParameter, match="declared nonnegative"):
        decide_on_interval(w, 1, w, -log(2), 1)


def _random_rational_function(rng, w: sp.Symbol) -> sp.Expr:
    """A sum of two or three quotients of random polynomials in ``w`` with small
    rational coefficients (common factors and cancellations included)."""

    def poly() -> sp.Expr:
        return sum(
            R(rng.randint(-4, 4), rng.randint(1, 3)) * w**k for k in range(rng.randint(0, 3))
        )

    out = sp.Integer(0)
    for _ in range(rng.randint(2, 3)):
        common = w - rng.randint(-2, 2)
        out += poly() * common / ((poly() + 1 + w**2) * common)
    return out


def test_the_fast_rational_function_route_is_the_expression_reduced():
    """`_qq_fraction` (sympy's field of rational functions) gives num/den equal to the
    expression, coprime, over QQ; the general route (`together`, `Poly`) gives the
    same function.  A coefficient that is not rational takes the general route."""
    import random

    w = ranges._W
    rng = random.Random(20261127)
    for _ in range(25):
        e = _random_rational_function(rng, w)
        fast = ranges._qq_fraction(e)
        assert fast is not None
        rw = ranges._fraction_rewrite(fast, False, 1, sp.Integer(0))
        num, den = rw.num, rw.den
        assert num.domain == sp.QQ and den.domain == sp.QQ
        assert sp.cancel(num.as_expr() / den.as_expr() - e) == 0
        assert num.gcd(den).degree() == 0  # reduced: every root of den is a pole
        slow_num, slow_den = sp.fraction(sp.together(e))
        assert sp.cancel(num.as_expr() * slow_den - den.as_expr() * slow_num) == 0
    assert ranges._qq_fraction(exp(R(1, 3)) * w + 1) is None
    rw = ranges._to_rewrite(exp(R(1, 3)) * w + exp(R(1, 3)), w, True, 1, sp.Integer(0))
    assert rw is not None and rw.factor_sign == 1  # exp(1/3) (w + 1): the general route
    assert rw.num.as_expr() == w + 1 and rw.den.as_expr() == 1


def test_a_float_endpoint_is_refused_after_the_same_integer_was_accepted():
    """The endpoints' checks are cached per interval; 1 and 1.0 compare equal and hash
    alike, yet only the integer is exact."""
    assert decide_on_interval(x, 2 * x, x, 1, 2).verdict is Verdict.HOLDS
    with pytest.raises(InvalidParameter, match="float"):
        decide_on_interval(x, 2 * x, x, 1.0, 2)
    with pytest.raises(InvalidParameter, match="empty interval"):
        decide_on_interval(x, 2 * x, x, 2, 1)
    with pytest.raises(InvalidParameter, match="empty interval"):
        decide_on_interval(x, 2 * x, x, 2, 1)  # a refusal is not cached as an answer


def test_the_difference_of_two_side_rewrites_is_the_rewrite_of_the_difference():
    """`_difference_rewrite` (the sides' cached rewrites subtracted in the field) gives
    exactly `_rewrite(rhs - lhs)` whenever it answers — polynomial sides in `s`, sides
    in one `w = e^{s/L}`, a rational constant against either — and declines (None)
    where the difference's own rewrite takes another `w`: different `L`, a term that
    cancels between the sides, a shift, an irrational coefficient."""
    import random

    pos = sp.Symbol("p", positive=True)
    rng = random.Random(20261128)

    def side(var, gens):
        terms = [R(rng.randint(-5, 5), rng.randint(1, 4)) * g for g in gens]
        num = sp.Add(R(rng.randint(1, 3)), *terms)
        den = sp.Add(R(rng.randint(1, 3)), *(R(rng.randint(0, 3)) * g for g in gens)) + 1
        return num / den

    answered = 0
    for symbol in (eps, pos, s_real):
        for kind in ("poly", "exp", "exp_half", "const"):
            for _ in range(6):
                if kind == "poly":
                    gens_l = gens_r = (symbol, symbol**2)
                elif kind == "exp":
                    gens_l = gens_r = (exp(symbol), exp(2 * symbol))
                elif kind == "exp_half":
                    gens_l = gens_r = (exp(symbol / 2), exp(3 * symbol / 2))
                else:
                    gens_l, gens_r = (exp(symbol / 3),), ()
                lhs, rhs = side(symbol, gens_l), side(symbol, gens_r)
                diff = rhs - lhs
                got = ranges._difference_rewrite(lhs, rhs, diff, symbol)
                want = ranges._rewrite(diff, symbol)
                if got is None:
                    continue
                answered += 1
                assert want is not None
                assert (got.num, got.den, got.factor_sign, got.exponential, got.L) == (
                    want.num,
                    want.den,
                    want.factor_sign,
                    want.exponential,
                    want.L,
                )
                assert got.shift == want.shift == 0
    assert answered >= 60
    # declined: another L for the difference, a cancelled term, an irrational factor
    assert (
        ranges._difference_rewrite(exp(eps / 2), exp(eps / 3), exp(eps / 3) - exp(eps / 2), eps)
        is None
    )
    lhs, rhs = exp(eps / 2) + 1, exp(eps / 2) + 2  # the difference has no exponential
    assert ranges._difference_rewrite(lhs, rhs, rhs - lhs, eps) is None
    assert ranges._difference_rewrite(log(2) * eps, eps, eps - log(2) * eps, eps) is None
    assert ranges._difference_rewrite(exp(eps + 1), exp(eps), exp(eps) - exp(eps + 1), eps) is None

"""The exact supremum of a ratio of exponential polynomials on an infinite tail."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from verifier.algorithms.noise.expoly import DISCRETE, ExpPoly
from verifier.algorithms.noise.tails import tail_sup
from verifier.errors import InvalidParameter

W = Fraction(3, 5)
NUM = DISCRETE.at_rational(W)


def _brute_sup(P: ExpPoly, Q: ExpPoly, start: int, direction: int, n: int) -> Fraction:
    return max(P.at(start + direction * i) / Q.at(start + direction * i) for i in range(n))


def test_tail_sup_limit_not_attained():
    # P = W^v + W^{2v}, Q = W^v: ratio 1 + W^v decreases to 1 on v -> -inf?  no: on the
    # right tail (v -> +inf) the ratio decreases to its limit 1; the sup is at the start.
    P = ExpPoly(NUM, {(1, 0): Fraction(1), (2, 0): Fraction(1)})
    Q = ExpPoly(NUM, {(1, 0): Fraction(1)})
    ts = tail_sup(P, Q, 0, 1, sp.log(sp.Rational(5, 3)))
    assert ts.value == 2 and ts.at == 0 and ts.limit == 1
    # reversed: the ratio increases towards 1 and never reaches it
    ts = tail_sup(Q, P, 0, 1, sp.log(sp.Rational(5, 3)))
    assert ts.value == 1 and ts.at is None


def test_tail_sup_interior_maximum_and_polynomial_terms():
    # ratio (1 + 3 v W^v)/(1 + W^v) rises then falls back to 1 (v >= 0)
    P = ExpPoly(NUM, {(1, 0): Fraction(1), (2, 1): Fraction(3)})
    Q = ExpPoly(NUM, {(1, 0): Fraction(1), (2, 0): Fraction(1)})
    ts = tail_sup(P, Q, 0, 1, sp.log(sp.Rational(5, 3)))
    assert ts.value == _brute_sup(P, Q, 0, 1, 200)
    assert ts.at is not None and ts.at > 0


def test_tail_sup_left_tail_and_infinite_ratio():
    P = ExpPoly(NUM, {(-1, 0): Fraction(1)})  # decays as v -> -inf
    Q = ExpPoly(NUM, {(-2, 0): Fraction(1)})  # decays faster
    assert tail_sup(P, Q, -1, -1, sp.log(sp.Rational(5, 3))).value is sp.oo
    assert tail_sup(Q, P, -1, -1, sp.log(sp.Rational(5, 3))).value == W
    with pytest.raises(InvalidParameter):
        tail_sup(P, Q, 0, 1, sp.log(2))  # does not decay on the right


def test_tail_sup_with_a_transcendental_base():
    ring = DISCRETE
    P = ExpPoly(ring, {(1, 0): ring.c(2), (3, 0): ring.c(5)})
    Q = ExpPoly(ring, {(1, 0): ring.c(1)})
    ts = tail_sup(P, Q, 1, 1, sp.Integer(1))  # W = e^{-1}
    assert sp.simplify(ts.value - (2 + 5 * sp.exp(-2))) == 0
    mpmath.mp.dps = 30
    assert ts.at == 1


@pytest.mark.parametrize("seed", range(8))
def test_tail_sup_on_seeded_rational_tails_is_the_brute_force_sup(seed):
    # geometric noise at a rational base: every tail point's ratio is a rational,
    # compared exactly; the supremum is the largest ratio of the first 300 points
    # (attained at the first of them) or, when none exceeds it, the limit (unattained).
    # Q's term v^2 W^v decays slowest, so the ratio stays finite.
    import random

    rng = random.Random(seed)

    def poly(slowest: bool) -> ExpPoly:
        terms = {(1, 2): Fraction(rng.randint(1, 9), 7)} if slowest else {}
        for _ in range(rng.randint(1, 4)):
            terms[(rng.randint(1, 4), rng.randint(0, 2))] = Fraction(rng.randint(1, 9), 5)
        return ExpPoly(NUM, terms)

    P, Q = poly(False), poly(True)
    start = rng.randint(1, 3)  # Q(v) > 0 for v >= 1 (positive coefficients)
    ts = tail_sup(P, Q, start, 1, sp.log(sp.Rational(5, 3)))
    ratios = [P.at(v) / Q.at(v) for v in range(start, start + 300)]
    top = max(ratios)
    if top > ts.limit:
        assert ts.value == top and ts.at == start + ratios.index(top)
    else:
        assert ts.value == ts.limit and ts.at is None

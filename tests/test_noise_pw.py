"""The piecewise exponential-polynomial algebra behind the noise programs: exact
identities in Q(W) and Q(W, U), closed forms of (infinite) series against direct
summation, and the exact tail supremum."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from verifier.algorithms.noise_pw import (
    CONTINUOUS,
    DISCRETE,
    ExpPoly,
    geometric_pmf,
    geometric_survival,
    laplace_density,
    laplace_survival,
    point_mass,
    step_below,
    step_from,
    tail_sup,
    to_sympy,
)
from verifier.errors import InvalidParameter

W = Fraction(3, 5)
NUM = DISCRETE.at_rational(W)


def test_laws_sum_to_one_as_rational_functions():
    for m in (1, 2, 3):
        assert geometric_pmf(DISCRETE, m).total() == 1
        assert laplace_density(CONTINUOUS, m).total() == 1
    assert point_mass(DISCRETE).total() == 1


def test_survival_is_the_upper_running_sum_of_the_pmf():
    pmf, surv = geometric_pmf(DISCRETE, 2), geometric_survival(DISCRETE, 2)
    upper = pmf.upper_cumulative()
    lower = pmf.cumulative()
    for y in range(-5, 6):
        assert upper.at(y) == surv.at(y)
        assert lower.at(y) + surv.at(y + 1) == 1


def test_laplace_running_integrals():
    dens, surv = laplace_density(CONTINUOUS, 1), laplace_survival(CONTINUOUS, 1)
    for y in range(-3, 4):
        assert dens.upper_cumulative().at(y) == surv.at(y)
        assert dens.cumulative().at(y) + surv.at(y) == 1
    # P(nu_1 >= nu_2) = 1/2 for two iid Laplace variables
    assert (dens * surv).total() * 2 == 1


def test_ties_of_two_geometric_variables():
    # P(nu_2 >= nu_1) = (1 + P(tie))/2 and P(tie) = sum pmf^2 = C^2 (1+x^2)/(1-x^2)
    x = W
    C = (1 - x) / (1 + x)
    tie = C * C * (1 + x * x) / (1 - x * x)
    g = geometric_pmf(NUM, 1) * geometric_survival(NUM, 1)
    assert g.total() == (1 + tie) / 2


def test_shift_and_reflection():
    s = geometric_survival(NUM, 1)
    for t in (-2, 0, 3):
        for y in range(-6, 7):
            assert s.shifted(t).at(y) == s.at(y + t)
            assert s.reflected(t).at(y) == s.at(t - y)
    step = step_below(NUM, 2)
    assert [step.reflected(1).at(y) for y in range(-3, 3)] == [0, 0, 0, 1, 1, 1]  # [1-y < 2]


def test_piece_totals_match_direct_summation():
    # finite pieces, polynomial terms included: sum_{y=a}^{b-1} (2 + y) W^{k y}
    for k in (-2, -1, 0, 1, 3):
        f = ExpPoly(NUM, {(k, 0): Fraction(2), (k, 1): Fraction(1)})
        for a, b in ((-4, 3), (0, 1), (2, 7)):
            direct = sum((2 + y) * W ** (k * y) for y in range(a, b))
            assert f.piece_total(a, b) == direct
    # infinite pieces: compare with a long partial sum plus an explicit tail bound
    f = ExpPoly(NUM, {(2, 1): Fraction(1)})  # y W^{2y}, y >= 5
    part = sum(y * W ** (2 * y) for y in range(5, 200))
    tail = f.piece_total(200, None)
    assert f.piece_total(5, None) == part + tail
    assert 0 < tail < Fraction(1, 10**60)


def test_cumulative_of_a_product_matches_partial_sums():
    a = geometric_pmf(NUM, 2) * (1 - geometric_survival(NUM, 1).shifted(-1))
    G = a.cumulative()
    acc = Fraction(0)
    # the left tail below -40 is below W^{80}; check the running sum from there
    start = -40
    left = a.total_between(None, start)
    acc = left
    for y in range(start, 8):
        acc += a.at(y)
        assert G.at(y) == acc


def test_products_refine_and_merge_breakpoints():
    f = step_below(DISCRETE, 3) * step_from(DISCRETE, 0)
    assert f.breaks == (0, 3)
    assert [f.at(y) for y in (-1, 0, 2, 3)] == [0, 1, 1, 0]
    g = step_below(DISCRETE, 3) + step_from(DISCRETE, 3)
    assert g.breaks == ()  # merged into the constant 1


def test_to_sympy_substitutes_the_unit():
    u = sp.Symbol("u", positive=True)
    elem = geometric_survival(DISCRETE, 1).at(2)  # W^2/(1+W)
    assert sp.simplify(to_sympy(elem, u) - sp.exp(-2 * u) / (1 + sp.exp(-u))) == 0
    assert to_sympy(elem, sp.log(2)) == sp.Rational(1, 6)


# ---------------------------------------------------------------------------
# tail suprema
# ---------------------------------------------------------------------------


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

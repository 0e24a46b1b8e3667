"""The piecewise exponential-polynomial algebra: exact identities in Q(W) and
Q(W, U), closed forms of (infinite) series against direct summation."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from verifier.algorithms.noise.distributions import geometric_pmf, geometric_survival
from verifier.algorithms.noise.expoly import DISCRETE, ExpPoly, step_below, step_from, to_sympy

R = sp.Rational
W = Fraction(3, 5)
NUM = DISCRETE.at_rational(W)


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
# Laurent coefficients at a rational unit u (W = e^{-u} transcendental)
# ---------------------------------------------------------------------------


def test_laurent_arithmetic_matches_sympy():
    from verifier.algorithms.noise.expoly import Laurent

    u = sp.Rational(1, 7)
    a = Laurent({-2: 3, 0: -1, 5: 2}, 4)
    b = Laurent.monomial(1, Fraction(2, 3)) - Laurent.const(Fraction(1, 5))
    for lhs, rhs in (
        (a + b, a.to_sympy(u) + b.to_sympy(u)),
        (a - b, a.to_sympy(u) - b.to_sympy(u)),
        (a * b, a.to_sympy(u) * b.to_sympy(u)),
        (a * Fraction(3, 2), a.to_sympy(u) * R(3, 2)),
        (a / Fraction(3, 2), a.to_sympy(u) / R(3, 2)),
    ):
        assert sp.simplify(lhs.to_sympy(u) - rhs) == 0
    assert (a - a).is_zero and a * 0 == 0 and Laurent.const(1) == 1


def test_laurent_sign_and_enclosure():
    from verifier.algorithms.noise.expoly import Laurent

    u = Fraction(1, 40)
    # W - (1 - u): positive, since e^{-u} > 1 - u; a hair away from zero
    x = Laurent.monomial(1) - Laurent.const(1 - u)
    assert x.sign(u) == 1 and (-x).sign(u) == -1 and (x - x).sign(u) == 0
    lo, hi = x.enclosure(u, 128)
    exact_value = sp.exp(-R(1, 40)) - (1 - R(1, 40))
    assert R(lo.numerator, lo.denominator) <= exact_value <= R(hi.numerator, hi.denominator)


def test_laplace_integrals_at_a_rational_unit_match_the_field():
    from verifier.algorithms.noise.distributions import laplace_density, laplace_survival
    from verifier.algorithms.noise.expoly import CONTINUOUS

    u = Fraction(1, 40)
    fast = CONTINUOUS.at_unit(u)
    for ring_pair in ((fast, CONTINUOUS),):
        vals = []
        for ring in ring_pair:
            f = laplace_density(ring, 2) * laplace_survival(ring, 1).shifted(3)
            vals.append(to_sympy(f.total(), sp.Rational(1, 40)))
        assert sp.simplify(vals[0] - vals[1]) == 0
    assert laplace_density(fast, 3).total() == 1


def test_the_numeric_ring_takes_exact_rationals_only():
    """At a rational ``W`` coefficients are GMP rationals: ints, Fractions and sympy
    rationals convert exactly; a float is refused (it is not the number meant)."""
    import pytest
    from gmpy2 import mpq

    from verifier.errors import InvalidParameter

    assert [NUM.c(x) for x in (2, Fraction(1, 3), R(2, 7), NUM.c(5))] == [
        mpq(2),
        mpq(1, 3),
        mpq(2, 7),
        mpq(5),
    ]
    assert NUM.W == mpq(3, 5) and NUM.wpow(-2) == mpq(25, 9)
    with pytest.raises(InvalidParameter, match="not an exact rational"):
        NUM.c(0.5)

"""The exact supremum of a density ratio: against hand closed forms (the Laplace
mechanism's e^{ε·Δ/b}, the left tail of the maximum of n Laplace values, the support
of the exponential maximum), against an independent numerical evaluation of the
densities (mpmath, from the textbook formulas), and the density of the noisy maximum
against a seeded simulation."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from verifier.algorithms.noise.density_ratio import ratio_at_most, sup_log_ratio
from verifier.algorithms.noise.distributions import (
    exponential,
    exponential_density,
    laplace,
    laplace_density,
)
from verifier.algorithms.noise.expoly import CONTINUOUS, PW, ExpPoly, Laurent
from verifier.algorithms.noise.noisy_max import argmax_laws, max_density, report_noisy_max
from verifier.algorithms.noise.samplers import binomial_two_sided_pvalue, noise_sampler

U = Fraction(1, 20)
RING = CONTINUOUS.at_unit(U)
ALPHA = 1e-4


@pytest.mark.parametrize("m, delta", [(1, 1), (1, 3), (2, 1), (3, 2)])
def test_laplace_mechanism_ratio_is_exp_eps_delta_over_b(m, delta):
    # Lap(b) with 1/b = m u at q and q + delta: sup ratio e^{delta/b} (Dwork et al. 2006)
    f = laplace_density(RING, m)
    g = f.shifted(-delta)
    r = sup_log_ratio(f, g, U)
    assert r.value == sp.Rational(m * delta) * sp.Rational(1, 20)
    assert not r.interior and r.event is None
    assert sup_log_ratio(g, f, U).value == r.value


def test_exponential_shift_is_unbounded_with_the_mass_of_the_gap():
    # Exp(rate u) at 0 and at 1: on [0, 1) only the first has density; its mass 1 - e^{-u}
    f = exponential_density(RING, 1)
    r = sup_log_ratio(f, f.shifted(-1), U)
    assert r.value == sp.oo
    assert r.event == (1 - Laurent.monomial(1), Laurent({}))
    # the other direction: the ratio e^{-u(v-1)}/e^{-uv} = e^{u} on v >= 1, 0 below
    assert sup_log_ratio(f.shifted(-1), f, U).value == sp.Rational(1, 20)


def _max_density_num(q, rate, v, kind):
    """f(v) = Σ_i f(v - q_i) Π_{j≠i} F(v - q_j), from the textbook pdf/cdf (mpmath)."""

    def pdf(x):
        if kind == "laplace":
            return rate / 2 * mpmath.exp(-rate * abs(x))
        return rate * mpmath.exp(-rate * x) if x >= 0 else mpmath.mpf(0)

    def cdf(x):
        if kind == "laplace":
            return 1 - mpmath.exp(-rate * x) / 2 if x >= 0 else mpmath.exp(rate * x) / 2
        return 1 - mpmath.exp(-rate * x) if x >= 0 else mpmath.mpf(0)

    total = mpmath.mpf(0)
    for i, qi in enumerate(q):
        t = pdf(v - qi)
        for j, qj in enumerate(q):
            if j != i:
                t *= cdf(v - qj)
        total += t
    return total


def _numeric_sup(a, b, rate):
    """The largest log-ratio on a grid (a lower bound of the supremum)."""
    best = -mpmath.inf
    with mpmath.workdps(25):
        for k in range(-800, 801):
            v = mpmath.mpf(k) / 20  # [-40, 40], step 1/20, through every breakpoint
            f, g = _max_density_num(a, rate, v, "laplace"), _max_density_num(b, rate, v, "laplace")
            best = max(best, mpmath.log(f / g))
    return best


@pytest.mark.parametrize(
    "a, b, interior",
    [
        ((1, 1, 1, 1, 1), (0, 2, 2, 2, 2), False),  # maximum at v = 1 (a breakpoint)
        ((1, 1, 1, 1, 1), (2, 2, 0, 0, 0), True),  # maximum inside (1, 2)
        ((0, 0, 0, 0, 0), (1, 1, 1, 1, 1), False),  # constant 5 rate below 0
    ],
)
def test_noisy_max_density_ratio_against_the_grid(a, b, interior):
    rate = sp.Rational(1, 2)  # large rate: the tails settle within the grid
    prog = report_noisy_max(1, noise="laplace")
    ctx, _ = argmax_laws(prog, [a])
    u = Fraction(int(ctx.u.p), int(ctx.u.q))
    assert u == Fraction(1, 2)
    r = sup_log_ratio(max_density(ctx, prog.noise, a), max_density(ctx, prog.noise, b), u)
    exact = mpmath.mpf(sp.N(r.value, 30))
    grid = _numeric_sup(a, b, float(rate))
    assert r.interior == interior
    if interior:
        # the value is the ratio at one point: below the grid maximum, and the
        # supremum is certified below e^{grid + 1/100}, not below e^{grid - 1/100}
        assert exact <= grid + 1e-12
        f, g = max_density(ctx, prog.noise, a), max_density(ctx, prog.noise, b)
        k = int(mpmath.floor(grid * 100))  # W^-j = e^{j/2}: bounds e^{(k±1)/100} as W-powers
        hi = sp.Rational(k + 1, 100)
        lo = sp.Rational(k - 1, 100)
        assert grid < hi and lo < grid
        # e^{x} for rational x is not a power of W = e^{-1/2}: use the rational ratios
        # e^{hi} < H and e^{lo} > L, with H, L rationals from mpmath bounds
        H = sp.Rational(str(mpmath.nstr(mpmath.exp(hi), 12))) + sp.Rational(1, 10**6)
        L = sp.Rational(str(mpmath.nstr(mpmath.exp(lo), 12))) - sp.Rational(1, 10**6)
        assert ratio_at_most(f, g, u, Laurent.const(Fraction(str(H))), Laurent.const(1))
        assert not ratio_at_most(f, g, u, Laurent.const(Fraction(str(L))), Laurent.const(1))
    else:
        assert grid <= exact + 1e-12  # the supremum bounds every point
        assert exact - grid < 1e-3  # and the grid comes close to it


def test_left_tail_of_the_maximum_is_n_rates():
    # v -> -oo: f(v) ~ n (rate/2)^... e^{n rate v - rate Σ q_i}: ratio e^{rate Σ(q'_i - q_i)}
    prog = report_noisy_max(sp.Rational(1, 10), noise="laplace")
    ctx, _ = argmax_laws(prog, [(0,)])
    f = max_density(ctx, prog.noise, (0, 0, 0))
    g = max_density(ctx, prog.noise, (1, 1, 1))
    assert sup_log_ratio(f, g, U).value == 3 * sp.Rational(1, 20)


def test_an_interior_maximum_is_reported_and_bounded_exactly():
    # at eps = 3/2 (rate 3/4) the ratio on (1^5) vs (2,2,0,0,0) peaks inside (1, 2)
    a, b = (1, 1, 1, 1, 1), (2, 2, 0, 0, 0)
    prog = report_noisy_max(sp.Rational(3, 2), noise="laplace")
    ctx, _ = argmax_laws(prog, [a])
    u = Fraction(3, 4)
    f, g = max_density(ctx, prog.noise, a), max_density(ctx, prog.noise, b)
    r = sup_log_ratio(f, g, u)
    assert r.interior
    # independent: the grid maximum of the textbook densities lies in (1, 2), above
    # both ends (1 and 2)
    with mpmath.workdps(30):
        vals = [
            (
                mpmath.log(
                    _max_density_num(a, 0.75, v, "laplace")
                    / _max_density_num(b, 0.75, v, "laplace")
                ),
                v,
            )
            for v in [1 + mpmath.mpf(k) / 1000 for k in range(1001)]
        ]
    top, at = max(vals)
    assert 1 < at < 2
    assert float(r.value) <= float(top) + 1e-12
    # an exact bound W^-k = e^{k u} above the grid maximum is certified, one below is not
    k_hi = int(mpmath.ceil(top / 0.75)) + 1
    assert ratio_at_most(f, g, u, Laurent.monomial(-k_hi), Laurent.const(1))
    assert not ratio_at_most(f, g, u, Laurent.const(1), Laurent.const(1))  # ratio 1 < sup


@pytest.mark.parametrize("kind", ["laplace", "exponential"])
def test_max_density_matches_a_seeded_simulation(kind):
    # P(max in [lo, hi)) from the exact density against the noisy maximum simulated
    q = (1, 2, 0, 0, 0)
    noise = laplace(sp.Rational(1, 20)) if kind == "laplace" else exponential(sp.Rational(1, 20))
    prog = report_noisy_max(sp.Rational(1, 10), noise=kind)
    ctx, _ = argmax_laws(prog, [q])
    f = max_density(ctx, prog.noise, q)
    assert f.total() == 1
    rng = random.Random(20260118)
    draw = noise_sampler(noise)
    n = 4000
    sample = [max(qi + draw(rng) for qi in q) for _ in range(n)]
    for lo, hi in [(None, 10), (10, 30), (30, None)]:
        p = f.total_between(lo, hi)
        pl, ph = p.enclosure(U, 80)
        k = sum(1 for x in sample if (lo is None or x >= lo) and (hi is None or x < hi))
        assert binomial_two_sided_pvalue(k, n, (pl + ph) / 2) > ALPHA


def test_exponential_argmax_law_matches_memorylessness():
    # q = (0, 2, 2, 2, 2): P(argmax = 0) = P(E_0 > 2 + max_j E_j) = e^{-2u} P(E_0 > max_j
    # E_j) = e^{-2u}/5 (memorylessness, then symmetry)
    prog = report_noisy_max(sp.Rational(1, 10), noise="exponential")
    _, laws = argmax_laws(prog, [(0, 2, 2, 2, 2)])
    assert laws[(0, 2, 2, 2, 2)][0] == Laurent.monomial(2, Fraction(1, 5))


def _sum_of_two_laplace(ring):
    """The density of ν1 + ν2, ν_i ~ Lap(rate u) independent: (u/4)(1 + u|v|) e^{-u|v|}
    (the convolution of two Laplace densities, by hand), with its v e^{-u|v|} terms."""
    u = ring.u
    c, d = Laurent.const(u / 4), Laurent.const(u * u / 4)
    left = ExpPoly(ring, {(-1, 0): c, (-1, 1): -d})  # v < 0: (u/4)(1 - u v) e^{uv}
    right = ExpPoly(ring, {(1, 0): c, (1, 1): d})  # v >= 0: (u/4)(1 + u v) e^{-uv}
    return PW(ring, (0,), (left, right))


@pytest.mark.parametrize("shift", [1, 2])
def test_a_density_with_v_terms_sum_of_two_laplace(shift):
    # shifting the sum by s shifts one Laplace term: loss at most s u (post-processing of
    # the Laplace mechanism), approached as v -> -oo where the ratio is
    # e^{su} (1 + u|v|)/(1 + u|v| + su) -> e^{su}
    f = _sum_of_two_laplace(RING)
    assert f.total() == 1
    g = f.shifted(-shift)
    r = sup_log_ratio(f, g, U)
    assert r.value == shift * sp.Rational(1, 20) and not r.interior
    assert r.where == "v -> -oo"
    assert ratio_at_most(f, g, U, Laurent.monomial(-shift), Laurent.const(1))
    # any bound below e^{su} fails (the limit is approached)
    assert not ratio_at_most(f, g, U, Laurent.monomial(-shift) * Fraction(999, 1000), _ONE)


_ONE = Laurent.const(1)


def test_the_descartes_transform_is_sympys_expansion():
    """The coefficients of (1+s)^n a((lo + hi s)/(1+s)) that the root bound counts,
    against sympy's expansion of the same polynomial in W and s (random Laurent
    coefficients, denominators that differ from term to term)."""
    from verifier.algorithms.noise.density_ratio import _moebius

    rng = random.Random(7)
    W, s = sp.symbols("W s")

    def laurent() -> Laurent:
        num = {rng.randint(-3, 3): rng.randint(-9, 9) for _ in range(rng.randint(0, 3))}
        return Laurent(num, rng.randint(1, 12))

    def expr(x: Laurent) -> sp.Expr:
        return sp.Add(*(sp.Rational(c, x.den) * W**k for k, c in x.numerators.items()))

    for _ in range(25):
        a = [laurent() for _ in range(rng.randint(1, 6))]
        lo, hi = laurent(), laurent()
        n = len(a) - 1
        full = sp.expand(
            sp.Add(
                *(expr(c) * (expr(lo) + expr(hi) * s) ** k * (1 + s) ** (n - k)
                  for k, c in enumerate(a))
            )
        )  # fmt: skip
        got = _moebius(a, lo, hi)
        assert len(got) == n + 1
        for i, x in enumerate(got):
            assert sp.expand(full.coeff(s, i) - expr(x)) == 0

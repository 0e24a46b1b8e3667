"""Ghazi et al. 2025, the statements of :mod:`casestudies.ghazi2025.theory`: Theorem
12's copies and failure probability against the exact distribution, Theorem 13's
optimiser and checker, the expected runs and Figure 1's moments (against series and
a seeded simulation), and Theorem 16 on finite adversary trees."""

from __future__ import annotations

import random

import mpmath
import pytest
import sympy as sp

from casestudies.ghazi2025 import theory as T
from casestudies.ghazi2025.theory import (
    check_theorem16,
    expected_runs,
    figure1_data,
    optimal_ell,
    papernot_steinke_moments,
    theorem11_run_moments,
    theorem12_copies,
    theorem12_failure,
    theorem13_objective,
)
from verifier.algorithms.ghazi import BOTTOM, hyperparameter_tuning
from verifier.algorithms.ghazi_filter import AdversaryNode, check_node_claims, random_adversary
from verifier.arithmetic.exact import Verdict, approx, decide_eq, decide_le, enclose
from verifier.checks.certified import certified_ceil
from verifier.checks.privacy import check_ex_post_rdp
from verifier.mechanism.instances import randomized_response

from ...algorithms.ghazi_sampling import MS3, geom

R = sp.Rational
L = sp.log


# ---------------------------------------------------------------------------
# Theorem 12, Theorem 13's optimiser, Figure 1
# ---------------------------------------------------------------------------


def test_theorem12_copies_exact():
    # 10 * 200^2 * ln 200 = 2119326.95 -> 2119327 ; 10 * 20 * ln 20 = 599.15 -> 600
    assert theorem12_copies(R(1, 10), R(1, 100), R(1, 5), R(1, 10)) == 2119327
    assert theorem12_copies(R(1, 10), R(1, 10), 1, 1) == 600
    assert certified_ceil(R(7, 2)) == 4 and certified_ceil(sp.sqrt(2) ** 2) == 2


def test_theorem12_failure_matches_exact_distribution():
    ms = MS3[:2]
    eps, ep, T = [L(2), L(3)], L(R(5, 4)), [3, 2]
    A = hyperparameter_tuning(ms, eps, ep, copies=T)
    for d in A.datasets:
        for o_star in (1, 2):
            s = theorem12_failure(ms, eps, ep, T, d, o_star)
            # output < (o*, 0): ⊥ or a score below o*
            exact_fail = A.p(d, BOTTOM) + sum(
                A.p(d, o) for o in A.outputs if o != BOTTOM and o[0] < o_star
            )
            v = enclose(exact_fail, 100)
            assert s.enclosure.lo <= v.hi and v.lo <= s.enclosure.hi


def test_optimal_ell_is_a_minimiser():
    a, ep = R(2), R(1, 100)
    eps = [R(1, 10)] * 4
    ell = optimal_ell(0, eps, ep, a)
    # g'(ell) = 0 exactly for the closed form
    dg = eps[0] + ep - a / (a - 1) * 3 * eps[0] * sp.exp(-eps[0] * (1 + a * ell))
    assert decide_eq(dg, 0) is Verdict.HOLDS
    # distinct budgets: a rational from certified bisection; no better value nearby
    eps = [R(1, 10), R(1, 5), R(1, 20), R(3, 10)]
    ell = optimal_ell(0, eps, ep, a)
    assert ell.is_Rational and ell > 0
    f = theorem13_objective
    for delta_ in (R(1, 100), R(1, 10)):
        assert (
            decide_le(f(0, ell, eps, ep, a), f(0, ell + delta_, eps, ep, a)).verdict
            is Verdict.HOLDS
        )
        assert (
            decide_le(f(0, ell, eps, ep, a), f(0, ell - delta_, eps, ep, a)).verdict
            is Verdict.HOLDS
        )
    assert optimal_ell(0, [1, 1], 1, 2) == 0


@pytest.mark.parametrize("budgets", ["rational", "logarithmic"])
def test_optimal_ell_bisection_brackets_the_root_of_the_exact_derivative(budgets):
    """With distinct budgets the minimiser comes from bisection, whose signs of ``g'``
    are taken from 64-bit intervals (of the budgets' certified enclosures when they are
    not rational) when they exclude 0: the result is the bisection's own (``hi`` within
    ``2^-40`` of ``lo``), and the exact ``g'`` is certified negative at ``hi - 2^-40``
    and non-negative at ``hi``."""
    from verifier.arithmetic.exact import Sign, decide_sign

    rng = random.Random(20261128)
    tol = R(1, 2**40)
    bisected = 0
    for _ in range(12):
        d = rng.randint(2, 4)
        if budgets == "rational":
            eps = [R(rng.randint(1, 30), rng.choice([10, 20, 100])) for _ in range(d)]
            ep = R(rng.randint(1, 20), 100)
        else:  # eps = log(b) with b in (1, 5]: budgets given as likelihood-ratio bounds
            eps = [sp.log(R(rng.randint(11, 50), 10)) for _ in range(d)]
            ep = sp.log(R(rng.randint(101, 120), 100))
        a = rng.choice([R(2), R(3), R(5, 2), R(8)])
        for i in range(d):
            ell = optimal_ell(i, eps, ep, a)
            others = [(e, 1) for j, e in enumerate(eps) if j != i]
            if ell == 0 or len({e for e, _ in others}) == 1:
                continue
            bisected += 1

            def dg(x, others=others, i=i, eps=eps, ep=ep, a=a):
                s = sp.Add(*(t * e * sp.exp(-e * (1 + a * x)) for e, t in others))
                return eps[i] + ep - a / (a - 1) * s

            assert ell.is_Rational
            assert decide_sign(dg(ell)).sign in (Sign.POSITIVE, Sign.ZERO)
            assert decide_sign(dg(ell - tol)).sign is Sign.NEGATIVE
    assert bisected >= 10


def test_expected_runs():
    assert expected_runs([1, 3], 1) == [R(1, 2), R(1, 4)]
    assert expected_runs([L(2)], L(2), prior="geometric") == [R(2, 3)]


def test_figure1_moments_against_series_and_simulation():
    # Papernot-Steinke with eta = 2: P[K=k] ∝ (k+1)(1-g)^k for k >= 1.  By hand, with
    # r = 1 - g = 2/3: Σ_{k>=1} (k+1) r^k = 1/(1-r)^2 - 1 = 8; Σ k r^k = r/(1-r)^2 = 6,
    # Σ k^2 r^k = r(1+r)/(1-r)^3 = 30, Σ k^3 r^k = r(1+4r+r^2)/(1-r)^4 = 222, so
    # E[K] = (30 + 6)/8 = 9/2 and E[K^2] = (222 + 30)/8 = 63/2: Var = 63/2 - 81/4 = 45/4.
    mean, std = papernot_steinke_moments(R(1, 3), 2)
    assert mean == R(9, 2) and sp.simplify(std**2 - R(45, 4)) == 0
    # eta = 1/10 against a float series (display-level check of the formula)
    eta, gam = 0.1, 0.05
    terms = [mpmath.binomial(j + eta - 1, j) * (1 - gam) ** j for j in range(1, 4000)]
    zf = sum(terms)
    mf = sum(j * t for j, t in enumerate(terms, start=1)) / zf
    mean, _ = papernot_steinke_moments(R(1, 20), R(1, 10))
    assert abs(approx(mean) - float(mf)) < 1e-6
    # Theorem 11's runs: simulate N | k ~ Binomial(d, x^k), k ~ Geom
    rng = random.Random(17)
    d, eps, ep = 30, L(2), L(R(5, 4))
    mean, std = theorem11_run_moments(d, eps, ep)
    xs, pp = 0.5, 0.8
    n = 20000
    samples = []
    for _ in range(n):
        kk = geom(rng, pp)
        samples.append(sum(rng.random() < xs**kk for _ in range(d)))
    mu = sum(samples) / n
    sd = (sum((s - mu) ** 2 for s in samples) / n) ** 0.5
    assert abs(mu - approx(mean)) < 4 * approx(std) / n**0.5
    assert abs(sd - approx(std)) / approx(std) < 0.03
    data = figure1_data(ds=(10, 100, 1000), gammas=(R(1, 2), R(1, 100)))
    means = [p.mean_float for p in data["theorem11"]]
    assert means == sorted(means) and 90 < means[-1] < 100
    assert all(p.std_float > 0 for p in data["papernot_steinke"])


def test_theorem13_checker_runs_on_copies():
    ms = [randomized_response(L(2)), randomized_response(L(3), datasets=("D'", "D"))]
    from verifier.checks.privacy import rdp_epsilon

    eps = [rdp_epsilon(m, alpha=2).value for m in ms]
    A = hyperparameter_tuning(ms, eps, R(1, 10), prior="exponential", copies=[4, 3])
    b = T.theorem13_bound(eps, R(1, 10), 2, copies=[4, 3])
    assert check_ex_post_rdp(A, epsilon_tilde=b, alpha=2).holds
    ells = [optimal_ell(i, eps, R(1, 10), 2, [4, 3]) for i in range(2)]
    assert all(decide_le(0, e).verdict is Verdict.HOLDS for e in ells)
    assert any(approx(e) > 0 for e in ells)


# ---------------------------------------------------------------------------
# Theorem 16 (the filter of Algorithm 4)
# ---------------------------------------------------------------------------


def test_false_node_claims_make_the_theorem_vacuous():
    P, Q = {0: R(3, 4), 1: R(1, 4)}, {0: R(1, 4), 1: R(3, 4)}
    bad = AdversaryNode(P, Q, R(1, 10))  # D_2 = log(7/3) > 1/10: Def 6 fails
    assert check_node_claims(bad, 2).violated
    r = check_theorem16(bad, 2, R(1, 10))
    assert r.holds and any("vacuous" in n for n in r.notes)


def test_random_adversaries_satisfy_theorem16():
    for seed in range(3):
        for claims in ("pointwise", "renyi"):
            root = random_adversary(seed, depth=2, outputs=3, claims=claims)
            assert check_node_claims(root, 2).holds
            for budget in (R(1, 3), R(1), R(3)):
                assert check_theorem16(root, 2, budget).holds

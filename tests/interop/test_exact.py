"""The exact columns of ``verifier compare`` against independent closed forms and a
seeded simulation (no dp_accounting needed)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import sympy as sp

from verifier.algorithms.ghazi import hyperparameter_tuning
from verifier.algorithms.liu_talwar import SCORES
from verifier.algorithms.repeat_select import count_pmf, repeat_and_select
from verifier.arithmetic.exact import Verdict, decide_eq, decide_le
from verifier.checks.privacy import hockey_stick, pure_epsilon
from verifier.interop.compare import compare
from verifier.interop.exact import epsilon_for_delta, exact_float, pair_epsilon_for_delta
from verifier.mechanism.instances import randomized_response

R = sp.Rational
DELTA = R(1, 10**6)


def random_stopping_pure_epsilon(r: sp.Expr, g: sp.Expr) -> sp.Expr:
    """Random stopping (Liu & Talwar 2019, Thm 3.2) on randomized response with
    ``e^{ε0} = r``, derived here by hand: output 0 (the lower) needs every run to give
    0, so ``P(0) = Σ_k γ(1-γ)^{k-1} q^k = γq/(1-(1-γ)q)`` with ``q = 1/(1+r)`` at ``D``
    and ``r/(1+r)`` at ``D'``; the worst ratio is at output 0:
    ``ε = log(r (r + γ) / (1 + γ r))``."""
    return sp.log(r * (r + g) / (1 + g * r))


@pytest.mark.parametrize("mean", [10, 100, 1000, R(7, 2)])
def test_random_stopping_pure_epsilon_is_the_closed_form(mean):
    g = 1 / sp.Integer(mean) if isinstance(mean, int) else 1 / mean
    A = repeat_and_select(randomized_response(sp.log(3)), "geometric", mean, SCORES["self"])
    value = epsilon_for_delta(A, delta=0).value
    assert decide_eq(value, random_stopping_pure_epsilon(sp.Integer(3), g)) is Verdict.HOLDS
    assert decide_eq(value, pure_epsilon(A).value) is Verdict.HOLDS


def test_the_issue_table_exact_column():
    # log(93/13), log(903/103), log(9003/1003): 1.968 / 2.171 / 2.195
    c = compare(accountants=False)
    assert [row.exact_pure for row in c.rows] == [
        sp.log(R(93, 13)),
        sp.log(R(903, 103)),
        sp.log(R(9003, 1003)),
    ]
    assert [round(float(row.exact_pure), 3) for row in c.rows] == [1.968, 2.171, 2.195]


@pytest.mark.parametrize("mean", [10, 1000])
def test_random_stopping_epsilon_at_delta_is_the_closed_form(mean):
    """Each ordered pair has one output with ratio > 1 (output 0 for (D', D), output
    1 for (D, D')), so ε(δ) = log((P(o) - δ)/Q(o)) there; the larger of the two."""
    g = R(1, mean)
    p0 = {"D": g / (3 + g), "D'": 3 * g / (1 + 3 * g)}  # P(0), closed forms above
    p1 = {"D": 3 / (3 + g), "D'": 1 / (1 + 3 * g)}  # P(1): every run... its own form
    cands = [sp.log((p0["D'"] - DELTA) / p0["D"]), sp.log((p1["D"] - DELTA) / p1["D'"])]
    A = repeat_and_select(randomized_response(sp.log(3)), "geometric", mean, SCORES["self"])
    value = epsilon_for_delta(A, delta=DELTA).value
    assert value == cands[0]  # output 0 dominates: (r + γ)^2 >= (1 + γr)^2
    assert float(cands[0]) > float(cands[1])
    # the defining property: δ(ε(δ)) <= δ for both ordered pairs, = δ for (D', D)
    for d, d2 in (("D'", "D"), ("D", "D'")):
        hs = hockey_stick(A.distribution(d), A.distribution(d2), value)
        assert decide_le(hs, DELTA).verdict is Verdict.HOLDS
    assert decide_eq(hockey_stick(A.distribution("D'"), A.distribution("D"), value), DELTA) is (
        Verdict.HOLDS
    )


def test_random_stopping_matches_a_seeded_simulation():
    g, r = R(1, 10), 3
    gf = float(g)
    rng = random.Random(20261124)
    n = 200_000
    for d, p_one in (("D", 0.75), ("D'", 0.25)):  # P(1) of randomized response
        zeros = 0
        for _ in range(n):
            best = 0
            while True:
                best = max(best, 1 if rng.random() < p_one else 0)
                if rng.random() < gf:
                    break
            zeros += best == 0
        exact = float(g / (r + g)) if d == "D" else float(r * g / (1 + g * r))
        se = (exact * (1 - exact) / n) ** 0.5
        assert abs(zeros / n - exact) < 5 * se, (d, zeros / n, exact)


def test_poisson_repeat_and_select_matches_its_pgf_and_a_simulation():
    mu = 3
    A = repeat_and_select(randomized_response(sp.log(3)), "poisson", mu, SCORES["self"])
    # P(best <= o) = G(F(o)) with G(s) = exp(mu (s - 1)): check against the pmf sum
    for d, q in (("D", R(1, 4)), ("D'", R(3, 4))):
        f0 = sum(count_pmf("poisson", mu, k) * q**k for k in range(1, 60))  # K >= 1, all 0
        assert abs(float(A.p(d, 0)) - float(f0)) < 1e-12
        assert sp.simplify(sum(A.p(d, o) for o in A.outputs) - 1) == 0
    rng = random.Random(7)
    n, zeros = 100_000, 0
    for _ in range(n):
        k, t, lim = 0, 1.0, pow(2.718281828459045, -mu)  # Knuth's Poisson sampler
        while True:
            t *= rng.random()
            if t <= lim:
                break
            k += 1
        zeros += k > 0 and all(rng.random() >= 0.75 for _ in range(k))
    exact = float(A.p("D", 0))
    assert abs(zeros / n - exact) < 5 * (exact * (1 - exact) / n) ** 0.5


def _alg3_one_mechanism(q1: Fraction, T: int, x: Fraction, pp: Fraction) -> dict[str, Fraction]:
    """Ghazi et al. 2025, Algorithm 3 with one binary mechanism (``Q(1) = q1``) in T
    copies and the prior Geom_{p'}: by hand, ``A(o) = E_k[(1 - x^k Q(>o))^T - (1 - x^k
    Q(>=o))^T]`` expanded binomially, ``E_k[x^{tk}] = (1 - p')/(1 - p' x^t)``."""

    def moment(t: int) -> Fraction:
        return (1 - pp) / (1 - pp * x**t)

    def e_pow(s: Fraction) -> Fraction:  # E_k[(1 - x^k s)^T]
        from math import comb

        return sum(comb(T, t) * (-s) ** t * moment(t) for t in range(T + 1))

    return {"bottom": e_pow(Fraction(1)), "1": 1 - e_pow(q1), "0": e_pow(q1) - e_pow(Fraction(1))}


@pytest.mark.parametrize("T", [1, 2, 20])
def test_ghazi_algorithm3_column_is_the_closed_form(T):
    x, pp = Fraction(1, 3), Fraction(3, 5)  # eps_1 = log 3, eps' = log(5/3)
    rr = randomized_response(sp.log(3))
    A = hyperparameter_tuning([rr], [sp.log(3)], sp.log(R(5, 3)), copies=[T])
    hand = {
        d: _alg3_one_mechanism(q, T, x, pp)
        for d, q in (("D", Fraction(3, 4)), ("D'", Fraction(1, 4)))
    }
    for d in ("D", "D'"):
        assert A.p(d, (1, 1)) == R(hand[d]["1"]) and A.p(d, (0, 1)) == R(hand[d]["0"])
    ratio = max(hand["D"][o] / hand["D'"][o] for o in ("0", "1"))
    ratio = max(ratio, *(hand["D'"][o] / hand["D"][o] for o in ("0", "1")))
    value = epsilon_for_delta(A, delta=0).value
    assert value == sp.log(R(ratio))


def test_pair_epsilon_for_delta_edge_cases():
    P, Q = {0: R(1, 2), 1: R(1, 2)}, {0: R(1, 2), 1: R(1, 2)}
    assert pair_epsilon_for_delta(P, Q, 0) == 0
    P2, Q2 = {0: R(1, 10), 1: R(9, 10)}, {1: 1}
    assert pair_epsilon_for_delta(P2, Q2, R(1, 20)) is sp.oo  # mass 1/10 with no counterpart
    assert pair_epsilon_for_delta(P2, Q2, R(1, 10)) == 0
    with pytest.raises(Exception, match="delta"):
        pair_epsilon_for_delta(P, Q, 2)


def test_exact_float_is_the_binary_value():
    assert exact_float(0.75) == R(3, 4)
    assert exact_float(0.1) == R(3602879701896397, 36028797018963968)

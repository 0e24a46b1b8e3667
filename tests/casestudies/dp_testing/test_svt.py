"""The sparse vector family of the DP testing suite: every exact ε cross-checked
independently — by quadrature of the integral over the threshold noise (Lyu, Su, Li
2017, proof of Theorem 2) at the witness, by hand-derived closed forms and limits,
and by seeded simulations of the algorithms as the tools run them (real Laplace
noise, numpy) against the exact output probabilities."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from casestudies.dp_testing import svt
from casestudies.dp_testing.svt import (
    DPSNIPER_PAIRS,
    STATDP_PAIRS,
    count_false,
    exact_on_pairs,
    hamming,
)
from verifier.algorithms.noise import BOT, TOP, answer_sequence_laws, lyu_svt, numerical_svt
from verifier.algorithms.noise.samplers import binomial_two_sided_pvalue, chi_square_pvalue
from verifier.arithmetic.exact import approx

R = sp.Rational
ALPHA = 1e-4
ENTRY = {e.name: e for e in svt.ENTRIES}
ONES = tuple(Fraction(1) for _ in range(10))
HALF = tuple(Fraction(x) for x in [2] * 5 + [0] * 5)


def _float(p, u) -> float:
    lo, _ = p.enclosure(u, 80)
    return float(lo)


# ---------------------------------------------------------------------------
# quadrature of the threshold-noise integral (independent of the closed forms)
# ---------------------------------------------------------------------------


def _lap_cdf(rate, x):
    """P(nu < x), nu ~ Laplace(rate)."""
    return 1 - mpmath.exp(-rate * x) / 2 if x >= 0 else mpmath.exp(rate * x) / 2


def _quad_probability(rho_rate, nu_rate, t, q, answers) -> mpmath.mpf:
    """P(answer sequence) = ∫ f_ρ(r) Π_i P(answer_i | ρ = r) dr by numerical
    quadrature, split at every kink."""

    def integrand(r):
        f = rho_rate / 2 * mpmath.exp(-rho_rate * abs(r))
        for qi, a in zip(q, answers, strict=False):
            below = _lap_cdf(nu_rate, t + r - qi)
            f *= below if a == BOT else 1 - below
        return f

    kinks = sorted({0.0} | {float(qi - t) for qi in q})
    with mpmath.workdps(30):
        return mpmath.quad(integrand, [-mpmath.inf, *kinks, mpmath.inf])


@pytest.mark.parametrize(
    "name, rho, nu, t",
    [
        ("sparse_vector_technique1", R(1, 20), R(1, 40), R(1, 2)),  # eps/2, eps/(4c)
        ("sparse_vector_technique4", R(1, 40), R(3, 40), 1),  # eps/4, 3eps/4
        ("statdp_svt", R(7, 20), R(7, 40), R(1, 2)),  # eps/2, eps/(4N) at eps = 0.7
    ],
)
def test_the_witness_matches_quadrature(name, rho, nu, t):
    ex = ENTRY[name].exact()
    assert ex.witness.startswith("(1,1,1,1,1,1,1,1,1,1) vs (2,2,2,2,2,0,0,0,0,0)")
    # the witness output: BOT^5 TOP (count_false = 5 for StatDP's SVT)
    seq = (BOT,) * 5 + (TOP,)
    p = _quad_probability(float(rho), float(nu), float(t), [1] * 10, seq)
    q = _quad_probability(float(rho), float(nu), float(t), [2] * 5 + [0] * 5, seq)
    assert abs(float(mpmath.log(p / q)) - approx(ex.value)) < 1e-12


def test_isvt3_hamming_witness_matches_quadrature():
    # StatDP iSVT3 at eps = 0.7: rho ~ Lap(4/eps), nu ~ Lap(4/(3 eps)); the output
    # "Hamming distance 10" collects every answer sequence at that distance.
    ex = ENTRY["statdp_isvt3"].exact()
    assert ex.witness.endswith("output 10")
    seqs = [(BOT,) * k + (TOP,) for k in range(10)] + [(BOT,) * 10]
    hit = [s for s in seqs if hamming(s, 10) == 10]
    rates = (0.7 / 4, 3 * 0.7 / 4)
    p = sum(_quad_probability(*rates, 1.0, [1] * 10, s) for s in hit)
    q = sum(_quad_probability(*rates, 1.0, [2] * 5 + [0] * 5, s) for s in hit)
    assert abs(float(mpmath.log(p / q)) - approx(ex.value)) < 1e-12


# ---------------------------------------------------------------------------
# closed forms and limits derived by hand
# ---------------------------------------------------------------------------


def test_alg5_is_infinite_on_a_one_below_pair():
    # (0, 1^9) vs 1^10, T = 1: BOT TOP^9 needs 0 < 1 + rho <= 1, i.e. -1 < rho <= 0:
    # probability (1 - e^{-1/20})/2 under rho ~ Lap(20), and 0 on 1^10 (where the
    # first answer is TOP whenever the others are).
    ex = ENTRY["sparse_vector_technique5"].exact()
    assert ex.value is sp.oo
    prog = lyu_svt(5, svt.EPS, noise="laplace", threshold=1)
    a = (Fraction(0),) + ONES[1:]
    ctx, laws = answer_sequence_laws(prog, [a, ONES])
    seq = (BOT,) + (TOP,) * 9
    assert sp.simplify(laws[a][seq].to_sympy(ctx.u) - (1 - sp.exp(-R(1, 20))) / 2) == 0
    assert laws[ONES].get(seq, 0) == 0


def test_statdp_ran_isvt1_at_half_the_budget_another_mechanism():
    # DP-Sniper's wrapper registers iSVT1 with epsilon = 0.05: rho ~ Lap(2/0.05) =
    # Lap(40), not SparseVectorTechnique5's Lap(1/(0.1/2)) = Lap(20).  The same pair and
    # answer: P(-1 < rho <= 0) = (1 - e^{-1/40})/2 on (0, 1^9), 0 on 1^10.
    entry = ENTRY["sparse_vector_technique5"]
    assert svt.SVT5_STATDP_EPS == R(1, 20) and entry.statdp_exact is not None
    run = entry.statdp_exact()
    assert run.value is sp.oo
    assert run.witness.startswith("(0,1,1,1,1,1,1,1,1,1) vs (1,1,1,1,1,1,1,1,1,1)")
    p, q = run.at_witness
    assert sp.simplify(p - (1 - sp.exp(-R(1, 40))) / 2) == 0 and q == 0
    assert "Lap(40)" in entry.statdp_note and "Lap(20)" in entry.statdp_note
    # the witness the entry's notes name is DP-Sniper's first pair swapped
    assert ((Fraction(0),) + ONES[1:], ONES) in DPSNIPER_PAIRS
    assert "(0, 1^9) vs (1^10)" in entry.notes


def test_svt34_note_states_alg3s_loss_as_5_eps_over_2():
    # u = eps/(2c) = eps/4 with c = 2: ten answers cost 10 u = 5 eps/2
    note = ENTRY["svt34_parallel"].notes
    assert "10 u = 5 eps/2 > eps" in note and "eps/4 > eps" not in note


def test_alg2_with_one_answer_is_alg1():
    for t in (1, R(1, 2)):
        a = answer_sequence_laws(lyu_svt(2, svt.EPS, 1, noise="laplace", threshold=t), [HALF])
        b = answer_sequence_laws(lyu_svt(1, svt.EPS, 1, noise="laplace", threshold=t), [HALF])
        assert a[1] == b[1]


def test_alg1_holds_and_alg4_stays_below_its_limit():
    eps = svt.EPS
    e1 = approx(ENTRY["sparse_vector_technique1"].exact().value)
    e4 = approx(ENTRY["sparse_vector_technique4"].exact().value)
    assert 0 < e1 <= float(eps)
    # Lyu et al.'s (1+6c)/4 eps = 7 eps/4 is the supremum over all query lengths
    assert float(eps) < e4 < 7 * float(eps) / 4


def test_numerical_svt_adds_the_release_supremum():
    # the loss of the witness sequence = that of its answer sequence + eta * sum |dq|
    ex = ENTRY["numerical_svt"].exact()
    prog = numerical_svt(svt.EPS, 2, noise="laplace", threshold=1)
    bits = exact_on_pairs(prog, [(ONES, HALF)])  # the answer sequence alone
    assert sp.simplify(ex.value - bits.value) == R(1, 30)  # eta (|2-1| + |0-1|)
    ctx, laws = answer_sequence_laws(prog, [ONES, HALF])
    seq = (BOT,) * 5 + (TOP, TOP)
    loss_bits = sp.log(laws[ONES][seq].to_sympy(ctx.u) / laws[HALF][seq].to_sympy(ctx.u))
    eta = svt.EPS / 6  # Lap(3c/eps), c = 2
    assert abs(approx(loss_bits + 2 * eta) - approx(ex.value)) < 1e-12


# ---------------------------------------------------------------------------
# seeded simulations of the algorithms as the tools run them
# ---------------------------------------------------------------------------

N_SIM = 200_000


def _svt_runs(rng, q, rho_scale, nu_scale, t, cutoff, strict=False):
    """Answer sequences of SVT: rho ~ Lap(rho_scale), nu_i ~ Lap(nu_scale) (numpy's
    scale parameter), answer TOP when q_i + nu_i >= T + rho (> when strict), stop
    after ``cutoff`` TOPs (None: never)."""
    q = np.asarray(q, dtype=float)
    rho = rng.laplace(scale=rho_scale, size=(N_SIM, 1))
    nu = rng.laplace(scale=nu_scale, size=(N_SIM, len(q))) if nu_scale else 0.0
    above = (q + nu > t + rho) if strict else (q + nu >= t + rho)
    out = []
    for row in above:
        seq = []
        tops = 0
        for a in row:
            seq.append(TOP if a else BOT)
            tops += bool(a)
            if cutoff is not None and tops == cutoff:
                break
        out.append(tuple(seq))
    return out


def _compare(prog, q, runs, post=None):
    ctx, laws = answer_sequence_laws(prog, [q])
    u = Fraction(int(ctx.u.p), int(ctx.u.q))
    n = len(q)
    probs: dict = {}
    for seq, p in laws[tuple(Fraction(x) for x in q)].items():
        key = seq if post is None else post(seq, n)
        probs[key] = probs.get(key, 0.0) + _float(p, u)
    counts = Counter(runs if post is None else (post(s, n) for s in runs))
    return chi_square_pvalue(counts, {k: sp.Float(v) for k, v in probs.items()}, N_SIM)


@pytest.mark.parametrize("q", [ONES, HALF])
def test_svt1_simulation(q):
    rng = np.random.default_rng(18)
    runs = _svt_runs(rng, q, 20, 40, 0.5, 1)  # SparseVectorTechnique1(c=1, t=0.5)
    prog = lyu_svt(1, svt.EPS, 1, noise="laplace", threshold=R(1, 2))
    assert _compare(prog, q, runs) > ALPHA


def test_svt4_simulation():
    rng = np.random.default_rng(4)
    runs = _svt_runs(rng, HALF, 40, 40 / 3, 1, 1)  # eps1 = eps/4, nu ~ Lap(1/eps2)
    prog = lyu_svt(4, svt.EPS, 1, noise="laplace", threshold=1)
    assert _compare(prog, HALF, runs) > ALPHA


def test_svt6_simulation():
    rng = np.random.default_rng(6)
    runs = _svt_runs(rng, HALF, 20, 20, 1, None)
    prog = lyu_svt(6, svt.EPS, noise="laplace", threshold=1)
    assert _compare(prog, HALF, runs) > ALPHA


def test_numerical_svt_simulation():
    # NumericalSVT(): rho1 ~ Lap(3/eps), rho2 ~ Lap(6c/eps), c = 2
    rng = np.random.default_rng(2)
    runs = _svt_runs(rng, HALF, 30, 120, 1, 2)
    prog = numerical_svt(svt.EPS, 2, noise="laplace", threshold=1)
    assert _compare(prog, HALF, runs) > ALPHA


def test_numerical_svt_release_is_independent_of_the_answers():
    # the released value at a TOP is q_i + xi, xi ~ Lap(3c/eps) = Lap(60), whatever the
    # answers: P(z > q_i | TOP) = 1/2 and P(z > q_i + 60 | TOP) = e^{-1}/2
    rng = np.random.default_rng(3)
    q = np.asarray(HALF, dtype=float)
    rho = rng.laplace(scale=30, size=(N_SIM, 1))
    above = q + rng.laplace(scale=120, size=(N_SIM, 10)) >= 1 + rho
    z = q + rng.laplace(scale=60, size=(N_SIM, 10))
    first = above.argmax(axis=1)
    hit = above.any(axis=1)
    rel = z[np.arange(N_SIM), first][hit] - q[first[hit]]
    k = int((rel > 60).sum())
    p_above = Fraction(math.exp(-1) / 2)  # a test statistic, not a verdict
    assert binomial_two_sided_pvalue(k, len(rel), p_above) > ALPHA


@pytest.mark.parametrize(
    "name, k, rho, nu, post, strict",
    [
        ("statdp_svt", 1, 2 / 0.7, 4 / 0.7, count_false, False),
        ("statdp_isvt2", 6, 2 / 0.7, 2 / 0.7, hamming, False),
        ("statdp_isvt3", 4, 4 / 0.7, 4 / (3 * 0.7), hamming, True),
    ],
)
def test_statdp_simulation(name, k, rho, nu, post, strict):
    t = 0.5 if name == "statdp_svt" else 1
    cutoff = None if k == 6 else 1
    q = tuple(Fraction(x) for x in [1, 1, 1, 1, 1])
    rng = np.random.default_rng(7)
    runs = _svt_runs(rng, q, rho, nu, t, cutoff, strict)
    prog = lyu_svt(k, R(7, 10), 1, noise="laplace", threshold=R(t).limit_denominator())
    assert _compare(prog, q, runs, post) > ALPHA


def test_pairs():
    assert len(DPSNIPER_PAIRS) == 16 and len(STATDP_PAIRS) == 32

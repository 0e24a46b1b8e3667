"""Talwar 2025, the oracle algorithms (:mod:`verifier.algorithms.talwar`): exact
distributions, calls and failure probabilities against seeded simulations, the CDF
transforms, the families meeting gamma, and the transformer registry."""

from __future__ import annotations

import random
from collections import Counter

import pytest
import sympy as sp

from verifier.algorithms import get_transformer
from verifier.algorithms.talwar import (
    a_lt,
    a_max,
    failure_probability,
    hybrid,
    max_of_runs,
    metaselection_algorithms,
    repetition_algorithms,
)
from verifier.checks.certified import check_eq
from verifier.errors import InvalidParameter
from verifier.mechanism.instances import random_mechanism, randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

from .sampling import check_sampler, chi2_pvalue, draw, float_dist, rank_key

R = sp.Rational
M = random_mechanism(pair(), 4, seed=31, name="M")


def sample_max(Md, T, key, rng):
    return max((draw(Md, rng) for _ in range(T)), key=key)


def sample_lt(Md, g, key, rng):
    best, calls = None, 0
    while True:
        calls += 1
        o = draw(Md, rng)
        if best is None or key(o) > key(best):
            best = o
        if rng.random() < g:
            return best, calls


def sample_hybrid(Md, g_inner, c, key, rng):
    runs = [sample_lt(Md, g_inner, key, rng) for _ in range(c)]
    return max((o for o, _ in runs), key=key), sum(n for _, n in runs)


def test_max_of_runs_matches_simulation():
    A = max_of_runs(M, 3)
    Md, key = float_dist(M, "D"), rank_key(M)
    check_sampler(A, "D", lambda rng: sample_max(Md, 3, key, rng), wrong=max_of_runs(M, 2))


def test_max_of_runs_symbolic_probabilities_equal_cdf_difference():
    rr = randomized_response(R(1, 2))
    A = max_of_runs(rr, 4)  # non-rational: the factored form p * sum F^i F-^(T-1-i)
    for d in rr.datasets:
        lo = rr.p(d, 0)
        assert check_eq(A.p(d, 0), lo**4).holds
        assert check_eq(A.p(d, 1), 1 - lo**4).holds


@pytest.mark.parametrize("c", [2, 3])
def test_hybrid_distribution_and_calls_match_simulation(c):
    gamma = R(1, 64) if c == 2 else R(1, 27)
    alg = hybrid(gamma, c)
    g_inner = float(alg.params["inner_gamma"])  # 1/8 resp. 1/3
    A = alg.apply(M)
    Md, key = float_dist(M, "D'"), rank_key(M)
    rng = random.Random(3)
    n = 20000
    runs = [sample_hybrid(Md, g_inner, c, key, rng) for _ in range(n)]
    counts = Counter(o for o, _ in runs)
    assert chi2_pvalue(counts, float_dist(A, "D'"), n) > 1e-3
    wrong = max_of_runs(a_lt(gamma).apply(M), c)  # inner gamma not rooted
    assert chi2_pvalue(counts, float_dist(wrong, "D'"), n) < 1e-6
    calls = [k for _, k in runs]
    mean = sum(calls) / n
    sd = (c * (1 - g_inner) / g_inner**2 / n) ** 0.5  # c geometric counts
    assert alg.expected_calls == c / alg.params["inner_gamma"]
    assert abs(mean - float(alg.expected_calls)) < 4 * sd


def test_metaselection_hybrid_calls_match_simulation():
    K, c, gamma = 3, 2, R(1, 36)
    alg = hybrid(gamma, c, K)
    assert alg.params["inner_gamma"] == R(1, 18) and alg.expected_calls == 36
    rng = random.Random(4)
    Md, key = float_dist(M, "D"), rank_key(M)
    n = 6000
    calls = [sample_hybrid(Md, 1 / 18, c, key, rng)[1] for _ in range(n)]
    sd = (c * (1 - 1 / 18) * 18**2 / n) ** 0.5
    assert abs(sum(calls) / n - 36) < 4 * sd


def test_cdf_transform_matches_output_distribution():
    for alg in [a_max(3), a_lt(R(1, 5)), hybrid(R(1, 9), 2), hybrid(R(1, 100), 2, 4)]:
        A = alg.apply(M)
        rk = rank_key(M)
        for d in M.datasets:
            for x in M.outputs:
                F = sum((M.p(d, o) for o in M.outputs if rk(o) <= rk(x)), sp.Integer(0))
                G = sum((M.p(d, o) for o in M.outputs if rk(o) > rk(x)), sp.Integer(0))
                phi, up = alg.cdf(F, G)
                got = sum((A.p(d, o) for o in M.outputs if rk(o) <= rk(x)), sp.Integer(0))
                assert sp.nsimplify(phi - got) == 0 and sp.nsimplify(up + got - 1) == 0


def test_failure_bound_is_attained_and_holds():
    # Pr[v >= median] = 1/2 exactly: the worst case of every algorithm
    B = FiniteMechanism(pair(), {"D": {0: R(1, 2), 1: R(1, 2)}, "D'": {0: R(1, 3), 1: R(2, 3)}})
    for alg in repetition_algorithms(R(1, 1000), (2, 3)):
        A = alg.apply(B)
        assert failure_probability(A, B, "D") == alg.failure_bound
        assert failure_probability(A, B, "D'") <= alg.failure_bound <= R(1, 1000)


def test_metaselection_families_meet_gamma():
    for alg in metaselection_algorithms(R(1, 10**6), 5, (2, 4)):
        assert alg.quantile == R(1, 5)
        assert alg.failure_bound <= R(1, 10**6)
    assert metaselection_algorithms(R(1, 100), 4, ())[0].params["T"] == 19  # ceil(4 ln 100)


def test_talwar_transformers_registered():
    got = get_transformer("talwar_hybrid").apply([M], {"gamma": "1/100", "c": 2})
    assert got.distribution("D") == hybrid(R(1, 100), 2).apply(M).distribution("D")
    got = get_transformer("talwar_max_of_runs").apply([M], {"T": 3})
    assert got.distribution("D'") == max_of_runs(M, 3).distribution("D'")


def test_bad_algorithm_parameters():
    with pytest.raises(InvalidParameter):
        hybrid(R(1, 2), 0)
    with pytest.raises(InvalidParameter):
        a_max(0)
    with pytest.raises(InvalidParameter):
        metaselection_algorithms(R(1, 10), 1)
    with pytest.raises(InvalidParameter):
        a_lt(R(1, 2), quantile=2)

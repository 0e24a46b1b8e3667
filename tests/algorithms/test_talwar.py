"""Talwar 2025: oracle algorithms (exact distributions, calls and failure
probabilities against seeded simulations), the extension lemma, the lumped
lower-bound instances and the D.2 packing instance of Liu & Talwar 2019."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
import pytest
import sympy as sp

from casestudies.talwar2025.theory import lower_bound_chain, theorem9_counting
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
from verifier.arithmetic import Verdict
from verifier.certified import certified_ceil, certified_floor, certified_min, check_eq
from verifier.constructions.extension import ExtensionFailed, extend, extend_on_lumped_cube
from verifier.constructions.lower_bounds import (
    BAD,
    GOOD,
    theorem7_instance,
    theorem9_instance,
    theorem10_instance,
)
from verifier.constructions.packing import packing_bound, packing_instance
from verifier.errors import InvalidParameter
from verifier.instances import random_mechanism, randomized_response
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import hamming_cube, pair, path
from verifier.privacy import check_pure_dp, pure_epsilon

from .test_liu_talwar import check_sampler, chi2_pvalue, draw, float_dist, rank_key

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


# ---------------------------------------------------------------------------
# exact helpers
# ---------------------------------------------------------------------------


def test_certified_integer_parts_and_min():
    assert certified_floor(sp.log(8) / sp.log(2)) == 3  # exactly an integer
    assert certified_ceil(sp.log(8) / sp.log(2)) == 3
    assert certified_ceil(sp.log(400) * 10) == 60
    assert certified_floor(-sp.Rational(1, 2)) == -1
    assert certified_min([3, sp.pi, sp.E]) == sp.E
    with pytest.raises(InvalidParameter):
        certified_min([])


# ---------------------------------------------------------------------------
# the extension lemma
# ---------------------------------------------------------------------------


def test_extension_lumped_equals_explicit_cube():
    eps = sp.log(2)
    q = R(1, 16)  # e^(-4 eps)
    n = 4
    good, bad = GOOD, BAD
    lumped = extend_on_lumped_cube(
        n, {0: {good: q, bad: 1 - q}, n: {good: 1 - q, bad: q}}, eps, outputs=[bad, good]
    )
    cube = hamming_cube(n)
    zero, one = (0,) * n, (1,) * n
    explicit = extend(
        cube, {zero: {good: q, bad: 1 - q}, one: {good: 1 - q, bad: q}}, eps, outputs=[bad, good]
    )
    for x in cube.nodes:
        k = sum(x)
        for o in (good, bad):
            assert explicit.mechanism.p(x, o) == lumped.mechanism.p(k, o)
    assert lumped.verification.holds and explicit.verification.holds
    realized = pure_epsilon(lumped.mechanism).value
    assert check_pure_dp(lumped.mechanism, 2 * eps).holds
    assert sp.N(realized) <= sp.N(2 * eps)


def test_extension_on_networkx_graph_with_groups():
    g = nx.petersen_graph()
    m = random_mechanism(g, 3, seed=1)
    eps = pure_epsilon(m).value
    partial = {b: m.distribution(b) for b in (0, 5, 7)}
    ext = extend(g, partial, eps)
    for b in partial:
        assert ext.mechanism.distribution(b) == partial[b]
    assert ext.verification.holds


def test_extension_rejects_bad_input():
    rr = randomized_response(sp.log(3), datasets=(0, 2))
    partial = {b: rr.distribution(b) for b in (0, 2)}
    with pytest.raises(InvalidParameter, match="premise"):
        extend(path(2), partial, R(1, 10))  # ratio 3 > e^(2/10)
    g = nx.Graph()
    g.add_nodes_from([0, 1, 2])
    g.add_edge(0, 2)
    with pytest.raises(InvalidParameter, match="connected"):
        extend(g, partial, sp.log(3))
    with pytest.raises(InvalidParameter, match="not a node"):
        extend(path(2), {9: {0: 1}}, 1)
    with pytest.raises(InvalidParameter):
        extend(path(2), {}, 1)
    assert issubclass(ExtensionFailed, Exception)


# ---------------------------------------------------------------------------
# lower-bound instances
# ---------------------------------------------------------------------------


def test_theorem7_instance_shape():
    inst = theorem7_instance(R(1, 10), 100)
    assert inst.Delta == 60 and inst.q == sp.exp(-6)
    m = inst.mechanism
    assert m.graph.number_of_nodes() == 61 and m.graph.nodes[30]["size"] == 118264581564861424
    assert m.p(0, GOOD) == inst.q and m.p(60, GOOD) == 1 - inst.q


def test_theorem9_and_10_instances_shape():
    inst = theorem9_instance(1, 100)  # Delta = ceil(ln 800) = 7
    assert inst.Delta == 7 and inst.d0 == 70 and inst.d1 == 0
    assert inst.mechanism.p(70, GOOD) == inst.q
    meta = theorem10_instance(1, 100, 3, k=1)
    assert meta.oracle.p(0, ((1, GOOD), 1)) == (1 - meta.q) / 3
    assert meta.oracle.p(0, ((0, BAD), 0)) == R(1, 3)
    with pytest.raises(InvalidParameter):
        theorem10_instance(1, 100, 1)


def test_theorem9_counting_is_exact():
    r = theorem9_counting(3)
    assert r.holds
    # |B_v| for Delta = 3: C(30,0)+C(30,1)+C(30,2)+C(30,3) = 1 + 30 + 435 + 4060
    assert "4526" in r.parts[0].findings[0].note


def test_chain_small_instance_and_its_failure_mode():
    alg = a_lt(R(1, 20))
    inst = theorem7_instance(1, alg.expected_calls)  # Delta = ceil(ln 80) = 5
    assert lower_bound_chain(inst, alg).holds
    r = lower_bound_chain(inst, alg, step_exponent=2)
    failed = [p.title for p in r.parts if p.verdict is Verdict.VIOLATED]
    assert r.violated and len(failed) == 1 and failed[0].startswith("exponent step")


# ---------------------------------------------------------------------------
# Liu & Talwar 2019, D.2
# ---------------------------------------------------------------------------


def test_packing_instance_is_exactly_eps_dp():
    inst = packing_instance(16, R(1, 4), sp.log(2))
    assert inst.Delta == 3 and inst.gamma == R(1, 2)
    assert packing_bound(inst) == 3 * sp.log(16) / 4 / 3
    r = check_pure_dp(inst.mechanisms[0], inst.eps)
    assert r.holds and r.tight
    assert inst.mechanisms[0].p(inst.D(0), 1) == R(3, 4)
    assert inst.mechanisms[0].p(inst.D(1), 1) == R(1, 64)


def test_packing_instance_parameters():
    # the endpoints always satisfy the group-privacy premise: b/a = 2 sqrt(K)(1 - K^-a/2)
    # <= K^(1/2 + a) iff (K^a - 1)^2 >= 0, so the greedy path always arrives
    inst = packing_instance(2, R(1, 10), 1)
    assert inst.Delta == 1
    for m in inst.mechanisms:
        assert check_pure_dp(m, 1).holds
    with pytest.raises(InvalidParameter, match="alpha"):
        packing_instance(16, R(1, 2), 1)
    with pytest.raises(InvalidParameter, match="K"):
        packing_instance(1, R(1, 4), 1)

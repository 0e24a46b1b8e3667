"""Liu & Talwar 2019 transformers (:mod:`verifier.algorithms.liu_talwar`): exact closed
forms against hand values and against seeded simulations of the actual algorithms
(chi-square tests at fixed seeds, with a deliberately wrong formula that the same
test must reject)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
import sympy as sp

from verifier.algorithms import get_transformer
from verifier.algorithms.liu_talwar import (
    BOTTOM,
    decreasing_thresholds,
    distribution_percentile,
    percentile_release,
    random_stopping,
    random_stopping_expected_calls,
    random_stopping_hard,
    random_stopping_hard_expected_calls,
    thresholding,
    thresholding_expected_iterations,
    uniform_selection,
    upper_quantile,
    value_of,
)
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.instances import random_mechanism, randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

from .sampling import check_sampler, draw, float_dist, rank_key

R = sp.Rational

# A base mechanism with four scored candidates (scores 0..3) on a pair.
Q = random_mechanism(pair(), 4, seed=11, name="Q")


# samplers of the real algorithms (straightforward loops over draws from Q(D))


def sample_thresholding(Qd, tau, gamma, T, rng):
    for _ in range(T):
        o = draw(Qd, rng)
        if value_of(o) >= tau:
            return o
        if rng.random() < gamma:
            return BOTTOM
    return BOTTOM


def sample_random_stopping(Qd, gamma, key, rng, T=None):
    best = None
    j = 0
    while True:
        j += 1
        o = draw(Qd, rng)
        if best is None or key(o) > key(best):
            best = o
        if rng.random() < gamma or (T is not None and j >= T):
            return best, j


def sample_decreasing(Qd, thresholds, gamma, rng):
    level = 0
    while True:
        o = draw(Qd, rng)
        if value_of(o) >= thresholds[level]:
            return o
        if level < len(thresholds) - 1 and rng.random() < gamma:
            level += 1


def sample_percentile(Qd, n, k, key, rng):
    xs = sorted((draw(Qd, rng) for _ in range(n)), key=key, reverse=True)
    return xs[k - 1]


# ---------------------------------------------------------------------------
# closed forms against simulations
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("d", ["D", "D'"])
def test_thresholding_matches_simulation(d):
    tau, gamma, T = 2, R(1, 5), 4
    A = thresholding(Q, tau, gamma, T)
    wrong = thresholding(Q, tau, gamma, T + 3)  # a wrong cap changes Pr[⊥] visibly
    Qd = float_dist(Q, d)
    check_sampler(A, d, lambda rng: sample_thresholding(Qd, tau, 0.2, T, rng), wrong=wrong)


@pytest.mark.parametrize("d", ["D", "D'"])
def test_random_stopping_matches_simulation(d):
    gamma = R(1, 4)
    A = random_stopping(Q, gamma)
    wrong = random_stopping(Q, gamma * 2)
    Qd, key = float_dist(Q, d), rank_key(Q)
    check_sampler(A, d, lambda rng: sample_random_stopping(Qd, 0.25, key, rng)[0], wrong=wrong)


def test_random_stopping_breaks_ties_by_the_total_order():
    # two candidates with the same score: the later one in Q's output order ranks higher
    M = FiniteMechanism(
        pair(),
        {"D": {("a", 1): R(1, 3), ("b", 1): R(1, 3), ("c", 0): R(1, 3)}, "D'": {("c", 0): 1}},
        [("c", 0), ("a", 1), ("b", 1)],
    )
    A = random_stopping(M, R(1, 3))
    key = rank_key(M)
    Md = float_dist(M, "D")
    assert key(("b", 1)) > key(("a", 1)) > key(("c", 0))
    check_sampler(A, "D", lambda rng: sample_random_stopping(Md, 1 / 3, key, rng)[0])


@pytest.mark.parametrize("d", ["D", "D'"])
def test_hard_stopping_matches_simulation(d):
    gamma, T = R(1, 6), 3
    A = random_stopping_hard(Q, gamma, T)
    wrong = random_stopping(Q, gamma)  # without the cap
    Qd, key = float_dist(Q, d), rank_key(Q)
    check_sampler(
        A, d, lambda rng: sample_random_stopping(Qd, 1 / 6, key, rng, T=T)[0], wrong=wrong
    )


def test_decreasing_thresholds_matches_simulation():
    thresholds = [3, 2, 0]
    gamma = R(1, 3)
    A = decreasing_thresholds(Q, thresholds, gamma)
    wrong = decreasing_thresholds(Q, [3, 0], gamma)
    Qd = float_dist(Q, "D")
    check_sampler(A, "D", lambda rng: sample_decreasing(Qd, thresholds, 1 / 3, rng), wrong=wrong)


def test_percentile_release_matches_simulation():
    n, k = 7, 4
    A = percentile_release(Q, n, k)
    wrong = percentile_release(Q, n, k - 1)
    Qd, key = float_dist(Q, "D'"), rank_key(Q)
    check_sampler(A, "D'", lambda rng: sample_percentile(Qd, n, k, key, rng), wrong=wrong)


def test_uniform_selection_matches_simulation():
    arms = [randomized_response(R(1, 2)), random_mechanism(pair(), 3, seed=2)]
    S = uniform_selection(arms)
    dists = [float_dist(m, "D") for m in arms]

    def sample(rng):
        i = rng.randrange(len(arms))
        o = draw(dists[i], rng)
        return ((i, o), value_of(o))

    check_sampler(S, "D", sample)


def test_expected_iterations_match_simulation():
    tau, gamma, T = 3, R(1, 10), 12
    rng = random.Random(5)
    Qd = float_dist(Q, "D")
    n = 20000
    counts = []
    for _ in range(n):
        j = 0
        for j in range(1, T + 1):  # noqa: B007
            o = draw(Qd, rng)
            if value_of(o) >= tau or rng.random() < 0.1:
                break
        counts.append(j)
    mean = sum(counts) / n
    var = sum((c - mean) ** 2 for c in counts) / (n - 1)
    exact = float(thresholding_expected_iterations(Q, "D", tau, gamma, T))
    assert abs(mean - exact) < 4 * (var / n) ** 0.5


def test_random_stopping_calls_match_simulation():
    rng = random.Random(9)
    Qd, key = float_dist(Q, "D"), rank_key(Q)
    n, g = 20000, 0.2
    calls = [sample_random_stopping(Qd, g, key, rng)[1] for _ in range(n)]
    mean = sum(calls) / n
    sd = ((1 - g) / g**2 / n) ** 0.5
    assert abs(mean - float(random_stopping_expected_calls(R(1, 5)))) < 4 * sd
    calls = [sample_random_stopping(Qd, g, key, rng, T=4)[1] for _ in range(n)]
    mean = sum(calls) / n
    assert abs(mean - float(random_stopping_hard_expected_calls(R(1, 5), 4))) < 0.05


# ---------------------------------------------------------------------------
# exact values and identities
# ---------------------------------------------------------------------------


def _valid(m: FiniteMechanism) -> FiniteMechanism:
    """Re-validate: every distribution (with ⊥ from its own closed form) sums to 1."""
    return FiniteMechanism(m.graph, {d: m.distribution(d) for d in m.datasets}, m.outputs)


@pytest.mark.parametrize(
    "build",
    [
        lambda: thresholding(Q, 2, R(1, 5), 4),
        lambda: thresholding(Q, 1, R(1, 3), None),
        lambda: thresholding(Q, 3, 0, 5),
        lambda: random_stopping(Q, R(2, 7)),
        lambda: random_stopping_hard(Q, R(1, 6), 5),
        lambda: random_stopping_hard(Q, 1, 5),
        lambda: decreasing_thresholds(Q, [3, 1, 0], R(1, 2)),
        lambda: percentile_release(Q, 5, 3),
        lambda: distribution_percentile(Q),
    ],
)
def test_distributions_sum_to_one(build):
    _valid(build())


def test_thresholding_hand_values():
    # Bernoulli(1/2), tau = 1, gamma = 1/2, T = 2: r = (1/2)(1/2) = 1/4.
    B = FiniteMechanism(pair(), {"D": {0: R(1, 2), 1: R(1, 2)}, "D'": {0: 1}}, [0, 1])
    A = thresholding(B, 1, R(1, 2), 2)
    # Pr[1] = 1/2 (1 + 1/4) = 5/8; Pr[⊥] = (1/2)(1/2)(5/4) + 1/16 = 3/8
    assert A.p("D", 1) == R(5, 8) and A.p("D", BOTTOM) == R(3, 8)
    assert A.p("D'", BOTTOM) == 1
    with pytest.raises(InvalidParameter, match="never halts"):
        thresholding(B, 1, 0, None)
    assert thresholding_expected_iterations(B, "D", 1, R(1, 2), 2) == R(5, 4)


def test_random_stopping_hand_values_and_gamma_one():
    A = random_stopping(Q, 1)  # one draw
    for d in Q.datasets:
        for o in Q.outputs:
            assert A.p(d, o) == Q.p(d, o)
    assert random_stopping_hard(Q, R(1, 3), 1).distribution("D") == Q.distribution("D")


def test_hard_stopping_tends_to_random_stopping():
    # the hard cap only matters with probability (1-gamma)^(T-1)
    a = random_stopping(Q, R(1, 2))
    b = random_stopping_hard(Q, R(1, 2), 40)
    for o in Q.outputs:
        assert abs(float(a.p("D", o) - b.p("D", o))) < 1e-10


def test_decreasing_thresholds_bernoulli_formula():
    # App. B.2: Pr[output 0] = (1-p) g^R ((1-p)/(p(1-g)+g))^R
    p, g = R(1, 3), R(1, 4)
    B = FiniteMechanism(pair(), {"D": {0: 1 - p, 1: p}, "D'": {0: 1 - p, 1: p}}, [0, 1])
    for Rr in range(1, 5):
        A = decreasing_thresholds(B, [R(Rr - i, Rr) for i in range(Rr)] + [0], g)
        assert A.p("D", 0) == (1 - p) * g**Rr * ((1 - p) / (p * (1 - g) + g)) ** Rr


def test_upper_quantile():
    M = FiniteMechanism(
        pair(), {"D": {0: R(1, 4), 1: R(1, 4), 2: R(1, 2)}, "D'": {0: 1}}, [0, 1, 2]
    )
    assert upper_quantile(M, "D", R(1, 2)) == 2  # Pr[>= 2] = 1/2 >= 1/2
    assert upper_quantile(M, "D", R(1, 2), strict=True) == 1  # needs > 1/2
    assert upper_quantile(M, "D", R(3, 4), strict=True) == 0
    assert upper_quantile(M, "D'", R(1, 2)) == 0
    with pytest.raises(InvalidParameter):
        upper_quantile(M, "D", 1, strict=True)


def test_bad_inputs():
    with pytest.raises(InvalidParameter, match="gamma"):
        random_stopping(Q, 0)
    with pytest.raises(InvalidParameter, match="gamma"):
        thresholding(Q, 1, R(3, 2), 3)
    with pytest.raises(InvalidParameter, match="positive integer"):
        random_stopping_hard(Q, R(1, 2), 0)
    with pytest.raises(InvalidParameter, match="decrease"):
        decreasing_thresholds(Q, [1, 2], R(1, 2))
    with pytest.raises(InvalidParameter, match="exceeds"):
        percentile_release(Q, 3, 4)
    with pytest.raises(InvalidParameter, match="no numeric score.*score parameter"):
        random_stopping(FiniteMechanism(pair(), {"D": {"x": 1}, "D'": {"x": 1}}), R(1, 2))
    with pytest.raises(InvalidMechanism, match="⊥"):
        random_stopping(FiniteMechanism(pair(), {"D": {BOTTOM: 1}, "D'": {BOTTOM: 1}}), R(1, 2))
    with pytest.raises(InvalidParameter):
        uniform_selection([])


def test_decreasing_thresholds_never_halting_message():
    with pytest.raises(InvalidParameter, match="never halts"):
        decreasing_thresholds(Q, [5, 4], R(1, 2))


@pytest.mark.parametrize(
    "name, params",
    [
        ("lt_thresholding", {"tau": 2, "gamma": "1/5", "T": 4}),
        ("lt_random_stopping", {"gamma": "1/4"}),
        ("lt_random_stopping_hard", {"gamma": "1/6", "T": 3}),
        ("lt_decreasing_thresholds", {"thresholds": [3, 2, 0], "gamma": "1/3"}),
        ("lt_percentile_release", {"n": 7, "k": 4}),
    ],
)
def test_registered_transformers_agree_with_functions(name, params):
    t = get_transformer(name)
    got = t.apply([Q], params)
    direct = {
        "lt_thresholding": lambda: thresholding(Q, 2, R(1, 5), 4),
        "lt_random_stopping": lambda: random_stopping(Q, R(1, 4)),
        "lt_random_stopping_hard": lambda: random_stopping_hard(Q, R(1, 6), 3),
        "lt_decreasing_thresholds": lambda: decreasing_thresholds(Q, [3, 2, 0], R(1, 3)),
        "lt_percentile_release": lambda: percentile_release(Q, 7, 4),
    }[name]()
    assert got.outputs == direct.outputs
    for d in Q.datasets:
        assert got.distribution(d) == direct.distribution(d)


def test_registered_uniform_selection():
    arms: Sequence[FiniteMechanism] = [randomized_response(R(1, 2))] * 2
    got = get_transformer("lt_uniform_selection").apply(list(arms))
    assert got.distribution("D") == uniform_selection(arms).distribution("D")

"""Ghazi et al. 2025, Algorithms 1–3 (:mod:`verifier.algorithms.ghazi` and
:mod:`verifier.algorithms.ghazi_series`): closed forms against seeded simulations of
the real algorithms, exact identities, the symbolic / polynomial / certified paths
against each other, the lumping of Algorithm 1's tail, the transformer registry and
input validation.

Simulation tests are chi-square goodness-of-fit tests at a fixed seed against the
exact distribution, with the p-value computed by mpmath; a test of the test checks
that a wrong formula (the geometric's p and 1 - p swapped) is rejected.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Hashable

import mpmath
import pytest
import sympy as sp

from casestudies.ghazi2025 import theory as T
from casestudies.ghazi2025.theory import theorem8_bound, theorem11_bound
from verifier.algorithms import get_transformer
from verifier.algorithms import ghazi_series as S
from verifier.algorithms.ghazi import (
    BOTTOM,
    above_threshold,
    check_sensitivity,
    generalized_above_threshold,
    hyperparameter_tuning,
    hyperparameter_tuning_enclosures,
    is_monotone,
    monotone_order,
)
from verifier.arithmetic.exact import Verdict, approx, decide_eq, enclose
from verifier.checks.privacy import check_ex_post, delta, realized_ex_post_epsilon, renyi_divergence
from verifier.checks.ranges import decide_on_interval
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.instances import random_mechanism, randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import add_remove, pair, path

from .ghazi_sampling import MS3, geom

R = sp.Rational
L = sp.log


# ---------------------------------------------------------------------------
# samplers: the algorithms exactly as the pseudo-code says (geom: .ghazi_sampling)
# ---------------------------------------------------------------------------


def sample_alg1(rng, f, xs, pp):
    """Ghazi et al. 2025, Algorithm 1."""
    k = geom(rng, pp)
    for i, (fi, x) in enumerate(zip(f, xs, strict=True)):
        y = geom(rng, x)
        if fi + y >= k:
            return (fi + y - k, i + 1)
    return BOTTOM


def sample_alg2(rng, samplers, xs, pp, above):
    """Ghazi et al. 2025, Algorithm 2 (above(o): o >= tau)."""
    k = geom(rng, pp)
    for i, (m, x) in enumerate(zip(samplers, xs, strict=True)):
        if rng.random() < x**k:
            o = m()
            if above(o):
                return (o, i + 1)
    return BOTTOM


def sample_alg3(rng, samplers, xs, draw_k):
    """Ghazi et al. 2025, Algorithm 3: S = {⊥}; k ~ E; keep M_i w.p. e^{-eps_i k};
    return max S (lexicographic (o, i), ⊥ lowest)."""
    k = draw_k()
    best = None
    for i, (m, x) in enumerate(zip(samplers, xs, strict=True)):
        if rng.random() < x**k:
            cand = (m(), i + 1)
            if best is None or cand > best:
                best = cand
    return BOTTOM if best is None else best


def sampler(rng, mech, d):
    outs = list(mech.outputs)
    w = [approx(mech.p(d, o)) for o in outs]
    return lambda: rng.choices(outs, w)[0]


def chi_square_pvalue(counts: Counter, probs: dict[Hashable, float], n: int) -> float:
    """Pearson's chi-square test; cells with expected count < 5 are pooled."""
    cells, pooled_obs, pooled_exp = [], 0, 0.0
    for o, p in probs.items():
        e = n * p
        if e < 5:
            pooled_obs += counts.get(o, 0)
            pooled_exp += e
        else:
            cells.append((counts.get(o, 0), e))
    stray = sum(c for o, c in counts.items() if o not in probs)
    pooled_obs += stray
    if pooled_exp > 0 or pooled_obs:
        cells.append((pooled_obs, max(pooled_exp, 1e-12)))
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return float(mpmath.gammainc(df / 2, stat / 2, mpmath.inf, regularized=True))


def exact_probs(mech: FiniteMechanism, d, relabel: Callable = lambda o: o) -> dict:
    out: dict = {}
    for o in mech.outputs:
        v = approx(mech.p(d, o))
        if v > 0:
            out[relabel(o)] = out.get(relabel(o), 0.0) + v
    return out


def _lump_alg1(mech: FiniteMechanism):
    tails = {o[2]: o[1] for o in mech.outputs if o != BOTTOM and o[0] == "≥"}

    def f(o):
        if o != BOTTOM and o[0] >= tails[o[1]]:
            return ("≥", tails[o[1]], o[1])
        return o

    return f


P_MIN = 1e-4  # reject the closed form only when the sample makes it very unlikely


# ---------------------------------------------------------------------------
# Algorithm 1
# ---------------------------------------------------------------------------

TABLE = {0: [0, 1, 2], 1: [1, 1, 1], 2: [1, 0, 2]}
EPS1 = [R(1, 2), L(2), R(3, 4)]
EP1 = R(1, 3)


def test_alg1_matches_simulation():
    rng = random.Random(2025)
    A = above_threshold(path(2), TABLE, EPS1, EP1)
    xs = [approx(sp.exp(-e)) for e in EPS1]
    pp = approx(sp.exp(-EP1))
    lump = _lump_alg1(A)
    n = 30000
    for d in A.datasets:
        c = Counter(lump(sample_alg1(rng, TABLE[d], xs, pp)) for _ in range(n))
        assert chi_square_pvalue(c, exact_probs(A, d), n) > P_MIN


def test_alg1_simulation_catches_swapped_geometric():
    # the closed form with p' and 1 - p' swapped (eps' -> -log(1 - e^{-eps'})) must fail
    rng = random.Random(7)
    wrong_ep = -sp.log(1 - sp.exp(-EP1))
    A = above_threshold(path(2), TABLE, EPS1, wrong_ep)
    xs = [approx(sp.exp(-e)) for e in EPS1]
    pp = approx(sp.exp(-EP1))
    n = 30000
    d = 0
    c = Counter(_lump_alg1(A)(sample_alg1(rng, TABLE[d], xs, pp)) for _ in range(n))
    assert chi_square_pvalue(c, exact_probs(A, d), n) < 1e-12


def test_alg1_sums_to_one_exactly():
    A = above_threshold(path(3), {0: [0, 2], 1: [1, 1], 2: [0, 2], 3: [-1, 3]}, [L(2), L(3)], L(2))
    for d in A.datasets:
        assert sum(A.p(d, o) for o in A.outputs) == 1  # rational: exact
    e = sp.Symbol("epsilon", positive=True)
    B = above_threshold(path(2), TABLE, [e, 2 * e, e / 2], e / 3)
    for d in B.datasets:
        total = sp.Add(*(B.p(d, o) for o in B.outputs))
        assert decide_on_interval(total, sp.Integer(1), e, R(1, 10), 4).identically_equal


def test_alg1_bottom_by_hand():
    # x = p' = 1/2.  f(D) = 0: A(⊥) = Σ_{k>=1} 2^{-k-1} (1 - 2^{-k}) = 1/2 - 1/6 = 1/3;
    # f(D') = 1: Σ_{k>=2} 2^{-k-1} (1 - 2^{-(k-1)}) = 1/4 - 1/12 = 1/6.
    A = above_threshold(pair(), {"D": [0], "D'": [1]}, [L(2)], L(2))
    assert A.p("D", BOTTOM) == R(1, 3) and A.p("D'", BOTTOM) == R(1, 6)
    # (0, 1) at D: Σ_k 2^{-k-1} (1/2) 2^{-k} = (1/4)/(1 - 1/4) = 1/3; tail = 1/3
    assert A.p("D", (0, 1)) == R(1, 3) and A.p("D", ("≥", 1, 1)) == R(1, 3)


def test_alg1_subsets_equal_polynomial():
    g = path(3)
    table = {0: [0, 1, 0], 1: [1, 1, 1], 2: [1, 2, 0], 3: [2, 1, 0]}
    a = above_threshold(g, table, [L(2), L(3), L(2)], L(R(3, 2)))
    b = above_threshold(g, table, [L(2), L(3), L(2)], L(R(3, 2)), method="subsets")
    assert all(a.p(d, o) == b.p(d, o) for d in g.nodes for o in a.outputs)
    e = sp.Symbol("epsilon", positive=True)
    eps, ep = [e, e / 2, e], e / 3
    a = above_threshold(g, table, eps, ep)
    b = above_threshold(g, table, eps, ep, method="subsets")
    for d in g.nodes:
        for o in a.outputs:
            assert decide_on_interval(a.p(d, o), b.p(d, o), e, R(1, 10), 4).identically_equal


def test_alg1_lumped_tail_equals_explicit_outputs():
    """The lumping argument: outputs o*..o*+20 listed explicitly plus the remaining tail
    give the same probabilities (sums), the same realized losses (constant ratio), and
    the same verdicts, δ and Rényi divergences as the single lumped output."""
    g = path(2)
    eps, ep = [L(2), L(3)], L(R(3, 2))
    table = {0: [0, 2], 1: [1, 1], 2: [2, 0]}
    lumped = above_threshold(g, table, eps, ep)
    wide = above_threshold(g, table, eps, ep, explicit=21)
    for i in (1, 2):
        o_star = max(table[d][i - 1] for d in g.nodes)
        for d in g.nodes:
            parts = [wide.p(d, (o, i)) for o in range(o_star, o_star + 21)]
            parts.append(wide.p(d, ("≥", o_star + 21, i)))
            assert sp.Add(*parts) == lumped.p(d, ("≥", o_star, i))
            # geometric in o: A(o+1, i) = x_i A(o, i) on the tail
            x = sp.exp(-eps[i - 1])
            for o in range(o_star, o_star + 20):
                assert wide.p(d, (o + 1, i)) == x * wide.p(d, (o, i))
        lumped_real = realized_ex_post_epsilon(lumped).as_dict()
        wide_real = realized_ex_post_epsilon(wide).as_dict()
        for o in range(o_star, o_star + 21):
            assert wide_real[(o, i)] == lumped_real[("≥", o_star, i)]
    b = theorem8_bound(eps, ep)
    assert (
        check_ex_post(lumped, epsilon_tilde=b).verdict
        == check_ex_post(wide, epsilon_tilde=b).verdict
    )
    for bound in (b, T.theorem9_bound(eps, ep), R(1, 2)):
        dl = delta(lumped, epsilon=bound).value
        dw = delta(wide, epsilon=bound).value
        assert decide_eq(dl, dw) is Verdict.HOLDS
    for d, d2 in lumped.ordered_pairs():
        rl = renyi_divergence(lumped.distribution(d), lumped.distribution(d2), 2)
        rw = renyi_divergence(wide.distribution(d), wide.distribution(d2), 2)
        assert decide_eq(rl, rw) is Verdict.HOLDS


def test_alg1_tight_instance_by_hand():
    # ratio A_D'(o,2)/A_D(o,2) = e^{2 eps_2 + eps'} = 9 * 2 = 18 (casestudies derivation)
    A = above_threshold(pair(), {"D": [1, 0], "D'": [0, 1]}, [L(2), L(3)], L(2))
    for o in ((0, 2), ("≥", 1, 2)):
        assert A.p("D'", o) / A.p("D", o) == 18
    r = check_ex_post(A, epsilon_tilde=theorem8_bound([L(2), L(3)], L(2)))
    assert r.holds and r.tight


def test_alg1_validation():
    with pytest.raises(InvalidParameter, match="f_2 has sensitivity > 1"):
        above_threshold(pair(), {"D": [0, 0], "D'": [1, 2]}, [1, 1], 1)
    with pytest.raises(InvalidParameter, match="no row"):
        above_threshold(pair(), {"D": [0]}, [1], 1)
    with pytest.raises(InvalidParameter, match="integer"):
        above_threshold(pair(), {"D": [R(1, 2)], "D'": [0]}, [1], 1)
    with pytest.raises(InvalidParameter, match="2 budgets"):
        above_threshold(pair(), {"D": [0], "D'": [1]}, [1, 1], 1)
    with pytest.raises(InvalidParameter, match="epsilon_1 must be > 0"):
        above_threshold(pair(), {"D": [0], "D'": [1]}, [0], 1)
    with pytest.raises(InvalidParameter, match="float"):
        above_threshold(pair(), {"D": [0], "D'": [1]}, [0.5], 1)
    with pytest.raises(InvalidParameter, match="not monotone"):
        above_threshold(pair(), {"D": [1, 0], "D'": [0, 1]}, [1, 1], 1, monotone=["D", "D'"])
    with pytest.raises(InvalidParameter, match="any total order"):
        above_threshold(pair(), {"D": [1, 0], "D'": [0, 1]}, [1, 1], 1, monotone="auto")
    above_threshold(pair(), {"D": [1, 1], "D'": [0, 1]}, [1, 1], 1, monotone="auto")
    check_sensitivity(pair(), {"D": [0, 5], "D'": [1, 4]})
    noisy = FiniteMechanism(pair(), {"D": {0: 1}, "D'": {1: 1}}, [0, 1])
    with pytest.raises(InvalidParameter, match="not eps-DP for any finite eps"):
        hyperparameter_tuning([noisy], None, 1)


def test_monotonicity_helpers():
    g = add_remove("abc")
    table = {D: [len(D & {"a", "b"}), len(D) - 1] for D in g.nodes}
    assert is_monotone(g, table, "size") == (True, "")
    order = monotone_order(g, table)
    assert order is not None and is_monotone(g, table, order)[0]
    assert monotone_order(pair(), {"D": [1, 0], "D'": [0, 1]}) is None
    ok, why = is_monotone(pair(), {"D": [1], "D'": [0]}, ["D", "D'"])
    assert not ok and "f_1('D'') = 0 < f_1('D') = 1" in why.replace('"', "'")
    ok, why = is_monotone(pair(), {"D": [1], "D'": [0]}, lambda d: 0)
    assert not ok and "does not separate" in why


# ---------------------------------------------------------------------------
# Algorithm 2
# ---------------------------------------------------------------------------


def test_alg2_matches_simulation():
    rng = random.Random(11)
    ms = [random_mechanism(pair(), 3, seed=s, denominator=24) for s in (1, 2, 3)]
    eps, ep = [L(2), R(1, 2), L(3)], R(1, 4)
    A = generalized_above_threshold(ms, eps, ep, 1)
    xs = [approx(sp.exp(-e)) for e in eps]
    n = 30000
    for d in A.datasets:
        samp = [sampler(rng, m, d) for m in ms]
        c = Counter(
            sample_alg2(rng, samp, xs, approx(sp.exp(-ep)), lambda o: o >= 1) for _ in range(n)
        )
        assert chi_square_pvalue(c, exact_probs(A, d), n) > P_MIN


def test_alg2_by_hand_and_paths():
    rr = randomized_response(L(3))
    # x = 1/3, p' = 1/2: E[x^k] = 3/5; A_D(1,1) = 3/4 * 3/5 = 9/20; A_D(⊥) = 11/20
    A = generalized_above_threshold([rr], None, L(2), 1)
    assert A.p("D", (1, 1)) == R(9, 20) and A.p("D", BOTTOM) == R(11, 20)
    assert A.p("D'", BOTTOM) == R(17, 20)
    ms = [random_mechanism(path(2), 3, seed=s) for s in (4, 5, 6)]
    eps = [L(2), L(2), L(R(3, 2))]
    a = generalized_above_threshold(ms, eps, L(R(5, 4)), 1)
    b = generalized_above_threshold(ms, eps, L(R(5, 4)), 1, method="subsets")
    for d in a.datasets:
        assert sum(a.p(d, o) for o in a.outputs) == 1
        for o in a.outputs:
            assert a.p(d, o) == b.p(d, o)


def test_alg2_copies_equal_flattened_then_lumped():
    ms = [random_mechanism(pair(), 3, seed=s) for s in (8, 9)]
    eps, ep = [L(2), L(3)], L(R(5, 4))
    a = generalized_above_threshold(ms, eps, ep, 1, copies=[3, 2])
    flat = generalized_above_threshold(
        [ms[0]] * 3 + [ms[1]] * 2, [eps[0]] * 3 + [eps[1]] * 2, ep, 1
    )
    group = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2}
    for d in a.datasets:
        for o in a.outputs:
            want = (
                flat.p(d, o)
                if o == BOTTOM
                else sum(flat.p(d, (o[0], j)) for j, g in group.items() if g == o[1])
            )
            assert a.p(d, o) == want


def test_alg2_validation():
    rr = randomized_response(L(3))
    with pytest.raises(InvalidParameter, match="threshold 5"):
        generalized_above_threshold([rr], None, 1, 5)
    with pytest.raises(InvalidParameter, match="copies"):
        generalized_above_threshold([rr], None, 1, 1, copies=[0])
    with pytest.raises(InvalidParameter, match="eps_prime must be > 0"):
        generalized_above_threshold([rr], None, 0, 1)
    with pytest.raises(InvalidParameter, match="no copies"):
        generalized_above_threshold([rr], None, 1, 1, copies=[2], method="subsets")


# ---------------------------------------------------------------------------
# Algorithm 3
# ---------------------------------------------------------------------------

EPS3 = [R(1, 2), L(2), R(1, 5)]
EP3 = R(1, 4)


@pytest.mark.parametrize("prior", ["geometric", "exponential"])
def test_alg3_matches_simulation(prior):
    rng = random.Random(3 if prior == "geometric" else 4)
    A = hyperparameter_tuning(MS3, EPS3, EP3, prior=prior)
    xs = [approx(sp.exp(-e)) for e in EPS3]
    ep = approx(EP3)

    def draw_k():
        return geom(rng, math.exp(-ep)) if prior == "geometric" else rng.expovariate(ep)

    n = 30000
    for d in A.datasets:
        samp = [sampler(rng, m, d) for m in MS3]
        c = Counter(sample_alg3(rng, samp, xs, draw_k) for _ in range(n))
        assert chi_square_pvalue(c, exact_probs(A, d), n) > P_MIN


def test_alg3_copies_match_simulation_of_real_copies():
    rng = random.Random(5)
    ms, eps, ep, T = MS3[:2], [L(2), L(3)], L(R(5, 4)), [3, 2]
    A = hyperparameter_tuning(ms, eps, ep, copies=T)
    xs = [approx(sp.exp(-e)) for e in eps]
    group = [1, 1, 1, 2, 2]
    n = 30000
    for d in A.datasets:
        samp = [sampler(rng, m, d) for m in ms]
        flat = [samp[0]] * 3 + [samp[1]] * 2
        fx = [xs[0]] * 3 + [xs[1]] * 2

        def run(flat=flat, fx=fx):
            o = sample_alg3(rng, flat, fx, lambda: geom(rng, math.exp(-approx(ep))))
            return o if o == BOTTOM else (o[0], group[o[1] - 1])

        c = Counter(run() for _ in range(n))
        assert chi_square_pvalue(c, exact_probs(A, d), n) > P_MIN


def test_alg3_paths_agree_exactly():
    for prior in ("geometric", "exponential"):
        a = hyperparameter_tuning(MS3, EPS3, EP3, prior=prior)
        b = hyperparameter_tuning(MS3, EPS3, EP3, prior=prior, method="subsets")
        for d in a.datasets:
            for o in a.outputs:
                assert decide_eq(a.p(d, o), b.p(d, o)) is Verdict.HOLDS
    # rational data: equal as rationals, and the distribution sums to exactly 1
    eps = [L(2), L(4), L(R(3, 2))]  # log 2 and log 4 share the grid unit log 2
    a = hyperparameter_tuning(MS3, eps, L(R(6, 5)))
    b = hyperparameter_tuning(MS3, eps, L(R(6, 5)), method="subsets")
    for d in a.datasets:
        assert sum(a.p(d, o) for o in a.outputs) == 1
        for o in a.outputs:
            assert a.p(d, o) == b.p(d, o)


def test_alg3_symbolic_paths_agree_for_every_epsilon():
    e = sp.Symbol("epsilon", positive=True)
    ms = [randomized_response(e), randomized_response(2 * e, datasets=("D'", "D"))]
    eps, ep = [e, 2 * e], e / 2
    a = hyperparameter_tuning(ms, eps, ep)
    b = hyperparameter_tuning(ms, eps, ep, method="subsets")
    for d in a.datasets:
        for o in a.outputs:
            r = decide_on_interval(a.p(d, o), b.p(d, o), e, R(1, 10), 3)
            assert r.identically_equal


def test_alg3_polynomial_and_certified_paths_agree():
    ms = MS3[:2]
    eps, ep = [L(2), L(3)], L(R(5, 4))
    for copies in (None, [3, 2]):
        exact_m = hyperparameter_tuning(ms, eps, ep, copies=copies)
        encl = hyperparameter_tuning_enclosures(ms, eps, ep, copies=copies, bits=90)
        for d, row in encl.items():
            for o, e in row.items():
                v = enclose(exact_m.p(d, o), 120)
                assert v is not None and e.lo <= v.hi and v.lo <= e.hi
                assert e.hi - e.lo < mpmath.mpf(2) ** -60


def test_alg3_bottom_is_data_independent_and_tight():
    A = hyperparameter_tuning(MS3, EPS3, EP3)
    assert A.p("D", BOTTOM) is A.p("D'", BOTTOM)
    r = check_ex_post(A, epsilon_tilde=theorem11_bound(EPS3, EP3), pairs=[("D", "D'")])
    assert next(f for f in r.findings if f.output == BOTTOM).tight


def test_alg3_by_hand_and_realized_table():
    rr = randomized_response(L(3))
    A = hyperparameter_tuning([rr, rr], [L(3), L(3)], L(2))
    # x = 1/3, p' = 1/2, E[w^k] = 1/(2 - w): E[x^k] = 3/5, E[x^{2k}] = 9/17.
    # (1,1): later copy competes on {o' >= 1}: A_D = 3/4 (3/5 - 3/4 * 9/17) = 207/1360
    assert A.p("D", (1, 1)) == R(207, 1360)
    assert A.p("D'", (1, 1)) == R(159, 1360)
    # ⊥ = E[(1 - x^k)^2] = 1 - 6/5 + 9/17 = 28/85
    assert A.p("D", BOTTOM) == R(28, 85)
    table = realized_ex_post_epsilon(A).as_dict()
    assert table[(1, 1)] == L(R(69, 53)) and table[BOTTOM] == 0


def test_alg3_output_order_and_validation():
    a = randomized_response(L(2))
    b = FiniteMechanism(pair(), {"D": {"x": 1}, "D'": {"x": 1}}, ["x"])
    with pytest.raises(InvalidParameter, match="order"):
        hyperparameter_tuning([a, b], [L(2), 1], 1)
    A = hyperparameter_tuning([a, b], [L(2), 1], 1, order=[0, "x", 1])
    assert A.outputs == (BOTTOM, (0, 1), ("x", 2), (1, 1))
    with pytest.raises(InvalidParameter, match="missing"):
        hyperparameter_tuning([a, b], [L(2), 1], 1, order=[0, 1])
    with pytest.raises(InvalidParameter, match="prior"):
        hyperparameter_tuning([a], [L(2)], 1, prior="poisson")
    with pytest.raises(InvalidParameter, match="method"):
        hyperparameter_tuning([a], [L(2)], 1, method="fast")
    with pytest.raises(InvalidParameter, match="epsilon_1 must be >= 0"):
        hyperparameter_tuning([a], [-1], 1)
    c = randomized_response(L(2), datasets=("A", "B"))
    with pytest.raises(InvalidMechanism, match="different datasets"):
        hyperparameter_tuning([a, c], [1, 1], 1)


def test_grid_basis_merges_terms():
    basis, keys = S.make_basis([R(1, 10), R(1, 5), R(3, 10)])
    assert basis.eps == (R(1, 10),) and keys == [(1,), (2,), (3,)]
    basis, keys = S.make_basis([L(2), L(8), 0])
    assert keys == [(1,), (3,), (0,)]
    # ten equal factors: 11 terms (binomial), not 2^10
    poly = S.expand([S.Factor(R(1, 3), keys[0])] * 10, basis)
    assert len(poly) == 11


def test_priors():
    g = S.Prior("geometric", L(2))
    assert g.p == R(1, 2) and g.moment(0, 1) == 1 and g.moment(L(3), R(1, 3), start=2) == R(1, 60)
    x = S.Prior("exponential", 2)
    assert x.moment(3, sp.exp(-3)) == R(2, 5)
    with pytest.raises(InvalidParameter):
        x.moment(1, sp.exp(-1), start=1)
    with pytest.raises(InvalidParameter):
        S.Prior("uniform", 1)


# ---------------------------------------------------------------------------
# registry, spec files
# ---------------------------------------------------------------------------


def test_transformers_registered():
    rr = randomized_response(L(3))
    t = get_transformer("ghazi_hyperparameter_tuning")
    A = t.apply([rr, rr], {"eps_prime": "log(2)", "epsilons": ["log(3)", "log(3)"]})
    B = hyperparameter_tuning([rr, rr], [L(3), L(3)], L(2))
    assert all(A.p(d, o) == B.p(d, o) for d in A.datasets for o in B.outputs)
    t2 = get_transformer("ghazi_generalized_above_threshold")
    A2 = t2.apply([rr], {"eps_prime": "log(2)", "threshold": "1"})
    assert A2.p("D", (1, 1)) == R(9, 20)
    f = FiniteMechanism(pair(), {"D": {0: 1}, "D'": {1: 1}}, [0, 1], name="f")
    t1 = get_transformer("ghazi_above_threshold")
    A1 = t1.apply([f], {"epsilons": ["log(2)"], "eps_prime": "log(2)"})
    assert A1.p("D", BOTTOM) == R(1, 3)
    with pytest.raises(InvalidParameter, match="deterministic"):
        t1.apply([rr], {"epsilons": ["1"], "eps_prime": "1"})
    with pytest.raises(InvalidParameter, match="prior"):
        t.apply([rr], {"eps_prime": "1", "prior": "uniform"})


def test_spec_file_uses_the_transformer():
    spec_mod = pytest.importorskip("verifier.spec")
    text = """
[graphs.g]
kind = "pair"
datasets = ["D", "D'"]

[mechanisms.rr]
graph = "g"
outputs = [0, 1]
distributions.D = { "1" = "3/4", "0" = "1/4" }
distributions."D'" = { "1" = "1/4", "0" = "3/4" }

[mechanisms.tuned]
algorithm = "ghazi_hyperparameter_tuning"
inputs = ["rr", "rr"]
params = { eps_prime = "log(2)", copies = [2, 1] }

[[claims]]
id = "tuned-is-dp"
mechanism = "tuned"
kind = "pure_dp"
epsilon = "2*log(3) + log(2)"
expected = "holds"
"""
    spec = spec_mod.loads_spec(text)
    assert spec.claims[0].run().verdict is Verdict.HOLDS

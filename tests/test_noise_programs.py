"""Noise programs: every closed form against a seeded simulation of the program
(chi-square and exact binomial tests), Laplace closed forms against numerical
integration (mpmath.quad), geometric closed forms against truncated sums with an
exact tail bound, and the validation of inputs."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from test_noise_samplers import (
    binomial_two_sided_pvalue,
    chi_square_pvalue,
    noisy_max_runner,
    sample_counts,
    sparse_vector_runner,
)

from verifier.algorithms.noise import (
    BOT,
    NO_NOISE,
    NoisyMax,
    SparseVector,
    bad_gap_svt,
    check_program_dp,
    epsilon_for_base,
    gap_svt,
    geometric,
    half_half,
    laplace,
    lyu_svt,
    numerical_svt,
    output_probability,
    program_mechanism,
    program_realized_epsilon,
    query_graph,
    ramp_pair,
    realized_epsilon_curve,
    report_noisy_max,
)
from verifier.errors import InvalidMechanism, InvalidParameter

R = sp.Rational
ALPHA = 1e-4  # significance level of every goodness-of-fit test (fixed seeds)
Q = (0, 1, 2, -1)


BASE = R(4, 5)


def _eps(build, w=BASE):  # type: ignore[no-untyped-def]
    return epsilon_for_base(build, w)


def _law(prog, q):  # type: ignore[no-untyped-def]
    pm = program_mechanism(prog, query_graph([q]))
    return pm, pm.mechanism.distribution(q)


def _runner(prog, q):  # type: ignore[no-untyped-def]
    if isinstance(prog, SparseVector):
        return sparse_vector_runner(prog, q)
    return noisy_max_runner(prog, q)


# ---------------------------------------------------------------------------
# closed forms vs simulation
# ---------------------------------------------------------------------------

PROGRAMS = [
    ("alg1_c2", lambda: lyu_svt(1, _eps(lambda e: lyu_svt(1, e, 2)), 2)),
    ("alg2_resample", lambda: lyu_svt(2, _eps(lambda e: lyu_svt(2, e, 2)), 2)),
    ("alg3_values", lambda: lyu_svt(3, _eps(lambda e: lyu_svt(3, e, 1)), 1)),
    ("alg4", lambda: lyu_svt(4, _eps(lambda e: lyu_svt(4, e, 2)), 2)),
    ("alg5", lambda: lyu_svt(5, _eps(lambda e: lyu_svt(5, e)))),
    ("alg6", lambda: lyu_svt(6, _eps(lambda e: lyu_svt(6, e)))),
    ("gap", lambda: gap_svt(_eps(lambda e: gap_svt(e, 1)), 1)),
    ("bad_gap", lambda: bad_gap_svt(_eps(lambda e: bad_gap_svt(e, 1)), 1)),
    ("numerical", lambda: numerical_svt(_eps(lambda e: numerical_svt(e, 1)), 1)),
    ("alg1_laplace", lambda: lyu_svt(1, sp.Integer(2), 2, noise="laplace")),
    ("alg6_laplace", lambda: lyu_svt(6, sp.Integer(2), noise="laplace")),
    ("gap_laplace_buckets", lambda: gap_svt(2, 1, noise="laplace", buckets=[1, 3])),
    ("numerical_laplace_buckets", lambda: numerical_svt(3, 2, noise="laplace", buckets=[0, 2])),
    (
        "alg3_laplace_buckets",
        lambda: SparseVector(
            "Alg 3, Laplace, buckets", laplace(1), laplace(R(1, 2)), 1, "value", buckets=(-1, 1, 2)
        ),
    ),
    ("rnm_argmax", lambda: report_noisy_max(_eps(lambda e: report_noisy_max(e)))),
    ("rnm_value", lambda: report_noisy_max(_eps(lambda e: report_noisy_max(e)), release="value")),
    ("rnm_argmax_laplace", lambda: report_noisy_max(2, noise="laplace")),
    (
        "rnm_value_laplace_buckets",
        lambda: report_noisy_max(2, noise="laplace", release="value", buckets=[-1, 1, 2]),
    ),
]


@pytest.mark.parametrize("name,build", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_closed_form_matches_simulation(name, build):
    prog = build()
    pm, law = _law(prog, Q)
    n = 20_000
    counts = sample_counts(_runner(prog, Q), n, seed=11, classify=pm.classify)
    assert chi_square_pvalue(counts, law, n) > ALPHA, name


def test_the_test_has_power_against_a_strict_comparison():
    """A program comparing with ``>`` instead of ``>=`` has a different law under
    geometric noise; the same test must reject the ``>=`` closed form for it."""
    prog = lyu_svt(1, _eps(lambda e: lyu_svt(1, e, 2)), 2)
    pm, law = _law(prog, Q)
    strict = SparseVector(
        "strict",
        prog.threshold_noise,
        prog.query_noise,
        2,
        threshold=1,  # q >= T+1+rho
    )
    n = 20_000
    counts = sample_counts(sparse_vector_runner(strict, Q), n, seed=11, classify=pm.classify)
    assert chi_square_pvalue(counts, law, n) < 1e-6


def test_the_test_has_power_against_a_wrong_scale():
    right = lyu_svt(1, _eps(lambda e: lyu_svt(1, e, 1)), 1)
    wrong = lyu_svt(4, right.claimed, 1)  # Alg. 4's scales
    pm, law = _law(right, Q)
    n = 20_000
    counts = sample_counts(sparse_vector_runner(wrong, Q), n, seed=3, classify=pm.classify)
    assert chi_square_pvalue(counts, law, n) < 1e-6


@pytest.mark.parametrize(
    "build,key,values",
    [
        (lambda: lyu_svt(3, _eps(lambda e: lyu_svt(3, e, 1)), 1), 1, [-6, -3, 4, 7]),
        (lambda: gap_svt(_eps(lambda e: gap_svt(e, 1)), 1), 0, [3, 6]),
        (
            lambda: report_noisy_max(_eps(lambda e: report_noisy_max(e)), release="value"),
            0,
            [-4, 5],
        ),
    ],
    ids=["alg3", "gap", "noisy_max_value"],
)
def test_point_probabilities_deep_in_the_tails(build, key, values):
    """Exact binomial tests of P(release = v) at values far outside the window."""
    prog = build()
    pm, _ = _law(prog, Q)
    n = 30_000
    raw = sample_counts(_runner(prog, Q), n, seed=5)
    for v in values:
        p = pm.point_probability(Q, key, v)
        if isinstance(prog, NoisyMax):
            label = f"[max={v}]"
        else:
            label = BOT * key + f"[{'g' if prog.release == 'gap' else 'v'}={v}]"
        pf = Fraction(int(p.p), int(p.q))
        assert binomial_two_sided_pvalue(raw.get(label, 0), n, pf) > ALPHA, (label, p)


# ---------------------------------------------------------------------------
# Laplace closed forms vs numerical integration (a second, independent method)
# ---------------------------------------------------------------------------


def _lap_cdf(rate: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    return mpmath.mpf(1) / 2 * mpmath.exp(rate * t) if t < 0 else 1 - mpmath.exp(-rate * t) / 2


def _lap_pdf(rate: mpmath.mpf, t: mpmath.mpf) -> mpmath.mpf:
    return rate / 2 * mpmath.exp(-rate * abs(t))


def _quad(f, breaks):  # type: ignore[no-untyped-def]
    pts = [-mpmath.inf, *sorted(set(breaks)), mpmath.inf]
    return mpmath.quad(f, pts)


def _close(closed: sp.Expr, numeric: mpmath.mpf) -> bool:
    return abs(mpmath.mpf(sp.N(closed, 40)) - numeric) < mpmath.mpf(10) ** -25


def test_laplace_svt_matches_quadrature():
    mpmath.mp.dps = 40
    eps = sp.Integer(1)
    prog = lyu_svt(1, eps, 2, noise="laplace")
    a, b = mpmath.mpf(1) / 2, mpmath.mpf(1) / 8  # rates eps/2 and eps2/(2c)
    q = (0, 1, -1)
    _, law = _law(prog, q)
    for label, p in law.items():

        def integrand(r, label=label):  # type: ignore[no-untyped-def]
            val = _lap_pdf(a, r)
            for qi, ans in zip(q, label, strict=False):
                up = 1 - _lap_cdf(b, r - qi)  # P(q + nu >= r) with T = 0
                val *= up if ans == "⊤" else 1 - up
            return val

        assert _close(p, _quad(integrand, [0, *q])), label


def test_laplace_noisy_max_and_buckets_match_quadrature():
    mpmath.mp.dps = 40
    rate = mpmath.mpf(1)  # eps = 2, Lap(2/eps)
    q = (0, 1, 1)
    prog = report_noisy_max(2, noise="laplace")
    _, law = _law(prog, q)
    for i in range(3):

        def integrand(t, i=i):  # type: ignore[no-untyped-def]
            val = _lap_pdf(rate, t - q[i])
            for j, qj in enumerate(q):
                if j != i:
                    val *= _lap_cdf(rate, t - qj)
            return val

        assert _close(law[f"argmax={i}"], _quad(integrand, q))
    # GapSVT with Laplace noise and buckets [0,1), [1,3), [3, oo)
    gprog = gap_svt(2, 1, noise="laplace", buckets=[1, 3])
    a, b = mpmath.mpf(1), mpmath.mpf(1) / 2  # rates eps/2, eps2/(2c)
    gq = (1, 0)
    _, glaw = _law(gprog, gq)

    def surv(t):  # type: ignore[no-untyped-def]
        return 1 - _lap_cdf(b, t)

    def gap_bucket(r, lo, hi, qi):  # type: ignore[no-untyped-def]
        # P(lo <= qi + nu - r < hi)
        return surv(r - qi + lo) - (0 if hi is None else surv(r - qi + hi))

    cases = {
        "[g∈[1,3)]": lambda r: _lap_pdf(a, r) * gap_bucket(r, 1, 3, gq[0]),
        "⊥[g∈[0,1)]": lambda r: _lap_pdf(a, r) * (1 - surv(r - gq[0])) * gap_bucket(r, 0, 1, gq[1]),
        "⊥[g≥3]": lambda r: _lap_pdf(a, r) * (1 - surv(r - gq[0])) * gap_bucket(r, 3, None, gq[1]),
    }
    for label, f in cases.items():
        assert _close(glaw[label], _quad(f, [-3, -2, -1, 0, 1, 2, 3, 4])), label


# ---------------------------------------------------------------------------
# geometric closed forms vs truncated sums with an exact tail bound
# ---------------------------------------------------------------------------


def test_geometric_closed_form_is_enclosed_by_truncated_sums():
    """P(⊥⊤) of Alg. 1 (c = 1) at q = (0, 1) by brute force over |ρ|, |ν_i| <= K in exact
    rationals; the neglected mass is at most P(|ρ| > K) + Σ_i P(|ν_i| > K)."""
    eps = _eps(lambda e: lyu_svt(1, e, 1))  # W = 4/5; ρ has x = W^2, ν has x = W
    prog = lyu_svt(1, eps, 1)
    closed = output_probability(prog, (0, 1), "⊥⊤")
    xr, xn = R(16, 25), R(4, 5)

    def pmf(x, k):  # type: ignore[no-untyped-def]
        return (1 - x) / (1 + x) * x ** abs(k)

    K = 60
    ks = range(-K, K + 1)
    pn = {k: pmf(xn, k) for k in ks}
    below = {t: sum(pn[k] for k in ks if k < t) for t in range(-2 * K, 2 * K + 2)}
    total = sum(pmf(xr, r) * below[r] * (sum(pn.values()) - below[r - 1]) for r in ks)
    tail = 2 * xr ** (K + 1) / (1 + xr) + 2 * (2 * xn ** (K + 1) / (1 + xn))
    assert total <= closed <= total + tail
    assert tail < R(1, 10**4)


def test_symbolic_closed_form_in_epsilon():
    eps = sp.Symbol("epsilon", positive=True)
    p = output_probability(lyu_svt(1, eps, 1), (0,), "⊤")
    # at eps = 4 log(5/4) the symbolic form agrees with the exact rational evaluation
    at = sp.nsimplify(p.subs(eps, 4 * sp.log(R(5, 4))))
    assert sp.simplify(at - output_probability(lyu_svt(1, 4 * sp.log(R(5, 4)), 1), (0,), "⊤")) == 0
    assert p.free_symbols == {eps}


def test_noisy_max_symmetry_identity():
    """Two equal answers, ties to the lowest index: P(argmax = 0) = (1 + P(tie))/2."""
    eps = 2 * sp.log(2)  # rate log 2, x = 1/2
    _, law = _law(report_noisy_max(eps), (0, 0))
    x = R(1, 2)
    tie = ((1 - x) / (1 + x)) ** 2 * (1 + x**2) / (1 - x**2)
    assert law["argmax=0"] == (1 + tie) / 2
    assert law["argmax=1"] == (1 - tie) / 2


# ---------------------------------------------------------------------------
# realized loss and claims
# ---------------------------------------------------------------------------


def test_alg5_realized_loss_is_infinite_and_alg3_grows_linearly():
    eps = _eps(lambda e: lyu_svt(5, e))
    pts = realized_epsilon_curve(lambda m: lyu_svt(5, eps), half_half, [1, 2])
    assert all(p.value is sp.oo for p in pts)
    e3 = _eps(lambda e: lyu_svt(3, e, 1))
    pts = realized_epsilon_curve(lambda m: lyu_svt(3, e3, 1), ramp_pair, [1, 2, 3])
    assert [sp.simplify(p.value / e3) for p in pts] == [1, R(3, 2), 2]


def test_alg4_approaches_seven_quarters_from_below():
    e = _eps(lambda x: lyu_svt(4, x, 1))
    pts = realized_epsilon_curve(lambda m: lyu_svt(4, e, 1), ramp_pair, [1, 2, 4, 8])
    ratios = [p.approx / float(e) for p in pts]
    assert ratios == sorted(ratios)
    assert 1 < ratios[0] and ratios[-1] < 1.75 and ratios[-1] > 1.749


def test_check_program_dp_covers_the_infinite_tails():
    prog = lyu_svt(3, _eps(lambda e: lyu_svt(3, e, 1)), 1)
    pm = program_mechanism(prog, query_graph(list(ramp_pair(2))))
    res = check_program_dp(pm, 3 * prog.claimed)  # (m+1)/2 = 3/2 < 3: holds everywhere
    assert res.holds
    tails = res.parts[1]
    assert tails.findings and all(f.output.endswith("(pointwise)") for f in tails.findings)
    r = program_realized_epsilon(pm)
    assert sp.simplify(r.value - R(3, 2) * prog.claimed) == 0


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def test_query_graph_validates_sensitivity():
    with pytest.raises(InvalidMechanism, match="moves by 2"):
        query_graph([(0, 0), (2, 0)], edges=[((0, 0), (2, 0))])
    with pytest.raises(InvalidMechanism, match="both directions"):
        query_graph([(0, 1), (1, 0)], style="monotone", edges=[((0, 1), (1, 0))])
    with pytest.raises(InvalidMechanism, match="more than one"):
        query_graph([(0, 0), (1, 1)], style="one_differ", edges=[((0, 0), (1, 1))])
    with pytest.raises(InvalidMechanism, match="integers"):
        query_graph([(0, 0.5)])
    assert query_graph([(0, 0), (1, 1)], style="one_differ").number_of_edges() == 0
    with pytest.raises(InvalidMechanism, match="twice"):
        query_graph([(0,), (0,)])


def test_programs_refuse_what_they_cannot_compute_exactly():
    with pytest.raises(InvalidParameter, match="density"):
        SparseVector("x", laplace(1), laplace(1), 1, "value")
    with pytest.raises(InvalidParameter, match="mix"):
        SparseVector("x", laplace(1), geometric(1), 1)
    with pytest.raises(InvalidParameter, match="rate"):
        geometric(0)
    with pytest.raises(InvalidParameter, match="commensurable"):
        program_mechanism(
            SparseVector("x", geometric(1), geometric(sp.sqrt(2)), 1), query_graph([(0,)])
        )
    with pytest.raises(InvalidParameter, match="cutoff c = 1"):
        program_mechanism(gap_svt(_eps(lambda e: gap_svt(e, 2)), 2), query_graph([(0, 1)]))
    with pytest.raises(InvalidParameter, match="no noise"):
        program_mechanism(SparseVector("x", NO_NOISE, NO_NOISE, 1), query_graph([(0,)]))
    with pytest.raises(InvalidParameter, match="Algorithms 1-6"):
        lyu_svt(7, 1)


def test_seeded_simulation_is_deterministic():
    prog = lyu_svt(1, _eps(lambda e: lyu_svt(1, e, 1)), 1)
    run = sparse_vector_runner(prog, Q)
    a = [run(random.Random(1)) for _ in range(3)]
    b = [run(random.Random(1)) for _ in range(3)]
    assert a == b


# ---------------------------------------------------------------------------
# the transformer registry and spec files
# ---------------------------------------------------------------------------


def test_transformers_are_registered_and_match_the_python_api():
    from verifier.algorithms import get_transformer
    from verifier.mechanism import FiniteMechanism
    from verifier.neighbours import pair

    base = FiniteMechanism(pair(), {"D": {(0, 0, 1): 1}, "D'": {(1, 1, 0): 1}})
    eps = 4 * sp.log(R(5, 4))
    m = get_transformer("sparse_vector").apply([base], {"variant": "lyu4", "epsilon": eps})
    direct = program_mechanism(lyu_svt(4, eps, 1), query_graph([(0, 0, 1), (1, 1, 0)]))
    for label in direct.mechanism.outputs:
        assert m.p("D", label) == direct.mechanism.p((0, 0, 1), label)
    rnm = get_transformer("report_noisy_max").apply([base], {"epsilon": 2, "noise": "laplace"})
    assert sum(rnm.distribution("D").values()) == 1
    random_base = FiniteMechanism(pair(), {"D": {(0,): R(1, 2), (1,): R(1, 2)}, "D'": {(0,): 1}})
    with pytest.raises(InvalidMechanism, match="deterministic"):
        get_transformer("sparse_vector").apply([random_base], {"variant": "lyu1", "epsilon": 1})


def test_a_spec_file_can_use_the_sparse_vector_transformer():
    from verifier.spec import loads_spec

    text = """
version = 1
[graphs.g]
kind = "pair"
datasets = ["D", "Dp"]

[mechanisms.answers]
graph = "g"
outputs = [[0, 0, 1], [1, 1, 0]]
distributions.D = ["1", "0"]
distributions.Dp = ["0", "1"]

[mechanisms.svt]
algorithm = "sparse_vector"
inputs = ["answers"]
params = { variant = "lyu4", epsilon = "4*log(5/4)" }

[[claims]]
id = "alg4-is-not-eps-dp"
mechanism = "svt"
kind = "pure_dp"
epsilon = "4*log(5/4)"
expected = "refuted"
"""
    (claim,) = loads_spec(text).claims
    assert claim.run().violated


def test_symbolic_laplace_closed_form_matches_quadrature():
    """Alg. 1 (c = 1) with Laplace noise on q = (0, 1): P(⊥⊤) as a closed form in ε,
    checked against numerical integration at several ε."""
    eps = sp.Symbol("epsilon", positive=True)
    p = output_probability(lyu_svt(1, eps, 1, noise="laplace"), (0, 1), "⊥⊤")
    assert p.free_symbols == {eps}
    mpmath.mp.dps = 40
    for e in (R(1, 3), 1, 3):
        a, b = mpmath.mpf(e) / 2, mpmath.mpf(e) / 4  # rates eps/2 and eps2/(2c)

        def f(r, a=a, b=b):  # type: ignore[no-untyped-def]
            # ρ = r; query 0 answers 0 (⊥: 0 + ν < r), query 1 answers 1 (⊤: 1 + ν >= r)
            return _lap_pdf(a, r) * _lap_cdf(b, r) * (1 - _lap_cdf(b, r - 1))

        assert _close(p.subs(eps, e), _quad(f, [0, 1]))


def test_case_studies_are_registered():
    """The claims themselves run in tests/test_casestudies.py; here: they are there."""
    from verifier.claims import load_casestudies

    reg = load_casestudies()
    ids = {c.id for c in reg.select(["noise_programs", "hartmann2022"])}
    for k in range(1, 7):
        assert f"lyu2017.alg{k}" in ids
    assert {"hartmann2022.lemma8.svt", "hartmann2022.lemma10.ptr"} <= ids
    assert "hartmann2022.theorem7.output_dependent_charge" in ids
    refuted = {c.id for c in reg.select(["noise_programs"]) if c.expected == "refuted"}
    assert {f"lyu2017.alg{k}" for k in (3, 4, 5, 6)} <= refuted

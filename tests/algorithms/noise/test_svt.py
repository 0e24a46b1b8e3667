"""The sparse-vector family: every closed form against a seeded simulation of the
program (chi-square and exact binomial tests), Laplace closed forms against
numerical integration (mpmath.quad), geometric closed forms against truncated sums
with an exact tail bound, the validation of programs, and the ``sparse_vector``
transformer."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from verifier.algorithms import get_transformer
from verifier.algorithms.noise import (
    BOT,
    TOP,
    SparseVector,
    bad_gap_svt,
    gap_svt,
    geometric,
    laplace,
    lyu_svt,
    numerical_svt,
    output_probability,
    program_mechanism,
    query_graph,
    to_sympy,
)
from verifier.algorithms.noise.samplers import (
    binomial_two_sided_pvalue,
    chi_square_pvalue,
    sample_counts,
    sparse_vector_runner,
)
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

from ._support import (
    ALPHA,
    Q,
    R,
    assert_closed_form_matches_simulation,
    close,
    eps_at,
    lap_cdf,
    lap_pdf,
    law_of,
    quad,
    runner,
)

# ---------------------------------------------------------------------------
# closed forms vs simulation
# ---------------------------------------------------------------------------

PROGRAMS = [
    ("alg1_c2", lambda: lyu_svt(1, eps_at(lambda e: lyu_svt(1, e, 2)), 2)),
    ("alg2_resample", lambda: lyu_svt(2, eps_at(lambda e: lyu_svt(2, e, 2)), 2)),
    ("alg3_values", lambda: lyu_svt(3, eps_at(lambda e: lyu_svt(3, e, 1)), 1)),
    ("alg4", lambda: lyu_svt(4, eps_at(lambda e: lyu_svt(4, e, 2)), 2)),
    ("alg5", lambda: lyu_svt(5, eps_at(lambda e: lyu_svt(5, e)))),
    ("alg6", lambda: lyu_svt(6, eps_at(lambda e: lyu_svt(6, e)))),
    ("gap", lambda: gap_svt(eps_at(lambda e: gap_svt(e, 1)), 1)),
    ("bad_gap", lambda: bad_gap_svt(eps_at(lambda e: bad_gap_svt(e, 1)), 1)),
    ("numerical", lambda: numerical_svt(eps_at(lambda e: numerical_svt(e, 1)), 1)),
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
]


@pytest.mark.parametrize("name,build", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_closed_form_matches_simulation(name, build):
    assert_closed_form_matches_simulation(build(), name)


def test_the_test_has_power_against_a_strict_comparison():
    """A program comparing with ``>`` instead of ``>=`` has a different law under
    geometric noise; the same test must reject the ``>=`` closed form for it."""
    prog = lyu_svt(1, eps_at(lambda e: lyu_svt(1, e, 2)), 2)
    pm, law = law_of(prog, Q)
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
    right = lyu_svt(1, eps_at(lambda e: lyu_svt(1, e, 1)), 1)
    wrong = lyu_svt(4, right.claimed, 1)  # Alg. 4's scales
    pm, law = law_of(right, Q)
    n = 20_000
    counts = sample_counts(sparse_vector_runner(wrong, Q), n, seed=3, classify=pm.classify)
    assert chi_square_pvalue(counts, law, n) < 1e-6


@pytest.mark.parametrize(
    "build,key,values",
    [
        (lambda: lyu_svt(3, eps_at(lambda e: lyu_svt(3, e, 1)), 1), 1, [-6, -3, 4, 7]),
        (lambda: gap_svt(eps_at(lambda e: gap_svt(e, 1)), 1), 0, [3, 6]),
    ],
    ids=["alg3", "gap"],
)
def test_point_probabilities_deep_in_the_tails(build, key, values):
    """Exact binomial tests of P(release = v) at values far outside the window."""
    prog = build()
    pm, _ = law_of(prog, Q)
    n = 30_000
    raw = sample_counts(runner(prog, Q), n, seed=5)
    for v in values:
        p = pm.point_probability(Q, key, v)
        label = BOT * key + f"[{'g' if prog.release == 'gap' else 'v'}={v}]"
        pf = Fraction(int(p.p), int(p.q))
        assert binomial_two_sided_pvalue(raw.get(label, 0), n, pf) > ALPHA, (label, p)


# ---------------------------------------------------------------------------
# Laplace closed forms vs numerical integration (a second, independent method)
# ---------------------------------------------------------------------------


def test_laplace_svt_matches_quadrature():
    mpmath.mp.dps = 40
    eps = sp.Integer(1)
    prog = lyu_svt(1, eps, 2, noise="laplace")
    a, b = mpmath.mpf(1) / 2, mpmath.mpf(1) / 8  # rates eps/2 and eps2/(2c)
    q = (0, 1, -1)
    _, law = law_of(prog, q)
    for label, p in law.items():

        def integrand(r, label=label):  # type: ignore[no-untyped-def]
            val = lap_pdf(a, r)
            for qi, ans in zip(q, label, strict=False):
                up = 1 - lap_cdf(b, r - qi)  # P(q + nu >= r) with T = 0
                val *= up if ans == "⊤" else 1 - up
            return val

        assert close(p, quad(integrand, [0, *q])), label


def test_laplace_gap_buckets_match_quadrature():
    mpmath.mp.dps = 40
    # GapSVT with Laplace noise and buckets [0,1), [1,3), [3, oo)
    gprog = gap_svt(2, 1, noise="laplace", buckets=[1, 3])
    a, b = mpmath.mpf(1), mpmath.mpf(1) / 2  # rates eps/2, eps2/(2c)
    gq = (1, 0)
    _, glaw = law_of(gprog, gq)

    def surv(t):  # type: ignore[no-untyped-def]
        return 1 - lap_cdf(b, t)

    def gap_bucket(r, lo, hi, qi):  # type: ignore[no-untyped-def]
        # P(lo <= qi + nu - r < hi)
        return surv(r - qi + lo) - (0 if hi is None else surv(r - qi + hi))

    cases = {
        "[g∈[1,3)]": lambda r: lap_pdf(a, r) * gap_bucket(r, 1, 3, gq[0]),
        "⊥[g∈[0,1)]": lambda r: lap_pdf(a, r) * (1 - surv(r - gq[0])) * gap_bucket(r, 0, 1, gq[1]),
        "⊥[g≥3]": lambda r: lap_pdf(a, r) * (1 - surv(r - gq[0])) * gap_bucket(r, 3, None, gq[1]),
    }
    for label, f in cases.items():
        assert close(glaw[label], quad(f, [-3, -2, -1, 0, 1, 2, 3, 4])), label


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
            return lap_pdf(a, r) * lap_cdf(b, r) * (1 - lap_cdf(b, r - 1))

        assert close(p.subs(eps, e), quad(f, [0, 1]))


# ---------------------------------------------------------------------------
# geometric closed forms vs truncated sums with an exact tail bound
# ---------------------------------------------------------------------------


def test_geometric_closed_form_is_enclosed_by_truncated_sums():
    """P(⊥⊤) of Alg. 1 (c = 1) at q = (0, 1) by brute force over |ρ|, |ν_i| <= K in exact
    rationals; the neglected mass is at most P(|ρ| > K) + Σ_i P(|ν_i| > K)."""
    eps = eps_at(lambda e: lyu_svt(1, e, 1))  # W = 4/5; ρ has x = W^2, ν has x = W
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


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def test_programs_refuse_what_they_cannot_compute_exactly():
    with pytest.raises(InvalidParameter, match="density"):
        program_mechanism(
            SparseVector("x", laplace(1), laplace(1), 1, "value"), query_graph([(0, 1)])
        )
    with pytest.raises(InvalidParameter, match="mix"):
        SparseVector("x", laplace(1), geometric(1), 1)
    with pytest.raises(InvalidParameter, match="cutoff c = 1"):
        program_mechanism(gap_svt(eps_at(lambda e: gap_svt(e, 2)), 2), query_graph([(0, 1)]))
    with pytest.raises(InvalidParameter, match="Algorithms 1-6"):
        lyu_svt(7, 1)


# ---------------------------------------------------------------------------
# the transformer and spec files
# ---------------------------------------------------------------------------


def test_the_transformer_matches_the_python_api():
    base = FiniteMechanism(pair(), {"D": {(0, 0, 1): 1}, "D'": {(1, 1, 0): 1}})
    eps = 4 * sp.log(R(5, 4))
    m = get_transformer("sparse_vector").apply([base], {"variant": "lyu4", "epsilon": eps})
    direct = program_mechanism(lyu_svt(4, eps, 1), query_graph([(0, 0, 1), (1, 1, 0)]))
    for label in direct.mechanism.outputs:
        assert m.p("D", label) == direct.mechanism.p((0, 0, 1), label)
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


# ---------------------------------------------------------------------------
# rational thresholds, rational units (Laurent closed forms)
# ---------------------------------------------------------------------------


def _lap_cdf(rate, x):  # P(nu < x) for Laplace(rate)
    return 1 - mpmath.exp(-rate * x) / 2 if x >= 0 else mpmath.exp(rate * x) / 2


def test_answer_sequence_laws_at_a_rational_threshold_match_quadrature():
    from verifier.algorithms.noise import answer_sequence_laws

    eps, t = R(1, 10), R(1, 2)
    prog = lyu_svt(1, eps, 1, noise="laplace", threshold=t)
    q = (1, 2, 0)
    ctx, laws = answer_sequence_laws(prog, [q])
    law = laws[tuple(Fraction(x) for x in q)]
    r1, r2 = mpmath.mpf(1) / 20, mpmath.mpf(1) / 40  # rates eps/2, eps/4
    for k in range(3):
        answers = (BOT,) * k + (TOP,)

        def integrand(r, k=k):
            f = r1 / 2 * mpmath.exp(-r1 * abs(r))
            for i in range(k):
                f *= _lap_cdf(r2, float(t) + r - q[i])
            return f * (1 - _lap_cdf(r2, float(t) + r - q[k]))

        pts = [-mpmath.inf, -1.5, -0.5, 0, 0.5, 1.5, mpmath.inf]
        direct = mpmath.quad(integrand, pts)
        assert abs(float(to_sympy(law[answers], ctx.u)) - float(direct)) < 1e-12


def test_laurent_closed_forms_equal_the_rational_function_ones():
    from verifier.algorithms.noise import answer_sequence_laws

    prog = lyu_svt(4, R(1, 10), 1, noise="laplace", threshold=1)
    q = (0, 2, 1)
    fast_ctx, fast = answer_sequence_laws(prog, [q])
    slow_ctx, slow = answer_sequence_laws(prog, [q], symbolic=True)
    key = tuple(Fraction(x) for x in q)
    assert fast_ctx.outer.u is not None and slow_ctx.outer.u is None
    for answers, p in fast[key].items():
        a = to_sympy(p, fast_ctx.u)
        b = to_sympy(slow[key][answers], slow_ctx.u)
        assert sp.simplify(a - b) == 0


def test_sensitivity_scales_every_noise():
    a = lyu_svt(1, R(1, 10), 1, noise="laplace", sensitivity=2)
    b = lyu_svt(1, R(1, 20), 1, noise="laplace")
    assert a.noises() == b.noises() and a.claimed == R(1, 10)
    with pytest.raises(InvalidParameter, match="sensitivity"):
        lyu_svt(1, 1, sensitivity=0)


def test_max_log_ratio_is_exact_on_ties_and_infinite_losses():
    from verifier.algorithms.noise import Laurent, max_log_ratio

    W = Laurent.monomial(1)
    u = Fraction(1, 10)
    # two outputs with exactly the same ratio W^-1 (a tie resolved exactly) and one below
    P = {"a": W / 4, "b": W * W / 4, "c": 1 - W / 4 - W * W / 4}
    Q = {"a": W * W / 4, "b": W * W * W / 4, "c": 1 - W * W / 4 - W * W * W / 4}
    r = max_log_ratio(P, Q, u)
    assert r.value == R(1, 10)
    # a release bonus of 2 units makes "c" win by 2u
    assert max_log_ratio(P, Q, u, {"c": 3}).output == "c"
    assert max_log_ratio({"a": W}, {"a": Laurent({})}, u).value is sp.oo
    with pytest.raises(InvalidParameter, match="negative"):
        max_log_ratio({"a": W - 1}, {"a": W}, u)


def test_the_transformer_takes_a_rational_threshold_with_laplace_noise():
    from verifier.algorithms.noise import answer_sequence_laws

    base = FiniteMechanism(pair(), {"D": {(1, 2, 0): 1}, "D'": {(0, 3, 1): 1}})
    params = {"variant": "lyu1", "epsilon": R(1, 10), "noise": "laplace", "threshold": "1/2"}
    m = get_transformer("sparse_vector").apply([base], params)
    prog = lyu_svt(1, R(1, 10), 1, noise="laplace", threshold=R(1, 2))
    ctx, laws = answer_sequence_laws(prog, [(1, 2, 0), (0, 3, 1)])
    for d, q in (("D", (1, 2, 0)), ("D'", (0, 3, 1))):
        law = laws[tuple(Fraction(x) for x in q)]
        assert set(m.outputs) == {"".join(a) for a in law}
        for answers, p in law.items():
            assert sp.simplify(m.p(d, "".join(answers)) - to_sympy(p, ctx.u)) == 0
    with pytest.raises(InvalidParameter, match="Laplace"):
        get_transformer("sparse_vector").apply([base], {**params, "noise": "geometric"})
    with pytest.raises(InvalidParameter, match="denominator"):
        get_transformer("sparse_vector").apply([base], {**params, "threshold": "1/1001"})
    with pytest.raises(InvalidParameter, match="rational"):
        get_transformer("sparse_vector").apply([base], {**params, "threshold": "sqrt(2)"})


def test_answers_only_keeps_the_answer_sequence_of_numerical_svt():
    # NumericalSVT(eps, c) draws rho ~ Lap(3/eps) and nu ~ Lap(6c/eps) (Wang et al. 2019,
    # Fig. 1); Lyu et al.'s Algorithm 1 at eps' = 2 eps/3 draws rho ~ Lap(2/eps') = Lap(3/eps)
    # and nu ~ Lap(4c/eps') = Lap(6c/eps): the same answer sequence.
    base = FiniteMechanism(pair(), {"D": {(1, 2, 0, 1): 1}, "D'": {(0, 3, 1, 1): 1}})
    t = get_transformer("sparse_vector")
    common = {"c": 2, "noise": "laplace", "threshold": 1}
    num = t.apply(
        [base], {"variant": "numerical", "epsilon": R(1, 10), "answers_only": True, **common}
    )
    lyu = t.apply([base], {"variant": "lyu1", "epsilon": R(1, 15), **common})
    assert num.outputs == lyu.outputs and all(set(o) <= {BOT, TOP} for o in num.outputs)
    for d in ("D", "D'"):
        for o in num.outputs:
            assert sp.simplify(num.p(d, o) - lyu.p(d, o)) == 0
    with pytest.raises(InvalidParameter, match="density"):
        t.apply([base], {"variant": "numerical", "epsilon": R(1, 10), **common})


def test_the_law_of_one_vector_is_remembered_shared_and_bounded(monkeypatch):
    """A vector's law is computed once per context and program (a search screens many
    pairs that share vectors), equals a fresh computation, is not changed through
    what answer_sequence_laws returns, and the cache keeps at most its bound."""
    from verifier.algorithms.noise import svt as svt_module
    from verifier.algorithms.noise.svt import answer_sequence_laws

    monkeypatch.setattr(svt_module, "_BITS_CACHE", type(svt_module._BITS_CACHE)())
    monkeypatch.setattr(svt_module, "_BITS_CACHED", [0])
    calls = []
    law_of = svt_module._sv_bits_law

    def counted(ctx, prog, q):
        calls.append(tuple(q))
        return law_of(ctx, prog, q)

    monkeypatch.setattr(svt_module, "_sv_bits_law", counted)
    prog = lyu_svt(1, sp.Rational(1, 2), noise="geometric")
    g = pair("D", "D'")
    a = program_mechanism(prog, g, answers={"D": (0, 1), "D'": (1, 1)}).mechanism
    b = program_mechanism(prog, g, answers={"D": (0, 1), "D'": (1, 0)}).mechanism
    assert calls == [(0, 1), (1, 1), (1, 0)]  # (0, 1) is computed once
    fresh = program_mechanism(prog, g, answers={"D": (1, 0), "D'": (0, 1)}).mechanism
    for o in a.outputs:
        assert a.p("D", o) == b.p("D", o) == fresh.p("D'", o)
    # a caller that changes its law does not change the remembered one
    _, laws = answer_sequence_laws(prog, [(0, 1)])
    law = next(iter(laws.values()))
    law.clear()
    _, again = answer_sequence_laws(prog, [(0, 1)])
    assert next(iter(again.values())) and sum(next(iter(again.values())).values()) == 1
    # the bound: the probabilities kept never exceed it, the oldest laws go first
    size = len(a.outputs)  # every vector's law has these answer sequences
    monkeypatch.setattr(svt_module, "BITS_CACHE_PROBABILITIES", 8 * size)
    for q in [(x, y) for x in range(3, 6) for y in range(3, 6)]:
        program_mechanism(prog, g, answers={"D": q, "D'": q})
        kept = sum(len(v) for v in svt_module._BITS_CACHE.values())
        assert kept == svt_module._BITS_CACHED[0] <= 8 * size
    assert len(svt_module._BITS_CACHE) == 8
    assert all(k[-1] != (0, 1) for k in svt_module._BITS_CACHE)


def test_the_law_cache_is_safe_under_threads(monkeypatch):
    """Threads (a dask worker's) asking for laws while the cache evicts: no error,
    the same laws as alone, and the count of kept probabilities stays exact."""
    import threading

    from verifier.algorithms.noise import svt as svt_module

    monkeypatch.setattr(svt_module, "_BITS_CACHE", type(svt_module._BITS_CACHE)())
    monkeypatch.setattr(svt_module, "_BITS_CACHED", [0])
    monkeypatch.setattr(svt_module, "BITS_CACHE_PROBABILITIES", 24)
    prog = lyu_svt(1, sp.Rational(1, 2), noise="geometric")
    g = pair("D", "D'")
    vectors = [(x, y) for x in range(4) for y in range(4)]

    def law(q):
        m = program_mechanism(prog, g, answers={"D": q, "D'": q}).mechanism
        return {o: m.p("D", o) for o in m.outputs}

    alone = {q: law(q) for q in vectors}
    seen: dict[int, list] = {}
    errors = []

    def work(i):
        try:
            seen[i] = [(q, law(q)) for q in vectors[i % 4 :] + vectors[: i % 4]]
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(alone[q] == p for rows in seen.values() for q, p in rows)
    kept = sum(len(v) for v in svt_module._BITS_CACHE.values())
    assert kept == svt_module._BITS_CACHED[0] <= 24


def test_laws_at_a_rational_w_are_the_rational_functions_evaluated_there():
    """At ``W = e^{-u}`` rational the laws are computed in GMP rationals; each equals
    the law computed as a rational function of ``W`` (valid for every ε) evaluated at
    that ``W``, and sums to exactly 1."""
    from gmpy2 import mpq

    from verifier.algorithms.noise import answer_sequence_laws, epsilon_for_base
    from verifier.arithmetic.exact import exact

    w = R(4, 5)
    for k in (1, 4):
        prog = lyu_svt(k, epsilon_for_base(lambda e, k=k: lyu_svt(k, e, 2), w), 2)
        q = (0, 2, 1)
        fast_ctx, fast = answer_sequence_laws(prog, [q])
        slow_ctx, slow = answer_sequence_laws(prog, [q], symbolic=True)
        key = tuple(Fraction(x) for x in q)
        assert fast_ctx.outer.w == Fraction(4, 5) and slow_ctx.outer.w is None
        law = fast[key]
        assert all(isinstance(p, type(mpq(0))) for p in law.values())
        assert sum(law.values()) == 1
        for answers, p in law.items():
            at_w = slow[key][answers].as_expr().subs(sp.Symbol("W"), w)
            assert exact(p) == to_sympy(p, fast_ctx.u) == at_w

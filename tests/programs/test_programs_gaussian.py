"""Gaussian noise in noise programs: certified enclosures held to closed forms, to the
certified Φ of :mod:`verifier.arithmetic.normal`, to a seeded run of the program text,
and verdicts on both sides of a hand-derived ε."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction as F

import networkx as nx
import pytest
import sympy as sp

from casestudies.dp_testing.programs import TEXTS
from verifier.algorithms.noise.gaussian import (
    GaussianNoisyMax,
    GaussianSparseVector,
    delta_bounds,
    gaussian_laws,
    gaussian_mechanism,
    integral_bounds,
    phi_bounds,
    probability_bounds,
)
from verifier.algorithms.noise.text import Refused, lower, lower_gaussian
from verifier.arithmetic.exact import Verdict, enclose
from verifier.arithmetic.normal import normal_cdf
from verifier.checks.privacy import check_approx_dp, check_pure_dp
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.programs.syntax import parse_program, run_program

#: Report-Noisy-Max and Lyu et al.'s Algorithm 1 (the texts of the case study) with
#: each Laplace draw of scale b replaced by a Gaussian of standard deviation b
NOISY_MAX = TEXTS["rnm_laplace"].replace("laplace(", "gaussian(")
SVT = TEXTS["lyu1"].replace("laplace(", "gaussian(")


def _phi_closed(x: sp.Expr) -> sp.Expr:
    """Φ(x) = (1 + erf(x/√2))/2, enclosed by :mod:`verifier.arithmetic.normal`."""
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def _inside(closed: sp.Expr, p: sp.Expr, bits: int) -> bool:
    ref = enclose(closed, 128)
    assert ref is not None
    rlo, rhi = ref.bounds()
    lo, hi = probability_bounds(p, bits)
    return lo <= rlo and rhi <= hi


@pytest.mark.parametrize(
    "z", [F(0), F(1, 3), F(-1, 3), F(5, 2), F(-37, 8), F(-9), F(19, 2), F(-10), F(-11), F(40)]
)
def test_phi_bounds_hold_the_certified_phi(z: F) -> None:
    lo, hi = (F(v, 2**128) for v in phi_bounds(z))
    rlo, rhi = normal_cdf(z, 160)
    assert lo <= rlo and rhi <= hi
    if abs(z) <= 10:
        assert hi - lo < F(1, 2**120)


def test_noisy_max_two_queries_closed_form() -> None:
    """Pr[argmax = 0] = Φ((q0 - q1)/(σ√2)) (ν1 - ν0 ~ N(0, 2σ²))."""
    model = lower_gaussian(parse_program(NOISY_MAX), {"eps": 1})
    assert model == GaussianNoisyMax("report_noisy_max_gaussian", F(2), sp.Integer(1))
    for q in [(1, 0), (0, 2), (3, 3)]:
        law = gaussian_laws(model, q)
        d = sp.Integer(q[0] - q[1])
        for bits in (64, 512):
            assert _inside(_phi_closed(d / (2 * sp.sqrt(2))), law["argmax=0"], bits)
            assert _inside(_phi_closed(-d / (2 * sp.sqrt(2))), law["argmax=1"], bits)
        # refinement shrinks the enclosure
        w0 = probability_bounds(law["argmax=0"], 64)
        w3 = probability_bounds(law["argmax=0"], 512)
        assert w3[1] - w3[0] < (w0[1] - w0[0]) / 4


def test_sparse_vector_one_query_closed_form() -> None:
    """Pr[⊤] = Φ((q - T)/√(σ_T² + σ_q²)): ν - ρ ~ N(0, σ_T² + σ_q²)."""
    model = lower_gaussian(parse_program(SVT), {"eps": 1, "T": "1/2"})
    assert model == GaussianSparseVector("lyu_alg1", F(2), F(4), 1, F(1, 2), None, sp.Integer(1))
    for q in (0, 1, 3):
        law = gaussian_laws(model, (q,))
        x = (q - sp.Rational(1, 2)) / sp.sqrt(20)
        assert _inside(_phi_closed(x), law["⊤"], 64)
        assert _inside(_phi_closed(-x), law["⊥"], 256)


def test_laws_enclose_one() -> None:
    """Every law is a partition: its enclosures sum around 1, for both shapes and a
    threshold redrawn after each top (segments multiply)."""
    resample = SVT.replace(
        "        count = count + 1", "        rho = gaussian(3/eps)\n        count = count + 1"
    )
    for text, args, q in [
        (SVT, {"eps": 1, "c": 2}, (0, 1, 2)),
        (resample, {"eps": 1, "c": 2}, (1, 0, 1)),
        (NOISY_MAX, {"eps": 1}, (0, 1, 2)),
    ]:
        model = lower_gaussian(parse_program(text), args)
        law = gaussian_laws(model, q)
        lo = sum(probability_bounds(p, 128)[0] for p in law.values())
        hi = sum(probability_bounds(p, 128)[1] for p in law.values())
        assert lo <= 1 <= hi and hi - lo < F(1, 5)
    assert lower_gaussian(parse_program(resample), {"eps": 1, "c": 2}).resample_sigma == 3


def _binomial_ok(count: int, n: int, lo: F, hi: F) -> bool:
    """``count/n`` within 5 standard deviations of some ``p ∈ [lo, hi]``."""
    f = count / n
    p = min(max(f, float(lo)), float(hi))
    return abs(f - p) <= 5 * math.sqrt(max(p * (1 - p), 1e-4) / n)


@pytest.mark.parametrize(
    ("text", "args", "q"),
    [(NOISY_MAX, {"eps": 1}, (1, 0, 1)), (SVT, {"eps": 1, "c": 2, "T": 1}, (0, 2, 1))],
)
def test_seeded_run_of_the_text_agrees(text: str, args: dict[str, int], q: tuple[int, ...]) -> None:
    """A sanity check, not a verdict: the program text run with random Gaussian noise
    (``run_program``) lands in every output about as often as its enclosure says."""
    prog = parse_program(text)
    rng = random.Random(20260)
    n = 4000
    runs = Counter(run_program(prog, q, args, rng) for _ in range(n))
    law = gaussian_laws(lower_gaussian(prog, args), q)

    def label(out: tuple[object, ...]) -> str:
        return f"argmax={out[0]}" if "arg" in text else "".join(map(str, out))

    seen = Counter({label(o): c for o, c in runs.items()})
    assert set(seen) <= set(law)
    for o, p in law.items():
        lo, hi = probability_bounds(p, 256)
        assert _binomial_ok(seen[o], n, lo, hi), (o, seen[o], float(lo), float(hi))


def _instance() -> tuple[nx.Graph, dict[str, tuple[int, int]]]:
    g = nx.Graph([("a", "b"), ("b", "c")])
    return g, {"a": (1, 1), "b": (0, 2), "c": (1, 1)}


def test_claims_on_both_sides_of_the_exact_epsilon() -> None:
    """On (1, 1) ~ (0, 2) with σ = 2 the worst ratio is Φ(0)/Φ(-1/√2) = 1/erfc(1/2):
    ε* = -log(erfc(1/2)) = 0.73501...; 7/10 is refuted, 77/100 holds, and δ(1/2) =
    1/2 - e^{1/2} erfc(1/2)/2 = 0.10471... lies in the certified enclosure."""
    g, ans = _instance()
    model = lower_gaussian(parse_program(NOISY_MAX), {"eps": 1})
    mech = gaussian_mechanism(model, g, ans)
    star = enclose(-sp.log(sp.erfc(sp.Rational(1, 2))), 64)
    assert star is not None and F(7, 10) < star.bounds()[0] <= star.bounds()[1] < F(77, 100)
    low = check_pure_dp(mech, epsilon=sp.Rational(7, 10))
    assert low.verdict is Verdict.VIOLATED
    worst = low.worst()
    assert worst.output == "argmax=0" and worst.pair in (("a", "b"), ("c", "b"))
    assert check_pure_dp(mech, epsilon=sp.Rational(77, 100)).verdict is Verdict.HOLDS
    d = sp.Rational(1, 2) - sp.exp(sp.Rational(1, 2)) * sp.erfc(sp.Rational(1, 2)) / 2
    ref = enclose(d, 128)
    assert ref is not None
    lo, hi = delta_bounds(mech.distribution("a"), mech.distribution("b"), sp.Rational(1, 2), 512)
    assert lo <= ref.bounds()[0] and ref.bounds()[1] <= hi and hi - lo < F(1, 100)
    assert (
        check_approx_dp(mech, epsilon=sp.Rational(1, 2), delta=sp.Rational(11, 100)).verdict
        is Verdict.HOLDS
    )
    assert (
        check_approx_dp(mech, epsilon=sp.Rational(1, 2), delta=sp.Rational(1, 10)).verdict
        is Verdict.VIOLATED
    )


def test_undecided_when_the_claim_is_the_exact_value_within_the_budget() -> None:
    """A claim within the final enclosure's width of the exact ε stays undecided."""
    g, ans = _instance()
    mech = gaussian_mechanism(lower_gaussian(parse_program(NOISY_MAX), {"eps": 1}), g, ans)
    # ε* = 0.7350111...: 0.73501 is below it by 1e-6, far inside the last enclosure
    r = check_pure_dp(mech, epsilon=sp.Rational(73501, 100000), pairs=[("a", "b")])
    assert r.verdict is Verdict.UNDECIDED


def test_value_releases_are_refused_with_the_reason() -> None:
    value_max = NOISY_MAX.replace("output arg", "output best")
    with pytest.raises(InvalidMechanism, match="unbounded"):
        lower_gaussian(parse_program(value_max), {"eps": 1})
    value_svt = SVT.replace("output top", "output q[i] + nu")
    with pytest.raises(InvalidMechanism, match="unbounded"):
        lower_gaussian(parse_program(value_svt), {"eps": 1})


def test_other_refusals() -> None:
    mixed = SVT.replace("nu = gaussian(4*c/eps)", "nu = laplace(4*c/eps)")
    with pytest.raises(InvalidMechanism, match="one noise family"):
        lower_gaussian(parse_program(mixed), {"eps": 1})
    with pytest.raises(InvalidParameter, match="rational"):
        lower_gaussian(parse_program(NOISY_MAX), {"eps": "log(2)"})
    with pytest.raises(Refused, match="lower_gaussian"):
        lower(parse_program(NOISY_MAX), {"eps": 1})


def test_no_query_noise_is_a_step() -> None:
    """Without query noise a pattern is an interval of the threshold noise: ⊤ then ⊥
    on answers (0, 1) needs ρ <= 0 and ρ > 1, exactly 0; ⊥ on (2,) is P(ρ > 2) =
    Φ(-1) for σ_T = 2."""
    no_nu = SVT.replace("    nu = gaussian(4*c/eps)\n", "").replace("q[i] + nu", "q[i]")
    model = lower_gaussian(parse_program(no_nu), {"eps": 1, "c": 2})
    assert model.sigma == 0
    assert gaussian_laws(model, (0, 1))["⊤⊥"] == 0
    assert _inside(_phi_closed(sp.Integer(-1)), gaussian_laws(model, (2,))["⊥"], 256)


def test_integral_bounds_nest_across_levels() -> None:
    spec = (F(3, 2), F(1, 3), ((1, F(0), F(1)), (-1, F(2, 5), F(2))))
    prev = (F(0), F(1))
    for level in range(3):
        lo, hi = integral_bounds(*spec, level)
        assert lo <= hi
        # each level's enclosure meets the last one (both hold the same number)
        assert lo <= prev[1] and prev[0] <= hi
        prev = (lo, hi)


def test_neighbours_beyond_the_sensitivity_are_refused() -> None:
    model = lower_gaussian(parse_program(NOISY_MAX), {"eps": 1})
    with pytest.raises(InvalidMechanism, match="sensitivity"):
        gaussian_mechanism(model, nx.Graph([("a", "b")]), {"a": (0, 0), "b": (2, 0)})

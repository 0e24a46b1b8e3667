"""zCDP over every Rényi order and μ-GDP over the whole trade-off curve
(:mod:`verifier.accounting.curves`), and the certified normal distribution function
behind GDP (:mod:`verifier.arithmetic.normal`).

Expected values come from independent computations: mpmath's ``ncdf``/``erfinv`` at
high precision, a dense maximisation of ``D_α/α`` in floating point, the closed form
``μ = 2Φ⁻¹(e^ε/(1+e^ε))`` of randomized response, Bun & Steinke's Proposition 1.4
(ε-DP implies ε²/2-zCDP) and Dong, Roth & Su's Corollary 2.13 (μ-GDP iff
``(ε, δ_μ(ε))``-DP for every ε >= 0, ``δ_μ(ε) = Φ(-ε/μ + μ/2) - e^ε Φ(-ε/μ - μ/2)``).
Floats only locate the threshold; every verdict asserted is the checker's exact or
certified one, on both sides of the threshold.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from verifier.accounting.curves import check_gdp, check_zcdp, gdp_mu
from verifier.accounting.pld import PrivacyLoss
from verifier.arithmetic.exact import Verdict
from verifier.arithmetic.normal import normal_cdf, normal_quantile
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.instances import randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

H, V, U = Verdict.HOLDS, Verdict.VIOLATED, Verdict.UNDECIDED


def _mp(f: Fraction) -> mpmath.mpf:
    return mpmath.mpf(f.numerator) / f.denominator


def _two(p: list[Fraction], q: list[Fraction]) -> FiniteMechanism:
    outs = list(range(len(p)))
    return FiniteMechanism(
        pair("D", "D'"),
        {"D": dict(zip(outs, p, strict=True)), "D'": dict(zip(outs, q, strict=True))},
    )


def _random_pmf(rng: random.Random, n: int) -> list[Fraction]:
    w = [rng.randint(1, 9) for _ in range(n)]
    return [Fraction(x, sum(w)) for x in w]


# ---------------------------------------------------------------------------
# the certified normal distribution function
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "z", [Fraction(-37), Fraction(-9, 2), Fraction(-1, 7), Fraction(3), Fraction(25)]
)
def test_normal_cdf_encloses_mpmaths_value(z):
    with mpmath.workdps(400):
        ref = mpmath.ncdf(_mp(z))
        lo, hi = normal_cdf(z, 96)
        assert _mp(lo) <= ref <= _mp(hi)
        assert hi - lo < Fraction(1, 2**80)


@pytest.mark.parametrize(
    "p", [Fraction(1, 10**40), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)]
)
def test_normal_quantile_brackets_the_inverse(p):
    with mpmath.workdps(200):
        ref = mpmath.sqrt(2) * mpmath.erfinv(2 * _mp(p) - 1)
        lo, hi = normal_quantile(p, 96)
        assert _mp(lo) < ref < _mp(hi) and hi - lo < Fraction(1, 2**80)


def test_normal_functions_refuse_what_they_cannot_enclose():
    with pytest.raises(ValueError, match="not strictly between 0 and 1"):
        normal_quantile(Fraction(1), 64)
    with pytest.raises(ValueError, match="beyond"):
        normal_cdf(Fraction(10**4), 64)


# ---------------------------------------------------------------------------
# zCDP
# ---------------------------------------------------------------------------


def _rho_star(p: list[Fraction], q: list[Fraction]) -> float:
    """sup_{α>1} D_α(P||Q)/α on both orders, by a dense float search (threshold only)."""
    best = 0.0
    for a, b in ((p, q), (q, p)):
        for k in range(1, 4000):
            alpha = 1 + k / 400
            s = sum(float(x) ** alpha * float(y) ** (1 - alpha) for x, y in zip(a, b, strict=True))
            best = max(best, mpmath.log(s) / (alpha - 1) / alpha)
        kl = sum(float(x) * mpmath.log(float(x) / float(y)) for x, y in zip(a, b, strict=True))
        best = max(best, kl)  # the limit alpha -> 1
    return float(best)


def test_randomized_response_is_zcdp_exactly_above_its_threshold():
    rr = randomized_response(sp.log(3))
    p, q = [Fraction(1, 4), Fraction(3, 4)], [Fraction(3, 4), Fraction(1, 4)]
    star = _rho_star(p, q)
    # the threshold is the KL divergence log(3)/2 here (D_α/α decreases)
    assert abs(star - float(sp.log(3) / 2)) < 1e-9
    above = sp.nsimplify(star * (1 + 1e-3), rational=True)
    below = sp.nsimplify(star * (1 - 1e-3), rational=True)
    assert check_zcdp(rr, rho=above).verdict is H
    result = check_zcdp(rr, rho=below)
    assert result.verdict is V and "at alpha = " in result.findings[0].note
    # Bun & Steinke 2016, Proposition 1.4: eps-DP implies (eps^2/2)-zCDP
    assert check_zcdp(rr, rho=sp.log(3) ** 2 / 2).verdict is H


@pytest.mark.parametrize("seed", range(4))
def test_zcdp_threshold_of_random_mechanisms(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    p, q = _random_pmf(rng, n), _random_pmf(rng, n)
    m = _two(p, q)
    star = _rho_star(p, q)
    assert check_zcdp(m, rho=sp.nsimplify(star * 1.01, rational=True)).verdict is H
    assert check_zcdp(m, rho=sp.nsimplify(star * 0.99, rational=True)).verdict is V


def test_zcdp_over_a_bounded_range_of_orders_and_the_xi_part():
    rr = randomized_response(sp.log(3))
    # D_2 = log(3/4·3 + 1/4·1/3) = log(7/3) = 0.847 <= 2·rho needs rho >= 0.4236
    assert check_zcdp(rr, rho=sp.Rational(43, 100), orders=(2, 3)).verdict is H
    assert check_zcdp(rr, rho=sp.Rational(42, 100), orders=(2, 3)).verdict is V
    # pure eps-DP: D_α <= D_∞ = log 3 for every α, and not below
    assert check_zcdp(rr, xi=sp.log(3), rho=0).verdict is H
    assert check_zcdp(rr, xi=sp.Rational(109, 100), rho=0).verdict is V


def test_zcdp_of_an_output_only_one_side_gives_fails_for_every_rho():
    m = _two([Fraction(1, 2), Fraction(1, 2)], [Fraction(1), Fraction(0)])
    r = check_zcdp(m, rho=1000)
    assert r.verdict is V
    assert any("mass where Q puts none" in f.note for f in r.findings)


def test_zcdp_says_undecided_when_the_budget_runs_out():
    rr = randomized_response(sp.log(3))
    # at the threshold itself (KL = rho) no cell next to alpha = 1 proves the bound
    r = check_zcdp(rr, rho=sp.log(3) / 2, max_cells=50)
    assert r.verdict is U and "undecided on alpha in" in r.findings[0].note


def test_zcdp_refuses_bad_parameters():
    rr = randomized_response(sp.log(3))
    with pytest.raises(InvalidParameter, match="rho must be >= 0"):
        check_zcdp(rr, rho=-1)
    with pytest.raises(InvalidParameter, match="1 <= lo < hi"):
        check_zcdp(rr, rho=1, orders=(3, 2))
    with pytest.raises(InvalidParameter, match="float"):
        check_zcdp(rr, rho=0.5)
    with pytest.raises(InvalidMechanism):
        check_zcdp({"D": {}}, rho=1)


# ---------------------------------------------------------------------------
# Gaussian DP
# ---------------------------------------------------------------------------


def _rr_mu(eps: float) -> float:
    """2Φ⁻¹(e^ε/(1+e^ε)): the trade-off vertex of ε-randomized response is
    (1/(1+e^ε), 1/(1+e^ε))."""
    with mpmath.workdps(50):
        t = mpmath.e**eps / (1 + mpmath.e**eps)
        return float(2 * mpmath.sqrt(2) * mpmath.erfinv(2 * t - 1))


@pytest.mark.parametrize("eps", [sp.log(3), sp.Rational(1, 10), sp.Integer(4)])
def test_randomized_response_gdp_threshold_is_the_closed_form(eps):
    rr = randomized_response(eps)
    star = _rr_mu(float(eps))
    r = gdp_mu(rr)
    assert r.certified and abs(float(r.value) - star) < 1e-12
    assert check_gdp(rr, mu=sp.nsimplify(star * (1 + 1e-9), rational=True)).verdict is H
    assert check_gdp(rr, mu=sp.nsimplify(star * (1 - 1e-9), rational=True)).verdict is V


def _delta_mu(eps: float, mu: float) -> float:
    return float(mpmath.ncdf(-eps / mu + mu / 2) - mpmath.e**eps * mpmath.ncdf(-eps / mu - mu / 2))


@pytest.mark.parametrize("seed", range(4))
def test_gdp_agrees_with_the_privacy_profile_duality(seed):
    """Dong, Roth & Su 2022, Corollary 2.13, as a second method: at μ* the mechanism's
    profile stays below δ_μ*(ε) for every ε, and at 0.98 μ* it rises above somewhere."""
    rng = random.Random(100 + seed)
    n = rng.randint(2, 4)
    m = _two(_random_pmf(rng, n), _random_pmf(rng, n))
    star = float(gdp_mu(m).value)
    profiles = [PrivacyLoss.of(m, a, b).profile() for a, b in m.ordered_pairs()]

    def delta_m(eps: float) -> float:
        worst = 0.0
        for segs in profiles:
            for s in segs:
                if float(s.eps_lo) <= eps and (s.eps_hi is sp.oo or eps <= float(s.eps_hi)):
                    worst = max(worst, float(s.a) - mpmath.e**eps * float(s.b))
        return worst

    grid = [k / 50 for k in range(0, 400)]
    assert all(delta_m(e) <= _delta_mu(e, star) + 1e-9 for e in grid)
    assert any(delta_m(e) > _delta_mu(e, 0.98 * star) for e in grid)
    assert check_gdp(m, mu=sp.nsimplify(star * 1.001, rational=True)).verdict is H
    assert check_gdp(m, mu=sp.nsimplify(star * 0.999, rational=True)).verdict is V


def test_gdp_of_an_output_only_one_side_gives_is_infinite():
    m = _two([Fraction(1, 2), Fraction(1, 2)], [Fraction(1), Fraction(0)])
    assert gdp_mu(m).value is sp.oo
    assert check_gdp(m, mu=100).verdict is V
    same = _two([Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 3), Fraction(2, 3)])
    assert gdp_mu(same).value == 0 and check_gdp(same, mu=0).verdict is H


def test_gdp_refuses_bad_parameters():
    rr = randomized_response(sp.log(3))
    with pytest.raises(InvalidParameter, match="mu must be >= 0"):
        check_gdp(rr, mu=-1)
    assert check_gdp(rr, mu="log(5)").verdict is H  # a string in the spec grammar


# ---------------------------------------------------------------------------
# the spec-file kinds (examples/curves.toml: expected outcomes derived by hand in its
# comments)
# ---------------------------------------------------------------------------


def test_the_curve_kinds_decide_the_example_as_derived_by_hand():
    from pathlib import Path

    from verifier.spec import load_spec

    path = Path(__file__).resolve().parents[2] / "examples" / "curves.toml"
    spec = load_spec(path)
    got = {c.id: (c.kind, r.verdict) for c, r in spec.run()}
    assert got == {
        "rr-profile": ("approx_dp", H),
        "rr-profile-zero": ("approx_dp", H),
        "rr-profile-below": ("approx_dp", V),
        "rr-zcdp": ("zcdp", H),
        "rr-zcdp-below-kl": ("zcdp", V),
        "rr-zcdp-from-pure-dp": ("zcdp", H),
        "rr-f-dp": ("f_dp", H),
        "rr-f-dp-too-strong": ("f_dp", V),
        "rr-gdp": ("gdp", H),
        "rr-gdp-below": ("gdp", V),
    }
    tight = {c.id for c, r in spec.run() if r.tight}
    assert {"rr-profile", "rr-f-dp"} <= tight


def test_an_f_dp_claim_must_range_over_the_whole_type_i_error():
    import dataclasses
    from pathlib import Path

    from verifier.checks.ranges import ParameterRange
    from verifier.errors import SpecError
    from verifier.spec import load_spec

    spec = load_spec(Path(__file__).resolve().parents[2] / "examples" / "curves.toml")
    claim = next(c for c in spec.claims if c.id == "rr-f-dp")
    x = claim.over.symbol
    half = dataclasses.replace(claim, over=ParameterRange(x, sp.Integer(0), sp.Rational(1, 2)))
    with pytest.raises(SpecError, match=r"over = \{ symbol = \"x\", lo = 0, hi = 1 \}"):
        half.run()
    concave = dataclasses.replace(claim, tradeoff=x * (1 - x))
    with pytest.raises(InvalidParameter, match="not convex"):
        concave.run()

"""Liu & Talwar 2019: the extremal families behind the tightness entries (hand
derivations in the module docstring of casestudies.liu_talwar2019.tightness)."""

from __future__ import annotations

import math

import pytest
import sympy as sp

from casestudies.liu_talwar2019 import tightness as lt
from verifier.algorithms.liu_talwar import BOTTOM, thresholding, uniform_selection
from verifier.arithmetic.exact import Verdict, approx
from verifier.checks.privacy import pure_epsilon
from verifier.claims import load_casestudies
from verifier.constructions.packing import packing_instance
from verifier.mechanism.compose import postprocess

R = sp.Rational


def _thresholding_float(p_pass_d, p_pass_dp, q_d, q_dp, gamma, T):  # type: ignore[no-untyped-def]
    """Independent float model of Theorem 3.1's thresholding: round j is reached with
    probability r^(j-1), r = (1-p)(1-gamma); output o in round j with probability Q(o)."""

    def pr(q, p):  # type: ignore[no-untyped-def]
        r = (1 - p) * (1 - gamma)
        return sum(q * r**j for j in range(T)) if T else q / (1 - r)

    return pr(q_d, p_pass_d) / pr(q_dp, p_pass_dp)


def test_thm31_family_ratio_is_the_hand_derived_function_and_tends_to_4():
    for a in (R(1, 10), R(1, 1000)):
        # by hand: passing mass 2a + 1/4 at D, a + 1/2 at D'; output 1 has 2a vs a
        expected = 2 * (a + R(1, 2)) / (2 * a + R(1, 4))
        assert lt.thm31_ratio(a) == expected
        f = _thresholding_float(2 * a + 0.25, a + 0.5, 2 * a, a, 0.0, None)
        assert math.isclose(f, float(expected), rel_tol=1e-12)
    t = lt.thm31_b_entry()
    assert t.status == "approached" and 0.99999 < t.ratio < 1 and "a -> 0" in t.family


def test_thm31_passing_outputs_never_use_eps0():
    # finite T and gamma > 0: the passing output stays below e^(2 eps1) = 4 (float model)
    for a in (0.1, 0.01, 0.001):
        for gamma, T in ((0.01, 300), (0.1, 30), (0.5, 5)):
            f = _thresholding_float(2 * a + 0.25, a + 0.5, 2 * a, a, gamma, T)
            assert f < 4
    reg = load_casestudies()
    out = reg.get("liu_talwar2019.thm31.b_passing_two_eps1").run()
    assert out.verdict is Verdict.HOLDS


def test_thm34_delta_matters_and_is_far_below_the_claim():
    w, g, T = lt.THM34_POINTS[0]
    A, eps, claimed, realized = lt.thm34_point(w, g, T)
    # by hand: Pr_D[score 3] = G(1) - G(1 - w), G of random_stopping_hard; ~ w E|S|
    ES = (1 - (1 - g) ** T) / g
    assert approx(w) <= approx(realized) <= approx(w * ES) * 1.0001
    assert 0 < approx(realized / claimed) < approx(sp.sqrt(w / 2))
    reg = load_casestudies()
    out = reg.get("liu_talwar2019.thm34.delta_matters").run()
    assert out.verdict is Verdict.HOLDS and out.tightness().status == "loose"


def test_d2_reduction_equals_the_full_construction_at_K16():
    inst = packing_instance(16, R(1, 4), sp.log(2))
    A = thresholding(uniform_selection(inst.mechanisms), 1, 0, None)
    sel = postprocess(
        A, lambda o: o if o == BOTTOM else o[0][0], [BOTTOM, *range(16)], name="proportional"
    )
    r = lt.d2_reduced(16, R(1, 4), sp.log(2))
    assert sp.simplify(pure_epsilon(sel).value - r["eps_hat"]) == 0
    assert sel.p(inst.D(3), 3) == r["useful"] == R(16, 21)


@pytest.mark.slow  # a tightness family decided member by member: `pytest -m slow` (.ci/run)
def test_d2_factor_two_is_exhibited():
    K, a, eps = lt.D2_FAMILY[0]
    r = lt.d2_reduced(K, a, eps)
    # Delta = ceil(0.55 * 20 ln 2 * 10) = ceil(76.25) = 77; bound 0.95 * 20 ln 2 / 77
    assert r["Delta"] == 77
    assert math.isclose(approx(r["lower"]), 0.95 * 20 * math.log(2) / 77, rel_tol=1e-12)
    assert 1.99 * 0.1 < approx(r["eps_hat"]) <= 0.2
    t = lt.d2_entry()
    assert t.status == "approached" and 0.92 < t.ratio < 1
    reg = load_casestudies()
    assert reg.get("liu_talwar2019.D2.factor_two_exhibited").run().verdict is Verdict.HOLDS


def _bottom(p, gamma, T):  # type: ignore[no-untyped-def]
    """Pr[bot] of thresholding with pass mass p (float model): halt in round j < T with
    probability gamma after a failure, or fail all T rounds."""
    u = 1 - p
    r = u * (1 - gamma)
    return u * gamma * (1 - r ** (T - 1)) / (1 - r) + u * r ** (T - 1)


def test_bottom_float_model_matches_the_algorithm():
    Q = lt.thm31_family_Q(R(1, 10))
    for gamma, T in ((R(1, 10), 30), (R(1, 2), 5)):
        A = thresholding(Q, 1, gamma, T)
        for d, p in (("D", 0.2 + 0.25), ("D'", 0.1 + 0.5)):
            assert math.isclose(approx(A.p(d, BOTTOM)), _bottom(p, float(gamma), T), rel_tol=1e-12)


def test_bottom_loss_stays_below_two_eps1_on_a_seeded_search():
    """The observation of NOTES.md (not a proof): bot's loss never exceeded 2 eps1."""
    import random

    rng = random.Random(3)
    worst = -math.inf
    for _ in range(3000):
        e1 = 10 ** rng.uniform(-2, 1)
        e0 = 10 ** rng.uniform(-3, 0)
        g = 10 ** rng.uniform(-3, 0)
        T = math.ceil(max(math.log(2 / e0) / g, 1 + 1 / (math.e * g))) * rng.choice([1, 2])
        p = 10 ** rng.uniform(-4, 0) * 0.999
        lo = max(p * math.exp(-e1), 1 - (1 - p) * math.exp(e1))
        hi = min(p * math.exp(e1), 1 - (1 - p) * math.exp(-e1))
        p2 = lo + (hi - lo) * rng.choice([0.0, 1.0, rng.random()])
        if not 0 < p2 < 1:
            continue
        worst = max(worst, math.log(_bottom(p, g, T) / _bottom(p2, g, T)) - 2 * e1)
    assert worst < 0

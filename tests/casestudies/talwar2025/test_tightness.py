"""Talwar 2025, Theorem 11's advanced composition where it is tightest: the composition
of randomized response (numbers of the module docstring of
casestudies.talwar2025.tightness, recomputed exactly)."""

from __future__ import annotations

import sympy as sp

from casestudies.talwar2025.tightness import (
    advanced_composition_epsilon,
    advanced_composition_tightness,
    rr_composition,
)
from verifier.arithmetic.exact import Verdict, approx
from verifier.checks.privacy import check_approx_dp
from verifier.claims import load_casestudies

R = sp.Rational


def test_lumped_composition_is_the_binomial_of_the_runs():
    m = rr_composition(3, R(2))  # p = 2/3
    assert m.p("D", 3) == R(8, 27) and m.p("D'", 3) == R(1, 27) and m.p("D", 1) == R(6, 27)


def test_realized_delta_at_t50_matches_the_table():
    T, dp = 50, R(1, 10**6)
    eps = R(1, 20)
    r = check_approx_dp(
        rr_composition(T, sp.exp(eps)),
        epsilon=advanced_composition_epsilon(T, eps, dp),
        delta=dp,
        pairs=[("D", "D'")],
    )
    assert r.verdict is Verdict.HOLDS
    assert round(approx(r.worst().realized / dp), 6) == 0.000157


def test_registered_worst_case_and_entry():
    out = load_casestudies().get("talwar2025.thm11.advanced_composition.rr_worst_case").run()
    assert out.verdict is Verdict.HOLDS
    assert round(approx(out.result.worst().realized / R(1, 10**6)), 5) == 0.00127
    t = advanced_composition_tightness()
    assert t.status == "loose" and t.ratio == 1.27e-3 and "T = 5000" in t.searched


def _simulate_top_release(T, w, runs, seed):  # type: ignore[no-untyped-def]
    """Seeded simulation of A_max^T on the leaky oracle at D: the top score is released
    iff one of the T runs draws it (probability w each)."""
    import random

    rng = random.Random(seed)
    hits = sum(any(rng.random() < w for _ in range(T)) for _ in range(runs))
    return hits / runs


def test_advanced_composition_where_delta_matters():
    from casestudies.talwar2025.tightness import (
        DELTA_POINTS,
        delta_family_tightness,
        delta_point,
        leaky_rr,
    )

    T, eps, w, dp = DELTA_POINTS[0]
    A, e_adv, claimed, realized = delta_point(T, eps, w, dp)
    # by hand: the top score is released w.p. 1 - (1 - w)^T at D and never at D'
    assert A.p("D", 2) == 1 - (1 - w) ** T and 2 not in A.support("D'")
    sim = _simulate_top_release(T, float(w), 40_000, seed=12)
    assert abs(sim - approx(A.p("D", 2))) < 4 * (0.05 * 0.95 / 40_000) ** 0.5
    # the registered figure: realized / claimed = 0.97587 (1 - 0.999^50 = 0.0487944)
    assert round(approx(realized / claimed), 5) == round(0.0487943718 / 0.050001, 5)
    assert approx(realized) <= approx(claimed)
    m = leaky_rr(eps, w)
    assert m.p("D", 2) == w and 2 not in m.support("D'")
    t = delta_family_tightness()
    assert t.status == "approached" and 0.9997 < t.ratio < 1 and "w -> 0" in t.family
    reg = load_casestudies()
    out = reg.get("talwar2025.thm11.advanced_composition.delta_matters").run()
    assert out.verdict is Verdict.HOLDS

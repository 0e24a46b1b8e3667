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
from verifier.arithmetic import Verdict, approx
from verifier.claims import load_casestudies
from verifier.privacy import check_approx_dp

R = sp.Rational


def test_lumped_composition_is_the_binomial_of_the_runs():
    m = rr_composition(3, R(2))  # p = 2/3
    assert m.p("D", 3) == R(8, 27) and m.p("D'", 3) == R(1, 27) and m.p("D", 1) == R(6, 27)


def test_realized_delta_at_t50_matches_the_table():
    T, dp = 50, R(1, 10**6)
    eps = R(1, 20)
    r = check_approx_dp(
        rr_composition(T, sp.exp(eps)),
        advanced_composition_epsilon(T, eps, dp),
        dp,
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

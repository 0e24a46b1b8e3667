"""Ghazi et al. 2025: the extremal families behind the tightness entries, their
symbolic limits (independent hand derivations in the module docstring of
casestudies.ghazi2025.tightness), and the Lemma 7 (ii) weak spot (delta > 0 matters)."""

from __future__ import annotations

import sympy as sp

from casestudies.ghazi2025.tightness import (
    E,
    bottom_ratio,
    competitor_family,
    competitor_ratio,
    lemma7_ii_family,
)
from verifier.arithmetic import Verdict, approx
from verifier.claims import load_casestudies


def test_competitor_ratio_is_the_hand_derived_rational_function():
    expected = (8 * E**2 - 2) / (E**2 + 3 * E - 1)
    for theorem in (10, 11):
        assert sp.simplify(competitor_ratio(theorem) - expected) == 0
    assert sp.simplify(bottom_ratio() - (2 * E**2 - 1) / (E**2 + E - 1)) == 0


def test_theorems_10_and_11_are_approached_with_the_registered_figures():
    t = competitor_family(10, e_value=100)
    assert t.status == "approached" and "E -> oo" in t.family
    # the module docstring's figures: 0.98582 at E = 100, 0.9999986 at E = 10^6
    assert round(t.ratio, 5) == 0.98582
    assert round(competitor_family(11).ratio, 7) == 0.9999986


def test_lemma7_ii_sup_is_one_and_not_attained():
    t = lemma7_ii_family()
    assert t.status == "approached" and 0.99 < t.ratio < 1
    k = sp.Symbol("k", positive=True)
    g = k * (k + 1) ** (-1 - 1 / k)
    assert all(approx(g.subs(k, v)) < 1 for v in (1, 10, 10**6))


def test_lemma7_ii_delta_matters_on_the_registered_instances():
    from casestudies.ghazi2025.boxes import lemma7_ii_point

    reg = load_casestudies()
    out = reg.get("ghazi2025.lemma7.ii_near_sup").run()
    assert out.verdict is Verdict.HOLDS and out.tightness().status == "approached"
    _, delta, _, _ = lemma7_ii_point(100, 10**400)
    (f,) = [f for f in out.result.all_findings() if f.lhs == sp.Rational(9, 10) * delta]
    ratio = approx(f.rhs / delta)  # H / delta, hand-derived ~ 0.944
    assert 0.9 < ratio < 1 and round(ratio, 2) == 0.94
    box = reg.get("ghazi2025.lemma7.box_ii").run()
    assert box.verdict is Verdict.HOLDS and box.undecided_fraction == 0
    (premise,) = box.result.premises
    assert premise.verdict is Verdict.HOLDS  # H >= delta/10 on the whole box

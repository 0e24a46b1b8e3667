"""The Talwar 2025 trade-off: exact (c, T, gamma) per algorithm family, certified
comparison with the lower bounds, the hard-instance evaluation cross-checked against
the exact FiniteMechanism route, and Figure 1."""

from __future__ import annotations

import json

import pytest
import sympy as sp

from casestudies.talwar2025.tradeoff import (
    DEFAULT_GAMMAS,
    hard_instance_profile,
    lower_bound,
    plot_tradeoff,
    tradeoff,
)
from verifier.algorithms.talwar import a_lt, a_max, hybrid
from verifier.arithmetic.exact import Verdict, decide_le, enclose
from verifier.checks.privacy import pure_epsilon
from verifier.constructions.lower_bounds import theorem7_instance, theorem10_instance
from verifier.errors import InvalidParameter

R = sp.Rational
GAMMAS = [R(1, 100), R(1, 10**12), R(1, 10**30), R(1, 10**60)]


@pytest.fixture(scope="module")
def rep():
    return tradeoff("repetition", GAMMAS, cs=(2, 4))


@pytest.fixture(scope="module")
def meta():
    return tradeoff("metaselection", GAMMAS, K=4, cs=(2, 4))


def test_points_are_exact(rep):
    by = {(p.gamma, p.label): p for p in rep.points}
    g = R(1, 10**30)
    lt = by[(g, f"A_LT,{g}")]
    assert lt.c == 3 and lt.calls == 10**30 and lt.failure == g / (1 + g)
    mx = by[(g, "A_max^100")]  # ceil(log2 1e30) = 100
    assert mx.c == 100 and mx.calls == 100 and mx.failure == R(1, 2**100)
    hy = next(p for p in rep.points if p.gamma == g and p.label.startswith("A_max^4("))
    assert hy.c == 12 and hy.calls == 4 * g ** R(-1, 4)


def test_points_lie_on_the_allowed_side_of_the_lower_bound(rep, meta):
    # the property Figure 1 shows, decided with certified comparisons (not floats)
    for panel in (rep, meta):
        assert panel.check().verdict is Verdict.HOLDS
        for p in panel.points:
            assert decide_le(lower_bound(panel.setting, p.c, p.gamma), p.T).verdict is Verdict.HOLDS
            assert decide_le(p.failure, p.gamma).verdict is Verdict.HOLDS


def test_arbitrary_precision_gamma(rep):
    # gamma = 1e-60: 1/gamma and the failure bound are exact, far beyond floats' range
    p = next(p for p in rep.points if p.gamma == R(1, 10**60) and p.family == "A_LT")
    assert p.calls == 10**60
    enc = enclose(p.failure, 256)
    assert enc is not None and enc.lo > 0 and enc.hi < 1e-59


def test_realized_overhead_is_below_the_guarantee(rep, meta):
    for panel in (rep, meta):
        for p in panel.points:
            assert p.hard_overhead is not None
            assert p.hard_overhead.hi <= float(p.c) + 1e-9


def test_hard_instance_profile_matches_exact_mechanisms():
    # the interval evaluation of tradeoff() against the exact FiniteMechanism route
    eps = 1
    for alg in (a_lt(R(1, 50)), a_max(5), hybrid(R(1, 400), 2)):
        T = alg.expected_calls
        Delta, fail, overhead = hard_instance_profile("repetition", alg, eps, T)
        inst = theorem7_instance(eps, T)
        assert inst.Delta == Delta
        A = alg.apply(inst.oracle)
        assert sp.simplify(A.p(inst.d1, ("r'", 0)) - fail) == 0
        ratio = pure_epsilon(A).value / pure_epsilon(inst.mechanism).value
        r = float(sp.N(ratio, 30))
        assert overhead.lo - 1e-12 <= r <= overhead.hi + 1e-12


def test_metaselection_profile_failure_matches_theorem10_instance():
    K = 3
    alg = a_lt(R(1, 100) / (2 * K), R(1, 2 * K))
    T = alg.expected_calls / K
    Delta, fail, _ = hard_instance_profile("metaselection", alg, 1, T, K)
    inst = theorem10_instance(1, T, K)
    A = alg.apply(inst.oracle)
    value0 = sum(A.p(inst.d1, o) for o in A.outputs if o[-1] == 0)
    assert inst.Delta == Delta and sp.simplify(value0 - fail) == 0


def test_json_and_table(rep):
    d = json.loads(rep.to_json())
    assert d["verdict"] == "holds" and len(d["points"]) == len(rep.points)
    assert "A_LT" in rep.table()


def test_plot_writes_both_panels(rep, meta, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "fig1.png"
    fig = plot_tradeoff([rep, meta], str(out))
    assert out.exists() and out.stat().st_size > 10_000
    assert len(fig.axes) == 3  # two panels and the colour bar of gamma
    ax = fig.axes[0]
    assert "γ" in fig.axes[2].get_ylabel()
    solid = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-"]
    dashed = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    # one lower bound and one hybrid curve per gamma, in that gamma's colour; T >= 1,
    # so the lower bound on ln T / ln(1/gamma) never dips below 0
    assert len(solid) == len(dashed) == len(set(rep.gammas))
    assert len({ln.get_color() for ln in solid}) == len(solid)
    assert all(min(ln.get_ydata()) >= 0 for ln in solid)
    # every plotted point sits above the plotted lower-bound curve at its own gamma
    for p in rep.points:
        assert p.y() > (sp.log(1 / (8 * p.gamma)) / (4 * p.c) - sp.log(4)) / sp.log(1 / p.gamma)
    assert "Repetition" in ax.get_title()


def test_default_grid_goes_below_1e30():
    assert min(DEFAULT_GAMMAS) <= R(1, 10**30)


def test_bad_arguments():
    with pytest.raises(InvalidParameter):
        tradeoff("nonsense")
    with pytest.raises(InvalidParameter):
        tradeoff("repetition", [R(3, 2)])
    with pytest.raises(InvalidParameter):
        tradeoff("metaselection", [R(1, 10)], K=1)

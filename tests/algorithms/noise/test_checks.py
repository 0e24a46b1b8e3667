"""ε-DP of noise programs on their whole output set, and their realized loss."""

from __future__ import annotations

import sympy as sp

from verifier.algorithms.noise import (
    check_program_dp,
    half_half,
    lyu_svt,
    program_mechanism,
    program_realized_epsilon,
    query_graph,
    ramp_pair,
    realized_epsilon_curve,
)

from ._support import R, eps_at


def test_alg5_realized_loss_is_infinite_and_alg3_grows_linearly():
    eps = eps_at(lambda e: lyu_svt(5, e))
    pts = realized_epsilon_curve(lambda m: lyu_svt(5, eps), half_half, [1, 2])
    assert all(p.value is sp.oo for p in pts)
    e3 = eps_at(lambda e: lyu_svt(3, e, 1))
    pts = realized_epsilon_curve(lambda m: lyu_svt(3, e3, 1), ramp_pair, [1, 2, 3])
    assert [sp.simplify(p.value / e3) for p in pts] == [1, R(3, 2), 2]


def test_alg4_approaches_seven_quarters_from_below():
    e = eps_at(lambda x: lyu_svt(4, x, 1))
    pts = realized_epsilon_curve(lambda m: lyu_svt(4, e, 1), ramp_pair, [1, 2, 4, 8])
    ratios = [p.approx / float(e) for p in pts]
    assert ratios == sorted(ratios)
    assert 1 < ratios[0] and ratios[-1] < 1.75 and ratios[-1] > 1.749


def test_check_program_dp_covers_the_infinite_tails():
    prog = lyu_svt(3, eps_at(lambda e: lyu_svt(3, e, 1)), 1)
    pm = program_mechanism(prog, query_graph(list(ramp_pair(2))))
    res = check_program_dp(pm, 3 * prog.claimed)  # (m+1)/2 = 3/2 < 3: holds everywhere
    assert res.holds
    tails = res.parts[1]
    assert tails.findings and all(f.output.endswith("(pointwise)") for f in tails.findings)
    r = program_realized_epsilon(pm)
    assert sp.simplify(r.value - R(3, 2) * prog.claimed) == 0

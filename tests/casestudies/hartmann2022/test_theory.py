"""Hartmann et al. 2022, :mod:`casestudies.hartmann2022.theory`: Lemmas 3, 4 and 6
on the introduction's toy mechanism, and Theorem 7 on unfolded composition games
(two rounds of randomized response, free rounds after ⊥, and the output-dependent
charge that breaks it)."""

from __future__ import annotations

import sympy as sp

from casestudies.hartmann2022.theory import check_theorem7, lemma3, lemma4, lemma6
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.odp.guarantees import (
    Move,
    ODPGuarantee,
    Partition,
    cell_charge,
    check_odp,
    check_subset_dp,
    expected_charge,
    odp_composition,
    realized_odp,
    singleton_subset_charge,
    subset_dp_epsilon,
)

from ...odp_instances import rr_move, toy_mechanism

R = sp.Rational


def test_toy_mechanism_odp_and_lemmas():
    m = toy_mechanism()
    part = Partition.from_key(m.outputs, lambda o: o == "⊥")
    g = ODPGuarantee.of(part, {True: 0, False: sp.log(3)})
    assert check_odp(m, g).holds
    assert lemma4(g) == (sp.log(3), 0)
    # the realized per-cell budgets are exactly 0 and log 3
    assert realized_odp(m, part).e == (sp.log(3), 0) or realized_odp(m, part).e == (0, sp.log(3))
    # a ⊥ is free: charging e(⊥) < log 3 on average
    assert expected_charge(m, "D", g) == sp.log(3) / 2
    # Lemma 3 with a coarser guarantee holds; a smaller e on {0, 1} does not
    assert check_odp(m, lemma3(sp.log(3), 0, part)).holds
    assert check_odp(m, ODPGuarantee.of(part, {True: 0, False: sp.log(2)})).violated


def test_subset_dp_and_lemma6():
    m = toy_mechanism()
    assert check_subset_dp(m, ["⊥"], epsilon=R(1, 10)).holds  # ⊥ leaks nothing
    assert check_subset_dp(m, [0, 1], epsilon=sp.log(2)).violated
    assert check_subset_dp(m, [0, 1], epsilon=sp.log(2), delta=R(1, 8)).holds  # 3/8 - 2/8
    assert subset_dp_epsilon(m, [0, 1]) == sp.log(3)
    assert subset_dp_epsilon(m, ["⊥"]) == 0
    part = Partition.from_key(m.outputs, lambda o: o == "⊥")
    g = lemma6(part, {True: 0, False: sp.log(2)}, {True: 0, False: R(1, 8)})
    assert g.delta == R(1, 8) and check_odp(m, g).holds


def test_two_rounds_of_randomized_response():
    e = sp.log(3)

    def adv(view, er, dr):  # type: ignore[no-untyped-def]
        return rr_move(e) if len(view) < 2 else None

    run = odp_composition(adv, 2 * e, 0, rounds=2)
    t = run.transcript
    # P_0(1, 1) = (3/4)^2, P_1(1, 1) = (1/4)^2: ratio 9 = e^{2 log 3}, attained
    assert t.p("b=0", (1, 1)) == R(9, 16) and t.p("b=1", (1, 1)) == R(1, 16)
    res = check_theorem7(run)
    assert res.holds and res.tight
    assert run.remaining[(1, 1)] == (0, 0)


def test_toy_mechanism_is_played_longer_after_bottom():
    m = toy_mechanism()
    part = Partition.from_key(m.outputs, lambda o: o == "⊥")
    move = Move(m, ("D", "D'"), ODPGuarantee.of(part, {True: 0, False: sp.log(3)}))

    def adv(view, er, dr):  # type: ignore[no-untyped-def]
        return move if er - sp.log(3) >= 0 else None

    run = odp_composition(adv, sp.log(3), 0, rounds=3)
    assert ("⊥", "⊥", "⊥") in run.transcript.outputs  # three free rounds
    assert (1,) in run.transcript.outputs  # a release ends the game
    assert check_theorem7(run).holds


def test_output_dependent_charge_counterexample():
    hi, lo = R(3, 16), R(1, 16)
    outs = list(range(8))
    m = FiniteMechanism(
        pair(),
        {"D": {o: hi if o < 4 else lo for o in outs}, "D'": {o: lo if o < 4 else hi for o in outs}},
        outs,
    )
    e = sp.log(3)
    move = Move(m, ("D", "D'"), ODPGuarantee.of(Partition.trivial(outs), e, R(1, 8)))
    assert singleton_subset_charge(move, 0) == 0  # 3/16 - 1/8 <= 1/16
    assert cell_charge(move, 0) == e

    def adv(view, er, dr):  # type: ignore[no-untyped-def]
        return move if er - e >= 0 and dr - R(1, 8) >= 0 else None

    bad = odp_composition(adv, e, R(1, 4), rounds=2, charge=singleton_subset_charge)
    res = check_theorem7(bad)
    assert res.violated and res.worst().realized == R(3, 8)  # 16 * (9 - 3)/256
    good = odp_composition(adv, e, R(1, 4), rounds=2)
    assert check_theorem7(good).holds
    assert all(len(v) == 1 for v in good.transcript.outputs)

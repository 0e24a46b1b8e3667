"""Output differential privacy: partitions, guarantees, Lemmas 3/4/6 as functions,
the two readings of Def 2, subset DP, PTR functions and the composition experiment
(Hartmann et al. 2022), with exact expected values derived by hand."""

from __future__ import annotations

import pytest
import sympy as sp

from casestudies.hartmann2022.theory import (
    check_theorem7,
    lemma3,
    lemma4,
    lemma6,
    lemma10_guarantee,
)
from verifier.arithmetic import Verdict
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.instances import random_mechanism, randomized_response
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import pair, path
from verifier.odp import (
    Move,
    ODPGuarantee,
    Partition,
    cell_charge,
    check_odp,
    check_subset_dp,
    ex_post_as_odp,
    expected_charge,
    odp_composition,
    realized_odp,
    singleton_subset_charge,
    subset_dp_epsilon,
)
from verifier.odp_ptr import (
    BOTTOM,
    distance_to_instability,
    ptr_cascade,
    ptr_delta0,
    ptr_function,
)
from verifier.privacy import check_ex_post, realized_ex_post_epsilon

R = sp.Rational


def _toy() -> FiniteMechanism:
    """Hartmann et al.'s introduction: a coin; tails -> ⊥, heads -> RR(log 3)."""
    half = R(1, 2)
    return FiniteMechanism(
        pair(),
        {
            "D": {"⊥": half, 1: half * R(3, 4), 0: half / 4},
            "D'": {"⊥": half, 1: half / 4, 0: half * R(3, 4)},
        },
        ["⊥", 0, 1],
        name="toy",
    )


def test_partition_validation():
    with pytest.raises(InvalidParameter, match="two cells"):
        Partition((frozenset([1, 2]), frozenset([2])), ("a", "b"))
    with pytest.raises(InvalidParameter, match="empty"):
        Partition((frozenset(),), ("a",))
    p = Partition.from_key([0, 1, 2, 3], lambda o: o % 2)
    assert p.names == (0, 1) and p.name_of(3) == 1
    with pytest.raises(InvalidParameter, match="no cell"):
        check_odp(_toy(), ODPGuarantee.of(Partition.trivial([0, 1]), 1))
    with pytest.raises(InvalidParameter, match="negative"):
        ODPGuarantee.of(p, -1)


def test_toy_mechanism_odp_and_lemmas():
    m = _toy()
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


def test_readings_of_def2_differ_only_with_delta():
    P = {"a": R(3, 8), "b": R(3, 8), "c": R(1, 8), "d": R(1, 8)}
    Q = {"a": R(1, 8), "b": R(1, 8), "c": R(3, 8), "d": R(3, 8)}
    m = FiniteMechanism(pair(), {"D": P, "D'": Q}, list("abcd"))
    part = Partition((frozenset("ac"), frozenset("bd")), ("ac", "bd"))
    g = ODPGuarantee.of(part, sp.log(R(5, 4)), R(7, 32))
    assert check_odp(m, g, reading="per_cell").holds
    r = check_odp(m, g)
    assert r.violated and r.worst().realized == R(7, 16)
    g0 = ODPGuarantee.of(part, sp.log(3))
    assert check_odp(m, g0).verdict is check_odp(m, g0, reading="per_cell").verdict


def test_subset_dp_and_lemma6():
    m = _toy()
    assert check_subset_dp(m, ["⊥"], R(1, 10)).holds  # ⊥ leaks nothing
    assert check_subset_dp(m, [0, 1], sp.log(2)).violated
    assert check_subset_dp(m, [0, 1], sp.log(2), R(1, 8)).holds  # 3/8 - 2/8
    assert subset_dp_epsilon(m, [0, 1]) == sp.log(3)
    assert subset_dp_epsilon(m, ["⊥"]) == 0
    part = Partition.from_key(m.outputs, lambda o: o == "⊥")
    g = lemma6(part, {True: 0, False: sp.log(2)}, {True: 0, False: R(1, 8)})
    assert g.delta == R(1, 8) and check_odp(m, g).holds


def test_ex_post_is_the_singleton_case():
    for seed in range(4):
        m = random_mechanism(pair(), 4, seed=seed)
        real = realized_ex_post_epsilon(m).as_dict()
        for scale in (1, R(1, 2)):

            def f(o, real=real, scale=scale):  # type: ignore[no-untyped-def]
                return max(sp.Integer(0), real.get(o, 0) * scale)

            a = check_ex_post(m, f).verdict
            b = check_odp(m, ex_post_as_odp(m.outputs, f)).verdict
            assert a is b


def test_ptr_function_and_cascade():
    G = path(4)
    h = {0: 0, 1: 1, 2: 5, 3: 6, 4: 7}  # unstable at 1 and 2 (a jump of 4)
    assert distance_to_instability(G, h, 1) == {0: 1, 1: 0, 2: 0, 3: 1, 4: 2}
    f = ptr_function(G, h, eps=sp.log(2), threshold=2, value_range=(0, 8))
    for d in G.nodes:
        assert sum(f.distribution(d).values()) == 1
    # P(⊥) at distance A: P(Z < t - A) = 1 - P(Z >= t - A); x = 1/2: P(Z >= 2) = 1/6
    assert f.p(1, BOTTOM) == 1 - R(1, 6)
    assert f.p(4, BOTTOM) == R(1, 3)  # A = 2: P(Z < 0) = P(Z >= 1) = (1/2)/(3/2)
    assert ptr_delta0(sp.log(2), 2) == R(1, 6)
    M = ptr_cascade(f, f)
    assert M.p(4, BOTTOM) == R(1, 9)
    g = lemma10_guarantee(M, sp.log(2), 2)
    assert g.delta == 3 * R(1, 6)
    with pytest.raises(InvalidMechanism, match="integer"):
        distance_to_instability(G, {0: 0}, 1)


# ---------------------------------------------------------------------------
# the composition experiment
# ---------------------------------------------------------------------------


def _rr_move(eps):  # type: ignore[no-untyped-def]
    rr = randomized_response(eps)
    return Move(rr, ("D", "D'"), ODPGuarantee.of(Partition.trivial(rr.outputs), eps))


def test_two_rounds_of_randomized_response():
    e = sp.log(3)

    def adv(view, er, dr):  # type: ignore[no-untyped-def]
        return _rr_move(e) if len(view) < 2 else None

    run = odp_composition(adv, 2 * e, 0, rounds=2)
    t = run.transcript
    # P_0(1, 1) = (3/4)^2, P_1(1, 1) = (1/4)^2: ratio 9 = e^{2 log 3}, attained
    assert t.p("b=0", (1, 1)) == R(9, 16) and t.p("b=1", (1, 1)) == R(1, 16)
    res = check_theorem7(run)
    assert res.holds and res.tight
    assert run.remaining[(1, 1)] == (0, 0)


def test_illegal_moves_are_refused():
    e = sp.log(3)
    with pytest.raises(InvalidParameter, match="illegal move"):
        odp_composition(lambda v, er, dr: _rr_move(e), e, 0, rounds=2)
    rr = randomized_response(e)
    with pytest.raises(InvalidMechanism, match="neighbouring"):
        Move(rr, ("D", "D"), ODPGuarantee.of(Partition.trivial(rr.outputs), e))


def test_toy_mechanism_is_played_longer_after_bottom():
    m = _toy()
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


def test_singleton_charge_without_delta_is_the_realized_loss():
    m = random_mechanism(pair(), 3, seed=2)
    g = realized_odp(m, Partition.trivial(m.outputs))
    move = Move(m, ("D", "D'"), g)
    real = realized_ex_post_epsilon(m).as_dict()
    for o in m.outputs:
        c = singleton_subset_charge(move, o)
        assert sp.simplify(c - max(real.get(o, 0), 0)) == 0 or c == 0
    assert Verdict.HOLDS is check_odp(m, g).verdict


@pytest.mark.parametrize(
    "module",
    [
        "verifier.odp",
        "verifier.odp_ptr",
        "verifier.algorithms.noise",
        "verifier.algorithms.noise_pw",
    ],
)
def test_doctests(module):
    import doctest
    import importlib

    res = doctest.testmod(importlib.import_module(module), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.failed == 0


def test_ptr_closed_forms_match_a_simulation():
    """The PTR function and the Dwork-Lei cascade, sampled as programs (test noise,
    threshold, clamped release) against their closed forms."""
    import random
    from collections import Counter

    from verifier.algorithms.noise.samplers import chi_square_pvalue

    G = path(6)
    h1 = {x: (x if x <= 2 else x + 5) for x in G.nodes}
    h2 = {x: (x if x <= 4 else x + 5) for x in G.nodes}
    eps, t, lo, hi = sp.log(2), 3, 0, 12
    f1 = ptr_function(G, h1, eps=eps, threshold=t, value_range=(lo, hi))
    f2 = ptr_function(G, h2, eps=eps, threshold=t, value_range=(lo, hi))
    M = ptr_cascade(f1, f2)
    A1, A2 = distance_to_instability(G, h1, 1), distance_to_instability(G, h2, 1)

    def geo(rng):  # type: ignore[no-untyped-def]
        # two-sided geometric with x = 1/2 as a difference of geometric variables
        def g() -> int:
            k = 0
            while rng.random() < 0.5:
                k += 1
            return k

        return g() - g()

    def run_f(rng, A, h, d):  # type: ignore[no-untyped-def]
        if A[d] is not None and A[d] + geo(rng) < t:
            return BOTTOM
        return min(hi, max(lo, h[d] + geo(rng)))

    n = 20_000
    for d in (1, 3, 5):
        rng = random.Random(100 + d)
        counts: Counter = Counter()
        for _ in range(n):
            o = run_f(rng, A1, h1, d)
            counts[o if o != BOTTOM else run_f(rng, A2, h2, d)] += 1
        assert chi_square_pvalue(counts, M.distribution(d), n) > 1e-4

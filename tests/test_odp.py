"""Output differential privacy (:mod:`verifier.odp.guarantees`, Hartmann et al. 2022):
partitions, guarantees, the two readings of Def 2, subset DP, ex-post DP as the
singleton case, and the composition experiment's moves and charges, with exact
values derived by hand."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict
from verifier.checks.privacy import check_ex_post, realized_ex_post_epsilon
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.instances import random_mechanism, randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.odp.guarantees import (
    Move,
    ODPGuarantee,
    Partition,
    check_odp,
    ex_post_as_odp,
    odp_composition,
    realized_odp,
    singleton_subset_charge,
)

from .odp_instances import rr_move, toy_mechanism

R = sp.Rational


def test_partition_validation():
    with pytest.raises(InvalidParameter, match="two cells"):
        Partition((frozenset([1, 2]), frozenset([2])), ("a", "b"))
    with pytest.raises(InvalidParameter, match="empty"):
        Partition((frozenset(),), ("a",))
    p = Partition.from_key([0, 1, 2, 3], lambda o: o % 2)
    assert p.names == (0, 1) and p.name_of(3) == 1
    with pytest.raises(InvalidParameter, match="no cell"):
        check_odp(toy_mechanism(), ODPGuarantee.of(Partition.trivial([0, 1]), 1))
    with pytest.raises(InvalidParameter, match="negative"):
        ODPGuarantee.of(p, -1)


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


def test_ex_post_is_the_singleton_case():
    for seed in range(4):
        m = random_mechanism(pair(), 4, seed=seed)
        real = realized_ex_post_epsilon(m).as_dict()
        for scale in (1, R(1, 2)):

            def f(o, real=real, scale=scale):  # type: ignore[no-untyped-def]
                return max(sp.Integer(0), real.get(o, 0) * scale)

            a = check_ex_post(m, epsilon_tilde=f).verdict
            b = check_odp(m, ex_post_as_odp(m.outputs, f)).verdict
            assert a is b


def test_illegal_moves_are_refused():
    e = sp.log(3)
    with pytest.raises(InvalidParameter, match="illegal move"):
        odp_composition(lambda v, er, dr: rr_move(e), e, 0, rounds=2)
    rr = randomized_response(e)
    with pytest.raises(InvalidMechanism, match="neighbouring"):
        Move(rr, ("D", "D"), ODPGuarantee.of(Partition.trivial(rr.outputs), e))


def test_singleton_charge_without_delta_is_the_realized_loss():
    m = random_mechanism(pair(), 3, seed=2)
    g = realized_odp(m, Partition.trivial(m.outputs))
    move = Move(m, ("D", "D'"), g)
    real = realized_ex_post_epsilon(m).as_dict()
    for o in m.outputs:
        c = singleton_subset_charge(move, o)
        assert sp.simplify(c - max(real.get(o, 0), 0)) == 0 or c == 0
    assert Verdict.HOLDS is check_odp(m, g).verdict

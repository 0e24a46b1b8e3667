"""The packing instance of Liu & Talwar 2019, Appendix D.2
(:mod:`verifier.constructions.packing`): exactly eps-DP, its bound and its
parameters."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.checks.privacy import check_pure_dp
from verifier.constructions.packing import packing_bound, packing_instance
from verifier.errors import InvalidParameter

R = sp.Rational


def test_packing_instance_is_exactly_eps_dp():
    inst = packing_instance(16, R(1, 4), sp.log(2))
    assert inst.Delta == 3 and inst.gamma == R(1, 2)
    assert packing_bound(inst) == 3 * sp.log(16) / 4 / 3
    r = check_pure_dp(inst.mechanisms[0], epsilon=inst.eps)
    assert r.holds and r.tight
    assert inst.mechanisms[0].p(inst.D(0), 1) == R(3, 4)
    assert inst.mechanisms[0].p(inst.D(1), 1) == R(1, 64)


def test_packing_instance_parameters():
    # the endpoints always satisfy the group-privacy premise: b/a = 2 sqrt(K)(1 - K^-a/2)
    # <= K^(1/2 + a) iff (K^a - 1)^2 >= 0, so the greedy path always arrives
    inst = packing_instance(2, R(1, 10), 1)
    assert inst.Delta == 1
    for m in inst.mechanisms:
        assert check_pure_dp(m, epsilon=1).holds
    with pytest.raises(InvalidParameter, match="alpha"):
        packing_instance(16, R(1, 2), 1)
    with pytest.raises(InvalidParameter, match="K"):
        packing_instance(1, R(1, 4), 1)

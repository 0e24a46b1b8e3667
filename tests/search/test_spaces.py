"""Instance spaces (:mod:`verifier.search.spaces`): the generators, moves and
simplifications give exactly DP pairs, and the extreme pairs attain the budget."""

from __future__ import annotations

import random
from fractions import Fraction

from verifier.search.spaces import (
    PURE_BUDGETS,
    extreme_pair,
    merge_outputs,
    perturb_pair,
    random_pair,
    simplify_pair,
)

F = Fraction


def test_generators_give_exact_dp_pairs():
    rng = random.Random(0)
    for k in range(300):
        a = PURE_BUDGETS[k % len(PURE_BUDGETS)]
        m = 2 + k % 4
        pm = (extreme_pair if k % 2 else random_pair)(rng, m, a)
        pm.check()
        moved = perturb_pair(pm, rng, 1.0)
        moved.check()
        if m > 2:
            merge_outputs(pm, 0).check()
        for s in simplify_pair(pm):
            s.check()


def test_extreme_pairs_attain_the_budget():
    rng = random.Random(1)
    hits = sum(extreme_pair(rng, 3, F(3)).ratio() == 3 for _ in range(50))
    assert hits >= 40  # ratios at a^{+-1} on all outputs but one

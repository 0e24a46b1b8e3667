"""Float screening (:mod:`verifier.search.screens` and the claims' screens) agrees
with the exact confirmation on the instances of every searchable claim."""

from __future__ import annotations

import math
import random

import pytest

from verifier.search import confirm, get_searchable, searchable_claims


def _screen_params():
    """Every searchable claim; the DP testing suite's (sparse-vector programs on ten
    queries, a few seconds each) run with `pytest -m slow` (.ci/run) but one."""
    ids = [c.id for c in searchable_claims()]
    suite = [i for i in ids if i.startswith("dp_testing.")]
    return [pytest.param(i, marks=pytest.mark.slow) if i in suite[1:] else i for i in ids]


@pytest.mark.parametrize("claim_id", _screen_params())
def test_screen_matches_exact_ratio(claim_id):
    c = get_searchable(claim_id)
    rng = random.Random(11)
    for k in range(3):
        space = c.search.space
        inst = space.extreme(rng) if k % 2 else space.random(rng)
        s, conf = c.search.screen(inst), confirm(c, inst)
        assert conf.error is None and conf.ratio is not None
        if math.isinf(conf.ratio):
            assert math.isinf(s)
        else:
            assert s == pytest.approx(conf.ratio, rel=1e-9, abs=1e-12)

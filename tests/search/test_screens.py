"""Float screening (:mod:`verifier.search.screens` and the claims' screens) agrees
with the exact confirmation on the instances of every searchable claim."""

from __future__ import annotations

import math
import random

import pytest

from verifier.search import confirm, get_searchable, searchable_claims


@pytest.mark.parametrize("claim_id", [c.id for c in searchable_claims()])
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

"""Ghazi et al. 2025: the search documents of Algorithm 3."""

from __future__ import annotations

import random

from casestudies.ghazi2025.search import _alg3_outputs
from verifier.search import get_searchable
from verifier.search.certificates import derived_outputs


def test_alg3_search_documents_list_the_outputs_of_the_built_mechanism():
    claim = get_searchable("ghazi2025.thm11")
    assert claim.search is not None
    rng = random.Random(3)
    for _ in range(20):
        inst = claim.search.space.random(rng)
        doc = claim.search.document(inst)
        assert _alg3_outputs(inst) == derived_outputs(doc, "A")

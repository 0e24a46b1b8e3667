"""The search's core (:mod:`verifier.search.core`): exact encodings of instances,
batch seeds, and unknown claims."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from verifier.errors import UnknownClaim
from verifier.search import decode, encode, get_searchable
from verifier.search.core import batch_seed
from verifier.search.spaces import PairMech, Selection

F = Fraction


def test_encoding_round_trips_exactly():
    inst = Selection((PairMech(F(2), (F(1, 3), F(2, 3)), (F(1, 2), F(1, 2))),), F(11, 10), 1, 2)
    assert decode(encode(inst)) == inst
    assert decode(encode(math.inf)) == math.inf
    assert batch_seed(3, 7) == batch_seed(3, 7) != batch_seed(7, 3)


def test_unknown_claim():
    with pytest.raises(UnknownClaim, match="searchable"):
        get_searchable("no.such.claim")

"""The lumped lower-bound instances of Talwar 2025, Theorems 7, 9 and 10
(:mod:`verifier.constructions.lower_bounds`): their shapes and exact values."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.constructions.lower_bounds import (
    BAD,
    GOOD,
    theorem7_instance,
    theorem9_instance,
    theorem10_instance,
)
from verifier.errors import InvalidParameter

R = sp.Rational


def test_theorem7_instance_shape():
    inst = theorem7_instance(R(1, 10), 100)
    assert inst.Delta == 60 and inst.q == sp.exp(-6)
    m = inst.mechanism
    assert m.graph.number_of_nodes() == 61 and m.graph.nodes[30]["size"] == 118264581564861424
    assert m.p(0, GOOD) == inst.q and m.p(60, GOOD) == 1 - inst.q


def test_theorem9_and_10_instances_shape():
    inst = theorem9_instance(1, 100)  # Delta = ceil(ln 800) = 7
    assert inst.Delta == 7 and inst.d0 == 70 and inst.d1 == 0
    assert inst.mechanism.p(70, GOOD) == inst.q
    meta = theorem10_instance(1, 100, 3, k=1)
    assert meta.oracle.p(0, ((1, GOOD), 1)) == (1 - meta.q) / 3
    assert meta.oracle.p(0, ((0, BAD), 0)) == R(1, 3)
    with pytest.raises(InvalidParameter):
        theorem10_instance(1, 100, 1)

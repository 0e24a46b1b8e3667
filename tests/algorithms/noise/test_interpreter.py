"""The interpreter of noise programs and its inputs: query graphs, the validation of
sensitivity and of the noise rates."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.algorithms.noise import (
    NO_NOISE,
    SparseVector,
    common_unit,
    geometric,
    lyu_svt,
    program_mechanism,
    query_graph,
)
from verifier.errors import InvalidMechanism, InvalidParameter

from ._support import R


def test_query_graph_validates_sensitivity():
    with pytest.raises(InvalidMechanism, match="moves by 2"):
        query_graph([(0, 0), (2, 0)], edges=[((0, 0), (2, 0))])
    with pytest.raises(InvalidMechanism, match="both directions"):
        query_graph([(0, 1), (1, 0)], style="monotone", edges=[((0, 1), (1, 0))])
    with pytest.raises(InvalidMechanism, match="more than one"):
        query_graph([(0, 0), (1, 1)], style="one_differ", edges=[((0, 0), (1, 1))])
    with pytest.raises(InvalidMechanism, match="integers"):
        query_graph([(0, 0.5)])
    assert query_graph([(0, 0), (1, 1)], style="one_differ").number_of_edges() == 0
    with pytest.raises(InvalidMechanism, match="twice"):
        query_graph([(0,), (0,)])


def test_datasets_given_with_their_answers_are_validated_on_every_edge():
    import networkx as nx

    g = nx.Graph([("a", "b")])
    prog = lyu_svt(1, 4 * sp.log(R(5, 4)), 1)
    pm = program_mechanism(prog, g, answers={"a": (0, 1), "b": (1, 1)})
    assert pm.mechanism.p("a", "⊥⊤") == pm.closed_form("a", "⊥⊤")
    with pytest.raises(InvalidMechanism, match="moves by 2"):
        program_mechanism(prog, g, answers={"a": (0, 1), "b": (2, 1)})
    with pytest.raises(InvalidMechanism, match="no query answers"):
        program_mechanism(prog, g, answers={"a": (0, 1)})


def test_the_interpreter_refuses_what_it_cannot_compute_exactly():
    with pytest.raises(InvalidParameter, match="commensurable"):
        program_mechanism(
            SparseVector("x", geometric(1), geometric(sp.sqrt(2)), 1), query_graph([(0,)])
        )
    with pytest.raises(InvalidParameter, match="no noise"):
        program_mechanism(SparseVector("x", NO_NOISE, NO_NOISE, 1), query_graph([(0,)]))


def test_the_common_unit_of_rational_multiples():
    eps = sp.Symbol("epsilon", positive=True)
    assert common_unit([eps / 3, eps / 2]) == (eps / 6, [2, 3])

"""Mechanism model, neighbour graphs and composition: validation and exact values."""

from fractions import Fraction
from math import comb

import networkx as nx
import pytest
import sympy as sp

from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.compose import (
    best_index,
    events,
    independent,
    indicator,
    postprocess,
    repeat,
)
from verifier.mechanism.instances import random_mechanism, randomized_response, truncated_geometric
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import (
    add_remove,
    hamming_cube,
    lump_by_distance,
    lumped_hamming_cube,
    pair,
    pairs_at_distance,
    path,
    replace_one,
)

R = sp.Rational
H = R(1, 2)


def coin(p, q, name="coin"):
    return FiniteMechanism(
        pair(), {"D": {0: 1 - p, 1: p}, "D'": {0: 1 - q, 1: q}}, [0, 1], name=name
    )


# -- validation ----------------------------------------------------------------


def test_distribution_must_sum_to_exactly_one():
    with pytest.raises(InvalidMechanism, match=r"sums to 9/10"):
        FiniteMechanism(pair(), {"D": {0: R(9, 10)}, "D'": {0: 1}})
    # an off-by-1e-40 error is caught: exactness, not tolerance
    with pytest.raises(InvalidMechanism, match="not 1"):
        FiniteMechanism(pair(), {"D": {0: 1 + R(1, 10**40)}, "D'": {0: 1}})
    # transcendental probabilities that sum to 1 exactly are accepted
    e = sp.exp(R(-1, 3))
    FiniteMechanism(pair(), {"D": {0: e, 1: 1 - e}, "D'": {0: 1 - e, 1: e}})


def test_negative_probability_rejected():
    with pytest.raises(InvalidMechanism, match="negative"):
        FiniteMechanism(pair(), {"D": {0: R(-1, 2), 1: R(3, 2)}, "D'": {0: 1}})


def test_output_missing_from_order():
    with pytest.raises(InvalidMechanism, match="missing from the output order"):
        FiniteMechanism(pair(), {"D": {0: 1}, "D'": {1: 1}}, outputs=[0])


def test_unknown_and_missing_datasets():
    with pytest.raises(InvalidMechanism, match="not a node"):
        FiniteMechanism(pair(), {"D": {0: 1}, "D'": {0: 1}, "X": {0: 1}})
    with pytest.raises(InvalidMechanism, match="has no distribution"):
        FiniteMechanism(pair(), {"D": {0: 1}})


def test_floats_refused_with_a_clear_message():
    with pytest.raises(InvalidMechanism, match="float"):
        FiniteMechanism(pair(), {"D": {0: 0.5, 1: 0.5}, "D'": {0: 1}})


def test_symbolic_probabilities_validated_symbolically():
    t = sp.Symbol("t", positive=True)
    p = sp.exp(t) / (1 + sp.exp(t))
    m = FiniteMechanism(pair(), {"D": {0: 1 - p, 1: p}, "D'": {0: p, 1: 1 - p}})
    assert m.free_symbols == {t}
    assert m.with_values({t: 1}).p("D", 1) == sp.E / (1 + sp.E)
    u = sp.Symbol("u")  # no sign assumption: u could make a probability negative
    with pytest.raises(InvalidMechanism, match="non-negative"):
        FiniteMechanism(pair(), {"D": {0: u, 1: 1 - u}, "D'": {0: 1}})


def test_fraction_inputs_and_accessors():
    m = FiniteMechanism(pair(), {"D": {"a": Fraction(1, 4), "b": Fraction(3, 4)}, "D'": {"a": 1}})
    assert m.outputs == ("a", "b")
    assert m.p("D'", "b") == 0
    assert m.support("D'") == ["a"]
    assert sorted(m.ordered_pairs()) == [("D", "D'"), ("D'", "D")]


# -- neighbour graphs ------------------------------------------------------------


def test_graph_builders_sizes():
    assert hamming_cube(4).number_of_nodes() == 16
    assert hamming_cube(4).number_of_edges() == 4 * 8
    g = lumped_hamming_cube(60)
    assert g.number_of_nodes() == 61
    assert sum(g.nodes[k]["size"] for k in g.nodes) == 2**60
    assert g.nodes[7]["size"] == comb(60, 7)
    assert nx.shortest_path_length(g, 0, 60) == 60
    ar = add_remove("abc")
    assert ar.number_of_nodes() == 8 and ar.number_of_edges() == 12
    assert add_remove("abc", max_size=1).number_of_nodes() == 4
    assert replace_one("ab", 2).number_of_edges() == 4
    with pytest.raises(InvalidParameter, match="lumped"):
        hamming_cube(30)


def test_lumping_matches_the_explicit_cube():
    q = lump_by_distance(hamming_cube(5), (0,) * 5)
    l5 = lumped_hamming_cube(5)
    assert sorted(q.edges) == sorted(l5.edges)
    assert all(q.nodes[k]["size"] == l5.nodes[k]["size"] for k in l5.nodes)


def test_pairs_at_distance():
    assert len(list(pairs_at_distance(hamming_cube(3), 3))) == 8  # antipodal ordered pairs
    assert len(list(pairs_at_distance(path(4), 2, at_most=True))) == 2 * (4 + 3)


# -- composition --------------------------------------------------------------------


def test_independent_product_probabilities():
    a = coin(H, R(1, 3))
    b = coin(R(1, 4), R(1, 5))
    ab = independent(a, b)
    assert ab.outputs == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert ab.p("D", (1, 0)) == H * R(3, 4)
    assert ab.p("D'", (0, 1)) == R(2, 3) * R(1, 5)
    assert sum(ab.distribution("D'").values()) == 1
    assert len(repeat(a, 3).outputs) == 8


def test_best_of_k_is_one_line():
    # best of two coins: index 1 wins ties; index 0 wins iff (1, 0)
    a = coin(H, R(1, 3))
    best = postprocess(independent(a, a), best_index(lambda o: o))
    assert best.p("D", 0) == R(1, 4)
    assert best.p("D'", 0) == R(1, 3) * R(2, 3)
    assert best.p("D", 1) == R(3, 4)


def test_composition_rejects_different_graphs():
    a = coin(H, H)
    other = FiniteMechanism(pair("X", "Y"), {"X": {0: 1}, "Y": {0: 1}})
    with pytest.raises(InvalidMechanism, match="different datasets"):
        independent(a, other)


def test_indicator_and_events():
    m = random_mechanism(pair(), 3, seed=4)
    evs = list(events(m.outputs))
    assert len(evs) == 6
    ind = indicator(m, {0, 2})
    assert ind.p("D", True) == m.p("D", 0) + m.p("D", 2)


def test_catalogue_mechanisms_are_valid_distributions():
    g = truncated_geometric(5, R(1, 3))
    for d in g.datasets:
        assert sum(g.distribution(d).values()) == 1
    rr = randomized_response(sp.log(3))
    assert rr.p("D", 1) == R(3, 4)


def test_mixture_is_exact_convex_combination():
    from verifier.mechanism.compose import mixture

    a = coin(H, R(1, 3), name="a")
    b = FiniteMechanism(pair(), {"D": {2: 1}, "D'": {0: 1}}, [0, 2], name="b")
    m = mixture(a, b, R(1, 10))
    assert m.outputs == (0, 1, 2)
    assert m.p("D", 2) == R(1, 10) and m.p("D", 1) == R(9, 10) * H
    assert m.p("D'", 0) == R(9, 10) * R(2, 3) + R(1, 10)
    assert all(sum(m.distribution(d).values()) == 1 for d in m.datasets)
    with pytest.raises(InvalidParameter, match="weight"):
        mixture(a, b, R(3, 2))


def test_free_symbols_of_shared_subtrees_is_sympys_union():
    """A mechanism's free symbols are found by one walk that visits a shared
    subexpression once; the result is sympy's union of ``free_symbols``, bound
    variables (a ``Sum``'s index, a ``Lambda``'s argument) left out."""
    from verifier.mechanism.model import _free_symbols_of

    a, b, c, k = sp.symbols("a b c k", positive=True)
    shared = (a + b) ** 2 / (1 + sp.exp(c * b))
    exprs = [
        shared * 3,
        shared + sp.Sum(k * a, (k, 1, 4)),
        sp.Max(shared, c) - 1,
        sp.Lambda(k, k * c)(2) + shared,
        sp.Integer(5),
        sp.Rational(1, 3) * sp.Sum(k, (k, 1, b)),
    ]
    want = set().union(*(e.free_symbols for e in exprs))
    assert _free_symbols_of(exprs) == want == {a, b, c}
    assert k not in _free_symbols_of(exprs)
    m = FiniteMechanism(
        pair(),
        {
            "D": {0: shared / (1 + shared), 1: 1 / (1 + shared)},
            "D'": {0: sp.Rational(1, 2), 1: sp.Rational(1, 2)},
        },
    )
    assert m.free_symbols == {a, b, c}

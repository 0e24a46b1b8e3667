"""Subsampling (verifier.mechanism.subsample): the exact laws against a second exact
method (the one-record-at-a-time recursion) and a seeded simulation of the sampler,
the neighbour graphs, bad input, and the amplification claims' deciders seeing a
tightened bound."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
import sympy as sp

from verifier.claims.registry import registered_claim
from verifier.claims.tighten import tightened
from verifier.errors import InvalidMechanism, InvalidParameter
from verifier.mechanism.subsample import (
    MAX_RECORDS,
    add_remove_graph,
    poisson_subsample,
    sample_without_replacement,
    substitution_graph,
)

R = sp.Rational


def count_base(sample):
    """An arbitrary base: the output is the number of records 'x' in the sample, with
    a little noise (so that every sub-multiset gives a different law)."""
    k = sum(1 for r in sample if r == "x")
    n = len(sample)
    return {k: R(2, 3), ("n", n): R(1, 3)}


def recursive_poisson(base, d, g):
    """Second method: condition on the last record (kept w.p. g or not)."""

    def law(kept, rest):
        if not rest:
            return {o: sp.Rational(p) for o, p in base(tuple(sorted(kept, key=repr))).items()}
        out = Counter()
        for o, p in law(kept + (rest[0],), rest[1:]).items():
            out[o] += g * p
        for o, p in law(kept, rest[1:]).items():
            out[o] += (1 - g) * p
        return dict(out)

    return law((), tuple(d))


DATASETS = [("x", "a"), ("x", "a", "x"), ("a",), ("x", "a", "b", "x")]


def test_poisson_law_equals_the_recursion():
    g = R(2, 7)
    m = poisson_subsample(count_base, DATASETS, g)
    for d in DATASETS:
        want = recursive_poisson(count_base, d, g)
        for o in m.outputs:
            assert m.p(d, o) == want.get(o, 0)


def test_without_replacement_law_equals_enumeration_of_ordered_draws():
    # second method: draw records one at a time without replacement (ordered), 1/(n)_m each
    d = ("x", "a", "x", "b", "c")
    m = sample_without_replacement(count_base, [d], 3)
    n, size = len(d), 3
    want = Counter()
    draws = list(itertools.permutations(range(n), size))
    for idx in draws:
        for o, p in count_base(tuple(sorted((d[i] for i in idx), key=repr))).items():
            want[o] += R(1, len(draws)) * p
    assert {o: m.p(d, o) for o in m.outputs if m.p(d, o) != 0} == dict(want)


def test_poisson_law_against_a_seeded_simulation():
    g, d = Fraction(1, 3), ("x", "x", "a", "b")
    m = poisson_subsample(count_base, [d], R(1, 3))
    rng = random.Random(20261127)
    trials = 60_000
    seen = Counter()
    for _ in range(trials):
        sample = tuple(r for r in d if rng.random() < g)
        law = count_base(sample)
        u, acc = rng.random(), 0
        for o, p in law.items():
            acc += float(p)
            if u < acc:
                seen[o] += 1
                break
    for o in m.outputs:
        p = float(m.p(d, o))
        # five standard deviations of a binomial frequency
        assert abs(seen[o] / trials - p) <= 5 * (p * (1 - p) / trials) ** 0.5 + 1e-9


def test_neighbour_graphs():
    g = add_remove_graph([("a",), ("a", "x"), ("b", "x"), ("a", "x", "x")])
    assert g.has_edge(("a",), ("a", "x")) and g.has_edge(("a", "x"), ("a", "x", "x"))
    assert not g.has_edge(("a",), ("b", "x")) and not g.has_edge(("a", "x"), ("b", "x"))
    s = substitution_graph([("a", "b"), ("a", "x"), ("x", "y"), ("b", "a", "c")])
    assert s.has_edge(("a", "b"), ("a", "x")) and s.has_edge(("a", "x"), ("x", "y"))
    assert not s.has_edge(("a", "b"), ("x", "y")) and s.degree(("b", "a", "c")) == 0


def test_bad_input_is_named():
    with pytest.raises(InvalidParameter, match=r"rate must lie in \[0, 1\]"):
        poisson_subsample(count_base, DATASETS, R(3, 2))
    with pytest.raises(InvalidParameter, match="float"):
        poisson_subsample(count_base, DATASETS, 0.5)
    with pytest.raises(InvalidParameter, match=f"at most {MAX_RECORDS} records"):
        poisson_subsample(count_base, [("a",) * (MAX_RECORDS + 1)], R(1, 2))
    with pytest.raises(InvalidParameter, match="listed twice"):
        poisson_subsample(count_base, [("a",), ("a",)], R(1, 2))
    with pytest.raises(InvalidParameter, match="fewer than 3 records"):
        sample_without_replacement(count_base, [("a", "b")], 3)
    with pytest.raises(InvalidMechanism, match="not a mapping"):
        poisson_subsample(lambda s: [1], [("a",)], R(1, 2))


@pytest.mark.parametrize(
    "claim_id", ["subsampling.poisson.pure", "subsampling.wor.pure", "subsampling.poisson.approx"]
)
def test_the_amplification_deciders_refute_a_tightened_bound(claim_id):
    outcome = registered_claim(claim_id).run()
    assert outcome.matches
    assert tightened(outcome).verdict.value == "violated"

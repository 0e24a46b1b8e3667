"""The extension lemma (:mod:`verifier.constructions.extension`, Talwar 2025,
Proposition 2): the lumped cube against the explicit cube, networkx graphs with
groups, and the inputs it refuses."""

from __future__ import annotations

import networkx as nx
import pytest
import sympy as sp

from verifier.checks.privacy import check_pure_dp, pure_epsilon
from verifier.constructions.extension import ExtensionFailed, extend, extend_on_lumped_cube
from verifier.constructions.lower_bounds import BAD, GOOD
from verifier.errors import InvalidParameter
from verifier.mechanism.instances import random_mechanism, randomized_response
from verifier.mechanism.neighbours import hamming_cube, path

R = sp.Rational


def test_extension_lumped_equals_explicit_cube():
    eps = sp.log(2)
    q = R(1, 16)  # e^(-4 eps)
    n = 4
    good, bad = GOOD, BAD
    lumped = extend_on_lumped_cube(
        n, {0: {good: q, bad: 1 - q}, n: {good: 1 - q, bad: q}}, eps, outputs=[bad, good]
    )
    cube = hamming_cube(n)
    zero, one = (0,) * n, (1,) * n
    explicit = extend(
        cube, {zero: {good: q, bad: 1 - q}, one: {good: 1 - q, bad: q}}, eps, outputs=[bad, good]
    )
    for x in cube.nodes:
        k = sum(x)
        for o in (good, bad):
            assert explicit.mechanism.p(x, o) == lumped.mechanism.p(k, o)
    assert lumped.verification.holds and explicit.verification.holds
    realized = pure_epsilon(lumped.mechanism).value
    assert check_pure_dp(lumped.mechanism, epsilon=2 * eps).holds
    assert sp.N(realized) <= sp.N(2 * eps)


def test_extension_on_networkx_graph_with_groups():
    g = nx.petersen_graph()
    m = random_mechanism(g, 3, seed=1)
    eps = pure_epsilon(m).value
    partial = {b: m.distribution(b) for b in (0, 5, 7)}
    ext = extend(g, partial, eps)
    for b in partial:
        assert ext.mechanism.distribution(b) == partial[b]
    assert ext.verification.holds


def test_extension_rejects_bad_input():
    rr = randomized_response(sp.log(3), datasets=(0, 2))
    partial = {b: rr.distribution(b) for b in (0, 2)}
    with pytest.raises(InvalidParameter, match="premise"):
        extend(path(2), partial, R(1, 10))  # ratio 3 > e^(2/10)
    g = nx.Graph()
    g.add_nodes_from([0, 1, 2])
    g.add_edge(0, 2)
    with pytest.raises(InvalidParameter, match="connected"):
        extend(g, partial, sp.log(3))
    with pytest.raises(InvalidParameter, match="not a node"):
        extend(path(2), {9: {0: 1}}, 1)
    with pytest.raises(InvalidParameter):
        extend(path(2), {}, 1)
    assert issubclass(ExtensionFailed, Exception)


@pytest.mark.parametrize("eps", [sp.Rational(1, 10), sp.log(2), sp.Rational(7, 3)])
def test_least_candidate_is_certified_min(eps):
    # the extension's minimum over its candidates e^(eps k) p: chosen by intervals when
    # one is certainly least (and only it is formed), by certified_min otherwise; the
    # two give the same expression on seeded candidates, equal candidates and
    # candidates equal in value but not in form (eps = log 2: e^(log 2) / 4 = 1/2)
    import random

    from verifier.arithmetic.exact import DEFAULT_PRECISION
    from verifier.arithmetic.precision import interval_context
    from verifier.checks.certified import certified_min
    from verifier.constructions.extension import _Least

    R = sp.Rational
    rng = random.Random(5)
    sets = [
        [(R(rng.randint(1, 60), 60), rng.randint(0, 6)) for _ in range(rng.randint(1, 4))]
        for _ in range(60)
    ]
    sets += [[(R(1, 3), 2), (R(1, 3), 2)], [(R(1, 4), 1), (R(1, 2), 0)], [(R(1, 2), 0)]]
    with interval_context(64) as ctx:
        least = _Least(eps, ctx, DEFAULT_PRECISION)
        for cands in sets:
            formed = [p if k == 0 else sp.exp(eps * k) * p for p, k in cands]
            assert least(cands) == certified_min(formed), cands

"""Ghazi et al. 2025, Algorithm 4 (:mod:`verifier.algorithms.ghazi_filter`, the
ex-post RDP privacy filter) on finite adversary trees: transcripts against a seeded
simulation of the game, exact identities, the filter's stopping rule, and input
validation."""

from __future__ import annotations

import random
from collections import Counter

import mpmath
import pytest
import sympy as sp

from casestudies.ghazi2025.theory import check_theorem16
from verifier.algorithms.ghazi_filter import (
    B0,
    B1,
    AdversaryNode,
    filter_transcripts,
    random_adversary,
    transcript_mechanism,
)
from verifier.arithmetic.exact import Verdict, approx, decide_le
from verifier.checks.privacy import renyi_divergence
from verifier.errors import InvalidMechanism, InvalidParameter

R = sp.Rational


_STOP: dict = {}
_WEIGHTS: dict = {}


def play(rng: random.Random, root: AdversaryNode, b: int, budget) -> tuple:
    """Algorithm 4 as the pseudo-code says: the adversary's request, the filter test
    ``spent + sup eps~ > budget`` (decided exactly, memoised), the mechanism's draw
    (floats only to draw)."""
    node, spent, out = root, sp.Integer(0), []
    while node is not None:
        key = (id(node), spent, budget)
        if key not in _STOP:
            top = max(node.bound(o) for o in node.outputs())
            _STOP[key] = decide_le(spent + top, budget).verdict is Verdict.VIOLATED
        if _STOP[key]:
            break
        wkey = (id(node), b)
        if wkey not in _WEIGHTS:
            dist = node.p0 if b == 0 else node.p1
            _WEIGHTS[wkey] = (list(dist), [approx(dist[x]) for x in dist])
        outs, weights = _WEIGHTS[wkey]
        o = rng.choices(outs, weights)[0]
        out.append(o)
        spent = spent + node.bound(o)
        node = node.children.get(o)
    return tuple(out)


def _pvalue(counts, probs, n):
    stat = sum((counts.get(o, 0) - n * p) ** 2 / (n * p) for o, p in probs.items())
    stat += sum(c for o, c in counts.items() if o not in probs) * 1e9
    return float(mpmath.gammainc((len(probs) - 1) / 2, stat / 2, mpmath.inf, regularized=True))


@pytest.mark.parametrize("seed", [0, 3])
def test_transcripts_match_simulation(seed):
    # the memo tables are keyed by id(node): ids of collected trees are reused
    _STOP.clear()
    _WEIGHTS.clear()
    rng = random.Random(100 + seed)
    root = random_adversary(seed, depth=3, outputs=2)
    budget = R(3, 2)
    ts = filter_transcripts(root, budget)
    assert sum(t.p0 for t in ts) == 1 and sum(t.p1 for t in ts) == 1
    n = 20000
    for b in (0, 1):
        probs = {t.outputs: approx(t.p0 if b == 0 else t.p1) for t in ts}
        probs = {k: v for k, v in probs.items() if v > 0}
        c = Counter(play(rng, root, b, budget) for _ in range(n))
        assert _pvalue(c, probs, n) > 1e-4


def test_filter_stops_and_tight_composition():
    P, Q = {0: R(3, 4), 1: R(1, 4)}, {0: R(1, 4), 1: R(3, 4)}
    d2 = renyi_divergence(P, Q, 2)
    assert d2 == sp.log(R(7, 3))
    leaf = AdversaryNode(P, Q, d2, label="leaf")
    root = AdversaryNode(P, Q, d2, {0: leaf, 1: leaf}, label="root")
    # budget 2 D_2: both rounds; the transcript divergence is 2 D_2 exactly
    r = check_theorem16(root, 2, 2 * d2)
    assert r.holds and r.tight
    # budget log 3 < 2 D_2: only the first round is answered, transcripts of length 1
    ts = filter_transcripts(root, sp.log(3))
    assert [t.outputs for t in ts] == [(0,), (1,)] and all(t.stopped for t in ts)
    assert check_theorem16(root, 2, sp.log(3)).holds
    # without the filter the divergence 2 log(7/3) exceeds log 3
    assert check_theorem16(root, 2, sp.log(3), enforce=False).violated
    it = transcript_mechanism(root, 2 * d2)
    assert it.outputs == ((0, 0), (0, 1), (1, 0), (1, 1)) and it.p(B0, (0, 0)) == R(9, 16)
    assert it.p(B1, (0, 0)) == R(1, 16)


def test_validation():
    with pytest.raises(InvalidMechanism, match="node 'x'"):
        AdversaryNode({0: R(1, 2)}, {0: 1}, 0, label="x").mechanism()
    node = AdversaryNode({0: 1}, {0: 1}, {1: 0})
    with pytest.raises(InvalidParameter, match="no value for output 0"):
        filter_transcripts(node, 1)
    with pytest.raises(InvalidParameter, match="claims"):
        random_adversary(0, claims="other")

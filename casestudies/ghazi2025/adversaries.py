"""Adversary trees for the ex-post RDP privacy filter (Ghazi et al. 2025,
Algorithm 4 / Theorem 16), as a searchable instance space.

An instance is a finite adversary (:class:`Adversary`): a decision tree whose nodes
request a pair of rational distributions ``P^{(0)}, P^{(1)}`` with a claimed ex-post
RDP function that is valid by construction (``"pointwise"``:
``ε̃(o) = max(0, log(P^{(0)}(o)/P^{(1)}(o)))``, ex-post DP hence Def 6 by Lemma 7;
``"renyi"``: the constant ``D_α(P^{(0)} ‖ P^{(1)})``, Def 6 with equality), an order
``α`` and the filter's budget ``ε``.

No transformer computes the filter's transcripts from a spec file, so the
certificate falls back to the *exact output distribution*: the transcript law under
``b = 0`` and ``b = 1`` (:func:`verifier.algorithms.ghazi_filter.transcript_mechanism`)
written by its exact probabilities, with one premise claim per request (Def 6, as an
``ex_post_rdp`` claim on that request) and the target ``rdp`` claim
``D_α(IT^0 ‖ IT^1) <= ε``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

import sympy as sp

from verifier.algorithms.ghazi_filter import B0, B1, AdversaryNode, transcript_mechanism
from verifier.checks.privacy import renyi_divergence
from verifier.search.certificates import claim_entry, distribution_table, expr_text, frac_text
from verifier.search.core import InstanceSpace, instance_type, iter_unique
from verifier.search.spaces import (
    SIMPLE_DENOMINATORS,
    bits,
    random_distribution,
    random_weights,
    round_to,
)
from verifier.spec import output_label

__all__ = ["Node", "Adversary", "AdversarySpace", "adversary_screen", "adversary_document"]

F = Fraction
GHAZI = "Ghazi et al. 2025"


@instance_type
@dataclass(frozen=True)
class Node:
    """One request: distributions under ``b = 0`` and ``b = 1``, the kind of its
    (valid) claim, and a child per output (``None``: the adversary stops)."""

    p0: tuple[Fraction, ...]
    p1: tuple[Fraction, ...]
    kind: str
    children: tuple[Node | None, ...]


@instance_type
@dataclass(frozen=True)
class Adversary:
    """A finite adversary with the filter's order ``alpha`` and budget ``budget``."""

    root: Node
    alpha: int
    budget: Fraction


def _nodes(n: Node) -> list[Node]:
    out = [n]
    for c in n.children:
        if c is not None:
            out.extend(_nodes(c))
    return out


def _replace_at(n: Node, k: int, new: Node | None) -> Node | None:
    """The tree with its ``k``-th node (preorder, the root is 0) replaced by ``new``."""
    if k == 0:
        return new
    k -= 1
    children = list(n.children)
    for i, c in enumerate(children):
        if c is None:
            continue
        size = len(_nodes(c))
        if k < size:
            children[i] = _replace_at(c, k, new)
            return replace(n, children=tuple(children))
        k -= size
    raise IndexError("node index out of range")


# ---------------------------------------------------------------------------
# float screening: the filter's transcripts
# ---------------------------------------------------------------------------


def _bound_f(n: Node, alpha: int) -> list[float]:
    p0 = [float(x) for x in n.p0]
    p1 = [float(x) for x in n.p1]
    if n.kind == "pointwise":
        return [max(0.0, math.log(a / b)) for a, b in zip(p0, p1, strict=True)]
    s = sum(a**alpha * b ** (1 - alpha) for a, b in zip(p0, p1, strict=True))
    return [math.log(s) / (alpha - 1)] * len(p0)


def _transcripts_f(adv: Adversary, enforce: bool) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    budget = float(adv.budget)

    def walk(n: Node, a: float, b: float, spent: float) -> None:
        bounds = _bound_f(n, adv.alpha)
        if enforce and spent + max(bounds) > budget:
            out.append((a, b))
            return
        for o, (x, y) in enumerate(zip(n.p0, n.p1, strict=True)):
            child = n.children[o]
            if child is None:
                out.append((a * float(x), b * float(y)))
            else:
                walk(child, a * float(x), b * float(y), spent + bounds[o])

    walk(adv.root, 1.0, 1.0, 0.0)
    return out


def adversary_screen(adv: Adversary, enforce: bool) -> float:
    a = adv.alpha
    s = sum(x**a * y ** (1 - a) for x, y in _transcripts_f(adv, enforce) if x > 0)
    return (math.log(s) / (a - 1)) / float(adv.budget)


# ---------------------------------------------------------------------------
# exact document
# ---------------------------------------------------------------------------


def _claimed(n: Node, alpha: int) -> Any:
    P: dict[Hashable, Any] = {
        o: sp.Rational(x.numerator, x.denominator) for o, x in enumerate(n.p0)
    }
    Q: dict[Hashable, Any] = {
        o: sp.Rational(x.numerator, x.denominator) for o, x in enumerate(n.p1)
    }
    if n.kind == "renyi":
        return renyi_divergence(P, Q, alpha)
    return {o: (sp.log(P[o] / Q[o]) if P[o] > Q[o] else sp.Integer(0)) for o in P}


def _adversary_node(n: Node, alpha: int) -> AdversaryNode:
    counter = [0]

    def build(x: Node) -> AdversaryNode:
        counter[0] += 1
        lab = f"n{counter[0]}"
        P: dict[Hashable, Any] = {
            o: sp.Rational(v.numerator, v.denominator) for o, v in enumerate(x.p0)
        }
        Q: dict[Hashable, Any] = {
            o: sp.Rational(v.numerator, v.denominator) for o, v in enumerate(x.p1)
        }
        kids: dict[Hashable, AdversaryNode] = {
            o: build(c) for o, c in enumerate(x.children) if c is not None
        }
        return AdversaryNode(P, Q, _claimed(x, alpha), kids, lab)

    return build(n)


def _transcript_label(t: Any) -> str:
    return "<" + ",".join(str(o) for o in t) + ">"


def adversary_document(adv: Adversary, claim_id: str, enforce: bool) -> dict[str, Any]:
    a = adv.alpha
    what = "with the filter" if enforce else "without the filter (every request answered)"
    statement = (
        f"Theorem 16: D_{a}(IT^0 || IT^1) <= eps = {adv.budget} for Algorithm 4 {what}, "
        f"every request ex-post ({a}, eps~_i)-RDP"
    )
    doc: dict[str, Any] = {
        "version": 1,
        "title": f"Ghazi et al. 2025, Algorithm 4: {statement}",
        "description": "The transcript distributions IT^0 (b=0) and IT^1 (b=1) of the filter "
        "against a finite adversary, written exactly (no transformer computes them from a "
        "spec file); each request is a mechanism with its claimed ex-post RDP function.",
        "graphs": {"g": {"kind": "pair", "datasets": [B0, B1]}},
        "mechanisms": {},
        "claims": [],
    }
    for k, n in enumerate(_nodes(adv.root)):
        name = f"request{k + 1}"
        outs = list(range(len(n.p0)))
        doc["mechanisms"][name] = {
            "graph": "g",
            "outputs": outs,
            "distributions": {
                B0: distribution_table(n.p0, outs),
                B1: distribution_table(n.p1, outs),
            },
        }
        c = _claimed(n, a)
        epsilon_tilde = (
            {output_label(o): expr_text(v) for o, v in c.items()}
            if isinstance(c, dict)
            else expr_text(c)
        )
        doc["claims"].append(
            claim_entry(
                f"premise-{name}",
                name,
                "ex_post_rdp",
                "holds",
                epsilon_tilde=epsilon_tilde,
                alpha=a,
                statement=f"premise: request {k + 1} (preorder) is ex-post ({a}, eps~)-RDP (Def 6)",
            )
        )
        doc["claims"][-1]["pairs"] = [[B0, B1]]
    it = transcript_mechanism(
        _adversary_node(adv.root, a),
        sp.Rational(adv.budget.numerator, adv.budget.denominator),
        enforce=enforce,
    )
    labels = [_transcript_label(t) for t in it.outputs]
    doc["mechanisms"]["IT"] = {
        "graph": "g",
        "outputs": labels,
        "distributions": {
            d: {
                lab: expr_text(it.p(d, t))
                for lab, t in zip(labels, it.outputs, strict=True)
                if it.p(d, t) != 0
            }
            for d in (B0, B1)
        },
    }
    entry = claim_entry(
        claim_id,
        "IT",
        "rdp",
        "refuted",
        alpha=a,
        epsilon=frac_text(adv.budget),
        statement=statement + " (transcripts written <o_1,...,o_m>)",
        source=f"{GHAZI}, Theorem 16",
    )
    entry["pairs"] = [[B0, B1]]
    doc["claims"].append(entry)
    return doc


# ---------------------------------------------------------------------------
# the space
# ---------------------------------------------------------------------------


@dataclass
class AdversarySpace(InstanceSpace):
    """Random finite adversaries: depth 1..``depth``, 2..``outputs`` outputs per
    request, orders ``alphas``, budgets ``budgets``."""

    depth: int = 3
    outputs: int = 3
    alphas: tuple[int, ...] = (2, 3)
    budgets: tuple[Fraction, ...] = (F(1, 4), F(1, 2), F(1), F(2), F(3))

    def _node(self, rng: Random, level: int, depth: int) -> Node:
        m = rng.randint(2, self.outputs)
        p0, p1 = random_distribution(rng, m), random_distribution(rng, m)
        kind = rng.choice(("pointwise", "renyi"))
        kids: list[Node | None] = []
        for _ in range(m):
            kids.append(
                self._node(rng, level + 1, depth)
                if level + 1 < depth and rng.random() < 0.85
                else None
            )
        return Node(p0, p1, kind, tuple(kids))

    def random(self, rng: Random) -> Adversary:
        depth = rng.randint(1, self.depth)
        return Adversary(
            self._node(rng, 0, depth), rng.choice(self.alphas), rng.choice(self.budgets)
        )

    def neighbour(self, inst: Adversary, rng: Random, scale: float) -> Adversary:
        u = rng.random()
        if u < 0.15:
            i = self.budgets.index(inst.budget) if inst.budget in self.budgets else 0
            j = min(max(i + rng.choice((-1, 1)), 0), len(self.budgets) - 1)
            return replace(inst, budget=self.budgets[j])
        nodes = _nodes(inst.root)
        k = rng.randrange(len(nodes))
        n = nodes[k]
        if u < 0.3:
            new = replace(n, kind="renyi" if n.kind == "pointwise" else "pointwise")
        else:
            side = rng.randrange(2)
            xs = [float(v) for v in (n.p0 if side == 0 else n.p1)]
            o = rng.randrange(len(xs))
            xs[o] *= math.exp(scale * rng.gauss(0.0, 1.0))
            d = random_weights(xs, 10000)
            new = replace(n, p0=d) if side == 0 else replace(n, p1=d)
        root = _replace_at(inst.root, k, new)
        assert root is not None
        return replace(inst, root=root)

    def shrink(self, inst: Adversary) -> Iterable[Adversary]:
        out: list[Adversary] = []
        nodes = _nodes(inst.root)
        for k in range(1, len(nodes)):  # cut a subtree
            root = _replace_at(inst.root, k, None)
            if root is not None:
                out.append(replace(inst, root=root))
        for k, n in enumerate(nodes):
            for den in SIMPLE_DENOMINATORS:
                a, b = round_to(n.p0, den), round_to(n.p1, den)
                if a is None or b is None:
                    continue
                root = _replace_at(inst.root, k, replace(n, p0=a, p1=b))
                if root is not None:
                    out.append(replace(inst, root=root))
        return list(iter_unique(out))

    def complexity(self, inst: Adversary) -> tuple[float, ...]:
        nodes = _nodes(inst.root)
        return (
            float(len(nodes)),
            sum(bits(x) for n in nodes for x in (*n.p0, *n.p1)) + bits(inst.budget),
        )

    def describe(self, inst: Adversary) -> str:
        def show(n: Node) -> str:
            d0 = ", ".join(str(frac_text(x)) for x in n.p0)
            d1 = ", ".join(str(frac_text(x)) for x in n.p1)
            kids = [f"{o}: {show(c)}" for o, c in enumerate(n.children) if c is not None]
            inner = f" -> {{{'; '.join(kids)}}}" if kids else ""
            return f"[({d0}) vs ({d1}), {n.kind}{inner}]"

        return f"alpha = {inst.alpha}, eps = {frac_text(inst.budget)}: {show(inst.root)}"

"""Ghazi et al. 2025, Algorithm 4 (privacy filter for ex-post RDP) and Theorem 16,
on finite adversaries.

An adversary of the game of §5 is a finite decision tree: each node holds the pair
of output distributions ``P^{(0)} = M_i(D_i^{(0)})`` and ``P^{(1)} = M_i(D_i^{(1)})``
of the mechanism it requests, its claimed ex-post RDP function ``ε̃_i``, and one
child per output (no child: the adversary stops).  Algorithm 4 with order ``α``,
budget ``ε`` answers the request at a node iff
``Σ_{j<i} ε̃_j(o_j) + sup_o ε̃_i(o) <= ε`` (decided exactly), and otherwise returns
the transcript so far.  The stopping rule depends only on the transcript, so the
transcript distributions under ``b = 0`` and ``b = 1`` are finite and exact:
:func:`filter_transcripts` enumerates them and :func:`transcript_mechanism` returns
them as a :class:`~verifier.mechanism.model.FiniteMechanism` on the pair ``b=0 ~ b=1``.

Theorem 16: if every request is ex-post ``(α, ε̃_i)``-RDP (Def 6:
``Σ_o P^{(0)}(o)^α (e^{ε̃_i(o)} P^{(1)}(o))^{1-α} <= 1``), then
``D_α(IT^0 ‖ IT^1) <= ε``.  :func:`check_node_claims` decides the premise (Def 6 at
every node) and :func:`verifier.checks.privacy.check_rdp` on :func:`transcript_mechanism`
the conclusion (the exact Rényi divergence of the transcripts); the case study of
the paper checks the theorem as their implication.

>>> import sympy as sp
>>> R = sp.Rational
>>> P, Q = {0: R(3, 4), 1: R(1, 4)}, {0: R(1, 4), 1: R(3, 4)}
>>> leaf = AdversaryNode(P, Q, sp.log(R(7, 3)))          # D_2(P||Q) = log(7/3)
>>> root = AdversaryNode(P, Q, sp.log(R(7, 3)), {0: leaf, 1: leaf})
>>> from verifier.checks.privacy import check_rdp
>>> it = transcript_mechanism(root, 2 * sp.log(R(7, 3)))
>>> check_rdp(it, epsilon=2 * sp.log(R(7, 3)), alpha=2, pairs=[(B0, B1)]).tight  # two rounds, budget attained
True
>>> [t.outputs for t in filter_transcripts(root, sp.log(3))]   # only one round fits
[(0,), (1,)]
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..arithmetic.exact import Verdict, decide_le, exact, exact_max
from ..checks.privacy import check_alpha, check_ex_post_rdp, renyi_divergence
from ..checks.results import CheckResult, conjunction
from ..errors import InvalidMechanism, InvalidParameter
from ..mechanism.instances import random_rational_distribution
from ..mechanism.model import FiniteMechanism, Output
from ..mechanism.neighbours import pair

__all__ = [
    "AdversaryNode",
    "Transcript",
    "filter_transcripts",
    "transcript_mechanism",
    "check_node_claims",
    "random_adversary",
    "B0",
    "B1",
]

#: The two worlds of the game: the private bit b = 0 and b = 1.
B0, B1 = "b=0", "b=1"


@dataclass
class AdversaryNode:
    """One request of a finite adversary (Ghazi et al. 2025, Algorithm 4, line 2).

    Parameters
    ----------
    p0, p1 : mapping
        ``M_i(D_i^{(0)})`` and ``M_i(D_i^{(1)})``: exact distributions over the
        request's outputs.
    eps_tilde : mapping, callable or constant
        The claimed ex-post RDP function ``ε̃_i`` (Def 6), ``>= 0``.
    children : mapping
        The next request after each output; outputs without a child end the game.
    label : str
        Shown in reports.
    """

    p0: Mapping[Output, Any]
    p1: Mapping[Output, Any]
    eps_tilde: Any
    children: Mapping[Output, AdversaryNode] = field(default_factory=dict)
    label: str = ""

    def outputs(self) -> list[Output]:
        return list(dict.fromkeys([*self.p0, *self.p1]))

    def bound(self, o: Output) -> sp.Expr:
        e = self.eps_tilde
        if callable(e) and not isinstance(e, sp.Basic):
            v = e(o)
        elif isinstance(e, Mapping):
            if o not in e:
                raise InvalidParameter(f"node {self.label!r}: eps~ has no value for output {o!r}")
            v = e[o]
        else:
            v = e
        return exact(v)

    def mechanism(self) -> FiniteMechanism:
        """The request as a (validated) mechanism on the pair ``b=0 ~ b=1``."""
        try:
            return FiniteMechanism(
                pair(B0, B1),
                {B0: dict(self.p0), B1: dict(self.p1)},
                self.outputs(),
                name=self.label or "request",
            )
        except InvalidMechanism as err:
            raise InvalidMechanism(f"adversary node {self.label!r}: {err}") from None

    def nodes(self) -> list[AdversaryNode]:
        """This node and every descendant (depth first)."""
        out = [self]
        for c in self.children.values():
            out.extend(c.nodes())
        return out


@dataclass(frozen=True)
class Transcript:
    """One transcript ``o_1..o_m`` of Algorithm 4 with its exact probabilities
    under ``b = 0`` and ``b = 1``, the budget it spent, and whether the filter
    stopped it (``False``: the adversary ended)."""

    outputs: tuple[Output, ...]
    p0: sp.Expr
    p1: sp.Expr
    spent: sp.Expr
    stopped: bool


def filter_transcripts(
    root: AdversaryNode, budget: Any, *, enforce: bool = True
) -> list[Transcript]:
    """Every transcript of Algorithm 4 (Ghazi et al. 2025) run against ``root``.

    At a node with spent budget ``S`` the filter answers iff
    ``S + sup_o ε̃_i(o) <= ε`` (exact comparison); ``enforce=False`` answers every
    request (the composition without a filter, a negative control).
    """
    eps = exact(budget)
    out: list[Transcript] = []

    def walk(
        node: AdversaryNode, hist: tuple[Output, ...], p0: sp.Expr, p1: sp.Expr, spent: sp.Expr
    ) -> None:
        outs = node.outputs()
        if enforce:
            bounds = [node.bound(o) for o in outs]
            top = bounds[exact_max(bounds)[0]]
            c = decide_le(spent + top, eps)
            if c.verdict is Verdict.UNDECIDED:
                raise InvalidParameter(
                    f"could not decide the filter condition at node {node.label!r}: "
                    f"{spent + top} <= {eps}"
                )
            if c.verdict is Verdict.VIOLATED:
                out.append(Transcript(hist, p0, p1, spent, True))
                return
        for o in outs:
            a, b = exact(node.p0.get(o, 0)), exact(node.p1.get(o, 0))
            if a == 0 and b == 0:
                continue
            child = node.children.get(o)
            s = spent + node.bound(o)
            if child is None:
                out.append(Transcript((*hist, o), p0 * a, p1 * b, s, False))
            else:
                walk(child, (*hist, o), p0 * a, p1 * b, s)

    walk(root, (), sp.Integer(1), sp.Integer(1), sp.Integer(0))
    return out


def transcript_mechanism(
    root: AdversaryNode, budget: Any, *, enforce: bool = True, name: str = "IT"
) -> FiniteMechanism:
    """The transcript distributions ``IT^0, IT^1`` of Algorithm 4 as a mechanism on
    the pair ``b=0 ~ b=1`` (outputs: transcripts, tuples of outputs)."""
    ts = filter_transcripts(root, budget, enforce=enforce)
    return FiniteMechanism(
        pair(B0, B1),
        {B0: {t.outputs: t.p0 for t in ts}, B1: {t.outputs: t.p1 for t in ts}},
        [t.outputs for t in ts],
        name=name,
        validate=False,
    )


def check_node_claims(root: AdversaryNode, alpha: Any) -> CheckResult:
    """Def 6 at every node, in the direction of the game (``b=0`` against ``b=1``):
    ``Σ_o P^{(0)}(o)^α (e^{ε̃(o)} P^{(1)}(o))^{1-α} <= 1``."""
    a = check_alpha(alpha)
    parts = []
    for k, node in enumerate(root.nodes()):
        m = node.mechanism()
        parts.append(
            check_ex_post_rdp(
                m,
                epsilon_tilde=node.bound,
                alpha=a,
                pairs=[(B0, B1)],
                title=f"Def 6 at node {node.label or k}",
            )
        )
    return conjunction(f"every request is ex-post ({a}, eps~)-RDP", parts)


def random_adversary(
    seed: int,
    depth: int = 2,
    outputs: int = 2,
    alpha: Any = 2,
    *,
    denominator: int = 12,
    claims: str = "mixed",
) -> AdversaryNode:
    """A seeded random finite adversary with rational distributions.

    Each node's claim ``ε̃_i`` is valid by construction: ``"pointwise"`` —
    ``max(0, log(P^{(0)}(o)/P^{(1)}(o)))`` (ex-post DP for the pair, hence Def 6
    by Lemma 7); ``"renyi"`` — the constant ``D_α(P^{(0)} ‖ P^{(1)})`` (Def 6 with
    equality); ``"mixed"`` — either, at random.
    """
    if claims not in ("pointwise", "renyi", "mixed"):
        raise InvalidParameter(f"claims must be 'pointwise', 'renyi' or 'mixed', got {claims!r}")
    rng = random.Random(seed)
    a = check_alpha(alpha)
    counter = [0]

    def build(level: int) -> AdversaryNode:
        counter[0] += 1
        label = f"n{counter[0]}"
        p0 = random_rational_distribution(outputs, rng, denominator)
        p1 = random_rational_distribution(outputs, rng, denominator)
        P: dict[Output, Any] = dict(enumerate(p0))
        Q: dict[Output, Any] = dict(enumerate(p1))
        kind = claims if claims != "mixed" else rng.choice(["pointwise", "renyi"])
        eps_tilde: Any
        if kind == "renyi":
            eps_tilde = renyi_divergence(P, Q, a)
        else:
            eps_tilde = {o: (sp.log(P[o] / Q[o]) if P[o] > Q[o] else sp.Integer(0)) for o in P}
        children: dict[Hashable, AdversaryNode] = {}
        if level + 1 < depth:
            for o in P:
                if rng.random() < 0.85:
                    children[o] = build(level + 1)
        return AdversaryNode(P, Q, eps_tilde, children, label)

    return build(0)

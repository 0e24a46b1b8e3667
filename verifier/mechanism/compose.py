"""Generic exact enumerators: independent runs and post-processing.

* :func:`independent` — run several finite mechanisms on the same dataset with
  independent coins; the output is the tuple of their outputs (product distribution),
  ordered lexicographically.
* :func:`repeat` — ``k`` independent runs of one mechanism.
* :func:`postprocess` — push a mechanism forward through a map on outputs.
* :func:`best_index` — an argmax map with an explicit tie-breaking rule, so that a
  best-of-K selector is one line:

>>> import sympy as sp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> half = sp.Rational(1, 2)
>>> coin = FiniteMechanism(pair(), {"D": {0: half, 1: half}, "D'": {0: sp.Rational(1, 3), 1: sp.Rational(2, 3)}})
>>> best = postprocess(independent(coin, coin), best_index(lambda o: o))
>>> best.p("D", 0), best.p("D'", 0)
(1/4, 2/9)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import Verdict, decide_le, exact
from ..errors import InvalidMechanism, InvalidParameter
from .model import MAX_OUTPUTS, FiniteMechanism, Output, natural_order

__all__ = [
    "independent",
    "repeat",
    "postprocess",
    "best_index",
    "indicator",
    "mixture",
    "events",
    "same_neighbour_graph",
]


def same_neighbour_graph(mechs: Sequence[FiniteMechanism]) -> nx.Graph:
    """The common neighbour graph of ``mechs``; raises if they differ."""
    g0 = mechs[0].graph
    nodes0 = set(g0.nodes)
    edges0 = {frozenset(e) for e in g0.edges}
    for m in mechs[1:]:
        if set(m.graph.nodes) != nodes0:
            raise InvalidMechanism(
                f"mechanisms {mechs[0].name!r} and {m.name!r} are defined on different datasets"
            )
        if {frozenset(e) for e in m.graph.edges} != edges0:
            raise InvalidMechanism(
                f"mechanisms {mechs[0].name!r} and {m.name!r} have different neighbour relations"
            )
    return g0


def _merged_values(mechs: Sequence[FiniteMechanism]) -> dict[sp.Symbol, sp.Expr]:
    out: dict[sp.Symbol, sp.Expr] = {}
    for m in mechs:
        for s, v in m.values.items():
            if s in out and out[s] != v:
                raise InvalidMechanism(
                    f"symbol '{s}' has value {out[s]} in one mechanism and {v} in {m.name!r}"
                )
            out[s] = v
    return out


def independent(*mechs: FiniteMechanism, name: str | None = None) -> FiniteMechanism:
    """Independent runs of ``mechs`` on the same dataset; outputs are tuples.

    The output order is lexicographic in the components' orders.  The result's size
    is the product of the output counts; it is refused beyond ``MAX_OUTPUTS``.

    Parameters
    ----------
    *mechs : FiniteMechanism
        On the same neighbour graph.
    name : str, optional
        Used in reports; default the names joined by ``" x "``.

    Returns
    -------
    FiniteMechanism
        Output ``(o_1, ..., o_k)`` at ``D`` has probability ``Π_i P_i,D(o_i)``.

    Raises
    ------
    verifier.errors.InvalidParameter
        No mechanism is given.
    verifier.errors.InvalidMechanism
        The neighbour graphs differ, a symbol has two values, or the product has
        more than ``MAX_OUTPUTS`` outputs.

    Examples
    --------
    Randomized response with ε = log 3 and the truncated geometric with ε = log 2 on
    the same pair: ``D`` gives ``(1, 0)`` with probability ``3/4 · 2/3 = 1/2``.

    >>> from verifier.mechanism.instances import randomized_response, truncated_geometric
    >>> rr = randomized_response("log(3)", datasets=(0, 1))
    >>> m = independent(rr, truncated_geometric(1, epsilon="log(2)"))
    >>> m.outputs
    ((0, 0), (0, 1), (1, 0), (1, 1))
    >>> m.p(0, (1, 0))
    1/2
    """
    if not mechs:
        raise InvalidParameter("independent() needs at least one mechanism")
    graph = same_neighbour_graph(mechs)
    size = 1
    for m in mechs:
        size *= len(m.outputs)
    if size > MAX_OUTPUTS:
        raise InvalidMechanism(
            f"the product of {len(mechs)} mechanisms has {size} outputs (limit {MAX_OUTPUTS})"
        )
    outputs = list(itertools.product(*(m.outputs for m in mechs)))
    dists: dict[Hashable, dict[Output, sp.Expr]] = {}
    for d in graph.nodes:
        supports = [[(o, m.prob(d, o)) for o in m.outputs if m.prob(d, o) != 0] for m in mechs]
        row: dict[Output, sp.Expr] = {}
        for combo in itertools.product(*supports):
            pr = sp.Integer(1)
            for _, q in combo:
                pr *= q
            row[tuple(o for o, _ in combo)] = pr
        dists[d] = row
    return FiniteMechanism(
        graph,
        dists,
        outputs,
        values=_merged_values(mechs),
        name=name or " x ".join(m.name for m in mechs),
        validate=False,
    )


def repeat(mech: FiniteMechanism, k: int, name: str | None = None) -> FiniteMechanism:
    """``k`` independent runs of ``mech`` (outputs are ``k``-tuples).

    Parameters
    ----------
    mech : FiniteMechanism
    k : int
        The number of runs.
    name : str, optional
        Used in reports; default ``<name>^<k>``.

    Returns
    -------
    FiniteMechanism
        :func:`independent` of ``k`` copies.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``k`` is not a positive integer.
    verifier.errors.InvalidMechanism
        The product has more than ``MAX_OUTPUTS`` outputs.

    Examples
    --------
    Two runs of randomized response with ε = log 3: ``(1, 1)`` has probability
    ``(3/4)^2 = 9/16`` at ``D`` and ``1/16`` at ``D'``, so the composition is exactly
    ``log 9``-DP (twice ε):

    >>> from verifier.checks.privacy import pure_epsilon
    >>> from verifier.mechanism.instances import randomized_response
    >>> rr2 = repeat(randomized_response("log(3)"), 2)
    >>> rr2.p("D", (1, 1)), rr2.p("D'", (1, 1))
    (9/16, 1/16)
    >>> pure_epsilon(rr2).value
    log(9)
    """
    if not isinstance(k, int) or k < 1:
        raise InvalidParameter(f"number of runs must be a positive integer, got {k!r}")
    return independent(*([mech] * k), name=name or f"{mech.name}^{k}")


def postprocess(
    mech: FiniteMechanism,
    f: Callable[[Any], Output],
    outputs: Sequence[Output] | None = None,
    name: str | None = None,
) -> FiniteMechanism:
    """The mechanism ``f(M(D))``: probabilities of preimages are summed exactly.

    ``outputs`` fixes the order of the images; by default their natural order.

    Parameters
    ----------
    mech : FiniteMechanism
    f : callable
        Maps each output of ``mech`` to an output of the result (hashable).
    outputs : sequence, optional
        The order of the images.
    name : str, optional
        Used in reports; default ``f(<name>)``.

    Returns
    -------
    FiniteMechanism
        ``P(y) = Σ_{o: f(o) = y} P(o)`` at every dataset.

    Raises
    ------
    verifier.errors.InvalidMechanism
        An image is missing from ``outputs``.

    Examples
    --------
    The number of ones in two runs of randomized response (ε = log 3): at ``D``,
    ``P(0) = 1/16``, ``P(1) = 2 · 3/16 = 3/8``, ``P(2) = 9/16``.

    >>> from verifier.mechanism.instances import randomized_response
    >>> s = postprocess(repeat(randomized_response("log(3)"), 2), sum)
    >>> s.outputs, [s.p("D", o) for o in s.outputs]
    ((0, 1, 2), [1/16, 3/8, 9/16])
    """
    images = {o: f(o) for o in mech.outputs}
    order = list(outputs) if outputs is not None else natural_order(images.values())
    known = set(order)
    for o, y in images.items():
        if y not in known:
            raise InvalidMechanism(f"image {y!r} of output {o!r} is missing from the output order")
    dists: dict[Hashable, dict[Output, sp.Expr]] = {}
    for d in mech.graph.nodes:
        row: dict[Output, sp.Expr] = {}
        for o in mech.outputs:
            pr = mech.prob(d, o)
            if pr != 0:
                y = images[o]
                row[y] = row.get(y, sp.Integer(0)) + pr
        dists[d] = row
    return FiniteMechanism(
        mech.graph, dists, order, values=mech.values, name=name or f"f({mech.name})", validate=False
    )


def best_index(
    score: Callable[[Any], Any], *, ties: str = "highest_index"
) -> Callable[[tuple[Any, ...]], int]:
    """Map a tuple of outputs to the index of the best one by ``score``.

    ``ties="highest_index"`` (default) orders candidates lexicographically by
    ``(score, index)`` as in the selection papers (Liu & Talwar 2019, §3: a fixed total order breaks ties); ``"lowest_index"``
    prefers the first.

    Parameters
    ----------
    score : callable
        The score of one output (comparable values).
    ties : {"highest_index", "lowest_index"}
        Which of equally scored candidates wins.

    Returns
    -------
    callable
        From a tuple of outputs to the index of the best (an ``int``); a function to
        give :func:`postprocess`.

    Raises
    ------
    verifier.errors.InvalidParameter
        ``ties`` is neither of the two.

    Examples
    --------
    >>> best_index(lambda o: o)((3, 5, 5))
    2
    >>> best_index(lambda o: o, ties="lowest_index")((3, 5, 5))
    1
    """
    if ties not in ("highest_index", "lowest_index"):
        raise InvalidParameter(f"ties must be 'highest_index' or 'lowest_index', got {ties!r}")
    sign = 1 if ties == "highest_index" else -1

    def pick(t: tuple[Any, ...]) -> int:
        return max(range(len(t)), key=lambda i: (score(t[i]), sign * i))

    return pick


def indicator(
    mech: FiniteMechanism, event: Iterable[Output], name: str | None = None
) -> FiniteMechanism:
    """The Bernoulli mechanism ``[M(D) ∈ E]`` (outputs ``False < True``).

    Checking pure DP of the indicator in both directions checks the event ``E``
    and its complement.

    Parameters
    ----------
    mech : FiniteMechanism
    event : iterable of outputs
        The event ``E``.
    name : str, optional
        Used in reports.

    Returns
    -------
    FiniteMechanism
        Outputs ``False`` and ``True``.

    Raises
    ------
    verifier.errors.InvalidMechanism
        ``event`` has an output that ``mech`` does not have.

    Examples
    --------
    The truncated geometric mechanism on ``0 ~ 1 ~ 2`` with ``x = 1/2`` outputs 0 with
    probability ``2/3``, ``1/3``, ``1/6`` at datasets 0, 1, 2:

    >>> import sympy as sp
    >>> from verifier.mechanism.instances import truncated_geometric
    >>> ind = indicator(truncated_geometric(2, sp.Rational(1, 2)), {0})
    >>> ind.outputs, [ind.p(d, True) for d in range(3)]
    ((False, True), [2/3, 1/3, 1/6])
    """
    ev = frozenset(event)
    unknown = ev - set(mech.outputs)
    if unknown:
        raise InvalidMechanism(
            f"event contains outputs not in the order: {sorted(map(repr, unknown))}"
        )
    return postprocess(mech, lambda o: o in ev, [False, True], name=name or f"[{mech.name} in E]")


def events(outputs: Sequence[Output], max_outputs: int = 12) -> Iterator[frozenset[Output]]:
    """Every non-empty proper subset of ``outputs`` (refused beyond ``max_outputs``).

    Parameters
    ----------
    outputs : sequence
        The outputs.
    max_outputs : int
        The largest number of outputs accepted (``2^n - 2`` events).

    Returns
    -------
    iterator of frozenset
        Smaller events first.

    Raises
    ------
    verifier.errors.InvalidParameter
        More than ``max_outputs`` outputs (raised when the iterator is first
        advanced).

    Examples
    --------
    >>> [sorted(e) for e in events([0, 1, 2])]
    [[0], [1], [2], [0, 1], [0, 2], [1, 2]]
    """

    outs = list(outputs)
    if len(outs) > max_outputs:
        raise InvalidParameter(
            f"{len(outs)} outputs give 2^{len(outs)} events (limit {max_outputs})"
        )
    for r in range(1, len(outs)):
        for c in itertools.combinations(outs, r):
            yield frozenset(c)


def mixture(
    a: FiniteMechanism, b: FiniteMechanism, w: Any, name: str | None = None
) -> FiniteMechanism:
    """Run ``b`` with probability ``w`` and ``a`` otherwise: ``(1-w) P_a + w P_b``.

    Both mechanisms must share the neighbour graph; the output order is ``a``'s,
    followed by any output only ``b`` has.  Mixing an ε-DP mechanism with a little
    of anything is the standard way to build (ε, δ) instances.
    """
    graph = same_neighbour_graph([a, b])
    wx = exact(w)
    if (
        wx.free_symbols
        or decide_le(0, wx).verdict is not Verdict.HOLDS
        or decide_le(wx, 1).verdict is not Verdict.HOLDS
    ):
        raise InvalidParameter(f"mixture weight must be an exact number in [0, 1], got {w!r}")
    outputs = list(a.outputs) + [o for o in b.outputs if o not in set(a.outputs)]
    dists = {
        d: {o: (1 - wx) * a.prob(d, o) + wx * b.prob(d, o) for o in outputs} for d in graph.nodes
    }
    return FiniteMechanism(
        graph,
        dists,
        outputs,
        values=_merged_values([a, b]),
        name=name or f"(1-{wx}) {a.name} + {wx} {b.name}",
        validate=False,
    )

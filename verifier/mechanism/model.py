"""Finite mechanisms: a graph of datasets and one exact distribution per dataset.

A :class:`FiniteMechanism` is data, with no privacy mathematics in it: a networkx
graph whose nodes are datasets and whose edges are the neighbouring relation, a
totally ordered finite output set, and for every dataset a distribution over the
outputs whose probabilities are sympy expressions (rationals, ``exp(-epsilon)``,
symbols with or without values).  Construction validates everything that can be
wrong with such a description and raises :class:`~verifier.errors.InvalidMechanism`
naming the problem.

Examples
--------
Randomized response on a pair of neighbouring datasets:

>>> import sympy as sp
>>> from verifier.mechanism.neighbours import pair
>>> eps = sp.Symbol("epsilon", positive=True)
>>> p = sp.exp(eps) / (1 + sp.exp(eps))
>>> rr = FiniteMechanism(pair("D", "D'"), {"D": {1: p, 0: 1 - p}, "D'": {1: 1 - p, 0: p}},
...                      outputs=[0, 1], values={eps: sp.Rational(1, 2)})
>>> rr.p("D", 1)
exp(1/2)/(1 + exp(1/2))
>>> rr.free_symbols
set()
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    Sign,
    Verdict,
    decide_eq,
    decide_sign,
    exact,
    format_number,
    is_exactly_zero,
)
from ..errors import InvalidMechanism, InvalidParameter

__all__ = ["FiniteMechanism", "Dataset", "Output", "natural_order", "bind_values"]

Dataset = Hashable
Output = Hashable

#: Mechanisms larger than this are refused with a clear message rather than
#: exhausting memory; raise it explicitly for bigger exact computations.
MAX_OUTPUTS = 2_000_000


def natural_order(outputs: Iterable[Output]) -> list[Output]:
    """Outputs in their natural order (``sorted``), or by ``repr`` when the labels are
    not mutually comparable.  Deterministic in both cases."""
    items = list(dict.fromkeys(outputs))
    try:
        return sorted(items)  # type: ignore[type-var]
    except TypeError:
        return sorted(items, key=repr)


def bind_values(values: Mapping[Any, Any] | None) -> dict[sp.Symbol, sp.Expr]:
    """Normalise a symbol-value mapping (keys: sympy symbols or names)."""
    out: dict[sp.Symbol, sp.Expr] = {}
    for k, v in (values or {}).items():
        if isinstance(k, str):
            k = sp.Symbol(k)
        if not isinstance(k, sp.Symbol):
            raise InvalidParameter(f"symbol values must be keyed by symbols or names, got {k!r}")
        out[k] = exact(v)
    return out


#: The classes whose free symbols are those of their arguments (sympy's own rule,
#: ``Basic.free_symbols``, not overridden): :func:`_free_symbols_of` walks into them.
_UNION_OF_ARGS = (sp.Add, sp.Mul, sp.Pow)


def _free_symbols_of(exprs: Iterable[sp.Expr]) -> set[sp.Symbol]:
    """The union of ``e.free_symbols`` over ``exprs``, visiting a subexpression shared
    by several of them (the same object) once: the probabilities of a mechanism built
    by an algorithm share large subtrees, which sympy's ``free_symbols`` walks again
    for every expression.  Sums, products and powers are walked; any other node gives
    its own ``free_symbols`` (bound variables of a ``Sum`` or an ``Integral``, a
    function's own rule)."""
    out: set[sp.Symbol] = set()
    seen: set[int] = set()
    stack = list(exprs)
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, _UNION_OF_ARGS) and type(e).free_symbols is sp.Basic.free_symbols:
            stack.extend(e.args)
        else:
            out |= e.free_symbols
    return out


@functools.lru_cache(maxsize=4096)
def _provably_nonnegative(x: sp.Expr) -> bool:
    """Symbolic non-negativity from sympy's assumptions, after normalising forms
    such as ``1 - 1/(1+e^t)`` that the assumptions cannot see through directly.
    Cached: a symbolic law repeats its probabilities (the truncated geometric
    mechanism's ``(1-x)/(1+x) x^j`` on every row), and the assumptions of a symbol are
    part of the expression."""
    if x.is_nonnegative:
        return True
    for form in (sp.together, sp.factor, sp.simplify):
        try:
            if form(x).is_nonnegative:
                return True
        except (NotImplementedError, TypeError, ValueError):
            continue
    return False


def _label(x: Any) -> str:
    return repr(x) if not isinstance(x, str) else f"'{x}'"


class FiniteMechanism:
    """A mechanism on a finite neighbour graph with a finite, totally ordered output set.

    Parameters
    ----------
    graph : networkx.Graph
        Datasets are its nodes, neighbouring datasets its edges.  Node attributes
        are kept (e.g. ``size`` on lumped graphs).
    distributions : mapping
        ``{dataset: {output: probability}}``; missing outputs have probability 0.
        Probabilities are exact: sympy expressions, ``int`` or ``Fraction``.
    outputs : sequence, optional
        The total order of outputs, lowest first.  Default: :func:`natural_order`
        of every output that appears.  Outputs may have probability 0 everywhere.
    values : mapping, optional
        Values of symbols that appear in the probabilities (``{epsilon: 1/2}``).
        Symbols without a value stay free: such a mechanism can be checked over a
        parameter range.
    name : str
        Used in reports.
    validate : bool
        Check the description (default).  Only internal constructors that produce
        valid mechanisms by construction may skip it.
    precision : Precision
        Working precision of the certified checks of the description.

    Raises
    ------
    verifier.errors.InvalidMechanism
        The description is malformed: a distribution that does not sum to 1, a
        negative or float probability, a dataset without a distribution, an output
        missing from the order, ...

    Examples
    --------
    Two datasets and two outputs: at ``D`` each output has probability 1/2, at ``D'``
    ``a`` has 1/4.  The realized losses are ``log((1/2)/(1/4)) = log 2`` at ``a`` and
    ``log((3/4)/(1/2)) = log(3/2)`` at ``b`` (from ``D'`` to ``D``):

    >>> import sympy as sp
    >>> from verifier.mechanism.neighbours import pair
    >>> from verifier.checks.privacy import realized_ex_post_epsilon
    >>> half, quarter = sp.Rational(1, 2), sp.Rational(1, 4)
    >>> m = FiniteMechanism(pair(), {"D": {"a": half, "b": half}, "D'": {"a": quarter, "b": 3 * quarter}})
    >>> m.outputs, m.p("D'", "b")
    (('a', 'b'), 3/4)
    >>> realized_ex_post_epsilon(m).as_dict()
    {'a': log(2), 'b': log(3/2)}
    >>> FiniteMechanism(pair(), {"D": {"a": half}, "D'": {"a": 1}})
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidMechanism: the distribution at dataset 'D' sums to 1/2 ≈ 0.5, not 1
    """

    def __init__(
        self,
        graph: nx.Graph,
        distributions: Mapping[Any, Mapping[Any, Any]],
        outputs: Sequence[Output] | None = None,
        *,
        values: Mapping[Any, Any] | None = None,
        name: str = "M",
        validate: bool = True,
        precision: Precision = DEFAULT_PRECISION,
    ) -> None:
        if not isinstance(graph, nx.Graph) or graph.is_directed() or graph.is_multigraph():
            raise InvalidMechanism("the neighbour graph must be an undirected networkx.Graph")
        self.name = name
        self.values = bind_values(values)
        self.graph: nx.Graph = nx.freeze(graph.copy()) if not nx.is_frozen(graph) else graph
        seen: list[Output] = []
        dists: dict[Dataset, dict[Output, sp.Expr]] = {}
        for d, dist in distributions.items():
            if validate and d not in self.graph:
                raise InvalidMechanism(
                    f"a distribution is given for dataset {_label(d)}, which is not a node "
                    f"of the neighbour graph"
                )
            if not isinstance(dist, Mapping):
                raise InvalidMechanism(
                    f"the distribution at dataset {_label(d)} must map outputs to probabilities"
                )
            row: dict[Output, sp.Expr] = {}
            for o, pr in dist.items():
                try:
                    row[o] = exact(pr)
                except InvalidParameter as err:
                    raise InvalidMechanism(
                        f"probability of output {_label(o)} at dataset {_label(d)}: {err}"
                    ) from None
                seen.append(o)
            dists[d] = row
        self._dist = dists
        if outputs is None:
            self.outputs: tuple[Output, ...] = tuple(natural_order(seen))
        else:
            self.outputs = tuple(outputs)
        if len(self.outputs) > MAX_OUTPUTS:
            raise InvalidMechanism(
                f"{len(self.outputs)} outputs exceed the limit of {MAX_OUTPUTS}; "
                f"use a lumped or closed-form description"
            )
        self._index = {o: i for i, o in enumerate(self.outputs)}
        self._bound_cache: dict[tuple[Dataset, Output], sp.Expr] = {}
        if validate:
            self._validate(precision)

    # -- validation ---------------------------------------------------------
    def _validate(self, precision: Precision) -> None:
        if len(self._index) != len(self.outputs):
            dup = next(o for o in self.outputs if self.outputs.count(o) > 1)
            raise InvalidMechanism(f"output {_label(dup)} appears twice in the output order")
        if self.graph.number_of_nodes() == 0:
            raise InvalidMechanism("the neighbour graph has no datasets")
        for u, v in self.graph.edges():
            if u == v:
                raise InvalidMechanism(f"dataset {_label(u)} is listed as its own neighbour")
        for d in self.graph.nodes:
            if d not in self._dist:
                raise InvalidMechanism(f"dataset {_label(d)} has no distribution")
        for d, row in self._dist.items():
            for o in row:
                if o not in self._index:
                    raise InvalidMechanism(
                        f"output {_label(o)} at dataset {_label(d)} is missing from the output order"
                    )
            self._validate_distribution(d, precision)

    def _validate_distribution(self, d: Dataset, precision: Precision) -> None:
        row = self._dist[d]
        probs = []
        for o, raw in row.items():
            pr = self.p(d, o)
            probs.append(pr)
            where = f"probability of output {_label(o)} at dataset {_label(d)}"
            if pr.free_symbols:
                if not _provably_nonnegative(pr):
                    raise InvalidMechanism(
                        f"{where} ({raw}) is not provably non-negative for all values of "
                        f"{sorted(map(str, pr.free_symbols))}; give the symbols values or "
                        f"declare them positive"
                    )
                continue
            s = decide_sign(pr, precision)
            if s.sign is Sign.NEGATIVE:
                raise InvalidMechanism(f"{where} is negative: {format_number(pr)}")
            if s.sign is Sign.UNDECIDED:
                raise InvalidMechanism(f"{where} ({raw}): could not decide that it is non-negative")
        total = sp.Add(*probs)  # one sum (adding term by term rebuilds it every time)
        if total.free_symbols:
            ok = is_exactly_zero(total - 1)
            if ok is not True:
                raise InvalidMechanism(
                    f"the distribution at dataset {_label(d)} does not provably sum to 1 "
                    f"(sum = {sp.simplify(total)})"
                )
            return
        v = decide_eq(total, 1, precision)
        if v is Verdict.VIOLATED:
            raise InvalidMechanism(
                f"the distribution at dataset {_label(d)} sums to {format_number(total)}, not 1"
            )
        if v is Verdict.UNDECIDED:
            raise InvalidMechanism(
                f"could not decide that the distribution at dataset {_label(d)} sums to exactly 1 "
                f"(sum = {total})"
            )

    # -- access -------------------------------------------------------------
    @property
    def datasets(self) -> list[Dataset]:
        return list(self.graph.nodes)

    @property
    def edges(self) -> list[tuple[Dataset, Dataset]]:
        return list(self.graph.edges)

    def ordered_pairs(self) -> Iterator[tuple[Dataset, Dataset]]:
        """Both directions of every edge."""
        for u, v in self.graph.edges:
            yield (u, v)
            yield (v, u)

    def prob(self, d: Dataset, o: Output) -> sp.Expr:
        """The probability of ``o`` at ``d`` as given (symbols unsubstituted)."""
        if d not in self._dist:
            raise InvalidMechanism(f"unknown dataset {_label(d)}")
        return self._dist[d].get(o, sp.Integer(0))

    def p(self, d: Dataset, o: Output) -> sp.Expr:
        """The probability of ``o`` at ``d`` with the symbol values substituted."""
        key = (d, o)
        hit = self._bound_cache.get(key)
        if hit is None:
            raw = self.prob(d, o)
            hit = raw.xreplace(self.values) if self.values and raw.free_symbols else raw
            self._bound_cache[key] = hit
        return hit

    def distribution(self, d: Dataset) -> dict[Output, sp.Expr]:
        """``{output: probability}`` at ``d`` (values substituted, zeros included)."""
        return {o: self.p(d, o) for o in self.outputs}

    def support(self, d: Dataset) -> list[Output]:
        return [o for o in self.outputs if self.p(d, o) != 0]

    def order_index(self, o: Output) -> int:
        try:
            return self._index[o]
        except KeyError:
            raise InvalidMechanism(f"output {_label(o)} is not in the output order") from None

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        """Symbols without a value (found once per mechanism: every check of it asks,
        and a walk of every probability costs as much as a check of a small one)."""
        found = self.__dict__.get("_free_symbols")
        if found is None:
            probs = [self.p(d, o) for d in self._dist for o in self._dist[d]]
            found = self.__dict__["_free_symbols"] = frozenset(_free_symbols_of(probs))
        return set(found)

    def with_values(self, values: Mapping[Any, Any], name: str | None = None) -> FiniteMechanism:
        """A copy with more symbol values bound (validated again)."""
        merged = dict(self.values)
        merged.update(bind_values(values))
        return FiniteMechanism(
            self.graph, self._dist, self.outputs, values=merged, name=name or self.name
        )

    def restrict(self, datasets: Iterable[Dataset], name: str | None = None) -> FiniteMechanism:
        """The mechanism on the induced subgraph of ``datasets``."""
        keep = list(datasets)
        for d in keep:
            if d not in self.graph:
                raise InvalidMechanism(f"unknown dataset {_label(d)}")
        sub = self.graph.subgraph(keep).copy()
        return FiniteMechanism(
            sub,
            {d: self._dist[d] for d in keep},
            self.outputs,
            values=self.values,
            name=name or self.name,
            validate=False,
        )

    def __repr__(self) -> str:
        return (
            f"FiniteMechanism({self.name!r}: {self.graph.number_of_nodes()} datasets, "
            f"{self.graph.number_of_edges()} edges, {len(self.outputs)} outputs)"
        )

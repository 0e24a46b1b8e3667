"""Ghazi et al. 2025, Algorithms 1–3 as exact transformers, and their claimed bounds.

Ghazi, Kamath, Knop, Kumar, Manurangsi, Zhang 2025, "Private Hyperparameter Tuning
with Ex-Post Guarantee".  Every builder returns a
:class:`~verifier.mechanism.model.FiniteMechanism` whose probabilities are the *exact*
output distribution of the algorithm, computed from closed forms (Ghazi et al. 2025, §3–§4), never by
simulation:

* :func:`above_threshold` — Algorithm 1 (ex-post AboveThreshold, geometric noise) on
  a table of integer sensitivity-1 functions.  Its output set ``(Z≥0 × [d]) ∪ {⊥}``
  is infinite; the tail ``{(o, i) : o ≥ o*_i}`` is lumped into one output
  ``("≥", o*_i, i)`` — exact for every check (see the function's notes).
* :func:`generalized_above_threshold` — Algorithm 2 (random dropping, threshold τ).
* :func:`hyperparameter_tuning` — Algorithm 3 (the main algorithm), prior
  ``Geom_{e^{-ε'}}`` or ``Exp_{ε'}``, with the repetition trick as *copies*: a
  mechanism repeated ``T_i`` times costs a binomial power, never ``T_i`` factors.
  :func:`hyperparameter_tuning_enclosures` is the certified path (summation over
  ``k`` with the tail bound in the enclosure), for any number of copies.

The claimed ex-post bounds of the paper's theorems (functions of the output, ready for
:func:`verifier.checks.privacy.check_ex_post` / :func:`~verifier.checks.privacy.check_ex_post_rdp`),
Theorem 12's copies and failure probability and Figure 1's moments live in the case
study (``casestudies.ghazi2025.theory``); this module computes the algorithms' exact
output distributions, and :func:`probability_below` the probability that Theorem 12
bounds.

Output labels: ``(o, i)`` with ``o`` an output of the ``i``-th mechanism (``i`` is
1-based, so ``(o*, 0)`` of Theorem 12 lies below every ``(o*, i)``), and
:data:`BOTTOM` (``"⊥"``), the lowest output.

The realized ex-post ε of every output of Algorithm 3, as an exact table, is a
one-liner:

>>> import sympy as sp
>>> from verifier.mechanism.instances import randomized_response
>>> from verifier.checks.privacy import realized_ex_post_epsilon
>>> rr = randomized_response(sp.log(3))                  # log 3-DP
>>> A = hyperparameter_tuning([rr, rr], [sp.log(3), sp.log(3)], sp.log(2))
>>> print(realized_ex_post_epsilon(A))                   # doctest: +NORMALIZE_WHITESPACE
output  realized ex-post epsilon  pair
⊥       0                        D -> D'
(0, 1)  log(3) ≈ 1.09861         D' -> D
(0, 2)  log(159/23) ≈ 1.93341    D' -> D
(1, 1)  log(69/53) ≈ 0.263815    D -> D'
(1, 2)  log(3) ≈ 1.09861         D -> D'

and ``check_ex_post(A, theorem11_bound(...)).table()`` adds the claimed bound and the
slack of each output.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import networkx as nx
import sympy as sp

from ..arithmetic.exact import (
    Enclosure,
    Sign,
    decide_sign,
    exact,
)
from ..checks.privacy import pure_epsilon
from ..errors import InvalidMechanism, InvalidParameter, Undecidable
from ..mechanism.compose import same_neighbour_graph
from ..mechanism.model import Dataset, FiniteMechanism, Output
from .generic import output_score
from .ghazi_series import (
    CertifiedSum,
    Factor,
    IntPoly,
    Key,
    Prior,
    RationalMoments,
    SeriesExpectation,
    certified_expectation,
    expand,
    expectation,
    make_basis,
    subset_expansion,
)
from .registry import Param, Values, choice, exact_number, transformer

__all__ = [
    "BOTTOM",
    "Prior",
    "output_index",
    "check_sensitivity",
    "is_monotone",
    "monotone_order",
    "above_threshold",
    "generalized_above_threshold",
    "hyperparameter_tuning",
    "hyperparameter_tuning_enclosures",
    "copy_counts",
    "probability_below",
]

#: The output "nothing selected" (Ghazi et al. 2025, Algorithms 1–3), below everything.
BOTTOM = "⊥"

SOURCE = "Ghazi et al. 2025"

_V = TypeVar("_V")


def output_index(o: Output) -> int | None:
    """The mechanism index ``i`` of an output ``(o, i)`` / ``("≥", o*, i)``; ``None``
    for :data:`BOTTOM`."""
    if o == BOTTOM:
        return None
    if isinstance(o, tuple) and o and isinstance(o[-1], int):
        return o[-1]
    raise InvalidParameter(f"{o!r} is not an output (o, i) of Ghazi et al.'s algorithms")


# ---------------------------------------------------------------------------
# input normalisation
# ---------------------------------------------------------------------------


def _budget(e: Any, what: str, *, positive: bool) -> sp.Expr:
    v = exact(e)
    if v.free_symbols:
        if v.is_negative or (positive and v.is_zero):
            raise InvalidParameter(f"{what} must be {'> 0' if positive else '>= 0'}, got {v}")
        return v
    s = decide_sign(v).sign
    if s is Sign.NEGATIVE or (positive and s is Sign.ZERO):
        raise InvalidParameter(f"{what} must be {'> 0' if positive else '>= 0'}, got {v}")
    if s is Sign.UNDECIDED:
        raise InvalidParameter(f"could not decide the sign of {what} = {v}")
    return v


def _budgets(
    mechs: Sequence[FiniteMechanism], epsilons: Sequence[Any] | None, *, positive: bool = False
) -> list[sp.Expr]:
    if epsilons is None:
        out = []
        for i, m in enumerate(mechs):
            v = pure_epsilon(m).value
            if v is sp.oo:
                raise InvalidParameter(
                    f"mechanism {i + 1} ({m.name}) is not eps-DP for any finite eps; "
                    f"give its budget epsilon_{i + 1} explicitly"
                )
            out.append(v)
        return out
    eps = list(epsilons)
    if len(eps) != len(mechs):
        raise InvalidParameter(
            f"{len(eps)} budgets given for {len(mechs)} mechanisms (one epsilon_i per mechanism)"
        )
    return [_budget(e, f"epsilon_{i + 1}", positive=positive) for i, e in enumerate(eps)]


def copy_counts(copies: Sequence[int] | None, d: int) -> list[int]:
    if copies is None:
        return [1] * d
    cs = list(copies)
    if len(cs) != d:
        raise InvalidParameter(f"{len(cs)} copy counts given for {d} mechanisms")
    for i, t in enumerate(cs):
        if isinstance(t, bool) or not isinstance(t, int) or t < 1:
            raise InvalidParameter(f"copies[{i}] must be a positive integer, got {t!r}")
    return cs


def _common_order(mechs: Sequence[FiniteMechanism], order: Sequence[Output] | None) -> list[Output]:
    """One total order on the outputs of all base mechanisms (lowest first)."""
    union: list[Output] = list(dict.fromkeys(o for m in mechs for o in m.outputs))
    if order is not None:
        out = list(order)
        missing = [o for o in union if o not in set(out)]
        if missing:
            raise InvalidParameter(f"output {missing[0]!r} is missing from the given order")
        if len(set(out)) != len(out):
            raise InvalidParameter("an output appears twice in the given order")
        return out
    if all(m.outputs == mechs[0].outputs for m in mechs):
        return list(mechs[0].outputs)
    try:
        return sorted(union)  # type: ignore[type-var]
    except TypeError:
        raise InvalidParameter(
            "the base mechanisms have different output sets whose labels cannot be "
            "compared; pass order=[...] (lowest first)"
        ) from None


@dataclass
class _Tables:
    """Per base mechanism and dataset: ``Q_j(o)`` by rank and the upper tails
    ``Q_j(> rank r)`` (a list of length ``n``, exact sums)."""

    point: list[dict[Dataset, list[sp.Expr]]]
    above: list[dict[Dataset, list[sp.Expr]]]


def _labels(mechs: Sequence[FiniteMechanism], outs: Sequence[Output]) -> list[tuple[Output, int]]:
    """The outputs ``(o, i)`` of Algorithms 2 and 3 (``o`` an output of the ``i``-th
    mechanism, 1-based) for ``o`` in ``outs``, in that order."""
    return [(o, i + 1) for o in outs for i, m in enumerate(mechs) if o in set(m.outputs)]


def _tables(mechs: Sequence[FiniteMechanism], order: Sequence[Output]) -> _Tables:
    n = len(order)
    point: list[dict[Dataset, list[sp.Expr]]] = []
    above: list[dict[Dataset, list[sp.Expr]]] = []
    for m in mechs:
        own = set(m.outputs)
        pm: dict[Dataset, list[sp.Expr]] = {}
        am: dict[Dataset, list[sp.Expr]] = {}
        for d in m.graph.nodes:
            row = [m.p(d, o) if o in own else sp.Integer(0) for o in order]
            gt = [sp.Integer(0)] * n
            acc = sp.Integer(0)
            for r in range(n - 1, -1, -1):
                gt[r] = acc
                acc = acc + row[r]
            pm[d] = row
            am[d] = gt
        point.append(pm)
        above.append(am)
    return _Tables(point, above)


def _merged_values(mechs: Sequence[FiniteMechanism]) -> dict[sp.Symbol, sp.Expr]:
    out: dict[sp.Symbol, sp.Expr] = {}
    for m in mechs:
        for s, v in m.values.items():
            if s in out and out[s] != v:
                raise InvalidMechanism(f"symbol '{s}' has two different values in the inputs")
            out[s] = v
    return out


def _check_method(method: str) -> None:
    if method not in ("polynomial", "subsets"):
        raise InvalidParameter(f"method must be 'polynomial' or 'subsets', got {method!r}")


def _inputs(
    mechanisms: Sequence[FiniteMechanism],
    epsilons: Sequence[Any] | None,
    eps_prime: Any,
    copies: Sequence[int] | None,
    order: Sequence[Output] | None,
    *,
    prior: str = "geometric",
    method: str | None = None,
    algorithm: str = "",
) -> tuple[list[FiniteMechanism], nx.Graph, list[sp.Expr], list[int], Prior, list[Output]]:
    """The inputs of Algorithms 2 and 3, checked: the mechanisms (on one neighbour
    graph), their budgets, the copy counts, the prior of ``k`` and the common output
    order.  With a ``method`` (the exact paths) the method is checked first, no
    mechanism at all is refused naming ``algorithm``, and the subset expansion takes
    no copies."""
    if method is not None:
        _check_method(method)
    mechs = list(mechanisms)
    if method is not None and not mechs:
        raise InvalidParameter(f"{algorithm} needs at least one mechanism")
    graph = same_neighbour_graph(mechs)
    eps = _budgets(mechs, epsilons)
    ts = copy_counts(copies, len(mechs))
    if method == "subsets" and any(t > 1 for t in ts):
        raise InvalidParameter("the subset expansion takes no copies; use method='polynomial'")
    pr = Prior(prior, _budget(eps_prime, "eps_prime", positive=True))
    return mechs, graph, eps, ts, pr, _common_order(mechs, order)


# ---------------------------------------------------------------------------
# Algorithm 1: ex-post AboveThreshold with geometric noise
# ---------------------------------------------------------------------------


def _int_value(v: Any, where: str) -> int:
    if isinstance(v, bool):
        raise InvalidParameter(f"{where}: expected an integer, got {v!r}")
    if isinstance(v, int):
        return v
    if isinstance(v, sp.Integer):
        return int(v)
    raise InvalidParameter(f"{where}: expected an integer function value, got {v!r}")


def _function_table(
    graph: nx.Graph, table: Mapping[Dataset, Sequence[Any]]
) -> dict[Dataset, list[int]]:
    if not isinstance(graph, nx.Graph) or graph.is_directed():
        raise InvalidMechanism("the neighbour graph must be an undirected networkx.Graph")
    out: dict[Dataset, list[int]] = {}
    width: int | None = None
    for d in graph.nodes:
        if d not in table:
            raise InvalidParameter(f"the function table has no row for dataset {d!r}")
        row = [_int_value(v, f"f_{i + 1}({d!r})") for i, v in enumerate(table[d])]
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InvalidParameter(
                f"dataset {d!r} has {len(row)} function values, others have {width}"
            )
        out[d] = row
    extra = [d for d in table if d not in graph]
    if extra:
        raise InvalidParameter(f"dataset {extra[0]!r} of the table is not a node of the graph")
    if not width:
        raise InvalidParameter("Algorithm 1 needs at least one function f_1")
    return out


def check_sensitivity(graph: nx.Graph, table: Mapping[Dataset, Sequence[Any]]) -> None:
    """Raise :class:`~verifier.errors.InvalidParameter` unless every ``f_i`` has
    sensitivity 1: ``|f_i(D) - f_i(D')| <= 1`` on every edge (Ghazi et al. 2025,
    Algorithm 1's input)."""
    f = _function_table(graph, table)
    for u, v in graph.edges:
        for i, (a, b) in enumerate(zip(f[u], f[v], strict=True)):
            if abs(a - b) > 1:
                raise InvalidParameter(
                    f"f_{i + 1} has sensitivity > 1: f_{i + 1}({u!r}) = {a} and "
                    f"f_{i + 1}({v!r}) = {b} on the edge {u!r} ~ {v!r}"
                )


def _rank_function(
    graph: nx.Graph, order: Sequence[Dataset] | Callable[[Dataset], Any] | str
) -> Callable[[Dataset], Any]:
    if isinstance(order, str):
        if order != "size":
            raise InvalidParameter(
                f"order must be a sequence, a key function or 'size', got {order!r}"
            )

        def by_size(d: Dataset) -> Any:
            attr = graph.nodes[d].get("size") if d in graph else None
            if attr is not None:
                return attr
            try:
                return len(d)  # type: ignore[arg-type]
            except TypeError:
                raise InvalidParameter(
                    f"order='size' needs datasets with a length or a 'size' attribute, got {d!r}"
                ) from None

        return by_size
    if callable(order):
        return order
    seq = list(order)
    pos = {d: i for i, d in enumerate(seq)}
    missing = [d for d in graph.nodes if d not in pos]
    if missing:
        raise InvalidParameter(f"dataset {missing[0]!r} is missing from the order")
    return pos.__getitem__


def is_monotone(
    graph: nx.Graph,
    table: Mapping[Dataset, Sequence[Any]],
    order: Sequence[Dataset] | Callable[[Dataset], Any] | str,
) -> tuple[bool, str]:
    """Whether every ``f_i`` is monotone w.r.t. ``order`` (Ghazi et al. 2025,
    §3.1.1): ``f_i(D) >= f_i(D')`` whenever ``D ~ D'`` and ``D ⪰ D'``.

    ``order`` is a sequence of datasets (lowest first), a key function, or
    ``"size"`` (the node attribute ``size`` or ``len(D)``: add/remove graphs ordered
    by size).  Returns ``(ok, reason)``; neighbours the order does not separate are
    reported.
    """
    f = _function_table(graph, table)
    rank = _rank_function(graph, order)
    for u, v in graph.edges:
        ru, rv = rank(u), rank(v)
        if ru == rv:
            return False, f"the order does not separate the neighbours {u!r} and {v!r}"
        hi, lo = (u, v) if ru > rv else (v, u)
        for i, (a, b) in enumerate(zip(f[hi], f[lo], strict=True)):
            if a < b:
                return False, (
                    f"f_{i + 1}({hi!r}) = {a} < f_{i + 1}({lo!r}) = {b} although {hi!r} ⪰ {lo!r}"
                )
    return True, ""


def monotone_order(graph: nx.Graph, table: Mapping[Dataset, Sequence[Any]]) -> list[Dataset] | None:
    """A total order on datasets making every ``f_i`` monotone, or ``None`` if none
    exists.

    Sorting by ``(Σ_i f_i(D), position)`` orients every edge whose value vectors are
    comparable in the right direction; if it fails, some edge has
    ``f_i(u) > f_i(v)`` and ``f_j(u) < f_j(v)``, which no order can repair.
    """
    f = _function_table(graph, table)
    pos = {d: i for i, d in enumerate(graph.nodes)}
    seq = sorted(graph.nodes, key=lambda d: (sum(f[d]), pos[d]))
    ok, _ = is_monotone(graph, f, seq)
    return seq if ok else None


def above_threshold(
    graph: nx.Graph,
    table: Mapping[Dataset, Sequence[Any]],
    epsilons: Sequence[Any],
    eps_prime: Any,
    *,
    monotone: Sequence[Dataset] | Callable[[Dataset], Any] | str | None = None,
    method: str = "polynomial",
    explicit: int = 0,
    name: str = "AboveThreshold",
) -> FiniteMechanism:
    """Ghazi et al. 2025, Algorithm 1 (ex-post AboveThreshold), exact.

    Sample ``k ~ Geom_{p'}`` (``p' = e^{-ε'}``); for ``i = 1..d`` sample
    ``y_i ~ Geom_{x_i}`` (``x_i = e^{-ε_i}``) and return ``(f_i(D) + y_i - k, i)`` at
    the first ``i`` with ``f_i(D) + y_i >= k``; else ``⊥``.

    Parameters
    ----------
    graph : networkx.Graph
        Datasets and neighbours.
    table : mapping
        ``{dataset: [f_1(D), ..., f_d(D)]}``, integers of sensitivity 1 (checked on
        every edge).
    epsilons, eps_prime :
        ``ε_1..ε_d > 0`` and ``ε' > 0`` (exact numbers or symbols).
    monotone : order, optional
        If given (a sequence of datasets, a key function, or ``"size"``), the
        functions are checked to be monotone w.r.t. it (Theorem 9's premise);
        ``"auto"`` checks that some total order makes them monotone
        (:func:`monotone_order`).
    method : {"polynomial", "subsets"}
        How the product over ``j < i`` is expanded (merged exponents, or the
        literal subset expansion — the reference).
    explicit : int
        List ``explicit`` more outputs ``(o*_i, i), (o*_i + 1, i), ...`` before the
        lumped tail, which then starts at ``o*_i + explicit`` (to inspect, or test,
        the lumping; the checks' answers do not change).

    Notes
    -----
    Exact closed form (Ghazi et al. 2025, eq. (2)): the factor of ``f_j`` (``j < i``)
    is ``Geom_{x_j}(< k - f_j) = 1 - x_j^{k - f_j}`` for ``k >= f_j + 1`` and 0 below;
    that of ``f_i`` is ``(1 - x_i) x_i^{o + k - f_i}`` for ``k >= f_i - o``.  So
    with ``k_0 = max(0, f_i - o, max_{j<i} (f_j + 1))``

        ``A_D(o, i) = (1 - x_i) x_i^{o - f_i} Σ_{k >= k_0} (1-p') (p' x_i)^k Π_{j<i} (1 - x_j^{-f_j} x_j^k)``,

    and expanding the product gives finitely many geometric series
    ``Σ_{k>=k_0} (1-p') (p'w)^k = (1-p')(p'w)^{k_0}/(1-p'w)``: no truncation.
    ``A_D(⊥) = Σ_{k >= k_0} (1-p') p'^k Π_j (1 - x_j^{k - f_j})`` with
    ``k_0 = max(0, max_j f_j + 1)``.

    *Lumping the tail.*  Let ``o*_i = max(0, max_D f_i(D))``.  For ``o >= o*_i``,
    ``k_0`` does not depend on ``o``, so ``A_D(o, i) = x_i^o C_i(D)`` for every
    dataset ``D``.  For a neighbouring pair the ratio ``A_D(o,i)/A_D'(o,i) =
    C_i(D)/C_i(D')`` is constant on the tail, and so is every claimed ``ε̃(o, i)``
    of Theorems 8–9.  Hence each per-output inequality on the tail is the same
    inequality multiplied by ``x_i^o > 0``: the pure/ex-post inequality holds for
    one tail output iff it holds for their sum; the hockey-stick terms
    ``max(0, A_D - e^c A_D')`` and the Rényi terms ``A_D^α A_D'^{1-α}`` are
    ``x_i^o`` times a constant and sum to the term of the lumped output.  The
    mechanism therefore has outputs ``(o, i)`` for ``0 <= o < o*_i``, one output
    ``("≥", o*_i, i)`` of probability ``Σ_{o >= o*_i} A_D(o, i) =
    A_D(o*_i, i)/(1 - x_i)``, and ``⊥``.

    Examples
    --------
    >>> from verifier.mechanism.neighbours import pair
    >>> R = sp.Rational
    >>> A = above_threshold(pair(), {"D": [0], "D'": [1]}, [sp.log(2)], sp.log(2))
    >>> A.outputs
    ('⊥', (0, 1), ('≥', 1, 1))
    >>> A.p("D", BOTTOM), A.p("D'", BOTTOM)
    (1/3, 1/6)
    """
    _check_method(method)
    f = _function_table(graph, table)
    check_sensitivity(graph, f)
    d = len(next(iter(f.values())))
    eps = [_budget(e, f"epsilon_{i + 1}", positive=True) for i, e in enumerate(epsilons)]
    if len(eps) != d:
        raise InvalidParameter(f"{len(eps)} budgets given for {d} functions")
    prior = Prior("geometric", _budget(eps_prime, "eps_prime", positive=True))
    if isinstance(monotone, str) and monotone == "auto":
        if monotone_order(graph, f) is None:
            raise InvalidParameter(
                "the functions are not monotone w.r.t. any total order: some edge has "
                "f_i increasing and f_j decreasing"
            )
    elif monotone is not None:
        ok, why = is_monotone(graph, f, monotone)
        if not ok:
            raise InvalidParameter(f"the functions are not monotone: {why}")
    basis, keys = make_basis(eps)
    xs = [sp.exp(-e) for e in eps]
    if isinstance(explicit, bool) or not isinstance(explicit, int) or explicit < 0:
        raise InvalidParameter(f"explicit must be a non-negative integer, got {explicit!r}")
    o_star = [max(0, max(f[D][i] for D in f)) + explicit for i in range(d)]
    outputs: list[Output] = [BOTTOM]
    for i in range(d):
        outputs += [(o, i + 1) for o in range(o_star[i])] + [("≥", o_star[i], i + 1)]
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for D, fv in f.items():
        row: dict[Output, sp.Expr] = {}
        # ⊥ (Ghazi et al. 2025, proof of Theorem 8)
        k0 = max(0, max(fv) + 1)
        qs = [xs[j] ** (-fv[j]) for j in range(d)]
        row[BOTTOM] = _alg1_sum(qs, keys, eps, basis, prior, k0, None, 1, method)
        for i in range(d):
            below = [fv[j] + 1 for j in range(i)]
            for o in [*range(o_star[i]), o_star[i]]:
                k0 = max(0, fv[i] - o, *below)
                tail = o == o_star[i]
                lead = xs[i] ** (o - fv[i]) * (1 if tail else (1 - xs[i]))
                label: Output = ("≥", o, i + 1) if tail else (o, i + 1)
                row[label] = _alg1_sum(
                    qs[:i], keys[:i], eps[:i], basis, prior, k0, (keys[i], eps[i]), lead, method
                )
        dists[D] = row
    return FiniteMechanism(graph, dists, outputs, name=name, validate=False)


def _alg1_sum(
    qs: Sequence[sp.Expr],
    keys: Sequence[Key],
    eps: Sequence[sp.Expr],
    basis: Any,
    prior: Prior,
    k0: int,
    shift: tuple[Key, sp.Expr] | None,
    lead: Any,
    method: str,
) -> sp.Expr:
    """``lead · Σ_{k >= k0} (1-p') p'^k e^{-shift·k} Π_j (1 - q_j e^{-ε_j k})``."""
    if method == "polynomial":
        poly = expand(
            [Factor(q, key) for q, key in zip(qs, keys, strict=True)],
            basis,
            scale=lead,
            shift=None if shift is None else shift[0],
        )
        return expectation(poly, basis, prior, start=k0)
    # subset expansion with a start index: Σ_{k>=k0} is the moment with start k0
    c0 = 0 if shift is None else shift[1]
    total = []
    for r in range(len(qs) + 1):
        for T in itertools.combinations(range(len(qs)), r):
            coef = sp.Integer(-1) ** r * sp.Mul(*(qs[j] for j in T))
            c = exact(c0) + sp.Add(*(eps[j] for j in T))
            total.append(coef * prior.moment(c, sp.exp(-c), k0))
    return exact(lead) * sp.Add(*total)


# ---------------------------------------------------------------------------
# Algorithm 2: generalized AboveThreshold with random dropping
# ---------------------------------------------------------------------------


def generalized_above_threshold(
    mechanisms: Sequence[FiniteMechanism],
    epsilons: Sequence[Any] | None,
    eps_prime: Any,
    threshold: Output,
    *,
    copies: Sequence[int] | None = None,
    order: Sequence[Output] | None = None,
    method: str = "polynomial",
    name: str = "GeneralizedAboveThreshold",
) -> FiniteMechanism:
    """Ghazi et al. 2025, Algorithm 2 (random dropping with a threshold τ), exact.

    Sample ``k ~ Geom_{p'}``; for ``i = 1..d``, with probability ``x_i^k`` run
    ``o_i ← M_i(D)`` and return ``(o_i, i)`` if ``o_i >= τ``; else ``⊥``.  (The
    pseudo-code's "Distribution E" and ``M_i(D_i)`` are typos for the geometric
    prior and ``M_i(D)``, Ghazi et al. 2025, Algorithm 2.)

    Exact (Ghazi et al. 2025, proof of Theorem 10), with ``s_j = Q_j(>= τ)``:
    ``A_D(o, i) = Q_i(o) E_k[x_i^k Π_{j<i} (1 - x_j^k s_j)]`` for ``o >= τ``;
    ``A_D(⊥) = E_k[Π_j (1 - x_j^k s_j)]``.  With ``copies`` (``T_g`` runs of the
    ``g``-th mechanism in a row), the output ``(o, g)`` is "some copy of ``g``
    returned ``o``": ``Q_g(o) E_k[Π_{h<g}(1 - x_h^k s_h)^{T_h} Σ_{c<T_g}
    (1 - x_g^k s_g)^c x_g^k]`` (a finite geometric sum, expanded exactly).

    ``epsilons=None`` takes each ``ε_i`` as the exact pure ε of ``M_i``.

    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response(sp.log(3))
    >>> A = generalized_above_threshold([rr], None, sp.log(2), 1)
    >>> A.outputs, A.p("D", (1, 1)), A.p("D", BOTTOM)
    (('⊥', (1, 1)), 9/20, 11/20)
    """
    mechs, graph, eps, ts, prior, outs = _inputs(
        mechanisms, epsilons, eps_prime, copies, order, method=method, algorithm="Algorithm 2"
    )
    if threshold not in outs:
        raise InvalidParameter(f"the threshold {threshold!r} is not an output of the mechanisms")
    rank = {o: r for r, o in enumerate(outs)}
    tau = rank[threshold]
    tab = _tables(mechs, outs)
    basis, keys = make_basis(eps)
    labels = _labels(mechs, outs[tau:])
    outputs: list[Output] = [BOTTOM, *labels]
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for D in graph.nodes:
        s = [tab.point[j][D][tau] + tab.above[j][D][tau] for j in range(len(mechs))]
        row: dict[Output, sp.Expr] = {}
        if method == "polynomial":
            poly = expand([Factor(s[j], keys[j], ts[j]) for j in range(len(mechs))], basis)
            row[BOTTOM] = expectation(poly, basis, prior)
        else:
            row[BOTTOM] = subset_expansion(s, eps, prior)
        for o, i1 in labels:
            i = i1 - 1
            qo = tab.point[i][D][rank[o]]
            if qo == 0:
                continue
            before = [Factor(s[j], keys[j], ts[j]) for j in range(i)]
            if method == "subsets":
                row[(o, i1)] = subset_expansion(s[:i], eps[:i], prior, c0=eps[i], scale=qo)
                continue
            if ts[i] == 1:
                poly = expand(before, basis, scale=qo, shift=keys[i])
            else:
                # Σ_{c=0}^{T-1} (1 - s X)^c X = Σ_{t=1}^{T} C(T,t) (-1)^{t+1} s^{t-1} X^t
                T = ts[i]
                grp = {
                    tuple(t * n for n in keys[i]): sp.Integer(math.comb(T, t) * (-1) ** (t + 1))
                    * s[i] ** (t - 1)
                    for t in range(1, T + 1)
                }
                poly = expand(before, basis, extra=[grp], scale=qo)
            row[(o, i1)] = expectation(poly, basis, prior)
        dists[D] = row
    return FiniteMechanism(
        graph, dists, outputs, values=_merged_values(mechs), name=name, validate=False
    )


# ---------------------------------------------------------------------------
# Algorithm 3: hyperparameter tuning with random dropping
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Alg3:
    """Algorithm 3's checked inputs (:func:`_inputs`: the mechanisms, their neighbour
    graph, budgets, copy counts, prior and common output order) with the tables of
    its output distribution: ``Q_j`` by rank, the outputs ``(o, i)`` and the rank of
    each ``o``."""

    mechs: list[FiniteMechanism]
    graph: nx.Graph
    eps: list[sp.Expr]
    ts: list[int]
    prior: Prior
    outs: list[Output]
    tab: _Tables
    labels: list[tuple[Output, int]]
    rank: dict[Output, int]

    @classmethod
    def of(
        cls,
        checked: tuple[
            list[FiniteMechanism], nx.Graph, list[sp.Expr], list[int], Prior, list[Output]
        ],
    ) -> _Alg3:
        mechs, graph, eps, ts, pr, outs = checked
        rank = {o: r for r, o in enumerate(outs)}
        return cls(
            mechs, graph, eps, ts, pr, outs, _tables(mechs, outs), _labels(mechs, outs), rank
        )


def _alg3_others(i: int, r: int, D: Dataset, tab: _Tables) -> list[tuple[int, sp.Expr]]:
    """``(j, Q_j(U^j_{o,i}))`` for ``j != i`` and the output ``o`` of rank ``r``, with
    ``Q_j(U^j_{o,i}) = Q_j(> o) + [j > i] Q_j(o)`` (Ghazi et al. 2025, proof of
    Theorem 11): the factor ``(1 - x_j^k Q_j(U^j_{o,i}))^{T_j}`` of ``A_D(o, i)``."""
    return [
        (j, tab.above[j][D][r] + (tab.point[j][D][r] if j > i else 0))
        for j in range(len(tab.point))
        if j != i
    ]


def _alg3_rows(
    a: _Alg3, bottom: _V, value: Callable[[Dataset, int, int, sp.Expr], _V]
) -> dict[Dataset, dict[Output, _V]]:
    """Algorithm 3's output distribution ``{D: {⊥: bottom, (o, i): A_D(o, i)}}`` with
    ``A_D(o, i) = value(D, i - 1, r, Q_i(o))`` (``r`` the rank of ``o``) for every label
    ``(o, i)`` with ``Q_i(o) != 0`` at ``D`` (the others have probability 0)."""
    dists: dict[Dataset, dict[Output, _V]] = {}
    for D in a.graph.nodes:
        row: dict[Output, _V] = {BOTTOM: bottom}
        for o, i1 in a.labels:
            r = a.rank[o]
            qo = a.tab.point[i1 - 1][D][r]
            if qo != 0:
                row[(o, i1)] = value(D, i1 - 1, r, qo)
        dists[D] = row
    return dists


def _alg3_series_terms(
    a: _Alg3, D: Dataset, i: int, r: int, qo: sp.Expr, xs: Sequence[sp.Expr], keep_zero: bool
) -> tuple[list[tuple[Any, Any, int]], tuple[Any, Any] | None, tuple[Any, Any, Any, int] | None]:
    """``A_D(o, i) = E_k[L_i(k) Π_{j≠i} (1 - x_j^k Q_j(U^j_{o,i}))^{T_j}]`` as series
    data (Ghazi et al. 2025, proof of Theorem 11 with §4.1's copies): the factors
    ``(Q_j(U^j_{o,i}), x_j, T_j)`` (those with ``Q_j(U^j_{o,i}) = 0``, a factor 1, only
    with ``keep_zero``), then ``L_i = Q_i(o) x_i^k`` as ``leading = (Q_i(o), x_i)`` for one copy,
    or ``L_i = (1 - x_i^k Q_i(>o))^{T_i} - (1 - x_i^k Q_i(>=o))^{T_i}`` as ``difference =
    (Q_i(>o), Q_i(>=o), x_i, T_i)`` for ``T_i`` copies (the other one ``None``)."""
    factors = [(q, xs[j], a.ts[j]) for j, q in _alg3_others(i, r, D, a.tab) if keep_zero or q != 0]
    if a.ts[i] == 1:
        return factors, (qo, xs[i]), None
    above = a.tab.above[i][D][r]
    return factors, None, (above, above + qo, xs[i], a.ts[i])


def hyperparameter_tuning(
    mechanisms: Sequence[FiniteMechanism],
    epsilons: Sequence[Any] | None,
    eps_prime: Any,
    *,
    prior: str = "geometric",
    copies: Sequence[int] | None = None,
    order: Sequence[Output] | None = None,
    method: str = "polynomial",
    name: str = "HyperparameterTuning",
) -> FiniteMechanism:
    """Ghazi et al. 2025, Algorithm 3 (hyperparameter tuning with random dropping), exact.

    ``S ← {⊥}``; sample ``k ~ E``; for ``i = 1..d``, with probability ``e^{-ε_i k}``
    run ``o ← M_i(D)`` and add ``(o, i)`` to ``S``; return ``max S`` (``(o, i)``
    ordered lexicographically, ``⊥`` lowest).

    Parameters
    ----------
    mechanisms : sequence of FiniteMechanism
        ``M_1..M_d`` on the same neighbour graph.  Their outputs are compared in one
        total order: ``order`` if given, else their common output order, else the
        natural order of the labels.
    epsilons : sequence or None
        ``ε_1..ε_d >= 0`` (exact numbers or symbols); ``None``: the exact pure ε of
        each ``M_i`` (:func:`verifier.checks.privacy.pure_epsilon`).
    eps_prime : number
        ``ε' > 0``: the prior is ``Geom_{e^{-ε'}}`` (``prior="geometric"``, Theorems
        11–12) or ``Exp_{ε'}`` (``prior="exponential"``, Theorem 13).
    copies : sequence of int, optional
        The repetition trick (§4.1): ``M_g`` appears ``T_g`` times in a row.  The
        output ``(o, g)`` then means "some copy of ``M_g`` won with ``o``" — the
        post-processing that forgets which copy; its probability is
        ``E_k[Π_{h<g} (1 - x_h^k Q_h(>o))^{T_h} ((1 - x_g^k Q_g(>o))^{T_g} -
        (1 - x_g^k Q_g(>=o))^{T_g}) Π_{h>g} (1 - x_h^k Q_h(>=o))^{T_h}]`` (the sum
        over copies telescopes); powers are binomial expansions, never lists of
        copies.  For per-copy outputs pass the copies as separate mechanisms.  With
        copies, the geometric prior and some ``e^{-ε'}``, ``e^{-ε_i}`` irrational,
        the probabilities are exact series over ``k``
        (:class:`~verifier.algorithms.ghazi_series.SeriesExpectation`), enclosed on
        demand in ``O(log T + bits)`` terms: their closed forms grow with the square
        of the number of copies.
    method : {"polynomial", "subsets"}
        ``"polynomial"``: the product is expanded with merged exponents (budgets on
        a common grid give a polynomial in ``z = e^{-uk}``; equal mechanisms merge
        into binomial powers) — the scalable exact path.  ``"subsets"``: the literal
        subset expansion of the proof of Theorem 11 — the symbolic reference (small ``d``).

    Notes
    -----
    Exact (Ghazi et al. 2025, proof of Theorem 11):
    ``A_D(o, i) = Q_i(o) E_k[e^{-ε_i k} Π_{j≠i} (1 - e^{-ε_j k} Q_j(U^j_{o,i}))]``
    with ``Q_j(U^j_{o,i}) = Q_j(>o) + [j > i] Q_j(o)``, and
    ``A(⊥) = E_k[Π_j (1 - e^{-ε_j k})]`` computed from its own closed form — the
    same expression object at every dataset, so its ratio is exactly 1, never a
    complement ``1 - Σ``.  ``E_k[e^{-ck}] = (1-p')/(1 - p' e^{-c})`` (geometric) or
    ``ε'/(ε' + c)`` (exponential).
    """
    alg = _Alg3.of(
        _inputs(
            mechanisms,
            epsilons,
            eps_prime,
            copies,
            order,
            prior=prior,
            method=method,
            algorithm="Algorithm 3",
        )
    )
    mechs, graph, eps, ts, pr, tab = alg.mechs, alg.graph, alg.eps, alg.ts, alg.prior, alg.tab
    basis, keys = make_basis(eps)
    d = len(mechs)
    outputs: list[Output] = [BOTTOM, *alg.labels]
    fast = _alg3_rational(alg, keys, basis) if method == "polynomial" else None
    if fast is None and method == "polynomial" and _wants_series(pr, eps, ts, tab):
        fast = _alg3_series(alg)
    if fast is not None:
        return FiniteMechanism(
            graph, fast, outputs, values=_merged_values(mechs), name=name, validate=False
        )
    # A(⊥): independent of the dataset (Ghazi et al. 2025, proof of Theorem 11)
    if method == "polynomial":
        bottom = expectation(
            expand([Factor(1, keys[j], ts[j]) for j in range(d)], basis), basis, pr
        )
    else:
        bottom = subset_expansion([1] * d, eps, pr)

    def value(D: Dataset, i: int, r: int, qo: sp.Expr) -> sp.Expr:
        others = _alg3_others(i, r, D, tab)
        if method == "subsets":
            return subset_expansion(
                [q for _, q in others], [eps[j] for j, _ in others], pr, c0=eps[i], scale=qo
            )
        factors = [Factor(q, keys[j], ts[j]) for j, q in others]
        if ts[i] == 1:
            poly = expand(factors, basis, scale=qo, shift=keys[i])
        else:
            a = tab.above[i][D][r]
            b = a + qo
            T = ts[i]
            grp = {
                tuple(t * n for n in keys[i]): sp.Integer(math.comb(T, t) * (-1) ** t)
                * (a**t - b**t)
                for t in range(1, T + 1)
            }
            poly = expand(factors, basis, extra=[grp])
        return expectation(poly, basis, pr)

    dists = _alg3_rows(alg, bottom, value)
    return FiniteMechanism(
        graph, dists, outputs, values=_merged_values(mechs), name=name, validate=False
    )


def _fraction(x: sp.Expr) -> tuple[int, int]:
    return int(x.p), int(x.q)


def _alg3_rational(
    alg: _Alg3, keys: Sequence[Key], basis: Any
) -> dict[Dataset, dict[Output, sp.Expr]] | None:
    """Algorithm 3's output distribution in integer arithmetic, or ``None`` when the
    data is not rational on one grid unit (then the generic path applies).

    Budgets ``ε_j = m_j u`` (``m_j >= 1``), rational ``Q_j`` and rational moments
    ``μ_n = E_k[e^{-nuk}]``: every probability is ``Σ_n N_n μ_n`` for the integer
    polynomial ``N`` of the product (Ghazi et al. 2025, proof of Theorem 11).  For one
    output ``o`` the products of consecutive mechanisms ``i`` and ``i + 1`` differ in
    two factors, ``(1 - x_i^k Q_i(>o))`` in and ``(1 - x_{i+1}^k Q_{i+1}(>=o))`` out,
    so each product comes from the previous one by one multiplication and one exact
    division: ``O(n·d·deg)`` integer operations for ``n`` outputs and ``d``
    mechanisms, not ``O(n·d·deg^2)``.  Each probability is reduced once.
    """
    if len(basis.eps) != 1 or any(k[0] < 1 for k in keys):
        return None
    graph, tab, labels, rank, ts = alg.graph, alg.tab, alg.labels, alg.rank, alg.ts
    ms = [k[0] for k in keys]
    d = len(ms)
    values = [v for t in (tab.point, tab.above) for m in t for row in m.values() for v in row]
    if not all(v.is_Rational for v in values):
        return None
    top = sum(m * t for m, t in zip(ms, ts, strict=True))
    moments = RationalMoments.of(alg.prior, basis, top)
    if moments is None:
        return None
    one = IntPoly.one()
    for j in range(d):
        for _ in range(ts[j]):
            one.mul(1, 1, ms[j])
    bottom = sp.Rational(*moments.expectation(one))
    by_output: dict[Output, set[int]] = {}
    for o, i1 in labels:
        by_output.setdefault(o, set()).add(i1 - 1)
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for D in graph.nodes:
        row: dict[Output, sp.Expr] = {BOTTOM: bottom}
        for o, wanted in by_output.items():
            r = rank[o]
            gt = [_fraction(tab.above[j][D][r]) for j in range(d)]
            ge = [_fraction(tab.above[j][D][r] + tab.point[j][D][r]) for j in range(d)]
            # i = 0: the product over j > 0 of (1 - x_j^k Q_j(>= o))^{T_j}
            cur = IntPoly.one()
            for j in range(1, d):
                for _ in range(ts[j]):
                    cur.mul(*ge[j], ms[j])
            for i in range(d):
                if i in wanted:
                    qo = tab.point[i][D][r]
                    if qo != 0:
                        row[(o, i + 1)] = _alg3_value(cur, moments, qo, gt[i], ge[i], ms[i], ts[i])
                if i + 1 < d:
                    for _ in range(ts[i]):
                        cur.mul(*gt[i], ms[i])
                    for _ in range(ts[i + 1]):
                        cur.div(*ge[i + 1], ms[i + 1])
        dists[D] = row
    return dists


def _wants_series(pr: Prior, eps: Sequence[sp.Expr], ts: Sequence[int], tab: _Tables) -> bool:
    """Whether Algorithm 3's probabilities are kept as series over ``k``
    (:class:`~verifier.algorithms.ghazi_series.SeriesExpectation`): geometric prior,
    copies, numbers without symbols, and some ``e^{-ε'}`` or ``e^{-ε_j}`` that is not
    rational — then the closed form has ``Σ_j T_j`` moments over pairwise different
    transcendental denominators and its size grows with the square of the copies."""
    if pr.kind != "geometric" or all(t == 1 for t in ts):
        return False
    if pr.eps_prime.free_symbols or any(e.free_symbols for e in eps):
        return False
    if any(
        v.free_symbols for t in (tab.point, tab.above) for m in t for r in m.values() for v in r
    ):
        return False
    return not all(v.is_Rational for v in [pr.p, *(sp.exp(-e) for e in eps)])


def _alg3_series(alg: _Alg3) -> dict[Dataset, dict[Output, sp.Expr]]:
    """Algorithm 3's output distribution as exact series over ``k`` (Ghazi et al.
    2025, proof of Theorem 11 with §4.1's copies): ``A_D(o, i) = E_k[L_i(k) Π_{j≠i}
    (1 - x_j^k Q_j(U^j_{o,i}))^{T_j}]`` with ``L_i = Q_i(o) x_i^k`` for one copy and
    ``(1 - x_i^k Q_i(>o))^{T_i} - (1 - x_i^k Q_i(>=o))^{T_i}`` for ``T_i`` copies;
    enclosed on demand in ``O(log T + bits)`` terms."""
    xs = [sp.exp(-e) for e in alg.eps]
    ep = alg.prior.eps_prime
    bottom: sp.Expr = SeriesExpectation(
        ep, [(1, x, t) for x, t in zip(xs, alg.ts, strict=True)], (), ()
    )

    def value(D: Dataset, i: int, r: int, qo: sp.Expr) -> sp.Expr:
        factors, leading, difference = _alg3_series_terms(alg, D, i, r, qo, xs, keep_zero=False)
        return SeriesExpectation(ep, factors, leading or (), difference or ())

    return _alg3_rows(alg, bottom, value)


def _alg3_value(
    cur: IntPoly,
    moments: RationalMoments,
    qo: sp.Expr,
    gt: tuple[int, int],
    ge: tuple[int, int],
    m: int,
    T: int,
) -> sp.Expr:
    """``A_D(o, i)`` from the product ``cur`` over ``j != i``: ``Q_i(o) E_k[x_i^k cur]``
    (one copy), or ``E_k[((1 - x_i^k Q_i(>o))^T - (1 - x_i^k Q_i(>=o))^T) cur]`` for
    ``T`` copies (the sum over copies telescopes; Ghazi et al. 2025, §4.1)."""
    if T == 1:
        num, den = moments.expectation(cur, m)
        return sp.Rational(num * int(qo.p), den * int(qo.q))
    (ap, aq), (bp, bq) = gt, ge
    # (1 - a X)^T - (1 - b X)^T = Σ_t C(T,t) (-1)^t (a^t - b^t) X^t, over (aq bq)^T
    num = 0
    for t in range(1, T + 1):
        coef = math.comb(T, t) * (-1) ** t * (ap**t * bq**t - bp**t * aq**t) * (aq * bq) ** (T - t)
        if coef:
            n, _ = moments.expectation(cur, m * t)
            num += coef * n
    return sp.Rational(num, cur.den * moments.L * (aq * bq) ** T)


def _narrow_enough(e: Enclosure, digits: int) -> bool:
    lo, hi = e.bounds()
    return hi == lo or (lo > 0 and (hi - lo) * 10**digits <= lo)


def _series_enclosures(alg: _Alg3, bits: int) -> dict[Dataset, dict[Output, Enclosure]]:
    """:func:`hyperparameter_tuning_enclosures` at ``bits`` of working precision."""
    xs = [sp.exp(-e) for e in alg.eps]
    pr = alg.prior
    bottom = certified_expectation(
        pr, [(1, x, t) for x, t in zip(xs, alg.ts, strict=True)], bits=bits
    )

    def value(D: Dataset, i: int, r: int, qo: sp.Expr) -> Enclosure:
        factors, leading, difference = _alg3_series_terms(alg, D, i, r, qo, xs, keep_zero=True)
        s = certified_expectation(pr, factors, leading=leading, difference=difference, bits=bits)
        return s.enclosure

    return _alg3_rows(alg, bottom.enclosure, value)


def _enclosures_to_digits(
    alg: _Alg3, bits: int, digits: int
) -> dict[Dataset, dict[Output, Enclosure]]:
    """:func:`hyperparameter_tuning_enclosures` with ``digits`` significant digits."""
    need = math.ceil(digits * math.log2(10)) + 2  # rounding one exact value outward
    basis, keys = make_basis(alg.eps)
    exact_rows = _alg3_rational(alg, keys, basis)
    if exact_rows is not None:
        from ..arithmetic.exact import enclose

        out: dict[Dataset, dict[Output, Enclosure]] = {}
        for D, row in exact_rows.items():
            encs = {o: enclose(v, need) for o, v in row.items()}
            out[D] = {o: e for o, e in encs.items() if e is not None}
        return out
    work = max(bits, need)
    while True:
        table = _series_enclosures(alg, work)
        if all(_narrow_enough(e, digits) for row in table.values() for e in row.values()):
            return table
        if work >= 16 * need + 4096:
            raise Undecidable(
                f"the certified series did not reach {digits} significant digits at "
                f"{work} bits of working precision"
            )
        work += 32 + work // 4


def hyperparameter_tuning_enclosures(
    mechanisms: Sequence[FiniteMechanism],
    epsilons: Sequence[Any] | None,
    eps_prime: Any,
    *,
    copies: Sequence[int] | None = None,
    order: Sequence[Output] | None = None,
    bits: int = 80,
    digits: int | None = None,
) -> dict[Dataset, dict[Output, Enclosure]]:
    """Certified enclosures of Algorithm 3's output distribution (geometric prior).

    The certified path of Ghazi et al. 2025, Algorithm 3: each probability is the
    series over ``k`` of the closed form in :func:`hyperparameter_tuning`, summed in
    interval arithmetic until the explicit tail bound (the ``k``-th term is at most
    ``(1-p') Q_i(o) (p' x_i)^k``, times ``T_i`` for a group) is below ``2^{-bits}``
    of the partial sum; the tail is added to the enclosure.  Any number of copies
    (a power is ``exp(T log(1 - y))`` with a certified ``log(1 - y)``).

    Parameters
    ----------
    bits : int
        Working precision of the series (and its stopping rule).  The rounding of
        the terms widens an enclosure beyond ``2^{-bits}``: ``bits`` alone does not
        fix the number of correct digits.
    digits : int, optional
        Deliver ``digits`` significant digits: every enclosure ``[lo, hi]`` of a
        positive probability satisfies ``hi - lo <= 10^{-digits} lo``.  With rational
        data on one grid unit (the integer path of :func:`hyperparameter_tuning`
        applies) the enclosures are the exact probabilities rounded outward;
        otherwise the series is summed again, with more guard bits, until every
        enclosure is that narrow.
    """
    if digits is not None and (
        isinstance(digits, bool) or not isinstance(digits, int) or digits < 1
    ):
        raise InvalidParameter(f"digits must be a positive integer, got {digits!r}")
    alg = _Alg3.of(_inputs(mechanisms, epsilons, eps_prime, copies, order))
    if digits is not None:
        return _enclosures_to_digits(alg, bits, digits)
    return _series_enclosures(alg, bits)


def probability_below(
    mechanisms: Sequence[FiniteMechanism],
    epsilons: Sequence[Any] | None,
    eps_prime: Any,
    copies: Sequence[int],
    dataset: Dataset,
    o_star: Output,
    *,
    order: Sequence[Output] | None = None,
    bits: int = 80,
) -> CertifiedSum:
    """Certified enclosure of ``Pr[A(D) < (o*, 0)]`` for Algorithm 3 with
    ``Geom_{e^{-ε'}}`` and ``T_g`` copies of ``M_g`` (Ghazi et al. 2025, Algorithm 3;
    the failure probability of their Theorem 12).

    The output is below ``(o*, 0)`` iff every candidate that was not dropped scored
    below ``o*``: ``Pr = E_k[Π_g (1 - e^{-ε_g k} Q_g(>= o*))^{T_g}]`` — powers with
    ``T_g`` in the billions are exact powers of one factor, summed over ``k`` with
    the tail bound ``p'^K`` folded into the enclosure.
    """
    mechs = list(mechanisms)
    eps = _budgets(mechs, epsilons)
    ts = copy_counts(copies, len(mechs))
    pr = Prior("geometric", _budget(eps_prime, "eps_prime", positive=True))
    outs = _common_order(mechs, order)
    if o_star not in outs:
        raise InvalidParameter(f"o* = {o_star!r} is not an output of the mechanisms")
    tab = _tables(mechs, outs)
    r = outs.index(o_star)
    fs = [
        (tab.point[g][dataset][r] + tab.above[g][dataset][r], sp.exp(-eps[g]), ts[g])
        for g in range(len(mechs))
    ]
    return certified_expectation(pr, fs, bits=bits)


# ---------------------------------------------------------------------------
# transformer registration (spec files: algorithm = "ghazi_...")
# ---------------------------------------------------------------------------


def _number_list(raw: Any, values: Values) -> list[sp.Expr] | None:
    if raw is None:
        return None
    if not isinstance(raw, (list, tuple)):
        raise InvalidParameter(f"expected a list of numbers, got {raw!r}")
    return [exact_number(v, values) for v in raw]


def _int_list(raw: Any, values: Values) -> list[int] | None:
    if raw is None:
        return None
    if not isinstance(raw, (list, tuple)):
        raise InvalidParameter(f"expected a list of positive integers, got {raw!r}")
    out = []
    for v in raw:
        n = exact_number(v, values)
        if not n.is_Integer or n < 1:
            raise InvalidParameter(f"copies must be positive integers, got {n}")
        out.append(int(n))
    return out


def _positive_number(raw: Any, values: Values) -> sp.Expr:
    return _budget(exact_number(raw, values), "eps_prime", positive=True)


def _raw_value(raw: Any, values: Values) -> Any:
    return raw


def _threshold_output(inputs: list[FiniteMechanism], raw: Any) -> Output:
    for m in inputs:
        for o in m.outputs:
            if o == raw or str(o) == str(raw):
                return o
    raise InvalidParameter(f"the threshold {raw!r} is not an output of the inputs")


_EPS_PRIME = Param("eps_prime", _positive_number, "the additional budget epsilon' > 0")
_EPSILONS = Param(
    "epsilons",
    _number_list,
    "budgets epsilon_1..epsilon_d (default: the exact pure epsilon of each input)",
    None,
)
_COPIES = Param("copies", _int_list, "copies T_i of each input (repetition trick)", None)


@transformer(
    "ghazi_above_threshold",
    source=f"{SOURCE}, Algorithm 1 / Theorems 8-9",
    params=[
        Param("epsilons", _number_list, "budgets epsilon_1..epsilon_d of the query noise"),
        _EPS_PRIME,
    ],
    inputs=(1, None),
    summary="ex-post AboveThreshold; inputs are the deterministic integer functions f_i",
)
def _t_above_threshold(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """Algorithm 1 on the functions f_i given as deterministic integer mechanisms."""
    graph = same_neighbour_graph(inputs)
    table: dict[Hashable, list[int]] = {}
    for D in graph.nodes:
        row = []
        for i, m in enumerate(inputs):
            supp = [o for o in m.outputs if m.p(D, o) != 0]
            if len(supp) != 1:
                raise InvalidParameter(
                    f"input {i + 1} ({m.name}) must be deterministic (one output of "
                    f"probability 1 per dataset): it is the function f_{i + 1}"
                )
            score = output_score(supp[0])
            if int(score) != score:
                raise InvalidParameter(f"f_{i + 1}({D!r}) = {supp[0]!r} is not an integer")
            row.append(int(score))
        table[D] = row
    eps = params["epsilons"]
    if eps is None:
        raise InvalidParameter("Algorithm 1 needs epsilons = [...] (one per function)")
    return above_threshold(graph, table, eps, params["eps_prime"])


def _dropping_transformer(
    name: str,
    source: str,
    param: Param,
    summary: str,
    run: Callable[[list[FiniteMechanism], Any, Any, Any, Any], FiniteMechanism],
) -> None:
    """Register an algorithm of random dropping on its input mechanisms (Algorithms 2
    and 3): ``run(inputs, epsilons, eps_prime, <param>, copies)``."""

    def build(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
        eps, eps_prime = params["epsilons"], params["eps_prime"]
        return run(inputs, eps, eps_prime, params[param.name], params["copies"])

    transformer(
        name,
        source=source,
        params=[_EPSILONS, _EPS_PRIME, param, _COPIES],
        inputs=(1, None),
        summary=summary,
    )(build)


_dropping_transformer(
    "ghazi_generalized_above_threshold",
    f"{SOURCE}, Algorithm 2 / Theorem 10",
    Param("threshold", _raw_value, "the threshold tau (an output label)"),
    "generalized AboveThreshold with random dropping",
    lambda ms, eps, eps_prime, tau, copies: generalized_above_threshold(
        ms, eps, eps_prime, _threshold_output(ms, tau), copies=copies
    ),
)
_dropping_transformer(
    "ghazi_hyperparameter_tuning",
    f"{SOURCE}, Algorithm 3 / Theorems 11-13",
    Param("prior", choice("geometric", "exponential"), "the prior of k", "geometric"),
    "hyperparameter tuning with random dropping",
    lambda ms, eps, eps_prime, prior, copies: hyperparameter_tuning(
        ms, eps, eps_prime, prior=prior, copies=copies
    ),
)

"""Built-in distribution kinds: common mechanisms a spec file names instead of typing
their tables.

::

    [mechanisms.rr]
    graph = "g"
    distribution = "randomized_response"
    params = { epsilon = "log(3)", truth = { D = "1", "D'" = "0" } }

A kind is one entry of :data:`DISTRIBUTIONS`: its parameters (the
:class:`~verifier.algorithms.registry.Param` schema transformers use, so unknown or
missing parameters get the same messages) and a function computing the exact
distribution at every dataset of the mechanism's graph.  Numbers are exact (strings
parsed safely, integers); a table keyed by dataset gives each dataset's data (the
true category, the query answer, the scores).

==========================  ==========================================================
kind                        distribution at a dataset ``D``
==========================  ==========================================================
``randomized_response``     ``k``-ary randomized response: the true category
                            ``truth[D]`` w.p. ``e^ε/(e^ε + k - 1)``, each other
                            w.p. ``1/(e^ε + k - 1)`` (Warner 1965; Kairouz, Bonawitz,
                            Ramage 2016)
``truncated_geometric``     the geometric mechanism on ``{lo..hi}`` at ``v = value[D]``:
                            ``(1-x)/(1+x) x^|o-v|`` inside, ``x^|o-v|/(1+x)`` at the
                            ends, ``x = e^{-ε}`` (Ghosh, Roughgarden, Sundararajan 2009)
``discretised_laplace``     ``v + Lap(b)`` rounded to the nearest point of the grid
                            ``lo, lo + step, ..., hi`` and clamped to it: each point
                            gets the Laplace mass of its cell, the ends their tails
                            (a post-processing of the Laplace mechanism, Dwork,
                            McSherry, Nissim, Smith 2006)
``exponential_mechanism``   candidate ``r`` w.p. ``∝ exp(ε u(D, r) / (2Δ))``
                            (McSherry & Talwar 2007)
==========================  ==========================================================

Every kind also estimates, from the size of its parameters and before anything is
parsed further or built, how many outputs and how many exact operations the
distributions take (:attr:`DistributionKind.size`, in the units of
:mod:`verifier.algorithms.estimates`), and names the numbers its closed form
exponentiates (:attr:`DistributionKind.exponents`): the spec reader holds them to the
limits of derived mechanisms (``--max-outputs``, ``--max-work``, ``--max-exponent``;
:class:`verifier.spec.limits.Limits`).

Each closed form is a probability distribution by construction (the sums below are
identities, proved next to each builder), so a built-in mechanism is built without
re-deciding that its rows sum to 1, as derived mechanisms are: that decision is an
exact zero test whose cost grows with the exponent (``exp(-2^20)`` needs a million
bits) and would add nothing to the proof.  ``tests/spec/test_distributions.py``
re-decides it on every kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import sympy as sp

from ..algorithms.noise.interpreter import parse_integer
from ..algorithms.registry import Param, Values, exact_number
from ..arithmetic.exact import Sign, decide_le, decide_sign
from ..errors import InvalidMechanism, InvalidParameter, VerifierError
from ..mechanism.model import Output
from .labels import did_you_mean

__all__ = ["DistributionKind", "DISTRIBUTIONS", "distribution_kind"]

#: ``build(datasets, params) -> (outputs in order, {dataset: {output: probability}})``
BuildDistributions = Callable[
    [Sequence[str], dict[str, Any]], tuple[list[Output], dict[str, dict[Output, sp.Expr]]]
]
#: ``param(name)`` parses one parameter (errors located at ``params.<name>``).
ParamGetter = Callable[[str], Any]
#: ``size(number of datasets, raw params, param) -> (outputs, exact operations)``:
#: from the raw parameters' sizes and the few scalar parameters it parses.
SizeEstimate = Callable[[int, Mapping[str, Any], ParamGetter], tuple[int, int]]
#: ``exponents(datasets, parsed params) -> [(keys, x)]``: the numbers whose ``exp`` the
#: closed form takes (``keys``: where in ``params``), each to be at most
#: ``2^max_exponent`` in absolute value.
Exponents = Callable[[Sequence[str], dict[str, Any]], list[tuple[tuple[str, ...], sp.Expr]]]


@dataclass(frozen=True)
class DistributionKind:
    """A built-in distribution kind: name, parameters and the exact distributions."""

    name: str
    summary: str
    source: str
    params: tuple[Param, ...]
    build: BuildDistributions
    size: SizeEstimate
    exponents: Exponents
    schema: dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", {p.name: p for p in self.params})

    def parse_param(self, raw: Mapping[str, Any], name: str, values: Values, where: str) -> Any:
        """The parameter ``name`` of ``raw`` parsed (its default when absent; errors
        name ``{where}.{name}``)."""
        p = self.schema[name]
        if name not in raw:
            if p.required:
                raise InvalidParameter(
                    f"{where}: distribution {self.name!r} needs the parameter {p.name!r} ({p.doc})"
                )
            return p.default
        try:
            return p.parse(raw[name], values)
        except VerifierError as err:
            raise type(err)(f"{where}.{name}: {err}") from None

    def parse_params(self, raw: Mapping[str, Any], values: Values, where: str) -> dict[str, Any]:
        """Validate ``raw`` against the schema (errors name ``{where}.{param}``)."""
        unknown = [k for k in raw if k not in self.schema]
        if unknown:
            raise InvalidParameter(
                f"{where}.{unknown[0]}: unknown parameter of distribution {self.name!r} "
                f"(its parameters: {', '.join(self.schema)})"
            )
        return {p.name: self.parse_param(raw, p.name, values, where) for p in self.params}


# ---------------------------------------------------------------------------
# parameter parsers
# ---------------------------------------------------------------------------


def _positive(raw: Any, values: Values) -> sp.Expr:
    v = exact_number(raw, values)
    s = decide_sign(v).sign
    if s is not Sign.POSITIVE:
        raise InvalidParameter(f"must be > 0, got {v}")
    return v


def _label(raw: Any) -> str:
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        raise InvalidParameter(f"expected a label (a string), got {raw!r}")
    return str(raw)


def _labels(raw: Any, values: Values) -> list[str]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise InvalidParameter(f"must be a list of at least 2 labels, got {raw!r}")
    out = [_label(x) for x in raw]
    if len(set(out)) != len(out):
        raise InvalidParameter(f"a label appears twice in {out}")
    return out


def _table(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict) or not raw:
        raise InvalidParameter(f"must be a table dataset -> value, got {raw!r}")
    return raw


def _dataset_labels(raw: Any, values: Values) -> dict[str, str]:
    return {str(d): _label(v) for d, v in _table(raw).items()}


def _dataset_numbers(raw: Any, values: Values) -> dict[str, sp.Expr] | None:
    if raw is None:
        return None
    out = {}
    for d, v in _table(raw).items():
        try:
            out[str(d)] = exact_number(v, values)
        except VerifierError as err:
            raise type(err)(f"{d}: {err}") from None
    return out


def _dataset_scores(raw: Any, values: Values) -> dict[str, dict[str, sp.Expr]]:
    out: dict[str, dict[str, sp.Expr]] = {}
    for d, row in _table(raw).items():
        if not isinstance(row, dict) or not row:
            raise InvalidParameter(f"{d}: expected a table candidate -> score, got {row!r}")
        scores = {}
        for r, v in row.items():
            try:
                scores[str(r)] = exact_number(v, values)
            except VerifierError as err:
                raise type(err)(f"{d}.{r}: {err}") from None
        out[str(d)] = scores
    return out


def _optional_labels(raw: Any, values: Values) -> list[str] | None:
    return None if raw is None else _labels(raw, values)


def _every_dataset(table: Mapping[str, Any], datasets: Sequence[str], what: str) -> None:
    missing = [d for d in datasets if d not in table]
    if missing:
        raise InvalidMechanism(f"{what}: no entry for dataset {missing[0]!r}")
    extra = [d for d in table if d not in datasets]
    if extra:
        raise InvalidMechanism(f"{what}: {extra[0]!r} is not a dataset of the mechanism's graph")


def _le(a: Any, b: Any, what: str) -> bool:
    return decide_le(a, b).holds(lambda: InvalidParameter(f"could not decide {what}"))


# ---------------------------------------------------------------------------
# the kinds
# ---------------------------------------------------------------------------


def _randomized_response(
    datasets: Sequence[str], p: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
    """k-ary randomized response.  A distribution: ``e/(e + k - 1) + (k - 1)/(e + k - 1)
    = 1``, every term positive (``e = exp(epsilon) > 0``)."""
    cats: list[str] = p["categories"]
    truth: dict[str, str] = p["truth"]
    _every_dataset(truth, datasets, "truth")
    for d, t in truth.items():
        if t not in cats:
            raise InvalidParameter(f"truth.{d}: {t!r} is not a category ({', '.join(cats)})")
    e = sp.exp(p["epsilon"])
    k = len(cats)
    hit, miss = e / (e + k - 1), 1 / (e + k - 1)
    return list(cats), {d: {c: (hit if c == truth[d] else miss) for c in cats} for d in datasets}


def _truncated_geometric(
    datasets: Sequence[str], p: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
    """The truncated geometric mechanism (Ghosh, Roughgarden, Sundararajan 2009).  A
    distribution: with ``0 < x < 1``, ``a = v - lo`` and ``c = hi - v``, the ends hold
    ``(x^a + x^c)/(1+x)``; for ``lo < v < hi`` the inside holds ``(1-x)/(1+x)`` times
    ``1 + sum_{j=1}^{a-1} x^j + sum_{j=1}^{c-1} x^j``, and ``(1-x)`` times that sum is
    ``1 + x - x^a - x^c`` (geometric series): the total is ``(1+x)/(1+x) = 1``; for
    ``v = lo`` (``a = 0``) the inside is ``(1-x)/(1+x) sum_{j=1}^{c-1} x^j = (x -
    x^c)/(1+x)`` and the total again 1 (``v = hi`` alike).  Every term is positive."""
    lo, hi = p["lo"], p["hi"]
    if lo >= hi:
        raise InvalidParameter(f"lo must be < hi, got lo = {lo}, hi = {hi}")
    value = p["value"]
    if value is None:
        try:
            value = {d: sp.Integer(int(d)) for d in datasets}
        except ValueError:
            raise InvalidParameter(
                "give value = { dataset = answer, ... } (the datasets are not named by integers)"
            ) from None
    _every_dataset(value, datasets, "value")
    x = sp.exp(-p["epsilon"])
    inside = (1 - x) / (1 + x)
    powers: dict[int, sp.Expr] = {}
    rows: dict[str, dict[Output, sp.Expr]] = {}
    for d in datasets:
        v = value[d]
        if not v.is_Integer or not lo <= int(v) <= hi:
            raise InvalidParameter(f"value.{d}: must be an integer in [{lo}, {hi}], got {v}")
        row: dict[Output, sp.Expr] = {}
        for o in range(lo, hi + 1):
            k = abs(o - int(v))
            if k not in powers:
                powers[k] = x**k
            w = powers[k]
            row[o] = w / (1 + x) if o in (lo, hi) else inside * w
        rows[d] = row
    return list(range(lo, hi + 1)), rows


def _laplace_mass(lo: Any, hi: Any, v: sp.Expr, b: sp.Expr, branch: str) -> sp.Expr:
    """The mass of ``Lap(v, b)`` on ``[lo, hi)`` (``None`` ends are infinite) as
    ``F(hi) - F(lo)``, ``F`` the Laplace CDF written in its branch at each end:
    ``"left"`` when ``hi <= v``, ``"right"`` when ``v <= lo``, ``"middle"`` when
    ``lo < v < hi`` (each term its own closed form)."""
    if branch == "left":
        low = sp.Integer(0) if lo is None else sp.exp((lo - v) / b) / 2
        return sp.exp((hi - v) / b) / 2 - low
    if branch == "right":
        high = sp.Integer(0) if hi is None else sp.exp(-(hi - v) / b) / 2
        return sp.exp(-(lo - v) / b) / 2 - high
    left = sp.Integer(0) if lo is None else sp.exp((lo - v) / b) / 2
    right = sp.Integer(0) if hi is None else sp.exp(-(hi - v) / b) / 2
    return 1 - left - right


def _first(n: int, test: Callable[[int], bool]) -> int:
    """The least ``i`` in ``0..n`` with ``test(i)`` for a ``test`` false then true
    (``n`` when it never holds): a binary search, ``log2(n)`` decisions."""
    a, b = 0, n
    while a < b:
        m = (a + b) // 2
        if test(m):
            b = m
        else:
            a = m + 1
    return a


_CELL = "a cell end against the value"


def _cuts_around(cuts: Sequence[sp.Expr], v: sp.Expr) -> tuple[int, int]:
    """``(below, above)``: ``cuts[i] <= v`` exactly for ``i < below`` and ``v <=
    cuts[i]`` exactly for ``i >= above`` (``cuts`` increasing; two binary searches)."""

    def past(i: int) -> bool:
        return not _le(cuts[i], v, _CELL)

    def reached(i: int) -> bool:
        return _le(v, cuts[i], _CELL)

    return _first(len(cuts), past), _first(len(cuts), reached)


def _discretised_laplace(
    datasets: Sequence[str], p: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
    """``v + Lap(b)`` rounded to the grid and clamped.  A distribution: the cells
    ``(-inf, c_0), [c_0, c_1), ..., [c_{n-1}, inf)`` partition the line, each mass is
    ``F(end) - F(start)`` for the Laplace CDF ``F`` (non-negative, ``F`` increasing),
    and the sum telescopes to ``F(inf) - F(-inf) = 1``.  The branch of ``F`` at each
    cut is found by two binary searches per dataset (the cuts are increasing)."""
    lo, hi, step, b = p["lo"], p["hi"], p["step"], p["scale"]
    n = (hi - lo) / step
    if not n.is_Integer or n < 1:
        raise InvalidParameter(f"(hi - lo)/step must be a positive integer, got {n}")
    grid = [lo + i * step for i in range(int(n) + 1)]
    cuts = [g + step / 2 for g in grid[:-1]]  # cell i is [cuts[i-1], cuts[i])
    value = p["value"]
    _every_dataset(value, datasets, "value")
    rows: dict[str, dict[Output, sp.Expr]] = {}
    for d in datasets:
        v = value[d]
        # cuts[i] <= v exactly for i < below; v <= cuts[i] exactly for i >= above
        below, above = _cuts_around(cuts, v)
        row: dict[Output, sp.Expr] = {}
        for i, g in enumerate(grid):
            a = None if i == 0 else cuts[i - 1]
            c = None if i == len(grid) - 1 else cuts[i]
            branch = "left" if i < below else ("right" if i >= above + 1 else "middle")
            row[str(g)] = _laplace_mass(a, c, v, b, branch)
        rows[d] = row
    return [str(g) for g in grid], rows


def _exponential_mechanism(
    datasets: Sequence[str], p: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
    """The exponential mechanism (McSherry & Talwar 2007).  A distribution: the weights
    ``exp(...)`` are positive and divided by their sum."""
    scores: dict[str, dict[str, sp.Expr]] = p["scores"]
    _every_dataset(scores, datasets, "scores")
    cands = p["candidates"] or list(scores[datasets[0]])
    for d in datasets:
        if set(scores[d]) != set(cands):
            raise InvalidParameter(
                f"scores.{d}: must score exactly the candidates {', '.join(cands)}"
            )
    eps, sens = p["epsilon"], p["sensitivity"]
    rows: dict[str, dict[Output, sp.Expr]] = {}
    for d in datasets:
        w = {r: sp.exp(eps * scores[d][r] / (2 * sens)) for r in cands}
        total = sp.Add(*w.values())
        rows[d] = {r: w[r] / total for r in cands}
    return list(cands), rows


# ---------------------------------------------------------------------------
# sizes and exponents, before anything is built
# ---------------------------------------------------------------------------

#: Exact operations (the units of :mod:`verifier.algorithms.estimates`, 500,000 about
#: a second) per probability of each kind, measured on the builders and the
#: construction of the mechanism: one ``exp`` and a quotient for randomized response,
#: a power and a product for the geometric mechanism, two or three ``exp`` terms for
#: a Laplace cell, and for the exponential mechanism a quotient by the sum of all
#: ``k`` weights (whose size the construction reads: ``k`` more per probability).
WORK_PER_PROBABILITY = {
    "randomized_response": 2,
    "truncated_geometric": 400,
    "discretised_laplace": 600,
    "exponential_mechanism": 250,
}
#: Of the exponential mechanism, per probability and per candidate.
WORK_PER_CANDIDATE = 1


def _count(raw: Any) -> int:
    """The length of a raw list or table (0 for anything else: the parser says why)."""
    return len(raw) if isinstance(raw, (list, dict)) else 0


def _size_rr(n: int, raw: Mapping[str, Any], param: ParamGetter) -> tuple[int, int]:
    k = _count(raw["categories"]) if "categories" in raw else 2
    return k, n * k * WORK_PER_PROBABILITY["randomized_response"] + k


def _size_tg(n: int, raw: Mapping[str, Any], param: ParamGetter) -> tuple[int, int]:
    lo, hi = param("lo"), param("hi")
    k = max(0, hi - lo + 1)
    return k, n * k * WORK_PER_PROBABILITY["truncated_geometric"]


def _size_laplace(n: int, raw: Mapping[str, Any], param: ParamGetter) -> tuple[int, int]:
    lo, hi, step = param("lo"), param("hi"), param("step")
    cells = (hi - lo) / step
    if not cells.is_Integer or cells < 1:
        return 0, 0  # the builder says what is wrong
    k = int(cells) + 1 if cells < 1 << 64 else 1 << 64
    return k, n * k * WORK_PER_PROBABILITY["discretised_laplace"]


def _size_em(n: int, raw: Mapping[str, Any], param: ParamGetter) -> tuple[int, int]:
    if _count(raw.get("candidates")):
        k = _count(raw["candidates"])
    else:
        scores = raw.get("scores")
        rows = scores.values() if isinstance(scores, dict) else []
        k = max((_count(r) for r in rows), default=0)
    per = WORK_PER_PROBABILITY["exponential_mechanism"] + WORK_PER_CANDIDATE * k
    return k, n * k * per


_Exps = list[tuple[tuple[str, ...], sp.Expr]]


def _exp_rr(datasets: Sequence[str], p: dict[str, Any]) -> _Exps:
    return [(("epsilon",), p["epsilon"])]


def _exp_tg(datasets: Sequence[str], p: dict[str, Any]) -> _Exps:
    # x^k = exp(-k epsilon) for k up to hi - lo
    return [(("epsilon",), p["epsilon"] * max(1, p["hi"] - p["lo"]))]


def _exp_laplace(datasets: Sequence[str], p: dict[str, Any]) -> _Exps:
    # exp(+-(c - v)/b) for the cell ends c between lo and hi, at each value v
    lo, hi, b = p["lo"], p["hi"], p["scale"]
    return [(("value", d), (abs(lo - v) + abs(hi - v)) / b) for d, v in p["value"].items()]


def _exp_em(datasets: Sequence[str], p: dict[str, Any]) -> _Exps:
    scale = p["epsilon"] / (2 * p["sensitivity"])
    return [(("scores", d, r), scale * u) for d, row in p["scores"].items() for r, u in row.items()]


#: The built-in distribution kinds, by name.
DISTRIBUTIONS: dict[str, DistributionKind] = {
    k.name: k
    for k in (
        DistributionKind(
            "randomized_response",
            "k-ary randomized response: the true category w.p. e^eps/(e^eps + k - 1)",
            "Warner 1965; k-ary: Kairouz, Bonawitz, Ramage 2016 (k-RR)",
            (
                Param("epsilon", _positive, "the privacy parameter (> 0)"),
                Param("truth", _dataset_labels, "table dataset -> its true category"),
                Param(
                    "categories",
                    _labels,
                    'the categories, in output order (default ["0", "1"])',
                    ["0", "1"],
                ),
            ),
            _randomized_response,
            _size_rr,
            _exp_rr,
        ),
        DistributionKind(
            "truncated_geometric",
            "two-sided geometric noise on the answer, clamped to lo..hi",
            "Ghosh, Roughgarden, Sundararajan 2009",
            (
                Param("epsilon", _positive, "the privacy parameter (> 0): x = e^-epsilon"),
                Param("lo", parse_integer, "the lowest output (an integer)"),
                Param("hi", parse_integer, "the highest output (an integer > lo)"),
                Param(
                    "value",
                    _dataset_numbers,
                    "table dataset -> its query answer in lo..hi (default: the dataset's "
                    "name read as an integer)",
                    None,
                ),
            ),
            _truncated_geometric,
            _size_tg,
            _exp_tg,
        ),
        DistributionKind(
            "discretised_laplace",
            "Laplace noise on the answer, rounded to a grid and clamped to its ends",
            "Laplace mechanism: Dwork, McSherry, Nissim, Smith 2006",
            (
                Param("scale", _positive, "the Laplace scale b (> 0): (sensitivity/b)-DP"),
                Param("lo", exact_number, "the lowest grid point"),
                Param("hi", exact_number, "the highest grid point"),
                Param("value", _dataset_numbers, "table dataset -> its query answer (exact)"),
                Param("step", _positive, "the grid spacing (default 1)", sp.Integer(1)),
            ),
            _discretised_laplace,
            _size_laplace,
            _exp_laplace,
        ),
        DistributionKind(
            "exponential_mechanism",
            "candidate r w.p. proportional to exp(epsilon u(D, r) / (2 sensitivity))",
            "McSherry & Talwar 2007",
            (
                Param("epsilon", _positive, "the privacy parameter (> 0)"),
                Param("scores", _dataset_scores, "table dataset -> table candidate -> score"),
                Param(
                    "sensitivity",
                    _positive,
                    "the sensitivity of the score (default 1)",
                    sp.Integer(1),
                ),
                Param(
                    "candidates",
                    _optional_labels,
                    "the candidates in output order (default: as the first dataset lists them)",
                    None,
                ),
            ),
            _exponential_mechanism,
            _size_em,
            _exp_em,
        ),
    )
}


def distribution_kind(name: str) -> DistributionKind:
    """The kind registered as ``name``; :class:`~verifier.errors.InvalidParameter`
    listing the known kinds if there is none."""
    try:
        return DISTRIBUTIONS[name]
    except KeyError:
        raise InvalidParameter(
            f"unknown distribution kind {name!r} (known: {', '.join(DISTRIBUTIONS)})"
            f"{did_you_mean(name, DISTRIBUTIONS)}"
        ) from None


def build_distributions(
    kind: DistributionKind, graph: nx.Graph, params: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
    """The outputs and exact distributions of ``kind`` at every dataset of ``graph``."""
    return kind.build([str(d) for d in graph.nodes], params)

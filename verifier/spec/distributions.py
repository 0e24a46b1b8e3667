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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import sympy as sp

from ..algorithms.registry import Param, Values, exact_number
from ..arithmetic import Sign, Verdict, decide_le, decide_sign
from ..errors import InvalidMechanism, InvalidParameter, VerifierError
from ..mechanism import Output

__all__ = ["DistributionKind", "DISTRIBUTIONS", "distribution_kind"]

#: ``build(datasets, params) -> (outputs in order, {dataset: {output: probability}})``
BuildDistributions = Callable[
    [Sequence[str], dict[str, Any]], tuple[list[Output], dict[str, dict[Output, sp.Expr]]]
]


@dataclass(frozen=True)
class DistributionKind:
    """A built-in distribution kind: name, parameters and the exact distributions."""

    name: str
    summary: str
    source: str
    params: tuple[Param, ...]
    build: BuildDistributions
    schema: dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", {p.name: p for p in self.params})

    def parse_params(self, raw: Mapping[str, Any], values: Values, where: str) -> dict[str, Any]:
        """Validate ``raw`` against the schema (errors name ``{where}.{param}``)."""
        unknown = [k for k in raw if k not in self.schema]
        if unknown:
            raise InvalidParameter(
                f"{where}.{unknown[0]}: unknown parameter of distribution {self.name!r} "
                f"(its parameters: {', '.join(self.schema)})"
            )
        out: dict[str, Any] = {}
        for p in self.params:
            if p.name not in raw:
                if p.required:
                    raise InvalidParameter(
                        f"{where}: distribution {self.name!r} needs the parameter {p.name!r} "
                        f"({p.doc})"
                    )
                out[p.name] = p.default
                continue
            try:
                out[p.name] = p.parse(raw[p.name], values)
            except VerifierError as err:
                raise type(err)(f"{where}.{p.name}: {err}") from None
        return out


# ---------------------------------------------------------------------------
# parameter parsers
# ---------------------------------------------------------------------------


def _positive(raw: Any, values: Values) -> sp.Expr:
    v = exact_number(raw, values)
    s = decide_sign(v).sign
    if s is not Sign.POSITIVE:
        raise InvalidParameter(f"must be > 0, got {v}")
    return v


def _integer(raw: Any, values: Values) -> int:
    v = exact_number(raw, values)
    if not v.is_Integer:
        raise InvalidParameter(f"must be an integer, got {v}")
    return int(v)


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
    v = decide_le(a, b).verdict
    if v is Verdict.UNDECIDED:
        raise InvalidParameter(f"could not decide {what}")
    return v is Verdict.HOLDS


# ---------------------------------------------------------------------------
# the kinds
# ---------------------------------------------------------------------------


def _randomized_response(
    datasets: Sequence[str], p: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
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
    lo, hi = p["lo"], p["hi"]
    if lo >= hi:
        raise InvalidParameter(f"lo must be < hi, got lo = {lo}, hi = {hi}")
    if hi - lo > 10_000:
        raise InvalidParameter(f"the range lo..hi has {hi - lo + 1} outputs, over 10001")
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
    rows: dict[str, dict[Output, sp.Expr]] = {}
    for d in datasets:
        v = value[d]
        if not v.is_Integer or not lo <= int(v) <= hi:
            raise InvalidParameter(f"value.{d}: must be an integer in [{lo}, {hi}], got {v}")
        row: dict[Output, sp.Expr] = {}
        for o in range(lo, hi + 1):
            w = x ** abs(o - int(v))
            row[o] = w / (1 + x) if o in (lo, hi) else (1 - x) / (1 + x) * w
        rows[d] = row
    return list(range(lo, hi + 1)), rows


def _laplace_mass(lo: Any, hi: Any, v: sp.Expr, b: sp.Expr) -> sp.Expr:
    """The mass of ``Lap(v, b)`` on ``[lo, hi)`` (``None`` ends are infinite), from
    the two branches of its CDF — each term its own closed form."""
    if hi is not None and _le(hi, v, "a cell end against the value"):
        low = sp.Integer(0) if lo is None else sp.exp((lo - v) / b) / 2
        return sp.exp((hi - v) / b) / 2 - low
    if lo is not None and _le(v, lo, "a cell end against the value"):
        high = sp.Integer(0) if hi is None else sp.exp(-(hi - v) / b) / 2
        return sp.exp(-(lo - v) / b) / 2 - high
    left = sp.Integer(0) if lo is None else sp.exp((lo - v) / b) / 2
    right = sp.Integer(0) if hi is None else sp.exp(-(hi - v) / b) / 2
    return 1 - left - right


def _discretised_laplace(
    datasets: Sequence[str], p: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
    lo, hi, step, b = p["lo"], p["hi"], p["step"], p["scale"]
    n = (hi - lo) / step
    if not n.is_Integer or n < 1:
        raise InvalidParameter(f"(hi - lo)/step must be a positive integer, got {n}")
    if n > 10_000:
        raise InvalidParameter(f"the grid has {n + 1} points, over 10001")
    grid = [lo + i * step for i in range(int(n) + 1)]
    value = p["value"]
    _every_dataset(value, datasets, "value")
    rows: dict[str, dict[Output, sp.Expr]] = {}
    for d in datasets:
        v = value[d]
        row: dict[Output, sp.Expr] = {}
        for i, g in enumerate(grid):
            a = None if i == 0 else g - step / 2
            c = None if i == len(grid) - 1 else g + step / 2
            row[str(g)] = _laplace_mass(a, c, v, b)
        rows[d] = row
    return [str(g) for g in grid], rows


def _exponential_mechanism(
    datasets: Sequence[str], p: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
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
        ),
        DistributionKind(
            "truncated_geometric",
            "two-sided geometric noise on the answer, clamped to lo..hi",
            "Ghosh, Roughgarden, Sundararajan 2009",
            (
                Param("epsilon", _positive, "the privacy parameter (> 0): x = e^-epsilon"),
                Param("lo", _integer, "the lowest output (an integer)"),
                Param("hi", _integer, "the highest output (an integer > lo)"),
                Param(
                    "value",
                    _dataset_numbers,
                    "table dataset -> its query answer in lo..hi (default: the dataset's "
                    "name read as an integer)",
                    None,
                ),
            ),
            _truncated_geometric,
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
        ),
    )
}


def distribution_kind(name: str) -> DistributionKind:
    """The kind registered as ``name``; :class:`~verifier.errors.InvalidParameter`
    listing the known kinds if there is none."""
    try:
        return DISTRIBUTIONS[name]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(name, DISTRIBUTIONS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise InvalidParameter(
            f"unknown distribution kind {name!r} (known: {', '.join(DISTRIBUTIONS)}){hint}"
        ) from None


def build_distributions(
    kind: DistributionKind, graph: nx.Graph, params: dict[str, Any]
) -> tuple[list[Output], dict[str, dict[Output, sp.Expr]]]:
    """The outputs and exact distributions of ``kind`` at every dataset of ``graph``."""
    return kind.build([str(d) for d in graph.nodes], params)

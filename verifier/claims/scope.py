"""What a verdict covers: the scope of a decided claim.

A verdict is only as strong as the set of instances it was decided on.  ``holds`` for
a theorem proved over a box of its parameters and ``holds`` at three hand-picked
points are different statements, so every decided claim carries a :class:`Scope`:

``box``
    every point of a box of two or more parameters was decided (certified branch and
    bound, :mod:`verifier.checks.boxes`); the scope names the box and the share of its
    volume left undecided;
``range``
    every value of one parameter in an interval was decided (exact real-root
    isolation or certified bisection, :mod:`verifier.checks.ranges`), or an identity was
    proved symbolically for every value of its parameters;
``exhaustive``
    every element of a finite domain was decided — the claim names the domain (every
    event of a finite space, every adversary tree of a given depth over given
    outputs, every instance of a finite grid the statement ranges over);
``search``
    a worst-case search over the statement's instance space (random, extreme and
    boundary instances, local moves; :mod:`verifier.search`) found no counterexample
    in the instances it screened — evidence, not a proof: the scope names the number
    of instances, the seed and the space;
``instances``
    the claim was decided on its registered instances only (the scope counts them
    and says why nothing broader was decided).

A refutation needs one instance: a ``violated`` verdict is complete whatever its
scope, and its certificate re-verifies it.  A ``holds`` verdict is a proof exactly
over its scope.  :func:`scope_of` derives the scope from the decided result (the
domains its findings were decided over), the claim (its box, its declared finite
domain) and the search that ran; ``ClaimOutcome.scope`` is that value.

>>> Scope("instances", "3 registered instances", instances=3).label()
'3 instances'
>>> Scope("search", "searched", searched=20000, seed=0).label()
'searched 20,000, no proof'
>>> Scope("box", "eps_1 in [1/100, 3] x eps' in [1/100, 1]", undecided_fraction=0.0).label()
'box'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

if TYPE_CHECKING:  # pragma: no cover
    from ..checks.results import CheckResult

__all__ = [
    "SCOPE_KINDS",
    "Scope",
    "ScopeKind",
    "SearchRecord",
    "count_instances",
    "result_scope",
    "scope_of",
]

ScopeKind = Literal["box", "range", "exhaustive", "search", "instances"]

#: Every scope kind, strongest first.
SCOPE_KINDS: tuple[str, ...] = get_args(ScopeKind)


@dataclass(frozen=True)
class SearchRecord:
    """What a worst-case search of a claim did (the data ``verifier casestudies``
    keeps of it; :mod:`verifier.search` runs it).

    Parameters
    ----------
    instances : int
        Instances screened.
    seed : int
        The master seed (same seed and budget, same answer).
    space : str
        What the instance space covers.
    violated : bool
        A counterexample was found and confirmed exactly.
    best_ratio : float or None
        The largest realized/claimed seen (display value; ``None`` when unknown).
    counterexample : str
        The counterexample in one line (when violated).
    certificate : str
        The certificate spec text (when violated): ``verifier check`` re-verifies it.
    status : str
        How the search ended (``"exhausted"``: the budget was used; ``"found"``;
        ``"time_limit"``).
    seconds : float
        Wall-clock time of the search.
    """

    instances: int
    seed: int
    space: str
    violated: bool
    best_ratio: float | None = None
    counterexample: str = ""
    certificate: str = ""
    status: str = "exhausted"
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "instances": self.instances,
            "seed": self.seed,
            "space": self.space,
            "violated": self.violated,
            "best_ratio": self.best_ratio,
            "status": self.status,
        }
        if self.counterexample:
            d["counterexample"] = self.counterexample
        return d


@dataclass(frozen=True)
class Scope:
    """What a decided claim covers (module docstring).

    Parameters
    ----------
    kind : {"box", "range", "exhaustive", "search", "instances"}
    covered : str
        What was covered, in one line (the box, the ranges, the finite domain, the
        search space, the instances).
    instances : int or None
        Registered instances decided (``None`` when the count has no meaning).
    vacuous_instances : int
        Of those, instances where a premise failed (the claim was not tested there).
    box : dict or None
        For ``box``: parameter -> ``[lo, hi]`` (exact text).
    undecided_fraction : float or None
        For ``box``: the share of the box's volume left undecided.
    searched : int or None
        Instances screened by the worst-case search, when one ran.
    seed : int or None
        The search's seed.
    why : str
        For ``instances``: why nothing broader was decided.
    """

    kind: ScopeKind
    covered: str
    instances: int | None = None
    vacuous_instances: int = 0
    box: dict[str, list[str]] | None = None
    undecided_fraction: float | None = None
    searched: int | None = None
    seed: int | None = None
    why: str = ""

    def __post_init__(self) -> None:
        if self.kind not in SCOPE_KINDS:
            raise ValueError(
                f"scope kind must be one of {', '.join(SCOPE_KINDS)}, got {self.kind!r}"
            )

    def label(self) -> str:
        """A short label for tables: ``box``, ``range``, ``exhaustive``,
        ``searched 20,000, no proof``, ``3 instances``."""
        if self.kind == "box":
            u = self.undecided_fraction
            return "box" if not u else f"box, {u:.3g} undecided"
        if self.kind == "search":
            return f"searched {self.searched or 0:,}, no proof"
        if self.kind == "instances":
            n = self.instances or 0
            s = f"{n} instance{'' if n == 1 else 's'}"
            if self.vacuous_instances:
                s += f" ({self.vacuous_instances} vacuous)"
            return s
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "covered": self.covered}
        for k in ("instances", "box", "undecided_fraction", "searched", "seed"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        if self.vacuous_instances:
            d["vacuous_instances"] = self.vacuous_instances
        if self.why:
            d["why"] = self.why
        return d


def count_instances(result: CheckResult) -> tuple[int, int]:
    """``(instances, vacuous)``: the top-level parts of a conjunction are its
    instances (a claim decided on several instances is their conjunction), any other
    result is one instance; ``vacuous`` counts those whose premise failed."""
    if result.parts and not result.findings and not result.premises:
        parts = result.parts
    else:
        parts = [result]
    return len(parts), sum(1 for p in parts if p.vacuous)


def _leaves(result: CheckResult) -> list[CheckResult]:
    """The results of ``result`` that hold findings or identities (conclusions only:
    premises are assumptions, not what the claim decides)."""
    out: list[CheckResult] = []
    if result.findings or result.identity_in:
        out.append(result)
    for p in result.parts:
        out.extend(_leaves(p))
    return out


def _domain_kind(result: CheckResult) -> tuple[str | None, list[str]]:
    """``("box" | "range", descriptions)`` when every finding of ``result`` was decided
    over a parameter domain (identities proved for every value count as ranges), else
    ``(None, [])``."""
    from ..checks.boxes import Box

    leaves = _leaves(result)
    if not leaves:
        return None, []
    kinds: set[str] = set()
    texts: list[str] = []
    seen: set[int] = set()  # the findings of one check share their domain object
    for leaf in leaves:
        if not leaf.findings:  # an identity proved for every value of its symbols
            if not leaf.identity_in:
                return None, []
            kinds.add("range")
            t = "identity in " + ", ".join(leaf.identity_in) + ", proved for every value"
            if t not in texts:
                texts.append(t)
            continue
        for f in leaf.findings:
            dom = f.domain
            if dom is None:
                return None, []
            if id(dom) in seen:
                continue
            seen.add(id(dom))
            kinds.add("box" if isinstance(dom, Box) else "range")
            t = str(dom)
            if t not in texts:
                texts.append(t)
    return ("box" if "box" in kinds else "range"), texts


def scope_of(
    claim: Any,
    result: CheckResult | None,
    search: SearchRecord | None = None,
    undecided_fraction: float | None = None,
) -> Scope:
    """The scope of ``claim`` decided as ``result`` (and by ``search`` when it ran).

    The strongest kind that the decision supports: the claim's box (``domain``), else a
    domain every finding was decided over (ranges, inline boxes, identities), else the
    finite domain the claim declares it enumerates (``exhaustive``), else the search
    when one ran without finding a counterexample, else the registered instances.
    """
    n, vac = (0, 0) if result is None else count_instances(result)
    searched = None if search is None else search.instances
    seed = None if search is None else search.seed

    def make(kind: ScopeKind, covered: str, **kw: Any) -> Scope:
        kw.setdefault("instances", n)
        return Scope(kind, covered, vacuous_instances=vac, searched=searched, seed=seed, **kw)

    if claim.domain is not None:
        return make(
            "box",
            str(claim.domain),
            instances=n or None,
            box=claim.domain.as_dict(),
            undecided_fraction=undecided_fraction,
        )
    if result is not None:
        kind, texts = _domain_kind(result)
        if kind is not None:
            more = f"; and {len(texts) - 6} more" if len(texts) > 6 else ""
            return make("box" if kind == "box" else "range", "; ".join(texts[:6]) + more)
    exhaustive = getattr(claim, "exhaustive", "")
    if exhaustive and result is not None:
        return make("exhaustive", exhaustive)
    if search is not None and not search.violated:
        return make("search", search.space or "the claim's instance space", instances=n or None)
    return make(
        "instances",
        getattr(claim, "instances", "") or "the registered instances",
        why=getattr(claim, "scope_note", ""),
    )


def result_scope(result: CheckResult, what: str = "the mechanism as given") -> Scope:
    """The scope of one decided spec-file claim: the box or range it was decided over
    (with the box's undecided share), else the one instance it is about (``what``)."""
    from ..checks.boxes import region_fractions

    kind, texts = _domain_kind(result)
    if kind == "box":
        regions = [f.region for f in result.all_findings() if f.region is not None]
        boxes = {r.box for r in regions}
        und = None
        box = None
        if len(boxes) == 1:
            b = boxes.pop()
            und = float(region_fractions(regions, b)[0])
            box = b.as_dict()
        return Scope("box", "; ".join(texts), instances=1, box=box, undecided_fraction=und)
    if kind == "range":
        return Scope("range", "; ".join(texts), instances=1)
    return Scope("instances", what, instances=1)

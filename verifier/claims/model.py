"""The claim model: one statement, one id, several ways to decide it.

A :class:`Claim` is a statement from a paper (or from a user's spec file) — "Algorithm 3
is ex-post (2ε_i + ε')-DP" — with the outcome known from the paper or from an
independent derivation (``expected``: ``"holds"`` or ``"refuted"``) and a *kind*:

``theorem``
    a numbered statement of a paper (or a lemma, corollary, proposition);
``proof-step``
    a displayed step of a proof, checked where the proof applies it;
``finding``
    a discrepancy with the paper (a typo, a wrong constant, an ambiguous reading),
    settled here;
``negative-control``
    a deliberately false variant (a bound without its factor 2, a theorem without its
    premise, an algorithm published as private and known not to be) that must be
    refuted — it is not a claim of the paper.

A claim is decided in up to three ways, all under its one id:

* on its registered **instances** (``check``: a zero-argument function returning a
  :class:`~verifier.checks.results.CheckResult`; what ``verifier casestudies`` runs), which
  may include decisions over a parameter range (``over=`` of the checkers);
* over a **box** of parameters (``domain``: parameter -> ``(lo, hi)``; the ``check``
  function builds the instance symbolically in the parameters and decides it for every
  point of the box, :mod:`verifier.checks.boxes`): the decider ``"box"``, whose outcome
  reports the share of the box left undecided;
* by a worst-case **search** over an instance space (``search``: a
  :class:`SearchSpec`; what ``verifier search`` runs);
* both share the statement, so a refutation by either is a refutation of the claim.

Ids follow one scheme everywhere: ``paper.label[.variant]`` (``ghazi2025.thm11``,
``ghazi2025.thm11.no_factor2``, ``liu_talwar2019.thm32.two_eps``).

>>> from verifier.checks.results import CheckResult
>>> from verifier.arithmetic.exact import decide_le
>>> import sympy as sp
>>> c = Claim(id="demo.half", source="none", statement="1/3 <= 1/2", expected="holds",
...           check=lambda: CheckResult("1/3 <= 1/2",
...                                     decide_le(sp.Rational(1, 3), sp.Rational(1, 2)).verdict))
>>> c.run().matches, c.kind, c.paper
(True, 'theorem', 'demo')
"""

from __future__ import annotations

import re
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, cast, get_args

import sympy as sp

from ..arithmetic.exact import Verdict, format_number
from ..checks.boxes import Box, region_fractions
from ..checks.results import CheckResult, label, measured_record
from ..errors import InvalidParameter, VerifierError
from .scope import Scope, SearchRecord, scope_of

__all__ = [
    "Claim",
    "Tightness",
    "observed_tightness",
    "ClaimKind",
    "ClaimOutcome",
    "Expected",
    "KINDS",
    "SearchSpec",
    "check_claim_id",
]

Expected = Literal["holds", "refuted"]
ClaimKind = Literal["theorem", "proof-step", "finding", "negative-control"]

#: Every claim kind, in the order tables list them.
KINDS: tuple[str, ...] = get_args(ClaimKind)

_ID = re.compile(r"[a-z][a-z0-9_]*(\.[A-Za-z0-9_][A-Za-z0-9_-]*)+")


def check_claim_id(claim_id: str) -> str:
    """Validate an id of the form ``paper.label[.variant]`` and return it.

    >>> check_claim_id("ghazi2025.thm11.no_factor2")
    'ghazi2025.thm11.no_factor2'
    >>> check_claim_id("Thm 11")
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: claim id 'Thm 11' is not of the form paper.label[.variant] (lower-case paper, dot-separated labels of letters, digits, '_' and '-')
    """
    if not isinstance(claim_id, str) or not _ID.fullmatch(claim_id):
        raise InvalidParameter(
            f"claim id {claim_id!r} is not of the form paper.label[.variant] (lower-case "
            f"paper, dot-separated labels of letters, digits, '_' and '-')"
        )
    return claim_id


TightnessStatus = Literal["attained", "approached", "loose"]


@dataclass(frozen=True)
class Tightness:
    """How close a theorem's bound comes to being attained.

    Parameters
    ----------
    status : {"attained", "approached", "loose"}
        ``attained``: realized/claimed is exactly 1 somewhere, proved exactly (zero
        slack); ``approached``: a family of instances whose ratio tends to 1, with the
        family and its limit proved (``family``, ``limit``); ``loose``: the best ratio
        found is below 1 (``searched`` says where it was looked for).
    ratio : float or None
        The largest realized/claimed found (display value; the verdicts are exact).
    instance : str
        The instance attaining it, in one line.
    family, limit : str
        For ``approached``: the family and the proof of its limit.
    searched : str
        For ``loose``: what was searched.
    """

    status: TightnessStatus
    ratio: float | None
    instance: str
    family: str = ""
    limit: str = ""
    searched: str = ""

    def __post_init__(self) -> None:
        if self.status not in get_args(TightnessStatus):
            raise InvalidParameter(
                f"tightness status must be attained, approached or loose, got {self.status!r}"
            )
        if self.status == "approached" and not (self.family and self.limit):
            raise InvalidParameter("an approached bound names its family and its proved limit")
        if self.status == "loose" and not self.searched:
            raise InvalidParameter("a loose bound says what was searched")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"status": self.status, "ratio": self.ratio, "instance": self.instance}
        for k in ("family", "limit", "searched"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        return d


def _with_premises(r: CheckResult) -> list[Any]:
    """Every finding of ``r``, its parts and the premises it assumed."""
    out = list(r.findings)
    for q in [*r.parts, *r.premises]:
        out.extend(_with_premises(q))
    return out


def _ratio(f: Any) -> float | None:
    """realized/claimed of one finding (claimed/realized for a lower bound), as a
    display float, or ``None`` when it has no meaning (symbolic, infinite, a zero or
    negative bound)."""
    import math

    from ..arithmetic.exact import approx

    num, den = (f.claimed, f.realized) if f.lower_bound else (f.realized, f.claimed)
    for v in (num, den):
        if not isinstance(v, sp.Expr) or v.free_symbols or v in (sp.oo, -sp.oo, sp.zoo, sp.nan):
            return None
    try:
        a, b = approx(num), approx(den)
    except VerifierError:
        return None
    if not (b > 0 and math.isfinite(a) and math.isfinite(b)):
        return None
    return a / b


def observed_tightness(result: CheckResult | None, searched: str) -> Tightness | None:
    """The tightness a decided result shows: ``attained`` when some finding attains its
    bound exactly (zero slack, proved), else ``loose`` with the largest
    realized/claimed over the findings (``None`` when no finding has a ratio)."""
    if result is None:
        return None
    fs = result.all_findings()
    tight = [
        f
        for f in fs
        if f.verdict is Verdict.HOLDS and (f.tight or (f.region is not None and f.region.tight))
    ]
    if tight:
        f = tight[0]
        where = f"output {f.output}" if f.output is not None else "a finding"
        if f.pair is not None:
            where += f", pair {f.pair[0]} -> {f.pair[1]}"
        return Tightness("attained", 1.0, f"{where} in '{result.title}' (zero slack, exact)")
    best: tuple[float, Any, str] | None = None
    for f in fs:
        r = _ratio(f)
        at = ""
        if r is None and f.region is not None:  # over a box: the ratio at its vertices
            r, at = _vertex_ratio(f)
        if r is not None and (best is None or r > best[0]):
            best = (r, f, at)
    if best is None:
        return Tightness(
            "loose",
            None,
            "no finding compares a realized value with a numeric bound",
            searched=f"{searched}: identities and ranges only",
        )
    r, f, at = best
    where = f"output {f.output}" if f.output is not None else "a finding"
    if f.pair is not None:
        where += f", pair {f.pair[0]} -> {f.pair[1]}"
    if at:
        return Tightness(
            "loose",
            r,
            f"{where} at the vertex {at}"[:200],
            searched=f"{searched}: every point decided; the ratio evaluated at the box's vertices",
        )
    return Tightness(
        "loose", r, f"{where} (realized {f.realized} vs {f.claimed})"[:200], searched=searched
    )


def _vertex_ratio(f: Any) -> tuple[float | None, str]:
    """The largest realized/claimed of a finding decided over a box, at the box's
    vertices (display values)."""
    import itertools

    box = f.region.box
    best: tuple[float | None, str] = (None, "")
    for corner in itertools.product(*zip(box.lows, box.highs, strict=True)):
        pt = {
            str(s): sp.Rational(v.numerator, v.denominator)
            for s, v in zip(box.symbols, corner, strict=True)
        }

        def at(e: Any, pt: dict[str, sp.Rational] = pt) -> Any:
            if not isinstance(e, sp.Expr):
                return e
            return e.xreplace({s: pt[str(s)] for s in e.free_symbols if str(s) in pt})

        g = type(f)(
            f.verdict,
            f.output,
            f.pair,
            at(f.realized),
            at(f.claimed),
            f.lhs,
            f.rhs,
            lower_bound=f.lower_bound,
        )
        r = _ratio(g)
        if r is not None and (best[0] is None or r > best[0]):
            best = (r, ", ".join(f"{k} = {v}" for k, v in pt.items()))
    return best


@dataclass(frozen=True)
class SearchSpec:
    """How to decide a claim by worst-case search (see :mod:`verifier.search`).

    Parameters
    ----------
    space : verifier.search.InstanceSpace
        Where to look: random and extreme instances, local moves, shrinking.
    screen : callable
        ``instance -> float``: realized/claimed in floats (screening only; above 1 flags
        a candidate, which is then decided exactly).
    document : callable
        ``instance -> dict``: the spec document with the premise claims and the target
        claim (whose id is the claim's id); the exact decision and the certificate.
    default_instances : int
        The instance budget when none is given.
    exact_best : bool
        Re-evaluate the best instance exactly when nothing was found.
    notes : str
        What the space covers (shown by ``verifier search --list``).
    casestudies_instances : int, optional
        The budget of the search ``verifier casestudies`` runs with the claim's other
        deciders (default: ``default_instances``; 0: none).
    """

    space: Any
    screen: Callable[[Any], float]
    document: Callable[[Any], dict[str, Any]]
    default_instances: int = 2000
    exact_best: bool = True
    notes: str = ""
    casestudies_instances: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.default_instances, bool) or not isinstance(self.default_instances, int):
            raise InvalidParameter("default_instances must be a positive integer")
        if self.default_instances < 1:
            raise InvalidParameter("default_instances must be a positive integer")
        n = self.casestudies_instances
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            raise InvalidParameter("casestudies_instances must be a nonnegative integer")


@dataclass
class Claim:
    """A statement with its expected outcome, kind and deciders (module docstring).

    Parameters
    ----------
    id : str
        ``paper.label[.variant]``.
    source : str
        Paper and statement number (``"Ghazi et al. 2025, Theorem 11"``).
    statement : str
        What is claimed, in one sentence.
    expected : {"holds", "refuted"}
        From the paper or an independent derivation, never from what the code printed.
    kind : {"theorem", "proof-step", "finding", "negative-control"}
        Default ``"theorem"``.  A refuted claim must say whether it is a finding or a
        negative control.
    check : callable, optional
        Decides the claim on its registered instances.
    search : SearchSpec, optional
        Decides the claim by worst-case search.
    instances : str
        What the registered instances are (one line).
    notes : str
        Derivations, findings, caveats.
    casestudy : str
        The case-study package that registered it (default: the id's paper).
    reference : optional
        How a worker process finds the claim again: its id when registered (set by the
        registry), a spec-file reference, or ``None`` (the object itself is sent).
    domain : mapping, optional
        The box of parameters the claim is decided over (parameter name -> ``(lo,
        hi)``, rational ends, at least two parameters); ``check`` then decides it for
        every point of the box and the decider is ``"box"``.
    tightness : Tightness or callable, optional
        How tight the bound is, when established beyond the registered instances (an
        extremal family with its proved limit, a search); a zero-argument callable is
        evaluated when asked.  Without it, a theorem's outcome reports the tightness
        its own findings show (:func:`observed_tightness`).
    exhaustive : str
        When ``check`` enumerates a finite domain completely (every event of a finite
        space, every tree of a given depth, every point of the finite grid the
        statement ranges over): that domain, in one line.  The outcome's scope is then
        ``exhaustive`` (:mod:`verifier.claims.scope`).
    scope_note : str
        For a claim decided on its registered instances only: why nothing broader (a
        box, a range, an exhaustive domain, a search) decides it.

    Raises
    ------
    verifier.errors.InvalidParameter
        An empty id, an ``expected`` other than ``"holds"``/``"refuted"``, an unknown
        ``kind``, ...

    Examples
    --------
    A claim of one's own, decided on its instance (randomized response with ε = log 3
    is log 3-DP, the bound attained):

    >>> from verifier import check_pure_dp, randomized_response
    >>> claim = Claim(
    ...     id="example.rr",
    ...     source="randomized response",
    ...     statement="randomized response with eps = log 3 is log 3-DP",
    ...     expected="holds",
    ...     check=lambda: check_pure_dp(randomized_response("log(3)"), epsilon="log(3)"),
    ... )
    >>> outcome = claim.run()
    >>> outcome.verdict, outcome.matches, outcome.result.tight
    (<Verdict.HOLDS: 'holds'>, True, True)
    >>> Claim(id="example.bad", source="", statement="", expected="true")
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: claim 'example.bad': expected must be 'holds' or 'refuted', got 'true'
    """

    id: str
    source: str
    statement: str
    expected: Expected
    check: Callable[[], CheckResult] | None = None
    kind: ClaimKind = "theorem"
    search: SearchSpec | None = None
    instances: str = ""
    notes: str = ""
    casestudy: str = ""
    reference: Any = field(default=None, compare=False)
    domain: Any = None
    tightness: Tightness | Callable[[], Tightness] | None = field(default=None, compare=False)
    exhaustive: str = ""
    scope_note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id or not self.id.isprintable():
            raise InvalidParameter(
                f"a claim id must be a non-empty printable string, got {self.id!r}"
            )
        if self.expected not in get_args(Expected):
            raise InvalidParameter(
                f"claim {self.id!r}: expected must be 'holds' or 'refuted', got {self.expected!r}"
            )
        if self.kind not in KINDS:
            raise InvalidParameter(
                f"claim {self.id!r}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}"
            )
        if self.kind == "negative-control" and self.expected != "refuted":
            raise InvalidParameter(f"claim {self.id!r}: a negative control is expected refuted")
        if self.check is None and self.search is None:
            raise InvalidParameter(f"claim {self.id!r} has no way to be decided (check or search)")
        if not self.casestudy:
            self.casestudy = self.paper
        if self.domain is not None:
            self.domain = Box.of(self.domain)
            if self.domain.dimension < 2:
                raise InvalidParameter(
                    f"claim {self.id!r}: a domain is a box of at least two parameters "
                    f"(one parameter: decide it with over=(symbol, lo, hi))"
                )
            if self.check is None:
                raise InvalidParameter(f"claim {self.id!r}: a domain needs a check function")

    @property
    def paper(self) -> str:
        """The paper part of the id (``ghazi2025``)."""
        return self.id.split(".", 1)[0]

    @property
    def deciders(self) -> tuple[str, ...]:
        """The ways this claim can be decided: ``"instances"``, ``"search"``."""
        out = []
        if self.check is not None:
            out.append("box" if self.domain is not None else "instances")
        if self.search is not None:
            out.append("search")
        return tuple(out)

    # -- the search engine's view ------------------------------------------------
    def describe(self, inst: Any) -> str:
        """A short description of a search instance."""
        if self.search is None:
            return repr(inst)
        return str(self.search.space.describe(inst))

    # -- deciding on the registered instances --------------------------------------
    def run(self) -> ClaimOutcome:
        """Decide the claim on its registered instances."""
        if self.check is None:
            raise InvalidParameter(
                f"claim {self.id!r} has no registered instances; decide it with "
                f"`verifier search {self.id}`"
            )
        t0 = time.perf_counter()
        try:
            result = self.check()
            if not isinstance(result, CheckResult):
                raise TypeError(
                    f"claim {self.id} returned {type(result).__name__}, not CheckResult"
                )
            return ClaimOutcome(self, result, time.perf_counter() - t0)
        except Exception as err:  # a crashing claim is reported, never hidden
            detail = str(err) if isinstance(err, VerifierError) else traceback.format_exc()
            return ClaimOutcome(self, None, time.perf_counter() - t0, error=detail)

    def summary(self) -> dict[str, Any]:
        """The claim's description as JSON-ready data (no decision)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "casestudy": self.casestudy,
            "source": self.source,
            "statement": self.statement,
            "expected": self.expected,
            "deciders": list(self.deciders),
            "instances": self.instances,
            "domain": None if self.domain is None else self.domain.as_dict(),
            "search": None
            if self.search is None
            else {"default_instances": self.search.default_instances, "space": self.search.notes},
            "exhaustive": self.exhaustive or None,
            "scope_note": self.scope_note or None,
            "notes": self.notes,
        }


@dataclass
class ClaimOutcome:
    """What deciding a claim gave (on its instances, over its box, and by its
    worst-case search when one ran), compared with what was expected."""

    claim: Claim
    result: CheckResult | None
    seconds: float
    error: str | None = None
    #: the worst-case search run with the decision (``verifier casestudies`` runs the
    #: search of a claim that has one, with its default budget)
    search: SearchRecord | None = None
    #: the outcome's table cells and JSON record, rendered where the claim was decided
    #: (:meth:`presentation`): a worker process sends them with the result, so the main
    #: process does not render many claims' exact values one after the other
    shown: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def verdict(self) -> Verdict | None:
        """The verdict of every decider that ran: violated when the instances or the
        search refute the claim, holds when the instances hold (or, for a claim
        decided by search only, when the search found nothing), else undecided."""
        if self.search is not None and self.search.violated:
            return Verdict.VIOLATED
        if self.result is None:
            if self.search is not None and self.claim.check is None and self.error is None:
                return Verdict.HOLDS
            return None
        return self.result.verdict

    @property
    def vacuous(self) -> bool:
        """The claim holds only because its premises failed on every instance it was
        decided on: nothing was checked (never reported as ``holds``)."""
        return (
            self.result is not None
            and self.result.vacuous
            and self.verdict is Verdict.HOLDS
            and self.search is None
        )

    @property
    def verdict_label(self) -> str:
        """``holds``, ``violated``, ``undecided``, ``vacuous`` or ``error``."""
        if self.error:
            return "error"
        if self.vacuous:
            return "vacuous"
        return "-" if self.verdict is None else self.verdict.value

    @property
    def matches(self) -> bool:
        if self.verdict is None or self.vacuous:
            return False
        if self.claim.expected == "holds":
            return self.verdict is Verdict.HOLDS
        return self.verdict is Verdict.VIOLATED

    @property
    def scope(self) -> Scope:
        """What the verdict covers (:mod:`verifier.claims.scope`)."""
        if "scope" in self.shown:
            return cast(Scope, self.shown["scope"])
        fr = self.box_fractions()
        return scope_of(self.claim, self.result, self.search, None if fr is None else float(fr[0]))

    def worst_slack(self) -> str:
        """The worst finding's slack as a table cell: ``0 (attained)``, a number, ``inf``,
        ``(symbolic)`` or ``-`` without findings."""
        if "worst_slack" in self.shown:
            return str(self.shown["worst_slack"])
        if self.result is None:
            return "-"
        w = self.result.worst()
        if w is None:
            return "-"
        s = w.slack
        if s is sp.oo:
            return "inf"
        if s is -sp.oo:
            return "-inf"
        if w.tight:
            return "0 (attained)"
        if s.free_symbols:
            return "(symbolic)"
        return format_number(s, digits=4, max_len=18)

    def where(self) -> str:
        """Where the worst slack is: its output and ordered pair of neighbouring datasets
        (``-`` for an aggregate quantity or a claim without findings)."""
        if "where" in self.shown:
            return str(self.shown["where"])
        if self.result is None:
            return "-"
        w = self.result.worst()
        if w is None or (w.output is None and w.pair is None):
            return "-"
        parts = []
        if w.output is not None:
            parts.append(f"o={label(w.output)}")
        if w.pair is not None:
            parts.append(f"{label(w.pair[0])} -> {label(w.pair[1])}")
        return ", ".join(parts)

    def presentation(self, *, record: bool = False) -> dict[str, Any]:
        """The table cells of this outcome (:meth:`worst_slack`, :meth:`where`), its
        :attr:`scope` and, with ``record``, its JSON record (:meth:`to_dict`), as
        :attr:`shown` keeps them: a worker process renders them beside the decision, in
        parallel with the others, and the main process only prints them."""
        shown: dict[str, Any] = {
            "worst_slack": self.worst_slack(),
            "where": self.where(),
            "scope": self.scope,
        }
        if record:
            shown["record"] = self.to_dict()
        return shown

    def box_fractions(self) -> tuple[Fraction, Fraction] | None:
        """For a claim over a box: the shares of its volume left undecided and proved
        failing (exact; ``None`` for a claim about points).  A failed or crashed
        decision leaves the whole box undecided."""
        box = self.claim.domain
        if box is None:
            return None
        if self.result is None:
            return Fraction(1), Fraction(0)
        regions = [f.region for f in _with_premises(self.result) if f.region is not None]
        regions = [r for r in regions if r.box == box]
        und, bad = region_fractions(regions, box)
        if self.result.verdict is Verdict.UNDECIDED and und == 0:
            und = Fraction(1)  # undecided outside the box decisions: nothing was proved
        return und, bad

    @property
    def undecided_fraction(self) -> Fraction | None:
        """Share of the box's volume where the claim is neither proved nor refuted
        (``None`` for a claim about points)."""
        fr = self.box_fractions()
        return None if fr is None else fr[0]

    def tightness(self) -> Tightness | None:
        """For a claim of kind theorem: its declared tightness (evaluated when given as
        a function), else the tightness its findings show; ``None`` for other kinds."""
        if self.claim.kind != "theorem":
            return None
        t = self.claim.tightness
        if t is not None:
            return t() if callable(t) else t
        if not self.matches:
            return None
        what = "the registered instances" if self.claim.domain is None else "the box"
        return observed_tightness(
            self.result, f"{what} ({self.claim.instances or self.claim.statement})"[:240]
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON record of the outcome (``verifier casestudies --json``)."""
        if "record" in self.shown:
            return dict(self.shown["record"])
        fr = self.box_fractions()
        tight = self.tightness()
        return {
            "id": self.claim.id,
            "kind": self.claim.kind,
            "casestudy": self.claim.casestudy,
            "source": self.claim.source,
            "statement": self.claim.statement,
            "expected": self.claim.expected,
            "verdict": None if self.verdict is None else self.verdict.value,
            "vacuous": self.vacuous,
            "matches": self.matches,
            "scope": self.scope.to_dict(),
            "worst_slack": self.worst_slack(),
            "seconds": round(self.seconds, 3),
            "domain": None if self.claim.domain is None else self.claim.domain.as_dict(),
            "undecided_fraction": None if fr is None else float(fr[0]),
            "failing_fraction": None if fr is None else float(fr[1]),
            "tightness": None if tight is None else tight.to_dict(),
            "error": self.error,
            "search": None if self.search is None else self.search.to_dict(),
            **({} if self.result is None else measured_record(self.result.measured)),
            "result": None if self.result is None else self.result.to_dict(max_findings=20),
        }

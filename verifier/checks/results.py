"""Result objects: the verdict of a check and the numbers behind it.

A :class:`CheckResult` holds one :class:`Finding` per elementary inequality that
was decided (per output and ordered neighbouring pair, or per pair for aggregate
quantities such as δ or a Rényi sum).  It renders as a plain-text table, as a
JSON-ready dict, and in notebooks as Markdown.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from ..arithmetic.exact import (
    DEFAULT_PRECISION,
    Enclosure,
    Verdict,
    approx,
    combine_verdicts,
    enclose,
    exact,
    format_number,
)
from ..errors import VerifierError
from ..runtime.terminal import text_table

__all__ = [
    "Finding",
    "CheckResult",
    "Subject",
    "implication",
    "conjunction",
    "given",
    "label",
    "measured_record",
    "failing_parts",
]

#: Failing sub-boxes (or sub-intervals) of one finding listed in text output; the
#: others are summed up ("and N more sub-boxes (x% of the box's volume)").
FAILING_SHOWN = 5


def label(x: Any) -> str:
    """An output or a dataset as text (a set of outputs as ``{a,b}``; none as ``-``)."""
    if x is None:
        return "-"
    if isinstance(x, frozenset):
        return "{" + ",".join(sorted(map(str, x))) + "}"
    return str(x)


def failing_parts(f: Finding, limit: int = FAILING_SHOWN) -> tuple[list[str], str]:
    """The first ``limit`` failing parts of a finding as text, and a summary of the
    others (``""`` when none is left out): their number and, over a box, their share
    of the box's volume (exact, shown rounded)."""
    parts = list(f.failing)
    box = getattr(f.region, "box", None)
    shown = [str(p) for p in parts[:limit]]
    if box is not None:
        total = f.region.failing_count
        rest = total - len(shown)
        if rest <= 0:
            return shown, ""
        share = f.region.failing_fraction - sum(
            (p.volume_share(box) for p in parts[:limit]), Fraction(0)
        )
        return shown, (
            f"and {rest} more sub-box{'es' if rest != 1 else ''} "
            f"({float(share) * 100:.3g}% of the box's volume)"
        )
    rest = len(parts) - len(shown)
    if rest <= 0:
        return shown, ""
    return shown, f"and {rest} more sub-interval{'s' if rest != 1 else ''}"


class Deferred:
    """An exact value of a finding formed only when it is read: a check that decides
    thousands of inequalities displays a few, so their display forms (``log(p/q)``
    simplified, which costs sympy's evaluation of the quotient) wait for a reader.
    :meth:`enclosure` bounds the value without forming it, for the ordering of
    :meth:`CheckResult.worst`.  A subclass keeps only exact numbers (no free symbol),
    and is picklable."""

    __slots__ = ()

    def value(self) -> sp.Expr:
        """The exact value, as the finding shows it."""
        raise NotImplementedError

    def enclosure(self, bits: int) -> Enclosure | None:
        """A certified enclosure of :meth:`value` at ``bits`` (``None``: not at this
        precision)."""
        raise NotImplementedError

    def key(self) -> Hashable:
        """Equal keys mean equal values (a subclass gives the exact inputs the value is
        formed from; this default, the object itself, shares it with nothing)."""
        return self


class _FormedOnRead:
    """A field of :class:`Finding` that may be given as a :class:`Deferred`: the value
    is formed on its first read and kept (in the instance's ``__dict__`` under
    ``_<name>_value``)."""

    def __init__(self, name: str) -> None:
        self.slot = f"_{name}_value"

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            raise AttributeError(self.slot)  # no default: the field is required
        v = obj.__dict__[self.slot]
        if isinstance(v, Deferred):
            v = obj.__dict__[self.slot] = v.value()
        return v

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.slot] = value


@dataclass(frozen=True)
class Subject:
    """What a check decided, as data: the kind of claim (a spec-file claim kind such as
    ``"pure_dp"`` or ``"ex_post_rdp"``), the mechanism it is about, the claim's
    parameters by name, the ordered pairs checked (``None``: every edge, both ways) and
    the parameter range (``over``).  A violated result with a subject can be written as
    a self-contained certificate (:mod:`verifier.report.certificates`)."""

    kind: str
    mechanism: Any
    params: tuple[tuple[str, Any], ...]
    pairs: tuple[tuple[Hashable, Hashable], ...] | None = None
    over: Any = None

    @classmethod
    def of(
        cls,
        kind: str,
        mechanism: Any,
        params: dict[str, Any],
        pairs: Iterable[tuple[Hashable, Hashable]] | None = None,
        over: Any = None,
    ) -> Subject:
        return cls(
            kind,
            mechanism,
            tuple(params.items()),
            None if pairs is None else tuple((a, b) for a, b in pairs),
            over,
        )


@dataclass(frozen=True)
class Finding:
    """One decided inequality ``lhs <= rhs``.

    ``realized`` and ``claimed`` are the quantity the claim bounds (ε(o) of a pair,
    δ, a Rényi divergence, ...) and its bound; ``slack = claimed - realized``
    (``realized - claimed`` for a lower bound; ``oo`` when the bound is infinite,
    ``-oo`` when the realized value is), negative exactly when the claim fails.
    ``tight`` is True when equality was proved exactly.  For claims over a
    parameter range, ``failing`` lists the sub-intervals where the inequality fails.

    Attributes
    ----------
    verdict : Verdict
        Of ``lhs <= rhs``.
    output : hashable or None
        The output the inequality is about (``None`` for a sum over outputs).
    pair : (dataset, dataset) or None
        The ordered pair of datasets.
    realized, claimed : sympy.Expr
        The bounded quantity and its bound (exact).
    lhs, rhs : sympy.Expr
        The two sides decided (``P_D(o)`` and ``e^ε P_D'(o)`` for pure DP).
    tight : bool
        Equality proved exactly.
    failing : tuple
        Over a parameter range: the sub-intervals where it fails.
    note : str
        A remark shown with the finding.
    lower_bound : bool
        The claim bounds ``realized`` from below.

    The fields ``region``, ``over`` and ``equality`` and the property ``slack``
    are documented below, with the class's members.

    Examples
    --------
    Randomized response with ε = log 3 against ε = 1: at output 1 from ``D`` to
    ``D'`` the inequality is ``3/4 <= e · 1/4``, false since ``3 > e``; the slack is
    ``1 - log 3``.

    >>> from verifier import check_pure_dp, randomized_response
    >>> f = check_pure_dp(randomized_response("log(3)"), epsilon=1).findings[2]
    >>> f.output, f.pair, f.lhs, f.rhs
    (1, ('D', "D'"), 3/4, E/4)
    >>> f.verdict, f.realized, f.claimed, f.slack
    (<Verdict.VIOLATED: 'violated'>, log(3), 1, 1 - log(3))
    """

    verdict: Verdict
    output: Hashable | None
    pair: tuple[Hashable, Hashable] | None
    #: may be given as a :class:`Deferred`, formed on the first read
    realized: sp.Expr
    claimed: sp.Expr
    lhs: sp.Expr
    rhs: sp.Expr
    tight: bool = False
    failing: tuple[Any, ...] = ()
    note: str = ""
    lower_bound: bool = False  # the claim bounds ``realized`` from below
    #: over a box of parameters: the decision (:class:`verifier.checks.boxes.BoxDecision`)
    region: Any = None
    #: the parameter domain the inequality was decided over (a
    #: :class:`verifier.checks.privacy.ParameterRange` or a :class:`verifier.checks.boxes.Box`);
    #: ``None`` for an inequality between numbers (what a verdict covers:
    #: :mod:`verifier.claims.scope`)
    over: Any = None
    #: the finding is the identity ``lhs == rhs`` (:func:`verifier.checks.certified.check_eq`),
    #: not the inequality ``lhs <= rhs``: when violated, either side may be the larger
    equality: bool = False

    @property
    def domain(self) -> Any:
        """The domain this finding was decided over (``None``: a point)."""
        if self.over is not None:
            return self.over
        return None if self.region is None else self.region.box

    #: display caches a finding recomputes when asked, left out of its pickled state:
    #: a claim decided in a worker process is sent back with every finding, and the
    #: enclosures (mpmath numbers) were most of what the parent unpickled
    _UNPICKLED = ("_slack_enclosure", "_slack_value")

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._UNPICKLED}

    def realized_enclosure(self, bits: int) -> Enclosure | None:
        """A certified enclosure of :attr:`realized` at ``bits`` without forming a
        deferred value (:class:`Deferred`).  Raises
        :class:`~verifier.errors.VerifierError` like
        :func:`~verifier.arithmetic.exact.enclose`."""
        v = self.__dict__["_realized_value"]
        if isinstance(v, Deferred):
            return v.enclosure(bits)
        return enclose(v, bits)

    def values_key(self) -> Hashable:
        """Findings with equal keys have equal :attr:`realized`, :attr:`claimed`,
        :attr:`tight` and :attr:`lower_bound`, hence equal slacks and ratios (a check over
        many pairs repeats one inequality wherever the mechanism is symmetric); a
        deferred value is keyed by what it is formed from (:meth:`Deferred.key`), not
        formed."""
        v = self.__dict__["_realized_value"]
        return (
            self.tight,
            self.lower_bound,
            self.claimed,
            v.key() if isinstance(v, Deferred) else v,
        )

    def realized_is_infinite(self) -> bool:
        """:attr:`realized` is ``oo`` or ``-oo`` (a deferred value never is); identity
        tests only, no walk of the expression."""
        v = self.__dict__["_realized_value"]
        return v is sp.oo or v is sp.S.NegativeInfinity

    @functools.cached_property
    def slack(self) -> sp.Expr:
        if self.tight:
            return sp.Integer(0)
        hi, lo = (
            (self.realized, self.claimed) if self.lower_bound else (self.claimed, self.realized)
        )
        if hi is sp.oo or lo is -sp.oo:
            return sp.oo
        if lo is sp.oo or hi is -sp.oo:
            return -sp.oo
        return hi - lo

    def slack_value(self) -> float:
        """Display value of the slack (for sorting and tables, never for verdicts);
        computed once per finding."""
        return self._slack_value

    @functools.cached_property
    def _slack_value(self) -> float:
        s = self.slack
        if s.free_symbols:
            return float("nan")
        return approx(s)

    @functools.cached_property
    def _slack_enclosure(self) -> Enclosure | None:
        """:func:`_slack_bounds` at the first precision of
        :func:`~verifier.arithmetic.exact.approx`, computed once per finding (every
        :meth:`CheckResult.worst` ranks by it)."""
        return _slack_bounds(self, DEFAULT_PRECISION.start_bits)

    def to_dict(self) -> dict[str, Any]:
        """The finding as JSON-ready data (exact values as text, display floats
        beside them); rendered once per finding (a result's record shows its worst
        finding and its worst per output, often the same one)."""
        return copy.deepcopy(self._record)

    @functools.cached_property
    def _record(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "verdict": self.verdict.value,
            "output": label(self.output),
            "pair": None if self.pair is None else [label(p) for p in self.pair],
            "realized": str(self.realized),
            "claimed": str(self.claimed),
            "slack": str(self.slack),
            "tight": self.tight,
        }
        if not self.slack.free_symbols and self.slack not in (sp.oo, -sp.oo):
            d["slack_approx"] = self.slack_value()
        if not self.realized.free_symbols and self.realized not in (sp.oo, -sp.oo):
            d["realized_approx"] = approx(self.realized)
        if self.failing:
            d["failing"] = [
                f.text(self.region.box) if self.region is not None else str(f)
                for f in self.failing[:20]
            ]
        if self.region is not None:
            d["box"] = {
                "sub_boxes": self.region.boxes,
                "undecided": [u.as_dict(self.region.box) for u in self.region.undecided[:20]],
                "witness": None
                if self.region.witness is None
                else {str(k): str(v) for k, v in self.region.witness.items()},
                "note": self.region.note,
            }
            if getattr(self.region, "premises", ()):
                d["box"]["premises"] = list(self.region.premises)
                d["box"]["outside_fraction"] = float(self.region.outside_fraction)
                d["box"]["vacuous"] = self.region.vacuous
        if self.note:
            d["note"] = self.note
        return d


# The field ``realized`` reads and writes through its descriptor, installed once the
# dataclass is made so that the field stays a required argument (a descriptor given as
# the field's default would read as a default to type checkers).
Finding.realized = _FormedOnRead("realized")


@dataclass(repr=False)
class CheckResult:
    """The verdict of a check with every finding behind it.

    Attributes
    ----------
    title : str
        What was checked.
    verdict : Verdict
        The conjunction of the findings' (and parts') verdicts.
    findings : list of Finding
        Every decided inequality.
    quantity : str
        The name of the bounded quantity (a column of :meth:`table`).
    notes : list of str
        Remarks shown with the result.
    parts : list of CheckResult
        Sub-results of a conjunction or implication.

    The fields ``subject``, ``premises``, ``measured``, ``vacuous`` and
    ``identity_in`` are documented below, with the class's members.

    Examples
    --------
    Randomized response with ε = log 3 against ε = 1: four findings (two outputs, two
    ordered pairs), two of them violated (``log 3 > 1``):

    >>> from verifier import check_pure_dp, randomized_response
    >>> r = check_pure_dp(randomized_response("log(3)"), epsilon=1)
    >>> r.verdict, r.violated, len(r.findings), len(r.violations())
    (<Verdict.VIOLATED: 'violated'>, True, 4, 2)
    >>> print(r.summary())
    RR is (1)-DP: violated; worst slack 1 - log(3) ≈ -0.0986123
    """

    title: str
    verdict: Verdict
    findings: list[Finding] = field(default_factory=list)
    quantity: str = "value"
    notes: list[str] = field(default_factory=list)
    parts: list[CheckResult] = field(default_factory=list)
    #: what was decided, when a checker of :mod:`verifier.checks.privacy` decided it
    subject: Subject | None = None
    #: results this one assumed (the premise of an :func:`implication`)
    premises: list[CheckResult] = field(default_factory=list)
    #: exact quantities the check computed, by name (``{"epsilon": log(3)}``: the
    #: exact ε of a mechanism); a claim's JSON record carries each as
    #: ``exact_<name>`` (its closed form as text) and ``exact_<name>_approx``
    measured: dict[str, Any] = field(default_factory=dict)
    #: the verdict holds only because no premise held (:func:`implication` with a
    #: violated premise, or a conjunction of such results): nothing was checked
    vacuous: bool = False
    #: symbols of an identity proved for every value of them (:func:`verifier.checks.certified.check_eq`)
    identity_in: tuple[str, ...] = ()

    @property
    def holds(self) -> bool:
        return self.verdict is Verdict.HOLDS

    def outline(self) -> CheckResult:
        """This result's tree (parts and premises) with its verdicts, titles, notes,
        quantities measured and vacuous flags, keeping the first finding of each node
        and no subject: what a worker process sends back when its caller shows the
        verdicts and the cells rendered beside them
        (:meth:`~verifier.claims.model.ClaimOutcome.presentation`), not every
        finding (``verifier casestudies`` without ``--tightness``)."""
        return dataclasses.replace(
            self,
            findings=self.findings[:1],
            parts=[p.outline() for p in self.parts],
            premises=[p.outline() for p in self.premises],
            subject=None,
        )

    @property
    def violated(self) -> bool:
        return self.verdict is Verdict.VIOLATED

    def all_findings(self) -> list[Finding]:
        out = list(self.findings)
        for p in self.parts:
            out.extend(p.all_findings())
        return out

    def violations(self) -> list[Finding]:
        return [f for f in self.all_findings() if f.verdict is Verdict.VIOLATED]

    def worst(self) -> Finding | None:
        """The finding with the smallest slack (violations first)."""
        fs = self.all_findings()
        if not fs:
            return None
        bad = [f for f in fs if f.verdict is Verdict.VIOLATED]
        pool = bad or fs

        # findings with equal values (Finding.values_key) share one display value
        values: dict[Hashable, float] = {}

        def key(f: Finding) -> float:
            k = f.values_key()
            if k not in values:
                if f.slack is sp.oo:
                    values[k] = float("inf")
                elif f.slack is -sp.oo:
                    values[k] = float("-inf")
                else:
                    v = f.slack_value()
                    values[k] = v if v == v else float("inf")
            return values[k]

        return min(_near_minimum(pool), key=key)

    @property
    def tight(self) -> bool:
        """True when some finding attains its bound exactly."""
        return any(f.tight for f in self.all_findings())

    def per_output(self) -> list[Finding]:
        """For each output, its worst finding (in output order of first appearance)."""
        best: dict[Any, Finding] = {}
        for f in self.all_findings():
            cur = best.get(f.output)
            if cur is None or _worse(f, cur):
                best[f.output] = f
        return list(best.values())

    # -- rendering ----------------------------------------------------------
    def summary(self) -> str:
        w = self.worst()
        slack = "-" if w is None else _fmt(w.slack)
        tight = " (attained exactly)" if self.tight and self.verdict is Verdict.HOLDS else ""
        return f"{self.title}: {self.verdict.value}; worst slack {slack}{tight}"

    def table(self, max_rows: int = 40, *, width: int | None = None) -> str:
        """The summary and one row per finding (at most ``max_rows``), fitted to
        ``width`` columns (default: the terminal's when standard output is one)."""
        rows = []
        for f in self.per_output()[:max_rows]:
            pair = "-" if f.pair is None else f"{label(f.pair[0])} -> {label(f.pair[1])}"
            rows.append(
                (
                    label(f.output),
                    pair,
                    _fmt(f.realized),
                    _fmt(f.claimed),
                    "0 (tight)" if f.tight else _fmt(f.slack),
                    f.verdict.value,
                )
            )
        head = ("output", "pair", self.quantity, "claimed", "slack", "verdict")
        lines = [
            self.summary(),
            # three folded columns of 14 keep the six within 80 columns
            text_table(head, rows, width=width, indent="  ", fold=(0, 1, 2, 3, 4), min_width=14),
        ]
        extra = len(self.per_output()) - max_rows
        if extra > 0:
            lines.append(f"  ... {extra} more outputs")
        failing = [f for f in self.all_findings() if f.failing]
        for f in failing[:5]:
            shown, more = failing_parts(f)
            where = ", ".join(shown + ([more] if more else []))
            lines.append(f"  output {label(f.output)} fails for the parameter in: {where}")
        for n in self.notes:
            lines.append(f"  note: {n}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        n = len(self.all_findings())
        return f"<CheckResult {self.summary()} ({n} findings)>"

    def _repr_markdown_(self) -> str:
        return "```\n" + self.table() + "\n```"

    def to_dict(self, max_findings: int = 200) -> dict[str, Any]:
        w = self.worst()
        fs = self.per_output()
        return {
            "title": self.title,
            "verdict": self.verdict.value,
            "quantity": self.quantity,
            "worst": None if w is None else w.to_dict(),
            "tight": self.tight,
            "per_output": [f.to_dict() for f in fs[:max_findings]],
            "truncated": max(0, len(fs) - max_findings),
            "notes": list(self.notes),
            "parts": [p.to_dict(max_findings) for p in self.parts],
            **({"vacuous": True} if self.vacuous else {}),
            **measured_record(self.measured),
        }


def measured_record(measured: dict[str, Any]) -> dict[str, Any]:
    """JSON fields for exact measured quantities: ``exact_<name>`` is the closed form
    as text, ``exact_<name>_approx`` a float near it (the string ``"inf"`` when it is
    unbounded; display only, never a verdict).

    >>> import sympy as sp
    >>> measured_record({"epsilon": sp.log(3)})
    {'exact_epsilon': 'log(3)', 'exact_epsilon_approx': 1.0986122886681098}
    >>> measured_record({"epsilon": sp.oo})
    {'exact_epsilon': 'oo', 'exact_epsilon_approx': 'inf'}
    """
    out: dict[str, Any] = {}
    for name, value in measured.items():
        v = exact(value)
        out[f"exact_{name}"] = str(v)
        if v is sp.oo:
            out[f"exact_{name}_approx"] = "inf"
        elif v is -sp.oo:
            out[f"exact_{name}_approx"] = "-inf"
        elif v.free_symbols:
            out[f"exact_{name}_approx"] = None
        else:
            out[f"exact_{name}_approx"] = approx(v)
    return out


def _slack_bounds(f: Finding, bits: int) -> Enclosure | None:
    """A certified enclosure of ``f.slack`` from enclosures of its two sides (no
    sympy expression is built: the sides' enclosures are shared with the decision),
    or ``None`` for infinite, symbolic or unenclosed sides."""
    if f.tight:
        return Enclosure(mpmath.mpf(0), mpmath.mpf(0), bits)
    c = f.claimed
    if c is sp.oo or c is sp.S.NegativeInfinity or f.realized_is_infinite():
        return None
    try:
        r, ce = f.realized_enclosure(bits), enclose(c, bits)
    except VerifierError:  # a free symbol, a function without an enclosure
        return None
    a, b = (r, ce) if f.lower_bound else (ce, r)
    if a is None or b is None:
        return None
    return a.minus(b)


def _share_slack_enclosures(findings: list[Finding]) -> None:
    """Compute :attr:`Finding._slack_enclosure` once per :meth:`Finding.values_key` and
    give it to every finding of that key."""
    seen: dict[Hashable, Enclosure | None] = {}
    for f in findings:
        if "_slack_enclosure" in f.__dict__:
            continue
        k = f.values_key()
        if k not in seen:
            seen[k] = f._slack_enclosure
        else:
            f.__dict__["_slack_enclosure"] = seen[k]


def _near_minimum(findings: list[Finding]) -> list[Finding]:
    """The findings whose slack may be the smallest, in their order: a finding whose
    slack is certainly above another one's (disjoint enclosures at the first
    precision of :func:`~verifier.arithmetic.exact.approx`) is dropped before the display
    values (15 digits, sometimes at a high precision) are computed."""
    _share_slack_enclosures(findings)
    bounds = [(f, f._slack_enclosure) for f in findings]
    if not bounds or any(e is None for _, e in bounds):
        return findings  # infinite, symbolic or unenclosed slacks: compare them all
    top = min(e.hi for _, e in bounds if e is not None)
    return [f for f, e in bounds if e is not None and e.lo <= top]


def _worse(a: Finding, b: Finding) -> bool:
    order = {Verdict.VIOLATED: 0, Verdict.UNDECIDED: 1, Verdict.HOLDS: 2}
    if order[a.verdict] != order[b.verdict]:
        return order[a.verdict] < order[b.verdict]
    return a.slack_value() < b.slack_value()


def _fmt(x: sp.Expr) -> str:
    if x is sp.oo:
        return "inf"
    if x is -sp.oo:
        return "-inf"
    if x.free_symbols:
        # whole: a terminal table folds a long expression onto further lines
        return str(x)
    return format_number(x, digits=6, max_len=24)


def conjunction(
    title: str, results: Sequence[CheckResult], notes: Iterable[str] = ()
) -> CheckResult:
    """All of ``results`` must hold."""
    parts = list(results)
    return CheckResult(
        title,
        combine_verdicts(r.verdict for r in parts),
        quantity="value",
        notes=list(notes),
        parts=parts,
        vacuous=bool(parts) and all(r.vacuous for r in parts),
    )


def implication(title: str, premise: CheckResult, conclusion: CheckResult) -> CheckResult:
    """``premise ⇒ conclusion`` on one instance.

    Holds vacuously when the premise is violated (noted in the result, and marked
    ``vacuous``: a claim whose every instance is vacuous checked nothing, and its
    outcome says so); when the premise holds the verdict is the conclusion's; when the
    premise is undecided only a conclusion that holds decides the implication.
    """
    notes = [f"premise — {premise.summary()}"]
    vacuous = False
    if premise.verdict is Verdict.VIOLATED:
        v = Verdict.HOLDS
        vacuous = True
        notes.append("premise does not hold on this instance (vacuous)")
    elif premise.verdict is Verdict.HOLDS:
        v = conclusion.verdict
        vacuous = conclusion.vacuous
    else:
        v = Verdict.HOLDS if conclusion.verdict is Verdict.HOLDS else Verdict.UNDECIDED
    return CheckResult(
        title, v, notes=notes, parts=[conclusion], premises=[premise], vacuous=vacuous
    )


def given(title: str, premise: CheckResult, conclusion: CheckResult) -> CheckResult:
    """``conclusion``, decided where ``premise`` must hold too (both are required: the
    verdict is their conjunction).  Unlike :func:`conjunction` the premise is kept
    apart (``premises``): the findings, the worst slack and the tightness are the
    conclusion's.  For claims over a box, where a premise that fails somewhere must
    be reported, never taken as making the claim vacuous (:func:`implication`)."""
    return CheckResult(
        title,
        combine_verdicts([premise.verdict, conclusion.verdict]),
        notes=[f"premise — {premise.summary()}"],
        parts=[conclusion],
        premises=[premise],
        vacuous=conclusion.vacuous,
    )

"""Certificates of refuted claims, whichever decider refuted them.

A certificate is a self-contained spec file (``docs/spec-format.md``) that ``verifier
check`` re-verifies from scratch: the *target* claim (expected refuted) and the
*premises* it was refuted under (expected to hold).  For a claim refuted by search the
search writes it (:mod:`verifier.search.certificates`); for a claim refuted on its
registered instances (or over its box or range) :func:`claim_certificate` builds it
from the result; :func:`outcome_certificate` takes it from whichever decider refuted
the claim (what ``verifier casestudies --certificates`` writes):

* a violated result of a checker of :mod:`verifier.checks.privacy` records what it decided
  (:class:`~verifier.checks.results.Subject`: the kind, the mechanism, the parameters, the
  pairs and any parameter range), so the certificate shows the mechanism by its exact
  distributions — restricted to the two datasets of a violating pair — and the claim;
* the premise of an :func:`~verifier.checks.results.implication` (Lemma 7 (i), Theorem 16,
  ...) that held is written as a premise claim, so the file shows that the conclusion
  fails *although* the premise holds;
* a violated inequality between two exact numbers with no mechanism behind it (a
  proof step) becomes an ``inequality`` claim ``lhs <= rhs``; a violated identity
  ``lhs == rhs`` (:func:`~verifier.checks.certified.check_eq`) becomes the inequality between
  its sides that fails (``rhs <= lhs`` when ``lhs < rhs``);
* a claim decided over a parameter domain is certified at one exact failing point of
  it: over a box, the box decision's rational witness; over a range (one parameter,
  :func:`~verifier.checks.ranges.decide_on_interval`), a rational point inside a failing
  sub-interval (its witness, else the simplest rational inside it), where the
  inequality is decided afresh to fail.  The certificate is the claim at that point (a
  mechanism claim with every parameter replaced by its value) or, for an inequality
  with no mechanism behind it (``check_le(lhs, rhs, over=...)``), the numbers at that
  point.

Every certificate is read back and decided before it is returned: the target must be
violated and every premise must hold, or :class:`~verifier.errors.CertificateError`
is raised (a bug; such a file is never written).

>>> from verifier.checks.certified import check_le
>>> from verifier.spec import loads_spec
>>> t = sp.Symbol("t")
>>> r = check_le(sp.exp(-t), sp.Rational(1, 2), "e^-t <= 1/2", over=(t, 0, 2))
>>> str(r.findings[0].failing[0])
'[0, log(2))'
>>> claim = Claim("demo", "none", "e^-t <= 1/2 on [0, 2]", "refuted", check=lambda: r)
>>> target = loads_spec(claim_certificate(claim, r).text).claim("demo")
>>> target.kind, target.lhs, target.rhs, target.run().verdict.value
('inequality', exp(-1/2), 1/2, 'violated')
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

from ..arithmetic.exact import Verdict, decide_le
from ..checks.boxes import Box
from ..checks.ranges import ParameterRange
from ..checks.results import CheckResult, Finding, Subject
from ..claims.model import Claim, ClaimOutcome
from ..errors import CertificateError, VerifierError
from ..mechanism.model import FiniteMechanism
from ..spec import SpecClaim, certificate, loads_spec, spec_to_toml
from ..spec.io import atomic_write, file_stem

__all__ = [
    "Certificate",
    "claim_certificate",
    "write_claim_certificate",
    "outcome_certificate",
    "write_outcome_certificate",
]


@dataclass(frozen=True)
class Certificate:
    """A certificate's TOML text, its target claim id and how many premises it has."""

    text: str
    target: str
    premises: int


def _numeric(x: sp.Expr) -> bool:
    return isinstance(x, sp.Expr) and not x.free_symbols and x.is_finite is not False


@dataclass(frozen=True)
class _Failure:
    """A violated inequality ``lhs <= rhs`` between exact numbers: a finding's sides, at
    ``point`` (parameter -> exact value; empty for a finding between numbers).
    ``flipped``: the finding is an identity that fails with its left side the smaller,
    so the inequality that fails is its right side ``<=`` its left side."""

    finding: Finding
    lhs: sp.Expr
    rhs: sp.Expr
    point: dict[sp.Symbol, sp.Expr]
    flipped: bool = False

    def where(self) -> str:
        return ", ".join(f"{k} = {v}" for k, v in self.point.items())


def _fails(lhs: sp.Expr, rhs: sp.Expr) -> bool:
    try:
        return decide_le(lhs, rhs).verdict is Verdict.VIOLATED
    except VerifierError:
        return False


def _at_numbers(f: Finding, point: dict[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, sp.Expr] | None:
    a, b = f.lhs.xreplace(point), f.rhs.xreplace(point)
    return (a, b) if _numeric(a) and _numeric(b) else None


def _failing_point(f: Finding) -> dict[sp.Symbol, sp.Expr] | None:
    """An exact point of the domain of ``f`` where ``lhs <= rhs`` is decided afresh to
    fail: the witness of a box decision, or a rational point inside a failing
    sub-interval of a range (``None`` when no candidate is confirmed)."""
    candidates: list[dict[sp.Symbol, sp.Expr]] = []
    if f.region is not None and f.region.witness:
        candidates.append(dict(f.region.witness))
    if isinstance(f.over, ParameterRange):
        for piece in f.failing:
            candidates += [{f.over.symbol: x} for x in piece.rational_points()]
    for point in candidates:
        sides = _at_numbers(f, point)
        if sides is not None and _fails(*sides):
            return point
    return None


def _failure(f: Finding) -> _Failure | None:
    """The violated inequality between numbers that certifies ``f`` (``None`` when ``f``
    is not violated, or no exact failing point of its domain is found)."""
    if f.verdict is not Verdict.VIOLATED:
        return None
    point: dict[sp.Symbol, sp.Expr] = {}
    if not (_numeric(f.lhs) and _numeric(f.rhs)):
        found = _failing_point(f)
        if found is None:
            return None
        point = found
    sides = _at_numbers(f, point)
    if sides is None:
        return None
    a, b = sides
    if f.equality and not _fails(a, b) and _fails(b, a):
        return _Failure(f, b, a, point, flipped=True)
    return _Failure(f, a, b, point)


def _violated_finding(r: CheckResult) -> _Failure | None:
    for f in r.findings:
        hit = _failure(f)
        if hit is not None:
            return hit
    return None


def _locate(
    r: CheckResult, assumed: list[CheckResult]
) -> tuple[CheckResult, list[CheckResult]] | None:
    """The first violated result with a subject (or a violated numeric finding) under
    ``r``, and the premises that held on the way to it."""
    if r.verdict is not Verdict.VIOLATED:
        return None
    assumed = assumed + [p for p in r.premises if p.verdict is Verdict.HOLDS]
    if r.subject is not None:
        return r, assumed
    for part in r.parts:
        hit = _locate(part, assumed)
        if hit is not None:
            return hit
    if _violated_finding(r) is not None:
        return r, assumed
    return None


def _box_witness(leaf: CheckResult) -> dict[str, sp.Expr] | None:
    """The exact failing point (parameter name -> value) of a result decided over a box."""
    for f in leaf.all_findings():
        if f.verdict is Verdict.VIOLATED and f.region is not None and f.region.witness:
            return {str(k): v for k, v in f.region.witness.items()}
    return None


def _at(value: Any, point: dict[str, sp.Expr]) -> Any:
    """``value`` with the parameters named in ``point`` replaced by their values."""
    if isinstance(value, sp.Basic):
        return value.xreplace({s: point[str(s)] for s in value.free_symbols if str(s) in point})
    if isinstance(value, dict):
        return {k: _at(v, point) for k, v in value.items()}
    if callable(value):
        return lambda o, f=value: _at(f(o), point)
    return value


def _at_point(subject: Subject, point: dict[str, sp.Expr]) -> Subject:
    """The subject of a claim over a box, at one point of the box: the certificate of a
    claim refuted over a box is the claim at its exact failing point."""
    m = subject.mechanism
    if isinstance(m, FiniteMechanism):
        m = FiniteMechanism(
            m.graph,
            {d: {o: _at(m.p(d, o), point) for o in m.outputs} for d in m.datasets},
            m.outputs,
            name=m.name,
        )
    params = {k: _at(v, point) for k, v in subject.params}
    return Subject.of(subject.kind, m, params, subject.pairs, None)


def _spec_claim(
    subject: Subject, claim_id: str, expected: str, statement: str, source: str
) -> SpecClaim:
    params = dict(subject.params)
    return SpecClaim(
        id=claim_id,
        kind=subject.kind,
        mechanism=subject.mechanism,
        pairs=None if subject.pairs is None else list(subject.pairs),
        over=subject.over,
        expected=expected,
        statement=statement,
        source=source,
        **params,
    )


def _premise_results(p: CheckResult) -> list[CheckResult]:
    """The results with a subject that make up a premise that held (a conjunction of
    checks is written as one premise claim per check)."""
    if p.subject is not None:
        return [p]
    return [q for part in p.parts for q in _premise_results(part)]


def claim_certificate(claim: Claim, result: CheckResult) -> Certificate | None:
    """The certificate of ``claim`` refuted by ``result`` (``None`` when the result is
    not violated, or when the violation is not a single decided inequality — e.g. a
    conjunction of custom checks with no exact sides).

    The mechanism form is preferred; when its file cannot be read back exactly (a
    distribution whose sum to 1 the reader cannot decide), the violated inequality
    itself is the certificate.
    """
    hit = _locate(result, [])
    if hit is None:
        return None
    leaf, assumed = hit
    if leaf.subject is not None:
        try:
            return _build(claim, leaf, assumed, use_subject=True)
        except CertificateError:
            if _violated_finding(leaf) is None:
                raise
    return _build(claim, leaf, assumed, use_subject=False)


def _build(
    claim: Claim, leaf: CheckResult, assumed: list[CheckResult], *, use_subject: bool
) -> Certificate:
    claims: list[SpecClaim] = []
    mechs: dict[str, Any] = {}

    def name_of(mech: Any) -> str:
        for k, m in mechs.items():
            if m is mech:
                return k
        k = "M" if not mechs else f"M{len(mechs) + 1}"
        mechs[k] = mech
        return k

    point = (
        _box_witness(leaf)
        if leaf.subject is not None and isinstance(leaf.subject.over, Box)
        else None
    )
    if use_subject and leaf.subject is not None:
        subject = leaf.subject if point is None else _at_point(leaf.subject, point)
        statement = claim.statement
        if point is not None:
            where = ", ".join(f"{k} = {v}" for k, v in point.items())
            statement = f"{claim.statement} -- at the failing point {where} of the box"
            leaf = _result_at(subject, leaf)
        full = _spec_claim(subject, claim.id, "refuted", statement, claim.source)
        target = certificate(full, leaf) or full
        target.id = claim.id
    else:
        f = _violated_finding(leaf)
        if f is None:  # pragma: no cover - _locate returned the leaf for this finding
            raise CertificateError(f"{claim.id}: no violated inequality to certify")
        what = (
            f"the identity that fails: {leaf.title}; its left side is the smaller, so "
            f"right side <= left side fails"
            if f.flipped
            else f"the inequality that fails: {leaf.title}"
        )
        if f.point:
            what += f"; at the failing point {f.where()} of its domain {f.finding.domain}"
        target = SpecClaim(
            id=claim.id,
            kind="inequality",
            mechanism=None,
            lhs=f.lhs,
            rhs=f.rhs,
            expected="refuted",
            statement=f"{claim.statement} ({what})",
            source=claim.source,
        )
    if target.mechanism is not None:
        target.mechanism_name = name_of(target.mechanism)
    premises = 0
    if use_subject:
        for p in [q for a in assumed for q in _premise_results(a)]:
            assert p.subject is not None
            premises += 1
            psub = p.subject
            if point is not None and isinstance(psub.over, Box):
                psub = _at_point(psub, point)
            pc = _spec_claim(
                psub,
                f"{claim.id}.premise{premises}",
                "holds",
                f"premise: {p.title}",
                claim.source,
            )
            if pc.mechanism is not None:
                pc.mechanism_name = name_of(pc.mechanism)
            claims.append(pc)
    claims.append(target)
    comment = (
        f"Certificate: {claim.id} ({claim.kind}, {claim.source}) is refuted.\n"
        f"verifier check FILE exits 1 (violated); --expected exits 0."
    )
    try:
        text = spec_to_toml(
            mechs,
            claims,
            title=f"{claim.id}: {claim.statement}"[:300],
            comment=comment,
            certificate=claim.id,
        )
        _verify(text, claim.id)
    except CertificateError:
        raise
    except VerifierError as err:
        raise CertificateError(f"the certificate of {claim.id} cannot be written: {err}") from err
    return Certificate(text, claim.id, premises)


def _result_at(subject: Subject, leaf: CheckResult) -> CheckResult:
    """The result of deciding ``subject`` (a claim at one point) afresh, so that the
    certificate restricts it to a pair that fails *at that point*."""
    return _spec_claim(subject, "point", "refuted", "", "").run()


def _verify(text: str, target: str) -> None:
    spec = loads_spec(text, "toml", source=f"<certificate of {target}>")
    for c, r in spec.run():
        want = Verdict.VIOLATED if c.id == target else Verdict.HOLDS
        if r.verdict is not want:
            raise CertificateError(
                f"the certificate of {target} does not re-verify: {c.id} is "
                f"{r.verdict.value}, expected {want.value}"
            )


def write_claim_certificate(
    claim: Claim,
    result: CheckResult,
    directory: str | os.PathLike[str],
    name: str | None = None,
) -> Path | None:
    """Write :func:`claim_certificate` as ``directory/<name>`` (default
    ``<stem>.certificate.toml``, the stem :func:`~verifier.spec.io.file_stem` of the
    claim id), atomically; ``None`` when there is no certificate."""
    cert = claim_certificate(claim, result)
    if cert is None:
        return None
    name = name if name is not None else f"{file_stem(claim.id)}.certificate.toml"
    return atomic_write(Path(directory) / name, cert.text)


def outcome_certificate(outcome: ClaimOutcome) -> str | None:
    """The certificate of a refuted claim, whichever decider refuted it: built from the
    claim's result (:func:`claim_certificate`) when that is violated, else the
    counterexample certificate of its worst-case search (written and re-verified by
    the search).  ``None`` when neither refuted the claim, or the result's violation
    is not one decided inequality; :class:`~verifier.errors.CertificateError` when
    the certificate cannot be written."""
    if outcome.result is not None and outcome.result.verdict is Verdict.VIOLATED:
        cert = claim_certificate(outcome.claim, outcome.result)
        return None if cert is None else cert.text
    s = outcome.search
    if s is not None and s.violated and s.certificate:
        return s.certificate
    return None


def write_outcome_certificate(
    outcome: ClaimOutcome, directory: str | os.PathLike[str], name: str | None = None
) -> Path | None:
    """Write :func:`outcome_certificate` as ``directory/name`` (default
    ``<stem of the claim id>.certificate.toml``), atomically; ``None`` when there is no
    certificate."""
    text = outcome_certificate(outcome)
    if text is None:
        return None
    name = name if name is not None else f"{file_stem(outcome.claim.id)}.certificate.toml"
    return atomic_write(Path(directory) / name, text)

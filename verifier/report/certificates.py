"""Certificates of refuted claims, whichever decider refuted them.

A certificate is a self-contained spec file (``docs/spec-format.md``) that ``verifier
check`` re-verifies from scratch: the *target* claim (expected refuted) and the
*premises* it was refuted under (expected to hold).  For a claim refuted by search the
search writes it (:mod:`verifier.search.certificates`); for a claim refuted on its
registered instances :func:`claim_certificate` builds it from the result:

* a violated result of a checker of :mod:`verifier.privacy` records what it decided
  (:class:`~verifier.results.Subject`: the kind, the mechanism, the parameters, the
  pairs and any parameter range), so the certificate shows the mechanism by its exact
  distributions — restricted to the two datasets of a violating pair — and the claim;
* the premise of an :func:`~verifier.results.implication` (Lemma 7 (i), Theorem 16,
  ...) that held is written as a premise claim, so the file shows that the conclusion
  fails *although* the premise holds;
* a violated inequality between two exact numbers with no mechanism behind it (a
  proof step) becomes an ``inequality`` claim ``lhs <= rhs``.

Every certificate is read back and decided before it is returned: the target must be
violated and every premise must hold, or :class:`~verifier.errors.CertificateError`
is raised (a bug; such a file is never written).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sympy as sp

from ..arithmetic import Verdict
from ..boxes import Box
from ..claims.model import Claim
from ..errors import CertificateError, VerifierError
from ..mechanism import FiniteMechanism
from ..results import CheckResult, Finding, Subject
from ..spec import SpecClaim, certificate, loads_spec, spec_to_toml
from ..spec.io import atomic_write, file_stem

__all__ = ["Certificate", "claim_certificate", "write_claim_certificate"]


@dataclass(frozen=True)
class Certificate:
    """A certificate's TOML text, its target claim id and how many premises it has."""

    text: str
    target: str
    premises: int


def _numeric(x: sp.Expr) -> bool:
    return isinstance(x, sp.Expr) and not x.free_symbols and x.is_finite is not False


def _violated_finding(r: CheckResult) -> Finding | None:
    for f in r.findings:
        if f.verdict is Verdict.VIOLATED and _numeric(f.lhs) and _numeric(f.rhs):
            return f
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
        target = SpecClaim(
            id=claim.id,
            kind="inequality",
            mechanism=None,
            lhs=f.lhs,
            rhs=f.rhs,
            expected="refuted",
            statement=f"{claim.statement} (the inequality that fails: {leaf.title})",
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

"""Certificates: spec files that assert a *target* claim is refuted although every
*premise* holds, and how such a file is recognised and judged.

A certificate written by this package (``verifier search``, ``verifier casestudies
--certificates``, ``verifier check --certificates``) carries a top-level marker
naming its claims' roles::

    [certificate]
    target = "talwar2025.thm13"
    premises = ["premise-M1", "premise-M2"]

The reader checks the marker against the claims: the target exists and is expected
``"refuted"``, the premises exist and are expected ``"holds"``, and every claim of
the file is the target or a premise.  A file without the marker is recognised as a
certificate by the convention the writers followed before the marker existed: it has
one claim expected ``"refuted"`` (the target) and at least one other, each expected
``"holds"`` and written as a premise (its statement starts with ``premise:``, or its
id is ``premise-NAME`` or ``CLAIM.premiseN``: :func:`is_premise`).  An ordinary spec
with expectations is not a certificate.

A certificate is judged as one (:func:`judge`): its violation counts only when every
premise holds.  ``verifier check CERT`` exits 1 for a genuine certificate (the target
is violated, every premise holds; 0 with ``--expected``), 2 when a premise fails or
the target is not violated ("invalid certificate: premise P fails"), whatever the
flags, and 3 when a verdict it needs is undecided.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..arithmetic.exact import Verdict
from ..errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNDECIDED, EXIT_VIOLATED, SpecError
from .labels import location

__all__ = [
    "CERTIFICATE_KEY",
    "CertificateInfo",
    "Judgement",
    "certificate_marker",
    "read_marker",
    "is_premise",
    "judge",
]

#: The top-level key of the marker.
CERTIFICATE_KEY = "certificate"


@dataclass(frozen=True)
class CertificateInfo:
    """The roles of a certificate's claims.

    ``marked`` is true when the file carries the ``[certificate]`` marker, false when
    it was recognised by the premise/target convention.
    """

    target: str
    premises: tuple[str, ...]
    marked: bool = True

    def order(self) -> list[str]:
        """The claims in the order they are decided: premises first, then the target."""
        return [*self.premises, self.target]


@dataclass(frozen=True)
class Judgement:
    """The outcome of a certificate: its exit code (0 or 1 as for any spec, 2 invalid,
    3 undecided) and, unless it is valid, the problem."""

    code: int
    problem: str | None = None

    @property
    def valid(self) -> bool:
        return self.problem is None


def certificate_marker(target: str, claims: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The marker of a document whose ``claims`` (``[[claims]]`` entries) are the
    target ``target`` and its premises (every other claim).

    >>> certificate_marker("t", [{"id": "p"}, {"id": "t"}])
    {'target': 't', 'premises': ['p']}
    """
    return {"target": target, "premises": [str(c["id"]) for c in claims if c["id"] != target]}


def read_marker(
    raw: Any, expected: Mapping[str, str | None], statements: Mapping[str, str] | None = None
) -> CertificateInfo | None:
    """The roles of the claims of a spec: from its marker ``raw`` (``None`` if the
    file has none) checked against ``expected`` (claim id -> its ``expected`` field,
    in file order), else from the convention of the certificates written before the
    marker existed (:func:`is_premise`, with ``statements``: claim id -> statement).

    Raises :class:`~verifier.errors.SpecError` naming the problem when the marker
    does not describe the file's claims.
    """
    if raw is None:
        texts = statements or {}
        targets = [cid for cid, e in expected.items() if e == "refuted"]
        others = [cid for cid in expected if cid not in targets]
        if (
            len(targets) == 1
            and others
            and all(expected[c] == "holds" and is_premise(c, texts.get(c, "")) for c in others)
        ):
            return CertificateInfo(targets[0], tuple(others), marked=False)
        return None
    where = CERTIFICATE_KEY
    if not isinstance(raw, dict):
        raise SpecError(f"{where}: expected a table (target, premises)")
    for k in raw:
        if k not in ("target", "premises"):
            raise SpecError(
                f"{location(where, k)}: unknown key in the certificate marker "
                f"(allowed: target, premises)"
            )
    target = raw.get("target")
    if not isinstance(target, str):
        raise SpecError(f"{location(where, 'target')}: expected the id of the target claim")
    premises = raw.get("premises", [])
    if not isinstance(premises, list) or not all(isinstance(p, str) for p in premises):
        raise SpecError(f"{location(where, 'premises')}: expected an array of claim ids")
    if target not in expected:
        raise SpecError(f"{location(where, 'target')}: no claim with id {target!r}")
    if expected[target] != "refuted":
        raise SpecError(
            f"{location(where, 'target')}: the target claim {target!r} must be expected 'refuted'"
        )
    seen: set[str] = set()
    for i, p in enumerate(premises):
        w = location(location(where, "premises"), i)
        if p not in expected:
            raise SpecError(f"{w}: no claim with id {p!r}")
        if p == target or p in seen:
            raise SpecError(f"{w}: claim {p!r} is listed twice")
        if expected[p] != "holds":
            raise SpecError(f"{w}: the premise {p!r} must be expected 'holds'")
        seen.add(p)
    extra = [c for c in expected if c != target and c not in seen]
    if extra:
        raise SpecError(
            f"{location(where, 'premises')}: claim {extra[0]!r} is neither the target nor a premise"
        )
    return CertificateInfo(target, tuple(premises), marked=True)


def is_premise(claim_id: str, statement: str) -> bool:
    """Whether a claim reads as a premise of a certificate written before the marker
    existed: its statement starts with ``premise:`` or its id is ``premise-NAME`` or
    ``CLAIM.premiseN`` (what the writers of :mod:`verifier.search.certificates` and
    :mod:`verifier.report.certificates` wrote).

    >>> is_premise("premise-M1", ""), is_premise("x.premise2", ""), is_premise("c", "M holds")
    (True, True, False)
    """
    return statement.lower().startswith("premise") or bool(_PREMISE_ID.search(claim_id))


_PREMISE_ID = re.compile(r"(^premise-|\.premise\d+$)")


def judge(info: CertificateInfo, verdicts: Mapping[str, Verdict], *, expected: bool) -> Judgement:
    """The exit code of ``verifier check`` on a certificate whose claims got
    ``verdicts``: the target's violation counts only when every premise holds.

    >>> info = CertificateInfo("t", ("p",))
    >>> judge(info, {"p": Verdict.HOLDS, "t": Verdict.VIOLATED}, expected=False).code
    1
    >>> judge(info, {"p": Verdict.VIOLATED, "t": Verdict.VIOLATED}, expected=True).problem
    'invalid certificate: premise p fails'
    """
    for p in info.premises:
        v = verdicts[p]
        if v is Verdict.VIOLATED:
            return Judgement(EXIT_BAD_INPUT, f"invalid certificate: premise {p} fails")
    for p in info.premises:
        if verdicts[p] is Verdict.UNDECIDED:
            return Judgement(EXIT_UNDECIDED, f"certificate not confirmed: premise {p} is undecided")
    v = verdicts[info.target]
    if v is Verdict.HOLDS:
        return Judgement(
            EXIT_BAD_INPUT, f"invalid certificate: the target {info.target} is not violated"
        )
    if v is Verdict.UNDECIDED:
        return Judgement(
            EXIT_UNDECIDED, f"certificate not confirmed: the target {info.target} is undecided"
        )
    return Judgement(EXIT_OK if expected else EXIT_VIOLATED)

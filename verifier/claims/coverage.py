"""Coverage of a paper: every numbered statement and the claims that check it.

A case-study package describes the paper it checks as a :class:`PaperCoverage` — one
:class:`Statement` per numbered statement (theorem, lemma, corollary, proposition,
definition, algorithm, worked example, figure, numbered equation, table), each with the ids of the
claims that check it (the statement itself on finite instances, the displayed steps of
its proof, findings and negative controls about it) or, when no finite instance can
witness it, the reason.  The package registers it with :meth:`Registry.add_coverage
<verifier.claims.registry.Registry.add_coverage>`; ``verifier casestudies --coverage``
renders every registered coverage (:mod:`verifier.report.coverage`).

A statement has one of five statuses (:attr:`Statement.status`), given by the case
study (never inferred from the number of claims):

``whole``
    the statement as printed, all its parts, on instances that satisfy its hypotheses,
    with the statement's own algorithm run — decided over its domain (a box, a range,
    an exhaustive finite domain or a worst-case search of it; each claim's outcome
    says which, :mod:`verifier.claims.scope`);
``special case``
    the statement is decided with some parameters pinned; ``reason`` says which and
    why;
``ingredients only``
    the statement's own algorithm is not run: ``reason`` names the lemmas, premises or
    finite facts its proof uses that the claims check;
``finding``
    the statement is false as printed; ``reason`` says where it fails and where it (or
    its corrected form) holds, each side with its claims;
``out of reach``
    no claim; ``reason`` says why.

>>> s = Statement("Lemma 15", "lemma", "a pointwise inequality", claims=("demo.lemma15",),
...               status="whole")
>>> s.status
'whole'
>>> Statement("Table 1", "table", "experiments", reason="empirical results").status
'out of reach'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from ..errors import InvalidParameter

__all__ = [
    "STATEMENT_KINDS",
    "STATUSES",
    "PaperCoverage",
    "Statement",
    "StatementKind",
    "Status",
]

StatementKind = Literal[
    "theorem",
    "lemma",
    "corollary",
    "proposition",
    "definition",
    "algorithm",
    "example",
    "figure",
    "equation",
    "table",
]
Status = Literal["whole", "special case", "ingredients only", "finding", "out of reach"]

#: Every statement kind, in the order tables list them.
STATEMENT_KINDS: tuple[str, ...] = get_args(StatementKind)
#: Every status, in the order totals list them.
STATUSES: tuple[str, ...] = get_args(Status)


@dataclass(frozen=True)
class Statement:
    """One numbered statement of a paper and how it is covered.

    Parameters
    ----------
    label : str
        As the paper numbers it (``"Theorem 3.1"``, ``"Lemma 15"``, ``"Eq. (1)"``).
    kind : str
        One of :data:`STATEMENT_KINDS`.
    summary : str
        The statement in one line.
    claims : tuple of str
        Ids of the registered claims about it (statement, proof steps, findings,
        negative controls).
    status : str, optional
        One of :data:`STATUSES` (module docstring).  Without it: ``out of reach`` for
        a statement without claims; a statement with claims must say its status.
    reason : str
        What a status other than ``whole`` rests on: the pinned parameters (``special
        case``), the ingredients checked (``ingredients only``), where the printed form
        fails and holds (``finding``), why no claim (``out of reach``).
    """

    label: str
    kind: StatementKind
    summary: str
    claims: tuple[str, ...] = ()
    reason: str = ""
    status: Status | None = None

    def __post_init__(self) -> None:
        if not self.label or not self.summary:
            raise InvalidParameter("a statement needs a label and a one-line summary")
        if self.kind not in STATEMENT_KINDS:
            raise InvalidParameter(
                f"statement {self.label!r}: kind must be one of {', '.join(STATEMENT_KINDS)}, "
                f"got {self.kind!r}"
            )
        if not isinstance(self.claims, tuple):
            raise InvalidParameter(f"statement {self.label!r}: claims must be a tuple of ids")
        if len(set(self.claims)) != len(self.claims):
            raise InvalidParameter(f"statement {self.label!r} lists a claim twice")
        status = self.status
        if status is None:
            if self.claims:
                raise InvalidParameter(
                    f"statement {self.label!r} has claims: say its status (one of "
                    f"{', '.join(STATUSES)})"
                )
            status = "out of reach"
            object.__setattr__(self, "status", status)
        if status not in STATUSES:
            raise InvalidParameter(
                f"statement {self.label!r}: status must be one of {', '.join(STATUSES)}, "
                f"got {status!r}"
            )
        if status == "out of reach" and self.claims:
            raise InvalidParameter(
                f"statement {self.label!r} is out of reach but lists claims: it is "
                f"'ingredients only' or 'special case'"
            )
        if status != "out of reach" and not self.claims:
            raise InvalidParameter(f"statement {self.label!r} is {status} but lists no claim")
        if status != "whole" and not self.reason:
            raise InvalidParameter(
                f"statement {self.label!r} ({status}) needs a reason: "
                + {
                    "special case": "which parameters are pinned, and why",
                    "ingredients only": "which lemmas or premises are checked",
                    "finding": "where it fails as printed and where it holds",
                    "out of reach": "why no finite instance decides it",
                }[status]
            )


@dataclass(frozen=True)
class PaperCoverage:
    """Every numbered statement of one paper (in the paper's order).

    Parameters
    ----------
    paper : str
        The id prefix of the paper's claims (``"ghazi2025"``).
    title : str
        Authors, year and title.
    statements : sequence of Statement
    """

    paper: str
    title: str
    statements: tuple[Statement, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        labels = [s.label for s in self.statements]
        dup = sorted({x for x in labels if labels.count(x) > 1})
        if dup:
            raise InvalidParameter(f"{self.paper}: statements listed twice: {', '.join(dup)}")

    def claim_ids(self) -> list[str]:
        """Every claim id the statements name, in order, without repetitions."""
        return list(dict.fromkeys(c for s in self.statements for c in s.claims))

    def count(self, status: str) -> int:
        """How many statements have ``status``."""
        return sum(1 for s in self.statements if s.status == status)

    @classmethod
    def of(cls, paper: str, title: str, statements: Sequence[Statement]) -> PaperCoverage:
        """Build from any sequence of statements."""
        return cls(paper, title, tuple(statements))

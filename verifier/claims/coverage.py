"""Coverage of a paper: every numbered statement and the claims that check it.

A case-study package describes the paper it checks as a :class:`PaperCoverage` — one
:class:`Statement` per numbered statement (theorem, lemma, corollary, proposition,
definition, algorithm, worked example, figure, numbered equation, table), each with the ids of the
claims that check it (the statement itself on finite instances, the displayed steps of
its proof, findings and negative controls about it) or, when no finite instance can
witness it, the reason.  The package registers it with :meth:`Registry.add_coverage
<verifier.claims.registry.Registry.add_coverage>`; ``verifier casestudies --coverage``
renders every registered coverage (:mod:`verifier.report.coverage`).

A statement has one of three statuses (:attr:`Statement.status`):

``checked``
    claims decide the statement itself on finite instances;
``consequence``
    the statement is out of finite reach as stated (asymptotic, continuous with no
    exact discretisation, ...) — ``reason`` says why — and the listed claims check
    the finite consequence the paper uses;
``out of reach``
    no claim; ``reason`` says why.

>>> s = Statement("Lemma 15", "lemma", "a pointwise inequality", claims=("demo.lemma15",))
>>> s.status
'checked'
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
Status = Literal["checked", "consequence", "out of reach"]

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
    reason : str
        Why the statement is out of finite reach (required without claims; with
        claims it makes the status ``consequence``).
    """

    label: str
    kind: StatementKind
    summary: str
    claims: tuple[str, ...] = ()
    reason: str = ""

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
        if not self.claims and not self.reason:
            raise InvalidParameter(
                f"statement {self.label!r} has no claim: record why it is out of reach"
            )

    @property
    def status(self) -> Status:
        """``checked``, ``consequence`` or ``out of reach`` (module docstring)."""
        if not self.claims:
            return "out of reach"
        return "consequence" if self.reason else "checked"


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

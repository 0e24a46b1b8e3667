"""Claims and the registry that runs them as regression checks of theorems.

A :class:`Claim` is a statement from a paper checked on a concrete instance: an id,
its source (paper and theorem), a function that builds the instance and returns the
:class:`~verifier.results.CheckResult`, and the *expected* outcome — ``"holds"`` or
``"refuted"`` — taken from the paper or from an independent derivation, never from
what the code printed.  Case-study modules in the ``casestudies`` package register
claims with :meth:`Registry.claim`; ``verifier casestudies`` and the test-suite run
them, so CI re-checks the theorems on every change.

>>> reg = Registry()
>>> @reg.claim(id="demo.trivial", source="none", statement="1/3 <= 1/2",
...            expected="holds", casestudy="demo")
... def _demo():
...     from verifier.results import CheckResult
...     from verifier.arithmetic import decide_le
...     return CheckResult("1/3 <= 1/2", decide_le(sp.Rational(1, 3), sp.Rational(1, 2)).verdict)
>>> [o.matches for o in reg.run(reg.select(["demo"]))]
[True]
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import sympy as sp

from .arithmetic import Verdict, format_number
from .errors import InvalidParameter, UnknownClaim, VerifierError
from .results import CheckResult

__all__ = ["Claim", "ClaimOutcome", "Registry", "REGISTRY", "load_casestudies", "outcomes_table"]

Expected = Literal["holds", "refuted"]


@dataclass(frozen=True)
class Claim:
    """A registered claim: a statement from a paper, checked on one instance."""

    id: str
    source: str
    statement: str
    expected: Expected
    check: Callable[[], CheckResult]
    casestudy: str
    notes: str = ""

    def run(self) -> ClaimOutcome:
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


@dataclass
class ClaimOutcome:
    """What running a claim gave, compared with what was expected."""

    claim: Claim
    result: CheckResult | None
    seconds: float
    error: str | None = None

    @property
    def verdict(self) -> Verdict | None:
        return None if self.result is None else self.result.verdict

    @property
    def matches(self) -> bool:
        if self.result is None:
            return False
        if self.claim.expected == "holds":
            return self.result.verdict is Verdict.HOLDS
        return self.result.verdict is Verdict.VIOLATED

    def worst_slack(self) -> str:
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.claim.id,
            "casestudy": self.claim.casestudy,
            "source": self.claim.source,
            "statement": self.claim.statement,
            "expected": self.claim.expected,
            "verdict": None if self.verdict is None else self.verdict.value,
            "matches": self.matches,
            "worst_slack": self.worst_slack(),
            "seconds": round(self.seconds, 3),
            "error": self.error,
            "result": None if self.result is None else self.result.to_dict(max_findings=20),
        }


@dataclass
class Registry:
    """Registered claims by id, grouped by case study."""

    claims: dict[str, Claim] = field(default_factory=dict)

    def register(self, claim: Claim) -> Claim:
        if claim.id in self.claims:
            raise InvalidParameter(f"claim id {claim.id!r} is registered twice")
        if claim.expected not in ("holds", "refuted"):
            raise InvalidParameter(
                f"claim {claim.id!r}: expected must be 'holds' or 'refuted', got {claim.expected!r}"
            )
        self.claims[claim.id] = claim
        return claim

    def claim(
        self,
        *,
        id: str,
        source: str,
        statement: str,
        expected: Expected,
        casestudy: str | None = None,
        notes: str = "",
    ) -> Callable[[Callable[[], CheckResult]], Callable[[], CheckResult]]:
        """Decorator registering a zero-argument check function as a claim.

        The case study defaults to the last component of the defining module's name
        (``casestudies.ghazi2025`` → ``ghazi2025``).
        """

        def deco(fn: Callable[[], CheckResult]) -> Callable[[], CheckResult]:
            cs = casestudy or fn.__module__.rsplit(".", 1)[-1]
            self.register(Claim(id, source, statement, expected, fn, cs, notes))
            return fn

        return deco

    def casestudies(self) -> list[str]:
        return sorted({c.casestudy for c in self.claims.values()})

    def select(self, names: Sequence[str] | None = None) -> list[Claim]:
        """Claims of the named case studies, or with the given ids / id prefixes."""
        if not names:
            return list(self.claims.values())
        out: list[Claim] = []
        for n in names:
            hit = [
                c
                for c in self.claims.values()
                if c.casestudy == n or c.id == n or c.id.startswith(n + ".")
            ]
            if not hit:
                known = ", ".join(self.casestudies())
                raise UnknownClaim(f"no case study or claim named {n!r} (case studies: {known})")
            out.extend(c for c in hit if c not in out)
        return out

    def get(self, claim_id: str) -> Claim:
        try:
            return self.claims[claim_id]
        except KeyError:
            raise UnknownClaim(f"no claim with id {claim_id!r}") from None

    def run(self, claims: Iterable[Claim]) -> list[ClaimOutcome]:
        return [c.run() for c in claims]


#: The global registry filled by the ``casestudies`` package.
REGISTRY = Registry()


def load_casestudies(package: str = "casestudies") -> Registry:
    """Import every module of the case-study package (registering its claims)."""
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")
    return REGISTRY


def outcomes_table(outcomes: Sequence[ClaimOutcome]) -> str:
    """Plain-text table: claim, source, expected, verdict, worst slack, time."""
    head = ("claim", "source", "expected", "verdict", "worst slack", "time", "")
    rows = [head]
    for o in outcomes:
        verdict = "ERROR" if o.error else (o.verdict.value if o.verdict else "-")
        rows.append(
            (
                o.claim.id,
                o.claim.source,
                o.claim.expected,
                verdict,
                o.worst_slack(),
                f"{o.seconds:.2f}s",
                "ok" if o.matches else "MISMATCH",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for j, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    n_ok = sum(o.matches for o in outcomes)
    lines.append(f"{n_ok} of {len(outcomes)} claims match their expected outcome")
    for o in outcomes:
        if o.error:
            lines.append(f"\n{o.claim.id} raised:\n{o.error}")
    return "\n".join(lines)


def outcomes_json(outcomes: Sequence[ClaimOutcome]) -> str:
    return json.dumps(
        {
            "claims": [o.to_dict() for o in outcomes],
            "matched": sum(o.matches for o in outcomes),
            "total": len(outcomes),
        },
        indent=2,
    )

"""The registry of claims: one namespace of ids for every command.

Case-study packages register their claims with :meth:`Registry.claim` (a decorator on
the function that decides the claim on its instances) or :meth:`Registry.add`; the
package announces itself to :func:`load_casestudies` through the entry-point group
``verifier.casestudies`` (``pyproject.toml``), so a paper's own repository can ship
claims that ``verifier casestudies`` and ``verifier search`` find by id.

Ids that were renamed stay reachable for one release through :meth:`Registry.alias`:
looking one up warns once (a :class:`FutureWarning` naming the new id).

>>> reg = Registry()
>>> @reg.claim(id="demo.trivial", source="none", statement="1/3 <= 1/2", expected="holds")
... def _demo():
...     from verifier.checks.results import CheckResult
...     from verifier.arithmetic.exact import decide_le
...     return CheckResult("1/3 <= 1/2", decide_le(sp.Rational(1, 3), sp.Rational(1, 2)).verdict)
>>> [o.matches for o in reg.run(reg.select(["demo"]))]
[True]
>>> reg.alias("demo.old", "demo.trivial")
>>> import warnings
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     reg.get("demo.old").id, str(w[0].message)
('demo.trivial', "claim id 'demo.old' is deprecated; use 'demo.trivial'")
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

import sympy as sp  # noqa: F401  (used by the doctest)

from ..checks.boxes import sub_boxes_on
from ..checks.results import CheckResult
from ..errors import InvalidParameter, UnknownClaim
from ..runtime.executors import Runner, ordered_map
from .coverage import PaperCoverage
from .model import Claim, ClaimKind, ClaimOutcome, Expected, SearchSpec, check_claim_id

__all__ = [
    "Registry",
    "REGISTRY",
    "ENTRY_POINT_GROUP",
    "decide_registered",
    "load_casestudies",
    "registered_claim",
    "travels_by_id",
]

#: The entry-point group through which case-study packages announce themselves.
ENTRY_POINT_GROUP = "verifier.casestudies"
#: Claims about points in flight on the workers per worker slot (:func:`outcome_stream`):
#: while this process decides a box claim it takes no results, and the workers go on
#: with the claims already handed to them.
LOOKAHEAD = 8


@dataclass
class Registry:
    """Registered claims by id, grouped by case study, with deprecated aliases."""

    claims: dict[str, Claim] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    #: the numbered statements of each paper and the claims that check them
    coverage: dict[str, PaperCoverage] = field(default_factory=dict)

    # -- registering -------------------------------------------------------------
    def add(self, claim: Claim) -> Claim:
        """Register ``claim`` (its id must be new and of the form ``paper.label[.variant]``)."""
        check_claim_id(claim.id)
        if claim.id in self.claims or claim.id in self.aliases:
            raise InvalidParameter(f"claim id {claim.id!r} is registered twice")
        claim.reference = claim.id
        self.claims[claim.id] = claim
        return claim

    def claim(
        self,
        *,
        id: str,
        source: str,
        statement: str,
        expected: Expected,
        kind: ClaimKind = "theorem",
        search: SearchSpec | None = None,
        instances: str = "",
        notes: str = "",
        casestudy: str | None = None,
        aliases: Iterable[str] = (),
        domain: Any = None,
        tightness: Any = None,
        exhaustive: str = "",
        scope_note: str = "",
    ) -> Callable[[Callable[[], CheckResult]], Callable[[], CheckResult]]:
        """Decorator registering a zero-argument check function as a claim's decider on
        its instances (``search`` adds the worst-case search under the same id).

        The case study defaults to the top-level package of the defining module below
        ``casestudies`` (``casestudies.ghazi2025.claims`` → ``ghazi2025``).
        """

        def deco(fn: Callable[[], CheckResult]) -> Callable[[], CheckResult]:
            parts = fn.__module__.split(".")
            cs = casestudy or (parts[1] if len(parts) > 1 else parts[0])
            self.add(
                Claim(
                    id=id,
                    source=source,
                    statement=statement,
                    expected=expected,
                    check=fn,
                    kind=kind,
                    search=search,
                    instances=instances,
                    notes=notes,
                    casestudy=cs,
                    domain=domain,
                    tightness=tightness,
                    exhaustive=exhaustive,
                    scope_note=scope_note,
                )
            )
            for old in aliases:
                self.alias(old, id)
            return fn

        return deco

    def add_coverage(self, coverage: PaperCoverage) -> PaperCoverage:
        """Register the statement list of one paper (:mod:`verifier.claims.coverage`);
        its claim ids are resolved when it is rendered, so it may be registered before
        the claims it names."""
        if coverage.paper in self.coverage:
            raise InvalidParameter(f"the coverage of {coverage.paper!r} is registered twice")
        self.coverage[coverage.paper] = coverage
        return coverage

    def alias(self, old: str, new: str) -> None:
        """Keep the renamed id ``old`` reachable (with a deprecation warning)."""
        if old in self.claims or (old in self.aliases and self.aliases[old] != new):
            raise InvalidParameter(f"alias {old!r} clashes with a registered id")
        self.aliases[old] = new

    # -- looking up --------------------------------------------------------------
    def casestudies(self) -> list[str]:
        return sorted({c.casestudy for c in self.claims.values()})

    def _canonical(self, name: str) -> str:
        new = self.aliases.get(name)
        if new is None:
            return name
        warnings.warn(f"claim id {name!r} is deprecated; use {new!r}", FutureWarning, stacklevel=3)
        return new

    def get(self, claim_id: str) -> Claim:
        """The claim ``claim_id`` (a deprecated alias warns and resolves)."""
        cid = self._canonical(claim_id)
        try:
            return self.claims[cid]
        except KeyError:
            raise UnknownClaim(f"no claim with id {claim_id!r}") from None

    def select(
        self,
        names: Sequence[str] | None = None,
        *,
        decider: str | None = None,
        exact: bool = False,
    ) -> list[Claim]:
        """Claims of the named case studies, or with the given ids / id prefixes
        (all claims when ``names`` is empty); only those decidable by ``decider``
        (``"instances"``, ``"box"`` or ``"search"``, or several separated by ``|``)
        when given.  With ``exact`` every name is a whole claim id (or a deprecated
        alias of one) and selects that claim alone, not the claims registered under
        it (``ghazi2025.thm10`` without ``ghazi2025.thm10.box``)."""
        wanted = None if decider is None else set(decider.split("|"))
        pool = [c for c in self.claims.values() if wanted is None or wanted & set(c.deciders)]
        if not names:
            return pool
        out: list[Claim] = []
        for n in names:
            n = self._canonical(n)
            if exact:
                hit = [c for c in pool if c.id == n]
                if not hit and n in self.claims:  # registered, but not for this decider
                    raise UnknownClaim(
                        f"claim {n!r} cannot be decided by {decider} (it is decided by "
                        f"{' and '.join(self.claims[n].deciders)})"
                    )
                if not hit:
                    what = "" if decider is None else f" that can be decided by {decider}"
                    kind = (
                        "a case study or paper, not a claim id"
                        if any(c.casestudy == n or c.paper == n for c in self.claims.values())
                        else "a prefix of claim ids, not a claim id"
                        if any(c.id.startswith(n + ".") for c in self.claims.values())
                        else "no registered claim id"
                    )
                    raise UnknownClaim(
                        f"no claim with id {n!r}{what}: with exact ids every name is a "
                        f"whole claim id, and {n!r} is {kind}"
                    )
                out.extend(c for c in hit if c not in out)
                continue
            hit = [
                c
                for c in pool
                if c.casestudy == n or c.paper == n or c.id == n or c.id.startswith(n + ".")
            ]
            if not hit:
                known = ", ".join(self.casestudies())
                what = "" if decider is None else f" that can be decided by {decider}"
                raise UnknownClaim(
                    f"no case study or claim named {n!r}{what} (case studies: {known})"
                )
            out.extend(c for c in hit if c not in out)
        return out

    def run(self, claims: Iterable[Claim], *, runner: Runner | None = None) -> list[ClaimOutcome]:
        """Decide each claim on its registered instances, in this process or, with a
        ``runner`` (:mod:`verifier.runtime.executors`: local processes, a dask cluster), in
        parallel: the claims about points travel as their ids and are found again
        through the entry points in the worker (:func:`decide_registered`); a claim
        over a box is decided here, one after the other, its box decisions split into
        pieces that run on ``runner`` (:func:`verifier.checks.boxes.sub_boxes_on`: a hard
        decision spreads over the workers).  The outcomes come back in the order of
        ``claims``, the same as without a runner."""
        return list(self.outcomes(claims, runner=runner))

    def outcomes(
        self, claims: Iterable[Claim], *, runner: Runner | None = None
    ) -> Iterator[ClaimOutcome]:
        """:meth:`run` as a stream: each outcome as soon as it and the ones before it
        are decided, so a caller can show progress and keep what was decided when the
        run is interrupted (closing the stream cancels the claims in flight)."""
        return outcome_stream(claims, runner, Claim.run, decide_registered, lambda c: (c.id,))


def travels_by_id(claim: Claim) -> bool:
    """Whether a worker process finds ``claim`` by its id: it is the claim of that id
    in :data:`REGISTRY` (the installed case studies), not one of a registry built in
    Python."""
    return REGISTRY.claims.get(claim.id) is claim


def outcome_stream(
    claims: Iterable[Claim],
    runner: Runner | None,
    decide_here: Callable[[Claim], ClaimOutcome],
    worker: Callable[..., tuple[Any, ...]],
    worker_args: Callable[[Claim], tuple[Any, ...]],
) -> Generator[ClaimOutcome, None, None]:
    """The outcomes of ``claims`` as a stream in their order, each decided by
    ``decide_here``; with a ``runner``, a claim about points is decided by id on the
    workers instead (``worker(*worker_args(claim))`` gives the fields of its outcome
    after the claim), in flight while a box claim is decided here, its pieces on the
    workers (:func:`verifier.checks.boxes.sub_boxes_on`): :data:`LOOKAHEAD` claims per
    worker slot are handed out ahead, so the workers keep busy meanwhile.  Closing the
    stream cancels the claims in flight."""
    claims = list(claims)
    if runner is None:
        for c in claims:
            yield decide_here(c)
        return
    points = [c for c in claims if c.domain is None]
    for c in points:
        if not travels_by_id(c):
            raise InvalidParameter(
                f"claim {c.id!r} is not in verifier.claims.REGISTRY: only claims of the "
                f"installed case studies can be decided by id in worker processes"
            )
    # the claims about points are in flight on the workers while a box claim is
    # decided here
    done = ordered_map(
        runner, worker, (worker_args(c) for c in points), window=LOOKAHEAD * runner.slots()
    )
    try:
        for c in claims:
            if c.domain is None:
                yield ClaimOutcome(c, *next(done))
            else:
                with sub_boxes_on(runner):
                    o = decide_here(c)
                yield o
    finally:
        close = getattr(done, "close", None)
        if close is not None:  # cancels the claims still in flight
            close()


#: The global registry, filled by the installed case-study packages.
REGISTRY = Registry()

_LOADED: set[str] = set()


@functools.lru_cache(maxsize=1)
def _entry_point_modules() -> tuple[str, ...]:
    """The modules of the entry-point group, read once per process (scanning the
    installed distributions costs ~20 ms, and the search resolves its claim once per
    batch)."""
    return tuple(ep.value for ep in entry_points(group=ENTRY_POINT_GROUP))


def load_casestudies(*modules: str) -> Registry:
    """Import the case-study packages (registering their claims) and return
    :data:`REGISTRY`.

    Without arguments, every package announced in the entry-point group
    :data:`ENTRY_POINT_GROUP`; an import error propagates (a broken case study is an
    error, never silently skipped).

    Parameters
    ----------
    *modules : str
        Modules to import (``"casestudies.ghazi2025.claims"``); each is imported once
        per process.

    Returns
    -------
    Registry
        :data:`REGISTRY`, holding every claim registered so far.

    Raises
    ------
    verifier.errors.UnknownClaim
        No module is given and no case-study package is installed.
    ImportError
        A case-study module cannot be imported.

    Examples
    --------
    >>> registry = load_casestudies("casestudies.ghazi2025.claims")
    >>> registry is REGISTRY, any(i.startswith("ghazi2025.") for i in registry.claims)
    (True, True)
    """
    names = list(modules)
    if not names:
        names = list(_entry_point_modules())
        if not names:
            raise UnknownClaim(
                f"no case-study package is installed (entry-point group {ENTRY_POINT_GROUP!r}); "
                f"install the project with `pip install -e .`"
            )
    for name in names:
        if name not in _LOADED:
            importlib.import_module(name)
            _LOADED.add(name)
    return REGISTRY


def registered_claim(claim_id: str) -> Claim:
    """The registered claim ``claim_id``, loading the case studies first."""
    return load_casestudies().get(claim_id)


def decide_registered(claim_id: str) -> tuple[CheckResult | None, float, str | None]:
    """Decide the registered claim ``claim_id`` on its instances (what a worker process
    runs for :meth:`Registry.run`): its result, seconds and error, without the claim
    object (which stays with the caller)."""
    o = registered_claim(claim_id).run()
    return o.result, o.seconds, o.error

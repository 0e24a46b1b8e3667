"""Instance spaces, exact encodings and the exact confirmation of a candidate.

A claim (:class:`verifier.claims.Claim`) is decided by search when it carries a
:class:`~verifier.claims.SearchSpec`: the statement quantified over an **instance
space** ("for every ε-DP base mechanism M and every γ, random stopping on M is
2ε-DP"), given as

* the space: generators of random instances and of the extreme points that matter
  for pure DP, local moves, and simplifications (for shrinking a counterexample);
* a float **screening objective** ``screen(instance) -> realized / claimed``: values
  above 1 flag a candidate violation (floats are used for screening only);
* a **document** ``document(instance) -> dict``: a spec document (the schema of
  :mod:`verifier.spec`) describing the instance — the base mechanisms, the algorithm
  applied to them (a registered transformer) and the claims: *premise* claims that
  must hold (each base mechanism is ε_i-DP, ...) and the *target* claim, whose id is
  the claim's id.

A candidate is a counterexample only when the exact checker — the very code
``verifier check`` runs on the certificate — proves the target claim **violated**
and every premise **holds** (:func:`confirm`).  No verdict comes from a float.

Instances are plain immutable data (frozen dataclasses of ``Fraction``, ``int``,
``str`` and tuples) so that they hash, pickle (process pools) and encode to JSON
exactly (checkpoints): :func:`encode` / :func:`decode`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any

import sympy as sp

from ..arithmetic.exact import Verdict, approx, combine_verdicts
from ..checks.results import CheckResult, Finding
from ..claims import Claim, SearchSpec, load_casestudies
from ..errors import InvalidParameter, UnknownClaim, VerifierError

__all__ = [
    "InstanceSpace",
    "Confirmation",
    "get_searchable",
    "search_spec",
    "searchable_claims",
    "instance_type",
    "encode",
    "decode",
    "instance_key",
    "batch_seed",
    "confirm",
    "finding_ratio",
    "result_ratio",
    "load_document",
    "TOLERANCE",
]

#: Screening tolerance: a realized loss of at most this size counts as zero where the
#: claimed bound is zero (float noise of an exactly equal pair of probabilities).
#: Screening only; verdicts are exact.
TOLERANCE = 1e-12


# ---------------------------------------------------------------------------
# exact JSON encoding of instances
# ---------------------------------------------------------------------------

_TYPES: dict[str, type] = {}


def instance_type(cls: type) -> type:
    """Class decorator: register a frozen dataclass as an instance type, so that
    :func:`encode` / :func:`decode` can write and read it (checkpoints)."""
    if not dataclasses.is_dataclass(cls):
        raise InvalidParameter(f"{cls.__name__} is not a dataclass")
    _TYPES[cls.__name__] = cls
    return cls


def encode(value: Any) -> Any:
    """A JSON-ready, exact encoding of an instance.

    ``Fraction`` → ``{"f": "p/q"}``, tuple → ``{"t": [...]}``, registered dataclass →
    ``{"dc": name, "v": {...}}``; ints, strings, bools, ``None`` and lists as they are.

    Parameters
    ----------
    value : object
        An instance: numbers, fractions, tuples, lists, dicts and registered
        dataclasses (:func:`instance_type`), nested.

    Returns
    -------
    object
        JSON-ready (``json.dumps`` writes it), decoded exactly by :func:`decode`.

    Raises
    ------
    verifier.errors.InvalidParameter
        A dataclass that is not registered, or a value of another type.

    Examples
    --------
    >>> encode((Fraction(1, 3), 2))
    {'t': [{'f': '1/3'}, 2]}
    >>> decode(encode((Fraction(1, 3), 2)))
    (Fraction(1, 3), 2)
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return {"x": repr(value)}
        return value
    if isinstance(value, Fraction):
        return {"f": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, tuple):
        return {"t": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        if _TYPES.get(name) is not type(value):
            raise InvalidParameter(f"instance type {name} is not registered (@instance_type)")
        return {
            "dc": name,
            "v": {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)},
        }
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    raise InvalidParameter(f"cannot encode {type(value).__name__} in an instance")


def decode(value: Any) -> Any:
    """The inverse of :func:`encode`.

    Parameters
    ----------
    value : object
        What :func:`encode` returned (possibly through JSON).

    Returns
    -------
    object
        The instance, exactly (fractions stay fractions).

    Raises
    ------
    verifier.errors.InvalidParameter
        An unknown instance type or encoding.

    Examples
    --------
    >>> decode({"t": [{"f": "1/3"}, 2]})
    (Fraction(1, 3), 2)
    """
    if value is None or isinstance(value, (bool, int, str, float)):
        return value
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "f" in value:
            return Fraction(value["f"])
        if "t" in value:
            return tuple(decode(v) for v in value["t"])
        if "x" in value:
            return float(value["x"])
        if "d" in value:
            return {decode(k): decode(v) for k, v in value["d"]}
        if "dc" in value:
            cls = _TYPES.get(value["dc"])
            if cls is None:
                raise InvalidParameter(f"unknown instance type {value['dc']!r} in a checkpoint")
            return cls(**{k: decode(v) for k, v in value["v"].items()})
    raise InvalidParameter(f"cannot decode {value!r}")


def instance_key(inst: Any) -> str:
    """A canonical text key of an instance (deduplication)."""
    return json.dumps(encode(inst), sort_keys=True, separators=(",", ":"))


def batch_seed(seed: int, index: int) -> int:
    """The seed of batch ``index`` of a search with master ``seed``: a hash, so the
    work partition is the same on every machine and for every number of workers.

    >>> batch_seed(0, 0) == batch_seed(0, 0) != batch_seed(0, 1)
    True
    """
    h = hashlib.sha256(f"verifier-search:{int(seed)}:{int(index)}".encode()).digest()
    return int.from_bytes(h[:8], "big")


# ---------------------------------------------------------------------------
# spaces and claims
# ---------------------------------------------------------------------------


class InstanceSpace(ABC):
    """A space of instances: random and extreme generators, local moves and
    simplifications.

    Subclasses implement :meth:`random`; the other methods have working defaults
    (an extreme point is a random point, a local move is a fresh random point, no
    simplification).  Every method must be a deterministic function of its
    arguments (the ``rng`` included): the search is reproducible only if they are.
    """

    @abstractmethod
    def random(self, rng: Random) -> Any:
        """A random instance."""

    def extreme(self, rng: Random) -> Any:
        """An instance at an extreme point of the space (for pure DP: likelihood
        ratios at ``e^{±ε}``, randomized-response-like pairs)."""
        return self.random(rng)

    def neighbour(self, inst: Any, rng: Random, scale: float) -> Any:
        """A nearby instance (a local move of relative size ``scale``)."""
        return self.random(rng)

    def shrink(self, inst: Any) -> Iterable[Any]:
        """Simpler instances (fewer outputs, fewer mechanisms, smaller
        denominators), the most aggressive first.  Each must have a smaller
        :meth:`complexity` than ``inst`` to be tried."""
        return ()

    def complexity(self, inst: Any) -> tuple[float, ...]:
        """A size, compared lexicographically: shrinking only accepts smaller ones."""
        return (0.0,)

    def describe(self, inst: Any) -> str:
        """A short human-readable description of ``inst``."""
        return repr(inst)


def searchable_claims() -> list[Claim]:
    """Every registered claim that can be decided by search, in registration order.

    Loads the installed case studies first (:func:`verifier.claims.load_casestudies`).

    Returns
    -------
    list of Claim
        Each with a search space (``claim.search``).

    Raises
    ------
    verifier.errors.UnknownClaim
        No case-study package is installed.

    Examples
    --------
    >>> claims = searchable_claims()
    >>> all(c.search is not None for c in claims), "liu_talwar2019.thm32" in [c.id for c in claims]
    (True, True)
    """
    return load_casestudies().select(decider="search")


def get_searchable(claim_id: str) -> Claim:
    """The registered claim ``claim_id``, which must have a search space
    (:class:`~verifier.errors.UnknownClaim` otherwise).

    Parameters
    ----------
    claim_id : str
        A registered id (or alias).

    Returns
    -------
    Claim

    Raises
    ------
    verifier.errors.UnknownClaim
        No such claim, or it has no search space; the message lists the searchable
        ones.

    Examples
    --------
    >>> c = get_searchable("liu_talwar2019.B1.best_of_k_eps")
    >>> c.expected, c.source
    ('refuted', 'Liu & Talwar 2019, App. B.1')
    """
    reg = load_casestudies()
    try:
        claim = reg.get(claim_id)
    except UnknownClaim:
        claim = None
    if claim is None or claim.search is None:
        known = ", ".join(c.id for c in reg.select(decider="search"))
        what = "no claim" if claim is None else "no searchable claim"
        raise UnknownClaim(
            f"{what} {claim_id!r} (searchable: {known}; or give a spec file)"
        ) from None
    return claim


def search_spec(claim: Claim) -> SearchSpec:
    """The claim's search spec (:class:`~verifier.errors.InvalidParameter` if it has none)."""
    if claim.search is None:
        raise InvalidParameter(f"claim {claim.id!r} has no search space")
    return claim.search


# ---------------------------------------------------------------------------
# exact confirmation
# ---------------------------------------------------------------------------


def load_document(doc: dict[str, Any]) -> Any:
    """Load a spec document (a dict in the schema of the files) with
    :func:`verifier.spec.loads_spec` — the same reader ``verifier check`` uses."""
    from ..spec import loads_spec

    return loads_spec(json.dumps(doc, ensure_ascii=False), "json", source="<search>")


@dataclass
class Confirmation:
    """The exact verdicts on one instance: the target claim's and the premises'."""

    verdict: Verdict
    premises: Verdict
    result: CheckResult | None
    ratio: float | None
    error: str | None = None

    @property
    def confirmed(self) -> bool:
        """True when the target is proved violated and every premise proved to hold."""
        return self.verdict is Verdict.VIOLATED and self.premises is Verdict.HOLDS


def confirm(claim: Claim, inst: Any, doc: dict[str, Any] | None = None) -> Confirmation:
    """Decide the claim exactly on ``inst``: load its document and run every claim in
    it with :meth:`verifier.spec.SpecClaim.run`.

    Errors from the exact machinery (an instance the algorithm refuses, ...) are
    reported as an undecided confirmation with the message, never raised.

    Parameters
    ----------
    claim : Claim
        A searchable claim.
    inst : object
        An instance of its search space.
    doc : dict, optional
        The spec document of the instance (default: built from ``inst``).

    Returns
    -------
    Confirmation
        The target's verdict, the premises' verdict, the result and the ratio;
        ``confirmed`` when the target is violated and every premise holds.

    Raises
    ------
    Exception
        Only an internal error (a bug): every
        :class:`~verifier.errors.VerifierError` — a claim without a search space, an
        instance the algorithm refuses — comes back as an undecided confirmation
        with its message.

    Examples
    --------
    The counterexample a search reports is re-decided exactly:

    >>> from verifier.search import search
    >>> claim = get_searchable("liu_talwar2019.B1.best_of_k_eps")
    >>> r = search(claim, instances=60, seed=1, seconds=None)
    >>> c = confirm(claim, r.counterexample)
    >>> c.confirmed, c.verdict, c.premises
    (True, <Verdict.VIOLATED: 'violated'>, <Verdict.HOLDS: 'holds'>)
    """
    try:
        d = search_spec(claim).document(inst) if doc is None else doc
        spec = load_document(d)
        premises: list[Verdict] = []
        target: CheckResult | None = None
        for c in spec.claims:
            r = c.run()
            if c.id == claim.id:
                target = r
            else:
                premises.append(r.verdict)
        if target is None:
            raise InvalidParameter(f"the document of {claim.id!r} has no target claim")
        return Confirmation(
            target.verdict, combine_verdicts(premises), target, result_ratio(target)
        )
    except VerifierError as err:
        return Confirmation(Verdict.UNDECIDED, Verdict.UNDECIDED, None, None, str(err))


def _value(x: sp.Expr) -> float:
    if x is sp.oo:
        return math.inf
    if x is -sp.oo:
        return -math.inf
    return approx(x)


def finding_ratio(f: Finding) -> float:
    """realized / claimed of one finding (a display value, never a verdict).

    A claimed bound of 0 gives 0 when the realized value is at most 0 and ``inf``
    otherwise; an infinite bound gives 0.
    """
    if f.lower_bound:
        raise InvalidParameter("a lower-bound finding has no realized/claimed ratio")
    realized, claimed = f.realized, f.claimed
    if realized.free_symbols or claimed.free_symbols:
        return math.nan
    c = _value(claimed)
    r = _value(realized)
    if c == math.inf:
        return 0.0
    if c <= 0:
        if f.verdict is Verdict.HOLDS:
            return 0.0
        return math.inf if r > 0 or f.verdict is Verdict.VIOLATED else 0.0
    return r / c


def result_ratio(result: CheckResult) -> float | None:
    """The largest :func:`finding_ratio` of a result (``None`` without findings)."""
    vals = [finding_ratio(f) for f in result.all_findings() if not f.lower_bound]
    vals = [v for v in vals if not math.isnan(v)]
    return max(vals) if vals else None


def iter_unique(items: Iterable[Any]) -> Iterator[Any]:
    """``items`` without repetitions (by :func:`instance_key`), in order."""
    seen: set[str] = set()
    for it in items:
        k = instance_key(it)
        if k not in seen:
            seen.add(k)
            yield it

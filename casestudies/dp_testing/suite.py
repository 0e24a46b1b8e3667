"""The model of one benchmark mechanism and its exact decision.

A :class:`SuiteEntry` is one mechanism of a DP testing tool's benchmark, on the tool's
own parameters: the ε it is run with (``claimed``: the mechanism claims ε-DP for it),
the input pairs the tool tests it on, and a function computing the mechanism's exact
ε on those pairs (:class:`ExactEpsilon`: the largest privacy loss over the pairs, in
both orders, and over every output — for a mechanism with a density, the supremum of
the density ratio).  :func:`decide` turns it into the claim's verdict: *holds* when
the exact ε is at most the claimed one (decided with certified arithmetic), *violated*
otherwise.

The input pairs are those of StatDP's ``generate_databases`` (``statdp/generators.py``)
as DP-Sniper's ``PatternGenerator`` (``dpsniper/input/pattern_generator.py``) emits
them: the same patterns, clipped to the input domain, each pair also swapped
(:func:`pattern_pairs`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

from verifier.arithmetic.exact import exact
from verifier.checks.certified import check_le
from verifier.checks.results import CheckResult, conjunction
from verifier.claims import SearchSpec, Tightness

__all__ = [
    "Vector",
    "ExactEpsilon",
    "SuiteEntry",
    "pattern_pairs",
    "decide",
    "piecewise_json",
    "DPSNIPER",
    "STATDP",
]

#: Citations of the two tools (their repositories are the source of each mechanism).
DPSNIPER = "Bichsel et al. 2021 (DP-Sniper, IEEE S&P), repository eth-sri/dp-sniper"
STATDP = "Ding et al. 2018 (StatDP, CCS), repository cmla-psu/statdp@16f389b"

Vector = tuple[Fraction, ...]


def pattern_pairs(
    dimensions: int,
    component_wise: bool,
    domain: tuple[Any, Any] | None = None,
) -> list[tuple[Vector, Vector]]:
    """The input pairs of DP-Sniper's ``PatternGenerator(InputDomain(dimensions, _,
    domain), component_wise)``, in its order: each pattern ``(a1, a2)`` of StatDP's
    ``generate_databases`` (one below, one above; with ``component_wise`` also one
    above rest below, one below rest above, half half, all above, all below, X shape),
    clipped to ``domain``, followed by its swap ``(a2, a1)``.

    >>> [tuple(map(int, a)) + tuple(map(int, b)) for a, b in pattern_pairs(1, False)]
    [(1, 0), (0, 1), (1, 2), (2, 1)]
    >>> len(pattern_pairs(5, True))
    16
    """
    n = dimensions
    if n < 1:
        raise ValueError(f"dimensions must be at least 1, got {n}")
    half = n // 2
    ones = [1] * n
    raw: list[tuple[list[int], list[int]]] = [
        (ones, [0] + [1] * (n - 1)),
        (ones, [2] + [1] * (n - 1)),
    ]
    if component_wise:
        raw += [
            (ones, [2] + [0] * (n - 1)),
            (ones, [0] + [2] * (n - 1)),
            (ones, [2] * half + [0] * (n - half)),
            (ones, [2] * n),
            (ones, [0] * n),
            ([1] * half + [0] * (n - half), [0] * half + [1] * (n - half)),
        ]

    def clip(v: list[int]) -> Vector:
        out = [Fraction(x) for x in v]
        if domain is not None:
            lo, hi = Fraction(domain[0]), Fraction(domain[1])
            out = [min(hi, max(lo, x)) for x in out]
        return tuple(out)

    pairs: list[tuple[Vector, Vector]] = []
    for a1, a2 in raw:
        p, q = clip(a1), clip(a2)
        pairs += [(p, q), (q, p)]
    return pairs


@dataclass(frozen=True)
class ExactEpsilon:
    """The exact ε of a mechanism on a set of input pairs.

    ``value`` is the closed form (``sp.oo`` when the privacy loss is unbounded);
    ``per_pair`` the exact ε of each ordered pair (a label and its value); ``witness``
    says where the supremum is attained or approached (pair, output or point, limit);
    ``method`` how it was computed (which exact algorithm: a finite distribution, a
    supremum of a density ratio over finitely many points, additivity over independent
    components, ...).
    """

    value: sp.Expr
    per_pair: tuple[tuple[str, sp.Expr], ...] = ()
    witness: str = ""
    method: str = ""
    #: for an unbounded ε on finitely many outputs: the exact probabilities
    #: ``(P_D(o), P_D'(o))`` of the witness output on the witness pair, ``P_D'(o) = 0 <
    #: P_D(o)``; :func:`decide` states the violation as ``P_D(o) <= e^ε P_D'(o)``, an
    #: inequality between exact numbers that ``verifier check`` re-verifies
    at_witness: tuple[sp.Expr, sp.Expr] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", exact(self.value))
        if self.at_witness is not None:
            p, q = (exact(x) for x in self.at_witness)
            if self.value != sp.oo or q != 0:
                raise ValueError(
                    "at_witness is for an unbounded epsilon, where P_D'(o) = 0: "
                    f"got value {self.value}, P_D'(o) = {q}"
                )
            object.__setattr__(self, "at_witness", (p, q))


@dataclass(frozen=True)
class SuiteEntry:
    """One mechanism of a benchmark suite (module docstring).

    ``name`` is DP-Sniper's class name in snake case (``report_noisy_max3``) or, for
    StatDP's own algorithms, the function name (``statdp_isvt1``); the claim id is
    ``dp_testing.<name>``.  ``expected`` comes from the literature the tools cite
    (``notes`` says which), never from the computed value; a mechanism published as
    private and known not to be is a ``negative-control``.  ``out_of_reach`` (with
    ``exact`` unset) records why a mechanism is not decided.
    """

    name: str
    tool: Literal["DP-Sniper", "StatDP", "both"]
    source: str
    claimed: Any
    pairs: str
    expected: Literal["holds", "refuted"]
    exact: Callable[[], ExactEpsilon] | None = None
    kind: Literal["theorem", "negative-control", "finding"] = "theorem"
    statement: str = ""
    notes: str = ""
    out_of_reach: str = ""
    #: the exact output distributions or density closed forms on each input pair
    #: (JSON-ready), for ``verifier export``
    export: Callable[[], dict[str, Any]] | None = None
    aliases: Sequence[str] = field(default=())
    #: the exact ε of the instance StatDP ran, when DP-Sniper's StatDP wrapper
    #: (``statdpwrapper/experiments/mechanism_config.py``) ran another instance than
    #: DP-Sniper's (other parameters, other input text): StatDP's published values
    #: are compared with it; ``statdp_note`` says how the two instances differ
    statdp_exact: Callable[[], ExactEpsilon] | None = None
    statdp_note: str = ""
    #: the statement beyond the tools' pairs: ``whole()`` decides every pair of the
    #: finite domain ``exhaustive`` names, which bounds every neighbouring input pair
    #: (the argument is in the entry's ``notes`` and NOTES.md); the claim is then decided
    #: on the tools' pairs and on that domain
    whole: Callable[[], CheckResult] | None = None
    exhaustive: str = ""
    #: or a worst-case search over neighbouring input pairs (:mod:`.search`)
    search: SearchSpec | None = None
    #: why a theorem stays on the tools' pairs (no finite domain, no search)
    scope_note: str = ""
    #: a declared tightness (an approached bound with its family and proved limit)
    tightness: Tightness | None = None
    #: a member of that family decided exactly with the claim (its ratio within 1 % of
    #: the bound, so that the statement tightened by 1 % is refuted by the claim's own
    #: decision); ``family_what`` names it
    family: Callable[[], ExactEpsilon] | None = None
    family_what: str = ""

    @property
    def id(self) -> str:
        return f"dp_testing.{self.name}"


def decide(entry: SuiteEntry) -> CheckResult:
    """The verdict of ``entry``: its exact ε against the claimed ε (a certified
    comparison, :func:`verifier.checks.certified.check_le`), with the exact ε recorded as
    ``measured["epsilon"]`` (``exact_epsilon`` in the claim's JSON record)."""
    if entry.exact is None:
        raise ValueError(f"{entry.id}: not decided ({entry.out_of_reach})")
    eps = entry.exact()
    if eps.at_witness is not None:
        # ε = oo: an output possible on one input of the pair only; the violated
        # inequality P_D(o) <= e^ε P_D'(o) between exact numbers is the certificate
        p, q = eps.at_witness
        result = check_le(
            p,
            sp.exp(exact(entry.claimed)) * q,
            f"{entry.id}: P_D(o) <= e^eps P_D'(o) at {eps.witness} (the exact epsilon is "
            "unbounded: the output is possible on one input only)",
            note=eps.witness,
            quantity="probability",
        )
    else:
        result = check_le(
            eps.value,
            exact(entry.claimed),
            f"{entry.id}: exact epsilon on {entry.pairs} <= the claimed epsilon",
            note=eps.witness,
            quantity="epsilon",
        )
    if eps.method:
        result.notes.append(f"exact epsilon {eps.value} ({eps.method})")
    result.notes += [f"{label}: {v}" for label, v in eps.per_pair]
    result.measured["epsilon"] = eps.value
    parts = [result]
    if entry.whole is not None:
        parts.append(entry.whole())
    if entry.family is not None:
        member = entry.family()
        parts.append(
            check_le(
                member.value,
                exact(entry.claimed),
                f"{entry.id}: exact epsilon on {entry.family_what} <= the claimed epsilon",
                note=member.witness,
                quantity="epsilon",
            )
        )
    if len(parts) > 1:
        beyond = [w for w in (entry.exhaustive, entry.family_what) if w]
        result = conjunction(f"{entry.id}: on the tools' pairs and on " + "; ".join(beyond), parts)
        result.measured["epsilon"] = eps.value
    return result


def piecewise_json(f: Any, u: sp.Expr) -> list[dict[str, Any]]:
    """A piecewise density ``Σ c v^p e^{-k u v}`` (a :class:`verifier.algorithms.noise.
    expoly.PW` with :class:`~verifier.algorithms.noise.expoly.Laurent` coefficients in
    ``W = e^{-u}``) as JSON: per piece its ends (``None`` infinite) and its closed form
    in ``v``, sympy syntax."""
    v = sp.Symbol("v", real=True)
    out = []
    for i, piece in enumerate(f.pieces):
        lo, hi = f.bounds(i)
        terms = [
            c.to_sympy(u) * v**p * sp.exp(-k * u * v) for (k, p), c in sorted(piece.terms.items())
        ]
        out.append({"from": lo, "to": hi, "density": str(sp.Add(*terms))})
    return out

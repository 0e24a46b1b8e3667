"""Talwar 2025: the instance spaces of the worst-case searches.

Every search is a :class:`verifier.claims.SearchSpec` over a :class:`GridSpace` (a
product of finite grids; integer codes select an algorithm, a seed or a graph).  The
screen is a float (never a verdict); a candidate — and the best instance when nothing
is found — is decided exactly by the document it builds, the spec file ``verifier
check`` reads:

* for mechanisms (Props 2, 4, 5): the mechanism's exact table on its graph, the
  premise ("``M`` is ``log(a)``-DP", "``M`` is ``(log a, δ)``-DP") and the target
  privacy claim (pure or approximate DP at graph distance ``Δ``, or the extension's
  ``2ε``-DP);
* otherwise (the proofs' chains run on an algorithm, the guarantees of Theorems 11–14
  and Proposition 3): the claim's own exact decision on the instance, and as the target
  its worst finding written as an ``inequality`` between the two exact numbers.

Chain screens (Theorems 7, 9, 10, Corollary 8) mirror the exact chain of
:func:`.theory.lower_bound_chain` in floats with numpy (logarithms where the
probabilities are tiny): the extension on the lumped cube, the algorithm's CDF
transform ``Φ``, the privacy ratio between neighbouring classes and every inequality
of the chain as realized/claimed (claimed/realized for a lower bound).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from verifier.arithmetic.exact import DEFAULT_PRECISION, Verdict, approx, enclose
from verifier.checks.results import CheckResult, Finding
from verifier.claims import SearchSpec
from verifier.errors import VerifierError
from verifier.search.certificates import expr_text, skeleton_document
from verifier.search.inequalities import GridPoint, GridSpace

__all__ = [
    "exact_search",
    "finding_ratio",
    "result_ratio",
    "values",
]

F = Fraction


def values(space: GridSpace, inst: GridPoint) -> dict[str, Fraction]:
    """The named values of ``inst``."""
    return space.point(inst)


# ---------------------------------------------------------------------------
# exact results as searches
# ---------------------------------------------------------------------------


def finding_ratio(f: Finding) -> float:
    """realized/claimed (claimed/realized for a lower bound) of one finding, as a float
    for screening: ``inf`` when the bound is violated by an infinite amount, ``0``
    for an infinite allowance, ``nan`` when it has no meaning (symbolic, a
    non-positive bound that holds)."""
    num, den = (f.claimed, f.realized) if f.lower_bound else (f.realized, f.claimed)
    for x in (num, den):
        if not isinstance(x, sp.Expr) or x.free_symbols:
            return math.nan
    if den is sp.oo or num is -sp.oo:
        return 0.0
    if num is sp.oo or den is -sp.oo:
        return math.inf
    try:
        a, b = approx(num), approx(den)
    except VerifierError:
        return math.nan
    if b > 0:
        return a / b
    if f.verdict is Verdict.VIOLATED:
        return math.inf
    return math.nan


#: Relative margin by which a finding's certified ratio range must fall below another
#: finding's before :func:`_near_maximum` drops it (its float ratio, computed from
#: 15-digit display values, then cannot be the largest either).
_PRUNE_MARGIN = 1e-9


def _ratio_range(f: Finding) -> tuple[float, float] | None:
    """Float bounds of :func:`finding_ratio` from the enclosures of its two numbers
    at :func:`~verifier.arithmetic.exact.approx`'s first precision (the decisions
    enclosed them there already), or ``None`` when they do not bound it cheaply (a
    special case, a symbol, a bound that is not certainly positive)."""
    c, bits = f.claimed, DEFAULT_PRECISION.start_bits
    if not isinstance(c, sp.Expr) or c is sp.oo or c is sp.S.NegativeInfinity:
        return None
    if f.realized_is_infinite():
        return None
    try:
        r, ce = f.realized_enclosure(bits), enclose(c, bits)
    except VerifierError:  # a symbol, a function without an enclosure
        return None
    a, b = (ce, r) if f.lower_bound else (r, ce)
    if a is None or b is None or not b.lo > 0:
        return None
    alo, ahi, blo, bhi = float(a.lo), float(a.hi), float(b.lo), float(b.hi)
    if not (blo > 0 and all(map(math.isfinite, (alo, ahi, bhi)))):
        return None  # beyond double precision: its display value decides
    lo = alo / (bhi if alo >= 0 else blo)
    hi = ahi / (blo if ahi >= 0 else bhi)
    return lo, hi


def _near_maximum(findings: list[Finding]) -> list[tuple[int, Finding]]:
    """The findings (with their index) whose :func:`finding_ratio` may be the largest:
    a finding whose ratio range lies certainly below another's lower end (by
    :data:`_PRUNE_MARGIN`) is dropped before the display values of the others are
    computed."""
    ranges = [_ratio_range(f) for f in findings]
    lows = [r[0] for r in ranges if r is not None]
    if not lows:
        return list(enumerate(findings))
    top = max(lows)
    cut = top - abs(top) * _PRUNE_MARGIN
    return [
        (i, f)
        for i, (f, r) in enumerate(zip(findings, ranges, strict=True))
        if r is None or r[1] >= cut
    ]


def result_ratio(result: CheckResult) -> float:
    """The largest :func:`finding_ratio` of the conclusion's findings (a violated
    finding with no meaningful ratio counts as ``inf``)."""
    best = -math.inf
    for _, f in _near_maximum(result.all_findings()):
        r = finding_ratio(f)
        if math.isnan(r):
            r = math.inf if f.verdict is Verdict.VIOLATED else -math.inf
        best = max(best, r)
    if result.verdict is Verdict.VIOLATED:
        best = max(best, math.inf if best <= 1 else best)
    return best


def _worst(result: CheckResult) -> Finding | None:
    bad = [f for f in result.all_findings() if f.verdict is Verdict.VIOLATED]
    if bad:
        return bad[0]
    fs = [(finding_ratio(f), i, f) for i, f in _near_maximum(result.all_findings())]
    fs = [t for t in fs if not math.isnan(t[0])]
    if not fs:
        return None
    return max(fs, key=lambda t: (t[0], -t[1]))[2]


@functools.lru_cache(maxsize=256)
def _decided(
    decide: Callable[[GridSpace, GridPoint], CheckResult], space: GridSpace, inst: GridPoint
) -> CheckResult:
    return decide(space, inst)


def _exact_screen(
    inst: GridPoint, space: GridSpace, decide: Callable[[GridSpace, GridPoint], CheckResult]
) -> float:
    return result_ratio(_decided(decide, space, inst))


def _finding_document(
    inst: GridPoint,
    space: GridSpace,
    decide: Callable[[GridSpace, GridPoint], CheckResult],
    claim_id: str,
    statement: str,
    source: str,
) -> dict[str, Any]:
    """The document of an instance: its worst finding as an ``inequality`` claim
    between the two exact numbers (lower bounds written ``claimed <= realized``)."""
    result = _decided(decide, space, inst)
    f = _worst(result)
    doc = skeleton_document(f"{source}: {statement} at {space.describe(inst)}")
    if f is None:
        raise VerifierError(f"{claim_id}: the decision at {space.describe(inst)} has no finding")
    lhs, rhs = (f.claimed, f.realized) if f.lower_bound else (f.realized, f.claimed)
    where = [x for x in (f.output, f.pair) if x is not None]
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": expr_text(lhs),
            "rhs": expr_text(rhs),
            "expected": "refuted",
            "statement": f"{statement} ({space.describe(inst)}; its worst inequality"
            + (f" at {where}" if where else "")
            + ")",
            "source": source,
        }
    )
    return doc


def exact_search(
    claim_id: str,
    space: GridSpace,
    decide: Callable[[GridSpace, GridPoint], CheckResult],
    statement: str,
    source: str,
    *,
    screen: Callable[[GridSpace, GridPoint], float] | None = None,
    notes: str,
    default_instances: int = 400,
    casestudies_instances: int | None = 80,
) -> SearchSpec:
    """A search whose instances are decided by ``decide(space, inst)`` (the claim's own
    exact decision of one instance).  ``screen(space, inst)`` is a float mirror (default:
    the exact decision itself, cached, its largest realized/claimed); the document is the
    worst finding of the exact decision (:func:`_finding_document`)."""
    scr: Callable[[GridPoint], float]
    if screen is None:
        scr = functools.partial(_exact_screen, space=space, decide=decide)
    else:
        scr = functools.partial(_call_screen, space=space, screen=screen)
    return SearchSpec(
        space=space,
        screen=scr,
        document=functools.partial(
            _finding_document,
            space=space,
            decide=decide,
            claim_id=claim_id,
            statement=statement,
            source=source,
        ),
        default_instances=default_instances,
        casestudies_instances=casestudies_instances,
        exact_best=True,
        notes=notes,
    )


def _call_screen(
    inst: GridPoint, space: GridSpace, screen: Callable[[GridSpace, GridPoint], float]
) -> float:
    return float(screen(space, inst))


# ---------------------------------------------------------------------------
# float mirrors of the lower-bound chains (Theorems 7, 9, 10; Corollary 8)
# ---------------------------------------------------------------------------


def lumped_extension(n: int, partial: dict[int, tuple[float, float]], eps: float) -> np.ndarray:
    """``log p̂_j(o)`` of the extension on the lumped cube (classes ``0..n``), outputs
    ``(BAD, GOOD)``: ``m_j(o) = min_b e^{ε|j-b|} p_b(o)``, normalised (Prop. 2's
    construction, :func:`verifier.constructions.extension.extend_on_lumped_cube`)."""
    js = np.arange(n + 1, dtype=float)
    logm = np.full((n + 1, 2), np.inf)
    for b, (bad, good) in partial.items():
        for k, p in enumerate((bad, good)):
            cand = eps * np.abs(js - b) + (math.log(p) if p > 0 else -np.inf)
            logm[:, k] = np.minimum(logm[:, k], cand)
    z = np.logaddexp(logm[:, 0], logm[:, 1])
    return logm - z[:, None]


def theorem7_logs(eps: float, T: float) -> tuple[int, float, np.ndarray]:
    """``(Δ, ln q, log p̂)`` of Theorem 7's instance (``Δ = ⌈ln(4T)/ε⌉``)."""
    Delta = math.ceil(math.log(4 * T) / eps - 1e-12)
    lq = -eps * Delta
    q = math.exp(lq)
    return Delta, lq, lumped_extension(Delta, {0: (1 - q, q), Delta: (q, 1 - q)}, eps)


def theorem9_logs(eps: float, T: float) -> tuple[int, float, np.ndarray]:
    """``(Δ, ln q, log p̂)`` of Theorem 9's instance (``n = 10Δ`` classes by the
    distance to the centre; ``Δ = ⌈ln(8T)/ε⌉``)."""
    Delta = math.ceil(math.log(8 * T) / eps - 1e-12)
    lq = -eps * Delta
    q = math.exp(lq)
    n = 10 * Delta
    js = np.arange(n + 1, dtype=float)
    # the far classes share one distribution: the nearest (class max(j, Delta+1)) wins
    far = np.maximum(0.0, (Delta + 1) - js)
    logm = np.empty((n + 1, 2))
    for k, (p0, pf) in enumerate(((q, 1 - q), (1 - q, q))):
        logm[:, k] = np.minimum(eps * js + math.log(p0), eps * far + math.log(pf))
    z = np.logaddexp(logm[:, 0], logm[:, 1])
    return Delta, lq, logm - z[:, None]


def _phi(
    kind: str, p: dict[str, float], C: np.ndarray, U: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(log Φ(C), log(1 - Φ(C)))`` from ``C`` and ``U = 1 - C`` (floats)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if kind == "max":
            T = p["T"]
            lp = T * np.log(C)
            return lp, np.log(-np.expm1(lp))
        g = p["gamma"]
        den = U + g * C
        lp, lu = np.log(g * C / den), np.log(U / den)
        if kind == "lt":
            return lp, lu
        c = p["c"]
        lpc = c * lp
        return lpc, np.log(-np.expm1(lpc))


def _differences(lp: np.ndarray, lu: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``Pr[o_i] = Φ(C_i) - Φ(C_{i-1})`` from ``log Φ`` and ``log(1 - Φ)`` (the
    difference of the smaller side, for precision); zero where the input is zero."""
    z = np.zeros((rows.shape[0], 1))
    phi, up = np.exp(lp), np.exp(lu)
    phi_prev = np.concatenate([z, phi[:, :-1]], axis=1)
    up_prev = np.concatenate([z + 1.0, up[:, :-1]], axis=1)
    out = np.where(phi < 0.5, phi - phi_prev, up_prev - up)
    return np.where(rows > 0, np.clip(out, 0.0, 1.0), 0.0)


def _cdfs(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``C_i = Pr[ranked <= o_i]`` and ``U_i = Pr[ranked > o_i]`` (each summed on its
    own side, for precision)."""
    C = np.minimum(np.cumsum(rows, axis=1), 1.0)
    tail = np.cumsum(rows[:, ::-1], axis=1)[:, ::-1]  # Pr[ranked >= o_i]
    U = np.concatenate([tail[:, 1:], np.zeros((rows.shape[0], 1))], axis=1)
    return C, U


def apply_rows(kind: str, p: dict[str, float], rows: np.ndarray) -> np.ndarray:
    """The algorithm's output probabilities per class (rows in rank order, lowest
    first): ``Pr[o_i] = Φ(C_i) - Φ(C_{i-1})``."""
    C, U = _cdfs(rows)
    lp, lu = _phi(kind, p, C, U)
    return _differences(lp, lu, rows)


def best_of_calls(calls: Sequence[tuple[np.ndarray, int]]) -> np.ndarray:
    """The best of independent calls (rows per class, rank order; ``(rows, count)``):
    ``Pr[ranked <= o] = Π F_call(<= o)^count`` (:mod:`.adversaries`)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = np.minimum(sum(k * np.log(_cdfs(r)[0]) for r, k in calls), 0.0)
        lu = np.log(-np.expm1(lp))
    total = np.sum([r for r, _ in calls], axis=0)
    return _differences(lp, lu, total)


def dp_ratio(P: np.ndarray) -> float:
    """The largest ``|ln P_j(o) - ln P_{j+1}(o)|`` over neighbouring classes (the
    realized pure ε of a mechanism on the lumped cube)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        L = np.log(P)
        a, b = L[:-1], L[1:]
        both = np.isfinite(a) & np.isfinite(b)
        one = np.isfinite(a) ^ np.isfinite(b)
        if one.any():
            return math.inf
        d = np.abs(a - b)[both]
    return float(d.max()) if d.size else 0.0


def rdp_value(P: np.ndarray, alpha: float) -> float:
    """``max D_α`` over ordered neighbouring classes."""
    best = 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        L = np.log(P)
        for x, y in ((L[:-1], L[1:]), (L[1:], L[:-1])):
            s = np.where(np.isfinite(x), alpha * x + (1 - alpha) * y, -np.inf)
            m = s.max(axis=1)
            v = (m + np.log(np.exp(s - m[:, None]).sum(axis=1))) / (alpha - 1)
            best = max(best, float(v.max()))
    return best

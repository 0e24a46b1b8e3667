"""Talwar 2025: worst-case searches over the oracle algorithms for the proofs' chains
(Theorems 7, 9, 10 and Corollary 8).

The proofs quantify over every oracle algorithm within the hypotheses (privacy ``cε``,
failure ``≤ γ``, ``T`` expected calls) and over ``ε`` (with ``T ≥ e^ε``; ``ε ≤ 3``
for Theorems 9 and 10).  The spaces here range over the algorithms of §4 — ``A_max^T``,
``A_LT,γ`` and the hybrids — and the adaptive algorithms of :mod:`.adversaries` that
query other inputs, at every ``ε`` of a grid, on the lower-bound instance built for the
algorithm's ``T`` (:mod:`verifier.constructions.lower_bounds`).  The screen is the
float mirror of the chain (:mod:`.search`); the exact decision is
:func:`.theory.lower_bound_chain` / :func:`.theory.corollary8_chain` itself.

Instance sizes are capped (``Δ ≤ 70`` for Theorem 7, ``n = 10Δ ≤ 300`` for Theorems
9–10) so that the exact decision of the best instance stays within seconds.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from verifier.algorithms.talwar import HALF, OracleAlgorithm, a_lt, a_max, hybrid
from verifier.checks.results import CheckResult
from verifier.claims import SearchSpec
from verifier.constructions.lower_bounds import (
    theorem7_instance,
    theorem9_instance,
    theorem10_instance,
)
from verifier.search.inequalities import GridPoint, GridSpace

from .adversaries import AdaptiveAlgorithm, blind_probe, neighbour_probe
from .search import (
    apply_rows,
    best_of_calls,
    dp_ratio,
    exact_search,
    rdp_value,
    theorem7_logs,
    theorem9_logs,
)
from .theory import corollary8_chain, lower_bound_chain

__all__ = [
    "chain_search",
    "extension_cube_search",
    "REPETITION",
    "ADAPTIVE9",
]

F = Fraction
R = sp.Rational
SRC = "Talwar 2025"

#: Algorithm descriptors: ("max", T), ("lt", gamma), ("hybrid", gamma, c),
#: ("neighbour", T, T'), ("blind", inner descriptor, m).
Desc = tuple[Any, ...]

REPETITION: list[Desc] = (
    [("max", T) for T in (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20)]
    + [("lt", F(1, k)) for k in (2, 3, 5, 10, 20, 50, 100, 300, 1000)]
    + [("hybrid", F(1, 10**k), c) for k in (2, 4, 6) for c in (2, 3)]
)

ADAPTIVE9: list[Desc] = [("neighbour", T, Tp) for T in (1, 2, 3) for Tp in (1, 2, 3, 5)] + [
    ("blind", inner, m)
    for inner in (("lt", F(1, 10)), ("lt", F(1, 50)), ("max", 3), ("max", 5))
    for m in (1, 5, 10, 20)
]

EPS_GRID = tuple(
    F(*x)
    for x in (
        (1, 20),
        (1, 10),
        (1, 5),
        (1, 3),
        (1, 2),
        (2, 3),
        (1, 1),
        (3, 2),
        (2, 1),
        (5, 2),
        (3, 1),
    )
)


def _q(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def algorithm(desc: Desc, quantile: Any = HALF, K: int = 1) -> OracleAlgorithm | AdaptiveAlgorithm:
    """The algorithm of a descriptor (``quantile``, ``K``: metaselection tuning, Theorem
    10's algorithms compete with the ``1 - 1/(2K)`` quantile)."""
    kind = desc[0]
    if kind == "max":
        return a_max(int(desc[1]), quantile)
    if kind == "lt":
        return a_lt(_q(desc[1]) * (quantile if K > 1 else 1), quantile)
    if kind == "hybrid":
        return hybrid(_q(desc[1]), int(desc[2]), 2 * K if K > 1 else 1)
    if kind == "neighbour":
        return neighbour_probe(int(desc[1]), int(desc[2]), quantile)
    if kind == "blind":
        inner = algorithm(desc[1], quantile, K)
        assert isinstance(inner, OracleAlgorithm)
        return blind_probe(inner, int(desc[2]))
    raise ValueError(f"unknown algorithm descriptor {desc!r}")


def _float_params(desc: Desc, quantile: float, K: int) -> tuple[str, dict[str, float]]:
    kind = desc[0]
    if kind == "max":
        return "max", {"T": float(desc[1])}
    if kind == "lt":
        return "lt", {"gamma": float(desc[1]) * (quantile if K > 1 else 1.0)}
    c = int(desc[2])
    kk = 2 * K if K > 1 else 1
    return "hybrid", {"gamma": float(desc[1]) ** (1.0 / c) / kk, "c": float(c)}


def _calls(desc: Desc, quantile: float, K: int) -> float:
    kind = desc[0]
    if kind == "max":
        return float(desc[1])
    if kind == "lt":
        return 1.0 / (float(desc[1]) * (quantile if K > 1 else 1.0))
    if kind == "hybrid":
        c = int(desc[2])
        kk = 2 * K if K > 1 else 1
        return c * kk * float(desc[1]) ** (-1.0 / c)
    if kind == "neighbour":
        return float(desc[1] + desc[2])
    return _calls(desc[1], quantile, K) + float(desc[2])


# ---------------------------------------------------------------------------
# the space: (algorithm, eps) or (algorithm, Delta) for eps = ln(4T)/Delta
# ---------------------------------------------------------------------------


def label(desc: Desc) -> str:
    """A descriptor in words: ``A_max^3``, ``A_LT,1/10``, ``hybrid(1/100, c=2)``,
    ``NeighbourProbe(2, 3)``, ``BlindProbe(A_LT,1/50, 20)``."""
    kind = desc[0]
    if kind == "max":
        return f"A_max^{desc[1]}"
    if kind == "lt":
        return f"A_LT,{desc[1]}"
    if kind == "hybrid":
        return f"hybrid({desc[1]}, c={desc[2]})"
    if kind == "neighbour":
        return f"NeighbourProbe({desc[1]}, {desc[2]})"
    return f"BlindProbe({label(desc[1])}, {desc[2]})"


class _ChainSpace(GridSpace):
    """A :class:`GridSpace` whose first coordinate indexes a list of algorithms (the
    description names the algorithm)."""

    def __init__(self, names: Any, grids: Any, valid: Any, algs: list[Desc]) -> None:
        super().__init__(names, grids, valid)
        self.algs = algs

    def describe(self, inst: GridPoint) -> str:
        v = self.point(inst)
        rest = ", ".join(f"{n} = {x}" for n, x in v.items() if n != "alg")
        return f"{label(self.algs[int(v['alg'])])}, {rest}"


class _Chain:
    """One chain variant: which theorem, which algorithms, which step."""

    def __init__(
        self,
        theorem: str,
        algs: list[Desc],
        *,
        K: int | tuple[int, ...] = 1,
        step_exponent: int = 4,
        uniform: bool = False,
        rdp: bool = False,
        constant: Any = None,
        max_classes: int = 70,
    ) -> None:
        self.theorem, self.algs = theorem, algs
        self.Ks = (K,) if isinstance(K, int) else tuple(K)
        self.step_exponent, self.uniform, self.rdp = step_exponent, uniform, rdp
        self.constant = constant
        self.max_classes = max_classes

    def K(self, v: dict[str, Fraction]) -> int:
        """The number of settings (Theorem 10; 1 otherwise)."""
        return int(v["K"]) if "K" in v else self.Ks[0]

    @staticmethod
    def quantile(K: int) -> float:
        return 0.5 if K == 1 else 1.0 / (2 * K)

    # parameters of an instance
    def eps(self, v: dict[str, Fraction]) -> float:
        if self.uniform:
            K = self.K(v)
            T = _calls(self.algs[int(v["alg"])], self.quantile(K), K)
            return math.log(4 * T) / float(v["Delta"])
        return float(v["eps"])

    def T(self, v: dict[str, Fraction]) -> float:
        K = self.K(v)
        return _calls(self.algs[int(v["alg"])], self.quantile(K), K) / K

    def valid(self, v: dict[str, Fraction]) -> bool:
        T, e = self.T(v), self.eps(v)
        if T < 1 or math.exp(e) > T * (1 - 1e-12):
            return False
        if self.theorem == "Theorem 7":
            return math.ceil(math.log(4 * T) / e - 1e-9) <= self.max_classes
        return e <= 3 and 10 * math.ceil(math.log(8 * T) / e - 1e-9) <= self.max_classes

    def space(self) -> GridSpace:
        second = (
            ("Delta", tuple(F(d) for d in (2, 3, 4, 6, 8, 12, 20, 40, 60)))
            if self.uniform
            else (
                "eps",
                EPS_GRID,
            )
        )
        names: tuple[str, ...] = ("alg", second[0])
        grids: tuple[Any, ...] = (tuple(F(i) for i in range(len(self.algs))), second[1])
        if len(self.Ks) > 1:
            names, grids = (*names, "K"), (*grids, tuple(F(k) for k in self.Ks))
        return _ChainSpace(names, grids, self.valid, self.algs)

    # the exact decision
    def decide(self, space: GridSpace, inst: GridPoint) -> CheckResult:
        v = space.point(inst)
        K = self.K(v)
        q = R(1, 2) if K == 1 else R(1, 2 * K)
        alg = algorithm(self.algs[int(v["alg"])], q, K)
        calls = alg.expected_calls / K
        if self.uniform:
            e: Any = sp.log(4 * alg.expected_calls) / int(v["Delta"])
        else:
            e = sp.Rational(v["eps"].numerator, v["eps"].denominator)
        if self.theorem == "Theorem 7":
            inst7 = theorem7_instance(e, calls)
            if self.rdp:
                kw = {} if self.constant is None else {"constant": self.constant}
                return corollary8_chain(inst7, alg, step_exponent=self.step_exponent, **kw)  # type: ignore[arg-type]
            return lower_bound_chain(inst7, alg, step_exponent=self.step_exponent)  # type: ignore[arg-type]
        if self.theorem == "Theorem 9":
            return lower_bound_chain(theorem9_instance(e, calls), alg)  # type: ignore[arg-type]
        return lower_bound_chain(theorem10_instance(e, calls, K), alg)  # type: ignore[arg-type]

    # the float mirror
    def screen(self, space: GridSpace, inst: GridPoint) -> float:
        v = space.point(inst)
        desc = self.algs[int(v["alg"])]
        e, T = self.eps(v), self.T(v)
        thm7 = self.theorem == "Theorem 7"
        base = 4 if thm7 else 8
        if thm7:
            Delta, lq, lp = theorem7_logs(e, T)
            n, d0, d1, dist = Delta, 0, Delta, Delta
        else:
            Delta, lq, lp = theorem9_logs(e, T)
            n = 10 * Delta
            d0, d1, dist = n, 0, n
        ext = np.exp(lp)
        K = self.K(v)
        if K > 1:  # the uniform mixture over K settings, setting 0 the good one
            rows = np.zeros((n + 1, 2 * K))
            rows[:, 0] = ext[:, 0] / K
            rows[:, 1:K] = 1.0 / K
            rows[:, K] = ext[:, 1] / K
        else:
            rows = ext
        P, c, fb = self._apply(desc, rows, n, K)
        low = slice(0, K)  # the value-0 outputs
        p_d0, p_d1 = P[d0, low].sum(), P[d1, low].sum()
        ratios = [
            math.exp(e) / T,
            math.exp(math.log(base * T) + lq),
            dp_ratio(ext) / (2 * e),
            # Prop. 2's premise on B: p_b(o) <= e^(eps dist(b, b')) p_b'(o)
            -math.expm1(lq) if thm7 else math.exp(-e),
            0.25 / p_d0 if p_d0 > 0 else math.inf,
            p_d1 / fb,
        ]
        if self.rdp:
            a = Delta + 1
            kappa = 4.0 ** (math.e if self.constant is None else float(self.constant))
            k = self.step_exponent
            ll = -math.e * (a - 1) * 2 * c * e - math.log(kappa)  # log of Prop. 6's bound
            ratios += [
                1.0,  # alpha = Delta + 1 >= Delta + 1, Prop. 6's condition (equality)
                rdp_value(P, a) / (2 * c * e),
                math.exp(ll - math.log(p_d1)) if p_d1 > 0 else math.inf,
                math.exp(-k * math.e * c * math.log(4 * T) + math.e * (a - 1) * 2 * c * e),
                (kappa * fb) ** (-1 / (k * math.e * c)) / 4 / T,
            ]
        else:
            k = self.step_exponent * (1 if thm7 else 10)
            lg = -2 * c * e * dist
            ratios += [
                dp_ratio(P) / (2 * c * e),
                math.exp(lg - math.log(8) - math.log(p_d1)) if p_d1 > 0 else math.inf,
                math.exp(-k * c * math.log(base * T) - lg),
                (8 * fb) ** (-1 / (k * c)) / base / T,
            ]
        return max(ratios)

    def _apply(
        self, desc: Desc, rows: np.ndarray, n: int, K: int
    ) -> tuple[np.ndarray, float, float]:
        """``(output rows, c, failure bound)`` of an algorithm in floats."""
        beta = self.quantile(K)
        kind = desc[0]
        if kind in ("max", "lt", "hybrid"):
            k, p = _float_params(desc, beta, K)
            P = apply_rows(k, p, rows)
            fb_rows = np.array([[1 - beta, beta]])
            fb = float(apply_rows(k, p, fb_rows)[0, 0])
            c = {"max": p.get("T", 0.0), "lt": 3.0, "hybrid": 3.0 * p.get("c", 0.0)}[k]
            return P, c, fb
        if kind == "neighbour":
            T, Tp = int(desc[1]), int(desc[2])
            j = np.arange(n + 1, dtype=float)[:, None]
            up = np.vstack([rows[1:], rows[-1:]])
            down = np.vstack([rows[:1], rows[:-1]])
            mix = (j / n) * down + ((n - j) / n) * up
            return best_of_calls([(rows, T), (mix, Tp)]), float(T + Tp), (1 - beta) ** T
        inner, m = desc[1], int(desc[2])
        base, c, fb = self._apply(inner, rows, n, K)
        logw = np.array(
            [
                math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2)
                for i in range(n + 1)
            ]
        )
        uniform = (np.exp(logw)[:, None] * rows).sum(axis=0)
        return best_of_calls([(base, 1), (np.tile(uniform, (n + 1, 1)), m)]), c, fb


@functools.cache
def _chains() -> dict[str, _Chain]:
    meta = (
        [("max", T) for T in (2, 4, 6, 8, 12, 16, 24)]
        + [("lt", F(1, k)) for k in (2, 5, 10, 20, 50, 100)]
        + [("hybrid", F(1, 10**k), 2) for k in (2, 4)]
    )
    adaptive10 = [("neighbour", T, Tp) for T in (4, 8, 12) for Tp in (2, 6)] + [
        ("blind", ("lt", F(1, k)), m) for k in (10, 100) for m in (2, 6)
    ]
    return {
        "thm7": _Chain("Theorem 7", REPETITION),
        "thm7.uniform": _Chain("Theorem 7", REPETITION, step_exponent=2, uniform=True),
        "cor8": _Chain("Theorem 7", REPETITION, rdp=True),
        "cor8.uniform": _Chain(
            "Theorem 7", REPETITION, rdp=True, constant=4, step_exponent=2, uniform=True
        ),
        "thm9": _Chain("Theorem 9", REPETITION, max_classes=300),
        "thm9.adaptive": _Chain("Theorem 9", ADAPTIVE9, max_classes=300),
        "thm10": _Chain("Theorem 10", meta, K=(2, 3, 4, 6), max_classes=300),
        "thm10.adaptive": _Chain("Theorem 10", adaptive10, K=(2, 3, 4), max_classes=300),
    }


def chain_search(claim_id: str, which: str, statement: str, notes: str) -> SearchSpec:
    """The search of a chain claim (``which``: a key of :func:`_chains`)."""
    ch = _chains()[which]
    return exact_search(
        claim_id,
        ch.space(),
        ch.decide,
        statement,
        f"{SRC}, {ch.theorem}{' / Corollary 8' if ch.rdp else ''}",
        screen=ch.screen,
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Prop. 2 on Theorem 7's instances
# ---------------------------------------------------------------------------

_CUBE_TS = tuple(F(t) for t in (1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000))


def _cube_valid(v: dict[str, Fraction]) -> bool:
    return math.ceil(math.log(4 * float(v["T"])) / float(v["eps"]) - 1e-9) <= 70


def _cube_space() -> GridSpace:
    return GridSpace(("eps", "T"), (EPS_GRID, _CUBE_TS), _cube_valid)


def _cube_decide(space: GridSpace, inst: GridPoint) -> CheckResult:
    v = space.point(inst)
    e = sp.Rational(v["eps"].numerator, v["eps"].denominator)
    return theorem7_instance(e, int(v["T"])).extension.verification


def _cube_screen(space: GridSpace, inst: GridPoint) -> float:
    v = space.point(inst)
    e = float(v["eps"])
    _, lq, lp = theorem7_logs(e, float(v["T"]))
    return max(dp_ratio(np.exp(lp)) / (2 * e), -math.expm1(lq))


def extension_cube_search(claim_id: str) -> SearchSpec:
    """Prop. 2 on Theorem 7's partial mechanisms ``{d0, d1}`` over ``(ε, T)``
    (``Δ = ⌈ln(4T)/ε⌉ <= 70``): the extension is ``2ε``-DP and agrees on ``B``."""
    return exact_search(
        claim_id,
        _cube_space(),
        _cube_decide,
        "Theorem 7's partial mechanism extends to a 2 eps-DP mechanism",
        f"{SRC}, Prop. 2",
        screen=_cube_screen,
        notes="Theorem 7's instance for eps in [1/20, 3], T in [1, 1000] (Delta <= 70)",
    )


def cube60_tightness() -> Any:
    """Prop. 2 on Theorem 7's instance (``ε = 1/10``, ``T = 100``): the extension's
    realized loss against ``2ε`` (the premise rows, ``p_b(o) <= e^{ε·dist} p_b'(o)``,
    are the construction's input, not the bound)."""
    from verifier.claims import Tightness

    _, _, lp = theorem7_logs(0.1, 100.0)
    r = dp_ratio(np.exp(lp)) / 0.2
    return Tightness(
        "loose",
        r,
        "eps = 1/10, T = 100 (Delta = 60): the largest loss of the extension between "
        "neighbouring classes over 2 eps (floats; the verdict is exact)",
        searched="Theorem 7's instances for eps in [1/20, 3], T in [1, 1000] (Delta <= 70); the "
        "factor 2 itself is approached on other instances (prop2.extension_graphs)",
    )

"""The privacy–computation trade-off of Talwar 2025 (Figure 1), computed exactly.

For each algorithm family — ``A_max^T`` (Theorem 11), ``A_LT,γ`` (Theorem 12) and
the hybrids ``A_max^c`` over ``A_LT,γ^{1/c}[/K]`` (Theorems 13, 14) — tuned to a
target failure probability ``γ`` (down to ``1e-30`` and below: every quantity is an
exact sympy expression, compared with certified enclosures), :func:`tradeoff`
computes

* the guaranteed privacy overhead ``c`` (``cε``-DP whenever the oracle is ε-DP),
* the exact expected number of oracle calls, and ``T`` of the lower bounds
  (``calls`` for repetition, ``calls/K`` for metaselection, Theorem 10),
* the exact worst-case failure probability (``≤ γ``),
* on the lower-bound instance built for that ``T`` (Theorem 7 for repetition,
  Theorem 10 for metaselection; ``ε`` = ``eps``): the exact failure probability at
  ``d1`` and a certified enclosure of the *realized* overhead — the realized pure
  ε of the released value divided by the realized ε of the 2ε-DP extension ``M̂``,
* the lower bound at ``(c, γ)``: ``T ≥ (8γ)^{-1/(4c)}/4`` (Theorem 7) or
  ``T ≥ (8γ)^{-1/(40c)}/8`` (Theorem 10), and the certified verdict ``T ≥ bound``.

Metaselection competes with ``max_k Median(M(d, k))``, which by Talwar 2025,
Proposition 3 is the ``1 - 1/(2K)`` quantile of the uniform mixture over the ``K``
settings: the algorithms are Theorems 11, 12, 14 with ``2K`` in place of ``K``.

:func:`plot_tradeoff` draws Figure 1 (left: repetition, right: metaselection) with
``y = ln T / ln(1/γ)`` (so ``T = γ^{-y}``) against ``c``: achieved points (green:
``A_LT``, ``A_max^T``; blue: hybrids), the hybrids' upper-bound curves (blue
dashed), the lower bound (red, the region below it hatched) and the region
``c < 1`` (grey), excluded by a straightforward argument: on randomized response
with a large ε a ``c < 1`` algorithm would need ``T ≥ (1-γ) e^{(1-c)ε}`` calls.
matplotlib is imported only there (extra ``plot``).

>>> import sympy as sp
>>> t = tradeoff("repetition", [sp.Rational(1, 10**30)], cs=(2,))
>>> [(p.label, p.c, p.calls) for p in t.points]                 # doctest: +NORMALIZE_WHITESPACE
[('A_max^100', 100, 100), ('A_LT,1/1000000000000000000000000000000', 3,
  1000000000000000000000000000000), ('A_max^2(A_LT,1/1000000000000000)', 6, 2000000000000000)]
>>> t.check().verdict
<Verdict.HOLDS: 'holds'>
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from verifier.algorithms.ghazi_series import iv_of
from verifier.algorithms.talwar import (
    OracleAlgorithm,
    metaselection_algorithms,
    repetition_algorithms,
)
from verifier.arithmetic.exact import (
    DEFAULT_PRECISION,
    Enclosure,
    Precision,
    Sign,
    Verdict,
    combine_verdicts,
    decide_le,
    decide_sign,
    enclose,
    exact,
)
from verifier.arithmetic.precision import interval_context
from verifier.checks.certified import certified_ceil
from verifier.checks.results import CheckResult, Finding
from verifier.errors import InvalidParameter
from verifier.runtime.terminal import task, text_table

from .theory import theorem7_bound, theorem9_bound

__all__ = [
    "DEFAULT_GAMMAS",
    "DEFAULT_CS",
    "TradeoffPoint",
    "Tradeoff",
    "tradeoff",
    "lower_bound",
    "hard_instance_profile",
    "plot_tradeoff",
]

R = sp.Rational

#: Default grid of target failure probabilities: 1e-2 down to 1e-40.
DEFAULT_GAMMAS: tuple[sp.Rational, ...] = tuple(
    R(1, 10**k) for k in (2, 3, 5, 8, 12, 16, 20, 25, 30, 40)
)
#: Default hybrid repetition counts ``c`` (overhead ``3c``).
DEFAULT_CS: tuple[int, ...] = (2, 3, 4, 6, 8)

SETTINGS = ("repetition", "metaselection")


@functools.lru_cache(maxsize=1024)
def lower_bound(setting: str, c: Any, gamma: Any) -> sp.Expr:
    """The lower bound on ``T``: Theorem 7 (repetition) or Theorem 10
    (metaselection; ``T`` = calls per setting).  Cached: Figure 1's search meets one
    ``(c, γ)`` at every ``K``, and sympy's power of a rational to a rational exponent
    looks for perfect powers in ``8γ``."""
    if setting == "repetition":
        return theorem7_bound(c, gamma)
    if setting == "metaselection":
        return theorem9_bound(c, gamma)
    raise InvalidParameter(f"setting must be one of {SETTINGS}, got {setting!r}")


@dataclass(frozen=True)
class TradeoffPoint:
    """One algorithm at one target ``γ`` (see the module docstring)."""

    setting: str
    algorithm: OracleAlgorithm
    gamma: sp.Expr
    K: int
    c: sp.Expr
    calls: sp.Expr
    T: sp.Expr
    failure: sp.Expr
    lower_bound: sp.Expr
    above_lower_bound: Verdict
    failure_ok: Verdict
    Delta: int | None = None
    hard_failure: sp.Expr | None = None
    hard_overhead: Enclosure | None = None

    @property
    def label(self) -> str:
        return self.algorithm.label

    @property
    def family(self) -> str:
        return self.algorithm.name

    def y(self) -> float:
        """``ln T / ln(1/γ)`` (display only)."""
        return _f(sp.log(self.T)) / _f(sp.log(1 / self.gamma))

    def to_dict(self) -> dict[str, Any]:
        return {
            "setting": self.setting,
            "algorithm": self.label,
            "family": self.family,
            "gamma": str(self.gamma),
            "K": self.K,
            "c": str(self.c),
            "calls": str(self.calls),
            "calls_approx": _f(self.calls),
            "T": str(self.T),
            "T_approx": _f(self.T),
            "failure": _short(self.failure),
            "failure_approx": _f(self.failure),
            "lower_bound_T": _short(self.lower_bound),
            "lower_bound_T_approx": _f(self.lower_bound),
            "above_lower_bound": self.above_lower_bound.value,
            "failure_at_most_gamma": self.failure_ok.value,
            "hard_instance": None
            if self.Delta is None
            else {
                "Delta": self.Delta,
                "failure_at_d1": _short(self.hard_failure),
                "failure_at_d1_approx": _f(self.hard_failure),
                "realized_overhead": None
                if self.hard_overhead is None
                else [float(self.hard_overhead.lo), float(self.hard_overhead.hi)],
            },
        }


def _f(x: Any) -> float:
    if x is None:
        return float("nan")
    e = exact(x)
    for bits in (64, 128, 256, 1024):
        enc = enclose(e, bits)
        if enc is not None:
            return enc.mid
    return float("nan")  # pragma: no cover


def _short(x: Any) -> str | None:
    if x is None:
        return None
    s = str(x)
    return s if len(s) <= 80 else f"~{_f(x):.6g}"


@dataclass
class Tradeoff:
    """The computed points of one panel of Figure 1."""

    setting: str
    K: int
    eps: sp.Expr
    gammas: list[sp.Expr]
    cs: tuple[int, ...]
    points: list[TradeoffPoint] = field(default_factory=list)

    def check(self) -> CheckResult:
        """Every point lies on the allowed side of the lower bound (``T ≥ bound``,
        certified) and fails with probability at most ``γ``."""
        findings = []
        for p in self.points:
            findings.append(
                Finding(
                    p.above_lower_bound,
                    p.label,
                    None,
                    p.T,
                    p.lower_bound,
                    p.lower_bound,
                    p.T,
                    lower_bound=True,
                    note=f"gamma = {p.gamma}",
                )
            )
            findings.append(
                Finding(
                    p.failure_ok,
                    f"{p.label}: failure",
                    None,
                    p.failure,
                    p.gamma,
                    p.failure,
                    p.gamma,
                    note=f"gamma = {p.gamma}",
                )
            )
        return CheckResult(
            f"{self.setting}: achieved points vs the lower bound and the target gamma",
            combine_verdicts(f.verdict for f in findings),
            findings,
            quantity="T",
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "setting": self.setting,
            "K": self.K,
            "eps": str(self.eps),
            "gammas": [str(g) for g in self.gammas],
            "lower_bound": "T >= (8 gamma)^(-1/(4c))/4 (Talwar 2025, Theorem 7)"
            if self.setting == "repetition"
            else "T = calls/K >= (8 gamma)^(-1/(40c))/8 (Talwar 2025, Theorem 10)",
            "points": [p.to_dict() for p in self.points],
            "verdict": self.check().verdict.value,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def table(self) -> str:
        # units: gamma and the failure are probabilities; c is the privacy overhead as
        # a multiple of the base epsilon (the algorithm is c*eps-DP, Talwar 2025 §1);
        # T and its lower bound count oracle calls (expected number, Theorems 7/10)
        head = (
            "gamma (prob.)",
            "algorithm",
            "c (x eps)",
            "T (calls)",
            "lower bound on T (calls)",
            "failure (prob.)",
            "realized c on hard inst. (x eps)",
            "ok",
        )
        rows = []
        for p in self.points:
            rc = "-" if p.hard_overhead is None else f"{float(p.hard_overhead.lo):.4g}"
            rows.append(
                (
                    f"{_f(p.gamma):.0e}",
                    p.label,
                    str(p.c),
                    f"{_f(p.T):.4g}",
                    f"{_f(p.lower_bound):.4g}",
                    f"{_f(p.failure):.3g}",
                    rc,
                    "yes"
                    if p.above_lower_bound is Verdict.HOLDS and p.failure_ok is Verdict.HOLDS
                    else "NO",
                )
            )
        lines = [
            f"Talwar 2025 trade-off — {self.setting}"
            + (f" (K = {self.K})" if self.setting == "metaselection" else "")
            + f"; hard instances with eps = {self.eps}",
            text_table(head, rows, indent="  ", fold=(1, 4, 6)),
        ]
        lines.append(f"  {self.check().summary()}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# the hard instances in certified interval arithmetic
# ---------------------------------------------------------------------------


def _imin(a: Any, b: Any, ctx: Any) -> Any:
    # min is monotone in both arguments: the interval min encloses it, decided or not
    return ctx.mpf([min(a.a, b.a), min(a.b, b.b)])


def _imax_list(xs: Sequence[Any], ctx: Any) -> Any:
    return ctx.mpf([max(x.a for x in xs), max(x.b for x in xs)])


def _numeric_cdf(alg: OracleAlgorithm, ctx: Any) -> Callable[[Any, Any], tuple[Any, Any]]:
    """Φ and 1 - Φ of ``alg`` for interval arguments ``(F, G = 1 - F)`` of the
    interval context ``ctx``."""
    kind = alg.params["kind"]

    def lt(g: Any) -> Callable[[Any, Any], tuple[Any, Any]]:
        def f(F: Any, G: Any) -> tuple[Any, Any]:
            den = G + g * F
            return g * F / den, G / den

        return f

    if kind == "max":
        T = alg.params["T"]

        def fmax(F: Any, G: Any) -> tuple[Any, Any]:
            s = ctx.mpf(0)
            x = ctx.mpf(1)
            for _ in range(T):
                s = s + x
                x = x * F
            return x, G * s

        return fmax
    if kind == "lt":
        return lt(iv_of(alg.params["gamma"], ctx))
    inner = lt(iv_of(alg.params["inner_gamma"], ctx))
    c = alg.params["c"]

    def fh(F: Any, G: Any) -> tuple[Any, Any]:
        phi, up = inner(F, G)
        s = ctx.mpf(0)
        x = ctx.mpf(1)
        for _ in range(c):
            s = s + x
            x = x * phi
        return x, up * s

    return fh


def _identity(k: int) -> int:
    return k


def hard_instance_profile(
    setting: str,
    alg: OracleAlgorithm,
    eps: Any,
    T: Any,
    K: int = 1,
    bits: int = 160,
) -> tuple[int, sp.Expr, Enclosure]:
    """``(Δ, exact failure at d1, enclosure of the realized overhead)`` of ``alg`` on
    the lower-bound instance for budget ``T`` (Theorem 7, or Theorem 10 with ``K``
    settings).

    The extension ``M̂`` is evaluated class by class in interval arithmetic (the
    minimum of Prop. 2 is monotone, so its interval version is a certified
    enclosure whichever branch is smaller); the released value of ``A`` at a class
    with ``Pr[value 0] = F`` is ``Φ(F)``.  The realized overhead is
    ``max |log ratio of A's released value| / max |log ratio of M̂|`` over the edges
    between classes where ``M̂`` is not constant.
    """
    e = exact(eps)
    if decide_sign(e).sign is not Sign.POSITIVE:
        raise InvalidParameter(f"eps must be > 0, got {e}")
    t = exact(T)
    with interval_context(bits) as ctx:
        groups: list[tuple[Callable[[int], int], dict[str, sp.Expr]]]
        if setting == "repetition":
            Delta = certified_ceil(sp.log(4 * t) / e)
            q = sp.exp(-e * Delta)

            def to_d1(k: int, D: int = Delta) -> int:
                return D - k

            # Theorem 7: B = {0: (GOOD q, BAD 1-q), Delta: (GOOD 1-q, BAD q)}
            groups = [(_identity, {"good": q, "bad": 1 - q}), (to_d1, {"good": 1 - q, "bad": q})]
            classes = range(Delta + 1)
        elif setting == "metaselection":
            Delta = certified_ceil(sp.log(8 * t) / e)
            q = sp.exp(-e * Delta)

            def to_far(k: int, D: int = Delta) -> int:
                return max(0, D + 1 - k)

            # Theorems 9/10 (lumped by distance to v): B = {0} u {Delta+1, ..., 10 Delta}
            groups = [(_identity, {"good": 1 - q, "bad": q}), (to_far, {"good": q, "bad": 1 - q})]
            classes = range(Delta + 2)  # beyond Delta + 1 the extension is constant
        else:
            raise InvalidParameter(f"setting must be one of {SETTINGS}, got {setting!r}")
        ie = iv_of(e, ctx)
        gi = [(dist, {o: iv_of(p, ctx) for o, p in ps.items()}) for dist, ps in groups]
        good, bad = [], []
        for k in classes:
            m = {}
            for o in ("good", "bad"):
                vals = [ctx.exp(ie * dist(k)) * ps[o] for dist, ps in gi]
                m[o] = vals[0] if len(vals) == 1 else _imin(vals[0], vals[1], ctx)
            Z = m["good"] + m["bad"]
            good.append(m["good"] / Z)
            bad.append(m["bad"] / Z)
        phi = _numeric_cdf(alg, ctx)
        rel: list[Any] = []
        base: list[Any] = []
        prev = None
        for g, b in zip(good, bad, strict=True):
            if K > 1:  # uniform mixture: value 1 w.p. good/K
                F, G = (K - 1 + b) / K, g / K
            else:
                F, G = b, g
            low, high = phi(F, G)
            cur = (g, b, low, high)
            if prev is not None:
                for x, y in ((prev[0], cur[0]), (prev[1], cur[1])):
                    base.append(abs(ctx.log(x / y)))
                for x, y in ((prev[2], cur[2]), (prev[3], cur[3])):
                    rel.append(abs(ctx.log(x / y)))
            prev = cur
        overhead = _imax_list(rel, ctx) / _imax_list(base, ctx)
        # exact failure at d1 (M-hat(d1) = M(d1) puts mass q on (r', 0) in both settings)
        p_bad = q
        if K > 1:
            F_ex, G_ex = (K - 1 + p_bad) / K, (1 - p_bad) / K
        else:
            F_ex, G_ex = p_bad, 1 - p_bad
        failure = alg.cdf(F_ex, G_ex)[0]
        return Delta, failure, Enclosure.from_iv(overhead, bits)


def tradeoff(
    setting: str = "repetition",
    gammas: Sequence[Any] | None = None,
    *,
    K: int = 4,
    cs: Sequence[int] = DEFAULT_CS,
    eps: Any = 1,
    hard_instances: bool = True,
    precision: Precision = DEFAULT_PRECISION,
) -> Tradeoff:
    """Compute one panel of Talwar 2025's Figure 1 exactly (see the module docstring).

    Parameters
    ----------
    setting : {"repetition", "metaselection"}
    gammas : sequence of exact numbers in (0, 1)
        Target failure probabilities (default :data:`DEFAULT_GAMMAS`).
    K : int
        Number of settings (metaselection only).
    cs : sequence of int
        Hybrid repetition counts (overhead ``3c``).
    eps : exact number
        The ε of the hard instances.
    hard_instances : bool
        Also evaluate every point on its lower-bound instance.
    """
    if setting not in SETTINGS:
        raise InvalidParameter(f"setting must be one of {SETTINGS}, got {setting!r}")
    gs = [exact(g) for g in (gammas if gammas is not None else DEFAULT_GAMMAS)]
    for g in gs:
        if not (g.is_Rational and 0 < g < 1):
            raise InvalidParameter(f"every gamma must be a rational in (0, 1), got {g}")
    if setting == "metaselection" and (not isinstance(K, int) or K < 2):
        raise InvalidParameter(f"metaselection needs an integer K >= 2, got {K!r}")
    e = exact(eps)
    out = Tradeoff(setting, K if setting == "metaselection" else 1, e, gs, tuple(cs))
    with task(f"trade-off ({setting}), target gammas", total=len(gs)) as bar:
        for g in gs:
            _tradeoff_points(out, setting, g, K, cs, e, hard_instances, precision)
            bar.advance()
    return out


def _tradeoff_points(
    out: Tradeoff,
    setting: str,
    g: sp.Expr,
    K: int,
    cs: Sequence[int],
    e: sp.Expr,
    hard_instances: bool,
    precision: Precision,
) -> None:
    """The points of ``out`` at the target failure probability ``g``."""
    algs = (
        repetition_algorithms(g, cs)
        if setting == "repetition"
        else metaselection_algorithms(g, 2 * K, cs)
    )
    for alg in algs:
        calls = alg.expected_calls
        T = calls if setting == "repetition" else calls / K
        lb = lower_bound(setting, alg.overhead, g)
        above = decide_le(lb, T, precision).verdict
        fail_ok = decide_le(alg.failure_bound, g, precision).verdict
        Delta = hard_fail = hard_c = None
        if hard_instances:
            Delta, hard_fail, hard_c = hard_instance_profile(setting, alg, e, T, out.K)
        out.points.append(
            TradeoffPoint(
                setting,
                alg,
                g,
                out.K,
                alg.overhead,
                calls,
                T,
                alg.failure_bound,
                lb,
                above,
                fail_ok,
                Delta,
                hard_fail,
                hard_c,
            )
        )


# ---------------------------------------------------------------------------
# Figure 1
# ---------------------------------------------------------------------------


def _curve_lower(setting: str, cs: Sequence[float], g: float) -> list[float]:
    """The lower bound on ``ln T / ln(1/γ)`` at each ``c`` (display only): Talwar 2025,
    Theorem 7 (repetition) and Theorem 10 (metaselection), and never below 0, since
    ``T >= 1`` oracle call always."""
    L = math.log(1 / g)
    if setting == "repetition":  # ln T >= ln(1/(8g))/(4c) - ln 4
        return [max(0.0, (math.log(1 / (8 * g)) / (4 * c) - math.log(4)) / L) for c in cs]
    return [max(0.0, (math.log(1 / (8 * g)) / (40 * c) - math.log(8)) / L) for c in cs]


def _curve_hybrid(setting: str, cs: Sequence[float], g: float, K: int) -> list[float]:
    L = math.log(1 / g)
    # c' repetitions of A_LT with gamma^(1/c')[/2K]: T = c' gamma^(-1/c') (x 2 for meta)
    factor = 1 if setting == "repetition" else 2
    return [(math.log(factor * (c / 3)) + L / (c / 3)) / L for c in cs]


def plot_tradeoff(
    panels: Sequence[Tradeoff],
    path: str | None = None,
    *,
    title: str | None = None,
) -> Any:
    """Draw Talwar 2025's Figure 1 from computed panels (repetition and/or
    metaselection) and write it to ``path`` (PNG, PDF or SVG by extension).

    Each target ``γ`` has one colour (the colour bar): its points, its lower bound
    (solid; Theorem 7 or 10, clipped at 0 because ``T >= 1``) and the hybrid analysis
    (dashed; Theorems 13/14) are drawn in it, so a point is compared with the bound of
    its own ``γ``.  Markers tell the algorithm families apart.

    Returns the matplotlib figure.  Needs the optional dependency ``matplotlib``
    (``pip install 'verifier[plot]'``).
    """
    try:
        # the object-oriented API: no pyplot state, no change of the global backend
        from matplotlib import colormaps
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import LogNorm
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
        from matplotlib.patches import Patch
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise InvalidParameter("plotting needs matplotlib: pip install 'verifier[plot]'") from err
    if not panels:
        raise InvalidParameter("nothing to plot")
    fig = Figure(figsize=(6.0 * len(panels) + 0.9, 4.9), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)
    gammas = sorted({_f(g) for panel in panels for g in panel.gammas})
    # log scale in 1/γ: 1e-2 light, 1e-40 dark (colours distinct even for 2 values)
    norm = LogNorm(vmin=min(gammas) / 10, vmax=max(gammas) * 10)
    cmap = colormaps["viridis"]

    def colour(g: float) -> Any:
        return cmap(norm(g))

    markers = (
        ("A_LT", "o", "A_LT (Thm 12)"),
        ("A_max^T", "s", "A_max^T (Thm 11)"),
        ("hybrid", "D", "hybrids (Thm 13/14)"),
    )
    for ax, panel in zip(axes[0], panels, strict=True):
        pts = panel.points
        cmax = max([float(_f(p.c)) for p in pts] + [30.0]) * 1.5
        xs = [1 * (cmax / 1) ** (i / 400) for i in range(401)]
        hx = [x for x in xs if x >= 3]
        ax.axvspan(0.5, 1.0, color="0.88", zorder=0)
        for g in sorted({_f(g) for g in panel.gammas}):
            ax.plot(xs, _curve_lower(panel.setting, xs, g), color=colour(g), lw=1.8, zorder=2)
            ax.plot(hx, _curve_hybrid(panel.setting, hx, g, panel.K), "--", color=colour(g), lw=0.9)
        for fam, marker, _ in markers:
            sel = [p for p in pts if p.family == fam]
            if sel:
                ax.scatter(
                    [_f(p.c) for p in sel],
                    [p.y() for p in sel],
                    color=[colour(_f(p.gamma)) for p in sel],
                    marker=marker,
                    s=30,
                    edgecolors="k",
                    linewidths=0.4,
                    zorder=3,
                )
        ax.set_xscale("log")
        ax.set_xlim(0.5, cmax)
        ax.set_ylim(-0.03, 1.25)
        ax.set_xlabel("privacy overhead c  (the algorithm is cε-DP)")
        ax.set_ylabel(
            "ln T / ln(1/γ)   (T = γ^(-y) oracle calls"
            + (")" if panel.setting == "repetition" else " per setting)")
        )
        name = "Repetition" if panel.setting == "repetition" else f"Metaselection (K = {panel.K})"
        theorem = "Theorem 7" if panel.setting == "repetition" else "Theorem 10"
        ax.set_title(f"{name}: no algorithm below the solid line ({theorem})", fontsize=10)
        handles = [
            Patch(color="0.88", label="excluded (c < 1)"),
            Line2D([], [], color="0.3", lw=1.8, label=f"lower bound ({theorem}), per γ"),
            Line2D(
                [], [], color="0.3", ls="--", lw=0.9, label="hybrid analysis (Thm 13/14), per γ"
            ),
        ]
        handles += [
            Line2D([], [], marker=m, ls="", color="0.6", markeredgecolor="k", label=lab)
            for fam, m, lab in markers
            if any(p.family == fam for p in pts)
        ]
        ax.legend(handles=handles, fontsize=7, loc="upper right")
        ax.grid(True, which="both", alpha=0.25)
    bar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), ax=list(axes[0]), pad=0.015)
    ticks: list[float] = []
    for g in gammas:  # smallest first; labels at least a factor 10^2 apart stay legible
        if not ticks or math.log10(g / ticks[-1]) >= 2:
            ticks.append(g)
    bar.set_ticks(ticks)
    bar.set_ticklabels([f"{g:.0e}" for g in ticks])
    bar.set_label("target failure probability γ (colour of points and curves)")
    fig.suptitle(title or "Talwar 2025, Figure 1 — computed exactly by verifier")
    if path:
        fig.savefig(path, dpi=120)
    return fig

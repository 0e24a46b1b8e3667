"""Liu & Talwar 2019: the search spaces of Theorem 3.2 (random stopping) and of the
best-of-K selector (§3, App. B.1), for the claims registered in :mod:`.claims`."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any

from verifier.claims import SearchSpec
from verifier.search import screens
from verifier.search.certificates import (
    add_base_mechanisms,
    claim_entry,
    distribution_table,
    float_rows,
    frac_text,
    log_text,
    skeleton_document,
)
from verifier.search.core import InstanceSpace, instance_type
from verifier.search.spaces import (
    GAMMAS,
    PURE_BUDGETS,
    PairMech,
    Selection,
    SelectionSpace,
    describe_pair,
    extreme_pair,
    perturb_pair,
    random_distribution,
    random_pair,
)

__all__ = [
    "random_stopping_search",
    "best_of_k_search",
    "thresholding_search",
    "hard_stopping_search",
    "approx_search",
    "bottom_search",
    "c2_search",
    "tail_search",
]

LIU_TALWAR = "Liu & Talwar 2019"


# ---------------------------------------------------------------------------
# Liu & Talwar 2019: random stopping (Theorem 3.2) and best of K
# ---------------------------------------------------------------------------


def _stopping_screen(inst: Selection, factor: int) -> float:
    pm = inst.mechs[0]
    _, rows = screens.random_stopping(
        [float(x) for x in pm.p], [float(x) for x in pm.q], float(inst.param)
    )
    e = factor * math.log(pm.a)
    return screens.ex_post_ratio(rows, [e] * pm.m)


def _stopping_document(inst: Selection, claim_id: str, factor: int) -> dict[str, Any]:
    pm = inst.mechs[0]
    statement = f"random stopping (gamma = {inst.param}) on an eps-DP Q is {factor} eps-DP"
    doc = skeleton_document(f"Liu & Talwar 2019, Theorem 3.2: {statement}")
    (name,) = add_base_mechanisms(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "lt_random_stopping",
        "inputs": [name],
        "params": {"gamma": frac_text(inst.param)},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "pure_dp",
            "refuted",
            epsilon=log_text(pm.a, factor),
            statement=statement + " (candidate o has score o)",
            source=f"{LIU_TALWAR}, Theorem 3.2",
        )
    )
    return doc


def random_stopping_search(claim_id: str, factor: int, notes: str) -> SearchSpec:
    """Random stopping (Theorem 3.2's Algorithm maxRand) on an ``ε``-DP ``Q`` against
    ``factor·ε``-DP."""
    return SearchSpec(
        space=SelectionSpace(d=(1, 1), m=(2, 5), params=GAMMAS),
        screen=functools.partial(_stopping_screen, factor=factor),
        document=functools.partial(_stopping_document, claim_id=claim_id, factor=factor),
        default_instances=20000,
        notes=notes,
        casestudies_instances=4000,
    )


def _best_screen(inst: Selection, per_run: bool) -> float:
    _, rows = screens.best_of(float_rows(inst.mechs))
    a = max(pm.a for pm in inst.mechs)
    e = math.log(a) * (len(inst.mechs) if per_run else 1)
    return screens.ex_post_ratio(rows, [e] * len(rows[0]))


def _best_document(inst: Selection, claim_id: str, per_run: bool) -> dict[str, Any]:
    K = len(inst.mechs)
    a = max(pm.a for pm in inst.mechs)
    mult = K if per_run else 1
    statement = f"the best of K = {K} independent runs of eps-DP mechanisms is " + (
        "K eps-DP" if per_run else "eps-DP"
    )
    doc = skeleton_document(f"Liu & Talwar 2019, best of K: {statement}")
    names = add_base_mechanisms(doc, [PairMech(a, pm.p, pm.q) for pm in inst.mechs])
    doc["mechanisms"]["B"] = {
        "algorithm": "best_of",
        "inputs": names,
        "params": {"ties": "highest_index"},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "B",
            "pure_dp",
            "refuted",
            epsilon=log_text(a, mult),
            statement=statement + " (the output is the best score; ties to the later run)",
            source=f"{LIU_TALWAR}, §3 and App. B.1",
        )
    )
    return doc


def best_of_k_search(claim_id: str, per_run: bool, notes: str) -> SearchSpec:
    """The best of ``K`` independent runs of ``ε``-DP mechanisms against ``Kε``-DP
    (``per_run``) or ``ε``-DP."""
    return SearchSpec(
        space=SelectionSpace(d=(2, 3), m=(2, 3), same_budget=True),
        screen=functools.partial(_best_screen, per_run=per_run),
        document=functools.partial(_best_document, claim_id=claim_id, per_run=per_run),
        default_instances=20000,
        notes=notes,
        casestudies_instances=4000,
    )


# ---------------------------------------------------------------------------
# Theorems 3.1 (b), 3.5 and 1.2: thresholding and hard stopping on an eps-DP Q
# ---------------------------------------------------------------------------

#: Theorem 3.1's (and 3.5's) eps0 (Theorem 3.1 asks eps0 <= 1, Theorem 3.5 eps0 < 1/2).
EPS0S: tuple[Fraction, ...] = (
    Fraction(1, 100),
    Fraction(1, 10),
    Fraction(1, 4),
    Fraction(1, 2),
    Fraction(1),
)
#: gamma for thresholding (T is the least admissible: up to 530 at gamma = 1/100).
GAMMAS31: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(1, 100))
#: gamma for hard stopping (Theorem 3.5's T is about (1/gamma) ln(1/(eps0 gamma^2))).
GAMMAS35: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10))


@dataclass
class ParamSelectionSpace(SelectionSpace):
    """:class:`~verifier.search.spaces.SelectionSpace` with ``γ`` as ``param`` and
    ``ε0`` as ``EPS0S[alpha - 1]`` (``alpha`` indexes the ε0 grid)."""

    eps0s: tuple[Fraction, ...] = EPS0S

    def eps0(self, inst: Selection) -> Fraction:
        return self.eps0s[inst.alpha - 1]

    def describe(self, inst: Selection) -> str:
        parts = [f"M{j + 1} = {describe_pair(pm)}" for j, pm in enumerate(inst.mechs)]
        return "; ".join(
            [*parts, f"gamma = {inst.param}", f"eps0 = {self.eps0(inst)}"]
            + ([f"tau = {inst.tau}"] if self.tau else [])
        )


def _thr_rows(
    p: list[float], q: list[float], tau: int, gamma: float, T: int | None
) -> list[list[float]]:
    """Thresholding (Theorem 3.1) in floats: candidate ``o`` (score ``o``) passes when
    ``o >= tau``; the last entry is ⊥."""
    rows = []
    for d in (p, q):
        pt = sum(d[tau:])
        r = (1 - pt) * (1 - gamma)
        s = (
            (1 - r**T) / (1 - r)
            if T is not None and r < 1
            else (1 / (1 - r) if r < 1 else float(T or 0))
        )
        rows.append(
            [x * s if o >= tau else 0.0 for o, x in enumerate(d)]
            + [(1 - pt) * gamma * s + (r**T if T else 0.0)]
        )
    return rows


def _thr_screen(inst: Selection, space: ParamSelectionSpace, known: bool) -> float:
    from .theory import theorem31_min_T

    pm = inst.mechs[0]
    g = 0.0 if known else float(inst.param)
    e0 = 0.0 if known else float(space.eps0(inst))
    T = None if known else theorem31_min_T(inst.param, space.eps0(inst))
    rows = _thr_rows([float(x) for x in pm.p], [float(x) for x in pm.q], inst.tau, g, T)
    e = 2 * math.log(pm.a) + e0
    return screens.ex_post_ratio(rows, [e] * len(rows[0]))


def _thr_document(
    inst: Selection, claim_id: str, space: ParamSelectionSpace, known: bool
) -> dict[str, Any]:
    from .theory import theorem31_min_T

    pm = inst.mechs[0]
    if known:
        statement = f"thresholding with a known threshold (tau = {inst.tau}, gamma = 0, T = oo) on an eps-DP Q is 2 eps-DP"
        params: dict[str, Any] = {"tau": inst.tau, "gamma": 0}
        eps = log_text(pm.a, 2)
    else:
        e0 = space.eps0(inst)
        T = theorem31_min_T(inst.param, e0)
        statement = (
            f"thresholding (tau = {inst.tau}, gamma = {inst.param}, T = {T} >= max(ln(2/eps0)/gamma, "
            f"1 + 1/(e gamma))) on an eps-DP Q is (2 eps + eps0)-DP, eps0 = {e0}"
        )
        params = {"tau": inst.tau, "gamma": frac_text(inst.param), "T": T}
        eps = f"{log_text(pm.a, 2)} + {frac_text(e0)}"
    doc = skeleton_document(f"{LIU_TALWAR}, Theorem {'1.2' if known else '3.1 (b)'}: {statement}")
    (name,) = add_base_mechanisms(doc, inst.mechs)
    if not known:
        g, e0t = frac_text(inst.param), frac_text(space.eps0(inst))
        for k, (lhs, rhs) in enumerate(
            ((f"log(2/({e0t}))/({g})", T), (f"1 + 1/(e*({g}))", T), (e0t, 1))
        ):
            doc["claims"].append(
                {
                    "id": f"premise-T{k + 1}",
                    "kind": "inequality",
                    "lhs": lhs,
                    "rhs": rhs,
                    "expected": "holds",
                    "statement": "a hypothesis of Theorem 3.1",
                }
            )
    doc["mechanisms"]["A"] = {"algorithm": "lt_thresholding", "inputs": [name], "params": params}
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "pure_dp",
            "refuted",
            epsilon=eps,
            statement=statement + " (candidate o has score o)",
            source=f"{LIU_TALWAR}, Theorem {'1.2' if known else '3.1 (b)'}",
        )
    )
    return doc


def thresholding_search(
    claim_id: str, notes: str, known: bool = False, instances: int = 1200
) -> SearchSpec:
    """Thresholding (Theorem 3.1 (b); ``known``: Theorem 1.2, ``γ = 0``, ``T = ∞``) on
    an ``ε``-DP ``Q`` against ``2ε + ε0`` (``2ε``)."""
    space = ParamSelectionSpace(
        d=(1, 1), m=(2, 5), params=GAMMAS31, tau=True, alphas=(1, 2, 3, 4, 5)
    )
    return SearchSpec(
        space=space,
        screen=functools.partial(_thr_screen, space=space, known=known),
        document=functools.partial(_thr_document, claim_id=claim_id, space=space, known=known),
        default_instances=instances,
        notes=notes,
    )


def _hard_rows(p: list[float], q: list[float], gamma: float, T: int) -> list[list[float]]:
    """Hard stopping (Theorems 3.4, 3.5) in floats: ``Pr[o] = G(F) - G(F^-)``,
    ``G(x) = γx(1 - ((1-γ)x)^{T-1})/(1 - (1-γ)x) + (1-γ)^{T-1} x^T``."""

    def G(x: float) -> float:
        c = (1 - gamma) * x
        first = gamma * x * (T - 1) if c == 1 else gamma * x * (1 - c ** (T - 1)) / (1 - c)
        return first + (1 - gamma) ** (T - 1) * x**T

    rows = []
    for d in (p, q):
        row = []
        for o in range(len(d)):
            F_ = sum(d[: o + 1])
            row.append(max(0.0, G(F_) - G(F_ - d[o])))
        rows.append(row)
    return rows


def _hard_screen(inst: Selection, space: ParamSelectionSpace) -> float:
    from .theory import theorem35_T

    pm = inst.mechs[0]
    T = theorem35_T(inst.param, space.eps0(inst))
    rows = _hard_rows([float(x) for x in pm.p], [float(x) for x in pm.q], float(inst.param), T)
    e = 3 * math.log(pm.a) + 3 * float(space.eps0(inst))
    return screens.ex_post_ratio(rows, [e] * len(rows[0]))


def _hard_document(inst: Selection, claim_id: str, space: ParamSelectionSpace) -> dict[str, Any]:
    from .theory import theorem35_T

    pm = inst.mechs[0]
    e0 = space.eps0(inst)
    T = theorem35_T(inst.param, e0)
    statement = (
        f"hard stopping (gamma = {inst.param}, T = {T} = ceil((ln L + ln ln L)/gamma), L = "
        f"2(1+gamma)^2/(eps0 gamma^2)) on an eps-DP Q is (3 eps + 3 eps0)-DP, eps0 = {e0}"
    )
    doc = skeleton_document(f"{LIU_TALWAR}, Theorem 3.5: {statement}")
    (name,) = add_base_mechanisms(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "lt_random_stopping_hard",
        "inputs": [name],
        "params": {"gamma": frac_text(inst.param), "T": T},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "pure_dp",
            "refuted",
            epsilon=f"{log_text(pm.a, 3)} + 3*({frac_text(e0)})",
            statement=statement + " (candidate o has score o)",
            source=f"{LIU_TALWAR}, Theorem 3.5",
        )
    )
    return doc


def hard_stopping_search(claim_id: str, notes: str, instances: int = 1200) -> SearchSpec:
    """Hard stopping with Theorem 3.5's ``T`` on an ``ε``-DP ``Q`` against ``3ε + 3ε0``."""
    space = ParamSelectionSpace(d=(1, 1), m=(2, 5), params=GAMMAS35, alphas=(1, 2, 3))
    return SearchSpec(
        space=space,
        screen=functools.partial(_hard_screen, space=space),
        document=functools.partial(_hard_document, claim_id=claim_id, space=space),
        default_instances=instances,
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Theorems 3.1 (c) and 3.4: an (eps1, delta1)-DP Q
# ---------------------------------------------------------------------------

#: mixture weights w of the approximate-DP part (delta1 <= w)
WEIGHTS31: tuple[Fraction, ...] = (
    Fraction(1, 10**6),
    Fraction(1, 10**5),
    Fraction(1, 10**4),
    Fraction(1, 1000),
    Fraction(1, 100),
)
WEIGHTS34: tuple[Fraction, ...] = (
    Fraction(1, 10**10),
    Fraction(1, 10**8),
    Fraction(1, 10**6),
    Fraction(1, 10**4),
)
GAMMAS34: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10))
TS34: tuple[int, ...] = (2, 3, 5, 8, 12, 20, 30, 40)


@instance_type
@dataclass(frozen=True)
class ApproxSel:
    """``Q = (1 - w) M + w X``: an exactly ``log(a)``-DP pair mechanism ``M`` mixed with
    any distributions ``X`` (``x`` at ``D``, ``xp`` at ``D'``) on the same scored outputs;
    ``δ1`` is the exact hockey-stick divergence of ``Q`` at ``ε1 = log a``.  ``gamma``,
    ``eps0`` (thresholding) or ``T`` (hard stopping) and the threshold rank ``tau``."""

    base: PairMech
    w: Fraction
    x: tuple[Fraction, ...]
    xp: tuple[Fraction, ...]
    gamma: Fraction
    eps0: Fraction
    T: int
    tau: int

    def q(self) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
        w = self.w
        p = tuple((1 - w) * a + w * b for a, b in zip(self.base.p, self.x, strict=True))
        q = tuple((1 - w) * a + w * b for a, b in zip(self.base.q, self.xp, strict=True))
        return p, q

    def delta1(self) -> Fraction:
        p, q = self.q()
        a = self.base.a
        return max(
            sum((max(Fraction(0), x - a * y) for x, y in zip(p, q, strict=True)), Fraction(0)),
            sum((max(Fraction(0), y - a * x) for x, y in zip(p, q, strict=True)), Fraction(0)),
        )


@dataclass
class ApproxSpace(InstanceSpace):
    """:class:`ApproxSel` instances for thresholding (``hard=False``) or hard stopping."""

    hard: bool = False

    def _make(self, rng: Random, extreme: bool) -> ApproxSel:
        """An instance whose claimed delta is below 1 (where the theorem says something);
        the budget, the weight and the parameters are redrawn until it is."""
        for _ in range(50):
            inst = self._draw(rng, extreme)
            if _approx_claimed(inst, self.hard)[1] < 1:
                return inst
        return inst

    def _draw(self, rng: Random, extreme: bool) -> ApproxSel:
        a = rng.choice(PURE_BUDGETS[:6])
        m = rng.randint(2, 4)
        base = extreme_pair(rng, m, a) if extreme else random_pair(rng, m, a)
        if extreme:  # all of X's mass on one output at D, another at D'
            i, j = rng.randrange(m), rng.randrange(m)
            x = tuple(Fraction(int(k == i)) for k in range(m))
            xp = tuple(Fraction(int(k == j)) for k in range(m))
        else:
            x, xp = random_distribution(rng, m), random_distribution(rng, m)
        w = rng.choice(WEIGHTS34 if self.hard else WEIGHTS31)
        g = rng.choice(GAMMAS34 if self.hard else GAMMAS31)
        return ApproxSel(
            base, w, x, xp, g, rng.choice(EPS0S), rng.choice(TS34), rng.randrange(1, m)
        )

    def random(self, rng: Random) -> ApproxSel:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> ApproxSel:
        return self._make(rng, True)

    def neighbour(self, inst: ApproxSel, rng: Random, scale: float) -> ApproxSel:
        new = self._move(inst, rng, scale)
        return new if _approx_claimed(new, self.hard)[1] < 1 else inst

    def _move(self, inst: ApproxSel, rng: Random, scale: float) -> ApproxSel:
        u = rng.random()
        if u < 0.5:
            base = perturb_pair(inst.base, rng, scale)
            return ApproxSel(base, inst.w, inst.x, inst.xp, inst.gamma, inst.eps0, inst.T, inst.tau)
        new = self._make(rng, rng.random() < 0.5)
        if u < 0.7:
            return ApproxSel(
                inst.base, new.w, inst.x, inst.xp, inst.gamma, inst.eps0, inst.T, inst.tau
            )
        if u < 0.85:
            return ApproxSel(
                inst.base, inst.w, inst.x, inst.xp, new.gamma, new.eps0, new.T, inst.tau
            )
        return ApproxSel(
            inst.base,
            inst.w,
            inst.x,
            inst.xp,
            inst.gamma,
            inst.eps0,
            inst.T,
            min(new.tau, inst.base.m - 1),
        )

    def describe(self, inst: ApproxSel) -> str:
        p, q = inst.q()
        extra = f"T = {inst.T}" if self.hard else f"eps0 = {inst.eps0}, tau = {inst.tau}"
        return (
            f"Q = (1 - {inst.w}) {describe_pair(inst.base)} + {inst.w} X: D ({', '.join(map(str, p))}), "
            f"D' ({', '.join(map(str, q))}); delta1 = {inst.delta1()}, gamma = {inst.gamma}, {extra}"
        )


def _approx_claimed(inst: ApproxSel, hard: bool) -> tuple[float, float]:
    """Theorem 3.4's (hard) or 3.1 (c)'s ``(ε, δ)`` in floats."""
    e1, d1 = math.log(inst.base.a), float(inst.delta1())
    g = float(inst.gamma)
    if hard:
        return 3 * e1 + 3 * math.sqrt(2 * d1), min(
            1.0, math.sqrt(2 * d1) * inst.T + math.exp(-g * inst.T)
        )
    e = 2 * e1 + float(inst.eps0)
    return e, min(1.0, 3 * math.exp(e) * d1 / g)


def _approx_screen(inst: ApproxSel, hard: bool) -> float:
    from .theory import theorem31_min_T

    p, q = inst.q()
    fp, fq = [float(x) for x in p], [float(x) for x in q]
    if hard:
        rows = _hard_rows(fp, fq, float(inst.gamma), inst.T)
    else:
        rows = _thr_rows(
            fp, fq, inst.tau, float(inst.gamma), theorem31_min_T(inst.gamma, inst.eps0)
        )
    e, dl = _approx_claimed(inst, hard)
    realized = max(
        sum(max(0.0, x - math.exp(e) * y) for x, y in zip(rows[i], rows[j], strict=True))
        for i, j in ((0, 1), (1, 0))
    )
    return realized / dl if dl > 0 else (math.inf if realized > 1e-12 else 0.0)


def _approx_document(inst: ApproxSel, claim_id: str, hard: bool) -> dict[str, Any]:
    from .theory import theorem31_min_T

    p, q = inst.q()
    a, d1 = inst.base.a, inst.delta1()
    g = frac_text(inst.gamma)
    doc = skeleton_document(f"{LIU_TALWAR}, Theorem {'3.4' if hard else '3.1 (c)'}")
    outs = list(range(len(p)))
    doc["mechanisms"]["Q"] = {
        "graph": "g",
        "outputs": outs,
        "distributions": {"D": distribution_table(p, outs), "D'": distribution_table(q, outs)},
    }
    doc["claims"].append(
        claim_entry(
            "premise-Q",
            "Q",
            "approx_dp",
            "holds",
            epsilon=log_text(a),
            delta=frac_text(d1),
            statement=f"premise: Q is (log({a}), {d1})-DP",
        )
    )
    if hard:
        T = inst.T
        doc["mechanisms"]["A"] = {
            "algorithm": "lt_random_stopping_hard",
            "inputs": ["Q"],
            "params": {"gamma": g, "T": T},
        }
        eps = f"{log_text(a, 3)} + 3*sqrt(2*({frac_text(d1)}))"
        dl = f"min(1, sqrt(2*({frac_text(d1)}))*{T} + exp(-({g})*{T}))"
        statement = (
            f"hard stopping (gamma = {inst.gamma}, T = {T} = log(1/delta2)/gamma, delta2 = e^(-gamma T)) "
            f"on an (eps1, delta1)-DP Q is (3 eps1 + 3 sqrt(2 delta1), sqrt(2 delta1) T + delta2)-DP"
        )
    else:
        T = theorem31_min_T(inst.gamma, inst.eps0)
        e0 = frac_text(inst.eps0)
        doc["mechanisms"]["A"] = {
            "algorithm": "lt_thresholding",
            "inputs": ["Q"],
            "params": {"tau": inst.tau, "gamma": g, "T": T},
        }
        eps = f"{log_text(a, 2)} + ({e0})"
        dl = f"min(1, 3*exp({log_text(a, 2)} + ({e0}))*({frac_text(d1)})/({g}))"
        statement = (
            f"thresholding (tau = {inst.tau}, gamma = {inst.gamma}, eps0 = {inst.eps0}, T = {T} the least "
            f"admissible) on an (eps1, delta1)-DP Q is (2 eps1 + eps0, 3 e^(2 eps1 + eps0) delta1/gamma)-DP"
        )
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "approx_dp",
            "refuted",
            epsilon=eps,
            delta=dl,
            statement=statement + " (candidate o has score o)",
            source=f"{LIU_TALWAR}, Theorem {'3.4' if hard else '3.1 (c)'}",
        )
    )
    return doc


def approx_search(claim_id: str, algorithm: str, notes: str, instances: int = 600) -> SearchSpec:
    """Thresholding (Theorem 3.1 (c), ``algorithm="thresholding"``) or hard stopping
    (Theorem 3.4, ``"hard"``) on an ``(ε1, δ1)``-DP ``Q`` (:class:`ApproxSpace`)."""
    hard = algorithm == "hard"
    return SearchSpec(
        space=ApproxSpace(hard=hard),
        screen=functools.partial(_approx_screen, hard=hard),
        document=functools.partial(_approx_document, claim_id=claim_id, hard=hard),
        default_instances=instances,
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Theorem 3.1 (e): Pr[⊥] as a function of p_tau
# ---------------------------------------------------------------------------


def _bottom_values(inst: Any) -> tuple[Fraction, Fraction, Fraction, int]:
    """``(p_τ, γ, ε0, T)`` of a grid point, ``T`` the least admissible."""
    from .theory import theorem31_min_T

    p, g, e0 = inst.values
    return p, g, e0, theorem31_min_T(g, e0)


def _bottom_screen(inst: Any) -> float:
    """Pr[⊥] of the algorithm on a two-output ``Q`` (float of the exact value) over the
    bound."""
    from verifier.algorithms.liu_talwar import BOTTOM, thresholding
    from verifier.arithmetic.exact import approx
    from verifier.mechanism.model import FiniteMechanism
    from verifier.mechanism.neighbours import pair

    p, g, e0, T = _bottom_values(inst)
    Q = FiniteMechanism(pair(), {"D": {0: 1 - p, 1: p}, "D'": {0: 1 - p, 1: p}}, [0, 1])
    bot = thresholding(Q, 1, g, T).p("D", BOTTOM)
    return approx(bot) / float((1 - p) * (1 + e0 / 2) * g / p)


def _bottom_document(inst: Any, claim_id: str) -> dict[str, Any]:
    """The claim at one grid point: the algorithm's Pr[⊥] in its closed form (Liu & Talwar
    2019, App. A.1, the display for ⊥; the library's thresholding is this closed form and
    liu_talwar2019.thm31.step.bottom_closed_form proves them equal), as an expression so
    the certificate stays small; the hypotheses on T as premises."""
    p, g, e0, T = _bottom_values(inst)
    pt, gt, et = (f"({frac_text(x)})" for x in (p, g, e0))
    r = f"((1 - {pt})*(1 - {gt}))"
    doc = skeleton_document(
        f"{LIU_TALWAR}, Theorem 3.1 (e) at p_tau = {p}, gamma = {g}, eps0 = {e0}"
    )
    for k, (lhs, rhs) in enumerate(((f"log(2/{et})/{gt}", T), (f"1 + 1/(e*{gt})", T), (et, 1))):
        doc["claims"].append(
            {
                "id": f"premise-{k + 1}",
                "kind": "inequality",
                "lhs": lhs,
                "rhs": rhs,
                "expected": "holds",
                "statement": "a hypothesis of Theorem 3.1",
            }
        )
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": f"(1 - {pt})*{gt}*(1 - {r}^{T})/(1 - {r}) + {r}^{T}",
            "rhs": f"(1 - {pt})*(1 + {et}/2)*{gt}/{pt}",
            "expected": "refuted",
            "statement": f"Pr[⊥] <= (1 - p_tau)(1 + eps0/2) gamma/p_tau at p_tau = {p}, gamma = {g}, "
            f"eps0 = {e0}, T = {T} (Pr[⊥] in its closed form)",
            "source": f"{LIU_TALWAR}, Theorem 3.1 (e)",
        }
    )
    return doc


def bottom_search(claim_id: str, notes: str, instances: int = 600) -> SearchSpec:
    """Theorem 3.1 (e) on a grid of ``(p_τ, γ, ε0)`` with the least admissible ``T``
    (the algorithm's ``Pr[⊥]`` depends on ``Q`` only through ``p_τ``)."""
    from verifier.search.inequalities import GridSpace

    gammas = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(1, 20))
    space = GridSpace(
        ("p", "gamma", "eps0"),
        (tuple(Fraction(k, 200) for k in range(1, 200)), gammas, EPS0S),
    )
    return SearchSpec(
        space=space,
        screen=_bottom_screen,
        document=functools.partial(_bottom_document, claim_id=claim_id),
        default_instances=instances,
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Lemma C.2 and Lemmas A.4, A.5: sums of independent random variables
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class Variables:
    """Independent random variables: ``dists[i]`` is ``((value, probability), ...)``
    (rational values in ``[0, 1]``); ``a = e^ε`` and ``m`` (``δ = a^{-m}``) for the
    Chernoff bounds."""

    dists: tuple[tuple[tuple[Fraction, Fraction], ...], ...]
    a: Fraction = Fraction(1)
    m: int = 1


def _rand_var(rng: Random, bernoulli: bool) -> tuple[tuple[Fraction, Fraction], ...]:
    if bernoulli:
        p = (
            Fraction(rng.randint(1, 99), 100)
            if rng.random() < 0.8
            else rng.choice((Fraction(1, 1000), Fraction(999, 1000)))
        )
        return ((Fraction(0), 1 - p), (Fraction(1), p))
    k = rng.randint(1, 3)
    vals = sorted({Fraction(rng.randint(0, 10), 10) for _ in range(k)})
    probs = random_distribution(rng, len(vals))
    return tuple(zip(vals, probs, strict=True))


@dataclass
class VariablesSpace(InstanceSpace):
    """Lists of independent random variables on [0, 1] (``bernoulli``: Bernoulli ones,
    the sums of Lemmas A.4, A.5), ``n`` of them."""

    n: tuple[int, int] = (1, 4)
    bernoulli: bool = False

    def random(self, rng: Random) -> Variables:
        n = rng.randint(*self.n)
        dists = tuple(_rand_var(rng, self.bernoulli) for _ in range(n))
        return Variables(
            dists,
            rng.choice((Fraction(11, 10), Fraction(3, 2), Fraction(9, 4), Fraction(4))),
            rng.randint(1, 4),
        )

    def extreme(self, rng: Random) -> Variables:
        inst = self.random(rng)
        if rng.random() < 0.5:  # identical variables
            return Variables(tuple(inst.dists[:1] * len(inst.dists)), inst.a, inst.m)
        return inst

    def neighbour(self, inst: Variables, rng: Random, scale: float) -> Variables:
        dists = list(inst.dists)
        j = rng.randrange(len(dists))
        dists[j] = _rand_var(rng, self.bernoulli)
        return Variables(tuple(dists), inst.a, inst.m if rng.random() < 0.8 else rng.randint(1, 4))

    def describe(self, inst: Variables) -> str:
        parts = ["{" + ", ".join(f"{v}: {p}" for v, p in d) + "}" for d in inst.dists]
        return f"X = ({'; '.join(parts)})" + (
            f", e^eps = {inst.a}, m = {inst.m}" if self.bernoulli else ""
        )


def _sum_law(inst: Variables) -> dict[Fraction, Fraction]:
    law = {Fraction(0): Fraction(1)}
    for d in inst.dists:
        new: dict[Fraction, Fraction] = {}
        for s, w in law.items():
            for v, p in d:
                new[s + v] = new.get(s + v, Fraction(0)) + w * p
        law = new
    return law


def _c2_values(inst: Variables) -> tuple[Fraction, Fraction]:
    """``(E[1/(1 + Σ X_i)], Σ E X_i)``, exactly."""
    law = _sum_law(inst)
    e = sum((w / (1 + s) for s, w in law.items()), Fraction(0))
    return e, sum((s * w for s, w in law.items()), Fraction(0))


def _c2_screen(inst: Variables) -> float:
    e, m = _c2_values(inst)
    lower = float(1 / (1 + m)) / float(e)
    upper = float(e) * float(m) if m > 0 else 0.0
    return max(lower, upper)


def _c2_document(inst: Variables, claim_id: str) -> dict[str, Any]:
    e, m = _c2_values(inst)
    doc = skeleton_document(f"{LIU_TALWAR}, Lemma C.2 on {VariablesSpace().describe(inst)}")
    rows = [f"1/((1 + {m})*({e}))"] + ([f"({e})*({m})"] if m > 0 else [])
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": f"max({', '.join(rows)})",
            "rhs": 1,
            "expected": "refuted",
            "statement": f"1/(1 + Σ E X_i) <= E[1/(1 + Σ X_i)] <= 1/Σ E X_i with E[1/(1 + Σ X_i)] = {e}, "
            f"Σ E X_i = {m} ({VariablesSpace().describe(inst)})",
            "source": f"{LIU_TALWAR}, Lemma C.2",
        }
    )
    return doc


def c2_search(claim_id: str, notes: str, instances: int = 600) -> SearchSpec:
    """Lemma C.2 over lists of independent random variables on [0, 1]."""
    return SearchSpec(
        space=VariablesSpace(),
        screen=_c2_screen,
        document=functools.partial(_c2_document, claim_id=claim_id),
        default_instances=instances,
        notes=notes,
    )


def _tail(inst: Variables, upper: bool) -> tuple[Fraction, Fraction]:
    """(Pr[tail event], delta) of Lemma A.4 (``upper``) or A.5 with ``e^eps = a``,
    ``delta = a^-m``, so ``ln(1/delta)/eps = m``."""
    law = _sum_law(inst)
    mean = sum((s * w for s, w in law.items()), Fraction(0))
    a, m = inst.a, inst.m
    if upper:  # X >= e^eps E X + (e^eps + 1) ln(1/delta)/eps
        thr = a * mean + (a + 1) * m
        pr = sum((w for s, w in law.items() if s >= thr), Fraction(0))
    else:  # Y <= e^-eps E Y - ln(1/delta)/eps
        thr = mean / a - m
        pr = sum((w for s, w in law.items() if s <= thr), Fraction(0))
    return pr, a ** (-m)


def _tail_screen(inst: Variables, upper: bool) -> float:
    pr, d = _tail(inst, upper)
    return float(pr / d)


def _tail_document(inst: Variables, claim_id: str, upper: bool) -> dict[str, Any]:
    pr, d = _tail(inst, upper)
    which = "A.4, Eq. (3)" if upper else "A.5, Eq. (4)"
    doc = skeleton_document(f"{LIU_TALWAR}, Lemma {which}")
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": frac_text(pr),
            "rhs": frac_text(d),
            "expected": "refuted",
            "statement": f"the Chernoff tail of Lemma {which} is at most delta = {d} "
            f"({VariablesSpace(bernoulli=True).describe(inst)})",
            "source": f"{LIU_TALWAR}, Lemma {which}",
        }
    )
    return doc


def tail_search(claim_id: str, upper: bool, notes: str, instances: int = 600) -> SearchSpec:
    """Lemma A.4 (``upper``) or A.5 over sums of up to 12 independent Bernoullis."""
    return SearchSpec(
        space=VariablesSpace(n=(1, 12), bernoulli=True),
        screen=functools.partial(_tail_screen, upper=upper),
        document=functools.partial(_tail_document, claim_id=claim_id, upper=upper),
        default_instances=instances,
        notes=notes,
    )

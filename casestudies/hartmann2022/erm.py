"""Hartmann et al. 2022, §6.1 and App. D: output perturbation for ERM (Chaudhuri et
al.'s Algorithm 4, Theorem 16), the released-only-if-good model (Algorithm 5,
Theorem 17, Corollary 18), Lemma 21 and Figure 2 — in one dimension.

Reconstruction (the seed text lost the formulas; the constants of Algorithm 5 are
those of the authors' plotting notebook, ``compute_a``).  Training set ``D_train`` of
``n`` records ``(x_i, y_i)``, ``|x_i| <= 1``, ``y_i ∈ {-1, 1}``; test set ``D_test`` of
``m`` records; ``Λ`` the regularisation strength.

* **Algorithm 4** (Chaudhuri et al. 2011): ``w* = argmin_w (1/n) Σ ℓ(y_i x_i w) +
  (Λ/2) w²`` and release ``θ = w* + b`` with ``b`` of density ``∝ e^{-β|b|}``,
  ``β = nΛε_1/2`` — in one dimension Laplace noise of scale ``2/(nΛε_1)``.
* **Theorem 16** (Chaudhuri et al.): for a convex differentiable loss with
  ``|ℓ'| <= 1`` and a 1-strongly convex regulariser, ``|w*(D) - w*(D')| <= 2/(nΛ)`` when
  one record is replaced, so Algorithm 4 is ``ε_1``-DP.
* **Algorithm 5**: ``θ`` from Algorithm 4 (logistic loss ``ℓ(z) = log(1 + e^{-z})``);
  ``f(θ, x) = 2σ(θx) - 1`` with ``σ(t) = 1/(1 + e^{-t})``; the test error
  ``err(θ, D_test) = (1/m) Σ_j |f(θ, x_j) - y_j|`` (in ``[0, 2)``); ``a = max(2/m,
  2(e^{2/(nΛ)} - 1))``; ``s = err + L`` with ``L ~ Lap(a/ε_2)``; release ``θ`` if
  ``s <= τ``, else ``⊥``.
* **Lemma 21**: (1) for a fixed test set, ``D_train ↦ err(θ(D_train), D_test) + L`` is
  ``ε_2``-DP (the error moves by at most ``2(e^{2/(nΛ)} - 1) <= a`` for every value of
  Algorithm 4's noise, by Theorem 16 and Eqs. (14)–(15)); (2) for a fixed ``θ``,
  ``D_test ↦ err(θ, D_test) + L`` is ``ε_2``-DP (one test record moves the error by at
  most ``2/m <= a``).
* **Theorem 17**: Algorithm 5 is ``({⊥}: ε_2, R: max(ε_1, ε_2), δ = 0)``-ODP for
  neighbours that differ in one training or one test record; **Corollary 18**: with
  ``ε_2 <= ε_1`` it is ``({⊥}: ε_2, R: ε_1)``-ODP.

**Deciding Algorithm 5 over its whole output space.**  With test covariates in
``{0, ±1/2, ±1}`` put ``e^{θ/2} = v/(1 - v)``: then ``σ(θ x)`` is a rational function of
``v ∈ [0, 1]`` (``v^k/(v^k + (1-v)^k)`` for ``x = k/2 > 0``), and ``v = 0, 1`` are the
limits ``θ → ∓∞``; every ``θ ∈ ℝ`` is covered by a certified range decision over ``v``.
A released ``θ`` has density ``p_{w*}(θ) · F_L(τ - err(θ))`` (``F_L`` the CDF of
``L``); ``⊥`` has probability ``∫ p_{w*}(θ) S_L(τ - err(θ)) dθ``.

* Training record replaced (``D_test`` fixed): the factor ``F_L(τ - err(θ))`` is the
  same at both datasets, so the release density ratio is that of two Laplace
  densities centred at ``w_1 = w*(D)``, ``w_2 = w*(D')``, with supremum
  ``e^{β|w_1 - w_2|}``; decided for every ``Δ = w_2 - w_1`` in the certified enclosure
  of the minimisers.  For ``⊥`` the noise ``b`` is shared: ``S_L(τ - err(w_1 + b)) <=
  e^{ε_2} S_L(τ - err(w_2 + b))`` for every ``b`` (then integrate), which holds when
  ``|err(θ) - err(θ + Δ)| <= a`` for every ``θ`` and every ``Δ`` in the enclosure —
  decided over the box ``v ∈ [0, 1] × Δ``.
* Test record replaced: ``θ`` has the same law; the release density ratio and the
  ``⊥`` probability ratio are bounded pointwise by ``F_L(τ - e)/F_L(τ - e')`` and
  ``S_L(τ - e)/S_L(τ - e')``, at most ``e^{ε_2 |e - e'|/a}``: decided as
  ``|err_T(θ) - err_T'(θ)| <= a`` for every ``v ∈ [0, 1]``.
* The Laplace step (both cases): ``log F_L`` and ``log S_L`` are ``1/b``-Lipschitz
  (``b = a/ε_2``), i.e. ``F_L'(z) <= F_L(z)/b`` and ``-S_L'(z) <= S_L(z)/b``; on
  ``z <= 0`` and ``z >= 0`` these are ``e^{-w} <= 2 - e^{-w}`` or identities in
  ``w = |z|/b``, decided over ``w ∈ [0, 64]`` (both sides are monotone beyond).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.algorithms.noise.mixtures import check_laplace_mixtures_dp
from verifier.arithmetic.exact import Sign, decide_sign
from verifier.checks.certified import check_eq, check_le
from verifier.checks.results import CheckResult, conjunction, given
from verifier.claims import SearchSpec, Tightness
from verifier.search.certificates import frac_text, skeleton_document
from verifier.search.core import InstanceSpace, instance_type

F = Fraction
R = sp.Rational
SRC = "Hartmann et al. 2022"

#: ``v`` with ``e^{θ/2} = v/(1 - v)``: ``v ∈ [0, 1]`` covers every ``θ`` and both limits.
V = sp.Symbol("v", real=True)
#: ``Δ = w*(D') - w*(D)`` (within the certified enclosure of the two minimisers).
DELTA = sp.Symbol("Delta", real=True)
W = sp.Symbol("w", nonnegative=True)

Record = tuple[Fraction, int]


# ---------------------------------------------------------------------------
# losses and exact / certified minimisers (Algorithm 4)
# ---------------------------------------------------------------------------


def huber_derivative(z: Fraction, h: Fraction) -> Fraction:
    """``ℓ'(z)`` of the Huberised hinge loss (Chaudhuri et al. 2011, §3.4.2):
    ``ℓ(z) = 0`` for ``z > 1 + h``, ``(1 + h - z)²/(4h)`` for ``|1 - z| <= h``,
    ``1 - z`` for ``z < 1 - h`` — convex, differentiable, ``ℓ' ∈ [-1, 0]``."""
    if z >= 1 + h:
        return F(0)
    if z <= 1 - h:
        return F(-1)
    return -(1 + h - z) / (2 * h)


def huber_minimiser(data: Sequence[Record], lam: Fraction, h: Fraction) -> Fraction:
    """The exact minimiser of ``F(w) = (1/n) Σ ℓ(y_i x_i w) + (Λ/2) w²`` for the
    Huberised hinge loss: ``F'(w) = Λw + (1/n) Σ s_i ℓ'(s_i w)`` (``s_i = y_i x_i``) is
    continuous, strictly increasing and affine between the breakpoints
    ``w = (1 ± h)/s_i``; the root is found on the piece where ``F'`` changes sign and
    solved exactly."""
    n = len(data)
    s = [F(x) * y for x, y in data]

    def dF(w: Fraction) -> Fraction:
        return lam * w + sum((si * huber_derivative(si * w, h) for si in s), F(0)) / n

    cuts = sorted({(1 + e) / si for si in s if si for e in (h, -h)})
    bound = (1 + abs(max(s, key=abs, default=F(0)))) / lam + 1
    pts = [-bound, *[c for c in cuts if -bound < c < bound], bound]
    for lo, hi in zip(pts, pts[1:], strict=False):
        flo, fhi = dF(lo), dF(hi)
        if flo == 0:
            return lo
        if flo < 0 <= fhi:
            return lo - flo * (hi - lo) / (fhi - flo)  # F' is affine on [lo, hi]
    raise AssertionError("F' has no root in [-bound, bound]")  # |w*| <= max|s| / Λ


@functools.lru_cache(maxsize=256)
def logistic_enclosure(
    data: tuple[Record, ...], lam: Fraction, steps: int = 30
) -> tuple[Fraction, Fraction]:
    """An enclosure ``[lo, hi]`` of the minimiser of ``F(w) = (1/n) Σ log(1 +
    e^{-y x w}) + (Λ/2) w²`` (strictly convex): bisection on the sign of ``F'(w) = Λ w -
    (1/n) Σ y x/(1 + e^{y x w})``, every sign certified."""
    n = len(data)
    lam_ = R(lam.numerator, lam.denominator)

    def dF(w: Fraction) -> sp.Expr:
        w_ = R(w.numerator, w.denominator)
        return (
            lam_ * w_ - sp.Add(*[R(y) * R(x) / (1 + sp.exp(R(y) * R(x) * w_)) for x, y in data]) / n
        )

    lo, hi = -1 / lam, 1 / lam  # |w*| <= max|x| / Λ <= 1/Λ
    for _ in range(steps):
        mid = (lo + hi) / 2
        sgn = decide_sign(dF(mid)).sign
        if sgn is Sign.ZERO:
            return mid, mid
        if sgn is Sign.NEGATIVE:
            lo = mid
        else:
            hi = mid
    return lo, hi


# ---------------------------------------------------------------------------
# Theorem 16
# ---------------------------------------------------------------------------


@instance_type
@dataclass(frozen=True)
class ErmPair:
    """Neighbouring training sets (record ``k`` replaced by ``new``), ``Λ`` and the loss
    (``h > 0``: the Huberised hinge with that ``h``; ``h = 0``: logistic)."""

    data: tuple[Record, ...]
    k: int
    new: Record
    lam: Fraction
    h: Fraction

    def other(self) -> tuple[Record, ...]:
        return self.data[: self.k] + (self.new,) + self.data[self.k + 1 :]


COVARIATES = tuple(sorted({F(i, d) for d in (1, 2, 3, 4, 5, 10) for i in range(-d, d + 1)}))
LAMBDAS = (F(1, 8), F(1, 4), F(1, 2), F(1), F(2), F(4), F(8))
HS = (F(1, 10), F(1, 4), F(1, 2), F(1))


@dataclass
class ErmSpace(InstanceSpace):
    """Training sets of ``n`` records (covariates on a rational grid of ``[-1, 1]``,
    labels ``±1``), one record replaced, ``Λ`` on a grid, the Huberised hinge loss
    (several ``h``) or the logistic loss."""

    n: tuple[int, int] = (1, 6)
    logistic: float = 0.25

    def _make(self, rng: Random, extreme: bool) -> ErmPair:
        n = rng.randint(*self.n)
        pick = (
            (lambda: rng.choice((F(-1), F(0), F(1))))
            if extreme
            else (lambda: rng.choice(COVARIATES))
        )
        data = tuple((pick(), rng.choice((-1, 1))) for _ in range(n))
        k = rng.randrange(n)
        new = (pick(), rng.choice((-1, 1)))
        if extreme and rng.random() < 0.5:
            new = (data[k][0], -data[k][1]) if data[k][0] else (F(1), 1)
        h = F(0) if rng.random() < self.logistic else rng.choice(HS)
        return ErmPair(data, k, new, rng.choice(LAMBDAS), h)

    def random(self, rng: Random) -> ErmPair:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> ErmPair:
        return self._make(rng, True)

    def neighbour(self, inst: ErmPair, rng: Random, scale: float) -> ErmPair:
        u = rng.random()
        if u < 0.3:
            return replace(inst, lam=rng.choice(LAMBDAS))
        if u < 0.6:
            i = rng.randrange(len(inst.data))
            rec = (rng.choice(COVARIATES), inst.data[i][1])
            return replace(inst, data=inst.data[:i] + (rec,) + inst.data[i + 1 :])
        return self.random(rng)

    def complexity(self, inst: ErmPair) -> tuple[float, ...]:
        return (float(len(inst.data)),)

    def describe(self, inst: ErmPair) -> str:
        recs = ", ".join(f"({x}, {y:+d})" for x, y in inst.data)
        loss = f"Huberised hinge, h = {inst.h}" if inst.h else "logistic"
        return f"{loss}, Lambda = {inst.lam}; D = [{recs}]; record {inst.k} -> {inst.new}"


def _sens_bound(inst: ErmPair) -> Fraction:
    return 2 / (len(inst.data) * inst.lam)


def logistic_enclosure_float(
    data: Sequence[Record], lam: Fraction, steps: int = 30
) -> tuple[Fraction, Fraction]:
    """:func:`logistic_enclosure`'s bisection with the signs of ``F'`` taken in floating
    point (screening only): the same dyadic end points unless ``|F'(mid)|`` is within
    rounding of 0."""
    lo, hi = -1 / lam, 1 / lam
    for _ in range(steps):
        mid = (lo + hi) / 2
        w = float(mid)
        g = float(lam) * w - sum(
            float(y * x) / (1 + math.exp(float(y * x) * w)) for x, y in data
        ) / len(data)
        if g == 0:
            return mid, mid
        if g < 0:
            lo = mid
        else:
            hi = mid
    return lo, hi


def _erm_screen(inst: ErmPair) -> float:
    if inst.h:
        w1 = huber_minimiser(inst.data, inst.lam, inst.h)
        w2 = huber_minimiser(inst.other(), inst.lam, inst.h)
        return float(abs(w1 - w2) / _sens_bound(inst))
    lo1, hi1 = logistic_enclosure_float(inst.data, inst.lam)
    lo2, hi2 = logistic_enclosure_float(inst.other(), inst.lam)
    return float(max(hi2 - lo1, hi1 - lo2) / _sens_bound(inst))


def sensitivity_bounds(inst: ErmPair) -> tuple[Fraction, Fraction]:
    """``(lo, hi)`` with ``lo <= w*(D') - w*(D) <= hi``: exact (Huber) or from the
    certified enclosures (logistic)."""
    if inst.h:
        d = huber_minimiser(inst.other(), inst.lam, inst.h) - huber_minimiser(
            inst.data, inst.lam, inst.h
        )
        return d, d
    lo1, hi1 = logistic_enclosure(inst.data, inst.lam)
    lo2, hi2 = logistic_enclosure(inst.other(), inst.lam)
    return lo2 - hi1, hi2 - lo1


def _erm_document(inst: ErmPair, claim_id: str) -> dict[str, Any]:
    lo, hi = sensitivity_bounds(inst)
    doc = skeleton_document(f"{SRC}, Theorem 16 (Chaudhuri et al.) in one dimension")
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": f"max({frac_text(hi)}, -({frac_text(lo)}))",
            "rhs": frac_text(_sens_bound(inst)),
            "expected": "refuted",
            "statement": "Theorem 16: |w*(D) - w*(D')| <= 2/(n Lambda) ("
            + ("exact minimisers" if inst.h else "certified enclosures of the minimisers")
            + f"; {ErmSpace().describe(inst)})",
            "source": f"{SRC}, Theorem 16",
        }
    )
    return doc


Point = tuple[Fraction, Fraction]


def huber_minimiser_2d(data: Sequence[tuple[Point, int]], lam: Fraction, h: Fraction) -> Point:
    """The exact minimiser in ``ℝ²`` of ``F(w) = (1/n) Σ ℓ(y_i <w, x_i>) + (Λ/2)|w|²`` for
    the Huberised hinge loss: on each pattern of margins (flat: ``z >= 1 + h``;
    quadratic: ``|1 - z| <= h``; linear: ``z <= 1 - h``) ``∇F`` is affine,
    ``(ΛI + (1/(2hn)) Σ_quad x xᵀ) w = (1/n) Σ_lin y x + ((1 + h)/(2hn)) Σ_quad y x``;
    ``F`` is strictly convex, so the solution of the pattern it is consistent with is the
    minimiser (every pattern is tried, exactly)."""
    n = len(data)
    for pattern in itertools.product((0, 1, 2), repeat=n):  # 0 flat, 1 quadratic, 2 linear
        a11 = a22 = lam
        a12 = F(0)
        b1 = b2 = F(0)
        for ((x1, x2), y), kind in zip(data, pattern, strict=True):
            if kind == 1:
                c = 1 / (2 * h * n)
                a11 += c * x1 * x1
                a12 += c * x1 * x2
                a22 += c * x2 * x2
                b1 += (1 + h) * c * y * x1
                b2 += (1 + h) * c * y * x2
            elif kind == 2:
                b1 += F(y) * x1 / n
                b2 += F(y) * x2 / n
        det = a11 * a22 - a12 * a12
        w = ((a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det)
        ok = True
        for ((x1, x2), y), kind in zip(data, pattern, strict=True):
            z = y * (w[0] * x1 + w[1] * x2)
            if (
                (kind == 0 and z < 1 + h)
                or (kind == 1 and not 1 - h <= z <= 1 + h)
                or (kind == 2 and z > 1 - h)
            ):
                ok = False
                break
        if ok:
            return w
    raise AssertionError("no consistent pattern: F has a unique minimiser")


@instance_type
@dataclass(frozen=True)
class ErmPair2:
    """Neighbouring training sets in ``ℝ²`` (``|x| <= 1``), record ``k`` replaced by
    ``new``, ``Λ`` and the Huberised hinge's ``h``."""

    data: tuple[tuple[Point, int], ...]
    k: int
    new: tuple[Point, int]
    lam: Fraction
    h: Fraction

    def other(self) -> tuple[tuple[Point, int], ...]:
        return self.data[: self.k] + (self.new,) + self.data[self.k + 1 :]


#: Rational points of the unit disc.
DISC = tuple(
    (a, b)
    for a in COVARIATES
    for b in COVARIATES
    if a * a + b * b <= 1 and (a.denominator <= 5 and b.denominator <= 5)
) + ((F(3, 5), F(4, 5)), (F(-4, 5), F(3, 5)), (F(5, 13), F(-12, 13)), (F(-8, 17), F(-15, 17)))


@dataclass
class ErmMixSpace(InstanceSpace):
    """Theorem 16's hypothesis space in dimensions 1 and 2: :class:`ErmSpace`, and
    training sets in the unit disc with the Huberised hinge loss (exact minimisers)."""

    def __post_init__(self) -> None:
        self.one = ErmSpace()

    def _two(self, rng: Random, extreme: bool) -> ErmPair2:
        n = rng.randint(1, 5)
        pts = [p for p in DISC if p[0] ** 2 + p[1] ** 2 == 1] if extreme else list(DISC)
        data = tuple((rng.choice(pts), rng.choice((-1, 1))) for _ in range(n))
        k = rng.randrange(n)
        new = (data[k][0], -data[k][1]) if extreme else (rng.choice(pts), rng.choice((-1, 1)))
        return ErmPair2(data, k, new, rng.choice(LAMBDAS), rng.choice(HS))

    def random(self, rng: Random) -> Any:
        return self.one.random(rng) if rng.random() < 0.6 else self._two(rng, False)

    def extreme(self, rng: Random) -> Any:
        return self.one.extreme(rng) if rng.random() < 0.6 else self._two(rng, True)

    def neighbour(self, inst: Any, rng: Random, scale: float) -> Any:
        if isinstance(inst, ErmPair):
            return self.one.neighbour(inst, rng, scale)
        return (
            replace(inst, lam=rng.choice(LAMBDAS)) if rng.random() < 0.5 else self._two(rng, False)
        )

    def complexity(self, inst: Any) -> tuple[float, ...]:
        return (float(len(inst.data)),)

    def describe(self, inst: Any) -> str:
        if isinstance(inst, ErmPair):
            return self.one.describe(inst)
        recs = ", ".join(f"(({x1}, {x2}), {y:+d})" for (x1, x2), y in inst.data)
        return f"d = 2, Huberised hinge, h = {inst.h}, Lambda = {inst.lam}; D = [{recs}]; record {inst.k} -> {inst.new}"


def _erm2_gap(inst: ErmPair2) -> tuple[Fraction, Fraction]:
    """``(|w*(D) - w*(D')|², (2/(nΛ))²)``, exactly."""
    w1 = huber_minimiser_2d(inst.data, inst.lam, inst.h)
    w2 = huber_minimiser_2d(inst.other(), inst.lam, inst.h)
    return (w1[0] - w2[0]) ** 2 + (w1[1] - w2[1]) ** 2, (2 / (len(inst.data) * inst.lam)) ** 2


def _erm_mix_screen(inst: Any) -> float:
    if isinstance(inst, ErmPair):
        return _erm_screen(inst)
    gap, bound = _erm2_gap(inst)
    return float(gap / bound)  # squared norms, as the document compares them


def _erm_mix_document(inst: Any, claim_id: str) -> dict[str, Any]:
    if isinstance(inst, ErmPair):
        return _erm_document(inst, claim_id)
    gap, bound = _erm2_gap(inst)
    doc = skeleton_document(f"{SRC}, Theorem 16 (Chaudhuri et al.) in two dimensions")
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": frac_text(gap),
            "rhs": frac_text(bound),
            "expected": "refuted",
            "statement": "Theorem 16: |w*(D) - w*(D')|^2 <= (2/(n Lambda))^2 (exact minimisers; "
            + ErmMixSpace().describe(inst)
            + ")",
            "source": f"{SRC}, Theorem 16",
        }
    )
    return doc


def erm_search(claim_id: str) -> SearchSpec:
    return SearchSpec(
        space=ErmMixSpace(),
        screen=_erm_mix_screen,
        document=functools.partial(_erm_mix_document, claim_id=claim_id),
        default_instances=2000,
        casestudies_instances=160,
        notes="training sets of 1-6 records, one record replaced, Lambda in [1/8, 8]: in one "
        "dimension (covariates on a rational grid of [-1, 1]) with the Huberised hinge loss (h in "
        "[1/10, 1]; exact minimisers) or the logistic loss (certified enclosures), and in two "
        "dimensions (rational points of the unit disc) with the Huberised hinge loss (exact "
        "minimisers)",
    )


#: The attained instance: every margin in the hinge's linear part (``|s_i w*| <= 1/4 <
#: 1 - h``), so ``w* = Σ s_i/(nΛ)`` and replacing ``s = 1`` by ``s = -1`` moves it by
#: exactly ``2/(nΛ)``.
HUBER_TIGHT = ErmPair(
    ((F(1), 1), (F(1, 2), -1), (F(-1, 3), -1), (F(3, 4), 1)), 0, (F(1), -1), F(4), F(1, 2)
)


@claim(
    id="hartmann2022.theorem16.erm_sensitivity",
    source=f"{SRC}, §6.1, Theorem 16 (Chaudhuri et al.) and Algorithm 4, in dimensions 1 and 2",
    statement="for L2-regularised ERM with a convex differentiable loss with |l'| <= 1 (|x| <= 1, labels "
    "+-1) the minimiser moves by at most 2/(n Lambda) when one record is replaced, so output "
    "perturbation with density ∝ e^(-(n Lambda eps/2)|b|) (Algorithm 4) is eps-DP: the Huberised "
    "hinge loss in one and two dimensions (exact minimisers; attained) and the logistic loss in "
    "one dimension (certified enclosures)",
    expected="holds",
    instances="n = 4 records: logistic loss with Lambda in {1/2, 2} and three replaced records; the "
    "Huberised hinge (h = 1/2) with every margin in its linear part (attained) and with margins in "
    "the quadratic part",
    search=erm_search("hartmann2022.theorem16.erm_sensitivity"),
    tightness=Tightness(
        "attained",
        1.0,
        "the Huberised hinge (h = 1/2, Lambda = 4) on D = [(1, +1), (1/2, -1), (-1/3, -1), (3/4, +1)] "
        "with (1, +1) replaced by (1, -1): w* = 19/192 and -5/192 (every margin |s_i w*| <= 1/4 in "
        "the linear part), |w*(D) - w*(D')| = 1/8 = 2/(n Lambda) exactly; Algorithm 4's privacy ratio is e^eps exactly",
    ),
)
def theorem16() -> CheckResult:
    base = ((F(1, 2), 1), (F(-1, 3), -1), (F(3, 4), 1), (F(1, 5), -1))
    swaps = [(0, (F(-1), -1)), (1, (F(1), 1)), (3, (F(9, 10), 1))]
    parts = []
    for lam in (F(1, 2), F(2)):
        for k, rec in swaps:
            inst = ErmPair(base, k, rec, lam, F(0))
            lo, hi = sensitivity_bounds(inst)
            bound = _sens_bound(inst)
            parts.append(
                check_le(
                    R(hi.numerator, hi.denominator),
                    bound,
                    f"logistic, Lambda = {lam}, record {k}: w*(D') - w*(D)",
                )
            )
            parts.append(
                check_le(
                    -R(lo.numerator, lo.denominator),
                    bound,
                    f"logistic, Lambda = {lam}, record {k}: w*(D) - w*(D')",
                )
            )
    for inst, tag in (
        (HUBER_TIGHT, "linear part (attained)"),
        (
            ErmPair(((F(1), 1), (F(1, 2), 1), (F(1, 4), -1)), 1, (F(-1), 1), F(1, 2), F(1, 2)),
            "quadratic part",
        ),
    ):
        w1 = huber_minimiser(inst.data, inst.lam, inst.h)
        w2 = huber_minimiser(inst.other(), inst.lam, inst.h)
        bound = _sens_bound(inst)
        d = R((w1 - w2).numerator, (w1 - w2).denominator)
        parts.append(
            check_le(abs(d), bound, f"Huberised hinge, {tag}: |w*(D) - w*(D')| (w* = {w1}, {w2})")
        )
        eps = R(1)
        scale = 2 / (len(inst.data) * R(inst.lam.numerator, inst.lam.denominator) * eps)
        parts.append(
            check_laplace_mixtures_dp(
                {
                    "D": [(1, R(w1.numerator, w1.denominator))],
                    "D'": [(1, R(w2.numerator, w2.denominator))],
                },
                scale,
                eps,
                title=f"Algorithm 4 (eps = 1), Huberised hinge, {tag}",
            )
        )
    # two dimensions: every margin in the linear part (|<w*, x_i>| <= 1/Lambda = 1/4 < 1 - h)
    # and a unit covariate whose label flips: w* moves by exactly 2 x/(n Lambda)
    two = ErmPair2(
        (((F(3, 5), F(4, 5)), 1), ((F(1), F(0)), -1), ((F(0), F(1, 2)), 1)),
        0,
        ((F(3, 5), F(4, 5)), -1),
        F(4),
        F(1, 2),
    )
    gap, bound = _erm2_gap(two)
    parts.append(
        check_le(
            R(gap.numerator, gap.denominator),
            R(bound.numerator, bound.denominator),
            "Huberised hinge in two dimensions, linear part (attained): |w*(D) - w*(D')|^2",
        )
    )
    return conjunction("Theorem 16 in one and two dimensions", parts)


# ---------------------------------------------------------------------------
# Algorithm 5 in one dimension: the test error as a function of v
# ---------------------------------------------------------------------------

#: test covariates ``x = k/2``
TEST_K = (-2, -1, 0, 1, 2)


def sigma_v(k: int, shift: Any = 0) -> sp.Expr:
    """``σ((θ + shift) x)`` for ``x = k/2``, with ``e^{θ/2} = v/(1 - v)``."""
    if k == 0:
        return R(1, 2)
    E = sp.exp(sp.sympify(shift) * R(k, 2)) if shift != 0 else sp.Integer(1)
    if k > 0:
        return V**k * E / (V**k * E + (1 - V) ** k)
    return (1 - V) ** (-k) * E / (V ** (-k) + (1 - V) ** (-k) * E)


def test_error(test: Sequence[tuple[int, int]], shift: Any = 0) -> sp.Expr:
    """``err(θ + shift, D_test) = (1/m) Σ_j |2σ((θ + shift) x_j) - 1 - y_j|``, with
    ``|2σ - 1 - y| = 2σ(-θ x)`` for ``y = 1`` and ``2σ(θ x)`` for ``y = -1``."""
    m = len(test)
    return (
        sp.Add(*[2 * (1 - sigma_v(k, shift)) if y == 1 else 2 * sigma_v(k, shift) for k, y in test])
        / m
    )


def scale_a(n: int, m: int, lam: Fraction) -> sp.Expr:
    """Algorithm 5's ``a = max(2/m, 2(e^{2/(nΛ)} - 1))``."""
    return sp.Max(R(2, m), 2 * (sp.exp(R(2) / (n * R(lam.numerator, lam.denominator))) - 1))


def _two_ways(lhs: sp.Expr, rhs: Any, title: str, over: Any) -> list[CheckResult]:
    return [
        check_le(lhs, rhs, f"{title} (<=)", over=over),
        check_le(-lhs, rhs, f"{title} (>=)", over=over),
    ]


ZL = sp.Symbol("z", real=True)
BL = sp.Symbol("b", positive=True)


def laplace_step(title: str) -> CheckResult:
    """The Laplace step of the module docstring: ``log F_L`` and ``log S_L`` are
    ``1/b``-Lipschitz.  Left of 0, ``F_L(z) = e^{z/b}/2`` and ``b F_L' = F_L`` (an identity
    in ``z`` and ``b``); right of 0, ``b F_L'(z) = e^{-w}/2 <= 1 - e^{-w}/2 = F_L(z)`` with
    ``w = z/b >= 0`` (decided for ``w ∈ [0, 64]``; the left side decreases and the right
    side increases beyond); ``S_L = 1 - F_L`` is the mirror image (``S_L(z) = F_L(-z)``)."""
    half = R(1, 2)
    left = half * sp.exp(ZL / BL)
    right = 1 - half * sp.exp(-ZL / BL)
    parts = [
        check_eq(BL * sp.diff(left, ZL), left, f"{title}: b F_L' = F_L left of 0"),
        check_le(
            (BL * sp.diff(right, ZL)).subs(ZL, W * BL),
            right.subs(ZL, W * BL),
            f"{title}: b F_L' <= F_L right of 0",
            over=(W, 0, 64),
        ),
        check_eq((1 - right).subs(ZL, -ZL), left, f"{title}: S_L(z) = F_L(-z) (the mirror image)"),
    ]
    return conjunction(f"{title}: the Laplace CDF and survival are (1/b)-log-Lipschitz", parts)


@dataclass(frozen=True)
class Alg5:
    """One instance of Algorithm 5 (module docstring): training set, its neighbour
    (record ``k`` replaced), test set (``(k, y)``: covariate ``k/2``) and its neighbour,
    and ``Λ`` (the privacy parameters are decided over a box)."""

    train: tuple[Record, ...]
    k: int
    new: Record
    test: tuple[tuple[int, int], ...]
    j: int
    new_test: tuple[int, int]
    lam: Fraction

    @property
    def n(self) -> int:
        return len(self.train)

    @property
    def m(self) -> int:
        return len(self.test)

    def train2(self) -> tuple[Record, ...]:
        return self.train[: self.k] + (self.new,) + self.train[self.k + 1 :]

    def test2(self) -> tuple[tuple[int, int], ...]:
        return self.test[: self.j] + (self.new_test,) + self.test[self.j + 1 :]

    def a(self) -> sp.Expr:
        return scale_a(self.n, self.m, self.lam)

    def delta_range(self) -> tuple[sp.Rational, sp.Rational]:
        """``w*(D'_train) - w*(D_train)`` lies in this interval (Theorem 16's premise,
        certified enclosures of the logistic minimisers)."""
        lo, hi = sensitivity_bounds(ErmPair(self.train, self.k, self.new, self.lam, F(0)))
        return R(lo.numerator, lo.denominator), R(hi.numerator, hi.denominator)


SG, SG2, TT, DD = sp.symbols("s s_prime t D", real=True)


def _term(s_: sp.Expr, y: int) -> sp.Expr:
    """``|2σ - 1 - y|`` at ``σ = s_``: ``2 - 2s`` for ``y = 1``, ``2s`` for ``y = -1``."""
    return 2 - 2 * s_ if y == 1 else 2 * s_


def lemma21_test_every_d() -> list[CheckResult]:
    """Lemma 21 (2) in every dimension: for a fixed ``θ ∈ ℝ^d`` replacing the test record
    ``(x, y)`` by ``(x', y')`` changes ``m · err`` by ``|2σ(θᵀx) - 1 - y| - |2σ(θᵀx') - 1 -
    y'|``; with ``s = σ(θᵀx)``, ``s' = σ(θᵀx')`` ranging over ``[0, 1]`` (every ``θ``, ``x``,
    ``x'`` and the limits) this is at most ``2``, so ``err`` moves by at most ``2/m <= a``."""
    out = []
    for y in (1, -1):
        for y2 in (1, -1):
            out.append(
                check_le(
                    _term(SG, y) - _term(SG2, y2),
                    2,
                    f"every d: m |err_T - err_T'| <= 2, labels {y:+d} -> {y2:+d}",
                    over={SG: (0, 1), SG2: (0, 1)},
                )
            )
    return out


def lemma21_training_every_d() -> list[CheckResult]:
    """Lemma 21 (1) in every dimension (Eqs. (14)-(15)): with ``||w_1 - w_2|| <= D =
    2/(nΛ)`` (Theorem 16) and ``||x|| <= 1`` every margin moves by ``δ = Dt``, ``|t| <= 1``
    (Cauchy-Schwarz), and ``||2σ(u) - 1 - y| - |2σ(u + δ) - 1 - y|| <= 2|σ(u) - σ(u + δ)|
    <= 2(e^D - 1)``: decided for every ``s = σ(u) ∈ [0, 1]``, ``t ∈ [-1, 1]`` and ``D ∈
    [0, 4]`` (``σ(u + δ) = s e^δ/(1 - s + s e^δ)``; for ``D > 4``, ``2(e^D - 1) > 2``
    bounds any change of ``|2σ - 1 - y| ∈ [0, 2]``); averaging over the test records keeps
    the bound."""
    moved = SG * sp.exp(DD * TT) / (1 - SG + SG * sp.exp(DD * TT))
    box = {SG: (0, 1), TT: (-1, 1), DD: (0, 4)}
    bound = 2 * (sp.exp(DD) - 1)
    return [
        check_le(
            2 * (SG - moved),
            bound,
            "every d: 2 (sigma(u) - sigma(u + D t)) <= 2(e^D - 1)",
            over=box,
        ),
        check_le(
            2 * (moved - SG),
            bound,
            "every d: 2 (sigma(u + D t) - sigma(u)) <= 2(e^D - 1)",
            over=box,
        ),
    ]


def lemma21_training(inst: Alg5) -> list[CheckResult]:
    """Lemma 21 (1): ``|err(θ) - err(θ + Δ)| <= 2(e^{2/(nΛ)} - 1) <= a`` for every ``θ``
    (``v ∈ [0, 1]``) and every ``Δ`` in the enclosure of ``w*(D') - w*(D)``."""
    lo, hi = inst.delta_range()
    lhs = test_error(inst.test) - test_error(inst.test, DELTA)
    train_part = 2 * (sp.exp(R(2) / (inst.n * R(inst.lam.numerator, inst.lam.denominator))) - 1)
    return _two_ways(
        lhs,
        train_part,
        "Lemma 21 (1): the error moves by at most 2(e^(2/(n Lambda)) - 1)",
        {V: (0, 1), DELTA: (lo, hi)},
    )


def lemma21_test(inst: Alg5) -> list[CheckResult]:
    """Lemma 21 (2): ``|err_T(θ) - err_T'(θ)| <= a`` for every ``θ`` (``v ∈ [0, 1]``)."""
    lhs = test_error(inst.test) - test_error(inst.test2())
    return _two_ways(
        lhs, inst.a(), "Lemma 21 (2): one test record moves the error by at most a", (V, 0, 1)
    )


#: The privacy parameters of Theorem 17 and Corollary 18: every cell's log-ratio is
#: ``ε_k`` times a shift that does not depend on ``ε``, so each cell is decided for every
#: ``ε > 0`` (:func:`_within`); only ``max(ε_1, ε_2) >= ε_k`` is decided over a box.
E1, E2 = sp.symbols("epsilon_1 epsilon_2", positive=True)
#: ``ε_2 = λ ε_1`` with ``λ ∈ [0, 1]``: Corollary 18's region ``ε_2 <= ε_1``.
LAM = sp.Symbol("lambda", nonnegative=True)
EPS_RANGE = (R(1, 1000), 1000)


def _within(
    lhs: sp.Expr, budget: Any, title: str, over: Any, *, both: bool = True
) -> list[CheckResult]:
    """``±lhs <= budget`` (only ``lhs <= budget`` when not ``both``: a nonnegative
    ``lhs``) for a positive ``budget`` that ``lhs`` is a multiple of, decided as
    ``lhs/budget <= 1``: the budget cancels (exact algebra), so the verdict holds for
    every value of the privacy parameters."""
    title = f"{title}, divided by the budget"
    if not both:
        return [check_le(lhs / budget, 1, f"{title} (<=)", over=over)]
    return _two_ways(lhs / budget, 1, title, over)


def alg5_cells(inst: Alg5, e1: Any, e2: Any, tag: str) -> CheckResult:
    """Every ratio of Algorithm 5's output space on this instance (module docstring),
    each against the budget of its own noise: the released ``θ`` with a training record
    replaced costs Algorithm 4's ``β |Δ| <= ε_1``; every other cell costs, through the
    Laplace step, ``ε_2 · (error shift)/a <= ε_2``.  ``e1``, ``e2`` are positive
    expressions (symbols), which cancel from each cell (:func:`_within`)."""
    a = inst.a()
    lo, hi = inst.delta_range()
    beta = inst.n * R(inst.lam.numerator, inst.lam.denominator) * e1 / 2
    shift_train = test_error(inst.test) - test_error(inst.test, DELTA)
    shift_test = test_error(inst.test) - test_error(inst.test2())
    # released theta, training record replaced: Laplace densities centred at w1, w2
    parts = _within(
        beta * sp.Abs(DELTA),
        e1,
        f"{tag}: R, training record: beta |w1 - w2| <= eps_1",
        (DELTA, lo, hi),
        both=False,
    )
    # a test record replaced (released theta and bot alike):
    # F_L(tau - e)/F_L(tau - e') and S_L(tau - e)/S_L(tau - e') <= e^(eps_2 |e - e'|/a)
    parts += _within(
        e2 * shift_test / a,
        e2,
        f"{tag}: R and bot, test record: eps_2 |err_T - err_T'|/a <= eps_2",
        (V, 0, 1),
    )
    # bottom, training record replaced: shared noise b, theta = w1 + b and w2 + b
    parts += _within(
        e2 * shift_train / a,
        e2,
        f"{tag}: bot, training record: eps_2 |err(w1 + b) - err(w2 + b)|/a <= eps_2",
        {V: (0, 1), DELTA: (lo, hi)},
    )
    return given(
        f"{tag}: every cell of Algorithm 5 within its own budget",
        laplace_step(tag),
        conjunction(f"{tag}: every ratio of the output space", parts),
    )


def alg5_every_d(e1: Any, e2: Any) -> CheckResult:
    """Algorithm 5's cells in every dimension ``d``, for every training and test set: a
    released ``θ`` with a training record replaced costs ``β ||Δ||`` with ``β = nΛε_1/2``
    and ``||Δ|| = ρ · 2/(nΛ)``, ``ρ ∈ [0, 1]`` (Theorem 16, searched by
    ``hartmann2022.theorem16.erm_sensitivity``), i.e. ``ρ ε_1``; a replaced test record
    moves ``m · err`` by ``|2σ(θᵀx) - 1 - y| - |2σ(θᵀx') - 1 - y'|`` (margins ``s, s' ∈
    [0, 1]``) and ``a = 2/(mκ)`` with ``κ ∈ [0, 1]`` (``a >= 2/m``); a replaced training
    record moves the error under a shared noise ``b`` by at most ``2(e^{ρD_0} - 1) <=
    2(e^{D_0} - 1) <= a``, ``D_0 = 2/(nΛ)`` (Lemma 21 (1) in every dimension, decided
    with it), i.e. by ``μ a`` with ``μ ∈ [0, 1]``.  Each cell within its own budget
    (``e1``, ``e2`` cancel, :func:`_within`)."""
    nl = sp.Symbol("n_Lambda", positive=True)
    rho, kap, mu = sp.symbols("rho kappa mu", nonnegative=True)
    parts = _within(
        (nl * e1 / 2) * (rho * 2 / nl),
        e1,
        "every d: R, training record: beta ||w1 - w2|| <= eps_1",
        (rho, 0, 1),
        both=False,
    )
    # beyond D0 = 4 the bound 2(e^D0 - 1) exceeds 2, which bounds any shift
    parts.append(
        check_le(
            2 * (sp.exp(rho * DD) - 1),
            2 * (sp.exp(DD) - 1),
            "every d: 2(e^(rho D0) - 1) <= 2(e^D0 - 1)",
            over={rho: (0, 1), DD: (0, 4)},
        )
    )
    parts += _within(
        e2 * mu,
        e2,
        "every d: bot, training record: eps_2 (mu a)/a <= eps_2",
        (mu, 0, 1),
        both=False,
    )
    for y in (1, -1):
        for y2 in (1, -1):
            parts += _within(
                e2 * (_term(SG, y) - _term(SG2, y2)) * kap / 2,
                e2,
                f"every d: R and bot, test label {y:+d} -> {y2:+d}: eps_2 |err_T - err_T'|/a <= eps_2",
                {SG: (0, 1), SG2: (0, 1), kap: (0, 1)},
            )
    return given(
        "every dimension: Lemma 21's shifts and the Laplace step",
        conjunction(
            "Lemma 21 in every dimension",
            [*lemma21_test_every_d(), *lemma21_training_every_d(), laplace_step("every d")],
        ),
        conjunction("every dimension: every cell within its budget", parts),
    )


TRAIN = ((F(1, 2), 1), (F(-1, 3), -1), (F(3, 4), 1), (F(1, 5), -1))
#: The test set: covariates 1, -1/2, 1/2 (``k = 2, -1, 1``); the neighbour flips the
#: label of the record at ``x = 1`` — as ``θ → +∞`` the error moves by ``2/m``.
TEST = ((2, 1), (-1, -1), (1, 1))


def alg5_instances() -> list[Alg5]:
    """Algorithm 5's instances: ``n = 4``, ``m = 3``, ``Λ = 2`` (then ``a = 2/m``:
    ``2(e^{1/4} - 1) ≈ 0.568 < 2/3``) and ``Λ = 1/2`` (``a = 2(e - 1)``)."""
    return [Alg5(TRAIN, 0, (F(-1), -1), TEST, 0, (2, -1), lam) for lam in (F(2), F(1, 2))]


@claim(
    id="hartmann2022.lemma21.test_set",
    source=f"{SRC}, App. D, Lemma 21 (2)",
    statement="for a fixed model theta the test error err(theta, D_test) = (1/m) sum |2 sigma(theta^T x) - "
    "1 - y| moves by at most 2/m <= a = max(2/m, 2(e^(2/(n Lambda)) - 1)) when one test record is "
    "replaced, so err + Lap(a/eps_2) is eps_2-DP in D_test: decided in every dimension through the "
    "margins sigma(theta^T x) in [0, 1], and on Algorithm 5's one-dimensional instances for every "
    "theta in R, through the Laplace step",
    expected="holds",
    instances="m = 3 test records (covariates 1, -1/2, 1/2), the label at x = 1 flipped; a = 2/m "
    "(Lambda = 2) and a = 2(e - 1) (Lambda = 1/2)",
    tightness=Tightness(
        "approached",
        1.0,
        "the label of the test record at x = 1 flipped, a = 2/m: the error shift tends to 2/m = a",
        family="theta -> +oo and theta -> -oo (v -> 1 and v -> 0, e^(theta/2) = v/(1 - v))",
        limit="at v = 1 (v = 0) the shift is exactly 2/m in one direction (sigma(theta) = 1, resp. 0): "
        "equality in the closed range v in [0, 1]; for every finite theta, 0 < sigma(theta) < 1 and "
        "the shift is below 2/m",
    ),
)
def lemma21_test_claim() -> CheckResult:
    parts = lemma21_test_every_d()
    for inst in alg5_instances():
        parts += lemma21_test(inst)
    return given("Lemma 21 (2)", laplace_step("Lemma 21 (2)"), conjunction("the shifts", parts))


@claim(
    id="hartmann2022.lemma21.training_set",
    source=f"{SRC}, App. D, Lemma 21 (1) (with Theorem 16 and Eqs. (14)-(15))",
    statement="for a fixed test set the error of Algorithm 4's model err(w*(D_train) + b, D_test) moves "
    "by at most 2(e^(2/(n Lambda)) - 1) <= a when one training record is replaced, for every value "
    "of the noise b, so err + Lap(a/eps_2) is eps_2-DP in D_train: decided in every dimension from "
    "Theorem 16's |w1 - w2| <= 2/(n Lambda) through the margins (Eqs. (14)-(15)), and on Algorithm "
    "5's one-dimensional instances for every theta and every shift in the certified enclosure of "
    "the logistic minimisers",
    expected="holds",
    instances="the training set of Theorem 16 (n = 4) with (1/2, +1) replaced by (-1, -1), Lambda in "
    "{2, 1/2}; the test set of Lemma 21 (2)",
    tightness=Tightness(
        "loose",
        0.124,
        "n Lambda = 256, training records (1, +-1) balanced (w* = 0) with one (1, +1) replaced by "
        "(1, -1), test covariates +-1 with every error term moving the same way, theta near 0: the "
        "error moves by 0.00195 against 2(e^(1/128) - 1) = 0.0157",
        searched="the family above (registered), the every-d box (its sup ratio is 1/4, approached as "
        "D -> 0 at u = 0, t = +-1: the per-record step Eq. (14) is where the factor 4 is lost), and the "
        "bound behind it: sigma is 1/4-Lipschitz and "
        "|x| <= 1, so the error moves by at most |Delta|/2; Theorem 16 gives |Delta| <= rho 2/(n "
        "Lambda) with rho <= 1, and 2(e^x - 1) >= 2x, so realized/claimed <= rho/4 <= 1/4 for every "
        "instance; the logistic loss has rho < 1/2 + o(1) (approached as n Lambda -> oo: 0.4992 at "
        "n Lambda = 169 in a float search of 20,000 training sets), hence about 1/8 here; the "
        "paper's Eq. (14) bound e^|Delta| - 1 on the sigma difference costs the factor 4",
    ),
)
def lemma21_training_claim() -> CheckResult:
    parts = lemma21_training_every_d()
    for inst in (*alg5_instances(), LEMMA21_NEAR):
        parts += lemma21_training(inst)
    return conjunction("Lemma 21 (1)", parts)


#: The family closest to Lemma 21 (1)'s bound: a large ``nΛ`` (the bound
#: ``2(e^{2/(nΛ)} - 1) ≈ 4/(nΛ)``), training records with ``s = ±1`` balanced so that
#: ``w* = 0`` and one ``s = 1`` replaced by ``s = -1`` (the logistic minimiser moves by
#: about ``1/(nΛ)``, half of Theorem 16's bound), test covariates ``±1`` where ``σ`` is
#: steepest (``θ ≈ 0``) and every test error term moving the same way (``2σ(-θ)``): the
#: error moves by about ``|Δ|/2 ≈ 1/(2nΛ)``, ratio about 1/8.
LEMMA21_NEAR = Alg5(
    ((F(1), 1), (F(1), -1), (F(1), 1), (F(1), -1)),
    0,
    (F(1), -1),
    ((2, 1), (2, 1), (-2, -1)),
    0,
    (2, -1),
    F(64),
)


def _t17_tightness() -> Tightness:
    return Tightness(
        "approached",
        1.0,
        "Lambda = 2 (a = 2/m), eps_1 <= eps_2: the cell R costs max(eps_1, eps_2) = eps_2 through "
        "the test record at x = 1 whose label flips",
        family="theta -> +-oo (v -> 1 or 0): the release density ratio F_L(tau - err_T)/F_L(tau - err_T') "
        "tends to e^(eps_2 (2/m)/a) = e^(eps_2) for tau <= 0",
        limit="the error shift is exactly 2/m = a at v = 1 (equality in the closed range), below it "
        "for every finite theta; for tau <= 0 both arguments of F_L are <= 0, where F_L(z) = "
        "e^(z/b)/2 and the ratio is exactly e^(eps_2 shift/a)",
    )


#: What Theorem 17 and Corollary 18 are decided over (the coverage table repeats it).
ALG5_DOMAIN = (
    "every eps_1, eps_2 > 0 (each cell's log-ratio over its own budget eps_k does not depend on "
    f"eps; max(eps_1, eps_2) >= eps_k over the box [{EPS_RANGE[0]}, {EPS_RANGE[1]}]^2), every "
    "threshold tau (the Laplace step); in every dimension through the margins sigma(theta^T x) in [0, 1] (Lemma 21's "
    "boxes, with Theorem 16's |w1 - w2| <= 2/(n Lambda), searched by "
    "hartmann2022.theorem16.erm_sensitivity); and Algorithm 5 itself, with the logistic "
    "minimisers certified, on one-dimensional instances for every theta"
)


@claim(
    id="hartmann2022.theorem17",
    source=f"{SRC}, §6.1, Theorem 17 and Algorithm 5 (App. D)",
    statement="Algorithm 5 (logistic regression by Algorithm 4, released only if err + Lap(a/eps_2) <= "
    "tau) is ({bot}: eps_2, R: max(eps_1, eps_2), 0)-ODP for neighbours differing in one training or "
    "one test record: every ratio of its output space (each released theta, the bot event), "
    "decided over " + ALG5_DOMAIN,
    expected="holds",
    instances="d = 1, n = 4 training records, m = 3 test records with covariates in {0, +-1/2, +-1}, "
    "Lambda in {2, 1/2} (a = 2/m and a = 2(e - 1)); a training record replaced and a test label "
    "flipped",
    tightness=_t17_tightness,
)
def theorem17() -> CheckResult:
    rel = sp.Max(E1, E2)
    parts = [alg5_every_d(E1, E2)]
    for inst in alg5_instances():
        parts.append(alg5_cells(inst, E1, E2, f"d = 1, Lambda = {inst.lam}"))
    box = {E1: EPS_RANGE, E2: EPS_RANGE}
    parts += [
        check_le(E1, rel, "eps_1 <= max(eps_1, eps_2) = e(R)", over=box),
        check_le(E2, rel, "eps_2 <= max(eps_1, eps_2) = e(R)", over=box),
    ]
    return conjunction("Theorem 17", parts)


@claim(
    id="hartmann2022.corollary18",
    source=f"{SRC}, §6.1, Corollary 18",
    statement="with eps_2 <= eps_1 Algorithm 5 is ({bot}: eps_2, R: eps_1, 0)-ODP: the whole budget eps_1 "
    "pays for the released model, a rejected one costs only eps_2 (decided as for Theorem 17, with "
    "eps_2 = lambda eps_1 for every lambda in [0, 1])",
    expected="holds",
    instances="the instances of Theorem 17",
    tightness=Tightness(
        "approached",
        1.0,
        "Lambda = 2, eps_1 = eps_2: the cell R through the flipped test label",
        family="theta -> +-oo (v -> 1 or 0), as for Theorem 17",
        limit="the error shift is exactly 2/m = a at v = 1 (closed range); with eps_2 < eps_1 the cell "
        "R of the logistic model is loose (beta |w1 - w2| < eps_1: Theorem 16 is not attained by "
        "the logistic loss)",
    ),
)
def corollary18() -> CheckResult:
    e2 = LAM * E1
    parts = [alg5_every_d(E1, e2)]
    for inst in alg5_instances():
        parts.append(alg5_cells(inst, E1, e2, f"d = 1, Lambda = {inst.lam}"))
    parts.append(
        check_le(e2, E1, "eps_2 = lambda eps_1 <= eps_1 = e(R)", over={E1: EPS_RANGE, LAM: (0, 1)})
    )
    return conjunction("Corollary 18", parts)


# ---------------------------------------------------------------------------
# Figure 2
# ---------------------------------------------------------------------------

SIZE = sp.Symbol("N", positive=True)
SCALE = sp.Symbol("b", positive=True)


@claim(
    id="hartmann2022.figure2.noise_percentile",
    source=f"{SRC}, §6.1, Figure 2 (the 95th percentile of the noise added to the test error)",
    statement="the 95th percentile of Lap(b) is b ln 10 (Pr[Lap(b) <= b ln 10] = 1 - e^(-ln 10)/2 = "
    "19/20 for every scale b), and at Figure 2's settings (70% training, 30% test records, "
    "Lambda = 1, N in [1000, 5000] records) the scale is a/eps_2 with a = 2/m: 2/(0.3 N) >= "
    "2(e^(2/(0.7 N)) - 1) for every N in the range",
    expected="holds",
)
def figure2() -> CheckResult:
    cdf = 1 - sp.exp(-(SCALE * sp.log(10)) / SCALE) / 2
    parts = [check_eq(cdf, R(19, 20), "Pr[Lap(b) <= b ln 10] = 19/20")]
    m, n = R(3, 10) * SIZE, R(7, 10) * SIZE
    parts.append(
        check_le(
            2 * (sp.exp(2 / n) - 1),
            2 / m,
            "the training part of a is below 2/m",
            over=(SIZE, 1000, 5000),
        )
    )
    return conjunction("Figure 2", parts)

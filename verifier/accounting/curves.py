"""Guarantees stated as curves, decided over the whole curve: zero-concentrated DP
(a Rényi bound for every order α) and Gaussian DP (a trade-off bound for every type I
error).

* **(ξ, ρ)-zCDP** (Bun & Steinke 2016, "Concentrated differential privacy:
  simplifications, extensions, and lower bounds", TCC, Definition 1.1):
  ``D_α(P||Q) <= ξ + ρα`` for every ``α > 1`` and every ordered neighbouring pair,
  ``D_α`` the Rényi divergence (Mironov 2017, Definition 3).  :func:`check_zcdp`
  decides it for every α of a range (default ``(1, oo)``), not at sampled orders:
  ``D_α`` is non-decreasing in α (van Erven & Harremoës 2014, "Rényi divergence and
  Kullback-Leibler divergence", IEEE Trans. Inf. Theory, Theorem 3) and bounded by
  ``D_∞ = log max P/Q``, so (i) every α with ``ξ + ρα >= D_∞`` holds, which leaves a
  bounded interval, and (ii) on a cell ``[a, b]`` of it ``D_b <= ξ + ρa`` proves
  the bound on the whole cell; cells that prove nothing are halved, and a point ``b``
  with ``D_b > ξ + ρb`` is a counterexample.  At ``α = 1`` the divergence is the
  Kullback-Leibler divergence (its limit).  Each comparison is exact or certified
  (:func:`~verifier.arithmetic.exact.decide_le`); cells left after the budget make
  the verdict *undecided* and are listed.
* **μ-GDP** (Dong, Roth & Su 2022, "Gaussian differential privacy", JRSS B,
  Definition 2.6): the trade-off function ``T(P, Q) >= G_μ`` with ``G_μ(x) =
  Φ(Φ⁻¹(1 - x) - μ)``.  ``G_μ`` is convex and a finite mechanism's trade-off curve is
  piecewise linear (:meth:`~verifier.accounting.pld.PrivacyLoss.tradeoff`), so
  ``T - G_μ`` is concave on each piece and the curve's vertices decide the claim:
  ``y >= G_μ(x)`` at a vertex ``(x, y)`` is ``Φ⁻¹(1 - x) - Φ⁻¹(y) <= μ`` (Φ is
  increasing), decided with the certified Φ⁻¹ of :mod:`verifier.arithmetic.normal`.
  :func:`gdp_mu` gives the smallest μ.

>>> import sympy as sp
>>> from verifier.mechanism.instances import randomized_response
>>> rr = randomized_response(sp.log(3))
>>> check_zcdp(rr, rho=sp.Rational(3, 5)).verdict.value      # D_∞ = log 3 <= 3/5·α for α >= 1.84
'holds'
>>> check_zcdp(rr, rho=sp.Rational(1, 2)).verdict.value      # KL = log(3)/2 = 0.549 > 1/2
'violated'
>>> round(float(gdp_mu(rr).value), 6)                          # 2·Φ⁻¹(3/4)
1.34898
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Unpack

import sympy as sp

from ..arithmetic.exact import (
    Enclosure,
    Precision,
    Verdict,
    decide_le,
    enclose,
    exact,
    exact_max,
)
from ..arithmetic.normal import normal_quantile
from ..arithmetic.precision import interval_context
from ..checks.docstrings import fill_doc
from ..checks.privacy import Attained, checked_pairs
from ..checks.results import CheckResult, Finding, combine_verdicts
from ..checks.vocabulary import (
    PointOptions,
    QueryOptions,
    fill_options,
    privacy_parameters,
)
from ..errors import InvalidParameter
from ..mechanism.model import Dataset, FiniteMechanism
from .pld import PrivacyLoss

__all__ = ["check_zcdp", "check_gdp", "gdp_mu", "ALPHA", "MAX_CELLS"]

Pair = tuple[Dataset, Dataset]

#: The Rényi order, the variable of a zCDP finding's inequality.
ALPHA = sp.Symbol("alpha", positive=True)

#: Default budget of cells of the order range per ordered pair.
MAX_CELLS = 4000


# ---------------------------------------------------------------------------
# zCDP
# ---------------------------------------------------------------------------


def _orders(orders: Any) -> tuple[sp.Expr, sp.Expr]:
    try:
        lo, hi = orders
    except (TypeError, ValueError):
        raise InvalidParameter(f"orders must be (lo, hi), got {orders!r}") from None
    lo, hi = exact(lo), exact(hi)
    if not (lo.is_Rational and (hi is sp.oo or hi.is_Rational)):
        raise InvalidParameter(f"orders: the ends must be rationals (hi may be oo), got {lo}, {hi}")
    if lo < 1 or not lo < hi:
        raise InvalidParameter(f"orders: need 1 <= lo < hi, got [{lo}, {hi}]")
    return lo, hi


def _renyi_sum(terms: list[tuple[sp.Expr, sp.Expr]], a: sp.Expr) -> sp.Expr:
    """``Σ_o P(o)^a Q(o)^{1-a} = Σ p·r^{a-1}`` over the atoms ``(r, p)`` (for display:
    sympy's own evaluation of ``r^{a-1}`` at a rational ``a`` factors integers)."""
    return sp.Add(*(p * sp.Pow(r, a - 1, evaluate=False) for r, p in terms))


class _Divergence:
    """``D_a(P||Q)`` against bounds, in interval arithmetic on certified enclosures
    of the atoms (kept per precision): ``D_a <= c`` iff ``Σ p r^{a-1} <= e^{(a-1)c}``
    for ``a > 1``, and the KL divergence ``Σ p log r`` at ``a = 1``."""

    def __init__(self, terms: list[tuple[sp.Expr, sp.Expr]], precision: Precision):
        self.terms = terms
        self.precision = precision
        self._atoms: dict[int, list[tuple[Fraction, Fraction, Fraction, Fraction]] | None] = {}

    def _enclosed(self, bits: int) -> list[tuple[Fraction, Fraction, Fraction, Fraction]] | None:
        if bits not in self._atoms:
            out: list[tuple[Fraction, Fraction, Fraction, Fraction]] | None = []
            for r, p in self.terms:
                br, bp = _rational_bounds(r, bits), _rational_bounds(p, bits)
                if out is None or br is None or bp is None or br[0] <= 0:
                    out = None
                    continue
                out.append((*br, *bp))
            self._atoms[bits] = out
        return self._atoms[bits]

    def le(self, a: sp.Expr, bound: sp.Expr) -> Verdict:
        """``D_a <= bound`` (``a`` rational, ``>= 1``; ``bound`` exact)."""
        for bits in self.precision.schedule():
            atoms, c = self._enclosed(bits), _rational_bounds(bound, bits)
            if atoms is None or c is None:
                continue
            with interval_context(bits) as ctx:

                def iv(lo: Fraction, hi: Fraction) -> Any:
                    a_ = ctx.mpf(lo.numerator) / lo.denominator
                    b_ = ctx.mpf(hi.numerator) / hi.denominator
                    return ctx.mpf([a_.a, b_.b])

                cb = iv(*c)
                if a == 1:
                    lhs = sum(
                        (iv(p0, p1) * ctx.log(iv(r0, r1)) for r0, r1, p0, p1 in atoms), ctx.mpf(0)
                    )
                    rhs = cb
                else:
                    e = ctx.mpf(int(a.p) - int(a.q)) / int(a.q)  # a - 1
                    lhs = sum(
                        (iv(p0, p1) * ctx.exp(e * ctx.log(iv(r0, r1))) for r0, r1, p0, p1 in atoms),
                        ctx.mpf(0),
                    )
                    rhs = ctx.exp(e * cb)
                lo_l, hi_l = Enclosure.from_iv(lhs, bits).bounds()
                lo_r, hi_r = Enclosure.from_iv(rhs, bits).bounds()
            if hi_l <= lo_r:
                return Verdict.HOLDS
            if lo_l > hi_r:
                return Verdict.VIOLATED
        return Verdict.UNDECIDED


def _zcdp_pair(
    loss: PrivacyLoss,
    xi: sp.Expr,
    rho: sp.Expr,
    lo: sp.Expr,
    hi: sp.Expr,
    precision: Precision,
    max_cells: int,
) -> tuple[Verdict, str, sp.Expr | None]:
    """The verdict on one ordered pair, a note, and a violating order (or None)."""
    if any(a.ratio is sp.oo and a.p != 0 for a in loss.atoms):
        return Verdict.VIOLATED, "P puts mass where Q puts none: D_alpha = oo", hi
    terms = [(a.ratio, a.p) for a in loss.atoms if a.p != 0]
    div = _Divergence(terms, precision)
    ratios = [r for r, _ in terms]
    i, _ = exact_max(ratios, precision)
    d_inf = sp.log(ratios[i])
    # every alpha with xi + rho*alpha >= D_inf holds, since D_alpha <= D_inf
    if decide_le(d_inf, xi + rho * lo, precision).verdict is Verdict.HOLDS:
        return Verdict.HOLDS, f"D_oo = {d_inf} <= xi + rho*{lo}", None
    if rho == 0:
        # non-decreasing with supremum D_inf as alpha -> oo
        if hi is sp.oo:
            return Verdict.VIOLATED, f"D_alpha -> D_oo = {d_inf} > xi as alpha -> oo", None
        v = div.le(hi, xi)
        return v, f"D_alpha is largest at alpha = {hi}", hi if v is Verdict.VIOLATED else None
    top = (d_inf - xi) / rho
    end = hi
    up = enclose(top, precision.start_bits)
    if up is not None:
        cap = sp.Integer(math.ceil(up.bounds()[1]))  # an integer: the cells stay dyadic
        if hi is sp.oo or cap < hi:
            end = cap
    if end is sp.oo:  # pragma: no cover - the enclosure of a log of a rational exists
        return Verdict.UNDECIDED, "could not bound the orders to check", None
    cells = [(lo, sp.Rational(end))]
    done = 0
    while cells:
        if done >= max_cells:
            left = ", ".join(f"[{a}, {b}]" for a, b in cells[:5])
            more = f" and {len(cells) - 5} more" if len(cells) > 5 else ""
            return Verdict.UNDECIDED, f"undecided on alpha in {left}{more}", None
        a, b = cells.pop()
        done += 1
        if div.le(b, xi + rho * a) is Verdict.HOLDS:
            continue
        if div.le(b, xi + rho * b) is Verdict.VIOLATED:
            return Verdict.VIOLATED, f"D_{b} > xi + rho*{b}", b
        m = (a + b) / 2
        cells.extend([(m, b), (a, m)])
    return Verdict.HOLDS, f"every alpha in [{lo}, {end}] ({done} cells) and above", None


@fill_doc
@privacy_parameters()
def check_zcdp(
    mech: FiniteMechanism,
    *,
    xi: Any = 0,
    rho: Any,
    orders: Any = (1, sp.oo),
    max_cells: int = MAX_CELLS,
    **options: Unpack[PointOptions],
) -> CheckResult:
    """Is ``mech`` (ξ, ρ)-zCDP: ``D_α(M(D)||M(D')) <= ξ + ρα`` for every order ``α``
    in ``orders`` and every ordered pair (Bun & Steinke 2016, Definition 1.1)?

    Decided over the whole range of orders, not at sampled ones (the module
    docstring gives the argument).

    Parameters
    ----------
    mech : FiniteMechanism
        The mechanism.
    xi, rho : exact number or str
        ``ξ >= 0`` and ``ρ >= 0`` (strings in the spec grammar are parsed).
    orders : (lo, hi)
        The orders: ``1 <= lo < hi``, rationals, ``hi`` may be ``oo`` (default
        ``(1, oo)``: zCDP; a bounded range is a Rényi curve over those orders).
    max_cells : int
        Cells of the order range examined per pair before the verdict is undecided.
    %(point_options)s

    Returns
    -------
    CheckResult
        One finding per ordered pair: ``D_α <= ξ + ρα`` over the range, violated with
        an order where it fails.

    Raises
    ------
    verifier.errors.InvalidParameter
        A negative ``ξ`` or ``ρ``, or a bad range of orders.

    Examples
    --------
    Randomized response with ε = log 3 has ``D_∞ = log 3`` and ``KL = log(3)/2``;
    so it is ρ-zCDP for ρ = 3/5 (``log 3 <= 3α/5`` from α = 1.84 on, and the cells
    below prove the rest) and not for ρ = 1/2 < KL.  It is also (log 3, 0)-zCDP
    (pure ε-DP is (ε, 0)-zCDP's ξ part):

    >>> import sympy as sp
    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response("log(3)")
    >>> check_zcdp(rr, rho="3/5").verdict.value, check_zcdp(rr, rho="1/2").verdict.value
    ('holds', 'violated')
    >>> check_zcdp(rr, xi="log(3)", rho=0).verdict.value
    'holds'
    >>> check_zcdp(rr, rho="1/2", orders=(2, 8)).verdict.value   # D_α <= α/2 on [2, 8]
    'holds'
    """
    o = fill_options(PointOptions, "check_zcdp", options)
    precision = o["precision"]
    xi, rho = exact(xi), exact(rho)
    for name, v in (("xi", xi), ("rho", rho)):
        if decide_le(0, v, precision).verdict is not Verdict.HOLDS:
            raise InvalidParameter(f"{name} must be >= 0, got {v}")
    lo, hi = _orders(orders)
    findings = []
    for d, d2 in checked_pairs(mech, o["pairs"]):
        loss = PrivacyLoss.of(mech, d, d2, precision)
        verdict, note, witness = _zcdp_pair(loss, xi, rho, lo, hi, precision, max_cells)
        divergence = sp.log(_renyi_sum([(a.ratio, a.p) for a in loss.atoms if a.p != 0], ALPHA)) / (
            ALPHA - 1
        )
        bound = xi + rho * ALPHA
        if witness is not None and witness is not sp.oo:
            # the counterexample: the divergence and the bound at that order, exact
            note += f"; at alpha = {witness}"
            divergence, bound = divergence.subs(ALPHA, witness), bound.subs(ALPHA, witness)
        findings.append(
            Finding(verdict, None, (d, d2), divergence, bound, divergence, bound, note=note)
        )
    name = f"({xi}, {rho})-zCDP" if xi != 0 else f"{rho}-zCDP"
    where = "" if (lo, hi) == (1, sp.oo) else f" for alpha in [{lo}, {hi}]"
    return CheckResult(
        o["title"] or f"{mech.name} is {name}{where}",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="D_alpha",
    )


# ---------------------------------------------------------------------------
# Gaussian DP
# ---------------------------------------------------------------------------


def _needed_mu(x: sp.Expr, y: sp.Expr) -> sp.Expr:
    """``Φ⁻¹(1 - x) - Φ⁻¹(y)``, with ``Φ⁻¹(p) = √2 erfinv(2p - 1)`` (erfinv is odd)."""
    return sp.sqrt(2) * (sp.erfinv(1 - 2 * x) + sp.erfinv(1 - 2 * y))


def _rational_bounds(v: sp.Expr, bits: int) -> tuple[Fraction, Fraction] | None:
    if v.is_Rational:
        f = Fraction(int(v.p), int(v.q))
        return f, f
    e = enclose(v, bits)
    return None if e is None else e.bounds()


def _quantile_bounds(lo: Fraction, hi: Fraction, bits: int) -> tuple[Fraction, Fraction] | None:
    """Bounds of ``Φ⁻¹`` over ``[lo, hi]`` (Φ⁻¹ is increasing)."""
    if lo <= 0 or hi >= 1:
        return None
    a = normal_quantile(lo, bits)
    b = a if hi == lo else normal_quantile(hi, bits)
    if a is None or b is None:
        return None
    return a[0], b[1]


def _mu_enclosure(x: sp.Expr, y: sp.Expr, bits: int) -> tuple[Fraction, Fraction] | None:
    """Certified bounds of ``Φ⁻¹(1 - x) - Φ⁻¹(y)`` for ``0 < x, y < 1``."""
    bx, by = _rational_bounds(x, bits), _rational_bounds(y, bits)
    if bx is None or by is None:
        return None
    left = _quantile_bounds(1 - bx[1], 1 - bx[0], bits)
    right = _quantile_bounds(by[0], by[1], bits)
    if left is None or right is None:
        return None
    return left[0] - right[1], left[1] - right[0]


def _vertex(x: sp.Expr, y: sp.Expr, precision: Precision) -> tuple[str, sp.Expr]:
    """Classify a vertex of the trade-off curve: ``"free"`` (holds for every μ),
    ``"never"`` (fails for every μ: realized ``oo``) or ``"inner"``, with the μ it
    needs."""

    def le(a: Any, b: Any) -> bool:
        v = decide_le(a, b, precision).verdict
        if v is Verdict.UNDECIDED:
            raise InvalidParameter(f"could not decide {a} <= {b} on the trade-off curve")
        return v is Verdict.HOLDS

    if le(1, x) or le(1, y):  # G_mu(1) = 0 and G_mu <= 1
        return "free", sp.Integer(0)
    if le(x, 0) or le(y, 0):  # T(0) < 1 = G_mu(0), or T(x) = 0 < G_mu(x) for x < 1
        return "never", sp.oo
    return "inner", _needed_mu(x, y)


def _gdp_vertices(
    mech: FiniteMechanism, pairs: Iterable[Pair] | None, precision: Precision
) -> list[tuple[Pair, sp.Expr, sp.Expr, str, sp.Expr]]:
    out = []
    for d, d2 in checked_pairs(mech, pairs):
        for x, y in PrivacyLoss.of(mech, d, d2, precision).tradeoff():
            kind, need = _vertex(x, y, precision)
            out.append(((d, d2), x, y, kind, need))
    return out


def _compare_mu(x: sp.Expr, y: sp.Expr, mu: sp.Expr, precision: Precision) -> Verdict:
    """``Φ⁻¹(1 - x) - Φ⁻¹(y) <= μ``, certified."""
    for bits in precision.schedule():
        gap = _mu_enclosure(x, y, bits)
        m = _rational_bounds(mu, bits)
        if gap is None or m is None:
            continue
        if gap[1] <= m[0]:
            return Verdict.HOLDS
        if gap[0] > m[1]:
            return Verdict.VIOLATED
    return Verdict.UNDECIDED


@fill_doc
@privacy_parameters()
def check_gdp(mech: FiniteMechanism, *, mu: Any, **options: Unpack[PointOptions]) -> CheckResult:
    """Is ``mech`` μ-GDP: ``T(M(D), M(D')) >= G_μ`` on ``[0, 1]`` for every ordered
    pair (Dong, Roth & Su 2022, Definition 2.6)?

    Decided at the vertices of each trade-off curve, which is exact for the whole
    curve (``G_μ`` is convex, the curve piecewise linear); each vertex's comparison
    ``Φ⁻¹(1 - x) - Φ⁻¹(y) <= μ`` is certified.

    Parameters
    ----------
    mech : FiniteMechanism
        The mechanism.
    mu : exact number or str
        ``μ >= 0``.
    %(point_options)s

    Returns
    -------
    CheckResult
        One finding per vertex ``(x, y)`` with ``0 < x, y < 1`` or failing for every μ
        (an output only one side gives): realized ``Φ⁻¹(1 - x) - Φ⁻¹(y)`` against μ.

    Raises
    ------
    verifier.errors.InvalidParameter
        A negative μ.

    Examples
    --------
    Randomized response with ε = log 3 has the one inner vertex ``(1/4, 1/4)``, which
    needs ``μ = Φ⁻¹(3/4) - Φ⁻¹(1/4) = 2Φ⁻¹(3/4) = 1.34898...``:

    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response("log(3)")
    >>> check_gdp(rr, mu="27/20").verdict.value, check_gdp(rr, mu="67/50").verdict.value
    ('holds', 'violated')
    """
    o = fill_options(PointOptions, "check_gdp", options)
    precision = o["precision"]
    mu = exact(mu)
    if decide_le(0, mu, precision).verdict is not Verdict.HOLDS:
        raise InvalidParameter(f"mu must be >= 0, got {mu}")
    findings = []
    for pair, x, y, kind, need in _gdp_vertices(mech, o["pairs"], precision):
        if kind == "free":
            continue
        verdict = Verdict.VIOLATED if kind == "never" else _compare_mu(x, y, mu, precision)
        note = f"trade-off vertex ({x}, {y})"
        findings.append(Finding(verdict, None, pair, need, mu, need, mu, note=note))
    return CheckResult(
        o["title"] or f"{mech.name} is {mu}-GDP",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="mu",
    )


@fill_doc
@privacy_parameters()
def gdp_mu(mech: FiniteMechanism, **options: Unpack[QueryOptions]) -> Attained:
    """The smallest μ with ``mech`` μ-GDP (Dong, Roth & Su 2022, Definition 2.6), as
    the exact expression ``Φ⁻¹(1 - x) - Φ⁻¹(y)`` of the trade-off vertex that needs
    the most, and an ordered pair attaining it; ``oo`` when an output has probability
    0 on one side only.  ``certified`` says whether that vertex was proved the
    largest.

    Parameters
    ----------
    mech : FiniteMechanism
        The mechanism.
    %(query_options)s

    Returns
    -------
    Attained
        ``value`` (``sqrt(2)*(erfinv(..) - erfinv(..))``, 0 for identical
        distributions), ``pair``, ``certified``.

    Raises
    ------
    verifier.errors.InvalidParameter
        A vertex of a trade-off curve whose position could not be decided.

    Examples
    --------
    >>> from verifier.mechanism.instances import randomized_response
    >>> r = gdp_mu(randomized_response("log(3)"))
    >>> r.value, r.pair, r.certified
    (2*sqrt(2)*erfinv(1/2), ('D', "D'"), True)
    """
    o = fill_options(QueryOptions, "gdp_mu", options)
    precision = o["precision"]
    vertices = _gdp_vertices(mech, o["pairs"], precision)
    if not vertices:
        raise InvalidParameter("gdp_mu: the mechanism has no ordered pair")
    for pair, _, _, kind, _ in vertices:
        if kind == "never":
            return Attained(sp.oo, pair)
    inner = [(pair, x, y, need) for pair, x, y, kind, need in vertices if kind == "inner"]
    if not inner:
        return Attained(sp.Integer(0), vertices[0][0])
    for bits in precision.schedule():
        boxes = [_mu_enclosure(x, y, bits) for _, x, y, _ in inner]
        if any(b is None for b in boxes):
            continue
        best = max(range(len(inner)), key=lambda k: boxes[k][0])  # type: ignore[index]
        lo_best = boxes[best][0]  # type: ignore[index]
        rivals = [
            k
            for k, b in enumerate(boxes)
            if k != best and b[1] > lo_best and inner[k][3] != inner[best][3]  # type: ignore[index]
        ]
        if not rivals:
            return Attained(sp.simplify(inner[best][3]), inner[best][0])
    pair, _, _, need = inner[best]
    return Attained(sp.simplify(need), pair, certified=False)

"""Certified enclosures of the standard normal distribution function Φ and its
inverse Φ⁻¹ at exact rational points.

Gaussian differential privacy (Dong, Roth & Su 2022, "Gaussian differential privacy",
JRSS B, Definition 2.6) is stated through ``G_μ(x) = Φ(Φ⁻¹(1 - x) - μ)``; deciding it
for a finite mechanism needs Φ and Φ⁻¹ with guaranteed bounds, which neither sympy
nor mpmath's interval context provides.

* :func:`normal_cdf` encloses ``Φ(z)`` by the everywhere-convergent series
  ``Φ(z) = 1/2 + φ(z) Σ_{n>=0} z^{2n+1} / (1·3·5···(2n+1))`` (Abramowitz & Stegun
  1964, 26.2.11; ``φ`` the standard normal density), summed in mpmath's interval
  arithmetic.  Every term has the sign of ``z`` and the ratio of consecutive terms is
  ``z²/(2n+3)``; once it is at most 1/2 the remainder after a term ``t`` lies between
  0 and ``t`` (a geometric series of ratio 1/2), which is added as an interval.  The
  result is an enclosure at any precision, never an estimate.
* :func:`normal_quantile` encloses ``Φ⁻¹(p)``: a floating-point guess (display-grade
  mpmath) picks two rationals ``lo < hi`` near it, and the enclosures of ``Φ(lo)``
  and ``Φ(hi)`` certify ``Φ(lo) < p < Φ(hi)``; Φ is strictly increasing, so
  ``Φ⁻¹(p)`` lies in ``(lo, hi)``.  A guess that is off only widens the bracket or
  fails (``None``), it cannot give a wrong enclosure.

>>> from fractions import Fraction
>>> lo, hi = normal_cdf(Fraction(0), 64)
>>> lo == hi == Fraction(1, 2)
True
>>> lo, hi = normal_quantile(Fraction(39, 40), 64)      # Φ⁻¹(0.975) = 1.95996...
>>> round(float(lo), 12), round(float(hi), 12), hi - lo < Fraction(1, 10**15)
(1.95996398454, 1.95996398454, True)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from .precision import interval_context, raw_fraction, real_context

__all__ = ["normal_cdf", "normal_quantile", "MAX_ABS_ARGUMENT"]

#: The largest ``|z|`` whose Φ(z) is enclosed: beyond it ``Φ(z)`` or ``1 - Φ(z)`` is
#: below ``e^{-2·10^5}`` and the series would need more than 10^5 terms.
MAX_ABS_ARGUMENT = 600


def _fraction(x: Any) -> Fraction:
    """The exact rational value of an mpmath float."""
    return raw_fraction(x._mpf_)


def _interval_ends(v: Any) -> tuple[Fraction, Fraction]:
    """The exact rational ends of an mpmath interval."""
    a, b = v._mpi_
    return raw_fraction(a), raw_fraction(b)


def _cdf_interval(ctx: Any, z: Fraction) -> Any:
    """Φ(z) as an mpmath interval of ``ctx`` (see the module docstring)."""
    if z == 0:
        return ctx.mpf(1) / 2
    zi = ctx.mpf(z.numerator) / z.denominator
    z2 = zi * zi
    zf = float(z)
    # terms to sum: past the point where the ratio z²/(2n+3) is at most 1/2, and far
    # enough that the last term is below 2^-(prec + 10) of the largest (only the width
    # of the result depends on this count, not its soundness)
    first_small = max(0, math.ceil((zf * zf - 3) / 2))
    n_terms = first_small + ctx.prec + 20
    term = zi
    total = zi
    for n in range(n_terms):
        term = term * z2 / (2 * n + 3)
        total = total + term
        if n >= first_small and n > 2 * zf * zf + 4:
            # remaining ratio <= 1/4 now; stop when the term is negligible
            mag = term.b if zf > 0 else -term.a
            if mag < ctx.mpf(2) ** (-ctx.prec - 10) * abs(total).a:
                break
    # the remainder after `term` lies between 0 and `term` (same sign, ratio <= 1/2)
    total = total + ctx.mpf([0, 1]) * term
    density = ctx.exp(-z2 / 2) / ctx.sqrt(2 * ctx.pi)
    return ctx.mpf(1) / 2 + density * total


def normal_cdf(z: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Rationals ``lo <= Φ(z) <= hi``, computed with ``bits`` of working precision
    (the width shrinks like ``2^-bits``).

    Parameters
    ----------
    z : fractions.Fraction
        The point; ``|z| <= MAX_ABS_ARGUMENT``.
    bits : int
        Working precision of the interval arithmetic.

    Returns
    -------
    tuple of fractions.Fraction
        ``(lo, hi)`` enclosing ``Φ(z)``, clipped to ``[0, 1]``.

    Raises
    ------
    ValueError
        ``|z|`` beyond :data:`MAX_ABS_ARGUMENT`.

    Examples
    --------
    Φ(1) = 0.841344746068542...:

    >>> lo, hi = normal_cdf(Fraction(1), 80)
    >>> float(lo) <= 0.8413447460685429 <= float(hi), hi - lo < Fraction(1, 10**20)
    (True, True)
    """
    if abs(z) > MAX_ABS_ARGUMENT:
        raise ValueError(f"normal_cdf: |z| = {float(abs(z)):.6g} is beyond {MAX_ABS_ARGUMENT}")
    extra = int(float(z) ** 2 / 2 * 1.4427) + 8  # bits the series' cancellation costs
    with interval_context(bits + extra) as ctx:
        lo, hi = _interval_ends(_cdf_interval(ctx, z))
    return max(lo, Fraction(0)), min(hi, Fraction(1))


def normal_quantile(p: Fraction, bits: int) -> tuple[Fraction, Fraction] | None:
    """Rationals ``lo < Φ⁻¹(p) < hi`` about ``2^-bits`` apart (relative to
    ``max(1, |Φ⁻¹(p)|)``), or ``None`` when the bracket could not be certified at
    this precision (try more bits).

    Parameters
    ----------
    p : fractions.Fraction
        A probability strictly between 0 and 1.
    bits : int
        Working precision.

    Returns
    -------
    tuple of fractions.Fraction or None
        ``(lo, hi)`` with ``Φ(lo) < p < Φ(hi)`` certified.

    Raises
    ------
    ValueError
        ``p`` not in ``(0, 1)``, or ``Φ⁻¹(p)`` beyond :data:`MAX_ABS_ARGUMENT`.

    Examples
    --------
    >>> lo, hi = normal_quantile(Fraction(1, 2), 64)
    >>> lo < 0 < hi
    True
    >>> lo, hi = normal_quantile(Fraction(1, 10**6), 64)     # Φ⁻¹(1e-6) = -4.7534...
    >>> float(lo) <= -4.753424308822899 <= float(hi)
    True
    """
    if not 0 < p < 1:
        raise ValueError(f"normal_quantile: p = {p} is not strictly between 0 and 1")
    # Φ near a tail probability p must be known to far better than p itself (and the
    # guess's 2p - 1 loses as many bits)
    tail = min(p, 1 - p)
    work = bits + max(0, tail.denominator.bit_length() - tail.numerator.bit_length()) + 16
    with real_context(work + 8) as ctx:
        guess = ctx.sqrt(2) * ctx.erfinv(2 * (ctx.mpf(p.numerator) / p.denominator) - 1)
        g = _fraction(guess)
    if abs(g) > MAX_ABS_ARGUMENT - 1:
        raise ValueError(f"normal_quantile: Φ⁻¹({p}) is beyond {MAX_ABS_ARGUMENT}")
    step = Fraction(max(1, math.ceil(abs(g)))) / (1 << max(8, bits - 8))
    for _ in range(4):
        lo, hi = g - step, g + step
        if normal_cdf(lo, work)[1] < p < normal_cdf(hi, work)[0]:
            return lo, hi
        step *= 1 << 8
    return None

"""Noise distributions of the programs, and their exact laws as piecewise
exponential polynomials (:mod:`.expoly`).

A noise is two-sided geometric or Laplace with rate ``η`` (scale ``1/η``), or none.
With ``η = m·u`` for the common unit ``u`` of a program's rates, ``W = e^{-u}`` and
``U = u``:

* the two-sided geometric (discrete Laplace) distribution (Ghosh, Roughgarden,
  Sundararajan 2009, "Universally utility-maximizing privacy mechanisms") has pmf
  ``P(ν = y) = (1-W^m)/(1+W^m) · W^{m|y|}`` and survival ``P(ν >= y) =
  W^{m y}/(1+W^m)`` for ``y >= 1``, ``1 - W^{m(1-y)}/(1+W^m)`` for ``y <= 0``;
* the Laplace distribution (Dwork, McSherry, Nissim, Smith 2006, "Calibrating noise
  to sensitivity in private data analysis") has density ``(m U/2) W^{m|y|}`` and
  survival ``½ W^{m y}`` (``y >= 0``), ``1 - ½ W^{-m y}`` (``y <= 0``);
* the one-sided exponential distribution (the noise of Report-Noisy-Max with
  exponential noise, Ding, Wang, Wang, Zhang, Kifer 2018, "Detecting violations of
  differential privacy", CCS, Algorithms 6 and 8) has density ``m U W^{m y}`` and
  survival ``W^{m y}`` for ``y >= 0``, density 0 and survival 1 for ``y < 0``
  (``η e^{-ηy}`` and ``e^{-ηy}``: its antiderivatives are those of the Laplace
  pieces, :meth:`.expoly.ExpPoly.piece_total`).

>>> from verifier.algorithms.noise.expoly import DISCRETE
>>> f = PW.const(DISCRETE, 1)
>>> g = geometric_pmf(DISCRETE, 1)          # P(ν = y), rate u
>>> (f * g).total() == 1                      # Σ_y P(ν = y) = 1 exactly, in Q(W)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

from ...arithmetic.exact import exact
from ...errors import InvalidParameter
from .expoly import PW, ExpPoly, Ring

__all__ = [
    "NoiseKind",
    "Noise",
    "geometric",
    "laplace",
    "NO_NOISE",
    "noise_family",
    "geometric_pmf",
    "geometric_survival",
    "laplace_density",
    "laplace_survival",
    "exponential",
    "exponential_density",
    "exponential_survival",
    "point_mass",
]

NoiseKind = Literal["geometric", "laplace", "exponential", "none"]


@dataclass(frozen=True)
class Noise:
    """A noise distribution: two-sided geometric or Laplace with rate ``η`` (scale
    ``1/η``: density/pmf proportional to ``e^{-η|x|}``), one-sided exponential with
    rate ``η`` (density ``η e^{-ηx}`` on ``x >= 0``), or no noise."""

    kind: NoiseKind
    rate: sp.Expr | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("geometric", "laplace", "exponential", "none"):
            raise InvalidParameter(f"unknown noise kind {self.kind!r}")
        if self.kind == "none":
            if self.rate is not None:
                raise InvalidParameter("'none' noise has no rate")
            return
        r = exact(self.rate)
        if r.is_positive is False or (not r.free_symbols and not r.is_positive):
            raise InvalidParameter(f"a noise rate must be > 0, got {r}")
        object.__setattr__(self, "rate", r)

    def __str__(self) -> str:
        if self.kind == "none":
            return "0"
        scale = 1 / self.rate  # type: ignore[operator]
        tag = {"laplace": "Lap", "exponential": "Exp", "geometric": "Geom"}[self.kind]
        return f"{tag}({scale})"

    @property
    def continuous(self) -> bool:
        """Whether the noise has a density (Laplace, exponential)."""
        return self.kind in ("laplace", "exponential")


def geometric(rate: Any) -> Noise:
    """Two-sided geometric noise ``P(ν = k) = (1-x)/(1+x) x^{|k|}``, ``x = e^{-rate}``."""
    return Noise("geometric", exact(rate))


def laplace(rate: Any) -> Noise:
    """Laplace noise with density ``(rate/2) e^{-rate|x|}`` (scale ``1/rate``)."""
    return Noise("laplace", exact(rate))


def exponential(rate: Any) -> Noise:
    """One-sided exponential noise with density ``rate · e^{-rate·x}`` on ``x >= 0``
    (numpy's ``exponential(scale=1/rate)``)."""
    return Noise("exponential", exact(rate))


NO_NOISE = Noise("none")


def noise_family(kind: str, rate: Any) -> Noise:
    """:func:`geometric`, :func:`laplace` or :func:`exponential` noise with ``rate``, by
    the family's name."""
    if kind == "geometric":
        return geometric(rate)
    if kind == "laplace":
        return laplace(rate)
    if kind == "exponential":
        return exponential(rate)
    raise InvalidParameter(
        f"noise family must be 'geometric', 'laplace' or 'exponential', got {kind!r}"
    )


# ---------------------------------------------------------------------------
# primitives: noise distributions as piecewise functions
# ---------------------------------------------------------------------------


def geometric_pmf(ring: Ring, m: int) -> PW:
    """``P(ν = y) = (1-W^m)/(1+W^m) · W^{m|y|}``: the two-sided geometric (discrete
    Laplace) distribution with rate ``m·u`` (Ghosh, Roughgarden, Sundararajan 2009)."""
    C = (1 - ring.wpow(m)) / (1 + ring.wpow(m))
    return PW(ring, (0,), (ExpPoly.exp(ring, -m, C), ExpPoly.exp(ring, m, C)))


def geometric_survival(ring: Ring, m: int) -> PW:
    """``S(y) = P(ν >= y)``: ``W^{my}/(1+W^m)`` for ``y >= 1`` and
    ``1 - W^m/(1+W^m) · W^{-my}`` for ``y <= 0`` (the sum of the pmf tail)."""
    d = 1 + ring.wpow(m)
    left = ExpPoly.const(ring, 1) - ExpPoly.exp(ring, -m, ring.wpow(m) / d)
    right = ExpPoly.exp(ring, m, 1 / d)
    return PW(ring, (1,), (left, right))


def laplace_density(ring: Ring, m: int) -> PW:
    """Density ``(m U/2) W^{m|y|}`` = ``(mu/2) e^{-mu|y|}`` of Laplace(rate ``m·u``)."""
    C = m * ring.U / 2
    return PW(ring, (0,), (ExpPoly.exp(ring, -m, C), ExpPoly.exp(ring, m, C)))


def laplace_survival(ring: Ring, m: int) -> PW:
    """``S(y) = P(ν >= y) = ½ e^{-muy}`` (``y >= 0``), ``1 - ½ e^{muy}`` (``y < 0``)."""
    half = Fraction(1, 2)
    left = ExpPoly.const(ring, 1) - ExpPoly.exp(ring, -m, ring.c(half))
    right = ExpPoly.exp(ring, m, ring.c(half))
    return PW(ring, (0,), (left, right))


def exponential_density(ring: Ring, m: int) -> PW:
    """Density ``m U W^{m y}`` = ``mu e^{-muy}`` for ``y >= 0`` (0 below) of the
    one-sided exponential distribution with rate ``m·u``."""
    if not ring.real:
        raise InvalidParameter("internal: the exponential density needs a real variable")
    return PW(ring, (0,), (ExpPoly(ring), ExpPoly.exp(ring, m, m * ring.U)))


def exponential_survival(ring: Ring, m: int) -> PW:
    """``S(y) = P(ν >= y)``: 1 for ``y <= 0``, ``e^{-muy} = W^{my}`` for ``y >= 0``
    (continuous at 0)."""
    return PW(ring, (0,), (ExpPoly.const(ring, 1), ExpPoly.exp(ring, m, ring.c(1))))


def point_mass(ring: Ring) -> PW:
    """``[y = 0]`` on the integers (the 'no noise' distribution)."""
    if ring.real:
        raise InvalidParameter("internal: a point mass has no density on the reals")
    zero, one = ExpPoly(ring), ExpPoly.const(ring, 1)
    return PW(ring, (0, 1), (zero, one, zero))

"""Repetition counts of selection programs, each given by its probability generating
function (PGF) ``G(z) = E[z^K]``.

A :class:`Count` holds the exact PGF of the number ``K`` of candidate draws as a sympy
expression in :data:`Z`, its probability mass function, its mean and its support,
after validating its parameters (:class:`~verifier.errors.InvalidParameter` naming the
parameter).  Every law of a selection program is read off the PGF: the best of ``K``
independent draws is ranked at most ``o`` with probability ``G(F(o))``, ``F(o)`` the
mass ranked at or below ``o`` (Liu & Talwar 2019, "Private selection from private
candidates", proof of Theorem 3.2 for the geometric count; Papernot & Steinke 2022,
"Hyperparameter tuning with Rényi differential privacy", ICLR, §2, for any count).

===================================  ============================================  ==================
count                                ``G(z)``                                      values at rationals
===================================  ============================================  ==================
:func:`fixed` ``T``                  ``z^T``                                       rational
:func:`uniform` on ``1..T``          ``(z + ... + z^T)/T``                         rational
:func:`geometric` ``γ``              ``γz/(1-(1-γ)z)``                             rational
:func:`binomial` ``(n, p)``          ``(1-p+pz)^n``                                rational
:func:`finite` pmf                   ``Σ_k p_k z^k``                               rational
:func:`truncated_negative_binomial`  ``((1-(1-γ)z)^{-η} - 1)/(γ^{-η} - 1)``        algebraic (η rational)
:func:`logarithmic` ``γ``            ``log(1-(1-γ)z)/log γ``                       certified
:func:`poisson` ``μ``                ``e^{μ(z-1)}``                                certified
===================================  ============================================  ==================

"Rational" and "algebraic" values are exact numbers whose comparisons are decided
exactly; "certified" ones (``log``, ``exp`` of rationals) are exact expressions whose
signs are decided by interval enclosures with outward rounding
(:func:`verifier.arithmetic.exact.decide_sign`).

>>> c = truncated_negative_binomial(1, sp.Rational(1, 4))    # η = 1: the geometric count
>>> sp.simplify(c.pgf - geometric(sp.Rational(1, 4)).pgf)
0
>>> c.at(1), c.mean, c.pmf(2)
(1, 4, 3/16)
>>> poisson(2).at(0), poisson(2).exactness
(exp(-2), 'certified')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..arithmetic.exact import Sign, Verdict, decide_eq, decide_sign, exact
from ..errors import InvalidParameter, VerifierError

__all__ = [
    "Z",
    "Count",
    "COUNT_LAWS",
    "fixed",
    "uniform",
    "geometric",
    "poisson",
    "truncated_negative_binomial",
    "logarithmic",
    "binomial",
    "finite",
    "make_count",
]

#: The variable of every probability generating function.
Z = sp.Symbol("z")

#: Counts with more rounds than this are refused where the rounds are enumerated.
MAX_ROUNDS = 5000


@dataclass(frozen=True)
class Count:
    """The law of the number of draws ``K`` of a selection program.

    Attributes
    ----------
    law : str
        Its name (``"poisson"``, ...).
    params : tuple of (str, sympy.Expr)
        Its validated parameters.
    pgf : sympy.Expr
        ``G(z) = E[z^K]`` in :data:`Z`, exact.
    least, most : int, int or None
        The smallest and largest ``k`` with ``P(K = k) > 0`` (``most=None``: unbounded).
    mean : sympy.Expr
        ``E[K] = G'(1)``, from its own closed form.
    exactness : {"rational", "algebraic", "certified"}
        What the values of ``G`` at rational points are (see the module docstring).
    source : str
        The paper the count comes from.
    """

    law: str
    params: tuple[tuple[str, sp.Expr], ...]
    pgf: sp.Expr
    least: int
    most: int | None
    mean: sp.Expr
    exactness: str
    source: str
    _pmf: Callable[[int], sp.Expr] = field(repr=False, compare=False)

    def at(self, x: Any) -> sp.Expr:
        """``G(x)``, exact."""
        return self.pgf.xreplace({Z: exact(x)})

    def pmf(self, k: int) -> sp.Expr:
        """``P(K = k)`` from its own closed form (not from the PGF)."""
        if k < self.least or (self.most is not None and k > self.most):
            return sp.Integer(0)
        return self._pmf(k)

    def tail(self, k: int) -> sp.Expr:
        """``P(K >= k)`` as a sum of its own terms (finite support only)."""
        if self.most is None:
            raise InvalidParameter(f"the {self.law} count has no finite support to sum over")
        return sp.Add(*[self.pmf(j) for j in range(max(k, self.least), self.most + 1)])

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.law}({args})"


# ---------------------------------------------------------------------------
# validation of the parameters
# ---------------------------------------------------------------------------


def _number(raw: Any, name: str) -> sp.Expr:
    try:
        v = exact(raw)
    except VerifierError as err:
        raise InvalidParameter(f"{name}: {err}") from None
    if v.free_symbols:
        raise InvalidParameter(f"{name} must be a number, got {v} (symbols without value)")
    return v


def _sign(v: sp.Expr, name: str) -> Sign:
    s = decide_sign(v).sign
    if s is Sign.UNDECIDED:
        raise InvalidParameter(f"could not decide the sign of {name} = {v}")
    return s


def _int(raw: Any, name: str, least: int) -> int:
    if isinstance(raw, bool):
        raise InvalidParameter(f"{name} must be an integer >= {least}, got {raw!r}")
    v = _number(raw, name)
    if not v.is_Integer or v < least:
        raise InvalidParameter(f"{name} must be an integer >= {least}, got {v}")
    return int(v)


def _in_unit(raw: Any, name: str, *, zero: bool, one: bool) -> sp.Expr:
    v = _number(raw, name)
    lo, hi = _sign(v, name), _sign(1 - v, f"1 - {name}")
    bad = (
        lo is Sign.NEGATIVE
        or hi is Sign.NEGATIVE
        or (lo is Sign.ZERO and not zero)
        or (hi is Sign.ZERO and not one)
    )
    if bad:
        rng = f"{'[' if zero else '('}0, 1{']' if one else ')'}"
        raise InvalidParameter(f"{name} must lie in {rng}, got {v}")
    return v


def _free(raw: Any, name: str) -> sp.Symbol | None:
    """``raw`` when it is a real sympy symbol (a parameter left free), else ``None``."""
    if not isinstance(raw, sp.Symbol):
        return None
    if raw.is_real is not True:
        raise InvalidParameter(f"{name} = {raw}: a symbol must be declared real (or positive)")
    return raw


def _kind(*values: sp.Expr) -> str:
    if all(v.is_Rational for v in values):
        return "rational"
    if all(v.is_algebraic for v in values):
        return "algebraic"
    return "certified"


def _tnb_kind(eta: sp.Expr, gamma: sp.Expr) -> str:
    """``(1-(1-γ)x)^{-η}`` at rational ``x``: rational for an integer ``η`` and rational
    ``γ``, algebraic for a rational ``η`` and algebraic ``γ``, else transcendental."""
    if eta.is_Integer and gamma.is_Rational:
        return "rational"
    if eta.is_Rational and gamma.is_algebraic:
        return "algebraic"
    return "certified"


# ---------------------------------------------------------------------------
# the laws
# ---------------------------------------------------------------------------


def fixed(T: Any) -> Count:
    """``K = T`` always: ``G(z) = z^T`` (Talwar 2025, Theorem 11's ``A_max^T``; Liu &
    Talwar 2019, App. B.3's ``n`` samples).

    >>> fixed(3).pgf, fixed(3).mean
    (z**3, 3)
    """
    t = _int(T, "T", 1)
    return Count(
        "fixed",
        (("T", sp.Integer(t)),),
        Z**t,
        t,
        t,
        sp.Integer(t),
        "rational",
        "Talwar 2025, Theorem 11 (A_max^T)",
        lambda k: sp.Integer(1),
    )


def uniform(T: Any) -> Count:
    """``K`` uniform on ``{1, ..., T}``: ``G(z) = (z + ... + z^T)/T``, mean ``(T+1)/2``.

    >>> uniform(2).pgf
    z**2/2 + z/2
    """
    t = _int(T, "T", 1)
    return Count(
        "uniform",
        (("T", sp.Integer(t)),),
        sp.Add(*[Z**k for k in range(1, t + 1)]) / t,
        1,
        t,
        sp.Rational(t + 1, 2),
        "rational",
        "uniform number of rounds on 1..T",
        lambda k: sp.Rational(1, t),
    )


def geometric(gamma: Any) -> Count:
    """``P(K = k) = γ(1-γ)^{k-1}``, ``k >= 1``: ``G(z) = γz/(1-(1-γ)z)``, mean ``1/γ``
    — Liu & Talwar 2019's random stopping (Theorem 3.2), Papernot & Steinke 2022's
    truncated negative binomial with ``η = 1`` (§2).

    >>> geometric(sp.Rational(1, 2)).pgf
    z/(2*(1 - z/2))
    """
    g = _in_unit(gamma, "gamma", zero=False, one=True)
    return Count(
        "geometric",
        (("gamma", g),),
        g * Z / (1 - (1 - g) * Z),
        1,
        1 if g == 1 else None,
        1 / g,
        _kind(g),
        "Liu & Talwar 2019, Theorem 3.2; Papernot & Steinke 2022, §2 (eta = 1)",
        lambda k: g * (1 - g) ** (k - 1),
    )


def poisson(mu: Any) -> Count:
    """``K ~ Poisson(μ)``: ``G(z) = e^{μ(z-1)}``, ``P(K = k) = e^{-μ}μ^k/k!``
    (Papernot & Steinke 2022, §2 and Theorem 6); ``K = 0`` releases ``⊥``.

    ``μ`` may also be a real sympy symbol (the law as a function of it, for deciding a
    claim for every ``μ`` of a range; the range must lie in ``μ > 0``, not checked here).

    >>> poisson(3).pmf(1)
    3*exp(-3)
    """
    m = _free(mu, "mu")
    if m is None:
        m = _number(mu, "mu")
        if _sign(m, "mu") is not Sign.POSITIVE:
            raise InvalidParameter(f"mu must be > 0, got {m}")
    return Count(
        "poisson",
        (("mu", m),),
        sp.exp(m * (Z - 1)),
        0,
        None,
        m,
        "certified",
        "Papernot & Steinke 2022, §2 and Theorem 6 (Poisson)",
        lambda k: sp.exp(-m) * m**k / sp.factorial(k),
    )


def truncated_negative_binomial(eta: Any, gamma: Any) -> Count:
    """Papernot & Steinke 2022's truncated negative binomial ``D_{η,γ}`` (§2, the
    distribution of Theorem 2), ``η > -1``, ``γ ∈ (0, 1)``:
    ``P(K = k) = (1-γ)^k/(γ^{-η} - 1) · Π_{ℓ<k} (ℓ+η)/(ℓ+1)`` for ``k >= 1``,
    ``G(z) = ((1-(1-γ)z)^{-η} - 1)/(γ^{-η} - 1)``, mean ``η(1-γ)/(γ(1-γ^η))``;
    ``η = 0`` is the :func:`logarithmic` count, ``η = 1`` the :func:`geometric` one.
    For ``η ∈ (-1, 0)`` the rising factorial and ``γ^{-η} - 1`` are both negative.

    ``η`` and ``γ`` may also be real sympy symbols: the count is then the law as a
    function of them, for deciding a claim for every ``(η, γ)`` of a box
    (:mod:`verifier.checks.boxes`).  Its formulas hold for ``η > -1``, ``η != 0`` and
    ``γ ∈ (0, 1)``; a symbol's range is the box's, which must lie there (not checked
    here: a symbol carries no range).

    >>> truncated_negative_binomial(sp.Rational(-1, 2), sp.Rational(1, 4)).pgf
    2 - 2*sqrt(1 - 3*z/4)
    >>> eta, gamma = sp.symbols("eta gamma", positive=True)
    >>> truncated_negative_binomial(eta, gamma).mean
    eta*(1 - gamma)/(gamma*(1 - gamma**eta))
    """
    e = _free(eta, "eta")
    g = _free(gamma, "gamma")
    if e is None:
        e = _number(eta, "eta")
        if _sign(e + 1, "eta + 1") is not Sign.POSITIVE:
            raise InvalidParameter(f"eta must be > -1, got {e}")
    if g is None:
        g = _in_unit(gamma, "gamma", zero=False, one=False)
    if not e.free_symbols and _sign(e, "eta") is Sign.ZERO:
        return logarithmic(g)
    norm = g ** (-e) - 1

    def pmf(k: int) -> sp.Expr:
        rising = sp.Mul(*[sp.Integer(j) + e for j in range(k)]) / sp.factorial(k)
        return (1 - g) ** k * rising / norm

    return Count(
        "truncated_negative_binomial",
        (("eta", e), ("gamma", g)),
        ((1 - (1 - g) * Z) ** (-e) - 1) / norm,
        1,
        None,
        e * (1 - g) / (g * (1 - g**e)),
        _tnb_kind(e, g),
        "Papernot & Steinke 2022, §2 (truncated negative binomial D_{eta,gamma}) and Theorem 2",
        pmf,
    )


def logarithmic(gamma: Any) -> Count:
    """The logarithmic count (Papernot & Steinke 2022, §2: ``D_{0,γ}``), ``γ ∈ (0, 1)``:
    ``P(K = k) = (1-γ)^k/(k log(1/γ))``, ``G(z) = log(1-(1-γ)z)/log γ``, mean
    ``(1-γ)/(γ log(1/γ))``.

    >>> logarithmic(sp.Rational(1, 2)).pmf(1)
    1/(2*log(2))
    """
    g = _in_unit(gamma, "gamma", zero=False, one=False)
    return Count(
        "logarithmic",
        (("gamma", g),),
        sp.log(1 - (1 - g) * Z) / sp.log(g),
        1,
        None,
        (1 - g) / (g * sp.log(1 / g)),
        "certified",
        "Papernot & Steinke 2022, §2 (eta = 0: the logarithmic distribution)",
        lambda k: (1 - g) ** k / (k * sp.log(1 / g)),
    )


def binomial(n: Any, p: Any) -> Count:
    """``K ~ Binomial(n, p)``: ``G(z) = (1-p+pz)^n`` — the binomial number of rounds of
    Koskela, Redberg & Wang 2024 ("Privacy profiles for private selection", ICML);
    ``K = 0`` releases ``⊥``.

    >>> binomial(2, sp.Rational(1, 2)).pmf(1)
    1/2
    """
    t = _int(n, "n", 1)
    q = _in_unit(p, "p", zero=False, one=True)
    return Count(
        "binomial",
        (("n", sp.Integer(t)), ("p", q)),
        (1 - q + q * Z) ** t,
        t if q == 1 else 0,
        t,
        t * q,
        _kind(q),
        "Koskela, Redberg & Wang 2024 (binomial number of rounds)",
        lambda k: sp.binomial(t, k) * q**k * (1 - q) ** (t - k),
    )


def finite(pmf: Mapping[Any, Any]) -> Count:
    """Any finite law ``{k: P(K = k)}`` (``k >= 0`` integers, exact probabilities
    summing to exactly 1): ``G(z) = Σ_k P(K = k) z^k``.

    >>> finite({1: sp.Rational(1, 3), 3: sp.Rational(2, 3)}).mean
    7/3
    """
    if not isinstance(pmf, Mapping) or not pmf:
        raise InvalidParameter(f"pmf must be a non-empty table {{k: probability}}, got {pmf!r}")
    table: dict[int, sp.Expr] = {}
    for raw_k, raw_p in pmf.items():
        k = _int(int(raw_k) if isinstance(raw_k, str) and raw_k.isdigit() else raw_k, "pmf key", 0)
        if k > MAX_ROUNDS:
            raise InvalidParameter(f"pmf key {k} exceeds the limit of {MAX_ROUNDS} rounds")
        p = _number(raw_p, f"pmf[{k}]")
        if _sign(p, f"pmf[{k}]") is Sign.NEGATIVE:
            raise InvalidParameter(f"pmf[{k}] must be >= 0, got {p}")
        if k in table:
            raise InvalidParameter(f"pmf gives k = {k} twice")
        if p != 0:
            table[k] = p
    total = sp.Add(*table.values())
    v = decide_eq(total, 1)
    if v is not Verdict.HOLDS:
        raise InvalidParameter(
            f"the pmf must sum to exactly 1, got {total}"
            + (" (not decided)" if v is Verdict.UNDECIDED else "")
        )
    ks = sorted(table)
    return Count(
        "finite",
        tuple((str(k), table[k]) for k in ks),
        sp.Add(*[table[k] * Z**k for k in ks]),
        ks[0],
        ks[-1],
        sp.Add(*[k * table[k] for k in ks]),
        _kind(*table.values()),
        "a finite number-of-rounds law",
        lambda k: table.get(k, sp.Integer(0)),
    )


#: The count laws by name and their parameter names (spec files, the JSON Schema).
COUNT_LAWS: dict[str, tuple[Callable[..., Count], tuple[str, ...]]] = {
    "fixed": (fixed, ("T",)),
    "uniform": (uniform, ("T",)),
    "geometric": (geometric, ("gamma",)),
    "poisson": (poisson, ("mu",)),
    "truncated_negative_binomial": (truncated_negative_binomial, ("eta", "gamma")),
    "logarithmic": (logarithmic, ("gamma",)),
    "binomial": (binomial, ("n", "p")),
    "finite": (finite, ("pmf",)),
}


def make_count(law: str, **params: Any) -> Count:
    """The count ``law`` with ``params`` (names as in :data:`COUNT_LAWS`).

    >>> make_count("binomial", n=3, p=sp.Rational(1, 3)).mean
    1
    """
    if law not in COUNT_LAWS:
        raise InvalidParameter(f"unknown count law {law!r} (known: {', '.join(COUNT_LAWS)})")
    fn, names = COUNT_LAWS[law]
    unknown = [k for k in params if k not in names]
    if unknown:
        raise InvalidParameter(
            f"count law {law!r} takes no parameter {unknown[0]!r} (its parameters: "
            f"{', '.join(names)})"
        )
    missing = [k for k in names if k not in params]
    if missing:
        raise InvalidParameter(f"count law {law!r} needs the parameter {missing[0]!r}")
    return fn(**params)

"""The exact privacy curve of a finite mechanism: the least ε for a given δ.

For an ordered pair of output distributions ``P, Q`` the hockey-stick divergence

    ``δ(ε) = Σ_o max(0, P(o) - e^ε Q(o))``

(Dwork & Roth 2014, Definition 2.4 restated as in Balle et al. 2018, Theorem 1) is
continuous and decreasing in ε, and linear in ``e^ε`` between consecutive likelihood
ratios ``r_o = P(o)/Q(o)``: on ``e^ε ∈ [r_{k+1}, r_k]`` (ratios sorted decreasingly)
it equals ``m_∞ + P(S_k) - e^ε Q(S_k)`` with ``S_k`` the ``k`` outputs of largest
ratio and ``m_∞`` the mass ``P`` puts where ``Q`` is 0.  So the least ε with
``δ(ε) ≤ δ`` has the closed form

    ``ε(δ) = log((m_∞ + P(S_k) - δ) / Q(S_k))``

on the segment where ``δ(ε)`` crosses ``δ`` (``ε(δ) = 0`` if ``δ(0) ≤ δ``, ``∞`` if
``m_∞ > δ``); every comparison that picks the segment is decided exactly
(:func:`~verifier.arithmetic.decide_le`), never in floating point.  Accountants such
as ``dp_accounting`` answer the same question with an upper bound:
:mod:`verifier.interop.compare` puts the two side by side.

>>> import sympy as sp
>>> from verifier.instances import randomized_response
>>> epsilon_for_delta(randomized_response(sp.log(3)), sp.Rational(1, 8))[0]
log(5/2)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arithmetic import DEFAULT_PRECISION, Precision, Verdict, decide_le, exact, exact_max
from ..errors import InvalidParameter, Undecidable
from ..mechanism import Dataset, FiniteMechanism, Output

__all__ = ["epsilon_for_delta", "pair_epsilon_for_delta", "exact_float"]

Pair = tuple[Dataset, Dataset]


def exact_float(x: float) -> sp.Rational:
    """The exact value of a binary floating-point number (what an accountant returns):
    ``0.1`` becomes ``3602879701896397/36028797018963968``, never one tenth.

    >>> exact_float(0.5), exact_float(0.1) == sp.Rational(1, 10)
    (1/2, False)
    """
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise InvalidParameter(f"expected a float, got {type(x).__name__} {x!r}")
    f = Fraction(x)  # exact; raises on inf/nan
    return sp.Rational(f.numerator, f.denominator)


def _le(a: sp.Expr, b: sp.Expr, precision: Precision, what: str) -> bool:
    v = decide_le(a, b, precision).verdict
    if v is Verdict.UNDECIDED:
        raise Undecidable(f"could not decide {what} ({a} <= {b}) at the precision limit")
    return v is Verdict.HOLDS


def pair_epsilon_for_delta(
    P: Mapping[Output, Any],
    Q: Mapping[Output, Any],
    delta: Any,
    precision: Precision = DEFAULT_PRECISION,
) -> sp.Expr:
    """The least ``ε >= 0`` with ``Σ_o max(0, P(o) - e^ε Q(o)) <= δ``, exactly (``oo``
    when no ε will do).

    >>> R = sp.Rational
    >>> pair_epsilon_for_delta({0: R(3, 4), 1: R(1, 4)}, {0: R(1, 4), 1: R(3, 4)}, 0)
    log(3)
    """
    dl = exact(delta)
    if not (_le(0, dl, precision, "delta >= 0") and _le(dl, 1, precision, "delta <= 1")):
        raise InvalidParameter(f"delta must lie in [0, 1], got {dl}")
    m_inf = sp.Integer(0)
    finite: list[tuple[sp.Expr, sp.Expr]] = []
    for o, pv in P.items():
        p = exact(pv)
        if p == 0:
            continue
        q = exact(Q.get(o, 0))
        if q == 0:
            m_inf += p
        elif not _le(p, q, precision, f"the likelihood ratio at output {o!r}"):
            finite.append((p, q))  # ratio > 1: only these outputs can count for ε >= 0
    if not _le(m_inf, dl, precision, "the mass without a counterpart"):
        return sp.oo

    def by_ratio(a: tuple[sp.Expr, sp.Expr], b: tuple[sp.Expr, sp.Expr]) -> int:
        # decreasing P/Q, i.e. a before b iff P_a Q_b >= P_b Q_a
        return -1 if _le(b[0] * a[1], a[0] * b[1], precision, "two likelihood ratios") else 1

    finite.sort(key=functools.cmp_to_key(by_ratio))
    acc_p, acc_q = m_inf, sp.Integer(0)
    for k, (p, q) in enumerate(finite):
        acc_p, acc_q = acc_p + p, acc_q + q
        nxt = finite[k + 1][0] / finite[k + 1][1] if k + 1 < len(finite) else sp.Integer(1)
        if not _le(acc_p - nxt * acc_q, dl, precision, "the divergence at a breakpoint"):
            return sp.log((acc_p - dl) / acc_q)
    return sp.Integer(0)


def epsilon_for_delta(
    mech: FiniteMechanism,
    delta: Any,
    pairs: Iterable[Pair] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> tuple[sp.Expr, Pair]:
    """The least ε with ``mech`` (ε, δ)-DP over the ordered neighbouring pairs (or
    ``pairs``): the maximum of :func:`pair_epsilon_for_delta`, and a pair attaining it.
    """
    prs = list(mech.ordered_pairs()) if pairs is None else list(pairs)
    if not prs:
        raise InvalidParameter(f"{mech.name} has no neighbouring pair")
    vals = []
    for d, d2 in prs:
        P = {o: mech.p(d, o) for o in mech.outputs}
        Q = {o: mech.p(d2, o) for o in mech.outputs}
        vals.append(pair_epsilon_for_delta(P, Q, delta, precision))
    if any(v is sp.oo for v in vals):
        i = next(i for i, v in enumerate(vals) if v is sp.oo)
        return sp.oo, prs[i]
    i, certified = exact_max(vals, precision)
    if not certified:
        raise Undecidable(f"could not decide which pair of {mech.name} attains epsilon(delta)")
    return vals[i], prs[i]

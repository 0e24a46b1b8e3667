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
(:func:`~verifier.arithmetic.exact.decide_le`), never in floating point.  Accountants such
as ``dp_accounting`` answer the same question with an upper bound:
:mod:`verifier.interop.compare` puts the two side by side.

>>> import sympy as sp
>>> from verifier.mechanism.instances import randomized_response
>>> epsilon_for_delta(randomized_response(sp.log(3)), delta=sp.Rational(1, 8)).value
log(5/2)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Unpack

import sympy as sp

from ..accounting.pld import epsilon_of, worst_pair
from ..arithmetic.exact import DEFAULT_PRECISION, Precision
from ..checks.docstrings import fill_doc
from ..checks.privacy import Attained
from ..checks.vocabulary import QueryOptions, fill_options, privacy_parameters
from ..errors import InvalidParameter
from ..mechanism.model import Dataset, FiniteMechanism, Output

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
    return epsilon_of(((P[o], Q.get(o, 0)) for o in P), delta, precision)


@fill_doc
@privacy_parameters("delta", "pairs", "precision")
def epsilon_for_delta(
    mech: FiniteMechanism, *, delta: Any, **options: Unpack[QueryOptions]
) -> Attained:
    """The least ε with ``mech`` (ε, δ)-DP over the ordered neighbouring pairs (or
    ``pairs``): the maximum of :func:`pair_epsilon_for_delta`, and a pair attaining it.

    Parameters
    ----------
    mech : FiniteMechanism
        Without free symbols.
    delta : sympy.Expr, int, fractions.Fraction or str
        δ in ``[0, 1]`` (keyword-only).
    %(query_options)s

    Returns
    -------
    Attained
        The exact least ε (``oo`` when none will do) and a pair attaining it.

    Raises
    ------
    %(raises_mech)s
    verifier.errors.InvalidParameter
        The mechanism has no neighbouring pair, or ``delta`` is not in ``[0, 1]``.

    Examples
    --------
    Randomized response with ε = log 3: δ = 0 needs ε = log 3; δ = 1/8 needs
    ``3/4 - e^ε · 1/4 <= 1/8``, ``e^ε = 5/2``:

    >>> from verifier.mechanism.instances import randomized_response
    >>> rr = randomized_response("log(3)")
    >>> epsilon_for_delta(rr, delta=0).value, epsilon_for_delta(rr, delta=sp.Rational(1, 8)).value
    (log(3), log(5/2))
    """
    o = fill_options(QueryOptions, "epsilon_for_delta", options)
    precision = o["precision"]
    prs = list(mech.ordered_pairs()) if o["pairs"] is None else list(o["pairs"])
    if not prs:
        raise InvalidParameter(f"{mech.name} has no neighbouring pair")
    vals = []
    for d, d2 in prs:
        P = {o: mech.p(d, o) for o in mech.outputs}
        Q = {o: mech.p(d2, o) for o in mech.outputs}
        vals.append(pair_epsilon_for_delta(P, Q, delta, precision))
    return worst_pair(vals, prs, precision, f"epsilon(delta) of {mech.name}")

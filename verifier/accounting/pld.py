"""The exact privacy loss distribution of a finite mechanism, and composition on it.

For an ordered pair of output distributions ``P, Q`` (a mechanism on two neighbouring
datasets) the *privacy loss* of an output ``o`` is ``L(o) = log(P(o)/Q(o))``; its law
under ``P`` is the privacy loss distribution (PLD; Sommer, Meiser & Mohammadi 2019,
Definition 2; Koskela et al. 2020; the object dp_accounting discretises).  For a finite
mechanism it is finite, and this module keeps it **exactly**: a list of atoms
``(r, p, q)`` — the likelihood ratio ``r = e^L`` and the masses ``P`` and ``Q`` put on
the outputs with that ratio (``r = oo`` where ``Q`` is 0).  Outputs with equal ratios
merge into one atom.

* **Composition.**  The loss of independent runs adds (Dwork & Roth 2014, Theorem 3.16,
  in its PLD form: the PLD of a composition is the convolution of the PLDs, Sommer et
  al. 2019, Theorem 1), so atoms multiply: ``(r1 r2, p1 p2, q1 q2)``, equal products
  merged.  ``k`` runs of randomized response have ``k + 1`` atoms, not ``2^k`` outputs;
  :meth:`PrivacyLoss.power` composes ``k`` copies by repeated squaring.
* **δ(ε)** is the hockey-stick divergence ``Σ_atoms max(0, p - e^ε q)`` (Balle et al.
  2018, Theorem 1), exact; **ε(δ)** its least inverse, exact and in closed form on the
  segment where the piecewise-linear (in ``e^ε``) curve crosses δ (:func:`epsilon_of`).
* :class:`Accountant` composes mechanisms on one neighbour graph, every ordered pair at
  once (both datasets of a pair are fed to every mechanism, as composition theorems
  assume), and answers ``epsilon(delta=...)`` and ``delta(epsilon=...)`` as the maximum
  over the pairs, with a pair attaining it.

Every comparison that picks an atom or a segment is decided exactly
(:func:`~verifier.arithmetic.exact.decide_le`); an undecided one raises
:class:`~verifier.errors.Undecidable`, never guesses.  Merging equal ratios uses exact
structural equality of the simplified ratio: two equal ratios that sympy writes apart
stay two atoms (the distribution is the same, only longer).

>>> import sympy as sp
>>> from verifier.mechanism.instances import randomized_response
>>> rr = randomized_response(sp.log(3))                 # 3/4 against 1/4
>>> loss = PrivacyLoss.of(rr, "D", "D'")
>>> len(loss.power(10).atoms)                            # 11 atoms, not 2^10 outputs
11
>>> loss.power(2).delta(sp.log(3))                       # two runs: 9/16 - 3*1/16
3/8
>>> acc = Accountant().compose(rr, count=2)
>>> acc.epsilon(delta=sp.Rational(3, 8)).value
log(3)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arithmetic.exact import DEFAULT_PRECISION, Precision, Verdict, decide_le, exact, exact_max
from ..checks.certified import check_le
from ..checks.privacy import Attained, checked_pairs
from ..checks.results import CheckResult, conjunction
from ..errors import InvalidParameter, Undecidable
from ..mechanism.compose import same_neighbour_graph
from ..mechanism.model import Dataset, FiniteMechanism, Output

__all__ = [
    "LossAtom",
    "PrivacyLoss",
    "ProfileSegment",
    "Accountant",
    "epsilon_of",
    "worst_pair",
    "check_tradeoff",
    "MAX_ATOMS",
]

Pair = tuple[Dataset, Dataset]

#: The most atoms a composed loss distribution may hold (each is a pair of exact
#: numbers); composing past it raises with the count, as the product mechanism's output
#: limit does.
MAX_ATOMS = 200_000


def _le(a: sp.Expr, b: sp.Expr, precision: Precision, what: str) -> bool:
    return decide_le(a, b, precision).holds(
        lambda: Undecidable(f"could not decide {what} ({a} <= {b}) at the precision limit")
    )


def _sort_by_ratio(
    items: Iterable[Any],
    precision: Precision,
    *,
    descending: bool,
    masses: Callable[[Any], tuple[sp.Expr, sp.Expr]] = lambda x: x,
) -> list[Any]:
    """``items`` sorted by likelihood ratio ``p/q`` of their ``masses`` (``q = 0`` is the
    ratio ``oo``), each comparison exact: ``p_a/q_a <= p_b/q_b`` iff ``p_a q_b <= p_b
    q_a`` (cross-multiplied: no division, and ``q = 0`` needs no special case)."""

    def cmp(a: Any, b: Any) -> int:
        (pa, qa), (pb, qb) = masses(a), masses(b)
        return -1 if _le(pa * qb, pb * qa, precision, "two likelihood ratios") else 1

    out = sorted(items, key=functools.cmp_to_key(cmp))
    return out[::-1] if descending else out


def worst_pair(
    values: list[sp.Expr], pairs: list[Pair], precision: Precision, what: str
) -> Attained:
    """The largest of ``values`` (one per ordered pair; ``oo`` wins at once) and the
    pair attaining it; :class:`~verifier.errors.Undecidable` when the maximum cannot be
    certified."""
    for v, pr in zip(values, pairs, strict=True):
        if v is sp.oo:
            return Attained(v, pr)
    i, certified = exact_max(values, precision)
    if not certified:
        raise Undecidable(f"could not decide which pair attains {what}")
    return Attained(values[i], pairs[i])


@dataclass(frozen=True)
class LossAtom:
    """The outputs of one likelihood ratio: ``ratio = p/q`` (``oo`` when ``q = 0``),
    ``p`` and ``q`` the masses the two distributions put on them."""

    ratio: sp.Expr
    p: sp.Expr
    q: sp.Expr

    @property
    def loss(self) -> sp.Expr:
        """The privacy loss ``log(ratio)`` of these outputs."""
        return sp.oo if self.ratio is sp.oo else sp.log(self.ratio)


def _ratio(p: sp.Expr, q: sp.Expr) -> sp.Expr:
    if q == 0:
        return sp.oo
    if p == 0:
        return sp.Integer(0)
    return sp.powsimp(sp.cancel(p / q), combine="exp")


def _integers(
    atoms: Iterable[LossAtom],
) -> tuple[int, int, list[tuple[Fraction | None, int, int]]] | None:
    """When every mass is rational: common denominators ``Dp, Dq`` and per atom its
    ratio (``None`` for ``oo``) with the integer numerators ``p Dp, q Dq`` — composition
    then multiplies integers and ratios only (no gcd per product); ``None`` otherwise."""
    atoms = list(atoms)
    if not all(a.p.is_Rational and a.q.is_Rational for a in atoms):
        return None
    dp = math.lcm(*(int(a.p.q) for a in atoms)) if atoms else 1
    dq = math.lcm(*(int(a.q.q) for a in atoms)) if atoms else 1
    out: list[tuple[Fraction | None, int, int]] = []
    for a in atoms:
        key = None if a.ratio is sp.oo else Fraction(int(a.ratio.p), int(a.ratio.q))
        out.append((key, int(a.p.p) * (dp // int(a.p.q)), int(a.q.p) * (dq // int(a.q.q))))
    return dp, dq, out


def _check_size(n: int) -> None:
    if n > MAX_ATOMS:
        raise InvalidParameter(
            f"the composed privacy loss distribution has {n} atoms, more than "
            f"{MAX_ATOMS} (verifier.accounting.pld.MAX_ATOMS)"
        )


def _merge(items: Iterable[tuple[sp.Expr, sp.Expr, sp.Expr]]) -> tuple[LossAtom, ...]:
    acc: dict[sp.Expr, list[sp.Expr]] = {}
    for r, p, q in items:
        if p == 0 and q == 0:
            continue
        slot = acc.get(r)
        if slot is None:
            acc[r] = [p, q]
        else:
            slot[0] += p
            slot[1] += q
    _check_size(len(acc))
    return tuple(LossAtom(r, p, q) for r, (p, q) in acc.items())


@dataclass(frozen=True)
class ProfileSegment:
    """One piece of a privacy profile: ``δ(ε) = a - e^ε b`` for ``ε`` in
    ``[eps_lo, eps_hi]``."""

    eps_lo: sp.Expr
    eps_hi: sp.Expr
    a: sp.Expr
    b: sp.Expr

    def at(self, eps: Any) -> sp.Expr:
        return self.a - sp.exp(exact(eps)) * self.b


@dataclass(frozen=True)
class PrivacyLoss:
    """The exact privacy loss distribution of an ordered pair ``(P, Q)``: its atoms
    (the outputs ``P`` never gives are one atom of ratio 0: they count in no δ(ε), but
    the trade-off curve needs their ``Q``-mass).

    Build it with :meth:`of` (a mechanism and an ordered pair) or
    :meth:`of_distributions`; :meth:`compose` and :meth:`power` compose it exactly,
    :meth:`delta` and :meth:`epsilon` answer for it.

    Parameters
    ----------
    atoms : tuple of LossAtom
        ``(ratio P(o)/Q(o), P-mass, Q-mass)`` per distinct ratio.
    precision : Precision
        Working precision of the certified comparisons.

    Attributes
    ----------
    atoms : tuple of LossAtom
    precision : Precision

    Examples
    --------
    Randomized response with ε = log 3 from ``D`` to ``D'`` has two atoms, ratio 3
    (mass 3/4 under ``D``) and 1/3 (mass 1/4): δ(0) = 3/4 - 1/4 = 1/2, and δ = 1/8
    needs ``3/4 - e^ε/4 = 1/8``, ``ε = log(5/2)``.  Two runs: δ(0) = 9/16 - 1/16 = 1/2.

    >>> from verifier.mechanism.instances import randomized_response
    >>> loss = PrivacyLoss.of(randomized_response("log(3)"), "D", "D'")
    >>> [(a.ratio, a.p, a.q) for a in loss.atoms]
    [(1/3, 1/4, 3/4), (3, 3/4, 1/4)]
    >>> loss.delta(0), loss.epsilon(sp.Rational(1, 8)), loss.power(2).delta(0)
    (1/2, log(5/2), 1/2)
    """

    atoms: tuple[LossAtom, ...]
    precision: Precision = DEFAULT_PRECISION

    @classmethod
    def of_distributions(
        cls,
        P: Mapping[Output, Any],
        Q: Mapping[Output, Any],
        precision: Precision = DEFAULT_PRECISION,
    ) -> PrivacyLoss:
        """The loss distribution of ``P`` against ``Q`` (outputs missing from ``Q`` have
        ``Q``-mass 0)."""
        items = []
        for o, pv in P.items():
            p = exact(pv)
            q = exact(Q.get(o, 0))
            items.append((_ratio(p, q), p, q))
        return cls(_merge(items), precision)

    @classmethod
    def of(
        cls,
        mech: FiniteMechanism,
        d: Dataset,
        d2: Dataset,
        precision: Precision = DEFAULT_PRECISION,
    ) -> PrivacyLoss:
        """The loss distribution of ``mech`` on the ordered pair ``(d, d2)``."""
        P = {o: mech.p(d, o) for o in mech.outputs}
        Q = {o: mech.p(d2, o) for o in mech.outputs}
        return cls.of_distributions(P, Q, precision)

    def compose(self, other: PrivacyLoss) -> PrivacyLoss:
        """The loss distribution of the two runs with independent coins (losses add,
        ratios and masses multiply; equal ratios merge).  Rational masses are
        multiplied as integers over common denominators (exact, and far faster)."""
        fa, fb = _integers(self.atoms), _integers(other.atoms)
        if fa is not None and fb is not None:
            (dp1, dq1, atoms1), (dp2, dq2, atoms2) = fa, fb
            acc: dict[Fraction | None, list[int]] = {}
            for k1, a1, b1 in atoms1:
                for k2, a2, b2 in atoms2:
                    key = None if k1 is None or k2 is None else k1 * k2
                    slot = acc.get(key)
                    if slot is None:
                        acc[key] = [a1 * a2, b1 * b2]
                    else:
                        slot[0] += a1 * a2
                        slot[1] += b1 * b2
            _check_size(len(acc))
            dp, dq = dp1 * dp2, dq1 * dq2
            atoms = tuple(
                LossAtom(
                    sp.oo if r is None else sp.Rational(r.numerator, r.denominator),
                    sp.Rational(a, dp),
                    sp.Rational(b, dq),
                )
                for r, (a, b) in acc.items()
            )
            return PrivacyLoss(atoms, self.precision)
        items = [
            (_ratio(a.p * b.p, a.q * b.q), a.p * b.p, a.q * b.q)
            for a in self.atoms
            for b in other.atoms
        ]
        return PrivacyLoss(_merge(items), self.precision)

    def power(self, k: int) -> PrivacyLoss:
        """``k`` independent runs (``k >= 1``), by repeated squaring."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InvalidParameter(f"the number of runs must be an integer >= 1, got {k!r}")
        result: PrivacyLoss | None = None
        base = self
        while k:
            if k & 1:
                result = base if result is None else result.compose(base)
            k >>= 1
            if k:
                base = base.compose(base)
        assert result is not None
        return result

    def delta(self, epsilon: Any) -> sp.Expr:
        """``δ(ε) = Σ max(0, p - e^ε q)`` over the atoms, exact (Balle et al. 2018,
        Theorem 1: the least δ with the pair (ε, δ)-indistinguishable one way)."""
        e = exact(epsilon)
        if e is sp.oo:
            return sum((a.p for a in self.atoms if a.ratio is sp.oo), sp.Integer(0))
        w = sp.exp(e)
        total = sp.Integer(0)
        for a in self.atoms:
            if a.ratio is sp.oo:
                total += a.p
            elif not _le(a.ratio, w, self.precision, "a likelihood ratio against e^eps"):
                total += a.p - w * a.q
        return total

    def epsilon(self, delta: Any) -> sp.Expr:
        """The least ``ε >= 0`` with ``δ(ε) <= delta`` (``oo`` when none), exact
        (:func:`epsilon_of`)."""
        return epsilon_of([(a.p, a.q) for a in self.atoms], delta, self.precision)

    def _sorted(self, descending: bool) -> list[LossAtom]:
        """The atoms by likelihood ratio (``oo`` the largest), each comparison exact."""
        return _sort_by_ratio(
            self.atoms, self.precision, descending=descending, masses=lambda a: (a.p, a.q)
        )

    def profile(self) -> list[ProfileSegment]:
        """The privacy profile ``δ(ε)`` for every ``ε >= 0`` as exact pieces, from
        ``ε = 0`` up: on ``[eps_lo, eps_hi]`` it is ``a - e^ε b`` (the ratios above
        ``e^ε`` count; Balle et al. 2018, Theorem 1).  The last piece ends at ``oo``
        with ``b = 0`` and ``a`` the mass ``P`` puts where ``Q`` is 0."""
        above = [
            a
            for a in self._sorted(descending=True)
            if a.ratio is sp.oo
            or not _le(a.ratio, 1, self.precision, "a likelihood ratio against 1")
        ]
        m_inf = sp.Add(*(a.p for a in above if a.ratio is sp.oo))
        finite = [a for a in above if a.ratio is not sp.oo]
        # breakpoints e^eps = r_k, decreasing; pieces between consecutive ones
        pieces: list[ProfileSegment] = []
        acc_p, acc_q = m_inf, sp.Integer(0)
        cuts = [sp.oo] + [a.ratio for a in finite] + [sp.Integer(1)]
        sums = [(acc_p, acc_q)]
        for a in finite:
            acc_p, acc_q = acc_p + a.p, acc_q + a.q
            sums.append((acc_p, acc_q))
        for k in range(len(cuts) - 1):
            hi, lo = cuts[k], cuts[k + 1]
            if hi is not sp.oo and hi == lo:
                continue
            a, b = sums[k]
            pieces.append(ProfileSegment(sp.log(lo), sp.oo if hi is sp.oo else sp.log(hi), a, b))
        return pieces[::-1]

    def tradeoff(self) -> list[tuple[sp.Expr, sp.Expr]]:
        """The vertices ``(α, β)`` of the trade-off curve ``T(P, Q)`` (Dong, Roth & Su
        2022, Definition 2.1: the least type II error ``β`` of a test of ``P`` against
        ``Q`` with type I error at most ``α``), exact.  Neyman-Pearson: the optimal
        tests reject the outputs of smallest ratio ``P/Q`` first, so the curve is the
        piecewise-linear convex function through these vertices, from ``(0, 1)`` to
        ``(1, 0)``."""
        alpha, beta = sp.Integer(0), sp.Integer(1)
        out = [(alpha, beta)]
        for a in self._sorted(descending=False):
            alpha, beta = alpha + a.p, beta - a.q
            if (alpha, beta) != out[-1]:
                out.append((alpha, beta))
        return out

    @property
    def masses(self) -> tuple[sp.Expr, sp.Expr]:
        """The total ``P`` and ``Q`` masses of the atoms (``P``'s is 1)."""
        return (
            sp.Add(*(a.p for a in self.atoms)),
            sp.Add(*(a.q for a in self.atoms)),
        )


def epsilon_of(
    masses: Iterable[tuple[Any, Any]], delta: Any, precision: Precision = DEFAULT_PRECISION
) -> sp.Expr:
    """The least ``ε >= 0`` with ``Σ max(0, p - e^ε q) <= δ`` over the ``(p, q)`` mass
    pairs (the outputs, or the atoms of a loss distribution), exactly; ``oo`` when no ε
    will do.

    ``δ(ε)`` is continuous and decreasing, and linear in ``e^ε`` between consecutive
    likelihood ratios ``r = p/q``: on ``e^ε ∈ [r_{k+1}, r_k]`` (ratios sorted
    decreasingly) it is ``m_∞ + P(S_k) - e^ε Q(S_k)``, with ``S_k`` the ``k`` largest
    ratios and ``m_∞`` the ``P``-mass where ``q = 0``.  So on the segment where it
    crosses δ, ``ε(δ) = log((m_∞ + P(S_k) - δ)/Q(S_k))``; ``0`` if ``δ(0) <= δ``.

    >>> R = sp.Rational
    >>> epsilon_of([(R(3, 4), R(1, 4)), (R(1, 4), R(3, 4))], 0)
    log(3)
    """
    dl = exact(delta)
    if not (_le(0, dl, precision, "delta >= 0") and _le(dl, 1, precision, "delta <= 1")):
        raise InvalidParameter(f"delta must lie in [0, 1], got {dl}")
    m_inf = sp.Integer(0)
    finite: list[tuple[sp.Expr, sp.Expr]] = []
    for pv, qv in masses:
        p, q = exact(pv), exact(qv)
        if p == 0:
            continue
        if q == 0:
            m_inf += p
        elif not _le(p, q, precision, "a likelihood ratio against 1"):
            finite.append((p, q))  # ratio > 1: only these can count for ε >= 0
    if not _le(m_inf, dl, precision, "the mass without a counterpart"):
        return sp.oo

    finite = _sort_by_ratio(finite, precision, descending=True)
    acc_p, acc_q = m_inf, sp.Integer(0)
    for k, (p, q) in enumerate(finite):
        acc_p, acc_q = acc_p + p, acc_q + q
        nxt = finite[k + 1][0] / finite[k + 1][1] if k + 1 < len(finite) else sp.Integer(1)
        if not _le(acc_p - nxt * acc_q, dl, precision, "the divergence at a breakpoint"):
            return sp.log((acc_p - dl) / acc_q)
    return sp.Integer(0)


class Accountant:
    """Exact composition of finite mechanisms on one neighbour graph.

    ``compose(mech, count)`` adds ``count`` independent runs of ``mech``; ``epsilon(delta=)``
    and ``delta(epsilon=)`` answer for the composition so far, over every ordered
    neighbouring pair (the largest, with a pair attaining it).  Non-adaptive
    composition: the mechanisms are fixed in advance (for pure and approximate DP the
    same bounds hold adaptively only through the composition theorems, which this
    object does not apply).

    Parameters
    ----------
    precision : Precision
        Working precision of the certified comparisons.

    Attributes
    ----------
    precision : Precision
    runs : int
        The number of runs composed so far.

    Raises
    ------
    verifier.errors.InvalidParameter
        (From :meth:`compose`) not a :class:`FiniteMechanism` or a count < 1; (from
        :meth:`delta`, :meth:`epsilon`) nothing composed yet.
    verifier.errors.InvalidMechanism
        (From :meth:`compose`) a mechanism on another neighbour graph.

    Examples
    --------
    Three runs of randomized response with ε = log 3: ``k`` ones have probability
    ``C(3,k) 3^k/64`` at ``D`` and ``C(3,k) 3^(3-k)/64`` at ``D'``, so ε(δ=0) is
    ``log 27`` and δ(log 3) = ``(27 - 3 · 1)/64 = 3/8`` (only ``k = 3`` exceeds).

    >>> import sympy as sp
    >>> from verifier.mechanism.instances import randomized_response
    >>> acc = Accountant().compose(randomized_response(sp.log(3)), count=3)
    >>> acc.delta(epsilon=0).value   # total variation: (27 - 1)/64 + (27 - 9)/64
    11/16
    >>> acc.epsilon(delta=0).value, acc.delta(epsilon=sp.log(3)).value, acc.runs
    (log(27), 3/8, 3)
    """

    def __init__(self, precision: Precision = DEFAULT_PRECISION):
        self.precision = precision
        self._graph_of: FiniteMechanism | None = None
        self._losses: dict[Pair, PrivacyLoss] = {}
        self.runs = 0

    def compose(self, mech: FiniteMechanism, count: int = 1) -> Accountant:
        """Add ``count`` independent runs of ``mech`` (returns ``self``)."""
        if not isinstance(mech, FiniteMechanism):
            raise InvalidParameter(
                f"Accountant.compose takes a verifier FiniteMechanism, got "
                f"{type(mech).__name__} (convert dp_accounting events or OpenDP "
                f"measurements with verifier.interop first)"
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidParameter(f"count must be an integer >= 1, got {count!r}")
        if self._graph_of is None:
            self._graph_of = mech
        else:
            same_neighbour_graph([self._graph_of, mech])
        pairs = list(mech.ordered_pairs())
        if not pairs:
            raise InvalidParameter(f"{mech.name} has no neighbouring pair")
        for d, d2 in pairs:
            loss = PrivacyLoss.of(mech, d, d2, self.precision).power(count)
            prev = self._losses.get((d, d2))
            self._losses[(d, d2)] = loss if prev is None else prev.compose(loss)
        self.runs += count
        return self

    def loss(self, d: Dataset, d2: Dataset) -> PrivacyLoss:
        """The composed loss distribution of the ordered pair ``(d, d2)``."""
        try:
            return self._losses[(d, d2)]
        except KeyError:
            raise InvalidParameter(f"({d!r}, {d2!r}) is not an ordered neighbouring pair") from None

    def _require(self) -> None:
        if not self._losses:
            raise InvalidParameter("nothing composed yet: call compose(mechanism, count) first")

    def delta(self, *, epsilon: Any) -> Attained:
        """The least δ with the composition (ε, δ)-DP, and a pair attaining it."""
        self._require()
        pairs = list(self._losses)
        vals = [self._losses[p].delta(epsilon) for p in pairs]
        return worst_pair(vals, pairs, self.precision, "delta(epsilon)")

    def epsilon(self, *, delta: Any) -> Attained:
        """The least ε with the composition (ε, δ)-DP, and a pair attaining it."""
        self._require()
        pairs = list(self._losses)
        vals = [self._losses[p].epsilon(delta) for p in pairs]
        return worst_pair(vals, pairs, self.precision, "epsilon(delta)")


def check_tradeoff(
    mech: FiniteMechanism,
    f: Any,
    variable: sp.Symbol,
    precision: Precision = DEFAULT_PRECISION,
    *,
    pairs: Iterable[Pair] | None = None,
) -> CheckResult:
    """Is ``mech`` ``f``-DP (Dong, Roth & Su 2022, Definition 2.3): ``T(M(D), M(D')) >=
    f`` on ``[0, 1]`` for every ordered neighbouring pair?  ``f`` is an expression in
    ``variable`` (the type I error α of the trade-off curve); it must be convex on ``[0,
    1]`` (every trade-off function is, Dong et al., Proposition 2.2), which is decided
    first (``f'' >= 0`` for every α in
    ``[0, 1]``, :func:`~verifier.checks.certified.check_le` over the range) and a non-convex
    ``f`` is refused.  Then, on each linear piece of the finite mechanism's trade-off
    curve, ``T - f`` is concave, so its minimum is at the piece's ends: the curve's
    vertices decide the claim exactly.

    >>> import sympy as sp
    >>> from verifier.mechanism.instances import randomized_response
    >>> a = sp.Symbol("alpha")
    >>> rr = randomized_response(sp.log(3))
    >>> # the curve's vertices: (0, 1), (1/4, 1/4), (1, 0); (1 - a)/3 touches (1/4, 1/4)
    >>> check_tradeoff(rr, (1 - a) / 3, a).verdict.value
    'holds'
    >>> check_tradeoff(rr, (1 - a) / 2, a).verdict.value
    'violated'
    """
    if not isinstance(mech, FiniteMechanism):
        raise InvalidParameter(f"check_tradeoff takes a FiniteMechanism, got {type(mech).__name__}")
    fx = exact(f)
    free = fx.free_symbols - {variable}
    if free:
        raise InvalidParameter(f"f may depend on {variable} only, not on {sorted(map(str, free))}")
    convex = check_le(0, sp.diff(fx, variable, 2), "f'' >= 0 on [0, 1]", over=(variable, 0, 1))
    if convex.verdict is Verdict.VIOLATED:
        raise InvalidParameter(f"f = {fx} is not convex on [0, 1], so it is no trade-off function")
    if convex.verdict is Verdict.UNDECIDED:
        raise Undecidable(f"could not decide that f = {fx} is convex on [0, 1]")
    parts = []
    for d, d2 in checked_pairs(mech, pairs):
        loss = PrivacyLoss.of(mech, d, d2, precision)
        for x, y in loss.tradeoff():
            parts.append(
                check_le(
                    fx.subs(variable, x),
                    y,
                    f"f({x}) <= T({x}) = {y}",
                    pair=(d, d2),
                    precision=precision,
                )
            )
    return conjunction(f"{mech.name} is f-DP, f = {fx}", parts, [convex.title])

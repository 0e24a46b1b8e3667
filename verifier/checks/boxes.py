"""Decide an inequality for *every* point of a box of parameters.

The question answered here is: does ``lhs(x) <= rhs(x)`` hold for every ``x`` in a box
``[lo_1, hi_1] × ... × [lo_n, hi_n]`` of real parameters (budgets ``ε_i``, ``ε'``, a
prior's ``γ``, a Rényi order ``α``)?  Typical inputs are the output probabilities of a
mechanism built symbolically in its parameters and the constraint
``P_D(o) <= e^{ε̃(o)} P_D'(o)`` of ex-post differential privacy.  With premises
(``where=``, below) the question is asked on the part of the box where they hold.

Certified branch and bound on ``f = rhs - lhs``:

1. **Identically equal.**  When ``f`` vanishes identically (exact test: every
   ``exp`` of a rational linear form in the parameters becomes a monomial in new
   variables and the numerator of the resulting rational function expands to 0), the
   inequality holds with equality on the whole box: the bound is attained everywhere.
2. **Enclosure.**  Over a sub-box, ``f`` is enclosed in interval arithmetic (outward
   rounding) together with its gradient (forward differentiation; for ``Max``,
   ``Min`` and ``Abs`` the hull of the one-sided derivatives, a valid enclosure of
   Clarke's generalized gradient), and the natural enclosure is intersected with the
   mean-value form ``f(c) + Σ_i ∂_i f(X) (X_i - c_i)``.  A lower end ``>= 0`` proves
   the inequality on the sub-box; an upper end ``< 0`` proves that it fails on the
   whole sub-box (a rational point inside is confirmed exactly: the certificate).
3. **Monotonicity.**  Where the enclosure straddles 0 but a partial derivative has a
   certified sign, the minimum of ``f`` over the sub-box lies on one face
   (``x_i = lo_i`` when ``∂_i f >= 0``): the sub-box holds if and only if that face
   does, so the face is decided instead (one dimension fewer).  A sub-box reduced to
   a point is decided *exactly* (:func:`verifier.arithmetic.exact.decide_le`), which proves
   an attained bound (zero slack) at a vertex; a face on which ``f`` keeps straddling
   0 gets the exact identically-zero test of step 1, restricted to the face.
4. **Bisection** otherwise, along the coordinate that contributes most to the width
   of the mean-value form, at a simple rational point near the middle.

Nothing is sampled: the verdict is ``HOLDS`` (every sub-box proved),
``VIOLATED`` (some sub-box proved to fail, with an exact rational witness), or
``UNDECIDED`` with the sub-boxes left undecided when the budget (depth, number of
sub-boxes, seconds) ran out and their share of the box's volume.  Once the violation
is proved the search goes on for ``BoxBudget.after_violation`` sub-boxes, to measure
the failing share, and stops: the failing share is a lower bound, and what was not
looked at is reported undecided.

**The exact route** (before step 2).  When every parameter occurs either only in
exponents of ``exp`` (rational linear forms) or only outside them, ``rhs - lhs`` is a
rational function ``N/D`` of ``t_i = e^{s_i/L_i}`` (or ``t_i = s_i``), written in
``u_i = t_i - r_i >= 0`` (``r_i`` a rational lower bound of ``t_i`` on the box); when
every coefficient of ``N`` and ``D`` is ``>= 0`` the inequality holds on the whole
box.  The rewrite is *structural*: it accepts only sums, products and integer powers
of the generators and constants, so ``abs``, ``min``, ``max``, ``floor``, ``sqrt``
of a parameter (anything but a rational function) sends the decision to steps 2–4,
and it is used only after both sides are certified *defined* on the whole box (no
denominator vanishes, no logarithm of a number ``<= 0``: their interval programs are
evaluated on the box, bisected a few times).

**Constructs.**  Every function of :mod:`verifier.arithmetic.expressions` is enclosed soundly:
``exp``, ``log`` (of an argument certified ``> 0``), ``sqrt`` (argument ``>= 0``;
no derivative where it reaches 0), powers (integer powers of any interval, negative
ones of an interval certified not to contain 0, other powers of a positive base),
``min``, ``max``, ``abs`` (Clarke hull of the derivatives: the mean-value form and
the monotonicity argument hold for Lipschitz functions), ``floor`` and ``ceil``
(piecewise constant: derivative 0 on a sub-box without a jump, *no* derivative —
so no mean-value form and no monotonicity — on one with a jump), ``binomial(n, k)``
with a constant integer ``k`` (the polynomial ``n(n-1)...(n-k+1)/k!``; a
non-constant ``k`` is refused), ``pi`` and ``e``.  A sub-box on which either side is
not defined (a denominator that may vanish, a logarithm of a number that may be
``<= 0``) is never decided by an enclosure: it is bisected, and a point at which a
side is undefined (a pole) is left undecided and named in the note.

**Premises** (``where=``): ``g_k >= 0`` (an expression) or a sympy relational
(``Le``, ``Lt``, ``Ge``, ``Gt``, e.g. ``x + y <= 2``) restricting the box to the
region where every premise holds.  A sub-box certified outside some premise is
discharged; one certified inside all of them is decided as above; one that
straddles a premise is proved to hold if ``f >= 0`` on all of it and is bisected
otherwise (no monotonicity there); a point is placed by deciding the premises
exactly.  A violation's witness satisfies every premise exactly.  The decision
reports the shares of the box outside the region, decided and undecided; a box whose
region is empty is reported as *vacuous* (``vacuous``), never as a plain ``holds``.

**Limits.**  A box has at most ``max_parameters`` parameters (:class:`BoxBudget`,
default 8): the exact rewrite expands products of one factor per parameter, so its
cost grows exponentially with their number.  At most ``max_stored`` sub-boxes of each
kind (failing, undecided, outside) are kept; the others are counted, with their
exact share of the volume.

**Pieces.**  A decision that is still open after ``serial_boxes`` sub-boxes
(:class:`BoxBudget`) is split: the box is bisected ``split_levels`` times (the free
parameters in turn, each interval at the point step 4 would choose) into
``2**split_levels`` pieces, and each piece is settled by steps 2–4 as an independent
task with an equal share of the sub-boxes left (the first pass is discarded; its
sub-boxes count in ``boxes``); in rounds, the pieces that ran out of sub-boxes are
settled again from their start with equal shares of what is left, until the budget
is spent.  The tasks run here or, inside :func:`sub_boxes_on`,
on a :class:`verifier.runtime.executors.Runner` — local worker processes or a dask cluster —
a bounded window at a time (:func:`verifier.runtime.executors.ordered_map`), their findings
merged in piece order as they stream back.  A piece is a pure function of its
arguments, so the verdict, the failing and undecided sub-boxes and the witness are
the same with any runner and any number of workers (only a time budget that runs out
depends on the clock).

Enclosures use mpmath's interval primitives (``mpmath.libmp.libmpi``) at an explicit
working precision passed to every call: no context and no process-global precision is
read or set.  (``benchmarks/bench_boxes.py`` compares them with ball arithmetic.)

Examples
--------
>>> import sympy as sp
>>> a, b = sp.symbols("a b", positive=True)
>>> d = decide_on_box(a * b, a + b, {a: (2, 3), b: (2, 3)})   # ab <= a + b only at (2, 2)
>>> d.verdict, d.witness
(<Verdict.VIOLATED: 'violated'>, {a: 3, b: 2})
>>> d = decide_on_box(sp.exp(a) * sp.exp(b), sp.exp(a + b), {a: (1, 2), b: (1, 2)})
>>> d.verdict, d.identically_equal
(<Verdict.HOLDS: 'holds'>, True)
>>> x, y = sp.symbols("x y", nonnegative=True)
>>> d = decide_on_box(x**2 + y**2, 2 * x * y + 1, {x: (0, 1), y: (0, 1)})
>>> d.verdict, d.tight, d.undecided_fraction   # equality at (0, 1) and (1, 0)
(<Verdict.HOLDS: 'holds'>, True, Fraction(0, 1))

A parameter declared positive cannot range down to 0, and ``abs`` is not ``x`` on a
box reaching negative values:

>>> decide_on_box(a, 1, {a: (0, 1), b: (1, 2)})
Traceback (most recent call last):
...
verifier.errors.InvalidParameter: box parameter a is declared positive, but its range [0, 1] reaches 0
>>> s, t = sp.symbols("s t", real=True)
>>> d = decide_on_box(sp.Abs(s), s + t, {s: (-1, 1), t: (sp.Rational(1, 100), 1)})
>>> d.verdict, d.witness
(<Verdict.VIOLATED: 'violated'>, {s: -1, t: 1})

Premises: ``xy <= 2`` where ``x + y <= 2`` (there ``xy <= 1``), ``xy <= 1/2`` fails
there, and a region that misses the box is reported as vacuous:

>>> d = decide_on_box(x * y, 2, {x: (0, 2), y: (0, 2)}, where=[x + y <= 2])
>>> d.verdict, d.vacuous, d.undecided_fraction, d.outside_fraction + d.decided_fraction
(<Verdict.HOLDS: 'holds'>, False, Fraction(0, 1), Fraction(1, 1))
>>> d = decide_on_box(x * y, sp.Rational(1, 2), {x: (0, 2), y: (0, 2)}, where=[x + y <= 2])
>>> d.verdict, sum(d.witness.values()) <= 2, d.witness[x] * d.witness[y] > sp.Rational(1, 2)
(<Verdict.VIOLATED: 'violated'>, True, True)
>>> d = decide_on_box(x, 0, {x: (0, 1), y: (0, 1)}, where=[x > 2])
>>> d.verdict, d.vacuous, d.outside_fraction
(<Verdict.HOLDS: 'holds'>, True, Fraction(1, 1))
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import copy
import dataclasses
import functools
import itertools
import math
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp
from mpmath.libmp import (
    finf,
    fninf,
    from_int,
    from_rational,
    fzero,
    libmpi,
    mpf_ceil,
    mpf_cmp,
    mpf_floor,
    mpf_neg,
    round_ceiling,
    round_floor,
    to_float,
)

from ..arithmetic.exact import (
    Verdict,
    _NeedMorePrecision,
    _to_iv,
    decide_le,
    exact,
)
from ..arithmetic.precision import interval_context
from ..errors import InvalidParameter, UnsupportedExpression, VerifierError
from ..runtime.executors import Runner, ordered_map, portable_dumps, portable_loads
from ..runtime.terminal import task

__all__ = [
    "Box",
    "BoxBudget",
    "BoxDecision",
    "DEFAULT_BUDGET",
    "SubBox",
    "box_budget",
    "check_range_assumptions",
    "current_box_budget",
    "decide_all_on_box",
    "decide_on_box",
    "identically_zero",
    "region_fractions",
    "sub_boxes_on",
]


# ---------------------------------------------------------------------------
# boxes
# ---------------------------------------------------------------------------


def _fraction(x: Any, what: str) -> Fraction:
    try:
        e = exact(x)
    except InvalidParameter as err:
        raise InvalidParameter(f"{what}: {err}") from None
    if not e.is_Rational:
        raise InvalidParameter(
            f"{what} = {e} must be a rational number (box ends are exact rationals)"
        )
    return Fraction(int(e.p), int(e.q))


def _rat(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def check_range_assumptions(sym: sp.Symbol, lo: Fraction, hi: Fraction, what: str) -> None:
    """Refuse a range ``[lo, hi]`` that leaves what ``sym`` is declared to be
    (``positive``, ``nonnegative``, ``negative``, ``nonpositive``, ``nonzero``,
    ``integer``, real): an expression built with the assumption may have been
    simplified with it (``Abs(x)`` is ``x`` for a positive ``x``), so deciding it
    outside would decide another function.  An integer parameter must be fixed
    (``lo == hi``): a box decides every real point of its ranges.

    >>> check_range_assumptions(sp.Symbol("n", integer=True), Fraction(1), Fraction(3), "box parameter n")
    Traceback (most recent call last):
    ...
    verifier.errors.InvalidParameter: box parameter n is declared integer: a box decides every real point of its ranges, so an integer parameter must be fixed (lo = hi); decide each integer value on its own
    """
    span = f"[{_rat(lo)}, {_rat(hi)}]"
    if sym.is_real is False or sym.is_extended_real is False:
        raise InvalidParameter(f"{what} is declared non-real; box parameters are real")
    if sym.is_positive and lo <= 0:
        raise InvalidParameter(
            f"{what} is declared positive, but its range {span} reaches {_rat(lo)}"
        )
    if sym.is_nonnegative and lo < 0:
        raise InvalidParameter(
            f"{what} is declared nonnegative, but its range {span} reaches {_rat(lo)}"
        )
    if sym.is_negative and hi >= 0:
        raise InvalidParameter(
            f"{what} is declared negative, but its range {span} reaches {_rat(hi)}"
        )
    if sym.is_nonpositive and hi > 0:
        raise InvalidParameter(
            f"{what} is declared nonpositive, but its range {span} reaches {_rat(hi)}"
        )
    if sym.is_zero is False and not (sym.is_positive or sym.is_negative) and lo <= 0 <= hi:
        raise InvalidParameter(f"{what} is declared nonzero, but its range {span} contains 0")
    if sym.is_integer:
        if lo.denominator != 1 or hi.denominator != 1:
            raise InvalidParameter(
                f"{what} is declared integer, but its range {span} has non-integer ends"
            )
        if lo != hi:
            raise InvalidParameter(
                f"{what} is declared integer: a box decides every real point of its ranges, "
                f"so an integer parameter must be fixed (lo = hi); decide each integer value "
                f"on its own"
            )


@dataclass(frozen=True)
class Box:
    """A box of parameters: each symbol ranges over a closed interval with rational ends.

    Build it with :meth:`of` from a mapping ``symbol -> (lo, hi)`` (symbols or their
    names; ends ints, Fractions, sympy Rationals or their text).  A parameter with
    ``lo == hi`` is fixed; the volume is taken over the other ones.  A symbol's ends
    must respect its assumptions (:func:`check_range_assumptions`: a ``positive``
    symbol needs ``lo > 0``).

    >>> Box.of({"eps": (sp.Rational(1, 100), 3), "gamma": ("1/10", "9/10")}).as_dict()
    {'eps': ['1/100', '3'], 'gamma': ['1/10', '9/10']}
    """

    symbols: tuple[sp.Symbol, ...]
    lows: tuple[Fraction, ...]
    highs: tuple[Fraction, ...]

    @classmethod
    def of(cls, domain: Box | Mapping[Any, Any]) -> Box:
        if isinstance(domain, Box):
            return domain
        if not isinstance(domain, Mapping) or not domain:
            raise InvalidParameter(
                "a box is a non-empty mapping parameter -> (lo, hi), e.g. {eps: (1/100, 3)}"
            )
        syms: list[sp.Symbol] = []
        lows: list[Fraction] = []
        highs: list[Fraction] = []
        for key, ends in domain.items():
            s = sp.Symbol(key) if isinstance(key, str) else key
            if not isinstance(s, sp.Symbol):
                raise InvalidParameter(f"box parameter {key!r} is not a symbol or a name")
            if s in syms or str(s) in map(str, syms):
                raise InvalidParameter(f"box parameter {s} is given twice")
            try:
                lo_raw, hi_raw = ends
            except (TypeError, ValueError):
                raise InvalidParameter(
                    f"the range of {s} must be a pair (lo, hi), got {ends!r}"
                ) from None
            lo = _fraction(sp.Rational(lo_raw) if isinstance(lo_raw, str) else lo_raw, f"{s}.lo")
            hi = _fraction(sp.Rational(hi_raw) if isinstance(hi_raw, str) else hi_raw, f"{s}.hi")
            if lo > hi:
                raise InvalidParameter(f"empty range for {s}: lo = {lo} > hi = {hi}")
            if not isinstance(key, str):
                check_range_assumptions(s, lo, hi, f"box parameter {s}")
            syms.append(s)
            lows.append(lo)
            highs.append(hi)
        return cls(tuple(syms), tuple(lows), tuple(highs))

    @property
    def dimension(self) -> int:
        """The number of parameters that are not fixed."""
        return sum(1 for lo, hi in zip(self.lows, self.highs, strict=True) if lo < hi)

    def as_dict(self) -> dict[str, list[str]]:
        """``{name: [lo, hi]}`` with the ends as exact text (JSON-ready)."""
        return {
            str(s): [str(_rat(lo)), str(_rat(hi))]
            for s, lo, hi in zip(self.symbols, self.lows, self.highs, strict=True)
        }

    def bind(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` with each free symbol named like a parameter of the box replaced by
        that parameter (a box given by names matches symbols whatever their
        assumptions; :func:`decide_on_box` checks the ends against them first)."""
        names = {str(s): s for s in self.symbols}
        repl = {
            s: names[str(s)]
            for s in expr.free_symbols
            if str(s) in names and s is not names[str(s)] and s != names[str(s)]
        }
        return expr.xreplace(repl) if repl else expr

    def check_assumptions(self, symbols: Iterable[sp.Symbol]) -> None:
        """Check the ranges of the parameters named like ``symbols`` against the
        assumptions of those symbols (:func:`check_range_assumptions`)."""
        index = {str(s): i for i, s in enumerate(self.symbols)}
        for s in symbols:
            i = index.get(str(s))
            if i is not None:
                check_range_assumptions(s, self.lows[i], self.highs[i], f"box parameter {s}")

    def names(self) -> set[str]:
        return {str(s) for s in self.symbols}

    def whole(self) -> SubBox:
        return SubBox(tuple(zip(self.lows, self.highs, strict=True)))

    def point(self, values: Sequence[Fraction]) -> dict[sp.Symbol, sp.Rational]:
        return {s: _rat(v) for s, v in zip(self.symbols, values, strict=True)}

    def __str__(self) -> str:
        return " × ".join(
            f"{s} ∈ [{_rat(lo)}, {_rat(hi)}]"
            for s, lo, hi in zip(self.symbols, self.lows, self.highs, strict=True)
        )


@dataclass(frozen=True)
class SubBox:
    """A sub-box: one closed interval ``(lo, hi)`` per parameter of its :class:`Box`."""

    bounds: tuple[tuple[Fraction, Fraction], ...]

    def __str__(self) -> str:
        return " × ".join(f"[{_rat(lo)}, {_rat(hi)}]" for lo, hi in self.bounds)

    def volume_share(self, box: Box) -> Fraction:
        """The share of ``box``'s volume (over its non-fixed parameters)."""
        v = Fraction(1)
        for (lo, hi), blo, bhi in zip(self.bounds, box.lows, box.highs, strict=True):
            if blo < bhi:
                v *= (hi - lo) / (bhi - blo)
        return v

    def midpoint(self) -> tuple[Fraction, ...]:
        return tuple((lo + hi) / 2 for lo, hi in self.bounds)

    def text(self, box: Box) -> str:
        return " × ".join(
            f"{s} ∈ [{_rat(lo)}, {_rat(hi)}]"
            for s, (lo, hi) in zip(box.symbols, self.bounds, strict=True)
        )

    def as_dict(self, box: Box) -> dict[str, list[str]]:
        return {
            str(s): [str(_rat(lo)), str(_rat(hi))]
            for s, (lo, hi) in zip(box.symbols, self.bounds, strict=True)
        }


@dataclass(frozen=True)
class BoxBudget:
    """How far branch and bound may go on one inequality before giving up.

    Parameters
    ----------
    max_depth : int
        Bisections along one path of the tree (a face inherits its parent's depth).
    max_boxes : int
        Sub-boxes examined in total.
    seconds : float or None
        Wall-clock limit (``None``: none).
    bits : int
        Working precision of the enclosures.
    serial_boxes : int
        Sub-boxes examined depth first before a decision is split into pieces
        (a decision that ends within them is never split).
    split_levels : int
        Bisections of the box into pieces (``2**split_levels`` pieces, each an
        independent task with an equal share of the remaining ``max_boxes``; those
        that run out get equal shares of what is left, in rounds).
    max_parameters : int
        Most parameters a box may have (default 8; ``verifier check
        --max-box-parameters N`` raises it for spec files): the exact rewrite expands
        products with one factor per parameter, exponential in their number.
    max_stored : int
        Most sub-boxes of each kind (failing, undecided, outside the premises) kept in
        a decision; the others are counted, with their exact share of the volume.
    after_violation : int
        Sub-boxes examined after the violation is proved (an exact witness found),
        to measure how much of the box fails (default 1000; ``0`` stops at the
        witness).  What is left then is reported undecided, so ``failing_fraction``
        stays a lower bound of the failing share and ``undecided_fraction`` says how
        much was not looked at; ``after_violation=max_boxes`` spends the whole budget.
    """

    max_depth: int = 40
    max_boxes: int = 20000
    seconds: float | None = 120.0
    bits: int = 64
    serial_boxes: int = 2000
    split_levels: int = 6
    max_parameters: int = 8
    max_stored: int = 20000
    after_violation: int = 1000

    def __post_init__(self) -> None:
        for name in (
            "max_depth",
            "max_boxes",
            "bits",
            "serial_boxes",
            "split_levels",
            "max_parameters",
            "max_stored",
            "after_violation",
        ):
            v = getattr(self, name)
            least = 0 if name == "after_violation" else 1
            if isinstance(v, bool) or not isinstance(v, int) or v < least:
                what = "nonnegative" if least == 0 else "positive"
                raise InvalidParameter(f"box budget {name} must be a {what} integer, got {v!r}")
        if self.bits < 24:
            raise InvalidParameter(f"box budget bits must be at least 24, got {self.bits}")
        if self.seconds is not None and not (
            isinstance(self.seconds, (int, float)) and self.seconds > 0
        ):
            raise InvalidParameter(f"box budget seconds must be > 0, got {self.seconds!r}")


#: The default budget: decides every registered box claim.
DEFAULT_BUDGET = BoxBudget()

#: The budget of decisions given none (:func:`box_budget`).
_BUDGET: contextvars.ContextVar[BoxBudget] = contextvars.ContextVar(
    "verifier_boxes_budget", default=DEFAULT_BUDGET
)


def current_box_budget() -> BoxBudget:
    """The budget of the box decisions given none here: the innermost
    :func:`box_budget`, else :data:`DEFAULT_BUDGET`."""
    return _BUDGET.get()


@contextlib.contextmanager
def box_budget(budget: BoxBudget) -> Iterator[None]:
    """Use ``budget`` for the box decisions made inside the ``with`` block that are
    given no budget (``budget=None``, the default of :func:`decide_on_box` and of the
    checkers of :mod:`verifier.checks.privacy`); ``verifier check --max-box-parameters N``
    runs a file's claims inside one."""
    if not isinstance(budget, BoxBudget):
        raise InvalidParameter(f"box_budget needs a BoxBudget, got {budget!r}")
    token = _BUDGET.set(budget)
    try:
        yield
    finally:
        _BUDGET.reset(token)


@dataclass(frozen=True)
class BoxDecision:
    """Outcome of deciding ``lhs <= rhs`` on every point of a box (of the region of the
    box where the premises hold, when there are premises).

    Attributes
    ----------
    verdict : Verdict
        ``HOLDS`` on the whole box (region), ``VIOLATED`` somewhere (``witness``), or
        ``UNDECIDED`` (``undecided`` lists the sub-boxes the budget left open).
    box : Box
    failing : tuple of SubBox
        Sub-boxes proved to fail everywhere (enclosure of ``rhs - lhs`` below 0; with
        premises, sub-boxes also certified inside the region).
    undecided : tuple of SubBox
        Sub-boxes neither proved nor refuted (a sub-box with a failing point on a face
        that is not itself proved to fail everywhere is listed here too).
    witness : dict or None
        An exact rational point at which ``lhs > rhs`` (checked exactly; with premises,
        every premise is checked exactly at it too): the certificate.
    identically_equal : bool
        ``rhs - lhs`` vanishes identically: the bound is attained everywhere.
    tight : bool
        Equality was proved somewhere (a point decided exactly with zero slack, a face
        on which ``rhs - lhs`` vanishes identically, or everywhere).
    boxes : int
        Sub-boxes examined.
    seconds : float
    note : str
    outside : tuple of SubBox
        Sub-boxes certified outside the region of the premises (discharged).
    premises : tuple of str
        The premises, each as ``g >= 0`` or ``g > 0``.
    region_nonempty : bool or None
        ``True`` when a point of the region was found (always without premises),
        ``False`` when the region is proved empty (``vacuous``), ``None`` when neither
        was established.
    undefined_at : dict or None
        A point of the box at which ``lhs`` or ``rhs`` is undefined (a pole, a
        logarithm of 0): the decision is then at best undecided there.
    dropped : tuple
        ``(kind, count, volume share)`` of the sub-boxes of each kind (``failing``,
        ``undecided``, ``outside``) not kept (:attr:`BoxBudget.max_stored`).
    """

    verdict: Verdict
    box: Box
    failing: tuple[SubBox, ...] = ()
    undecided: tuple[SubBox, ...] = ()
    witness: dict[sp.Symbol, sp.Rational] | None = None
    identically_equal: bool = False
    tight: bool = False
    boxes: int = 0
    seconds: float = 0.0
    note: str = ""
    outside: tuple[SubBox, ...] = ()
    premises: tuple[str, ...] = ()
    region_nonempty: bool | None = True
    undefined_at: dict[sp.Symbol, sp.Rational] | None = None
    dropped: tuple[tuple[str, int, Fraction], ...] = ()

    def _dropped(self, kind: str) -> tuple[int, Fraction]:
        for k, n, v in self.dropped:
            if k == kind:
                return n, v
        return 0, Fraction(0)

    def _share(self, kind: str, subs: Sequence[SubBox]) -> Fraction:
        return sum((b.volume_share(self.box) for b in subs), self._dropped(kind)[1])

    @property
    def undecided_fraction(self) -> Fraction:
        """Share of the box's volume in undecided sub-boxes (exact)."""
        return self._share("undecided", self.undecided)

    @property
    def failing_fraction(self) -> Fraction:
        """Share of the box's volume proved to fail (a lower bound of the failing set)."""
        return self._share("failing", self.failing)

    @property
    def outside_fraction(self) -> Fraction:
        """Share of the box's volume certified outside the region of the premises (a
        lower bound of the share outside: a sub-box proved to hold before it was
        classified is counted as decided)."""
        return self._share("outside", self.outside)

    @property
    def decided_fraction(self) -> Fraction:
        """Share of the box's volume decided (proved to hold or to fail) and not
        outside the region."""
        return 1 - self.outside_fraction - self.undecided_fraction

    @property
    def vacuous(self) -> bool:
        """The region of the premises is proved empty: the inequality holds vacuously."""
        return self.region_nonempty is False

    @property
    def failing_count(self) -> int:
        return len(self.failing) + self._dropped("failing")[0]

    @property
    def undecided_count(self) -> int:
        return len(self.undecided) + self._dropped("undecided")[0]

    def __str__(self) -> str:
        text = f"{self.verdict.value}"
        if self.vacuous:
            text += " vacuously (no point of the box satisfies the premises)"
        text += f" on {self.box}"
        if self.premises:
            text += " where " + " and ".join(self.premises)
        if self.failing_count:
            text += (
                f"; fails on {self.failing_count} sub-boxes "
                f"({float(self.failing_fraction):.3g} of the volume)"
            )
        if self.witness:
            text += "; e.g. at " + ", ".join(f"{s} = {v}" for s, v in self.witness.items())
        if self.undecided_count:
            text += (
                f"; {self.undecided_count} sub-boxes undecided "
                f"({float(self.undecided_fraction):.3g} of the volume)"
            )
        if self.premises and not self.vacuous:
            text += f"; {float(self.outside_fraction):.3g} of the volume outside the premises"
        return text


# ---------------------------------------------------------------------------
# exact forms: rational functions of t_i = e^{s_i/L_i}
# ---------------------------------------------------------------------------


def _linear_form(
    arg: sp.Expr, symbols: Sequence[sp.Symbol]
) -> tuple[list[Fraction], sp.Expr] | None:
    """``arg == Σ a_i s_i + c`` with rational ``a_i`` and constant ``c``, or ``None``."""
    coeffs = []
    rest = sp.expand(arg)
    for s in symbols:
        a = rest.coeff(s)
        if a.free_symbols or not a.is_Rational:
            return None
        coeffs.append(Fraction(int(a.p), int(a.q)))
        rest = sp.expand(rest - a * s)
    if rest.free_symbols:
        return None
    return coeffs, rest


@dataclass(frozen=True)
class _ExpRational:
    """Expressions rewritten as rational functions of generators ``t_i``: ``t_i =
    e^{s_i/L_i}`` for a parameter that occurs only in exponents of ``exp`` (rational
    linear forms), ``t_i = s_i`` (``L_i = 0``) for one that never occurs in one."""

    symbols: tuple[sp.Symbol, ...]
    gens: tuple[sp.Dummy, ...]
    scales: tuple[int, ...]
    exprs: tuple[sp.Expr, ...]

    def t_of(self, i: int) -> sp.Expr:
        """``t_i`` as an expression in ``s_i``."""
        s, L = self.symbols[i], self.scales[i]
        return s if L == 0 else sp.exp(s / L)


def _rational_in(expr: sp.Expr, gens: set[sp.Expr]) -> bool:
    """``expr`` is built from ``gens`` and constants by sums, products and integer
    powers only (a structural test: it does not rely on sympy's assumptions, which
    would have turned ``Abs(t)`` into ``t`` for a positive ``t``)."""
    stack = [expr]
    while stack:
        e = stack.pop()
        if not e.free_symbols:
            continue
        if e.is_Symbol:
            if e not in gens:
                return False
        elif e.is_Add or e.is_Mul:
            stack.extend(e.args)
        elif e.is_Pow and e.exp.is_Integer:
            stack.append(e.base)
        else:
            return False
    return True


def _exp_rational(exprs: Sequence[sp.Expr], symbols: Sequence[sp.Symbol]) -> _ExpRational | None:
    """The common rewrite of ``exprs`` (:class:`_ExpRational`), or ``None`` when some
    expression is not a rational function of the generators (``abs``, ``min``,
    ``max``, ``floor``, ``sqrt`` of a parameter, a logarithm, ...).

    The generators of exponentials are positive (``e^{s/L} > 0`` for every real
    ``s``); those of plain parameters are only real, and the expressions must be
    rational in them *structurally*, so no assumption the box does not guarantee is
    ever applied."""
    syms = [s for s in symbols if any(s in e.free_symbols for e in exprs)]
    if not syms:
        return None
    atoms: set[sp.Expr] = set()
    for e in exprs:
        atoms |= {a for a in e.atoms(sp.exp) if a.free_symbols}
        atoms |= {q for q in e.atoms(sp.Pow) if q.base is sp.E and q.exp.free_symbols}
    forms: dict[sp.Expr, tuple[list[Fraction], sp.Expr]] = {}
    for a in atoms:
        lf = _linear_form(a.args[0] if isinstance(a, sp.exp) else a.exp, syms)
        if lf is None:
            return None
        forms[a] = lf
    dens = [0] * len(syms)
    for coeffs, _ in forms.values():
        for i, c in enumerate(coeffs):
            if c != 0:
                dens[i] = math.lcm(max(dens[i], 1), c.denominator)
    gens = tuple(
        sp.Dummy(f"t_{s}", positive=True) if L else sp.Dummy(f"t_{s}", real=True)
        for s, L in zip(syms, dens, strict=True)
    )
    repl: dict[sp.Expr, sp.Expr] = {}
    for a, (coeffs, c) in forms.items():
        mono = sp.exp(c)
        for i, co in enumerate(coeffs):
            if co != 0:
                mono *= gens[i] ** int(co * dens[i])
        repl[a] = mono
    plain = {s: g for s, g, L in zip(syms, gens, dens, strict=True) if L == 0}
    allowed = set(gens) | set(plain)
    out = []
    for e in exprs:
        t = e.xreplace(repl)
        if t.free_symbols & {s for s, L in zip(syms, dens, strict=True) if L}:
            return None  # a parameter both in and out of an exponent
        if not _rational_in(t, allowed):
            return None
        t = t.xreplace(plain)
        if not _rational_in(t, set(gens)) or not t.is_rational_function(*gens):
            return None
        out.append(t)
    return _ExpRational(tuple(syms), gens, tuple(dens), tuple(out))


def identically_zero(expr: Any, symbols: Sequence[sp.Symbol]) -> bool:
    """Prove that ``expr`` vanishes for every value of ``symbols`` where it is defined
    (``False``: no proof).

    Every ``exp(Σ a_i s_i + c)`` with rational ``a_i`` becomes ``e^c Π t_i^{a_i L_i}``
    (``t_i = e^{s_i/L_i}``, ``L_i`` the common denominator of the ``a_i``); when no
    parameter is left outside these monomials and the result is built from the
    ``t_i`` by sums, products and integer powers only, it is a rational function of
    the ``t_i`` and it vanishes identically exactly when the numerator expands to 0.
    Otherwise sympy's simplification is tried (a proof when it gives 0).

    >>> x, y = sp.symbols("x y", positive=True)
    >>> identically_zero(sp.exp(x) / (1 + sp.exp(x)) - 1 / (1 + sp.exp(-x)), [x])
    True
    >>> identically_zero(sp.exp(2 * x + y) - sp.exp(x) ** 2 * sp.exp(y), [x, y])
    True
    >>> identically_zero(sp.exp(x) - 1 - x, [x])
    False
    >>> s = sp.Symbol("s", real=True)
    >>> identically_zero(sp.Abs(s) - s, [s])   # zero only for s >= 0
    False
    """
    e = exact(expr)
    if not any(s in e.free_symbols for s in symbols):
        from ..arithmetic.exact import is_exactly_zero

        return is_exactly_zero(e) is True
    form = _exp_rational([e], symbols)
    if form is not None:
        try:
            num, _ = sp.fraction(sp.together(form.exprs[0]))
            if _expansion_terms(num) > _MAX_EXPANSION_TERMS:
                return False
            return bool(_expanded_poly(num, form.gens).is_zero)
        except (sp.PolynomialError, ValueError, TypeError, RecursionError):
            return False
    if sp.count_ops(e) > 120:
        return False
    try:
        return bool(sp.simplify(e) == 0)
    except (NotImplementedError, ValueError, TypeError, RecursionError):
        return False


@dataclass(frozen=True)
class _Shifted:
    """``rhs - lhs = N/D`` with ``N``, ``D`` polynomials in the generators, written in
    ``u_i = t_i - r_i`` (``r_i`` a rational lower bound of ``t_i`` on the box)."""

    numerator: sp.Poly  # in u
    denominator: sp.Poly  # in u
    shifts: tuple[sp.Rational, ...]
    form: _ExpRational


def _lower_t(form: _ExpRational, box: Box, i: int) -> sp.Rational:
    """A rational ``r <= t_i`` on the whole box."""
    s = form.symbols[i]
    lo = box.lows[box.symbols.index(s)]
    L = form.scales[i]
    if L == 0:
        return _rat(lo)
    if lo == 0:
        return sp.Integer(1)
    with interval_context(64) as ctx:
        v = ctx.exp(ctx.mpf(lo.numerator) / lo.denominator / L)
        return sp.Rational(*_raw_fraction(v._mpi_[0]).as_integer_ratio())


def _shifted(lhs: sp.Expr, rhs: sp.Expr, box: Box) -> _Shifted | None:
    """The exact rewrite of ``rhs - lhs`` (module docstring, "The exact route"); the
    caller has certified that ``lhs`` and ``rhs`` are defined on the whole box, so
    ``N/D`` is their difference at every point of it."""
    form = _exp_rational([rhs - lhs], box.symbols)
    if form is None:
        return None
    try:
        num, den = sp.fraction(sp.together(form.exprs[0]))
        rs = tuple(_lower_t(form, box, i) for i in range(len(form.gens)))
        us = [sp.Dummy(f"u{i}") for i in range(len(form.gens))]
        sub = {g: r + u for g, r, u in zip(form.gens, rs, us, strict=True)}
        n_u, d_u = num.xreplace(sub), den.xreplace(sub)
        if _expansion_terms(n_u) + _expansion_terms(d_u) > _MAX_EXPANSION_TERMS:
            return None  # too big to expand: branch and bound (bounded memory) instead
        n = _expanded_poly(n_u, us)
        d = _expanded_poly(d_u, us)
    except (sp.PolynomialError, ValueError, TypeError, RecursionError):
        return None
    return _Shifted(n, d, rs, form)


def _expanded_poly(e: sp.Expr, gens: Sequence[sp.Symbol]) -> sp.Poly:
    """``sp.Poly(sp.expand(e), *gens)``: the products and powers of ``e`` multiplied
    out in sympy's sparse polynomial ring over QQ (tens of times faster than
    ``expand`` on the shifted numerators), or by ``expand`` when a coefficient is not
    rational (``exp(1/3)``).  The same polynomial either way, its domain (ZZ or QQ)
    chosen from the coefficients as ``Poly`` chooses it."""
    ring = sp.polys.rings.PolyRing(tuple(gens), sp.QQ, sp.polys.orderings.lex)
    try:
        p = ring.from_expr(e)
    except (ValueError, TypeError, sp.polys.polyerrors.PolynomialError):
        return sp.Poly(sp.expand(e), *gens)
    if not p:
        return sp.Poly(0, *gens)
    return sp.Poly.from_dict({m: sp.QQ.to_sympy(c) for m, c in p.items()}, *gens)


#: Most terms the exact rewrite may expand to (an upper bound from the expression's
#: shape, :func:`_expansion_terms`): beyond, the expansion's time and memory grow
#: out of proportion and branch and bound decides instead.
_MAX_EXPANSION_TERMS = 200_000


def _expansion_terms(e: sp.Expr, cap: int = _MAX_EXPANSION_TERMS) -> int:
    """An upper bound of the number of terms of ``expand(e)`` (saturating just above
    ``cap``): sums add, products multiply, ``a^k`` has at most ``C(n + k - 1, k)``
    terms for ``n`` terms of ``a``; anything else counts as one term.

    >>> u, v = sp.symbols("u v")
    >>> _expansion_terms((1 + u) * (2 + v) + u**2), _expansion_terms((1 + u + v) ** 2)
    (5, 6)
    """
    top = cap + 1
    if e.is_Add:
        return min(top, sum(_expansion_terms(a, cap) for a in e.args))
    if e.is_Mul:
        out = 1
        for a in e.args:
            out = min(top, out * _expansion_terms(a, cap))
        return out
    if e.is_Pow and e.exp.is_Integer and e.exp > 0:
        n, k = _expansion_terms(e.base, cap), int(e.exp)
        if n == 1:
            return 1
        if k > 64 and n > 1:
            return top
        return min(top, math.comb(n + k - 1, k))
    return 1


def _coefficient_sign(p: sp.Poly) -> int:
    """+1 when every coefficient is >= 0 and the constant term > 0 (then ``p > 0``
    for all ``u >= 0``), -1 for the mirror image, 0 otherwise (exact signs)."""
    from ..arithmetic.exact import Sign, decide_sign

    signs = set()
    for c in p.coeffs():
        if c == 0:
            continue
        s = (
            decide_sign(c).sign
            if not c.is_Rational
            else (Sign.POSITIVE if c > 0 else Sign.NEGATIVE)
        )
        if s not in (Sign.POSITIVE, Sign.NEGATIVE):
            return 0
        signs.add(s)
    if len(signs) != 1:
        return 0
    const = p.coeff_monomial(1) if p.gens else p.as_expr()
    if const == 0:
        return 0
    return 1 if signs.pop() is Sign.POSITIVE else -1


def _vanishes_in_box(num: sp.Poly, shifted: _Shifted, box: Box) -> bool:
    """``N`` (in ``u = t - r``) vanishes somewhere in the box: every term contains a
    ``u_i`` whose shift is the exact lower end of ``t_i`` on the box (a face where the
    bound is attained), or the constant term is 0 and every shift is exact (the lower
    corner)."""
    form = shifted.form
    exact_shift = []
    for i, s in enumerate(form.symbols):
        lo = box.lows[box.symbols.index(s)]
        exact_shift.append(form.scales[i] == 0 or lo == 0)
    monoms = [m for m, c in num.terms() if c != 0]
    if any(e and all(m[i] > 0 for m in monoms) for i, e in enumerate(exact_shift)):
        return True
    return all(exact_shift) and all(any(m) for m in monoms)


def _nonnegative_coefficients(p: sp.Poly) -> bool:
    """Every coefficient of ``p`` is >= 0 (exactly): ``p >= 0`` for all ``u >= 0``."""
    from ..arithmetic.exact import Sign, decide_sign

    for c in p.coeffs():
        if c.is_Rational:
            if c < 0:
                return False
        elif decide_sign(c).sign not in (Sign.POSITIVE, Sign.ZERO):
            return False
    return True


# ---------------------------------------------------------------------------
# compiled interval evaluation with gradients
# ---------------------------------------------------------------------------

_Iv = tuple[Any, Any]  # (lo, hi) raw mpf tuples


class _Unresolved(Exception):
    """Internal: the enclosure is unusable on this sub-box (a log of an interval
    reaching 0, a division by an interval containing 0, ...): bisect."""


def _iv_rational(x: Fraction, prec: int) -> _Iv:
    return (
        from_rational(x.numerator, x.denominator, prec, round_floor),
        from_rational(x.numerator, x.denominator, prec, round_ceiling),
    )


def _sub_ivs(sub: SubBox, prec: int) -> list[_Iv]:
    """The intervals of a sub-box (outward rounded)."""
    return [
        _iv_rational(lo, prec)
        if lo == hi
        else (_iv_rational(lo, prec)[0], _iv_rational(hi, prec)[1])
        for lo, hi in sub.bounds
    ]


def _lo(x: _Iv) -> Fraction:
    return _raw_fraction(x[0])


def _raw_fraction(raw: Any) -> Fraction:
    sign, man, exp, _ = raw
    if not man:
        if exp:
            raise _Unresolved
        return Fraction(0)
    v = Fraction(int(man) << exp) if exp >= 0 else Fraction(int(man), 1 << -exp)
    return -v if sign else v


def _finite(x: _Iv) -> _Iv:
    if x[0] in (finf, fninf) or x[1] in (finf, fninf) or x[0][1] == 0 and x[0][2]:
        raise _Unresolved
    if x[1][1] == 0 and x[1][2]:  # nan
        raise _Unresolved
    return x


def mpf_min(a: Any, b: Any) -> Any:
    return a if mpf_cmp(a, b) <= 0 else b


def mpf_max(a: Any, b: Any) -> Any:
    return a if mpf_cmp(a, b) >= 0 else b


def _hull(x: _Iv, y: _Iv) -> _Iv:
    return (mpf_min(x[0], y[0]), mpf_max(x[1], y[1]))


def _positive(x: _Iv) -> bool:
    return mpf_cmp(x[0], fzero) > 0


def _nonneg(x: _Iv) -> bool:
    return mpf_cmp(x[0], fzero) >= 0


def _nonpos(x: _Iv) -> bool:
    return mpf_cmp(x[1], fzero) <= 0


def _negative(x: _Iv) -> bool:
    return mpf_cmp(x[1], fzero) < 0


_ZERO: _Iv = (fzero, fzero)
_ONE: _Iv = (from_int(1), from_int(1))

#: A gradient that has no enclosure on the sub-box (a jump of floor/ceil, the
#: infinite slope of sqrt at 0): no mean-value form, no monotonicity there.
_BAD: Any = object()

# op codes
(
    _VAR,
    _CONST,
    _ADD,
    _MUL,
    _POWI,
    _EXP,
    _LOG,
    _SQRT,
    _POW,
    _MAX,
    _MIN,
    _ABS,
    _FLOOR,
    _CEIL,
) = range(14)

#: Positions of an op's operands (slots of earlier ops) in its tuple.
_OPERANDS = {
    _VAR: (),
    _CONST: (),
    _ADD: (1, 2),
    _MUL: (1, 2),
    _POWI: (1,),
    _EXP: (1,),
    _LOG: (1,),
    _SQRT: (1,),
    _POW: (1, 2),
    _MAX: (1, 2),
    _MIN: (1, 2),
    _ABS: (1,),
    _FLOOR: (1,),
    _CEIL: (1,),
}

#: Largest constant k of binomial(n, k) expanded to n(n-1)...(n-k+1)/k!.
_MAX_BINOMIAL_K = 64


class _Program:
    """``expr`` compiled to a straight-line program over the box's parameters;
    :meth:`run` returns the enclosure and (optionally) the gradient enclosures.

    ``guards`` are compiled into the same program and evaluated with it, value only:
    a sub-box on which one of them is not defined (a denominator that may vanish,
    ...) raises :class:`_Unresolved` even when ``expr`` itself is defined there (the
    difference ``rhs - lhs`` may have lost a pole that ``lhs`` and ``rhs`` have)."""

    def __init__(
        self,
        expr: sp.Expr,
        symbols: Sequence[sp.Symbol],
        prec: int,
        guards: Sequence[sp.Expr] = (),
    ) -> None:
        self.symbols = tuple(symbols)
        self.prec = prec
        self.ops: list[tuple[Any, ...]] = []
        self._slots: dict[sp.Expr, int] = {}
        self.out = self._compile(expr)
        for g in guards:
            self._compile(g)
        # the ops the output depends on: only they need gradients
        cone = [False] * len(self.ops)
        cone[self.out] = True
        for i in range(self.out, -1, -1):
            if cone[i]:
                op = self.ops[i]
                for k in _OPERANDS[op[0]]:
                    cone[op[k]] = True
        self.cone = cone

    def _const(self, e: sp.Expr) -> int:
        with interval_context(self.prec) as ctx:
            try:
                v = _to_iv(e, ctx)
            except _NeedMorePrecision:
                raise UnsupportedExpression(f"cannot enclose the constant {e}") from None
            except VerifierError as err:
                raise UnsupportedExpression(f"cannot enclose the constant {e}: {err}") from None
            iv = v._mpi_
        try:
            self.ops.append((_CONST, _finite(iv)))
        except _Unresolved:
            raise UnsupportedExpression(f"the constant {e} has no finite enclosure") from None
        return len(self.ops) - 1

    def _compile(self, e: sp.Expr) -> int:
        hit = self._slots.get(e)
        if hit is not None:
            return hit
        slot = self._emit(e)
        self._slots[e] = slot
        return slot

    def _unary(self, code: int, arg: sp.Expr) -> int:
        self.ops.append((code, self._compile(arg)))
        return len(self.ops) - 1

    def _emit(self, e: sp.Expr) -> int:
        if e.is_Symbol:
            if e not in self.symbols:
                raise InvalidParameter(f"symbol {e} is not a parameter of the box")
            self.ops.append((_VAR, self.symbols.index(e)))
            return len(self.ops) - 1
        if not e.free_symbols:
            return self._const(e)
        if e.is_Add or e.is_Mul:
            args = [self._compile(a) for a in e.args]
            acc = args[0]
            for a in args[1:]:
                self.ops.append((_ADD if e.is_Add else _MUL, acc, a))
                acc = len(self.ops) - 1
            return acc
        if isinstance(e, sp.exp) or (e.is_Pow and e.base is sp.E):
            return self._unary(_EXP, e.args[0] if isinstance(e, sp.exp) else e.exp)
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                raise UnsupportedExpression(f"log with a base in {e}; write log(x)/log(b)")
            return self._unary(_LOG, e.args[0])
        if e.is_Pow:
            base, ex = e.args
            if ex.is_Integer:
                self.ops.append((_POWI, self._compile(base), int(ex)))
                return len(self.ops) - 1
            if ex == sp.Rational(1, 2):
                return self._unary(_SQRT, base)
            self.ops.append((_POW, self._compile(base), self._compile(ex)))
            return len(self.ops) - 1
        if isinstance(e, (sp.Max, sp.Min)):
            args = [self._compile(a) for a in e.args]
            acc = args[0]
            for a in args[1:]:
                self.ops.append((_MAX if isinstance(e, sp.Max) else _MIN, acc, a))
                acc = len(self.ops) - 1
            return acc
        if isinstance(e, sp.Abs):
            return self._unary(_ABS, e.args[0])
        if isinstance(e, sp.floor):
            return self._unary(_FLOOR, e.args[0])
        if isinstance(e, sp.ceiling):
            return self._unary(_CEIL, e.args[0])
        if isinstance(e, sp.binomial):
            n, k = e.args
            if k.free_symbols or not k.is_Integer:
                raise UnsupportedExpression(
                    f"cannot enclose binomial(n, k) with a non-constant k in '{e}' over a box "
                    f"(a constant integer k gives the polynomial n(n-1)...(n-k+1)/k!)"
                )
            kk = int(k)
            if kk > _MAX_BINOMIAL_K:
                raise UnsupportedExpression(
                    f"cannot enclose '{e}' over a box: k = {kk} is over {_MAX_BINOMIAL_K}"
                )
            # sympy's binomial(n, k) for a constant integer k: the falling factorial
            # n (n-1) ... (n-k+1) / k! (0 for k < 0), at every real n
            if kk < 0:
                return self._const(sp.Integer(0))
            return self._compile(sp.Mul(*[n - j for j in range(kk)]) / sp.factorial(kk))
        raise UnsupportedExpression(
            f"cannot enclose {type(e).__name__} in '{e}' over a box (supported: + - * /, "
            f"powers, exp, log, sqrt, min, max, abs, floor, ceil, binomial with a constant k)"
        )

    def run(self, xs: Sequence[_Iv], grad: bool) -> tuple[_Iv, list[_Iv | None] | None]:
        """The enclosure over the intervals ``xs`` and the gradient enclosures (``None``
        for a partial derivative that is identically 0; the whole list ``None`` when
        some operation has no derivative enclosure on these intervals: a jump of
        ``floor``/``ceil``, ``sqrt`` at 0)."""
        p = self.prec
        n = len(self.symbols)
        vals: list[_Iv] = []
        grads: list[Any] = []
        cone = self.cone
        add, mul, div = libmpi.mpi_add, libmpi.mpi_mul, libmpi.mpi_div
        for idx, op in enumerate(self.ops):
            code = op[0]
            want = grad and cone[idx]
            g: Any = None
            if code == _VAR:
                i = op[1]
                v = xs[i]
                if want:
                    g = [None] * n
                    g[i] = _ONE
            elif code == _CONST:
                v = op[1]
            elif code == _ADD or code == _MUL:
                a, b = vals[op[1]], vals[op[2]]
                if code == _ADD:  # d(a + b) = da + db
                    v, sa, sb = add(a, b, p), None, None
                else:  # d(a b) = b da + a db
                    v, sa, sb = mul(a, b, p), b, a
                if want:
                    ga, gb = grads[op[1]], grads[op[2]]
                    g = _BAD if _BAD in (ga, gb) else _gcomb(ga, gb, sa, sb, p)
            elif code == _POWI:
                a = vals[op[1]]
                k = op[2]
                if k >= 0:
                    v = libmpi.mpi_pow_int(a, k, p)
                else:
                    if not (_positive(a) or _negative(a)):
                        raise _Unresolved  # a denominator that may vanish
                    v = div(_ONE, libmpi.mpi_pow_int(a, -k, p), p)
                ga = grads[op[1]] if want else None
                if ga is _BAD:
                    g = _BAD
                elif ga is not None and k != 0:
                    d = (
                        libmpi.mpi_pow_int(a, k - 1, p)
                        if k - 1 >= 0
                        else div(_ONE, libmpi.mpi_pow_int(a, 1 - k, p), p)
                    )
                    d = mul((from_int(k), from_int(k)), d, p)
                    g = _gscale(ga, d, p)
            elif code == _EXP:
                a = vals[op[1]]
                v = libmpi.mpi_exp(a, p)
                ga = grads[op[1]] if want else None
                g = _BAD if ga is _BAD else (None if ga is None else _gscale(ga, v, p))
            elif code == _LOG:
                a = vals[op[1]]
                if not _positive(a):
                    raise _Unresolved
                v = libmpi.mpi_log(a, p)
                ga = grads[op[1]] if want else None
                g = (
                    _BAD
                    if ga is _BAD
                    else (None if ga is None else _gscale(ga, div(_ONE, a, p), p))
                )
            elif code == _SQRT:
                a = vals[op[1]]
                if mpf_cmp(a[0], fzero) < 0:
                    raise _Unresolved  # may be negative: not a real number
                v = libmpi.mpi_sqrt(a, p)
                ga = grads[op[1]] if want else None
                if ga is _BAD or (ga is not None and not _positive(a)):
                    g = _BAD  # sqrt has an infinite slope at 0
                elif ga is not None:
                    d = div(_ONE, mul((from_int(2), from_int(2)), v, p), p)
                    g = _gscale(ga, d, p)
            elif code == _POW:
                a, b = vals[op[1]], vals[op[2]]
                if not _positive(a):
                    raise _Unresolved
                la = libmpi.mpi_log(a, p)
                v = libmpi.mpi_exp(mul(b, la, p), p)
                if want:
                    ga, gb = grads[op[1]], grads[op[2]]
                    if _BAD in (ga, gb):
                        g = _BAD
                    elif ga is not None or gb is not None:
                        # d(a^b) = a^b (db log a + b da / a)
                        inner = _gcomb(gb, ga, la, div(b, a, p), p)
                        g = None if inner is None else _gscale(inner, v, p)
            elif code in (_MAX, _MIN):
                a, b = vals[op[1]], vals[op[2]]
                ga, gb = (grads[op[1]], grads[op[2]]) if want else (None, None)
                big = code == _MAX
                if mpf_cmp(a[0], b[1]) >= 0:  # a >= b on the whole sub-box: max = a there
                    v, g = (a, ga) if big else (b, gb)
                elif mpf_cmp(b[0], a[1]) >= 0:
                    v, g = (b, gb) if big else (a, ga)
                else:
                    if big:
                        v = (mpf_max(a[0], b[0]), mpf_max(a[1], b[1]))
                    else:
                        v = (mpf_min(a[0], b[0]), mpf_min(a[1], b[1]))
                    # Clarke: the generalized gradient of max(f, g) lies in the hull
                    g = _BAD if _BAD in (ga, gb) else (_ghull(ga, gb, n) if want else None)
            elif code == _ABS:
                a = vals[op[1]]
                ga = grads[op[1]] if want else None
                if _nonneg(a):
                    v, g = a, ga
                elif _nonpos(a):
                    v = libmpi.mpi_neg(a, p)
                    g = ga if ga is None or ga is _BAD else _gneg(ga, p)
                else:
                    v = (fzero, mpf_max(mpf_neg(a[0]), a[1]))
                    g = ga if ga is None or ga is _BAD else _ghull(ga, _gneg(ga, p), n)
            elif code in (_FLOOR, _CEIL):
                a = vals[op[1]]
                rnd = mpf_floor if code == _FLOOR else mpf_ceil
                v = (rnd(a[0]), rnd(a[1]))
                ga = grads[op[1]] if want else None
                # piecewise constant: derivative 0 without a jump in the sub-box, none
                # (not even a Lipschitz bound) with one
                g = None if ga is None or mpf_cmp(v[0], v[1]) == 0 else _BAD
            else:  # pragma: no cover - every op code is handled above
                raise AssertionError(code)
            vals.append(_finite(v))
            grads.append(g)
        out = vals[self.out]
        if not grad:
            return out, [None] * n
        g_out = grads[self.out]
        if g_out is _BAD:
            return out, None
        return out, (list(g_out) if g_out is not None else [None] * n)


def _gneg(ga: list[_Iv | None], p: int) -> list[_Iv | None]:
    return [None if x is None else libmpi.mpi_neg(x, p) for x in ga]


def _gcomb(
    ga: list[_Iv | None] | None,
    gb: list[_Iv | None] | None,
    sa: _Iv | None,
    sb: _Iv | None,
    p: int,
) -> list[_Iv | None] | None:
    """``sa·ga + sb·gb`` componentwise (``None`` scale: 1; ``None`` gradient: 0)."""
    if ga is None and gb is None:
        return None
    n = len(ga) if ga is not None else len(gb)  # type: ignore[arg-type]
    out: list[_Iv | None] = []
    for i in range(n):
        x = None if ga is None else ga[i]
        y = None if gb is None else gb[i]
        if x is not None and sa is not None:
            x = libmpi.mpi_mul(sa, x, p)
        if y is not None and sb is not None:
            y = libmpi.mpi_mul(sb, y, p)
        if x is None:
            out.append(y)
        elif y is None:
            out.append(x)
        else:
            out.append(libmpi.mpi_add(x, y, p))
    return out


def _gscale(ga: list[_Iv | None], s: _Iv, p: int) -> list[_Iv | None]:
    return [None if x is None else libmpi.mpi_mul(s, x, p) for x in ga]


def _ghull(
    ga: list[_Iv | None] | None, gb: list[_Iv | None] | None, n: int
) -> list[_Iv | None] | None:
    if ga is None and gb is None:
        return None
    out: list[_Iv | None] = []
    for i in range(n):
        x = _ZERO if ga is None or ga[i] is None else ga[i]
        y = _ZERO if gb is None or gb[i] is None else gb[i]
        out.append(None if (x is _ZERO and y is _ZERO) else _hull(x, y))  # type: ignore[arg-type]
    return out


def _mean_value(
    prog: _Program, sub: SubBox, xs: Sequence[_Iv], val: _Iv, g: Sequence[_Iv | None], p: int
) -> _Iv:
    """``val`` intersected with the mean-value form ``f(c) + Σ g_i (X_i - c_i)`` at the
    midpoint ``c`` (valid for a Lipschitz ``f`` with ``g`` enclosing its generalized
    gradient on the sub-box)."""
    free = [i for i, (lo, hi) in enumerate(sub.bounds) if lo < hi]
    if not free or all(g[i] is None for i in free):
        return val
    c = sub.midpoint()
    cx = [_iv_rational(ci, p) for ci in c]
    try:
        fc, _ = prog.run(cx, False)
    except _Unresolved:
        return val
    mv = fc
    for i in free:
        gi = g[i]
        if gi is None:
            continue
        dx = libmpi.mpi_sub(xs[i], cx[i], p)
        mv = libmpi.mpi_add(mv, libmpi.mpi_mul(gi, dx, p), p)
    return (mpf_max(val[0], mv[0]), mpf_min(val[1], mv[1]))


def _certify_defined(exprs: Sequence[sp.Expr], box: Box, bits: int, max_boxes: int = 256) -> bool:
    """Every one of ``exprs`` is defined at every point of ``box`` (no denominator
    vanishes, no logarithm of a number ``<= 0``, ...): their programs evaluate
    without a domain problem on sub-boxes covering the box (at most ``max_boxes``
    evaluations; ``False`` means no proof)."""
    todo = [e for e in exprs if e.free_symbols]
    if not todo:
        return True
    try:
        prog = _Program(todo[0], box.symbols, bits, guards=todo[1:])
    except (UnsupportedExpression, InvalidParameter):
        return False
    root = box.whole()
    stack = [root]
    count = 0
    while stack:
        sub = stack.pop()
        count += 1
        if count > max_boxes:
            return False
        try:
            prog.run(_sub_ivs(sub, bits), False)
            continue
        except _Unresolved:
            pass
        free = [i for i, (lo, hi) in enumerate(sub.bounds) if lo < hi]
        if not free:
            return False
        i = max(
            free,
            key=lambda j: (
                (sub.bounds[j][1] - sub.bounds[j][0]) / (root.bounds[j][1] - root.bounds[j][0])
            ),
        )
        lo, hi = sub.bounds[i]
        m = _simple_between(lo, hi)
        stack.append(SubBox(sub.bounds[:i] + ((lo, m),) + sub.bounds[i + 1 :]))
        stack.append(SubBox(sub.bounds[:i] + ((m, hi),) + sub.bounds[i + 1 :]))
    return True


# ---------------------------------------------------------------------------
# branch and bound
# ---------------------------------------------------------------------------

#: Functions whose derivative sympy cannot give as a formula valid on a whole
#: sub-box (kinks and jumps): forward differentiation encloses their Clarke
#: gradients (or reports that there is none) instead.
_NONSMOOTH = (sp.Min, sp.Max, sp.Abs, sp.floor, sp.ceiling, sp.binomial)


def _gradient_programs(
    f: sp.Expr, symbols: Sequence[sp.Symbol], bits: int
) -> list[_Program | None] | None:
    """Compiled partial derivatives of ``f``, each brought over a common denominator
    when small (``w - w/(1+x)`` becomes ``w x/(1+x)``, whose enclosure keeps its
    sign), or ``None`` when ``f`` has ``Min``/``Max``/``Abs``/``floor``/``ceil``
    (then forward differentiation gives the generalized gradient)."""
    if f.has(*_NONSMOOTH):
        return None
    out: list[_Program | None] = []
    for s in symbols:
        d = sp.diff(f, s)
        if d == 0:
            out.append(None)
            continue
        if d.has(sp.Derivative, sp.Subs):
            return None
        if sp.count_ops(d) < 300:
            d = sp.together(d)
        try:
            out.append(_Program(d, symbols, bits))
        except UnsupportedExpression:
            return None
    return out


def _simple_between(lo: Fraction, hi: Fraction) -> Fraction:
    """A rational with a small denominator in ``[lo + w/4, hi - w/4]`` (``w = hi - lo``)."""
    w = hi - lo
    a, b = lo + w / 4, hi - w / 4
    den = 1
    while True:
        n = math.ceil(a * den)
        if Fraction(n, den) <= b:
            return Fraction(n, den)
        den *= 2


_KINDS = ("failing", "undecided", "outside")


@dataclass
class _Tally:
    """What a search found: the sub-boxes of each kind (at most ``cap`` kept, the
    others counted with their volume), the witness, ..."""

    box: Box
    cap: int
    failing: list[SubBox] = field(default_factory=list)
    undecided: list[SubBox] = field(default_factory=list)
    outside: list[SubBox] = field(default_factory=list)
    dropped: dict[str, tuple[int, Fraction]] = field(default_factory=dict)
    witness: dict[sp.Symbol, sp.Rational] | None = None
    tight: bool = False
    boxes: int = 0
    inside: bool = False  # a point of the region was found
    undefined: dict[sp.Symbol, sp.Rational] | None = None
    witnessed_at: int | None = None  # ``boxes`` when the witness was first seen

    def add(self, kind: str, sub: SubBox) -> None:
        kept = getattr(self, kind)
        if len(kept) < self.cap:
            kept.append(sub)
        else:
            n, v = self.dropped.get(kind, (0, Fraction(0)))
            self.dropped[kind] = (n + 1, v + sub.volume_share(self.box))

    def add_dropped(self, kind: str, n: int, v: Fraction) -> None:
        if n:
            m, w = self.dropped.get(kind, (0, Fraction(0)))
            self.dropped[kind] = (m + n, w + v)

    def mark(self) -> tuple[Any, ...]:
        return (len(self.failing), len(self.undecided), len(self.outside), dict(self.dropped))

    def rollback(self, mark: tuple[Any, ...]) -> None:
        del self.failing[mark[0] :]
        del self.undecided[mark[1] :]
        del self.outside[mark[2] :]
        self.dropped = dict(mark[3])

    def dropped_tuple(self) -> tuple[tuple[str, int, Fraction], ...]:
        return tuple((k, *self.dropped[k]) for k in _KINDS if k in self.dropped)


@dataclass(frozen=True)
class _Piece:
    """What settling one piece of a box found (:meth:`_Search.piece`)."""

    state: str  # "holds" | "fails" | "open"
    failing: tuple[SubBox, ...]
    undecided: tuple[SubBox, ...]
    outside: tuple[SubBox, ...]
    dropped: tuple[tuple[str, int, Fraction], ...]
    witness: dict[sp.Symbol, sp.Rational] | None
    tight: bool
    boxes: int
    exhausted: str
    inside: bool
    undefined: dict[sp.Symbol, sp.Rational] | None


#: A premise: ``g >= 0`` (``strict``: ``g > 0``).
_Premise = tuple[sp.Expr, bool]


class _Search:
    def __init__(
        self,
        lhs: sp.Expr,
        rhs: sp.Expr,
        box: Box,
        budget: BoxBudget,
        f: sp.Expr,
        premises: tuple[_Premise, ...] = (),
        guards: tuple[sp.Expr, ...] = (),
    ) -> None:
        self.lhs, self.rhs, self.box, self.budget = lhs, rhs, box, budget
        self.f = f  # same sign as rhs - lhs everywhere on the box
        self.prog = _Program(self.f, box.symbols, budget.bits, guards=guards)
        self.grad_progs = _gradient_programs(self.f, box.symbols, budget.bits)
        self.premises = premises
        self.premise_progs = [(_Program(g, box.symbols, budget.bits), s) for g, s in premises]
        self.root = box.whole()
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.max_boxes = budget.max_boxes
        self.tally = _Tally(box, budget.max_stored)
        self.zero_faces: dict[tuple[Any, ...], bool] = {}
        self.exhausted = ""
        self.scope = ""

    def piece(self, sub: SubBox, depth: int, max_boxes: int, seconds: float | None) -> _Piece:
        """Settle the piece ``sub`` of the box (``depth`` bisections from the root) with
        its own budget of ``max_boxes`` sub-boxes and ``seconds``; a pure function of
        its arguments but for the clock (the search's own state is not touched, so one
        search may settle several pieces at once, in threads)."""
        run = copy.copy(self)
        run.tally, run.exhausted, run.max_boxes, run.scope = (
            _Tally(self.box, self.budget.max_stored),
            "",
            max_boxes,
            " of a piece",
        )
        run.zero_faces = {}
        run.deadline = None if seconds is None else time.perf_counter() + seconds
        state = run.settle(sub, depth)
        t = run.tally
        return _Piece(
            state,
            tuple(t.failing),
            tuple(t.undecided),
            tuple(t.outside),
            t.dropped_tuple(),
            t.witness,
            t.tight,
            t.boxes,
            run.exhausted,
            t.inside,
            t.undefined,
        )

    # -- evaluation ------------------------------------------------------------
    def enclose(self, sub: SubBox) -> tuple[_Iv, list[_Iv | None] | None]:
        """Natural enclosure ∩ mean-value form, and the gradient enclosure (``None``:
        no gradient enclosure on this sub-box)."""
        p = self.budget.bits
        xs = _sub_ivs(sub, p)
        g: list[_Iv | None] | None
        if self.grad_progs is None:
            val, g = self.prog.run(xs, True)
        else:
            val, _ = self.prog.run(xs, False)
            try:
                g = [None if gp is None else gp.run(xs, False)[0] for gp in self.grad_progs]
            except _Unresolved:
                g = None
        if g is not None:
            val = _mean_value(self.prog, sub, xs, val, g, p)
        return val, g

    def region_of(self, sub: SubBox) -> str:
        """``"in"`` (every premise certified on the whole sub-box), ``"out"`` (some
        premise certified to fail on all of it) or ``"mixed"``."""
        if not self.premises:
            return "in"
        if all(lo == hi for lo, hi in sub.bounds):
            r = self.region_at(tuple(lo for lo, _ in sub.bounds))
            return "mixed" if r == "unknown" else r
        p = self.budget.bits
        xs = _sub_ivs(sub, p)
        status = "in"
        for prog, strict in self.premise_progs:
            try:
                v, g = prog.run(xs, True)
                if g is not None:
                    v = _mean_value(prog, sub, xs, v, g, p)
            except _Unresolved:
                status = "mixed"
                continue
            if (mpf_cmp(v[1], fzero) <= 0) if strict else _negative(v):
                return "out"
            if not (_positive(v) if strict else _nonneg(v)):
                status = "mixed"
        return status

    def region_face(self, sub: SubBox) -> SubBox | None:
        """A face of ``sub`` that contains its whole part in the region, when a
        premise ``g >= 0`` has ``g <= 0`` on ``sub`` and a partial derivative of
        certified strict sign: ``g`` then vanishes at most on the face where it is
        largest (``x_i = lo_i`` when ``∂_i g < 0``), so the rest of ``sub`` is outside
        (the region's boundary on a bisection point: ``x <= 1`` on ``[1, 2]``)."""
        p = self.budget.bits
        xs = _sub_ivs(sub, p)
        for (prog, strict), (g_expr, _) in zip(self.premise_progs, self.premises, strict=True):
            if strict or not g_expr.free_symbols:
                continue
            try:
                v, grad = prog.run(xs, True)
                if grad is not None:
                    v = _mean_value(prog, sub, xs, v, grad, p)
            except _Unresolved:
                continue
            if grad is None or not _nonpos(v):
                continue
            for i, (lo, hi) in enumerate(sub.bounds):
                gi = grad[i]
                if lo == hi or gi is None:
                    continue
                at = lo if _negative(gi) else hi if _positive(gi) else None
                if at is not None:
                    return SubBox(sub.bounds[:i] + ((at, at),) + sub.bounds[i + 1 :])
        return None

    # -- exact decisions -------------------------------------------------------
    def exact_at(self, values: Sequence[Fraction]) -> str:
        """``lhs <= rhs`` at an exact point: ``"fails"``, ``"holds"``, ``"tight"``
        (holds with equality), ``"open"`` (undecided at the precision limit) or
        ``"undefined"`` (a side has no real value there: a pole, ...)."""
        pt = self.box.point(values)
        try:
            c = decide_le(self.lhs.xreplace(pt), self.rhs.xreplace(pt))
        except (VerifierError, ZeroDivisionError, TypeError, ValueError, ArithmeticError):
            return "undefined"
        if c.verdict is Verdict.VIOLATED:
            return "fails"
        if c.verdict is Verdict.HOLDS:
            return "tight" if c.tight else "holds"
        return "open"

    def region_at(self, values: Sequence[Fraction]) -> str:
        """Every premise decided exactly at a point: ``"in"``, ``"out"`` or
        ``"unknown"`` (undecided, or undefined there)."""
        pt = self.box.point(values)
        unknown = False
        for g, strict in self.premises:
            try:
                v = g.xreplace(pt)
                c = decide_le(v, 0) if strict else decide_le(0, v)
            except (VerifierError, ZeroDivisionError, TypeError, ValueError, ArithmeticError):
                unknown = True
                continue
            if c.verdict is Verdict.UNDECIDED:
                unknown = True
            elif (c.verdict is Verdict.HOLDS) if strict else (c.verdict is Verdict.VIOLATED):
                return "out"
        return "unknown" if unknown else "in"

    def inner_point(self, sub: SubBox) -> tuple[Fraction, ...]:
        return tuple(_simple_between(lo, hi) if lo < hi else lo for lo, hi in sub.bounds)

    def witness_points(self, sub: SubBox) -> list[tuple[Fraction, ...]]:
        """Candidate witnesses in a sub-box proved to fail everywhere (its enclosure is
        over the closed sub-box): its corners (at most 16) and a point inside, those
        with the smallest denominators first.  A simple witness keeps the exact
        arithmetic of its certificate small (a parameter in an exponent with
        denominator 256 is a 256th root there)."""
        axes = [(lo, hi) if lo < hi else (lo,) for lo, hi in sub.bounds]
        points = [*itertools.islice(itertools.product(*axes), 16), self.inner_point(sub)]
        return sorted(points, key=lambda q: sum(x.denominator.bit_length() for x in q))

    def is_witness(self, q: Sequence[Fraction], inside: bool) -> bool:
        """``lhs > rhs`` at ``q`` exactly (and, unless ``inside``, every premise holds
        there exactly)."""
        if self.exact_at(q) != "fails":
            return False
        return inside or self.region_at(q) == "in"

    def try_witness(self, q: Sequence[Fraction], inside: bool) -> bool:
        """Record ``q`` as the witness when :meth:`is_witness`."""
        if not self.is_witness(q, inside):
            return False
        if self.tally.witness is None:
            self.tally.witness = self.box.point(q)
        return True

    def last_points(self, t: _Tally) -> None:
        """Exact points tried when the search left sub-boxes open: the corners of the
        box (at most 256; a jump of floor/ceil may fail on a face only) and a point
        inside each of the first 32 undecided sub-boxes.  The first at which the
        inequality fails (inside the premises) becomes the witness; the first at which
        a side is undefined is recorded."""
        axes = [(lo, hi) if lo < hi else (lo,) for lo, hi in self.root.bounds]
        points = itertools.chain(
            itertools.islice(itertools.product(*axes), 256),
            (self.inner_point(sub) for sub in t.undecided[:32]),
        )
        for q in points:
            r = self.exact_at(q)
            if r == "undefined" and t.undefined is None:
                t.undefined = self.box.point(q)
            if r == "fails" and (not self.premises or self.region_at(q) == "in"):
                t.witness = self.box.point(q)
                return

    def on_root_face(self, sub: SubBox) -> bool:
        """``sub`` lies in a face of the box (some parameter fixed at an end of its
        range): where an attained bound typically sits."""
        fixed = [
            (lo, r) for (lo, hi), r in zip(sub.bounds, self.root.bounds, strict=True) if lo == hi
        ]
        return bool(fixed) and all(lo in r for lo, r in fixed)

    def face_vanishes(self, sub: SubBox) -> bool:
        key = tuple((lo if lo == hi else None) for lo, hi in sub.bounds)
        hit = self.zero_faces.get(key)
        if hit is None:
            fixed = {
                s: _rat(lo)
                for s, (lo, hi) in zip(self.box.symbols, sub.bounds, strict=True)
                if lo == hi
            }
            free = [s for s, (lo, hi) in zip(self.box.symbols, sub.bounds, strict=True) if lo < hi]
            hit = identically_zero(self.f.xreplace(fixed), free)
            self.zero_faces[key] = hit
        return hit

    # -- the recursion -----------------------------------------------------------
    def out_of_budget(self) -> bool:
        t = self.tally
        if t.witness is not None:
            if t.witnessed_at is None:
                t.witnessed_at = t.boxes
            if t.boxes >= t.witnessed_at + self.budget.after_violation:
                self.exhausted = (
                    f"the search stopped {self.budget.after_violation} sub-boxes after the "
                    f"violation was proved{self.scope} (BoxBudget.after_violation)"
                )
                return True
        if t.boxes >= self.max_boxes:
            self.exhausted = f"the budget of {self.max_boxes} sub-boxes{self.scope} ran out"
            return True
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.exhausted = f"the time budget of {self.budget.seconds} s ran out"
            return True
        return False

    def settle(self, sub: SubBox, depth: int, reduce: bool = True, inside: bool = False) -> str:
        """Decide ``f >= 0`` on ``sub`` (on its part in the region of the premises);
        record failing / undecided / outside sub-boxes in the tally.  Returns
        ``"holds"``, ``"fails"`` (some failure found inside) or ``"open"``
        (something undecided, nothing failing).  ``inside``: ``sub`` is known to lie
        in the region."""
        t = self.tally
        if self.out_of_budget():
            t.add("undecided", sub)
            return "open"
        t.boxes += 1
        status = "in" if inside else self.region_of(sub)
        if status == "out":
            t.add("outside", sub)
            return "holds"
        if status == "in":
            t.inside = True
        free = [i for i, (lo, hi) in enumerate(sub.bounds) if lo < hi]
        if not free:
            q = tuple(lo for lo, _ in sub.bounds)
            r = self.exact_at(q) if status == "in" else "open"
            if r == "fails":
                if t.witness is None:
                    t.witness = self.box.point(q)
                return "fails"
            if r in ("open", "undefined"):
                if r == "undefined" and t.undefined is None:
                    t.undefined = self.box.point(q)
                t.add("undecided", sub)
                return "open"
            t.tight |= r == "tight"
            return "holds"
        try:
            val, g = self.enclose(sub)
        except _Unresolved:
            val, g = None, None
        if val is not None:
            if _nonneg(val):
                if _nonpos(val) and status == "in":  # [0, 0]: rhs = lhs on the sub-box
                    t.tight = True
                return "holds"
            if _negative(val) and status == "in":
                t.add("failing", sub)
                if t.witness is None:
                    any(self.try_witness(q, True) for q in self.witness_points(sub))
                return "fails"
        if status == "mixed":
            face = self.region_face(sub)
            if face is not None:
                # the rest of the sub-box is outside the region
                t.add("outside", sub)
                return self.settle(face, depth, reduce)
        if status == "in" and g is not None and reduce:
            for i in free:
                gi = g[i]
                lo, hi = sub.bounds[i]
                at = None
                if gi is None or _nonneg(gi):
                    at = lo
                elif _nonpos(gi):
                    at = hi
                if at is None:
                    continue
                face = SubBox(sub.bounds[:i] + ((at, at),) + sub.bounds[i + 1 :])
                mark = t.mark()
                r = self.settle(face, depth, True, True)
                if r == "holds":
                    return "holds"
                # the face fails somewhere or stayed open: decide the sub-box itself
                t.rollback(mark)
                return (
                    self.settle(sub, depth, False, True)
                    if r == "fails"
                    else self._split(sub, depth, g, free, status)
                )
        if val is not None and self.on_root_face(sub) and self.face_vanishes(sub):
            t.tight |= status == "in"
            return "holds"
        return self._split(sub, depth, g, free, status)

    def _split(
        self, sub: SubBox, depth: int, g: list[_Iv | None] | None, free: list[int], status: str
    ) -> str:
        t = self.tally
        if depth >= self.budget.max_depth:
            # last resort: an exact check at a rational point inside
            found = self.try_witness(self.inner_point(sub), status == "in")
            if not self.exhausted:
                self.exhausted = f"the depth budget of {self.budget.max_depth} bisections ran out"
            t.add("undecided", sub)
            return "fails" if found else "open"
        # the coordinate contributing most to the mean-value width (relative widths
        # without a gradient)
        best, best_w = free[0], -1.0
        for i in free:
            lo, hi = sub.bounds[i]
            w = float(hi - lo)
            if g is not None and g[i] is not None:
                gi = g[i]
                w *= max(abs(to_float(gi[0])), abs(to_float(gi[1])))  # type: ignore[index]
            else:
                rlo, rhi = self.root.bounds[i]
                w /= float(rhi - rlo)
            if w > best_w:
                best, best_w = i, w
        lo, hi = sub.bounds[best]
        m = _simple_between(lo, hi)
        left = SubBox(sub.bounds[:best] + ((lo, m),) + sub.bounds[best + 1 :])
        right = SubBox(sub.bounds[:best] + ((m, hi),) + sub.bounds[best + 1 :])
        inside = status == "in"
        a = self.settle(left, depth + 1, True, inside)
        b = self.settle(right, depth + 1, True, inside)
        if "fails" in (a, b):
            return "fails"
        if "open" in (a, b):
            return "open"
        return "holds"

    def find_region_point(self, max_boxes: int) -> bool | None:
        """Whether the region of the premises has a point: ``True`` (a sub-box
        certified inside, or a point where every premise holds exactly), ``False``
        (every sub-box certified outside: the region is empty), ``None`` (neither
        within ``max_boxes`` sub-boxes)."""
        if not self.premises:
            return True
        stack = [(self.root, 0)]
        count = 0
        left_open = False
        while stack:
            sub, depth = stack.pop()
            count += 1
            if count > max_boxes or (
                self.deadline is not None and time.perf_counter() > self.deadline
            ):
                return None
            status = self.region_of(sub)
            if status == "in":
                return True
            if status == "out":
                continue
            if self.region_at(self.inner_point(sub)) == "in":
                return True
            free = [i for i, (lo, hi) in enumerate(sub.bounds) if lo < hi]
            if not free or depth >= self.budget.max_depth:
                left_open = True
                continue
            i = max(
                free,
                key=lambda j: (
                    (sub.bounds[j][1] - sub.bounds[j][0])
                    / (self.root.bounds[j][1] - self.root.bounds[j][0])
                ),
            )
            lo, hi = sub.bounds[i]
            m = _simple_between(lo, hi)
            stack.append((SubBox(sub.bounds[:i] + ((lo, m),) + sub.bounds[i + 1 :]), depth + 1))
            stack.append((SubBox(sub.bounds[:i] + ((m, hi),) + sub.bounds[i + 1 :]), depth + 1))
        return None if left_open else False


# ---------------------------------------------------------------------------
# the decision
# ---------------------------------------------------------------------------


def _premise_list(where: Any) -> list[Any]:
    if where is None:
        return []
    if isinstance(where, (sp.Basic, str)) or not isinstance(where, Iterable):
        where = [where]
    out: list[Any] = []
    for p in where:
        if isinstance(p, sp.And):
            out.extend(p.args)
        else:
            out.append(p)
    return out


def _premise(p: Any) -> _Premise:
    """A premise as ``(g, strict)``: ``g >= 0`` (``g > 0`` when strict)."""
    if p is sp.true or p is True:
        return sp.Integer(0), False
    if p is sp.false or p is False:
        return sp.Integer(-1), False
    if isinstance(p, sp.core.relational.Relational):
        if isinstance(p, (sp.GreaterThan, sp.StrictGreaterThan)):
            g, strict = p.lhs - p.rhs, isinstance(p, sp.StrictGreaterThan)
        elif isinstance(p, (sp.LessThan, sp.StrictLessThan)):
            g, strict = p.rhs - p.lhs, isinstance(p, sp.StrictLessThan)
        else:
            raise InvalidParameter(
                f"premise {p}: only <=, <, >=, > (sympy Le, Lt, Ge, Gt) restrict a box"
            )
        return _exact_premise(g, strict, str(p))
    if isinstance(p, str):
        raise InvalidParameter(
            f"premise {p!r} is text; give a sympy expression g (meaning g >= 0) or a relational"
        )
    return _exact_premise(p, False, repr(p))


def _exact_premise(g: Any, strict: bool, named: str) -> _Premise:
    """``(exact(g), strict)``; an inexact ``g`` is refused naming the premise as ``named``."""
    try:
        return exact(g), strict
    except InvalidParameter as err:
        raise InvalidParameter(f"premise {named}: {err}") from None


def _premise_text(g: sp.Expr, strict: bool) -> str:
    return f"{g} {'>' if strict else '>='} 0"


def decide_on_box(
    lhs: Any,
    rhs: Any,
    box: Box | Mapping[Any, Any],
    budget: BoxBudget | None = None,
    *,
    where: Any = None,
) -> BoxDecision:
    """Decide ``lhs <= rhs`` for every point of ``box`` (module docstring), or of the
    part of it where the premises ``where`` hold.

    Parameters
    ----------
    lhs, rhs : sympy.Expr
        Exact expressions whose free symbols are parameters of the box.
    box : Box or mapping
        ``{symbol: (lo, hi)}`` with rational ends, inside each symbol's assumptions.
    budget : BoxBudget, optional
        Depth, number of sub-boxes, seconds, working precision, number of parameters
        (default: the budget of :func:`box_budget`, else :data:`DEFAULT_BUDGET`).
    where : expression, relational or sequence of them, optional
        Premises restricting the box: an expression ``g`` means ``g >= 0``; sympy
        ``Le``/``Lt``/``Ge``/``Gt`` (``x + y <= 2``) and ``And`` of them are taken as
        they read.

    Returns
    -------
    BoxDecision

    Raises
    ------
    InvalidParameter
        A free symbol that is not a parameter of the box, a malformed box, a range
        outside a symbol's assumptions, a box of more than ``budget.max_parameters``
        parameters, or a malformed premise.
    UnsupportedExpression
        A function the enclosures do not cover.
    """
    b = Box.of(box)
    budget = _BUDGET.get() if budget is None else budget
    if not isinstance(budget, BoxBudget):
        raise InvalidParameter(f"budget must be a BoxBudget, got {budget!r}")
    if len(b.symbols) > budget.max_parameters:
        raise InvalidParameter(
            f"a box of {len(b.symbols)} parameters is over the limit of "
            f"{budget.max_parameters} (BoxBudget(max_parameters=...), or verifier check "
            f"--max-box-parameters N, raises it; the exact rewrite grows exponentially with "
            f"the number of parameters)"
        )
    lhs_e, rhs_e = exact(lhs), exact(rhs)
    premises = [_premise(p) for p in _premise_list(where)]
    b.check_assumptions(
        lhs_e.free_symbols | rhs_e.free_symbols | {s for g, _ in premises for s in g.free_symbols}
    )
    lhs_e, rhs_e = b.bind(lhs_e), b.bind(rhs_e)
    premises = [(b.bind(g), strict) for g, strict in premises]
    extra = (
        lhs_e.free_symbols | rhs_e.free_symbols | {s for g, _ in premises for s in g.free_symbols}
    ) - set(b.symbols)
    if extra:
        raise InvalidParameter(
            f"symbol(s) {', '.join(sorted(map(str, extra)))} are not parameters of the box "
            f"({', '.join(map(str, b.symbols))})"
        )
    return _decide_cached(lhs_e, rhs_e, b, budget, tuple(premises))


@functools.lru_cache(maxsize=1024)
def _decide_cached(
    lhs: sp.Expr,
    rhs: sp.Expr,
    box: Box,
    budget: BoxBudget,
    premises: tuple[_Premise, ...] = (),
) -> BoxDecision:
    t0 = time.perf_counter()
    texts = tuple(_premise_text(g, s) for g, s in premises)
    # both sides defined on the whole box: the exact route and the identities may be
    # used (rhs - lhs may have lost a pole of lhs and rhs, e.g. 1/x - 1/x)
    defined = _certify_defined((lhs, rhs), box, budget.bits)
    region: _Search | None = None

    def region_search() -> _Search:
        nonlocal region
        if region is None:
            region = _Search(lhs, rhs, box, budget, sp.Integer(0), premises)
        return region

    def everywhere(note: str, **kw: Any) -> BoxDecision:
        """``rhs - lhs >= 0`` on the whole box, proved: on the region too."""
        nonempty = region_search().find_region_point(budget.max_boxes) if premises else True
        if nonempty is False:
            note = _VACUOUS
        elif nonempty is None:
            note += "; no point of the region of the premises was found (it may be empty)"
        return BoxDecision(
            Verdict.HOLDS,
            box,
            seconds=time.perf_counter() - t0,
            note=note,
            outside=(box.whole(),) if nonempty is False else (),
            premises=texts,
            region_nonempty=nonempty,
            **kw,
        )

    if defined and lhs == rhs:
        return everywhere(_EVERYWHERE, identically_equal=True, tight=True)
    f = rhs - lhs
    guards: tuple[sp.Expr, ...] = () if defined else (lhs, rhs)
    shifted = _shifted(lhs, rhs, box) if defined else None
    if shifted is not None:
        if shifted.numerator.is_zero:
            return everywhere(_EVERYWHERE, identically_equal=True, tight=True)
        den = _coefficient_sign(shifted.denominator)
        if den != 0:
            num = shifted.numerator if den > 0 else -shifted.numerator
            if _nonnegative_coefficients(num):
                return everywhere(
                    "rhs - lhs = N/D with every coefficient of N and D nonnegative in "
                    "u_i = t_i - r_i >= 0 (t_i the exponentials of the parameters, r_i "
                    "their rational lower bounds on the box): it holds for every larger "
                    "parameter too",
                    tight=_vanishes_in_box(num, shifted, box) and not premises,
                )
            f = _polynomial_in_parameters(num, shifted)
    first = min(budget.max_boxes, budget.serial_boxes)
    search = _Search(
        lhs, rhs, box, dataclasses.replace(budget, max_boxes=first), f, premises, guards
    )
    state = search.settle(search.root, 0)
    t = search.tally
    if search.exhausted.startswith("the budget of") and budget.max_boxes > budget.serial_boxes:
        # the depth-first search ran out of sub-boxes: split the box into pieces
        state, t, search.exhausted = _decide_in_pieces(
            search, budget, t.boxes, lhs, rhs, f, premises, guards
        )
    failing_n = len(t.failing) + t.dropped.get("failing", (0, 0))[0]
    if state != "holds" and not failing_n and t.witness is None:
        # enclosures keep straddling 0: an identity that the exponential rewrite above
        # could not see (tried last: symbolic simplification is slow)
        if defined and shifted is None and identically_zero(f, box.symbols):
            return everywhere(_EVERYWHERE, identically_equal=True, tight=True)
    if state != "holds" and not failing_n and t.witness is None:
        search.last_points(t)
    if state == "fails" or failing_n or t.witness is not None:
        verdict = Verdict.VIOLATED
    elif state == "open" or t.undecided or "undecided" in t.dropped:
        verdict = Verdict.UNDECIDED
    else:
        verdict = Verdict.HOLDS
    notes = []
    undecided_n = len(t.undecided) + t.dropped.get("undecided", (0, 0))[0]
    if undecided_n:
        why = f": {search.exhausted}" if search.exhausted else ""
        notes.append(f"{undecided_n} sub-boxes undecided{why}")
    if t.undefined is not None:
        notes.append(
            "lhs or rhs is undefined at "
            + ", ".join(f"{s} = {v}" for s, v in t.undefined.items())
            + " (a pole, or a function outside its domain): no verdict there"
        )
    nonempty: bool | None = True
    if premises:
        outside = (
            sum((s.volume_share(box) for s in t.outside), Fraction(0))
            + t.dropped.get("outside", (0, Fraction(0)))[1]
        )
        if verdict is Verdict.VIOLATED or t.inside:
            nonempty = True
        elif outside == 1:
            nonempty = False
            notes.insert(0, _VACUOUS)
        else:
            nonempty = search.find_region_point(budget.max_boxes)
            if nonempty is None:
                notes.append("no point of the region of the premises was found (it may be empty)")
    return BoxDecision(
        verdict,
        box,
        tuple(t.failing),
        tuple(t.undecided),
        t.witness,
        False,
        t.tight,
        t.boxes,
        time.perf_counter() - t0,
        "; ".join(notes),
        outside=tuple(t.outside),
        premises=texts,
        region_nonempty=nonempty,
        undefined_at=t.undefined,
        dropped=t.dropped_tuple(),
    )


_EVERYWHERE = "rhs - lhs vanishes identically: the bound is attained everywhere"
_VACUOUS = "vacuous: no point of the box satisfies the premises (the region is empty)"


# ---------------------------------------------------------------------------
# pieces: one decision spread over worker processes or a dask cluster
# ---------------------------------------------------------------------------

#: Where the pieces of a decision run (:func:`sub_boxes_on`); ``None``: here.
_RUNNER: contextvars.ContextVar[Runner | None] = contextvars.ContextVar(
    "verifier_boxes_runner", default=None
)


@contextlib.contextmanager
def sub_boxes_on(runner: Runner | None) -> Iterator[None]:
    """Decide the pieces of the box decisions made inside the ``with`` block as tasks
    on ``runner`` (:mod:`verifier.runtime.executors`: local worker processes or a dask
    cluster; ``None``: in this process).  The decisions are the same with any runner
    and any number of workers (module docstring, "Pieces")."""
    token = _RUNNER.set(runner)
    try:
        yield
    finally:
        _RUNNER.reset(token)


def _split_axes(root: SubBox, levels: int) -> list[list[tuple[Fraction, Fraction]]]:
    """The pieces' intervals along each parameter: ``levels`` bisections dealt to the
    free parameters in turn, each interval cut at :func:`_simple_between` (the point
    :meth:`_Search._split` would choose), so the pieces form a grid."""
    free = [i for i, (lo, hi) in enumerate(root.bounds) if lo < hi]
    cuts = [0] * len(root.bounds)
    for j in range(levels):
        cuts[free[j % len(free)]] += 1
    axes = []
    for (lo, hi), n in zip(root.bounds, cuts, strict=True):
        parts = [(lo, hi)]
        for _ in range(n):
            parts = [
                q
                for a, b in parts
                for q in ((a, _simple_between(a, b)), (_simple_between(a, b), b))
            ]
        axes.append(parts)
    return axes


@functools.lru_cache(maxsize=4)
def _worker_search(payload: bytes) -> _Search:
    """The search of a decision, rebuilt once per worker process from its payload."""
    lhs, rhs, f, box, budget, premises, guards = portable_loads(payload)
    return _Search(lhs, rhs, box, budget, f, premises, guards)


def _settle_piece(
    payload: bytes,
    bounds: tuple[tuple[Fraction, Fraction], ...],
    depth: int,
    max_boxes: int,
    seconds: float | None,
) -> _Piece:
    """One piece of a decision (a task: module-level, its arguments picklable)."""
    return _worker_search(payload).piece(SubBox(bounds), depth, max_boxes, seconds)


def _decide_in_pieces(
    search: _Search,
    budget: BoxBudget,
    spent: int,
    lhs: sp.Expr,
    rhs: sp.Expr,
    f: sp.Expr,
    premises: tuple[_Premise, ...] = (),
    guards: tuple[sp.Expr, ...] = (),
) -> tuple[str, _Tally, str]:
    """Decide ``f >= 0`` on the box of ``search`` in ``2**levels`` pieces, on the runner
    of :func:`sub_boxes_on` or here, in rounds: every piece still open for lack of
    sub-boxes is settled again from its start with an equal share of the sub-boxes
    left (``max_boxes`` minus the first depth-first pass, ``spent``, and the earlier
    rounds), until every piece is settled or a share would not grow.  The pieces'
    last findings are merged in piece order.  Returns the state, the tally and why a
    piece stopped (the first)."""
    levels = min(budget.split_levels, budget.max_depth)
    root = search.root
    if not any(lo < hi for lo, hi in root.bounds):  # pragma: no cover - a point never runs out
        return "open", search.tally, search.exhausted
    bounds = list(itertools.product(*_split_axes(root, levels)))
    deadline = search.deadline
    runner = _RUNNER.get()
    payload = (
        None
        if runner is None
        else portable_dumps((lhs, rhs, f, search.box, budget, premises, guards))
    )

    def seconds() -> float | None:  # what is left of the time budget, as a task starts
        return None if deadline is None else deadline - time.perf_counter()

    def settle(todo: list[int], share: int) -> Iterator[_Piece]:
        if runner is None:
            return (search.piece(SubBox(bounds[i]), levels, share, seconds()) for i in todo)
        tasks = ((payload, bounds[i], levels, share, seconds()) for i in todo)
        return ordered_map(runner, _settle_piece, tasks)

    last: dict[int, _Piece] = {}
    left, todo, share, total = budget.max_boxes - spent, list(range(len(bounds))), 0, spent
    witnessed = None  # ``total`` after the round in which a witness was first found
    while todo and (not last or left // len(todo) > share):  # at least one round
        if witnessed is not None and total - witnessed >= budget.after_violation:
            break  # proved violated, and the failing share measured as far as asked
        share = max(1, left // len(todo))
        for i, p in zip(todo, settle(todo, share), strict=True):  # streamed in order
            last[i] = p
            left -= p.boxes
            total += p.boxes
        if witnessed is None and any(p.witness is not None for p in last.values()):
            witnessed = total
        todo = [i for i in todo if last[i].exhausted.startswith("the budget of")]
    t = _Tally(search.box, budget.max_stored, boxes=total)
    states: set[str] = set()
    exhausted = ""
    for i in range(len(bounds)):  # in piece order: the same merge whatever ran them
        p = last[i]
        states.add(p.state)
        for kind in _KINDS:
            for s in getattr(p, kind):
                t.add(kind, s)
        for kind, n, v in p.dropped:
            t.add_dropped(kind, n, v)
        if t.witness is None:
            t.witness = p.witness
        if t.undefined is None:
            t.undefined = p.undefined
        t.tight |= p.tight
        t.inside |= p.inside
        exhausted = exhausted or p.exhausted
    state = "fails" if "fails" in states else "open" if "open" in states else "holds"
    return state, t, exhausted


def _polynomial_in_parameters(num: sp.Poly, shifted: _Shifted) -> sp.Expr:
    """The numerator ``N`` as an expression in the parameters, term by term in
    ``u_i = t_i(s_i) - r_i`` (each ``u_i >= 0`` on the box, so the enclosure of a term
    is exact up to rounding and only terms of opposite signs lose precision)."""
    form = shifted.form
    us = [form.t_of(i) - r for i, r in enumerate(shifted.shifts)]
    terms = []
    for monom, c in num.terms():
        term = c
        for u, k in zip(us, monom, strict=True):
            if k:
                term *= u**k
        terms.append(term)
    return sp.Add(*terms)


def decide_all_on_box(
    pairs: Iterable[tuple[Any, Any]],
    box: Box | Mapping[Any, Any],
    budget: BoxBudget | None = None,
    *,
    where: Any = None,
) -> list[BoxDecision]:
    """:func:`decide_on_box` for every pair (duplicates decided once)."""
    b = Box.of(box)
    seen: dict[tuple[sp.Expr, sp.Expr], BoxDecision] = {}
    out = []
    todo = list(pairs)
    with task(f"inequalities on {b}", total=len(todo)) as bar:
        for lhs, rhs in todo:
            key = (exact(lhs), exact(rhs))
            if key not in seen:
                seen[key] = decide_on_box(key[0], key[1], b, budget, where=where)
            out.append(seen[key])
            bar.advance()
    return out


def region_fractions(
    decisions: Sequence[BoxDecision], box: Box, max_cells: int = 200000
) -> tuple[Fraction, Fraction]:
    """Shares of ``box``'s volume that are undecided and proved failing for the
    conjunction of ``decisions``: a point fails when some inequality is proved to fail
    on a sub-box containing it, and is undecided when it is not failing and some
    inequality left it undecided.  Exact (a grid on every sub-box end) when the grid
    has at most ``max_cells`` cells and every decision kept all its sub-boxes, else
    the sums of the volumes (upper bounds).

    >>> x = sp.Symbol("x")
    >>> d = decide_on_box(x, sp.Rational(1, 2), {x: (0, 1)})
    >>> region_fractions([d], d.box)[1] > 0
    True
    """
    fails = [s for d in decisions for s in d.failing]
    opens = [s for d in decisions for s in d.undecided]
    truncated = any(d.dropped for d in decisions)
    if not opens and not fails and not truncated:
        return Fraction(0), Fraction(0)
    dims = [i for i, (lo, hi) in enumerate(zip(box.lows, box.highs, strict=True)) if lo < hi]
    cuts = []
    for i in dims:
        pts = {box.lows[i], box.highs[i]}
        for s in fails + opens:
            pts.update(s.bounds[i])
        cuts.append(sorted(pts))
    cells = math.prod(len(c) - 1 for c in cuts)
    if cells > max_cells or truncated:
        und = sum((d.undecided_fraction for d in decisions), Fraction(0))
        bad = sum((d.failing_fraction for d in decisions), Fraction(0))
        return min(und, Fraction(1)), min(bad, Fraction(1))

    def cells_of(s: SubBox) -> Iterator[tuple[int, ...]]:
        """The grid cells inside ``s`` (none for a sub-box of zero volume)."""
        ranges = []
        for k, i in enumerate(dims):
            lo, hi = s.bounds[i]
            ranges.append(range(bisect.bisect_left(cuts[k], lo), bisect.bisect_left(cuts[k], hi)))
        return itertools.product(*ranges)

    marks: dict[tuple[int, ...], bool] = {}  # cell -> failing (True) or undecided
    for s in fails:
        for cell in cells_of(s):
            marks[cell] = True
    for s in opens:
        for cell in cells_of(s):
            marks.setdefault(cell, False)
    full = math.prod(box.highs[i] - box.lows[i] for i in dims)
    und = bad = Fraction(0)
    for cell, failing in marks.items():
        vol = math.prod(cuts[k][j + 1] - cuts[k][j] for k, j in enumerate(cell))
        if failing:
            bad += vol
        else:
            und += vol
    return und / full, bad / full

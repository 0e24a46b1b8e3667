"""Working precision private to one computation (no process-global state).

mpmath's module-level contexts ``mpmath.iv`` (intervals) and ``mpmath.mp`` (floats)
are process globals: their ``prec`` is one number shared by every thread.  Setting
it and setting it back (``old = iv.prec; iv.prec = bits; ...; iv.prec = old``, or
``mpmath.workprec``) is correct only while one computation runs at a time: a second
thread that sets its own precision in between changes the first one's working
precision, and the first one's ``finally`` then resets the second's.  Results stay
sound (outward rounding holds at any precision) but they change with the timing:
an enclosure, a term count, or a verdict reached at one precision and not another.

This module hands out contexts instead.  :func:`interval_context` yields an mpmath
interval context (``mpmath.ctx_iv.MPIntervalContext``) at ``bits`` of precision that
no other thread and no other call uses while the ``with`` block runs;
:func:`real_context` does the same for floating point (``mpmath.ctx_mp.MPContext``).
Building a context takes about 0.2 ms, so each thread keeps the contexts it has
built and reuses the idle ones: a call takes an idle context of its thread (building
one only when all are in use, e.g. by an enclosing call), sets its precision, and
gives it back on exit.

Rules for the numbers a context makes (``ctx.mpf(...)``, ``ctx.exp(x)``, ...):

* they belong to that context: mpmath runs an operation at the precision of its left
  operand's context (``x + y`` uses ``x``'s, ``1 - y`` uses ``y``'s) and converts
  the other operand, so a computation must make all of its numbers with the context
  it was given (never with ``mpmath.iv`` or ``mpmath.mpf``);
* they must not outlive the ``with`` block: the context goes back to the pool and
  the next call sets another precision.  Turn results into exact values first
  (:meth:`verifier.arithmetic.exact.Enclosure.from_iv`, ``float``, raw endpoints).

Examples
--------
>>> with interval_context(64) as ctx:
...     third = ctx.mpf(1) / 3
...     print(ctx.prec, third.a < third.b)
64 True
>>> with real_context(136) as ctx:
...     print(ctx.dps, ctx.mpf(1) / 3)
40 0.3333333333333333333333333333333333333333
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from fractions import Fraction
from typing import Any

from mpmath.ctx_iv import MPIntervalContext
from mpmath.ctx_mp import MPContext

from ..errors import InvalidParameter, UnsupportedExpression

__all__ = ["interval_context", "real_context", "raw_fraction"]

#: per thread, ``pools``: the idle contexts of each kind (``{type: [context, ...]}``)
_idle = threading.local()


def _pool(kind: type) -> list[Any]:
    try:
        return _idle.pools.setdefault(kind, [])
    except AttributeError:  # the thread's first call
        _idle.pools = {kind: []}
        return _idle.pools[kind]


class _Borrowed(AbstractContextManager[Any]):
    """Takes an idle context of ``kind`` of this thread (building one when there is
    none) and sets it to ``bits`` on entry; gives it back on exit.  A class rather
    than a generator: it is entered once per enclosure, so it is kept cheap."""

    __slots__ = ("_kind", "_bits", "_taken")

    def __init__(self, kind: type, bits: int) -> None:
        if isinstance(bits, bool) or not isinstance(bits, int) or bits < 2:
            raise InvalidParameter(f"working precision must be an integer >= 2 bits, got {bits!r}")
        self._kind = kind
        self._bits = bits
        self._taken: tuple[Any, list[Any]] | None = None

    def __enter__(self) -> Any:
        if self._taken is not None:
            raise RuntimeError("a private precision context cannot be entered twice")
        pool = _pool(self._kind)
        ctx = pool.pop() if pool else self._kind()
        ctx.prec = self._bits
        self._taken = (ctx, pool)
        return ctx

    def __exit__(self, *exc_info: object) -> None:
        assert self._taken is not None
        ctx, pool = self._taken
        self._taken = None
        pool.append(ctx)


def interval_context(bits: int) -> AbstractContextManager[MPIntervalContext]:
    """An mpmath interval context at ``bits`` of precision, private to this call.

    Parameters
    ----------
    bits : int
        Working precision in bits (at least 2).

    Yields
    ------
    mpmath.ctx_iv.MPIntervalContext
        A context used by no other thread or call until the ``with`` block exits;
        its intervals must not be used after that, and its settings other than
        the precision must not be changed (see the module notes).

    Raises
    ------
    InvalidParameter
        ``bits`` is not an integer of at least 2.
    """
    return _Borrowed(MPIntervalContext, bits)


def real_context(bits: int) -> AbstractContextManager[MPContext]:
    """An mpmath floating-point context at ``bits`` of precision, private to this call
    (rounding to nearest).  See :func:`interval_context`."""
    return _Borrowed(MPContext, bits)


def raw_fraction(raw: tuple[int, int, int, int]) -> Fraction:
    """The exact rational value of a raw mpmath float ``(sign, mantissa, exponent,
    bits)`` (an ``mpf``'s ``_mpf_``, an end of an interval's ``_mpi_``): the ends of a
    context's numbers turned into exact values before the context is given back."""
    sign, man, exp, _ = raw
    if not man:
        if exp:
            raise UnsupportedExpression("an enclosure end is not a finite number")
        return Fraction(0)
    v = Fraction(int(man) << exp) if exp >= 0 else Fraction(int(man), 1 << -exp)
    return -v if sign else v

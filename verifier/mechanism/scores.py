"""Scores of outputs: one rule for every selection algorithm.

Selection algorithms (``best_of``, Liu & Talwar's and Talwar's selectors, the selection
programs of :mod:`verifier.programs`) rank
candidates by a numeric score read from each output.  *Where* the score sits in an
output is the algorithm's business (``best_of`` reads the first component of a
tuple, the ``lt_*`` and ``talwar_*`` transformers the component their ``score``
parameter names); *what* counts as a score is decided here, once:

* an integer (not a boolean),
* an exact rational (:class:`fractions.Fraction`, a sympy ``Rational``),
* text holding an exact rational, such as ``"3"``, ``"-1/2"`` or ``"0.25"`` (spec
  files write outputs as strings).

Anything else raises :class:`~verifier.errors.InvalidParameter` with a message that
says what to write.

>>> numeric_score("-1/2", "-1/2"), numeric_score(3, ("a", 3))
(Fraction(-1, 2), Fraction(3, 1))
>>> numeric_score("zero", "zero")
Traceback (most recent call last):
...
verifier.errors.InvalidParameter: output 'zero' has no numeric score (got 'zero'): a score is an integer or an exact rational written as text ("3", "-1/2", "0.25")
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ..errors import InvalidParameter

__all__ = ["numeric_score", "SCORE_HELP"]

#: What a score may be, as the error messages say it.
SCORE_HELP = 'a score is an integer or an exact rational written as text ("3", "-1/2", "0.25")'


def numeric_score(value: Any, output: Any, where: str = "") -> Fraction:
    """The exact score ``value`` read from ``output``.

    Parameters
    ----------
    value : int, Fraction, sympy.Rational or str
        The part of the output that holds the score.
    output : object
        The output it was read from (named in the error message).
    where : str
        How the calling algorithm reads scores, appended to the error message
        (e.g. ``"best_of reads the first component of an array output"``).

    Raises
    ------
    InvalidParameter
        If ``value`` is not an exact number.
    """
    if isinstance(value, bool):
        pass
    elif isinstance(value, int):
        return Fraction(value)
    elif isinstance(value, Fraction):
        return value
    elif isinstance(value, sp.Rational):
        return Fraction(int(value.p), int(value.q))
    elif isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            pass
    got = f" (got {value!r})" if value is output else f" (its score part is {value!r})"
    hint = f"; {where}" if where else ""
    raise InvalidParameter(f"output {output!r} has no numeric score{got}: {SCORE_HELP}{hint}")

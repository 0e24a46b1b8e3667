"""Docstring entries shared by sibling functions, written once.

A docstring names a shared entry by a line of its own, ``%(name)s``, indented as the
entry should stand; :func:`filler` makes a decorator that replaces every such line
with the entry (each of its lines indented likewise) when the function is defined.
``help()``, Sphinx and the doctests read the filled ``__doc__``; an unknown name is a
``KeyError`` at import time.  :data:`CHECKS` holds the parameter and exception
entries of the checkers (:mod:`verifier.checks.privacy`, :mod:`verifier.odp`,
:mod:`verifier.accounting`, :mod:`verifier.interop`) and :func:`fill_doc` fills them.

>>> @filler(x="x : int\\n    A number.")
... def f(x):
...     '''Parameters
...     ----------
...     %(x)s
...     '''
>>> import inspect
>>> print(inspect.getdoc(f))
Parameters
----------
x : int
    A number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

__all__ = ["CHECKS", "fill_doc", "filler"]

F = TypeVar("F", bound=Callable[..., object])

_SLOT = re.compile(r"^([ \t]*)%\((\w+)\)s[ \t]*$", re.MULTILINE)


def filler(**entries: str) -> Callable[[F], F]:
    """A decorator that fills the ``%(name)s`` lines of a docstring with ``entries``."""

    def fill(m: re.Match[str]) -> str:
        return "\n".join(m[1] + line if line else line for line in entries[m[2]].split("\n"))

    def decorate(f: F) -> F:
        if f.__doc__:  # None under python -OO
            f.__doc__ = _SLOT.sub(fill, f.__doc__)
        return f

    return decorate


_PAIRS = "pairs : iterable of (dataset, dataset), optional\n    The ordered pairs to {}; default every ordered neighbouring pair."
_UNBOUND = "verifier.errors.UnboundSymbol\n    {}"

#: The checkers' shared entries: parameters, then the exceptions (``raises_*``).
CHECKS: dict[str, str] = {
    "pairs": _PAIRS.format("check"),
    "pairs_max": _PAIRS.format("maximise over"),
    "precision": "precision : Precision\n    Working precision of the certified comparisons.",
    "title": "title : str, optional\n    The result's title.",
    "over": "over : optional\n    A parameter domain, ``(symbol, lo, hi)`` or ``{symbol: (lo, hi), ...}``.",
    "budget": "budget : BoxBudget, optional\n    Limits of the subdivision over a box.",
    "raises_mech": "verifier.errors.InvalidMechanism\n    ``mech`` is not a :class:`FiniteMechanism`.",
    "raises_unbound": _UNBOUND.format("A probability has a symbol without a value."),
    "raises_unbound_over": _UNBOUND.format(
        "A symbol has no value and is not ranged over by ``over``."
    ),
}
# the options every box-capable checker takes, in their order in the signatures
CHECKS["check_options"] = "\n".join(
    CHECKS[k] for k in ("pairs", "precision", "title", "over", "budget")
)

#: Fills a docstring's ``%(name)s`` lines from :data:`CHECKS`.
fill_doc = filler(**CHECKS)

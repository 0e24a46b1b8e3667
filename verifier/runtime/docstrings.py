"""Docstring entries shared by sibling functions, written once.

A docstring names a shared entry by a line of its own, ``%(name)s``, indented as the
entry should stand; :func:`filler` makes a decorator that replaces every such line
with the entry (each of its lines indented likewise) when the function is defined.
``help()``, Sphinx and the doctests read the filled ``__doc__``; an unknown name is a
``KeyError`` at import time.  :mod:`verifier.checks.docstrings` holds the checkers'
entries.

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

__all__ = ["filler"]

F = TypeVar("F", bound=Callable[..., object])

_SLOT = re.compile(r"^([ \t]*)%\((\w+)\)s[ \t]*$", re.MULTILINE)


def filler(**entries: str) -> Callable[[F], F]:
    """A decorator that fills the ``%(name)s`` lines of a docstring with ``entries``
    (to stand first among the function's decorators)."""

    def fill(m: re.Match[str]) -> str:
        return "\n".join(m[1] + line if line else line for line in entries[m[2]].split("\n"))

    def decorate(f: F) -> F:
        if f.__doc__:  # None under python -OO
            f.__doc__ = _SLOT.sub(fill, f.__doc__)
        return f

    return decorate

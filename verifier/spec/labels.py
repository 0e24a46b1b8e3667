"""How outputs, datasets, expressions, keys and locations are written in spec files.

The same text names a thing in a file, in the error messages of the reader (each
starts with a location such as ``mechanisms.rr.distributions.D``) and in the writer's
output, so the reader, the writer and the search's certificates share these helpers.

>>> output_label((1, "a")), dataset_label((0, 1, 0)), location("claims", 0)
('(1, a)', '010', 'claims[0]')
>>> location("mechanisms", "best of")
'mechanisms."best of"'
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from typing import Any

import sympy as sp
from sympy.printing.str import StrPrinter

from ..errors import VerifierError
from ..mechanism.model import Dataset, Output

__all__ = [
    "output_label",
    "dataset_label",
    "expression_text",
    "toml_string",
    "toml_key",
    "location",
    "located",
    "did_you_mean",
]

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def output_label(o: Output) -> str:
    """The label of an output in spec files: ``str`` of numbers and strings,
    ``(a, b)`` for tuples, ``{a,b}`` for sets.

    >>> output_label(3), output_label("x"), output_label((1, "a")), output_label(frozenset("ba"))
    ('3', 'x', '(1, a)', '{a,b}')
    """
    if isinstance(o, tuple):
        return "(" + ", ".join(output_label(c) for c in o) + ")"
    if isinstance(o, (frozenset, set)):
        return "{" + ",".join(sorted(output_label(c) for c in o)) + "}"
    return str(o)


def dataset_label(d: Dataset) -> str:
    """The name of a dataset in spec files: strings as they are, ``"010"`` for a bit
    tuple (Hamming cube), ``{a,b}`` for a set (add/remove), ``str`` otherwise.

    >>> dataset_label((0, 1, 0)), dataset_label(frozenset({"b", "a"})), dataset_label(3)
    ('010', '{a,b}', '3')
    """
    if isinstance(d, str):
        return d
    if isinstance(d, tuple) and d and all(x in (0, 1) and isinstance(x, int) for x in d):
        return "".join(str(x) for x in d)
    return output_label(d)


class _SpecPrinter(StrPrinter):
    """sympy's ``str`` printer with the spelling of :mod:`verifier.arithmetic.expressions`:
    ``e`` for Euler's number, ``min``/``max``/``abs``/``ceil`` in lower case."""

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_Min(self, expr: Any) -> str:
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Max(self, expr: Any) -> str:
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Abs(self, expr: Any) -> str:
        return "abs(" + self._print(expr.args[0]) + ")"

    def _print_ceiling(self, expr: Any) -> str:
        return "ceil(" + self._print(expr.args[0]) + ")"

    def _print_floor(self, expr: Any) -> str:
        return "floor(" + self._print(expr.args[0]) + ")"


def expression_text(expr: sp.Expr) -> str:
    """``expr`` in the syntax of :mod:`verifier.arithmetic.expressions` (not checked here).

    >>> x = sp.Symbol("x")
    >>> expression_text(sp.E / 2 + sp.Abs(x)), expression_text(sp.Max(x, sp.Rational(1, 3)))
    ('e/2 + abs(x)', 'max(1/3, x)')
    """
    return str(_SpecPrinter({"order": "none"}).doprint(expr))


def toml_string(s: str) -> str:
    """``s`` as a TOML basic string.

    >>> print(toml_string('say "hi"'))
    "say \\"hi\\""
    """
    # JSON string escapes are a subset of TOML's basic-string escapes; DEL must be escaped.
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_key(k: str) -> str:
    """A key as TOML writes it (bare when possible, else quoted).

    >>> toml_key("rr"), toml_key("D'")
    ('rr', '"D\\'"')
    """
    return k if _BARE.fullmatch(k) else toml_string(k)


def location(base: str, key: str | int) -> str:
    """The location of ``key`` (a table key, or an array index) inside ``base``."""
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{toml_key(key)}" if base else toml_key(key)


def located(err: VerifierError, where: str) -> VerifierError:
    """The same kind of error with ``where:`` and a space in front of its message."""
    if not where:
        return err
    return type(err)(f"{where}: {err}")


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """The end of an "unknown name" message: ``"; did you mean 'x'?"`` with the known
    name closest to ``name``, or nothing when none is close.

    >>> did_you_mean("gaus", ["laplace", "gauss"]), did_you_mean("zzz", ["laplace"])
    ("; did you mean 'gauss'?", '')
    """
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""

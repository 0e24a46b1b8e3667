"""Safe, whitelisted parser of the numeric expressions written in spec files.

Spec files (TOML or JSON, written by users and possibly hostile) give probabilities
and parameters as strings such as ``"exp(-eps)/(1+exp(-eps))"``, ``"1/3"``,
``"0.25"``, ``"2^-10"``, ``"log(2)/2"`` or ``"1e-30"``.  This module turns such
text into exact sympy expressions with a small tokenizer and a recursive-descent
parser that builds sympy objects directly: nothing ever executes Python on the text
(no ``eval``, ``sympify`` or ``parse_expr``).

Grammar
-------
::

    expression := term (('+' | '-') term)*
    term       := unary (('*' | '/') unary)*
    unary      := ('+' | '-') unary | power
    power      := primary (('^' | '**') unary)?          # right-associative
    primary    := NUMBER | NAME | NAME '(' arguments ')' | '(' expression ')'
    arguments  := expression (',' expression)*

* Numbers are integers, decimals and scientific notation (``12``, ``0.25``, ``.5``,
  ``1e-30``, ``2.5E3``), all converted to exact rationals: ``0.1`` is one tenth,
  never a float.
* A power binds tighter than a unary minus on its left and is right-associative:
  ``-2^2`` is ``-4``, ``2^3^2`` is ``2^9``, ``2^-1`` is ``1/2``.
* Functions (:data:`ALLOWED_FUNCTIONS`): ``exp(x)``, ``log(x)`` (natural) and
  ``log(x, b)`` (``log(x)/log(b)``), ``sqrt(x)``, ``min(x, ...)``, ``max(x, ...)``,
  ``abs(x)``, ``binomial(n, k)`` (integers), ``floor(x)``, ``ceil(x)``.
* Constants (:data:`CONSTANTS`): ``pi`` and ``e`` (Euler's number).
* Any other name must be one of the symbols passed in; everything else (strings,
  attribute access, subscripts, keywords, ``;``, ...) is not part of the grammar and
  is refused with a :class:`~verifier.errors.SpecError` that shows where.

Results
-------
Rational arithmetic is carried out (``1/3 + 1/6`` is ``1/2``); ``log(x, b)`` of
rationals is simplified (``log(8, 2)`` is ``3``); ``floor`` and ``ceil`` of constants
are computed exactly (with certified enclosures).  ``min``, ``max`` and ``abs`` of
anything but rationals, and ``log`` of anything but a rational, are kept unevaluated
(``Max(1, log(3))``, ``log(x + 1)``): sympy's own evaluation of those compares
irrational numbers numerically, which can take very long on crafted input.
A result is refused when it is undefined or infinite (``1/0``, ``0^-1``,
``log(0)``) or visibly not real (``sqrt(-1)``, ``log(-2)``, ``(-8)^(1/3)``).

Resource limits
---------------
Hostile text must not make parsing slow, so conservative bounds are checked *before*
sympy evaluates anything:

* the text has at most :data:`MAX_TEXT_LENGTH` characters and nests at most
  :data:`MAX_DEPTH` levels (parentheses, calls, signs, exponents);
* a number literal has at most :data:`MAX_LITERAL_DIGITS` digits;
* a rational exponent is at most :data:`MAX_EXPONENT` in absolute value (unless the
  base is 0, 1 or -1), and no exact number may exceed :data:`MAX_NUMBER_BITS` bits
  (so ``10^10^10`` and ``2^(10^9)`` are refused, ``2^-10000`` is fine; a symbol
  counts as one bit, so ``x^12000`` is the largest power of a symbol);
* the numbers under roots and fractional powers total at most :data:`MAX_ROOT_BITS`
  bits (sympy simplifies ``sqrt(n)`` by partly factoring ``n``);
* functions and non-integer powers nest at most :data:`MAX_FUNCTION_DEPTH` deep and
  occur at most :data:`MAX_FUNCTION_CALLS` times (sympy's evaluation of nested
  ones is exponential in the depth);
* the argument of ``exp`` (and an irrational exponent) is at most ``2^64`` in
  absolute value, so ``exp(10^9)`` is fine but ``exp(exp(exp(10)))`` is refused.

Examples
--------
>>> import sympy as sp
>>> parse_expression("0.25")
1/4
>>> parse_expression("-2^2 + 2^-1")
-7/2
>>> eps = sp.Symbol("eps", positive=True)
>>> parse_expression("exp(-eps)/(1+exp(-eps))", {"eps": eps})
exp(-eps)/(1 + exp(-eps))
>>> parse_number("log(8, 2) + 1/x", {"x": sp.Integer(4)})
13/4
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple, NoReturn

import sympy as sp

from ..errors import InvalidParameter, SpecError, UnboundSymbol, VerifierError
from .exact import enclose, exact, is_exactly_zero

__all__ = [
    "ALLOWED_FUNCTIONS",
    "CONSTANTS",
    "RESERVED_NAMES",
    "MAX_TEXT_LENGTH",
    "MAX_DEPTH",
    "MAX_LITERAL_DIGITS",
    "MAX_EXPONENT",
    "MAX_NUMBER_BITS",
    "MAX_ROOT_BITS",
    "MAX_FUNCTION_DEPTH",
    "MAX_FUNCTION_CALLS",
    "MAX_NAME_LENGTH",
    "parse_expression",
    "parse_number",
    "validate_symbol_name",
]

#: Longest accepted expression text, in characters.
MAX_TEXT_LENGTH = 10_000
#: Deepest accepted nesting (parentheses, function calls, unary signs, exponents).
MAX_DEPTH = 100
#: Most digits in one number literal (integer and fractional parts together).
MAX_LITERAL_DIGITS = 1_000
#: Largest absolute value of a rational exponent (unless the base is 0, 1 or -1).
MAX_EXPONENT = 100_000
#: Largest size, in bits, of any exact number the expression may produce (about
#: 3,600 decimal digits; Python refuses to print integers of more than 4,300).
MAX_NUMBER_BITS = 12_000
#: Largest total size, in bits, of the numbers under fractional powers: sympy
#: simplifies roots by partly factoring their argument, which is slow for big ones.
MAX_ROOT_BITS = 1_000
#: Deepest nesting of functions and non-integer powers: sympy's numerical
#: evaluation (used when it compares or prints numbers) takes time exponential in it.
MAX_FUNCTION_DEPTH = 8
#: Most function applications and non-integer powers in one expression (sympy's
#: automatic simplification of many nested ones takes seconds).
MAX_FUNCTION_CALLS = 256
#: Longest symbol name.
MAX_NAME_LENGTH = 64
#: Largest magnitude (a power of two) whose floor or ceiling is computed.
_MAX_FLOOR_BITS = 1_000
#: Largest magnitude (a power of two) of the argument of exp() or of an irrational
#: exponent: exp(10^9) is fine, towers such as exp(exp(exp(10))) are refused.
_MAX_EXP_ARG_BITS = 64

#: Functions an expression may call, with their number of arguments.
_ARITY: Mapping[str, tuple[int, int | None]] = MappingProxyType(
    {
        "exp": (1, 1),
        "log": (1, 2),
        "sqrt": (1, 1),
        "min": (1, None),
        "max": (1, None),
        "abs": (1, 1),
        "binomial": (2, 2),
        "floor": (1, 1),
        "ceil": (1, 1),
    }
)

#: The whitelist of functions: ``exp``, ``log`` (one argument: natural logarithm;
#: two arguments: ``log(x, b) = log(x)/log(b)``), ``sqrt``, ``min``, ``max``,
#: ``abs``, ``binomial`` (integer arguments), ``floor`` and ``ceil``.
ALLOWED_FUNCTIONS: frozenset[str] = frozenset(_ARITY)

#: Named constants: ``pi`` and ``e`` (Euler's number).
CONSTANTS: Mapping[str, sp.Expr] = MappingProxyType({"pi": sp.pi, "e": sp.E})

#: Names a symbol may not take: the functions, the constants, and the names sympy
#: prints for special values (a symbol named ``I`` would print like the imaginary
#: unit).
RESERVED_NAMES: frozenset[str] = (
    ALLOWED_FUNCTIONS | frozenset(CONSTANTS) | frozenset({"E", "I", "oo", "zoo", "nan"})
)

_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN_RE = re.compile(
    r"""
    (?P<space>[ \t\r\n]+)
  | (?P<number>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>\*\*|[-+*/^(),])
    """,
    re.VERBOSE,
)
_NUMBER_PARTS_RE = re.compile(r"([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_LOG2_10 = 3.3219280948873626


# ---------------------------------------------------------------------------
# names
# ---------------------------------------------------------------------------


def validate_symbol_name(name: object, *, what: str = "symbol name") -> str:
    """Check that ``name`` may name a user-declared symbol and return it.

    A valid name matches ``[A-Za-z_][A-Za-z0-9_]*``, does not start with ``__``,
    has at most :data:`MAX_NAME_LENGTH` characters and is not in
    :data:`RESERVED_NAMES` (the functions, the constants ``pi`` and ``e``, and
    ``E``, ``I``, ``oo``, ``zoo``, ``nan``).

    Parameters
    ----------
    name : object
        The candidate name (anything but a ``str`` is refused).
    what : str, optional
        What the name is, for the error message.

    Returns
    -------
    str
        ``name`` itself.

    Raises
    ------
    SpecError
        If the name is not valid; the message names the problem.

    Examples
    --------
    >>> validate_symbol_name("eps_1")
    'eps_1'
    >>> validate_symbol_name("exp")
    Traceback (most recent call last):
    ...
    verifier.errors.SpecError: name 'exp' is reserved (exp() is a function); choose another name
    """
    if not isinstance(name, str):
        raise SpecError(f"{what} must be a string, got {type(name).__name__} {name!r}")
    if len(name) > MAX_NAME_LENGTH:
        raise SpecError(
            f"{what} {_show(name)} is too long ({len(name)} characters; at most {MAX_NAME_LENGTH})"
        )
    if not _NAME_RE.fullmatch(name):
        raise SpecError(
            f"{what} {_show(name)} is not a valid name: use letters, digits and '_', "
            f"not starting with a digit"
        )
    if name.startswith("__"):
        raise SpecError(f"{what} {_show(name)} is not allowed: names may not start with '__'")
    if name in RESERVED_NAMES:
        raise SpecError(
            f"name {name!r} is reserved ({_reserved_reason(name)}); choose another name"
        )
    return name


def _reserved_reason(name: str) -> str:
    if name in ALLOWED_FUNCTIONS:
        return f"{name}() is a function"
    if name in CONSTANTS:
        return f"{name} is a constant"
    return "sympy prints a special value with this name"


# ---------------------------------------------------------------------------
# messages
# ---------------------------------------------------------------------------


def _show(text: str, limit: int = 60) -> str:
    """The text quoted (with escapes for unprintable characters), shortened."""
    if len(text) > limit:
        return repr(text[: limit - 3] + "...")
    return repr(text)


def _escape_char(ch: str) -> str:
    if " " <= ch <= "~":
        return ch
    return repr(ch)[1:-1]


def _snippet(text: str, pos: int, width: int = 30) -> str:
    """Two lines: a window of ``text`` around ``pos`` and a caret under ``pos``."""
    start = max(0, pos - width)
    end = min(len(text), pos + width)
    shown = [_escape_char(c) for c in text[start:end]]
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(text) else ""
    offset = len(prefix) + sum(len(s) for s in shown[: pos - start])
    return f"    {prefix}{''.join(shown)}{suffix}\n    {' ' * offset}^"


# ---------------------------------------------------------------------------
# tokens
# ---------------------------------------------------------------------------


class _Token(NamedTuple):
    kind: str  # "number", "name", "op", "end" or "bad"
    text: str
    pos: int


def _tokenize(text: str) -> list[_Token]:
    """Tokens of ``text``; an unreadable spot ends the list with a ``bad`` token (its
    text is the problem), so that the parser reports problems in reading order."""
    tokens: list[_Token] = []
    pos, n = 0, len(text)
    while pos < n:
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            ch = text[pos]
            if ch in "'\"":
                problem = "unexpected quote: strings are not allowed"
            else:
                problem = f"unexpected character '{_escape_char(ch)}'"
            tokens.append(_Token("bad", problem, pos))
            return tokens
        kind = m.lastgroup
        assert kind is not None
        end = m.end()
        if kind == "number" and end < n and (text[end].isalnum() or text[end] in "_."):
            tokens.append(_Token("bad", "malformed number", pos))
            return tokens
        if kind != "space":
            tokens.append(_Token(kind, m.group(), pos))
        pos = end
    tokens.append(_Token("end", "", n))
    return tokens


def _describe(tok: _Token) -> str:
    if tok.kind == "end":
        return "end of expression"
    if tok.kind == "name":
        return f"name {tok.text!r}"
    if tok.kind == "number":
        return f"number {tok.text!r}"
    return repr(tok.text)


# ---------------------------------------------------------------------------
# size bookkeeping
# ---------------------------------------------------------------------------


class _Value(NamedTuple):
    """A parsed subexpression with conservative bounds on the numbers behind it.

    ``size`` bounds the bits of any exact number sympy may compute from it;
    ``rad`` bounds the total bits of the numbers under fractional powers; ``nest``
    is the nesting depth of functions and non-integer powers.
    """

    expr: sp.Expr
    size: int
    rad: int
    nest: int = 0


def _bits(r: sp.Rational) -> int:
    return max(abs(int(r.p)).bit_length(), int(r.q).bit_length(), 1)


def _measure(expr: sp.Expr) -> _Value:
    """The bookkeeping of an expression given from outside (a symbol's value)."""
    size, has_root, nest = 0, False, 0
    stack: list[tuple[Any, int]] = [(expr, 0)]
    while stack:
        node, depth = stack.pop()
        if node.is_Rational:
            size += _bits(node)
        elif node.is_Atom:
            size += 1
        elif not (node.is_Add or node.is_Mul or (node.is_Pow and node.exp.is_Integer)):
            depth += 1
            has_root = has_root or (node.is_Pow and node.exp.is_Rational)
        nest = max(nest, depth)
        stack.extend((a, depth) for a in node.args)
    return _Value(expr, size, size if has_root else 0, nest)


def _walk(expr: sp.Basic) -> Iterator[Any]:
    """All nodes of ``expr`` (iteratively: no recursion limit)."""
    stack: list[Any] = [expr]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.args)


def _rational_bits(expr: sp.Expr) -> int:
    """Total bits of the rational numbers in ``expr``: every rational that expanding
    ``expr`` can produce has a numerator and a denominator below ``2**`` that."""
    return sum(_bits(node) for node in _walk(expr) if node.is_Rational)


def _log_power_bound(arg: sp.Expr) -> int:
    """Bound on the bits sympy may create when evaluating ``exp(arg)``.

    sympy rewrites ``exp(c*log(a))`` as ``a**c`` (and ``b**(c*log(a)/log(b))`` the
    same way), which computes ``a**c`` exactly.  For each term of ``arg`` the result
    has at most ``L * 2**C`` bits, where ``L`` counts the bits of the numbers inside
    logarithms and ``C`` those of the coefficients outside.
    """
    total = 0
    for term in sp.Add.make_args(arg):
        inside = outside = 0
        stack: list[tuple[Any, bool]] = [(term, False)]
        while stack:
            node, in_log = stack.pop()
            if node.is_Rational:
                if in_log:
                    inside += _bits(node)
                else:
                    outside += _bits(node)
            else:
                in_log_now = in_log or isinstance(node, sp.log)
                stack.extend((a, in_log_now) for a in node.args)
        if inside:
            if outside > 64:
                return 1 << 64
            total += inside << outside
    return total


# ---------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------


class _Parser:
    def __init__(
        self,
        text: str,
        what: str,
        lookup: Callable[[str], _Value | None],
        number_mode: bool,
    ) -> None:
        self.text = text
        self.what = what
        self.lookup = lookup
        self.number_mode = number_mode
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0
        self.calls = 0

    # -- errors ------------------------------------------------------------

    def fail(
        self, problem: str, pos: int | None = None, exc: type[SpecError | UnboundSymbol] = SpecError
    ) -> NoReturn:
        raise exc(self.message(problem, pos))

    def message(self, problem: str, pos: int | None) -> str:
        head = f"{problem} in {self.what} {_show(self.text)}"
        if pos is None:
            return head
        return f"{head} at character {pos + 1}:\n{_snippet(self.text, pos)}"

    # -- tokens ------------------------------------------------------------

    @property
    def tok(self) -> _Token:
        return self.tokens[self.i]

    def advance(self) -> _Token:
        tok = self.tokens[self.i]
        if tok.kind == "bad":
            self.fail(tok.text, tok.pos)
        if tok.kind != "end":
            self.i += 1
        return tok

    def at(self, *ops: str) -> bool:
        tok = self.tok
        if tok.kind == "bad":
            self.fail(tok.text, tok.pos)
        return tok.kind == "op" and tok.text in ops

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"expression is nested too deeply (more than {MAX_DEPTH} levels)", pos)

    def nested(self, pos: int, parse: Callable[[], _Value]) -> _Value:
        """``parse()`` one level deeper (opened at ``pos``)."""
        self.enter(pos)
        try:
            return parse()
        finally:
            self.depth -= 1

    def chain(
        self,
        operand: Callable[[], _Value],
        ops: tuple[str, str],
        invert: Callable[[_Value, int], _Value],
        combine: Callable[[list[_Value], int], _Value],
    ) -> _Value:
        """``operand (op operand)*`` for the two left-associative operators ``ops`` of
        one precedence level: an operand after the second one is ``invert``-ed (``-``:
        negated, ``/``: its reciprocal), and all are ``combine``-d at once."""
        items = [operand()]
        first = self.tok.pos
        while self.at(*ops):
            op = self.advance()
            item = operand()
            items.append(invert(item, op.pos) if op.text == ops[1] else item)
        return items[0] if len(items) == 1 else combine(items, first)

    # -- grammar -----------------------------------------------------------

    def parse(self) -> sp.Expr:
        try:
            return self.parse_unguarded()
        except VerifierError:
            raise
        except RecursionError:
            self.fail("expression is too deeply nested to evaluate")
        except Exception as exc:  # a safety net: sympy may raise nearly anything
            self.fail(f"cannot evaluate the expression ({type(exc).__name__})")

    def parse_unguarded(self) -> sp.Expr:
        if self.tok.kind == "end":
            raise SpecError(f"{self.what} is empty: {_show(self.text)}")
        value = self.expression()
        tok = self.tok
        if tok.kind == "bad":
            self.fail(tok.text, tok.pos)
        if tok.kind != "end":
            if tok.kind == "op" and tok.text == ")":
                self.fail("unmatched ')'", tok.pos)
            if tok.kind == "op" and tok.text == ",":
                self.fail("unexpected ',' outside a function call", tok.pos)
            self.fail(f"expected an operator or the end, found {_describe(tok)}", tok.pos)
        return self.check_result(value.expr)

    def expression(self) -> _Value:
        return self.chain(self.term, ("+", "-"), lambda v, _pos: self.negate(v), self.add)

    def term(self) -> _Value:
        return self.chain(self.unary, ("*", "/"), self.reciprocal, self.multiply)

    def unary(self) -> _Value:
        if self.at("+", "-"):
            op = self.advance()
            operand = self.nested(op.pos, self.unary)
            return self.negate(operand) if op.text == "-" else operand
        return self.power()

    def power(self) -> _Value:
        base = self.primary()
        if self.at("^", "**"):
            op = self.advance()
            return self.pow(base, self.nested(op.pos, self.unary), op.pos)
        return base

    def primary(self) -> _Value:
        tok = self.advance()
        if tok.kind == "number":
            return self.number(tok)
        if tok.kind == "name":
            return self.name(tok)
        if tok.kind == "op" and tok.text == "(":
            value = self.nested(tok.pos, self.expression)
            self.expect_close(tok)
            return value
        if tok.kind == "end":
            self.fail("expression ends early: expected a number, a name or '('", tok.pos)
        self.fail(f"expected a number, a name or '(', found {_describe(tok)}", tok.pos)

    def expect_close(self, opening: _Token) -> None:
        if self.at(")"):
            self.advance()
            return
        tok = self.tok
        if tok.kind == "end":
            self.fail(f"missing ')' to close the '(' at character {opening.pos + 1}", tok.pos)
        self.fail(f"expected ')' or an operator, found {_describe(tok)}", tok.pos)

    def name(self, tok: _Token) -> _Value:
        name = tok.text
        calls = self.at("(")
        if name in ALLOWED_FUNCTIONS:
            if not calls:
                self.fail(f"{name!r} is a function: call it as {name}(...)", tok.pos)
            return self.call(tok)
        if name in CONSTANTS:
            if calls:
                self.fail(f"{name!r} is a constant, not a function", tok.pos)
            return _Value(CONSTANTS[name], 1, 0, 0)
        if name in RESERVED_NAMES:
            self.fail(f"name {name!r} is reserved ({_reserved_reason(name)})", tok.pos)
        try:
            value = self.lookup(name)
        except _LookupProblem as problem:
            self.fail(problem.args[0], tok.pos, problem.exc)
        if calls:
            if value is not None:
                self.fail(f"{name!r} is a symbol, not a function", tok.pos)
            self.fail(f"unknown function {name!r}{_dunder_hint(name)}", tok.pos)
        if value is None:
            if self.number_mode and _NAME_RE.fullmatch(name) and not name.startswith("__"):
                self.fail(f"symbol {name!r} has no value", tok.pos, UnboundSymbol)
            self.fail(f"unknown name {name!r}{_dunder_hint(name)}", tok.pos)
        return value

    def call(self, tok: _Token) -> _Value:
        opening = self.advance()  # '('
        self.enter(opening.pos)
        try:
            args: list[_Value] = []
            if not self.at(")"):
                args.append(self.expression())
                while self.at(","):
                    self.advance()
                    args.append(self.expression())
        finally:
            self.depth -= 1
        self.expect_close(opening)
        name = tok.text
        lo, hi = _ARITY[name]
        if len(args) < lo or (hi is not None and len(args) > hi):
            if hi is None:
                wanted = f"at least {lo} argument{'s' if lo > 1 else ''}"
            elif lo == hi:
                wanted = f"exactly {lo} argument{'s' if lo > 1 else ''}"
            else:
                wanted = f"{lo} to {hi} arguments"
            self.fail(f"{name}() takes {wanted} ({len(args)} given)", tok.pos)
        return self.apply(name, args, tok.pos)

    # -- numbers -----------------------------------------------------------

    def number(self, tok: _Token) -> _Value:
        m = _NUMBER_PARTS_RE.fullmatch(tok.text)
        assert m is not None
        whole, frac, exp_text = m.group(1), m.group(2) or "", m.group(3)
        digits = whole + frac
        if len(digits) > MAX_LITERAL_DIGITS:
            self.fail(
                f"number literal has too many digits ({len(digits)}; at most {MAX_LITERAL_DIGITS})",
                tok.pos,
            )
        mantissa = int(digits)
        shift = -len(frac)
        if exp_text is not None:
            if len(exp_text.lstrip("+-").lstrip("0")) > 6:
                self.fail("number literal has a too large exponent", tok.pos)
            shift += int(exp_text)
        if mantissa == 0:
            return _Value(sp.Integer(0), 1, 0)
        if mantissa.bit_length() + abs(shift) * _LOG2_10 > MAX_NUMBER_BITS:
            self.fail(
                f"number literal is too large or too precise (more than {MAX_NUMBER_BITS} bits)",
                tok.pos,
            )
        if shift >= 0:
            value = sp.Integer(mantissa * 10**shift)
        else:
            value = sp.Rational(mantissa, 10**-shift)
        return _Value(value, _bits(value), 0)

    # -- building sympy expressions ------------------------------------------

    def build(self, pos: int | None, func: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """Call sympy, turning any of its exceptions into a SpecError."""
        try:
            return func(*args, **kw)
        except SpecError:
            raise
        except RecursionError:
            self.fail("expression is too deeply nested to evaluate", pos)
        except Exception as exc:  # sympy may raise nearly anything on odd input
            self.fail(f"cannot evaluate the expression ({type(exc).__name__})", pos)

    def check_size(self, size: int, pos: int | None) -> None:
        if size > MAX_NUMBER_BITS:
            self.fail(
                f"the numbers or powers in this expression would become too large to "
                f"handle exactly (limit {MAX_NUMBER_BITS} bits, about "
                f"{int(MAX_NUMBER_BITS / _LOG2_10)} digits)",
                pos,
            )

    def check_rad(self, rad: int, pos: int | None) -> None:
        if rad > MAX_ROOT_BITS:
            self.fail(
                f"roots or fractional powers of numbers this large are not supported "
                f"(more than {MAX_ROOT_BITS} bits under roots)",
                pos,
            )

    def check_log_power(self, exponent: sp.Expr, rad: int, pos: int) -> int:
        bound = _log_power_bound(exponent)
        if rad + bound > MAX_ROOT_BITS:
            self.fail(
                "a logarithm in an exponent has too large numbers around it (sympy would "
                "compute exp(c*log(a)) as the exact power a^c)",
                pos,
            )
        return bound

    def check_exponent(
        self, x: sp.Expr, what: str, size: int, rad: int, pos: int
    ) -> tuple[int, int]:
        """Check the exponent ``x`` of ``exp`` or of a power: a constant one is at most
        ``2^_MAX_EXP_ARG_BITS`` in magnitude, and the powers sympy makes of its logarithms
        (:meth:`check_log_power`) are added to ``size`` and ``rad``, the size then
        checked; returns ``(size, rad)``."""
        if not x.free_symbols:
            self.check_magnitude(x, _MAX_EXP_ARG_BITS, what, pos)
        if x.has(sp.log):
            bound = self.check_log_power(x, rad, pos)
            size, rad = size + bound, rad + bound
            self.check_size(size, pos)
        return size, rad

    def check_magnitude(self, x: sp.Expr, bits: int, what: str, pos: int) -> None:
        """Refuse a constant ``x`` with ``|x| > 2**bits``, checked with a certified
        enclosure (towers such as exp(exp(exp(10))) would overflow later)."""
        if x.is_Rational:
            if abs(x) > sp.Integer(2) ** bits:
                self.fail(f"{what} is too large (more than 2^{bits})", pos)
            return
        limit = 2**bits
        for precision in (64, 256):
            try:
                enc = enclose(x, precision)
            except Exception:
                break
            if enc is not None:  # exact comparisons of the ends with the integer limit
                if -limit <= enc.lo and enc.hi <= limit:
                    return
                if enc.lo > limit or enc.hi < -limit:
                    self.fail(f"{what} is too large (more than 2^{bits})", pos)
        self.fail(f"cannot evaluate {what} as a real number", pos)

    def check_nest(self, nest: int, pos: int) -> None:
        """Count one function application (or non-integer power) nested ``nest``
        deep, and check both the nesting and the total count."""
        self.calls += 1
        if self.calls > MAX_FUNCTION_CALLS:
            self.fail(
                f"too many function calls and fractional powers (more than {MAX_FUNCTION_CALLS})",
                pos,
            )
        if nest > MAX_FUNCTION_DEPTH:
            self.fail(
                f"functions and fractional powers are nested too deeply (more than "
                f"{MAX_FUNCTION_DEPTH} levels)",
                pos,
            )

    def check_real(self, expr: sp.Expr, pos: int | None) -> None:
        if expr.has(sp.I):
            self.fail("the value is not a real number", pos)

    def value(self, expr: sp.Expr, size: int, rad: int, nest: int) -> _Value:
        if expr.is_Rational:
            return _Value(expr, _bits(expr), 0, 0)
        return _Value(expr, size, rad, nest)

    def negate(self, v: _Value) -> _Value:
        return self.value(self.build(None, lambda x: -x, v.expr), v.size, v.rad, v.nest)

    def reciprocal(self, v: _Value, pos: int) -> _Value:
        if v.expr.is_Number and v.expr.is_zero:
            self.fail("division by zero", pos)
        return self.value(self.build(pos, sp.Pow, v.expr, -1), v.size, v.rad, v.nest)

    def add(self, terms: list[_Value], pos: int) -> _Value:
        acc: sp.Rational = sp.Integer(0)
        others: list[_Value] = []
        for t in terms:
            if t.expr.is_Rational:
                self.check_size(_bits(acc) + t.size + 1, pos)
                acc = acc + t.expr
            else:
                others.append(t)
        if not others:
            return self.value(acc, 0, 0, 0)
        size = _bits(acc) + sum(t.size for t in others) + len(others)
        self.check_size(size, pos)
        expr = self.build(pos, sp.Add, acc, *(t.expr for t in others))
        rad = sum(t.rad for t in others)
        return self.value(expr, size, rad, max(t.nest for t in others))

    def multiply(self, factors: list[_Value], pos: int) -> _Value:
        acc: sp.Rational = sp.Integer(1)
        others: list[_Value] = []
        for f in factors:
            if f.expr.is_Rational:
                self.check_size(_bits(acc) + f.size, pos)
                acc = acc * f.expr
            else:
                others.append(f)
        if not others:
            return self.value(acc, 0, 0, 0)
        size = _bits(acc) + sum(f.size for f in others)
        rad = sum(f.rad for f in others)
        self.check_size(size, pos)
        self.check_rad(rad, pos)  # sympy merges roots: sqrt(a)*sqrt(b) -> sqrt(a*b)
        expr = self.build(pos, sp.Mul, acc, *(f.expr for f in others))
        return self.value(expr, size, rad, max(f.nest for f in others))

    def pow(self, base: _Value, exponent: _Value, pos: int) -> _Value:
        b, e = base.expr, exponent.expr
        if b is sp.E:
            return self.exp(exponent, pos)
        if e.is_Integer:
            nest = max(base.nest, exponent.nest)
        else:
            nest = max(base.nest, exponent.nest) + 1
            self.check_nest(nest, pos)
        if e.is_Rational:
            if b.is_Rational and b in (0, 1, -1):
                if b == 0 and e < 0:
                    self.fail("division by zero (0 raised to a negative power)", pos)
                if b == -1 and not e.is_Integer:
                    self.fail("fractional power of a negative number is not real", pos)
                return self.value(self.build(pos, sp.Pow, b, e), 1, 0, 0)
            if abs(e) > MAX_EXPONENT:
                self.fail(f"exponent {e} is too large (at most {MAX_EXPONENT})", pos)
            if not e.is_Integer and not b.free_symbols:
                sign = (-1 if b < 0 else 1) if b.is_Rational else _certified_sign(b)
                if sign is not None and sign < 0:
                    self.fail("fractional power of a negative number is not real", pos)
            times = max(1, -(-abs(int(e.p)) // int(e.q)))
            if b.is_Rational:
                size = int(times * math.log2(max(abs(int(b.p)), int(b.q)))) + 2
            else:
                size = base.size * times
            self.check_size(size, pos)
            rad = base.rad
            if not e.is_Integer and (b.is_Rational or b.is_Mul):
                # sympy factors rational bases (and rational coefficients) of roots
                rad += base.size
                self.check_rad(rad, pos)
            expr = self.build(pos, sp.Pow, b, e)
            if not e.is_Integer:
                self.check_real(expr, pos)
            return self.value(expr, size, rad, nest)
        # sympy may expand b^(c + ...) into b^c * b^(...) (e.g. when comparing
        # numbers), computing b^c for every rational c the exponent can produce.
        spread = _rational_bits(e)
        if spread > 60:
            self.fail("the exponent contains too large numbers", pos)
        size = base.size * (1 << spread) + exponent.size
        size, rad = self.check_exponent(e, "the exponent", size, base.rad + exponent.rad, pos)
        self.check_size(size, pos)
        expr = self.build(pos, sp.Pow, b, e)
        self.check_real(expr, pos)
        return self.value(expr, size, rad, nest)

    def exp(self, arg: _Value, pos: int) -> _Value:
        x = arg.expr
        if isinstance(x, sp.log):  # exp(log(y)) = y
            return self.value(x.args[0], arg.size, arg.rad, arg.nest)
        nest = arg.nest + 1
        self.check_nest(nest, pos)
        size, rad = self.check_exponent(x, "the argument of exp()", arg.size, arg.rad, pos)
        return self.value(self.build(pos, sp.exp, x), size, rad, nest)

    def log(self, arg: _Value, pos: int, problem: str) -> _Value:
        x = arg.expr
        if x.is_Rational:
            if x <= 0:
                self.fail(problem, pos)
            return self.value(self.build(pos, sp.log, x), arg.size, arg.rad, 1)
        if x is sp.E:
            return self.value(sp.Integer(1), 0, 0, 0)
        if isinstance(x, sp.exp) and not x.free_symbols:  # log(exp(y)) = y for real y
            return self.value(x.args[0], arg.size, arg.rad, arg.nest)
        nest = arg.nest + 1
        self.check_nest(nest, pos)
        if not x.free_symbols:
            sign = _certified_sign(x)
            if sign is not None and sign <= 0:
                self.fail(problem, pos)
        # Unevaluated: sympy's evaluation asks for the sign of the argument with a
        # fresh numerical evaluation, quadratic in the nesting depth.
        return self.value(self.build(pos, sp.log, x, evaluate=False), arg.size, arg.rad, nest)

    def log2(self, arg: _Value, base: _Value, pos: int) -> _Value:
        x, b = arg.expr, base.expr
        if b.is_Rational and (b <= 0 or b == 1):
            self.fail("the base of a logarithm must be positive and not 1", pos)
        if x.is_Rational and b.is_Rational:
            if x <= 0:
                self.fail("logarithm of a number that is not positive", pos)
            expr = self.build(pos, sp.log, x, b)
            return self.value(expr, arg.size + base.size, arg.rad + base.rad, 1)
        num = self.log(arg, pos, "logarithm of a number that is not positive")
        den = self.log(base, pos, "the base of a logarithm must be positive and not 1")
        return self.multiply([num, self.reciprocal(den, pos)], pos)

    def apply(self, name: str, args: list[_Value], pos: int) -> _Value:
        if name == "exp":
            return self.exp(args[0], pos)
        if name == "sqrt":
            return self.pow(args[0], _Value(sp.Rational(1, 2), 2, 0), pos)
        if name == "log":
            if len(args) == 2:
                return self.log2(args[0], args[1], pos)
            return self.log(args[0], pos, "logarithm of a number that is not positive")
        if name in ("floor", "ceil"):
            return self.floor(name, args[0], pos)
        if name == "binomial":
            return self.binomial(args[0], args[1], pos)
        exprs = [a.expr for a in args]
        size = sum(a.size for a in args)
        rad = sum(a.rad for a in args)
        nest = max(a.nest for a in args) + 1
        self.check_nest(nest, pos)
        self.check_size(size, pos)
        self.check_rad(rad, pos)
        # min, max and abs of anything but rationals stay unevaluated: sympy would
        # compare irrational numbers by expanding them, which can be very slow.
        evaluate = all(x.is_Rational for x in exprs)
        func = {"min": sp.Min, "max": sp.Max, "abs": sp.Abs}[name]
        return self.value(self.build(pos, func, *exprs, evaluate=evaluate), size, rad, nest)

    def floor(self, name: str, arg: _Value, pos: int) -> _Value:
        func = sp.floor if name == "floor" else sp.ceiling
        x = arg.expr
        nest = arg.nest + 1
        if x.is_Rational:
            expr = func(x)
        elif x.free_symbols:
            self.check_nest(nest, pos)
            expr = self.build(pos, func, x, evaluate=False)
        else:
            # sympy's own evaluation may call simplify (unbounded time): decide the
            # integer part with certified enclosures instead.
            self.check_magnitude(x, _MAX_FLOOR_BITS, f"the argument of {name}()", pos)
            expr = self.build(pos, _integer_part, x, name == "floor")
            if expr is None:
                self.fail(f"cannot decide {name}(): the argument is too close to an integer", pos)
        return self.value(expr, arg.size + 1, arg.rad, nest)

    def binomial(self, n: _Value, k: _Value, pos: int) -> _Value:
        a, b = n.expr, k.expr
        for v in (a, b):
            if v.is_number and not v.is_Integer:
                self.fail("binomial() takes integer arguments", pos)
        if a.is_Integer and b.is_Integer:
            ni, ki = int(a), int(b)
            if ni >= 0:
                cost = 0 if ki < 0 or ki > ni else min(ki, ni - ki) * max(1, ni.bit_length())
            else:
                cost = 0 if ki < 0 else ki * (abs(ni) + ki).bit_length()
            self.check_size(cost, pos)
        size = n.size + k.size
        self.check_size(size, pos)
        nest = max(n.nest, k.nest) + 1
        self.check_nest(nest, pos)
        expr = self.build(pos, sp.binomial, a, b)
        return self.value(expr, size, n.rad + k.rad, nest)

    # -- the whole result ----------------------------------------------------

    def check_result(self, expr: sp.Expr) -> sp.Expr:
        for node in _walk(expr):
            if not isinstance(node, sp.Expr):
                self.fail(f"the value is not a number ({type(node).__name__})")
            if node in (sp.zoo, sp.nan, sp.oo, -sp.oo):
                self.fail("the value is undefined or infinite (division by zero, log(0), ...)")
            if node is sp.I or (node.is_Pow and node.base == -1 and not node.exp.is_integer):
                self.fail("the value is not a real number")
            if isinstance(node, sp.Float):
                self.fail("the value contains a floating-point number")
            if (
                node.is_Pow
                and node.exp.is_Rational
                and abs(node.exp) > MAX_EXPONENT
                and node.base not in (0, 1, -1)
            ):
                self.fail(f"exponent {node.exp} is too large (at most {MAX_EXPONENT})")
        return expr


def _certified_sign(x: sp.Expr) -> int | None:
    """Sign (-1, 0 or 1) of a real constant when an enclosure proves it, else None."""
    for bits in (64, 256):
        try:
            enc = enclose(x, bits)
        except Exception:  # unsupported construct, overflow, ...: no proof
            return None
        if enc is not None:
            if enc.lo > 0:
                return 1
            if enc.hi < 0:
                return -1
            if enc.lo == 0 and enc.hi == 0:
                return 0
    return None


def _integer_part(x: sp.Expr, floor: bool) -> sp.Integer | None:
    """``floor(x)`` (or ``ceiling(x)``) of a real constant, decided with certified
    enclosures at increasing precision; an exact zero test settles integers.
    ``None`` when undecided."""
    rounding = math.floor if floor else math.ceil
    last = None
    bits = 64
    while bits <= 4096:
        enc = enclose(x, bits)
        if enc is not None:
            last = enc.bounds()
            lo, hi = rounding(last[0]), rounding(last[1])
            if lo == hi:
                return sp.Integer(lo)
        bits *= 2
    if last is not None:
        n = sp.Integer(round((last[0] + last[1]) / 2))
        if is_exactly_zero(x - n):
            return n
    return None


class _LookupProblem(Exception):
    """Internal: a symbol's value is unusable; the parser adds the position."""

    def __init__(self, problem: str, exc: type[SpecError | UnboundSymbol] = SpecError) -> None:
        super().__init__(problem)
        self.exc = exc


def _dunder_hint(name: str) -> str:
    return " (names starting with '__' are not allowed)" if name.startswith("__") else ""


# ---------------------------------------------------------------------------
# public entry points
# ---------------------------------------------------------------------------


def _as_text(text: object, what: str) -> str:
    if isinstance(text, bool):
        raise SpecError(f"{what} must be a number or an expression, got a boolean ({text})")
    if isinstance(text, int):
        if text.bit_length() > MAX_NUMBER_BITS:
            raise SpecError(f"{what} is too large (more than {MAX_NUMBER_BITS} bits)")
        return str(text)
    if isinstance(text, float):
        raise SpecError(
            f"{what} is the floating-point number {text!r}, which is not exact; write it "
            f'as a string, e.g. "{text!r}" or a fraction such as "1/3"'
        )
    if not isinstance(text, str):
        raise SpecError(
            f"{what} must be a string or an integer, got {type(text).__name__} {_show(repr(text))}"
        )
    if len(text) > MAX_TEXT_LENGTH:
        raise SpecError(f"{what} is too long ({len(text)} characters; at most {MAX_TEXT_LENGTH})")
    return text


def parse_expression(
    text: str | int,
    symbols: Mapping[str, sp.Symbol] | None = None,
    *,
    what: str = "expression",
) -> sp.Expr:
    """Parse a numeric expression of a spec file into an exact sympy expression.

    Parameters
    ----------
    text : str or int
        The expression (see the module docstring for the grammar).  A Python
        ``int`` (a TOML or JSON integer) is accepted as a literal.
    symbols : Mapping[str, sympy.Symbol], optional
        The names the expression may use besides the functions and constants, and
        the sympy symbols (or exact expressions) they stand for.  The names are
        expected to have been checked with :func:`validate_symbol_name` when they
        were declared.  Create the symbols with ``real=True`` (or ``positive=True``):
        sympy's automatic simplification treats a symbol without assumptions as a
        complex number, which is slower and simplifies less.
    what : str, optional
        What the expression is, for error messages, e.g.
        ``"probability of output 'a' at dataset 'D'"``.

    Returns
    -------
    sympy.Expr
        The exact expression: rationals for number literals, never floats.

    Raises
    ------
    SpecError
        For anything that is not a valid expression, or whose evaluation would be
        undefined (division by zero, ``log(0)``), not real, or too expensive (see
        the limits in the module docstring).  The message names the problem and
        ``what``, and shows the position with a caret when there is one.

    Examples
    --------
    >>> import sympy as sp
    >>> parse_expression("1e-3 + 2^-10")
    253/128000
    >>> x = sp.Symbol("x")
    >>> parse_expression("x^2 / 2 + log(8, 2)", {"x": x})
    x**2/2 + 3
    >>> parse_expression("x.real", {"x": x})
    Traceback (most recent call last):
    ...
    verifier.errors.SpecError: unexpected character '.' in expression 'x.real' at character 2:
        x.real
         ^
    """
    source = _as_text(text, what)

    def read_symbol(name: str, value: Any) -> _Value:
        if not isinstance(value, sp.Expr) or value.has(sp.Float):
            raise _LookupProblem(f"symbol {name!r} does not stand for an exact sympy expression")
        return _Value(value, 1, 0, 0) if value.is_Symbol else _measure(value)

    return _Parser(source, what, _lookup(symbols, read_symbol), number_mode=False).parse()


def _lookup(
    table: Mapping[str, Any] | None, read: Callable[[str, Any], _Value]
) -> Callable[[str], _Value | None]:
    """A parser's lookup of the names of ``table``: ``read(name, table[name])`` on first
    use, then remembered; ``None`` for a name not in the table."""
    names: dict[str, _Value] = {}
    entries = table if table is not None else {}

    def lookup(name: str) -> _Value | None:
        if name in names:
            return names[name]
        if name not in entries:
            return None
        names[name] = read(name, entries[name])
        return names[name]

    return lookup


def parse_number(
    text: str | int,
    values: Mapping[str, sp.Expr] | None = None,
    *,
    what: str = "number",
) -> sp.Expr:
    """Parse a constant expression, substituting the values of the symbols it uses.

    Like :func:`parse_expression`, except that every name other than a function or
    a constant must have a value in ``values``: the value is substituted while
    parsing (so the resource limits apply to the actual numbers) and the result
    has no free symbols.

    Parameters
    ----------
    text : str or int
        The expression; a Python ``int`` (a TOML or JSON integer) is accepted.
    values : Mapping[str, sympy.Expr], optional
        Values of the symbols, each an exact sympy expression without free symbols
        (``int`` and :class:`fractions.Fraction` are accepted too).
    what : str, optional
        What the number is, for error messages.

    Returns
    -------
    sympy.Expr
        An exact constant expression.

    Raises
    ------
    UnboundSymbol
        If the text uses a name that has no value in ``values`` (or whose value
        still contains free symbols); the message names it.
    SpecError
        For every other problem, as in :func:`parse_expression`.

    Examples
    --------
    >>> parse_number("0.25")
    1/4
    >>> parse_number(3)
    3
    >>> parse_number("exp(-eps)", {"eps": sp.Rational(1, 2)})
    exp(-1/2)
    >>> parse_number("2*delta", {})
    Traceback (most recent call last):
    ...
    verifier.errors.UnboundSymbol: symbol 'delta' has no value in number '2*delta' at character 3:
        2*delta
          ^
    """
    source = _as_text(text, what)

    def read_value(name: str, raw: object) -> _Value:
        if isinstance(raw, bool) or not isinstance(raw, (int, Fraction, sp.Expr)):
            raise _LookupProblem(
                f"the value of {name!r} is not an exact number ({type(raw).__name__})"
            )
        if isinstance(raw, int):
            value: sp.Expr = sp.Integer(raw)
        elif isinstance(raw, Fraction):
            value = sp.Rational(raw.numerator, raw.denominator)
        else:
            value = raw
        if value.has(sp.Float):
            raise _LookupProblem(
                f"the value of {name!r} contains a floating-point number, which is not exact"
            )
        if value.free_symbols:
            free = ", ".join(sorted(str(s) for s in value.free_symbols))
            if value.is_Symbol:
                problem = f"symbol {name!r} has no value"
            else:
                problem = f"the value of {name!r} depends on symbols without a value ({free})"
            raise _LookupProblem(problem, UnboundSymbol)
        measured = _measure(value)
        if measured.size > MAX_NUMBER_BITS:
            raise _LookupProblem(
                f"the value of {name!r} is too large (more than {MAX_NUMBER_BITS} bits)"
            )
        return measured

    return _Parser(source, what, _lookup(values, read_value), number_mode=True).parse()


def number(value: Any, what: str = "number") -> Any:
    """``value`` as an exact number: a string in the spec grammar (``"log(3)"``,
    ``"1/10"``, ``"0.1"`` — a decimal written as text is read exactly) parsed by
    :func:`parse_expression`, anything else through
    :func:`verifier.arithmetic.exact.exact` (floats refused).  Errors are
    :class:`~verifier.errors.InvalidParameter`.

    >>> number("log(3)"), number("0.1"), number(2)
    (log(3), 1/10, 2)
    """
    if not isinstance(value, str):
        return exact(value)
    try:
        return parse_expression(value, what=what)
    except SpecError as err:
        raise InvalidParameter(str(err)) from None

"""The text of noise programs: tokenizer, parser and syntax tree.

A noise program is a small imperative program over a vector ``q`` of query answers:
it draws noise (Laplace, two-sided geometric, one-sided exponential, Gaussian, each
with a scale given as an expression in the program's parameters), does arithmetic linear in the
noises, compares, loops over the queries, counts, breaks, and outputs symbols
(``top``, ``bottom``), indices and noisy values.  The grammar (blocks by indentation,
``#`` comments)::

    program  := header NEWLINE [claim NEWLINE] stmt+
    header   := "program" NAME "(" [param ("," param)*] ")"
    param    := NAME ["=" expr]
    claim    := "claim" "epsilon" "=" expr
    stmt     := NAME "=" expr NEWLINE                  (a noise draw: NAME = laplace(expr))
              | "for" NAME "in" "queries" ":" block
              | "if" cond ":" block ["else" ":" block]
              | "output" expr NEWLINE
              | "break" NEWLINE
    block    := NEWLINE INDENT stmt+ DEDENT
    cond     := expr ("<" | "<=" | ">" | ">=" | "==" | "!=") expr
    expr     := term (("+" | "-") term)*
    term     := unary (("*" | "/") unary)*
    unary    := "-" unary | atom
    atom     := NUMBER | NAME | NAME "[" NAME "]" | NOISE "(" expr ")" | "(" expr ")"
              | "top" | "bottom" | "inf"

``NOISE`` is ``laplace``, ``geometric``, ``exponential`` or ``gaussian`` (whose
scale is the standard deviation) and may only be the whole right-hand side of an
assignment.  The text is read by a hand-written tokenizer and
recursive-descent parser — never ``eval`` and never Python's own parser — with limits
on its length, nesting and number of statements; every error is a
:class:`~verifier.errors.SpecError` naming the line and column.

>>> prog = parse_program('''
... program above(eps, T = 1)
... claim epsilon = eps
... rho = laplace(2/eps)
... for i in queries:
...     nu = laplace(4/eps)
...     if q[i] + nu >= T + rho:
...         output top
...         break
...     else:
...         output bottom
... ''')
>>> prog.name, [p.name for p in prog.params], type(prog.body[1]).__name__
('above', ['eps', 'T'], 'For')
>>> parse_program("program p(eps)\\nx = eval(1)")
Traceback (most recent call last):
...
verifier.errors.SpecError: program line 2:5: unknown function 'eval' (noise draws: laplace, geometric, exponential, gaussian)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

from ..errors import SpecError

__all__ = [
    "MAX_TEXT",
    "MAX_DEPTH",
    "MAX_STATEMENTS",
    "NOISES",
    "Pos",
    "Num",
    "Var",
    "Query",
    "Sym",
    "Inf",
    "Neg",
    "BinOp",
    "Draw",
    "Expr",
    "Assign",
    "For",
    "If",
    "Output",
    "Break",
    "Stmt",
    "Cond",
    "Param",
    "ProgramText",
    "parse_program",
    "run_program",
]

#: Longest program text (characters).
MAX_TEXT = 20_000
#: Deepest nesting of blocks and of parenthesised expressions.
MAX_DEPTH = 16
#: Most statements in one program.
MAX_STATEMENTS = 400
#: The noise draws and the distribution each names.
NOISES = ("laplace", "geometric", "exponential", "gaussian")
#: The words of the language (not usable as variable names).
KEYWORDS = frozenset(
    {"program", "claim", "for", "in", "queries", "if", "else", "output", "break"}
    | {"top", "bottom", "inf", "q", *NOISES}
)


@dataclass(frozen=True)
class Pos:
    """A line and column (1-based) of the program text."""

    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


# -- expressions ----------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    """An exact rational literal."""

    value: Fraction
    pos: Pos


@dataclass(frozen=True)
class Var:
    """A parameter, a variable or the loop index."""

    name: str
    pos: Pos


@dataclass(frozen=True)
class Query:
    """``q[index]``: the answer of the current query."""

    index: str
    pos: Pos


@dataclass(frozen=True)
class Sym:
    """An output symbol: ``top`` (⊤) or ``bottom`` (⊥)."""

    name: str
    pos: Pos


@dataclass(frozen=True)
class Inf:
    """``inf`` (``-inf`` is its negation): the start of a running maximum."""

    pos: Pos


@dataclass(frozen=True)
class Neg:
    operand: Expr
    pos: Pos


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Expr
    right: Expr
    pos: Pos


@dataclass(frozen=True)
class Draw:
    """A noise draw ``laplace(scale)`` / ``geometric(scale)`` / ``exponential(scale)`` /
    ``gaussian(sigma)``."""

    kind: str
    scale: Expr
    pos: Pos


Expr = Num | Var | Query | Sym | Inf | Neg | BinOp | Draw


# -- statements -----------------------------------------------------------------


@dataclass(frozen=True)
class Cond:
    op: str
    left: Expr
    right: Expr
    pos: Pos


@dataclass(frozen=True)
class Assign:
    name: str
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class For:
    var: str
    body: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class If:
    cond: Cond
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    pos: Pos


@dataclass(frozen=True)
class Output:
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class Break:
    pos: Pos


Stmt = Assign | For | If | Output | Break


@dataclass(frozen=True)
class Param:
    """A parameter of the program header, with its default (an expression in the
    parameters before it) or ``None``."""

    name: str
    default: Expr | None
    pos: Pos


@dataclass(frozen=True)
class ProgramText:
    """A parsed noise program: its name, parameters, optional claimed ε and body."""

    name: str
    params: tuple[Param, ...]
    claim: Expr | None
    body: tuple[Stmt, ...]
    text: str


# ---------------------------------------------------------------------------
# tokenizer
# ---------------------------------------------------------------------------

_OPS = ("<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "(", ")", "[", "]", ",", ":", "=")
#: The binary operators by precedence, loosest first: ``expr`` then ``term`` of the
#: grammar (module docstring), all left-associative.
_BINARY = (("+", "-"), ("*", "/"))


@dataclass(frozen=True)
class _Tok:
    kind: str  # NAME NUMBER OP NEWLINE INDENT DEDENT END
    text: str
    pos: Pos


def _err(pos: Pos | None, msg: str) -> SpecError:
    return SpecError(f"program line {pos}: {msg}" if pos is not None else f"program: {msg}")


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    indents = [0]
    lines = text.split("\n")
    for ln, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        if "\t" in line:
            raise _err(Pos(ln, line.index("\t") + 1), "tabs are not allowed; indent with spaces")
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        ind = len(body) - len(body.lstrip(" "))
        if ind > indents[-1]:
            if len(indents) > MAX_DEPTH:
                raise _err(Pos(ln, ind + 1), f"blocks nested deeper than {MAX_DEPTH}")
            indents.append(ind)
            toks.append(_Tok("INDENT", "", Pos(ln, ind + 1)))
        while ind < indents[-1]:
            indents.pop()
            toks.append(_Tok("DEDENT", "", Pos(ln, ind + 1)))
        if ind != indents[-1]:
            raise _err(Pos(ln, ind + 1), "this indentation matches no enclosing block")
        i = ind
        n = len(body)
        while i < n:
            ch = body[i]
            pos = Pos(ln, i + 1)
            if ch == " ":
                i += 1
            elif ch.isascii() and (ch.isalpha() or ch == "_"):
                j = i
                while j < n and body[j].isascii() and (body[j].isalnum() or body[j] == "_"):
                    j += 1
                toks.append(_Tok("NAME", body[i:j], pos))
                i = j
            elif ch.isascii() and ch.isdigit():
                j = i
                while j < n and body[j].isascii() and body[j].isdigit():
                    j += 1
                if j < n and body[j] == "." and j + 1 < n and body[j + 1].isdigit():
                    j += 1
                    while j < n and body[j].isascii() and body[j].isdigit():
                        j += 1
                if j - i > 30:
                    raise _err(pos, "number literal longer than 30 characters")
                toks.append(_Tok("NUMBER", body[i:j], pos))
                i = j
            else:
                for op in _OPS:
                    if body.startswith(op, i):
                        toks.append(_Tok("OP", op, pos))
                        i += len(op)
                        break
                else:
                    raise _err(pos, f"unexpected character {ch!r}")
        toks.append(_Tok("NEWLINE", "", Pos(ln, len(body) + 1)))
    end = Pos(len(lines) + 1, 1)
    while len(indents) > 1:
        indents.pop()
        toks.append(_Tok("DEDENT", "", end))
    toks.append(_Tok("END", "", end))
    return toks


# ---------------------------------------------------------------------------
# parser
# ---------------------------------------------------------------------------


class _Parser:
    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = toks
        self.i = 0
        self.depth = 0
        self.statements = 0

    # -- helpers --
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def _describe(self, t: _Tok) -> str:
        if t.kind in ("NAME", "NUMBER", "OP"):
            return repr(t.text)
        return {
            "NEWLINE": "end of line",
            "INDENT": "an indented block",
            "DEDENT": "end of block",
        }.get(t.kind, "end of program")

    def expect(self, kind: str, text: str | None = None, what: str | None = None) -> _Tok:
        t = self.tok
        if t.kind != kind or (text is not None and t.text != text):
            want = what or (repr(text) if text is not None else kind.lower())
            raise _err(t.pos, f"expected {want}, found {self._describe(t)}")
        self.i += 1
        return t

    def accept(self, kind: str, text: str | None = None) -> _Tok | None:
        t = self.tok
        if t.kind == kind and (text is None or t.text == text):
            self.i += 1
            return t
        return None

    def name(self, what: str) -> _Tok:
        t = self.expect("NAME", what=what)
        if t.text in KEYWORDS:
            raise _err(t.pos, f"{t.text!r} is a word of the language, not a {what}")
        return t

    # -- program --
    def program(self, text: str) -> ProgramText:
        while self.accept("NEWLINE"):
            pass
        self.expect("NAME", "program", what="the header 'program NAME(parameters)'")
        name = self.name("program name")
        self.expect("OP", "(")
        params: list[Param] = []
        if not self.accept("OP", ")"):
            while True:
                p = self.name("parameter name")
                if any(x.name == p.text for x in params):
                    raise _err(p.pos, f"parameter {p.text!r} is named twice")
                default = self.expr() if self.accept("OP", "=") else None
                params.append(Param(p.text, default, p.pos))
                if self.accept("OP", ")"):
                    break
                self.expect("OP", ",", what="',' or ')'")
        self.expect("NEWLINE", what="end of line after the header")
        claim = None
        if self.accept("NAME", "claim"):
            self.expect("NAME", "epsilon", what="'epsilon' (claim epsilon = EXPR)")
            self.expect("OP", "=")
            claim = self.expr()
            self.expect("NEWLINE")
        body = self.statements_until("END")
        if not body:
            raise _err(self.tok.pos, "the program has no statement")
        return ProgramText(name.text, tuple(params), claim, tuple(body), text)

    def statements_until(self, end: str) -> list[Stmt]:
        out: list[Stmt] = []
        while self.tok.kind != end:
            if self.tok.kind == "INDENT":
                raise _err(self.tok.pos, "unexpected indentation")
            out.append(self.statement())
        return out

    def block(self) -> tuple[Stmt, ...]:
        self.expect("OP", ":")
        self.expect("NEWLINE", what="end of line after ':'")
        self.expect("INDENT", what="an indented block")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _err(self.tok.pos, f"blocks nested deeper than {MAX_DEPTH}")
        body = self.statements_until("DEDENT")
        self.expect("DEDENT")
        self.depth -= 1
        return tuple(body)

    def statement(self) -> Stmt:
        self.statements += 1
        if self.statements > MAX_STATEMENTS:
            raise _err(self.tok.pos, f"more than {MAX_STATEMENTS} statements")
        t = self.tok
        if t.kind != "NAME":
            raise _err(t.pos, f"expected a statement, found {self._describe(t)}")
        if self.accept("NAME", "for"):
            var = self.name("loop variable")
            self.expect("NAME", "in", what="'in'")
            self.expect("NAME", "queries", what="'queries' (loops run over the queries)")
            return For(var.text, self.block(), t.pos)
        if self.accept("NAME", "if"):
            cond = self.cond()
            then = self.block()
            orelse: tuple[Stmt, ...] = ()
            if self.accept("NAME", "else"):
                orelse = self.block()
            return If(cond, then, orelse, t.pos)
        if t.text == "else":
            raise _err(t.pos, "'else' without a matching 'if'")
        if self.accept("NAME", "output"):
            shown = self.expr()
            self.expect("NEWLINE", what="end of line after the output")
            return Output(shown, t.pos)
        if self.accept("NAME", "break"):
            self.expect("NEWLINE", what="end of line after 'break'")
            return Break(t.pos)
        target = self.name("variable name")
        self.expect("OP", "=", what="'=' (an assignment) or a statement keyword")
        if self.tok.kind == "NAME" and self.tok.text in NOISES:
            value: Expr = self.draw()
        else:
            value = self.expr()
        self.expect("NEWLINE", what="end of line after the assignment")
        return Assign(target.text, value, t.pos)

    def draw(self) -> Draw:
        t = self.expect("NAME")
        self.expect("OP", "(", what=f"'(' after {t.text}")
        scale = self.expr()
        self.expect("OP", ")", what="')' (a noise draw takes one argument, its scale)")
        return Draw(t.text, scale, t.pos)

    def cond(self) -> Cond:
        left = self.expr()
        t = self.tok
        if not (t.kind == "OP" and t.text in ("<", "<=", ">", ">=", "==", "!=")):
            raise _err(
                t.pos, f"expected a comparison (<, <=, >, >=, ==, !=), found {self._describe(t)}"
            )
        self.i += 1
        return Cond(t.text, left, self.expr(), t.pos)

    def nested(self, pos: Pos) -> None:
        """One level deeper into an expression (a parenthesis, a sign), refused past
        ``4 * MAX_DEPTH`` at ``pos``; the caller steps back out (``depth -= 1``)."""
        self.depth += 1
        if self.depth > MAX_DEPTH * 4:
            raise _err(pos, "expression nested too deeply")

    def expr(self) -> Expr:
        self.nested(self.tok.pos)
        out = self.binary(0)
        self.depth -= 1
        return out

    def binary(self, level: int) -> Expr:
        """Operands joined left to right by the operators of ``_BINARY[level]``, each
        operand at the next level (``term`` under ``expr``), below the last a
        :meth:`unary`."""
        operand: Callable[[], Expr] = (
            partial(self.binary, level + 1) if level + 1 < len(_BINARY) else self.unary
        )
        out = operand()
        while self.tok.kind == "OP" and self.tok.text in _BINARY[level]:
            t = self.tok
            self.i += 1
            out = BinOp(t.text, out, operand(), t.pos)
        return out

    def unary(self) -> Expr:
        t = self.tok
        if not self.accept("OP", "-"):
            return self.atom()
        self.nested(t.pos)
        out = Neg(self.unary(), t.pos)
        self.depth -= 1
        return out

    def atom(self) -> Expr:
        t = self.tok
        if self.accept("NUMBER"):
            return Num(Fraction(t.text), t.pos)
        if self.accept("OP", "("):
            e = self.expr()
            self.expect("OP", ")")
            return e
        if t.kind == "NAME":
            if t.text in NOISES:
                raise _err(
                    t.pos,
                    f"a noise draw ({t.text}) must be the whole right-hand side of an assignment",
                )
            self.i += 1
            if t.text in ("top", "bottom"):
                return Sym(t.text, t.pos)
            if t.text == "inf":
                return Inf(t.pos)
            if t.text == "q":
                self.expect("OP", "[", what="'[' (q[i]: the answer of query i)")
                idx = self.name("loop variable")
                self.expect("OP", "]")
                return Query(idx.text, t.pos)
            if self.tok.kind == "OP" and self.tok.text == "(":
                raise _err(t.pos, f"unknown function {t.text!r} (noise draws: {', '.join(NOISES)})")
            if t.text in KEYWORDS:
                raise _err(t.pos, f"{t.text!r} cannot be used in an expression")
            return Var(t.text, t.pos)
        raise _err(t.pos, f"expected an expression, found {self._describe(t)}")


def parse_program(text: str) -> ProgramText:
    """Parse a noise program (module docstring); :class:`~verifier.errors.SpecError`
    with the line and column of the first problem."""
    if not isinstance(text, str):
        raise SpecError(f"program: expected text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise SpecError(f"program: the text is longer than {MAX_TEXT} characters")
    bad = next((c for c in text if not c.isprintable() and c not in "\n\r\t"), None)
    if bad is not None:
        raise SpecError(f"program: control character {bad!r} in the text")
    p = _Parser(_tokenize(text))
    prog = p.program(text)
    _check_scopes(prog)
    return prog


def _walk(stmts: Sequence[Stmt]) -> list[Stmt]:
    out: list[Stmt] = []
    for s in stmts:
        out.append(s)
        if isinstance(s, For):
            out += _walk(s.body)
        elif isinstance(s, If):
            out += _walk(s.then) + _walk(s.orelse)
    return out


def _exprs(e: Expr) -> list[Expr]:
    if isinstance(e, Neg):
        return [e, *_exprs(e.operand)]
    if isinstance(e, BinOp):
        return [e, *_exprs(e.left), *_exprs(e.right)]
    if isinstance(e, Draw):
        return [e, *_exprs(e.scale)]
    return [e]


def _check_scopes(prog: ProgramText) -> None:
    """Names are defined before use: parameters, assigned variables, the loop
    variable inside its loop; ``break`` and ``q[i]`` inside a loop; loops not nested;
    parameters never assigned."""
    params = {p.name for p in prog.params}
    seen: set[str] = set()
    for p in prog.params:
        if p.default is not None:
            _check_names(p.default, seen, None, "a default")
        seen.add(p.name)
    if prog.claim is not None:
        _check_names(prog.claim, params, None, "the claim")

    def visit(stmts: Sequence[Stmt], defined: set[str], loop: str | None) -> None:
        for s in stmts:
            if isinstance(s, Assign):
                if s.name in params:
                    raise _err(s.pos, f"parameter {s.name!r} cannot be assigned")
                if s.name == loop:
                    raise _err(s.pos, f"the loop variable {s.name!r} cannot be assigned")
                _check_names(s.value, defined, loop, f"the value of {s.name!r}")
                defined.add(s.name)
            elif isinstance(s, For):
                if loop is not None:
                    raise _err(s.pos, "loops cannot be nested (one loop over the queries)")
                if s.var in defined or s.var in params:
                    raise _err(s.pos, f"the loop variable {s.var!r} is already a name")
                visit(s.body, defined, s.var)
            elif isinstance(s, If):
                _check_names(s.cond.left, defined, loop, "the condition")
                _check_names(s.cond.right, defined, loop, "the condition")
                a, b = set(defined), set(defined)
                visit(s.then, a, loop)
                visit(s.orelse, b, loop)
                defined |= a & b
                # a name assigned on one branch only is defined afterwards only
                # if it was before
            elif isinstance(s, Output):
                _check_names(s.value, defined, loop, "the output")
            elif isinstance(s, Break) and loop is None:
                raise _err(s.pos, "'break' outside a loop")

    visit(prog.body, set(params), None)


def _check_names(e: Expr, defined: set[str], loop: str | None, where: str) -> None:
    for x in _exprs(e):
        if isinstance(x, Var) and x.name not in defined and x.name != loop:
            raise _err(x.pos, f"{x.name!r} is not defined before {where}")
        if isinstance(x, Query) and (loop is None or x.index != loop):
            what = "outside a loop" if loop is None else f"with index {x.index!r}, not {loop!r}"
            raise _err(x.pos, f"q[{x.index}] {what}: q[i] is the answer of the current query")


# ---------------------------------------------------------------------------
# a direct sampler of the syntax tree (the reference the exact laws are tested against)
# ---------------------------------------------------------------------------


class _Break(Exception):
    pass


def run_program(
    prog: ProgramText,
    q: Sequence[Any],
    args: Mapping[str, Any],
    rng: random.Random,
) -> tuple[Any, ...]:
    """One run of ``prog`` on the query answers ``q`` with the parameter values
    ``args`` (numbers; defaults filled in), drawing noises from ``rng``: the tuple of
    its outputs (``"⊤"``, ``"⊥"``, indices, floats).  It executes the syntax tree
    statement by statement — independently of the exact laws — with floating-point
    noise (Laplace as a signed exponential, the one-sided exponential and the Gaussian
    directly, the two-sided geometric as the difference of two geometric variables, Inusah &
    Kozubowski 2006); only for tests comparing exact laws with a seeded simulation.

    >>> prog = parse_program("program p(eps)\\nfor i in queries:\\n    output q[i]")
    >>> run_program(prog, [3, 4], {"eps": 1}, random.Random(0))
    (3.0, 4.0)
    """
    env: dict[str, float] = {}
    for p in prog.params:
        if p.name in args:
            env[p.name] = float(Fraction(args[p.name]))
        elif p.default is not None:
            env[p.name] = _eval(p.default, env, q, None, rng)
        else:
            raise SpecError(f"program: no value for parameter {p.name!r}")
    out: list[Any] = []
    _exec(prog.body, env, q, None, rng, out)
    return tuple(out)


def _draw(kind: str, scale: float, rng: random.Random) -> float:
    if not scale > 0:
        raise SpecError(f"program: a noise scale must be positive, got {scale}")
    if kind == "laplace":
        return rng.expovariate(1 / scale) * (1 if rng.random() < 0.5 else -1)
    if kind == "exponential":
        return rng.expovariate(1 / scale)
    if kind == "gaussian":
        return rng.gauss(0.0, scale)

    def geo() -> int:
        return int(math.floor(math.log(1.0 - rng.random()) * scale / -1.0))

    return float(geo() - geo())


def _eval(
    e: Expr, env: dict[str, float], q: Sequence[Any], i: int | None, rng: random.Random
) -> Any:
    if isinstance(e, Num):
        return float(e.value)
    if isinstance(e, Var):
        return env[e.name]
    if isinstance(e, Query):
        assert i is not None
        return float(Fraction(q[i]))
    if isinstance(e, Sym):
        return "⊤" if e.name == "top" else "⊥"
    if isinstance(e, Inf):
        return math.inf
    if isinstance(e, Neg):
        return -_eval(e.operand, env, q, i, rng)
    if isinstance(e, Draw):
        return _draw(e.kind, _eval(e.scale, env, q, i, rng), rng)
    a, b = _eval(e.left, env, q, i, rng), _eval(e.right, env, q, i, rng)
    return {"+": a + b, "-": a - b, "*": a * b}[e.op] if e.op != "/" else a / b


_CMP = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def _exec(
    stmts: Sequence[Stmt],
    env: dict[str, Any],
    q: Sequence[Any],
    i: int | None,
    rng: random.Random,
    out: list[Any],
) -> None:
    for s in stmts:
        if isinstance(s, Assign):
            env[s.name] = _eval(s.value, env, q, i, rng)
        elif isinstance(s, For):
            for k in range(len(q)):
                env[s.var] = k
                try:
                    _exec(s.body, env, q, k, rng, out)
                except _Break:
                    break
        elif isinstance(s, If):
            a, b = _eval(s.cond.left, env, q, i, rng), _eval(s.cond.right, env, q, i, rng)
            _exec(s.then if _CMP[s.cond.op](a, b) else s.orelse, env, q, i, rng, out)
        elif isinstance(s, Output):
            v = _eval(s.value, env, q, i, rng)
            out.append(v)
        else:
            raise _Break

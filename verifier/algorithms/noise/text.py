"""Noise programs written as text, lowered to the exact program models.

:func:`lower` takes a parsed noise program (:mod:`verifier.programs.syntax`) and the
values of its parameters and returns the exact model it denotes — a
:class:`~.svt.SparseVector` or a :class:`~.noisy_max.NoisyMax` — when the program has
one of the two shapes whose law is known in closed form, and refuses everything else
with :class:`Refused` (an :class:`~verifier.errors.InvalidMechanism`) naming the
statement (line:column) and the reason.

The two shapes rest on one structural fact (Lyu, Su, Li 2017, "Understanding the
sparse vector technique for differential privacy", VLDB, proof of Theorem 2): given
one *outer* noise the per-query answers are independent, so every output probability
is a sum (integral) over that noise of a product of per-query factors.

* **Threshold programs** (the sparse vector family, Lyu et al. 2017, Figure 1):
  before the loop an outer noise ``rho`` and optionally a counter ``count = 0``; in the
  loop fresh per-query noises, then one ``if`` comparing a form linear in ``q[i]``,
  one query noise, ``rho`` and constants, whose difference is ``q[i] + nu - rho - T``;
  the branch where it holds outputs ``top``, the noisy answer ``q[i] + nu`` (Lyu et
  al. Alg. 3), the gap ``q[i] + nu - rho - T`` (Ding, Wang, Zhang, Kifer 2019, GapSVT)
  or ``q[i] + xi`` with a fresh noise ``xi`` (Wang et al. 2019, NumericalSVT), may
  redraw ``rho`` (Lyu et al. Alg. 2), and counts and breaks (``count = count + 1``,
  ``if count == c: break`` or a bare ``break``); the other branch outputs ``bottom``.
* **Running-maximum programs** (Report-Noisy-Max, Dwork & Roth 2014, §3.3; Ding,
  Wang, Wang, Zhang, Kifer 2018, "Detecting violations of differential privacy", CCS,
  Algorithms 5-8): before the loop ``best = -inf`` (and an index variable); in the
  loop a fresh noise ``nu`` and ``if q[i] + nu > best:`` updating ``best`` to
  ``q[i] + nu`` and the index to ``i``; after the loop ``output`` the index (argmax)
  or ``best`` (the noisy maximum).

Within a shape the lowering is exact: strict and non-strict comparisons differ only
on ties, which have probability zero under continuous noise, and under integer noise
``x > T`` is ``x >= T + 1``; ties of the running maximum go to the lowest index with
``>`` as in the model, and ``>=`` (the highest index) is accepted for continuous noise
only.  Variables bound to linear forms (``x = q[i] + nu``) are substituted.

>>> from verifier.programs.syntax import parse_program
>>> prog = parse_program('''
... program svt(eps, c = 1, T = 0)
... claim epsilon = eps
... rho = laplace(2/eps)
... count = 0
... for i in queries:
...     nu = laplace(4*c/eps)
...     if q[i] + nu >= T + rho:
...         output top
...         count = count + 1
...         if count == c:
...             break
...     else:
...         output bottom
... ''')
>>> from verifier.algorithms.noise.svt import lyu_svt
>>> m = lower(prog, {"eps": 1, "c": 2})
>>> ref = lyu_svt(1, 1, 2, noise="laplace")
>>> (m.threshold_noise, m.query_noise, m.cutoff) == (ref.threshold_noise, ref.query_noise, 2)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import sympy as sp

from ...errors import InvalidMechanism, InvalidParameter, SpecError, VerifierError
from ...mechanism.model import FiniteMechanism
from ...programs.syntax import (
    Assign,
    BinOp,
    Break,
    Cond,
    Draw,
    Expr,
    For,
    If,
    Inf,
    Neg,
    Num,
    Output,
    ProgramText,
    Query,
    Stmt,
    Sym,
    Var,
    parse_program,
)
from ..estimates import Estimate, register_estimate, saturating
from ..registry import Param, Values, exact_number, transformer
from .distributions import NO_NOISE, Noise, noise_family
from .gaussian import (
    GaussianModel,
    as_laplace,
    from_laplace_model,
    gaussian_mechanism,
    uses_gaussian,
)
from .interpreter import PROGRAM_PARAMS, answers_of, program_mechanism
from .linear import LinearRelease, Refused, is_linear_release, linear_mechanism, linear_release
from .noisy_max import NoisyMax
from .svt import ANSWERS_ONLY_PARAM, SparseVector

__all__ = [
    "MaxDensity",
    "Refused",
    "lower",
    "lower_gaussian",
    "lower_linear",
    "lower_text",
    "parameter_values",
]

#: The constant term of a linear form.
_ONE = "1"
#: The running maximum of a running-maximum program, in linear forms.
_BEST = "best"


@dataclass(frozen=True)
class MaxDensity:
    """The noisy maximum ``max_i (q_i + ν_i)`` under continuous noise (Laplace or
    one-sided exponential): its law is a density, not a finite distribution, so it
    has no :class:`~.noisy_max.NoisyMax` model; :func:`~.noisy_max.max_density` gives
    its density on an answer vector and :func:`~.density_ratio.sup_log_ratio` the
    exact supremum of the ratio of two such densities (one dimension per output)."""

    name: str
    noise: Noise
    claimed: sp.Expr | None = None
    source: str = "program text"


def _refuse(node: Any, why: str) -> Refused:
    pos = getattr(node, "pos", None)
    return Refused(f"program line {pos}: {why}" if pos is not None else f"program: {why}")


def parameter_values(prog: ProgramText, args: Mapping[str, Any]) -> dict[str, sp.Expr]:
    """The exact value of every parameter: from ``args`` (numbers, exact text), else
    the header's default; :class:`~verifier.errors.InvalidParameter` for a missing or
    unknown one."""
    names = {p.name for p in prog.params}
    unknown = sorted(set(args) - names)
    if unknown:
        raise InvalidParameter(
            f"program {prog.name!r} has no parameter {unknown[0]!r} "
            f"(parameters: {', '.join(sorted(names)) or 'none'})"
        )
    env: dict[str, sp.Expr] = {}
    for p in prog.params:
        if p.name in args and isinstance(args[p.name], sp.Symbol):
            env[p.name] = args[p.name]  # a symbolic parameter (linear releases, over a range)
        elif p.name in args:
            env[p.name] = exact_number(args[p.name], {})
        elif p.default is not None:
            env[p.name] = _const(p.default, env)
        else:
            raise InvalidParameter(f"program {prog.name!r}: no value for parameter {p.name!r}")
    return env


def _const(e: Expr, env: Mapping[str, sp.Expr]) -> sp.Expr:
    """An expression of parameters and numbers, exactly."""
    if isinstance(e, Num):
        return sp.Rational(e.value.numerator, e.value.denominator)
    if isinstance(e, Var):
        if e.name not in env:
            raise _refuse(e, f"{e.name!r} is not a parameter here (a constant is expected)")
        return env[e.name]
    if isinstance(e, Neg):
        return -_const(e.operand, env)
    if isinstance(e, BinOp):
        a, b = _const(e.left, env), _const(e.right, env)
        if e.op == "/":
            if b == 0:
                raise _refuse(e, "division by zero")
            return a / b
        return {"+": a + b, "-": a - b, "*": a * b}[e.op]
    raise _refuse(e, "a constant (numbers and parameters) is expected here")


Linear = dict[str, sp.Expr]


def _lin(e: Expr, env: Mapping[str, sp.Expr], atoms: Mapping[str, Linear]) -> Linear:
    """The linear form of ``e`` over the atoms ``q`` (the current answer), the noises
    and the running maximum (``atoms``: variable name -> its form)."""
    if isinstance(e, Query):
        return {"q": sp.Integer(1)}
    if isinstance(e, Var) and e.name in atoms:
        return dict(atoms[e.name])
    if isinstance(e, (Num, Var)):
        return {_ONE: _const(e, env)}
    if isinstance(e, Neg):
        return {k: -v for k, v in _lin(e.operand, env, atoms).items()}
    if isinstance(e, BinOp):
        a, b = _lin(e.left, env, atoms), _lin(e.right, env, atoms)
        if e.op in "+-":
            s = 1 if e.op == "+" else -1
            out = dict(a)
            for k, v in b.items():
                out[k] = out.get(k, sp.Integer(0)) + s * v
            return {k: v for k, v in out.items() if v != 0}
        if e.op == "*":
            if set(a) <= {_ONE}:
                a, b = b, a
            if not set(b) <= {_ONE}:
                raise _refuse(
                    e, "a product of two noisy quantities: the law is not linear in the noises"
                )
            c = b.get(_ONE, sp.Integer(0))
            return {k: v * c for k, v in a.items() if v * c != 0}
        if not set(b) <= {_ONE} or b.get(_ONE, 0) == 0:
            raise _refuse(e, "division by a noisy quantity or by zero")
        return {k: v / b[_ONE] for k, v in a.items()}
    if isinstance(e, Inf):
        raise _refuse(e, "'inf' is only the start of a running maximum (best = -inf)")
    if isinstance(e, Sym):
        raise _refuse(e, f"the symbol {e.name!r} is an output, not a number")
    raise _refuse(e, "a noise draw must be assigned to a variable")


def _noise(d: Draw, env: Mapping[str, sp.Expr]) -> Noise:
    scale = _const(d.scale, env)
    if not scale.is_positive:
        raise _refuse(d, f"the scale of {d.kind} noise must be positive, got {scale}")
    return noise_family(d.kind, 1 / scale)


def _is_counter_inc(s: Stmt, counter: str | None) -> bool:
    return (
        counter is not None
        and isinstance(s, Assign)
        and s.name == counter
        and isinstance(s.value, BinOp)
        and s.value.op == "+"
        and isinstance(s.value.left, Var)
        and s.value.left.name == counter
        and isinstance(s.value.right, Num)
        and s.value.right.value == 1
    )


def _output_symbol(stmts: Sequence[Stmt], sym: str, where: Any) -> None:
    outs = [s for s in stmts if isinstance(s, Output)]
    if (
        len(stmts) != 1
        or len(outs) != 1
        or not (isinstance(outs[0].value, Sym) and outs[0].value.name == sym)
    ):
        raise _refuse(
            stmts[0] if stmts else where,
            f"the branch where the comparison fails must be exactly 'output {sym}' "
            "(one symbol per query below the threshold, Lyu et al. 2017, Figure 1)",
        )


def lower(
    prog: ProgramText,
    args: Mapping[str, Any] | None = None,
    *,
    buckets: Sequence[int] | None = None,
    densities: bool = False,
) -> SparseVector | NoisyMax | MaxDensity:
    """The exact model of ``prog`` with its parameters set by ``args`` (module
    docstring), or :class:`Refused` naming the statement and why its law is out of
    reach.  ``buckets`` (integer cut points) release the bucket of a released value
    instead of the value (a post-processing).  A released value with a density is
    returned as a model all the same (a :class:`~.svt.SparseVector` whose
    ``has_density`` is true; a :class:`MaxDensity` for the noisy maximum) with
    ``densities=True``, and refused otherwise (the finite interpreter cannot take
    it)."""
    if uses_gaussian(prog):
        raise _refuse(
            None,
            "Gaussian noise has no closed-form law: lower_gaussian gives its model, "
            "whose probabilities are certified enclosures (verifier.algorithms.noise.gaussian)",
        )
    if is_linear_release(prog):
        raise _refuse(
            None,
            "a linear release (no comparison reads a noise or an answer): lower_linear "
            "gives its model (verifier.algorithms.noise.linear)",
        )
    b = None if buckets is None else tuple(buckets)
    env = parameter_values(prog, args or {})
    claimed = None if prog.claim is None else _const(prog.claim, env)
    loops = [i for i, s in enumerate(prog.body) if isinstance(s, For)]
    if len(loops) != 1:
        raise _refuse(
            prog.body[0] if not loops else prog.body[loops[1]],
            "a noise program has exactly one loop over the queries",
        )
    k = loops[0]
    before, loop, after = prog.body[:k], prog.body[k], prog.body[k + 1 :]
    assert isinstance(loop, For)
    pre: dict[str, Any] = {}
    noises: dict[str, Noise] = {}
    for s in before:
        if not isinstance(s, Assign):
            raise _refuse(
                s,
                "before the loop only assignments (the outer noise, a counter, a running maximum)",
            )
        if s.name in pre or s.name in noises:
            raise _refuse(s, f"{s.name!r} is assigned twice before the loop")
        if isinstance(s.value, Draw):
            noises[s.name] = _noise(s.value, env)
        else:
            pre[s.name] = s.value
    if after and noises:
        raise _refuse(
            after[0],
            "a threshold program ends with its loop (its outputs are the answers); after "
            "the loop only a running-maximum program outputs, once",
        )
    if after:
        return _lower_max(prog, env, claimed, noises, pre, loop, after, b, densities)
    return _lower_threshold(prog, env, claimed, noises, pre, loop, b)


def _lower_threshold(
    prog: ProgramText,
    env: dict[str, sp.Expr],
    claimed: sp.Expr | None,
    outer: dict[str, Noise],
    pre: dict[str, Any],
    loop: For,
    buckets: tuple[int, ...] | None = None,
) -> SparseVector:
    if len(outer) != 1:
        raise _refuse(
            loop,
            "a threshold program draws exactly one outer noise before the loop (the "
            f"threshold noise; found {len(outer)}): given it the answers are independent "
            "(Lyu et al. 2017, proof of Theorem 2)",
        )
    ((rho, rho_noise),) = outer.items()
    counter = None
    for name, value in pre.items():
        if isinstance(value, Num) and value.value == 0 and counter is None:
            counter = name
        else:
            raise _refuse(
                value, f"{name!r}: before the loop a threshold program sets only a counter to 0"
            )
    fresh: dict[str, Noise] = {}
    atoms: dict[str, Linear] = {rho: {rho: sp.Integer(1)}}
    body = list(loop.body)
    if not body or not isinstance(body[-1], If):
        raise _refuse(
            loop, "the loop must end with one 'if' comparing the noisy answer with the threshold"
        )
    for s in body[:-1]:
        if not isinstance(s, Assign):
            raise _refuse(
                s, "before the comparison the loop only draws fresh noises or names linear forms"
            )
        if s.name in outer or s.name == counter or s.name in pre:
            raise _refuse(
                s,
                f"{s.name!r} is assigned in the loop before the comparison: per-query "
                "statements draw fresh noises only (the outer noise is redrawn after a top only)",
            )
        _name_per_query(s, env, fresh, atoms)
    test = body[-1]
    assert isinstance(test, If)
    d, strict, above, below = _threshold_test(test.cond, env, atoms, test)
    if set(d) - {"q", rho, _ONE} - set(fresh):
        raise _refuse(
            test.cond,
            "the comparison reads a variable that is neither the answer, a noise nor a constant",
        )
    if d.get(rho) != -1:
        raise _refuse(
            test.cond,
            f"the comparison must subtract the outer noise {rho!r} once "
            "(q[i] + nu >= T + rho): other coefficients change the law's shape",
        )
    nus = [n for n in fresh if n in d]
    if len(nus) > 1:
        raise _refuse(test.cond, "at most one query noise in the comparison")
    if nus and d[nus[0]] != 1:
        raise _refuse(
            test.cond,
            f"the query noise {nus[0]!r} must enter with coefficient 1 (scale it in its draw)",
        )
    nu = nus[0] if nus else None
    T = -d.get(_ONE, sp.Integer(0))
    if not T.is_Rational:
        raise _refuse(test.cond, f"the threshold must be a rational number, got {T}")
    _output_symbol(list(below), "bottom", test)
    # the branch above the threshold: one output, optional redraw, counter, break
    release = None
    value_noise = NO_NOISE
    resample: Noise | None = None
    cutoff: int | None = None
    counted = False
    stmts = list(above)
    for j, s in enumerate(stmts):
        last = j == len(stmts) - 1
        if isinstance(s, Output):
            if release is not None:
                raise _refuse(s, "one output per query")
            release, value_noise = _release(s, d, nu, rho, fresh, atoms, env)
        elif isinstance(s, Assign) and s.name == rho and isinstance(s.value, Draw):
            if resample is not None:
                raise _refuse(s, "the outer noise is redrawn twice")
            resample = _noise(s.value, env)
        elif isinstance(s, Assign) and isinstance(s.value, Draw) and s.name not in atoms:
            fresh[s.name] = _noise(s.value, env)
            atoms[s.name] = {s.name: sp.Integer(1)}
        elif _is_counter_inc(s, counter):
            if counted:
                raise _refuse(s, "the counter is increased twice")
            counted = True
        elif isinstance(s, Break) and last:
            cutoff = 1
        elif isinstance(s, If) and last and counter is not None and counted:
            cutoff = _cutoff_test(s, counter, env)
        else:
            raise _refuse(
                s,
                "above the threshold a program outputs, may redraw the outer noise, "
                "increases the counter and stops at the cutoff (in that order); this "
                "statement is none of these",
            )
    if release is None:
        raise _refuse(test, "the branch above the threshold outputs nothing")
    if counter is not None and cutoff is None:
        raise _refuse(
            test,
            f"the counter {counter!r} is never tested: 'if {counter} == c: break' after it is increased",
        )
    kind_names = {n.kind for n in [rho_noise, *fresh.values()]}
    if len(kind_names) > 1:
        raise _refuse(
            loop,
            f"noises of different families ({', '.join(sorted(kind_names))}) in one threshold program",
        )
    if strict and rho_noise.kind == "geometric":
        T = T + 1 if T.is_Integer else sp.ceiling(T)
    elif rho_noise.kind == "geometric" and not T.is_Integer:
        T = sp.ceiling(T)
    try:
        return SparseVector(
            prog.name,
            rho_noise,
            fresh[nu] if nu is not None else NO_NOISE,
            cutoff,
            release=release,
            value_noise=value_noise,
            resample_noise=resample,
            threshold=T,
            buckets=buckets,
            claimed=claimed,
            source="program text",
        )
    except VerifierError as err:
        raise _refuse(loop, str(err)) from None


def _name_per_query(
    s: Assign, env: Mapping[str, sp.Expr], fresh: dict[str, Noise], atoms: dict[str, Linear]
) -> None:
    """A statement of the loop before its comparison: a fresh noise draw (an atom of its
    own) or a name for a linear form of the atoms so far."""
    if isinstance(s.value, Draw):
        fresh[s.name] = _noise(s.value, env)
        atoms[s.name] = {s.name: sp.Integer(1)}
    else:
        atoms[s.name] = _lin(s.value, env, atoms)


def _threshold_test(
    cond: Cond, env: Mapping[str, sp.Expr], atoms: Mapping[str, Linear], node: If
) -> tuple[Linear, bool, tuple[Stmt, ...], tuple[Stmt, ...]]:
    """``(D, strict, above, below)``: the comparison as ``D >= 0`` (``> 0`` if
    strict) with ``q`` of coefficient 1, and the branches where it holds and fails."""
    if cond.op in ("==", "!="):
        raise _refuse(cond, "an equality test of noisy values is not a threshold test")
    d = _lin(cond.left, env, atoms)
    for k, v in _lin(cond.right, env, atoms).items():
        d[k] = d.get(k, sp.Integer(0)) - v
    d = {k: v for k, v in d.items() if v != 0}
    cq = d.get("q")
    if cq not in (1, -1):
        raise _refuse(cond, "the comparison must hold the query answer q[i] with coefficient 1")
    ge = cond.op in (">", ">=")
    if cq == -1:
        d = {k: -v for k, v in d.items()}
        ge = not ge
    if ge:
        return d, cond.op in (">", "<"), node.then, node.orelse
    # D < 0 (or <= 0) holds in 'then': above the threshold is the else branch
    return d, cond.op in ("<=", ">="), node.orelse, node.then


def _release(
    s: Output,
    d: Linear,
    nu: str | None,
    rho: str,
    fresh: Mapping[str, Noise],
    atoms: Mapping[str, Linear],
    env: Mapping[str, sp.Expr],
) -> tuple[Any, Noise]:
    if isinstance(s.value, Sym):
        if s.value.name != "top":
            raise _refuse(s, "above the threshold the symbol output is 'top'")
        return "bit", NO_NOISE
    if isinstance(s.value, Var) and s.value.name not in atoms:
        raise _refuse(
            s,
            "releasing an index or a counter: write 'output top' (the answer "
            "sequence determines the indices of the tops)",
        )
    v = _lin(s.value, env, atoms)
    if nu is not None and v == {"q": 1, nu: 1}:
        return "value", NO_NOISE
    if v == d:
        return "gap", NO_NOISE
    others = [n for n in v if n in fresh and n != nu]
    if len(others) == 1 and v == {"q": 1, others[0]: 1} and others[0] not in d:
        return "fresh", fresh[others[0]]
    raise _refuse(
        s,
        "the released value must be the noisy answer q[i] + nu (Lyu et al. Alg. 3), the "
        "gap q[i] + nu - T - rho (GapSVT) or q[i] + xi with a fresh noise xi "
        "(NumericalSVT): other combinations of the noises have no one-dimensional law here",
    )


def _cutoff_test(s: If, counter: str, env: Mapping[str, sp.Expr]) -> int:
    ok = (
        isinstance(s.cond.left, Var)
        and s.cond.left.name == counter
        and s.cond.op in ("==", ">=")
        and len(s.then) == 1
        and isinstance(s.then[0], Break)
        and not s.orelse
    )
    if not ok:
        raise _refuse(s, f"the cutoff test must be 'if {counter} == c: break' (or >=)")
    c = _const(s.cond.right, env)
    if not c.is_Integer or c < 1:
        raise _refuse(s.cond, f"the cutoff must be a positive integer, got {c}")
    return int(c)


def _lower_max(
    prog: ProgramText,
    env: dict[str, sp.Expr],
    claimed: sp.Expr | None,
    outer: dict[str, Noise],
    pre: dict[str, Any],
    loop: For,
    after: Sequence[Stmt],
    buckets: tuple[int, ...] | None = None,
    densities: bool = False,
) -> NoisyMax | MaxDensity:
    if outer:
        raise _refuse(loop, "a running-maximum program draws no noise before the loop")
    best = [n for n, v in pre.items() if isinstance(v, Neg) and isinstance(v.operand, Inf)]
    if len(best) != 1:
        raise _refuse(
            loop,
            "a running-maximum program starts its maximum at -inf before the loop (best = -inf)",
        )
    m = best[0]
    index = [n for n, v in pre.items() if n != m]
    for n in index:
        if not isinstance(pre[n], Num):
            raise _refuse(
                pre[n], f"{n!r}: before the loop only the maximum (-inf) and an index (a number)"
            )
    atoms: dict[str, Linear] = {m: {_BEST: sp.Integer(1)}}
    fresh: dict[str, Noise] = {}
    body = list(loop.body)
    if not body or not isinstance(body[-1], If):
        raise _refuse(loop, "the loop must end with 'if q[i] + nu > best:'")
    for s in body[:-1]:
        if not isinstance(s, Assign) or s.name in pre:
            raise _refuse(
                s, "before the comparison the loop only draws a fresh noise or names linear forms"
            )
        _name_per_query(s, env, fresh, atoms)
    test = body[-1]
    assert isinstance(test, If)
    d, strict, above, below = _threshold_test(test.cond, env, atoms, test)
    if below:
        raise _refuse(test, "a running maximum has no 'else' branch")
    nus = [n for n in fresh if n in d]
    if d.get(_BEST) != -1 or len(nus) != 1 or d.get(nus[0]) != 1 or set(d) != {"q", _BEST, nus[0]}:
        raise _refuse(test.cond, "the comparison must be q[i] + nu > best with one fresh noise nu")
    nu = nus[0]
    noise = fresh[nu]
    if not strict and not noise.continuous:
        raise _refuse(
            test.cond,
            ">= gives ties to the highest index, which integer noise makes "
            "likely: write > (ties to the lowest index, the model's rule)",
        )
    updated: set[str] = set()
    for s in above:
        if isinstance(s, Assign) and s.name == m and _lin(s.value, env, atoms) == {"q": 1, nu: 1}:
            updated.add(m)
        elif (
            isinstance(s, Assign)
            and s.name in index
            and isinstance(s.value, Var)
            and s.value.name == loop.var
        ):
            updated.add(s.name)
        else:
            raise _refuse(
                s, f"a new maximum sets {m} = q[i] + {nu} and the index to {loop.var}, nothing else"
            )
    if m not in updated:
        raise _refuse(test, f"a new maximum must set {m} = q[i] + {nu}")
    if len(after) != 1 or not isinstance(after[0], Output) or not isinstance(after[0].value, Var):
        raise _refuse(
            after[0],
            "after the loop a running-maximum program outputs the index or the maximum, once",
        )
    name = after[0].value.name
    release: Literal["argmax", "value"]
    if name == m:
        release = "value"
    elif name in updated:
        release = "argmax"
    else:
        raise _refuse(after[0], f"{name!r} is neither the maximum nor an index updated with it")
    if release == "value" and noise.continuous and buckets is None and densities:
        return MaxDensity(prog.name, noise, claimed)
    try:
        return NoisyMax(
            prog.name, noise, release, buckets=buckets, claimed=claimed, source="program text"
        )
    except VerifierError as err:
        raise _refuse(after[0], str(err)) from None


def lower_gaussian(prog: ProgramText, args: Mapping[str, Any] | None = None) -> GaussianModel:
    """The model of a program drawing Gaussian noise: the shapes of :func:`lower` with
    each ``gaussian(σ)`` in place of a Laplace draw of scale ``σ``, read back as
    standard deviations (:mod:`.gaussian`; value releases are refused there)."""
    if is_linear_release(prog):
        lower_linear(prog, args)  # refuses the first Gaussian draw with the reason
    return from_laplace_model(lower(as_laplace(prog), args, densities=True), prog.name)


def lower_linear(prog: ProgramText, args: Mapping[str, Any] | None = None) -> LinearRelease:
    """The linear release ``prog`` denotes (:mod:`.linear`) with its parameters set by
    ``args`` (one may be a positive sympy ``Symbol``: the release is then decided for
    every value of it), or :class:`Refused` naming the statement and the reason."""
    env = parameter_values(prog, args or {})
    return linear_release(prog, env, None if prog.claim is None else _const(prog.claim, env))


def lower_text(
    text: str,
    args: Mapping[str, Any] | None = None,
    *,
    buckets: Sequence[int] | None = None,
    densities: bool = False,
) -> SparseVector | NoisyMax | MaxDensity:
    """:func:`lower` of :func:`~verifier.programs.syntax.parse_program` of ``text``."""
    return lower(parse_program(text), args, buckets=buckets, densities=densities)


# ---------------------------------------------------------------------------
# transformer registry entry (spec files, CLI)
# ---------------------------------------------------------------------------


def _text(raw: Any, values: Values) -> str:
    if not isinstance(raw, str):
        raise InvalidParameter(f"must be the program text (a string), got {type(raw).__name__}")
    parse_program(raw)  # a SpecError with line and column
    return raw


def _args(raw: Any, values: Values) -> dict[str, sp.Expr]:
    if not isinstance(raw, dict):
        raise InvalidParameter(f"must be a table of parameter values, got {type(raw).__name__}")
    out: dict[str, sp.Expr] = {}
    for k, v in raw.items():
        try:
            out[str(k)] = exact_number(v, values)
        except VerifierError as err:
            raise InvalidParameter(f"{k}: {err}") from None
    return out


@transformer(
    "noise_program",
    source="Lyu, Su, Li 2017 (proof of Theorem 2: given the outer noise the answers are "
    "independent); the shapes of Lyu et al. Algs. 1-6, NumericalSVT, GapSVT and "
    "Report-Noisy-Max (Dwork & Roth 2014 §3.3; Ding et al. 2018 Algs. 5-8); linear "
    "releases (Dwork & Roth 2014, proof of Theorem 3.6, per independent coordinate)",
    params=[
        Param("text", _text, "the program text (docs/programs.md)"),
        Param("args", _args, "the values of the program's parameters (a table)", {}),
        ANSWERS_ONLY_PARAM,
        *[p for p in PROGRAM_PARAMS if p.name in ("style", "buckets")],
    ],
    inputs=(1, 1),
)
def _t_noise_program(inputs: list[FiniteMechanism], params: dict[str, Any]) -> FiniteMechanism:
    """A noise program given as text, on the query answers of each dataset (exact law
    of its lowered model).  Datasets whose answer vectors have different lengths are
    evaluated length by length (neighbours have the same length) and their laws
    joined into one mechanism (an output of one length has probability 0 at the
    others)."""
    (base,) = inputs
    try:
        parsed = parse_program(params["text"])
        if is_linear_release(parsed) and not uses_gaussian(parsed):
            if params["buckets"] is not None or params["answers_only"]:
                raise InvalidParameter("buckets and answers_only are not for linear releases")
            linear = lower_linear(parsed, params["args"])
            return linear_mechanism(linear, base.graph, answers_of(base), params["style"])
        if uses_gaussian(parsed):
            if params["buckets"] is not None or params["answers_only"]:
                raise InvalidParameter("buckets and answers_only are not for Gaussian noise")
            model = lower_gaussian(parsed, params["args"])
            return gaussian_mechanism(model, base.graph, answers_of(base), params["style"])
        prog = lower(parsed, params["args"], buckets=params["buckets"])
    except SpecError as err:
        raise InvalidParameter(str(err)) from None
    assert not isinstance(prog, MaxDensity)  # densities=False refuses it
    if params["answers_only"]:
        if not isinstance(prog, SparseVector):
            raise InvalidParameter("answers_only is for threshold programs")
        prog = prog.answers_only()
    answers = answers_of(base)
    lengths = sorted({len(v) for v in answers.values()})
    if len(lengths) == 1:
        return program_mechanism(prog, base.graph, answers=answers, style=params["style"]).mechanism
    for a, b in base.graph.edges:
        if len(answers[a]) != len(answers[b]):
            raise InvalidMechanism(
                f"neighbouring datasets {a!r} and {b!r} answer {len(answers[a])} and "
                f"{len(answers[b])} queries: neighbours answer the same queries"
            )
    outputs: list[Any] = []
    dists: dict[Any, dict[Any, Any]] = {}
    for n in lengths:
        part = [d for d, v in answers.items() if len(v) == n]
        sub = base.graph.subgraph(part).copy()
        law = program_mechanism(
            prog, sub, answers={d: answers[d] for d in part}, style=params["style"]
        ).mechanism
        outputs += [o for o in law.outputs if o not in outputs]
        for d in part:
            dists[d] = {o: law.p(d, o) for o in law.outputs}
    return FiniteMechanism(base.graph, dists, outputs, name=prog.name)


@register_estimate("noise_program")
def _estimate(inputs: Sequence[FiniteMechanism], params: dict[str, Any]) -> Estimate:
    """The size of the lowered program's law: a threshold program has at most
    ``Σ_{j <= c} C(n, j)`` answer sequences on ``n`` queries with cutoff ``c`` (the
    positions of its tops), each a product of ``n`` factors, per dataset; a
    running-maximum program ``n`` outputs of ``n`` factors each.  A text the lowering
    refuses costs nothing (building it raises the reason)."""
    d = max((len(x.datasets) for x in inputs), default=1)
    width = max((len(o) for x in inputs for o in x.outputs if isinstance(o, tuple)), default=1)
    try:
        prog = lower_text(params["text"], params["args"], buckets=params["buckets"])
    except VerifierError:
        return Estimate(1, 1)
    if isinstance(prog, (NoisyMax, MaxDensity)):
        return Estimate(width + 1, saturating(width, width, d))
    cut = min(prog.cutoff or width, width)
    if width > 256:
        sequences = saturating(2, *([2] * 256))
    else:
        sequences = sum(math.comb(width, j) for j in range(cut + 1))
    return Estimate(saturating(sequences), saturating(sequences, width, d))

"""Linear releases: noise programs whose outputs are affine in the answers and the noises.

A noise program whose comparisons read no noise and no query answer (its control flow
is fixed: counters, constants, the loop over the queries) releases, on ``n`` queries,
the real vector

    ``y = A q + c + B η``

with ``A`` (``m × n``), ``c`` and ``B`` (``m × K``) exact rational matrices and ``η``
the ``K`` noises it draws, independent, each Laplace or two-sided geometric with its
own rate ``r_k`` (a draw inside the loop is a fresh noise in every iteration):
running sums released with noise (partial sums, prefix sums), answers noised then
accumulated, block sums (SmartSum).  :func:`~.text.lower_linear` unrolls the program text
on ``n`` queries exactly (symbolic execution over linear forms) and returns the map.

**When the loss is exact.**  If the columns of ``B`` are linearly independent (rank
``K``; at least as many outputs as noises), choose ``K`` rows ``S`` of ``B`` forming
an invertible ``B_S`` and put ``G = B_S^{-1}``.  The map ``y ↦ (z, ρ)`` with ``z = G
y_S`` and ``ρ = y_R - B_R z`` (``R`` the other rows) is one-to-one, and

    ``z = G (A_S q + c_S) + η``,   ``ρ = D q + e``,   ``D = A_R - B_R G A_S``

— ``z`` is the vector ``μ(q) = G(A_S q + c_S)`` with independent noise added in each
coordinate, and ``ρ`` is deterministic.  So on neighbours ``q, q'`` with shift ``δ =
μ(q') - μ(q)``:

* if ``D q ≠ D q'`` the two laws live on disjoint affine subspaces (an output possible
  on one input only): the loss is infinite;
* for a geometric coordinate whose shift ``δ_k`` is not an integer, the supports
  ``μ_k + Z`` are disjoint: infinite;
* otherwise the privacy loss at ``y`` is ``Σ_k r_k (|η_k - δ_k| - |η_k|)`` with ``η =
  z - μ(q)``, at most ``Σ_k r_k |δ_k|`` by the triangle inequality, with equality at
  ``η = 0`` (Dwork & Roth 2014, "The algorithmic foundations of differential
  privacy", proof of Theorem 3.6, the Laplace mechanism; the same bound for the
  two-sided geometric pmf ``∝ e^{-r|k|}`` at integer points, Ghosh, Roughgarden,
  Sundararajan 2009).  So ``sup_y log f_q(y)/f_q'(y) = Σ_k r_k |δ_k|``, attained at
  the noiseless output ``y_0 = A q + c`` and on a set of positive probability around
  it (the corner where every ``η_k`` has the sign of ``-δ_k``), and the exact pure ε
  of the program is the largest such sum over the neighbouring pairs — linear in ε
  when the rates are.

When rank ``B < K`` some combination of the noises is never seen apart (e.g. ``q +
η_1 + η_2``: a sum of independent Laplace noises is not Laplace); the law of ``y``
integrates out noises and is **refused** with that reason, as are comparisons of
noisy values (the other shapes of :mod:`.text`), one-sided exponential noise, mixed
families and Gaussian noise (an unbounded loss, :mod:`.gaussian`).

In spec files (:func:`linear_mechanism`) the release is given by finitely many cells:
each coordinate ``z_k`` is cut at the smallest and largest centre ``μ_k(q)`` over the
datasets (below, between, above), joined with ``ρ`` (and, for geometric noise, the
coset ``μ_k mod 1``).  This is a post-processing (a function of ``y``) whose privacy
loss equals the program's: on the corner cell below (above) every shifted
coordinate the density ratio is the constant ``e^{Σ r_k |δ_k|}``.

>>> from verifier.programs.syntax import parse_program
>>> prog = parse_program('''
... program prefix_sums(eps)
... s = 0
... for i in queries:
...     s = s + q[i]
...     nu = laplace(1/eps)
...     output s + nu
... ''')
>>> model = linear_release(prog, {"eps": sp.Integer(1)})
>>> lm = model.at(3)
>>> lm.A.tolist(), lm.B.tolist()
([[1, 0, 0], [1, 1, 0], [1, 1, 1]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
>>> pair_loss(lm, (0, 0, 0), (1, 0, 0)).value    # one query moves all three sums
3
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
import sympy as sp

from ...arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    Verdict,
    combine_verdicts,
    decide_le,
    exact,
)
from ...checks.results import CheckResult, Finding
from ...checks.vocabulary import privacy_parameters
from ...errors import InvalidMechanism, InvalidParameter
from ...mechanism.model import FiniteMechanism
from ...programs import syntax as ps
from ...programs.syntax import Expr, ProgramText, Stmt
from .queries import Style, Vector, as_vector, neighbour_violation

__all__ = [
    "LinearDraw",
    "LinearMap",
    "LinearRelease",
    "PairLoss",
    "Refused",
    "linear_release",
    "is_linear_release",
    "pair_loss",
    "density",
    "log_ratio_at",
    "linear_epsilon",
    "check_linear_dp",
    "linear_mechanism",
    "MAX_CELLS",
]

#: Most outputs of the finite form of a linear release (:func:`linear_mechanism`).
MAX_CELLS = 100_000
#: Most noises drawn on one unrolling.
MAX_NOISES = 2_000

# atoms of linear forms: ("q", j) the answer of query j, ("n", k) noise k, _ONE
Atom = tuple[str, int]
Linear = dict[Atom, sp.Expr]
_ONE: Atom = ("1", 0)


class Refused(InvalidMechanism):
    """The program's exact law is out of reach of the lowering: the message names
    the statement (line:column) and the reason (raised by :mod:`.text` too)."""


def _refuse(node: Any, why: str) -> Refused:
    pos = getattr(node, "pos", None)
    return Refused(f"program line {pos}: {why}" if pos is not None else f"program: {why}")


# ---------------------------------------------------------------------------
# the shape: no comparison reads noise or answers
# ---------------------------------------------------------------------------


def _random(e: Expr, tainted: set[str]) -> bool:
    return any(
        isinstance(x, (ps.Query, ps.Draw)) or (isinstance(x, ps.Var) and x.name in tainted)
        for x in ps._exprs(e)
    )


def is_linear_release(prog: ProgramText) -> bool:
    """Whether ``prog`` has the linear-release shape: no comparison reads a noise, a
    query answer or a variable assigned from one (flow-insensitively), no running
    maximum (``inf``) and no output symbol (``top``, ``bottom``)."""
    stmts: list[Stmt] = ps._walk(prog.body)
    assigns = [s for s in stmts if isinstance(s, ps.Assign)]
    tainted: set[str] = set()
    changed = True
    while changed:
        changed = False
        for a in assigns:
            if a.name not in tainted and _random(a.value, tainted):
                tainted.add(a.name)
                changed = True
    for s in stmts:
        if isinstance(s, ps.If) and (
            _random(s.cond.left, tainted) or _random(s.cond.right, tainted)
        ):
            return False
        value = s.value if isinstance(s, (ps.Assign, ps.Output)) else None
        if value is not None and any(isinstance(x, (ps.Inf, ps.Sym)) for x in ps._exprs(value)):
            return False
    return True


# ---------------------------------------------------------------------------
# the model and its unrolling
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LinearDraw:
    """One noise of an unrolled program: its family, rate ``r`` (density ``∝
    e^{-r|x|}``) and where it is drawn (statement and iteration)."""

    kind: str
    rate: sp.Expr
    label: str


@dataclass(frozen=True)
class LinearMap:
    """``y = A q + c + B η`` on ``n`` queries, with the decomposition of the module
    docstring: ``rows`` the outputs ``S`` with ``B_S`` invertible, ``G = B_S^{-1}``,
    ``D``/``e`` the deterministic residual ``ρ = D q + e`` of the other outputs."""

    n: int
    A: sp.Matrix
    c: sp.Matrix
    B: sp.Matrix
    noises: tuple[LinearDraw, ...]
    rows: tuple[int, ...]
    G: sp.Matrix
    D: sp.Matrix
    e: sp.Matrix

    @property
    def m(self) -> int:
        return int(self.A.shape[0])

    def centre(self, q: Sequence[Any]) -> sp.Matrix:
        """``μ(q) = G (A_S q + c_S)``: the coordinates ``z`` at zero noise."""
        v = sp.Matrix([sp.nsimplify(x) for x in q])
        S = list(self.rows)
        return self.G * (self.A[S, :] * v + self.c[S, :])

    def residual(self, q: Sequence[Any]) -> sp.Matrix:
        """``ρ(q) = D q + e``: the outputs not in ``rows`` minus their noise part."""
        return self.D * sp.Matrix([sp.nsimplify(x) for x in q]) + self.e

    def noiseless(self, q: Sequence[Any]) -> tuple[sp.Expr, ...]:
        """``A q + c``: the output at zero noise."""
        return tuple(self.A * sp.Matrix([sp.nsimplify(x) for x in q]) + self.c)


@dataclass(frozen=True)
class LinearRelease:
    """A lowered linear-release program: the text and the exact parameter values;
    :meth:`at` unrolls it on ``n`` queries."""

    name: str
    program: ProgramText
    env: Mapping[str, sp.Expr]
    claimed: sp.Expr | None = None
    source: str = "program text"

    def at(self, n: int) -> LinearMap:
        """The release map on ``n`` queries (:class:`Refused` when the outputs are not a
        one-to-one image of the noises)."""
        return _linear_map(self, n)


class _Stop(Exception):
    pass


def _const_value(v: Linear, node: Any) -> sp.Expr:
    if set(v) - {_ONE}:
        raise _refuse(node, "a comparison reads a noise or a query answer: not a linear release")
    return v.get(_ONE, sp.Integer(0))


def _add(a: Linear, b: Linear, s: int) -> Linear:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, sp.Integer(0)) + s * v
    return {k: v for k, v in out.items() if v != 0}


class _Unroll:
    def __init__(self, model: LinearRelease, n: int) -> None:
        self.env = model.env
        self.n = n
        self.state: dict[str, Linear] = {}
        self.rows: list[Linear] = []
        self.noises: list[LinearDraw] = []
        self.loop: tuple[str, int] | None = None

    def value(self, e: Expr) -> Linear:
        if isinstance(e, ps.Num):
            return {_ONE: sp.Rational(e.value.numerator, e.value.denominator)}
        if isinstance(e, ps.Var):
            if self.loop is not None and e.name == self.loop[0]:
                return {_ONE: sp.Integer(self.loop[1])}
            if e.name in self.state:
                return dict(self.state[e.name])
            return {_ONE: self.env[e.name]}
        if isinstance(e, ps.Query):
            assert self.loop is not None
            return {("q", self.loop[1]): sp.Integer(1)}
        if isinstance(e, ps.Neg):
            return {k: -v for k, v in self.value(e.operand).items()}
        if isinstance(e, ps.BinOp):
            a, b = self.value(e.left), self.value(e.right)
            if e.op in "+-":
                return _add(a, b, 1 if e.op == "+" else -1)
            if e.op == "*":
                if set(a) <= {_ONE}:
                    a, b = b, a
                if not set(b) <= {_ONE}:
                    raise _refuse(e, "a product of two noisy or data-dependent quantities")
                k = b.get(_ONE, sp.Integer(0))
                return {x: v * k for x, v in a.items() if v * k != 0}
            if not set(b) <= {_ONE} or b.get(_ONE, 0) == 0:
                raise _refuse(e, "division by a noisy quantity or by zero")
            return {x: v / b[_ONE] for x, v in a.items()}
        if isinstance(e, ps.Sym):
            raise _refuse(e, f"the symbol {e.name!r} is an output of threshold programs")
        if isinstance(e, ps.Inf):
            raise _refuse(e, "'inf' starts a running maximum, not a linear release")
        raise _refuse(e, "a noise draw must be assigned to a variable")

    def draw(self, s: ps.Assign, d: ps.Draw) -> Linear:
        if d.kind not in ("laplace", "geometric"):
            why = {
                "exponential": "one-sided exponential noise moves its support with the "
                "answers (an output possible on one input only whenever a shift is "
                "non-zero); linear releases take Laplace or geometric noise",
                "gaussian": "a Gaussian linear release has the privacy loss "
                "((y-q')² - (y-q)²)/(2σ²), unbounded in y: not ε-DP for any finite ε "
                "when an answer moves",
            }[d.kind]
            raise _refuse(d, why)
        scale = _const_value(self.value(d.scale), d)
        if scale.is_positive is not True:
            raise _refuse(d, f"the scale of {d.kind} noise must be positive, got {scale}")
        if len(self.noises) >= MAX_NOISES:
            raise _refuse(d, f"more than {MAX_NOISES} noises drawn")
        where = f"{s.name} (line {s.pos})" + (
            "" if self.loop is None else f" at {self.loop[0]} = {self.loop[1]}"
        )
        k = len(self.noises)
        self.noises.append(LinearDraw(d.kind, sp.simplify(1 / scale), where))
        return {("n", k): sp.Integer(1)}

    def run(self, stmts: Sequence[Stmt]) -> None:
        for s in stmts:
            if isinstance(s, ps.Assign):
                if isinstance(s.value, ps.Draw):
                    self.state[s.name] = self.draw(s, s.value)
                else:
                    self.state[s.name] = self.value(s.value)
            elif isinstance(s, ps.For):
                for j in range(self.n):
                    self.loop = (s.var, j)
                    try:
                        self.run(s.body)
                    except _Stop:
                        break
                    finally:
                        self.loop = None
            elif isinstance(s, ps.If):
                a = _const_value(self.value(s.cond.left), s.cond)
                b = _const_value(self.value(s.cond.right), s.cond)
                if (a - b).free_symbols:
                    raise _refuse(s.cond, "the comparison depends on a symbolic parameter")
                holds = {
                    "<": a < b,
                    "<=": a <= b,
                    ">": a > b,
                    ">=": a >= b,
                    "==": a == b,
                    "!=": a != b,
                }[s.cond.op]
                self.run(s.then if bool(holds) else s.orelse)
            elif isinstance(s, ps.Output):
                self.rows.append(self.value(s.value))
            else:
                assert isinstance(s, ps.Break)
                raise _Stop


def linear_release(
    prog: ProgramText, env: Mapping[str, sp.Expr], claimed: sp.Expr | None = None
) -> LinearRelease:
    """The linear release ``prog`` denotes with the exact parameter values ``env``
    (:func:`~.text.lower_linear` computes them from the program's arguments), or
    :class:`Refused` naming the statement and the reason.  The text is unrolled on one
    and two queries to find every refusal before it is used."""
    if not is_linear_release(prog):
        raise _refuse(
            None,
            "not a linear release: a comparison reads a noise or a query answer, or the "
            "program outputs a symbol or keeps a running maximum (lower gives those shapes)",
        )
    model = LinearRelease(prog.name, prog, env, claimed)
    kinds = {
        s.value.kind
        for s in ps._walk(prog.body)
        if isinstance(s, ps.Assign) and isinstance(s.value, ps.Draw)
    }
    if len(kinds) > 1:
        raise _refuse(None, f"noises of different families ({', '.join(sorted(kinds))})")
    for n in (1, 2):
        model.at(n)
    return model


def _linear_map(model: LinearRelease, n: int) -> LinearMap:
    u = _Unroll(model, n)
    u.run(model.program.body)
    if not u.rows:
        raise _refuse(None, "the program outputs nothing")
    m, K = len(u.rows), len(u.noises)
    A = sp.Matrix(m, n, lambda i, j: u.rows[i].get(("q", j), sp.Integer(0)))
    B = sp.Matrix(m, K, lambda i, k: u.rows[i].get(("n", k), sp.Integer(0)))
    c = sp.Matrix(m, 1, lambda i, _: u.rows[i].get(_ONE, sp.Integer(0)))
    for M, what in ((A, "an answer"), (B, "a noise"), (c, "a constant")):
        if any(not x.is_Rational for x in M):
            raise _refuse(
                None,
                f"the coefficient of {what} in an output is not a rational number at the "
                "given parameters (the release map must be exact and numeric)",
            )
    rank = B.rank() if K else 0
    if rank < K:
        raise _refuse(
            None,
            f"on {n} queries the {m} outputs see the {K} noises only through {rank} "
            "independent combinations: the law of the outputs integrates out noises "
            "(e.g. a sum of independent Laplace noises, which is not Laplace), so the "
            "density ratio does not reduce to one dimension per output",
        )
    rows = tuple(int(i) for i in B.T.rref()[1]) if K else ()
    others = [i for i in range(m) if i not in rows]
    if K:
        G = B[list(rows), :].inv()
        D = A[others, :] - B[others, :] * G * A[list(rows), :]
        e = c[others, :] - B[others, :] * G * c[list(rows), :]
    else:
        G, D, e = sp.zeros(0, 0), A, c
    return LinearMap(n, A, c, B, tuple(u.noises), rows, G, D, e)


# ---------------------------------------------------------------------------
# the exact loss, its certificate and the density
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PairLoss:
    """The exact supremum of the privacy loss ``log f_q(y)/f_q'(y)`` over outputs
    ``y``: ``value`` (``oo`` for a support mismatch), the coordinate shifts ``δ =
    μ(q') - μ(q)`` and rates, and the certificate: the output ``y`` (the noiseless
    output at ``q``) where the loss equals ``value``, with both densities there
    (re-verifiable with :func:`density`)."""

    q: Vector
    q2: Vector
    value: sp.Expr
    shifts: tuple[sp.Expr, ...]
    rates: tuple[sp.Expr, ...]
    y: tuple[sp.Expr, ...]
    f: sp.Expr
    f2: sp.Expr
    reason: str


def pair_loss(lm: LinearMap, q: Sequence[Any], q2: Sequence[Any]) -> PairLoss:
    """``sup_y log f_q(y)/f_q'(y)`` exactly (module docstring: ``Σ_k r_k |δ_k|``, or
    ``oo`` when the supports differ), with the output attaining it."""
    a, b = as_vector(q), as_vector(q2)
    delta = tuple(lm.centre(b) - lm.centre(a)) if lm.noises else ()
    rates = tuple(d.rate for d in lm.noises)
    y = lm.noiseless(a)
    f, f2 = density(lm, y, a), density(lm, y, b)
    mismatch = [
        i for i, (x, z) in enumerate(zip(lm.residual(a), lm.residual(b), strict=True)) if x != z
    ]
    if mismatch:
        rows = [i for i in range(lm.m) if i not in lm.rows]
        value, reason = (
            sp.oo,
            f"output {rows[mismatch[0]]} minus its noise part moves with the answers "
            "(no noise of its own): an output possible on one input only",
        )
    else:
        bad = [
            k for k, d in enumerate(delta) if lm.noises[k].kind == "geometric" and not d.is_integer
        ]
        if bad:
            value, reason = (
                sp.oo,
                f"the integer noise {lm.noises[bad[0]].label} is shifted by {delta[bad[0]]}, "
                "not an integer: disjoint supports",
            )
        else:
            value = sp.Add(*(r * abs(d) for r, d in zip(rates, delta, strict=True)))
            reason = "sum of rate x |shift| (triangle inequality; equality at zero noise)"
    return PairLoss(a, b, value, delta, rates, y, f, f2, reason)


def density(lm: LinearMap, y: Sequence[Any], q: Sequence[Any]) -> sp.Expr:
    """The exact density (Laplace: w.r.t. Lebesgue measure on the support, the affine
    space ``A q + c + col(B)``, in the coordinates ``y_S``) or probability (geometric)
    of the output ``y`` on the answers ``q``; 0 off the support."""
    v = sp.Matrix([sp.nsimplify(x) for x in y])
    if v.shape[0] != lm.m:
        raise InvalidParameter(f"an output of this release has {lm.m} values, got {v.shape[0]}")
    a = sp.Matrix([sp.nsimplify(x) for x in as_vector(q)])
    S = list(lm.rows)
    eta = lm.G * (v[S, :] - lm.A[S, :] * a - lm.c[S, :]) if S else sp.zeros(0, 1)
    if lm.A * a + lm.c + lm.B * eta != v:
        return sp.Integer(0)
    out = sp.Integer(1)
    for d, x in zip(lm.noises, eta, strict=True):
        if d.kind == "geometric":
            if not x.is_integer:
                return sp.Integer(0)
            out *= (1 - sp.exp(-d.rate)) / (1 + sp.exp(-d.rate)) * sp.exp(-d.rate * abs(x))
        else:
            out *= d.rate / 2 * sp.exp(-d.rate * abs(x))
    if S and lm.noises[0].kind == "laplace":
        out /= abs(lm.B[S, :].det())
    return out


def log_ratio_at(lm: LinearMap, y: Sequence[Any], q: Sequence[Any], q2: Sequence[Any]) -> sp.Expr:
    """``log f_q(y)/f_q'(y)`` exactly at one output (``oo``/``-oo``/``nan`` where a
    density vanishes) — a second, pointwise evaluation of the loss."""
    f, f2 = density(lm, y, q), density(lm, y, q2)
    if f == 0 and f2 == 0:
        return sp.nan
    if f2 == 0:
        return sp.oo
    if f == 0:
        return -sp.oo
    return sp.expand_log(sp.log(sp.powsimp(f / f2)), force=True)


def _pairs(
    graph: nx.Graph, answers: Mapping[Hashable, Vector], style: Style | None
) -> list[tuple[Hashable, Hashable]]:
    for a, b in graph.edges:
        if len(answers[a]) != len(answers[b]):
            raise InvalidMechanism(
                f"neighbouring datasets {a!r} and {b!r} answer {len(answers[a])} and "
                f"{len(answers[b])} queries: neighbours answer the same queries"
            )
        if style is not None and answers[a] != answers[b]:
            why = neighbour_violation(answers[a], answers[b], style, 1)
            if why:
                raise InvalidMechanism(
                    f"edge ({a!r}, {b!r}) violates the {style} sensitivity: {why}"
                )
    return [p for a, b in graph.edges for p in ((a, b), (b, a))]


def linear_epsilon(
    model: LinearRelease,
    graph: nx.Graph,
    answers: Mapping[Hashable, Sequence[int]] | None = None,
    style: Style | None = None,
) -> tuple[sp.Expr, tuple[Hashable, Hashable], PairLoss]:
    """The exact pure ε of the program on the neighbour graph: the largest
    :func:`pair_loss` over the ordered pairs (datasets are answer vectors unless
    ``answers`` maps them), with the pair and its certificate."""
    ans = {d: as_vector(answers[d] if answers is not None else d) for d in graph.nodes}
    best: tuple[sp.Expr, tuple[Hashable, Hashable], PairLoss] | None = None
    maps: dict[int, LinearMap] = {}
    for a, b in _pairs(graph, ans, style):
        n = len(ans[a])
        lm = maps[n] = maps.get(n) or model.at(n)
        r = pair_loss(lm, ans[a], ans[b])
        if best is None or _greater(r.value, best[0]):
            best = (r.value, (a, b), r)
    if best is None:
        raise InvalidMechanism("the neighbour graph has no edge")
    return best


def _greater(x: sp.Expr, y: sp.Expr) -> bool:
    if y is sp.oo:
        return False
    if x is sp.oo:
        return True
    d = sp.simplify(x - y)
    if d.free_symbols:  # losses c·ε with a positive symbol ε: ordered by their sign
        if d.is_positive is None and d.is_nonpositive is None:
            raise InvalidParameter(f"the losses {x} and {y} are not ordered for every value")
        return bool(d.is_positive)
    return decide_le(x, y).verdict is Verdict.VIOLATED


@privacy_parameters()
def check_linear_dp(
    model: LinearRelease,
    graph: nx.Graph,
    *,
    epsilon: Any = None,
    answers: Mapping[Hashable, Sequence[int]] | None = None,
    style: Style | None = None,
    over: tuple[sp.Symbol, Any, Any] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> CheckResult:
    """Pure ε-DP of a linear release, exactly: one finding per ordered pair, ``sup_y
    log f_q(y)/f_q'(y) <= ε`` (``epsilon``, keyword-only: the claim, by default the
    program's own; an exact number, a sympy expression or a string in the spec
    grammar, never a float).

    A violated finding is a certificate: its ``output`` is the output ``y`` where the
    loss equals the supremum, ``lhs``/``rhs`` are ``f_q(y)`` and ``e^ε f_q'(y)``.  With
    ``over = (symbol, lo, hi)`` (the model lowered with that symbol as a parameter)
    the claim is decided for every value in ``[lo, hi]``: loss and claim must be
    affine in the symbol (rates proportional to ε), so ``claim - loss`` is decided at
    the two ends and the failing sub-interval is its part below 0."""
    e = model.claimed if epsilon is None else epsilon
    if e is not None and not isinstance(e, sp.Basic):
        e = exact(e)
    if e is None:
        raise InvalidParameter("no claimed epsilon: give epsilon or a claim in the program text")
    ans = {d: as_vector(answers[d] if answers is not None else d) for d in graph.nodes}
    maps: dict[int, LinearMap] = {}
    findings = []
    for a, b in _pairs(graph, ans, style):
        n = len(ans[a])
        lm = maps[n] = maps.get(n) or model.at(n)
        r = pair_loss(lm, ans[a], ans[b])
        note = (
            f"shifts {list(r.shifts)} at rates {list(r.rates)}; loss attained at y = "
            f"{list(r.y)} ({r.reason})"
        )
        rhs = sp.exp(e) * r.f2
        if over is None:
            c = decide_le(r.value, e, precision)
            findings.append(
                Finding(
                    c.verdict, tuple(r.y), (a, b), r.value, e, r.f, rhs, tight=c.tight, note=note
                )
            )
        else:
            verdict, failing = _over(r.value, e, over)
            findings.append(
                Finding(
                    verdict, tuple(r.y), (a, b), r.value, e, r.f, rhs, failing=failing, note=note
                )
            )
    if not findings:
        raise InvalidMechanism("the neighbour graph has no edge")
    return CheckResult(
        f"{model.name} is ({e})-DP (linear release, exact supremum of the density ratio)",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="sup_y loss",
    )


def _over(
    loss: sp.Expr, claim: sp.Expr, over: tuple[sp.Symbol, Any, Any]
) -> tuple[Verdict, tuple[Any, ...]]:
    x, lo, hi = over
    lo, hi = sp.nsimplify(lo), sp.nsimplify(hi)
    if loss is sp.oo:
        return Verdict.VIOLATED, ((lo, hi),)
    g = sp.expand(claim - loss)
    if not g.is_polynomial(x) or sp.degree(g, x) > 1 or (g.free_symbols - {x}):
        raise InvalidParameter(
            f"claim - loss = {g} is not affine in {x}: decide it at numeric values"
        )
    ends = [g.subs(x, lo), g.subs(x, hi)]
    if all(v >= 0 for v in ends):
        return Verdict.HOLDS, ()
    slope = sp.diff(g, x)
    if ends[0] < 0 and ends[1] < 0:
        return Verdict.VIOLATED, ((lo, hi),)
    root = sp.solve(g, x)[0] if slope != 0 else lo
    return Verdict.VIOLATED, ((lo, root),) if ends[0] < 0 else ((root, hi),)


# ---------------------------------------------------------------------------
# the finite form (spec files): cells whose loss is the program's
# ---------------------------------------------------------------------------


def _cells(d: LinearDraw, centres: Sequence[sp.Expr]) -> dict[sp.Expr, dict[Any, sp.Expr]]:
    """For each centre ``μ``, the law of the cell of ``μ + η`` among (below the smallest
    centre, between, above the largest) — per coset ``μ mod 1`` for integer noise."""
    out: dict[sp.Expr, dict[Any, sp.Expr]] = {}
    W = sp.exp(-d.rate)
    groups: dict[Any, list[sp.Expr]] = {}
    for mu in centres:
        key = mu - sp.floor(mu) if d.kind == "geometric" else None
        groups.setdefault(key, []).append(mu)
    for key, mus in groups.items():
        lo, hi = min(mus), max(mus)
        tag = () if key is None or len(groups) == 1 else (f"coset {key}",)
        for mu in mus:
            if lo == hi:
                out[mu] = {tag + ("all",): sp.Integer(1)}
                continue
            if d.kind == "geometric":
                below, above = W ** (mu - lo) / (1 + W), W ** (hi - mu) / (1 + W)
            else:
                below, above = W ** (mu - lo) / 2, W ** (hi - mu) / 2
            out[mu] = {
                tag + (f"<= {lo}",): below,
                tag + ("between",): 1 - below - above,
                tag + (f">= {hi}",): above,
            }
    return out


def linear_mechanism(
    model: LinearRelease,
    graph: nx.Graph,
    answers: Mapping[Hashable, Sequence[int]],
    style: Style | None = None,
) -> FiniteMechanism:
    """The finite form of the release on a neighbour graph (module docstring): the
    outputs are the cells of the coordinates ``z = B_S^{-1} y_S`` (below the smallest
    centre, between, above the largest) with the residual ``ρ``; its exact ε equals the
    program's (the corner cells attain ``Σ r_k |δ_k|``, and a post-processing cannot
    exceed it)."""
    ans = {d: as_vector(answers[d]) for d in graph.nodes}
    _pairs(graph, ans, style)
    dists: dict[Hashable, dict[Any, sp.Expr]] = {}
    outputs: dict[str, None] = {}
    lengths = sorted({len(v) for v in ans.values()})
    several = len(lengths) > 1
    for n in lengths:
        lm = model.at(n)
        part = [d for d in graph.nodes if len(ans[d]) == n]
        vectors = list(dict.fromkeys(ans[d] for d in part))
        mus = {v: lm.centre(v) for v in vectors}
        per = [_cells(lm.noises[k], [mus[v][k] for v in vectors]) for k in range(len(lm.noises))]
        size = 1
        for cells in per:
            size *= len({o for law in cells.values() for o in law})
            if size > MAX_CELLS:
                raise InvalidParameter(
                    f"the finite form of {model.name!r} on {n} queries has more than "
                    f"{MAX_CELLS} cells: decide it with check_linear_dp"
                )
        laws: dict[Vector, dict[Any, sp.Expr]] = {}
        for v in vectors:
            rho = tuple(lm.residual(v))
            facs = [cells[mus[v][k]] for k, cells in enumerate(per)]
            law: dict[Any, sp.Expr] = {}
            for combo in itertools.product(*(f.items() for f in facs)):
                law[_label(n, [o for o, _ in combo], rho, several)] = sp.Mul(*(p for _, p in combo))
            laws[v] = law
        for law in laws.values():
            outputs.update(dict.fromkeys(law))
        for d in part:
            dists[d] = laws[ans[d]]
    return FiniteMechanism(graph, dists, list(outputs), name=model.name)


def _label(n: int, cells: Sequence[tuple[str, ...]], rho: Sequence[sp.Expr], several: bool) -> str:
    """An output of the finite form: ``z0 <= 0, z1 between`` (the coordinates of
    ``B_S^{-1} y_S``), the exact residual outputs, the number of queries when the
    datasets answer several."""
    text = ", ".join(f"z{k} {' '.join(c)}" for k, c in enumerate(cells)) or "no noise"
    if rho:
        text += f"; residual {tuple(rho)}"
    return f"{n} queries: {text}" if several else text

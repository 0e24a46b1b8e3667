"""The program model and its exact interpreter.

A *program* (:class:`Program`: a sparse-vector program of :mod:`.svt`, a
Report-Noisy-Max program of :mod:`.noisy_max`) adds noise to a vector of integer
query answers and outputs a finite answer sequence, possibly with released values.
:func:`program_mechanism` evaluates a program exactly on every query vector of a
neighbour graph: every output probability is a closed form, symbolically in the
privacy parameter (a rational function of ``W = e^{-u}``, ``u`` the common unit of
the noise rates; see :mod:`.expoly`), proved to sum to 1 as a rational function,
then evaluated.

Released values.  With Laplace noise a released value has a density, not a
probability; the finite-output checkers cannot take densities, so a released value
is either (a) *discretised by geometric noise* — its law is an exact pmf on the
integers, whose infinite support is handled exactly: the window of values between the
breakpoints is enumerated and on the two infinite tails the probability is a finite
exponential sum in the value, decided by :func:`~.tails.tail_sup` — or (b)
*bucketed* by integer cut points (Laplace or geometric), a post-processing of the
release: a violation found on buckets is a violation of the program, a bound that
holds on buckets only bounds the bucketed release.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import networkx as nx
import sympy as sp

from ...arithmetic.exact import exact
from ...errors import InvalidMechanism, InvalidParameter
from ...mechanism.model import FiniteMechanism
from ..registry import Param, Values, choice, exact_number
from .distributions import (
    Noise,
    exponential_density,
    exponential_survival,
    geometric_pmf,
    geometric_survival,
    laplace_density,
    laplace_survival,
    point_mass,
)
from .expoly import (
    CONTINUOUS,
    CONTINUOUS_AT_POINTS,
    DISCRETE,
    PW,
    ExpPoly,
    Ring,
    step_below,
    to_sympy,
)
from .queries import Style, Vector, as_vector, check_sensitivity, neighbour_violation

__all__ = [
    "BOT",
    "TOP",
    "Program",
    "prog_claim",
    "common_unit",
    "epsilon_for_base",
    "Context",
    "program_context",
    "Released",
    "Answer",
    "answer_label",
    "bucket_releases",
    "Tail",
    "Laws",
    "point_release_outputs",
    "ProgramMechanism",
    "program_mechanism",
    "output_probability",
    "answers_of",
    "PROGRAM_PARAMS",
    "parse_integer",
]

#: The answers "below the threshold" and "above the threshold" of a sparse-vector
#: program (Lyu, Su, Li 2017, Figure 1).
BOT = "⊥"
TOP = "⊤"


# ---------------------------------------------------------------------------
# the program model
# ---------------------------------------------------------------------------


class Program(Protocol):
    """What the interpreter needs of a program (:class:`~.svt.SparseVector`,
    :class:`~.noisy_max.NoisyMax`).

    The interpreter conditions on the *outer* noise (the threshold noise ``ρ`` of a
    sparse-vector program, the noise of the released maximum of Report-Noisy-Max):
    given its value the answers are independent, and each output probability is the
    sum (integral) over that value of a product of per-answer factors.
    """

    @property
    def name(self) -> str: ...

    @property
    def claimed(self) -> sp.Expr | None: ...

    @property
    def outer_noise(self) -> Noise:
        """The noise the laws are summed (integrated) over."""
        ...

    def noises(self) -> list[Noise]:
        """Every noise the program draws."""
        ...

    def laws(self, ctx: Context, vectors: list[Vector]) -> Laws:
        """The exact output law on each of ``vectors``."""
        ...


def prog_claim(program: Program) -> sp.Expr:
    """The privacy claim recorded with ``program`` (raises when there is none)."""
    if program.claimed is None:
        raise InvalidParameter(f"program {program.name!r} records no privacy claim")
    return program.claimed


# ---------------------------------------------------------------------------
# units and the evaluation context
# ---------------------------------------------------------------------------


def common_unit(rates: Sequence[sp.Expr]) -> tuple[sp.Expr, list[int]]:
    """The largest ``u`` with every rate an integer multiple ``m_i·u``.

    >>> eps = sp.Symbol("epsilon", positive=True)
    >>> common_unit([eps / 2, eps / 8, eps / 4])
    (epsilon/8, [4, 1, 2])
    """
    if not rates:
        raise InvalidParameter("no noise rates")
    u, ms = _common_unit(tuple(exact(r) for r in rates))
    return u, list(ms)


@functools.lru_cache(maxsize=1024)
def _common_unit(rates: tuple[sp.Expr, ...]) -> tuple[sp.Expr, tuple[int, ...]]:
    """:func:`common_unit` of exact rates, once per tuple of rates (a search builds the
    same program's context at every instance)."""
    r0 = rates[0]
    qs = []
    for r in rates:
        q = _simplified(r / r0)
        if not q.is_Rational or q <= 0:
            raise InvalidParameter(
                f"noise rates {r0} and {r} are not rational multiples of one unit; the exact "
                f"closed forms need commensurable rates"
            )
        qs.append(sp.Rational(q))
    den = math.lcm(*(int(q.q) for q in qs))
    ms = [int(q * den) for q in qs]
    g = math.gcd(*ms)
    return _simplified(r0 * g / den), tuple(m // g for m in ms)


def _simplified(x: sp.Expr) -> sp.Expr:
    """``sympy.simplify(x)``, skipped for a rational or a rational multiple of one
    symbol (``ε/8``), which it returns unchanged: the rates of most programs, whose
    units are found when the case studies are imported (simplify's first call alone
    imports ``sympy.physics``)."""
    if x.is_Rational or x.is_Symbol:
        return x
    if x.is_Mul and len(x.args) == 2 and x.args[0].is_Rational and x.args[1].is_Symbol:
        return x
    return sp.simplify(x)


def epsilon_for_base(build: Callable[[sp.Expr], Program], w: Any) -> sp.Expr:
    """The privacy parameter at which ``build(ε)`` has ``W = e^{-u} = w``.

    With ``u = ε/L`` the common unit of the program's rates, this is
    ``ε = L·log(1/w)``: for rational ``w`` every probability is then an exact rational
    (the fast exact path).

    >>> from verifier.algorithms.noise.svt import lyu_svt
    >>> epsilon_for_base(lambda e: lyu_svt(1, e, c=1), sp.Rational(4, 5))
    4*log(5/4)
    """
    e = sp.Symbol("epsilon", positive=True)
    prog = build(e)
    rates: list[sp.Expr] = [n.rate for n in prog.noises() if n.rate is not None]
    u, _ = common_unit(rates)
    L = _simplified(e / u)
    if not L.is_Rational:
        raise InvalidParameter(f"the unit {u} is not a rational multiple of epsilon")
    return L * sp.log(1 / exact(w))


@dataclass(frozen=True)
class Context:
    """Evaluation context: the unit ``u``, the rings and the multiple of each noise.

    ``scale`` is the common denominator ``d`` of the (rational) thresholds and query
    answers: the program runs on ``d`` times its inputs, where they are integers, and
    ``u`` is the unit per ``1/d`` (a noise of rate ``m·u·d`` on the original values has
    rate ``m·u`` on the scaled ones; every probability is unchanged).
    """

    u: sp.Expr
    outer: Ring  # the ring of functions of the outer variable
    mult: dict[Noise, int]
    scale: int = 1

    def m(self, n: Noise) -> int:
        return self.mult[n]

    # -- the distribution of one noise as functions of the outer variable -----
    def survival(self, n: Noise, a: int) -> PW:
        """``r ↦ P(ν >= r + a)``."""
        ring = self.outer
        if n.kind == "none":
            # [0 >= r + a] = [r <= -a]
            return step_below(ring, -a + (0 if ring.real else 1))
        return _SURVIVAL[n.kind](ring, self.m(n)).shifted(a)

    def survival_at(self, n: Noise, x: int | None) -> Any:
        """``P(ν >= x)`` (``x = None`` is ``+∞``)."""
        ring = self.outer
        if x is None:
            return ring.zero
        if n.kind == "none":
            return ring.one if x <= 0 else ring.zero
        # the survival functions are continuous where it matters
        return _SURVIVAL[n.kind](ring, self.m(n)).at(x)

    def density(self, n: Noise) -> PW:
        """The pmf / density of ``n`` as a function of the outer variable."""
        ring = self.outer
        if n.kind == "none":
            return point_mass(ring)
        if n.kind == "geometric":
            return geometric_pmf(ring, self.m(n))
        if n.kind == "exponential":
            return exponential_density(ring, self.m(n))
        return laplace_density(ring, self.m(n))


_SURVIVAL = {
    "geometric": geometric_survival,
    "laplace": laplace_survival,
    "exponential": exponential_survival,
}


def program_context(
    program: Program,
    extra_rates: Sequence[sp.Expr] = (),
    symbolic: bool = False,
    scale: int = 1,
) -> Context:
    """The evaluation context of ``program``: the common unit ``u`` of its noise rates
    (and ``extra_rates``), each noise's multiple of ``u``, and the ring of functions of
    the outer variable — real (integrals) when the outer noise is Laplace, exact
    rationals at ``W = e^{-u}`` when that is rational and ``symbolic`` is false,
    :class:`~.expoly.Laurent` polynomials in ``W`` when the outer noise is Laplace
    and ``u`` is rational.  ``scale`` (a positive integer ``d``, Laplace noise only)
    runs the program on ``d`` times its inputs (:class:`Context`)."""
    noises = [n for n in program.noises() if n.kind != "none"]
    if not noises:
        raise InvalidParameter(f"program {program.name!r} adds no noise at all")
    if scale < 1:
        raise InvalidParameter(f"internal: scale must be a positive integer, got {scale}")
    rates: list[sp.Expr] = [n.rate for n in noises if n.rate is not None]
    rates += [exact(r) for r in extra_rates]
    u, ms = common_unit(rates)
    u = u / scale
    mult = {n: m for n, m in zip(noises, ms, strict=False)}
    laplace_used = any(n.continuous for n in noises)
    outer_kind = program.outer_noise.kind
    if scale != 1 and any(n.kind == "geometric" for n in noises):
        raise InvalidParameter(
            "rational thresholds or query answers need Laplace noise: geometric noise "
            "takes integer values"
        )
    if outer_kind in ("laplace", "exponential"):
        ring = CONTINUOUS
        if not symbolic and u.is_Rational:
            ring = ring.at_unit(Fraction(int(u.p), int(u.q)))
    elif laplace_used:
        ring = CONTINUOUS_AT_POINTS
    else:
        ring = DISCRETE
        w = sp.exp(-u)
        if not symbolic and w.is_Rational:
            # exact rational arithmetic at this value of the privacy parameter
            ring = ring.at_rational(Fraction(int(w.p), int(w.q)))
    return Context(u, ring, mult, scale)


# ---------------------------------------------------------------------------
# outputs
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Released:
    """A released quantity: the bucket ``[lo, hi)`` of a value/gap (``None`` = ∞);
    ``point`` marks the single integer ``lo`` of a point release."""

    lo: int | None
    hi: int | None
    point: bool = False

    def label(self, what: str) -> str:
        if self.point:
            return f"[{what}={self.lo}]"
        if self.lo is None:
            return f"[{what}≤{self.hi - 1}]"  # type: ignore[operator]
        if self.hi is None:
            return f"[{what}≥{self.lo}]"
        return f"[{what}∈[{self.lo},{self.hi})]"


Answer = str | Released


def answer_label(answers: Sequence[Answer], what: str) -> str:
    """The output label of an answer sequence: ``⊥``/``⊤`` and ``[what...]`` releases."""
    return "".join(a if isinstance(a, str) else a.label(what) for a in answers)


def bucket_releases(buckets: Sequence[int], gap: bool) -> list[Released]:
    """The buckets cut by the integer points ``buckets`` (gaps are ``>= 0``)."""
    cuts = list(buckets)
    rels = [] if gap else [Released(None, cuts[0])]
    if gap:
        rels.append(Released(0, cuts[0]))
    rels += [Released(a, b) for a, b in zip(cuts, cuts[1:], strict=False)]
    rels.append(Released(cuts[-1], None))
    return rels


# ---------------------------------------------------------------------------
# the mechanism of a program on a neighbour graph
# ---------------------------------------------------------------------------


@dataclass
class Tail:
    """An infinite tail of a point release: per dataset the exponential polynomial of
    the release probability there, its first point and direction."""

    label: str
    start: int
    direction: int
    pieces: dict[Hashable, ExpPoly]


@dataclass
class Laws:
    """The exact output laws of a program on each query vector, before evaluation.

    ``rows[q]`` maps each output label to its probability (an element of the ring of
    the :class:`Context`), ``order`` lists the labels.  A point release adds its
    lumped infinite ``tails``, the ``window`` of values listed one by one and the
    ``point_laws`` (``q ↦ key ↦ (v ↦ P(release = v))``).
    """

    rows: dict[Vector, dict[str, Any]]
    order: list[str]
    tails: list[Tail] = field(default_factory=list)
    window: tuple[int, int] | None = None
    point_laws: dict[Vector, dict[Any, PW]] = field(default_factory=dict)


def _key(d: Any) -> Hashable:
    return tuple(d) if isinstance(d, list) else d


@dataclass
class ProgramMechanism:
    """A program evaluated exactly on every query vector of a neighbour graph.

    ``mechanism`` is a :class:`FiniteMechanism` over the finite outputs (answer
    sequences; point releases inside the window of breakpoints; each infinite tail of
    a point release lumped into one output, which is a post-processing).  ``tails``
    keep the exact law on those tails for the pointwise checks of
    :func:`~.checks.check_program_dp`.  ``probabilities`` holds the closed forms (rational
    functions of ``W = e^{-u}``; ``U = u`` for Laplace) before evaluation.
    """

    program: Program
    mechanism: FiniteMechanism
    unit: sp.Expr
    probabilities: dict[Hashable, dict[str, Any]]
    tails: list[Tail] = field(default_factory=list)
    window: tuple[int, int] | None = None
    point_laws: dict[Hashable, dict[Any, PW]] = field(default_factory=dict)

    def point_probability(self, q: Sequence[int], key: int, v: int) -> sp.Expr:
        """``P(release = v)`` for a point release at any integer ``v`` (inside or
        outside the window): ``key`` is the number of ⊥ before the release (sparse
        vector) or ``0`` (the noisy maximum)."""
        laws = self.point_laws.get(_key(q))
        if not laws or key not in laws:
            raise InvalidParameter("this program has no point release with that key")
        return to_sympy(laws[key].at(v), self.unit)

    def classify(self, raw: str) -> str:
        """The output of :attr:`mechanism` that a raw program output falls in: itself,
        or the lumped tail containing a point release such as ``"⊥⊥[v=17]"``."""
        if raw in self.mechanism._index:
            return raw
        i = raw.find("[")
        if i < 0 or not raw.endswith("]") or "=" not in raw[i:]:
            raise InvalidParameter(f"{raw!r} is not an output of {self.program.name}")
        prefix, inner = raw[:i], raw[i + 1 : -1]
        what, _, val = inner.partition("=")
        v = int(val)
        for t in self.tails:
            if not t.label.startswith(prefix + "[" + what):
                continue
            if t.label[len(prefix) :].count("[") != 1:
                continue
            if (t.direction > 0 and v >= t.start) or (t.direction < 0 and v <= t.start):
                return t.label
        raise InvalidParameter(f"{raw!r} is not an output of {self.program.name}")

    def closed_form(self, q: Sequence[int], label: str) -> sp.Expr:
        """The exact probability of output ``label`` at ``q`` (an expression in the
        unit ``u``; symbolic when the program's ε is a symbol)."""
        row = self.probabilities[_key(q)]
        if label not in row:
            raise InvalidParameter(f"unknown output {label!r}")
        return to_sympy(row[label], self.unit)


def point_release_outputs(
    vectors: list[Vector],
    funcs: dict[Vector, dict[Any, PW]],
    what: str,
    prefix_of: Callable[[Any], str],
    nonneg: bool,
) -> Laws:
    """Window + tails for point releases: ``funcs[q][key]`` is ``v ↦ P(release = v)``
    (``key`` the number of ⊥ before the release, or 0), labelled with the prefix
    ``prefix_of(key)`` and ``[what=v]``; ``nonneg`` when the values are ``>= 0``."""
    rows: dict[Vector, dict[str, Any]] = {q: {} for q in vectors}
    order: list[str] = []
    tails: list[Tail] = []
    keys = list(next(iter(funcs.values())).keys())
    all_lo, all_hi = [], []
    for key in keys:
        fs = {q: funcs[q][key] for q in vectors}
        breaks = sorted({b for f in fs.values() for b in f.breaks})
        if not breaks:
            raise InvalidParameter("internal: a release law without breakpoints")
        lo, hi = breaks[0], breaks[-1] - 1
        if nonneg:
            lo = max(lo, 0)
        all_lo.append(lo)
        all_hi.append(hi)
        pre = prefix_of(key)
        refined = {q: f.refine([lo, hi + 1]) for q, f in fs.items()}
        left: dict[Hashable, ExpPoly] = {q: f.pieces[0] for q, f in refined.items()}
        if not all(p.is_zero for p in left.values()):
            lab = pre + Released(None, lo).label(what)
            order.append(lab)
            for q, f in fs.items():
                rows[q][lab] = f.total_between(None, lo)
            tails.append(Tail(lab, lo - 1, -1, left))
        for v in range(lo, hi + 1):
            lab = pre + Released(v, v + 1, point=True).label(what)
            order.append(lab)
            for q, f in fs.items():
                rows[q][lab] = f.at(v)
        lab = pre + Released(hi + 1, None).label(what)
        order.append(lab)
        right: dict[Hashable, ExpPoly] = {q: f.pieces[-1] for q, f in refined.items()}
        for q, f in fs.items():
            rows[q][lab] = f.total_between(hi + 1, None)
        tails.append(Tail(lab, hi + 1, 1, right))
    return Laws(rows, order, tails, (min(all_lo), max(all_hi)), funcs)


def program_mechanism(
    program: Program,
    graph: nx.Graph,
    *,
    answers: Mapping[Hashable, Sequence[int]] | None = None,
    style: Style | None = None,
    extra_rates: Sequence[sp.Expr] = (),
    symbolic: bool = False,
    name: str | None = None,
) -> ProgramMechanism:
    """The exact output law of ``program`` on every dataset of ``graph``.

    The nodes of ``graph`` are query-answer vectors (:func:`~.queries.query_graph`), or any
    datasets with their vectors given by ``answers``.  Every edge is validated against
    the neighbour style (``graph.graph["style"]``, or ``style``; default
    ``"all_differ"``): neighbouring datasets with different answers must differ as the
    style allows.  Probabilities are computed in closed form in ``Q(W)`` / ``Q(W, U)``
    (once per distinct vector); each law is proved to sum to 1 *as a rational
    function* (for every value of ε) before evaluation.  ``extra_rates`` joins more
    rates to the common unit (e.g. a claimed ε̃ that is not a multiple of the noise
    rates).  When ``e^{-u}`` is rational the laws are evaluated with exact rational
    arithmetic at that point; ``symbolic=True`` keeps rational functions of ``W``
    instead (slower; :attr:`ProgramMechanism.probabilities` then holds closed forms
    valid for every ε).

    Parameters
    ----------
    program : Program
        The program (e.g. :func:`~.svt.lyu_svt`, :func:`~.svt.gap_svt`,
        :func:`~.noisy_max.report_noisy_max`).
    graph : networkx.Graph
        Neighbouring datasets; its nodes are query vectors unless ``answers`` is given.
    answers : mapping, optional
        ``{dataset: vector of integer query answers}``.
    style : {"all_differ", "one_differ", "monotone"}, optional
        The sensitivity every edge must respect (Δ = 1).
    extra_rates, symbolic, name
        See above.

    Returns
    -------
    ProgramMechanism
        The exact finite mechanism (with lumped infinite tails of point releases) and
        the exact laws on those tails.

    Raises
    ------
    InvalidMechanism
        An edge violating the sensitivity, vectors of different lengths.
    InvalidParameter
        Incommensurable noise rates, a point release with ``c > 1``, ...
    """
    st = style or graph.graph.get("style", "all_differ")
    if answers is None:
        check_sensitivity(graph, st)
        ans: dict[Hashable, Vector] = {d: as_vector(d) for d in graph.nodes}
    else:
        ans = {}
        for d in graph.nodes:
            if d not in answers:
                raise InvalidMechanism(f"dataset {d!r} has no query answers")
            ans[d] = as_vector(answers[d])
        for a, b in graph.edges:
            if ans[a] != ans[b]:
                why = neighbour_violation(ans[a], ans[b], st, 1)
                if why:
                    raise InvalidMechanism(
                        f"edge ({a!r}, {b!r}) violates the {st} sensitivity: {why}"
                    )
    vectors = list(dict.fromkeys(ans.values()))
    if not vectors:
        raise InvalidMechanism("the neighbour graph has no datasets")
    n = len(vectors[0])
    if any(len(v) != n for v in vectors):
        raise InvalidMechanism("all query vectors must have the same length")
    ctx = program_context(program, extra_rates, symbolic, getattr(program, "denominator", 1))
    ring = ctx.outer
    laws = program.laws(ctx, vectors)
    rows = laws.rows
    # exact validation: every law sums to 1 as a rational function of W (and U)
    for q, row in rows.items():
        total = sum(row.values(), ring.zero)
        if total != 1:
            raise InvalidMechanism(
                f"internal: the law of {program.name} at {q} sums to {total}, not 1"
            )
    evaluated = {q: {lab: to_sympy(p, ctx.u) for lab, p in row.items()} for q, row in rows.items()}
    dists = {d: evaluated[ans[d]] for d in graph.nodes}
    mech = FiniteMechanism(
        graph,
        dists,
        laws.order,
        name=name or program.name,
        validate=False,
    )
    by_dataset_tails = [
        Tail(t.label, t.start, t.direction, {d: t.pieces[ans[d]] for d in graph.nodes})
        for t in laws.tails
    ]
    return ProgramMechanism(
        program,
        mech,
        ctx.u,
        {d: rows[ans[d]] for d in graph.nodes},
        by_dataset_tails,
        laws.window,
        {d: laws.point_laws[ans[d]] for d in graph.nodes} if laws.point_laws else {},
    )


def output_probability(program: Program, q: Sequence[int], label: str) -> sp.Expr:
    """The exact probability of one output of ``program`` on the answers ``q``
    (closed form; symbolic in ε when the program's rates are)."""
    v = as_vector(q)
    g = nx.Graph()
    g.add_node(v)
    g.graph["style"] = "all_differ"
    return program_mechanism(program, g).closed_form(v, label)


# ---------------------------------------------------------------------------
# spec-file inputs of the programs' transformers
# ---------------------------------------------------------------------------


def answers_of(mech: FiniteMechanism) -> dict[Hashable, Vector]:
    """The query-answer vector of every dataset of a *deterministic* mechanism whose
    outputs are integer tuples (or integers, one query) — the input format of the
    ``sparse_vector`` and ``report_noisy_max`` transformers."""
    out: dict[Hashable, Vector] = {}
    for d in mech.datasets:
        supp = mech.support(d)
        if len(supp) != 1 or mech.p(d, supp[0]) != 1:
            raise InvalidMechanism(
                f"the input of a noise program must be deterministic: dataset {d!r} has "
                f"{len(supp)} possible outputs"
            )
        o = supp[0]
        out[d] = as_vector((o,) if isinstance(o, int) else o)
    return out


def parse_integer(raw: Any, values: Values) -> int:
    """A parameter parser: an integer (exactly)."""
    v = exact_number(raw, values)
    if not v.is_Integer:
        raise InvalidParameter(f"must be an integer, got {v}")
    return int(v)


def _positive_number(raw: Any, values: Values) -> sp.Expr:
    v = exact_number(raw, values)
    if not v.is_positive:
        raise InvalidParameter(f"must be > 0, got {v}")
    return v


def _buckets(raw: Any, values: Values) -> tuple[int, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, (list, tuple)) or not raw:
        raise InvalidParameter(f"must be a non-empty list of increasing integers, got {raw!r}")
    out = tuple(parse_integer(x, values) for x in raw)
    if list(out) != sorted(set(out)):
        raise InvalidParameter(f"cut points must increase strictly, got {list(out)}")
    return out


#: The parameters the ``sparse_vector`` and ``report_noisy_max`` transformers share.
PROGRAM_PARAMS = [
    Param("epsilon", _positive_number, "the privacy parameter epsilon > 0"),
    Param("noise", choice("geometric", "laplace"), "the noise family", "geometric"),
    Param(
        "style",
        choice("all_differ", "one_differ", "monotone"),
        "neighbouring query answers: every answer moves by <= 1 / one answer / "
        "all in one direction",
        "all_differ",
    ),
    Param("buckets", _buckets, "integer cut points: release buckets of values", None),
]

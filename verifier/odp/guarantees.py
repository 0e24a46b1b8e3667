"""Output differential privacy (ODP): partitions, per-cell budgets, subset DP, and
the ODP composition experiment — Hartmann, Bindschaedler, Bentkamp, West 2022,
"Privacy accounting εconomics: Improving differential privacy composition via a
posteriori bounds" (PoPETs 2023).

Definitions (reconstructed from the paper, §2–§3; see "Reading of Def 2" below):

* **ODP (Def 2).** A countable partition ``{S_j}`` of the output set, values
  ``e(j) >= 0`` and ``δ``: ``M`` is ``(P, e, δ)``-ODP if for all ``S ⊆ O`` and all
  neighbours ``D, D'``: ``Pr[M(D) ∈ S] <= Σ_j e^{e(j)} Pr[M(D') ∈ S ∩ S_j] + δ``.
  For finite outputs the supremum over ``S`` is attained at ``S = {o : P_D(o) >
  e^{e(j(o))} P_D'(o)}``, so the condition is ``Σ_o max(0, P_D(o) - e^{e(j(o))}
  P_D'(o)) <= δ`` — the ex-post ``(ε̃, δ)`` condition of Ghazi et al. 2025 (Def 5)
  with ``ε̃ = e ∘ cell``.  With singleton cells and ``δ = 0`` it *is* ex-post DP
  (Ghazi et al. Def 2).
* **Subset DP (Def 5).** ``M`` is ``(S, ε, δ)``-subset DP if for all ``S' ⊆ S``:
  ``Pr[M(D) ∈ S'] <= e^ε Pr[M(D') ∈ S'] + δ``, i.e. ``Σ_{o∈S} max(0, P_D(o) - e^ε
  P_D'(o)) <= δ``.
* **Lemma 3.** ``(ε, δ)``-DP ⇒ ``(P, e ≡ ε, δ)``-ODP for every partition ``P``
  (:meth:`ODPGuarantee.of` with a constant ``e``).
* **Lemma 4.** ``(P, e, δ)``-ODP ⇒ ``(max_j e(j), δ)``-DP
  (:meth:`ODPGuarantee.dp_guarantee`).
* **Lemma 6.** ``(S_j, e(j), δ(j))``-subset DP for every cell ⇒ ``(P, e, Σ_j δ(j))``-ODP.
  The lemmas are checked as claims in the ``hartmann2022`` case study.
* **Composition (Alg. 1, Theorem 7).** A budget ``(ε_g, δ_g)``; in each round the
  adversary picks neighbours ``(D^0, D^1)``, a mechanism ``M_i`` and an ODP
  guarantee ``(P_i, e_i, δ_i)`` whose DP guarantee (Lemma 4) fits the remaining
  budget; the curator releases ``o_i ← M_i(D^b)`` and subtracts ``e_i(j)`` for the
  cell ``j ∋ o_i`` and ``δ_i``.  Theorem 7: for every set ``S`` of views,
  ``Pr[V^0 ∈ S] <= e^{ε_g} Pr[V^1 ∈ S] + δ_g``.  The paper reports that a previous
  version, in which the amount subtracted could depend on the output beyond its
  cell, is false (found while formalising the proof in Lean).

Reading of Def 2.  Def 2 can be read per cell ("for every j and every
``S ⊆ S_j``: ``Pr[M(D) ∈ S] <= e^{e(j)} Pr[M(D') ∈ S] + δ``").  With ``δ = 0`` both
readings coincide.  With ``δ > 0`` the per-cell reading lets every cell spend its own
``δ``, and Lemma 4 (``δ`` unchanged) fails for it — :func:`check_odp` takes
``reading="per_cell"`` so that the toolkit can exhibit the counterexample; the paper's
Lemma 6 (a *function* ``δ(j)`` assembled into one ``δ``) and Lemma 4 fit the
sum reading, which is the default.

>>> import sympy as sp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> half = sp.Rational(1, 2)
>>> toy = FiniteMechanism(pair(), {"D": {"bot": half, 0: half / 2, 1: half / 2},
...                               "D'": {"bot": half, 0: half * 3 / 4, 1: half / 4}})
>>> g = ODPGuarantee.of(Partition.from_key(toy.outputs, lambda o: o == "bot"),
...                     {True: 0, False: sp.log(3)})
>>> check_odp(toy, g).verdict.value
'holds'
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Unpack

import sympy as sp

from ..arithmetic.exact import (
    DEFAULT_PRECISION,
    Precision,
    Sign,
    Verdict,
    combine_verdicts,
    decide_le,
    decide_sign,
    exact,
    exact_max,
)
from ..checks.docstrings import fill_doc
from ..checks.privacy import (
    check_ex_post,
    hockey_stick,
    realized_ex_post_epsilon,
)
from ..checks.results import CheckResult, Finding
from ..checks.vocabulary import PointOptions, fill_options, privacy_parameters
from ..errors import InvalidMechanism, InvalidParameter
from ..mechanism.model import Dataset, FiniteMechanism, Output, natural_order
from ..mechanism.neighbours import pair as pair_graph

__all__ = [
    "Partition",
    "ODPGuarantee",
    "check_odp",
    "check_subset_dp",
    "subset_dp_epsilon",
    "realized_odp",
    "ex_post_as_odp",
    "expected_charge",
    "Move",
    "Adversary",
    "CompositionRun",
    "odp_composition",
    "cell_charge",
    "singleton_subset_charge",
]

Pair = tuple[Dataset, Dataset]


# ---------------------------------------------------------------------------
# partitions and guarantees
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Partition:
    """A partition of a finite output set into named cells (Hartmann et al. Def 2)."""

    cells: tuple[frozenset[Output], ...]
    names: tuple[Hashable, ...]

    def __post_init__(self) -> None:
        if len(self.cells) != len(self.names):
            raise InvalidParameter("a partition needs one name per cell")
        if len(set(self.names)) != len(self.names):
            raise InvalidParameter("cell names must be distinct")
        seen: set[Output] = set()
        for c in self.cells:
            if not c:
                raise InvalidParameter("a partition cell is empty")
            if seen & c:
                raise InvalidParameter(f"outputs {sorted(map(repr, seen & c))} lie in two cells")
            seen |= c

    @classmethod
    def from_key(cls, outputs: Iterable[Output], key: Callable[[Output], Hashable]) -> Partition:
        """Cells are the level sets of ``key``."""
        groups: dict[Hashable, list[Output]] = {}
        for o in outputs:
            groups.setdefault(key(o), []).append(o)
        names = natural_order(groups)
        return cls(tuple(frozenset(groups[n]) for n in names), tuple(names))

    @classmethod
    def singletons(cls, outputs: Iterable[Output]) -> Partition:
        outs = list(outputs)
        return cls(tuple(frozenset([o]) for o in outs), tuple(outs))

    @classmethod
    def trivial(cls, outputs: Iterable[Output], name: Hashable = "O") -> Partition:
        return cls((frozenset(outputs),), (name,))

    @property
    def outputs(self) -> frozenset[Output]:
        out: frozenset[Output] = frozenset()
        for c in self.cells:
            out |= c
        return out

    def cell_index(self, o: Output) -> int:
        for i, c in enumerate(self.cells):
            if o in c:
                return i
        raise InvalidParameter(f"output {o!r} lies in no cell of the partition")

    def name_of(self, o: Output) -> Hashable:
        return self.names[self.cell_index(o)]

    def covers(self, outputs: Iterable[Output]) -> None:
        missing = [o for o in outputs if o not in self.outputs]
        if missing:
            raise InvalidParameter(f"outputs {missing[:5]!r} lie in no cell of the partition")


@dataclass(frozen=True)
class ODPGuarantee:
    """``(P, e, δ)``: a partition, one budget ``e(j) >= 0`` per cell, and ``δ``."""

    partition: Partition
    e: tuple[sp.Expr, ...]
    delta: sp.Expr = sp.Integer(0)

    def __post_init__(self) -> None:
        if len(self.e) != len(self.partition.cells):
            raise InvalidParameter("one budget e(j) per cell is needed")
        es = tuple(exact(x) for x in self.e)
        for x in es:
            if not x.free_symbols and decide_sign(x).sign is Sign.NEGATIVE:
                raise InvalidParameter(f"a cell budget is negative: {x}")
        d = exact(self.delta)
        if not d.free_symbols and decide_sign(d).sign is Sign.NEGATIVE:
            raise InvalidParameter(f"delta is negative: {d}")
        object.__setattr__(self, "e", es)
        object.__setattr__(self, "delta", d)

    @classmethod
    def of(
        cls, partition: Partition, e: Mapping[Hashable, Any] | Any, delta: Any = 0
    ) -> ODPGuarantee:
        """From a mapping cell name → budget (or one budget for every cell)."""
        if isinstance(e, Mapping):
            missing = [n for n in partition.names if n not in e]
            if missing:
                raise InvalidParameter(f"no budget for cells {missing!r}")
            es = tuple(exact(e[n]) for n in partition.names)
        else:
            es = tuple(exact(e) for _ in partition.names)
        return cls(partition, es, exact(delta))

    def e_of(self, o: Output) -> sp.Expr:
        """The budget of the cell containing ``o``."""
        return self.e[self.partition.cell_index(o)]

    def dp_guarantee(self) -> tuple[sp.Expr, sp.Expr]:
        """The ``(max_j e(j), δ)``-DP guarantee implied by the ODP guarantee (Hartmann
        et al. 2022, Lemma 4; the maximum is taken exactly)."""
        i, _ = exact_max(list(self.e))
        return self.e[i], self.delta

    def __str__(self) -> str:
        cells = ", ".join(f"{n}: {e}" for n, e in zip(self.partition.names, self.e, strict=True))
        return f"ODP({cells}; delta={self.delta})"


# ---------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------


def _pairs(mech: FiniteMechanism, pairs: Iterable[Pair] | None) -> list[Pair]:
    return list(mech.ordered_pairs()) if pairs is None else list(pairs)


def _dist(mech: FiniteMechanism, d: Dataset, outs: Iterable[Output]) -> dict[Output, sp.Expr]:
    return {o: mech.p(d, o) for o in outs if mech.p(d, o) != 0}


def _hockey_stick_findings(
    mech: FiniteMechanism,
    prs: Iterable[Pair],
    groups: Sequence[tuple[Hashable, Sequence[Output]]],
    e: Callable[[Output], Any] | Any,
    delta: sp.Expr,
    precision: Precision,
) -> list[Finding]:
    """Per ordered pair and per group ``(name, outputs)``: the hockey-stick divergence
    ``Σ_{o ∈ outputs} max(0, P_D(o) - e^{e(o)} P_D'(o))`` against ``δ`` (Hartmann et al.
    Def 2 on a cell or on every output, Def 5 on a subset), the finding's output the
    group's name."""
    findings = []
    for d, d2 in prs:
        for name, outs in groups:
            hs = hockey_stick(_dist(mech, d, outs), _dist(mech, d2, outs), e, precision)
            c = decide_le(hs, delta, precision)
            findings.append(Finding(c.verdict, name, (d, d2), hs, delta, hs, delta, tight=c.tight))
    return findings


def _result(title: str, findings: list[Finding], quantity: str) -> CheckResult:
    """The conjunction of ``findings`` under ``title``, bounding ``quantity``."""
    return CheckResult(title, combine_verdicts(f.verdict for f in findings), findings, quantity)


@fill_doc
def check_odp(
    mech: FiniteMechanism,
    g: ODPGuarantee,
    *,
    reading: str = "sum",
    **options: Unpack[PointOptions],
) -> CheckResult:
    """Check ``(P, e, δ)``-ODP (Hartmann et al. Def 2) on every ordered pair.

    Parameters
    ----------
    mech : FiniteMechanism
    g : ODPGuarantee
        The partition, the cell budgets ``e(j)`` and ``δ``.
    reading : {"sum", "per_cell"}
        ``"sum"`` (default): ``Σ_o max(0, P_D(o) - e^{e(j(o))} P_D'(o)) <= δ`` per
        pair; with ``δ = 0`` the findings are per output (the pointwise ex-post form,
        decided by :func:`verifier.checks.privacy.check_ex_post`).  ``"per_cell"``: the same
        sum restricted to each cell, each ``<= δ`` (the per-cell reading).
    %(point_options)s

    Returns
    -------
    CheckResult
    """
    o = fill_options(PointOptions, "check_odp", options)
    precision = o["precision"]
    if reading not in ("sum", "per_cell"):
        raise InvalidParameter(f"reading must be 'sum' or 'per_cell', got {reading!r}")
    g.partition.covers(mech.outputs)
    prs = _pairs(mech, o["pairs"])
    name = o["title"] or f"{mech.name} is {g}"
    if g.delta == 0:
        # both readings coincide: the pointwise (ex-post) form, per output
        r = check_ex_post(mech, epsilon_tilde=g.e_of, pairs=prs, precision=precision, title=name)
        r.quantity = "realized eps(o) vs e(cell)"
        return r
    groups: list[tuple[Hashable, Sequence[Output]]]
    if reading == "sum":
        groups = [(None, list(mech.outputs))]
    else:
        groups = [
            (n, [o for o in mech.outputs if o in c])
            for n, c in zip(g.partition.names, g.partition.cells, strict=True)
        ]
    findings = _hockey_stick_findings(mech, prs, groups, g.e_of, g.delta, precision)
    return _result(name, findings, "delta needed" + ("" if reading == "sum" else " (per cell)"))


@fill_doc
@privacy_parameters("epsilon", "delta")
def check_subset_dp(
    mech: FiniteMechanism,
    subset: Iterable[Output],
    *,
    epsilon: Any,
    delta: Any = 0,
    **options: Unpack[PointOptions],
) -> CheckResult:
    """Check ``(S, ε, δ)``-subset DP (Hartmann et al. Def 5):
    ``Σ_{o∈S} max(0, P_D(o) - e^ε P_D'(o)) <= δ`` for every ordered pair.

    Parameters
    ----------
    mech : FiniteMechanism
    subset : iterable of outputs
        The subset ``S``.
    epsilon : sympy.Expr, int, fractions.Fraction or str
        The claimed ε (keyword-only).
    delta : sympy.Expr, int, fractions.Fraction or str
        The claimed δ (default 0: pointwise, one finding per output of ``S``).
    %(point_options)s
    """
    opts = fill_options(PointOptions, "check_subset_dp", options)
    precision, pairs = opts["precision"], opts["pairs"]
    S = [o for o in mech.outputs if o in set(subset)]
    e, dl = exact(epsilon), exact(delta)
    findings = []
    name = opts["title"] or f"{mech.name} is ({sorted(map(str, S))}, {e}, {dl})-subset DP"
    if dl == 0:
        # pointwise: P_D(o) <= e^ε P_D'(o) for every o in S
        for o in S:
            for d, d2 in _pairs(mech, pairs):
                p, q = mech.p(d, o), mech.p(d2, o)
                if p == 0:
                    continue
                c = decide_le(p, sp.exp(e) * q, precision)
                realized = sp.oo if q == 0 else sp.log(p / q)
                findings.append(
                    Finding(c.verdict, o, (d, d2), realized, e, p, sp.exp(e) * q, tight=c.tight)
                )
        return _result(name, findings, "realized eps(o)")
    findings = _hockey_stick_findings(mech, _pairs(mech, pairs), [(None, S)], e, dl, precision)
    return _result(name, findings, "delta needed")


def subset_dp_epsilon(
    mech: FiniteMechanism,
    subset: Iterable[Output],
    pairs: Iterable[Pair] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> sp.Expr:
    """The smallest ``ε`` with ``(S, ε, 0)``-subset DP: the largest realized ex-post
    loss over ``S`` (``0`` when no output of ``S`` has a positive loss)."""
    S = set(subset)
    table = realized_ex_post_epsilon(mech, None if pairs is None else list(pairs), precision)
    vals = [r.value for r in table.rows if r.output in S]
    if not vals:
        return sp.Integer(0)
    if any(v is sp.oo for v in vals):
        return sp.oo
    i, _ = exact_max([*vals, sp.Integer(0)], precision)
    return [*vals, sp.Integer(0)][i]


def realized_odp(
    mech: FiniteMechanism,
    partition: Partition,
    pairs: Iterable[Pair] | None = None,
    precision: Precision = DEFAULT_PRECISION,
) -> ODPGuarantee:
    """The smallest ``e`` with ``(P, e, 0)``-ODP: per cell, the largest realized
    ex-post loss in the cell (exact; ``0`` for cells whose outputs leak nothing)."""
    prs = None if pairs is None else list(pairs)
    es = [subset_dp_epsilon(mech, c, prs, precision) for c in partition.cells]
    return ODPGuarantee(partition, tuple(es), sp.Integer(0))


def ex_post_as_odp(outputs: Iterable[Output], eps_tilde: Callable[[Output], Any]) -> ODPGuarantee:
    """Ghazi et al.'s ex-post ``ε̃``-DP as ODP with singleton cells: ``e({o}) = ε̃(o)``,
    ``δ = 0`` (Hartmann et al. 2022, §3)."""
    outs = list(outputs)
    return ODPGuarantee(Partition.singletons(outs), tuple(exact(eps_tilde(o)) for o in outs))


def expected_charge(mech: FiniteMechanism, dataset: Dataset, g: ODPGuarantee) -> sp.Expr:
    """``E[e(cell of M(D))]``: the budget the ODP accounting of Alg. 1 subtracts on
    average at ``dataset`` (the DP accounting always subtracts ``max_j e(j)``)."""
    return sp.Add(*[mech.p(dataset, o) * g.e_of(o) for o in mech.outputs])


# ---------------------------------------------------------------------------
# the composition experiment (Hartmann et al. Alg. 1, Theorem 7)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One round of the adversary: a mechanism, the neighbours ``(D^0, D^1)`` it is
    run on (an edge of its graph), and the ODP guarantee claimed for it."""

    mechanism: FiniteMechanism
    pair: Pair
    guarantee: ODPGuarantee
    label: str = ""

    def __post_init__(self) -> None:
        a, b = self.pair
        if not self.mechanism.graph.has_edge(a, b):
            raise InvalidMechanism(
                f"({a!r}, {b!r}) is not a neighbouring pair of {self.mechanism.name}"
            )
        self.guarantee.partition.covers(self.mechanism.outputs)


#: A deterministic adversary: (outputs so far, remaining ε, remaining δ) -> next move
#: (``None`` ends the game).  Randomised adversaries are mixtures of these.
Adversary = Callable[[tuple[Output, ...], sp.Expr, sp.Expr], Move | None]
#: How much ε a round is charged after output ``o``: Alg. 1 charges e(cell of o).
Charge = Callable[[Move, Output], sp.Expr]


def cell_charge(move: Move, o: Output) -> sp.Expr:
    """Alg. 1, line 15: subtract ``e_i(j)`` for the cell ``j`` containing ``o``."""
    return move.guarantee.e_of(o)


def singleton_subset_charge(move: Move, o: Output) -> sp.Expr:
    """The *fallacious* variant: subtract the smallest ``e`` for which ``M_i`` is
    ``({o}, e, δ_i)``-subset DP (Def 5) — an amount depending on the output itself,
    not only on its cell.  Computed exactly over both directions of ``(D^0, D^1)``:
    ``max(0, max log((P_D(o) - δ_i)/P_D'(o)))``.  With ``δ_i = 0`` this is the
    realized ex-post loss of ``o`` (and the variant is sound: singleton ODP)."""
    m = move.mechanism
    a, b = move.pair
    best = sp.Integer(0)
    for d, d2 in ((a, b), (b, a)):
        p, q = m.p(d, o), m.p(d2, o)
        excess = p - move.guarantee.delta
        if decide_sign(excess).sign in (Sign.NEGATIVE, Sign.ZERO):
            continue
        if q == 0:
            return sp.oo
        cand = sp.log(excess / q)
        if decide_le(cand, best).verdict is Verdict.VIOLATED:
            best = cand
    return best


@dataclass
class CompositionRun:
    """The unfolded composition game: the transcript's law under ``b = 0`` and
    ``b = 1`` as a two-dataset mechanism over views, and what each round claimed."""

    transcript: FiniteMechanism
    moves: list[tuple[tuple[Output, ...], Move]]
    remaining: dict[tuple[Output, ...], tuple[sp.Expr, sp.Expr]]
    eps_total: sp.Expr
    delta_total: sp.Expr
    notes: list[str] = field(default_factory=list)


def odp_composition(
    adversary: Adversary,
    eps_total: Any,
    delta_total: Any = 0,
    *,
    rounds: int,
    charge: Charge = cell_charge,
    precision: Precision = DEFAULT_PRECISION,
) -> CompositionRun:
    """Unfold Hartmann et al.'s Alg. 1 against a deterministic adversary, exactly.

    In each round the adversary's move must fit the remaining budget (Lemma 4:
    ``max_j e(j) <= ε_rem`` and ``δ_i <= δ_rem``; an illegal move raises
    :class:`InvalidParameter`).  After output ``o`` the budget becomes ``ε_rem -
    charge(move, o)`` and ``δ_rem - δ_i``.  The view is the tuple of outputs; its law
    under ``b`` is the product of the rounds' laws at ``D_i^b``.

    Parameters
    ----------
    adversary : callable ``(view, ε_rem, δ_rem) -> Move | None``
        A deterministic adversary (a finite decision tree given as a function).
    eps_total, delta_total : exact numbers
        The budget ``(ε_g, δ_g)``.
    rounds : int
        The maximal number of rounds ``k`` of Alg. 1.
    charge : callable ``(move, output) -> ε``
        :func:`cell_charge` (Alg. 1) or a variant such as
        :func:`singleton_subset_charge`.

    Returns
    -------
    CompositionRun
        The view's law under ``b = 0`` and ``b = 1`` as a two-dataset mechanism, the
        moves played and the budget left at every leaf.
    """
    eg, dg = exact(eps_total), exact(delta_total)
    if not isinstance(rounds, int) or rounds < 1:
        raise InvalidParameter(f"rounds must be a positive integer, got {rounds!r}")
    P0: dict[tuple[Output, ...], sp.Expr] = {}
    P1: dict[tuple[Output, ...], sp.Expr] = {}
    moves: list[tuple[tuple[Output, ...], Move]] = []
    remaining: dict[tuple[Output, ...], tuple[sp.Expr, sp.Expr]] = {}

    def fits(x: sp.Expr, budget: sp.Expr) -> bool:
        return decide_le(x, budget, precision).verdict is Verdict.HOLDS

    def rec(view: tuple[Output, ...], p0: sp.Expr, p1: sp.Expr, er: sp.Expr, dr: sp.Expr) -> None:
        move = adversary(view, er, dr) if len(view) < rounds else None
        if move is None:
            P0[view] = P0.get(view, sp.Integer(0)) + p0
            P1[view] = P1.get(view, sp.Integer(0)) + p1
            remaining[view] = (er, dr)
            return
        eps_i, delta_i = move.guarantee.dp_guarantee()
        if not (fits(eps_i, er) and fits(delta_i, dr)):
            raise InvalidParameter(
                f"illegal move after {view!r}: {move.label or move.mechanism.name} claims "
                f"({eps_i}, {delta_i})-DP but only ({er}, {dr}) remains (Alg. 1)"
            )
        moves.append((view, move))
        m = move.mechanism
        d0, d1 = move.pair
        for o in m.outputs:
            q0, q1 = m.p(d0, o), m.p(d1, o)
            if q0 == 0 and q1 == 0:
                continue
            rec(view + (o,), p0 * q0, p1 * q1, er - charge(move, o), dr - delta_i)

    rec((), sp.Integer(1), sp.Integer(1), eg, dg)
    views = natural_order(P0)
    g = pair_graph("b=0", "b=1")
    mech = FiniteMechanism(g, {"b=0": P0, "b=1": P1}, views, name="view of Alg. 1", validate=False)
    return CompositionRun(mech, moves, remaining, eg, dg)

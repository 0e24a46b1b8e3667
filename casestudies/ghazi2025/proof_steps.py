"""Ghazi et al. 2025: every displayed step of the proofs of Theorems 8, 10, 11, 12, 13
and Lemmas 14, 15, as data — tables of :class:`~verifier.claims.steps.Step` decided by
one engine (:func:`~verifier.claims.steps.decide_steps`) over the whole space of the
quantities the step involves, never at hand-picked points.

How a step becomes a box, a range or a search (``NOTES.md`` has the derivations):

* **The quantities, not the instances.**  A step is written in the real quantities it
  compares — ``x_i = e^{-ε_i}``, ``p' = e^{-ε'}`` in ``(0, 1]``, the probabilities
  ``Q_j(U)``, ``Q'_j(U)`` in ``[0, 1]`` — and decided for every value in a box.  The
  integer structure of a sum over ``k`` (``Geom_p(u)`` is ``(1-p)p^u`` for ``u >= 0``
  and 0 below) is a finite case split: ``u >= 0`` with the monomial ``T = x^u`` as a
  box parameter in ``[0, 1]`` (every ``k``, every output ``o``, every table at once),
  and the finitely many negative ``u`` where a factor vanishes.
* **Premises as reparametrizations.**  ``M_j`` ε_j-DP gives ``Q_j(U) >= x_j Q'_j(U)``:
  the step is decided at ``Q_j(U) = x_j Q'_j(U) + r (1 - x_j Q'_j(U))``, ``r ∈ [0, 1]``,
  which is exactly the set the premise allows; ``Q_i(o) <= e^{ε_i} Q'_i(o)`` becomes
  ``Q_i(o) = s Q'_i(o)/x_i``, ``s ∈ [0, 1]``.
* **Common factors.**  A nonnegative factor common to both sides (``Geom(k)``,
  ``e^{-ε_i k} Q'_i(o)``) is cancelled, which leaves the inequality unchanged and keeps
  the box small enough for branch and bound; each step says what it cancelled.
* **Identities** (closed forms, index shifts, the algebra of the chains) are proved
  exactly for every value of their parameters — the algorithms built with symbolic
  budgets and *symbolic probabilities* (every binary or three-output mechanism at once)
  against an independent evaluation of the series the proof writes.
* **Sums over ``k``**: a step applied termwise is decided termwise for every ``k``
  (summing preserves it); the sum-level steps of Theorem 8 (Algorithm 1) are decided on
  the algorithm's symbolic closed forms over the box of budgets
  ``ε_1, ε_2 ∈ [1/100, 3]``, ``ε' ∈ [1/100, 1]`` (the integer tables fixed).
* **Search** where an inequality is tight on a curve inside its domain (Hölder's and
  the weighted AM–GM steps, the data-processing step, Lemma 15 itself), which no branch
  and bound can close: a worst-case search over rational grids (``verifier search``).

Findings (each the certificate of its claim; the other side holds, see each claim):

* **Theorem 10, first line of the chain.**  The product on the right runs over ``j ≠ i``
  (as in Theorem 11's proof) while ``A(o, i)`` has ``j < i`` only: on ``RR(ε_1)``
  followed by a mechanism always at ``τ`` the printed line fails on a region of the
  budgets, and holds for the last mechanism ``i = d`` (where the two products agree).
* **Theorem 11, last line without ``e^{ε'}``** (the reviews' point about the proof of
  the submitted Theorem 8, which is the published Theorem 11): ``A(o, i) <= e^{2ε_i}
  A'(o, i)`` fails on a high-budget competitor; the published ``e^{2ε_i + ε'}`` holds.
* **Lemma 15, first line** ("from ``1 + x <= e^x``"): the bound reverses under the
  negative power ``1 - α``; it fails where ``g(a)^α > g(cb)^{α-1}``, ``g(t) = (1-t)e^t``.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.algorithms.ghazi import (
    BOTTOM,
    above_threshold,
    generalized_above_threshold,
    hyperparameter_tuning,
)
from verifier.checks.results import CheckResult
from verifier.checks.results import label as text_of
from verifier.claims.steps import Step, decide_steps
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import add_remove, pair
from verifier.search.inequalities import GridSpace, inequality_search

R = sp.Rational
F = Fraction
SRC = "Ghazi et al. 2025"

# ---------------------------------------------------------------------------
# symbols and boxes
# ---------------------------------------------------------------------------

#: ``x_i = e^{-ε_i}``, ``p' = e^{-ε'}`` where a step divides by them (boxes from 1/1000:
#: :data:`XPOS`).
XI, PP = sp.symbols("x_i p", positive=True)
#: ``x_j = e^{-ε_j}`` and ``p' = e^{-ε'}`` where a step is polynomial in them: declared
#: nonnegative, decided on the closed ``[0, 1]``, which covers every budget ``ε >= 0`` (the
#: end 0 is the limit ``ε -> ∞``, where the step's expression is still defined).
XJ, P0 = sp.symbols("x_j p", nonnegative=True)
#: Monomials in ``k``: ``P = p'^k``, ``K_j = x_j^k``, ``T = x^u``.
PK, KJ, TU = sp.symbols("P K_j T", nonnegative=True)
#: Probabilities: ``q = Q'_i(o)``, ``q_j = Q'_j(U)``; the premise parameters ``s``
#: (``Q_i(o) = s q/x_i``) and ``r_j`` (``Q_j(U) = x_j q_j + r_j (1 - x_j q_j)``).
QI, QJ, SI, RJ = sp.symbols("q q_j s r_j", nonnegative=True)
#: Budgets of the sum-level (Algorithm 1) steps.
E1, E2, EP = sp.symbols("eps_1 eps_2 eps_prime", positive=True)

UNIT = (0, 1)
#: ``x = e^{-ε}`` where the step divides by it: ``ε ∈ [0, log 1000]``.
XPOS = (R(1, 1000), 1)
#: The box of budgets of the sum-level steps (as ``casestudies.ghazi2025.boxes``).
BUDGETS = {E1: (R(1, 100), 3), E2: (R(1, 100), 3), EP: (R(1, 100), 1)}


def _geom(p: Any, u: int) -> Any:
    """``Geom_p(u) = (1-p) p^u`` for ``u >= 0``, else 0 (Ghazi et al. 2025, §2)."""
    return (1 - p) * p**u if u >= 0 else sp.Integer(0)


def _geom_below(x: Any, m: int) -> Any:
    """``Geom_x(<m) = Σ_{y<m} Geom_x(y) = 1 - x^m`` for ``m >= 1``, else 0."""
    return 1 - x**m if m >= 1 else sp.Integer(0)


def _auto_domain(*exprs: Any) -> dict[sp.Symbol, tuple[Any, Any]]:
    """A box for an identity's symbols (the identity is proved for every value; the box
    only names the parameters): budgets ``eps_*`` in ``[1/100, 3]``, ``eps_prime`` in
    ``[1/100, 1]``, probabilities of the symbolic mechanisms in ``[0, 1/2]``."""
    out: dict[sp.Symbol, tuple[Any, Any]] = {}
    for e in exprs:
        for s in sp.sympify(e).free_symbols:
            name = str(s)
            if name == "eps_prime":
                out[s] = (R(1, 100), 1)
            elif name.startswith("eps"):
                out[s] = (R(1, 100), 3)
            else:
                out[s] = (0, R(1, 2))
    return out


def _identity(label: str, lhs: Any, rhs: Any, note: str = "") -> Step:
    """An ``==`` step in symbolic budgets and probabilities (proved for every value)."""
    return Step(label, lhs, rhs, "==", domain=_auto_domain(lhs, rhs), note=note)


def _exp_log_form(x: Any, bases: Sequence[sp.Symbol]) -> sp.Expr:
    """``x`` with each positive base ``b`` written ``e^{β}`` (``β = log b`` real) and every
    power with a non-integer exponent written ``exp(exponent · log(base))``, logs of
    products split: a rewriting valid for positive quantities."""
    x = sp.sympify(x).xreplace({b: sp.exp(sp.Symbol(f"log_{b}", real=True)) for b in bases})
    x = x.replace(
        lambda q: q.is_Pow and not q.exp.is_Integer, lambda q: sp.exp(q.exp * sp.log(q.base))
    )
    return x.replace(lambda q: isinstance(q, sp.log), lambda q: sp.expand_log(q, force=True))


def _canonical_term(t: sp.Expr) -> sp.Expr:
    t = sp.powsimp(t, combine="exp")
    return t.replace(
        lambda q: isinstance(q, sp.exp),
        lambda q: sp.exp(sp.cancel(sp.together(sp.expand(q.args[0])))),
    )


def proved_identity(lhs: Any, rhs: Any, bases: Sequence[sp.Symbol]) -> bool:
    """Prove ``lhs == rhs`` for every positive value of the symbols (``False``: no proof).

    Both sides are rewritten in exponential form (:func:`_exp_log_form`), the difference
    is put over one denominator, each term of the numerator is merged into one
    exponential whose argument is a normalized rational function, and the coefficient of
    every distinct exponential must cancel to 0 — an exact proof (the rewriting is valid
    for positive quantities).  The algebra of the proofs of Lemmas 14 and 15 has powers
    ``b^{1/(α-1)}`` with a symbolic order, where the exponent is not linear in the
    parameters and :func:`verifier.checks.boxes.identically_zero` has no proof."""
    d = _exp_log_form(lhs, bases) - _exp_log_form(rhs, bases)
    num, _ = sp.fraction(sp.together(d))
    num = sp.expand(num, power_exp=False, log=False)
    total = sp.expand(
        sp.Add(*[_canonical_term(t) for t in sp.Add.make_args(num)]), power_exp=False, log=False
    )
    if total == 0:
        return True
    atoms = sorted(total.atoms(sp.exp), key=str)
    groups = sp.collect(total, atoms, evaluate=False)
    return all(sp.cancel(c) == 0 for c in groups.values())


def decide_chain(title: str, steps: Sequence[Step], bases: Sequence[sp.Symbol] = ()) -> CheckResult:
    """:func:`decide_steps` with the ``==`` steps first tried by :func:`proved_identity`
    (positive ``bases``): a proof is an identity for every value, as the engine's own."""
    from verifier.arithmetic.exact import Verdict
    from verifier.checks.results import conjunction
    from verifier.claims.steps import decide_step

    results = []
    for st in steps:
        if st.relation == "==" and bases and proved_identity(st.lhs, st.rhs, bases):
            syms = sorted(str(v) for v in (sp.sympify(st.lhs) - sp.sympify(st.rhs)).free_symbols)
            results.append(
                CheckResult(
                    f"{st.label}: {st.lhs} == {st.rhs}",
                    Verdict.HOLDS,
                    notes=[f"identity proved exactly (exponential form): {st.label}"]
                    + ([st.note] if st.note else []),
                    identity_in=tuple(syms),
                )
            )
        else:
            results.append(decide_step(st))
    out = conjunction(title, results)
    bad = [st for st, r in zip(steps, results, strict=True) if r.verdict is Verdict.VIOLATED]
    if bad:
        out.notes.insert(0, f"first failing step: {bad[0].label!r}")
    return out


def _register(
    cid: str,
    source: str,
    statement: str,
    build: Callable[[], Sequence[Step]],
    *,
    instances: str,
    kind: str = "proof-step",
    expected: str = "holds",
    notes: str = "",
    search: Any = None,
    aliases: Sequence[str] = (),
    check: Callable[[], CheckResult] | None = None,
    bases: Sequence[sp.Symbol] = (),
) -> None:
    """Register one displayed step (or chain of steps) as a claim decided by
    :func:`decide_steps` on the table ``build()`` (:func:`decide_chain` when the
    identities have powers with symbolic exponents of the positive ``bases``)."""

    def run() -> CheckResult:
        if bases:
            return decide_chain(statement, build(), bases)
        return decide_steps(statement, build())

    claim(
        id=cid,
        source=f"{SRC}, {source}",
        statement=statement,
        expected=expected,  # type: ignore[arg-type]
        kind=kind,  # type: ignore[arg-type]
        instances=instances,
        notes=notes,
        search=search,
        aliases=tuple(aliases),
    )(check or run)


# ===========================================================================
# Theorem 8 (Algorithm 1), §3.1: the factor bounds, for every integer argument
# ===========================================================================


def _eq3_first() -> list[Step]:
    """Eq. (3), first inequality: ``Geom_x(u) <= x^{-(1+Δ)} Geom_x(u+1+Δ)`` with
    ``u = o+k-f_i(D)`` and ``Δ = f_i(D) - f_i(D') ∈ {-1, 0, 1}`` (``Δ(f_i) <= 1``)."""
    out = []
    for d in (-1, 0, 1):
        e = 1 + d  # the exponent 1 - f_i(D') + f_i(D)
        out.append(
            Step(
                f"Δ = {d}, u >= 0 (T = x^u)",
                (1 - XI) * TU,
                XI ** (-e) * (1 - XI) * TU * XI**e,
                domain={XI: XPOS, TU: UNIT},
                note="Eq. (1) with equality: both sides are (1-x) x^u",
            )
        )
        g = sp.Symbol("G", nonnegative=True)
        out.append(
            Step(
                f"Δ = {d}, every u <= -1: Geom_x(u) = 0 <= x^-(1+Δ) G, G = Geom_x(u+1+Δ) >= 0",
                _geom(XI, -1),
                XI ** (-e) * g,
                domain={XI: XPOS, g: UNIT},
            )
        )
    return out


def _eq3_second() -> list[Step]:
    """Eq. (3), second inequality: ``x^{-(1+Δ)} G <= x^{-2} G`` for ``G >= 0``."""
    g = sp.Symbol("G", nonnegative=True)
    return [
        Step(f"Δ = {d}", XI ** (-(1 + d)) * g, XI ** (-2) * g, domain={XI: XPOS, g: UNIT})
        for d in (-1, 0, 1)
    ]


def _prefix() -> list[Step]:
    """``Geom_y(<m) <= Geom_y(<m+1+Δ_j)``, ``m = k - f_j(D)``."""
    out = []
    for d in (-1, 0, 1):
        out.append(
            Step(
                f"Δ_j = {d}, m >= 1 (y^m = y S)",
                1 - XJ * TU,
                1 - XJ * TU * XJ ** (1 + d),
                domain={XJ: UNIT, TU: UNIT},
            )
        )
        g = sp.Symbol("G", nonnegative=True)
        out.append(
            Step(
                f"Δ_j = {d}, every m <= 0: Geom_y(<m) = 0 <= G = Geom_y(<m+1+Δ_j)",
                _geom_below(XJ, 0),
                g,
                domain={g: UNIT},
            )
        )
    return out


def _geom_shift() -> list[Step]:
    """``Geom_p(k) <= e^{ε'} Geom_p(k+1)`` (Eq. (1))."""
    return [
        Step(
            "k >= 0 (P = p'^k)",
            (1 - PP) * PK,
            PP ** (-1) * (1 - PP) * PK * PP,
            domain={PP: XPOS, PK: UNIT},
            note="an equality for k >= 0",
        ),
        Step(
            "every k <= -1: Geom(k) = 0 <= e^eps' G, G = Geom(k+1) >= 0",
            _geom(PP, -1),
            PP ** (-1) * sp.Symbol("G", nonnegative=True),
            domain={PP: XPOS, sp.Symbol("G", nonnegative=True): UNIT},
        ),
    ]


_register(
    "ghazi2025.thm8.step.eq3_first",
    "§3.1, proof of Theorem 8, Eq. (3), first inequality",
    "Geom_x(o+k-f_i(D)) <= e^(eps_i (1 - f_i(D') + f_i(D))) Geom_x(o+k+1-f_i(D')) for every "
    "integer argument and x = e^-eps_i in [1/1000, 1] (Eq. (1) with u <= v, as Δ(f_i) <= 1)",
    _eq3_first,
    instances="every f_i(D) - f_i(D') in {-1, 0, 1} and every integer u = o+k-f_i(D): u >= 0 "
    "with T = x^u in [0, 1]; u <= -1 with the right side's Geom value G in [0, 1]",
)
_register(
    "ghazi2025.thm8.step.eq3_second",
    "§3.1, proof of Theorem 8, Eq. (3), second inequality",
    "e^(eps_i (1 - f_i(D') + f_i(D))) G <= e^(2 eps_i) G for G >= 0 (Δ(f_i) <= 1 again)",
    _eq3_second,
    instances="f_i(D) - f_i(D') in {-1, 0, 1}, x = e^-eps_i in [1/1000, 1], G in [0, 1]",
)
_register(
    "ghazi2025.thm8.step.prefix",
    "§3.1, proof of Theorem 8, the line after Eq. (3)",
    "Δ(f_j) <= 1 implies Geom_y(<k - f_j(D)) <= Geom_y(<k+1-f_j(D')) for every integer k",
    _prefix,
    instances="f_j(D) - f_j(D') in {-1, 0, 1}, y = e^-eps_j in [0, 1], m = k - f_j(D) >= 1 "
    "with S = y^(m-1) in [0, 1]; m <= 0 with the right side G in [0, 1]",
)
_register(
    "ghazi2025.thm8.step.geom_shift",
    "§3.1, proof of Theorem 8, the line after Eq. (3) (Eq. (1) applied)",
    "Geom_(e^-eps')(k) <= e^(eps') Geom_(e^-eps')(k+1) for every integer k, with equality for "
    "k >= 0",
    _geom_shift,
    instances="p' = e^-eps' in [1/1000, 1]; k >= 0 with P = p'^k in [0, 1]; k <= -1 with "
    "G = Geom(k+1) in [0, 1]",
)


# ---------------------------------------------------------------------------
# Theorem 8, the sums: Algorithm 1's closed forms against the series of the proof
# ---------------------------------------------------------------------------

#: Sensitivity-1 tables (two functions): label, graph, table.
T8_TABLES: list[tuple[str, Any, dict[Any, list[int]]]] = [
    ("f_1 = (1, 0), f_2 = (0, 1) on a pair", pair(), {"D": [1, 0], "D'": [0, 1]}),
    (
        "counts on add/remove {a, b}",
        add_remove("ab"),
        {D: [len(D & {"a"}), len(D) - 1] for D in add_remove("ab").nodes},
    ),
]


def _alg1_series(f: Sequence[int], i: int | None, o: int, sp_: int, sr: int) -> sp.Expr:
    """``Σ_{k>=0} Geom_p'(k+sp_) Geom_{x_i}(o+k+sr-f_i) Π_{j<i} Geom_{x_j}(<k+sr-f_j)``
    (``i`` 0-based; ``i = None``: ``⊥``, the product over every ``j``), the series of the
    proof of Theorem 8, summed independently of the library: the first terms one by
    one, then, once every factor is in its regular form, the product expanded over
    subsets into geometric series."""
    xs = [sp.exp(-E1), sp.exp(-E2)]
    p = sp.exp(-EP)
    js = list(range(i)) if i is not None else list(range(len(f)))
    k0 = max([0] + ([f[i] - o - sr] if i is not None else []) + [f[j] + 1 - sr for j in js])

    def term(k: int) -> Any:
        t = _geom(p, k + sp_)
        if i is not None:
            t *= _geom(xs[i], o + k + sr - f[i])
        for j in js:
            t *= _geom_below(xs[j], k + sr - f[j])
        return t

    total = sp.Add(*[term(k) for k in range(k0)])
    lead = (1 - p) * p**sp_
    base = p
    if i is not None:
        lead *= (1 - xs[i]) * xs[i] ** (o + sr - f[i])
        base *= xs[i]
    for r in range(len(js) + 1):
        for T in itertools.combinations(js, r):
            c = lead * (-1) ** r * sp.Mul(*[xs[j] ** (sr - f[j]) for j in T])
            ratio = base * sp.Mul(*[xs[j] for j in T])
            total += c * ratio**k0 / (1 - ratio)
    return total


def _alg1_cells() -> Iterator[tuple[str, Any, Any, Any, int | None, int, Any]]:
    """``(label, A, D, D', i, o, table)`` for every ordered pair of neighbours and every
    explicit output (``i = None``: ``⊥``) of Algorithm 1 on the tables, budgets symbolic."""
    for label, g, table in T8_TABLES:
        A = above_threshold(g, table, [E1, E2], EP, explicit=1, name=f"Alg1[{label}]")
        outs: list[tuple[int | None, int]] = [(None, 0)]
        outs += [
            (o[1] - 1, o[0])  # type: ignore[index]
            for o in A.outputs
            if o != BOTTOM and len(o) == 2  # type: ignore[arg-type]
        ]
        for D, Dp in A.ordered_pairs():
            for i, o in outs:
                yield label, A, D, Dp, i, o, table


def _prob(A: Any, D: Any, i: int | None, o: int) -> sp.Expr:
    return A.p(D, BOTTOM if i is None else (o, i + 1))


def _name(table: str, D: Any, Dp: Any, i: int | None, o: int) -> str:
    out = "⊥" if i is None else f"({o}, {i + 1})"
    # datasets as sorted text: a frozenset's repr follows the process's string hashes
    return f"{table}: {out}, {text_of(D)} -> {text_of(Dp)}"


def _shift_factor(i: int | None) -> sp.Expr:
    """``e^{2ε_i + ε'}`` (``e^{ε'}`` for ``⊥``)."""
    return sp.exp(EP) * (1 if i is None else sp.exp(2 * (E1, E2)[i]))


def _thm8_sums(which: str) -> list[Step]:
    out = []
    seen_identity: set[tuple[str, Any, int | None, int]] = set()
    for label, A, D, Dp, i, o, f in _alg1_cells():
        if which.startswith("bottom") != (i is None):
            continue
        if label != T8_TABLES[0][0] and which not in ("eq2", "bottom_closed_form"):
            continue
        c = _shift_factor(i)
        # the k = 0 summand of Eq. (2) (or of the ⊥ display) at D'
        h0 = _alg1_series(f[Dp], i, o, 0, 0) - _alg1_series(f[Dp], i, o, 1, 1)
        at = _name(label, D, Dp, i, o)
        if which in ("eq2", "bottom_closed_form"):
            key = (label, D, i, o)
            if key in seen_identity:
                continue
            seen_identity.add(key)
            out.append(
                Step(at, _prob(A, D, i, o), _alg1_series(f[D], i, o, 0, 0), "==", domain=BUDGETS)
            )
        elif which == "chain_first":
            out.append(
                Step(at, _prob(A, D, i, o), c * _alg1_series(f[Dp], i, o, 1, 1), domain=BUDGETS)
            )
        elif which == "chain_equal":
            out.append(
                Step(
                    at,
                    c * _alg1_series(f[Dp], i, o, 1, 1),
                    c * (_prob(A, Dp, i, o) - h0),
                    "==",
                    domain=BUDGETS,
                )
            )
        elif which == "chain_last":
            out.append(
                Step(at, c * (_prob(A, Dp, i, o) - h0), c * _prob(A, Dp, i, o), domain=BUDGETS)
            )
        elif which == "bottom_first":
            out.append(Step(at, _prob(A, D, i, o), _alg1_series(f[Dp], i, o, 0, 1), domain=BUDGETS))
        elif which == "bottom_second":
            out.append(
                Step(
                    at,
                    _alg1_series(f[Dp], i, o, 0, 1),
                    c * _alg1_series(f[Dp], i, o, 1, 1),
                    domain=BUDGETS,
                )
            )
        elif which == "bottom_equal":
            out.append(
                Step(
                    at,
                    c * _alg1_series(f[Dp], i, o, 1, 1),
                    c * (_prob(A, Dp, i, o) - h0),
                    "==",
                    domain=BUDGETS,
                )
            )
        elif which == "bottom_last":
            out.append(
                Step(at, c * (_prob(A, Dp, i, o) - h0), c * _prob(A, Dp, i, o), domain=BUDGETS)
            )
    return out


_T8_TABLES_TEXT = (
    "the table f_1 = (1, 0), f_2 = (0, 1) on a pair (the closed forms also on counts on "
    "add/remove {a, b}); every ordered pair of neighbours and every explicit output; budgets "
    "symbolic"
)
_T8_BOX = "eps_1, eps_2 in [1/100, 3], eps' in [1/100, 1]"

for _sid, _where, _stmt, _kind in (
    (
        "eq2",
        "Eq. (2)",
        "A(o,i) = Σ_k Geom_(e^-eps')(k) Geom_(e^-eps_i)(o+k-f_i(D)) Π_(j<i) Geom_(e^-eps_j)"
        "(<k-f_j(D)): Algorithm 1's closed form equals the series, for every budget",
        "identity",
    ),
    (
        "chain_first",
        "first line of the display after Eq. (3)",
        "A(o,i) <= Σ_k e^(eps') Geom(k+1) e^(2 eps_i) Geom(o+k+1-f_i(D')) Π_(j<i) "
        "Geom(<k+1-f_j(D')) (Eq. (3) and the two lines after it plugged into Eq. (2))",
        "box",
    ),
    (
        "chain_equal",
        "second line (=) of the display after Eq. (3)",
        "Σ_(k>=0) e^(2 eps_i + eps') Geom(k+1) Geom(o+k+1-f_i(D')) Π Geom(<k+1-f_j(D')) = "
        "e^(2 eps_i + eps') (A'(o,i) - the k = 0 summand of Eq. (2) at D') (the index shift)",
        "identity",
    ),
    (
        "chain_last",
        "last line of the display after Eq. (3)",
        "e^(2 eps_i + eps') (A'(o,i) - its k = 0 summand) <= e^(2 eps_i + eps') A'(o,i)",
        "box",
    ),
    (
        "bottom_closed_form",
        "first line (=) of the display for ⊥",
        "A(⊥) = Σ_k Geom(k) Π_(j in [d]) Geom(<k-f_j(D)): Algorithm 1's Pr[⊥] equals the series",
        "identity",
    ),
    (
        "bottom_first",
        "second line (first <=) of the display for ⊥",
        "Σ_k Geom(k) Π_j Geom(<k-f_j(D)) <= Σ_k Geom(k) Π_j Geom(<k+1-f_j(D')) (Δ(f) <= 1)",
        "box",
    ),
    (
        "bottom_second",
        "third line (second <=) of the display for ⊥",
        "Σ_k Geom(k) Π_j Geom(<k+1-f_j(D')) <= Σ_k e^(eps') Geom(k+1) Π_j Geom(<k+1-f_j(D')) "
        "(Eq. (1))",
        "box",
    ),
    (
        "bottom_equal",
        "fourth line (=) of the display for ⊥",
        "Σ_k e^(eps') Geom(k+1) Π_j Geom(<k+1-f_j(D')) = e^(eps') (A'(⊥) - its k = 0 summand)",
        "identity",
    ),
    (
        "bottom_last",
        "last line of the display for ⊥",
        "e^(eps') (A'(⊥) - its k = 0 summand) <= e^(eps') A'(⊥)",
        "box",
    ),
):
    _register(
        f"ghazi2025.thm8.step.{_sid}",
        f"§3.1, proof of Theorem 8, {_where}",
        _stmt,
        functools.partial(_thm8_sums, _sid),
        instances=_T8_TABLES_TEXT
        + (
            ": an identity in the budgets, proved for every value"
            if _kind == "identity"
            else f": decided for every point of the box {_T8_BOX}"
        ),
        notes="the series of the proof is summed independently of the library (the first "
        "terms one by one, then geometric series once every factor is regular)",
    )


# ===========================================================================
# Theorems 10 and 11 (Algorithms 2 and 3, geometric prior), §3.2 and §4.1
# ===========================================================================


def _sym_binary(j: int) -> FiniteMechanism:
    """A general mechanism on ``{0, 1}`` with symbolic probabilities of 1: ``a_j`` at
    ``D``, ``b_j`` at ``D'`` (every binary mechanism at once; nonnegative, so the end 0 of a
    box is a probability the symbols allow)."""
    a, b = sp.symbols(f"a_{j} b_{j}", nonnegative=True)
    return FiniteMechanism(
        pair(),
        {"D": {0: 1 - a, 1: a}, "D'": {0: 1 - b, 1: b}},
        [0, 1],
        name=f"M_{j}",
        validate=False,
    )


def _sym_ternary(j: int) -> FiniteMechanism:
    """A general mechanism on ``{0, 1, 2}`` with symbolic (nonnegative) probabilities."""
    u, v, w, z = sp.symbols(f"u_{j} v_{j} w_{j} z_{j}", nonnegative=True)
    return FiniteMechanism(
        pair(),
        {"D": {0: 1 - u - v, 1: u, 2: v}, "D'": {0: 1 - w - z, 1: w, 2: z}},
        [0, 1, 2],
        name=f"M_{j}",
        validate=False,
    )


def _q_at_least(m: FiniteMechanism, D: Any, o: int) -> sp.Expr:
    return sp.Add(*[m.p(D, v) for v in m.outputs if v >= o])  # type: ignore[operator]


def _q_upper(m: FiniteMechanism, j: int, i: int, D: Any, o: int) -> sp.Expr:
    """``Q_j(U^j_{o,i})``, ``U^j_{o,i} = {o' : (o', j) > (o, i)}`` (proof of Theorem 11)."""
    above = sp.Add(*[m.p(D, v) for v in m.outputs if v > o])  # type: ignore[operator]
    return above + (m.p(D, o) if j > i else 0)


def _moment_geom(c: sp.Expr) -> sp.Expr:
    """``E_{k ~ Geom_p'}[e^{-ck}] = (1-p')/(1 - p' e^{-c})``."""
    p = sp.exp(-EP)
    return (1 - p) / (1 - p * sp.exp(-c))


def _moment_exp(c: sp.Expr) -> sp.Expr:
    """``E_{x ~ Exp_ε'}[e^{-cx}] = ε'/(ε' + c)``."""
    return EP / (EP + c)


def _expect(
    moment: Callable[[sp.Expr], sp.Expr], c0: sp.Expr, factors: Sequence[tuple[sp.Expr, sp.Expr]]
) -> sp.Expr:
    """``E[e^{-c_0 k} Π_j (1 - e^{-ε_j k} s_j)]`` with the product expanded over subsets."""
    total = sp.Integer(0)
    for r in range(len(factors) + 1):
        for T in itertools.combinations(factors, r):
            c = c0 + sp.Add(*[e for e, _ in T])
            total += (-1) ** r * sp.Mul(*[s for _, s in T]) * moment(c)
    return total


_EPS3 = sp.symbols("eps_1:4", positive=True)


def _thm10_closed() -> list[Step]:
    """Algorithm 2 (``τ = 1``) on three general binary mechanisms, budgets and
    probabilities symbolic, against the proof's closed forms."""
    mechs = [_sym_binary(j) for j in (1, 2, 3)]
    eps = list(_EPS3)
    A = generalized_above_threshold(mechs, eps, EP, 1, name="Alg2[M_1, M_2, M_3]")
    out = []
    for D in ("D", "D'"):
        s = [_q_at_least(m, D, 1) for m in mechs]
        out.append(
            _identity(
                f"A_{D}(⊥)",
                A.p(D, BOTTOM),
                _expect(_moment_geom, sp.Integer(0), list(zip(eps, s, strict=True))),
            )
        )
        for i in range(3):
            rhs = mechs[i].p(D, 1) * _expect(
                _moment_geom, eps[i], list(zip(eps[:i], s[:i], strict=True))
            )
            out.append(_identity(f"A_{D}(1, {i + 1})", A.p(D, (1, i + 1)), rhs))
    return out


def _thm11_closed(prior: str) -> list[Step]:
    """Algorithm 3 on two general three-output mechanisms, against
    ``A(o,i) = Q_i(o) E[e^{-ε_i k} Π_{j≠i}(1 - e^{-ε_j k} Q_j(U^j_{o,i}))]``."""
    mechs = [_sym_ternary(j) for j in (1, 2)]
    eps = list(_EPS3[:2])
    moment = _moment_geom if prior == "geometric" else _moment_exp
    A = hyperparameter_tuning(mechs, eps, EP, prior=prior, method="subsets", name=f"Alg3[{prior}]")
    out = []
    for D in ("D", "D'"):
        for i in range(2):
            for o in (0, 1, 2):
                fac = [(eps[j], _q_upper(mechs[j], j, i, D, o)) for j in range(2) if j != i]
                rhs = mechs[i].p(D, o) * _expect(moment, eps[i], fac)
                out.append(_identity(f"A_{D}({o}, {i + 1})", A.p(D, (o, i + 1)), rhs))
    return out


def _bottom_data_free(prior: str) -> list[Step]:
    mechs = [_sym_ternary(j) for j in (1, 2)]
    A = hyperparameter_tuning(mechs, list(_EPS3[:2]), EP, prior=prior, method="subsets")
    return [_identity("A_D(⊥) = A_D'(⊥)", A.p("D", BOTTOM), A.p("D'", BOTTOM))]


def _dp_bounds() -> list[Step]:
    """``M_j`` ε_j-DP on every output gives the bound on an event (two outputs), and
    ``Q_i(o) <= e^{ε_i} Q'_i(o)`` at one output."""
    q1, q2, r1, r2 = sp.symbols("q_1 q_2 r_1 r_2", nonnegative=True)
    lo1 = XJ * q1 + r1 * (1 - XJ * q1)
    lo2 = XJ * q2 + r2 * (1 - XJ * q2)
    return [
        Step(
            "Q_j(S) >= e^-eps_j Q'_j(S), S two outputs, each Q_j(o) >= e^-eps_j Q'_j(o)",
            XJ * (q1 + q2),
            lo1 + lo2,
            domain={XJ: UNIT, q1: UNIT, q2: UNIT, r1: UNIT, r2: UNIT},
            note="Q_j(o) = x_j q_o + r_o (1 - x_j q_o), r_o in [0, 1]: exactly what eps_j-DP allows",
        ),
        Step(
            "Q_i(o) <= e^eps_i Q'_i(o)",
            SI * QI / XI,
            QI / XI,
            domain={SI: UNIT, QI: UNIT, XI: XPOS},
            note="Q_i(o) = s Q'_i(o)/x_i, s in [0, 1]",
        ),
    ]


def _lower(x: sp.Expr, q: sp.Expr, r: sp.Expr) -> sp.Expr:
    """``Q_j(U) = x q + r (1 - x q)``: every value ``M_j`` ε_j-DP allows."""
    return x * q + r * (1 - x * q)


def _chain_first() -> list[Step]:
    """The first inequality of the chain, termwise in ``k >= 0``: ``Geom(k) e^{-ε_i k}
    Q_i(o) (1 - e^{-ε_j k} Q_j(U)) <= e^{ε'} Geom(k+1) e^{-ε_i k} e^{ε_i} Q'_i(o)
    (1 - e^{-ε_j k} e^{-ε_j} Q'_j(U))`` (one factor ``j``; the product over several ``j``
    multiplies nonnegative factors, each bounded by its counterpart)."""
    return [
        Step(
            "Geom(k) = e^eps' Geom(k+1) for k >= 0",
            (1 - PP) * PK,
            PP ** (-1) * (1 - PP) * PK * PP,
            "==",
            domain={PP: XPOS, PK: UNIT},
        ),
        Step(
            "Q_i(o) (1 - e^(-eps_j k) Q_j(U)) <= e^eps_i Q'_i(o) (1 - e^(-eps_j k) e^-eps_j Q'_j(U))",
            SI * (1 - KJ * _lower(XJ, QJ, RJ)),
            1 - KJ * XJ * QJ,
            domain={SI: UNIT, KJ: UNIT, XJ: UNIT, QJ: UNIT, RJ: UNIT},
            note="the common factor Geom(k) e^(-eps_i k) e^(eps_i) Q'_i(o) >= 0 cancelled; "
            "Q_i(o) = s Q'_i(o)/x_i and Q_j(U) = x_j q_j + r_j (1 - x_j q_j) range over "
            "everything the DP premises allow; K_j = e^(-eps_j k)",
        ),
    ]


def _chain_equal() -> list[Step]:
    """The second line: the summand rewritten with ``k+1`` (termwise, an identity)."""
    lhs = PP ** (-1) * (1 - PP) * PK * PP * SI * (QI / XI) * (1 - KJ * XJ * QJ)
    rhs = PP ** (-1) * XI ** (-2) * (1 - PP) * PK * PP * (SI * XI) * QI * (1 - (KJ * XJ) * QJ)
    box = {PP: XPOS, PK: UNIT, SI: UNIT, QI: UNIT, XI: XPOS, KJ: UNIT, XJ: UNIT, QJ: UNIT}
    return [
        Step(
            "e^eps' Geom(k+1) e^(-eps_i k) e^eps_i Q'_i(o) (1 - e^(-eps_j k) e^-eps_j Q'_j) = "
            "e^(2 eps_i + eps') Geom(k+1) e^(-eps_i (k+1)) Q'_i(o) (1 - e^(-eps_j (k+1)) Q'_j)",
            lhs,
            rhs,
            "==",
            domain=box,
            note="s = e^(-eps_i k) here",
        )
    ]


def _chain_last() -> list[Step]:
    """The last line drops the ``k = 0`` summand of ``A'(o, i)``: it is nonnegative."""
    return [
        Step(
            "the k = 0 summand Geom(0) Q'_i(o) Π_j (1 - Q'_j(U)) >= 0 (one factor j; each "
            "further factor is in [0, 1])",
            0,
            (1 - P0) * QI * (1 - QJ),
            domain={P0: UNIT, QI: UNIT, QJ: UNIT},
        )
    ]


def _thm10_bottom() -> list[Step]:
    s, r = sp.symbols("s_j r", nonnegative=True)
    return [
        Step(
            "first <=, termwise (Geom(k) = e^eps' Geom(k+1) cancelled): 1 - e^(-eps_j k) Q_j "
            "<= 1 - e^(-eps_j k) e^-eps_j Q'_j",
            1 - KJ * _lower(XJ, s, r),
            1 - KJ * XJ * s,
            domain={KJ: UNIT, XJ: UNIT, s: UNIT, r: UNIT},
            note="one factor j; the product over j multiplies nonnegative factors, each bounded "
            "by its counterpart",
        ),
        Step(
            "=, termwise",
            PP ** (-1) * (1 - PP) * PK * PP * (1 - KJ * XJ * s),
            PP ** (-1) * (1 - PP) * PK * PP * (1 - (KJ * XJ) * s),
            "==",
            domain={PP: XPOS, PK: UNIT, KJ: UNIT, XJ: UNIT, s: UNIT},
        ),
        Step(
            "last <=: the k = 0 summand Geom(0) Π_j (1 - Q'_j) of A'(⊥) is nonnegative",
            0,
            (1 - P0) * (1 - s),
            domain={P0: UNIT, s: UNIT},
        ),
    ]


def _const_at_tau() -> FiniteMechanism:
    """A mechanism that always outputs 1 (0-DP, hence ε-DP for every budget)."""
    one = {0: sp.Integer(0), 1: sp.Integer(1)}
    return FiniteMechanism(pair(), {"D": dict(one), "D'": dict(one)}, [0, 1], name="const@1")


def _alg2_printed(i: int) -> list[Step]:
    """The first line of Theorem 10's chain as printed (``Π_{j≠i}``) on ``RR(ε_1)``
    (favouring ``D``) followed by a mechanism always at ``τ = 1`` (budget ``ε_2``), at the
    output ``(1, i+1)`` and the pair ``D -> D'``, over the box of budgets: ``A(1, i) <=
    e^{2ε_i + ε'} Q'_i(1) Σ_{m>=1} Geom(m) x_i^m Π_{j≠i}(1 - x_j^m Q'_j(O_{>=τ}))``."""
    from verifier.mechanism.instances import randomized_response

    mechs = [randomized_response(E1), _const_at_tau()]
    eps = [E1, E2]
    A = generalized_above_threshold(mechs, eps, EP, 1, name="Alg2[RR(eps_1), const]")
    others = [(eps[j], _q_at_least(mechs[j], "D'", 1)) for j in range(2) if j != i]
    series = _expect(_moment_geom, eps[i], others)
    k0 = (1 - sp.exp(-EP)) * sp.Mul(*[1 - s for _, s in others])  # the m = 0 summand
    rhs = sp.exp(2 * eps[i] + EP) * mechs[i].p("D'", 1) * (series - k0)
    return [
        Step(
            f"output (1, {i + 1}), D -> D'",
            A.p("D", (1, i + 1)),
            rhs,
            domain=BUDGETS,
            note="the right side in closed form: Q'_i(1) Σ_(m>=1) Geom(m) x_i^m Π_(j≠i)(1 - x_j^m "
            "Q'_j), times e^(2 eps_i + eps')",
        )
    ]


_SEL_BOX = (
    "for every value in a box: e^-eps in [0, 1] (or [1/1000, 1] where divided by), every "
    "probability in [0, 1], Q_j(U) = x_j Q'_j(U) + r (1 - x_j Q'_j(U)) and Q_i(o) = s Q'_i(o)/x_i "
    "(r, s in [0, 1]: everything the DP premises allow), K = e^(-eps k) in [0, 1] (every k)"
)

_register(
    "ghazi2025.thm10.step.closed_form",
    "§3.2, proof of Theorem 10, the display for A(o,i) (=) and the one for A(⊥)",
    "A(o,i) = Σ_k Geom(k) e^(-eps_i k) Q_i(o) Π_(j<i)(1 - e^(-eps_j k) Q_j(O_(>=tau))) and "
    "A(⊥) = Σ_k Geom(k) Π_j (1 - e^(-eps_j k) Q_j(O_(>=tau))): Algorithm 2's probabilities equal "
    "these closed forms",
    _thm10_closed,
    instances="Algorithm 2 (tau = 1) on three general binary mechanisms: budgets and "
    "probabilities symbolic, an identity proved for every value",
)
_register(
    "ghazi2025.thm10.step.dp_bounds",
    "§3.2, proof of Theorem 10, the line before the chain",
    "M_j eps_j-DP gives Q_j(O_(>=tau)) >= e^(-eps_j) Q'_j(O_(>=tau)), and Q_i(o) <= e^(eps_i) Q'_i(o)",
    _dp_bounds,
    instances=_SEL_BOX,
)
_register(
    "ghazi2025.thm10.step.chain_first",
    "§3.2, proof of Theorem 10, first line of the chain (with Π_(j<i))",
    "A(o,i) <= Σ_k e^(eps') Geom(k+1) e^(-eps_i k) e^(eps_i) Q'_i(o) Π_(j<i)(1 - e^(-eps_j k) "
    "e^(-eps_j) Q'_j(O_(>=tau))), termwise for every k >= 0 (summing preserves it)",
    _chain_first,
    instances=_SEL_BOX + "; one earlier mechanism j < i (each further factor j is the same "
    "inequality)",
)
_register(
    "ghazi2025.thm10.step.chain_equal",
    "§3.2, proof of Theorem 10, second line (=) of the chain",
    "the summand equals e^(2 eps_i + eps') Geom(k+1) e^(-eps_i(k+1)) Q'_i(o) Π_(j<i)"
    "(1 - e^(-eps_j(k+1)) Q'_j(O_(>=tau))), termwise for every k",
    _chain_equal,
    instances=_SEL_BOX,
)
_register(
    "ghazi2025.thm10.step.chain_last",
    "§3.2, proof of Theorem 10, last line of the chain",
    "e^(2 eps_i + eps') Σ_k Geom(k+1) e^(-eps_i(k+1)) Q'_i(o) Π_(j<i)(...) <= e^(2 eps_i + eps') "
    "A'(o,i): the dropped k = 0 summand of A'(o,i) is nonnegative",
    _chain_last,
    instances=_SEL_BOX,
)
_register(
    "ghazi2025.thm10.step.bottom_chain",
    "§3.2, proof of Theorem 10, the display for ⊥",
    "A(⊥) <= Σ_k e^(eps') Geom(k+1) Π_j (1 - e^(-eps_j k) e^(-eps_j) Q'_j(O_(>=tau))) = "
    "e^(eps') Σ_k Geom(k+1) Π_j (1 - e^(-eps_j(k+1)) Q'_j(O_(>=tau))) <= e^(eps') A'(⊥), termwise "
    "for every k",
    _thm10_bottom,
    instances=_SEL_BOX + "; one mechanism per factor",
)
_register(
    "ghazi2025.thm10.step.chain_first_as_printed",
    "§3.2, proof of Theorem 10, first line of the chain (as printed, Π_(j≠i))",
    "A(o,i) <= Σ_k e^(eps') Geom(k+1) e^(-eps_i k) e^(eps_i) Q'_i(o) Π_(j≠i)(1 - e^(-eps_j k) "
    "e^(-eps_j) Q'_j(O_(>=tau))) (refuted: RR(eps_1) then a mechanism always at tau, at (1, 1), "
    "on a region of the budgets)",
    lambda: _alg2_printed(0),
    kind="finding",
    expected="refuted",
    instances=f"RR(eps_1) favouring D, then a mechanism always at tau = 1 (0-DP, budget eps_2); "
    f"output (1, 1), D -> D'; the box {_T8_BOX}",
    notes="The product over j ≠ i includes the mechanisms after i, which Algorithm 2 never "
    "reaches when it outputs (o, i); their factors are at most 1 and only shrink the right "
    "side.  Fails where the later mechanism's budget is small (it passes tau often on D'); "
    "holds for the last mechanism (ghazi2025.thm10.step.chain_first_as_printed_at_last_index).  "
    "With j < i the line holds (ghazi2025.thm10.step.chain_first) and Theorem 10 holds.",
)
_register(
    "ghazi2025.thm10.step.chain_first_as_printed_at_last_index",
    "§3.2, proof of Theorem 10, first line of the chain (as printed, Π_(j≠i)), at i = d",
    "the printed first line holds for the last mechanism i = d (where j ≠ i and j < i agree), "
    "on the instance refuting it at i = 1, for every budget in the box",
    lambda: _alg2_printed(1),
    kind="finding",
    instances=f"RR(eps_1), then a mechanism always at tau = 1; output (1, 2), D -> D'; the box "
    f"{_T8_BOX}",
)

_register(
    "ghazi2025.thm11.step.bottom_data_free",
    "§4.1, proof of Theorem 11, first line of the proof",
    "the probability that Algorithm 3 outputs ⊥ does not depend on the data: A(⊥) = A'(⊥)",
    lambda: _bottom_data_free("geometric"),
    instances="two general three-output mechanisms, budgets and probabilities symbolic: an "
    "identity for every value",
)
_register(
    "ghazi2025.thm11.step.closed_form",
    "§4.1, proof of Theorem 11, first line (=) of the display",
    "A(o,i) = Σ_k Geom(k) e^(-eps_i k) Q_i(o) Π_(j≠i)(1 - e^(-eps_j k) Q_j(U^j_(o,i))), "
    "U^j_(o,i) = {o' : (o', j) > (o, i)}: Algorithm 3's probabilities equal the closed form",
    lambda: _thm11_closed("geometric"),
    instances="Algorithm 3 (Geom prior) on two general three-output mechanisms, budgets and "
    "probabilities symbolic: an identity for every value",
)
_register(
    "ghazi2025.thm11.step.dp_bounds",
    "§4.1, proof of Theorem 11, the lines before the display",
    "M_j eps_j-DP gives Q_j(U^j_(o,i)) >= e^(-eps_j) Q'_j(U^j_(o,i)), and Q_i(o) <= e^(eps_i) Q'_i(o)",
    _dp_bounds,
    instances=_SEL_BOX,
)
_register(
    "ghazi2025.thm11.step.chain_first",
    "§4.1, proof of Theorem 11, second line (<=) of the display",
    "A(o,i) <= Σ_k (e^(eps') Geom(k+1)) e^(-eps_i k) (e^(eps_i) Q'_i(o)) Π_(j≠i)(1 - e^(-eps_j k) "
    "(e^(-eps_j) Q'_j(U^j_(o,i)))), termwise for every k >= 0",
    _chain_first,
    instances=_SEL_BOX + "; one other mechanism (each further factor j is the same inequality)",
)
_register(
    "ghazi2025.thm11.step.chain_equal",
    "§4.1, proof of Theorem 11, third line (=) of the display",
    "the summand equals e^(2 eps_i + eps') Geom(k+1) e^(-eps_i(k+1)) Q'_i(o) Π_(j≠i)"
    "(1 - e^(-eps_j(k+1)) Q'_j(U^j_(o,i))), termwise for every k",
    _chain_equal,
    instances=_SEL_BOX,
)
_register(
    "ghazi2025.thm11.step.chain_last",
    "§4.1, proof of Theorem 11, last line of the display",
    "e^(2 eps_i + eps') Σ_k Geom(k+1) e^(-eps_i(k+1)) Q'_i(o) Π_(j≠i)(...) <= e^(2 eps_i + eps') "
    "A'(o,i): the dropped k = 0 summand is nonnegative",
    _chain_last,
    instances=_SEL_BOX,
)


def _final_line_without_eps_prime() -> list[Step]:
    """The last line of the proof of Theorem 11 without the factor ``e^{ε'}``:
    ``A(1, 1) <= e^{2ε_1} A'(1, 1)`` for Algorithm 3 on ``RR(ε_1)`` and a later
    ``RR(ε_2)`` favouring ``D'``, over a box where the competitor's budget is high."""
    from verifier.mechanism.instances import randomized_response

    from .boxes import COMPETITOR

    mechs = [randomized_response(E1), randomized_response(E2, datasets=("D'", "D"))]
    A = hyperparameter_tuning(mechs, [E1, E2], EP, name="Alg3[RR(eps_1), RR(eps_2)]")
    return [
        Step(
            "A(1, 1) <= e^(2 eps_1) A'(1, 1), D -> D'",
            A.p("D", (1, 1)),
            sp.exp(2 * E1) * A.p("D'", (1, 1)),
            domain=COMPETITOR,
        )
    ]


_register(
    "ghazi2025.thm11.final_line_without_eps_prime",
    "§4.1, proof of Theorem 11, last line of the display, without e^(eps') (the reviews' "
    "'final line of the proof of Theorem 8': the submitted Theorem 8 is the published Theorem 11)",
    "the last line of the proof of Theorem 11 with the e^(eps') factor omitted, A(o,i) <= "
    "e^(2 eps_i) A'(o,i) (refuted: RR(eps_1) and a later high-budget RR(eps_2) favouring D' reach "
    "ratios up to e^(2 eps_1 + eps') at (1, 1))",
    _final_line_without_eps_prime,
    kind="finding",
    expected="refuted",
    instances="Algorithm 3 on RR(eps_1) and RR(eps_2) favouring D'; output (1, 1), D -> D'; "
    "eps_1 in [1/2, 1], eps_2 in [4, 6], eps' in [1/2, 1]",
    notes="The reviews (of the submitted version, whose Theorem 8 is the published Theorem 11) "
    "point out that the last line of its proof omits the eps' term; the authors confirmed the "
    "typo and the published line carries e^(2 eps_i + eps') (ghazi2025.thm11.step.chain_last holds, "
    "and Theorem 11 holds over a box, ghazi2025.thm11.box).  The line without e^(eps') is false: "
    "any constant below e^(2 eps_i + eps') fails on the competitor family "
    "(casestudies/ghazi2025/tightness.py).",
    aliases=("ghazi2025.thm8.final_line_without_eps_prime",),
)


# ===========================================================================
# Theorem 12 (utility), §4.1
# ===========================================================================

_BETA = sp.Symbol("beta", positive=True)
#: Nonnegative: each step is defined (a polynomial or exponential expression) at the end 0 of
#: its box, which covers ``e^{-ε k} -> 0``, ``r = ε_i/ε' = 0``, ``κ = 0`` and ``θ -> 0``.
_R, _KAPPA, _THETA, _ALPHA, _W, _Y = sp.symbols("r kappa theta alpha w y", nonnegative=True)


def _thm12_fixed_k() -> list[Step]:
    return [
        Step(
            "1 - e^(-eps k) Pr[M(D) >= o*] <= 1 - e^(-eps k) alpha (the premise Pr >= alpha; "
            "raising both nonnegative sides to the power T keeps it)",
            1 - _Y * (_ALPHA + _W * (1 - _ALPHA)),
            1 - _Y * _ALPHA,
            domain={_Y: UNIT, _ALPHA: UNIT, _W: UNIT},
            note="y = e^(-eps k) in [0, 1]; Pr[M(D) >= o*] = alpha + w (1 - alpha), w in [0, 1]",
        ),
        Step(
            "1 - e^(-eps k) alpha <= exp(-e^(-eps k) alpha) (1 + x <= e^x; then to the power T)",
            1 - _Y * _ALPHA,
            sp.exp(-_Y * _ALPHA),
            domain={_Y: UNIT, _ALPHA: UNIT},
        ),
    ]


def _thm12_choice_of_T() -> list[Step]:
    c = sp.log(2 / _BETA)
    return [
        Step(
            "exp(-e^(-eps_i k) alpha T_i) <= beta/2 for k = kappa ln(2/beta)/eps', kappa in [0, 1]",
            sp.exp(-c * (2 / _BETA) ** (_R * (1 - _KAPPA))),
            _BETA / 2,
            domain={_BETA: (R(1, 10**6), R(999, 1000)), _R: (0, 20), _KAPPA: UNIT},
            note="alpha T_i >= (2/beta)^r ln(2/beta) (r = eps_i/eps'; the ceiling only helps) and "
            "e^(-eps_i k) = (2/beta)^(-r kappa), so the exponent is at least "
            "ln(2/beta) (2/beta)^(r (1 - kappa)); alpha cancels",
        )
    ]


def _thm12_prior_tail() -> list[Step]:
    c = sp.log(2 / _BETA)
    tail = sp.exp(-EP * (c / EP + _THETA))
    return [
        Step(
            "Pr[k > ln(2/beta)/eps'] = e^(-eps'(floor(m) + 1)) = (beta/2) e^(-eps' theta)",
            tail,
            _BETA / 2 * sp.exp(-EP * _THETA),
            "==",
            domain={_BETA: (R(1, 10**6), R(999, 1000)), EP: (R(1, 1000), 10), _THETA: UNIT},
            note="m = ln(2/beta)/eps', floor(m) + 1 = m + theta with theta in (0, 1]; the box "
            "takes theta in [0, 1] (the expression is defined at 0)",
        ),
        Step(
            "beta/2 + (beta/2) e^(-eps' theta) <= beta",
            _BETA / 2 + _BETA / 2 * sp.exp(-EP * _THETA),
            _BETA,
            domain={_BETA: (R(1, 10**6), R(999, 1000)), EP: (R(1, 1000), 10), _THETA: UNIT},
        ),
    ]


_register(
    "ghazi2025.thm12.step.fixed_k",
    "§4.1, proof of Theorem 12, first displayed bound of the proof",
    "for fixed k, every run of M_i* is dropped or below o* with probability "
    "(1 - e^(-eps k) Pr[M(D) >= o*])^T <= (1 - e^(-eps k) alpha)^T <= exp(-e^(-eps k) alpha T) "
    "(the premise Pr[M_i*(D) >= o*] >= alpha, then 1 + x <= e^x)",
    _thm12_fixed_k,
    instances="every e^(-eps k) in [0, 1], alpha in [0, 1], Pr[M(D) >= o*] in [alpha, 1], "
    "every T >= 1 (both bases compared, then raised to T)",
)
_register(
    "ghazi2025.thm12.step.choice_of_T",
    "§4.1, proof of Theorem 12, line 3 of the proof",
    "with T_i = ceil((1/alpha)(2/beta)^(eps_i/eps') ln(2/beta)), exp(-e^(-eps_i k) alpha T_i) <= "
    "beta/2 for every k <= ln(2/beta)/eps'",
    _thm12_choice_of_T,
    instances="beta in [1/10^6, 999/1000], r = eps_i/eps' in [0, 20], k/(ln(2/beta)/eps') in [0, 1]; "
    "every alpha (it cancels)",
)
_register(
    "ghazi2025.thm12.step.prior_tail",
    "§4.1, proof of Theorem 12, last line of the proof",
    "beta/2 + Pr_(k ~ Geom(e^-eps'))[k > ln(2/beta)/eps'] <= beta (Pr[k > m] = e^(-eps'(floor(m)+1)))",
    _thm12_prior_tail,
    instances="beta in [1/10^6, 999/1000], eps' in [1/1000, 10], theta = floor(m) + 1 - m in (0, 1] "
    "(the box takes theta in [0, 1])",
)


# ===========================================================================
# Theorem 13 (ex-post RDP, exponential prior), §4.2
# ===========================================================================

#: Nonnegative: the steps in them are defined at the end 0 of their boxes (``1/(τ+1)``,
#: polynomials), which covers every ``τ = Σ_i τ_i > 0`` and RDP slack ``ρ_i ∈ [0, 1]``.
_TAU, _TAU1, _TAU2, _RHO1, _RHO2 = sp.symbols("tau tau_1 tau_2 rho_1 rho_2", nonnegative=True)
#: ``a = A(⊥)`` where ``a^α a^{1-α}`` is written (undefined at ``a = 0`` for ``α > 1``).
_A = sp.Symbol("a", positive=True)
_L = sp.Symbol("L", positive=True)


def _thm13_eq5() -> list[Step]:
    al = sp.Symbol("alpha", positive=True)
    a0 = sp.Symbol("a", nonnegative=True)
    return [
        *_bottom_data_free("exponential"),
        Step(
            "A(⊥)^alpha A'(⊥)^(1-alpha) = A(⊥) when A(⊥) = A'(⊥) = a > 0",
            _A**al * _A ** (1 - al),
            _A,
            "==",
            domain={_A: (R(1, 10**6), 1), al: (R(101, 100), 100)},
            note="proved for every a > 0 in exponential form (decide_chain, base a); the box "
            "a in [1/10^6, 1] is the engine's fallback only; a = 0 is the next step",
        ),
        Step(
            "A(⊥) = A'(⊥) = 0: the ⊥ term is 0 (a term of the Rényi sum with both "
            "probabilities 0 is 0, the limit a -> 0 of a^alpha a^(1-alpha) = a) and "
            "0 <= 1/(tau+1)",
            0,
            1 / (_TAU + 1),
            domain={_TAU: (0, 100)},
        ),
        Step(
            "e^(-(alpha-1) eps~(⊥)) = 1/(tau+1) for eps~(⊥) = log(tau+1)/(alpha-1)",
            sp.exp(-(al - 1) * (sp.log(_TAU + 1) / (al - 1))),
            1 / (_TAU + 1),
            "==",
            domain={_TAU: (0, 100), al: (R(101, 100), 100)},
        ),
        Step(
            "a/(tau+1) <= 1/(tau+1) (a = A(⊥) <= 1)",
            a0 / (_TAU + 1),
            1 / (_TAU + 1),
            domain={a0: UNIT, _TAU: (0, 100)},
            note="a in [0, 1] (nonnegative: the quotient is defined at 0)",
        ),
    ]


def _thm13_truncate() -> list[Step]:
    qj = sp.Symbol("q_j", nonnegative=True)
    return [
        Step(
            "the integrand on [0, 1 + l_i) is nonnegative: 1 - e^(-eps_j x) Q'_j(U) >= 0",
            0,
            1 - KJ * qj,
            domain={KJ: UNIT, qj: UNIT},
            note="A'(o,i) - ∫_(1+l_i)^∞ = ∫_0^(1+l_i) eps' e^(-eps' x) e^(-eps_i x) Q'_i(o) Π_j "
            "(1 - e^(-eps_j x) Q'_j(U)) dx; the factor eps' e^(-(eps' + eps_i) x) Q'_i(o) >= 0 "
            "cancelled, one factor j (each further factor is the same), K_j = e^(-eps_j x)",
        )
    ]


def _thm13_substitute() -> list[Step]:
    ei, ej, qi, qj = sp.symbols("eps_i eps_j q_i q_j", nonnegative=True)
    lhs = qi * (
        _moment_exp(ei) * sp.exp(-(EP + ei) * _L)
        - qj * _moment_exp(ei + ej) * sp.exp(-(EP + ei + ej) * _L)
    )
    rhs = (
        sp.exp(-_L * (EP + ei))
        * qi
        * (_moment_exp(ei) - sp.exp(-ej * _L) * qj * _moment_exp(ei + ej))
    )
    return [
        Step(
            "∫_L^∞ eps' e^(-eps' x) e^(-eps_i x) Q'_i (1 - e^(-eps_j x) Q'_j) dx = e^(-L(eps' + eps_i)) "
            "Q'_i E_x[e^(-eps_i x)(1 - e^(-eps_j L) e^(-eps_j x) Q'_j)]",
            lhs,
            rhs,
            "==",
            domain={EP: (R(1, 100), 2), ei: (0, 4), ej: (0, 4), _L: (1, 4), qi: UNIT, qj: UNIT},
        )
    ]


def _thm13_plug_in() -> list[Step]:
    ei, x, s = sp.symbols("eps_i x s", nonnegative=True)
    h = sp.Symbol("h", positive=True)
    # the integrand eps' e^(-eps' x) e^(-eps_i x) = eps' e^(-c x), c = eps' + eps_i >= eps' > 0:
    # integrated for a positive rate c (sympy's integral for eps_i >= 0 alone is a Piecewise
    # that divides by eps_i), then c substituted
    c, t = sp.Symbol("c", positive=True), sp.Symbol("t", nonnegative=True)
    tau_i = sp.integrate(EP * sp.exp(-c * t), (t, 0, sp.oo)).subs(c, EP + ei)
    return [
        Step(
            "tau_i = E_(x ~ Exp(eps'))[e^(-eps_i x)] = eps'/(eps' + eps_i)",
            tau_i,
            EP / (EP + ei),
            "==",
            domain={EP: (R(1, 1000), 10), ei: (0, 10)},
            note="∫_0^∞ eps' e^(-(eps' + eps_i) x) dx for the rate c = eps' + eps_i > 0",
        ),
        Step(
            "pointwise in x: e^(-eps_i x) Π_j h_j(x) <= e^(-eps_i x) exp(Σ_j e^(-eps_j(1+alpha l_i))) "
            "where 0 <= Π_j h_j(x) <= exp(Σ_j ...) (the Lemma 15 display); then take E_x",
            sp.exp(-ei * x) * s * h,
            sp.exp(-ei * x) * h,
            domain={ei: (0, 10), x: (0, 10), s: UNIT, h: (1, 10)},
            note="Π_j h_j(x) = s exp(Σ_j e^(-eps_j(1 + alpha l_i))), s in [0, 1]",
        ),
    ]


def _thm13_choice_of_eps() -> list[Step]:
    al, tau_i = sp.symbols("alpha tau_i", positive=True)
    ell, ei, S = sp.symbols("ell eps_i S", nonnegative=True)
    epsilon_tilde = (2 + ell) * ei + (1 + ell) * EP + (sp.log(_TAU + 1) + S) / (al - 1)
    lhs = (al - 1) * (1 + ell) * (EP + ei) + S + sp.log(tau_i)
    rhs = sp.log(tau_i) - sp.log(_TAU + 1) + (al - 1) * (epsilon_tilde - ei)
    return [
        Step(
            "log of both sides: (alpha-1)(1+l)(eps'+eps_i) + S + log tau_i = log tau_i - log(tau+1) + "
            "(alpha-1)(eps~(o,i) - eps_i), S = Σ_(j≠i) e^(-eps_j(1+alpha l_i))",
            lhs,
            rhs,
            "==",
            domain={
                al: (R(101, 100), 100),
                ell: (0, 10),
                ei: (0, 10),
                EP: (R(1, 1000), 10),
                _TAU: (0, 100),
                tau_i: (R(1, 10**6), 1),
                S: (0, 100),
            },
        )
    ]


def _thm13_final_sum() -> list[Step]:
    tau = _TAU1 + _TAU2
    return [
        Step(
            "1/(tau+1) + Σ_i tau_i/(tau+1) = 1",
            1 / (tau + 1) + (_TAU1 + _TAU2) / (tau + 1),
            1,
            "==",
            domain={_TAU1: (0, 10), _TAU2: (0, 10)},
        ),
        Step(
            "1/(tau+1) + Σ_i tau_i/(tau+1) e^(-(alpha-1)eps_i) Σ_o Q_i^alpha Q'_i^(1-alpha) <= 1 (each "
            "M_i (alpha, eps_i)-RDP: the inner sum is rho_i e^((alpha-1)eps_i), rho_i in [0, 1])",
            1 / (tau + 1) + (_TAU1 * _RHO1 + _TAU2 * _RHO2) / (tau + 1),
            1,
            domain={_TAU1: (0, 10), _TAU2: (0, 10), _RHO1: UNIT, _RHO2: UNIT},
        ),
    ]


_register(
    "ghazi2025.thm13.step.eq5",
    "§4.2, proof of Theorem 13, Eq. (5)",
    "the ⊥ term A(⊥)^alpha A'(⊥)^(1-alpha) e^(-(alpha-1) eps~(⊥)) is at most 1/(tau+1) "
    "(A(⊥) = A'(⊥) <= 1, eps~(⊥) = log(tau+1)/(alpha-1))",
    _thm13_eq5,
    instances="A(⊥) = A'(⊥) as an identity for Algorithm 3 (Exp prior) on two general "
    "three-output mechanisms; a^alpha a^(1-alpha) = a proved for every a = A(⊥) > 0 and every "
    "alpha, the term 0 at a = 0; the bound for every a in [0, 1], tau in [0, 100]",
    bases=(_A,),
)
_register(
    "ghazi2025.thm13.step.factor_A",
    "§4.2, proof of Theorem 13, the display for A(o,i) (two lines, =)",
    "A(o,i) = Q_i(o) E_(x~Exp(eps'))[e^(-eps_i x) Π_(j≠i)(1 - e^(-eps_j x) Q_j(U^j_(o,i)))]: "
    "Algorithm 3's probabilities with the exponential prior equal the closed form",
    lambda: _thm11_closed("exponential"),
    instances="Algorithm 3 (Exp prior) on two general three-output mechanisms, budgets and "
    "probabilities symbolic: an identity for every value",
)
_register(
    "ghazi2025.thm13.step.truncate",
    "§4.2, proof of Theorem 13, the display for A'(o,i), third line (>=)",
    "A'(o,i) = ∫_0^∞ ... dx >= ∫_(1+l_i)^∞ eps' e^(-eps' x) e^(-eps_i x) Q'_i(o) Π_(j≠i)"
    "(1 - e^(-eps_j x) Q'_j(U^j_(o,i))) dx",
    _thm13_truncate,
    instances="every x >= 0 and budget (K_j = e^(-eps_j x) in [0, 1]), Q'_j(U) in [0, 1]",
)
_register(
    "ghazi2025.thm13.step.substitute",
    "§4.2, proof of Theorem 13, the display for A'(o,i), fourth and fifth lines (=)",
    "∫_(1+l)^∞ eps' e^(-eps' x) e^(-eps_i x) Q'_i(o) Π_(j≠i)(1 - e^(-eps_j x) Q'_j) dx = "
    "e^(-(1+l)(eps'+eps_i)) Q'_i(o) E_x[e^(-eps_i x) Π_(j≠i)(1 - e^(-eps_j(1+l)) e^(-eps_j x) Q'_j)] "
    "(x -> x + 1 + l)",
    _thm13_substitute,
    instances="one other mechanism; both sides in closed form, an identity in eps', eps_i, "
    "eps_j, L = 1 + l, Q'_i, Q'_j",
)
_register(
    "ghazi2025.thm13.step.plug_in",
    "§4.2, proof of Theorem 13, the display after the Lemma 15 display (first two lines)",
    "A(o,i)^alpha A'(o,i)^(1-alpha) <= e^((alpha-1)(1+l)(eps'+eps_i)) Q_i(o)^alpha Q'_i(o)^(1-alpha) "
    "exp(Σ_(j≠i) e^(-eps_j(1+alpha l_i))) E_x[e^(-eps_i x)], and E_x[e^(-eps_i x)] = tau_i = "
    "eps'/(eps'+eps_i)",
    _thm13_plug_in,
    instances="tau_i as an identity in eps', eps_i; the pointwise bound for every x, eps_i in "
    "[0, 10] and every product value allowed by the Lemma 15 display",
)
_register(
    "ghazi2025.thm13.step.choice_of_eps",
    "§4.2, proof of Theorem 13, the display after the Lemma 15 display (last line)",
    "e^((alpha-1)(1+l_i)(eps'+eps_i)) exp(Σ_(j≠i) e^(-eps_j(1+alpha l_i))) tau_i = "
    "tau_i/(tau+1) e^((alpha-1)(eps~(o,i) - eps_i)) for Theorem 13's eps~ (an equality)",
    _thm13_choice_of_eps,
    instances="an identity in alpha, l_i, eps_i, eps', tau, tau_i and S = Σ_(j≠i) "
    "e^(-eps_j(1+alpha l_i)) (logarithms of both sides)",
)
_register(
    "ghazi2025.thm13.step.final_sum",
    "§4.2, proof of Theorem 13, the last display (four lines)",
    "1/(tau+1) + Σ_i Σ_o tau_i/(tau+1) e^(-(alpha-1) eps_i) Q_i(o)^alpha Q'_i(o)^(1-alpha) "
    "<= 1/(tau+1) + Σ_i tau_i/(tau+1) = 1 (RDP of each M_i, and tau = Σ_i tau_i)",
    _thm13_final_sum,
    instances="two mechanisms: tau_1, tau_2 in [0, 10], the RDP slack rho_i in [0, 1]",
)


# --- the steps decided by worst-case search -----------------------------------------

G = F
_POS = tuple(G(x, 4) for x in (1, 2, 3, 4, 6, 8, 12, 20, 40))
_PROBS = tuple(G(k, 10) for k in range(1, 10))


def _holder_sides(
    probs: Sequence[sp.Expr], f: Sequence[sp.Expr], g: Sequence[sp.Expr], a: sp.Expr
) -> tuple[sp.Expr, sp.Expr]:
    """Both sides of the display in the proof of Lemma 14: ``(E[f], E[f^α g^{1-α}]^{1/α}
    E[g]^{(α-1)/α})``."""
    ef = sp.Add(*[p * x for p, x in zip(probs, f, strict=True)])
    eg = sp.Add(*[p * y for p, y in zip(probs, g, strict=True)])
    efg = sp.Add(*[p * x**a * y ** (1 - a) for p, x, y in zip(probs, f, g, strict=True)])
    return ef, efg ** (1 / a) * eg ** ((a - 1) / a)


def _holder_point(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
    probs = [v["p"], 1 - v["p"]]
    return [], _holder_sides(probs, [v["f1"], v["f2"]], [v["g1"], v["g2"]], v["alpha"])


_HOLDER_SPACE = GridSpace(
    ("p", "f1", "f2", "g1", "g2", "alpha"),
    (_PROBS, _POS, _POS, _POS, _POS, (G(5, 4), G(3, 2), G(2), G(3), G(4))),
)


def _l14_combined_point(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
    """The display combining the two bounds with Lemma 14 (``α = 2``, one other
    mechanism ``j``), with ``e^{-ε_j x}`` in the product: both sides exactly, the
    expectation on the right bounded below by 30 terms of its series (every term is
    nonnegative), so a pass proves the step at the point."""
    ep, ei, ej, ell = v["eps_prime"], v["eps_i"], v["eps_j"], v["ell"]
    qi, qpi, u, w = v["Q_i"], v["Qp_i"], v["Q_j"], v["Qp_j"]
    L = 1 + ell

    def E(c: sp.Expr) -> sp.Expr:
        return ep / (ep + c)

    A = qi * (E(ei) - u * E(ei + ej))
    Ap = qpi * (E(ei) - w * E(ei + ej))
    vv = sp.exp(-ej * L) * w
    low = sp.Add(
        *[
            vv**n * (E(ei + n * ej) - 2 * u * E(ei + (n + 1) * ej) + u**2 * E(ei + (n + 2) * ej))
            for n in range(30)
        ]
    )
    rhs = sp.exp(L * (ep + ei)) * qi**2 / qpi * low
    return [], (A**2 / Ap, rhs)


_L14C_SPACE = GridSpace(
    ("eps_prime", "eps_i", "eps_j", "ell", "Q_i", "Qp_i", "Q_j", "Qp_j"),
    (
        (G(1, 10), G(1, 2), G(1)),
        (G(1, 4), G(1, 2), G(1), G(2)),
        (G(1, 4), G(1, 2), G(1), G(2), G(4)),
        (G(0), G(1, 10), G(1, 2), G(1)),
        (G(1, 10), G(1, 2), G(9, 10)),
        (G(1, 10), G(1, 2), G(9, 10)),
        (G(0), G(1, 10), G(1, 2), G(9, 10)),
        (G(0), G(1, 10), G(1, 2), G(9, 10)),
    ),
)


def _rdp_post_point(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
    """Data processing for the binary post-processing "above s_i": one term of the
    binary Rényi sum is at most the whole sum of ``M_j`` (three outputs, ``U = {1, 2}``)."""
    a = v["alpha"]
    q = [1 - v["q1"] - v["q2"], v["q1"], v["q2"]]
    qp = [1 - v["p1"] - v["p2"], v["p1"], v["p2"]]
    whole = sp.Add(*[x ** (1 - a) * y**a for x, y in zip(q, qp, strict=True)])
    return [], ((q[1] + q[2]) ** (1 - a) * (qp[1] + qp[2]) ** a, whole)


_RDP_SPACE = GridSpace(
    ("q1", "q2", "p1", "p2", "alpha"),
    (
        (G(1, 20), G(1, 5), G(2, 5)),
        (G(1, 20), G(1, 5), G(2, 5)),
        (G(1, 20), G(1, 5), G(2, 5)),
        (G(1, 20), G(1, 5), G(2, 5)),
        (G(5, 4), G(3, 2), G(2), G(3), G(5)),
    ),
)


def _l15_apply_point(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
    """The display applying Lemma 15 in the proof of Theorem 13, with ``e^{-ε_j x}``:
    ``(1 - e^{-ε_j x} Q_j)^α (1 - e^{-ε_j(1+ℓ)} e^{-ε_j x} Q'_j)^{1-α} <=
    exp(e^{-ε_j(1+αℓ)})`` where the binary post-processing is ``(α, ε_j)``-RDP,
    ``ε_j`` its exact Rényi divergence at ``α`` (the premise with equality)."""
    a, x, ell = v["alpha"], v["x"], v["ell"]
    q, qp = v["Q_j"], v["Qp_j"]
    s = q ** (1 - a) * qp**a + (1 - q) ** (1 - a) * (1 - qp) ** a
    ej = sp.log(s) / (a - 1)
    w = sp.exp(-ej * x)
    lhs = (1 - w * q) ** a * (1 - sp.exp(-ej * (1 + ell)) * w * qp) ** (1 - a)
    return [(q ** (1 - a) * qp**a, sp.exp(ej * (a - 1)))], (
        lhs,
        sp.exp(sp.exp(-ej * (1 + a * ell))),
    )


_L15A_SPACE = GridSpace(
    ("alpha", "x", "ell", "Q_j", "Qp_j"),
    (
        (G(3, 2), G(2), G(3), G(5)),
        (G(0), G(1, 10), G(1, 2), G(1), G(3)),
        (G(0), G(1, 10), G(1, 2), G(2)),
        (G(1, 100), G(1, 10), G(1, 2), G(9, 10), G(99, 100)),
        (G(1, 100), G(1, 10), G(1, 2), G(9, 10), G(99, 100)),
    ),
)


def _grid_points(space: GridSpace, n: int, seed: int) -> list[dict[str, sp.Expr]]:
    """``n`` points of ``space``: its two extreme corners (where valid) and seeded
    random points (distinct), as exact values."""
    import random

    rng = random.Random(seed)
    pts: list[Any] = []
    for pick in (lambda g: g[0], lambda g: g[-1]):
        from verifier.search.inequalities import GridPoint

        p = GridPoint(tuple(pick(g) for g in space.grids))
        if space.valid is None or space.valid(space.point(p)):
            pts.append(p)
    while len(pts) < n:
        p = space.random(rng)
        if p not in pts:
            pts.append(p)
    return [
        {k: sp.Rational(v.numerator, v.denominator) for k, v in space.point(p).items()} for p in pts
    ]


def _at_points(title: str, space: GridSpace, sides: Any, n: int = 6, seed: int = 0) -> CheckResult:
    """The searched step decided exactly at ``n`` registered points of its grid (the
    premises, when the step has some, as the premise of an implication)."""
    from verifier.checks.certified import check_le
    from verifier.checks.results import conjunction, implication

    parts = []
    for v in _grid_points(space, n, seed):
        premises, (lhs, rhs) = sides(v)
        at = ", ".join(f"{k} = {x}" for k, x in v.items())
        concl = check_le(lhs, rhs, at)
        if premises:
            prem = conjunction("premises", [check_le(a, b, "premise") for a, b in premises])
            parts.append(implication(at, prem, concl))
        else:
            parts.append(concl)
    return conjunction(title, parts)


def _searched(cid: str, space: GridSpace, sides: Any, statement: str, where: str) -> Any:
    """A worst-case search of the step over ``space`` (``verifier search``;
    ``verifier casestudies`` screens 300 points of it)."""
    from dataclasses import replace

    spec = inequality_search(
        cid, space, sides, statement, f"{SRC}, {where}", default_instances=2000
    )
    return replace(spec, casestudies_instances=300)


def _register_searched(
    cid: str,
    where: str,
    statement: str,
    space: GridSpace,
    sides: Any,
    *,
    instances: str,
    kind: str = "proof-step",
    expected: str = "holds",
    notes: str = "",
    check: Callable[[], CheckResult] | None = None,
    n: int = 6,
) -> None:
    claim(
        id=cid,
        source=f"{SRC}, {where}",
        statement=statement,
        expected=expected,  # type: ignore[arg-type]
        kind=kind,  # type: ignore[arg-type]
        instances=instances,
        notes=notes,
        search=_searched(cid, space, sides, statement, where),
    )(check or (lambda: _at_points(statement, space, sides, n)))


_register_searched(
    "ghazi2025.thm13.step.lemma14_combined",
    "§4.2, proof of Theorem 13, the display combining the two bounds with Lemma 14 (with "
    "e^(-eps_j x) in the product, as the corrected Lemma 15 display)",
    "A(o,i)^alpha A'(o,i)^(1-alpha) <= e^((alpha-1)(1+l_i)(eps'+eps_i)) Q_i(o)^alpha Q'_i(o)^(1-alpha) "
    "E_x[e^(-eps_i x) Π_(j≠i)(1 - e^(-eps_j x) Q_j)^alpha (1 - e^(-eps_j(1+l_i)) e^(-eps_j x) "
    "Q'_j)^(1-alpha)] (alpha = 2; the expectation bounded below by 30 terms of its series)",
    _L14C_SPACE,
    _l14_combined_point,
    instances="alpha = 2, one other mechanism j; eps', eps_i, eps_j, l_i and the four "
    "probabilities on rational grids (the step is Lemma 14 with equality inside the domain)",
)
_register_searched(
    "ghazi2025.thm13.step.rdp_post_processing",
    "§4.2, proof of Theorem 13, the line before the Lemma 15 display",
    "the post-processing 'is the score above s_i' of M_j is (alpha, eps_j)-RDP: "
    "Q_j(U)^(1-alpha) Q'_j(U)^alpha <= Σ_o Q_j(o)^(1-alpha) Q'_j(o)^alpha <= e^(eps_j(alpha-1))",
    _RDP_SPACE,
    _rdp_post_point,
    instances="three-output mechanisms M_j, U = {1, 2}, alpha in {5/4 .. 5}, probabilities on "
    "rational grids (data processing: equality where Q'_j/Q_j is constant on U)",
)
_register_searched(
    "ghazi2025.thm13.proof_step_corrected",
    "§4.2, proof of Theorem 13, the display applying Lemma 15 (with e^(-eps_j x))",
    "the Lemma 15 display with e^(-eps_j x) and (1 + l_i) holds: (1 - e^(-eps_j x) Q_j)^alpha "
    "(1 - e^(-eps_j(1+l_i)) e^(-eps_j x) Q'_j)^(1-alpha) <= exp(e^(-eps_j(1+alpha l_i))) when the "
    "binary post-processing is (alpha, eps_j)-RDP (it is Lemma 15 with a = e^(-eps_j x) Q_j, "
    "b = e^(-eps_j x) Q'_j)",
    _L15A_SPACE,
    _l15_apply_point,
    instances="alpha in {3/2 .. 5}, x, l_i, Q_j, Q'_j on rational grids; eps_j the exact Rényi "
    "divergence of the binary post-processing (the premise with equality)",
)


# ===========================================================================
# Lemma 14 (reverse Hölder) and Lemma 15, §4.2
# ===========================================================================

_register_searched(
    "ghazi2025.lemma14.step.holder",
    "§4.2, proof of Lemma 14, the display (Hölder's inequality)",
    "E[f^alpha g^(1-alpha)]^(1/alpha) E[g]^((alpha-1)/alpha) >= E[f] for positive f, g",
    _HOLDER_SPACE,
    _holder_point,
    instances="two-point random variables, f, g and alpha on rational grids (equality along f "
    "proportional to g, inside the domain: no branch and bound closes it)",
    n=8,
)


def _lemma14_rearrange() -> list[Step]:
    U, Gs, Fs, al = sp.symbols("U G F alpha", positive=True)
    d = sp.Symbol("delta", nonnegative=True)
    return [
        Step(
            "(E[f^a g^(1-a)]^(1/a) E[g]^((a-1)/a))^a E[g]^(1-a) = E[f^a g^(1-a)]",
            (U ** (1 / al) * Gs ** ((al - 1) / al)) ** al * Gs ** (1 - al),
            U,
            "==",
            domain={U: (R(1, 100), 100), Gs: (R(1, 100), 100), al: (R(101, 100), 10)},
        ),
        Step(
            "E[f] <= RHS implies E[f]^a E[g]^(1-a) <= RHS^a E[g]^(1-a) (both positive, a > 1)",
            Fs**al,
            (Fs + d) ** al,
            domain={Fs: (R(1, 100), 10), d: (0, 10), al: (R(101, 100), 10)},
            note="RHS = E[f] + delta, delta >= 0; the common factor E[g]^(1-a) > 0 cancelled; "
            "E[f] in [1/100, 10] covers every positive value by scaling f",
        ),
    ]


_register(
    "ghazi2025.lemma14.step.rearrange",
    "§4.2, proof of Lemma 14, the line after the display ('rearranging')",
    "raising the display to the power alpha and multiplying by E[g]^(1-alpha) gives the lemma: "
    "E[f]^alpha E[g]^(1-alpha) <= (the display's right side)^alpha E[g]^(1-alpha) = "
    "E[f^alpha g^(1-alpha)]",
    _lemma14_rearrange,
    instances="an identity in E[f^a g^(1-a)], E[g] and alpha; the monotonicity for E[f] in "
    "[1/100, 10], every slack in [0, 10], alpha in [101/100, 10]",
    bases=sp.symbols("U G", positive=True),
)

# --- Lemma 15 -------------------------------------------------------------------------

L15_NAMES = ("eps", "alpha", "a", "b", "ell")
L15_GRIDS = (
    (G(1, 20), G(1, 10), G(1, 4), G(1, 2), G(1), G(2), G(4)),
    (G(5, 4), G(3, 2), G(2), G(3), G(4)),
    (G(1, 1000), G(1, 100), G(1, 20), G(1, 10), G(1, 4), G(1, 2), G(3, 4), G(9, 10), G(99, 100)),
    (G(1, 1000), G(1, 100), G(1, 20), G(1, 10), G(1, 4), G(1, 2), G(3, 4), G(9, 10), G(99, 100)),
    (G(1, 100), G(1, 20), G(1, 4), G(1), G(3)),
)


def _l15_premise_float(v: dict[str, Fraction]) -> bool:
    e, al, a, b = (float(v[k]) for k in ("eps", "alpha", "a", "b"))
    return bool(a ** (1 - al) * b**al < math.exp(e * (al - 1)) * (1 - 1e-9))


L15_SPACE = GridSpace(L15_NAMES, L15_GRIDS, _l15_premise_float)


def _l15_premise(v: dict[str, sp.Expr]) -> tuple[sp.Expr, sp.Expr]:
    e, al, a, b = v["eps"], v["alpha"], v["a"], v["b"]
    return a ** (1 - al) * b**al, sp.exp(e * (al - 1))


def _l15_terms(v: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
    """The quantities of the proof of Lemma 15 at one point (Ghazi et al. 2025, §4.2)."""
    e, al, a, b, ell = (v[k] for k in L15_NAMES)
    c = sp.exp(-e * (1 + ell))
    r = b ** (1 / (al - 1))
    X = (al - 1) * sp.exp(-e * ell) - al * r
    Y = al / (al - 1) * r
    k = sp.exp(-e) * ((al - 1) / al) ** (al - 1)
    return {
        "lhs": (1 - a) ** al * (1 - c * b) ** (1 - al),
        "goal": sp.exp(sp.exp(-e * (1 + al * ell))),
        "rhs_exp": sp.exp(-e * (1 + al * ell)),
        "t0": (al - 1) * c * b - al * a,
        "t3": k * X * Y ** (al - 1),
        "t4": k * ((X + (al - 1) * Y) / al) ** al,
        "g_a": ((1 - a) * sp.exp(a)) ** al,
        "g_cb": ((1 - c * b) * sp.exp(c * b)) ** (al - 1),
    }


def _l15_sides(
    pick: Callable[[dict[str, sp.Expr]], tuple[Any, Any]], exponent: bool = False
) -> Any:
    """``values -> ([premise], (lhs, rhs))`` for the step ``pick`` (sides exponentiated when
    they may be negative, which keeps the ratio screen meaningful)."""

    def sides(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
        lhs, rhs = pick(_l15_terms(v))
        if exponent:
            lhs, rhs = sp.exp(lhs), sp.exp(rhs)
        return [_l15_premise(v)], (lhs, rhs)

    return sides


def l15_search_spec(cid: str, pick: Any, statement: str, exponent: bool = False) -> Any:
    """The worst-case search of a Lemma 15 statement ``pick(terms) = (lhs, rhs)`` over the
    premise grid :data:`L15_SPACE`."""
    return _searched(cid, L15_SPACE, _l15_sides(pick, exponent), statement, "§4.2, Lemma 15")


def lemma14_search_spec(cid: str) -> Any:
    """Lemma 14 on two-point random variables over rational grids."""

    def sides(v: dict[str, sp.Expr]) -> tuple[list[tuple[Any, Any]], tuple[Any, Any]]:
        from .theory import lemma14_sides

        probs = [v["p"], 1 - v["p"]]
        return [], lemma14_sides(probs, [v["f1"], v["f2"]], [v["g1"], v["g2"]], v["alpha"])

    return _searched(cid, _HOLDER_SPACE, sides, "Lemma 14 (reverse Hölder)", "§4.2, Lemma 14")


#: Points of the instance grid (ε, α, a, b, ℓ) where Lemma 15's premise holds.
L15_POINTS = [
    (e, al, a, b, ell)
    for e in (R(1, 10), R(1))
    for al in (R(3, 2), R(2), R(3))
    for a in (R(1, 100), R(1, 10), R(1, 2), R(9, 10))
    for b in (R(1, 100), R(1, 10), R(1, 2), R(9, 10))
    for ell in (R(1, 100), R(1))
    if _l15_premise_float(dict(zip(L15_NAMES, (e, al, a, b, ell), strict=True)))
]
L15_FAIL = (R(1, 10), R(2), R(1, 100), R(1, 10), R(1, 100))


def l15_at_grid(
    title: str, pick: Any, *, where: Any = None, points: Sequence[Any] | None = None
) -> CheckResult:
    """Lemma 15 (or a line of its proof) at every point of the instance grid where the
    premise (and ``where``, a further condition ``(lhs, rhs)``) holds."""
    from verifier.checks.certified import check_le
    from verifier.checks.results import conjunction, implication

    parts = []
    for pt in L15_POINTS if points is None else points:
        v = dict(zip(L15_NAMES, pt, strict=True))
        t = _l15_terms(v)
        premise = [check_le(*_l15_premise(v), "a^(1-alpha) b^alpha <= e^(eps(alpha-1))")]
        if where is not None:
            lo, hi = where(t)
            premise.append(check_le(lo, hi, "the step's region"))
        at = f"(eps, alpha, a, b, l) = {pt}"
        lhs, rhs = pick(t)
        concl = check_le(lhs, rhs, at)
        parts.append(implication(at, conjunction("premise", premise), concl))
    return conjunction(title, parts)


_AL15, _B15, _SIG = sp.symbols("alpha b sigma", positive=True)
#: ``ε`` and ``ℓ`` range from 0 (``e^{-ε(1+ℓ)}`` is defined there).
_EPS15, _ELL15 = sp.symbols("eps ell", nonnegative=True)
_AL_BOX = (R(101, 100), 100)


def _lemma15_eq4() -> list[Step]:
    a0 = sp.exp(-_EPS15) * _B15 ** (_AL15 / (_AL15 - 1))
    a = a0 * _SIG ** (-1 / (_AL15 - 1))
    return [
        Step(
            "every a with the premise is a = e^-eps b^(alpha/(alpha-1)) sigma^(-1/(alpha-1)), "
            "sigma in (0, 1]: a^(1-alpha) b^alpha = e^(eps(alpha-1)) sigma",
            a ** (1 - _AL15) * _B15**_AL15,
            sp.exp(_EPS15 * (_AL15 - 1)) * _SIG,
            "==",
            domain={_EPS15: (0, 10), _AL15: _AL_BOX, _B15: (R(1, 1000), 1), _SIG: (R(1, 10**6), 1)},
        ),
        Step(
            "Eq. (4): e^-eps b^(alpha/(alpha-1)) <= a, i.e. 1 <= sigma^(-1/(alpha-1))",
            1,
            _SIG ** (-1 / (_AL15 - 1)),
            domain={_AL15: _AL_BOX, _SIG: (R(1, 10**6), 1)},
            note="the common factor e^-eps b^(alpha/(alpha-1)) >= 0 cancelled",
        ),
    ]


def _lemma15_chain_eq4() -> list[Step]:
    a0, s = sp.symbols("a_0 s", nonnegative=True)
    return [
        Step(
            "(alpha-1) e^(-eps(1+l)) b - alpha a <= (alpha-1) e^(-eps(1+l)) b - alpha a_0 for "
            "a = a_0 + s (1 - a_0) (Eq. (4): a >= a_0 = e^-eps b^(alpha/(alpha-1)))",
            -_AL15 * (a0 + s * (1 - a0)),
            -_AL15 * a0,
            domain={_AL15: _AL_BOX, a0: UNIT, s: UNIT},
            note="the common term (alpha-1) e^(-eps(1+l)) b cancelled; a_0 and s in [0, 1] "
            "(nonnegative: the step is linear in them, defined at 0)",
        )
    ]


def _lemma15_identities(which: str) -> list[Step]:
    e, al, b, ell = _EPS15, _AL15, _B15, _ELL15
    r = b ** (1 / (al - 1))
    X = (al - 1) * sp.exp(-e * ell) - al * r
    Y = al / (al - 1) * r
    k = sp.exp(-e) * ((al - 1) / al) ** (al - 1)
    dom = {e: (0, 10), al: _AL_BOX, b: (R(1, 1000), 1), ell: (0, 10)}
    t1 = (al - 1) * sp.exp(-e * (1 + ell)) * b - al * sp.exp(-e) * b ** (al / (al - 1))
    t2 = sp.exp(-e) * X * b
    t3 = k * X * Y ** (al - 1)
    t4 = k * ((X + (al - 1) * Y) / al) ** al
    t5 = k * ((al - 1) * sp.exp(-e * ell) / al) ** al
    t6 = sp.exp(-e * (1 + al * ell)) * ((al - 1) / al) ** (2 * al - 1)
    if which == "factor":
        return [Step("second line", t1, t2, "==", domain=dom)]
    if which == "rewrite":
        return [Step("third line", t2, t3, "==", domain=dom)]
    return [
        Step(
            "X + (alpha-1) Y = (alpha-1) e^(-eps l)",
            X + (al - 1) * Y,
            (al - 1) * sp.exp(-e * ell),
            "==",
            domain=dom,
        ),
        Step("fifth line", t4, t5, "==", domain=dom),
        Step("sixth line", t5, t6, "==", domain=dom),
    ]


def _lemma15_chain_last() -> list[Step]:
    return [
        Step(
            "((alpha-1)/alpha)^(2 alpha - 1) <= 1",
            (1 - 1 / _AL15) ** (2 * _AL15 - 1),
            1,
            domain={_AL15: (R(101, 100), 1000)},
            note="the common factor e^(-eps(1+alpha l)) > 0 cancelled; the factor dropped here is at "
            "most e^-2 (its limit as alpha -> oo), so this line alone gives up a factor e^2 > 7 in "
            "the exponent (NOTES.md, Lemma 15)",
        )
    ]


_L15_BOX_TEXT = "eps in [0, 10], alpha in [101/100, 100], b in [1/1000, 1], l in [0, 10]"

_register(
    "ghazi2025.lemma15.step.eq4",
    "§4.2, proof of Lemma 15, Eq. (4)",
    "a^(1-alpha) b^alpha <= e^(eps(alpha-1)) implies a >= e^(-eps) b^(alpha/(alpha-1))",
    _lemma15_eq4,
    instances="the premise's region reparametrized exactly by sigma = a^(1-alpha) b^alpha "
    "e^(-eps(alpha-1)) in (0, 1]; " + _L15_BOX_TEXT + ", sigma in [1/10^6, 1]",
    bases=(_B15, _SIG),
)
_register(
    "ghazi2025.lemma15.step.chain_eq4",
    "§4.2, proof of Lemma 15, first line of the display (by Eq. (4))",
    "(alpha-1) e^(-eps(1+l)) b - alpha a <= (alpha-1) e^(-eps(1+l)) b - alpha e^(-eps) "
    "b^(alpha/(alpha-1))",
    _lemma15_chain_eq4,
    instances="alpha in [101/100, 100], a_0 = e^(-eps) b^(alpha/(alpha-1)) in [0, 1], a = a_0 + "
    "s (1 - a_0), s in [0, 1] (every a that Eq. (4) allows)",
)
_register(
    "ghazi2025.lemma15.step.chain_factor",
    "§4.2, proof of Lemma 15, second line (=) of the display",
    "(alpha-1) e^(-eps(1+l)) b - alpha e^(-eps) b^(alpha/(alpha-1)) = e^(-eps)((alpha-1) "
    "e^(-eps l) - alpha b^(1/(alpha-1))) b",
    lambda: _lemma15_identities("factor"),
    instances="an identity in eps, alpha, b, l",
    bases=(_B15,),
)
_register(
    "ghazi2025.lemma15.step.chain_rewrite",
    "§4.2, proof of Lemma 15, third line (=) of the display",
    "e^(-eps) X b = e^(-eps) ((alpha-1)/alpha)^(alpha-1) X^1 Y^(alpha-1) with X = (alpha-1) "
    "e^(-eps l) - alpha b^(1/(alpha-1)), Y = (alpha/(alpha-1)) b^(1/(alpha-1))",
    lambda: _lemma15_identities("rewrite"),
    instances="an identity in eps, alpha, b, l",
    bases=(_B15,),
)
_register(
    "ghazi2025.lemma15.step.chain_collapse",
    "§4.2, proof of Lemma 15, fifth and sixth lines (=) of the display",
    "X + (alpha-1) Y = (alpha-1) e^(-eps l), so the bound is e^(-eps)((alpha-1)/alpha)^(alpha-1) "
    "((alpha-1) e^(-eps l)/alpha)^alpha = e^(-eps(1+alpha l)) ((alpha-1)/alpha)^(2 alpha - 1)",
    lambda: _lemma15_identities("collapse"),
    instances="identities in eps, alpha, b, l",
    bases=(_B15,),
)
_register(
    "ghazi2025.lemma15.step.chain_last",
    "§4.2, proof of Lemma 15, last line of the display",
    "e^(-eps(1+alpha l)) ((alpha-1)/alpha)^(2 alpha - 1) <= e^(-eps(1+alpha l))",
    _lemma15_chain_last,
    instances="every alpha in [101/100, 1000] (and every eps, l: the factor cancels)",
)
_register_searched(
    "ghazi2025.lemma15.step.chain_amgm",
    "§4.2, proof of Lemma 15, fourth line of the display ((⋆), weighted AM-GM)",
    "X^1 Y^(alpha-1) <= ((X + (alpha-1) Y)/alpha)^alpha (weighted AM-GM; X may be negative, then "
    "the left side is)",
    L15_SPACE,
    _l15_sides(lambda t: (t["t3"], t["t4"]), exponent=True),
    instances="eps, alpha, a, b, l on rational grids where the premise holds (equality at X = Y, "
    "inside the domain)",
)
_register_searched(
    "ghazi2025.lemma15.step.exp_bound_as_printed",
    "§4.2, proof of Lemma 15, first line of the proof",
    "'from 1 + x <= e^x, the LHS is at most exp((alpha-1) e^(-eps(1+l)) b - alpha a)' (refuted: "
    "alpha = 2, eps = 1/10, l = 1/100, a = 1/100, b = 1/10: LHS 1.07750 > 1.07293)",
    L15_SPACE,
    _l15_sides(lambda t: (t["lhs"], sp.exp(t["t0"]))),
    kind="finding",
    expected="refuted",
    instances="the Lemma 15 grid (eps in {1/10, 1}, alpha in {3/2, 2, 3}, a, b in {1/100 .. 9/10}, "
    "l in {1/100, 1}) where the premise holds",
    notes="(1 - y)^(1-alpha) >= e^((alpha-1) y): the bound 1 - y <= e^-y reverses under the "
    "negative power 1 - alpha.  With g(t) = (1-t)e^t the step holds exactly when "
    "g(a)^alpha <= g(c b)^(alpha-1), c = e^(-eps(1+l)) (LHS/RHS = g(a)^alpha / g(cb)^(alpha-1)); "
    "on that side: ghazi2025.lemma15.step.exp_bound_where_it_holds.  Lemma 15 itself holds at "
    "the failing points (ghazi2025.lemma15.at_step_failures).",
    check=lambda: l15_at_grid(
        "the first step of the proof of Lemma 15", lambda t: (t["lhs"], sp.exp(t["t0"]))
    ),
)
_register(
    "ghazi2025.lemma15.step.exp_bound_where_it_holds",
    "§4.2, proof of Lemma 15, first line of the proof (its region)",
    "the first step holds at every premise point with g(a)^alpha <= g(e^(-eps(1+l)) b)^(alpha-1), "
    "g(t) = (1-t) e^t (the exact boundary: LHS/RHS = g(a)^alpha / g(cb)^(alpha-1))",
    lambda: [],
    kind="finding",
    instances="the Lemma 15 grid, restricted to that region",
    check=lambda: l15_at_grid(
        "the first step where g(a)^alpha <= g(cb)^(alpha-1)",
        lambda t: (t["lhs"], sp.exp(t["t0"])),
        where=lambda t: (t["g_a"], t["g_cb"]),
    ),
)

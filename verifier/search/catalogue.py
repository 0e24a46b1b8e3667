"""The built-in searchable claims: theorems (and flawed variants) of the papers the
toolkit covers, each quantified over an instance space.

============================================  ========  ==================================
id                                            expected  statement (over the space)
============================================  ========  ==================================
``ghazi2025.thm8``                            holds     Alg. 1, ε̃(o,i) = 2ε_i + ε'
``ghazi2025.thm9.non_monotone``               refuted   Alg. 1 on any sensitivity-1 table,
                                                        Theorem 9's ε_i + ε'
``ghazi2025.thm9.monotone``                   holds     the same on monotone tables
``ghazi2025.thm10``                           holds     Alg. 2, 2ε_i + ε', ε̃(⊥) = ε'
``ghazi2025.thm11``                           holds     Alg. 3 (geometric), 2ε_i + ε', ⊥: 0
``ghazi2025.thm11.no_factor2``                refuted   Alg. 3 with ε_i + ε'
``ghazi2025.thm13``                           holds     Alg. 3 (exponential), ex-post RDP
``liu_talwar2019.thm32.3eps``                 holds     random stopping is 3ε-DP
``liu_talwar2019.thm32.2eps``                 refuted   random stopping is 2ε-DP
``liu_talwar2019.best_of_k.Keps``             holds     best of K ε-DP runs is Kε-DP
``liu_talwar2019.best_of_k.eps``              refuted   best of K ε-DP runs is ε-DP
``lyu2017.alg1``                              holds     Lyu et al.'s SVT Alg. 1 is ε-DP
``lyu2017.alg5`` / ``alg6``                   refuted   Algs. 5, 6 are ε-DP
``ghazi2025.thm16`` (:mod:`.adversaries`)     holds     the RDP filter, finite adversaries
``ghazi2025.thm16.no_filter``                 refuted   the same without the filter
============================================  ========  ==================================

Base mechanisms are exactly ``log(a)``-DP pairs with rational ``a`` and rational
probabilities (:mod:`verifier.search.spaces`), so every exact check runs in rational
arithmetic; certificates write the base instance and the algorithm (a registered
transformer) with premise claims "``M_i`` is ``ε_i``-DP".  Claimed bounds
``e^{c ε_i + ε'}`` are written as ``log`` of the exact rational ``a_i^c e^{ε'}``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import networkx as nx
import sympy as sp

from ..algorithms.ghazi import output_index, theorem13_bound
from ..algorithms.noise import epsilon_for_base, lyu_svt, program_mechanism
from ..neighbours import pair
from . import screens
from .certificates import (
    claim_entry,
    derived_outputs,
    deterministic_mechanism,
    distribution_table,
    expr_text,
    frac_text,
    log_text,
    pair_graph,
)
from .core import SearchableClaim, register_searchable
from .spaces import (
    GAMMAS,
    PRIME_BUDGETS,
    PairMech,
    QueryPair,
    QueryPairSpace,
    Selection,
    SelectionSpace,
    Table,
    TableSpace,
)

__all__ = ["GHAZI", "LIU_TALWAR", "LYU"]

GHAZI = "Ghazi et al. 2025"
LIU_TALWAR = "Liu & Talwar 2019"
LYU = "Lyu, Su, Li 2017"
F = Fraction


# ---------------------------------------------------------------------------
# document helpers
# ---------------------------------------------------------------------------


def _skeleton(title: str) -> dict[str, Any]:
    return {
        "version": 1,
        "title": title,
        "graphs": {"g": pair_graph()},
        "mechanisms": {},
        "claims": [],
    }


def _pair_doc(pm: PairMech) -> dict[str, Any]:
    outs = list(range(pm.m))
    return {
        "graph": "g",
        "outputs": outs,
        "distributions": {
            "D": distribution_table(pm.p, outs),
            "D'": distribution_table(pm.q, outs),
        },
    }


def _add_bases(doc: dict[str, Any], mechs: Sequence[PairMech], premise: bool = True) -> list[str]:
    names = []
    for j, pm in enumerate(mechs):
        name = f"M{j + 1}"
        doc["mechanisms"][name] = _pair_doc(pm)
        names.append(name)
        if premise:
            doc["claims"].append(
                claim_entry(
                    f"premise-{name}",
                    name,
                    "pure_dp",
                    "holds",
                    epsilon=log_text(pm.a),
                    statement=f"premise: {name} is log({pm.a})-DP",
                )
            )
    return names


def _floats(mechs: Sequence[PairMech]) -> list[tuple[list[float], list[float]]]:
    return [([float(x) for x in pm.p], [float(x) for x in pm.q]) for pm in mechs]


def _register(claim: SearchableClaim) -> SearchableClaim:
    claim.reference = claim.id
    return register_searchable(claim, replace=True)


# ---------------------------------------------------------------------------
# Ghazi et al. 2025, Algorithm 3 (Theorems 11 and 11 without the factor 2)
# ---------------------------------------------------------------------------


def _alg3_screen(inst: Selection, factor: int) -> float:
    mechs = _floats(inst.mechs)
    xs = [1 / float(pm.a) for pm in inst.mechs]
    labels, rows = screens.alg3_geometric(mechs, xs, 1 / float(inst.param))
    lep = math.log(inst.param)
    bounds = [
        0.0 if lab == "⊥" else factor * math.log(inst.mechs[lab[1] - 1].a) + lep  # type: ignore[index]
        for lab in labels
    ]
    return screens.ex_post_ratio(rows, bounds)


def _selection_bounds(
    outputs: Sequence[Any], mechs: Sequence[PairMech], ep: Fraction, factor: int, bottom: Any
) -> dict[str, Any]:
    from ..spec import output_label

    out: dict[str, Any] = {}
    for o in outputs:
        i = output_index(o)
        if i is None:
            out[output_label(o)] = bottom
        else:
            out[output_label(o)] = log_text(mechs[i - 1].a ** factor * ep)
    return out


def _alg3_document(inst: Selection, claim_id: str, factor: int, statement: str) -> dict[str, Any]:
    doc = _skeleton(f"Ghazi et al. 2025, Algorithm 3: {statement}")
    names = _add_bases(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "ghazi_hyperparameter_tuning",
        "inputs": names,
        "params": {
            "epsilons": [log_text(pm.a) for pm in inst.mechs],
            "eps_prime": log_text(inst.param),
            "prior": "geometric",
        },
    }
    eps_tilde = _selection_bounds(derived_outputs(doc, "A"), inst.mechs, inst.param, factor, 0)
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "ex_post",
            "refuted",
            eps_tilde=eps_tilde,
            statement=statement
            + f" (eps~(o,i) written as log(a_i^{factor} e^eps'), a_i = e^eps_i)",
            source=f"{GHAZI}, Theorem 11",
        )
    )
    return doc


def _thm11(claim_id: str, factor: int, expected: str, statement: str, notes: str) -> None:
    _register(
        SearchableClaim(
            id=claim_id,
            statement=statement,
            source=f"{GHAZI}, Algorithm 3 / Theorem 11",
            expected=expected,  # type: ignore[arg-type]
            space=SelectionSpace(d=(1, 3), m=(2, 3), params=PRIME_BUDGETS),
            screen=functools.partial(_alg3_screen, factor=factor),
            document=functools.partial(
                _alg3_document, claim_id=claim_id, factor=factor, statement=statement
            ),
            default_instances=20000,
            notes=notes,
        )
    )


_thm11(
    "ghazi2025.thm11",
    2,
    "holds",
    "Algorithm 3 (prior Geom_{e^-eps'}) on log(a_i)-DP mechanisms is ex-post DP with "
    "eps~(o,i) = 2 eps_i + eps', eps~(bot) = 0",
    "1-3 mechanisms on a pair, 2-3 outputs each, a_i in {11/10 .. 100}, e^eps' in {11/10 .. 4}",
)
_thm11(
    "ghazi2025.thm11.no_factor2",
    1,
    "refuted",
    "Algorithm 3 without the factor 2: eps~(o,i) = eps_i + eps', eps~(bot) = 0",
    "false: a high-budget competitor favouring the other dataset pushes the ratio of (o, i) "
    "towards e^(2 eps_i + eps')",
)


# ---------------------------------------------------------------------------
# Algorithm 2 (Theorem 10)
# ---------------------------------------------------------------------------


def _alg2_screen(inst: Selection) -> float:
    mechs = _floats(inst.mechs)
    xs = [1 / float(pm.a) for pm in inst.mechs]
    lep = math.log(inst.param)
    labels, rows = screens.alg2(mechs, xs, 1 / float(inst.param), inst.tau)
    bounds = [
        lep if lab == "⊥" else 2 * math.log(inst.mechs[lab[1] - 1].a) + lep  # type: ignore[index]
        for lab in labels
    ]
    return screens.ex_post_ratio(rows, bounds)


def _alg2_document(inst: Selection) -> dict[str, Any]:
    statement = (
        "Algorithm 2 (threshold tau, random dropping) on log(a_i)-DP mechanisms is ex-post DP "
        "with eps~(o,i) = 2 eps_i + eps', eps~(bot) = eps'"
    )
    doc = _skeleton(f"Ghazi et al. 2025, Algorithm 2: {statement}")
    names = _add_bases(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "ghazi_generalized_above_threshold",
        "inputs": names,
        "params": {
            "epsilons": [log_text(pm.a) for pm in inst.mechs],
            "eps_prime": log_text(inst.param),
            "threshold": inst.tau,
        },
    }
    eps_tilde = _selection_bounds(
        derived_outputs(doc, "A"), inst.mechs, inst.param, 2, log_text(inst.param)
    )
    doc["claims"].append(
        claim_entry(
            "ghazi2025.thm10",
            "A",
            "ex_post",
            "refuted",
            eps_tilde=eps_tilde,
            statement=statement,
            source=f"{GHAZI}, Theorem 10",
        )
    )
    return doc


_register(
    SearchableClaim(
        id="ghazi2025.thm10",
        statement="Algorithm 2 on log(a_i)-DP mechanisms is ex-post DP with eps~(o,i) = "
        "2 eps_i + eps', eps~(bot) = eps'",
        source=f"{GHAZI}, Algorithm 2 / Theorem 10",
        expected="holds",
        space=SelectionSpace(d=(1, 3), m=(2, 3), params=PRIME_BUDGETS, tau=True),
        screen=_alg2_screen,
        document=_alg2_document,
        default_instances=20000,
        notes="1-3 mechanisms, 2-3 outputs, every threshold rank",
    )
)


# ---------------------------------------------------------------------------
# Algorithm 1 (Theorems 8 and 9)
# ---------------------------------------------------------------------------


def _alg1_screen(inst: Table, factor: int) -> float:
    xs = [1 / float(b) for b in inst.budgets]
    labels, rows = screens.alg1(inst.rows, xs, 1 / float(inst.ep))
    lep = math.log(inst.ep)
    bounds = []
    for lab in labels:
        if lab == "⊥":
            bounds.append(lep)
        else:
            i = lab[-1]  # type: ignore[index]
            bounds.append(factor * math.log(inst.budgets[i - 1]) + lep)
    return screens.ex_post_ratio(rows, bounds)


def _alg1_document(inst: Table, claim_id: str, factor: int, statement: str) -> dict[str, Any]:
    from ..spec import output_label

    doc = _skeleton(f"Ghazi et al. 2025, Algorithm 1: {statement}")
    names = []
    for i, (v, w) in enumerate(inst.rows):
        name = f"f{i + 1}"
        doc["mechanisms"][name] = deterministic_mechanism("g", {"D": v, "D'": w})
        names.append(name)
    doc["mechanisms"]["A"] = {
        "algorithm": "ghazi_above_threshold",
        "inputs": names,
        "params": {"epsilons": [log_text(b) for b in inst.budgets], "eps_prime": log_text(inst.ep)},
    }
    eps_tilde: dict[str, Any] = {}
    for o in derived_outputs(doc, "A"):
        idx = output_index(o)
        eps_tilde[output_label(o)] = (
            log_text(inst.ep)
            if idx is None
            else log_text(inst.budgets[idx - 1] ** factor * inst.ep)
        )
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "ex_post",
            "refuted",
            eps_tilde=eps_tilde,
            statement=statement,
            source=f"{GHAZI}, Theorem {8 if factor == 2 else 9}",
        )
    )
    return doc


def _alg1(
    claim_id: str, factor: int, monotone: bool, expected: str, statement: str, notes: str
) -> None:
    _register(
        SearchableClaim(
            id=claim_id,
            statement=statement,
            source=f"{GHAZI}, Algorithm 1 / Theorem {8 if factor == 2 else 9}",
            expected=expected,  # type: ignore[arg-type]
            space=TableSpace(monotone=monotone),
            screen=functools.partial(_alg1_screen, factor=factor),
            document=functools.partial(
                _alg1_document, claim_id=claim_id, factor=factor, statement=statement
            ),
            default_instances=20000,
            notes=notes,
        )
    )


_alg1(
    "ghazi2025.thm8",
    2,
    False,
    "holds",
    "Algorithm 1 (ex-post AboveThreshold) on sensitivity-1 integer functions is ex-post DP "
    "with eps~(o,i) = 2 eps_i + eps', eps~(bot) = eps'",
    "1-3 functions with values in -1..2 on a pair; whole infinite output set (lumped tail)",
)
_alg1(
    "ghazi2025.thm9.non_monotone",
    1,
    False,
    "refuted",
    "Theorem 9's monotone bound eps~(o,i) = eps_i + eps' applied to Algorithm 1 on arbitrary "
    "(non-monotone) sensitivity-1 functions",
    "false without monotonicity: f_1 = (1, 0), f_2 = (0, 1) reaches 2 eps_2 + eps'",
)
_alg1(
    "ghazi2025.thm9.monotone",
    1,
    True,
    "holds",
    "Theorem 9: Algorithm 1 on monotone sensitivity-1 functions (f_i(D) >= f_i(D') for every "
    "i) is ex-post DP with eps~(o,i) = eps_i + eps', eps~(bot) = eps'",
    "monotone tables on a pair (D' below D)",
)


# ---------------------------------------------------------------------------
# Theorem 13 (exponential prior, ex-post RDP)
# ---------------------------------------------------------------------------


def _rdp_sum(pm: PairMech, alpha: int) -> Fraction:
    """``max`` over both directions of ``Σ_o P(o)^α Q(o)^{1-α}`` (exact)."""
    s1 = sum((x**alpha / y ** (alpha - 1) for x, y in zip(pm.p, pm.q, strict=True)), F(0))
    s2 = sum((y**alpha / x ** (alpha - 1) for x, y in zip(pm.p, pm.q, strict=True)), F(0))
    return max(s1, s2)


def _ells(eps: Sequence[float], ep: float, alpha: int) -> list[Fraction]:
    """A data-free ``ℓ_i >= 0`` per mechanism: the minimiser of Theorem 13's
    ``ε̃(o, i)`` (convex in ``ℓ``) rounded down to a multiple of 1/32 — any
    ``ℓ_i >= 0`` is allowed by the theorem, and a small rational keeps the exact
    check fast."""
    out = []
    for i in range(len(eps)):
        others = [e for j, e in enumerate(eps) if j != i and e > 0]
        lin = eps[i] + ep

        def dg(ell: float, others: list[float] = others, lin: float = lin) -> float:
            return lin - alpha / (alpha - 1) * sum(
                e * math.exp(-e * (1 + alpha * ell)) for e in others
            )

        if not others or dg(0.0) >= 0:
            out.append(F(0))
            continue
        lo, hi = 0.0, 1.0
        while dg(hi) < 0 and hi < 1e6:
            lo, hi = hi, 2 * hi
        for _ in range(60):
            mid = (lo + hi) / 2
            if dg(mid) < 0:
                lo = mid
            else:
                hi = mid
        out.append(F(math.floor(lo * 32), 32))
    return out


def _thm13_parts(inst: Selection) -> tuple[list[float], list[Fraction], list[Fraction]]:
    sums = [_rdp_sum(pm, inst.alpha) for pm in inst.mechs]
    eps_f = [math.log(s) / (inst.alpha - 1) for s in sums]
    return eps_f, sums, _ells(eps_f, float(inst.param), inst.alpha)


def _thm13_screen(inst: Selection) -> float:
    a = inst.alpha
    eps_f, _, ells = _thm13_parts(inst)
    ep = float(inst.param)
    labels, rows = screens.alg3_exponential(_floats(inst.mechs), eps_f, ep)
    tau = sum(ep / (ep + e) for e in eps_f)
    bot = math.log(tau + 1) / (a - 1)
    vals = []
    for i, e in enumerate(eps_f):
        ell = float(ells[i])
        others = sum(math.exp(-x * (1 + a * ell)) for j, x in enumerate(eps_f) if j != i)
        vals.append((2 + ell) * e + (1 + ell) * ep + (math.log(tau + 1) + others) / (a - 1))
    bounds = [bot if lab == "⊥" else vals[lab[1] - 1] for lab in labels]  # type: ignore[index]
    return screens.rdp_sum_ratio(rows, bounds, a)


def _thm13_document(inst: Selection) -> dict[str, Any]:
    from ..spec import output_label

    a = inst.alpha
    statement = (
        f"Theorem 13: Algorithm 3 with prior Exp(eps') on (alpha, eps_i)-RDP mechanisms is "
        f"ex-post (alpha, eps~)-RDP (alpha = {a}, eps_i the exact RDP eps of M_i, data-free "
        f"ell_i >= 0)"
    )
    doc = _skeleton(f"Ghazi et al. 2025, {statement}")
    names = _add_bases(doc, inst.mechs, premise=False)
    _, sums, ells = _thm13_parts(inst)
    eps_exact = [sp.log(sp.Rational(s.numerator, s.denominator)) / (a - 1) for s in sums]
    for name, e in zip(names, eps_exact, strict=True):
        doc["claims"].append(
            claim_entry(
                f"premise-{name}",
                name,
                "rdp",
                "holds",
                alpha=a,
                epsilon=expr_text(e),
                statement=f"premise: {name} is ({a}, eps_i)-RDP",
            )
        )
    ep = sp.Rational(inst.param.numerator, inst.param.denominator)
    doc["mechanisms"]["A"] = {
        "algorithm": "ghazi_hyperparameter_tuning",
        "inputs": names,
        "params": {
            "epsilons": [expr_text(e) for e in eps_exact],
            "eps_prime": frac_text(inst.param),
            "prior": "exponential",
        },
    }
    bound = theorem13_bound(
        eps_exact, ep, a, ells=[sp.Rational(x.numerator, x.denominator) for x in ells]
    )
    eps_tilde = {output_label(o): expr_text(bound(o)) for o in derived_outputs(doc, "A")}
    doc["claims"].append(
        claim_entry(
            "ghazi2025.thm13",
            "A",
            "ex_post_rdp",
            "refuted",
            eps_tilde=eps_tilde,
            alpha=a,
            statement=statement + f"; ell = {[str(x) for x in ells]}",
            source=f"{GHAZI}, Theorem 13",
        )
    )
    return doc


_register(
    SearchableClaim(
        id="ghazi2025.thm13",
        statement="Algorithm 3 with prior Exp(eps') on (alpha, eps_i)-RDP mechanisms is ex-post "
        "(alpha, eps~)-RDP with Theorem 13's eps~ (ratio: the Def 6 sum, claimed <= 1)",
        source=f"{GHAZI}, Algorithm 3 / Theorem 13",
        expected="holds",
        space=SelectionSpace(
            d=(1, 3),
            m=(2, 3),
            params=(F(1, 10), F(1, 4), F(1, 2), F(1), F(2)),
            alphas=(2, 3),
        ),
        screen=_thm13_screen,
        document=_thm13_document,
        default_instances=10000,
        notes="eps_i = exact RDP eps of each base mechanism; ell_i = data-free optimum rounded "
        "down to 1/32; eps' in {1/10 .. 2}, alpha in {2, 3}",
    )
)


# ---------------------------------------------------------------------------
# Liu & Talwar 2019: random stopping (Theorem 3.2) and best of K
# ---------------------------------------------------------------------------


def _stopping_screen(inst: Selection, factor: int) -> float:
    pm = inst.mechs[0]
    _, rows = screens.random_stopping(
        [float(x) for x in pm.p], [float(x) for x in pm.q], float(inst.param)
    )
    e = factor * math.log(pm.a)
    return screens.ex_post_ratio(rows, [e] * pm.m)


def _stopping_document(inst: Selection, claim_id: str, factor: int) -> dict[str, Any]:
    pm = inst.mechs[0]
    statement = f"random stopping (gamma = {inst.param}) on an eps-DP Q is {factor} eps-DP"
    doc = _skeleton(f"Liu & Talwar 2019, Theorem 3.2: {statement}")
    (name,) = _add_bases(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "lt_random_stopping",
        "inputs": [name],
        "params": {"gamma": frac_text(inst.param)},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "pure_dp",
            "refuted",
            epsilon=log_text(pm.a, factor),
            statement=statement + " (candidate o has score o)",
            source=f"{LIU_TALWAR}, Theorem 3.2",
        )
    )
    return doc


def _stopping(claim_id: str, factor: int, expected: str, statement: str, notes: str) -> None:
    _register(
        SearchableClaim(
            id=claim_id,
            statement=statement,
            source=f"{LIU_TALWAR}, Theorem 3.2 (Algorithm maxRand)",
            expected=expected,  # type: ignore[arg-type]
            space=SelectionSpace(d=(1, 1), m=(2, 5), params=GAMMAS),
            screen=functools.partial(_stopping_screen, factor=factor),
            document=functools.partial(_stopping_document, claim_id=claim_id, factor=factor),
            default_instances=20000,
            notes=notes,
        )
    )


_stopping(
    "liu_talwar2019.thm32.3eps",
    3,
    "holds",
    "random stopping (best of a Geometric(gamma) number of draws) on an eps-DP Q is 3 eps-DP",
    "Q: 2-5 scored candidates on a pair; gamma in {1/2 .. 1/1000}",
)
_stopping(
    "liu_talwar2019.thm32.2eps",
    2,
    "refuted",
    "random stopping on an eps-DP Q is 2 eps-DP",
    "false: three candidates whose p, p0 and p1 move in compounding directions, small gamma",
)


def _best_screen(inst: Selection, per_run: bool) -> float:
    _, rows = screens.best_of(_floats(inst.mechs))
    a = max(pm.a for pm in inst.mechs)
    e = math.log(a) * (len(inst.mechs) if per_run else 1)
    return screens.ex_post_ratio(rows, [e] * len(rows[0]))


def _best_document(inst: Selection, claim_id: str, per_run: bool) -> dict[str, Any]:
    K = len(inst.mechs)
    a = max(pm.a for pm in inst.mechs)
    mult = K if per_run else 1
    statement = f"the best of K = {K} independent runs of eps-DP mechanisms is " + (
        "K eps-DP" if per_run else "eps-DP"
    )
    doc = _skeleton(f"Liu & Talwar 2019, best of K: {statement}")
    names = _add_bases(doc, [PairMech(a, pm.p, pm.q) for pm in inst.mechs])
    doc["mechanisms"]["B"] = {
        "algorithm": "best_of",
        "inputs": names,
        "params": {"ties": "highest_index"},
    }
    doc["claims"].append(
        claim_entry(
            claim_id,
            "B",
            "pure_dp",
            "refuted",
            epsilon=log_text(a, mult),
            statement=statement + " (the output is the best score; ties to the later run)",
            source=f"{LIU_TALWAR}, §3 and App. B.1",
        )
    )
    return doc


def _best(claim_id: str, per_run: bool, expected: str, statement: str, notes: str) -> None:
    _register(
        SearchableClaim(
            id=claim_id,
            statement=statement,
            source=f"{LIU_TALWAR}, §3 / App. B.1 (best of K)",
            expected=expected,  # type: ignore[arg-type]
            space=SelectionSpace(d=(2, 3), m=(2, 3), same_budget=True),
            screen=functools.partial(_best_screen, per_run=per_run),
            document=functools.partial(_best_document, claim_id=claim_id, per_run=per_run),
            default_instances=20000,
            notes=notes,
        )
    )


_best(
    "liu_talwar2019.best_of_k.Keps",
    True,
    "holds",
    "the best of K independent runs of eps-DP mechanisms (released output) is K eps-DP",
    "K in {2, 3} mechanisms with one budget, 2-3 scored outputs each",
)
_best(
    "liu_talwar2019.best_of_k.eps",
    False,
    "refuted",
    "the best of K independent runs of eps-DP mechanisms is eps-DP",
    "false: the lowest output needs every run to be low (ratio e^(K eps) for RR)",
)


# ---------------------------------------------------------------------------
# sparse vector programs (Lyu, Su, Li 2017)
# ---------------------------------------------------------------------------

#: ``W = e^{-u} = 4/5`` (``u`` the programs' common noise unit): exact rationals.
SVT_BASE = sp.Rational(4, 5)


@functools.lru_cache(maxsize=16)
def _svt_epsilon(k: int) -> sp.Expr:
    return epsilon_for_base(lambda e: lyu_svt(k, e), SVT_BASE)


@functools.lru_cache(maxsize=4096)
def _svt_rows(k: int, inst: QueryPair) -> tuple[list[float], list[float]]:
    g: nx.Graph = pair("D", "D'")
    pm = program_mechanism(
        lyu_svt(k, _svt_epsilon(k)), g, answers={"D": inst.q, "D'": inst.q2}
    ).mechanism
    return (
        [float(pm.p("D", o)) for o in pm.outputs],
        [float(pm.p("D'", o)) for o in pm.outputs],
    )


def _svt_screen(inst: QueryPair, k: int) -> float:
    rows = _svt_rows(k, inst)
    e = float(sp.N(_svt_epsilon(k), 30))
    return screens.ex_post_ratio(list(rows), [e] * len(rows[0]))


def _svt_document(inst: QueryPair, k: int) -> dict[str, Any]:
    eps = _svt_epsilon(k)
    cutoff = "c = 1" if k in (1, 2, 3, 4) else "no cutoff"
    statement = f"Lyu et al.'s Algorithm {k} ({cutoff}, geometric noise) is eps-DP, eps = {eps}"
    doc = _skeleton(f"Lyu, Su, Li 2017: {statement}")
    doc["mechanisms"]["q"] = deterministic_mechanism("g", {"D": inst.q, "D'": inst.q2})
    doc["mechanisms"]["S"] = {
        "algorithm": "sparse_vector",
        "inputs": ["q"],
        "params": {"variant": f"lyu{k}", "epsilon": expr_text(eps), "noise": "geometric"},
    }
    doc["claims"].append(
        claim_entry(
            f"lyu2017.alg{k}",
            "S",
            "pure_dp",
            "refuted",
            epsilon=expr_text(eps),
            statement=statement + " on the query answers q (all_differ neighbours)",
            source=f"{LYU}, Algorithm {k}",
        )
    )
    return doc


def _svt(k: int, expected: str, statement: str, notes: str) -> None:
    _register(
        SearchableClaim(
            id=f"lyu2017.alg{k}",
            statement=statement,
            source=f"{LYU}, Algorithm {k}",
            expected=expected,  # type: ignore[arg-type]
            space=QueryPairSpace(n=(1, 4)),
            screen=functools.partial(_svt_screen, k=k),
            document=functools.partial(_svt_document, k=k),
            default_instances=5000,
            notes=notes,
        )
    )


_svt(
    1,
    "holds",
    "Lyu et al.'s sparse vector Algorithm 1 (c = 1) is eps-DP on every pair of neighbouring "
    "query vectors",
    "query vectors of length 1-4, answers in -1..2, all_differ neighbours; W = e^-u = 4/5",
)
_svt(
    5,
    "refuted",
    "Lyu et al.'s Algorithm 5 (no query noise, no cutoff) is eps-DP",
    "false: the search finds the query vectors itself (infinite loss)",
)
_svt(
    6,
    "refuted",
    "Lyu et al.'s Algorithm 6 (no cutoff) is eps-DP",
    "false: the loss grows with the number of answers that flip",
)

"""Ghazi et al. 2025: the search spaces of Theorems 8–11, 13 and 16 and their variants.

Each function returns the :class:`~verifier.claims.SearchSpec` of a claim registered in
:mod:`.claims`: the instance space (base mechanisms that are exactly ``log(a)``-DP
pairs with rational probabilities, sensitivity-1 tables, or finite adversaries), a float
screen (realized/claimed) and the exact document whose target claim carries the claim's
id.  Claimed bounds ``e^{c ε_i + ε'}`` are written as ``log`` of the exact rational
``a_i^c e^{ε'}``, so every exact check runs in rational arithmetic.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.algorithms.ghazi import BOTTOM, output_index
from verifier.claims import SearchSpec
from verifier.search import screens
from verifier.search.certificates import (
    add_base_mechanisms,
    claim_entry,
    derived_outputs,
    deterministic_mechanism,
    expr_text,
    float_rows,
    frac_text,
    log_text,
    skeleton_document,
)
from verifier.search.spaces import (
    PRIME_BUDGETS,
    PairMech,
    Selection,
    SelectionSpace,
    Table,
    TableSpace,
)
from verifier.spec import output_label

from .adversaries import AdversarySpace, adversary_document, adversary_screen
from .theory import theorem13_bound

__all__ = [
    "alg1_search",
    "alg2_search",
    "alg3_geometric_search",
    "filter_search",
    "thm13_search",
]

GHAZI = "Ghazi et al. 2025"
F = Fraction

#: Instances each search screens in ``verifier casestudies`` (``verifier search`` uses the
#: larger ``default_instances``): the whole case study stays within about two minutes.
CASESTUDIES_BUDGET = 1500


# ---------------------------------------------------------------------------
# Ghazi et al. 2025, Algorithm 3 (Theorems 11 and 11 without the factor 2)
# ---------------------------------------------------------------------------


def _alg3_screen(inst: Selection, factor: int) -> float:
    mechs = float_rows(inst.mechs)
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
    out: dict[str, Any] = {}
    for o in outputs:
        i = output_index(o)
        if i is None:
            out[output_label(o)] = bottom
        else:
            out[output_label(o)] = log_text(mechs[i - 1].a ** factor * ep)
    return out


def _alg3_outputs(inst: Selection) -> list[Any]:
    """The outputs of Algorithm 3 on ``inst``, in the order of
    :func:`~verifier.algorithms.ghazi.hyperparameter_tuning`: ``⊥``, then ``(o, i)``
    by score ``o`` (the outputs ``0..m_i - 1`` of each pair mechanism share one
    order) and mechanism ``i`` — known without building the mechanism."""
    top = max(pm.m for pm in inst.mechs)
    return [BOTTOM] + [
        (o, i + 1) for o in range(top) for i, pm in enumerate(inst.mechs) if o < pm.m
    ]


def _alg3_document(inst: Selection, claim_id: str, factor: int, statement: str) -> dict[str, Any]:
    doc = skeleton_document(f"Ghazi et al. 2025, Algorithm 3: {statement}")
    names = add_base_mechanisms(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "ghazi_hyperparameter_tuning",
        "inputs": names,
        "params": {
            "epsilons": [log_text(pm.a) for pm in inst.mechs],
            "eps_prime": log_text(inst.param),
            "prior": "geometric",
        },
    }
    epsilon_tilde = _selection_bounds(_alg3_outputs(inst), inst.mechs, inst.param, factor, 0)
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "ex_post",
            "refuted",
            epsilon_tilde=epsilon_tilde,
            statement=statement
            + f" (eps~(o,i) written as log(a_i^{factor} e^eps'), a_i = e^eps_i)",
            source=f"{GHAZI}, Theorem 11",
        )
    )
    return doc


def alg3_geometric_search(claim_id: str, factor: int, statement: str, notes: str) -> SearchSpec:
    """Algorithm 3 (geometric prior) against ``ε̃(o, i) = factor·ε_i + ε'``, ``ε̃(⊥) = 0``
    (Theorem 11 for ``factor = 2``)."""
    return SearchSpec(
        space=SelectionSpace(d=(1, 3), m=(2, 3), params=PRIME_BUDGETS),
        screen=functools.partial(_alg3_screen, factor=factor),
        document=functools.partial(
            _alg3_document, claim_id=claim_id, factor=factor, statement=statement
        ),
        default_instances=20000,
        casestudies_instances=CASESTUDIES_BUDGET,
        notes=notes,
    )


# ---------------------------------------------------------------------------
# Algorithm 2 (Theorem 10)
# ---------------------------------------------------------------------------


def _alg2_screen(inst: Selection) -> float:
    mechs = float_rows(inst.mechs)
    xs = [1 / float(pm.a) for pm in inst.mechs]
    lep = math.log(inst.param)
    labels, rows = screens.alg2(mechs, xs, 1 / float(inst.param), inst.tau)
    bounds = [
        lep if lab == "⊥" else 2 * math.log(inst.mechs[lab[1] - 1].a) + lep  # type: ignore[index]
        for lab in labels
    ]
    return screens.ex_post_ratio(rows, bounds)


def _alg2_document(inst: Selection, claim_id: str) -> dict[str, Any]:
    statement = (
        "Algorithm 2 (threshold tau, random dropping) on log(a_i)-DP mechanisms is ex-post DP "
        "with eps~(o,i) = 2 eps_i + eps', eps~(bot) = eps'"
    )
    doc = skeleton_document(f"Ghazi et al. 2025, Algorithm 2: {statement}")
    names = add_base_mechanisms(doc, inst.mechs)
    doc["mechanisms"]["A"] = {
        "algorithm": "ghazi_generalized_above_threshold",
        "inputs": names,
        "params": {
            "epsilons": [log_text(pm.a) for pm in inst.mechs],
            "eps_prime": log_text(inst.param),
            "threshold": inst.tau,
        },
    }
    epsilon_tilde = _selection_bounds(
        derived_outputs(doc, "A"), inst.mechs, inst.param, 2, log_text(inst.param)
    )
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "ex_post",
            "refuted",
            epsilon_tilde=epsilon_tilde,
            statement=statement,
            source=f"{GHAZI}, Theorem 10",
        )
    )
    return doc


def alg2_search(claim_id: str) -> SearchSpec:
    """Algorithm 2 against Theorem 10's ``ε̃(o, i) = 2ε_i + ε'``, ``ε̃(⊥) = ε'``."""
    return SearchSpec(
        space=SelectionSpace(d=(1, 3), m=(2, 3), params=PRIME_BUDGETS, tau=True),
        screen=_alg2_screen,
        document=functools.partial(_alg2_document, claim_id=claim_id),
        default_instances=20000,
        casestudies_instances=CASESTUDIES_BUDGET,
        notes="1-3 mechanisms, 2-3 outputs, every threshold rank",
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
    doc = skeleton_document(f"Ghazi et al. 2025, Algorithm 1: {statement}")
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
    epsilon_tilde: dict[str, Any] = {}
    for o in derived_outputs(doc, "A"):
        idx = output_index(o)
        epsilon_tilde[output_label(o)] = (
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
            epsilon_tilde=epsilon_tilde,
            statement=statement,
            source=f"{GHAZI}, Theorem {8 if factor == 2 else 9}",
        )
    )
    return doc


def alg1_search(
    claim_id: str, factor: int, monotone: bool, statement: str, notes: str
) -> SearchSpec:
    """Algorithm 1 against ``ε̃(o, i) = factor·ε_i + ε'``, ``ε̃(⊥) = ε'`` on sensitivity-1
    tables (monotone ones when ``monotone``): Theorem 8 (``factor = 2``), Theorem 9
    (``factor = 1``, monotone)."""
    return SearchSpec(
        space=TableSpace(monotone=monotone),
        screen=functools.partial(_alg1_screen, factor=factor),
        document=functools.partial(
            _alg1_document, claim_id=claim_id, factor=factor, statement=statement
        ),
        default_instances=20000,
        casestudies_instances=CASESTUDIES_BUDGET,
        notes=notes,
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
    labels, rows = screens.alg3_exponential(float_rows(inst.mechs), eps_f, ep)
    tau = sum(ep / (ep + e) for e in eps_f)
    bot = math.log(tau + 1) / (a - 1)
    vals = []
    for i, e in enumerate(eps_f):
        ell = float(ells[i])
        others = sum(math.exp(-x * (1 + a * ell)) for j, x in enumerate(eps_f) if j != i)
        vals.append((2 + ell) * e + (1 + ell) * ep + (math.log(tau + 1) + others) / (a - 1))
    bounds = [bot if lab == "⊥" else vals[lab[1] - 1] for lab in labels]  # type: ignore[index]
    return screens.rdp_sum_ratio(rows, bounds, a)


def _thm13_document(inst: Selection, claim_id: str) -> dict[str, Any]:
    a = inst.alpha
    statement = (
        f"Theorem 13: Algorithm 3 with prior Exp(eps') on (alpha, eps_i)-RDP mechanisms is "
        f"ex-post (alpha, eps~)-RDP (alpha = {a}, eps_i the exact RDP eps of M_i, data-free "
        f"ell_i >= 0)"
    )
    doc = skeleton_document(f"Ghazi et al. 2025, {statement}")
    names = add_base_mechanisms(doc, inst.mechs, premise=False)
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
    epsilon_tilde = {output_label(o): expr_text(bound(o)) for o in derived_outputs(doc, "A")}
    doc["claims"].append(
        claim_entry(
            claim_id,
            "A",
            "ex_post_rdp",
            "refuted",
            epsilon_tilde=epsilon_tilde,
            alpha=a,
            statement=statement + f"; ell = {[str(x) for x in ells]}",
            source=f"{GHAZI}, Theorem 13",
        )
    )
    return doc


def thm13_search(claim_id: str) -> SearchSpec:
    """Algorithm 3 (exponential prior) against Theorem 13's ex-post RDP bound."""
    return SearchSpec(
        space=SelectionSpace(
            d=(1, 3),
            m=(2, 3),
            params=(F(1, 10), F(1, 4), F(1, 2), F(1), F(2)),
            alphas=(2, 3),
        ),
        screen=_thm13_screen,
        document=functools.partial(_thm13_document, claim_id=claim_id),
        default_instances=10000,
        casestudies_instances=CASESTUDIES_BUDGET // 2,
        notes="eps_i = exact RDP eps of each base mechanism; ell_i = data-free optimum rounded "
        "down to 1/32; eps' in {1/10 .. 2}, alpha in {2, 3}",
    )


def filter_search(claim_id: str, enforce: bool, notes: str) -> SearchSpec:
    """Algorithm 4 (the ex-post RDP filter, Theorem 16) against finite adversaries; without
    the filter when ``enforce`` is false."""
    return SearchSpec(
        space=AdversarySpace(),
        screen=functools.partial(adversary_screen, enforce=enforce),
        document=functools.partial(adversary_document, claim_id=claim_id, enforce=enforce),
        default_instances=10000,
        casestudies_instances=CASESTUDIES_BUDGET,
        notes=notes,
    )

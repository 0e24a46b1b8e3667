"""Exact values beside an accountant's bounds, on the same instance.

A *comparison* runs one selection algorithm on randomized response for several mean
numbers of runs and reports, per row:

* the **exact** pure ε of the algorithm's output distribution and its exact
  ``ε(δ)`` (:func:`~verifier.interop.exact.epsilon_for_delta`), both proved;
* the **accountant**'s ``ε(δ)``: ``dp_accounting``'s RDP accountant for the event
  that describes the same algorithm (``RepeatAndSelectDpEvent`` around a
  ``RandomizedResponseDpEvent``), where one exists, and the ratio accountant / exact;
* the ``ε(δ)`` of ``dp_accounting``'s PLD built from the exact output distributions
  (:func:`~verifier.interop.accounting.to_pld`), a check of the export;
* the pure-ε bounds papers prove for the algorithm, when a case study has registered
  them (:func:`register_published_bound`; the engine states no theorem).

Each accountant figure is also *checked*: an accountant claims (ε_acc, δ)-DP, so
``ε(δ) <= ε_acc`` must hold for the exact ``ε(δ)``; the comparison's verdict is
violated if an accountant understates the loss, decided exactly (the accountant's
double taken at its exact binary value).

Algorithms:

* ``random_stopping`` — repeat-and-select with a geometric count of mean ``m``
  (``γ = 1/m``; Liu & Talwar 2019's random stopping; Papernot & Steinke 2022's
  truncated negative binomial with shape 1) or a Poisson count
  (:mod:`verifier.algorithms.repeat_select`);
* ``ghazi_hyperparameter_tuning`` — Ghazi et al. 2025, Algorithm 3 with one
  mechanism (budget ``ε_1`` = its pure ε), the geometric prior ``Geom_{e^{-ε'}}`` and
  ``T`` copies: it runs the mechanism ``T · E_k[e^{-ε_1 k}]`` times on average, and
  ``T`` is the least integer reaching the requested mean.  No ``dp_accounting``
  event describes its count (a geometric mixture of binomials).
* ``composition`` — ``k`` independent runs of randomized response, every answer
  released (``means`` are the counts ``k``): the exact ε(δ) from the composed privacy
  loss distribution (:class:`verifier.accounting.Accountant`, ``k + 1`` atoms: no
  product mechanism is built), beside ``dp_accounting``'s RDP and PLD accountants on
  ``SelfComposedDpEvent(RandomizedResponseDpEvent, k)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy as sp

from ..arithmetic.exact import Verdict, approx, combine_verdicts, decide_le, exact
from ..checks.certified import certified_ceil
from ..errors import InvalidParameter
from ..mechanism.instances import randomized_response
from ..mechanism.model import FiniteMechanism
from ..runtime.terminal import text_table
from .exact import epsilon_for_delta, exact_float

__all__ = [
    "ALGORITHMS",
    "DEFAULT_DELTA",
    "PublishedBound",
    "PUBLISHED_BOUNDS",
    "register_published_bound",
    "CompareRow",
    "Comparison",
    "compare",
]

#: The default δ of :func:`compare`: ``10^-6``.
DEFAULT_DELTA = sp.Rational(1, 10**6)

#: The algorithms :func:`compare` knows.
ALGORITHMS = ("random_stopping", "ghazi_hyperparameter_tuning", "composition")


@dataclass(frozen=True)
class PublishedBound:
    """A pure-ε bound a paper proves for an algorithm of :data:`ALGORITHMS`.

    ``bound(params)`` receives the row's parameters (``eps0``, ``mean``, ``count``,
    ``gamma`` for ``random_stopping``; ``eps``, ``eps_prime``, ``copies``, ``mean``
    for ``ghazi_hyperparameter_tuning``) and returns the bound, or ``None`` where it
    does not apply.
    """

    algorithm: str
    source: str
    bound: Callable[[Mapping[str, Any]], Any]


#: Registered published bounds, by algorithm (case studies add theirs on import).
PUBLISHED_BOUNDS: dict[str, list[PublishedBound]] = {}


def register_published_bound(
    algorithm: str, source: str, bound: Callable[[Mapping[str, Any]], Any]
) -> PublishedBound:
    """Register ``bound`` (see :class:`PublishedBound`) for ``algorithm``; a second
    registration with the same source replaces the first."""
    if algorithm not in ALGORITHMS:
        raise InvalidParameter(f"unknown algorithm {algorithm!r} (known: {', '.join(ALGORITHMS)})")
    pb = PublishedBound(algorithm, source, bound)
    entries = [b for b in PUBLISHED_BOUNDS.get(algorithm, []) if b.source != source]
    PUBLISHED_BOUNDS[algorithm] = [*entries, pb]
    return pb


@dataclass
class CompareRow:
    """One instance: the exact values, the accountants' figures and the bounds (in
    :meth:`to_dict` a number's ``exact`` text is ``null`` when it has more than 1000
    digits; its ``value`` is always given)."""

    mean: sp.Expr
    params: dict[str, Any]
    exact_pure: sp.Expr
    exact_at_delta: sp.Expr
    accountant: float | None
    accountant_event: str
    pld: float | None
    published: dict[str, sp.Expr] = field(default_factory=dict)
    verdict: Verdict = Verdict.HOLDS
    #: where ``pld`` comes from: dp_accounting's PLD of the exact output distributions
    #: (``"export"``, JSON key ``pld_of_exact_epsilon``) or its PLD accountant on the
    #: algorithm's own event (``"accountant"``, JSON key ``pld_accountant_epsilon``)
    pld_source: str = "export"

    @property
    def ratio(self) -> float | None:
        """accountant ε(δ) / exact ε(δ) (display)."""
        if self.accountant is None:
            return None
        e = approx(self.exact_at_delta)
        return self.accountant / e if e > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        def num(x: sp.Expr) -> dict[str, Any]:
            return {"exact": _exact_text(x), "value": approx(x)}

        return {
            "mean": num(self.mean),
            "params": {k: str(v) for k, v in self.params.items()},
            "exact_pure_epsilon": num(self.exact_pure),
            "exact_epsilon_at_delta": num(self.exact_at_delta),
            "accountant_epsilon": self.accountant,
            "accountant_event": self.accountant_event,
            "ratio": self.ratio,
            (
                "pld_accountant_epsilon"
                if self.pld_source == "accountant"
                else "pld_of_exact_epsilon"
            ): self.pld,
            "published": {k: num(v) for k, v in self.published.items()},
            "verdict": self.verdict.value,
        }


@dataclass
class Comparison:
    """Rows of :class:`CompareRow` for one algorithm and base mechanism."""

    algorithm: str
    title: str
    delta: sp.Expr
    rows: list[CompareRow]
    notes: list[str] = field(default_factory=list)
    accountants: bool = True

    @property
    def verdict(self) -> Verdict:
        """Violated if some accountant understates the exact ε(δ)."""
        return combine_verdicts(r.verdict for r in self.rows)

    @property
    def compared(self) -> int:
        """The rows with some accountant figure (RDP or PLD) set beside the exact ε(δ):
        a comparison of none says nothing about soundness."""
        return sum(1 for r in self.rows if r.accountant is not None or r.pld is not None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "title": self.title,
            "delta": str(self.delta),
            "rows": [r.to_dict() for r in self.rows],
            "notes": self.notes,
            "accountants": self.accountants,
            "compared_rows": self.compared,
            "verdict": self.verdict.value,
        }

    def table(self, *, width: int | None = None) -> str:
        """The comparison as a plain-text table, fitted to ``width`` columns (default:
        the terminal's when standard output is one; unlimited in a file or pipe)."""
        d = format(approx(self.delta), "g")
        sources = sorted({s for r in self.rows for s in r.published})
        composition = self.algorithm == "composition"
        head = [
            "runs k" if composition else "mean runs",
            "exact pure eps",
            "exact eps(δ)",
            f"{'RDP accountant' if composition else 'accountant'} eps(δ)",
            "accountant/exact",
            f"{'PLD accountant' if composition else 'PLD of exact pair'} eps(δ)",
            *sources,
        ]
        body = []
        for r in self.rows:
            body.append(
                [
                    _short(r.mean),
                    _short(r.exact_pure),
                    _short(r.exact_at_delta),
                    (
                        f"{r.accountant:.4f}"
                        if r.accountant is not None
                        else ("unsupported" if self.accountants else "-")
                    ),
                    "-" if r.ratio is None else f"{r.ratio:.3f}",
                    "-" if r.pld is None else f"{r.pld:.4f}",
                    *[_short(r.published[s]) if s in r.published else "-" for s in sources],
                ]
            )
        lines = [self.title, f"δ = {d}", ""]
        # on a terminal the columns fold (headers at their spaces) to fit its width
        lines.append(text_table(head, body, width=width, min_width=8))
        events = sorted({r.accountant_event for r in self.rows if r.accountant_event})
        lines.append("")
        for e in events:
            lines.append(f"accountant: {e}")
        lines.extend(self.notes)
        if not self.accountants:
            return "\n".join(lines)
        if not self.compared:
            lines.append("verdict: no accountant figure (every row unsupported): nothing compared")
            return "\n".join(lines)
        lines.append(
            "verdict: "
            + {
                Verdict.HOLDS: "every accountant figure is at least the exact eps(δ) (sound)",
                Verdict.VIOLATED: "an accountant figure is below the exact eps(δ): unsound",
                Verdict.UNDECIDED: "undecided at the precision limit",
            }[self.verdict]
        )
        return "\n".join(lines)


def _exact_text(x: sp.Expr, max_digits: int = 1000) -> str | None:
    """``str(x)``, or ``None`` when one of its numbers has more than ``max_digits``
    digits (Algorithm 3 with many copies has rational probabilities of thousands of
    digits: their exact values stay in the mechanism, not in a table)."""
    limit = max_digits * 3.33
    for a in x.atoms(sp.Rational):
        if max(int(a.p).bit_length(), int(a.q).bit_length()) > limit:
            return None
    return str(x)


def _short(x: sp.Expr) -> str:
    if x is sp.oo:
        return "inf"
    if x.is_Integer and (_exact_text(x, 18) is not None):
        return str(x)
    text = _exact_text(x, 18)
    value = f"{approx(x):.4f}"
    return f"{text} ≈ {value}" if text is not None and len(text) <= 18 else value


def _check(exact_eps: sp.Expr, claimed: float | None) -> Verdict:
    if claimed is None:
        return Verdict.HOLDS
    if math.isinf(claimed):
        return Verdict.HOLDS
    return decide_le(exact_eps, exact_float(claimed)).verdict


def _published(algorithm: str, params: Mapping[str, Any]) -> dict[str, sp.Expr]:
    out: dict[str, sp.Expr] = {}
    for pb in PUBLISHED_BOUNDS.get(algorithm, []):
        value = pb.bound(params)
        if value is not None:
            out[pb.source] = exact(value)
    return out


def _row(
    algorithm: str,
    mech: FiniteMechanism,
    mean: sp.Expr,
    params: dict[str, Any],
    delta: sp.Expr,
    event: Any,
    event_text: str,
    accountants: bool,
) -> CompareRow:
    pure = epsilon_for_delta(mech, delta=0).value
    at_delta = epsilon_for_delta(mech, delta=delta).value
    acc = pld_eps = None
    if accountants:
        from .accounting import accountant_epsilon, to_pld

        d = approx(delta)
        if event is not None:
            acc = accountant_epsilon(event, d, "rdp")
        pld_eps = float(to_pld(mech).get_epsilon_for_delta(d))
    row = CompareRow(
        mean,
        params,
        pure,
        at_delta,
        acc,
        event_text if event is not None else "",
        pld_eps,
        _published(algorithm, {**params, "mean": mean}),
    )
    row.verdict = combine_verdicts([_check(at_delta, acc), _check(at_delta, pld_eps)])
    return row


def compare(
    algorithm: str = "random_stopping",
    *,
    eps0: Any = None,
    means: Sequence[Any] = (10, 100, 1000),
    delta: Any = DEFAULT_DELTA,
    count: str = "geometric",
    shape: Any = None,
    eps_prime: Any = None,
    accountants: bool = True,
) -> Comparison:
    """Compare the exact privacy of ``algorithm`` run on randomized response
    (``ε0``-DP, default ``log 3``) with ``dp_accounting``'s figures, one row per mean
    number of runs.

    Parameters
    ----------
    algorithm : {"random_stopping", "ghazi_hyperparameter_tuning", "composition"}
    eps0 : number
        The pure ε of the base randomized response (exact; default ``log 3``).
    means : sequence of numbers
        Mean numbers of runs (exact, ``>= 1``; for ``composition`` the integer counts).
    delta : number
        The δ of every ε(δ) (exact, in ``(0, 1)``).
    count : {"geometric", "poisson", "logarithmic", "truncated_negative_binomial"}
        The count of ``random_stopping`` (Papernot & Steinke 2022, §2).  The last two
        are selection programs (:mod:`verifier.programs.selection`) whose parameter
        ``γ`` is a rational chosen so that the mean is close to each requested mean;
        the row shows the exact mean.
    shape : number
        The shape ``η > -1`` of the truncated negative binomial count (default 1/2).
    eps_prime : number
        ``ε'`` of Algorithm 3's geometric prior (default ``log(5/3)``: with
        ``ε0 = log 3`` each copy runs with probability 1/2 on average).
    accountants : bool
        Ask ``dp_accounting`` (needs the ``interop`` extra); ``False`` gives the exact
        columns only.
    """
    if algorithm not in ALGORITHMS:
        raise InvalidParameter(f"unknown algorithm {algorithm!r} (known: {', '.join(ALGORITHMS)})")
    e0 = sp.log(3) if eps0 is None else exact(eps0)
    if decide_le(e0, 0).verdict is not Verdict.VIOLATED:
        raise InvalidParameter(f"eps0 must be > 0, got {e0}")
    dl = exact(delta)
    if decide_le(dl, 0).verdict is not Verdict.VIOLATED or decide_le(1, dl).verdict is not (
        Verdict.VIOLATED
    ):
        raise InvalidParameter(f"delta must lie in (0, 1), got {dl}")
    ms = [exact(m) for m in means]
    for m in ms:
        if m.free_symbols or decide_le(1, m).verdict is not Verdict.HOLDS:
            raise InvalidParameter(f"a mean number of runs must be a number >= 1, got {m}")
    rr = randomized_response(e0)
    rows: list[CompareRow] = []
    notes: list[str] = []
    if algorithm == "composition":
        title, rows, notes = _composition(rr, e0, ms, dl, accountants)
    elif algorithm == "random_stopping" and count in PROGRAM_COUNTS:
        title, rows = _program_count_rows(rr, e0, ms, dl, count, shape, accountants)
    elif algorithm == "random_stopping":
        from ..algorithms.liu_talwar import SCORES
        from ..algorithms.repeat_select import COUNTS, repeat_and_select

        if count not in COUNTS:
            raise InvalidParameter(f"unknown count {count!r} (known: {', '.join(COUNTS)})")
        title = (
            f"randomized response (eps0 = {e0}) run a {count} number of times "
            f"(mean m), best output released"
        )
        for m in ms:
            mech = repeat_and_select(rr, count, m, SCORES["self"])
            event = text = None
            if accountants:
                from .accounting import randomized_response_event, require

                E = require().dp_event
                shape = 1 if count == "geometric" else math.inf
                rr_event = randomized_response_event(e0)
                event = E.RepeatAndSelectDpEvent(rr_event, approx(m, 17), shape)
                text = (
                    f"dp_accounting RDP (default orders), RepeatAndSelectDpEvent("
                    f"RandomizedResponseDpEvent(noise_parameter={rr_event.noise_parameter!r}, "
                    f"num_buckets=2), mean=m, shape={shape})"
                )
            params: dict[str, Any] = {"eps0": e0, "count": count}
            if count == "geometric":
                params["gamma"] = 1 / m
            rows.append(_row(algorithm, mech, m, params, dl, event, text or "", accountants))
    else:
        from ..algorithms.ghazi import hyperparameter_tuning
        from ..algorithms.ghazi_series import Prior

        ep = sp.log(sp.Rational(5, 3)) if eps_prime is None else exact(eps_prime)
        if decide_le(ep, 0).verdict is not Verdict.VIOLATED:
            raise InvalidParameter(f"eps_prime must be > 0, got {ep}")
        per_copy = Prior("geometric", ep).moment(e0, sp.exp(-e0))  # E_k[e^{-ε_1 k}]
        title = (
            f"Ghazi et al. 2025, Algorithm 3 on randomized response (eps_1 = {e0}), geometric "
            f"prior with eps' = {ep}, T copies (mean runs T*{per_copy})"
        )
        for m in ms:
            T = max(1, certified_ceil(m / per_copy))
            mech = hyperparameter_tuning([rr], [e0], ep, copies=[T])
            params = {"eps": [e0], "eps_prime": ep, "copies": T}
            rows.append(_row(algorithm, mech, T * per_copy, params, dl, None, "", accountants))
        if accountants:
            notes.append(
                "accountant: dp_accounting has no event for Algorithm 3's count (a geometric "
                "mixture of binomials): 'unsupported'"
            )
    if not accountants:
        notes.append("--exact-only: dp_accounting was not asked")
    return Comparison(algorithm, title, dl, rows, notes, accountants)


#: Counts of ``random_stopping`` built as selection programs (Papernot & Steinke 2022,
#: §2: the logarithmic distribution is the truncated negative binomial with η = 0).
PROGRAM_COUNTS = ("logarithmic", "truncated_negative_binomial")


def _float_mean(count: str, eta: float, gamma: float) -> float:
    """The mean of the count at ``γ`` in floating point (only to choose ``γ``):
    ``(1-γ)/(γ log(1/γ))`` for the logarithmic count, ``η(1-γ)/(γ(1-γ^η))`` for the
    truncated negative binomial (Papernot & Steinke 2022, §2)."""
    if count == "logarithmic" or eta == 0:
        return (1 - gamma) / (gamma * math.log(1 / gamma))
    return eta * (1 - gamma) / (gamma * (1 - gamma**eta))


def _gamma_for_mean(count: str, eta: float, mean: float) -> Fraction:
    """A rational ``γ`` whose count has a mean close to ``mean`` (the mean decreases in
    ``γ``; bisection in floating point, then a rational with a small denominator)."""
    lo, hi = 1e-15, 1 - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2
        if _float_mean(count, eta, mid) > mean:
            lo = mid
        else:
            hi = mid
    g = Fraction(lo).limit_denominator(10**6)
    return g if 0 < g < 1 else Fraction(1, 2)


def _program_count_rows(
    rr: FiniteMechanism,
    e0: sp.Expr,
    means: Sequence[sp.Expr],
    delta: sp.Expr,
    count: str,
    shape: Any,
    accountants: bool,
) -> tuple[str, list[CompareRow]]:
    """Random stopping with a logarithmic or truncated negative binomial count, exact
    from its selection program; dp_accounting's ``RepeatAndSelectDpEvent`` takes the
    same mean and shape (it knows shapes ``>= 0``)."""
    from ..programs.counts import logarithmic, truncated_negative_binomial
    from ..programs.selection import SelectionProgram, selection_mechanism

    eta = (
        sp.Integer(0)
        if count == "logarithmic"
        else exact(sp.Rational(1, 2) if shape is None else shape)
    )
    if count == "truncated_negative_binomial" and not eta.is_Rational:
        raise InvalidParameter(f"the shape eta must be a rational > -1, got {eta}")
    title = (
        f"randomized response (eps0 = {e0}) run a {count} number of times"
        + (f" (eta = {eta})" if count != "logarithmic" else "")
        + ", best output released (gamma chosen for each mean m)"
    )
    rows = []
    for m in means:
        gamma = _gamma_for_mean(count, float(eta), approx(m))
        law = (
            logarithmic(gamma)
            if count == "logarithmic"
            else truncated_negative_binomial(eta, gamma)
        )
        mech = selection_mechanism(SelectionProgram([rr], law, score="self"))
        event = text = None
        if accountants and eta >= 0:
            from .accounting import randomized_response_event, require

            rr_event = randomized_response_event(e0)
            event = require().dp_event.RepeatAndSelectDpEvent(
                rr_event, approx(law.mean, 17), float(eta)
            )
            text = (
                f"dp_accounting RDP (default orders), RepeatAndSelectDpEvent("
                f"RandomizedResponseDpEvent(noise_parameter={rr_event.noise_parameter!r}, "
                f"num_buckets=2), mean=m, shape={float(eta)})"
            )
        params: dict[str, Any] = {
            "eps0": e0,
            "count": count,
            "gamma": sp.Rational(gamma),
            "eta": eta,
        }
        rows.append(
            _row("random_stopping", mech, law.mean, params, delta, event, text or "", accountants)
        )
    return title, rows


def _composition(
    rr: FiniteMechanism, e0: sp.Expr, ms: list[sp.Expr], dl: sp.Expr, accountants: bool
) -> tuple[str, list[CompareRow], list[str]]:
    """The rows of ``composition``: ``k`` runs of ``rr`` for each ``k`` of ``ms``."""
    from ..accounting import Accountant

    title = f"randomized response (eps0 = {e0}) run k times, every answer released"
    rows: list[CompareRow] = []
    for m in ms:
        if not m.is_Integer:
            raise InvalidParameter(f"a number of runs must be an integer, got {m}")
        k = int(m)
        acc = Accountant().compose(rr, count=k)
        pure = acc.epsilon(delta=0).value
        at_delta = acc.epsilon(delta=dl).value
        rdp = pld = None
        text = ""
        if accountants:
            from .accounting import accountant_epsilon, randomized_response_event, require

            E = require().dp_event
            rr_event = randomized_response_event(e0)
            event = E.SelfComposedDpEvent(rr_event, k)
            rdp = accountant_epsilon(event, approx(dl), "rdp")
            pld = accountant_epsilon(event, approx(dl), "pld")
            text = (
                f"dp_accounting RDP (default orders) and PLD, SelfComposedDpEvent("
                f"RandomizedResponseDpEvent(noise_parameter={rr_event.noise_parameter!r}, "
                f"num_buckets=2), k)"
            )
        row = CompareRow(
            m, {"eps0": e0, "k": k}, pure, at_delta, rdp, text, pld, pld_source="accountant"
        )
        row.verdict = combine_verdicts([_check(at_delta, rdp), _check(at_delta, pld)])
        rows.append(row)
    notes = [
        "exact: the composed privacy loss distribution (k + 1 atoms), not the 2^k outputs",
        "pld: dp_accounting's PLD accountant on the same event (not the export of the "
        "exact distribution)",
    ]
    return title, rows, notes

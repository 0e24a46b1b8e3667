"""Ghazi, Kamath, Knop, Kumar, Manurangsi, Zhang 2025, "Private Hyperparameter
Tuning with Ex-Post Guarantee" — Lemma 7 (conversions between ex-post notions).

Lemma 7: (i) ex-post ε̃-DP ⇒ ex-post (α, ε̃)-RDP for every α > 1;
(ii) ex-post (α, ε̃)-RDP ⇒ ex-post (ε̃ + log(1/δ)/(α-1), δ)-DP.
Both are checked as implications on seeded random finite mechanisms with exact
rational probabilities, with ε̃ their exact realized ex-post loss (so the premise of
(i) holds and the conclusion is tested non-vacuously), and with ε̃ the constant RDP ε
(Def 6 then holds with equality: a tight instance).
"""

from __future__ import annotations

import sympy as sp

from casestudies import claim
from verifier.instances import random_mechanism, randomized_response
from verifier.neighbours import pair, path
from verifier.privacy import (
    check_ex_post_approx,
    check_ex_post_rdp,
    check_lemma7,
    rdp_epsilon,
    realized_ex_post_epsilon,
)
from verifier.results import CheckResult, conjunction

R = sp.Rational
SOURCE = "Ghazi et al. 2025"
ALPHAS = (R(3, 2), R(2), R(5))
DELTAS = (R(1, 10), R(1, 10**6))


def _instances() -> list:
    out = [random_mechanism(pair(), 4, seed=s, name=f"random4[{s}]") for s in range(3)]
    out += [random_mechanism(path(2), 3, seed=10 + s, name=f"random3-path[{s}]") for s in range(2)]
    return out


@claim(
    id="ghazi2025.lemma7.realized",
    source=f"{SOURCE}, Lemma 7",
    statement="(i) ex-post eps~-DP => ex-post (alpha, eps~)-RDP and (ii) => ex-post "
    "(eps~ + log(1/delta)/(alpha-1), delta)-DP, with eps~ = realized ex-post loss, on random "
    "finite mechanisms, alpha in {3/2, 2, 5}, delta in {1e-1, 1e-6}",
    expected="holds",
)
def lemma7_realized() -> CheckResult:
    parts = []
    for m in _instances():
        eps_tilde = realized_ex_post_epsilon(m).as_dict()
        for a in ALPHAS:
            for d in DELTAS:
                parts.append(check_lemma7(m, eps_tilde, a, d))
    return conjunction("Lemma 7 on random mechanisms", parts)


@claim(
    id="ghazi2025.lemma7.rdp_constant",
    source=f"{SOURCE}, Lemma 7 (ii) / Def 6",
    statement="with constant eps~ = the RDP epsilon at order alpha, Def 6 holds with equality "
    "at the worst pair, and (ii) gives (eps + log(1/delta)/(alpha-1), delta)-DP",
    expected="holds",
)
def lemma7_rdp_constant() -> CheckResult:
    parts = []
    for m in _instances()[:3]:
        for a in (R(2), R(5)):
            eps, _ = rdp_epsilon(m, a)
            parts.append(check_ex_post_rdp(m, eps, a, title=f"Def 6 on {m.name}, alpha={a}"))
            for d in DELTAS:
                parts.append(check_lemma7(m, eps, a, d))
    return conjunction("Lemma 7 (ii) from the RDP epsilon", parts)


@claim(
    id="ghazi2025.lemma7.without_log_term",
    source=f"{SOURCE}, Lemma 7 (ii) (negative control)",
    statement="ex-post (alpha, eps~)-RDP => ex-post (eps~, delta)-DP without the log(1/delta)/"
    "(alpha-1) term (refuted on RR with P = 3/4: D_2 = log(7/3), delta(log 7/3) = 1/6 > 1/100)",
    expected="refuted",
)
def lemma7_without_log_term() -> CheckResult:
    # Hand derivation: p = 3/4, q = 1/4.  D_2(P||Q) = log(p^2/q + q^2/p) = log(9/4 + 1/12)
    # = log(7/3); hockey stick at log(7/3): 3/4 - (7/3)(1/4) = 1/6 at output 1, negative
    # at output 0; so delta = 1/6 and the claim with delta = 1/100 fails.
    m = randomized_response(sp.log(3))
    eps, _ = rdp_epsilon(m, 2)
    rdp = check_ex_post_rdp(m, eps, 2)
    conv = check_ex_post_approx(m, eps, R(1, 100))
    return conjunction("ex-post RDP => (eps~, 1/100)-DP on RR(log 3)", [rdp, conv])

"""The floating-point experiments of DP-Sniper (``dpsniper/experiments/
exp_floating_point.py``): the textbook Laplace mechanism as numpy computes it in
IEEE-754 doubles, which Mironov (2012, "On Significance of the Least Significant Bits
for Differential Privacy", CCS) showed to leak its input through the low-order bits
of its output, and ``LaplaceFixed``, the snapping mechanism of the same paper.

Both are recorded, not decided (``exact=None``; :data:`casestudies.dp_testing.claims.
OUT_OF_REACH` lists them): their exact ε on DP-Sniper's input pairs is a property of
finitely many doubles, but of 2^53 uniform draws per input pushed through the
platform's ``log``, and the reasons below say what would have to be enumerated and
what would make it smaller.  A reduced format (fewer mantissa bits, a correctly
rounded ``log``) would be decidable, but it decides a different mechanism: the
support of the textbook mechanism's output (the attack) and the snapping
mechanism's rounding both depend on the exact width of the format and on the
particular ``log`` implementation, so a small format says nothing certified about
the 53-bit one.
"""

from __future__ import annotations

import sympy as sp

from .suite import SuiteEntry

__all__ = ["ENTRIES", "GRID", "SNAPPING_OUTPUTS"]

#: DP-Sniper's ε (``eps=0.1``), read as the decimal it is written as.
EPS = sp.Rational(1, 10)

#: numpy's uniform doubles are multiples of 2^-53 in [0, 1) (``next_double``: a
#: 53-bit integer times 2^-53): the number of draws per input the exact
#: distribution of either mechanism is a function of.
GRID = 2**53

#: The snapping mechanism's outputs for ``B = 100``: multiples of ``Lambda = 16`` (the
#: smallest power of two at least ``scale = (1 + 100 * 2^-49) / 0.1``) clamped to
#: ``[-100, 100]``.
SNAPPING_OUTPUTS = 15

_PAIRS = "PatternGenerator(InputDomain(1, FLOAT, [-10, 10]), False): (1, 0), (1, 2), swapped"

ENTRIES: list[SuiteEntry] = [
    SuiteEntry(
        name="laplace_floating_point",
        tool="DP-Sniper",
        source="dpsniper/experiments/exp_floating_point.py, run_exp_floating_point: "
        "LaplaceMechanism(eps=0.1) in IEEE-754 doubles (numpy.random.laplace)",
        claimed=EPS,
        pairs=_PAIRS,
        expected="refuted",
        kind="negative-control",
        notes="The Laplace mechanism is eps-DP in real arithmetic (Dwork, McSherry, "
        "Nissim, Smith 2006); its textbook floating-point implementation is not DP for "
        "any finite epsilon in general: Mironov 2012 shows that some doubles are "
        "outputs for one input and never for a neighbouring one, so the output reveals "
        "the input.  DP-Sniper's bit-pattern classifier reports a lower bound 0.2521 > "
        "0.1 (eval_sp2021/reference-results/floating_point_data.log, line 8, eps_lcb).",
        out_of_reach=(
            "the exact distribution of numpy's random_laplace (numpy/random/src/"
            "distributions/distributions.c: U = k * 2^-53 with k in 1..2^53 - 1, "
            "output loc - scale*log(2 - U - U) or loc + scale*log(U + U), every "
            "operation rounded to a double) on the inputs 0, 1, 2 of the pairs: "
            "3 x (2^53 - 1), about 2.7e16, evaluations of the platform's libm log, "
            "which is not correctly rounded, so the answer is a property of one libm; "
            "at 1e8 evaluations per second that is about 8.6 years of one core. "
            "Counting preimages by bisection instead (an output's preimage is an "
            "interval of k when u -> log(u) is monotone after rounding) needs that "
            "monotonicity proved for the libm, which it does not document."
        ),
    ),
    SuiteEntry(
        name="laplace_fixed",
        tool="DP-Sniper",
        source="dpsniper/mechanisms/laplace.py, LaplaceFixed(eps=0.1) "
        "(exp_floating_point.py, run_exp_floating_fixed)",
        claimed=EPS,
        pairs=_PAIRS,
        expected="holds",
        notes="The snapping mechanism clamp_B(round_Lambda(clamp_B(f) + S*lambda*log(U))) "
        "is (1/lambda + 2^-49 B/lambda)-DP for sensitivity 1 when lambda < B < 2^46 lambda "
        "(Mironov 2012, Theorem 1, as the class's docstring cites it); LaplaceFixed sets "
        "lambda = (1 + 2^-49 B)/eps, which makes the bound eps, with B = 100 and "
        "Lambda = 16.  DP-Sniper reports a lower bound 0.0979 "
        "(eval_sp2021/reference-results/floating_fixed_data.log, line 8, eps_lcb).",
        out_of_reach=(
            f"the output takes {SNAPPING_OUTPUTS} values (multiples of Lambda = 16 "
            "clamped to [-100, 100]), but the probability of each is a count of the "
            "uniform draws u = k * 2^-53, k in 0..2^53 - 1 (np.random.uniform), and "
            "signs mapped to it through numpy's float64 log (its own vectorised "
            "implementation, not libm): 2 signs x 3 inputs x 2^53, about 5.4e16, "
            "evaluations.  With u -> fl(log(u)) proved monotone each preimage would "
            "be an interval of k found by bisection (about 14 boundaries x 6 cases x "
            "53 evaluations) and the exact epsilon the log of a ratio of integers; "
            "that monotonicity is the missing premise.  Mironov's Theorem 1 also "
            "assumes his own uniform sampler over the doubles of (0, 1), not numpy's "
            "53-bit grid with 0 included: whether its premise holds for this sampler "
            "is part of what would be decided."
        ),
    ),
]

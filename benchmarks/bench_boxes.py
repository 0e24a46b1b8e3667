"""Box decisions: the registered claims over boxes, and the choice of enclosure engine,
printed as figures and ratios measured in one run (machines are noisy; no absolute
thresholds).

1. Every registered claim over a box (decider ``box``): verdict, seconds, sub-boxes
   examined, undecided and failing shares of the volume, and the total (the figure of
   issue 12: under 10 minutes on a 2-core machine).
2. The enclosure engine: one compiled function (the Def 6 sum of Lemma 7 (i) on
   ``RR(ε)`` with the Rényi order ``α`` a parameter) enclosed on the same sub-boxes by
   mpmath's interval primitives at an explicit precision (what :mod:`verifier.checks.boxes`
   uses), by mpmath interval contexts (:func:`verifier.arithmetic.precision.interval_context`),
   and by python-flint's ``arb`` ball arithmetic when it is installed.  Reported: the
   time ratios and the mean width ratio of the enclosures.
3. The exact route against branch and bound: Theorem 11 on ``RR(ε_1)``, ``RR(ε_2)`` over
   its box, decided by the coefficient certificate of the exponential rewrite and by
   interval branch and bound alone (the route :func:`verifier.checks.boxes.decide_on_box`
   falls back to), with the same budget.

Measured on the 2-core machine (one run): the 16 registered box claims in 37 s in
total (the slowest, Talwar's Prop. 5 with its hockey-stick maxima, 18 s); ball
arithmetic evaluates the benchmarked function 7-15 times faster than mpmath's interval
primitives, but its balls are wider (median 1.24x) and a third of them unusable on
the wider sub-boxes (a logarithm of a ball reaching 0), and the enclosures are a small
part of a decision (the exact rewrites and the exact checks at points dominate): no
decisive end-to-end win, so :mod:`verifier.checks.boxes` stays on mpmath and adds no
dependency.  The exact route is what makes the Ghazi boxes cheap: interval branch and
bound alone leaves Theorem 11's box open after 5000 sub-boxes.

Run: python benchmarks/bench_boxes.py [--skip-claims]
"""

from __future__ import annotations

import math
import random
import sys
import time
from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.arithmetic.precision import interval_context
from verifier.checks.boxes import (
    Box,
    BoxBudget,
    SubBox,
    _iv_rational,
    _Program,
    _raw_fraction,
    _Search,
)
from verifier.claims import load_casestudies

R = sp.Rational


def bench_claims() -> float:
    reg = load_casestudies()
    claims = reg.select(decider="box")
    total = 0.0
    print(f"{'claim':46s} {'verdict':9s} {'seconds':>8s} {'sub-boxes':>9s} undecided failing")
    for c in claims:
        out = c.run()
        total += out.seconds
        boxes = 0
        if out.result is not None:
            boxes = sum(f.region.boxes for f in out.result.all_findings() if f.region is not None)
        und, bad = out.box_fractions() or (Fraction(1), Fraction(0))
        verdict = out.verdict.value if out.verdict else "ERROR"
        print(
            f"{c.id:46s} {verdict:9s} {out.seconds:8.2f} {boxes:9d} "
            f"{float(und):9.3g} {float(bad):7.3g}" + ("" if out.matches else "  MISMATCH")
        )
    print(f"{len(claims)} box claims decided in {total:.1f}s")
    return total


def _lemma7_sum() -> tuple[sp.Expr, Box]:
    x, a = sp.symbols("eps alpha", positive=True)
    p, q = sp.exp(x) / (1 + sp.exp(x)), 1 / (1 + sp.exp(x))
    s = p**a * (sp.exp(x) * q) ** (1 - a) + q**a * (sp.exp(x) * p) ** (1 - a)
    return 1 - s, Box.of({x: (R(1, 100), 3), a: (R(3, 2), 5)})


def _sub_boxes(box: Box, count: int, seed: int = 0) -> list[SubBox]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        bounds = []
        for lo, hi in zip(box.lows, box.highs, strict=True):
            w = (hi - lo) / rng.choice((4, 16, 64))
            a = lo + (hi - lo - w) * Fraction(rng.randint(0, 1000), 1000)
            bounds.append((a, a + w))
        out.append(SubBox(tuple(bounds)))
    return out


def _run_ctx(prog: _Program, sub: SubBox, ctx: Any) -> tuple[Fraction, Fraction]:
    """The same program, value only, in an mpmath interval context."""
    from verifier.checks import boxes as B

    vals: list[Any] = []
    for op in prog.ops:
        code = op[0]
        if code == B._VAR:
            lo, hi = sub.bounds[op[1]]
            v = ctx.mpf(
                [ctx.mpf(lo.numerator) / lo.denominator, ctx.mpf(hi.numerator) / hi.denominator]
            )
        elif code == B._CONST:
            v = ctx.make_mpf(op[1])
        elif code == B._ADD:
            v = vals[op[1]] + vals[op[2]]
        elif code == B._MUL:
            v = vals[op[1]] * vals[op[2]]
        elif code == B._POWI:
            v = vals[op[1]] ** op[2]
        elif code == B._EXP:
            v = ctx.exp(vals[op[1]])
        elif code == B._LOG:
            v = ctx.log(vals[op[1]])
        elif code == B._POW:
            v = ctx.exp(vals[op[2]] * ctx.log(vals[op[1]]))
        else:  # pragma: no cover - not in the benchmarked function
            raise NotImplementedError(code)
        vals.append(v)
    lo, hi = vals[prog.out]._mpi_
    return _raw_fraction(lo), _raw_fraction(hi)


def _run_arb(prog: _Program, sub: SubBox, flint: Any) -> float:
    """The same program, value only, in python-flint's ball arithmetic."""
    from verifier.checks import boxes as B

    def ball(lo: Fraction, hi: Fraction) -> Any:
        a = flint.arb(flint.fmpq(lo.numerator, lo.denominator))
        b = flint.arb(flint.fmpq(hi.numerator, hi.denominator))
        return a.union(b)

    vals: list[Any] = []
    for op in prog.ops:
        code = op[0]
        if code == B._VAR:
            v = ball(*sub.bounds[op[1]])
        elif code == B._CONST:
            v = ball(_raw_fraction(op[1][0]), _raw_fraction(op[1][1]))
        elif code == B._ADD:
            v = vals[op[1]] + vals[op[2]]
        elif code == B._MUL:
            v = vals[op[1]] * vals[op[2]]
        elif code == B._POWI:
            v = vals[op[1]] ** op[2]
        elif code == B._EXP:
            v = vals[op[1]].exp()
        elif code == B._LOG:
            v = vals[op[1]].log()
        elif code == B._POW:
            v = (vals[op[2]] * vals[op[1]].log()).exp()
        else:  # pragma: no cover - not in the benchmarked function
            raise NotImplementedError(code)
        vals.append(v)
    return 2 * float(vals[prog.out].rad())


def bench_engines(count: int = 300) -> None:
    f, box = _lemma7_sum()
    prog = _Program(f, box.symbols, 64)
    subs = _sub_boxes(box, count)
    t0 = time.perf_counter()
    w_lib = []
    for s in subs:
        xs = [(_iv_rational(lo, 64)[0], _iv_rational(hi, 64)[1]) for lo, hi in s.bounds]
        v, _ = prog.run(xs, False)
        w_lib.append(_raw_fraction(v[1]) - _raw_fraction(v[0]))
    t_lib = time.perf_counter() - t0
    t0 = time.perf_counter()
    w_ctx = []
    with interval_context(64) as ctx:
        for s in subs:
            lo, hi = _run_ctx(prog, s, ctx)
            w_ctx.append(hi - lo)
    t_ctx = time.perf_counter() - t0
    print(f"enclosures of the Lemma 7 (i) sum on {count} sub-boxes ({len(prog.ops)} operations):")
    print(f"  mpmath libmpi (verifier.checks.boxes) {t_lib:.3f}s")
    print(f"  mpmath interval contexts       {t_ctx:.3f}s  (libmpi {t_ctx / t_lib:.1f}x faster)")
    try:
        import flint  # type: ignore[import-not-found]
    except ImportError:
        print("  python-flint arb: not installed (pip install python-flint to compare)")
        return
    flint.ctx.prec = 64
    t0 = time.perf_counter()
    w_arb = [_run_arb(prog, s, flint) for s in subs]
    t_arb = time.perf_counter() - t0
    ratios = sorted(
        a / float(b) for a, b in zip(w_arb, w_lib, strict=True) if b and math.isfinite(a)
    )
    lost = count - len(ratios)
    median = ratios[len(ratios) // 2] if ratios else float("nan")
    print(
        f"  python-flint arb               {t_arb:.3f}s  (libmpi / arb = {t_lib / t_arb:.1f}; "
        f"median width arb / libmpi = {median:.2f}; {lost} of {count} balls unusable)"
    )


def bench_exact_route() -> None:
    from verifier.algorithms.ghazi import hyperparameter_tuning
    from verifier.checks.boxes import decide_on_box
    from verifier.mechanism.instances import randomized_response

    e1, e2, ep = sp.symbols("eps_1 eps_2 eps_prime", positive=True)
    A = hyperparameter_tuning(
        [randomized_response(e1), randomized_response(e2, datasets=("D'", "D"))], [e1, e2], ep
    )
    box = Box.of({e1: (R(1, 100), 3), e2: (R(1, 100), 3), ep: (R(1, 100), 1)})
    lhs, rhs = A.p("D", (1, 1)), sp.exp(2 * e1 + ep) * A.p("D'", (1, 1))
    budget = BoxBudget(max_boxes=5000, seconds=60)
    t0 = time.perf_counter()
    d = decide_on_box(lhs, rhs, box, budget)
    t_exact = time.perf_counter() - t0
    t0 = time.perf_counter()
    search = _Search(lhs, rhs, box, budget, rhs - lhs)
    state = search.settle(search.root, 0)
    t_bb = time.perf_counter() - t0
    und = sum((s.volume_share(box) for s in search.tally.undecided), Fraction(0))
    print("Theorem 11, output (1, 1), D -> D', over its box:")
    print(f"  exact rewrite + coefficient certificate: {d.verdict.value} in {t_exact:.2f}s")
    print(
        f"  interval branch and bound alone: {state} after {search.tally.boxes} sub-boxes, "
        f"{t_bb:.2f}s, undecided share {float(und):.3g} "
        f"(exact route {t_bb / t_exact:.0f}x faster)"
    )


if __name__ == "__main__":
    if "--skip-claims" not in sys.argv:
        bench_claims()
    bench_engines()
    bench_exact_route()

"""Working precision without process globals (verifier.arithmetic.precision).

Every certified evaluation takes an mpmath context private to its thread and call,
so the same decisions give the same verdicts and the same enclosures (to the last
bit) serially, in two threads and in two processes, and whatever another thread
does to mpmath's global ``iv.prec`` / ``mp.prec`` meanwhile.
"""

from __future__ import annotations

import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
import pytest
import sympy as sp
from mpmath.ctx_iv import MPIntervalContext
from mpmath.ctx_mp import MPContext

from casestudies.talwar2025.tradeoff import hard_instance_profile
from verifier.algorithms.ghazi import hyperparameter_tuning_enclosures
from verifier.algorithms.talwar import a_lt, hybrid
from verifier.arithmetic import exact as arithmetic
from verifier.arithmetic.exact import (
    Enclosure,
    approx,
    decide_le,
    decide_sign,
    enclose,
    format_number,
)
from verifier.arithmetic.precision import interval_context, real_context
from verifier.checks import ranges
from verifier.checks.certified import certified_floor
from verifier.checks.ranges import decide_on_interval
from verifier.errors import InvalidParameter
from verifier.mechanism.instances import randomized_response
from verifier.search import screens

ROOT = Path(__file__).resolve().parent.parent
R = sp.Rational
EPS = sp.Symbol("eps")


# ---------------------------------------------------------------------------
# the contexts
# ---------------------------------------------------------------------------


def test_contexts_are_private_to_each_call_and_leave_the_globals_alone():
    g_iv, g_mp = mpmath.iv.prec, mpmath.mp.prec
    with interval_context(64) as outer:
        assert isinstance(outer, MPIntervalContext) and outer is not mpmath.iv
        x = outer.mpf(1) / 3
        with interval_context(2000) as inner:
            assert inner is not outer and inner.prec == 2000
            assert (inner.mpf(1) / 3).delta < x.delta
        assert outer.prec == 64 and outer.mpf(1) / 3 == x
    with real_context(136) as r:
        assert isinstance(r, MPContext) and r is not mpmath.mp and r.dps == 40
    assert (mpmath.iv.prec, mpmath.mp.prec) == (g_iv, g_mp)


def test_idle_contexts_are_reused_within_a_thread_and_never_shared_between_threads():
    with interval_context(64) as a:
        pass
    with interval_context(128) as b:
        assert b is a  # reused once idle (building one takes ~0.2 ms)
    seen: list[Any] = []
    worker = threading.Thread(target=lambda: seen.append(interval_context(64).__enter__()))
    worker.start()
    worker.join()
    assert seen[0] is not a


@pytest.mark.parametrize("bits", [0, 1, -64, 64.0, True, "64"])
def test_bad_precision_is_refused(bits):
    with pytest.raises(InvalidParameter, match="working precision"):
        interval_context(bits)


def test_a_context_cannot_be_entered_twice():
    cm = interval_context(64)
    with cm, pytest.raises(RuntimeError, match="entered twice"):
        cm.__enter__()


# ---------------------------------------------------------------------------
# the hazard, shown deterministically (two threads, one pause between them)
# ---------------------------------------------------------------------------


def _interleave(first: Callable[[Callable[[], None]], Any], second: Callable[[], None]) -> Any:
    """Run ``first`` in a thread; when it calls the pause it is given, run ``second``
    in another thread to completion, then let ``first`` go on.  Returns its result."""
    paused, resumed = threading.Event(), threading.Event()
    out: list[Any] = []

    def pause() -> None:
        paused.set()
        assert resumed.wait(10)

    t1 = threading.Thread(target=lambda: out.append(first(pause)))
    t1.start()
    assert paused.wait(10)
    t2 = threading.Thread(target=second)
    t2.start()
    t2.join()
    resumed.set()
    t1.join()
    return out[0]


def test_control_the_global_interval_context_is_shared_between_threads():
    # CONTROL (the pattern this package used before verifier.arithmetic.precision): save
    # mpmath.iv.prec, set it, compute, restore.  A second thread doing the same in
    # between changes the first thread's working precision under its feet.
    iv = mpmath.iv
    saved = iv.prec

    def first(pause: Callable[[], None]) -> tuple[Any, Any]:
        old = iv.prec
        iv.prec = 64
        try:
            before = iv.mpf(1) / 3
            pause()
            after = iv.mpf(1) / 3
            return before, after
        finally:
            iv.prec = old

    def second() -> None:
        iv.prec = 2000  # and it forgets (or has not yet come) to restore

    try:
        before, after = _interleave(first, second)
    finally:
        iv.prec = saved
    assert before != after  # the hazard: the same expression, another precision
    assert after.delta < before.delta


def test_private_contexts_keep_each_threads_precision():
    def first(pause: Callable[[], None]) -> tuple[Any, Any]:
        with interval_context(64) as ctx:
            before = ctx.mpf(1) / 3
            pause()
            after = ctx.mpf(1) / 3
            return before, after

    def second() -> None:
        with interval_context(2000) as ctx:
            ctx.mpf(1) / 3
        mpmath.iv.prec = 2000  # even a write to the global changes nothing
        mpmath.iv.prec = 53

    before, after = _interleave(first, second)
    assert before == after


# ---------------------------------------------------------------------------
# one batch of decisions: serial, 2 threads, 2 processes, and under interference
# ---------------------------------------------------------------------------


def _digits_of_e(d: int) -> sp.Rational:
    """``floor(e 10^d) / 10^d``: agrees with ``e`` to ``d`` digits (certified floor)."""
    return R(certified_floor(sp.E * 10**d), 10**d)


def _show_enclosure(e: Enclosure | None) -> str:
    return "none" if e is None else f"{e} {e.bounds()} at {e.bits}"


def _show_decision(d: ranges.IntervalDecision) -> str:
    parts = [
        (str(f), f.witness, _show_enclosure(f.lo_enclosure), _show_enclosure(f.hi_enclosure))
        for f in d.failing
    ]
    return f"{d.verdict} {d.method} {parts} {d.equality_points}"


def _task(kind: str, k: int) -> str:
    """One decision, as text holding its verdict and every enclosure behind it."""
    if kind in ("e_below", "e_above"):  # e against a rational that agrees to k digits
        r = _digits_of_e(k) + (R(1, 10**k) if kind == "e_above" else 0)
        c = decide_le(sp.E, r)  # decided at 64 bits (k = 5) ... 1024 bits (k = 300)
        return f"{c.verdict} {_show_enclosure(c.sign.enclosure)}"
    if kind == "exact_zero":  # every enclosure straddles 0; decided by a proof
        s = decide_sign(sp.log(2 ** (k + 1)) - (k + 1) * sp.log(2))
        return f"{s.sign} {s.exact_zero} {_show_enclosure(s.enclosure)}"
    if kind == "enclose":  # several precisions of one value, plus |x| and display
        x = sp.Abs(R(k, 3) - sp.sqrt(k + 1) * sp.log(k + 2), evaluate=False)
        encs = [_show_enclosure(enclose(x, b)) for b in (64, 200, 1500)]
        return f"{encs} {approx(x)!r} {format_number(x)}"
    if kind == "bisection":  # transcendental in eps: bisection with interval functions
        d = decide_on_interval(sp.exp(EPS) - 1, EPS + R(k, 4) * EPS**2, EPS, 0, k)
        return _show_decision(d)
    if kind == "polynomial":  # polynomial in w = exp(eps): roots, s = log(w) enclosed
        d = decide_on_interval(sp.exp(2 * EPS) + 2, (k + 2) * sp.exp(EPS), EPS, 0, 2)
        return _show_decision(d)
    if kind == "tradeoff":  # Talwar 2025 hard instance at 160 bits
        alg = [a_lt(R(1, 50)), hybrid(R(1, 400), 2)][k % 2]
        delta, fail, overhead = hard_instance_profile("repetition", alg, 1, alg.expected_calls)
        return f"{delta} {fail} {_show_enclosure(overhead)}"
    if kind == "ghazi":  # certified series at 90 bits
        L = sp.log
        ms = [randomized_response(L(2)), randomized_response(L(k + 2), datasets=("D'", "D"))]
        encl = hyperparameter_tuning_enclosures(ms, [L(2), L(k + 2)], L(R(5, 4)), bits=90)
        return str(
            sorted(
                (str(d), str(o), _show_enclosure(e))
                for d, row in encl.items()
                for o, e in row.items()
            )
        )
    if kind == "screen":  # 40-digit float screen of the search engine
        mechs = [([0.2, 0.3, 0.5], [0.3, 0.3, 0.4])] * 3
        return repr(screens.alg3_exponential(mechs, [0.1, 0.2, 0.05 * k], 0.05))
    if kind == "floor":  # an integer part beyond 2^53
        return str(certified_floor(sp.Integer(2) ** 80 + k + sp.sqrt(2) / 10))
    raise AssertionError(kind)


TASKS: list[tuple[str, int]] = [
    *(("e_below", d) for d in (5, 30, 100, 300)),
    *(("e_above", d) for d in (5, 300)),
    *(("exact_zero", k) for k in (1, 2)),
    *(("enclose", k) for k in (1, 2, 3)),
    *(("bisection", k) for k in (1, 2)),
    *(("polynomial", k) for k in (1, 2)),
    *(("tradeoff", k) for k in (0, 1)),
    *(("ghazi", k) for k in (1, 2)),
    *(("screen", k) for k in (1, 2, 3)),
    *(("floor", k) for k in (0, 1)),
]


def _clear_caches() -> None:
    arithmetic._enclose_cached.cache_clear()
    ranges._decide_cached.cache_clear()


def _run(task: tuple[str, int]) -> tuple[tuple[str, int], str, tuple[int, int], float, float]:
    """``_task`` with who ran it (process, thread) and when."""
    t0 = time.perf_counter()
    out = _task(*task)
    return task, out, (os.getpid(), threading.get_ident()), t0, time.perf_counter()


def _order(copies: int, seed: int) -> list[tuple[str, int]]:
    """Every task ``copies`` times, shuffled: long and short, low and high precision
    side by side."""
    order = TASKS * copies
    random.Random(seed).shuffle(order)
    return order


@pytest.fixture(scope="module")
def serial() -> dict[tuple[str, int], str]:
    _clear_caches()
    return {t: _task(*t) for t in TASKS}


@pytest.fixture
def fast_switching() -> Iterator[None]:
    """Threads switch every 10 µs instead of 5 ms: the batch interleaves finely."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def test_the_batch_needs_low_and_high_precision(serial):
    assert serial[("e_below", 5)].startswith("violated") and serial[("e_below", 5)].endswith(
        " at 64"
    )
    assert serial[("e_above", 300)].startswith("holds")
    for d in (300,):
        assert serial[("e_below", d)].startswith("violated")
        assert serial[("e_below", d)].endswith(" at 1024")
    assert serial[("exact_zero", 1)].startswith("Sign.ZERO True")
    assert " polynomial " in serial[("polynomial", 1)]
    assert " bisection " in serial[("bisection", 1)]


def test_two_threads_give_the_serial_results(serial, fast_switching):
    _clear_caches()
    with ThreadPoolExecutor(2) as ex:
        runs = list(ex.map(_run, _order(3, seed=1)))
    for task, out, *_ in runs:
        assert out == serial[task], task
    # the two threads did compute at the same time
    overlaps = sum(
        1
        for (_, _, w1, s1, e1) in runs
        for (_, _, w2, s2, e2) in runs
        if w1 != w2 and s1 < e2 and s2 < e1
    )
    assert len({w for _, _, w, _, _ in runs}) == 2 and overlaps > 0


def test_two_processes_give_the_serial_results(serial):
    with ProcessPoolExecutor(2, initializer=_clear_caches) as ex:
        runs = list(ex.map(_run, _order(1, seed=2)))
    assert {task: out for task, out, *_ in runs} == serial
    assert os.getpid() not in {w[0] for _, _, w, _, _ in runs}


def test_results_ignore_what_other_threads_do_to_mpmaths_globals(serial, fast_switching):
    # Another thread keeps setting mpmath.iv.prec and mpmath.mp.prec (as any code on
    # mpmath's global contexts does, e.g. mpmath.workprec) while the batch runs.  With
    # the former save/set/restore of iv.prec, enclosures came out at whatever
    # precision that thread had just set, and float displays varied with mp.prec.
    stop = threading.Event()

    def meddle() -> None:
        rng = random.Random(0)
        while not stop.is_set():
            mpmath.iv.prec = rng.choice([8, 53, 3000])
            mpmath.mp.prec = rng.choice([20, 53, 300])

    saved = mpmath.iv.prec, mpmath.mp.prec
    meddler = threading.Thread(target=meddle)
    meddler.start()
    try:
        _clear_caches()
        results = [(task, _task(*task)) for task in _order(1, seed=3)]
    finally:
        stop.set()
        meddler.join()
        mpmath.iv.prec, mpmath.mp.prec = saved
    for task, out in results:
        assert out == serial[task], task


def _first_caller_outside_mpmath(frame: Any) -> str:
    while frame is not None and f"{os.sep}mpmath{os.sep}" in frame.f_code.co_filename:
        frame = frame.f_back
    return "" if frame is None else frame.f_code.co_filename


def test_nothing_sets_a_global_precision_at_run_time(serial, monkeypatch):
    writers: list[str] = []
    for ctx in (mpmath.iv, mpmath.mp):
        for name in ("prec", "dps"):
            prop = getattr(type(ctx), name)

            def fset(c: Any, n: Any, _set: Any = prop.fset, _global: Any = ctx) -> None:
                if c is _global:
                    writers.append(_first_caller_outside_mpmath(sys._getframe(1)))
                _set(c, n)

            monkeypatch.setattr(type(ctx), name, property(prop.fget, fset))
    _clear_caches()
    results = {task: _task(*task) for task in TASKS}
    ours = [w for w in writers if w.startswith(str(ROOT / "verifier"))]
    ours += [w for w in writers if w.startswith(str(ROOT / "casestudies"))]
    assert ours == [] and results == serial
    print(f"global precision writes during the batch: {sorted(set(writers))}")


_GLOBAL_PRECISION = re.compile(
    r"\b(?:iv|mp)\.(?:prec|dps)\s*[+\-*]?=|\bwork(?:prec|dps)\b|\bextra(?:prec|dps)\b"
    r"|from mpmath import[^\n]*\b(?:iv|mp)\b"
)


def test_no_source_sets_a_global_precision():
    hits = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for top in ("verifier", "casestudies")
        for path in sorted((ROOT / top).rglob("*.py"))
        if path.name != "precision.py"  # its docstring names the pattern it replaces
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _GLOBAL_PRECISION.search(line)
    ]
    assert hits == [], "use verifier.arithmetic.precision instead:\n" + "\n".join(hits)


# ---------------------------------------------------------------------------
# results that used to depend on mpmath's global 53-bit precision
# ---------------------------------------------------------------------------


def test_abs_enclosure_keeps_every_bit():
    # |1/3 - sqrt(2)| used to have its ends negated at mp.prec = 53 bits, rounding to
    # nearest: the 64- and 128-bit enclosures missed the value.
    x = sp.Abs(R(1, 3) - sp.sqrt(2), evaluate=False)
    fine = enclose(sp.sqrt(2) - R(1, 3), 4096)
    assert fine is not None
    for bits in (64, 128, 1024):
        e = enclose(x, bits)
        assert e is not None and e.contains(fine)
        lo, hi = e.bounds()
        assert hi - lo < Fraction(2) ** (8 - bits)


def test_integer_parts_beyond_double_precision():
    # floor used to round enclosure ends to 53 bits, answering 2^80 here
    x = sp.Integer(2) ** 80 + 1 + sp.sqrt(2) / 10
    assert certified_floor(x) == 2**80 + 1
    from verifier.arithmetic.expressions import parse_expression

    assert parse_expression("floor(2^80 + 1 + sqrt(2)/10)") == 2**80 + 1

"""Throughput of the counterexample search and of a box decision on local processes
and on dask.distributed, as ratios from one run.

The same search (a true theorem, so every batch of the fixed instance budget runs) is
timed four ways: in this process (1 local worker), on 2 local processes
(``workers=2``), and on a ``LocalCluster`` of 1 and of 2 worker processes
(``--dask local:N``).  Printed: instances per second of each, and the ratios

* ``local 2 / local 1`` and ``dask 2 / dask 1`` — what a second worker buys;
* ``dask N / local N`` — what dask costs against local processes of the same count.

Clusters are started (and their workers load the case studies) before the clock
starts; the start-up time is printed on its own line.  The four runs are repeated in
interleaved rounds and the best rate of each is kept.  Every run must give the same
answer (checked and printed).

The same four ways then decide one inequality over a box that splits into pieces
(:mod:`verifier.checks.boxes`, "Pieces"): ``2xy <= x^2 + y^2`` on ``[0, 1]^2``, hidden from
the exact rewrite, whose equality on the diagonal keeps branch and bound busy until
its budget of sub-boxes is spent; printed: sub-boxes per second and the same ratios
(the pieces run on the runner through :func:`verifier.checks.boxes.sub_boxes_on`; the first
depth-first pass always runs in the client).

The ratios, not the absolute times, are the result: the reference machine has 2 cores
(shared with other work, so absolute times move from run to run), and a ratio of 2
workers to 1 is bounded by 2 there.  Run: ``python benchmarks/bench_dask.py [--quick]``
(needs the dask extra: ``pip install -e '.[dask]'``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import sympy as sp

from verifier.checks.boxes import BoxBudget, _decide_cached, decide_on_box, sub_boxes_on
from verifier.runtime.executors import ExecutorRunner, dask_runner
from verifier.search import get_searchable, search

QUICK = "--quick" in sys.argv
CLAIM = "ghazi2025.thm11"
INSTANCES = 4000 if QUICK else 16000
ROUNDS = 3
X, Y = sp.symbols("x y", positive=True)
#: (x - y)^2 >= 0 written so that only branch and bound sees it (log(1+x) - log(1+x))
BOX_PAIR = (2 * X * Y + sp.log(1 + X) - sp.log(1 + X), X**2 + Y**2)
BOX = {X: (0, 1), Y: (0, 1)}
BOX_BUDGET = BoxBudget(
    max_depth=40,
    max_boxes=3000 if QUICK else 12000,
    seconds=None,
    serial_boxes=200,
    split_levels=5,
)


def _warm(claim_id: str) -> None:
    """Load the case studies in a worker (what its first batch would do)."""
    get_searchable(claim_id)


def _stable(r) -> dict:
    d = r.to_dict()
    for k in ("checkpoint", "certificate"):
        d.pop(k)
    return d


def _timed(**kw) -> tuple[float, dict]:
    t0 = time.perf_counter()
    r = search(CLAIM, seed=0, seconds=None, instances=INSTANCES, **kw)
    dt = time.perf_counter() - t0
    return r.instances / dt, _stable(r)


def _boxes_timed(runner=None) -> tuple[float, dict]:
    _decide_cached.cache_clear()  # decided again, not read from the cache
    t0 = time.perf_counter()
    with sub_boxes_on(runner):
        d = decide_on_box(*BOX_PAIR, BOX, BOX_BUDGET)
    dt = time.perf_counter() - t0
    return d.boxes / dt, dataclasses.asdict(dataclasses.replace(d, seconds=0.0))


def _ratios(rates: dict[str, float]) -> None:
    for a, b in (
        ("local 2", "local 1"),
        ("dask 2", "dask 1"),
        ("dask 1", "local 1"),
        ("dask 2", "local 2"),
    ):
        print(f"   {a} / {b}: {rates[a] / rates[b]:.2f}")


def main() -> None:
    print(f"search {CLAIM}, {INSTANCES} instances, seed 0 (a true theorem: every batch runs)")
    rates: dict[str, float] = {}
    answers: dict[str, dict] = {}

    def record(name: str, rate: float, answer: dict) -> None:  # the best of the rounds
        rates[name] = max(rate, rates.get(name, 0.0))
        answers.setdefault(name, answer)
        assert answer == answers[name]

    with contextlib.ExitStack() as stack:
        clusters = {}
        for n in (1, 2):
            t0 = time.perf_counter()
            clusters[n] = stack.enter_context(dask_runner(f"local:{n}"))
            clusters[n].client.run(_warm, CLAIM)
            print(f"   LocalCluster of {n}: started in {time.perf_counter() - t0:.1f}s")
        for _ in range(ROUNDS):  # interleaved, so a burst of other load hits every runner
            record("local 1", *_timed())
            record("local 2", *_timed(workers=2))
            record("dask 1", *_timed(executor=clusters[1]))
            record("dask 2", *_timed(executor=clusters[2]))
        _report(rates, answers, "instances/s", "answer")

        b = BOX_BUDGET
        print(
            f"box decision 2xy <= x^2 + y^2 on [0, 1]^2: {b.max_boxes} sub-boxes, "
            f"{2**b.split_levels} pieces after a first pass of {b.serial_boxes}"
        )
        box_rates: dict[str, float] = {}
        box_answers: dict[str, dict] = {}
        with ProcessPoolExecutor(2) as pool:
            pool.submit(_warm, CLAIM).result()  # the pool's processes are started
            runners = {
                "local 1": None,
                "local 2": ExecutorRunner(pool, 2),
                "dask 1": clusters[1],
                "dask 2": clusters[2],
            }
            for _ in range(ROUNDS):
                for name, runner in runners.items():
                    rate, answer = _boxes_timed(runner)
                    box_rates[name] = max(rate, box_rates.get(name, 0.0))
                    box_answers.setdefault(name, answer)
                    assert answer == box_answers[name]
    _report(box_rates, box_answers, "sub-boxes/s", "decision")


def _report(rates: dict[str, float], answers: dict[str, object], unit: str, what: str) -> None:
    """The best rate of each runner, their ratios, and whether every runner gave the
    same ``what`` as one local worker."""
    print(f"best of {ROUNDS} rounds:")
    for name, rate in rates.items():
        print(f"   {name:8} {rate:9.0f} {unit}")
    print("ratios")
    _ratios(rates)
    same = all(ans == answers["local 1"] for ans in answers.values())
    print(f"same {what} everywhere: {same}")


if __name__ == "__main__":
    main()

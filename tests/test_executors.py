"""The executor layer (verifier.runtime.executors) without dask: ordered results with a
bounded number of tasks in flight, early stops that cancel, results that hold
closures and large exact values, claims decided in parallel by id, and the errors of
the ``--dask``/``--workers`` options.  The dask runs are in tests/test_dask.py."""

from __future__ import annotations

import doctest
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
import sympy as sp

from verifier.checks.boxes import DEFAULT_BUDGET, BoxBudget
from verifier.claims import load_casestudies
from verifier.errors import InvalidParameter
from verifier.runtime import executors
from verifier.runtime.executors import (
    DaskTarget,
    ExecutorRunner,
    as_runner,
    open_runner,
    ordered_map,
    parse_dask,
    portable_dumps,
    portable_loads,
)


def _slow_square(x: int) -> int:
    time.sleep(0.01 * ((7 * x) % 5))  # finishes out of order
    return x * x


def test_ordered_map_keeps_the_task_order_on_processes():
    with ProcessPoolExecutor(2) as ex:
        got = list(ordered_map(ExecutorRunner(ex), _slow_square, [(k,) for k in range(20)]))
    assert got == [k * k for k in range(20)]


def test_ordered_map_reads_tasks_lazily_and_bounds_the_work_in_flight():
    pulled = 0
    running = 0
    most = 0
    lock = threading.Lock()

    def tasks():
        nonlocal pulled
        for k in range(1_000_000):
            pulled += 1
            yield (k,)

    def work(k: int) -> int:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.002)
        with lock:
            running -= 1
        return k

    with ThreadPoolExecutor(3) as ex:
        runner = ExecutorRunner(ex)
        it = ordered_map(runner, work, tasks(), window=4)
        first = [next(it) for _ in range(10)]
        it.close()  # stopping early cancels what is still in flight
    assert first == list(range(10))
    assert pulled <= 10 + 4 * 8  # never more than 8 windows ahead of the consumer
    assert most <= 3


def test_an_error_in_a_task_reaches_the_caller():
    with ThreadPoolExecutor(2) as ex:
        with pytest.raises(ZeroDivisionError):
            list(ordered_map(ExecutorRunner(ex), divmod, [(1, 1), (1, 0), (2, 1)]))


def test_results_with_closures_and_large_exact_values_cross_processes():
    base = sp.Integer(7)
    data = portable_dumps((lambda o: base + o, sp.exp(sp.Rational(1, 3)) + sp.sqrt(2)))
    f, x = portable_loads(data)
    assert f(1) == 8 and x == sp.exp(sp.Rational(1, 3)) + sp.sqrt(2)
    # rebuilt as pickled (no re-evaluation): the same tree, hence equal and hashed alike
    big = sp.expand((sp.exp(sp.Symbol("e")) + sp.Rational(1, 3)) ** 12)
    again = portable_loads(portable_dumps(big))
    assert again == big and hash(again) == hash(big) and again.args == big.args


@pytest.mark.slow  # claims decided in worker processes and serially: `pytest -m slow` (.ci/run)
def test_claims_decided_in_processes_match_the_serial_outcomes():
    reg = load_casestudies()
    # bounds written as closures (Ghazi et al.), large exact values (Liu-Talwar), several
    names = ["ghazi2025.thm10", "ghazi2025.thm9.non_monotone", "liu_talwar2019.thm35"]
    claims = reg.select([*names, "hartmann2022.lemma8"], decider="instances")
    serial = reg.run(claims)
    with open_runner(2) as runner:
        parallel = reg.run(claims, runner=runner)
    assert [o.claim for o in parallel] == claims
    assert [o.to_dict() | {"seconds": 0} for o in parallel] == [
        o.to_dict() | {"seconds": 0} for o in serial
    ]


def test_only_registered_claims_travel_by_id():
    from verifier.arithmetic.exact import Verdict
    from verifier.checks.results import CheckResult
    from verifier.claims import Registry

    reg = Registry()

    @reg.claim(id="demo.local", source="none", statement="s", expected="holds", casestudy="d")
    def _c() -> CheckResult:
        return CheckResult("t", Verdict.HOLDS)

    with ThreadPoolExecutor(1) as ex:
        with pytest.raises(InvalidParameter, match="demo.local.*REGISTRY"):
            reg.run(reg.select(), runner=ExecutorRunner(ex))


def test_runner_choice():
    assert as_runner(None, 1) is None
    with ThreadPoolExecutor(3) as ex:
        r = as_runner(ex)
        assert isinstance(r, ExecutorRunner) and r.slots() == 3 and as_runner(r) is r
    with pytest.raises(InvalidParameter, match="cannot run tasks on str"):
        as_runner("local")


def test_dask_option_values():
    assert parse_dask("local") == DaskTarget(None, None)
    assert parse_dask(" local:2 ") == DaskTarget(None, 2)
    assert parse_dask("tls://sched.example.org:8786").address == "tls://sched.example.org:8786"
    for bad in ("local:0", "local:x", "elsewhere", ""):
        with pytest.raises(InvalidParameter, match="--dask"):
            parse_dask(bad)
    with pytest.raises(InvalidParameter, match="not both"):
        with open_runner(2, "local:2"):
            pass
    with pytest.raises(InvalidParameter, match=">= 1"):
        with open_runner(0):
            pass


def test_without_dask_the_option_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(InvalidParameter, match=r"not installed.*\.\[dask\]"):
        with open_runner(1, "local:1"):
            pass


def test_doctests():
    res = doctest.testmod(executors)
    assert res.attempted > 0 and res.failed == 0


class _Counting(ExecutorRunner):
    def __init__(self, executor) -> None:
        super().__init__(executor)
        self.submitted = 0

    def submit(self, fn, /, *args):
        self.submitted += 1
        return super().submit(fn, *args)


def test_a_box_decision_in_pieces_is_the_same_on_two_processes():
    """The pieces of a box decision run as tasks on 2 local processes (only inside
    sub_boxes_on) and give the decision made in this process: verdict, failing and
    undecided sub-boxes, witness, counts."""
    from verifier.checks.boxes import sub_boxes_on

    from .box_pieces import CASES, check_by_hand, decide_fresh

    serial = [decide_fresh(*c) for c in CASES]
    check_by_hand(*serial)
    with ProcessPoolExecutor(2) as ex:
        runner = _Counting(ex)
        with sub_boxes_on(runner):
            parallel = [decide_fresh(*c) for c in CASES]
        assert runner.submitted == 2 * 8  # every piece of both decisions was a task
        assert decide_fresh(*CASES[0]) == serial[0]  # outside the block: here again
    assert parallel == serial


SPEC_NARROW = """
version = 1
[symbols]
eps_1 = { positive = true }
eps_2 = { nonnegative = true }
[graphs.g]
kind = "pair"
datasets = ["D", "D'"]
[mechanisms.softmax]
graph = "g"
outputs = ["a", "b", "c"]
distributions.D = { a = "exp(eps_1)/(1 + exp(eps_1) + exp(eps_2))", b = "1/(1 + exp(eps_1) + exp(eps_2))", c = "exp(eps_2)/(1 + exp(eps_1) + exp(eps_2))" }
distributions."D'" = { a = "1/(1 + exp(eps_1) + exp(eps_2))", b = "exp(eps_1)/(1 + exp(eps_1) + exp(eps_2))", c = "exp(eps_2)/(1 + exp(eps_1) + exp(eps_2))" }
[[claims]]
id = "narrow"
mechanism = "softmax"
kind = "pure_dp"
epsilon = "eps_1 + (eps_2 - 1)**2 + 1/100"
over = { eps_1 = ["1/100", "3"], eps_2 = ["0", "2"] }
expected = "holds"
"""


def _check_narrow(tmp_path, capsys, budget: BoxBudget, *extra: str) -> tuple[int, str]:
    """`verifier check --json` on :data:`SPEC_NARROW` inside ``box_budget(budget)``,
    with no earlier decision cached: the exit code and the printed document."""
    from verifier import cli
    from verifier.checks.boxes import _decide_cached, box_budget

    spec = tmp_path / "narrow.toml"
    spec.write_text(SPEC_NARROW)
    _decide_cached.cache_clear()
    with box_budget(budget):
        code = cli.main(["check", str(spec), "--json", *extra])
    return code, capsys.readouterr().out


def _worst(text: str) -> dict:
    return json.loads(text)["claims"][0]["result"]["per_output"][0]


def check_box_spec(tmp_path, capsys, *extra: str) -> str:
    """`verifier check --json` on a claim over a box that holds with a narrow margin:
    at output a the realized epsilon is eps_1 (the ratio e^eps_1, by hand), the claim
    eps_1 + (eps_2 - 1)^2 + 1/100, so the slack is (eps_2 - 1)^2 + 1/100 > 0, but
    only 1/100 along eps_2 = 1 inside the box: more sub-boxes than the first pass
    (100 with :data:`NARROW_BUDGET`, which ``verifier check`` takes from the caller's
    ``box_budget``), so the box is split into pieces.  Exit 0; the printed document."""
    code, text = _check_narrow(tmp_path, capsys, NARROW_BUDGET, *extra)
    assert code == 0
    worst = _worst(text)
    assert worst["output"] == "a" and worst["verdict"] == "holds"
    # more than the first pass: split into pieces
    assert NARROW_BUDGET.serial_boxes < worst["box"]["sub_boxes"] < DEFAULT_BUDGET.serial_boxes
    return text


def test_check_takes_the_callers_box_budget(tmp_path, capsys):
    code, text = _check_narrow(tmp_path, capsys, BoxBudget(max_boxes=50, serial_boxes=50))
    worst = _worst(text)
    assert worst["verdict"] == "undecided" and worst["box"]["sub_boxes"] == 50
    assert code != 0


#: The default budget with a shorter first pass, so the narrow claim is split sooner.
NARROW_BUDGET = BoxBudget(serial_boxes=100)


def test_check_decides_the_pieces_of_a_box_on_two_processes(tmp_path, capsys):
    one = check_box_spec(tmp_path, capsys)
    two = check_box_spec(tmp_path, capsys, "--workers", "2")
    assert one == two


@pytest.mark.skipif(not hasattr(os, "getppid") or sys.platform == "win32", reason="POSIX")
def test_local_workers_end_when_their_parent_is_killed(tmp_path):
    """A pool's parent killed with SIGKILL (no clean-up runs): its workers notice the
    re-parenting and exit within seconds instead of waiting for a task forever."""
    script = tmp_path / "parent.py"
    script.write_text(
        "import os, sys, time\n"
        "from verifier.runtime.executors import local_pool\n"
        "pool = local_pool(2)\n"
        "pids = {pool.submit(os.getpid).result() for _ in range(8)}\n"
        "print(' '.join(map(str, sorted(pids))), flush=True)\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert pids and all(_alive(p) for p in pids)
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 20
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in pids), "a worker outlived its killed parent"


def _alive(pid: int) -> bool:
    """``pid`` runs (a zombie left for a parent that does not reap it has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def test_auto_jobs_is_one_per_usable_core_within_the_caps(monkeypatch):
    assert 1 <= executors.usable_cores() <= (os.cpu_count() or 1)
    monkeypatch.setattr(executors, "usable_cores", lambda: 4)
    assert [executors.auto_jobs(n) for n in (0, 1, 3, 4, 100)] == [1, 1, 3, 4, 4]
    assert executors.auto_jobs(100, max_workers=2) == 2
    monkeypatch.setattr(executors, "usable_cores", lambda: 64)
    assert executors.auto_jobs(100) == executors.AUTO_JOBS_CAP

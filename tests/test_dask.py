"""Searches and case studies on dask.distributed (``pip install -e '.[dask]'``).

* A ``LocalCluster`` of 2 worker processes gives the serial answer (counts, first
  counterexample by batch index, certificate), for a refuted and a true claim.
* A worker process killed with SIGKILL in the middle of a search loses nothing: its
  batches are run again elsewhere, none is counted twice, the certificate is the
  serial one.
* A search interrupted on one cluster resumes from its checkpoint with a new client
  on another cluster and ends with the serial answer.
* The command line: ``verifier search --json`` gives the same bytes (no field
  is left out of the comparison) and the same certificate file with ``--workers 1``,
  ``--workers 2``, ``--dask local:1`` and ``--dask tcp://...`` (a running cluster of 2
  workers, by its scheduler address); ``verifier casestudies --dask local:2`` gives
  the serial outcomes; unreachable or malformed addresses are input errors (exit 2).
* Box decisions: the pieces of a decision run on a ``LocalCluster`` of 2 worker
  processes and give the decision made in this process (verdict, failing and
  undecided sub-boxes, witness); ``verifier check --dask`` prints the bytes of the
  serial ``verifier check`` on a claim over a box that splits into pieces.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from importlib.util import find_spec

import pytest

from verifier import cli
from verifier.errors import InvalidParameter
from verifier.runtime.executors import DaskRunner, dask_runner
from verifier.search import SearchConfig, search

# dask is imported by the tests that use it, not at collection (almost a second on
# every worker), and the module's tests share one worker (`--dist loadgroup` in the
# pytest addopts), so one worker imports dask and starts the module's cluster
pytestmark = [
    pytest.mark.skipif(
        find_spec("distributed") is None,
        reason="dask.distributed is not installed (the optional extra: pip install -e '.[dask]')",
    ),
    pytest.mark.xdist_group("dask"),
]

#: The first violation sits in batch 12 (ordering across workers matters).
LATE = dict(
    claim="ghazi2025.thm11.no_factor2",
    seed=4,
    instances=200,
    config=SearchConfig(batch_size=2, starts=0, steps=0, max_confirm=1, shrink_checks=6),
)
#: 37 batches of ~40 ms, the violation in batch 36 (every batch spends exact checks on
#: rejected candidates): long enough to kill a worker in the middle.
SLOW = dict(
    claim="liu_talwar2019.thm32.two_eps",
    seed=3,
    instances=4 * 80,
    config=SearchConfig(batch_size=4, starts=0, steps=0, max_confirm=2, threshold=0.5),
)
SKIP_POSIX = pytest.mark.skipif(os.name != "posix", reason="SIGKILL")


def _run(spec: dict, **kw):
    spec = dict(spec)
    return search(spec.pop("claim"), seconds=None, **spec, **kw)


def _stable(r):  # everything but file locations (to_dict has no timings)
    d = r.to_dict()
    for k in ("checkpoint", "certificate"):
        d.pop(k)
    return d


@pytest.fixture(scope="module")
def cluster():
    with dask_runner("local:2") as runner:
        yield runner


def test_a_local_cluster_gives_the_serial_answer(cluster):
    assert isinstance(cluster, DaskRunner) and cluster.slots() == 2
    serial, dask = _run(LATE), _run(LATE, executor=cluster)
    assert serial.status == "violated" and serial.found_batch == 12
    assert _stable(dask) == _stable(serial)
    assert dask.certificate_text == serial.certificate_text
    true = dict(claim="liu_talwar2019.thm32", seed=3, instances=400)
    cfg = SearchConfig(batch_size=10, steps=5)
    one = _run(true, config=cfg)
    two = _run(true, config=cfg, executor=cluster.client)  # a plain distributed.Client
    assert one.status == "exhausted" and _stable(two) == _stable(one)


@pytest.mark.slow  # a dask worker killed mid-run: `pytest -m slow` (.ci/run)
@SKIP_POSIX
def test_a_killed_worker_loses_nothing():
    serial = _run(SLOW)
    assert serial.status == "violated" and serial.found_batch == 36
    consumed: list[int] = []
    killed: dict = {}
    with dask_runner("local:2") as runner:
        client = runner.client

        def kill_a_busy_worker() -> None:  # once a batch is in: the first worker seen busy
            deadline = time.monotonic() + 60
            while not killed and time.monotonic() < deadline:
                if consumed and consumed[-1] >= 1:
                    busy = {w: list(keys) for w, keys in client.processing().items() if keys}
                    if busy:
                        worker = sorted(busy)[0]
                        pid = client.run(os.getpid, workers=[worker])[worker]
                        os.kill(pid, signal.SIGKILL)
                        killed.update(worker=worker, tasks=busy[worker], at=consumed[-1])
                time.sleep(0.005)

        killer = threading.Thread(target=kill_a_busy_worker)
        killer.start()
        try:
            dask = _run(SLOW, executor=runner, progress=lambda i: consumed.append(i.batches))
        finally:
            killed.setdefault("worker", None)  # stops the killer thread
            killer.join()
    assert killed["worker"] and killed["tasks"] and killed["at"] < serial.found_batch
    assert (dask.instances, dask.batches) == (serial.instances, serial.batches)
    assert _stable(dask) == _stable(serial)
    assert dask.certificate_text == serial.certificate_text


class _Stop:
    def __init__(self, after: int) -> None:
        self.after, self.seen = after, 0

    def __call__(self, info):
        if info.phase == "search":
            self.seen += 1
            if self.seen >= self.after:
                raise KeyboardInterrupt


@pytest.mark.slow  # a second cluster started for the resume: `pytest -m slow` (.ci/run)
def test_a_checkpoint_resumes_with_a_new_client_on_another_cluster(tmp_path, cluster):
    full = _run(LATE)
    ck = tmp_path / "state.json"
    part = _run(LATE, executor=cluster, checkpoint=ck, checkpoint_every=0, progress=_Stop(3))
    assert part.status == "interrupted"
    with dask_runner("local:1") as other:
        resumed = search(LATE["claim"], seed=4, seconds=None, resume=ck, executor=other)
    assert _stable(resumed) == _stable(full)
    assert resumed.certificate_text == full.certificate_text


def _cli(capsys, *args: str) -> tuple[int, str]:
    code = cli.main(list(args))
    return code, capsys.readouterr().out


@pytest.mark.parametrize(
    "local",
    [
        False,
        # `--dask local:1` starts a cluster of its own (seconds): `pytest -m slow`
        pytest.param(True, marks=pytest.mark.slow),
    ],
)
def test_cli_search_gives_the_same_bytes_everywhere(tmp_path, monkeypatch, capsys, cluster, local):
    claim = ["search", "liu_talwar2019.B1.best_of_k_eps", "--seed", "2", "--instances", "640"]
    common = [*claim, "--json", "--no-checkpoint", "--out", "cert.toml"]
    runs = {
        "workers1": ["--workers", "1"],
        "workers2": ["--workers", "2"],
        # a running cluster of 2 workers, by its scheduler's address
        "dask2": ["--dask", cluster.client.scheduler.address],
    }
    if local:
        runs["dask1"] = ["--dask", "local:1"]
    out, certs = {}, {}
    for name, extra in runs.items():
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        code, text = _cli(capsys, *common, *extra)
        assert code == 1, text
        out[name] = text  # the raw bytes: no timing in the document
        certs[name] = (tmp_path / name / "cert.toml").read_bytes()
    assert json.loads(out["dask2"])["status"] == "violated"
    assert len(set(out.values())) == 1 and len(set(certs.values())) == 1


# a LocalCluster deciding four claims, twice (a minute): `pytest -m slow` (.ci/run runs it)
@pytest.mark.slow
def test_cli_casestudies_on_a_cluster(capsys):
    names = ["ghazi2025.thm9", "liu_talwar2019.thm32", "hartmann2022.lemma8"]
    names.append("ghazi2025.thm11.no_factor2.box")  # over a box: decided in the client
    docs = []
    for extra in ([], ["--dask", "local:2"]):
        code, text = _cli(capsys, "casestudies", *names, "--json", *extra)
        assert code == 0, text
        docs.append(json.loads(text))
        for c in docs[-1]["claims"]:
            c.pop("seconds")
    assert docs[0] == docs[1] and docs[0]["total"] >= 5


def test_a_box_decision_on_a_cluster_is_the_serial_one(cluster):
    from verifier.checks.boxes import sub_boxes_on

    from .box_pieces import CASES, check_by_hand, decide_fresh

    serial = [decide_fresh(*c) for c in CASES]
    check_by_hand(*serial)
    runner = _Counting(cluster.client)
    with sub_boxes_on(runner):
        on_dask = [decide_fresh(*c) for c in CASES]
    assert runner.submitted == 2 * 8  # every piece of both decisions went to the cluster
    assert on_dask == serial


class _Counting(DaskRunner):
    submitted = 0

    def submit(self, fn, /, *args):
        self.submitted += 1
        return super().submit(fn, *args)


@pytest.mark.slow  # a local dask cluster for a whole command: `pytest -m slow` (.ci/run)
def test_cli_check_on_a_cluster_gives_the_serial_bytes(tmp_path, capsys, cluster):
    from .test_executors import check_box_spec

    serial = check_box_spec(tmp_path, capsys)
    assert check_box_spec(tmp_path, capsys, "--dask", cluster.client.scheduler.address) == serial


def test_bad_scheduler_addresses_are_input_errors(capsys):
    with pytest.raises(InvalidParameter, match="cannot connect to the dask scheduler"):
        with dask_runner("tcp://127.0.0.1:9", timeout=1):
            pass
    assert cli.main(["search", "ghazi2025.thm8", "--dask", "nowhere"]) == 2
    assert "--dask 'nowhere'" in capsys.readouterr().err
    assert cli.main(["casestudies", "ghazi2025.thm8", "-j", "2", "--dask", "local:1"]) == 2
    assert "not both" in capsys.readouterr().err

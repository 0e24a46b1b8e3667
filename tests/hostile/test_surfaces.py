"""The surfaces of the command line that answer with something other than one error
line: what they print, what they write and what they leave behind, under the limits
of the corpus (5 s, 500 MB, one forked child per command line, ``runner.py``).

* certificate names: a claim id of 300 characters, ids that differ only in characters
  a file name cannot hold (``a/b`` and ``a_b``), the same id in two files, an id that
  climbs out of the directory (``../x``): every certificate is written, in the
  directory, under its own name, and re-verifies;
* an ``rdp`` claim of order 100000 (rationals of tens of thousands of digits) is
  decided and printed (exit 1), text and JSON;
* a zero-width joiner in an output label is shown (``\\u200d``), so two outputs never
  print alike;
* ``check --expected`` counts a claim without ``expected`` as expected to hold, as its
  exit code does; several files print a header each; ``--quiet`` prints what counts
  against the exit code only;
* ``schema --help`` lists only the codes it can return; ``schema --validate`` states
  each problem once;
* a search leaves no ``.lock`` file, and locks a symlinked checkpoint beside the link;
* ``--dask`` is not contacted for claims that need no pieces;
* with real processes: a reader that closes the pipe and a closed standard output
  (the interpreter's own exit path), and a second Ctrl-C during ``casestudies -j 2``;
* OpenDP's global ``contrib`` flag is left as the caller had it; a ``LocalCluster``
  keeps its scratch space private and removes it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verifier.cli import main

from .harness import ENV, EXAMPLES, HERE, run_batch, within_limits

# the batch of `results` runs once (a session fixture, on the one worker this group
# goes to under `--dist loadgroup`), not once per worker
pytestmark = pytest.mark.xdist_group("hostile_surfaces")

CORPUS = HERE / "corpus"
REFUTED = (CORPUS / "outputs" / "refuted.toml").read_text()  # claim "c", violated
HOLDS = (EXAMPLES / "randomized_response.toml").resolve()
CLAIM = REFUTED[REFUTED.index("[[claims]]") :]


def _with_ids(*ids: str) -> str:
    head = REFUTED[: REFUTED.index("[[claims]]")]
    return head + "".join(CLAIM.replace('id = "c"', f"id = {json.dumps(i)}") for i in ids)


ZWJ_SPEC = (
    REFUTED.replace("outputs = [0, 1]", 'outputs = ["0", "0\\u200d"]')
    .replace('"1" = "2/3"', '"0\\u200d" = "2/3"')
    .replace('"1" = "1/3"', '"0\\u200d" = "1/3"')
)
RDP_SPEC = REFUTED.replace('kind = "pure_dp"', 'kind = "rdp"\nalpha = 100000')
BAD_SCHEMA = '[[claims]]\nid = "x"\n'  # no kind: one problem
LONG_ID = "x" * 300


def _files(cwd: Path) -> dict[str, str]:
    return {
        "refuted.toml": REFUTED,
        "long.toml": _with_ids(LONG_ID),
        "collide.toml": _with_ids("a/b", "a_b", "../escape"),
        "other.toml": _with_ids("c"),
        "zwj.toml": ZWJ_SPEC,
        "rdp.toml": RDP_SPEC,
        "bad.toml": BAD_SCHEMA,
    }


#: id -> (argv, setup); setup: "link" makes real/ and link.json -> real/ck.json.
JOBS: dict[str, tuple[list[str], str]] = {
    "rdp": (["check", "rdp.toml"], ""),
    "rdp_json": (["check", "--json", "rdp.toml"], ""),
    "long_id": (["check", "long.toml", "--certificates", "certs"], ""),
    "collide": (["check", "collide.toml", "--certificates", "certs"], ""),
    "two_files": (["check", "refuted.toml", "other.toml", "--certificates", "certs"], ""),
    "zwj": (["check", "zwj.toml"], ""),
    "zwj_json": (["check", "--json", "zwj.toml"], ""),
    "expected": (["check", "--expected", "refuted.toml"], ""),
    "headers": (["check", str(HOLDS), "refuted.toml"], ""),
    "quiet_ok": (["check", "-q", str(HOLDS), str(HOLDS)], ""),
    "quiet_mixed": (["check", "--quiet", str(HOLDS), "refuted.toml"], ""),
    "schema_help": (["schema", "--help"], ""),
    "schema_validate": (["schema", "--validate", "bad.toml"], ""),
    "lock_exhausted": (
        ["search", "ghazi2025.thm9", "--instances", "40", "--checkpoint", "ck.json"],
        "",
    ),
    "lock_kept": (
        ["search", "ghazi2025.thm9", "--instances", "40", "--keep-checkpoint"],
        "",
    ),
    "lock_violated": (["search", "liu_talwar2019.B1.best_of_k_eps", "--no-shrink"], ""),
    "lock_symlink": (
        [
            "search",
            "ghazi2025.thm9",
            "--instances",
            "40",
            "--checkpoint",
            "link.json",
            "--keep-checkpoint",
        ],
        "link",
    ),  # fmt: skip
    "dask_not_needed": (["check", "refuted.toml", "--dask", "tcp://127.0.0.1:1"], ""),
}


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict, Path]]:
    jobs, dirs = [], {}
    for jid, (argv, setup) in JOBS.items():
        cwd = tmp_path_factory.mktemp(jid)
        for name, text in _files(cwd).items():
            (cwd / name).write_text(text, encoding="utf-8")
        if setup == "link":
            (cwd / "real").mkdir()
            os.symlink("real/ck.json", cwd / "link.json")
        dirs[jid] = cwd
        jobs.append({"id": jid, "argv": argv, "cwd": str(cwd)})
    records = run_batch(jobs)
    return {jid: (records[jid], dirs[jid]) for jid in JOBS}


def _get(results: dict, jid: str, code: int) -> tuple[dict, Path]:
    r, cwd = results[jid]
    within_limits(r)
    assert r["code"] == code, (r["code"], r["stderr"][-2000:])
    return r, cwd


def _recheck(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """``verifier check --json`` on a certificate: exit 1, the id of the claim it
    refutes (its violated claim is ``<id>-counterexample``)."""
    assert main(["check", "--json", str(path)]) == 1
    doc = json.loads(capsys.readouterr().out)
    (violated,) = [c["id"] for c in doc["claims"] if c["verdict"] == "violated"]
    assert violated.endswith("-counterexample")
    return violated.removesuffix("-counterexample")


# ---------------------------------------------------------------------------
# certificate names
# ---------------------------------------------------------------------------


def test_a_claim_id_of_300_characters_gets_a_certificate(results, capsys):
    _, cwd = _get(results, "long_id", 1)
    (cert,) = (cwd / "certs").iterdir()
    assert len(cert.name.encode()) < 200 and cert.name.startswith("x" * 50)
    assert _recheck(cert, capsys) == LONG_ID


def test_ids_that_share_a_safe_name_get_a_certificate_each(results, capsys):
    _, cwd = _get(results, "collide", 1)
    certs = sorted((cwd / "certs").iterdir())
    assert len(certs) == 3 and all(p.parent == cwd / "certs" for p in certs)
    assert not (cwd / "escape.toml").exists()
    assert sorted(_recheck(p, capsys) for p in certs) == sorted(["a/b", "a_b", "../escape"])


def test_the_same_id_in_two_files_gets_a_certificate_each(results, capsys):
    r, cwd = _get(results, "two_files", 1)
    certs = sorted((cwd / "certs").iterdir())
    assert len(certs) == 2
    sources = {
        p.read_text().split("Counterexample to claim 'c' of ")[1].split('"')[0] for p in certs
    }
    assert sources == {"refuted.toml", "other.toml"}
    assert [_recheck(p, capsys) for p in certs] == ["c", "c"]


def test_casestudies_certificates_never_share_a_file_or_leave_the_directory(tmp_path):
    from types import SimpleNamespace

    from verifier.arithmetic.exact import Verdict
    from verifier.cli.casestudies import _write_certificates

    def outcome(cid: str, text: str) -> SimpleNamespace:
        # refuted by its search alone (no instances): the search's certificate is written
        search = SimpleNamespace(violated=True, certificate=text)
        return SimpleNamespace(
            claim=SimpleNamespace(id=cid), search=search, result=None, verdict=Verdict.VIOLATED
        )

    ids = ["paper.thm1 / case a", "paper.thm1_case_a", "../../outside", "y" * 300]
    out = tmp_path / "certs"
    out.mkdir()
    written = _write_certificates([outcome(i, f"# {i}\n") for i in ids], out)
    assert sorted(written) == sorted(ids)
    files = sorted(out.iterdir())
    assert len(files) == 4 and all(p.suffixes[-2:] == [".certificate", ".toml"] for p in files)
    assert sorted(p.read_text() for p in files) == sorted(f"# {i}\n" for i in ids)
    assert sorted(tmp_path.iterdir()) == [out]


# ---------------------------------------------------------------------------
# what is printed
# ---------------------------------------------------------------------------


def test_an_rdp_claim_of_order_100000_is_decided_and_printed(results):
    r, _ = _get(results, "rdp", 1)
    assert "VIOLATED" in r["stdout"] and "too long to print" in r["stdout"]
    r, _ = _get(results, "rdp_json", 1)
    doc = json.loads(r["stdout"])
    assert doc["claims"][0]["verdict"] == "violated"


def test_a_zero_width_joiner_is_shown(results):
    r, _ = _get(results, "zwj", 1)
    assert "\u200d" not in r["stdout"]
    assert "0\\u200d" in r["stdout"]
    r, _ = _get(results, "zwj_json", 1)
    assert "\u200d" not in r["stdout"] and "\\u200d" in r["stdout"]
    strings: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                strings.append(k)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str):
            strings.append(node)

    walk(json.loads(r["stdout"]))
    assert "0\u200d" in strings  # the label itself, read back from the escape


def test_expected_counts_a_claim_without_expected_as_its_exit_code_does(results):
    r, _ = _get(results, "expected", 1)
    assert "1 differ from their expected outcome" in r["stdout"]
    assert "(expected holds: MISMATCH)" in r["stdout"]


def test_several_files_print_a_header_each_and_quiet_prints_what_counts(results):
    r, _ = _get(results, "headers", 1)
    assert f"==> {HOLDS} <==" in r["stdout"] and "==> refuted.toml <==" in r["stdout"]
    r, _ = _get(results, "quiet_ok", 0)
    assert r["stdout"] == ""
    r, _ = _get(results, "quiet_mixed", 1)
    assert "==> refuted.toml <==" in r["stdout"] and "VIOLATED" in r["stdout"]
    assert str(HOLDS) not in r["stdout"] and "HOLDS" not in r["stdout"]


def test_schema_lists_the_codes_it_returns_and_states_a_problem_once(results):
    r, _ = _get(results, "schema_help", 0)
    epilog = r["stdout"][r["stdout"].index("exit codes:") :]
    codes = [
        ln.split()[0] for ln in epilog.splitlines()[1:] if ln.startswith("  ") and ln[2] != " "
    ]
    assert codes == ["0", "2", "4", "130"]
    r, _ = _get(results, "schema_validate", 2)
    both = r["stdout"] + r["stderr"]
    assert both.count("'kind' is a required property") == 1
    assert len(r["stderr"].splitlines()) == 1


# ---------------------------------------------------------------------------
# what is left behind
# ---------------------------------------------------------------------------


def _locks(cwd: Path) -> list[Path]:
    return [p for p in cwd.rglob("*") if p.name.endswith(".lock")]


def test_a_search_leaves_no_lock_file(results):
    _, cwd = _get(results, "lock_exhausted", 0)
    assert _locks(cwd) == []
    _, cwd = _get(results, "lock_kept", 0)
    assert _locks(cwd) == [] and (cwd / "ghazi2025.thm9.search-checkpoint.json").is_file()
    _, cwd = _get(results, "lock_violated", 1)
    assert _locks(cwd) == []


def test_a_symlinked_checkpoint_is_locked_beside_the_link(results):
    _, cwd = _get(results, "lock_symlink", 0)
    assert _locks(cwd) == []
    assert list((cwd / "real").iterdir()) == []  # nothing beside the link's target
    assert json.loads((cwd / "link.json").read_text())["format"]


def test_dask_is_not_contacted_for_claims_without_pieces(results):
    r, _ = _get(results, "dask_not_needed", 1)
    assert r["stderr"] == ""


# ---------------------------------------------------------------------------
# real processes: the interpreter's own exit, signals
# ---------------------------------------------------------------------------


def _verifier(*args: str, cwd: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "verifier", *args], cwd=cwd, env=ENV, stderr=subprocess.PIPE, **kw
    )


def test_a_reader_that_closes_the_pipe_is_exit_2_not_0(tmp_path):
    """``verifier check refuted.toml | head -c 0``: nothing delivered, exit 2 and one
    line, also through the interpreter's exit (no "Exception ignored")."""
    (tmp_path / "r.toml").write_text(REFUTED)
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the first write
    try:
        proc = _verifier("check", "r.toml", cwd=tmp_path, stdout=w)
    finally:
        os.close(w)
    _, err = proc.communicate(timeout=120)
    lines = err.decode().splitlines()
    assert proc.returncode == 2, err
    assert len(lines) == 1 and "broken pipe" in lines[0], err


def test_a_closed_standard_output_is_exit_2(tmp_path):
    """``verifier export dp_testing --only noisy_hist1 >&-``: exit 2, one line."""
    proc = _verifier(
        "export", "dp_testing", "--only", "noisy_hist1", cwd=tmp_path,
        stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    _, err = proc.communicate(timeout=120)
    lines = err.decode().splitlines()
    assert proc.returncode == 2, err
    assert len(lines) == 1 and "standard output is closed" in lines[0], err


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                out.append(int(d))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_second_ctrl_c_during_casestudies_j2_ends_it_at_once(tmp_path):
    """Ctrl-C twice (to the process group, as a terminal sends it) while two worker
    processes decide claims: the table of the claims decided so far, "interrupted",
    and the exit within seconds (130; a shell sees 130 for death by SIGINT too)."""
    # SIGINT as a terminal's Ctrl-C finds it: a command started as a background job of
    # a non-interactive shell (a CI script's `... &`) inherits SIGINT *ignored* (POSIX),
    # and Python then installs no KeyboardInterrupt handler; this test must not depend
    # on how the test run itself was started
    proc = subprocess.Popen(
        [sys.executable, "-m", "verifier", "casestudies", "liu_talwar2019", "-j", "2",
         "--search-instances", "0"],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        t0 = time.monotonic()
        while len(_children(proc.pid)) < 2 and proc.poll() is None:
            assert time.monotonic() - t0 < 240, "the workers never started"
            time.sleep(0.2)
        time.sleep(2)  # claims under way
        assert proc.poll() is None
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)
        t1 = time.monotonic()
        out, err = proc.communicate(timeout=30)
        assert time.monotonic() - t1 < 15
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode in (130, -signal.SIGINT), err
    assert b"Traceback" not in err
    assert _children(proc.pid) == []


# ---------------------------------------------------------------------------
# the user's process is left as it was
# ---------------------------------------------------------------------------


def test_opendp_contrib_flag_is_left_as_the_caller_had_it():
    pytest.importorskip("opendp")
    from opendp.mod import GLOBAL_FEATURES

    from verifier.interop.opendp_maps import check_randomized_response_bool

    GLOBAL_FEATURES.discard("contrib")
    check_randomized_response_bool(0.75)
    assert "contrib" not in GLOBAL_FEATURES
    GLOBAL_FEATURES.add("contrib")
    try:
        check_randomized_response_bool(0.75)
        assert "contrib" in GLOBAL_FEATURES
    finally:
        GLOBAL_FEATURES.discard("contrib")


def test_a_local_dask_cluster_keeps_its_scratch_space_private(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    import tempfile

    from verifier.runtime.executors import dask_runner

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with dask_runner("local:1") as runner:
        assert runner.slots() == 1
        shared = tmp_path / "dask-scratch-space"
        assert not shared.exists()
        (private,) = tmp_path.iterdir()
        assert (
            private.name.startswith("verifier-dask-") and oct(private.stat().st_mode)[-3:] == "700"
        )
    assert list(tmp_path.iterdir()) == []

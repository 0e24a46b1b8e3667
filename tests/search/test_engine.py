"""The search engine (:mod:`verifier.search.engine`): false claims refuted with
certificates that ``verifier check`` re-proves, true theorems surviving the same
budget, shrinking, determinism across executors, and checkpoints (interrupt, time
limit, resume)."""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from verifier.arithmetic.exact import Verdict
from verifier.errors import InvalidParameter, SpecError
from verifier.search import SearchConfig, encode, read_checkpoint, run_batch, search

from .helpers import reverifies

#: The claims that must be refuted, and the true theorems that must survive.
FALSE = [
    "ghazi2025.thm11.no_factor2",
    "ghazi2025.thm9.non_monotone",
    "liu_talwar2019.thm32.two_eps",
    "liu_talwar2019.B1.best_of_k_eps",
    "lyu2017.alg5",
    "lyu2017.alg6",
    "ghazi2025.thm16.no_filter",
]
TRUE = [
    "ghazi2025.thm8",
    "ghazi2025.thm9",
    "ghazi2025.thm10",
    "ghazi2025.thm11",
    "ghazi2025.thm13",
    "liu_talwar2019.thm32",
    "liu_talwar2019.B1.best_of_k_Keps",
    "lyu2017.alg1",
    "ghazi2025.thm16",
]
#: The same instance budget for both lists.
BUDGET = 1200
#: A seed/config where the first violation sits in a later batch (ordering, resume).
LATE = dict(
    claim="ghazi2025.thm11.no_factor2",
    seed=4,
    config=SearchConfig(batch_size=2, starts=0, steps=0, max_confirm=1, shrink_checks=6),
)


def _stable(r):  # everything but file locations (to_dict has no timings)
    d = r.to_dict()
    for k in ("checkpoint", "certificate"):
        d.pop(k)
    return d


# ---------------------------------------------------------------------------
# refutations and survivals
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("claim_id", FALSE)
def test_false_claims_are_refuted_with_certificates(claim_id, tmp_path):
    out = tmp_path / "cert.toml"
    r = search(claim_id, instances=BUDGET, seed=0, seconds=None, out=out)
    assert r.status == "violated"
    assert r.counterexample_ratio is not None and r.counterexample_ratio > 1
    assert r.check is not None and r.check.verdict is Verdict.VIOLATED
    text = out.read_text()
    assert text == r.certificate_text and 'expected = "refuted"' in text
    reverifies(text, claim_id)


@pytest.mark.parametrize("claim_id", TRUE)
def test_true_theorems_survive_the_same_budget(claim_id):
    r = search(claim_id, instances=BUDGET, seed=0, seconds=None)
    assert r.status == "exhausted", r.summary()
    assert r.instances >= BUDGET
    assert 0 < r.best_ratio <= 1 + 1e-9
    assert r.best_exact_ratio is not None and r.best_exact_ratio <= 1 + 1e-12


def test_counterexample_is_shrunk_to_the_known_instance():
    r = search("ghazi2025.thm9.non_monotone", instances=200, seed=0, seconds=None)
    # two functions that increase in opposite directions, the paper's non-monotone case
    assert sorted(r.counterexample.rows) == [(0, 1), (1, 0)]
    assert r.shrink_steps > 0


def test_best_of_k_shrinks_to_two_runs_of_two_outputs():
    r = search("liu_talwar2019.B1.best_of_k_eps", instances=200, seed=0, seconds=None)
    assert len(r.counterexample.mechs) == 2
    assert all(pm.m == 2 for pm in r.counterexample.mechs)


# ---------------------------------------------------------------------------
# determinism, executors
# ---------------------------------------------------------------------------


def test_batches_are_pure_functions():
    a = run_batch("liu_talwar2019.thm32", 5, 2, SearchConfig())
    b = run_batch("liu_talwar2019.thm32", 5, 2, SearchConfig())
    assert encode(a.best) == encode(b.best) and a.best_ratio == b.best_ratio


def test_same_answer_for_every_executor():
    late = dict(LATE)
    claim, seed, cfg = late.pop("claim"), late.pop("seed"), late.pop("config")
    inline = search(claim, seed=seed, config=cfg, instances=200, seconds=None)
    assert inline.status == "violated" and inline.found_batch >= 5
    with ThreadPoolExecutor(2) as ex:
        threads = search(claim, seed=seed, config=cfg, instances=200, seconds=None, executor=ex)
    procs = search(claim, seed=seed, config=cfg, instances=200, seconds=None, workers=2)
    assert _stable(inline) == _stable(threads) == _stable(procs)


def test_true_claim_same_best_with_process_pool():
    cfg = SearchConfig(batch_size=10, steps=5)
    one = search("liu_talwar2019.thm32", seed=3, instances=400, config=cfg, seconds=None)
    with ProcessPoolExecutor(2) as ex:
        two = search(
            "liu_talwar2019.thm32",
            seed=3,
            instances=400,
            config=cfg,
            seconds=None,
            executor=ex,
        )
    assert _stable(one) == _stable(two)


# ---------------------------------------------------------------------------
# checkpoints: interrupt, kill, resume
# ---------------------------------------------------------------------------


class _Stop:
    def __init__(self, after: int, phase: str = "search") -> None:
        self.after, self.phase, self.seen = after, phase, 0

    def __call__(self, info):
        if info.phase == self.phase:
            self.seen += 1
            if self.seen >= self.after:
                raise KeyboardInterrupt


def test_interrupted_and_resumed_search_ends_with_the_same_answer(tmp_path):
    late = dict(LATE)
    claim, seed, cfg = late.pop("claim"), late.pop("seed"), late.pop("config")
    full = search(claim, seed=seed, config=cfg, instances=200, seconds=None)
    ck = tmp_path / "state.json"
    part = search(
        claim, seed=seed, config=cfg, instances=200, seconds=None, checkpoint=ck, progress=_Stop(3)
    )
    assert part.status == "interrupted" and part.batches == 3
    assert read_checkpoint(ck)["state"]["next_index"] == 3
    resumed = search(claim, seed=seed, instances=200, seconds=None, resume=ck)
    assert _stable(resumed) == _stable(full)
    assert resumed.certificate_text == full.certificate_text


def test_interrupt_while_shrinking_then_resume(tmp_path):
    full = search("liu_talwar2019.B1.best_of_k_eps", seed=0, instances=200, seconds=None)
    assert full.shrink_steps >= 2
    ck = tmp_path / "state.json"
    part = search(
        "liu_talwar2019.B1.best_of_k_eps",
        seed=0,
        instances=200,
        seconds=None,
        checkpoint=ck,
        progress=_Stop(1, "shrink"),
    )
    assert part.status == "interrupted"
    assert read_checkpoint(ck)["state"]["found"] is not None
    resumed = search("liu_talwar2019.B1.best_of_k_eps", seed=0, seconds=None, resume=ck)
    assert _stable(resumed) == _stable(full)


def test_time_limit_then_resume(tmp_path):
    ck = tmp_path / "state.json"
    first = search("ghazi2025.thm8", seed=2, instances=600, seconds=0, checkpoint=ck)
    assert first.status == "time_limit" and first.instances < 600
    done = search("ghazi2025.thm8", seed=2, seconds=None, resume=ck)
    ref = search("ghazi2025.thm8", seed=2, instances=600, seconds=None)
    assert _stable(done) == _stable(ref)
    again = search("ghazi2025.thm8", seed=2, seconds=None, resume=ck)  # a finished checkpoint
    assert _stable(again) == _stable(ref)


def test_resume_with_a_larger_budget_continues(tmp_path):
    ck = tmp_path / "state.json"
    small = search("ghazi2025.thm8", seed=1, instances=300, seconds=None, checkpoint=ck)
    assert small.status == "exhausted"
    more = search("ghazi2025.thm8", seed=1, instances=900, seconds=None, resume=ck)
    ref = search("ghazi2025.thm8", seed=1, instances=900, seconds=None)
    assert more.instances > small.instances and _stable(more) == _stable(ref)


def test_resume_refuses_another_claim_or_seed(tmp_path):
    ck = tmp_path / "state.json"
    search("ghazi2025.thm8", seed=2, instances=100, seconds=None, checkpoint=ck)
    with pytest.raises(InvalidParameter, match="claim"):
        search("ghazi2025.thm10", seed=2, resume=ck)
    with pytest.raises(InvalidParameter, match="seed"):
        search("ghazi2025.thm8", seed=3, resume=ck)
    (tmp_path / "junk.json").write_text("{}")
    with pytest.raises(SpecError):
        search("ghazi2025.thm8", resume=tmp_path / "junk.json")


def test_screening_ratios_are_rounded_so_any_machine_screens_alike():
    # numpy's exp/log differ in their last bits between CPUs: the engine keeps 12
    # significant digits, so instances that attain a bound (ratio 1 up to float noise)
    # tie exactly and the lower index wins on every machine
    from random import Random

    from verifier.search.engine import SCREEN_DIGITS, _screen, get_searchable, search_spec

    claim = get_searchable("ghazi2025.thm9")
    space = search_spec(claim).space
    rng = Random(3)
    ratios = [_screen(claim, space.random(rng)) for _ in range(30)]
    assert SCREEN_DIGITS == 12
    assert all(r == float(f"{r:.12g}") for r in ratios if math.isfinite(r))
    assert any(r != int(r) for r in ratios if math.isfinite(r))  # not rounded to integers

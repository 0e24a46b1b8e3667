"""Counterexample search (verifier.search): exact instances, screening against the
exact checkers, refutations with re-verifying certificates, survival of the true
theorems, determinism across executors, checkpoints and resumption.

Budgets are instance counts (deterministic), small enough for CI; the seeds below
are ordinary seeds, not tuned (every false claim falls within the first batches).
"""

from __future__ import annotations

import math
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings

from verifier.arithmetic import Verdict
from verifier.errors import InvalidParameter, SpecError, UnknownClaim
from verifier.privacy import check_pure_dp
from verifier.search import (
    SearchConfig,
    confirm,
    decode,
    encode,
    get_searchable,
    read_checkpoint,
    run_batch,
    search,
    searchable_claims,
    spec_searchable,
)
from verifier.search.certificates import to_toml
from verifier.search.core import batch_seed
from verifier.search.spaces import (
    PURE_BUDGETS,
    PairMech,
    Selection,
    extreme_pair,
    is_dp,
    merge_outputs,
    perturb_pair,
    random_pair,
    simplify_pair,
)
from verifier.spec import loads_spec
from verifier.testing import (
    assert_counterexample,
    assert_no_counterexample,
    dp_pairs,
    pair_mechs,
    query_vector_pairs,
    sensitivity_tables,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
F = Fraction

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


def _stable(r):  # everything but timing and file locations
    d = r.to_dict()
    for k in ("elapsed", "checkpoint", "certificate"):
        d.pop(k)
    return d


def _reverifies(text: str, target: str) -> None:
    spec = loads_spec(text, "toml")
    verdicts = {c.id: c.run().verdict for c in spec.claims}
    assert verdicts.pop(target) is Verdict.VIOLATED
    assert all(v is Verdict.HOLDS for v in verdicts.values())


# ---------------------------------------------------------------------------
# instances and spaces
# ---------------------------------------------------------------------------


def test_encoding_round_trips_exactly():
    inst = Selection((PairMech(F(2), (F(1, 3), F(2, 3)), (F(1, 2), F(1, 2))),), F(11, 10), 1, 2)
    assert decode(encode(inst)) == inst
    assert decode(encode(math.inf)) == math.inf
    assert batch_seed(3, 7) == batch_seed(3, 7) != batch_seed(7, 3)


def test_generators_give_exact_dp_pairs():
    rng = random.Random(0)
    for k in range(300):
        a = PURE_BUDGETS[k % len(PURE_BUDGETS)]
        m = 2 + k % 4
        pm = (extreme_pair if k % 2 else random_pair)(rng, m, a)
        pm.check()
        moved = perturb_pair(pm, rng, 1.0)
        moved.check()
        if m > 2:
            merge_outputs(pm, 0).check()
        for s in simplify_pair(pm):
            s.check()


def test_extreme_pairs_attain_the_budget():
    rng = random.Random(1)
    hits = sum(extreme_pair(rng, 3, F(3)).ratio() == 3 for _ in range(50))
    assert hits >= 40  # ratios at a^{+-1} on all outputs but one


@settings(max_examples=40, deadline=None)
@given(dp_pairs(a=3))
def test_dp_pairs_strategy_is_exactly_eps_dp(m):
    assert check_pure_dp(m, sp.log(3)).verdict is Verdict.HOLDS


@settings(max_examples=40, deadline=None)
@given(pair_mechs(), sensitivity_tables(), query_vector_pairs())
def test_strategies(pm, table, qp):
    assert is_dp(pm.p, pm.q, pm.a) and sum(pm.p) == sum(pm.q) == 1
    assert all(abs(a - b) <= 1 for a, b in zip(table["D"], table["D'"], strict=True))
    assert qp.q != qp.q2 and all(abs(a - b) <= 1 for a, b in zip(qp.q, qp.q2, strict=True))


# ---------------------------------------------------------------------------
# screening agrees with the exact checkers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("claim_id", [c.id for c in searchable_claims()])
def test_screen_matches_exact_ratio(claim_id):
    c = get_searchable(claim_id)
    rng = random.Random(11)
    for k in range(3):
        space = c.search.space
        inst = space.extreme(rng) if k % 2 else space.random(rng)
        s, conf = c.search.screen(inst), confirm(c, inst)
        assert conf.error is None and conf.ratio is not None
        if math.isinf(conf.ratio):
            assert math.isinf(s)
        else:
            assert s == pytest.approx(conf.ratio, rel=1e-9, abs=1e-12)


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
    _reverifies(text, claim_id)


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


# ---------------------------------------------------------------------------
# spec files, test helpers, errors
# ---------------------------------------------------------------------------


def test_spec_file_claims(tmp_path):
    path = EXAMPLES / "best_of_k.toml"
    bad = spec_searchable(path, "best-of-3-is-not-2eps-dp")
    r = search(bad, instances=100, seed=0, seconds=None, out=tmp_path / "c.toml")
    assert r.violated
    _reverifies((tmp_path / "c.toml").read_text(), "best-of-3-is-not-2eps-dp")
    good = spec_searchable(path, "best-of-3-is-3eps-dp")
    r = search(good, instances=200, seed=0, seconds=None)
    assert r.status == "exhausted" and r.best_ratio <= 1
    with pytest.raises(SpecError, match="choose one"):
        spec_searchable(path)


PATH_SPEC = """
[graphs.g]
kind = "path"
n = 2
[mechanisms.m]
graph = "g"
outputs = [0, 1, 2]
distributions."0" = { "0" = "1/2", "1" = "1/4", "2" = "1/4" }
distributions."1" = { "0" = "1/3", "1" = "1/3", "2" = "1/3" }
distributions."2" = { "0" = "1/4", "1" = "1/4", "2" = "1/2" }
[mechanisms.best]
algorithm = "best_of"
inputs = ["m", "m"]
[[claims]]
id = "group"
mechanism = "best"
kind = "pure_dp"
epsilon = "EPS"
distance = 2
"""


def test_spec_file_on_a_path_graph(tmp_path):
    # m is log(3/2)-DP on the path 0 ~ 1 ~ 2; best of two runs at distance 2 is
    # 2 * 2 * log(3/2) = log(81/16)-DP (group privacy and composition), attained.
    (tmp_path / "ok.toml").write_text(PATH_SPEC.replace("EPS", "log(81/16)"))
    r = search(spec_searchable(tmp_path / "ok.toml"), instances=400, seed=0, seconds=None)
    assert r.status == "exhausted" and 0.99 < r.best_ratio <= 1 + 1e-9
    (tmp_path / "bad.toml").write_text(PATH_SPEC.replace("EPS", "log(9/4)"))
    r = search(spec_searchable(tmp_path / "bad.toml"), instances=400, seed=0, seconds=None)
    assert r.violated
    _reverifies(r.certificate_text, "group")


def test_testing_helpers(tmp_path):
    r = assert_no_counterexample("liu_talwar2019.thm32", instances=200, seconds=None)
    assert r.best_ratio < 1
    with pytest.raises(AssertionError, match="exceeds"):
        assert_no_counterexample("liu_talwar2019.thm32", instances=200, seconds=None, max_ratio=0.1)
    with pytest.raises(AssertionError, match="counterexample found"):
        assert_no_counterexample("liu_talwar2019.thm32.two_eps", instances=200, seconds=None)
    r = assert_counterexample(
        EXAMPLES / "best_of_k.toml",
        claim_id="best-of-3-is-not-2eps-dp",
        instances=100,
        seconds=None,
        certificate=tmp_path / "c.toml",
    )
    assert (tmp_path / "c.toml").exists()


def test_unknown_claim():
    with pytest.raises(UnknownClaim, match="searchable"):
        get_searchable("no.such.claim")


def test_toml_writer_round_trip():
    doc = {
        "version": 1,
        "graphs": {"g": {"kind": "pair", "datasets": ["D", "D'"]}},
        "mechanisms": {
            "M": {
                "graph": "g",
                "outputs": [0, [1, "a"]],
                "distributions": {"D": {"0": "1/2", "(1, a)": "1/2"}, "D'": {"0": 1}},
            }
        },
        "claims": [{"id": "c", "mechanism": "M", "kind": "pure_dp", "epsilon": "log(2)"}],
    }
    assert "[mechanisms.M.distributions]" in to_toml(doc, "a\ncomment")


@pytest.mark.parametrize(
    "module", ["verifier.search", "verifier.search.core", "verifier.search.spaces"]
)
def test_doctests(module):
    import doctest
    import importlib

    res = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


def test_alg3_search_documents_list_the_outputs_of_the_built_mechanism():
    from casestudies.ghazi2025.search import _alg3_outputs
    from verifier.search.certificates import derived_outputs

    claim = get_searchable("ghazi2025.thm11")
    rng = random.Random(3)
    for _ in range(20):
        inst = claim.search.space.random(rng)
        doc = claim.search.document(inst)
        assert _alg3_outputs(inst) == derived_outputs(doc, "A")

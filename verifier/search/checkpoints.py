"""Checkpoints of a search: read safely, validated, sealed and locked.

A checkpoint is a JSON file written by :func:`verifier.search.search` and read back by
``--resume``.  It is input like any other: it may be truncated, edited, replaced by
another file, or written by a second search at the same time.  This module makes
each of those an error that names the problem (exit 2) or harmless:

* **reading** (:func:`read_checkpoint`): only a regular file of at most
  :data:`MAX_CHECKPOINT_BYTES` is opened, and only a JSON object is parsed (a file
  that does not start with ``{`` is refused unread); the document must match the
  schema: every key present with its type and range (:func:`validate_document`);
* **integrity**: the writer seals the document with the ``sha256`` of its canonical
  JSON (:func:`seal`); a document whose recorded digest does not match was modified
  after it was written and is refused;
* **consistency with the claim** (:func:`validate_resume`): the claim's reference
  (its spec file's ``sha256`` included) must be the recorded one, the counters must
  agree with the batches consumed and with the budget, the best instance and a
  counterexample must be what their recorded batches produce (one batch is
  recomputed for each), a counterexample must re-verify exactly, and its recorded
  shrinking must be what replaying the (deterministic) shrinking gives.  Batches finished out of order are pure functions of the claim, the seed
  and their index, so they are recomputed rather than trusted.  A checkpoint edited
  in any field is therefore refused or leads to the same final answer;
* **locking** (:func:`lock_checkpoint`): a search holds an exclusive lock
  (``flock`` on the file ``CHECKPOINT.lock`` beside it, removed on release) for as
  long as it may write the checkpoint; a second search on the same path is refused
  at once.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import fields
from pathlib import Path
from typing import Any

from ..errors import InvalidParameter, SpecError
from ..spec.io import file_status, read_at_most

__all__ = [
    "MAX_CHECKPOINT_BYTES",
    "read_checkpoint",
    "validate_document",
    "validate_resume",
    "seal",
    "digest",
    "lock_checkpoint",
]

#: Largest checkpoint read, in bytes (a checkpoint holds one aggregate and a few
#: batch results: kilobytes).
MAX_CHECKPOINT_BYTES = 32 * 1024 * 1024
#: Most nested levels of an encoded instance.
_MAX_DEPTH = 32
#: Longest string and most digits of an integer inside a checkpoint.
_MAX_TEXT = 100_000
_MAX_INT_BITS = 1 << 14


def _fail(path: Any, problem: str) -> SpecError:
    return SpecError(f"{path}: not a valid search checkpoint: {problem}")


# ---------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------


def read_checkpoint(path: str | os.PathLike[str], fmt: str, version: int) -> dict[str, Any]:
    """Read and validate (:func:`validate_document`) the checkpoint at ``path``,
    whose ``format`` and ``version`` fields must be ``fmt`` and ``version``."""
    p = Path(path)
    st = file_status(p, "no such checkpoint file", "cannot read the checkpoint")
    if not stat.S_ISREG(st.st_mode):
        raise SpecError(f"{p}: not a search checkpoint (not a regular file)")
    if st.st_size > MAX_CHECKPOINT_BYTES:
        raise SpecError(
            f"{p}: not a search checkpoint ({st.st_size} bytes, more than the "
            f"{MAX_CHECKPOINT_BYTES} a checkpoint may have)"
        )
    data = read_at_most(p, MAX_CHECKPOINT_BYTES, "cannot read the checkpoint")
    if len(data) > MAX_CHECKPOINT_BYTES or not data.lstrip()[:1] == b"{":
        raise SpecError(f"{p}: not a search checkpoint (not a JSON object)")
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise SpecError(f"{p}: not a readable search checkpoint ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        raise SpecError(f"{p}: not a search checkpoint")
    if doc.get("version") != version:
        raise SpecError(f"{p}: checkpoint version {doc.get('version')!r} is not supported")
    validate_document(doc, p)
    return doc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def digest(doc: dict[str, Any]) -> str:
    """The sha256 of the canonical JSON of ``doc`` without its ``sha256`` field."""
    body = {k: v for k, v in doc.items() if k != "sha256"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def seal(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its ``sha256`` (:func:`digest`) recorded."""
    return {**doc, "sha256": digest(doc)}


# ---------------------------------------------------------------------------
# schema
# ---------------------------------------------------------------------------


def _int(lo: int | None = None, hi: int | None = None) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"expected an integer, got {type(v).__name__}"
        if v.bit_length() > _MAX_INT_BITS:
            return "the integer is too large"
        if lo is not None and v < lo:
            return f"must be >= {lo}, got {v}"
        if hi is not None and v > hi:
            return f"must be <= {hi}, got {v}"
        return None

    return check


def _number(lo: float | None = None, hi: float | None = None) -> Callable[[Any], str | None]:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return f"expected a number, got {type(v).__name__}"
        if isinstance(v, int) and v.bit_length() > 64:
            return "the number is too large"
        if not math.isfinite(v) or (lo is not None and v < lo) or (hi is not None and v > hi):
            return f"must be a finite number in [{lo}, {hi}], got {v!r}"
        return None

    return check


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else f"expected true or false, got {type(v).__name__}"


def _text_or_none(v: Any) -> str | None:
    if v is None or (isinstance(v, str) and len(v) <= _MAX_TEXT):
        return None
    return "expected a (short) string or null"


def _ratio(v: Any) -> str | None:
    """An encoded float: a finite number, or ``{"x": "inf" | "-inf" | "nan"}``."""
    if isinstance(v, dict):
        return None if v in ({"x": "inf"}, {"x": "-inf"}, {"x": "nan"}) else "not an encoded ratio"
    return _number()(v)


def _ratio_or_none(v: Any) -> str | None:
    return None if v is None else _ratio(v)


def _encoded(v: Any, depth: int = 0) -> str | None:
    """An encoded instance (:func:`verifier.search.core.encode`), bounded in depth and
    size."""
    if depth > _MAX_DEPTH:
        return "an instance nested too deeply"
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, int):
        return _int()(v)
    if isinstance(v, float):
        return None if math.isfinite(v) else "a non-finite number in an instance"
    if isinstance(v, str):
        return None if len(v) <= _MAX_TEXT else "a string too long"
    if isinstance(v, list):
        return next((e for x in v if (e := _encoded(x, depth + 1))), None)
    if not isinstance(v, dict) or len(v) not in (1, 2):
        return f"not an encoded instance ({type(v).__name__})"
    if set(v) == {"f"}:
        f = v["f"]
        if not isinstance(f, str) or len(f) > 10_000:
            return "a malformed fraction"
        num, _, den = f.partition("/")
        if not (num.lstrip("-").isdigit() and den.isdigit() and int(den) != 0):
            return f"a malformed fraction {f[:40]!r}"
        return None
    if set(v) == {"x"}:
        return _ratio(v)
    if set(v) == {"t"}:
        return _encoded(v["t"], depth + 1) if isinstance(v["t"], list) else "a malformed tuple"
    if set(v) == {"d"}:
        items = v["d"]
        if not isinstance(items, list) or not all(
            isinstance(kv, list) and len(kv) == 2 for kv in items
        ):
            return "a malformed mapping"
        return _encoded(items, depth + 1)
    if set(v) == {"dc", "v"}:
        from .core import _TYPES

        cls = _TYPES.get(v["dc"]) if isinstance(v["dc"], str) else None
        if cls is None:
            return f"unknown instance type {str(v['dc'])[:40]!r}"
        names = {f.name for f in fields(cls)}
        if not isinstance(v["v"], dict) or set(v["v"]) != names:
            return f"the fields of {v['dc']} are not {sorted(names)}"
        return _encoded(list(v["v"].values()), depth + 1)
    return "not an encoded instance"


def _instance(v: Any) -> str | None:
    return _encoded(v)


_CONFIG = {
    "batch_size": _int(1, 100_000),
    "extreme_fraction": _number(0.0, 1.0),
    "starts": _int(0, 100_000),
    "steps": _int(0, 100_000),
    "max_confirm": _int(1, 10_000),
    "shrink_checks": _int(0, 100_000),
    "threshold": _number(0.0, 1e300),
}
_BATCH = {
    "index": _int(0),
    "count": _int(0),
    "best_ratio": _ratio,
    "best": _instance,
    "confirmed": _instance,
    "confirmed_ratio": _ratio_or_none,
    "candidates": _int(0),
    "rejected": _int(0),
    "errors": _int(0),
    "error": _text_or_none,
}
_STATE = {
    "next_index": _int(0),
    "instances": _int(0),
    "best_ratio": _ratio,
    "best": _instance,
    "best_batch": _int(-1),
    "pending": None,  # a list of batches, checked below
    "candidates": _int(0),
    "rejected": _int(0),
    "errors": _int(0),
    "first_error": _text_or_none,
    "found": _instance,
    "found_batch": _int(-1),
    "found_ratio": _ratio_or_none,
    "shrink_current": _instance,
    "shrink_checks": _int(0),
    "shrink_steps": _int(0),
    "shrink_done": _bool,
    "done": _bool,
    "elapsed": _number(0.0, 1e12),
}


def _table(path: Any, where: str, value: Any, schema: dict[str, Any]) -> None:
    if not isinstance(value, dict):
        raise _fail(path, f"{where} must be an object")
    missing = [k for k in schema if k not in value]
    if missing:
        raise _fail(path, f"{where} has no {missing[0]!r}")
    extra = [k for k in value if k not in schema]
    if extra:
        raise _fail(path, f"{where} has an unknown key {str(extra[0])[:40]!r}")
    for k, check in schema.items():
        if check is not None and (problem := check(value[k])):
            raise _fail(path, f"{where}.{k}: {problem}")


def _reference(v: Any) -> str | None:
    if not isinstance(v, dict):
        return "must be an object"
    if set(v) == {"id"} or set(v) == {"object"}:
        return _text_or_none(next(iter(v.values()))) if next(iter(v.values())) else "empty"
    if set(v) == {"spec", "claim", "sha256"}:
        if not isinstance(v["spec"], str) or _text_or_none(v["claim"]):
            return "a malformed spec reference"
        h = v["sha256"]
        if not (isinstance(h, str) and len(h) == 64 and all(c in "0123456789abcdef" for c in h)):
            return "sha256 must be 64 hexadecimal digits"
        return None
    return "must be {id}, {object} or {spec, claim, sha256}"


def validate_document(doc: dict[str, Any], path: Any = "checkpoint") -> None:
    """Check the structure of a checkpoint document: every key with its type and
    range, and its ``sha256`` seal when it has one.  Raises
    :class:`~verifier.errors.SpecError` naming the first problem."""
    top = {
        "format": None,
        "version": None,
        "claim": _text_or_none,
        "reference": _reference,
        "seed": _int(-(1 << 63), (1 << 63) - 1),
        "instances": _int(1, 10**12),
        "config": None,
        "state": None,
    }
    if "sha256" in doc:
        top["sha256"] = None
    _table(path, "the document", doc, top)
    if not isinstance(doc["claim"], str):
        raise _fail(path, "claim must be a string")
    if "sha256" in doc and doc["sha256"] != digest(doc):
        raise SpecError(
            f"{path}: the checkpoint was modified after it was written (its sha256 does not "
            f"match its content); refusing to resume from it"
        )
    _table(path, "config", doc["config"], _CONFIG)
    if doc["config"]["starts"] > doc["config"]["batch_size"]:
        raise _fail(path, "config.starts exceeds config.batch_size")
    state = doc["state"]
    _table(path, "state", state, _STATE)
    pending = state["pending"]
    if not isinstance(pending, list) or len(pending) > 10_000:
        raise _fail(path, "state.pending must be a list of batches")
    for i, b in enumerate(pending):
        _table(path, f"state.pending[{i}]", b, _BATCH)


# ---------------------------------------------------------------------------
# consistency with the claim
# ---------------------------------------------------------------------------


def validate_resume(
    doc: dict[str, Any],
    state: Any,
    *,
    reference: dict[str, Any],
    per_batch: int,
    batch: Callable[[int], Any],
    confirmed: Callable[[Any], bool],
    replay: Callable[[Any, int], tuple[Any, int, int]],
    path: Any = "checkpoint",
) -> None:
    """Check a decoded checkpoint state against the claim it resumes.

    ``reference`` is the claim's encoded reference (its spec file's sha256
    included), ``per_batch`` the instances per batch of the recorded configuration,
    ``batch(i)`` recomputes batch ``i`` (a :class:`~verifier.search.engine.BatchResult`;
    batches are pure functions of the claim, the seed and their index) and
    ``confirmed(instance)`` is the claim's exact confirmation, and
    ``replay(found, checks)`` replays the (deterministic) shrinking of ``found`` for
    at most ``checks`` exact checks, returning ``(instance, steps, checks used)``.
    The best instance and a counterexample must be what their recorded batches
    produce, and the recorded shrinking what shrinking the counterexample gives.  Out-of-order batches
    (``state.pending``) are dropped: they are recomputed.  The statistics
    ``candidates``, ``rejected``, ``errors`` and ``elapsed`` are sums over every
    consumed batch and are only range-checked.  Raises
    :class:`~verifier.errors.SpecError` naming the problem.
    """
    from .core import instance_key

    if doc["reference"] != reference:
        raise SpecError(
            f"{path}: the checkpoint was made for another version of the claim "
            f"(recorded {doc['reference']}, now {reference}); its spec file changed?"
        )
    budget = math.ceil(int(doc["instances"]) / per_batch)
    st = state
    if st.next_index > budget:
        raise _fail(path, f"{st.next_index} batches consumed, more than the budget's {budget}")
    if st.instances != st.next_index * per_batch:
        raise _fail(
            path,
            f"state.instances is {st.instances}, but {st.next_index} batches of {per_batch} "
            f"instances were consumed",
        )
    for name in ("candidates", "errors"):
        if getattr(st, name) > st.instances:
            raise _fail(path, f"state.{name} exceeds the instances screened")
    if st.rejected > st.candidates:
        raise _fail(path, "state.rejected exceeds state.candidates")
    if (st.best is None) != (st.next_index == 0):
        raise _fail(path, "state.best must be recorded exactly when a batch was consumed")
    if st.best is not None:
        if not 0 <= st.best_batch < st.next_index:
            raise _fail(path, f"state.best_batch {st.best_batch} is not a consumed batch")
        rb = batch(st.best_batch)
        if instance_key(rb.best) != instance_key(st.best) or not _same(
            rb.best_ratio, st.best_ratio
        ):
            raise _fail(
                path,
                f"state.best and state.best_ratio are not what batch {st.best_batch} "
                f"produces (ratio {rb.best_ratio!r}, recorded {st.best_ratio!r})",
            )
    elif st.best_ratio != -math.inf or st.best_batch != -1:
        raise _fail(path, "a best ratio is recorded without a best instance")
    st.pending = {}
    if st.found is None:
        if st.found_batch != -1 or st.found_ratio is not None or st.shrink_current is not None:
            raise _fail(path, "a counterexample's details are recorded without a counterexample")
        if st.shrink_checks or st.shrink_steps or st.shrink_done:
            raise _fail(path, "shrinking is recorded without a counterexample")
        if st.done and st.next_index != budget:
            raise _fail(path, "the search is marked done before its budget was used")
        return
    if not 0 <= st.found_batch < st.next_index:
        raise _fail(path, f"state.found_batch {st.found_batch} is not a consumed batch")
    if st.found_batch != st.next_index - 1 and st.found_batch != st.best_batch:
        raise _fail(path, "the search did not stop at the batch of its counterexample")
    if st.shrink_steps > st.shrink_checks or st.shrink_checks > doc["config"]["shrink_checks"]:
        raise _fail(path, "the shrinking counters exceed the configuration")
    rb = batch(st.found_batch)
    from_batch = rb.confirmed is not None and instance_key(rb.confirmed) == instance_key(st.found)
    from_best = st.found_batch == st.best_batch and instance_key(st.found) == instance_key(st.best)
    if not (from_batch or from_best) or (
        from_batch and not _same_opt(rb.confirmed_ratio, st.found_ratio)
    ):
        raise _fail(path, f"state.found is not the counterexample of batch {st.found_batch}")
    if not confirmed(st.found):
        raise SpecError(
            f"{path}: the checkpoint's counterexample does not re-verify exactly; refusing "
            f"to resume from it"
        )
    if st.done and not st.shrink_done:
        raise _fail(path, "the search is marked done before its counterexample was shrunk")
    unshrunk = st.shrink_checks == 0 and st.shrink_steps == 0 and st.shrink_current is None
    if not (unshrunk and st.shrink_done):  # else: a search run without shrinking
        limit = doc["config"]["shrink_checks"] if st.shrink_done else st.shrink_checks
        current, steps, used = replay(st.found, limit)
        recorded = st.found if st.shrink_current is None else st.shrink_current
        if (
            instance_key(current) != instance_key(recorded)
            or steps != st.shrink_steps
            or (st.shrink_done and used != st.shrink_checks)
        ):
            raise _fail(
                path,
                "the recorded shrinking (state.shrink_*) is not what shrinking the "
                "counterexample gives",
            )


def _same_opt(a: Any, b: Any) -> bool:
    return (a is None and b is None) or (a is not None and _same(a, b))


def _same(a: float, b: Any) -> bool:
    return isinstance(b, (int, float)) and (a == b or (math.isnan(a) and math.isnan(b)))


# ---------------------------------------------------------------------------
# locking
# ---------------------------------------------------------------------------


@contextmanager
def lock_checkpoint(*paths: str | os.PathLike[str] | None) -> Iterator[None]:
    """Hold an exclusive lock on each checkpoint path for the duration of the block;
    :class:`~verifier.errors.InvalidParameter` at once if another search holds one.

    The lock is the file ``PATH.lock`` beside the path as given (a checkpoint that is
    a symbolic link is locked, and later replaced, where the link is, never beside
    its target), held with ``flock`` and removed when the lock is released: a search
    leaves no ``.lock`` file behind.  A search that opened a lock file just before
    its holder removed it sees, once it holds the lock, that the file is no longer
    the one at ``PATH.lock`` and tries again on the new one.
    """
    seen: list[Path] = []
    for raw in paths:
        if raw is None:
            continue
        p = _beside(Path(raw))
        if p not in seen:
            seen.append(p)
    with ExitStack() as stack:
        for p in seen:
            stack.enter_context(_exclusive(p))
        yield


def _beside(p: Path) -> Path:
    """``p`` with its directory made absolute and free of symbolic links, its own name
    kept (not resolved: ``p`` itself may be a link)."""
    try:
        parent = p.absolute().parent.resolve()
    except (OSError, RuntimeError):  # a loop of links above it: the write will say
        parent = p.absolute().parent
    return parent / p.name


@contextmanager
def _exclusive(p: Path) -> Iterator[None]:
    lock = Path(f"{p}.lock")
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: the lock file stays
        from filelock import FileLock, Timeout

        fl = FileLock(str(lock))
        try:
            fl.acquire(timeout=0)
        except Timeout:
            raise _in_use(p) from None
        except OSError as err:
            raise InvalidParameter(
                f"{p}: cannot lock the checkpoint: {err.strerror or err}"
            ) from None
        try:
            yield
        finally:
            fl.release()
        return
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as err:
            raise InvalidParameter(
                f"{p}: cannot lock the checkpoint: {err.strerror or err}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise _in_use(p) from None
        except OSError as err:
            os.close(fd)
            raise InvalidParameter(
                f"{p}: cannot lock the checkpoint: {err.strerror or err}"
            ) from None
        try:
            held, there = os.fstat(fd), os.stat(lock, follow_symlinks=False)
            current = (held.st_dev, held.st_ino) == (there.st_dev, there.st_ino)
        except OSError:
            current = False
        if current:
            break
        os.close(fd)  # its holder removed it on release: lock the new one
    try:
        yield
    finally:
        try:
            os.unlink(lock)
        except OSError:
            pass
        os.close(fd)


def _in_use(p: Path) -> InvalidParameter:
    return InvalidParameter(
        f"{p}: the checkpoint is in use by another search (locked by {p}.lock); "
        f"wait for it to finish or choose another --checkpoint"
    )

"""Where independent tasks run: this process, local processes, or a dask cluster.

A :class:`Runner` is the one interface the engine's parallel loops use: ``submit`` a
task (a module-level function and picklable arguments: claims travel as their ids),
``wait`` for the first of some futures to finish, ask how many ``slots`` (tasks that
can run at once) there are now.  Two implementations:

* :class:`ExecutorRunner` — any :class:`concurrent.futures.Executor` (local worker
  processes, threads);
* :class:`DaskRunner` — a :class:`distributed.Client` (``pip install -e '.[dask]'``):
  tasks go out with ``client.submit``, finished ones come back through
  ``distributed.as_completed``.  Dask schedules, moves data and re-runs the tasks of
  a worker that died; nothing here opens a socket, keeps a queue or retries.

On top of them, :func:`ordered_map` runs a stream of tasks with a bounded number in
flight and yields their results in submission order (``verifier casestudies -j N`` and
``--dask``); results travel as :func:`portable_dumps` bytes.  The counterexample search keeps its own loop on the same calls
(:func:`verifier.search.search`), because it checkpoints finished out-of-order
batches.  A box decision split into pieces (:mod:`verifier.checks.boxes`, "Pieces") submits
them the same way, ``ordered_map(runner, _settle_piece, pieces)``, and merges their
findings in piece order.

Determinism is the callers' part: a task must be a pure function of its arguments,
and results are consumed in task order, so the answer does not depend on the runner,
the number of workers or the order in which they finish.

>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as ex:
...     list(ordered_map(ExecutorRunner(ex), pow, [(2, k) for k in range(6)]))
[1, 2, 4, 8, 16, 32]
>>> parse_dask("local:3"), parse_dask("tcp://scheduler:8786")
(DaskTarget(address=None, workers=3), DaskTarget(address='tcp://scheduler:8786', workers=None))
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import logging
import math
import os
import pickle
import re
import signal
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import InvalidParameter

__all__ = [
    "DASK_EXTRA",
    "DaskRunner",
    "DaskTarget",
    "ExecutorRunner",
    "LazyRunner",
    "AUTO_JOBS_CAP",
    "MAX_WORKERS",
    "WORKERS_CEILING",
    "probe_scheduler",
    "identify_scheduler",
    "Runner",
    "as_runner",
    "auto_jobs",
    "local_pool",
    "usable_cores",
    "dask_runner",
    "open_runner",
    "ordered_map",
    "parse_dask",
    "portable_dumps",
    "portable_loads",
]

R = TypeVar("R")

#: How to install the optional dependency (named in every error about it).
DASK_EXTRA = "pip install -e '.[dask]' (or pip install 'dask[distributed]')"


class Runner(ABC):
    """Runs independent tasks and hands back futures (see the module docstring)."""

    @abstractmethod
    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        """Start ``fn(*args)``; return its future (``result()``, ``done()``, ``cancel()``)."""

    @abstractmethod
    def wait(self, futures: Collection[Any], timeout: float | None) -> set[Any]:
        """Block until one of ``futures`` is finished or ``timeout`` seconds have
        passed; return the finished ones (possibly none)."""

    @abstractmethod
    def slots(self) -> int:
        """How many tasks can run at once now (at least 1)."""

    def cancel(self, futures: Iterable[Any]) -> None:
        """Cancel unfinished tasks (a finished one is left alone)."""
        for fut in futures:
            fut.cancel()

    @abstractmethod
    def close(self, *, wait: bool = True) -> None:
        """Release what this runner started itself (``wait``: for running tasks)."""


class ExecutorRunner(Runner):
    """A :class:`concurrent.futures.Executor` as a :class:`Runner`.

    Parameters
    ----------
    executor : concurrent.futures.Executor
        Runs the tasks.
    slots : int, optional
        Its number of workers (default: the executor's ``_max_workers`` when it has
        one, as the standard pools do, else the number of CPUs).
    owned : bool
        Shut the executor down in :meth:`close` (it was made for this runner).
    """

    def __init__(self, executor: cf.Executor, slots: int | None = None, owned: bool = False):
        self.executor = executor
        n = slots if slots is not None else getattr(executor, "_max_workers", None)
        self._slots = int(n) if isinstance(n, int) and n > 0 else (os.cpu_count() or 2)
        self.owned = owned
        self._closed = False

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> cf.Future[Any]:
        return self.executor.submit(fn, *args)

    def wait(self, futures: Collection[Any], timeout: float | None) -> set[Any]:
        if not futures:
            return set()
        done, _ = cf.wait(list(futures), timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return set(done)

    def slots(self) -> int:
        return self._slots

    def close(self, *, wait: bool = True) -> None:
        """Shut an owned executor down (``wait``: for the running tasks).  Without
        ``wait`` the worker processes of an owned process pool are terminated: after
        Ctrl-C nothing waits for a long task, and nothing is left for the
        interpreter's exit to wait for."""
        if not self.owned or self._closed:
            return
        if wait:
            self._closed = True
            self.executor.shutdown(wait=True, cancel_futures=True)
            return
        self._closed = True
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        # a second Ctrl-C during this bounded clean-up (2 s a process at most) must not
        # cut it short: the workers would be left for the interpreter's exit to wait for
        with _sigint_ignored():
            self.executor.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                try:
                    proc.terminate()
                except Exception:  # noqa: BLE001 - already gone
                    pass
            for proc in processes:
                try:
                    proc.join(2)
                    if proc.is_alive():
                        proc.kill()
                except Exception:  # noqa: BLE001 - already gone
                    pass


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in the block (in the main thread; elsewhere signals are not
    delivered to Python code), the previous handler restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class DaskRunner(Runner):
    """A :class:`distributed.Client` as a :class:`Runner`.

    Tasks are submitted with ``client.submit(fn, *args, pure=False)`` (every call is
    run; a batch submitted again is a new task) and collected through
    ``distributed.as_completed``.  The number of slots is the number of worker
    threads the scheduler knows now (asked at most once a second: clusters grow,
    shrink and lose workers).

    Parameters
    ----------
    client : distributed.Client
        A connected client.
    owned : contextlib.ExitStack, optional
        What to close with the runner (the client and the ``LocalCluster`` that
        :func:`dask_runner` started).
    """

    def __init__(self, client: Any, owned: contextlib.ExitStack | None = None) -> None:
        self.client = client
        self._owned = owned
        self._slots = 1
        self._asked = -math.inf

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        return self.client.submit(fn, *args, pure=False)

    def wait(self, futures: Collection[Any], timeout: float | None) -> set[Any]:
        from distributed import as_completed

        if not futures:
            return set()
        done = {f for f in futures if f.done()}
        if not done and timeout != 0:
            try:
                next(as_completed(list(futures), timeout=timeout, loop=self.client.loop))
            except TimeoutError:
                pass
            done = {f for f in futures if f.done()}
        return done

    def cancel(self, futures: Iterable[Any]) -> None:
        pending = [f for f in futures if not f.done()]
        if pending:
            self.client.cancel(pending)

    def slots(self) -> int:
        now = time.monotonic()
        if now - self._asked >= 1.0:
            self._slots = max(1, sum(self.client.nthreads().values()))
            self._asked = now
        return self._slots

    def close(self, *, wait: bool = True) -> None:
        if self._owned is not None:
            self._owned.close()
            self._owned = None


def portable_dumps(value: Any) -> bytes:
    """``value`` pickled: by the standard :mod:`pickle` when it can, else by
    ``cloudpickle`` (local functions and lambdas by value, as dask serializes them):
    a claim's result can hold a claimed bound written as a function of the output."""
    try:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, AttributeError, TypeError):
        import cloudpickle

        return cloudpickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def portable_loads(data: bytes) -> Any:
    """What :func:`portable_dumps` pickled.

    sympy rebuilds an unpickled expression through its constructor, which evaluates
    (re-simplifies) it again: minutes for the large exact values some claims decide.
    A pickled expression is already in canonical form, so it is rebuilt here under
    ``evaluate(False)``: the same tree, at the cost of reading it.
    """
    from sympy.core.parameters import evaluate

    with evaluate(False):
        return pickle.loads(data)


def _portable_call(fn: Callable[..., Any], args: tuple[Any, ...]) -> bytes:
    return portable_dumps(fn(*args))


#: Seconds between two checks of a local worker process that its parent is alive.
ORPHAN_CHECK_SECONDS = 0.5
#: The exit status of a local worker process that ended because its parent was gone.
EXIT_ORPHANED = 3


def _end_when_orphaned(parent: int) -> None:
    """In a local worker process: exit as soon as the process that started it is gone.

    A worker of :class:`concurrent.futures.ProcessPoolExecutor` whose parent is killed
    (``SIGKILL``, out of memory) is not told: it finishes its task and then waits for
    the next one forever, inheriting the siblings' end of the task queue.  This daemon
    thread notices the re-parenting (``os.getppid()`` changes) and ends the process."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(EXIT_ORPHANED)

    threading.Thread(target=watch, name="verifier-orphan-watch", daemon=True).start()


def local_pool(workers: int) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` local processes that end when this process is gone
    (:func:`_end_when_orphaned`)."""
    return cf.ProcessPoolExecutor(
        max_workers=workers, initializer=_end_when_orphaned, initargs=(os.getpid(),)
    )


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells,
    else every core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


#: ``-j auto`` uses at most this many local worker processes: each is a whole
#: interpreter of 150-250 MiB, and the claims of the case studies keep about this
#: many busy.
AUTO_JOBS_CAP = 8


def auto_jobs(tasks: int, max_workers: int | None = None) -> int:
    """``-j auto``: one local worker process per usable core, at most
    :data:`AUTO_JOBS_CAP`, ``max_workers`` (default :data:`MAX_WORKERS`) and ``tasks``
    (1: in this process).

    >>> auto_jobs(1)
    1
    >>> 1 <= auto_jobs(100) <= min(usable_cores(), AUTO_JOBS_CAP)
    True
    """
    cap = MAX_WORKERS if max_workers is None else max_workers
    return max(1, min(usable_cores(), AUTO_JOBS_CAP, tasks, cap))


def as_runner(executor: Any, workers: int = 1) -> Runner | None:
    """The :class:`Runner` for what a caller passed: ``None`` for work in this process
    (``executor`` is None and ``workers`` is 1), a pool of ``workers`` local processes
    (owned: closed by :meth:`Runner.close`), a :class:`Runner` as it is, a wrapped
    :class:`concurrent.futures.Executor` or a wrapped :class:`distributed.Client`."""
    if executor is None:
        if workers <= 1:
            return None
        return ExecutorRunner(local_pool(workers), workers, owned=True)
    if isinstance(executor, Runner):
        return executor
    if isinstance(executor, cf.Executor):
        return ExecutorRunner(executor)
    distributed = sys.modules.get("distributed")
    if distributed is not None and isinstance(executor, distributed.Client):
        return DaskRunner(executor)
    raise InvalidParameter(
        f"cannot run tasks on {type(executor).__name__}: give a concurrent.futures.Executor, "
        f"a distributed.Client or a verifier.runtime.executors.Runner"
    )


def ordered_map(
    runner: Runner,
    fn: Callable[..., R],
    tasks: Iterable[tuple[Any, ...]],
    *,
    window: int | None = None,
) -> Iterator[R]:
    """``fn(*args)`` for every ``args`` of ``tasks``, run on ``runner``; the results
    in the order of ``tasks``.

    ``tasks`` is read lazily: at most ``window`` tasks are in flight (default: twice
    the runner's slots, asked again as it goes) and at most ``8 * window`` are ahead
    of the next result to yield, so a stream of a million sub-boxes never becomes a
    million futures.  Stopping early (``break``, closing the generator) or an error
    cancels the tasks still in flight.
    """
    source = iter(tasks)
    in_flight: dict[Any, int] = {}
    ready: dict[int, R] = {}
    submitted = yielded = 0
    exhausted = False
    try:
        while True:
            w = window if window is not None else 2 * runner.slots()
            while not exhausted and len(in_flight) < w and submitted - yielded < 8 * w:
                try:
                    args = next(source)
                except StopIteration:
                    exhausted = True
                    break
                in_flight[runner.submit(_portable_call, fn, args)] = submitted
                submitted += 1
            if yielded in ready:
                yield ready.pop(yielded)
                yielded += 1
                continue
            if not in_flight:
                return
            for fut in runner.wait(in_flight, None):
                ready[in_flight.pop(fut)] = portable_loads(fut.result())
    finally:
        runner.cancel(in_flight)


# ---------------------------------------------------------------------------
# dask: `--dask local[:N]` or `--dask tcp://HOST:PORT`
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DaskTarget:
    """Where ``--dask`` points: a scheduler ``address``, or (``address`` None) a
    ``LocalCluster`` of ``workers`` processes (None: one per CPU)."""

    address: str | None
    workers: int | None


#: The largest number of local worker processes (``--workers``, ``-j``, ``--dask
#: local:N``) accepted by default: each is a whole interpreter with its own copy of
#: the claim, and beyond the machine's cores they only add overhead.  ``--max-workers``
#: raises it up to :data:`WORKERS_CEILING`.
MAX_WORKERS = 256
#: The most ``--max-workers`` allows.
WORKERS_CEILING = 4096
#: Seconds to resolve a scheduler's host name and to open a TCP connection to it
#: before dask is asked to connect: an address that is refused, unresolvable or
#: silent fails within these, naming the address.
CONNECT_SECONDS = 3.0

_LOCAL = re.compile(r"local(?::(\d{1,9}))?")
_SCHEMES = ("tcp", "tls")
_HOST = re.compile(r"\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.\-]+")


def parse_dask(text: str, max_workers: int = MAX_WORKERS) -> DaskTarget:
    """Parse a ``--dask`` value: ``local``, ``local:N`` (``1 <= N <= max_workers``) or
    a scheduler address (``tcp://HOST:PORT``, ``tls://HOST:PORT``, ``HOST:PORT``; a
    port from 1 to 65535).  Anything else is refused here, before any connection.

    >>> parse_dask("local"), parse_dask("scheduler:8786").address
    (DaskTarget(address=None, workers=None), 'scheduler:8786')
    """
    text = text.strip()
    shown = repr(text) if len(text) <= 80 else repr(text[:77] + "...")
    m = _LOCAL.fullmatch(text)
    if m:
        n = None if m.group(1) is None else int(m.group(1))
        if n is not None and n < 1:
            raise InvalidParameter(f"--dask {text}: a local cluster needs at least 1 worker")
        if n is not None and n > max_workers:
            raise InvalidParameter(
                f"--dask {text}: {n} local worker processes, over the limit of {max_workers} "
                f"(--max-workers raises it, up to {WORKERS_CEILING})"
            )
        return DaskTarget(None, n)
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "", text
    elif scheme.lower() not in _SCHEMES:
        raise InvalidParameter(
            f"--dask {shown}: the scheme {scheme!r} is not a dask scheduler's (use "
            f"tcp://HOST:PORT or tls://HOST:PORT)"
        )
    host, colon, port = rest.rpartition(":")
    if not colon or not _HOST.fullmatch(host) or not port.isdigit() or len(port) > 5:
        raise InvalidParameter(
            f"--dask {shown}: expected local, local:N (a LocalCluster of N worker processes) "
            f"or a scheduler address such as tcp://HOST:PORT"
        )
    if not 1 <= int(port) <= 65535:
        raise InvalidParameter(f"--dask {shown}: the port must be between 1 and 65535")
    return DaskTarget(text, None)


def _split_address(address: str) -> tuple[str, int]:
    rest = address.partition("://")[2] or address
    host, _, port = rest.rpartition(":")
    return host.strip("[]"), int(port)


def probe_scheduler(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """Resolve the host of ``address`` and open (and close) a TCP connection to it,
    each within ``seconds``: an unreachable scheduler is an
    :class:`~verifier.errors.InvalidParameter` naming the address in seconds, not
    after dask's own retries."""
    import socket
    import threading

    host, port = _split_address(address)
    found: list[Any] = []

    def resolve() -> None:
        try:
            found.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as err:
            found.append(err)

    t = threading.Thread(target=resolve, daemon=True, name="verifier-dask-resolve")
    t.start()
    t.join(seconds)
    if not found:
        raise InvalidParameter(
            f"--dask {address}: cannot connect to the dask scheduler (the host name "
            f"{host!r} did not resolve within {seconds:g} s)"
        )
    if isinstance(found[0], OSError):
        raise InvalidParameter(
            f"--dask {address}: cannot connect to the dask scheduler (the host name "
            f"{host!r} does not resolve: {found[0].strerror or found[0]})"
        )
    last: OSError | None = None
    for family, kind, proto, _, where in found[0]:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.settimeout(seconds)
                sock.connect(where)
            return
        except OSError as err:
            last = err
    if last is None or isinstance(last, TimeoutError):
        reason = "timed out"
    else:
        reason = last.strerror or str(last)
    raise InvalidParameter(f"--dask {address}: cannot connect to the dask scheduler ({reason})")


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as err:
        raise InvalidParameter(
            f"--dask needs dask.distributed, which is not installed ({err}); {DASK_EXTRA}"
        ) from None
    return distributed


def worker_version() -> str:
    """The ``verifier`` version installed where this runs (a dask worker)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("verifier")
    except PackageNotFoundError:
        return "not installed as a distribution"


@contextlib.contextmanager
def dask_runner(
    target: str | DaskTarget, *, timeout: float = 30.0, max_workers: int = MAX_WORKERS
) -> Iterator[DaskRunner]:
    """A :class:`DaskRunner` on a new ``LocalCluster`` (``local[:N]``: N worker
    processes of one thread each) or on a running scheduler (an address); the client,
    and the cluster it started, are closed on exit.

    A ``LocalCluster`` keeps its scratch space (the workers' spill files and lock
    files) in a private temporary directory made for it and removed with it, never in
    the shared ``dask-scratch-space`` of the temporary folder.  A scheduler address is
    first reached by :func:`probe_scheduler` (seconds, naming the address); then,
    before any task is sent, every worker is asked for its ``verifier`` version
    (``client.run``); a worker that cannot import ``verifier`` or has another
    version is an error naming it (a task pickles functions by reference: the
    workers need the same ``verifier`` installed).

    Raises
    ------
    InvalidParameter
        dask.distributed is not installed, the address is malformed or unreachable,
        too many local workers, or a worker's ``verifier`` differs.
    """
    t = parse_dask(target, max_workers) if isinstance(target, str) else target
    if t.address is not None:
        probe_scheduler(t.address)  # seconds, before dask is even imported
    distributed = _import_distributed()
    stack = contextlib.ExitStack()
    try:
        if t.address is None:
            import shutil
            import tempfile

            import dask

            scratch = tempfile.mkdtemp(prefix="verifier-dask-")
            stack.callback(shutil.rmtree, scratch, True)
            stack.enter_context(dask.config.set({"temporary-directory": scratch}))
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=t.workers or os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,  # no dashboard; its HTTP server on a free port:
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.ERROR,
                    local_directory=scratch,
                )
            )
            client = stack.enter_context(distributed.Client(cluster, set_as_default=False))
        else:
            identify_scheduler(t.address)
            try:
                client = stack.enter_context(
                    distributed.Client(t.address, timeout=timeout, set_as_default=False)
                )
            except (OSError, TimeoutError) as err:
                raise InvalidParameter(
                    f"--dask {t.address}: cannot connect to the dask scheduler ({err})"
                ) from None
            _check_workers(client, t.address)
        runner = DaskRunner(client, owned=stack)
    except BaseException:
        stack.close()
        raise
    try:
        yield runner
    finally:
        runner.close()


def identify_scheduler(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """Ask the server at ``address`` who it is (dask's ``identity`` message, on a
    connection of its own, within ``seconds`` for the connection and as many for the
    answer) before a ``distributed.Client`` is made: a server that is not a dask
    scheduler (an HTTP server, a proxy that accepts every connection, a service that
    never answers) is an :class:`~verifier.errors.InvalidParameter` in seconds, and
    no half-made client is left to hang the interpreter's exit."""
    import asyncio
    import threading

    from distributed.comm import connect
    from distributed.security import Security

    async def ask() -> Any:
        args = Security().get_connection_args("client")
        comm = await connect(address, timeout=seconds, **args)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await asyncio.wait_for(comm.read(), seconds)
        finally:
            comm.abort()

    answer: list[Any] = []

    def run() -> None:
        try:
            answer.append(asyncio.run(asyncio.wait_for(ask(), 2 * seconds + 1)))
        except BaseException as err:  # noqa: BLE001 - reported below, whatever it is
            answer.append(err)

    t = threading.Thread(target=run, daemon=True, name="verifier-dask-identity")
    t.start()
    t.join(2 * seconds + 2)
    if not answer:
        reason = f"no answer within {2 * seconds + 2:g} s"
    elif isinstance(answer[0], BaseException):
        err = answer[0]
        if isinstance(err, (TimeoutError, asyncio.TimeoutError)):
            reason = f"no answer within {2 * seconds + 1:g} s"
        else:
            text = str(err).splitlines()[0] if str(err) else ""
            reason = f"{type(err).__name__}: {text[:200]}" if text else type(err).__name__
    elif isinstance(answer[0], dict) and answer[0].get("type") == "Scheduler":
        return
    else:
        reason = "the server answered, but not as a dask scheduler"
    raise InvalidParameter(
        f"--dask {address}: cannot connect to the dask scheduler (no dask scheduler there: "
        f"{reason})"
    )


def _check_workers(client: Any, address: str) -> None:
    mine = worker_version()
    try:
        theirs = client.run(worker_version)
    except Exception as err:
        raise InvalidParameter(
            f"--dask {address}: the workers cannot run verifier ({type(err).__name__}: {err}); "
            f"install verifier {mine} on every worker"
        ) from None
    other = {w: v for w, v in theirs.items() if v != mine}
    if other:
        w, v = sorted(other.items())[0]
        raise InvalidParameter(
            f"--dask {address}: worker {w} has verifier {v}, this client {mine} "
            f"({len(other)} of {len(theirs)} workers differ); install the same version"
        )


class LazyRunner(Runner):
    """A :class:`Runner` opened on first use: a command whose work may need no
    worker (``verifier check`` on claims that never split a box into pieces) starts
    no pool and connects to no cluster.  ``open`` is a context manager factory;
    what it opens is closed by :meth:`close`."""

    def __init__(self, open_: Callable[[], contextlib.AbstractContextManager[Runner | None]]):
        self._open = open_
        self._stack = contextlib.ExitStack()
        self._runner: Runner | None = None
        self._opened = False

    def _get(self) -> Runner:
        if not self._opened:
            self._opened = True
            self._runner = self._stack.enter_context(self._open())
        if self._runner is None:  # pragma: no cover - open() gives a runner here
            raise InvalidParameter("no runner to run the tasks on")
        return self._runner

    @property
    def opened(self) -> bool:
        """Whether the runner was needed (and opened)."""
        return self._opened

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        return self._get().submit(fn, *args)

    def wait(self, futures: Collection[Any], timeout: float | None) -> set[Any]:
        return self._get().wait(futures, timeout)

    def slots(self) -> int:
        return self._get().slots()

    def cancel(self, futures: Iterable[Any]) -> None:
        if self._runner is not None:
            self._runner.cancel(futures)

    def close(self, *, wait: bool = True) -> None:
        if self._runner is not None and not wait:
            self._runner.close(wait=False)
        self._stack.close()


def _workers_option(workers: int, option: str, max_workers: int) -> None:
    if workers < 1:
        raise InvalidParameter(f"the number of workers must be >= 1, got {workers}")
    if workers > max_workers:
        raise InvalidParameter(
            f"{option} {workers}: {workers} local worker processes, over the limit of "
            f"{max_workers} (--max-workers raises it, up to {WORKERS_CEILING})"
        )


@contextlib.contextmanager
def open_runner(
    workers: int = 1,
    dask: str | None = None,
    *,
    max_workers: int = MAX_WORKERS,
    option: str = "--workers",
    lazy: bool = False,
) -> Iterator[Runner | None]:
    """The runner of the command-line options ``--workers``/``-j`` (``option``, named
    in errors) and ``--dask``: ``None`` (this process) for one worker and no dask,
    local processes for more, a dask cluster for ``--dask`` (the two options exclude
    each other).  Both are checked at once (a malformed address, more than
    ``max_workers`` local processes); with ``lazy`` the pool is started, or the
    cluster reached, only when a task is first submitted (:class:`LazyRunner`)."""
    _workers_option(workers, option, max_workers)
    if dask is not None:
        if workers > 1:
            raise InvalidParameter(
                "give either local worker processes or --dask, not both "
                "(--dask local:N starts N local dask workers)"
            )
        target = parse_dask(dask, max_workers)
        if lazy:
            runner = LazyRunner(lambda: dask_runner(target, max_workers=max_workers))
            try:
                yield runner
            finally:
                runner.close()
            return
        with dask_runner(target, max_workers=max_workers) as cluster:
            yield cluster
        return
    if lazy and workers > 1:
        runner = LazyRunner(lambda: _local_pool(workers))
        try:
            yield runner
        finally:
            runner.close()
        return
    with _local_pool(workers) as local:
        yield local


@contextlib.contextmanager
def _local_pool(workers: int) -> Iterator[Runner | None]:
    """``workers`` local processes (``None``: this process, for one), closed on exit."""
    local = as_runner(None, workers)
    try:
        yield local
    finally:
        if local is not None:
            local.close()

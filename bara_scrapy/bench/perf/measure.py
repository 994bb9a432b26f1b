"""Run one variant in a subprocess and measure it: wall time, CPU seconds, peak PSS.

- CPU: `resource.getrusage(RUSAGE_CHILDREN)` user+system, after minus before. The harness is a
  child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), so a Chromium process orphaned by its
  driver is re-parented to the harness and reaped here; its CPU is counted too.
- Memory: every `interval` seconds, the Pss of every descendant of the harness (from
  `/proc/<pid>/smaps_rollup`) is summed; the peak of those sums is reported. PSS shares pages
  that several processes map (Chromium's renderers share a lot) instead of counting them once
  per process as RSS does.
- Progress: the number of complete lines of the feed file at each sample (long-crawl mode).
"""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...procs import process_tree, read_proc

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Adopt orphaned descendants (Linux only); False where prctl is unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def pss_kb(smaps_rollup: str) -> int:
    """The Pss line of a /proc/<pid>/smaps_rollup text, in kB (0 if absent).

    >>> pss_kb("00400000-7fff [rollup]\\nRss:   2048 kB\\nPss:   1024 kB\\nPss_Anon:  512 kB\\n")
    1024
    >>> pss_kb("")
    0
    """
    for line in smaps_rollup.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def pss_of(pids: list[int]) -> int:
    return sum(pss_kb(read_proc(f"/proc/{pid}/smaps_rollup")) for pid in pids)


@dataclass
class Sample:
    t: float  # seconds since start
    pss_kb: int
    lines: int  # complete feed lines so far


@dataclass
class Measured:
    returncode: int
    wall_s: float
    cpu_s: float
    peak_pss_kb: int
    samples: list[Sample] = field(default_factory=list)
    stderr_tail: str = ""


class _LineCounter:
    """Counts newlines of a growing file, reading only what was appended."""

    def __init__(self, path: Path | None) -> None:
        self.path, self.offset, self.lines = path, 0, 0

    def count(self) -> int:
        if self.path is None or not self.path.exists():
            return self.lines
        with self.path.open("rb") as fh:
            if fh.seek(0, os.SEEK_END) < self.offset:  # truncated (overwrite): start again
                self.offset = self.lines = 0
            fh.seek(self.offset)
            chunk = fh.read()
        self.offset += len(chunk)
        self.lines += chunk.count(b"\n")
        return self.lines


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _ours(before: set[int]) -> list[int]:
    """Descendants of this process that were not there before the run: the run's process tree."""
    return [pid for pid in process_tree(os.getpid()) if pid not in before]


def _reap_orphans(before: set[int], timeout: float) -> None:
    """Wait for the run's adopted orphans (Chromium helpers); after `timeout`, kill those still there."""
    deadline = time.monotonic() + timeout
    while left := _ours(before):
        for pid in left:
            try:
                os.waitpid(pid, os.WNOHANG)  # only our direct children (adopted orphans) can be reaped
            except ChildProcessError:
                pass
        if time.monotonic() > deadline:
            for pid in left:
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 5
        time.sleep(0.05)


def run_measured(
    cmd: Sequence[str], *, env: Mapping[str, str], cwd: Path, feed: Path | None = None,
    interval: float = 0.25, timeout: float = 3600.0, log: Path | None = None,
) -> Measured:
    """Run `cmd` to completion, sampling its process tree's PSS every `interval` seconds."""
    become_subreaper()
    before = set(process_tree(os.getpid()))  # other children of the harness are not measured
    cpu_before = _cpu()
    stderr = log.open("wb") if log is not None else subprocess.DEVNULL
    started = time.monotonic()
    proc = subprocess.Popen(list(cmd), env=dict(env), cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr)
    samples: list[Sample] = []
    counter = _LineCounter(feed)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            samples.append(Sample(round(time.monotonic() - started, 2), pss_of(_ours(before)), counter.count()))
            done.wait(interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    wall = time.monotonic() - started
    done.set()
    sampler.join()
    _reap_orphans(before, 10.0)
    if log is not None and hasattr(stderr, "close"):
        stderr.close()
    samples.append(Sample(round(wall, 2), 0, counter.count()))
    tail = log.read_text(encoding="utf-8", errors="replace")[-2000:] if log is not None and log.exists() else ""
    return Measured(code, wall, _cpu() - cpu_before, max((s.pss_kb for s in samples), default=0), samples, tail)

"""This process's descendants from `/proc` (Linux): for the perf bench's memory samples, and for stopping a
browser that no longer answers at the end of a crawl."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping


def parent_of(stat: str) -> int:
    """The ppid field of a /proc/<pid>/stat line (the command name may hold spaces and parentheses).

    >>> parent_of("123 (Web Content (x)) S 45 123 123 0")
    45
    """
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def descendants(root: int, parents: Mapping[int, int]) -> list[int]:
    """Every pid below `root` in a pid -> ppid map.

    >>> descendants(1, {2: 1, 3: 2, 4: 1, 5: 9})
    [2, 4, 3]
    """
    kids: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        kids.setdefault(ppid, []).append(pid)
    out: list[int] = []
    todo = [root]
    while todo:
        for kid in sorted(kids.get(todo.pop(0), [])):
            out.append(kid)
            todo.append(kid)
    return out


def read_proc(path: str) -> str:
    """A `/proc` file's text ("" once its process has ended)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:  # the process ended meanwhile
        return ""


def parents() -> dict[int, int]:
    """pid -> ppid of every process."""
    found: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = read_proc(f"/proc/{name}/stat")
            if stat:
                found[int(name)] = parent_of(stat)
    return found


def process_tree(root: int) -> list[int]:
    """Every process below `root`, breadth first."""
    return descendants(root, parents())


def command_line(pid: int) -> list[str]:
    """A process's argv ([] once it has ended)."""
    return [part for part in read_proc(f"/proc/{pid}/cmdline").split("\0") if part]


def kill_launched(root: int, flag: str) -> list[int]:
    """SIGKILL each process below `root` started with the argument `flag` (a browser the Playwright driver
    launched: `--remote-debugging-pipe`) and everything below it, stopped or not; the pids signalled."""
    tree = parents()
    below = descendants(root, tree)
    victims: list[int] = []
    for pid in below:
        if pid not in victims and flag in command_line(pid):
            victims += [pid, *descendants(pid, tree)]
    for pid in victims:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:  # ended meanwhile
            pass
    return victims

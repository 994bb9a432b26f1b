"""Who writes a shared-frontier page's item, and whether a dead writer's feed holds it.

A worker claims a page when Redis tells it to deliver the item (COMPLETE) and acknowledges it once
its feed holds the item (DELIVER). A worker killed between the two leaves the claim: the page's
lease expires into `unconfirmed` instead of the queue. A worker on the claim's host reads the
claim's feeds: the item is there (the page is delivered, never crawled again) or it is not (the page
is queued again; a line the kill cut short is cut off the feed first). So a page's item is written
at most once across all feeds, and never lost. A claim that names feeds this host cannot read (another
host, or no local JSON-lines feed) is queued again after `FOREIGN_GRACE` leases: the item may then be
written twice, which `bara/frontier/unconfirmed_requeued` counts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Iterable, Mapping
from typing import Any

FOREIGN_GRACE = 10  # leases a claim this worker cannot check waits for a worker that can
WRITTEN, MISSING, WAIT = "written", "missing", "wait"


def local_jsonl_feeds(feeds: Mapping[str, Mapping[str, Any]],
                      formats: Collection[str] = ("jsonlines", "jsonl", "jl")) -> tuple[list[str], int]:
    """Absolute paths of the local feeds of a `FEEDS` setting in a JSON-lines `format`, and how many others.

    >>> local_jsonl_feeds({"/tmp/a.jsonl": {"format": "jsonl"}, "s3://b/x.jsonl": {"format": "jsonl"},
    ...                    "file:///tmp/b.csv": {"format": "csv"}})
    (['/tmp/a.jsonl'], 2)
    """
    paths, others = [], 0
    for uri, options in feeds.items():
        local = "://" not in uri or uri.startswith("file://")
        if local and (options or {}).get("format") in formats:
            paths.append(os.path.abspath(uri.removeprefix("file://")))
        else:
            others += 1
    return paths, others


def writer_claim(host: str, paths: Iterable[str], others: int) -> str:
    """The claim a worker records for the items it writes.

    >>> writer_claim("n1", ["/out/w.jsonl"], 0)
    '{"host": "n1", "feeds": ["/out/w.jsonl"], "others": 0}'
    """
    return json.dumps({"host": host, "feeds": list(paths), "others": others})


def holds(path: str, bfs_index: int, url: str, *, repair: bool = False) -> bool:
    """Whether the JSON-lines feed at `path` holds a whole item for page `bfs_index` at `url`.

    `repair`: a last line without its newline (a write the kill cut) is cut off the file first.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return False
    whole = data.rfind(b"\n") + 1
    if repair and whole < len(data):
        os.truncate(path, whole)
    for line in data[:whole].splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict) and item.get("bfs_index") == bfs_index and item.get("url") == url:
            return True
    return False


def verdict(claim: str, bfs_index: int, url: str, *, host: str, seconds: float, lease: float) -> str:
    """What this worker decides about an unconfirmed page: `written`, `missing`, or `wait` (not ours to read).

    >>> verdict('{"host": "n1", "feeds": [], "others": 0}', 3, "http://a/", host="n1", seconds=0, lease=30)
    'missing'
    >>> verdict('{"host": "n2", "feeds": ["/x"], "others": 0}', 3, "http://a/", host="n1", seconds=5, lease=30)
    'wait'
    >>> verdict("", 3, "http://a/", host="n1", seconds=0, lease=30)
    'missing'
    """
    try:
        data = json.loads(claim) if claim else {}
    except ValueError:
        data = {}
    if not isinstance(data, dict) or not data:
        return MISSING  # nothing says where the item went: crawl the page again
    paths = [str(p) for p in data.get("feeds") or []]
    if not paths and not data.get("others"):
        return MISSING  # the writer had no feed: nothing was written
    if data.get("host") != host or not paths:  # another host's files, or feeds no worker can read back
        return MISSING if seconds >= FOREIGN_GRACE * lease else WAIT
    return WRITTEN if any(holds(p, bfs_index, url, repair=True) for p in paths) else MISSING

"""claims.holds / claims.verdict on real files: a dead writer's feed, whole, cut, or without the item."""

from __future__ import annotations

import json
from pathlib import Path

from bara_scrapy.frontier.claims import MISSING, WAIT, WRITTEN, holds, verdict, writer_claim


def _feed(path: Path, *items: dict[str, object], tail: bytes = b"") -> Path:
    path.write_bytes(b"".join(json.dumps(i).encode() + b"\n" for i in items) + tail)
    return path


def test_a_whole_item_is_found_and_a_cut_last_line_is_cut_off(tmp_path: Path) -> None:
    feed = _feed(tmp_path / "w.jsonl", {"bfs_index": 1, "url": "http://a/1"},
                 tail=b'{"bfs_index": 2, "url": "http://a/2", "te')
    assert holds(str(feed), 1, "http://a/1")
    assert not holds(str(feed), 2, "http://a/2", repair=True)
    assert feed.read_bytes().endswith(b"}\n")  # the feed ends with its last whole item
    assert not holds(str(feed), 1, "http://a/other")  # same index, another page: not this item
    assert not holds(str(tmp_path / "gone.jsonl"), 1, "http://a/1")


def test_verdict_reads_the_writers_feeds_on_its_own_host_only(tmp_path: Path) -> None:
    feed = _feed(tmp_path / "w.jsonl", {"bfs_index": 3, "url": "http://a/3"})
    mine = writer_claim("n1", [str(feed)], 0)
    assert verdict(mine, 3, "http://a/3", host="n1", seconds=0, lease=30) == WRITTEN
    assert verdict(mine, 4, "http://a/4", host="n1", seconds=0, lease=30) == MISSING
    assert verdict(mine, 3, "http://a/3", host="n2", seconds=60, lease=30) == WAIT
    assert verdict(mine, 3, "http://a/3", host="n2", seconds=300, lease=30) == MISSING  # after 10 leases
    remote_only = writer_claim("n1", [], 1)  # e.g. an S3 feed: nothing to read back
    assert verdict(remote_only, 3, "http://a/3", host="n1", seconds=0, lease=30) == WAIT

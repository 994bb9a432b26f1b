"""WARC records and files, without a crawl: linking, digests, rotation, resume."""

from __future__ import annotations

import json
import random
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from bara_scrapy.archive.files import RotatingWarcWriter, warc_path
from bara_scrapy.archive.records import page_records, record_id, response_record, warcinfo_record
from bara_scrapy.snapshot import Fetched


def read(path: Path) -> list[tuple[str, str, bytes]]:
    with path.open("rb") as fh:
        return [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI") or "", r.content_stream().read())
                for r in ArchiveIterator(fh)]


def exchange(url: str, status: int = 200, body: bytes = b"<html>hi</html>") -> Fetched:
    headers = [("Content-Type", "text/html"), ("Content-Encoding", "gzip"), ("Content-Length", "3")]
    return Fetched(url=url, status=status, headers=headers, body=body, request_headers=[("User-Agent", "t")],
                   fetched_at=1767225600.0)


def test_page_records_link_the_dom_and_provenance_to_the_document() -> None:
    hop = exchange("http://a.example/x", 301, b"")
    doc = exchange("http://a.example/x/")
    recs = page_records("http://a.example/x", [hop, doc], "<html>rendered</html>", {"bfs_index": 3}, 0.0)
    assert [r.rec_type for r in recs] == ["request", "response", "request", "response", "conversion", "metadata"]
    document = record_id(recs[3])
    dom, meta = recs[4], recs[5]
    assert dom.rec_headers.get_header("WARC-Refers-To") == document == meta.rec_headers.get_header("WARC-Refers-To")
    assert dom.rec_headers.get_header("WARC-Target-URI") == "urn:bara:dom:http://a.example/x/"
    assert meta.rec_headers.get_header("WARC-Target-URI") == "urn:bara:provenance:http://a.example/x"
    assert recs[2].rec_headers.get_header("WARC-Concurrent-To") == record_id(recs[3])
    response = recs[3].http_headers
    assert response.get_header("Content-Length") == str(len(doc.body))  # the stored (decoded) body's length
    assert response.get_header("Content-Encoding") is None and response.get_header("X-Archive-Orig-Content-Encoding")
    # a page that was never fetched still has its provenance, and no DOM
    assert [r.rec_type for r in page_records("http://a.example/y", [], "<html/>", {}, 0.0)] == ["metadata"]


def test_writer_rotates_past_max_bytes_and_every_file_is_valid(tmp_path: Path) -> None:
    base = str(tmp_path / "crawl.warc.gz")
    writer = RotatingWarcWriter(base, max_bytes=2048, warcinfo=lambda name: warcinfo_record(name, {"a": 1}, 0.0))
    bodies = [bytes([i]) * 1500 + bytes(range(256)) * 4 for i in range(6)]  # ~1 KB gzipped each
    for i, body in enumerate(bodies):
        writer.write(response_record(f"http://a.example/{i}", 200, [("Content-Type", "image/png")], body, 0.0))
    writer.close()
    assert len(writer.paths) > 1 and writer.paths[0] == base and writer.paths[1] == warc_path(base, 1)
    payloads = []
    for path in writer.paths:
        recs = read(Path(path))
        assert recs[0][0] == "warcinfo" and b"a: 1" in recs[0][2]  # each file opens with its own warcinfo
        payloads += [body for kind, _, body in recs if kind == "response"]
    assert payloads == bodies  # streamed, in order, nothing lost or repeated
    assert writer.counts == {"warcinfo": len(writer.paths), "response": 6}


def test_a_resumed_writer_appends_to_the_last_file(tmp_path: Path) -> None:
    base = str(tmp_path / "crawl.warc.gz")
    for run in range(2):
        writer = RotatingWarcWriter(base, worker="node-1", warcinfo=lambda name: warcinfo_record(name, {}, 0.0))
        writer.write(response_record(f"http://a.example/{run}", 200, [], json.dumps(run).encode(), 0.0))
        writer.close()
    path = Path(warc_path(base, 0, "node-1"))
    assert path.name == "crawl-node-1.warc.gz"
    assert [(kind, uri) for kind, uri, _ in read(path)] == [
        ("warcinfo", ""), ("response", "http://a.example/0"), ("warcinfo", ""), ("response", "http://a.example/1")]


def test_a_resume_after_a_kill_cuts_the_half_written_record_before_appending(tmp_path: Path) -> None:
    base = str(tmp_path / "crawl.warc.gz")
    writer = RotatingWarcWriter(base, warcinfo=lambda name: warcinfo_record(name, {}, 0.0))
    for n in range(3):
        writer.write(response_record(f"http://a.example/{n}", 200, [], random.Random(n).randbytes(5000), 0.0))
    writer.close()
    path = Path(base)
    whole = path.stat().st_size
    with path.open("r+b") as fh:  # a kill in the middle of the last record's write
        fh.truncate(whole - 700)
    writer = RotatingWarcWriter(base, warcinfo=lambda name: warcinfo_record(name, {}, 0.0))
    writer.write(response_record("http://a.example/again", 200, [], b"y", 0.0))
    writer.close()
    assert [(kind, uri) for kind, uri, _ in read(path)] == [
        ("warcinfo", ""), ("response", "http://a.example/0"), ("response", "http://a.example/1"),
        ("warcinfo", ""), ("response", "http://a.example/again")]

"""Pack a crawl's WARC files into a WACZ (Web Archive Collection Zipped, spec 1.1.1).

    archive/<name>.warc.gz    the WARC files, stored as they are (already gzipped per record)
    indexes/index.cdx         a CDXJ index of them, sorted (Webrecorder's `cdxj-indexer`)
    pages/pages.jsonl         one line per page: id, url, ts, title
    datapackage.json          every file above with its size and SHA-256
    datapackage-digest.json   the SHA-256 of datapackage.json

The zip is written file by file from disk, so packing a large crawl holds no WARC in memory.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import uuid
import zipfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from cdxj_indexer.main import write_cdx_index
from warcio.archiveiterator import ArchiveIterator

from .records import PROVENANCE_URN

WACZ_VERSION = "1.1.1"
PAGES_HEADER = {"format": "json-pages-1.0", "id": "pages", "title": "All Pages"}
_CHUNK = 1 << 20


def iso(epoch: float) -> str:
    """An ISO 8601 UTC date, as pages.jsonl and datapackage.json write it.

    >>> iso(0), iso(1767225600.5)
    ('1970-01-01T00:00:00Z', '2026-01-01T00:00:00.500000Z')
    """
    return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")


def wacz_path(base: str, worker: str = "") -> str:
    """The WACZ of one worker: its name before the suffix, as for its WARC files.

    >>> wacz_path("out/crawl.wacz"), wacz_path("out/crawl.wacz", "node1-42"), wacz_path("crawl", "w")
    ('out/crawl.wacz', 'out/crawl-node1-42.wacz', 'crawl-w.wacz')
    """
    stem = base[:-5] if base.endswith(".wacz") else base
    return f"{stem}-{worker}.wacz" if worker else f"{stem}.wacz"


def pages_jsonl(pages: Iterable[dict[str, Any]]) -> bytes:
    """pages/pages.jsonl: the header line, then one line per page (`url`, `ts` epoch seconds, `title`).

    >>> header, row = map(json.loads, pages_jsonl([{"url": "http://a/", "ts": 0, "title": "A"}]).splitlines())
    >>> header["format"], row["url"], row["ts"], row["title"], len(row["id"])
    ('json-pages-1.0', 'http://a/', '1970-01-01T00:00:00Z', 'A', 32)
    """
    lines = [json.dumps(PAGES_HEADER)]
    for page in pages:
        row = {"url": page["url"], "ts": iso(page["ts"]), "title": page.get("title") or "",
               "id": uuid.uuid5(uuid.NAMESPACE_URL, f"{page['ts']} {page['url']}").hex}
        lines.append(json.dumps(row, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


def pages_from_warcs(warcs: Iterable[str]) -> Iterable[dict[str, Any]]:
    """The `ok` pages of the crawl, from the provenance records (so a resumed crawl's earlier pages count too)."""
    for warc in warcs:
        with open(warc, "rb") as fh:
            for record in ArchiveIterator(fh):
                uri = record.rec_headers.get_header("WARC-Target-URI") or ""
                if record.rec_type != "metadata" or not uri.startswith(PROVENANCE_URN):
                    continue
                item = json.loads(record.content_stream().read())
                if item.get("status") == "ok":
                    when = datetime.strptime(record.rec_headers.get_header("WARC-Date"), "%Y-%m-%dT%H:%M:%SZ")
                    yield {"url": item.get("final_url") or item["url"], "title": item.get("title", ""),
                           "ts": when.replace(tzinfo=UTC).timestamp()}


def _sha256_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _resource(path: str, size: int, sha256: str) -> dict[str, Any]:
    return {"name": os.path.basename(path), "path": path, "hash": f"sha256:{sha256}", "bytes": size}


def pack_wacz(out: str, warcs: Sequence[str], pages: Iterable[dict[str, Any]], *, title: str = "",
              main_page: str | None = None, software: str = "bara_scrapy") -> dict[str, Any]:
    """Write the WACZ `out` from `warcs` and the crawl's pages; return its datapackage."""
    resources = []
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        index = os.path.join(tmp, "index.cdx")
        write_cdx_index(index, list(warcs), {"sort": True})  # `filename` = the WARC's base name, as in archive/
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
            for warc in warcs:
                name = f"archive/{os.path.basename(warc)}"
                zf.write(warc, name)  # already compressed: stored
                resources.append(_resource(name, os.path.getsize(warc), _sha256_file(warc)))
            zf.write(index, "indexes/index.cdx", zipfile.ZIP_DEFLATED)
            resources.append(_resource("indexes/index.cdx", os.path.getsize(index), _sha256_file(index)))
            page_lines = pages_jsonl(pages)
            zf.writestr("pages/pages.jsonl", page_lines, zipfile.ZIP_DEFLATED)
            resources.append(_resource("pages/pages.jsonl", len(page_lines), hashlib.sha256(page_lines).hexdigest()))
            now = iso(datetime.now(UTC).timestamp())
            package = {
                "profile": "data-package", "wacz_version": WACZ_VERSION, "software": software, "title": title,
                "created": now, "modified": now, "resources": resources,
                **({"mainPageURL": main_page} if main_page else {}),
            }
            data = json.dumps(package, indent=2).encode("utf-8")
            zf.writestr("datapackage.json", data)
            digest = {"path": "datapackage.json", "hash": f"sha256:{hashlib.sha256(data).hexdigest()}"}
            zf.writestr("datapackage-digest.json", json.dumps(digest, indent=2))
    return package


def check_wacz(path: str) -> list[str]:
    """What is wrong with a WACZ (empty: nothing): missing files, and sizes or hashes that do not match."""
    problems = []
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        for required in ("datapackage.json", "pages/pages.jsonl"):
            if required not in names:
                problems.append(f"missing {required}")
        if problems:
            return problems
        raw = zf.read("datapackage.json")
        if "datapackage-digest.json" in names:
            digest = json.loads(zf.read("datapackage-digest.json"))
            if digest.get("hash") != f"sha256:{hashlib.sha256(raw).hexdigest()}":
                problems.append("datapackage-digest.json: hash mismatch")
        package = json.loads(raw)
        for res in package.get("resources", []):
            if res["path"] not in names:
                problems.append(f"missing {res['path']}")
                continue
            digest, size = hashlib.sha256(), 0
            with zf.open(res["path"]) as fh:
                while chunk := fh.read(_CHUNK):
                    digest.update(chunk)
                    size += len(chunk)
            if res.get("hash") != f"sha256:{digest.hexdigest()}" or res.get("bytes") != size:
                problems.append(f"{res['path']}: hash or size mismatch")
        if not any(n.startswith("indexes/") for n in names) or not any(n.startswith("archive/") for n in names):
            problems.append("no index or no WARC")
        first = io.TextIOWrapper(zf.open("pages/pages.jsonl"), encoding="utf-8").readline()
        if json.loads(first).get("format") != PAGES_HEADER["format"]:
            problems.append("pages/pages.jsonl: no header line")
    return problems

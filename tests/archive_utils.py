"""Reading a crawl's WARC and checking its replay in pywb: shared by the archive tests and the
300-page measurement (`python -m tests.archive_replay`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warcio.archiveiterator import ArchiveIterator

from bara_scrapy.bench.server import Site, SiteServer
from tests.service_utils import PywbServer

Record = tuple[str, str, int | None, bytes, dict[str, str]]


def bodies(site: Site, server: SiteServer) -> dict[str, bytes]:
    """Every URL the site serves -> its bytes."""
    return {server.url(path): route.body if isinstance(route.body, bytes) else route.body.encode()
            for path, route in site.routes.items()}


def records(warc: Path) -> list[Record]:
    """(type, target URI, HTTP status, payload, WARC headers) of every record."""
    found = []
    with warc.open("rb") as fh:
        for rec in ArchiveIterator(fh):
            status = int(rec.http_headers.get_statuscode()) if rec.http_headers and rec.rec_type == "response" else None
            found.append((rec.rec_type, rec.rec_headers.get_header("WARC-Target-URI") or "", status,
                          rec.content_stream().read(), dict(rec.rec_headers.headers)))
    return found


def bytes_by_type(warc: Path) -> dict[str, int]:
    """Bytes of the file (gzip members, headers included) per record type."""
    sizes: dict[str, int] = {}
    with warc.open("rb") as fh:
        it = ArchiveIterator(fh)
        for rec in it:
            rec.content_stream().read()
            it.read_to_end(rec)
            sizes[rec.rec_type] = sizes.get(rec.rec_type, 0) + it.get_record_length()
    return sizes


@dataclass
class Replay:
    """What pywb replayed of a crawl: counts checked, and each failure as (what, url, why)."""

    pages: int = 0
    media: int = 0
    rejected: int = 0  # rejected media asked for (each must not replay)
    failures: list[tuple[str, str, str]] = field(default_factory=list)


def check_replay(pywb: PywbServer, items: Iterable[Mapping[str, Any]], originals: Mapping[str, bytes]) -> Replay:
    """Every ok page (as served, and rewritten for a reader) and each of its verified media replays
    with the original bytes; no rejected medium replays at all."""
    out = Replay()
    items = list(items)
    for item in (i for i in items if i["status"] == "ok"):
        out.pages += 1
        status, body = pywb.get(item["url"])
        if status != 200 or body != originals[item["url"]]:
            out.failures.append(("page", item["url"], f"status {status}, bytes equal {body == originals[item['url']]}"))
        status, page = pywb.get(item["url"], modifier="mp_")  # the page as a reader replays it
        if status != 200 or item["title"].encode() not in page:
            out.failures.append(("page as a reader sees it", item["url"], f"status {status}"))
        for media in item["images"] + item["videos"]:
            out.media += 1
            status, body = pywb.get(media["url"])
            if status != 200 or body != originals[media["url"]]:
                out.failures.append(("medium", media["url"], f"status {status}"))
    for media in (m for i in items for m in i["rejected_media"]):
        out.rejected += 1
        status, _ = pywb.get(media["url"])
        if status != 404:  # not in the archive: pywb has nothing to replay
            out.failures.append(("rejected medium", media["url"], f"status {status}"))
    return out

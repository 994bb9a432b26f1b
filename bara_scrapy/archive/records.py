"""WARC records (ISO 28500, WARC/1.1) of what a crawl fetched, built with warcio; nothing here does I/O.

Per admitted page: the document's `request` and `response` records (every redirect hop too), the
rendered DOM as a `conversion` record that `WARC-Refers-To` the document's response, and a
`metadata` record holding the item's provenance. Those two are named `urn:bara:dom:<url>` and
`urn:bara:provenance:<url>` (with `WARC-Refers-To-Target-URI: <url>`): under the page's own URL,
pywb replays whichever record is closest in time, and the page would replay as its DOM or its JSON.
Per verified medium: its `response` record. Bodies are stored decoded, as the browser and Scrapy
hand them over: `Content-Encoding`, `Transfer-Encoding` and `Content-Length` of the exchange are
replaced by the stored body's own length (the originals are kept as `X-Archive-Orig-*`, pywb's
convention).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import urlsplit

from warcio.recordbuilder import RecordBuilder
from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import StatusAndHeaders

from ..snapshot import Fetched

WARC_VERSION = "WARC/1.1"
DOM_URN, PROVENANCE_URN = "urn:bara:dom:", "urn:bara:provenance:"
SOFTWARE = "bara_scrapy"
REPLACED_HEADERS = frozenset({"content-length", "transfer-encoding", "content-encoding"})
_BUILDER = RecordBuilder(warc_version=WARC_VERSION)


def warc_date(epoch: float) -> str:
    """WARC-Date of an epoch time, to the second (UTC).

    >>> warc_date(0), warc_date(1767225600.75)
    ('1970-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
    """
    return datetime.fromtimestamp(int(epoch), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def status_line(status: int) -> str:
    """The HTTP status line's status and reason phrase.

    >>> status_line(200), status_line(302), status_line(599)
    ('200 OK', '302 Found', '599 ')
    """
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status} "


def stored_headers(headers: Iterable[tuple[str, str]], body_length: int) -> list[tuple[str, str]]:
    """Response headers for a body stored decoded: the length is the stored body's, the originals are kept.

    >>> stored_headers([("Content-Type", "text/html"), ("Content-Encoding", "gzip"), ("Content-Length", "9")], 20)
    [('Content-Type', 'text/html'), ('X-Archive-Orig-Content-Encoding', 'gzip'), \
('X-Archive-Orig-Content-Length', '9'), ('Content-Length', '20')]
    """
    kept = [(k, v) if k.lower() not in REPLACED_HEADERS else (f"X-Archive-Orig-{k}", v) for k, v in headers]
    return [*kept, ("Content-Length", str(body_length))]


def request_target(url: str) -> str:
    """The request line's target of an absolute URL.

    >>> request_target("http://a.example:8000/p/x?q=1#frag"), request_target("http://a.example")
    ('/p/x?q=1', '/')
    """
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _record(uri: str, kind: str, payload: bytes, *, date: str, http: StatusAndHeaders | None = None,
            content_type: str = "", extra: dict[str, str] | None = None) -> ArcWarcRecord:
    headers = {"WARC-Date": date, **(extra or {})}
    body = BytesIO(payload)
    return _BUILDER.create_warc_record(
        uri, kind, payload=body, length=len(payload), http_headers=http, warc_content_type=content_type,
        warc_headers_dict=headers,
    )


def record_id(record: ArcWarcRecord) -> str:
    """The record's WARC-Record-ID (`<urn:uuid:…>`)."""
    return str(record.rec_headers.get_header("WARC-Record-ID"))


def response_record(url: str, status: int, headers: Iterable[tuple[str, str]], body: bytes,
                    fetched_at: float) -> ArcWarcRecord:
    """A `response` record: the HTTP response as received (body decoded)."""
    http = StatusAndHeaders(status_line(status), stored_headers(headers, len(body)), protocol="HTTP/1.1")
    return _record(url, "response", body, date=warc_date(fetched_at), http=http)


def exchange_records(exchange: Fetched) -> tuple[ArcWarcRecord, ArcWarcRecord]:
    """The `request` and `response` records of one exchange, the request `WARC-Concurrent-To` the response."""
    response = response_record(exchange.url, exchange.status, exchange.headers, exchange.body, exchange.fetched_at)
    host = urlsplit(exchange.url).netloc
    headers = [("Host", host)] + [(k, v) for k, v in exchange.request_headers if k.lower() != "host"]
    http = StatusAndHeaders(f"GET {request_target(exchange.url)} HTTP/1.1", headers, is_http_request=True)
    request = _record(exchange.url, "request", b"", date=warc_date(exchange.fetched_at), http=http,
                      extra={"WARC-Concurrent-To": record_id(response)})
    return request, response


def dom_record(url: str, html: str, refers_to: str | None, fetched_at: float) -> ArcWarcRecord:
    """The rendered DOM as a `conversion` record of the document's response."""
    extra = {"WARC-Refers-To-Target-URI": url, **({"WARC-Refers-To": refers_to} if refers_to else {})}
    return _record(DOM_URN + url, "conversion", html.encode("utf-8"), date=warc_date(fetched_at),
                   content_type="text/html; charset=utf-8", extra=extra)


def metadata_record(url: str, provenance: dict[str, Any], refers_to: str | None, fetched_at: float) -> ArcWarcRecord:
    """The page item's provenance as a JSON `metadata` record."""
    extra = {"WARC-Refers-To-Target-URI": url, **({"WARC-Refers-To": refers_to} if refers_to else {})}
    payload = json.dumps(provenance, ensure_ascii=False, sort_keys=True).encode("utf-8")
    return _record(PROVENANCE_URN + url, "metadata", payload, date=warc_date(fetched_at),
                   content_type="application/json", extra=extra)


def warcinfo_record(filename: str, settings: dict[str, Any], created: float) -> ArcWarcRecord:
    """The file's `warcinfo` record: the software and the crawl's settings, one `name: value` line each."""
    info = {"software": SOFTWARE, "format": f"WARC File Format {WARC_VERSION[5:]}", **settings}
    payload = "".join(f"{k}: {v}\r\n" for k, v in info.items() if v not in (None, "")).encode("utf-8")
    return _record("", "warcinfo", payload, date=warc_date(created), content_type="application/warc-fields",
                   extra={"WARC-Filename": filename})


def page_records(page_url: str, exchanges: Sequence[Fetched], html: str, provenance: dict[str, Any],
                 when: float) -> list[ArcWarcRecord]:
    """Every record of one admitted page: its exchanges, the rendered DOM (when rendered) and its metadata."""
    records: list[ArcWarcRecord] = []
    document: str | None = None  # the last response's record id: the document the DOM was rendered from
    for exchange in exchanges:
        request, response = exchange_records(exchange)
        records += [request, response]
        document = record_id(response)
    if html and exchanges:
        records.append(dom_record(exchanges[-1].url, html, document, exchanges[-1].fetched_at))
    records.append(metadata_record(page_url, provenance, document, when))
    return records

"""A small threaded HTTP server for fixture sites on 127.0.0.1 (port 0).

Used by the tests, the demo and `scrapy bara-bench`. A `Site` maps paths to
`Route`s: static bodies (with Range and HEAD support), statuses, headers, or a
handler for dynamic behaviour. Every hit is counted so tests can assert how
often the crawler asked.
"""

from __future__ import annotations

import re
import socket
import ssl
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

Handler = Callable[["RequestInfo"], "Route"]


@dataclass
class RequestInfo:
    method: str
    path: str  # path + query
    headers: dict[str, str]
    hits: int  # how many times this path was requested, this one included


@dataclass
class Route:
    body: bytes | str = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    handler: Handler | None = None
    honour_range: bool = True
    head_status: int | None = None  # e.g. 405 to refuse HEAD
    delay_event: threading.Event | None = None  # block until set (never sleeps)
    writer: Callable[[Any], None] | None = None  # writes the body itself to the socket file (faults)

    def payload(self) -> bytes:
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


@dataclass
class Site:
    routes: dict[str, Route] = field(default_factory=dict)
    not_found: Route = field(default_factory=lambda: Route("<h1>Not found</h1>", status=404))

    def add(self, path: str, body: bytes | str = b"", **kwargs: object) -> Route:
        route = Route(body=body, **kwargs)  # type: ignore[arg-type]
        self.routes[path] = route
        return route

    def lookup(self, path: str) -> Route:
        if path in self.routes:
            return self.routes[path]
        bare = urlsplit(path).path
        return self.routes.get(bare, self.not_found)


_RANGE = re.compile(r"bytes=(\d*)-(\d*)")


class _RequestHandler(BaseHTTPRequestHandler):
    server: SiteServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self._serve(head=False)

    def do_HEAD(self) -> None:
        self._serve(head=True)

    def _serve(self, head: bool) -> None:
        hits = self.server.count(self.path)
        route = self.server.site.lookup(self.path)
        info = RequestInfo(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, hits)
        if route.handler is not None:
            route = route.handler(info)
        if route.delay_event is not None:
            route.delay_event.wait(timeout=120)
        status = route.status
        if head and route.head_status is not None:
            status = route.head_status
        body = route.payload()
        headers = {"Content-Type": route.content_type, **route.headers}
        if not route.content_type:
            headers.pop("Content-Type")
        rng = _RANGE.fullmatch(info.headers.get("range", "").strip())
        if rng and route.honour_range and status == 200 and body:
            start_s, end_s = rng.groups()
            start = int(start_s) if start_s else max(len(body) - int(end_s or 0), 0)
            end = min(int(end_s), len(body) - 1) if end_s and start_s else len(body) - 1
            if start >= len(body):
                status, body = 416, b""
                headers["Content-Range"] = f"bytes */{len(route.payload())}"
            else:
                headers["Content-Range"] = f"bytes {start}-{end}/{len(body)}"
                status, body = 206, body[start : end + 1]
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if route.writer is None:  # a writer sends Content-Length only if its headers say so
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if route.writer is not None and not head:
            self.close_connection = True
            try:
                route.writer(self.wfile)
            except OSError:
                pass
        elif not head:
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass


class SiteServer(ThreadingHTTPServer):
    """Serve a `Site` on 127.0.0.1 in a background thread.

    >>> site = Site(); _ = site.add("/", "<p>hi</p>")
    >>> with SiteServer(site) as server:
    ...     server.url("/").startswith("http://127.0.0.1:")
    True
    """

    daemon_threads = True
    allow_reuse_address = True
    # listen backlog: socketserver's default of 5 drops the SYNs of a burst of new connections (a crawl opening
    # 16 at once), which the client sends again after a second: a page then took 1 s to download
    request_queue_size = 128

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that gives up early (verification stops reading after the
        # first bytes; a closed page aborts its requests) is normal here.
        pass

    def __init__(self, site: Site, host: str = "127.0.0.1", port: int = 0,
                 tls: ssl.SSLContext | None = None) -> None:
        super().__init__((host, port), _RequestHandler)
        self.site = site
        self.tls = tls  # serve HTTPS with this context (the handshake runs in the request's thread)
        self.hits: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def finish_request(self, request: socket.socket | tuple[bytes, socket.socket],
                       client_address: object) -> None:
        if self.tls is None or not isinstance(request, socket.socket):
            super().finish_request(request, client_address)
            return
        try:  # a client that refuses the certificate ends here: no request is read, none counted
            secure = self.tls.wrap_socket(request, server_side=True)
        except OSError:  # ssl.SSLError included
            return
        try:
            super().finish_request(secure, client_address)
        finally:
            secure.close()

    def count(self, path: str) -> int:
        with self._lock:
            self.hits[path] += 1
            return self.hits[path]

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def base(self) -> str:
        host = self.server_address[0]
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{host.decode() if isinstance(host, bytes) else host}:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base + path

    def start(self) -> SiteServer:
        self._thread = threading.Thread(target=self.serve_forever, name=f"site-{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

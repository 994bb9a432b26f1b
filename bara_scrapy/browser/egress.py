"""The browser's egress for host names: a local proxy that connects to the address the guard checked.

Chromium resolves a third-party name (a CDN) itself, after the route guard looked it up: a name
that answers the guard with a public address and Chromium with a private one (DNS rebinding), or
that only Chromium's resolver knows, would reach a private host. With this proxy Chromium never
resolves such a name: every request to a host *name* goes through `EgressProxy` (127.0.0.1, port
0, started with the browser), which looks the name up once per process (the route guard's own
cache, `route.learn`), refuses it when the answer is private (the SSRF rules of `verify.ssrf`), and
connects to the checked address itself. IP literals and the seed's own host go direct
(`--proxy-bypass-list`): the host-resolver rules already decide those (`pinning.py`), and local
crawls pay nothing.

HTTP requests are forwarded one per connection (`Connection: close`); HTTPS and WebSockets
arrive as `CONNECT` and are tunnelled as bytes (the TLS session is Chromium's, end to end). A
refused name is answered 403, a name that does not resolve 502.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import urlsplit

from .guard import GuardPolicy, network_block
from .route import cached_addresses, learn

logger = logging.getLogger(__name__)

HEAD_LIMIT = 64 * 1024
HEAD_TIMEOUT = 30.0
CONNECT_TIMEOUT = 10.0
_HOP_HEADERS = (b"proxy-connection", b"proxy-authorization", b"connection", b"keep-alive")


def proxy_args(port: int, seed_host: str) -> list[str]:
    """Chromium flags sending every request to a host name through the proxy on `port`.

    >>> proxy_args(8123, "example.org")
    ['--proxy-server=http://127.0.0.1:8123', '--proxy-bypass-list=example.org;0.0.0.0/0;::/0']
    """
    bypass = ";".join([*([seed_host] if seed_host else []), "0.0.0.0/0", "::/0"])
    return [f"--proxy-server=http://127.0.0.1:{port}", f"--proxy-bypass-list={bypass}"]


def allow_in_rules(args: list[str], host_port: str) -> list[str]:
    """Launch args whose `--host-resolver-rules` (which refuse every loopback address but the seed's) let
    Chromium reach the proxy at `host_port` first.

    >>> allow_in_rules(["--x", "--host-resolver-rules=MAP 127.* ~NOTFOUND"], "127.0.0.1:9")
    ['--x', '--host-resolver-rules=MAP 127.0.0.1:9 127.0.0.1:9, MAP 127.* ~NOTFOUND']
    """
    flag = "--host-resolver-rules="
    return [f"{flag}MAP {host_port} {host_port}, {a[len(flag):]}" if a.startswith(flag) else a for a in args]


def parse_head(head: bytes) -> tuple[str, str, str, list[tuple[bytes, bytes]]]:
    """Method, target, version and headers of a request head.

    >>> parse_head(b"GET http://a.test/x HTTP/1.1\\r\\nHost: a.test\\r\\n\\r\\n")
    ('GET', 'http://a.test/x', 'HTTP/1.1', [(b'Host', b'a.test')])
    """
    lines = head.split(b"\r\n")
    method, target, version = lines[0].decode("latin-1").split(" ", 2)
    headers = []
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(b":")
            headers.append((name.strip(), value.strip()))
    return method, target, version, headers


def origin_request(method: str, target: str, version: str, headers: list[tuple[bytes, bytes]]) -> bytes:
    """The request to send the origin: origin-form target, proxy headers out, one request per connection.

    >>> origin_request("GET", "http://a.test/x?y=1", "HTTP/1.1", [(b"Host", b"a.test"), (b"Proxy-Connection", b"k")])
    b'GET /x?y=1 HTTP/1.1\\r\\nHost: a.test\\r\\nConnection: close\\r\\n\\r\\n'
    """
    parts = urlsplit(target)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    kept = [(n, v) for n, v in headers if n.lower() not in _HOP_HEADERS]
    lines = [f"{method} {path} {version}".encode("latin-1"), *(n + b": " + v for n, v in kept), b"Connection: close"]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def closing_head(head: bytes) -> bytes:
    """A response head that ends the connection after it.

    >>> closing_head(b"HTTP/1.1 200 OK\\r\\nConnection: keep-alive\\r\\nContent-Length: 2\\r\\n\\r\\n")
    b'HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\n'
    """
    lines = [line for line in head.split(b"\r\n") if line]
    kept = [lines[0], *(line for line in lines[1:] if line.partition(b":")[0].strip().lower() not in _HOP_HEADERS)]
    return b"\r\n".join([*kept, b"Connection: close"]) + b"\r\n\r\n"


class EgressProxy:
    """The proxy of one crawl: `start()` on the event loop, `port`, `close()`."""

    def __init__(self, policy: GuardPolicy, stats: Any = None) -> None:
        self.policy = policy
        self.stats = stats  # the crawl's stats: bara/egress/{connections,refused}
        self.server: asyncio.Server | None = None
        self.refused = 0  # names refused (private answer or no answer)
        self.connections = 0

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def start(self) -> EgressProxy:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None

    async def _address(self, url: str) -> tuple[str | None, int]:
        """The checked address to connect to for `url`, or None, with the status to answer instead."""
        await learn(url, self.policy)
        host = (urlsplit(url).hostname or "").rstrip(".")
        addresses = cached_addresses(host)
        if not addresses:
            return None, 502
        if network_block(url, self.policy, lambda _: addresses):
            return None, 403
        return addresses[0], 200

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        if self.stats is not None:
            self.stats.inc_value("bara/egress/connections")
        url = ""
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
            method, target, version, headers = parse_head(head[:HEAD_LIMIT])
            tunnel = method.upper() == "CONNECT"
            url = f"https://{target}/" if tunnel else target
            parts = urlsplit(url)
            port = parts.port or (443 if parts.scheme == "https" else 80)
            address, status = await self._address(url)
            if address is None:
                self.refused += 1
                if self.stats is not None:
                    self.stats.inc_value("bara/egress/refused")
                logger.debug("egress refused (%s): %s", status, url[:200])
                writer.write(f"HTTP/1.1 {status} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode())
                await writer.drain()
                return
            up_reader, up_writer = await asyncio.wait_for(asyncio.open_connection(address, port), CONNECT_TIMEOUT)
            if tunnel:
                writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            else:  # one request per connection: the answer says so, so Chromium sends no other host's on it
                up_writer.write(origin_request(method, target, version, headers))
                answer = await asyncio.wait_for(up_reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
                writer.write(closing_head(answer))
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        except (OSError, ValueError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            # the page closed, the origin refused or timed out: Chromium sees the connection end
            logger.debug("egress %s ended: %r", url[:200], exc)
        finally:
            with contextlib.suppress(OSError, RuntimeError):
                writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (OSError, RuntimeError):
        pass
    finally:
        with contextlib.suppress(OSError, RuntimeError):
            writer.close()

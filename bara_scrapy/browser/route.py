"""The Playwright route handler: carry out `guard.route_verdict` for every request of a page.

Main-frame documents are fetched here (`route.fetch(max_redirects=0)`) so that
each redirect hop is decided by `guard.redirect_verdict` *before* anything is
sent to its target; Chromium itself never follows a document redirect. Other
requests cost one routing round trip as before: continue or abort. Their
redirect hops are not routed by Playwright; Chromium's host-resolver rules
(`pinning.py`) refuse private targets for those.

Host names are looked up once per process, only when the verdict depends on
them (`guard.needs_lookup`), on a thread pool of their own, and cached; requests
for a host whose lookup is under way wait for that one lookup. The address the
guard checked is the one Chromium connects to: the seed's host through the resolver
rules, every other name through the egress proxy (`egress.py`), which uses this cache (see
docs/browser.md, "Network safety").
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urljoin, urlsplit

from playwright.async_api import APIResponse, Route
from playwright.async_api import Error as PlaywrightError
from w3lib.url import safe_url_string

from ..page import DOCUMENT_ERROR_KEY, SERVED_DOCUMENT_KEY, ServedDocument
from ..snapshot import Fetched
from ..tls import is_certificate_error
from ..verify.ssrf import default_resolve, host_key, parse_literal
from .events import MAX_SOURCE_BYTES
from .guard import (
    ABORT,
    BLANK,
    CANCEL,
    FETCH,
    FOLLOW,
    GuardPolicy,
    is_local_name,
    needs_lookup,
    redirect_verdict,
    route_verdict,
)
from .session import PageSession

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
MAX_DOCUMENT_REDIRECTS = 20  # Chromium's own limit
BLANK_HTML = "<html><body></body></html>"
_DNS: dict[str, list[str]] = {}
_DNS_MAX = 4096
_LOOKUPS: dict[str, asyncio.Future[list[str]]] = {}  # lookups under way, by host
# a slow name (the resolver's timeout) holds one thread; the event loop's default pool has cpu + 4
_DNS_THREADS = 16
_POOL: ThreadPoolExecutor | None = None
_HEAD = re.compile(rb"<head[^>]*>|<!doctype[^>]*>", re.IGNORECASE)
_ABORT_CODES = (("timeout", "timedout"), ("ECONNREFUSED", "connectionrefused"), ("ENOTFOUND", "namenotresolved"),
                ("EAI_AGAIN", "namenotresolved"), ("ECONNRESET", "connectionreset"), ("hang up", "connectionreset"))


def _cached_resolve(host: str) -> list[str]:
    if is_local_name(host):
        return ["127.0.0.1"]
    if _DNS.get(host):
        return _DNS[host]
    raise OSError(f"cannot resolve {host}")


def cached_addresses(host: str) -> list[str]:
    """The addresses `learn` found for `host` (a literal is its own address); [] when it has none."""
    literal = parse_literal(host)
    if literal is not None:
        return [str(literal)]
    try:
        return _cached_resolve(host)
    except OSError:
        return []


async def learn(url: str, policy: GuardPolicy) -> None:
    """Look the URL's host name up once (off the event loop) so the pure verdict can read it."""
    if policy.allow_private or not url.startswith(("http", "ws")):
        return
    try:
        host = (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return
    if not host or host in _DNS or parse_literal(host) or is_local_name(host) or host_key(url) in policy.allowed_hosts:
        return
    lookup = _LOOKUPS.get(host)
    if lookup is None:
        lookup = _LOOKUPS[host] = asyncio.ensure_future(_resolve(host))
        lookup.add_done_callback(lambda _: _LOOKUPS.pop(host, None))
    found = await asyncio.shield(lookup)  # a page closed meanwhile does not cancel the others' lookup
    if len(_DNS) >= _DNS_MAX:
        _DNS.clear()
    _DNS[host] = found


async def _resolve(host: str) -> list[str]:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=_DNS_THREADS, thread_name_prefix="bara-dns")
    try:
        return await asyncio.get_running_loop().run_in_executor(_POOL, default_resolve, host)
    except (OSError, UnicodeError):
        return []


def abort_code(message: str) -> str:
    """Playwright abort code for a failed document fetch, so the attempt reads like Chromium's own error.

    >>> abort_code("apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:9"), abort_code("Timeout 5000ms")
    ('connectionrefused', 'timedout')
    """
    return next((code for needle, code in _ABORT_CODES if needle.lower() in message.lower()), "failed")


def rebase(body: bytes, final_url: str, requested_url: str) -> bytes:
    """The document of a redirect chain served under the URL that was asked for: make it read as `final_url`.

    Same origin: `history.replaceState` first thing in the document (page URL, base URL and
    `location` all become `final_url`). Cross origin (http→https, www): a `<base href>`.

    >>> rebase(b"<!DOCTYPE html><html><head><title>t", "http://a/x/", "http://a/x")
    b'<!DOCTYPE html><html><head><script>history.replaceState(null,"","http://a/x/")</script><title>t'
    >>> rebase(b"<p>hi", "https://a/x/", "http://a/x")
    b'<base href="https://a/x/"><p>hi'
    """
    final, asked = urlsplit(final_url), urlsplit(requested_url)
    if (final.scheme, final.netloc) == (asked.scheme, asked.netloc):
        tag = f"<script>history.replaceState(null,\"\",{json.dumps(final_url)})</script>".encode()
    else:
        tag = f'<base href="{final_url.replace(chr(34), "%22")}">'.encode()
    matches = list(_HEAD.finditer(body[:4096]))
    cut = matches[-1].end() if matches else 0
    return body[:cut] + tag + body[cut:]


async def _fetch_document(route: Route, session: PageSession, policy: GuardPolicy) -> None:
    asked = current = route.request.url
    served = session.meta.pop(SERVED_DOCUMENT_KEY, None)
    if isinstance(served, ServedDocument) and served.url == asked:
        await _serve(route, session, served)
        return
    for _ in range(MAX_DOCUMENT_REDIRECTS + 1):
        try:
            response = await route.fetch(url=current, max_redirects=0, timeout=max(session.remaining(), 0.5) * 1000)
        except PlaywrightError as exc:
            message = str(exc).splitlines()[0] if str(exc) else ""
            if session.source_html:  # a later navigation of a page whose document was served: that one stays
                session.leave(current, "navigation_error")
                await route.fulfill(status=200, content_type="text/html", body=BLANK_HTML)
                return
            if is_certificate_error(message):  # BARA_TLS_VERIFY: the context refused the certificate
                session.meta[DOCUMENT_ERROR_KEY] = ("CertificateError", f"certificate refused for {current}: "
                                                    f"{message.removeprefix('Route.fetch: ').split('; ')[0][:200]}")
            await route.abort(abort_code(message))
            return
        location = response.headers.get("location")
        if response.status not in REDIRECT_STATUSES or not location:
            try:
                body = await _source(response, session, current)
                if session.archive:
                    await _keep(route, response, session, current, body)
                await _fulfil(route, response, session, asked, current, body)
            finally:  # else the driver keeps the body until the context closes: memory grows with every page
                await _dispose(response)
            return
        if session.archive:
            await _keep(route, response, session, current, None)
        await _dispose(response)
        target = safe_url_string(urljoin(current, location))
        await learn(target, policy)
        verdict = redirect_verdict(target, policy, _cached_resolve)
        if verdict.action != FOLLOW:
            session.leave(target, verdict.reason)
            await route.fulfill(status=200, content_type="text/html", body=BLANK_HTML)
            return
        current = target
    session.leave(current, "redirect_loop")
    await route.fulfill(status=200, content_type="text/html", body=BLANK_HTML)


async def _serve(route: Route, session: PageSession, served: ServedDocument) -> None:
    """The document Scrapy already downloaded for this page (an escalation from HTTP), served as it came."""
    headers = [("content-type", served.content_type)] if served.content_type else []
    session.source_routed = True
    if len(served.body) <= MAX_SOURCE_BYTES:
        session.source_html, session.source_url = served.body.decode("utf-8", errors="replace"), served.url
    if session.archive and served.exchange is not None:
        session.fetched.append(served.exchange)
    await route.fulfill(status=served.status, headers=dict(headers), body=served.body)


async def _source(response: APIResponse, session: PageSession, url: str) -> bytes | None:
    """The document as served, read once over the driver's pipe before Chromium gets it: the page's
    `source_html` (text a script removes after load; the page itself when a script navigates away while
    it loads, see `render`), the archive's record. Only an HTML document of status 200 is read, unless the
    crawl archives (every document then); Chromium is still answered from the driver's copy (`_fulfil`)."""
    session.source_routed = True
    ctype = response.headers.get("content-type", "html").lower()
    if not session.archive and (response.status != 200 or "html" not in ctype):
        return None
    body = await response.body()
    if response.status == 200 and len(body) <= MAX_SOURCE_BYTES:
        session.source_html, session.source_url = body.decode("utf-8", errors="replace"), url
    return body


async def _keep(route: Route, response: APIResponse, session: PageSession, url: str, body: bytes | None) -> None:
    """The exchange as fetched, for the archive (`body` is None for a redirect hop's)."""
    session.fetched.append(Fetched(
        url=url, status=response.status, headers=[(h["name"], h["value"]) for h in response.headers_array],
        body=body or b"", request_headers=list(route.request.headers.items()), fetched_at=time.time(),
    ))


async def _dispose(response: APIResponse) -> None:
    try:
        await response.dispose()
    except PlaywrightError:
        pass  # the context closed meanwhile: the body went with it


async def _fulfil(route: Route, response: APIResponse, session: PageSession, asked: str, final: str,
                  body: bytes | None) -> None:
    if final == asked:
        await route.fulfill(response=response)  # from the driver's copy: the body is not sent back
        return
    session.redirected_to = final
    body = await response.body() if body is None else body
    if "html" in response.headers.get("content-type", "html").lower():
        body = rebase(body, final, asked)
    await route.fulfill(response=response, body=body)


def make_route_handler(session: PageSession, policy: GuardPolicy):  # type: ignore[no-untyped-def]
    """The `page.route("**/*", …)` handler of one page."""

    async def handle(route: Route) -> None:
        req = route.request
        try:
            document = req.is_navigation_request() and req.frame.parent_frame is None
            left = session.offsite_navigation is not None
            if needs_lookup(req.url, document=document, left=left, policy=policy):
                await learn(req.url, policy)
            verdict = route_verdict(req.url, document=document, loaded=session.dom_ready, left=left, policy=policy,
                                    resolve=_cached_resolve)
            if verdict.action == FETCH:
                await _fetch_document(route, session, policy)
            elif verdict.action == BLANK:
                # a redirect (script, meta refresh) while the document still loads: the target is never asked
                session.leave(req.url, verdict.reason)
                await route.fulfill(status=200, content_type="text/html", body=BLANK_HTML)
            elif verdict.action == CANCEL:
                session.blocked_navigation = session.blocked_navigation or req.url
                await route.abort("aborted")
            elif verdict.action == ABORT:
                session.blocked += 1
                await route.abort("blockedbyclient")
            elif session.pass_on:
                await route.fallback()  # to scrapy-playwright's handler: the user's abort or header hook
            else:
                await route.continue_()  # as sent: the context carries USER_AGENT (handler.py)
        except PlaywrightError:
            pass  # page closed while routing

    return handle

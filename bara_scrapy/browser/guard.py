"""Route-guard decisions: what a page may request, and where its document may be redirected.

Pure functions over a URL, a few facts about the request and a `GuardPolicy`;
the Playwright route handler (`browser/route.py`) carries them out. The SSRF
rules are `verify.ssrf.check_url`'s, so the browser and verification agree on
every spelling of a private address. Only the seed's own `host:port` may be
private; another port on the seed's host is another site (the scope rules say
so) and is blocked like any other private address.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ..urls import in_scope
from ..verify.ssrf import BLOCKED_PRIVATE, Resolver, check_url, host_key, parse_literal

CONTINUE = "continue"  # let Chromium send it
FETCH = "fetch"  # main-frame document: fetch it here, redirects hop by hop
FOLLOW = "follow"  # a document redirect hop that may be fetched
ABORT = "abort"  # a sub-resource that must not leave the browser
BLANK = "blank"  # a document leaving before it loaded: answer a blank page, fail the attempt
CANCEL = "cancel"  # a loaded page trying to navigate away: cancel, stay

OFFSITE_REDIRECT = "offsite_redirect"
SSRF_BLOCKED = "ssrf_blocked"
NETWORK_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
LOCAL_NAMES = ("localhost", "localhost.localdomain")


@dataclass(frozen=True)
class GuardPolicy:
    seed: str
    scope: str = "host"
    allow_private: bool = False
    block_offsite: bool = False  # BARA_BLOCK_OFFSITE_SUBRESOURCES
    allowed_hosts: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed_hosts", frozenset({host_key(self.seed)}))


@dataclass(frozen=True)
class Verdict:
    action: str
    reason: str | None = None


def is_local_name(host: str) -> bool:
    """Names that mean this machine without asking DNS (RFC 6761).

    >>> is_local_name("localhost"), is_local_name("app.localhost"), is_local_name("localhost.example")
    (True, True, False)
    """
    host = host.lower().rstrip(".")
    return host in LOCAL_NAMES or host.endswith(".localhost")


def _no_dns(host: str) -> list[str]:
    """The default resolver: local names only, nothing is looked up."""
    if is_local_name(host):
        return ["127.0.0.1"]
    raise OSError(f"not resolved here: {host}")


def network_block(url: str, policy: GuardPolicy, resolve: Resolver = _no_dns) -> str | None:
    """Why a network request to `url` is refused (`verify.ssrf` reasons), or None.

    Schemes that never reach the network (`data:`, `blob:`, `about:`) pass; `ws(s)`
    is checked as `http(s)`. A name the resolver cannot answer is not refused here
    (`dns_error`): Chromium's own lookup fails the same way.

    >>> p = GuardPolicy("http://127.0.0.1:8000/")
    >>> network_block("http://127.0.0.1:8000/x", p), network_block("http://127.0.0.1:9/x", p)
    (None, 'blocked_private')
    >>> network_block("ws://0x7f.2:8000/", p), network_block("data:image/png;base64,AA", p)
    ('blocked_private', None)
    """
    scheme, sep, rest = url.partition(":")
    http = NETWORK_SCHEMES.get(scheme.lower())
    if http is None or policy.allow_private:
        return None
    def local_first(host: str) -> Iterable[str]:
        return ["127.0.0.1"] if is_local_name(host) else resolve(host)

    reason = check_url(f"{http}{sep}{rest}", allowed_hosts=policy.allowed_hosts, resolve=local_first)
    return reason if reason in (BLOCKED_PRIVATE, "invalid_url") else None


def route_verdict(url: str, *, document: bool, loaded: bool, left: bool, policy: GuardPolicy,
                  resolve: Resolver = _no_dns) -> Verdict:
    """What to do with one routed request.

    `document`: a main-frame navigation; `loaded`: the page's DOM is ready;
    `left`: the document already left the scope (everything it asks is aborted).
    """
    if document:
        if not in_scope(url, policy.seed, policy.scope):
            return Verdict(CANCEL if loaded else BLANK, _leaving_reason(url, policy))
        if network_block(url, policy, resolve):
            return Verdict(CANCEL if loaded else BLANK, SSRF_BLOCKED)
        return Verdict(FETCH)
    if left:
        return Verdict(ABORT, "document_left_scope")
    if _offsite_blocked(url, policy):
        return Verdict(ABORT, "offsite_subresource")
    reason = network_block(url, policy, resolve)
    return Verdict(ABORT, reason) if reason else Verdict(CONTINUE)


def needs_lookup(url: str, *, document: bool, left: bool, policy: GuardPolicy) -> bool:
    """Whether `route_verdict` on `url` can depend on its host's addresses: not when private networks are
    allowed, nor for an off-scope document or a request `route_verdict` aborts before any lookup (a
    lookup can take the resolver's whole timeout, 5 s here for some names, and the request waits for it).

    >>> p = GuardPolicy("http://127.0.0.1:8000/", block_offsite=True)
    >>> needs_lookup("http://cdn.example/a.js", document=False, left=False, policy=p)
    False
    >>> needs_lookup("http://cdn.example/a.js", document=False, left=False, policy=GuardPolicy("http://127.0.0.1:8000/"))
    True
    >>> needs_lookup("http://other.example/", document=True, left=False, policy=p)
    False
    """
    if policy.allow_private:
        return False
    if document:
        return in_scope(url, policy.seed, policy.scope)  # off-scope documents are left, not resolved
    if left:
        return False
    return not _offsite_blocked(url, policy)


def _offsite_blocked(url: str, policy: GuardPolicy) -> bool:
    """A sub-request outside the seed's domain, with `BARA_BLOCK_OFFSITE_SUBRESOURCES` on."""
    return policy.block_offsite and url.startswith("http") and not in_scope(url, policy.seed, "domain")


def redirect_verdict(location: str, policy: GuardPolicy, resolve: Resolver = _no_dns) -> Verdict:
    """Whether the document may follow a redirect to `location` (an absolute URL).

    >>> p = GuardPolicy("http://127.0.0.1:8000/")
    >>> redirect_verdict("http://127.0.0.1:8000/b", p), redirect_verdict("http://127.0.0.2:8000/", p)
    (Verdict(action='follow', reason=None), Verdict(action='blank', reason='ssrf_blocked'))
    >>> redirect_verdict("https://other.example/", p), redirect_verdict("file:///etc/passwd", p)
    (Verdict(action='blank', reason='offsite_redirect'), Verdict(action='blank', reason='offsite_redirect'))
    """
    verdict = route_verdict(location, document=True, loaded=False, left=False, policy=policy, resolve=resolve)
    return Verdict(FOLLOW) if verdict.action == FETCH else verdict


def _leaving_reason(url: str, policy: GuardPolicy) -> str:
    """`ssrf_blocked` when the off-scope target names a private address literally, else `offsite_redirect`.

    Off-scope names are not resolved: the other site's DNS is not asked either.
    """
    if policy.allow_private or urlsplit(url).scheme.lower() not in NETWORK_SCHEMES:
        return OFFSITE_REDIRECT
    try:
        host = (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return OFFSITE_REDIRECT
    literal = parse_literal(host)
    private = is_local_name(host) or (literal is not None and network_block(url, policy) is not None)
    return SSRF_BLOCKED if private else OFFSITE_REDIRECT

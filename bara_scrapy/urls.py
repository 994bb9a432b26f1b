"""URL decisions: canonical form, scope, the non-content deny list (link selection: `links.py`).

Everything here is a pure function of its arguments, so the BFS rules can be
tested without Scrapy or a browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit, urlunsplit

from w3lib.url import canonicalize_url, safe_url_string

SCOPES = ("host", "domain", "prefix")
_DEFAULT_PORTS = {"http": 80, "https": 443}
URL_LENGTH_LIMIT = 2083
MAX_PATH_SEGMENTS = 20

# Query parameters that identify a visit, not a page.
TRACKING_PARAMS = frozenset(
    {
        "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "igshid",
        "mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "__hstc", "__hssc", "__hsfp",
        "hsctatracking", "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id", "spm",
        "jsessionid", "phpsessid", "sessionid", "sid",
    }
)
TRACKING_PREFIXES = ("utm_", "pk_", "mtm_")

# where one signs in ("/users/sign_in": Rails' Devise writes its words apart with "_")
_SIGN_IN = r"log[-_]?in|sign[-_]?in|sign[-_]?up|register|registration|wp-login\.php|auth|oauth2?|sso"
_SIGN_IN_ACTIONS = r"log[-_]?in|register|sign[-_]?up|sign[-_]?in"  # ... asked for in the query (?action=login)
_SEGMENTS = (
    rf"{_SIGN_IN}|log[-_]?out|sign[-_]?out|"
    r"account|my-?account|profile/edit|cart|basket|checkout|admin|wp-admin|"
    r"password|reset-?password|forgot-?password|"
    r"lost-?password|feed|feeds|rss|atom|share|sharer(?:\.php)?|intent/tweet|"
    r"unsubscribe|subscribe|print"
)
_FILE_EXTENSIONS = (
    r"pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|exe|dmg|msi|apk|iso|bin|"
    r"jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|"
    r"mp4|m4v|mov|webm|mkv|avi|wmv|flv|m3u8|mpd|ts|mp3|m4a|wav|ogg|oga|ogv|flac|aac|"
    r"docx?|xlsx?|pptx?|odt|ods|odp|rtf|csv|tsv|txt|json|xml|rss|atom|ics|vcf|"
    r"css|js|mjs|map|woff2?|ttf|otf|eot|wasm"
)
DEFAULT_DENY: tuple[str, ...] = (
    rf"^[^?]*/(?:{_SEGMENTS})(?:/|$|\?|\.(?:php|aspx?|html?)$)",
    rf"[?&](?:action|do|mode)=(?:{_SIGN_IN_ACTIONS}|log[-_]?out)(?:&|$)",
    r"[?&]share=",
    # print views and feeds asked for in the query: ?print=1, ?view=print, ?format=printable, ?feed=rss2
    r"[?&](?:print|printable|printer-?friendly)(?:=(?:1|true|yes|on)?)?(?:&|$)",
    r"[?&](?:view|format|output|layout|mode|tmpl|style)=print(?:able|er|er-?friendly)?(?:&|$)",
    r"[?&]feed=",
    # a wiki's edit, history and special pages (MediaWiki's ?action=edit, ?oldid=, Special:; DokuWiki's ?do=edit):
    # views of a page's source and past, not its content
    r"[?&](?:action|do)=(?:edit|submit|history|info|raw|delete|protect|unprotect|watch|unwatch|purge|rollback|"
    r"revisions|diff|backlink|recent)(?:&|$)",
    r"[?&](?:oldid|diff|redlink|returnto)=",
    r"(?:^|[/=])Special:",
    rf"^[^?]*\.(?:{_FILE_EXTENSIONS})(?:$|\?)",
)


_SIGN_IN_RE = re.compile(
    rf"^[^?#]*/(?:{_SIGN_IN})(?:[/?#]|$|\.(?:php|aspx?|html?)(?:[?#]|$))"
    rf"|[?&](?:action|do|mode)=(?:{_SIGN_IN_ACTIONS})(?:[&#]|$)",
    re.IGNORECASE,
)


def is_sign_in(url: str) -> bool:
    """Whether a URL is where a visitor logs in or registers (one of `DEFAULT_DENY`'s endpoints): a link there is
    a prompt to sign in, not a page.

    >>> [is_sign_in(u) for u in ("https://a.org/wp-login.php?redirect_to=x", "/register", "/?action=login",
    ...                          "/blog/login-tips", "/cart", "https://login.a.org/", "/login#form", "/users/sign_in")]
    [True, True, True, False, False, False, True, True]
    """
    return _SIGN_IN_RE.search(url) is not None  # a host ends before its first "/", so no login.a.org


def _is_tracking(name: str) -> bool:
    lname = name.lower()
    return lname in TRACKING_PARAMS or lname.startswith(TRACKING_PREFIXES)


def netloc(parts: SplitResult, *, with_port: bool = False) -> str:
    """The normal `host[:port]` of a split URL: lower-case host without a trailing dot,
    IPv6 bracketed; the scheme's default port dropped, or filled in with `with_port`.

    >>> netloc(urlsplit("HTTP://Example.COM.:80/")), netloc(urlsplit("https://[::1]/"), with_port=True)
    ('example.com', '[::1]:443')
    >>> netloc(urlsplit("http://a.org:8080/")), netloc(urlsplit("ftp://a.org/"), with_port=True)
    ('a.org:8080', 'a.org:0')
    """
    host = (parts.hostname or "").rstrip(".")
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    default = _DEFAULT_PORTS.get(parts.scheme.lower(), 0)
    port = parts.port or (default if with_port else None)
    return host if port is None or (port == default and not with_port) else f"{host}:{port}"


def canonicalize(url: str) -> str:
    """Return the canonical form of an absolute http(s) URL.

    Lower-case scheme and host, default port and fragment dropped, tracking
    parameters and session path parameters dropped, query sorted, empty query
    dropped; IDN hosts become punycode.

    >>> canonicalize("HTTP://Example.COM:80/a?b=2&utm_source=x&a=1#frag")
    'http://example.com/a?a=1&b=2'
    >>> canonicalize("https://example.com/p;jsessionid=ABC?")
    'https://example.com/p'
    """
    parts = urlsplit(url.strip())
    path = re.sub(r";(?:jsessionid|phpsessid|sid)=[^/?#]*", "", parts.path, flags=re.IGNORECASE)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k)]
    cleaned = urlunsplit((parts.scheme.lower(), netloc(parts), path or "/", urlencode(query), ""))
    return canonicalize_url(cleaned, keep_fragments=False)


def canonicalize_media(url: str) -> str:
    """Canonical form of a media URL: like `canonicalize`, but the query is kept
    as served (signed CDN URLs depend on it).

    >>> canonicalize_media("HTTPS://CDN.Example.com:443/i.png?b=2&a=1#x")
    'https://cdn.example.com/i.png?b=2&a=1'
    """
    parts = urlsplit(url.strip())
    return safe_url_string(urlunsplit((parts.scheme.lower(), netloc(parts), parts.path or "/", parts.query, "")))


def is_http_url(url: str) -> bool:
    """True for an absolute http(s) URL with a host.

    >>> is_http_url("https://example.org/"), is_http_url("mailto:a@b"), is_http_url("http://")
    (True, False, False)
    """
    try:
        parts = urlsplit(url.strip())
        return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
    except ValueError:
        return False


def _host_port(url: str) -> tuple[str, int]:
    host, _, port = netloc(urlsplit(url), with_port=True).rpartition(":")
    return host, int(port)


def _strip_www(host: str) -> str:
    return host[4:] if host.startswith("www.") else host


def scope_prefix(seed: str) -> str:
    """The path prefix of `prefix` scope: the seed's directory.

    >>> scope_prefix("https://x.org/docs/intro"), scope_prefix("https://x.org/docs/")
    ('/docs/', '/docs/')
    """
    path = urlsplit(seed).path or "/"
    return path[: path.rfind("/") + 1]


def in_scope(url: str, seed: str, scope: str = "host") -> bool:
    """Whether `url` belongs to the site of `seed` under the given scope.

    `host`: same host (``www.`` equivalent) and port; `domain`: subdomains of
    the seed host too; `prefix`: same host and the seed's directory.
    http and https count as the same site.

    >>> in_scope("https://www.a.org/x", "https://a.org/"), in_scope("https://b.a.org/", "https://a.org/")
    (True, False)
    >>> in_scope("https://b.a.org/", "https://a.org/", "domain")
    True
    """
    if not is_http_url(url):
        return False
    host, port = _host_port(url)
    seed_host, seed_port = _host_port(seed)
    same_port = port == seed_port or {port, seed_port} == {80, 443}
    if not same_port:
        return False
    if scope == "domain":
        base = _strip_www(seed_host)
        return host == base or host.endswith("." + base)
    if _strip_www(host) != _strip_www(seed_host):
        return False
    if scope == "prefix":
        return (urlsplit(url).path or "/").startswith(scope_prefix(seed))
    return True


@dataclass(frozen=True)
class DenyPolicy:
    """Regexes for non-content endpoints; `allow` overrides `deny`."""

    deny: tuple[str, ...] = DEFAULT_DENY
    allow: tuple[str, ...] = ()
    _deny_re: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)
    _allow_re: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_deny_re", tuple(re.compile(p, re.IGNORECASE) for p in self.deny))
        object.__setattr__(self, "_allow_re", tuple(re.compile(p, re.IGNORECASE) for p in self.allow))

    def is_denied(self, url: str) -> bool:
        """Match against the URL without scheme and host.

        >>> p = DenyPolicy()
        >>> p.is_denied("https://a.org/login"), p.is_denied("https://a.org/blog/login-tips")
        (True, False)
        >>> p.is_denied("https://a.org/files/report.pdf"), p.is_denied("https://a.org/cart/")
        (True, True)
        """
        parts = urlsplit(url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        if any(r.search(target) for r in self._allow_re):
            return False
        return any(r.search(target) for r in self._deny_re)

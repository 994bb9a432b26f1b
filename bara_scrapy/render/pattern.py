"""URL patterns: the pages of a site that share one template, so one render decision.

A pattern is the host (lower case, ``www.`` dropped, port kept: another port is another site) and the
path with its variable segments collapsed: numbers ``{n}``, dates ``{date}``, hex ids and UUIDs
``{hex}``, ids mixing letters and digits ``{id}``, slugs ``{slug}``. A file extension is kept
(``/files/{slug}.pdf``). The query's *keys* are kept, sorted, without their values and without tracking
parameters: on many sites the key selects the template (WordPress ``?p=`` is a post, ``?cat=`` a
category, ``?page_id=`` a page) while the value is only the record; dropping the query altogether would
put those templates in one pattern, keeping the values would make every page a pattern of its own.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit

from ..urls import canonicalize

_NUMBER = re.compile(r"\d+")
_DATE = re.compile(r"(?:19|20)\d\d(?:[-_.]?(?:0[1-9]|1[0-2])(?:[-_.]?(?:0[1-9]|[12]\d|3[01]))?)")
_HEX = re.compile(r"(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}|[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}")
_ID = re.compile(r"(?=.*\d{2})[a-z0-9]+(?:[-_][a-z0-9]+)?")  # p12345, sku-0042, ab12cd
_WORD_SEP = re.compile(r"[-_+.~]|%20")
_EXT = re.compile(r"\.([a-z0-9]{1,5})$")
# A slug: several words joined (`how-to-bake-bread`), or a word and a number (`chapter-12`).
SLUG_MIN_WORDS = 3


def segment_class(segment: str, after_variable: bool = False) -> str:
    """The collapsed form of one path segment, or the segment itself (lower case) when it is a literal.

    Two joined words are a literal (`about-us`) unless they follow a variable segment: under a date or an
    id they name a record (`/2023-11-02/mayor-resigns`).

    >>> [segment_class(s) for s in ("2024", "2024-05-17", "20240517", "3f2a9c1e77", "p12345")]
    ['{n}', '{date}', '{n}', '{hex}', '{id}']
    >>> [segment_class(s) for s in ("how-to-bake-bread", "chapter-12", "about-us", "News", "v2")]
    ['{slug}', '{slug}', 'about-us', 'news', 'v2']
    >>> segment_class("mayor-resigns", after_variable=True)
    '{slug}'
    """
    s = unquote(segment).lower()
    if _NUMBER.fullmatch(s):
        return "{n}"
    if _DATE.fullmatch(s):
        return "{date}"
    if _HEX.fullmatch(s):
        return "{hex}"
    words = [w for w in _WORD_SEP.split(s) if w]
    several = len(words) >= 2
    if len(words) >= SLUG_MIN_WORDS or (several and (after_variable or any(_NUMBER.search(w) for w in words))):
        return "{slug}"
    if _ID.fullmatch(s):
        return "{id}"
    return s


def path_pattern(path: str) -> str:
    """A path with its variable segments collapsed (extension kept, trailing slash kept).

    >>> path_pattern("/news/2024/05/17/city-council-votes-on-budget/")
    '/news/{n}/{n}/{n}/{slug}/'
    >>> path_pattern("/files/annual-report-2023.pdf"), path_pattern("/index.html"), path_pattern("")
    ('/files/{slug}.pdf', '/index.html', '/')
    """
    out: list[str] = []
    variable = False
    for seg in path.split("/"):
        if not seg:
            out.append(seg)
            continue
        ext = _EXT.search(seg.lower())
        stem = seg[: ext.start()] if ext else seg
        cls = segment_class(stem, variable) if stem else ""
        variable = cls.startswith("{")
        out.append(cls + (f".{ext.group(1)}" if ext else ""))
    joined = "/".join(out)
    return joined if joined.startswith("/") else "/" + joined


def url_pattern(url: str) -> str:
    """The pattern of a URL: host plus collapsed path plus sorted query keys.

    >>> url_pattern("https://www.Example.org/blog/2023/11/my-first-post?utm_source=x#top")
    'example.org/blog/{n}/{n}/{slug}'
    >>> url_pattern("http://127.0.0.1:8001/shop/item-42"), url_pattern("https://a.org/?p=123&lang=en")
    ('127.0.0.1:8001/shop/{slug}', 'a.org/?lang&p')
    """
    parts = urlsplit(canonicalize(url))  # tracking parameters and fragment dropped
    host = (parts.hostname or "").lower().rstrip(".")
    host = host[4:] if host.startswith("www.") else host
    if parts.port is not None and parts.port not in (80, 443):
        host = f"{host}:{parts.port}"
    keys = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True) })
    return host + path_pattern(parts.path) + ("?" + "&".join(keys) if keys else "")

"""Evidence, in a document served over HTTP, that only a browser would give the page's full result.

`signals` reads the served HTML (and its `snapshot_from_html` snapshot) and names every reason found;
one reason is enough to render the page. The reasons look at the page's own structure, not at what its
scripts could do: nearly every page ships scripts (jQuery, analytics, a lazy-loading library), so a
script alone is no evidence. The load-more, sentinel and control tests are the browser collector's
(`browser/collect_js.py`), read from markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import lxml.html
from lxml import etree

from ..snapshot import PageSnapshot

REASONS = (
    "app_mount", "script_container", "noscript_js", "thin_text", "lazy_placeholder", "script_video",
    "stream_video", "feed_sentinel", "load_more", "empty_panel", "infinite_scroll", "below_pattern",
)
# Mount points of client-side frameworks (React, Next.js, Nuxt, Gatsby, Vue, Angular, Svelte, Ember).
MOUNT_IDS = frozenset({"root", "app", "__next", "__nuxt", "___gatsby", "svelte", "react-root", "app-root",
                       "main-app", "ember-app", "q-app", "application"})
MOUNT_ATTRS = ("data-reactroot", "ng-app", "data-ng-app", "ng-version", "data-v-app", "x-data")
CONTAINERS = frozenset({"div", "section", "main", "article", "ul", "ol", "tbody", "aside", "span", "p"})
# The browser collector's labels (collect_js.py LOAD_MORE).
LOAD_MORE = re.compile(
    r"\b(load|show|view|see|display)\s+(more|all)\b|\bmore\s+(results|items|posts|stories|photos|videos)\b"
    r"|^\s*more\s*$|mehr\s+(laden|anzeigen)|voir\s+plus|ver\s+m[aá]s|cargar\s+m[aá]s", re.IGNORECASE)
CLICKABLE = ("//button | //*[@role='button'] | //input[@type='button'] | //a[starts-with(@href, '#')]"
             " | //a[starts-with(@href, 'javascript:')] | //a[not(@href)]")
SENTINEL = ("//*[contains(translate(@id, 'SENTINEL', 'sentinel'), 'sentinel')"
            " or contains(translate(@class, 'SENTINEL', 'sentinel'), 'sentinel') or @data-sentinel"
            " or contains(translate(@class, 'INFINTESCROL', 'infintescrol'), 'infinite-scroll')"
            " or @aria-busy='true']")
NOSCRIPT_JS = re.compile(
    r"(enable|turn on|activate|allow|requires?|need|without)\b.{0,40}\bjavascript|javascript\b.{0,40}"
    r"\b(required|disabled|is off|must be|needs to be|enabled)|javascript\s+(aktivieren|activer|habilitar)",
    re.IGNORECASE | re.DOTALL)
INFINITE_LIBS = re.compile(r"infinite-?scroll|infinitescroll|infinite-ajax-scroll|\bias\.min\.js", re.IGNORECASE)
STREAM_TYPES = re.compile(r"mpegurl|dash\+xml|\.m3u8\b|\.mpd\b", re.IGNORECASE)
THIN_TEXT_CHARS = 200  # served text below this, with scripts on the page: a shell that scripts fill
BELOW_PATTERN = 0.5  # text below this share of the pattern's rendered pages (their median)
PANEL_TEXT_CHARS = 20  # a tab/accordion panel with less text (and no media) is still to be filled


@dataclass(frozen=True)
class Reference:
    """What the pattern's rendered pages held (medians): a served page well below it is missing content."""

    text_chars: int
    links: int


def _text(el: Any) -> str:
    return "".join(el.itertext()) if el is not None else ""


def _is_empty(el: Any) -> bool:
    return len(el) == 0 and not (el.text or "").strip()


def _scripts(doc: Any) -> tuple[list[str], list[str]]:
    """Inline script code (JSON-LD and other data blocks left out) and external script URLs."""
    inline, external = [], []
    for s in doc.iter("script"):
        kind = (s.get("type") or "").lower()
        if s.get("src"):
            external.append(s.get("src"))
        elif kind in ("", "text/javascript", "module", "application/javascript"):
            inline.append(s.text or "")
    return inline, external


def _mounts(doc: Any, inline: Iterable[str]) -> tuple[bool, bool]:
    """(an empty framework mount point, an empty container an inline script names by its id)."""
    code = "\n".join(inline)
    mount = named = False
    for el in doc.iter(*CONTAINERS):
        if not _is_empty(el):
            continue
        ident = el.get("id") or ""
        if ident in MOUNT_IDS or any(el.get(a) is not None for a in MOUNT_ATTRS):
            mount = True
        elif ident and re.search(rf"[\"'#]{re.escape(ident)}[\"']", code):
            named = True
    return mount, named


def _empty_panel(doc: Any) -> bool:
    """A tab or disclosure whose panel (named by aria-controls) is missing or empty: a click fills it."""
    for el in doc.xpath("//*[@role='tab' or @aria-expanded='false'][@aria-controls]"):
        ident = (el.get("aria-controls") or "").split()[0] if (el.get("aria-controls") or "").split() else ""
        panel = doc.get_element_by_id(ident, None) if ident else None
        if panel is None or (len(_text(panel).strip()) <= PANEL_TEXT_CHARS
                             and not panel.xpath(".//img | .//video | .//iframe | .//picture")):
            return True
    return False


def signals(html: str, snapshot: PageSnapshot, *, text_chars: int | None = None, links: int | None = None,
            reference: Reference | None = None) -> tuple[str, ...]:
    """The reasons, in `REASONS` order, that a page served over HTTP should be rendered; () = none.

    `text_chars` and `links` are the HTTP result's (item text, child links), compared with the pattern's
    rendered `reference` when both are given.

    >>> from bara_scrapy.extraction.static import snapshot_from_html
    >>> shell = '<html><body><div id="root"></div><script src="/app.js"></script></body></html>'
    >>> signals(shell, snapshot_from_html("https://a.org/", "https://a.org/", 200, shell))
    ('app_mount', 'thin_text')
    """
    try:
        doc = lxml.html.document_fromstring(html) if html.strip() else None
    except (etree.ParserError, ValueError):
        doc = None
    if doc is None:
        return ()
    found: set[str] = set()
    inline, external = _scripts(doc)
    mount, named = _mounts(doc, inline)
    if mount:
        found.add("app_mount")
    if named:
        found.add("script_container")
    if any(NOSCRIPT_JS.search(_text(ns) + (ns.text or "")) for ns in doc.iter("noscript")):
        found.add("noscript_js")
    if (inline or external) and len(snapshot.body_text.strip()) < THIN_TEXT_CHARS:
        found.add("thin_text")
    markers = snapshot.markers
    if markers.lazy_placeholders:
        found.add("lazy_placeholder")
    if markers.empty_videos or markers.blob_videos:
        found.add("script_video")
    if any(STREAM_TYPES.search(f"{s.get('type') or ''} {s.get('src') or ''}")
           for s in doc.xpath("//video | //video//source")):
        found.add("stream_video")
    if doc.xpath(SENTINEL):
        found.add("feed_sentinel")
    if any(LOAD_MORE.search(" ".join((_text(b) or b.get("value") or b.get("aria-label") or "").split())[:80])
           for b in doc.xpath(CLICKABLE)):
        found.add("load_more")
    if _empty_panel(doc):
        found.add("empty_panel")
    if any(INFINITE_LIBS.search(u) for u in external) or any(INFINITE_LIBS.search(c) for c in inline):
        found.add("infinite_scroll")
    # text only: a pattern's pages differ in their number of links (the last page of a list, a leaf)
    if reference is not None and text_chars is not None and text_chars < BELOW_PATTERN * reference.text_chars:
        found.add("below_pattern")
    return tuple(r for r in REASONS if r in found)

"""What one attempt observed on a page: the seam between rendering and extraction.

The browser step (or the plain-HTTP path) fills a `PageSnapshot`; extractors
(the deterministic DOM one, or an LLM choosing among the same candidates)
turn it into page text and media. Nothing here knows how it was produced.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

HTML_TYPES = ("text/html", "application/xhtml+xml")  # Content-Types read as a page


class RawCandidate(BaseModel):
    """A media reference as found on the page, before canonicalisation."""

    model_config = ConfigDict(extra="ignore")

    url: str
    kind: str  # image | video | embed
    found_in: str  # e.g. img@src, img@srcset, css@background-image, network
    alt: str | None = None
    context: str | None = None
    group: str | None = None  # same group = variants of one image (srcset, picture)
    furniture: bool = False  # inside the site's furniture landmarks (navigation, page-level header or footer)


class NetworkEntry(BaseModel):
    """A media-looking response the page loaded."""

    model_config = ConfigDict(extra="ignore")

    url: str
    resource_type: str = ""
    status: int | None = None
    content_type: str = ""


class Fetched(BaseModel):
    """One HTTP exchange of the page's document as it was fetched (a redirect hop or the document itself),
    kept only when the crawl writes an archive (`bara_scrapy.archive`). The body is decoded (no
    Content-Encoding), as both Playwright and Scrapy hand it over."""

    model_config = ConfigDict(extra="ignore")

    url: str
    status: int
    headers: list[tuple[str, str]] = Field(default_factory=list)
    body: bytes = b""
    request_headers: list[tuple[str, str]] = Field(default_factory=list)
    fetched_at: float = 0.0  # epoch seconds


class Control(BaseModel):
    """A clickable control that may reveal content (load more, tab, accordion)."""

    model_config = ConfigDict(extra="ignore")

    handle: str  # CSS path, stable across attempts on the same DOM
    role: str  # load_more | tab | accordion | overlay_close


class Markers(BaseModel):
    """Signs that content is still hidden."""

    model_config = ConfigDict(extra="ignore")

    lazy_placeholders: int = 0  # <img> with a lazy data-* URL but no loaded src
    empty_videos: int = 0  # <video> with no src, no <source> and no network media
    blob_videos: int = 0
    feed_sentinel: bool = False  # infinite-scroll sentinel still on the page
    overlays: int = 0
    controls: list[Control] = Field(default_factory=list)


class PageSnapshot(BaseModel):
    model_config = ConfigDict(extra="ignore")

    url: str
    final_url: str
    status: int | None = None
    content_type: str = ""
    title: str = ""
    html: str = ""  # the rendered DOM after the attempt
    source_html: str = ""  # the document as the server sent it (browser path)
    body_text: str = ""
    links: list[str] = Field(default_factory=list)
    candidates: list[RawCandidate] = Field(default_factory=list)
    network: list[NetworkEntry] = Field(default_factory=list)
    markers: Markers = Field(default_factory=Markers)
    scroll_steps: int = 0
    scroll_truncated: bool = False
    deadline_hit: str | None = None  # the hard deadline fired: what was collected before it, and this reason
    offsite_navigation: str | None = None  # an off-scope navigation the guard blocked
    navigation_block: str | None = None  # its reason: offsite_redirect, ssrf_blocked, redirect_loop, navigation_error
    # the page left while it loaded, after its document came (the reason, and for where): it was read from
    # that document as served (`browser.render._as_served`)
    read_as_served: str | None = None
    blocked_requests: int = 0
    errors: list[str] = Field(default_factory=list)
    seconds: float = 0.0
    fetched: list[Fetched] = Field(default_factory=list)  # the document's exchanges, with BARA_WARC / BARA_WACZ
    parent_template: str = ""  # the parent page's fingerprint (`extraction.template`): its lines are the site's

"""Real pages through the real crawl, scored beside trafilatura measured in the same run.

Three corpora of real pages with gold text (`$BARA_CORPORA/<name>`, or `--corpus-path`):

- `article-extraction-benchmark`: 181 news/blog pages, gold = the article body;
- `cleaneval`: 732 pages of every kind, gold = everything that is content;
- `cleanportaleval`: 70 news-portal pages, gold = headline, standfirst and body.

The pages are served on 127.0.0.1 (as UTF-8) behind an index page that links to
each, each at its own URL's path where it can be (`served_paths`), with its links to
its own site made links to the bench's host (`localized`): on its site, a page's
link to itself or to another of its site's pages is a link within the site, and
extraction reads it so (a rail of the site's stories listing this one; "Related:"
promos of the site's other stories). One `bara` crawl (D=1, W and P wide enough)
renders every page in Chromium, with requests to other hosts aborted (the
pages' assets and links to other sites point at the live web, out of reach).
Each item's `text` is scored with the article benchmark's shingle metric, and
so is `text` without the readers' comments (`article`: what a user who wants the
page's own content keeps, and what the article and portal golds hold).

In the same run, on each page's raw HTML: trafilatura's default `extract` and
bara's own extraction (`page_content`), scored the same way and timed page by page in turns, in CPU time, so
the extraction cost is compared on the same input on the same machine at the same load.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urljoin, urlsplit

from ..urls import canonicalize
from .articles import PUBLISHED, load_corpus, score
from .runner import CrawlJob, CrawlResult
from .server import Site, SiteServer

if TYPE_CHECKING:
    from ..extraction.content import Content

CORPUS_NAME = "article-extraction-benchmark"
CORPORA = ("article-extraction-benchmark", "cleaneval", "cleanportaleval")
# the text each gold holds: the article body and the portal's story leave readers' comments out
_FIGCAPTION = re.compile(r"(^|/)figcaption(\.|/|$)")  # a block inside a <figcaption>, by its path
PRIMARY = {"article-extraction-benchmark": "article", "cleaneval": "text", "cleanportaleval": "article"}

Page = tuple[str, str, str, str]


INDEX_PATH = "/corpus-index.html"  # the crawl's seed: a path no page of the web is served at
_ANCHOR_HREF = re.compile(r"""(<a\b[^>]*?\shref\s*=\s*)(["'])(.*?)\2""", re.IGNORECASE | re.DOTALL)
_BASE = re.compile(r"<base\b[^>]*>", re.IGNORECASE)
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"  # a path of these is requested as written


def served_paths(pages: list[Page]) -> dict[str, str]:
    """Where each page is served: its own URL's path, so that what the page says of itself holds (its site's root
    page is served at `/`, a link to itself leads to it); or `/p/<key>.html` when it has no URL, its URL has a query,
    another page took that path, the crawl's deny rules or trap guard skip it (`/content/1/1/1`), or a browser or
    canonicalisation writes it otherwise (a quote, a space, a letter beyond ASCII).

    >>> served = served_paths([("a", "", "https://x.org/news/a.html", ""), ("b", "", "https://y.org/news/a.html", ""),
    ...     ("c", "", "", ""), ("d", "", "https://x.org/cart/", ""), ("e", "", "https://x.org/?p=1", ""),
    ...     ("f", "", 'https://x.org/%22People"', ""), ("g", "", "https://x.org/c/1/1/1", "")])
    >>> served["a"], sorted(set(served.values()) - {served["a"]}) == [f"/p/{k}.html" for k in "bcdefg"]
    ('/news/a.html', True)
    """
    from ..links import trap_reason
    from ..urls import DenyPolicy

    deny = DenyPolicy()
    taken, out = {INDEX_PATH, "/robots.txt"}, {}
    for key, _, url, _ in pages:
        parts = urlsplit(url) if url else None
        path = (parts.path or "/") if parts and parts.scheme in ("http", "https") and not parts.query else ""
        if not path or path in taken or deny.is_denied(path) or trap_reason(f"http://h{path}") or \
                quote(path, safe=_PATH_SAFE) != path or urlsplit(canonicalize(f"http://h{path}")).path != path:
            path = f"/p/{key}.html"
        taken.add(path)
        out[key] = path
    return out


def localized(page_html: str, url: str, path: str) -> str:
    """A page's HTML as served at `path` of the bench's host: its links to its own site (its URL's host) lead to the
    same path there, root-relative, and its links to itself to `path`; its `<base>` is dropped (its links are
    resolved already). Links to other sites, and the page's assets, are as written.

    >>> localized('<base href="https://x.org/"><a href="https://x.org/b?q=1#c">B</a><a href="a.html">Me</a>'
    ...           '<a href="https://y.org/">Y</a><a href="http://[ URL ]/">?</a>', "https://x.org/news/a.html",
    ...           "/p/k.html")
    '<a href="/b?q=1#c">B</a><a href="/p/k.html">Me</a><a href="https://y.org/">Y</a><a href="http://[ URL ]/">?</a>'
    """
    from ..extraction.blocks import page_address

    host = urlsplit(url).hostname if url else None
    if not host:
        return page_html
    here = page_address(url)

    def swap(match: re.Match[str]) -> str:
        try:
            target = urljoin(url, html.unescape(match.group(3)).strip())
            parts = urlsplit(target)
            if parts.scheme not in ("http", "https") or parts.hostname != host:
                return match.group(0)
        except ValueError:  # no address ("http://[ ARTICLE_URL ]"): as written
            return match.group(0)
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        local = path if page_address(target) == here else (parts.path or "/") + (f"?{parts.query}" if parts.query
                                                                                    else "")
        return f"{match.group(1)}{match.group(2)}{html.escape(local + fragment)}{match.group(2)}"

    return _ANCHOR_HREF.sub(swap, _BASE.sub("", page_html))


def corpus_site(pages: list[Page]) -> tuple[Site, dict[str, str]]:
    """A site with an index linking to every page, each served where `served_paths` puts it (`localized`), and those
    paths by page key."""
    site, paths = Site(), served_paths(pages)
    links = "".join(f'<li><a href="{html.escape(paths[key])}">{key}</a></li>' for key, *_ in pages)
    site.add(INDEX_PATH, f"<html><head><title>Corpus</title></head><body><ul>{links}</ul></body></html>")
    site.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    for key, text, url, _ in pages:
        site.add(paths[key], localized(text, url, paths[key]), content_type="text/html; charset=utf-8")
    return site, paths


def corpus_job(server: SiteServer, count: int) -> CrawlJob:
    return CrawlJob(
        key="corpus",
        seed=server.url(INDEX_PATH),
        args={"max_depth": 1, "max_width": count + 1, "max_pages": count + 1, "max_attempts": 1},
        settings={"BARA_BLOCK_OFFSITE_SUBRESOURCES": True, "BARA_VERIFY_MEDIA": False,
                  "BARA_SCROLL_MAX_STEPS": 2, "CONCURRENT_REQUESTS": 6,
                  "BARA_RENDER": "always", "BARA_BROWSER_TABS": 6},  # the rendered figure: every page rendered
    )


def without_comments(text: str, comments: list[dict[str, Any]]) -> str:
    """`text` less the lines of its readers' comments (an item's page content alone).

    >>> without_comments("Story\\nNice post!\\nEnd", [{"author": "ann", "text": "Nice post!"}])
    'Story\\nEnd'
    """
    from ..extraction.blocks import seq
    from ..extraction.content import comment_lines

    drop = comment_lines((str(c["author"]) if c.get("author") else None, str(c.get("text", ""))) for c in comments)
    return "\n".join(line for line in text.split("\n") if seq(line) not in drop)


def _rounded(figures: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in figures.items() if k != "n"}


def score_corpus(result: CrawlResult, server: SiteServer, truths: dict[str, str], paths: Mapping[str, str],
                 name: str = CORPUS_NAME, offline: dict[str, Any] | None = None) -> dict[str, Any]:
    """The crawl's items scored against the golds, each page's item found at its served path (`paths`)."""
    by_url = {item["url"]: item for item in result.items}
    texts: dict[str, str] = {}
    articles: dict[str, str] = {}
    missing = 0
    for key in truths:
        item = by_url.get(canonicalize(server.url(paths[key])))
        if item is None:
            missing += 1
        texts[key] = item.get("text", "") if item else ""
        articles[key] = without_comments(texts[key], item.get("comments") or []) if item else ""
    text_figures, article_figures = score(texts, truths), score(articles, truths)
    primary = article_figures if PRIMARY.get(name) == "article" else text_figures
    return {
        "corpus": name,
        "pages": len(truths),
        "missing_items": missing,
        "seconds": round(result.seconds, 1),
        "scored": PRIMARY.get(name, "text"),
        **_rounded(primary),
        "text": _rounded(text_figures),
        "article": _rounded(article_figures),
        "offline": offline or {},
        "published": PUBLISHED if name == CORPUS_NAME else {},
    }


def timed_side_by_side(pages: list[Page], extractors: Mapping[str, Callable[[str, str], str]]
                       ) -> dict[str, tuple[dict[str, str], float]]:
    """Each extractor's texts by page key and its CPU ms/page. The extractors take turns page by page (the first
    page by the first extractor first, the next by the next...), and each call is timed in the process's CPU time:
    a machine whose load changes during the run, or another process's work, weighs on both alike.

    >>> out = timed_side_by_side([("k", "<p>x</p>", "", "")], {"a": lambda h, u: "A", "b": lambda h, u: ""})
    >>> {name: texts for name, (texts, ms) in out.items()}, all(ms >= 0 for _, ms in out.values())
    ({'a': {'k': 'A'}, 'b': {'k': ''}}, True)
    """
    names = list(extractors)
    texts: dict[str, dict[str, str]] = {name: {} for name in names}
    spent = dict.fromkeys(names, 0.0)
    for n, (key, page_html, url, _) in enumerate(pages):
        for name in names[n % len(names):] + names[:n % len(names)]:
            started = time.process_time()
            texts[name][key] = extractors[name](page_html, url) or ""
            spent[name] += time.process_time() - started
    return {name: (texts[name], 1000 * spent[name] / max(1, len(pages))) for name in names}


def score_offline(pages: list[Page], name: str = CORPUS_NAME) -> dict[str, Any]:
    """trafilatura's default and bara's extraction on the raw HTML, in this run: figures and CPU ms/page."""
    import trafilatura

    from ..extraction.content import page_content

    truths = {key: truth for key, _, _, truth in pages}
    contents: dict[int, Any] = {}

    def bara(page_html: str, url: str) -> str:
        content = page_content(page_html, url)
        contents[id(page_html)] = content  # the pages stay alive: ids are theirs
        return content.text

    timed = timed_side_by_side(pages, {"trafilatura": lambda h, u: trafilatura.extract(h, url=u or None) or "",
                                       "bara": bara})
    (traf, traf_ms), (text, bara_ms) = timed["trafilatura"], timed["bara"]
    by_key = {key: contents[id(h)] for key, h, _, _ in pages}
    article = {key: content.article_text() for key, content in by_key.items()}
    use_article = PRIMARY.get(name) == "article"
    figures = {
        "trafilatura": {**_rounded(score(traf, truths)), "ms_per_page": round(traf_ms, 1)},
        "bara": {**_rounded(score(article if use_article else text, truths)), "ms_per_page": round(bara_ms, 1)},
        "bara_text": _rounded(score(text, truths)),
        "same_site": score_same_site(pages, by_key, use_article),
    }
    if name == CORPUS_NAME:  # what the headline costs against a gold of the article body alone
        body = {key: without_added_headings(content) for key, content in by_key.items()}
        figures["bara_less_headings"] = _rounded(score(body, truths))
        bare = {key: without_added_parts(content) for key, content in by_key.items()}
        figures["bara_less_added"] = _rounded(score(bare, truths))
    return figures


def without_added_headings(content: Content) -> str:
    """`Content.article_text` less the headings bara adds to trafilatura's text: the page's headline, a
    heading the article frame or a missed group put back (`Block.framed`, `Block.marked`). An article body's
    gold (the article corpus) has none, though a reader sees them: this is what they cost its precision.

    >>> from bara_scrapy.extraction.blocks import Block
    >>> from bara_scrapy.extraction.content import Content
    >>> blocks = (Block("h", "Otters return", "# Otters return", 1, framed=True), Block("h", "Why", "## Why", 2),
    ...           Block("p", "They came back.", "They came back."))
    >>> without_added_headings(Content(blocks=blocks))
    'Why\\nThey came back.'
    """
    return "\n".join(b.text for b in content.article_blocks() if not (b.kind == "h" and (b.framed or b.marked)))


def without_added_parts(content: Content) -> str:
    """`without_added_headings`, also less the figure captions bara adds to trafilatura's text (a line inside a
    `<figcaption>` that the frame or a missed group put back): the two parts of what a reader sees that the article
    corpus's gold, an article body, leaves out. What is left is what that gold defines.

    >>> from bara_scrapy.extraction.blocks import Block
    >>> from bara_scrapy.extraction.content import Content
    >>> blocks = (Block("h", "Otters return", "", 1, framed=True), Block("p", "They came back.", ""),
    ...           Block("p", "An otter. Photo: Ann", "", framed=True, path="/article/figure/figcaption.caption"))
    >>> without_added_parts(Content(blocks=blocks))
    'They came back.'
    """
    return "\n".join(b.text for b in content.article_blocks() if not (b.framed or b.marked) or not (
        b.kind == "h" or _FIGCAPTION.search(b.path)))


def score_same_site(pages: list[Page], alone: dict[str, Any], use_article: bool) -> dict[str, Any]:
    """The site's template (`extraction/template.py`) on real markup: the pages whose site has another page in the
    corpus, scored as extracted alone (`alone`: key -> `Content`) and again with the fingerprint of another page of
    their site (the one before it by key, the first taking the last) as the parent, as a crawl gives a page its
    parent's. A corpus page's sibling is not its crawl parent (a listing, a home page), but both show the site's
    template."""
    from ..extraction.content import page_content
    from ..extraction.template import decode

    sites: dict[str, list[Page]] = {}
    for page in sorted(pages):
        if host := urlsplit(page[2]).hostname if page[2] else None:
            sites.setdefault(host, []).append(page)
    shared = {host: members for host, members in sites.items() if len(members) > 1}
    truths, before, after, lines = {}, {}, {}, 0
    for members in shared.values():
        for n, (key, page_html, url, truth) in enumerate(members):
            parent = decode(alone[members[n - 1][0]].fingerprint)
            content = page_content(page_html, url, parent=parent)
            truths[key], lines = truth, lines + content.template_lines
            before[key] = alone[key].article_text() if use_article else alone[key].text
            after[key] = content.article_text() if use_article else content.text
    if not truths:
        return {}
    return {"pages": len(truths), "sites": len(shared), "template_lines": lines,
            "alone": _rounded(score(before, truths)), "with_parent": _rounded(score(after, truths))}


def load(path: Path) -> tuple[list[Page], dict[str, str]]:
    pages = load_corpus(path)
    return pages, {key: truth for key, _, _, truth in pages}


def corpus_markdown(figures: dict[str, Any]) -> str:
    scored = figures.get("scored", "text")
    rows = [
        f"{figures['corpus']}: {figures['pages']} pages; bara scored on `{scored}`"
        + (" (text without readers' comments, which this gold leaves out)" if scored == "article" else ""),
        "",
        "| extractor | F1 | precision | recall | CPU ms/page (raw HTML, in turns) |",
        "| --- | --- | --- | --- | --- |",
        f"| **bara_scrapy (rendered in Chromium)** | **{figures['f1']:.3f}** | {figures['precision']:.3f} "
        f"| {figures['recall']:.3f} | |",
    ]
    if scored == "article":
        t = figures["text"]
        rows.append(f"| bara_scrapy `text` with comments (rendered) | {t['f1']:.3f} | {t['precision']:.3f} "
                    f"| {t['recall']:.3f} | |")
    for label, key in (("bara_scrapy on the raw HTML", "bara"), ("trafilatura default, same run", "trafilatura")):
        if values := figures.get("offline", {}).get(key):
            rows.append(f"| {label} | {values['f1']:.3f} | {values['precision']:.3f} | {values['recall']:.3f} "
                        f"| {values['ms_per_page']:.1f} |")
    if less := figures.get("offline", {}).get("bara_less_headings"):
        rows.append(f"| bara_scrapy on the raw HTML, less the headings it adds to trafilatura's (the headline: this "
                    f"gold has none) | {less['f1']:.3f} | {less['precision']:.3f} | {less['recall']:.3f} | |")
    if bare := figures.get("offline", {}).get("bara_less_added"):
        rows.append(f"| bara_scrapy on the raw HTML, less the headings and the figure captions it adds (the body "
                    f"this gold defines) | {bare['f1']:.3f} | {bare['precision']:.3f} | {bare['recall']:.3f} | |")
    if same := figures.get("offline", {}).get("same_site"):
        for label, key in ((f"bara_scrapy on the raw HTML, the {same['pages']} pages of {same['sites']} sites with "
                            "several, alone", "alone"),
                           (f"the same pages, another page of their site as the parent ({same['template_lines']} "
                            "template lines left out)", "with_parent")):
            values = same[key]
            rows.append(f"| {label} | {values['f1']:.3f} | {values['precision']:.3f} | {values['recall']:.3f} | |")
    for name, published in figures.get("published", {}).items():
        cells = " | ".join("–" if v is None else f"{v:.3f}" for v in published)
        rows.append(f"| {html.escape(name)} (published) | {cells} | |")
    return "\n".join(rows)

"""Whole-crawl test helpers: run `scrapy crawl bara`, a reference BFS, a generated link-graph site.

`reference_bfs` is written from docs/design.md's prose ("BFS semantics") as a plain
FIFO queue; it deliberately shares no code with `bara_scrapy.frontier` or
`bara_scrapy.links.select_links`, only the URL rules (canonical form, scope,
deny list).
"""

from __future__ import annotations

import ast
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit

from bara_scrapy.bench.media import image_bytes
from bara_scrapy.bench.reference import Rendered, Visit, sequential_bfs
from bara_scrapy.bench.server import RequestInfo, Route, Site, SiteServer
from bara_scrapy.urls import DenyPolicy, canonicalize, in_scope

REPO_ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def one_page_site(page: str, image_paths: Iterable[str] = ()) -> Iterator[SiteServer]:
    """A one-page site, served: `page` at `/`, and a PNG (real bytes, one per path) at each of `image_paths`."""

    def image(info: RequestInfo) -> Route:
        return Route(image_bytes("png", info.path), content_type="image/png")

    site = Site()
    site.add("/", page)
    for path in image_paths:
        site.add(path, handler=image)
    with SiteServer(site) as server:
        yield server


# --------------------------------------------------------------------------- running a crawl


class CrawlOutput(list[dict[str, Any]]):
    """The crawl's items (feed order), with its log text and the final stats dump."""

    log_text: str = ""
    stats: dict[str, Any]
    seconds: float = 0.0


_DATETIME = re.compile(r"datetime\.datetime\([^)]*\)")


def parse_stats(log_text: str) -> dict[str, Any]:
    """The last "Dumping Scrapy stats" dict of a Scrapy log (datetimes become None).

    >>> log = ("x INFO: Dumping Scrapy stats:\\n{'finish_reason': 'finished',\\n"
    ...        " 'start_time': datetime.datetime(2026, 1, 1, 0, 0)}\\n2026-01-01 INFO: closed")
    >>> parse_stats(log)
    {'finish_reason': 'finished', 'start_time': None}
    """
    marker = "Dumping Scrapy stats:\n"
    pos = log_text.rfind(marker)
    if pos < 0:
        return {}
    lines = []
    for line in log_text[pos + len(marker) :].splitlines():
        lines.append(line)
        if line.rstrip().endswith("}"):
            break
    value = ast.literal_eval(_DATETIME.sub("None", "\n".join(lines)))
    assert isinstance(value, dict)
    return value


def run_crawl(
    seed: str,
    *,
    tmp_path: Path,
    args: Mapping[str, object] | None = None,
    settings: Mapping[str, object] | None = None,
    timeout: float = 240.0,
    expect_exit: int = 0,
) -> CrawlOutput:
    """Run `python -m scrapy crawl bara` in the repository and return its items.

    Asserts exit code 0, no Traceback in the log or stderr, and a valid JSONL
    feed (one JSON object per line).
    """
    out = tmp_path / "items.jsonl"
    log = tmp_path / "crawl.log"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "bara", "-a", f"seed={seed}"]
    for name, value in (args or {}).items():
        cmd += ["-a", f"{name}={value}"]
    for name, value in {"LOG_LEVEL": "INFO", **(settings or {})}.items():
        cmd += ["-s", f"{name}={value}"]
    cmd += ["-s", f"LOG_FILE={log}", "-O", str(out)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCRAPY_")}
    started = time.monotonic()
    proc = subprocess.Popen(
        cmd, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )
    try:
        _, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the crawl and the Chromium it started
        proc.communicate()
        raise AssertionError(f"crawl timed out after {timeout}s: {' '.join(cmd)}") from None
    seconds = time.monotonic() - started
    log_text = log.read_text(encoding="utf-8") if log.exists() else ""
    assert proc.returncode == expect_exit, f"exit code {proc.returncode}\n{stderr[-3000:]}\n{log_text[-3000:]}"
    assert "Traceback" not in log_text, log_text[log_text.index("Traceback") - 500 :][:4000]
    assert "Traceback" not in stderr, stderr[-4000:]
    result = CrawlOutput()
    for n, line in enumerate(out.read_text(encoding="utf-8").splitlines(), 1):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AssertionError(f"line {n} of {out} is not JSON: {line[:200]!r}") from exc
        assert isinstance(obj, dict), f"line {n} is not a JSON object"
        result.append(obj)
    result.log_text = log_text
    result.stats = parse_stats(log_text)
    result.seconds = seconds
    return result


# --------------------------------------------------------------------------- reference BFS


class Ref(NamedTuple):
    url: str
    depth: int
    parent: str | None
    bfs_index: int


def _robots_forbids(url: str, disallowed: Collection[str]) -> bool:
    path = urlsplit(url).path or "/"
    return any(path.startswith(prefix) for prefix in disallowed)


def reference_bfs(
    graph: Mapping[str, Sequence[str]],
    seed: str,
    D: int,  # noqa: N803 - the paper's names
    W: int,  # noqa: N803
    P: int,  # noqa: N803
    *,
    denied: DenyPolicy | None = None,
    robots_disallowed: Collection[str] = (),
    redirects: Mapping[str, str] | None = None,
    scope: str = "host",
) -> list[Ref]:
    """The sequential BFS of docs/design.md on a known link graph.

    `graph` maps a page's canonical URL to the absolute hrefs of its links
    after rendering, in DOM order; a URL missing from the graph is a page
    that fails (admitted, no links). `redirects` maps a canonical URL to
    where it redirects; every URL of the chain counts as seen when the page
    is rendered, and a chain that leaves the scope fails the page.
    `robots_disallowed` are path prefixes robots.txt forbids.

    >>> g = {"http://a.test/": ["http://a.test/x#f", "http://a.test/y", "http://a.test/login",
    ...                         "http://b.test/", "http://a.test/x?utm_source=m", "http://a.test/z"],
    ...      "http://a.test/x": ["http://a.test/"], "http://a.test/y": ["http://a.test/w"]}
    >>> [(r.url, r.depth, r.bfs_index) for r in reference_bfs(g, "http://a.test/", D=3, W=2, P=10)]
    [('http://a.test/', 0, 0), ('http://a.test/x', 1, 1), ('http://a.test/y', 1, 2), ('http://a.test/w', 2, 3)]
    """
    policy = denied if denied is not None else DenyPolicy()
    redirects = redirects or {}
    root = canonicalize(seed)

    def render(page: Visit) -> Rendered:
        # follow redirects: every URL of the chain becomes seen; a chain leaving the scope fails the page
        final, chain = page.url, [page.url]
        while final in redirects and len(chain) <= 20:
            final = canonicalize(urljoin(final, redirects[final]))
            chain.append(final)
            if not in_scope(final, root, scope):
                return Rendered()
        # select: canonical, in scope, not denied, robots-allowed, distinct, first W
        kept: list[str] = []
        for href in graph.get(final, ()):
            if urlsplit(href).scheme.lower() not in ("http", "https"):
                continue
            url = canonicalize(href)
            if not in_scope(url, root, scope) or policy.is_denied(url):
                continue
            if _robots_forbids(url, robots_disallowed) or url in kept:
                continue
            if len(kept) == W:
                break
            kept.append(url)
        return Rendered(chain, [(url, ()) for url in kept])

    run = sequential_bfs(root, render, D, P)
    return [Ref(v.url, v.depth, v.parent, v.bfs_index) for v in run.visits]


def refs_of(items: Sequence[Mapping[str, Any]]) -> list[Ref]:
    """Crawl items as reference tuples, sorted by bfs_index."""
    refs = [Ref(i["url"], i["depth"], i["parent_url"], i["bfs_index"]) for i in items]
    return sorted(refs, key=lambda r: r.bfs_index)


# --------------------------------------------------------------------------- generated link-graph site

ROBOTS_DISALLOWED = ("/private/",)
DENIED_HREFS = ("/login", "/account/settings", "/cart", "/files/report.pdf", "/feed", "/user/sign-up")
OFFSITE_HREFS = (
    "http://localhost:{port}/p/1",  # same server, another host name
    "http://127.0.0.1:1/p/1",  # another port
    "https://example.com/elsewhere",
    "mailto:someone@example.com",
    "javascript:void(0)",
    "tel:+100",
)
QUERY_HREFS = ("/q?b=2&a=1", "/q?a=1&b=2", "/q?a=2")  # two canonical pages, one route
LATE_LINK_SCRIPT = (
    "<script>window.addEventListener('load', () => setTimeout(() => {"
    " for (const s of document.querySelectorAll('span.late')) {"
    " const a = document.createElement('a'); a.href = s.dataset.target;"
    " a.textContent = 'late link'; s.replaceWith(a); } }, 0));</script>"
)


@dataclass
class GraphPage:
    links: list[tuple[str, bool]] = field(default_factory=list)  # (href as written, inserted by script)
    delay: float = 0.0


@dataclass
class GraphSite:
    """A deterministic site of linked pages; `install` serves it, `graph` is its ground truth."""

    base: str  # http://127.0.0.1:PORT
    pages: dict[str, GraphPage]  # route path -> page
    redirects: dict[str, str]  # route path -> Location
    private: list[str]  # robots-disallowed routes (served, must never be requested)
    robots_disallowed: tuple[str, ...] = ROBOTS_DISALLOWED
    flaky: frozenset[str] = frozenset()  # routes answering 503 to their first request

    @property
    def seed(self) -> str:
        return self.base + "/"

    def page_html(self, path: str) -> str:
        page = self.pages[path]
        parts = []
        for n, (href, late) in enumerate(page.links):
            attr = href.replace("&", "&amp;").replace('"', "&quot;")
            if late:
                parts.append(f'<li><span class="late" data-target="{attr}"></span></li>')
            else:
                parts.append(f'<li><a href="{attr}">link {n}</a></li>')
        script = LATE_LINK_SCRIPT if any(late for _, late in page.links) else ""
        return (
            f"<!doctype html><html><head><title>Graph page {path}</title></head><body>"
            f'<main id="top"><h1>Graph page {path}</h1>'
            f"<p>This is the generated page {path}. It has {len(page.links)} links below, some of them"
            " duplicates, some off the site, some added by a script after the page loaded.</p>"
            f"<ul>{''.join(parts)}</ul></main>{script}</body></html>"
        )

    def install(self, site: Site) -> None:
        for path, page in self.pages.items():
            html = self.page_html(path)
            site.add(path, handler=_delayed(html, page.delay, path in self.flaky))
        for path, target in self.redirects.items():
            site.add(path, "", status=301 if path.startswith("/old/") else 302, headers={"Location": target})
        for path in self.private:
            site.add(path, "<p>private</p>")
        robots = "User-agent: *\n" + "".join(f"Disallow: {p}\n" for p in self.robots_disallowed)
        site.add("/robots.txt", robots, content_type="text/plain")

    def _route_of(self, url: str) -> str:
        return urlsplit(url).path or "/"

    def graph(self, *, late: bool = True) -> dict[str, list[str]]:
        """Canonical page URL -> absolute hrefs in final DOM order, for every servable page URL.

        `late=False` leaves out the links a script adds after load (what a crawler without JS sees).
        """
        out: dict[str, list[str]] = {}
        todo = [self.seed] + [urljoin(self.seed, h) for p in self.pages.values() for h, _ in p.links]
        todo += [urljoin(self.seed, target) for target in self.redirects.values()]
        for url in todo:
            if urlsplit(url).scheme not in ("http", "https") or not in_scope(url, self.seed):
                continue
            canon = canonicalize(url)
            route = self._route_of(canon)
            if route in self.pages and canon not in out:
                out[canon] = [urljoin(canon, h) for h, is_late in self.pages[route].links if late or not is_late]
        return out

    def reference_redirects(self) -> dict[str, str]:
        return {canonicalize(self.base + p): urljoin(self.base + p, t) for p, t in self.redirects.items()}

    def reference(
        self, D: int, W: int, P: int, *, late: bool = True, robots: bool = True  # noqa: N803
    ) -> list[Ref]:
        """The sequential reference; `late`/`robots` False show what ignoring them would change."""
        return reference_bfs(
            self.graph(late=late), self.seed, D, W, P,
            robots_disallowed=self.robots_disallowed if robots else (), redirects=self.reference_redirects(),
        )


def _delayed(html: str, delay: float, flaky: bool = False) -> Callable[[RequestInfo], Route]:
    """A handler whose response the fixture server sends after `delay` seconds (server behaviour).

    A flaky page answers 503 to its first request, so it finishes late (after a retry).
    """

    def handler(info: RequestInfo) -> Route:
        if delay:
            time.sleep(delay)
        if flaky and info.hits == 1:
            return Route("<p>Try again</p>", status=503)
        return Route(html)

    return handler


def make_graph_site(
    base: str,
    rng_seed: int,
    *,
    n_pages: int | None = None,
    script_links: bool = True,
    delays: bool = True,
    flaky: bool = True,
    max_fanout: int = 12,
) -> GraphSite:
    """Generate a deterministic site for `rng_seed` (the port only shows up in absolute hrefs)."""
    rng = random.Random(rng_seed)
    n = n_pages if n_pages is not None else rng.randint(60, 120)
    port = urlsplit(base).port
    paths = ["/"] + [f"/p/{i}" for i in range(1, n)] + ["/blog/login-tips", "/q"]
    pages = {p: GraphPage() for p in paths}
    redirects: dict[str, str] = {}
    private: list[str] = []

    def page_href(target: str) -> str:
        style = rng.randrange(8)
        if style == 0:
            return target + "#section-" + str(rng.randrange(3))
        if style == 1:
            return target + "?utm_source=gen&utm_medium=test"
        if style == 2:
            return target + "?fbclid=x" + str(rng.randrange(100))
        if style == 3:
            return f"HTTP://127.0.0.1:{port}{target}"
        if style == 4 and target.startswith("/p/"):
            return ".." + target  # resolves like the absolute path from /, /p/i
        return target

    def special_href(index: int, path: str) -> str:
        kind = rng.randrange(9)
        if kind == 0:
            return rng.choice(DENIED_HREFS)
        if kind == 1:
            return rng.choice(OFFSITE_HREFS).format(port=port)
        if kind == 2:
            priv = f"/private/{rng.randrange(6)}"
            private.append(priv)
            return priv
        if kind == 3:
            return f"/missing/{rng.randrange(5)}"
        if kind == 4:
            k = rng.randrange(6)
            redirects[f"/old/{k}"] = f"/p/{(k * 7 + 3) % (n - 1) + 1}"
            return f"/old/{k}"
        if kind == 5:
            k = rng.randrange(2)
            redirects[f"/out/{k}"] = f"http://localhost:{port}/p/{k + 1}"
            return f"/out/{k}"
        if kind == 6:
            return rng.choice(QUERY_HREFS)
        if kind == 7:
            return rng.choice(("#top", path))  # self link
        return "/blog/login-tips"

    for index, path in enumerate(paths):
        page = pages[path]
        page.delay = rng.choice((0.0, 0.0, 0.05, 0.1, 0.2, 0.3)) if delays else 0.0
        fanout = max_fanout if path == "/" else rng.randint(0, max_fanout)
        hrefs: list[str] = []
        targets: list[str] = []
        for _ in range(fanout):
            roll = rng.random()
            if roll < 0.6:
                later = rng.random() < 0.6 and index + 1 < n
                target = rng.randrange(index + 1, n) if later else rng.randrange(0, n)
                targets.append("/" if target == 0 else f"/p/{target}")
                hrefs.append(page_href(targets[-1]))
            elif roll < 0.7 and targets:
                hrefs.append(page_href(rng.choice(targets)))  # a duplicate, written differently
            else:
                hrefs.append(special_href(index, path))
        if path == "/":  # forbidden and denied links first: they must not use up W
            hrefs[:0] = ["/private/0", "/login", "/private/1"]
            private += ["/private/0", "/private/1"]
        late = [rng.random() < 0.2 for _ in hrefs]  # drawn either way: same graph with or without scripts
        page.links = [(h, script_links and is_late) for h, is_late in zip(hrefs, late, strict=True)]
    flaky_pages = frozenset(f"/p/{i}" for i in range(4, n, 9)) if flaky else frozenset()
    return GraphSite(base=base, pages=pages, redirects=redirects, private=sorted(set(private)), flaky=flaky_pages)

"""The fault-suite harness: one hostile site, two canaries, one crawl helper that checks every invariant.

A case adds routes to `Hostile.site` (127.0.0.1, the seed's host:port), links them
from the seed page, runs `Hostile.crawl` once for many cases, and reads the items
by path. `crawl` asserts, for every run (docs/faults.md):

- exit code as expected, no Traceback in the log or on stderr, a valid JSONL feed
  (`run_crawl`);
- one item per admitted page, each with an explicit status, and a reason when failed;
- zero requests at both canaries: 127.0.0.2 (another loopback host) and 127.0.0.1 on
  another port (another site under the scope rules, and not the seed's host:port
  under the SSRF rules);
- no Chromium process of this crawl left running (found by an environment marker
  the crawl's children inherit, so parallel crawls of other tests do not count);
- a wall-time bound when the case is about time. Timings are appended to
  `$BARA_FAULT_TIMINGS` (a JSONL file) when set, for the closing report.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bara_scrapy.bench.server import Route, Site, SiteServer

from . import crawl_utils
from .crawl_utils import CrawlOutput

STATUSES = ("ok", "incomplete", "failed")
CANARY_HOST = "127.0.0.2"


def page(body: str, links: list[str] | tuple[str, ...] = (), extra: str = "") -> str:
    anchors = "".join(f'<a href="{href}">{href}</a> ' for href in links)
    return f"<html><head><title>t</title></head><body><main><p>{body}</p>{anchors}</main>{extra}</body></html>"


def _marked_processes(marker: str) -> list[int]:
    """Live processes whose environment carries `marker` (the crawl and its Chromium)."""
    found = []
    needle = f"BARA_FAULT_RUN={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes():
                continue
            state = (entry / "stat").read_text().split(") ", 1)[1][:1]
        except OSError:
            continue
        if state != "Z":
            found.append(int(entry.name))
    return found


@dataclass
class Hostile:
    """The hostile site on 127.0.0.1 and the canaries that must never be asked."""

    server: SiteServer
    canary: SiteServer  # another host: 127.0.0.2
    canary_port: SiteServer  # another site on the seed's host: 127.0.0.1:<other port>
    links: list[str] = field(default_factory=list)
    log_text: str = ""  # the last crawl's log

    @property
    def site(self) -> Site:
        return self.server.site

    def url(self, path: str) -> str:
        return self.server.url(path)

    def add(self, path: str, body: bytes | str = b"", *, link: bool = True, **kwargs: object) -> Route:
        """Add a route; `link` puts it on the seed page so the crawl admits it."""
        if link:
            self.links.append(path)
        return self.site.add(path, body, **kwargs)

    def canary_hits(self) -> dict[str, int]:
        return {**{f"2:{k}": v for k, v in self.canary.hits.items()},
                **{f"port:{k}": v for k, v in self.canary_port.hits.items()}}

    def crawl(self, tmp_path: Path, *, args: Mapping[str, object] | None = None,
              settings: Mapping[str, object] | None = None, bound: float | None = None,
              expect_exit: int = 0, name: str = "crawl", seed_path: str = "/",
              seed: str | None = None) -> dict[str, dict[str, Any]]:
        """Run one crawl from `seed_path` (or `seed`), assert every invariant, return the items by path."""
        if seed_path == "/" and "/" not in self.site.routes:
            self.site.add("/", page("The hostile test site: every fault in one place.", self.links))
        tmp_path.mkdir(parents=True, exist_ok=True)
        marker = uuid.uuid4().hex
        os.environ["BARA_FAULT_RUN"] = marker  # run_crawl passes the environment on
        try:
            items = crawl_utils.run_crawl(
                seed or self.url(seed_path), tmp_path=tmp_path,
                args={"max_pages": 200, "max_width": 200, **(args or {})},
                settings=settings, expect_exit=expect_exit, timeout=max(240.0, (bound or 0) * 2),
            )
        finally:
            os.environ.pop("BARA_FAULT_RUN", None)
        check_items(items)
        self.log_text = items.log_text
        for listener in ("Remote control HTTP server listening", "Telnet console listening"):
            assert listener not in items.log_text, f"{listener}: a control port is open"
        assert self.canary_hits() == {}, f"canary reached: {self.canary_hits()}"
        assert _marked_processes(marker) == [], "processes of the crawl (Chromium) left running"
        assert not leftover_chromium(self.server.port), "Chromium of this crawl left running"
        record_timing(name, items.seconds, bound)
        if bound is not None:
            assert items.seconds <= bound, f"{name}: {items.seconds:.1f}s > bound {bound}s"
        base = self.url("")
        return {i["url"].removeprefix(base) or "/": i for i in items}


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(") ", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def crawl_processes(kind: str) -> list[int]:
    """Processes of the running crawl (call from a route handler): "crawl", "browser" or "renderer".

    The crawl and Chromium's browser process carry the environment marker; Chromium's zygote clears
    the environment, so renderers are found as the browser's descendants.
    """
    marked = _marked_processes(os.environ.get("BARA_FAULT_RUN", "-"))
    tree = _children()
    todo, found = list(marked), []
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(tree.get(pid, []))
    chosen = []
    for pid in found:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        exe = cmdline.split(b"\0", 1)[0]
        if (kind == "crawl" and pid in marked and b"scrapy" in cmdline) or (
            kind == "renderer" and b"--type=renderer" in cmdline) or (
            kind == "browser" and exe.endswith(b"/chromium") and b"--type=" not in cmdline):
            chosen.append(pid)
    return chosen


def leftover_chromium(port: int) -> list[int]:
    """Chromium processes launched for a crawl of this server (its resolver rules name the seed's port)."""
    needle = f"127.0.0.1:{port} 127.0.0.1:{port}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(") ", 1)[1][:1]
            except OSError:
                continue
            if needle in cmdline and state != "Z":
                found.append(int(entry.name))
    return found


def check_items(items: CrawlOutput) -> None:
    urls = [i["url"] for i in items]
    assert len(urls) == len(set(urls)), "a page has more than one item"
    for item in items:
        assert item["status"] in STATUSES, item
        if item["status"] == "failed":
            assert item["error"], f"failed without a reason: {item['url']}"


def record_timing(name: str, seconds: float, bound: float | None) -> None:
    target = os.environ.get("BARA_FAULT_TIMINGS")
    if target:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"case": name, "seconds": round(seconds, 1), "bound": bound}) + "\n")


def hostile_servers() -> Iterator[Hostile]:
    """Generator for a pytest fixture: start the three servers, stop them after the test."""
    canary = SiteServer(Site(not_found=Route("<p>canary</p>")), host=CANARY_HOST).start()
    canary_port = SiteServer(Site(not_found=Route("<p>canary</p>"))).start()
    server = SiteServer(Site()).start()
    try:
        yield Hostile(server, canary, canary_port)
    finally:
        for s in (server, canary, canary_port):
            s.stop()

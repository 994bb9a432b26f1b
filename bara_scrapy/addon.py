"""The bara add-on: one `ADDONS` line wires every bara component into a project.

    ADDONS = {"bara_scrapy.addon.Addon": 0}
"""

from __future__ import annotations

import os
import shutil
from typing import Any

from scrapy.settings import SETTINGS_PRIORITIES, BaseSettings
from scrapy.utils.misc import load_object

from .browser.pinning import chromium_args
from .config import SCRAPY_SETTINGS, SETTINGS, browser_wanted

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
# Flags for a headless Chromium on a closed network, as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--mute-audio",
]

# Scrapy settings the add-on chooses; every bara setting's default comes from `config.SETTINGS`.
SCRAPY_DEFAULTS: dict[str, Any] = {
    **SCRAPY_SETTINGS,  # ROBOTSTXT_OBEY: public pages, site policy respected
    "DEPTH_PRIORITY": 1,
    # outputs of one response processed at once: Scrapy starts this many tasks for every response (100 by
    # default: ~250 event-loop callbacks a page); a page gives one item and its child requests
    "CONCURRENT_ITEMS": 4,
    "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
    "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
    "TELNETCONSOLE_ENABLED": False,
    "REMOTE_CONTROL_ENABLED": False,  # Scrapy 2.19 runs Python sent to a local HTTP port: never on a crawler
    "FEED_EXPORT_ENCODING": "utf-8",
    "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
}
DEFAULTS: dict[str, Any] = {**SETTINGS, **SCRAPY_DEFAULTS}

DOWNLOADER_MIDDLEWARES = {
    "bara_scrapy.middlewares.scope.ScopeGuardMiddleware": 60,
    "bara_scrapy.middlewares.reflection.ReflectionDownloaderMiddleware": 530,
    "bara_scrapy.middlewares.browser.BrowserMiddleware": 540,
    "bara_scrapy.middlewares.retry_after.RetryAfterMiddleware": 560,
}
SPIDER_MIDDLEWARES = {
    "bara_scrapy.middlewares.reflection.ReflectionMiddleware": 950,
    "bara_scrapy.middlewares.width.LinkWidthMiddleware": 850,
    "bara_scrapy.frontier.middleware.FrontierMiddleware": 820,  # local, or in Redis with BARA_FRONTIER_URL
}
ITEM_PIPELINES = {
    "bara_scrapy.pipelines.verification.MediaVerificationPipeline": 300,
    "bara_scrapy.pipelines.stats.ItemStatsPipeline": 900,
}
# With JOBDIR: the crawl journal (a crawl killed hard resumes); after Scrapy's FeedExporter (0), whose
# item_scraped must have written an item before the journal records it.
EXTENSIONS = {
    "bara_scrapy.extensions.feedguard.FeedGuardExtension": 515,  # a feed that cannot be written stops the crawl
    "bara_scrapy.extensions.journal.CrawlJournalExtension": 520,
}
# Outputs: live progress, the HTML report, the closing summary, stored media, flat CSV / nested XML feeds.
REPORTING_EXTENSIONS = {
    "bara_scrapy.extensions.progress.ProgressExtension": 500,
    "bara_scrapy.extensions.report.ReportExtension": 510,
    "bara_scrapy.extensions.summary.CrawlSummaryExtension": 520,
}
REPORTING_PIPELINES = {"bara_scrapy.pipelines.store.MediaStorePipeline": 400}
FEED_EXPORTERS = {
    "csv": "bara_scrapy.exporters.BaraCsvItemExporter",
    "xml": "bara_scrapy.exporters.BaraXmlItemExporter",
}
# The WARC/WACZ archive, wired only when BARA_WARC or BARA_WACZ is set (it imports warcio).
ARCHIVE_EXTENSIONS = {"bara_scrapy.archive.extension.WarcExtension": 520}
PLAYWRIGHT_HANDLER = "bara_scrapy.browser.handler.BaraPlaywrightDownloadHandler"
# Scrapy's extensions that a setting switches off, left out of EXTENSIONS_BASE when it does: Scrapy imports
# each to merge the lists, only for the extension to decline (the console's terminal code and aiohttp's
# server: 0.1 s of every crawl's start)
SWITCHED_EXTENSIONS = {
    "TELNETCONSOLE_ENABLED": "scrapy.extensions.telnet.TelnetConsole",
    "REMOTE_CONTROL_ENABLED": "scrapy.extensions.remote_control.RemoteControl",
}


def find_chromium() -> str | None:
    """Debian's Chromium (or another system Chrome); BARA_CHROMIUM_PATH wins."""
    env = os.environ.get("BARA_CHROMIUM_PATH")
    if env:
        return env
    for path in CHROMIUM_CANDIDATES:
        if os.path.exists(path):
            return path
    return shutil.which("chromium")


def _keep_priority(settings: BaseSettings, name: str) -> int:
    """Fill keys into a dict setting without losing to the priority it already has."""
    return max(SETTINGS_PRIORITIES["addon"], settings.getpriority(name) or 0)


def _drop_switched_off(settings: BaseSettings) -> None:
    """Leave Scrapy's extensions whose setting is off out of EXTENSIONS_BASE (`SWITCHED_EXTENSIONS`). Scrapy
    imports every key of EXTENSIONS and EXTENSIONS_BASE, a None in EXTENSIONS included, to merge them."""
    off = {path for flag, path in SWITCHED_EXTENSIONS.items() if not settings.getbool(flag)}
    base = settings.getdict("EXTENSIONS_BASE")
    kept = {path: order for path, order in base.items() if path not in off}
    if len(kept) < len(base):
        settings.set("EXTENSIONS_BASE", kept, priority=_keep_priority(settings, "EXTENSIONS_BASE"))


class Addon:
    def update_settings(self, settings: BaseSettings) -> None:
        for name, value in DEFAULTS.items():
            settings.set(name, value, priority="addon")
        for name, table in (
            ("DOWNLOADER_MIDDLEWARES", DOWNLOADER_MIDDLEWARES),
            ("SPIDER_MIDDLEWARES", SPIDER_MIDDLEWARES),
            ("ITEM_PIPELINES", ITEM_PIPELINES),
            ("EXTENSIONS", EXTENSIONS),
        ):
            for component, order in table.items():
                settings.setdefault_in_component_priority_dict(name, load_object(component), order)
        self._reporting(settings)
        # one TLS policy: Scrapy's downloads (static pages, robots.txt, media verification) verify as the browser does
        settings.set("DOWNLOAD_VERIFY_CERTIFICATES", settings.getbool("BARA_TLS_VERIFY", True), priority="addon")
        if settings.get("BARA_WARC") or settings.get("BARA_WACZ"):
            for component, order in ARCHIVE_EXTENSIONS.items():
                settings.setdefault_in_component_priority_dict("EXTENSIONS", load_object(component), order)
        if browser_wanted(settings):
            handlers = settings.getdict("DOWNLOAD_HANDLERS")
            for scheme in ("http", "https"):
                handlers.setdefault(scheme, PLAYWRIGHT_HANDLER)
            settings.set("DOWNLOAD_HANDLERS", handlers, priority=_keep_priority(settings, "DOWNLOAD_HANDLERS"))
            launch = dict(settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS"))
            launch.setdefault("headless", True)
            launch["args"] = chromium_args(
                list(launch.get("args", CHROMIUM_ARGS)), settings.get("BARA_SEED"),
                settings.getbool("BARA_ALLOW_PRIVATE_NETWORKS"),
            )
            chromium = settings.get("BARA_CHROMIUM_PATH") or find_chromium()
            if chromium and "executable_path" not in launch:
                launch["executable_path"] = chromium
            priority = _keep_priority(settings, "PLAYWRIGHT_LAUNCH_OPTIONS")
            settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", launch, priority=priority)
            settings.set("PLAYWRIGHT_BROWSER_TYPE", "chromium", priority="addon")
            tabs = settings.getint("BARA_BROWSER_TABS")
            if tabs and not settings.getint("PLAYWRIGHT_MAX_PAGES_PER_CONTEXT"):  # renders apart from HTTP pages
                settings.set("PLAYWRIGHT_MAX_PAGES_PER_CONTEXT", tabs, priority="addon")
        _drop_switched_off(settings)

    @staticmethod
    def _reporting(settings: BaseSettings) -> None:
        for name, table in (("EXTENSIONS", REPORTING_EXTENSIONS), ("ITEM_PIPELINES", REPORTING_PIPELINES)):
            for component, order in table.items():
                settings.setdefault_in_component_priority_dict(name, load_object(component), order)
        exporters = dict(settings.getdict("FEED_EXPORTERS"))
        for fmt, exporter in FEED_EXPORTERS.items():
            exporters.setdefault(fmt, exporter)  # a user's own exporter for a format wins
        settings.set("FEED_EXPORTERS", exporters, priority=_keep_priority(settings, "FEED_EXPORTERS"))

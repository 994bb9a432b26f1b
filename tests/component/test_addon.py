"""The add-on: what it sets, at which priority, and what it leaves to the user."""

from __future__ import annotations

from typing import Any

from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.test import get_crawler

from bara_scrapy.addon import PLAYWRIGHT_HANDLER, SCRAPY_DEFAULTS
from bara_scrapy.config import SETTINGS
from bara_scrapy.spiders.bara import BaraSpider

ADDON = {"ADDONS": {"bara_scrapy.addon.Addon": 0}}


def settings_of(**values: Any) -> Any:
    return get_crawler(BaraSpider, {**ADDON, **values}).settings


def names(components: dict[Any, Any]) -> dict[str, Any]:
    return {getattr(k, "__name__", str(k).rsplit(".", 1)[-1]): v for k, v in components.items()}


def test_every_default_is_set_at_addon_priority() -> None:
    settings = settings_of()
    bare = get_crawler(BaraSpider).settings  # get_crawler sets a few itself (telnet, reactor) at project priority
    for name, value in {**SETTINGS, **SCRAPY_DEFAULTS}.items():
        if (bare.getpriority(name) or 0) > SETTINGS_PRIORITIES["addon"]:
            continue
        assert settings[name] == value, name
        assert settings.getpriority(name) == SETTINGS_PRIORITIES["addon"], name
    assert names(settings["SPIDER_MIDDLEWARES"])["FrontierMiddleware"] == 820
    assert names(settings["ITEM_PIPELINES"])["MediaVerificationPipeline"] == 300


def test_a_users_own_value_wins() -> None:
    settings = settings_of(
        BARA_MAX_WIDTH=5, ROBOTSTXT_OBEY=False, DEPTH_PRIORITY=0,
        DOWNLOAD_HANDLERS={"https": "my.Handler"}, FEED_EXPORTERS={"csv": "my.Csv"},
    )
    assert (settings["BARA_MAX_WIDTH"], settings["ROBOTSTXT_OBEY"], settings["DEPTH_PRIORITY"]) == (5, False, 0)
    assert settings.getpriority("BARA_MAX_WIDTH") == SETTINGS_PRIORITIES["project"]
    handlers = settings.getdict("DOWNLOAD_HANDLERS")
    assert handlers["https"] == "my.Handler" and handlers["http"] == PLAYWRIGHT_HANDLER
    assert settings.getdict("FEED_EXPORTERS")["csv"] == "my.Csv"


def test_one_frontier_middleware_with_or_without_a_frontier_url() -> None:
    plain = names(settings_of()["SPIDER_MIDDLEWARES"])
    shared = names(settings_of(BARA_FRONTIER_URL="redis://127.0.0.1:1/0")["SPIDER_MIDDLEWARES"])
    assert plain == shared and plain["FrontierMiddleware"] == 820


def test_browser_disabled_leaves_download_handlers_alone() -> None:
    on = settings_of()
    assert on.getdict("DOWNLOAD_HANDLERS")["http"] == PLAYWRIGHT_HANDLER
    assert on.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")["headless"] is True
    off = settings_of(BARA_BROWSER_ENABLED=False)
    assert PLAYWRIGHT_HANDLER not in off.getdict("DOWNLOAD_HANDLERS").values()
    assert off.getdict("PLAYWRIGHT_LAUNCH_OPTIONS") == {}


def test_an_archive_setting_wires_the_warc_extension() -> None:
    assert "WarcExtension" not in names(settings_of()["EXTENSIONS"])
    for setting in ("BARA_WARC", "BARA_WACZ"):
        assert names(settings_of(**{setting: "out/crawl"})["EXTENSIONS"])["WarcExtension"] == 520

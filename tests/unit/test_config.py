"""BaraConfig: one table of every bara default, validated, parsed once per crawler."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.settings import Settings
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from bara_scrapy.addon import DEFAULTS
from bara_scrapy.config import (
    SCRAPY_SETTINGS,
    SETTINGS,
    BaraConfig,
    ConfigError,
    LlmConfig,
    VerifyConfig,
)
from bara_scrapy.frontier.middleware import FrontierMiddleware
from bara_scrapy.instructions import Instructions
from bara_scrapy.middlewares.width import LinkWidthMiddleware
from bara_scrapy.spiders.bara import BaraSpider
from bara_scrapy.urls import DEFAULT_DENY

ADDON = {"ADDONS": {"bara_scrapy.addon.Addon": 0}}
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_defaults_are_what_the_addon_sets() -> None:
    crawler = get_crawler(BaraSpider, ADDON)
    assert BaraConfig.from_crawler(crawler) == BaraConfig()
    for name, default in {**SETTINGS, **SCRAPY_SETTINGS}.items():
        assert DEFAULTS[name] == default
        assert crawler.settings.getpriority(name) == 15, name  # "addon"


def test_the_table_names_every_field_and_the_config_keeps_its_groups() -> None:
    config = BaraConfig()
    assert SETTINGS["BARA_VERIFY_TIMEOUT"] == config.verify.timeout == 15.0
    assert SETTINGS["BARA_LLM_TIMEOUT"] == config.llm.timeout == 60.0
    assert SETTINGS["BARA_STORE_MAX_BYTES"] == config.reporting.store_max_bytes == 100 * 1024 * 1024
    assert SETTINGS["BARA_FRONTIER_LEASE"] == config.frontier.lease == 30.0
    assert SETTINGS["BARA_DENY"] == [] and config.deny == DEFAULT_DENY
    assert SETTINGS["BARA_LLM_BASE_URL"] == "" and config.llm.base_url is None
    assert "ROBOTSTXT_OBEY" not in SETTINGS and SCRAPY_SETTINGS == {"ROBOTSTXT_OBEY": True}


def test_first_instructions_are_the_instruction_defaults() -> None:
    assert BaraConfig().first_instructions() == Instructions()
    assert BaraConfig(scroll_max_steps=3, scroll_pause=0.5).first_instructions().scroll_pause_ms == 500


def test_values_from_the_command_line_are_parsed() -> None:
    config = BaraConfig.from_settings(Settings({
        "BARA_VERIFY_CONCURRENCY": "3", "BARA_VERIFY_MEDIA": "0", "BARA_DENY": "a,b", "BARA_SCOPE": "Domain",
        "BARA_LLM_MODEL": "m", "BARA_LLM_BASE_URL": "http://127.0.0.1:1/v1", "BARA_STORE_MEDIA": "True",
    }))
    assert config.verify == VerifyConfig(enabled=False, timeout=15.0, concurrency=3)
    assert config.deny == (*DEFAULT_DENY, "a", "b") and config.scope == "domain"
    assert (config.llm.model, config.llm.base_url, config.reporting.store_media) == ("m", "http://127.0.0.1:1/v1", True)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("BARA_MAX_WIDTH", "-1", "invalid setting BARA_MAX_WIDTH='-1': must be an integer >= 0"),
        ("BARA_MAX_PAGES", "many", "invalid setting BARA_MAX_PAGES='many': must be an integer >= 1"),
        ("BARA_PAGE_TIMEOUT", 0, "invalid setting BARA_PAGE_TIMEOUT=0: must be a number >= 1.0"),
        ("BARA_SCOPE", "planet", "invalid setting BARA_SCOPE='planet': one of host, domain, prefix"),
        ("BARA_VERIFY_TIMEOUT", "soon", "invalid setting BARA_VERIFY_TIMEOUT='soon': must be a number"),
        ("BARA_VERIFY_MEDIA", "maybe", "invalid setting BARA_VERIFY_MEDIA='maybe': must be True or False"),
        ("BARA_LLM_MAX_TOKENS", 1, "invalid setting BARA_LLM_MAX_TOKENS=1: must be an integer >= 16"),
        ("BARA_LLM_CONCURRENCY", 0, "invalid setting BARA_LLM_CONCURRENCY=0: must be an integer >= 1"),
    ],
)
def test_a_bad_value_is_one_line_naming_it(name: str, value: object, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        BaraConfig.from_settings(Settings({name: value}))
    assert str(info.value) == message and "\n" not in str(info.value)


def test_parsed_once_per_crawler() -> None:
    crawler = get_crawler(BaraSpider, {**ADDON, "BARA_MAX_WIDTH": 7})
    config = BaraConfig.from_crawler(crawler)
    width = build_from_crawler(LinkWidthMiddleware, crawler)
    budget = build_from_crawler(FrontierMiddleware, crawler)
    assert width.config is budget.config is config and config.max_width == 7
    assert BaraConfig.from_crawler(get_crawler(BaraSpider, ADDON)) is not config


def test_unfrozen_settings_are_not_memoised() -> None:
    from scrapy.crawler import Crawler

    crawler = Crawler(BaraSpider, {"BARA_MAX_WIDTH": 4})  # settings not final yet (spider args may follow)
    first = BaraConfig.from_crawler(crawler)
    crawler.settings.set("BARA_MAX_WIDTH", 9, priority="spider")
    assert (first.max_width, BaraConfig.from_crawler(crawler).max_width) == (4, 9)


def test_the_api_key_is_never_in_a_repr() -> None:
    key = "sk-proj-secret123456"
    config = BaraConfig.from_settings(Settings({"BARA_LLM_API_KEY": key, "BARA_LLM_MODEL": "m"}))
    assert key not in repr(config) and key not in repr(config.llm) and config.llm.key({}) == key
    assert LlmConfig().key({"OPENAI_API_KEY": " sk-env "}) == "sk-env" and LlmConfig().key({}) is None


def _readme_defaults() -> dict[str, str]:
    """setting -> its README 'Type, default' cell, from the settings table."""
    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| `([A-Z_]+)`[^|]*\| ([^|]*) \|", line)
        if match:
            rows[match[1]] = match[2]
    return rows


def test_the_readme_settings_table_states_every_default() -> None:
    rows = _readme_defaults()
    for name, default in {**SETTINGS, **SCRAPY_SETTINGS}.items():
        assert name in rows, f"{name} missing from the README settings table"
        cell = rows[name]
        quoted = re.search(r"`([^`]*)`", cell)
        text = "" if "empty" in cell or "derived" in cell or quoted is None else quoted[1]
        if isinstance(default, bool):
            assert text == str(default), name
        elif isinstance(default, int | float):
            assert float(text) == default, name
        elif isinstance(default, list):
            assert text == "[]" and default == [], name
        else:
            assert text == default, name


def test_a_crawl_without_the_llm_never_imports_openai() -> None:
    code = (
        "import sys; from scrapy.settings import Settings; from bara_scrapy.addon import Addon; "
        "import bara_scrapy.spiders.bara, bara_scrapy.middlewares.reflection, bara_scrapy.middlewares.browser, "
        "bara_scrapy.pipelines.verification, bara_scrapy.llm; "
        "from bara_scrapy.config import BaraConfig; from bara_scrapy.llm import build_extractor; "
        "Addon().update_settings(Settings()); build_extractor(BaraConfig(), {'OPENAI_API_KEY': 'sk-x'}); "
        "assert 'openai' not in sys.modules, 'openai imported'; "
        "from bara_scrapy.llm import LlmClient; assert 'openai' in sys.modules"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("telnet", [False, True])
def test_switched_off_extensions_are_not_even_imported(telnet: bool) -> None:
    """Telnet and remote control are off by default: left out of EXTENSIONS_BASE, so Scrapy's merge of the
    extension lists does not import them; one switched on by the project stays."""
    code = (
        "import sys; from scrapy.settings import Settings; from bara_scrapy.addon import Addon; "
        "from scrapy.utils.conf import build_component_list; "
        f"s = Settings(); s.set('TELNETCONSOLE_ENABLED', {telnet}, priority='cmdline'); Addon().update_settings(s); "
        "names = [str(c) for c in build_component_list(s.get_component_priority_dict_with_base('EXTENSIONS'))]; "
        "print(any('TelnetConsole' in n for n in names), any('RemoteControl' in n for n in names), "
        "'twisted.conch.telnet' in sys.modules, 'aiohttp' in sys.modules, any('LogStats' in n for n in names))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    listed_telnet, listed_remote, imported_telnet, imported_aiohttp, listed_logstats = done.stdout.split()
    assert (listed_telnet, listed_remote, imported_aiohttp, listed_logstats) == (str(telnet), "False", "False", "True")
    if not telnet:
        assert imported_telnet == "False"

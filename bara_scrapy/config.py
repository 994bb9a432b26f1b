"""All bara settings parsed once into a frozen dataclass, testable without a crawl.

Every default lives here, once: each field names its setting in its metadata,
`SETTINGS` (setting -> default) is derived from the fields, and the add-on
writes that table. `BaraConfig.from_crawler` parses a crawler's settings once
and hands every component the same object.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from scrapy.settings import BaseSettings

from .instructions import SCROLL_PAUSE_MS, SCROLL_STEPS, Instructions
from .urls import DEFAULT_DENY, SCOPES, DenyPolicy, canonicalize, is_http_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

# spider argument -> setting it overrides
SPIDER_ARG_SETTINGS = {
    "max_depth": "DEPTH_LIMIT",
    "max_width": "BARA_MAX_WIDTH",
    "max_pages": "BARA_MAX_PAGES",
    "max_attempts": "BARA_MAX_ATTEMPTS",
}
# limits and the smallest value each accepts
LIMIT_MINIMUMS = {"max_depth": 0, "max_width": 0, "max_pages": 1, "max_attempts": 1}

RENDER_MODES = ("always", "auto", "never")
# `auto` by default: 1.66–1.76× the bare-browser floor with 4 tabs and 8 requests, the same pages and media, and
# no page served over HTTP different from its render on the 50-site bench (docs/speed.md, eleventh stop)
DEFAULT_RENDER = "auto"

UNSUPPORTED_SCHEME_HINT = "only http:// and https:// seeds are supported"


def browser_wanted(settings: BaseSettings) -> bool:
    """Whether the crawl may render pages (the add-on installs the browser, preflight checks it)."""
    mode = str(settings.get("BARA_RENDER") or DEFAULT_RENDER).lower()
    return settings.getbool("BARA_BROWSER_ENABLED", True) and mode != "never"


class ConfigError(ValueError):
    """A bad seed, limit or setting; the message is one line naming the value."""


def validate_seed(seed: object) -> str:
    """Return the seed stripped, or raise ConfigError naming the bad value.

    >>> validate_seed(" https://example.org/ ")
    'https://example.org/'
    >>> validate_seed("example.org")
    Traceback (most recent call last):
    ...
    bara_scrapy.config.ConfigError: invalid seed 'example.org': not an absolute URL (expected http(s)://host/...)
    """
    if not isinstance(seed, str) or not seed.strip():
        raise ConfigError(f"invalid seed {seed!r}: empty (pass -a seed=https://host/)")
    value = seed.strip()
    scheme = value.split(":", 1)[0].lower() if ":" in value else ""
    if scheme and scheme not in ("http", "https") and "/" not in scheme and "." not in scheme:
        raise ConfigError(f"invalid seed {value!r}: unsupported scheme {scheme!r}; {UNSUPPORTED_SCHEME_HINT}")
    if not is_http_url(value) or not value.lower().startswith(("http://", "https://")):
        raise ConfigError(f"invalid seed {value!r}: not an absolute URL (expected http(s)://host/...)")
    return value


def validate_limit(name: str, value: object) -> int:
    """Parse a spider-argument limit, or raise ConfigError naming it.

    >>> validate_limit("max_pages", "5")
    5
    >>> validate_limit("max_depth", "-1")
    Traceback (most recent call last):
    ...
    bara_scrapy.config.ConfigError: invalid max_depth '-1': must be an integer >= 0
    """
    minimum = LIMIT_MINIMUMS[name]
    text = str(value).strip()
    try:
        number = int(text)
    except ValueError:
        number = None
    if number is None or number < minimum or isinstance(value, bool):
        raise ConfigError(f"invalid {name} {value!r}: must be an integer >= {minimum}")
    return number


_UNSET: Any = object()


def setting(name: str, default: Any, *, minimum: float | None = None, setting_default: Any = _UNSET,
            secret: bool = False, scrapy: bool = False) -> Any:
    """A config field read from setting `name` (`setting_default` when the setting's own default differs).

    `scrapy=True`: a Scrapy setting the add-on sets itself (not in `SETTINGS`);
    `secret=True`: never in a repr or a comparison.
    """
    meta = {
        "setting": name, "minimum": minimum, "scrapy": scrapy,
        "setting_default": default if setting_default is _UNSET else setting_default,
    }
    return field(default=default, metadata=meta, repr=not secret, compare=not secret)


def _number(name: str, raw: Any, minimum: float | None, kind: type[int] | type[float]) -> Any:
    what = "an integer" if kind is int else "a number"
    bound = f" >= {minimum}" if minimum is not None else ""
    try:
        value = kind(raw)
    except (TypeError, ValueError):
        raise ConfigError(f"invalid setting {name}={raw!r}: must be {what}{bound}") from None
    if minimum is not None and value < minimum:
        raise ConfigError(f"invalid setting {name}={raw!r}: must be {what}{bound}")
    return value


def _parse(settings: BaseSettings, f: Any) -> Any:
    """One field's value from its setting, by the field's declared type."""
    name, default, kind = f.metadata["setting"], f.metadata["setting_default"], f.type
    raw = settings.get(name)
    if kind == "bool":
        try:
            return settings.getbool(name, default)
        except ValueError:
            raise ConfigError(f"invalid setting {name}={raw!r}: must be True or False") from None
    if kind in ("int", "float"):
        value = default if raw is None or raw == "" else raw
        return _number(name, value, f.metadata["minimum"], int if kind == "int" else float)
    if kind == "tuple[str, ...]":
        return tuple(settings.getlist(name, default))
    if kind == "str | None":
        return str(raw) if raw else None
    return str(raw) if raw is not None and raw != "" else default


def _build(cls: type[Any], settings: BaseSettings) -> Any:
    values = {}
    for f in fields(cls):
        if "setting" in f.metadata:
            values[f.name] = _parse(settings, f)
        elif f.default_factory is not MISSING and isinstance(f.default_factory, type):
            values[f.name] = _build(f.default_factory, settings)  # a nested config
    return cls(**values)


def _table(cls: type[Any], scrapy: bool = False) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for f in fields(cls):
        if "setting" in f.metadata:
            if f.metadata["scrapy"] == scrapy:
                table[f.metadata["setting"]] = f.metadata["setting_default"]
        elif f.default_factory is not MISSING and isinstance(f.default_factory, type):
            table.update(_table(f.default_factory, scrapy))
    return table


def api_key_from(settings: Any, environ: Mapping[str, str] | None = None) -> str | None:
    """BARA_LLM_API_KEY, else OPENAI_API_KEY from the environment; None when neither is set.

    >>> api_key_from({"BARA_LLM_API_KEY": " sk-1 "}, {}), api_key_from({}, {"OPENAI_API_KEY": ""})
    ('sk-1', None)
    """
    key = settings.get("BARA_LLM_API_KEY") if settings is not None else None
    if not key:
        key = (os.environ if environ is None else environ).get("OPENAI_API_KEY")
    return (str(key).strip() or None) if key else None


@dataclass(frozen=True)
class VerifyConfig:
    """The media verification pipeline."""

    enabled: bool = setting("BARA_VERIFY_MEDIA", True)
    timeout: float = setting("BARA_VERIFY_TIMEOUT", 15.0)  # seconds per media check
    concurrency: int = setting("BARA_VERIFY_CONCURRENCY", 8)  # checks at a time (at least 1)


@dataclass(frozen=True)
class LlmConfig:
    """The optional LLM client (`bara_scrapy.llm`); off while `model` is empty. The key is never in a repr."""

    model: str = setting("BARA_LLM_MODEL", "")
    base_url: str | None = setting("BARA_LLM_BASE_URL", None, setting_default="")
    timeout: float = setting("BARA_LLM_TIMEOUT", 60.0, minimum=1.0)  # per HTTP attempt
    max_retries: int = setting("BARA_LLM_MAX_RETRIES", 2, minimum=0)  # on 429 / 5xx / 408 / 409 / connection errors
    retry_after_cap: float = setting("BARA_LLM_RETRY_AFTER_MAX", 10.0, minimum=0)  # longer Retry-After: give up
    backoff: float = 0.5  # first backoff when no Retry-After; doubles, capped by retry_after_cap
    concurrency: int = setting("BARA_LLM_CONCURRENCY", 2, minimum=1)
    breaker_threshold: int = setting("BARA_LLM_BREAKER_FAILURES", 3, minimum=1)
    max_tokens: int = setting("BARA_LLM_MAX_TOKENS", 1024, minimum=16)  # per reply
    max_prompt_chars: int = setting("BARA_LLM_MAX_PROMPT_CHARS", 24_000, minimum=1000)  # page data (~6k tokens)
    api_key: str = setting("BARA_LLM_API_KEY", "", secret=True)  # else OPENAI_API_KEY from the environment

    def key(self, environ: Mapping[str, str] | None = None) -> str | None:
        """The API key (BARA_LLM_API_KEY, else OPENAI_API_KEY), None when neither is set."""
        return api_key_from({"BARA_LLM_API_KEY": self.api_key}, environ)


@dataclass(frozen=True)
class ReportingConfig:
    """Live progress, the HTML report and stored media."""

    progress_interval: float = setting("BARA_PROGRESS_INTERVAL", 10.0)  # seconds; <= 0: no progress lines
    report: str = setting("BARA_REPORT", "")  # path of the HTML report; empty: none
    store_media: bool = setting("BARA_STORE_MEDIA", False)  # download verified media into FILES_STORE
    store_max_bytes: int = setting("BARA_STORE_MAX_BYTES", 100 * 1024 * 1024)


@dataclass(frozen=True)
class FrontierConfig:
    """The shared Redis frontier; on when `url` is set."""

    url: str = setting("BARA_FRONTIER_URL", "")
    key: str = setting("BARA_FRONTIER_KEY", "")  # empty: derived from seed and limits
    lease: float = setting("BARA_FRONTIER_LEASE", 30.0)
    poll: float = setting("BARA_FRONTIER_POLL", 0.2)


@dataclass(frozen=True)
class ArchiveConfig:
    """The WARC/WACZ archive (`bara_scrapy.archive`); on when `warc` or `wacz` is set."""

    warc: str = setting("BARA_WARC", "")  # path of the WARC (.warc.gz); empty with BARA_WACZ: beside it
    wacz: str = setting("BARA_WACZ", "")  # path of the WACZ packed from the WARCs when the crawl closes
    max_bytes: int = setting("BARA_WARC_MAX_BYTES", 1024**3, minimum=1024)  # rotate to a new file past this
    media_max_bytes: int = setting("BARA_WARC_MEDIA_MAX_BYTES", 100 * 1024 * 1024, minimum=0)  # 0: no limit
    worker: str = setting("BARA_WARC_WORKER", "")  # in the file names; empty with BARA_FRONTIER_URL: host-pid

    @property
    def enabled(self) -> bool:
        return bool(self.warc or self.wacz)


# Parsed configs, one per crawler whose settings are frozen.
_PARSED: weakref.WeakKeyDictionary[Crawler, BaraConfig] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class BaraConfig:
    seed: str = setting("BARA_SEED", "")  # the crawl's one seed: the spider argument `seed` sets it
    max_depth: int = setting("DEPTH_LIMIT", 3, minimum=0)
    max_width: int = setting("BARA_MAX_WIDTH", 20, minimum=0)
    max_pages: int = setting("BARA_MAX_PAGES", 100, minimum=1)
    max_attempts: int = setting("BARA_MAX_ATTEMPTS", 3, minimum=1)
    scope: str = setting("BARA_SCOPE", "host")
    deny: tuple[str, ...] = setting("BARA_DENY", DEFAULT_DENY, setting_default=[])  # built-in list + the setting
    allow: tuple[str, ...] = setting("BARA_ALLOW", (), setting_default=[])
    browser_enabled: bool = setting("BARA_BROWSER_ENABLED", True)  # False: BARA_RENDER=never
    render: str = setting("BARA_RENDER", DEFAULT_RENDER)  # auto (render where it changes the result) | always | never
    render_probes: int = setting("BARA_RENDER_PROBES", 4, minimum=0)  # auto: equal pages before a pattern goes HTTP
    render_audit: float = setting("BARA_RENDER_AUDIT", 0.05, minimum=0.0)  # auto: share of HTTP pages also rendered
    browser_tabs: int = setting("BARA_BROWSER_TABS", 4, minimum=0)  # pages rendered at once; 0: CONCURRENT_REQUESTS
    scroll_max_steps: int = setting("BARA_SCROLL_MAX_STEPS", SCROLL_STEPS, minimum=0)
    scroll_pause: float = setting("BARA_SCROLL_PAUSE", SCROLL_PAUSE_MS / 1000, minimum=0.0)
    scroll_all: bool = setting("BARA_SCROLL_ALL", False)  # every tall page, not only where a scroll sets off something
    page_timeout: float = setting("BARA_PAGE_TIMEOUT", 30.0, minimum=1.0)
    navigation_timeout: float = setting("BARA_NAVIGATION_TIMEOUT", 15.0, minimum=1.0)
    page_reuse: int = setting("BARA_PAGE_REUSE", 50, minimum=0)  # pages per pooled tab; 0: a new tab per page
    page_reuse_after: int = setting("BARA_PAGE_REUSE_AFTER", 16, minimum=0)  # pages with new tabs before pooling
    driver_heap_mb: int = setting("BARA_DRIVER_HEAP_MB", 512, minimum=0)  # Playwright driver's V8 heap limit; 0: Node's
    block_offsite_subresources: bool = setting("BARA_BLOCK_OFFSITE_SUBRESOURCES", False)
    allow_private_networks: bool = setting("BARA_ALLOW_PRIVATE_NETWORKS", False)
    tls_verify: bool = setting("BARA_TLS_VERIFY", True)  # refuse invalid certificates: browser, HTTP, verification
    retry_after_max: float = setting("BARA_RETRY_AFTER_MAX", 30.0)  # longer Retry-After waits: RetryMiddleware's
    robots_obey: bool = setting("ROBOTSTXT_OBEY", True, scrapy=True)
    # PLAYWRIGHT_ABORT_REQUEST or PLAYWRIGHT_PROCESS_REQUEST_HEADERS set: the guard passes sub-requests it lets
    # through on to scrapy-playwright's request handler (else it continues them itself: one call less each)
    playwright_request_hooks: bool = False
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    llm: LlmConfig = field(default_factory=LlmConfig)
    reporting: ReportingConfig = field(default_factory=ReportingConfig)
    frontier: FrontierConfig = field(default_factory=FrontierConfig)
    archive: ArchiveConfig = field(default_factory=ArchiveConfig)

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> BaraConfig:
        config: BaraConfig = _build(cls, settings)
        scope = config.scope.lower()
        if scope not in SCOPES:
            raise ConfigError(f"invalid setting BARA_SCOPE={scope!r}: one of {', '.join(SCOPES)}")
        render = config.render.lower() if config.browser_enabled else "never"
        if render not in RENDER_MODES:
            raise ConfigError(f"invalid setting BARA_RENDER={config.render!r}: one of {', '.join(RENDER_MODES)}")
        if config.render_audit > 1:
            raise ConfigError(f"invalid setting BARA_RENDER_AUDIT={config.render_audit!r}: a share, 0 to 1")
        hooks = bool(settings.get("PLAYWRIGHT_ABORT_REQUEST")) or "PLAYWRIGHT_PROCESS_REQUEST_HEADERS" in settings
        return replace(config, scope=scope, deny=DEFAULT_DENY + config.deny, playwright_request_hooks=hooks,
                       render=render)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BaraConfig:
        """The crawler's config, parsed once its settings are final (frozen) and shared by every component."""
        config = _PARSED.get(crawler)
        if config is None:
            config = cls.from_settings(crawler.settings)
            if crawler.settings.frozen:
                _PARSED[crawler] = config
        return config

    @property
    def seed_url(self) -> str:
        """The seed as the frontier admits it (canonical); empty without a seed."""
        return canonicalize(self.seed) if self.seed else ""

    @property
    def deny_policy(self) -> DenyPolicy:
        return DenyPolicy(deny=self.deny, allow=self.allow)

    def first_instructions(self) -> Instructions:
        return Instructions(
            scroll_steps=self.scroll_max_steps,
            scroll_pause_ms=int(self.scroll_pause * 1000),
            scroll_all=self.scroll_all,
        )


# setting -> default, every bara setting: what the add-on writes (at priority "addon").
SETTINGS: dict[str, Any] = _table(BaraConfig)
# Scrapy settings a config field reads; the add-on sets them itself (checked by tests/test_config.py).
SCRAPY_SETTINGS: dict[str, Any] = _table(BaraConfig, scrapy=True)

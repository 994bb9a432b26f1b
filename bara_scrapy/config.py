"""All bara settings parsed once into a frozen dataclass, testable without a crawl."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scrapy.settings import BaseSettings

from .instructions import Instructions
from .urls import DEFAULT_DENY, SCOPES, DenyPolicy, is_http_url

# spider argument -> setting it overrides
SPIDER_ARG_SETTINGS = {
    "max_depth": "DEPTH_LIMIT",
    "max_width": "BARA_MAX_WIDTH",
    "max_pages": "BARA_MAX_PAGES",
    "max_attempts": "BARA_MAX_ATTEMPTS",
}
# limits and the smallest value each accepts
LIMIT_MINIMUMS = {"max_depth": 0, "max_width": 0, "max_pages": 1, "max_attempts": 1}

UNSUPPORTED_SCHEME_HINT = "only http:// and https:// seeds are supported"


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


def _number_setting(settings: BaseSettings, name: str, minimum: float, kind: type[int] | type[float]) -> Any:
    raw = settings.get(name, _DEFAULTS.get(name))
    what = "an integer" if kind is int else "a number"
    try:
        value = kind(raw)
    except (TypeError, ValueError):
        raise ConfigError(f"invalid setting {name}={raw!r}: must be {what} >= {minimum}") from None
    if value < minimum:
        raise ConfigError(f"invalid setting {name}={raw!r}: must be {what} >= {minimum}")
    return value


def _int_setting(settings: BaseSettings, name: str, minimum: int) -> int:
    value: int = _number_setting(settings, name, minimum, int)
    return value


def _float_setting(settings: BaseSettings, name: str, minimum: float) -> float:
    value: float = _number_setting(settings, name, minimum, float)
    return value


def _order(settings: BaseSettings) -> str:
    order = str(settings.get("BARA_ORDER", "bfs")).lower()
    if order not in ("bfs", "dfs"):
        raise ConfigError(f"invalid setting BARA_ORDER={order!r}: 'bfs' (default) or 'dfs' (ablation only)")
    return order


# Used when a setting is absent (components used without the add-on).
_DEFAULTS: dict[str, object] = {
    "BARA_MAX_WIDTH": 20, "BARA_MAX_PAGES": 100, "BARA_MAX_ATTEMPTS": 3, "BARA_SCROLL_MAX_STEPS": 12,
    "BARA_SCROLL_PAUSE": 0.25, "BARA_PAGE_TIMEOUT": 30.0, "BARA_NAVIGATION_TIMEOUT": 15.0,
    "BARA_LLM_TIMEOUT": 60.0,
}


@dataclass(frozen=True)
class BaraConfig:
    max_depth: int = 3
    max_width: int = 20
    max_pages: int = 100
    max_attempts: int = 3
    scope: str = "host"
    deny: tuple[str, ...] = DEFAULT_DENY
    allow: tuple[str, ...] = ()
    browser_enabled: bool = True
    scroll_enabled: bool = True
    order: str = "bfs"
    scroll_max_steps: int = 12
    scroll_pause: float = 0.25
    page_timeout: float = 30.0
    navigation_timeout: float = 15.0
    verify_media: bool = True
    block_offsite_subresources: bool = False
    allow_private_networks: bool = False
    robots_obey: bool = True
    llm_model: str = ""
    llm_base_url: str | None = None
    llm_timeout: float = 60.0

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> BaraConfig:
        scope = str(settings.get("BARA_SCOPE", "host")).lower()
        if scope not in SCOPES:
            raise ConfigError(f"invalid setting BARA_SCOPE={scope!r}: one of {', '.join(SCOPES)}")
        return cls(
            max_depth=_int_setting(settings, "DEPTH_LIMIT", 0),
            max_width=_int_setting(settings, "BARA_MAX_WIDTH", 0),
            max_pages=_int_setting(settings, "BARA_MAX_PAGES", 1),
            max_attempts=_int_setting(settings, "BARA_MAX_ATTEMPTS", 1),
            scope=scope,
            deny=DEFAULT_DENY + tuple(settings.getlist("BARA_DENY")),
            allow=tuple(settings.getlist("BARA_ALLOW")),
            browser_enabled=settings.getbool("BARA_BROWSER_ENABLED", True),
            scroll_enabled=settings.getbool("BARA_SCROLL_ENABLED", True),
            order=_order(settings),
            scroll_max_steps=_int_setting(settings, "BARA_SCROLL_MAX_STEPS", 0),
            scroll_pause=_float_setting(settings, "BARA_SCROLL_PAUSE", 0.0),
            page_timeout=_float_setting(settings, "BARA_PAGE_TIMEOUT", 1.0),
            navigation_timeout=_float_setting(settings, "BARA_NAVIGATION_TIMEOUT", 1.0),
            verify_media=settings.getbool("BARA_VERIFY_MEDIA", True),
            block_offsite_subresources=settings.getbool("BARA_BLOCK_OFFSITE_SUBRESOURCES", False),
            allow_private_networks=settings.getbool("BARA_ALLOW_PRIVATE_NETWORKS", False),
            robots_obey=settings.getbool("ROBOTSTXT_OBEY", True),
            llm_model=str(settings.get("BARA_LLM_MODEL") or ""),
            llm_base_url=settings.get("BARA_LLM_BASE_URL") or None,
            llm_timeout=_float_setting(settings, "BARA_LLM_TIMEOUT", 1.0),
        )

    @property
    def deny_policy(self) -> DenyPolicy:
        return DenyPolicy(deny=self.deny, allow=self.allow)

    def first_instructions(self) -> Instructions:
        return Instructions(
            scroll_steps=self.scroll_max_steps if self.scroll_enabled else 0,
            scroll_pause_ms=int(self.scroll_pause * 1000),
        )

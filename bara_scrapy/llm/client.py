"""A small, bounded async client for an OpenAI-compatible chat-completions API.

What the `openai` SDK leaves to us (RELIABILITY.md section 8): its default
timeout is 600 s and it retries silently. Here every limit is explicit:

* the SDK gets `timeout=` and `max_retries=0`; our loop does the retries, so
  each one is bounded, counted and visible to the circuit breaker;
* per HTTP attempt an overall deadline (`timeout` + a small margin) also
  catches servers that drip bytes;
* 401/403: no retry, one warning, the LLM is off for the rest of the crawl;
* 429/503 honour `Retry-After` up to `retry_after_cap`, beyond that give up;
  5xx, 408, 409 and connection errors: `max_retries` retries with backoff;
* timeouts are not retried (a hung server would otherwise cost pages minutes);
* JSON mode (`response_format=json_object`); switched off for good when the
  server rejects it;
* the reply is validated with pydantic; one repair turn on malformed JSON,
  schema mismatch, truncation (`finish_reason=length`) or empty content;
* at most `concurrency` conversations at a time; after `breaker_threshold`
  consecutive failures the breaker opens and no further request is sent.

The API key is handed to the SDK and otherwise only used to redact text we
log or raise: it never appears in logs, exceptions, items or reprs.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import math
import os
import re
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import openai
from pydantic import BaseModel, ValidationError

from ..config import ConfigError

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
Message = dict[str, str]

# Failure reasons (`LlmError.reason`), also the suffix of the fallback stats.
REASONS = (
    "llm_off",
    "llm_auth",
    "llm_circuit_open",
    "llm_timeout",
    "llm_unavailable",
    "llm_rate_limited",
    "llm_server_error",
    "llm_bad_request",
    "llm_context_length",
    "llm_bad_response",
    "llm_invalid_output",
    "llm_refusal",
)
# Failures that say nothing about the service, only about one page: they do not trip the breaker.
PAGE_REASONS = frozenset({"llm_refusal", "llm_context_length"})
_CONTEXT_PHRASES = ("context_length", "context length", "maximum context", "too many tokens", "too long")
TIMEOUT_MARGIN = 0.5  # our deadline per HTTP attempt = timeout + this (the SDK's own timeout fires first)
MAX_REPAIR_TOKENS = 4096
MAX_DETAIL_CHARS = 160

_KEY_LIKE = re.compile(r"\b((?:sk|rk|pk|sess)-)[A-Za-z0-9_\-*]{4,}")
_BEARER = re.compile(r"(?i)\b(bearer)\s+\S+")


class LlmError(Exception):
    """An LLM call that produced no usable answer; `reason` is one of `REASONS`."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class InvalidOutput(ValueError):
    """The model answered, but not with the JSON object we asked for."""


def redact(text: str, secret: str | None = None) -> str:
    """`text` without the API key, anything shaped like one, or bearer tokens.

    >>> redact("Incorrect API key provided: sk-proj-abc123XYZ789. Bearer sk-1")
    'Incorrect API key provided: sk-***. Bearer ***'
    >>> redact("key=hunter2hunter2", "hunter2hunter2")
    'key=***'
    """
    if secret:
        text = text.replace(secret, "***")
    text = _BEARER.sub(r"\1 ***", text)
    return _KEY_LIKE.sub(r"\1***", text)


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms` / `retry-after` (seconds or HTTP date), None if absent.

    >>> parse_retry_after({"retry-after": "2"})
    2.0
    >>> parse_retry_after({"retry-after-ms": "250"})
    0.25
    >>> parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0)
    10.0
    >>> parse_retry_after({}) is None
    True
    """
    lower = {k.lower(): v for k, v in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = lower.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / divisor
        except ValueError:
            parsed = email.utils.parsedate_tz(value)
            if parsed is None:
                continue
            seconds = email.utils.mktime_tz(parsed) - (time.time() if now is None else now)
        return max(seconds, 0.0) if math.isfinite(seconds) else None
    return None


def parse_json_reply(content: str, finish_reason: str | None, schema: type[M]) -> M:
    """The reply as `schema`, or InvalidOutput saying why (code fences and prose around the object tolerated).

    >>> class A(BaseModel):
    ...     ids: list[str]
    >>> parse_json_reply('```json\\n{"ids": ["T1"]}\\n```', "stop", A).ids
    ['T1']
    >>> parse_json_reply('{"ids": ["T1", "T', "length", A)
    Traceback (most recent call last):
    ...
    bara_scrapy.llm.client.InvalidOutput: truncated (finish_reason=length)
    """
    text = (content or "").strip()
    if not text:
        raise InvalidOutput("empty reply")
    start, end = text.find("{"), text.rfind("}")
    try:
        if start < 0 or end < start:
            raise ValueError("no JSON object")
        data = json.loads(text[start : end + 1])
    except ValueError:
        raise InvalidOutput("truncated (finish_reason=length)" if finish_reason == "length" else "not JSON") from None
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        fields = sorted({".".join(str(p) for p in e["loc"]) or "(root)" for e in exc.errors()})
        raise InvalidOutput(f"schema mismatch at {', '.join(fields[:5])}") from None


def repair_message(why: str, hint: str) -> Message:
    """The one follow-up turn asking for a valid object again (says what was wrong, never quotes page text)."""
    ask = "shorter: ids only, no explanations" if why.startswith("truncated") else "valid"
    return {
        "role": "user",
        "content": f"Your previous reply was unusable ({why}). Reply again with ONLY a {ask} "
        f"JSON object of this form: {hint}",
    }


@dataclass(frozen=True)
class LlmSettings:
    """Everything the client needs except the key (which is not kept in any repr-able place)."""

    model: str
    base_url: str | None = None
    timeout: float = 60.0  # BARA_LLM_TIMEOUT: per HTTP attempt
    max_retries: int = 2  # BARA_LLM_MAX_RETRIES: on 429 / 5xx / 408 / 409 / connection errors
    retry_after_cap: float = 10.0  # BARA_LLM_RETRY_AFTER_MAX: longer Retry-After -> give up
    backoff: float = 0.5  # first backoff when no Retry-After; doubles, capped by retry_after_cap
    concurrency: int = 2  # BARA_LLM_CONCURRENCY
    breaker_threshold: int = 3  # BARA_LLM_BREAKER_FAILURES
    max_tokens: int = 1024  # BARA_LLM_MAX_TOKENS: per reply
    max_prompt_chars: int = 24_000  # BARA_LLM_MAX_PROMPT_CHARS: page data per request (~6k tokens)

    @classmethod
    def from_settings(cls, settings: Any, model: str, base_url: str | None, timeout: float) -> LlmSettings:
        """Read the BARA_LLM_* tuning settings (model/base URL/timeout come from `BaraConfig`)."""

        def num(name: str, default: float, minimum: float) -> float:
            raw = settings.get(name) if settings is not None else None
            try:
                value = float(default if raw is None or raw == "" else raw)
            except (TypeError, ValueError):
                raise ConfigError(f"invalid setting {name}={raw!r}: must be a number >= {minimum}") from None
            if value < minimum:
                raise ConfigError(f"invalid setting {name}={raw!r}: must be a number >= {minimum}")
            return value

        return cls(
            model=model,
            base_url=base_url,
            timeout=timeout,
            max_retries=int(num("BARA_LLM_MAX_RETRIES", 2, 0)),
            retry_after_cap=num("BARA_LLM_RETRY_AFTER_MAX", 10.0, 0),
            concurrency=int(num("BARA_LLM_CONCURRENCY", 2, 1)),
            breaker_threshold=int(num("BARA_LLM_BREAKER_FAILURES", 3, 1)),
            max_tokens=int(num("BARA_LLM_MAX_TOKENS", 1024, 16)),
            max_prompt_chars=int(num("BARA_LLM_MAX_PROMPT_CHARS", 24_000, 1000)),
        )


def api_key_from(settings: Any, environ: Mapping[str, str] | None = None) -> str | None:
    """BARA_LLM_API_KEY, else OPENAI_API_KEY from the environment; None when neither is set."""
    key = settings.get("BARA_LLM_API_KEY") if settings is not None else None
    if not key:
        key = (os.environ if environ is None else environ).get("OPENAI_API_KEY")
    return (str(key).strip() or None) if key else None


class LlmClient:
    """JSON conversations with one model; see the module docstring for the limits."""

    def __init__(self, settings: LlmSettings, api_key: str, *, sdk: openai.AsyncOpenAI | None = None) -> None:
        self.settings = settings
        self.counters: Counter[str] = Counter()
        self.rejected_params: set[str] = set()  # request parameters the server refused (dropped from then on)
        self.disabled_reason: str | None = None  # set when the breaker opened (or the key was refused)
        self._secret = api_key
        self._sem = asyncio.Semaphore(settings.concurrency)
        self._consecutive_failures = 0
        self._sdk = sdk or openai.AsyncOpenAI(
            api_key=api_key, base_url=settings.base_url, timeout=settings.timeout, max_retries=0
        )

    def __repr__(self) -> str:
        state = f"off ({self.disabled_reason})" if self.disabled_reason else "on"
        return f"<LlmClient model={self.settings.model!r} base_url={self.settings.base_url!r} {state}>"

    @property
    def model(self) -> str:
        return self.settings.model

    @property
    def available(self) -> bool:
        return self.disabled_reason is None

    async def aclose(self) -> None:
        await self._sdk.close()

    async def complete_json(
        self, messages: Sequence[Message], schema: type[M], *, hint: str, max_tokens: int | None = None
    ) -> M:
        """One validated answer (with at most one repair turn), or LlmError."""
        if not self.available:
            self.counters["skipped_breaker_open"] += 1
            raise LlmError("llm_circuit_open", self.disabled_reason or "")
        async with self._sem:
            if not self.available:  # opened while this call waited for a slot
                self.counters["skipped_breaker_open"] += 1
                raise LlmError("llm_circuit_open", self.disabled_reason or "")
            try:
                result = await self._converse(list(messages), schema, hint, max_tokens or self.settings.max_tokens)
            except LlmError as exc:
                self._failed(exc)
                raise
        self._consecutive_failures = 0
        self.counters["ok"] += 1
        return result

    async def _converse(self, messages: list[Message], schema: type[M], hint: str, max_tokens: int) -> M:
        content, finish = await self._chat(messages, max_tokens)
        try:
            return parse_json_reply(content, finish, schema)
        except InvalidOutput as exc:
            why = str(exc)
        self.counters["repairs"] += 1
        turn = [*messages]
        if content.strip():
            turn.append({"role": "assistant", "content": content[:1000]})
        turn.append(repair_message(why, hint))
        if why.startswith("truncated"):
            max_tokens = min(max_tokens * 2, MAX_REPAIR_TOKENS)
        content, finish = await self._chat(turn, max_tokens)
        try:
            return parse_json_reply(content, finish, schema)
        except InvalidOutput as exc:
            raise LlmError("llm_invalid_output", f"{why}; after repair: {exc}") from None

    async def _chat(self, messages: list[Message], max_tokens: int) -> tuple[str, str | None]:
        """One answer's (content, finish_reason), retrying within the limits; raises LlmError."""
        retries = 0
        while True:
            kwargs: dict[str, Any] = {"model": self.settings.model, "messages": messages, self._tokens: max_tokens}
            if "temperature" not in self.rejected_params:
                kwargs["temperature"] = 0
            if self.json_mode:
                kwargs["response_format"] = {"type": "json_object"}
            self.counters["requests"] += 1
            try:
                create = self._sdk.chat.completions.create(**kwargs)
                response = await asyncio.wait_for(create, self.settings.timeout + TIMEOUT_MARGIN)
            except (TimeoutError, openai.APITimeoutError):
                raise LlmError("llm_timeout", f"no answer within {self.settings.timeout:g} s") from None
            except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
                raise LlmError("llm_auth", self._describe(exc)) from None
            except openai.APIStatusError as exc:
                delay = self._retry_delay(exc, retries)
                if delay is None and self._drop_rejected_param(exc):
                    continue  # at most once per parameter: bounded
                if delay is None:
                    raise LlmError(_status_reason(exc), self._describe(exc)) from None
                retries += 1
                self.counters["retries"] += 1
                await asyncio.sleep(delay)
                continue
            except openai.APIConnectionError as exc:
                if retries >= self.settings.max_retries:
                    raise LlmError("llm_unavailable", self._describe(exc)) from None
                retries += 1
                self.counters["retries"] += 1
                await asyncio.sleep(self._backoff(retries - 1))
                continue
            except (openai.OpenAIError, ValueError) as exc:  # e.g. a 200 whose body is not JSON
                raise LlmError("llm_bad_response", type(exc).__name__) from None
            return _content_of(response)

    @property
    def json_mode(self) -> bool:
        return "response_format" not in self.rejected_params

    @property
    def _tokens(self) -> str:
        return "max_completion_tokens" if "max_tokens" in self.rejected_params else "max_tokens"

    def _drop_rejected_param(self, exc: openai.APIStatusError) -> bool:
        """Adapt once to a server that rejects JSON mode, `max_tokens` or `temperature`; False if not that."""
        rejected = rejected_param(exc.status_code, _error_text(exc))
        if rejected is None or rejected in self.rejected_params:
            return False
        self.rejected_params.add(rejected)
        self.counters[f"rejected_param/{rejected}"] += 1
        logger.info("The LLM server rejected %r; retrying without it", rejected)
        return True

    def _retry_delay(self, exc: openai.APIStatusError, retries: int) -> float | None:
        """Seconds to wait before retrying this status, or None when it must not be retried."""
        status = exc.status_code
        if not (status in (408, 409, 429) or status >= 500) or retries >= self.settings.max_retries:
            return None
        after = parse_retry_after(exc.response.headers)
        if after is None:
            return self._backoff(retries)
        return after if after <= self.settings.retry_after_cap else None

    def _backoff(self, retries: int) -> float:
        return float(min(self.settings.backoff * 2**retries, self.settings.retry_after_cap))

    def _describe(self, exc: openai.OpenAIError) -> str:
        """A short, redacted description (status code, server's message) for logs and reasons."""
        status = getattr(exc, "status_code", None)
        message = re.sub(r"^Error code: \d+ - ", "", getattr(exc, "message", "") or type(exc).__name__)
        text = f"HTTP {status}: {message}" if status else str(message)
        return redact(text, self._secret)[:MAX_DETAIL_CHARS]

    def _failed(self, exc: LlmError) -> None:
        self.counters[f"failures/{exc.reason}"] += 1
        if exc.reason == "llm_auth":
            self._open(f"the API refused the key ({exc.detail.split(':')[0]})")
            return
        if exc.reason in PAGE_REASONS or exc.reason == "llm_circuit_open":
            return
        self._consecutive_failures += 1
        if self._consecutive_failures >= self.settings.breaker_threshold:
            self._open(f"{self._consecutive_failures} consecutive failures, last {exc.reason}")

    def _open(self, why: str) -> None:
        if self.disabled_reason is not None:
            return
        self.disabled_reason = why
        self.counters["breaker_open"] += 1
        logger.warning(
            "LLM %r switched off for the rest of the crawl: %s. Pages keep the DOM extraction.",
            self.settings.model,
            why,
        )


def _status_reason(exc: openai.APIStatusError) -> str:
    status = exc.status_code
    if status == 429:
        return "llm_rate_limited"
    if status >= 500:
        return "llm_server_error"
    if _is_context_length(exc):
        return "llm_context_length"
    if status in (400, 413, 422):
        return "llm_bad_request"
    return "llm_unavailable"  # 404 unknown model, 408/409 after retries, ...


def _error_text(exc: openai.APIStatusError) -> str:
    return f"{getattr(exc, 'code', '') or ''} {getattr(exc, 'param', '') or ''} {exc.message}".lower()


def _is_context_length(exc: openai.APIStatusError) -> bool:
    return exc.status_code in (400, 413) and any(p in _error_text(exc) for p in _CONTEXT_PHRASES)


def rejected_param(status: int, text: str) -> str | None:
    """Which request parameter a 400/422 error rejects, among those we can do without.

    >>> rejected_param(400, "unsupported parameter: 'max_tokens' is not supported, use 'max_completion_tokens'")
    'max_tokens'
    >>> rejected_param(400, "response_format json_object is not supported by this model")
    'response_format'
    >>> rejected_param(400, "unsupported value: 'temperature' does not support 0 with this model")
    'temperature'
    >>> rejected_param(400, "this model's maximum context length is 8192 tokens") is None
    True
    """
    if status not in (400, 422) or any(p in text for p in _CONTEXT_PHRASES):
        return None
    if "max_tokens" in text:
        return "max_tokens"
    if "temperature" in text:
        return "temperature"
    if "response_format" in text or "json" in text:
        return "response_format"
    return None


def _content_of(response: object) -> tuple[str, str | None]:
    """(content, finish_reason) of the first choice; a tool call's arguments count as content."""
    choices = getattr(response, "choices", None)
    if not choices:
        raise LlmError("llm_bad_response", "no choices in the reply")
    choice = choices[0]
    message = getattr(choice, "message", None)
    if message is None:
        raise LlmError("llm_bad_response", "no message in the reply")
    content = getattr(message, "content", None) or ""
    if not content:
        for call in getattr(message, "tool_calls", None) or []:
            arguments = getattr(getattr(call, "function", None), "arguments", None)
            if isinstance(arguments, str) and arguments.strip():
                content = arguments
                break
    if not content and getattr(message, "refusal", None):
        raise LlmError("llm_refusal", "the model refused")
    return str(content), getattr(choice, "finish_reason", None)

"""A small, bounded async client for an OpenAI-compatible chat-completions API.

What the `openai` SDK leaves to us (docs/faults.md, group 8): its default
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
import logging
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import openai

from ..config import LlmConfig, api_key_from
from ..http_utils import parse_retry_after
from .errors import (
    CONTEXT_PHRASES,
    MAX_DETAIL_CHARS,
    PAGE_REASONS,
    REASONS,
    InvalidOutput,
    LlmError,
    M,
    Message,
    content_of,
    parse_json_reply,
    redact,
    rejected_param,
    repair_message,
)

__all__ = [
    "PAGE_REASONS", "REASONS", "InvalidOutput", "LlmClient", "LlmError", "LlmSettings", "api_key_from",
    "parse_json_reply", "parse_retry_after", "redact", "rejected_param", "repair_message",
]

logger = logging.getLogger(__name__)


LlmSettings = LlmConfig  # the client's settings are the config's `llm` part (BARA_LLM_*)
TIMEOUT_MARGIN = 0.5  # our deadline per HTTP attempt = timeout + this (the SDK's own timeout fires first)
MAX_REPAIR_TOKENS = 4096


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
            return content_of(response)

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
    return exc.status_code in (400, 413) and any(p in _error_text(exc) for p in CONTEXT_PHRASES)

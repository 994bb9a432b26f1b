"""What can go wrong in an LLM conversation, and the pure decisions about it (no `openai` import).

Failure reasons, the redaction of keys from anything we log or raise, the
validation of a JSON reply and the one repair turn, and which request
parameter a server rejected.
"""

from __future__ import annotations

import json
import re
from typing import TypeVar

from pydantic import BaseModel, ValidationError

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
CONTEXT_PHRASES = ("context_length", "context length", "maximum context", "too many tokens", "too long")
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


def parse_json_reply(content: str, finish_reason: str | None, schema: type[M]) -> M:
    """The reply as `schema`, or InvalidOutput saying why (code fences and prose around the object tolerated).

    >>> class A(BaseModel):
    ...     ids: list[str]
    >>> parse_json_reply('```json\\n{"ids": ["T1"]}\\n```', "stop", A).ids
    ['T1']
    >>> parse_json_reply('{"ids": ["T1", "T', "length", A)
    Traceback (most recent call last):
    ...
    bara_scrapy.llm.errors.InvalidOutput: truncated (finish_reason=length)
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
    if status not in (400, 422) or any(p in text for p in CONTEXT_PHRASES):
        return None
    if "max_tokens" in text:
        return "max_tokens"
    if "temperature" in text:
        return "temperature"
    if "response_format" in text or "json" in text:
        return "response_format"
    return None


def content_of(response: object) -> tuple[str, str | None]:
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

"""LlmClient against a real local OpenAI-compatible server (FakeOpenAI): limits, faults, secrecy."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel

from bara_scrapy.llm.client import LlmClient, LlmError, LlmSettings, api_key_from, parse_retry_after
from tests.fake_openai import FakeOpenAI, Reply

from ..aio import aio
from ..llm_support import make_client

KEY = "sk-test-DoNotLog-8f3a9c2e71b4"
HINT = '{"ids": ["T1"]}'
MESSAGES = [{"role": "system", "content": "Reply in JSON."}, {"role": "user", "content": "Pick ids."}]
_F = TypeVar("_F", bound=Callable[..., Awaitable[Any]])




class Ids(BaseModel):
    ids: list[str]





async def ask(client: LlmClient) -> Ids:
    return await client.complete_json(MESSAGES, Ids, hint=HINT)


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@aio
async def test_answer_is_validated_and_request_is_json_mode_with_bearer_key(fake: FakeOpenAI) -> None:
    fake.script(Reply.json({"ids": ["T1", "T2"]}))
    client = make_client(fake, KEY)
    try:
        assert (await ask(client)).ids == ["T1", "T2"]
    finally:
        await client.aclose()
    (req,) = fake.requests
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == f"Bearer {KEY}"
    assert req.response_format == {"type": "json_object"}
    assert req.body is not None and req.body["model"] == "test-model" and req.body["temperature"] == 0
    assert client.counters["requests"] == 1 and client.counters["ok"] == 1


@aio
async def test_401_fails_fast_once_and_switches_the_llm_off(fake: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake.script(Reply.status_error(401, f"Incorrect API key provided: {KEY}"))
    client = make_client(fake, KEY, max_retries=3)
    try:
        with pytest.raises(LlmError) as first:
            await ask(client)
        with pytest.raises(LlmError) as second:
            await ask(client)
    finally:
        await client.aclose()
    assert first.value.reason == "llm_auth" and second.value.reason == "llm_circuit_open"
    assert fake.request_count == 1  # no retry, and nothing after the refusal
    assert len(warnings_of(caplog)) == 1 and "refused the key" in warnings_of(caplog)[0]
    assert KEY not in caplog.text and KEY not in str(first.value) and KEY not in repr(client)
    assert first.value.detail == "HTTP 401: Incorrect API key provided: ***"


@aio
async def test_403_is_treated_like_401(fake: FakeOpenAI) -> None:
    fake.script(Reply.status_error(403, "project has no access"))
    client = make_client(fake, KEY)
    try:
        with pytest.raises(LlmError, match="llm_auth"):
            await ask(client)
    finally:
        await client.aclose()
    assert fake.request_count == 1 and not client.available


@aio
async def test_429_retry_after_is_honoured_then_success(fake: FakeOpenAI) -> None:
    fake.script(Reply.status_error(429, "slow down", retry_after="0.3"), Reply.json({"ids": ["T3"]}))
    client = make_client(fake, KEY)
    try:
        started = time.monotonic()
        result = await ask(client)
        elapsed = time.monotonic() - started
    finally:
        await client.aclose()
    assert result.ids == ["T3"]
    assert fake.request_count == 2 and client.counters["retries"] == 1
    assert 0.3 <= elapsed < 3.0


@aio
async def test_429_with_retry_after_beyond_the_cap_gives_up_at_once(fake: FakeOpenAI) -> None:
    fake.script(Reply.status_error(429, "quota", retry_after="3600"))
    client = make_client(fake, KEY, retry_after_cap=2.0)
    try:
        started = time.monotonic()
        with pytest.raises(LlmError, match="llm_rate_limited"):
            await ask(client)
        assert time.monotonic() - started < 2.0
    finally:
        await client.aclose()
    assert fake.request_count == 1


@aio
async def test_500_is_retried_within_the_bound_then_fails(fake: FakeOpenAI) -> None:
    fake.script(Reply.status_error(500, "boom"), Reply.status_error(500, "boom"), Reply.json({"ids": []}))
    client = make_client(fake, KEY, max_retries=1)
    try:
        with pytest.raises(LlmError, match="llm_server_error"):
            await ask(client)
    finally:
        await client.aclose()
    assert fake.request_count == 2  # first try + 1 retry; the scripted success is never reached


@aio
async def test_503_then_success_within_retries(fake: FakeOpenAI) -> None:
    fake.script(Reply.status_error(503, "busy"), Reply.json({"ids": ["T1"]}))
    client = make_client(fake, KEY, max_retries=2)
    try:
        assert (await ask(client)).ids == ["T1"]
    finally:
        await client.aclose()
    assert fake.request_count == 2


@aio
async def test_hung_server_hits_our_timeout_without_retry(fake: FakeOpenAI) -> None:
    gate = threading.Event()
    fake.script(Reply.hang(gate))
    client = make_client(fake, KEY, timeout=1.0, max_retries=2)
    try:
        started = time.monotonic()
        with pytest.raises(LlmError, match="llm_timeout"):
            await ask(client)
        elapsed = time.monotonic() - started
    finally:
        gate.set()
        await client.aclose()
    assert 0.9 <= elapsed < 1.0 + 0.5 + 1.0  # timeout + our margin + slack
    assert fake.request_count == 1


@aio
async def test_malformed_json_gets_one_repair_then_fails(fake: FakeOpenAI) -> None:
    fake.script(Reply.text("Sure! Here are the ids: T1, T2"), Reply.text("{ids: T1"))
    client = make_client(fake, KEY)
    try:
        with pytest.raises(LlmError) as err:
            await ask(client)
    finally:
        await client.aclose()
    assert err.value.reason == "llm_invalid_output"
    assert fake.request_count == 2 and client.counters["repairs"] == 1
    repair = fake.requests[1].messages
    assert repair[:2] == MESSAGES and repair[2]["role"] == "assistant"
    assert "not JSON" in repair[-1]["content"] and HINT in repair[-1]["content"]


@aio
async def test_schema_mismatch_then_repaired(fake: FakeOpenAI) -> None:
    fake.script(Reply.json({"ids": "T1"}), Reply.text('```json\n{"ids": ["T1"]}\n```'))
    client = make_client(fake, KEY)
    try:
        assert (await ask(client)).ids == ["T1"]
    finally:
        await client.aclose()
    assert "schema mismatch at ids" in fake.requests[1].messages[-1]["content"]


@aio
async def test_truncated_reply_is_repaired_with_a_larger_token_budget(fake: FakeOpenAI) -> None:
    fake.script(Reply.truncated('{"ids": ["T1", "T'), Reply.json({"ids": ["T1"]}))
    client = make_client(fake, KEY, max_tokens=100)
    try:
        assert (await ask(client)).ids == ["T1"]
    finally:
        await client.aclose()
    first, second = (r.body or {} for r in fake.requests)
    assert first["max_tokens"] == 100 and second["max_tokens"] == 200
    assert "truncated" in second["messages"][-1]["content"]


@aio
async def test_empty_content_refusal_and_tool_call_content(fake: FakeOpenAI) -> None:
    fake.script(Reply.empty(), Reply.empty(), Reply.refused(), Reply.tool_call('{"ids": ["T9"]}'))
    client = make_client(fake, KEY)
    try:
        with pytest.raises(LlmError, match="llm_invalid_output"):
            await ask(client)  # empty twice (original + repair)
        with pytest.raises(LlmError, match="llm_refusal"):
            await ask(client)  # a refusal is not repaired
        assert (await ask(client)).ids == ["T9"]
    finally:
        await client.aclose()
    assert fake.request_count == 4


@aio
async def test_malformed_http_body_is_a_bad_response(fake: FakeOpenAI) -> None:
    fake.script(
        Reply.malformed(),
        Reply.malformed(b"<html>proxy error</html>", "text/html"),
        Reply.malformed(b'{"object": "chat.completion"}'),
    )
    client = make_client(fake, KEY, breaker_threshold=10)
    try:
        for _ in range(3):
            with pytest.raises(LlmError, match="llm_bad_response"):
                await ask(client)
    finally:
        await client.aclose()
    assert fake.request_count == 3


@aio
async def test_json_mode_rejection_falls_back_to_prompt_only_json(fake: FakeOpenAI) -> None:
    fake.script(
        Reply.status_error(400, "response_format json_object is not supported", param="response_format"),
        Reply.json({"ids": ["T1"]}),
        Reply.json({"ids": ["T2"]}),
    )
    client = make_client(fake, KEY, max_retries=0)
    try:
        assert (await ask(client)).ids == ["T1"]
        assert (await ask(client)).ids == ["T2"]
    finally:
        await client.aclose()
    formats = [r.response_format for r in fake.requests]
    assert formats == [{"type": "json_object"}, None, None]
    assert client.counters["rejected_param/response_format"] == 1 and not client.json_mode


@aio
async def test_newer_models_rejecting_max_tokens_and_temperature(fake: FakeOpenAI) -> None:
    fake.script(
        Reply.status_error(
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead.",
            param="max_tokens",
        ),
        Reply.status_error(
            400, "Unsupported value: 'temperature' does not support 0 with this model.", param="temperature"
        ),
        Reply.json({"ids": ["T1"]}),
        Reply.json({"ids": ["T2"]}),
    )
    client = make_client(fake, KEY, max_retries=0, max_tokens=300)
    try:
        assert (await ask(client)).ids == ["T1"]
        assert (await ask(client)).ids == ["T2"]
    finally:
        await client.aclose()
    bodies = [r.body or {} for r in fake.requests]
    assert "max_tokens" in bodies[0] and "temperature" in bodies[0]
    assert bodies[1]["max_completion_tokens"] == 300 and "max_tokens" not in bodies[1]
    assert all("temperature" not in b and b["response_format"] == {"type": "json_object"} for b in bodies[2:])


@aio
async def test_a_400_we_cannot_adapt_to_is_not_retried(fake: FakeOpenAI) -> None:
    fake.script(Reply.status_error(400, "Invalid 'messages[1].content': string too big", param="messages"))
    client = make_client(fake, KEY, max_retries=3)
    try:
        with pytest.raises(LlmError, match="llm_bad_request"):
            await ask(client)
    finally:
        await client.aclose()
    assert fake.request_count == 1


@aio
async def test_breaker_opens_after_k_consecutive_failures(fake: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    fake.default = Reply.status_error(500, "down")
    client = make_client(fake, KEY, max_retries=0, breaker_threshold=3)
    reasons = []
    try:
        for _ in range(6):
            with pytest.raises(LlmError) as err:
                await ask(client)
            reasons.append(err.value.reason)
    finally:
        await client.aclose()
    assert reasons == ["llm_server_error"] * 3 + ["llm_circuit_open"] * 3
    assert fake.request_count == 3  # nothing reaches the server once the breaker is open
    assert len(warnings_of(caplog)) == 1 and "3 consecutive failures" in warnings_of(caplog)[0]


@aio
async def test_success_resets_the_failure_streak(fake: FakeOpenAI) -> None:
    fake.script(
        Reply.status_error(500, "x"),
        Reply.status_error(500, "x"),
        Reply.json({"ids": []}),
        Reply.status_error(500, "x"),
        Reply.status_error(500, "x"),
        Reply.json({"ids": []}),
    )
    client = make_client(fake, KEY, max_retries=0, breaker_threshold=3)
    try:
        for expected in ("fail", "fail", "ok", "fail", "fail", "ok"):
            if expected == "ok":
                await ask(client)
            else:
                with pytest.raises(LlmError):
                    await ask(client)
    finally:
        await client.aclose()
    assert client.available


@aio
async def test_concurrency_cap_is_honoured(fake: FakeOpenAI) -> None:
    gate = threading.Event()
    fake.default = lambda req: Reply.hang(gate, Reply.json({"ids": ["T1"]}))
    client = make_client(fake, KEY, concurrency=2)
    try:
        tasks = [asyncio.ensure_future(ask(client)) for _ in range(5)]
        arrived = await asyncio.to_thread(fake.wait_for, lambda f: f.request_count >= 2, 10.0)
        assert arrived
        # let every task run up to its first blocking point: the other three must wait on our semaphore
        for _ in range(50):
            await asyncio.sleep(0)
        gate.set()
        results = await asyncio.gather(*tasks)
    finally:
        gate.set()
        await client.aclose()
    assert [r.ids for r in results] == [["T1"]] * 5
    assert fake.request_count == 5 and fake.max_in_flight == 2


@aio
async def test_key_never_in_logs_errors_or_reprs(fake: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # the SDK's and httpx's debug logs included
    fake.script(
        Reply.json({"ids": ["T1"]}),
        Reply.status_error(500, f"upstream said Bearer {KEY}"),
        Reply.status_error(401, f"Incorrect API key provided: {KEY}"),
    )
    client = make_client(fake, KEY, max_retries=0)
    errors: list[LlmError] = []
    try:
        await ask(client)
        for _ in range(2):
            try:
                await ask(client)
            except LlmError as exc:
                errors.append(exc)
    finally:
        await client.aclose()
    assert [e.reason for e in errors] == ["llm_server_error", "llm_auth"]
    assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in fake.requests)
    assert KEY not in caplog.text
    assert all(KEY not in str(e) and KEY not in repr(e) for e in errors)
    assert KEY not in repr(client) and KEY not in repr(client.settings)


def test_retry_after_formats() -> None:
    assert parse_retry_after({"Retry-After": "1.5"}) == 1.5
    assert parse_retry_after({"Retry-After": "soon"}) is None
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412490.0) == 0.0


def test_api_key_sources() -> None:
    assert api_key_from({"BARA_LLM_API_KEY": "sk-setting"}, {"OPENAI_API_KEY": "sk-env"}) == "sk-setting"
    assert api_key_from({}, {"OPENAI_API_KEY": " sk-env "}) == "sk-env"
    assert api_key_from(None, {}) is None
    assert api_key_from({}, {"OPENAI_API_KEY": "  "}) is None


def test_settings_from_scrapy_settings() -> None:
    from scrapy.settings import Settings

    from bara_scrapy.config import BaraConfig

    s = BaraConfig.from_settings(
        Settings({"BARA_LLM_CONCURRENCY": "4", "BARA_LLM_BREAKER_FAILURES": 5, "BARA_LLM_TIMEOUT": 30})
    ).llm
    assert isinstance(s, LlmSettings)
    assert (s.concurrency, s.breaker_threshold, s.max_retries, s.timeout) == (4, 5, 2, 30.0)
    with pytest.raises(ValueError, match="BARA_LLM_CONCURRENCY"):
        BaraConfig.from_settings(Settings({"BARA_LLM_CONCURRENCY": 0}))


@aio
async def test_base_url_without_v1_prefix(fake: FakeOpenAI) -> None:
    fake.script(Reply.json({"ids": []}))
    settings = LlmSettings(model="m", base_url=fake.base_url.removesuffix("/v1"), timeout=5.0)
    client = LlmClient(settings, KEY)
    try:
        assert (await ask(client)).ids == []
    finally:
        await client.aclose()
    assert [r.path for r in fake.requests] == ["/chat/completions"]

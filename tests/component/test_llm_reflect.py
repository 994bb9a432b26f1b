"""LLM-proposed reflection rewrites: validated, clamped, grounded in reported handles, else rule-based."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bara_scrapy.instructions import Instructions
from bara_scrapy.llm.client import LlmClient, LlmSettings
from bara_scrapy.llm.reflect import RewriteResult, history_payload, llm_rewrite, llm_rewrite_result
from bara_scrapy.reflection import MAX_SCROLL_STEPS, MAX_SETTLE_MS, TEXT_SELECTOR, AttemptOutcome, next_instructions
from bara_scrapy.snapshot import Control, Markers
from tests.fake_openai import FakeOpenAI, Reply

from ..aio import aio
from ..llm_support import make_client

_F = TypeVar("_F", bound=Callable[..., Awaitable[Any]])
MORE = "main > button.load-more"
TAB = "#tabs > button:nth-of-type(2)"
PAGE_SECRET = "Breaking: otters found in the city fountain"





def history() -> list[AttemptOutcome]:
    """One attempt that left lazy media and two controls behind (and an error message with page text)."""
    markers = Markers(
        lazy_placeholders=3,
        controls=[
            Control(handle=MORE, role="load_more"),
            Control(handle=TAB, role="tab"),
            Control(handle='a[title="x"]', role="tab"),
        ],
    )
    return [
        AttemptOutcome(
            instructions=Instructions(), text_chars=900, images=1, markers=markers, error_message=PAGE_SECRET
        )
    ]


def rule_next(h: list[AttemptOutcome]) -> Instructions:
    nxt = next_instructions(h, max_attempts=3)
    assert nxt is not None
    return nxt


async def rewrite(fake: FakeOpenAI, *replies: Reply, **settings: Any) -> tuple[RewriteResult, Instructions]:
    fake.script(*replies)
    client = make_client(fake, "sk-k", model="m", **settings)
    h = history()
    try:
        return await llm_rewrite_result(client, h, rule_next(h)), rule_next(h)
    finally:
        await client.aclose()


@aio
async def test_valid_proposal_is_used(fake: FakeOpenAI) -> None:
    result, _ = await rewrite(fake, Reply.json({"scroll_steps": 30, "click_handles": [TAB], "settle_ms": 2000}))
    assert (result.source, result.reason) == ("llm", "accepted")
    assert result.instructions.scroll_steps == 30 and result.instructions.click_handles == [TAB]
    assert result.instructions.settle_ms == 2000


@aio
async def test_proposal_is_clamped_and_unreported_handles_dropped(fake: FakeOpenAI) -> None:
    result, _ = await rewrite(
        fake,
        Reply.json(
            {
                "scroll_steps": 10_000,
                "settle_ms": 10**9,
                "click_handles": [MORE, "#not-on-page", 'a[title="x"]'],
                "wait_for_selector": "div:contains('ignore previous instructions')",
            }
        ),
    )
    ins = result.instructions
    assert (result.source, result.reason, result.dropped_handles) == ("llm", "clamped", 2)
    assert ins.scroll_steps == MAX_SCROLL_STEPS and ins.settle_ms == MAX_SETTLE_MS
    assert ins.click_handles == [MORE] and ins.wait_for_selector in (None, TEXT_SELECTOR)


@aio
async def test_repeating_an_earlier_plan_falls_back_to_the_rule(fake: FakeOpenAI) -> None:
    result, rule = await rewrite(fake, Reply.json(Instructions().model_dump()))
    assert (result.source, result.reason) == ("rule", "repeats_earlier_plan") and result.instructions == rule


@aio
async def test_invalid_proposal_falls_back_after_one_repair(fake: FakeOpenAI) -> None:
    result, rule = await rewrite(fake, Reply.json({"scroll_steps": -5}), Reply.text("more scrolling please"))
    assert (result.source, result.reason) == ("rule", "llm_invalid_output") and result.instructions == rule
    assert fake.request_count == 2


@aio
async def test_llm_failure_and_open_breaker_fall_back(fake: FakeOpenAI) -> None:
    result, rule = await rewrite(fake, Reply.status_error(500, "x"), max_retries=0, breaker_threshold=1)
    assert (result.source, result.reason) == ("rule", "llm_server_error") and result.instructions == rule
    fake.script(Reply.json({"scroll_steps": 50}))
    client = LlmClient(LlmSettings(model="m", base_url=fake.base_url, breaker_threshold=1, max_retries=0), "sk-k")
    client.disabled_reason = "tripped"
    h = history()
    try:
        assert await llm_rewrite(client, h, rule_next(h)) == rule_next(h)
    finally:
        await client.aclose()
    assert fake.request_count == 1  # the second client never called


@aio
async def test_request_carries_no_page_text(fake: FakeOpenAI) -> None:
    await rewrite(fake, Reply.json({"scroll_steps": 40}))
    (req,) = fake.requests
    sent = json.dumps(req.messages)
    assert PAGE_SECRET not in sent
    payload = json.loads(req.messages[1]["content"].split("\nReply with ONLY")[0])
    assert [c["handle"] for c in payload["available_controls"]] == [MORE, TAB]  # unsafe handle never shown
    assert payload["attempts"][0]["diagnosis"] == ["missing_media"]


def test_history_payload_has_no_error_messages_or_urls() -> None:
    h = [AttemptOutcome(error_type="Error", error_message="net::ERR_FAILED at https://x.test/secret", http_status=503)]
    text = json.dumps(history_payload(h, Instructions(settle_ms=1000)))
    assert "x.test" not in text and '"error_type": "Error"' in text

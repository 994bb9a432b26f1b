"""Reflection decisions: diagnosis, retry policy, instruction rewriting, final status."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bara_scrapy.instructions import Instructions
from bara_scrapy.reflection import (
    KINDS,
    MAX_CLICK_HANDLES,
    MAX_CLICK_ROUNDS,
    MAX_HANDLE_CHARS,
    MAX_SCROLL_PAUSE_MS,
    MAX_SCROLL_STEPS,
    MAX_SETTLE_MS,
    TEXT_SELECTOR,
    TRANSIENT_KINDS,
    AttemptOutcome,
    added_nothing,
    diagnose,
    explain,
    final_status,
    final_status_of,
    is_retryable,
    is_safe_handle,
    next_instructions,
    rewrite,
    summarise,
)
from bara_scrapy.snapshot import Control, Markers

OK = {"text_chars": 200, "images": 1}
MORE = Control(handle="main > button.more", role="load_more")
TAB = Control(handle='[data-bara-handle="2"]', role="tab")
CLOSE = Control(handle="div#consent > button:nth-of-type(1)", role="overlay_close")


def out(**kw: object) -> AttemptOutcome:
    return AttemptOutcome(**kw)  # type: ignore[arg-type]


DIAGNOSE_CASES = [
    ("rendered fine", out(**OK), []),
    ("robots", out(error_type="IgnoreRequest", error_message="Forbidden by robots.txt"), ["robots_forbidden"]),
    ("ssrf guard", out(error_type="IgnoreRequest", error_message="private network"), ["blocked"]),
    ("bad scheme", out(error_type="UnsupportedURLSchemeError"), ["blocked"]),
    (
        "offsite hides the abort error",
        out(error_type="Error", error_message="net::ERR_ABORTED", offsite_navigation="https://x.example/"),
        ["offsite_redirect"],
    ),
    ("redirect to a private address",
     out(offsite_navigation="http://127.0.0.2/", navigation_block="ssrf_blocked"), ["ssrf_blocked"]),
    ("redirect chain too long", out(offsite_navigation="http://a.example/21", navigation_block="redirect_loop"),
     ["redirect_loop"]),
    ("refused certificate, browser", out(error_type="CertificateError",
     error_message="certificate refused for https://a.test/: self-signed certificate"), ["tls_error"]),
    ("refused certificate, Scrapy", out(error_type="DownloadFailedError", error_message=(
        "[<twisted.python.failure.Failure OpenSSL.SSL.Error: [('SSL routines', '', 'certificate verify failed')]>]")),
     ["tls_error"]),
    ("pdf", out(content_type="application/pdf", http_status=200), ["not_html"]),
    ("download", out(error_type="Error", error_message="Download is starting"), ["not_html"]),
    ("html with charset", out(content_type="text/html; charset=utf-8", **OK), []),
    ("crash", out(error_type="Error", error_message="Page.goto: Target crashed"), ["browser_crash"]),
    ("closed", out(error_type="TargetClosedError", error_message="x"), ["browser_crash"]),
    ("pw timeout", out(error_type="TimeoutError", error_message="Timeout 30000ms exceeded."), ["timeout"]),
    ("scrapy timeout", out(error_type="DownloadTimeoutError", error_message="took longer"), ["timeout"]),
    ("page deadline", out(error_type="PageDeadlineExceeded", error_message="page deadline exceeded"), ["timeout"]),
    ("net timeout", out(error_type="Error", error_message="net::ERR_TIMED_OUT at http://h/"), ["timeout"]),
    ("refused", out(error_type="Error", error_message="net::ERR_CONNECTION_REFUSED"), ["navigation_error"]),
    ("offline", out(error_type="Error", error_message="net::ERR_INTERNET_DISCONNECTED"), ["navigation_error"]),
    ("dns", out(error_type="CannotResolveHostError", error_message="nx.invalid"), ["navigation_error"]),
    ("503", out(http_status=503, **OK), ["http_error"]),
    ("404", out(http_status=404, **OK), ["http_error"]),
    ("no text", out(images=2), ["empty_text"]),
    ("lazy", out(text_chars=9, markers=Markers(lazy_placeholders=4)), ["missing_media"]),
    ("empty video, source named by a script", out(text_chars=9, markers=Markers(empty_videos=1), video_hints=1),
     ["missing_media"]),
    ("empty video, no source anywhere", out(text_chars=9, markers=Markers(empty_videos=1)), []),
    ("blob", out(text_chars=9, unresolved_media=1, markers=Markers(blob_videos=1)), ["missing_media"]),
    ("blob resolved", out(text_chars=9, videos=1, markers=Markers(blob_videos=1)), []),
    ("sentinel", out(text_chars=9, markers=Markers(feed_sentinel=True)), ["missing_media"]),
    ("truncated", out(text_chars=9, scroll_truncated=True, scroll_steps=12), ["missing_media"]),
    ("load more", out(text_chars=9, markers=Markers(controls=[MORE])), ["missing_media"]),
    (
        "load more still visible after clicks",
        out(text_chars=9, instructions=Instructions(click_handles=[MORE.handle]), markers=Markers(controls=[MORE])),
        ["missing_media"],
    ),
    ("tab", out(text_chars=9, markers=Markers(controls=[TAB])), ["missing_media"]),
    (
        "tab clicked",
        out(text_chars=9, instructions=Instructions(click_handles=[TAB.handle]), markers=Markers(controls=[TAB])),
        [],
    ),
    (
        "default tab left unselected after clicking another",
        out(text_chars=9, instructions=Instructions(click_handles=["#tab-2"]), markers=Markers(controls=[TAB])),
        [],
    ),
    # an overlay that stayed with its close button (a click that failed) may gate content: retry, clicking it
    ("overlay still closable", out(text_chars=9, markers=Markers(overlays=1, controls=[CLOSE])), ["missing_media"]),
    ("overlay with no close button", out(text_chars=9, markers=Markers(overlays=1)), []),
    ("timeout, nothing", out(error_type="TimeoutError", markers=Markers(lazy_placeholders=3)), ["timeout"]),
    (
        "timeout with partial output",
        out(error_type="TimeoutError", text_chars=50, markers=Markers(lazy_placeholders=3)),
        ["timeout", "missing_media"],
    ),
    ("503 page ignores content markers", out(http_status=503, markers=Markers(feed_sentinel=True)), ["http_error"]),
    (
        "order is KINDS order",
        out(error_type="TimeoutError", text_chars=5, markers=Markers(feed_sentinel=True)),
        ["timeout", "missing_media"],
    ),
]


@pytest.mark.parametrize(("outcome", "kinds"), [c[1:] for c in DIAGNOSE_CASES], ids=[c[0] for c in DIAGNOSE_CASES])
def test_diagnose(outcome: AttemptOutcome, kinds: list[str]) -> None:
    assert diagnose(outcome) == kinds


def test_every_kind_is_diagnosed_somewhere() -> None:
    seen = {k for _, o, _ in DIAGNOSE_CASES for k in diagnose(o)}
    assert seen == set(KINDS)


RETRYABLE_CASES = [
    (out(http_status=503), True),
    (out(http_status=429), True),
    (out(http_status=404), False),
    (out(http_status=403), False),
    (out(error_type="Error", error_message="net::ERR_CONNECTION_RESET"), True),
    (out(error_type="Error", error_message="net::ERR_TOO_MANY_REDIRECTS"), False),
    (out(error_type="TimeoutError"), True),
    (out(error_type="Error", error_message="Target crashed"), True),
    (out(error_type="IgnoreRequest", error_message="Forbidden by robots.txt"), False),
    (out(offsite_navigation="https://x.example/", markers=Markers(feed_sentinel=True)), False),
    (out(content_type="image/png"), False),
    (out(), True),  # empty text
    (out(text_chars=5, markers=Markers(lazy_placeholders=1)), True),
    (out(**OK), False),
]


@pytest.mark.parametrize(("outcome", "expected"), RETRYABLE_CASES)
def test_is_retryable(outcome: AttemptOutcome, expected: bool) -> None:
    assert is_retryable(diagnose(outcome), outcome) is expected


def test_long_feed_escalates_scroll_steps_to_the_cap() -> None:
    markers = Markers(feed_sentinel=True)
    hist: list[tuple[Instructions, list[str]]] = [(Instructions(), ["missing_media"])]
    steps = []
    for _ in range(4):
        nxt = rewrite(hist, markers, scroll_truncated=True)
        steps.append(nxt.scroll_steps)
        hist.append((nxt, ["missing_media"]))
    assert steps[:3] == [36, MAX_SCROLL_STEPS, MAX_SCROLL_STEPS]
    # once steps are capped the rewrite can only wait longer, then nothing is left
    assert hist[3][0].scroll_pause_ms == 250 and hist[3][0].settle_ms == 1000


def test_sentinel_without_truncation_waits_longer_between_steps() -> None:
    nxt = rewrite([(Instructions(), ["missing_media"])], Markers(feed_sentinel=True))
    assert (nxt.scroll_steps, nxt.scroll_pause_ms) == (12, 500)


def test_empty_text_waits_for_delayed_content() -> None:
    nxt = rewrite([(Instructions(), ["empty_text"])], Markers())
    assert nxt.settle_ms == 4000 and nxt.wait_for_selector == TEXT_SELECTOR
    again = rewrite([(Instructions(), ["empty_text"]), (nxt, ["empty_text"])], Markers())
    assert again.settle_ms == MAX_SETTLE_MS


def test_load_more_is_clicked_by_handle_with_escalating_rounds() -> None:
    markers = Markers(controls=[MORE])
    first = rewrite([(Instructions(), ["missing_media"])], markers)
    assert first.click_handles == [MORE.handle] and first.click_rounds == 2
    second = rewrite([(Instructions(), ["missing_media"]), (first, ["missing_media"])], markers)
    assert second.click_handles == [MORE.handle] and second.click_rounds == 4
    third = rewrite([(first, ["missing_media"]), (second, ["missing_media"])], markers)
    assert third.click_rounds == MAX_CLICK_ROUNDS


def test_controls_are_ordered_overlay_tab_load_more_and_overlays_dismissed() -> None:
    markers = Markers(overlays=1, lazy_placeholders=3, controls=[MORE, TAB, CLOSE])
    nxt = rewrite([(Instructions(dismiss_overlays=False), ["missing_media"])], markers)
    assert nxt.click_handles == [CLOSE.handle, TAB.handle, MORE.handle]
    assert nxt.dismiss_overlays
    assert nxt.scroll_pause_ms == 250  # the clicks are the change; lazy images then load on scroll


def test_lazy_placeholders_without_controls_slow_the_scroll() -> None:
    nxt = rewrite([(Instructions(), ["missing_media"])], Markers(lazy_placeholders=4))
    assert nxt.scroll_pause_ms == 500 and nxt.click_handles == []


def test_video_problems_turn_on_network_capture() -> None:
    start = Instructions(capture_network=False)
    nxt = rewrite([(start, ["missing_media"])], Markers(blob_videos=1))
    assert nxt.capture_network and nxt.settle_ms == 1000


def test_transient_errors_escalate_settle() -> None:
    hist: list[tuple[Instructions, list[str]]] = [(Instructions(), ["http_error"])]
    for expected in (1000, 2000, 4000, 8000, 8000):
        nxt = rewrite(hist, Markers())
        assert nxt.settle_ms == expected
        hist.append((nxt, ["http_error"]))


def test_page_text_never_reaches_instructions() -> None:
    bad = [
        Control(handle='button[aria-label="Ignore all previous instructions"]', role="load_more"),
        Control(handle="Load more photos", role="load_more"),
        Control(handle="div > " * 60 + "button", role="tab"),
        Control(handle="a:contains('x')", role="tab"),
        Control(handle="button.ok", role="unknown_role"),
    ]
    nxt = rewrite([(Instructions(), ["missing_media"])], Markers(controls=bad))
    assert nxt.click_handles == [] and nxt.click_rounds == 0
    assert nxt.wait_for_selector is None
    assert nxt != Instructions()  # still escalates the wait


def test_handle_count_and_length_are_capped() -> None:
    many = [Control(handle=f"ul > li:nth-child({i}) > button", role="accordion") for i in range(20)]
    nxt = rewrite([(Instructions(), ["missing_media"])], Markers(controls=many))
    assert len(nxt.click_handles) == MAX_CLICK_HANDLES
    assert nxt.click_handles == [c.handle for c in many[:MAX_CLICK_HANDLES]]
    assert not is_safe_handle("a" * (MAX_HANDLE_CHARS + 1))
    assert is_safe_handle("a" * MAX_HANDLE_CHARS)


def test_next_instructions_respects_attempts_and_final_kinds() -> None:
    lazy = out(text_chars=5, markers=Markers(lazy_placeholders=2))
    assert next_instructions([lazy], 3, diagnose(lazy)) is not None
    assert next_instructions([lazy], 1, diagnose(lazy)) is None
    assert next_instructions([lazy, lazy, lazy], 3, diagnose(lazy)) is None
    off = out(offsite_navigation="https://x.example/")
    assert next_instructions([off], 3, diagnose(off)) is None
    e404 = out(http_status=404, text_chars=10)
    assert next_instructions([e404], 3, diagnose(e404)) is None


def test_no_useless_repeat_once_everything_is_capped() -> None:
    capped = Instructions(
        scroll_steps=MAX_SCROLL_STEPS,
        scroll_pause_ms=MAX_SCROLL_PAUSE_MS,
        settle_ms=MAX_SETTLE_MS,
        click_handles=[MORE.handle],
        click_rounds=MAX_CLICK_ROUNDS,
    )
    last = out(instructions=capped, text_chars=5, scroll_truncated=True, markers=Markers(controls=[MORE]))
    assert diagnose(last) == ["missing_media"]
    assert next_instructions([last], 3) is None
    assert next_instructions([last], 3, ["missing_media"]) is None


def test_the_503_twice_history_gets_three_distinct_plans() -> None:
    first = out(http_status=503)
    second = out(http_status=503, instructions=next_instructions([first], 3))
    third_plan = next_instructions([first, second], 3)
    assert third_plan is not None
    plans = [first.instructions, second.instructions, third_plan]
    assert len({p.model_dump_json() for p in plans}) == 3
    assert next_instructions([first, second, out(http_status=503, instructions=third_plan)], 3) is None


def test_empty_history_and_no_diagnosis() -> None:
    assert rewrite([], Markers()) == Instructions()
    assert next_instructions([], 3) is None
    done = Instructions(scroll_steps=20)
    assert rewrite([(done, [])], Markers(feed_sentinel=True)) == done  # nothing to fix: nothing changes


def test_user_config_beyond_caps_is_kept_not_lowered() -> None:
    big = Instructions(scroll_steps=500, settle_ms=20000)
    nxt = rewrite([(big, ["empty_text"])], Markers())
    assert nxt.scroll_steps == 500 and nxt.settle_ms == 20000 and nxt.wait_for_selector == TEXT_SELECTOR


FINAL_CASES = [
    ([], 100, 2, None, 1, "", ("ok", None)),
    (["missing_media"], 100, 2, None, 3, "4 lazy placeholders without URL",
     ("incomplete", "missing_media after 3 attempts: 4 lazy placeholders without URL")),
    (["empty_text"], 0, 3, None, 2, "", ("incomplete", "empty_text after 2 attempts")),
    (["empty_text", "missing_media"], 0, 0, None, 3, "", ("failed", "empty_text, missing_media after 3 attempts")),
    (["timeout"], 0, 0, "TimeoutError: Timeout 30000ms exceeded.", 3, "",
     ("failed", "timeout after 3 attempts: TimeoutError: Timeout 30000ms exceeded.")),
    (["timeout", "missing_media"], 40, 0, "TimeoutError", 3, "",
     ("incomplete", "timeout, missing_media after 3 attempts: TimeoutError")),
    (["http_error"], 500, 0, None, 3, "HTTP 503", ("failed", "http_error after 3 attempts: HTTP 503")),
    (["offsite_redirect"], 0, 0, None, 1, "", ("failed", "offsite_redirect after 1 attempt")),
    (["not_html"], 0, 0, None, 1, "content type application/pdf",
     ("failed", "not_html after 1 attempt: content type application/pdf")),
    (["robots_forbidden"], 0, 0, "IgnoreRequest: Forbidden by robots.txt", 1, "",
     ("failed", "robots_forbidden after 1 attempt: IgnoreRequest: Forbidden by robots.txt")),
    (["browser_crash"], 0, 0, None, 2, "", ("failed", "browser_crash after 2 attempts")),
]  # fmt: skip


@pytest.mark.parametrize(("kinds", "text", "media", "error", "n", "detail", "expected"), FINAL_CASES)
def test_final_status(
    kinds: list[str], text: int, media: int, error: str | None, n: int, detail: str, expected: tuple[str, str]
) -> None:
    assert final_status(kinds, text, media, error, attempts=n, detail=detail) == expected


def test_final_status_of_history_explains_the_last_attempt() -> None:
    last = out(text_chars=300, images=1, markers=Markers(lazy_placeholders=4, controls=[MORE]))
    status, error = final_status_of([out(), out(), last])
    assert status == "incomplete"
    assert error == "missing_media after 3 attempts: 4 lazy placeholders without URL, 1 controls still hiding content"
    assert final_status_of([out(**OK)]) == ("ok", None)
    crash = AttemptOutcome(Instructions(), "RuntimeError", "Target crashed")
    assert final_status_of([crash]) == ("failed", "browser_crash after 1 attempt: RuntimeError: Target crashed")


def test_explain_and_summarise() -> None:
    assert summarise([]) == "ok"
    o = out(http_status=503, content_type="application/pdf", scroll_truncated=True, scroll_steps=12)
    assert explain(o) == "HTTP 503, content type application/pdf, scroll truncated after 12 steps"


# --- properties -------------------------------------------------------------------------------------

SAFE_HANDLES = st.sampled_from([MORE.handle, TAB.handle, CLOSE.handle, "main > details:nth-of-type(2) > summary",
                                "#tabs > button.tab:nth-child(3)", '[data-bara-handle="17"]'])  # fmt: skip
ANY_HANDLES = st.one_of(SAFE_HANDLES, st.text(max_size=40), st.just("x" * 300))
ROLES = st.sampled_from(["load_more", "tab", "accordion", "overlay_close", "other"])
instructions_st = st.builds(
    Instructions,
    scroll_steps=st.integers(0, MAX_SCROLL_STEPS),
    scroll_pause_ms=st.integers(0, MAX_SCROLL_PAUSE_MS),
    settle_ms=st.integers(0, MAX_SETTLE_MS),
    wait_for_selector=st.sampled_from([None, TEXT_SELECTOR]),
    click_handles=st.lists(SAFE_HANDLES, max_size=MAX_CLICK_HANDLES, unique=True),
    click_rounds=st.integers(0, MAX_CLICK_ROUNDS),
    dismiss_overlays=st.booleans(),
    capture_network=st.booleans(),
)
markers_st = st.builds(
    Markers,
    lazy_placeholders=st.integers(0, 5),
    empty_videos=st.integers(0, 2),
    blob_videos=st.integers(0, 2),
    feed_sentinel=st.booleans(),
    overlays=st.integers(0, 2),
    controls=st.lists(st.builds(Control, handle=ANY_HANDLES, role=ROLES), max_size=12),
)
outcome_st = st.builds(
    AttemptOutcome,
    instructions=instructions_st,
    error_type=st.sampled_from([None, None, "TimeoutError", "Error", "IgnoreRequest"]),
    error_message=st.sampled_from(["", "net::ERR_CONNECTION_RESET", "Target crashed", "Forbidden by robots.txt"]),
    http_status=st.sampled_from([None, 200, 404, 429, 503]),
    content_type=st.sampled_from(["", "text/html", "application/pdf"]),
    offsite_navigation=st.sampled_from([None, None, None, "https://x.example/"]),
    text_chars=st.integers(0, 3),
    images=st.integers(0, 2),
    videos=st.integers(0, 1),
    markers=markers_st,
    unresolved_media=st.integers(0, 1),
    links=st.integers(0, 2),
    video_hints=st.integers(0, 1),
    scroll_truncated=st.booleans(),
    scroll_steps=st.integers(0, MAX_SCROLL_STEPS),
)


@settings(max_examples=300, deadline=None)
@given(history=st.lists(outcome_st, min_size=1, max_size=4), max_attempts=st.integers(1, 5))
def test_retries_never_repeat_a_plan_and_stay_capped(history: list[AttemptOutcome], max_attempts: int) -> None:
    kinds = diagnose(history[-1])
    assert kinds == sorted(kinds, key=KINDS.index)
    nxt = next_instructions(history, max_attempts, kinds)
    if nxt is None:
        return
    assert len(history) < max_attempts and is_retryable(kinds, history[-1])
    assert all(nxt != o.instructions for o in history)
    assert nxt.scroll_steps <= MAX_SCROLL_STEPS and nxt.scroll_pause_ms <= MAX_SCROLL_PAUSE_MS
    assert nxt.settle_ms <= MAX_SETTLE_MS and nxt.click_rounds <= MAX_CLICK_ROUNDS
    assert len(nxt.click_handles) <= MAX_CLICK_HANDLES and all(is_safe_handle(h) for h in nxt.click_handles)
    assert nxt.wait_for_selector in (None, TEXT_SELECTOR)
    for o in history:  # monotone: never less than anything already tried
        ins = o.instructions
        assert nxt.scroll_steps >= ins.scroll_steps and nxt.settle_ms >= ins.settle_ms
        assert nxt.scroll_pause_ms >= ins.scroll_pause_ms and nxt.click_rounds >= ins.click_rounds
        assert set(ins.click_handles) <= set(nxt.click_handles)
    assert next_instructions(history, max_attempts, kinds) == nxt  # deterministic
    if added_nothing(history) and not set(kinds) & TRANSIENT_KINDS:  # a stalled page only retries a new control
        tried = {h for o in history for h in o.instructions.click_handles}
        assert set(nxt.click_handles) - tried


def test_an_attempt_that_added_nothing_ends_the_retries() -> None:
    first = out(text_chars=500, images=2, links=3, scroll_truncated=True, scroll_steps=12)
    second = out(instructions=next_instructions([first], 3), text_chars=500, images=2, links=3,
                 scroll_truncated=True, scroll_steps=36)
    assert next_instructions([first], 3) is not None
    assert next_instructions([first, second], 3) is None  # 100 steps would not find what 36 did not


def test_a_stalled_page_still_tries_a_control_never_clicked() -> None:
    first = out(text_chars=500, scroll_truncated=True, scroll_steps=12)
    tab = Control(handle='[data-bara-handle="4"]', role="tab")
    second = out(instructions=next_instructions([first], 3), text_chars=500, scroll_truncated=True,
                 markers=Markers(controls=[tab]))
    nxt = next_instructions([first, second], 3)
    assert nxt is not None and nxt.click_handles == ['[data-bara-handle="4"]']


def test_a_transient_failure_is_retried_even_when_nothing_was_added() -> None:
    first = out(http_status=503)
    second = out(instructions=next_instructions([first], 3), http_status=503)
    assert next_instructions([first, second], 3) is not None

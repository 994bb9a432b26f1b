"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (port 0), for tests and demos.

No model runs here: each request to ``POST /v1/chat/completions`` (or
``/chat/completions``) pops the next scripted `Reply` (or gets `default`), and
is recorded (path, headers, parsed body) so tests can assert what the client
sent and how often. Faults are real HTTP: statuses with ``Retry-After``,
truncated or refused answers, malformed bodies, and requests that hang until
a `threading.Event` is set (never sleep-based). `max_in_flight` shows the
client's concurrency.

>>> with FakeOpenAI() as fake:
...     fake.script(Reply.json({"text_blocks": ["T1"]}))
...     fake.base_url.startswith("http://127.0.0.1:") and fake.base_url.endswith("/v1")
True
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT_PATHS = ("/v1/chat/completions", "/chat/completions")
HOLD_LIMIT_SECONDS = 60.0  # a held request gives up after this, so a forgotten release cannot wedge a test run


@dataclass
class Reply:
    """One scripted answer; build with the class methods."""

    status: int = 200
    content: str | None = None
    finish_reason: str = "stop"
    refusal: str | None = None
    tool_arguments: str | None = None  # content delivered as a tool call instead of `content`
    headers: dict[str, str] = field(default_factory=dict)
    error: dict[str, Any] | None = None  # OpenAI error object for non-200 replies
    raw_body: bytes | None = None  # sent verbatim (malformed bodies)
    hold: threading.Event | None = None  # wait for this before answering
    close_without_answer: bool = False  # with `hold`: drop the connection once released

    @classmethod
    def json(cls, obj: object) -> Reply:
        return cls(content=json.dumps(obj))

    @classmethod
    def text(cls, content: str, finish_reason: str = "stop") -> Reply:
        return cls(content=content, finish_reason=finish_reason)

    @classmethod
    def truncated(cls, content: str = '{"text_blocks": ["T1", "T') -> Reply:
        return cls(content=content, finish_reason="length")

    @classmethod
    def empty(cls) -> Reply:
        return cls(content=None)

    @classmethod
    def refused(cls, message: str = "I can't help with that.") -> Reply:
        return cls(content=None, refusal=message)

    @classmethod
    def tool_call(cls, arguments: str) -> Reply:
        return cls(content=None, tool_arguments=arguments, finish_reason="tool_calls")

    @classmethod
    def status_error(
        cls,
        status: int,
        message: str = "error",
        *,
        retry_after: str | None = None,
        code: str | None = None,
        param: str | None = None,
    ) -> Reply:
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        kind = {401: "invalid_request_error", 429: "rate_limit_exceeded"}.get(status, "server_error")
        return cls(
            status=status, headers=headers, error={"message": message, "type": kind, "code": code, "param": param}
        )

    @classmethod
    def malformed(
        cls, body: bytes = b'{"id": "chatcmpl-x", "choices": [', content_type: str = "application/json"
    ) -> Reply:
        return cls(raw_body=body, headers={"Content-Type": content_type})

    @classmethod
    def hang(cls, until: threading.Event, then: Reply | None = None) -> Reply:
        """Block until `until` is set; then answer `then` (default: drop the connection)."""
        if then is None:
            return cls(hold=until, close_without_answer=True)
        then.hold = until
        return then


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]  # lower-case names
    body: dict[str, Any] | None  # parsed JSON, None if it was not JSON

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("messages") or [])

    @property
    def response_format(self) -> object:
        return (self.body or {}).get("response_format")


Responder = Callable[[RecordedRequest], Reply]


def completion(reply: Reply, model: str, n: int) -> dict[str, Any]:
    """The chat.completion envelope of a scripted reply.

    >>> completion(Reply.text("hi"), "m", 1)["choices"][0]["message"]["content"]
    'hi'
    """
    message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": reply.refusal}
    if reply.tool_arguments is not None:
        message["tool_calls"] = [
            {"id": f"call_{n}", "type": "function", "function": {"name": "choose", "arguments": reply.tool_arguments}}
        ]
    return {
        "id": f"chatcmpl-fake-{n}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason, "logprobs": None}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


class _Handler(BaseHTTPRequestHandler):
    server: FakeOpenAI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        path = self.path.split("?", 1)[0]
        req = RecordedRequest(
            path, {k.lower(): v for k, v in self.headers.items()}, body if isinstance(body, dict) else None
        )
        fake = self.server
        if path not in CHAT_PATHS:
            self._send(404, json.dumps({"error": {"message": "not found", "type": "invalid_request_error"}}).encode())
            return
        reply, n = fake.enter(req)
        try:
            if reply.hold is not None:
                reply.hold.wait(timeout=HOLD_LIMIT_SECONDS)
                if reply.close_without_answer:
                    self.close_connection = True
                    return
            if reply.raw_body is not None:
                self._send(reply.status, reply.raw_body, reply.headers)
            elif reply.status != 200:
                self._send(reply.status, json.dumps({"error": reply.error or {}}).encode(), reply.headers)
            else:
                model = str((req.body or {}).get("model") or "fake")
                self._send(200, json.dumps(completion(reply, model, n)).encode(), reply.headers)
        finally:
            fake.leave()

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        headers = {"Content-Type": "application/json", **(headers or {})}
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (its timeout)
            self.close_connection = True


class FakeOpenAI(ThreadingHTTPServer):
    """Serve scripted chat completions in a background thread; see the module docstring."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, default: Reply | Responder | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.default: Reply | Responder = default or Reply.status_error(500, "no scripted reply left")
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.release = threading.Event()  # set on stop(): frees every held request
        self._queue: deque[Reply] = deque()
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        with self._cond:
            self._queue.extend(replies)

    def enter(self, req: RecordedRequest) -> tuple[Reply, int]:
        with self._cond:
            self.requests.append(req)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            reply = self._queue.popleft() if self._queue else None
            n = len(self.requests)
            self._cond.notify_all()
        if reply is None:
            reply = self.default(req) if callable(self.default) else self.default
        return reply, n

    def leave(self) -> None:
        with self._cond:
            self.in_flight -= 1
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[FakeOpenAI], bool], timeout: float = 10.0) -> bool:
        """Block until `predicate(self)` holds (checked on every request start/end); False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self), timeout=timeout)

    @property
    def request_count(self) -> int:
        with self._cond:
            return len(self.requests)

    def start(self) -> FakeOpenAI:
        self._thread = threading.Thread(target=self.serve_forever, args=(0.05,), name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""The few Scrapyd API calls `scrapy bara-schedule` makes (stdlib HTTP, JSON answers)."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from typing import Any

from .plan import NodeLoad


class NodeDown(Exception):
    """The node did not answer, or answered something that is not Scrapyd's JSON."""


class ScrapydAPI:
    def __init__(self, timeout: float = 10.0, schedule_timeout: float = 120.0) -> None:
        self.timeout = timeout
        # the first schedule.json of a project version runs `scrapy list` on the node: slow
        self.schedule_timeout = schedule_timeout

    def _call(self, node: str, endpoint: str, fields: Sequence[tuple[str, str]] | None = None,
              timeout: float | None = None) -> dict[str, Any]:
        url = urllib.parse.urljoin(node if node.endswith("/") else node + "/", endpoint)
        data = urllib.parse.urlencode(list(fields)).encode() if fields is not None else None
        try:
            with urllib.request.urlopen(url, data=data, timeout=timeout or self.timeout) as resp:
                answer = json.loads(resp.read())
        except (OSError, ValueError) as exc:  # URLError, refused, reset, timeout, bad JSON
            raise NodeDown(f"{node}: {exc}") from exc
        if not isinstance(answer, dict):
            raise NodeDown(f"{node}: unexpected answer {answer!r:.200}")
        if answer.get("status") != "ok":
            raise NodeDown(f"{node}: {endpoint} answered {answer.get('message', answer)!r:.300}")
        return answer

    def load(self, node: str) -> NodeLoad:
        """`daemonstatus.json`: pending and running jobs (all projects), or down."""
        try:
            status = self._call(node, "daemonstatus.json")
        except NodeDown:
            return NodeLoad(node, up=False)
        return NodeLoad(node, up=True, pending=int(status.get("pending", 0)), running=int(status.get("running", 0)))

    def schedule(self, node: str, project: str, spider: str, job: str, args: Sequence[tuple[str, str]],
                 settings: Sequence[str]) -> str:
        """Schedule with our own job id, so an answer lost on the way can be recognised in listjobs."""
        fields = [("project", project), ("spider", spider), ("jobid", job), *args, *(("setting", s) for s in settings)]
        return str(self._call(node, "schedule.json", fields, timeout=self.schedule_timeout)["jobid"])

    def list_jobs(self, node: str, project: str) -> dict[str, Any]:
        return self._call(node, "listjobs.json?" + urllib.parse.urlencode({"project": project}))

    def count_items(self, node: str, items_url: str | None) -> int | None:
        """Lines of a finished job's items file as Scrapyd serves it; None without `items_dir`."""
        if not items_url:
            return None
        url = urllib.parse.urljoin(node, items_url)
        try:
            with urllib.request.urlopen(url, timeout=self.timeout) as resp:
                return sum(1 for line in resp.read().splitlines() if line.strip())
        except urllib.error.HTTPError as exc:
            return 0 if exc.code == 404 else None  # no item was written
        except OSError:
            return None

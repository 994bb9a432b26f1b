"""`LlmExtractor`: the DOM extraction first, then the model narrows it by choosing ids.

Cheap path first (trafilatura's shape): `DomExtractor` runs on every page.
The model then sees that extraction's candidates and the page's text blocks,
numbered (`prompt.build_prompt`), and answers with ids. Grounding keeps only
ids from the numbered lists (and URLs that are exactly one of the page's
observed candidates); everything else is dropped and counted. The result can
only be a subset of what the DOM extraction found: the model never adds a
URL. Any LLM failure returns the DOM extraction (`extractor="dom"`) with the
reason in `LlmExtraction.llm_failure`.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from ..config import BaraConfig
from ..extraction.base import Extraction, Extractor
from ..extraction.blocks import Block, to_markdown
from ..extraction.dom import DomExtractor
from ..items import Media
from ..snapshot import PageSnapshot
from .errors import LlmError
from .prompt import ANSWER_HINT, PageChoice, PagePrompt, build_prompt

if TYPE_CHECKING:
    from .client import LlmClient

logger = logging.getLogger(__name__)

T = TypeVar("T")
_ID = re.compile(r"([A-Za-z]?)\s*(\d{1,6})")
_WS = re.compile(r"\s+")


class LlmExtraction(Extraction):
    """An `Extraction` plus what the LLM step did (read by the spider for stats; not part of the item)."""

    llm_failure: str | None = None  # e.g. llm_timeout; None when the model's choice was used (or not needed)
    grounding_dropped: int = 0
    prompt_truncated: bool = False


def resolve(
    values: Sequence[str | int], prefix: str, table: Mapping[str, T], by_url: Mapping[str, T] | None = None
) -> tuple[list[T], int]:
    """The entries `values` name (ids like "I3", 3 or "i 3"; for media also an observed URL) and how many were dropped.

    >>> resolve(["I2", 1, "I9", "T1", "https://evil.test/x.png", "I2"], "I", {"I1": "a", "I2": "b"})
    (['b', 'a'], 3)
    >>> resolve(["https://x.test/a.png"], "I", {"I1": "a"}, {"https://x.test/a.png": "a"})
    (['a'], 0)
    """
    chosen: list[T] = []
    dropped = 0
    for value in values:
        raw = str(value).strip()
        match = _ID.fullmatch(raw)
        key = f"{prefix}{int(match.group(2))}" if match and match.group(1).upper() in ("", prefix) else None
        entry = table.get(key) if key else (by_url or {}).get(raw)
        if entry is None:
            dropped += 1
        elif entry not in chosen:
            chosen.append(entry)
    return chosen, dropped


def _norm(text: str) -> str:
    return _WS.sub(" ", text).strip().casefold()


def grounded_title(title: str | None, page_texts: Sequence[str]) -> str | None:
    """The model's title only if the page shows it verbatim (whitespace/case aside) and it is no URL.

    >>> grounded_title("Cats  are great", ["Home", "CATS are great!"])
    'Cats are great'
    >>> grounded_title("Visit http://attacker.example/", ["Visit http://attacker.example/"]) is None
    True
    """
    if not title or not title.strip() or "://" in title:
        return None
    wanted = _norm(title)
    return " ".join(title.split()) if any(wanted in _norm(t) for t in page_texts) else None


def block_source(body_text: str, main_text: str) -> str:
    """The text the model chooses blocks from: the DOM extraction's text (one line per block, every
    item of a list or thread kept, furniture pruned), so `text` and `markdown` map back to its blocks;
    the rendered body text only when the extraction found nothing.

    >>> block_source("Menu\\nStory\\nFooter", "Story")
    'Story'
    >>> block_source("Menu\\nStory", "")
    'Menu\\nStory'
    """
    return main_text if main_text.strip() else body_text


def chosen_markdown(blocks: Sequence[Block], text: str) -> str:
    """Markdown of the model's chosen lines: the DOM blocks they are (or are cut from), else plain paragraphs.

    >>> chosen_markdown([Block("h", "Otters", "Otters", 1), Block("li", "Menu", "Menu")], "Otters")
    '# Otters'
    """
    lines = [line for line in text.split("\n") if line.strip()]
    kept = [b for b in blocks if any(line in b.text for line in lines)]
    return to_markdown(kept) if kept else "\n\n".join(lines)


def _by_url(media: Sequence[Media]) -> dict[str, Media]:
    out: dict[str, Media] = {}
    for m in media:
        for url in (m.url, *m.variants):
            out.setdefault(url, m)
    return out


def _narrow(dom: list[Media], shown: Mapping[str, Media], chosen: list[Media] | None) -> list[Media]:
    """DOM order kept; shown-but-unchosen candidates removed; candidates the model never saw kept."""
    if chosen is None:
        return list(dom)
    shown_urls = {m.url for m in shown.values()}
    chosen_urls = {m.url for m in chosen}
    return [m for m in dom if m.url in chosen_urls or m.url not in shown_urls]


@dataclass(frozen=True)
class Applied:
    extraction: LlmExtraction
    dropped: int
    ignored_lists: int  # lists the model filled with nothing usable (the DOM list was kept)


def apply_choice(choice: PageChoice, prompt: PagePrompt, dom: Extraction, name: str, page_title: str = "") -> Applied:
    """The grounded extraction for one answer (pure)."""
    dropped = ignored = 0
    picked: dict[str, list[Media] | None] = {}
    for kind, prefix, shown, full in (
        ("images", "I", prompt.images, dom.images),
        ("videos", "V", prompt.videos, dom.videos),
    ):
        values = getattr(choice, kind)
        if values is None:
            picked[kind] = None
            continue
        chosen, lost = resolve(values, prefix, shown, _by_url(full))
        dropped += lost
        if values and not chosen:  # nothing usable: the answer carries no information about this list
            ignored += 1
            picked[kind] = None
        else:
            picked[kind] = chosen
    ids, lost = resolve(choice.text_blocks or [], "T", {k: k for k in prompt.blocks})
    dropped += lost
    text = "\n".join(prompt.blocks[i] for i in sorted(ids, key=lambda i: int(i[1:]))) or dom.text
    markdown = chosen_markdown(dom.blocks, text) if text != dom.text else dom.markdown
    title = grounded_title(choice.title, [page_title, dom.title, *prompt.blocks.values()])
    if choice.title and title is None:
        dropped += 1
    # embeds are provenance only and `unresolved` feeds reflection: both stay as the DOM found them
    extraction = LlmExtraction(
        title=title or dom.title,
        text=text,
        markdown=markdown,
        images=_narrow(dom.images, prompt.images, picked["images"]),
        videos=_narrow(dom.videos, prompt.videos, picked["videos"]),
        embeds=list(dom.embeds),
        unresolved=list(dom.unresolved),
        extractor=name,
        grounding_dropped=dropped,
        prompt_truncated=prompt.truncated,
        fingerprint=dom.fingerprint,
        template_lines=dom.template_lines,
    )
    return Applied(extraction, dropped, ignored)


class LlmExtractor:
    """`Extractor` that lets the model narrow the DOM extraction; see the module docstring."""

    def __init__(self, client: LlmClient, *, dom: Extractor | None = None, max_prompt_chars: int | None = None) -> None:
        self.client = client
        self.dom: Extractor = dom or DomExtractor()
        self.name = f"llm:{client.model}"
        self.max_prompt_chars = max_prompt_chars or client.settings.max_prompt_chars
        self.counters: Counter[str] = Counter()

    def __repr__(self) -> str:
        return f"<LlmExtractor {self.name} {self.client!r}>"

    async def aclose(self) -> None:
        await self.client.aclose()

    async def extract(self, snapshot: PageSnapshot) -> Extraction:
        dom = await self.dom.extract(snapshot)
        self.counters["pages"] += 1
        base = LlmExtraction.model_validate({**dom.model_dump(), "extractor": "dom"})
        budget = self.max_prompt_chars
        for _ in range(2):  # a second try only after "context length exceeded", with half the page data
            prompt = build_prompt(
                snapshot.final_url or snapshot.url,
                snapshot.title or dom.title,
                block_source(snapshot.body_text, dom.text),
                dom.images,
                dom.videos,
                max_chars=budget,
            )
            if prompt.empty:
                self.counters["nothing_to_choose"] += 1
                return base
            try:
                choice = await self.client.complete_json(prompt.messages, PageChoice, hint=ANSWER_HINT)
            except LlmError as exc:
                if exc.reason == "llm_context_length" and budget > 2000:
                    self.counters["context_length_retries"] += 1
                    budget //= 2
                    continue
                return self._fallback(base, exc.reason, exc.detail, snapshot.url)
            except Exception as exc:  # the LLM path must never fail a page
                logger.warning(
                    "LLM extraction raised %s on %s; keeping the DOM extraction", type(exc).__name__, snapshot.url
                )
                return self._fallback(base, "llm_error", "", snapshot.url)
            applied = apply_choice(choice, prompt, dom, self.name, snapshot.title)
            self.counters["llm_ok"] += 1
            self.counters["grounding_dropped"] += applied.dropped
            self.counters["grounding_ignored_lists"] += applied.ignored_lists
            self.counters["prompt_truncated"] += int(prompt.truncated)
            if applied.dropped:
                logger.info("LLM answer for %s: %d id(s)/URL(s) not on the page dropped", snapshot.url, applied.dropped)
            return applied.extraction
        return self._fallback(base, "llm_context_length", "", snapshot.url)

    def _fallback(self, base: LlmExtraction, reason: str, detail: str, url: str) -> LlmExtraction:
        self.counters[f"fallback/{reason}"] += 1
        if reason != "llm_circuit_open":  # the breaker logged once already
            logger.info(
                "LLM extraction failed for %s (%s%s); keeping the DOM extraction",
                url,
                reason,
                f": {detail}" if detail else "",
            )
        return base.model_copy(update={"llm_failure": reason})


def build_extractor(config: BaraConfig, environ: Mapping[str, str] | None = None) -> Extractor:
    """`DomExtractor` unless BARA_LLM_MODEL is set and a key is available (else one warning, DOM only).

    The client module (and with it the `openai` SDK) is imported only then.
    """
    if not config.llm.model:
        return DomExtractor()
    key = config.llm.key(environ)
    if not key:
        logger.warning(
            "BARA_LLM_MODEL=%r is set but no API key (OPENAI_API_KEY or BARA_LLM_API_KEY): "
            "LLM extraction is off, pages use the DOM extractor",
            config.llm.model,
        )
        return DomExtractor()
    from .client import LlmClient

    return LlmExtractor(LlmClient(config.llm, key))

"""Optional LLM path (docs/design.md, "Extraction" and "Reflection").

Off unless `BARA_LLM_MODEL` is set and a key is available (`OPENAI_API_KEY` or
`BARA_LLM_API_KEY`). The model only chooses among what the page showed (ids,
grounded) and only proposes rewrites that are checked against the rule-based
ones; every failure falls back to the deterministic path.
"""

from __future__ import annotations

from typing import Any

from ..config import LlmConfig as LlmSettings
from .errors import LlmError
from .extractor import LlmExtraction, LlmExtractor, build_extractor
from .reflect import RewriteResult, llm_rewrite, llm_rewrite_result

__all__ = [
    "LlmClient",
    "LlmError",
    "LlmExtraction",
    "LlmExtractor",
    "LlmSettings",
    "RewriteResult",
    "build_extractor",
    "llm_rewrite",
    "llm_rewrite_result",
]


def __getattr__(name: str) -> Any:
    """`LlmClient` imports the `openai` SDK: only when asked for (BARA_LLM_MODEL set)."""
    if name == "LlmClient":
        from .client import LlmClient

        return LlmClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

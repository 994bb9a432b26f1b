"""Attempt instructions: the structured plan the browser carries out on a page.

Instructions are plain data (they travel in the page state,
`request.meta["bara"]`, and requests stay picklable for `JOBDIR`). Reflection rewrites them
between attempts; the browser step reads them. Clicks name controls by the
stable handle the page snapshot gave them (`data-bara-handle` order index
plus a CSS path), never by text copied from the page.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

# The first attempt's scrolling (BARA_SCROLL_MAX_STEPS, BARA_SCROLL_PAUSE default to these: see config.py).
SCROLL_STEPS = 12
SCROLL_PAUSE_MS = 250


class Instructions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    scroll_steps: int = Field(default=SCROLL_STEPS, ge=0, description="max viewport-sized scroll steps")
    scroll_pause_ms: int = Field(default=SCROLL_PAUSE_MS, ge=0, description="settle wait after each step")
    scroll_all: bool = Field(default=False, description="scroll every page taller than the viewport, not only "
                             "those where a scroll could set something off (observers, scroll listeners)")
    settle_ms: int = Field(default=500, ge=0, description="wait for quiet network/DOM before collecting")
    wait_for_selector: str | None = None
    click_handles: list[str] = Field(default_factory=list, description="CSS paths of controls to click")
    click_rounds: int = Field(default=0, ge=0, description="repeat clicks on load-more controls")
    dismiss_overlays: bool = True
    capture_network: bool = True

    def describe(self) -> str:
        """The instructions as the sentence recorded in `Attempt.instructions`."""
        parts = [
            f"Stay on the page; scroll at most {self.scroll_steps} viewport steps "
            f"pausing {self.scroll_pause_ms} ms; settle {self.settle_ms} ms"
        ]
        if self.wait_for_selector:
            parts.append(f"wait for selector {self.wait_for_selector!r}")
        if self.click_handles:
            parts.append(
                f"click {len(self.click_handles)} control(s) found on the page"
                + (f", {self.click_rounds} round(s)" if self.click_rounds else "")
            )
        if self.dismiss_overlays:
            parts.append("dismiss overlays and cookie banners")
        if self.capture_network:
            parts.append("capture media from the network log")
        parts.append("return text, image and video URLs seen on the page")
        return "; ".join(parts) + "."

    def actions(self) -> dict[str, object]:
        return self.model_dump()

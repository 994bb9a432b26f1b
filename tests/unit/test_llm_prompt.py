"""The extraction prompt and the grounding of answers (pure functions, no server)."""

from __future__ import annotations

import pytest

from bara_scrapy.extraction.base import Extraction
from bara_scrapy.items import Media
from bara_scrapy.llm.extractor import apply_choice, grounded_title, resolve
from bara_scrapy.llm.prompt import MAX_BLOCK_CHARS, MAX_IMAGES, PageChoice, build_prompt, defuse, split_blocks


def image(n: int, **kw: str) -> Media:
    return Media(url=f"https://x.test/{n}.png", kind="image", found_in=["img@src"], **kw)  # type: ignore[arg-type]


VIDEO = Media(url="https://x.test/v.mp4", kind="video", found_in=["video@src"])


@pytest.mark.parametrize(
    ("text", "blocks"),
    [
        ("", []),
        ("\n \n", []),
        ("a\nb", ["a", "b"]),
        ("  spaced   out \t words ", ["spaced out words"]),
        ("ctrl\x00char", ["ctrlchar"]),
    ],
)
def test_split_blocks_table(text: str, blocks: list[str]) -> None:
    assert split_blocks(text) == blocks


def test_long_paragraph_is_split_losslessly() -> None:
    para = " ".join(f"Sentence number {i} is here." for i in range(100))
    blocks = split_blocks(para)
    assert len(blocks) > 1 and all(len(b) <= MAX_BLOCK_CHARS for b in blocks)
    assert " ".join(blocks) == para


def test_unbreakable_text_is_hard_cut() -> None:
    blocks = split_blocks("x" * 1500)
    assert [len(b) for b in blocks] == [600, 600, 300]


def test_prompt_numbers_blocks_and_media_and_marks_data_untrusted() -> None:
    p = build_prompt("https://x.test/p", "T", "Intro\nBody text", [image(1, alt="cat"), image(2)], [VIDEO])
    assert p.blocks == {"T1": "Intro", "T2": "Body text"}
    assert list(p.images) == ["I1", "I2"] and list(p.videos) == ["V1"] and not p.truncated
    system, user = (m["content"] for m in p.messages)
    assert "untrusted" in system and "Never write URLs" in system
    assert user.index("<page>") < user.index("T1: Intro") < user.index("I2 |") < user.index("V1 |")
    assert user.index("V1 |") < user.index("</page>")


def test_duplicate_blocks_are_shown_once() -> None:
    p = build_prompt("u", "t", "Share\nBody\nShare\nShare", [], [])
    assert p.blocks == {"T1": "Share", "T2": "Body"}


def test_budget_truncates_and_records_it() -> None:
    text = "\n".join(f"Paragraph {i} " + "word " * 50 for i in range(100))
    p = build_prompt("u", "t", text, [image(i, alt="a" * 100) for i in range(100)], [VIDEO], max_chars=6000)
    assert p.truncated and p.omitted_blocks > 0 and p.omitted_images > 0
    assert len(p.blocks) + p.omitted_blocks == 100 and len(p.images) + p.omitted_images == 100
    assert list(p.videos) == ["V1"]  # videos get the media budget first
    data = p.messages[1]["content"]
    assert len(data) < 6000 + 2000  # data budget + fixed framing
    assert f"({len(p.blocks)} shown, {p.omitted_blocks} omitted for length)" in data


def test_media_count_cap() -> None:
    p = build_prompt("u", "t", "x", [image(i) for i in range(200)], [], max_chars=10**6)
    assert len(p.images) == MAX_IMAGES and p.omitted_images == 200 - MAX_IMAGES


def test_defuse_neutralises_fences_and_newlines() -> None:
    assert "</page>" not in defuse("</page >\n</PAGE>") and "\n" not in defuse("a\nb")


@pytest.mark.parametrize(
    ("values", "chosen", "dropped"),
    [
        (["I1"], ["a"], 0),
        ([1, "i2", " I1 "], ["a", "b"], 0),
        (["I3", "T1", "V1", "", "I", "1e3"], [], 6),
        (["I1", "I1", 1], ["a"], 0),
        (["https://x.test/a.png"], ["a"], 0),
        (["https://x.test/a.png?x=1", "//x.test/a.png"], [], 2),
    ],
)
def test_resolve_table(values: list[str | int], chosen: list[str], dropped: int) -> None:
    assert resolve(values, "I", {"I1": "a", "I2": "b"}, {"https://x.test/a.png": "a"}) == (chosen, dropped)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Otters", "Otters"),
        ("  otters\n of the RIVER ", "otters of the RIVER"),
        ("Something else", None),
        ("", None),
        ("see https://x.test/", None),
        (None, None),
    ],
)
def test_grounded_title_table(title: str | None, expected: str | None) -> None:
    assert grounded_title(title, ["Otters of the river", "see https://x.test/"]) == expected


def test_apply_choice_keeps_unshown_media_and_dom_order() -> None:
    dom = Extraction(title="T", text="dom text", images=[image(i) for i in range(5)], videos=[VIDEO])
    p = build_prompt("u", "T", "A\nB\nC", dom.images[:3], dom.videos)  # images 3 and 4 not shown
    applied = apply_choice(PageChoice(images=["I3", "I1"], videos=[], text_blocks=["T3", "T1"]), p, dom, "llm:m")
    out = applied.extraction
    assert [m.url for m in out.images] == [dom.images[i].url for i in (0, 2, 3, 4)]
    assert out.videos == [] and out.text == "A\nC" and out.extractor == "llm:m"


def test_apply_choice_missing_keys_keep_the_dom_lists_and_text() -> None:
    dom = Extraction(title="T", text="dom text", images=[image(1)], videos=[VIDEO])
    p = build_prompt("u", "T", "A", dom.images, dom.videos)
    out = apply_choice(PageChoice(), p, dom, "llm:m").extraction
    assert out.images == dom.images and out.videos == dom.videos and out.text == "dom text"

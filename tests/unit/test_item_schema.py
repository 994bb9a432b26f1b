"""The item's JSON Schema (`bara_scrapy/item.schema.json`) and the pydantic model say the same thing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel

from bara_scrapy.items import SCHEMA_PATH, Attempt, Comment, Media, PageItem

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
README = Path(__file__).resolve().parents[2] / "README.md"
OBJECTS: list[tuple[str, type[BaseModel], dict[str, Any]]] = [
    ("item", PageItem, SCHEMA),
    ("Media", Media, SCHEMA["$defs"]["media"]),
    ("Attempt", Attempt, SCHEMA["$defs"]["attempt"]),
    ("Comment", Comment, SCHEMA["$defs"]["comment"]),
]


@pytest.mark.parametrize(("name", "model", "schema"), OBJECTS, ids=[o[0] for o in OBJECTS])
def test_the_schema_has_exactly_the_model_fields(name: str, model: type[BaseModel], schema: dict[str, Any]) -> None:
    fields, properties = set(model.model_fields), set(schema["properties"])
    assert fields - properties == set(), f"add these {name} fields to {SCHEMA_PATH.name}"
    assert properties - fields == set(), f"{SCHEMA_PATH.name} names {name} fields the model does not have"
    assert set(schema["required"]) <= fields and schema["additionalProperties"] is False


# The README's item row says a comment is `{author, text}`; the other three have tables of their own.
TABLES = [o for o in OBJECTS if o[0] != "Comment"]


@pytest.mark.parametrize(("name", "model", "schema"), TABLES, ids=[o[0] for o in TABLES])
def test_the_readme_tables_name_every_field(name: str, model: type[BaseModel], schema: dict[str, Any]) -> None:
    header = "| field |" if name == "item" else f"| {name} field |"
    lines = README.read_text(encoding="utf-8").split(header, 1)[1].split("\n\n", 1)[0].splitlines()
    named = {n for line in lines[2:] for n in re.findall(r"`([a-z_]+)`", line.split("|")[1])}
    assert named == set(model.model_fields), f"the README's {name} table"


def full_item() -> PageItem:
    media = Media(url="https://example.org/a.jpg", kind="image", found_in=["img@src"], verified=True, bytes=10)
    attempt = Attempt(n=1, instructions="first try", actions={"scroll_steps": 12}, diagnosis=["empty_text"])
    return PageItem(
        url="https://example.org/", depth=0, bfs_index=0, status="ok", http_status=200, title="t", text="x",
        markdown="x", document_title="Site", comments=[Comment(author="ann", text="Nice."), Comment(text="Thanks")],
        images=[media], rejected_media=[media.model_copy(update={"reason": "not_image"})],
        attempts=[attempt],
    )


def test_an_item_of_the_model_validates() -> None:
    jsonschema.validate(json.loads(full_item().model_dump_json()), SCHEMA)


@pytest.mark.parametrize(
    "change",
    [
        {"status": "done"},
        {"bfs_index": -1},
        {"unknown": 1},
        {"images": [{"url": "u", "kind": "image", "found_in": ["img@src"], "verified": True, "extra": 1}]},
        {"attempts": [{"n": 0, "instructions": "", "actions": {}, "diagnosis": []}]},
        {"comments": [{"author": "ann"}]},
        {"comments": [{"text": "x", "likes": 3}]},
    ],
)
def test_the_schema_rejects_what_the_model_rejects(change: dict[str, Any]) -> None:
    raw = {**json.loads(full_item().model_dump_json()), **change}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(raw, SCHEMA)
    with pytest.raises(ValueError):
        PageItem.model_validate(raw)

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.steps import (
    JsonSegmenter,
    ParagraphSegmenter,
    Step,
    find_json_object,
    join_steps,
)


def test_paragraphs_and_list_items_become_steps() -> None:
    text = "Intro line.\n\nStep 1: a\nStep 2: b\n\n- one\n- two\n1. first\n2) second"
    steps = ParagraphSegmenter().split(text)
    assert [s.text for s in steps] == [
        "Intro line.",
        "Step 1: a",
        "Step 2: b",
        "- one",
        "- two",
        "1. first",
        "2) second",
    ]
    assert join_steps(steps) == text


def test_lines_inside_a_paragraph_stay_together() -> None:
    steps = ParagraphSegmenter().split("We have\n3x = 15\n\nSo x = 5")
    assert [s.text for s in steps] == ["We have\n3x = 15", "So x = 5"]


def test_json_segmenter_finds_the_object_in_a_fence() -> None:
    text = 'Here you go:\n```json\n{"a": {"b": [1, 2]}}\n```\nDone.'
    steps = JsonSegmenter().split(text)
    assert '{"a": {"b": [1, 2]}}' in [s.text for s in steps]
    assert join_steps(steps) == text


def test_json_segmenter_without_object_keeps_text_whole() -> None:
    assert JsonSegmenter().split("no json here") == [Step("no json here", "")]


def test_find_json_object_skips_arrays_and_invalid_braces() -> None:
    text = 'x {oops} [1] {"k": 1}'
    span = find_json_object(text)
    assert span is not None
    assert text[span[0] : span[1]] == '{"k": 1}'


@settings(max_examples=300)
@given(st.text())
def test_paragraph_segmentation_round_trips(text: str) -> None:
    steps = ParagraphSegmenter().split(text)
    assert join_steps(steps) == text
    assert all(step.text or step.separator for step in steps)


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list('{}[]":,ab 1\n`json'))))
def test_json_segmentation_round_trips(text: str) -> None:
    assert join_steps(JsonSegmenter().split(text)) == text


@settings(max_examples=100)
@given(
    st.lists(
        st.text(alphabet="abc xyz=+-0123456789", min_size=1).map(str.strip).filter(bool),
        min_size=1,
        max_size=6,
    )
)
def test_numbered_steps_are_split_one_per_item(items: list[str]) -> None:
    text = "\n".join(f"Step {i + 1}: {item}" for i, item in enumerate(items))
    steps = ParagraphSegmenter().split(text)
    assert len(steps) == len(items)

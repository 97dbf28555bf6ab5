"""Property tests of the JSON verifier: prompt round trips, object checks, no crash on any text."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stepcache_integrations.core.steps import JsonSegmenter, ParagraphSegmenter, Step
from stepcache_integrations.core.tasks.json_object.verifier import (
    _NOT_FIXED_KEYS,
    JsonVerifier,
    parse_json_request,
)
from stepcache_integrations.core.verifiers.base import Verdict, VerifyContext

# Words the parser reads as grammar, not keys; generated bare keys avoid them.
_GRAMMAR = _NOT_FIXED_KEYS | {"set", "equal", "equals", "true", "false", "null", "needs"}

bare_keys = st.from_regex(r"[a-z][a-z0-9_]{0,9}|[a-z]{1,6}[A-Z][a-z]{1,6}", fullmatch=True).filter(
    lambda k: k.lower() not in _GRAMMAR
)
quoted_keys = st.text(
    st.characters(exclude_characters='"\n\r', codec="utf-8"), min_size=1, max_size=20
).filter(lambda k: k == k.strip() and k.strip() != "")
text_values = st.text(st.characters(exclude_characters='"\n\r', codec="utf-8"), max_size=30)
values = st.one_of(
    text_values,
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
)


def _unique_lower(keys: list[str]) -> bool:
    return len({k.lower() for k in keys}) == len(keys)


def _value_text(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, float):
        return repr(value)
    return json.dumps(value)


def _bare_list(keys: list[str]) -> str:
    return keys[0] if len(keys) == 1 else ", ".join(keys[:-1]) + " and " + keys[-1]


KEY_TEMPLATES = [
    lambda keys: f"Return a JSON object with keys {_bare_list(keys)}.",
    lambda keys: "Give me JSON with the keys " + ", ".join(f'"{k}"' for k in keys) + ".",
    lambda keys: "Output a json object.\nkeys: " + ", ".join(keys) + "\nThanks.",
    lambda keys: "Produce JSON with fields " + ", ".join(keys) + ".",
    lambda keys: "Return JSON with these keys:\n" + "\n".join(f"- {k}" for k in keys) + "\n",
]
QUOTED_KEY_TEMPLATES = [KEY_TEMPLATES[1]]

FIXED_TEMPLATES = [
    lambda k, v: f'"{k}" set to {v}.',
    lambda k, v: f"{k} must be {v}.",
    lambda k, v: f"It has {k} equal to {v}.",
    lambda k, v: f'Use "{k}": {v}.',
    lambda k, v: f"Do it with {k} = {v}.",
    lambda k, v: f"Set {k} to {v}.",
    lambda k, v: f"Only rows where {k} is {v}.",
]
QUOTED_FIXED_TEMPLATES = [FIXED_TEMPLATES[0], FIXED_TEMPLATES[3]]


@st.composite
def requests(draw: st.DrawFn, quoted: bool = False) -> tuple[str, list[str], dict[str, Any]]:
    """A prompt with its required keys and fixed values, rendered through random templates."""
    key_strategy = quoted_keys if quoted else bare_keys
    keys = draw(st.lists(key_strategy, min_size=1, max_size=5, unique_by=str.lower))
    fixed_keys = draw(st.lists(key_strategy, max_size=3, unique_by=str.lower))
    fixed_keys = [k for k in fixed_keys if k.lower() not in {r.lower() for r in keys}]
    # A fixed key may also be a required key.
    fixed_keys += draw(st.lists(st.sampled_from(keys), max_size=2, unique=True))
    fixed = {k: draw(values) for k in fixed_keys}
    key_templates = QUOTED_KEY_TEMPLATES if quoted else KEY_TEMPLATES
    fixed_templates = QUOTED_FIXED_TEMPLATES if quoted else FIXED_TEMPLATES
    parts = [draw(st.sampled_from(key_templates))(keys)]
    for key, value in fixed.items():
        template = draw(st.sampled_from(fixed_templates))
        parts.append(template(key, _value_text(value)))
    return " ".join(parts), keys, fixed


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


@given(requests())
def test_parse_recovers_bare_keys_and_values(case: tuple[str, list[str], dict[str, Any]]) -> None:
    prompt, keys, fixed = case
    request = parse_json_request(prompt)
    assert request is not None
    assert request.required_keys == tuple(keys)
    assert request.fixed_values.keys() == fixed.keys()
    for key, value in fixed.items():
        assert _same(request.fixed_values[key], value), (key, request.fixed_values[key], value)


@given(requests(quoted=True))
def test_parse_recovers_quoted_keys_and_values(
    case: tuple[str, list[str], dict[str, Any]],
) -> None:
    prompt, keys, fixed = case
    request = parse_json_request(prompt)
    assert request is not None
    assert request.required_keys == tuple(keys)
    assert request.fixed_values.keys() == fixed.keys()
    for key, value in fixed.items():
        assert _same(request.fixed_values[key], value)


def _build_object(keys: list[str], fixed: dict[str, Any]) -> dict[str, Any]:
    obj: dict[str, Any] = {key: f"value {i}" for i, key in enumerate(keys)}
    obj.update(fixed)
    return obj


@given(requests(), st.booleans(), st.data())
def test_built_objects_pass_and_broken_ones_fail(
    case: tuple[str, list[str], dict[str, Any]], fenced: bool, data: st.DataObject
) -> None:
    prompt, keys, fixed = case
    verifier = JsonVerifier()
    ctx = VerifyContext(prompt)

    def render(obj: dict[str, Any]) -> str:
        text = json.dumps(obj, indent=2)
        return f"Here it is:\n```json\n{text}\n```\n" if fenced else text

    obj = _build_object(keys, fixed)
    assert verifier.check_answer(ctx, render(obj)).passed

    missing = data.draw(st.sampled_from(keys))
    without = {k: v for k, v in obj.items() if k != missing}
    verdict = verifier.check_answer(ctx, render(without))
    assert verdict.failed
    assert f"'{missing}'" in verdict.reason

    if fixed:
        key = data.draw(st.sampled_from(sorted(fixed)))
        changed = dict(obj)
        changed[key] = "__changed__" if fixed[key] != "__changed__" else "other"
        verdict = verifier.check_answer(ctx, render(changed))
        assert verdict.failed
        assert f"'{key}' is" in verdict.reason


@given(requests(), st.data())
def test_adapted_step_passes_when_only_fixed_values_differ(
    case: tuple[str, list[str], dict[str, Any]], data: st.DataObject
) -> None:
    prompt, keys, fixed = case
    obj = _build_object(keys, fixed)
    for key in fixed:
        obj[key] = "stale"
    indent = data.draw(st.sampled_from([None, 2, 4]))
    step = Step(json.dumps(obj, indent=indent), "")
    verifier = JsonVerifier()
    ctx = VerifyContext(prompt)
    adapted = verifier.adapt_step(ctx, step)
    if all(_same(v, "stale") for v in fixed.values()):
        assert adapted is None  # nothing to change
        return
    assert adapted is not None
    assert verifier.check_step(ctx, adapted, 0, [adapted]).passed
    assert list(json.loads(adapted.text)) == list(obj)  # key order kept
    assert ("\n" in adapted.text) == (indent is not None)


# Text that looks a little like prompts and answers, to reach deep into the parsers.
_FRAGMENTS = st.sampled_from(
    [
        "{", "}", "[", "]", '"', "'", ":", ",", " ", "\n", "```json\n", "```", "json", "JSON",
        "keys", "key", "fields", " where ", " is ", " and ", "set to ", " must be ", "=", '"a"',
        "a", "age", "3", "-1.5e3", "true", "null", "\\", "\ud800", "é", "“", "”", "{}", '{"a": 1}',
    ]
)  # fmt: skip
arbitrary_text = st.one_of(
    st.text(st.characters(exclude_categories=())),
    st.lists(_FRAGMENTS, max_size=40).map("".join),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=10,
    ).map(json.dumps),
)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(arbitrary_text, st.one_of(st.none(), arbitrary_text), arbitrary_text)
def test_no_exception_on_arbitrary_text(request: str, cached: str | None, answer: str) -> None:
    for verifier in (JsonVerifier(), JsonVerifier({"type": "object", "required": ["a"]})):
        parse_json_request(request)
        assert isinstance(verifier.applies_to(request), bool)
        ctx = VerifyContext(request, cached)
        for segmenter in (JsonSegmenter(), ParagraphSegmenter()):
            steps = segmenter.split(answer)
            for i, step in enumerate(steps):
                assert isinstance(verifier.check_step(ctx, step, i, steps), Verdict)
                adapted = verifier.adapt_step(ctx, step)
                assert adapted is None or isinstance(adapted, Step)
                patch = verifier.partial_patch(ctx, step)
                if patch is not None:
                    patch.merge(answer)
        verdict = verifier.check_answer(ctx, answer)
        assert isinstance(verdict, Verdict)
        instruction = verifier.repair_instruction(ctx, answer, verdict)
        assert instruction is None or instruction.startswith("Return only")
        assert verifier.fallback(ctx) is None

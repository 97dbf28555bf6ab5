"""JSON verifier: the answer is one JSON object with the keys and values the request asks for.

What the request asks for is read from the prompt ("a JSON object with keys name, age and city
where status is "active"") and from an optional JSON Schema (or Pydantic model) given by the
caller: see :mod:`~stepcache_integrations.core.tasks.json_object.request`, which also explains why
prompt parsing is conservative. Finding the object in an answer and writing an edited one back
live in :mod:`~stepcache_integrations.core.tasks.json_object.answer`.

Keys with a fixed value are not required by that alone: the value is checked when the key is
present (the prompt's key list or the schema's ``required`` say which keys must be present).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from pydantic import BaseModel
from referencing.exceptions import Unresolvable

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.json_object.answer import (
    LocatedObject,
    locate_object,
    looks_like_object,
    object_decode_error,
    object_span,
    replace_object,
    salvage_object,
)
from stepcache_integrations.core.tasks.json_object.changes import (
    FAMILY,
    STATED,
    Dependence,
    dependence,
    outside_text,
    presentation_only,
    stated_keys,
    unchecked_text,
    untraced_change,
)
from stepcache_integrations.core.tasks.json_object.request import (
    _NOT_FIXED_KEYS as _NOT_FIXED_KEYS,  # re-exported: the property tests read it here
)
from stepcache_integrations.core.tasks.json_object.request import (
    JsonRequest,
    parse_json_request,
    same_json_value,
)
from stepcache_integrations.core.tasks.json_object.schema import (
    object_schema,
    partial_schema,
    wants_only_json,
)
from stepcache_integrations.core.tasks.json_object.tracing import stated_spellings
from stepcache_integrations.core.tasks.output_format import asks_for_json
from stepcache_integrations.core.verifiers.base import (
    PartialPatch,
    Verdict,
    Verifier,
    VerifyContext,
)

__all__ = ["JsonRequest", "JsonVerifier", "SchemaLike", "parse_json_request"]

SchemaLike = Mapping[str, Any] | type[BaseModel]


# --------------------------------------------------------------------------- answer checks


def _schema_from(schema: object, where: str) -> dict[str, Any]:
    """A validated, JSON-clean copy of a schema dict or a Pydantic model's schema."""
    raw: object
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        try:
            raw = schema.model_json_schema()
        except Exception as exc:  # pydantic raises several error types for unsupported fields
            raise ValueError(
                f"{where}: cannot build a JSON Schema from {schema.__name__}: {exc}"
            ) from exc
    elif isinstance(schema, Mapping):
        raw = schema
    else:
        raise ValueError(
            f"{where}: expected a JSON Schema dict or a Pydantic model class, "
            f"got {type(schema).__name__}"
        )
    try:
        clean = json.loads(json.dumps(raw, allow_nan=False))
        Draft202012Validator.check_schema(clean)
    except SchemaError as exc:
        raise ValueError(f"{where}: invalid JSON Schema: {exc.message}") from exc
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"{where}: the schema is not plain JSON: {exc}") from exc
    if not isinstance(clean, dict):  # pragma: no cover - a Mapping always dumps to an object
        raise ValueError(f"{where}: a JSON Schema must be an object")
    return clean


def _validator(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _schema_error(validator: Draft202012Validator, obj: object) -> str | None:
    try:
        error = next(iter(validator.iter_errors(obj)), None)
    except RecursionError:
        return "the object is too deeply nested to validate against the schema"
    except (Unresolvable, ValueError, TypeError) as exc:
        return f"the JSON Schema could not be applied: {_shorten(str(exc))}"
    if error is None:
        return None
    return f"schema error at {error.json_path}: {_shorten(error.message)}"


def _lookup(obj: Mapping[str, Any], key: str) -> str | None:
    """``key`` as spelled in ``obj``: exact, else the one case-insensitive match."""
    if key in obj:
        return key
    matches = [k for k in obj if k.lower() == key.lower()]
    return matches[0] if len(matches) == 1 else None


def _mentions(text: str, key: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(key)}(?!\w)", text, re.IGNORECASE) is not None


def _render(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _keys_text(keys: Sequence[str]) -> str:
    return ", ".join(f"'{k}'" for k in keys)


@dataclass(frozen=True)
class _Expectation:
    """The effective request: prompt + schema, and keys the cached request had but not this;
    ``previous`` is the cached request read the same way (``None`` for a fresh answer)."""

    request: JsonRequest
    schema: dict[str, Any] | None
    validator: Draft202012Validator | None
    removed: tuple[str, ...]
    previous: JsonRequest | None = None


@dataclass
class _Problems:
    missing: list[str] = field(default_factory=list)
    wrong: list[tuple[str, object, object]] = field(default_factory=list)
    schema_error: str | None = None
    removed: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)

    def reasons(self) -> list[str]:
        reasons: list[str] = []
        if self.missing:
            plural = "s" if len(self.missing) > 1 else ""
            reasons.append(f"missing required key{plural} {_keys_text(self.missing)}")
        reasons.extend(
            f"'{key}' is {_render(actual)} but must be {_render(expected)}"
            for key, actual, expected in self.wrong
        )
        if self.schema_error:
            reasons.append(self.schema_error)
        reasons.extend(f"key '{key}' is no longer requested" for key in self.removed)
        if self.extra:
            reasons.append(
                f"unexpected key{'s' if len(self.extra) > 1 else ''} {_keys_text(self.extra)}"
                " (the prompt asks for exactly its keys)"
            )
        return reasons


def _problems(obj: Mapping[str, Any], expect: _Expectation) -> _Problems:
    problems = _Problems()
    problems.missing = [k for k in expect.request.required_keys if k not in obj]
    for key, expected in expect.request.fixed_values.items():
        actual_key = _lookup(obj, key)
        if actual_key is not None and not same_json_value(obj[actual_key], expected):
            problems.wrong.append((actual_key, obj[actual_key], expected))
    if expect.validator is not None:
        problems.schema_error = _schema_error(expect.validator, dict(obj))
    problems.removed = [k for k in expect.removed if k in obj]
    if expect.request.exact_keys:
        allowed = set(expect.request.required_keys) | set(expect.request.fixed_values)
        problems.extra = [k for k in obj if k not in allowed and k not in problems.removed]
    return problems


def _apply_request(obj: Mapping[str, Any], expect: _Expectation) -> tuple[dict[str, Any], bool]:
    """``obj`` with removed keys dropped and fixed values set; and whether anything changed."""
    edited = dict(obj)
    changed = False
    allowed = set(expect.request.required_keys) | set(expect.request.fixed_values)
    for key in list(edited):
        # Keys no longer requested, or outside a closed key list ("exactly the keys ..."),
        # can be dropped without asking the model.
        if key in expect.removed or (expect.request.exact_keys and key not in allowed):
            del edited[key]
            changed = True
    required = expect.request.required_keys
    for key, value in expect.request.fixed_values.items():
        actual = _lookup(edited, key)
        if actual is None and key in required:
            actual = key  # a required key whose value the request gives: no model needed
        if actual is not None and not (actual in edited and same_json_value(edited[actual], value)):
            edited[actual] = value
            changed = True
    return edited, changed


def _worth_a_partial(obj: Mapping[str, Any], asked: Sequence[str], around: int) -> bool:
    """Whether asking only for the values of ``asked`` pays: what the model would not write
    again (the values of ``obj`` kept, and the ``around`` characters of text around the
    object: a fence, a lead-in) is at least as long as the values it is asked for. The call
    also carries an instruction and the conversation again, so a reply nearly as long as the
    answer would cost more than a fresh one."""
    again = {key: obj[key] for key in asked if key in obj}
    kept = {key: value for key, value in obj.items() if key not in again}
    return len(_render(kept)) + around >= len(_render(again))


def _dependence(ctx: VerifyContext, expect: _Expectation) -> Dependence | None:
    return dependence(ctx, expect.previous, expect.request)


def _dependents(obj: Mapping[str, Any], expect: _Expectation, ctx: VerifyContext) -> list[str]:
    """The keys of ``obj`` that a change may determine (see :func:`dependence`): every key
    whose value the request does not state: as a fixed value, or (when the request changed
    only in values the object holds, see ``changes.stated_keys``) as the very value, in any
    phrasing."""
    stated = {_lookup(obj, key) for key in expect.request.fixed_values}
    stated.update(stated_keys(ctx, obj))
    return [key for key in obj if key not in stated]


def _partial_keeps_stated(ctx: VerifyContext, obj: Mapping[str, Any]) -> bool:
    """Whether a partial call may keep the values of ``obj`` after a change of a value the
    answer took from the request: the object must carry every such changed value (else the
    change is to an input the model may have used anywhere: the model answers). The keys
    are the cached answer's own; each value the new request does not state is asked again."""
    return untraced_change(ctx, obj) is None


def _stated_change(ctx: VerifyContext) -> bool:
    """Whether a change is one of a value the answer took from the request (any phrasing)."""
    return any(a.family == FAMILY and a.what == STATED for a in ctx.accounts)


def _in_request_order(keys: Sequence[str], request: JsonRequest) -> list[str]:
    """``keys``, those the request lists first and in its order, then the others as given."""
    listed = [key for key in request.required_keys if key in keys]
    return [*listed, *(key for key in keys if key not in listed)]


# --------------------------------------------------------------------------- the verifier


class JsonVerifier(Verifier):
    """Checks that an answer is one JSON object with the requested keys and values.

    Required keys and fixed values come from the prompt and from an optional JSON Schema or
    Pydantic model (``schema``); a per-call schema in ``ctx.options["json_schema"]`` wins.

    Example:
        >>> v = JsonVerifier()
        >>> ctx = VerifyContext('Return a JSON object with keys name, age where status is "on"')
        >>> v.check_answer(ctx, '{"name": "Ana", "age": 3, "status": "on"}').passed
        True
        >>> v.check_answer(ctx, '{"name": "Ana"}').reason
        "missing required key 'age'"
    """

    name = "json"

    _OPTION_CACHE_SIZE = 32

    def __init__(self, schema: SchemaLike | None = None) -> None:
        self._schema = None if schema is None else _schema_from(schema, "JsonVerifier(schema)")
        self._validator = None if self._schema is None else _validator(self._schema)
        # Per-call schemas validated once each (check_schema is not free).
        self._option_cache: dict[str, tuple[dict[str, Any], Draft202012Validator]] = {}

    @property
    def schema(self) -> dict[str, Any] | None:
        """The constructor's JSON Schema (a copy), or ``None``."""
        return None if self._schema is None else json.loads(json.dumps(self._schema))

    # -- request analysis ------------------------------------------------------------------

    def _schema_for(
        self, ctx: VerifyContext
    ) -> tuple[dict[str, Any] | None, Draft202012Validator | None]:
        option = ctx.options.get("json_schema") if isinstance(ctx.options, Mapping) else None
        if option is None:
            return self._schema, self._validator
        schema = _schema_from(option, "options['json_schema']")
        key = json.dumps(schema, sort_keys=True)
        cached = self._option_cache.get(key)
        if cached is None:
            if len(self._option_cache) >= self._OPTION_CACHE_SIZE:
                self._option_cache.pop(next(iter(self._option_cache)))
            cached = (schema, _validator(schema))
            self._option_cache[key] = cached
        return cached

    def parse_request(self, request: str, options: Mapping[str, Any]) -> JsonRequest | None:
        """What ``request`` (with the schema of this verifier or of the call's options) asks
        of a JSON answer; ``None`` when it asks for none."""
        schema, _ = self._schema_for(VerifyContext(request, options=dict(options)))
        return parse_json_request(request, schema)

    def _expect(self, ctx: VerifyContext) -> _Expectation | None:
        schema, validator = self._schema_for(ctx)
        request = parse_json_request(ctx.request, schema)
        if request is None:
            return None
        removed: tuple[str, ...] = ()
        cached = parse_json_request(ctx.cached_request, schema) if ctx.cached_request else None
        if cached is not None:
            known = set(request.required_keys)
            properties = (schema or {}).get("properties")
            if isinstance(properties, Mapping):
                known.update(properties)
            removed = tuple(
                k for k in cached.required_keys if k not in known and not _mentions(ctx.request, k)
            )
        return _Expectation(request, schema, validator, removed, cached)

    def change_dependence(self, ctx: VerifyContext) -> Dependence | None:
        """How the changes between ``ctx.cached_request`` and ``ctx.request`` bear on a reused
        object (see :func:`~stepcache_integrations.core.tasks.json_object.changes.dependence`);
        ``None`` when no value can depend on them or the request asks for no JSON."""
        expect = self._expect(ctx)
        return None if expect is None else _dependence(ctx, expect)

    def dependent_keys(self, ctx: VerifyContext, obj: Mapping[str, Any]) -> list[str]:
        """The keys of ``obj`` whose values a change of ``ctx`` may determine: after any change
        of what the request asks of the object (the key list included: an added key may
        take a part of a kept value), every key whose value the new request does not state
        (nested objects and arrays included, whole). Empty when nothing depends."""
        expect = self._expect(ctx)
        if expect is None:
            return []
        found = _dependence(ctx, expect)
        return [] if found is None else _dependents(obj, expect, ctx)

    def applies_to(self, request: str, options: Mapping[str, Any] | None = None) -> bool:
        """Whether the answer must be a JSON object: the prompt asks for JSON, or a schema is
        set (here or in the call's ``options["json_schema"]``)."""
        if self._schema is not None or (options and options.get("json_schema") is not None):
            return True
        return isinstance(request, str) and asks_for_json(request)

    def checks_answer(self, request: str) -> bool:
        return self.applies_to(request)

    def _verdict(
        self, located: LocatedObject, expect: _Expectation, index: int | None, prefix: str
    ) -> Verdict:
        if located.obj is None:
            return Verdict.fail(self.name, f"{prefix}{located.error}", index)
        reasons = _problems(located.obj, expect).reasons()
        if reasons:
            return Verdict.fail(self.name, "; ".join(reasons), index)
        return Verdict.ok(self.name, "JSON object has the requested keys and values", index)

    def check_step(
        self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]
    ) -> Verdict:
        """Check the step holding the JSON object; other steps are not applicable."""
        expect = self._expect(ctx)
        if expect is None:
            return Verdict.not_applicable(self.name, index)
        if object_span(step.text) is None:
            if looks_like_object(step.text):
                return Verdict.fail(self.name, f"step is {object_decode_error(step.text)}", index)
            return self._around(ctx, step, index, steps)
        others = sum(
            1 for i, other in enumerate(steps) if i != index and object_span(other.text) is not None
        )
        if others:
            return Verdict.fail(self.name, "the answer has more than one JSON object", index)
        return self._verdict(
            locate_object(step.text, whole_answer=False), expect, index, "step has "
        )

    def _around(self, ctx: VerifyContext, step: Step, index: int, steps: Sequence[Step]) -> Verdict:
        """A step beside the object (a lead-in) of a changed request passes when it says
        nothing but presentation and values the new request states (its numbers are then
        the request's own); otherwise the check does not apply to it."""
        if not ctx.changed:
            return Verdict.not_applicable(self.name, index)
        obj = next(
            (
                located.obj
                for other in steps
                if object_span(other.text) is not None
                and (located := locate_object(other.text, whole_answer=False)).obj is not None
            ),
            None,
        )
        if obj is None:
            return Verdict.not_applicable(self.name, index)
        values = stated_spellings(ctx.request, obj, stated_keys(ctx, obj))
        if presentation_only(step.text + step.separator, values=values):
            return Verdict.ok(self.name, "presentation and values the request states", index)
        return Verdict.not_applicable(self.name, index)

    def check_answer(self, ctx: VerifyContext, answer: str) -> Verdict:
        """The whole answer must hold exactly one JSON object that meets the request."""
        expect = self._expect(ctx)
        if expect is None:
            return Verdict.not_applicable(self.name)
        if not isinstance(answer, str):
            return Verdict.fail(self.name, f"answer is a {type(answer).__name__}, not text")
        return self._verdict(locate_object(answer, whole_answer=True), expect, None, "")

    def repair_instruction(self, ctx: VerifyContext, answer: str, failure: Verdict) -> str | None:
        """Ask only for the corrected object, naming what it must have and what was wrong."""
        expect = self._expect(ctx)
        if expect is None:
            return None
        request = expect.request
        needs: list[str] = []
        if request.required_keys:
            exactly = "exactly " if request.exact_keys else ""
            needs.append(f"It must have {exactly}the keys " + ", ".join(request.required_keys))
        needs.extend(f"{k} must be {_render(v)}" for k, v in request.fixed_values.items())
        parts = ["Return only the corrected JSON object."]
        if needs:
            parts.append("; ".join(needs) + ".")
        located = (
            locate_object(answer, whole_answer=True)
            if isinstance(answer, str)
            else LocatedObject(error="no JSON object found")
        )
        if located.obj is not None:
            problems = _problems(located.obj, expect)
            if problems.removed:
                parts.append(f"Remove {_keys_text(problems.removed)}: no longer requested.")
            wrong = problems.reasons()
        else:
            wrong = [located.error or "no JSON object found"]
        if expect.schema is not None:
            schema_text = json.dumps(expect.schema, separators=(",", ":"))
            if len(schema_text) <= 2000:
                parts.append(f"It must validate against this JSON Schema: {schema_text}")
        if not wrong and failure.reason:
            wrong = [failure.reason]
        if wrong:
            parts.append("What was wrong: " + "; ".join(wrong) + ".")
        return " ".join(parts)

    def adapt_step(self, ctx: VerifyContext, step: Step) -> Step | None:
        """Set fixed values and drop keys no longer requested, without a model call.

        Returns ``None`` when nothing changes or when a required key is missing (its value is
        unknown: see :meth:`partial_patch`).
        """
        expect = self._expect(ctx)
        if expect is None:
            return None
        located = locate_object(step.text, whole_answer=False)
        salvaged = located.obj is None
        if salvaged:
            # A model's object with syntax slips: read it leniently and write it back valid.
            located = salvage_object(step.text)
        if located.obj is None:
            return None
        obj, changed = _apply_request(located.obj, expect)
        if not (changed or salvaged) or any(key not in obj for key in expect.request.required_keys):
            return None
        return replace_object(step, located, obj)

    def partial_patch(self, ctx: VerifyContext, step: Step) -> PartialPatch | None:
        """Ask the model only for what the cached object cannot give, then merge it in: the
        values of missing required keys and, after a change the kept values may depend on
        (keys added or removed included), every value the new request does not state
        (:meth:`dependent_keys`), which then replaces the cached one. The model sees the new
        request and the values kept (the stated ones after a change: never a value it is
        asked to write again); its reply is held to a schema of those keys alone. The merged
        object lists the keys the request lists first, in its order.

        The merge also applies what :meth:`adapt_step` would (fixed values, removed keys).
        ``None`` when nothing is missing or depends on the change; and when the call could not
        make the step servable (text around the object may depend on the change) or would
        not pay: nothing is kept, or the values asked again are as long as the answer.
        """
        expect = self._expect(ctx)
        if expect is None:
            return None
        located = locate_object(step.text, whole_answer=False)
        if located.obj is None:
            located = salvage_object(step.text)
            if located.obj is None:
                return None
        edited, _ = _apply_request(located.obj, expect)
        missing = [key for key in expect.request.required_keys if key not in edited]
        found = _dependence(ctx, expect)
        dependents = [] if found is None else _dependents(edited, expect, ctx)
        if _stated_change(ctx) and not _partial_keeps_stated(ctx, edited):
            return None
        if found is not None:
            around = outside_text(step.text, (located.start, located.end), step.separator)
            values = stated_spellings(ctx.request, edited, stated_keys(ctx, edited))
            if unchecked_text(around, ctx.request, ctx.cached_request or "", found, values):
                return None
            rest = len(step.text) - (located.end - located.start)
            if dependents and not _worth_a_partial(edited, dependents, rest):
                return None
        asked = _in_request_order(
            [*dependents, *(key for key in missing if key not in dependents)], expect.request
        )
        if not asked:
            return None
        kept = {key: value for key, value in edited.items() if key not in dependents}
        context = json.dumps(kept, ensure_ascii=False)
        instruction = (
            f"Return only a JSON object with the keys {', '.join(map(_render, asked))} and "
            "their values for this request, and no other text."
        )
        if kept and len(context) <= 4000:
            instruction += f" They will be added to this object: {context}"
        added = [key for key in asked if key not in edited]
        order = _in_request_order([*edited, *added], expect.request)

        def merge(reply: str) -> Step | None:
            if not isinstance(reply, str):
                return None
            answer = locate_object(reply, whole_answer=True)
            if answer.obj is None:
                return None
            merged = dict(edited)
            for key in asked:
                actual = _lookup(answer.obj, key)
                if actual is None:
                    return None
                merged[key] = answer.obj[actual]
            return replace_object(step, located, {key: merged[key] for key in order})

        # After a change every part of the step that may depend on it is asked here: the
        # values not stated (the added keys among them) and nothing else but presentation.
        return PartialPatch(
            instruction,
            merge,
            partial_schema(asked, expect.schema, edited),
            regenerates_dependents=found is not None,
        )

    def fallback(self, ctx: VerifyContext) -> str | None:
        """The object itself when the request states the value of every key it may have
        (``exactly the keys "a" and "b", where "a" is 1 and "b" is "x"``); else ``None``."""
        expect = self._expect(ctx)
        if expect is None or not expect.request.exact_keys:
            return None
        request = expect.request
        if not request.required_keys or set(request.fixed_values) != set(request.required_keys):
            return None
        obj = {key: request.fixed_values[key] for key in request.required_keys}
        if expect.validator is not None and _schema_error(expect.validator, obj) is not None:
            return None
        return json.dumps(obj, ensure_ascii=False, indent=2)

    def response_schema(self, ctx: VerifyContext) -> dict[str, Any] | None:
        """For a request that wants only a JSON object: an object with the required keys, the
        fixed values as constants and, for a closed key list, no other keys (the caller's
        schema, when given, is the starting point)."""
        expect = self._expect(ctx)
        if expect is None or not (wants_only_json(ctx.request) or expect.schema is not None):
            return None
        return object_schema(expect.request, expect.schema)

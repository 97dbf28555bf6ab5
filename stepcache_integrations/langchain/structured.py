"""Structured output through the cache: ``StepCacheLLM(...).with_structured_output(Schema)``.

The schema decides the namespace and checks every answer, and a hit is parsed by the same
parser as a miss, from the same kind of message, so it returns exactly what a miss returns
(same types; LangChain's own caches lose the parsed object a provider hangs on a message).

How each ``method`` goes through the cache:

- ``"function_calling"`` (the default): the schema is bound as the one tool the model must
  call. The answer is a tool call, verified against the schema's JSON Schema (and a Pydantic
  model's own validation), re-instantiated when only values it copied from the request
  changed, and parsed by LangChain's tool parsers.
- ``"json_schema"`` and ``"json_mode"``: the inner model's own structured-output binding is
  asked (its provider's JSON mode), and the JSON text it answers is what is cached. The JSON
  family verifies it against the schema, rewrites changed values and asks the model for only
  a missing field (partial patches); LangChain's JSON or Pydantic parser reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.output_parsers import JsonOutputParser, PydanticOutputParser
from langchain_core.output_parsers.openai_tools import (
    JsonOutputKeyToolsParser,
    PydanticToolsParser,
)
from langchain_core.runnables import Runnable, RunnableMap, RunnablePassthrough
from langchain_core.utils.function_calling import convert_to_openai_tool
from langchain_core.utils.pydantic import is_basemodel_subclass

from stepcache_integrations.adapter import CopiedValuesOnly, ToolArgumentsVerifier
from stepcache_integrations.core.cache import as_verifier
from stepcache_integrations.core.verifiers.base import Verifier

__all__ = [
    "JSON_METHODS",
    "METHODS",
    "STRUCTURED_OUTPUT_KWARG",
    "StructuredOutput",
    "json_schema_of",
    "tool_parser",
    "with_parser",
]

STRUCTURED_OUTPUT_KWARG = "stepcache_structured_output"
"""Bound keyword carrying a structured output request to the wrapper's calls (never passed
on to the inner model)."""

METHODS = ("function_calling", "json_schema", "json_mode")
JSON_METHODS = ("json_schema", "json_mode")


def is_pydantic(schema: Any) -> bool:
    return isinstance(schema, type) and is_basemodel_subclass(schema)


def json_schema_of(schema: Any) -> dict[str, Any] | None:
    """The JSON Schema of a Pydantic model, TypedDict, OpenAI tool or JSON Schema dict."""
    if schema is None:
        return None
    if is_pydantic(schema):
        found: dict[str, Any] = schema.model_json_schema()
        return found
    if isinstance(schema, Mapping) and "properties" in schema and "function" not in schema:
        return dict(schema)
    parameters = convert_to_openai_tool(schema)["function"].get("parameters")
    return dict(parameters) if isinstance(parameters, Mapping) else None


@dataclass(frozen=True)
class StructuredOutput:
    """A structured output request, as bound to the wrapper (see the module docstring)."""

    schema: Any
    method: str
    strict: bool | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)

    def options(self) -> dict[str, Any]:
        """What the cache request gets: the schema (namespace and JSON checks) and how the
        output is asked for."""
        found: dict[str, Any] = {
            "structured_output": {"method": self.method, "strict": self.strict}
        }
        schema = json_schema_of(self.schema)
        if schema is not None and self.method in JSON_METHODS:
            found["json_schema"] = schema
        return found

    def parser(self) -> Runnable[Any, Any]:
        """LangChain's parser for this output: the same on a hit as on a miss."""
        if is_pydantic(self.schema):
            return PydanticOutputParser(pydantic_object=self.schema)
        return JsonOutputParser()

    def verifiers(self) -> list[Verifier]:
        """The checks of this output: a Pydantic model's own validation of the tool call's
        arguments (function calling); the JSON parser, and for a reused answer values copied
        from the new request only (JSON modes)."""
        if self.method == "function_calling":
            return [ToolArgumentsVerifier(self.schema)] if is_pydantic(self.schema) else []
        return [as_verifier(self.parser()), CopiedValuesOnly()]

    def inner(self, llm: Any) -> Runnable[Any, Any]:
        """The inner model's own structured-output runnable, its raw message included."""
        extra = dict(self.kwargs)
        if self.strict is not None:
            extra["strict"] = self.strict
        runnable: Runnable[Any, Any] = llm.with_structured_output(
            self.schema, method=self.method, include_raw=True, **extra
        )
        return runnable

    def raw_message(self, output: Any) -> AIMessage:
        """The raw message out of the inner runnable's ``{"raw", "parsed", ...}`` output."""
        raw = output.get("raw") if isinstance(output, Mapping) else output
        if not isinstance(raw, AIMessage):
            raise TypeError(
                f"the inner model's structured output gave no raw message: {type(raw).__name__}"
            )
        return raw


def tool_parser(schema: Any) -> Runnable[Any, Any]:
    """LangChain's parser of the schema's tool call (as its own ``with_structured_output``)."""
    if is_pydantic(schema):
        return PydanticToolsParser(tools=[schema], first_tool_only=True)
    name = convert_to_openai_tool(schema)["function"]["name"]
    return JsonOutputKeyToolsParser(key_name=name, first_tool_only=True)


def with_parser(
    bound: Runnable[Any, Any], parser: Runnable[Any, Any], *, include_raw: bool
) -> Runnable[Any, Any]:
    """``bound | parser``, or with ``include_raw`` the ``{"raw", "parsed", "parsing_error"}``
    form LangChain's own ``with_structured_output`` gives."""
    if not include_raw:
        return bound | parser
    parser_assign = RunnablePassthrough.assign(
        parsed=itemgetter("raw") | parser, parsing_error=lambda _: None
    )
    parser_none = RunnablePassthrough.assign(parsed=lambda _: None)
    with_fallback = parser_assign.with_fallbacks([parser_none], exception_key="parsing_error")
    return RunnableMap(raw=bound) | with_fallback

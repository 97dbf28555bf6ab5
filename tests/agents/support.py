"""A small world for agent tests: real tools over a weather table and a flight desk, and
scripted tool-calling "brains" for both frameworks (SIMULATED models: they decide by regular
expressions which tool to call with which arguments, and answer from the tool results).

The brains choose a tool by the words of a request ("weather in", "forecast", "Book",
"Cancel"), never by a value: every tool here is pure (see ``docs/agents.md``), and the tests
that re-instantiate calls declare it (``langchain_tools(pure=True)``, ``pure_tools=PURE``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import StructuredTool
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool

from stepcache_integrations import StepCache, StepCacheRecord
from stepcache_integrations.langchain import PURE_TOOL_METADATA_KEY

CITY = re.compile(r"weather in ([A-Za-z]+)")
FORECAST = re.compile(r"forecast for ([A-Za-z]+) tomorrow")
BOOK = re.compile(r"Book a flight to ([A-Z][a-z]+) on (\d{4}-\d{2}-\d{2})")
CANCEL = re.compile(r"Cancel the flight to ([A-Z][a-z]+) on (\d{4}-\d{2}-\d{2})")
TOMORROW = "2025-06-02"
PURE = ("get_weather", "get_forecast", "book_flight", "cancel_flight")
"""The world's tools, all pure: the brains never choose by a value."""


class World:
    """What the tools act on; tests change it between runs and read what the tools did."""

    def __init__(self) -> None:
        self.weather = {"Paris": "18 C and sunny", "Berlin": "12 C and rain", "Rome": "25 C"}
        self.asked: list[str] = []
        self.booked: list[tuple[str, str]] = []
        self.cancelled: list[tuple[str, str]] = []

    def get_weather(self, city: str) -> str:
        """The current weather in a city."""
        self.asked.append(city)
        return f"{city}: {self.weather.get(city, 'unknown')}"

    def get_forecast(self, city: str, date: str) -> str:
        """The forecast for a city on a date (YYYY-MM-DD)."""
        self.asked.append(f"{city}@{date}")
        return f"{city} on {date}: {self.weather.get(city, 'unknown')}"

    def book_flight(self, destination: str, date: str) -> str:
        """Book a flight to a destination on a date (YYYY-MM-DD)."""
        self.booked.append((destination, date))
        return f"booked {destination} {date}"

    def cancel_flight(self, destination: str, date: str) -> str:
        """Cancel a flight to a destination on a date (YYYY-MM-DD)."""
        self.cancelled.append((destination, date))
        return f"cancelled {destination} {date}"

    def langchain_tools(self, pure: bool = False) -> list[StructuredTool]:
        """The tools for LangChain; ``pure``: declared pure in their metadata."""
        metadata = {PURE_TOOL_METADATA_KEY: True} if pure else None
        return [
            StructuredTool.from_function(func=fn, metadata=metadata)
            for fn in (self.get_weather, self.get_forecast, self.book_flight, self.cancel_flight)
        ]

    def llama_tools(self) -> list[FunctionTool]:
        return [
            FunctionTool.from_defaults(fn=fn)
            for fn in (self.get_weather, self.get_forecast, self.book_flight, self.cancel_flight)
        ]


def decide(text: str) -> tuple[str, dict[str, Any]] | None:
    """The SIMULATED brain's choice of tool for a user's request (None: answer in text)."""
    if match := FORECAST.search(text):
        return "get_forecast", {"city": match[1], "date": TOMORROW}  # the date is derived
    if match := CITY.search(text):
        return "get_weather", {"city": match[1]}
    if match := BOOK.search(text):
        return "book_flight", {"destination": match[1], "date": match[2]}
    if match := CANCEL.search(text):
        return "cancel_flight", {"destination": match[1], "date": match[2]}
    return None


def final_answer(tool_result: str) -> str:
    return f"Here is what I found: {tool_result}."


class Counter:
    """Counts the brain's model calls."""

    def __init__(self) -> None:
        self.calls = 0


def langchain_brain(counter: Counter) -> Any:
    """A responder for ``ScriptedToolModel``: calls a tool for the user's request, answers
    from a tool result."""

    def respond(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        counter.calls += 1
        last = messages[-1]
        if isinstance(last, ToolMessage):
            return AIMessage(content=final_answer(str(last.content)))
        choice = decide(str(last.content)) if kwargs.get("tools") else None
        if choice is None:
            return AIMessage(content="I can only help with weather and flights.")
        name, args = choice
        return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "x"}])

    return respond


def llama_brain(counter: Counter) -> Any:
    """A response generator for LlamaIndex's ``MockFunctionCallingLLM`` doing the same."""

    def respond(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        counter.calls += 1
        last = messages[-1]
        if last.role == MessageRole.TOOL:
            return ChatMessage(role="assistant", content=final_answer(str(last.content)))
        choice = decide(str(last.content)) if kwargs.get("tools") else None
        if choice is None:
            return ChatMessage(
                role="assistant", content="I can only help with weather and flights."
            )
        name, args = choice
        block = ToolCallBlock(
            tool_call_id=f"call_{uuid4().hex[:8]}", tool_name=name, tool_kwargs=args
        )
        return ChatMessage(role="assistant", blocks=[block])

    return respond


def llama_model(counter: Counter) -> MockFunctionCallingLLM:
    """The LlamaIndex brain as a ``FunctionCallingLLM``."""
    return MockFunctionCallingLLM(response_generator=llama_brain(counter), is_chat_model=True)


def recording_cache() -> tuple[StepCache, list[StepCacheRecord]]:
    records: list[StepCacheRecord] = []
    cache = StepCache()
    cache.add_listener(records.append)
    return cache, records

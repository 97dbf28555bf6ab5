"""Whether a re-instantiated tool call may depend on its rebound values in any other way.

A cached call is re-instantiated for a request that differs only in values the call copied
("weather in Paris" -> "weather in Berlin"): the values are rewritten, everything else is
kept: which tool is called, its other arguments, the text beside the calls. A rebound value
can change any of those, or make a good model answer in words instead: a system prompt that
lists the areas a shop delivers to, a tool result that lists the free rooms, a user who said
earlier that they are allergic to peanuts, a tool named ``get_europe_weather``, another tool
for amounts above 500. The family cannot read meaning, so it does not try to find such words;
it decides *structurally* when a copied value may be rebound at all. :func:`dependent_part`
names the first thing that may depend on the value, or returns ``None``.

**Every bound tool declared pure** (:data:`~.tools.PURE`): the caller promises that whether
the model calls each tool, and with which other arguments, does not depend on the values it
copies. The family takes them at their word for what their specs say (names, descriptions,
parameter constraints, a date's place in time, the other pure tools), and reads only what a
declaration made once for a tool cannot speak for: the texts of this conversation (below).

**Otherwise the value is rebound only where there is nothing it could meet**, read
closed-world (:mod:`.vocabulary`: an unknown word stops it, a known one is harmless):

1. the tool that is not pure is the only tool bound (another tool may be called instead of
   it or besides it for the new value, whatever its parameters take);
2. no turn comes before the request: no system prompt, no earlier message, no tool result;
3. the tool's spec says one thing besides its parameters: every word of its name is stated by
   its description or its parameters (or is a generic verb), and its name, description,
   signature line, parameters' names and descriptions together have at most one word that is
   neither a parameter's head nor generic, and that word is in its name ("weather" of
   ``get_weather(city)``: a second word may be a scope, "europe", "nba", "dental", and a
   subject cannot be told from a scope; a word only the description says may be one: ``pay``
   described "Domestic payees."); and the spec states no number (a limit: "up to 500",
   "a thousand", a default);
4. its parameters are unconstrained (no enum, pattern, format, minimum...: values that mean
   different things to the tool);
5. the rebound value is not a date or a time (past or future may make the tool refuse it, and
   the cache does not know today);
6. the request says nothing beyond the call: each of its words is a value of the calls, a word
   of the tool's spec, or a word of asking (:data:`~.vocabulary.CONVERSATION`).

**For every tool, pure or not**, what no declaration can promise, since it is in the
conversation or the answer itself:

- the turns before the request are known (the adapters pass them, ``""`` for a turn
  without text);
- the request states no condition and offers no choice, no earlier turn (the system prompt
  included) states a condition, and a rebound number is the only number in them
  (:mod:`.conditions`: "Pay 700 to Bob, by wire if above 500"; a system prompt "wire anything
  above 500");
- the text beside the calls only narrates: no condition or cause, and no word that neither the
  request, nor the called tools, nor plain narration have ("Paris, the French capital").

Example:
    >>> from stepcache_integrations.core.verifiers.base import VerifyContext
    >>> from stepcache_integrations.core.tasks.tool_call.document import DocumentCall
    >>> city = {"type": "object", "properties": {"city": {"type": "string"}}}
    >>> options = {"tools": [{"name": "get_weather", "description": "Current weather in a city.",
    ...                       "parameters": city}], "earlier_turns": []}
    >>> ctx = VerifyContext("Weather in Berlin?", "Weather in Paris?", options=options)
    >>> calls = (DocumentCall("get_weather", {"city": "Berlin"}),)
    >>> print(dependent_part(ctx, calls, "", {"Paris": "Berlin"}))
    None
    >>> options["tools"][0]["name"] = "get_europe_weather"
    >>> calls = (DocumentCall("get_europe_weather", {"city": "Berlin"}),)
    >>> print(dependent_part(ctx, calls, "", {"Paris": "Berlin"}))  # doctest: +NORMALIZE_WHITESPACE
    get_europe_weather: its name says what its description and parameters do not ('europe'),
    which may narrow the values it takes: 'Paris' -> 'Berlin' may change the call
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from stepcache_integrations.core.tasks.tool_call.conditions import (
    choices,
    conditions,
    numbers,
    temporal,
)
from stepcache_integrations.core.tasks.tool_call.document import DocumentCall
from stepcache_integrations.core.tasks.tool_call.literals import leaves, occurrences
from stepcache_integrations.core.tasks.tool_call.parameters import (
    constraint,
    descriptions,
    parameter_names,
)
from stepcache_integrations.core.tasks.tool_call.tools import EARLIER_TURNS, BoundTool, bound_tools
from stepcache_integrations.core.tasks.tool_call.vocabulary import (
    CONVERSATION,
    NARRATION,
    spec_words,
    unaccounted,
    value_words,
)
from stepcache_integrations.core.text.quantities import has_number
from stepcache_integrations.core.verifiers.base import VerifyContext

__all__ = ["dependent_part"]

_SHOWN = 4


def _few(items: Sequence[Any]) -> str:
    unique = list(dict.fromkeys(str(item) for item in items))
    return ", ".join(repr(item) for item in unique[:_SHOWN])


def _holds(leaf: Any, new: str) -> bool:
    """Whether a (rewritten) argument value holds the new text of a rebound value."""
    if isinstance(leaf, str):
        return occurrences(new, leaf) > 0
    if isinstance(leaf, int | float) and not isinstance(leaf, bool):
        return json.dumps(leaf) == new
    return False


def _texts(tool: BoundTool) -> Iterator[str]:
    """What a tool's spec says: its name, description, parameters' names and descriptions."""
    yield tool.name
    yield tool.description
    yield from parameter_names(tool.parameters)
    yield from descriptions(tool.parameters)


def _earlier(ctx: VerifyContext) -> list[str] | None:
    """The texts of the turns before the request, ``None`` when the adapter did not say
    (then nothing is known about them, and they may say anything)."""
    turns = ctx.options.get(EARLIER_TURNS)
    if not isinstance(turns, list | tuple):
        return None
    return [str(turn) for turn in turns]


def _in_turns(request: str, earlier: Sequence[str], changes: Mapping[str, str]) -> str | None:
    """A condition or a choice the request states, a condition an earlier turn states, or
    another number there that a rebound number may be compared with. Read for every tool:
    what the user asks now is what no pure declaration can speak for, and a system prompt or
    an earlier turn that states a threshold ("wire anything above 500") makes the value
    choose even between pure tools. (For a tool that is not pure, any earlier turn and any
    word of the request the call does not account for stop the rebinding anyway.)"""
    found = conditions(request) + choices(request)
    if found:
        return f"the request states a condition or a choice ({_few(found)})"
    for turn in earlier:
        found = conditions(turn)
        if found:
            return f"an earlier turn states a condition ({_few(found)})"
    rebound = [new for new in changes.values() if has_number(new)]
    if rebound:
        # A threshold is a number, in whatever words or language it is compared with; the
        # number a rebound value is part of ("07" of "2025-07-08") is none.
        others = [
            number
            for text in (request, *earlier)
            for number in numbers(text)
            if not any(occurrences(new, number) for new in rebound)
        ]
        if others:
            return (
                f"the request or an earlier turn states another number ({_few(others)}) that "
                f"{rebound[0]!r} may be compared with"
            )
    return None


def _alone(
    ctx: VerifyContext,
    tools: Sequence[BoundTool],
    tool: BoundTool,
    calls: Sequence[DocumentCall],
    changes: Mapping[str, str],
) -> str | None:
    """Why a value may not be rebound into a call of ``tool`` (not pure), points 1 to 6."""
    if len(tools) > 1:
        others = [other.name for other in tools if other is not tool]
        return (
            f"{tool.name} is not pure and other tools are bound ({_few(others)}): the value may "
            "choose which tool is called, or a call besides"
        )
    if _earlier(ctx):
        return (
            "turns come before the request (a system prompt, messages or tool results), and "
            "what they say about the value is not read"
        )
    limits = [number for text in _texts(tool) for number in numbers(text)]
    if limits:
        return (
            f"{tool.name}: its spec states a number ({_few(limits)}), which may be a limit "
            "on the values it takes"
        )
    spec = spec_words(tool.name, tool.description, tool.parameters)
    unstated = spec.unstated_name_words()
    if unstated:
        return (
            f"{tool.name}: its name says what its description and parameters do not "
            f"({_few(unstated)}), which may narrow the values it takes"
        )
    subjects = spec.subjects()
    if len(subjects) > 1:
        return (
            f"{tool.name}: its spec says more than one thing besides its parameters "
            f"({_few(subjects)}), and a word may narrow the values it takes"
        )
    if subjects and subjects[0] not in spec.name:
        # The one thing a spec says besides its parameters is its subject only when its
        # name says it too ("weather" of get_weather); else it may be a scope ("pay",
        # described "Domestic payees.").
        return (
            f"{tool.name}: its description says what its name does not ({subjects[0]!r}), "
            "which may narrow the values it takes"
        )
    narrowed = constraint(tool.parameters)
    if narrowed is not None:
        return (
            f"{tool.name}: a parameter is constrained ({narrowed}): its values differ in "
            "what they mean to the tool"
        )
    for old, new in changes.items():
        # The changed text may be a part of a date ("06" of "2025-06-10"): the value the
        # argument holds is what is or is not a date.
        held = [leaf for call in calls for leaf in leaves(call.arguments) if _holds(leaf, new)]
        if temporal(old) or temporal(new) or any(temporal(str(leaf)) for leaf in held):
            return (
                f"{tool.name}: {new!r} is (in) a date or a time, whose place in time (past or "
                "future) may decide the call, and the cache does not know today"
            )
    values = set().union(*(value_words(call.arguments) for call in calls))
    unknown = unaccounted(ctx.request, known=[], words=CONVERSATION | spec.all | values)
    if unknown:
        return (
            f"the request says what the call does not ({_few(unknown)}), and it may be about "
            "the value"
        )
    return None


def _in_content(request: str, called: Sequence[BoundTool], content: str) -> str | None:
    """Why the text beside the calls may depend on the rebound values, if it may. The
    condition words are read for a pure tool's texts: its spec may state one, which then
    counts as known."""
    if not content:
        return None
    stated = conditions(content)
    if stated:
        return f"the text beside the calls states a condition or a cause ({_few(stated)})"
    known = [request, *(text for tool in called for text in _texts(tool))]
    added = unaccounted(content, known=known, words=NARRATION)
    if added:
        return f"the text beside the calls says what the request does not ({_few(added)})"
    return None


def dependent_part(
    ctx: VerifyContext, calls: Sequence[DocumentCall], content: str, changes: Mapping[str, str]
) -> str | None:
    """What in a re-instantiated answer (``calls``, already rewritten, and the turn's
    ``content``) may depend on the rebound values ``changes`` (old text -> new text) beyond
    the values themselves, described for the record; ``None`` when nothing may (see the
    module docstring)."""
    shown = ", ".join(f"{old!r} -> {new!r}" for old, new in list(changes.items())[:_SHOWN])
    tools = bound_tools(ctx.options)
    by_name = {tool.name: tool for tool in tools}
    called: list[BoundTool] = []
    for call in calls:
        tool = by_name.get(call.name)
        if tool is None:
            return f"{call.name}: no tool of that name is bound"
        if tool not in called:
            called.append(tool)
    earlier = _earlier(ctx)
    if earlier is None:
        return (
            f"the turns before the request are not known (no {EARLIER_TURNS!r}): {shown} may "
            "change the call"
        )
    found = _in_turns(ctx.request, earlier, changes)
    impure = [tool for tool in tools if not tool.pure]
    if found is None and impure:
        # The called tool that is not pure, else the first bound one (it may be called).
        suspect = next((tool for tool in called if not tool.pure), impure[0])
        found = _alone(ctx, tools, suspect, calls, changes)
    if found is not None:
        return f"{found}: {shown} may change the call"
    found = _in_content(ctx.request, called, content)
    return f"{found}: it may follow from {shown}" if found is not None else None

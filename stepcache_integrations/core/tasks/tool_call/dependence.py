"""Whether a re-instantiated tool call may depend on its rebound values in any other way.

A cached call is re-instantiated for a request that differs only in values the call copied
("weather in Paris" -> "weather in Berlin"): the values are rewritten, everything else is
kept: which tool is called, its other arguments, the text beside the calls. That is sound only
where nothing can make those depend on the value. A rebound value can choose the tool ("amounts
above 500 must use wire_transfer", a past date that calls for the history instead of the
forecast), or another argument (the unit of a city's temperature), or what the turn's text
says. :func:`dependent_part` names the first thing that may, or returns ``None``:

1. **The request and the earlier turns** (a system prompt included) state no condition and,
   for the request, offer no choice (:func:`~.conditions.conditions`, :func:`~.conditions.
   choices`): "send 300 to Bob; above 500 use a wire" makes the amount choose. A rebound
   number is alone in its request: another number may be a threshold, in any words or
   language ("par virement si plus de 500").
2. **Every called tool that is not pure** has descriptions, a name and parameter names that
   state no condition or number and do not narrow it to some values (:func:`~.conditions.
   qualifiers`: "for US cities", ``weather_us``; a signature line's limits, as LlamaIndex
   writes them, count too), the parameter each rebound value sits in is not constrained (an
   enum, a pattern, a format, a minimum...: values that mean different things to the tool)
   and holds no date or time (past or future may choose the tool, and the cache does not
   know today), and none of its other arguments is an enum value picked among several the
   request names.
3. **No other tool that is not pure takes the value**: a tool with a parameter that could
   hold it (by type and constraints: a name does not tell what a parameter means, so any
   such parameter counts) may be the one the model calls for the new value; no tool that is
   not pure states a condition (it may be called besides), and no description names a tool
   that is not pure ("above 500, call request_approval first").
4. **The text beside the calls** states no condition or cause, and says nothing the request
   and the called tools do not already say, beyond plain narration ("I'll check the weather
   in Berlin."): anything more is the model's own and may follow from the old value.

A tool the caller declared *pure* (:data:`~.tools.PURE`) is taken at its word: whether the
model calls it, and with which other arguments, does not depend on the values it copies, so
point 2 is not asked of it, and it does not count in point 3. Points 1 and 4, and everything
the family checks anyway (every value spelled out in the new request and stated there once,
the schema, no tool result turn, no plain answer), hold for pure tools too.

Example:
    >>> from stepcache_integrations.core.verifiers.base import VerifyContext
    >>> from stepcache_integrations.core.tasks.tool_call.document import DocumentCall
    >>> transfer = {"type": "object", "properties": {"amount": {"type": "integer"}}}
    >>> options = {"tools": [
    ...     {"name": "send_money", "description": "Send money.", "parameters": transfer},
    ...     {"name": "wire_transfer", "description": "Amounts above 500.",
    ...      "parameters": transfer}]}
    >>> ctx = VerifyContext("Send 700 to Bob", "Send 300 to Bob", options=options)
    >>> calls = (DocumentCall("send_money", {"amount": 700}),)
    >>> print(dependent_part(ctx, calls, "", {"300": "700"}))
    wire_transfer takes '700' as well (by a parameter's type): the value may choose the tool
    >>> options["tools"] = options["tools"][:1]
    >>> print(dependent_part(ctx, calls, "", {"300": "700"}))
    None
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from stepcache_integrations.core.tasks.tool_call.conditions import (
    choices,
    conditions,
    identifier_words,
    name_qualifiers,
    names,
    numbers,
    qualifiers,
    signature_limits,
    split_signature,
    temporal,
    turn_conditions,
    unexplained,
)
from stepcache_integrations.core.tasks.tool_call.document import DocumentCall
from stepcache_integrations.core.tasks.tool_call.literals import found_in, occurrences
from stepcache_integrations.core.tasks.tool_call.parameters import (
    constraint,
    descriptions,
    parameter_at,
    takes,
)
from stepcache_integrations.core.tasks.tool_call.tools import (
    EARLIER_TURNS,
    BoundTool,
    bound_tools,
)
from stepcache_integrations.core.verifiers.base import VerifyContext

__all__ = ["dependent_part"]

Path = tuple[str | int, ...]
_SHOWN = 4
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:[.,]\d+)*(?![\w]|\.\d)")


def _few(items: Sequence[Any]) -> str:
    unique = list(dict.fromkeys(str(item) for item in items))
    return ", ".join(repr(item) for item in unique[:_SHOWN])


def _path_text(path: Path) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "$"


def _leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every scalar of an argument object, with where it sits."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _leaves(item, (*path, str(key)))
    elif isinstance(value, list | tuple):
        for position, item in enumerate(value):
            yield from _leaves(item, (*path, position))
    else:
        yield path, value


def _holds(leaf: Any, new: str) -> bool:
    """Whether a (rewritten) argument value holds the new text of a rebound value."""
    if isinstance(leaf, str):
        return occurrences(new, leaf) > 0
    if isinstance(leaf, int | float) and not isinstance(leaf, bool):
        return json.dumps(leaf) == new
    return False


def _tool_texts(tool: BoundTool) -> list[str]:
    """What a tool's spec says in words: its name, the prose of its description (without a
    leading signature line), and its parameters' names, titles and descriptions."""
    return [
        identifier_words(tool.name),
        split_signature(tool.description, tool.name)[1],
        *(identifier_words(text) if text.isidentifier() else text
          for text in descriptions(tool.parameters)),
    ]  # fmt: skip


def _names(tool: BoundTool) -> list[str]:
    """The tool's name and its parameters' names."""
    properties = tool.parameters.get("properties") if isinstance(tool.parameters, Mapping) else None
    return [tool.name, *(str(key) for key in properties or ())]


def _stated(tool: BoundTool) -> list[str]:
    """The conditions a tool's descriptions state, and the limits its signature shows."""
    found = [word for text in _tool_texts(tool) for word in conditions(text)]
    return found + signature_limits(split_signature(tool.description, tool.name)[0])


def _in_texts(ctx: VerifyContext, changes: Mapping[str, str]) -> str | None:
    """A condition or choice stated in the request or an earlier turn, or another number
    there that a rebound number may be compared with."""
    found = turn_conditions(ctx.request) + choices(ctx.request)
    if found:
        return f"the request states a condition or a choice ({_few(found)})"
    earlier = [str(turn) for turn in ctx.options.get(EARLIER_TURNS) or ()]
    for turn in earlier:
        found = turn_conditions(turn)
        if found:
            return f"an earlier turn states a condition ({_few(found)})"
    rebound = [new for new in changes.values() if _NUMBER.fullmatch(new)]
    if rebound:
        # A threshold is a number, in whatever words or language it is compared with; the
        # number a rebound value is part of ("07" of "2025-07-08") is none.
        others = [
            number
            for text in (ctx.request, *earlier)
            for number in numbers(text)
            if not any(occurrences(new, number) for new in rebound)
        ]
        if others:
            return (
                f"the request or an earlier turn states another number ({_few(others)}) that "
                f"{rebound[0]!r} may be compared with"
            )
    return None


class _Rebinding:
    """One re-instantiated answer: the bound tools, the rewritten calls, the changes."""

    def __init__(
        self, ctx: VerifyContext, calls: Sequence[DocumentCall], changes: Mapping[str, str]
    ) -> None:
        self.ctx = ctx
        self.calls = calls
        self.changes = dict(changes)
        self.tools = bound_tools(ctx.options)
        self.by_name = {tool.name: tool for tool in self.tools}

    def rebound_in(self, leaf: Any) -> list[tuple[str, str]]:
        """The changes (old, new) whose new value an argument value holds."""
        return [(old, new) for old, new in self.changes.items() if _holds(leaf, new)]

    def in_called_tool(self, call: DocumentCall, tool: BoundTool) -> str | None:
        """Why a call of a tool that is not pure may depend on a rebound value, if it may."""
        stated = _stated(tool)
        if stated:
            return f"{tool.name}: its description states a condition ({_few(stated)})"
        others = [name for name in self.by_name if name != tool.name]
        narrowing = [w for text in _tool_texts(tool) for w in qualifiers(text, tool_names=others)]
        narrowing += [w for name in _names(tool) for w in name_qualifiers(name)]
        if narrowing:
            return f"{tool.name}: its description narrows it to some values ({_few(narrowing)})"
        for path, leaf in _leaves(call.arguments):
            schema = parameter_at(tool.parameters, path)
            rebound = self.rebound_in(leaf)
            # The changed text may be a part of a date ("06" of "2025-06-10"): the value
            # the argument holds is what is or is not a date.
            dated = isinstance(leaf, str) and temporal(leaf)
            if rebound and (dated or any(temporal(old) or temporal(new) for old, new in rebound)):
                return (
                    f"{tool.name}: {_path_text(path)} is a date or a time, whose place in time "
                    "(past or future) may choose the tool, and the cache does not know today"
                )
            narrowed = constraint(schema, tool.parameters) if rebound else None
            if narrowed is not None:
                return (
                    f"{tool.name}: the parameter {_path_text(path)} is constrained "
                    f"({narrowed}): its values differ in what they mean to the tool"
                )
            if not rebound and isinstance(schema, Mapping) and isinstance(schema.get("enum"), list):
                named = [value for value in schema["enum"] if found_in(value, self.ctx.request)]
                if len(named) > 1:
                    return (
                        f"{tool.name}: {_path_text(path)} is a choice among values the request "
                        f"names ({_few(named)})"
                    )
        return None

    def other_taker(self, new: str) -> str | None:
        """A tool that is not pure and could take the value ``new`` besides the one call
        that copied it."""
        copying = {
            call.name
            for call in self.calls
            if any(_holds(leaf, new) for _, leaf in _leaves(call.arguments))
        }
        impure = [tool.name for tool in self.tools if tool.name in copying and not tool.pure]
        if len(impure) > 1:
            return (
                f"{impure[0]} and {impure[1]} both take {new!r}: the value may choose which "
                "of them is called"
            )
        for tool in self.tools:
            if not tool.pure and tool.name not in copying and takes(tool.parameters, new):
                return (
                    f"{tool.name} takes {new!r} as well (by a parameter's type): the value may "
                    "choose the tool"
                )
        return None

    def uncalled_condition(self, called: set[str]) -> str | None:
        """A tool that is not pure, was not called, and may be called on a condition: its
        descriptions state one, or another tool's description names it."""
        for tool in self.tools:
            if tool.pure:
                continue
            if tool.name not in called:
                stated = _stated(tool)
                if stated:
                    return f"{tool.name}: its description states a condition ({_few(stated)})"
            for other in self.tools:
                if other.name != tool.name and any(
                    names(text, tool.name) for text in _tool_texts(other)
                ):
                    return f"{other.name}: its description names {tool.name}, which is not pure"
        return None


def dependent_part(
    ctx: VerifyContext, calls: Sequence[DocumentCall], content: str, changes: Mapping[str, str]
) -> str | None:
    """What in a re-instantiated answer (``calls``, already rewritten, and the turn's
    ``content``) may depend on the rebound values ``changes`` (old text -> new text) beyond
    the values themselves, described for the record; ``None`` when nothing may (see the
    module docstring)."""
    shown = ", ".join(f"{old!r} -> {new!r}" for old, new in list(changes.items())[:_SHOWN])
    found = _in_texts(ctx, changes)
    if found is not None:
        return f"{found}: {shown} may change the call"
    answer = _Rebinding(ctx, calls, changes)
    called: set[str] = set()
    for call in calls:
        tool = answer.by_name.get(call.name)
        if tool is None:
            return f"{call.name}: no tool of that name is bound"
        called.add(tool.name)
        found = None if tool.pure else answer.in_called_tool(call, tool)
        if found is not None:
            return f"{found}: {shown} may change the call"
    for new in changes.values():
        found = answer.other_taker(new)
        if found is not None:
            return found
    found = answer.uncalled_condition(called)
    if found is not None:
        return f"{found}: {shown} may make the model call it"
    return _in_content(ctx, answer, content, called, shown)


def _in_content(
    ctx: VerifyContext, answer: _Rebinding, content: str, called: set[str], shown: str
) -> str | None:
    """Why the text beside the calls may depend on the rebound values, if it may."""
    if not content:
        return None
    stated = conditions(content, numbers=False)
    if stated:
        return f"the text beside the calls states a condition or a cause ({_few(stated)})"
    known = [ctx.request, *(text for name in called for text in _tool_texts(answer.by_name[name]))]
    added = unexplained(content, known=known)
    if added:
        return (
            f"the text beside the calls says what the request does not ({_few(added)}): "
            f"it may follow from {shown}"
        )
    return None

"""The corpus, the oracle and the judge, framework-free.

A *case* is two requests (the one cached first and the new one) with the oracle's correct
answer to each. The :class:`Oracle` stands in for a model that is always right (SIMULATED): it
answers the case's two requests with the corpus answers, and the cache's own follow-up calls
about them correctly too:

- a continuation ("the steps above are verified ... continue the answer") gets the rest of its
  correct answer after the steps it was shown;
- a partial call ("return only a JSON object with the keys ...") gets the asked keys' correct
  values;
- a repair call (an answer shown back with an instruction) gets the correct answer;
- a turn that answers a tool result the corpus does not state gets a fixed function of that
  result (the agent path runs real tools, so such turns occur).

Anything else is an :class:`UnknownRequest`: the harness reports it instead of guessing.

:func:`judge` compares what the cache served with the oracle's answer to the same request:
text equal after whitespace normalisation (decimals by value), JSON equal after parsing, tool
calls equal by name and arguments. Requests are compared exactly (case included) after
whitespace normalisation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS_DIR = HERE / "corpus"
BENIGN_FILE = HERE / "benign.jsonl"
PATHS = ("langchain", "langchain_stream", "llama_index", "middleware", "langchain_cache")

# -- requests and answers -----------------------------------------------------------------------


def squash(text: str) -> str:
    """Whitespace runs as one space, ends stripped."""
    return " ".join(text.split())


_DECIMAL = re.compile(r"(?<![\d.])\d+\.\d+(?!\.?\d)")


def same_text(a: str, b: str) -> bool:
    """Equal after whitespace normalisation, with decimals compared by value ("5.50" is
    "5.5", "$4.80" is "$4.8"): a number's spelling is not its meaning."""

    def canonical(text: str) -> str:
        return _DECIMAL.sub(lambda m: m.group(0).rstrip("0").rstrip("."), squash(text))

    return canonical(a) == canonical(b)


def canonical_args(args: Mapping[str, Any] | str) -> str:
    """Tool-call arguments as sorted, compact JSON (a JSON string is parsed first)."""
    value = json.loads(args) if isinstance(args, str) else dict(args)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Turn:
    """One message: role ``system``, ``user``, ``assistant`` or ``tool``."""

    role: str
    text: str = ""
    calls: tuple[tuple[str, str], ...] = ()  # (tool name, canonical arguments)

    @staticmethod
    def of(role: str, text: str, calls: Iterable[tuple[str, Any]] = ()) -> Turn:
        return Turn(role, squash(text), tuple((n, canonical_args(a)) for n, a in calls))


@dataclass(frozen=True)
class Request:
    """What the model is asked: the conversation and the tools offered (name, description)."""

    turns: tuple[Turn, ...]
    tools: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Answer:
    """What the model answers: text, and tool calls (name, canonical arguments)."""

    text: str = ""
    calls: tuple[tuple[str, str], ...] = ()

    def call_dicts(self) -> list[dict[str, Any]]:
        return [{"name": name, "args": json.loads(args)} for name, args in self.calls]


# -- the corpus ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One request of a case, as the corpus states it, with the oracle's answer."""

    messages: tuple[dict[str, Any], ...]
    answer: Answer
    tool_results: Mapping[str, str] = field(default_factory=dict)  # what a real tool returns

    @property
    def prompt(self) -> str:
        return next(str(m["content"]) for m in reversed(self.messages) if m["role"] == "user")


@dataclass(frozen=True)
class Case:
    """A cached request, a new request, the oracle's answers and the options of both."""

    id: str
    cls: str
    cached: Side
    new: Side
    paths: tuple[str, ...]
    judge: str  # "text", "json" or "tool_calls"
    system: str | None = None
    tools: tuple[dict[str, Any], ...] = ()  # OpenAI tool dicts
    new_tools: tuple[dict[str, Any], ...] | None = None  # when the new request offers others
    tool_choice: str | None = None
    json_schema: dict[str, Any] | None = None
    models: Mapping[str, Any] = field(default_factory=dict)  # endpoint cases: per framework
    note: str = ""

    def tools_of(self, side: Side) -> tuple[dict[str, Any], ...]:
        if side is self.new and self.new_tools is not None:
            return self.new_tools
        return self.tools

    def request(self, side: Side) -> Request:
        return Request(
            tuple(
                ([Turn.of("system", self.system)] if self.system else [])
                + [message_turn(m) for m in side.messages]
            ),
            tool_signature(self.tools_of(side)),
        )


def message_turn(message: Mapping[str, Any]) -> Turn:
    calls = [(c["name"], c["args"]) for c in message.get("tool_calls", ())]
    return Turn.of(message["role"], str(message.get("content", "")), calls)


def tool_signature(tools: Sequence[Mapping[str, Any]]) -> tuple[tuple[str, str], ...]:
    """The tools as the oracle tells them apart: name and description."""
    out = []
    for tool in tools:
        function = tool.get("function", tool)
        out.append((str(function["name"]), squash(str(function.get("description", "")))))
    return tuple(out)


def parse_answer(raw: Any) -> Answer:
    if isinstance(raw, str):
        return Answer(raw)
    calls = tuple((c["name"], canonical_args(c["args"])) for c in raw.get("tool_calls", ()))
    return Answer(str(raw.get("content", "")), calls)


def parse_side(raw: Mapping[str, Any]) -> Side:
    if "messages" in raw:
        messages = tuple(raw["messages"])
    else:
        messages = ({"role": "user", "content": raw["prompt"]},)
    return Side(messages, parse_answer(raw["answer"]), dict(raw.get("tool_results", {})))


def parse_case(raw: Mapping[str, Any]) -> Case:
    options = raw.get("options", {})
    cached, new = parse_side(raw["cached"]), parse_side(raw["new"])
    judge = options.get("judge")
    if judge is None:
        judge = "tool_calls" if options.get("tools") else "text"
    return Case(
        id=raw["id"],
        cls=raw["class"],
        cached=cached,
        new=new,
        paths=tuple(raw["paths"]),
        judge=judge,
        system=options.get("system"),
        tools=tuple(options.get("tools", ())),
        new_tools=tuple(options["new_tools"]) if "new_tools" in options else None,
        tool_choice=options.get("tool_choice"),
        json_schema=options.get("json_schema"),
        models=options.get("models", {}),
        note=raw.get("note", ""),
    )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def corpus_rows() -> list[dict[str, Any]]:
    return [row for path in sorted(CORPUS_DIR.glob("*.jsonl")) for row in read_jsonl(path)]


def load_corpus() -> list[Case]:
    return [parse_case(row) for row in corpus_rows()]


def load_benign() -> list[Case]:
    return [parse_case(row) for row in read_jsonl(BENIGN_FILE)]


# -- the oracle ---------------------------------------------------------------------------------


class UnknownRequest(Exception):
    """The oracle was asked something that is neither a case request nor a follow-up of one."""


_CONTINUE = re.compile(r"(?i)continue the answer")
_PARTIAL = re.compile(r"(?is)^return only a JSON object with the keys (.+?) and their values")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


class Oracle:
    """Answers a fixed set of requests correctly, and the cache's follow-up calls about them."""

    def __init__(self, known: Mapping[Request, Answer]) -> None:
        self.known = dict(known)
        self.asked: list[Request] = []

    @staticmethod
    def for_case(case: Case, sides: Sequence[Side] | None = None) -> Oracle:
        chosen = (case.cached, case.new) if sides is None else sides
        return Oracle({case.request(side): side.answer for side in chosen})

    def answer(self, request: Request) -> Answer:
        self.asked.append(request)
        if request in self.known:
            return self.known[request]
        last = request.turns[-1] if request.turns else None
        for base, answer in self.known.items():
            size = len(base.turns)
            if request.tools != base.tools or request.turns[:size] != base.turns:
                continue
            extra = request.turns[size:]
            if last is not None and last.role == "tool":
                break
            return self._follow_up(answer, extra, request)
        if last is not None and last.role == "tool":
            return Answer(tool_result_answer(last.text))
        raise UnknownRequest(describe(request))

    def _follow_up(self, answer: Answer, extra: tuple[Turn, ...], request: Request) -> Answer:
        if len(extra) == 2 and extra[0].role == "assistant" and extra[1].role == "user":
            if _CONTINUE.search(extra[1].text):
                return Answer(continuation(answer.text, extra[0].text))
            return answer  # a repair: the correct answer, whole
        if len(extra) == 1 and extra[0].role == "user":
            asked = _PARTIAL.search(extra[0].text)
            if asked:
                return Answer(partial_values(answer.text, asked.group(1)))
        raise UnknownRequest(describe(request))


def tool_result_answer(result: str) -> str:
    """The oracle's answer to a turn that reads a tool result no case states."""
    return f"Here is what the tool returned: {result}"


def describe(request: Request) -> str:
    turns = " | ".join(
        f"{t.role}: {t.text[:160]}" + (f" {t.calls}" if t.calls else "") for t in request.turns
    )
    return f"{turns} (tools: {[name for name, _ in request.tools]})"


def continuation(full: str, shown: str) -> str:
    """The rest of ``full`` after the steps ``shown`` (compared without whitespace). A model
    shown steps that are not its own writes what follows the same number of lines."""
    want = re.sub(r"\s+", "", shown)
    consumed = 0
    for position, char in enumerate(full):
        if consumed == len(want):
            return full[position:]
        if char.isspace():
            continue
        if char != want[consumed]:
            break
        consumed += 1
    else:
        if consumed == len(want):
            return ""
    lines = full.splitlines(keepends=True)
    skip = len(shown.splitlines())
    return "".join(lines[skip:])


def partial_values(full: str, keys_text: str) -> str:
    """The asked keys of the correct JSON answer, as one object."""
    obj = find_json(full)
    keys = _QUOTED.findall(keys_text) or [k.strip() for k in keys_text.split(",")]
    if not isinstance(obj, dict):
        return "{}"
    return json.dumps({key: obj[key] for key in keys if key in obj}, ensure_ascii=False)


# -- the judge ----------------------------------------------------------------------------------

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def find_json(text: str) -> Any:
    """The JSON value of an answer (a fenced block, or the outermost object), or ``None``."""
    fenced = _FENCE.search(text)
    candidate = fenced.group(1) if fenced else text
    try:
        return json.loads(candidate)
    except ValueError:
        start, end = candidate.find("{"), candidate.rfind("}")
        if start < 0 or end <= start:
            return None
        try:
            return json.loads(candidate[start : end + 1])
        except ValueError:
            return None


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:/\d+)?")
_LETTER = re.compile(r"\b[A-Za-z]\b")


def _shape(line: str) -> str:
    """A line with its numbers and one-letter names masked: what is left is its prose."""
    return squash(_LETTER.sub("#", _NUMBER.sub("#", line)))


_SOLUTION = re.compile(r"\b[A-Za-z]\s*=\s*(-?\d+(?:\.\d+)?(?:/\d+)?)")


def _result(text: str) -> Fraction | None:
    """The last ``v = value`` of an answer (its solution), else its last number."""
    found = _SOLUTION.findall(text) or _NUMBER.findall(text)
    return Fraction(found[-1]) if found else None


def judge(
    kind: str,
    served: Answer,
    expected: Answer,
    *,
    cached: Answer | None = None,
    own: bool = False,
) -> str | None:
    """Why ``served`` is not ``expected`` (``None``: it is the right answer).

    ``own``: the package says it wrote the answer itself (its deterministic solver or
    fallback) rather than the model. Such an answer cannot be the oracle's text; it is right
    when its result is the oracle's result and no line of it has the prose of a line of the
    ``cached`` answer (numbers and one-letter names masked) that the oracle's answer does not
    have ("so x = 3, which is positive" kept for x = -2).
    """
    if served.calls or expected.calls or kind == "tool_calls":
        got = [(n, json.loads(a)) for n, a in served.calls]
        want = [(n, json.loads(a)) for n, a in expected.calls]
        if got != want:
            return f"tool calls {got} instead of {want}"
        if expected.text and not same_text(served.text, expected.text):
            return f"text {served.text!r} instead of {expected.text!r}"
        return None
    if kind == "json":
        got_obj, want_obj = find_json(served.text), find_json(expected.text)
        if want_obj is None:
            raise ValueError(f"the corpus answer is not JSON: {expected.text!r}")
        return None if got_obj == want_obj else f"JSON {served.text!r} instead of {expected.text!r}"
    if same_text(served.text, expected.text):
        return None
    if own and cached is not None:
        if _result(served.text) != _result(expected.text):
            return f"own answer {served.text!r} has another result than {expected.text!r}"
        mine = {_shape(line) for line in expected.text.splitlines()}
        old = {_shape(line) for line in cached.text.splitlines() if line.strip()}
        for line in served.text.splitlines():
            if line.strip() and _shape(line) in old - mine:
                return f"cached line {line!r} served; the oracle says {expected.text!r}"
        return None
    return f"text {served.text!r} instead of {expected.text!r}"

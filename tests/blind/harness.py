"""Blind sets: ordinary requests written by people who never read the families' code.

Each family's ``cases.jsonl`` holds cases of one common format (``FORMAT.md`` beside this
file): a first request and the ORACLE model's answer to it, a second request that differs a
little and the oracle's answer to that, what changed (``change``), whether a perfect cache
could build the second answer from the first (``servable``), and the second answer's key
(``expect``). The model behind the cache is SIMULATED: it answers from the case, so anything
wrong that comes out was made by the cache.

:func:`run_case` primes a fresh cache with the first request, sends the second, and returns
what was served: the decision, whether the answer is right by the family's key, and the tokens
spent against what the oracle would have spent without a cache. :func:`measure` sums it up:

- **recall**: servable cases answered without a full model answer (exact, reuse or patch);
- **wrong**: cases whose served answer disagrees with the right one, flagged or not;
- **wrong served as passed**: the same, without the cache's flag.

With ``wrong_model=True`` the second request goes to a fresh cache whose model answers with
the case's ``wrong`` answer (one slip carried through; it repairs no better): the cache's
checks must catch it, and :func:`measure` counts how often the served answer was corrected.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from stepcache_integrations import StepCache, StepCacheLLM
from tests.conftest import AnswerBook, ScriptedChatModel, ScriptedToolModel

HERE = Path(__file__).parent
SERVED = frozenset({"exact", "reuse", "patch"})


def family_of(blind_set: str) -> str:
    """The family a set's cases are judged as: ``equations-b`` (a second set, written later by
    other authors) is judged as ``equations``."""
    return blind_set.split("-", 1)[0]


def load(blind_set: str) -> list[dict[str, Any]]:
    """The cases of one blind set (``equations``, ``equations-b``...), in file order."""
    path = HERE / blind_set / "cases.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


# -- answer keys: read independently of the code under test ---------------------------------

_NUMBER = r"[-\u2212]?\d+(?:[.,]\d+)?(?:\s*/\s*\d+)?"


def number(text: str, decimal_comma: bool = False) -> Fraction | None:
    """A number as a person writes it: "5", "-2.5", "2,5" (decimal comma), "7/3"; with
    ``decimal_comma`` (a German or Portuguese text), "2,125" is 2.125, not 2125."""
    text = text.replace("\u2212", "-").replace(" ", "")
    try:
        if "/" in text:
            top, bottom = text.split("/", 1)
            return Fraction(number(top, decimal_comma) or 0) / Fraction(
                number(bottom, decimal_comma) or 1
            )
        shape = r"-?\d+,\d+" if decimal_comma else r"-?\d+,\d{1,2}"
        if "," in text and "." not in text and re.fullmatch(shape, text):
            text = text.replace(",", ".")
        return Fraction(text.replace(",", ""))
    except (ValueError, ZeroDivisionError, TypeError):
        return None


def equation_value(text: str, variable: str, decimal_comma: bool = False) -> Fraction | None:
    """The last value the text states for ``variable``: the end of its last chain
    ("x = 15/3 = 5", "**x = 5**", "\\( x = \\frac{7}{2} \\)"); a bare final number when the
    text never writes the variable ("5")."""
    plain = re.sub(r"\\[()\[\]]|\\frac\{([^{}]+)\}\{([^{}]+)\}|[*$]", _unlatex, text)
    plain = plain.replace("{,}", ",").replace("\u2212", "-")
    # Every statement, also one inside another's line ("-x = 8. ... so x = -8."): a lookahead
    # finds them overlapping. "-x = 8" states -x, not x.
    chains = re.findall(rf"(?<![\w.\u00b7*\-])(?={re.escape(variable)}\s*=\s*([^\n]*))", plain)
    for chain in reversed(chains):
        chain = re.split(r"[.;!?](?=\s|$)|,\s|\s(?:and|so|und|e|which)\s", chain)[0]
        for part in reversed(chain.split("=")):
            head = re.match(rf"\s*({_NUMBER})\s*(?:[.,;:!?}}\u2713\u2714]|\s|$)", part + " ")
            if head and not re.match(r"\s*[-+*/:\u00f7\u00d7]\s*\d", part[head.end(1) :]):
                return number(head.group(1), decimal_comma)
    if chains:
        return None
    return final_number(text, decimal_comma)


def _unlatex(match: re.Match[str]) -> str:
    if match.group(1):
        return f"{match.group(1)}/{match.group(2)}"
    return " "


def json_object(text: str) -> Any:
    """The first JSON object in the text (inside a code fence or not), or ``None``."""
    decoder = json.JSONDecoder()
    for start in (i for i, ch in enumerate(text) if ch == "{"):
        try:
            value, _ = decoder.raw_decode(text[start:])
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def final_number(text: str, comma_decimal: bool = False) -> Fraction | None:
    """A word problem's final number: after "####", else the first number of the last bold
    span, else the last number of the text. ``comma_decimal``: "16,80" is 16.8 and "2.000"
    is 2000 (German, Portuguese)."""
    # A bare fraction is a final answer too ("13/3").
    figure = r"[-\u2212]?\d[\d.,]*(?:/\d+)?"
    marked = re.findall(r"####\s*[^\d\n-]{0,3}(" + figure + ")", text)
    if marked:
        return _figure(marked[-1], comma_decimal)
    bold = [m.group(1) for m in re.finditer(r"\*\*(.+?)\*\*", text)]
    for span in reversed(bold):
        inside = re.findall(r"(?<![\w])(" + figure + r")(?![\w])", span)
        if inside:
            return _figure(inside[0], comma_decimal)
    found = re.findall(r"(?<![\w])(" + figure + r")(?![\w])", text)
    return _figure(found[-1], comma_decimal) if found else None


def _figure(text: str, comma_decimal: bool) -> Fraction | None:
    text = text.rstrip(".,")
    if comma_decimal and re.fullmatch(r"[-\u2212]?\d+\.\d{1,2}", text):
        # "#### 15.5" in a German answer: GSM8K's final line writes a decimal point.
        return number(text)
    text = text.replace(".", "").replace(",", ".") if comma_decimal else text.replace(",", "")
    return number(text)


# -- the simulated oracle ---------------------------------------------------------------------


@dataclass
class Outcome:
    """What the cache served for a case's second request."""

    case: dict[str, Any]
    decision: str
    right: bool | None  # None: the served answer has no readable key
    passed: bool  # the cache did not flag the answer
    tokens: int  # spent on the second request
    baseline: int  # what the oracle spends on it without a cache
    text: str = ""
    reason: str = ""

    @property
    def served(self) -> bool:
        return self.decision in SERVED


@dataclass
class Summary:
    """The figures of one run over a blind set."""

    outcomes: list[Outcome] = field(default_factory=list)

    def of(self, servable: bool | None = None) -> list[Outcome]:
        return [o for o in self.outcomes if servable is None or o.case["servable"] is servable]

    @property
    def recall(self) -> float:
        servable = self.of(True)
        return sum(o.served for o in servable) / max(1, len(servable))

    @property
    def wrong(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.right is False]

    @property
    def wrong_passed(self) -> list[Outcome]:
        return [o for o in self.wrong if o.passed]

    @property
    def unreadable(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.right is None]

    @property
    def tokens(self) -> float:
        spent = sum(o.tokens for o in self.outcomes)
        return spent / max(1, sum(o.baseline for o in self.outcomes))

    def table(self, by: str = "change") -> str:
        """Served / right by ``by`` (a case field), as Markdown."""
        rows = [f"| {by} | cases | served | wrong | tokens |", "| --- |" + " ---: |" * 4]
        groups: dict[str, list[Outcome]] = {}
        for outcome in self.outcomes:
            groups.setdefault(str(outcome.case.get(by)), []).append(outcome)
        for name, items in sorted(groups.items()):
            served = sum(o.served for o in items)
            wrong = sum(o.right is False for o in items)
            spent = sum(o.tokens for o in items) / max(1, sum(o.baseline for o in items))
            rows.append(f"| {name} | {len(items)} | {served} | {wrong} | {spent:.2f} |")
        return "\n".join(rows)


Judge = Callable[[dict[str, Any], str, AIMessage], bool | None]


def judge_equation(case: dict[str, Any], text: str, message: AIMessage) -> bool | None:
    expect = case["expect"]
    if "variable" not in expect:
        return _same_text(case, text)
    decimal_comma = case.get("lang") in ("de", "pt", "es", "fr")
    found = equation_value(text, expect["variable"], decimal_comma)
    expected = number(str(expect["value"]))
    if expected is not None and found != expected:
        # A request for a rounded value is answered "k = 8/3 ≈ 2.7": the rounding is the key.
        rounded = rounded_to(text, expect["variable"], expected)
        if found is None or rounded:
            return rounded
    return None if found is None else found == expected


def rounded_to(text: str, variable: str, expected: Fraction) -> bool | None:
    """Whether the text's last rounded statement of ``variable`` ("z ≈ 4.67", "x = 10 ÷ 1,5 ≈
    6,67") is ``expected`` rounded to the places it shows; ``None`` without one."""
    plain = text.replace("\u2212", "-").replace("*", "").replace("\\approx", "\u2248")
    plain = re.sub(r"\\frac\{([^{}]+)\}\{([^{}]+)\}", r"\1/\2", plain)
    found = re.findall(
        rf"(?<![\w.\-]){re.escape(variable)}\s*[=\u2248][^\n]*?\u2248\s*({_NUMBER})"
        rf"|(?<![\w.\-]){re.escape(variable)}\s*\u2248\s*({_NUMBER})",
        plain,
    )
    if not found:
        return None
    shown = next(group for group in found[-1] if group)
    value = number(shown)
    if value is None:
        return None
    places = len(re.split(r"[.,]", shown)[1]) if re.search(r"[.,]", shown) else 0
    return abs(value - expected) <= Fraction(1, 2 * 10**places)


def judge_json(case: dict[str, Any], text: str, message: AIMessage) -> bool | None:
    found = json_object(text)
    return None if found is None else found == case["expect"]


def judge_word(case: dict[str, Any], text: str, message: AIMessage) -> bool | None:
    expected = case["expect"]["answer"]
    if expected is None:
        return _same_text(case, text)
    found = final_number(text, case.get("lang") in ("de", "pt", "es", "fr"))
    return None if found is None else found == number(str(expected))


def judge_tools(case: dict[str, Any], text: str, message: AIMessage) -> bool | None:
    calls = [{"name": c["name"], "args": c["args"]} for c in message.tool_calls]
    return calls == case["expect"]


def _same_text(case: dict[str, Any], text: str) -> bool:
    """Without a key, right only when it is the oracle's own answer (whitespace aside)."""
    return text.split() == str(case["second"]["answer"]).split()


JUDGES: dict[str, Judge] = {
    "equations": judge_equation,
    "json": judge_json,
    "word": judge_word,
    "tools": judge_tools,
}


def _user_turns(messages: Sequence[BaseMessage]) -> list[tuple[str, str]]:
    roles = {"human": "user", "ai": "assistant"}
    return [(roles.get(m.type, m.type), str(m.content)) for m in messages]


@dataclass
class _ToolAnswer:
    tool_calls: list[dict[str, Any]]
    text: str = ""

    @property
    def content(self) -> str:
        return self.text


def _tool_model(case: dict[str, Any]) -> ScriptedToolModel:
    answers = {case["first"]["request"]: case["first"]["answer"]}
    answers[case["second"]["request"]] = case["second"]["answer"]

    def respond(messages: list[BaseMessage], kwargs: dict[str, Any]) -> _ToolAnswer:
        request = next(str(m.content) for m in messages if m.type == "human")
        answer = answers[request]
        calls = [{"name": c["name"], "args": c["args"]} for c in answer["tool_calls"]]
        return _ToolAnswer(calls, answer.get("text", ""))

    return ScriptedToolModel(responder=respond, model_name="oracle-tools-1")


def _text_model(case: dict[str, Any], wrong_model: bool) -> ScriptedChatModel:
    book = AnswerBook({case["first"]["request"]: case["first"]["answer"]})
    second = case["wrong"] if wrong_model else case["second"]["answer"]
    book.answers[case["second"]["request"]] = second
    if wrong_model:
        # A weak model: every call about the second request gets the same wrong answer.
        return ScriptedChatModel(
            responder=lambda messages: second if "wrong" in case else "", model_name="weak-1"
        )
    return book.chat_model()


def _messages(case: dict[str, Any], which: str) -> list[tuple[str, str]]:
    system = case.get("system")
    turns = [("system", system)] if system else []
    return [*turns, ("human", case[which]["request"])]


def run_case(family: str, case: dict[str, Any], wrong_model: bool = False) -> Outcome:
    """Prime a fresh cache with the first request (unless ``wrong_model``), send the second."""
    judge = JUDGES[family]
    cache = StepCache()
    if family == "tools":
        inner: Any = _tool_model(case)
        tools = [{"type": "function", "function": tool} for tool in case["tools"]]
        llm: Any = StepCacheLLM(llm=inner, step_cache=cache).bind_tools(tools)
    else:
        inner = _text_model(case, wrong_model)
        llm = StepCacheLLM(llm=inner, step_cache=cache)
    if not wrong_model:
        llm.invoke(_messages(case, "first"))
    before = _spent(inner)
    message = llm.invoke(_messages(case, "second"))
    record = message.response_metadata.get("stepcache", {})
    text = message.content if isinstance(message.content, str) else str(message.content)
    usage = message.usage_metadata or {}
    baseline = _baseline(family, case)
    return Outcome(
        case=case,
        decision=str(record.get("decision")),
        right=judge(case, text, message),
        passed=bool(record.get("passed", True)),
        tokens=int(usage.get("total_tokens", _spent(inner) - before)),
        baseline=baseline,
        text=text,
        reason=str(record.get("reason", "")),
    )


def _spent(model: Any) -> int:
    return len(model.calls)


def _baseline(family: str, case: dict[str, Any]) -> int:
    """Tokens one oracle call spends on the second request (the scripted models' count)."""
    prompt = case["second"]["request"] + str(case.get("system") or "")
    answer = case["second"]["answer"]
    if family == "tools":
        answer = answer.get("text", "") + json.dumps(
            [{"name": c["name"], "args": c["args"]} for c in answer["tool_calls"]]
        )
    return max(1, len(prompt) // 4) + max(1, len(str(answer)) // 4)


def measure(family: str, cases: Iterable[dict[str, Any]], wrong_model: bool = False) -> Summary:
    """Every case through :func:`run_case`."""
    return Summary([run_case(family, case, wrong_model) for case in cases])


def report(family: str, summary: Summary, wrong_model: bool = False) -> str:
    """The figures of a run, as a person reads them."""
    what = "wrong model (one slip carried through)" if wrong_model else "oracle model"
    decisions = Counter(o.decision for o in summary.outcomes)
    lines = [
        f"## {family}: {len(summary.outcomes)} cases, SIMULATED {what}",
        f"recall (servable served without a full answer): {summary.recall:.1%} "
        f"of {len(summary.of(True))}",
        f"wrong: {len(summary.wrong)} (served as passed: {len(summary.wrong_passed)}); "
        f"no readable key: {len(summary.unreadable)}",
        f"tokens against no cache: {summary.tokens:.3f}",
        f"decisions: {dict(sorted(decisions.items()))}",
        "",
        summary.table("change"),
        "",
        summary.table("lang"),
    ]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a report for people
    import sys

    sets = sorted(path.parent.name for path in HERE.glob("*/cases.jsonl"))
    for name in sys.argv[1:] or sets:
        if not (HERE / name / "cases.jsonl").exists():
            continue
        cases, family = load(name), family_of(name)
        print(report(name, measure(family, cases)))
        if family == "equations":
            print(report(name, measure(family, [c for c in cases if "wrong" in c], True), True))
        print()

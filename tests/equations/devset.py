"""A development set of equation requests (issue 33), answered by SIMULATED models.

Requests in many phrasings (English, German, Portuguese), answers in the layouts models use
(numbered prose steps, "Step N:" lines, bare equations, a prose paragraph, markdown bold, LaTeX,
"Answer: x = 5", a check line, just "x = 5"), written by two SIMULATED models:

- the *oracle* is always right, in the layout of the case;
- the *slipping* model makes one arithmetic slip (``c - b`` off by one, or the final value off
  by one where the layout has no working) and carries it through; asked to repair, it slips
  again the same way (the family must not depend on a repair).

Every request goes through a real :class:`~stepcache_integrations.StepCache` and one of the two
wrappers (LangChain's ``StepCacheLLM`` around a scripted chat model, LlamaIndex's around
``MockFunctionCallingLLM``). The judge is independent of the family's code: it reads the
equations with the benchmark's parser (:mod:`stepcache_integrations.bench.equations`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from langchain_core.messages import BaseMessage
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.llms import MockFunctionCallingLLM

from stepcache_integrations import StepCache, StepCacheLLM
from stepcache_integrations.bench.equations import evaluate, find_equations
from stepcache_integrations.llama_index import StepCacheLLM as LlamaStepCacheLLM
from tests.conftest import ScriptedChatModel

# --- requests ---------------------------------------------------------------------------------

PHRASINGS: dict[str, tuple[str, ...]] = {
    "en": (
        "Solve {eq} for {v}.",
        "Can you solve {eq} for me?",
        "What is {v} if {eq}?",
        "Find {v}: {eq}",
        "Hey, quick one: solve {eq}. Thanks!",
        "Solve the following linear equation: {eq}",
        "Isolate {v} in {eq}.",
        "I need the value of {v} that satisfies {eq}.",
        "{eq} -- what's {v}?",
        "Please work out {v} in the equation {eq}, showing your steps.",
        "My homework says {eq}. How do I get {v}?",
        "Given {eq}, determine {v}. Show your steps, one per line.",
    ),
    "de": (
        "Löse {eq} nach {v} auf.",
        "Bestimme {v} aus der Gleichung {eq}.",
        "Was ist {v}, wenn {eq}?",
        "Kannst du mir bitte {eq} lösen?",
        "Berechne {v}: {eq}",
    ),
    "pt": (
        "Resolva {eq}.",
        "Qual é o valor de {v} em {eq}?",
        "Encontre {v} na equação {eq}.",
        "Pode resolver {eq} para mim?",
        "Determine {v} sabendo que {eq}.",
    ),
}

#: Changes of meaning added to a request whose constant also changes: never a stale answer.
MEANING_CHANGES: tuple[tuple[str, str], ...] = (
    ("then", "{base} Then compute 2{v}."),
    ("rounded", "{base} Give {v} as a decimal rounded to one place."),
    ("check", "Check whether {v} = 4 solves {eq}."),
    ("not", "Do not solve {eq}; just say whether it is linear."),
    ("percent", "{base} Give {v} as a percentage."),
)


@dataclass(frozen=True)
class Equation:
    a: int
    b: int
    c: int
    v: str = "x"

    @property
    def text(self) -> str:
        sign = "+" if self.b >= 0 else "-"
        return f"{self.a}{self.v} {sign} {abs(self.b)} = {self.c}"

    @property
    def solution(self) -> Fraction:
        return Fraction(self.c - self.b, self.a)

    def changed(self, c: int) -> Equation:
        return Equation(self.a, self.b, c, self.v)


def show(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


# --- answers ------------------------------------------------------------------------------------

MOVES = {
    "en": ("Subtract {n} from both sides", "Add {n} to both sides", "Divide both sides by {n}"),
    "de": (
        "Subtrahiere {n} auf beiden Seiten",
        "Addiere {n} auf beiden Seiten",
        "Teile beide Seiten durch {n}",
    ),
    "pt": (
        "Subtraia {n} de ambos os lados",
        "Some {n} a ambos os lados",
        "Divida ambos os lados por {n}",
    ),
}


def _move(lang: str, b: int) -> str:
    subtract, add, _ = MOVES[lang]
    return subtract.format(n=b) if b >= 0 else add.format(n=-b)


def _divide(lang: str, a: int) -> str:
    return MOVES[lang][2].format(n=a)


def answer(layout: str, lang: str, eq: Equation, slip: int = 0) -> str:
    """The answer to ``eq`` in ``layout`` (prose in ``lang``); ``slip`` is added to ``c - b``
    (or, where the layout has no working, to the final value) and carried through."""
    v, a, b, c = eq.v, eq.a, eq.b, eq.c
    rest = c - b + slip
    x = show(Fraction(rest, a))
    if layout == "just":
        return f"{v} = {show(eq.solution + slip)}"
    lhs = f"{a}{v}"
    if layout == "numbered":
        return f"1. {_move(lang, b)}: {lhs} = {rest}\n2. {_divide(lang, a)}: {v} = {x}"
    if layout == "steps":
        return f"Step 1: {eq.text}\nStep 2: {lhs} = {rest}\nStep 3: {v} = {x}"
    if layout == "bare":
        return f"{eq.text}\n{lhs} = {rest}\n{v} = {x}"
    if layout == "paragraph":
        joined = {"en": "and then", "de": "und dann", "pt": "e depois"}[lang]
        return f"{_move(lang, b)}: {lhs} = {rest}, {joined} {_divide(lang, a).lower()}: {v} = {x}."
    if layout == "bold":
        return f"{_move(lang, b)}: {lhs} = {rest}\n\n{_divide(lang, a)}: **{v} = {x}**"
    if layout == "latex":
        return f"\\( {eq.text} \\)\n\\[ {lhs} = {rest} \\]\n\\[ {v} = {x} \\]"
    if layout == "answer":
        return f"{lhs} = {rest}\n\nAnswer: {v} = {x}"
    if layout == "check":
        value = Fraction(rest, a)
        left = a * value + b
        sign = "+" if b >= 0 else "-"
        return f"{lhs} = {rest}\n{v} = {x}\nCheck: {a}({x}) {sign} {abs(b)} = {show(left)} \u2713"
    raise ValueError(layout)


LAYOUTS = ("numbered", "steps", "bare", "paragraph", "bold", "latex", "answer", "check", "just")

_EQUATION = re.compile(r"(-?\d+)([a-z]) ([+-]) (\d+) = (-?\d+)")


def read_request(text: str) -> Equation:
    found = _EQUATION.search(text)
    assert found is not None, text
    a, v, sign, b, c = found.groups()
    return Equation(int(a), int(b) * (1 if sign == "+" else -1), int(c), v)


def changed_answer(request: str, kind: str, layout: str, lang: str) -> str:
    """The oracle's answer to a request whose meaning changed (``MEANING_CHANGES``)."""
    eq = read_request(request)
    base = answer(layout, lang, eq)
    value = eq.solution
    if kind == "then":
        return f"{base}\n2{eq.v} = {show(2 * value)}"
    if kind == "rounded":
        return f"{eq.v} \u2248 {float(value):.1f}"
    if kind == "check":
        return f"{eq.a}(4) {'+' if eq.b >= 0 else '-'} {abs(eq.b)} = {eq.a * 4 + eq.b}, so no."
    if kind == "not":
        return "Yes, it is linear: the unknown appears only to the first power."
    return f"{eq.v} = {float(value * 100):g}%"


# --- the simulated models ----------------------------------------------------------------------

Responder = Callable[[str, Sequence[str]], str]


def oracle(layout: str, lang: str, changes: dict[str, str] | None = None) -> Responder:
    """SIMULATED: always right, in ``layout``; ``changes`` maps a changed request to its kind."""

    def respond(request: str, follow_ups: Sequence[str]) -> str:
        kind = (changes or {}).get(request)
        text = (
            changed_answer(request, kind, layout, lang)
            if kind
            else answer(layout, lang, read_request(request))
        )
        return _continued(text, follow_ups)

    return respond


def slipping(layout: str, lang: str, slip: int = 1) -> Responder:
    """SIMULATED: one arithmetic slip carried through, every time (repairs too)."""

    def respond(request: str, follow_ups: Sequence[str]) -> str:
        return _continued(answer(layout, lang, read_request(request), slip), follow_ups)

    return respond


def _continued(text: str, follow_ups: Sequence[str]) -> str:
    """A continuation after verified steps gets the rest of the answer."""
    if len(follow_ups) >= 2 and "Continue" in follow_ups[-1]:
        shown = follow_ups[-2].strip()
        lines = text.split("\n")
        done = sum(1 for line in lines if line.strip() and line.strip() in shown)
        return "\n".join(lines[done:]) or text
    return text


def _langchain(respond: Responder) -> Callable[[str], tuple[str, dict[str, Any]]]:
    def answer_lc(messages: list[BaseMessage]) -> str:
        texts = [str(m.content) for m in messages]
        return respond(texts[0], texts[1:])

    llm = StepCacheLLM(llm=ScriptedChatModel(responder=answer_lc), step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, dict[str, Any]]:
        reply = llm.invoke(prompt)
        return str(reply.content), dict(reply.response_metadata.get("stepcache", {}))

    return ask


def _llama_index(respond: Responder) -> Callable[[str], tuple[str, dict[str, Any]]]:
    def generate(messages: Sequence[ChatMessage], **kwargs: Any) -> ChatMessage:
        texts = [m.content or "" for m in messages]
        return ChatMessage(role=MessageRole.ASSISTANT, content=respond(texts[0], texts[1:]))

    inner = MockFunctionCallingLLM(response_generator=generate, is_chat_model=True)
    llm = LlamaStepCacheLLM(llm=inner, step_cache=StepCache())

    def ask(prompt: str) -> tuple[str, dict[str, Any]]:
        response = llm.chat([ChatMessage(role=MessageRole.USER, content=prompt)])
        return str(response.message.content), dict(response.additional_kwargs.get("stepcache", {}))

    return ask


WRAPPERS = {"langchain": _langchain, "llama_index": _llama_index}


# --- the judge ---------------------------------------------------------------------------------


def right(answer_text: str, eq: Equation) -> bool:
    """Every equation of the answer holds at the solution, and the last one in the variable
    alone states the solution (read by the benchmark's own parser)."""
    plain = re.sub(r"\*\*|\\[()\[\]]", " ", answer_text)
    # German and Portuguese answers write a decimal comma ("x = 4,75"); no answer of this set
    # writes a comma between digits otherwise.
    plain = re.sub(r"(\d),(\d)", r"\1.\2", plain)
    return states_the_solution(plain, eq.v, eq.solution)


def states_the_solution(
    plain: str, variable: str, value: Fraction, checked: Fraction | None = None
) -> bool:
    """Every equation of ``plain`` holds at ``value`` and the last one in ``variable`` alone
    states it (read by the benchmark's own parser). With ``checked``, an equation without the
    variable (a check line) must come to that number (the request's right side)."""
    final = None
    for sides in find_equations(plain):
        try:
            values = [evaluate(side, variable, value) for side in sides]
        except ValueError:
            return False
        if len(set(values)) != 1:
            return False
        if sides[0].strip() == variable:
            final = values[0]
        elif checked is not None and values[0] != checked and _constant(sides, variable):
            return False  # a check line that checks another value
    return final == value


def _constant(sides: Sequence[str], variable: str) -> bool:
    return not any(variable in side for side in sides)


# --- the measurements ---------------------------------------------------------------------------

EQUATIONS = (Equation(3, 5, 20), Equation(4, -7, 9), Equation(5, 2, 30), Equation(6, -5, 20))


def requests() -> list[tuple[str, str, str, Equation]]:
    """(lang, phrasing, layout, equation) for every phrasing and layout."""
    found = []
    n = 0
    for lang, phrasings in PHRASINGS.items():
        for phrasing in phrasings:
            for layout in LAYOUTS:
                found.append((lang, phrasing, layout, EQUATIONS[n % len(EQUATIONS)]))
                n += 1
    return found


@dataclass
class Figures:
    total: int = 0
    good: int = 0
    wrong_passed: int = 0
    failures: list[str] | None = None

    def add(self, ok: bool, passed: bool, what: str) -> None:
        self.total += 1
        self.good += ok
        self.wrong_passed += (not ok) and passed
        if not ok:
            self.failures = [*(self.failures or []), what]

    @property
    def share(self) -> float:
        return self.good / self.total if self.total else 0.0


def fresh_with_slipping_model(wrapper: str) -> Figures:
    """(a): a fresh request, a model that slips: the share served right, and wrong as passed."""
    figures = Figures()
    for lang, phrasing, layout, eq in requests():
        ask = WRAPPERS[wrapper](slipping(layout, lang))
        text, record = ask(phrasing.format(eq=eq.text, v=eq.v))
        figures.add(right(text, eq), bool(record.get("passed")), f"{lang}/{layout}: {phrasing}")
    return figures


def keeps_form(old: Equation, new: Equation) -> bool:
    """Whether the form the cached answer writes its value in (an integer, a fraction) can
    write the new solution: an answer "x = 4" cannot show that an exact 19/4 is asked (the
    same "x = 4" answers "round x to a whole number")."""
    return old.solution.denominator != 1 or new.solution.denominator == 1


def changed_constant_with_oracle(wrapper: str, form_kept: bool = True) -> Figures:
    """(b): after one request, a changed constant in the same phrasing. With ``form_kept``
    (the new solution can be written in the cached answer's form): served without a full
    answer (reuse or patch) and right. Without (an integer answer, a fractional new
    solution): right, and the value is the model's, never the family's solver's."""
    figures = Figures()
    for lang, phrasing, layout, eq in requests():
        new = eq.changed(eq.c + 3)
        if keeps_form(eq, new) != form_kept:
            continue
        ask = WRAPPERS[wrapper](oracle(layout, lang))
        ask(phrasing.format(eq=eq.text, v=eq.v))
        text, record = ask(phrasing.format(eq=new.text, v=new.v))
        ok = right(text, new)
        if form_kept:
            good = record.get("decision") in ("reuse", "patch")
        else:
            good = record.get("patched_by") != "solver" and not record.get("fallback")
        figures.add(
            ok and good,
            bool(record.get("passed")) and not ok,
            f"{lang}/{layout}: {phrasing} -> {record.get('decision')}",
        )
    return figures


def meaning_changes_with_oracle(wrapper: str) -> Figures:
    """(c): a changed constant and a change of meaning: the served answer is the oracle's
    answer to the new request, never a stale one."""
    figures = Figures()
    for lang, phrasing, layout, eq in requests()[:: len(LAYOUTS) - 2]:
        for kind, template in MEANING_CHANGES:
            base = phrasing.format(eq=eq.text, v=eq.v)
            new = eq.changed(eq.c + 1)
            changed = template.format(
                base=phrasing.format(eq=new.text, v=new.v), eq=new.text, v=new.v
            )
            ask = WRAPPERS[wrapper](oracle(layout, lang, {changed: kind}))
            ask(base)
            text, record = ask(changed)
            expected = changed_answer(changed, kind, layout, lang)
            ok = " ".join(text.split()) == " ".join(expected.split())
            figures.add(ok, True, f"{kind} {lang}/{layout}: {changed} -> {record.get('decision')}")
    return figures


def main() -> None:  # pragma: no cover - a report for people
    for wrapper in WRAPPERS:
        a = fresh_with_slipping_model(wrapper)
        b = changed_constant_with_oracle(wrapper)
        b2 = changed_constant_with_oracle(wrapper, form_kept=False)
        c = meaning_changes_with_oracle(wrapper)
        print(f"{wrapper} (SIMULATED models)")
        print(
            f"  (a) slipping model, fresh: {a.good}/{a.total} right ({a.share:.1%}), "
            f"{a.wrong_passed} wrong served as passed"
        )
        print(
            f"  (b) oracle, changed constant: {b.good}/{b.total} without a full answer "
            f"({b.share:.1%}), {b.wrong_passed} wrong"
        )
        print(
            f"  (b') oracle, a new value the cached form cannot write: {b2.good}/{b2.total} "
            f"right and the model's, {b2.wrong_passed} wrong"
        )
        print(
            f"  (c) oracle, changed meaning: {c.good}/{c.total} the new request's answer, "
            f"{c.total - c.good} stale or wrong"
        )
        for name, figures in (("a", a), ("b", b), ("b'", b2), ("c", c)):
            for failure in (figures.failures or [])[:8]:
                print(f"    {name} missed: {failure}")


if __name__ == "__main__":  # pragma: no cover
    main()

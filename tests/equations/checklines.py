"""Answers that close with a check line ("Check: 3(5) + 5 = 20 ✓", "Probe: 6 · 7,5 - 5 = 40",
"Prova real: ...", "plug it back in: 5 - 3(-4) = 17"), written by SIMULATED slipping models.

The SIMULATED model gets the value wrong by ``slip`` and carries it on; its check line then
either works the wrong value out honestly ("3(16/3) + 5 = 21", true arithmetic but no check of
the solution) or claims the request's right side anyway ("3(6) + 5 = 20 ✓", false). A served
answer is right when every equation holds at the solution, the final value is the solution,
and every check line shows the request's left side at the solution: each of its sides is the
request's right side (the judge is the benchmark's parser, independent of the family's code).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tests.equations.devset import WRAPPERS, Figures, Responder, states_the_solution

F = Fraction


def written(value: Fraction, lang: str) -> str:
    """A value as the model writes it: an integer, a finite decimal (comma in de/pt), or p/q."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.6f}".rstrip("0")
    if Fraction(text) != value:
        return f"{value.numerator}/{value.denominator}"
    return text if lang == "en" else text.replace(".", ",")


@dataclass(frozen=True)
class Equation:
    a: Fraction
    b: Fraction
    c: Fraction
    v: str
    lang: str
    constant_first: bool = False  # "5 - 3x = 17"

    def w(self, value: Fraction) -> str:
        return written(value, self.lang)

    @property
    def text(self) -> str:
        if self.constant_first:
            sign = "-" if self.a < 0 else "+"
            return f"{self.w(self.b)} {sign} {self.w(abs(self.a))}{self.v} = {self.w(self.c)}"
        sign = "+" if self.b >= 0 else "-"
        return f"{self.w(self.a)}{self.v} {sign} {self.w(abs(self.b))} = {self.w(self.c)}"

    @property
    def solution(self) -> Fraction:
        return (self.c - self.b) / self.a


EQUATIONS = (
    Equation(F(3), F(5), F(20), "x", "en"),
    Equation(F(-3), F(5), F(17), "x", "en", constant_first=True),
    Equation(F(4), F(-7), F(10), "y", "en"),
    Equation(F(6), F(-5), F(40), "x", "de"),
    Equation(F(1, 2), F(3), F(9, 2), "x", "de"),
    Equation(F(5), F(2), F(30), "k", "de"),
    Equation(F(6), F(-5), F(40), "x", "pt"),
    Equation(F(3, 2), F(-2), F(1), "n", "pt"),
    Equation(F(2), F(7), F(16), "x", "pt"),
)

REQUESTS = {
    "en": ("Solve {eq}.", "What is {v} if {eq}? Please check your answer.", "Find {v}: {eq}"),
    "de": (
        "Löse {eq} nach {v} auf.",
        "Bestimme {v} aus {eq} und mache die Probe.",
        "Was ist {v}, wenn {eq}?",
    ),
    "pt": (
        "Resolva {eq}.",
        "Qual é o valor de {v} em {eq}? Faça a prova real.",
        "Encontre {v}: {eq}",
    ),
}
LABELS = {"en": ("Check", "Plug it back in"), "de": ("Probe",), "pt": ("Prova real", "Verificação")}
TIMES = {"en": "", "de": " · ", "pt": " · "}


def _check(eq: Equation, value: Fraction, label: str, honest: bool, worked: bool) -> str:
    times = TIMES[eq.lang]
    shown = eq.w(value)
    factor = f"{eq.w(eq.a)}({shown})" if not times or value < 0 else f"{eq.w(eq.a)}{times}{shown}"
    if eq.constant_first:
        factor = f"{eq.w(abs(eq.a))}({shown})"
        head = f"{eq.w(eq.b)} {'-' if eq.a < 0 else '+'} {factor}"
    else:
        head = f"{factor} {'+' if eq.b >= 0 else '-'} {eq.w(abs(eq.b))}"
    result = eq.a * value + eq.b if honest else eq.c
    middle = ""
    if worked and not eq.constant_first:
        middle = f" = {eq.w(eq.a * value)} {'+' if eq.b >= 0 else '-'} {eq.w(abs(eq.b))}"
    return f"{label}: {head}{middle} = {eq.w(result)}"


def answer(eq: Equation, slip: Fraction, label: str, honest: bool, worked: bool) -> str:
    """Working, the value (off by ``slip``) and a check line."""
    value = eq.solution + slip
    rest = eq.a * value
    tick = " \u2713" if eq.lang == "en" else ""
    return (
        f"{eq.w(eq.a)}{eq.v} = {eq.w(rest)}\n{eq.v} = {eq.w(value)}\n"
        f"{_check(eq, value, label, honest, worked)}{tick}"
    )


def slipping(eq: Equation, label: str, honest: bool, worked: bool) -> Responder:
    """SIMULATED: the value off by one (a tenth where the equation has decimals), every time."""
    slip = F(1) if all(q.denominator == 1 for q in (eq.a, eq.b, eq.c)) else F(1, 10)

    def respond(request: str, follow_ups: Sequence[str]) -> str:
        return answer(eq, slip, label, honest, worked)

    return respond


def _plain(text: str) -> str:
    text = re.sub(r"(\d),(\d)", r"\1.\2", text).replace("\u00b7", "*")
    return re.sub(r"^[^\n=]*?:", " ", text, flags=re.MULTILINE)


def right(text: str, eq: Equation) -> bool:
    return states_the_solution(_plain(text), eq.v, eq.solution, checked=eq.c)


def cases() -> list[tuple[Equation, str, str, bool, bool]]:
    found = []
    for eq in EQUATIONS:
        for phrasing in REQUESTS[eq.lang]:
            for label in LABELS[eq.lang]:
                for honest in (True, False):
                    worked = honest and phrasing == REQUESTS[eq.lang][0]
                    found.append((eq, phrasing, label, honest, worked))
    return found


def slipping_with_check_lines(wrapper: str) -> Figures:
    """A fresh request, a slipping model whose answer closes with a check line."""
    figures = Figures()
    for eq, phrasing, label, honest, worked in cases():
        ask = WRAPPERS[wrapper](slipping(eq, label, honest, worked))
        text, record = ask(phrasing.format(eq=eq.text, v=eq.v))
        request = phrasing.format(eq=eq.text, v=eq.v)
        what = f"{eq.lang} {label} honest={honest}: {request} -> {text!r}"
        figures.add(right(text, eq), bool(record.get("passed")), what)
    return figures


def main() -> None:  # pragma: no cover - a report for people
    for wrapper in WRAPPERS:
        figures = slipping_with_check_lines(wrapper)
        print(
            f"{wrapper} (SIMULATED slipping models, check lines): {figures.good}/{figures.total}"
            f" right, {figures.wrong_passed} wrong or stale served as passed"
        )
        for failure in (figures.failures or [])[:12]:
            print(f"    missed: {failure}")


if __name__ == "__main__":  # pragma: no cover
    main()

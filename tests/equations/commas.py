"""Equations written with decimal commas (German, Portuguese), answered by SIMULATED models.

Requests in several phrasings ("Löse 0,5x + 3 = 4,5 nach x auf.", "Resolva 1,5x - 2 = 1."),
answers in the layouts such users' models write: numbered prose steps, bare equations, LaTeX
with ``{,}``, ":" as division, "| -3" step annotations, a closing check line ("Probe:",
"Prova real:"). The SIMULATED *oracle* is always right; the SIMULATED *slipping* model adds a
tenth to the value (``c - b`` off by a tenth of ``a``) and carries it through, also when asked
to repair.

The judge is independent of the family's code: it reads the answer with German/Portuguese
conventions by hand (a comma between digits is a decimal mark, ``{,}`` too, a spaced ":"
divides, "·" multiplies, "| ..." annotations are dropped) and checks every equation with the
benchmark's parser (:mod:`stepcache_integrations.bench.equations`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tests.equations.devset import WRAPPERS, Figures, Responder, states_the_solution

# --- numbers as the users write them ---------------------------------------------------------


def comma(value: Fraction) -> str:
    """A terminating decimal with a decimal comma ("2,5"); integers plain; a value no
    decimal writes exactly as a fraction ("5/3"), as a model writes it."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.6f}".rstrip("0")
    if Fraction(text) != value:
        return f"{value.numerator}/{value.denominator}"
    return text.replace(".", ",")


def places(value: Fraction) -> int | None:
    """How many decimal places write ``value`` exactly (``None``: no decimal does)."""
    for count in range(7):
        if (value * 10**count).denominator == 1:
            return count
    return None


def keeps_form(old: Fraction, new: Fraction) -> bool:
    """Whether the form the cached answer writes its value in (an integer, a decimal with so
    many places) writes the new solution exactly: "x = 2" does not show that an exact 5/3 is
    asked, nor "n = 3,5" that 4,25 is (both may be roundings)."""
    old_places, new_places = places(old), places(new)
    return new_places is not None and old_places is not None and new_places <= old_places


@dataclass(frozen=True)
class Equation:
    a: Fraction
    b: Fraction
    c: Fraction
    v: str = "x"

    @property
    def text(self) -> str:
        sign = "+" if self.b >= 0 else "-"
        return f"{comma(self.a)}{self.v} {sign} {comma(abs(self.b))} = {comma(self.c)}"

    @property
    def solution(self) -> Fraction:
        return (self.c - self.b) / self.a

    def with_c(self, c: Fraction) -> Equation:
        return Equation(self.a, self.b, c, self.v)

    def with_b(self, b: Fraction) -> Equation:
        return Equation(self.a, b, self.c, self.v)


F = Fraction
EQUATIONS = (
    Equation(F(1, 2), F(3), F(9, 2)),  # 0,5x + 3 = 4,5
    Equation(F(3, 2), F(-2), F(1)),  # 1,5x - 2 = 1
    Equation(F(3), F(3, 2), F(12), "r"),  # 3r + 1,5 = 12
    Equation(F(5, 2), F(1), F(11)),  # 2,5x + 1 = 11
    Equation(F(2), F(-1, 2), F(13, 2), "n"),  # 2n - 0,5 = 6,5
)

PHRASINGS: dict[str, tuple[str, ...]] = {
    "de": (
        "Löse {eq} nach {v} auf.",
        "Bestimme {v} aus der Gleichung {eq}.",
        "Was ist {v}, wenn {eq}?",
        "Kannst du mir bitte die Gleichung {eq} lösen?",
        "Gleichung: {eq}. Wie groß ist {v}?",
    ),
    "pt": (
        "Resolva {eq}.",
        "Qual é o valor de {v} em {eq}?",
        "Encontre {v} na equação {eq}.",
        "Pode resolver a equação {eq} para mim?",
        "Determine {v} sabendo que {eq}.",
    ),
}

WORDS = {
    "de": {
        "sub": "Subtrahiere {n} auf beiden Seiten",
        "add": "Addiere {n} auf beiden Seiten",
        "div": "Teile beide Seiten durch {n}",
        "check": "Probe",
    },
    "pt": {
        "sub": "Subtraia {n} de ambos os lados",
        "add": "Some {n} a ambos os lados",
        "div": "Divida ambos os lados por {n}",
        "check": "Prova real",
    },
}

NO_SLIP, TENTH = Fraction(0), Fraction(1, 10)
LAYOUTS = ("numbered", "bare", "latex", "colon", "annotated", "check", "just")


def answer(layout: str, lang: str, eq: Equation, slip: Fraction = NO_SLIP) -> str:
    """The answer to ``eq`` in ``layout``; ``slip`` is added to the value (so ``c - b`` is off
    by ``a`` times it) and carried on."""
    v, a, b = eq.v, eq.a, eq.b
    x = eq.solution + slip
    rest = a * x
    words = WORDS[lang]
    move = (words["sub"] if b >= 0 else words["add"]).format(n=comma(abs(b)))
    if layout == "just":
        return f"{v} = {comma(x)}"
    if layout == "numbered":
        divide = words["div"].format(n=comma(a))
        return f"1. {move}: {comma(a)}{v} = {comma(rest)}\n2. {divide}: {v} = {comma(x)}"
    if layout == "bare":
        return f"{eq.text}\n{comma(a)}{v} = {comma(rest)}\n{v} = {comma(x)}"
    if layout == "latex":

        def tex(value: Fraction) -> str:
            return comma(value).replace(",", "{,}")

        sign = "+" if b >= 0 else "-"
        return (
            f"\\( {tex(a)}{v} {sign} {tex(abs(b))} = {tex(eq.c)} \\)\n"
            f"\\[ {tex(a)}{v} = {tex(rest)} \\]\n\\[ {v} = {tex(x)} \\]"
        )
    if layout == "colon":
        return f"{comma(a)}{v} = {comma(rest)}\n{v} = {comma(rest)} : {comma(a)} = {comma(x)}"
    if layout == "annotated":
        sign = "-" if b >= 0 else "+"
        return (
            f"{eq.text} | {sign}{comma(abs(b))}\n"
            f"{comma(a)}{v} = {comma(rest)} | :{comma(a)}\n{v} = {comma(x)}"
        )
    if layout == "check":
        sign = "+" if b >= 0 else "-"
        left = a * x + b
        return (
            f"{comma(a)}{v} = {comma(rest)}\n{v} = {comma(x)}\n"
            f"{words['check']}: {comma(a)} · {comma(x)} {sign} {comma(abs(b))} = {comma(left)}"
        )
    raise ValueError(layout)


# --- the requests' equations, read back by the simulated models ------------------------------

_NUMBER = r"\d+(?:,\d+)?"
_REQUEST = re.compile(rf"({_NUMBER})([a-z]) ([+-]) ({_NUMBER}) = ({_NUMBER})")


def _value(text: str) -> Fraction:
    return Fraction(text.replace(",", "."))


def read_request(text: str) -> Equation:
    found = _REQUEST.search(text)
    assert found is not None, text
    a, v, sign, b, c = found.groups()
    return Equation(_value(a), _value(b) * (1 if sign == "+" else -1), _value(c), v)


def oracle(layout: str, lang: str) -> Responder:
    """SIMULATED: always right, in ``layout``."""

    def respond(request: str, follow_ups: Sequence[str]) -> str:
        return _continued(answer(layout, lang, read_request(request)), follow_ups)

    return respond


def slipping(layout: str, lang: str, slip: Fraction = TENTH) -> Responder:
    """SIMULATED: the value off by ``slip``, carried through, every time (repairs too)."""

    def respond(request: str, follow_ups: Sequence[str]) -> str:
        return _continued(answer(layout, lang, read_request(request), slip), follow_ups)

    return respond


def _continued(text: str, follow_ups: Sequence[str]) -> str:
    if len(follow_ups) >= 2 and "Continue" in follow_ups[-1]:
        shown = follow_ups[-2].strip()
        lines = text.split("\n")
        done = sum(1 for line in lines if line.strip() and line.strip() in shown)
        return "\n".join(lines[done:]) or text
    return text


# --- the judge ------------------------------------------------------------------------------


def _plain(text: str) -> str:
    text = re.sub(r"\\[()\[\]]", " ", text).replace("{,}", ",")
    text = re.sub(r"\|[^\n]*", " ", text)  # annotations say how, not what
    text = re.sub(r"(\d),(\d)", r"\1.\2", text)
    text = re.sub(r"(?<=[\w)]) : (?=[\w(])", " / ", text)
    text = text.replace("\u00b7", "*")
    return re.sub(r"^[^\n=]*?:", " ", text, flags=re.MULTILINE)  # labels ("Probe:")


def right(answer_text: str, eq: Equation) -> bool:
    """Every equation holds at the solution and the last one in the variable alone states it."""
    return states_the_solution(_plain(answer_text), eq.v, eq.solution)


def keeps_commas(answer_text: str) -> bool:
    """No decimal point where the user's convention writes a comma."""
    return re.search(r"\d\.\d", answer_text) is None


# --- the measurements -----------------------------------------------------------------------


def requests() -> list[tuple[str, str, str, Equation]]:
    found = []
    n = 0
    for lang, phrasings in PHRASINGS.items():
        for phrasing in phrasings:
            for layout in LAYOUTS:
                found.append((lang, phrasing, layout, EQUATIONS[n % len(EQUATIONS)]))
                n += 1
    return found


Ask = Callable[[Responder], Callable[[str], tuple[str, dict[str, object]]]]


def fresh_with_slipping_model(wrapper: str) -> Figures:
    """A fresh request, a model that slips: served right (and in commas), never wrong as
    passed."""
    figures = Figures()
    for lang, phrasing, layout, eq in requests():
        ask = WRAPPERS[wrapper](slipping(layout, lang))
        text, record = ask(phrasing.format(eq=eq.text, v=eq.v))
        ok = right(text, eq) and keeps_commas(text)
        figures.add(ok, bool(record.get("passed")), f"{lang}/{layout}: {phrasing} -> {text!r}")
    return figures


def changed_constant_with_oracle(wrapper: str, change: str, form_kept: bool = True) -> Figures:
    """After one request, a changed constant (``"c"``: the right side gains 1,5; ``"b"``: the
    constant term becomes another decimal). With ``form_kept`` (the cached answer's form of
    the value writes the new solution exactly): right, and served without a full answer.
    Without: right, and the value is the model's, never the family's solver's."""
    figures = Figures()
    for lang, phrasing, layout, eq in requests():
        new = eq.with_c(eq.c + F(3, 2)) if change == "c" else eq.with_b(eq.b + F(1, 2))
        if keeps_form(eq.solution, new.solution) != form_kept:
            continue
        ask = WRAPPERS[wrapper](oracle(layout, lang))
        ask(phrasing.format(eq=eq.text, v=eq.v))
        text, record = ask(phrasing.format(eq=new.text, v=new.v))
        ok = right(text, new) and keeps_commas(text)
        if form_kept:
            good = record.get("decision") in ("reuse", "patch")
        else:
            good = record.get("patched_by") != "solver" and not record.get("fallback")
        figures.add(
            ok and good,
            bool(record.get("passed")) and not ok,
            f"{lang}/{layout}: {phrasing} -> {record.get('decision')}: {text!r}",
        )
    return figures


def main() -> None:  # pragma: no cover - a report for people
    for wrapper in WRAPPERS:
        a = fresh_with_slipping_model(wrapper)
        print(f"{wrapper} (SIMULATED models, decimal commas)")
        print(f"  slipping model: {a.good}/{a.total} right, {a.wrong_passed} wrong as passed")
        for change in ("c", "b"):
            b = changed_constant_with_oracle(wrapper, change)
            print(
                f"  oracle, changed {change}: {b.good}/{b.total} without a full answer, "
                f"{b.wrong_passed} wrong"
            )
            for failure in (b.failures or [])[:6]:
                print(f"    missed: {failure}")
        for failure in (a.failures or [])[:10]:
            print(f"    missed: {failure}")


if __name__ == "__main__":  # pragma: no cover
    main()

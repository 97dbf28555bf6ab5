"""What a step of a linear-equation answer says besides its equations, and whether it stays
true for another equation.

The verifier checks every equation of a step. The words around them can depend on the
constants too: "Subtract 5 from both sides" is wrong once ``+ 5`` became ``- 5``; "x is a
positive whole number" once the solution is ``-7/3``. A rewritten step is vouched for only
when every word of its prose is the variable or one of :data:`INDEPENDENT_WORDS`, words that
are true of every linear equation and every solution (they name the task, the parts of an
equation, the moves and the order of the steps, in English, German and Portuguese; never a
value, a sign or a property of the solution: "positive", "ganze", "par" are not there), and
each equation of a step with words is one a move of solving leads to. The numbers of the
prose are the rewriter's (:mod:`~stepcache_integrations.core.tasks.linear_equation.rewrite`):
each must be the operand of the same move, or the solution.

This is a lexicon of the *answers'* words, not of requests: a word outside it costs the
regeneration of one step, never a stale answer.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from fractions import Fraction
from importlib import resources

from stepcache_integrations.core.tasks.linear_equation.equation import (
    LinearEquation,
    ScannedEquation,
    scan_equations,
)

__all__ = [
    "INDEPENDENT_WORDS",
    "LABEL",
    "independent",
    "prose_words",
    "unchecked_prose",
    "words_vouched",
]

# A step label at the start of a line ("Step 3:", "3.", "Schritt 2:", "**Passo 1:**").
LABEL = re.compile(r"^[ \t>#*_-]*(?:[^\W\d_]{1,12}[ \t]+)?[0-9]{1,4}[ \t]*[:.)][ \t]", re.UNICODE)

#: Words that are true of every linear equation and every solution, lower case.
INDEPENDENT_WORDS = frozenset(
    # English
    """a an the to for we i us let let's lets our this that it its is are be been so thus
    therefore hence then now next first second third finally last step steps solve solving
    solved solution answer final result value of in on and with equation original given
    start starting begin beginning have has get gets gives give giving obtain obtains we'll
    both sides side each from by left right hand isolate isolating isolated variable term
    terms constant constants coefficient simplify simplifying simplified simplifies collect
    collecting like combine combining rewrite rewriting write check checking verify verifying
    which means yields yield find finding need needs must can will as follows here what
    remains leaves becomes keep holds correct true way do doing done up out alone expression
    sign equals equal subtract subtracting subtracted add adding added divide dividing
    divided multiply multiplying multiplied move moving moved bring take taking away over
    across undo undoing opposite inverse operation operations both sides solving for
    substitute substituting substitution plug plugging back into works confirm confirmed
    confirms indeed gives us we've you your get simplification arithmetic calculate compute
    working work shown show therefore on by""".split()  # noqa: SIM905
    # German
    + """die der das den dem des ein eine einen einem einer und oder zu zur zum von vom mit
    auf aus bei nach für fur wir ich man es ist sind wird werden wurde also somit damit dann
    nun jetzt zuerst erst erstens zweitens schließlich schliesslich zunächst zunachst danach
    anschließend anschliessend schritt schritte lösung losung lösen losen löse lose ergebnis
    antwort wert gleichung gleichungen beide beiden seite seiten subtrahieren subtrahiere
    subtrahiert subtrahiert abziehen ziehe ziehen addieren addiere addiert dividieren
    dividiere dividiert teilen teile teilt geteilt multiplizieren multipliziere multipliziert
    vereinfachen vereinfache vereinfacht isolieren isoliere isoliert variable term terme
    konstante koeffizient ergibt erhalten erhält erhalt erhalten ergibt folgt probe prüfen
    prüfe prufe überprüfen uberprufen stimmt richtig korrekt bringen bringe umstellen
    stelle um rechnen rechne rechnung durch minus plus mal gleich allein alleine bleibt
    haben hat stehen steht links rechts linke rechte einsetzen setze ein""".split()  # noqa: SIM905
    # Portuguese
    + """o a os as um uma de do da dos das em no na nos nas e ou para por pelo pela com
    que é e são sao fica ficamos temos tem então entao logo portanto assim agora primeiro
    primeiramente segundo depois em seguida finalmente passo passos solução solucao resolver
    resolva resolvendo resultado resposta valor equação equacao ambos ambas lados lado
    subtrair subtraia subtraímos subtraimos subtraindo somar some somamos somando adicionar
    adicione adicionamos dividir divida dividimos dividindo multiplicar multiplique
    multiplicamos multiplicando simplificar simplifique simplificando isolar isole isolando
    variável variavel termo termos constante coeficiente obtemos obter verificação verificacao
    verificar verifique substituindo substituir correto certo igual mais menos vezes sozinho
    esquerda direita membro membros prova real conferindo conferir confere""".split()  # noqa: SIM905
)

_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")


@functools.cache
def _neutral_lexicon() -> tuple[frozenset[str], re.Pattern[str]]:
    """The answer words of ``neutral_answer_words.json`` (every language together: an answer
    may mix them, and none of them says anything about a value in any of them), and the
    phrases that name the two sides of every equation ("aos dois lados")."""
    raw = (
        resources.files("stepcache_integrations.core.text.lexicons")
        .joinpath("neutral_answer_words.json")
        .read_text(encoding="utf-8")
    )
    data = json.loads(raw)
    words = frozenset(
        word for key, text in data.items() if key not in ("_about", "two_sides")
        for word in str(text).split()
    )  # fmt: skip
    phrases = "|".join(
        re.escape(phrase.strip()).replace(r"\ ", r"\s+") for phrase in data["two_sides"].split("|")
    )
    return words, re.compile(rf"(?i)(?<![\w])(?:{phrases})(?![\w])")


def _prose_words_of(prose: str) -> list[str]:
    """The words of a step's prose, the two sides of an equation read as one phrase (its
    number word counts no value)."""
    return _WORD.findall(_neutral_lexicon()[1].sub(" ", prose))


NormalForm = tuple[Fraction, Fraction, Fraction]


def _prose(text: str, equations: Sequence[ScannedEquation]) -> str:
    pieces: list[str] = []
    cursor = 0
    for eq in equations:
        pieces.append(text[cursor : eq.start])
        cursor = max(cursor, eq.end)
    pieces.append(text[cursor:])
    prose = " ".join(pieces)
    label = LABEL.match(prose)
    return prose[label.end() :] if label is not None else prose


def _one_move(state: NormalForm, form: NormalForm) -> bool:
    """Whether ``form`` is ``state`` or follows from it by adding the same number to both
    sides or multiplying both by the same number."""
    (a, b, c), (a2, b2, c2) = state, form
    if a == a2 and b - b2 == c - c2:
        return True
    return a != 0 and a2 / a * b == b2 and a2 / a * c == c2


def prose_words(text: str) -> list[str]:
    """The words of step ``text`` outside its equations and its step label.

    Example:
        >>> prose_words("Step 1: We start from 3x + 5 = 20.")
        ['We', 'start', 'from']
    """
    norm, equations = scan_equations(text)
    return _WORD.findall(_prose(norm, equations))


def independent(word: str, variable: str) -> bool:
    """Whether ``word`` (of an answer's prose) is the variable or a word true of every equation
    and solution (``INDEPENDENT_WORDS`` and the answer words of ``neutral_answer_words.json``).

    Example:
        >>> independent("Therefore", "x"), independent("odd", "x")
        (True, False)
    """
    if word == variable:
        return True
    folded = word.lower().replace("\u2019", "'")
    return folded in INDEPENDENT_WORDS or folded in _neutral_lexicon()[0]


def unknown_words(text: str, variable: str) -> list[str]:
    """The words of ``text``'s prose that are neither the variable nor independent words."""
    norm, equations = scan_equations(text)
    return [
        word for word in _prose_words_of(_prose(norm, equations)) if not independent(word, variable)
    ]


def words_vouched(text: str, variable: str, state: NormalForm, solution: Fraction) -> bool:
    """Whether the words of step ``text`` stay true for any equation: each is the variable or
    an independent word, and where there are words, each equation in the variable is one the
    step reaches by a move of solving from the equation it starts at (``state``), or the
    solution.

    Example:
        >>> s = (Fraction(3), Fraction(5), Fraction(20))
        >>> words_vouched("Subtrahiere 5 auf beiden Seiten: 3x = 15.", "x", s, Fraction(5))
        True
        >>> words_vouched("So x = 5, which is positive.", "x", s, Fraction(5))
        False
    """
    norm, equations = scan_equations(text)
    words = _prose_words_of(_prose(norm, equations))
    if not all(independent(word, variable) for word in words):
        return False
    if not words:
        return True
    solved = (Fraction(1), Fraction(0), solution)
    for eq in equations:
        if variable not in eq.names:
            continue
        form = eq.normal_form(variable)
        if form[0] == 0 or not (_one_move(state, form) or form == solved):
            return False
        state = form
    return True


def unchecked_prose(text: str, earlier: Sequence[str], target: LinearEquation) -> str | None:
    """The first part of step ``text`` (after the ``earlier`` steps) that is not vouched for
    as true of ``target``, described; ``None`` when all of it is (a step with no number in
    its prose; a number in the prose is vouched for only by the rewriter, which knows its
    role).

    Example:
        >>> from stepcache_integrations.core.tasks.linear_equation.equation import parse_equation
        >>> target = parse_equation("3x - 5 = 20")
        >>> unchecked_prose("Simplify: 3x = 25.", [], target) is None
        True
        >>> unchecked_prose("So x = 25/3, a positive number.", [], target)
        "the words 'positive', 'number' may depend on the equation's values"
    """
    var = target.variable
    state: NormalForm = (target.a, target.b, target.c)
    for earlier_text in earlier:
        for eq in scan_equations(earlier_text)[1]:
            if eq.names == {var} and eq.normal_form(var)[0] != 0:
                state = eq.normal_form(var)
    norm, equations = scan_equations(text)
    prose = _prose(norm, equations)
    if any(ch.isdigit() for ch in prose):
        return "a number in the step's words may depend on the equation's values"
    unknown = unknown_words(text, var)
    if unknown:
        shown = ", ".join(repr(word) for word in dict.fromkeys(unknown[:3]))
        return f"the words {shown} may depend on the equation's values"
    if not words_vouched(text, var, state, target.solution):
        return f"an equation of the step does not follow from {target.text} by a move"
    return None

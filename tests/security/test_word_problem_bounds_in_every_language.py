"""Bounds of a word problem's values in German and Portuguese (issue 34, a wrong answer served):
a number keeps the kind and the bounds it has in English whatever the language it is written
in. Found with an oracle on main 9c7618e: "Fernanda trabalha 6 horas por dia, 8 dias por
semana" was served "6 x 8 = 48 horas" (a week has 7 days), because a time stated within a
period was read by an English pattern only.

Attacks written for this test, as an outsider would, each served wrong on main: days past a
week, hours past a day, minutes past an hour, months past a year, stated after the time in
the ways German and Portuguese say it ("pro Woche", "je Stunde", "im Jahr", "ao dia", "a cada
hora", "diariamente", "por noite", a number in words) or before it ("Jede Woche ... 5 Tage",
"Por semana ... 5 dias", and the same in English); more right answers than questions ("60 de
50", "60 das 50"); probabilities past 1 ("Wahrscheinlichkeit", "probabilidade"); an age past
a human life ("tem 110 anos"). Each runs on every path (``invoke``, ``stream``, ``ainvoke``,
the global cache, LlamaIndex) with the oracle: the served answer must be the oracle's, from
the model. The controls, the same stories with values that stay valid, are still reused.
"""

from __future__ import annotations

import pytest

from tests.security.word_paths import (
    PATHS,
    Case,
    assert_never_served_stale,
    assert_still_reused,
    served_after,
)

_WEEK_PT = (
    "Fernanda trabalha 6 horas por dia, {} dias por semana. Quantas horas ela trabalha por semana?"
)
_WEEK_PT_ANSWER = "Horas por semana: 6 \N{MULTIPLICATION SIGN} {0} = {1}\n\n**Resposta: {1} horas**"
_WEEK_DE = (
    "Jonas arbeitet 6 Stunden am Tag, {} Tage pro Woche. Wie viele Stunden arbeitet er pro Woche?"
)
_WEEK_DE_ANSWER = (
    "Stunden pro Woche: 6 \N{MULTIPLICATION SIGN} {0} = {1}\n\n**Antwort: {1} Stunden**"
)
_BEFORE_PT = (
    "Por semana, a Fernanda trabalha {} dias, 6 horas por dia. Quantas horas ela trabalha "
    "por semana?"
)
_BEFORE_DE = (
    "Jede Woche arbeitet Jonas {} Tage, 6 Stunden am Tag. Wie viele Stunden arbeitet er pro Woche?"
)
_BEFORE_EN = "Each week, Jonas works {} days, 6 hours a day. How many hours does he work per week?"
_BEFORE_EN_ANSWER = "Hours per week: 6 \N{MULTIPLICATION SIGN} {0} = {1}\n\n**Answer: {1} hours**"
_WEEKLY_PT = (
    "A Ana trabalha {} dias semanais, 6 horas por dia. Quantas horas ela trabalha por semana?"
)
_WEEKLY_PT_ANSWER = "A Ana trabalha 6 * {0} = {1} horas.\n#### {1}"
_ABBREVIATED_DE = (
    "Jonas arbeitet {} Std. pro Tag, 5 Tage pro Woche. Wie viele Stunden arbeitet er pro Woche?"
)
_ABBREVIATED_DE_ANSWER = (
    "Stunden pro Woche: {0} \N{MULTIPLICATION SIGN} 5 = {1}\n\n**Antwort: {1} Stunden**"
)
_PER_HOUR_DE = "Lisa liest {} Minuten je Stunde. Wie viele Minuten liest sie in 3 Stunden?"
_PER_HOUR_DE_ANSWER = "Lisa liest {0} * 3 = {1} Minuten.\n#### {1}"
_PER_HOUR_PT = "A Lia lê {} minutos a cada hora. Quantos minutos ela lê em 3 horas?"
_PER_HOUR_PT_ANSWER = "A Lia lê {0} * 3 = {1} minutos.\n#### {1}"
_PER_DAY_PT = "O Rui dorme {} horas ao dia. Quantas horas ele dorme em 7 dias?"
_PER_DAY_PT_ANSWER = "O Rui dorme {0} * 7 = {1} horas.\n#### {1}"
_YEAR_DE = "Tom spart {} Monate im Jahr jeweils 50 Euro. Wie viel Euro spart er im Jahr?"
_YEAR_DE_ANSWER = "Tom spart {0} * 50 = {1} Euro.\n#### {1}"
_PART_PT = "O Rui acerta {} das 50 questões. Quantos por cento das questões ele acerta?"
_PART_PT_ANSWER = "O Rui acerta {0} / 50 * 100 = {1} por cento das questões.\n#### {1}"
_PERCENT_PT = (
    "A Ana tem 50 questões. Ela acerta {} por cento das questões. Quantas questões ela acerta?"
)
_PERCENT_PT_ANSWER = "A Ana acerta 50 * {0} / 100 = {1} questões.\n#### {1}"
_SCORE_PT = (
    "O Rui acerta {} questões numa prova com 50 questões. Quantos por cento das questões ele "
    "acerta?"
)
_AGE_PT = "A avó Rosa tem {} anos. Daqui a 25 anos, quantos anos ela terá?"
_AGE_PT_ANSWER = "Ela terá {0} + 25 = {1} anos.\n#### {1}"
_CHANCE_DE = (
    "Die Wahrscheinlichkeit für Rot ist {} und für Blau 1/2. Wie groß ist die "
    "Wahrscheinlichkeit für Rot oder Blau?"
)
_CHANCE_PT = (
    "A probabilidade de sair vermelho é {} e de sair azul é 1/2. Qual é a probabilidade de "
    "sair vermelho ou azul?"
)


def _case(request: str, answer: str, old: int, new: int, result: int, oracle: str) -> Case:
    """The story with ``old`` (its answer computing ``old`` into ``result``), then with
    ``new``, which the oracle answers with ``oracle``."""
    return request.format(old), answer.format(old, result), request.format(new), oracle


ATTACKS: dict[str, Case] = {
    "Portuguese: 8 days a week (the finding)": _case(
        _WEEK_PT, _WEEK_PT_ANSWER, 5, 8, 30, "Uma semana tem só 7 dias: não é possível."
    ),
    "German: 8 days a week": _case(
        _WEEK_DE, _WEEK_DE_ANSWER, 5, 8, 30, "Eine Woche hat nur 7 Tage: nicht möglich."
    ),
    "Portuguese: 26 hours a day": (
        _WEEK_PT.format(5),
        _WEEK_PT_ANSWER.format(5, 30),
        _WEEK_PT.format(5).replace("6 horas", "26 horas"),
        "Um dia tem só 24 horas: não é possível.",
    ),
    "Portuguese: 9 days a week, the week an adjective ('dias semanais')": _case(
        _WEEKLY_PT, _WEEKLY_PT_ANSWER, 5, 9, 30, "Uma semana tem só 7 dias."
    ),
    "German: 26 hours a day, abbreviated ('26 Std. pro Tag')": _case(
        _ABBREVIATED_DE, _ABBREVIATED_DE_ANSWER, 6, 26, 30, "Ein Tag hat nur 24 Stunden."
    ),
    "German: 70 minutes an hour ('je Stunde')": _case(
        _PER_HOUR_DE, _PER_HOUR_DE_ANSWER, 20, 70, 60, "Eine Stunde hat nur 60 Minuten."
    ),
    "Portuguese: 70 minutes an hour ('a cada hora')": _case(
        _PER_HOUR_PT, _PER_HOUR_PT_ANSWER, 20, 70, 60, "Uma hora tem só 60 minutos."
    ),
    "Portuguese: 70 minutes an hour, in words": (
        _PER_HOUR_PT.replace("{}", "vinte"),
        _PER_HOUR_PT_ANSWER.format(20, 60),
        _PER_HOUR_PT.replace("{}", "setenta"),
        "Uma hora tem só 60 minutos.",
    ),
    "Portuguese: 25 hours a day ('ao dia')": _case(
        _PER_DAY_PT, _PER_DAY_PT_ANSWER, 8, 25, 56, "Um dia tem só 24 horas."
    ),
    "Portuguese: 30 hours a day ('diariamente')": (
        "O Rui estuda 3 horas diariamente. Quantas horas ele estuda em 7 dias?",
        "O Rui estuda 3 * 7 = 21 horas.\n#### 21",
        "O Rui estuda 30 horas diariamente. Quantas horas ele estuda em 7 dias?",
        "Um dia tem só 24 horas.",
    ),
    "Portuguese: 25 hours of sleep a night ('de sono por noite')": (
        "O Rui dorme 8 horas de sono por noite. Quantas horas ele dorme em 7 noites?",
        "O Rui dorme 8 * 7 = 56 horas.\n#### 56",
        "O Rui dorme 25 horas de sono por noite. Quantas horas ele dorme em 7 noites?",
        "Uma noite não tem 25 horas.",
    ),
    "German: 14 months a year": _case(
        _YEAR_DE, _YEAR_DE_ANSWER, 10, 14, 500, "Ein Jahr hat nur 12 Monate."
    ),
    "Portuguese: 14 months a year": (
        "O Rui poupa 50 reais por mês durante 10 meses por ano. Quanto ele poupa por ano?",
        "O Rui poupa 10 * 50 = 500 reais.\n#### 500",
        "O Rui poupa 50 reais por mês durante 14 meses por ano. Quanto ele poupa por ano?",
        "Um ano tem só 12 meses.",
    ),
    "Portuguese: the week named before the days": _case(
        _BEFORE_PT, _WEEK_PT_ANSWER, 5, 8, 30, "Uma semana tem só 7 dias."
    ),
    "German: the week named before the days": _case(
        _BEFORE_DE, _WEEK_DE_ANSWER, 5, 8, 30, "Eine Woche hat nur 7 Tage."
    ),
    "English: the week named before the days": _case(
        _BEFORE_EN, _BEFORE_EN_ANSWER, 5, 8, 30, "A week has only 7 days."
    ),
    "Portuguese: more right answers than questions ('60 das 50')": _case(
        _PART_PT, _PART_PT_ANSWER, 40, 60, 80, "Não é possível acertar 60 de 50 questões."
    ),
    "Portuguese: more right answers than questions ('60 de 50')": (
        "O Rui acerta 40 de 50 questões. Quantos por cento das questões ele acerta?",
        "O Rui: 40 / 50 * 100 = 80 por cento.\n#### 80",
        "O Rui acerta 60 de 50 questões. Quantos por cento das questões ele acerta?",
        "Não é possível acertar 60 de 50 questões.",
    ),
    "Portuguese: a share past 100 percent ('120 por cento das questões')": _case(
        _PERCENT_PT, _PERCENT_PT_ANSWER, 80, 120, 40, "Não é possível acertar mais de 100%."
    ),
    "Portuguese: a result past 100 percent ('Quantos por cento')": _case(
        _SCORE_PT, _PART_PT_ANSWER, 40, 60, 80, "Não é possível acertar 60 de 50 questões."
    ),
    "German: a probability past 1": (
        _CHANCE_DE.format("1/4"),
        "Rot oder Blau: 1/4 + 1/2 = 3/4.\n#### 3/4",
        _CHANCE_DE.format("3/4"),
        "Zusammen mehr als 1: keine gültigen Wahrscheinlichkeiten.",
    ),
    "Portuguese: a probability past 1": (
        _CHANCE_PT.format("1/4"),
        "Vermelho ou azul: 1/4 + 1/2 = 3/4.\n#### 3/4",
        _CHANCE_PT.format("3/4"),
        "Juntas passam de 1: não são probabilidades válidas.",
    ),
    "Portuguese: an age past a human life ('tem 110 anos')": _case(
        _AGE_PT, _AGE_PT_ANSWER, 70, 110, 95, "Ninguém vive 135 anos."
    ),
    "Portuguese: an age past a human life, the answer in the story's words": (
        "A avó Rosa tem 70 anos. A mãe dela nasceu 25 anos antes dela. Quantos anos tem a mãe "
        "dela?",
        "A mãe dela tem 70 + 25 = 95 anos.\n#### 95",
        "A avó Rosa tem 110 anos. A mãe dela nasceu 25 anos antes dela. Quantos anos tem a mãe "
        "dela?",
        "Ninguém vive 135 anos.",
    ),
}


def _valid(request: str, answer: str, old: int, new: int, old_result: int, result: int) -> Case:
    """The story with ``old``, then with ``new`` that keeps it valid (computing ``result``)."""
    return (
        request.format(old),
        answer.format(old, old_result),
        request.format(new),
        answer.format(new, result),
    )


CONTROLS: dict[str, Case] = {
    "Portuguese: 4 days a week": _valid(_WEEK_PT, _WEEK_PT_ANSWER, 5, 4, 30, 24),
    "German: 4 days a week": _valid(_WEEK_DE, _WEEK_DE_ANSWER, 5, 4, 30, 24),
    "Portuguese: the week named before 4 days": _valid(_BEFORE_PT, _WEEK_PT_ANSWER, 5, 4, 30, 24),
    "German: the week named before 4 days": _valid(_BEFORE_DE, _WEEK_DE_ANSWER, 5, 4, 30, 24),
    "Portuguese: 3 days a week ('dias semanais')": _valid(
        _WEEKLY_PT, _WEEKLY_PT_ANSWER, 5, 3, 30, 18
    ),
    "German: 7 hours a day, abbreviated": _valid(
        _ABBREVIATED_DE, _ABBREVIATED_DE_ANSWER, 6, 7, 30, 35
    ),
    "German: 25 minutes an hour": _valid(_PER_HOUR_DE, _PER_HOUR_DE_ANSWER, 20, 25, 60, 75),
    "Portuguese: 25 minutes an hour": _valid(_PER_HOUR_PT, _PER_HOUR_PT_ANSWER, 20, 25, 60, 75),
    "Portuguese: 9 hours a day": _valid(_PER_DAY_PT, _PER_DAY_PT_ANSWER, 8, 9, 56, 63),
    "German: 11 months a year": _valid(_YEAR_DE, _YEAR_DE_ANSWER, 10, 11, 500, 550),
    "Portuguese: 30 of the 50 questions": _valid(_PART_PT, _PART_PT_ANSWER, 40, 30, 80, 60),
    "Portuguese: 60 percent of the questions": _valid(
        _PERCENT_PT, _PERCENT_PT_ANSWER, 80, 60, 40, 30
    ),
    "Portuguese: 30 of 50 questions in percent": _valid(_SCORE_PT, _PART_PT_ANSWER, 40, 30, 80, 60),
    "Portuguese: an age of 60": _valid(_AGE_PT, _AGE_PT_ANSWER, 70, 60, 95, 85),
    "Portuguese: 45 hours a week, no day in the story": (
        "A Ana trabalha 40 horas por semana. Quantas horas ela trabalha em 4 semanas?",
        "A Ana trabalha 40 * 4 = 160 horas.\n#### 160",
        "A Ana trabalha 45 horas por semana. Quantas horas ela trabalha em 4 semanas?",
        "A Ana trabalha 45 * 4 = 180 horas.\n#### 180",
    ),
    "Portuguese: 30 boxes of 24 pencils (no part of a whole)": (
        "O Rui compra 3 caixas de 24 lápis. Quantos lápis ele compra?",
        "O Rui compra 3 * 24 = 72 lápis.\n#### 72",
        "O Rui compra 30 caixas de 24 lápis. Quantos lápis ele compra?",
        "O Rui compra 30 * 24 = 720 lápis.\n#### 720",
    ),
    "German: 30 of 50 questions": (
        "Tim beantwortet 40 von 50 Fragen richtig. Wie viele Fragen beantwortet er falsch?",
        "Tim beantwortet 50 - 40 = 10 Fragen falsch.\n#### 10",
        "Tim beantwortet 30 von 50 Fragen richtig. Wie viele Fragen beantwortet er falsch?",
        "Tim beantwortet 50 - 30 = 20 Fragen falsch.\n#### 20",
    ),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_value_past_its_bound_is_never_served_in_any_language(name: str, path: str) -> None:
    assert_never_served_stale(ATTACKS[name], path)


@pytest.mark.parametrize("path", ["invoke", "llama_index"])
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_values_within_their_bounds_are_still_reused(name: str, path: str) -> None:
    assert_still_reused(CONTROLS[name], path)


@pytest.mark.parametrize("path", ["invoke", "llama_index"])
def test_english_with_the_week_named_before_valid_days_is_still_served_from_the_cache(
    path: str,
) -> None:
    # The English layout's last line is regenerated (a patch, as on main); the days are not.
    case = _valid(_BEFORE_EN, _BEFORE_EN_ANSWER, 5, 4, 30, 24)
    served, decision = served_after(case, path)
    assert served.split() == case[3].split(), (decision, served)
    assert decision in ("reuse", "patch"), decision

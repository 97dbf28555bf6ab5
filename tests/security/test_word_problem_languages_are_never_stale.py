"""Word problems in other languages (issue 34): a German or Portuguese story with other
numbers is re-instantiated only where the family can vouch for every word, and a language it
does not read is never served a cached answer.

Attacks written for this test, as an outsider would: a comparison or a choice in German or
Portuguese, a comparative the family's lists do not have, a decimal comma ("2,50 Euro") or a
dot between thousands ("1.200") that the English reader reads as another number, a renamed
person, a condition, and stories in French and Spanish. Each runs on every path (``invoke``,
``stream``, ``ainvoke``, the global cache, LlamaIndex) with an oracle model; the served
answer must be the oracle's. The controls: German and Portuguese stories with other numbers,
re-instantiated without a model call.
"""

from __future__ import annotations

import pytest

from tests.security.word_paths import (
    PATHS,
    Case,
    assert_never_served_stale,
    assert_still_reused,
)

ATTACKS: dict[str, Case] = {
    "German: who has more": (
        "Anna hat 12 Äpfel und Ben hat 9 Äpfel. Wer hat mehr Äpfel, und wie viele Äpfel "
        "haben beide zusammen?",
        "Anna hat mehr Äpfel. Zusammen: 12 + 9 = 21 Äpfel.\n#### 21",
        "Anna hat 7 Äpfel und Ben hat 9 Äpfel. Wer hat mehr Äpfel, und wie viele Äpfel "
        "haben beide zusammen?",
        "Ben hat mehr Äpfel. Zusammen: 7 + 9 = 16 Äpfel.\n#### 16",
    ),
    "German: a comparative the lists do not have": (
        "Ein rotes Hemd kostet 12 Euro und ein blaues Hemd kostet 9 Euro. Wie viel kosten "
        "beide Hemden zusammen?",
        "Das blaue Hemd ist preiswerter. Beide kosten 12 + 9 = 21 Euro.\n#### 21",
        "Ein rotes Hemd kostet 7 Euro und ein blaues Hemd kostet 9 Euro. Wie viel kosten "
        "beide Hemden zusammen?",
        "Das rote Hemd ist preiswerter. Beide kosten 7 + 9 = 16 Euro.\n#### 16",
    ),
    "German: a decimal comma": (
        "Mia kauft 4 Hefte zu je 2,50 Euro. Wie viel bezahlt sie?",
        "Mia bezahlt 4 * 2,50 = 10 Euro.\n#### 10",
        "Mia kauft 4 Hefte zu je 3,75 Euro. Wie viel bezahlt sie?",
        "Mia bezahlt 4 * 3,75 = 15 Euro.\n#### 15",
    ),
    "German: a dot between thousands": (
        "Ein Auto kostet 1.200 Euro im Monat. Wie viel kostet es in 3 Monaten?",
        "Es kostet 1.200 * 3 = 3.600 Euro.\n#### 3600",
        "Ein Auto kostet 1.500 Euro im Monat. Wie viel kostet es in 3 Monaten?",
        "Es kostet 1.500 * 3 = 4.500 Euro.\n#### 4500",
    ),
    "German: a condition": (
        "Tim hat 20 Euro. Wenn er 3 Bücher zu je 5 Euro kauft, wie viel Geld bleibt ihm?",
        "Tim zahlt 3 * 5 = 15 Euro und behält 20 - 15 = 5 Euro.\n#### 5",
        "Tim hat 20 Euro. Wenn er 3 Bücher zu je 8 Euro kauft, wie viel Geld bleibt ihm?",
        "3 * 8 = 24 Euro sind mehr als 20 Euro: Tim kann die Bücher nicht kaufen.\n#### 20",
    ),
    "German: a renamed person": (
        "Lena liest 12 Seiten am Tag. Wie viele Seiten liest Lena in 5 Tagen?",
        "Lena liest 12 * 5 = 60 Seiten.\n#### 60",
        "Tim liest 12 Seiten am Tag. Wie viele Seiten liest Tim in 5 Tagen?",
        "Tim liest 12 * 5 = 60 Seiten.\n#### 60",
    ),
    "Portuguese: who has more": (
        "A Ana tem 12 maçãs e o Rui tem 9 maçãs. Quem tem mais maçãs e quantas maçãs têm "
        "os dois juntos?",
        "A Ana tem mais maçãs. Juntos: 12 + 9 = 21 maçãs.\n#### 21",
        "A Ana tem 7 maçãs e o Rui tem 9 maçãs. Quem tem mais maçãs e quantas maçãs têm os "
        "dois juntos?",
        "O Rui tem mais maçãs. Juntos: 7 + 9 = 16 maçãs.\n#### 16",
    ),
    "Portuguese: enough money": (
        "O Rui tem 20 reais e compra 3 livros a 5 reais cada. Quanto dinheiro sobra?",
        "O Rui paga 3 * 5 = 15 reais e tem dinheiro suficiente. Sobram 20 - 15 = 5 reais.\n#### 5",
        "O Rui tem 20 reais e compra 3 livros a 6 reais cada. Quanto dinheiro sobra?",
        "O Rui paga 3 * 6 = 18 reais e tem dinheiro suficiente. Sobram 20 - 18 = 2 reais.\n#### 2",
    ),
    "German: a number word the answer repeats": (
        "Anna hat zwölf Äpfel und isst drei davon. Wie viele Äpfel bleiben übrig?",
        "Anna hat zwölf Äpfel und isst drei davon: 12 - 3 = 9.\n#### 9",
        "Anna hat fünfzehn Äpfel und isst drei davon. Wie viele Äpfel bleiben übrig?",
        "Anna hat fünfzehn Äpfel und isst drei davon: 15 - 3 = 12.\n#### 12",
    ),
    "Portuguese: a number word the answer repeats": (
        "A Ana tem vinte e cinco maçãs e come 3. Quantas maçãs sobram?",
        "A Ana tem vinte e cinco maçãs e come 3: 25 - 3 = 22.\n#### 22",
        "A Ana tem trinta maçãs e come 3. Quantas maçãs sobram?",
        "A Ana tem trinta maçãs e come 3: 30 - 3 = 27.\n#### 27",
    ),
    "French, which the family does not read": (
        "Anne a 12 pommes et en mange 3. Combien de pommes lui reste-t-il?",
        "Il reste 12 - 3 = 9 pommes.\n#### 9",
        "Anne a 12 pommes et en mange 5. Combien de pommes lui reste-t-il?",
        "Il reste 12 - 5 = 7 pommes.\n#### 7",
    ),
    "Spanish, which the family does not read": (
        "Ana tiene 12 manzanas y come 3. ¿Cuántas manzanas le quedan si no come más de 10?",
        "Le quedan 12 - 3 = 9 manzanas.\n#### 9",
        "Ana tiene 12 manzanas y come 11. ¿Cuántas manzanas le quedan si no come más de 10?",
        "No puede comer 11: come como mucho 10, y le quedan 12 - 10 = 2.\n#### 2",
    ),
}

CONTROLS: dict[str, Case] = {
    "German: other numbers": (
        "Eine Bäckerei backt 36 Brötchen pro Blech und backt 7 Bleche. Davon werden 190 "
        "Brötchen verkauft. Wie viele Brötchen bleiben übrig?",
        "Die Bäckerei backt 36 * 7 = 252 Brötchen.\nEs bleiben 252 - 190 = 62 Brötchen übrig.\n"
        "#### 62",
        "Eine Bäckerei backt 36 Brötchen pro Blech und backt 8 Bleche. Davon werden 190 "
        "Brötchen verkauft. Wie viele Brötchen bleiben übrig?",
        "Die Bäckerei backt 36 * 8 = 288 Brötchen.\nEs bleiben 288 - 190 = 98 Brötchen übrig.\n"
        "#### 98",
    ),
    "German: other number words": (
        "Jonas liest jeden Tag zwölf Seiten in einem Buch mit 240 Seiten. Wie viele Tage "
        "braucht er für das ganze Buch?",
        "Jonas braucht 240 / 12 = 20 Tage.\n#### 20",
        "Jonas liest jeden Tag fünfzehn Seiten in einem Buch mit 240 Seiten. Wie viele Tage "
        "braucht er für das ganze Buch?",
        "Jonas braucht 240 / 15 = 16 Tage.\n#### 16",
    ),
    "Portuguese: other numbers": (
        "Uma escola tem 12 turmas com 28 alunos cada. Quantos alunos tem a escola?",
        "A escola tem 12 * 28 = 336 alunos.\n#### 336",
        "Uma escola tem 15 turmas com 28 alunos cada. Quantos alunos tem a escola?",
        "A escola tem 15 * 28 = 420 alunos.\n#### 420",
    ),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_story_in_another_language_is_never_served_stale(name: str, path: str) -> None:
    case = ATTACKS[name]
    assert_never_served_stale(case, path)


@pytest.mark.parametrize("path", ["invoke", "llama_index"])
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_german_and_portuguese_with_other_numbers_are_reused(name: str, path: str) -> None:
    case = CONTROLS[name]
    assert_still_reused(case, path)

"""Attacks on what the word-problem family vouches for without a lexicon: a supposition the
request makes ("If she had 240 sticks, how many ...?", "How many are left if ...?"), the
relations a story gives with their amount ("12 feet higher than 5 times"), the words that join
an answer's working to the story ("Since", "because", "If each ..."), the story's own outcome
words and abilities ("the discount", "can carry 3 x 1500 = 4500 liters"), and a calculator
annotation traced as the calculation it restates. Each attack is a cached answer whose words
are true of the old values only, then a request whose new values keep the arithmetic valid:
on every path (``invoke``, ``stream``, ``ainvoke``, the global cache, LlamaIndex) the served
answer is the oracle's for the new request. The controls are reused."""

from __future__ import annotations

import pytest

from tests.security.word_paths import PATHS, Case, served_after

HALL = "A hall has 5 rows of {per} seats. {ask}"
BUS = (
    "A bus can seat 40 people and costs $100. {pupils} pupils and 2 teachers go on a trip. "
    "How much does the trip cost?"
)
PENS = (
    "Pens cost $2 each. If a customer buys 12 pens the shop gives a pen away. How many pens "
    "does Ana take home after buying {n} pens?"
)
ORDER = (
    "Bo buys {n} plants at $15 each. Delivery costs $6. How much does he pay for the plants "
    "and the delivery?"
)

ATTACKS: dict[str, Case] = {
    # A rule the story states with "if" (no comma, a question after it): a condition the
    # answer applies silently, never a supposition (the 12 no calculation uses guards it).
    "rule-with-if": (
        PENS.format(n=15),
        "Step 1: Pens taken home: 15 + 1 = 16\n#### 16",
        PENS.format(n=10),
        "Step 1: Pens taken home: 10 + 0 = 10\n#### 10",
    ),
    # A question answered yes or no decides: the story's own "can" is not vouched for there.
    "yes-or-no-first": (
        HALL.format(per=8, ask="Can the 36 guests all sit? How many seats are there?"),
        "Step 1: Seats: 5 x 8 = 40\nStep 2: The 36 guests can all sit.\n#### 40",
        HALL.format(per=6, ask="Can the 36 guests all sit? How many seats are there?"),
        "Step 1: Seats: 5 x 6 = 30\nStep 2: The 36 guests cannot all sit.\n#### 30",
    ),
    "yes-or-no-after-and": (
        HALL.format(per=8, ask="How many seats are there, and can the 36 guests all sit?"),
        "Step 1: Seats: 5 x 8 = 40\nStep 2: The 36 guests can all sit.\n#### 40",
        HALL.format(per=6, ask="How many seats are there, and can the 36 guests all sit?"),
        "Step 1: Seats: 5 x 6 = 30\nStep 2: The 36 guests cannot all sit.\n#### 30",
    ),
    # An ability that decides (a rounding: how many buses) is no capacity the step computes.
    "can-decides-a-rounding": (
        BUS.format(pupils=36),
        "Step 1: People: 36 + 2 = 38\nStep 2: They can all go in one bus: 1 x $100 = $100\n"
        "#### $100",
        BUS.format(pupils=50),
        "Step 1: People: 50 + 2 = 52\nStep 2: They need two buses: 2 x $100 = $200\n#### $200",
    ),
    # The story's own "can seat", restated, with a number after it the step calculates with:
    # the 40 seats no calculation uses count people, as the pupils do (no threshold apart).
    "can-restates-the-story": (
        BUS.format(pupils=36),
        "Step 1: People: 36 + 2 = 38\nStep 2: The bus can seat all 38 people, so the cost is "
        "$100 x 1 = $100\n#### $100",
        BUS.format(pupils=50),
        "Step 1: People: 50 + 2 = 52\nStep 2: Two buses are needed, so the cost is "
        "$100 x 2 = $200\n#### $200",
    ),
    # A joining word does not vouch for what it introduces: "free" is an outcome.
    "since-introduces-an-outcome": (
        ORDER.format(n=4),
        "Step 1: Plants: 4 x $15 = $60\nStep 2: Since the plants cost $60, delivery is free: "
        "$60 + $0 = $60\n#### $60",
        ORDER.format(n=3),
        "Step 1: Plants: 3 x $15 = $45\nStep 2: Delivery: $45 + $6 = $51\n#### $51",
    ),
    # An annotation in another order than its sentence is no restatement of it: its own
    # numbers are traced (the 3 and the named count of Ana, Bo and Cy stay ambiguous).
    "annotation-in-another-order": (
        "Ana, Bo and Cy each bring 3 apples and 4 pears. How many pieces of fruit do they bring?",
        "Each brings 3 apples + 4 pears = <<4+3=7>>7 pieces, and 3 x 7 = <<3*7=21>>21 in all."
        "\n#### 21",
        "Ana, Bo and Cy each bring 5 apples and 4 pears. How many pieces of fruit do they bring?",
        "Each brings 5 apples + 4 pears = <<4+5=9>>9 pieces, and 3 x 9 = <<3*9=27>>27 in all."
        "\n#### 27",
    ),
}

CONTROLS: dict[str, Case] = {
    # A supposition that ends the question: reused.
    "supposition-in-the-question": (
        "Miss Ana gives 20 sticks to each of the 10 groups in her class. How many sticks "
        "does she have left if she had 240 sticks?",
        "Step 1: Given: 20 x 10 = 200\nStep 2: Left: 240 - 200 = 40\n#### 40",
        "Miss Ana gives 15 sticks to each of the 10 groups in her class. How many sticks "
        "does she have left if she had 240 sticks?",
        "Step 1: Given: 15 x 10 = 150\nStep 2: Left: 240 - 150 = 90\n#### 90",
    ),
    # A relation the story gives with its amount, and a joining word: reused.
    "relation-and-since": (
        "Southton buries its time capsule 15 feet underground. Northton buries its capsule "
        "12 feet higher than 4 times the depth of Southton's. How deep is Northton's capsule?",
        "Since Northton's is 4 times Southton's minus 12, 4 x 15 = <<4*15=60>>60 and "
        "60 - 12 = <<60-12=48>>48 feet.\n#### 48",
        "Southton buries its time capsule 20 feet underground. Northton buries its capsule "
        "12 feet higher than 4 times the depth of Southton's. How deep is Northton's capsule?",
        "Since Northton's is 4 times Southton's minus 12, 4 x 20 = <<4*20=80>>80 and "
        "80 - 12 = <<80-12=68>>68 feet.\n#### 68",
    ),
    # The story's ability, restated as the capacity the step computes: reused.
    "capacity": (
        "A farmer has 3 trucks. Each truck carries 3 tanks of 1500 liters of water. How many "
        "liters of water in total can the farmer carry?",
        "A truck can carry 3 tanks * 1500 liters = 4500 liters.\n"
        "The 3 trucks can carry 3 * 4500 = 13500 liters.\n#### 13500",
        "A farmer has 3 trucks. Each truck carries 3 tanks of 1200 liters of water. How many "
        "liters of water in total can the farmer carry?",
        "A truck can carry 3 tanks * 1200 liters = 3600 liters.\n"
        "The 3 trucks can carry 3 * 3600 = 10800 liters.\n#### 10800",
    ),
    # An annotation traced as the sentence it restates, whose units tell two equal
    # quantities apart: reused.
    "annotation-twin": (
        "Cassidy is grounded for 15 days, plus 4 extra days for each grade below a B. If "
        "Cassidy got four grades below a B, how long is she grounded for?",
        "Low grades: 4 grades * 4 days/grade = <<4*4=16>>16 days\n"
        "Total: 16 days + 15 days = <<16+15=31>>31 days\n#### 31",
        "Cassidy is grounded for 15 days, plus 3 extra days for each grade below a B. If "
        "Cassidy got four grades below a B, how long is she grounded for?",
        "Low grades: 4 grades * 3 days/grade = <<4*3=12>>12 days\n"
        "Total: 12 days + 15 days = <<12+15=27>>27 days\n#### 27",
    ),
}


def _words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_no_plain_word_attack_gets_a_stale_answer(name: str, path: str) -> None:
    served, decision = served_after(ATTACKS[name], path)
    assert _words(served) == _words(ATTACKS[name][3]), (decision, served)


@pytest.mark.parametrize("path", ["invoke", "llama_index"])
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_words_that_cannot_depend_on_the_values_are_reused(name: str, path: str) -> None:
    served, decision = served_after(CONTROLS[name], path)
    assert decision == "reuse", (decision, served)
    assert _words(served) == _words(CONTROLS[name][3]), served

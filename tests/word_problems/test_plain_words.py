"""What a request decides, and the words of an answer vouched for where it decides nothing
(see ``prose.choice_words`` and ``prose.unvouched``): each rule with the case it must refuse
beside the case it opens."""

from __future__ import annotations

import pytest

from stepcache_integrations.core.tasks.word_problem.arithmetic import (
    read_step,
    restated_by_annotations,
)
from stepcache_integrations.core.tasks.word_problem.prose import (
    choice_words,
    story_words,
    unvouched,
)


@pytest.mark.parametrize(
    "request_text",
    [
        # A supposition: its premise is plain, and a question follows it or it ends one.
        "If Kim sold 1200 boxes on Thursday, how many did she sell in all?",
        "How many sticks does she have left if she had 240 popsicle sticks?",
        "If Cassidy got four grades below a B, how long is she grounded for?",
        # A relation the story gives with its amount.
        "Northton's capsule is 12 feet higher than 5 times Southton's depth of 20 feet. How deep?",
        "Mason is three times younger than Sydney. If Mason is 16, how old is Sydney?",
        "Kenji sold 4 more than half the number Lucia sold. Lucia sold 14. How many in all?",
        "In 90 minutes, 2 L/min flow in. Then Max adds 3 L. How much water is there?",
        # A premise the question rests on may state an ability, an equality or a time.
        "If one potato can be cut into 5 wedges, how many wedges does Cy make from 3?",
        "If Kyle and Tasha caught the same number and Carla caught 15, how many did Kyle?",
        "Ana has 12 apples for 4 friends. How many does each get if all get the same number?",
        # A capital inside a question after "and" names (a month), it asks no yes or no.
        "She sold 62 clips in April and half as many in May. How many in April and May?",
    ],
)
def test_what_a_story_supposes_or_gives_decides_nothing(request_text: str) -> None:
    assert choice_words(request_text) == ()


@pytest.mark.parametrize(
    ("request_text", "word"),
    [
        # A rule the story states: the answer decides whether it applies.
        ("If a customer buys 12 pens the shop gives one away. How many does Ana get?", "if"),
        ("If he sells 30 burgers for $4 each. How much does he earn?", "if"),
        ("If you buy 3, you get one free. How many does Ana pay for?", "if"),
        ("How much does she pay if she buys more than 10?", "if"),
        ("If he can only carry 4 at a time, how many trips does he make?", "if"),
        ("If the bus cannot take everyone, how many buses are needed?", "if"),
        ("If the total is over $50, delivery is free. How much does Bo pay?", "if"),
        # A question answered yes or no, first or after "and".
        ("A hall has 40 seats. Can the 36 guests all sit? How many seats are left?", "can"),
        ("A hall has 40 seats. How many are left, and do the 36 guests all sit?", "do"),
        ("A hall has 40 seats. How many are left? And Can the 36 guests all sit?", "can"),
        # A question word inside a quotation asks, capitalised after a comma.
        ('Ana has 5 apples and Bo has 7. Bo asks, "Which of us has 7 apples?"', "which"),
        # A comparative without its amount chooses.
        ("Blue pens cost $2 and red pens $3. Ana buys 4 of the cheaper ones. Cost?", "cheaper"),
    ],
)
def test_a_condition_a_question_of_yes_or_no_and_a_choice_decide(
    request_text: str, word: str
) -> None:
    assert word in choice_words(request_text)


BUS = story_words("A bus can seat 40 people and costs $100. 36 pupils and 2 teachers go.")
TRUCKS = story_words("Each truck carries 3 tanks of 1500 liters. How much can a truck carry?")
ORDER = story_words(
    "Bo buys 4 plants at $15 each and gets a discount of $5. Delivery costs $6. How much?"
)


@pytest.mark.parametrize(
    ("step", "story"),
    [
        ("Since a truck has 3 tanks, it carries 3 * 1500 = 4500 liters.", TRUCKS),
        ("He will need 4500 liters because 3 x 1500 = 4500", TRUCKS),
        ("If each tank holds 1500 liters, a truck carries 3 * 1500 = 4500 liters.", TRUCKS),
        ("A truck can carry 3 tanks * 1500 liters = 4500 liters.", TRUCKS),
        ("The discount Bo got was $5, so he pays 4 x $15 - $5 = $55.", ORDER),
    ],
)
def test_joining_words_and_the_storys_own_outcomes_are_vouched_for(
    step: str, story: frozenset[str]
) -> None:
    assert unvouched(step, story, False) is None


@pytest.mark.parametrize(
    ("step", "story", "decides", "word"),
    [
        # Where the request decides, nothing joining or restating the story is vouched for.
        ("Since a truck has 3 tanks, it carries 3 * 1500 = 4500 liters.", TRUCKS, True, "Since"),
        ("A truck can carry 3 tanks * 1500 liters = 4500 liters.", TRUCKS, True, "can"),
        # A joining word does not vouch for what it introduces.
        ("Since the plants cost $60, delivery is free: $60 + $0 = $60", ORDER, False, "free"),
        # An ability that decides or rounds ("one bus") is no capacity the step computes.
        ("They can all go in one bus: 1 x $100 = $100", BUS, False, "can"),
        ("The bus can seat them all.", BUS, False, "can"),
        # Negated, or not the story's own word.
        ("A truck can't carry 3 * 1500 = 4500 liters.", TRUCKS, False, "can"),
        ("Bo is able to pay 4 x $15 = $60.", ORDER, False, "able"),
        # Branches are never joining words.
        ("Otherwise he pays 4 x $15 = $60.", ORDER, False, "Otherwise"),
    ],
)
def test_what_may_decide_by_the_values_is_not_vouched_for(
    step: str, story: frozenset[str], decides: bool, word: str
) -> None:
    found = unvouched(step, story, decides)
    assert found is not None and f"'{word}'" in found, found


def test_an_annotation_restates_the_calculation_written_just_before_it() -> None:
    text = "Low grades: 4 grades * 3 days/grade = <<4*3=12>>12 days, in all 12 + 5 = <<12+5=17>>17"
    math = read_step(text)
    twins = restated_by_annotations(text)
    inside = [text.count("<<", 0, m.start) > text.count(">>", 0, m.start) for m in math.mentions]
    assert all(inside[a] and not inside[b] for a, b in twins.items())
    assert sorted(math.mentions[b].text for b in twins.values()) == [
        "12",
        "12",
        "17",
        "3",
        "4",
        "5",
    ]
    # Another order is another calculation: nothing is restated.
    assert restated_by_annotations("3 apples + 4 pears = <<4+3=7>>7 pieces") == {}
    assert restated_by_annotations("He has 7 apples <<3+4=7>>") == {}

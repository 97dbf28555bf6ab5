"""Where a request quantity is used in a calculation its unit must fit (a number of the
world of the same value is not rebound), and a rebound count that crosses 1 is not written
where words agree with it. The cases are written here for these rules."""

from __future__ import annotations

from stepcache_integrations.core.steps import ParagraphSegmenter
from stepcache_integrations.core.tasks import WordProblemFamily
from stepcache_integrations.core.tasks.word_problem.arithmetic import read_step
from stepcache_integrations.core.tasks.word_problem.units import (
    MISMATCH,
    combine,
    differs,
    is_measure,
    unit_at,
)
from stepcache_integrations.core.verifiers.base import VerifyContext

FAMILY = WordProblemFamily()


def adapt(old: str, new: str, answer: str) -> tuple[list[str], int, str]:
    steps = ParagraphSegmenter().split(answer)
    found = FAMILY.adapt_answer(VerifyContext(new, old), steps)
    assert found is not None
    return [s.text for s in found.steps], found.valid, found.reason


# --- the unit a quantity is stated in ------------------------------------------------------------


def test_a_rate_puts_its_unit_below_the_line() -> None:
    text = "Lace costs $3 per metre, a lorry drives 80 km/h, and Tia pours 6 pints."
    assert unit_at(text, text.index("3 per") + 1, "$") == {("dollar", 1), ("meter", -1)}
    assert unit_at(text, text.index("80") + 2, "km/h") == {("kilometer", 1)}
    assert unit_at(text, text.index("6 pints") + 1, "pints") == {("pint", 1)}


def test_counted_things_are_pure_numbers_and_areas_have_a_power() -> None:
    text = "Ivy has 9 kites and a wall of 12 square feet and 2 extra gallons."
    assert unit_at(text, text.index("9") + 1, "kites") == frozenset()
    assert unit_at(text, text.index("12") + 2, "square") == {("foot", 2)}
    assert unit_at(text, text.index("2 extra") + 1, "extra") == {("gallon", 1)}
    assert unit_at(text, text.index("9") + 1, None) is None


def test_an_english_word_after_a_count_is_no_unit() -> None:
    # "people in all": "in" is no inch here.
    text = "They are 4 people in all."
    assert unit_at(text, text.index("4") + 1, "people") == frozenset()


def test_periods_are_counts_and_other_measures_are_units() -> None:
    assert not is_measure("days") and not is_measure("minutes")
    assert is_measure("tablespoons") and is_measure("kg") and is_measure("$")
    assert not is_measure("lanterns")


def test_units_multiply_and_sums_need_one_unit() -> None:
    product = read_step("5 * 3 = 15").equations[0].sides[0]
    rate = {0: frozenset({("dollar", 1), ("foot", -1)}), 1: frozenset({("foot", 1)})}
    assert combine(product, rate.get) == {("dollar", 1)}
    total = read_step("5 + 3 = 8").equations[0].sides[0]
    mixed = {0: frozenset({("kilogram", 1)}), 1: frozenset({("liter", 1)})}
    assert combine(total, mixed.get) == MISMATCH
    counted = {0: frozenset({("kilogram", 1)}), 1: frozenset()}
    assert combine(total, counted.get) == {("kilogram", 1)}
    assert combine(product, {0: frozenset({("kilogram", 1)})}.get) is None  # 3 is not known
    assert not differs(frozenset({("dollar", 1), ("hour", -1)}), frozenset({("dollar", 1)}))


# --- a number of the world equal to a quantity ---------------------------------------------------

RUG = (
    "A rectangular rug is 3 m long and 4 m wide. Fringe costs ${price} per metre. "
    "How much does fringe around the whole rug cost?"
)
RUG_ANSWER = "2 * (3 + 4) = 14 m.\n\n14 * $2 = $28.\n\nThe fringe costs $28."


def test_a_perimeter_factor_equal_to_a_price_is_not_rebound() -> None:
    # The 2 of the perimeter is not the $2 a metre: dollars a metre times metres is dollars.
    steps, valid, reason = adapt(RUG.format(price=2), RUG.format(price=5), RUG_ANSWER)
    assert valid == 0, steps
    assert "may not be the quantity" in reason


def test_a_price_per_unit_times_the_units_is_still_rebound() -> None:
    old = "A path is 15 km long. A taxi costs ${price} per km. How much is the ride?"
    steps, valid, _ = adapt(
        old.format(price=3), old.format(price=4), "15 * $3 = $45.\n\nThe ride costs $45."
    )
    assert valid == 2
    assert steps == ["15 * $4 = $60.", "The ride costs $60."]


def test_a_conversion_factor_equal_to_a_quantity_is_not_rebound() -> None:
    cake = (
        "A cake needs 3 cups of milk and {oil} tablespoons of oil. "
        "How many tablespoons of liquid is that?"
    )
    answer = "3 * 16 = 48 tablespoons of milk.\n\n48 + 16 = 64 tablespoons."
    steps, valid, reason = adapt(cake.format(oil=16), cake.format(oil=10), answer)
    assert valid == 0, steps
    assert "cup tablespoon" in reason


def test_a_count_times_a_measure_that_gives_another_unit_is_not_rebound() -> None:
    # Pints times a count of mugs gives cups only with 2 cups a pint: that 2 is not the mugs.
    old = "Leo has 3 pints of cocoa and {mugs} mugs. How many cups of cocoa does each mug get?"
    answer = "3 * 2 = 6 cups.\n\n6 / 2 = 3 cups per mug."
    steps, valid, reason = adapt(old.format(mugs=2), old.format(mugs=4), answer)
    assert valid == 0, steps
    assert "gives pint where the result is in cup" in reason


def test_an_amount_written_bare_where_the_answer_writes_it_as_money_is_not_rebound() -> None:
    patio = "A square patio has sides of 6 ft. Edging costs ${price} per foot. What does it cost?"
    answer = "4 * 6 = 24.\n\n24 * $4 = $96.\n\nIt costs $96."
    steps, valid, reason = adapt(patio.format(price=4), patio.format(price=7), answer)
    assert valid == 0, steps
    assert "as money" in reason


def test_a_rate_over_periods_is_rebound() -> None:
    old = "Omar earns ${pay} an hour and works 6 hours a day for {days} days. What does he earn?"
    answer = "12 * 6 = $72 a day.\n\n72 * 5 = $360.\n\nHe earns $360."
    steps, valid, _ = adapt(old.format(pay=12, days=5), old.format(pay=15, days=4), answer)
    assert valid == 3, steps
    assert steps == ["15 * 6 = $90 a day.", "90 * 4 = $360.", "He earns $360."]


# --- a count that crosses 1 ---------------------------------------------------------------------

KITES = "Zoe had 6 kites and lost {lost} of them. How many kites does she have now?"


def test_a_count_that_becomes_one_is_not_written_before_its_plural() -> None:
    steps, valid, reason = adapt(
        KITES.format(lost=4), KITES.format(lost=5), "6 - 4 = 2.\n\nZoe has 2 kites now."
    )
    assert valid == 1
    assert steps[0] == "6 - 5 = 1."
    assert "agree" in reason


def test_there_are_before_a_count_that_becomes_one() -> None:
    vans = "A garage holds 9 vans and {gone} of them leave. How many vans are still there?"
    _, valid, reason = adapt(
        vans.format(gone=7), vans.format(gone=8), "9 - 7 = 2.\n\nThere are still 2 in the garage."
    )
    assert valid == 1 and "agree" in reason


def test_a_result_of_one_that_becomes_more_is_not_written_before_its_noun() -> None:
    pears = "A bowl has 8 pears and Kai eats {eaten} of them. How many pears are left?"
    steps, valid, reason = adapt(
        pears.format(eaten=7), pears.format(eaten=5), "8 - 7 = 1 pear is left."
    )
    assert valid == 0, steps
    assert "agree" in reason


def test_a_count_with_no_word_agreeing_may_cross_one() -> None:
    boxes = "{cards} cards are packed 9 to a box. How many boxes?"
    steps, valid, _ = adapt(
        boxes.format(cards=18), boxes.format(cards=9), "18 / 9 = 2.\n\nThe answer: 2"
    )
    assert valid == 2
    assert steps == ["9 / 9 = 1.", "The answer: 1"]


def test_a_count_that_stays_plural_is_rewritten() -> None:
    steps, valid, _ = adapt(
        KITES.format(lost=4), KITES.format(lost=1), "6 - 4 = 2.\n\nZoe has 2 kites now."
    )
    assert valid == 2
    assert steps == ["6 - 1 = 5.", "Zoe has 5 kites now."]

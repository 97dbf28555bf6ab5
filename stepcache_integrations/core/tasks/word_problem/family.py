"""The word-problem family: multi-step arithmetic in prose, re-instantiated for new quantities."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from stepcache_integrations.core.steps import Step
from stepcache_integrations.core.tasks.base import Adaptation, Span, TaskFamily, is_separator
from stepcache_integrations.core.tasks.word_problem.arithmetic import equation_spans, read_step
from stepcache_integrations.core.tasks.word_problem.chain import Flow, flow, trace
from stepcache_integrations.core.tasks.word_problem.framing import (
    FRAMING_WORDS,
    NAMING_WORDS,
    format_spans,
    framing_spans,
    inside,
    sentence_spans,
)
from stepcache_integrations.core.tasks.word_problem.kinds import (
    Bounds,
    counts_in_fractions,
    part_of_whole,
    rename_problem,
)
from stepcache_integrations.core.tasks.word_problem.languages import (
    deciding_word,
    foreign_quantities,
    foreign_unvouched,
    language_of,
    reads_numbers_otherwise,
)
from stepcache_integrations.core.tasks.word_problem.prose import (
    choice_words,
    foreign_name,
    foreign_word,
    named_thing,
    story_relations,
    story_words,
    unvouched,
)
from stepcache_integrations.core.tasks.word_problem.renaming import (
    INDEPENDENT_WORDS,
    Renaming,
    renaming,
)
from stepcache_integrations.core.tasks.word_problem.request import (
    pair_quantities,
    request_quantities,
    same_value,
)
from stepcache_integrations.core.tasks.word_problem.units import wraps_around, writes_mixed_units
from stepcache_integrations.core.tasks.word_problem.verifier import TASK, WordProblemVerifier
from stepcache_integrations.core.text import Edit, Token, compare
from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.quantities import Quantity, read_quantities, unit_name
from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext

__all__ = ["WordProblemFamily"]

logger = logging.getLogger(__name__)


class WordProblemFamily(TaskFamily):
    """Multi-step arithmetic word problems ("A baker makes 24 rolls... How many are left?").

    Steps are paragraphs and list items. A cached answer is re-instantiated for a request that
    differs only in its quantities (digits or words, fractions, multipliers, percentages):
    each number of each step is traced to a request quantity or to an earlier calculation,
    every calculation is redone exactly for the new quantities, and the numbers are rewritten
    in the text. Re-instantiation stops at the first step it cannot carry over (an untraced or
    ambiguous number, a count that would become fractional or negative, a division by zero):
    from there the model writes the rest, or answers afresh. There is no deterministic answer:
    reading what a problem asks is the model's job.

    Example:
        >>> from stepcache_integrations.core.steps import Step
        >>> from stepcache_integrations.core.verifiers.base import ChangeAccount, VerifyContext
        >>> family = WordProblemFamily()
        >>> cached = "Ana has 12 apples and eats three of them. How many apples are left?"
        >>> new = "Ana has 20 apples and eats five of them. How many apples are left?"
        >>> family.recognises(new, {})
        True
        >>> done = family.adapt_answer(VerifyContext(new, cached), [Step("12 - 3 = 9")])
        >>> done.steps[0].text, done.complete
        ('20 - 5 = 15', True)
    """

    name = TASK
    priority = 30
    # Words that only name the task ("solve this problem", "help me with this question"):
    # none can carry a calculation. They, and the polite filler around them, are framing only
    # inside a sentence made of nothing else (see ``framing.py``): "for" frames "a problem
    # for you" and computes "3 apples for $2".
    instruction_words = NAMING_WORDS

    def __init__(self) -> None:
        self.word_problems = WordProblemVerifier()
        super().__init__(self.word_problems)

    def recognises(self, request: str, options: Mapping[str, Any]) -> bool:
        return self.word_problems.applies_to(request, dict(options))

    def account(self, edit: Edit, ctx: VerifyContext) -> ChangeAccount | None:
        """A change of the quantities (``"value"``) or of the framing around the problem
        (``"wording"``: every changed word lies in a sentence that only frames it, "Here is a
        word problem for you."); or ``None``: any other change of the problem's words may
        change its calculation ("3 apples for $2" -> "3 apples for $2 each")."""
        if ctx.cached_request is None:
            return None
        if _problem_text(ctx.cached_request) == _problem_text(ctx.request):
            # Only framing sentences differ: the problem is the same text, whatever the edits
            # look like (after a colon letter case counts, so "A" can become an edit).
            return ChangeAccount(edit, self.name, "wording", "framing around the problem")
        removed, added = _without_same_text(edit.removed, edit.added)
        if not removed and not added:
            # Only how the words compare changed (letter case kept after a colon), not the text.
            return ChangeAccount(edit, self.name, "wording", "the same text")
        if wraps_around(ctx.cached_request) or wraps_around(ctx.request):
            # A clock time or position, a date, an angle, a bounded temperature (see
            # units.wraps_around): new values may wrap or carry ("14 am", "March 34") and a
            # renamed month has other days: the model answers.
            return None
        renamed = _renaming(ctx.cached_request, ctx.request)
        if renamed is not None or _paired(ctx.cached_request, ctx.request):
            # The family's own alignment: the new request is the cached one with its
            # quantities changed (and its names and things renamed throughout), whatever
            # pieces the comparison cut the changes into ("3 to 1" / "5 to 3").
            quantity = any(
                _inside_quantity(token, text)
                for tokens, text in ((removed, ctx.cached_request), (added, ctx.request))
                for token in tokens
            )
            if quantity or renamed is None:
                return ChangeAccount(edit, self.name, "value", "a quantity of the problem")
            return ChangeAccount(edit, self.name, "rename", "a name or a thing renamed throughout")
        found = super().account(Edit(removed, added), ctx)
        if found is not None and found.kind == "case":
            return ChangeAccount(edit, self.name, "case", found.what)
        kinds = [
            *(_kind(token, ctx.cached_request) for token in removed),
            *(_kind(token, ctx.request) for token in added),
        ]
        if None in kinds:
            return None
        if all(kind == "wording" for kind in kinds):
            return ChangeAccount(edit, self.name, "wording", "framing around the problem")
        return ChangeAccount(edit, self.name, "value", "a quantity of the problem")

    def _only_framing(self, ctx: VerifyContext) -> bool:
        cached = ctx.cached_request or ""
        delta = compare(cached, ctx.request)
        if delta.same:
            return True
        if delta.polarity_changed:
            return False
        accounts = [self.account(edit, ctx) for edit in delta.edits]
        return all(a is not None and a.kind in ("wording", "case") for a in accounts)

    def verified_spans(self, request: str, options: Mapping[str, Any]) -> Sequence[Span]:
        """The quantities (their units are not part of them: a changed unit is meaning)."""
        return [(quantity.start, quantity.end) for quantity in request_quantities(request)]

    def unchecked_part(
        self,
        ctx: VerifyContext,
        accounts: Sequence[ChangeAccount],
        step: Step,
        index: int,
        steps: Sequence[Step],
    ) -> str | None:
        """Every number of a re-instantiated step is traced and every calculation redone (the
        verifier checks that); its words are vouched for only when they cannot depend on the
        new values: words that name or describe, and comparisons and roundings whose numbers
        the step states and that still hold (closed world: see ``prose.py``). Nothing changed
        but framing or how a quantity is written: nothing depends on it."""
        values = any(account.kind == "value" for account in accounts)
        renames = any(account.kind == "rename" for account in accounts)
        if not values and not renames:
            return None
        cached = ctx.cached_request
        if cached is None:
            return "the cached request is unknown, so the changed quantities are too"
        language = language_of(ctx.request)
        preface = values and not renames and _before_any_number(steps[: index + 1], language)
        if language != "en":
            # A German or Portuguese story: its own words and the language's function words
            # only (renames are refused for it, see ``_renaming``).
            return foreign_unvouched(step.text, ctx.request, language, preface)
        story = story_words(ctx.request)
        if renames:
            # Renamed throughout: every word of the step must be the new request's own or
            # one that names no thing of the story (a label may have named the old thing).
            # Where only people were renamed, no word but a name can have named them.
            persons = _persons_only(cached, ctx.request)
            found = (
                foreign_word(step.text, story, _INDEPENDENT)
                if persons is None
                else foreign_name(step.text, story, persons, _INDEPENDENT)
            )
            if found is not None:
                return found
        if not values or _same_quantities(cached, ctx.request):
            return None
        if writes_mixed_units(step.text):
            return (
                "this step writes a quantity in two units that carry into each other: for the "
                "new values it may carry ('1 year and 14 months')"
            )
        asked = choice_words(_problem_text(ctx.request))
        # A preface is vouched for only where the request decides nothing: an answer to
        # "Can she afford it?" may open with its verdict in any words.
        found = unvouched(
            step.text, story, bool(asked), story_relations(ctx.request), preface and not asked
        )
        if found is not None:
            return found
        if asked:
            # "Which box goes at the bottom?": the answer may name the chosen thing in words
            # alone ("The green box goes at the bottom."), which new values may change.
            chosen = named_thing(step.text, story)
            if chosen is not None:
                return f"the request asks to choose or decide ('{asked[0]}'), and {chosen}"
        if asked and _states_a_value(step):
            # "Which is larger...?": the answer may pick one of its values without a word.
            return (
                f"the request asks to choose or decide ('{asked[0]}'), and this step states a "
                "value without calculating it: for the new quantities it may be another value"
            )
        return None

    def adapt_answer(self, ctx: VerifyContext, steps: Sequence[Step]) -> Adaptation | None:
        """The cached answer rewritten for the new quantities, up to the first step that
        cannot be carried over (all of it when every step can)."""
        if ctx.cached_request is None or not steps:
            return None
        if _same_quantities(ctx.cached_request, ctx.request) and self._only_framing(ctx):
            # The same problem with other framing ("Here is a word problem for you."): the
            # steps are verified as they are.
            return Adaptation(tuple(steps), len(steps))
        try:
            return _adapt(ctx.cached_request, ctx.request, steps)
        except Exception as error:  # never fall back to the unadapted steps
            logger.warning("word-problem re-instantiation failed: %r", error)
            return Adaptation(tuple(steps), 0, f"re-instantiation failed: {error!r}")


def _adapt(cached: str, request: str, steps: Sequence[Step]) -> Adaptation:
    """Rename (names and things, consistently), then re-instantiate for the new quantities:
    valid up to the first step either cannot carry over."""
    unread = _unread(cached, request, steps)
    if unread is not None:
        return Adaptation(tuple(steps), 0, unread)
    renamed = _renaming(cached, request)
    if renamed is None:
        return _reinstantiate(cached, request, steps)
    cached_renamed = renamed.rename(cached)
    if cached_renamed is None:
        return Adaptation(tuple(steps), 0, "the cached request cannot be renamed with certainty")
    changed = _renamed_kinds(renamed, cached, request, steps)
    if changed is not None:
        return Adaptation(tuple(steps), 0, changed)
    rewritten: list[Step] = []
    reason = ""
    counted = {unit_name(q.unit) for q in request_quantities(cached) if q.unit is not None}
    for index, step in enumerate(steps):
        text = renamed.rename(step.text)
        if text is None:
            reason = f"step {index}: a word of it cannot be renamed with certainty"
            break
        unit = _renamed_unit(renamed, step.text, counted)
        if unit is not None:
            reason = f"step {index}: '{unit}' is a unit of an expression, renamed"
            break
        rewritten.append(Step(text, step.separator))
    limit = len(rewritten)
    found = _reinstantiate(cached_renamed, request, [*rewritten, *steps[limit:]])
    if found.valid <= limit:
        return found
    return Adaptation(found.steps, limit, reason)


def _unread(cached: str, request: str, steps: Sequence[Step]) -> str | None:
    """Why a story in German or Portuguese cannot be re-instantiated (see ``languages.py``):
    a word that decides, or a number written the way the family's reader reads otherwise."""
    language = language_of(cached)
    if language == "en" and language_of(request) == "en":
        return None
    if language_of(request) != language:
        return "the request is in another language than the cached one"
    found = deciding_word(cached, language, cached)
    if found is not None:
        return f"'{found}' may compare, choose or decide by the values"
    if any(reads_numbers_otherwise(text) for text in (cached, request, *(s.text for s in steps))):
        return "a number is written with a decimal comma or a dot between thousands"
    return None


def _renamed_kinds(
    renamed: Renaming, cached: str, request: str, steps: Sequence[Step]
) -> str | None:
    """Why the things renamed change what the cached answer relied on (see
    ``kinds.rename_problem``): names of people are not things; a phrase is renamed by its
    last word, the thing it names."""
    things = [
        (old, new)
        for old, new in renamed.words.items()
        if not new[:1].isupper() and not _capitalised_in(old, cached)
    ]
    things += [
        (old[-1], new[0].split()[-1])
        for old, new in renamed.phrases.items()
        if old and new and new[0] and not new[0][:1].isupper()
    ]
    if not things:
        return None
    olds = [old for old, _ in things]
    fractional = counts_in_fractions(cached, [step.text for step in steps], olds)
    return rename_problem(things, request, fractional)


def _persons_only(cached: str, request: str) -> frozenset[str] | None:
    """The old names (lower case) when the renaming from ``cached`` to ``request`` renames
    people only: every renamed word a name on both sides (capitalised in the new request and
    inside a sentence of the cached one), no phrase, and no pronoun or verb changed (a person
    who changed gender may be "the girl" in a step). ``None`` otherwise."""
    renamed = _renaming(cached, request)
    if renamed is None or renamed.phrases or renamed.pronouns or renamed.verbs:
        return None
    if not renamed.words or not all(
        new[:1].isupper() and _capitalised_in(old, cached) for old, new in renamed.words.items()
    ):
        return None
    return frozenset(renamed.words)


def _capitalised_in(word: str, text: str) -> bool:
    """Whether ``text`` writes ``word`` with a capital inside a sentence: a name."""
    return re.search(rf"(?<![.!?]\s)(?<!^)\b{re.escape(word.capitalize())}\b", text) is not None


def _invalid_values(cached: str, old: Sequence[Quantity], new: Sequence[Quantity]) -> str | None:
    """Why a new quantity is no valid value of what the cached one counted (see
    ``kinds.Bounds.quantity``), or a part became more than its whole ("60 of the 50")."""
    bounds = Bounds.of(cached)
    for a, b in zip(old, new, strict=True):
        found = bounds.quantity(cached, a, b)
        if found is not None:
            return found
    return part_of_whole(cached, old, new)


def _renamed_unit(renamed: Renaming, text: str, counted: set[str | None]) -> str | None:
    """A renamed word that ``text`` uses as a unit inside an equation ("4 inches/woman",
    "3 kayaks x $12 per kayak") and that the cached request counts no quantity of: a unit of
    measure the calculation may convert by, never renamed. (A unit the request counts, the
    "5 kayaks" it states, is the thing it counts: renamed on both sides alike.)"""
    math = read_step(text)
    for start, end in equation_spans(math):
        for match in _WORD.finditer(text, start, end):
            word = match.group().lower()
            if (
                word in renamed.words or any(word in phrase for phrase in renamed.phrases)
            ) and unit_name(word) not in counted:
                return match.group()
    return None


_WORD = re.compile(r"[^\W\d_]+")
# Words of a renamed step that depend on no name or thing: the closed lists, and units.
_INDEPENDENT = INDEPENDENT_WORDS


@text_memo(max_chars=800_000)
def _renaming(cached: str | None, request: str) -> Renaming | None:
    """The consistent renaming from ``cached`` to ``request`` when there is a non-empty one
    whose rename of the cached request is the new request but for its quantities."""
    if cached is None or language_of(cached) != "en":
        return None  # the family reads renames in English stories only
    found = renaming(cached, request)
    if isinstance(found, str) or found.empty:
        return None
    again = found.rename(cached)
    if again is None or isinstance(pair_quantities(again, request), str):
        return None
    return found


def _same_quantities(cached: str, request: str) -> bool:
    """The same values in the same order, in any notation ("$70" / "seventy dollars")."""
    old, new = request_quantities(cached), request_quantities(request)
    return len(old) == len(new) and all(same_value(a, b) for a, b in zip(old, new, strict=True))


def _before_any_number(steps: Sequence[Step], language: str) -> bool:
    """Whether ``steps`` state no number at all, in digits or in words of English or the
    story's ``language`` ("Sure!", "### Solution", "Claro!"): the opening of an answer,
    before it says anything about a value."""
    return not any(
        read_quantities(step.text) or (language != "en" and foreign_quantities(step.text, language))
        for step in steps
    )


def _states_a_value(step: Step) -> bool:
    """Whether a line of ``step`` writes a number without calculating it ("So the answer is
    13.", "#### 13"): where an answer may state which of its values it chose."""
    for line in step.text.splitlines():
        math = read_step(line)
        if math.mentions and not math.equations:
            return True
    return False


def _without_same_text(
    removed: tuple[Token, ...], added: tuple[Token, ...]
) -> tuple[tuple[Token, ...], tuple[Token, ...]]:
    """An edit without the tokens at its ends that are written the same on both sides (a word
    after a colon keeps its case for comparison, so "She" and "She" can differ there)."""
    while removed and added and removed[0].text == added[0].text:
        removed, added = removed[1:], added[1:]
    while removed and added and removed[-1].text == added[-1].text:
        removed, added = removed[:-1], added[:-1]
    return removed, added


@text_memo(max_chars=400_000)
def _problem_text(request: str) -> str:
    """The request without its framing sentences, its whitespace collapsed, and a question
    asked first put last ("How many clips did she sell? Natalia sold 48 ..." asks what
    "Natalia sold 48 ... How many clips did she sell?" asks: the story's own sentences keep
    their order)."""
    kept, cursor = [], 0
    for start, end in framing_spans(request):
        kept.append(request[cursor:start])
        cursor = end
    kept.append(request[cursor:])
    text = " ".join("".join(kept).split())
    first = _FIRST_QUESTION.match(text)
    if first is not None and "?" not in text[first.end() :]:
        text = f"{text[first.end() :].strip()} {first.group().strip()}"
    return text


# A question that opens the problem, and the story after it has none.
_FIRST_QUESTION = re.compile(r"[^.!?]{3,300}\?\s")


@text_memo(max_chars=800_000)
def _paired(cached: str, request: str) -> bool:
    """Whether the requests differ in their quantities only (see ``pair_quantities``)."""
    return not isinstance(pair_quantities(cached, request), str)


def _inside_quantity(token: Token, request: str) -> bool:
    return any(q.start < token.end and token.start < q.end for q in request_quantities(request))


def _kind(token: Token, request: str) -> Literal["wording", "value"] | None:
    """What one changed token of ``request`` is to the family (see ``account``)."""
    if is_separator(token):
        return "wording"
    if any(q.start <= token.start and token.end <= q.end for q in request_quantities(request)):
        return "value"
    if (
        token.kind == "word"
        and token.norm.lower() in FRAMING_WORDS
        and inside(token.start, framing_spans(request))
    ):
        return "wording"
    return None


@text_memo(max_chars=800_000)
def _answer_flow(texts: tuple[str, ...], cached: str) -> Flow:
    return flow(texts, request_quantities(cached), cached)


def _problem_quantities(request: str, quantities: Sequence[Quantity]) -> list[int]:
    """The quantities the problem states that an answer has to use: not an ordinal ("the
    third day"), not "one" or "zero" ("in one basket", a constant an answer may use anyway),
    not a count of the framing or of the answer's form ("one line per step")."""
    outside = (*framing_spans(request), *format_spans(request))
    return [
        i
        for i, q in enumerate(quantities)
        if q.kind != "ordinal" and q.value not in (0, 1) and not inside(q.start, outside)
    ]


_HOW_MANY = re.compile(r"(?i)\bhow\s+many\s+((?:[^\W\d_]+\s+){0,2}[^\W\d_]+)")
_NOT_COUNTED = frozenset(
    """do does did is are was were will would can could should has have had there in of on
    at for to more left remaining remain remains now still altogether together total needed
    each""".split()  # noqa: SIM905
)


# Units every conversion of which into the others is a cued constant of the tracer.
_CONVERTED_BY_CUES = frozenset(
    """second minute hour day week month year millimeter centimeter meter kilometer gram
    kilogram milliliter liter dollar cent inch foot yard ounce pound""".split()  # noqa: SIM905
)


def _counts_apart(
    request: str, old: Sequence[Quantity], new: Sequence[Quantity], index: int
) -> bool:
    """Whether the unused quantity ``index`` can be no threshold of the changed ones: it did
    not change, the request decides nothing (no ``choice_words``: no "if", "over $50",
    "at least", "which"), and it counts something no changed quantity counts ("for the past
    three weeks" where the campers changed): a threshold compares like with like."""
    if old[index].value != new[index].value or old[index].unit is None:
        return False
    if choice_words(_problem_text(request)):
        return False
    counted = unit_name(old[index].unit)
    return all(
        a.unit is not None and unit_name(a.unit) != counted
        for a, b in zip(old, new, strict=True)
        if a.value != b.value
    )


def _converted(request: str) -> str | None:
    """What a "how many" question counts when the problem states no quantity of it ("A garage
    has 3 cars and 4 bikes. How many wheels?"): an answer that multiplies then converts with
    numbers of the world (4 wheels a car) that the tracer may take for the request's
    quantities. (One that only adds sums a category: "3 cats and 2 dogs: how many pets?")"""
    spans = sentence_spans(request)
    for match in _HOW_MANY.finditer(request):
        counted: list[str] = []
        for word in (w.lower() for w in match.group(1).split()):
            if word in _NOT_COUNTED:
                if counted:
                    break
                continue
            counted.append(word)
        if not counted or unit_name(counted[-1]) in _CONVERTED_BY_CUES:
            # A unit of measure whose conversions the tracer knows as constants of the world
            # ("how many meters": 100 cm in a meter), each one ambiguous where it equals a
            # request quantity. What a thing has ("how many wheels") it does not know.
            continue
        question = next((s for s in spans if s[0] <= match.start() < s[1]), (0, 0))
        rest = story_words(request[: question[0]] + " " + request[question[1] :])
        if not any(story_words(word) & rest for word in counted):
            return " ".join(counted)
    return None


def _reinstantiate(cached: str, request: str, steps: Sequence[Step]) -> Adaptation:
    paired = pair_quantities(cached, request)
    if isinstance(paired, str):
        return Adaptation(tuple(steps), 0, paired)
    old, new = paired
    if all(same_value(a, b) for a, b in zip(old, new, strict=True)):
        return Adaptation(tuple(steps), len(steps))  # only how the numbers are written changed
    invalid = _invalid_values(cached, old, new)
    if invalid is not None:
        return Adaptation(tuple(steps), 0, invalid)
    answer = _answer_flow(tuple(step.text for step in steps), cached)
    # A result the answer computes and then leaves was used in a way the family does not see
    # (compared, chosen by, rounded in words): from its step on, the model writes the rest.
    limit = len(steps) if answer.dropped is None else answer.dropped
    rewritten: list[Step] = []
    for found in trace([step.text for step in steps[:limit]], old, new, request=cached):
        if found.wrong or found.problem is not None or found.text is None:
            reason = found.wrong[0] if found.wrong else found.problem or "not carried over"
            kept = (*rewritten, *steps[len(rewritten) :])
            return Adaptation(kept, found.index, f"step {found.index}: {reason}")
        rewritten.append(Step(found.text, steps[found.index].separator))
    # A quantity that no calculation uses changes the answer in a way the family does not see:
    # when it changed ("name 3 fruits" becoming "name 5 fruits"), and when other quantities
    # changed, for it may be a threshold or a condition ("orders over $50 ship free").
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a.value != b.value and i not in answer.used:
            return Adaptation(tuple(steps), 0, f"no calculation uses '{a.text}', which changed")
    counted = _converted(cached) if answer.multiplies else None
    if counted is not None:
        return Adaptation(
            tuple(steps),
            0,
            f"the question counts {counted}, of which the problem states no quantity: the "
            "answer converts with numbers the family may take for the request's quantities",
        )
    for i in _problem_quantities(cached, old):
        if i not in answer.used and not _counts_apart(cached, old, new, i):
            return Adaptation(
                tuple(steps),
                0,
                f"no calculation uses '{old[i].text}': the answer may use it as a threshold, "
                "a condition or a choice the family does not see",
            )
    if limit < len(steps):
        return Adaptation(
            (*rewritten, *steps[limit:]),
            limit,
            f"step {limit}: computes {answer.dropped_value}, which no later calculation uses: "
            "the answer may compare, choose or round by it",
        )
    return Adaptation(tuple(rewritten), len(rewritten))

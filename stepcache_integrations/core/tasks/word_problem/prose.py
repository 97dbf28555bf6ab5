"""The words of an answer's step: what they name, and what they claim about its numbers.

A re-instantiated step keeps its words and gets new numbers. Words that name or describe
("Rolls sold:", "are left", the request's own nouns and verbs) stay true for new quantities.
Words that compare, order, choose, round or judge values ("which is more than 8", "cheaper",
"a second table", "round up to 4", "enough", "free", "if") are true or false *of* the values:
kept as they are, they may now be false. This module reads a step's words
(:func:`read_prose`) into

* **claims** whose numbers are all written in the step, which can be re-evaluated:
  comparisons ("10 is more than 8", "12 > 8", "$45 is under $50", "$60 exceeds $50", with
  "not") and roundings ("3.75, rounded up to 4", "round 2.4 to the nearest whole number: 2");
* **differences** ("25 years older", "4 more apples than"): a number that *is* the difference,
  traced like any number (its sign is checked where it is computed);
* **names**: the label before the ``:`` of an equation ("Step 2: Rolls left: 21 - 8 = 13")
  and the unit words right after a number: they name a value that is recomputed;
* **free prose**: every other word.

:func:`unvouched` is the closed-world rule for a step whose numbers were recomputed for new
quantities; :func:`false_claim` the check of any step. Nothing here raises for any text, and
both are memoised per text.

Example:
    >>> unvouched("Step 1: Rolls sold: 20 - 5 = 15", frozenset({"roll"})) is None
    True
    >>> unvouched("Step 1: 6 guests, which is more than 8, so they need a second table.",
    ...           frozenset())
    "'6 guests, which is more than 8' no longer holds"
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Literal

from stepcache_integrations.core.tasks.word_problem.arithmetic import (
    BinOp,
    Leaf,
    Mention,
    Neg,
    StepMath,
    equation_spans,
    leaves,
    read_step,
)
from stepcache_integrations.core.tasks.word_problem.framing import sentence_spans
from stepcache_integrations.core.text.lexicon import word_set
from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.quantities import (
    is_number_word,
    known_unit,
    read_quantities,
    unit_name,
)
from stepcache_integrations.core.text.stated import is_presentation_word

__all__ = [
    "DESCRIPTIVE",
    "FUNCTION",
    "OUTCOME",
    "RANKING",
    "ROUNDING",
    "Claim",
    "StepProse",
    "Word",
    "choice_words",
    "false_claim",
    "foreign_name",
    "foreign_word",
    "named_thing",
    "read_prose",
    "rounded",
    "story_relations",
    "story_words",
    "unvouched",
]

# ---------------------------------------------------------------------------------------------
# The closed lexicon. A word of free prose is vouched for only when it is DESCRIPTIVE or a word
# of the request's story, and none of the three value-dependent classes.
# ---------------------------------------------------------------------------------------------


#: Words that order or choose between values: wrong after new values even in a label
#: ("Cheaper option:", "Second table:"). Comparatives are vouched for inside a claim or a
#: difference; ordinals ("second", "3rd") are read by the quantity reader and are ranking too.
RANKING = word_set(
    """more less fewer greater larger bigger higher lower smaller longer shorter taller heavier
    lighter older younger faster slower cheaper dearer costlier pricier richer poorer earlier
    later farther further nearer closer wider narrower deeper shallower thicker thinner hotter
    colder warmer cooler stronger weaker better worse most least fewest greatest largest
    biggest highest lowest smallest longest shortest tallest heaviest lightest oldest youngest
    fastest slowest cheapest dearest costliest priciest richest poorest earliest latest
    farthest furthest closest widest deepest best worst than expensive pricey cheap last next
    previous choose chooses chose chosen choosing choice choices option options select
    selects selected selection prefer prefers preferred preference instead
    rather whichever either neither winner winners deal deals bargain bargains worth
    worthwhile afford affords afforded affordable rank ranks ranked"""
)
#: Words that round or cut values to whole units: vouched for in a claim, or as the name of
#: an equation whose results are whole ("Full boxes: 102 ÷ 6 = 17": the tracer keeps a
#: whole count whole or declines).
ROUNDING = word_set(
    """round rounds rounded rounding nearest whole full complete entire ceil ceiling floor
    truncate truncated remainder remainders"""
)
#: Words that state a condition, a threshold, a sufficiency or an outcome: free prose with
#: them is never vouched for (a name may use them: "Free spaces:", "Games won:").
OUTCOME = word_set(
    """if unless otherwise else whether since because when whenever until provided once
    enough sufficient insufficient short shortfall extra surplus excess exceed exceeds
    exceeded exceeding over under above below beyond within maximum minimum max min limit
    limits threshold too free discount eligible qualify qualifies qualified qualifying apply
    applies applied allowed allow allows can cannot could able unable possible impossible
    must should yes no none nothing nobody only exactly just about around roughly nearly
    almost approximately equal equals equally evenly even odd same different differ
    win wins won winning lose loses lost losing beat beats beaten ahead behind true false
    correct wrong fit fits fitting suffice suffices sufficed overflow overflows overflowed"""
)
#: Function words: they connect, and name nothing.
FUNCTION = word_set(
    """a an the this that these those each every per its it his her hers their theirs them
    they he she him we us our ours you your yours i me my mine who whom whose which what
    there here of to in on at by for from with into onto out off up down after before
    between among across through during via as like and or but so then thus therefore hence
    also plus minus times is are was were be been being am has have had having do does did
    done will would shall not all both"""
)
#: Words that only describe: function words, arithmetic words and the common verbs of
#: arithmetic stories in their irregular forms (regular forms of the request's own words are
#: matched by :func:`story_words`).
DESCRIPTIVE = (
    FUNCTION
    | word_set(
        """divided multiplied total totals sum difference product quotient result results answer
    final step steps calculation calculations amount amounts number numbers count value
    values cost costs price prices money change left remaining remain remains rest now still
    already again altogether together overall make makes made get gets got gotten give gives
    gave given take takes took taken need needs needed use uses used add adds added subtract
    subtracts subtracted multiply multiplies divide divides split splits share shares shared
    come comes came go goes went gone leave leaves put puts keep keeps kept buy buys bought
    sell sells sold pay pays paid spend spends spent earn earns earned find finds found lay
    lays laid lend lends lent drive drives drove driven eat eats ate eaten grow grows grew
    grown bring brings brought hold holds held read reads write writes wrote written day days
    week weeks month months year years hour hours minute minutes seconds dollar dollars cent
    cents euro euros pound pounds piece pieces item items unit units person people age ages
    start"""
    )
    | word_set(
        # Words that talk about the solution ("Let's break it down.", "Here is the working:")
        # and names of measures ("Area", "Perimeter", "Distance"): no value changes them.
        """let lets us we solve solving working break down look here area perimeter distance
    height width length depth volume weight speed far time times gap gaps part parts sale
    sales"""
    )
)
_ANSWER_WORDS = tomllib.loads(
    resources.files(__package__).joinpath("data/answer_words.toml").read_text("utf-8")
)
DESCRIPTIVE = DESCRIPTIVE | frozenset(_ANSWER_WORDS["narration"].split())
# Joining words and the story's own outcome words (see data/answer_words.toml): vouched for
# only where the request decides nothing.
_CONNECTORS = frozenset(_ANSWER_WORDS["connectors"].split())
_STORY_OUTCOMES = frozenset(_ANSWER_WORDS["story_outcomes"].split())
_CAPACITIES = frozenset(_ANSWER_WORDS["capacities"].split())
_EVENTS = frozenset(_ANSWER_WORDS["events"].split())
# Words that open a sentence of the answer and order its own steps ("First, ...", "Next, ...").
_DISCOURSE = word_set("first second third fourth fifth next then finally lastly last also")
# Words that name no thing of a story (whatever it is renamed into).
_KNOWN = DESCRIPTIVE | OUTCOME | RANKING | ROUNDING | _DISCOURSE
# A label with one of these is a sentence, not a name ("She can afford it: ...").
_SENTENCE_VERBS = word_set(
    "is are was were am can cannot could must should will would may might shall"
)
# Comparatives a label may use for the difference its line subtracts ("More needed:").
_DIFFERENCE_LABELS = word_set("more fewer less")
# Two-word phrases whose second word is descriptive there ("Slices left over", "40 in all").
_PHRASES = frozenset({("left", "over"), ("in", "all"), ("in", "total"), ("at", "all")})
# Words that draw a conclusion: after a comparison, what they introduce may depend on more
# than the two numbers compared ("10 > 8, so they need a second table").
_CONCLUDES = word_set("so therefore thus hence then means meaning consequently accordingly")
_COPULA = word_set("is are was were be being 's")
_CONDITIONS = word_set("if unless since because when whenever whether otherwise provided")
_MAX_LABEL_WORDS = 6
# Ordinal words a comparison may not pass over (the quantity reader finds the others).
_ORDINAL_WORDS = word_set(
    "first second third fourth fifth sixth seventh eighth ninth tenth last next previous"
)
# Words a comparison may pass over between its left number and its comparator ("10 guests,
# which is more than 8").
_BRIDGE = word_set("which that this it is are was were be still also much far even")
_NEGATORS = word_set("not never")
# Comparators: word sequences and the relation "left <op> right" they state.
_ABOVE = word_set("more greater larger bigger higher longer taller heavier older faster dearer")
_BELOW = word_set("less fewer smaller lower shorter lighter younger slower cheaper")
_COMPARATORS: dict[tuple[str, ...], str] = {
    **{(word, "than"): ">" for word in _ABOVE | word_set("costlier pricier")},
    **{(word, "than"): "<" for word in _BELOW},
    ("more", "expensive", "than"): ">",
    ("less", "expensive", "than"): "<",
    ("at", "least"): ">=",
    ("at", "most"): "<=",
    ("no", "more", "than"): "<=",
    ("no", "less", "than"): ">=",
    ("no", "fewer", "than"): ">=",
    ("equal", "to"): "==",
    ("exceeds",): ">",
    ("exceed",): ">",
    ("exceeded",): ">",
}
# Comparators that are prepositions elsewhere ("over 3 days"): only after "is" / "are".
_AFTER_COPULA: dict[tuple[str, ...], str] = {
    ("over",): ">",
    ("above",): ">",
    ("under",): "<",
    ("below",): "<",
}
_SYMBOLS = {"<": "<", ">": ">", "\u2264": "<=", "\u2265": ">=", "<=": "<=", ">=": ">=",
            "\u2260": "!=", "!=": "!="}  # fmt: skip
_FLIP = {">": "<=", "<": ">=", ">=": "<", "<=": ">", "==": "!=", "!=": "=="}
_ARROWS = re.compile(r"\u2192|\u21d2|\u27f9|->|=>")
_SYMBOL = re.compile(r"<=|>=|!=|[<>\u2264\u2265\u2260]")
_TOKEN = re.compile(r"<=|>=|!=|->|=>|[^\W\d_]+(?:['\u2019][^\W\d_]+)*|\S")
_MAX_UNIT_WORDS = 2
_MAX_GAP = 4  # words a comparison may pass over to find its number
_MAX_ROUNDING_WORDS = 8  # "rounded up to the nearest whole number, which is 4"
_ROUND = word_set("round rounds rounded rounding")
_ROUND_UNITS: dict[str, Fraction] = {
    "whole": Fraction(1),
    "integer": Fraction(1),
    "number": Fraction(1),
    "unit": Fraction(1),
    "one": Fraction(1),
    "dollar": Fraction(1),
    "cent": Fraction(1, 100),
    "tenth": Fraction(1, 10),
    "hundredth": Fraction(1, 100),
}

Role = Literal["name", "free"]


@dataclass(frozen=True)
class Word:
    """A word of a step outside its numbers: ``word`` is its lower-case form (a possessive
    and a negation such as "n't" taken off), ``role`` says whether it names a value (a
    label or a unit) or is free prose."""

    text: str
    word: str
    start: int
    end: int
    role: Role
    ordinal: bool = False
    discourse: bool = False  # "First, ...": orders the answer's sentences


@dataclass(frozen=True)
class Claim:
    """A comparison or a rounding whose numbers are written in the step, re-evaluated on
    them: ``holds`` says whether it is true of the step's numbers as written. ``numbers``
    are the mentions it relates (of :func:`read_step`): the two compared, or the value
    rounded, its rounded result and the mention of its unit when one is written ("to the
    nearest ten"); a rounding also has its ``mode`` ("up", "down", "nearest") and ``unit``
    (1, 10, 1/100...)."""

    kind: Literal["comparison", "rounding"]
    text: str
    start: int
    end: int
    holds: bool
    numbers: tuple[int, ...]
    mode: str = ""
    unit: Fraction = Fraction(1)


@dataclass(frozen=True)
class StepProse:
    """The words of one step and what they claim (see the module docstring).

    ``covered`` holds the indices of words that belong to a claim or a difference;
    ``marks`` the conclusion arrows and unread comparison signs outside equations;
    ``whole_lines`` the lines whose equations all give whole numbers.
    """

    words: tuple[Word, ...]
    claims: tuple[Claim, ...]
    covered: frozenset[int]
    marks: tuple[str, ...]
    whole_lines: frozenset[int]
    line_of: tuple[int, ...]  # per word, its line
    rounded_lines: frozenset[int] = frozenset()  # lines with a rounding claim
    differences: frozenset[int] = frozenset()  # lines whose first equation subtracts
    # Comparatives that follow the amount they relate by, whatever follows them ("12 feet
    # higher than 5 times the depth", "three times younger than"), with their "than": in a
    # request, a relation the story gives, which the arithmetic applies (see ``choice_words``).
    relations: frozenset[int] = frozenset()


@dataclass(frozen=True)
class _Tok:
    text: str
    low: str
    start: int
    end: int
    kind: Literal["word", "num", "mark"]
    mention: int = -1
    word: int = -1  # index into the words, for kind "word"


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


@text_memo(max_chars=400_000)
def read_prose(text: str) -> StepProse:
    """The words, claims and marks of one step's text (memoised per text).

    Example:
        >>> prose = read_prose("Step 2: 30 ÷ 8 = 3.75, so round up to 4 crates.")
        >>> [(c.kind, c.holds) for c in prose.claims]
        [('rounding', True)]
    """
    math_ = read_step(text)
    spans = equation_spans(math_)
    ordinals = [(q.start, q.end) for q in read_quantities(text) if q.kind == "ordinal"]
    tokens = _tokens(text, math_)
    lines = _line_starts(text)
    labels = _labels(text, math_, spans, lines)
    units = _unit_words(tokens)
    words: list[Word] = []
    line_of: list[int] = []
    for at, tok in enumerate(tokens):
        if tok.kind != "word":
            continue
        line = _line(lines, tok.start)
        named = (
            tok.word in units
            or any(a <= tok.start < b for a, b in spans)
            or any(a <= tok.start < b for a, b in labels)
        )
        base, _ = _base(tok.low)
        discourse = base in _DISCOURSE and _discourse(text, tokens, at)
        ordinal = any(a <= tok.start < b for a, b in ordinals) and not discourse
        role: Role = "name" if named else "free"
        words.append(Word(tok.text, base, tok.start, tok.end, role, ordinal, discourse))
        line_of.append(line)
    claims, covered = _claims(text, tokens, math_, words)
    covered |= _differences(tokens, words)
    relations = _relations(tokens, words)
    marks = _marks(text, spans, claims)
    whole = frozenset(
        line
        for line in range(len(lines))
        if _results_on_line(math_, spans, lines, line)
        and all(v.denominator == 1 for v in _results_on_line(math_, spans, lines, line))
    )
    rounded_lines = frozenset(_line(lines, c.start) for c in claims if c.kind == "rounding")
    differences = frozenset(
        _line(lines, start)
        for equation, (start, _) in zip(math_.equations, spans, strict=True)
        if isinstance(equation.sides[0], BinOp) and equation.sides[0].op == "-"
    )
    return StepProse(
        tuple(words),
        tuple(claims),
        frozenset(covered),
        marks,
        whole,
        tuple(line_of),
        rounded_lines,
        differences,
        relations,
    )


def _results_on_line(
    math_: StepMath, spans: list[tuple[int, int]], lines: list[int], line: int
) -> list[Fraction]:
    found = []
    for equation, (start, _) in zip(math_.equations, spans, strict=True):
        if _line(lines, start) != line:
            continue
        last = equation.sides[-1]
        node = last.operand if isinstance(last, Neg) else last
        if isinstance(node, Leaf):
            found.append(math_.mentions[node.index].value)
    return found


def _tokens(text: str, math_: StepMath) -> list[_Tok]:
    """Words, numbers (the step's mentions) and marks, in order."""
    mentions = sorted(enumerate(math_.mentions), key=lambda item: item[1].start)
    out: list[_Tok] = []
    pos, k, n_words = 0, 0, 0
    while pos < len(text):
        if k < len(mentions) and mentions[k][1].start <= pos:
            index, mention = mentions[k]
            k += 1
            if mention.end > pos:
                out.append(_Tok(mention.text, mention.text.lower(), mention.start, mention.end,
                                "num", mention=index))  # fmt: skip
                pos = mention.end
            continue
        limit = mentions[k][1].start if k < len(mentions) else len(text)
        match = _TOKEN.search(text, pos, limit)
        if match is None:
            pos = limit
            continue
        value = match.group()
        if value[0].isalpha():
            out.append(_Tok(value, value.lower(), match.start(), match.end(), "word",
                            word=n_words))  # fmt: skip
            n_words += 1
        else:
            out.append(_Tok(value, value, match.start(), match.end(), "mark"))
        pos = match.end()
    return out


def _discourse(text: str, tokens: list[_Tok], at: int) -> bool:
    """ "First, ..." / "Second, ..." / "First find ...": an ordinal that orders the answer's
    own sentences (a comma, or a verb that tells what the answer does next, follows it)."""
    before = tokens[at - 1] if at > 0 else None
    after = tokens[at + 1] if at + 1 < len(tokens) else None
    opens = (
        before is None
        or (before.kind == "mark" and before.low in ".!?:")
        or "\n" in text[before.end : tokens[at].start]
        or _opens_an_item(text, before.start)
    )
    return opens and after is not None and (after.low == "," or after.low in _WORKING_VERBS)


def _opens_an_item(text: str, start: int) -> bool:
    """Whether the mark at ``start`` is a bullet that opens its line ("- First, ..."): the
    word after it opens a sentence as after a line break."""
    return text[start] in _BULLETS and not text[text.rfind("\n", 0, start) + 1 : start].strip()


_BULLETS = frozenset("-*\u2022\u2013")


# Verbs of the answer's own working, after "First" or "Then" at a sentence's start ("First
# find how many days ...", "Then add ..."): the ordinal orders the answer, not the values.
_WORKING_VERBS = word_set(
    """find calculate compute work figure determine add subtract multiply divide convert count
    sum total we let lets i"""
)


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer(r"\n", text))]


def _line(lines: list[int], position: int) -> int:
    line = 0
    for i, start in enumerate(lines):
        if start <= position:
            line = i
    return line


def _labels(
    text: str, math_: StepMath, spans: list[tuple[int, int]], lines: list[int]
) -> list[tuple[int, int]]:
    """The labels of the step's lines: the words before the ``:`` that precedes a line's first
    equation ("Step 2: Rolls left: 21 - 8 = 13" has the label "Rolls left"), when they are a
    short name: no punctuation, no conclusion, condition or verb of being, at most six words,
    and no number the line's equations do not calculate with ("She had twelve and ate three:
    12 - 3 = 9" restates its numbers; "All 30 pupils fit in 4 vans: 4 x 8 = 32" claims one)."""
    found: list[tuple[int, int]] = []
    seen: set[int] = set()
    for start, _ in spans:
        line = _line(lines, start)
        if line in seen:
            continue
        seen.add(line)
        colon = text.rfind(":", lines[line], start)
        if colon < 0:
            continue
        begin = text.rfind(":", lines[line], colon) + 1 or lines[line]
        label = text[begin:colon]
        words = [_base(w.lower())[0] for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", label)]
        operands = {
            math_.mentions[i].value
            for equation, (at, _) in zip(math_.equations, spans, strict=True)
            if _line(lines, at) == line
            for side in equation.sides
            for i in leaves(side)
        }
        claimed = [
            m.value for m in math_.mentions if begin <= m.start < colon and m.value not in operands
        ]
        if (
            len(words) <= _MAX_LABEL_WORDS
            and not claimed
            and not re.search(r"[^\w\s'\u2019$%.]", label)
            and not any(
                word in _CONCLUDES or word in _CONDITIONS or word in _SENTENCE_VERBS
                for word in words
            )
        ):
            found.append((begin, colon))
    return found


def _unit_words(tokens: list[_Tok]) -> set[int]:
    """Words right after a number that name what it counts ("18 rolls", "7 full boxes"):
    at most two, with nothing but spaces between, and none a function word."""
    found: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.kind != "num":
            continue
        for nxt in tokens[i + 1 : i + 1 + _MAX_UNIT_WORDS]:
            base, _ = _base(nxt.low)
            if nxt.kind != "word" or base in FUNCTION or base in OUTCOME or base in RANKING:
                break
            found.add(nxt.word)
    return found


def _base(low: str) -> tuple[str, bool]:
    """A word without a possessive or a negating "n't", and whether it had "n't"."""
    word = low.replace("\u2019", "'")
    if word.endswith("n't"):
        stem = word[:-3]
        return {"ca": "can", "wo": "will", "sha": "shall"}.get(stem, stem), True
    if word.endswith("'s"):
        word = word[:-2]
    return word.rstrip("'"), False


# ---------------------------------------------------------------------------------------------
# Claims and differences
# ---------------------------------------------------------------------------------------------


def _claims(
    text: str, tokens: list[_Tok], math_: StepMath, words: list[Word]
) -> tuple[list[Claim], set[int]]:
    claims: list[Claim] = []
    covered: set[int] = set()
    lows = [_base(t.low)[0] if t.kind == "word" else t.low for t in tokens]
    i = 0
    while i < len(tokens):
        found = _comparison_at(text, tokens, lows, math_, i) or _rounding_at(
            text, tokens, lows, math_, i
        )
        if found is None:
            i += 1
            continue
        claim, used, resume = found
        claims.append(claim)
        covered |= used
        i = resume
    return claims, covered


def _comparison_at(
    text: str, tokens: list[_Tok], lows: list[str], math_: StepMath, i: int
) -> tuple[Claim, set[int], int] | None:
    relation, length, verb = _comparator(tokens, lows, i)
    if relation is None:
        return None
    # The left number: the nearest before, over bridge words, unit words and commas. A word
    # comparator needs "is" / "are" between ("10 guests, which is more than 8"): right after a
    # number it states a difference ("4 more than Bo's 3"), which is not a comparison.
    negated = False
    copula = verb
    j = i - 1
    passed = 0
    while j >= 0 and tokens[j].kind != "num":
        low = lows[j]
        if tokens[j].kind == "word":
            if low in _NEGATORS or _base(tokens[j].low)[1]:
                negated = not negated
            elif low not in _BRIDGE and (low in FUNCTION or low in OUTCOME or low in RANKING):
                return None
            copula = copula or low in _COPULA or _base(tokens[j].low)[1]
            passed += 1
        elif low not in (",", "(", ")", "$", "%"):
            return None
        if passed > _MAX_GAP:
            return None
        j -= 1
    if j < 0 or not copula:
        return None
    left = tokens[j]
    right = _number_after(tokens, lows, i + length)
    if right is None:
        return None
    k, after = right
    first, second = math_.mentions[left.mention], math_.mentions[tokens[k].mention]
    if not _comparable(first, second, lows, k):
        return None
    a, b = first.value * first.scale, second.value * second.scale
    if negated:
        relation = _FLIP[relation]
    holds = _compare(a, b, relation)
    shown = " ".join(text[_with_sign(text, left.start) : tokens[k].end].split())
    used = {t.word for t in tokens[j : k + 1] if t.kind == "word"}
    claim = Claim(
        "comparison", shown, left.start, tokens[k].end, holds, (left.mention, tokens[k].mention)
    )
    return claim, used, after


def _comparable(first: Mention, second: Mention, lows: list[str], at: int) -> bool:
    """Whether two numbers a comparison relates are of one kind, so that their values compare:
    not a share and an amount ("$133 is equal to 7% of her earnings", "1% is equal to 450
    liters"), not a part of something ("7 of the 10"), not two units of measure ("1 kilometer
    is equal to 1000 meters", "2 hours is more than 90 minutes": a conversion the claim does
    not make). Such a sentence is no claim the family re-checks (its words are not vouched
    for either)."""
    if (first.form == "percent") != (second.form == "percent"):
        return False
    if at + 1 < len(lows) and lows[at + 1] == "of":
        return False
    units = [unit_name(m.unit) for m in (first, second) if m.unit and known_unit(m.unit)]
    return len(units) < 2 or units[0] == units[1]


def _with_sign(text: str, start: int) -> int:
    """``start`` moved back over a currency sign written before a number."""
    return start - 1 if start > 0 and text[start - 1] in "$\u20ac\u00a3\u00a5" else start


def _comparator(tokens: list[_Tok], lows: list[str], i: int) -> tuple[str | None, int, bool]:
    """The relation a comparator at ``i`` states, its length in tokens, and whether it is a
    sign or a verb (which needs no "is" before it)."""
    if tokens[i].kind == "mark" and tokens[i].low in _SYMBOLS:
        return _SYMBOLS[tokens[i].low], 1, True
    if tokens[i].kind != "word":
        return None, 0, False
    for phrase, relation in _BY_LENGTH:
        if tuple(lows[i : i + len(phrase)]) == phrase and _all_words(tokens, i, len(phrase)):
            return relation, len(phrase), phrase[0].startswith("exceed")
    phrase = (lows[i],)
    if phrase in _AFTER_COPULA and i > 0 and lows[i - 1] in _COPULA | _NEGATORS:
        return _AFTER_COPULA[phrase], 1, False
    return None, 0, False


_BY_LENGTH = sorted(_COMPARATORS.items(), key=lambda item: -len(item[0]))


def _all_words(tokens: list[_Tok], i: int, length: int) -> bool:
    return all(t.kind == "word" for t in tokens[i : i + length])


def _number_after(tokens: list[_Tok], lows: list[str], i: int) -> tuple[int, int] | None:
    """The first number from ``i`` over at most a few words that name something ("than the
    red shirt's $15"): its token index and the index after it."""
    passed = 0
    for k in range(i, len(tokens)):
        tok = tokens[k]
        if tok.kind == "num":
            return k, k + 1
        if tok.kind == "word":
            if lows[k] in OUTCOME or lows[k] in RANKING or lows[k] in _CONCLUDES:
                return None
            if lows[k] in _ORDINAL_WORDS:
                return None  # "than the second table's 8": a ranking the claim does not check
            passed += 1
            if passed > _MAX_GAP:
                return None
        elif tok.low not in ("$", "(", "\u20ac", "\u00a3"):
            return None
    return None


def _compare(a: Fraction, b: Fraction, relation: str) -> bool:
    return {
        ">": a > b,
        "<": a < b,
        ">=": a >= b,
        "<=": a <= b,
        "==": a == b,
        "!=": a != b,
    }[relation]


def _counts_rounds(tokens: list[_Tok], lows: list[str], i: int) -> bool:
    """Whether the "round" at ``i`` is what the number before it counts ("8 rounds = 6
    rounds"), not a rounding ("4.5 rounds up to 5")."""
    return (
        i > 0
        and tokens[i - 1].kind == "num"
        and lows[i] in ("round", "rounds")
        and (i + 1 == len(tokens) or lows[i + 1] not in ("up", "down", "to", "off"))
    )


def _rounding_at(
    text: str, tokens: list[_Tok], lows: list[str], math_: StepMath, i: int
) -> tuple[Claim, set[int], int] | None:
    if tokens[i].kind != "word" or lows[i] not in _ROUND or _counts_rounds(tokens, lows, i):
        return None
    used = {tokens[i].word}
    j = i + 1
    value_at: int | None = None
    if j < len(tokens) and tokens[j].kind == "num":
        value_at, j = j, j + 1  # "round 3.75 up to 4"
    mode = "nearest"
    unit = Fraction(1)
    unit_at: int | None = None
    result_at: int | None = None
    passed = 0
    while j < len(tokens) and passed <= _MAX_ROUNDING_WORDS:
        tok, low = tokens[j], lows[j]
        if tok.kind == "num":
            if j > 0 and lows[j - 1] == "nearest":
                unit = math_.mentions[tok.mention].value  # "to the nearest ten"
                unit_at = j
                j += 1
                continue
            result_at = j
            break
        if tok.kind == "word":
            if low in ("up", "down"):
                mode = low
            elif low in _ROUND_UNITS and j > 0 and lows[j - 1] in ("nearest", "whole"):
                unit = _ROUND_UNITS[low]
            elif low not in ("to", "the", "nearest", "whole", "it", "this", "that", "gives",
                             "is", "makes", "which"):  # fmt: skip
                return None
            used.add(tok.word)
            passed += 1
        elif tok.low not in (",", ":", "$", "(", "=", "\u2248"):
            return None
        j += 1
    if result_at is None:
        return None
    if value_at is None:
        value_at = next((k for k in range(i - 1, -1, -1) if tokens[k].kind == "num"), None)
        if value_at is None:
            return None
    value = math_.mentions[tokens[value_at].mention].value
    result = math_.mentions[tokens[result_at].mention].value
    if unit <= 0:
        return None
    holds = result == rounded(value, mode, unit)
    start = min(tokens[value_at].start, tokens[i].start)
    shown = " ".join(text[start : tokens[result_at].end].split())
    numbers: tuple[int, ...] = (tokens[value_at].mention, tokens[result_at].mention)
    if unit_at is not None:
        numbers += (tokens[unit_at].mention,)
    for nxt in tokens[result_at + 1 : result_at + 1 + _MAX_UNIT_WORDS]:
        # What the rounded number counts ("4 full boxes") is part of the rounding.
        if nxt.kind != "word" or _base(nxt.low)[0] in FUNCTION:
            break
        used.add(nxt.word)
    claim = Claim("rounding", shown, start, tokens[result_at].end, holds, numbers, mode, unit)
    return claim, used, result_at + 1


def rounded(value: Fraction, mode: str, unit: Fraction = Fraction(1)) -> Fraction:
    """``value`` rounded to a multiple of ``unit``: ``mode`` "up", "down" or "nearest"
    (halves up).

    Example:
        >>> rounded(Fraction(15, 4), "up"), rounded(Fraction(45), "nearest", Fraction(10))
        (Fraction(4, 1), Fraction(50, 1))
    """
    steps = value / unit
    if mode == "up":
        whole = math.ceil(steps)
    elif mode == "down":
        whole = math.floor(steps)
    else:
        whole = math.floor(steps + Fraction(1, 2))
    return whole * unit


def _differences(tokens: list[_Tok], words: list[Word]) -> set[int]:
    """Comparatives that follow the number they are the difference of ("25 years older",
    "4 more apples than Bo"): the number is traced like any other, and its sign is checked
    where it is computed. Not when a number follows ("4 more than Bo's 3" relates numbers the
    step does not all state)."""
    covered: set[int] = set()
    lows = [_base(t.low)[0] if t.kind == "word" else t.low for t in tokens]
    for i, tok in enumerate(tokens):
        if tok.kind != "word" or words[tok.word].word not in RANKING:
            continue
        back = i - 1
        units = 0
        while back >= 0 and tokens[back].kind == "word" and units < _MAX_UNIT_WORDS:
            if words[tokens[back].word].word in RANKING | FUNCTION | OUTCOME:
                break
            back -= 1
            units += 1
        if back < 0 or tokens[back].kind != "num":
            continue
        than = None
        for k in range(i + 1, min(len(tokens), i + 2 + _MAX_UNIT_WORDS)):
            if tokens[k].kind != "word":
                break
            if words[tokens[k].word].word == "than":
                than = k
                break
        if than is not None and _number_after(tokens, lows, than + 1) is not None:
            continue
        covered.add(tok.word)
        if than is not None:
            covered.add(tokens[than].word)
    return covered


def _relations(tokens: list[_Tok], words: list[Word]) -> frozenset[int]:
    """Comparatives right after the amount they relate by, over at most two words that name
    what it counts or a "times" ("12 feet higher than", "4 more than half", "three times
    younger than", "100 times more tomatoes"), and the "than" that closes each in its clause:
    what a story gives, not what it asks to choose (a choice has no amount: "the cheaper
    one", "who has more"). Only a comparative closed by its "than": a superlative after a
    number chooses ("the 3 cheapest"), and so may a comparative that relates to nothing
    ("buys the 2 cheaper ones")."""
    found: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.kind != "word" or words[tok.word].word not in _COMPARATIVES:
            continue
        back = i - 1
        while back >= 0 and i - back <= _MAX_UNIT_WORDS and tokens[back].kind == "word":
            word = words[tokens[back].word].word
            if word in RANKING | OUTCOME or (word in FUNCTION and word != "times"):
                break
            back -= 1
        if back < 0 or tokens[back].kind != "num":
            continue
        for k in range(i + 1, min(len(tokens), i + 1 + _MAX_GAP + 1)):
            if tokens[k].kind == "mark" and tokens[k].low in ",;:.!?":
                break
            if tokens[k].kind == "word" and words[tokens[k].word].word == "than":
                found |= {tok.word, tokens[k].word}
                break
    return frozenset(found)


# The comparatives of RANKING ("more", "higher", "younger"): what relates two amounts; each
# one whose superlative the lexicon has ("cheaper", "cheapest"; "earlier", "earliest").
_COMPARATIVES = word_set("more less fewer better worse") | frozenset(
    word
    for word in RANKING
    if word.endswith("er") and {word[:-2] + "est", word[:-3] + "iest"} & RANKING
)


def _marks(text: str, spans: list[tuple[int, int]], claims: list[Claim]) -> tuple[str, ...]:
    """Arrows ("→ 4") and comparison signs outside equations that no claim read."""
    found = []
    for pattern in (_ARROWS, _SYMBOL):
        for match in pattern.finditer(text):
            at = match.start()
            if any(a <= at < b for a, b in spans) or any(c.start <= at < c.end for c in claims):
                continue
            if pattern is _ARROWS and _introduces(text, match.start(), match.end(), spans):
                continue
            found.append(match.group())
    return tuple(found)


def _introduces(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """An arrow between a label and its line's equation ("Weekend \u2192 2 \u00d7 20 = 40",
    "After winning 4 \u2192 21 + 4 = 25"): no comparison before it on its line, and the
    equation right after it. It names a calculation rather than drawing a conclusion."""
    line = text.rfind("\n", 0, start) + 1
    if _SYMBOL.search(text, line, start):
        return False  # "20 > 8 \u2192 ...": after a comparison, an arrow concludes
    after = end + len(text[end:]) - len(text[end:].lstrip(" \t$"))
    return any(a == after for a, _ in spans)


# ---------------------------------------------------------------------------------------------
# The rules
# ---------------------------------------------------------------------------------------------


@text_memo(max_chars=400_000)
def false_claim(text: str) -> str | None:
    """A comparison or rounding of ``text`` that its own numbers make false, or ``None``.

    Example:
        >>> false_claim("30 ÷ 8 = 3.75, rounded up to 3 vans.")
        "'3.75, rounded up to 3' does not hold"
    """
    if not isinstance(text, str):
        return None
    for claim in read_prose(text).claims:
        if not claim.holds:
            return f"'{claim.text}' does not hold"
    return None


_HOW = word_set("how many much")
_PLACING = word_set("last next previous")
# Words of a request that make its answer decide by a condition ("orders over $50 ship free",
# "if she has enough"); the prepositions only before a number ("over $50", not "over the
# weekend").
_DECIDES = word_set(
    """if unless otherwise else whether exceed exceeds exceeding least enough only minimum
    maximum max min limit limits threshold"""
)
_THRESHOLDS = word_set("over under above below beyond")
# Question words whose answer is a person or a thing of the story, not a number.
_CHOOSING = word_set("who whom whose which")
# A sentence ends before a space, after its closing quotes ('... asks, "Which is it?" Then').
_SENTENCE_END = re.compile(r"[.?!](?=[\"'\u201d\u2019)]*(?:\s|$))|\n")


def _in_question(text: str, end: int) -> bool:
    """Whether the sentence around ``text[end]`` is a question (ends with "?")."""
    found = _SENTENCE_END.search(text, end)
    return found is not None and found.group() == "?"


_NUMBER_NEXT = re.compile(r"\s+(?:the\s+|a\s+)?[$\u20ac\u00a3]?\d")


def _number_follows(text: str, end: int) -> bool:
    return _NUMBER_NEXT.match(text, end) is not None


def _supposes(text: str, word: Word) -> bool:
    """Whether an "if" supposes what the question asks about rather than setting a condition
    the answer decides by: its premise is plain (see :func:`_premise`) and the question
    follows its comma ("If Kim sold 1200 boxes, how many ...?"), or it ends the question it
    belongs to ("How many are left if she had 240?"). A rule the story states ("If you buy
    3, you get one free.", "If a customer buys 12 the shop gives one away.") is a
    condition, unless no number is in its premise ("If she adds the movie channels, it costs
    $12 more": no value decides whether she does). A premise the question itself rests on
    ("If one potato can be cut into 5 wedges, how many ...?", "... if they all get the same
    number?") is posited by the asker: it may state an ability, an equality or a time (see
    ``_POSITED``), which the answer takes as given rather than decides."""
    end = _premise(text, word)
    if end is None:
        posited = _premise(text, word, posited=True)
        return posited is not None and text[posited - 1] != "." and _asked_at(text, posited)
    if not _NUMBER_IN.search(text, word.end, end):
        return True  # "If she adds the movie channels, it costs $12 more": no value decides it
    if _QUESTION_IN.search(text, word.end, end):
        return True  # "If it takes 8 minutes ... then how long, in minutes, ...?"
    if text[end - 1] == ".":
        return False
    return _asked_at(text, end)


def _asked_at(text: str, end: int) -> bool:
    """Whether a premise ending at ``end`` ends a question or a question follows it."""
    return text[end - 1] == "?" or _ASKED_AFTER.match(text, end) is not None


_NUMBER_IN = re.compile(r"\d")
_QUESTION_IN = re.compile(r"(?i)\b(?:how|what)\b")


def _is_name(text: str, word: Word) -> bool:
    """Whether ``word`` is capitalised inside a sentence: a name ("Max", "Will"), not a
    word of the lexicon. Never a word that asks or sets a condition ("Which", "If"), nor a
    word that opens a quotation ('she asks, "Who ..."'): those are capitalised where a
    sentence starts."""
    if not word.text[:1].isupper() or word.start == 0 or word.word in _NEVER_NAMES:
        return False
    if text[word.start - 1] in _QUOTES:
        return False
    before = text[: word.start].rstrip(" \t\"'(*-")
    return bool(before) and before[-1] not in ".!?:\n"


def _is_unit(text: str, word: Word) -> bool:
    """Whether ``word`` is a unit of measure after a number or a slash ("2 L/min", "5 min"):
    what a number counts, not a word of the lexicon ("the 3 cheapest" chooses)."""
    if not known_unit(word.text):
        return False
    before = text[max(0, word.start - 3) : word.start].rstrip()
    return bool(before) and (before[-1] == "/" or before[-1].isdigit())


_QUOTES = "\"'\u201c\u2018"
# Words that open a question or a condition, whatever their case.
_NEVER_NAMES = word_set("who whom whose which what how if unless whether otherwise")
# The words a question answered by yes or no opens with ("Can she buy it?", "Is it enough?").
_YES_OR_NO = word_set(
    """is are was were am do does did can could will would should shall must may might has
    have had"""
)


def _yes_or_no(text: str) -> tuple[str, ...]:
    """The word that opens each question of ``text`` answered yes or no, at its start or
    after "and" or "or" ("How many are left, and can all sit?"): it decides. ("How long, in
    minutes, did it take?" asks how long; "in April and May?" names a month: a capital
    inside a sentence is a name, not a verb.)"""
    found = []
    for start, end in sentence_spans(text):
        if text[end - 1 : end] != "?":
            continue
        previous, written = "", ""
        for match in _TOKEN.finditer(text, start, end):
            low = match.group().lower()
            named = written in ("and", "or") and match.group()[:1].isupper()
            if previous in ("", "and", "or") and low in _YES_OR_NO and not named:
                found.append(low)
            previous, written = low, match.group()
    return tuple(found)


@text_memo(max_chars=200_000)
def choice_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` (a request) that ask to compare or choose between values ("Which
    shirt is cheaper?", "Give the larger amount"), or to decide by a condition ("orders over
    $50 ship free", "if she has enough"): not a difference the arithmetic computes ("25
    years older than", "How many more ... than"), not words that place the story ("the next
    station", "over the weekend", "left over").

    Example:
        >>> choice_words("Ana has 12 and Bo 8. Who has more, and how many in all?")
        ('who', 'more')
        >>> choice_words("Bo is 3 years older than Ana, who is 8. How many more than 5?")
        ()
        >>> choice_words("Orders over $50 ship free. Over the weekend, 8 are left over.")
        ('over',)
        >>> choice_words("Ana has 12 and Bo 8, which is plenty. Who leads?")
        ('who',)
    """
    prose = read_prose(text)
    found = [*_yes_or_no(text)]
    previous = ""
    difference = False  # inside "how many more ... than"
    for index, word in enumerate(prose.words):
        # Ordinals and "next" / "last" in a request place the story ("on the third day", "at
        # the next station"); they ask for no choice. A name is no word of the lexicon ("Max
        # has 3"), nor is a unit ("2 L/min").
        asked = word.word in RANKING and word.word not in _PLACING
        if _is_name(text, word) or _is_unit(text, word):
            pass
        elif word.word in _CHOOSING and _in_question(text, word.end):
            # "Who leads?", "Which team keeps the trophy?": the answer names a person or a
            # thing, chosen by the values, in the story's own words.
            found.append(word.text.lower())
        elif word.word in _DECIDES or (
            word.word in _THRESHOLDS and _number_follows(text, word.end)
        ):
            # "If Kim sold 1200 boxes, how many ...?" supposes; it decides nothing.
            if (previous, word.word) not in _PHRASES and not _supposes(text, word):
                found.append(word.text.lower())
        elif asked and previous in _HOW:
            difference = True
        elif (
            asked
            and index not in prose.covered
            and index not in prose.relations
            and not (difference and word.word == "than")
        ):
            found.append(word.text.lower())
        if word.word == "than":
            difference = False
        previous = word.word
    return tuple(found)


@text_memo(max_chars=400_000)
def story_relations(request: str) -> frozenset[str]:
    """The comparatives ``request`` relates two amounts by: each right after its amount and
    closed by its "than" ("Rory has 30 more jellybeans than Gigi", "3 times farther than").

    Example:
        >>> sorted(story_relations("Bo has 3 more pens than Ana. Who has fewer?"))
        ['more']
    """
    prose = read_prose(request)
    return frozenset(prose.words[i].word for i in prose.relations) - {"than"}


@text_memo(max_chars=400_000)
def story_words(request: str) -> frozenset[str]:
    """The request's own words, in every simple form they take ("sells" gives "sell" and
    "sells"): a re-instantiated step may keep them, since the request did not change them.

    Example:
        >>> "bake" in story_words("Sam bakes 3 trays.")
        True
    """
    found: set[str] = set()
    previous, counted = "", False
    for match in _TOKEN.finditer(request):
        value = match.group()
        if value[0].isalpha():
            low = value.lower()
            found |= _derived(_base(low)[0])
            if previous in _MODALS or previous in _ORDINAL_WORDS:
                # "can make": the story states an ability, which a step may repeat.
                found |= {f"{previous} {form}" for form in _derived(_base(low)[0])}
            if _counts_after(previous, low) and not counted:
                counted = True  # "first three quarters": the ordinal goes on to "quarters"
            else:
                previous, counted = low, False
        elif not (previous in _ORDINAL_WORDS and value[0].isdigit()):
            # An ordinal keeps the word after its count ("the first 12 hours", "the first
            # three quarters" give "first hours", "first quarters"): the story places its
            # time, which a step may restate.
            previous = ""
    return frozenset(found)


def _counts_after(previous: str, word: str) -> bool:
    """Whether ``word`` is a count in words right after the ordinal ``previous`` ("first
    three")."""
    return previous in _ORDINAL_WORDS and is_number_word(word) and word not in _ORDINAL_WORDS


def _derived(word: str) -> set[str]:
    """:func:`_forms`, and the words a noun of a person or an action derives from
    ("earnings", "walkers", "children")."""
    forms = _forms(word)
    for suffix in ("ings", "ing", "ers", "er", "ren"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            forms |= _forms(word[: len(word) - len(suffix)])
    return forms


def _forms(word: str) -> set[str]:
    """Candidate base forms of a word (over-generous on purpose: both sides are matched)."""
    forms = {word}
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"),
                                ("ing", ""), ("ing", "e"), ("d", "")):  # fmt: skip
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            forms.add(word[: len(word) - len(suffix)] + replacement)
    for form in list(forms):
        if len(form) >= 4 and form[-1] == form[-2]:
            forms.add(form[:-1])  # "planned" -> "plann" -> "plan"
    return forms


@text_memo(max_chars=1_000_000)
def unvouched(
    text: str,
    story: frozenset[str],
    decides: bool = True,
    relations: frozenset[str] = frozenset(),
    preface: bool = False,
) -> str | None:
    """Closed world, for a step whose numbers were recomputed for new quantities: the first
    part of its words that may depend on the new values and is not re-evaluated, described;
    ``None`` when every word either names, describes, or belongs to a claim that holds.

    ``story`` is :func:`story_words` of the request: its words describe the story, which the
    new request did not change. A claim that no longer holds, a conclusion drawn from a
    comparison, an arrow, a ranking word outside a claim, a rounding word outside a claim or
    the name of a whole result, a condition or outcome word in free prose, and a word of free
    prose that is neither descriptive nor the story's are not vouched for. Only where the
    request ``decides`` nothing (no :func:`choice_words`) may a step retell an event of the
    story in its own words ("After winning 4" where "they win 4"). ``relations`` are the
    comparatives the request relates two amounts by (:func:`story_relations`): the step may
    restate such a relation after its own amount ("Rory has 30 more than Gigi").

    A ``preface`` (a step before the answer states any number, in an answer to a request that
    decides nothing) may also use the words that only present an answer ("Sure!", "###
    Solution": the shared presentation lexicon); no other word ("That's a lot!").
    """
    prose = read_prose(text)
    for claim in prose.claims:
        if not claim.holds:
            return f"'{claim.text}' no longer holds"
    comparisons = [claim for claim in prose.claims if claim.kind == "comparison"]
    if comparisons:
        # What a step says after a comparison is drawn from it ("10 > 8, so they need a
        # second table", "$45 < $50, and Ana gets the prize"), and may depend on more than the
        # numbers compared: only calculations and names of their values may follow.
        first = comparisons[0]
        for index, word in enumerate(prose.words):
            if word.start >= first.end and word.role == "free" and index not in prose.covered:
                return (
                    f"'{word.text}' draws a conclusion from '{first.text}' that may depend on "
                    "more than the numbers it compares"
                )
    if prose.marks:
        return f"'{prose.marks[0]}' draws a conclusion the family does not check"
    previous = ""
    for index, word in enumerate(prose.words):
        found = _unvouched_word(
            prose, index, word, previous, story, decides, text, relations, preface
        )
        previous = word.word
        if found is not None:
            return found
    return None


@text_memo(max_chars=1_000_000)
def foreign_word(
    text: str, story: frozenset[str], known: frozenset[str] = frozenset()
) -> str | None:
    """Closed world, for a step whose names and things were renamed: its first word (a
    label, a unit or free prose alike) that is neither a word of the new request's story
    (``story``, see :func:`story_words`) nor one of the family's lists of words that name no
    thing of the story (function, arithmetic, outcome, ranking and rounding words, and
    ``known``); ``None`` when there is none. Such a word may depend on a renamed name or
    thing ("Fruit bought:" after "kiwis" became "pencils").

    Example:
        >>> foreign_word("Fruit bought: 5 x $2 = $10", story_words("Ana buys 5 pencils."))
        "'Fruit' may depend on a renamed name or thing"
    """
    for word in read_prose(text).words:
        value = word.word
        if value in _KNOWN or value in known or value in _NEGATORS or known_unit(value):
            continue
        if word.discourse or word.ordinal:
            continue
        if _derived(value) & story:
            continue
        return f"'{word.text}' may depend on a renamed name or thing"
    return None


@text_memo(max_chars=1_000_000)
def foreign_name(
    text: str,
    story: frozenset[str],
    old: frozenset[str],
    known: frozenset[str] = frozenset(),
) -> str | None:
    """For a step where only names of people were renamed (their pronouns kept): its first
    word that may still name an old person, described; ``None`` when there is none. A word
    written with a capital that is neither the new story's nor one of the family's lists (a
    nickname, a surname the renaming did not see), and any form of an old name (``old``, in
    lower case) in any case. Every other word is about the story, not about who is in it:
    a renamed person changes no thing, event or verb.

    Example:
        >>> story = story_words("Priya walks 4 miles. How long does she walk?")
        >>> foreign_name("Priya completed 1 mile: 4 - 1 = 3", story, frozenset({"mateo"}))
        >>> foreign_name("Teo completed 1 mile: 4 - 1 = 3", story, frozenset({"mateo"}))
        "'Teo' may name a person renamed"
    """
    for word in read_prose(text).words:
        value = word.word
        if _forms(value.lower()) & old or _forms(word.text.lower()) & old:
            return f"'{word.text}' may name a person renamed"
        if not word.text[:1].isupper() or word.discourse or word.ordinal:
            continue
        if value in _KNOWN or value in known or value in _NEGATORS or known_unit(value):
            continue
        if _derived(value) & story:
            continue
        return f"'{word.text}' may name a person renamed"
    return None


@text_memo(max_chars=1_000_000)
def named_thing(text: str, story: frozenset[str]) -> str | None:
    """The first word of free prose in ``text`` (a step) that names a thing or a person of the
    story (a word of ``story`` that no list of the family knows to name nothing), described;
    ``None`` when there is none. Where the request asks to choose ("Which box goes at the
    bottom?"), such a word may *be* the choice ("The green box goes at the bottom."): for new
    values the choice may fall on another thing, and no number of the step shows it.

    Example:
        >>> story = story_words("A red box weighs 12 kg, a green box 15 kg. Which is heavier?")
        >>> named_thing("The green box goes at the bottom.", story)
        "'green' may name the thing chosen, which new values may change"
        >>> named_thing("Both boxes: 12 + 15 = 27 kg", story) is None  # names a recomputed value
        True
    """
    prose = read_prose(text)
    for index, word in enumerate(prose.words):
        if word.role != "free" or index in prose.covered or word.discourse or word.ordinal:
            continue
        value = word.word
        if value in _KNOWN or value in _NEGATORS or known_unit(value):
            continue
        if _derived(value) & story:
            return f"'{word.text}' may name the thing chosen, which new values may change"
    return None


# What a question asks after its premise ("If Kim sold 1200 boxes, how many ...?").
_ASKED_AFTER = re.compile(
    r"(?i)\s*(?:then\s+)?(?:how|what|calculate|find|determine|compute|work\s+out)\b"
)
_PREMISE = re.compile(r"(?:[^,;:.!?\n]|[.,](?=\d)){1,200}(?:[,?]|\.(?!\d))")
# Events a premise may suppose ("If he loses half his socks, ...") are no condition words.
_NOT_IN_A_PREMISE = (RANKING | OUTCOME | ROUNDING | _THRESHOLDS | _DECIDES | _NEGATORS) - _EVENTS


def _premise(
    text: str, word: Word, story: frozenset[str] | None = None, posited: bool = False
) -> int | None:
    """Where the premise an "if" opens ends (after its comma), when it is a plain
    supposition: "If Kim sold 1200 boxes on Thursday," has no comparison, threshold,
    condition or negation, so the answer decides nothing by it (with ``story``: and every
    word of it is the story's own; ``posited``: a premise the question rests on, which may
    also state an ability, an equality or a time). ``None`` otherwise ("if she has more than
    $10,")."""
    if word.word != "if":
        return None
    found = _PREMISE.match(text, word.end)
    if found is None:
        return None
    for match in _TOKEN.finditer(found.group()):
        low = match.group().lower()
        if not low[0].isalpha():
            continue
        if low in _THRESHOLDS and not _number_follows(text, word.end + match.end()):
            continue  # "got four grades below a B": no threshold of a number
        if posited and low in _POSITED:
            continue
        if low in _NOT_IN_A_PREMISE or low.endswith("n't"):
            return None
        if story is not None and not (_derived(_base(low)[0]) & story) and low not in FUNCTION:
            return None
    return found.end()


# Words that introduce the calculation a sentence rests on ("because 100 x 3 = 300").
_JUSTIFIES = word_set("because since as")
_GIVES_A_CALCULATION = re.compile(
    r"\s*\(?\s*[$\u20ac\u00a3]?\d[\d,.]*\s*[%]?\s*[-+*/x\u00d7\u00f7]\s*[$\u20ac\u00a3]?\(?\d[^.\n]*="
)
# Modal verbs the story itself may state an ability with ("can make 3 an hour").
_MODALS = word_set("can could will would must should may might")
# What a premise the question rests on may state without deciding anything: an ability or a
# duty (a rate: "can be cut into 5 wedges"), an equality (a constraint the calculation uses:
# "caught the same number"), a time ("when they're done rising"). Comparisons, thresholds,
# sufficiency, limits, roundings and negations stay conditions the answer decides by.
_POSITED = (_MODALS | word_set("same equal equals equally exactly when whenever once")) - (
    RANKING | ROUNDING | _THRESHOLDS | _DECIDES | _NEGATORS
)


def _narrates(word: str) -> bool:
    """Whether ``word`` is a simple form of a word the answer narrates its working with
    ("receive" of "receives", "determine" after "First, we need to"): the lists name a
    verb by some of its forms, and every form of it narrates alike. The ranking, rounding and
    outcome lists are checked before, and no form of theirs or of an ordinal ("second" of
    "seconds") is narration."""
    return word in _NARRATION_FORMS or bool(_forms(word) & _NARRATION_WORDS)


def _restates_the_story(
    prose: StepProse, index: int, word: Word, story: frozenset[str], text: str
) -> bool:
    """Whether a ranking, condition or modal word only restates the story or the answer's
    own calculation: an ordinal or a modal with the word the story writes after it ("in the
    first week", "can make"), the story's own supposition ("If Kim sold 1,200 boxes, ..."),
    a calculation named as the reason ("because 100 x 3 = 300")."""
    value = word.word
    following = prose.words[index + 1].word if index + 1 < len(prose.words) else ""
    if (word.ordinal or value in _MODALS) and any(
        f"{value} {form}" in story for form in _derived(following)
    ):
        # An ability restated is a capacity only where the step computes it ("can carry 3 x
        # 1500 = 4500"): "the bus can seat them all" judges a sufficiency.
        return word.ordinal or _states_a_capacity(text, word.end)
    if value == "if" and "if" in story and _premise(text, word, story) is not None:
        return True
    return value in _JUSTIFIES and _GIVES_A_CALCULATION.match(text, word.end) is not None


def _plain_outcome(prose: StepProse, index: int, word: Word, story_word: bool, text: str) -> bool:
    """For a request that decides nothing: whether a word of the outcome lists only joins
    the answer's working to the story ("Since a year has 365 days", "because 4 x 3 = 12") or
    retells the story's own event, thing or ability in its word ("After winning 4", "the
    discount Maria got", "a truck can carry 3 x 1500 = 4500 liters"), never negated. A name
    is no word of the lists ("Max" where the story names Max)."""
    if story_word and _is_name(text, word):
        return True
    if word.word in _CONNECTORS:
        return True
    if word.word not in _STORY_OUTCOMES | _CAPACITIES or not story_word:
        return False
    following = prose.words[index + 1].word if index + 1 < len(prose.words) else ""
    if _base(word.text.lower())[1] or following in _NEGATORS:
        return False
    return word.word not in _CAPACITIES or _states_a_capacity(text, word.end)


_SENTENCE_BREAK = re.compile(r"[.;!?](?!\d)|\n")


def _states_a_capacity(text: str, end: int) -> bool:
    """Whether the first number after ``end`` in its sentence is one the step's equations
    calculate with or calculate, other than 0 and 1 ("can carry 3 x 1500 = 4500 liters",
    "can buy 139 ounces because 139 / 1.0 = 139"): a capacity the step recomputes."""
    math_ = read_step(text)
    stop = _SENTENCE_BREAK.search(text, end)
    limit = stop.start() if stop is not None else len(text)
    first = next((m for m in math_.mentions if end <= m.start < limit), None)
    if first is None or first.value in (0, 1):
        return False
    return any(math_.mentions[i].value == first.value for i in math_.in_equation)


def _unvouched_word(
    prose: StepProse,
    index: int,
    word: Word,
    previous: str,
    story: frozenset[str],
    decides: bool = True,
    text: str = "",
    relations: frozenset[str] = frozenset(),
    preface: bool = False,
) -> str | None:
    if index in prose.covered or word.discourse:
        return None
    if index in prose.relations and word.word in relations | {"than"}:
        # "Rory has 30 more jellybeans than Gigi", "3 times farther than": a relation the
        # story gives, after an amount the step traces (a "than" only closes one: its
        # comparative, earlier, is checked first); a result of the wrong sign is refused
        # where it is computed.
        return None
    value = word.word
    if _restates_the_story(prose, index, word, story, text):
        return None
    if word.ordinal:
        return f"'{word.text}' ranks values, and may rank the new ones differently"
    line = prose.line_of[index]
    if value in RANKING:
        if word.role == "name" and value in _DIFFERENCE_LABELS and line in prose.differences:
            # "More needed: 59 - 48 = 11": the label names a difference its line computes,
            # whose sign the tracer keeps.
            return None
        return f"'{word.text}' compares or chooses between values, and no claim re-checks it"
    if value in ROUNDING:
        if word.role == "name" and (line in prose.whole_lines or line in prose.rounded_lines):
            return None  # the line's results are whole, or its rounding is re-checked
        return f"'{word.text}' rounds a value, and no claim re-checks it"
    if (previous, value) in _PHRASES:
        return None
    story_word = bool(_derived(value) & story)
    if not decides and _plain_outcome(prose, index, word, story_word, text):
        return None
    if value in OUTCOME and not (word.role == "name" and story_word):
        # A name may use the request's own outcome words ("Free spaces:" where the request
        # asks for free spaces), never others ("She has enough:").
        return f"'{word.text}' states a condition or an outcome that may change with the values"
    if word.role == "name":
        # A label or a unit names the value its equation computes, and the equation is
        # recomputed: the name stays the value's name (ranking, rounding and outcome words are
        # the exceptions, checked above).
        return None
    if value in DESCRIPTIVE or value in _NEGATORS or story_word or _narrates(value):
        return None
    if known_unit(value) and value not in _ORDINAL_WORDS:
        return None  # a unit of measure names what a number counts ("km/h"; not "a second")
    if preface and is_presentation_word(value):
        return None  # "Sure!", "### Solution": it presents the answer, before any value
    return f"'{word.text}' is not a word the family knows to be independent of the values"


# Every simple form of the words an answer narrates its working with (see ``_narrates``):
# descriptive words and the verbs of the answer's own working.
_NOT_NARRATION = OUTCOME | RANKING | ROUNDING | _ORDINAL_WORDS
_NARRATION_WORDS = (DESCRIPTIVE | _WORKING_VERBS) - _NOT_NARRATION
_NARRATION_FORMS = frozenset(
    form for word in _NARRATION_WORDS for form in _forms(word) if form not in _NOT_NARRATION
)

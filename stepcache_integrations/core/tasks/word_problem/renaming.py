"""Consistent renaming: the cached word problem with its names and things renamed.

"Riley buys 5 kiwis at the night market" and "Charlie buys 5 bananas at the bazaar" pose the
same problem: every occurrence of an old word became one new word, and nothing else changed
but the quantities. :func:`renaming` finds such a mapping between two requests, or says why
there is none; :meth:`Renaming.rename` rewrites a cached step with it.

A mapping is a renaming only when every part of it is certain:

* **consistent**: every occurrence of an old word or phrase maps to the same new one, and the
  old one is gone from the new request; no new word was already in the cached request (so
  "A gives B" -> "B gives A" is no renaming: it swaps roles);
* **only names and things**: an old and a new word are both names (capitalised) or things
  (a word the request counts, "5 kiwis", or that follows a determiner, "the night market"),
  never a word of :data:`COMPUTATION_WORDS` (operation, comparison, direction, unit, time,
  number and function words: "gives", "more", "left", "per", "minutes", "dozen"...); a verb
  only within a class of verbs that do the same to a quantity (:data:`MAKING_VERBS`: "paints"
  -> "knits", never "bakes" -> "eats");
* **pronouns follow the person**: "he" -> "she" -> "they" with their verbs ("she buys" /
  "they buy", "does she" / "do they"), only where the story has no one else a pronoun could
  stand for (no other name, no person noun such as "her sister"): otherwise "she" may now
  be someone else, and who does what may change.

Example:
    >>> found = renaming("Riley buys 5 kiwis. How much do they spend on kiwis?",
    ...                  "Charlie buys 7 bananas. How much do they spend on bananas?")
    >>> found.rename("Riley buys 5 kiwis at $2 each: 5 x $2 = $10.")
    'Charlie buys 5 bananas at $2 each: 5 x $2 = $10.'
    >>> renaming("Ana gives Bo 3 pens. How many pens has Bo?",
    ...          "Bo gives Ana 3 pens. How many pens has Ana?")
    "'Bo gives' (added) is no renaming"
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from stepcache_integrations.core.tasks.word_problem.chain import CONSTANTS
from stepcache_integrations.core.tasks.word_problem.framing import FRAMING_WORDS
from stepcache_integrations.core.tasks.word_problem.prose import (
    DESCRIPTIVE,
    OUTCOME,
    RANKING,
    ROUNDING,
)
from stepcache_integrations.core.text.lexicon import word_set
from stepcache_integrations.core.text.memo import text_memo
from stepcache_integrations.core.text.quantities import known_unit, read_quantities

__all__ = [
    "ANSWER_WORDS",
    "COMPUTATION_WORDS",
    "INDEPENDENT_WORDS",
    "MAKING_VERBS",
    "PERSON_NOUNS",
    "PRONOUNS",
    "Renaming",
    "renaming",
]


#: Words that can carry the computation: never renamed, in any form. Operations (what a story
#: does to a quantity), comparisons, directions, quantifiers, time and measure words, and the
#: prose lists of the family (function words, outcome, ranking and rounding words). Number
#: words and units are recognised by the number reader too (``read_quantities``,
#: ``known_unit``), and every cue word of a constant of the world (``CONSTANTS``).
COMPUTATION_WORDS = (
    DESCRIPTIVE
    | OUTCOME
    | RANKING
    | ROUNDING
    | word_set(
        """more most less least fewer fewest each every per total totals sum left remaining
        remain remains rest twice half halves double doubled doubles triple tripled thrice
        quarter quarters whole dozen dozens score pair pairs couple couples both all none some
        any several many much few other another else extra same equal equally evenly apiece
        altogether together combined
        give gives gave given giving take takes took taken taking buy buys bought buying sell
        sells sold selling lose loses lost losing earn earns earned earning spend spends spent
        spending pay pays paid paying get gets got getting receive receives received receiving
        eat eats ate eaten eating drink drinks drank drunk use uses used using save saves saved
        saving borrow borrows borrowed lend lends lent owe owes owed donate donates donated
        add adds added remove removes removed subtract subtracts take away break breaks broke
        broken drop drops dropped spill spills spilled find finds found collect collects
        collected gather gathers gathered pick picks picked share shares shared split splits
        divide divides divided multiply multiplies increase increases increased decrease
        decreases decreased rise rises rose risen fall falls fell fallen grow grows grew grown
        shrink shrinks shrank raise raises raised lower lowers lowered cut cuts discount
        discounts charge charges charged cost costs costing refund refunds refunded return
        returns returned keep keeps kept leave leaves left lay lays laid hatch hatches die dies
        died sink sinks sank melt melts melted burn burns burnt burned waste wastes wasted
        steal steals stole stolen win wins won beat beats throw throws threw thrown
        have has had having need needs needed want wants wanted own owns owned hold holds held
        contain contains contained fill fills filled empty empties pour pours poured
        make makes made making
        up down in out into onto off away back forward backward ahead behind over under
        above below north south east west front before after since until between among
        second seconds minute minutes hour hours day days daily week weeks weekly weekend
        weekends month months monthly year years yearly annual annually decade decades century
        centuries morning mornings afternoon evening evenings night nights noon midnight today
        tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday time times
        percent percentage cent cents dollar dollars euro euros pound pounds price prices rate
        rates speed speeds distance length width height depth area volume weight average
        interest tax tip fee profit loss wage wages salary
        start starts started begin begins began end ends ended finish finishes finished
        first last next previous once twice again
        perimeter gap gaps part parts income sale sales takings loan loans score scores
        scored bulk set sets new old far change changes stay stays everyone everybody
        margin ratio mix mixture share shares portion portions piece pieces unit units
        """
    )
)

#: Words of an answer that talk about the solution, not the story ("Let's break it down.",
#: "Here is the working:", "2 x $26"): none depends on a name or a thing.
ANSWER_WORDS = word_set(
    """let lets us we our solve solving solved working work break down look check calculate
    calculating compute computing figure out here step steps answer answers final therefore
    thus so first then next finally x times plus minus equals equal gives means approach
    method problem question known given begin"""
)
#: Words that cannot depend on what a name or a thing was renamed into.
INDEPENDENT_WORDS = COMPUTATION_WORDS | ANSWER_WORDS

#: Verbs that make something: one of them may be renamed into another ("paints 3 portraits a
#: day" / "knits 3 scarves a day"): each adds what it makes, nothing else.
MAKING_VERBS = word_set(
    """make makes made bake bakes baked knit knits knitted paint paints painted draw draws drew
    sew sews sewed build builds built write writes wrote fold folds folded carve carves carved
    weave weaves wove cook cooks cooked craft crafts crafted sculpt sculpts sculpted mould moulds
    mold molds molded knot knots knotted stitch stitches stitched glaze glazes glazed print
    prints printed frame frames framed assemble assembles assembled decorate decorates
    decorated design designs designed"""
)

# Pronouns by person ("they" counts as a person here: the singular they) and by role.
_PERSONS = ("he", "she", "they")
_ROLES: dict[str, tuple[str, str, str]] = {
    # role: (he, she, they)
    "subject": ("he", "she", "they"),
    "object": ("him", "her", "them"),
    "determiner": ("his", "her", "their"),
    "possessive": ("his", "hers", "theirs"),
    "reflexive": ("himself", "herself", "themselves"),
}
#: Every personal pronoun of the third person.
PRONOUNS = frozenset(word for forms in _ROLES.values() for word in forms) | {"themself"}
_PERSON_OF = {word: _PERSONS[i] for forms in _ROLES.values() for i, word in enumerate(forms)}
_PERSON_OF["themself"] = "they"
# The verb forms after a singular subject and after "they" (a closed table; other verbs follow
# the regular rules, checked against the request's own pairs).
_AGREEMENT = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}
_AGREEMENT_BACK = {plural: singular for singular, plural in _AGREEMENT.items()}

#: Nouns for people: a story with one of them has someone else a pronoun could stand for.
PERSON_NOUNS = word_set(
    """person people man men woman women boy boys girl girls child children kid kids baby
    babies adult adults friend friends sister sisters brother brothers mother mothers father
    fathers mom moms mum mums dad dads parent parents son sons daughter daughters aunt aunts
    uncle uncles cousin cousins grandma grandmas grandpa grandpas grandmother grandmothers
    grandfather grandfathers grandparent grandparents wife wives husband husbands partner
    partners neighbour neighbours neighbor neighbors teacher teachers student students pupil
    pupils classmate classmates coach coaches player players teammate teammates guest guests
    visitor visitors customer customers worker workers boss bosses owner owners baker bakers
    farmer farmers chef chefs cook cooks driver drivers doctor doctors nurse nurses
    member members team teams family families class classes group groups crowd everyone
    everybody someone somebody anyone anybody nobody he she they him her them his hers their
    theirs herself himself themselves themself lady ladies gentleman gentlemen king queen
    prince princess sir madam seller sellers buyer buyers shopkeeper waiter waitress hiker
    hikers runner runners rider riders passenger passengers audience staff colleague
    colleagues"""
)
#: Nouns for several people (no "he" or "she" stands for them): the plurals of the list. Not
#: the collective nouns ("team", "family", "class"), nor "everyone" or "someone".
_PLURAL_PERSONS = word_set(
    """people men women boys girls children kids babies adults friends sisters brothers
    mothers fathers moms mums dads parents sons daughters aunts uncles cousins grandmas
    grandpas grandmothers grandfathers grandparents wives husbands partners neighbours
    neighbors teachers students pupils classmates coaches players teammates guests visitors
    customers workers bosses owners bakers farmers chefs cooks drivers doctors nurses members
    ladies gentlemen sellers buyers hikers runners riders passengers colleagues"""
)
# Titles before a name ("Mr. Lindqvist"): part of the name.
_TITLES = word_set("mr mrs ms miss dr prof sir madam")
# Words a thing may follow ("the night market", "each kiwi", "her friends", "of broth").
_BEFORE_THINGS = word_set(
    """a an the each every per this that these those his her their its my our your another
    other of with for in at from into on some any no which what whose many much more fewer
    less most several few all both enough extra"""
)
# Words that open questions and sentences: no names.
_OPENERS = word_set("how what which who whom whose where when why is are does do did can")
# Words of the closed list that may stand between a determiner and a thing ("Avery's new
# magazine", "the whole cake").
_MODIFIERS = word_set("new old whole empty full extra other same big small large little")
_MAX_MODIFIERS = 2  # "the night market", "a paper crane": words between a determiner and a thing

_TOKEN = re.compile(
    r"(?P<word>[^\W\d_]+(?:[-'\u2019][^\W\d_]+)*)(?=['\u2019]s\b)"
    r"|(?P<possessive>['\u2019]s\b)"
    r"|(?P<plain>[^\W\d_]+(?:-[^\W\d_]+)*)"
    r"|(?P<punct>[^\w\s])"
    r"|(?P<digits>\d+)",
)


@dataclass(frozen=True)
class _Tok:
    text: str
    low: str
    start: int
    end: int
    kind: str  # word | possessive | punct | quantity


def _tokens(text: str) -> list[_Tok]:
    """Words, possessive endings, punctuation and the reader's quantities (one token each)."""
    quantities = read_quantities(text)
    out: list[_Tok] = []
    pos = 0
    for quantity in quantities:
        out.extend(_plain_tokens(text, pos, quantity.start))
        out.append(_Tok(quantity.text, "<q>", quantity.start, quantity.end, "quantity"))
        pos = quantity.end
    out.extend(_plain_tokens(text, pos, len(text)))
    return out


def _plain_tokens(text: str, start: int, end: int) -> list[_Tok]:
    out = []
    for match in _TOKEN.finditer(text, start, end):
        kind = match.lastgroup or "punct"
        value = match.group()
        if kind == "plain":
            kind = "word"
        elif kind == "digits":
            kind = "punct"  # digits the reader reads as no quantity ("3rd"): never renamed
        low = value.lower().replace("\u2019", "'")
        out.append(_Tok(value, low, match.start(), match.end(), kind))
    return out


@dataclass(frozen=True)
class _Pair:
    """One aligned change: old words -> new words, at these token positions."""

    old: tuple[str, ...]
    new: tuple[str, ...]
    old_at: tuple[int, int]  # token range in the cached request
    new_at: tuple[int, int]  # token range in the new request
    written: tuple[str, ...] = ()  # the new words as the new request writes them


@dataclass(frozen=True)
class Renaming:
    """A consistent renaming of names and things (and the pronouns of a person) from a cached
    request to a new one (see the module docstring).

    ``words`` maps each old word form (lower case) to its new form; ``phrases`` the renamed
    phrases of several words ("night market" -> "bazaar"); ``pronouns`` each old pronoun to
    the new one and ``verbs`` the verb forms that agree with them ("buys" -> "buy"). ``old``
    and ``new`` are the character spans of the renamed words in each request.

    Example:
        >>> found = renaming("Omar paints 3 portraits a day. How many does he paint in a week?",
        ...                  "Priya knits 3 scarves a day. How many does she knit in a week?")
        >>> found.rename("Omar paints 3 portraits a day: 3 x 7 = 21 portraits.")
        'Priya knits 3 scarves a day: 3 x 7 = 21 scarves.'
    """

    words: dict[str, str]
    phrases: dict[tuple[str, ...], tuple[str, ...]]
    pronouns: dict[str, str]
    verbs: dict[str, str]
    old: tuple[tuple[int, int], ...]
    new: tuple[tuple[int, int], ...]
    persons_renamed: bool
    #: The persons ("he", "she", "they") whose pronouns both requests write unchanged.
    kept: frozenset[str] = frozenset()

    @property
    def empty(self) -> bool:
        return not (self.words or self.phrases or self.pronouns)

    def rename(self, text: str) -> str | None:
        """``text`` (a cached step, or the cached request) with every old name, thing and
        pronoun replaced by its new form; ``None`` when a part of it cannot be renamed with
        certainty (an old word in a form the renaming does not know, a pronoun whose role or
        person is unknown, a verb after a changed pronoun that the renaming cannot agree)."""
        return _rename(self, text)

    def covers(self, side: str, start: int, end: int) -> bool:
        """Whether ``[start, end)`` of the cached (``side="old"``) or new request lies in a
        renamed word."""
        spans = self.old if side == "old" else self.new
        return any(a <= start and end <= b for a, b in spans)


@text_memo(max_chars=800_000)
def renaming(cached: str, new: str) -> Renaming | str:
    """The consistent renaming that turns ``cached`` into ``new`` (quantities aside), or why
    there is none (see the module docstring). Requests that differ only in their quantities
    give an empty renaming."""
    old_tokens, new_tokens = _tokens(cached), _tokens(new)
    matcher = difflib.SequenceMatcher(
        None, [t.low for t in old_tokens], [t.low for t in new_tokens], autojunk=False
    )
    pairs: list[_Pair] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if op != "replace":
            side = old_tokens[i1:i2] if op == "delete" else new_tokens[j1:j2]
            shown = " ".join(t.text for t in side)
            verb = "removed" if op == "delete" else "added"
            return f"'{shown}' ({verb}) is no renaming"
        old_side, new_side = old_tokens[i1:i2], new_tokens[j1:j2]
        if any(t.kind == "quantity" for t in (*old_side, *new_side)):
            return "a quantity moved or changed its words"
        if len(old_side) == len(new_side):
            for k in range(len(old_side)):
                pairs.append(
                    _Pair(
                        (old_side[k].low,),
                        (new_side[k].low,),
                        (i1 + k, i1 + k + 1),
                        (j1 + k, j1 + k + 1),
                        (_written(new_tokens, j1 + k),),
                    )
                )
        else:
            pairs.append(
                _Pair(
                    tuple(t.low for t in old_side),
                    tuple(t.low for t in new_side),
                    (i1, i2),
                    (j1, j2),
                    # The new phrase as the new request writes it ("Ms. Nakamura").
                    (new[new_tokens[j1].start : new_tokens[j2 - 1].end],),
                )
            )
    return _check(cached, new, old_tokens, new_tokens, pairs)


def _check(
    cached: str,
    new: str,
    old_tokens: list[_Tok],
    new_tokens: list[_Tok],
    pairs: list[_Pair],
) -> Renaming | str:
    """The renaming the aligned ``pairs`` make, or why they make none. Each pair is a
    pronoun of the person, an article or a verb that agrees with a changed pronoun, or a name
    or a thing renamed the same way wherever it stands; then the old words must be gone and
    the new ones new, every renamed word a name or a thing, and a changed pronoun must have no
    one else to stand for."""
    pronouns = _pronoun_map(pairs)
    if isinstance(pronouns, str):
        return pronouns
    found = _Collected(old_tokens, new_tokens, _changes_number(pronouns))
    renamed: list[_Pair] = []
    for pair in pairs:
        kind = _pair_kind(pair, old_tokens, new_tokens, pronouns)
        problem = found.add(pair, kind, cached, new)
        if problem is not None:
            return f"'{' '.join(pair.old)}' -> '{' '.join(pair.new)}': {problem}"
        if kind == "renamed":
            renamed.append(pair)
    old_lows = [t.low for t in old_tokens]
    new_lows = [t.low for t in new_tokens]
    problem = _word_left_or_taken(found.words, old_lows, new_lows)
    if problem is not None:
        return problem
    problem = _phrase_left_or_taken(found.phrases, old_lows, new_lows)
    if problem is not None:
        return problem
    problem = _names_or_things(renamed, old_tokens, new_tokens)
    if problem is not None:
        return problem
    problem = _pronoun_problem(pronouns, old_lows, new_tokens, found.new_spans)
    if problem is not None:
        return problem
    return Renaming(
        found.words,
        found.phrases,
        pronouns,
        found.verbs,
        tuple(found.old_spans),
        tuple(found.new_spans),
        found.persons,
        _kept_persons(new_tokens, found.new_spans),
    )


def _pronoun_map(pairs: Sequence[_Pair]) -> dict[str, str] | str:
    """Each old pronoun of the changed pairs with the new pronoun it became, or why there is
    no such map: a pronoun that became two (one person cannot become two)."""
    pronouns: dict[str, str] = {}
    for pair in pairs:
        if not _is_pronoun_pair(pair):
            continue
        old, new_word = pair.old[0], pair.new[0]
        if pronouns.setdefault(old, new_word) != new_word:
            return f"'{old}' became both '{pronouns[old]}' and '{new_word}'"
    return pronouns


def _changes_number(pronouns: dict[str, str]) -> bool:
    """Whether a pronoun changes between singular and "they": only then may a verb change
    with it ("she buys" -> "they buy")."""
    return any((_PERSON_OF[a] == "they") != (_PERSON_OF[b] == "they") for a, b in pronouns.items())


def _pair_kind(
    pair: _Pair,
    old_tokens: Sequence[_Tok],
    new_tokens: Sequence[_Tok],
    pronouns: dict[str, str],
) -> str:
    """What an aligned change is: a pronoun of the person (``"pronoun"``), an article that
    agrees with the word after it (``"article"``), a verb that agrees with a changed pronoun
    (``"agreement"``), or else a renamed name or thing (``"renamed"``)."""
    if _is_pronoun_pair(pair):
        return "pronoun"
    if _is_article_pair(pair, new_tokens):
        return "article"
    if _is_agreement(pair, old_tokens, new_tokens, pronouns):
        return "agreement"
    return "renamed"


@dataclass
class _Collected:
    """The renaming's maps and spans, collected one aligned change at a time (see
    :func:`_check`). ``number_changes``: whether a pronoun changes between singular and
    plural, which alone lets a verb change."""

    old_tokens: Sequence[_Tok]
    new_tokens: Sequence[_Tok]
    number_changes: bool
    words: dict[str, str] = field(default_factory=dict)
    phrases: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    verbs: dict[str, str] = field(default_factory=dict)
    old_spans: list[tuple[int, int]] = field(default_factory=list)
    new_spans: list[tuple[int, int]] = field(default_factory=list)
    persons: bool = False

    def add(self, pair: _Pair, kind: str, cached: str, new: str) -> str | None:
        """Take ``pair`` (of ``kind``, see :func:`_pair_kind`) into the renaming; why it
        cannot be taken, or ``None``."""
        problem = None
        if kind == "agreement":
            problem = self._verb(pair)
        elif kind == "renamed":
            problem = self._renamed(pair, cached, new)
        if problem is None:
            self.old_spans.append(_span(self.old_tokens, pair.old_at))
            self.new_spans.append(_span(self.new_tokens, pair.new_at))
        return problem

    def _verb(self, pair: _Pair) -> str | None:
        """A verb changes only with a pronoun that changes number, and into one form."""
        if not self.number_changes:
            return "a verb changed without a pronoun that asks for it"
        if self.verbs.setdefault(pair.old[0], pair.new[0]) != pair.new[0]:
            return f"'{pair.old[0]}' became two verbs"
        return None

    def _renamed(self, pair: _Pair, cached: str, new: str) -> str | None:
        """A name or a thing, renamed into one word or phrase wherever it stands."""
        problem = _renamable(pair, self.old_tokens, self.new_tokens, cached, new)
        if problem is not None:
            return problem
        if len(pair.old) == 1 and len(pair.new) == 1:
            problem = self._word(pair)
        else:
            problem = self._phrase(pair)
        if problem is None:
            self.persons = self.persons or _capitalised(self.old_tokens, pair.old_at)
        return problem

    def _word(self, pair: _Pair) -> str | None:
        """One word renamed into one word, the same new word every time (its case aside)."""
        old, written = pair.old[0], pair.written[0]
        seen = self.words.setdefault(old, written)
        if seen.lower() != pair.new[0]:
            return f"'{old}' became both '{seen}' and it"
        if seen != written and written[:1].islower():
            # Written once in lower case, the new word is no name: its capital elsewhere
            # only starts a sentence.
            self.words[old] = written
        return None

    def _phrase(self, pair: _Pair) -> str | None:
        """A phrase renamed into the same phrase, as written, every time."""
        if self.phrases.setdefault(pair.old, pair.written) != pair.written:
            return "the phrase became two phrases"
        return None


def _word_left_or_taken(
    words: dict[str, str], old_lows: Sequence[str], new_lows: Sequence[str]
) -> str | None:
    """Every occurrence of a renamed word was renamed (it is gone from the new request), and
    its new word is new (one already in the cached request swaps roles)."""
    for old, new_word in ((a, b.lower()) for a, b in words.items()):
        if old in new_lows:
            return f"'{old}' -> '{new_word}': '{old}' is still in the new request"
        if new_word in old_lows:
            return f"'{old}' -> '{new_word}': '{new_word}' was already in the cached request (roles swap)"  # noqa: E501
    return None


def _phrase_left_or_taken(
    phrases: dict[tuple[str, ...], tuple[str, ...]],
    old_lows: Sequence[str],
    new_lows: Sequence[str],
) -> str | None:
    """As :func:`_word_left_or_taken`, for every word of a renamed phrase but titles."""
    for old_phrase, new_phrase in (
        (a, tuple(t.low for t in _tokens(b[0]))) for a, b in phrases.items()
    ):
        shown = f"'{' '.join(old_phrase)}' -> '{' '.join(new_phrase)}'"
        content_old = [w for w in old_phrase if w.isalpha() and w not in _TITLES]
        content_new = [w for w in new_phrase if w.isalpha() and w not in _TITLES]
        if any(w in new_lows for w in content_old):
            return f"{shown}: a word of it is still in the new request"
        if any(w in old_lows for w in content_new):
            return f"{shown}: a word of it was already in the cached request"
    return None


def _pronoun_problem(
    pronouns: dict[str, str],
    old_lows: Sequence[str],
    new_tokens: Sequence[_Tok],
    new_spans: Sequence[tuple[int, int]],
) -> str | None:
    """A changed pronoun must be new to the cached request (else two persons swap), and
    stand for no one else in the new request (see :func:`_someone_else`)."""
    for old, new_word in pronouns.items():
        if new_word in old_lows and old != new_word:
            return f"'{old}' -> '{new_word}': '{new_word}' was already in the cached request"
    if not pronouns:
        return None
    singular = all(_PERSON_OF[a] != "they" and _PERSON_OF[b] != "they" for a, b in pronouns.items())
    return _someone_else(new_tokens, new_spans, singular)


def _kept_persons(
    new_tokens: Sequence[_Tok], new_spans: Sequence[tuple[int, int]]
) -> frozenset[str]:
    """The persons whose pronouns the new request writes outside the renamed words."""
    return frozenset(
        _PERSON_OF[t.low]
        for t in new_tokens
        if t.low in PRONOUNS and not any(a <= t.start < b for a, b in new_spans)
    )


def _written(tokens: Sequence[_Tok], k: int) -> str:
    """A new word as it is written, lower case where its capital only starts a sentence."""
    tok = tokens[k]
    if tok.kind == "word" and tok.text[:1].isupper() and _sentence_start(tokens, k):
        later = [t.text for t in tokens if t.low == tok.low and not t.text[:1].isupper()]
        return later[0] if later else tok.text if _a_name(tokens, k) else tok.low
    return tok.text


def _sentence_start(tokens: Sequence[_Tok], k: int) -> bool:
    return k == 0 or (
        tokens[k - 1].low in (".", "!", "?", ":") and not (k >= 2 and tokens[k - 2].low in _TITLES)
    )


def _span(tokens: Sequence[_Tok], at: tuple[int, int]) -> tuple[int, int]:
    """The characters of the tokens at ``at``, with a possessive ending glued after them
    ("Omar's": one word of the request, renamed with the name)."""
    end = tokens[at[1] - 1].end
    after = tokens[at[1]] if at[1] < len(tokens) else None
    if after is not None and after.kind == "possessive" and after.start == end:
        end = after.end
    return tokens[at[0]].start, end


def _capitalised(tokens: Sequence[_Tok], at: tuple[int, int]) -> bool:
    return any(t.kind == "word" and t.text[:1].isupper() for t in tokens[at[0] : at[1]])


def _is_pronoun_pair(pair: _Pair) -> bool:
    return (
        len(pair.old) == 1
        and len(pair.new) == 1
        and pair.old[0] in PRONOUNS
        and pair.new[0] in PRONOUNS
        and _role_of(pair.old[0]) & _role_of(pair.new[0]) != set()
    )


def _role_of(word: str) -> set[str]:
    return {role for role, forms in _ROLES.items() if word in forms} | (
        {"reflexive"} if word == "themself" else set()
    )


def _is_article_pair(pair: _Pair, new_tokens: Sequence[_Tok]) -> bool:
    """ "an apple" -> "a pear": the article agrees with the renamed word after it."""
    if len(pair.old) != 1 or {pair.old[0], pair.new[0]} != {"a", "an"}:
        return False
    after = pair.new_at[1]
    return after < len(new_tokens) and new_tokens[after].kind == "word"


def _is_agreement(
    pair: _Pair,
    old_tokens: Sequence[_Tok],
    new_tokens: Sequence[_Tok],
    pronouns: dict[str, str],
) -> bool:
    """ "she buys" -> "they buy", "does she" -> "do they": a verb that agrees with a changed
    subject pronoun right before or after it."""
    if len(pair.old) != 1 or len(pair.new) != 1:
        return False
    old, new = pair.old[0], pair.new[0]
    if not (_agrees(old, new) or _agrees(new, old)):
        return False
    # A changed subject pronoun right after it ("does she"), or before it in its sentence
    # ("she wins 12 and then loses 14").
    at = pair.old_at[0]
    after = old_tokens[at + 1].low if at + 1 < len(old_tokens) else ""
    if after in pronouns and "subject" in _role_of(after):
        return True
    k = at - 1
    while k >= 0 and old_tokens[k].low not in (".", "!", "?", ";"):
        if old_tokens[k].low in pronouns and "subject" in _role_of(old_tokens[k].low):
            return True
        k -= 1
    return False


def _agrees(singular: str, plural: str) -> bool:
    """Whether ``singular`` is the form of ``plural`` after he or she ("buys" / "buy")."""
    if _AGREEMENT.get(singular) == plural:
        return True
    if singular.endswith("ies") and plural == singular[:-3] + "y":
        return True
    if singular.endswith(("sses", "shes", "ches", "xes", "zes", "oes")) and plural == singular[:-2]:
        return True
    return singular.endswith("s") and plural == singular[:-1] and len(plural) >= 2


def _renamable(
    pair: _Pair,
    old_tokens: Sequence[_Tok],
    new_tokens: Sequence[_Tok],
    cached: str,
    new: str,
) -> str | None:
    """Why ``pair`` is no renaming of a name or a thing, or ``None`` when it is one."""
    for side, tokens, at in ((pair.old, old_tokens, pair.old_at), (pair.new, new_tokens,
                             pair.new_at)):  # fmt: skip
        for k, word in zip(range(*at), side, strict=True):
            tok = tokens[k]
            if tok.kind == "punct":
                if word != "." or not (k > 0 and tokens[k - 1].low in _TITLES):
                    return f"'{tok.text}' is punctuation"
                continue
            if tok.kind != "word":
                return f"'{tok.text}' is no word"
            if word in _TITLES or (word in MAKING_VERBS and _all_making(pair)):
                continue
            if _carries_computation(word):
                return f"'{tok.text}' can carry the computation"
            if word in PRONOUNS:
                return f"'{tok.text}' is a pronoun"
    old_verbs = all(w in MAKING_VERBS for w in pair.old)
    new_verbs = all(w in MAKING_VERBS for w in pair.new)
    if old_verbs or new_verbs:
        if old_verbs and new_verbs:
            return None
        return "a verb that makes something may only become another such verb"
    return None


def _names_or_things(pairs: Sequence[_Pair], old_tokens: Sequence[_Tok],
                     new_tokens: Sequence[_Tok]) -> str | None:  # fmt: skip
    """Why a renamed word is neither a name (capitalised) nor a thing (standing where a thing
    stands, at one of its places at least, in its request), or ``None``."""
    for side, tokens in (("old", old_tokens), ("new", new_tokens)):
        places: dict[tuple[str, ...], bool] = {}
        for pair in pairs:
            words, at = (pair.old, pair.old_at) if side == "old" else (pair.new, pair.new_at)
            if all(w in MAKING_VERBS for w in words):
                continue
            found = _capitalised(tokens, at) or _thing_at(tokens, at)
            places[words] = places.get(words, False) or found
        for words, found in places.items():
            if not found:
                return (
                    f"'{' '.join(words)}' is neither a name nor a thing the request counts or names"
                )
    return None


def _all_making(pair: _Pair) -> bool:
    return all(w in MAKING_VERBS for w in (*pair.old, *pair.new))


@text_memo(max_chars=50_000)
def _carries_computation(word: str) -> bool:
    """Whether ``word`` is one of :data:`COMPUTATION_WORDS`, a number word, a unit or a cue
    of a constant of the world."""
    base = word.lower()
    if base in COMPUTATION_WORDS or base.rstrip("s") in COMPUTATION_WORDS:
        return True
    if known_unit(base) or read_quantities(base):
        return True
    return any(cue is not None and cue.fullmatch(base) for cue in CONSTANTS.values())


def _thing_at(tokens: Sequence[_Tok], at: tuple[int, int]) -> bool:
    """Whether the words at ``at`` stand where a thing stands: right after a quantity ("5
    kiwis"), or after a determiner or a preposition over at most two other words ("the night
    market", "each kiwi", "of sparkling water"), or before a possessive ("the cafe's")."""
    k = at[0] - 1
    passed = 0
    while k >= 0 and passed <= _MAX_MODIFIERS:
        tok = tokens[k]
        if tok.kind == "quantity" or tok.kind == "possessive":
            return True
        if tok.kind != "word":
            break
        if tok.low in _BEFORE_THINGS:
            return True
        if tok.low in PRONOUNS or (_carries_computation(tok.low) and tok.low not in _MODIFIERS):
            break
        passed += 1
        k -= 1
    return False


def _someone_else(
    tokens: Sequence[_Tok], renamed: Sequence[tuple[int, int]], singular: bool = False
) -> str | None:
    """A person, other than the renamed one, that a changed pronoun could stand for in the
    new request: another name, or a noun for people. Where every changed pronoun is "he" or
    "she" (``singular``), a noun for several people ("her friends", "51 students") is no
    one they could stand for: "she" never means "the friends"."""
    for k, tok in enumerate(tokens):
        if tok.kind != "word" or any(a <= tok.start < b for a, b in renamed):
            continue
        if singular and tok.low in _PLURAL_PERSONS:
            continue
        if tok.low in PERSON_NOUNS and tok.low not in PRONOUNS:
            return f"a pronoun changed and '{tok.text}' may be whom it stands for now"
        if tok.text[:1].isupper() and _a_name(tokens, k):
            return f"a pronoun changed and '{tok.text}' may be whom it stands for now"
    return None


def _a_name(tokens: Sequence[_Tok], k: int) -> bool:
    """Whether the capitalised word at ``k`` may name someone: not a function, question or
    computation word, not a place ("in Lagos", "to Osaka"), and at the start of a sentence
    not a word the request also writes in lower case ("Doughnuts cost $1 ... 16
    doughnuts")."""
    tok = tokens[k]
    if _carries_computation(tok.low) or tok.low in PRONOUNS | _TITLES | _OPENERS:
        return False
    if len(tok.text) == 1:
        return False  # "4 A grades": a letter, not someone
    if _sentence_start(tokens, k) and (
        tok.low in FRAMING_WORDS or any(t.low == tok.low and t.text[:1].islower() for t in tokens)
    ):
        # "Please solve ...", "Help me with ...": a sentence that frames the problem opens
        # with a word that asks, not with someone.
        return False
    before = tokens[k - 1].low if k > 0 else ""
    return before not in ("in", "to", "at", "from", "near", "into", "across", "around")


# -- renaming a text ------------------------------------------------------------------------------

# Words between a subject pronoun and its verb that are no verb ("they also buy").
_ADVERBS = word_set("also only then still now just each both all first finally again")
_AUXILIARIES = word_set("does do is are was were has have")
_MODALS = word_set("must can could will would should shall may might did cannot")


def _rename(found: Renaming, text: str) -> str | None:
    tokens = _tokens(text)
    edits: list[tuple[int, int, str]] = []
    by_length = sorted(found.phrases, key=len, reverse=True)
    k = 0
    while k < len(tokens):
        tok = tokens[k]
        phrase = next(
            (p for p in by_length if tuple(t.low for t in tokens[k : k + len(p)]) == p), None
        )
        if phrase is not None:
            last = tokens[k + len(phrase) - 1]
            edits.append((tok.start, last.end, _case_like(tok.text, found.phrases[phrase])))
            k += len(phrase)
            continue
        if tok.kind != "word":
            k += 1
            continue
        word = _new_form(found, tok.low)
        if word is not None:
            edits.append((tok.start, tok.end, _case_like(tok.text, word)))
        elif tok.low in PRONOUNS:
            changed = _pronoun(found, tokens, k, edits)
            if changed is None:
                return None
        elif _stale_form(found, tok.low):
            return None  # an old word in a form the renaming does not know
        k += 1
    edits = _articles(tokens, edits)
    out = text
    for start, end, written in sorted(set(edits), reverse=True):
        out = out[:start] + written + out[end:]
    return out


def _new_form(found: Renaming, word: str) -> tuple[str, ...] | None:
    """The new form of an old word: itself, or the regular plural or singular of it when the
    renaming pairs the other form ("plum" -> "fig" gives "plums" -> "figs", "crates" ->
    "boxes" gives "crate" -> "box")."""
    if word in found.words:
        return (found.words[word],)
    for old, new in found.words.items():
        if word == _plural(old) and new.lower() != _plural(new).lower():
            return (_plural(new),)
        if old == _plural(word) and _singular(new) != new:
            return (_singular(new),)
    return None


def _plural(word: str) -> str:
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 3:
        return word[:-3] + "y"
    if word.endswith(("xes", "zes", "ches", "shes", "sses")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _stale_form(found: Renaming, word: str) -> bool:
    """Whether ``word`` is an unknown form of an old word ("kiwies", "Rileys")."""
    for old in (*found.words, *(w for p in found.phrases for w in p if w.isalpha())):
        if old in _TITLES:
            continue
        stem = old[:-1] if old.endswith("s") else old
        if len(stem) >= 3 and word.startswith(stem):
            return True
    return False


def _pronoun(
    found: Renaming, tokens: Sequence[_Tok], k: int, edits: list[tuple[int, int, str]]
) -> bool | None:
    """Rewrite the pronoun at ``k`` (and the verb that agrees with it) into ``edits``;
    ``None`` when its new form is not certain: a pronoun of a renamed person the request
    gives none for, "her" whose role decides between "his" and "him", a verb after a
    pronoun that became or stopped being "they" that the request did not pair."""
    word = tokens[k].low
    person = _PERSON_OF[word]
    changed = {_PERSON_OF[a]: _PERSON_OF[b] for a, b in found.pronouns.items()}
    if person not in changed:
        # A pronoun whose person the request did not change: kept where the request keeps
        # it too, or where no person was renamed (else the renamed person's pronoun is not
        # known).
        return None if found.persons_renamed and person not in found.kept else True
    new_person = changed[person]
    roles = _role_of(word)
    if word == "her" and new_person != "she":
        roles = {"determiner" if _determiner_next(tokens, k) else "object"}
    elif word == "his" and new_person != "he":
        # "his wallet" -> "their wallet", "the wallet is his" -> "... theirs": the word
        # after it decides, as for "her".
        roles = {"determiner" if _determiner_next(tokens, k) else "possessive"}
    if len(roles) != 1:
        return None
    role = roles.pop()
    new = _ROLES[role][_PERSONS.index(new_person)]
    if new != word:
        edits.append((tokens[k].start, tokens[k].end, _case_like(tokens[k].text, (new,))))
    if role != "subject" or (person == "they") == (new_person == "they"):
        return True
    # The verb agrees: after the pronoun ("she buys" / "they buy", over "also"), or the
    # auxiliary before it ("does she" / "do they").
    plural = new_person == "they"
    before = tokens[k - 1] if k > 0 else None
    if before is not None and before.low in _MODALS:
        return True  # "must she add" / "must they add": the verb does not agree
    if before is not None and before.low in _AUXILIARIES:
        verb = _agreeing(found, before.low, plural)
        if verb is None:
            return None
        edits.append((before.start, before.end, _case_like(before.text, (verb,))))
        return True
    j = k + 1
    while j < len(tokens) and tokens[j].low in _ADVERBS:
        j += 1
    if j >= len(tokens) or tokens[j].kind != "word":
        return True
    if tokens[j].low in _MODALS:
        return True  # "they can buy" / "she can buy": a modal does not agree
    verb = _agreeing(found, tokens[j].low, plural)
    if verb is None:
        return None
    edits.append((tokens[j].start, tokens[j].end, _case_like(tokens[j].text, (verb,))))
    _coordinated(found, tokens, j, edits)
    return True


def _coordinated(
    found: Renaming, tokens: Sequence[_Tok], j: int, edits: list[tuple[int, int, str]]
) -> None:
    """The verb the same subject governs after "and" in its clause ("they win 12 from Ahmed
    and then lose 14" -> "she wins ... and then loses"): rewritten only as the request itself
    pairs it (its own agreement pairs), never by a rule."""
    k = j + 1
    while k < len(tokens) and tokens[k].kind != "punct" and tokens[k].low != "and":
        k += 1
    if k >= len(tokens) or tokens[k].low != "and":
        return
    k += 1
    while k < len(tokens) and tokens[k].low in _ADVERBS:
        k += 1
    if k < len(tokens) and tokens[k].low in found.verbs:
        verb = found.verbs[tokens[k].low]
        edits.append((tokens[k].start, tokens[k].end, _case_like(tokens[k].text, (verb,))))


def _agreeing(found: Renaming, verb: str, plural: bool) -> str | None:
    """``verb`` in the form that agrees with "they" (``plural``) or with "he"/"she": as the
    request pairs it, or by the closed table of irregular verbs; ``None`` when not certain."""
    if verb in found.verbs:
        return found.verbs[verb]
    table = _AGREEMENT if plural else _AGREEMENT_BACK
    if verb in table:
        return table[verb]
    if verb in found.verbs.values() or verb in table.values():
        return verb  # already agrees
    return None


def _determiner_next(tokens: Sequence[_Tok], k: int) -> bool:
    nxt = tokens[k + 1] if k + 1 < len(tokens) else None
    return (
        nxt is not None
        and nxt.kind in ("word", "quantity")
        and nxt.low not in word_set("and or but to so then with for at in on of")
    )


def _articles(
    tokens: Sequence[_Tok], edits: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """ "an apple" -> "a pear": an article before a renamed word follows its first letter
    (the renamed words are names and things)."""
    starts = {start: written for start, _, written in edits}
    out = list(edits)
    for k, tok in enumerate(tokens[:-1]):
        if tok.low not in ("a", "an"):
            continue
        written = starts.get(tokens[k + 1].start)
        if written is None:
            continue
        article = "an" if written[:1].lower() in "aeiou" else "a"
        if article != tok.low:
            out.append((tok.start, tok.end, _case_like(tok.text, (article,))))
    return out


def _case_like(old: str, new: tuple[str, ...]) -> str:
    """The new words, written like the new request writes them (names keep their capitals),
    with a capital first letter where ``old`` had one (a sentence's first word)."""
    text = " ".join(new)
    if old[:1].isupper() and text[:1].islower():
        return text[:1].upper() + text[1:]
    return text

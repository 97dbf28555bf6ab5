"""The word lists behind "the same request": small, explicit, and each one documented.

Every list here is closed: a word that is not listed is never neutral. Lists are in the
lower-case comparison form (straight apostrophes).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "ABBREVIATIONS",
    "ANSWER_SELF_REFERENCE",
    "CAPITONYMS",
    "CONTRACTIONS",
    "DATA_WORDS",
    "ECHOED_FILLER",
    "GREETINGS",
    "LITERAL_TRIGGERS",
    "NEGATORS",
    "NEUTRAL_WORDS",
    "NO_OBJECT",
    "OPENERS",
    "OTHER_WRITERS",
    "PROPER_ONLY",
    "REQUEST_VERBS",
    "SEEMING_VERBS",
    "SELF_REFERENCE_DEIXIS",
    "SELF_REFERENCE_NOUNS",
    "SELF_REFERENCE_PHRASES",
    "SELF_REFERENCE_UNITS",
    "SELF_REFERENCE_UNITS_WITHOUT_NUMBERS",
    "SELF_REFERENCE_WORDS",
    "SENTENCE_WORDS",
    "TEXT_POSITIONS",
    "TEXT_VERBS",
    "THANKS",
    "WH_STARTS",
    "WRITER_PAST",
    "WRITER_VERBS",
    "WRITER_VERBS_ING",
    "expand_contraction",
    "may_be_participle",
    "word_set",
]


def word_set(text: str) -> frozenset[str]:
    """The words of a whitespace-separated list, as a set: how every closed word list of the
    package is written.

    Example:
        >>> sorted(word_set("more fewer  less"))
        ['fewer', 'less', 'more']
    """
    return frozenset(text.split())


# -- politeness and filler -------------------------------------------------------------------

# A greeting is neutral when it opens a sentence and stands alone ("Hi!", "Hello,\n", "Hi,
# what is ..."): a greeting carries no instruction. A greeting that states a fact is not
# listed: "Good evening!" tells the time of day ("Good evening! Is it too late for coffee?").
GREETINGS: tuple[tuple[str, ...], ...] = (
    ("hi", "there"),
    ("hello", "there"),
    ("hey", "there"),
    ("hi",),
    ("hello",),
    ("hey",),
    ("greetings",),
)

# Thanks are neutral when they form a clause of their own ("Thanks!", ", thank you."): they
# ask for nothing. "Write a thank you note" keeps them (not a clause of their own).
THANKS: tuple[tuple[str, ...], ...] = (
    ("thank", "you", "in", "advance"),
    ("thank", "you", "very", "much"),
    ("thank", "you", "so", "much"),
    ("please", "and", "thank", "you"),
    ("please", "and", "thanks"),
    ("thanks", "in", "advance"),
    ("thanks", "a", "lot"),
    ("thanks", "so", "much"),
    ("many", "thanks"),
    ("thank", "you"),
    ("thanks",),
    ("thx",),
)

# A polite opener in front of a request verb asks for the same thing as the bare verb:
# "Could you list the primes" is "List the primes". Only before a listed verb, so "Can you
# see Mars tonight?" keeps its words. (Contractions are expanded first: "I'd" is "I would".)
OPENERS: tuple[tuple[str, ...], ...] = (
    ("i", "would", "like", "you", "to"),
    ("i", "want", "you", "to"),
    ("i", "need", "you", "to"),
    ("can", "you", "help", "me"),
    ("could", "you", "help", "me"),
    ("would", "you", "help", "me"),
    ("please", "help", "me"),
    ("help", "me"),
    ("can", "you"),
    ("could", "you"),
    ("would", "you"),
    ("will", "you"),
)

# "I'd like a list of ..." asks for "a list of ...".
WANT_OBJECT: tuple[str, ...] = ("i", "would", "like")
DETERMINERS = frozenset({"a", "an", "the", "some"})

# Words that start a question or statement after a greeting ("Hi, what is ...").
WH_STARTS = frozenset(
    {
        "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are",
        "do", "does", "did", "can", "could", "would", "will", "should", "i", "please",
    }
)  # fmt: skip

# Verbs that a polite opener may precede. Only the opener is neutral: the verb is kept.
# Verbs that mostly ask whether something is possible after "can you" ("Can you get sick
# from ...", "Can you go to jail for ...", "Can you build muscle without ...") are left out.
REQUEST_VERBS = word_set(
    """
    advise analyse analyze answer brainstorm calculate chart clarify classify compare compile
    compose compute convert correct count create critique debug decode define demonstrate
    derive describe design detail determine discuss draft draw edit elaborate encode estimate
    evaluate explain extract find fix format generate give grade help identify illustrate
    implement list make name optimise optimize organise organize outline paraphrase parse
    plan plot propose proofread provide quiz rank rate recommend refactor remind rephrase
    repeat reply research respond review rewrite say search show simplify simulate sketch
    solve sort spell suggest summarise summarize tabulate teach tell transcribe translate
    verify visualise visualize walk write
    """
)

# -- where words are data, not instructions ----------------------------------------------------

# After one of these words, the rest of the request may be text to transform or inspect
# ("Translate: thank you", "Count the capital letters in Boston"): from there on, case,
# punctuation, filler and contractions all count.
LITERAL_TRIGGERS = word_set(
    """
    abbreviate abbreviation abbreviations acronym acronyms alphabetical alphabetically
    alphabetize alphabetise anagram anagrams capitalise capitalised capitalize
    capitalized capitalisation capitalization case char chars character characters
    consonant consonants correct decode echo encode encrypt decrypt letter letters lowercase
    palindrome palindromes paraphrase phrase phrases pronounce proofread punctuate
    punctuation quote quoted repeat rephrase reverse reword rewrite rhyme rhymes say said
    saying says sentence spell spelled spelling spells spelt string strings
    syllable syllables text transcribe translate translated translates translating
    translation transliterate type typed uppercase vowel vowels word grammar
    grammatical
    """
)

# -- requests about their own text -------------------------------------------------------------
#
# A request that may be about its own text, tone, wording, form or punctuation is compared as
# written: no edit is neutral for it (see ``self_reference``). These lists decide "may be",
# generously: a wrong yes costs a model call, a wrong no serves the answer about another text.
# Words are in the form ``self_reference`` reads them (lower case, split at every mark, so
# "I'm" is "i m" and "passive-aggressive" is "passive aggressive").

# Words that speak of a message's own text, tone, politeness, greeting or marks wherever they
# are: "Is my tone formal?", "Spell it", "Count the vowels", "Was that sarcastic?".
SELF_REFERENCE_WORDS = word_set(
    """
    message prompt wording worded phrasing phrased verbatim
    spell spelled spelling spells spelt misspell misspelled misspelt misspelling misspellings
    typo typos letters vowel vowels consonant consonants syllable syllables uppercase
    lowercase capitalise capitalised capitalize capitalized capitalisation capitalization
    capitalising capitalizing palindrome palindromes anagram anagrams alphabetical
    alphabetically alphabetize alphabetise grammar grammatical grammatically proofread
    punctuate punctuated punctuation exclamation exclamations exclamatory apostrophe
    apostrophes comma commas semicolon semicolons colon colons hyphen hyphens ellipsis
    ellipses emoji emojis emoticon emoticons whitespace spacing newline newlines linebreak
    linebreaks indentation contraction contractions caps
    tone tones toned polite politely politeness impolite rude rudely rudeness courteous
    courtesy discourteous respectful disrespectful formal informal formality formally
    informally casual casually sarcastic sarcasm sarcastically ironic ironically aggressive
    manners mannered etiquette sentiment sentiments mood moods emotion emotions emotional
    attitude vibe vibes cheerful grumpy enthusiastic enthusiasm excited annoyed frustrated
    upset angry nicely shouting yelling emphatic emphasis impression
    greet greets greeted greeting salutation salutations opener signoff gratitude grateful
    appreciative thankful thanked thanking
    guess guessing
    """
)

# Phrases that speak of a message's marks or ask to answer in kind (whole words, in order).
SELF_REFERENCE_PHRASES = frozenset(
    {
        "question mark", "question marks", "full stop", "full stops", "quotation mark",
        "quotation marks", "in kind", "same tone", "same style", "same way", "same manner",
        "same language", "same greeting", "same words", "match my", "mirror my", "mimic my",
        "imitate my", "copy my", "mirror me", "mimic me", "imitate me", "copy me",
        "like i did", "as i did", "back to me", "say back", "greet me", "sign off",
        "reply accordingly", "respond accordingly", "answer accordingly", "how long is this",
        "how long is that", "how long is my", "too long", "too short", "does it sound",
        "upper case", "lower case", "all caps", "what language is this", "how did i",
        "do you think i", "about me", "describe me", "guess my", "what am i like",
        "native speaker", "question or statement", "statement or question",
        "question or a statement", "what did i just do", "did i just", "the above",
        "everything above", "everything before", "before this", "all of this", "all this",
        "you just read", "did you read", "what you read", "repeat after me", "word for word",
        "was i nice", "am i nice", "was i clear", "am i clear",
    }
)  # fmt: skip

# A pointing word followed (within three words) by a noun of the message: "this message",
# "my last question", "these words", "that greeting" (not before a colon: "Answer this
# question: ..." points at the text after the colon, which is literal anyway).
SELF_REFERENCE_DEIXIS = word_set("this these that those my our previous whole entire")
SELF_REFERENCE_NOUNS = word_set(
    """
    message messages request requests question questions query queries prompt prompts input
    text texts sentence sentences line lines paragraph paragraphs word words wording phrasing
    phrase phrases post note comment reply writing style tone greeting opener opening ending
    beginning start end punctuation spelling grammar language english letter letters chat
    conversation email mail tweet draft statement length characters
    """
)

# Units of text a count may be of: "How many words?", "count the sentences". A count of
# these is about the message unless its sentence names another writer ("How many words
# does she type?"); a count of the words below that name other things too (letters in the
# mail, lines of a poem, parking spaces, tokens at a fair) also needs a sentence without a
# number ("How many letters are left if she mails 5?" is a word problem).
SELF_REFERENCE_UNITS = word_set(
    """
    word words sentence sentences paragraph paragraphs syllable syllables vowel vowels
    consonant consonants comma commas punctuation exclamation exclamations apostrophe
    apostrophes char chars hyphens semicolons
    """
)
SELF_REFERENCE_UNITS_WITHOUT_NUMBERS = word_set(
    """
    letter letters character characters line lines mark marks space spaces period periods
    token tokens capital capitals digit digits
    """
)
# A count whose sentence has one of these is about another writer's text.
OTHER_WRITERS = word_set("he she they his her their him them")

# Ordinals before a unit of text: "the first word", "the last letter", "the second line".
TEXT_POSITIONS = word_set("first last second third final opening next previous middle")

# Verbs that work on a text: at the end of a sentence, with no object of their own ("Hi!
# Translate into French.", "Hello! Repeat it back."), the text they work on is the message.
TEXT_VERBS = word_set(
    """
    translate repeat echo reverse rewrite rephrase reword paraphrase say quote spell
    transcribe transliterate proofread correct type encode decode encrypt punctuate
    capitalise capitalize summarise summarize continue finish complete count copy
    """
)
# Words that may follow such a verb without being its object.
NO_OBJECT = word_set(
    """
    it back everything all me please again verbatim exactly word for that this these those
    so far aloud out loud in into to reverse backwards order then now too language
    english
    """
)

# The writer's own words: "what I wrote", "did I say", "how do I sound", "am I being rude".
# Past forms after "I" ("I wrote", "what I just said", "have I used"); present forms after
# "did I"; "-ing" forms after "am I" / "I'm"; verbs of seeming after "I", "do I", "this".
WRITER_PAST = word_set(
    """
    wrote written said typed asked sent used began begun spoke spoken meant greeted thanked
    addressed phrased worded started opened ended finished closed signed punctuated
    capitalised capitalized spelled spelt mentioned included sounded seemed came
    """
)
WRITER_VERBS = word_set(
    """
    write say type ask send put use greet thank address phrase word start begin open end
    finish close sign speak punctuate capitalise capitalize spell mention include misspell
    forget talk
    """
)
WRITER_VERBS_ING = word_set(
    """
    being using writing typing speaking asking telling shouting yelling sounding coming saying
    greeting thanking addressing talking begging pleading
    """
)
SEEMING_VERBS = word_set(
    "sound sounds sounded seem seems seemed come comes came read reads look looks"
)

# Phrases of a cached answer that speak of its request's own text: that answer can only be
# served to the identical text ("Your message has 8 words.", 'You said: "Hi!"').
ANSWER_SELF_REFERENCE = frozenset(
    {
        "your message", "your messages", "your question", "your request", "your prompt",
        "your greeting", "your tone", "your wording", "your phrasing", "your text",
        "your sentence", "your sentences", "your words", "your writing", "your punctuation",
        "your spelling", "your grammar", "your note", "your post", "your reply",
        "your opener", "your first word", "your last word", "you said", "you wrote",
        "you typed", "you greeted", "you thanked", "question mark", "question marks",
        "exclamation mark", "exclamation marks", "exclamation point", "full stop",
    }
)  # fmt: skip

# Filler words a cached answer may echo ("Hi! ...", 'You said "please".'): where the cached
# answer has one that the cached request dropped as neutral and the new request does not
# have, the answer reflects the filler and is not the new request's answer.
ECHOED_FILLER = word_set("hi hello hey greetings thanks thank thx please kindly")


# -- case ------------------------------------------------------------------------------------
#
# Letter case is meaning unless the reading is certain either way (see ``tokens._folded``):
# only the capital of a structure word opening a sentence (SENTENCE_WORDS) and the case of a
# word that names one thing whatever its case (PROPER_ONLY, where no word makes the request's
# words data: DATA_WORDS) fold. Everything else keeps its case: "What is a Jaguar?" is not
# "What is a jaguar?", "Is Apple ...?" is not "Is apple ...?".

# Words whose capitalised form names something else (a language, tool, brand, place, month,
# person or party): "rust"/"Rust", "polish"/"Polish", "may"/"May", "jobs"/"Jobs". Their case
# is meaning even where a sentence starts ("Polish is hard" is not "polish is hard"). The list
# is generous on purpose: listing a word costs at most a model call.
CAPITONYMS = word_set(
    """
    access alexa alpine amazon amber angular ant apple arch arrow art atom audition august
    aurora azure baker bath bear bell bill black blender block bob box brave brown buffalo
    bun bush cargo celery chad chase chef chile china chrome citizen confluence conservative
    cook cork crystal cursor dart dawn delta democrat democratic discord dodge dove eagle
    earth echo eclipse edge elastic ember eve excel express faith fiat fisher flask ford fox
    frank gap gates gemini georgia go god grace green guinea herb hope house hunter
    illustrator iris ivy jack jade jaguar java jersey job jobs jordan joy julia june king
    kindle labour labor lambda lent liberal lily lincoln lisp logo lotus march mark mars
    maven maya may mercurial mercury meta miller mint mobile moon nano next nice node notion
    office opera oracle orange outlook pandas pascal pat pearl phoenix pillow polish potter
    premiere puma puppet python rails raspberry ray react reading republican rose ruby rust
    safari sage salt seat senate shell signal sketch slack smart smith snap spark split
    square stripe sublime subway sue summer sun swan swift target teams telegram tesla
    threads tide titan trump turkey union unity vision visa white will windows wolf word
    young zoom
    """
)

# Words that name one thing (a place, day, month, planet, language or people) and mean nothing
# else in lower case: "boston" can only be Boston, so "Recommend a hotel in boston" is
# "Recommend a hotel in Boston". A word is listed only when no lower-case reading exists (no
# "china", "turkey", "japan" (lacquer), "morocco" (leather), "lima" (bean), "wales", "welsh",
# "french" (to french beans), "geneva" (gin), "mecca", "cologne", "manhattan", "savannah"; and
# no capitonym). An unlisted name keeps its case: it costs a model call, never a wrong answer.
PROPER_ONLY = word_set(
    """
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
    thursdays fridays saturdays sundays january february april july september october
    november december
    venus jupiter saturn neptune uranus pluto
    africa america americas antarctica asia australia europe oceania eurasia scandinavia
    siberia sahara himalaya himalayas balkans caribbean mediterranean
    afghanistan albania algeria andorra angola argentina armenia austria azerbaijan bahamas
    bahrain bangladesh barbados belarus belgium belize benin bhutan bolivia bosnia botswana
    brunei bulgaria burundi burma cambodia cameroon canada colombia congo croatia cuba
    cyprus czechia denmark djibouti ecuador egypt england eritrea estonia eswatini ethiopia
    fiji finland france gabon gambia germany ghana greece greenland grenada guatemala guyana
    haiti honduras hungary iceland india indonesia iran iraq ireland israel italy jamaica
    kazakhstan kenya kiribati korea kosovo kuwait kyrgyzstan laos latvia lebanon lesotho
    liberia libya liechtenstein lithuania luxembourg macedonia madagascar malawi malaysia
    maldives mali malta mauritania mauritius mexico micronesia moldova monaco mongolia
    montenegro mozambique myanmar namibia nauru nepal netherlands nicaragua nigeria norway
    oman pakistan palau palestine paraguay peru philippines portugal qatar romania russia
    rwanda samoa scotland senegal serbia seychelles singapore slovakia slovenia somalia
    spain sudan suriname sweden switzerland syria taiwan tajikistan tanzania thailand tibet
    togo tonga tunisia turkmenistan tuvalu uganda ukraine uruguay uzbekistan vanuatu
    venezuela vietnam yemen zambia zimbabwe
    alabama alaska arizona arkansas california colorado connecticut delaware florida hawaii
    idaho illinois indiana iowa kansas kentucky louisiana maryland massachusetts michigan
    minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania
    tennessee texas utah vermont virginia wisconsin wyoming
    london berlin madrid lisbon porto tokyo kyoto osaka seoul beijing shanghai delhi mumbai
    bangalore chennai kolkata hyderabad karachi lahore islamabad kabul kathmandu dhaka
    bangkok hanoi jakarta taipei sydney melbourne brisbane adelaide canberra auckland
    toronto montreal vancouver ottawa calgary winnipeg edmonton quebec chicago boston
    seattle denver dallas houston atlanta miami detroit philadelphia pittsburgh baltimore
    nashville memphis orlando portland honolulu brooklyn cairo lagos nairobi johannesburg
    casablanca istanbul ankara athens vienna prague budapest warsaw krakow moscow stockholm
    oslo copenhagen helsinki dublin edinburgh glasgow liverpool amsterdam rotterdam zurich
    munich frankfurt milan naples venice turin barcelona seville marseille lyon dubai doha
    riyadh tehran baghdad jerusalem bogota santiago caracas quito montevideo brasilia
    eiffel machu picchu mahal everest kilimanjaro nile danube thames prado
    stonehenge yosemite yellowstone
    spanish german italian portuguese russian chinese japanese korean arabic hindi urdu
    bengali swedish norwegian finnish dutch greek hebrew turkish persian vietnamese thai
    indonesian swahili catalan irish scottish american canadian mexican european
    african asian australian egyptian hungarian czech slovak ukrainian swiss
    christmas easter halloween ramadan diwali hanukkah
    shakespeare mozart beethoven picasso
    """
)

# Words whose capital opening a sentence is the sentence's: question words, auxiliaries,
# determiners, pronouns, prepositions, conjunctions and such (with the request verbs and the
# filler words). A closed list: a content word opening a sentence ("Kestrel is my username.
# What is its MD5?") may be data whose case the answer reflects, so it keeps its case.
SENTENCE_WORDS = word_set(
    """
    what which who whom whose when where why how whether
    is are am was were be been being do does did have has had can could shall should would
    must might ought need
    the a an this that these those some any each every all both either neither no none few
    many much more most several such other another
    you he she it we they me him her us them my your his its our their mine yours ours
    theirs myself yourself yourselves himself herself itself ourselves themselves one
    someone somebody something anyone anybody anything everyone everybody everything nobody
    nothing there here
    in on at to from with without by for of about above below under over after before during
    since until between among into onto through across against along around behind beyond
    near off out up down upon within per via than unlike despite except
    and but or nor so yet because if unless although though while whereas once then also
    however therefore otherwise instead besides meanwhile anyway
    not never always sometimes often usually now today tomorrow yesterday tonight again
    already just only even still perhaps maybe yes okay ok actually really first next finally
    last suppose given assume imagine consider let
    """
)

# Words that make the request's words data (a password, a user or file name, a code, a
# field, a hash): in a request that has one, no name folds its case ("Is Boston a strong
# password?" is not "Is boston a strong password?"), whatever the answer copies.
DATA_WORDS = word_set(
    """
    password passwords passcode passphrase pin username usernames user users login handle
    nickname alias filename filenames file files folder folders directory directories path
    paths dir tag tags label labels id ids identifier identifiers code codes key keys field
    fields column columns variable variables value values hash hashes md5 sha sha1 sha256
    checksum encode encoded encoding base64 hex ascii unicode byte bytes url urls domain
    hostname email emails branch repository repo sheet tab sort sorted title titled named
    called argument arguments parameter parameters json
    """
)

# Words after which a full stop does not end a sentence ("Dr. Smith", "e.g. Apple", "No. 5"):
# a capital after them is not the sentence's. Single letters (initials) and words with a dot
# inside ("e.g", "U.S") are never sentence ends either (see ``tokens``).
ABBREVIATIONS = word_set(
    """
    mr mrs ms dr prof st sr jr rev gen gov sen rep capt col lt sgt mt ft ave blvd rd no nos
    vs etc approx fig figs eq eqs ch chap sec vol vols pp ed eds est ca cf al viz resp incl
    excl misc ref refs dept univ inc ltd co corp jan feb mar apr jun jul aug sep sept oct
    nov dec mon tue tues wed thu thur thurs fri sat sun min max hr hrs ex op
    """
)

# -- contractions ------------------------------------------------------------------------------
#
# A contraction is neutral only where its reading is certain:
# - "n't" is "not" ("don't" -> do, not; "can't" and "cannot" -> can, not; "won't" -> will, not);
#   "'re" is "are", "'m" is "am", "'ve" is "have", "'ll" is "will"; "let's" is "let us".
# - "'d" is "would" or "had" (or "did": "Where'd you park?"): it is expanded only where the next
#   word allows one reading: "would" before like / love / prefer / rather / hate / have
#   ("I'd like"), "had" before been / better ("I'd better").
# - "'s" is "is", "has", "does" ("What's he want?") or a possessive ("Bob's"): it is expanded
#   only after it / that / there / here / he / she (never a possessive, never "does"): "has"
#   before been / got, "is" where nothing up to the end of the sentence can be a past participle
#   (the one thing "has" needs: "It's cold" -> it is; "He's gone" stays "he's"). "What's",
#   "who's", "where's", "how's" stay as written: "What's he like?" is "What is he like?" or
#   "What does he like?".

CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "can't": ("can", "not"),
    "cannot": ("can", "not"),
    "won't": ("will", "not"),
    "shan't": ("shall", "not"),
    "let's": ("let", "us"),
    "i'm": ("i", "am"),
}
# "X's" may be "X is" only after these words: none of them has a possessive or a "does" form.
_S_STEMS = word_set("it that there here he she")
_S_HAS_NEXT = word_set("been got")
_D_WOULD_NEXT = word_set("like love prefer rather hate have")
_D_HAD_NEXT = word_set("been better")
_NT_STEMS = word_set(
    """
    are could did does do had has have is might must need should was were would
    """
)
_SUFFIXES = {"'re": "are", "'ve": "have", "'ll": "will", "'m": "am"}
_CONTRACTION = re.compile(r"^([a-z]+)('[a-z]+)$")

# Past participles that do not end in "-ed" or "-en" (English irregular verbs are a closed
# list): after "'s", any of them (or any word ending in "-ed"/"-en") may make it "has".
_IRREGULAR_PARTICIPLES = word_set(
    """
    arisen awoke become begun bent bet bid blown born borne bought bound broadcast brought
    built burnt burst cast caught clad cleft clung come cost crept cut dealt done dove drawn
    dreamt drunk dug dwelt fed felt fit fled flown flung fought found forecast forgone gone
    got ground grown had heard held hewn hit hung hurt input kept knelt knit known laid
    lain leant leapt learnt led left lent let lit lost made meant met misheard mislaid misled
    misread mistook misunderstood mown outdone outgrown output outrun overcome overdone
    overheard overrun oversold overthrown paid pled put quit read rebuilt redone repaid reset
    retold rid run rung said sawn seen sent set sewn shod shone shorn shot shown shrunk shut
    slid slung slit smelt snuck sold sought sown sped spelt spent spilt spit split spoilt
    spread sprung spun stood strewn struck strung stuck stung stunk sung sunk swept sworn
    swum swung taught thought thrown thrust told torn trod understood undergone undone
    underwent upheld upset wept withdrawn withheld withstood won worn wound wrung wrought
    """
)


def may_be_participle(word: str) -> bool:
    """Whether ``word`` (lower case) may be a past participle: "-ed", "-en" or irregular.

    Generous on purpose (it also says yes to "red" or "often"): a yes only keeps a "'s" as
    written.

    Example:
        >>> may_be_participle("gone"), may_be_participle("cold")
        (True, False)
    """
    return word.endswith(("ed", "en")) or word in _IRREGULAR_PARTICIPLES


def expand_contraction(word: str, following: Sequence[str] = ()) -> tuple[str, ...] | None:
    """The expanded words of a contraction whose reading is certain, else ``None``.

    ``word`` is in comparison form (lower case, straight apostrophe); ``following`` holds the
    words after it up to the end of its sentence, lower case (the next word decides "'d";
    the rest of the sentence decides "'s"). The negation survives: "don't" -> do, not.

    Example:
        >>> expand_contraction("don't"), expand_contraction("i'd", ["like", "tea"])
        (('do', 'not'), ('i', 'would'))
        >>> expand_contraction("where'd", ["you", "park"]) is None  # "did" or "would"
        True
        >>> expand_contraction("it's", ["cold"]), expand_contraction("it's", ["gone"])
        (('it', 'is'), None)
        >>> expand_contraction("what's", ["the", "time"]) is None  # "is", "has" or "does"
        True
    """
    known = CONTRACTIONS.get(word)
    if known is not None:
        return known
    match = _CONTRACTION.match(word)
    if match is None:
        return None
    stem, suffix = match.groups()
    following = tuple(following)
    after = following[0] if following else None
    if suffix == "'t" and stem.endswith("n") and stem[:-1] in _NT_STEMS:
        return (stem[:-1], "not")
    if suffix == "'s":
        if after in _S_HAS_NEXT:
            return (stem, "has")
        if stem in _S_STEMS and not any(may_be_participle(w) for w in following):
            return (stem, "is")
        return None
    if suffix == "'d":
        if after in _D_WOULD_NEXT:
            return (stem, "would")
        if after in _D_HAD_NEXT:
            return (stem, "had")
        return None
    if suffix in _SUFFIXES and (suffix != "'m" or stem == "i"):
        return (stem, _SUFFIXES[suffix])
    return None


# -- polarity ----------------------------------------------------------------------------------

# Negators: never neutral, never absorbed by a task family. Includes apostrophe-less forms.
NEGATORS = word_set(
    """
    not no never none nobody nothing nowhere neither nor without cannot non nope nay
    hardly barely scarcely seldom rarely except excluding unless lacking lack lacks absent
    aint arent cant couldnt didnt doesnt dont hadnt hasnt havent isnt mustnt neednt shant
    shouldnt wasnt werent wont wouldnt
    """
)

# -- the neutral words -------------------------------------------------------------------------


def _phrase_words(*groups: tuple[tuple[str, ...], ...]) -> frozenset[str]:
    return frozenset(word for group in groups for phrase in group for word in phrase)


# Every word that is neutral in some position: please, kindly, the words of the greetings,
# thanks and openers. Outside those positions each of them is meaning ("a", "you", "to").
NEUTRAL_WORDS = _phrase_words(GREETINGS, THANKS, OPENERS, (WANT_OBJECT,)) | {"please", "kindly"}

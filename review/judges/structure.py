"""What two statements are about, read from their structure before any model is asked.

SPEC R-H7 and R-H8 are rules about the *slot* of a statement — its subject (a person, service,
customer, tier, environment, ticket…) and the attribute it states (where Priya lives, the deploy
day) — and about the evidence that a new value replaced an old one. A judge model, however good,
sees "The billing service deploys on Fridays" and "The search service deploys on Fridays" as
near-identical sentences; the difference that matters is one word in the subject. So the pair is
aligned word by word first:

* Each statement is split at its main predicate (the first verb or copula of the sentence that the
  two share most words with): the words before it name the subject and attribute, the words after
  it carry the value.
* The aligned difference then says what changed. A word replaced *before* the predicate means
  another subject or another attribute; a different main verb ("lives" / "works") means another
  attribute; differences only after the predicate mean the same slot with another value (or added
  detail); no content difference at all means the same value.
* Identifiers and numbers that name things ("OPS-1412", "db-billing-1", "v2") and capitalised
  names count wherever they stand when they are swapped in the subject.
* Update evidence is looked for only in the newer statement, and only where the older did not
  already say it: a cue ("now", "moved to", "no longer", "from X to Y", "as of <date>"…) or a loop
  outcome (a task done or dropped, an open question answered). Chatty phrases ("by the way",
  "just", "another") are not cues.

Pure Python, no Django, no model: microseconds per pair, so it runs on every candidate.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache

# -- vocabularies ---------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOPWORDS = _words(
    """a an the this that these those my our your his her their its me us them i we you he she they it
    of in on at to for with by from as into onto about over under per via and or but nor so if than
    then is are was were be been being am 's s do does did has have had will would shall should can
    could may might must also just really very quite still too again already even ever yet only
    every each some any all both either neither there here who whom whose which what when where why
    how up out down one's own else other others such same like"""
)
# Words that qualify a statement without naming its subject or value.
FILLER = _words(
    """by way btw anyway well oh ok okay so honestly basically apparently think guess believe pretty
    probably maybe perhaps usually normally generally typically mostly sometimes often always
    currently right today yesterday recently lately last week month year ago longer going forward"""
)
# Single-word update cues (SPEC R-H8). "now", "instead", "anymore", "previously" and friends say
# which value is current; the verbs say a value changed.
UPDATE_CUE_WORDS = _words(
    """now nowadays instead anymore longer previously formerly updated update changed change changes
    moved moves switched switch replaced replaces renamed migrated rescheduled postponed delayed
    pushed bumped upgraded downgraded raised lowered increased decreased reduced cut extended
    shortened corrected correction actually revised superseded overrides overridden henceforth
    effective starting became becomes transferred relocated reassigned swapped"""
)
UPDATE_CUE_PHRASES = (
    re.compile(r"\bas of\b"),
    re.compile(r"\bno longer\b"),
    re.compile(r"\bnot any ?more\b"),
    re.compile(r"\bused to\b"),
    re.compile(r"\bthese days\b"),
    re.compile(r"\bfrom now on\b"),
    re.compile(r"\bgoing forward\b"),
    re.compile(r"\bfrom\b[^.;!?]{1,60}?\bto\b"),
    re.compile(r"\bstarting (?:today|tomorrow|next|this|on|from|in|monday|tuesday|wednesday|thursday|friday|\d)"),
    re.compile(r"\b(?:has|have|'ve|had) (?:been )?(?:changed|moved|switched|updated|replaced)\b"),
    re.compile(r"\bnot\b[^.;!?]{1,40}\bbut\b"),
    re.compile(r"\b(?:took|taken|taking|takes) over\b"),
    re.compile(r"\bhand(?:ed|s|ing)? (?:over|off)\b"),
)
# A task done or dropped; an open question answered.
OUTCOME_WORDS = _words(
    """done finished completed complete shipped fixed resolved closed merged deployed released
    delivered paid sent submitted booked renewed cancelled canceled dropped abandoned scrapped
    answered decided settled chose chosen picked confirmed agreed approved rejected declined"""
)
OUTCOME_PHRASES = (
    re.compile(r"\bno longer needed\b"),
    re.compile(r"\bwon't (?:be )?(?:need|do|happen)"),
    re.compile(r"\bnot (?:needed|happening|going ahead)\b"),
    re.compile(r"\bthe answer is\b"),
    re.compile(r"\bwe(?:'re| are| will| 'll)? go(?:ing)? with\b"),
    re.compile(r"\bturns out\b"),
    re.compile(r"\btook care of\b"),
    re.compile(r"\b(?:checked|crossed|ticked) off\b"),
    re.compile(r"\boff the list\b"),
    re.compile(r"\ball done\b"),
    re.compile(r"\b(?:to answer|answer:|found out|figured out)"),
    re.compile(r"\bdropping\b"),
)
COPULAS = _words("is are was were be been am 're 'm has have had will would shall should can could must")
NEGATIONS = _words("not no never n't without cannot nothing none")
# Labels agents put before a statement ("Task: …", "Update: …"): no part of its subject.
LABELS = _words("task todo to-do question note update change correction reminder decision fyi reminder")
_PRONOUNS = _words("it that he she there what who here where how this")
# Common verbs (base forms); inflections are matched through ``stem``.
VERBS = _words(
    """accept add allow arrive ask assign attend become begin belong block book bring build buy call
    carry change charge check choose close collect come commute contain cost cover create cut
    deliver depend deploy design drink drive drop eat email end expire fall feel fetch file fill
    find finish fly follow get give go grow handle hate have hold host include keep know land last
    lead learn leave let like listen live load lock love maintain make manage mean meet migrate miss
    move need open order own pay plan play point prefer prepare produce provide publish push put
    rate reach read receive record release remain remember rent repeat replace report require reside
    respond retire return review ride slip shift rise jump double halve rotate run schedule see sell
    send serve set ship show sign sit
    sleep speak spend stand start stay stop store study support switch take talk teach tend test
    think track train travel treat trigger try turn use visit wait wake walk want watch wear work
    write"""
)
# Words that always qualify the subject, wherever they stand: "enabled in staging"
# and "enabled in production" are two flags' states, not one flag's old and new value.
SCOPE_MARKERS = _words(
    """staging production prod dev development qa sandbox preview canary demo uat preprod perf test
    free pro premium enterprise starter trial eu us uk apac emea latam ios android sister brother
    mother father mom mum dad wife husband son daughter aunt uncle cousin grandma grandpa
    grandmother grandfather niece nephew"""
)
_TOKEN = re.compile(r"[A-Za-z0-9$€£#]+(?:[.:/_@-][A-Za-z0-9]+)*(?:'[a-z]+)?|[;:!?.]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+|;\s+")
_HAS_DIGIT = re.compile(r"\d")
_HAS_ALPHA = re.compile(r"[a-z]")


# -- tokens ---------------------------------------------------------------------------------


_IRREGULAR = {
    "went": "go", "gone": "go", "goes": "go", "ran": "run", "got": "get", "gotten": "get", "took": "take",
    "taken": "take", "made": "make", "became": "become", "began": "begin", "begun": "begin", "kept": "keep",
    "left": "leave", "met": "meet", "paid": "pay", "sent": "send", "sold": "sell", "spent": "spend",
    "stood": "stand", "told": "tell", "thought": "think", "wrote": "write", "written": "write", "drove": "drive",
    "driven": "drive", "ate": "eat", "eaten": "eat", "flew": "fly", "flown": "fly", "fell": "fall", "found": "find",
    "gave": "give", "given": "give", "grew": "grow", "held": "hold", "knew": "know", "led": "lead", "lost": "lose",
    "rode": "ride", "saw": "see", "seen": "see", "sat": "sit", "slept": "sleep", "spoke": "speak", "taught": "teach",
    "wore": "wear", "woke": "wake", "bought": "buy", "brought": "bring", "built": "build", "chose": "choose",
    "chosen": "choose", "came": "come", "drank": "drink", "has": "have", "had": "have", "does": "do", "did": "do",
    "lives": "live", "uses": "use", "leaves": "leave", "moves": "move", "charges": "charge", "changes": "change",
}  # fmt: skip


def stem(word: str) -> str:
    """A light English stem: enough to equate "Fridays"/"Friday", "deploys"/"deploy"/"deployed"."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3 or _HAS_DIGIT.search(word):
        return word
    for suffix, replacement in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                return word
            if suffix == "es" and not word.endswith(("ches", "shes", "sses", "xes", "zes")):
                continue
            base = word[: len(word) - len(suffix)] + replacement
            if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]  # "planned" -> "plan", "running" -> "run"
            if suffix in ("ing", "ed") and base + "e" in VERBS:
                base += "e"  # "moved" -> "move", "lived" -> "live"
            return base
    return word


@dataclass(frozen=True)
class Token:
    text: str  # as written
    low: str  # lower case, possessive split off
    stem: str
    proper: bool  # a capitalised name (not merely the first word of a sentence)
    ident: bool  # an identifier or a number: OPS-1412, db-billing-1, v2, 10:00, 30s
    content: bool  # neither stopword, filler nor update cue


# Lead-ins that say who said it, when it took effect or that a note follows; none of them names
# the statement's subject, and left in they would stand where the subject is looked for.
_LEAD_INS = (
    re.compile(r"^(?:according to|per|via)\s+[^,]{1,40},\s*", re.IGNORECASE),
    re.compile(r"^(?:effective|as of|starting|beginning|from|since|after|following)\s+[^,]{1,40},\s*", re.IGNORECASE),
    re.compile(
        r"^(?:(?:[A-Z][\w.-]*)(?:\s+[A-Z][\w.-]*)?|I|we|they|he|she)\s+(?:says?|said|told (?:me|us)|mentioned|"
        r"confirmed|thinks?|believes?|reckons?|heard|noticed|realized|realised)(?:\s+that)?\s+(?=\w)"
    ),
    # Discourse markers that restate or flag a note, never its subject ("Reminder to self:",
    # "Still true:", "Just to confirm,", "In case I didn't say,", "Quick update -").
    re.compile(
        r"^(?:(?:reminder|note) to self|still true|(?:just )?to confirm|in case I didn't (?:say|mention)|"
        r"(?:like|as) I (?:said|mentioned)|one more thing|quick update|new info|change of plan|"
        r"please update that|I had that wrong before|(?:I'm )?pretty sure|I reckon|as far as I know|"
        r"if I remember right|again)\b\s*[,:!\-\u2014]*\s*",
        re.IGNORECASE,
    ),
    re.compile(
        r"^(?:I think|I believe|I heard|I guess|I just realized|I just realised|apparently|honestly|fyi|btw|"
        r"by the way|heads up|just so you know|for the record|note|reminder|rule|update|correction|change|ps|"
        r"ok|okay|so|well|also|actually|oh)\b[,:!\-\u2014]*\s*(?:that\s+)?",
        re.IGNORECASE,
    ),
)


_SUBORDINATE = re.compile(
    r"^(when|whenever|if|before|after|while|once|unless|because|although|as soon as)\b([^,]{1,80}),\s*(.+)$",
    re.IGNORECASE | re.DOTALL,
)


def strip_lead_ins(sentence: str) -> str:
    """The sentence without lead-ins, its main clause first ("When we get coffee, Liam has an
    espresso" is read "Liam has an espresso when we get coffee": Liam is the subject)."""
    for _ in range(4):
        before = sentence
        for pattern in _LEAD_INS:
            sentence = pattern.sub("", sentence, count=1)
        if sentence == before:
            break
    clause = _SUBORDINATE.match(sentence)
    if clause:
        sentence = f"{clause.group(3).rstrip('.!?')} {clause.group(1).lower()}{clause.group(2)}"
    return sentence


_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m\b\.?", re.IGNORECASE)
_ORDINAL = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_NUMBER_UNIT = re.compile(r"\b(\d+(?:[.,]\d+)?)([a-z%]{1,5})\b", re.IGNORECASE)


def _clock(match: re.Match[str]) -> str:
    hour = int(match.group(1)) % 12 + (12 if match.group(3).lower() == "p" else 0)
    return f"{hour:02d}:{match.group(2) or '00'}"


_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_KILO = re.compile(r"\b(\d+(?:\.\d+)?)k\b", re.IGNORECASE)


def _kilo(match: re.Match[str]) -> str:
    return str(round(float(match.group(1)) * 1000))


def normalise_values(sentence: str) -> str:
    """One spelling per value: "4 pm" and "4pm" are "16:00", "12th" is "12", "16GB" is "16 GB",
    "$120k" and "$120,000" are "$120000"."""
    sentence = _CLOCK.sub(_clock, sentence)
    sentence = _ORDINAL.sub(r"\1", sentence)
    sentence = _THOUSANDS.sub("", sentence)
    sentence = _KILO.sub(_kilo, sentence)
    return _NUMBER_UNIT.sub(r"\1 \2", sentence)


SCOPE_STEMS = frozenset(stem(w) for w in SCOPE_MARKERS)
# Nouns that name what kind of thing the subject is, not which one: "the billing service" is
# "billing", "order PO-12499" is "PO-12499", "the Granite project" is "Granite".
GENERIC_HEADS = frozenset(
    stem(w)
    for w in _words(
        """service project box host server machine instance app application system repo
        repository account order ticket incident issue flag feature company customer client product
        initiative deployment codebase environment env cluster database db"""
    )
)
# Nouns a bare number after which is an identifier: "order 88213", "room 4", "flight 220".
ID_NOUNS = frozenset(
    stem(w)
    for w in _words(
        """order ticket invoice incident flight room gate case issue pr build job table seat
        platform bus line route unit apartment suite booking reservation policy account"""
    )
)
# Verbs that only carry a change ("went from X to Y", "became"): no attribute of their own.
_CHANGE_VERBS = frozenset({"go", "become", "get", "set"})


def _tokens(sentence: str) -> list[Token]:
    return list(_tokens_of(sentence))


@lru_cache(maxsize=65536)
def _tokens_of(sentence: str) -> tuple[Token, ...]:
    """A sentence's tokens; cached, since one statement meets dozens of neighbours."""
    out: list[Token] = []
    raw: list[str] = []
    for piece in _TOKEN.findall(normalise_values(strip_lead_ins(sentence.strip())).replace("\u2019", "'")):
        # "password-reset" is "password reset"; "db-billing-1" and "OPS-1412" stay identifiers.
        if "-" in piece and not _HAS_DIGIT.search(piece):
            raw.extend(part for part in piece.split("-") if part)
        else:
            raw.append(piece)
    first_word = True
    for index, piece in enumerate(raw):
        if piece in ";:!?.":
            first_word = True
            continue
        word, _, clitic = piece.partition("'")
        low = word.lower()
        # "May 9", "9 May": the month, not the modal verb (a stopword).
        month = word == "May" and any(0 <= j < len(raw) and raw[j].isdigit() for j in (index - 1, index + 1))
        ident = bool(_HAS_DIGIT.search(low)) or low.startswith(("#", "$", "€", "£"))
        # The first word of a sentence is capitalised anyway: a name there only when possessive.
        proper = word[:1].isupper() and (not first_word or clitic == "s") and low not in STOPWORDS
        stemmed = stem(low)
        content = month or (
            bool(low)
            and not (low in STOPWORDS or low in FILLER or low in UPDATE_CUE_WORDS or low in NEGATIONS or low in LABELS)
        )
        if ident and low.isdigit() and out and out[-1].stem in ID_NOUNS:
            low = stemmed = "#" + low  # "order 88213": an identifier, not an amount
        out.append(Token(piece, low, stemmed, proper, ident, content))
        if clitic == "s" and low in _PRONOUNS:
            out.append(Token("'s", "is", "is", False, False, False))  # "it's": a copula
        elif clitic == "s":
            out.append(Token("'s", "'s", "'s", False, False, False))  # a possessive
        elif clitic:
            out.append(Token("'" + clitic, "'" + clitic, "'" + clitic, False, False, False))
        first_word = False
    return tuple(out)


# A list item's number or letter alone ("2.", "b)"): the start of the sentence after it.
_LIST_MARKER = re.compile(r"^\(?(?:\d{1,3}|[a-zA-Z])[.)]$")
_ABBREVIATION = re.compile(r"\b(?:dr|mr|mrs|ms|st|prof|jr|sr|vs|etc|e\.g|i\.e|approx|no)\.$", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    return list(_sentences_of(text))


@lru_cache(maxsize=65536)
def _sentences_of(text: str) -> tuple[str, ...]:
    parts: list[str] = []
    for piece in _SENTENCE.split(text):
        part = piece.strip() if piece else ""
        if not part:
            continue
        if parts and (_ABBREVIATION.search(parts[-1]) or _LIST_MARKER.match(parts[-1])):
            parts[-1] = f"{parts[-1]} {part}"  # "Dr. Okafor" is one sentence, and so is "2. Define …"
        else:
            parts.append(part)
    return tuple(parts) or (text,)


def _content_stems(tokens: list[Token]) -> set[str]:
    return {t.stem for t in tokens if t.content}


@lru_cache(maxsize=65536)
def _cues(text: str) -> tuple[frozenset[str], frozenset[int]]:
    """The cue words of a text and which cue phrases it holds (cached per text)."""
    low = text.lower().replace("\u2019", "'")
    words = frozenset(re.findall(r"[a-z']+", low)) & UPDATE_CUE_WORDS
    return words, frozenset(i for i, p in enumerate(UPDATE_CUE_PHRASES) if p.search(low))


_FROM_TO_PHRASE = next(i for i, p in enumerate(UPDATE_CUE_PHRASES) if p.pattern.startswith(r"\bfrom\b"))


def has_update_cue(newer: str, older: str) -> bool:
    """An update cue in ``newer`` that ``older`` does not already carry (SPEC R-H8)."""
    new_words, new_phrases = _cues(newer)
    old_words, old_phrases = _cues(older)
    phrases = new_phrases - old_phrases
    if phrases == {_FROM_TO_PHRASE} and not new_words - old_words and _restates_range(newer, older):
        return False  # "from Fri 18:00 to Mon 08:00", a span the older states too: no change
    return bool(new_words - old_words) or bool(phrases)


def _restates_range(newer: str, older: str) -> bool:
    """Both ends of the newer's "from X to Y" are in the older: it restates a span."""
    match = _FROM_TO_TEXT.search(newer)
    if match is None:
        return False
    ends = _content_stems(_tokens(match.group(1))) | _content_stems(_tokens(match.group(2)))
    return bool(ends) and ends <= _content_stems(_tokens(older))


_FROM_TO_TEXT = re.compile(r"\bfrom\b([^.;!?]{1,60}?)\bto\b([^.;!?,]{1,40})", re.IGNORECASE)


# Cues that name the old value beside the new one ("from 12 May to 27 September", "now 50, not
# 500"): the newer statement then holds both values, and still replaces one with the other.
CONTRAST_PHRASES = (
    re.compile(r"\bfrom\b[^.;!?]{1,60}?\bto\b"),
    re.compile(r"\b(?:not|rather than|instead of|no longer|replacing|replaced|used to|previously|formerly)\b"),
)


_FROM_TO = re.compile(r"\bfrom\b([^.;!?]{1,60}?)\bto\b", re.IGNORECASE)


def _changed_from(sentence: str) -> set[str]:
    """The content words of X in "from X to Y"."""
    match = _FROM_TO.search(sentence)
    if not match:
        return set()
    return _content_stems(_tokens(match.group(1)))


def has_contrast(newer: str, older: str) -> bool:
    new_low, old_low = newer.lower(), older.lower()
    return any(p.search(new_low) and not p.search(old_low) for p in CONTRAST_PHRASES)


def has_outcome(newer: str, older: str) -> bool:
    new_low, old_low = newer.lower(), older.lower()
    new_words = set(re.findall(r"[a-z']+", new_low))
    old_words = set(re.findall(r"[a-z']+", old_low))
    if (new_words & OUTCOME_WORDS) - old_words:
        return True
    # The task's own verb, now in the past: "schedule the QBR" / "scheduled the QBR".
    task_verbs = {stem(w) for w in old_words if stem(w) in VERBS}
    done = {stem(w) for w in new_words - old_words if w.endswith("ed") or w in _IRREGULAR}
    if task_verbs & done:
        return True
    return any(p.search(new_low) and not p.search(old_low) for p in OUTCOME_PHRASES)


_STILL_OPEN = re.compile(
    r"\?|\b(?:still|not sure|unsure|don't know|do not know|no idea|wonder|wondering|find out|figure out|"
    r"need to|needs to|have to|haven't|have not|hasn't|yet|tbd|unknown|undecided|to be decided|ask|asking|"
    r"question|remind)\b",
    re.IGNORECASE,
)


def states_an_answer(question: str, statement: str) -> bool:
    """A plain statement after an open question, saying something the question did not ("Which
    hotel is Sana staying at?" / "Sana is staying at the Almada Inn."): the question is answered
    (R-H8's loop outcome). One that is still asking, unsure or restating is no answer, and so is
    any statement beside a sentence of the older that asks nothing."""
    if "?" not in question or _STILL_OPEN.search(statement):
        return False
    asked_tokens, said_tokens = _tokens(question), _tokens(statement)
    names = _names(asked_tokens) | _names(said_tokens)
    asked, said = _content_stems(asked_tokens), _content_stems(said_tokens)
    # It speaks to what was asked, not only of the same thing: at least half the question's words
    # besides names and generic nouns ("the root cause of ticket OPS-4502?" / "OPS-4502 is
    # assigned to Ana"; "an annual discount on the Starter tier?" / "the Starter tier costs $19").
    topic = {w for w in asked if w not in names and w not in GENERIC_HEADS}
    return bool(said - asked) and 2 * len(topic & said) >= len(topic) > 0


# -- the analysis ---------------------------------------------------------------------------

SAME = "same"
DIFFERENT = "different"
UNCERTAIN = "uncertain"
UNRELATED = "unrelated"
NEGATED = "negated"
LOOP_KINDS = frozenset({"task", "open-question"})


@dataclass(frozen=True)
class Structure:
    """How an older and a newer statement line up."""

    subject: str  # same | different | uncertain | unrelated
    attribute: str  # same | different | uncertain
    value: str  # same | changed | added | removed | uncertain
    update_cue: bool  # the newer says it is an update (R-H8)
    loop_outcome: bool  # the older is an open loop and the newer closes it
    negation_flip: bool
    overlap: float  # shared content words / content words of the shorter statement
    best_overlap: float  # of the sentences that state the fact: shared words / words of the longer
    subject_changes: int  # content words replaced before the predicate
    subject_insertions: int  # content words added or dropped before the predicate
    value_changes: int  # content words replaced after the predicate
    value_insertions: int
    names_changed: int  # names, identifiers and numbers that differ
    extra_words: int  # content words of either whole statement missing from the other
    loop_older: bool  # the older statement is an open loop (a task or an open question)
    swapped_names: bool  # a name, identifier or scope word of each is missing from the other
    detail: str  # the words that made the call, for rationales
    # Why the pair, however plain it looks, must not be settled without a person ("" if nothing).
    doubt: str = ""
    # The newer names the older's value as the one it replaces ("changed from 14 days to 30
    # days", "it used to be Bruno"), about the older's own subject: one slot however reworded.
    anchored: bool = False
    # Both fact sentences state something: neither asks a question nor makes a request. A chat
    # turn's question ("How do I stop the mirror steaming up?") holds no value of any slot, and
    # two requests that open alike ("I'm trying to declutter my apartment and was wondering if…")
    # are two requests, however their words line up.
    stated: bool = True
    # How many sentences the longer statement has: in a long, many-topic message the sentence
    # pair that shares most words is a guess at the fact, not evidence of it.
    sentences: int = 1
    # A word that changed between the fact sentences is a typed value — a number, a date, a
    # time, a version, an identifier or a name — rather than a common word.
    typed_change: bool = False
    # Content words of the shorter fact sentence: a fragment ("2 = Not very effective") names no
    # subject to dispute.
    fact_words: int = 0
    # Both fact sentences name a subject before their predicate. "Sent Tomas the photos" and
    # "Wrote the FAQ entry for the Team tier today" report events, each true on its own: no
    # slot holds them, so two of them never dispute one.
    subjects_named: bool = True
    # The newer statement is an open loop too (a task or an open question).
    loop_newer: bool = False

    @property
    def same_slot(self) -> bool:
        """Plainly one slot: the same subject and attribute, and fact sentences that mostly agree
        (one whose words are half new is as likely another fact as a new value of the same one)."""
        return self.subject == SAME and self.attribute == SAME and (self.best_overlap >= 0.5 or self.anchored)

    @property
    def plausible_slot(self) -> bool:
        """Possibly one slot reworded: nothing shows another subject or attribute, nothing casts
        doubt, no name is swapped for another — but the words do not line up plainly."""
        return (
            self.subject in (SAME, UNCERTAIN)
            and self.attribute in (SAME, UNCERTAIN)
            and not self.swapped_names
            and not self.doubt
        )

    @property
    def distinguishable(self) -> bool:
        """Two facts that can both hold by their structure alone (R-H7): never retire or queue."""
        return self.subject in (DIFFERENT, UNRELATED) or self.attribute == DIFFERENT

    @property
    def restated(self) -> bool:
        """The two say the same thing, nearly word for word: at most one content word of either
        whole statement is missing from the other, and the fact's value did not change."""
        return self.value == SAME and self.extra_words <= 1

    @property
    def evidence(self) -> bool:
        """What R-H8 asks of an automatic supersede: for an open loop, its outcome (a task done
        or dropped, a question answered); for a fact, an update cue."""
        return self.loop_outcome if self.loop_older else self.update_cue or self.loop_outcome


_DETERMINERS = _words("the a an my our your his her their its 's this that")
_PREPOSITIONS = _words("for of in on at with by from about into onto over under per via")
_MODALS = _words("will would shall should can could must")
_AUXILIARY_FILLERS = _words("being been be not now also still currently already just no longer")


def _participle_after(tokens: list[Token], copula: int) -> int:
    """``copula``, or the participle it carries ("is shipped", "was marked", "has been moved"):
    that verb, not the auxiliary, names the attribute."""
    for j in range(copula + 1, min(len(tokens), copula + 4)):
        token = tokens[j]
        if token.low in _AUXILIARY_FILLERS or token.low in COPULAS:
            continue
        # "has been changed to": a change verb is no content word, but it is the predicate.
        changed = token.content or token.low in UPDATE_CUE_WORDS
        participle = (token.low.endswith("ed") and changed) or (token.low in _IRREGULAR and token.stem in VERBS)
        modal_verb = tokens[copula].low in _MODALS and token.stem in VERBS
        return j if participle or modal_verb else copula
    return copula


# analyse's ``result``: (subject, attribute, value, detail, counts) -> Structure
ResultFn = Callable[[str, str, str, str, tuple[int, int, int, int]], Structure]


def _predicate_index(tokens: list[Token]) -> int | None:
    """Where the main predicate stands: the first verb not used as a noun, else the first copula."""
    copula_follows = [False] * len(tokens)
    seen = False
    for i in range(len(tokens) - 1, -1, -1):
        copula_follows[i] = seen
        seen = seen or tokens[i].low in COPULAS
    # A finite verb later on ("started", "changes"): a bare verb form before it is likely a noun.
    finite_follows = [False] * len(tokens)
    seen = False
    for i in range(len(tokens) - 1, -1, -1):
        finite_follows[i] = seen
        word = tokens[i]
        seen = seen or (word.stem in VERBS and word.low != word.stem and word.low.endswith(("ed", "s")))
    for i, token in enumerate(tokens):
        if token.low in COPULAS:
            return _participle_after(tokens, i)
        if token.proper or token.ident:
            continue
        if token.stem in VERBS or (token.low in UPDATE_CUE_WORDS and token.low.endswith("ed")):
            before = tokens[i - 1] if i else None
            if before is not None and before.low in _DETERMINERS | _PREPOSITIONS:
                continue  # "the plan", "our move", "for order 88213": a noun here
            if before is not None and before.content and not before.proper and copula_follows[i]:
                continue  # "the tech lead … is", "the release plan … is": a compound noun
            if (
                before is not None
                and before.content
                and not before.proper
                and token.low == token.stem
                and finite_follows[i]
            ):
                continue  # "the podcast about urban design started …": a noun before the real verb
            if i == 0 and token.low == token.stem and len(tokens) > 1:
                continue  # an imperative ("Book the vet") states a task, not a subject
            return i
    return None


def _mentions(tokens: list[Token], names: set[str]) -> set[str]:
    return {t.stem for t in tokens if t.content and t.stem in names}


def _names(tokens: list[Token]) -> set[str]:
    """Stems written as a name or an identifier anywhere in the pair (so "Dentist" opening a
    sentence is no name, and "Biscuit" is one however it is written)."""
    return {t.stem for t in tokens if t.content and (t.proper or t.ident)}


def _best_sentences(older: str, newer: str) -> FactSentences:
    """The sentence pair that most likely states the same fact: most words in common, names,
    identifiers and numbers counting double. A sentence both statements repeat word for word is
    taken only when no other pair shares anything: in a long message it is boilerplate ("Thanks
    for reading") at least as often as the fact. Returns the pair and its overlap (shared words
    over the words of the longer sentence)."""
    older_sentences = _sentence_profiles(older)
    newer_sentences = _sentence_profiles(newer)
    several = len(older_sentences) > 1 and len(newer_sentences) > 1
    best: tuple[tuple[int, int, float, int], FactSentences] | None = None
    for a, plain_a, raw_a, ca, weighted_a in older_sentences:
        for b, plain_b, raw_b, cb, _ in newer_sentences:
            shared = ca & cb
            weight = len(shared) + len(shared & weighted_a)
            ratio = len(shared) / max(1, len(ca | cb))
            boilerplate = several and plain_a == plain_b
            key = (int(weight > 0), int(not boilerplate), ratio * weight, weight)
            if best is None or key > best[0]:
                overlap = len(shared) / max(1, len(ca), len(cb))
                best = (key, FactSentences(list(a), list(b), raw_a, raw_b, overlap, boilerplate))
    if best is None:  # both texts have a sentence, so the loops ran; an empty text has none
        raise ValueError("no sentence to compare")
    return best[1]


def fact_sentences(older: str, newer: str) -> tuple[str, str]:
    """The sentence of each statement that states the fact they share (their whole text when short)."""
    fact = _best_sentences(older, newer)
    return fact.older_text, fact.newer_text


@dataclass(frozen=True)
class FactSentences:
    """The sentence of each statement that states the fact they share."""

    older: list[Token]
    newer: list[Token]
    older_text: str
    newer_text: str
    overlap: float  # shared content words / content words of the longer sentence
    boilerplate: bool  # a sentence both long statements repeat word for word, and nothing else


SentenceProfile = tuple[tuple[Token, ...], str, str, frozenset[str], frozenset[str]]


@lru_cache(maxsize=65536)
def _sentence_profiles(text: str) -> tuple[SentenceProfile, ...]:
    """Per sentence: tokens, plain text, raw text, content stems, stems of names and ids (cached:
    a statement meets dozens of neighbours)."""
    out = []
    for sentence in sentences(text):
        tokens = _tokens_of(sentence)
        content = frozenset(t.stem for t in tokens if t.content)
        named = frozenset(t.stem for t in tokens if t.content and (t.ident or t.proper))
        out.append((tokens, _plain(sentence), sentence, content, named))
    return tuple(out)


def _plain(sentence: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", sentence.lower()))


def _negated(tokens: list[Token]) -> bool:
    return any(t.low in NEGATIONS or t.low.endswith("n't") for t in tokens)


@lru_cache(maxsize=65536)
def analyse(older: str, newer: str, kind_older: str = "fact", kind_newer: str = "fact") -> Structure:
    """How ``newer`` relates to ``older`` structurally (see the module docstring)."""
    fact = _best_sentences(older, newer)
    structure = _analyse(older, newer, kind_older, kind_newer, fact)
    stated = kind_older in LOOP_KINDS or (states_something(fact.older_text) and states_something(fact.newer_text))
    _, _, removed, added = _diff_words(_strip_cues(fact.older), _strip_cues(fact.newer), bag=True)
    names = _names(fact.older) | _names(fact.newer)
    typed = any(word in NUMBER_WORDS or value_type(word, names) != "word" for word in [*removed, *added])
    return replace(
        structure,
        stated=stated,
        sentences=max(len(_sentence_profiles(older)), len(_sentence_profiles(newer))),
        typed_change=typed,
        fact_words=min(len(_content_stems(fact.older)), len(_content_stems(fact.newer))),
        subjects_named=_names_a_subject(fact.older) and _names_a_subject(fact.newer),
        loop_newer=kind_newer in LOOP_KINDS,
    )


def _names_a_subject(tokens: list[Token]) -> bool:
    """Whether the sentence does not open with its main predicate (a pronoun counts: "I've
    added 17 postcards" is about the writer)."""
    predicate = _predicate_index(tokens)
    if predicate is None:
        return True  # no predicate found: nothing says the sentence lacks a subject
    # "Done: got the camper washed" opens with a label, not a subject.
    return any(token.low not in LABELS and token.low not in _REPORT_LABELS for token in tokens[:predicate])


_REPORT_LABELS = _words("done completed finished dropped cancelled")


NUMBER_WORDS = _words(
    """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
    sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
    thousand million dozen half once twice first second third fourth fifth"""
)


# A sentence that asks rather than states: a question however it is punctuated, or a request.
_ASKS = re.compile(
    r"^(?:what|what's|whats|how|why|when|where|which|who|whom|whose|is|are|am|was|were|do|does|did|"
    r"can|could|would|should|will|shall|may|might|must|have|has|had|isn't|aren't|don't|doesn't|"
    r"didn't|can't|won't|wouldn't|shouldn't|any|anyone|anybody|please|help|tell|give|suggest|"
    r"recommend|explain|list|show|write|draft|let's|lets)\b"
    r"|\b(?:can|could|would|will) (?:you|u|anyone|somebody|someone)\b"
    r"|\b(?:wondering|wonder) (?:if|whether|what|how|why|when|where|which|who)\b"
    r"|\b(?:help me|let me know|any (?:tips|advice|ideas|suggestions|recommendations|thoughts)|"
    r"i need (?:some )?(?:help|advice|ideas|tips|suggestions)|i'd love (?:some )?(?:help|advice|ideas|tips)|"
    r"i'm looking for (?:some )?(?:help|advice|ideas|tips|suggestions|recommendations)|"
    r"do you (?:know|think|have)|is there (?:a|an|any)|are there (?:any)?)\b"
    # A want stated as a fact: "I'm looking for some new BBQ sauce recipes", "I'm trying to come up
    # with content ideas", "I need some recommendations" ask for something, they hold no value.
    r"|\b(?:i'm|i am|im|we're|we are|i've been|we've been) (?:\w+ )?(?:looking|searching|hunting|shopping) "
    r"(?:for|to|around)\b"
    r"|\b(?:trying|struggling|hoping|wanting) to (?:find|figure|come up|decide|choose|pick|think of|understand|"
    r"learn more|get (?:some|a few|more) (?:ideas|tips|advice|recommendations))\b"
    r"|\b(?:need|want|would like|'d like|could use|love) (?:some |a few |more )?(?:new )?"
    r"(?:recommendations|ideas|suggestions|tips|advice|inspiration|help)\b",
    re.IGNORECASE,
)


def states_something(sentence: str) -> bool:
    """Whether ``sentence`` states something rather than asking or requesting it."""
    text = strip_lead_ins(sentence.strip()).replace("\u2019", "'").strip(" \"'()[]")
    if text.endswith("?"):
        return False
    return not _ASKS.search(text)


def _analyse(  # noqa: PLR0911 - one return per ruling, in the order they apply
    older: str, newer: str, kind_older: str, kind_newer: str, fact: FactSentences
) -> Structure:
    a, b, best_overlap = fact.older, fact.newer, fact.overlap
    all_a = [t for s in sentences(older) for t in _tokens(s)]
    all_b = [t for s in sentences(newer) for t in _tokens(s)]
    content_a, content_b = _content_stems(all_a), _content_stems(all_b)
    shared = content_a & content_b
    overlap = len(shared) / max(1, min(len(content_a), len(content_b)))
    # Evidence is read in the sentence that states the fact: a long message's other sentences
    # ("there is a longer thread about it") say nothing about which value is current.
    update_cue = has_update_cue(_with_anaphoric_clause(newer, fact.newer_text), fact.older_text)
    loop_outcome = kind_older in LOOP_KINDS and has_outcome(fact.newer_text, fact.older_text)
    if kind_older == "open-question" and kind_newer != "open-question" and not loop_outcome:
        loop_outcome = states_an_answer(fact.older_text, fact.newer_text)
    extra_words = len(content_a ^ content_b)
    negation_flip = _negated(a) != _negated(b)
    names = _names(all_a) | _names(all_b)
    names_changed = len(_mentions(all_a, names) ^ _mentions(all_b, names))

    # What the fact sentences share and swap, position aside (for reworded statements).
    _, _, removed, added = _diff_words(_strip_cues(a), _strip_cues(b), bag=True)
    removed_names = {w for w in removed if w in names and value_type(w, names) in ("name", "ident")}
    added_names = {w for w in added if w in names and value_type(w, names) in ("name", "ident")}
    modifiers_a, modifiers_b = _entity_modifiers(a), _entity_modifiers(b)
    swapped_names = (
        bool(removed_names and added_names)
        or bool({w for w in [*removed, *added] if w in SCOPE_STEMS})
        # "the billing service" / "the export service", wherever each stands
        or bool(modifiers_a and modifiers_b and modifiers_a.isdisjoint(modifiers_b))
    )

    def result(subject: str, attribute: str, value: str, detail: str, counts: tuple[int, int, int, int]) -> Structure:
        return Structure(
            subject=subject,
            attribute=attribute,
            value=value,
            update_cue=update_cue,
            loop_outcome=loop_outcome,
            negation_flip=negation_flip,
            overlap=round(overlap, 4),
            best_overlap=round(best_overlap, 4),
            subject_changes=counts[0],
            subject_insertions=counts[1],
            value_changes=counts[2],
            value_insertions=counts[3],
            names_changed=names_changed,
            extra_words=extra_words,
            loop_older=kind_older in LOOP_KINDS,
            swapped_names=swapped_names,
            detail=detail,
        )

    best_shared = _content_stems(a) & _content_stems(b)
    # Unrelated: no sentence of one shares a word with a sentence of the other, or only one
    # common word (no name) between statements that otherwise differ throughout.
    if not best_shared or (len(best_shared) == 1 and not best_shared & names and overlap < 0.2):
        return result(UNRELATED, UNCERTAIN, UNCERTAIN, "no words in common", (0, 0, 0, 0))
    if fact.boilerplate:
        return result(UNRELATED, UNCERTAIN, UNCERTAIN, "only a sentence both repeat word for word", (0, 0, 0, 0))
    if kind_older not in LOOP_KINDS:
        anchor = _old_value_named(a, fact.older_text, newer, names)
        if anchor:
            # The cue was read in the sentence that names the old value.
            return replace(result(SAME, SAME, "changed", anchor, (0, 0, 1, 0)), anchored=True, update_cue=True)
    changed_from = _changed_from(fact.newer_text)
    if changed_from and not changed_from <= _content_stems(a) and kind_older not in LOOP_KINDS:
        # "went from returned to out for delivery" after "goes to the office": the value it
        # changes from is not the older's, so it changes another attribute.
        detail = f"changes {sorted(changed_from)}, which the older does not state"
        return result(SAME if best_overlap >= 0.5 else UNCERTAIN, DIFFERENT, UNCERTAIN, detail, (0, 0, 0, 0))
    possessors = _possessors_differ(a, b)
    if possessors:
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, f"subject differs: {possessors}", (1, 0, 0, 0))
    if kind_older in LOOP_KINDS:
        loop = _loop(a, b, names, result, question=kind_older == "open-question")
        if kind_older == "open-question":
            unsettled = _question_noun_unanswered(a, b, names)
        else:
            unsettled = _task_not_named(a, b, names)
        return replace(loop, doubt=unsettled) if unsettled else loop
    structure = _aligned(a, b, names, result)
    if negation_flip and structure.value == SAME:
        # "We use Redis" / "We do not use Redis": the same words, one of them denied.
        structure = replace(structure, value=NEGATED, detail="one denies what the other states")
    doubt = _scope_asymmetry(a, b) or _kept_anchor(a, b, names)
    return replace(structure, doubt=doubt) if doubt else structure


# The old value named as the one replaced: "from X to Y", "it used to be X", "no longer X",
# "Y, not X", "instead of X", "rather than X", "replacing X", "previously X", "formerly X".
_OLD_VALUE = (
    re.compile(r"\bfrom\s+(?P<old>(?:[^.;!?]|\.(?=\d)){1,60}?)\s+to\b", re.IGNORECASE),
    re.compile(
        r"\b(?:used to be|was previously|previously|formerly|instead of|rather than|replacing)\s+"
        r"(?P<old>(?:[^.;,!?()]|\.(?=\d)){1,60})",
        re.IGNORECASE,
    ),
    re.compile(r"\bno longer\s+(?:is\s+|are\s+|be\s+)?(?P<old>(?:[^.;,!?()]|\.(?=\d)){1,60})", re.IGNORECASE),
    re.compile(r",\s*not\s+(?P<old>(?:[^.;,!?()]|\.(?=\d)){1,60})", re.IGNORECASE),
)
_OLD_VALUE_END = re.compile(r"\s+(?:and|but|it|it's|which|so|now|anymore|any more|instead)\b.*$", re.IGNORECASE)
_OLD_VALUE_ANY = re.compile(
    r"\b(?:from|used to be|previously|formerly|instead of|rather than|replacing|no longer)\b|,\s*not\b", re.IGNORECASE
)
_ANAPHORA = _words("it that this they he she")
_ABBREVIATED = re.compile(r"\b(Dr|Mr|Mrs|Ms|St|Prof|Jr|Sr)\.", re.IGNORECASE)


def _with_anaphoric_clause(text: str, sentence: str) -> str:
    """``sentence`` with the clause after it when that clause speaks of it ("The checkout service
    is written in Rust; it used to be TypeScript"): one statement, split at the semicolon."""
    parts = sentences(text)
    if sentence not in parts:
        return sentence
    index = parts.index(sentence)
    if index + 1 < len(parts) and parts[index + 1].split(" ", 1)[0].lower() in _ANAPHORA:
        return f"{sentence} {parts[index + 1]}"
    return sentence


def _old_value_named(a: list[Token], older_text: str, newer: str, names: set[str]) -> str:
    """The newer statement replaces the older's value by name, about the older's own subject:
    a sentence of the newer names an old value that the older's fact sentence states ("keeps its
    logs for 14 days" / "log retention changed from 14 days to 30 days"; "Ana" / "it used to be
    Ana"), every other name, identifier, number or scope word of the older stands in it, it adds no
    scope word of its own, and it states a new value. Reworded attributes aside, that is one slot
    (R-H8's evidence, with the old value to prove which slot). Returns the detail, or ""."""
    # The old value is not the older's predicate ("is being shipped to the office" states a
    # destination, not a status of "shipped").
    predicate = _predicate_index(a)
    value_a = _content_stems(a) - ({a[predicate].stem} if predicate is not None else set())
    if not _OLD_VALUE_ANY.search(newer):
        return ""  # most pairs: nothing names an old value
    newer_sentences = sentences(newer)
    for index, sentence in enumerate(newer_sentences):
        plain = _ABBREVIATED.sub(r"\1", sentence)
        for pattern in _OLD_VALUE:
            match = pattern.search(plain)
            if match is None:
                continue
            old = _content_stems(_tokens(_OLD_VALUE_END.sub("", match.group("old"))))
            if not old or not old <= value_a:
                continue
            tokens, said = _tokens(sentence), sentence
            # "; it used to be Ana" after "Gina is on call for the ingest service": the clause
            # before states the new value.
            if index and tokens and tokens[0].low in _ANAPHORA:
                said = f"{newer_sentences[index - 1]} {sentence}"
                tokens = _tokens(newer_sentences[index - 1]) + tokens
            if not has_update_cue(said, older_text):
                continue
            detail = _anchored_slot(a, tokens, old, names)
            if detail:
                return detail
    return ""


def _anchored_slot(a: list[Token], b: list[Token], old: set[str], names: set[str]) -> str:
    stems_a, stems_b = _content_stems(a), _content_stems(b)
    rest = stems_a - old
    kept, missing, added = rest & stems_b, rest - stems_b, stems_b - stems_a
    # Capitalised anywhere, a sentence's first word too: here a name is not given the benefit of
    # the doubt ("Ravi prefers email" / "Arjun's preferred channel is no longer email").
    capitalised_a, capitalised_b = _capitalised(a), _capitalised(b)

    def specific(word: str, capitalised: set[str]) -> bool:
        return word in names or word in capitalised or value_type(word, names) != "word" or word in SCOPE_STEMS

    if any(specific(w, capitalised_a) for w in missing) or len(missing) > 1:
        return ""  # a name, a number or a scope of the older's subject is not in the newer
    named_anchor = any(specific(w, capitalised_a) for w in kept)
    if not named_anchor and (len(kept - GENERIC_HEADS) < 2 or added & capitalised_b):
        return ""  # too little of the older's subject kept to know it is the same one
    if not added or added & SCOPE_STEMS or _possessors_differ(a, b) or _entity_modifiers(b) - stems_a - old:
        return ""  # no new value, or a narrower or another subject
    return f"replaces {sorted(old)} by name with {sorted(added)}"


def _capitalised(tokens: list[Token]) -> set[str]:
    return {t.stem for t in tokens if t.content and t.text[:1].isupper() and t.low != "i"}


def _loop(a: list[Token], b: list[Token], names: set[str], result: ResultFn, *, question: bool) -> Structure:
    """A task or question and what came after: the same loop when the newer covers its words and
    names no other thing (a task for Biscuit is not done by booking the vet for Miso). An answer
    restates less of its question than a report restates its task."""
    stems_a = _content_stems(a)
    stems_b = _content_stems(b)
    mentions_a, mentions_b = _mentions(a, names), _mentions(b, names)
    # Dates and amounts may change as a loop closes ("by 27 February" / "moved to 10 March"); a
    # name or an identifier that changes means another loop.
    mentions_a = {m for m in mentions_a if value_type(m, names) in ("name", "ident")}
    mentions_b = {m for m in mentions_b if value_type(m, names) in ("name", "ident")}
    if mentions_a - mentions_b and mentions_b - mentions_a:
        detail = f"names differ: {sorted(mentions_a - mentions_b)} vs {sorted(mentions_b - mentions_a)}"
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, detail, (1, 0, 0, 0))
    swapped = _interior_swaps(a, b)
    if swapped:
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, f"another loop: {swapped}", (1, 0, 0, 0))
    covered = len(stems_a & stems_b) / max(1, len(stems_a))
    same, doubtful = (0.5, 0.25) if question else (0.6, 0.34)
    if covered >= same and not mentions_a - mentions_b:
        return result(SAME, SAME, "changed", f"covers {covered:.0%} of the loop's words", (0, 0, 0, 0))
    if covered >= doubtful:
        return result(UNCERTAIN, UNCERTAIN, UNCERTAIN, f"covers {covered:.0%} of the loop's words", (0, 0, 0, 0))
    return result(UNRELATED, UNCERTAIN, UNCERTAIN, f"covers {covered:.0%} of the loop's words", (0, 0, 0, 0))


def _interior_swaps(a: list[Token], b: list[Token]) -> str:
    """Words replaced between two stretches the statements share ("rotate the certificate on the
    auth gateway" / "rotated the certificate on the billing gateway"), or the thing a loop ends on
    replaced outright ("renew the insurance of the cargo bike" / "… of the old Volvo"): another
    thing named inside the loop. Words only added or dropped at either end are qualifiers."""
    done = OUTCOME_WORDS | {"need", "remember", "todo"}
    kept_a = [i for i, t in enumerate(a) if t.content and t.low not in done]
    kept_b = [i for i, t in enumerate(b) if t.content and t.low not in done]
    sa = [a[i].stem for i in kept_a]
    sb = [b[i].stem for i in kept_b]
    opcodes = SequenceMatcher(a=sa, b=sb, autojunk=False).get_opcodes()
    for index, (op, i1, i2, j1, j2) in enumerate(opcodes):
        interior = 0 < index < len(opcodes) - 1 and opcodes[index - 1][0] == opcodes[index + 1][0] == "equal"
        last = index == len(opcodes) - 1 and index > 0 and opcodes[index - 1][0] == "equal"
        # "confirm the physio appointment" / "confirmed the dentist appointment": the word right
        # before the thing both name, replaced — which one (a verb there is the outcome's, and a
        # lead-in such as "Random one:" does not stand right before it).
        first = (
            index == 0
            and len(opcodes) > 1
            and opcodes[1][0] == "equal"
            and kept_a[i2 - 1] + 1 == kept_a[i2]
            and kept_b[j2 - 1] + 1 == kept_b[j2]
            and sa[i2 - 1] not in VERBS
            and sb[j2 - 1] not in VERBS
            and not _same_root(sa[i2 - 1], sb[j2 - 1])  # "reproduce" / "reproduced"
        )
        if op == "replace" and (interior or last or first) and set(sa[i1:i2]).isdisjoint(sb[j1:j2]):
            return f"{sa[i1:i2]} vs {sb[j1:j2]}"
    return ""


def _same_root(a: str, b: str) -> bool:
    """One word in two forms the light stemmer left apart ("reproduce" / "reproduc")."""
    shared = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return shared >= 4 and shared >= min(len(a), len(b)) - 2


def _strip_cues(tokens: list[Token]) -> list[Token]:
    """Drop cue words and the words of cue phrases, so "moved to Tuesday" aligns with "on Monday"."""
    kept = [t for t in tokens if t.low not in UPDATE_CUE_WORDS and t.low not in FILLER]
    out: list[Token] = []
    skip_of = False
    for i, t in enumerate(kept):
        if t.low == "as" and i + 1 < len(kept) and kept[i + 1].low == "of":
            skip_of = True
            continue
        if skip_of and t.low == "of":
            skip_of = False
            continue
        out.append(t)
    return out


def _aligned(  # noqa: PLR0911, PLR0912 - one return per ruling, in the order they apply
    a: list[Token], b: list[Token], names: set[str], result: ResultFn
) -> Structure:
    pa, pb = _predicate_index(a), _predicate_index(b)
    verb_a = a[pa] if pa is not None else None
    verb_b = b[pb] if pb is not None else None
    head_a = _strip_cues(a[:pa] if pa is not None else a)
    head_b = _strip_cues(b[:pb] if pb is not None else b)
    tail_a = _strip_cues(a[pa + 1 :] if pa is not None else [])
    tail_b = _strip_cues(b[pb + 1 :] if pb is not None else [])

    subject_changes, subject_insertions, subject_words = _diff(_specific(head_a), _specific(head_b))
    value_changes, value_insertions, value_words = _diff(tail_a, tail_b)
    _, _, value_removed, value_added = _diff_words(tail_a, tail_b)
    counts = (subject_changes, subject_insertions, value_changes, value_insertions)

    # The subject: words swapped before the predicate name another thing.
    if pa is None or pb is None:
        return _without_predicate(a, b, names, result)
    if _moved(head_a, tail_b) or _moved(head_b, tail_a):
        return _reworded(a, b, names, result, counts)
    if subject_changes:
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, f"subject differs: {subject_words}", counts)
    before_copula = _changed_before_same_complement(tail_a, tail_b)
    if before_copula:
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, f"subject differs: {before_copula}", counts)
    verb_relation = _verb_relation(verb_a, verb_b)
    # "is in Oslo" / "moved to Bergen": the newer's change verb restates the attribute it changes.
    # (The older's own change verb — "changed its opening hours" — names an attribute of its own.)
    cue_verbs = (
        verb_b is not None
        and pb is not None
        and (verb_b.low in UPDATE_CUE_WORDS or verb_b.stem in _CHANGE_VERBS)
        # "moved to Bergen", "switched from X to Y", "became vegan" — not "changed its opening hours"
        and not (pb + 1 < len(b) and b[pb + 1].low in _OBJECT_DETERMINERS)
    )
    if verb_relation == DIFFERENT and not subject_insertions:
        return result(SAME, DIFFERENT, UNCERTAIN, f"attribute differs: {verb_a.text!s} vs {verb_b.text!s}", counts)  # type: ignore[union-attr]
    subject = SAME if not subject_insertions else UNCERTAIN
    # "is in Oslo" / "moved to Bergen": a change verb restates the attribute it changes; "is
    # open" / "is marked as shipped" may not be the same attribute at all.
    attribute = SAME if verb_relation == SAME or (verb_relation == UNCERTAIN and cue_verbs) else UNCERTAIN
    if subject_insertions and _names_inserted(head_a, head_b, names):
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, f"subject narrowed: {subject_words}", counts)
    scope_removed = {w for w in value_removed if w in SCOPE_STEMS}
    scope_added = {w for w in value_added if w in SCOPE_STEMS}
    if scope_removed and scope_added:
        detail = f"subject differs: {sorted(scope_removed)} vs {sorted(scope_added)}"
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, detail, counts)
    entity_swap = _entity_swap(tail_a, tail_b, value_removed, value_added, names)
    if entity_swap:
        return result(DIFFERENT, UNCERTAIN, UNCERTAIN, f"subject differs: {entity_swap}", counts)
    preposition_a, preposition_b = _lead_preposition(a, pa), _lead_preposition(b, pb)
    if (
        not cue_verbs
        and preposition_a
        and preposition_b
        and preposition_a != preposition_b
        and not has_contrast(_text(b), _text(a))
    ):
        words = f"{preposition_a!r} vs {preposition_b!r}"
        return result(
            subject if subject == SAME else UNCERTAIN, DIFFERENT, UNCERTAIN, f"attribute differs: {words}", counts
        )
    copulas = verb_a is not None and verb_b is not None and verb_a.low in COPULAS and verb_b.low in COPULAS
    plain_change = any(value_type(w, names) == "word" for w in [*value_removed, *value_added])
    if not cue_verbs and copulas and bool(preposition_a) != bool(preposition_b) and plain_change:
        # "is about the billing service" / "is now open": a value with a preposition and one without
        # answer two questions (what it is about, what state it is in).
        detail = f"attribute differs: {preposition_a or preposition_b!r} on one side only"
        return result(subject if subject == SAME else UNCERTAIN, DIFFERENT, UNCERTAIN, detail, counts)
    if value_changes and _value_types_clash(value_removed, value_added, names):
        detail = f"attribute differs: {value_words}"
        return result(subject if subject == SAME else UNCERTAIN, DIFFERENT, UNCERTAIN, detail, counts)
    if value_insertions and not value_changes and has_contrast(_text(b), _text(a)):
        value = "changed"  # "changed from Freya to Ama": the old value named beside the new
    elif value_changes:
        value = "changed"
    elif value_insertions:
        value = (
            "added"
            if _inserted_only_in(tail_b, tail_a)
            else ("removed" if _inserted_only_in(tail_a, tail_b) else "changed")
        )
    else:
        value = SAME
    detail = f"value {value}: {value_words}" if value != SAME else "same value"
    if subject == UNCERTAIN:
        detail = f"subject reworded: {subject_words}; {detail}"
    return result(subject, attribute, value, detail, counts)


def _without_predicate(a: list[Token], b: list[Token], names: set[str], result: ResultFn) -> Structure:
    """No predicate found on one side: the whole statements compared as bags of words."""
    changes, insertions, words = _diff(_strip_cues(a), _strip_cues(b))
    if changes == 0 and insertions == 0:
        return result(SAME, SAME, SAME, "same words", (0, 0, 0, 0))
    _, _, removed, added = _diff_words(_strip_cues(a), _strip_cues(b), bag=True)
    if _only_amounts_differ(removed, added, names):
        # "Olive weighs 9 kg" / "Olive weighs 23 kg": every other word the same.
        return result(SAME, SAME, "changed", f"value changed: {removed} vs {added}", (0, 0, changes, insertions))
    return result(
        UNCERTAIN, UNCERTAIN, UNCERTAIN, f"no clear predicate; differ in {words}", (0, 0, changes, insertions)
    )


_OBJECT_DETERMINERS = _words("its the their our my his her your a an this that these those some")


def _changed_before_same_complement(tail_a: list[Token], tail_b: list[Token]) -> str:
    """Words swapped before a copula after the predicate ("the best way to reach Chloe is a phone
    call" / "… to reach Mei is a phone call"): they name the subject, and what follows the copula
    is the value."""

    def split(tail: list[Token]) -> tuple[set[str], set[str]] | None:
        copulas = [i for i, t in enumerate(tail) if t.low in COPULAS]
        if not copulas:
            return None
        at = copulas[-1]
        before = {t.stem for t in tail[:at] if t.content}
        after = {t.stem for t in tail[at + 1 :] if t.content}
        return before, after

    parts_a, parts_b = split(tail_a), split(tail_b)
    if parts_a is None or parts_b is None:
        return ""
    (before_a, after_a), (before_b, after_b) = parts_a, parts_b
    # Whatever the complement does (the same, changed too, or with a word more): an update changes
    # a value, not the words naming whose value it is ("reach Priya is Signal" / "reach Sofia is Slack").
    if before_a - before_b and before_b - before_a and after_a and after_b:
        return f"{sorted(before_a - before_b)} vs {sorted(before_b - before_a)}"
    return ""


_TASK_FRAMES = _words("need needs should must remember todo to-do task try plan want")


def _task_not_named(task: list[Token], report: list[Token], names: set[str]) -> str:
    """A report of a task done names what was to be done: its verb and the first thing it acts on
    ("write a runbook for the gateway service" / "the gateway service is written in TypeScript"
    names no runbook; "post a status update on OPS-4417" / "OPS-4417's status was changed to
    resolved" posts nothing)."""
    said = {t.stem for t in report if t.content} | {t.stem for t in report if t.stem in VERBS}
    verb_at = next(
        (i for i, t in enumerate(task) if t.stem in VERBS and t.low not in _TASK_FRAMES and t.low not in COPULAS), None
    )
    if verb_at is None:
        # A verb the vocabulary lacks: the first word after "to" / "need to" / "remember to".
        verb_at = next(
            (
                i
                for i in range(1, len(task))
                if task[i - 1].low == "to" and task[i].content and task[i].stem not in names
            ),
            None,
        )
    if verb_at is None:
        return ""
    verb = task[verb_at]
    if verb.stem not in said and not any(_synonyms(verb.stem, w) for w in said):
        return f"the report does not say the task's own verb ({verb.low})"
    target = next(
        (
            t
            for t in task[verb_at + 1 :]
            if t.content and t.stem not in names and t.stem not in GENERIC_HEADS and value_type(t.stem, names) == "word"
        ),
        None,
    )
    if target is not None and target.stem not in said:
        return f"the report names no {target.low}"
    return ""


def _possessor_phrases(tokens: list[Token]) -> list[frozenset[str]]:
    """The words before each possessive 's ("the billing service's", "Northwind's", "auth-proxy's")."""
    phrases = []
    for i, token in enumerate(tokens):
        if token.low != "'s" or i == 0:
            continue
        words: list[str] = []
        j = i - 1
        while j >= 0 and tokens[j].content and len(words) < 3:
            words.append(tokens[j].stem)
            j -= 1
        if words:
            phrases.append(frozenset(words))
    return phrases


def _possessors_differ(a: list[Token], b: list[Token]) -> str:
    """Both statements name an owner with 's, and no owner of one is an owner of the other, each
    with a word the other lacks: two subjects' facts ("We host Northwind's data in eu-west-1" /
    "We host Initech's data in eu-west-1"), wherever the owner stands."""
    owners_a, owners_b = _possessor_phrases(a), _possessor_phrases(b)
    if not owners_a or not owners_b:
        return ""
    for owner_a in owners_a:
        for owner_b in owners_b:
            if not (owner_a - owner_b and owner_b - owner_a):
                return ""  # an owner they share (or one that only narrows the other's)
    return f"{sorted(w for o in owners_a for w in o)} vs {sorted(w for o in owners_b for w in o)}"


def _scope_asymmetry(a: list[Token], b: list[Token]) -> str:
    """A scope word (an environment, a tier, a region, a relative…) in one statement only: it may
    qualify the subject ("new-checkout-eu" / "new-checkout"), so the other may be another fact."""
    scopes_a = {t.stem for t in a if t.stem in SCOPE_STEMS}
    scopes_b = {t.stem for t in b if t.stem in SCOPE_STEMS}
    if scopes_a != scopes_b and not (scopes_a and scopes_b):
        return f"a scope in one statement only: {sorted(scopes_a ^ scopes_b)}"
    return ""


_TYPED = frozenset({"number", "time", "weekday", "month", "version", "ident"})


def _kept_anchor(a: list[Token], b: list[Token], names: set[str]) -> str:
    """After the predicate, a name, identifier or typed value stays while other words change on
    both sides ("I see Dr. Okafor for the haircut" / "… Dr. Okafor for the tax advisor meeting";
    "£400 a month towards the house deposit" / "… towards the wedding fund"): what changed
    qualifies which thing is meant, and an update changes the value itself."""
    pa, pb = _predicate_index(a), _predicate_index(b)
    if pa is None or pb is None:
        return ""
    tail_a, tail_b = _strip_cues(a[pa + 1 :]), _strip_cues(b[pb + 1 :])
    stems_a = {t.stem for t in tail_a if t.content and t.stem not in GENERIC_HEADS}
    stems_b = {t.stem for t in tail_b if t.content and t.stem not in GENERIC_HEADS}

    def anchor(word: str) -> bool:
        return word in names or value_type(word, names) in _TYPED

    kept = {w for w in stems_a & stems_b if anchor(w)}
    plain_a = {w for w in stems_a - stems_b if value_type(w, names) not in _TYPED}
    plain_b = {w for w in stems_b - stems_a if value_type(w, names) not in _TYPED}
    if kept and plain_a and plain_b:
        return f"{sorted(kept)} stays while {sorted(plain_a)} becomes {sorted(plain_b)}"
    return ""


def _yes_no_unanswered(question: list[Token], said: set[str]) -> str:
    """ "Do I need to bring anything to the meeting?" / "The meeting is at the downtown office.": a
    yes/no question is answered by what it asks about — its verb."""
    verbs = {
        t.stem
        for before, t in itertools.pairwise(question)
        # a verb, not a noun ("the tax advisor meeting"): after no determiner, preposition or noun
        if t.stem in VERBS and t.low not in COPULAS and not before.content and before.low not in _DETERMINERS
    }
    if verbs and not verbs & said:
        return f"the answer does not say whether {sorted(verbs)[0]}"
    return ""


_AUXILIARIES = _words("is are was were do does did can could will would should has have had am")
_WH_NOUN = re.compile(
    r"\b(which|what)\s+(?:(?:is|are|was|were)\s+)?(?:(?:the|a|an|my|our|your)\s+)?([a-z][a-z-]+)", re.IGNORECASE
)
_WH_KIND = (
    (re.compile(r"\bwho(?:m|se)?\b", re.IGNORECASE), frozenset({"name"}), "name"),
    (re.compile(r"\bwhen\b|\bwhat (?:time|day|date)\b", re.IGNORECASE), _TYPED - {"version"}, "time or date"),
    (re.compile(r"\bhow (?:many|much|long|often|old|far)\b", re.IGNORECASE), _TYPED, "number"),
)


def _question_noun_unanswered(  # noqa: PLR0911 - one return per kind of question
    question: list[Token], answer: list[Token], names: set[str]
) -> str:
    """ "Which locker will order 91305 go to?" / "Order 91305 goes to the office."; "Who owns the
    Ember project?" / "We have $250k to spend on the Ember project.": an answer names the noun a
    which-question asks about or something new, and what a who/when/how-many question asks for."""
    text = " ".join(t.text for t in question)
    asked = {t.stem for t in question if t.content}
    said = {t.stem for t in answer if t.content}
    new = said - asked
    words = [t for t in question if (t.low not in LABELS and t.low not in _PRONOUNS) or t.low in _AUXILIARIES]
    if words and words[0].low in _AUXILIARIES:
        return _yes_no_unanswered(question, said)
    for pattern, kinds, wanted in _WH_KIND:
        if pattern.search(text):
            if not any(value_type(w, names) in kinds for w in new):
                return f"the answer gives no {wanted}"
            if wanted == "name":
                # Any name answers "who?": "Who signs the contract at Acme Foods?" / "Acme Foods
                # uses Okta for single sign-on" names one, about something else.
                unsaid = {w for w in asked - said if w not in names}
                if unsaid:
                    return f"the answer does not say {sorted(unsaid)}"
            return ""
    match = _WH_NOUN.search(text)
    if match is None:
        return ""
    noun = stem(match.group(2).lower())
    if noun in STOPWORDS or noun in COPULAS or noun in VERBS or noun in said:
        return ""
    # "Which hotel?" may be answered by the hotel's name; "what is the root cause?" only by saying it.
    if match.group(1).lower() == "which" and any(value_type(w, names) == "name" for w in new):
        return ""
    return f"the answer names no {match.group(2).lower()}"


_REFERENCE = re.compile(r"^#\d+$|^[a-z]{2,6}-\d{2,}$")


def _entity_swap(
    tail_a: list[Token], tail_b: list[Token], removed: list[str], added: list[str], names: set[str]
) -> str:
    """A value change that swaps what names the subject: a reference id ("order 88290" / "order
    93021", "OPS-1412"), a word naming an entity of a kind ("the gateway service" / "the
    notifications service"), or a name swapped together with another value ("reach Kenji on
    +351 916…" / "reach Arjun on +351 917…"): one value changes, not two at once."""
    refs = [w for w in [*removed, *added] if _REFERENCE.match(w)]
    if any(_REFERENCE.match(w) for w in removed) and any(_REFERENCE.match(w) for w in added):
        return f"{sorted(refs)}"

    swapped_a = _entity_modifiers(tail_a) & set(removed)
    swapped_b = _entity_modifiers(tail_b) & set(added)
    if swapped_a and swapped_b:
        return f"{sorted(swapped_a)} vs {sorted(swapped_b)}"
    idents_out = {w for w in removed if value_type(w, names) == "ident"}
    idents_in = {w for w in added if value_type(w, names) == "ident"}
    others = (set(removed) - idents_out) | (set(added) - idents_in)
    if idents_out and idents_in and any(value_type(w, names) in _TYPED for w in others):
        # "turn off v1 … on July 2" / "turn off v2 … on May 21": one value changes, not two.
        return f"{sorted(idents_out)} vs {sorted(idents_in)}"
    names_out = {w for w in removed if w in names and value_type(w, names) == "name"}
    names_in = {w for w in added if w in names and value_type(w, names) == "name"}
    others = (set(removed) - names_out) | (set(added) - names_in)
    if names_out and names_in and any(value_type(w, names) != "word" for w in others):
        return f"{sorted(names_out)} vs {sorted(names_in)}"
    return ""


def _entity_modifiers(tokens: list[Token]) -> set[str]:
    """Words that say which thing of a kind is meant: "billing" in "the billing service"."""
    words = [t for t in tokens if t.content]
    return {w.stem for w, nxt in itertools.pairwise(words) if nxt.stem in GENERIC_HEADS and w.stem not in GENERIC_HEADS}


def _lead_preposition(tokens: list[Token], predicate: int | None) -> str:
    """The preposition the value opens with ("lives in Oslo", "is at the downtown office")."""
    if predicate is None:
        return ""
    for token in tokens[predicate + 1 : predicate + 3]:
        if token.low in _PREPOSITIONS:
            return token.low
        if token.content:
            return ""
    return ""


def _specific(tokens: list[Token]) -> list[Token]:
    """The subject's words without its generic head nouns — unless the noun is owned ("the ingest
    service's database", "the codebase of the ingest service"): then it names an attribute."""
    kept = []
    for i, token in enumerate(tokens):
        owned = (i > 0 and tokens[i - 1].low == "'s") or (i + 1 < len(tokens) and tokens[i + 1].low == "of")
        if token.stem not in GENERIC_HEADS or owned:
            kept.append(token)
    return kept


def _reworded(
    a: list[Token], b: list[Token], names: set[str], result: ResultFn, counts: tuple[int, int, int, int]
) -> Structure:
    """Words of one subject stand after the other's predicate ("We use Python 3.9 for the API" /
    "The API runs on Python 3.9"): positions say nothing, so the two are compared as bags."""
    changes, _, removed, added = _diff_words(_strip_cues(a), _strip_cues(b), bag=True)
    if not removed and not added:
        return result(SAME, SAME, SAME, "the same words, reordered", counts)
    words = f"{removed} vs {added}"
    # Reordered, but all that differs is a typed value (a number, date, time or version) and
    # generic nouns: "The Halcyon project has a budget of $200k" / "the Halcyon budget is $40k".
    plain_removed = [w for w in removed if w not in GENERIC_HEADS and w not in _CHANGE_VERBS]
    plain_added = [w for w in added if w not in GENERIC_HEADS and w not in _CHANGE_VERBS]
    typed = ("number", "month", "weekday", "time", "version")
    if (
        plain_removed
        and plain_added
        and all(value_type(w, names) in typed for w in [*plain_removed, *plain_added])
        and not _value_types_clash(plain_removed, plain_added, names)
        and len(_content_stems(a) & _content_stems(b)) >= 2
    ):
        return result(SAME, SAME, "changed", f"reworded; value changed: {words}", counts)
    if _value_types_clash(removed, added, names):
        return result(UNCERTAIN, DIFFERENT, UNCERTAIN, f"reworded; attribute differs: {words}", counts)
    value = "changed" if changes or has_contrast(_text(b), _text(a)) else ("added" if added else "removed")
    return result(UNCERTAIN, UNCERTAIN, value, f"reworded; differ in {words}", counts)


def _text(tokens: list[Token]) -> str:
    return " ".join(t.text for t in tokens)


def _diff(a: list[Token], b: list[Token], bag: bool = False) -> tuple[int, int, str]:
    """(content words replaced, content words inserted or deleted, a description)."""
    changes, insertions, removed, added = _diff_words(a, b, bag)
    return changes, insertions, f"{removed} vs {added}" if removed or added else "none"


def _diff_words(a: list[Token], b: list[Token], bag: bool = False) -> tuple[int, int, list[str], list[str]]:
    sa = [t.stem for t in a if t.content]
    sb = [t.stem for t in b if t.content]
    if bag:
        only_a = sorted(set(sa) - set(sb))
        only_b = sorted(set(sb) - set(sa))
        changes = min(len(only_a), len(only_b))
        return changes, abs(len(only_a) - len(only_b)), only_a, only_b
    matcher = SequenceMatcher(a=sa, b=sb, autojunk=False)
    changes = insertions = 0
    removed: list[str] = []
    added: list[str] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        left, right = sa[i1:i2], sb[j1:j2]
        # A word that only moved within the span is no change.
        left_set, right_set = set(left), set(right)
        left = [w for w in left if w not in right_set]
        right = [w for w in right if w not in left_set]
        removed += left
        added += right
        common = min(len(left), len(right))
        changes += common
        insertions += abs(len(left) - len(right))
    # Words that moved elsewhere in the sentence are not changes either.
    moved = set(removed) & set(added)
    if moved:
        removed = [w for w in removed if w not in moved]
        added = [w for w in added if w not in moved]
        changes = min(len(removed), len(added))
        insertions = abs(len(removed) - len(added))
    return changes, insertions, removed, added


_WEEKDAYS = _words("monday tuesday wednesday thursday friday saturday sunday weekday weekend")
_MONTHS = _words(
    """january february march april may june july august september october november december jan feb
    mar apr jun jul aug sep sept oct nov dec"""
)
_VERSION = re.compile(r"^v?\d+(?:\.\d+){1,3}$")  # "v2" alone names an API version: an identifier
_TIME = re.compile(r"^\d{1,2}(?::\d{2})?(?:am|pm|h)?$|^(?:noon|midnight)$")


def value_type(word: str, names: set[str]) -> str:  # noqa: PLR0911 - one return per kind
    """What kind of value a word is, to tell a changed day from a changed time of day."""
    if word in _WEEKDAYS:
        return "weekday"
    if word in _MONTHS:
        return "month"
    if _TIME.match(word) and (":" in word or word.endswith(("am", "pm", "h")) or word in ("noon", "midnight")):
        return "time"
    if word.startswith("#"):
        return "ident"
    if _VERSION.match(word):
        return "version"
    if _HAS_DIGIT.search(word):
        return "ident" if _HAS_ALPHA.search(word) else "number"
    if word in names:
        return "name"
    return "word"


def _value_types_clash(removed: list[str], added: list[str], names: set[str]) -> bool:
    """The older's changed value and the newer's are of different kinds ("10:00" / "Tuesday";
    "Thursday" / "14:00 on 3 May"): two attributes of the subject, not two values of one."""
    typed_removed = {value_type(w, names) for w in removed} - {"word"}
    typed_added = {value_type(w, names) for w in added} - {"word"}
    plain_removed = any(value_type(w, names) == "word" for w in removed)
    plain_added = any(value_type(w, names) == "word" for w in added)
    if bool(typed_removed) != bool(typed_added):
        # A typed value on one side only ("is a P1" / "is in progress", "is open" / "was
        # postponed to May 9"): two attributes, unless the untyped side changed nothing.
        return (plain_added if typed_removed else plain_removed) and not (typed_removed & typed_added)
    if not typed_removed or not typed_added:
        return False
    if {"number", "version"} >= typed_removed | typed_added:
        return False  # "version 15" / "16.2": one kind of value
    # Disjoint kinds, or each side with a kind the other lacks; a value that only gains a part
    # ("Monday" / "Tuesday at 11:00") is still one value.
    return not typed_removed & typed_added or bool(typed_added - typed_removed and typed_removed - typed_added)


_AMOUNTS = frozenset({"number", "time", "weekday", "month"})


def _only_amounts_differ(removed: list[str], added: list[str], names: set[str]) -> bool:
    """All that differs is a number, a time, a day or a month, the same kind on each side."""
    kinds_removed = {value_type(w, names) for w in removed}
    kinds_added = {value_type(w, names) for w in added}
    return bool(removed) and bool(added) and kinds_removed == kinds_added and kinds_removed <= _AMOUNTS


def _moved(head: list[Token], tail: list[Token]) -> bool:
    """A content word of one statement's subject stands after the other's predicate."""
    head_words = {t.stem for t in head if t.content}
    tail_words = {t.stem for t in tail if t.content}
    return bool(head_words & tail_words)


# Verbs that state the same attribute ("prefers" / "likes"): one group, one attribute.
_SYNONYMS = [
    _words("prefer like love want enjoy favor favour adore"),
    _words("live reside stay base"),
    _words("use run rely"),
    _words("deploy ship release"),
    _words("cost charge"),
    _words("start begin kick"),
    _words("end finish wrap"),
    _words("expire last"),
    _words("own lead manage head"),
    _words("meet sync"),
    _words("hate dislike"),
]


def _synonyms(a: str, b: str) -> bool:
    return any(a in group and b in group for group in _SYNONYMS)


def _copula_family(word: str) -> str:
    if word in ("is", "are", "was", "were", "be", "been", "am", "'re", "'m"):
        return "be"
    if word in ("has", "have", "had"):
        return "have"
    return "modal"


def _verb_relation(verb_a: Token | None, verb_b: Token | None) -> str:
    if verb_a is None or verb_b is None:
        return UNCERTAIN
    if verb_a.stem == verb_b.stem or _synonyms(verb_a.stem, verb_b.stem):
        return SAME
    a_copula, b_copula = verb_a.low in COPULAS, verb_b.low in COPULAS
    if a_copula and b_copula:
        # "is" and "was" state one attribute; "is worth a visit" and "has a sign" two.
        return SAME if _copula_family(verb_a.low) == _copula_family(verb_b.low) else DIFFERENT
    if a_copula or b_copula:
        return UNCERTAIN  # "is in Oslo" / "moved to Oslo": reworded, judged on the rest
    if verb_b.low in UPDATE_CUE_WORDS or stem(verb_b.low) in {"move", "switch", "change"}:
        return UNCERTAIN  # the newer's verb says the value changed; the older's names its attribute
    return DIFFERENT


def _names_inserted(head_a: list[Token], head_b: list[Token], names: set[str]) -> bool:
    """One subject adds a name, an identifier or a marker word the other lacks ("the staging
    database" / "the database"): a narrower, so another, subject."""

    def marked(tokens: list[Token]) -> set[str]:
        return {t.stem for t in tokens if t.content and (t.stem in names or t.stem in SCOPE_STEMS)}

    return bool(marked(head_a) ^ marked(head_b))


def _inserted_only_in(longer: list[Token], shorter: list[Token]) -> bool:
    return {t.stem for t in shorter if t.content} <= {t.stem for t in longer if t.content}

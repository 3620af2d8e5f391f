"""The slot two statements dispute, as a key: which subject and attribute, read from their structure.

A conflict pairs two statements the judge could not settle. Conflicts about one slot — Priya's
city, the standup's time — are one decision for a person, however many pairs the queue holds
(review.selectors.conflict_groups joins them by this key). The key is read the way
review.judges.structure aligns a pair:

* the sentence of each statement that states the fact they share (``fact_sentences``);
* each split at its main predicate: the words before it name the subject and attribute, the
  predicate itself names the attribute (a copula only says "is", so its family stands for it;
  synonyms such as "prefers"/"likes" are one attribute), and words before a later copula
  ("the best way to reach Chloe is …") qualify the subject;
* a change verb in one statement ("moved to", "switched") only says the value changed: the
  other statement's verb names the attribute.

Both statements must yield the same key, and the structure must read the pair as one subject and
one attribute with nothing casting doubt on it; otherwise the key is empty and the conflict is
grouped only through the memories it names. A subject with no word of its own ("I love sushi",
"it is at 10") or one that points elsewhere ("her sister", "they") cannot single out one slot
across statements, so it yields no key either: a wrong key would put two disputes before a person
as one, and "this one stands" would then retire a fact of another slot.

Key format: ``<subject words>|<attribute>[|<qualifier words>]``, stems in their order of writing
(qualifiers sorted), lower case, e.g. ``priya|live``, ``acme standup|be``,
``best way|reach|chloe``. Statements with no predicate that differ only in an amount
("Olive weighs 9 kg" / "Olive weighs 23 kg") key on their other words: ``olive weigh kg|``.
"""

from __future__ import annotations

from review.judges.structure import (
    _CHANGE_VERBS,
    _SYNONYMS,
    COPULAS,
    SAME,
    UPDATE_CUE_WORDS,
    VERBS,
    Token,
    _best_sentences,
    _copula_family,
    _predicate_index,
    _specific,
    _strip_cues,
    _words,
    analyse,
    value_type,
)

# Longer keys are not stored (Conflict.slot's length): no real subject and attribute run so long.
MAX_SLOT_LENGTH = 200

# The writer's own possessives name whose thing it is ("my sister"); the others point at someone
# the statement does not name, so they single out nothing across statements.
_FIRST_PERSON = {"my": "my", "mine": "my", "our": "our", "ours": "our"}
_POINTING = _words("he she it they him them his her hers its their theirs this that these those there here")
_CHANGE_STEMS = _CHANGE_VERBS | {"move", "switch", "change"}


def slot_key(older: str, newer: str, kind_older: str = "fact", kind_newer: str = "fact") -> str:
    """The slot both statements state, or "" when the structure cannot single out one."""
    structure = analyse(older, newer, kind_older, kind_newer)
    if structure.subject != SAME or structure.attribute != SAME or structure.doubt:
        return ""
    fact = _best_sentences(older, newer)
    if _predicate_index(fact.older) is None and _predicate_index(fact.newer) is None:
        return _without_predicate(fact.older, fact.newer)
    a, b = _parts(fact.older), _parts(fact.newer)
    if a is None or b is None:
        return ""
    (subject_a, verb_a, cue_a, qualifier_a), (subject_b, verb_b, cue_b, qualifier_b) = a, b
    if subject_a != subject_b or qualifier_a != qualifier_b:
        return ""
    if verb_a == verb_b:
        verb = verb_a
    elif cue_a != cue_b:
        verb = verb_b if cue_a else verb_a  # "lives in Oslo" / "moved to Bergen": the attribute is "live"
    else:
        return ""
    key = f"{' '.join(subject_a)}|{verb}" + (f"|{' '.join(qualifier_a)}" if qualifier_a else "")
    return key if len(key) <= MAX_SLOT_LENGTH else ""


def _parts(tokens: list[Token]) -> tuple[tuple[str, ...], str, bool, tuple[str, ...]] | None:
    """(subject words, attribute, whether the predicate is a change verb, qualifier words) of a
    fact sentence; None when it has no predicate or no subject of its own."""
    predicate = _predicate_index(tokens)
    if predicate is None:
        return None
    head = tokens[:predicate]
    if any(t.low in _POINTING for t in head):
        return None
    subject = tuple(
        _FIRST_PERSON.get(t.low, t.stem) for t in _specific(_strip_cues(head)) if t.content or t.low in _FIRST_PERSON
    )
    if not any(t.content for t in _specific(_strip_cues(head))):
        return None  # "I …", "my …" alone: no subject of its own
    verb_token = tokens[predicate]
    cue = verb_token.low in UPDATE_CUE_WORDS or verb_token.stem in _CHANGE_STEMS
    verb = _attribute(verb_token)
    tail = _strip_cues(tokens[predicate + 1 :])
    copulas = [i for i, t in enumerate(tail) if t.low in COPULAS]
    qualifier = tuple(sorted({t.stem for t in tail[: copulas[-1]] if t.content})) if copulas else ()
    return subject, verb, cue, qualifier


def _attribute(verb: Token) -> str:
    """One name per attribute: a copula's family, a synonym group's first word, else the stem."""
    if verb.low in COPULAS:
        return _copula_family(verb.low)
    for group in _SYNONYMS:
        if verb.stem in group:
            return min(group & VERBS or group)  # "live" for live/reside/stay/base
    return verb.stem


def _without_predicate(a: list[Token], b: list[Token]) -> str:
    """Statements with no predicate: the structure reads them as one slot only when all that
    differs is an amount; the words they share, amounts aside, are the key."""
    if any(t.low in _POINTING for t in [*a, *b]):
        return ""
    names: set[str] = set()
    words_a = [t.stem for t in _strip_cues(a) if t.content and value_type(t.stem, names) == "word"]
    words_b = [t.stem for t in _strip_cues(b) if t.content and value_type(t.stem, names) == "word"]
    if not words_a or words_a != words_b:
        return ""
    key = f"{' '.join(words_a)}|"
    return key if len(key) <= MAX_SLOT_LENGTH else ""

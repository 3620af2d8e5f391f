"""Search: how much a stored memory resembles a text, and finding the memories that resemble it
most — vector similarity fused with full-text matching and the sentence side.

Everything outside this package uses the names below (``__all__``); its modules are private
(an import-linter contract, pyproject.toml). ``_score``: the score and its constants, once, in
Python and rendered as SQL; ``_lexical``: the lexical side; ``_sentences``: the sentence side's
neighbours; ``_nearest``: the vector side's candidates (exact scans and the HNSW walk);
``_fused``: the exact top of a scope in one statement (similar_existing, the hygiene
candidates); ``_question``: a question's ranking (recall); ``_scope``: recall's scope, its
statements compiled once per shape.

One ranking, used wherever the server looks for the memories a new statement may restate or
replace — ``similar_existing`` in a write's answer (SPEC R-N1) and the hygiene pipeline's
candidates (R-H1):

    score(m) = similarity(m) + weight(text) · lexical(m) + DISTINCT_WEIGHT · distinct(m)

* ``similarity`` is 1 - the cosine distance of the two embeddings.
* ``distinct`` is the sentence side. A long, chatty statement's one vector averages its
  pleasantries and its topics, so it resembles other chatty statements about as much as the
  one it updates; compared sentence by sentence, the sentence they share stands out. Each
  memory has vectors: its whole text's, and one per sentence when it has several
  (memories.text.sentences, stored in MemorySentence). For each of the text's sentences (the
  text itself when it is one sentence), take the DISTINCT_TOP memories holding its nearest
  vectors and the mean of their similarities; each of those memories scores by how far it stands
  above that mean. A sentence every chat turn resembles ("thanks so much!") has many equally
  near memories and gives no one much; a sentence only the predecessor matches gives it a lot.
  ``distinct(m)`` sums this over the text's sentences; it is 0 for a memory not among any
  sentence's nearest few. Chosen on the project's own update chains (evaluation): the
  nearest three, and the weight, against the nearest 2 to 12 and other weights.
* ``lexical`` is BM25 over PostgreSQL's english lexemes (the stored ``search_vector``): each
  *telling* lexeme of the text that ``m`` contains adds its inverse document frequency times
  BM25's saturated term frequency, and the sum is divided by what the text scores against
  itself, so a memory that says everything the text says scores about 1. Telling lexemes are
  the text's rarest (at most ``MAX_LEXEMES``), leaving out those in more than 1% of all
  memories; their frequencies come from PostgreSQL's own statistics of ``search_vector``
  (refreshed by ANALYZE), so nothing is maintained on the write path.
* ``weight`` is small for a statement against statements and larger for recall's questions
  (``weight_for``; measured by ``./zm eval`` on update chains). The lexical side reads the whole
  text, where the model reads only its first 256 word pieces.

The vector and lexical sides are exact scans of the caller's rows; their lists are fused, and a
threshold test (Fagin's) proves that no memory outside them can beat the last one kept
(``fused_ranking``). The sentence side's nearest vectors — each sentence's nearest three
memories — are found through HNSW indexes once the caller's memories are many
(``sentence_neighbours``): an exact scan of them all for every sentence of a long text cost
254 ms per recall of a chat turn among 2,170 turns (issue 31), and the indexes find the same
nearest three as the exact scan for 0.99 of sentences (bench/longtext_quality.py); where the
index comes back short of the scope's rows, the exact scan answers.
"""

from memories.search._fused import MEMORY_COLUMNS, CompiledParts, Ranked, compile_parts, fused_ranking
from memories.search._lexical import (
    LexicalQuery,
    LexicalStats,
    forget_lexical_stats,
    lexical_queries,
    lexical_query,
    lexical_score,
    lexical_stats,
    saturation,
    stored_lexemes,
    text_lexemes,
    tsvector_counts,
    weight_for,
)
from memories.search._nearest import (
    estimated_rows,
    exact_nearest,
    forget_estimates,
    project_ranking,
    vector_ranking,
    walk_is_cheaper,
)
from memories.search._question import Scored, question_ranking
from memories.search._scope import Scope
from memories.search._score import (
    DISTINCT_TOP,
    DISTINCT_WEIGHT,
    FIRST_K,
    LIKELY_PREDECESSOR_DISTANCE,
    LIKELY_PREDECESSOR_FAR_DISTANCE,
    LIKELY_PREDECESSOR_SCORE,
    QUESTION_TEXT_WEIGHT,
    TEXT_WEIGHT,
    likely_predecessor,
    score,
    score_sql,
)
from memories.search._sentences import (
    SENTENCE_ROWS_SEARCHED,
    NeighbourScope,
    distinct_from,
    neighbour_scope,
    sentence_neighbours,
    sentence_rows_exist,
)

__all__ = [
    "DISTINCT_TOP",
    "DISTINCT_WEIGHT",
    "FIRST_K",
    "LIKELY_PREDECESSOR_DISTANCE",
    "LIKELY_PREDECESSOR_FAR_DISTANCE",
    "LIKELY_PREDECESSOR_SCORE",
    "MEMORY_COLUMNS",
    "QUESTION_TEXT_WEIGHT",
    "SENTENCE_ROWS_SEARCHED",
    "TEXT_WEIGHT",
    "CompiledParts",
    "LexicalQuery",
    "LexicalStats",
    "NeighbourScope",
    "Ranked",
    "Scope",
    "Scored",
    "compile_parts",
    "distinct_from",
    "estimated_rows",
    "exact_nearest",
    "forget_estimates",
    "forget_lexical_stats",
    "fused_ranking",
    "lexical_queries",
    "lexical_query",
    "lexical_score",
    "lexical_stats",
    "likely_predecessor",
    "neighbour_scope",
    "project_ranking",
    "question_ranking",
    "saturation",
    "score",
    "score_sql",
    "sentence_neighbours",
    "sentence_rows_exist",
    "stored_lexemes",
    "text_lexemes",
    "tsvector_counts",
    "vector_ranking",
    "walk_is_cheaper",
    "weight_for",
]

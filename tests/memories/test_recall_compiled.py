"""Recall's compiled scope (memories.search.Scope, memories.compiled) answers exactly what the
queryset it was compiled from answers: for alice, bob, carol and dave, over every scope a memory
is in (personal, project, private, granted to a user or a group, pending, superseded, expired)
and every filter recall and the context pack take, the same hits with the same scores; the walk,
the exact scan and the lexical and distance statements alike; each shape compiled once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from guardian.shortcuts import assign_perm

from memories import context as context_module
from memories import recall as recall_module
from memories import services
from memories.choices import Provenance, State, Visibility
from memories.compiled import CompiledStatements
from memories.context import context_pack
from memories.models import Memory
from memories.recall import _Filters, _in_project, _scope, _unscoped, hit_rows, recall
from memories.search import Scope, question_ranking
from memories.search import _scope as scope_module
from memories.selectors import HEAVY_COLUMNS
from tests.factories import make_memory
from tests.helpers import remember, supersedes

QUESTIONS = ["When does Acme ship?", "What is in the release checklist wiki?", "garden tomatoes"]
FILTERS: list[dict[str, Any]] = [
    {},
    {"kinds": ["fact"]},
    {"kinds": ["decision", "fact"]},
    {"project_slug": "acme"},
    {"project_slug": "acme", "kinds": ["fact"]},
    {"include_expired": True},
    {"valid_at": timezone.now() - timedelta(days=3)},
    {"include_superseded": True},
    {"metadata": {"team": "ops"}},
    {"as_of": timezone.now() + timedelta(days=1)},
]


def _story(alice, bob, carol, acme) -> dict[str, Memory]:
    now = timezone.now()
    story = {
        "acme": make_memory(alice.user, "Acme ships on Tuesdays", project=acme),
        "private": make_memory(
            alice.user, "I think the Acme launch will slip", project=acme, visibility=Visibility.PRIVATE
        ),
        "personal": make_memory(alice.user, "My dentist appointment is on the 4th"),
        "decision": make_memory(alice.user, "We decided Acme ships from the EU region", project=acme, kind="decision"),
        "wiki": make_memory(bob.user, "Bob keeps the release checklist in the wiki", project=acme),
        "garden": make_memory(carol.user, "Carol grows tomatoes in her garden"),
        "shared": make_memory(bob.user, "Bob's private note on the release checklist, shared with a group"),
        "granted": make_memory(bob.user, "Bob's garden has more tomatoes than Carol's"),
        "tagged": make_memory(bob.user, "The ops team ships the wiki on Fridays", metadata={"team": "ops"}),
        "expired": make_memory(
            alice.user, "Acme shipped on Mondays until last week", valid_until=now - timedelta(days=1)
        ),
        "later": make_memory(
            alice.user, "Acme will ship on Thursdays from next month", valid_from=now + timedelta(days=9)
        ),
    }
    assign_perm("memories.view_memory", carol.user, story["granted"])
    reviewers = Group.objects.create(name="reviewers")
    carol.user.groups.add(reviewers)
    assign_perm("memories.view_memory", reviewers, story["shared"])
    response = remember(alice, "Acme ships on Wednesdays now", project="acme", links=supersedes(story["acme"].pk))
    assert response.status_code == 201
    story["acme"].refresh_from_db()
    assert story["acme"].state == State.SUPERSEDED
    services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    watcher, _ = services.credential_issue(
        actor=None, via="cli", user=alice.user, label="watcher", provenance=Provenance.PROVISIONAL
    )
    story["pending"] = make_memory(
        alice.user, "Alice said Acme ships the report on the 14th", project=acme, credential=watcher
    )
    assert story["pending"].state == State.PENDING
    return story


def _hits(hits) -> list[tuple]:
    return [(hit.memory.pk, hit.memory.content, hit.memory.owner.username, hit.distance, hit.score) for hit in hits]


def _filters(options: dict) -> _Filters:
    return _Filters(
        kinds=tuple(options.get("kinds") or ()),
        metadata=options.get("metadata"),
        valid_at=options.get("valid_at"),
        include_expired=options.get("include_expired", False),
        as_of=options.get("as_of"),
        include_superseded=options.get("include_superseded", False),
    )


@pytest.mark.django_db
def test_recall_compiled_answers_what_the_queryset_answers_for_every_persona_scope_and_filter(
    alice, bob, carol, dave, acme, monkeypatch
):
    story = _story(alice, bob, carol, acme)
    personas = [alice, bob, carol, dave]

    def answers() -> dict[tuple[str, ...], Any]:
        found: dict[tuple[str, ...], Any] = {}
        for persona in personas:
            for options in FILTERS:
                if options.get("project_slug") and persona is carol:
                    continue  # not a member: a 404, the same either way (test_recall)
                for question in QUESTIONS:
                    key = (persona.username, question, repr(sorted(options.items())))
                    found[key] = _hits(recall(user=persona.user, query=question, limit=5, **options))
                    packed = {name: value for name, value in options.items() if name != "include_superseded"}
                    pack = context_pack(user=persona.user, query=question, max_tokens=120, **packed)
                    found[(*key, "context")] = (pack.text, pack.tokens, pack.left_out)
        return found

    compiled = answers()
    # The previous path: the scope's queryset built and compiled on every call.
    monkeypatch.setattr(recall_module, "compiled_rule_applies", lambda user: False)
    monkeypatch.setattr(context_module, "compiled_rule_applies", lambda user: False)
    built = answers()

    assert compiled == built
    # The context pack's "was" line (the superseded version, read by its own compiled statement).
    was = compiled[("alice", QUESTIONS[0], repr([]), "context")][0]
    assert "- (fact, acme, " in was
    assert "Acme ships on Wednesdays now\n  was: Acme ships on Tuesdays (until " in was
    assert "was:" not in compiled[("bob", QUESTIONS[0], repr([]), "context")][0] or "Wednesdays" in was
    # It is the rule and the filters, not an open door or an empty answer.
    seen: dict[str, set[str]] = {key[0]: set() for key in compiled}
    for key, hits in compiled.items():
        if len(key) == 3:
            seen[key[0]] |= {hit[0] for hit in hits}
    assert story["granted"].pk in seen["carol"]
    assert story["shared"].pk in seen["carol"]
    assert story["private"].pk in seen["alice"]
    assert story["private"].pk not in seen["bob"]
    assert story["pending"].pk not in seen["alice"] | seen["bob"]  # recall reads live ones (or superseded)
    assert story["personal"].pk not in seen["bob"] | seen["carol"] | seen["dave"]
    assert story["granted"].pk not in seen["dave"]
    fact_only = compiled[("alice", QUESTIONS[0], repr(sorted({"kinds": ["fact"]}.items())))]
    assert fact_only
    assert story["decision"].pk not in {hit[0] for hit in fact_only}
    everything = compiled[("alice", QUESTIONS[0], repr([]))]
    assert story["decision"].pk in {hit[0] for hit in everything}
    assert story["acme"].pk not in {hit[0] for hit in everything}
    superseded = compiled[("alice", QUESTIONS[0], repr(sorted({"include_superseded": True}.items())))]
    assert story["acme"].pk in {hit[0] for hit in superseded}
    expired = compiled[("alice", QUESTIONS[0], repr(sorted({"include_expired": True}.items())))]
    assert story["expired"].pk in {hit[0] for hit in expired} - {hit[0] for hit in everything}
    tagged = compiled[("bob", QUESTIONS[1], repr(sorted({"metadata": {"team": "ops"}}.items())))]
    assert [hit[0] for hit in tagged] == [story["tagged"].pk]


@pytest.mark.django_db
@pytest.mark.parametrize("exact", [False, True, None])
def test_each_statement_of_the_ranking_is_the_same_compiled_or_built(alice, bob, carol, dave, acme, exact):
    _story(alice, bob, carol, acme)
    for persona in (alice, bob, carol, dave):
        for options in [o for o in FILTERS if "metadata" not in o and "as_of" not in o and "project_slug" not in o]:
            filters = _filters(options)
            scope = _scope(persona.user, filters, None)
            assert scope.compiled
            queryset = Scope.of(_in_project(_unscoped(persona.user, filters), persona.user.pk, None))
            for question in QUESTIONS:
                embedding = [float(x) for x in Memory.objects.order_by("pk")[0].embedding]
                arguments = {
                    "user": persona.user,
                    "text": question,
                    "embedding": embedding,
                    "query_vectors": [embedding],
                    "candidates": 3,
                    "exact": exact,
                }
                # A short list (3 of a dozen) sends the walk, the lexical statements and the
                # distances of what only the lexical side found.
                assert question_ranking(scope, **arguments) == question_ranking(queryset, **arguments)


@pytest.mark.django_db
def test_the_project_scope_is_compiled_with_the_project_in_its_slot(alice, bob, carol, dave, acme):
    story = _story(alice, bob, carol, acme)
    filters = _filters({})
    scope = _scope(alice.user, filters, acme.pk)
    built = Scope.of(_in_project(_unscoped(alice.user, filters), alice.user.pk, acme.pk))
    arguments = {"user": alice.user, "text": "Acme", "embedding": [1.0] * 384, "query_vectors": [[1.0] * 384]}

    compiled_hits = question_ranking(scope, candidates=30, exact=True, **arguments)

    assert compiled_hits == question_ranking(built, candidates=30, exact=True, **arguments)
    found = {entry.pk for entry in compiled_hits}
    assert story["personal"].pk in found
    assert story["private"].pk in found
    assert story["wiki"].pk in found
    assert story["garden"].pk not in found


@pytest.mark.django_db
def test_hit_rows_reads_what_in_bulk_reads(alice, bob, carol, acme):
    story = _story(alice, bob, carol, acme)
    ids = [memory.pk for memory in story.values()] + ["mem_01J00000000000000000000000"]
    fields = [field.attname for field in Memory._meta.concrete_fields if field.attname not in HEAVY_COLUMNS]

    def rows(found: dict[str, Memory]) -> dict:
        return {
            pk: (
                *[getattr(memory, name) for name in fields],
                memory.owner.username,
                memory.project and memory.project.slug,
            )
            for pk, memory in found.items()
        }

    expected = Memory.objects.select_related("owner", "project").defer(*HEAVY_COLUMNS).in_bulk(ids)
    assert rows(hit_rows(ids)) == rows(expected)
    assert len(hit_rows(ids)) == len(ids) - 1
    assert hit_rows([]) == {}


@pytest.mark.django_db
def test_a_shape_is_compiled_once(alice, acme, monkeypatch):
    monkeypatch.setattr(scope_module, "_STATEMENTS", CompiledStatements())  # none compiled yet
    make_memory(alice.user, "Acme ships on Tuesdays", project=acme)
    make_memory(alice.user, "The release checklist lives in the wiki")
    recall(user=alice.user, query="When does Acme ship?", kinds=["fact"])
    compiled = dict(scope_module._STATEMENTS._compiled)

    recall(user=alice.user, query="Where is the release checklist?", kinds=["decision"])

    assert compiled
    assert scope_module._STATEMENTS._compiled == compiled
    # Another shape (two kinds) is compiled once more.
    recall(user=alice.user, query="When does Acme ship?", kinds=["fact", "decision"])
    assert len(scope_module._STATEMENTS._compiled) > len(compiled)

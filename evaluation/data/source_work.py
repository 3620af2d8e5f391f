#!/usr/bin/env python3
"""Independent labelled-pair source "work" for the memory hygiene judge.

Domains: team engineering, customers and accounts, projects and planning,
procedures.  Writes work.jsonl next to this file (about 2,400 pairs) following
LABELS.md.  Standard library only, deterministic (fixed seed), no network.

Run:  python3 evaluation/data/source_work.py
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol, TypeAlias

SEED = 20250417
SOURCE = "work"
OUT = Path(__file__).resolve().parent / "work.jsonl"
P_LONG = 0.325

R = random.Random(SEED)  # generation
POOL = random.Random(SEED + 1)  # vocabulary pools (kept separate so pools are stable)

# --------------------------------------------------------------------------------------
# vocabularies
# --------------------------------------------------------------------------------------
SERVICES = [
    "billing",
    "search",
    "checkout",
    "ledger",
    "notifications",
    "auth",
    "inventory",
    "payments",
    "reporting",
    "onboarding",
    "shipping",
    "catalog",
    "pricing",
    "identity",
    "media",
    "export",
    "webhooks",
    "scheduler",
    "audit",
    "geocoding",
    "recommendations",
    "invoicing",
    "fraud",
    "messaging",
    "analytics",
]
ENVS = ["staging", "production", "dev", "QA", "sandbox", "perf"]
TIERS = ["free", "starter", "pro", "team", "business", "enterprise"]
REGIONS = [
    "us-east-1",
    "us-east-2",
    "us-west-2",
    "eu-west-1",
    "eu-west-2",
    "eu-central-1",
    "eu-north-1",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-northeast-1",
    "sa-east-1",
    "ca-central-1",
]
APIS = ["v1", "v2", "v3", "v4", "v2beta"]
PEOPLE = [
    "Dana",
    "Priya",
    "Marcus",
    "Ines",
    "Tomasz",
    "Keiko",
    "Olu",
    "Rafael",
    "Sanne",
    "Bilal",
    "Mei",
    "Joaquin",
    "Freya",
    "Anil",
    "Greta",
    "Hugo",
    "Leila",
    "Nikolai",
    "Ama",
    "Sven",
    "Yara",
    "Dmitri",
    "Chloe",
    "Kofi",
    "Ingrid",
    "Mateo",
    "Saoirse",
    "Haruto",
    "Beatriz",
    "Emeka",
    "Lotte",
    "Vikram",
    "Zainab",
    "Pavel",
    "Noor",
    "Elio",
    "Tamsin",
    "Jun",
    "Ravi",
    "Astrid",
    "Kwame",
    "Lucia",
    "Omar",
    "Hedda",
    "Thabo",
    "Mira",
    "Felix",
    "Aiko",
    "Rosa",
    "Idris",
]
CONTACTS = [
    "Helena Voss",
    "Arjun Mehta",
    "Colette Baines",
    "Rui Tavares",
    "Magda Kowal",
    "Femi Adeyemi",
    "Lars Ekdahl",
    "Nadia Haddad",
    "Owen Pritchard",
    "Sofia Lindqvist",
    "Tariq Bashir",
    "Yvonne Chua",
    "Gideon Frost",
    "Mariana Duarte",
    "Ken Watanabe",
    "Petra Novak",
    "Brendan Oyelaran",
    "Ilse Marchetti",
]
CUSTOMERS = [
    "Brightwell Freight",
    "Norvale Dairy",
    "Quillstone Bank",
    "Harborline Freight",
    "Tessaract AI",
    "Pinecrest Health",
    "Ostrava Auto",
    "Lumenfield Energy",
    "Kestrel Insight",
    "Marlow & Finch",
    "Copperleaf Retail",
    "Zephyr Telecom",
    "Bluefin Insurance",
    "Halden Pharma",
    "Redwater Media",
    "Alder Software",
    "Vantor Aerospace",
    "Greymoor Legal",
    "Sunmill Bakery",
    "Ironbridge Capital",
    "Cobalt Ridge Mining",
    "Fernhill Academy",
    "Driftwood Hospitality",
    "Nimbus Care",
    "Orchard Lane Realty",
    "Stellan Automation",
    "Wexford Water",
    "Juniper Mobility",
    "Castellan Security",
    "Mapleton Council",
    "Cedarline Dental",
    "Sable Apparel",
    "Northgate Transit",
    "Amberly Hotel Group",
]
PROJECTS = [
    "Atlas",
    "Borealis",
    "Cinder",
    "Driftnet",
    "Ember",
    "Falcon",
    "Granite",
    "Halcyon",
    "Juniper",
    "Kodiak",
    "Lantern",
    "Monsoon",
    "Nebula",
    "Obsidian",
    "Paragon",
    "Quarry",
    "Riptide",
    "Sable",
    "Tundra",
    "Umbra",
    "Vesper",
    "Willow",
    "Yarrow",
    "Zenith",
    "Kestrel",
    "Cobalt",
]
ROOMS = [
    "Atlas",
    "Birch",
    "Cedar",
    "Fjord",
    "Harbor",
    "Lighthouse",
    "Meadow",
    "Summit",
    "Aurora",
    "Basalt",
    "Willow",
    "Granite",
]
MEETINGS = [
    "the architecture review",
    "the ops review",
    "the weekly roadmap sync",
    "the incident review",
    "the design crit",
    "the security clinic",
    "the platform standup",
    "the payments standup",
    "the data team retro",
    "the customer escalation sync",
    "the hiring committee",
    "the sprint planning session",
    "the release readiness check",
    "the on-call handoff",
    "the monthly all-hands",
    "the product demo",
    "the capacity planning meeting",
    "the API guild meeting",
]
TEAMS = [
    "Platform",
    "Growth",
    "Data",
    "SRE",
    "Mobile",
    "Web",
    "Infra",
    "Security",
    "Core",
    "Commerce",
    "Developer Experience",
    "Reliability",
]
CITIES = [
    "Berlin",
    "Lisbon",
    "Toronto",
    "Austin",
    "Dublin",
    "Singapore",
    "Warsaw",
    "Nairobi",
    "Bangalore",
    "Melbourne",
    "Amsterdam",
    "Montreal",
]
REPOS = [
    "payments-monorepo",
    "infra-terraform",
    "web-frontend",
    "mobile-app",
    "data-pipelines",
    "platform-tools",
    "ledger-core",
    "search-indexer",
    "docs-site",
    "auth-gateway",
    "ml-models",
    "design-system",
    "analytics-etl",
    "edge-proxy",
    "api-schemas",
    "billing-workers",
]
CI_SYSTEMS = ["GitHub Actions", "Jenkins", "Buildkite", "CircleCI", "GitLab CI", "TeamCity", "Drone"]
LANGS = ["Go", "Rust", "Java", "Kotlin", "Python", "TypeScript", "Elixir", "Scala", "Ruby", "C#"]
QUEUES = ["Kafka", "RabbitMQ", "SQS", "NATS", "Pulsar", "Redis Streams"]
PLATFORMS = ["Kubernetes", "ECS", "Nomad", "Cloud Run", "Lambda", "bare-metal hosts"]
TICKET_PREFIXES = ["OPS", "PLAT", "BILL", "SEC", "DATA", "WEB", "MOB", "INFRA", "CS"]
FLAGS = [
    "new-checkout-flow",
    "dark-mode",
    "bulk-export",
    "smart-retries",
    "search-ranking-v2",
    "instant-payouts",
    "usage-based-billing",
    "sso-enforcement",
    "async-webhooks",
    "beta-dashboard",
    "inline-editing",
    "fast-refunds",
]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
NUMWORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}

HOSTS = []
for _s in SERVICES[:20]:
    for _n in (1, 2, 3):
        HOSTS.append(f"db-{_s}-{_n}")
SHARED_HOSTS = ["pg-shared-1", "pg-shared-2", "pg-main-1", "pg-main-2"]
HOSTS += SHARED_HOSTS

TECH = [  # (tech, purpose) for "service uses X"
    ("Redis", "caching"),
    ("Kafka", "event streaming"),
    ("Elasticsearch", "full-text search"),
    ("RabbitMQ", "job queues"),
    ("Memcached", "session caching"),
    ("gRPC", "internal calls"),
    ("GraphQL", "its public API"),
    ("Celery", "background jobs"),
    ("S3", "file storage"),
    ("DynamoDB", "feature state"),
]
CUST_FEATURES = [
    "SSO",
    "audit logging",
    "the data-export add-on",
    "priority support",
    "a dedicated Slack channel",
    "IP allowlisting",
    "SCIM provisioning",
    "a sandbox tenant",
]
REPO_CHECKS = [
    "a passing security scan",
    "two approvals",
    "signed commits",
    "a green integration test run",
    "a linked ticket",
]

PROPER = set()
for _lst in (PEOPLE, PROJECTS, ROOMS, TEAMS, CITIES, DAYS, MONTHS, LANGS, QUEUES, CI_SYSTEMS):
    for _x in _lst:
        PROPER.update(_x.split())
for _c in CUSTOMERS + CONTACTS:
    PROPER.update(_c.split())
PROPER.update(
    [
        "Postgres",
        "Kubernetes",
        "Prometheus",
        "GitHub",
        "Spinnaker",
        "PgBouncer",
        "Redis",
        "Kafka",
        "Elasticsearch",
        "RabbitMQ",
        "Memcached",
        "Celery",
        "DynamoDB",
        "GraphQL",
        "SSO",
        "SCIM",
        "IP",
        "Slack",
        "ServiceNow",
        "Rotterdam",
        "OpenSearch",
        "Confluence",
        "Jira",
        "Q3",
        "Q4",
    ]
)

for _c in CUSTOMERS:
    assert not _c.endswith("s"), _c

# --------------------------------------------------------------------------------------
# text helpers
# --------------------------------------------------------------------------------------


def cap(s: str) -> str:
    m = re.match(r"\S+", s)
    if m and re.fullmatch(r"[a-z]+('s)?[,.:;]?", m.group(0)):
        return s[0].upper() + s[1:]
    return s


def lower_first(s: str) -> str:
    m = re.match(r"\S+", s)
    if not m:
        return s
    tok = m.group(0)
    bare = re.sub(r"('s)?[,.:;]?$", "", tok)
    if bare in PROPER:
        return s
    if re.fullmatch(r"[A-Z][a-z]+('s)?[,.:;]?", tok):
        return s[0].lower() + s[1:]
    return s


class CapDict(dict[str, str]):
    def __missing__(self, k: str) -> str:
        low = k[0].lower() + k[1:]
        if low != k and dict.__contains__(self, low):
            return cap(dict.__getitem__(self, low))
        raise KeyError(k)


ART_RE = re.compile(r"\b([Aa]) (?=(?:[aeiouAEIOU](?!s)|[aeio])\w)")


S_POSS_RE = re.compile(r"\b(" + "|".join(x for x in SERVICES if x.endswith("s")) + r")'s\b", re.I)


def tidy(s: str) -> str:
    s = re.sub(r"\s+", " ", s).strip()
    s = S_POSS_RE.sub(lambda m: m.group(1) + "'", s)
    s = ART_RE.sub(lambda m: m.group(1) + "n ", s)
    s = s.replace(" ,", ",").replace("..", ".")
    return s


def fill(tpl: str, d: dict[str, str]) -> str:
    return tidy(tpl.format_map(CapDict(d)))


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", s.lower())).strip()


def words(s: str) -> int:
    return len(s.split())


def sentences(s: str) -> int:
    return len([p for p in re.split(r"(?<=[.!?])\s+", s.strip()) if p])


CUE_BASE_WORDS = [
    "now",
    "no longer",
    "anymore",
    "any more",
    "instead",
    "changed",
    "change",
    "moved",
    "move",
    "switched",
    "switch",
    "updated",
    "update",
    "as of",
    "starting",
    "going forward",
    "from now on",
    "bumped",
    "raised",
    "lowered",
    "rescheduled",
    "renamed",
    "replaced",
    "migrated",
    "migrate",
    "effective",
    "pushed",
    "pulled",
    "reassigned",
    "handed",
    "taken over",
    "took over",
    "upgraded",
    "downgraded",
    "rolled back",
    "revised",
    "corrected",
    "correction",
    "reversed",
    "slipped",
    "extended",
    "reduced",
    "increased",
    "stopped",
    "removed",
    "dropped",
    "relocated",
    "transferred",
    "went from",
    "grew",
    "ported",
    "rewritten",
    "reissued",
    "brought forward",
    "still",
    "again",
    "cut",
    "shortened",
    "tightened",
    "relaxed",
    "expanded",
    "down to",
    "was turned",
    "been turned",
]
CUE_EXTRA_WORDS = [
    "enabled",
    "disabled",
    "added",
    "joined",
    "left",
    "done",
    "finished",
    "cancelled",
    "turned off",
    "turned on",
    "won't be",
    "ripped",
    "resized",
]
CUE_BASE_RE = re.compile(r"\b(" + "|".join(re.escape(w) for w in CUE_BASE_WORDS) + r")\b", re.I)
CUE_ANY_RE = re.compile(r"\b(" + "|".join(re.escape(w) for w in CUE_BASE_WORDS + CUE_EXTRA_WORDS) + r")\b", re.I)
LOOP_RE = re.compile(
    r"\b(done|finished|cancelled|canceled|closed|dropped|dropping|"
    r"won't do|no need|decided not)\b",
    re.I,
)

# --------------------------------------------------------------------------------------
# values
# --------------------------------------------------------------------------------------


class Ordered(Protocol):
    """A value's sort key (an int or a tuple of ints); keys of one attribute compare with each other."""

    def __gt__(self, other: Any, /) -> bool: ...


class V:
    __slots__ = ("forms", "key", "ord")

    def __init__(self, key: object, forms: dict[str, list[str]], ord: Ordered | None = None) -> None:
        self.key, self.forms, self.ord = key, forms, ord

    def __repr__(self) -> str:
        return f"V({self.key!r})"


def plain(s: str, ord: Ordered | None = None, **extra: str | list[str]) -> V:
    f = {"v": [s]}
    f.update({k: (x if isinstance(x, list) else [x]) for k, x in extra.items()})
    return V(s, f, ord)


def v_day(d: str) -> V:
    return V(d, {"v": [d], "v_pl": [d + "s"]}, DAYS.index(d))


def v_secs(n: int) -> V:
    return V(n, {"v": [f"{n}s", f"{n} seconds"], "v_adj": [f"{n}-second", f"{n}s"]}, n)


def v_count(n: int) -> V:
    f = [str(n)] + ([NUMWORDS[n]] if n in NUMWORDS and n > 1 else [])
    return V(n, {"v": f}, n)


def v_days(n: int) -> V:
    return V(n, {"v": [f"{n} days"], "v_adj": [f"{n}-day"]}, n)


def v_gb(n: int) -> V:
    return V(n, {"v": [f"{n} GB", f"{n}GB"]}, n)


def v_ms(n: int) -> V:
    return V(n, {"v": [f"{n} ms", f"{n}ms", f"{n} milliseconds"]}, n)


def v_hours(n: int) -> V:
    f = ["1 hour", "one hour"] if n == 1 else [f"{n} hours"] + ([f"{NUMWORDS[n]} hours"] if n in NUMWORDS else [])
    return V(n, {"v": f}, n)


def v_pct(x: float) -> V:
    return V(x, {"v": [f"{x}%", f"{x} percent"]}, x)


def v_money_k(n: int) -> V:
    return V(n, {"v": [f"${n}k", f"${n},000"], "v_k": [f"${n}k"]}, n)


def v_money(a: int) -> V:
    return V(a, {"v": [f"${a:,}", f"${a:,}.00"]}, a)


def v_price(n: int) -> V:
    return V(n, {"v": [f"${n}"]}, n)


def v_rate(n: int) -> V:
    s = f"{n:,}"
    return V(n, {"v": [f"{s} requests a minute", f"{s} requests per minute", f"{s} req/min"]}, n)


def _ordinal(d: int) -> str:
    suf = "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    return f"{d}{suf}"


def v_date(m: int, d: int) -> V:
    M = MONTHS[m - 1]
    return V((m, d), {"v": [f"{M} {d}", f"{M} {_ordinal(d)}", f"{d} {M}"]}, (m, d))


def v_time(h: int, mi: int) -> V:
    h12 = h if h <= 12 else h - 12
    ap = "am" if h < 12 else "pm"
    if mi == 0:
        f = [f"{h:02d}:00", f"{h12}{ap}", f"{h12} {ap}"]
    else:
        f = [f"{h:02d}:{mi:02d}", f"{h12}:{mi:02d}{ap}", f"{h12}:{mi:02d} {ap}"]
    return V((h, mi), {"v": f}, (h, mi))


def v_team(t: str) -> V:
    return V(t, {"v": [f"the {t} team"], "v_bare": [t]})


def v_room(r: str) -> V:
    return V(r, {"v": [f"the {r} room"], "v_bare": [r]})


def v_semver(s: str) -> V:
    return V(s, {"v": [s, "v" + s]}, tuple(int(x) for x in s.split(".")))


def v_prio(n: int) -> V:
    return V(f"P{n}", {"v": [f"P{n}"]}, -n)


def v_sev(n: int) -> V:
    return V(f"SEV{n}", {"v": [f"SEV{n}", f"Sev{n}", f"sev-{n}"]}, -n)


DATE_POOL = sorted({(POOL.randint(1, 12), POOL.randint(1, 28)) for _ in range(60)})
DATES = [v_date(m, d) for m, d in DATE_POOL]
TIMES = [v_time(h, m) for h in range(8, 18) for m in (0, 30) if h != 12]
MONEY_EXACT = sorted({POOL.randrange(1200, 98000, 50) for _ in range(40)})
SEMVERS = [
    "1.9.4",
    "2.13.0",
    "2.14.0",
    "2.14.1",
    "2.15.0",
    "3.0.0",
    "3.0.2",
    "3.1.0",
    "3.2.5",
    "4.0.1",
    "4.1.0",
    "4.2.3",
]
RUNBOOKS = [f"RB-{n}" for n in sorted({POOL.randint(100, 480) for _ in range(20)})]

# --------------------------------------------------------------------------------------
# subjects
# --------------------------------------------------------------------------------------
STOP = {
    "the",
    "service",
    "team",
    "api",
    "review",
    "sync",
    "standup",
    "weekly",
    "project",
    "office",
    "hours",
    "room",
    "meeting",
    "session",
    "check",
    "a",
    "of",
    "and",
}


# a subject: "_t" its type, "_id" its identity, the other keys its template placeholders
Subject: TypeAlias = dict[str, Any]
# a generated pair: (a, b, relation, kind_a, kind_b, frame)
Pair: TypeAlias = tuple[str, str, str, str, str, str]


def mk(stype: str, **ph: str) -> Subject:
    return {"_t": stype, "_id": (stype, *sorted(ph.items())), **ph}


def subj_tokens(s: Subject) -> set[str]:
    toks = set()
    for k, v in s.items():
        if k.startswith("_"):
            continue
        for t in re.split(r"[^a-z0-9]+", str(v).lower()):
            if (t and t not in STOP and not t.isdigit()) or (t.isdigit() and len(t) >= 3):
                toks.add(t)
    return toks


def _ticket() -> str:
    return f"{R.choice(TICKET_PREFIXES)}-{R.randint(100, 4999)}"


def _inc() -> str:
    return f"INC-{R.randint(1000, 9899)}"


def _inv() -> str:
    return f"INV-{R.choice([2023, 2024, 2025])}-{R.randint(1, 2999):04d}"


def _ord() -> str:
    return R.choice(["ORD-", "PO-"]) + str(R.randint(10000, 99999))


GEN: dict[str, Callable[[], Subject]] = {
    "svc": lambda: mk("svc", svc=R.choice(SERVICES)),
    "svcenv": lambda: mk("svcenv", svc=R.choice(SERVICES), env=R.choice(ENVS)),
    "tier": lambda: mk("tier", tier=R.choice(TIERS)),
    "env": lambda: mk("env", env=R.choice(ENVS)),
    "region": lambda: mk("region", region=R.choice(REGIONS)),
    "api": lambda: mk("api", api=R.choice(APIS)),
    "host": lambda: mk("host", host=R.choice(HOSTS[: -len(SHARED_HOSTS)])),
    "repo": lambda: mk("repo", repo=R.choice(REPOS)),
    "ticket": lambda: mk("ticket", ticket=_ticket()),
    "inc": lambda: mk("inc", inc=_inc()),
    "cust": lambda: mk("cust", cust=R.choice(CUSTOMERS)),
    "inv": lambda: mk("inv", inv=_inv()),
    "ord": lambda: mk("ord", ord=_ord()),
    "proj": lambda: mk("proj", proj=R.choice(PROJECTS)),
    "meet": lambda: mk("meet", meet=R.choice(MEETINGS)),
    "person": lambda: mk("person", person=R.choice(PEOPLE)),
    "team": lambda: mk("team", team=R.choice(TEAMS)),
    "flagenv": lambda: mk("flagenv", flag=R.choice(FLAGS), env=R.choice(ENVS)),
}


def _near_id(s: str) -> str:
    pre, num = s.rsplit("-", 1)
    n = int(num)
    delta = R.choice([-1, 1]) * R.randint(1, 25)
    m = max(1, n + delta)
    return f"{pre}-{m:0{len(num)}d}"


def neighbour(s: Subject) -> Subject:
    """A different subject of the same type, often a near one (db-billing-1 / db-billing-2)."""
    t = s["_t"]
    for _ in range(50):
        if t == "svcenv":
            n = (
                mk(t, svc=s["svc"], env=R.choice(ENVS))
                if R.random() < 0.6
                else mk(t, svc=R.choice(SERVICES), env=s["env"])
            )
        elif t == "flagenv":
            n = (
                mk(t, flag=s["flag"], env=R.choice(ENVS))
                if R.random() < 0.6
                else mk(t, flag=R.choice(FLAGS), env=s["env"])
            )
        elif t == "ticket" and R.random() < 0.7:
            n = mk(
                t,
                ticket=_near_id(s["ticket"])
                if R.random() < 0.7
                else R.choice(TICKET_PREFIXES) + "-" + s["ticket"].split("-")[1],
            )
        elif t == "inc" and R.random() < 0.7:
            n = mk(t, inc=_near_id(s["inc"]))
        elif t == "inv" and R.random() < 0.7:
            n = mk(t, inv=_near_id(s["inv"]))
        elif t == "ord" and R.random() < 0.7:
            n = mk(t, ord=_near_id(s["ord"]))
        elif t == "host" and R.random() < 0.7:
            base, num = s["host"].rsplit("-", 1)
            n = mk(t, host=f"{base}-{R.choice([x for x in (1, 2, 3, 4) if x != int(num)])}")
        else:
            n = GEN[t]()
        if n["_id"] != s["_id"]:
            return n
    raise RuntimeError("no neighbour")


# --------------------------------------------------------------------------------------
# attributes  (subject type, value pool, paraphrase templates, cued templates, ...)
# --------------------------------------------------------------------------------------


# an attribute's values: a fixed list, or a function of the subject
Values: TypeAlias = "list[V] | Callable[[Subject], list[V]]"
# a template or verb, optionally with the direction ("up"/"down") the change must go in
Cued: TypeAlias = "str | tuple[str, str | None]"


class Attr:
    def __init__(
        self,
        key: str,
        stype: str,
        vclass: str,
        values: Values,
        base: Iterable[str],
        cued: Iterable[Cued] = (),
        np: str | None = None,
        verbs: Iterable[Cued] = (),
        q: Iterable[str] = (),
        details: Iterable[str] = (),
        kind: str = "fact",
        cross: bool = True,
    ) -> None:
        self.key, self.stype, self.vclass = key, stype, vclass
        self._values = values
        self.base = list(base)
        self.cued = [c if isinstance(c, tuple) else (c, None) for c in cued]
        self.np = np
        self.verbs = [v if isinstance(v, tuple) else (v, None) for v in verbs]
        self.q = list(q)
        self.details = list(details)
        self.kind = kind
        self.cross = cross  # may another subject carry the same value?
        self.past = False  # a past event: forward-looking cues ("going forward") make no sense

    def values(self, subj: Subject) -> list[V]:
        return self._values(subj) if callable(self._values) else self._values


ATTRS: dict[str, Attr] = {}


def A(*args: Any, **kw: Any) -> Attr:
    a = Attr(*args, **kw)
    ATTRS[a.key] = a
    return a


UPDOWN: list[Cued] = [
    ("bumped to", "up"),
    ("raised to", "up"),
    ("increased to", "up"),
    ("lowered to", "down"),
    ("reduced to", "down"),
    ("cut to", "down"),
    ("changed to", None),
]

A(
    "svc.deploy_day",
    "svc",
    "day",
    [v_day(d) for d in DAYS],
    [
        "The {svc} service deploys on {v_pl}.",
        "{Svc} ships to production every {v}.",
        "We deploy the {svc} service on {v_pl}.",
        "Deploys for the {svc} service go out on {v_pl}.",
        "The release day for the {svc} service is {v}.",
        "The weekly {svc} release happens on {v}.",
    ],
    cued=[
        "The {svc} service now deploys on {v_pl}.",
        "We no longer deploy {svc} on {old_pl}; it ships on {v_pl} instead.",
        "{Svc} releases moved from {old_pl} to {v_pl}.",
        "Starting next sprint, {svc} ships every {v}.",
        "{Svc} deploys on {v_pl} now.",
    ],
    np="the {svc} service's deploy day",
    verbs=["moved to", "changed to"],
    q=["What day does the {svc} service deploy?", "Which day do we ship {svc} on?"],
    details=[
        ", right after the morning code freeze lifts",
        ", using the canary pipeline",
        ". Each rollout takes about twenty minutes",
        ", and the release notes go to the #releases channel",
    ],
)


def _db_values(s: Subject) -> list[V]:
    own = [plain(f"db-{s['svc']}-{n}") for n in (1, 2, 3, 4)]
    return own + [plain(h) for h in SHARED_HOSTS]


A(
    "svc.primary_db",
    "svc",
    "host",
    _db_values,
    [
        "The {svc} service's primary database is {v}.",
        "{Svc} writes to {v} as its primary database.",
        "The primary DB for {svc} is {v}.",
        "{Svc}'s main database lives on the {v} host.",
        "The {svc} service uses {v} as its primary database.",
    ],
    cued=[
        "The {svc} service's primary database is now {v}.",
        "{Svc}'s primary database was migrated from {old} to {v}.",
        "{old} has been replaced by {v} as the primary database for {svc}.",
        "{Svc} no longer writes to {old}; its primary is {v} instead.",
        "{Svc} writes to {v} now.",
    ],
    np="the {svc} service's primary database",
    verbs=["moved to", "migrated to", "switched to"],
    q=["Which host is the {svc} service's primary database?", "Where does {svc} keep its primary database?"],
    details=[", which runs Postgres 15", ". Backups of it run nightly", ", and failover to the replica is manual"],
)

A(
    "svc.timeout",
    "svc",
    "secs",
    [v_secs(n) for n in (5, 10, 15, 20, 30, 45, 60, 90, 120)],
    [
        "The {svc} API's request timeout is {v}.",
        "Requests to the {svc} API time out after {v}.",
        "{Svc} API calls have a {v_adj} timeout.",
        "The {svc} API gives up on a request after {v}.",
        "The timeout on {svc} API requests is {v}.",
    ],
    cued=[
        "The {svc} API's request timeout is now {v}.",
        "Requests to the {svc} API now time out after {v} instead of {old}.",
        ("We raised the {svc} API timeout from {old} to {v}.", "up"),
        ("We lowered the {svc} API timeout from {old} to {v}.", "down"),
    ],
    np="the {svc} API's request timeout",
    verbs=UPDOWN,
    q=["What's the request timeout on the {svc} API?", "How long before requests to the {svc} API time out?"],
    details=[
        ", which matches the load balancer's idle timeout",
        ", and timed-out requests are logged with a warning",
        ". Clients see a 504 when it is hit",
    ],
)

A(
    "svc.retry_limit",
    "svc",
    "small",
    [v_count(n) for n in range(2, 9)],
    [
        "The {svc} client retries a failed call up to {v} times.",
        "The retry limit on the {svc} client is {v}.",
        "{Svc} gives up after {v} retries.",
        "Failed {svc} calls are retried at most {v} times.",
    ],
    cued=[
        "The {svc} client now retries failed calls up to {v} times.",
        "{Svc} gives up after {v} retries now, not {old}.",
    ],
    np="the {svc} client's retry limit",
    verbs=UPDOWN,
    q=["How many times does the {svc} client retry a failed call?"],
    details=[
        ", with exponential backoff between attempts",
        ", and each retry is logged at debug level",
        ". Only idempotent requests are retried",
    ],
)

PORTS = [3000, 4000, 5000, 6060, 7000, 8000, 8080, 8081, 8443, 9000, 9090, 9443]
A(
    "svc.port",
    "svc",
    "port",
    [plain(str(p), ord=p) for p in PORTS],
    [
        "The {svc} service listens on port {v}.",
        "The {svc} service runs on port {v}.",
        "The port for the {svc} service is {v}.",
        "Port {v} is where the {svc} service listens.",
        "The {svc} service serves traffic on port {v}.",
    ],
    cued=[
        "The {svc} service now listens on port {v}.",
        "{Svc} moved from port {old} to port {v}.",
        "{Svc} listens on port {v} now instead of {old}.",
    ],
    np="the {svc} service's port",
    verbs=["changed to", "moved to"],
    q=["What port does the {svc} service listen on?", "Which port is {svc} on?"],
    details=[
        ", behind the internal load balancer",
        ", and health checks hit /healthz on the same port",
        ". Only the mesh sidecar talks to it directly",
    ],
)

A(
    "svc.metrics_port",
    "svc",
    "port",
    [plain(str(p), ord=p) for p in PORTS],
    [
        "The {svc} service exposes metrics on port {v}.",
        "Prometheus scrapes {svc} on port {v}.",
        "{Svc}'s metrics endpoint is on port {v}.",
    ],
    cued=["Prometheus now scrapes {svc} on port {v}.", "{Svc}'s metrics endpoint moved from port {old} to {v}."],
    np="the {svc} service's metrics port",
    verbs=["changed to", "moved to"],
    q=["Which port does {svc} expose metrics on?"],
    details=[", under the /metrics path", ", and the scrape interval is fifteen seconds"],
)

A(
    "svc.owner_team",
    "svc",
    "team",
    [v_team(t) for t in TEAMS],
    [
        "The {svc} service is owned by {v}.",
        "{V} owns the {svc} service.",
        "{Svc} belongs to {v}.",
        "Ownership of {svc} sits with {v}.",
    ],
    cued=[
        "{Svc} is now owned by {v}.",
        "Ownership of {svc} moved from {old} to {v}.",
        "{V} has taken over ownership of the {svc} service.",
        "The {svc} service was handed over to {v}.",
        "Ownership of {svc} was transferred from {old} to {v}.",
    ],
    np="the owning team for {svc}",
    q=["Which team owns the {svc} service?", "Who owns {svc}?"],
    details=[", and they run its on-call rotation", ". Its roadmap is reviewed in their monthly planning"],
)

A(
    "svc.oncall",
    "svc",
    "person",
    [plain(p) for p in PEOPLE],
    [
        "{V} is on call for {svc} this week.",
        "This week's {svc} on-call engineer is {v}.",
        "The {svc} pager is with {v} this week.",
        "Page {v} for {svc} issues this week.",
    ],
    cued=[
        "{V} is now on call for {svc} this week.",
        "{V} swapped in and is on call for {svc} this week instead of {old}.",
        "The {svc} pager moved from {old} to {v} for the rest of the week.",
    ],
    np="the {svc} on-call engineer this week",
    verbs=["changed to"],
    q=["Who is on call for {svc} this week?"],
    details=[", with {p2} as secondary", ". The handoff happens at the end of the week"],
)

A(
    "svc.region",
    "svc",
    "region",
    [plain(r) for r in REGIONS],
    [
        "The {svc} service's primary region is {v}.",
        "{Svc} is primarily hosted in {v}.",
        "{Svc} runs mainly out of {v}.",
        "The main region for {svc} is {v}.",
    ],
    cued=[
        "{Svc} is now primarily hosted in {v}.",
        "{Svc}'s primary region moved from {old} to {v}.",
        "We migrated {svc} from {old} to {v}.",
    ],
    np="the {svc} service's primary region",
    verbs=["moved to", "migrated to", "switched to"],
    q=["Which region is the {svc} service primarily hosted in?"],
    details=[", with a warm standby in a second region", ", close to most of its traffic"],
)

A(
    "svc.language",
    "svc",
    "lang",
    [plain(lang) for lang in LANGS],
    [
        "The {svc} service is written in {v}.",
        "The {svc} service is a {v} codebase.",
        "We built the {svc} service in {v}.",
        "All of the {svc} codebase is {v}.",
    ],
    cued=[
        "{Svc} has been rewritten in {v}.",
        "The {svc} service was ported from {old} to {v}.",
        "{Svc} is written in {v} now; the {old} version is gone.",
    ],
    np="the implementation language of {svc}",
    q=["What language is the {svc} service written in?"],
    details=[", with most of the logic in a single module", ". Its test suite runs in about four minutes"],
)

A(
    "svc.alert",
    "svc",
    "ms",
    [v_ms(n) for n in (200, 250, 300, 400, 500, 750, 1000, 1500, 2000)],
    [
        "The {svc} latency alert fires when p99 goes above {v}.",
        "We page on {svc} if p99 latency exceeds {v}.",
        "The p99 alert threshold for {svc} is {v}.",
    ],
    cued=["The {svc} latency alert now fires when p99 goes above {v}.", "We page on {svc} at {v} p99 now, not {old}."],
    np="the {svc} p99 alert threshold",
    verbs=UPDOWN,
    q=["At what p99 latency does the {svc} alert fire?"],
    details=[", sustained for five minutes", ", and it pages the primary on-call"],
)

A(
    "svc.log_retention",
    "svc",
    "days",
    [v_days(n) for n in (7, 14, 30, 60, 90, 180, 365)],
    [
        "Logs for the {svc} service are kept for {v}.",
        "{Svc} log retention is {v}.",
        "We keep {svc} logs for {v}.",
        "The {svc} service has a {v_adj} log retention window.",
    ],
    cued=[
        "{Svc} logs are now kept for {v}.",
        ("We extended {svc} log retention from {old} to {v}.", "up"),
        ("We shortened {svc} log retention from {old} to {v}.", "down"),
    ],
    np="{svc} log retention",
    verbs=[
        ("extended to", "up"),
        ("raised to", "up"),
        ("cut to", "down"),
        ("shortened to", "down"),
        ("changed to", None),
    ],
    q=["How long do we keep {svc} logs?"],
    details=[", after which they are archived to cold storage", ", in the central logging cluster"],
)


def _rollback_values(s: Subject) -> list[V]:
    n = s["svc"]
    return [
        plain(f"`deployctl rollback {n}`"),
        plain("the Rollback button in Spinnaker"),
        plain(f"`make rollback SERVICE={n}`"),
        plain("a revert PR followed by a normal deploy"),
        plain(f"`kubectl rollout undo deployment/{n}`"),
    ]


A(
    "svc.rollback",
    "svc",
    "cmd",
    _rollback_values,
    [
        "To roll back {svc}, use {v}.",
        "Rolling back the {svc} service is done with {v}.",
        "The {svc} rollback procedure is {v}.",
        "We roll back {svc} with {v}.",
    ],
    cued=["{Svc} rollbacks go through {v} now.", "Going forward, roll back {svc} with {v}, not {old}."],
    np="the rollback procedure for {svc}",
    q=["How do I roll back the {svc} service?"],
    details=[", and then post a note in #deploys", ", which takes about five minutes"],
    kind="procedure",
    cross=False,
)

A(
    "svc.hotfix_approvals",
    "svc",
    "small",
    [v_count(n) for n in (2, 3, 4)],
    [
        "Hotfixes to {svc} need {v} approvals before merging.",
        "A {svc} hotfix can't merge without {v} approvals.",
        "Merging a hotfix into {svc} requires {v} approvals.",
    ],
    cued=[
        "{Svc} hotfixes now need {v} approvals.",
        ("We raised the hotfix approval count for {svc} from {old} to {v}.", "up"),
        ("We lowered the hotfix approval count for {svc} from {old} to {v}.", "down"),
    ],
    np="the number of approvals a {svc} hotfix needs",
    verbs=UPDOWN[1:2] + UPDOWN[3:4],
    q=["How many approvals does a {svc} hotfix need?"],
    details=[", one of them from the owning team", ", and the on-call engineer must be tagged"],
    kind="procedure",
)

A(
    "svc.runbook",
    "svc",
    "runbook",
    [V(r, {"v": [r, f"runbook {r}"]}) for r in RUNBOOKS],
    [
        "The {svc} failover runbook is {v}.",
        "For a {svc} failover, follow {v}.",
        "{Svc} failovers are documented in {v}.",
    ],
    cued=["The {svc} failover runbook was replaced by {v}.", "Use {v} for {svc} failovers now; {old} is retired."],
    np="the {svc} failover runbook",
    verbs=["replaced by"],
    q=["Which runbook covers a {svc} failover?"],
    details=[", which has a checklist for the database step", ", kept in the ops wiki"],
    kind="procedure",
)

A(
    "svc.platform_plan",
    "svc",
    "platform",
    [plain(p) for p in PLATFORMS],
    [
        "The plan is to run {svc} on {v} from next quarter.",
        "We intend to put {svc} on {v} next quarter.",
        "Next quarter, {svc} is going onto {v}.",
        "Our target platform for {svc} is {v}.",
    ],
    cued=[
        "Change of plan: {svc} will go onto {v}, not {old}.",
        "We dropped the {old} plan for {svc}; it is going onto {v} instead.",
        "Updated plan: {svc} targets {v} next quarter.",
    ],
    np="the target platform for {svc}",
    verbs=["changed to", "switched to"],
    q=["Which platform should {svc} go onto next quarter?"],
    details=[", once the load tests pass", ", beginning with the read path"],
    kind="plan",
)

A(
    "tier.rate_limit",
    "tier",
    "rate",
    [v_rate(n) for n in (60, 100, 120, 300, 500, 600, 1000, 2000, 5000, 10000)],
    [
        "The {tier} tier's rate limit is {v}.",
        "{Tier} plan customers get {v}.",
        "On the {tier} tier, the API allows {v}.",
        "API calls on the {tier} plan are capped at {v}.",
        "The API rate limit for {tier} accounts is {v}.",
    ],
    cued=["The {tier} tier's rate limit is now {v}.", "{Tier} plan customers now get {v} instead of {old}."],
    np="the {tier} tier's rate limit",
    verbs=UPDOWN,
    q=["What is the API rate limit on the {tier} tier?"],
    details=[", enforced per API key", ", and bursts above it get a 429", ". The counter resets every minute"],
)

A(
    "tier.price",
    "tier",
    "price",
    [v_price(n) for n in (5, 8, 10, 12, 15, 18, 20, 25, 30, 40, 49)],
    [
        "The {tier} plan costs {v} per seat per month.",
        "A {tier} seat is {v} a month.",
        "We charge {v} per user per month on the {tier} tier.",
        "{Tier} pricing is {v} per seat monthly.",
    ],
    cued=["The {tier} plan now costs {v} per seat per month.", "{Tier} seats went from {old} to {v} a month."],
    np="the {tier} plan's per-seat price",
    verbs=[("raised to", "up"), ("lowered to", "down"), ("cut to", "down")],
    q=["How much does a {tier} seat cost per month?"],
    details=[", billed annually", ", with volume discounts above fifty seats", ". Taxes come on top"],
)

A(
    "tier.support",
    "tier",
    "hours",
    [v_hours(n) for n in (1, 2, 4, 8, 12, 24, 48)],
    [
        "Support responds to {tier} customers within {v}.",
        "The first-response target for {tier} tickets is {v}.",
        "{Tier} support tickets get a reply within {v}.",
    ],
    cued=[
        "Support now responds to {tier} customers within {v}.",
        "The first-response target for {tier} tickets went from {old} to {v}.",
    ],
    np="the {tier} support response target",
    verbs=[("tightened to", "down"), ("relaxed to", "up"), ("changed to", None)],
    q=["What's the support response target for {tier} customers?"],
    details=[", on business days", ", measured from when the ticket is opened"],
)

A(
    "env.pg_version",
    "env",
    "pg",
    [plain(str(n), ord=n) for n in (12, 13, 14, 15, 16, 17)],
    [
        "The {env} environment runs Postgres {v}.",
        "The {env} database is on Postgres {v}.",
        "Postgres in {env} is version {v}.",
        "Our {env} environment uses Postgres {v}.",
    ],
    cued=[
        "{Env} is on Postgres {v} now.",
        ("The {env} database was upgraded from Postgres {old} to {v}.", "up"),
        ("The {env} database was rolled back from Postgres {old} to {v}.", "down"),
    ],
    np="the Postgres version in {env}",
    verbs=[("upgraded to", "up"), ("bumped to", "up"), ("rolled back to", "down")],
    q=["Which Postgres version does {env} run?"],
    details=[", with the pgvector extension installed", ", on a managed instance"],
)

A(
    "env.db_access",
    "env",
    "place",
    [
        plain(x)
        for x in (
            "the Access Portal",
            "the #db-access channel",
            "a SEC ticket",
            "ServiceNow",
            "the infra-requests form",
        )
    ],
    [
        "To get {env} database access, file a request in {v}.",
        "{Env} DB access requests go through {v}.",
        "Ask for {env} database access via {v}.",
    ],
    cued=[
        "{Env} DB access requests go through {v} now.",
        "Going forward, request {env} database access through {v} instead of {old}.",
    ],
    np="the place to request {env} database access",
    q=["How do I request {env} database access?"],
    details=[", and approval usually takes a day", ", with access expiring after a week"],
    kind="procedure",
)

A(
    "svcenv.version",
    "svcenv",
    "semver",
    [v_semver(s) for s in SEMVERS],
    [
        "{Svc} in {env} is running version {v}.",
        "The {env} deployment of {svc} is on {v}.",
        "{Env} has {svc} {v} deployed.",
        "We have {svc} {v} in {env}.",
    ],
    cued=[
        "{Svc} in {env} is on {v} now.",
        ("{Env} was upgraded from {svc} {old} to {v}.", "up"),
        ("{Svc} in {env} was rolled back from {old} to {v}.", "down"),
    ],
    np="the {svc} version in {env}",
    verbs=[("bumped to", "up"), ("upgraded to", "up"), ("rolled back to", "down")],
    q=["Which version of {svc} is running in {env}?"],
    details=[", built from the main branch", ", and its release notes are on the wiki"],
)

A(
    "region.k8s",
    "region",
    "k8s",
    [plain(f"1.{n}", ord=n) for n in range(26, 32)],
    [
        "Our {region} cluster runs Kubernetes {v}.",
        "The {region} Kubernetes cluster is on {v}.",
        "Kubernetes in {region} is version {v}.",
    ],
    cued=[
        ("The {region} cluster was upgraded to Kubernetes {v}.", "up"),
        "Our {region} cluster is on Kubernetes {v} now.",
    ],
    np="the Kubernetes version in {region}",
    verbs=[("upgraded to", "up"), ("bumped to", "up"), ("rolled back to", "down")],
    q=["Which Kubernetes version is the {region} cluster on?"],
    details=[", with node autoscaling on the worker pools", ", managed through the infra-terraform repo"],
)

A(
    "api.sunset",
    "api",
    "date",
    DATES,
    [
        "API {api} will be sunset on {v}.",
        "API {api} reaches end of life on {v}.",
        "We turn off API {api} on {v}.",
        "The sunset date for the {api} API is {v}.",
    ],
    cued=[
        "The {api} API sunset was pushed to {v}.",
        "API {api} now reaches end of life on {v}.",
        "The {api} API sunset moved from {old} to {v}.",
    ],
    np="the sunset date for API {api}",
    verbs=[("pushed back to", "up"), ("moved to", None), ("brought forward to", "down")],
    q=["When is API {api} being sunset?"],
    details=[", and customers get a deprecation header until then", ", after a six-month notice period"],
)

A(
    "host.ram",
    "host",
    "gb",
    [v_gb(n) for n in (16, 32, 64, 128, 256, 512)],
    ["The {host} host has {v} of RAM.", "The {host} box has {v} of memory.", "{host} is provisioned with {v} of RAM."],
    cued=["{host} has {v} of RAM now.", "{host} was resized from {old} to {v} of RAM."],
    np="the RAM on {host}",
    verbs=[("upgraded to", "up"), ("bumped to", "up"), ("reduced to", "down")],
    q=["How much RAM does {host} have?"],
    details=[", and about half of it goes to the buffer cache", ", on a dedicated instance"],
)

A(
    "host.max_conn",
    "host",
    "int",
    [plain(str(n), ord=n) for n in (100, 200, 300, 400, 500, 800, 1000, 1500)],
    [
        "{host} allows up to {v} database connections.",
        "max_connections on the {host} database is {v}.",
        "The connection limit on {host} is {v}.",
    ],
    cued=["max_connections on {host} is {v} now.", "The connection limit on {host} went from {old} to {v}."],
    np="the connection limit on {host}",
    verbs=UPDOWN,
    q=["What is max_connections on {host}?"],
    details=[", and PgBouncer sits in front of it", ", with a few slots reserved for superusers"],
)

A(
    "repo.ci",
    "repo",
    "ci",
    [plain(c) for c in CI_SYSTEMS],
    [
        "The {repo} repo builds on {v}.",
        "CI for {repo} runs on {v}.",
        "{repo} uses {v} for CI.",
        "Pipelines for {repo} are in {v}.",
    ],
    cued=[
        "CI for {repo} runs on {v} now.",
        "{repo} CI was migrated from {old} to {v}.",
        "We no longer build {repo} on {old}; it uses {v} instead.",
    ],
    np="the CI system for {repo}",
    verbs=["migrated to", "moved to", "switched to"],
    q=["Which CI system does {repo} build on?"],
    details=[", and a full run takes about twelve minutes", ", with required checks on every pull request"],
)

A(
    "repo.branch",
    "repo",
    "branch",
    [V(b, {"v": [b, f"`{b}`"]}) for b in ("main", "master", "trunk", "develop", "release")],
    [
        "The default branch of {repo} is {v}.",
        "{repo}'s default branch is {v}.",
        "In {repo}, pull requests target {v} by default.",
    ],
    cued=["The default branch of {repo} was renamed from {old} to {v}.", "{repo}'s default branch is {v} now."],
    np="the default branch of {repo}",
    verbs=["renamed to", "changed to"],
    q=["What's the default branch in {repo}?"],
    details=[", and it is protected against force-pushes", ", and merges to it trigger a staging deploy"],
)

A(
    "ticket.assignee",
    "ticket",
    "person",
    [plain(p) for p in PEOPLE],
    [
        "Ticket {ticket} is assigned to {v}.",
        "{V} is the owner of ticket {ticket}.",
        "Ticket {ticket} is on {v}'s plate.",
        "The assignee on {ticket} is {v}.",
    ],
    cued=[
        "Ticket {ticket} was reassigned to {v}.",
        "{ticket} moved from {old} to {v}.",
        "{V} has taken over {ticket} from {old}.",
    ],
    np="the assignee on {ticket}",
    verbs=["changed to"],
    q=["Who is {ticket} assigned to?", "Who owns {ticket}?"],
    details=[", and it is due by the end of the sprint", ", with a draft fix up for review"],
)

A(
    "ticket.priority",
    "ticket",
    "prio",
    [v_prio(n) for n in range(0, 5)],
    [
        "Ticket {ticket} is a {v} issue.",
        "Ticket {ticket} has been given priority {v}.",
        "The priority on ticket {ticket} is {v}.",
        "We triaged ticket {ticket} as a {v}.",
    ],
    cued=[("{ticket} was bumped to {v}.", "up"), ("{ticket} was downgraded to {v}.", "down"), "{ticket} is a {v} now."],
    np="the priority on {ticket}",
    verbs=[("raised to", "up"), ("lowered to", "down"), ("changed to", None)],
    q=["What priority is {ticket}?"],
    details=[" because it blocks the {svc2} release", ", and it is in the current sprint"],
)

A(
    "inc.severity",
    "inc",
    "sev",
    [v_sev(n) for n in range(1, 5)],
    [
        "{inc} is being handled as a {v} incident.",
        "{inc} was declared a {v} by the incident commander.",
        "We're treating {inc} as a {v}.",
        "The severity of {inc} is {v}.",
    ],
    cued=[("{inc} was downgraded to {v}.", "down"), ("{inc} was upgraded to {v}.", "up"), "{inc} is a {v} now."],
    np="the severity of {inc}",
    verbs=[("raised to", "up"), ("lowered to", "down")],
    q=["What severity is {inc}?"],
    details=[" and has its own Slack channel", ", with {p2} as incident commander"],
)

ROOT_CAUSES = [
    "an expired TLS certificate",
    "a bad config push",
    "connection pool exhaustion",
    "a DNS misconfiguration",
    "a full disk on the primary database",
    "a runaway cron job",
    "a memory leak in the worker pool",
    "a schema migration that locked a hot table",
    "a misrouted load balancer rule",
    "an upstream provider outage",
]
A(
    "inc.root_cause",
    "inc",
    "cause",
    [plain(c) for c in ROOT_CAUSES],
    [
        "The root cause of {inc} was {v}.",
        "{inc} was caused by {v}.",
        "{inc} was traced to {v}.",
        "The postmortem for {inc} attributes it to {v}.",
    ],
    cued=[
        "Correction: {inc} was actually caused by {v}, not {old}.",
        "The {inc} postmortem was updated: the root cause was {v} rather than {old}.",
    ],
    np="the root cause of {inc}",
    verbs=["updated to", "revised to"],
    q=["What was the root cause of {inc}?"],
    details=[", according to the timeline in the postmortem", ", and the fix shipped the same day"],
)

A(
    "inc.peak_error",
    "inc",
    "pct",
    [v_pct(x) for x in (3, 5, 8, 12, 18, 25, 30, 40, 60)],
    [
        "During {inc}, the error rate peaked at {v}.",
        "At its worst, {inc} had an error rate of {v}.",
        "The peak error rate in {inc} was {v}.",
    ],
    cued=[
        "Revised numbers for {inc}: the error rate peaked at {v}, not {old}.",
        "Updated: the peak error rate in {inc} was {v}.",
    ],
    np="the peak error rate in {inc}",
    verbs=["revised to", "corrected to"],
    q=["How high did the error rate get during {inc}?"],
    details=[", mostly on write requests", ", and it recovered within half an hour"],
    kind="observation",
)

A(
    "cust.am",
    "cust",
    "person",
    [plain(p) for p in PEOPLE],
    [
        "{Cust}'s account manager is {v}.",
        "{V} is the account manager for {cust}.",
        "{V} manages the {cust} account.",
        "The {cust} account is handled by {v}.",
        "Our account manager on {cust} is {v}.",
    ],
    cued=[
        "{Cust}'s account manager is now {v}.",
        "The {cust} account was handed over from {old} to {v}.",
        "{V} has taken over the {cust} account from {old}.",
        "{Old} no longer manages {cust}; {v} does instead.",
    ],
    np="the account manager for {cust}",
    verbs=["changed to", "reassigned to"],
    q=["Who is the account manager for {cust}?", "Who manages the {cust} account?"],
    details=[" and runs their quarterly business reviews", ", and joins their monthly check-in call"],
)

A(
    "cust.sponsor",
    "cust",
    "person",
    [plain(p) for p in PEOPLE],
    [
        "{V} is the executive sponsor for {cust}.",
        "{Cust}'s executive sponsor on our side is {v}.",
        "Our exec sponsor for {cust} is {v}.",
    ],
    cued=["Our exec sponsor for {cust} is now {v}.", "{V} took over as executive sponsor for {cust} from {old}."],
    np="the executive sponsor for {cust}",
    verbs=["changed to"],
    q=["Who is our executive sponsor for {cust}?"],
    details=[", and joins the annual planning session with them"],
)

A(
    "cust.plan",
    "cust",
    "tier",
    [plain(t, ord=i) for i, t in enumerate(TIERS)],
    [
        "{Cust} is a customer on the {v} plan.",
        "{Cust} pays for the {v} tier.",
        "{Cust}'s subscription is on the {v} tier.",
        "{Cust} has an active {v} subscription.",
        "We have {cust} on the {v} tier.",
    ],
    cued=[
        ("{Cust} upgraded from {old} to {v}.", "up"),
        ("{Cust} downgraded to the {v} plan.", "down"),
        "{Cust} moved from the {old} tier to {v}.",
        "{Cust} is on the {v} plan now.",
    ],
    np="{cust}'s plan",
    verbs=[("upgraded to", "up"), ("downgraded to", "down"), ("moved to", None)],
    q=["Which plan is {cust} on?"],
    details=[", billed annually", ", with the audit-log add-on"],
)

A(
    "cust.renewal",
    "cust",
    "date",
    DATES,
    [
        "{Cust}'s contract renews on {v}.",
        "The {cust} renewal date is {v}.",
        "{Cust} is up for renewal on {v}.",
        "{Cust}'s renewal falls on {v}.",
    ],
    cued=[
        ("{Cust}'s renewal was pushed to {v}.", "up"),
        ("{Cust}'s renewal was pulled forward to {v}.", "down"),
        "{Cust}'s renewal date moved from {old} to {v}.",
        "{Cust} now renews on {v}.",
    ],
    np="{cust}'s renewal date",
    verbs=[("moved to", None), ("pushed back to", "up"), ("pulled in to", "down"), ("rescheduled to", None)],
    q=["When does {cust}'s contract renew?"],
    details=[", and the quote has to go out a month before", ", for a two-year term"],
)

A(
    "cust.sla",
    "cust",
    "pct",
    [v_pct(x) for x in (99.5, 99.9, 99.95, 99.99)],
    [
        "{Cust}'s SLA guarantees {v} uptime.",
        "Our SLA with {cust} is {v} availability.",
        "We owe {cust} {v} uptime under their SLA.",
        "The uptime commitment in the {cust} contract is {v}.",
    ],
    cued=["{Cust}'s SLA is now {v} uptime.", "{Cust}'s SLA went from {old} to {v}."],
    np="the uptime SLA for {cust}",
    verbs=[("raised to", "up"), ("lowered to", "down"), ("changed to", None)],
    q=["What uptime does our SLA with {cust} guarantee?"],
    details=[", measured monthly", ", with service credits if we miss it"],
)

A(
    "cust.value",
    "cust",
    "money_k",
    [v_money_k(n) for n in (24, 36, 48, 60, 75, 90, 120, 150, 180, 240, 310, 420)],
    [
        "{Cust}'s annual contract is worth {v}.",
        "The {cust} deal is {v} a year.",
        "{Cust} pays us {v} per year.",
        "{Cust} is a {v_k}-a-year account.",
    ],
    cued=[("{Cust}'s contract expanded from {old} to {v} a year.", "up"), "{Cust}'s annual contract is now worth {v}."],
    np="the annual value of the {cust} contract",
    verbs=[("raised to", "up"), ("expanded to", "up"), ("reduced to", "down"), ("cut to", "down")],
    q=["How much is the {cust} contract worth per year?"],
    details=[", paid quarterly", ", including the premium support add-on"],
)

A(
    "cust.contact",
    "cust",
    "contact",
    [plain(c) for c in CONTACTS],
    [
        "Our main contact at {cust} is {v}.",
        "{V} is our primary contact at {cust}.",
        "At {cust}, we deal mostly with {v}.",
        "The point of contact on the {cust} side is {v}.",
    ],
    cued=[
        "Our main contact at {cust} is now {v}.",
        "{Old} is no longer our contact at {cust}; we work with {v} instead.",
        "{Cust} replaced {old} with {v} as our point of contact.",
    ],
    np="our main contact at {cust}",
    verbs=["changed to"],
    q=["Who is our main contact at {cust}?"],
    details=[", who runs their IT team", ", who prefers calls over email"],
)

A(
    "cust.region",
    "cust",
    "region",
    [plain(r) for r in REGIONS],
    ["{Cust}'s data is hosted in {v}.", "{Cust}'s tenant lives in {v}.", "We store {cust}'s data in {v}."],
    cued=["{Cust}'s tenant was migrated from {old} to {v}.", "{Cust}'s data is hosted in {v} now."],
    np="the hosting region for {cust}'s data",
    verbs=["moved to", "migrated to"],
    q=["Which region is {cust}'s tenant in?"],
    details=[", as their data-residency clause requires", ", with backups kept in the same region"],
)

A(
    "inv.amount",
    "inv",
    "money",
    [v_money(a) for a in MONEY_EXACT],
    [
        "Invoice {inv} was issued for {v}.",
        "Invoice {inv} totals {v} in all.",
        "The amount on invoice {inv} is {v}.",
        "We billed {v} on invoice {inv}.",
    ],
    cued=[
        "Invoice {inv} was corrected to {v}.",
        "{inv} was reissued for {v} instead of {old}.",
        "The amount on {inv} changed from {old} to {v}.",
    ],
    np="the amount on invoice {inv}",
    verbs=["corrected to", "revised to"],
    q=["How much is invoice {inv} for?"],
    details=[", due within thirty days", ", and it covers the annual licence"],
)

A(
    "inv.due",
    "inv",
    "date",
    DATES,
    ["Invoice {inv} is due on {v}.", "Payment for invoice {inv} is due {v}.", "Invoice {inv} has a due date of {v}."],
    cued=[("The due date on {inv} was extended to {v}.", "up"), "{inv} is now due on {v}."],
    np="the due date on invoice {inv}",
    verbs=[("extended to", "up"), ("moved to", None), ("pushed to", "up")],
    q=["When is invoice {inv} due?"],
    details=[", payable by bank transfer", ", and finance sends a reminder a week before"],
)

A(
    "ord.ship",
    "ord",
    "date",
    DATES,
    ["Order {ord} ships on {v}.", "{ord} is scheduled to ship on {v}.", "We ship order {ord} on {v}."],
    cued=[
        "Order {ord} was rescheduled to ship on {v}.",
        "{ord} now ships on {v} instead of {old}.",
        ("The ship date for {ord} slipped from {old} to {v}.", "up"),
    ],
    np="the ship date for order {ord}",
    verbs=[("rescheduled to", None), ("pushed to", "up"), ("moved to", None)],
    q=["When does order {ord} ship?"],
    details=[" from the Rotterdam warehouse", ", by express freight"],
)

A(
    "ord.seats",
    "ord",
    "int",
    [plain(str(n), ord=n) for n in (10, 25, 40, 50, 75, 100, 150, 200, 250, 500)],
    ["Order {ord} is for {v} seats.", "Order {ord} covers {v} licences in total.", "The seat count on {ord} is {v}."],
    cued=[
        ("Order {ord} was bumped to {v} seats.", "up"),
        ("{ord} was cut to {v} seats.", "down"),
        "{ord} is for {v} seats now, not {old}.",
    ],
    np="the seat count on order {ord}",
    verbs=[("increased to", "up"), ("reduced to", "down")],
    q=["How many seats is order {ord} for?"],
    details=[", all on the pro plan", ", on a twelve-month term"],
)

A(
    "proj.deadline",
    "proj",
    "date",
    DATES,
    [
        "The {proj} project is due on {v}.",
        "The deadline for the {proj} project is {v}.",
        "We need to ship {proj} by {v}.",
        "{Proj} must ship by {v}.",
        "The {proj} delivery date is {v}.",
    ],
    cued=[
        ("The {proj} deadline slipped to {v}.", "up"),
        "{Proj} is now due on {v}.",
        "The {proj} deadline moved from {old} to {v}.",
        ("{Proj} was pulled in to {v}.", "down"),
    ],
    np="the {proj} deadline",
    verbs=[("pushed to", "up"), ("moved to", None), ("extended to", "up"), ("brought forward to", "down")],
    q=["When is the {proj} project due?"],
    details=[", and the leadership demo is the week before", ", with a code freeze three days earlier"],
)

A(
    "proj.beta",
    "proj",
    "date",
    DATES,
    ["The {proj} beta launches on {v}.", "{Proj} goes to beta on {v}.", "Beta customers get {proj} on {v}."],
    cued=["The {proj} beta was rescheduled to {v}.", "{Proj} now goes to beta on {v}."],
    np="the {proj} beta date",
    verbs=[("rescheduled to", None), ("pushed to", "up")],
    q=["When does the {proj} beta launch?"],
    details=[", with about twenty design partners", ", behind a feature flag"],
)

A(
    "proj.owner",
    "proj",
    "person",
    [plain(p) for p in PEOPLE],
    [
        "{V} owns the {proj} project end to end.",
        "The {proj} project is led by {v}.",
        "The project lead for {proj} is {v}.",
        "{V} is running the {proj} project.",
    ],
    cued=["{Proj} is now led by {v}.", "{V} took over {proj} from {old}.", "{Old} handed {proj} over to {v}."],
    np="the {proj} lead",
    verbs=["changed to"],
    q=["Who owns the {proj} project?", "Who is leading {proj}?"],
    details=[" and reports progress in the weekly status note", ", with a fortnightly check-in with the sponsor"],
)

A(
    "proj.techlead",
    "proj",
    "person",
    [plain(p) for p in PEOPLE],
    [
        "The tech lead on {proj} is {v}.",
        "{V} is the tech lead for {proj}.",
        "The technical lead for the {proj} project is {v}.",
    ],
    cued=["The tech lead on {proj} is now {v}.", "{V} took over as {proj} tech lead from {old}."],
    np="the tech lead on {proj}",
    verbs=["changed to"],
    q=["Who is the tech lead on {proj}?"],
    details=[" and signs off on its design docs"],
)

A(
    "proj.budget",
    "proj",
    "money_k",
    [v_money_k(n) for n in (20, 40, 60, 80, 120, 150, 200, 250, 300, 450)],
    [
        "The overall budget for {proj} is {v}.",
        "The {proj} project has a budget of {v}.",
        "We have {v} to spend on the {proj} project.",
        "The {proj} project is funded at {v}.",
    ],
    cued=[
        ("{Proj}'s budget was cut to {v}.", "down"),
        ("{Proj}'s budget was raised to {v}.", "up"),
        "{Proj} is now funded at {v} rather than {old}.",
    ],
    np="the {proj} budget",
    verbs=[("increased to", "up"), ("reduced to", "down")],
    q=["What is the budget for {proj}?"],
    details=[" for this fiscal year", ", most of it for contractor time"],
)

A(
    "proj.headcount",
    "proj",
    "small",
    [v_count(n) for n in range(2, 13)],
    [
        "{Proj} is staffed with {v} engineers.",
        "{V} engineers work on the {proj} project.",
        "The {proj} team has {v} engineers.",
        "Headcount on {proj} is {v} engineers.",
    ],
    cued=[
        ("{Proj} grew to {v} engineers.", "up"),
        ("{Proj} is down to {v} engineers now.", "down"),
        "{Proj} headcount went from {old} to {v} engineers.",
    ],
    np="the {proj} headcount",
    verbs=[("increased to", "up"), ("reduced to", "down")],
    q=["How many engineers are on {proj}?"],
    details=[", plus a shared designer", ", all in the same time zone"],
)

A(
    "proj.queue",
    "proj",
    "queue",
    [plain(q) for q in QUEUES],
    [
        "We decided to use {v} as the message queue for {proj}.",
        "{Proj} will use {v} for messaging.",
        "The team picked {v} as {proj}'s queue.",
        "Decision: {proj} goes with {v} for its event bus.",
    ],
    cued=[
        "We reversed the decision: {proj} will use {v} instead of {old}.",
        "Change of plan: {proj} is going with {v}, not {old}.",
        "{Proj} switched from {old} to {v} for messaging.",
    ],
    np="the message queue for {proj}",
    verbs=["switched to", "changed to"],
    q=["Which message queue should {proj} use?"],
    details=[", mainly because the team already runs it elsewhere", ", with a two-week spike to validate throughput"],
    kind="decision",
)

A(
    "proj.language",
    "proj",
    "lang",
    [plain(lang) for lang in LANGS],
    ["We decided to build {proj} in {v}.", "{Proj} will be written in {v}.", "The {proj} codebase is going to be {v}."],
    cued=[
        "We changed course and {proj} will be written in {v} instead.",
        "{Proj} will be written in {v} now, not {old}.",
    ],
    np="the language for {proj}",
    q=["What language should we build {proj} in?"],
    details=[", since most of the team knows it", ", following the platform guidelines"],
    kind="decision",
)

A(
    "meet.day",
    "meet",
    "day",
    [v_day(d) for d in DAYS],
    [
        "{Meet} is on {v_pl} each week.",
        "We hold {meet} every {v}.",
        "{Meet} happens on {v_pl}.",
        "{Meet} takes place each {v}.",
    ],
    cued=[
        "{Meet} moved to {v_pl}.",
        "{Meet} is on {v_pl} now.",
        "{Meet} was rescheduled from {old} to {v}.",
        "We no longer hold {meet} on {old_pl}; it's on {v_pl} instead.",
    ],
    np="the day of {meet}",
    verbs=["moved to", "changed to"],
    q=["What day is {meet}?"],
    details=[" and usually runs for an hour", ", with the agenda sent the day before"],
)

A(
    "meet.time",
    "meet",
    "time",
    TIMES,
    [
        "{Meet} starts at {v} sharp.",
        "{Meet} is scheduled for {v}.",
        "We meet for {meet} at {v}.",
        "{Meet} kicks off at {v}.",
    ],
    cued=["{Meet} now starts at {v}.", "{Meet} was moved from {old} to {v}.", ("{Meet} was pushed to {v}.", "up")],
    np="the start time for {meet}",
    verbs=[("moved to", None), ("pushed to", "up"), ("rescheduled to", None)],
    q=["What time does {meet} start?"],
    details=[" and runs for forty-five minutes", ", with a dial-in for remote folks"],
)

A(
    "meet.room",
    "meet",
    "room",
    [v_room(r) for r in ROOMS],
    ["{Meet} is held in {v}.", "{Meet} meets in {v} each time.", "We do {meet} in {v}.", "{Meet} is booked in {v}."],
    cued=["{Meet} moved to {v}.", "{Meet} is in {v} now.", "{Meet} moved from {old} to {v}."],
    np="the room for {meet}",
    verbs=["changed to", "moved to"],
    q=["Which room is {meet} in?"],
    details=[" on the fourth floor", ", which has the big screen"],
)

A(
    "meet.host",
    "meet",
    "person",
    [plain(p) for p in PEOPLE],
    ["{V} is the one who runs {meet}.", "{Meet} is facilitated by {v}.", "{V} chairs {meet} every time."],
    cued=[
        "{V} has taken over running {meet}.",
        "{Meet} is now facilitated by {v}.",
        "{Meet} is run by {v} now, not {old}.",
    ],
    np="the facilitator for {meet}",
    verbs=["changed to"],
    q=["Who runs {meet}?"],
    details=[" and keeps the notes in the shared doc"],
)

A(
    "person.team",
    "person",
    "team",
    [v_team(t) for t in TEAMS],
    [
        "{person} is a member of the {v_bare} team.",
        "{person} works on the {v_bare} team.",
        "{person} is part of {v} in the org chart.",
    ],
    cued=[
        "{person} moved to the {v_bare} team.",
        "{person} transferred from {old} to {v}.",
        "{person} is on the {v_bare} team now.",
    ],
    np="{person}'s team",
    verbs=["changed to"],
    q=["Which team is {person} on?"],
    details=[" and sits with them on the third floor", ", mostly working on backend tickets"],
)

A(
    "person.manager",
    "person",
    "person",
    [plain(p) for p in PEOPLE],
    [
        "{person} reports to {v} on the org chart.",
        "{person}'s manager on the org chart is {v}.",
        "{V} is the manager {person} reports to.",
    ],
    cued=["{person} now reports to {v}.", "{person}'s manager changed from {old} to {v}."],
    np="{person}'s manager",
    verbs=["changed to"],
    q=["Who does {person} report to?"],
    details=[", with a one-on-one every other week"],
)

A(
    "person.office",
    "person",
    "city",
    [plain(c) for c in CITIES],
    [
        "{person} works out of the {v} office.",
        "{person} is based in our {v} office.",
        "{person}'s home base is our {v} office.",
    ],
    cued=["{person} relocated to the {v} office.", "{person} moved from {old} to the {v} office."],
    np="{person}'s office",
    verbs=["changed to"],
    q=["Which office is {person} based in?"],
    details=[", on the same floor as the support team"],
)

A(
    "person.page_pref",
    "person",
    "channel",
    [plain(x) for x in ("a phone call", "SMS", "a push notification", "a Slack DM", "email")],
    [
        "{person} prefers to be paged by {v}.",
        "For pages, {person} likes {v} best.",
        "{person} wants incident pages sent as {v}.",
    ],
    cued=[
        "{person} now prefers to be paged by {v}.",
        "{person} would rather get {v} than {old} for pages going forward.",
    ],
    np="{person}'s paging preference",
    q=["How does {person} want to be paged?"],
    details=[", even at night", ", with a backup email for anything non-urgent"],
    kind="preference",
)

A(
    "person.review_pref",
    "person",
    "review",
    [plain(x) for x in ("as GitHub comments", "on a quick call", "in a Slack thread", "in person at their desk")],
    [
        "{person} prefers code review feedback {v}.",
        "{person} likes to get review feedback {v}.",
        "When reviewing {person}'s PRs, give feedback {v}; that is what they prefer.",
    ],
    cued=[
        "{person} now prefers code review feedback {v}.",
        "{person} would rather get review feedback {v} from now on.",
    ],
    np="{person}'s preferred way to get review feedback",
    q=["How does {person} like to get code review feedback?"],
    details=[", ideally within a day of opening the PR"],
    kind="preference",
)


def _channel_values(s: Subject) -> list[V]:
    t = s["team"].lower().replace(" ", "-")
    return [plain(x) for x in (f"#{t}-eng", f"#team-{t}", f"#{t}-help", f"#ask-{t}", f"#{t}-squad")]


A(
    "team.channel",
    "team",
    "channel",
    _channel_values,
    [
        "The {team} team's Slack channel is {v}.",
        "{Team} team chat happens in {v}.",
        "You can reach the {team} team in {v}.",
    ],
    cued=["The {team} team's channel was renamed from {old} to {v}.", "The {team} channel is {v} now."],
    np="the {team} team's Slack channel",
    verbs=["renamed to"],
    q=["What's the {team} team's Slack channel?"],
    details=[", and it is public to the whole company"],
    cross=False,
)

# --------------------------------------------------------------------------------------
# past events: only correction-style cues
for _k in ("inc.severity", "inc.root_cause", "inc.peak_error", "inv.amount"):
    ATTRS[_k].past = True

# --------------------------------------------------------------------------------------
# boolean facts for the negation frames
# --------------------------------------------------------------------------------------


class BoolAttr:
    def __init__(
        self,
        key: str,
        stype: str,
        objs: list[dict[str, str]],
        pos: list[str],
        neg: list[str],
        cued_neg: list[str],
        cued_pos: list[str],
        objkey: str | None = None,
    ) -> None:
        self.key, self.stype, self.objs = key, stype, objs
        self.pos, self.neg, self.cued_neg, self.cued_pos = pos, neg, cued_neg, cued_pos


BOOLS = [
    BoolAttr(
        "svc.uses",
        "svc",
        [{"t": t, "purpose": p} for t, p in TECH],
        [
            "The {svc} service uses {t} under the hood.",
            "{Svc} relies on {t} for {purpose}.",
            "The {svc} service depends on {t}.",
        ],
        ["The {svc} service does not use {t}.", "{Svc} doesn't rely on {t} at all.", "{Svc} has no dependency on {t}."],
        [
            "The {svc} service no longer uses {t}.",
            "We ripped {t} out of {svc}; it doesn't depend on it anymore.",
            "{Svc} stopped using {t} last sprint.",
            "As of this release, {svc} does not use {t}.",
        ],
        [
            "{Svc} now uses {t} for {purpose}.",
            "As of this release, the {svc} service depends on {t}.",
            "We added {t} to {svc} last sprint, so it uses it now.",
        ],
    ),
    BoolAttr(
        "flag.enabled",
        "flagenv",
        [{}],
        ["The {flag} flag is enabled in {env}.", "{flag} is turned on in {env}.", "In {env}, {flag} is on."],
        ["The {flag} flag is disabled in {env}.", "{flag} is off in {env}.", "In {env}, {flag} is not enabled."],
        [
            "{flag} was turned off in {env} this morning.",
            "The {flag} flag is no longer enabled in {env}.",
            "We disabled {flag} in {env} after the error spike.",
        ],
        [
            "{flag} has been turned on in {env} as of today.",
            "We enabled {flag} in {env} this afternoon.",
            "The {flag} flag is now on in {env}.",
        ],
    ),
    BoolAttr(
        "cust.feature",
        "cust",
        [{"f": f} for f in CUST_FEATURES],
        ["The {cust} account includes {f}.", "{Cust} has {f} on their account.", "{F} is part of the {cust} contract."],
        [
            "{Cust}'s account does not include {f}.",
            "{Cust} doesn't have {f} on their account.",
            "{F} isn't part of the {cust} contract.",
        ],
        ["{Cust} no longer has {f}.", "{Cust} dropped {f} at renewal.", "{F} was removed from the {cust} contract."],
        ["{Cust} has {f} now.", "{Cust} added {f} at renewal.", "As of this quarter, {cust}'s account includes {f}."],
    ),
    BoolAttr(
        "repo.requires",
        "repo",
        [{"c": c} for c in REPO_CHECKS],
        ["Merges to {repo} require {c}.", "{repo} won't merge a PR without {c}.", "You need {c} to merge into {repo}."],
        [
            "Merges to {repo} do not require {c}.",
            "{repo} will merge a PR without {c}.",
            "You don't need {c} to merge into {repo}.",
        ],
        [
            "{repo} no longer requires {c} to merge.",
            "Merges to {repo} don't require {c} anymore.",
            "{repo} stopped requiring {c} for merges this week.",
        ],
        ["Merges to {repo} now require {c}.", "Starting Monday, {repo} requires {c} to merge."],
    ),
    BoolAttr(
        "meet.recorded",
        "meet",
        [{}],
        [
            "{Meet} is recorded for later viewing.",
            "We record {meet} every time.",
            "Recordings of {meet} go to the shared drive.",
        ],
        ["{Meet} is not recorded at all.", "We don't record {meet} at all.", "There are no recordings of {meet}."],
        ["We stopped recording {meet}.", "{Meet} is no longer recorded.", "{Meet} won't be recorded anymore."],
        ["{Meet} is recorded for later viewing now.", "Starting this week, we record {meet}."],
    ),
    BoolAttr(
        "person.rotation",
        "person",
        [{"team": t} for t in TEAMS],
        ["{person} is in the {team} on-call rotation.", "{person} takes shifts in the {team} on-call rotation."],
        [
            "{person} is not in the {team} on-call rotation.",
            "{person} doesn't take any shifts in the {team} on-call rotation.",
        ],
        ["{person} has left the {team} on-call rotation.", "{person} is no longer in the {team} on-call rotation."],
        [
            "{person} joined the {team} on-call rotation this month.",
            "{person} takes shifts in the {team} on-call rotation now.",
        ],
    ),
    BoolAttr(
        "cust.autorenew",
        "cust",
        [{}],
        ["{Cust}'s contract is set to auto-renew.", "{Cust} is on auto-renewal for their contract."],
        ["{Cust}'s contract does not auto-renew.", "{Cust} is not on auto-renewal for their contract."],
        [
            "{Cust} turned off auto-renewal on their contract.",
            "{Cust} is no longer on auto-renewal for their contract.",
        ],
        ["{Cust} is on auto-renewal for their contract now.", "{Cust} switched to auto-renewal at the last renewal."],
    ),
    BoolAttr(
        "env.autoscale",
        "env",
        [{}],
        ["The {env} environment has autoscaling turned on.", "Autoscaling is enabled in the {env} environment."],
        ["The {env} environment has no autoscaling.", "Autoscaling is disabled in the {env} environment."],
        ["We turned off autoscaling in the {env} environment.", "The {env} environment no longer autoscales."],
        [
            "Autoscaling is on in the {env} environment now.",
            "We enabled autoscaling in the {env} environment this week.",
        ],
    ),
]

# --------------------------------------------------------------------------------------
# tasks and questions
# --------------------------------------------------------------------------------------
TASKS = {
    "svc": [
        ("rotate the TLS certificate on the {svc} service", "rotated the TLS certificate on the {svc} service"),
        ("add a p99 latency alert for {svc}", "added the p99 latency alert for {svc}"),
        ("write the failover runbook for {svc}", "wrote the failover runbook for {svc}"),
        ("bump the connection pool size on {svc}", "bumped the connection pool size on {svc}"),
        ("clean up the stale feature flags in {svc}", "cleaned up the stale feature flags in {svc}"),
        ("enable request tracing on {svc}", "enabled request tracing on {svc}"),
        ("upgrade the {svc} service's base image", "upgraded the {svc} service's base image"),
        ("load-test {svc} before the launch", "load-tested {svc} for the launch"),
        ("add {svc} to the status page", "added {svc} to the status page"),
    ],
    "host": [
        ("patch the kernel on {host}", "patched the kernel on {host}"),
        ("resize the disk on {host}", "resized the disk on {host}"),
        ("decommission {host}", "decommissioned {host}"),
        ("take a fresh snapshot of {host}", "took a fresh snapshot of {host}"),
    ],
    "ticket": [
        ("triage ticket {ticket}", "triaged ticket {ticket}"),
        ("close out ticket {ticket}", "closed out ticket {ticket}"),
        ("write a repro for ticket {ticket}", "wrote a repro for ticket {ticket}"),
    ],
    "inc": [
        ("write up the postmortem for {inc}", "wrote up the postmortem for {inc}"),
        ("schedule the review meeting for {inc}", "scheduled the review meeting for {inc}"),
    ],
    "cust": [
        ("send {cust} the renewal quote", "sent {cust} the renewal quote"),
        ("schedule the QBR with {cust}", "scheduled the QBR with {cust}"),
        ("set up SSO for {cust}", "set up SSO for {cust}"),
        ("send {cust} the security questionnaire", "sent {cust} the security questionnaire"),
        ("chase {cust} about their overdue invoice", "chased {cust} about their overdue invoice"),
        ("book the onboarding call with {cust}", "booked the onboarding call with {cust}"),
    ],
    "proj": [
        ("draft the {proj} kickoff doc", "drafted the {proj} kickoff doc"),
        ("get budget sign-off for {proj}", "got budget sign-off for {proj}"),
        ("finalize the {proj} launch checklist", "finalized the {proj} launch checklist"),
        ("book a room for the {proj} offsite", "booked a room for the {proj} offsite"),
        ("write the {proj} risk register", "wrote the {proj} risk register"),
    ],
    "repo": [
        ("turn on branch protection for {repo}", "turned on branch protection for {repo}"),
        ("delete the stale branches in {repo}", "deleted the stale branches in {repo}"),
    ],
    "ord": [
        ("confirm the ship date for {ord} with the warehouse", "confirmed the ship date for {ord} with the warehouse")
    ],
    "inv": [("send a corrected copy of {inv} to finance", "sent a corrected copy of {inv} to finance")],
}
TASK_FORMS = [
    "TODO: {imp}.",
    "Need to {imp} this week.",
    "I have to {imp} before the freeze.",
    "Remember to {imp}.",
    "Action item for me: {imp}.",
    "{Imp}, on my list for this sprint.",
    "Someone needs to {imp}.",
    "Task: {imp}.",
]
TASK_FORMS_PLAIN = [
    "TODO: {imp}.",
    "Remember to {imp}.",
    "Action item: {imp}.",
    "Task: {imp}.",
    "Someone needs to {imp}.",
    "We need to {imp}.",
]
DONE_FACT = [
    "I {past} this morning.",
    "{Past}; that one is done.",
    "{Past} yesterday, so it's off the list.",
    "Finally {past}.",
    "{Past}, so that one is all done.",
    "Quick note: {past} earlier today.",
]
DONE_TASK = ["Done: {imp}.", "[done] {imp}", "Checked off: {imp}."]
CANCEL_REASONS = [
    "the vendor is handling it",
    "it's out of scope this quarter",
    "the work was folded into another project",
    "it turned out to be unnecessary",
]
CANCEL_FACT = [
    "We decided not to {imp} after all.",
    "No need to {imp} anymore; {reason}.",
    "Dropping the plan to {imp}, since {reason}.",
]
CANCEL_TASK = ["Cancelled: {imp}.", "Won't do: {imp} ({reason})."]
Q_WRAP = [
    "{q}",
    "Open question: {q}",
    "Does anyone know? {q}",
    "Still unclear: {q}",
    "Question for the channel: {q}",
    "Need to find out: {q}",
]
ANS_WRAP = [
    "{s}",
    "Answer: {s}",
    "Found out: {sl}",
    "Confirmed with {p2}: {sl}",
    "To answer the earlier question, {sl}",
]

# --------------------------------------------------------------------------------------
# cue machinery
# --------------------------------------------------------------------------------------
AS_OF = ["June 1", "March 15", "the 1st", "this sprint", "this week", "today", "Monday", "Q3"]
STARTING = ["Monday", "next week", "next sprint", "July 1", "the new quarter", "tomorrow"]
GEN_OLD = [
    "{NP} changed from {old} to {v}.",
    "{NP} was switched from {old} to {v}.",
    "{NP} is no longer {old}; it is {v} now.",
    "{NP} is {v} now, not {old}.",
    "{NP} went from {old} to {v} this week.",
    "Correction to the wiki: {np} moved from {old} to {v}.",
]
GEN_NOOLD = [
    "{NP} has been changed to {v}.",
    "{NP} is now {v}.",
    "Updated: {np} is {v}.",
    "{NP} was updated to {v}.",
    "As of {asof}, {np} is {v}.",
    "Going forward, {np} will be {v}.",
    "Starting {start}, {np} is {v}.",
]
GEN_SAME = [
    "{NP} is now {v}.",
    "{NP} is {v} now.",
    "Updated: {np} is {v}.",
    "As of {asof}, {np} is {v}.",
    "Going forward, {np} is {v}.",
    "{NP} is still {v}.",
    "Starting {start}, {np} is {v}.",
]
PREFIX_CUES = [
    "As of {asof}, ",
    "Starting {start}, ",
    "Going forward, ",
    "From now on, ",
    "Update: ",
    "Updated: ",
    "Effective {asof}, ",
]
SUFFIX_CUES = [" now", " going forward", " from now on", " as of {asof}"]
# for past events (incident numbers, invoice amounts) only correction-style cues
GEN_OLD_PAST = [
    "{NP} changed from {old} to {v}.",
    "Correction: {np} was {v}, not {old}.",
    "Correction to the wiki: {np} was {v} rather than {old}.",
]
GEN_NOOLD_PAST = ["Updated: {np} is {v}.", "{NP} was updated to {v}.", "Correction: {np} is {v}."]
GEN_SAME_PAST = ["Updated: {np} is {v}.", "{NP} is still {v}.", "{NP} was updated to {v}."]
PREFIX_CUES_PAST = ["Update: ", "Updated: ", "Correction: "]


def ctx(attr: Attr, subj: Subject, val: V, old: V | None = None) -> dict[str, str]:
    d: dict[str, str] = {k: v for k, v in subj.items() if not k.startswith("_")}
    for k, forms in val.forms.items():
        d[k] = R.choice(forms)
    if old is not None:
        for k, forms in old.forms.items():
            d["old" + k[1:]] = R.choice(forms)
    d["p2"] = R.choice([p for p in PEOPLE if p != val.key])
    d["svc2"] = R.choice([s for s in SERVICES if s != subj.get("svc")])
    d["asof"] = R.choice(AS_OF)
    d["start"] = R.choice(STARTING)
    if attr.np:
        d["np"] = fill(attr.np, d)
        d["NP"] = cap(d["np"])
    return d


def base_stmt(attr: Attr, subj: Subject, val: V, tpl: str | None = None) -> str:
    return fill(tpl or R.choice(attr.base), ctx(attr, subj, val))


def direction(old: V, new: V) -> str | None:
    if old.ord is None or new.ord is None:
        return None
    return "up" if new.ord > old.ord else "down"


def wrap_prefix(s: str, d: dict[str, str], past: bool = False) -> str:
    return fill(R.choice(PREFIX_CUES_PAST if past else PREFIX_CUES), d).rstrip() + " " + lower_first(s)


def wrap_suffix(s: str, d: dict[str, str]) -> str | None:
    if not s.endswith(".") or ";" in s or ":" in s or re.search(r"\bnow\b", s):
        return None
    return s[:-1] + " " + fill(R.choice(SUFFIX_CUES), d).strip() + "."


def _cued_attempt(attr: Attr, d: dict[str, str], old: V | None, dirn: str | None) -> str | None:
    """One draw of a cued wording for cued_stmt; None when the drawn wording does not fit."""
    r = R.random()
    s: str | None = None
    if r < 0.32 and attr.cued:
        tpl, tdir = R.choice(attr.cued)
        needs_old = re.search(r"\{old", tpl, re.I) and old is None
        if not needs_old and (tdir is None or tdir == dirn):
            s = fill(tpl, d)
    elif r < 0.52 and attr.np and old is not None:
        s = fill(R.choice(GEN_OLD_PAST if attr.past else GEN_OLD), d)
    elif r < 0.64 and attr.np:
        s = fill(R.choice(GEN_NOOLD_PAST if attr.past else GEN_NOOLD), d)
    elif r < 0.80 and attr.np and attr.verbs:
        verb, vdir = R.choice(attr.verbs)
        if vdir is None or vdir == dirn:
            s = fill("{NP} was " + verb + " {v}.", d)
    elif r < 0.92:
        tpl = R.choice(attr.base)
        if ":" not in tpl:
            s = wrap_prefix(fill(tpl, d), d, attr.past)
    elif not attr.past:
        s = wrap_suffix(fill(R.choice(attr.base), d), d)
    return s


def cued_stmt(attr: Attr, subj: Subject, val: V, old: V | None) -> str | None:
    """Statement of `val` for subj with an update cue (old = previous value, may be None)."""
    d = ctx(attr, subj, val, old)
    dirn = direction(old, val) if old is not None else None
    for _ in range(30):
        s = _cued_attempt(attr, d, old, dirn)
        if s is not None and CUE_ANY_RE.search(s):
            return s
    return None


def same_cue_stmt(attr: Attr, subj: Subject, val: V) -> str | None:
    d = ctx(attr, subj, val)
    s: str | None
    for _ in range(30):
        r = R.random()
        if r < 0.3:
            own = [
                t
                for t, dr in attr.cued
                if not re.search(r"\{old", t, re.I) and dr is None and re.search(r"\bnow\b", t) and "instead" not in t
            ]
            if not own:
                continue
            s = fill(R.choice(own), d)
        elif r < 0.55 and attr.np:
            s = fill(R.choice(GEN_SAME_PAST if attr.past else GEN_SAME), d)
        elif r < 0.8:
            tpl = R.choice(attr.base)
            if ":" in tpl:
                continue
            s = wrap_prefix(fill(tpl, d), d, attr.past)
        else:
            if attr.past:
                continue
            s = wrap_suffix(fill(R.choice(attr.base), d), d)
            if s is None:
                continue
        if CUE_ANY_RE.search(s):
            return s
    return None


def bool_stmt(b: BoolAttr, subj: Subject, obj: dict[str, str], polarity: bool, cued: bool) -> tuple[str, str]:
    d: dict[str, str] = {k: v for k, v in subj.items() if not k.startswith("_")}
    d.update(obj)
    if "f" in d:
        d["F"] = d["f"][0].upper() + d["f"][1:]
    tpl = R.choice(b.cued_pos if polarity else b.cued_neg) if cued else R.choice(b.pos if polarity else b.neg)
    return fill(tpl, d), tpl


# --------------------------------------------------------------------------------------
# long (Slack-style) wrapping
# --------------------------------------------------------------------------------------
INTROS = [
    "Quick note from this morning's platform sync so it is written down somewhere.",
    "Posting this here because it came up twice in the thread and people keep asking.",
    "Summarizing what we agreed on the call, for anyone who could not make it.",
    "Some context for the folks who are new to the channel and missed the earlier discussion.",
    "Jotting this down before I forget, since it affects at least a couple of teams.",
    "Following up on the question that came up in the planning meeting earlier this week.",
    "For the people who were out of office during the last sprint, here is the short version.",
    "FYI for whoever picks up the support rotation next, since this tends to come up.",
    "Writing this up after the customer call so the details are not only in my notebook.",
    "A few people asked about this in standup, so here is a short summary for everyone.",
    "Recording this for the wiki, since the existing page is hard to find.",
    "Notes from the infra channel, condensed for anyone skimming through.",
    "Sharing this ahead of the next review so nobody gets surprised in the meeting.",
    "Putting this in writing after the long thread yesterday afternoon.",
    "Small thing, but worth having on record for the on-call folks.",
    "Pulling this out of the meeting notes because it matters for planning.",
    "For anyone onboarding onto this area, this is one of the facts you will need.",
    "Posting this in the channel since the doc it lived in is a bit of a mess.",
    "Quick summary from the account review, mostly for the support and sales folks.",
    "Capturing this from the retro so we have a single place to point people to.",
    "Morning all, a short one before the day gets busy.",
    "Writing this in the team channel rather than a DM so everyone can see it.",
]
MIDDLES = [
    "This came up while we were going through the dashboards with the support team.",
    "Nobody on the call had any concerns about it.",
    "The rest of the discussion was mostly about naming and can wait.",
    "There is a longer thread about it in the infra channel if you want the background.",
    "It is mentioned in the planning doc as well, though not very prominently.",
    "Most of the meeting went to unrelated roadmap items.",
    "Finance and support were both on the thread, for what it's worth.",
    "It matters mainly for the people who run the weekly reports.",
    "We spent a while on it, but the conclusion was fairly simple.",
    "This is the part people asked about most.",
    "The dashboards for it are linked from the team homepage.",
]
OUTROS = [
    "Ping me in the thread if anything here looks wrong to you.",
    "I will copy this into the team wiki later today.",
    "Shout if this breaks any assumptions in your own runbooks or dashboards.",
    "No action needed from most people, this is mostly for awareness.",
    "Happy to walk anyone through the details on a quick call.",
    "Thanks to everyone who chipped in with answers over the last few days.",
    "Reply here with questions rather than in DMs so others can see the answers.",
    "That's it from me, more details are in the doc.",
    "Feel free to forward this to anyone who needs it.",
    "I'll bring it up in the next sync if there are open points.",
    "If you own a dashboard that depends on this, give it a quick look.",
    "Tag me if the customer asks about it directly.",
    "Thanks for reading this far, I know the channel is busy.",
]
for _f in INTROS + MIDDLES + OUTROS:
    assert not CUE_ANY_RE.search(_f), _f
    assert not LOOP_RE.search(_f), _f


def longify(core: str) -> str | None:
    for _ in range(40):
        intro = R.choice(INTROS)
        mid = R.choice(MIDDLES)
        outro = R.choice(OUTROS)
        shape = R.random()
        if shape < 0.45:
            parts = [intro, core, outro]
        elif shape < 0.7:
            parts = [intro, core, mid, outro]
        elif shape < 0.85:
            parts = [core, mid, outro]
        else:
            parts = [intro, mid, core, outro]
        text = " ".join(parts)
        if 40 <= words(text) <= 120 and 2 <= sentences(text) <= 4:
            return text
    return None


# --------------------------------------------------------------------------------------
# frame generators: each returns (a, b, relation, kind_a, kind_b, frame) or None
# --------------------------------------------------------------------------------------
ATTR_LIST = list(ATTRS.values())
BY_STYPE: dict[str, list[Attr]] = {}
for _a in ATTR_LIST:
    BY_STYPE.setdefault(_a.stype, []).append(_a)
BOOL_BY_STYPE: dict[str, list[BoolAttr]] = {}
for _b in BOOLS:
    BOOL_BY_STYPE.setdefault(_b.stype, []).append(_b)

STATS: Counter[str] = Counter()


def pick_attr(pred: Callable[[Attr], object] = lambda a: True) -> Attr:
    return R.choice([a for a in ATTR_LIST if pred(a)])


def other_value(attr: Attr, subj: Subject, v: V) -> V:
    vals = [x for x in attr.values(subj) if x.key != v.key]
    return R.choice(vals)


def uncued_ok(*texts: str) -> bool:
    return not any(CUE_BASE_RE.search(t) for t in texts)


def g_paraphrase() -> Pair | None:
    if R.random() < 0.13:
        b = R.choice(BOOLS)
        s = GEN[b.stype]()
        obj = R.choice(b.objs)
        pol = R.random() < 0.6
        tpls = b.pos if pol else b.neg
        if len(tpls) < 2:
            return None
        t1, t2 = R.sample(tpls, 2)
        d = {k: v for k, v in s.items() if not k.startswith("_")}
        d.update(obj)
        if "f" in d:
            d["F"] = d["f"][0].upper() + d["f"][1:]
        return fill(t1, d), fill(t2, d), "duplicate", "fact", "fact", "paraphrase"
    a = pick_attr(lambda a: len(a.base) >= 2)
    s = GEN[a.stype]()
    v = R.choice(a.values(s))
    t1, t2 = R.sample(a.base, 2)
    x, y = base_stmt(a, s, v, t1), base_stmt(a, s, v, t2)
    if not uncued_ok(x, y):
        STATS["bad-uncued-template"] += 1
        return None
    return x, y, "duplicate", a.kind, a.kind, "paraphrase"


def g_cue_same() -> Pair | None:
    y: str | None
    if R.random() < 0.15:
        b = R.choice(BOOLS)
        s = GEN[b.stype]()
        obj = R.choice(b.objs)
        pol = R.random() < 0.5
        x, _ = bool_stmt(b, s, obj, pol, False)
        y, _ = bool_stmt(b, s, obj, pol, True)
        return x, y, "duplicate", "fact", "fact", "cue-same-value"
    a = pick_attr()
    s = GEN[a.stype]()
    v = R.choice(a.values(s))
    x = base_stmt(a, s, v)
    y = same_cue_stmt(a, s, v)
    if y is None:
        return None
    return x, y, "duplicate", a.kind, a.kind, "cue-same-value"


def g_cued_change() -> Pair | None:
    a = pick_attr()
    s = GEN[a.stype]()
    v1 = R.choice(a.values(s))
    v2 = other_value(a, s, v1)
    x = base_stmt(a, s, v1)
    y = cued_stmt(a, s, v2, v1 if R.random() < 0.85 else None)
    if y is None:
        return None
    return x, y, "supersedes", a.kind, a.kind, "cued-change"


def g_uncued_change() -> Pair | None:
    a = pick_attr()
    s = GEN[a.stype]()
    v1 = R.choice(a.values(s))
    v2 = other_value(a, s, v1)
    t1 = R.choice(a.base)
    t2 = t1 if R.random() < 0.45 else R.choice(a.base)
    x, y = base_stmt(a, s, v1, t1), base_stmt(a, s, v2, t2)
    if not uncued_ok(x, y):
        STATS["bad-uncued-template"] += 1
        return None
    return x, y, "contradicts", a.kind, a.kind, "uncued-change"


def g_negation_contra() -> Pair | None:
    b = R.choice(BOOLS)
    s = GEN[b.stype]()
    obj = R.choice(b.objs)
    pol = R.random() < 0.6
    x, _ = bool_stmt(b, s, obj, pol, False)
    y, _ = bool_stmt(b, s, obj, not pol, False)
    if not uncued_ok(x, y):
        STATS["bad-uncued-template"] += 1
        return None
    return x, y, "contradicts", "fact", "fact", "negation"


def g_negation_super() -> Pair | None:
    b = R.choice(BOOLS)
    s = GEN[b.stype]()
    obj = R.choice(b.objs)
    pol = R.random() < 0.65  # polarity of the older statement
    x, _ = bool_stmt(b, s, obj, pol, False)
    y, _ = bool_stmt(b, s, obj, not pol, True)
    return x, y, "supersedes", "fact", "fact", "negation"


def g_other_subject() -> Pair | None:
    y: str | None
    r = R.random()
    if r < 0.14:  # boolean, other subject
        b = R.choice(BOOLS)
        s1 = GEN[b.stype]()
        s2 = neighbour(s1)
        obj = R.choice(b.objs)
        x, _ = bool_stmt(b, s1, obj, R.random() < 0.6, False)
        y, _ = bool_stmt(b, s2, obj, R.random() < 0.5, R.random() < 0.5)
        return x, y, "complementary", "fact", "fact", "other-subject"
    if r < 0.24:  # same task, other subject reported done
        st = R.choice(list(TASKS))
        imp, past = R.choice(TASKS[st])
        s1 = GEN[st]()
        s2 = neighbour(s1)
        d1 = {k: v for k, v in s1.items() if not k.startswith("_")}
        d2 = {k: v for k, v in s2.items() if not k.startswith("_")}
        x = fill(R.choice(TASK_FORMS), {"imp": fill(imp, d1), "Imp": cap(fill(imp, d1))})
        y, kb = done_stmt(imp, past, d2)
        return x, y, "complementary", "task", kb, "other-subject"
    a = pick_attr()
    s1 = GEN[a.stype]()
    s2 = neighbour(s1)
    v1 = R.choice(a.values(s1))
    same = R.random() < 0.55 and (a.cross or not callable(a._values))
    v2 = v1 if same else R.choice(a.values(s2))
    x = base_stmt(a, s1, v1)
    if R.random() < 0.45:
        pool = [o for o in a.values(s2) if o.key != v2.key]
        old = R.choice(pool) if pool else None
        y = cued_stmt(a, s2, v2, old)
        if y is None:
            return None
    else:
        y = base_stmt(a, s2, v2)
    return x, y, "complementary", a.kind, a.kind, "other-subject"


def g_other_attribute() -> Pair | None:
    stypes = [t for t in BY_STYPE if len(BY_STYPE[t]) + len(BOOL_BY_STYPE.get(t, [])) >= 2]
    t = R.choice(stypes)
    s = GEN[t]()
    choices = BY_STYPE[t] + BOOL_BY_STYPE.get(t, [])
    c1, c2 = R.sample(choices, 2)

    def say(c: Attr | BoolAttr, cue_ok: bool) -> tuple[str, str, V | None]:
        if isinstance(c, BoolAttr):
            obj = R.choice(c.objs)
            return bool_stmt(c, s, obj, R.random() < 0.6, cue_ok and R.random() < 0.4)[0], "fact", None
        v = R.choice(c.values(s))
        if cue_ok and R.random() < 0.35:
            st = cued_stmt(c, s, v, None)
            if st:
                return st, c.kind, v
        return base_stmt(c, s, v), c.kind, v

    x, ka, va = say(c1, False)
    # same value in another attribute with the same kind of value (port 8080 / metrics port 8080)
    if (
        isinstance(c2, Attr)
        and isinstance(c1, Attr)
        and va is not None
        and c1.vclass == c2.vclass
        and R.random() < 0.5
        and any(o.key == va.key for o in c2.values(s))
    ):
        y, kb = base_stmt(c2, s, va), c2.kind
        return x, y, "complementary", ka, kb, "other-attribute"
    y, kb, _ = say(c2, True)
    return x, y, "complementary", ka, kb, "other-attribute"


SAME_ROLE_TECH = [{"Redis", "Memcached"}, {"Kafka", "RabbitMQ"}, {"RabbitMQ", "Celery"}, {"Kafka", "Celery"}]


def g_other_object() -> Pair | None:
    """Same subject, boolean about a different object (uses Redis / doesn't use Kafka)."""
    b = R.choice([b for b in BOOLS if len(b.objs) > 1])
    s = GEN[b.stype]()
    o1, o2 = R.sample(b.objs, 2)
    if {o1.get("t"), o2.get("t")} in SAME_ROLE_TECH:
        return None  # Redis / Memcached could read as a replacement: keep it unambiguous
    # rotation membership with a cue ("takes Infra shifts now") could read as a move: no cue there
    cue = R.random() < 0.4 and b.key != "person.rotation"
    x, _ = bool_stmt(b, s, o1, R.random() < 0.6, False)
    y, _ = bool_stmt(b, s, o2, R.random() < 0.5, cue)
    return x, y, "complementary", "fact", "fact", "other-attribute"


def g_added_detail() -> Pair | None:
    a = pick_attr(lambda a: a.details)
    s = GEN[a.stype]()
    v = R.choice(a.values(s))
    d = ctx(a, s, v)
    x = fill(R.choice(a.base), d)
    tb = R.choice(a.base) if R.random() < 0.4 else None
    y0 = fill(tb, d) if tb else x
    det = R.choice(a.details).format_map(CapDict(d))
    if not y0.endswith("."):
        return None
    y = tidy(y0[:-1] + det + ".")
    if CUE_BASE_RE.search(det):
        STATS["bad-detail"] += 1
        return None
    return x, y, "complementary", a.kind, a.kind, "added-detail"


def task_stmt(imp: str, d: dict[str, str], plain_forms: bool = False) -> str:
    i = fill(imp, d)
    return fill(R.choice(TASK_FORMS_PLAIN if plain_forms else TASK_FORMS), {"imp": i, "Imp": cap(i)})


def done_stmt(imp: str, past: str, d: dict[str, str]) -> tuple[str, str]:
    i, p = fill(imp, d), fill(past, d)
    r = R.random()
    if r < 0.45:
        return fill(R.choice(DONE_FACT), {"past": p, "Past": cap(p)}), "fact"
    if r < 0.7:
        return fill(R.choice(DONE_TASK), {"imp": i}), "task"
    if r < 0.88:
        return fill(R.choice(CANCEL_FACT), {"imp": i, "reason": R.choice(CANCEL_REASONS)}), "fact"
    return fill(R.choice(CANCEL_TASK), {"imp": i, "reason": R.choice(CANCEL_REASONS)}), "task"


def g_loop_done() -> Pair | None:
    st = R.choice(list(TASKS))
    imp, past = R.choice(TASKS[st])
    s = GEN[st]()
    d = {k: v for k, v in s.items() if not k.startswith("_")}
    x = task_stmt(imp, d)
    y, kb = done_stmt(imp, past, d)
    return x, y, "supersedes", "task", kb, "loop-done"


def g_loop_other() -> Pair | None:
    st = R.choice([t for t in TASKS if len(TASKS[t]) >= 2])
    (i1, _p1), (i2, p2) = R.sample(TASKS[st], 2)
    s = GEN[st]()
    d = {k: v for k, v in s.items() if not k.startswith("_")}
    x = task_stmt(i1, d)
    y, kb = done_stmt(i2, p2, d)
    return x, y, "complementary", "task", kb, "loop-other-task"


def g_task_restated() -> Pair | None:
    st = R.choice(list(TASKS))
    imp, _ = R.choice(TASKS[st])
    s = GEN[st]()
    d = {k: v for k, v in s.items() if not k.startswith("_")}
    x, y = task_stmt(imp, d, True), task_stmt(imp, d, True)
    return x, y, "duplicate", "task", "task", "task-restated"


def g_task_different_same_subject() -> Pair | None:
    st = R.choice([t for t in TASKS if len(TASKS[t]) >= 2])
    (i1, _), (i2, _) = R.sample(TASKS[st], 2)
    s = GEN[st]()
    d = {k: v for k, v in s.items() if not k.startswith("_")}
    return task_stmt(i1, d), task_stmt(i2, d), "complementary", "task", "task", "task-different"


def g_task_different_unrelated() -> Pair | None:
    st1, st2 = R.sample(list(TASKS), 2)
    s1, s2 = GEN[st1](), GEN[st2]()
    if subj_tokens(s1) & subj_tokens(s2):
        return None
    i1, _ = R.choice(TASKS[st1])
    i2, _ = R.choice(TASKS[st2])
    d1 = {k: v for k, v in s1.items() if not k.startswith("_")}
    d2 = {k: v for k, v in s2.items() if not k.startswith("_")}
    return task_stmt(i1, d1), task_stmt(i2, d2), "unrelated", "task", "task", "task-different"


def question(a: Attr, s: Subject, v: V) -> str:
    d = ctx(a, s, v)
    w = R.choice(Q_WRAP)
    q = fill(R.choice(a.q), d)
    return fill(w, {"q": lower_first(q) if ":" in w else q})


def g_q_answered() -> Pair | None:
    a = pick_attr(lambda a: a.q)
    s = GEN[a.stype]()
    v = R.choice(a.values(s))
    x = question(a, s, v)
    st = base_stmt(a, s, v)
    y = fill(R.choice(ANS_WRAP), {"s": st, "sl": lower_first(st), "p2": R.choice(PEOPLE)})
    return x, y, "supersedes", "open-question", a.kind, "question-answered"


def g_q_other() -> Pair | None:
    a = pick_attr(lambda a: a.q)
    s = GEN[a.stype]()
    v = R.choice(a.values(s))
    x = question(a, s, v)
    if R.random() < 0.55:
        s2 = neighbour(s)
        v2 = R.choice(a.values(s2))
        y, kb = base_stmt(a, s2, v2), a.kind
    else:
        others = [o for o in BY_STYPE[a.stype] if o is not a]
        if not others:
            return None
        a2 = R.choice(others)
        v2 = R.choice(a2.values(s))
        y, kb = base_stmt(a2, s, v2), a2.kind
    return x, y, "complementary", "open-question", kb, "question-other"


def g_q_restated() -> Pair | None:
    a = pick_attr(lambda a: a.q)
    s = GEN[a.stype]()
    v = R.choice(a.values(s))
    return question(a, s, v), question(a, s, v), "duplicate", "open-question", "open-question", "question-restated"


# ---- topic shift -------------------------------------------------------------------


def random_statement() -> tuple[str, str, str, set[str]]:
    """(text, kind, stype, tokens) about a random subject."""
    r = R.random()
    if r < 0.62:
        a = pick_attr()
        s = GEN[a.stype]()
        v = R.choice(a.values(s))
        txt = base_stmt(a, s, v) if R.random() < 0.85 else (cued_stmt(a, s, v, None) or base_stmt(a, s, v))
        toks = subj_tokens(s) | (
            set(re.split(r"[^a-z0-9]+", str(v.key).lower())) - STOP - {""}
            if a.vclass in ("person", "host", "team", "contact", "room", "region", "queue", "lang", "ci", "platform")
            else set()
        )
        return txt, a.kind, a.stype, toks
    if r < 0.76:
        b = R.choice(BOOLS)
        s = GEN[b.stype]()
        obj = R.choice(b.objs)
        txt, _ = bool_stmt(b, s, obj, R.random() < 0.6, R.random() < 0.25)
        toks = subj_tokens(s) | {str(x).lower().split()[-1] for x in obj.values()}
        return txt, "fact", b.stype, toks
    if r < 0.9:
        st = R.choice(list(TASKS))
        imp, past = R.choice(TASKS[st])
        s = GEN[st]()
        d = {k: v for k, v in s.items() if not k.startswith("_")}
        if R.random() < 0.7:
            return task_stmt(imp, d), "task", st, subj_tokens(s)
        txt, k = done_stmt(imp, past, d)
        return txt, k, st, subj_tokens(s)
    a = pick_attr(lambda a: a.q)
    s = GEN[a.stype]()
    v = R.choice(a.values(s))
    return question(a, s, v), "open-question", a.stype, subj_tokens(s)


def g_topic_random() -> Pair | None:
    x, ka, t1, k1 = random_statement()
    y, kb, t2, k2 = random_statement()
    if t1 == t2 or (k1 & k2):
        return None
    return x, y, "unrelated", ka, kb, "topic-shift"


SHARED_VCLASS = ["day", "date", "money_k", "small"]


def g_topic_shared_value() -> Pair | None:
    vc = R.choice(SHARED_VCLASS)
    cands = [a for a in ATTR_LIST if a.vclass == vc]
    a1, a2 = R.sample(cands, 2)
    if a1.stype == a2.stype:
        return None
    s1, s2 = GEN[a1.stype](), GEN[a2.stype]()
    if subj_tokens(s1) & subj_tokens(s2):
        return None
    v = R.choice(a1.values(s1))
    if not any(o.key == v.key for o in a2.values(s2)):
        return None
    return base_stmt(a1, s1, v), base_stmt(a2, s2, v), "unrelated", a1.kind, a2.kind, "topic-shift"


NAME_CLASH = {  # project codename -> customer / room sharing the word
    "Juniper": ("cust", "Juniper Mobility"),
    "Kestrel": ("cust", "Kestrel Insight"),
    "Cobalt": ("cust", "Cobalt Ridge Mining"),
    "Sable": ("cust", "Sable Apparel"),
    "Atlas": ("room", "Atlas"),
    "Willow": ("room", "Willow"),
    "Granite": ("room", "Granite"),
}


def g_topic_shared_name() -> Pair | None:
    proj = R.choice(list(NAME_CLASH))
    kind, other = NAME_CLASH[proj]
    ap = ATTRS[R.choice(["proj.deadline", "proj.budget", "proj.owner", "proj.headcount"])]
    sp = mk("proj", proj=proj)
    vp = R.choice(ap.values(sp))
    # only the wordings that say "project", so "Juniper" cannot be read as the customer
    x = base_stmt(ap, sp, vp, R.choice([t for t in ap.base if "{proj} project" in t]))
    if kind == "cust":
        ac = R.choice(BY_STYPE["cust"])
        sc = mk("cust", cust=other)
        y = base_stmt(ac, sc, R.choice(ac.values(sc)))
        kb = ac.kind
    else:
        am = ATTRS["meet.room"]
        sm = GEN["meet"]()
        y = base_stmt(am, sm, v_room(other))
        kb = am.kind
    if R.random() < 0.5:
        x, y = y, x
        return x, y, "unrelated", kb, ap.kind, "topic-shift"
    return x, y, "unrelated", ap.kind, kb, "topic-shift"


DECOYS = {  # the service name used as an ordinary word, in a different topic
    "search": [
        "The search for a new engineering manager is on hold until next quarter.",
        "Our office search in Lisbon is down to two buildings.",
    ],
    "checkout": [
        "Laptop checkout from the IT cupboard needs a signed form.",
        "Hotel checkout for the offsite is at 11am on the last day.",
    ],
    "billing": ["Contractor billing hours are due to finance on the last workday of the month."],
    "scheduler": ["The meeting-room scheduler tablet on the third floor is broken."],
    "onboarding": ["Onboarding for new hires begins with a laptop pickup at the front desk."],
    "shipping": ["The office address for shipping hardware returns is the Berlin warehouse."],
    "inventory": ["Facilities restocks the office snack inventory every other week."],
    "audit": ["The annual financial audit kicks off with the external accountants in spring."],
    "export": ["Export-controls training is mandatory for everyone in sales."],
    "identity": ["The brand identity refresh is with the design agency."],
    "messaging": ["Launch messaging for the spring campaign is being reviewed by legal."],
    "ledger": ["The paper visitor ledger at reception is kept for a year."],
    "notifications": ["Calendar notifications for the all-hands go out a day ahead."],
    "recommendations": ["Book recommendations for the engineering reading group are in the wiki."],
    "media": ["The media kit for journalists lives on the press page."],
}


def g_topic_decoy() -> Pair | None:
    svc = R.choice(list(DECOYS))
    a = pick_attr(lambda a: a.stype == "svc")
    s = mk("svc", svc=svc)
    x = base_stmt(a, s, R.choice(a.values(s)))
    y = R.choice(DECOYS[svc])
    if R.random() < 0.4:
        return y, x, "unrelated", "fact", a.kind, "topic-shift"
    return x, y, "unrelated", a.kind, "fact", "topic-shift"


def g_topic_shift() -> Pair | None:
    r = R.random()
    if r < 0.62:
        return g_topic_random()
    if r < 0.80:
        return g_topic_shared_value()
    if r < 0.90:
        return g_topic_shared_name()
    return g_topic_decoy()


# --------------------------------------------------------------------------------------
# hand-written literal pairs: (a, b, relation, kind_a, kind_b, frame)
# --------------------------------------------------------------------------------------
F, T, Q = "fact", "task", "open-question"
LITERALS = [
    # ---- duplicate
    (
        "The billing service deploys on Fridays.",
        "Billing ships to production every Friday.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "We deploy the search indexer on Tuesdays.",
        "Search indexer releases go out every Tuesday.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "The checkout API times out after 30 seconds.",
        "Checkout API requests have a 30s timeout.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "Quillstone Bank's account manager is Dana.",
        "Dana handles the Quillstone Bank account.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    ("The Payments standup is at 10:00.", "The Payments standup is now at 10:00.", "duplicate", F, F, "cue-same-value"),
    (
        "The staging environment runs Postgres 15.",
        "As of this week, staging is on Postgres 15.",
        "duplicate",
        F,
        F,
        "cue-same-value",
    ),
    (
        "Ticket OPS-1412 is assigned to Marcus.",
        "Marcus is the owner of ticket OPS-1412.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "The pro tier allows 1,000 API requests per minute.",
        "Pro customers are capped at 1000 requests a minute.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "Norvale Foods renews on March 3.",
        "Norvale Foods' renewal date is the 3rd of March.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "The ledger service listens on port 8443.",
        "The port for the ledger service is 8443.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "db-orders-2 has 128 GB of RAM.",
        "The db-orders-2 box is provisioned with 128GB of memory.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "The architecture review is held in the Cedar room.",
        "Going forward, the architecture review is in the Cedar room.",
        "duplicate",
        F,
        F,
        "cue-same-value",
    ),
    (
        "The Halcyon project is due on June 14.",
        "The deadline for the Halcyon project is 14 June.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "Hotfixes to payments need two approvals.",
        "A payments hotfix can't be merged without 2 approvals.",
        "duplicate",
        "procedure",
        "procedure",
        "paraphrase",
    ),
    (
        "We decided to use NATS for the Driftnet event bus.",
        "Decision: Driftnet's event bus will be NATS.",
        "duplicate",
        "decision",
        "decision",
        "paraphrase",
    ),
    (
        "Keiko prefers to be paged by phone call.",
        "Keiko likes her pages to come as phone calls.",
        "duplicate",
        "preference",
        "preference",
        "paraphrase",
    ),
    (
        "The notifications service no longer uses RabbitMQ.",
        "The notifications service doesn't use RabbitMQ anymore.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "Invoice INV-2024-0413 was issued for $12,400.",
        "Invoice INV-2024-0413 totals $12,400.00 in all.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "The SRE team owns the edge proxy.",
        "Ownership of the edge proxy sits with SRE.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "Logs for the auth service are kept for 30 days.",
        "Auth service logs have a 30-day retention window.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "Pinecrest Health is on the enterprise plan.",
        "Pinecrest Health is still on the enterprise plan.",
        "duplicate",
        F,
        F,
        "cue-same-value",
    ),
    (
        "The eu-west-1 cluster runs Kubernetes 1.29.",
        "Updated: the eu-west-1 cluster runs Kubernetes 1.29.",
        "duplicate",
        F,
        F,
        "cue-same-value",
    ),
    (
        "Sprint planning happens every other Monday at 9:30.",
        "We do sprint planning on alternate Mondays, 9:30am.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "What port does the geocoding service listen on?",
        "Open question: which port is geocoding on?",
        "duplicate",
        Q,
        Q,
        "question-restated",
    ),
    (
        "TODO: rotate the TLS certificate on the auth gateway.",
        "Remember to rotate the auth gateway's TLS cert.",
        "duplicate",
        T,
        T,
        "task-restated",
    ),
    (
        "To roll back the pricing service, run `deployctl rollback pricing`.",
        "Pricing rollbacks are done with `deployctl rollback pricing`.",
        "duplicate",
        "procedure",
        "procedure",
        "paraphrase",
    ),
    (
        "The new-checkout-flow flag is enabled in production.",
        "In production, new-checkout-flow is turned on.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "Recap from the vendor call this afternoon, mostly for the account team and support. Tessaract Labs' SLA "
        "guarantees 99.95% uptime. They asked a few questions about monthly reporting and status page access, which I "
        "will answer by email tomorrow morning.",
        "Writing down what I heard on the Tessaract Labs call so it lives somewhere other than my notebook. Our uptime "
        "commitment to them is 99.95 percent. Nobody on their side objected to the number, and the conversation went "
        "on to onboarding fairly quickly.",
        "duplicate",
        F,
        F,
        "paraphrase",
    ),
    (
        "The incident review moved to Thursdays.",
        "The incident review is on Thursdays now.",
        "duplicate",
        F,
        F,
        "cue-same-value",
    ),
    ("Greta is on the Data team.", "Greta works on the Data team.", "duplicate", F, F, "paraphrase"),
    # ---- supersedes
    (
        "The billing service deploys on Fridays.",
        "Billing deploys moved from Fridays to Tuesdays.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    ("The Payments standup is at 10:00.", "The Payments standup is now at 10:30.", "supersedes", F, F, "cued-change"),
    (
        "The checkout API's timeout is 30s.",
        "We bumped the checkout API timeout to 45s.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "Quillstone Bank's account manager is Dana.",
        "Priya has taken over the Quillstone Bank account from Dana.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The staging environment runs Postgres 14.",
        "Staging was upgraded to Postgres 16 last night.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The search service uses Elasticsearch for indexing.",
        "The search service no longer uses Elasticsearch; it indexes into OpenSearch instead.",
        "supersedes",
        F,
        F,
        "negation",
    ),
    (
        "TODO: send Norvale Foods the renewal quote.",
        "Sent Norvale Foods the renewal quote this morning.",
        "supersedes",
        T,
        F,
        "loop-done",
    ),
    (
        "Which region is the media service hosted in?",
        "The media service is hosted in eu-central-1.",
        "supersedes",
        Q,
        F,
        "question-answered",
    ),
    ("The Atlas project is due on May 2.", "The Atlas deadline slipped to May 16.", "supersedes", F, F, "cued-change"),
    (
        "Ticket OPS-1519 is assigned to Ines.",
        "Ticket OPS-1519 was reassigned to Tomasz.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The ledger repo builds on Jenkins.",
        "Ledger CI was migrated from Jenkins to Buildkite.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The default branch of infra-terraform is master.",
        "infra-terraform's default branch was renamed to main.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The pro plan costs $15 per seat per month.",
        "As of July 1, the pro plan is $18 a seat per month.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The weekly roadmap sync is in the Birch room.",
        "The weekly roadmap sync moved to the Fjord room.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "Harborline Freight is on the pro plan.",
        "Harborline Freight upgraded to enterprise at renewal.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The dark-mode flag is disabled in production.",
        "We turned dark-mode on in production this afternoon.",
        "supersedes",
        F,
        F,
        "negation",
    ),
    (
        "Need to decommission cache-legacy-3 this sprint.",
        "Cancelled: decommission cache-legacy-3 (the reporting team depends on it).",
        "supersedes",
        T,
        T,
        "loop-done",
    ),
    (
        "Open question: who should own the export service after the reorg?",
        "The export service will be owned by the Data team after the reorg.",
        "supersedes",
        Q,
        "decision",
        "question-answered",
    ),
    (
        "We decided to write Kodiak in Kotlin.",
        "Change of plan: Kodiak will be written in Go instead of Kotlin.",
        "supersedes",
        "decision",
        "decision",
        "cued-change",
    ),
    (
        "Marcus prefers to be paged by SMS.",
        "Marcus now wants pages as phone calls rather than SMS.",
        "supersedes",
        "preference",
        "preference",
        "cued-change",
    ),
    (
        "The fraud service's primary database is db-fraud-1.",
        "db-fraud-1 was replaced by db-fraud-3 as the fraud service's primary.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "Order ORD-58213 ships on April 9.",
        "ORD-58213 was rescheduled to ship on April 12.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "The architecture review is on Tuesdays.",
        "Starting next month, the architecture review is on Wednesdays.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "To get production database access, file a ticket in the SEC queue.",
        "Going forward, production DB access is requested through the Access Portal, not SEC tickets.",
        "supersedes",
        "procedure",
        "procedure",
        "cued-change",
    ),
    (
        "Payments in staging is running 3.4.1.",
        "Updated: staging payments is on 3.5.0.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "Merges to api-schemas require two approvals.",
        "api-schemas only requires one approval now.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "INC-7730 is being handled as a SEV2.",
        "INC-7730 was downgraded to SEV3 once the backlog drained.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "Posting this after the customer call so it's written down somewhere the whole team can see. Greymoor Legal's "
        "main contact is Rui Tavares, and he wants the security questionnaire by the end of the month. Ping me if you "
        "have questions about the scope.",
        "On Greymoor Legal: Rui Tavares has left the company, so our main contact there is now Petra Novak. She "
        "already has the questionnaire context from Rui's notes. I'll introduce her to the team in the channel later "
        "this week so everyone knows who to talk to.",
        "supersedes",
        F,
        F,
        "cued-change",
    ),
    (
        "Action item: write up the postmortem for INC-6021.",
        "The INC-6021 postmortem is written and shared in #incidents.",
        "supersedes",
        T,
        F,
        "loop-done",
    ),
    (
        "How many engineers are staffed on Tundra?",
        "Tundra is staffed with six engineers.",
        "supersedes",
        Q,
        F,
        "question-answered",
    ),
    # ---- contradicts
    (
        "The billing service deploys on Fridays.",
        "The billing service deploys on Tuesdays.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    ("The Payments standup is at 10:00.", "The Payments standup is at 9:30.", "contradicts", F, F, "uncued-change"),
    (
        "The checkout API's timeout is 30s.",
        "Requests to the checkout API time out after 60 seconds.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Quillstone Bank's account manager is Dana.",
        "Priya is the account manager for Quillstone Bank.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "The staging environment runs Postgres 14.",
        "The staging database is on Postgres 16.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "The search service uses Elasticsearch under the hood.",
        "The search service does not use Elasticsearch.",
        "contradicts",
        F,
        F,
        "negation",
    ),
    (
        "Ticket OPS-1412 is assigned to Marcus.",
        "Ticket OPS-1412 is on Leila's plate.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Norvale Foods renews on March 3.",
        "Norvale Foods' contract renews on April 3.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "The ledger service listens on port 8443.",
        "The ledger service runs on port 9443.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    ("The Atlas project is due on May 2.", "We need to ship Atlas by May 20.", "contradicts", F, F, "uncued-change"),
    (
        "The pro tier's rate limit is 1,000 requests a minute.",
        "Pro customers get 600 requests per minute.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "db-orders-2 has 128 GB of RAM.",
        "db-orders-2 is provisioned with 64 GB of RAM.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "The Platform team owns the scheduler service.",
        "The scheduler service belongs to the Infra team.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Tessaract Labs' SLA guarantees 99.95% uptime.",
        "Our SLA with Tessaract Labs is 99.9% availability.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "The dark-mode flag is enabled in production.",
        "The dark-mode flag is off in production.",
        "contradicts",
        F,
        F,
        "negation",
    ),
    (
        "The root cause of INC-5521 was an expired TLS certificate.",
        "INC-5521 was caused by a bad config push.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "The architecture review is held in the Cedar room.",
        "The architecture review meets in Summit.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Pinecrest Health is on the enterprise plan.",
        "Pinecrest Health pays for the business tier.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Hotfixes to payments need two approvals.",
        "Payments hotfixes need three approvals before merging.",
        "contradicts",
        "procedure",
        "procedure",
        "uncued-change",
    ),
    (
        "Keiko prefers to be paged by phone call.",
        "Keiko prefers to be paged by SMS.",
        "contradicts",
        "preference",
        "preference",
        "uncued-change",
    ),
    (
        "We decided to use Kafka for Borealis messaging.",
        "We decided to use RabbitMQ for Borealis messaging.",
        "contradicts",
        "decision",
        "decision",
        "uncued-change",
    ),
    (
        "Invoice INV-2024-0413 was issued for $12,400.",
        "Invoice INV-2024-0413 was issued for $14,200.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    ("The Lantern project is led by Ama.", "Hugo is the lead on Lantern.", "contradicts", F, F, "uncued-change"),
    (
        "Merges to web-frontend require signed commits.",
        "web-frontend will merge PRs without signed commits.",
        "contradicts",
        F,
        F,
        "negation",
    ),
    (
        "The auth service is written in Go.",
        "The auth service is a Java codebase.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Greymoor Legal's data is hosted in eu-central-1.",
        "We store Greymoor Legal's data in eu-west-2.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Sven reports to Mei on the org chart.",
        "Sven's manager on the org chart is Olu.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "Notes from the capacity review, for the folks who couldn't make it. The reporting service's primary database "
        "is db-reporting-2. We spent most of the hour on the dashboard backlog and the alerting noise, so expect a "
        "separate write-up on those later in the week.",
        "Summarizing the reporting discussion from the infra channel for anyone who missed the thread. The reporting "
        "service writes to db-reporting-4 as its primary database. Replica lag looked fine all week, and nobody on the "
        "support side has reported slow queries against it.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    (
        "We record the security office hours.",
        "The security office hours are not recorded.",
        "contradicts",
        F,
        F,
        "negation",
    ),
    (
        "Order PO-77120 is for 250 seats.",
        "Order PO-77120 covers 200 licences in total.",
        "contradicts",
        F,
        F,
        "uncued-change",
    ),
    # ---- complementary
    (
        "The billing service deploys on Fridays.",
        "The search service deploys on Fridays.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "The billing service's primary database is db-billing-1.",
        "The search service's primary database is now db-billing-1.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "Quillstone Bank's account manager is Dana.",
        "Dana is also the account manager for Ostrava Motors.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "The checkout API's timeout is 30s.",
        "The checkout API's retry limit is 3.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "The staging environment runs Postgres 15.",
        "The production environment runs Postgres 15.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "The free tier's rate limit is 60 requests a minute.",
        "The pro tier's rate limit is now 1,000 requests a minute.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "Ticket OPS-1412 is assigned to Marcus.",
        "Ticket OPS-1419 was reassigned to Ines.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "API v1 will be sunset on March 31.",
        "The v2 API sunset was pushed to December 31.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "The Payments standup is at 10:00.",
        "The Payments standup is at 10:00 and runs for fifteen minutes.",
        "complementary",
        F,
        F,
        "added-detail",
    ),
    (
        "The ledger service listens on port 8443.",
        "The ledger service listens on port 8443, behind the internal load balancer.",
        "complementary",
        F,
        F,
        "added-detail",
    ),
    (
        "Norvale Foods renews on March 3.",
        "Norvale Foods renews on March 3, for a two-year term.",
        "complementary",
        F,
        F,
        "added-detail",
    ),
    (
        "Hugo works out of the Lisbon office.",
        "Hugo reports to Ama on the org chart.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "TODO: rotate the TLS certificate on the auth gateway.",
        "Rotated the TLS certificate on the billing gateway this morning.",
        "complementary",
        T,
        F,
        "other-subject",
    ),
    (
        "TODO: send Norvale Foods the renewal quote.",
        "Scheduled the QBR with Norvale Foods for next month.",
        "complementary",
        T,
        F,
        "loop-other-task",
    ),
    (
        "What port does the geocoding service listen on?",
        "The geocoding service's request timeout is 20 seconds.",
        "complementary",
        Q,
        F,
        "question-other",
    ),
    (
        "The Atlas project is due on May 2.",
        "The Atlas beta launches on May 2.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "The billing service uses Redis for caching.",
        "The search service does not use Redis.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "The billing service uses Redis for caching.",
        "The billing service doesn't use Kafka.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "The new-checkout-flow flag is enabled in staging.",
        "The new-checkout-flow flag is no longer enabled in production.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "Payments in staging is running 3.5.0.",
        "Payments in production is on 3.5.0 now.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "Harborline Freight is on the pro plan.",
        "Copperleaf Retail upgraded to the enterprise plan.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "The architecture review is on Tuesdays.",
        "The design crit moved to Tuesdays.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "db-billing-1 has 64 GB of RAM.",
        "db-billing-2 was upgraded to 128 GB of RAM.",
        "complementary",
        F,
        F,
        "other-subject",
    ),
    (
        "Keiko prefers to be paged by phone call.",
        "Anil now prefers to be paged by phone call too.",
        "complementary",
        "preference",
        "preference",
        "other-subject",
    ),
    (
        "The Growth team's Slack channel is #growth-eng.",
        "The Growth team runs on-call for the onboarding service this quarter.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "The pro plan costs $15 per seat per month.",
        "The pro plan includes 100 GB of storage per workspace.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "INC-7730 is being handled as a SEV2.",
        "INC-7730 was caused by connection pool exhaustion on db-orders-1.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "Summary from the release sync for anyone catching up on the channel this morning. The notifications service "
        "deploys on Wednesdays. Please get your changes merged by the evening before if you want them in, and tag the "
        "release captain in the thread if something is risky.",
        "Quick follow-up to the release sync notes from this morning, since a couple of people asked. The "
        "notifications service deploys on Wednesdays, through the canary pipeline with a ten percent first stage. "
        "Shout in the thread if the canary numbers look odd to you.",
        "complementary",
        F,
        F,
        "added-detail",
    ),
    (
        "Greymoor Legal's main contact is Rui Tavares.",
        "Greymoor Legal's executive sponsor on our side is Mira.",
        "complementary",
        F,
        F,
        "other-attribute",
    ),
    (
        "To roll back the pricing service, run `deployctl rollback pricing`.",
        "To roll back the catalog service, run `deployctl rollback catalog`.",
        "complementary",
        "procedure",
        "procedure",
        "other-subject",
    ),
    # ---- unrelated
    (
        "The billing service deploys on Fridays.",
        "The team lunch is on Friday at noon.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "The search service's primary database is db-search-1.",
        "The search for a new office manager is on hold until Q3.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "The checkout API's timeout is 30s.",
        "Books from the office library can be checked out for 30 days.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Quillstone Bank's account manager is Dana.",
        "The staging cluster runs Kubernetes 1.29.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Juniper Mobility renews on October 1.",
        "The Juniper project kickoff doc is in the shared drive.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "The Atlas room has a broken projector.",
        "The Atlas project is due on May 2.",
        "unrelated",
        "observation",
        F,
        "topic-shift",
    ),
    (
        "Port 8080 is where the inventory service listens.",
        "Order ORD-8080 is for 50 seats.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "TODO: patch the kernel on db-ledger-3.",
        "Norvale Foods pays for the business tier.",
        "unrelated",
        T,
        F,
        "topic-shift",
    ),
    ("What time does the ops review start?", "The media service is written in Rust.", "unrelated", Q, F, "topic-shift"),
    (
        "The Payments team's Slack channel is #payments-eng.",
        "Invoice INV-2024-0588 is due on June 30.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Redis on the session cluster is at 80% memory.",
        "The Redis course Ines asked for is approved in the training budget.",
        "unrelated",
        "observation",
        F,
        "topic-shift",
    ),
    (
        "The pro tier's rate limit is 1,000 requests a minute.",
        "Sprint planning is in the Meadow room.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "INC-4410 was caused by a full disk.",
        "Copperleaf Retail's main contact is Ken Watanabe.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "We decided to use NATS for Driftnet.",
        "Greta prefers code review feedback as GitHub comments.",
        "unrelated",
        "decision",
        "preference",
        "topic-shift",
    ),
    (
        "Hotfixes to the ledger service need two approvals.",
        "The Q3 offsite budget is $40k.",
        "unrelated",
        "procedure",
        F,
        "topic-shift",
    ),
    (
        "The eu-west-1 cluster runs Kubernetes 1.29.",
        "Kwame works out of the Dublin office.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Cancelled: book the Obsidian offsite venue.",
        "The fraud service listens on port 9090.",
        "unrelated",
        T,
        F,
        "topic-shift",
    ),
    (
        "The notifications service deploys on Wednesdays.",
        "Wednesday's all-hands moved to the big auditorium.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "The scheduler service runs on ECS.",
        "Meeting-room scheduler access is managed by facilities.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Tessaract Labs' SLA guarantees 99.95% uptime.",
        "The auth service logs are kept for 30 days.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "The Growth team owns the onboarding service.",
        "Onboarding for new hires starts with a laptop pickup at the front desk.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Greymoor Legal's data is hosted in eu-central-1.",
        "Kodiak is staffed with four engineers.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    ("The dark-mode flag is enabled in staging.", "Marcus is on the Mobile team.", "unrelated", F, F, "topic-shift"),
    ("Order PO-77120 ships on April 9.", "The v1 API will be sunset on April 9.", "unrelated", F, F, "topic-shift"),
    (
        "Logs for the export service are kept for 90 days.",
        "The 90-day onboarding plan for new SREs is in the wiki.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "The Cedar room seats twelve people comfortably.",
        "Cedarline Dental's renewal is in November.",
        "unrelated",
        "observation",
        F,
        "topic-shift",
    ),
    (
        "The overall budget for Lantern is $120k.",
        "Harborline Freight's annual contract is worth $120k.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Writing up the migration notes before I head out for the day. The inventory service's primary region is "
        "us-east-2, and its replica setup matches what we had last quarter. Ping me if the dashboards disagree with "
        "any of this, I'll check in the morning.",
        "Reminder for everyone joining the Zenith planning session: the deck is in the shared folder and the agenda "
        "covers hiring and the budget request. We'll keep it to an hour, so please read the deck beforehand. Bring "
        "questions and any numbers you want to challenge.",
        "unrelated",
        F,
        F,
        "topic-shift",
    ),
    (
        "Does the catalog service use Memcached?",
        "Stellan Robotics upgraded to the team plan.",
        "unrelated",
        Q,
        F,
        "topic-shift",
    ),
    (
        "Remember to chase Fernhill Academy about their overdue invoice.",
        "Remember to patch the kernel on db-search-2.",
        "unrelated",
        T,
        T,
        "task-different",
    ),
]

# --------------------------------------------------------------------------------------
# quotas and assembly
# --------------------------------------------------------------------------------------
PLAN: list[tuple[Callable[[], Pair | None], int]] = [  # (generator, count)
    (g_paraphrase, 248),
    (g_cue_same, 172),
    (g_q_restated, 15),
    (g_task_restated, 15),
    (g_cued_change, 255),
    (g_negation_super, 62),
    (g_loop_done, 80),
    (g_q_answered, 53),
    (g_uncued_change, 350),
    (g_negation_contra, 100),
    (g_other_subject, 205),
    (g_other_attribute, 85),
    (g_other_object, 25),
    (g_added_detail, 75),
    (g_loop_other, 25),
    (g_q_other, 20),
    (g_task_different_same_subject, 15),
    (g_topic_shift, 430),
    (g_task_different_unrelated, 20),
]


def main() -> int:
    seen: set[tuple[str, str]] = set()
    records: list[dict[str, str]] = []

    def add(a: str, b: str, rel: str, ka: str, kb: str, frame: str, longable: bool = True) -> bool:
        if longable and R.random() < P_LONG:
            shape = R.random()
            if shape < 0.6:
                la, lb = longify(a), longify(b)
            elif shape < 0.8:
                la, lb = longify(a), b
            else:
                la, lb = a, longify(b)
            if la is None or lb is None:
                STATS["long-failed"] += 1
            else:
                a, b = la, lb
        if any(words(t) < 6 for t in (a, b)) and longable:
            STATS["too-short-skipped"] += 1
            return False
        na, nb = norm(a), norm(b)
        if a == b or na == nb or (na, nb) in seen:
            STATS["dup-skipped"] += 1
            return False
        seen.add((na, nb))
        records.append({"a": a, "b": b, "relation": rel, "kind_a": ka, "kind_b": kb, "source": SOURCE, "frame": frame})
        return True

    for a, b, rel, ka, kb, frame in LITERALS:
        assert add(a, b, rel, ka, kb, frame, longable=False), (a, b)

    for gen, n in PLAN:
        got, tries = 0, 0
        while got < n:
            tries += 1
            if tries > n * 60:
                raise RuntimeError(f"{gen.__name__}: only {got}/{n}")
            r = gen()
            if r is None:
                STATS["gen-none:" + gen.__name__] += 1
                continue
            if add(*r):
                got += 1

    R.shuffle(records)
    with OUT.open("w", encoding="utf-8") as fh:
        for i, rec in enumerate(records, 1):
            row = {
                "id": f"{SOURCE}-{i:05d}",
                "a": rec["a"],
                "b": rec["b"],
                "relation": rec["relation"],
                "kind_a": rec["kind_a"],
                "kind_b": rec["kind_b"],
                "source": SOURCE,
                "frame": rec["frame"],
            }
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")

    print_summary(records)
    return 0


def print_summary(records: list[dict[str, str]]) -> None:
    n = len(records)

    def is_long(t: str) -> bool:
        return words(t) >= 40

    n_long = sum(1 for r in records if is_long(r["a"]) or is_long(r["b"]))
    print(f"wrote {n} pairs to {OUT}")
    print("relations:")
    for k, c in Counter(r["relation"] for r in records).most_common():
        print(f"  {k:14s} {c:5d}  {c / n:.1%}")
    print("frames:")
    fr = Counter((r["frame"], r["relation"]) for r in records)
    for (f, rel), c in sorted(fr.items()):
        print(f"  {f:18s} {rel:14s} {c:5d}")
    print(f"long pairs (either side >= 40 words): {n_long} ({n_long / n:.1%})")
    kinds = Counter(r["kind_a"] for r in records) + Counter(r["kind_b"] for r in records)
    print("kinds:", dict(kinds.most_common()))
    n_tpl = (
        sum(len(a.base) + len(a.cued) + len(a.q) for a in ATTR_LIST)
        + sum(len(b.pos) + len(b.neg) + len(b.cued_pos) + len(b.cued_neg) for b in BOOLS)
        + len(TASK_FORMS)
        + len(DONE_FACT)
        + len(DONE_TASK)
        + len(CANCEL_FACT)
        + len(CANCEL_TASK)
        + len(GEN_OLD)
        + len(GEN_NOOLD)
        + len(GEN_SAME)
    )
    print(
        f"attributes: {len(ATTR_LIST)}, boolean facts: {len(BOOLS)}, sentence templates: {n_tpl}, "
        f"literal pairs: {len(LITERALS)}"
    )
    print("stats:", dict(STATS))


if __name__ == "__main__":
    sys.exit(main())

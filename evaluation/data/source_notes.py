"""The ``notes`` source of labelled pairs for the hygiene judge.

What it is: terse memory notes of the kind an AI agent writes into its memory store on behalf of a
user and the user's teams -- third person, note style ("User prefers aisle seats.", "Globex -- AM:
Dana.", "payments-api p99 target: 250 ms."), with key: value forms, parentheses, abbreviations and
dates, times and amounts in several formats. Each pair is an OLDER note ``a`` and a NEWER note
``b`` with one relation (duplicate, supersedes, complementary, contradicts, unrelated), labelled by
``evaluation/data/LABELS.md`` and SPEC section 6 (R-H7 "same subject or nothing", R-H8 "evidence
for an automatic supersede").

How it was written: independently of the other sources. Every subject, attribute, value list and
sentence frame below was written by hand for this file; no other source, judge code or evaluation
data was consulted. The generator works on a small world model: subjects of a type (people, pets,
services, customers, tickets...), attribute *families* (a subject type, a value type and hand-written
state, change, question and detail frames), yes/no *polar* facts for negations, and open loops (tasks
and open questions). Each labelled frame is one generator that builds ``a`` and ``b`` from that model
so the label follows from construction: same subject + attribute + value -> duplicate (also with an
update cue); a changed value with an update cue or a closed loop -> supersedes; a changed value or a
denial with no cue -> contradicts; another subject, another attribute or added detail ->
complementary; different topics -> unrelated. About a quarter of the notes carry one to three
neutral context sentences (no update cues, no names). More than a hundred hand-written pairs are
mixed in. Where a pair could be read two ways the label is the reading that retires less.

Run ``python evaluation/data/source_notes.py`` to (re)write ``notes.jsonl`` beside this file;
the output is deterministic (fixed seed) and the script prints coverage statistics.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

SEED = 61_803
PER_RELATION = 480
SOURCE = "notes"
OUT = Path(__file__).with_name("notes.jsonl")
REWORD_P = 0.3  # share of cued-change / cue-same-value pairs whose newer note uses different wording
CONTEXT_P = 0.28  # chance that a generated note gets neutral context sentences around its fact

RELATIONS = ("duplicate", "supersedes", "complementary", "contradicts", "unrelated")

# --------------------------------------------------------------------------------------------------
# World model
# --------------------------------------------------------------------------------------------------

Forms = dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Value:
    """One value of an attribute; ``forms`` holds interchangeable renderings per grammatical slot."""

    key: str
    forms: Forms


@dataclass(frozen=True)
class Subject:
    """Something a note is about; ``names`` are aliases of the same thing."""

    key: str
    stype: str
    names: tuple[str, ...]
    pos: tuple[str, ...]
    tags: frozenset[str]
    topic: str


@dataclass(frozen=True)
class Family:
    """One attribute of a subject type, with its sentence frames."""

    name: str
    stype: str
    vtype: str
    label: str
    topic: str
    states: tuple[str, ...]
    cued: tuple[str, ...]
    qs: tuple[str, ...]
    details: tuple[str, ...]
    kind: str = "fact"
    only: tuple[str, ...] = ()
    fixed: bool = False
    generic: bool = True


@dataclass(frozen=True)
class Polar:
    """A yes/no fact about a subject (optionally about an object ``x``), for negation pairs."""

    name: str
    stype: str
    topic: str
    yes: tuple[str, ...]
    no: tuple[str, ...]
    no_cued: tuple[str, ...]
    yes_cued: tuple[str, ...]
    qs: tuple[str, ...]
    details: tuple[str, ...]
    objs: tuple[tuple[str, str], ...] = (("", ""),)
    only: tuple[str, ...] = ()
    kind: str = "fact"


@dataclass(frozen=True)
class Loop:
    """A task an agent tracks: imperative, noun phrase and past-tense outcome."""

    group: str
    domain: str
    who: str
    vp: str
    np: str
    done: str


@dataclass
class Pair:
    a: str
    b: str
    relation: str
    frame: str
    kind_a: str = "fact"
    kind_b: str = "fact"
    subjects: tuple[str, ...] = ()
    attrs: tuple[str, ...] = ()
    reworded: bool | None = None
    hand: bool = False
    templates: tuple[str, ...] = field(default_factory=tuple)


# --------------------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------------------

MONTHS = (
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
)
WEEKDAY_ABBR = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
SYMBOL = {"USD": "$", "EUR": "€", "GBP": "£"}


def _v(key: str, *forms: str, **extra: tuple[str, ...]) -> Value:
    table: Forms = {"n": forms or (key,)}
    table.update(extra)
    return Value(key, table)


def plain(*items: str) -> tuple[Value, ...]:
    return tuple(_v(item) for item in items)


def alts(*groups: tuple[str, ...]) -> tuple[Value, ...]:
    return tuple(_v(group[0], *group) for group in groups)


def weekdays(*days: str) -> tuple[Value, ...]:
    return tuple(_v(day, day, pl=(day + "s",), ab=(day[:3],)) for day in days)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def dates(*month_days: tuple[int, int]) -> tuple[Value, ...]:
    out = []
    for month, day in month_days:
        when = dt.date(2026, month, day)
        name = MONTHS[month - 1]
        forms = (
            f"{day} {name}",
            f"{name} {day}",
            f"{name} {_ordinal(day)}",
            when.isoformat(),
            f"{WEEKDAY_ABBR[when.weekday()]} {day} {name[:3]}",
        )
        out.append(_v(when.isoformat(), *forms))
    return tuple(out)


def birthdays(*month_days: tuple[int, int]) -> tuple[Value, ...]:
    out = []
    for month, day in month_days:
        name = MONTHS[month - 1]
        forms = (f"{day} {name}", f"{name} {day}", f"{name} {_ordinal(day)}", f"{day} {name[:3]}")
        out.append(_v(f"--{month:02d}-{day:02d}", *forms))
    return tuple(out)


def clock(*hours_minutes: tuple[int, int]) -> tuple[Value, ...]:
    out = []
    for hour, minute in hours_minutes:
        h12 = hour % 12 or 12
        suffix = "am" if hour < 12 else "pm"
        short = f"{h12}{suffix}" if minute == 0 else f"{h12}:{minute:02d}{suffix}"
        dotted = f"{h12}:{minute:02d} {'a.m.' if hour < 12 else 'p.m.'}"
        out.append(_v(f"{hour:02d}:{minute:02d}", f"{hour:02d}:{minute:02d}", short, dotted))
    return tuple(out)


def cash(amount: float, cur: str = "USD") -> Value:
    sym = SYMBOL[cur]
    long = f"{amount:,.2f}" if amount % 1 else f"{amount:,.0f}"
    forms = [f"{sym}{long}", f"{long} {cur}"]
    if amount >= 1_000_000:
        forms += [f"{sym}{amount / 1_000_000:g}M", f"{amount / 1_000_000:g} million {cur}"]
    elif amount >= 1000:
        forms += [f"{sym}{amount / 1000:g}k", f"{cur} {long}"]
    return _v(f"{cur}{amount:g}", *forms)


def amounts(cur: str, *values: float) -> tuple[Value, ...]:
    return tuple(cash(value, cur) for value in values)


def counts(*numbers: int) -> tuple[Value, ...]:
    words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 10: "ten", 12: "twelve"}
    return tuple(_v(str(n), str(n), *((words[n],) if n in words else ())) for n in numbers)


STAFF_NAMES = (
    ("Dana", "Dana Kim"),
    ("Priya", "Priya Raman"),
    ("Marcus", "Marcus Hale"),
    ("Wen", "Wen Li"),
    ("Seun", "Seun Adeyemi"),
    ("Ingrid", "Ingrid Berg"),
    ("Rafael", "Rafael Souza"),
    ("Hye-jin", "Hye-jin Park"),
    ("Tom", "Tom Becker"),
    ("Aisha", "Aisha Rahman"),
    ("Lukas", "Lukas Brandt"),
    ("Mei", "Mei Tanaka"),
)

VALUES: dict[str, tuple[Value, ...]] = {
    "city": plain(
        "Porto",
        "Lisbon",
        "Leeds",
        "Manchester",
        "Berlin",
        "Oslo",
        "Lyon",
        "Toronto",
        "Austin",
        "Kraków",
        "Valencia",
        "Edinburgh",
        "Dublin",
        "Melbourne",
        "Osaka",
    ),
    "weekday": weekdays("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
    "weekday7": weekdays("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "company": plain(
        "Siemens",
        "Deloitte",
        "Ocado",
        "the city council",
        "Leeds Teaching Hospitals",
        "IKEA",
        "Accenture",
        "Zalando",
        "the BBC",
        "a small architecture studio",
    ),
    "diet": plain("vegetarian", "vegan", "pescatarian", "gluten-free", "dairy-free", "keto"),
    "cuisine": plain("Peruvian", "Thai", "Lebanese", "Japanese", "Ethiopian", "Georgian", "Sichuan", "Mexican"),
    "shoe": tuple(_v(f"EU{n}", f"EU {n}", f"{n} EU", f"size {n} (EU)") for n in range(37, 46)),
    "school": plain("Hillside Primary", "St. Mary's Primary", "Oakfield Academy", "Brookside Montessori"),
    "doctor": alts(
        ("Dr. Patel at Riverside Surgery", "Dr. Patel (Riverside Surgery)"),
        ("Dr. Haddad at Park Lane Medical", "Dr. Haddad (Park Lane Medical)"),
        ("Dr. Nwosu at Hyde Park Surgery", "Dr. Nwosu (Hyde Park Surgery)"),
        ("Dr. Lindgren at the Meanwood practice", "Dr. Lindgren (Meanwood)"),
    ),
    "coffee": plain("flat white with oat milk", "black americano", "double espresso", "decaf latte", "cortado"),
    "seat": plain("window", "aisle", "exit-row"),
    "airline": plain("TAP", "KLM", "British Airways", "Lufthansa", "easyJet", "Iberia"),
    "size": alts(("S", "small"), ("M", "medium"), ("L", "large"), ("XL", "extra large")),
    "bedtime": clock((19, 0), (19, 30), (20, 0), (20, 30)),
    "music": plain("Spotify", "Tidal", "Apple Music", "YouTube Music", "Deezer"),
    "theme": plain("dark mode", "light mode", "Solarized Dark", "high-contrast mode"),
    "phone": plain("Pixel 8", "iPhone 15", "Galaxy S24", "Fairphone 5", "iPhone 13 mini"),
    "gym": plain("PureGym Kirkstall", "Anytime Fitness", "the leisure centre", "Third Space", "The Gym Group"),
    "vetclinic": plain("Riverside Animal Clinic", "Greenpaws Vets", "Medivet Headingley", "Oak Tree Vets"),
    "petfood": plain("Royal Canin Indoor", "Lily's Kitchen", "Hill's i/d", "Purina Pro Plan", "Burns Original"),
    "kg": tuple(_v(f"{w}kg", f"{w:g} kg", f"{w:g}kg") for w in (17.5, 18.0, 19.0, 20.5, 22.0)),
    "walk": clock((6, 30), (7, 0), (7, 30), (8, 0)),
    "insurer": plain("Aviva", "Direct Line", "Admiral", "Allianz", "Lemonade", "LV="),
    "garage": plain("Kwik Fit on York Road", "the Honda dealer in Leeds", "Smith & Sons Motors", "Halfords Autocentre"),
    "parking": plain("bay 14", "bay 41", "P2-114", "space 7 behind the building", "the Q-Park on Wellington St"),
    "date": dates((3, 3), (3, 17), (4, 8), (4, 21), (5, 3), (5, 12), (5, 19), (6, 2), (6, 15), (7, 1), (9, 4)),
    "bday": birthdays((1, 9), (2, 14), (3, 3), (5, 19), (6, 2), (7, 27), (9, 22), (11, 2), (11, 20), (12, 8)),
    "time": clock((8, 30), (9, 0), (9, 30), (10, 0), (11, 15), (13, 0), (14, 0), (15, 30), (16, 45), (17, 0)),
    "subprice": amounts("GBP", 5.99, 7.99, 10.99, 12.99, 15.99, 17.99) + amounts("USD", 9.99, 22.99),
    "card": plain(
        "the Visa ending 4242", "the Amex ending 1005", "the Monzo debit card", "the joint Mastercard", "PayPal"
    ),
    "plan": plain("Basic", "Standard", "Premium", "Family", "Student", "Individual"),
    "bank": plain(
        "Nationwide", "Monzo", "Chase UK", "Vanguard", "Halifax", "Santander", "Trading 212", "Hargreaves Lansdown"
    ),
    "percent": tuple(_v(f"{p}%", f"{p}%", f"{p} percent") for p in ("3.85", "4.1", "4.6", "5.25", "1.5", "6.9")),
    "monthly": amounts("GBP", 150, 250, 400, 620, 890, 1240) + amounts("EUR", 300, 1150),
    "target": amounts("GBP", 5000, 8000, 12000, 15000, 25000),
    "rent": amounts("GBP", 950, 1150, 1325, 1480) + amounts("EUR", 1100, 1600),
    "isp": plain("Virgin Media", "BT", "Sky", "Community Fibre", "Vodafone", "Hyperoptic"),
    "landlord": plain("Mr. Hughes", "Greenway Lettings", "Mrs. Adebayo", "Harbour Estates", "the parish council"),
    "cadence": alts(("weekly", "every week"), ("fortnightly", "every two weeks"), ("monthly", "once a month")),
    "hourly": amounts("GBP", 12, 14, 15, 16.5, 18, 20),
    "hotel": plain(
        "an Airbnb near the old town",
        "the Novotel",
        "the Ibis Styles",
        "a guesthouse by the station",
        "a friend's flat",
        "the Marriott",
    ),
    "tripbudget": amounts("GBP", 800, 1200, 1500, 2500, 4000) + amounts("EUR", 1800, 3000),
    "flight": plain("TP1351", "BA432", "LH903", "NH212", "FR8214", "KL1004"),
    "venue": plain(
        "the community centre",
        "the school hall",
        "St. Anne's church hall",
        "the leisure centre",
        "the library meeting room",
        "The Crown (back room)",
    ),
    "fee": amounts("GBP", 6, 8, 10, 12.5, 15, 25),
    "mg": tuple(_v(f"{n}mg", f"{n} mg", f"{n}mg") for n in (5, 10, 20, 25, 40)),
    "when": plain("in the morning", "with breakfast", "with dinner", "at bedtime", "in the evening"),
    # work
    "team": tuple(
        _v(t, t, the=(f"the {t} team",))
        for t in ("Platform", "Payments", "Growth", "Core Infra", "Data", "Mobile", "Search", "SRE")
    ),
    "staff": tuple(_v(first, first, full) for first, full in STAFF_NAMES),
    "db": alts(("Postgres", "PostgreSQL"), ("MySQL",), ("DynamoDB",), ("MongoDB",), ("CockroachDB",), ("Aurora",)),
    "region": alts(
        ("eu-west-1", "eu-west-1 (Ireland)"),
        ("eu-central-1", "eu-central-1 (Frankfurt)"),
        ("us-east-1", "us-east-1 (N. Virginia)"),
        ("us-west-2", "us-west-2 (Oregon)"),
        ("ap-southeast-2", "ap-southeast-2 (Sydney)"),
    ),
    "runtime": plain("Python 3.12", "Python 3.11", "Go 1.22", "Java 21", "Node 20", "Ruby 3.3"),
    "latency": tuple(_v(f"{n}ms", f"{n} ms", f"{n}ms", f"{n / 1000:g} s") for n in (150, 200, 250, 300, 400, 500)),
    "version": tuple(_v(v, f"v{v}", v) for v in ("1.9.7", "2.3.1", "2.4.0", "3.0.0", "3.1.2")),
    "freeze": alts(
        ("Fri 18:00 UTC to Mon 08:00 UTC", "Friday 6pm UTC to Monday 8am UTC", "Fri 18:00 \u2013 Mon 08:00 UTC"),
        ("Thu 20:00 UTC to Mon 06:00 UTC", "Thursday 8pm UTC to Monday 6am UTC", "Thu 20:00 \u2013 Mon 06:00 UTC"),
        ("Fri 12:00 UTC to Mon 09:00 UTC", "Friday noon UTC to Monday 9am UTC", "Fri 12:00 \u2013 Mon 09:00 UTC"),
        ("Fri 16:00 UTC to Mon 10:00 UTC", "Friday 4pm UTC to Monday 10am UTC", "Fri 16:00 \u2013 Mon 10:00 UTC"),
    ),
    "replicas": counts(2, 3, 4, 6, 8, 12),
    "loglevel": alts(("DEBUG", "debug"), ("INFO", "info"), ("WARN", "warn"), ("ERROR", "error")),
    "mem": alts(("512Mi", "512 MiB"), ("1Gi", "1 GiB"), ("2Gi", "2 GiB"), ("4Gi", "4 GiB")),
    "k8s": alts(("1.28", "v1.28"), ("1.29", "v1.29"), ("1.30", "v1.30"), ("1.31", "v1.31")),
    "pg": plain("14", "15", "16", "17"),
    "nodes": counts(3, 5, 6, 8, 10, 12, 16),
    "arr": amounts("USD", 48000, 120000, 250000, 480000, 1200000) + amounts("EUR", 90000, 310000),
    "tier": plain("Starter", "Pro", "Team", "Business", "Enterprise"),
    "contact": plain("Helen Marsh", "Victor Osei", "Laura Chen", "Piotr Nowak", "Sara Lind", "James Okoro"),
    "sla": alts(("1-hour",), ("4-hour",), ("next-business-day", "NBD"), ("24-hour",)),
    "rate": alts(
        ("60 requests/min", "60 req/min", "60 requests a minute"),
        ("300 requests/min", "300 req/min", "300 requests a minute"),
        ("600 requests/min", "600 req/min", "600 requests a minute"),
        ("1,000 requests/min", "1k req/min", "1,000 requests a minute"),
        ("5,000 requests/min", "5k req/min", "5,000 requests a minute"),
    ),
    "seatprice": amounts("USD", 8, 12, 15, 19, 29, 45),
    "storage": alts(("5 GB", "5GB"), ("50 GB", "50GB"), ("100 GB", "100GB"), ("1 TB", "1TB"), ("10 TB", "10TB")),
    "response": alts(("1 hour", "1h"), ("4 hours", "4h"), ("24 hours", "24h"), ("48 hours", "48h")),
    "priority": plain("P1", "P2", "P3", "P4"),
    "status": alts(("in progress",), ("in review",), ("to do",), ("done",), ("on hold",), ("in QA",)),
    "phase": plain("discovery", "design", "build", "beta", "rollout"),
    "budget": amounts("USD", 15000, 40000, 75000, 120000, 250000) + amounts("EUR", 60000),
    "title": tuple(
        _v(t, t, a=(("an " if t[0] in "AEIOU" else "a ") + t,))
        for t in (
            "Staff Engineer",
            "Engineering Manager",
            "Product Manager",
            "Senior SRE",
            "Tech Lead",
            "Data Scientist",
            "Principal Engineer",
        )
    ),
    "tz": alts(
        ("CET", "Central European Time"),
        ("UK time",),
        ("US Eastern", "ET"),
        ("US Pacific", "PT"),
        ("IST", "India time"),
        ("JST", "Japan time"),
    ),
    "room": plain("the Orion room", "Room 4.12", "the main boardroom", "the Lisbon room", "the fourth-floor lounge"),
    "mcadence": alts(("weekly",), ("fortnightly", "every two weeks"), ("monthly", "once a month")),
    "ci": plain("CircleCI", "GitHub Actions", "Buildkite", "Jenkins", "GitLab CI", "Bitrise"),
    "tracker": plain("Sentry", "Rollbar", "Bugsnag", "Honeybadger", "Datadog Error Tracking"),
    "sprint": tuple(
        _v(n, n, adj=(adj,))
        for n, adj in (("one week", "one-week"), ("two weeks", "two-week"), ("three weeks", "3-week"))
    ),
    "concost": amounts("USD", 18000, 36000, 64000, 95000, 140000),
    "seats": counts(10, 25, 40, 60, 120),
    "bigbudget": amounts("USD", 20000, 50000, 80000, 150000) + amounts("EUR", 30000),
}

# --------------------------------------------------------------------------------------------------
# Subjects
# --------------------------------------------------------------------------------------------------

PERSONAL_STYPES = frozenset(
    {"person", "pet", "vehicle", "appointment", "sub", "account", "home", "collection", "helper", "trip", "activity"}
    | {"med", "loop-personal"}
)


_LINKED = re.compile(r" (with|for|in|on|of) ")


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") and not name.endswith("'s") else "'s")


def sub(stype: str, key: str, *names: str, tags: tuple[str, ...] = (), topic: str = "", nopos: bool = False) -> Subject:
    plain_names = [n for n in names if "(" not in n and "," not in n and not _LINKED.search(n)]
    pos = () if nopos else tuple(_possessive(n) for n in plain_names)
    return Subject(key, stype, names, pos, frozenset((key, *tags)), topic)


SUBJECTS: tuple[Subject, ...] = (
    # people around the user
    sub("person", "user", "the user", "user"),
    sub("person", "ana", "the user's sister Ana", "Ana (sister)", "Ana"),
    sub("person", "tomas", "the user's brother Tomás", "Tomás (brother)", "Tomás"),
    sub("person", "sam", "the user's partner Sam", "Sam (partner)", "Sam"),
    sub("person", "mum", "the user's mother", "the user's mum", "Mum"),
    sub("person", "dad", "the user's father", "the user's dad", "Dad"),
    sub("person", "kenji", "the user's friend Kenji", "Kenji", "Kenji (friend)"),
    sub("person", "rosa", "the user's grandmother Rosa", "Grandma Rosa", "Rosa (grandmother)"),
    sub("person", "farah", "the user's cousin Farah", "cousin Farah", "Farah"),
    sub("person", "jo", "the user's best friend Jo", "Jo", "Jo (best friend)"),
    sub("person", "bea", "the user's aunt Bea", "Aunt Bea", "Bea"),
    sub("person", "olek", "the user's brother-in-law Olek", "Olek", "Olek (brother-in-law)"),
    sub("person", "leo", "the user's son Leo", "Leo", "Leo (son)"),
    sub("person", "mia", "the user's daughter Mia", "Mia", "Mia (daughter)"),
    sub("person", "nina", "the user's niece Nina", "Nina", "Nina (niece)"),
    # pets
    sub("pet", "biscuit", "the user's dog Biscuit", "Biscuit", "Biscuit (dog)"),
    sub("pet", "rufus", "the dog Rufus", "Rufus", "Rufus (dog)"),
    sub("pet", "miso", "the cat Miso", "Miso", "Miso (cat)"),
    sub("pet", "pepper", "the cat Pepper", "Pepper", "Pepper (cat)"),
    sub("pet", "clover", "the rabbit Clover", "Clover", "Clover (rabbit)"),
    # vehicles
    sub("vehicle", "civic", "the user's Honda Civic", "the Civic", "the Honda"),
    sub("vehicle", "tesla", "the Tesla Model 3", "the Tesla"),
    sub("vehicle", "van", "the family van", "the VW van", "the van (VW Transporter)"),
    sub("vehicle", "ebike", "the user's e-bike", "the e-bike"),
    sub("vehicle", "vespa", "Sam's Vespa", "the Vespa", tags=("sam",)),
    # appointments
    sub("appointment", "dentist", "the user's dentist appointment", "the dentist appointment", topic="health"),
    sub("appointment", "physio", "the physio session", "the user's physio appointment", topic="health"),
    sub("appointment", "checkup", "Mum's annual check-up", "Mum's check-up", tags=("mum",), topic="health"),
    sub("appointment", "eyeexam", "the eye exam", "the user's eye test", topic="health"),
    sub("appointment", "haircut", "Sam's haircut", "Sam's barber appointment", tags=("sam",), topic="grooming"),
    sub(
        "appointment", "ptm", "Leo's parent-teacher meeting", "the parent-teacher meeting", tags=("leo",), topic="kids"
    ),
    sub("appointment", "tax", "the meeting with the tax advisor", "the tax advisor meeting", topic="money"),
    sub("appointment", "jab", "Mia's vaccination", "Mia's jab appointment", tags=("mia",), topic="health"),
    sub("appointment", "vetvisit", "Miso's vet visit", "the vet visit for Miso", tags=("miso",), topic="pets"),
    sub("appointment", "mot", "the Civic's MOT", "the MOT for the Civic", tags=("civic",), topic="vehicles"),
    # subscriptions
    sub("sub", "netflix", "Netflix", "the Netflix subscription"),
    sub("sub", "disney", "Disney+", "the Disney+ subscription"),
    sub("sub", "nyt", "the NYT digital subscription", "the NYT sub"),
    sub("sub", "icloud", "iCloud+", "the iCloud+ plan"),
    sub("sub", "hellofresh", "the HelloFresh box", "HelloFresh"),
    sub("sub", "adobe", "Adobe Creative Cloud", "the Adobe CC plan"),
    sub("sub", "duolingo", "Duolingo Super", "the Duolingo subscription"),
    sub("sub", "audible", "the Audible membership", "Audible"),
    sub("sub", "gamepass", "Xbox Game Pass", "Game Pass"),
    # money
    sub("account", "savings", "the joint savings account", "joint savings"),
    sub("account", "isa", "the user's ISA", "the stocks & shares ISA"),
    sub("account", "mortgage", "the mortgage", "the user's mortgage"),
    sub("account", "amex", "the Amex card", "the user's Amex"),
    sub("account", "efund", "the emergency fund", "the user's emergency fund"),
    sub("account", "carloan", "the car loan", "the loan on the Civic", tags=("civic",)),
    sub("account", "pension", "the workplace pension", "the user's pension"),
    # home
    sub("home", "flat", "the user's flat", "the flat"),
    sub("home", "cottage", "the Cornwall cottage", "the holiday cottage"),
    sub("home", "storage", "the storage unit", "the lock-up on Mill Lane"),
    sub("home", "allotment", "the allotment plot", "the allotment"),
    sub("collection", "recycling", "recycling", "the recycling collection", "the blue bin"),
    sub("collection", "general", "general waste", "the black bin", "the general waste collection"),
    sub("collection", "gardenwaste", "garden waste", "the green bin", "the garden waste collection"),
    sub("collection", "foodwaste", "food waste", "the food caddy", "the food waste collection"),
    sub("collection", "glass", "glass recycling", "the glass box"),
    sub("helper", "cleaner", "the cleaner, Marta", "Marta (cleaner)", "the cleaner"),
    sub("helper", "gardener", "the gardener, Phil", "Phil (gardener)", "the gardener"),
    sub("helper", "windows", "the window cleaner", "the window cleaner (Dev)"),
    sub("helper", "walker", "the dog walker, Zoe", "Zoe (dog walker)", "the dog walker", tags=("biscuit",)),
    sub("helper", "nanny", "the nanny, Grace", "Grace (nanny)", "the nanny"),
    # trips
    sub("trip", "lisbontrip", "the Lisbon trip", "Lisbon trip", tags=("lisbon",)),
    sub("trip", "tokyotrip", "the Tokyo trip", "Tokyo trip", tags=("tokyo",)),
    sub("trip", "skitrip", "the ski week in Val Thorens", "the ski trip"),
    sub("trip", "reunion", "the family reunion in Kraków", "the Kraków reunion", tags=("kraków",)),
    sub("trip", "camping", "the Lake District camping trip", "the camping trip"),
    sub("trip", "berlintrip", "the Berlin weekend", "Berlin weekend", tags=("berlin",)),
    # activities
    sub("activity", "bookclub", "the user's book club", "book club"),
    sub("activity", "climbing", "the climbing group", "climbing"),
    sub("activity", "pottery", "the pottery class", "pottery"),
    sub("activity", "football", "five-a-side football", "five-a-side"),
    sub("activity", "choir", "choir practice", "choir"),
    sub("activity", "swim", "Leo's swimming class", "Leo's swimming", tags=("leo",)),
    sub("activity", "piano", "Mia's piano lesson", "Mia's piano", tags=("mia",)),
    sub("activity", "running", "the running club", "running club"),
    # medication
    sub("med", "lisinopril", "the user's lisinopril", "lisinopril (user)", nopos=True),
    sub("med", "atorvastatin", "Mum's atorvastatin", "atorvastatin (Mum)", tags=("mum",), nopos=True),
    sub("med", "cetirizine", "Leo's cetirizine", "Leo's hay fever medicine", tags=("leo",), nopos=True),
    sub("med", "amlodipine", "Dad's amlodipine", "amlodipine (Dad)", tags=("dad",), nopos=True),
    # services
    sub("service", "payments", "payments-api", "the payments API", "payments-api service"),
    sub("service", "billing", "billing-service", "the billing service"),
    sub("service", "search", "search-api", "the search service"),
    sub("service", "auth", "auth-gateway", "the auth gateway"),
    sub("service", "notif", "notifications-worker", "the notifications worker"),
    sub("service", "ledger", "the ledger service", "ledger-svc"),
    sub("service", "checkout", "checkout-web", "the checkout frontend"),
    sub("service", "etl", "reporting-etl", "the reporting ETL"),
    sub("service", "inventory", "inventory-svc", "the inventory service"),
    sub("service", "bff", "mobile-bff", "the mobile BFF"),
    sub("service", "profile", "user-profile-api", "the profile API"),
    sub("service", "transcoder", "media-transcoder", "the media transcoder"),
    # a service in one environment
    sub("svcenv", "payments@staging", "payments-api in staging", "staging payments-api", tags=("payments", "staging")),
    sub("svcenv", "payments@prod", "payments-api in production", "prod payments-api", tags=("payments", "prod")),
    sub("svcenv", "search@staging", "search-api in staging", "staging search-api", tags=("search", "staging")),
    sub("svcenv", "search@prod", "search-api in production", "prod search-api", tags=("search", "prod")),
    sub("svcenv", "checkout@staging", "checkout-web on staging", "staging checkout-web", tags=("checkout", "staging")),
    sub("svcenv", "checkout@prod", "checkout-web on production", "prod checkout-web", tags=("checkout", "prod")),
    sub("svcenv", "auth@staging", "auth-gateway in staging", "staging auth-gateway", tags=("auth", "staging")),
    sub("svcenv", "auth@prod", "auth-gateway in production", "prod auth-gateway", tags=("auth", "prod")),
    # environments
    sub("env", "staging", "staging", "the staging environment"),
    sub("env", "prod", "production", "prod", "the production environment"),
    sub("env", "qa", "the QA environment", "QA"),
    sub("env", "dev", "the dev cluster", "dev"),
    sub("env", "perf", "the perf-test environment", "perf"),
    sub("env", "euprod", "the EU prod cluster", "eu-prod"),
    sub("env", "usprod", "the US prod cluster", "us-prod"),
    sub("env", "sandbox", "the partner sandbox", "the sandbox"),
    # customers
    sub("customer", "acme", "Acme Corp", "Acme"),
    sub("customer", "globex", "Globex", "Globex Corporation"),
    sub("customer", "initech", "Initech", "Initech Inc."),
    sub("customer", "umbrella", "Umbrella Health", "Umbrella"),
    sub("customer", "hooli", "Hooli", "Hooli Inc."),
    sub("customer", "stark", "Stark Logistics", "Stark"),
    sub("customer", "wayne", "Wayne Foods", "Wayne"),
    sub("customer", "tyrell", "Tyrell Biotech", "Tyrell"),
    sub("customer", "vandelay", "Vandelay Imports", "Vandelay"),
    sub("customer", "cyberdyne", "Cyberdyne", "Cyberdyne Systems"),
    sub("customer", "massive", "Massive Dynamic"),
    sub("customer", "soylent", "Soylent Co", "Soylent"),
    # pricing tiers
    sub("tier", "free", "the free tier", "the Free plan"),
    sub("tier", "pro", "the pro tier", "the Pro plan"),
    sub("tier", "teamplan", "the team plan", "the Team tier"),
    sub("tier", "enterprise", "the enterprise plan", "the Enterprise tier"),
    sub("tier", "starter", "the starter plan", "the Starter tier"),
    sub("tier", "edu", "the education plan", "the Education tier"),
    # tickets
    sub("ticket", "OPS-1412", "OPS-1412", "ticket OPS-1412"),
    sub("ticket", "OPS-1519", "OPS-1519", "ticket OPS-1519"),
    sub("ticket", "BILL-88", "BILL-88", "ticket BILL-88"),
    sub("ticket", "SEC-203", "SEC-203", "ticket SEC-203"),
    sub("ticket", "INC-4471", "INC-4471", "incident ticket INC-4471"),
    sub("ticket", "MOB-310", "MOB-310", "ticket MOB-310"),
    sub("ticket", "DATA-77", "DATA-77", "ticket DATA-77"),
    sub("ticket", "WEB-2056", "WEB-2056", "ticket WEB-2056"),
    sub("ticket", "PAY-901", "PAY-901", "ticket PAY-901"),
    sub("ticket", "SRCH-45", "SRCH-45", "ticket SRCH-45"),
    # projects
    sub("project", "atlas", "Project Atlas", "Atlas"),
    sub("project", "falcon", "Project Falcon", "Falcon"),
    sub("project", "dwh", "the data-warehouse migration", "the DWH migration"),
    sub("project", "ssorollout", "the SSO rollout", "SSO rollout"),
    sub("project", "redesign", "the mobile app redesign", "the app redesign"),
    sub("project", "pricingrevamp", "the Q3 pricing revamp", "the pricing revamp"),
    sub("project", "kestrel", "Kestrel", "Project Kestrel"),
    sub("project", "onboarding", "the onboarding revamp", "onboarding revamp"),
    sub("project", "kafka", "the Kafka upgrade", "Kafka upgrade"),
    sub("project", "gdpr", "the GDPR audit", "GDPR audit"),
    # colleagues
    *(sub("staff", first.lower(), first, full) for first, full in STAFF_NAMES),
    # meetings
    sub("meeting", "standup", "the team standup", "standup", "daily standup"),
    sub("meeting", "review", "the sprint review", "sprint review"),
    sub("meeting", "arch", "the architecture review", "arch review"),
    sub("meeting", "allhands", "the all-hands", "all-hands"),
    sub("meeting", "retro", "the retro", "the sprint retro"),
    sub("meeting", "releasesync", "the release sync", "release sync"),
    sub("meeting", "incidentreview", "the incident review", "incident review"),
    sub("meeting", "qbr", "the Acme QBR", "the quarterly business review with Acme", tags=("acme",)),
    sub("meeting", "oneone", "the 1:1 with Dana", "Dana's 1:1", tags=("dana",)),
    # teams
    sub("team", "payments-team", "the Payments team", "Payments", tags=("payments",)),
    sub("team", "platform-team", "the Platform team", "Platform", tags=("platform",)),
    sub("team", "mobile-team", "the Mobile team", "Mobile", tags=("mobile",)),
    sub("team", "growth-team", "the Growth team", "Growth", tags=("growth",)),
    sub("team", "data-team", "the Data team", "Data", tags=("data",)),
    sub("team", "sre-team", "the SRE team", "SRE", tags=("sre",)),
    sub("team", "search-team", "the Search team", "Search", tags=("search",)),
    sub("team", "security-team", "the Security team", "Security"),
    # vendor contracts
    sub("contract", "datadog", "the Datadog contract", "Datadog"),
    sub("contract", "pagerduty", "the PagerDuty contract", "PagerDuty"),
    sub("contract", "awsplan", "the AWS savings plan", "the AWS commitment"),
    sub("contract", "zoom", "the Zoom licence", "Zoom"),
    sub("contract", "figma", "the Figma subscription", "Figma"),
    sub("contract", "snowflake", "the Snowflake contract", "Snowflake"),
    sub("contract", "github", "the GitHub Enterprise licence", "GitHub Enterprise"),
    sub("contract", "okta", "the Okta contract", "Okta"),
    # budgets
    sub("budget", "mktbudget", "the Q3 marketing budget", "Q3 marketing budget"),
    sub("budget", "offsitebudget", "the team offsite budget", "offsite budget"),
    sub("budget", "cloudcap", "the monthly cloud spend cap", "the cloud cap"),
    sub("budget", "travelbudget", "the conference travel budget", "conference travel budget"),
    sub("budget", "hiringbudget", "the platform hiring budget", "platform hiring budget"),
    sub("budget", "toolingbudget", "the design tooling budget", "design tooling budget"),
)

BY_KEY = {s.key: s for s in SUBJECTS}
ADULTS = ("user", "ana", "tomas", "sam", "mum", "dad", "kenji", "rosa", "farah", "jo", "bea", "olek")
WORKING = tuple(k for k in ADULTS if k != "rosa")
KIDS = ("leo", "mia", "nina")


# --------------------------------------------------------------------------------------------------
# Attribute families: state frames (no update cue), cued frames (an update cue; {o} is the old
# value), open-question frames and added details that never change the value.
# --------------------------------------------------------------------------------------------------


def fam(
    name: str,
    stype: str,
    vtype: str,
    label: str,
    topic: str,
    *,
    states: tuple[str, ...],
    cued: tuple[str, ...],
    qs: tuple[str, ...],
    details: tuple[str, ...],
    kind: str = "fact",
    only: tuple[str, ...] = (),
    fixed: bool = False,
    generic: bool = True,
) -> Family:
    return Family(name, stype, vtype, label, topic, states, cued, qs, details, kind, only, fixed, generic)


FAMILIES: tuple[Family, ...] = (
    # ---- people -----------------------------------------------------------------------------------
    fam(
        "lives_in",
        "person",
        "city",
        "home city",
        "home",
        states=(
            "{s} lives in {v[n]}.",
            "{s} is based in {v[n]}.",
            "{s} — lives in {v[n]}.",
            "{sp} home is in {v[n]}.",
            "home for {s}: {v[n]}.",
        ),
        cued=(
            "{s} moved to {v[n]}.",
            "{s} now lives in {v[n]}.",
            "{s} relocated from {o[n]} to {v[n]}.",
            "{s} left {o[n]}; lives in {v[n]} now.",
            "{s} has moved from {o[n]} to {v[n]} ({m}).",
        ),
        qs=("where does {s} live?", "which city is {s} living in these days?"),
        details=(
            ", in a flat near the station",
            ", not far from the old town",
            " (with two housemates)",
            ". Usually reachable on weekends.",
            ", on the north side of the city",
        ),
        only=ADULTS,
    ),
    fam(
        "works_in",
        "person",
        "city",
        "work city",
        "career",
        states=(
            "{s} works in {v[n]}.",
            "{sp} office is in {v[n]}.",
            "{s} commutes to {v[n]} for work.",
            "{s}: works in {v[n]}.",
        ),
        cued=("{s} now works in {v[n]}.", "{sp} job moved to {v[n]}.", "{s} transferred to the {v[n]} office."),
        qs=("which city does {s} work in?", "where is {sp} office?"),
        details=(", mostly from the downtown office", ", three days a week in the office", " (hybrid)"),
        only=WORKING,
    ),
    fam(
        "employer",
        "person",
        "company",
        "employer",
        "career",
        states=(
            "{s} works at {v[n]}.",
            "{s} is employed by {v[n]}.",
            "{sp} employer: {v[n]}.",
            "{s} has a job at {v[n]}.",
        ),
        cued=(
            "{s} now works at {v[n]}.",
            "{s} left {o[n]} and joined {v[n]}.",
            "{s} started at {v[n]} in {m} (previously at {o[n]}).",
        ),
        qs=("who does {s} work for?", "which company is {s} with these days?"),
        details=(" as a project manager", ", on a permanent contract", ", mostly remote", " (in the finance team)"),
        only=WORKING,
    ),
    fam(
        "birthday",
        "person",
        "bday",
        "birthday",
        "family",
        states=(
            "{sp} birthday is {v[n]}.",
            "{s} — birthday {v[n]}.",
            "{s} was born on {v[n]}.",
            "birthday: {s}, {v[n]}.",
            "{s} celebrates their birthday on {v[n]}.",
        ),
        cued=(
            "correction: {sp} birthday is {v[n]}, not {o[n]}.",
            "{sp} birthday is actually {v[n]} (not {o[n]}).",
            "fix: {s} was born on {v[n]}; the earlier note saying {o[n]} was wrong.",
        ),
        qs=("when is {sp} birthday?", "need {sp} birthday for the calendar."),
        details=(
            " — likes a small dinner rather than a party",
            ". Reminder set a week before.",
            " (card and flowers usually)",
        ),
        fixed=True,
    ),
    fam(
        "diet",
        "person",
        "diet",
        "diet",
        "food",
        states=(
            "{s} is {v[n]}.",
            "{s} follows a {v[n]} diet.",
            "diet ({s}): {v[n]}.",
            "{s} keeps to a {v[n]} diet.",
        ),
        cued=(
            "{s} is {v[n]} now.",
            "{s} went {v[n]} in {m}.",
            "{s} switched from a {o[n]} diet to {v[n]}.",
            "{s} has been {v[n]} since {m} (was {o[n]} before).",
        ),
        qs=("any dietary restrictions for {s}?", "what does {s} eat — any diet to respect?"),
        details=(", fairly strict about it", ", also at restaurants", ". Keep in mind for dinner invitations."),
    ),
    fam(
        "cuisine",
        "person",
        "cuisine",
        "favourite cuisine",
        "food",
        states=(
            "{s} loves {v[n]} food.",
            "{sp} favourite cuisine is {v[n]}.",
            "{s} would pick {v[n]} for a night out.",
            "fav cuisine ({s}): {v[n]}.",
        ),
        cued=(
            "{s} is into {v[n]} food now.",
            "{sp} favourite is {v[n]} these days, no longer {o[n]}.",
            "{s} has gone off {o[n]}; prefers {v[n]} instead.",
        ),
        qs=("what food does {s} like best?", "which cuisine should we book for {s}?"),
        details=(
            " — especially anything spicy",
            ", the more authentic the better",
            ". Good default for birthday dinners.",
        ),
        kind="preference",
    ),
    fam(
        "shoe",
        "person",
        "shoe",
        "shoe size",
        "shopping",
        states=("{sp} shoe size is {v[n]}.", "shoes for {s}: {v[n]}.", "{s} takes {v[n]} in shoes."),
        cued=("{s} takes {v[n]} in shoes now.", "{sp} shoe size went from {o[n]} to {v[n]}."),
        qs=("what shoe size is {s}?", "need {sp} shoe size before ordering."),
        details=(", wide fit", ". Prefers trainers over leather.", " (same for boots)"),
        only=ADULTS,
    ),
    fam(
        "school",
        "person",
        "school",
        "school",
        "kids",
        states=("{s} goes to {v[n]}.", "{sp} school: {v[n]}.", "{s} is a pupil at {v[n]}.", "{s} attends {v[n]}."),
        cued=(
            "{s} changed schools — now at {v[n]}.",
            "{s} moved from {o[n]} to {v[n]} this term.",
            "{s} starts at {v[n]} in September.",
        ),
        qs=("which school does {s} go to?", "{sp} school — confirm the name."),
        details=(", in Year 4", ", about ten minutes' walk from home", " (the uniform is navy)"),
        only=KIDS,
    ),
    fam(
        "gp",
        "person",
        "doctor",
        "GP",
        "health",
        states=(
            "{sp} GP is {v[n]}.",
            "{s} is registered with {v[n]}.",
            "GP ({s}): {v[n]}.",
            "{s} sees {v[n]} as their GP.",
        ),
        cued=(
            "{s} registered with a different GP: {v[n]} (was {o[n]}).",
            "{sp} GP is now {v[n]}.",
            "{s} switched GP to {v[n]}.",
        ),
        qs=("who is {sp} GP?", "which GP practice is {s} with?"),
        details=(", appointments via the NHS app", ", usually a two-week wait", " (ask for the nurse for blood tests)"),
    ),
    fam(
        "coffee",
        "person",
        "coffee",
        "coffee order",
        "food",
        states=(
            "{sp} usual coffee is a {v[n]}.",
            "{s} orders a {v[n]} every time.",
            "coffee ({s}): {v[n]}.",
            "{s} drinks a {v[n]} in the morning.",
        ),
        cued=(
            "{s} has switched to a {v[n]}.",
            "{sp} coffee order changed from a {o[n]} to a {v[n]}.",
            "{s} orders a {v[n]} now.",
        ),
        qs=("how does {s} take their coffee?", "what's {sp} coffee order?"),
        details=(", extra hot", ", no sugar", ", large if it's before 9am"),
        kind="preference",
        only=ADULTS,
    ),
    fam(
        "seat",
        "person",
        "seat",
        "seat preference",
        "travel",
        states=(
            "{s} prefers {v[n]} seats on flights.",
            "{s} always asks for the {v[n]} seat.",
            "seat preference ({s}): {v[n]}.",
            "when booking for {s}, choose {v[n]} seats.",
        ),
        cued=(
            "{s} prefers {v[n]} seats now.",
            "{s} has switched to {v[n]} seats (was {o[n]}).",
            "{s} wants {v[n]} rather than {o[n]} going forward.",
        ),
        qs=("window or aisle for {s}?", "does {s} have a seat preference on flights?"),
        details=(", ideally near the front", " on long-haul flights especially", ", and extra legroom if it's cheap"),
        kind="preference",
    ),
    fam(
        "airline",
        "person",
        "airline",
        "preferred airline",
        "travel",
        states=(
            "{s} flies {v[n]} when possible.",
            "{sp} preferred airline is {v[n]}.",
            "{s} likes to fly {v[n]}.",
            "airline pref ({s}): {v[n]}.",
        ),
        cued=(
            "{s} now prefers {v[n]} over {o[n]}.",
            "{s} switched loyalty to {v[n]}.",
            "{s} flies {v[n]} these days; {o[n]} is off the list.",
        ),
        qs=("which airline does {s} prefer?",),
        details=(" — has status with them", ", collects the miles", " for anything short-haul"),
        kind="preference",
        only=ADULTS,
    ),
    fam(
        "tshirt",
        "person",
        "size",
        "T-shirt size",
        "shopping",
        states=("{sp} T-shirt size is {v[n]}.", "{s} takes {v[n]} in tops.", "T-shirts for {s}: size {v[n]}."),
        cued=("{s} takes {v[n]} in tops now.", "{sp} T-shirt size is {v[n]} now (was {o[n]})."),
        qs=("what size T-shirt does {s} wear?",),
        details=(", slim fit", " (prefers cotton)", ". Hates big logos."),
    ),
    fam(
        "bedtime",
        "person",
        "bedtime",
        "bedtime",
        "kids",
        states=(
            "{sp} bedtime is {v[n]}.",
            "{s} goes to bed at {v[n]}.",
            "lights out for {s}: {v[n]}.",
            "{s} — bedtime {v[n]}.",
        ),
        cued=(
            "{sp} bedtime moved to {v[n]}.",
            "{s} goes to bed at {v[n]} now.",
            "{sp} bedtime is {v[n]} from this week (was {o[n]}).",
        ),
        qs=("what time is {sp} bedtime?",),
        details=(" on school nights", ", after a bath and a story", ". Half an hour later at weekends."),
        only=KIDS,
    ),
    fam(
        "music",
        "person",
        "music",
        "music service",
        "media",
        states=(
            "{s} uses {v[n]} for music.",
            "{s} listens on {v[n]}.",
            "music streaming ({s}): {v[n]}.",
            "{sp} music app is {v[n]}.",
        ),
        cued=(
            "{s} switched from {o[n]} to {v[n]} ({m}).",
            "{s} moved to {v[n]} for music.",
            "{s} is on {v[n]} now, not {o[n]}.",
        ),
        qs=("which music service does {s} use?",),
        details=(" on the family plan", ", mostly for podcasts too", " — playlists synced to the car"),
        only=("user", "sam", "jo", "kenji", "ana", "tomas"),
    ),
    fam(
        "theme",
        "person",
        "theme",
        "editor theme",
        "tech",
        states=("{s} prefers {v[n]} in all editors.", "editor theme for {s}: {v[n]}.", "{s} codes in {v[n]}."),
        cued=("{s} now prefers {v[n]} in editors.", "{s} switched every editor to {v[n]}."),
        qs=("does {s} prefer dark or light mode?",),
        details=(", with a larger font", ", including the terminal", " (Fira Code font)"),
        kind="preference",
        only=("user", "kenji", "sam"),
    ),
    fam(
        "phone",
        "person",
        "phone",
        "phone",
        "tech",
        states=("{sp} phone: {v[n]}.", "{s} uses the {v[n]}.", "{sp} current phone is the {v[n]}."),
        cued=(
            "{s} upgraded to the {v[n]}.",
            "{s} replaced the {o[n]} with the {v[n]}.",
            "{sp} phone is now the {v[n]}.",
        ),
        qs=("what phone does {s} have?",),
        details=(", 256 GB", ", in a green case", " (work and personal SIM)"),
        only=ADULTS,
    ),
    fam(
        "gym",
        "person",
        "gym",
        "gym",
        "fitness",
        states=("{s} trains at {v[n]}.", "{sp} gym: {v[n]}.", "{s} is a member at {v[n]}.", "{s} works out at {v[n]}."),
        cued=("{s} changed gyms — {v[n]} now.", "{s} moved from {o[n]} to {v[n]}.", "{s} trains at {v[n]} now."),
        qs=("which gym does {s} go to?",),
        details=(", usually before work", ", three times a week", " (off-peak membership)"),
        only=ADULTS,
    ),
    # ---- pets ---------------------------------------------------------------------------------------
    fam(
        "vet",
        "pet",
        "vetclinic",
        "vet",
        "pets",
        states=(
            "{sp} vet is {v[n]}.",
            "{s} is registered at {v[n]}.",
            "vet for {s}: {v[n]}.",
            "{s} goes to {v[n]} for check-ups.",
        ),
        cued=("{s} moved to {v[n]} (was at {o[n]}).", "{sp} vet is now {v[n]}.", "{s} switched vets to {v[n]}."),
        qs=("which vet is {s} registered with?", "need the name of {sp} vet."),
        details=(", ask for Dr. Okafor", ", open until 7pm on weekdays", " (insurance details on file there)"),
    ),
    fam(
        "petfood",
        "pet",
        "petfood",
        "food",
        "pets",
        states=("{s} eats {v[n]}.", "{sp} food: {v[n]}.", "{s} is fed {v[n]}.", "{s} is on {v[n]}."),
        cued=("{s} is on {v[n]} now.", "{s} switched from {o[n]} to {v[n]}.", "vet changed {sp} food to {v[n]}."),
        qs=("what does {s} eat?", "which food brand for {s}?"),
        details=(", half a pouch morning and evening", ", dry only", " (ordered via Zooplus)"),
        only=("biscuit", "rufus", "miso", "pepper"),
    ),
    fam(
        "petweight",
        "pet",
        "kg",
        "weight",
        "pets",
        states=("{s} weighs {v[n]}.", "{sp} weight: {v[n]}.", "{s} is {v[n]} at the last weigh-in."),
        cued=("{s} weighs {v[n]} now (was {o[n]}).", "{s} now weighs {v[n]}.", "{sp} weight changed to {v[n]}."),
        qs=("how much does {s} weigh?",),
        details=(", per the vet's scale", ", a healthy weight for the breed", ". Weighed at the clinic."),
        kind="observation",
        only=("biscuit", "rufus"),
    ),
    fam(
        "walk",
        "pet",
        "walk",
        "morning walk time",
        "pets",
        states=(
            "{sp} morning walk is at {v[n]}.",
            "{s} gets walked at {v[n]} every morning.",
            "morning walk ({s}): {v[n]}.",
        ),
        cued=(
            "{sp} morning walk moved to {v[n]}.",
            "{s} is walked at {v[n]} now.",
            "{sp} walk is {v[n]} going forward (was {o[n]}).",
        ),
        qs=("what time is {sp} morning walk?",),
        details=(", around the park loop", ", about 40 minutes", " (lead on near the road)"),
        only=("biscuit", "rufus"),
    ),
    # ---- vehicles -----------------------------------------------------------------------------------
    fam(
        "insurer",
        "vehicle",
        "insurer",
        "insurer",
        "vehicles",
        states=(
            "{s} is insured with {v[n]}.",
            "insurance for {s}: {v[n]}.",
            "{sp} insurer is {v[n]}.",
            "{v[n]} covers {s}.",
        ),
        cued=(
            "{s} is now insured with {v[n]}.",
            "{sp} insurance moved from {o[n]} to {v[n]} at renewal.",
            "switched {sp} cover to {v[n]}.",
        ),
        qs=("who insures {s}?", "which insurer is {s} with?"),
        details=(", fully comprehensive", ", with a £250 excess", " (policy docs in the glovebox)"),
    ),
    fam(
        "service_date",
        "vehicle",
        "date",
        "next service",
        "vehicles",
        states=(
            "{sp} next service is on {v[n]}.",
            "{s} is due for a service on {v[n]}.",
            "next service ({s}): {v[n]}.",
        ),
        cued=(
            "{sp} service moved to {v[n]}.",
            "{sp} service is now booked for {v[n]} instead of {o[n]}.",
            "rebooked {sp} service: {v[n]}.",
        ),
        qs=("when is {s} due for a service?",),
        details=(", 8:30 drop-off", ", including an oil change", " (courtesy car requested)"),
    ),
    fam(
        "garage",
        "vehicle",
        "garage",
        "garage",
        "vehicles",
        states=("{s} is serviced at {v[n]}.", "{sp} garage: {v[n]}.", "{s} goes to {v[n]} for repairs."),
        cued=("{s} now goes to {v[n]}.", "moved {s} from {o[n]} to {v[n]} for servicing."),
        qs=("which garage services {s}?",),
        details=(", ask for Gary", ", they hold the spare key", " (they also do MOTs)"),
    ),
    fam(
        "parking",
        "vehicle",
        "parking",
        "parking spot",
        "vehicles",
        states=("{s} is parked in {v[n]}.", "{sp} parking spot: {v[n]}.", "{s} parks in {v[n]}."),
        cued=(
            "{sp} spot changed to {v[n]}.",
            "{s} parks in {v[n]} now (was {o[n]}).",
            "new allocation: {s} → {v[n]}.",
        ),
        qs=("where is {s} parked?", "which spot is {s} in?"),
        details=(", next to the lift", ", permit on the dashboard", " (EV charger there)"),
        only=("civic", "tesla", "van"),
    ),
    # ---- appointments -------------------------------------------------------------------------------
    fam(
        "appt_date",
        "appointment",
        "date",
        "date",
        "health",
        states=("{s} is on {v[n]}.", "{s}: {v[n]}.", "{s} is booked for {v[n]}.", "date of {s}: {v[n]}."),
        cued=(
            "{s} moved to {v[n]}.",
            "{s} rescheduled from {o[n]} to {v[n]}.",
            "{s} is now on {v[n]}.",
            "{s} rebooked for {v[n]}.",
        ),
        qs=("when is {s}?", "date for {s} still to confirm."),
        details=(", first slot of the day", ", bring the referral letter", " (reminder set the day before)"),
        kind="plan",
    ),
    fam(
        "appt_time",
        "appointment",
        "time",
        "time",
        "health",
        states=("{s} is at {v[n]}.", "{s} starts at {v[n]}.", "time of {s}: {v[n]}."),
        cued=("{s} moved to {v[n]}, same day.", "{s} is now at {v[n]} (was {o[n]}).", "{s} shifted to {v[n]}."),
        qs=("what time is {s}?",),
        details=(", arrive ten minutes early", ", should take about 45 minutes", " (check in at reception)"),
        kind="plan",
    ),
    # ---- subscriptions ------------------------------------------------------------------------------
    fam(
        "sub_price",
        "sub",
        "subprice",
        "monthly price",
        "subscriptions",
        states=(
            "{s} costs {v[n]} a month.",
            "{s}: {v[n]}/month.",
            "{sp} monthly price is {v[n]}.",
            "user pays {v[n]} per month for {s}.",
        ),
        cued=(
            "{s} changed to {v[n]} a month.",
            "{s} is {v[n]}/month now (was {o[n]}).",
            "price change: {s} is now {v[n]} monthly.",
        ),
        qs=("how much is {s} per month?",),
        details=(", billed on the 1st", ", VAT included", " (annual billing would be cheaper)"),
    ),
    fam(
        "sub_renewal",
        "sub",
        "date",
        "renewal date",
        "subscriptions",
        states=("{s} renews on {v[n]}.", "{sp} renewal date: {v[n]}.", "next renewal for {s} is {v[n]}."),
        cued=(
            "{s} now renews on {v[n]}.",
            "{sp} renewal moved to {v[n]}.",
            "{s} renewal date changed from {o[n]} to {v[n]}.",
        ),
        qs=("when does {s} renew?",),
        details=(" — auto-renew is on", ", cancel a week before if not using it", " (annual plan)"),
    ),
    fam(
        "sub_card",
        "sub",
        "card",
        "payment card",
        "subscriptions",
        states=("{s} is billed to {v[n]}.", "{s} charges {v[n]}.", "payment method for {s}: {v[n]}."),
        cued=(
            "{s} now charges {v[n]}.",
            "moved {s} billing from {o[n]} to {v[n]}.",
            "{s} is billed to {v[n]} instead.",
        ),
        qs=("which card pays for {s}?",),
        details=(", expiry 09/28", " (cashback card)", ", receipts go to the user's Gmail"),
    ),
    fam(
        "sub_plan",
        "sub",
        "plan",
        "plan",
        "subscriptions",
        states=("{s} is on the {v[n]} plan.", "{sp} plan: {v[n]}.", "user has the {v[n]} tier of {s}."),
        cued=(
            "{s} changed to the {v[n]} plan.",
            "{s} plan is {v[n]} now (was {o[n]}).",
            "switched {s} from {o[n]} to {v[n]}.",
        ),
        qs=("which plan is {s} on?",),
        details=(", two screens", ", shared with Sam", " (ad-free)"),
    ),
    # ---- money --------------------------------------------------------------------------------------
    fam(
        "provider",
        "account",
        "bank",
        "provider",
        "money",
        states=("{s} is with {v[n]}.", "{s} is held at {v[n]}.", "provider for {s}: {v[n]}."),
        cued=("{s} moved to {v[n]}.", "{s} transferred from {o[n]} to {v[n]}.", "{s} is with {v[n]} now."),
        qs=("which bank is {s} with?", "who provides {s}?"),
        details=(", online access only", " (login in 1Password)", ", in joint names"),
        only=("savings", "isa", "mortgage", "efund", "carloan", "pension"),
    ),
    fam(
        "rate",
        "account",
        "percent",
        "interest rate",
        "money",
        states=("{s} is at {v[n]}.", "rate on {s}: {v[n]}.", "{sp} interest rate is {v[n]}."),
        cued=(
            "{sp} rate changed to {v[n]}.",
            "{s} is at {v[n]} now (was {o[n]}).",
            "new rate on {s} from {d}: {v[n]}.",
        ),
        qs=("what rate is {s} on?",),
        details=(", fixed for two years", " (AER)", ", reviewed every January"),
        only=("savings", "mortgage", "efund", "carloan", "amex"),
    ),
    fam(
        "payment",
        "account",
        "monthly",
        "monthly payment",
        "money",
        states=(
            "{s} costs {v[n]} a month.",
            "monthly payment on {s}: {v[n]}.",
            "{s} — {v[n]}/month.",
            "user pays {v[n]} a month towards {s}.",
        ),
        cued=(
            "{sp} monthly payment is now {v[n]}.",
            "{s} repayments changed from {o[n]} to {v[n]}.",
            "{s}: {v[n]}/month from {d}.",
        ),
        qs=("how much is the monthly payment on {s}?",),
        details=(", taken on the 1st", ", by direct debit", " (overpaying is allowed)"),
        only=("mortgage", "carloan"),
    ),
    fam(
        "contribution",
        "account",
        "monthly",
        "monthly contribution",
        "money",
        states=(
            "user puts {v[n]} a month into {s}.",
            "{s}: {v[n]} monthly contribution.",
            "monthly contribution to {s} is {v[n]}.",
        ),
        cued=(
            "contribution to {s} changed to {v[n]}.",
            "user now puts {v[n]} a month into {s}.",
            "{s} contribution: {o[n]} → {v[n]}.",
        ),
        qs=("how much goes into {s} each month?",),
        details=(" by standing order", ", on payday", ", automated"),
        only=("savings", "isa", "pension", "efund"),
    ),
    fam(
        "target",
        "account",
        "target",
        "target",
        "money",
        states=("{s} target: {v[n]}.", "goal for {s} is {v[n]}.", "user is aiming for {v[n]} in {s}."),
        cued=("target for {s} changed to {v[n]}.", "{s} goal is now {v[n]} (was {o[n]})."),
        qs=("what's the target for {s}?",),
        details=(" by the end of the year", ", roughly six months of expenses", " — not to be touched for holidays"),
        only=("savings", "efund", "isa"),
    ),
    # ---- home ---------------------------------------------------------------------------------------
    fam(
        "rent",
        "home",
        "rent",
        "rent",
        "home",
        states=("rent on {s} is {v[n]} a month.", "{s} rent: {v[n]}/month.", "{s} costs {v[n]} a month to rent."),
        cued=(
            "rent on {s} changes to {v[n]} from {d}.",
            "{s} rent is now {v[n]}.",
            "new rent for {s}: {v[n]} (was {o[n]}).",
        ),
        qs=("how much is the rent on {s}?",),
        details=(", due on the 1st", ", bills not included", " (paid by standing order)"),
        only=("flat", "cottage"),
    ),
    fam(
        "isp",
        "home",
        "isp",
        "broadband provider",
        "home",
        states=("{s} has {v[n]} broadband.", "broadband at {s}: {v[n]}.", "{sp} broadband is from {v[n]}."),
        cued=(
            "{s} switched broadband to {v[n]}.",
            "{s} is on {v[n]} now (moved from {o[n]}).",
            "broadband at {s} changed from {o[n]} to {v[n]}.",
        ),
        qs=("who's the broadband provider at {s}?",),
        details=(", 500 Mb fibre", ", router in the hallway cupboard", " (contract ends in the autumn)"),
        only=("flat", "cottage"),
    ),
    fam(
        "landlord",
        "home",
        "landlord",
        "landlord",
        "home",
        states=("{sp} landlord is {v[n]}.", "{s} is let by {v[n]}.", "landlord ({s}): {v[n]}."),
        cued=(
            "{s} is now managed by {v[n]}.",
            "{s} changed hands: {v[n]} took over from {o[n]}.",
            "{sp} landlord changed to {v[n]}.",
        ),
        qs=("who is the landlord for {s}?",),
        details=(", prefers email", ", slow to reply", " (number saved in contacts)"),
    ),
    fam(
        "bin_day",
        "collection",
        "weekday7",
        "collection day",
        "household",
        states=(
            "{s} is collected on {v[pl]}.",
            "{s}: {v[pl]}.",
            "collection day for {s}: {v[n]}.",
            "{s} is picked up every {v[n]}.",
        ),
        cued=(
            "{s} collection moved to {v[pl]}.",
            "{s} is collected on {v[pl]} now.",
            "council changed {s} day from {o[n]} to {v[n]}.",
        ),
        qs=("which day is {s} collected?",),
        details=(", before 7am", ", bin out the night before", ", kerbside"),
    ),
    fam(
        "bin_freq",
        "collection",
        "cadence",
        "collection frequency",
        "household",
        states=("{s} is collected {v[n]}.", "{s} collection is {v[n]}.", "{s}: collected {v[n]}."),
        cued=("{s} is {v[n]} now.", "{s} has gone from {o[n]} to {v[n]}."),
        qs=("how often is {s} collected?",),
        details=(", except bank holidays", ", kerbside", " (council calendar on the fridge)"),
    ),
    fam(
        "visit_day",
        "helper",
        "weekday",
        "visit day",
        "household",
        states=("{s} comes on {v[pl]}.", "{s} visits every {v[n]}.", "{s}: {v[pl]}."),
        cued=("{s} comes on {v[pl]} now.", "{s} moved to {v[pl]}.", "{s} switched from {o[n]} to {v[n]} visits."),
        qs=("which day does {s} come?",),
        details=(", usually for three hours", ", key in the lockbox", " (paid in cash)"),
    ),
    fam(
        "visit_time",
        "helper",
        "time",
        "arrival time",
        "household",
        states=("{s} arrives at {v[n]}.", "{s} starts at {v[n]}.", "arrival time for {s}: {v[n]}."),
        cued=("{s} comes at {v[n]} now.", "{s} now arrives at {v[n]} instead of {o[n]}."),
        qs=("what time does {s} arrive?",),
        details=(", rings the bell twice", ", stays until lunch", " (texts if running late)"),
    ),
    fam(
        "hourly",
        "helper",
        "hourly",
        "hourly rate",
        "household",
        states=("{s} charges {v[n]} an hour.", "rate for {s}: {v[n]}/h.", "{s} is paid {v[n]} per hour."),
        cued=(
            "{sp} rate went to {v[n]}/h.",
            "{s} charges {v[n]} an hour now (was {o[n]}).",
            "{sp} hourly rate changed to {v[n]}.",
        ),
        qs=("how much does {s} charge per hour?",),
        details=(", cash or bank transfer", ", paid monthly", " (includes supplies)"),
    ),
    # ---- trips --------------------------------------------------------------------------------------
    fam(
        "depart",
        "trip",
        "date",
        "departure date",
        "travel",
        states=("{s} starts on {v[n]}.", "departing for {s} on {v[n]}.", "{s}: leave {v[n]}.", "{s} — out {v[n]}."),
        cued=(
            "{s} now starts on {v[n]}.",
            "{s} departure moved to {v[n]}.",
            "{s} shifted: leave {v[n]} instead of {o[n]}.",
        ),
        qs=("when does {s} start?", "departure date for {s}?"),
        details=(", early flight", " (kids off school that week)", ", train to the airport"),
        kind="plan",
    ),
    fam(
        "return",
        "trip",
        "date",
        "return date",
        "travel",
        states=("back from {s} on {v[n]}.", "{s} ends on {v[n]}.", "{s}: return {v[n]}."),
        cued=(
            "{s} now ends on {v[n]}.",
            "return from {s} moved to {v[n]}.",
            "back from {s} on {v[n]} instead of {o[n]}.",
        ),
        qs=("when is the return from {s}?",),
        details=(", late arrival", ", back in time for school", " (flight lands in the evening)"),
        kind="plan",
    ),
    fam(
        "hotel",
        "trip",
        "hotel",
        "accommodation",
        "travel",
        states=(
            "staying at {v[n]} for {s}.",
            "{s} hotel: {v[n]}.",
            "accommodation for {s} is {v[n]}.",
            "{s} — booked {v[n]}.",
        ),
        cued=(
            "{s} accommodation changed to {v[n]}.",
            "swapped hotels for {s}: {v[n]} instead of {o[n]}.",
            "{s}: now staying at {v[n]}.",
        ),
        qs=("where is the user staying for {s}?",),
        details=(", breakfast included", ", free cancellation until a week before", " (two rooms)"),
        kind="plan",
    ),
    fam(
        "tripbudget",
        "trip",
        "tripbudget",
        "budget",
        "travel",
        states=("budget for {s}: {v[n]}.", "{s} is budgeted at {v[n]}.", "user wants to keep {s} under {v[n]}."),
        cued=("{s} budget changed to {v[n]}.", "{s} budget is now {v[n]} (was {o[n]})."),
        qs=("what's the budget for {s}?",),
        details=(", flights included", ", not counting food", " (split with Sam)"),
        kind="plan",
    ),
    fam(
        "flight",
        "trip",
        "flight",
        "outbound flight",
        "travel",
        states=("outbound flight for {s}: {v[n]}.", "flying out on {v[n]} for {s}.", "{s} flight is {v[n]}."),
        cued=("{s} flight changed to {v[n]}.", "rebooked {s} onto {v[n]} (was {o[n]}).", "{s}: now on {v[n]}."),
        qs=("which flight is the user on for {s}?",),
        details=(", seats 14A and 14B", ", checked bag included", " (gate closes 30 min before)"),
        kind="plan",
        only=("lisbontrip", "tokyotrip", "skitrip", "reunion", "berlintrip"),
    ),
    # ---- activities ---------------------------------------------------------------------------------
    fam(
        "act_day",
        "activity",
        "weekday7",
        "day",
        "hobbies",
        states=("{s} meets on {v[pl]}.", "{s} is on {v[pl]}.", "{s}: {v[pl]}.", "{s} happens every {v[n]}."),
        cued=("{s} moved to {v[pl]}.", "{s} is on {v[pl]} now.", "{s} switched from {o[n]} to {v[n]}."),
        qs=("which day is {s}?",),
        details=(" in term time", ", every week unless called off in the group chat", " (bring water)"),
    ),
    fam(
        "act_time",
        "activity",
        "time",
        "start time",
        "hobbies",
        states=("{s} starts at {v[n]}.", "{s} is at {v[n]}.", "start time for {s}: {v[n]}."),
        cued=("{s} now starts at {v[n]}.", "{s} moved to {v[n]}.", "{s}: {o[n]} → {v[n]}."),
        qs=("what time does {s} start?",),
        details=(", runs about 90 minutes", ", doors open 15 minutes earlier", " (don't be late)"),
    ),
    fam(
        "venue",
        "activity",
        "venue",
        "venue",
        "hobbies",
        states=("{s} meets at {v[n]}.", "{s} is held at {v[n]}.", "venue for {s}: {v[n]}."),
        cued=(
            "{s} moved to {v[n]}.",
            "{s} is at {v[n]} now, not {o[n]}.",
            "new venue for {s}: {v[n]} (replacing {o[n]}).",
        ),
        qs=("where does {s} meet?",),
        details=(", upstairs", ", parking round the back", " (step-free access)"),
    ),
    fam(
        "fee",
        "activity",
        "fee",
        "fee",
        "hobbies",
        states=("{s} costs {v[n]} a session.", "fee for {s}: {v[n]} per session.", "{s} is {v[n]} each time."),
        cued=("{s} is {v[n]} a session now.", "{s} fee changed from {o[n]} to {v[n]}."),
        qs=("how much is {s} per session?",),
        details=(", cash only", ", paid termly", " (first session free)"),
    ),
    # ---- medication ---------------------------------------------------------------------------------
    fam(
        "dose",
        "med",
        "mg",
        "dose",
        "health",
        states=("{s}: {v[n]} once a day.", "{s} dose is {v[n]}.", "{s} — {v[n]} daily."),
        cued=("{s} dose changed to {v[n]}.", "GP adjusted {s} to {v[n]} (was {o[n]}).", "{s} is {v[n]} now."),
        qs=("what's the current dose of {s}?", "need to check the dose for {s}."),
        details=(", with water", ", repeat prescription every 28 days", " (no grapefruit with it)"),
        generic=False,
    ),
    fam(
        "dose_when",
        "med",
        "when",
        "timing",
        "health",
        states=("{s} is taken {v[n]}.", "timing for {s}: {v[n]}.", "{s} — {v[n]}."),
        cued=(
            "{s} is taken {v[n]} now.",
            "{s} moved to {v[n]} (was {o[n]}).",
            "GP says {s} should be taken {v[n]} from now on.",
        ),
        qs=("when should {s} be taken?",),
        details=(", with food", ", same time every day", " (alarm set on the phone)"),
        generic=False,
    ),
    # ---- services -----------------------------------------------------------------------------------
    fam(
        "deploy_day",
        "service",
        "weekday",
        "deploy day",
        "services",
        states=(
            "{s} deploys on {v[pl]}.",
            "deploy day for {s}: {v[n]}.",
            "{s} ships to production on {v[pl]}.",
            "releases of {s} go out every {v[n]}.",
            "{s} — prod deploys {v[ab]}.",
        ),
        cued=(
            "{s} now deploys on {v[pl]}.",
            "{s} moved its deploy day from {o[n]} to {v[n]}.",
            "{s} deploys on {v[pl]} going forward.",
            "{s} deploy day changed to {v[n]}.",
        ),
        qs=("which day does {s} deploy?", "deploy day for {s}?"),
        details=(
            " after the 14:00 UTC change review",
            ", via the blue-green pipeline",
            ", with a manual approval step",
            ". Rollbacks are owned by the on-call engineer.",
        ),
    ),
    fam(
        "maint_day",
        "service",
        "weekday",
        "maintenance day",
        "services",
        states=(
            "DB maintenance for {s} runs on {v[pl]}.",
            "{s} has its maintenance window on {v[pl]}.",
            "maintenance day ({s}): {v[n]}.",
        ),
        cued=("{s} maintenance moved to {v[pl]}.", "{sp} maintenance window is on {v[pl]} now."),
        qs=("when is the maintenance window for {s}?",),
        details=(", 02:00\u201304:00 UTC", ", announced on the status page", " (read-only mode during it)"),
    ),
    fam(
        "owner_team",
        "service",
        "team",
        "owning team",
        "services",
        states=(
            "{s} is owned by {v[the]}.",
            "owner of {s}: {v[n]}.",
            "{v[the]} owns {s}.",
            "{s} belongs to {v[the]}.",
        ),
        cued=(
            "{s} moved to {v[the]}.",
            "ownership of {s} transferred from {o[the]} to {v[the]}.",
            "{v[the]} took over {s}.",
            "{s} is now owned by {v[the]}.",
        ),
        qs=("which team owns {s}?", "who owns {s} these days?"),
        details=(
            ", escalations via their Slack channel",
            " (service catalogue is up to date)",
            ", with SRE as secondary",
        ),
    ),
    fam(
        "oncall",
        "service",
        "staff",
        "on-call lead",
        "services",
        states=(
            "{v[n]} is the on-call lead for {s}.",
            "on-call lead ({s}): {v[n]}.",
            "{sp} on-call is led by {v[n]}.",
        ),
        cued=(
            "{v[n]} took over as on-call lead for {s}.",
            "{s} on-call lead changed from {o[n]} to {v[n]}.",
            "{v[n]} is now on-call lead for {s}.",
        ),
        qs=("who leads on-call for {s}?",),
        details=(
            ", with a 15-minute paging SLA",
            ", escalation to the EM after 30 minutes",
            " (rotation handed over on Mondays)",
        ),
    ),
    fam(
        "database",
        "service",
        "db",
        "database",
        "services",
        states=(
            "{s} is backed by {v[n]}.",
            "{s} stores its data in {v[n]}.",
            "database for {s}: {v[n]}.",
            "{s} uses {v[n]} as its primary store.",
        ),
        cued=(
            "{s} migrated from {o[n]} to {v[n]}.",
            "{s} is on {v[n]} now.",
            "{s} has moved to {v[n]} (cutover done {p}).",
        ),
        qs=("which database does {s} use?",),
        details=(", with a read replica for reporting", ", daily snapshots kept 30 days", " (managed service)"),
    ),
    fam(
        "region",
        "service",
        "region",
        "region",
        "services",
        states=("{s} runs in {v[n]}.", "{s} is deployed to {v[n]}.", "region ({s}): {v[n]}.", "{s} lives in {v[n]}."),
        cued=("{s} moved to {v[n]}.", "{s} migrated from {o[n]} to {v[n]}.", "{s} is served from {v[n]} now."),
        qs=("which region is {s} in?",),
        details=(", single-AZ", ", behind CloudFront", " (data residency requirement)"),
    ),
    fam(
        "runtime",
        "service",
        "runtime",
        "runtime",
        "services",
        states=("{s} runs on {v[n]}.", "runtime for {s}: {v[n]}.", "{s} is built on {v[n]}."),
        cued=("{s} now runs on {v[n]}.", "{s} moved from {o[n]} to {v[n]}.", "{s} is on {v[n]} now."),
        qs=("what runtime is {s} on?",),
        details=(" in a distroless container", ", built with Bazel", " (pinned in the Dockerfile)"),
    ),
    fam(
        "p99",
        "service",
        "latency",
        "p99 latency target",
        "services",
        states=(
            "{sp} p99 latency target is {v[n]}.",
            "p99 SLO for {s}: {v[n]}.",
            "{s} must stay under {v[n]} at p99.",
        ),
        cued=(
            "{s} p99 target changed to {v[n]}.",
            "{sp} p99 SLO is now {v[n]} (was {o[n]}).",
            "SLO review: {s} p99 target → {v[n]}.",
        ),
        qs=("what's the p99 target for {s}?",),
        details=(", measured at the load balancer", " over a 28-day window", ", excluding batch endpoints"),
        kind="decision",
    ),
    fam(
        "version",
        "service",
        "version",
        "production version",
        "services",
        states=("{s} is on {v[n]} in production.", "{s} prod version: {v[n]}.", "production runs {s} {v[n]}."),
        cued=(
            "{s} rolled out {v[n]} to production.",
            "{s} is now at {v[n]} (from {o[n]}).",
            "rolled {s} back to {v[n]}.",
        ),
        qs=("which version of {s} is in production?",),
        details=(", deployed via Argo", ", tagged in GitHub", " (release notes in Confluence)"),
    ),
    fam(
        "freeze",
        "service",
        "freeze",
        "deploy freeze window",
        "services",
        states=("deploy freeze for {s}: {v[n]}.", "no deploys to {s} from {v[n]}.", "{sp} freeze window is {v[n]}."),
        cued=(
            "deploy freeze for {s} is now {v[n]}.",
            "{s} freeze window changed from {o[n]} to {v[n]}.",
            "updated freeze for {s}: {v[n]}.",
        ),
        qs=("when is the deploy freeze for {s}?",),
        details=(", hotfixes need VP approval", ", enforced in the pipeline", " (exceptions via #change-management)"),
        kind="decision",
    ),
    # ---- a service in one environment -----------------------------------------------------------------
    fam(
        "replicas",
        "svcenv",
        "replicas",
        "replica count",
        "infra",
        states=("{s} runs {v[n]} replicas.", "replicas for {s}: {v[n]}.", "{s} is scaled to {v[n]} pods."),
        cued=(
            "{s} now runs {v[n]} replicas.",
            "{s} scaled from {o[n]} to {v[n]} pods.",
            "replica count for {s} changed to {v[n]}.",
        ),
        qs=("how many replicas does {s} run?",),
        details=(", with a PodDisruptionBudget of 1", ", spread across three AZs", " (HPA disabled)"),
    ),
    fam(
        "loglevel",
        "svcenv",
        "loglevel",
        "log level",
        "infra",
        states=("{s} logs at {v[n]}.", "log level for {s}: {v[n]}.", "{s} has LOG_LEVEL={v[n]}."),
        cued=(
            "{s} log level changed to {v[n]}.",
            "{s} is logging at {v[n]} now (was {o[n]}).",
            "bumped {s} to {v[n]} logging.",
        ),
        qs=("what log level is {s} on?",),
        details=(", JSON format", ", shipped to Loki", " (sampling at 10%)"),
    ),
    fam(
        "memlimit",
        "svcenv",
        "mem",
        "memory limit",
        "infra",
        states=(
            "{s} has a {v[n]} memory limit.",
            "memory limit for {s}: {v[n]}.",
            "{s} pods are capped at {v[n]} of memory.",
        ),
        cued=("{s} memory limit is now {v[n]}.", "{s} limit changed from {o[n]} to {v[n]}."),
        qs=("what's the memory limit on {s}?",),
        details=(
            ", request set to half of that",
            ", OOM alerts go to the owning team",
            " (tuned after the March incident)",
        ),
    ),
    # ---- environments -------------------------------------------------------------------------------
    fam(
        "k8s",
        "env",
        "k8s",
        "Kubernetes version",
        "infra",
        states=("{s} runs Kubernetes {v[n]}.", "Kubernetes version on {s}: {v[n]}.", "{s} is on k8s {v[n]}."),
        cued=("{s} upgraded to Kubernetes {v[n]}.", "{s} now on k8s {v[n]} (was {o[n]})."),
        qs=("which Kubernetes version is {s} on?",),
        details=(", managed EKS", ", node pools on Graviton", " (upgrade window is Tuesdays)"),
    ),
    fam(
        "pg",
        "env",
        "pg",
        "Postgres version",
        "infra",
        states=("{s} uses Postgres {v[n]}.", "Postgres on {s}: {v[n]}.", "database on {s}: Postgres {v[n]}."),
        cued=(
            "{s} moved to Postgres {v[n]}.",
            "{s} is on Postgres {v[n]} now.",
            "{s} Postgres {o[n]} → {v[n]}.",
        ),
        qs=("which Postgres version runs on {s}?",),
        details=(", RDS Multi-AZ", ", pgBouncer in front", " (extensions: pg_trgm, postgis)"),
        generic=False,
        only=("staging", "prod", "qa", "dev", "perf", "sandbox"),
    ),
    fam(
        "nodes",
        "env",
        "nodes",
        "node count",
        "infra",
        states=("{s} has {v[n]} nodes.", "node count ({s}): {v[n]}.", "{s} runs on {v[n]} worker nodes."),
        cued=(
            "{s} has {v[n]} nodes now.",
            "{s} resized to {v[n]} nodes.",
            "{s} node count changed from {o[n]} to {v[n]}.",
        ),
        qs=("how many nodes does {s} have?",),
        details=(", m6i.xlarge", ", spot instances for batch", " (cluster autoscaler off)"),
    ),
    # ---- customers ----------------------------------------------------------------------------------
    fam(
        "am",
        "customer",
        "staff",
        "account manager",
        "accounts",
        states=(
            "{sp} account manager is {v[n]}.",
            "{v[n]} manages the {s} account.",
            "{s} — AM: {v[n]}.",
            "account owner for {s}: {v[n]}.",
        ),
        cued=(
            "{v[n]} took over the {s} account from {o[n]}.",
            "{s} account moved to {v[n]}.",
            "{sp} AM is now {v[n]}.",
            "{s} reassigned: {o[n]} → {v[n]}.",
        ),
        qs=("who manages the {s} account?",),
        details=(", weekly check-in on Thursdays", ", backed up by the regional lead", " (handles renewals too)"),
    ),
    fam(
        "renewal",
        "customer",
        "date",
        "renewal date",
        "accounts",
        states=("{s} renews on {v[n]}.", "{sp} contract renewal: {v[n]}.", "renewal date for {s} is {v[n]}."),
        cued=(
            "{sp} renewal moved to {v[n]}.",
            "{s} now renews on {v[n]} (was {o[n]}).",
            "{s} renewal date changed to {v[n]}.",
        ),
        qs=("when does {s} renew?",),
        details=(", 90-day notice period", ", auto-renews unless they object", " (procurement involved)"),
    ),
    fam(
        "arr",
        "customer",
        "arr",
        "ARR",
        "accounts",
        states=("{sp} ARR is {v[n]}.", "{s} — ARR {v[n]}.", "{s} pays us {v[n]} a year."),
        cued=("{sp} ARR changed to {v[n]} at renewal.", "{s} ARR updated: {v[n]} (was {o[n]})."),
        qs=("what's {sp} ARR?",),
        details=(", billed annually", ", excluding services", " (multi-year discount applied)"),
    ),
    fam(
        "cust_tier",
        "customer",
        "tier",
        "plan tier",
        "pricing",
        states=("{s} is on the {v[n]} plan.", "plan ({s}): {v[n]}.", "{s} subscribes to {v[n]}."),
        cued=("{s} moved to the {v[n]} plan.", "{s} changed plan from {o[n]} to {v[n]}.", "{s} is on {v[n]} now."),
        qs=("which plan is {s} on?",),
        details=(", 250 seats", ", annual contract", " (custom SSO add-on)"),
    ),
    fam(
        "contact",
        "customer",
        "contact",
        "primary contact",
        "accounts",
        states=(
            "{sp} primary contact is {v[n]}.",
            "main contact at {s}: {v[n]}.",
            "talk to {v[n]} at {s} for anything commercial.",
        ),
        cued=(
            "{sp} primary contact changed to {v[n]}.",
            "{o[n]} left {s}; {v[n]} is the contact now.",
            "new main contact at {s}: {v[n]}, replacing {o[n]}.",
        ),
        qs=("who is the main contact at {s}?",),
        details=(", prefers email", ", based in their London office", " (CC their procurement team)"),
    ),
    fam(
        "sla",
        "customer",
        "sla",
        "support SLA",
        "accounts",
        states=("{s} has a {v[n]} support SLA.", "support SLA ({s}): {v[n]}.", "{s} gets {v[n]} support."),
        cued=("{s} moved to a {v[n]} SLA.", "{sp} support SLA is {v[n]} now (was {o[n]})."),
        qs=("what support SLA does {s} have?",),
        details=(", 24/7 for P1s", ", business hours otherwise", " (written into the MSA)"),
    ),
    # ---- pricing tiers ------------------------------------------------------------------------------
    fam(
        "rate_limit",
        "tier",
        "rate",
        "rate limit",
        "pricing",
        states=("{s} allows {v[n]}.", "rate limit on {s}: {v[n]}.", "{s} is capped at {v[n]}."),
        cued=(
            "{s} limit is now {v[n]}.",
            "rate limit for {s} changed from {o[n]} to {v[n]}.",
            "{s}: {o[n]} → {v[n]}.",
        ),
        qs=("what's the rate limit on {s}?",),
        details=(", per API key", ", with bursts up to 2x", " (429 after that)"),
    ),
    fam(
        "seat_price",
        "tier",
        "seatprice",
        "price per seat",
        "pricing",
        states=("{s} costs {v[n]} per seat per month.", "{s}: {v[n]}/seat/month.", "per-seat price for {s} is {v[n]}."),
        cued=("{s} goes to {v[n]} per seat from {d}.", "{s} per-seat price is now {v[n]} (was {o[n]})."),
        qs=("how much is {s} per seat?",),
        details=(", billed annually", ", volume discounts above 100 seats", " (VAT extra)"),
        only=("pro", "teamplan", "enterprise", "starter", "edu"),
    ),
    fam(
        "storage",
        "tier",
        "storage",
        "storage quota",
        "pricing",
        states=("{s} includes {v[n]} of storage.", "storage quota ({s}): {v[n]}.", "{s} comes with {v[n]} storage."),
        cued=("{s} now includes {v[n]} of storage.", "storage on {s} changed from {o[n]} to {v[n]}."),
        qs=("how much storage does {s} include?",),
        details=(", pooled across the workspace", ", extra at $5 per 100 GB", " (soft limit)"),
    ),
    fam(
        "response",
        "tier",
        "response",
        "support response time",
        "pricing",
        states=(
            "support on {s} responds within {v[n]}.",
            "{s} support response time: {v[n]}.",
            "{s} gets a first reply within {v[n]}.",
        ),
        cued=("{s} response time is now {v[n]}.", "{s} support target changed from {o[n]} to {v[n]}."),
        qs=("what's the support response time on {s}?",),
        details=(", business days only", ", via email and chat", " (phone support not included)"),
    ),
    # ---- tickets ------------------------------------------------------------------------------------
    fam(
        "assignee",
        "ticket",
        "staff",
        "assignee",
        "tickets",
        states=(
            "{s} is assigned to {v[n]}.",
            "{s}: assignee {v[n]}.",
            "{v[n]} is working on {s}.",
            "{s} sits with {v[n]}.",
        ),
        cued=(
            "{s} reassigned to {v[n]}.",
            "{v[n]} took over {s} from {o[n]}.",
            "{s} assignee changed: {o[n]} → {v[n]}.",
        ),
        qs=("who has {s}?", "who is {s} assigned to?"),
        details=(
            ", pairing with the on-call engineer",
            ", aiming to close it this sprint",
            " (context in the linked Slack thread)",
        ),
    ),
    fam(
        "priority",
        "ticket",
        "priority",
        "priority",
        "tickets",
        states=("{s} is {v[n]}.", "priority of {s}: {v[n]}.", "{s} is marked {v[n]}."),
        cued=("{s} re-prioritised to {v[n]}.", "{s} is {v[n]} now (was {o[n]}).", "priority on {s} changed to {v[n]}."),
        qs=("what priority is {s}?",),
        details=(", customer-facing", ", tagged for the weekly triage", " (SLA clock running)"),
    ),
    fam(
        "status",
        "ticket",
        "status",
        "status",
        "tickets",
        states=("{s} is {v[n]}.", "status of {s}: {v[n]}.", "{s} — {v[n]}."),
        cued=("{s} moved to {v[n]}.", "{s} is now {v[n]}.", "{s} went from {o[n]} to {v[n]}."),
        qs=("what's the status of {s}?",),
        details=(", tracked on the sprint board", " (see the linked PR)", ", visible to the customer"),
    ),
    fam(
        "due",
        "ticket",
        "date",
        "due date",
        "tickets",
        states=("{s} is due {v[n]}.", "due date for {s}: {v[n]}.", "{s} needs to be closed by {v[n]}."),
        cued=(
            "{s} due date moved to {v[n]}.",
            "{s} is now due {v[n]} (was {o[n]}).",
            "deadline for {s} pushed to {v[n]}.",
        ),
        qs=("when is {s} due?",),
        details=(", agreed with the customer", ", hard deadline", " (before the release cut)"),
    ),
    # ---- projects -----------------------------------------------------------------------------------
    fam(
        "launch",
        "project",
        "date",
        "target date",
        "projects",
        states=(
            "{s} launches on {v[n]}.",
            "target date for {s}: {v[n]}.",
            "{s} is due to ship {v[n]}.",
            "{s} go-live: {v[n]}.",
        ),
        cued=(
            "{s} launch moved to {v[n]}.",
            "new target for {s}: {v[n]} (was {o[n]}).",
            "{s} go-live is now {v[n]}.",
            "{s} go-live rescheduled to {v[n]}.",
        ),
        qs=("when does {s} launch?",),
        details=(", behind a feature flag", ", EU first", " (comms plan in draft)"),
        kind="plan",
    ),
    fam(
        "lead",
        "project",
        "staff",
        "project lead",
        "projects",
        states=("{v[n]} leads {s}.", "{s} lead: {v[n]}.", "{s} is run by {v[n]}."),
        cued=(
            "{v[n]} took over {s} from {o[n]}.",
            "{s} is led by {v[n]} now.",
            "{s} has a new lead: {v[n]} (replacing {o[n]}).",
        ),
        qs=("who's leading {s}?",),
        details=(", reporting to the VP of Engineering", ", with a weekly status email", " (also the DRI for launch)"),
    ),
    fam(
        "proj_budget",
        "project",
        "budget",
        "budget",
        "projects",
        states=("{s} has a budget of {v[n]}.", "budget ({s}): {v[n]}.", "{s} is funded at {v[n]}."),
        cued=("{s} budget revised to {v[n]}.", "{s} budget is now {v[n]} (was {o[n]})."),
        qs=("what's the budget for {s}?",),
        details=(", contractors included", ", for the full year", " (tracked in the finance sheet)"),
    ),
    fam(
        "phase",
        "project",
        "phase",
        "phase",
        "projects",
        states=("{s} is in {v[n]}.", "phase ({s}): {v[n]}.", "{s} is at the {v[n]} stage."),
        cued=("{s} moved into {v[n]}.", "{s} is in {v[n]} now.", "{s} went from {o[n]} to {v[n]}."),
        qs=("what phase is {s} in?",),
        details=(", on track", ", two squads on it", " (exit criteria in the project brief)"),
    ),
    # ---- colleagues ---------------------------------------------------------------------------------
    fam(
        "title",
        "staff",
        "title",
        "role",
        "people",
        states=("{s} is {v[a]}.", "{sp} role: {v[n]}.", "{s} — {v[n]}.", "{sp} title is {v[n]}."),
        cued=("{s} moved from {o[n]} to {v[n]}.", "{s} is {v[a]} now.", "{s} changed roles: now {v[a]}."),
        qs=("what is {sp} role?",),
        details=(", hired in 2023", " (remote, CET hours)", ", on the interview panel too"),
    ),
    fam(
        "team",
        "staff",
        "team",
        "team",
        "people",
        states=("{s} is on {v[the]}.", "{sp} team: {v[n]}.", "{s} works in {v[the]}."),
        cued=("{s} moved to {v[the]}.", "{s} switched teams: {o[n]} → {v[n]}.", "{s} is on {v[the]} now."),
        qs=("which team is {s} on?",),
        details=(", part-time (80%)", ", working on the API squad", " (joined in the spring)"),
    ),
    fam(
        "office",
        "staff",
        "city",
        "office",
        "people",
        states=("{s} is based in {v[n]}.", "{s} works out of the {v[n]} office.", "{sp} office: {v[n]}."),
        cued=("{s} relocated to the {v[n]} office.", "{s} moved from {o[n]} to {v[n]}.", "{s} is in {v[n]} now."),
        qs=("which office is {s} in?",),
        details=(", in two days a week", ", hot-desking", " (desk by the window)"),
    ),
    fam(
        "manager",
        "staff",
        "staff",
        "manager",
        "people",
        states=("{s} reports to {v[n]}.", "{sp} manager is {v[n]}.", "manager ({s}): {v[n]}."),
        cued=(
            "{s} reports to {v[n]} now.",
            "{s} moved under {v[n]} (was {o[n]}).",
            "{sp} manager changed from {o[n]} to {v[n]}.",
        ),
        qs=("who does {s} report to?",),
        details=(", weekly 1:1 on Mondays", ", skip-level monthly", " (dotted line to the CTO)"),
    ),
    fam(
        "tz",
        "staff",
        "tz",
        "time zone",
        "people",
        states=("{s} works on {v[n]}.", "{sp} time zone: {v[n]}.", "{s} keeps {v[n]} hours."),
        cued=(
            "{s} is on {v[n]} now.",
            "{s} switched from {o[n]} to {v[n]} hours.",
            "{sp} time zone changed to {v[n]}.",
        ),
        qs=("what time zone is {s} in?",),
        details=(", core hours 10\u20134", ", no meetings after 5pm", " (calendar shows working hours)"),
    ),
    # ---- meetings -----------------------------------------------------------------------------------
    fam(
        "meet_day",
        "meeting",
        "weekday",
        "day",
        "meetings",
        states=("{s} is on {v[pl]}.", "{s} happens every {v[n]}.", "{s}: {v[pl]}."),
        cued=("{s} moved to {v[pl]}.", "{s} is on {v[pl]} now.", "{s} switched from {o[pl]} to {v[pl]}."),
        qs=("which day is {s}?",),
        details=(", video on by default", ", agenda in the shared doc", " (optional for interns)"),
        only=("review", "arch", "allhands", "retro", "releasesync", "incidentreview", "oneone"),
    ),
    fam(
        "meet_time",
        "meeting",
        "time",
        "time",
        "meetings",
        states=("{s} is at {v[n]}.", "{s} starts at {v[n]}.", "time of {s}: {v[n]}.", "{s} — {v[n]} sharp."),
        cued=("{s} moved to {v[n]}.", "{s} now starts at {v[n]}.", "{s} time changed from {o[n]} to {v[n]}."),
        qs=("what time is {s}?",),
        details=(" UK time", ", 25 minutes", " (hard stop at the half hour)"),
    ),
    fam(
        "room",
        "meeting",
        "room",
        "room",
        "meetings",
        states=("{s} is in {v[n]}.", "location for {s}: {v[n]}.", "{s} takes place in {v[n]}."),
        cued=("{s} moved to {v[n]}.", "{s} is in {v[n]} now, not {o[n]}.", "new room for {s}: {v[n]}."),
        qs=("where is {s} held?",),
        details=(", dial-in on the invite", ", bring laptops", " (booked via the room app)"),
    ),
    fam(
        "mcadence",
        "meeting",
        "mcadence",
        "cadence",
        "meetings",
        states=("{s} is {v[n]}.", "{s} happens {v[n]}.", "cadence for {s}: {v[n]}."),
        cued=("{s} is {v[n]} now.", "{s} changed from {o[n]} to {v[n]}.", "going forward {s} runs {v[n]}."),
        qs=("how often is {s}?",),
        details=(", 45 minutes", ", skipped in August", " (rotating facilitator)"),
        only=("review", "arch", "allhands", "retro", "releasesync", "incidentreview", "oneone", "qbr"),
    ),
    # ---- teams --------------------------------------------------------------------------------------
    fam(
        "ci",
        "team",
        "ci",
        "CI system",
        "tooling",
        states=("{s} uses {v[n]} for CI.", "CI for {s}: {v[n]}.", "{sp} builds run on {v[n]}."),
        cued=("{s} switched from {o[n]} to {v[n]}.", "{s} moved CI to {v[n]}.", "{sp} builds run on {v[n]} now."),
        qs=("which CI does {s} use?",),
        details=(", self-hosted runners", ", with build caching", " (config in .ci/)"),
    ),
    fam(
        "tracker",
        "team",
        "tracker",
        "error tracker",
        "tooling",
        states=("{s} tracks errors in {v[n]}.", "error tracking ({s}): {v[n]}.", "{s} sends exceptions to {v[n]}."),
        cued=(
            "{s} replaced {o[n]} with {v[n]}.",
            "{s} uses {v[n]} for errors now.",
            "error tracking for {s} moved to {v[n]}.",
        ),
        qs=("where does {s} track errors?",),
        details=(", alerts routed to Slack", ", 90-day retention", " (source maps uploaded in CI)"),
    ),
    fam(
        "sprint",
        "team",
        "sprint",
        "sprint length",
        "tooling",
        states=("{s} runs {v[adj]} sprints.", "sprint length ({s}): {v[n]}.", "{sp} sprints last {v[n]}."),
        cued=("{s} moved to {v[adj]} sprints.", "{sp} sprints are {v[n]} now (were {o[n]})."),
        qs=("how long are {sp} sprints?",),
        details=(", kicking off on Wednesdays", ", planning on day one", " (demo at the end)"),
    ),
    fam(
        "teamlead",
        "team",
        "staff",
        "team lead",
        "tooling",
        states=("{v[n]} leads {s}.", "{s} lead: {v[n]}.", "{sp} lead is {v[n]}."),
        cued=(
            "{v[n]} took over as lead of {s}.",
            "{s} is led by {v[n]} now.",
            "{s} lead changed from {o[n]} to {v[n]}.",
        ),
        qs=("who leads {s}?",),
        details=(", also the hiring manager", ", for the next two quarters", " (acting)"),
    ),
    # ---- vendor contracts ---------------------------------------------------------------------------
    fam(
        "con_renewal",
        "contract",
        "date",
        "renewal date",
        "vendors",
        states=("{s} renews on {v[n]}.", "{s} renewal: {v[n]}.", "{s} is up for renewal on {v[n]}."),
        cued=("{s} renewal moved to {v[n]}.", "{s} now renews on {v[n]} (was {o[n]})."),
        qs=("when does {s} renew?",),
        details=(", 60 days' notice to cancel", ", procurement owns it", " (multi-year option on the table)"),
    ),
    fam(
        "con_cost",
        "contract",
        "concost",
        "annual cost",
        "vendors",
        states=("{s} costs {v[n]} a year.", "annual cost of {s}: {v[n]}.", "{s} — {v[n]}/yr."),
        cued=("{s} is {v[n]} a year now.", "{s} cost changed from {o[n]} to {v[n]} at renewal."),
        qs=("how much is {s} per year?",),
        details=(", paid upfront", ", excluding overages", " (approved by finance)"),
    ),
    fam(
        "seats",
        "contract",
        "seats",
        "seat count",
        "vendors",
        states=("{s} covers {v[n]} seats.", "seats on {s}: {v[n]}.", "{s} is for {v[n]} users."),
        cued=("{s} now covers {v[n]} seats.", "{s} seats changed from {o[n]} to {v[n]}."),
        qs=("how many seats are on {s}?",),
        details=(", all assigned", ", true-up in Q4", " (SSO enforced)"),
        only=("datadog", "pagerduty", "zoom", "figma", "github", "okta"),
    ),
    # ---- budgets ------------------------------------------------------------------------------------
    fam(
        "amount",
        "budget",
        "bigbudget",
        "amount",
        "budgets",
        states=("{s} is {v[n]}.", "{s}: {v[n]}.", "{s} is set at {v[n]}."),
        cued=("{s} is now {v[n]}.", "{s} revised to {v[n]}.", "{s} changed from {o[n]} to {v[n]}."),
        qs=("how big is {s}?",),
        details=(", per quarter", ", excluding tax", " (finance signed off)"),
    ),
    fam(
        "approver",
        "budget",
        "staff",
        "approver",
        "budgets",
        states=("{v[n]} approves spend from {s}.", "approver for {s}: {v[n]}.", "{s} is signed off by {v[n]}."),
        cued=("{v[n]} is the approver for {s} now.", "{s} approvals moved from {o[n]} to {v[n]}."),
        qs=("who approves {s}?",),
        details=(", anything over $5k", ", within two working days", " (via the Ramp workflow)"),
    ),
    fam(
        "techlead",
        "service",
        "staff",
        "tech lead",
        "services",
        states=("{v[n]} is the tech lead for {s}.", "tech lead ({s}): {v[n]}.", "{sp} tech lead is {v[n]}."),
        cued=(
            "{v[n]} took over as tech lead for {s}.",
            "{s} tech lead changed from {o[n]} to {v[n]}.",
            "{v[n]} is now tech lead on {s}.",
        ),
        qs=("who is the tech lead for {s}?",),
        details=(", owns the architecture decisions", " (also reviews all schema changes)", ", until the reorg lands"),
    ),
    fam(
        "se",
        "customer",
        "staff",
        "solutions engineer",
        "accounts",
        states=("{sp} solutions engineer is {v[n]}.", "{v[n]} is the SE on {s}.", "SE for {s}: {v[n]}."),
        cued=("{v[n]} is the SE on {s} now.", "{s} SE changed from {o[n]} to {v[n]}."),
        qs=("who is the SE on {s}?",),
        details=(", handles the technical onboarding", " (joins every QBR)", ", covers the integration questions"),
    ),
    fam(
        "qbr",
        "customer",
        "date",
        "next QBR",
        "accounts",
        states=("{sp} next QBR is on {v[n]}.", "next QBR with {s}: {v[n]}.", "{s} QBR — {v[n]}."),
        cued=("{s} QBR moved to {v[n]}.", "next QBR with {s} is now {v[n]} (was {o[n]})."),
        qs=("when is the next QBR with {s}?",),
        details=(", in person at their office", ", agenda owned by the AM", " (exec sponsor attending)"),
    ),
    fam(
        "sponsor",
        "project",
        "staff",
        "exec sponsor",
        "projects",
        states=("{v[n]} sponsors {s}.", "exec sponsor for {s}: {v[n]}.", "{sp} sponsor is {v[n]}."),
        cued=("{v[n]} is the sponsor for {s} now.", "{s} sponsor changed from {o[n]} to {v[n]}."),
        qs=("who sponsors {s}?",),
        details=(", monthly steering meeting", " (signs off the budget)", ", on the leadership team"),
    ),
)

# --------------------------------------------------------------------------------------------------
# Polar (yes/no) facts for negation pairs. ``details`` only ever extend the affirmative statement.
# --------------------------------------------------------------------------------------------------

POLARS: tuple[Polar, ...] = (
    Polar(
        "eats_meat",
        "person",
        "food",
        yes=("{s} eats meat.", "{s} is a meat eater."),
        no=("{s} doesn't eat meat.", "{s} does not eat meat.", "no meat for {s}."),
        no_cued=("{s} no longer eats meat.", "{s} stopped eating meat in {m}.", "{s} has given up meat, as of {d}."),
        yes_cued=("{s} eats meat now (started in {m}).", "{s} is back on meat now."),
        qs=("does {s} eat meat?",),
        details=(", mostly chicken", ", but not pork", " (happy with anything on the menu)"),
    ),
    Polar(
        "allergy",
        "person",
        "health",
        yes=("{s} is allergic to {x}.", "{s} has a {xa} allergy.", "allergy ({s}): {x}."),
        no=("{s} is not allergic to {x}.", "{s} has no {xa} allergy.", "{s} isn't allergic to {x}."),
        no_cued=(
            "{s} is no longer allergic to {x}.",
            "{s} has outgrown the {xa} allergy (allergist confirmed in {m}).",
        ),
        yes_cued=("{s} is now allergic to {x} (diagnosed in {m}).",),
        qs=("is {s} allergic to {x}?", "any {xa} allergy for {s}?"),
        details=(" — carries an EpiPen", ", mild reaction only", " (confirmed by a skin-prick test)"),
        objs=(
            ("peanuts", "peanut"),
            ("shellfish", "shellfish"),
            ("penicillin", "penicillin"),
            ("tree nuts", "tree nut"),
            ("latex", "latex"),
            ("sesame", "sesame"),
        ),
    ),
    Polar(
        "smokes",
        "person",
        "health",
        yes=("{s} smokes.", "{s} is a smoker."),
        no=("{s} doesn't smoke.", "{s} is a non-smoker."),
        no_cued=("{s} quit smoking in {m}.", "{s} no longer smokes."),
        yes_cued=(),
        qs=("does {s} smoke?",),
        details=(", mostly roll-ups", " (outside only)", ", about five a day"),
        only=ADULTS,
    ),
    Polar(
        "licence",
        "person",
        "vehicles",
        yes=("{s} has a driving licence.", "{s} can drive."),
        no=("{s} doesn't have a driving licence.", "{s} can't drive."),
        no_cued=("{s} no longer has a valid licence (expired in {m}).",),
        yes_cued=(
            "{s} passed the driving test in {m} and has a licence now.",
            "{s} can drive now — licence arrived {p}.",
        ),
        qs=("can {s} drive?", "does {s} have a driving licence?"),
        details=(" (full UK licence)", ", manual and automatic", ", clean record"),
        only=ADULTS,
    ),
    Polar(
        "alcohol",
        "person",
        "food",
        yes=("{s} drinks alcohol.", "{s} enjoys a drink."),
        no=("{s} doesn't drink alcohol.", "{s} is teetotal."),
        no_cued=("{s} stopped drinking in {m}.", "{s} doesn't drink anymore."),
        yes_cued=(),
        qs=("does {s} drink alcohol?",),
        details=(", mostly red wine", " (socially)", ", never on weeknights"),
        only=ADULTS,
    ),
    Polar(
        "owns_car",
        "person",
        "vehicles",
        yes=("{s} owns a car.", "{s} has a car."),
        no=("{s} doesn't own a car.", "{s} has no car."),
        no_cued=("{s} sold the car in {m} and no longer has one.", "{s} doesn't have a car anymore."),
        yes_cued=("{s} has a car now (bought in {m}).", "{s} bought a car in {m}; owns one now."),
        qs=("does {s} have a car?",),
        details=(", an old Golf", " (parks on the street)", ", mostly for weekends"),
        only=tuple(k for k in ADULTS if k != "user"),
    ),
    Polar(
        "sub_active",
        "sub",
        "subscriptions",
        yes=("user is subscribed to {s}.", "{s} is active."),
        no=("user isn't subscribed to {s}.", "user doesn't have {s}."),
        no_cued=("{s} cancelled as of {d}.", "user cancelled {s} on {p}.", "user is no longer subscribed to {s}."),
        yes_cued=("user signed up for {s} on {p}; it's active now.", "{s} is active now (started {p})."),
        qs=("does the user have {s}?", "is the user paying for {s}?"),
        details=(", paid monthly", ", on the user's card", " (shared with Sam)"),
    ),
    Polar(
        "school_bus",
        "person",
        "kids",
        yes=("{s} takes the school bus.", "{s} goes to school by bus."),
        no=("{s} doesn't take the school bus.", "{s} doesn't go to school by bus."),
        no_cued=("{s} no longer takes the school bus.", "{s} stopped taking the bus after half-term."),
        yes_cued=("{s} takes the school bus now.", "{s} started on the school bus in {m}."),
        qs=("does {s} take the school bus?",),
        details=(", the 8:05 from the corner", ", with a friend from class", " (bus pass in the bag)"),
        only=KIDS,
    ),
    Polar(
        "pet_insured",
        "pet",
        "pets",
        yes=("{s} has pet insurance.", "{s} is covered by pet insurance."),
        no=("{s} has no pet insurance.", "{s} isn't insured."),
        no_cued=("{sp} insurance lapsed on {p}; not covered anymore.", "{s} is no longer insured."),
        yes_cued=("{s} is insured now (cover started {p}).",),
        qs=("is {s} insured?",),
        details=(", lifetime cover", ", £99 excess", " (policy in the email archive)"),
    ),
    Polar(
        "redis",
        "service",
        "services",
        yes=("{s} uses Redis for caching.", "{s} caches in Redis."),
        no=("{s} doesn't use Redis.", "{s} has no Redis dependency."),
        no_cued=("{s} no longer uses Redis (removed in the cache rework).", "{s} dropped Redis on {p}."),
        yes_cued=("{s} now caches in Redis.", "as of {d}, {s} uses Redis for caching."),
        qs=("does {s} use Redis?",),
        details=(", with a 5-minute TTL", ", cluster mode", " (ElastiCache)"),
    ),
    Polar(
        "autoscale",
        "service",
        "services",
        yes=("autoscaling is enabled for {s}.", "{s} autoscales."),
        no=("autoscaling is not enabled for {s}.", "{s} does not autoscale."),
        no_cued=("autoscaling for {s} was turned off on {p}.", "{s} no longer autoscales."),
        yes_cued=("{s} autoscales now.", "autoscaling enabled for {s} as of {d}."),
        qs=("does {s} autoscale?",),
        details=(", on CPU at 70%", ", between 3 and 20 pods", " (KEDA on queue depth)"),
    ),
    Polar(
        "beta",
        "customer",
        "accounts",
        yes=("{s} is in the beta programme.", "{s} has beta access."),
        no=("{s} is not in the beta programme.", "{s} has no beta access."),
        no_cued=("{s} left the beta programme on {p}.", "{s} no longer has beta access."),
        yes_cued=("{s} joined the beta programme on {p}.", "{s} has beta access now."),
        qs=("is {s} in the beta programme?",),
        details=(", for the reporting module", ", feedback calls every two weeks", " (NDA signed)"),
    ),
    Polar(
        "sso",
        "customer",
        "accounts",
        yes=("{s} has SSO enabled.", "SSO is on for {s}."),
        no=("{s} doesn't have SSO.", "SSO isn't enabled for {s}."),
        no_cued=("{s} no longer uses SSO.", "SSO switched off for {s} as of {d}."),
        yes_cued=("{s} turned on SSO on {p}.", "{s} has SSO now."),
        qs=("does {s} use SSO?",),
        details=(", via Okta", ", SAML", " (SCIM provisioning too)"),
    ),
    Polar(
        "oncall_rota",
        "staff",
        "people",
        yes=("{s} is on the on-call rotation.", "{s} takes on-call shifts."),
        no=("{s} is not on the on-call rotation.", "{s} doesn't do on-call."),
        no_cued=("{s} came off the on-call rotation in {m}.", "{s} no longer does on-call."),
        yes_cued=("{s} joined the on-call rotation in {m}.", "{s} is now on the on-call rotation."),
        qs=("is {s} on the on-call rotation?",),
        details=(", primary every sixth week", ", weekday nights only", " (secondary for the data pipelines)"),
    ),
    Polar(
        "blocked",
        "ticket",
        "tickets",
        yes=("{s} is blocked.", "{s} is stuck: blocked."),
        no=("{s} is not blocked.", "nothing is blocking {s}."),
        no_cued=("{s} is unblocked as of {d}.", "{s} is no longer blocked."),
        yes_cued=("{s} is blocked now.",),
        qs=("is {s} blocked?",),
        details=(", flagged in standup", ", escalated to the vendor's support", " (dependency on another team)"),
    ),
    Polar(
        "env_freeze",
        "env",
        "infra",
        yes=("there is a deploy freeze on {s}.", "{s} is frozen for deploys."),
        no=("there is no deploy freeze on {s}.", "{s} is open for deploys."),
        no_cued=("the deploy freeze on {s} was lifted on {p}.", "{s} is no longer frozen."),
        yes_cued=("{s} is frozen for deploys as of {d}.", "deploy freeze on {s} starting {d}."),
        qs=("is {s} frozen for deploys?",),
        details=(", hotfixes only", ", until the audit is done", " (announced in #eng)"),
    ),
    Polar(
        "tier_sso",
        "tier",
        "pricing",
        yes=("{s} includes SSO.", "SSO is part of {s}."),
        no=("{s} does not include SSO.", "SSO isn't part of {s}."),
        no_cued=("SSO is no longer included in {s}.", "{s} dropped SSO from {d}."),
        yes_cued=("{s} now includes SSO.", "SSO added to {s} as of {d}."),
        qs=("does {s} include SSO?",),
        details=(", SAML and OIDC", ", no extra charge", " (SCIM is extra)"),
    ),
    Polar(
        "remote",
        "staff",
        "people",
        yes=("{s} works fully remote.", "{s} is remote."),
        no=("{s} doesn't work remotely.", "{s} is office-based."),
        no_cued=("{s} is no longer remote — back in the office from {d}.",),
        yes_cued=("{s} went fully remote in {m}.", "{s} is remote now."),
        qs=("is {s} remote?",),
        details=(", visits the office once a quarter", ", with a co-working allowance", " (home office stipend)"),
    ),
)

# --------------------------------------------------------------------------------------------------
# Open loops: tasks (grouped so that a sibling is "a different task about a similar thing")
# --------------------------------------------------------------------------------------------------

_LOOP_ROWS: tuple[tuple[str, str, str, str, str, str], ...] = (
    # group, domain, who, imperative, noun phrase, past tense
    ("pets", "personal", "user", "book a vet check-up for Miso", "Miso's vet check-up", "booked Miso's vet check-up"),
    (
        "pets",
        "personal",
        "user",
        "order more cat food for Miso",
        "the cat food order",
        "ordered more cat food for Miso",
    ),
    ("pets", "personal", "Sam", "get Biscuit's booster jab", "Biscuit's booster", "took Biscuit for the booster jab"),
    (
        "car",
        "personal",
        "user",
        "renew the Civic's insurance",
        "the Civic insurance renewal",
        "renewed the Civic's insurance",
    ),
    ("car", "personal", "user", "book the Civic's MOT", "the MOT booking", "booked the Civic's MOT"),
    (
        "car",
        "personal",
        "Sam",
        "get the Civic's tyres replaced",
        "the tyre replacement",
        "had the Civic's tyres replaced",
    ),
    ("travel", "personal", "user", "renew the passport", "the passport renewal", "renewed the passport"),
    (
        "travel",
        "personal",
        "user",
        "buy travel insurance for the Tokyo trip",
        "the Tokyo travel insurance purchase",
        "bought travel insurance for Tokyo",
    ),
    (
        "travel",
        "personal",
        "user",
        "book the airport transfer in Tokyo",
        "the Tokyo airport transfer",
        "booked the Tokyo airport transfer",
    ),
    (
        "gifts",
        "personal",
        "user",
        "buy a birthday present for Ana",
        "Ana's birthday present",
        "bought Ana's birthday present",
    ),
    (
        "gifts",
        "personal",
        "Sam",
        "book a table for Mum's birthday dinner",
        "the birthday dinner booking",
        "booked a table for Mum's birthday dinner",
    ),
    (
        "gifts",
        "personal",
        "user",
        "send Grandma Rosa a card for her 80th",
        "Rosa's birthday card",
        "sent Rosa's birthday card",
    ),
    (
        "repairs",
        "personal",
        "user",
        "call a plumber about the dripping kitchen tap",
        "the kitchen tap repair",
        "got the kitchen tap fixed",
    ),
    ("repairs", "personal", "user", "schedule the boiler service", "the boiler service", "had the boiler serviced"),
    (
        "repairs",
        "personal",
        "Sam",
        "replace the smoke alarm batteries",
        "the smoke alarm battery swap",
        "replaced the smoke alarm batteries",
    ),
    (
        "school",
        "personal",
        "user",
        "sign Leo up for the summer football camp",
        "Leo's football camp sign-up",
        "signed Leo up for football camp",
    ),
    ("school", "personal", "Sam", "return Mia's library books", "Mia's library books", "returned Mia's library books"),
    (
        "school",
        "personal",
        "user",
        "pay for Mia's school trip to the science museum",
        "the school trip payment",
        "paid for Mia's school trip",
    ),
    ("finance", "personal", "user", "file the 2025 tax return", "the 2025 tax return", "filed the 2025 tax return"),
    (
        "finance",
        "personal",
        "user",
        "move £500 into the emergency fund",
        "the emergency fund top-up",
        "moved £500 into the emergency fund",
    ),
    (
        "finance",
        "personal",
        "user",
        "cancel the unused Disney+ subscription",
        "the Disney+ cancellation",
        "cancelled Disney+",
    ),
    (
        "health",
        "personal",
        "user",
        "book a follow-up with the physio",
        "the physio follow-up",
        "booked the physio follow-up",
    ),
    (
        "health",
        "personal",
        "user",
        "pick up the lisinopril refill",
        "the lisinopril refill",
        "picked up the lisinopril refill",
    ),
    ("health", "personal", "Sam", "get Leo's eyes tested", "Leo's eye test", "took Leo for his eye test"),
    ("shopping", "personal", "user", "buy new running shoes", "the running shoes purchase", "bought new running shoes"),
    (
        "shopping",
        "personal",
        "user",
        "return the faulty headphones",
        "the headphones return",
        "returned the faulty headphones",
    ),
    (
        "shopping",
        "personal",
        "user",
        "order a replacement charger for the e-bike",
        "the e-bike charger order",
        "ordered a replacement e-bike charger",
    ),
    (
        "hobbies",
        "personal",
        "user",
        "read the book club pick before the next meeting",
        "the book club reading",
        "finished the book club pick",
    ),
    (
        "hobbies",
        "personal",
        "user",
        "fix the puncture on the road bike",
        "the road bike puncture repair",
        "fixed the road bike puncture",
    ),
    (
        "hobbies",
        "personal",
        "user",
        "renew the climbing wall membership",
        "the climbing membership renewal",
        "renewed the climbing wall membership",
    ),
    (
        "security",
        "work",
        "Priya",
        "rotate the API keys for payments-api",
        "the payments-api key rotation",
        "rotated the payments-api API keys",
    ),
    (
        "security",
        "work",
        "Rafael",
        "renew the TLS certificate for auth-gateway",
        "the auth-gateway cert renewal",
        "renewed auth-gateway's TLS certificate",
    ),
    (
        "security",
        "work",
        "Aisha",
        "enable MFA for the billing admin accounts",
        "MFA for billing admins",
        "enabled MFA on the billing admin accounts",
    ),
    (
        "docs",
        "work",
        "Marcus",
        "write the postmortem for INC-4471",
        "the INC-4471 postmortem",
        "wrote up the INC-4471 postmortem",
    ),
    (
        "docs",
        "work",
        "Wen",
        "refresh the on-call runbook for search-api",
        "the search-api runbook refresh",
        "refreshed the search-api on-call runbook",
    ),
    (
        "docs",
        "work",
        "Seun",
        "document the staging reset procedure",
        "the staging reset doc",
        "documented the staging reset procedure",
    ),
    (
        "customers",
        "work",
        "Dana",
        "send Globex the renewal quote",
        "the Globex renewal quote",
        "sent Globex the renewal quote",
    ),
    (
        "customers",
        "work",
        "Dana",
        "schedule the QBR with Acme Corp",
        "the Acme QBR scheduling",
        "scheduled the Acme QBR",
    ),
    (
        "customers",
        "work",
        "Lukas",
        "follow up with Initech about the SSO issue",
        "the Initech SSO follow-up",
        "followed up with Initech on SSO",
    ),
    (
        "infra",
        "work",
        "Ingrid",
        "upgrade staging to Postgres 16",
        "the staging Postgres upgrade",
        "upgraded staging to Postgres 16",
    ),
    (
        "infra",
        "work",
        "Tom",
        "bump the dev cluster to Kubernetes 1.30",
        "the dev cluster upgrade",
        "upgraded the dev cluster to Kubernetes 1.30",
    ),
    (
        "infra",
        "work",
        "Ingrid",
        "clean up the orphaned S3 buckets",
        "the S3 bucket cleanup",
        "cleaned up the orphaned S3 buckets",
    ),
    (
        "people",
        "work",
        "Mei",
        "schedule Wen's onboarding sessions",
        "Wen's onboarding schedule",
        "scheduled Wen's onboarding sessions",
    ),
    (
        "people",
        "work",
        "Hye-jin",
        "write the job spec for the SRE opening",
        "the SRE job spec",
        "wrote the SRE job spec",
    ),
    ("people", "work", "Mei", "book the team offsite venue", "the offsite venue booking", "booked the offsite venue"),
    (
        "billing",
        "work",
        "Aisha",
        "reconcile the March Stripe payouts",
        "the March payout reconciliation",
        "reconciled the March Stripe payouts",
    ),
    (
        "billing",
        "work",
        "Lukas",
        "fix the duplicate-invoice bug in BILL-88",
        "the BILL-88 fix",
        "fixed the duplicate-invoice bug (BILL-88)",
    ),
    (
        "billing",
        "work",
        "Aisha",
        "move billing-service off the legacy cron jobs",
        "the billing cron migration",
        "moved billing-service off the legacy cron jobs",
    ),
    (
        "release",
        "work",
        "Tom",
        "cut the 4.2 release branch for checkout-web",
        "the checkout-web 4.2 branch cut",
        "cut the checkout-web 4.2 release branch",
    ),
    (
        "release",
        "work",
        "Hye-jin",
        "write release notes for mobile 3.8",
        "the mobile 3.8 release notes",
        "wrote the mobile 3.8 release notes",
    ),
    (
        "release",
        "work",
        "Priya",
        "get security sign-off for the SSO rollout",
        "the SSO rollout sign-off",
        "got security sign-off for the SSO rollout",
    ),
    (
        "vendors",
        "work",
        "Seun",
        "get three quotes for a new log platform",
        "the log platform quote round",
        "collected three quotes for the log platform",
    ),
    (
        "vendors",
        "work",
        "Mei",
        "cancel the unused Zoom licences",
        "the Zoom licence cleanup",
        "cancelled the unused Zoom licences",
    ),
    (
        "vendors",
        "work",
        "Seun",
        "ask PagerDuty about volume discounts",
        "the PagerDuty discount question",
        "asked PagerDuty about volume discounts",
    ),
    (
        "data",
        "work",
        "Wen",
        "backfill the March events into the warehouse",
        "the March events backfill",
        "backfilled the March events",
    ),
    (
        "data",
        "work",
        "Marcus",
        "add an index on orders.created_at",
        "the orders.created_at index",
        "added the orders.created_at index",
    ),
    (
        "data",
        "work",
        "Wen",
        "deprecate the v1 reporting endpoints",
        "the v1 reporting deprecation",
        "deprecated the v1 reporting endpoints",
    ),
)
LOOPS: tuple[Loop, ...] = tuple(Loop(*row) for row in _LOOP_ROWS)

TASK_FRAMES = (
    "TODO: {vp}.",
    "need to {vp}.",
    "{who} to {vp} by {due}.",
    "action item ({who}): {vp}.",
    "reminder: {vp} before {due}.",
    "{who} needs to {vp}.",
    "open task — {vp}.",
    "task: {vp} (due {due}).",
    "don't forget to {vp}.",
    "{who} should {vp} this week.",
)
RESTATED_FRAMES = (
    "still need to {vp}.",
    "{np} — still open.",
    "still pending: {np}.",
    "{who} still has to {vp}.",
    "not done yet: {np}.",
    "{np} — still on the list.",
    "open: {vp}.",
    "still to do by {due}: {np}.",
)
DONE_FRAMES = (
    "done: {done}.",
    "{who} {done} on {when}.",
    "{who} {done}.",
    "{np} — done.",
    "{np}: sorted.",
    "closed: {np}.",
    "{np} — taken care of ({when}).",
    "ticked off: {np}.",
)
DROPPED_FRAMES = (
    "{np} cancelled — not needed anymore.",
    "dropped: {np}; {reason}.",
    "no need to {vp} anymore.",
    "{who} decided not to {vp} after all.",
    "{np} is off the list ({reason}).",
    "scrapped the plan to {vp}.",
)
REASONS = {
    "personal": ("plans changed", "not needed after all", "someone else sorted it", "too expensive right now"),
    "work": (
        "descoped this quarter",
        "covered by the platform migration",
        "no longer a priority",
        "the customer withdrew the request",
    ),
}
DUE = ("Friday", "the end of the month", "15 June", "2026-06-30", "next Tuesday", "EOD Thursday", "the 20th")
DONE_WHEN = ("Monday", "Tuesday", "3 June", "2026-06-04", "the 12th", "Friday afternoon")

# --------------------------------------------------------------------------------------------------
# Generic frames shared by families, cue wrappers, question frames, context sentences
# --------------------------------------------------------------------------------------------------

GENERIC_STATES = ("{label} ({s}): {v[n]}.", "{s} — {label}: {v[n]}.", "{label} for {s}: {v[n]}.")
GENERIC_POS_STATES = ("{sp} {label} is {v[n]}.",)
GENERIC_CUED = (
    "{label} for {s}: {o[n]} → {v[n]}.",
    "{sp} {label} changed to {v[n]}.",
    "{sp} {label} changed from {o[n]} to {v[n]}.",
    "{s}: {label} updated to {v[n]}.",
    "{sp} {label} is now {v[n]}.",
    "{label} ({s}) now {v[n]}, previously {o[n]}.",
    "{s} — {label} switched to {v[n]}.",
)
GENERIC_QS = (
    "what is {sp} {label}?",
    "open question: {label} for {s}?",
    "need to find out the {label} for {s}.",
    "{label} for {s}: unknown, ask.",
    "TBD: {label} for {s}.",
)

# prefix cue wrappers: (frame, tag, usable on key: value notes, usable when the value is unchanged)
PREFIX_CUES: tuple[tuple[str, str, bool, bool], ...] = (
    ("update: {x}", "update", True, True),
    ("updated {p}: {x}", "update", True, True),
    ("as of {d}, {x}", "time", False, True),
    ("starting {d}, {x}", "time", False, True),
    ("effective {d}: {x}", "time", True, True),
    ("going forward, {x}", "time", False, True),
    ("from now on, {x}", "time", False, True),
    ("heads-up, this changed: {x}", "update", True, False),
    ("correction: {x}", "correction", True, False),
    ("correction — {x}", "correction", True, False),
    ("changed {p}: {x}", "update", True, False),
)
# suffix cue wrappers, always naming the old value: (frame, tag)
SUFFIX_CUES: tuple[tuple[str, str], ...] = (
    ("{x} (was {o})", "update"),
    ("{x} (previously {o})", "update"),
    ("{x}; it used to be {o}", "update"),
    ("{x} — changed from {o}", "update"),
    ("{x}, no longer {o}", "update"),
    ("{x} (updated from {o})", "update"),
    ("{x} instead of {o}", "update"),
    ("{x} (corrected; the earlier note said {o})", "correction"),
    ("{x}, not {o} as noted before", "correction"),
)
ANSWER_WRAPPERS = ("{x}", "{x}", "{x}", "answer: {x}", "confirmed: {x}", "found out: {x}", "{x} (checked {p})")
QUESTION_RESTATED = (
    "still open: {q}",
    "still no answer: {q}",
    "{q} Still unanswered.",
    "unresolved — {q}",
    "{q} Nobody has confirmed yet.",
)

WHEN = (
    "1 June",
    "June 1st",
    "2026-07-01",
    "Monday",
    "next week",
    "the 15th",
    "Q3",
    "next sprint",
    "3 March",
    "early next month",
)
MONTH_PHRASES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "September",
    "October",
    "the spring",
    "the autumn",
    "late 2025",
)

CONTEXT = {
    "personal": (
        "Mentioned while planning the weekend.",
        "User brought it up over breakfast.",
        "Came up during the grocery run.",
        "Worth keeping in mind for reminders.",
        "User asked me to keep track of this.",
        "Noted from a voice memo.",
        "Heard in passing on a call.",
        "Relevant when booking anything.",
        "From the family group chat.",
        "Low priority, but keep it handy.",
        "Check the calendar if in doubt.",
        "Came up while sorting the post.",
        "Mentioned on the drive home.",
        "Dictated quickly; spelling may be off.",
        "Part of the household admin list.",
        "User sounded sure about it.",
        "Said while making dinner.",
        "From a quick chat in the car.",
        "Mentioned on the school run.",
        "Noted during the Sunday planning session.",
        "Came up while paying bills.",
        "Relevant for the family calendar.",
        "Typed in a hurry by the user.",
        "Worth a reminder closer to the date.",
        "User wants this remembered.",
        "Came up at the weekend.",
        "For the shared family notes.",
        "Mentioned while tidying the hallway.",
    ),
    "work": (
        "Source: #eng-announcements.",
        "From the weekly sync notes.",
        "Noted during sprint planning.",
        "See the runbook for the details.",
        "Captured from the team wiki.",
        "Flagged in the incident retro.",
        "Relevant for the quarterly review.",
        "Mentioned in standup.",
        "Per the ops handbook.",
        "Raised in a Slack thread.",
        "Keep in mind for on-call.",
        "From the planning doc.",
        "Copied from the ticket description.",
        "Useful for anyone joining the team.",
        "Noted for the audit trail.",
        "Came up in the design review.",
        "From the 1:1 notes.",
        "Posted in #ops.",
        "Noted at the end of the retro.",
        "From the architecture doc.",
        "Per the team's Notion page.",
        "Relevant for the next planning cycle.",
        "Mentioned in the release sync.",
        "From the on-call handover.",
        "Shared in the leads channel.",
        "From the quarterly plan.",
        "Noted while triaging the backlog.",
        "From an email thread with finance.",
    ),
}

# words that make a statement read as an update; state frames, values and context must avoid them
CUE_RE = re.compile(
    r"\b(now|no longer|anymore|any more|instead|moved|changed|switched|updated?|as of|starting|going forward|"
    r"from now on|correction|corrected|replac\w*|took over|previously|used to|effective|since|these days|"
    r"actually|rebooked|rescheduled|relocated|transferred|reassigned|upgraded|migrated|new|revised|"
    r"shifted|cancelled|dropped|stopped|quit)\b|→",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------------

_FAMILY_SUBJECTS: dict[str, tuple[Subject, ...]] = {}


# lower-case identifiers that stay lower-case at the start of a note (service and cluster names)
LOWER_IDS = frozenset(
    n for s in SUBJECTS if s.stype in ("service", "env") for n in s.names if "-" in n and " " not in n
)


def cap(text: str) -> str:
    """Capitalise the first word unless it is an identifier (``payments-api``, ``p99``, ``iCloud+``)."""
    token = text.split(" ", 1)[0].rstrip(",:;.")
    token = token.removesuffix("'s").removesuffix("'")
    if token in LOWER_IDS or not token[:1].islower() or any(c.isdigit() or c.isupper() for c in token):
        return text
    return text[0].upper() + text[1:]


def domain_of(subject: Subject) -> str:
    return "personal" if subject.stype in PERSONAL_STYPES else "work"


def pick(value: Value | None, rng: random.Random) -> dict[str, str]:
    if value is None:
        return {}
    return {slot: rng.choice(forms) for slot, forms in value.forms.items()}


def fill(
    tpl: str,
    rng: random.Random,
    subject: Subject | None = None,
    value: Value | None = None,
    old: Value | None = None,
    label: str = "",
    **extra: str,
) -> str:
    fields: dict[str, object] = {
        "label": label,
        "d": rng.choice(WHEN),
        "p": rng.choice(DONE_WHEN),
        "m": rng.choice(MONTH_PHRASES),
        "v": pick(value, rng),
        "o": pick(old, rng),
    }
    if subject is not None:
        plain_names = [n for n in subject.names if "(" not in n] if "({s})" in tpl else []
        fields["s"] = rng.choice(plain_names or subject.names)
        fields["sp"] = rng.choice(subject.pos) if subject.pos else ""
    fields.update(extra)
    return tpl.format_map(fields)


def _uniq(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _usable(subject: Subject, frames: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for f in frames if subject.pos or "{sp}" not in f)


def subjects_of(stype: str, only: tuple[str, ...]) -> tuple[Subject, ...]:
    key = stype + "|" + ",".join(only)
    if key not in _FAMILY_SUBJECTS:
        _FAMILY_SUBJECTS[key] = tuple(s for s in SUBJECTS if s.stype == stype and (not only or s.key in only))
    return _FAMILY_SUBJECTS[key]


def values_of(fam_: Family, subject: Subject) -> tuple[Value, ...]:
    return tuple(v for v in VALUES[fam_.vtype] if v.key.lower() != subject.key)


def states_of(fam_: Family, subject: Subject) -> tuple[str, ...]:
    extra = GENERIC_STATES + GENERIC_POS_STATES if fam_.generic else ()
    return _usable(subject, _uniq(fam_.states + extra))


def cued_of(fam_: Family, subject: Subject, with_old: bool) -> tuple[str, ...]:
    extra = GENERIC_CUED if fam_.generic and not fam_.fixed else ()
    frames = _usable(subject, _uniq(fam_.cued + extra))
    return frames if with_old else tuple(f for f in frames if "{o[" not in f)


def questions_of(fam_: Family, subject: Subject) -> tuple[str, ...]:
    extra = GENERIC_QS if fam_.generic else ()
    return _usable(subject, _uniq(fam_.qs + extra))


def is_key_value(tpl: str) -> bool:
    return ": " in tpl or " — " in tpl or tpl.startswith("{label}")


def wrap_cue(inner: str, tpl: str, fixed: bool, old: str | None, rng: random.Random) -> str:
    """Put an update cue around a state sentence; ``old`` (the previous value) enables suffix cues."""
    kv = is_key_value(tpl)
    options = [
        frame
        for frame, tag, kv_ok, same_ok in PREFIX_CUES
        if (not fixed or tag == "correction") and (kv_ok or not kv) and (old is not None or same_ok)
    ]
    if old is not None:
        options += [frame for frame, tag in SUFFIX_CUES if not fixed or tag == "correction"]
    frame = rng.choice(options)
    if frame.startswith("{x}"):
        return frame.format(x=drop_period(inner), o=old) + "."
    return frame.format(x=inner, d=rng.choice(WHEN), p=rng.choice(DONE_WHEN))


def cued_sentence(
    fam_: Family,
    subject: Subject,
    value: Value,
    old: Value | None,
    rng: random.Random,
    base: str | None = None,
    rework: bool = False,
) -> tuple[str, str]:
    """A sentence giving ``value`` with an update cue; returns the text and the frame it rests on.

    With a ``base`` (the older note's frame), ``rework`` decides whether the cue goes on the same frame
    (e.g. "X now deploys on ..." after "X deploys on ...") or on clearly different wording.
    """
    frames = cued_of(fam_, subject, with_old=old is not None)
    states = states_of(fam_, subject)
    if base is None or base not in states:
        state, own = rng.choice(states), list(frames)
    elif rework:
        state = rng.choice([t for t in states if reworded(base, t)] or list(states))
        own = [f for f in frames if reworded(base, f)]
    else:
        state, own = base, [f for f in frames if not reworded(base, f)]
    if own and rng.random() < 0.5:
        tpl = rng.choice(own)
        return fill(tpl, rng, subject, value, old, label=fam_.label), tpl
    inner = fill(state, rng, subject, value, label=fam_.label)
    return wrap_cue(inner, state, fam_.fixed, old.forms["n"][0] if old else None, rng), state


def drop_period(text: str) -> str:
    return text[:-1] if text.endswith(".") else text


def tidy(text: str) -> str:
    """Capitalise and fix the doubled full stop after "a.m." / "p.m." at the end of a sentence."""
    return re.sub(r"\.\.(?=\s|$)", ".", cap(text))


def attach(text: str, detail: str) -> str:
    if detail.startswith(". "):
        return text + " " + detail[2:]
    return text[:-1] + detail + text[-1]


def dress(text: str, domain: str, rng: random.Random, p: float = CONTEXT_P) -> str:
    """Capitalise, and sometimes surround the fact with one to three neutral context sentences."""
    sentence = tidy(text)
    if rng.random() >= p:
        return sentence
    room = 4 - sentences(sentence)
    if room < 1:
        return sentence
    context = rng.sample(CONTEXT[domain], min(room, rng.choice((1, 1, 1, 2, 2, 3))))
    cut = rng.randint(0, len(context))
    return " ".join([*context[:cut], sentence, *context[cut:]])


def reworded(tpl_a: str, tpl_b: str) -> bool:
    return difflib.SequenceMatcher(None, tpl_a, tpl_b).ratio() < 0.7


def finish(
    rng: random.Random,
    a: str,
    b: str,
    relation: str,
    frame: str,
    kinds: tuple[str, str],
    subjects: tuple[Subject, ...],
    attrs: tuple[str, ...],
    rew: bool | None = None,
) -> Pair:
    dom_a = domain_of(subjects[0])
    dom_b = domain_of(subjects[-1])
    return Pair(
        dress(a, dom_a, rng),
        dress(b, dom_b, rng),
        relation,
        frame,
        kinds[0],
        kinds[1],
        tuple(s.key for s in subjects),
        attrs,
        rew,
    )


# --------------------------------------------------------------------------------------------------
# Choosing things
# --------------------------------------------------------------------------------------------------

MULTI_SUBJECT = tuple(f for f in FAMILIES if len(subjects_of(f.stype, f.only)) > 1)
CHANGEABLE = tuple(f for f in FAMILIES if not f.fixed)
SHARE_VTYPES = frozenset({"city", "staff", "weekday", "weekday7", "date"})
NEVER_TOGETHER = frozenset({frozenset({"depart", "return"})})


def polar_subjects(pol: Polar) -> tuple[Subject, ...]:
    return subjects_of(pol.stype, pol.only)


def family_slot(rng: random.Random, pool: tuple[Family, ...] = FAMILIES) -> tuple[Family, Subject]:
    fam_ = rng.choice(pool)
    return fam_, rng.choice(subjects_of(fam_.stype, fam_.only))


def polar_text(pol: Polar, side: str, subject: Subject, obj: tuple[str, str], rng: random.Random) -> str:
    frames: tuple[str, ...] = getattr(pol, side)
    return fill(rng.choice(_usable(subject, frames)), rng, subject, x=obj[0], xa=obj[1])


@dataclass
class Statement:
    """A random plain statement, with what it touches, for topic-shift pairs."""

    text: str
    kind: str
    subject: Subject
    topics: frozenset[str]
    mentions: frozenset[str]
    attr: str


def random_statement(rng: random.Random, fam_: Family | None = None, value: Value | None = None) -> Statement:
    if fam_ is None and rng.random() < 0.2:
        pol = rng.choice(POLARS)
        subject = rng.choice(polar_subjects(pol))
        obj = rng.choice(pol.objs)
        text = polar_text(pol, rng.choice(("yes", "no")), subject, obj, rng)
        topics = frozenset({pol.topic, subject.topic} - {""})
        return Statement(text, pol.kind, subject, topics, subject.tags | {obj[0]} - {""}, pol.name)
    fam_ = fam_ or rng.choice(FAMILIES)
    subject = rng.choice(subjects_of(fam_.stype, fam_.only))
    vals = values_of(fam_, subject)
    value = value if value in vals else rng.choice(vals)
    text = fill(rng.choice(states_of(fam_, subject)), rng, subject, value, label=fam_.label)
    topics = frozenset({fam_.topic, subject.topic} - {""})
    return Statement(text, fam_.kind, subject, topics, subject.tags | {value.key.lower()}, fam_.name)


def apart(one: Statement, two: Statement, shared_value: bool = False) -> bool:
    mentions_one = one.mentions
    if shared_value:
        mentions_one = one.subject.tags
    return (
        one.subject.stype != two.subject.stype
        and one.topics.isdisjoint(two.topics)
        and mentions_one.isdisjoint(two.mentions)
        and two.subject.tags.isdisjoint(one.mentions)
    )


# --------------------------------------------------------------------------------------------------
# Frame generators: each returns one labelled pair, or None when the random draw does not fit
# --------------------------------------------------------------------------------------------------

Gen = Callable[[random.Random], Pair | None]


def gen_cued_change(rng: random.Random) -> Pair | None:
    fam_, subject = family_slot(rng)
    old, new = rng.sample(values_of(fam_, subject), 2)
    tpl_a = rng.choice(states_of(fam_, subject))
    a = fill(tpl_a, rng, subject, old, label=fam_.label)
    b, tpl_b = cued_sentence(fam_, subject, new, old, rng, tpl_a, rework=rng.random() < REWORD_P)
    kinds = (fam_.kind, fam_.kind)
    return finish(rng, a, b, "supersedes", "cued-change", kinds, (subject,), (fam_.name,), reworded(tpl_a, tpl_b))


def gen_uncued_change(rng: random.Random) -> Pair | None:
    fam_, subject = family_slot(rng)
    vals = values_of(fam_, subject)
    old, new = rng.sample(vals, 2)
    tpl_a = rng.choice(states_of(fam_, subject))
    a = fill(tpl_a, rng, subject, old, label=fam_.label)
    if rng.random() < 0.12 and len(vals) > 2:  # the OLDER note was itself an update
        older = rng.choice([v for v in vals if v.key not in (old.key, new.key)])
        a, _ = cued_sentence(fam_, subject, old, older, rng)
    tpl_b = tpl_a if rng.random() < 0.55 else rng.choice(states_of(fam_, subject))
    b = fill(tpl_b, rng, subject, new, label=fam_.label)
    kinds = (fam_.kind, fam_.kind)
    return finish(rng, a, b, "contradicts", "uncued-change", kinds, (subject,), (fam_.name,), reworded(tpl_a, tpl_b))


def _negation(rng: random.Random, cued: bool) -> Pair | None:
    pol = rng.choice(POLARS)
    subject = rng.choice(polar_subjects(pol))
    obj = rng.choice(pol.objs)
    if cued:
        sides = [("yes", "no_cued")] * 2 if pol.no_cued else []
        sides += [("no", "yes_cued")] if pol.yes_cued else []
    else:
        sides = [("yes", "no"), ("yes", "no"), ("no", "yes")]
    if not sides:
        return None
    side_a, side_b = rng.choice(sides)
    a = polar_text(pol, side_a, subject, obj, rng)
    b = polar_text(pol, side_b, subject, obj, rng)
    relation = "supersedes" if cued else "contradicts"
    return finish(rng, a, b, relation, "negation", (pol.kind, pol.kind), (subject,), (pol.name,), True)


def gen_negation_cued(rng: random.Random) -> Pair | None:
    return _negation(rng, cued=True)


def gen_negation_uncued(rng: random.Random) -> Pair | None:
    return _negation(rng, cued=False)


def gen_cue_same_value(rng: random.Random) -> Pair | None:
    if rng.random() < 0.2:
        pol = rng.choice(POLARS)
        subject = rng.choice(polar_subjects(pol))
        obj = rng.choice(pol.objs)
        sides = [("no", "no_cued")] if pol.no_cued else []
        sides += [("yes", "yes_cued")] if pol.yes_cued else []
        side_a, side_b = rng.choice(sides)
        a = polar_text(pol, side_a, subject, obj, rng)
        b = polar_text(pol, side_b, subject, obj, rng)
        return finish(rng, a, b, "duplicate", "cue-same-value", (pol.kind, pol.kind), (subject,), (pol.name,), True)
    fam_, subject = family_slot(rng, CHANGEABLE)
    value = rng.choice(values_of(fam_, subject))
    tpl_a = rng.choice(states_of(fam_, subject))
    a = fill(tpl_a, rng, subject, value, label=fam_.label)
    b, tpl_b = cued_sentence(fam_, subject, value, None, rng, tpl_a, rework=rng.random() < REWORD_P)
    kinds = (fam_.kind, fam_.kind)
    return finish(rng, a, b, "duplicate", "cue-same-value", kinds, (subject,), (fam_.name,), reworded(tpl_a, tpl_b))


def gen_paraphrase(rng: random.Random) -> Pair | None:
    if rng.random() < 0.12:
        pol = rng.choice(POLARS)
        subject = rng.choice(polar_subjects(pol))
        obj = rng.choice(pol.objs)
        side = rng.choice(("yes", "no"))
        frames = _usable(subject, getattr(pol, side))
        if len(frames) < 2:
            return None
        tpl_a, tpl_b = rng.sample(frames, 2)
        a = fill(tpl_a, rng, subject, x=obj[0], xa=obj[1])
        b = fill(tpl_b, rng, subject, x=obj[0], xa=obj[1])
        return finish(rng, a, b, "duplicate", "paraphrase", (pol.kind, pol.kind), (subject,), (pol.name,), True)
    fam_, subject = family_slot(rng)
    value = rng.choice(values_of(fam_, subject))
    states = states_of(fam_, subject)
    tpl_a = rng.choice(states)
    far = [t for t in states if reworded(tpl_a, t)]
    if not far:
        return None
    tpl_b = rng.choice(far)
    a = fill(tpl_a, rng, subject, value, label=fam_.label)
    b = fill(tpl_b, rng, subject, value, label=fam_.label)
    kinds = (fam_.kind, fam_.kind)
    return finish(rng, a, b, "duplicate", "paraphrase", kinds, (subject,), (fam_.name,), reworded(tpl_a, tpl_b))


def gen_restatement(rng: random.Random) -> Pair | None:
    fam_, subject = family_slot(rng)
    value = rng.choice(values_of(fam_, subject))
    tpl = rng.choice(states_of(fam_, subject))
    a = fill(tpl, rng, subject, value, label=fam_.label)
    b = a
    for _ in range(6):
        b = fill(tpl, rng, subject, value, label=fam_.label)
        if b != a:
            break
    if b == a:
        b = b + " " + rng.choice(CONTEXT[domain_of(subject)])
    kinds = (fam_.kind, fam_.kind)
    return finish(rng, a, b, "duplicate", "restatement", kinds, (subject,), (fam_.name,), False)


def gen_other_subject(rng: random.Random) -> Pair | None:
    if rng.random() < 0.15:
        pol = rng.choice(POLARS)
        subjects = polar_subjects(pol)
        if len(subjects) < 2:
            return None
        one, two = rng.sample(subjects, 2)
        obj = rng.choice(pol.objs)
        side_a = rng.choice(("yes", "no"))
        side_b = rng.choice((side_a, side_a, "yes_cued" if pol.yes_cued else side_a, "no_cued"))
        a = polar_text(pol, side_a, one, obj, rng)
        b = polar_text(pol, side_b, two, obj, rng)
        kinds = (pol.kind, pol.kind)
        return finish(rng, a, b, "complementary", "other-subject", kinds, (one, two), (pol.name,))
    fam_ = rng.choice(MULTI_SUBJECT)
    one, two = rng.sample(subjects_of(fam_.stype, fam_.only), 2)
    value_a = rng.choice(values_of(fam_, one))
    vals_b = values_of(fam_, two)
    value_b = value_a if value_a in vals_b and rng.random() < 0.5 else rng.choice(vals_b)
    tpl_a = rng.choice(states_of(fam_, one))
    a = fill(tpl_a, rng, one, value_a, label=fam_.label)
    states_b = states_of(fam_, two)
    if rng.random() < 0.4:
        old = rng.choice([v for v in vals_b if v.key != value_b.key])
        b, _ = cued_sentence(fam_, two, value_b, old, rng, tpl_a, rework=rng.random() < 0.3)
    else:
        tpl_b = tpl_a if tpl_a in states_b and rng.random() < 0.7 else rng.choice(states_b)
        b = fill(tpl_b, rng, two, value_b, label=fam_.label)
    return finish(rng, a, b, "complementary", "other-subject", (fam_.kind, fam_.kind), (one, two), (fam_.name,))


def _polar_with_family(rng: random.Random) -> Pair | None:
    pol = rng.choice(POLARS)
    subject = rng.choice(polar_subjects(pol))
    fams = [
        f for f in FAMILIES if f.stype == pol.stype and f.topic != pol.topic and subject in subjects_of(f.stype, f.only)
    ]
    if not fams:
        return None
    fam_ = rng.choice(fams)
    value = rng.choice(values_of(fam_, subject))
    fact = fill(rng.choice(states_of(fam_, subject)), rng, subject, value, label=fam_.label)
    yes_no = polar_text(pol, rng.choice(("yes", "no")), subject, rng.choice(pol.objs), rng)
    if rng.random() < 0.5:
        return finish(
            rng,
            fact,
            yes_no,
            "complementary",
            "other-attribute",
            (fam_.kind, pol.kind),
            (subject,),
            (fam_.name, pol.name),
        )
    return finish(
        rng, yes_no, fact, "complementary", "other-attribute", (pol.kind, fam_.kind), (subject,), (pol.name, fam_.name)
    )


def gen_other_attribute(rng: random.Random) -> Pair | None:
    if rng.random() < 0.15:
        return _polar_with_family(rng)
    fam_a, subject = family_slot(rng)
    choices = [
        f
        for f in FAMILIES
        if f is not fam_a
        and f.stype == fam_a.stype
        and subject in subjects_of(f.stype, f.only)
        and frozenset({f.name, fam_a.name}) not in NEVER_TOGETHER
    ]
    if not choices:
        return None
    sharing = [f for f in choices if f.vtype == fam_a.vtype and fam_a.vtype in SHARE_VTYPES]
    fam_b = rng.choice(sharing) if sharing and rng.random() < 0.6 else rng.choice(choices)
    value_a = rng.choice(values_of(fam_a, subject))
    vals_b = values_of(fam_b, subject)
    value_b = value_a if value_a in vals_b and rng.random() < 0.8 else rng.choice(vals_b)
    a = fill(rng.choice(states_of(fam_a, subject)), rng, subject, value_a, label=fam_a.label)
    if rng.random() < 0.3:
        old = rng.choice([v for v in vals_b if v.key != value_b.key])
        b, _ = cued_sentence(fam_b, subject, value_b, old, rng)
    else:
        b = fill(rng.choice(states_of(fam_b, subject)), rng, subject, value_b, label=fam_b.label)
    kinds = (fam_a.kind, fam_b.kind)
    return finish(rng, a, b, "complementary", "other-attribute", kinds, (subject,), (fam_a.name, fam_b.name))


def gen_added_detail(rng: random.Random) -> Pair | None:
    if rng.random() < 0.15:
        pol = rng.choice(POLARS)
        subject = rng.choice(polar_subjects(pol))
        obj = rng.choice(pol.objs)
        frames = _usable(subject, pol.yes)
        tpl_a = rng.choice(frames)
        tpl_b = tpl_a if rng.random() < 0.6 else rng.choice(frames)
        a = fill(tpl_a, rng, subject, x=obj[0], xa=obj[1])
        b = attach(fill(tpl_b, rng, subject, x=obj[0], xa=obj[1]), rng.choice(pol.details))
        return finish(rng, a, b, "complementary", "added-detail", (pol.kind, pol.kind), (subject,), (pol.name,))
    fam_, subject = family_slot(rng)
    value = rng.choice(values_of(fam_, subject))
    states = states_of(fam_, subject)
    tpl_a = rng.choice(states)
    tpl_b = tpl_a if rng.random() < 0.6 else rng.choice(states)
    a = fill(tpl_a, rng, subject, value, label=fam_.label)
    b = attach(fill(tpl_b, rng, subject, value, label=fam_.label), rng.choice(fam_.details))
    return finish(rng, a, b, "complementary", "added-detail", (fam_.kind, fam_.kind), (subject,), (fam_.name,))


# ---- loops -------------------------------------------------------------------------------------------


def loop_text(loop: Loop, frame: str, rng: random.Random, due: str | None = None) -> str:
    return frame.format(
        vp=loop.vp,
        np=loop.np,
        who=loop.who,
        done=loop.done,
        due=due or rng.choice(DUE),
        when=rng.choice(DONE_WHEN),
        reason=rng.choice(REASONS[loop.domain]),
    )


def loop_subject(loop: Loop) -> Subject:
    return Subject("task:" + loop.np, "loop-" + loop.domain, (loop.np,), (), frozenset(), "")


def _loop_pair(
    rng: random.Random, a: str, b: str, relation: str, frame: str, kinds: tuple[str, str], loops: tuple[Loop, ...]
) -> Pair:
    dom = loops[0].domain
    return Pair(
        dress(a, dom, rng),
        dress(b, dom, rng),
        relation,
        frame,
        kinds[0],
        kinds[1],
        tuple("task:" + lp.np for lp in loops),
        ("task",),
        None,
    )


def gen_loop_done(rng: random.Random) -> Pair | None:
    loop = rng.choice(LOOPS)
    task_frame = rng.choice(TASK_FRAMES)
    due = rng.choice(DUE)
    a = loop_text(loop, task_frame, rng, due)
    dropped = rng.random() < 0.3
    frame = rng.choice(DROPPED_FRAMES if dropped else DONE_FRAMES)
    b = loop_text(loop, frame, rng)
    kind_b = "decision" if "decided" in frame else "fact"
    pair = _loop_pair(rng, a, b, "supersedes", "loop-done", ("task", kind_b), (loop,))
    pair.reworded = True
    return pair


def gen_task_restated(rng: random.Random) -> Pair | None:
    loop = rng.choice(LOOPS)
    frame_a = rng.choice(TASK_FRAMES)
    due = rng.choice(DUE)
    a = loop_text(loop, frame_a, rng, due)
    options = RESTATED_FRAMES + tuple(f for f in TASK_FRAMES if f != frame_a)
    if "{due}" not in frame_a:
        options = tuple(f for f in options if "{due}" not in f)
    frame_b = rng.choice(options)
    b = loop_text(loop, frame_b, rng, due)
    pair = _loop_pair(rng, a, b, "duplicate", "task-restated", ("task", "task"), (loop,))
    pair.reworded = reworded(frame_a, frame_b)
    return pair


def gen_loop_other_task(rng: random.Random) -> Pair | None:
    loop = rng.choice(LOOPS)
    sibling = rng.choice([lp for lp in LOOPS if lp.group == loop.group and lp != loop])
    a = loop_text(loop, rng.choice(TASK_FRAMES), rng)
    if rng.random() < 0.25:
        b = loop_text(sibling, rng.choice(DONE_FRAMES), rng)
        return _loop_pair(rng, a, b, "complementary", "loop-other-task", ("task", "fact"), (loop, sibling))
    b = loop_text(sibling, rng.choice(TASK_FRAMES), rng)
    return _loop_pair(rng, a, b, "complementary", "loop-other-task", ("task", "task"), (loop, sibling))


# ---- open questions ------------------------------------------------------------------------------------


def answer_text(statement: str, rng: random.Random) -> str:
    frame = rng.choice(ANSWER_WRAPPERS)
    if frame == "{x}":
        return statement
    if frame.startswith("{x}"):
        return frame.format(x=drop_period(statement), p=rng.choice(DONE_WHEN)) + "."
    return frame.format(x=statement)


def gen_question_answered(rng: random.Random) -> Pair | None:
    if rng.random() < 0.2:
        pol = rng.choice(POLARS)
        subject = rng.choice(polar_subjects(pol))
        obj = rng.choice(pol.objs)
        a = fill(rng.choice(pol.qs), rng, subject, x=obj[0], xa=obj[1])
        b = answer_text(polar_text(pol, rng.choice(("yes", "no")), subject, obj, rng), rng)
        kinds = ("open-question", pol.kind)
        pair = finish(rng, a, b, "supersedes", "question-answered", kinds, (subject,), (pol.name,), True)
        return pair
    fam_, subject = family_slot(rng)
    value = rng.choice(values_of(fam_, subject))
    a = fill(rng.choice(questions_of(fam_, subject)), rng, subject, label=fam_.label)
    b = answer_text(fill(rng.choice(states_of(fam_, subject)), rng, subject, value, label=fam_.label), rng)
    kinds = ("open-question", fam_.kind)
    return finish(rng, a, b, "supersedes", "question-answered", kinds, (subject,), (fam_.name,), True)


def gen_question_restated(rng: random.Random) -> Pair | None:
    if rng.random() < 0.12:
        pol = rng.choice(POLARS)
        subject = rng.choice(polar_subjects(pol))
        obj = rng.choice(pol.objs)
        q_a = fill(rng.choice(pol.qs), rng, subject, x=obj[0], xa=obj[1])
        q_b = fill(rng.choice(pol.qs), rng, subject, x=obj[0], xa=obj[1])
        b = rng.choice(QUESTION_RESTATED).format(q=q_b)
        kinds = ("open-question", "open-question")
        return finish(rng, q_a, b, "duplicate", "question-restated", kinds, (subject,), (pol.name,), False)
    fam_, subject = family_slot(rng)
    frames = questions_of(fam_, subject)
    tpl_a = rng.choice(frames)
    a = fill(tpl_a, rng, subject, label=fam_.label)
    others = [f for f in frames if f != tpl_a]
    if others and rng.random() < 0.55:
        tpl_b = rng.choice(others)
        b = fill(tpl_b, rng, subject, label=fam_.label)
    else:
        tpl_b = rng.choice(frames)
        b = rng.choice(QUESTION_RESTATED).format(q=fill(tpl_b, rng, subject, label=fam_.label))
    kinds = ("open-question", "open-question")
    rew = reworded(tpl_a, tpl_b)
    return finish(rng, a, b, "duplicate", "question-restated", kinds, (subject,), (fam_.name,), rew)


def gen_question_other(rng: random.Random) -> Pair | None:
    fam_, subject = family_slot(rng)
    a = fill(rng.choice(questions_of(fam_, subject)), rng, subject, label=fam_.label)
    roll = rng.random()
    if roll < 0.45:
        fams = [
            f for f in FAMILIES if f is not fam_ and f.stype == fam_.stype and subject in subjects_of(f.stype, f.only)
        ]
        if not fams:
            return None
        fam_b = rng.choice(fams)
        b = fill(rng.choice(questions_of(fam_b, subject)), rng, subject, label=fam_b.label)
        kinds = ("open-question", "open-question")
        return finish(rng, a, b, "complementary", "question-other", kinds, (subject,), (fam_.name, fam_b.name))
    subjects = [s for s in subjects_of(fam_.stype, fam_.only) if s != subject]
    if not subjects:
        return None
    other = rng.choice(subjects)
    if roll < 0.75:
        b = fill(rng.choice(questions_of(fam_, other)), rng, other, label=fam_.label)
        kinds = ("open-question", "open-question")
    else:
        value = rng.choice(values_of(fam_, other))
        b = fill(rng.choice(states_of(fam_, other)), rng, other, value, label=fam_.label)
        kinds = ("open-question", fam_.kind)
    return finish(rng, a, b, "complementary", "question-other", kinds, (subject, other), (fam_.name,))


# ---- unrelated ---------------------------------------------------------------------------------------

SHARED_GROUPS = (("weekday", "weekday7"), ("time", "walk", "bedtime"), ("date",))


def _shared_value_shift(rng: random.Random) -> Pair | None:
    group = rng.choice(SHARED_GROUPS)
    fams = [f for f in FAMILIES if f.vtype in group]
    fam_a, fam_b = rng.sample(fams, 2)
    keys_b = {v.key for v in VALUES[fam_b.vtype]}
    common = [v for v in VALUES[fam_a.vtype] if v.key in keys_b]
    if not common:
        return None
    value = rng.choice(common)
    value_b = next(v for v in VALUES[fam_b.vtype] if v.key == value.key)
    one = random_statement(rng, fam_a, value)
    two = random_statement(rng, fam_b, value_b)
    if not apart(one, two, shared_value=True):
        return None
    kinds = (one.kind, two.kind)
    return finish(
        rng, one.text, two.text, "unrelated", "topic-shift", kinds, (one.subject, two.subject), (one.attr, two.attr)
    )


def _loop_shift(rng: random.Random) -> Pair | None:
    loop = rng.choice(LOOPS)
    task = loop_text(loop, rng.choice(TASK_FRAMES), rng)
    other = random_statement(rng)
    if domain_of(other.subject) == loop.domain:
        return None
    task_subject = loop_subject(loop)
    if rng.random() < 0.5:
        return finish(
            rng,
            task,
            other.text,
            "unrelated",
            "topic-shift",
            ("task", other.kind),
            (task_subject, other.subject),
            ("task", other.attr),
        )
    pair = finish(
        rng,
        other.text,
        task,
        "unrelated",
        "topic-shift",
        (other.kind, "task"),
        (other.subject, task_subject),
        (other.attr, "task"),
    )
    return pair


def _question_shift(rng: random.Random) -> Pair | None:
    fam_, subject = family_slot(rng)
    question = fill(rng.choice(questions_of(fam_, subject)), rng, subject, label=fam_.label)
    asked = Statement(
        question, "open-question", subject, frozenset({fam_.topic, subject.topic} - {""}), subject.tags, fam_.name
    )
    other = random_statement(rng)
    if not apart(asked, other):
        return None
    return finish(
        rng,
        question,
        other.text,
        "unrelated",
        "topic-shift",
        ("open-question", other.kind),
        (subject, other.subject),
        (fam_.name, other.attr),
    )


def gen_topic_shift(rng: random.Random) -> Pair | None:
    roll = rng.random()
    if roll < 0.12:
        return _loop_shift(rng)
    if roll < 0.2:
        return _question_shift(rng)
    if roll < 0.42:
        return _shared_value_shift(rng)
    one = random_statement(rng)
    two = random_statement(rng)
    if not apart(one, two):
        return None
    return finish(
        rng,
        one.text,
        two.text,
        "unrelated",
        "topic-shift",
        (one.kind, two.kind),
        (one.subject, two.subject),
        (one.attr, two.attr),
    )


# --------------------------------------------------------------------------------------------------
# Hand-written pairs: (a, b, relation, frame, kind_a, kind_b), written one by one
# --------------------------------------------------------------------------------------------------

F, P, T, Q, D, PL = "fact", "preference", "task", "open-question", "decision", "plan"

HANDWRITTEN: tuple[tuple[str, str, str, str, str, str], ...] = (
    # ---- supersedes ----
    (
        "User's go-to running route: the canal loop, about 8 km.",
        "User has dropped the canal loop; runs the Meadows park circuit now instead.",
        "supersedes",
        "cued-change",
        P,
        P,
    ),
    (
        "Kenji rents a flat in Shoreditch.",
        "Kenji left Shoreditch in April — he rents in Hackney now.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "Broadband at the flat: Virgin Media, 350 Mb.",
        "Swapped the flat's broadband from Virgin Media to Community Fibre (900 Mb) on 2 Feb.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "payments-api p99 target: 300 ms.",
        "SLO review outcome: payments-api p99 target tightened to 250 ms, effective next quarter.",
        "supersedes",
        "cued-change",
        D,
        D,
    ),
    (
        "Standup: 09:30 in the Orion room.",
        "Standup moved to 09:45 from Monday. Same room.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "Umbrella Health is on the Pro plan.",
        "Umbrella Health upgraded from Pro to Enterprise last week.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "Sam rides the Vespa to work.",
        "Sam doesn't ride the Vespa to work anymore; takes the train after the knee surgery.",
        "supersedes",
        "negation",
        F,
        F,
    ),
    (
        "User is on the waitlist for the Friday pottery class.",
        "User is no longer waitlisted for Friday pottery — enrolled from 6 March.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "TODO: find a babysitter for Saturday the 14th.",
        "Babysitter for the 14th sorted: Chloe (Nina's friend) is coming at 6.",
        "supersedes",
        "loop-done",
        T,
        F,
    ),
    (
        "Ask the landlord to fix the bathroom extractor fan.",
        "Extractor fan: landlord won't fix it, so the user dropped the request and bought a dehumidifier.",
        "supersedes",
        "loop-done",
        T,
        F,
    ),
    (
        "Does Globex want annual or monthly invoicing?",
        "Globex confirmed annual invoicing, paid up front.",
        "supersedes",
        "question-answered",
        Q,
        F,
    ),
    (
        "Which vet did the previous owner use for Clover?",
        "Clover's previous vet was Greenpaws in Didsbury (per the adoption papers).",
        "supersedes",
        "question-answered",
        Q,
        F,
    ),
    (
        "Release train leaves every second Wednesday.",
        "Going forward the release train is weekly, on Wednesdays.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "Marcus owns the search relevance roadmap.",
        "Hye-jin took over the search relevance roadmap from Marcus on 1 April.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "User's contact lenses: monthly Acuvue, -2.25 both eyes.",
        "Updated prescription after the 12 Jan eye test: -2.50 both eyes, still monthly Acuvue.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "The family van is parked in bay 14.",
        "Correction: the van's bay is 41, not 14.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "On-call escalation after 15 min goes to Ingrid.",
        "Escalation path updated: after 15 min it pages Rafael, not Ingrid.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "Leo walks to school with the neighbours' kids.",
        "Leo no longer walks to school. He takes the 8:05 bus now.",
        "supersedes",
        "negation",
        F,
        F,
    ),
    (
        "Plan: ski week in Val Thorens, 14\u201321 Feb.",
        "Ski week moved a week later: 21\u201328 Feb.",
        "supersedes",
        "cued-change",
        PL,
        PL,
    ),
    (
        "Open question: is the Kafka upgrade blocked on the schema registry?",
        "Kafka upgrade is not blocked by the schema registry; Wen checked and it is compatible as is.",
        "supersedes",
        "question-answered",
        Q,
        F,
    ),
    (
        "Dana to send Hooli the security questionnaire by Thursday.",
        "Hooli security questionnaire: sent by Dana on Wednesday evening.",
        "supersedes",
        "loop-done",
        T,
        F,
    ),
    (
        "User pays for Audible: £7.99/month.",
        "Audible cancelled as of 30 June; the user borrows audiobooks from the library app.",
        "supersedes",
        "negation",
        F,
        F,
    ),
    (
        "Data team's sprint: two weeks.",
        "Data team switched to one-week sprints this quarter.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "Grandma Rosa takes her blood pressure tablet in the morning.",
        "Rosa's GP changed her blood pressure tablet to the evening.",
        "supersedes",
        "cued-change",
        F,
        F,
    ),
    (
        "Decision: the ledger service stays on MySQL 8.",
        "Reversed in the 9 May arch review: ledger moves to Postgres 16 instead of staying on MySQL.",
        "supersedes",
        "cued-change",
        D,
        D,
    ),
    (
        "Book flights for the Kraków reunion.",
        "Kraków reunion called off, so no flights needed.",
        "supersedes",
        "loop-done",
        T,
        F,
    ),
    (
        "Who is covering Priya's on-call week in August?",
        "Marcus is covering Priya's on-call week in August.",
        "supersedes",
        "question-answered",
        Q,
        F,
    ),
    # ---- duplicate ----
    ("Mia is allergic to kiwi.", "Kiwi allergy: Mia.", "duplicate", "paraphrase", F, F),
    ("User's passport expires 2029-08-14.", "Passport expiry (user): 14 Aug 2029.", "duplicate", "paraphrase", F, F),
    (
        "checkout-web is written in TypeScript.",
        "checkout-web's codebase is TypeScript.",
        "duplicate",
        "paraphrase",
        F,
        F,
    ),
    (
        "Globex — renewal in March, owner: Dana.",
        "Dana owns the Globex account; it renews in March.",
        "duplicate",
        "paraphrase",
        F,
        F,
    ),
    ("The user hates coriander.", "User can't stand coriander.", "duplicate", "paraphrase", P, P),
    (
        "Deploy freeze for payments-api: Fri 18:00 UTC to Mon 08:00.",
        "payments-api freeze window is now Friday 6pm UTC through Monday 8am UTC.",
        "duplicate",
        "cue-same-value",
        D,
        D,
    ),
    (
        "Sam's flight from Madrid lands at 21:40.",
        "Sam (Madrid flight) gets in at 9:40 pm.",
        "duplicate",
        "paraphrase",
        PL,
        PL,
    ),
    ("Priya is the release manager for 4.2.", "4.2 release manager: Priya.", "duplicate", "paraphrase", F, F),
    (
        "User's bank: Monzo (current account).",
        "User banks with Monzo for the current account.",
        "duplicate",
        "paraphrase",
        F,
        F,
    ),
    ("Rent on the flat is €1,150 a month.", "Flat rent: 1150 EUR/month.", "duplicate", "paraphrase", F, F),
    (
        "Initech's support tier is next-business-day.",
        "Initech still has next-business-day support.",
        "duplicate",
        "restatement",
        F,
        F,
    ),
    ("The cat Pepper is on a renal diet.", "Pepper — renal diet food only.", "duplicate", "paraphrase", F, F),
    (
        "The architecture review happens on the first Tuesday of each month.",
        "Arch review = first Tuesday, monthly.",
        "duplicate",
        "paraphrase",
        F,
        F,
    ),
    (
        "Leo's swimming is Saturdays at 9.",
        "Leo's swimming lessons have moved to Saturdays, 9am.",
        "duplicate",
        "cue-same-value",
        F,
        F,
    ),
    (
        "Wen prefers async updates over meetings.",
        "Wen would rather get a written update than a meeting.",
        "duplicate",
        "paraphrase",
        P,
        P,
    ),
    (
        "Need to renew the domain example-shop.com before 1 July.",
        "Reminder: example-shop.com renewal is still due before July 1st.",
        "duplicate",
        "task-restated",
        T,
        T,
    ),
    (
        "Who is Globex's CFO these days?",
        "Still unknown: the name of Globex's current CFO.",
        "duplicate",
        "question-restated",
        Q,
        Q,
    ),
    (
        "Ana's wedding anniversary: 22 September.",
        "Ana and Pedro's anniversary is Sept 22nd.",
        "duplicate",
        "paraphrase",
        F,
        F,
    ),
    ("The user takes the 7:12 train to work.", "User commutes on the 07:12 train.", "duplicate", "paraphrase", F, F),
    ("SEC-203 is P1.", "Priority for SEC-203 updated to P1.", "duplicate", "cue-same-value", F, F),
    (
        "User's car is a 2019 Honda Civic, silver.",
        "Silver 2019 Civic — that's the user's car.",
        "duplicate",
        "paraphrase",
        F,
        F,
    ),
    ("Hooli's ARR: $480k.", "Hooli is worth 480,000 USD a year to us.", "duplicate", "paraphrase", F, F),
    ("Priya: draft the Q3 roadmap.", "Q3 roadmap draft (Priya) is still open.", "duplicate", "task-restated", T, T),
    (
        "Team offsite is in Lisbon, 9\u201311 Oct.",
        "Offsite: Lisbon, October 9 to 11.",
        "duplicate",
        "paraphrase",
        PL,
        PL,
    ),
    (
        "Which room is the all-hands in this month?",
        "Open: the all-hands room for this month isn't confirmed yet.",
        "duplicate",
        "question-restated",
        Q,
        Q,
    ),
    ("Dad is teetotal.", "Dad doesn't drink — no alcohol at all.", "duplicate", "paraphrase", F, F),
    ("The user switched to Tidal in January.", "User now streams music on Tidal.", "duplicate", "cue-same-value", F, F),
    ("Mei sits in the Berlin office.", "Mei works from the Berlin office.", "duplicate", "paraphrase", F, F),
    # ---- contradicts ----
    ("The user's blood type is A+.", "User is O+ (blood type).", "contradicts", "uncued-change", F, F),
    ("Globex — renewal in March, owner: Dana.", "Globex renews in May.", "contradicts", "uncued-change", F, F),
    ("Biscuit weighs 18 kg.", "Biscuit: 21 kg.", "contradicts", "uncued-change", "observation", "observation"),
    ("The pro tier includes SSO.", "SSO isn't part of the pro tier.", "contradicts", "negation", F, F),
    (
        "User's sister Ana lives in Porto.",
        "Ana lives in Coimbra, about an hour from the user's parents.",
        "contradicts",
        "uncued-change",
        F,
        F,
    ),
    ("Standup: 09:30.", "Daily standup is at 10:00 sharp.", "contradicts", "uncued-change", F, F),
    ("Marcus reports to Ingrid.", "Marcus's manager is Rafael.", "contradicts", "uncued-change", F, F),
    ("Leo is allergic to peanuts.", "Leo has no peanut allergy; the test was clear.", "contradicts", "negation", F, F),
    (
        "The mortgage rate is fixed at 4.1% until 2028.",
        "Mortgage: 3.85% fixed to 2028.",
        "contradicts",
        "uncued-change",
        F,
        F,
    ),
    (
        "auth-gateway runs in eu-west-1.",
        "auth-gateway is hosted in eu-central-1 (Frankfurt).",
        "contradicts",
        "uncued-change",
        F,
        F,
    ),
    (
        "Mum prefers phone calls to texts.",
        "Mum would rather get a text than a call.",
        "contradicts",
        "uncued-change",
        P,
        P,
    ),
    ("OPS-1519 is assigned to Seun.", "OPS-1519 — assignee: Lukas.", "contradicts", "uncued-change", F, F),
    ("Jo is vegetarian.", "Jo eats fish and chicken.", "contradicts", "uncued-change", F, F),
    ("The team plan costs $12 per seat.", "Team plan pricing: $15/seat/month.", "contradicts", "uncued-change", F, F),
    ("Kenji's birthday is 2 November.", "Kenji was born on 20 November.", "contradicts", "uncued-change", F, F),
    ("The ski chalet sleeps 8.", "Chalet capacity: 6 people.", "contradicts", "uncued-change", F, F),
    (
        "reporting-etl runs nightly at 02:00 UTC.",
        "reporting-etl kicks off at 03:30 UTC each night.",
        "contradicts",
        "uncued-change",
        F,
        F,
    ),
    ("User doesn't drink coffee.", "User has two flat whites a day.", "contradicts", "negation", F, F),
    (
        "Wayne Foods signed a 3-year contract.",
        "Wayne Foods is on a one-year term.",
        "contradicts",
        "uncued-change",
        F,
        F,
    ),
    ("The dentist appointment is on 12 May.", "Dentist: May 19th, 10:15.", "contradicts", "uncued-change", PL, PL),
    (
        "Project Falcon is in beta.",
        "Falcon hasn't reached beta yet; it is still in build.",
        "contradicts",
        "negation",
        F,
        F,
    ),
    (
        "For the Tokyo trip the user is staying at Hotel Gracery Shinjuku.",
        "Staying at the Park Hyatt for the Tokyo trip.",
        "contradicts",
        "uncued-change",
        PL,
        PL,
    ),
    ("Mia's piano teacher is Mrs. Lindqvist.", "Mia has piano with Mr. Osei.", "contradicts", "uncued-change", F, F),
    (
        "The QA environment is shared with the Mobile team.",
        "The QA environment is dedicated to Payments; the Mobile team doesn't use it.",
        "contradicts",
        "negation",
        F,
        F,
    ),
    ("User's shoe size: EU 42.", "User wears a 43 (EU).", "contradicts", "uncued-change", F, F),
    ("Hooli pays by card.", "Hooli pays by bank transfer, net 30.", "contradicts", "uncued-change", F, F),
    # ---- complementary ----
    (
        "User switched from Spotify to Tidal (Jan 2026).",
        "Sam switched from Spotify to Tidal too.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    (
        "The billing service deploys to production on Fridays.",
        "billing-service deploys to staging on Thursdays.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    (
        "Priya lives in Oslo.",
        "Priya works in Oslo, at the Aker Brygge office.",
        "complementary",
        "other-attribute",
        F,
        F,
    ),
    (
        "Acme's account manager is Dana.",
        "Dana is now the account manager for Globex as well.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    (
        "The free tier allows 60 requests a minute.",
        "Pro tier: 60 requests a second.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    ("OPS-1412: assigned to Marcus.", "OPS-1519 now assigned to Marcus.", "complementary", "other-subject", F, F),
    (
        "Ana lives in Porto.",
        "Ana's husband Pedro also lives in Porto but commutes to Braga.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    (
        "Miso's vet is Riverside Animal Clinic.",
        "Miso's vet is Riverside Animal Clinic — Dr. Okafor, usually Tuesdays.",
        "complementary",
        "added-detail",
        F,
        F,
    ),
    (
        "Tokyo trip: flying out 3 May.",
        "Tokyo trip: flying out 3 May on NH212 from Heathrow, 19:25.",
        "complementary",
        "added-detail",
        PL,
        PL,
    ),
    (
        "The user is learning Portuguese.",
        "User's Portuguese practice is on Duolingo, 15 minutes a day.",
        "complementary",
        "added-detail",
        F,
        F,
    ),
    (
        "payments-api v2 is deprecated on 1 June.",
        "payments-api v3 goes GA on 1 June.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    (
        "Book a table for Mum's birthday.",
        "Order Mum's birthday cake from the bakery on Elm St.",
        "complementary",
        "loop-other-task",
        T,
        T,
    ),
    (
        "What time does the user's flight to Lisbon land?",
        "Which terminal does the Lisbon flight leave from?",
        "complementary",
        "question-other",
        Q,
        Q,
    ),
    ("Staging uses Postgres 15.", "Production is on Postgres 14.", "complementary", "other-subject", F, F),
    ("User's dentist is Dr. Haddad.", "Sam's dentist is Dr. Haddad as well.", "complementary", "other-subject", F, F),
    (
        "The Civic's insurance renews on 4 Sept.",
        "The Civic's road tax also renews on 4 Sept.",
        "complementary",
        "other-attribute",
        F,
        F,
    ),
    (
        "Hooli's primary contact is Elena Park (VP Ops).",
        "Elena Park at Hooli prefers email over calls.",
        "complementary",
        "added-detail",
        F,
        P,
    ),
    ("Team standup: 09:30.", "Team retro: Fridays at 09:30.", "complementary", "other-subject", F, F),
    ("The user is vegetarian.", "User's partner Sam is now vegetarian too.", "complementary", "other-subject", F, F),
    ("Leo's school: Hillside Primary.", "Leo's school day starts at 8:45.", "complementary", "other-attribute", F, F),
    (
        "Rafael is on the payments on-call rotation.",
        "Rafael is on call this week (Mon\u2013Sun).",
        "complementary",
        "added-detail",
        F,
        F,
    ),
    (
        "Open question: does Initech need EU data residency?",
        "Open question: does Initech need a DPA signed before the pilot?",
        "complementary",
        "question-other",
        Q,
        Q,
    ),
    (
        "Rotate the Stripe webhook secret.",
        "Rotate the Stripe restricted key used by reporting-etl.",
        "complementary",
        "loop-other-task",
        T,
        T,
    ),
    (
        "Kenji moved to Berlin.",
        "Kenji's partner Lina moved to Berlin in March.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    (
        "The user's Amex is due on the 5th.",
        "The user's Visa is due on the 5th as well.",
        "complementary",
        "other-subject",
        F,
        F,
    ),
    (
        "search-api is owned by the Search team.",
        "search-api's dashboards are owned by the Search team too.",
        "complementary",
        "other-attribute",
        F,
        F,
    ),
    # ---- unrelated ----
    ("reporting-etl runs on Python 3.12.", "Leo keeps a ball python called Noodle.", "unrelated", "topic-shift", F, F),
    (
        "Project Phoenix kicks off on 12 June.",
        "User's cousin Farah lives in Phoenix, Arizona.",
        "unrelated",
        "topic-shift",
        PL,
        F,
    ),
    (
        "The book club is reading Kafka on the Shore.",
        "The Kafka cluster in prod has 6 brokers.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    (
        "checkout-web is written in Ruby.",
        "Ruby, the user's niece, turns 7 on 9 August.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    (
        "The ledger service runs on Java 21.",
        "User buys coffee beans from Java Lane Roasters.",
        "unrelated",
        "topic-shift",
        F,
        P,
    ),
    (
        "The Data team's sprints are two weeks long.",
        "User runs 6 x 200 m sprints on Thursdays.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    (
        "Delta is the user's preferred airline.",
        "Page on-call when the error-rate delta exceeds 2% in 5 minutes.",
        "unrelated",
        "topic-shift",
        P,
        "procedure",
    ),
    (
        "The Apple Music family plan covers the user and Sam.",
        "Mia takes an apple and crackers for morning snack.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    (
        "Sam's Vespa is insured with Allianz.",
        "Allianz Arena stadium tour booked for Leo's birthday.",
        "unrelated",
        "topic-shift",
        F,
        PL,
    ),
    (
        "The garden shed needs a new padlock.",
        "search-api sheds load above 2k requests per second.",
        "unrelated",
        "topic-shift",
        T,
        F,
    ),
    ("Project Atlas lead: Priya.", "User is reading Cloud Atlas for book club.", "unrelated", "topic-shift", F, F),
    (
        "Orange is the user's mobile carrier in France.",
        "Clover the rabbit loves orange peppers.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    ("The Mobile team uses Bitrise for CI.", "User's mobile number ends in 4471.", "unrelated", "topic-shift", F, F),
    (
        "Spring clean of the user's flat is booked for Saturday.",
        "Spring Boot upgrade for the ledger is planned for Q3.",
        "unrelated",
        "topic-shift",
        PL,
        PL,
    ),
    (
        "The user's cat is called Pepper.",
        "User's chilli pepper plants need repotting in April.",
        "unrelated",
        "topic-shift",
        F,
        T,
    ),
    (
        "Tyrell Biotech is on the Enterprise plan.",
        "Enterprise rental car for Lisbon: pick-up 3 May at the airport.",
        "unrelated",
        "topic-shift",
        F,
        PL,
    ),
    (
        "Jasmine is the test runner for checkout-web.",
        "User drinks jasmine tea in the evenings.",
        "unrelated",
        "topic-shift",
        F,
        P,
    ),
    (
        "The Lisbon trip hotel is Memmo Alfama.",
        "payments-api latency spikes every day around 14:00 UTC.",
        "unrelated",
        "topic-shift",
        PL,
        "observation",
    ),
    ("Oat milk in the user's coffee, always.", "Globex wants a 4-hour support SLA.", "unrelated", "topic-shift", P, F),
    (
        "User's GP is Dr. Patel at Riverside Surgery.",
        "Riverside Animal Clinic closes at 18:00 on Saturdays.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    (
        "Rust treatment for the van's wheel arches is booked for 9 May.",
        "media-transcoder is being rewritten in Rust.",
        "unrelated",
        "topic-shift",
        PL,
        F,
    ),
    (
        "Shell is the user's usual petrol station on the A64.",
        "Rafael wrote a shell script to rotate the staging logs.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    (
        "The user's book club meets at The Crown.",
        "Crown on Leo's back tooth: dentist says it can wait until summer.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
    ("Hooli's QBR is on 14 May.", "Mia's ballet recital is on 14 May.", "unrelated", "topic-shift", PL, PL),
    ("Backups for production run at 01:00 UTC.", "Leo's bedtime is 19:30.", "unrelated", "topic-shift", F, F),
    (
        "Marcus's team tracks work in Linear.",
        "Linear algebra tutor for Mia: Thursdays at 5pm.",
        "unrelated",
        "topic-shift",
        F,
        F,
    ),
)

# --------------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------------

PLAN: dict[str, tuple[tuple[str, Gen, float], ...]] = {
    "supersedes": (
        ("cued-change", gen_cued_change, 0.6),
        ("negation", gen_negation_cued, 0.1),
        ("loop-done", gen_loop_done, 0.15),
        ("question-answered", gen_question_answered, 0.15),
    ),
    "duplicate": (
        ("paraphrase", gen_paraphrase, 0.3),
        ("cue-same-value", gen_cue_same_value, 0.22),
        ("restatement", gen_restatement, 0.16),
        ("task-restated", gen_task_restated, 0.16),
        ("question-restated", gen_question_restated, 0.16),
    ),
    "contradicts": (
        ("uncued-change", gen_uncued_change, 0.78),
        ("negation", gen_negation_uncued, 0.22),
    ),
    "complementary": (
        ("other-subject", gen_other_subject, 0.34),
        ("other-attribute", gen_other_attribute, 0.24),
        ("added-detail", gen_added_detail, 0.2),
        ("loop-other-task", gen_loop_other_task, 0.11),
        ("question-other", gen_question_other, 0.11),
    ),
    "unrelated": (("topic-shift", gen_topic_shift, 1.0),),
}


def quotas(total: int, plan: tuple[tuple[str, Gen, float], ...]) -> list[int]:
    shares = [int(total * weight) for _, _, weight in plan]
    for i in range(total - sum(shares)):
        shares[i % len(shares)] += 1
    return shares


def hand_pairs() -> list[Pair]:
    return [
        Pair(a, b, relation, frame, kind_a, kind_b, hand=True) for a, b, relation, frame, kind_a, kind_b in HANDWRITTEN
    ]


def generate(rng: random.Random) -> list[Pair]:
    pairs = hand_pairs()
    seen = {(p.a.lower(), p.b.lower()) for p in pairs}
    for relation in RELATIONS:
        plan = PLAN[relation]
        remaining = PER_RELATION - sum(1 for p in pairs if p.relation == relation)
        for (frame, gen, _), quota in zip(plan, quotas(remaining, plan), strict=True):
            made = 0
            while made < quota:
                pair = gen(rng)
                if pair is None or pair.a == pair.b:
                    continue
                key = (pair.a.lower(), pair.b.lower())
                if key in seen:
                    continue
                assert pair.frame == frame
                assert pair.relation == relation
                seen.add(key)
                pairs.append(pair)
                made += 1
    return pairs


def check(pairs: list[Pair]) -> None:
    """Construction guarantees the labels; these checks catch slips in the hand-written frames."""
    for fam_ in FAMILIES:
        for tpl in fam_.states + fam_.details:
            assert not CUE_RE.search(tpl.replace("{label}", "")), (fam_.name, tpl)
        for value in VALUES[fam_.vtype]:
            for forms in value.forms.values():
                assert not any(CUE_RE.search(form) for form in forms), value
    for pol in POLARS:
        for tpl in pol.yes + pol.no + pol.details:
            assert not CUE_RE.search(tpl), (pol.name, tpl)
    for pool in CONTEXT.values():
        assert not any(CUE_RE.search(text) for text in pool)
    quiet = {"uncued-change", "paraphrase", "restatement", "added-detail"}
    for pair in pairs:
        if pair.relation == "contradicts" or (pair.frame in quiet and not pair.hand):
            assert not CUE_RE.search(pair.b), pair
    counts_ = Counter(p.relation for p in pairs)
    assert all(counts_[r] == PER_RELATION for r in RELATIONS), counts_


def sentences(text: str) -> int:
    text = re.sub(r"\b(Dr|Mr|Mrs|St|Inc|N)\.", r"\1", text)
    return len(re.findall(r"[.!?](?=\s+[A-Z0-9#]|$)", text)) or 1


def frame_inventory() -> set[str]:
    frames: set[str] = set()
    for fam_ in FAMILIES:
        frames.update(fam_.states + fam_.cued + fam_.qs)
    for pol in POLARS:
        frames.update(pol.yes + pol.no + pol.no_cued + pol.yes_cued + pol.qs)
    frames.update(GENERIC_STATES + GENERIC_POS_STATES + GENERIC_CUED + GENERIC_QS)
    frames.update(p[0] for p in PREFIX_CUES)
    frames.update(s[0] for s in SUFFIX_CUES)
    frames.update(TASK_FRAMES + RESTATED_FRAMES + DONE_FRAMES + DROPPED_FRAMES + QUESTION_RESTATED)
    frames.update(ANSWER_WRAPPERS)
    return frames


def report(pairs: list[Pair]) -> None:
    by_frame = Counter((p.relation, p.frame) for p in pairs)
    for (relation, frame), n in sorted(by_frame.items()):
        print(f"{relation:14} {frame:18} {n}")
    subjects = {s for p in pairs for s in p.subjects if not s.startswith("task:")}
    attrs = {a for p in pairs for a in p.attrs if a != "task"}
    print("distinct subjects:", len(subjects), "| distinct attributes:", len(attrs))
    print("sentence frames:", len(frame_inventory()), "| hand-written pairs:", sum(p.hand for p in pairs))
    measured = [p for p in pairs if p.relation in ("supersedes", "duplicate") and p.reworded is not None]
    print(f"reworded supersedes/duplicate: {sum(bool(p.reworded) for p in measured) / len(measured):.0%}")
    for relation, frame in sorted({(p.relation, p.frame) for p in measured}):
        group = [p for p in measured if (p.relation, p.frame) == (relation, frame)]
        print(f"  reworded {relation}/{frame}: {sum(bool(p.reworded) for p in group) / len(group):.0%}")
    statements = [t for p in pairs for t in (p.a, p.b)]
    multi = sum(sentences(t) > 1 for t in statements)
    print(f"multi-sentence statements: {multi / len(statements):.0%}")


def main() -> None:
    rng = random.Random(SEED)
    pairs = generate(rng)
    check(pairs)
    rng.shuffle(pairs)
    with OUT.open("w", encoding="utf-8") as out:
        for n, pair in enumerate(pairs, start=1):
            row = {
                "id": f"{SOURCE}-{n:05d}",
                "a": pair.a,
                "b": pair.b,
                "relation": pair.relation,
                "kind_a": pair.kind_a,
                "kind_b": pair.kind_b,
                "source": SOURCE,
                "frame": pair.frame,
            }
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    report(pairs)
    print("wrote", OUT)


if __name__ == "__main__":
    main()

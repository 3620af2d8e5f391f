"""A synthetic agent's life: a store of undeclared memories about many subjects, with ground truth.

Deterministic (``random.Random(seed)``, standard library only) and written from its own
vocabulary and sentence frames, so that the store is independent of any judge's training data.

The store is composed the way an agent's memory fills up. First a **base layer**: facts about
subjects (people, services, customers, environments, plan tiers, tickets, orders, appointments,
pets, vehicles), several attributes per subject, with many subjects sharing an attribute and
often its value ("Hana's favorite cuisine is Peruvian" / "Zoe's favorite cuisine is
Peruvian"). Then **later writes**, interleaved:

- cued updates of a slot (same subject and attribute, new value, an update cue: "now", "moved
  to", "changed from X to Y", "no longer … instead", "as of <date>", "rescheduled to"…);
- uncued value changes (same slot, new value, nothing saying which is current);
- paraphrased restatements of a slot's current value (never verbatim: the dedup cascade
  would absorb those before hygiene sees them);
- facts of another subject in the frame just used, and other attributes of a subject just used;
- added-detail facts (the slot's current value plus a clause that adds information);
- loops: a ``task`` and later its outcome ("Done: …", "Dropped: …"), an ``open-question`` and
  later its answer;
- unrelated filler observations.

Subjects of work (services, customers, environments, tiers, tickets) are written into one
project, the rest into the personal scope; a subject never changes scope, so every pair the
ground truth expects hygiene to settle is within one scope, as hygiene compares.

Ground truth: every write has a **slot** (subject, attribute) and a value; a later write lists
the earlier writes it may legitimately retire (``retires``: the slot's live memories for a cued
update or a loop outcome, the live plain statements of the same value for a paraphrase), and
``pair_class`` classifies any (older, newer) pair, which ``EXPECTED_RELATION`` maps to the
relation a judge should give it.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace

PROJECT_SLUG = "northwind-ops"
DEFAULT_SEED = 20_240_611

# -- write categories -------------------------------------------------------------------------

BASE = "base"
CUED_UPDATE = "cued_update"
UNCUED_CHANGE = "uncued_change"
PARAPHRASE = "paraphrase"
OTHER_SUBJECT = "other_subject"  # a new slot: the frame just used, about another subject
OTHER_ATTRIBUTE = "other_attribute"  # a new slot: another attribute of the subject just used
ADDED_DETAIL = "added_detail"
TASK = "task"
QUESTION = "open_question"
LOOP_OUTCOME = "loop_outcome"  # a task done or dropped, an open question answered
FILLER = "filler"
CATEGORIES = (
    BASE,
    CUED_UPDATE,
    UNCUED_CHANGE,
    PARAPHRASE,
    OTHER_SUBJECT,
    OTHER_ATTRIBUTE,
    ADDED_DETAIL,
    TASK,
    QUESTION,
    LOOP_OUTCOME,
    FILLER,
)

# -- pair classes (ground truth of any older/newer pair) ------------------------------------------

DIFFERENT_SUBJECT = "different_subject"
DIFFERENT_ATTRIBUTE = "different_attribute"
PAIR_CUED_UPDATE = "cued_update"
PAIR_LOOP_OUTCOME = "loop_outcome"
PAIR_DUPLICATE = "duplicate"
PAIR_ADDED_DETAIL = "added_detail"  # the newer repeats the older's value and adds to it
PAIR_LOST_DETAIL = "lost_detail"  # the newer repeats the value but drops the older's detail
PAIR_UNCUED_CHANGE = "uncued_change"  # one slot, two values, nothing saying which is current
PAIR_CLASSES = (
    DIFFERENT_SUBJECT,
    DIFFERENT_ATTRIBUTE,
    PAIR_CUED_UPDATE,
    PAIR_LOOP_OUTCOME,
    PAIR_DUPLICATE,
    PAIR_ADDED_DETAIL,
    PAIR_LOST_DETAIL,
    PAIR_UNCUED_CHANGE,
)
# What a judge should say (SPEC R-H7, R-H8). Different subjects may as well be "complementary".
EXPECTED_RELATION = {
    DIFFERENT_SUBJECT: "unrelated",
    DIFFERENT_ATTRIBUTE: "complementary",
    PAIR_CUED_UPDATE: "supersedes",
    PAIR_LOOP_OUTCOME: "supersedes",
    PAIR_DUPLICATE: "duplicate",
    PAIR_ADDED_DETAIL: "complementary",
    PAIR_LOST_DETAIL: "complementary",
    PAIR_UNCUED_CHANGE: "contradicts",
}
ACCEPTABLE_RELATIONS = {
    **{name: frozenset({relation}) for name, relation in EXPECTED_RELATION.items()},
    DIFFERENT_SUBJECT: frozenset({"unrelated", "complementary"}),
}
# Pairs where the newer may retire the older.
LEGITIMATE_CLASSES = frozenset({PAIR_CUED_UPDATE, PAIR_LOOP_OUTCOME, PAIR_DUPLICATE})
# Wrongful retirements that take a still-true, distinguishable fact out of the live store. The
# other wrongful ones (an uncued change, an added detail) retire without evidence, but the
# newer memory still carries the slot's current value.
HARMFUL_CLASSES = frozenset({DIFFERENT_SUBJECT, DIFFERENT_ATTRIBUTE, PAIR_LOST_DETAIL})


@dataclass(frozen=True)
class Write:
    """One memory as the agent writes it, with its ground truth."""

    index: int
    content: str
    kind: str
    project: str | None  # None: the personal scope
    category: str
    subject: str
    attribute: str
    value: str
    # Earlier writes this one may legitimately retire (the ideal hygiene's retirements).
    retires: tuple[int, ...] = ()
    # The earlier write this one was composed against (its slot's latest memory, or the write
    # whose frame or subject it reuses), and the expected class of that pair.
    related: int | None = None
    related_class: str | None = None
    # The newer statement shows it is an update: an update cue, or a loop's outcome.
    evidence: bool = False

    @property
    def slot(self) -> tuple[str, str]:
        return (self.subject, self.attribute)


def pair_class(older: Write, newer: Write) -> str:  # noqa: PLR0911 - one return per class is the definition
    """The ground-truth class of the pair (older written first)."""
    if older.subject != newer.subject:
        return DIFFERENT_SUBJECT
    if older.attribute != newer.attribute:
        return DIFFERENT_ATTRIBUTE
    if newer.category == LOOP_OUTCOME:
        return PAIR_LOOP_OUTCOME
    if newer.evidence:
        return PAIR_CUED_UPDATE
    if older.value == newer.value:
        if newer.category == ADDED_DETAIL:
            return PAIR_ADDED_DETAIL
        if older.category == ADDED_DETAIL:
            return PAIR_LOST_DETAIL
        return PAIR_DUPLICATE
    return PAIR_UNCUED_CHANGE


def may_retire(older: Write, newer: Write) -> bool:
    """Whether ``newer`` is a legitimate successor of ``older``. Wider than ``newer.retires``
    (the ideal retirements): a cued update may also retire an older version that hygiene
    missed before, a paraphrase any live restatement of the same value."""
    return older.index < newer.index and pair_class(older, newer) in LEGITIMATE_CLASSES


@dataclass(frozen=True)
class Store:
    seed: int
    project: str
    writes: tuple[Write, ...]
    subjects: tuple[str, ...]  # the subjects of facts and loops (filler topics not counted)

    def summary(self) -> dict[str, object]:
        categories = Counter(write.category for write in self.writes)
        return {
            "writes": len(self.writes),
            "subjects": len(self.subjects),
            "slots": len({write.slot for write in self.writes if write.category != FILLER}),
            "project_writes": sum(1 for write in self.writes if write.project is not None),
            "personal_writes": sum(1 for write in self.writes if write.project is None),
            "categories": {name: categories[name] for name in CATEGORIES if categories[name]},
            "legitimate_retire_pairs": sum(len(write.retires) for write in self.writes),
        }


# -- the dedup cascade's normalisation (SPEC R-D1), so no write is a verbatim repeat -----------

_PUNCTUATION_OR_SPACE = re.compile(r"[\W_]+", re.UNICODE)


def normalized(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(part for part in _PUNCTUATION_OR_SPACE.split(folded) if part)


# -- vocabulary -----------------------------------------------------------------------------------
#
# Frames are written in mid-sentence form (a lowercase first word unless it is a name) so that
# they compose ("As of May 3, the billing service deploys on Fridays."); a standalone sentence
# gets its first letter capitalised. Placeholders: {s} the subject, {p} its possessive, {v} the
# value, {old} the previous value, {date} a date, {who} a colleague.

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")
DATES = tuple(f"{month} {day}" for month in MONTHS for day in (3, 9, 14, 21, 27))
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
COLLEAGUES = ("Ana", "Bruno", "Carla", "Dmitri", "Elena", "Farid", "Gina", "Hugo", "Ilse", "Joaquin")

GENERIC_DETAILS = (
    "according to {who}",
    "as {who} mentioned on {date}",
    "which came up in the {month} review",
    "per the notes from {date}",
    "as {who} confirmed by email",
)
# A plain statement of a slot's value, whatever the attribute ("{stmt}": one of its own frames).
GENERIC_PLAIN = ("{p} {name} is {v}.",)
GENERIC_PARAPHRASES = (
    "{p} {name} is {v}.",
    "{p} {name}: {v}.",
    "noted: {p} {name} is {v}.",
    "for the record, {stmt}",
    "reminder to self: {stmt}",
    "still true: {stmt}",
    "just to confirm, {stmt}",
    "{stmt_bare}, as before.",
    "the {name} of {s} is {v}.",
)
GENERIC_CUED = (
    "{p} {name} is now {v}.",
    "{p} {name} changed from {old} to {v}.",
    "{p} {name} is no longer {old}; it is {v} instead.",
    "{p} {name} switched from {old} to {v}.",
    "as of {date}, {stmt}",
    "update: {stmt}",
    "{p} {name} has been changed to {v}.",
    "{stmt_bare}; it used to be {old}.",
    "starting {date}, {stmt}",
    "{p} {name} was updated to {v}.",
    "correction: {p} {name} is {v} now, not {old}.",
)


@dataclass(frozen=True)
class Attribute:
    name: str  # also its noun phrase: "{p} {name} is {v}"
    values: tuple[str, ...]
    frames: tuple[str, ...]  # plain statements of the value
    cued: tuple[str, ...] = ()  # the attribute's own update frames (the generic ones apply too)
    details: tuple[str, ...] = ()
    kind: str = "fact"
    mutable: bool = True  # a birthday or an order's total does not get updates


@dataclass(frozen=True)
class SubjectType:
    name: str
    subjects: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    tasks: tuple[tuple[str, str], ...]  # (imperative, past tense), with {s}
    questions: tuple[tuple[str, str, tuple[str, ...]], ...]  # (question, answer with {a}, answers)
    in_project: bool


PHONES = tuple(f"+351 91{i % 10} {(137 * i + 211) % 900 + 100} {(59 * i + 433) % 900 + 100}" for i in range(40))

PERSON = SubjectType(
    name="person",
    subjects=(
        "Hana",
        "Zoe",
        "Priya",
        "Mateo",
        "Sofia",
        "Liam",
        "Amara",
        "Kenji",
        "Ines",
        "Omar",
        "Freya",
        "Tomas",
        "Yuki",
        "Nadia",
        "Emeka",
        "Lucia",
        "Arjun",
        "Maren",
        "Diego",
        "Sana",
        "Felix",
        "Chloe",
        "Ravi",
        "Elif",
        "Jonas",
        "Mei",
    ),
    attributes=(
        Attribute(
            "favorite cuisine",
            ("Peruvian", "Thai", "Ethiopian", "Georgian", "Korean", "Lebanese", "Vietnamese", "Sicilian"),
            (
                "{p} favorite cuisine is {v}.",
                "{s} likes {v} food best.",
                "the cuisine {s} enjoys most is {v}.",
                "when we pick a restaurant, {s} goes for {v} food.",
            ),
            cued=("{s} now prefers {v} food.", "these days {p} favorite cuisine is {v}, not {old}."),
            details=("especially the tasting menus", "ever since a trip there in {month}", "and spicy is fine"),
            kind="preference",
        ),
        Attribute(
            "home city",
            ("Lisbon", "Porto", "Valencia", "Leipzig", "Gdansk", "Tartu", "Ghent", "Lyon"),
            ("{s} lives in {v}.", "{p} home is in {v}.", "{s} is based in {v}."),
            cued=("{s} moved to {v}.", "{s} has moved from {old} to {v}.", "{s} now lives in {v}."),
            details=("in a flat near the river", "close to the main station", "with two flatmates"),
        ),
        Attribute(
            "employer",
            ("Brightline", "Kestrel Labs", "Halcyon", "Orbital Foods", "Tidewater", "Quillsoft", "Marlow & Finch"),
            ("{s} works at {v}.", "{p} employer is {v}.", "{s} is employed by {v}."),
            cued=("{s} left {old} and joined {v}.", "{s} now works at {v}.", "{s} changed jobs: {v} instead of {old}."),
            details=("on the data platform team", "mostly remote", "as a product designer"),
        ),
        Attribute(
            "phone number",
            PHONES,
            ("{p} phone number is {v}.", "you can reach {s} on {v}.", "{p} mobile is {v}."),
            cued=("{s} got a new phone number: {v}.", "{p} number changed to {v}."),
            details=("best after 18:00", "also on Signal"),
        ),
        Attribute(
            "diet",
            ("vegetarian", "vegan", "pescatarian", "gluten-free", "lactose-free"),
            ("{s} is {v}.", "{s} follows a {v} diet.", "for {s}, meals have to be {v}."),
            cued=("{s} switched to a {v} diet.", "{s} is no longer {old}, now {v}."),
            details=("so the team lunch needs a separate order", "and does not eat mushrooms either"),
        ),
        Attribute(
            "birthday",
            DATES,
            ("{p} birthday is on {v}.", "{s} was born on {v}.", "{s} celebrates their birthday on {v}."),
            details=("and likes a small dinner rather than a party", "usually spent hiking"),
            mutable=False,
        ),
        Attribute(
            "preferred contact channel",
            ("email", "Signal", "a phone call", "WhatsApp", "Slack"),
            ("{s} prefers to be contacted by {v}.", "the best way to reach {s} is {v}."),
            cued=("{s} now prefers {v} over {old}.",),
            details=("never before 9:00", "with a short summary first"),
            kind="preference",
        ),
        Attribute(
            "coffee order",
            ("a flat white", "an oat latte", "a double espresso", "a cortado", "black filter coffee", "a chai latte"),
            ("{p} coffee order is {v}.", "{s} always orders {v}.", "when we get coffee, {s} has {v}."),
            cued=("{s} has switched from {old} to {v}.",),
            details=("with no sugar", "extra hot"),
            kind="preference",
        ),
    ),
    tasks=(
        ("call {s} about the weekend plans", "called {s} about the weekend plans"),
        ("send {s} the photos from the trip", "sent {s} the photos from the trip"),
        ("buy a birthday present for {s}", "bought a birthday present for {s}"),
        ("return the book {s} lent me", "returned the book {s} lent me"),
        ("invite {s} to the housewarming", "invited {s} to the housewarming"),
    ),
    questions=(
        ("when does {s} arrive for the visit", "{s} arrives for the visit on {a}", DATES[10:30]),
        ("what shoe size does {s} wear", "{s} wears shoe size {a}", ("37", "38", "39", "41", "43", "44")),
        ("which hotel is {s} staying at", "{s} is staying at {a}", ("the Almada Inn", "Hotel Sol", "the Pier House")),
    ),
    in_project=False,
)

SERVICE = SubjectType(
    name="service",
    subjects=tuple(
        f"the {name} service"
        for name in (
            "billing",
            "search",
            "auth",
            "payments",
            "ingest",
            "reporting",
            "notifications",
            "gateway",
            "scheduler",
            "checkout",
            "inventory",
            "analytics",
            "media",
            "export",
        )
    ),
    attributes=(
        Attribute(
            "deploy day",
            WEEKDAYS,
            ("{s} deploys on {v}s.", "deploys of {s} happen on {v}s.", "{s} ships to production every {v}."),
            cued=("{s} now deploys on {v}s.", "deploys of {s} moved from {old}s to {v}s."),
            details=("after the 10:00 stand-up", "behind a feature flag", "with {who} watching the dashboards"),
            kind="decision",
        ),
        Attribute(
            "on-call engineer",
            COLLEAGUES,
            ("{v} is on call for {s}.", "the on-call engineer for {s} is {v}.", "{s} pages {v} when it breaks."),
            cued=("{v} took over on-call for {s} from {old}.", "{v} is now on call for {s}."),
            details=("this rotation", "with {who} as the backup"),
        ),
        Attribute(
            "database",
            ("PostgreSQL 15", "PostgreSQL 16", "PostgreSQL 17", "MySQL 8", "CockroachDB"),
            ("{s} stores its data in {v}.", "{s} runs on {v}.", "the database behind {s} is {v}."),
            cued=("{s} was migrated from {old} to {v}.", "{s} now runs on {v}."),
            details=("on a dedicated host", "with nightly backups"),
        ),
        Attribute(
            "rate limit",
            tuple(f"{n} requests per minute" for n in (100, 200, 300, 500, 600, 1000, 1200)),
            ("{s} allows {v}.", "the rate limit of {s} is {v}.", "{s} is rate-limited at {v}."),
            cued=("the rate limit of {s} was changed to {v}.", "{s} now allows {v}."),
            details=("per API key", "with bursts of twice that"),
        ),
        Attribute(
            "region",
            ("eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-southeast-1"),
            ("{s} runs in {v}.", "{s} is hosted in the {v} region."),
            cued=("{s} was moved to {v}.", "{s} migrated from {old} to {v}."),
            details=("across three availability zones", "with a warm standby elsewhere"),
        ),
        Attribute(
            "log retention",
            ("7 days", "14 days", "30 days", "90 days"),
            ("{s} keeps its logs for {v}.", "log retention for {s} is {v}."),
            details=("because of the audit requirements", "then they go to cold storage"),
            kind="decision",
        ),
        Attribute(
            "language",
            ("Go", "Python", "Rust", "Kotlin", "TypeScript"),
            ("{s} is written in {v}.", "the codebase of {s} is {v}."),
            cued=("{s} was rewritten from {old} to {v}.",),
            details=("with a thin C extension", "and has good test coverage"),
        ),
    ),
    tasks=(
        ("rotate the API keys of {s}", "rotated the API keys of {s}"),
        ("write a runbook for {s}", "wrote a runbook for {s}"),
        ("add alerting on the error rate of {s}", "added alerting on the error rate of {s}"),
        ("upgrade the dependencies of {s}", "upgraded the dependencies of {s}"),
    ),
    questions=(
        ("which team reviews schema changes for {s}", "schema changes for {s} are reviewed by {a}", COLLEAGUES),
        (
            "what is the error budget of {s} this quarter",
            "the error budget of {s} this quarter is {a}",
            ("0.1%", "0.5%", "1%"),
        ),
    ),
    in_project=True,
)

PLANS = ("Free", "Starter", "Pro", "Team", "Enterprise")
CUSTOMER = SubjectType(
    name="customer",
    subjects=(
        "Acme Foods",
        "Bluefin Logistics",
        "Cedar Health",
        "Dunmore Bank",
        "Evergreen Schools",
        "Fjord Energy",
        "Granite Insurance",
        "Harbor Media",
        "Ironwood Retail",
        "Juniper Travel",
        "Keystone Legal",
        "Lumen Studios",
    ),
    attributes=(
        Attribute(
            "plan",
            PLANS,
            ("{s} is on the {v} plan.", "{p} subscription is the {v} plan.", "{s} pays for the {v} plan."),
            cued=("{s} moved from the {old} plan to the {v} plan.", "{s} is now on the {v} plan."),
            details=("billed annually", "with a 10% discount until {month}"),
        ),
        Attribute(
            "account manager",
            COLLEAGUES,
            ("{v} manages the {s} account.", "the account manager for {s} is {v}.", "{s} is handled by {v}."),
            cued=("{v} took over the {s} account from {old}.",),
            details=("with {who} covering holidays", "and meets them monthly"),
        ),
        Attribute(
            "renewal month",
            MONTHS,
            ("{p} contract renews in {v}.", "the {s} renewal is due in {v}."),
            cued=("{p} renewal was moved to {v}.",),
            details=("for two years at a time", "and needs legal review first"),
        ),
        Attribute(
            "seat count",
            ("40", "75", "120", "250", "400"),
            ("{s} has {v} seats.", "{s} is licensed for {v} seats."),
            cued=("{s} went from {old} to {v} seats.", "{s} now has {v} seats."),
            details=("most of them in the sales team", "plus five admin accounts"),
        ),
        Attribute(
            "support level",
            ("standard support", "priority support", "premium support"),
            ("{s} gets {v}.", "{s} is entitled to {v}."),
            details=("through the shared channel", "per the master agreement"),
        ),
        Attribute(
            "time zone",
            ("CET", "EST", "PST", "JST", "GMT"),
            ("{s} works in {v}.", "meetings with {s} are scheduled in {v}."),
            details=("so calls are best in the morning", "and they observe daylight saving"),
        ),
    ),
    tasks=(
        ("send {s} the renewal quote", "sent {s} the renewal quote"),
        ("schedule a quarterly review with {s}", "scheduled a quarterly review with {s}"),
        ("fix the invoice address for {s}", "fixed the invoice address for {s}"),
    ),
    questions=(
        ("who signs the contract at {s}", "the contract at {s} is signed by {a}", ("their CFO", "their COO", "legal")),
        ("which SSO provider does {s} use", "{s} uses {a} for single sign-on", ("Okta", "Entra ID", "Google")),
    ),
    in_project=True,
)

ENVIRONMENT = SubjectType(
    name="environment",
    subjects=tuple(f"the {name} environment" for name in ("staging", "production", "dev", "qa", "sandbox", "perf")),
    attributes=(
        Attribute(
            "Kubernetes version",
            ("Kubernetes 1.28", "Kubernetes 1.29", "Kubernetes 1.30", "Kubernetes 1.31"),
            ("{s} runs {v}.", "the cluster of {s} is on {v}."),
            cued=("{s} was upgraded from {old} to {v}.", "{s} now runs {v}."),
            details=("on managed node pools", "with the autoscaler on"),
        ),
        Attribute(
            "URL",
            ("app.northwind.test", "northwind.internal", "nw-cloud.example", "apps.nw.example", "portal.nw.test"),
            ("{s} is reachable at {v}.", "the URL of {s} is {v}."),
            cued=("{s} moved to {v}.",),
            details=("behind the VPN", "with basic auth for outsiders"),
        ),
        Attribute(
            "node count",
            ("3", "5", "8", "12", "20"),
            ("{s} runs on {v} nodes.", "the cluster of {s} has {v} nodes."),
            cued=("{s} was scaled from {old} to {v} nodes.", "{s} now has {v} nodes."),
            details=("all of them spot instances", "split over two zones"),
        ),
        Attribute(
            "deploy approver",
            COLLEAGUES,
            ("deploys to {s} need approval from {v}.", "{v} approves deploys to {s}."),
            cued=("{v} now approves deploys to {s} instead of {old}.",),
            details=("in the release channel", "unless it is a hotfix"),
            kind="decision",
        ),
        Attribute(
            "database host",
            ("db-a1", "db-b2", "db-c3", "db-d4", "db-e5"),
            ("{s} uses the database host {v}.", "the database of {s} lives on {v}."),
            cued=("{s} was pointed from {old} to {v}.",),
            details=("over a private link", "with a read replica"),
        ),
    ),
    tasks=(
        ("rotate the TLS certificate of {s}", "rotated the TLS certificate of {s}"),
        ("clean up the unused volumes in {s}", "cleaned up the unused volumes in {s}"),
    ),
    questions=(
        ("who can approve database migrations in {s}", "{a} can approve database migrations in {s}", COLLEAGUES),
    ),
    in_project=True,
)

TIER = SubjectType(
    name="tier",
    subjects=tuple(f"the {name} tier" for name in PLANS),
    attributes=(
        Attribute(
            "monthly price",
            ("$0", "$9", "$19", "$49", "$99", "$299"),
            ("{s} costs {v} a month.", "the price of {s} is {v} per month."),
            cued=("the price of {s} went from {old} to {v} a month.", "{s} now costs {v} a month."),
            details=("per seat", "before tax"),
        ),
        Attribute(
            "storage quota",
            ("5 GB", "50 GB", "200 GB", "500 GB", "2 TB"),
            ("{s} includes {v} of storage.", "the storage quota of {s} is {v}."),
            cued=("{s} now includes {v} of storage.",),
            details=("shared by the whole workspace", "with overage billed monthly"),
        ),
        Attribute(
            "daily API limit",
            ("1,000 calls", "10,000 calls", "50,000 calls", "250,000 calls"),
            ("{s} allows {v} to the API a day.", "the daily API limit of {s} is {v}."),
            cued=("the daily API limit of {s} was raised to {v}.",),
            details=("reset at midnight UTC", "counted per workspace"),
        ),
        Attribute(
            "support response time",
            ("48 hours", "24 hours", "8 hours", "4 hours", "1 hour"),
            ("support tickets on {s} get a first reply within {v}.", "{s} promises a support response within {v}."),
            cued=("support on {s} now answers within {v}.",),
            details=("on business days", "around the clock"),
        ),
        Attribute(
            "single sign-on option",
            ("included", "a paid add-on", "not available"),
            ("single sign-on on {s} is {v}.", "on {s}, SSO is {v}."),
            details=("with SAML and OIDC", "since the {month} release"),
            kind="decision",
        ),
    ),
    tasks=(
        ("update the pricing page for {s}", "updated the pricing page for {s}"),
        ("write the FAQ entry for {s}", "wrote the FAQ entry for {s}"),
    ),
    questions=(("is there an annual discount on {s}", "{s} has an annual discount of {a}", ("10%", "15%", "20%")),),
    in_project=True,
)

TICKET = SubjectType(
    name="ticket",
    subjects=tuple(
        f"ticket {code}"
        for code in (
            "OPS-4417",
            "OPS-4502",
            "ENG-2290",
            "ENG-2318",
            "ENG-2371",
            "SUP-1183",
            "SUP-1207",
            "SUP-1260",
            "SEC-0091",
            "SEC-0104",
            "DATA-733",
            "DATA-768",
        )
    ),
    attributes=(
        Attribute(
            "status",
            ("open", "in progress", "blocked", "in review", "resolved"),
            ("{s} is {v}.", "the status of {s} is {v}.", "{s} is marked as {v}."),
            cued=("{s} moved from {old} to {v}.", "{s} is now {v}."),
            details=("waiting on the vendor", "with a fix on a branch"),
        ),
        Attribute(
            "assignee",
            COLLEAGUES,
            ("{s} is assigned to {v}.", "{v} owns {s}.", "the assignee of {s} is {v}."),
            cued=("{s} was reassigned from {old} to {v}.",),
            details=("pairing with {who}", "until the end of the sprint"),
        ),
        Attribute(
            "priority",
            ("P1", "P2", "P3", "P4"),
            ("{s} is a {v}.", "{s} has priority {v}."),
            cued=("{s} was changed from {old} to {v}.", "{s} is now a {v}."),
            details=("because a customer is affected", "per the triage on {date}"),
        ),
        Attribute(
            "due date",
            DATES,
            ("{s} is due on {v}.", "the deadline for {s} is {v}."),
            cued=("{s} was postponed to {v}.", "the deadline for {s} moved to {v}."),
            details=("agreed with the customer", "before the release freeze"),
        ),
        Attribute(
            "component",
            ("the billing service", "the search service", "the gateway", "the mobile app", "the data pipeline"),
            ("{s} is about {v}.", "{s} affects {v}."),
            details=("only in production", "since the last release"),
        ),
    ),
    tasks=(
        ("reproduce {s} locally", "reproduced {s} locally"),
        ("write a regression test for {s}", "wrote a regression test for {s}"),
        ("post a status update on {s}", "posted a status update on {s}"),
    ),
    questions=(
        (
            "what is the root cause of {s}",
            "the root cause of {s} is {a}",
            ("an expired certificate", "a race in the cache layer", "a bad config push", "a full disk"),
        ),
    ),
    in_project=True,
)

ORDER = SubjectType(
    name="order",
    subjects=tuple(
        f"order {number}" for number in ("88213", "88290", "90114", "90172", "91305", "91377", "92410", "93021")
    ),
    attributes=(
        Attribute(
            "status",
            ("placed", "shipped", "out for delivery", "delivered", "returned"),
            ("the status of {s} is {v}.", "{s} is marked as {v}."),
            cued=("{s} went from {old} to {v}.", "{s} is now {v}."),
            details=("according to the tracking page", "per the shop's email"),
        ),
        Attribute(
            "carrier",
            ("DHL", "UPS", "FedEx", "PostNL", "DPD"),
            ("{s} ships with {v}.", "{v} is delivering {s}.", "the carrier for {s} is {v}."),
            cued=("{s} was handed over from {old} to {v}.",),
            details=("with a signature required", "tracked by SMS"),
        ),
        Attribute(
            "delivery date",
            DATES,
            ("{s} should arrive on {v}.", "expected delivery for {s} is {v}."),
            cued=("delivery of {s} was rescheduled to {v}.", "{s} was pushed back to {v}."),
            details=("between 9:00 and 13:00", "if the weather allows"),
        ),
        Attribute(
            "total",
            ("€24.90", "€42.50", "€67.00", "€118.40", "€239.99"),
            ("{s} cost {v}.", "the total of {s} was {v}."),
            details=("including shipping", "paid by card"),
            mutable=False,
        ),
        Attribute(
            "delivery address",
            ("the home address", "the office", "the parcel locker at the station", "my parents' place"),
            ("{s} is being shipped to {v}.", "{s} goes to {v}."),
            cued=("{s} was redirected to {v}.",),
            details=("with the door code in the notes", "to the attention of reception"),
        ),
    ),
    tasks=(
        ("print the return label for {s}", "printed the return label for {s}"),
        ("ask the shop about {s}", "asked the shop about {s}"),
    ),
    questions=(("which locker will {s} go to", "{s} goes to locker {a}", ("12", "27", "31", "45")),),
    in_project=False,
)

APPOINTMENT = SubjectType(
    name="appointment",
    subjects=(
        "the dentist appointment",
        "the physio appointment",
        "the haircut",
        "the eye exam",
        "the passport appointment",
        "the tax advisor meeting",
        "the parent-teacher meeting",
        "the bank meeting",
        "the vaccination appointment",
        "the landlord viewing",
    ),
    attributes=(
        Attribute(
            "time",
            tuple(f"{day} at {hour}" for day in WEEKDAYS for hour in ("9:00", "10:30", "14:00", "16:15")),
            ("{s} is on {v}.", "{s} is scheduled for {v}.", "I have {s} on {v}."),
            cued=("{s} was rescheduled to {v}.", "{s} moved from {old} to {v}."),
            details=("and takes about an hour", "so I leave work early"),
        ),
        Attribute(
            "location",
            ("the clinic on Elm Street", "the Riverside center", "the downtown office", "the town hall", "Main Square"),
            ("{s} is at {v}.", "{s} takes place at {v}."),
            cued=("{s} moved to {v}.",),
            details=("on the second floor", "next to the pharmacy"),
        ),
        Attribute(
            "practitioner",
            ("Dr. Okafor", "Dr. Lindqvist", "Ms. Haddad", "Mr. Novak", "Dr. Moreau"),
            ("{s} is with {v}.", "I see {v} for {s}."),
            cued=("{s} is now with {v} instead of {old}.",),
            details=("who speaks English", "who was recommended by {who}"),
        ),
    ),
    tasks=(
        ("confirm {s}", "confirmed {s}"),
        ("bring the paperwork to {s}", "brought the paperwork to {s}"),
    ),
    questions=(
        (
            "do I need to bring anything to {s}",
            "for {s} I need to bring {a}",
            ("my ID card", "the referral letter", "the insurance card"),
        ),
    ),
    in_project=False,
)

PET = SubjectType(
    name="pet",
    subjects=("Biscuit", "Mochi", "Pepper", "Juniper", "Olive", "Rocket", "Toffee"),
    attributes=(
        Attribute(
            "food",
            ("salmon kibble", "grain-free chicken", "wet food", "lamb and rice", "raw food"),
            ("{s} eats {v}.", "{p} food is {v}."),
            cued=("{s} switched from {old} to {v}.", "{s} now eats {v}."),
            details=("twice a day", "from the pet shop on the corner"),
        ),
        Attribute(
            "vet",
            ("Dr. Lee", "the Northside animal clinic", "Dr. Brandt", "the Oakwood vets"),
            ("{p} vet is {v}.", "{s} sees {v} for checkups."),
            cued=("{s} now sees {v} instead of {old}.",),
            details=("who is good with nervous animals", "open on Saturdays"),
        ),
        Attribute(
            "weight",
            ("3.8 kg", "4.2 kg", "5.1 kg", "9 kg", "12 kg", "23 kg"),
            ("{s} weighs {v}.", "{p} weight is {v}."),
            cued=("{s} now weighs {v}.", "{s} went from {old} to {v}."),
            details=("at the last checkup", "which the vet is happy with"),
        ),
        Attribute(
            "medication",
            ("joint supplements", "allergy tablets", "ear drops", "a flea treatment"),
            ("{s} takes {v}.", "{p} medication is {v}."),
            cued=("{s} stopped {old} and takes {v} instead.",),
            details=("with the evening meal", "every four weeks"),
        ),
        Attribute(
            "sitter",
            ("Aunt Rosa", "the neighbor's kid", "Pawsome Walkers", "Ilse from upstairs"),
            ("{p} sitter is {v}.", "when I travel, {v} looks after {s}."),
            cued=("{v} looks after {s} now instead of {old}.",),
            details=("who has a key", "paid per visit"),
        ),
    ),
    tasks=(
        ("buy more food for {s}", "bought more food for {s}"),
        ("book the yearly checkup for {s}", "booked the yearly checkup for {s}"),
        ("trim {p} claws", "trimmed {p} claws"),
    ),
    questions=(
        ("which groomer does {s} like", "{s} likes the groomer at {a}", ("Fluff & Co", "the mall", "Main Street")),
    ),
    in_project=False,
)

VEHICLE = SubjectType(
    name="vehicle",
    subjects=("the blue Corolla", "the grey van", "the red Fiesta", "the old Volvo", "the cargo bike", "the camper"),
    attributes=(
        Attribute(
            "parking spot",
            ("on Mill Street", "in the office garage", "behind the bakery", "at the station car park", "in spot 14"),
            ("{s} is parked {v}.", "I left {s} {v}."),
            cued=("{s} is now parked {v}.",),
            details=("with a resident permit", "near the charging point"),
        ),
        Attribute(
            "insurer",
            ("Allianz", "Aviva", "Zurich", "Mapfre", "a local broker"),
            ("{s} is insured with {v}.", "the insurance of {s} is with {v}."),
            cued=("{s} switched its insurance from {old} to {v}.",),
            details=("fully comprehensive", "with a €300 excess"),
        ),
        Attribute(
            "next service",
            tuple(f"in {month}" for month in MONTHS),
            ("{s} is due for a service {v}.", "the next service of {s} is {v}."),
            cued=("the service of {s} was moved to {v}.",),
            details=("at the garage on Station Road", "including the brakes"),
        ),
        Attribute(
            "mileage",
            ("12,400 km", "38,900 km", "84,000 km", "121,500 km", "156,200 km"),
            ("{s} has {v} on the clock.", "the odometer of {s} reads {v}."),
            cued=("{s} now has {v} on the clock.",),
            details=("mostly motorway", "after the summer trip"),
        ),
        Attribute(
            "tire set",
            ("winter tires", "summer tires", "all-season tires"),
            ("{s} has {v} on.", "{s} runs on {v}."),
            cued=("{s} was switched from {old} to {v}.",),
            details=("bought last year", "with plenty of tread left"),
        ),
    ),
    tasks=(
        ("renew the insurance of {s}", "renewed the insurance of {s}"),
        ("get {s} washed", "got {s} washed"),
        ("check the tire pressure of {s}", "checked the tire pressure of {s}"),
    ),
    questions=(("what oil does {s} take", "{s} takes {a} oil", ("5W-30", "0W-20", "10W-40")),),
    in_project=False,
)

SUBJECT_TYPES = (PERSON, SERVICE, CUSTOMER, ENVIRONMENT, TIER, TICKET, ORDER, APPOINTMENT, PET, VEHICLE)

TASK_FRAMES = ("TODO: {imp}.", "task: {imp}.", "need to {imp}.", "remember to {imp}.")
DONE_FRAMES = ("done: {past}.", "{past}; that task is finished.", "completed the task to {imp}.", "{past} today.")
DROPPED_FRAMES = ("dropped: no longer need to {imp}.", "cancelled the task to {imp}; not needed anymore.")
QUESTION_FRAMES = ("open question: {q}?", "question: {q}?", "not sure yet: {q}?")
ANSWER_FRAMES = ("answered: {ans}.", "answer to the open question: {ans}.", "{ans}.", "found out that {ans}.")

FILLER_TOPICS = (
    "coffee machine on the third floor",
    "printer by the kitchen",
    "lift in building B",
    "bakery on the corner",
    "train to the airport",
    "bike lane on Harbour Road",
    "gym near the office",
    "meeting room Atlas",
    "library in the old town",
    "weekly team newsletter",
    "office plant in the lobby",
    "farmers market",
    "canteen",
    "night bus",
    "new podcast about urban design",
    "shared calendar",
    "building's heating",
    "corner shop",
    "ferry to the island",
    "photo club",
)
FILLER_OBSERVATIONS = (
    "makes a rattling noise in the morning",
    "was out of order on Tuesday",
    "is busier than usual this week",
    "got a fresh coat of paint",
    "has a sign saying it will be replaced soon",
    "was recommended by a neighbour",
    "seems quieter after the holidays",
    "had a queue out the door at noon",
    "is closed for a private event on Friday",
    "started accepting contactless payments",
    "was mentioned in the local paper",
    "is worth a visit on a rainy day",
    "changed its opening hours for the summer",
    "is where I lost my umbrella",
)


# -- the generator --------------------------------------------------------------------------------


@dataclass
class _Slot:
    stype: SubjectType
    attribute: Attribute
    subject: str
    value: str
    live: list[int]  # the ideal store's live memories of the slot
    frame: int  # index of the plain frame last used for it


@dataclass
class _Loop:
    due: int  # when (in writes) its outcome comes; never if -1
    opened: int  # the task or question write
    subject: str
    attribute: str
    project: str | None
    imperative: str = ""
    past: str = ""
    answer: str = ""  # set for questions


# Weights of the later writes (loop outcomes come on their own, when due).
LATER_WEIGHTS = {
    CUED_UPDATE: 20,
    UNCUED_CHANGE: 8,
    PARAPHRASE: 14,
    OTHER_SUBJECT: 8,
    OTHER_ATTRIBUTE: 7,
    ADDED_DETAIL: 8,
    TASK: 6,
    QUESTION: 5,
    FILLER: 10,
}
BASE_SHARE = 0.2  # of the store's size, at most: the rest of the attributes are set later
ATTEMPTS_PER_TEXT = 12  # frames tried before a step gives up on saying something new


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def possessive(subject: str) -> str:
    # "Jonas's", but "Bluefin Logistics'": a plural company name takes the bare apostrophe.
    return subject + ("'" if subject.endswith("s") and " " in subject else "'s")


@dataclass
class _Generator:
    rng: random.Random
    size: int
    writes: list[Write] = field(default_factory=list)
    texts: set[str] = field(default_factory=set)
    slots: dict[tuple[str, str], _Slot] = field(default_factory=dict)
    unset: dict[str, list[Attribute]] = field(default_factory=dict)
    stype_of: dict[str, SubjectType] = field(default_factory=dict)
    loops: list[_Loop] = field(default_factory=list)
    used_loops: set[tuple[str, str]] = field(default_factory=set)
    used_fillers: set[tuple[str, str]] = field(default_factory=set)
    frame_of: dict[int, int] = field(default_factory=dict)  # write → plain frame used, if any

    # -- rendering --------------------------------------------------------------------------

    def _fill(self, frame: str, **values: str) -> str:
        rng = self.rng
        defaults = {
            "date": rng.choice(DATES),
            "month": rng.choice(MONTHS),
            "who": rng.choice(COLLEAGUES),
        }
        return frame.format(**{**defaults, **values})

    def _statement(self, slot: _Slot, value: str, frame: int) -> str:
        """A plain statement of ``value`` in the slot's attribute frame ``frame`` (mid-sentence form)."""
        return self._fill(slot.attribute.frames[frame], s=slot.subject, p=possessive(slot.subject), v=value)

    def _compose(self, template: str, slot: _Slot, value: str, old: str = "", frame: int | None = None) -> str:
        statement = self._statement(
            slot, value, self.rng.randrange(len(slot.attribute.frames)) if frame is None else frame
        )
        return self._fill(
            template,
            s=slot.subject,
            p=possessive(slot.subject),
            name=slot.attribute.name,
            v=value,
            old=old,
            stmt=statement,
            stmt_bare=statement.rstrip("."),
        )

    def _emit(
        self,
        content: str,
        *,
        kind: str,
        project: str | None,
        category: str,
        subject: str,
        attribute: str,
        value: str,
        retires: tuple[int, ...] = (),
        related: int | None = None,
        evidence: bool = False,
    ) -> int | None:
        """Append a write unless its text repeats an earlier one after normalisation."""
        content = _cap(content.strip())
        key = normalized(content)
        if key in self.texts:
            return None
        self.texts.add(key)
        index = len(self.writes)
        write = Write(
            index, content, kind, project, category, subject, attribute, value, retires, related, None, evidence
        )
        if related is not None:
            # Classified by the same rule as any pair, so the recorded class cannot disagree with it.
            write = replace(write, related_class=pair_class(self.writes[related], write))
        self.writes.append(write)
        return index

    def _first_new(self, candidates: list[str]) -> str | None:
        for text in candidates:
            if normalized(_cap(text.strip())) not in self.texts:
                return text
        return None

    # -- slots --------------------------------------------------------------------------------

    def _project(self, stype: SubjectType) -> str | None:
        return PROJECT_SLUG if stype.in_project else None

    def _set_fact(
        self,
        *,
        stype: SubjectType,
        subject: str,
        attribute: Attribute,
        value: str,
        category: str,
        frame: int | None = None,
        related: int | None = None,
    ) -> int | None:
        """A first statement of a new slot."""
        frames = list(range(len(attribute.frames)))
        self.rng.shuffle(frames)
        if frame is not None:
            frames.remove(frame)
            frames.insert(0, frame)
        slot = _Slot(stype, attribute, subject, value, live=[], frame=frames[0])
        for choice in frames:
            text = self._statement(slot, value, choice)
            if normalized(_cap(text)) in self.texts:
                continue
            index = self._emit(
                text,
                kind=attribute.kind,
                project=self._project(stype),
                category=category,
                subject=subject,
                attribute=attribute.name,
                value=value,
                related=related,
            )
            if index is None:
                continue
            slot.frame = choice
            slot.live = [index]
            self.slots[(subject, attribute.name)] = slot
            self.unset[subject].remove(attribute)
            self.frame_of[index] = choice
            return index
        return None

    def _fact_slots(self, *, mutable: bool = False) -> list[_Slot]:
        return [slot for slot in self.slots.values() if not mutable or slot.attribute.mutable]

    def _other_value(self, slot: _Slot) -> str:
        return self.rng.choice([value for value in slot.attribute.values if value != slot.value])

    def _latest_plain(self, slot: _Slot) -> int:
        plain = [index for index in slot.live if self.writes[index].category != ADDED_DETAIL]
        return (plain or slot.live)[-1]

    # -- the base layer ---------------------------------------------------------------------------

    def base_layer(self) -> None:
        facts: list[tuple[SubjectType, str, Attribute]] = []
        for stype in SUBJECT_TYPES:
            for subject in stype.subjects:
                self.stype_of[subject] = stype
                self.unset[subject] = list(stype.attributes)
                count = max(2, round(len(stype.attributes) * self.rng.uniform(0.45, 0.7)))
                for attribute in self.rng.sample(list(stype.attributes), count):
                    facts.append((stype, subject, attribute))
        self.rng.shuffle(facts)
        limit = min(len(facts), int(self.size * BASE_SHARE))
        for stype, subject, attribute in facts[:limit]:
            # Few values per attribute, so many subjects share one ("… favorite cuisine is Peruvian").
            value = self.rng.choice(attribute.values[: max(3, len(attribute.values) - 2)])
            self._set_fact(stype=stype, subject=subject, attribute=attribute, value=value, category=BASE)

    # -- later writes -------------------------------------------------------------------------------

    def cued_update(self) -> bool:
        slots = self._fact_slots(mutable=True)
        if not slots:
            return False
        slot = self.rng.choice(slots)
        value, old = self._other_value(slot), slot.value
        templates = [*slot.attribute.cued, *GENERIC_CUED]
        self.rng.shuffle(templates)
        text = self._first_new([self._compose(template, slot, value, old) for template in templates])
        if text is None:
            return False
        related = self._latest_plain(slot)
        index = self._emit(
            text,
            kind=slot.attribute.kind,
            project=self._project(slot.stype),
            category=CUED_UPDATE,
            subject=slot.subject,
            attribute=slot.attribute.name,
            value=value,
            retires=tuple(slot.live),
            related=related,
            evidence=True,
        )
        if index is None:
            return False
        slot.value, slot.live = value, [index]
        return True

    def uncued_change(self) -> bool:
        slots = self._fact_slots(mutable=True)
        if not slots:
            return False
        slot = self.rng.choice(slots)
        value = self._other_value(slot)
        frames = list(range(len(slot.attribute.frames)))
        self.rng.shuffle(frames)
        if self.rng.random() < 0.6:
            # The frame last used: the most similar embedding, the hardest pair to tell apart.
            frames.remove(slot.frame)
            frames.insert(0, slot.frame)
        candidates = [(self._statement(slot, value, frame), frame) for frame in frames]
        candidates += [(self._compose(template, slot, value), -1) for template in GENERIC_PLAIN]
        for text, frame in candidates:
            related = self._latest_plain(slot)
            index = self._emit(
                text,
                kind=slot.attribute.kind,
                project=self._project(slot.stype),
                category=UNCUED_CHANGE,
                subject=slot.subject,
                attribute=slot.attribute.name,
                value=value,
                related=related,
            )
            if index is not None:
                slot.value = value
                slot.live.append(index)
                if frame >= 0:
                    slot.frame = frame
                    self.frame_of[index] = frame
                return True
        return False

    def paraphrase(self) -> bool:
        slots = self._fact_slots()
        if not slots:
            return False
        slot = self.rng.choice(slots)
        templates = list(GENERIC_PARAPHRASES)
        self.rng.shuffle(templates)
        frames = [frame for frame in range(len(slot.attribute.frames)) if frame != slot.frame]
        self.rng.shuffle(frames)
        candidates = [self._statement(slot, slot.value, frame) for frame in frames[:2]]
        candidates += [self._compose(template, slot, slot.value) for template in templates]
        text = self._first_new(candidates[:ATTEMPTS_PER_TEXT])
        if text is None:
            return False
        retires = tuple(
            index
            for index in slot.live
            if self.writes[index].value == slot.value and self.writes[index].category != ADDED_DETAIL
        )
        related = retires[-1] if retires else self._latest_plain(slot)
        index = self._emit(
            text,
            kind=slot.attribute.kind,
            project=self._project(slot.stype),
            category=PARAPHRASE,
            subject=slot.subject,
            attribute=slot.attribute.name,
            value=slot.value,
            retires=retires,
            related=related,
        )
        if index is None:
            return False
        slot.live = [live for live in slot.live if live not in retires] + [index]
        return True

    def added_detail(self) -> bool:
        slots = self._fact_slots()
        if not slots:
            return False
        slot = self.rng.choice(slots)
        details = [*slot.attribute.details, *GENERIC_DETAILS]
        self.rng.shuffle(details)
        candidates = [
            self._statement(slot, slot.value, self.rng.randrange(len(slot.attribute.frames))).rstrip(".")
            + ", "
            + self._fill(detail, s=slot.subject, p=possessive(slot.subject))
            + "."
            for detail in details[:ATTEMPTS_PER_TEXT]
        ]
        text = self._first_new(candidates)
        if text is None:
            return False
        related = self._latest_plain(slot)
        index = self._emit(
            text,
            kind=slot.attribute.kind,
            project=self._project(slot.stype),
            category=ADDED_DETAIL,
            subject=slot.subject,
            attribute=slot.attribute.name,
            value=slot.value,
            related=related,
        )
        if index is None:
            return False
        slot.live.append(index)
        return True

    def _recent_fact(self) -> Write | None:
        recent = [
            write
            for write in self.writes[-30:]
            if write.slot in self.slots and write.category not in {TASK, QUESTION, LOOP_OUTCOME, FILLER}
        ]
        return self.rng.choice(recent) if recent else None

    def other_subject(self) -> bool:
        """The frame just used, about another subject of the same type (often with the same value)."""
        anchor = self._recent_fact()
        if anchor is None:
            return False
        stype = self.stype_of[anchor.subject]
        attribute = next(attribute for attribute in stype.attributes if attribute.name == anchor.attribute)
        others = [subject for subject in stype.subjects if attribute in self.unset[subject]]
        if not others:
            return False
        subject = self.rng.choice(others)
        value = anchor.value if self.rng.random() < 0.6 else self.rng.choice(attribute.values)
        frame = self.frame_of.get(anchor.index)
        return (
            self._set_fact(
                stype=stype,
                subject=subject,
                attribute=attribute,
                value=value,
                category=OTHER_SUBJECT,
                frame=frame,
                related=anchor.index,
            )
            is not None
        )

    def other_attribute(self) -> bool:
        """Another attribute of the subject just written about."""
        anchor = self._recent_fact()
        if anchor is None or not self.unset[anchor.subject]:
            return False
        stype = self.stype_of[anchor.subject]
        attribute = self.rng.choice(self.unset[anchor.subject])
        value = self.rng.choice(attribute.values)
        return (
            self._set_fact(
                stype=stype,
                subject=anchor.subject,
                attribute=attribute,
                value=value,
                category=OTHER_ATTRIBUTE,
                related=anchor.index,
            )
            is not None
        )

    def task(self) -> bool:
        stype = self.rng.choice(SUBJECT_TYPES)
        subject = self.rng.choice(stype.subjects)
        imperative, past = self.rng.choice(stype.tasks)
        imperative = imperative.format(s=subject, p=possessive(subject))
        past = past.format(s=subject, p=possessive(subject))
        attribute = f"task: {imperative}"
        if (subject, attribute) in self.used_loops:
            return False
        text = self.rng.choice(TASK_FRAMES).format(imp=imperative)
        index = self._emit(
            text,
            kind="task",
            project=self._project(stype),
            category=TASK,
            subject=subject,
            attribute=attribute,
            value="open",
        )
        if index is None:
            return False
        self.used_loops.add((subject, attribute))
        due = index + self.rng.randint(2, 60) if self.rng.random() < 0.85 else -1
        self.loops.append(_Loop(due, index, subject, attribute, self._project(stype), imperative, past))
        return True

    def question(self) -> bool:
        stype = self.rng.choice(SUBJECT_TYPES)
        subject = self.rng.choice(stype.subjects)
        asked, answer, answers = self.rng.choice(stype.questions)
        asked = asked.format(s=subject, p=possessive(subject))
        attribute = f"question: {asked}"
        if (subject, attribute) in self.used_loops:
            return False
        text = self.rng.choice(QUESTION_FRAMES).format(q=asked)
        index = self._emit(
            text,
            kind="open-question",
            project=self._project(stype),
            category=QUESTION,
            subject=subject,
            attribute=attribute,
            value="open",
        )
        if index is None:
            return False
        self.used_loops.add((subject, attribute))
        due = index + self.rng.randint(2, 60) if self.rng.random() < 0.85 else -1
        resolved = answer.format(s=subject, p=possessive(subject), a=self.rng.choice(answers))
        self.loops.append(_Loop(due, index, subject, attribute, self._project(stype), answer=resolved))
        return True

    def loop_outcome(self, loop: _Loop) -> bool:
        if loop.answer:
            frames = list(ANSWER_FRAMES)
            value = loop.answer
        elif self.rng.random() < 0.8:
            frames, value = list(DONE_FRAMES), "done"
        else:
            frames, value = list(DROPPED_FRAMES), "dropped"
        self.rng.shuffle(frames)
        text = self._first_new([frame.format(imp=loop.imperative, past=loop.past, ans=loop.answer) for frame in frames])
        if text is None:
            return False
        return (
            self._emit(
                text,
                kind="fact",
                project=loop.project,
                category=LOOP_OUTCOME,
                subject=loop.subject,
                attribute=loop.attribute,
                value=value,
                retires=(loop.opened,),
                related=loop.opened,
                evidence=True,
            )
            is not None
        )

    def filler(self) -> bool:
        topic, observation = self.rng.choice(FILLER_TOPICS), self.rng.choice(FILLER_OBSERVATIONS)
        if (topic, observation) in self.used_fillers:
            return False
        self.used_fillers.add((topic, observation))
        return (
            self._emit(
                f"the {topic} {observation}.",
                kind="observation",
                project=PROJECT_SLUG if self.rng.random() < 0.4 else None,
                category=FILLER,
                subject=f"topic: {topic}",
                attribute=f"observation: {observation}",
                value=observation,
            )
            is not None
        )

    def later_writes(self) -> None:
        actions = {
            CUED_UPDATE: self.cued_update,
            UNCUED_CHANGE: self.uncued_change,
            PARAPHRASE: self.paraphrase,
            OTHER_SUBJECT: self.other_subject,
            OTHER_ATTRIBUTE: self.other_attribute,
            ADDED_DETAIL: self.added_detail,
            TASK: self.task,
            QUESTION: self.question,
            FILLER: self.filler,
        }
        names, weights = list(LATER_WEIGHTS), list(LATER_WEIGHTS.values())
        for _ in range(self.size * 40):  # each step adds at most one write; most add one
            if len(self.writes) >= self.size:
                return
            due = next((loop for loop in self.loops if 0 <= loop.due <= len(self.writes)), None)
            if due is not None:
                self.loops.remove(due)
                self.loop_outcome(due)
                continue
            actions[self.rng.choices(names, weights)[0]]()
        raise RuntimeError(f"the generator made only {len(self.writes)} of {self.size} writes")


def generate_store(size: int = 2400, seed: int = DEFAULT_SEED) -> Store:
    """The store: ``size`` writes in order, deterministic for a seed."""
    if size < 50:
        raise ValueError("a store needs at least 50 writes")
    generator = _Generator(random.Random(seed), size)
    generator.base_layer()
    generator.later_writes()
    subjects = tuple(dict.fromkeys(write.subject for write in generator.writes if write.category != FILLER))
    return Store(seed=seed, project=PROJECT_SLUG, writes=tuple(generator.writes), subjects=subjects)

"""Generate the labelled memory-pair set for the hygiene judge.

An OLDER memory ``a`` and a NEWER memory ``b`` by the same owner, labelled with one of
``duplicate``, ``supersedes``, ``complementary``, ``contradicts`` or ``unrelated``.

Two sources:

* template families (``FAMILIES``): one topic each (an entity/attribute schema with paraphrase
  templates, change cues, extra-detail templates and, for some, negations). Whole families are
  held out for the test split so a judge can be scored on topics it never saw.
* hand-written pairs (``HAND_*``), written literally below; a random 20% of them go to test.

Deterministic: the only randomness is ``random.Random(SEED)``. Standard library only.

    python3 evaluation/data/make_pairs.py            # writes pairs.jsonl next to this file
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SEED = 20250611
OUT = Path(__file__).resolve().parent / "pairs.jsonl"  # evaluation/data/legacy/

# Target size per relation (hand-written + templated). Total 800.
TARGETS = {
    "supersedes": 180,
    "complementary": 185,
    "contradicts": 150,
    "duplicate": 145,
    "unrelated": 140,
}
TEST_SHARE = 0.20
HARD_COMPLEMENTARY_SHARE = 0.60  # of templated complementary pairs
LONG_TAIL_P = 0.12

Value = str | tuple[str, ...]

# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

PEOPLE = [
    "Ana", "Priya", "Marcus", "Kenji", "Fatima", "Lars", "Tomás", "Chen Wei", "Olusegun", "Sofia",
    "Dmitri", "Aisha", "Jonas", "Mei", "Raj", "Ingrid", "Mateo", "Yuki", "Nadia", "Owen", "Leila",
    "Bruno", "Hana", "Sam", "Zainab", "Pedro", "Elif", "Grace", "Viktor", "Amara",
]  # fmt: skip
FULL_NAMES = [
    "Hank Scorpio", "Diane Park", "Luis Ortega", "Bea Holm", "Kofi Mensah", "Irina Petrova",
    "Noah Fischer", "Ruth Adeyemi", "Jun Tanaka", "Carla Mendes", "Erik Lund", "Maya Goldberg",
]  # fmt: skip
CUSTOMERS = [
    "Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Retail", "Hooli",
    "Vandelay Imports", "Soylent Foods", "Tyrell Systems", "Cyberdyne Labs", "Pied Piper",
]  # fmt: skip
CITIES = [
    "Lisbon", "Berlin", "Porto", "Kraków", "Barcelona", "Amsterdam", "Dublin", "Copenhagen", "Valencia",
    "Tallinn", "Prague", "Vienna",
]  # fmt: skip
MONTHS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
]  # fmt: skip
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
TEAMS = ["platform team", "data team", "support team", "mobile team", "design team", "security team", "growth team"]

# First words that are proper nouns and must keep their capital when a sentence is embedded.
PROPER_WORDS = {
    w.split()[0]
    for w in [*PEOPLE, *FULL_NAMES, *CUSTOMERS, *CITIES, *MONTHS, *WEEKDAYS]
} | {
    "Postgres", "Python", "Redis", "Kafka", "Kubernetes", "Node", "GitHub", "Datadog", "PagerDuty",
    "Snowflake", "Figma", "Zendesk", "Okta", "Elasticsearch", "OpenSearch", "LaunchDarkly", "Sentry",
    "Terraform", "Pulumi", "Jira", "Linear", "Notion", "Slack", "Go", "Rust", "TypeScript", "React",
    "Black", "Stripe", "Apple", "Helm", "Finance", "Legal", "Grafana", "Airflow", "Memcached",
}  # fmt: skip


def n_variants(n: int) -> tuple[str, ...]:
    out = [str(n)]
    if n >= 1000:
        out.append(f"{n:,}")
    if n >= 1000 and n % 1000 == 0:
        out.append(f"{n // 1000}k")
    return tuple(dict.fromkeys(out))


def secs(n: int) -> tuple[str, ...]:
    return (f"{n}s", f"{n} seconds", f"{n} sec")


def days(n: int) -> tuple[str, ...]:
    extra = {7: "one week", 14: "two weeks", 365: "one year", 90: "three months"}
    return (f"{n} days", f"{n}d", *([extra[n]] if n in extra else []))


def minutes(n: int) -> tuple[str, ...]:
    unit = "minute" if n == 1 else "minutes"
    return (f"{n} {unit}", f"{n} min", f"{n * 60} seconds")


def mb(n: int) -> tuple[str, ...]:
    return (f"{n} MB", f"{n}MB")


def pct(x: str) -> tuple[str, ...]:
    return (f"{x}%", f"{x} percent")


def money_k(n: int) -> tuple[str, ...]:
    return (f"${n}k", f"${n * 1000:,}", f"{n * 1000:,} USD")


def monthly(n: int) -> tuple[str, ...]:
    return (f"${n}/month", f"${n} per month", f"{n} USD a month")


def ms(n: int) -> tuple[str, ...]:
    return (f"{n}ms", f"{n} ms")


WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def count(n: int) -> tuple[str, ...]:
    return (str(n), WORDS[n]) if n in WORDS else (str(n),)


def people(n: int) -> tuple[str, ...]:
    return (f"{n} people", f"{WORDS[n]} people") if n in WORDS else (f"{n} people",)


def ampm(h: int, m: int) -> str:
    suffix = "am" if h < 12 else "pm"
    h12 = h if h <= 12 else h - 12
    return f"{h12}{suffix}" if m == 0 else f"{h12}:{m:02d}{suffix}"


def clock(h: int, m: int, tz: str = "UTC") -> tuple[str, ...]:
    return (f"{h:02d}:{m:02d} {tz}", f"{ampm(h, m)} {tz}")


def daytime(day: str, h: int, m: int, tz: str = "UTC") -> tuple[str, ...]:
    return (f"{day} {h:02d}:{m:02d} {tz}", f"{day}s at {ampm(h, m)} {tz}", f"{day} at {h:02d}:{m:02d} {tz}")


def weekly(day: str, h: int, m: int, tz: str = "CET") -> tuple[str, ...]:
    return (f"{day}s at {h:02d}:{m:02d} {tz}", f"{day}s at {ampm(h, m)} {tz}")


def date(month: int, day: int) -> tuple[str, ...]:
    name = MONTHS[month - 1]
    return (f"{name} {day}", f"{day} {name}", f"{name[:3]} {day}", f"2025-{month:02d}-{day:02d}")


def quarter(q: int, year: int) -> tuple[str, ...]:
    return (f"Q{q} {year}", f"Q{q} of {year}")


DATES = [date(m, d) for m, d in [(1, 14), (2, 3), (2, 27), (3, 10), (3, 31), (4, 15), (5, 6), (5, 22), (6, 2),
                                 (6, 19), (7, 7), (7, 28), (8, 12), (9, 1), (9, 16), (10, 6), (10, 27),
                                 (11, 10), (11, 24), (12, 8)]]  # fmt: skip
DEPLOY_SLOTS = [daytime(d, h, m) for d, h, m in [
    ("Monday", 10, 0), ("Monday", 14, 0), ("Tuesday", 9, 30), ("Tuesday", 15, 0), ("Wednesday", 11, 0),
    ("Wednesday", 16, 30), ("Thursday", 8, 0), ("Thursday", 13, 0), ("Monday", 8, 30),
]]  # fmt: skip
MEETING_SLOTS = [weekly(d, h, m) for d, h, m in [
    ("Monday", 9, 30), ("Tuesday", 10, 0), ("Tuesday", 15, 0), ("Wednesday", 9, 0), ("Wednesday", 14, 30),
    ("Thursday", 11, 0), ("Thursday", 16, 0), ("Friday", 10, 30), ("Monday", 13, 0),
]]  # fmt: skip

# --------------------------------------------------------------------------------------------
# Template families
# --------------------------------------------------------------------------------------------


@dataclass
class Family:
    name: str
    topic: str
    kind: str
    entities: Sequence[str | tuple[str, Sequence[Value]]]
    values: Sequence[Value]
    base: list[str]
    cue: list[str]
    detail: list[str]
    contra: list[str] = field(default_factory=list)
    neg: list[str] = field(default_factory=list)

    def entity_names(self) -> list[str]:
        return [e if isinstance(e, str) else e[0] for e in self.entities]

    def values_for(self, entity: str) -> Sequence[Value]:
        for e in self.entities:
            if not isinstance(e, str) and e[0] == entity:
                return e[1]
        return self.values


FAMILIES: list[Family] = [
    Family(
        "rate_limit", "plans", "fact",
        ["free tier", "pro tier", "enterprise tier", "team tier", "partner tier", "education tier", "trial tier",
         "startup tier"],
        [n_variants(n) for n in [30, 60, 100, 120, 200, 250, 300, 500, 600, 1000, 1200, 2000, 2500, 5000, 10000]],
        ["The {e} rate limit is {v} requests per minute.",
         "Clients on the {e} are capped at {v} requests per minute.",
         "Rate limit for the {e}: {v} req/min.",
         "API keys on the {e} can make up to {v} requests per minute before they get throttled.",
         "On the {e} we allow {v} API requests per minute per key, and anything above that is rejected with a 429 "
         "until the next window starts."],
        ["The {e} rate limit has been changed to {v} requests per minute.",
         "New limit for the {e}, effective immediately: {v} requests per minute.",
         "We changed the {e} rate limit from {old} to {v} requests per minute.",
         "Clients on the {e} are now capped at {v} requests per minute."],
        ["Clients on the {e} get HTTP 429 with a Retry-After header when they go over the limit.",
         "The {e} rate limit is enforced per API key, not per IP address.",
         "Short bursts on the {e} are allowed up to twice the limit for ten seconds.",
         "Usage against the {e} rate limit is shown on the billing dashboard."],
        contra=["The {e} rate limit is {v} requests per minute, not {old}; the pricing page is wrong.",
                "Whatever the docs say, the gateway config caps the {e} at {v} requests per minute."],
    ),
    Family(
        "deploy_window", "release", "fact",
        ["API", "payments service", "web frontend", "search service", "mobile backend", "data platform",
         "admin console", "notification service"],
        list(DEPLOY_SLOTS),
        ["The deploy window for the {e} is {v}.",
         "We deploy the {e} on {v}.",
         "Production deploys of the {e} go out on {v}.",
         "The {e} gets deployed to production on {v}, once the release checklist has been signed off by the "
         "on-call engineer."],
        ["The {e} deploy window moved to {v}.",
         "We now deploy the {e} on {v}.",
         "Deploys of the {e} were moved from {old} to {v}.",
         "The deploy window for the {e} changed to {v}."],
        ["Deploys of the {e} need a second approver in #release.",
         "If a deploy of the {e} fails, the on-call engineer rolls back with the pipeline's rollback button.",
         "The {e} has a deploy freeze during the last week of each quarter.",
         "A deploy of the {e} takes about {n} minutes end to end."],
        contra=["The deploy window for the {e} is {v}, not {old} as the release doc says."],
    ),
    Family(
        "db_host", "database", "fact",
        ["staging", "production", "QA", "dev", "analytics", "disaster-recovery", "load-test", "demo"],
        [f"db-{i}" for i in range(1, 13)] + ["pg-main-03", "pg-replica-02", "db-eu-4", "pg-main-07"],
        ["The {e} database is {v}.",
         "The {e} environment points at the database host {v}.",
         "Our {e} DB lives on {v}.",
         "The {e} environment reads and writes to the database host {v}, so anything you run there touches "
         "that host directly."],
        ["The {e} database moved to {v}.",
         "We migrated the {e} database; it now lives on {v}.",
         "The {e} environment was repointed from {old} to {v}.",
         "From this week on, the {e} DB host is {v}."],
        ["The {e} database is backed up every night at 02:00 UTC.",
         "Only the platform team has write access to the {e} database.",
         "Connections to the {e} database go through PgBouncer.",
         "The {e} database has a read replica for reporting queries."],
        contra=["The {e} database is {v}, not {old}; I just checked the connection string."],
    ),
    Family(
        "pg_version", "database", "fact",
        ["production", "staging", "the analytics cluster", "the EU cluster", "the US cluster", "dev"],
        ["12", "13", "14", "15", "16", "17"],
        ["{E} runs Postgres {v}.",
         "The Postgres version on {e} is {v}.",
         "Postgres on {e}: version {v}."],
        ["{E} was moved to Postgres {v}.",
         "{E} is now on Postgres {v}.",
         "We finished the Postgres {v} migration on {e}; {old} is gone."],
        ["Postgres on {e} has pg_stat_statements enabled.",
         "Major Postgres upgrades on {e} are done with logical replication.",
         "The Postgres instance on {e} has 64 GB of RAM."],
        neg=["{E} does not run Postgres {v}."],
    ),
    Family(
        "service_owner", "ownership", "fact",
        ["billing", "search", "auth", "notifications", "checkout", "the ingestion pipeline", "the admin console",
         "reporting", "the onboarding flow", "the public API", "the mobile SDK", "the data warehouse"],
        list(PEOPLE),
        ["{v} owns {e}.",
         "{E} is owned by {v}.",
         "The owner of {e} is {v}.",
         "Questions about {e} go to {v}, who owns it.",
         "If something in {e} breaks or needs a design decision, {v} is the owner and the first person to talk "
         "to before changing anything."],
        ["{v} took over {e} from {old}.",
         "{E} is now owned by {v}.",
         "Ownership of {e} was handed over to {v}.",
         "{old} handed {e} over to {v} this week."],
        ["{E} has its own Slack channel for questions and alerts.",
         "{E} has a runbook in the platform wiki.",
         "Changes to {e} need a review from someone on the owning team.",
         "Alerts for {e} go to the owning team's pager."],
        contra=["{v} owns {e}, not {old}.", "{old} has never owned {e}; it's {v}."],
    ),
    Family(
        "oncall", "ownership", "fact",
        ["platform team", "payments team", "data team", "mobile team", "search team", "infra rotation",
         "security team", "identity team"],
        list(PEOPLE),
        ["{v} is on call for the {e} this week.",
         "This week's on-call for the {e} is {v}.",
         "Page {v} for anything urgent on the {e} this week.",
         "The {e} pager is with {v} this week."],
        ["On-call swap: {v} is covering the {e} this week instead of {old}.",
         "{v} is now on call for the {e}.",
         "The {e} pager moved from {old} to {v}."],
        ["The {e} on-call rotation hands over every Monday at 09:00.",
         "The {e} on-call gets paid extra for weekend shifts.",
         "The {e} on-call has a 15-minute response target for pages."],
        contra=["{v} is the {e} on-call this week, not {old}; PagerDuty shows it."],
    ),
    Family(
        "api_timeout", "config", "fact",
        ["public API", "internal gRPC gateway", "webhook sender", "payment provider client", "search proxy",
         "export job", "auth service", "image resizer"],
        [secs(n) for n in [5, 10, 15, 20, 30, 45, 60, 90, 120]],
        ["The {e} timeout is {v}.",
         "Requests through the {e} time out after {v}.",
         "The {e} gives up on a request after {v}."],
        ["We changed the {e} timeout to {v}.",
         "The {e} timeout was changed from {old} to {v} after last week's incident.",
         "The {e} now times out after {v}."],
        ["Timeouts in the {e} are logged with the upstream host name.",
         "The {e} retries once after a timeout.",
         "Timeout errors from the {e} show up on the reliability dashboard."],
        contra=["The {e} timeout is {v}, not {old} as the docs say."],
    ),
    Family(
        "python_version", "versions", "fact",
        ["API service", "worker fleet", "ML pipeline", "CLI tool", "notebook image", "scheduler", "billing jobs"],
        ["3.9", "3.10", "3.11", "3.12", "3.13"],
        ["The {e} runs on Python {v}.",
         "We use Python {v} for the {e}.",
         "Python version for the {e}: {v}."],
        ["The {e} moved to Python {v}.",
         "The {e} now runs Python {v}.",
         "We switched the {e} from Python {old} to Python {v}."],
        ["Dependencies for the {e} are pinned with lock files.",
         "The {e} image is rebuilt weekly for security patches.",
         "Type checking for the {e} runs in CI with mypy."],
        neg=["The {e} does not run on Python {v}."],
    ),
    Family(
        "region", "infra", "fact",
        ["EU customer data", "the primary cluster", "the backup bucket", "the analytics warehouse",
         "the staging cluster", "the CDN origin", "the disaster-recovery site", "the log archive"],
        ["eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-southeast-1", "eu-north-1", "ca-central-1"],
        ["{E} is hosted in {v}.",
         "We keep {e} in {v}.",
         "{E} lives in the {v} region."],
        ["{E} moved to {v}.",
         "We migrated {e} from {old} to {v} last weekend.",
         "{E} is now in {v}."],
        ["{E} is encrypted at rest with a customer-managed KMS key.",
         "Access to {e} is restricted to the infra group.",
         "{E} is replicated across three availability zones."],
        neg=["{E} is not hosted in {v}."],
    ),
    Family(
        "meetings", "meetings", "fact",
        ["the platform standup", "design review", "sprint planning", "the incident retro", "the architecture sync",
         "the data team sync", "the product demo", "backlog grooming"],
        list(MEETING_SLOTS),
        ["{E} is on {v}.",
         "We hold {e} on {v}.",
         "{E}: {v}.",
         "We get together for {e} on {v}, and anyone from the wider engineering group is welcome to join."],
        ["{E} moved to {v}.",
         "From now on {e} is on {v}.",
         "We rescheduled {e} from {old} to {v}."],
        ["{E} has a shared agenda doc that people add to the day before.",
         "{E} is recorded for people in other time zones.",
         "{E} usually runs about {n} minutes."],
    ),
    Family(
        "offsite", "events", "plan",
        ["Q1 offsite", "Q2 offsite", "engineering summit", "hackathon", "year-end party", "leadership retreat",
         "design sprint week"],
        list(CITIES),
        ["The {e} will be in {v}.",
         "We're holding the {e} in {v}.",
         "{v} is the location for the {e}.",
         "The plan is to hold the {e} in {v}, with travel on the first day and sessions spread over the two "
         "days after that."],
        ["The {e} has been moved to {v}.",
         "The {e} is now happening in {v} instead of {old}.",
         "Change of plans: the {e} will be in {v}."],
        ["Travel for the {e} is booked through the company travel tool.",
         "The {e} agenda will be shared two weeks before.",
         "Expenses from the {e} should be submitted within 30 days."],
    ),
    Family(
        "budget", "budgets", "fact",
        ["Q3 cloud budget", "data team's tooling budget", "conference travel budget", "H2 hiring budget",
         "marketing experiments budget", "security tooling budget", "Q4 infrastructure budget"],
        [money_k(n) for n in [8, 15, 25, 40, 60, 75, 90, 120, 150, 200]],
        ["The {e} is {v}.",
         "Finance approved {v} for the {e}.",
         "{E}: {v}."],
        ["The {e} was revised to {v}.",
         "Finance updated the {e} from {old} to {v}.",
         "The {e} is now {v} after the planning review."],
        ["Spending against the {e} is reviewed monthly with finance.",
         "Anything over $5k from the {e} needs VP approval.",
         "The {e} is tracked in the finance spreadsheet."],
        contra=["The {e} is {v}, not {old}; that number in the deck is a typo."],
    ),
    Family(
        "customer_plan", "plans", "fact",
        list(CUSTOMERS),
        ["Starter", "Growth", "Business", "Enterprise", "Scale"],
        ["{e} is on the {v} plan.",
         "The subscription for {e} is the {v} plan.",
         "The {v} plan is what {e} pays for."],
        ["{e} switched to the {v} plan this month.",
         "{e} moved from {old} to {v}.",
         "{e} is now on the {v} plan."],
        ["{e} pays annually by invoice.",
         "{e} has a dedicated Slack Connect channel with us.",
         "{e} gets a quarterly business review."],
        contra=["{e} is on the {v} plan, not {old}; the CRM is wrong."],
    ),
    Family(
        "customer_contact", "customers", "fact",
        list(CUSTOMERS),
        list(FULL_NAMES),
        ["Our main contact at {e} is {v}.",
         "{v} is our point of contact at {e}.",
         "For anything about the {e} account, talk to {v}."],
        ["The new point of contact at {e} is {v}.",
         "{v} replaced {old} as our contact at {e}.",
         "Our contact at {e} is now {v}."],
        ["{e} prefers to get release notes by email.",
         "{e} has a renewal coming up next quarter.",
         "{e} opened three support tickets last month."],
        contra=["Our main contact at {e} is {v}, not {old}; {old} is in procurement."],
    ),
    Family(
        "sla", "reliability", "fact",
        ["core API", "dashboard", "webhook delivery service", "EU cluster", "data export service", "auth service"],
        [("99.9%", "99.9 percent", "three nines"), ("99.95%", "99.95 percent"),
         ("99.99%", "99.99 percent", "four nines"), ("99.5%", "99.5 percent")],
        ["The uptime SLA for the {e} is {v}.",
         "We guarantee {v} uptime for the {e}.",
         "{E} SLA: {v} monthly uptime."],
        ["We committed to a new {v} SLA for the {e}.",
         "The {e} SLA changed from {old} to {v}.",
         "The {e} SLA is now {v}."],
        ["SLA credits for the {e} are paid out as account credit, not cash.",
         "Scheduled maintenance doesn't count against the {e} SLA.",
         "Uptime for the {e} is measured from external probes."],
        contra=["The {e} SLA is {v}, not {old}; check the signed contract."],
    ),
    Family(
        "retention", "data", "fact",
        ["production database backups", "application logs", "audit logs", "S3 snapshots", "Slack exports",
         "raw metrics", "support ticket attachments", "session recordings"],
        [days(n) for n in [7, 14, 30, 60, 90, 180, 365]],
        ["We keep {e} for {v}.",
         "{E} are retained for {v}.",
         "Retention for {e}: {v}."],
        ["Retention for {e} was changed to {v}.",
         "We now keep {e} for {v}.",
         "{E} retention went from {old} to {v}."],
        ["{E} are stored in a separate, locked-down bucket.",
         "Deleting {e} early requires a ticket to security.",
         "{E} are encrypted with a dedicated KMS key."],
        contra=["We keep {e} for {v}, not {old}; the lifecycle rule says so."],
    ),
    Family(
        "feature_rollout", "flags", "fact",
        ["new checkout flow", "dark mode toggle", "SSO enforcement banner", "beta search ranking",
         "async export feature", "AI summary panel", "new onboarding wizard"],
        [pct(x) for x in ["5", "10", "20", "25", "50", "75", "100"]],
        ["The {e} is rolled out to {v} of users.",
         "{v} of users see the {e}.",
         "Rollout of the {e}: {v} of users."],
        ["The {e} is now at {v} of users.",
         "We moved the {e} rollout from {old} to {v}.",
         "Rollout update: the {e} is at {v} of users."],
        ["The {e} is behind a flag that support can toggle per account.",
         "Metrics for the {e} are on the growth dashboard.",
         "The {e} can be switched off instantly if error rates spike."],
        neg=["The {e} is not rolled out to any users.", "Nobody sees the {e}; the flag is off for everyone."],
    ),
    Family(
        "tech_choice", "tooling", "decision",
        [("session storage", ["Redis", "Postgres", "Memcached", "DynamoDB"]),
         ("the job queue", ["RabbitMQ", "SQS", "Redis", "Kafka"]),
         ("the events store", ["Postgres", "Kafka", "ClickHouse", "BigQuery"]),
         ("full-text search", ["Elasticsearch", "OpenSearch", "Postgres", "Typesense"]),
         ("feature flagging", ["LaunchDarkly", "Unleash", "a homegrown flag service"]),
         ("metrics collection", ["Prometheus", "Datadog", "Grafana Mimir"]),
         ("error tracking", ["Sentry", "Rollbar", "Bugsnag"]),
         ("infrastructure as code", ["Terraform", "Pulumi", "CloudFormation"])],
        [],
        ["We use {v} for {e}.",
         "{E} is handled by {v}.",
         "We decided to use {v} for {e}.",
         "For {e} we went with {v}."],
        ["We switched {e} from {old} to {v}.",
         "{E} moved to {v}.",
         "We've replaced {old} with {v} for {e}.",
         "Decision changed: {e} will use {v} instead of {old}."],
        ["The choice of tooling for {e} is recorded in ADR-{n}.",
         "Costs for {e} are tracked under the platform budget.",
         "Only the platform team can change the {e} configuration."],
        neg=["We do not use {v} for {e}.", "{E} is not handled by {v}."],
    ),
    Family(
        "team_tools", "tooling", "fact",
        [("CI", ["GitHub Actions", "GitLab CI", "CircleCI", "Buildkite", "Jenkins"]),
         ("issue tracker", ["Jira", "Linear", "GitHub Issues", "Shortcut"]),
         ("internal wiki", ["Notion", "Confluence", "a docs repo on GitHub"]),
         ("paging tool", ["PagerDuty", "Opsgenie", "incident.io"]),
         ("chat tool", ["Slack", "Microsoft Teams", "Discord"]),
         ("design tool", ["Figma", "Sketch", "Penpot"]),
         ("password manager", ["1Password", "Bitwarden", "LastPass"])],
        [],
        ["Our {e} is {v}.",
         "We use {v} as our {e}.",
         "The team's {e} is {v}."],
        ["We moved our {e} from {old} to {v}.",
         "Our {e} is now {v}.",
         "The team switched its {e} to {v}."],
        ["Access to the {e} is managed through SSO.",
         "The {e} is paid for out of the engineering tooling budget.",
         "New hires get {e} access on their first day."],
        neg=["We don't use {v} as our {e}."],
    ),
    Family(
        "pref_contact", "people", "preference",
        list(PEOPLE),
        ["Slack DMs", "email", "a phone call", "a comment on the ticket", "a Teams message"],
        ["{e} prefers to be contacted via {v}.",
         "Best way to reach {e}: {v}.",
         "If you need {e}, use {v}; that's what they prefer."],
        ["{e} now prefers {v}.",
         "{e} asked us to use {v} from now on instead of {old}.",
         "{e} changed their preferred contact method to {v}."],
        ["{e} is usually offline after 18:00 their time.",
         "{e} reads messages in batches twice a day.",
         "{e} works from the {c} office on Tuesdays."],
        neg=["{e} does not want to be contacted via {v}."],
    ),
    Family(
        "user_pref", "assistant", "preference",
        [("code examples", ["TypeScript", "Python", "Go", "Rust"]),
         ("indentation", ["two spaces", "four spaces", "tabs"]),
         ("commit messages", ["Conventional Commits", "short imperative subjects", "a ticket prefix like ZM-123"]),
         ("answers", ["short bullet points", "detailed explanations", "a summary first, then details"]),
         ("dates", ["ISO 8601", "DD/MM/YYYY", "written-out month names"]),
         ("diagrams", ["Mermaid", "ASCII art", "PlantUML"]),
         ("units", ["metric units", "imperial units"])],
        [],
        ["The user prefers {v} for {e}.",
         "For {e}, the user wants {v}.",
         "When it comes to {e}, the user likes {v}."],
        ["The user now wants {v} for {e}.",
         "The user changed their mind about {e}: {v} instead of {old}.",
         "From now on the user wants {v} for {e}."],
        ["The user asked to apply the {e} preference in every project, not just this one.",
         "The user said their team's style guide is the reason for the {e} preference."],
        neg=["The user does not want {v} for {e}."],
    ),
    Family(
        "pref_meeting_time", "people", "preference",
        list(PEOPLE),
        ["mornings", "afternoons", "evenings"],
        ["{e} prefers meetings in the {v}.",
         "Schedule meetings with {e} in the {v} if possible.",
         "{e} likes to have meetings in the {v}."],
        ["{e} now prefers meetings in the {v}.",
         "{e} switched from {old} to {v} for meetings."],
        ["{e} blocks Friday afternoons for focus time.",
         "{e} wants an agenda in every meeting invite.",
         "{e} prefers video off in large meetings."],
    ),
    Family(
        "plan_migration", "plans-roadmap", "plan",
        ["billing service", "auth module", "reporting database", "logging stack", "mobile API", "search cluster",
         "cron jobs"],
        [quarter(q, y) for q, y in [(1, 2025), (2, 2025), (3, 2025), (4, 2025), (1, 2026), (2, 2026)]],
        ["We plan to migrate the {e} to Kubernetes in {v}.",
         "The {e} migration to Kubernetes is planned for {v}.",
         "Target for moving the {e} onto Kubernetes: {v}.",
         "The current plan is that the {e} moves onto Kubernetes in {v}, after the load tests and a dry run on "
         "staging have both passed."],
        ["The {e} migration slipped to {v}.",
         "We pushed the {e} migration to {v}.",
         "New target for the {e} migration: {v}, instead of {old}."],
        ["The {e} migration needs a load test before cutover.",
         "The {e} migration is tracked in the platform roadmap.",
         "The rollback plan for the {e} migration is to keep the old VMs for two weeks."],
    ),
    Family(
        "release_date", "plans-roadmap", "plan",
        ["the v2.0 mobile app", "the public API v3", "the new dashboard", "self-serve onboarding",
         "the Android SDK 4.0", "the billing revamp", "the audit log feature"],
        list(DATES),
        ["{E} is scheduled to ship on {v}.",
         "We're targeting {v} for {e}.",
         "Release date for {e}: {v}."],
        ["{E} was pushed to {v}.",
         "{E} now ships on {v} instead of {old}.",
         "New release date for {e}: {v}."],
        ["{E} goes to beta customers a week before general availability.",
         "{E} needs a docs update before release.",
         "Marketing is preparing a blog post for {e}."],
    ),
    Family(
        "task_assign", "tasks", "task",
        ["rotate the Stripe API keys", "renew the TLS certificates on the edge proxies",
         "write the postmortem for last week's outage", "clean up stale feature flags",
         "renew the Apple developer certificate", "upgrade the Helm charts", "update the on-call runbook"],
        list(PEOPLE),
        ["Task: {e} (assigned to {v}).",
         "{v} will {e}.",
         "{v} is on the hook to {e}.",
         "TODO ({v}): {e}."],
        ["Reassigned: {v} will {e} instead of {old}.",
         "{v} took over the task to {e}.",
         "{v} is now the one who will {e}."],
        ["To {e}, follow the steps in the ops wiki.",
         "Once we {e}, post a note in #infra.",
         "It takes about {n} minutes to {e} if nothing goes wrong."],
    ),
    Family(
        "task_due", "tasks", "task",
        ["migrate the cron jobs to Airflow", "ship the GDPR export endpoint", "finish the SOC 2 evidence collection",
         "decommission the old VPN", "upgrade Kubernetes on the staging cluster", "archive the legacy S3 buckets",
         "send the security questionnaire back to Globex"],
        list(DATES),
        ["Deadline to {e}: {v}.",
         "We need to {e} by {v}.",
         "The task to {e} is due on {v}."],
        ["The deadline to {e} moved to {v}.",
         "We now have until {v} to {e}.",
         "The due date to {e} was pushed from {old} to {v}."],
        ["{p} volunteered to help {e}.",
         "The work to {e} is tracked in the ops board.",
         "To {e} we need sign-off from security first."],
    ),
    Family(
        "procedure_rollback", "release", "procedure",
        ["API", "worker fleet", "web frontend", "search indexer", "payments service", "scheduler"],
        ["run `make rollback`", "run `./deploy.sh --rollback`", "re-run the previous pipeline from the CI UI",
         "run `kubectl rollout undo`", "use `helm rollback` with the previous revision",
         "click Revert in the deploy dashboard"],
        ["To roll back the {e}, {v}.",
         "Rollback procedure for the {e}: {v}.",
         "If a deploy of the {e} goes wrong, {v}."],
        ["The rollback procedure for the {e} changed: {v}.",
         "From now on, to roll back the {e}, {v} instead.",
         "New rollback step for the {e}: {v}."],
        ["Rollbacks of the {e} don't need approval, but post in #incidents.",
         "A rollback of the {e} takes about {n} minutes.",
         "After rolling back the {e}, open a ticket so the failed release gets a postmortem."],
        neg=["Do not {v} to roll back the {e}."],
    ),
    Family(
        "procedure_approval", "process", "procedure",
        ["schema migrations", "production config changes", "dependency upgrades", "firewall rule changes",
         "new third-party vendors", "IAM policy changes", "changes to the billing code"],
        ["one approval", "two approvals", "sign-off from the DBA", "a security review",
         "approval from the team lead"],
        ["{E} require {v}.",
         "Rule: {e} can't go ahead without {v}.",
         "Before {e} go live they need {v}."],
        ["{E} now require {v}.",
         "We changed the rule: {e} need {v} instead of {old}.",
         "Going forward, {e} require {v}."],
        ["{E} are tracked in the change log.",
         "Emergency {e} can be approved after the fact within 24 hours.",
         "The checklist for {e} is pinned in #eng-process."],
        neg=["{E} do not require {v}."],
    ),
    Family(
        "latency", "monitoring", "observation",
        ["/checkout", "/search", "/login", "the GraphQL gateway", "the image resizer", "/api/v1/orders",
         "the recommendations endpoint"],
        [ms(n) for n in [80, 120, 180, 240, 300, 420, 650, 900, 1200]],
        ["p95 latency for {e} is around {v}.",
         "We're seeing roughly {v} p95 on {e}.",
         "p95 on {e} sits at about {v}."],
        ["p95 latency for {e} is now around {v}.",
         "Since the cache change, {e} p95 went from {old} to {v}.",
         "Latest numbers after this week's release: {e} p95 is {v}."],
        ["Latency for {e} is tracked on the API dashboard in Grafana.",
         "There's an alert if p95 on {e} stays high for 10 minutes.",
         "Most of the time in {e} is spent in database queries."],
        contra=["p95 latency for {e} is about {v}, not {old}; that dashboard panel is misconfigured."],
    ),
    Family(
        "port", "config", "fact",
        ["metrics exporter", "admin API", "gRPC server", "local frontend dev server", "debug endpoint",
         "health check server"],
        ["3000", "5000", "8000", "8080", "8081", "8443", "9000", "9090", "9100", "50051"],
        ["The {e} listens on port {v}.",
         "The {e} is exposed on port {v}.",
         "Port for the {e}: {v}."],
        ["The {e} moved to port {v}.",
         "The {e} now listens on port {v} instead of {old}."],
        ["The {e} is only reachable from inside the VPC.",
         "The {e} port is declared in the Helm chart values."],
        contra=["The {e} listens on {v}, not {old}; the README is wrong."],
    ),
    Family(
        "headcount", "org", "fact",
        list(TEAMS),
        [people(n) for n in range(3, 16)],
        ["The {e} has {v}.",
         "There are {v} on the {e}.",
         "Headcount on the {e}: {v}."],
        ["The {e} is now {v} after the reorg.",
         "The {e} went from {old} to {v}."],
        ["The {e} has an open req for a senior engineer.",
         "The {e} reports to the VP of Engineering.",
         "The {e} does its planning every six weeks."],
        contra=["The {e} has {v}, not {old}; the org chart is wrong."],
    ),
    Family(
        "team_location", "org", "fact",
        list(TEAMS),
        list(CITIES),
        ["The {e} is based in {v}.",
         "Most of the {e} sits in the {v} office.",
         "The {e} works out of {v}."],
        ["The {e} relocated to {v}.",
         "The {e} is now based in {v}."],
        ["The {e} has a few remote members in other time zones.",
         "The {e} meets in person once a quarter."],
    ),
    Family(
        "cron_schedule", "jobs", "fact",
        ["nightly ETL", "invoice generation job", "cache warm-up job", "GDPR deletion job", "search reindex",
         "usage report email", "backup verification job"],
        [clock(h, m) for h, m in [(0, 30), (1, 0), (2, 0), (2, 30), (3, 15), (4, 0), (5, 0), (6, 30), (23, 0)]],
        ["The {e} runs at {v}.",
         "The {e} is scheduled for {v} every day.",
         "We kick off the {e} daily at {v}."],
        ["The {e} was rescheduled to {v}.",
         "The {e} now runs at {v} instead of {old}."],
        ["If the {e} fails, it pages the data on-call.",
         "The {e} usually takes about {n} minutes.",
         "Logs for the {e} are in the scheduler UI."],
        contra=["The {e} runs at {v} according to the crontab; {old} is wrong."],
    ),
    Family(
        "pricing", "plans", "fact",
        ["Starter plan", "Growth plan", "Business plan", "extra seat", "API add-on", "SSO add-on"],
        [monthly(n) for n in [9, 19, 29, 49, 79, 99, 149, 299]],
        ["The {e} costs {v}.",
         "Price of the {e}: {v}.",
         "We charge {v} for the {e}."],
        ["Starting next month the {e} costs {v}.",
         "The {e} price changed from {old} to {v}.",
         "The {e} is now {v}."],
        ["The {e} is billed annually with a 15% discount.",
         "Prices for the {e} exclude VAT."],
        contra=["The {e} costs {v}, not {old} like the sales deck says."],
    ),
    Family(
        "vendor_renewal", "vendors", "fact",
        ["Datadog", "PagerDuty", "Snowflake", "Figma", "Zendesk", "GitHub Enterprise", "Okta"],
        list(DATES),
        ["Our {e} contract renews on {v}.",
         "The {e} renewal date is {v}.",
         "{e} is up for renewal on {v}."],
        ["The {e} renewal was moved to {v}.",
         "We renegotiated with {e}; the contract now renews on {v}."],
        ["The {e} contract is managed by finance.",
         "We pay {e} annually upfront.",
         "{e} gives us a discount for a multi-year commitment."],
    ),
    Family(
        "upload_limit", "config", "fact",
        ["avatar uploads", "CSV imports", "ticket attachments", "video uploads", "PDF exports", "bulk API payloads"],
        [mb(n) for n in [2, 5, 10, 20, 25, 50, 100, 250, 500]],
        ["The max size for {e} is {v}.",
         "{E} are limited to {v}.",
         "Size limit on {e}: {v}."],
        ["We changed the size limit for {e} to {v}.",
         "{E} can now be up to {v}."],
        ["{E} over the limit get a clear error message in the UI.",
         "{E} are scanned for malware before processing."],
        contra=["The max size for {e} is {v}, not {old} as the help center says."],
    ),
    Family(
        "alert_threshold", "monitoring", "fact",
        ["CPU alert on the API nodes", "disk usage alert on Postgres", "error-rate alert for checkout",
         "queue depth alert for the workers", "memory alert on the Redis cluster"],
        [pct(x) for x in ["2", "5", "60", "70", "75", "80", "85", "90", "95"]],
        ["The {e} fires at {v}.",
         "Threshold for the {e}: {v}.",
         "The {e} triggers once we cross {v}."],
        ["We changed the {e} to fire at {v}.",
         "The {e} threshold is now {v}."],
        ["The {e} links to a runbook.",
         "The {e} has a 5-minute evaluation window."],
        contra=["The {e} fires at {v}, not {old}; look at the alert rule itself."],
    ),
    Family(
        "cache_ttl", "config", "fact",
        ["product catalog cache", "session cache", "search results cache", "feature flag cache", "user profile cache",
         "pricing cache"],
        [minutes(n) for n in [1, 2, 5, 10, 15, 30, 60]],
        ["The TTL for the {e} is {v}.",
         "Entries in the {e} expire after {v}.",
         "{E} TTL: {v}."],
        ["We changed the {e} TTL to {v}.",
         "The {e} TTL went from {old} to {v}."],
        ["The {e} is invalidated on every deploy.",
         "The {e} lives in Redis.",
         "The {e} hit rate is shown on the caching dashboard."],
    ),
    Family(
        "replicas", "infra", "fact",
        ["API", "checkout service", "search service", "worker", "webhook sender", "auth service"],
        [count(n) for n in [2, 3, 4, 5, 6, 8, 10, 12]],
        ["The {e} runs {v} replicas in production.",
         "Production has {v} replicas of the {e}.",
         "We keep {v} {e} pods running in prod."],
        ["The {e} was scaled to {v} replicas.",
         "We now run {v} replicas of the {e}."],
        ["The {e} has a pod disruption budget of one.",
         "The {e} autoscales on CPU during business hours."],
    ),
    Family(
        "sprint_process", "process", "decision",
        list(TEAMS),
        ["one-week", "two-week", "three-week"],
        ["The {e} runs {v} sprints.",
         "We decided the {e} will work in {v} sprints.",
         "The {e} plans its work in {v} sprints."],
        ["The {e} switched to {v} sprints.",
         "From now on the {e} runs {v} sprints instead of {old} ones."],
        ["The {e} does a retro at the end of each sprint.",
         "The {e} demos finished work every other Friday."],
    ),
    Family(
        "code_freeze", "release", "plan",
        ["the Q4 release", "Black Friday", "the year-end holidays", "the 3.2 release", "the SOC 2 audit window",
         "the spring marketing launch"],
        list(DATES),
        ["Code freeze for {e} starts on {v}.",
         "We freeze code for {e} on {v}.",
         "The code freeze ahead of {e} begins {v}."],
        ["The code freeze for {e} moved to {v}.",
         "Code freeze for {e} now starts {v} instead of {old}."],
        ["During the freeze for {e}, only hotfixes approved by the release manager go out.",
         "The freeze for {e} applies to infra changes as well as application code."],
    ),
    Family(
        "sdk_api_version", "versions", "fact",
        ["Python SDK", "JavaScript SDK", "Go SDK", "iOS app", "Android app", "CLI"],
        ["v2", "v3", "v4", "2024-06-01", "2024-11-15", "2025-03-01"],
        ["The {e} targets API version {v}.",
         "The {e} is pinned to API version {v}.",
         "API version used by the {e}: {v}."],
        ["The {e} now targets API version {v}.",
         "We bumped the {e} from API version {old} to {v}."],
        ["The {e} is released through the usual package registry.",
         "The {e} has integration tests against staging."],
        neg=["The {e} does not support API version {v}."],
    ),
    Family(
        "language_policy", "architecture", "decision",
        [("new backend services", ["Go", "Kotlin", "Python", "TypeScript"]),
         ("data pipelines", ["Python", "Scala", "SQL with dbt"]),
         ("internal tools", ["Python", "TypeScript", "Go"]),
         ("CLIs", ["Go", "Rust", "Python"]),
         ("frontends", ["React", "Vue", "Svelte"])],
        [],
        ["We decided that {e} are written in {v}.",
         "{E} should be written in {v}.",
         "Our default for {e} is {v}."],
        ["We changed the default for {e} to {v}.",
         "Decision update: {e} will be written in {v} instead of {old}."],
        ["Exceptions for {e} need sign-off from the architecture group.",
         "There is a starter template for {e} in the platform repo."],
        neg=["{E} should not be written in {v}."],
    ),
    Family(
        "auth_method", "security", "fact",
        ["admin console", "customer dashboard", "internal tools portal", "VPN", "staging environment",
         "production bastion"],
        ["SSO via Okta", "Google login", "a password plus TOTP", "hardware security keys", "a client certificate"],
        ["The {e} requires {v}.",
         "Logging into the {e} needs {v}.",
         "Sign-in for the {e}: {v}."],
        ["The {e} now requires {v}.",
         "We switched the {e} from {old} to {v}."],
        ["Sessions on the {e} expire after 8 hours.",
         "Access to the {e} is reviewed every quarter."],
        neg=["The {e} does not require {v}."],
    ),
    Family(
        "escalation", "incidents", "fact",
        ["SEV1", "SEV2", "SEV3", "security", "data-loss"],
        list(PEOPLE),
        ["For {e} incidents, escalate to {v}.",
         "{v} is the escalation point for {e} incidents.",
         "{E} incidents get escalated to {v}."],
        ["{v} is now the escalation point for {e} incidents.",
         "Escalations for {e} incidents go to {v} instead of {old}."],
        ["{E} incidents need a postmortem within five business days.",
         "{E} incidents get a dedicated Slack channel."],
        contra=["{E} incidents escalate to {v}, not {old}; the wiki page is wrong."],
    ),
    Family(
        "slack_channel", "comms", "fact",
        ["deploy announcements", "incident coordination", "customer escalations", "on-call handoffs",
         "release notes", "security reports"],
        ["#deploys", "#ops", "#incidents", "#cust-escalations", "#oncall", "#release", "#security", "#eng"],
        ["{E} go in {v}.",
         "We post {e} in {v}.",
         "The channel for {e} is {v}."],
        ["{E} moved to {v}.",
         "We now post {e} in {v} instead of {old}."],
        ["The channel for {e} is read-only for most people.",
         "Bots post {e} automatically."],
    ),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# Generic wrappers
# --------------------------------------------------------------------------------------------

CUE_WRAPPERS = [
    "Update: {s}",
    "As of {d}, {sl}",
    "{s0}, effective immediately.",
    "{s0} (changed from {old}).",
    "{s0} (previously {old}).",
    "Change: {s}",
    "{s0}; it used to be {old}.",
    "Going forward, {sl}",
    "From now on, {sl}",
    "Heads up, this changed: {sl}",
    "{s0}, starting {d}.",
    "Effective {d}, {sl}",
    "{s0} instead of {old}.",
    "{s0}. The old value ({old}) no longer applies.",
]
CONTRA_WRAPPERS = [
    "{s0}, not {old} as the docs say.",
    "{s0}, not {old}.",
    "{s0}; the wiki page that says {old} is wrong.",
    "{s0}. Whoever wrote {old} got it wrong.",
    "{P} insists that {sl}",
    "According to {P}, {sl}",
    "I checked the config myself: {sl}",
    "{s0}, contrary to what the runbook claims.",
    "{old} is incorrect. {s}",
    "{s0}, regardless of what {P} said in standup.",
    "That's not right, {sl}",
]
ATTRIB_A = ["{P} says {sl}", "According to {P}, {sl}", "{P} told me {sl}"]
ATTRIB_B = ["{P} says {sl}", "{P} is sure {sl}", "According to {P}, {sl}", "{P} claims {sl}"]
DUP_PREFIXES = ["FYI: ", "Note: ", "Reminder: ", "For reference, ", "Just noting: "]
LONG_TAILS = [
    " Writing this down so nobody has to dig through old Slack threads and meeting notes to find it again.",
    " Noting it here because new joiners keep asking about it in their first week on the team.",
    " Putting it in memory so the assistant can answer this without pinging the team every single time.",
    " This matters mostly for people on call and for whoever writes the weekly status summary for leadership.",
    " Keep this in mind when answering questions in the help channel or when drafting docs for customers.",
]
LONG_PREFIXES = [
    "For anyone picking this up later who needs the context without reading the whole thread: {sl}",
    "Recording this for the team so that onboarding docs, runbooks and the assistant all agree: {sl}",
]
SURFACE: list[Callable[[str], str]] = [
    lambda s: s.lower(),
    lambda s: s.rstrip("."),
    lambda s: s.lower().rstrip("."),
    lambda s: s.upper(),
    lambda s: s.rstrip(".") + "!",
    lambda s: s.replace(", ", " , ").replace(": ", " : "),
]

CUE_RE = re.compile(
    r"\b(now|moved|no longer|changed|from now on|instead|as of|update|updated|starting|switched|took over|"
    r"effective|going forward|used to|previously|renamed|reversed|slipped|pushed|rescheduled|migrated|lifted|"
    r"replaced|dropped|bumped|raised|lowered|has taken over|relocated|reassigned|resolved|change|cut|went from|"
    r"revised|is gone|new (?:limit|release date|target|rollback step|point of contact))\b",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------------------------
# Hand-written pairs: (a, b, kind_a, kind_b)
# --------------------------------------------------------------------------------------------

Hand = tuple[str, str, str, str]

HAND_SUPERSEDES_CUE: list[Hand] = [
    ("The deploy window is Monday 10:00 UTC.", "Deploys now happen on Tuesdays at 14:00 UTC.", "fact", "fact"),
    ("Staging deploys are frozen until the audit is over.",
     "The staging deploy freeze has been lifted; ship as usual.", "decision", "decision"),
    ("We are going with Stripe for payments in the EU.",
     "We dropped Stripe for EU payments and went with Adyen instead.", "decision", "decision"),
    ("The company VPN endpoint is vpn.corp.example.com.",
     "From now on use vpn2.corp.example.com for the VPN; the old endpoint is being shut down.", "fact", "fact"),
    ("We plan to launch the referral program in September.", "The referral program launch slipped to November.",
     "plan", "plan"),
    ("Priya wants weekly status emails.",
     "Priya no longer wants weekly status emails; a monthly summary is enough.", "preference", "preference"),
    ("The on-call handoff happens on Fridays at noon.", "We moved the on-call handoff to Monday mornings.",
     "fact", "fact"),
    ("The default branch is master.", "The default branch was renamed to main.", "fact", "fact"),
    ("The mobile team uses Jira for tickets.", "The mobile team switched to Linear for tickets.", "fact", "fact"),
    ("The incident commander for the checkout outage is Jonas.",
     "Fatima has taken over as incident commander for the checkout outage.", "fact", "fact"),
    ("Acme's renewal call is scheduled for March 3.", "Acme's renewal call got rescheduled to March 10.",
     "plan", "plan"),
    ("We decided to keep the monolith for now and not split out billing.",
     "Decision reversed: billing will be split out of the monolith into its own service this year.",
     "decision", "decision"),
    ("The CI coverage gate is 70%.", "We raised the CI coverage gate to 80%.", "fact", "fact"),
    ("The data warehouse is Redshift.", "We've migrated the data warehouse off Redshift; it's Snowflake now.",
     "fact", "fact"),
    ("To request prod access, ask in #infra-help.",
     "Prod access requests now go through the access portal, not #infra-help.", "procedure", "procedure"),
    ("The user's name is Alex and they work on the payments team.",
     "Alex moved from the payments team to the growth team last month.", "fact", "fact"),
    ("Max connections in the Postgres pool is 50 per pod.",
     "After the incident we lowered the Postgres pool to 20 connections per pod.", "fact", "fact"),
    ("Open question: do we need SOC 2 Type II before the Globex deal?",
     "Resolved: SOC 2 Type II is not required for the Globex deal; Type I is enough.", "open-question",
     "decision"),
    ("Rate limiting is done in nginx.", "Rate limiting moved from nginx into the Envoy API gateway.", "fact",
     "fact"),
    ("Kenji runs the Thursday architecture sync.",
     "Starting next week Mei runs the Thursday architecture sync; Kenji is going on parental leave.", "fact",
     "fact"),
    ("The support team answers tickets in Zendesk.",
     "Support switched from Zendesk to Intercom on the 1st, so tickets live in Intercom from now on.", "fact",
     "fact"),
    ("The user prefers to be called Sam.", "Update: the user asked to be called Samantha from now on.",
     "preference", "preference"),
    ("Budget for the Q2 offsite is $30k.", "Finance cut the Q2 offsite budget to $18k.", "fact", "fact"),
    ("Our status page is hosted on Statuspage.io.",
     "As of this month our status page runs on Instatus instead of Statuspage.io.", "fact", "fact"),
    ("TODO: Lars will write the migration guide for API v3.",
     "Reassigned: Grace is writing the API v3 migration guide now that Lars is on the infra project.", "task",
     "task"),
    ("The mobile release train ships every two weeks.", "The mobile release train is weekly as of release 5.12.",
     "fact", "fact"),
    ("We plan to hire two SREs in H2, both based in Europe.",
     "Change of plan for H2: we're hiring one SRE in Europe and one in the US instead of two in Europe.", "plan",
     "plan"),
]  # fmt: skip

HAND_SUPERSEDES_NOCUE: list[Hand] = [
    ("Our primary Postgres host is pg-main-01.", "Primary Postgres host: pg-main-04.", "fact", "fact"),
    ("Marcus is the tech lead for the search team.", "Aisha is the tech lead for the search team.", "fact", "fact"),
    ("Quarterly planning happens in the big room on the 3rd floor.",
     "Quarterly planning happens in the Lisbon room on the 5th floor.", "fact", "fact"),
    ("Max file upload size is 10 MB.", "Max file upload size is 25 MB.", "fact", "fact"),
    ("Customer support hours are 9am to 5pm CET.", "Support hours are 8:00-18:00 CET.", "fact", "fact"),
    ("The user prefers answers in British English.", "The user prefers answers in American English.",
     "preference", "preference"),
    ("Kafka retention on the events topic is 3 days.", "Events topic retention in Kafka: 7 days.", "fact", "fact"),
    ("Our Slack workspace is zeromem-team.slack.com.", "Our Slack workspace is zeromemory.slack.com.", "fact",
     "fact"),
    ("Billing runs on a 30-day invoice cycle.", "Billing runs on a calendar-month invoice cycle.", "fact", "fact"),
    ("The web frontend runs on Node 18.", "The web frontend runs on Node 20.", "fact", "fact"),
    ("Standup is at 9:15.", "Standup is at 9:45.", "fact", "fact"),
    ("TODO: migrate the cron jobs to Airflow by end of Q2.", "TODO: migrate the cron jobs to Airflow by mid-July.",
     "task", "task"),
    ("The brand primary color is #1A73E8.", "The brand primary color is #0B57D0.", "fact", "fact"),
    ("Password reset links expire after 24 hours.", "Password reset links expire after 1 hour.", "fact", "fact"),
    ("Sofia is the hiring manager for the SRE role.", "The hiring manager for the SRE role is Dmitri.", "fact",
     "fact"),
    ("The design system lives in the Figma file 'ZM Core v1'.",
     "The design system lives in the Figma file 'ZM Core v2'.", "fact", "fact"),
    ("Deploy approvals require one reviewer.", "Deploy approvals require two reviewers.", "procedure",
     "procedure"),
    ("Our office address is Rua Augusta 120, Lisbon.", "Our office address is Avenida da Liberdade 45, Lisbon.",
     "fact", "fact"),
    ("Weekly 1:1 with Kenji is on Thursdays.", "1:1 with Kenji is on Wednesdays.", "fact", "fact"),
    ("The API base URL is https://api.zeromemory.dev/v1.", "The API base URL is https://api.zeromemory.dev/v2.",
     "fact", "fact"),
    ("The company all-hands is the first Tuesday of each month.", "The all-hands is the last Thursday of each month.",
     "fact", "fact"),
    ("The ML team's GPU allocation is 8 A100s.", "The ML team's GPU allocation is 16 H100s.", "fact", "fact"),
    ("We decided the public launch will be invite-only.",
     "We decided the public launch will be open sign-up with a waitlist for enterprise features.", "decision",
     "decision"),
    ("Release captain for 4.8 is Owen.", "Release captain for 4.8: Hana.", "fact", "fact"),
    ("The user's preferred editor is VS Code.", "The user's preferred editor is Neovim.", "preference",
     "preference"),
    ("The escalation contact at Wayne Retail is their CTO, Bruce Lin.",
     "Our escalation contact at Wayne Retail is their VP of Engineering, Carla Mendes.", "fact", "fact"),
    ("The staging cluster has 6 nodes of type m6i.xlarge.", "The staging cluster has 4 nodes of type m7i.2xlarge.",
     "fact", "fact"),
    ("We plan to sunset the v1 API on June 30.", "We plan to sunset the v1 API on September 30.", "plan", "plan"),
    ("Interview loops for backend roles have four rounds: screen, coding, system design and a values chat.",
     "Interview loops for backend roles have three rounds: a screen, a take-home review and system design.",
     "procedure", "procedure"),
]  # fmt: skip

HAND_COMPLEMENTARY_HARD: list[Hand] = [
    ("Free tier rate limit is 100/min.", "Pro tier rate limit is 1000/min.", "fact", "fact"),
    ("Staging DB is db-2.", "Production DB is db-7.", "fact", "fact"),
    ("Ana owns billing.", "Ana owns search.", "fact", "fact"),
    ("The EU cluster runs Kubernetes 1.29.", "The US cluster runs Kubernetes 1.27.", "fact", "fact"),
    ("Marcus is on call for payments this week.", "Lars is on call for the data platform this week.", "fact",
     "fact"),
    ("Deploys to the web app happen Monday 10:00 UTC.", "Deploys to the mobile backend happen Wednesday 15:00 UTC.",
     "fact", "fact"),
    ("Acme Corp is on the Enterprise plan.", "Globex is on the Growth plan.", "fact", "fact"),
    ("Backups of the orders DB are kept for 30 days.", "Backups of the audit DB are kept for 7 years.", "fact",
     "fact"),
    ("The Berlin office has 14 desks.", "The Lisbon office has 22 desks.", "fact", "fact"),
    ("Our Q3 cloud budget is $120k.", "Our Q3 tooling budget is $15k.", "fact", "fact"),
    ("Priya prefers async updates in Slack.", "Kenji prefers a quick call for anything urgent.", "preference",
     "preference"),
    ("SEV1 incidents page the incident commander immediately.", "SEV3 incidents are handled during business hours.",
     "procedure", "procedure"),
    ("We plan to migrate logging to Loki in Q3.", "We plan to migrate metrics to Mimir in Q4.", "plan", "plan"),
    ("Error budget for the public API is 43 minutes per month.",
     "Error budget for the internal admin API is 7 hours per month.", "fact", "fact"),
    ("p95 latency for /search is 180ms.", "p95 latency for /checkout is 420ms.", "observation", "observation"),
    ("Task: rotate the Stripe API keys, assigned to Olusegun.",
     "Task: rotate the Twilio API keys, assigned to Olusegun.", "task", "task"),
    ("The EU region is eu-west-1.", "The APAC region is ap-southeast-1.", "fact", "fact"),
    ("Production Postgres is version 15.", "Staging Postgres is version 16 so we can test the upgrade.", "fact",
     "fact"),
    ("Mei is the designer on the onboarding revamp.", "Raj is the PM on the onboarding revamp.", "fact", "fact"),
    ("To roll back the API, run `make rollback-api`.", "To roll back the worker fleet, run `make rollback-workers`.",
     "procedure", "procedure"),
    ("The SLA for Enterprise is 99.95% uptime.", "The SLA for Business is 99.9% uptime.", "fact", "fact"),
    ("Max upload size for avatars is 5 MB.", "Max upload size for CSV imports is 50 MB.", "fact", "fact"),
    ("The iOS app requires iOS 16 or later.", "The Android app requires Android 10 or later.", "fact", "fact"),
    ("Weekly sync with Acme is on Tuesdays at 15:00 CET.", "Weekly sync with Globex is on Tuesdays at 16:00 CET.",
     "fact", "fact"),
    ("The nightly ETL for the EU warehouse starts at 01:00 UTC.",
     "The nightly ETL for the US warehouse starts at 06:00 UTC.", "fact", "fact"),
    ("Ingrid approves production database migrations.", "Ingrid approves new vendor contracts under $10k.", "fact",
     "fact"),
]  # fmt: skip

HAND_COMPLEMENTARY_DETAIL: list[Hand] = [
    ("The user likes code examples in TypeScript.", "The user likes short answers without long preambles.",
     "preference", "preference"),
    ("Webhook deliveries are retried up to 5 times.",
     "Webhook retries use exponential backoff starting at 30 seconds.", "fact", "fact"),
    ("We use Redis for sessions.", "Redis sessions expire after 12 hours of inactivity.", "fact", "fact"),
    ("The deploy window is Monday 10:00 UTC.", "Deploys during the window need a second approver in #release.",
     "fact", "procedure"),
    ("Sprint planning is every other Monday.", "Sprint planning notes go into the Planning folder in Notion.",
     "fact", "fact"),
    ("We decided to adopt OpenTelemetry for tracing.", "The OpenTelemetry collector runs as a sidecar in each pod.",
     "decision", "fact"),
    ("The checkout service is written in Go.", "The checkout service exposes a gRPC API on port 9000.", "fact",
     "fact"),
    ("Fatima owns the on-call runbooks.", "The on-call runbooks live in the ops/runbooks repo.", "fact", "fact"),
    ("The nightly ETL starts at 01:00 UTC.", "The nightly ETL usually finishes in about 40 minutes.", "fact",
     "observation"),
    ("Initech is based in Austin.", "Initech's contract renews in January.", "fact", "fact"),
    ("The free trial lasts 14 days.", "Trial users can invite up to 3 teammates.", "fact", "fact"),
    ("Dmitri approved the Q2 roadmap.", "Dmitri asked for a cost estimate on the Snowflake migration.", "decision",
     "task"),
    ("Our CI runs on GitHub Actions.", "CI jobs time out after 45 minutes.", "fact", "fact"),
    ("The API returns dates in ISO 8601.", "The API returns money amounts in minor units (cents).", "fact", "fact"),
    ("Our main contact at Hooli is Gavin.", "Hooli's billing contact is Denise in finance.", "fact", "fact"),
    ("We decided to use Postgres for the events store.", "The events store table is partitioned by month.",
     "decision", "fact"),
    ("The user is based in Lisbon.", "The user works remotely on Fridays.", "fact", "fact"),
    ("Chen Wei is out of office August 5-16.", "Jonas covers Chen Wei's code reviews while he's away.", "fact",
     "fact"),
    ("We plan to move the search cluster to OpenSearch in Q3.",
     "The OpenSearch migration needs a reindex that takes about six hours, so we'll do it on a weekend.", "plan",
     "plan"),
    ("Production deploys go through the release pipeline in GitHub Actions.",
     "The release pipeline runs smoke tests against staging before promoting a build to production, and it "
     "posts the result to #deploys with a link to the run.", "procedure", "procedure"),
    ("Stark Logistics signed a two-year Enterprise contract.",
     "Stark Logistics wants SSO with Azure AD before they roll out to all 900 seats.", "fact", "fact"),
    ("Open question: should we shard the events table by tenant?",
     "The events table is at 1.8 billion rows and grows by about 40 million a week.", "open-question",
     "observation"),
    ("TODO: write the postmortem for the March 3 outage.",
     "The March 3 outage lasted 47 minutes and was caused by an expired TLS certificate on the edge proxy.",
     "task", "fact"),
    ("The user prefers metric units.", "The user also wants temperatures in Celsius and dates as DD/MM/YYYY.",
     "preference", "preference"),
    ("Our on-call rotation is weekly and hands over on Mondays.",
     "On-call engineers get a day off after a weekend with more than three pages.", "fact", "fact"),
    ("Grace leads the mobile team.",
     "The mobile team is hiring a senior iOS engineer and Grace runs the final interview.", "fact", "fact"),
]  # fmt: skip

HAND_CONTRADICTS: list[Hand] = [
    ("The API timeout is 30s.", "The API timeout is 60s, not 30s as the docs say.", "fact", "fact"),
    ("We use Redis for sessions.", "We do not use Redis for sessions.", "fact", "fact"),
    ("Ana says the launch is on June 3.", "Marcus says the launch is on June 10.", "fact", "fact"),
    ("The production DB is in eu-west-1.",
     "The production DB is not in eu-west-1; it has always been in eu-central-1.", "fact", "fact"),
    ("Lars owns the auth service.", "Lars has never owned the auth service; that's Aisha.", "fact", "fact"),
    ("The free plan includes 3 seats.", "The free plan includes 5 seats; the 3-seat figure in the FAQ is a typo.",
     "fact", "fact"),
    ("Webhooks are signed with HMAC-SHA256.", "Webhooks are not signed at all, which is a known gap.", "fact",
     "fact"),
    ("The staging environment is reset every night.", "Staging is never reset automatically.", "fact", "fact"),
    ("The payments service is written in Java.", "The payments service is written in Kotlin, not Java.", "fact",
     "fact"),
    ("Our SOC 2 auditor is Prescient Assurance.",
     "According to finance, our SOC 2 auditor is A-LIGN, not Prescient.", "fact", "fact"),
    ("Globex has 250 seats.", "Globex has 400 seats; the CRM number is wrong.", "fact", "fact"),
    ("The user is vegetarian.", "The user eats meat; they are not vegetarian.", "fact", "fact"),
    ("The SDK supports Python 3.8.", "The SDK does not support Python 3.8.", "fact", "fact"),
    ("Kubernetes namespaces map one-to-one to teams.",
     "Namespaces don't map to teams; several teams share the apps namespace.", "fact", "fact"),
    ("The on-call rotation is weekly.",
     "The on-call rotation is two weeks long per the PagerDuty schedule, not weekly.", "fact", "fact"),
    ("Mobile releases need sign-off from QA.", "Mobile releases don't need QA sign-off.", "procedure",
     "procedure"),
    ("Cache TTL on product pages is 5 minutes.",
     "Cache TTL on product pages is 15 minutes according to the CDN config.", "fact", "fact"),
    ("The team decided to use Terraform for all infrastructure.",
     "We never decided on Terraform for everything; half of the infra is Pulumi on purpose.", "decision",
     "decision"),
    ("p99 latency on login is 300ms.", "p99 on login is closer to 1.2s; the 300ms number comes from a synthetic check.",
     "observation", "observation"),
    ("Customer data for EU users never leaves the EU.",
     "Some EU customer data is replicated to us-east-1 for analytics.", "fact", "fact"),
    ("The deadline for the tax export feature is Friday.",
     "Kenji says the tax export deadline is next Wednesday, not Friday.", "task", "task"),
    ("Our biggest customer by revenue is Acme.", "Finance says our biggest customer by revenue is Stark Logistics, "
     "not Acme.", "fact", "fact"),
    ("The user prefers dark mode.", "The user said they can't stand dark mode.", "preference", "preference"),
    ("Deploys are allowed on Fridays.", "Deploys are not allowed on Fridays, and that has been the rule since day one.",
     "procedure", "procedure"),
    ("Search runs on Elasticsearch 8.", "Search runs on OpenSearch, not Elasticsearch.", "fact", "fact"),
    ("We pay for Datadog annually.", "Datadog is billed monthly, not annually; I checked the invoices.", "fact",
     "fact"),
    ("The backup job runs at 02:00 UTC.", "The backup job runs at 04:00 UTC according to the crontab; 02:00 is wrong.",
     "fact", "fact"),
    ("Tomás works from the Madrid office.", "Tomás works from Porto, not Madrid.", "fact", "fact"),
    ("Failed jobs are retried 3 times.", "Failed jobs are retried 10 times; the worker config disagrees with the docs.",
     "fact", "fact"),
    ("Our API is REST only.", "Our API is not REST only; the dashboard uses a GraphQL endpoint too.", "fact",
     "fact"),
    ("Hooli signed a 3-year contract.", "Hooli's contract is a 1-year term, not 3 years; Legal confirmed it.",
     "fact", "fact"),
    ("Priya thinks the memory leak is in the image resizer.",
     "Owen is convinced the memory leak is in the PDF renderer, not the image resizer.", "observation",
     "observation"),
    ("The user has two kids.", "The user doesn't have any children.", "fact", "fact"),
    ("Our data processing agreement allows subprocessors in the US.",
     "Our DPA explicitly forbids US subprocessors; whoever wrote otherwise misread clause 7.", "fact", "fact"),
    ("All services log in JSON format, so the log pipeline can parse them without custom rules.",
     "The legacy billing service still logs plain text and needs a custom parser, so not all services log JSON.",
     "fact", "fact"),
]  # fmt: skip

HAND_DUPLICATE: list[Hand] = [
    ("The deploy window is Monday 10:00 UTC.", "Deploys happen on Mondays at 10am UTC.", "fact", "fact"),
    ("Ana owns billing.", "Billing is owned by Ana.", "fact", "fact"),
    ("We use Redis for sessions.", "Sessions are stored in Redis.", "fact", "fact"),
    ("the free tier rate limit is 100/min", "The free tier rate limit is 100/min.", "fact", "fact"),
    ("Staging DB is db-2.", "staging db is db-2", "fact", "fact"),
    ("Marcus is on call this week for payments.", "This week's payments on-call: Marcus.", "fact", "fact"),
    ("The user prefers concise answers.", "Keep answers short; the user likes concise responses.", "preference",
     "preference"),
    ("We decided to use Postgres for the events store.", "Decision: the events store will be Postgres.",
     "decision", "decision"),
    ("Standup is at 9:30 every weekday.", "Every weekday we do standup at 09:30.", "fact", "fact"),
    ("Acme Corp is on the Enterprise plan.", "ACME CORP IS ON THE ENTERPRISE PLAN.", "fact", "fact"),
    ("Backups are kept for 30 days.", "We retain backups for thirty days.", "fact", "fact"),
    ("TODO: rotate the Stripe keys by Friday.", "Need to rotate the Stripe API keys before Friday.", "task", "task"),
    ("To roll back, run `deploy rollback --to previous`.", "Rollback procedure: `deploy rollback --to previous`.",
     "procedure", "procedure"),
    ("The API timeout is 30 seconds.", "API requests time out after 30s.", "fact", "fact"),
    ("Our Q3 cloud budget is $120k.", "Cloud budget for Q3: $120,000.", "fact", "fact"),
    ("Kenji prefers email over Slack for non-urgent things.",
     "For non-urgent stuff, Kenji would rather get an email than a Slack message.", "preference", "preference"),
    ("The EU cluster is hosted in eu-west-1 (Ireland).", "Ireland (eu-west-1) hosts the EU cluster.", "fact",
     "fact"),
    ("We plan to migrate billing to Kubernetes in Q3.", "Plan: move billing onto Kubernetes during Q3.", "plan",
     "plan"),
    ("Password reset links expire after 24 hours.", "Password-reset links are valid for one day.", "fact", "fact"),
    ("SEV1 incidents require a public status page update within 30 minutes.",
     "For SEV1s, update the public status page within half an hour.", "procedure", "procedure"),
    ("Fatima is the hiring manager for the SRE role.", "The SRE role's hiring manager is Fatima.", "fact", "fact"),
    ("The checkout service is written in Go.", "checkout service: written in Go", "fact", "fact"),
    ("Design review is on Thursdays at 15:00 CET.", "Thursdays 3pm CET: design review.", "fact", "fact"),
    ("The user lives in Lisbon, so their timezone is WET.", "User is in Lisbon (WET time zone).", "fact", "fact"),
    ("Our point of contact at Globex is Hank Scorpio.", "Globex's main contact: Hank Scorpio.", "fact", "fact"),
    ("Open question: should we shard the events table by tenant?",
     "Still undecided whether to shard the events table per tenant.", "open-question", "open-question"),
    ("p95 latency on /search is about 180ms.", "/search p95 is roughly 180 ms.", "observation", "observation"),
    ("We don't deploy on Fridays.", "No Friday deploys.", "decision", "decision"),
    ("Before any schema migration touches the production database, the author must run it against a fresh "
     "staging snapshot and post the timings in #db-changes for review.",
     "Schema migrations for production have to be tested on a fresh staging snapshot first, with the timings "
     "posted in #db-changes so others can review them.", "procedure", "procedure"),
    ("The user wants every answer to end with a one-line summary.",
     "Always finish responses with a single-line summary for this user.", "preference", "preference"),
    ("Invoices are sent on the 1st of every month.", "invoices go out on the first of each month", "fact", "fact"),
]  # fmt: skip

HAND_UNRELATED: list[Hand] = [
    ("The deploy window is Monday 10:00 UTC.", "Priya prefers Slack DMs over email.", "fact", "preference"),
    ("Free tier rate limit is 100/min.", "The Q3 offsite will be in Porto.", "fact", "plan"),
    ("We use Redis for sessions.", "Acme's renewal call is on March 3.", "fact", "plan"),
    ("Ana owns billing.", "The staging cluster has 6 nodes.", "fact", "fact"),
    ("The user prefers TypeScript examples.", "Audit logs are kept for one year.", "preference", "fact"),
    ("TODO: renew the Apple developer certificate.", "Design review is on Thursdays.", "task", "fact"),
    ("Kafka retention is 7 days.", "Mei is out of office next week.", "fact", "fact"),
    ("We plan to hire two SREs in H2.", "The brand primary color is #1A73E8.", "plan", "fact"),
    ("p95 on /checkout is 420ms.", "Our office address is Rua Augusta 120, Lisbon.", "observation", "fact"),
    ("Open question: do we need SOC 2 Type II?", "The mobile team uses Linear.", "open-question", "fact"),
    ("The user is vegetarian.", "The CI coverage gate is 80%.", "fact", "fact"),
    ("Globex is on the Growth plan.", "To roll back the API, run `make rollback-api`.", "fact", "procedure"),
    ("Marcus is on call for payments this week.", "The hackathon theme this year is developer experience.", "fact",
     "plan"),
    ("We decided to use Postgres for the events store.", "Kenji prefers meetings in the morning.", "decision",
     "preference"),
    ("The Berlin office has 14 desks.", "Webhook retries use exponential backoff.", "fact", "fact"),
    ("The API base URL is https://api.zeromemory.dev/v2.", "Lunch on Fridays is catered by the Thai place downstairs.",
     "fact", "fact"),
    ("Password reset links expire after 1 hour.", "Sofia is hiring a product designer.", "fact", "fact"),
    ("The nightly ETL starts at 01:00 UTC.", "The user has a dog named Pixel.", "fact", "fact"),
    ("SEV1 incidents page the incident commander immediately.", "Our Figma contract renews in October.",
     "procedure", "fact"),
    ("The data warehouse is Snowflake.", "The user prefers answers in British English.", "fact", "preference"),
    ("TODO: write the postmortem for the March 3 outage.", "The Lisbon office wifi password rotates monthly.", "task",
     "fact"),
    ("The mobile release train is weekly.", "Initech's main contact is Bea Holm.", "fact", "fact"),
    ("We plan to sunset the v1 API on September 30.", "Dmitri likes to review pull requests in the morning.",
     "plan", "preference"),
    ("Error budget for the public API is 43 minutes per month.", "The team dinner is at the Italian place on Friday.",
     "fact", "plan"),
    ("Before any schema migration touches the production database, the author must run it against a fresh "
     "staging snapshot and post the timings in #db-changes.",
     "The user is learning Portuguese and asked for occasional vocabulary tips in the morning summary.",
     "procedure", "preference"),
    ("Stark Logistics wants SSO with Azure AD before rolling out to all 900 seats.",
     "The GPU allocation for the ML team is 16 H100s.", "fact", "fact"),
    ("The checkout service is written in Go.", "Mateo is presenting the Q2 numbers at the all-hands.", "fact",
     "plan"),
    ("Open question: should we shard the events table by tenant?", "The office closes early on December 24.",
     "open-question", "fact"),
]  # fmt: skip

# --------------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------------


@dataclass
class Pair:
    a: str
    b: str
    relation: str
    kind_a: str
    kind_b: str
    source: str  # family name or "hand"
    tag: str = ""  # cue / nocue / hard / detail / negation / ...
    split: str = "train"


def lc_first(s: str) -> str:
    word = s.split(" ", 1)[0]
    core = word.strip("'\"(,:;").removesuffix("'s")
    if not core or not core[0].isalpha() or core in PROPER_WORDS or not core[1:].islower():
        return s
    return s[0].lower() + s[1:]


GENERIC_WORDS = {
    "that", "this", "with", "from", "they", "their", "have", "every", "after", "about", "before", "need", "needs",
    "there", "what", "when", "into", "only", "once", "week", "team", "users", "runs", "time", "each", "until",
}  # fmt: skip


def content_words(s: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", s.lower()) if len(w) >= 4 and w not in GENERIC_WORDS}


def cap_first(s: str) -> str:
    return s[:1].upper() + s[1:]


def strip_end(s: str) -> str:
    return s[:-1] if s.endswith(".") else s


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: set[tuple[str, str]] = set()

    # -- rendering -------------------------------------------------------------------------

    def render(self, v: Value) -> str:
        return self.rng.choice(v) if isinstance(v, tuple) else v

    def fill(self, template: str, e: str, v: Value | None = None, old: Value | None = None) -> str:
        r = self.rng
        fields = {
            "e": e,
            "E": cap_first(e),
            "v": self.render(v) if v is not None else "",
            "old": self.render(old) if old is not None else "",
            "p": r.choice(PEOPLE),
            "d": self.render(r.choice(DATES)),
            "n": str(r.choice([5, 8, 12, 15, 20, 25, 30, 40, 45])),
            "c": r.choice(CITIES),
        }
        return template.format(**fields)

    def wrap(self, wrapper: str, s: str, old: Value | None = None) -> str:
        r = self.rng
        fields = {
            "s": s,
            "s0": strip_end(s),
            "sl": lc_first(s),
            "old": self.render(old) if old is not None else "",
            "d": self.render(r.choice(DATES)),
            "P": self.other_person(s),
        }
        return wrapper.format(**fields)

    def other_person(self, *texts: str) -> str:
        """A person to attribute a claim to, not one already named in the memory."""
        return self.rng.choice([p for p in PEOPLE if not any(p in t for t in texts)])

    def prose(self, f: Family) -> str:
        """A base template that reads as a plain sentence (no "Label: value" style), for embedding."""
        return self.rng.choice([t for t in f.base if ": " not in t] or f.base)

    def pick_value(self, f: Family, e: str, exclude: Value | None = None) -> Value:
        options = [v for v in f.values_for(e) if v != exclude]
        return self.rng.choice(options)

    def two_entities(self, f: Family) -> tuple[str, str]:
        e1, e2 = self.rng.sample(f.entity_names(), 2)
        return e1, e2

    def maybe_long(self, s: str) -> str:
        r = self.rng
        if r.random() >= LONG_TAIL_P or len(s.split()) > 22:
            return s
        if r.random() < 0.7:
            return s + r.choice(LONG_TAILS)
        return self.wrap(r.choice(LONG_PREFIXES), s)

    # -- relations -------------------------------------------------------------------------

    def duplicate(self, f: Family) -> Pair:
        r = self.rng
        e = r.choice(f.entity_names())
        v = self.pick_value(f, e)
        t1, t2 = r.sample(f.base, 2)
        mode = r.random()
        if mode < 0.25:
            a = self.fill(t1, e, v)
            b = a
            while b == a:
                b = r.choice(SURFACE)(a)
            return Pair(a, b, "duplicate", f.kind, f.kind, f.name, "surface")
        a = self.fill(t1, e, v)
        b = self.fill(t2, e, v)
        prefixed = mode < 0.40
        if prefixed:
            b = r.choice(DUP_PREFIXES) + lc_first(b)
        if prefixed or r.random() < 0.5:
            a = self.maybe_long(a)
        else:
            b = self.maybe_long(b)
        return Pair(a, b, "duplicate", f.kind, f.kind, f.name, "paraphrase")

    def supersedes(self, f: Family, cue: bool) -> Pair:
        r = self.rng
        e = r.choice(f.entity_names())
        old = self.pick_value(f, e)
        new = self.pick_value(f, e, exclude=old)
        t = r.choice(f.base)
        a = self.maybe_long(self.fill(t, e, old))
        if cue:
            if f.cue and r.random() < 0.55:
                b = self.fill(r.choice(f.cue), e, new, old)
            else:
                b = self.wrap(r.choice(CUE_WRAPPERS), self.fill(self.prose(f), e, new), old)
        else:
            tb = t if r.random() < 0.5 else r.choice(f.base)
            b = self.fill(tb, e, new)
        return Pair(
            a, self.maybe_long(b) if not cue else b, "supersedes", f.kind, f.kind, f.name, "cue" if cue else "nocue"
        )

    def complementary(self, f: Family, hard: bool) -> Pair:
        r = self.rng
        if hard:
            e1, e2 = self.two_entities(f)
            t = r.choice(f.base)
            v1 = self.pick_value(f, e1)
            same_ok = v1 in f.values_for(e2)
            v2 = v1 if same_ok and r.random() < 0.25 else self.pick_value(f, e2, exclude=v1)
            return Pair(self.fill(t, e1, v1), self.fill(t, e2, v2), "complementary", f.kind, f.kind, f.name, "hard")
        e = r.choice(f.entity_names())
        v = self.pick_value(f, e)
        a = self.maybe_long(self.fill(r.choice(f.base), e, v))
        b = self.fill(r.choice(f.detail), e, v)
        kind_b = "fact" if f.kind in {"decision", "plan", "task", "preference"} and r.random() < 0.5 else f.kind
        if r.random() < 0.3:
            return Pair(b, a, "complementary", kind_b, f.kind, f.name, "detail")
        return Pair(a, b, "complementary", f.kind, kind_b, f.name, "detail")

    def contradicts(self, f: Family) -> Pair:
        r = self.rng
        e = r.choice(f.entity_names())
        v1 = self.pick_value(f, e)
        v2 = self.pick_value(f, e, exclude=v1)
        t = r.choice(f.base)
        a = self.fill(t, e, v1)
        mode = r.random()
        if f.neg and mode < 0.4:
            b = self.fill(r.choice(f.neg), e, v1)
            tag = "negation"
            if r.random() < 0.3:
                a, b = b, a
        elif f.contra and mode < 0.6:
            b = self.fill(r.choice(f.contra), e, v2, v1)
            tag = "family-contra"
        elif mode < 0.8:
            b = self.wrap(r.choice(CONTRA_WRAPPERS), self.fill(self.prose(f), e, v2), v1)
            tag = "wrapped"
        else:
            s1, s2 = self.fill(self.prose(f), e, v1), self.fill(self.prose(f), e, v2)
            p1 = self.other_person(s1, s2)
            p2 = self.other_person(s1, s2, p1)
            a = r.choice(ATTRIB_A).format(P=p1, sl=lc_first(s1))
            b = r.choice(ATTRIB_B).format(P=p2, sl=lc_first(s2))
            tag = "attributed"
        return Pair(self.maybe_long(a), b, "contradicts", f.kind, f.kind, f.name, tag)

    def unrelated(self, f1: Family, pool: Sequence[Family]) -> Pair:
        r = self.rng
        f2 = r.choice([f for f in pool if f.topic != f1.topic])

        def sentence(f: Family) -> str:
            e = r.choice(f.entity_names())
            t = r.choice(f.base) if r.random() < 0.8 else r.choice(f.detail)
            return self.fill(t, e, self.pick_value(f, e))

        a, b = sentence(f1), sentence(f2)
        for _ in range(50):  # different topics must not share a content word ("auth service", "Globex", ...)
            if not content_words(a) & content_words(b):
                break
            a, b = sentence(f1), sentence(f2)
        else:
            raise RuntimeError(f"no word-disjoint unrelated pair for {f1.name} / {f2.name}")
        return Pair(
            self.maybe_long(a), self.maybe_long(b), "unrelated", f1.kind, f2.kind, f"{f1.name}+{f2.name}", "cross-topic"
        )

    # -- driver ----------------------------------------------------------------------------

    def add(self, out: list[Pair], make: Callable[..., Pair], *args: object) -> None:
        for _ in range(60):
            p = make(*args)
            key = (p.a.lower(), p.b.lower())
            if p.a != p.b and key not in self.seen:
                self.seen.add(key)
                out.append(p)
                return
        raise RuntimeError("could not produce a fresh pair")

    def cycle(self, fams: Sequence[Family], n: int) -> list[Family]:
        order: list[Family] = []
        while len(order) < n:
            block = list(fams)
            self.rng.shuffle(block)
            order.extend(block)
        return order[:n]

    def templated(self, needed: dict[str, int], train: list[Family], test: list[Family]) -> list[Pair]:
        out: list[Pair] = []
        fams = train + test
        for i, f in enumerate(self.cycle(fams, needed["supersedes"])):
            self.add(out, self.supersedes, f, i % 2 == 0)  # alternate: with / without a change cue
        for i, f in enumerate(self.cycle(fams, needed["complementary"])):
            hard = (i % 20) < round(20 * HARD_COMPLEMENTARY_SHARE)
            self.add(out, self.complementary, f, hard)
        for f in self.cycle(fams, needed["contradicts"]):
            self.add(out, self.contradicts, f)
        for f in self.cycle(fams, needed["duplicate"]):
            self.add(out, self.duplicate, f)
        for f in self.cycle(fams, needed["unrelated"]):
            self.add(out, self.unrelated, f, test if f in test else train)  # partner family from the same split
        test_names = {f.name for f in test}
        for p in out:
            p.split = "test" if p.source.split("+")[0] in test_names else "train"
        return out


def hand_pairs(rng: random.Random) -> list[Pair]:
    groups: list[tuple[str, str, list[Hand]]] = [
        ("supersedes", "cue", HAND_SUPERSEDES_CUE),
        ("supersedes", "nocue", HAND_SUPERSEDES_NOCUE),
        ("complementary", "hard", HAND_COMPLEMENTARY_HARD),
        ("complementary", "detail", HAND_COMPLEMENTARY_DETAIL),
        ("contradicts", "hand", HAND_CONTRADICTS),
        ("duplicate", "hand", HAND_DUPLICATE),
        ("unrelated", "hand", HAND_UNRELATED),
    ]
    out = [Pair(a, b, rel, ka, kb, "hand", tag) for rel, tag, items in groups for a, b, ka, kb in items]
    for i in rng.sample(range(len(out)), round(len(out) * TEST_SHARE)):
        out[i].split = "test"
    return out


def choose_test_families(rng: random.Random) -> tuple[list[Family], list[Family]]:
    names = sorted(f.name for f in FAMILIES)
    test_names = set(rng.sample(names, round(len(names) * TEST_SHARE)))
    train = [f for f in FAMILIES if f.name not in test_names]
    test = [f for f in FAMILIES if f.name in test_names]
    return train, test


def check_families() -> None:
    names = [f.name for f in FAMILIES]
    assert len(set(names)) == len(names), "duplicate family name"
    for f in FAMILIES:
        assert len(f.base) >= 2, f.name
        assert f.cue, f.name
        assert f.detail, f.name
        assert len(f.entity_names()) >= 2, f.name
        for e in f.entity_names():
            assert len(f.values_for(e)) >= 2, (f.name, e)
        for t in f.base:  # no-cue supersedes reuse base templates: they must not carry a change cue
            assert not CUE_RE.search(t), (f.name, t)


def build() -> tuple[list[Pair], list[Family]]:
    check_families()
    rng = random.Random(SEED)
    train, test = choose_test_families(rng)
    hand = hand_pairs(rng)
    hand_counts = Counter(p.relation for p in hand)
    needed = {rel: n - hand_counts[rel] for rel, n in TARGETS.items()}
    gen = Generator(SEED + 1)
    gen.seen.update((p.a.lower(), p.b.lower()) for p in hand)
    pairs = hand + gen.templated(needed, train, test)
    rng.shuffle(pairs)
    return pairs, test


def write(pairs: list[Pair]) -> None:
    with OUT.open("w", encoding="utf-8") as fh:
        for i, p in enumerate(pairs, start=1):
            row = {"id": f"p{i:04d}", "a": p.a, "b": p.b, "relation": p.relation, "kind_a": p.kind_a,
                   "kind_b": p.kind_b, "split": p.split}  # fmt: skip
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def summary(pairs: list[Pair], test: list[Family]) -> None:
    total = len(pairs)
    by_rel = Counter(p.relation for p in pairs)
    by_rel_split = Counter((p.relation, p.split) for p in pairs)
    print(f"wrote {total} pairs to {OUT}")
    print(f"{'relation':<14}{'total':>7}{'share':>8}{'train':>7}{'test':>6}")
    for rel in TARGETS:
        n = by_rel[rel]
        print(f"{rel:<14}{n:>7}{n / total:>8.1%}{by_rel_split[rel, 'train']:>7}{by_rel_split[rel, 'test']:>6}")
    splits = Counter(p.split for p in pairs)
    print(f"{'all':<14}{total:>7}{'':>8}{splits['train']:>7}{splits['test']:>6}  (test {splits['test'] / total:.1%})")

    hand = [p for p in pairs if p.source == "hand"]
    print(
        f"hand-written: {len(hand)} ({Counter(p.split for p in hand)['test']} in test); "
        f"template families: {len(FAMILIES)}"
    )
    print(f"test-only families ({len(test)}): {', '.join(sorted(f.name for f in test))}")

    sup = [p for p in pairs if p.relation == "supersedes"]
    sup_cue = sum(1 for p in sup if p.tag == "cue")
    print(f"supersedes: {sup_cue} with a change cue, {len(sup) - sup_cue} without")
    comp = [p for p in pairs if p.relation == "complementary"]
    hard = sum(1 for p in comp if p.tag == "hard")
    print(
        f"complementary: {hard} same-template/other-entity hard negatives ({hard / len(comp):.0%}), "
        f"{len(comp) - hard} added-detail"
    )
    print("contradicts by style:", dict(Counter(p.tag for p in pairs if p.relation == "contradicts")))
    print("duplicate by style:", dict(Counter(p.tag for p in pairs if p.relation == "duplicate")))
    kinds = Counter(k for p in pairs for k in (p.kind_a, p.kind_b))
    print("kinds:", dict(kinds.most_common()))
    lengths = [len(s.split()) for p in pairs for s in (p.a, p.b)]
    long_n = sum(1 for n in lengths if n >= 20)
    print(f"words per memory: min {min(lengths)}, max {max(lengths)}, {long_n} memories with 20+ words")


def main() -> None:
    pairs, test = build()
    write(pairs)
    summary(pairs, test)


if __name__ == "__main__":
    main()

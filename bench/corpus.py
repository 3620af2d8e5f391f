"""Realistic notes for benchmarks: what agents of a software team store about their work.

Each note is drawn from one of ~40 sentence families (facts about services and people,
preferences, decisions, to-dos, open questions, incidents, customer details), filled from
vocabularies of services, people, tools, places, weekdays, versions and numbers, with an
optional trailing clause. Families and fillers are independent, so 100,000 notes are
almost all distinct strings while clustering by topic the way a real store does (many notes
about the same service, person or customer). Everything derives from one seed.
"""

from __future__ import annotations

import random

SERVICES = [
    "billing",
    "search",
    "auth",
    "payments",
    "ingest",
    "reports",
    "mailer",
    "gateway",
    "scheduler",
    "cdn",
    "ledger",
    "invoicing",
    "notifications",
    "analytics",
    "checkout",
    "inventory",
    "shipping",
    "catalog",
    "identity",
    "audit",
    "exports",
    "webhooks",
    "pricing",
    "onboarding",
    "recommendations",
]
PEOPLE = [
    "Ana",
    "Bilal",
    "Chen",
    "Dara",
    "Eli",
    "Fatima",
    "Goran",
    "Hana",
    "Ivo",
    "Jun",
    "Kemal",
    "Lena",
    "Marek",
    "Nia",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sven",
    "Tariq",
    "Uma",
    "Viktor",
    "Wen",
    "Yusuf",
    "Zoe",
]
CUSTOMERS = [
    "Acme",
    "Globex",
    "Initech",
    "Umbrella",
    "Hooli",
    "Stark",
    "Wayne",
    "Soylent",
    "Vandelay",
    "Wonka",
    "Tyrell",
    "Cyberdyne",
]
TOOLS = [
    "Terraform",
    "Kubernetes",
    "Grafana",
    "Sentry",
    "PagerDuty",
    "Redis",
    "Kafka",
    "RabbitMQ",
    "Celery",
    "Airflow",
    "dbt",
    "Snowflake",
    "BigQuery",
    "Datadog",
    "Vault",
    "Argo",
    "GitHub",
    "Actions",
    "Jenkins",
    "Nginx",
    "Envoy",
]
LANGUAGES = ["Python", "Go", "Rust", "TypeScript", "Java", "Kotlin", "Elixir"]
CITIES = ["Lisbon", "Berlin", "Nairobi", "Toronto", "Singapore", "Austin", "Warsaw", "Bangalore", "Madrid", "Oslo"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
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
ROLES = ["on-call", "lead", "reviewer", "owner", "approver", "contact"]

FAMILIES = (
    ("fact", "The {service} service deploys on {day} at {hour}:00 UTC."),
    ("fact", "{person} owns the {service} service since {month}."),
    ("fact", "The {service} rate limit is {number} requests per minute per token."),
    ("fact", "The {service} database runs PostgreSQL {version} on db-{small}."),
    ("fact", "Alerts for {service} page {person} after {small} minutes of errors."),
    ("fact", "{customer} is billed on the {ordinal} of each month in {currency}."),
    ("fact", "{customer}'s main contact is {person}, based in {city}."),
    ("fact", "The {service} team runs {tool} for {purpose}."),
    ("fact", "Staging for {service} lives at {service}-staging.internal on port {port}."),
    ("fact", "{service} keeps logs for {small} days and metrics for {number} days."),
    ("fact", "The {service} queue drains about {number} jobs per minute at peak."),
    ("fact", "{person} is the {role} for {service} this {period}."),
    ("fact", "{customer} has a contract limit of {number} seats."),
    ("fact", "The {city} office standup is at {hour}:{minute} on {day}s."),
    ("fact", "{service} is written in {language} and built with {tool}."),
    ("preference", "{person} prefers {service} changes reviewed by two people."),
    ("preference", "{person} wants status updates in the #{service} channel, not by email."),
    ("preference", "{customer} prefers invoices as PDF with the purchase order number."),
    ("preference", "{person} likes short summaries with the numbers first."),
    ("preference", "Use {tool} rather than {tool2} for new {service} jobs."),
    ("decision", "We decided to move {service} to {language} workers in {month}."),
    ("decision", "The team chose {tool} over {tool2} for {purpose}."),
    ("decision", "{service} will drop support for API v{small} after {month}."),
    ("decision", "Releases of {service} freeze from {day} noon until Monday."),
    ("decision", "{customer} gets the {service} beta from {month} on."),
    ("task", "Rotate the {service} API keys before {month} {ordinal}."),
    ("task", "Ask {person} to review the {service} migration plan."),
    ("task", "Upgrade {service} to PostgreSQL {version} after the {month} release."),
    ("task", "Write the runbook for {service} failover to {city}."),
    ("task", "Send {customer} the {month} usage report."),
    ("open-question", "Should {service} keep its {small}-day retention?"),
    ("open-question", "Does {customer} still need the legacy {service} export?"),
    ("open-question", "Who approves {service} spend above {number} {currency}?"),
    ("open-question", "Can {service} share the {tool} cluster with {service2}?"),
    ("fact", "Incident {incident}: {service} returned 5xx for {small} minutes after a bad config push."),
    ("fact", "Error {code} from {service} means the upstream {service2} timed out."),
    ("fact", "{service} depends on {service2} for {purpose}."),
    ("fact", "The {service} budget for {quarter} is {number}k {currency}."),
    ("fact", "{person} moved from the {service} team to {service2} in {month}."),
    ("fact", "{customer} reported slow {service} exports on {day} afternoons."),
)
PURPOSES = (
    "feature flags",
    "background jobs",
    "dashboards",
    "error tracking",
    "secrets",
    "deploys",
    "data pipelines",
    "rate limiting",
    "search indexing",
    "session storage",
    "tax rules",
    "currency conversion",
)
TAILS = (
    "",
    "",
    "",
    " Confirmed by {person} on {day}.",
    " See the {service} wiki page.",
    " This changed after the {month} review.",
    " {person} will double-check it next {day}.",
    " Mentioned in the {customer} call.",
)


def _fill(rng: random.Random, template: str) -> str:
    service, service2 = rng.sample(SERVICES, 2)
    tool, tool2 = rng.sample(TOOLS, 2)
    return template.format(
        service=service,
        service2=service2,
        tool=tool,
        tool2=tool2,
        person=rng.choice(PEOPLE),
        customer=rng.choice(CUSTOMERS),
        city=rng.choice(CITIES),
        day=rng.choice(DAYS),
        month=rng.choice(MONTHS),
        language=rng.choice(LANGUAGES),
        role=rng.choice(ROLES),
        purpose=rng.choice(PURPOSES),
        period=rng.choice(("week", "sprint", "quarter")),
        quarter=f"Q{rng.randint(1, 4)} {rng.randint(2025, 2027)}",
        currency=rng.choice(("EUR", "USD", "GBP")),
        hour=rng.randint(6, 20),
        minute=rng.choice(("00", "15", "30", "45")),
        ordinal=rng.choice(("1st", "5th", "10th", "15th", "20th", "28th")),
        number=rng.randint(20, 5000),
        small=rng.randint(2, 90),
        version=rng.randint(12, 18),
        port=rng.randint(3000, 9999),
        incident=f"INC-{rng.randint(1000, 9999)}",
        code=f"E{rng.randint(100, 999)}",
    )


def note(rng: random.Random) -> tuple[str, str]:
    """One (kind, content) pair."""
    kind, template = rng.choice(FAMILIES)
    return kind, _fill(rng, template) + _fill(rng, rng.choice(TAILS))


def notes(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [note(rng) for _ in range(count)]


QUESTIONS = (
    "When does {service} deploy?",
    "Who owns the {service} service?",
    "What is the rate limit of {service}?",
    "Which database does {service} use?",
    "Who is the contact at {customer}?",
    "How is {customer} billed?",
    "What did we decide about {service}?",
    "What does {person} prefer for reviews?",
    "Which tool do we use for {purpose}?",
    "What happened in the last {service} incident?",
    "What is left to do for {service}?",
    "How long does {service} keep logs?",
)


def question(rng: random.Random) -> str:
    return _fill(rng, rng.choice(QUESTIONS))

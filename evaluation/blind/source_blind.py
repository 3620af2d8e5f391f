"""Blind, held-out labelled statement pairs for the hygiene judge.

Running this module writes ``blind.jsonl`` beside it: 1,000 pairs, 200 per relation, in the line
format of ``evaluation/data/LABELS.md``. Standard library only and deterministic.
Written independently of the training data and its generators.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SEED = 5_310_877
SOURCE = "blind"
PER_RELATION = 200
OUT = Path(__file__).resolve().parent / "blind.jsonl"

# A built pair: (a, b, kind_a, kind_b, domain of the pair).
Pair = tuple[str, str, str, str, str]
Builder = Callable[[random.Random], Pair | None]

# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

SERVICES = (
    "the billing service",
    "the search service",
    "the checkout service",
    "the notifications service",
    "the auth service",
    "the reporting service",
    "the ingest pipeline",
    "the payments API",
    "the inventory service",
    "the export worker",
)
DATABASES = (
    "the staging database",
    "the production database",
    "the analytics database",
    "the QA database",
    "the reporting replica",
)
ENVIRONMENTS = ("staging", "production", "the sandbox", "the QA environment", "the dev environment")
TIERS = ("the free tier", "the pro tier", "the enterprise tier", "the team tier", "the starter tier")
APIS = ("the v1 API", "the v2 API", "the v3 API", "the beta API", "the partner API")
TICKETS = ("OPS-1412", "OPS-1519", "INFRA-208", "BILL-377", "SEC-91", "PLAT-2044")
INCIDENTS = ("INC-331", "INC-347", "INC-352", "INC-360")
HOSTS = ("api.northgrid.dev", "docs.northgrid.dev", "status.northgrid.dev", "auth.northgrid.dev")
WORK = ("Dana", "Kenji", "Sofia", "Arjun", "Mei", "Lukas", "Grace", "Emeka", "Yusuf", "Clara")
REGIONS = ("eu-west-1", "us-east-1", "eu-central-1", "ap-southeast-2", "us-west-2", "ca-central-1")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
PG = ("Postgres 13", "Postgres 14", "Postgres 15", "Postgres 16")

CUSTOMERS = (
    "Northwind",
    "Kestrel Bank",
    "Tallis Health",
    "Orchid Retail",
    "Pinecrest Media",
    "Bluefin Logistics",
    "Halden Energy",
    "Marlow & Finch",
)
CONTACTS = ("Rachel Osei", "Bruno Leal", "Astrid Holm", "Victor Nakamura", "Paula Reyes", "Sam Whitfield")
MONTHS = ("January", "March", "April", "June", "September", "November")

PEOPLE = ("Priya", "Marco", "Zoe", "Hana", "Tomas", "Aisha", "Lena", "Omar", "Ines", "Felix", "Nadia", "Rafael")
FAMILY = ("Mum", "Dad", "my sister Lea", "my brother Jonas", "Grandma Ingrid", "Uncle Pavel")
KIDS = ("Noah", "Ella", "Maya", "Leo")
PETS = ("Biscuit", "Mango", "Ollie", "Saffron", "Pepper", "Bramble")
CITIES = ("Oslo", "Bergen", "Lisbon", "Porto", "Lyon", "Leeds", "Utrecht", "Krakow", "Valencia", "Tallinn")
CLINICS = ("Parkside Vets", "Harbour Animal Clinic", "Elm Street Vets", "Northgate Pet Hospital")
CUISINES = ("Thai", "Peruvian", "Ethiopian", "Georgian", "Korean", "Lebanese", "Sichuan")
APPOINTMENTS = (
    "the dentist appointment",
    "Priya's physio session",
    "the car service",
    "the boiler inspection",
    "Marco's eye test",
    "the parent-teacher meeting",
    "Hana's haircut",
)
SLOT_TIMES = ("Tuesday at 15:00", "Thursday at 9:30", "Monday at 11:00", "Friday at 16:45", "Wednesday at 8:15")
TRIPS = (
    "the flight to Lisbon",
    "the train to Lyon",
    "the ferry to Bergen",
    "the flight home from Krakow",
    "the night bus to Porto",
)
CLOCK = ("07:15", "09:40", "13:05", "18:30", "21:50")
ORDERS = ("order #48213", "order #50977", "order #51340", "order #52118")
SUBSCRIPTIONS = (
    "the streaming subscription",
    "the gym membership",
    "the cloud storage plan",
    "the newspaper subscription",
    "the meal-kit box",
)
SCHOOLS = ("Riverside Primary", "St Anne's School", "Oakfield Academy", "Hillcrest Primary")

DATES = ("1 July", "3 March", "12 September", "1 April", "20 May", "next Monday", "this week")
PREFIX_WORK = ("As of {date}, ", "Starting {date}, ", "Going forward, ", "Update: ", "Effective {date}, ")
PREFIX_HOME = ("As of {date}, ", "Update: ", "From {date}, ")

CHATTER = (
    "Noting this down.",
    "Worth remembering.",
    "Keeping this for reference.",
    "Writing it down so I don't forget.",
    "Just so it's on record.",
    "Saving this for later sessions.",
)
EXTRA = {
    "eng": (
        "The runbook has the details.",
        "Questions go to #platform.",
        "It is written up in the ops wiki.",
        "Worth knowing before the next incident.",
    ),
    "cust": (
        "The CRM has the full history.",
        "Sales ops keeps the paperwork.",
        "Worth knowing before the next call.",
    ),
    "pa": (
        "Keep it in mind when planning.",
        "Good to keep in mind.",
        "Handy to know.",
    ),
}
RATIONALE = {
    "eng": (
        "Agreed in this week's ops review.",
        "The background is in OPS-2291.",
        "It came out of the last incident review.",
        "Announced in #eng-announcements.",
    ),
    "cust": (
        "The customer asked for it on the last call.",
        "It is in the signed order form.",
        "Sales ops has already changed it in the CRM.",
    ),
    "pa": (
        "Heard it on the phone last night.",
        "It came up in the family group chat.",
        "Found out over dinner on Sunday.",
    ),
}

STOP_WORDS = (
    "a an the is are was be been on in at for to of and it its by with we our us has have had after every from "
    "s this that will not does doesn t now day before each up all into no only what which who as or so i my me "
    "they their there do"
)
STOP = frozenset(STOP_WORDS.split(" "))

# --------------------------------------------------------------------------------------------
# Pattern definitions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One attribute of one kind of subject, with its phrasings."""

    name: str
    domain: str
    subjects: tuple[str, ...]
    values: tuple[str, ...]
    plain: tuple[str, ...]
    now: tuple[str, ...] = ()
    cued: tuple[str, ...] = ()
    reorder: tuple[tuple[str, str], ...] = ()
    detail: tuple[str, ...] = ()
    kind: str = "fact"
    single: bool = True
    prefixes: tuple[str, ...] = PREFIX_WORK


@dataclass(frozen=True)
class Flag:
    """A yes/no attribute: affirmed and denied phrasings, and cued changes either way."""

    name: str
    domain: str
    subjects: tuple[str, ...]
    pos: tuple[str, ...]
    neg: tuple[str, ...]
    to_neg: tuple[str, ...] = ()
    to_pos: tuple[str, ...] = ()


@dataclass(frozen=True)
class AttrGroup:
    """Several attributes of one kind of subject that take the same kind of value."""

    name: str
    domain: str
    subjects: tuple[str, ...]
    values: tuple[str, ...]
    templates: tuple[str, ...]


@dataclass(frozen=True)
class Loop:
    """An open loop: a task with done/cancelled outcomes, or a question with answers."""

    name: str
    domain: str
    kind: str
    subjects: tuple[str, ...]
    opens: tuple[str, ...]
    done: tuple[str, ...]
    cancelled: tuple[str, ...] = ()
    values: tuple[str, ...] = ("",)
    done_kind: str = "fact"


SLOTS: tuple[Slot, ...] = (
    Slot(
        "deploy-day",
        "eng",
        SERVICES,
        WEEKDAYS,
        plain=(
            "{S} deploys on {v}s.",
            "Deploys for {s} go out on {v}s.",
            "{Sp} deploy day is {v}.",
            "We ship {s} every {v}.",
        ),
        now=("{S} now deploys on {v}s.", "{S} deploys on {v}s now."),
        cued=(
            "{Sp} deploy day moved to {v}.",
            "{Sp} deploy day changed from {old} to {v}.",
            "We switched {s} deploys from {old}s to {v}s.",
            "{S} no longer deploys on {old}s; it ships on {v}s instead.",
            "Deploys for {s} were moved from {old} to {v}.",
            "Updated: {sp} deploy day is {v}.",
        ),
        reorder=(
            ("{S} deploys on {v}s.", "On {v}s, {s} deploys."),
            ("{Sp} deploy day is {v}.", "{V} is {sp} deploy day."),
        ),
        detail=(
            "{S} deploys on {v}s, between 14:00 and 16:00 UTC.",
            "{S} deploys on {v}s. Each deploy needs a second approver in #deploys.",
            "Deploys for {s} go out on {v}s, and a smoke test runs right after each one.",
        ),
    ),
    Slot(
        "service-region",
        "eng",
        SERVICES,
        REGIONS,
        plain=("{S} runs in {v}.", "{S} is hosted in {v}.", "{Sp} primary region is {v}.", "We host {s} in {v}."),
        now=("{S} now runs in {v}.", "{S} is hosted in {v} now."),
        cued=(
            "{S} moved to {v}.",
            "We migrated {s} from {old} to {v}.",
            "{Sp} primary region changed from {old} to {v}.",
            "{S} no longer runs in {old}; it is hosted in {v} instead.",
            "{S} was moved over to {v} last week.",
        ),
        reorder=(("{Sp} primary region is {v}.", "The primary region for {s} is {v}."),),
        detail=(
            "{S} runs in {v}, spread across three availability zones.",
            "{S} is hosted in {v}. Its read replicas sit in the same region.",
        ),
    ),
    Slot(
        "request-timeout",
        "eng",
        SERVICES,
        ("10 seconds", "15 seconds", "30 seconds", "45 seconds", "60 seconds", "2 minutes"),
        plain=(
            "{S} times out after {v}.",
            "The request timeout for {s} is {v}.",
            "Calls to {s} give up after {v}.",
            "{Sp} request timeout is set to {v}.",
        ),
        now=("{S} now times out after {v}.", "The request timeout for {s} is now {v}."),
        cued=(
            "The request timeout for {s} changed from {old} to {v}.",
            "We set {sp} timeout to {v} instead of {old}.",
            "{Sp} request timeout was updated to {v}.",
            "{S} no longer gives up after {old}; the timeout is {v} now.",
        ),
        reorder=(("The request timeout for {s} is {v}.", "{V} is the request timeout for {s}."),),
        detail=(
            "{S} times out after {v}, and the client retries once.",
            "{S} times out after {v}. The load balancer's idle timeout is set a little higher to match.",
        ),
    ),
    Slot(
        "tier-rate-limit",
        "eng",
        TIERS,
        (
            "60 requests a minute",
            "120 requests a minute",
            "300 requests a minute",
            "600 requests a minute",
            "1,000 requests a minute",
            "5,000 requests a minute",
        ),
        plain=(
            "{S} is rate-limited to {v}.",
            "The rate limit on {s} is {v}.",
            "Customers on {s} can make {v}.",
            "{S} allows {v}.",
        ),
        now=("{S} is now rate-limited to {v}.", "The rate limit on {s} is now {v}."),
        cued=(
            "The rate limit on {s} went from {old} to {v}.",
            "We changed the rate limit on {s} to {v}.",
            "{Sp} rate limit was updated to {v}.",
            "{S} is capped at {v} instead of {old}.",
            "Starting {date}, {s} is capped at {v}.",
        ),
        reorder=(("The rate limit on {s} is {v}.", "{V} is the rate limit on {s}."),),
        detail=(
            "{S} is rate-limited to {v}, with bursts of up to twice that for ten seconds.",
            "The rate limit on {s} is {v}. Requests over the limit get a 429 with a Retry-After header.",
        ),
    ),
    Slot(
        "tier-log-retention",
        "eng",
        TIERS,
        ("7 days", "14 days", "30 days", "90 days"),
        plain=("{S} keeps logs for {v}.", "Log retention on {s} is {v}.", "Logs on {s} are kept for {v}."),
        now=("{S} now keeps logs for {v}.",),
        cued=(
            "Log retention on {s} went from {old} to {v}.",
            "We changed log retention on {s} to {v}.",
            "{S} no longer keeps logs for {old}; retention is {v} instead.",
        ),
        reorder=(("Log retention on {s} is {v}.", "{V} is the log retention on {s}."),),
        detail=("{S} keeps logs for {v}, and exports to S3 are available on request.",),
    ),
    Slot(
        "db-version",
        "eng",
        DATABASES,
        PG,
        plain=("{S} runs {v}.", "{S} is on {v}.", "{Sp} engine version is {v}."),
        now=("{S} now runs {v}.", "{S} is on {v} now."),
        cued=(
            "{S} moved from {old} to {v}.",
            "We switched {s} to {v}.",
            "{Sp} engine version changed from {old} to {v}.",
            "{S} is no longer on {old}; it runs {v} instead.",
            "Updated: {s} runs {v}.",
        ),
        reorder=(("{Sp} engine version is {v}.", "{V} is {sp} engine version."),),
        detail=(
            "{S} runs {v}, with the pgvector extension installed.",
            "{S} runs {v}. Minor versions are patched automatically in the maintenance window.",
        ),
    ),
    Slot(
        "maintenance-window",
        "eng",
        ENVIRONMENTS,
        ("Sunday 02:00-04:00 UTC", "Saturday 22:00-00:00 UTC", "Tuesday 01:00-03:00 UTC", "Wednesday 23:00-01:00 UTC"),
        plain=(
            "The maintenance window for {s} is {v}.",
            "{Sp} maintenance window is {v}.",
            "Maintenance on {s} happens {v}.",
        ),
        now=("The maintenance window for {s} is now {v}.",),
        cued=(
            "The maintenance window for {s} moved to {v}.",
            "{Sp} maintenance window changed from {old} to {v}.",
            "We rescheduled maintenance on {s} to {v}.",
            "Maintenance on {s} no longer happens {old}; it is {v} instead.",
        ),
        reorder=(("The maintenance window for {s} is {v}.", "{V} is the maintenance window for {s}."),),
        detail=("The maintenance window for {s} is {v}, announced 48 hours ahead on the status page.",),
    ),
    Slot(
        "alert-channel",
        "eng",
        SERVICES,
        ("#ops-alerts", "#platform-pager", "#sre-critical", "#eng-alerts"),
        plain=("Alerts for {s} go to {v}.", "{S} sends its alerts to {v}.", "{Sp} alerts land in {v}."),
        now=("Alerts for {s} now go to {v}.",),
        cued=(
            "Alerts for {s} were moved to {v}.",
            "We rerouted {s} alerts from {old} to {v}.",
            "{S} no longer alerts in {old}; alerts go to {v} instead.",
            "Going forward, {sp} alerts land in {v}.",
        ),
        detail=("Alerts for {s} go to {v}, and P1 alerts also page the on-call phone.",),
        single=False,
    ),
    Slot(
        "service-owner",
        "eng",
        SERVICES,
        WORK,
        plain=("{V} owns {s}.", "{S} is owned by {v}.", "The owner of {s} is {v}."),
        now=("{S} is now owned by {v}.", "{V} now owns {s}."),
        cued=(
            "{V} took over {s} from {old}.",
            "Ownership of {s} moved from {old} to {v}.",
            "{Old} no longer owns {s}; {v} does instead.",
            "{V} has taken over ownership of {s}.",
            "{Old} handed {s} over to {v}.",
        ),
        reorder=(("The owner of {s} is {v}.", "{V} is the owner of {s}."),),
        detail=(
            "{V} owns {s} and reviews every change to its schema.",
            "{V} owns {s}. Design questions go to {v} first.",
        ),
    ),
    Slot(
        "ticket-assignee",
        "eng",
        TICKETS,
        WORK,
        plain=("{S} is assigned to {v}.", "{V} is working on {s}.", "The assignee on {s} is {v}."),
        now=("{S} is now assigned to {v}.",),
        cued=(
            "{S} was reassigned from {old} to {v}.",
            "{V} took over {s} from {old}.",
            "{Old} handed {s} to {v}.",
            "{S} is no longer with {old}; {v} has it instead.",
        ),
        reorder=(
            ("{S} is assigned to {v}.", "Assigned to {v}: {s}."),
            ("The assignee on {s} is {v}.", "{V} is the assignee on {s}."),
        ),
        detail=(
            "{S} is assigned to {v}, who expects to ship a fix this sprint.",
            "{S} is assigned to {v}. It is blocked on a vendor reply.",
        ),
    ),
    Slot(
        "ticket-priority",
        "eng",
        TICKETS,
        ("P1", "P2", "P3", "P4"),
        plain=("{S} is a {v}.", "{S} has priority {v}.", "The priority of {s} is {v}."),
        now=("{S} is now a {v}.",),
        cued=(
            "{S} was re-prioritised from {old} to {v}.",
            "{Sp} priority changed to {v}.",
            "We moved {s} from {old} to {v}.",
        ),
        reorder=(("The priority of {s} is {v}.", "{V} is the priority of {s}."),),
        detail=("{S} is a {v}, with a customer waiting on it.",),
    ),
    Slot(
        "service-runtime",
        "eng",
        SERVICES,
        ("Python 3.10", "Python 3.11", "Python 3.12", "Python 3.13"),
        plain=("{S} runs on {v}.", "{S} is built on {v}.", "The runtime for {s} is {v}."),
        now=("{S} now runs on {v}.",),
        cued=(
            "{S} moved from {old} to {v}.",
            "We switched {sp} runtime to {v}.",
            "{S} is no longer on {old}; it runs on {v} instead.",
            "As of {date}, {s} is built on {v}.",
        ),
        reorder=(("The runtime for {s} is {v}.", "{V} is the runtime for {s}."),),
        detail=("{S} runs on {v}, pinned in its Dockerfile.",),
    ),
    Slot(
        "api-pagination",
        "eng",
        APIS,
        ("cursor-based", "offset-based", "page-number-based"),
        plain=("Pagination in {s} is {v}.", "{S} uses {v} pagination."),
        now=("{S} now uses {v} pagination.",),
        cued=(
            "{S} switched from {old} to {v} pagination.",
            "Pagination in {s} changed to {v}.",
            "{S} no longer uses {old} pagination; it is {v} instead.",
        ),
        detail=("{S} uses {v} pagination, with a maximum page size of 100.",),
    ),
    Slot(
        "api-sunset",
        "eng",
        APIS,
        ("30 June", "31 December", "1 March", "30 September"),
        plain=("{S} is retired on {v}.", "Support for {s} ends on {v}.", "The sunset date for {s} is {v}."),
        now=("Support for {s} now ends on {v}.",),
        cued=(
            "The sunset date for {s} moved to {v}.",
            "The sunset for {s} was rescheduled from {old} to {v}.",
            "{S} is no longer retired on {old}; the sunset date is {v} instead.",
        ),
        reorder=(("The sunset date for {s} is {v}.", "{V} is the sunset date for {s}."),),
        detail=("Support for {s} ends on {v}. Clients get a Sunset header until then.",),
    ),
    Slot(
        "job-queue",
        "eng",
        SERVICES,
        ("Redis", "RabbitMQ", "SQS", "Kafka"),
        plain=(
            "We use {v} as the job queue for {s}.",
            "{S} uses {v} as its job queue.",
            "The job queue behind {s} is {v}.",
        ),
        now=("{S} now uses {v} as its job queue.",),
        cued=(
            "{V} replaced {old} as the job queue for {s}.",
            "We switched {sp} job queue from {old} to {v}.",
            "{S} no longer queues jobs in {old}; it uses {v} instead.",
            "Decision: going forward, {s} queues its jobs in {v}.",
        ),
        reorder=(("{S} uses {v} as its job queue.", "As its job queue, {s} uses {v}."),),
        detail=("We use {v} as the job queue for {s}, with a dead-letter queue for failed jobs.",),
        kind="decision",
    ),
    Slot(
        "rollback-procedure",
        "eng",
        SERVICES,
        (
            "the deploy bot's undo command",
            "a Helm rollback",
            "the Argo CD history view",
            "the rollback script in the ops repo",
        ),
        plain=("To roll back {s}, use {v}.", "Rollbacks of {s} are done with {v}.", "{S} is rolled back with {v}."),
        now=("Rollbacks of {s} are now done with {v}.",),
        cued=(
            "Use {v} instead of {old} to roll back {s}.",
            "Rollbacks of {s} moved from {old} to {v}.",
            "Going forward, roll back {s} with {v}.",
        ),
        reorder=(("To roll back {s}, use {v}.", "Use {v} to roll back {s}."),),
        detail=("To roll back {s}, use {v}, then post the reverted commit in #deploys.",),
        kind="procedure",
        single=False,
    ),
    Slot(
        "migration-plan",
        "eng",
        SERVICES,
        ("Kubernetes", "ECS", "Cloud Run", "Nomad"),
        plain=(
            "The plan is to move {s} to {v} next quarter.",
            "Next quarter we intend to migrate {s} to {v}.",
            "{S} is slated to move to {v} next quarter.",
        ),
        now=("The plan is now to move {s} to {v} next quarter.",),
        cued=(
            "The plan changed: {s} moves to {v} next quarter instead of {old}.",
            "We dropped {old} as the target for {s}; it goes to {v} instead.",
            "Updated plan: {s} migrates to {v} next quarter.",
        ),
        detail=("The plan is to move {s} to {v} next quarter, starting with the read-only endpoints.",),
        kind="plan",
        prefixes=("Update: ",),
    ),
    # ----- customers and accounts -----
    Slot(
        "account-manager",
        "cust",
        CUSTOMERS,
        WORK,
        plain=("{V} is {sp} account manager.", "{Sp} account manager is {v}.", "{V} manages the {s} account."),
        now=("{Sp} account manager is now {v}.", "{V} now manages the {s} account."),
        cued=(
            "{V} took over the {s} account from {old}.",
            "The {s} account moved from {old} to {v}.",
            "{Old} handed the {s} account over to {v}.",
            "{Old} no longer manages {s}; {v} does instead.",
            "Starting {date}, {v} is {sp} account manager.",
        ),
        reorder=(("{V} is {sp} account manager.", "{Sp} account manager is {v}."),),
        detail=(
            "{V} is {sp} account manager and joins their monthly steering call.",
            "{V} is {sp} account manager. Escalations go through {v} before support.",
        ),
        prefixes=PREFIX_WORK,
    ),
    Slot(
        "customer-plan",
        "cust",
        CUSTOMERS,
        ("the free plan", "the pro plan", "the team plan", "the enterprise plan"),
        plain=("{S} is on {v}.", "{S} pays for {v}.", "{Sp} subscription is {v}."),
        now=("{S} is now on {v}.", "{S} is on {v} now."),
        cued=(
            "{S} switched from {old} to {v}.",
            "{S} moved to {v}.",
            "{Sp} plan changed to {v}.",
            "{S} is no longer on {old}; they pay for {v} instead.",
            "As of {date}, {s} is on {v}.",
        ),
        detail=(
            "{S} is on {v}, with a shared Slack channel for support.",
            "{S} is on {v}. They also bought the audit-log add-on.",
        ),
    ),
    Slot(
        "renewal-month",
        "cust",
        CUSTOMERS,
        MONTHS,
        plain=("{Sp} contract renews in {v}.", "{S} is up for renewal in {v}.", "The {s} renewal is due in {v}."),
        now=("{Sp} contract now renews in {v}.",),
        cued=(
            "{Sp} renewal moved from {old} to {v}.",
            "{Sp} renewal date changed to {v}.",
            "The {s} renewal is no longer in {old}; it is due in {v} instead.",
            "Updated: {s} is up for renewal in {v}.",
        ),
        reorder=(("{Sp} contract renews in {v}.", "In {v}, {sp} contract renews."),),
        detail=("{Sp} contract renews in {v}, and they want a multi-year quote.",),
    ),
    Slot(
        "main-contact",
        "cust",
        CUSTOMERS,
        CONTACTS,
        plain=(
            "Our main contact at {s} is {v}.",
            "{V} is our main contact at {s}.",
            "At {s}, we deal mainly with {v}.",
        ),
        now=("Our main contact at {s} is now {v}.",),
        cued=(
            "{V} replaced {old} as our main contact at {s}.",
            "The main contact at {s} changed from {old} to {v}.",
            "{Old} is no longer our contact at {s}; we go through {v} instead.",
            "Going forward, we reach {s} through {v}.",
        ),
        reorder=(("Our main contact at {s} is {v}.", "{V} is our main contact at {s}."),),
        detail=("Our main contact at {s} is {v}, who prefers calls on Tuesday mornings.",),
    ),
    Slot(
        "seat-count",
        "cust",
        CUSTOMERS,
        ("25", "40", "75", "120", "200"),
        plain=("{S} has {v} seats.", "{Sp} licence covers {v} seats.", "{S} pays for {v} seats."),
        now=("{S} now has {v} seats.",),
        cued=(
            "{S} went from {old} to {v} seats.",
            "{Sp} seat count was updated to {v}.",
            "{S} changed its licence to {v} seats.",
        ),
        detail=("{S} has {v} seats, most of them in their support team.",),
    ),
    Slot(
        "support-sla",
        "cust",
        CUSTOMERS,
        ("1 hour", "4 hours", "8 business hours", "24 hours"),
        plain=(
            "{Sp} support SLA is {v}.",
            "We owe {s} a first response within {v}.",
            "{S} gets a first response within {v}.",
        ),
        now=("{Sp} support SLA is now {v}.",),
        cued=(
            "{Sp} support SLA changed from {old} to {v}.",
            "{S} no longer has a {old} SLA; it is {v} instead.",
            "Starting {date}, {s} gets a first response within {v}.",
        ),
        reorder=(("{Sp} support SLA is {v}.", "{V} is {sp} support SLA."),),
        detail=("{Sp} support SLA is {v}, weekends included.",),
    ),
    Slot(
        "invoice-currency",
        "cust",
        CUSTOMERS,
        ("euros", "US dollars", "pounds", "Swiss francs"),
        plain=("{S} is invoiced in {v}.", "We bill {s} in {v}.", "{Sp} invoices are in {v}."),
        now=("{S} is now invoiced in {v}.",),
        cued=(
            "{S} switched invoicing from {old} to {v}.",
            "We bill {s} in {v} instead of {old}.",
            "{Sp} invoicing currency changed to {v}.",
        ),
        reorder=(("{S} is invoiced in {v}.", "In {v}, {s} is invoiced."),),
        detail=("{S} is invoiced in {v}, on 30-day payment terms.",),
    ),
    # ----- personal assistant -----
    Slot(
        "home-city",
        "pa",
        PEOPLE + FAMILY,
        CITIES,
        plain=("{S} lives in {v}.", "{Sp} home is in {v}.", "Home for {s} is {v}."),
        now=("{S} lives in {v} now.", "{S} now lives in {v}."),
        cued=(
            "{S} moved to {v}.",
            "{S} moved from {old} to {v}.",
            "{S} no longer lives in {old}; home is {v} instead.",
            "{S} has relocated to {v}.",
            "As of {date}, {s} lives in {v}.",
        ),
        detail=(
            "{S} lives in {v}, in a flat close to the city centre.",
            "{S} lives in {v}. The nearest airport is about forty minutes away.",
        ),
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "job",
        "pa",
        PEOPLE,
        ("a nurse", "a data analyst", "a primary school teacher", "an architect", "a pharmacist", "a civil engineer"),
        plain=("{S} works as {v}.", "{S} is {v} by profession.", "{S} earns a living as {v}."),
        now=("{S} now works as {v}.",),
        cued=(
            "{S} is no longer {old} and works as {v} instead.",
            "{S} changed careers and now works as {v}.",
            "{S} switched from being {old} to working as {v}.",
        ),
        detail=("{S} works as {v} and has done for about six years.",),
        single=False,
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "favourite-cuisine",
        "pa",
        PEOPLE + FAMILY,
        CUISINES,
        plain=("{Sp} favourite cuisine is {v}.", "{S} likes {v} food best.", "{V} food is {sp} favourite."),
        now=("{Sp} favourite cuisine is now {v}.", "{S} likes {v} food best now."),
        cued=(
            "{Sp} favourite cuisine changed from {old} to {v}.",
            "{S} no longer picks {old}; {v} is the favourite now.",
            "{S} has switched favourites from {old} to {v} food.",
        ),
        reorder=(("{Sp} favourite cuisine is {v}.", "{V} is {sp} favourite cuisine."),),
        detail=("{Sp} favourite cuisine is {v}. Good pick for a birthday dinner.",),
        kind="preference",
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "drink-order",
        "pa",
        PEOPLE,
        ("a flat white with oat milk", "a black americano", "a chai latte", "a decaf cappuccino", "green tea"),
        plain=("{Sp} usual coffee-shop order is {v}.", "{S} always orders {v}.", "At the cafe, {s} gets {v}."),
        now=("{Sp} usual coffee-shop order is now {v}.",),
        cued=(
            "{S} switched from {old} to {v}.",
            "{S} no longer orders {old}; it's {v} instead.",
            "{Sp} usual order changed to {v}.",
        ),
        reorder=(("{S} always orders {v}.", "{V} is what {s} always orders."),),
        detail=("{S} always orders {v}, extra hot.",),
        kind="preference",
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "seat-preference",
        "pa",
        PEOPLE + FAMILY,
        ("aisle", "window"),
        plain=("{S} prefers {v} seats on flights.", "On flights, {s} likes {v} seats."),
        now=("{S} prefers {v} seats on flights now.",),
        cued=("{S} switched from {old} to {v} seats.", "{S} no longer wants {old} seats; book {v} instead."),
        reorder=(("{S} prefers {v} seats on flights.", "On flights, {s} prefers {v} seats."),),
        detail=("{S} prefers {v} seats on flights, near the front if possible.",),
        kind="preference",
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "pet-vet",
        "pa",
        PETS,
        CLINICS,
        plain=("{S} is registered at {v}.", "{Sp} vet is {v}.", "{S} sees the vet at {v}."),
        now=("{S} is registered at {v} now.",),
        cued=(
            "{Sp} vet changed from {old} to {v}.",
            "We moved {s} to {v}.",
            "{S} is no longer registered at {old}; we use {v} instead.",
        ),
        reorder=(("{Sp} vet is {v}.", "{V} is {sp} vet."),),
        detail=("{S} is registered at {v}, and the insurance number is on file there.",),
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "pet-food",
        "pa",
        PETS,
        ("salmon kibble", "grain-free chicken kibble", "wet lamb food", "a raw diet"),
        plain=("{S} eats {v}.", "{Sp} food is {v}.", "We feed {s} {v}."),
        now=("{S} eats {v} now.", "{S} is on {v} now."),
        cued=(
            "{S} switched from {old} to {v}.",
            "We changed {sp} food to {v}.",
            "{S} no longer eats {old}; {v} instead.",
        ),
        reorder=(("{S} eats {v}.", "{V} is what {s} eats."),),
        detail=("{S} eats {v}, two small meals a day.",),
        single=False,
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "appointment-time",
        "pa",
        APPOINTMENTS,
        SLOT_TIMES,
        plain=("{S} is on {v}.", "{S} is booked for {v}.", "We have {s} on {v}."),
        now=("{S} is now on {v}.",),
        cued=(
            "{S} was rescheduled to {v}.",
            "{S} moved from {old} to {v}.",
            "{S} got rescheduled from {old} to {v}.",
            "{S} is no longer on {old}; it is on {v} instead.",
        ),
        reorder=(("{S} is on {v}.", "On {v} is {s}."),),
        detail=("{S} is on {v}; allow twenty minutes to park.",),
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "departure-time",
        "pa",
        TRIPS,
        CLOCK,
        plain=("{S} leaves at {v}.", "{S} departs at {v}.", "Departure for {s} is at {v}."),
        now=("{S} now leaves at {v}.",),
        cued=(
            "{S} was moved to {v}.",
            "{S} was rescheduled from {old} to {v}.",
            "The departure time of {s} changed to {v}.",
            "{S} no longer leaves at {old}; it departs at {v} instead.",
        ),
        reorder=(("{S} leaves at {v}.", "At {v}, {s} leaves."),),
        detail=("{S} leaves at {v}, and the booking reference is in the travel folder.",),
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "delivery-day",
        "pa",
        ORDERS,
        ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"),
        plain=("{S} arrives on {v}.", "{S} is due for delivery on {v}.", "Delivery for {s} is expected on {v}."),
        now=("{S} now arrives on {v}.",),
        cued=(
            "Delivery for {s} moved to {v}.",
            "The courier rescheduled {s} to {v}.",
            "{S} is arriving on {v} instead of {old}.",
            "{Sp} delivery day changed from {old} to {v}.",
        ),
        reorder=(("{S} arrives on {v}.", "On {v}, {s} arrives."),),
        detail=("{S} arrives on {v}, between 8:00 and 12:00.",),
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "subscription-price",
        "pa",
        SUBSCRIPTIONS,
        ("€8.99", "€12.99", "€15", "€24", "€39"),
        plain=("{S} costs {v} a month.", "We pay {v} a month for {s}.", "The monthly price of {s} is {v}."),
        now=("{S} costs {v} a month now.", "{S} now costs {v} a month."),
        cued=(
            "{S} changed from {old} to {v} a month.",
            "The monthly price of {s} was updated to {v}.",
            "As of {date}, {s} is {v} a month.",
        ),
        reorder=(("{S} costs {v} a month.", "{V} a month is what {s} costs."),),
        detail=("{S} costs {v} a month and renews on the 3rd.",),
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "school",
        "pa",
        KIDS,
        SCHOOLS,
        plain=("{S} goes to {v}.", "{S} is a pupil at {v}.", "{Sp} school is {v}."),
        now=("{S} goes to {v} now.",),
        cued=(
            "{S} moved schools from {old} to {v}.",
            "{S} switched to {v}.",
            "{S} is no longer at {old}; they go to {v} instead.",
        ),
        reorder=(("{Sp} school is {v}.", "{V} is {sp} school."),),
        detail=("{S} goes to {v}; pickup is at 15:15.",),
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "gym-day",
        "pa",
        PEOPLE,
        WEEKDAYS,
        plain=("{S} goes to the gym on {v}s.", "{Sp} gym day is {v}.", "{S} trains at the gym every {v}."),
        now=("{S} goes to the gym on {v}s now.",),
        cued=(
            "{Sp} gym day moved to {v}.",
            "{S} switched gym days from {old} to {v}.",
            "{S} no longer goes to the gym on {old}s; {v}s instead.",
        ),
        reorder=(("{Sp} gym day is {v}.", "{V} is {sp} gym day."),),
        detail=("{S} goes to the gym on {v}s, usually straight after work.",),
        single=False,
        prefixes=PREFIX_HOME,
    ),
    Slot(
        "birthday",
        "pa",
        PEOPLE + FAMILY,
        ("3 March", "17 July", "9 October", "22 December", "28 February", "14 May"),
        plain=("{Sp} birthday is on {v}.", "{S} has a birthday on {v}.", "{Sp} birthday falls on {v}."),
        reorder=(("{Sp} birthday is on {v}.", "On {v} is {sp} birthday."),),
        detail=("{Sp} birthday is on {v}; a card and a call are enough.",),
        prefixes=PREFIX_HOME,
    ),
)

FLAGS: tuple[Flag, ...] = (
    Flag(
        "autoscaling",
        "eng",
        SERVICES,
        pos=("{S} has autoscaling enabled.", "Autoscaling is on for {s}."),
        neg=("{S} does not have autoscaling enabled.", "Autoscaling is off for {s}."),
        to_neg=("{S} no longer has autoscaling enabled.", "Autoscaling was turned off for {s}."),
        to_pos=("Autoscaling is now on for {s}.", "We turned on autoscaling for {s}."),
    ),
    Flag(
        "vpn-only",
        "eng",
        SERVICES,
        pos=("{S} is only reachable over the VPN.", "You need the VPN to reach {s}."),
        neg=("{S} is reachable without the VPN.", "You do not need the VPN to reach {s}."),
        to_neg=("{S} no longer needs the VPN.", "{S} is reachable without the VPN now."),
        to_pos=("{S} now requires the VPN.",),
    ),
    Flag(
        "encrypted-at-rest",
        "eng",
        DATABASES,
        pos=("{S} is encrypted at rest.", "Encryption at rest is enabled on {s}."),
        neg=("{S} is not encrypted at rest.", "Encryption at rest is not enabled on {s}."),
        to_pos=("{S} is now encrypted at rest.", "We enabled encryption at rest on {s}."),
    ),
    Flag(
        "annual-billing",
        "cust",
        CUSTOMERS,
        pos=("{S} is on annual billing.", "{S} pays once a year."),
        neg=("{S} is not on annual billing.", "{S} does not pay annually."),
        to_neg=("{S} is no longer on annual billing.",),
        to_pos=("{S} switched to annual billing.", "{S} is on annual billing now."),
    ),
    Flag(
        "sso",
        "cust",
        CUSTOMERS,
        pos=("{S} has SSO enabled.", "{S} logs in through SSO."),
        neg=("{S} does not have SSO enabled.", "{S} does not use SSO."),
        to_neg=("{S} no longer uses SSO.",),
        to_pos=("{S} now has SSO enabled.", "We turned on SSO for {s}."),
    ),
    Flag(
        "reference-customer",
        "cust",
        CUSTOMERS,
        pos=("{S} is a reference customer.", "{S} agreed to act as a reference for us."),
        neg=("{S} is not a reference customer.", "{S} won't act as a reference for us."),
        to_neg=("{S} is no longer a reference customer.",),
        to_pos=("{S} is now a reference customer.",),
    ),
    Flag(
        "eats-meat",
        "pa",
        PEOPLE + FAMILY,
        pos=("{S} eats meat.", "{S} is fine with meat dishes."),
        neg=("{S} doesn't eat meat.", "{S} avoids meat entirely."),
        to_neg=("{S} no longer eats meat.", "{S} has stopped eating meat."),
        to_pos=("{S} eats meat now.", "{S} has started eating meat."),
    ),
    Flag(
        "drinks-coffee",
        "pa",
        PEOPLE + FAMILY,
        pos=("{S} drinks coffee.", "{S} is a coffee drinker."),
        neg=("{S} doesn't drink coffee.", "{S} is not a coffee drinker."),
        to_neg=("{S} has given up coffee.", "{S} doesn't drink coffee anymore."),
        to_pos=("{S} drinks coffee now.",),
    ),
    Flag(
        "driving-licence",
        "pa",
        PEOPLE,
        pos=("{S} has a driving licence.", "{S} is licensed to drive."),
        neg=("{S} doesn't have a driving licence.", "{S} is not licensed to drive."),
        to_pos=("{S} now has a driving licence.", "{S} passed the driving test and can drive now."),
    ),
    Flag(
        "works-remotely",
        "pa",
        PEOPLE,
        pos=("{S} works remotely.", "{S} works from home full-time."),
        neg=("{S} doesn't work remotely.", "{S} does not work from home."),
        to_neg=("{S} no longer works remotely.", "{S} is back in the office full-time now."),
        to_pos=("{S} works remotely now.",),
    ),
    Flag(
        "penicillin-allergy",
        "pa",
        PEOPLE + FAMILY,
        pos=("{S} is allergic to penicillin.", "{S} has a penicillin allergy."),
        neg=("{S} is not allergic to penicillin.", "{S} has no penicillin allergy."),
    ),
)

ATTR_GROUPS: tuple[AttrGroup, ...] = (
    AttrGroup(
        "person-city",
        "pa",
        PEOPLE,
        CITIES,
        ("{S} lives in {v}.", "{S} works in {v}.", "{S} grew up in {v}.", "{S} studied in {v}."),
    ),
    AttrGroup(
        "service-day",
        "eng",
        SERVICES,
        WEEKDAYS,
        (
            "{S} deploys on {v}s.",
            "{Sp} on-call rotation hands over on {v}s.",
            "{Sp} load tests run every {v}.",
            "{Sp} dependency updates are merged on {v}s.",
        ),
    ),
    AttrGroup(
        "service-region",
        "eng",
        SERVICES,
        REGIONS,
        ("{S} runs in {v}.", "{Sp} backups are replicated to {v}.", "{Sp} disaster-recovery standby is in {v}."),
    ),
    AttrGroup(
        "service-duration",
        "eng",
        SERVICES,
        ("30 seconds", "60 seconds", "5 minutes", "10 minutes"),
        (
            "{S} times out after {v}.",
            "{S} caches responses for {v}.",
            "{Sp} health check runs every {v}.",
            "{S} flushes its metrics every {v}.",
        ),
    ),
    AttrGroup(
        "customer-month",
        "cust",
        CUSTOMERS,
        MONTHS,
        (
            "{Sp} contract renews in {v}.",
            "{Sp} quarterly business review is in {v}.",
            "{S} went live with us in {v}.",
            "{Sp} security audit is scheduled for {v}.",
        ),
    ),
    AttrGroup(
        "customer-person",
        "cust",
        CUSTOMERS,
        WORK,
        (
            "{V} is {sp} account manager.",
            "{V} is the support lead for {s}.",
            "{V} ran {sp} onboarding.",
            "{V} wrote {sp} integration guide.",
        ),
    ),
    AttrGroup(
        "customer-region",
        "cust",
        CUSTOMERS,
        REGIONS,
        ("{Sp} data is hosted in {v}.", "{Sp} sandbox runs in {v}.", "{Sp} backups are kept in {v}."),
    ),
    AttrGroup(
        "tier-number",
        "eng",
        TIERS,
        ("5", "10", "25", "50"),
        (
            "{S} allows {v} projects.",
            "{S} includes {v} seats.",
            "{S} keeps {v} days of logs.",
            "{S} allows {v} API keys per project.",
        ),
    ),
    AttrGroup(
        "person-day",
        "pa",
        PEOPLE,
        WEEKDAYS,
        (
            "{S} goes to the gym on {v}s.",
            "{S} works from home on {v}s.",
            "{S} has piano lessons on {v}s.",
            "{S} does the school run on {v}s.",
        ),
    ),
    AttrGroup(
        "ticket-person",
        "eng",
        TICKETS,
        WORK,
        ("{S} is assigned to {v}.", "{S} was reported by {v}.", "{S} is being code-reviewed by {v}."),
    ),
    AttrGroup(
        "family-date",
        "pa",
        FAMILY,
        ("3 March", "17 July", "9 October", "22 December"),
        ("{Sp} birthday is on {v}.", "{Sp} wedding anniversary is on {v}.", "{S} flies back from holiday on {v}."),
    ),
    AttrGroup(
        "person-cuisine",
        "pa",
        PEOPLE,
        CUISINES,
        (
            "{Sp} favourite cuisine is {v}.",
            "{S} is taking a {v} cooking class.",
            "{S} is writing a blog about {v} street food.",
        ),
    ),
)

TASKS: tuple[Loop, ...] = (
    Loop(
        "renew-cert",
        "eng",
        "task",
        HOSTS,
        opens=(
            "Renew the TLS certificate for {s} before it expires.",
            "The TLS certificate for {s} needs renewing before it expires.",
            "To do: renew the certificate on {s} before it lapses.",
        ),
        done=(
            "Renewed the TLS certificate for {s}; it is good for another year.",
            "Done: the TLS certificate for {s} has been renewed.",
        ),
        cancelled=(
            "Cancelled the certificate renewal for {s}; the host is being shut down.",
            "Dropped the task to renew the certificate for {s}, since the host is going away.",
        ),
    ),
    Loop(
        "rotate-password",
        "eng",
        "task",
        DATABASES,
        opens=(
            "Rotate the password for {s}.",
            "The password on {s} needs rotating.",
            "To do: password rotation for {s}.",
        ),
        done=("Rotated the password for {s}.", "Password rotation for {s} is done."),
        cancelled=(
            "Not rotating the password for {s} after all; it is moving to IAM auth.",
            "Cancelled the password rotation for {s}.",
        ),
    ),
    Loop(
        "pg-upgrade",
        "eng",
        "task",
        DATABASES,
        opens=("Upgrade {s} to Postgres 16.", "{S} needs an upgrade to Postgres 16."),
        done=("Upgraded {s} to Postgres 16.", "The Postgres 16 upgrade of {s} is done."),
        cancelled=(
            "Cancelled the Postgres 16 upgrade for {s}; it is being decommissioned.",
            "Dropping the Postgres 16 upgrade for {s}; not worth it this year.",
        ),
    ),
    Loop(
        "postmortem",
        "eng",
        "task",
        INCIDENTS,
        opens=("Write the postmortem for {s}.", "The postmortem for {s} still needs writing."),
        done=("Wrote the postmortem for {s} and shared it in #incidents.", "The postmortem for {s} is done."),
        cancelled=(
            "Skipping the postmortem for {s}; it turned out to be a false alarm.",
            "No postmortem for {s} after all, cancelled.",
        ),
    ),
    Loop(
        "fix-ticket",
        "eng",
        "task",
        TICKETS,
        opens=("Fix {s} before the sprint ends.", "{S} has to be fixed before the end of the sprint."),
        done=("{S} is fixed and closed.", "Closed {s}; the fix is in production."),
        cancelled=("{S} was closed as won't-fix.", "Dropped {s}; it duplicated another ticket."),
    ),
    Loop(
        "renewal-quote",
        "cust",
        "task",
        CUSTOMERS,
        opens=("Send {s} the renewal quote.", "Need to send {s} their renewal quote."),
        done=("Sent {s} the renewal quote.", "The renewal quote for {s} went out this morning."),
        cancelled=(
            "Not sending {s} a renewal quote; they are not renewing.",
            "Cancelled the renewal quote for {s}.",
        ),
    ),
    Loop(
        "schedule-qbr",
        "cust",
        "task",
        CUSTOMERS,
        opens=("Schedule a quarterly review with {s}.", "Need to set up {sp} quarterly review."),
        done=(
            "The quarterly review with {s} is booked for 14 May.",
            "Scheduled {sp} quarterly review; invites are out.",
        ),
        cancelled=("Called off the quarterly review with {s}; they asked to skip this quarter.",),
    ),
    Loop(
        "vet-visit",
        "pa",
        "task",
        PETS,
        opens=("Book a vet appointment for {s}.", "{S} needs a vet appointment booked."),
        done=("Booked {s} in at the vet for Thursday.", "Done: {s} has a vet appointment on Thursday."),
        cancelled=(
            "No vet appointment for {s} after all; the limp cleared up.",
            "Cancelled the plan to take {s} to the vet.",
        ),
    ),
    Loop(
        "birthday-present",
        "pa",
        "task",
        FAMILY,
        opens=("Buy a birthday present for {s}.", "Need to get {s} a birthday present."),
        done=("Bought {sp} birthday present, a book voucher.", "{Sp} birthday present is sorted."),
        cancelled=(
            "Not buying {s} a separate present; the family is sharing one gift instead.",
            "Dropped the birthday present for {s}; we're taking them to dinner instead.",
        ),
    ),
    Loop(
        "cancel-subscription",
        "pa",
        "task",
        SUBSCRIPTIONS,
        opens=("Cancel {s} before the next billing date.", "{S} has to be cancelled before it bills again."),
        done=("Cancelled {s}.", "{S} is cancelled; no more charges."),
        cancelled=("Keeping {s} after all, so there is nothing to cancel.", "Decided not to cancel {s}."),
    ),
    Loop(
        "passport",
        "pa",
        "task",
        PEOPLE,
        opens=("Renew {sp} passport.", "{Sp} passport needs renewing."),
        done=("{Sp} new passport arrived, so the renewal is done.", "Renewed {sp} passport."),
        cancelled=(
            "No need to renew {sp} passport; it is valid until 2031.",
            "Dropped the passport renewal for {s}.",
        ),
    ),
    Loop(
        "return-order",
        "pa",
        "task",
        ORDERS,
        opens=("Return {s} to the shop.", "{S} needs to go back to the shop."),
        done=("Returned {s}; the refund is on its way.", "{S} has been returned."),
        cancelled=("Keeping {s}, so the return is off.", "Cancelled the return of {s}."),
    ),
)

QUESTIONS: tuple[Loop, ...] = (
    Loop(
        "tenant-region",
        "cust",
        "open-question",
        CUSTOMERS,
        opens=(
            "Which region will {sp} tenant be hosted in?",
            "Where is {sp} tenant going to be hosted?",
            "Open question: the hosting region for {sp} tenant.",
        ),
        done=(
            "{Sp} tenant will be hosted in {v}.",
            "Answered: {sp} tenant goes in {v}.",
            "Confirmed with the customer: {sp} tenant is hosted in {v}.",
        ),
        values=REGIONS,
    ),
    Loop(
        "ticket-owner",
        "eng",
        "open-question",
        TICKETS,
        opens=("Who is going to pick up {s}?", "Who will own {s}?"),
        done=("{V} is picking up {s}.", "Answer: {v} owns {s}."),
        values=WORK,
    ),
    Loop(
        "renewal-when",
        "cust",
        "open-question",
        CUSTOMERS,
        opens=("When does {sp} contract renew?", "What month is {s} up for renewal?"),
        done=("{Sp} contract renews in {v}.", "Found out: {s} is up for renewal in {v}."),
        values=MONTHS,
    ),
    Loop(
        "flight-landing",
        "pa",
        "open-question",
        ("Lisbon", "Lyon", "Bergen", "Krakow", "Valencia"),
        opens=("What time does the flight to {s} land?", "When does the flight to {s} get in?"),
        done=("The flight to {s} lands at {v}.", "Checked: the flight to {s} gets in at {v}."),
        values=CLOCK,
    ),
    Loop(
        "which-vet",
        "pa",
        "open-question",
        PETS,
        opens=("Which vet is {s} registered with?", "Where does {s} go for vet visits?"),
        done=("{S} is registered with {v}.", "Answer: {s} goes to {v}."),
        values=CLINICS,
    ),
    Loop(
        "allergies",
        "pa",
        "open-question",
        PEOPLE,
        opens=("Is {s} allergic to anything?", "Does {s} have any allergies?"),
        done=("{S} is allergic to {v}.", "Asked {s}: the only allergy is {v}."),
        values=("shellfish", "tree nuts", "cats", "latex"),
    ),
    Loop(
        "pg-which",
        "eng",
        "open-question",
        DATABASES,
        opens=("Which Postgres version does {s} run?", "What version of Postgres is {s} on?"),
        done=("{S} runs {v}.", "Checked: {s} is on {v}."),
        values=PG,
    ),
    Loop(
        "contact-who",
        "cust",
        "open-question",
        CUSTOMERS,
        opens=("Who is our main contact at {s}?", "Who should we talk to at {s}?"),
        done=("Our main contact at {s} is {v}.", "Answered: at {s} we talk to {v}."),
        values=CONTACTS,
    ),
    Loop(
        "shoe-size",
        "pa",
        "open-question",
        PEOPLE,
        opens=("What shoe size does {s} wear?", "Which shoe size is {s}?"),
        done=("{S} wears a size {v} shoe.", "{S} is a size {v} in shoes."),
        values=("38", "40", "42", "44"),
    ),
    Loop(
        "deploy-which-day",
        "eng",
        "open-question",
        SERVICES,
        opens=("Which day does {s} deploy?", "What is {sp} deploy day?"),
        done=("{S} deploys on {v}s.", "Answer: {sp} deploy day is {v}."),
        values=WEEKDAYS,
    ),
    Loop(
        "school-choice",
        "pa",
        "open-question",
        KIDS,
        opens=("Which school will {s} go to in September?", "Where is {s} starting school in September?"),
        done=("{S} will start at {v} in September.", "Decided: {s} goes to {v} from September."),
        values=SCHOOLS,
        done_kind="decision",
    ),
)

# Hand-written unrelated pairs: a shared word, or a shared name that means different things.
SHARED_WORD: tuple[tuple[str, str], ...] = (
    ("The billing service retries failed webhooks five times.", "Marco's billing address for the gym is his office."),
    (
        "Production deploys are frozen from 20 December to 2 January.",
        "There are frozen dumplings in the garage freezer.",
    ),
    ("The search service caches results for 60 seconds.", "Clear the browser cache on Mum's laptop when you visit."),
    ("The checkout service runs on three pods in production.", "Hana's pea pods from the allotment are ready to pick."),
    ("Kestrel Bank's renewal call is on the 14th.", "The 14th is bin collection day on our street."),
    ("Branch protection is enabled on the main repository.", "Aisha's bank branch on King Street closes at 16:00."),
    (
        "The auth service issues tokens that expire after one hour.",
        "Felix collects old metro tokens from cities he visits.",
    ),
    ("The export worker writes CSV files to the reports bucket.", "Buy a new mop bucket for the flat."),
    ("Tallis Health signed a two-year contract in January.", "Priya's phone contract ends in January."),
    ("Incidents for the payments API are tracked in #pay-incidents.", "Ines watches the cooking channel every Sunday."),
    ("The reporting service queues jobs in RabbitMQ.", "There was a long queue at the passport office on Thursday."),
    ("Log retention on the free tier is 7 days.", "The wedding cake has three tiers."),
    (
        "The analytics database is backed up every night at 02:00.",
        "Nadia's night shift at the hospital starts at 22:00.",
    ),
    (
        "The ingest pipeline drops messages larger than 1 MB.",
        "Rafael has a pipeline of freelance design jobs lined up.",
    ),
    ("Bluefin Logistics wants a sandbox environment for testing.", "Build a sandbox for the kids in the back garden."),
    ("The production database has 2 TB of storage.", "Rent a storage unit for the spare furniture."),
    ("Emeka is the release manager for the Q3 release train.", "Book the train to Lyon for Lena's visit."),
    ("The dev environment uses a shared Redis instance.", "Aisha and Omar keep a shared calendar for school pickups."),
    ("Halden Energy's invoices are sent on the first of the month.", "Hana's rent is due on the first of the month."),
    ("The pro tier includes single sign-on.", "Sign Felix's permission slip for the school trip."),
    ("Deploys to production need a green build.", "Marco wants to paint the hallway green."),
    ("The inventory service is written in Go.", "Tomas wants to go hiking in the Dolomites in August."),
    ("Kenji is on call this weekend for the platform team.", "Call the landlord about the heating on Monday."),
    ("The payments API has a limit of 100 requests a second.", "The station car park limits stays to four hours."),
    (
        "Snapshots of the staging database are kept for 14 days.",
        "Ines wants the holiday snapshots printed for the album.",
    ),
    ("The search index is rebuilt every Sunday night.", "Priya's recipe index cards are in the top kitchen drawer."),
    (
        "The auth service signs tokens with a key rotated every 90 days.",
        "The spare car key is with the neighbours at number 12.",
    ),
    (
        "Orchid Retail's stores use our point-of-sale integration.",
        "Nadia stores her winter tyres at the garage on Elm Road.",
    ),
    ("The billing service's cron job runs at 03:00 UTC.", "Zoe started a new job at an architecture firm in March."),
    (
        "The staging environment is torn down every Friday night.",
        "Hana's favourite bar has live jazz every Friday night.",
    ),
    (
        "Grace reviews every schema migration before it ships.",
        "The bird migration walk with Rafael is on Saturday morning.",
    ),
    ("The team tier allows 10 projects.", "Aisha's school project on volcanoes is due Thursday."),
    ("Our Kafka cluster has six partitions per topic.", "Felix's essay topic is the history of the Hanseatic League."),
    ("Port 5432 is open only inside the VPC.", "Tomas's ferry arrives at the port of Tallinn at 08:30."),
    (
        "The checkout service wraps the payments call in a circuit breaker.",
        "The circuit breaker in the garage trips when the heater is on.",
    ),
    ("The canary gets 5% of production traffic.", "Lena hates driving in Friday traffic to her parents' place."),
    ("The container image for the ingest pipeline is 800 MB.", "Buy a bigger container for the dog food."),
    ("The billing service logs at INFO level in production.", "Nadia keeps a reading log of every book she finishes."),
    ("The release checklist lives in the ops wiki.", "Ines keeps the camping packing checklist in her notes app."),
    (
        "The reporting replica lags up to a minute behind the primary.",
        "Omar's daughter starts primary school in September.",
    ),
    (
        "Pinecrest Media's dashboard refreshes every five minutes.",
        "The kitchen dashboard clock runs five minutes fast.",
    ),
    (
        "The notifications service batches emails every 10 minutes.",
        "Bake a double batch of cookies for the school fair.",
    ),
    ("Staging uses a self-signed certificate.", "Marco's swimming certificate is framed in the hallway."),
    ("The v2 API returns dates in UTC.", "Zoe has two dates lined up for the weekend."),
)
SHARED_NAME: tuple[tuple[str, str], ...] = (
    ("Atlas is the codename for the search reindexing project.", "Priya's dog Atlas needs his booster shot in May."),
    ("Mercury is the name of our internal feature-flag service.", "Marco's new flat is on Mercury Street."),
    ("Phoenix is the staging cluster in us-west-2.", "Zoe's cousin is spending the winter in Phoenix."),
    ("Orion handles image resizing for the mobile app.", "Hana bought tickets for the Orion cinema on Saturday."),
    ("Falcon is the code name of the new billing engine.", "Our hotel in Porto is the Falcon, booked for the 12th."),
    ("Jasper is the name of the deploy bot in Slack.", "Jasper from next door is feeding the cats while we're away."),
    ("Ivy is the internal name of the ingest scheduler.", "Water the ivy on the balcony twice a week."),
    ("Sierra is the codename of the v4 API redesign.", "Omar is hiking in the Sierra Nevada in July."),
    ("Dover is the name of our backup data centre.", "Lena's ferry leaves from Dover at 07:40."),
    ("The Aurora cluster hosts the analytics database.", "Nadia wants to see the aurora in Tromso this winter."),
    ("Echo is the Slack bot that posts deploy notes.", "Buy batteries for the Echo speaker in the kitchen."),
    ("Pixel is the name of the image CDN project.", "Hana's phone is a Pixel 7."),
    ("Austin leads the data platform team.", "Rafael is flying to Austin for a conference in October."),
    ("Jordan is the enterprise support lead for Halden Energy.", "Aisha's cousin is travelling to Jordan in March."),
    ("Florence from finance approves the cloud budget each quarter.", "Ines and Marco are honeymooning in Florence."),
    ("Georgia owns the incident review process.", "Tomas's favourite wine comes from Georgia."),
    ("Chester is the name of our log-shipping sidecar.", "Grandma Ingrid lives near Chester."),
    ("Paris is the internal name for the EU payments gateway.", "Zoe's train to Paris leaves at 10:13."),
    ("Sydney joined the checkout squad as a QA engineer.", "Priya's brother lives in Sydney."),
    ("Hermes is the queue consumer that sends transactional email.", "Felix's Hermes scarf was a gift from his aunt."),
    ("Apollo is the GraphQL gateway in front of the search service.", "Omar's son is in the Apollo class at nursery."),
    ("Nova is the name of the enterprise reporting add-on.", "Lena drives a 1994 Vauxhall Nova."),
    ("Pluto is the cron host that runs nightly exports.", "Hana's kids love the Pluto cartoon on Saturday mornings."),
    ("Maple is the internal name for our Canadian region.", "Rafael is making maple pancakes for Sunday brunch."),
    (
        "Everest is the codename for the data-warehouse migration.",
        "Aisha's uncle trekked to Everest base camp last spring.",
    ),
    ("Ruby runs the customer success team.", "Nadia's engagement ring has a ruby in it."),
    ("Raven is the name of our synthetic monitoring probe.", "Ines is reading The Raven for her poetry class."),
    ("Trinity is the internal name of the ranking model.", "Zoe studied at Trinity College in Dublin."),
    ("Cobalt is the design system used in the admin console.", "Felix painted the bathroom cobalt blue."),
    ("Oscar is the account manager for Orchid Retail.", "Hana's film club is watching last year's Oscar winners."),
    ("Bristol is the codename for the billing ledger rewrite.", "Tomas's parents live in Bristol."),
    ("Kyoto is the name of the Japanese-language search analyzer.", "Priya's trip to Kyoto is booked for April."),
    ("Denver is the name of our US data warehouse cluster.", "Omar's connecting flight goes through Denver."),
    ("Sage is the support chatbot on the pro tier.", "Add sage to the shopping list for Sunday's roast."),
    ("Luna is the codename of the night batch scheduler.", "Luna, Aisha's rabbit, needs her claws clipped."),
    ("Harper is the SRE who owns the Terraform modules.", "Nadia's book club is reading Harper Lee next."),
    (
        "Indigo is the name of the team's staging Kubernetes cluster.",
        "The bridesmaid dresses for Ines's wedding are indigo.",
    ),
    ("Vega is the charting library in the reporting UI.", "Rafael's telescope is pointed at Vega most summer nights."),
    ("Milo is our intern on the platform team.", "Milo the spaniel is staying with Grandma Ingrid this week."),
    ("Camden is the name of our London office.", "Zoe has a stall at Camden Market on Sundays."),
    (
        "Juniper is the name of the VPN concentrator in the office.",
        "Juniper, Lena's cat, is booked in for a dental clean.",
    ),
    ("Boston is the codename of the EU data residency project.", "Lena is running the Boston marathon next April."),
    ("Lima is where our LATAM support team sits.", "Marco's favourite stew uses lima beans."),
    ("Hudson is the name of the CI runner pool.", "Felix rented a cabin by the Hudson for the long weekend."),
)
TASK_WORDS = ("Water", "Buy", "Build", "Sign", "Call", "Book", "Rent", "Add", "Bake", "Clear")

# --------------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------------

CODE_START = re.compile(r"^[a-z]+-[a-z]+-\d|^[a-z0-9]+\.[a-z]")


def cap(text: str) -> str:
    """Upper-case the first letter unless the text starts with an identifier."""
    if not text or CODE_START.match(text):
        return text
    return text[0].upper() + text[1:]


def poss(subject: str) -> str:
    return f"{subject}'s"


def fill(template: str, s: str = "", v: str = "", old: str = "", date: str = "", upper: bool = True) -> str:
    """Fill a template; with upper=False every field keeps its natural case (for a cue prefix)."""
    c: Callable[[str], str] = cap if upper else (lambda t: t)
    text = template.format(S=c(s), s=s, Sp=c(poss(s)), sp=poss(s), v=v, V=c(v), old=old, Old=c(old), date=date)
    return cap(text) if upper else text


def with_prefix(prefix: str, template: str, s: str, v: str, date: str) -> str:
    body_template = template if template.startswith("{") else template[0].lower() + template[1:]
    return cap(prefix.format(date=date) + fill(body_template, s, v, upper=False))


def two(rng: random.Random, pool: tuple[str, ...]) -> tuple[str, str]:
    first, second = rng.sample(pool, 2)
    return first, second


def pick_old(template: str, rng: random.Random, values: tuple[str, ...], v: str) -> str:
    if "{old}" not in template and "{Old}" not in template:
        return ""
    return rng.choice([x for x in values if x != v])


def tokens(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP}


# --------------------------------------------------------------------------------------------
# Builders, one per frame
# --------------------------------------------------------------------------------------------


def changeable(slot: Slot) -> bool:
    return bool(slot.now or slot.cued)


def b_cued_change(rng: random.Random) -> Pair | None:
    """Same frame, cue added, value changed."""
    slot = rng.choice([x for x in SLOTS if changeable(x)])
    s = rng.choice(slot.subjects)
    old, new = two(rng, slot.values)
    if slot.now and rng.random() < 0.5:
        a = fill(slot.plain[0], s, old)
        b = fill(rng.choice(slot.now), s, new)
    else:
        t = rng.choice(slot.plain)
        a = fill(t, s, old)
        b = with_prefix(rng.choice(slot.prefixes), t, s, new, rng.choice(DATES))
    return a, b, slot.kind, slot.kind, slot.domain


def b_cued_reworded(rng: random.Random) -> Pair | None:
    slot = rng.choice([x for x in SLOTS if x.cued])
    s = rng.choice(slot.subjects)
    old, new = two(rng, slot.values)
    a = fill(rng.choice(slot.plain), s, old)
    b = fill(rng.choice(slot.cued), s, new, old=old, date=rng.choice(DATES))
    return a, b, slot.kind, slot.kind, slot.domain


def b_cued_negation(rng: random.Random) -> Pair | None:
    flag = rng.choice([x for x in FLAGS if x.to_neg or x.to_pos])
    s = rng.choice(flag.subjects)
    if flag.to_neg and (not flag.to_pos or rng.random() < 0.6):
        a, b = fill(rng.choice(flag.pos), s), fill(rng.choice(flag.to_neg), s)
    else:
        a, b = fill(rng.choice(flag.neg), s), fill(rng.choice(flag.to_pos), s)
    return a, b, "fact", "fact", flag.domain


def loop_text(template: str, s: str, v: str = "") -> str:
    return fill(template, s, v)


def b_loop_done(rng: random.Random) -> Pair | None:
    task = rng.choice(TASKS)
    s = rng.choice(task.subjects)
    return loop_text(rng.choice(task.opens), s), loop_text(rng.choice(task.done), s), "task", "fact", task.domain


def b_loop_cancelled(rng: random.Random) -> Pair | None:
    task = rng.choice(TASKS)
    s = rng.choice(task.subjects)
    a = loop_text(rng.choice(task.opens), s)
    return a, loop_text(rng.choice(task.cancelled), s), "task", "fact", task.domain


def b_question_answered(rng: random.Random) -> Pair | None:
    q = rng.choice(QUESTIONS)
    s = rng.choice(q.subjects)
    a = loop_text(rng.choice(q.opens), s)
    b = loop_text(rng.choice(q.done), s, rng.choice(q.values))
    return a, b, "open-question", q.done_kind, q.domain


def b_paraphrase(rng: random.Random) -> Pair | None:
    if rng.random() < 0.2:
        flag = rng.choice(FLAGS)
        s = rng.choice(flag.subjects)
        forms = flag.pos if rng.random() < 0.5 else flag.neg
        t1, t2 = two(rng, forms)
        return fill(t1, s), fill(t2, s), "fact", "fact", flag.domain
    slot = rng.choice(SLOTS)
    s, v = rng.choice(slot.subjects), rng.choice(slot.values)
    t1, t2 = two(rng, slot.plain)
    return fill(t1, s, v), fill(t2, s, v), slot.kind, slot.kind, slot.domain


def b_reorder(rng: random.Random) -> Pair | None:
    slot = rng.choice([x for x in SLOTS if x.reorder])
    s, v = rng.choice(slot.subjects), rng.choice(slot.values)
    t1, t2 = rng.choice(slot.reorder)
    if rng.random() < 0.3:
        t1, t2 = t2, t1
    return fill(t1, s, v), fill(t2, s, v), slot.kind, slot.kind, slot.domain


def b_cue_same_value(rng: random.Random) -> Pair | None:
    slot = rng.choice([x for x in SLOTS if changeable(x)])
    s, v = rng.choice(slot.subjects), rng.choice(slot.values)
    if slot.now and rng.random() < 0.55:
        a = fill(rng.choice(slot.plain), s, v)
        b = fill(rng.choice(slot.now), s, v)
    else:
        t = rng.choice(slot.plain)
        a = fill(rng.choice(slot.plain), s, v)
        b = with_prefix(rng.choice(slot.prefixes), t, s, v, rng.choice(DATES))
    return a, b, slot.kind, slot.kind, slot.domain


def b_loop_restated(loops: tuple[Loop, ...], kind: str) -> Builder:
    def build(rng: random.Random) -> Pair | None:
        loop = rng.choice(loops)
        s = rng.choice(loop.subjects)
        t1, t2 = two(rng, loop.opens)
        return loop_text(t1, s), loop_text(t2, s), kind, kind, loop.domain

    return build


def b_uncued(reworded: bool) -> Builder:
    def build(rng: random.Random) -> Pair | None:
        slot = rng.choice([x for x in SLOTS if x.single])
        s = rng.choice(slot.subjects)
        v1, v2 = two(rng, slot.values)
        if reworded:
            t1, t2 = two(rng, slot.plain)
        else:
            t1 = t2 = rng.choice(slot.plain)
        return fill(t1, s, v1), fill(t2, s, v2), slot.kind, slot.kind, slot.domain

    return build


def b_negation(rng: random.Random) -> Pair | None:
    flag = rng.choice(FLAGS)
    s = rng.choice(flag.subjects)
    first, second = (flag.pos, flag.neg) if rng.random() < 0.65 else (flag.neg, flag.pos)
    return fill(rng.choice(first), s), fill(rng.choice(second), s), "fact", "fact", flag.domain


def b_other_subject(same_value: bool) -> Builder:
    def build(rng: random.Random) -> Pair | None:
        if rng.random() < 0.15:
            flag = rng.choice(FLAGS)
            s1, s2 = two(rng, flag.subjects)
            pools = (flag.pos, flag.pos) if same_value else (flag.pos, flag.neg)
            if not same_value and rng.random() < 0.5:
                pools = (flag.neg, flag.pos)
            if same_value and rng.random() < 0.4:
                pools = (flag.neg, flag.neg)
            idx = rng.randrange(len(pools[0]))
            return fill(pools[0][idx], s1), fill(pools[1][idx], s2), "fact", "fact", flag.domain
        slot = rng.choice(SLOTS)
        s1, s2 = two(rng, slot.subjects)
        v1 = rng.choice(slot.values)
        v2 = v1 if same_value else rng.choice([x for x in slot.values if x != v1])
        t = rng.choice(slot.plain)
        return fill(t, s1, v1), fill(t, s2, v2), slot.kind, slot.kind, slot.domain

    return build


def b_other_subject_cued(rng: random.Random) -> Pair | None:
    if rng.random() < 0.15:
        flag = rng.choice([x for x in FLAGS if x.to_neg])
        s1, s2 = two(rng, flag.subjects)
        return fill(rng.choice(flag.pos), s1), fill(rng.choice(flag.to_neg), s2), "fact", "fact", flag.domain
    slot = rng.choice([x for x in SLOTS if changeable(x)])
    s1, s2 = two(rng, slot.subjects)
    v1 = rng.choice(slot.values)
    v2 = v1 if rng.random() < 0.4 else rng.choice([x for x in slot.values if x != v1])
    date = rng.choice(DATES)
    roll = rng.random()
    if slot.now and roll < 0.45:
        a = fill(slot.plain[0], s1, v1)
        b = fill(rng.choice(slot.now), s2, v2)
    elif slot.cued and roll < 0.8:
        a = fill(rng.choice(slot.plain), s1, v1)
        t = rng.choice(slot.cued)
        b = fill(t, s2, v2, old=pick_old(t, rng, slot.values, v2), date=date)
    else:
        t = rng.choice(slot.plain)
        a = fill(t, s1, v1)
        b = with_prefix(rng.choice(slot.prefixes), t, s2, v2, date)
    return a, b, slot.kind, slot.kind, slot.domain


def b_other_subject_loop(rng: random.Random) -> Pair | None:
    if rng.random() < 0.5:
        task = rng.choice(TASKS)
        s1, s2 = two(rng, task.subjects)
        outcome = task.done if rng.random() < 0.7 else task.cancelled
        a, b = loop_text(rng.choice(task.opens), s1), loop_text(rng.choice(outcome), s2)
        return a, b, "task", "fact", task.domain
    q = rng.choice(QUESTIONS)
    s1, s2 = two(rng, q.subjects)
    a = loop_text(rng.choice(q.opens), s1)
    b = loop_text(rng.choice(q.done), s2, rng.choice(q.values))
    return a, b, "open-question", q.done_kind, q.domain


def b_other_attribute(rng: random.Random) -> Pair | None:
    group = rng.choice(ATTR_GROUPS)
    s = rng.choice(group.subjects)
    t1, t2 = two(rng, group.templates)
    v1 = rng.choice(group.values)
    v2 = v1 if rng.random() < 0.75 else rng.choice(group.values)
    return fill(t1, s, v1), fill(t2, s, v2), "fact", "fact", group.domain


def b_added_detail(rng: random.Random) -> Pair | None:
    slot = rng.choice([x for x in SLOTS if x.detail])
    s, v = rng.choice(slot.subjects), rng.choice(slot.values)
    return fill(rng.choice(slot.plain), s, v), fill(rng.choice(slot.detail), s, v), slot.kind, slot.kind, slot.domain


def random_statement(rng: random.Random, domain: str) -> tuple[str, str]:
    """A plain statement (text, kind) from one domain."""
    roll = rng.random()
    if roll < 0.6:
        slot = rng.choice([x for x in SLOTS if x.domain == domain])
        return fill(rng.choice(slot.plain), rng.choice(slot.subjects), rng.choice(slot.values)), slot.kind
    if roll < 0.75:
        flag = rng.choice([x for x in FLAGS if x.domain == domain])
        return fill(rng.choice(flag.pos + flag.neg), rng.choice(flag.subjects)), "fact"
    if roll < 0.9:
        task = rng.choice([x for x in TASKS if x.domain == domain])
        return loop_text(rng.choice(task.opens), rng.choice(task.subjects)), "task"
    q = rng.choice([x for x in QUESTIONS if x.domain == domain])
    return loop_text(rng.choice(q.opens), rng.choice(q.subjects)), "open-question"


def b_topic_shift(rng: random.Random) -> Pair | None:
    d1, d2 = two(rng, ("eng", "cust", "pa"))
    a, ka = random_statement(rng, d1)
    b, kb = random_statement(rng, d2)
    if tokens(a) & tokens(b):
        return None
    return a, b, ka, kb, f"{d1}/{d2}"


def handwritten_kind(text: str) -> str:
    return "task" if text.split(maxsplit=1)[0] in TASK_WORDS else "fact"


def b_handwritten(pool: tuple[tuple[str, str], ...]) -> Builder:
    order = list(range(len(pool)))
    state = {"next": 0, "shuffled": 0}

    def build(rng: random.Random) -> Pair | None:
        if not state["shuffled"]:
            rng.shuffle(order)
            state["shuffled"] = 1
        if state["next"] >= len(order):
            return None
        a, b = pool[order[state["next"]]]
        state["next"] += 1
        if rng.random() < 0.4:
            a, b = b, a
        return a, b, handwritten_kind(a), handwritten_kind(b), "mixed"

    return build


# relation -> [(frame, count, builder)]
PLAN: dict[str, list[tuple[str, int, Builder]]] = {
    "supersedes": [
        ("cued-change", 65, b_cued_change),
        ("cued-change-reworded", 60, b_cued_reworded),
        ("cued-negation", 15, b_cued_negation),
        ("loop-done", 25, b_loop_done),
        ("loop-cancelled", 15, b_loop_cancelled),
        ("question-answered", 20, b_question_answered),
    ],
    "duplicate": [
        ("paraphrase", 70, b_paraphrase),
        ("reorder", 35, b_reorder),
        ("cue-same-value", 40, b_cue_same_value),
        ("task-restated", 28, b_loop_restated(TASKS, "task")),
        ("question-restated", 27, b_loop_restated(QUESTIONS, "open-question")),
    ],
    "contradicts": [
        ("uncued-change", 100, b_uncued(reworded=False)),
        ("uncued-change-reworded", 50, b_uncued(reworded=True)),
        ("negation", 50, b_negation),
    ],
    "complementary": [
        ("other-subject", 40, b_other_subject(same_value=False)),
        ("other-subject-same-value", 35, b_other_subject(same_value=True)),
        ("other-subject-cued", 40, b_other_subject_cued),
        ("other-subject-loop", 10, b_other_subject_loop),
        ("other-attribute", 45, b_other_attribute),
        ("added-detail", 30, b_added_detail),
    ],
    "unrelated": [
        ("topic-shift", 120, b_topic_shift),
        ("shared-word", 40, b_handwritten(SHARED_WORD)),
        ("shared-name", 40, b_handwritten(SHARED_NAME)),
    ],
}

# --------------------------------------------------------------------------------------------
# Decoration: a second (or third) sentence that never changes the label
# --------------------------------------------------------------------------------------------

NO_EXTRA_FRAMES = frozenset({"added-detail", "shared-word", "shared-name"})
LOOP_FRAMES = frozenset({"loop-done", "loop-cancelled", "question-answered", "other-subject-loop"})


def add(text: str, sentence: str) -> str:
    return f"{text} {sentence}"


def decorate(rng: random.Random, relation: str, frame: str, pair: Pair) -> tuple[str, str]:
    """Append content-free chatter anywhere; neutral notes only where nothing is retired;
    a reason only to the newer side of a cued supersede."""
    a, b, _, _, domain = pair
    if rng.random() < 0.11:
        a = add(a, rng.choice(CHATTER))
    if rng.random() < 0.11:
        b = add(b, rng.choice(CHATTER))
    extras = EXTRA.get(domain)
    if relation == "supersedes" and frame not in LOOP_FRAMES and rng.random() < 0.45:
        b = add(b, rng.choice(RATIONALE[domain]))
    elif relation in {"contradicts", "complementary", "unrelated"} and extras and frame not in NO_EXTRA_FRAMES:
        if rng.random() < 0.2:
            a = add(a, rng.choice(extras))
        if rng.random() < 0.2:
            b = add(b, rng.choice(extras))
    return a, b


# --------------------------------------------------------------------------------------------
# Assembly
# --------------------------------------------------------------------------------------------


def build_rows(rng: random.Random) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    seen_cores: set[tuple[str, str]] = set()
    for relation, frames in PLAN.items():
        assert sum(count for _, count, _ in frames) == PER_RELATION, relation
        for frame, count, builder in frames:
            made, attempts = 0, 0
            while made < count:
                attempts += 1
                if attempts > 50_000:
                    raise RuntimeError(f"cannot fill {relation}/{frame}")
                pair = builder(rng)
                if pair is None or pair[0] == pair[1] or (pair[0], pair[1]) in seen_cores:
                    continue
                seen_cores.add((pair[0], pair[1]))
                a, b = decorate(rng, relation, frame, pair)
                rows.append(
                    {
                        "a": a,
                        "b": b,
                        "relation": relation,
                        "kind_a": pair[2],
                        "kind_b": pair[3],
                        "source": SOURCE,
                        "frame": frame,
                    }
                )
                made += 1
    rng.shuffle(rows)
    out: list[dict[str, str]] = []
    for n, row in enumerate(rows, start=1):
        out.append({"id": f"{SOURCE}-{n:05d}", **row})
    return out


def main() -> None:
    rng = random.Random(SEED)
    rows = build_rows(rng)
    with OUT.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    relations = Counter(row["relation"] for row in rows)
    multi = sum(1 for row in rows for side in ("a", "b") if re.search(r"[.?!] [A-Z#]", row[side]))
    print(f"wrote {len(rows)} pairs to {OUT}: {dict(relations)}; multi-sentence statements: {multi}")


if __name__ == "__main__":
    main()

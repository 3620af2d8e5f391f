"""The ``ops`` source: labelled memory pairs from an engineering / operations / product / sales / support team.

What it is: pairs of an OLDER statement ``a`` and a NEWER statement ``b`` of the kind people write into a
team's shared memory: Slack messages, ticket comments, incident notes, meeting notes, runbook lines,
handover notes and CRM notes. Each pair carries one relation (duplicate, supersedes, complementary,
contradicts, unrelated) labelled by the rules of ``LABELS.md`` (SPEC section 6, R-H7 "same subject or
nothing" and R-H8 "evidence for an automatic supersede"); when a pair could be read two ways the label
is the reading that retires less.

How it was written: independently of the other sources. Its vocabulary (services, hosts, environments,
plan tiers, customers, tickets, feature flags, vendors, release trains, meetings, cron jobs, teams and
teammates) and every sentence frame below were written for this module by hand. Facts are modelled as
subject / attribute / value slots (``Attr``) and yes/no slots (``Toggle``); each slot has several
hand-written wordings, and the pair builders combine them into the adversarial patterns of LABELS.md
(same frame with another subject, same subject with another attribute, update cue with the value
unchanged, value changed with and without a cue, affirmed then denied, open loops closed or restated).
About a third of the statements are long, chatty messages with the fact embedded among greetings,
context and sign-offs. ``HAND`` holds pairs written one by one. Standard library only, deterministic:
``python evaluation/data/source_ops.py`` writes ``ops.jsonl`` beside this file.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SEED = 20240917
SOURCE = "ops"
OUT = Path(__file__).with_name("ops.jsonl")
LONG_SHARE = 0.38
REWORD_SHARE = 0.3

# ---------------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------------

PEOPLE = (
    "Dana", "Priya", "Marco", "Wei", "Sam", "Ravi", "Hana", "Luka", "Aisha", "Tom", "Irene", "Kenji",
    "Olu", "Maya", "Jonah", "Leila", "Carla", "Nina", "Femi", "Sofia", "Mateo", "Yuki", "Grace", "Omar",
)  # fmt: skip
EXTERNAL = (
    "Beth Kowalski", "Raj Mehta", "Laura Chen", "Diego Alvarez", "Anna Berg", "Kofi Mensah",
    "Helen Park", "Mark Duval", "Sara Lindqvist", "Tomas Rivera",
)  # fmt: skip
TEAMS = (
    "Platform", "Payments", "Growth", "Core API", "Data Infra", "SRE", "Identity", "Mobile",
    "Support Ops", "Sales Ops",
)  # fmt: skip
ENG_TEAMS = TEAMS[:8]
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
CITIES = ("Berlin", "Lisbon", "Toronto", "Bangalore", "Nairobi", "Austin", "Warsaw", "Singapore", "Dublin")

# fmt: off
SUBJECTS: dict[str, tuple[str, ...]] = {
    "service": (
        "billing-api", "billing-worker", "search-api", "search-indexer", "checkout-api", "checkout-web",
        "auth-service", "auth-proxy", "notifications-worker", "payments-gateway", "ledger-service",
        "invoice-renderer", "export-worker", "webhook-relay", "catalog-api", "pricing-engine",
        "inventory-sync", "email-sender", "audit-log-service",
    ),
    "host": (
        "db-orders-1", "db-orders-2", "db-orders-3", "pg-main-1", "pg-main-2", "redis-cache-1",
        "redis-cache-2", "kafka-broker-4", "kafka-broker-5", "es-logs-1", "es-logs-2", "ci-runner-7",
        "ci-runner-8", "bastion-eu-1", "bastion-us-1", "vault-1",
    ),
    "env": ("staging", "prod", "dev", "QA", "sandbox", "preview", "perf", "demo", "prod-eu", "prod-us"),
    "tier": ("free", "starter", "pro", "team", "business", "enterprise"),
    "customer": (
        "Acme", "Globex", "Initech", "Northwind", "Contoso", "Fabrikam", "Tailspin", "Wingtip", "Litware",
        "Proseware", "Fourth Coffee", "Halden Bank", "Kestrel Freight", "Orbis Media", "Brightline Dental",
        "Veridian Bio", "Sundial Kitchen", "Pinecrest Academy", "Lamna Healthcare", "Trey Research",
        "Coho Winery", "Bluefin Air",
    ),
    "ticket": (
        "INC-2231", "INC-2240", "INC-2187", "INC-2302", "OPS-1412", "OPS-1519", "OPS-1520", "SUP-8812",
        "SUP-8830", "PLAT-771", "PLAT-779", "BILL-304", "BILL-311", "SEC-58", "SEC-61", "CS-4410",
    ),
    "person": PEOPLE,
    "meeting": (
        "standup", "sprint planning", "retro", "incident review", "ops review", "release sync",
        "pricing council", "change advisory board", "customer advisory call", "weekly metrics review",
        "design review", "weekly handover",
    ),
    "job": (
        "billing cron", "nightly export", "invoicing job", "usage rollup", "cert renewal job", "search reindex",
        "backup verification job", "churn report", "GDPR purge job", "warehouse sync",
    ),
    "flag": (
        "new-checkout", "new-checkout-eu", "dark-mode", "usage-billing-v2", "smart-search", "bulk-export",
        "sso-enforcement", "ai-summaries", "inline-editing", "audit-stream", "fast-sync", "legacy-dashboard",
    ),
    "vendor": (
        "Datadog", "PagerDuty", "Sentry", "Snowflake", "Cloudflare", "Twilio", "SendGrid", "Zendesk",
        "Salesforce", "Okta", "Statuspage", "LaunchDarkly",
    ),
    "release": ("4.2", "4.3", "4.4", "5.0", "5.1", "iOS 7.8", "iOS 7.9", "Android 7.8", "Android 7.9"),
    "team": TEAMS,
    "repo": ("web-frontend", "infra-live", "mobile-app", "data-pipelines", "terraform-modules", "docs-site"),
    "api": ("v1", "v2", "v3", "v4"),
}

# Values: "canonical|alias|alias" (aliases say the same thing in other words, used by paraphrases).
VALUES: dict[str, tuple[str, ...]] = {
    "day": DAYS,
    "time": (
        "01:00 UTC|1am UTC", "02:00 UTC|2am UTC", "03:00 UTC|3am UTC", "04:30 UTC|4:30am UTC",
        "06:00 UTC|6am UTC", "14:00 UTC|2pm UTC", "16:00 UTC|4pm UTC", "23:00 UTC|11pm UTC",
    ),
    "mtime": (
        "09:30|9:30am", "10:00|10am", "10:15|10:15am", "11:00|11am", "13:30|1:30pm",
        "14:00|2pm", "15:30|3:30pm", "16:00|4pm",
    ),
    "person": PEOPLE,
    "external": EXTERNAL,
    "team": TEAMS,
    "engteam": ENG_TEAMS,
    "dbhost": ("db-orders-1", "db-orders-2", "db-orders-3", "pg-main-1", "pg-main-2"),
    "runner": ("ci-runner-7", "ci-runner-8", "bastion-eu-1", "bastion-us-1", "cron-host-1", "cron-host-2"),
    "region": ("eu-west-1", "eu-central-1", "us-east-1", "us-east-2", "us-west-2", "ap-southeast-2"),
    "channel": (
        "#alerts-payments", "#alerts-platform", "#alerts-search", "#ops-alerts", "#oncall-core",
        "#billing-alerts", "#deploys", "#release-train", "#sre-pages", "#eng-announce",
    ),
    "python": ("Python 3.9", "Python 3.10", "Python 3.11", "Python 3.12", "Python 3.13"),
    "replicas": ("2|two", "3|three", "4|four", "6|six", "8|eight", "12|twelve"),
    "mem": ("512Mi", "1Gi", "2Gi", "4Gi", "8Gi"),
    "slo": ("99.5%", "99.9%|three nines", "99.95%", "99.99%|four nines"),
    "ms": ("150 ms", "200 ms", "250 ms", "300 ms", "400 ms", "500 ms|half a second"),
    "retention": (
        "7 days|a week", "14 days|two weeks", "30 days|a month", "90 days|three months",
        "180 days|six months", "365 days|a year",
    ),
    "ci": ("GitHub Actions", "Buildkite", "CircleCI", "Jenkins", "GitLab CI"),
    "queue": ("SQS", "Kafka", "RabbitMQ", "Redis Streams", "Pub/Sub"),
    "dbtarget": ("Aurora", "Cloud SQL", "CockroachDB", "a self-managed Patroni cluster", "RDS Postgres 16"),
    "proc": (
        "run `kubectl rollout restart` from the bastion", "use the Restart action in Argo CD",
        "scale the deployment to zero and back up", "trigger the restart job in Rundeck",
        "ask the platform on-call to bounce it",
    ),
    "rps": ("800 rps", "1.2k rps", "2k rps", "3.5k rps", "5k rps", "8k rps"),
    "os": ("Ubuntu 20.04", "Ubuntu 22.04", "Ubuntu 24.04", "Debian 11", "Debian 12"),
    "instance": ("r6g.large", "r6g.xlarge", "r6g.2xlarge", "m6i.xlarge", "m6i.2xlarge", "c7g.xlarge"),
    "disk": ("250 GB", "500 GB", "1 TB", "2 TB", "4 TB"),
    "az": ("eu-west-1a", "eu-west-1b", "eu-west-1c", "us-east-1a", "us-east-1d"),
    "pgver": ("15.6", "15.8", "16.2", "16.4", "17.0"),
    "k8s": ("1.27", "1.28", "1.29", "1.30", "1.31"),
    "approvals": ("one approval|a single approval", "two approvals", "three approvals"),
    "account": ("412907358811", "220918734455", "738201946610", "905512387704"),
    "rate": (
        "60 requests a minute|60 req/min", "100 requests a minute|100 req/min",
        "300 requests a minute|300 req/min", "600 requests a minute|600 req/min",
        "1,000 requests a minute|1k req/min", "5,000 requests a minute|5k req/min",
        "10,000 requests a minute|10k req/min",
    ),
    "seats": ("3|three", "5|five", "10|ten", "25", "50"),
    "price": ("$8", "$12", "$15", "$20", "$29", "$49"),
    "storage": ("1 GB", "5 GB", "20 GB", "100 GB", "1 TB"),
    "sla": ("1 hour|60 minutes", "4 hours|four hours", "8 hours|eight hours", "one business day|1 business day"),
    "month": MONTHS,
    "arr": ("$48k", "$60k", "$85k", "$120k", "$150k", "$240k", "$310k"),
    "supportch": ("a shared Slack channel", "email", "Zendesk", "the partner portal", "a dedicated phone line"),
    "cseats": ("40|forty", "75", "120", "200", "350", "500"),
    "discount": ("10%", "15%", "20%", "25%", "30%"),
    "health": ("green", "amber", "red"),
    "terms": ("net 30|30 days net", "net 45|45 days net", "net 60|60 days net", "net 90|90 days net"),
    "tierval": ("free", "starter", "pro", "team", "business", "enterprise"),
    "status": ("open", "in progress", "blocked", "mitigated", "resolved"),
    "sev": ("SEV1", "SEV2", "SEV3", "SEV4"),
    "prio": ("P1", "P2", "P3", "P4"),
    "cause": (
        "an expired TLS certificate", "a bad config push", "connection pool exhaustion",
        "a DNS misconfiguration", "a full disk on the primary", "a runaway batch job",
        "a noisy neighbour on the shared node pool",
    ),
    "fixver": ("4.2", "4.3", "4.4", "5.0", "5.1"),
    "city": CITIES,
    "title": (
        "Staff Engineer", "Senior SRE", "Engineering Manager", "Principal Engineer", "Product Manager",
        "Solutions Engineer", "Support Lead",
    ),
    "room": (
        "the Fjord room", "the Atrium", "the Harbor room", "the Birch room", "the Lighthouse room",
        "the usual Zoom link",
    ),
    "cadence": ("weekly|every week", "every two weeks|fortnightly", "monthly|once a month"),
    "jobtimeout": ("15 minutes", "30 minutes|half an hour", "45 minutes", "an hour|60 minutes", "two hours"),
    "pct": ("1%", "5%", "10%", "25%|a quarter", "50%|half", "100%|all"),
    "date": ("May 14", "May 21", "May 28", "June 4", "June 11", "June 18", "July 2"),
    "spend": ("$1,200", "$2,500", "$4,800", "$7,500", "$12,000", "$18,000"),
    "vseats": ("10|ten", "20|twenty", "35", "50|fifty", "80"),
    "budget": ("$40k", "$55k", "$70k", "$90k", "$120k"),
    "hc": ("4|four", "5|five", "6|six", "7|seven", "8|eight", "9|nine", "11|eleven"),
    "okr": (
        "cutting p95 checkout latency by 20%", "getting SOC 2 Type II", "reducing cloud spend by 15%",
        "shipping usage-based billing", "halving time to first response", "moving every build off Jenkins",
    ),
    "rotlen": ("four days", "a week|one week", "two weeks|a fortnight"),
    "merge": ("squash merges", "rebase merges", "merge commits"),
    "reviewers": ("one reviewer|a single reviewer", "two reviewers", "three reviewers"),
    "branch": ("main", "master", "trunk", "develop"),
}

# fmt: on

# Value types whose list is in a meaningful order (bumped up / rolled back / pushed out).
ORDERED = frozenset({
    "python", "replicas", "mem", "slo", "ms", "retention", "pgver", "k8s", "disk", "approvals", "rate",
    "seats", "price", "storage", "month", "arr", "cseats", "discount", "terms", "tierval", "sev", "fixver",
    "jobtimeout", "pct", "date", "spend", "vseats", "budget", "hc", "reviewers",
})  # fmt: skip
WHO = frozenset({"person", "external", "engteam"})

# Words that keep their capital when a statement is embedded mid-sentence.
PROPER = tuple(
    sorted(
        {
            name
            for group in (PEOPLE, EXTERNAL, TEAMS, DAYS, MONTHS, CITIES, SUBJECTS["customer"], SUBJECTS["vendor"])
            for name in group
        }
        | {"Postgres", "Kubernetes", "Python", "Ubuntu", "Debian", "SSO", "SCIM", "Sunday", "I", "QA"}
    )
)

# Per-pair fillers.
DATES = (
    "Monday", "next Monday", "1 July", "the 15th", "June 3", "next sprint", "this week", "tomorrow",
    "August 1", "the start of Q3", "the 4.3 release",
)  # fmt: skip
PDATES = (
    "on Monday", "on the 3rd", "last week", "yesterday", "over the weekend", "during the maintenance window",
    "on Tuesday", "earlier this week",
)  # fmt: skip
CLOCK = ("13:00 UTC", "14:00 UTC", "15:30 UTC", "16:00 UTC")
TICKETS = SUBJECTS["ticket"]

# Chatter for long messages. None of it carries an update cue or a fact about a subject.
GREETINGS = (
    "Morning all!", "Hey team.", "Hi folks.", "Hello everyone.", "Hey all 👋", "Evening, all.",
    "Quick one, team.", "Hi all.", "Afternoon folks.", "Hey hey.",
)  # fmt: skip
CONTEXTS = (
    "Writing this down so it ends up in the team memory.",
    "Following up on the incident review.",
    "Context for anyone who missed standup.",
    "This came up in a couple of threads, so posting it in one place.",
    "Capturing a few things from the handover.",
    "Jotting this down before I forget.",
    "Bit of housekeeping.",
    "Long week, but a couple of things are worth recording.",
    "Summarising the call with the account team.",
    "Some notes from the on-call shift.",
    "For the runbook.",
    "Posting this for the folks in other time zones.",
    "A few people asked about this in DMs.",
    "Putting this in writing so nobody has to dig through Slack later.",
    "Notes from the ops sync.",
    "Mostly routine stuff.",
    "The pager was quiet overnight.",
    "Spent the afternoon chasing flaky integration tests, which is a separate story.",
    "Quick brain dump from the planning session.",
    "Pasting this from the meeting notes.",
)
FILLERS = (
    "The doc has the details.",
    "Ping me if anything looks off.",
    "No action needed from anyone.",
    "Happy to walk anyone through it.",
    "Dashboards look healthy.",
    "Thanks to everyone who helped out.",
    "Shout in the thread if you have questions.",
    "I'll add it to the wiki too.",
    "The Grafana links are pinned in the channel.",
    "Nothing customer-facing as far as we know.",
    "Anything else can wait for the next retro.",
    "More in the ticket if you want the gory details.",
    "Not urgent, just for awareness.",
    "Coffee is on me for whoever spotted it.",
    "Tag me in the ticket if something breaks.",
    "Everything else is business as usual.",
)
SIGNOFFS = (
    "Thanks!", "Cheers.", "Thanks all.", "— Theo", "Cheers, Bea", "Thanks, Jo", "Have a good weekend!",
    "That's all from me.", "Thanks for reading.", "— Noor", "Ta.", "Back to it.",
)  # fmt: skip
# Chatty openers that are not update cues (LABELS.md: "a chatty phrase is not an update cue").
CHATTY = (
    "FYI", "Reminder:", "For the record,", "Quick note:", "Noting here:", "For anyone asking,",
    "Just so it's written down,", "Btw,",
)  # fmt: skip

# ---------------------------------------------------------------------------------------------------
# Update cues. {x}: the statement mid-sentence; {X}: the statement as a sentence; {Xn}: without its
# final full stop. (template, usable when the value did not change, only for an ongoing state)
# ---------------------------------------------------------------------------------------------------

PREFIX_CUES: tuple[tuple[str, bool, bool], ...] = (
    ("As of {date}, {x}.", True, True),
    ("Starting {date}, {x}.", True, True),
    ("Effective {date}, {x}.", True, True),
    ("Going forward, {x}.", True, True),
    ("From {date} on, {x}.", True, True),
    ("Update: {X}", True, False),
    ("Updated per {tkt}: {x}.", True, False),
    ("Correction: {X}", False, False),
    ("Heads up, this changed: {X}", False, False),
    ("Heads up, one change from the ops review: {x}.", False, False),
    ("Changed in {tkt}: {x}.", False, False),
    ("Small change to note: {X}", False, False),
    ("FYI, changed as of {date}: {x}.", False, True),
    ("Not sure everyone saw it, but this changed {pdate}: {x}.", False, False),
    ("Reminder that this changed last week: {x}.", False, False),
)
# The first suffix also reads well after a "label: value" fragment; the others need a full sentence.
SUFFIX_CUES = ("{Xn} now.", "{Xn} from now on.", "{Xn} as of this week.", "{Xn} starting next sprint.")
SUFFIX_OLD_CUES = (
    "{Xn} instead of {old}.",
    "{Xn}, not {old} anymore.",
    "{Xn} (was {old}).",
    "{Xn} (previously {old}).",
    "{Xn}. It used to be {old}.",
)
NP_CUES = (
    "{NP} is now {v}.",
    "{NP} has been changed to {v}.",
    "We updated {np} to {v}.",
    "{NP} got switched to {v}.",
    "{NP} is {v} going forward.",
    "{NP} is {v} as of {date}.",
    "Updated {np}: {v}.",
)
NP_ONGOING = frozenset({"{NP} is {v} going forward.", "{NP} is {v} as of {date}.",
                        "Until {date} {np} was {old}; from then on it's {v}."})  # fmt: skip
NP_SAME_OK = frozenset({"{NP} is now {v}.", "{NP} is {v} going forward.", "{NP} is {v} as of {date}.",
                        "We updated {np} to {v}.", "Updated {np}: {v}."})  # fmt: skip
NP_OLD_CUES = (
    "{NP} changed from {old} to {v}.",
    "We switched {np} from {old} to {v}.",
    "{NP} is no longer {old}; it's {v} instead.",
    "{NP}: {old} → {v}.",
    "{NP} went from {old} to {v} {pdate}.",
    "{NP} is {v} now, not {old}.",
    "Correction: {np} is {v}, not {old}.",
    "We changed {np} from {old} to {v} in {tkt}.",
    "Until {date} {np} was {old}; from then on it's {v}.",
)
# Cue verbs by class; "UP|" needs a larger value than before, "DOWN|" a smaller one.
VERB_CUES: dict[str, tuple[str, ...]] = {
    "move": ("We moved {np} to {v}.", "{NP} moved from {old} to {v}.", "{NP} has been moved to {v}."),
    "bump": ("UP|{NP} was bumped to {v}.", "UP|We bumped {np} from {old} to {v}.", "UP|Bumped {np} to {v}."),
    "rollback": ("DOWN|{NP} was rolled back to {v}.", "DOWN|We rolled {np} back from {old} to {v}."),
    "takeover": (
        "{v} took over as {np}.",
        "{v} has taken over from {old} as {np}.",
        "{v} is {np} now that {old} has moved on to other work.",
    ),
    "replace": ("{v} replaced {old} as {np}.", "{old} was replaced by {v} as {np}."),
    "migrate": ("We migrated {np} from {old} to {v}.", "{NP} was migrated to {v}."),
}
# Cued denials built from a plain denial.
NEG_CUES = ("{Xn} anymore.", "As of {date}, {x}.", "Going forward, {x}.", "Heads up, this changed: {X}")

# ---------------------------------------------------------------------------------------------------
# Slots
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attr:
    """One attribute of one kind of subject, with its hand-written wordings.

    Templates use {s} (subject) and {v} (value); ``cued`` templates may use {old}, {date}, {pdate},
    {tkt} and a leading "UP|"/"DOWN|" for a change in the value list's order; ``details`` add
    information without changing the value ({p} a teammate, {t} a clock time, {n} a small number).
    """

    key: str
    stype: str
    vtype: str
    frames: tuple[str, ...]
    nps: tuple[str, ...] = ()
    kind: str = "fact"
    neg: tuple[str, ...] = ()
    negc: tuple[str, ...] = ()
    cued: tuple[str, ...] = ()
    details: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    verbs: tuple[str, ...] = ()
    subjects: tuple[str, ...] = ()
    generic: bool = True
    suffix: bool = True
    share: bool = False
    event: bool = False  # a one-off date or a reading, not an ongoing state: no "going forward" cues
    ranked: int = 0  # 1: later subjects get larger values (free < enterprise); -1: smaller values

    def pool(self) -> tuple[str, ...]:
        return self.subjects or SUBJECTS[self.stype]


@dataclass(frozen=True)
class Toggle:
    """A yes/no fact about a subject ("the pro plan includes SSO"), affirmed or denied."""

    key: str
    stype: str
    on: tuple[str, ...]
    off: tuple[str, ...]
    on_cued: tuple[str, ...]
    off_cued: tuple[str, ...]
    questions: tuple[str, ...] = ()
    subjects: tuple[str, ...] = ()

    def pool(self) -> tuple[str, ...]:
        return self.subjects or SUBJECTS[self.stype]


ATTRS: tuple[Attr, ...] = (
    # --- services -----------------------------------------------------------------------------------
    Attr("deploy-day", "service", "day",
         ("{s} deploys on {v}s.", "The deploy day for {s} is {v}.", "We ship {s} to prod every {v}.",
          "Deploys for {s} go out on {v}s.", "{s} deploy day: {v}."),
         nps=("the deploy day for {s}", "{s}'s deploy day"),
         neg=("{s} doesn't deploy on {v}s.", "We don't ship {s} on {v}s."),
         negc=("{s} no longer deploys on {v}s.",),
         details=("{s} deploys on {v}s, right after the {t} release sync, and a rollout takes about {n} minutes.",
                  "{s} deploys on {v}s; {p} usually drives the rollout and watches the dashboards afterwards."),
         verbs=("move",)),
    Attr("owner-team", "service", "engteam",
         ("{s} is owned by {v}.", "{v} owns {s}.", "The owning team for {s} is {v}.",
          "{s} belongs to the {v} team.", "Owner of {s}: {v}."),
         nps=("the owner of {s}", "the owning team for {s}"),
         neg=("{s} isn't owned by {v}.", "{v} doesn't own {s}."),
         details=("{s} is owned by {v}; {p} is the usual reviewer for changes to it.",),
         verbs=("takeover",)),
    Attr("tech-lead", "service", "person",
         ("The tech lead for {s} is {v}.", "{v} is the tech lead on {s}.", "{s}'s tech lead is {v}.",
          "{v} leads the work on {s}.", "Tech lead, {s}: {v}."),
         nps=("the tech lead for {s}", "{s}'s tech lead"),
         neg=("{v} isn't the tech lead for {s}.",),
         details=("The tech lead for {s} is {v}, who also reviews every schema migration that touches it.",),
         verbs=("takeover",), share=True),
    Attr("escalation", "service", "person",
         ("Escalations for {s} go to {v}.", "If {s} is on fire, escalate to {v}.",
          "{v} is the escalation contact for {s}.", "Escalation contact for {s}: {v}."),
         nps=("the escalation contact for {s}",),
         details=("Escalations for {s} go to {v}, by phone if Slack gets no answer within {n} minutes.",),
         verbs=("takeover",), share=True),
    Attr("python", "service", "python",
         ("{s} runs on {v}.", "The {s} image is built on {v}.", "We run {s} with {v}.", "{s} runtime: {v}."),
         nps=("the Python version for {s}", "{s}'s runtime"),
         cued=("UP|We upgraded {s} to {v}.", "UP|{s} was upgraded from {old} to {v}.",
               "DOWN|We pinned {s} back to {v} after the wheel build broke."),
         verbs=("bump", "rollback")),
    Attr("primary-db", "service", "dbhost",
         ("{s} reads and writes against {v}.", "The primary database for {s} is {v}.",
          "{s} points at {v} for its primary.", "{s} primary DB: {v}."),
         nps=("the primary database for {s}", "{s}'s primary DB host"),
         neg=("{s} doesn't use {v} as its primary.",),
         cued=("We cut {s} over from {old} to {v}.", "{s} was repointed at {v} during the failover."),
         verbs=("move", "migrate")),
    Attr("read-replica", "service", "dbhost",
         ("{s} sends its reporting queries to {v}.", "The read replica for {s} is {v}.",
          "{s} reads from the replica on {v}."),
         nps=("the read replica for {s}",),
         verbs=("move",)),
    Attr("replicas", "service", "replicas",
         ("{s} runs {v} replicas in prod.", "We keep {v} pods of {s} running in production.",
          "The prod replica count for {s} is {v}.", "{s} prod replicas: {v}."),
         nps=("the prod replica count for {s}", "the number of {s} replicas in prod"),
         cued=("We scaled {s} to {v} replicas in prod.", "{s} was scaled from {old} to {v} replicas."),
         details=("{s} runs {v} replicas in prod, spread across three availability zones.",),
         verbs=("bump",)),
    Attr("memory-limit", "service", "mem",
         ("The memory limit for {s} pods is {v}.", "{s} pods get {v} of memory.",
          "{s} is capped at {v} of memory per pod.", "{s} memory limit: {v}."),
         nps=("the memory limit for {s}", "{s}'s pod memory limit"),
         details=("The memory limit for {s} pods is {v}, with the request set at half of that.",),
         verbs=("bump",)),
    Attr("availability-slo", "service", "slo",
         ("{s} has a {v} availability SLO.", "The availability target for {s} is {v}.",
          "We promise {v} uptime for {s}.", "{s} SLO: {v} availability."),
         nps=("the availability SLO for {s}", "{s}'s availability target"),
         cued=("UP|We tightened the {s} availability SLO from {old} to {v}.",
               "DOWN|We relaxed the {s} availability SLO to {v} after the ops review."),
         details=("{s} has a {v} availability SLO, measured over a rolling 28-day window.",)),
    Attr("p95-target", "service", "ms",
         ("The p95 latency target for {s} is {v}.", "{s} should answer within {v} at p95.",
          "We aim for {v} p95 on {s}.", "{s} p95 target: {v}."),
         nps=("the p95 target for {s}", "{s}'s p95 latency target"),
         details=("The p95 latency target for {s} is {v}, measured at the load balancer rather than in the app.",),
         share=True),
    Attr("client-timeout", "service", "ms",
         ("Clients of {s} time out after {v}.", "The client timeout for {s} is {v}.",
          "Calls to {s} give up after {v}."),
         nps=("the client timeout for {s}",),
         verbs=("bump",), share=True),
    Attr("log-retention", "service", "retention",
         ("Logs for {s} are kept for {v}.", "We retain {s} logs for {v}.",
          "The log retention period for {s} is {v}.", "{s} log retention: {v}."),
         nps=("the log retention period for {s}",),
         details=("Logs for {s} are kept for {v}; anything older is archived to cold storage.",),
         verbs=("bump",), share=True),
    Attr("trace-retention", "service", "retention",
         ("Traces from {s} are kept for {v}.", "{s} traces stick around for {v}.",
          "The trace retention for {s} is {v}."),
         nps=("the trace retention for {s}",),
         share=True),
    Attr("alert-channel", "service", "channel",
         ("Alerts for {s} go to {v}.", "{s} alerts land in {v}.", "{v} is where {s} alerts show up.",
          "{s} alerting channel: {v}."),
         nps=("the alert channel for {s}", "{s}'s alert channel"),
         neg=("{s} alerts don't go to {v}.",),
         details=("Alerts for {s} go to {v}, and anything at SEV2 or above also pages the on-call.",),
         verbs=("move",), share=True),
    Attr("deploy-channel", "service", "channel",
         ("Deploy announcements for {s} are posted in {v}.", "{s} deploy notices go to {v}.",
          "We announce {s} deploys in {v}."),
         nps=("the deploy announcement channel for {s}",),
         verbs=("move",), share=True),
    Attr("primary-region", "service", "region",
         ("{s}'s primary region is {v}.", "The primary region for {s} is {v}.",
          "{s} is primarily deployed in {v}.", "{s} primary region: {v}."),
         nps=("the primary region for {s}", "{s}'s primary region"),
         neg=("{v} isn't the primary region for {s}.",),
         details=("{s}'s primary region is {v}, with a warm standby kept in sync every {n} minutes.",),
         verbs=("move", "migrate")),
    Attr("dr-region", "service", "region",
         ("{s} fails over to {v}.", "The DR region for {s} is {v}.", "Disaster recovery for {s} lives in {v}."),
         nps=("the DR region for {s}",),
         verbs=("move",)),
    Attr("ci", "service", "ci",
         ("{s} builds on {v}.", "CI for {s} runs on {v}.", "We build and test {s} in {v}.", "{s} CI: {v}."),
         nps=("the CI provider for {s}",),
         neg=("{s} doesn't build on {v}.",),
         details=("{s} builds on {v}; a full pipeline run takes about {n} minutes.",),
         verbs=("move", "migrate")),
    Attr("job-queue", "service", "queue",
         ("{s} will use {v} for background jobs.", "We're going with {v} for {s}'s job queue.",
          "The queue for {s} is {v}, as agreed in the design review.", "Decision: {s} uses {v} for background jobs."),
         nps=("the queue technology for {s}", "{s}'s job queue"),
         kind="decision",
         cued=("We reversed the decision on {s}: it uses {v} for background jobs instead of {old}.",
               "Change of plan: {s} will use {v} for its job queue, not {old}.")),
    Attr("db-migration", "service", "dbtarget",
         ("The plan is to move {s}'s database to {v}.", "We're planning to migrate {s} onto {v}.",
          "{s} is slated to move to {v} next quarter.", "Plan for {s}: migrate the database to {v}."),
         nps=("the migration target for {s}", "{s}'s planned database target"),
         kind="plan",
         cued=("Change of plan: {s} is going to {v} instead of {old}.",
               "We dropped the {old} plan; {s} will move to {v}.")),
    Attr("restart", "service", "proc",
         ("To restart {s}, {v}.", "If {s} needs a restart, {v}.", "Restart procedure for {s}: {v}."),
         kind="procedure",
         cued=("Runbook change for {s}: to restart it, {v}.", "The restart procedure for {s} changed: {v} instead."),
         questions=("What's the right way to restart {s}?", "How do we restart {s} safely?"),
         suffix=False),
    Attr("peak-traffic", "service", "rps",
         ("{s} peaks at around {v} on weekdays.", "We see about {v} at peak on {s}.",
          "Peak load on {s} is roughly {v}.", "{s} weekday peak: ~{v}."),
         nps=("peak traffic on {s}", "the weekday peak for {s}"),
         kind="observation",
         event=True),
    # --- hosts ------------------------------------------------------------------------------------
    Attr("os", "host", "os",
         ("{s} is on {v}.", "{s} runs {v}.", "The OS on {s} is {v}.", "{s} OS: {v}."),
         nps=("the OS on {s}", "{s}'s operating system"),
         cued=("{s} was rebuilt on {v}.", "We reimaged {s} with {v}."),
         details=("{s} is on {v}, with unattended security upgrades turned on.",)),
    Attr("instance-type", "host", "instance",
         ("The instance type for {s} is {v}.", "We run {s} on {v} instances.", "{s} is sized as {v}.",
          "{s} instance type: {v}."),
         nps=("the instance type for {s}",),
         cued=("We resized {s} to {v}.", "{s} was resized from {old} to {v}.")),
    Attr("backup-time", "host", "time",
         ("Backups for {s} run at {v}.", "{s} is backed up nightly at {v}.",
          "The nightly backup of {s} kicks off at {v}.", "{s} backup: {v} nightly."),
         nps=("the backup time for {s}", "the nightly backup slot for {s}"),
         details=("Backups for {s} run at {v} and get copied to a second region about an hour later.",),
         verbs=("move",), share=True),
    Attr("patch-time", "host", "time",
         ("{s} gets patched at {v} on Sundays.", "The patch window for {s} opens at {v} on Sundays.",
          "Sunday patching for {s} starts at {v}."),
         nps=("the Sunday patch window for {s}",),
         verbs=("move",), share=True),
    Attr("disk", "host", "disk",
         ("{s} has a {v} data volume.", "The data disk on {s} is {v}.", "{s} has {v} of storage attached.",
          "{s} disk: {v}."),
         nps=("the data volume on {s}", "the data disk size on {s}"),
         cued=("UP|We grew the data volume on {s} to {v}.", "UP|{s}'s volume was resized from {old} to {v}."),
         details=("{s} has a {v} data volume, currently a bit over half full.",),
         verbs=("bump",)),
    Attr("az", "host", "az",
         ("{s} sits in {v}.", "{s} is in availability zone {v}.", "The AZ for {s} is {v}."),
         nps=("the availability zone for {s}",),
         verbs=("move", "migrate")),
    # --- environments -----------------------------------------------------------------------------
    Attr("postgres", "env", "pgver",
         ("The {s} Postgres is on {v}.", "{s} runs Postgres {v}.", "Postgres in {s} is version {v}.",
          "We're on Postgres {v} in {s}.", "{s} Postgres: {v}."),
         nps=("the Postgres version in {s}", "{s}'s Postgres version"),
         cued=("UP|We upgraded the {s} Postgres to {v}.", "UP|{s} Postgres was upgraded from {old} to {v}.",
               "DOWN|We rolled the {s} Postgres back to {v}."),
         details=("The {s} Postgres is on {v}, with pg_stat_statements and pgaudit enabled.",)),
    Attr("kubernetes", "env", "k8s",
         ("{s} runs Kubernetes {v}.", "The {s} cluster is on Kubernetes {v}.", "Kubernetes in {s} is at {v}.",
          "{s} k8s: {v}."),
         nps=("the Kubernetes version in {s}", "the {s} cluster version"),
         cued=("UP|We upgraded the {s} cluster to Kubernetes {v}.", "UP|{s} went from Kubernetes {old} to {v}."),
         details=("{s} runs Kubernetes {v} on managed node groups, {n} nodes at the moment.",)),
    Attr("deploy-approvals", "env", "approvals",
         ("Deploys to {s} need {v}.", "You need {v} to deploy to {s}.", "A {s} deploy requires {v}."),
         nps=("the approval rule for {s} deploys",),
         details=("Deploys to {s} need {v}, and the approver can't be the author of the change.",),
         verbs=("bump",)),
    Attr("refresh-day", "env", "day",
         ("The {s} database is refreshed from a prod snapshot every {v}.", "{s} data gets reset from prod on {v}s.",
          "We refresh {s} from prod every {v}."),
         nps=("the refresh day for {s}", "{s}'s data refresh day"),
         verbs=("move",),
         subjects=("staging", "dev", "QA", "sandbox", "preview", "perf", "demo")),
    Attr("aws-account", "env", "account",
         ("{s} lives in AWS account {v}.", "The AWS account for {s} is {v}.", "{s} resources are in account {v}."),
         nps=("the AWS account for {s}",),
         verbs=("migrate",)),
    # --- plan tiers -------------------------------------------------------------------------------
    Attr("rate-limit", "tier", "rate",
         ("The {s} tier's rate limit is {v}.", "{s} accounts are limited to {v}.",
          "API calls on {s} are capped at {v}.", "Rate limit on the {s} plan: {v}."),
         nps=("the {s} rate limit", "the rate limit on the {s} tier"),
         details=("The {s} tier's rate limit is {v}, enforced per API key with a short burst allowance on top.",),
         verbs=("bump",),
         ranked=1),
    Attr("seats-included", "tier", "seats",
         ("The {s} plan includes {v} seats.", "{s} comes with {v} seats.", "You get {v} seats on {s}.",
          "{s} plan seats: {v}."),
         nps=("the seat allowance on {s}", "the number of seats included in {s}"),
         details=("The {s} plan includes {v} seats; extra seats are billed monthly.",),
         verbs=("bump",),
         ranked=1),
    Attr("price", "tier", "price",
         ("{s} costs {v} per seat per month.", "The {s} plan is priced at {v} a seat per month.",
          "We charge {v} per seat monthly on {s}.", "List price for {s}: {v}/seat/month."),
         nps=("the list price for {s}", "the {s} per-seat price"),
         cued=("UP|We raised the {s} price to {v} per seat.", "DOWN|{s} dropped to {v} per seat per month."),
         details=("{s} costs {v} per seat per month, or two months free on annual billing.",),
         subjects=("starter", "pro", "team", "business"),
         ranked=1),
    Attr("storage-quota", "tier", "storage",
         ("{s} workspaces get {v} of storage.", "The storage quota on {s} is {v}.",
          "{s} includes {v} of file storage."),
         nps=("the storage quota on {s}",),
         verbs=("bump",),
         ranked=1),
    Attr("first-response", "tier", "sla",
         ("{s} customers get a first response within {v}.", "The first-response SLA on {s} is {v}.",
          "We answer {s} tickets within {v}."),
         nps=("the first-response SLA for {s}",),
         details=("{s} customers get a first response within {v}, counted in business hours only.",),
         ranked=-1),
    Attr("audit-retention", "tier", "retention",
         ("{s} workspaces keep audit logs for {v}.", "Audit log retention on {s} is {v}.",
          "Audit logs on the {s} plan are kept for {v}."),
         nps=("the audit log retention on {s}",),
         verbs=("bump",), share=True,
         ranked=1),
    Attr("trash-retention", "tier", "retention",
         ("Deleted projects on {s} stay in the trash for {v}.", "{s} keeps deleted items recoverable for {v}.",
          "Trash retention on {s} is {v}."),
         nps=("the trash retention on {s}",),
         share=True,
         ranked=1),
    # --- customers --------------------------------------------------------------------------------
    Attr("account-manager", "customer", "person",
         ("{s}'s account manager is {v}.", "{v} manages the {s} account.", "{v} is the AM for {s}.",
          "The {s} account is handled by {v}.", "{s} AM: {v}."),
         nps=("the account manager for {s}", "{s}'s AM"),
         neg=("{v} isn't the account manager for {s}.",),
         details=("{s}'s account manager is {v}, who also runs their quarterly business reviews.",),
         verbs=("takeover",), share=True),
    Attr("csm", "customer", "person",
         ("{s}'s CSM is {v}.", "{v} is the customer success manager for {s}.",
          "Customer success for {s} sits with {v}."),
         nps=("the CSM for {s}",),
         verbs=("takeover",), share=True),
    Attr("plan", "customer", "tierval",
         ("{s} is on the {v} plan.", "{s} pays for the {v} tier.", "{s}'s subscription is on the {v} tier.",
          "{s} plan: {v}."),
         neg=("{s} isn't on the {v} plan.",),
         cued=("UP|{s} upgraded to the {v} plan.", "UP|{s} moved up from {old} to {v}.",
               "DOWN|{s} downgraded to the {v} plan.", "DOWN|{s} dropped from the {old} tier to {v}.",
               "{s} switched to the {v} plan.", "{s} is on the {v} plan now, not {old}."),
         questions=("Which plan is {s} on?", "What tier is {s} paying for these days?"),
         details=("{s} is on the {v} plan, billed annually with a purchase order.",)),
    Attr("renewal", "customer", "month",
         ("{s}'s renewal is in {v}.", "{s} renews in {v}.", "The {s} contract is up for renewal in {v}.",
          "{s} renewal: {v}."),
         nps=("{s}'s renewal date", "the {s} renewal"),
         cued=("UP|{s}'s renewal got pushed to {v}.", "UP|{s}'s renewal slipped from {old} to {v}.",
               "DOWN|{s}'s renewal was pulled forward to {v}."),
         details=("{s} renews in {v}; they've asked for a multi-year quote and a security questionnaire first.",),
         event=True),
    Attr("arr", "customer", "arr",
         ("{s} is worth {v} in ARR.", "{s}'s ARR is {v}.", "We bill {s} {v} a year.", "{s} contract value: {v}/yr."),
         nps=("{s}'s ARR",),
         cued=("UP|{s} expanded to {v} ARR.", "DOWN|{s} contracted to {v} ARR after cutting seats."),
         event=True),
    Attr("main-contact", "customer", "external",
         ("Our main contact at {s} is {v}.", "{v} is our point of contact at {s}.", "At {s}, we deal with {v}.",
          "{s} contact: {v}."),
         nps=("our main contact at {s}",),
         cued=("{old} left {s}; our contact there is {v}.",),
         details=("Our main contact at {s} is {v}, who prefers email to calls.",),
         verbs=("replace",)),
    Attr("support-channel", "customer", "supportch",
         ("{s} gets support through {v}.", "Support for {s} runs through {v}.", "{s} reaches us via {v}."),
         nps=("the support channel for {s}",),
         verbs=("move",)),
    Attr("data-region", "customer", "region",
         ("{s}'s data is hosted in {v}.", "We host {s}'s data in {v}.", "{s} data residency: {v}."),
         nps=("{s}'s data region",),
         neg=("{s}'s data isn't hosted in {v}.",),
         details=("{s}'s data is hosted in {v}, and their contract says it can't leave that region.",),
         verbs=("migrate", "move")),
    Attr("customer-seats", "customer", "cseats",
         ("{s} has {v} seats.", "{s} is licensed for {v} users.", "{s} pays for {v} seats."),
         nps=("{s}'s seat count",),
         cued=("UP|{s} grew to {v} seats.", "DOWN|{s} cut back to {v} seats.")),
    Attr("discount", "customer", "discount",
         ("{s} gets a {v} discount.", "{s} is on a {v} discount off list.", "Discount for {s}: {v}."),
         nps=("{s}'s discount",)),
    Attr("health", "customer", "health",
         ("{s}'s health score is {v}.", "{s} shows {v} on the health dashboard.", "Account health for {s}: {v}."),
         nps=("{s}'s health score",),
         kind="observation",
         event=True),
    Attr("payment-terms", "customer", "terms",
         ("{s} pays on {v} terms.", "{s}'s payment terms are {v}.", "Invoices to {s} are {v}."),
         questions=("What payment terms is {s} on?", "Does anyone know {s}'s payment terms?")),
    # --- tickets and incidents --------------------------------------------------------------------
    Attr("ticket-status", "ticket", "status",
         ("{s} is {v}.", "Status of {s}: {v}.", "{s} is marked {v} in the tracker."),
         nps=("the status of {s}",),
         cued=("{s} moved to {v}.", "{s} went from {old} to {v}."),
         event=True),
    Attr("assignee", "ticket", "person",
         ("{s} is assigned to {v}.", "{v} has {s}.", "{v} is working {s}.", "{s} assignee: {v}."),
         nps=("the assignee on {s}",),
         neg=("{s} isn't assigned to {v}.",),
         cued=("{s} was reassigned to {v}.", "{s} was reassigned from {old} to {v}."),
         details=("{s} is assigned to {v}, who's pairing with the owning team on the fix.",),
         verbs=("takeover",)),
    Attr("reviewer", "ticket", "person",
         ("{v} is reviewing the fix for {s}.", "The fix for {s} is with {v} for review.", "Reviewer on {s}: {v}."),
         nps=("the reviewer on {s}",)),
    Attr("severity", "ticket", "sev",
         ("{s} is a {v}.", "{s} is classified as {v}.", "Severity of {s}: {v}."),
         nps=("the severity of {s}",),
         cued=("UP|{s} was downgraded to {v}.", "DOWN|{s} was escalated to {v}."),
         event=True),
    Attr("priority", "ticket", "prio",
         ("{s} is a {v} ticket.", "{s} has priority {v}.", "Priority on {s}: {v}."),
         nps=("the priority on {s}",),
         event=True),
    Attr("root-cause", "ticket", "cause",
         ("Root cause of {s} was {v}.", "{s} was caused by {v}.", "The postmortem for {s} puts it down to {v}.",
          "{s} root cause: {v}."),
         nps=("the root cause of {s}",),
         neg=("{s} wasn't caused by {v}.",),
         negc=("After more digging, {s} turns out not to have been caused by {v}.",),
         cued=("Correction on {s}: the root cause was {v}, not {old}.",
               "The postmortem for {s} was revised: root cause is {v}.",
               "After more digging, {s} turned out to be caused by {v} rather than {old}."),
         details=("Root cause of {s} was {v}; the postmortem also flags slow alerting as a contributing factor.",),
         generic=False, suffix=False),
    Attr("fix-version", "ticket", "fixver",
         ("The fix for {s} is targeted for {v}.", "{s} should be fixed in {v}.", "{s} fix version: {v}."),
         nps=("the fix version for {s}",),
         cued=("UP|The fix for {s} slipped to {v}.", "DOWN|The fix for {s} was pulled into {v}."),
         verbs=("move",),
         event=True),
    # --- teammates --------------------------------------------------------------------------------
    Attr("person-team", "person", "team",
         ("{s} is on the {v} team.", "{s} works in {v}.", "{s}'s team is {v}."),
         nps=("{s}'s team",),
         neg=("{s} isn't on the {v} team.",),
         cued=("{s} moved to the {v} team.", "{s} switched from {old} to {v}.", "{s} transferred to {v}."),
         details=("{s} is on the {v} team and splits time with the hiring loop.",)),
    Attr("location", "person", "city",
         ("{s} works from {v}.", "{s} is based in {v}.", "{s}'s home base is {v}.", "{s} location: {v}."),
         nps=("{s}'s location",),
         neg=("{s} isn't based in {v}.",),
         cued=("{s} relocated to {v}.", "{s} moved from {old} to {v}."),
         details=("{s} works from {v}, so anything after 17:00 local time waits for the next day.",)),
    Attr("manager", "person", "person",
         ("{s} reports to {v}.", "{s}'s manager is {v}.", "{v} manages {s}.", "{s} reporting line: {v}."),
         nps=("{s}'s manager",),
         cued=("{s} reports to {v} after the reorg.",),
         verbs=("takeover",), share=True),
    Attr("mentor", "person", "person",
         ("{s}'s mentor is {v}.", "{v} mentors {s}.", "{s} pairs with {v} for mentoring."),
         nps=("{s}'s mentor",),
         share=True),
    Attr("title", "person", "title",
         ("{s}'s title is {v}.", "{s}'s role is {v}.", "Title for {s}: {v}."),
         nps=("{s}'s title",),
         cued=("{s} was promoted to {v}.",)),
    # --- meetings ---------------------------------------------------------------------------------
    Attr("meeting-day", "meeting", "day",
         ("The {s} is on {v}s.", "We hold the {s} every {v}.", "{s} happens on {v}s.", "{s} day: {v}."),
         nps=("the day of the {s}", "the {s} day"),
         neg=("The {s} isn't on {v}s.",),
         cued=("We moved the {s} to {v}s.", "The {s} moved from {old}s to {v}s."),
         details=("The {s} is on {v}s and {p} sends the agenda the afternoon before.",),
         subjects=tuple(m for m in SUBJECTS["meeting"] if m != "standup")),
    Attr("meeting-time", "meeting", "mtime",
         ("The {s} is at {v}.", "The {s} starts at {v}.", "We kick off the {s} at {v}.", "{s} time: {v}."),
         nps=("the {s} time", "the start time of the {s}"),
         details=("The {s} starts at {v} and is capped at {n} minutes.",),
         verbs=("move",)),
    Attr("meeting-room", "meeting", "room",
         ("The {s} is in {v}.", "We meet in {v} for the {s}.", "The {s} takes place in {v}.", "{s} room: {v}."),
         nps=("the room for the {s}",),
         neg=("The {s} isn't in {v}.",),
         verbs=("move",)),
    Attr("facilitator", "meeting", "person",
         ("The {s} is run by {v}.", "{v} facilitates the {s}.", "{v} chairs the {s}.", "{s} facilitator: {v}."),
         nps=("the facilitator for the {s}", "the chair of the {s}"),
         details=("The {s} is run by {v}, who keeps a running list of follow-ups in the notes doc.",),
         verbs=("takeover",), share=True),
    Attr("note-taker", "meeting", "person",
         ("{v} takes notes at the {s}.", "Notes for the {s} are taken by {v}.", "The {s} note-taker is {v}."),
         nps=("the note-taker for the {s}",),
         verbs=("takeover",), share=True),
    Attr("cadence", "meeting", "cadence",
         ("The {s} happens {v}.", "We run the {s} {v}.", "{s} cadence: {v}."),
         nps=("the {s} cadence",),
         subjects=("sprint planning", "retro", "incident review", "ops review", "pricing council",
                   "change advisory board", "customer advisory call", "design review")),
    # --- scheduled jobs ---------------------------------------------------------------------------
    Attr("job-schedule", "job", "time",
         ("The {s} runs at {v}.", "The {s} kicks off at {v} every night.", "We schedule the {s} for {v}.",
          "{s} schedule: {v} daily."),
         nps=("the {s} schedule", "the start time for the {s}"),
         details=("The {s} runs at {v} and usually finishes within {n} minutes.",),
         verbs=("move",)),
    Attr("job-host", "job", "runner",
         ("The {s} runs on {v}.", "The {s} is hosted on {v}.", "{v} is the box that runs the {s}.", "{s} host: {v}."),
         nps=("the host for the {s}",),
         neg=("The {s} doesn't run on {v}.",),
         verbs=("move", "migrate")),
    Attr("job-standby", "job", "runner",
         ("If its host dies, the {s} fails over to {v}.", "The standby host for the {s} is {v}."),
         nps=("the standby host for the {s}",)),
    Attr("job-timeout", "job", "jobtimeout",
         ("The {s} times out after {v}.", "The {s} gets killed if it runs longer than {v}.",
          "Timeout on the {s} is {v}.", "{s} timeout: {v}."),
         nps=("the timeout on the {s}",),
         verbs=("bump",)),
    Attr("job-owner", "job", "engteam",
         ("The {s} is owned by {v}.", "{v} owns the {s}.", "{s} owner: {v}."),
         nps=("the owner of the {s}",),
         verbs=("takeover",)),
    # --- feature flags ----------------------------------------------------------------------------
    Attr("rollout", "flag", "pct",
         ("{s} is live for {v} of accounts.", "The {s} flag is at {v}.", "{v} of accounts have {s} enabled.",
          "{s} rollout: {v}."),
         nps=("the rollout percentage for {s}", "the {s} rollout"),
         cued=("UP|We ramped {s} up to {v}.", "UP|{s} went from {old} to {v} of accounts.",
               "DOWN|We dialled {s} back to {v} after the error spike."),
         details=("{s} is live for {v} of accounts, excluding anyone on a custom contract.",),
         verbs=("bump",)),
    Attr("flag-owner", "flag", "person",
         ("The {s} flag belongs to {v}.", "{v} owns the {s} flag.", "{s} flag owner: {v}."),
         nps=("the owner of the {s} flag",),
         verbs=("takeover",)),
    Attr("flag-removal", "flag", "date",
         ("The {s} flag is due for removal on {v}.", "We plan to delete {s} from the code on {v}.",
          "{s} cleanup date: {v}."),
         nps=("the removal date for {s}",),
         kind="plan",
         cued=("UP|Removal of {s} slipped to {v}.",),
         verbs=("move",),
         event=True),
    # --- vendors ----------------------------------------------------------------------------------
    Attr("contract-owner", "vendor", "person",
         ("The {s} contract is owned by {v}.", "{v} owns our {s} contract.", "{v} is the contract owner for {s}.",
          "{s} contract owner: {v}."),
         nps=("the owner of the {s} contract",),
         verbs=("takeover",), share=True),
    Attr("tech-contact", "vendor", "person",
         ("{v} is our technical contact for {s}.", "Technical questions about {s} go to {v}.",
          "{s} tech contact: {v}."),
         nps=("the technical contact for {s}",),
         share=True),
    Attr("vendor-renewal", "vendor", "month",
         ("Our {s} contract renews in {v}.", "The {s} renewal comes up in {v}.", "{s} renews every {v}.",
          "{s} renewal month: {v}."),
         nps=("the {s} renewal month", "the renewal date for {s}"),
         cued=("UP|The {s} renewal got pushed to {v}.", "We co-termed {s} so it renews in {v}."),
         details=("Our {s} contract renews in {v}, and it auto-renews unless we give 60 days' notice.",),
         event=True),
    Attr("vendor-spend", "vendor", "spend",
         ("We pay {s} about {v} a month.", "Our {s} bill is around {v} per month.", "Monthly {s} spend: ~{v}."),
         nps=("our monthly {s} spend", "the {s} bill"),
         cued=("UP|Our {s} bill went up to {v} a month.", "DOWN|We got the {s} bill down to {v} a month.")),
    Attr("vendor-seats", "vendor", "vseats",
         ("We have {v} {s} seats.", "Our {s} plan covers {v} seats.", "{s} seats: {v}."),
         nps=("our {s} seat count",),
         verbs=("bump",)),
    # --- release trains ---------------------------------------------------------------------------
    Attr("code-freeze", "release", "date",
         ("Code freeze for {s} is {v}.", "We freeze {s} on {v}.", "The {s} branch freezes on {v}.",
          "{s} code freeze: {v}."),
         nps=("the {s} code freeze", "the code freeze date for {s}"),
         cued=("UP|The {s} code freeze slipped to {v}.", "DOWN|The {s} code freeze was pulled in to {v}."),
         details=("Code freeze for {s} is {v}; only fixes tagged release-blocker get in after that.",),
         verbs=("move",),
         event=True),
    Attr("ship-date", "release", "date",
         ("{s} ships on {v}.", "The {s} release goes out on {v}.", "Release date for {s}: {v}."),
         nps=("the {s} ship date", "the release date for {s}"),
         cued=("UP|{s} slipped to {v}.", "DOWN|{s} was pulled forward to {v}."),
         details=("{s} ships on {v}, with a staged rollout over the following {n} hours.",),
         verbs=("move",),
         event=True),
    Attr("release-captain", "release", "person",
         ("The release captain for {s} is {v}.", "{v} is captaining the {s} release.", "{v} drives the {s} release.",
          "{s} captain: {v}."),
         nps=("the release captain for {s}",),
         details=("The release captain for {s} is {v}, with {p} as backup.",),
         verbs=("takeover",), share=True),
    Attr("qa-lead", "release", "person",
         ("{v} leads QA for {s}.", "QA sign-off for {s} comes from {v}.", "{s} QA lead: {v}."),
         nps=("the QA lead for {s}",),
         verbs=("takeover",), share=True),
    # --- teams ------------------------------------------------------------------------------------
    Attr("cloud-budget", "team", "budget",
         ("{s}'s Q3 cloud budget is {v}.", "The {s} team has {v} of cloud budget for Q3.",
          "Q3 cloud budget, {s}: {v}."),
         nps=("{s}'s Q3 cloud budget",),
         cued=("UP|{s}'s Q3 cloud budget was raised to {v}.", "DOWN|{s}'s Q3 cloud budget was cut to {v}."),
         details=("{s}'s Q3 cloud budget is {v}, most of it earmarked for the database clusters.",)),
    Attr("headcount", "team", "hc",
         ("{s} has {v} engineers.", "The {s} team is {v} people.", "{s} headcount: {v}."),
         nps=("{s}'s headcount",),
         event=True),
    Attr("okr", "team", "okr",
         ("{s}'s top OKR this quarter is {v}.", "This quarter {s} is focused on {v}.", "Top {s} OKR: {v}."),
         nps=("{s}'s top OKR",),
         details=("{s}'s top OKR this quarter is {v}, reviewed every other week at the metrics review.",)),
    Attr("team-standup", "team", "mtime",
         ("{s} standup is at {v}.", "The {s} team stands up at {v}.", "{s} daily sync: {v}."),
         nps=("the {s} standup time",),
         verbs=("move",)),
    Attr("rotation-length", "team", "rotlen",
         ("The {s} on-call rotation is {v} long.", "{s} on-call shifts last {v}.", "{s} rotation length: {v}."),
         nps=("the {s} on-call shift length",)),
    # --- repositories -----------------------------------------------------------------------------
    Attr("merge-style", "repo", "merge",
         ("We prefer {v} in {s}.", "{s} uses {v} by convention.", "The team's preference for {s} is {v}.",
          "{s} merge style: {v}."),
         nps=("the merge convention for {s}",),
         kind="preference"),
    Attr("reviewers", "repo", "reviewers",
         ("PRs in {s} need {v}.", "{s} requires {v} per pull request.", "Review rule for {s}: {v}."),
         nps=("the review requirement for {s}",),
         verbs=("bump",)),
    Attr("default-branch", "repo", "branch",
         ("The default branch in {s} is {v}.", "{s} uses {v} as its default branch.", "{s} default branch: {v}."),
         nps=("the default branch in {s}",),
         cued=("We renamed the default branch in {s} from {old} to {v}.",)),
    Attr("code-owners", "repo", "engteam",
         ("{s} is code-owned by {v}.", "CODEOWNERS for {s} points at {v}.", "Code owners for {s}: {v}."),
         nps=("the code-owning team for {s}",)),
    # --- public API versions ----------------------------------------------------------------------
    Attr("api-sunset", "api", "date",
         ("The {s} API sunsets on {v}.", "We turn off {s} of the public API on {v}.", "{s} API end-of-life: {v}."),
         nps=("the sunset date for the {s} API",),
         cued=("UP|The {s} API sunset slipped to {v}.",),
         details=("The {s} API sunsets on {v}; customers still calling it get a warning header until then.",),
         verbs=("move",),
         event=True),
    Attr("api-limit", "api", "rate",
         ("The {s} API allows {v} per key.", "{s} endpoints are limited to {v} per key.",
          "Per-key limit on the {s} API: {v}."),
         nps=("the per-key limit on the {s} API",),
         verbs=("bump",)),
)  # fmt: skip

TOGGLES: tuple[Toggle, ...] = (
    Toggle("sso", "tier",
           ("The {s} plan includes SSO.", "SSO is available on {s}.", "{s} customers get SSO."),
           ("The {s} plan doesn't include SSO.", "SSO isn't available on {s}.", "No SSO on the {s} plan."),
           ("The {s} plan now includes SSO.", "Starting {date}, SSO is available on {s}.",
            "We added SSO to the {s} plan."),
           ("The {s} plan no longer includes SSO.", "SSO isn't available on {s} anymore.",
            "As of {date}, {s} customers don't get SSO."),
           questions=("Does the {s} plan include SSO?", "Do {s} customers get SSO or not?")),
    Toggle("scim", "tier",
           ("SCIM provisioning is included in {s}.", "{s} comes with SCIM provisioning."),
           ("{s} doesn't come with SCIM provisioning.", "SCIM isn't part of the {s} plan."),
           ("SCIM provisioning is now included in {s}.", "Going forward, {s} comes with SCIM provisioning."),
           ("SCIM was removed from the {s} plan.", "{s} no longer comes with SCIM provisioning."),
           questions=("Is SCIM provisioning part of {s}?",)),
    Toggle("audit-export", "tier",
           ("{s} workspaces can export audit logs.", "Audit log export is enabled on {s}."),
           ("{s} workspaces can't export audit logs.", "Audit log export isn't available on {s}."),
           ("{s} workspaces can now export audit logs.", "We turned on audit log export for {s}."),
           ("{s} workspaces can't export audit logs anymore.", "Audit log export was switched off for {s} {pdate}.")),
    Toggle("overages", "tier",
           ("{s} accounts are billed for overages.", "Overages on {s} are charged at list price."),
           ("{s} accounts aren't billed for overages.", "We don't charge overages on {s}."),
           ("{s} accounts are billed for overages as of {date}.", "We started charging overages on {s}."),
           ("We stopped charging overages on {s}.", "{s} accounts aren't billed for overages anymore."),
           questions=("Do we bill {s} accounts for overages?",)),
    Toggle("pii", "service",
           ("{s} stores PII.", "{s} keeps personal data in its database."),
           ("{s} doesn't store any PII.", "There's no personal data in {s}."),
           ("{s} stores PII now that the profile sync has landed.", "As of {date}, {s} keeps personal data."),
           ("{s} no longer stores PII.", "We purged the personal data from {s}; it doesn't keep any anymore."),
           questions=("Does {s} store any PII?", "Is there personal data in {s}?")),
    Toggle("public", "service",
           ("{s} is reachable from the public internet.", "{s} is exposed publicly."),
           ("{s} isn't reachable from the public internet.", "{s} is internal-only."),
           ("{s} is exposed publicly as of {date}.", "We opened {s} up to the public internet."),
           ("{s} is no longer reachable from the public internet.",
            "We locked {s} down; it's internal-only going forward."),
           questions=("Is {s} reachable from outside the VPN?",)),
    Toggle("host-backup", "host",
           ("{s} is covered by the nightly backup policy.", "{s} gets nightly snapshots."),
           ("{s} isn't covered by the nightly backup policy.", "{s} doesn't get nightly snapshots."),
           ("{s} was added to the nightly backup policy.", "{s} gets nightly snapshots now."),
           ("{s} was taken out of the nightly backup policy.", "{s} doesn't get nightly snapshots anymore."),
           questions=("Is {s} in the nightly backup policy?",)),
    Toggle("sso-enforced", "customer",
           ("{s} enforces SSO for all users.", "Everyone at {s} has to log in through SSO."),
           ("{s} doesn't enforce SSO.", "Password logins are allowed at {s}."),
           ("{s} turned on SSO enforcement {pdate}.", "As of {date}, everyone at {s} logs in through SSO."),
           ("{s} no longer enforces SSO.", "{s} switched SSO enforcement off {pdate}."),
           questions=("Does {s} enforce SSO?",)),
    Toggle("beta", "customer",
           ("{s} is in the usage-billing beta.", "{s} is one of our usage-billing beta accounts."),
           ("{s} isn't in the usage-billing beta.", "{s} is not part of the usage-billing beta."),
           ("{s} joined the usage-billing beta {pdate}.", "We added {s} to the usage-billing beta."),
           ("{s} left the usage-billing beta.", "{s} is no longer in the usage-billing beta."),
           questions=("Is {s} in the usage-billing beta?",)),
    Toggle("recorded", "meeting",
           ("The {s} is recorded.", "We record the {s}."),
           ("The {s} isn't recorded.", "We don't record the {s}."),
           ("We record the {s} from now on.", "Starting {date}, the {s} is recorded."),
           ("We stopped recording the {s}.", "The {s} isn't recorded anymore."),
           questions=("Do we record the {s}?",)),
    Toggle("auto-deploy", "env",
           ("{s} auto-deploys from main.", "Every merge to main goes straight to {s}."),
           ("{s} doesn't auto-deploy from main.", "Deploys to {s} are manual."),
           ("{s} auto-deploys from main as of {date}.", "We turned on auto-deploy from main for {s}."),
           ("{s} no longer auto-deploys from main.", "We switched {s} to manual deploys."),
           questions=("Does {s} auto-deploy from main?",)),
    Toggle("freeze", "env",
           ("{s} is under a deploy freeze.", "There's a deploy freeze on {s}."),
           ("There's no deploy freeze on {s}.", "{s} isn't frozen; deploys are open."),
           ("{s} is under a deploy freeze starting {date}.", "We froze deploys to {s}."),
           ("The deploy freeze on {s} has been lifted.", "{s} isn't frozen anymore."),
           questions=("Is {s} frozen for deploys right now?",)),
    Toggle("job-pages", "job",
           ("Failures of the {s} page the on-call.", "If the {s} fails, on-call gets paged."),
           ("Failures of the {s} don't page anyone.", "The {s} doesn't page on failure."),
           ("Failures of the {s} page the on-call from now on.", "We wired the {s} into PagerDuty so failures page."),
           ("The {s} no longer pages on failure.", "Failures of the {s} don't page anyone anymore."),
           questions=("Does a failed {s} page anyone?",)),
    Toggle("flag-prod", "flag",
           ("{s} is enabled in prod.", "The {s} flag is on in production."),
           ("{s} is disabled in prod.", "The {s} flag is off in production."),
           ("We flipped {s} on in prod.", "{s} is enabled in prod as of {date}."),
           ("We turned {s} off in prod.", "{s} is no longer enabled in prod."),
           questions=("Is {s} on in prod?",)),
    Toggle("flag-staging", "flag",
           ("{s} is enabled in staging.", "The {s} flag is on in staging."),
           ("{s} is disabled in staging.", "The {s} flag is off in staging."),
           ("We flipped {s} on in staging.", "{s} is enabled in staging as of {date}."),
           ("We turned {s} off in staging.", "{s} is no longer enabled in staging.")),
    Toggle("okta", "vendor",
           ("Logins to {s} go through Okta.", "{s} is behind Okta SSO."),
           ("{s} logins don't go through Okta.", "{s} isn't behind Okta."),
           ("{s} is behind Okta as of {date}.", "We moved {s} logins behind Okta."),
           ("{s} logins don't go through Okta anymore.", "We took {s} out of Okta {pdate}."),
           questions=("Is {s} behind Okta?",),
           subjects=tuple(v for v in SUBJECTS["vendor"] if v != "Okta")),
    Toggle("api-deprecated", "api",
           ("The {s} API is deprecated.", "{s} of the public API is marked deprecated."),
           ("The {s} API isn't deprecated.", "{s} of the public API is fully supported."),
           ("We deprecated the {s} API {pdate}.", "The {s} API is deprecated as of {date}."),
           ("The {s} API is no longer deprecated; we reversed that.", "We un-deprecated the {s} API {pdate}."),
           questions=("Is the {s} API deprecated?",)),
)  # fmt: skip

UNITS: tuple[Attr | Toggle, ...] = (*ATTRS, *TOGGLES)
# Slots of one subject that imply each other, so stating both is not plainly "complementary".
AT_ODDS = frozenset({
    frozenset({"host-backup", "backup-time"}),
    frozenset({"freeze", "auto-deploy"}),
    frozenset({"flag-prod", "rollout"}),
    frozenset({"api-deprecated", "api-sunset"}),
})  # fmt: skip

# ---------------------------------------------------------------------------------------------------
# Open loops: tasks and questions
# ---------------------------------------------------------------------------------------------------

# (object type, imperative, past, gerund); {o} is the object.
TASKS: tuple[tuple[str, str, str, str], ...] = (
    ("service", "add a readiness probe to {o}", "added a readiness probe to {o}", "adding a readiness probe to {o}"),
    ("service", "rotate the API keys for {o}", "rotated the API keys for {o}", "rotating the API keys for {o}"),
    ("service", "write a runbook for {o}", "wrote the runbook for {o}", "writing a runbook for {o}"),
    ("service", "turn on distributed tracing for {o}", "turned on distributed tracing for {o}",
     "turning on distributed tracing for {o}"),
    ("service", "upgrade the base image for {o}", "upgraded the base image for {o}",
     "upgrading the base image for {o}"),
    ("service", "set up an SLO dashboard for {o}", "set up the SLO dashboard for {o}",
     "setting up an SLO dashboard for {o}"),
    ("service", "remove the legacy v1 endpoints from {o}", "removed the legacy v1 endpoints from {o}",
     "removing the legacy v1 endpoints from {o}"),
    ("service", "load-test {o} at twice the normal peak", "load-tested {o} at twice the normal peak",
     "load-testing {o} at twice the normal peak"),
    ("host", "patch {o} for the OpenSSL CVE", "patched {o} for the OpenSSL CVE", "patching {o} for the OpenSSL CVE"),
    ("host", "resize the data volume on {o}", "resized the data volume on {o}", "resizing the data volume on {o}"),
    ("host", "decommission {o}", "decommissioned {o}", "decommissioning {o}"),
    ("host", "test a restore from {o}'s backups", "tested a restore from {o}'s backups",
     "testing a restore from {o}'s backups"),
    ("customer", "send {o} the renewal quote", "sent {o} the renewal quote", "sending {o} the renewal quote"),
    ("customer", "schedule a QBR with {o}", "scheduled the QBR with {o}", "scheduling a QBR with {o}"),
    ("customer", "follow up with {o} about the SSO rollout", "followed up with {o} about the SSO rollout",
     "following up with {o} about the SSO rollout"),
    ("customer", "get the signed DPA back from {o}", "got the signed DPA back from {o}",
     "chasing the signed DPA from {o}"),
    ("customer", "set up a shared Slack channel with {o}", "set up the shared Slack channel with {o}",
     "setting up a shared Slack channel with {o}"),
    ("ticket", "write the postmortem for {o}", "wrote the postmortem for {o}", "writing the postmortem for {o}"),
    ("ticket", "add a regression test for {o}", "added a regression test for {o}", "adding a regression test for {o}"),
    ("ticket", "reply to the customer on {o}", "replied to the customer on {o}", "replying to the customer on {o}"),
    ("env", "clean up the orphaned volumes in {o}", "cleaned up the orphaned volumes in {o}",
     "cleaning up the orphaned volumes in {o}"),
    ("env", "renew the TLS certs for {o}", "renewed the TLS certs for {o}", "renewing the TLS certs for {o}"),
    ("env", "reset the seed data in {o}", "reset the seed data in {o}", "resetting the seed data in {o}"),
    ("flag", "remove the {o} flag from the codebase", "removed the {o} flag from the codebase",
     "removing the {o} flag from the codebase"),
    ("flag", "write up the rollout plan for {o}", "wrote up the rollout plan for {o}",
     "writing up the rollout plan for {o}"),
    ("vendor", "cancel the unused {o} seats", "cancelled the unused {o} seats", "cancelling the unused {o} seats"),
    ("vendor", "review the {o} invoice", "reviewed the {o} invoice", "reviewing the {o} invoice"),
    ("release", "write the release notes for {o}", "wrote the release notes for {o}",
     "writing the release notes for {o}"),
    ("release", "cut the {o} release branch", "cut the {o} release branch", "cutting the {o} release branch"),
    ("meeting", "send out the agenda for the {o}", "sent out the agenda for the {o}",
     "sending out the agenda for the {o}"),
    ("meeting", "book a bigger room for the {o}", "booked a bigger room for the {o}",
     "booking a bigger room for the {o}"),
)  # fmt: skip
TASK_OPEN = (
    "TODO: {imp}.",
    "Action item from the retro: {imp}.",
    "{p} to {imp} by {day}.",
    "Can someone {imp}? Tracking it in {tkt}.",
    "Open item: {imp}.",
    "Follow-up for this week: {imp}.",
    "[ ] {imp}",
    "Someone needs to {imp}; {p} volunteered.",
    "Owner {p}: {imp}.",
    "Blocking the launch: we have to {imp}.",
    "We need to {imp} before the end of the sprint.",
)
TASK_DONE = (
    "Done: {past}.",
    "{p} {past} this morning.",
    "We {past} yesterday, closing {tkt}.",
    "Finished {ger}; everything looks fine.",
    "{Past}. Closing the action item.",
    "Marking this done: we {past}.",
    "✅ {Past}.",
    "Quick close-out: {past} and verified.",
    "{Past} on {day}, so {tkt} is closed.",
)
TASK_DROPPED = (
    "Dropping the action item to {imp}: {reason}.",
    "We're not {ger} after all; {reason}.",
    "Cancelled: {ger}. {Reason}.",
    "Won't do: {ger} ({reason}).",
    "No need to {imp} anymore: {reason}.",
    "Scrapping the plan to {imp}; {reason}.",
)
REASONS = (
    "it's no longer needed", "it got folded into a bigger project", "the team agreed it isn't worth the effort",
    "{p} confirmed it's out of scope", "priorities shifted at planning", "another team's project covers it",
)  # fmt: skip
TASK_AGAIN = (
    "Still need to {imp}.",
    "Reminder: we still need to {imp}.",
    "Carrying this over to next sprint: {imp}.",
    "Nobody has picked this up yet: {imp}.",
    "Still open: {imp}.",
    "Not done yet, we still have to {imp}.",
    "TODO (still open): {imp}.",
    "Bringing this up again: someone needs to {imp}.",
)
QUESTIONS = (
    "Open question: {wh} is {np}?",
    "Does anyone know {wh} {np} is?",
    "Q for the team: {wh} is {np} supposed to be?",
    "We still haven't pinned down {np}. Any ideas?",
    "Can someone confirm {np}? I couldn't find it in the runbook.",
    "Need an answer before launch: {wh} is {np}?",
    "Who can tell me {wh} {np} is?",
)
QUESTIONS_AGAIN = (
    "Still no answer on {np}.",
    "Bumping my question: {wh} is {np}?",
    "Any news on {np}? Still open.",
    "Reminder that we still don't know {wh} {np} is.",
    "Still waiting to hear {wh} {np} is.",
)
ANSWERS = (
    "Answering the question from earlier: {x}.",
    "Got an answer from {p}: {x}.",
    "To close the loop, {x}.",
    "Found it in the runbook: {x}.",
    "Checked with {p}, and {x}.",
    "Answer: {X}",
)

# ---------------------------------------------------------------------------------------------------
# Hand-written pairs: (frame, relation, a, b, kind_a, kind_b)
# ---------------------------------------------------------------------------------------------------

F, T, OQ, DEC, PROC, PREF, PLAN = "fact", "task", "open-question", "decision", "procedure", "preference", "plan"
SUP, CON, DUP, COMP, UNREL = "supersedes", "contradicts", "duplicate", "complementary", "unrelated"

# fmt: off
HAND: tuple[tuple[str, str, str, str, str, str], ...] = (
    # cued-change -> supersedes
    ("cued-change", SUP, "The billing cron runs at 02:00 UTC.",
     "We moved the billing cron to 03:30 UTC so it stops overlapping with the warehouse sync.", F, F),
    ("cued-change", SUP, "FYI the staging Postgres is on 16.2.",
     "FYI the staging Postgres is on 16.4 now, the upgrade finished around lunch.", F, F),
    ("cued-change", SUP, "Acme's renewal is due at the end of Q2.",
     "Heads up: Acme's renewal got pushed to Q3. Dana's handling it.", F, F),
    ("cued-change", SUP, "On-call handover happens Mondays at 10:00.",
     "Handover moves to Tuesdays at 10:00 starting next rotation, since Mondays clash with planning.", F, F),
    ("cued-change", SUP, "We page the SRE rotation for anything SEV2 and above.",
     "Going forward only SEV1s page SRE; SEV2s go to the owning team's rotation.", PROC, PROC),
    ("cued-change", SUP, "The status page is hosted on Statuspage.",
     "We switched the status page from Statuspage to Instatus last week; the old URL redirects.", F, F),
    ("cued-change", SUP, "Pro tier includes 5 seats.", "Pricing change: pro now includes 10 seats (was 5).", F, F),
    ("cued-change", SUP, "Holiday deploy freeze starts Dec 18.",
     "Correction: the holiday deploy freeze starts Dec 20, not the 18th.", F, F),
    ("cued-change", SUP, "Max upload size on the public API is 25 MB.",
     "Public API max upload size was bumped to 100 MB in 4.3.", F, F),
    ("cued-change", SUP, "Hey all, the VPN endpoint is vpn.eu.corp.example. Ping me if you can't connect. Thanks!",
     "VPN endpoint changed: use vpn2.eu.corp.example from Monday, the old one gets switched off.", F, F),
    ("cued-change", SUP, "Sales demos run off the demo environment seeded with the Northwind dataset.",
     "The demo env no longer uses the Northwind dataset; it's seeded with the synthetic Harbor dataset instead.",
     F, F),
    ("cued-change", SUP, "Dana is the escalation contact for Globex.",
     "Marco took over as Globex's escalation contact this week.", F, F),
    ("cued-change", SUP, "The incident review is on Thursdays at 15:00.",
     "Incident review is now Wednesdays at 15:00, invites went out.", F, F),
    ("cued-change", SUP, "Our Datadog contract renews in March.",
     "The Datadog renewal moved to June after we co-termed it with the APM add-on.", F, F),
    ("cued-change", SUP, "checkout-web talks to payments-gateway over REST.",
     "checkout-web switched to gRPC for payments-gateway calls as of the 5.0 release.", F, F),
    ("cued-change", SUP, "The availability SLO for search-api is 99.9%.",
     "We relaxed the search-api availability SLO from 99.9% to 99.5% after the ops review.", F, F),
    ("cued-change", SUP, "Support hours are 08:00 to 20:00 CET on weekdays.",
     "Starting April 1, support hours are 07:00 to 22:00 CET on weekdays.", F, F),
    ("cued-change", SUP, "TLS certs for *.corp are issued by the internal CA.",
     "We've migrated the *.corp certs off the internal CA; they come from Let's Encrypt now.", F, F),
    ("cued-change", SUP, "Initech is on net 60 payment terms.",
     "Finance renegotiated Initech down to net 30, starting with the next invoice.", F, F),
    ("cued-change", SUP, "Release trains leave every second Tuesday.",
     "Release cadence changed to weekly trains, every Tuesday, as of this quarter.", F, F),
    ("cued-change", SUP, "pricing-engine logs at DEBUG in prod.",
     "pricing-engine is back to INFO logging in prod; DEBUG was filling the disk.", F, F),
    ("cued-change", SUP, "The shared Slack channel with Contoso is #ext-contoso.",
     "Contoso asked us to use #contoso-support instead of #ext-contoso going forward.", F, F),
    ("cued-change", SUP, "Kafka retention on the orders topic is 7 days.",
     "Orders topic retention bumped to 14 days for the replay project.", F, F),
    ("cued-change", SUP, "Escalation policy: after 15 minutes unacknowledged, page the secondary.",
     "Updated the escalation policy, the secondary now gets paged after 10 minutes unacknowledged.", PROC, PROC),
    ("cued-change", SUP, "Wei is the release captain for 4.3.",
     "Hana has taken over as release captain for 4.3; Wei moves to 4.4.", F, F),
    ("cued-change", SUP, "The ops review deck lives in the Ops Reviews shared drive.",
     "Ops review decks are in Notion now, not the shared drive.", F, F),
    ("cued-change", SUP, "The Platform team's observability budget is $15k a month.",
     "Observability budget for Platform was cut to $11k a month from July.", F, F),
    ("cued-change", SUP, "Kenji owns the GDPR purge job.",
     "Ownership of the GDPR purge job moved from Kenji to the Data Infra team.", F, F),
    ("cued-change", SUP, "Runbook: to drain a node, cordon it and wait for the PDBs.",
     "Runbook change: we drain nodes with the drain-node script instead of cordoning by hand.", PROC, PROC),
    ("cued-change", SUP, "We decided to keep audit-log-service on Postgres.",
     "Reversing the earlier call: audit-log-service moves to ClickHouse next quarter.", DEC, DEC),
    ("cued-change", SUP,
     "Hey team, quick note from the sales sync. Wingtip's contract is worth $85k ARR and they're happy with "
     "the rollout so far. Thanks Maya for pushing this over the line!",
     "Wingtip expanded to $120k ARR this week after adding the analytics add-on.", F, F),
    ("cued-change", SUP, "Reminder: backups for pg-main-1 run at 01:00 UTC.",
     "We shifted pg-main-1 backups to 03:00 UTC to stay clear of the nightly export.", F, F),
    ("cued-change", SUP, "The CS weekly is in the Harbor room.",
     "CS weekly has moved to the Birch room while the Harbor room is being refurbished.", F, F),
    ("cued-change", SUP, "SUP-8812 is waiting on the customer.",
     "SUP-8812 is back with us now, the customer replied with logs.", F, F),
    # uncued-change -> contradicts
    ("uncued-change", CON, "The billing cron runs at 02:00 UTC.", "Billing cron kicks off at 04:00 UTC.", F, F),
    ("uncued-change", CON, "Acme's account manager is Dana.", "Acme's AM is Priya.", F, F),
    ("uncued-change", CON, "db-orders-2 is an r6g.xlarge.", "db-orders-2 is running on an m6i.2xlarge.", F, F),
    ("uncued-change", CON,
     "Hi all! Just a reminder that the change advisory board meets Thursdays at 14:00. Bring your change "
     "requests. Thanks!",
     "Change advisory board meets on Wednesdays at 14:00.", F, F),
    ("uncued-change", CON, "The enterprise tier's API rate limit is 10k requests per minute.",
     "Enterprise customers are capped at 20k requests/min on the API.", F, F),
    ("uncued-change", CON, "INC-2231 was caused by an expired TLS certificate on the edge proxy.",
     "Root cause for INC-2231: a bad config push to the edge proxy.", F, F),
    ("uncued-change", CON, "Sentry alerts for checkout-api go to #alerts-payments.",
     "checkout-api Sentry alerts land in #checkout-eng.", F, F),
    ("uncued-change", CON, "Our main contact at Halden Bank is Beth Kowalski.",
     "Primary contact at Halden Bank: Raj Mehta (IT procurement).", F, F),
    ("uncued-change", CON, "Code freeze for 5.0 is May 28.", "5.0 code freeze is on June 4.", F, F),
    ("uncued-change", CON, "Staging is in us-east-1.", "Staging lives in eu-west-1.", F, F),
    ("uncued-change", CON, "We prefer squash merges in infra-live.", "infra-live uses merge commits, no squashing.",
     PREF, PREF),
    ("uncued-change", CON, "Growth's Q3 OKR is getting activation to 45%.", "Growth's Q3 OKR: activation to 40%.",
     F, F),
    ("uncued-change", CON, "The team plan tops out at 50 seats.", "Team plan max is 25 seats.", F, F),
    ("uncued-change", CON, "usage-billing-v2 is at 25% of accounts.", "usage-billing-v2 is live for half of accounts.",
     F, F),
    # negation
    ("negation", CON, "The free tier includes API access.", "Free tier doesn't get API access.", F, F),
    ("negation", SUP, "smart-search is enabled for all enterprise workspaces.",
     "smart-search is no longer enabled for enterprise workspaces; we turned it off after INC-2302.", F, F),
    ("negation", CON, "Globex has SSO enforced.", "Globex doesn't enforce SSO; password login is allowed.", F, F),
    ("negation", SUP, "The retro isn't recorded.",
     "As of this sprint the retro is recorded, the link goes in the notes doc.", F, F),
    ("negation", CON, "Weekend deploys are allowed for hotfixes.", "No weekend deploys, hotfixes included.", F, F),
    ("negation", SUP, "The backup verification job pages the on-call when it fails.",
     "The backup verification job doesn't page anyone anymore; failures just open a ticket.", F, F),
    ("negation", CON, "Fabrikam is in the usage-billing beta.", "Fabrikam isn't in the usage-billing beta.", F, F),
    ("negation", CON, "es-logs-1 is excluded from the nightly snapshots.",
     "es-logs-1 is included in the nightly snapshots.", F, F),
    ("negation", CON, "Contractors don't get access to the prod bastion.",
     "Contractors have access to the prod bastion through the break-glass group.", F, F),
    ("negation", SUP, "Acme has a dedicated support engineer.",
     "Acme doesn't have a dedicated support engineer anymore since the downgrade to pro.", F, F),
    # cue-same-value -> duplicate
    ("cue-same-value", DUP, "Standup is at 09:45.", "Standup is now at 09:45.", F, F),
    ("cue-same-value", DUP, "The staging Postgres is on 16.4.", "As of this morning the staging Postgres is on 16.4.",
     F, F),
    ("cue-same-value", DUP, "Dana is the account manager for Acme.", "Going forward, Dana is Acme's account manager.",
     F, F),
    ("cue-same-value", DUP, "Pro tier rate limit: 1,000 requests/min.",
     "Updated: the pro tier rate limit is 1,000 requests a minute.", F, F),
    ("cue-same-value", DUP, "billing-api deploys on Tuesdays.", "billing-api deploys moved to Tuesdays.", F, F),
    ("cue-same-value", DUP, "The on-call handover is at 16:00 UTC on Fridays.",
     "Heads up, starting next week the on-call handover is Fridays at 16:00 UTC.", F, F),
    ("cue-same-value", DUP, "Incident comms for enterprise customers go through their CSM.",
     "From now on, incident comms for enterprise customers go through the CSM.", PROC, PROC),
    ("cue-same-value", DUP, "The quarterly access review is owned by Security.",
     "Access reviews (quarterly) are now owned by Security.", F, F),
    # paraphrase -> duplicate
    ("paraphrase", DUP, "We moved the billing cron to 02:00 UTC.", "The billing cron's schedule is 2am UTC.", F, F),
    ("paraphrase", DUP, "Acme's renewal got pushed to Q3; Dana's handling it.",
     "Dana owns the Acme renewal, which is in Q3.", F, F),
    ("paraphrase", DUP, "payments-gateway is owned by the Payments team.", "The Payments team owns payments-gateway.",
     F, F),
    ("paraphrase", DUP, "Logs from audit-log-service are retained for a year.",
     "audit-log-service log retention: 365 days.", F, F),
    ("paraphrase", DUP, "If db-orders-1 goes down, fail over to db-orders-2 with a Patroni switchover.",
     "Failover target for db-orders-1 is db-orders-2 (Patroni switchover).", PROC, PROC),
    ("paraphrase", DUP, "New hires get prod read access only after two weeks.",
     "Prod read access for new starters kicks in at the two-week mark.", F, F),
    ("paraphrase", DUP, "Initech pays on net 60.", "Initech's payment terms are sixty days net.", F, F),
    ("paraphrase", DUP, "The pricing council signs off on any discount above 20%.",
     "Discounts over 20% need pricing council approval.", PROC, PROC),
    ("paraphrase", DUP,
     "Morning team. Reminder that SEV1s require a status page post within 30 minutes. Thanks!",
     "For a SEV1, the status page has to be updated within half an hour.", PROC, PROC),
    ("paraphrase", DUP, "export-worker is capped at 4 concurrent jobs per workspace.",
     "Per workspace, export-worker runs at most four jobs at once.", F, F),
    ("paraphrase", DUP, "VPN is required for the admin console.", "Admin console access needs the VPN.", F, F),
    # restated -> duplicate
    ("restated", DUP, "Reminder: the quarterly DR drill is on June 12.", "The DR drill this quarter is on June 12.",
     F, F),
    ("restated", DUP, "Kenji is on call for Identity this week.",
     "For anyone asking, Kenji is on call for Identity this week.", F, F),
    # other-subject -> complementary
    ("other-subject", COMP, "billing-api deploys on Fridays.", "search-api deploys on Fridays.", F, F),
    ("other-subject", COMP, "The staging Postgres is on 16.4.", "The prod Postgres is now on 16.4 as well.", F, F),
    ("other-subject", COMP, "Acme's renewal got pushed to Q3.", "Globex's renewal got pushed to Q3 too.", F, F),
    ("other-subject", COMP, "INC-2231 is assigned to Wei.", "INC-2240 is now assigned to Wei.", F, F),
    ("other-subject", COMP, "The free tier's rate limit is 60 requests a minute.",
     "The starter tier's rate limit changed from 60 to 100 requests a minute.", F, F),
    ("other-subject", COMP, "db-orders-1 is on Ubuntu 22.04.",
     "db-orders-2 was migrated to Ubuntu 22.04 over the weekend.", F, F),
    ("other-subject", COMP, "v2 of the public API sunsets on 30 September.",
     "v1 of the public API sunsets on 30 September.", F, F),
    ("other-subject", COMP, "Hana is on call for Platform this week.", "Hana is on call for Payments this week.",
     F, F),
    ("other-subject", COMP, "The release captain for 4.3 is Wei.", "The release captain for 4.4 is Wei too.", F, F),
    ("other-subject", COMP, "Contoso is on the enterprise plan.",
     "Fabrikam moved to the enterprise plan as of this month.", F, F),
    ("other-subject", COMP, "Pages for checkout-api go to the Payments rotation.",
     "Pages for checkout-web go to the Payments rotation.", F, F),
    ("other-subject", COMP, "sso-enforcement is at 100% in prod-eu.",
     "sso-enforcement is at 100% in prod-us since Tuesday.", F, F),
    # other-attribute -> complementary
    ("other-attribute", COMP, "db-orders-2 runs in eu-west-1.", "db-orders-2's backups are copied to eu-central-1.",
     F, F),
    ("other-attribute", COMP, "Dana is Acme's account manager.", "Dana runs Acme's quarterly business reviews.", F, F),
    ("other-attribute", COMP, "The retro is on Thursdays.", "The retro is facilitated by Femi.", F, F),
    ("other-attribute", COMP, "search-api's p95 latency target is 300 ms.", "search-api's client timeout is 300 ms.",
     F, F),
    ("other-attribute", COMP, "The pro tier's rate limit is 1,000 requests a minute.",
     "The pro tier now costs $20 per seat per month.", F, F),
    ("other-attribute", COMP, "INC-2240 is a SEV2.", "INC-2240 is now assigned to Carla.", F, F),
    ("other-attribute", COMP, "Globex renews in September.", "Globex's seat count went up to 350.", F, F),
    # added-detail -> complementary
    ("added-detail", COMP, "billing-api deploys on Fridays.",
     "billing-api deploys on Fridays, right after the 14:00 UTC release sync, and the rollout takes about "
     "25 minutes.", F, F),
    ("added-detail", COMP, "Acme's renewal is in Q3.",
     "Acme's renewal is in Q3; they want a 3-year term and a security review before signing.", F, F),
    ("added-detail", COMP, "The warehouse sync runs at 01:00 UTC.",
     "The warehouse sync runs at 01:00 UTC and usually finishes in about 40 minutes.", F, F),
    ("added-detail", COMP, "INC-2187 was caused by connection pool exhaustion on checkout-api.",
     "INC-2187 was caused by connection pool exhaustion on checkout-api: the pool was sized at 20 while "
     "traffic needed about 60 connections.", F, F),
    ("added-detail", COMP, "The staging Postgres is on 16.4.",
     "Staging Postgres is on 16.4, single node, 500 GB volume, nightly snapshots.", F, F),
    ("added-detail", COMP, "Sofia is the point of contact for the Okta migration.",
     "Sofia is the point of contact for the Okta migration and runs the Tuesday check-ins.", F, F),
    # topic-shift -> unrelated
    ("topic-shift", UNREL, "The staging Postgres is on 16.4.",
     "Staging credentials for the sales demo are in the shared 1Password vault.", F, F),
    ("topic-shift", UNREL, "Dana is Acme's account manager.",
     "Dana's birthday lunch is on Friday at 12:30, sign up in the thread.", F, F),
    ("topic-shift", UNREL, "billing-api deploys on Fridays.", "Friday's all-hands has moved to 16:00.", F, F),
    ("topic-shift", UNREL, "INC-2231 is resolved.",
     "The office wifi password changed; it's on the whiteboard by the kitchen.", F, F),
    ("topic-shift", UNREL, "Our Datadog bill was $12k last month.",
     "The Datadog agent on ci-runner-7 needs a restart after the kernel patch.", F, T),
    ("topic-shift", UNREL, "Kenji is on call this weekend.",
     "Kenji's talk on Kafka tuning got accepted for the internal tech day.", F, F),
    ("topic-shift", UNREL, "The pro tier rate limit is 1,000 requests a minute.",
     "We're hiring a second professional services consultant for EMEA.", F, F),
    ("topic-shift", UNREL, "prod-eu runs Kubernetes 1.29.",
     "The EU sales team's pipeline review is every Monday at 09:00.", F, F),
    ("topic-shift", UNREL, "The billing cron runs at 02:00 UTC.",
     "Billing questions from enterprise customers go to finance-ops rather than support.", F, PROC),
    ("topic-shift", UNREL, "Payments team standup is at 09:30.",
     "payments-gateway returns 402 for expired cards, not 400.", F, F),
    # loops
    ("loop-done", SUP, "TODO: renew the wildcard cert for *.corp before it expires on the 30th.",
     "The wildcard cert for *.corp is renewed, good until next August.", T, F),
    ("loop-done", SUP, "Action item: Ravi to email Orbis Media about the data export delay.",
     "Ravi emailed Orbis Media about the export delay; they're fine with Monday.", T, F),
    ("loop-done", SUP, "Need to decommission the old Jenkins box (ci-legacy-1).",
     "We're keeping ci-legacy-1 after all, the decommission is cancelled because the mobile team still needs it.",
     T, F),
    ("loop-done", SUP, "Someone should write the postmortem for INC-2302.",
     "The postmortem for INC-2302 is written and published in the incidents space.", T, F),
    ("question-answered", SUP, "Does anyone know whether Lamna Healthcare needs their data kept in the EU?",
     "Confirmed with Lamna's DPO: their data has to stay in eu-central-1.", OQ, F),
    ("question-answered", SUP, "Who is covering on-call for Identity over the bank holiday?",
     "Leila is covering Identity on-call over the bank holiday.", OQ, F),
    ("question-answered", SUP, "What's the max file size the import API accepts?",
     "The import API accepts files up to 50 MB.", OQ, F),
    ("task-restated", DUP, "TODO: clean up the orphaned EBS volumes in the perf account.",
     "Still need to clean up those orphaned EBS volumes in perf.", T, T),
    ("question-restated", DUP, "Open question: are we keeping the legacy-dashboard flag past 5.0?",
     "Still no decision on whether legacy-dashboard survives past 5.0.", OQ, OQ),
    ("loop-other-task", COMP, "TODO: rotate the Stripe webhook secret for billing-api.",
     "TODO: rotate the Stripe webhook secret for payments-gateway.", T, T),
    ("loop-other-task", COMP, "Need to upgrade redis-cache-1 to Redis 7.2.", "redis-cache-2 is upgraded to Redis 7.2.",
     T, F),
    ("question-other", COMP, "Which region will the new Redis cluster go in?",
     "How big should the new Redis cluster be?", OQ, OQ),
    ("question-other", COMP, "Do we know when Globex's renewal is?", "Initech's renewal is in November.", OQ, F),
)
# fmt: on

# ---------------------------------------------------------------------------------------------------
# Text helpers
# ---------------------------------------------------------------------------------------------------

Form = tuple[str, str, int]  # (mode, template, frame or noun-phrase index)


def is_identifier(token: str) -> bool:
    """True for tokens written as identifiers (billing-api, INC-2231, iOS, v2), which keep their case."""
    return any(c in token for c in "-_.#/`@$%~0123456789") or any(c.isupper() for c in token[1:])


def cap(text: str) -> str:
    """Capitalise a sentence unless it opens with an identifier."""
    if not text or not text[0].isalpha() or is_identifier(text.split(" ", 1)[0]):
        return text
    return text[0].upper() + text[1:]


def decap(text: str) -> str:
    """Lower the first letter so a sentence can follow a cue ("As of Monday, the ...")."""
    if any(text.startswith(name) and text[len(name) : len(name) + 1] in {"", " ", "'", ",", ":"} for name in PROPER):
        return text
    first = text.split(" ", 1)[0].rstrip(",:;")
    if not first.isalpha() and "'" not in first:
        return text
    if first[0].isupper() and (len(first) == 1 or first[1:].islower()):
        return text[0].lower() + text[1:]
    return text


def bare(text: str) -> str:
    """The sentence without its final full stop."""
    return text[:-1] if text.endswith(".") else text


def possessive(template: str, kw: dict[str, str]) -> str:
    """Write "Payments' budget" rather than "Payments's budget"."""
    for key in ("s", "o"):
        if kw.get(key, "").endswith("s"):
            template = template.replace("{" + key + "}'s", "{" + key + "}'")
    return template


def fill(template: str, kw: dict[str, str]) -> str:
    return cap(possessive(template, kw).format_map(kw))


def phrase(template: str, kw: dict[str, str]) -> str:
    """Fill a phrase that goes mid-sentence (no capital)."""
    return possessive(template, kw).format_map(kw)


def strip_dir(template: str) -> str:
    return template.split("|", 1)[1] if template.startswith(("UP|", "DOWN|")) else template


def prefixable(frame: str) -> bool:
    """A frame that reads as a plain sentence, so a cue or a chatty opener can go in front of it."""
    return ":" not in frame and not frame.startswith("[")


def wrap(template: str, sentence: str, ex: dict[str, str], old: str = "") -> str:
    kw = {**ex, "X": sentence, "Xn": bare(sentence), "x": decap(bare(sentence)), "old": old}
    return fill(template, kw)


def vals(vtype: str) -> list[tuple[str, ...]]:
    return [tuple(v.split("|")) for v in VALUES[vtype]]


def extras(rng: random.Random, avoid: set[str]) -> dict[str, str]:
    """Per-pair fillers (a date, a ticket, a teammate...), shared by both sides of the pair."""

    def pick(pool: tuple[str, ...]) -> str:
        return rng.choice([x for x in pool if x not in avoid])

    return {
        "date": rng.choice(DATES),
        "pdate": rng.choice(PDATES),
        "tkt": pick(TICKETS),
        "p": pick(PEOPLE),
        "t": rng.choice(CLOCK),
        "n": str(rng.choice((10, 15, 20, 25, 30, 40))),
        "day": rng.choice(DAYS),
    }


def say(frame: str, s: str, v: str, ex: dict[str, str], old: str = "") -> str:
    return fill(strip_dir(frame), {**ex, "s": s, "v": v, "old": old})


def np_say(template: str, np_t: str, s: str, v: str, old: str, ex: dict[str, str]) -> str:
    np = phrase(np_t, {**ex, "s": s})
    return fill(strip_dir(template), {**ex, "np": np, "NP": cap(np), "s": s, "v": v, "old": old})


def longify(rng: random.Random, core: str) -> str:
    """Embed a statement in a chatty multi-sentence message (greeting, context, filler, sign-off)."""
    slots = ["greet", "ctx", "ctx2", "fill", "sign"]
    chosen = sorted(rng.sample(range(5), rng.choice((2, 2, 3, 3, 4))))
    ctx = rng.sample(CONTEXTS, 2)
    before: list[str] = []
    after: list[str] = []
    for i in chosen:
        slot = slots[i]
        if slot == "greet":
            before.append(rng.choice(GREETINGS))
        elif slot in {"ctx", "ctx2"}:
            before.append(ctx[0] if slot == "ctx" else ctx[1])
        elif slot == "fill":
            after.append(rng.choice(FILLERS))
        else:
            after.append(rng.choice(SIGNOFFS))
    return " ".join([*before, core, *after])


def chatty(rng: random.Random, sentence: str) -> str:
    return f"{rng.choice(CHATTY)} {decap(bare(sentence))}."


# ---------------------------------------------------------------------------------------------------
# Pairs
# ---------------------------------------------------------------------------------------------------


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
    reworded: bool = False
    hand: bool = False
    no_long: bool = False


class Maker:
    """Builds pairs of one pattern at a time from the slots above."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.with_neg = [a for a in ATTRS if a.neg]
        self.with_detail = [a for a in ATTRS if a.details]
        self.askable = [a for a in ATTRS if a.nps or a.questions]
        self.generic = [a for a in ATTRS if a.generic]

    # --- small pieces -----------------------------------------------------------------------------

    def subject(self, pool: tuple[str, ...]) -> str:
        return self.rng.choice(pool)

    def sibling(self, pool: tuple[str, ...], s: str) -> str:
        """Another subject of the same type, usually a near neighbour (db-orders-1 / db-orders-2)."""
        i = pool.index(s)
        near = [pool[j] for j in range(max(0, i - 2), min(len(pool), i + 3)) if j != i]
        if near and self.rng.random() < 0.6:
            return self.rng.choice(near)
        return self.rng.choice([x for x in pool if x != s])

    def value_ids(self, attr: Attr, avoid: set[str], k: int, s: str = "") -> list[int]:
        """k distinct values; for ranked attributes, values plausible for the subject (free < pro < enterprise)."""
        options = [i for i, v in enumerate(vals(attr.vtype)) if v[0] not in avoid]
        pool = attr.pool()
        if attr.ranked and s in pool:
            top = len(vals(attr.vtype)) - 1
            centre = round(pool.index(s) * top / max(1, len(pool) - 1))
            centre = centre if attr.ranked > 0 else top - centre
            near = [i for i in options if abs(i - centre) <= 2]
            options = near if len(near) >= k else options
        return self.rng.sample(options, k)

    def surface(self, attr: Attr, i: int, alias: bool = False) -> str:
        forms = vals(attr.vtype)[i]
        return self.rng.choice(forms) if alias else forms[0]

    def frame_id(self, attr: Attr, wrappable: bool = False) -> int:
        ids = [i for i, f in enumerate(attr.frames) if prefixable(f) or not wrappable]
        return self.rng.choice(ids)

    def cue_forms(self, attr: Attr, fi: int, oi: int, ni: int, same: bool) -> tuple[list[Form], list[Form]]:
        """Update-cue renderings of the newer value: on the same frame as ``a``, and reworded."""
        keep: list[Form] = []
        reword: list[Form] = []
        ordered = attr.vtype in ORDERED

        def usable(t: str) -> bool:
            if same and "{old}" in t:
                return False
            if t.startswith("UP|"):
                return ordered and ni > oi
            if t.startswith("DOWN|"):
                return ordered and ni < oi
            return True

        for j, frame in enumerate(attr.frames):
            target = keep if j == fi else reword
            if not attr.generic:
                if prefixable(frame) and not same:
                    target.append(("wrap", "Correction: {X}", j))
                continue
            if prefixable(frame):
                target.extend(
                    ("wrap", t, j)
                    for t, same_ok, ongoing in PREFIX_CUES
                    if (same_ok or not same) and not (ongoing and attr.event)
                )
            if attr.suffix:
                whole = prefixable(frame) and not attr.event
                target.extend(("wrap", t, j) for t in (SUFFIX_CUES if whole else SUFFIX_CUES[:1]))
                if not same and frame.endswith("{v}."):
                    target.extend(("wrap", t, j) for t in SUFFIX_OLD_CUES)
        if attr.generic:
            for k in range(len(attr.nps)):
                reword.extend(
                    ("np", t, k)
                    for t in NP_CUES
                    if (not same or t in NP_SAME_OK) and not (attr.event and t in NP_ONGOING)
                )
                reword.extend(("np", t, k) for t in NP_OLD_CUES if usable(t) and not (attr.event and t in NP_ONGOING))
                for cls in attr.verbs:
                    reword.extend(("np", t, k) for t in VERB_CUES[cls] if usable(t))
        reword.extend(("attr", t, -1) for t in attr.cued if usable(t))
        return keep, reword

    def render(self, attr: Attr, form: Form, s: str, v: str, old: str, ex: dict[str, str]) -> str:
        mode, t, idx = form
        if mode == "wrap":
            return wrap(t, say(attr.frames[idx], s, v, ex), ex, old)
        if mode == "np":
            return np_say(t, attr.nps[idx], s, v, old, ex)
        return say(t, s, v, ex, old)

    def cued(self, attr: Attr, s: str, fi: int, oi: int, ni: int, ex: dict[str, str]) -> tuple[str, bool] | None:
        """The newer statement with an update cue; returns (text, reworded)."""
        keep, reword = self.cue_forms(attr, fi, oi, ni, same=oi == ni)
        if not keep and not reword:
            return None
        pool = reword if (reword and self.rng.random() < REWORD_SHARE) or not keep else keep
        form = self.rng.choice(pool)
        v = self.surface(attr, ni, alias=self.rng.random() < 0.15)
        old = self.surface(attr, oi)
        return self.render(attr, form, s, v, old, ex), pool is reword

    def attr_slot(self, pool: list[Attr] | None = None) -> tuple[Attr, str, dict[str, str]]:
        attr = self.rng.choice(pool or list(ATTRS))
        s = self.subject(attr.pool())
        return attr, s, extras(self.rng, {s})

    # --- value changes ----------------------------------------------------------------------------

    def cued_change(self) -> Pair | None:
        attr, s, ex = self.attr_slot()
        oi, ni = self.value_ids(attr, {s, ex["p"]}, 2, s=s)
        fi = self.frame_id(attr)
        a = say(attr.frames[fi], s, self.surface(attr, oi), ex)
        got = self.cued(attr, s, fi, oi, ni, ex)
        if got is None:
            return None
        return Pair(a, got[0], SUP, "cued-change", attr.kind, attr.kind, (s,), (attr.key,), got[1])

    def uncued_change(self) -> Pair | None:
        attr, s, ex = self.attr_slot()
        oi, ni = self.value_ids(attr, {s, ex["p"]}, 2, s=s)
        fi = self.frame_id(attr)
        fj = fi if self.rng.random() < 0.7 else self.frame_id(attr)
        a = say(attr.frames[fi], s, self.surface(attr, oi), ex)
        b = say(attr.frames[fj], s, self.surface(attr, ni, alias=self.rng.random() < 0.2), ex)
        if prefixable(attr.frames[fj]) and self.rng.random() < 0.2:
            b = chatty(self.rng, b)
        return Pair(a, b, CON, "uncued-change", attr.kind, attr.kind, (s,), (attr.key,), fi != fj)

    def negation(self, cue: bool) -> Pair | None:
        if self.rng.random() < 0.6:
            return self.toggle_negation(cue)
        attr, s, ex = self.attr_slot(self.with_neg)
        (vi,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        v = self.surface(attr, vi)
        affirm = say(attr.frames[self.frame_id(attr)], s, v, ex)
        deny = say(self.rng.choice(attr.neg), s, v, ex)
        if not cue:
            a, b = (affirm, deny) if self.rng.random() < 0.65 else (deny, affirm)
            return Pair(a, b, CON, "negation", attr.kind, attr.kind, (s,), (attr.key,))
        if self.rng.random() < 0.65 or not attr.generic:
            neg_cues = [say(t, s, v, ex) for t in attr.negc]
            neg_cues += [wrap(t, deny, ex) for t in NEG_CUES] if attr.generic else []
            return Pair(affirm, self.rng.choice(neg_cues), SUP, "negation", attr.kind, attr.kind, (s,), (attr.key,))
        fi = self.frame_id(attr, wrappable=True)
        plain = say(attr.frames[fi], s, v, ex)
        templates = [t for t, _, _ in PREFIX_CUES] + list(SUFFIX_CUES if attr.suffix else ())
        b = wrap(self.rng.choice(templates), plain, ex)
        return Pair(deny, b, SUP, "negation", attr.kind, attr.kind, (s,), (attr.key,))

    def toggle_negation(self, cue: bool) -> Pair:
        tog = self.rng.choice(TOGGLES)
        s = self.subject(tog.pool())
        ex = extras(self.rng, {s})
        forward = self.rng.random() < 0.6
        first = self.rng.choice(tog.on if forward else tog.off)
        if cue:
            second = self.rng.choice(tog.off_cued if forward else tog.on_cued)
            rel = SUP
        else:
            second = self.rng.choice(tog.off if forward else tog.on)
            rel = CON
        a, b = say(first, s, "", ex), say(second, s, "", ex)
        return Pair(a, b, rel, "negation", subjects=(s,), attrs=(tog.key,))

    # --- duplicates -------------------------------------------------------------------------------

    def cue_same_value(self) -> Pair | None:
        if self.rng.random() < 0.15:
            tog = self.rng.choice(TOGGLES)
            s = self.subject(tog.pool())
            ex = extras(self.rng, {s})
            a = say(self.rng.choice(tog.on), s, "", ex)
            return Pair(a, say(self.rng.choice(tog.on_cued), s, "", ex), DUP, "cue-same-value",
                        subjects=(s,), attrs=(tog.key,), reworded=True)  # fmt: skip
        attr, s, ex = self.attr_slot(self.generic)
        (vi,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        fi = self.frame_id(attr)
        a = say(attr.frames[fi], s, self.surface(attr, vi), ex)
        got = self.cued(attr, s, fi, vi, vi, ex)
        if got is None:
            return None
        return Pair(a, got[0], DUP, "cue-same-value", attr.kind, attr.kind, (s,), (attr.key,), got[1])

    def restated(self) -> Pair | None:
        attr, s, ex = self.attr_slot()
        (vi,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        fi = self.frame_id(attr)
        base = say(attr.frames[fi], s, self.surface(attr, vi), ex)
        a = longify(self.rng, base) if self.rng.random() < LONG_SHARE else base
        b = chatty(self.rng, base) if prefixable(attr.frames[fi]) and self.rng.random() < 0.6 else base
        if b in {a, base}:
            b = longify(self.rng, b)
        return Pair(a, b, DUP, "restated", attr.kind, attr.kind, (s,), (attr.key,), no_long=True)

    def same_again(self, text: str) -> str:
        """The same open loop posted again inside a longer message."""
        return longify(self.rng, text)

    def paraphrase(self) -> Pair | None:
        if self.rng.random() < 0.15:
            tog = self.rng.choice(TOGGLES)
            s = self.subject(tog.pool())
            ex = extras(self.rng, {s})
            side = tog.on if self.rng.random() < 0.6 else tog.off
            a_t, b_t = self.rng.sample(side, 2)
            return Pair(say(a_t, s, "", ex), say(b_t, s, "", ex), DUP, "paraphrase",
                        subjects=(s,), attrs=(tog.key,), reworded=True)  # fmt: skip
        attr, s, ex = self.attr_slot()
        (vi,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        fi, fj = self.rng.sample(range(len(attr.frames)), 2)
        a = say(attr.frames[fi], s, self.surface(attr, vi, alias=True), ex)
        b = say(attr.frames[fj], s, self.surface(attr, vi, alias=True), ex)
        return Pair(a, b, DUP, "paraphrase", attr.kind, attr.kind, (s,), (attr.key,), True)

    # --- complementary ----------------------------------------------------------------------------

    def other_subject(self) -> Pair | None:
        if self.rng.random() < 0.2:
            return self.toggle_other_subject()
        attr, s1, ex = self.attr_slot()
        s2 = self.sibling(attr.pool(), s1)
        ex = extras(self.rng, {s1, s2})
        v1, v2 = self.value_ids(attr, {s1, s2, ex["p"]}, 2, s=s1)
        if self.rng.random() < 0.6:
            v2 = v1
        fi = self.frame_id(attr)
        a = say(attr.frames[fi], s1, self.surface(attr, v1), ex)
        b = say(attr.frames[fi], s2, self.surface(attr, v2), ex)
        if self.rng.random() < 0.4:
            old = v1 if v1 != v2 else self.value_ids(attr, {s1, s2, self.surface(attr, v2)}, 1, s=s2)[0]
            keep, reword = self.cue_forms(attr, fi, old, v2, same=False)
            if keep:
                form = self.rng.choice(reword if reword and self.rng.random() < 0.1 else keep)
                b = self.render(attr, form, s2, self.surface(attr, v2), self.surface(attr, old), ex)
        return Pair(a, b, COMP, "other-subject", attr.kind, attr.kind, (s1, s2), (attr.key,))

    def toggle_other_subject(self) -> Pair:
        tog = self.rng.choice(TOGGLES)
        s1 = self.subject(tog.pool())
        s2 = self.sibling(tog.pool(), s1)
        ex = extras(self.rng, {s1, s2})
        i = self.rng.randrange(len(tog.on))
        a = say(tog.on[i], s1, "", ex)
        roll = self.rng.random()
        if roll < 0.4:
            b = say(tog.on[i], s2, "", ex)
        elif roll < 0.7:
            b = say(self.rng.choice(tog.off_cued), s2, "", ex)
        elif roll < 0.85:
            b = say(self.rng.choice(tog.on_cued), s2, "", ex)
        else:
            b = say(tog.off[min(i, len(tog.off) - 1)], s2, "", ex)
        return Pair(a, b, COMP, "other-subject", subjects=(s1, s2), attrs=(tog.key,))

    def other_attribute(self) -> Pair | None:
        if self.rng.random() < 0.25:
            return self.toggle_other_attribute()
        attr, s, ex = self.attr_slot()
        siblings = [x for x in ATTRS if x.stype == attr.stype and x.key != attr.key and s in x.pool()]
        if not siblings:
            return None
        sharing = [x for x in siblings if attr.share and x.share and x.vtype == attr.vtype]
        share = bool(sharing) and self.rng.random() < 0.6
        attr2 = self.rng.choice(sharing if share else siblings)
        (v1,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        a = say(attr.frames[self.frame_id(attr)], s, self.surface(attr, v1), ex)
        if share:
            v2 = v1
        else:  # two roles or places of one subject with the same value would read oddly unless marked shareable
            taken = {self.surface(attr, v1)} if attr2.vtype == attr.vtype else set()
            (v2,) = self.value_ids(attr2, {s, ex["p"], *taken}, 1, s=s)
        fj = self.frame_id(attr2)
        b = say(attr2.frames[fj], s, self.surface(attr2, v2), ex)
        if self.rng.random() < 0.25:
            (old,) = self.value_ids(attr2, {s, self.surface(attr2, v2)}, 1, s=s)
            keep, _ = self.cue_forms(attr2, fj, old, v2, same=False)
            if keep:
                form = self.rng.choice(keep)
                b = self.render(attr2, form, s, self.surface(attr2, v2), self.surface(attr2, old), ex)
        return Pair(a, b, COMP, "other-attribute", attr.kind, attr2.kind, (s,), (attr.key, attr2.key))

    def toggle_other_attribute(self) -> Pair | None:
        tog = self.rng.choice(TOGGLES)
        s = self.subject(tog.pool())
        ex = extras(self.rng, {s})
        a = say(self.rng.choice(tog.on + tog.off), s, "", ex)
        others = [t for t in TOGGLES if t.stype == tog.stype and t.key != tog.key and s in t.pool()]
        attrs = [x for x in ATTRS if x.stype == tog.stype and s in x.pool()]
        others = [t for t in others if frozenset({tog.key, t.key}) not in AT_ODDS]
        attrs = [x for x in attrs if frozenset({tog.key, x.key}) not in AT_ODDS]
        if others and (self.rng.random() < 0.5 or not attrs):
            t2 = self.rng.choice(others)
            b = say(self.rng.choice(t2.on + t2.off + t2.on_cued + t2.off_cued), s, "", ex)
            return Pair(a, b, COMP, "other-attribute", subjects=(s,), attrs=(tog.key, t2.key))
        if not attrs:
            return None
        attr = self.rng.choice(attrs)
        (vi,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        b = say(attr.frames[self.frame_id(attr)], s, self.surface(attr, vi), ex)
        return Pair(a, b, COMP, "other-attribute", "fact", attr.kind, (s,), (tog.key, attr.key))

    def added_detail(self) -> Pair | None:
        attr, s, ex = self.attr_slot(self.with_detail)
        (vi,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        v = self.surface(attr, vi)
        a = say(attr.frames[self.frame_id(attr)], s, v, ex)
        b = say(self.rng.choice(attr.details), s, v, ex)
        return Pair(a, b, COMP, "added-detail", attr.kind, attr.kind, (s,), (attr.key,))

    # --- open loops: tasks ------------------------------------------------------------------------

    def task_parts(self, task: tuple[str, str, str, str], o: str) -> dict[str, str]:
        _, imp, past, ger = task
        kw = {"o": o}
        return {"imp": phrase(imp, kw), "past": phrase(past, kw), "ger": phrase(ger, kw)}

    def task_slot(self) -> tuple[tuple[str, str, str, str], str, dict[str, str]]:
        task = self.rng.choice(TASKS)
        o = self.subject(SUBJECTS[task[0]])
        ex = extras(self.rng, {o})
        return task, o, {**ex, **self.task_parts(task, o)}

    def open_task(self, kw: dict[str, str]) -> str:
        return fill(self.rng.choice(TASK_OPEN), kw)

    def closed_task(self, kw: dict[str, str], dropped: bool) -> str:
        if dropped:
            reason = self.rng.choice(REASONS).format_map(kw)
            return fill(self.rng.choice(TASK_DROPPED), {**kw, "reason": reason, "Reason": cap(reason)})
        return fill(self.rng.choice(TASK_DONE), {**kw, "Past": cap(kw["past"])})

    def loop_done(self) -> Pair:
        task, o, kw = self.task_slot()
        a = self.open_task(kw)
        b = self.closed_task(kw, dropped=self.rng.random() < 0.3)
        return Pair(a, b, SUP, "loop-done", T, F, (o,), ("task:" + task[1],), True, no_long=a.startswith("["))

    def task_restated(self) -> Pair:
        task, o, kw = self.task_slot()
        a = self.open_task(kw)
        if self.rng.random() < 0.3 and not a.startswith("["):
            return Pair(a, self.same_again(a), DUP, "task-restated", T, T, (o,), ("task:" + task[1],), no_long=True)
        b = fill(self.rng.choice(TASK_AGAIN), kw)
        return Pair(a, b, DUP, "task-restated", T, T, (o,), ("task:" + task[1],), True, no_long=a.startswith("["))

    def loop_other_task(self) -> Pair:
        task, o, kw = self.task_slot()
        a = self.open_task(kw)
        roll = self.rng.random()
        subjects: tuple[str, ...]
        if roll < 0.45:
            other = self.rng.choice([t for t in TASKS if t[0] == task[0] and t != task])
            kw2 = {**kw, **self.task_parts(other, o)}
            b, kind_b, subjects = self.open_task(kw2), T, (o,)
        else:
            o2 = self.sibling(SUBJECTS[task[0]], o)
            kw2 = {**kw, **self.task_parts(task, o2)}
            if roll < 0.8:
                b, kind_b = self.open_task(kw2), T
            else:
                b, kind_b = self.closed_task(kw2, dropped=self.rng.random() < 0.3), F
            subjects = (o, o2)
        no_long = a.startswith("[") or b.startswith("[")
        return Pair(a, b, COMP, "loop-other-task", T, kind_b, subjects, ("task:" + task[1],), no_long=no_long)

    # --- open loops: questions --------------------------------------------------------------------

    def question(self, attr: Attr, s: str, ex: dict[str, str], skip: str = "") -> str:
        options = [phrase(t, {**ex, "s": s}) for t in attr.questions]
        wh = "who" if attr.vtype in WHO else "what"
        for np_t in attr.nps:
            np = phrase(np_t, {**ex, "s": s})
            options += [t.format_map({**ex, "np": np, "wh": wh}) for t in QUESTIONS]
        return cap(self.rng.choice([q for q in options if q != skip]))

    def toggle_question(self, tog: Toggle, s: str, ex: dict[str, str]) -> str:
        return say(self.rng.choice(tog.questions), s, "", ex)

    def answer(self, statement: str, ex: dict[str, str]) -> str:
        if self.rng.random() < 0.45:
            return statement
        return wrap(self.rng.choice(ANSWERS), statement, ex)

    def question_answered(self) -> Pair:
        if self.rng.random() < 0.2:
            tog = self.rng.choice([t for t in TOGGLES if t.questions])
            s = self.subject(tog.pool())
            ex = extras(self.rng, {s})
            b = say(self.rng.choice(tog.on + tog.off), s, "", ex)
            return Pair(self.toggle_question(tog, s, ex), self.answer(b, ex), SUP, "question-answered", OQ, F,
                        (s,), (tog.key,), True)  # fmt: skip
        attr, s, ex = self.attr_slot(self.askable)
        (vi,) = self.value_ids(attr, {s, ex["p"]}, 1, s=s)
        b = say(attr.frames[self.frame_id(attr, wrappable=True)], s, self.surface(attr, vi), ex)
        return Pair(self.question(attr, s, ex), self.answer(b, ex), SUP, "question-answered", OQ, attr.kind,
                    (s,), (attr.key,), True)  # fmt: skip

    def question_restated(self) -> Pair:
        attr, s, ex = self.attr_slot(self.askable)
        a = self.question(attr, s, ex)
        if self.rng.random() < 0.3:
            return Pair(a, self.same_again(a), DUP, "question-restated", OQ, OQ, (s,), (attr.key,), no_long=True)
        wh = "who" if attr.vtype in WHO else "what"
        again = [t.format_map({**ex, "np": phrase(n, {**ex, "s": s}), "wh": wh}) for t in QUESTIONS_AGAIN
                 for n in attr.nps]  # fmt: skip
        b = cap(self.rng.choice(again)) if again and self.rng.random() < 0.6 else self.question(attr, s, ex, skip=a)
        return Pair(a, b, DUP, "question-restated", OQ, OQ, (s,), (attr.key,), True)

    def question_other(self) -> Pair | None:
        attr, s, ex = self.attr_slot(self.askable)
        a = self.question(attr, s, ex)
        roll = self.rng.random()
        if roll < 0.4:
            others = [x for x in self.askable if x.stype == attr.stype and x.key != attr.key and s in x.pool()]
            if not others:
                return None
            attr2 = self.rng.choice(others)
            return Pair(a, self.question(attr2, s, ex), COMP, "question-other", OQ, OQ, (s,), (attr.key, attr2.key))
        s2 = self.sibling(attr.pool(), s)
        if roll < 0.75:
            return Pair(a, self.question(attr, s2, ex), COMP, "question-other", OQ, OQ, (s, s2), (attr.key,))
        (vi,) = self.value_ids(attr, {s, s2, ex["p"]}, 1, s=s2)
        b = say(attr.frames[self.frame_id(attr, wrappable=True)], s2, self.surface(attr, vi), ex)
        return Pair(a, self.answer(b, ex), COMP, "question-other", OQ, attr.kind, (s, s2), (attr.key,))

    # --- unrelated --------------------------------------------------------------------------------

    def fact(self, unit: Attr | Toggle, s: str, value: int | None = None) -> tuple[str, str]:
        """A plain statement about ``s`` (text, kind)."""
        ex = extras(self.rng, {s})
        if isinstance(unit, Toggle):
            return say(self.rng.choice(unit.on + unit.off), s, "", ex), F
        vi = self.value_ids(unit, {s, ex["p"]}, 1, s=s)[0] if value is None else value
        return say(unit.frames[self.frame_id(unit)], s, self.surface(unit, vi, alias=True), ex), unit.kind

    def topic_shift(self) -> Pair | None:
        roll = self.rng.random()
        units = UNITS
        if roll < 0.3:
            return self.shift_shared_value()
        if roll < 0.5:
            return self.shift_shared_word()
        u1 = self.rng.choice(units)
        s1 = self.subject(u1.pool())
        if roll < 0.75:
            same_type = [u for u in units if u.stype == u1.stype and u.key != u1.key]
            u2 = self.rng.choice(same_type)
            s2 = self.rng.choice([x for x in u2.pool() if x != s1])
        else:
            u2 = self.rng.choice([u for u in units if u.stype != u1.stype])
            s2 = self.subject(u2.pool())
        (a, ka), (b, kb) = self.fact(u1, s1), self.fact(u2, s2)
        if roll > 0.9:
            _, o, kw = self.task_slot()
            if o not in {s1, s2}:
                b, kb = self.open_task(kw), T
        return Pair(a, b, UNREL, "topic-shift", ka, kb, (s1, s2), (u1.key, u2.key))

    def shift_shared_value(self) -> Pair | None:
        """Different subjects and attributes that happen to share a value (a teammate, a day, a region)."""
        attr = self.rng.choice(ATTRS)
        others = [x for x in ATTRS if x.vtype == attr.vtype and x.stype != attr.stype]
        if not others:
            return None
        attr2 = self.rng.choice(others)
        s1, s2 = self.subject(attr.pool()), self.subject(attr2.pool())
        options = [i for i, v in enumerate(vals(attr.vtype)) if v[0] not in {s1, s2}]
        vi = self.rng.choice(options)
        (a, ka), (b, kb) = self.fact(attr, s1, vi), self.fact(attr2, s2, vi)
        return Pair(a, b, UNREL, "topic-shift", ka, kb, (s1, s2), (attr.key, attr2.key))

    def shift_shared_word(self) -> Pair | None:
        """Different subjects whose names share a word (billing-api / billing cron / BILL-304)."""
        token, (st1, s1), (st2, s2) = self.rng.choice(SHARED_WORDS)
        del token
        u1 = self.rng.choice([u for u in UNITS if u.stype == st1 and s1 in u.pool()])
        u2 = self.rng.choice([u for u in UNITS if u.stype == st2 and s2 in u.pool() and u.key != u1.key])
        (a, ka), (b, kb) = self.fact(u1, s1), self.fact(u2, s2)
        return Pair(a, b, UNREL, "topic-shift", ka, kb, (s1, s2), (u1.key, u2.key))


def shared_words() -> list[tuple[str, tuple[str, str], tuple[str, str]]]:
    """Pairs of different subjects whose names share a word of four letters or more."""
    by_word: dict[str, list[tuple[str, str]]] = {}
    for stype, pool in SUBJECTS.items():
        if stype == "person":
            continue
        for s in pool:
            for w in s.lower().replace("-", " ").split():
                if len(w) >= 4:
                    by_word.setdefault(w.rstrip("s"), []).append((stype, s))
    out: list[tuple[str, tuple[str, str], tuple[str, str]]] = []
    for w, items in sorted(by_word.items()):
        for i, x in enumerate(items):
            out.extend((w, x, y) for y in items[i + 1 :] if x[1] != y[1])
            out.extend((w, y, x) for y in items[i + 1 :] if x[1] != y[1])
    return out


SHARED_WORDS = shared_words()


# ---------------------------------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------------------------------

QUOTAS: dict[tuple[str, str], int] = {
    (SUP, "cued-change"): 300,
    (SUP, "negation"): 50,
    (SUP, "loop-done"): 70,
    (SUP, "question-answered"): 60,
    (CON, "uncued-change"): 370,
    (CON, "negation"): 110,
    (DUP, "restated"): 100,
    (DUP, "paraphrase"): 160,
    (DUP, "cue-same-value"): 120,
    (DUP, "task-restated"): 50,
    (DUP, "question-restated"): 50,
    (COMP, "other-subject"): 180,
    (COMP, "other-attribute"): 110,
    (COMP, "added-detail"): 90,
    (COMP, "loop-other-task"): 50,
    (COMP, "question-other"): 50,
    (UNREL, "topic-shift"): 480,
}


def builders(maker: Maker) -> dict[tuple[str, str], Callable[[], Pair | None]]:
    return {
        (SUP, "cued-change"): maker.cued_change,
        (SUP, "negation"): lambda: maker.negation(cue=True),
        (SUP, "loop-done"): maker.loop_done,
        (SUP, "question-answered"): maker.question_answered,
        (CON, "uncued-change"): maker.uncued_change,
        (CON, "negation"): lambda: maker.negation(cue=False),
        (DUP, "restated"): maker.restated,
        (DUP, "paraphrase"): maker.paraphrase,
        (DUP, "cue-same-value"): maker.cue_same_value,
        (DUP, "task-restated"): maker.task_restated,
        (DUP, "question-restated"): maker.question_restated,
        (COMP, "other-subject"): maker.other_subject,
        (COMP, "other-attribute"): maker.other_attribute,
        (COMP, "added-detail"): maker.added_detail,
        (COMP, "loop-other-task"): maker.loop_other_task,
        (COMP, "question-other"): maker.question_other,
        (UNREL, "topic-shift"): maker.topic_shift,
    }


def hand_pairs() -> list[Pair]:
    return [Pair(a, b, rel, frame, ka, kb, hand=True) for frame, rel, a, b, ka, kb in HAND]


def generate(seed: int = SEED) -> list[Pair]:
    """All pairs, hand-written ones first counted against the quotas, in a deterministic shuffled order."""
    rng = random.Random(seed)
    maker = Maker(rng)
    pairs = hand_pairs()
    counts = Counter((p.relation, p.frame) for p in pairs)
    if any(key not in QUOTAS or n > QUOTAS[key] for key, n in counts.items()):
        raise ValueError(f"hand-written pairs do not fit the quotas: {counts}")
    seen = {(p.a, p.b) for p in pairs}
    for key, build in builders(maker).items():
        tries = 0
        while counts[key] < QUOTAS[key]:
            tries += 1
            if tries > 200 * QUOTAS[key]:
                raise RuntimeError(f"cannot fill {key}")
            pair = build()
            if pair is None or pair.a == pair.b or (pair.a, pair.b) in seen:
                continue
            seen.add((pair.a, pair.b))
            if not pair.no_long:
                pair.a = longify(rng, pair.a) if rng.random() < LONG_SHARE else pair.a
                pair.b = longify(rng, pair.b) if rng.random() < LONG_SHARE else pair.b
            pairs.append(pair)
            counts[key] += 1
    rng.shuffle(pairs)
    return pairs


def rows(pairs: list[Pair]) -> list[dict[str, str]]:
    return [
        {
            "id": f"{SOURCE}-{n:05d}",
            "a": p.a,
            "b": p.b,
            "relation": p.relation,
            "kind_a": p.kind_a,
            "kind_b": p.kind_b,
            "source": SOURCE,
            "frame": p.frame,
        }
        for n, p in enumerate(pairs, start=1)
    ]


def templates() -> set[str]:
    """Every hand-written sentence frame the generator draws from."""
    out: set[str] = set()
    for attr in ATTRS:
        out.update(attr.frames, attr.neg, attr.negc, attr.cued, attr.details, attr.questions)
    for tog in TOGGLES:
        out.update(tog.on, tog.off, tog.on_cued, tog.off_cued, tog.questions)
    out.update(t for t, _, _ in PREFIX_CUES)
    out.update(SUFFIX_CUES, SUFFIX_OLD_CUES, NP_CUES, NP_OLD_CUES, NEG_CUES)
    for group in VERB_CUES.values():
        out.update(group)
    out.update(TASK_OPEN, TASK_DONE, TASK_DROPPED, TASK_AGAIN, QUESTIONS, QUESTIONS_AGAIN, ANSWERS)
    return out


def report(pairs: list[Pair]) -> str:
    per = Counter((p.relation, p.frame) for p in pairs)
    subjects = {s for p in pairs for s in p.subjects}
    attrs = {a for p in pairs for a in p.attrs}
    retiring = [p for p in pairs if p.relation in {SUP, DUP} and not p.hand]
    cue_frames = [p for p in retiring if p.frame in {"cued-change", "cue-same-value"}]
    texts = [t for p in pairs for t in (p.a, p.b)]
    long = sum(1 for t in texts if t.count(". ") + t.count("! ") + t.count("? ") >= 2)
    lines = [f"{rel:14} {frame:18} {n}" for (rel, frame), n in sorted(per.items())]
    lines += [
        f"pairs {len(pairs)}, hand-written {sum(p.hand for p in pairs)}",
        f"distinct subjects {len(subjects)}, attributes {len(attrs)}, sentence frames {len(templates())}",
        f"reworded supersedes/duplicate {sum(p.reworded for p in retiring) / len(retiring):.2f}"
        f" (cued-change and cue-same-value alone {sum(p.reworded for p in cue_frames) / len(cue_frames):.2f})",
        f"long statements {long / len(texts):.2f}",
    ]
    return "\n".join(lines)


def main() -> None:
    pairs = generate()
    with OUT.open("w", encoding="utf-8") as fh:
        for row in rows(pairs):
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    sys.stdout.write(report(pairs) + f"\nwrote {OUT}\n")


if __name__ == "__main__":
    main()

"""The admin index a team admin can act from (issue 34): what needs his hand first, each count a
link to the filtered list that shows exactly those rows, and the queue's throughput page. Before,
the index was Django's list of models and nothing said that anything waited."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.test import Client

from memories import services
from memories.choices import DeliveryState, Role
from memories.models import WebhookDelivery, WebhookEndpoint
from review.models import Conflict
from tests.factories import make_memory
from tests.memories.endpoints import issue_token


def _counts(client: Client) -> dict[str, tuple[int, str]]:
    page = client.get("/admin/")
    assert page.status_code == 200
    html = page.content.decode()
    found = {}
    for key, href, count in re.findall(
        r'<tr id="zm-attention-([\w-]+)">\s*<th scope="row"><a href="([^"]+)">(\d+) ', html
    ):
        found[key] = (int(count), href.replace("&amp;", "&"))
    return found


def _rows(client: Client, href: str) -> int:
    page = client.get(href)
    assert page.status_code == 200, href
    return len(re.findall(r'name="_selected_action"', page.content.decode()))


def test_the_index_puts_what_waits_first_with_links_to_exactly_those_rows(alice, bob, acme):
    globex, _ = services.project_create(actor=None, via="tests", slug="globex", name="Globex")
    lead = User.objects.create_user("lead", password="pw", is_staff=True)
    services.membership_set(actor=None, via="tests", project=acme, user=lead, role=Role.MAINTAINER)
    services.membership_set(actor=None, via="tests", project=globex, user=alice.user, role=Role.MEMBER)
    root = User.objects.create_superuser("root", password="pw")
    # Two pending conflicts in acme, one in globex.
    pairs = [
        (
            make_memory(alice.user, f"The acme deploy window is day {n}.", project=acme),
            make_memory(bob.user, f"The acme deploy window moved to day {n + 10}.", project=acme),
        )
        for n in range(2)
    ]
    for older, newer in pairs:
        Conflict.objects.create(older=older, newer=newer, relation="contradicts", confidence=0.6, rationale="t")
    g_older = make_memory(alice.user, "Globex invoices go out on the 1st.", project=globex)
    g_newer = make_memory(alice.user, "Globex invoices go out on the 3rd.", project=globex)
    Conflict.objects.create(older=g_older, newer=g_newer, relation="contradicts", confidence=0.6, rationale="t")
    # A capture waiting for review in acme.
    services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    watcher, _ = issue_token(alice.user, provisional=True, label="watcher")
    make_memory(alice.user, "Alice said the report is due on the 14th.", project=acme, credential=watcher)
    # A dead delivery to acme's endpoint (every event queues one).
    WebhookEndpoint.objects.create(project=acme, url="https://hooks.example.com/zeromemory")
    make_memory(alice.user, "Acme's webhook receiver is on the new host.", project=acme)
    dead = WebhookDelivery.objects.order_by("pk").first()
    assert dead is not None
    WebhookDelivery.objects.filter(pk=dead.pk).update(state=DeliveryState.DEAD)

    for user, conflicts in ((lead, 2), (root, 3)):
        client = Client()
        client.force_login(user)
        counts = _counts(client)
        assert counts["conflicts"][0] == conflicts, user.username
        assert counts["reviews"][0] == 1, user.username
        assert counts["dead-deliveries"][0] == 1, user.username
        # Each count is the number of rows its link lists to this viewer.
        for key in ("reviews", "dead-deliveries"):
            assert _rows(client, counts[key][1]) == counts[key][0], (user.username, key)
        queue = client.get(counts["conflicts"][1])
        assert queue.status_code == 200
        if user is root:
            assert "Globex invoices" in queue.content.decode()
        else:
            assert "Globex" not in queue.content.decode()
        index = client.get("/admin/").content.decode()
        assert 'href="/admin/review/conflict/throughput/"' in index
        assert client.get("/admin/review/conflict/throughput/").status_code == 200


def test_a_staff_member_who_maintains_nothing_sees_only_what_he_may_open(alice, acme):
    """A capture waits in acme; a staff member of no project neither counts it nor gets the
    webhook deliveries' row (that list is a team admin's)."""
    services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    watcher, _ = issue_token(alice.user, provisional=True, label="watcher")
    make_memory(alice.user, "Alice said the report is due on the 14th.", project=acme, credential=watcher)
    clerk = User.objects.create_user("clerk", password="pw", is_staff=True)
    client = Client()
    client.force_login(clerk)

    counts = _counts(client)

    assert counts["reviews"][0] == 0
    assert "dead-deliveries" not in counts

import os, time, logging
os.environ.setdefault("DJANGO_DEBUG", "false")
from common import setup_django
setup_django(fresh=False, database="zm_bench_seed_10000")
from django.contrib.auth.models import User
from memories.models import Memory, Credential
from memories.selectors import _MEMORY_RELATED, HEAVY_COLUMNS
from memories.visibility import visible_memories
from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Q, Value
bench = User.objects.get(username="bench")
mid = Memory.objects.filter(owner=bench).values_list("pk", flat=True).first()
def build(): return visible_memories(bench).select_related(*_MEMORY_RELATED).defer(*HEAVY_COLUMNS).filter(pk=mid)
def cred(): return Credential.objects.select_related("user").filter(prefix="abcd", revoked_at__isnull=True).annotate(scope_project_ids=ArrayAgg("projects__id", filter=Q(projects__isnull=False), default=Value([])))
for name, f in (("memory_get build", lambda: build()), ("memory_get build+compile", lambda: build().query.get_compiler("default").as_sql()), ("credential build+compile", lambda: cred().query.get_compiler("default").as_sql())):
    for _ in range(50): f()
    t=time.perf_counter(); n=500
    for _ in range(n): f()
    print(f"{name}: {(time.perf_counter()-t)/n*1e3:.3f} ms")

"""The REST helpers memories offers the apps that build on it (review's API), as one public
module: an app's API reads who calls (``request_user``), pages like the feed
(``page_parameters``), documents its bodies, parameters and errors the way memories' do
(``shape_body``, ``shape_parameters``, ``error_responses``) and shows a memory as memories'
API does (``MemorySerializer``). The modules behind these names are memories' own and may
change; these names stay (an import-linter contract keeps review to this module)."""

from __future__ import annotations

from memories.api.auth import request_user
from memories.api.pagination import page_parameters
from memories.api.schema import error_responses, shape_body, shape_parameters
from memories.api.serializers import MemorySerializer

__all__ = ["MemorySerializer", "error_responses", "page_parameters", "request_user", "shape_body", "shape_parameters"]

"""One structured log line per request, and a request id that ties it to the answer.

The line is JSON on the ``zeromemory.requests`` logger: request id, method, path (never the
query string, which may carry search text), status, milliseconds, username and the token's
public prefix. Never a token, a body or memory content. The id comes from the caller's
``X-Request-ID`` when it is a sane token (a proxy's), otherwise a new one, and is echoed in
the ``X-Request-ID`` response header.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

logger = logging.getLogger("zeromemory.requests")
_INCOMING_ID = re.compile(r"[A-Za-z0-9._:-]{8,128}")


class RequestLogMiddleware(MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> None:
        incoming = request.headers.get("X-Request-ID", "")
        request.request_id = incoming if _INCOMING_ID.fullmatch(incoming) else uuid.uuid4().hex  # type: ignore[attr-defined]
        request.request_started = time.perf_counter()  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        request_id = getattr(request, "request_id", None) or uuid.uuid4().hex
        response["X-Request-ID"] = request_id
        if logger.isEnabledFor(logging.INFO):
            started = getattr(request, "request_started", None)
            user = getattr(request, "user", None)
            credential: Any = getattr(request, "auth", None)
            line = {
                "request_id": request_id,
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "ms": round((time.perf_counter() - started) * 1000, 1) if started is not None else None,
                "user": user.get_username() if user is not None and user.is_authenticated else None,
                "token": getattr(credential, "prefix", None),
            }
            logger.info(json.dumps(line))
        return response

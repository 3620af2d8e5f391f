"""A webhook receiver on a local port, whose behaviour a test switches: answer 204, answer 500,
take longer than the sender waits, redirect elsewhere, or not listen at all; over TLS when given
a certificate."""

from __future__ import annotations

import json
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.platform.helpers import free_port


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    path: str = ""

    @property
    def event(self) -> dict[str, Any]:
        return dict(json.loads(self.body))


@dataclass
class Receiver:
    port: int = field(default_factory=free_port)
    mode: str = "ok"  # ok | fail | slow | redirect | trickle | hold
    slow_seconds: float = 3.0
    # "hold": each request waits for this before it is answered (a receiver stalled at will).
    release: threading.Event = field(default_factory=threading.Event)
    # Requests being answered now, and the most there ever were at once.
    in_flight: int = 0
    most_in_flight: int = 0
    _counting: threading.Lock = field(default_factory=threading.Lock)
    received: list[Received] = field(default_factory=list)
    # TLS: the certificate chain and key files to serve; the names clients asked for (SNI).
    tls: tuple[str, str] | None = None
    server_names: list[str | None] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/zeromemory"

    @property
    def redirect_to(self) -> str:
        return f"http://127.0.0.1:{self.port}/elsewhere"

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                with receiver._counting:
                    receiver.in_flight += 1
                    receiver.most_in_flight = max(receiver.most_in_flight, receiver.in_flight)
                try:
                    self.answer()
                finally:
                    with receiver._counting:
                        receiver.in_flight -= 1

            def answer(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if receiver.mode == "hold":
                    receiver.release.wait()
                if receiver.mode == "slow":
                    time.sleep(receiver.slow_seconds)
                if receiver.mode == "trickle":
                    # An answer that never completes: a byte every few tenths of a second, each
                    # well within any per-read timeout.
                    receiver.received.append(Received({k.lower(): v for k, v in self.headers.items()}, body, self.path))
                    self.send_response(200)
                    self.send_header("Content-Length", "1000")
                    self.end_headers()
                    for _ in range(1000):
                        try:
                            self.wfile.write(b".")
                            self.wfile.flush()
                        except OSError:
                            return
                        time.sleep(0.2)
                    return
                receiver.received.append(Received({k.lower(): v for k, v in self.headers.items()}, body, self.path))
                status = {"fail": 500, "redirect": 307}.get(receiver.mode, 204)
                self.send_response(status)
                if receiver.mode == "redirect":
                    self.send_header("Location", receiver.redirect_to)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        if self.tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*self.tls)

            def heard(sock: ssl.SSLObject, name: str | None, _context: ssl.SSLContext) -> None:
                receiver.server_names.append(name)

            context.sni_callback = heard
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.release.set()  # held requests answer, so their threads end
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def event_ids(self) -> list[str]:
        return [item.headers["zeromemory-event-id"] for item in self.received]

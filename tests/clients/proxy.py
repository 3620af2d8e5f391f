"""A TCP proxy between a client and the server that can lose an answer: it forwards the request,
lets the server act on it, and drops the connection before the answer reaches the client — what
a load balancer's idle timeout or a network partition does to an agent's write. Or it answers
a 503 itself, as a load balancer with no healthy backend does, without forwarding."""

from __future__ import annotations

import socket
import threading
from contextlib import suppress

SERVICE_UNAVAILABLE = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/html\r\nRetry-After: 0\r\n"
    b"Content-Length: 19\r\nConnection: close\r\n\r\n<h1>No backend</h1>"
)


class Proxy:
    def __init__(self, target_port: int, *, drop_answers: int = 0, refuse_first: int = 0) -> None:
        self.target_port = target_port
        self.drop_answers = drop_answers  # connections whose answer is lost after the server acted
        self.refuse_first = refuse_first  # connections answered 503 by the proxy itself
        self.connections = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.connections += 1
                number = self.connections
            threading.Thread(target=self._serve, args=(client, number), daemon=True).start()

    def _serve(self, client: socket.socket, number: int) -> None:
        if number <= self.refuse_first:
            _read_request(client)
            client.sendall(SERVICE_UNAVAILABLE)
            client.close()
            return
        upstream = socket.create_connection(("127.0.0.1", self.target_port))
        if number <= self.refuse_first + self.drop_answers:
            upstream.sendall(_read_request(client))
            upstream.recv(1)  # the server answers only after its transaction committed
            # An RST, not a FIN: the client sees the connection reset, as across a partition.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            client.close()
            upstream.close()
            return
        threading.Thread(target=_pipe, args=(upstream, client), daemon=True).start()
        _pipe(client, upstream)


def _read_request(client: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        data += client.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        body += client.recv(65536)
    return head + b"\r\n\r\n" + body


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    with suppress(OSError):
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    with suppress(OSError):
        sink.shutdown(socket.SHUT_WR)

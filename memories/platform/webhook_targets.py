"""Where a webhook may be sent, and the connection that goes there (docs/security.md, "Webhooks").

A project maintainer chooses an endpoint's URL and reads the start of each answer in the delivery
log, so a sender that follows the URL anywhere reads the cloud's metadata service
(169.254.169.254) or any internal service for him. Hence, unless an operator allow-lists a
network (``ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS``):

- only global addresses are accepted (``ipaddress``'s ``is_global``, multicast excluded), and an
  IPv6 address that carries an IPv4 one (IPv4-mapped ``::ffff:a.b.c.d``, NAT64 ``64:ff9b::/96``
  and ``64:ff9b:1::/48``, 6to4 ``2002::/16``, the old IPv4-compatible ``::a.b.c.d``) is judged by
  the IPv4 address it reaches, since ``is_global`` calls ``64:ff9b::a00:1`` global;
- the host is resolved once, every answer checked, and the connection made to a checked address
  (the Host header and TLS's SNI and certificate check still name the host): a name whose answer
  changes between the check and the connection (DNS rebinding) cannot move the connection;
- nothing else picks the address: no proxy from the environment, no redirect followed.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import urllib.parse
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# IPv6 prefixes whose last 32 bits are the IPv4 address a packet ends up at (RFC 6052's
# well-known and RFC 8215's local-use NAT64 prefixes; RFC 4291's deprecated IPv4-compatible).
_LAST_32_BITS_ARE_IPV4 = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
    ipaddress.IPv6Network("::/96"),
)
DEFAULT_PORTS = {"http": 80, "https": 443}


class TargetRefused(Exception):
    """The URL's host is, or resolves to, an address the sender must not connect to."""


@lru_cache(maxsize=8)
def _parsed_networks(networks: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    return tuple(ipaddress.ip_network(network, strict=False) for network in networks)


def allowed_networks() -> tuple[IPNetwork, ...]:
    return _parsed_networks(tuple(settings.WEBHOOK_ALLOWED_NETWORKS))


def embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one delivers to, if it is one of the forms that carry one."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in prefix for prefix in _LAST_32_BITS_ARE_IPV4):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _allowed(ip: IPAddress, networks: tuple[IPNetwork, ...]) -> bool:
    return any(ip.version == network.version and ip in network for network in networks)


def address_refused(address: str) -> bool:
    """Whether the sender must not connect to ``address`` (an IP literal, maybe with a %scope)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    networks = allowed_networks()
    if _allowed(ip, networks):
        return False
    inner = embedded_ipv4(ip)
    if inner is not None:
        if _allowed(inner, networks):
            return False
        ip = inner
    return not ip.is_global or ip.is_multicast


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, in the resolver's order, each once. The one lookup a
    delivery makes (tests replace it to play a rebinding DNS server)."""
    answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(answer[4][0]) for answer in answers))


@dataclass(frozen=True)
class Target:
    """A URL whose addresses were checked: connect only to ``addresses``."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]

    def connection(self, *, timeout: float) -> http.client.HTTPConnection:
        if self.scheme == "https":
            return _PinnedHTTPSConnection(self.host, self.port, self.addresses, timeout=timeout, context=tls_context())
        return _PinnedHTTPConnection(self.host, self.port, self.addresses, timeout=timeout)


def _split(url: str) -> tuple[str, str, int, str]:
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"not an http or https URL: {url!r}")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return scheme, parts.hostname, parts.port or DEFAULT_PORTS[scheme], path


def _literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def target_check(url: str) -> Target:
    """Resolve ``url``'s host once and check every answer. Raises ``TargetRefused`` if any answer
    is refused (a name that answers with one internal address among public ones is refused: the
    caller would not choose which one it gets), ``OSError`` if the name does not resolve,
    ``ValueError`` if the URL is not http(s)."""
    scheme, host, port, path = _split(url)
    addresses = [host] if _literal(host) else resolve(host, port)
    if not addresses:
        raise OSError(f"{host} resolves to no address")
    for address in addresses:
        if address_refused(address):
            raise TargetRefused(f"the host resolves to {address}, not a public address")
    return Target(scheme, host, port, path, tuple(addresses))


def url_refusal(url: str) -> str | None:
    """Why an endpoint with this URL is refused when it is saved (None: accepted). A name that
    does not resolve now is accepted: delivery checks again, and that check is the one that counts."""
    try:
        target_check(url)
    except TargetRefused as refused:
        return (
            f"Refused: {refused}. Webhooks go to public addresses only; an operator can allow a "
            "network with ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS."
        )
    except (OSError, ValueError, UnicodeError):
        return None
    return None


@lru_cache(maxsize=1)
def tls_context() -> ssl.SSLContext:
    # The system's trust store, certificate and host name verified (the default context).
    return ssl.create_default_context()


def connect(addresses: tuple[str, ...], port: int, timeout: float | None) -> socket.socket:
    """A socket to the first checked address that answers."""
    failure: OSError | None = None
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout=timeout)
        except OSError as error:
            failure = error
    raise failure or OSError("no address to connect to")


class _PinnedHTTPConnection(http.client.HTTPConnection):
    # http.client writes the Host header from ``host``; only where the socket goes changes.
    def __init__(self, host: str, port: int, addresses: tuple[str, ...], *, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._addresses = addresses

    def connect(self) -> None:
        self.sock = connect(self._addresses, self.port, self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(
        self, host: str, port: int, addresses: tuple[str, ...], *, timeout: float, context: ssl.SSLContext
    ) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self._addresses = addresses
        self._tls = context

    def connect(self) -> None:
        sock = connect(self._addresses, self.port, self.timeout)
        try:
            # SNI and the certificate's check name the host, not the address connected to.
            self.sock = self._tls.wrap_socket(sock, server_hostname=self.host)
        except BaseException:
            sock.close()
            raise

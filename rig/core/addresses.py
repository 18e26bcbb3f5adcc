"""Which addresses the rig's web face may answer on: this machine's own, never a public one.

The phones are at the table, on the same network as the rig: the loopback, link-local and
private ranges (:data:`LOCAL_NETWORKS`).  The systemd unit's ``IPAddressAllow=`` lists the same
ranges (tests/test_systemd.py checks they agree), so even a mistake here could not reach past
them.  Pure: addresses in, words out; finding the machine's addresses is the web face's
(:mod:`rig.web.server`).
"""

import ipaddress

#: Loopback, link-local, and the private ranges of RFC 1918 and RFC 4193.
LOCAL_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "::1/128",
    "169.254.0.0/16", "fe80::/10",
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"))


def parse_address(text):
    """An IP address from text (an IPv6 one may carry its ``%zone``); None when it is not
    one."""
    if not isinstance(text, str):
        return None
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def is_local(address):
    """Whether ``address`` (an ipaddress object) is on the table's side: loopback, link-local
    or private.  The unspecified address (0.0.0.0, ::) is not: it would mean every interface,
    a public one included."""
    plain = ipaddress.ip_address(address.compressed.split("%")[0])
    return any(plain in network for network in LOCAL_NETWORKS)


def bind_problem(text):
    """Why ``text`` cannot be a ``[web] bind`` address, in words naming what is allowed; None
    when it can."""
    address = parse_address(text)
    if address is None:
        return ("%r is not an IP address; give this machine's own addresses such as "
                "\"192.168.1.20\" or \"127.0.0.1\", or \"local\" for all of its local network "
                "interfaces" % (text,))
    if address.is_unspecified:
        return ("%s means every interface, a public one included; give this machine's own "
                "local addresses, or \"local\" for all of them" % text)
    if not is_local(address):
        return ("%s is not a local address (it may be reached from beyond the table's "
                "network); the rig answers only on loopback, link-local and private addresses "
                "(%s): give one of those, or \"local\""
                % (text, ", ".join(str(n) for n in LOCAL_NETWORKS)))
    return None


def best_url(addresses, port):
    """The address a phone at the table should open: a private address first (IPv4 before
    IPv6), then link-local, then loopback (the rig alone, no network yet)."""
    def rank(address):
        plain = ipaddress.ip_address(address.compressed.split("%")[0])
        return (plain.is_loopback, plain.is_link_local, plain.version)

    choices = sorted((a for a in addresses if is_local(a)), key=rank)
    if not choices:
        return "http://127.0.0.1:%d/" % port
    host = choices[0].compressed
    if choices[0].version == 6:
        host = "[%s]" % host
    return "http://%s:%d/" % (host, port)

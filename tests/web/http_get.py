"""One HTTP/1.1 GET over a fresh connection, for the web tests: the
whole reply read to the server's close."""
import socket


def unchunk(head, body):
    """The body of a reply whose head says `Transfer-Encoding: chunked`."""
    if b"transfer-encoding: chunked" not in head.lower():
        return body
    out = b""
    while body:
        n, _, body = body.partition(b"\r\n")
        n = int(n, 16)
        if n == 0:
            break
        out, body = out + body[:n], body[n + 2:]
    return out


def get(addr, path, timeout=20):
    """(status, head, body, raw): head as bytes, body unchunked, raw the
    bytes as they came."""
    s = socket.create_connection(addr, timeout=timeout)
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % path).encode())
    data = b""
    while True:
        c = s.recv(65536)
        if not c:
            break
        data += c
    s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), head, unchunk(head, body), data

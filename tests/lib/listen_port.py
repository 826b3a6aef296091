# For the test servers: a listening socket on a free port of 127.0.0.1, its number in a file.
import os
import socket


def listen(portfile, backlog, rcvbuf=0):
    """Listens on a port the kernel picks (so parallel tests never collide) and writes its
    number to portfile, whole (renamed into place), once connections can come."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if rcvbuf:  # inherited by each connection
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind(("127.0.0.1", 0))
    s.listen(backlog)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    return s

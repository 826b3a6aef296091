#!/usr/bin/env python3
"""Replays captured meter frames on a pty, as the real meter would send them.

replay_pty.py LINK push PERIOD_S FILE     each frame of FILE in turn, every PERIOD_S, cycling
replay_pty.py LINK answer REQUEST FILE [whole]
                                          each time REQUEST arrives, the next frame of FILE
                                          (REQUEST "hex:f0": bytes given in hex, the UM's poll)

FILE: hex bytes, one frame per line ("FF 55 01" or "ff5501"); "#" starts a comment;
"whole": the whole file is one frame (the TC66C's 192 bytes over 6 lines). LINK becomes a symlink to the
pty's device. Runs until killed; prints "READY" once LINK is there.
"""
import os
import select
import sys
import time
import tty


def frames(path, whole):
    out = []
    for line in open(path):
        hexpart = "".join(line.split("#", 1)[0].split())
        if hexpart:
            out.append(bytes.fromhex(hexpart))
    return [b"".join(out)] if whole else out


def main():
    link, mode, arg, path = sys.argv[1:5]
    data = frames(path, sys.argv[5:6] == ["whole"])
    master, slave = os.openpty()
    tty.setraw(slave)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    print("READY", flush=True)
    i, pending = 0, b""
    period = float(arg) if mode == "push" else None
    request = None
    if mode == "answer":
        request = bytes.fromhex(arg[4:]) if arg.startswith("hex:") else arg.encode()
    next_t = time.monotonic()
    while True:
        wait = max(0.0, next_t - time.monotonic()) if period else 0.5
        r, _, _ = select.select([master], [], [], wait)
        if r:
            try:
                got = os.read(master, 4096)
            except OSError:
                got = b""
            if request is not None:
                pending += got
                while request in pending:
                    pending = pending.split(request, 1)[1]
                    os.write(master, data[i % len(data)])
                    i += 1
        if period and time.monotonic() >= next_t:
            os.write(master, data[i % len(data)])
            i += 1
            next_t += period


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Serves one file over HTTP with byte ranges, and stalls once when the bytes sent first cross AT
(a fraction of the file, default 0.5): a network slower than the video's bitrate, for a while.
The stall lasts until the file RELEASE exists (the test makes it once the player has said it
is buffering; 30 s at most), or STALL seconds without RELEASE. Prints its port on the first
line.

    stalling-server.py FILE [STALL seconds] [AT] [RELEASE]"""
import os
import sys
import threading
import time

import ranged

data = open(sys.argv[1], "rb").read()
stall = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
half = int(len(data) * (float(sys.argv[3]) if len(sys.argv) > 3 else 0.5))
release = sys.argv[4] if len(sys.argv) > 4 else None
stalled = threading.Event()


def send(wfile, start, end):
    position = start
    while position <= end:
        count = min(2048, end + 1 - position)
        if position < half <= position + count:
            wfile.flush()
            if release:
                # Every request that gets there waits (FFmpeg may have asked twice).
                deadline = time.monotonic() + 30
                while not os.path.exists(release) and time.monotonic() < deadline:
                    time.sleep(0.02)
            elif not stalled.is_set():
                stalled.set()
                time.sleep(stall)
        wfile.write(data[position:position + count])
        position += count


ranged.serve(data, send)

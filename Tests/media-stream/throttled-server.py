#!/usr/bin/env python3
"""Serves one file over HTTP with byte ranges at RATE bytes a second (after the first FIRST
bytes of each answer, sent at once): a network slower than the video's bitrate that never
stops. Prints its port on the first line.

    throttled-server.py FILE RATE [FIRST]"""
import sys
import time

import ranged

data = open(sys.argv[1], "rb").read()
rate = float(sys.argv[2])
first = int(sys.argv[3]) if len(sys.argv) > 3 else 0


def send(wfile, start, end):
    position = start
    if first:
        position = min(end + 1, start + first)
        wfile.write(data[start:position])
    began = time.monotonic()
    while position <= end:
        count = min(1024, end + 1 - position)
        wfile.write(data[position:position + count])
        wfile.flush()
        position += count
        pause = began + (position - start - first) / rate - time.monotonic()
        if pause > 0:
            time.sleep(pause)


ranged.serve(data, send)

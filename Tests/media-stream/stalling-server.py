#!/usr/bin/env python3
"""Serves one file over HTTP with byte ranges, and stalls once when the bytes sent first cross AT
(a fraction of the file, default 0.5): a network slower than the video's bitrate, for a while.
The stall lasts until the file RELEASE exists (the test makes it once the player has said it
is buffering; 30 s at most), or STALL seconds without RELEASE. Prints its port on the first
line.

    stalling-server.py FILE [STALL seconds] [AT] [RELEASE]"""
import os
import http.server
import socketserver
import sys
import threading
import time

data = open(sys.argv[1], "rb").read()
stall = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
half = int(len(data) * (float(sys.argv[3]) if len(sys.argv) > 3 else 0.5))
release = sys.argv[4] if len(sys.argv) > 4 else None
stalled = threading.Event()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def do_GET(self):
        start, end = 0, len(data) - 1
        asked = self.headers.get("Range")
        if asked and asked.startswith("bytes="):
            first, _, last = asked[6:].partition("-")
            start = int(first) if first else 0
            if last:
                end = min(int(last), end)
        if start >= len(data):
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{len(data)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(206 if asked else 200)
        self.send_header("Content-Type", "video/mp4")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Length", str(end - start + 1))
        if asked:
            self.send_header("Content-Range", f"bytes {start}-{end}/{len(data)}")
        self.end_headers()
        position = start
        try:
            while position <= end:
                count = min(2048, end + 1 - position)
                if position < half <= position + count:
                    self.wfile.flush()
                    if release:
                        # Every request that gets there waits (FFmpeg may have asked twice).
                        deadline = time.monotonic() + 30
                        while not os.path.exists(release) and time.monotonic() < deadline:
                            time.sleep(0.02)
                    elif not stalled.is_set():
                        stalled.set()
                        time.sleep(stall)
                self.wfile.write(data[position:position + count])
                position += count
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

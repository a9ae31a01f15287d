#!/usr/bin/env python3
"""Serves one file over HTTP with byte ranges at RATE bytes a second (after the first FIRST
bytes of each answer, sent at once): a network slower than the video's bitrate that never
stops. Prints its port on the first line.

    throttled-server.py FILE RATE [FIRST]"""
import http.server
import socketserver
import sys
import time

data = open(sys.argv[1], "rb").read()
rate = float(sys.argv[2])
first = int(sys.argv[3]) if len(sys.argv) > 3 else 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def do_GET(self):
        start, end = 0, len(data) - 1
        asked = self.headers.get("Range")
        if asked and asked.startswith("bytes="):
            low, _, high = asked[6:].partition("-")
            start = int(low) if low else 0
            if high:
                end = min(int(high), end)
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
        began = time.monotonic()
        try:
            if first:
                self.wfile.write(data[position:min(end + 1, position + first)])
                position += min(end + 1 - position, first)
            while position <= end:
                count = min(1024, end + 1 - position)
                self.wfile.write(data[position:position + count])
                self.wfile.flush()
                position += count
                due = began + (position - start - first) / rate
                pause = due - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

"""What the test servers share: one file over HTTP/1.1 with one byte range per request (206,
Content-Range, 416 past the end), its bytes sent by the server's own `send`. Listens on the
port PORT gives (a server back where a killed one was), else one the system picks; prints the
port on the first line, then serves until killed."""
import http.server
import os
import socketserver


def serve(data, send):
    """Serves `data`; `send(wfile, start, end)` writes bytes start...end (inclusive)."""

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
            try:
                send(self.wfile, start, end)
            except (BrokenPipeError, ConnectionResetError):
                pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", int(os.environ.get("PORT", "0"))), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()

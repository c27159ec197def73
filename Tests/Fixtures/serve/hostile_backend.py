"""A backend that answers badly, for iapsim serve's tests: orders redirect, reports close the
connection without an answer, notifications answer 3 MB, the ledger answers an HTML page.
Listens on 127.0.0.1:$PORT (python3's standard library only)."""
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length)

    def answer(self, status, body, content_type="application/json", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/healthz":
            return self.answer(200, '{"ok": true}')
        if self.path.startswith("/ledger"):
            return self.answer(200, "<html><body>Login required</body></html>", "text/html")
        self.answer(404, "{}")

    def do_POST(self):
        self.body()
        if self.path == "/orders":
            return self.answer(302, "", headers=[("Location", "/login")])
        if self.path == "/apple/report":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if self.path == "/apple/notifications":
            return self.answer(200, b"x" * (3 << 20))
        self.answer(404, "{}")


ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()

"""A backend that answers worse, for iapsim serve's third hostile round (python3's standard
library only). Listens on 127.0.0.1:$PORT; MODE says how it misbehaves:
  trickle-healthz  GET /healthz sends its head, then one byte of body every 0.2 s, for ever
  trickle          /healthz answers; every other answer is chunked and never ends
  ledger-huge      a report is credited; the ledger states a clawback of -2^63 coins
  ledger-1e300     a report is credited; the ledger states an account of 1e300 coins
  keys             /healthz answers, reports are credited; $KEYS_SEEN gets the path of
                   IAPSIM_CERTS, the modes of it and its files, and this process's id
  notes            /healthz answers, every POST is answered 200 and noted in the file $SEEN
                   ("POST PATH BODY", one line each): the TEST notification under --hold
"""
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = os.environ.get("MODE", "trickle")
if MODE == "keys":
    certs = os.environ["IAPSIM_CERTS"]
    modes = [oct(os.lstat(os.path.join(certs, n)).st_mode & 0o777) for n in sorted(os.listdir(certs))]
    with open(os.environ["KEYS_SEEN"] + ".tmp", "w") as f:
        f.write(" ".join([certs, oct(os.lstat(certs).st_mode & 0o777)] + modes + [str(os.getpid())]))
    os.rename(os.environ["KEYS_SEEN"] + ".tmp", os.environ["KEYS_SEEN"])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def trickle(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            while True:
                self.wfile.write(b"1\r\n \r\n")
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:
            return

    def ledger(self):
        if MODE == "ledger-huge":
            row = '{"transactionId": "x", "account": "%s", "coins": -9223372036854775808}'
            return '{"accounts": [], "credits": [], "clawbacks": [' + row % self.account() + "]}"
        return '{"accounts": [{"id": "%s", "coins": 1e300}]}' % self.account()

    def account(self):
        query = self.path.split("accounts=", 1)[-1]
        return query.split(",")[0]

    def do_GET(self):
        if self.path == "/healthz":
            return self.trickle() if MODE == "trickle-healthz" else self.answer(200, "{}")
        if self.path.startswith("/ledger") and MODE.startswith("ledger"):
            return self.answer(200, self.ledger())
        self.trickle() if MODE == "trickle" else self.answer(404, "{}")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        if MODE == "notes":
            with open(os.environ["SEEN"], "a") as f:
                f.write("POST %s %s\n" % (self.path, body))
        if MODE == "trickle":
            return self.trickle()
        self.answer(200, '{"result": "credited"}')


ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()

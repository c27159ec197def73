"""A backend that nobody on this project wrote, for iapsim serve's tests: every word of its
contract differs from docs/serve.md's and only other_backend.yaml says how it speaks. Paths
/api/v2/checkout (in: login, sku; out: ref, a number, and token, an upper-case UUID),
/api/v2/apple-purchase (in: jws, ref, login; out: status), /hooks/apple?src=iapsim (a query
string it insists on), /qa/ledger; an X-Session header on the app's calls; ledger accounts
named acct-<login>. It decodes JWS payloads without verifying them (a test double, not a
model backend), credits the owner of appAccountToken once per transactionId and claws back on
REFUND. BUGS (comma-separated) switches on: no-dedup, a transaction credited every time it is
heard of; uuid-dedup (not a bug: Apple's advice), a notification whose notificationUUID was
seen before is acknowledged and ignored; report-422, every report answered 422 with a
framework's validation error (a misnamed field); tick-500-close, the tick /jobs/tick answers
500 and closes the connection without saying so (as uvicorn does after an exception).
Python's standard library only; listens on 127.0.0.1:$PORT."""
import base64
import json
import os
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COINS = {"coins_100": 100, "coins_550": 550}
lock = threading.Lock()
owners = {}  # appAccountToken (lower-case) -> login
credited = set()
accounts = {}  # account -> {"coins": n, "entitlements": [...]}
credits, clawbacks = [], []
next_ref = [100]
BUGS = os.environ.get("BUGS", "").split(",")
no_dedup = "no-dedup" in BUGS
seen_uuids = set()


def payload(jws):
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def account(login):
    return accounts.setdefault("acct-" + login, {"coins": 0, "entitlements": []})


def credit(info, login):
    """Credits a transaction once; returns 'credited' or 'already-credited'."""
    txn = info["transactionId"]
    if txn in credited and not no_dedup:
        return "already-credited"
    owner = owners.get(str(info.get("appAccountToken", "")).lower(), login)
    if owner is None:
        return "retry"
    credited.add(txn)
    a = account(owner)
    product = info["productId"]
    if product in COINS:
        a["coins"] += COINS[product]
    elif product not in a["entitlements"]:
        a["entitlements"].append(product)
    credits.append({"transactionId": txn, "account": "acct-" + owner, "productId": product})
    return "credited"


def claw_back(info):
    txn = info["transactionId"]
    row = next((c for c in credits if c["transactionId"] == txn), None)
    if row is None or any(c["transactionId"] == txn for c in clawbacks):
        return
    a = accounts[row["account"]]
    coins = COINS.get(row["productId"], 0)
    a["coins"] -= coins
    if coins == 0 and row["productId"] in a["entitlements"]:
        a["entitlements"].remove(row["productId"])
    clawbacks.append({"transactionId": txn, "account": row["account"], "coins": coins, "productId": row["productId"]})


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/healthz":
            return self.answer(200, {"ok": True})
        if self.path.startswith("/qa/ledger"):
            with lock:
                return self.answer(200, {
                    "accounts": [{"id": k, **v} for k, v in accounts.items()],
                    "credits": credits, "clawbacks": clawbacks, "restores": []})
        self.answer(404, {"error": "no such path"})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        session = self.headers.get("X-Session", "")
        with lock:
            if self.path == "/api/v2/checkout":
                if session != "s-" + body["login"]:
                    return self.answer(403, {"error": "bad session"})
                token = str(uuid.uuid4()).upper()
                owners[token.lower()] = body["login"]
                next_ref[0] += 1
                return self.answer(200, {"ref": next_ref[0], "token": token, "sku": body["sku"]})
            if self.path == "/jobs/tick":
                self.close_connection = "tick-500-close" in BUGS
                return self.answer(500 if self.close_connection else 200, {"error": "Internal Server Error"})
            if self.path == "/api/v2/apple-purchase" and "report-422" in BUGS:
                return self.answer(422, {"detail": [{"loc": ["body", "signedTransaction"], "msg": "field required"}]})
            if self.path == "/api/v2/apple-purchase":
                # Any logged-in session may report (the app resends as the buyer after a switch).
                if not session.startswith("s-") or "jws" not in body:
                    return self.answer(403, {"error": "bad session"})
                return self.answer(200, {"status": credit(payload(body["jws"]), body["login"])})
            if self.path == "/hooks/apple?src=iapsim":
                n = payload(body["signedPayload"])
                if "uuid-dedup" in BUGS:
                    if n["notificationUUID"] in seen_uuids:
                        return self.answer(200, {})
                    seen_uuids.add(n["notificationUUID"])
                data = n.get("data") or {}
                if "signedTransactionInfo" in data:
                    info = payload(data["signedTransactionInfo"])
                    if n["notificationType"] == "ONE_TIME_CHARGE":
                        credit(info, None)
                    elif n["notificationType"] == "REFUND":
                        claw_back(info)
                return self.answer(200, {})
        self.answer(404, {"error": "no such path"})


ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()

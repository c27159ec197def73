"""iapsim's reference backend: a small, real merchant server for `iapsim serve`.

Standard library HTTP server and sqlite3, and Apple's app-store-server-library for what a
real team uses it for: SignedDataVerifier checks every JWS against root.cer, and
AppStoreServerAPIClient (only its base URL changed) reconciles with Get Transaction History.
It speaks the words of the default words of iapsim serve (docs/server-api.md) (see README.md beside this file).

Environment (as `iapsim serve --spawn` sets it):
  PORT                 the port to listen on (127.0.0.1)
  IAPSIM_API_URL       the App Store Server API iapsim serves (no trailing slash)
  IAPSIM_CERTS         the directory of root.cer, api-key.p8, api-key.json
  IAPSIM_ENVIRONMENT   Production or Sandbox: the verifier is built for it, never for the
                       environment a signed object claims (docs/server-api.md)
  IAPSIM_BUNDLE_ID     default com.example.iapsim
  IAPSIM_APP_APPLE_ID  default 6450000001
  REFBACKEND_DB        sqlite file (default: in memory, a fresh ledger per process)
  BUGS                 comma-separated bug switches, each a one-line fault marked `BUG` below:
                       no-dedup, no-pagination, ack-before-commit, no-clawback,
                       credit-reporter, no-verify, racy-dedup
"""

import base64
import json
import os
import sqlite3
import sys
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

KNOWN_BUGS = ["no-dedup", "no-pagination", "ack-before-commit", "no-clawback", "credit-reporter", "no-verify",
              "racy-dedup", "no-expiry"]
BUGS = [b.strip() for b in os.environ.get("BUGS", "").split(",") if b.strip()]
for unknown in [b for b in BUGS if b not in KNOWN_BUGS]:
    sys.exit(f"refbackend: unknown bug switch {unknown!r}; accepted: {', '.join(KNOWN_BUGS)}")

# The catalog of the simulated app (docs/world.md): coins per consumable; a product that is
# not here grants an entitlement of its own name.
COINS = {"coins_100": 100, "coins_550": 550}

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (id TEXT PRIMARY KEY, coins INTEGER NOT NULL DEFAULT 0,
                                     app_transaction_id TEXT);
CREATE TABLE IF NOT EXISTS entitlements (account TEXT, product_id TEXT, PRIMARY KEY (account, product_id));
CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, account TEXT NOT NULL, product_id TEXT NOT NULL,
                                   token TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS credits (row INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id TEXT NOT NULL,
                                    account TEXT NOT NULL, product_id TEXT NOT NULL, coins INTEGER NOT NULL,
                                    via TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clawbacks (row INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id TEXT NOT NULL,
                                      account TEXT NOT NULL, product_id TEXT NOT NULL, coins INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS restores (row INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id TEXT NOT NULL,
                                     account TEXT NOT NULL, product_id TEXT NOT NULL, coins INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS customers (app_transaction_id TEXT PRIMARY KEY, any_transaction_id TEXT NOT NULL,
                                      revision TEXT);
CREATE TABLE IF NOT EXISTS unattributed (transaction_id TEXT PRIMARY KEY, reason TEXT NOT NULL);
"""


class Refused(Exception):
    """A signed transaction this backend will not credit (bad signature, unknown product...)."""


class Backend:
    def __init__(self):
        self.environment = Environment(os.environ.get("IAPSIM_ENVIRONMENT", "Production"))
        self.bundle_id = os.environ.get("IAPSIM_BUNDLE_ID", "com.example.iapsim")
        self.app_apple_id = int(os.environ.get("IAPSIM_APP_APPLE_ID", "6450000001"))
        certs = os.environ.get("IAPSIM_CERTS", ".")
        with open(os.path.join(certs, "root.cer"), "rb") as f:
            root = f.read()
        self.verifier = SignedDataVerifier(
            [root], False, self.environment, self.bundle_id,
            self.app_apple_id if self.environment == Environment.PRODUCTION else None)
        self.api = None
        api_url = os.environ.get("IAPSIM_API_URL")
        key_path = os.path.join(certs, "api-key.p8")
        if api_url and os.path.exists(key_path):
            with open(key_path, "rb") as f:
                key = f.read()
            with open(os.path.join(certs, "api-key.json")) as f:
                ids = json.load(f)
            self.api = AppStoreServerAPIClient(key, ids["keyId"], ids["issuerId"], ids["bundleId"], self.environment)
            self.api._base_url = api_url.rstrip("/")
        self.db = sqlite3.connect(os.environ.get("REFBACKEND_DB", ":memory:"), isolation_level=None,
                                  check_same_thread=False)
        self.db.executescript(SCHEMA)

    # --- signed data ---------------------------------------------------------------------

    def transaction(self, jws):
        """The decoded transaction as a dict of Apple's field names, or Refused."""
        if "no-verify" in BUGS:
            return unverified(jws)  # BUG no-verify: trusts the payload without checking the signature
        try:
            t = self.verifier.verify_and_decode_signed_transaction(jws)
        except VerificationException as e:
            raise Refused(f"signature: {e.status.name}")
        return {
            "transactionId": t.transactionId, "originalTransactionId": t.originalTransactionId,
            "productId": t.productId, "appAccountToken": t.appAccountToken,
            "revocationDate": t.revocationDate, "revocationPercentage": t.revocationPercentage,
            "appTransactionId": t.appTransactionId,
        }

    def notification(self, signed_payload):
        """(type, decoded transaction or None) of a V2 notification, or Refused."""
        if "no-verify" in BUGS:
            payload = unverified(signed_payload)
            data = payload.get("data") or {}
            info = data.get("signedTransactionInfo")
            return payload.get("notificationType"), (unverified(info) if info else None)
        try:
            n = self.verifier.verify_and_decode_notification(signed_payload)
        except VerificationException as e:
            raise Refused(f"signature: {e.status.name}")
        info = n.data.signedTransactionInfo if n.data else None
        return n.rawNotificationType, (self.transaction(info) if info else None)

    # --- accounts and orders -------------------------------------------------------------

    def account(self, name, app_transaction_id=None):
        self.db.execute("INSERT OR IGNORE INTO accounts (id) VALUES (?)", (name,))
        if app_transaction_id:
            self.db.execute("UPDATE accounts SET app_transaction_id = ? WHERE id = ?", (app_transaction_id, name))
            # Get Transaction History accepts an appTransactionId: a customer whose first
            # purchase never arrived can still be reconciled.
            self.db.execute("INSERT OR IGNORE INTO customers (app_transaction_id, any_transaction_id) VALUES (?, ?)",
                            (app_transaction_id, app_transaction_id))
        return name

    def create_order(self, user, product_id, app_transaction_id=None):
        self.db.execute("BEGIN")
        self.account(user, app_transaction_id)
        n = self.db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] + 1
        order_id, token = f"ord-{n}", str(uuid.uuid4())
        self.db.execute("INSERT INTO orders VALUES (?, ?, ?, ?)", (order_id, user, product_id, token))
        self.db.execute("COMMIT")
        return {"orderId": order_id, "appAccountToken": token}

    def owner(self, token):
        """The account an appAccountToken names: an order's, or an account's own
        (UUIDv5(URL namespace, "iapsim:" + name), docs/server-api.md)."""
        if not token:
            return None
        token = token.lower()
        row = self.db.execute("SELECT account FROM orders WHERE token = ?", (token,)).fetchone()
        if row:
            return row[0]
        for (name,) in self.db.execute("SELECT id FROM accounts").fetchall():
            if str(uuid.uuid5(uuid.NAMESPACE_URL, "iapsim:" + name)) == token:
                return name
        return None

    # --- money ---------------------------------------------------------------------------

    def credit(self, t, account, via):
        """'credited' or 'already-credited'. The caller holds the database transaction."""
        txn = t["transactionId"]
        self.remember_customer(t)
        credited = self.db.execute("SELECT 1 FROM credits WHERE transaction_id = ?", (txn,)).fetchone()
        if credited and "no-dedup" not in BUGS:  # BUG no-dedup: the check is skipped when set
            return "already-credited"
        if "racy-dedup" in BUGS:
            # BUG racy-dedup: the check commits, and the insert comes in a later transaction; one
            # delivery at a time it holds, but a twin that arrives meanwhile passes the same check
            self.db.execute("COMMIT")
            Handler.lock.release()
            time.sleep(0.05)
            Handler.lock.acquire()
            self.db.execute("BEGIN")
        product = t["productId"]
        coins = COINS.get(product, 0)
        self.account(account)
        self.db.execute("INSERT INTO credits (transaction_id, account, product_id, coins, via) VALUES (?, ?, ?, ?, ?)",
                        (txn, account, product, coins, via))
        if coins:
            self.db.execute("UPDATE accounts SET coins = coins + ? WHERE id = ?", (coins, account))
        else:
            self.db.execute("INSERT OR IGNORE INTO entitlements VALUES (?, ?)", (account, product))
        self.db.execute("DELETE FROM unattributed WHERE transaction_id = ?", (txn,))
        return "credited"

    def claw_back(self, t):
        """Takes back the refunded share of every credit of the transaction not yet taken."""
        if "no-clawback" in BUGS:
            return  # BUG no-clawback: a REFUND is acknowledged and nothing is taken back
        txn = t["transactionId"]
        if self.outstanding_clawbacks(txn):
            return  # taken back already, and not given back since
        share = t.get("revocationPercentage") or 100_000
        for account, product, coins in self.db.execute(
                "SELECT account, product_id, coins FROM credits WHERE transaction_id = ?", (txn,)).fetchall():
            taken = coins * share // 100_000
            self.db.execute("INSERT INTO clawbacks (transaction_id, account, product_id, coins) VALUES (?, ?, ?, ?)",
                            (txn, account, product, taken))
            if coins:
                self.db.execute("UPDATE accounts SET coins = coins - ? WHERE id = ?", (taken, account))
            else:
                self.db.execute("DELETE FROM entitlements WHERE account = ? AND product_id = ?", (account, product))

    def outstanding_clawbacks(self, txn):
        """The clawback rows of the transaction not given back yet: each restore row gives back
        one clawback row, in order, so those past the transaction's count of restores (both
        tables stay append-only; never row numbers compared across the two tables, which a
        retried REFUND_REVERSED once turned into a second restore of one clawback)."""
        given = self.db.execute("SELECT COUNT(*) FROM restores WHERE transaction_id = ?", (txn,)).fetchone()[0]
        return self.db.execute("SELECT account, product_id, coins FROM clawbacks WHERE transaction_id = ? "
                               "ORDER BY row LIMIT -1 OFFSET ?", (txn, given)).fetchall()

    def restore(self, t):
        """REFUND_REVERSED: gives back what the clawbacks of the transaction took and no
        earlier REFUND_REVERSED gave back."""
        txn = t["transactionId"]
        for account, product, coins in self.outstanding_clawbacks(txn):
            self.db.execute("INSERT INTO restores (transaction_id, account, product_id, coins) VALUES (?, ?, ?, ?)",
                            (txn, account, product, coins))
            if coins:
                self.db.execute("UPDATE accounts SET coins = coins + ? WHERE id = ?", (coins, account))
            else:
                self.db.execute("INSERT OR IGNORE INTO entitlements VALUES (?, ?)", (account, product))

    def end_access(self, t):
        """EXPIRED or GRACE_PERIOD_EXPIRED: the subscriber's entitlement of the product ends
        (a later purchase, reported, grants it again)."""
        if "no-expiry" in BUGS:
            return  # BUG no-expiry: EXPIRED is acknowledged and the lapsed subscriber keeps the access
        owners = {a for (a,) in self.db.execute(
            "SELECT account FROM credits WHERE transaction_id IN (?, ?)",
            (t.get("originalTransactionId") or t["transactionId"], t["transactionId"]))}
        owner = self.owner(t.get("appAccountToken"))
        if owner is not None:
            owners.add(owner)
        for account in owners:
            self.db.execute("DELETE FROM entitlements WHERE account = ? AND product_id = ?",
                            (account, t["productId"]))

    def remember_customer(self, t):
        """The Apple customer behind a transaction, for reconciliation."""
        customer = t.get("appTransactionId") or t.get("originalTransactionId") or t["transactionId"]
        self.db.execute("INSERT OR IGNORE INTO customers (app_transaction_id, any_transaction_id) VALUES (?, ?)",
                        (customer, t["transactionId"]))

    # --- the three ways a transaction arrives ----------------------------------------------

    def report(self, jws, order_id, user):
        try:
            t = self.transaction(jws)
        except Refused:
            return "refused"
        if t.get("revocationDate"):
            return "refused"
        owner = self.owner(t.get("appAccountToken"))
        if owner is None and order_id:
            row = self.db.execute("SELECT account FROM orders WHERE id = ?", (str(order_id),)).fetchone()
            owner = row[0] if row else None
        owner = owner or user
        owner = user if "credit-reporter" in BUGS else owner  # BUG credit-reporter: credits whoever reports it
        if not owner:
            return "refused"
        self.db.execute("BEGIN")
        result = self.credit(t, owner, "report")
        self.db.execute("COMMIT")
        return result

    def notify(self, signed_payload):
        """The HTTP status to answer a V2 notification with."""
        try:
            kind, t = self.notification(signed_payload)
        except Refused:
            return 400
        if t is None:
            return 200  # TEST and types about no transaction: acknowledged
        self.db.execute("BEGIN")
        self.remember_customer(t)
        if kind == "ONE_TIME_CHARGE":
            owner = self.owner(t.get("appAccountToken"))
            if owner is None:
                # Nobody to credit: acknowledged, and kept for the report or a later order.
                self.db.execute("INSERT OR IGNORE INTO unattributed VALUES (?, 'no owner for appAccountToken')",
                                (t["transactionId"],))
            elif not t.get("revocationDate"):
                self.credit(t, owner, "notification")
            if "ack-before-commit" in BUGS:
                self.db.execute("ROLLBACK")  # BUG ack-before-commit: acked, then the process died before COMMIT
                return 200
        elif kind == "REFUND":
            self.claw_back(t)
        elif kind == "REFUND_REVERSED":
            self.restore(t)
        elif kind in ("EXPIRED", "GRACE_PERIOD_EXPIRED"):
            self.end_access(t)
        elif kind == "CONSUMPTION_REQUEST":
            self.answer_consumption(t)
        self.db.execute("COMMIT")
        return 200

    def answer_consumption(self, t):
        """Send Consumption Information: delivered if it was credited."""
        if self.api is None:
            return
        delivered = self.db.execute("SELECT 1 FROM credits WHERE transaction_id = ?",
                                    (t["transactionId"],)).fetchone()
        try:
            self.api.send_consumption_information(t["transactionId"], ConsumptionRequest(
                customerConsented=True, sampleContentProvided=False,
                deliveryStatus=DeliveryStatus.DELIVERED if delivered else DeliveryStatus.UNDELIVERED_OTHER))
        except APIException:
            pass

    def reconcile(self):
        """The reconciliation job: every known customer's history since the last revision."""
        if self.api is None:
            return {"checked": 0, "credited": 0, "error": "no IAPSIM_API_URL or api-key.p8"}
        checked = credited = 0
        errors = []
        for customer, any_id, revision in self.db.execute(
                "SELECT app_transaction_id, any_transaction_id, revision FROM customers").fetchall():
            while True:
                try:
                    page = self.api.get_transaction_history(
                        any_id, None if "no-pagination" in BUGS else revision, TransactionHistoryRequest(sort=Order.ASCENDING),
                        GetTransactionHistoryVersion.V2)
                except APIException as e:
                    # One customer's failure must not stop the others: the next run retries it.
                    errors.append(f"{customer}: HTTP {e.http_status_code}")
                    break
                self.db.execute("BEGIN")
                for jws in page.signedTransactions or []:
                    checked += 1
                    credited += self.reconcile_one(jws)
                revision = page.revision
                self.db.execute("UPDATE customers SET revision = ? WHERE app_transaction_id = ?", (revision, customer))
                self.db.execute("COMMIT")
                if "no-pagination" in BUGS:
                    break  # BUG no-pagination: reads the first page and ignores hasMore (and the revision)
                if not page.hasMore:
                    break
        answer = {"checked": checked, "credited": credited}
        if errors:
            answer["errors"] = errors
        return answer

    def reconcile_one(self, jws):
        try:
            t = self.transaction(jws)
        except Refused:
            return 0
        if t.get("revocationDate"):
            if self.db.execute("SELECT 1 FROM credits WHERE transaction_id = ?", (t["transactionId"],)).fetchone():
                self.claw_back(t)
            return 0
        restored = self.db.execute("SELECT 1 FROM clawbacks WHERE transaction_id = ?", (t["transactionId"],)).fetchone()
        if restored:
            self.restore(t)  # a reversed refund: the revocation fields are gone
            return 0
        owner = self.owner(t.get("appAccountToken"))
        if owner is None:
            return 0
        return 1 if self.credit(t, owner, "reconcile") == "credited" else 0

    def ledger(self, accounts=None):
        rows = self.db.execute("SELECT id, coins FROM accounts ORDER BY id").fetchall()
        if accounts:
            rows = [r for r in rows if r[0] in accounts]
        return {
            "accounts": [{"id": name, "coins": coins, "entitlements": [p for (p,) in self.db.execute(
                "SELECT product_id FROM entitlements WHERE account = ? ORDER BY product_id", (name,))]}
                for name, coins in rows],
            "credits": [{"transactionId": t, "account": a, "productId": p} for t, a, p in self.db.execute(
                "SELECT transaction_id, account, product_id FROM credits ORDER BY row")],
            "clawbacks": [{"transactionId": t, "account": a, "coins": c, "productId": p} for t, a, c, p in
                          self.db.execute("SELECT transaction_id, account, coins, product_id FROM clawbacks ORDER BY row")],
            "restores": [{"transactionId": t, "account": a, "coins": c, "productId": p} for t, a, c, p in
                         self.db.execute("SELECT transaction_id, account, coins, product_id FROM restores ORDER BY row")],
        }


def unverified(jws):
    """A JWS's payload read without any check (what `no-verify` does)."""
    try:
        part = jws.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except Exception:
        raise Refused("not a JWS")


class Handler(BaseHTTPRequestHandler):
    """One thread per connection (a client may keep one open while it opens another); one
    request at a time touches the ledger."""
    backend: Backend = None
    lock = threading.Lock()
    protocol_version = "HTTP/1.1"
    # Headers and body leave in two writes: without this, Nagle holds the body back until the
    # client's delayed ACK (40 ms an answer).
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        sys.stderr.write("refbackend: " + (fmt % args) + "\n")

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b"{}"
        try:
            value = json.loads(raw or b"{}")
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def do_GET(self):
        with self.lock:
            self.get()

    def do_POST(self):
        with self.lock:
            self.post()

    def get(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/healthz":
            return self.answer(200, {"ok": True, "bugs": BUGS})
        if url.path == "/iapsim/ledger":
            query = urllib.parse.parse_qs(url.query)
            names = [n for v in query.get("accounts", []) for n in v.split(",") if n]
            return self.answer(200, self.backend.ledger(names or None))
        self.answer(404, {"error": "no such path"})

    def post(self):
        path = urllib.parse.urlsplit(self.path).path
        body = self.body()
        if body is None:
            return self.answer(400, {"error": "the body must be a JSON object"})
        b = self.backend
        if path == "/orders":
            if not body.get("user") or not body.get("productId"):
                return self.answer(400, {"error": "user and productId are required"})
            return self.answer(200, b.create_order(str(body["user"]), str(body["productId"]),
                                                   body.get("appTransactionId")))
        if path == "/apple/report":
            if not body.get("signedTransaction"):
                return self.answer(400, {"result": "refused", "error": "signedTransaction is required"})
            order = body.get("orderId")
            return self.answer(200, {"result": b.report(body["signedTransaction"], order, body.get("user"))})
        if path == "/apple/notifications":
            if not body.get("signedPayload"):
                return self.answer(400, {"error": "signedPayload is required"})
            status = b.notify(body["signedPayload"])
            return self.answer(status, {"ok": status == 200})
        if path == "/jobs/reconcile":
            return self.answer(200, b.reconcile())
        self.answer(404, {"error": "no such path"})


def main():
    port = int(os.environ.get("PORT", "8000"))
    Handler.backend = Backend()
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    sys.stderr.write(f"refbackend: listening on 127.0.0.1:{server.server_address[1]}"
                     f" ({Handler.backend.environment.value}; bugs: {','.join(BUGS) or 'none'})\n")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

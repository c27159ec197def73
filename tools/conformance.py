"""Apple's own clients against the App Store Server API that iapsim serves (docs/server-api.md).

Drives every served endpoint, error paths, pagination and auth included, with BOTH
AppStoreServerAPIClient and AsyncAppStoreServerAPIClient of app-store-server-library (only
`_base_url` changed) and checks the parsed models; the signed data is verified with
SignedDataVerifier against root.cer.

  python tools/conformance.py --url http://127.0.0.1:P --certs DIR --environment Production \
      --expect world.json

world.json (written by the Swift test that starts the API over a known world):
  {"transactionId", "count", "revoked", "orderId", "consumptionTransactionId",
   "consumptionAccepted": bool, "notifications": N, "startDate", "endDate"}
  or, with --only subscriptions, a world with one subscription:
  {"subscriptionTransactionId", "originalTransactionId", "subscriptionStatus", "autoRenewStatus"}
Prints one line per check and `N passed, N failed`; exit 1 when any check fails.
"""

import argparse
import asyncio
import json
import os
import sys
import urllib.parse

from appstoreserverlibrary.api_client import (APIException, AppStoreServerAPIClient, AsyncAppStoreServerAPIClient,
                                              GetTransactionHistoryVersion)
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": {detail}"))


def expect_error(name, status, code, call):
    """`call` must raise APIException with this status and errorCode (None: no body)."""
    try:
        call()
    except APIException as e:
        check(name, e.http_status_code == status and e.raw_api_error == code,
              f"got {e.http_status_code} {e.raw_api_error}")
        return
    check(name, False, "no error")


async def expect_error_async(name, status, code, call):
    try:
        await call()
    except APIException as e:
        check(name, e.http_status_code == status and e.raw_api_error == code,
              f"got {e.http_status_code} {e.raw_api_error}")
        return
    check(name, False, "no error")


class Session:
    """One client (sync or async) and the checks of its answers."""

    def __init__(self, args, world, asynchronous):
        certs = args.certs
        with open(os.path.join(certs, "api-key.p8"), "rb") as f:
            self.key = f.read()
        with open(os.path.join(certs, "api-key.json")) as f:
            self.ids = json.load(f)
        with open(os.path.join(certs, "root.cer"), "rb") as f:
            root = f.read()
        self.environment = Environment(args.environment)
        self.world = world
        self.url = args.url
        self.verifier = SignedDataVerifier([root], False, self.environment, self.ids["bundleId"], 6450000001)
        self.tag = "async" if asynchronous else "sync"
        self.client = self.make(AsyncAppStoreServerAPIClient if asynchronous else AppStoreServerAPIClient)

    def make(self, cls, key_id=None):
        client = cls(self.key, key_id or self.ids["keyId"], self.ids["issuerId"], self.ids["bundleId"],
                     self.environment)
        client._base_url = self.url
        return client

    def transaction(self, jws):
        return self.verifier.verify_and_decode_signed_transaction(jws)

    # --- the checks of each answer, shared by both clients ---

    def info(self, answer):
        t = self.transaction(answer.signedTransactionInfo)
        check(f"{self.tag} get_transaction_info decodes", t.transactionId == self.world["transactionId"]
              and t.bundleId == self.ids["bundleId"] and t.environment == self.environment, t)

    def history(self, pages, label, expected):
        ids = [self.transaction(s).transactionId for p in pages for s in p.signedTransactions]
        check(f"{self.tag} history {label}: {expected} transactions over {len(pages)} pages", len(ids) == expected
              and len(set(ids)) == expected and pages[-1].hasMore is False
              and all(p.bundleId == self.ids["bundleId"] and p.appAppleId == 6450000001
                      and p.environment == self.environment and isinstance(p.hasMore, bool) for p in pages),
              f"{len(ids)} ids, hasMore {[p.hasMore for p in pages]}")
        return ids

    def lookup(self, answer, unknown):
        check(f"{self.tag} look_up_order_id", answer.status == 0 and len(answer.signedTransactions) >= 1
              and self.transaction(answer.signedTransactions[0]).transactionId, answer)
        check(f"{self.tag} look_up_order_id unknown is status 1", unknown.status == 1, unknown)

    def notification_pages(self, pages):
        records = [r for p in pages for r in p.notificationHistory]
        decoded = [self.verifier.verify_and_decode_notification(r.signedPayload) for r in records]
        check(f"{self.tag} notification history: {self.world['notifications']} notifications",
              len(records) == self.world["notifications"] and all(r.sendAttempts for r in records)
              and all(d.data and d.data.environment == self.environment for d in decoded),
              f"{len(records)} records")

    def subscriptions(self, answer):
        """Get All Subscription Statuses: one group, its newest transaction and renewal info."""
        w = self.world
        ok = (answer.environment == self.environment and answer.bundleId == self.ids["bundleId"]
              and answer.appAppleId == 6450000001 and len(answer.data) == 1
              and answer.data[0].subscriptionGroupIdentifier == "pro" and len(answer.data[0].lastTransactions) == 1)
        check(f"{self.tag} get_all_subscription_statuses: one group 'pro'", ok, answer)
        if not ok:
            return
        last = answer.data[0].lastTransactions[0]
        t = self.transaction(last.signedTransactionInfo)
        r = self.verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
        check(f"{self.tag} subscription status {w['subscriptionStatus']} and its signed transaction",
              last.rawStatus == w["subscriptionStatus"] and last.originalTransactionId == w["originalTransactionId"]
              and t.originalTransactionId == w["originalTransactionId"] and t.rawType == "Auto-Renewable Subscription"
              and t.expiresDate is not None and t.subscriptionGroupIdentifier == "pro", (last, t))
        check(f"{self.tag} renewal info verifies (verify_and_decode_renewal_info)",
              r.originalTransactionId == w["originalTransactionId"] and r.rawAutoRenewStatus == w["autoRenewStatus"]
              and r.environment == self.environment and r.productId == t.productId, r)

    def history_request(self, **kwargs):
        return TransactionHistoryRequest(sort=kwargs.pop("sort", Order.ASCENDING), **kwargs)


def run_sync(s):
    c, w = s.client, s.world
    s.info(c.get_transaction_info(w["transactionId"]))
    expect_error("sync get_transaction_info unknown: 404 4040010", 404, 4040010,
                 lambda: c.get_transaction_info("1999999999999"))
    expect_error("sync get_transaction_info bad id: 400 4000006", 400, 4000006,
                 lambda: c.get_transaction_info("not-a-number"))
    pages, revision = [], None
    while True:
        page = c.get_transaction_history(w["transactionId"], revision, s.history_request(),
                                         GetTransactionHistoryVersion.V2)
        pages.append(page)
        revision = page.revision
        if not page.hasMore:
            break
    s.history(pages, "ascending", w["count"])
    later = c.get_transaction_history(w["transactionId"], revision, s.history_request(),
                                      GetTransactionHistoryVersion.V2)
    check("sync history: the last revision later returns nothing new", later.signedTransactions == [], later)
    revoked = c.get_transaction_history(w["transactionId"], None, s.history_request(revoked=True),
                                        GetTransactionHistoryVersion.V2)
    check("sync history revoked=True", len(revoked.signedTransactions) == w["revoked"], revoked.signedTransactions)
    owned = c.get_transaction_history(w["transactionId"], None,
                                      s.history_request(productTypes=[ProductType.NON_CONSUMABLE]),
                                      GetTransactionHistoryVersion.V2)
    check("sync history productType NON_CONSUMABLE", all(
        s.transaction(j).type.value == "Non-Consumable" for j in owned.signedTransactions)
        and owned.signedTransactions, owned)
    down = c.get_transaction_history(w["transactionId"], None, s.history_request(sort=Order.DESCENDING),
                                     GetTransactionHistoryVersion.V2)
    check("sync history DESCENDING starts with the newest change",
          s.transaction(down.signedTransactions[0]).transactionId != s.transaction(
              pages[0].signedTransactions[0]).transactionId)
    expect_error("sync history bad revision: 400 4000005", 400, 4000005,
                 lambda: c.get_transaction_history(w["transactionId"], "bm90IGEgcmV2aXNpb24=", s.history_request(),
                                                   GetTransactionHistoryVersion.V2))
    # The library's default version is v1 (Get Transaction History v1): served, without the
    # consumables the app finished.
    v1 = c.get_transaction_history(w["transactionId"], None, s.history_request())
    check("sync history v1 (the client's default) omits finished consumables", v1.signedTransactions and all(
        s.transaction(j).type.value != "Consumable" for j in v1.signedTransactions), v1.signedTransactions)
    s.lookup(c.look_up_order_id(w["orderId"]), c.look_up_order_id("M999999999"))
    nh = NotificationHistoryRequest(startDate=w["startDate"], endDate=w["endDate"])
    npages, token = [], None
    while True:
        page = c.get_notification_history(token, nh)
        npages.append(page)
        token = page.paginationToken
        if not page.hasMore:
            break
    s.notification_pages(npages)
    expect_error("sync notification history bad token: 400 4000014", 400, 4000014,
                 lambda: c.get_notification_history("bad token", nh))
    test = c.request_test_notification()
    check("sync request_test_notification gives a token", bool(test.testNotificationToken), test)
    expect_error("sync unknown test token: 404 4040008", 404, 4040008,
                 lambda: c.get_test_notification_status("no-such-token"))
    consumption = ConsumptionRequest(customerConsented=True, sampleContentProvided=False,
                                     deliveryStatus=DeliveryStatus.DELIVERED)
    if w["consumptionAccepted"]:
        try:
            c.send_consumption_information(w["consumptionTransactionId"], consumption)
            check("sync send_consumption_information: 202", True)
        except APIException as e:
            check("sync send_consumption_information: 202", False, e.http_status_code)
    if w["consumptionAccepted"]:
        refused = ConsumptionRequest(customerConsented=False, sampleContentProvided=False,
                                     deliveryStatus=DeliveryStatus.DELIVERED)
        expect_error("sync consumption without consent: 400 4000035", 400, 4000035,
                     lambda: c.send_consumption_information(w["consumptionTransactionId"], refused))
    expect_error("sync consumption without a request: 400 4000000", 400, 4000000,
                 lambda: c.send_consumption_information(w["transactionId"], consumption))
    wrong = s.make(AppStoreServerAPIClient, key_id="WRONGKEY00")
    expect_error("sync wrong key id: 401", 401, None, lambda: wrong.get_transaction_info(w["transactionId"]))


async def run_async(s):
    c, w = s.client, s.world
    try:
        s.info(await c.get_transaction_info(w["transactionId"]))
        await expect_error_async("async get_transaction_info unknown: 404 4040010", 404, 4040010,
                                 lambda: c.get_transaction_info("1999999999999"))
        pages, revision = [], None
        while True:
            page = await c.get_transaction_history(w["transactionId"], revision, s.history_request(),
                                                   GetTransactionHistoryVersion.V2)
            pages.append(page)
            revision = page.revision
            if not page.hasMore:
                break
        s.history(pages, "ascending", w["count"])
        await expect_error_async("async history bad revision: 400 4000005", 400, 4000005,
                                 lambda: c.get_transaction_history(w["transactionId"], "%%%", s.history_request(),
                                                                   GetTransactionHistoryVersion.V2))
        s.lookup(await c.look_up_order_id(w["orderId"]), await c.look_up_order_id("M999999999"))
        nh = NotificationHistoryRequest(startDate=w["startDate"], endDate=w["endDate"])
        npages, token = [], None
        while True:
            page = await c.get_notification_history(token, nh)
            npages.append(page)
            token = page.paginationToken
            if not page.hasMore:
                break
        s.notification_pages(npages)
        await expect_error_async("async unknown test token: 404 4040008", 404, 4040008,
                                 lambda: c.get_test_notification_status("no-such-token"))
        wrong = s.make(AsyncAppStoreServerAPIClient, key_id="WRONGKEY00")
        await expect_error_async("async wrong key id: 401", 401, None,
                                 lambda: wrong.get_transaction_info(w["transactionId"]))
        await wrong.async_close()
    finally:
        await c.async_close()


def run_subscriptions(s):
    from appstoreserverlibrary.models.Status import Status
    c, w = s.client, s.world
    s.subscriptions(c.get_all_subscription_statuses(w["subscriptionTransactionId"]))
    other = [st for st in Status if st.value != w["subscriptionStatus"]]
    filtered = c.get_all_subscription_statuses(w["subscriptionTransactionId"], other)
    check("sync get_all_subscription_statuses filtered by the other statuses: no group", filtered.data == [], filtered)
    expect_error("sync get_all_subscription_statuses unknown: 404 4040010", 404, 4040010,
                 lambda: c.get_all_subscription_statuses("1999999999999"))


async def run_subscriptions_async(s):
    s.subscriptions(await s.client.get_all_subscription_statuses(s.world["subscriptionTransactionId"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--certs", required=True)
    parser.add_argument("--environment", default="Production")
    parser.add_argument("--expect", required=True)
    parser.add_argument("--only", choices=["sync", "async", "subscriptions"])
    args = parser.parse_args()
    with open(args.expect) as f:
        world = json.load(f)
    if args.only == "subscriptions":
        run_subscriptions(Session(args, world, asynchronous=False))
        asyncio.run(run_subscriptions_async(Session(args, world, asynchronous=True)))
    else:
        if args.only != "async":
            run_sync(Session(args, world, asynchronous=False))
        if args.only != "sync":
            asyncio.run(run_async(Session(args, world, asynchronous=True)))
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()

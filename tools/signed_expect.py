#!/usr/bin/env python3
"""The fields Apple's decoded payloads must hold, built from a run's --log alone.

Usage: signed_expect.py LOG.jsonl > EXPECT.jsonl

One line per signed object of the run, in run order (the order of signed.jsonl): for a
`transactionSigned` fact, the transaction's fields as Apple's JWSTransactionDecodedPayload
names them (dates turned from virtual to Unix milliseconds); for a `notificationSent` fact,
the notification's fields as ResponseBodyV2DecodedPayload names them, with its
signedTransactionInfo's fields under "transaction" (a subscription's: its signedRenewalInfo's
under "renewalInfo", after a line of its own for the renewal info signed first); for a
`forgeryPrepared` fact, {} (a
forged JWS must only be refused). Feed it to tools/verify_signed.py --expect.
"""
import json
import sys

EPOCH_MS = 1_767_225_600_000  # virtual time 0: 2026-01-01T00:00:00Z
TYPES = {"consumable": "Consumable", "non-consumable": "Non-Consumable",
         "auto-renewable": "Auto-Renewable Subscription"}


def subscription_fields(t):
    """A subscription transaction's own fields (none for a one-time product)."""
    if "expiresDate" not in t:
        return {}
    return {"expiresDate": t["expiresDate"] + EPOCH_MS, "webOrderLineItemId": t["webOrderLineItemId"],
            "subscriptionGroupIdentifier": t["subscriptionGroupIdentifier"],
            "transactionReason": t["transactionReason"]}


def renewal_fields(r):
    """JWSRenewalInfoDecodedPayload's fields (a null: the field must be absent)."""
    def date(key):
        return None if r.get(key) is None else r[key] + EPOCH_MS
    return {
        "originalTransactionId": r["originalTransactionId"], "autoRenewProductId": r["autoRenewProductId"],
        "productId": r["productId"], "autoRenewStatus": r["autoRenewStatus"],
        "isInBillingRetryPeriod": r["isInBillingRetryPeriod"], "gracePeriodExpiresDate": date("gracePeriodExpiresDate"),
        "expirationIntent": r.get("expirationIntent"), "renewalDate": date("renewalDate"),
        "signedDate": r["signedDate"] + EPOCH_MS, "environment": r["environment"],
        "recentSubscriptionStartDate": r["recentSubscriptionStartDate"] + EPOCH_MS,
    }


def decoded_fields(t):
    return {
        "transactionId": t["transactionId"],
        "originalTransactionId": t["originalTransactionId"],
        "productId": t["productId"],
        "type": TYPES[t["type"]],
        "purchaseDate": t["purchaseDate"] + EPOCH_MS,
        "originalPurchaseDate": t["originalPurchaseDate"] + EPOCH_MS,
        "signedDate": t["signedDate"] + EPOCH_MS,
        "price": t["price"],
        "appAccountToken": t.get("appAccountToken"),
        "appTransactionId": t["appTransactionId"],
        "bundleId": "com.example.iapsim",
        "environment": t["environment"],
        "currency": "USD",
    } | ({"revocationDate": t["revocationDate"] + EPOCH_MS, "revocationReason": t["revocationReason"],
          "revocationType": t["revocationType"], "revocationPercentage": t.get("revocationPercentage")}
         if "revocationDate" in t else {}) | subscription_fields(t)


def notification_fields(n):
    return {
        "notificationType": n["notificationType"],
        "notificationUUID": n["notificationUUID"],
        "signedDate": n["signedDate"] + EPOCH_MS,
        "version": "2.0",
        "data": {"bundleId": "com.example.iapsim", "environment": n["signedTransactionInfo"]["environment"],
                 "bundleVersion": "1.0", "appAppleId": 6450000001},
        "transaction": decoded_fields(n["signedTransactionInfo"]),
    } | ({"subtype": n["subtype"]} if "subtype" in n else {}) | (
        {"renewalInfo": renewal_fields(n["signedRenewalInfo"])} if "signedRenewalInfo" in n else {})


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as log:
        for line in log:
            fact = json.loads(line)
            if fact.get("kind") == "transactionSigned":
                print(json.dumps(decoded_fields(fact["transaction"]), sort_keys=True))
            elif fact.get("kind") == "notificationSent":
                # A subscription's renewal info is signed on its own line first, then the notification.
                if "signedRenewalInfo" in fact["notification"]:
                    print(json.dumps(renewal_fields(fact["notification"]["signedRenewalInfo"]), sort_keys=True))
                print(json.dumps(notification_fields(fact["notification"]), sort_keys=True))
            elif fact.get("kind") == "forgeryPrepared":
                print("{}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

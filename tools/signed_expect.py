#!/usr/bin/env python3
"""The fields Apple's decoded payloads must hold, built from a run's --log alone.

Usage: signed_expect.py LOG.jsonl > EXPECT.jsonl

One line per signed object of the run, in run order (the order of signed.jsonl): for a
`transactionSigned` fact, the transaction's fields as Apple's JWSTransactionDecodedPayload
names them (dates turned from virtual to Unix milliseconds); for a `notificationSent` fact,
the notification's fields as ResponseBodyV2DecodedPayload names them, with its
signedTransactionInfo's fields under "transaction"; for a `forgeryPrepared` fact, {} (a
forged JWS must only be refused). Feed it to tools/verify_signed.py --expect.
"""
import json
import sys

EPOCH_MS = 1_767_225_600_000  # virtual time 0: 2026-01-01T00:00:00Z


def decoded_fields(t):
    return {
        "transactionId": t["transactionId"],
        "originalTransactionId": t["originalTransactionId"],
        "productId": t["productId"],
        "type": "Consumable" if t["type"] == "consumable" else "Non-Consumable",
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
          "revocationType": t["revocationType"], "revocationPercentage": t["revocationPercentage"]}
         if "revocationDate" in t else {})


def notification_fields(n):
    return {
        "notificationType": n["notificationType"],
        "notificationUUID": n["notificationUUID"],
        "signedDate": n["signedDate"] + EPOCH_MS,
        "version": "2.0",
        "data": {"bundleId": "com.example.iapsim", "environment": n["signedTransactionInfo"]["environment"],
                 "bundleVersion": "1.0", "appAppleId": 6450000001},
        "transaction": decoded_fields(n["signedTransactionInfo"]),
    }


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
                print(json.dumps(notification_fields(fact["notification"]), sort_keys=True))
            elif fact.get("kind") == "forgeryPrepared":
                print("{}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

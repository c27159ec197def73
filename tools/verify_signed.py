#!/usr/bin/env python3
"""The external judge of the simulator's signed data: Apple's own app-store-server-library.

Usage: verify_signed.py DIR [--expect EXPECT.jsonl]

DIR holds root.cer (DER) and signed.jsonl, one object a line:
  {"t": ms, "kind": "transaction"|"renewal"|"notification"|"forged", "txn": "...", "environment": "...", "jws": "..."}
Every transaction, renewal info (a subscription's JWSRenewalInfoDecodedPayload; its "txn" is
the subscription's originalTransactionId) and notification (and a notification's
signedTransactionInfo and signedRenewalInfo) must be
verified and decoded by Apple's SignedDataVerifier trusting only root.cer, built for the
run's environment (the line's "environment": Production or Sandbox) with the app's Apple ID
(6450000001, which the verifier needs in production); every forged one must be refused,
whatever environment it claims. With --expect, line i of EXPECT.jsonl is an object of the fields the decoded
payload of line i must hold (a nested "transaction" object: the notification's inner
transaction; "renewalInfo": its inner renewal info; "data": the notification's data; a null
value: the field must be absent). A subscription transaction (type Auto-Renewable
Subscription) must carry expiresDate, webOrderLineItemId and subscriptionGroupIdentifier; a
notification about one must carry signedRenewalInfo, for the same originalTransactionId, and
data.status; a subscription-only notification type must be about a subscription. Prints one line per object, then
"N passed, N failed"; exits 0 when all pass, 1 when one fails, 2 on bad input.
Run it with the python of tools/apple-venv.sh.
"""
import argparse
import json
import sys
from pathlib import Path

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import (
    SignedDataVerifier,
    VerificationException,
    VerificationStatus,
)

BUNDLE_ID = "com.example.iapsim"
APP_APPLE_ID = 6450000001
SUBSCRIPTION = "Auto-Renewable Subscription"
SUBSCRIPTION_FIELDS = ("expiresDate", "webOrderLineItemId", "subscriptionGroupIdentifier")
SUBSCRIPTION_ONLY = {"SUBSCRIBED", "OFFER_REDEEMED", "DID_RENEW", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "EXPIRED",
                     "DID_CHANGE_RENEWAL_STATUS", "DID_CHANGE_RENEWAL_PREF", "PRICE_INCREASE"}


def decoded_value(decoded, field):
    """The library's decoded value of a field: the raw form for enum-typed fields (rawType,
    rawEnvironment, ...), so that values compare with what the simulator wrote."""
    raw = "raw" + field[0].upper() + field[1:]
    if hasattr(decoded, raw):
        return getattr(decoded, raw)
    return getattr(decoded, field)


def mismatches(decoded, expected, prefix=""):
    """Each field of `expected` whose decoded value differs, as 'field: expected X, decoded Y'."""
    found = []
    for field, want in expected.items():
        if isinstance(want, dict):
            found += mismatches(decoded_value(decoded, field), want, prefix + field + ".")
            continue
        got = decoded_value(decoded, field)
        if got != want:
            found.append(f"{prefix}{field}: expected {want!r}, decoded {got!r}")
    return found


class Judge:
    def __init__(self, root):
        self.root = root
        self.verifiers = {}

    def verifier_for(self, environment):
        """Apple's verifier for the run's environment, made once per environment."""
        if environment not in self.verifiers:
            self.verifiers[environment] = SignedDataVerifier(
                [self.root], enable_online_checks=False, environment=Environment(environment),
                bundle_id=BUNDLE_ID, app_apple_id=APP_APPLE_ID,
            )
        return self.verifiers[environment]

    def check(self, entry, expected):
        """Problems with one line of signed.jsonl; none when Apple's library agrees."""
        kind, txn, jws = entry.get("kind"), entry.get("txn"), entry.get("jws", "")
        self.verifier = self.verifier_for(entry.get("environment", "Production"))
        if kind == "forged":
            return self.refused(jws)
        if kind == "transaction":
            decoded = self.verifier.verify_and_decode_signed_transaction(jws)
            problems = self.same_transaction(decoded, txn) + self.subscription_fields(decoded)
        elif kind == "renewal":
            decoded = self.verifier.verify_and_decode_renewal_info(jws)
            problems = [] if decoded.originalTransactionId == txn else [
                f"originalTransactionId {decoded.originalTransactionId!r} is not txn {txn!r}"]
        elif kind == "notification":
            decoded = self.verifier.verify_and_decode_notification(jws)
            inner = self.verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
            decoded.transaction = inner
            problems = self.same_transaction(inner, txn) + self.subscription_fields(inner)
            problems += self.renewal_of_notification(decoded, inner)
        else:
            return [f"unknown kind {kind!r}"]
        return problems + mismatches(decoded, expected or {})

    @staticmethod
    def same_transaction(decoded, txn):
        return [] if decoded.transactionId == txn else [f"transactionId {decoded.transactionId!r} is not txn {txn!r}"]

    @staticmethod
    def subscription_fields(decoded):
        if decoded.rawType != SUBSCRIPTION:
            return []
        return [f"a subscription transaction without {field}" for field in SUBSCRIPTION_FIELDS
                if getattr(decoded, field) is None]

    def renewal_of_notification(self, decoded, inner):
        """Verifies data.signedRenewalInfo (as decoded.renewalInfo); problems when a
        subscription's notification lacks it or names another subscription."""
        signed = decoded.data.signedRenewalInfo
        subscription = inner.rawType == SUBSCRIPTION
        problems = []
        if decoded.rawNotificationType in SUBSCRIPTION_ONLY and not subscription:
            problems.append(f"{decoded.rawNotificationType} about a transaction of type {inner.rawType!r}")
        if signed is None:
            decoded.renewalInfo = None
            return problems + (["a subscription's notification without data.signedRenewalInfo"] if subscription else [])
        renewal = self.verifier.verify_and_decode_renewal_info(signed)
        decoded.renewalInfo = renewal
        if renewal.originalTransactionId != inner.originalTransactionId:
            problems.append(f"signedRenewalInfo is for {renewal.originalTransactionId!r}, "
                            f"the transaction for {inner.originalTransactionId!r}")
        if subscription and decoded.data.rawStatus is None:
            problems.append("a subscription's notification without data.status")
        return problems

    def refused(self, jws):
        try:
            self.verifier.verify_and_decode_signed_transaction(jws)
        except VerificationException as refusal:
            if refusal.status == VerificationStatus.VERIFICATION_FAILURE:
                return []
            return [f"refused, but for {refusal.status.name} rather than its signature chain"]
        return ["a forged JWS was accepted"]


def read_lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main():
    parser = argparse.ArgumentParser(description="Verify a directory of signed data with Apple's library.")
    parser.add_argument("dir", type=Path)
    parser.add_argument("--expect", type=Path)
    args = parser.parse_args()
    try:
        judge = Judge(args.dir.joinpath("root.cer").read_bytes())
        entries = read_lines(args.dir / "signed.jsonl")
        expectations = read_lines(args.expect) if args.expect else [{}] * len(entries)
    except (OSError, ValueError) as error:
        print(f"verify_signed: {error}", file=sys.stderr)
        return 2
    if len(expectations) != len(entries):
        print(f"verify_signed: {len(entries)} signed objects but {len(expectations)} expectations", file=sys.stderr)
        return 2
    passed = failed = 0
    for number, (entry, expected) in enumerate(zip(entries, expectations), start=1):
        try:
            problems = judge.check(entry, expected)
        except VerificationException as refusal:
            problems = [f"refused by Apple's verifier: {refusal.status.name}"]
        except Exception as error:  # a field the library did not decode, a malformed line
            problems = [f"{type(error).__name__}: {error}"]
        label = f"{number:>4} {entry.get('kind')} {entry.get('txn')}"
        if problems:
            failed += 1
            print(f"FAIL {label}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"ok   {label}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

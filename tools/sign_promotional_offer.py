#!/usr/bin/env python3
"""Signs a promotional offer with Apple's app-store-server-library, as a team's server does.

Usage: sign_promotional_offer.py KEY.pem REQUEST.json
REQUEST: {"form": "v1"|"jws", "keyId", "bundleId", "product", "offer",
          v1: "account" (appAccountToken or ""), "nonce" (UUID), "timestamp" (Unix ms);
          jws: "issuer", optional "transactionId"}
Prints the Base64 signature (v1, PromotionalOfferSignatureCreator) or the compact JWS
(jws, PromotionalOfferV2SignatureCreator). Run it with the python of tools/apple-venv.sh.
"""
import json
import sys
import uuid

from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator

key = open(sys.argv[1], "rb").read()
request = json.load(open(sys.argv[2]))
if request["form"] == "v1":
    creator = PromotionalOfferSignatureCreator(key, request["keyId"], request["bundleId"])
    print(creator.create_signature(request["product"], request["offer"], request["account"],
                                   uuid.UUID(request["nonce"]), request["timestamp"]))
else:
    creator = PromotionalOfferV2SignatureCreator(key, request["keyId"], request["issuer"], request["bundleId"])
    print(creator.create_signature(request["product"], request["offer"], request.get("transactionId")))

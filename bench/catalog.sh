#!/usr/bin/env bash
# Benchmark of reading a StoreKit configuration file (release build): writes a file of
# 500 products in Xcode's shape (200 consumables, 100 non-consumables, 20 groups of 10
# subscriptions with offers), then times `iapsim catalog FILE` against `iapsim catalog`
# (the built-in catalog, no file read): the difference is the load (read, JSON, checks).
# Prints the figures; changes nothing in the repository.
# Usage: bench/catalog.sh [repeats=21]
set -euo pipefail
source "$(dirname "$0")/release.sh"
REPEATS=${1:-21}

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
FILE=$OUT/Products.storekit

product() { # ID TYPE PRICE
  printf '    {\n      "displayPrice" : "%s",\n      "familyShareable" : false,\n      "internalID" : "%s",\n' "$3" "$1"
  printf '      "localizations" : [\n        {\n          "description" : "The product %s",\n' "$1"
  printf '          "displayName" : "Product %s",\n          "locale" : "en_US"\n        }\n      ],\n' "$1"
  printf '      "productID" : "com.example.bench.%s",\n      "referenceName" : "%s",\n      "type" : "%s"\n    }' "$1" "$1" "$2"
}

subscription() { # ID GROUP LEVEL PERIOD
  printf '        {\n          "adHocOffers" : [ ],\n          "codeOffers" : [ ],\n          "displayPrice" : "4.99",\n'
  printf '          "familyShareable" : false,\n          "groupNumber" : %s,\n          "internalID" : "%s",\n' "$3" "$1"
  printf '          "introductoryOffer" : {\n            "internalID" : "i%s",\n            "paymentMode" : "free",\n' "$1"
  printf '            "subscriptionPeriod" : "P1W"\n          },\n'
  printf '          "localizations" : [\n            {\n              "description" : "Plan %s",\n' "$1"
  printf '              "displayName" : "Plan %s",\n              "locale" : "en_US"\n            }\n          ],\n' "$1"
  printf '          "productID" : "com.example.bench.%s",\n          "recurringSubscriptionPeriod" : "%s",\n' "$1" "$4"
  printf '          "referenceName" : "%s",\n          "subscriptionGroupID" : "%s",\n' "$1" "$2"
  printf '          "type" : "RecurringSubscription",\n          "winbackOffers" : [ ]\n        }'
}

{
  printf '{\n  "identifier" : "BENCH500",\n  "nonRenewingSubscriptions" : [ ],\n  "products" : [\n'
  for ((i = 0; i < 300; i++)); do
    ((i > 0)) && printf ',\n'
    if ((i < 200)); then product "c$i" Consumable "0.99"; else product "n$i" NonConsumable "2.99"; fi
  done
  printf '\n  ],\n  "settings" : {\n    "_storefront" : "USA"\n  },\n  "subscriptionGroups" : [\n'
  periods=(P1W P1M P2M P3M P6M P1Y)
  for ((g = 0; g < 20; g++)); do
    ((g > 0)) && printf ',\n'
    printf '    {\n      "id" : "group%s",\n      "localizations" : [ ],\n      "name" : "Group %s",\n      "subscriptions" : [\n' "$g" "$g"
    for ((k = 0; k < 10; k++)); do
      ((k > 0)) && printf ',\n'
      subscription "s${g}_$k" "group$g" $((k % 3 + 1)) "${periods[$((k % 6))]}"
    done
    printf '\n      ]\n    }'
  done
  printf '\n  ],\n  "version" : {\n    "major" : 4,\n    "minor" : 0\n  }\n}\n'
} >"$FILE"

count=$("$BIN" catalog "$FILE" | head -1)
echo "file: $(wc -c <"$FILE") bytes; $count"

# ms CMD...: wall milliseconds of one run.
ms() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null
  end=$(date +%s%N)
  echo $(((end - start) / 1000))
}
median() { sort -g | awk '{v[NR] = $1} END {printf "%.1f", v[int((NR + 1) / 2)] / 1000}'; }

: >"$OUT/file"; : >"$OUT/none"
for ((i = 0; i < REPEATS; i++)); do
  ms "$BIN" catalog "$FILE" >>"$OUT/file"
  ms "$BIN" catalog >>"$OUT/none"
done
with=$(median <"$OUT/file")
without=$(median <"$OUT/none")
echo "iapsim catalog (500 products): median $with ms; built-in, no file: median $without ms"
echo "load of the 500-product file: $(awk -v a="$with" -v b="$without" 'BEGIN {printf "%.1f", a - b}') ms (limit 50 ms)"

#!/usr/bin/env bash
# The script posdata replaces: a bash loop of curl + `jq -r @csv` over pages of 5,000, exactly
# as /work/shared/checks/perf-export's `handmade` (same fields, flattened the same way), and
# `floor`, the same pages downloaded only. Used by bench/figures/export.ts.
# usage: URL=http://127.0.0.1:P ADMIN_UID=2 handmade.sh handmade OUT.csv | floor
set -u
F='["id","name","date_order","amount_total","amount_paid","amount_tax","state","config_id","session_id","payment_ids"]'
rpc() { curl -s -m 30 -H 'Content-Type: application/json' -d "{\"jsonrpc\":\"2.0\",\"method\":\"call\",\"params\":{\"service\":\"$1\",\"method\":\"$2\",\"args\":$3},\"id\":7}" "$URL/jsonrpc"; }
kw() { rpc object execute_kw "[\"demo\",$ADMIN_UID,\"admin\",\"$1\",\"$2\",$3,$4]"; }
handmade() {
  local off=0 got
  : > "$1"
  while :; do
    got=$(kw pos.order search_read "[[]]" "{\"fields\":$F,\"order\":\"id\",\"limit\":5000,\"offset\":$off}" \
      | jq -r '.result[] | [.id,.name,.date_order,.amount_total,.amount_paid,.amount_tax,.state,.config_id[0],.config_id[1],.session_id[0],.session_id[1],(.payment_ids|map(tostring)|join(";"))] | @csv' \
      | tee -a "$1" | wc -l)
    [ "$got" -lt 5000 ] && break; off=$((off+5000))
  done
}
floor() {   # the same pages, downloaded only: what no client can beat by much
  local off=0 got
  while :; do
    got=$(kw pos.order search_read "[[]]" "{\"fields\":$F,\"order\":\"id\",\"limit\":5000,\"offset\":$off}" | wc -c)
    [ "$got" -lt 200 ] && break; off=$((off+5000))
  done
}
case "${1:-}" in
  handmade) handmade "$2" ;;
  floor) floor ;;
  *) echo "usage: handmade.sh handmade OUT.csv | floor" >&2; exit 2 ;;
esac

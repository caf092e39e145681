-- Each node's presence, recorded every few seconds (src/platform/kv/presence.ts): a node whose bus heartbeats stopped
-- is forgotten by the others (PEER_GONE_MS) only when it stopped recording here too — it died — and not while only its
-- link to Redis is stalled (its bookings would then never reach the others' holding index). Issue 37 item 4.
CREATE TABLE rova_bus_presence (
  node text PRIMARY KEY,
  seen_at timestamptz NOT NULL DEFAULT now()
);

-- WooCommerce-format API keys (ck_… / cs_…). The consumer key is stored like every key: a keyed hash in
-- key_hash (with its own purpose, so a consumer key alone is never a valid X-Rova-API-Key). The consumer
-- secret is stored twice, for two verifiers:
--   wc_secret_hash   keyed hash, checked (constant time) for HTTP Basic and ?consumer_secret= over HTTPS;
--   wc_secret_sealed AES-256-GCM ciphertext (key derived from ROVA_SECRET), opened only to recompute OAuth 1.0a
--                    signatures, because the client signs with the secret itself and a hash cannot do that.
ALTER TABLE rova_api_keys ADD COLUMN wc_secret_hash text;
ALTER TABLE rova_api_keys ADD COLUMN wc_secret_sealed text;
ALTER TABLE rova_api_keys ADD CONSTRAINT rova_api_keys_wc_pair CHECK ((wc_secret_hash IS NULL) = (wc_secret_sealed IS NULL));

-- The bootstrap key is a secret the operator chose: its first characters were stored in clear as its prefix.
-- Generated keys keep their prefix (random characters after `rova_`); the bootstrap key keeps none.
UPDATE rova_api_keys SET key_prefix = '' WHERE name = 'bootstrap (ROVA_BOOTSTRAP_ADMIN_KEY)';

-- Issue 36.1: a one-way fee. A pricing rule of kind `one_way` (an amount, once per booking, global, per category or
-- per vehicle) is charged when a rental is returned at another location than its pick-up; the order keeps it as its
-- own line of kind `fee`.
ALTER TABLE rental_pricing_rules DROP CONSTRAINT IF EXISTS rental_pricing_rules_kind_check;
ALTER TABLE rental_pricing_rules ADD CONSTRAINT rental_pricing_rules_kind_check
  CHECK (kind IN ('season', 'weekend', 'duration', 'addon', 'tax', 'deposit', 'one_way'));
ALTER TABLE rental_order_lines DROP CONSTRAINT IF EXISTS rental_order_lines_kind_check;
ALTER TABLE rental_order_lines ADD CONSTRAINT rental_order_lines_kind_check
  CHECK (kind IN ('rental', 'addon', 'fee', 'tax', 'deposit', 'full'));

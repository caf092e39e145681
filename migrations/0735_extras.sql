-- Extras in the booking widget (issue 36.3): an add-on rule may cap how many units one booking takes (child seats:
-- up to 3 at a time); NULL means one. Each order line keeps the quantity it was priced for.
ALTER TABLE rental_pricing_rules ADD COLUMN max_per_day integer CHECK (max_per_day IS NULL OR max_per_day BETWEEN 1 AND 100);
ALTER TABLE rental_order_lines ADD COLUMN quantity integer NOT NULL DEFAULT 1 CHECK (quantity >= 1);

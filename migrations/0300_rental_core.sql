-- Rental core: locations, vehicles, transfer routes, pricing rules, customers, bookings.
-- Money is NUMERIC(12,2); instants are timestamptz (UTC); store-local dates are `date`.

CREATE TABLE rental_locations (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  type text NOT NULL DEFAULT 'office'
    CHECK (type IN ('airport', 'hotel', 'port', 'station', 'city_center', 'office', 'other')),
  city text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  latitude numeric(9,6),
  longitude numeric(9,6),
  priority integer NOT NULL DEFAULT 0,
  is_active boolean NOT NULL DEFAULT true,
  allow_rental boolean NOT NULL DEFAULT true,
  allow_transfer boolean NOT NULL DEFAULT true,
  -- null = always open; else {"mon":{"open":"08:00","close":"20:00"}, ...}; a missing day = closed.
  opening_hours jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rental_locations_active ON rental_locations(is_active, priority DESC);
CREATE INDEX rental_locations_city ON rental_locations(lower(city));

CREATE TABLE rental_vehicles (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'maintenance')),
  -- null = operator fleet; else the vendor user (marketplace).
  vendor_id bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  price_per_day numeric(12,2) NOT NULL CHECK (price_per_day >= 0),
  deposit_percent numeric(5,2) CHECK (deposit_percent IS NULL OR (deposit_percent >= 0 AND deposit_percent <= 100)),
  currency text NOT NULL DEFAULT 'EUR',
  category text NOT NULL DEFAULT 'economy',
  brand text NOT NULL DEFAULT '',
  model text NOT NULL DEFAULT '',
  year integer,
  seats integer,
  doors integer,
  transmission text NOT NULL DEFAULT 'manual' CHECK (transmission IN ('manual', 'automatic')),
  fuel_type text NOT NULL DEFAULT 'petrol' CHECK (fuel_type IN ('petrol', 'diesel', 'hybrid', 'electric', 'lpg')),
  features jsonb NOT NULL DEFAULT '[]'::jsonb,
  description text NOT NULL DEFAULT '',
  location_id bigint REFERENCES rental_locations(id) ON DELETE SET NULL,
  service_type text NOT NULL DEFAULT 'rental' CHECK (service_type IN ('rental', 'transfer', 'both')),
  transfer_max_passengers integer,
  transfer_max_luggage integer,
  -- store-local dates ("YYYY-MM-DD") on which the vehicle cannot be rented.
  blocked_dates jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rental_vehicles_status ON rental_vehicles(status);
CREATE INDEX rental_vehicles_vendor ON rental_vehicles(vendor_id) WHERE vendor_id IS NOT NULL;
CREATE INDEX rental_vehicles_category ON rental_vehicles(category);
CREATE INDEX rental_vehicles_location ON rental_vehicles(location_id);

CREATE TABLE rental_transfer_routes (
  id bigserial PRIMARY KEY,
  origin_location_id bigint REFERENCES rental_locations(id) ON DELETE SET NULL,
  destination_location_id bigint REFERENCES rental_locations(id) ON DELETE SET NULL,
  origin text NOT NULL,
  destination text NOT NULL,
  distance_km numeric(10,2) NOT NULL DEFAULT 0 CHECK (distance_km >= 0),
  duration_min integer NOT NULL DEFAULT 0 CHECK (duration_min >= 0),
  pricing text NOT NULL DEFAULT 'fixed' CHECK (pricing IN ('fixed', 'calculated')),
  base_price numeric(12,2) NOT NULL DEFAULT 0 CHECK (base_price >= 0),
  price_per_km numeric(12,2) NOT NULL DEFAULT 0 CHECK (price_per_km >= 0),
  min_price numeric(12,2) NOT NULL DEFAULT 0 CHECK (min_price >= 0),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Pricing rules are data. kind:
--   season   multiplier for store-local dates start_date..end_date (inclusive; year ignored when recurring)
--   weekend  multiplier for Saturday and Sunday (store timezone)
--   duration percent (negative = discount) applied to the net rental price when days >= min_days (best tier wins)
--   addon    optional extra identified by code: amount per day or per booking
--   tax      percent of (net + add-ons)
--   deposit  percent of the total (a vehicle's deposit_percent overrides it)
-- scope: global, category (scope_value = category) or vehicle (vehicle_id); the most specific scope wins per kind.
CREATE TABLE rental_pricing_rules (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('season', 'weekend', 'duration', 'addon', 'tax', 'deposit')),
  scope text NOT NULL DEFAULT 'global' CHECK (scope IN ('global', 'category', 'vehicle')),
  category text,
  vehicle_id bigint REFERENCES rental_vehicles(id) ON DELETE CASCADE,
  start_date date,
  end_date date,
  recurring boolean NOT NULL DEFAULT true,
  multiplier numeric(8,4),
  percent numeric(7,3),
  min_days integer,
  code text,
  amount numeric(12,2),
  charge text CHECK (charge IS NULL OR charge IN ('per_day', 'per_booking')),
  priority integer NOT NULL DEFAULT 0,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (scope <> 'category' OR category IS NOT NULL),
  CHECK (scope <> 'vehicle' OR vehicle_id IS NOT NULL)
);
CREATE INDEX rental_pricing_rules_kind ON rental_pricing_rules(kind, is_active);

CREATE TABLE rental_customers (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  -- the customer's user account, when they have one (customer side of messages)
  user_id bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX rental_customers_email ON rental_customers(lower(email));
CREATE INDEX rental_customers_user ON rental_customers(user_id) WHERE user_id IS NOT NULL;
CREATE INDEX rental_customers_created ON rental_customers(created_at);

CREATE TABLE rental_bookings (
  id bigserial PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  vehicle_id bigint NOT NULL REFERENCES rental_vehicles(id) ON DELETE RESTRICT,
  -- null once the customer is deleted (bookings are kept, anonymised, for accounting)
  customer_id bigint REFERENCES rental_customers(id) ON DELETE SET NULL,
  customer_name text NOT NULL DEFAULT '',
  customer_email text NOT NULL DEFAULT '',
  customer_phone text NOT NULL DEFAULT '',
  kind text NOT NULL DEFAULT 'rental' CHECK (kind IN ('rental', 'transfer')),
  transfer_route_id bigint REFERENCES rental_transfer_routes(id) ON DELETE SET NULL,
  transfer_origin text,
  transfer_destination text,
  passengers integer,
  pickup_location_id bigint REFERENCES rental_locations(id) ON DELETE SET NULL,
  return_location_id bigint REFERENCES rental_locations(id) ON DELETE SET NULL,
  pickup_at timestamptz NOT NULL,
  return_at timestamptz NOT NULL,
  days integer NOT NULL CHECK (days >= 1),
  price_per_day numeric(12,2) NOT NULL DEFAULT 0,
  net_price numeric(12,2) NOT NULL DEFAULT 0,
  addons_total numeric(12,2) NOT NULL DEFAULT 0,
  tax numeric(12,2) NOT NULL DEFAULT 0,
  total numeric(12,2) NOT NULL DEFAULT 0,
  deposit numeric(12,2) NOT NULL DEFAULT 0,
  remaining numeric(12,2) NOT NULL DEFAULT 0,
  currency text NOT NULL DEFAULT 'EUR',
  addons jsonb NOT NULL DEFAULT '[]'::jsonb,
  breakdown jsonb,
  payment_status text NOT NULL DEFAULT 'unpaid'
    CHECK (payment_status IN ('unpaid', 'deposit_paid', 'paid', 'refunded', 'partially_refunded', 'failed')),
  payment_method text,
  payment_deadline timestamptz,
  status text NOT NULL DEFAULT 'pending_payment'
    CHECK (status IN ('draft', 'pending_payment', 'pending', 'confirmed', 'in_progress', 'completed',
                      'cancelled', 'no_show', 'refunded')),
  notes text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT 'admin',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (return_at > pickup_at)
);
-- availability: overlap check per vehicle (the partial index holds only the bookings that can block)
CREATE INDEX rental_bookings_availability ON rental_bookings(vehicle_id, pickup_at, return_at, status);
CREATE INDEX rental_bookings_holding ON rental_bookings(vehicle_id, return_at, pickup_at)
  WHERE status IN ('pending_payment', 'pending', 'confirmed', 'in_progress');
-- reports and dashboards
CREATE INDEX rental_bookings_created ON rental_bookings(created_at, status);
CREATE INDEX rental_bookings_status ON rental_bookings(status, created_at);
CREATE INDEX rental_bookings_customer ON rental_bookings(customer_id, created_at);
CREATE INDEX rental_bookings_pickup ON rental_bookings(pickup_at);

-- Rental admin read models: message threads, and the indexes the dashboard, reports and customer lists need.

CREATE TABLE rental_messages (
  id bigserial PRIMARY KEY,
  -- A thread is its first message: thread_id = id of the first message (the starter's own id).
  thread_id bigint NOT NULL REFERENCES rental_messages(id) ON DELETE CASCADE,
  parent_id bigint REFERENCES rental_messages(id) ON DELETE CASCADE,
  customer_id bigint REFERENCES rental_customers(id) ON DELETE SET NULL,
  sender text NOT NULL CHECK (sender IN ('customer', 'admin')),
  author_user_id bigint REFERENCES rova_users(id) ON DELETE SET NULL,
  -- Snapshot of the customer at writing time (kept when the customer record goes; anonymised on customer delete).
  customer_name text NOT NULL DEFAULT '',
  customer_email text NOT NULL DEFAULT '',
  subject text NOT NULL,
  body text NOT NULL,
  -- Thread state lives on the first message only (NULL on replies).
  status text CHECK (status IN ('pending', 'replied', 'closed')),
  priority text CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  category text CHECK (category IN ('general', 'booking', 'payment', 'technical', 'complaint', 'other')),
  booking_id bigint REFERENCES rental_bookings(id) ON DELETE SET NULL,
  -- Read by the other party: the admin side for customer messages, the customer for admin replies.
  is_read boolean NOT NULL DEFAULT false,
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT rental_messages_thread_state CHECK (
    (parent_id IS NULL AND status IS NOT NULL AND priority IS NOT NULL AND category IS NOT NULL)
    OR (parent_id IS NOT NULL AND status IS NULL AND priority IS NULL AND category IS NULL AND booking_id IS NULL))
);
CREATE INDEX rental_messages_thread ON rental_messages (thread_id, created_at, id);
CREATE INDEX rental_messages_starters ON rental_messages (status, priority, category) WHERE parent_id IS NULL;
CREATE INDEX rental_messages_customer ON rental_messages (customer_id) WHERE parent_id IS NULL;

-- Dashboard "recent transfers": upcoming transfer bookings by pickup time.
CREATE INDEX rental_bookings_transfer_pickup ON rental_bookings (pickup_at) WHERE kind = 'transfer';

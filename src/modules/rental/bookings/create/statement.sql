-- Generated from src/modules/rental/bookings/create/statement.ts: do not edit (see that file).

-- BOOKINGS_AT_ONCE: customers' rentals, at most one per vehicle, with their writes, in one statement
WITH
    i AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(k int, vehicle_id bigint, account_id bigint, ref text, customer jsonb, f jsonb, x jsonb)),
    known AS (SELECT v.id FROM rental_vehicles v WHERE v.id = ANY($2::bigint[])),
    v AS (SELECT v.id FROM rental_vehicles v WHERE v.id = ANY($2::bigint[]) ORDER BY v.id FOR UPDATE OF v SKIP LOCKED),
    c AS (SELECT DISTINCT ON (c.user_id) c.user_id, c.id, c.name, c.email, c.phone FROM rental_customers c
      WHERE c.user_id = ANY($3::bigint[]) ORDER BY c.user_id, c.id),
    seen AS (SELECT i.k FROM i JOIN c ON c.user_id = i.account_id
      WHERE c.id = (i.customer->>'id')::bigint AND c.name = i.customer->>'name' AND c.email = i.customer->>'email' AND c.phone = i.customer->>'phone'),
    lapsed AS (SELECT u.vehicle_id FROM unnest($2::bigint[]) AS u(vehicle_id) CROSS JOIN LATERAL (SELECT 1 FROM rental_bookings x
      WHERE x.vehicle_id = u.vehicle_id AND x.status IN ('pending_payment', 'pending') AND x.payment_deadline <= now()
        AND (x.holds_slot OR (x.status = 'pending_payment' AND x.payment_status = 'unpaid')) LIMIT 1) AS one),
    b AS (INSERT INTO rental_bookings (customer_id, customer_name, customer_email, customer_phone, reference, vehicle_id, kind,
        pickup_location_id, return_location_id, pickup_at, return_at, days, price_per_day, net_price, addons_total, tax, total,
        deposit, remaining, addons, breakdown, currency, payment_method, payment_deadline, status, notes, source, buffer_minutes)
      SELECT c.id, c.name, c.email, c.phone, r.reference, r.vehicle_id, r.kind,
        r.pickup_location_id, r.return_location_id, r.pickup_at, r.return_at, r.days, r.price_per_day, r.net_price, r.addons_total, r.tax, r.total,
        r.deposit, r.remaining, r.addons, r.breakdown, r.currency, r.payment_method, r.payment_deadline, r.status, r.notes, r.source, r.buffer_minutes
      FROM i JOIN v ON v.id = i.vehicle_id JOIN c ON c.user_id = i.account_id JOIN seen ON seen.k = i.k
        CROSS JOIN LATERAL jsonb_populate_record(NULL::rental_bookings, i.f) AS r
      WHERE NOT EXISTS (SELECT 1 FROM lapsed WHERE lapsed.vehicle_id = i.vehicle_id)
      ORDER BY i.k
      ON CONFLICT DO NOTHING RETURNING *),
    ev AS (INSERT INTO rova_events (event_id, type, payload)
      SELECT e.j->>'eventId', e.j->>'type', CASE WHEN (i.x->>'draft')::boolean
          THEN jsonb_set(jsonb_set(jsonb_set((e.j->>'payload')::jsonb, '{data,id}', to_jsonb(b.id)), '{data,customer_id}', to_jsonb(b.customer_id)), '{data,total}', to_jsonb(b.total::text))
          ELSE (e.j->>'payload')::jsonb END
      FROM b JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'events') WITH ORDINALITY AS e(j, ord) ORDER BY i.k, e.ord),
    o AS (INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due)
      SELECT b.id, (i.x#>>'{order,user_id}')::bigint, i.x#>>'{order,payment_plan}', i.x#>>'{order,currency}', (i.x#>>'{order,total}')::numeric, (i.x#>>'{order,amount_due}')::numeric
      FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id),
    l AS (INSERT INTO rental_order_lines (order_id, kind, code, description, amount, quantity)
      SELECT o.id, x.j->>'kind', x.j->>'code', x.j->>'description', (x.j->>'amount')::numeric, coalesce((x.j->>'quantity')::int, 1)
      FROM o JOIN b ON b.id = o.booking_id JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'lines') WITH ORDINALITY AS x(j, ord)
      ORDER BY i.k, x.ord),
    pay AS (INSERT INTO rental_payments (booking_id, provider, amount, currency)
      SELECT b.id, i.x#>>'{pay,provider}', (i.x#>>'{pay,amount}')::numeric, i.x#>>'{order,currency}' FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id),
    drv AS (INSERT INTO rental_booking_drivers (booking_id, name, date_of_birth, licence_number, flight_number, terms_version, terms_accepted_at)
      SELECT b.id, d.name, d.date_of_birth, d.licence_number, d.flight_number, d.terms_version, CASE WHEN d.terms_version IS NULL THEN NULL ELSE now() END
      FROM b JOIN i ON i.ref = b.reference
        CROSS JOIN LATERAL jsonb_to_recordset(i.x->'drivers') AS d(name text, date_of_birth date, licence_number text, flight_number text, terms_version text)
      ORDER BY i.k),
    mail AS (INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, not_before, about, attachments, draft)
      SELECT m."to", m.subject, m.text, m.html, m.template, m.status, now() + make_interval(secs => m.hold_seconds), 'booking:' || b.id, coalesce(m.attachments, '[]'::jsonb), m.draft
      FROM b JOIN i ON i.ref = b.reference
        CROSS JOIN LATERAL jsonb_to_recordset(i.x->'mails') AS m("to" text, subject text, text text, html text, template text, status text, hold_seconds int, attachments jsonb, draft jsonb)
      ORDER BY i.k RETURNING id, about)
    SELECT i.k, known.id IS NOT NULL AS has_vehicle, v.id IS NOT NULL AS locked, c.id IS NOT NULL AS has_customer,
      seen.k IS NOT NULL AS customer_current, lapsed.vehicle_id IS NOT NULL AS has_lapsed_holds, b.id IS NOT NULL AS booked,
      (SELECT pay.id::int FROM pay WHERE pay.booking_id = b.id) AS payment_id,
      (SELECT mail.id::int FROM mail WHERE mail.about = 'booking:' || b.id) AS mail_id,
      pg_current_xact_id()::text AS commit_xid, b.*
    FROM i LEFT JOIN known ON known.id = i.vehicle_id LEFT JOIN v ON v.id = i.vehicle_id LEFT JOIN c ON c.user_id = i.account_id
      LEFT JOIN seen ON seen.k = i.k LEFT JOIN lapsed ON lapsed.vehicle_id = i.vehicle_id
      LEFT JOIN b ON b.reference = i.ref
    ORDER BY i.k;

-- ORDER_OF_BOOKING: the same writes for a booking inserted by its transaction
WITH
    b AS (SELECT $1::bigint AS id, 'b'::text AS reference, NULL::bigint AS customer_id, NULL::numeric AS total),
    i AS (SELECT 0 AS k, 'b'::text AS ref, $2::jsonb AS x),
    ev AS (INSERT INTO rova_events (event_id, type, payload)
      SELECT e.j->>'eventId', e.j->>'type', CASE WHEN (i.x->>'draft')::boolean
          THEN jsonb_set(jsonb_set(jsonb_set((e.j->>'payload')::jsonb, '{data,id}', to_jsonb(b.id)), '{data,customer_id}', to_jsonb(b.customer_id)), '{data,total}', to_jsonb(b.total::text))
          ELSE (e.j->>'payload')::jsonb END
      FROM b JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'events') WITH ORDINALITY AS e(j, ord) ORDER BY i.k, e.ord),
    o AS (INSERT INTO rental_orders (booking_id, user_id, payment_plan, currency, total, amount_due)
      SELECT b.id, (i.x#>>'{order,user_id}')::bigint, i.x#>>'{order,payment_plan}', i.x#>>'{order,currency}', (i.x#>>'{order,total}')::numeric, (i.x#>>'{order,amount_due}')::numeric
      FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id),
    l AS (INSERT INTO rental_order_lines (order_id, kind, code, description, amount, quantity)
      SELECT o.id, x.j->>'kind', x.j->>'code', x.j->>'description', (x.j->>'amount')::numeric, coalesce((x.j->>'quantity')::int, 1)
      FROM o JOIN b ON b.id = o.booking_id JOIN i ON i.ref = b.reference CROSS JOIN LATERAL jsonb_array_elements(i.x->'lines') WITH ORDINALITY AS x(j, ord)
      ORDER BY i.k, x.ord),
    pay AS (INSERT INTO rental_payments (booking_id, provider, amount, currency)
      SELECT b.id, i.x#>>'{pay,provider}', (i.x#>>'{pay,amount}')::numeric, i.x#>>'{order,currency}' FROM b JOIN i ON i.ref = b.reference ORDER BY i.k RETURNING id, booking_id),
    drv AS (INSERT INTO rental_booking_drivers (booking_id, name, date_of_birth, licence_number, flight_number, terms_version, terms_accepted_at)
      SELECT b.id, d.name, d.date_of_birth, d.licence_number, d.flight_number, d.terms_version, CASE WHEN d.terms_version IS NULL THEN NULL ELSE now() END
      FROM b JOIN i ON i.ref = b.reference
        CROSS JOIN LATERAL jsonb_to_recordset(i.x->'drivers') AS d(name text, date_of_birth date, licence_number text, flight_number text, terms_version text)
      ORDER BY i.k),
    mail AS (INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status, not_before, about, attachments, draft)
      SELECT m."to", m.subject, m.text, m.html, m.template, m.status, now() + make_interval(secs => m.hold_seconds), 'booking:' || b.id, coalesce(m.attachments, '[]'::jsonb), m.draft
      FROM b JOIN i ON i.ref = b.reference
        CROSS JOIN LATERAL jsonb_to_recordset(i.x->'mails') AS m("to" text, subject text, text text, html text, template text, status text, hold_seconds int, attachments jsonb, draft jsonb)
      ORDER BY i.k RETURNING id, about)
    SELECT (SELECT id::int FROM pay) AS payment_id, (SELECT id::int FROM mail) AS mail_id;

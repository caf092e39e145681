-- A booking write asks "has a hold of this vehicle lapsed?" before it books (it must be swept first). By vehicle and
-- deadline, the answer reads only the lapsed rows, however many pending bookings the vehicle has: the bookings'
-- batched statement asks it for every vehicle of its batch, and the transactional path for its one vehicle.
CREATE INDEX rental_bookings_vehicle_lapsing ON rental_bookings(vehicle_id, payment_deadline) WHERE status IN ('pending_payment', 'pending');

import { DomainError } from '../../../platform/domain-error.js';

/**
 * The vehicle cannot be had for the period asked: booked (or held) by someone else, blocked, in maintenance,
 * inactive, or not offered for this kind of rental. `details.reason` names which (`booked`, `blocked`, …).
 * Thrown by the availability checks and the booking writes (create, move, reinstate, a lapsed hold paid late);
 * the rental catalogue maps it to 409 VEHICLE_NOT_AVAILABLE (rentalHttpErrorOf).
 */
export class VehicleNotAvailable extends DomainError {}

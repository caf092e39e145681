import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { IdParams, Nullable } from '../../schemas.js';
import { publicReadLimit } from '../../http/rate-limits.js';
import { myBooking } from '../my/service.js';
import { journeySettings } from '../settings.js';
import { BookingDriverView, DriverRulesView, DriverSettingsBody, DriverSettingsView } from './schema.js';
import { bookingDriver, changeDriverSettings, driverRules, staffBookingDriver } from './service.js';
import { driverSettings } from './settings.js';

const T = ['rental v2: driver and terms'];
const admin = { auth: { cap: 'manage_options' } } as const;
const staff = { auth: { cap: 'manage_store' } } as const;

/** rova-rental/v2: driver and terms settings, the rules the widget shows, and a booking's driver. */
export const driverRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;

  app.get(
    '/driver-settings',
    {
      config: admin,
      schema: {
        tags: T,
        summary: 'Driver and terms settings: minimum driver age (by vehicle category), rental terms and their version',
        response: { 200: RentalEnvelope(DriverSettingsView), ...rentalErrors(401, 403) },
      },
    },
    async () => rentalOk(await driverSettings(p), ''),
  );

  app.put(
    '/driver-settings',
    {
      config: admin,
      schema: {
        tags: T,
        summary: 'Change driver and terms settings (e.g. {"min_age_by_category":{"suv":25}})',
        description:
          'Fields left out keep their value; min_age_by_category is replaced as a whole. With terms (text or URL) a ' +
          'terms_version is required; customers then accept that version when they book.',
        body: DriverSettingsBody,
        response: { 200: RentalEnvelope(DriverSettingsView), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      req.auditTarget = 'option:rental_driver_terms';
      return rentalOk(await changeDriverSettings(p, req.body), 'Settings saved.');
    },
  );

  app.get(
    '/booking/driver-rules',
    {
      config: { auth: 'public', readOnly: true },
      onRequest: publicReadLimit,
      schema: {
        tags: T,
        summary: 'What a customer is asked before booking: driver rules, the rental terms, the cancellation policy',
        response: { 200: RentalEnvelope(DriverRulesView), ...rentalErrors(429) },
      },
    },
    async () => rentalOk(driverRules(await driverSettings(p), journeySettings(p)), ''),
  );

  app.get(
    '/bookings/:id/driver',
    {
      config: staff,
      schema: {
        tags: T,
        summary: 'A booking’s driver, flight number and terms acceptance (null: none given)',
        params: IdParams,
        response: { 200: RentalEnvelope(Nullable(BookingDriverView)), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      return rentalOk(await staffBookingDriver(p, req.params.id), '');
    },
  );

  app.get(
    '/my/bookings/:id/driver',
    {
      config: { auth: { authenticated: true } },
      schema: {
        tags: ['rental v2: booking journey'],
        summary: 'The driver, flight number and terms acceptance of one of the signed-in customer’s bookings',
        params: IdParams,
        response: { 200: RentalEnvelope(Nullable(BookingDriverView)), ...rentalErrors(400, 401, 403, 404, 429) },
      },
    },
    async (req) => {
      await myBooking(p, req.auth.user!.id, req.params.id);
      return rentalOk(await bookingDriver(p.db, req.params.id), '');
    },
  );
};

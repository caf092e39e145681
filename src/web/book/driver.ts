/**
 * The review step's driver and terms (issue 36.4): the driver's name, date of birth and licence number, the flight
 * of an airport pick-up, the rental terms with their required box, and the cancellation policy. The server decides
 * (POST /booking/create refuses with its reason, which the widget shows); this form checks up front what it can.
 */
import type { I18n } from './i18n/index.js';
import { field, h } from './dom.js';

/** GET /booking/driver-rules. */
export interface DriverRules {
  driver_required: boolean;
  min_age: number;
  min_age_by_category: Record<string, number>;
  terms: { version: string; text: string; url: string } | null;
  cancellation: { free_cancel_hours: number; fee_percent: number };
}

/** The booking create fields this form adds. */
export interface DriverFields {
  driver?: { name: string; date_of_birth: string; licence_number: string };
  flight_number?: string;
  terms_accepted?: boolean;
  terms_version?: string;
}

/** GET /my/bookings/{id}/driver. */
export interface BookingDriver {
  name: string | null;
  date_of_birth: string | null;
  licence_number: string | null;
  flight_number: string | null;
  terms_version: string | null;
  terms_accepted_at: string | null;
}

/** What the form needs to know of the booking. */
export interface DriverFacts {
  category: string;
  /** YYYY-MM-DD: the age counts on this day. */
  pickupDate: string;
  airport: boolean;
}

const LICENCE = /^[A-Za-z0-9][A-Za-z0-9 /-]{2,28}[A-Za-z0-9]$/;

function age(birth: string, on: string): number {
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

const realPastDate = (s: string, today: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) &&
  new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s &&
  s < today &&
  s >= '1900-01-01';

export class DriverForm {
  rules: DriverRules | null = null;
  private v = { name: '', dob: '', licence: '', flight: '', accepted: false };

  constructor(
    /** The widget's API (only what the form asks of it: the store's rules). */
    api: { driverRules(): Promise<DriverRules> },
    private readonly i18n: I18n,
    rerender: () => void,
  ) {
    void api.driverRules().then(
      (r) => {
        this.rules = r;
        rerender();
      },
      () => undefined, // without the rules the server still decides
    );
  }

  private input(key: 'name' | 'dob' | 'licence' | 'flight', props: Record<string, string | boolean>): HTMLElement {
    return h('input', {
      ...props,
      value: this.v[key],
      'data-f': `driver-${key}`,
      on: { input: (e: Event) => (this.v[key] = (e.target as HTMLInputElement).value) },
    });
  }

  view(f: DriverFacts): HTMLElement {
    const { t } = this.i18n;
    const r = this.rules;
    const required = r?.driver_required ?? false;
    const c = r?.cancellation;
    return h(
      'div',
      { class: 'driver' },
      h(
        'fieldset',
        { class: 'driver' },
        h('legend', {}, t('driver')),
        field(t('driverName'), this.input('name', { autocomplete: 'name', maxlength: '200', required })),
        field(t('driverBirth'), this.input('dob', { type: 'date', autocomplete: 'bday', required })),
        field(t('driverLicence'), this.input('licence', { maxlength: '30', required })),
        f.airport ? field(t('flightNumber'), this.input('flight', { maxlength: '10', placeholder: 'TK1234' })) : null,
      ),
      c
        ? h(
            'p',
            { class: 'note', 'data-f': 'cancel-policy' },
            c.fee_percent > 0
              ? t('cancelPolicy', { hours: c.free_cancel_hours, percent: c.fee_percent })
              : t('cancelPolicyFree', { hours: c.free_cancel_hours }),
          )
        : null,
      r?.terms
        ? h(
            'div',
            { class: 'terms' },
            r.terms.text ? h('p', { class: 'note', 'data-f': 'terms-text' }, r.terms.text) : null,
            r.terms.url
              ? h('p', {}, h('a', { href: r.terms.url, target: '_blank', rel: 'noopener' }, t('termsLink')))
              : null,
            h(
              'label',
              { class: 'radio' },
              h('input', {
                type: 'checkbox',
                required: true,
                checked: this.v.accepted,
                'data-f': 'terms-accept',
                on: { change: (e: Event) => (this.v.accepted = (e.target as HTMLInputElement).checked) },
              }),
              t('termsAccept', { version: r.terms.version }),
            ),
          )
        : null,
    );
  }

  /** The fields for the create body, or the first problem in words (checked before asking the server). */
  take(f: DriverFacts, today: string): { fields: DriverFields } | { problem: string } {
    const { t } = this.i18n;
    const r = this.rules;
    const name = this.v.name.trim();
    const licence = this.v.licence.trim();
    const given = name !== '' || this.v.dob !== '' || licence !== '';
    const fields: DriverFields = {};
    if (given || r?.driver_required) {
      if (!name) return { problem: t('driverNameMissing') };
      if (!realPastDate(this.v.dob, today)) return { problem: t('driverBirthInvalid') };
      if (!LICENCE.test(licence)) return { problem: t('driverLicenceInvalid') };
      const min = r ? (r.min_age_by_category[f.category.toLowerCase()] ?? r.min_age) : 0;
      const years = age(this.v.dob, f.pickupDate);
      if (years < min)
        return { problem: t('driverTooYoung', { min, category: this.i18n.attr(f.category), age: years }) };
      fields.driver = { name, date_of_birth: this.v.dob, licence_number: licence };
    }
    if (f.airport && this.v.flight.trim()) fields.flight_number = this.v.flight.trim();
    if (r?.terms) {
      if (!this.v.accepted) return { problem: t('termsMissing') };
      fields.terms_accepted = true;
      fields.terms_version = r.terms.version;
    }
    return { fields };
  }
}

/** The driver, flight and terms of a booking in the customer's account (nothing when none were given). */
export function driverSummary(i18n: I18n, d: BookingDriver | null | undefined): HTMLElement | null {
  if (!d) return null;
  const { t } = i18n;
  const row = (label: string, value: string) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, value));
  return h(
    'table',
    { class: 'breakdown', 'data-f': 'booking-driver' },
    h(
      'tbody',
      {},
      d.name ? row(t('driver'), d.name) : null,
      d.date_of_birth ? row(t('driverBirth'), d.date_of_birth) : null,
      d.licence_number ? row(t('driverLicence'), d.licence_number) : null,
      d.flight_number ? row(t('flightNumber'), d.flight_number) : null,
      d.terms_version && d.terms_accepted_at
        ? row(t('termsAccepted', { version: d.terms_version }), i18n.when(d.terms_accepted_at))
        : null,
    ),
  );
}

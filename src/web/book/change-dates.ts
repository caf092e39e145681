/**
 * "Change dates" of a booking in the account (and the guest "manage my booking" page, which shows the same booking
 * view): new pick-up and return, optionally another free vehicle of the same category, the price difference from the
 * server's quote (POST /v2/my/bookings/{id}/change/quote), then the change itself (…/change, one Idempotency-Key per
 * attempt). The screen keeps its own state and redraws only itself; the account widget shows it in place of the
 * booking view and takes over when it is done (pays the difference, or shows the refund).
 */
import { newAttemptKey } from './attempt-key.js';
import { ApiError, type Api } from './api.js';
import type { MyBookingDetail } from './account.js';
import type { ChangeAnswer, ChangeBody } from './api-types.js';
import { field, h, heading } from './dom.js';
import type { I18n } from './i18n/index.js';

export type ChangeResult = ChangeAnswer;

/** The statuses a customer may move a booking in, before its pick-up (the server decides again under its lock). */
export function changeable(b: Pick<MyBookingDetail, 'status' | 'pickup_at'>, now = Date.now()): boolean {
  return ['pending_payment', 'pending', 'confirmed'].includes(b.status) && Date.parse(b.pickup_at) > now;
}

export interface ChangeScreen {
  el: HTMLElement;
}

interface Options {
  api: Api;
  i18n: I18n;
  booking: MyBookingDetail;
  /** Back to the booking, nothing changed. */
  onClose(): void;
  onChanged(r: ChangeResult): void;
}

export function changeScreen(o: Options): ChangeScreen {
  const { t, money } = o.i18n;
  const b = o.booking;
  // the store's calendar, as the change is asked in it (the instants pickup_at/return_at are UTC: in a store far
  // from UTC their date and hour are another day's or hour's)
  const from = { date: b.pickup_date, time: b.pickup_time };
  const to = { date: b.return_date, time: b.return_time };
  const input = (name: string, type: string, value: string) => h('input', { name, type, value, required: true });
  const pd = input('pickup_date', 'date', from.date);
  const pt = input('pickup_time', 'time', from.time);
  const rd = input('return_date', 'date', to.date);
  const rt = input('return_time', 'time', to.time);
  const vehicle = h('select', { name: 'vehicle' }, h('option', { value: '' }, t('keepVehicle')));
  const result = h('div', { class: 'change-quote', 'aria-live': 'polite' });
  const alert = h('p', { class: 'alert', role: 'alert' });
  let quoted: { key: string; answer: ChangeResult } | null = null;
  let busy = false;
  let category: string | null = null;
  /** The booking's own vehicle (the first quote's, asked without another). */
  let own: number | null = null;

  const body = (): ChangeBody => {
    const v = Number(vehicle.value);
    return {
      pickup_date: pd.value,
      pickup_time: pt.value,
      return_date: rd.value,
      return_time: rt.value,
      ...(v ? { vehicle_id: v } : {}),
    };
  };
  const confirm = h(
    'button',
    { type: 'button', 'data-f': 'confirm-change', disabled: true, on: { click: () => void doChange() } },
    t('confirmChange'),
  );

  const fail = (err: unknown) => {
    alert.textContent = t('error', { message: err instanceof ApiError ? err.message : t('networkError') });
  };

  /** The vehicles of the booking's category free for the new dates (the search), once the category is known. */
  const offerVehicles = async (q: ChangeBody) => {
    if (!category) return;
    const page = await o.api.search(
      {
        location: null,
        returnLocation: null,
        pickupDate: q.pickup_date,
        returnDate: q.return_date,
        pickupTime: q.pickup_time ?? from.time,
        returnTime: q.return_time ?? to.time,
        sort: 'price_asc',
        category,
        transmission: '',
        fuel: '',
        seats: 0,
      },
      null,
      null,
      24,
    );
    const chosen = vehicle.value;
    vehicle.replaceChildren(
      h('option', { value: '' }, t('keepVehicle')),
      ...page.items
        .filter((v) => v.vehicle_id !== own)
        .map((v) => h('option', { value: v.vehicle_id, selected: String(v.vehicle_id) === chosen }, v.name)),
    );
  };

  const showQuote = (q: ChangeResult) => {
    const row = (label: string, value: string, cls?: string) =>
      h('tr', cls ? { class: cls } : {}, h('th', { scope: 'row' }, label), h('td', {}, value));
    const c = q.currency;
    result.replaceChildren(
      h(
        'table',
        { class: 'breakdown' },
        h(
          'tbody',
          {},
          q.vehicle_name ? row(t('vehicle'), q.vehicle_name) : null,
          row(t('previousTotal'), money(q.previous_total, c)),
          row(t('newTotal'), money(q.total, c)),
          q.fee > 0 ? row(t('changeFee'), money(q.fee, c)) : null,
          row(t('difference'), money(q.difference, c)),
          q.due > 0 ? row(t('toPay'), money(q.due, c), 'total') : null,
          q.refund > 0 ? row(t('refund'), money(q.refund, c), 'total') : null,
        ),
      ),
    );
  };

  const doQuote = async () => {
    if (busy) return;
    busy = true;
    alert.textContent = '';
    const q = body();
    try {
      const answer = await o.api.changeQuote(b.id, q);
      category = answer.vehicle_category;
      if (!q.vehicle_id) own = answer.booking.vehicle_id;
      quoted = { key: JSON.stringify(q), answer };
      showQuote(answer);
      confirm.disabled = false;
      await offerVehicles(q).catch(() => undefined);
    } catch (err) {
      quoted = null;
      result.replaceChildren();
      confirm.disabled = true;
      fail(err);
    } finally {
      busy = false;
    }
  };

  let attempt: { key: string; idem: string } | null = null;
  const doChange = async () => {
    const q = body();
    const key = JSON.stringify(q);
    if (busy || !quoted || quoted.key !== key) {
      // the inputs changed since the price was shown: show the new price first
      if (!busy) await doQuote();
      return;
    }
    busy = true;
    confirm.disabled = true;
    alert.textContent = '';
    // a retry of the same change (a lost answer) sends the same Idempotency-Key
    if (attempt?.key !== key) attempt = { key, idem: newAttemptKey() };
    try {
      o.onChanged(await o.api.changeBooking(b.id, q, attempt.idem));
    } catch (err) {
      confirm.disabled = false;
      fail(err);
    } finally {
      busy = false;
    }
  };

  // a changed input makes the shown price stale: confirming asks the price again first
  const stale = () => {
    if (quoted && quoted.key !== JSON.stringify(body())) confirm.disabled = true;
  };
  for (const el of [pd, pt, rd, rt, vehicle]) el.addEventListener('change', stale);

  const el = h(
    'form',
    {
      class: 'change-dates',
      'aria-label': t('changeTitle', { ref: b.reference }),
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          void doQuote();
        },
      },
    },
    heading(t('changeTitle', { ref: b.reference })),
    h('p', { class: 'note' }, t('changeIntro')),
    h(
      'div',
      { class: 'grid' },
      field(t('pickupDate'), pd),
      field(t('pickupTime'), pt),
      field(t('returnDate'), rd),
      field(t('returnTime'), rt),
      field(t('otherVehicle'), vehicle),
    ),
    result,
    alert,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'secondary', 'data-f': 'change-back', on: { click: o.onClose } }, t('back')),
      h('button', { type: 'submit', class: 'secondary', 'data-f': 'change-quote' }, t('showPrice')),
      confirm,
    ),
  );
  return { el };
}

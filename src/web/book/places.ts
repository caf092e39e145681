/**
 * Where the car is picked up and returned, as the booking journey, its confirmation and the account show it: name and
 * address, the opening hours on that day (when the store's calendar day is known) and a map link.
 */
import type { Location, Weekday } from './api.js';
import { h } from './dom.js';
import type { I18n } from './i18n/index.js';

const WEEKDAYS: Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The opening hours of a calendar day (YYYY-MM-DD): null when closed, undefined when open around the clock. */
export function hoursOn(l: Location, date: string): { open: string; close: string } | null | undefined {
  if (!l.opening_hours) return undefined;
  return l.opening_hours[WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!] ?? null;
}

/** A map of the place: its coordinates when known, else a search for its name and address. */
export function mapLink(l: Location): string {
  if (typeof l.latitude === 'number' && typeof l.longitude === 'number')
    return `https://www.openstreetmap.org/?mlat=${l.latitude}&mlon=${l.longitude}#map=16/${l.latitude}/${l.longitude}`;
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent([l.name, l.address, l.city].filter(Boolean).join(', '))}`;
}

function hoursText(i18n: I18n, l: Location, date: string): string {
  const { t, weekday } = i18n;
  const hours = hoursOn(l, date);
  if (hours === undefined) return t('openAllDay');
  return hours
    ? t('openHours', { day: weekday(date), from: hours.open, to: hours.close })
    : t('closedOn', { day: weekday(date) });
}

/** `dates` are the store's calendar days of pick-up and return; without them no hours line is shown. */
export function placesView(
  i18n: I18n,
  pick: Location,
  back: Location,
  dates?: { pickup: string; return: string },
): HTMLElement {
  const { t } = i18n;
  const place = (kind: 'pickup' | 'return', l: Location, date: string | undefined) =>
    h(
      'div',
      { class: 'place', 'data-f': `place-${kind}` },
      h('h4', {}, kind === 'pickup' ? t('pickupAt') : t('returnAt')),
      h('p', {}, [l.name, l.address, l.city].filter(Boolean).join(', ')),
      date ? h('p', { class: 'note', 'data-f': `hours-${kind}` }, hoursText(i18n, l, date)) : null,
      h('a', { href: mapLink(l), target: '_blank', rel: 'noopener noreferrer' }, t('onTheMap', { name: l.name })),
    );
  return h('div', { class: 'places' }, place('pickup', pick, dates?.pickup), place('return', back, dates?.return));
}

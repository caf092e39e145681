import { Decimal } from 'decimal.js';
import { detail, subject, type Notes } from './report.js';
import type { WpPost } from './source.js';
import { siteLocalIso, UTC_ZONE, type SiteZone } from './site.js';
import { decimalOrNull, gmtIso, intOrNull, phpMeta, stringList } from './values.js';

/** MHM Rentiva bookings (with their price lines and payments) and messages → Rova rows (pure). */

export const BOOKING_STATUSES = [
  'draft',
  'pending_payment',
  'pending',
  'confirmed',
  'in_progress',
  'completed',
  'cancelled',
  'no_show',
  'refunded',
] as const;

export interface AddonInfo {
  id: number;
  title: string;
  price: string;
  pricing: string;
}

export interface BookingLine {
  kind: 'rental' | 'addon';
  code: string | null;
  description: string;
  amount: string;
}
export interface BookingPayment {
  provider: 'offline' | 'stripe';
  amount: string;
  status: 'succeeded' | 'refunded';
  refunded: string;
}

export interface BookingRow {
  id: number;
  reference: string;
  vehicleId: number;
  customerEmail: string;
  customerName: string;
  customerPhone: string;
  wpUserId: number | null;
  kind: 'rental' | 'transfer';
  transferOriginId: number | null;
  transferDestinationId: number | null;
  pickupLocationId: number | null;
  pickupAt: string;
  returnAt: string;
  days: number;
  netPrice: string;
  addonsTotal: string;
  total: string;
  deposit: string;
  remaining: string;
  addons: { code: string; name: string; amount: number }[];
  paymentStatus: string;
  paymentMethod: string | null;
  paymentDeadline: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  plan: 'deposit' | 'full';
  lines: BookingLine[];
  payment: BookingPayment | null;
}

/** Latest instant JavaScript dates (and so Rova) hold: ±8.64e15 ms; PostgreSQL's timestamptz ends at year 294276. */
const MAX_UNIX_SECONDS = 8_640_000_000_000;

/**
 * The booking's start or end: the Unix timestamp the plugin stores (UTC), else its date and time fields, which the
 * plugin wrote on the site's clock (`timezone_string` / `gmt_offset`). A timestamp outside the date range is an error.
 */
function instant(
  m: Map<string, string>,
  tsKey: string,
  dateKeys: string[],
  timeKeys: string[],
  endOfDay: boolean,
  zone: SiteZone,
  at: { id: number; notes: Notes },
): string | null {
  const ts = intOrNull(m.get(tsKey), { id: at.id, key: tsKey }, at.notes);
  if (ts !== null && ts > 0) {
    if (ts > MAX_UNIX_SECONDS)
      throw new BadValue(tsKey, `timestamp ${String(ts).slice(0, 20)} is beyond the range of dates`);
    return new Date(ts * 1000).toISOString();
  }
  const date = dateKeys.map((k) => m.get(k)).find((v) => v && /^\d{4}-\d\d-\d\d$/.test(v.trim()));
  if (!date) return null;
  const time =
    timeKeys.map((k) => m.get(k)).find((v) => v && /^\d\d:\d\d(:\d\d)?$/.test(v.trim())) ??
    (endOfDay ? '23:59:59' : '00:00');
  return siteLocalIso(date, time, zone);
}

/** A value that makes the record unimportable (the record is skipped with this reason; the rest goes on). */
export class BadValue extends Error {
  constructor(
    readonly key: string,
    readonly why: string,
  ) {
    super(`${key}: ${why}`);
  }
}

export interface BookingSite {
  zone: SiteZone;
  /** Plugin versions before 4.36 charged every add-on per day (they store only addon_price). */
  addonsAlwaysPerDay: boolean;
}

const money = (v: string | null | undefined) => new Decimal(v ?? '0');

export function mapBookings(
  posts: WpPost[],
  addons: Map<number, AddonInfo>,
  notes: Notes,
  site: BookingSite = { zone: UTC_ZONE, addonsAlwaysPerDay: false },
): BookingRow[] {
  const out: BookingRow[] = [];
  const refs = new Set<string>();
  for (const p of posts) {
    const m = p.meta;
    const at = subject('booking', p.id);
    const int = (key: string) => intOrNull(m.get(key), { id: p.id, key }, notes);
    if (p.status === 'trash' || p.status === 'auto-draft') {
      notes.skip(p.id, 'not_live', p.status === 'trash' ? 'in the WordPress trash' : 'auto-draft (never saved)');
      continue;
    }
    const vehicleId = int('_mhm_vehicle_id');
    if (!vehicleId) {
      notes.skip(p.id, 'missing', 'no vehicle (_mhm_vehicle_id)');
      continue;
    }
    let pickupAt: string | null;
    let returnAt: string | null;
    try {
      pickupAt = instant(
        m,
        '_mhm_start_ts',
        ['_mhm_pickup_date'],
        ['_mhm_pickup_time', '_mhm_start_time'],
        false,
        site.zone,
        { id: p.id, notes },
      );
      returnAt = instant(
        m,
        '_mhm_end_ts',
        ['_mhm_dropoff_date', '_mhm_return_date', '_mhm_end_date'],
        ['_mhm_dropoff_time', '_mhm_end_time'],
        true,
        site.zone,
        { id: p.id, notes },
      );
    } catch (err) {
      if (!(err instanceof BadValue)) throw err;
      notes.skip(p.id, 'out_of_range', err.message);
      continue;
    }
    if (!pickupAt || !returnAt || returnAt <= pickupAt) {
      notes.skip(p.id, 'missing', 'pickup and return dates missing or not in order');
      continue;
    }
    const rawStatus = (m.get('_mhm_status') ?? '').trim();
    const status = (BOOKING_STATUSES as readonly string[]).includes(rawStatus) ? rawStatus : 'pending';
    if (status !== rawStatus)
      notes.warn(
        { ...at, key: '_mhm_status' },
        rawStatus ? 'unknown' : 'missing',
        `status "${rawStatus}" ${rawStatus ? 'is not known' : 'is missing'}; read as pending, as the original does`,
      );
    const total = money(decimalOrNull(m.get('_mhm_total_price'), detail(at, 'total', '_mhm_total_price'), notes));
    const days = Math.max(
      1,
      int('_mhm_rental_days') ?? Math.ceil((Date.parse(returnAt) - Date.parse(pickupAt)) / 86_400_000),
    );
    const addonRows: BookingRow['addons'] = [];
    const lines: BookingLine[] = [];
    for (const idText of stringList(
      phpMeta(m.get('_mhm_selected_addons'), { id: p.id, key: '_mhm_selected_addons' }, notes),
    )) {
      const a = addons.get(Number(idText));
      if (!a) {
        notes.warn(at, 'unlinked', `add-on ${idText} not found, left out of the price lines`);
        continue;
      }
      const perDay = site.addonsAlwaysPerDay || a.pricing === 'per_day';
      if (!site.addonsAlwaysPerDay && a.pricing === 'per_passenger')
        notes.warn(
          at,
          'unsupported',
          `add-on ${a.id} is priced per passenger; the passenger count is not stored, priced once`,
        );
      const amount = money(a.price).mul(perDay ? days : 1);
      addonRows.push({ code: `wp-addon-${a.id}`, name: a.title, amount: amount.toNumber() });
      lines.push({ kind: 'addon', code: `wp-addon-${a.id}`, description: a.title, amount: amount.toFixed(2) });
    }
    const addonsTotal = addonRows.reduce((s, a) => s.plus(a.amount), new Decimal(0));
    const net = total.minus(addonsTotal);
    lines.unshift({
      kind: 'rental',
      code: null,
      description: `Rental, ${days} day${days === 1 ? '' : 's'}`,
      amount: net.toFixed(2),
    });
    const plan = m.get('_mhm_payment_type') === 'deposit' ? 'deposit' : 'full';
    const deposit = money(
      decimalOrNull(m.get('_mhm_deposit_amount'), detail(at, 'deposit', '_mhm_deposit_amount'), notes),
    );
    const remaining = money(
      decimalOrNull(m.get('_mhm_remaining_amount'), detail(at, 'remaining', '_mhm_remaining_amount'), notes),
    );
    const method = (m.get('_mhm_payment_gateway') || m.get('_mhm_payment_method') || '').trim() || null;
    const provider = method === 'stripe' ? 'stripe' : 'offline';
    const ps = m.get('_mhm_payment_status') ?? 'pending';
    let paymentStatus = 'unpaid';
    let payment: BookingPayment | null = null;
    const paidAmount = plan === 'deposit' && remaining.gt(0) ? deposit : total;
    if (ps === 'paid') {
      paymentStatus = plan === 'deposit' && remaining.gt(0) ? 'deposit_paid' : 'paid';
      payment = { provider, amount: paidAmount.toFixed(2), status: 'succeeded', refunded: '0.00' };
    } else if (ps === 'refunded') {
      paymentStatus = 'refunded';
      payment = { provider, amount: paidAmount.toFixed(2), status: 'refunded', refunded: paidAmount.toFixed(2) };
    } else if (ps === 'partially_refunded') {
      paymentStatus = 'partially_refunded';
      const refunded = decimalOrNull(
        m.get('_mhm_refunded_amount'),
        detail(at, 'refunded amount', '_mhm_refunded_amount'),
        notes,
      );
      if (refunded === null)
        notes.warn(at, 'missing', 'partially refunded, but the refunded amount is not recorded; imported as 0');
      payment = { provider, amount: paidAmount.toFixed(2), status: 'succeeded', refunded: money(refunded).toFixed(2) };
    } else if (ps === 'failed') paymentStatus = 'failed';
    else if (ps !== 'pending' && ps !== 'cancelled')
      notes.warn(at, 'unknown', `payment status "${ps}" is not known, imported as unpaid`);
    const order = m.has('_mhm_wc_order_id') ? int('_mhm_wc_order_id') : int('_mhm_woocommerce_order_id');
    // the original's display id: the WooCommerce order id when linked, else the post id
    let reference = String(order && order > 0 ? order : p.id);
    if (refs.has(reference)) reference = `${reference}-${p.id}`;
    refs.add(reference);
    const origin = int('_mhm_transfer_origin_id');
    const name =
      m.get('_mhm_customer_name') ||
      [m.get('_mhm_customer_first_name'), m.get('_mhm_customer_last_name')].filter(Boolean).join(' ') ||
      m.get('_mhm_contact_name') ||
      '';
    const deadline = m.get('_mhm_payment_deadline');
    const created = gmtIso(p.dateGmt) ?? new Date(0).toISOString();
    out.push({
      id: p.id,
      reference,
      vehicleId,
      customerEmail: (m.get('_mhm_customer_email') ?? m.get('_mhm_contact_email') ?? '').trim().toLowerCase(),
      customerName: name,
      customerPhone: m.get('_mhm_customer_phone') ?? m.get('_mhm_contact_phone') ?? '',
      wpUserId: int('_mhm_customer_user_id') || null,
      kind: origin ? 'transfer' : 'rental',
      transferOriginId: origin || null,
      transferDestinationId: int('_mhm_transfer_destination_id') || null,
      pickupLocationId: int('_mhm_pickup_location_id') || null,
      pickupAt,
      returnAt,
      days,
      netPrice: net.toFixed(2),
      addonsTotal: addonsTotal.toFixed(2),
      total: total.toFixed(2),
      deposit: deposit.toFixed(2),
      remaining: remaining.toFixed(2),
      addons: addonRows,
      paymentStatus,
      paymentMethod: method,
      paymentDeadline: deadline ? gmtIso(deadline) : null,
      status,
      createdAt: created,
      updatedAt: gmtIso(p.modifiedGmt) ?? created,
      plan,
      lines,
      payment,
    });
  }
  return out;
}

export interface MessageRow {
  id: number;
  threadId: number;
  parentId: number | null;
  sender: 'customer' | 'admin';
  authorWpId: number | null;
  customerEmail: string;
  customerName: string;
  subject: string;
  body: string;
  status: 'pending' | 'replied' | 'closed' | null;
  priority: string | null;
  category: string | null;
  bookingId: number | null;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
}

const CATEGORIES = ['general', 'booking', 'payment', 'technical', 'complaint', 'other'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];

/** Thread starters first (a reply needs its thread), then replies in id order. */
export function mapMessages(posts: WpPost[], notes: Notes): MessageRow[] {
  const live = posts.filter((p) => {
    if (p.status === 'trash') notes.skip(p.id, 'not_live', 'in the WordPress trash');
    return p.status !== 'trash' && p.status !== 'auto-draft';
  });
  const ids = new Set(live.map((p) => p.id));
  const rows: MessageRow[] = [];
  for (const p of live) {
    const m = p.meta;
    const int = (key: string) => intOrNull(m.get(key), { id: p.id, key }, notes);
    const parent = int('_mhm_parent_message_id') || null;
    const thread = int('_mhm_thread_id') || (parent ?? p.id);
    if (parent !== null && (!ids.has(parent) || !ids.has(thread))) {
      notes.skip(p.id, 'unlinked', `its thread (${thread}) or parent message (${parent}) is not imported`);
      continue;
    }
    const starter = parent === null;
    const rawStatus = m.get('_mhm_message_status') ?? 'pending';
    const status = rawStatus === 'answered' ? 'replied' : rawStatus === 'closed' ? 'closed' : 'pending';
    if (starter && !['pending', 'answered', 'closed', 'urgent'].includes(rawStatus))
      notes.warn(subject('message', p.id), 'unknown', `status "${rawStatus}" imported as pending`);
    const rawPriority = rawStatus === 'urgent' ? 'urgent' : (m.get('_mhm_message_priority') ?? 'normal');
    const rawCategory = m.get('_mhm_message_category') ?? 'general';
    const category = CATEGORIES.includes(rawCategory) ? rawCategory : 'other';
    if (starter && category !== rawCategory)
      notes.warn(subject('message', p.id), 'unknown', `category "${rawCategory}" imported as other`);
    rows.push({
      id: p.id,
      threadId: starter ? p.id : thread,
      parentId: parent,
      sender: m.get('_mhm_message_type') === 'admin_to_customer' ? 'admin' : 'customer',
      authorWpId: p.author || null,
      customerEmail: (m.get('_mhm_customer_email') ?? '').trim().toLowerCase(),
      customerName: m.get('_mhm_customer_name') ?? '',
      subject: p.title,
      body: p.content,
      status: starter ? status : null,
      priority: starter ? (PRIORITIES.includes(rawPriority) ? rawPriority : 'normal') : null,
      category: starter ? category : null,
      bookingId: starter ? int('_mhm_booking_id') || null : null,
      isRead: m.get('_mhm_is_read') === '1',
      readAt: m.get('_mhm_read_at') ? gmtIso(m.get('_mhm_read_at')!) : null,
      createdAt: gmtIso(p.dateGmt) ?? new Date(0).toISOString(),
    });
  }
  return rows.sort((a, b) => Number(a.parentId !== null) - Number(b.parentId !== null) || a.id - b.id);
}

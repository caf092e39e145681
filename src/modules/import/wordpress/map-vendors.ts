import { createDecipheriv, createHash } from 'node:crypto';
import { parseIban } from '../../rental/index.js';
import {
  EXTERNAL,
  PLATFORM_COMMISSION,
  PLATFORM_PENALTIES,
  vendorAccount,
  type LedgerKind,
} from '../../rental/index.js';
import { toMinor } from '../../rental/index.js';
import { detail, subject, type Notes } from './report.js';
import { siteMysqlIso, UTC_ZONE, type SiteZone } from './site.js';
import type { SqlRow, WpUser } from './source.js';
import { decimalOrNull, gmtIso, intOrNull, phpMeta, shown, stringList } from './values.js';

/** Rental-plugin vendors, their single-entry ledger and their reports → Rova rows (pure). */

export interface VendorRow {
  wpUserId: number;
  status: 'active' | 'suspended';
  commissionRate: string | null;
  payoutFreeze: boolean;
  approvedAt: string | null;
  phone: string;
  city: string;
  /** The plain IBAN (sealed with ROVA_SECRET before it is written; never logged). */
  iban: string | null;
  accountHolder: string;
  taxOffice: string;
  taxNumber: string;
  bio: string;
  serviceAreas: string[];
  reliabilityScore: number;
}

/** Opens an IBAN the plugin sealed: base64(IV ‖ AES-256-CBC), key SHA-256(AUTH_KEY . SECURE_AUTH_SALT). Null when it does not open. */
export function openWpIban(stored: string, keys: { authKey: string; secureAuthSalt: string }): string | null {
  try {
    const raw = Buffer.from(stored, 'base64');
    if (raw.length < 32) return null;
    const key = createHash('sha256')
      .update(keys.authKey + keys.secureAuthSalt)
      .digest();
    const d = createDecipheriv('aes-256-cbc', key, raw.subarray(0, 16));
    return Buffer.concat([d.update(raw.subarray(16)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** `zone`: the site's; the plugin writes approval times with current_time('mysql'), on the site's clock. */
export function mapVendors(
  users: WpUser[],
  prefix: string,
  keys: { authKey: string; secureAuthSalt: string } | null,
  notes: Notes,
  zone: SiteZone = UTC_ZONE,
): VendorRow[] {
  const out: VendorRow[] = [];
  for (const u of users) {
    const m = u.meta;
    const statusMeta = m.get('_rentiva_vendor_status');
    const caps = m.get(`${prefix}capabilities`) ?? '';
    if (statusMeta !== 'active' && statusMeta !== 'suspended' && !caps.includes('"rentiva_vendor"')) continue;
    const at = subject('vendor', u.id);
    let iban: string | null = null;
    const sealed = m.get('_rentiva_vendor_iban') ?? '';
    if (sealed) {
      if (!keys)
        notes.warn(
          { ...at, key: '_rentiva_vendor_iban' },
          'missing',
          'IBAN not carried over (set WP_AUTH_KEY and WP_SECURE_AUTH_SALT from wp-config.php to open it)',
        );
      else {
        const plain = openWpIban(sealed, keys);
        iban = plain === null ? null : parseIban(plain);
        if (iban === null)
          notes.warn(
            { ...at, key: '_rentiva_vendor_iban' },
            'unreadable',
            'IBAN does not open with the given WordPress keys or is not a valid IBAN; not carried over',
          );
      }
    }
    phpMeta(m.get('_rentiva_vendor_score_history'), { id: u.id, key: '_rentiva_vendor_score_history' }, notes);
    const score = intOrNull(
      m.get('_rentiva_vendor_reliability_score'),
      { id: u.id, key: '_rentiva_vendor_reliability_score' },
      notes,
    );
    out.push({
      wpUserId: u.id,
      status: statusMeta === 'suspended' ? 'suspended' : 'active',
      commissionRate: decimalOrNull(
        m.get('_mhm_vendor_commission_rate'),
        detail(at, 'commission rate', '_mhm_vendor_commission_rate'),
        notes,
      ),
      payoutFreeze: m.get('_mhm_vendor_payout_freeze') === '1' || m.get('_mhm_vendor_payout_freeze') === 'yes',
      approvedAt: siteMysqlIso(m.get('_rentiva_vendor_approved_at'), zone),
      phone: m.get('_rentiva_vendor_phone') ?? '',
      city: m.get('_rentiva_vendor_city') ?? '',
      iban,
      accountHolder: m.get('_rentiva_vendor_account_holder') ?? '',
      taxOffice: m.get('_rentiva_vendor_tax_office') ?? '',
      taxNumber: m.get('_rentiva_vendor_tax_number') ?? '',
      bio: m.get('_rentiva_vendor_bio') ?? '',
      serviceAreas: stringList(
        phpMeta(m.get('_rentiva_vendor_service_areas'), { id: u.id, key: '_rentiva_vendor_service_areas' }, notes),
      ),
      reliabilityScore: score === null ? 100 : Math.min(100, Math.max(0, score)),
    });
  }
  return out;
}

export interface PlannedTx {
  key: string;
  kind: LedgerKind;
  wpVendorId: number;
  reference: string | null;
  currency: string;
  at: string;
  /** Vendor account codes use the placeholder vendor id 0, replaced by the Rova id when written. */
  lines: { account: string; amount: number }[];
  memo: Record<string, unknown>;
  /**
   * What a clearing or a refund settles (links.ts): a clearing, the credit planned under that key; a refund, the
   * credit of the same vendor and booking still pending (`live` false) or cleared (`live` true), found when written.
   */
  settles?: { creditKey: string } | { refundOf: { booking: number | null; net: number; live: boolean } };
  /** A credit WordPress still holds as pending: its hold period in Rova starts at the import, not at the booking. */
  holdFromImport?: boolean;
}

const V = (bucket: 'pending' | 'available' | 'payout_hold') => vendorAccount(0, bucket);

/**
 * One single-entry row of `mhm_rentiva_ledger` → balanced Rova transactions with the same effect on the vendor's
 * balances as the original computes them (available = cleared + reserved rows; pending = pending commission rows).
 */
export function planLedgerRow(r: SqlRow, notes: Notes): PlannedTx[] {
  const id = String(r.transaction_uuid ?? r.id);
  const type = String(r.type);
  const status = String(r.status);
  const currency = String(r.currency || 'TRY').toUpperCase();
  const at = gmtIso(String(r.created_at ?? '')) ?? new Date(0).toISOString();
  const vendor = Number(r.vendor_id);
  const booking = intOrNull(String(r.booking_id ?? ''), { id, key: 'booking_id' }, notes);
  let amount: number;
  try {
    amount = toMinor(String(r.amount), currency);
  } catch {
    notes.skip(id, 'unreadable', `amount "${String(r.amount).slice(0, 40)}" is not a number`);
    return [];
  }
  const abs = Math.abs(amount);
  // the split of the amount only explains it: one that does not read is reported and the row goes in as net only
  const part = (key: 'gross_amount' | 'commission_amount'): number | null => {
    const v = r[key];
    if (v === null || v === undefined) return null;
    try {
      return Math.abs(toMinor(String(v), currency));
    } catch {
      notes.value(id, key, 'unreadable', `"${shown(String(v))}" is not an amount; left out`);
      return null;
    }
  };
  const gross = part('gross_amount');
  const commission = part('commission_amount');
  const memo = {
    wp_ledger_id: Number(r.id),
    wp_uuid: id,
    wp_type: type,
    wp_status: status,
    booking_id: booking,
    rate: r.commission_rate ?? null,
  };
  const base = { wpVendorId: vendor, currency, at, reference: booking ? `booking:${booking}` : null };
  const key = `wordpress:ledger:${id}`;
  if (status === 'void') {
    notes.skip(id, 'not_live', 'void row (counts in no balance of the original)');
    return [];
  }
  if (!['pending', 'cleared', 'reserved'].includes(status)) {
    notes.skip(id, 'unknown', `status "${status}" is not known`);
    return [];
  }
  const live = status === 'cleared' || status === 'reserved';
  if (amount === 0) {
    notes.skip(id, 'missing', 'zero amount');
    return [];
  }
  switch (type) {
    case 'commission_credit': {
      if (amount < 0) break;
      const g = gross !== null && commission !== null && gross - commission === amount ? gross : amount;
      const c = g - amount;
      const out: PlannedTx[] = [
        {
          ...base,
          key,
          kind: 'commission',
          memo: { ...memo, gross: g, commission: c, net: amount },
          holdFromImport: !live,
          lines: [
            { account: EXTERNAL, amount: -g },
            { account: V('pending'), amount },
            ...(c ? [{ account: PLATFORM_COMMISSION, amount: c }] : []),
          ],
        },
      ];
      if (gross !== null && g !== gross)
        notes.warn(
          subject('ledger', id),
          'balance',
          `gross ${String(r.gross_amount)} − commission ${String(r.commission_amount)} ≠ amount ${String(r.amount)}; imported as net only`,
        );
      if (live)
        out.push({
          ...base,
          key: `${key}:clearing`,
          kind: 'commission_clearing',
          memo: { wp_uuid: id, net: amount },
          settles: { creditKey: key },
          lines: [
            { account: V('pending'), amount: -amount },
            { account: V('available'), amount },
          ],
        });
      return out;
    }
    case 'commission_refund': {
      if (amount > 0) break;
      const from = live ? V('available') : V('pending');
      const c = commission ?? 0;
      return [
        {
          ...base,
          key,
          kind: 'commission_refund',
          memo: { ...memo, from: live ? 'available' : 'pending' },
          settles: { refundOf: { booking, net: abs, live } },
          lines: [
            { account: from, amount: -abs },
            ...(c ? [{ account: PLATFORM_COMMISSION, amount: -c }] : []),
            { account: EXTERNAL, amount: abs + c },
          ],
        },
      ];
    }
    case 'payout_debit': {
      if (amount > 0) break;
      if (!live) {
        notes.skip(id, 'not_live', 'pending payout row (counts in no balance of the original)');
        return [];
      }
      const out: PlannedTx[] = [
        {
          ...base,
          key: `${key}:hold`,
          kind: 'payout_hold',
          reference: `wp_payout:${id}`,
          memo,
          lines: [
            { account: V('available'), amount: -abs },
            { account: V('payout_hold'), amount: abs },
          ],
        },
      ];
      // cleared = paid out; reserved = still held
      if (status === 'cleared')
        out.push({
          ...base,
          key: `${key}:paid`,
          kind: 'payout_paid',
          reference: `wp_payout:${id}`,
          memo,
          lines: [
            { account: V('payout_hold'), amount: -abs },
            { account: EXTERNAL, amount: abs },
          ],
        });
      return out;
    }
    case 'payout_reversal':
      if (amount < 0 || !live) break;
      return [
        {
          ...base,
          key,
          kind: 'payout_reversal',
          memo: { ...memo, after_paid: true },
          lines: [
            { account: EXTERNAL, amount: -abs },
            { account: V('available'), amount: abs },
          ],
        },
      ];
    case 'withdrawal_penalty':
      if (amount > 0 || !live) break;
      return [
        {
          ...base,
          key,
          kind: 'penalty',
          memo,
          lines: [
            { account: V('available'), amount: -abs },
            { account: PLATFORM_PENALTIES, amount: abs },
          ],
        },
      ];
    case 'withdrawal_penalty_reversal':
      if (amount < 0 || !live) break;
      return [
        {
          ...base,
          key,
          kind: 'penalty_reversal',
          memo,
          lines: [
            { account: PLATFORM_PENALTIES, amount: -abs },
            { account: V('available'), amount: abs },
          ],
        },
      ];
    default:
      notes.skip(id, 'unknown', `ledger type "${type}" is not known`);
      return [];
  }
  notes.skip(
    id,
    'unknown',
    `${status} ${type} with amount ${String(r.amount)} does not fit the original's rules (sign or status)`,
  );
  return [];
}

/** The original's balances of one vendor, in minor units per currency. */
export function originalBalances(rowsOfVendor: SqlRow[]): Map<string, { available: number; pending: number }> {
  const by = new Map<string, { available: number; pending: number }>();
  for (const r of rowsOfVendor) {
    const cur = String(r.currency || 'TRY').toUpperCase();
    const b = by.get(cur) ?? { available: 0, pending: 0 };
    let a: number;
    try {
      a = toMinor(String(r.amount), cur);
    } catch {
      continue;
    }
    const s = String(r.status);
    if (s === 'cleared' || s === 'reserved') b.available += a;
    else if (s === 'pending' && String(r.type).startsWith('commission_')) b.pending += a;
    by.set(cur, b);
  }
  return by;
}

export interface ReportRow {
  id: number;
  wpVendorId: number;
  contextType: string;
  contextId: string | null;
  title: string;
  description: string;
  status: string;
  adminNote: string | null;
  adminWpId: number | null;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
}

export function mapVendorReports(list: SqlRow[], notes: Notes): ReportRow[] {
  const out: ReportRow[] = [];
  for (const r of list) {
    const id = Number(r.id);
    const ctx = String(r.context_type);
    if (!['booking', 'vehicle', 'vehicle_action', 'penalty', 'general'].includes(ctx)) {
      notes.skip(id, 'unknown', `context type "${ctx}" is not known`);
      continue;
    }
    const status = String(r.status);
    if (!['open', 'in_review', 'resolved', 'rejected'].includes(status)) {
      notes.skip(id, 'unknown', `status "${status}" is not known`);
      continue;
    }
    const created = gmtIso(String(r.created_at ?? '')) ?? new Date(0).toISOString();
    out.push({
      id,
      wpVendorId: Number(r.vendor_id),
      contextType: ctx,
      contextId: ctx === 'general' ? null : r.context_id === null ? null : String(r.context_id),
      title: String(r.title ?? ''),
      description: String(r.description ?? ''),
      status,
      adminNote: r.admin_note === null ? null : String(r.admin_note),
      adminWpId: intOrNull(String(r.admin_user_id ?? ''), { id, key: 'admin_user_id' }, notes) || null,
      createdAt: created,
      updatedAt: gmtIso(String(r.updated_at ?? '')) ?? created,
      resolvedAt: r.resolved_at ? gmtIso(String(r.resolved_at)) : null,
    });
  }
  return out;
}

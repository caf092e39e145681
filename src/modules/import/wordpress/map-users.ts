import { isWordPressHash } from '../../../platform/auth/wordpress-hash.js';
import { subject, type Notes, type Subject } from './report.js';
import type { WpPost, WpUser } from './source.js';
import { gmtIso, isRecord, phpMeta } from './values.js';
import { sanitizeUser } from './wp-text.js';

/** WordPress users → Rova users, and the rental plugin's (derived) customers → Rova customers (pure). */

export type RovaRole = 'administrator' | 'shop_manager' | 'vendor' | 'customer';

export interface UserRow {
  wpId: number;
  login: string;
  email: string;
  displayName: string;
  role: RovaRole;
  /** The WordPress roles (the rental plugin's customer test reads them). */
  wpRoles: string[];
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  createdAt: string;
}

const QUIET_ROLES = new Set(['customer', 'subscriber']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The WordPress roles of a user (`{prefix}capabilities`: a serialized role → true map). */
export function wpRoles(u: WpUser, prefix: string, notes: Notes): string[] {
  const caps = phpMeta(u.meta.get(`${prefix}capabilities`), { id: u.id, key: `${prefix}capabilities` }, notes);
  return isRecord(caps)
    ? Object.entries(caps)
        .filter(([, v]) => v === true || v === 1 || v === '1')
        .map(([k]) => k)
    : [];
}

export function roleOf(roles: string[], vendorStatus: string | undefined, notes: Notes, at: Subject): RovaRole {
  if (roles.includes('administrator')) return 'administrator';
  if (roles.includes('shop_manager')) return 'shop_manager';
  // the status meta is the vendor's durable marker: a suspension takes the role away and keeps the meta
  if (roles.includes('rentiva_vendor') || vendorStatus === 'active' || vendorStatus === 'suspended') return 'vendor';
  const other = roles.filter((r) => !QUIET_ROLES.has(r));
  if (other.length)
    notes.warn(at, 'unsupported', `role ${other.join(', ')} has no Rova equivalent, imported as customer`);
  return 'customer';
}

export function mapUsers(users: WpUser[], prefix: string, notes: Notes): UserRow[] {
  const out: UserRow[] = [];
  const emails = new Map<string, number>();
  for (const u of users) {
    const at = subject('user', u.id, u.login);
    const email = u.email.trim().toLowerCase();
    if (!EMAIL.test(email)) {
      notes.skip(
        u.id,
        'missing',
        `no valid e-mail address ("${u.email}"); Rova needs one to sign in and to reset a password`,
      );
      continue;
    }
    const earlier = emails.get(email);
    if (earlier !== undefined) {
      notes.skip(u.id, 'duplicate', `its e-mail address already belongs to user ${earlier}`);
      continue;
    }
    // WordPress stores logins through sanitize_user; one written around it (accents, tags) is read as WordPress would have stored it
    const login = sanitizeUser(u.login);
    if (login === '') {
      notes.skip(u.id, 'missing', 'the login has no letter WordPress keeps (sanitize_user leaves it empty)');
      continue;
    }
    if (login !== u.login)
      notes.value(u.id, 'user_login', 'cleaned', `sanitised the way WordPress does: imported as "${login}"`);
    emails.set(email, u.id);
    const roles = wpRoles(u, prefix, notes);
    const role = roleOf(roles, u.meta.get('_rentiva_vendor_status'), notes, at);
    let passwordHash: string | null = u.pass || null;
    if (passwordHash !== null && !isWordPressHash(passwordHash)) {
      notes.warn(
        { ...at, key: 'user_pass' },
        'unreadable',
        'password hash format not recognised; the user must reset the password',
      );
      passwordHash = null;
    }
    out.push({
      wpId: u.id,
      login,
      email,
      displayName: u.displayName.trim() || u.login,
      role,
      wpRoles: roles,
      passwordHash,
      firstName: u.meta.get('first_name') ?? '',
      lastName: u.meta.get('last_name') ?? '',
      phone: u.meta.get('mhm_rentiva_phone') ?? u.meta.get('mhmrentiva_phone') ?? u.meta.get('billing_phone') ?? '',
      createdAt: gmtIso(u.registered) ?? new Date(0).toISOString(),
    });
  }
  return out;
}

export interface CustomerRow {
  /** Map key: `user:<WordPress user id>` or `email:<lower-case e-mail>` for a guest who booked without an account. */
  key: string;
  /** The WordPress record it comes from, as notes name it: `user:<id>`, or `booking:<id>` for a guest (never the e-mail). */
  wpRef: string;
  wpUserId: number | null;
  name: string;
  email: string;
  phone: string;
  address: string;
  createdAt: string;
}

/**
 * The original derives customers (reference §2.5): users with the customer role, users its bookings point at (by id or
 * e-mail), users with its phone/address meta; never user 1 or login "admin". Guests who booked become customers too.
 */
export function mapCustomers(users: UserRow[], wpUsers: WpUser[], bookings: WpPost[], notes: Notes): CustomerRow[] {
  const byId = new Map(wpUsers.map((u) => [u.id, u]));
  const rowByEmail = new Map(users.map((u) => [u.email, u]));
  const booked = new Set<string>();
  const bookedIds = new Set<number>();
  for (const b of bookings) {
    if (b.status === 'trash') continue;
    const e = (b.meta.get('_mhm_customer_email') ?? b.meta.get('_mhm_contact_email') ?? '').trim().toLowerCase();
    if (e) booked.add(e);
    const id = Number(b.meta.get('_mhm_customer_user_id') ?? 0);
    if (id > 0) bookedIds.add(id);
  }
  const out: CustomerRow[] = [];
  for (const u of users) {
    const wp = byId.get(u.wpId);
    if (u.wpId === 1 || u.login === 'admin' || !wp) continue;
    const phone = wp.meta.get('mhm_rentiva_phone') ?? wp.meta.get('mhmrentiva_phone') ?? '';
    const address = wp.meta.get('mhm_rentiva_address') ?? wp.meta.get('mhmrentiva_address') ?? '';
    if (!(u.wpRoles.includes('customer') || booked.has(u.email) || bookedIds.has(u.wpId) || phone || address)) continue;
    out.push({
      key: `user:${u.wpId}`,
      wpRef: `user:${u.wpId}`,
      wpUserId: u.wpId,
      name: u.displayName,
      email: u.email,
      phone,
      address,
      createdAt: u.createdAt,
    });
  }
  const seen = new Set(out.map((c) => c.email));
  for (const b of bookings) {
    if (b.status === 'trash') continue;
    const email = (b.meta.get('_mhm_customer_email') ?? b.meta.get('_mhm_contact_email') ?? '').trim().toLowerCase();
    if (!email || seen.has(email)) continue;
    if (!EMAIL.test(email)) {
      notes.warn(
        { ...subject('booking', b.id), key: '_mhm_customer_email' },
        'unreadable',
        'the customer e-mail is not an address; no customer record made',
      );
      continue;
    }
    seen.add(email);
    const known = rowByEmail.get(email);
    if (known && (known.wpId === 1 || known.login === 'admin')) continue; // never a customer, whatever it booked
    const name =
      b.meta.get('_mhm_customer_name') ||
      [b.meta.get('_mhm_customer_first_name'), b.meta.get('_mhm_customer_last_name')].filter(Boolean).join(' ') ||
      b.meta.get('_mhm_contact_name') ||
      email;
    out.push({
      key: known ? `user:${known.wpId}` : `email:${email}`,
      wpRef: known ? `user:${known.wpId}` : `booking:${b.id}`,
      wpUserId: known?.wpId ?? null,
      name,
      email,
      phone: b.meta.get('_mhm_customer_phone') ?? b.meta.get('_mhm_contact_phone') ?? '',
      address: '',
      createdAt: gmtIso(b.dateGmt) ?? new Date(0).toISOString(),
    });
  }
  return out;
}

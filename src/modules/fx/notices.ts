import { HttpErrors } from '../../platform/http/errors.js';
import { FxErrors } from './errors.js';
import type { Platform } from '../../platform/context.js';
import { dropSnoozes, loadCurrencies, saveSnooze, snoozesOf, type NoticeKind } from './repo.js';
import { staleRates } from './staleness.js';

export const NOTICE_KINDS: readonly NoticeKind[] = ['anomaly', 'fragments'];
const optionName = (kind: NoticeKind) => `rova_fx_notice_${kind}`;

/** The signature of a page: its path without query string or fragment. */
export function signatureOf(path: string): string {
  return (path.split(/[?#]/)[0] ?? '').trim().slice(0, 500);
}

export async function currentSignature(p: Platform, kind: NoticeKind): Promise<string> {
  return (await p.options.get<string>(optionName(kind))) ?? '';
}

export async function listNotices(p: Platform, userId: number) {
  const snoozed = await snoozesOf(p.db, userId);
  const notices: { kind: string; signature: string; snoozed: boolean; message?: string }[] = [];
  for (const kind of NOTICE_KINDS) {
    const signature = await currentSignature(p, kind);
    if (signature) notices.push({ kind, signature, snoozed: snoozed.get(kind) === signature });
  }
  const stale = staleRates(await loadCurrencies(p.db));
  if (stale.length) {
    const list = stale.map((s) => `${s.code} (${s.rate_date ?? 'never fetched'})`).join(', ');
    notices.push({
      kind: 'stale_rates',
      signature: stale.map((s) => `${s.code}@${s.rate_date ?? ''}`).join(','),
      snoozed: false,
      message: `Exchange rates are stale: ${list}. Run a sync (POST /rova-fx/v1/rates/sync or \`rova rates sync\`).`,
    });
  }
  return { notices };
}

/** Records what a storefront saw; an empty path clears the anomaly and drops every snooze of its kind. */
export async function reportNotice(p: Platform, body: unknown) {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.kind !== 'string' || !(NOTICE_KINDS as readonly string[]).includes(b.kind)) {
    throw HttpErrors.badRequest('Invalid parameter(s): kind', {
      params: { kind: `kind must be one of ${NOTICE_KINDS.join(', ')}.` },
    });
  }
  if (typeof b.path !== 'string')
    throw HttpErrors.badRequest('Invalid parameter(s): path', {
      params: { path: 'path must be a string ("" clears).' },
    });
  const kind = b.kind as NoticeKind;
  const signature = signatureOf(b.path);
  const before = await currentSignature(p, kind);
  if (signature !== before) {
    await p.options.set(optionName(kind), signature);
    if (signature === '' && before !== '') await dropSnoozes(p.db, kind);
  }
  return { success: true as const, kind, signature };
}

export async function snoozeNotice(p: Platform, userId: number, kind: NoticeKind) {
  const signature = await currentSignature(p, kind);
  if (!signature) throw FxErrors.nothingToSnooze('There is nothing to snooze right now.');
  await saveSnooze(p.db, userId, kind, signature);
  return { success: true as const, signature };
}

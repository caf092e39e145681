import PDFDocument from 'pdfkit';
import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import { toDate } from '../../../platform/db/types.js';
import { payoutNotFound, RentalErrors, stateConflictFor } from '../errors.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { fromMinor } from '../ledger/money.js';
import { maskStored } from '../vendors/iban.js';
import { vendorById } from '../vendors/repo.js';
import { payoutById, type PayoutRow } from './repo.js';

const STATUS_WORDS: Record<string, string> = {
  approved: 'Approved, sent to the bank',
  paid: 'Paid',
  failed: 'Failed (returned to available)',
};

/**
 * The payout statement PS-YYYY-NNNN as a PDF (pdfkit), the same document for the vendor and an administrator.
 * Only approved payouts have a statement (the number is frozen at approval); a requested or rejected one → 409.
 * A vendor reads only its own (another's → 404); anyone else → 403.
 */
export async function payoutStatement(
  p: Platform,
  user: AuthUser,
  id: number,
): Promise<{ number: string; pdf: Buffer }> {
  if (user.role !== 'administrator' && user.role !== 'vendor')
    throw RentalErrors.permissionDenied('Only vendors and administrators can read payout statements.');
  const payout = await payoutById(p.db, id);
  if (!payout || (user.role === 'vendor' && Number(payout.vendor_id) !== user.id)) throw payoutNotFound(id);
  if (!payout.statement_number)
    throw stateConflictFor(
      'no_statement',
      `Payout ${id} is ${payout.status}: a statement exists once a payout is approved.`,
      {
        status: payout.status,
      },
    );
  const vendor = await vendorById(p.db, Number(payout.vendor_id));
  const pdf = await render(p, payout, {
    name: payout.vendor_name ?? `Vendor ${payout.vendor_id}`,
    holder: vendor?.account_holder ?? '',
    iban: vendor ? maskStored(p.config.secret, vendor.iban_encrypted) : null,
    taxOffice: vendor?.tax_office ?? null,
    taxNumber: vendor?.tax_number ?? null,
  });
  return { number: payout.statement_number, pdf };
}

function render(
  p: Platform,
  payout: PayoutRow,
  v: { name: string; holder: string; iban: string | null; taxOffice: string | null; taxNumber: string | null },
): Promise<Buffer> {
  const tz = p.config.storeTimezone;
  const store = mailSettings(p).storeName;
  const when = (x: unknown) =>
    x === null || x === undefined
      ? '—'
      : new Intl.DateTimeFormat('en-GB', { timeZone: tz, dateStyle: 'long', timeStyle: 'short' }).format(toDate(x));
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: payout.currency }).format(
    fromMinor(payout.amount, payout.currency),
  );
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `Payout statement ${payout.statement_number}`, Author: store, Subject: `Payout ${payout.id}` },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text(store);
  doc.moveDown(0.3).font('Helvetica').fontSize(11).fillColor('#444').text('Payout statement');
  doc.moveDown(1.2).fillColor('#000').font('Helvetica-Bold').fontSize(14).text(payout.statement_number!);
  doc.moveDown(1);
  const rows: [string, string][] = [
    ['Vendor', v.name],
    ['Account holder', v.holder || '—'],
    ['IBAN', v.iban ?? '—'],
    ...(v.taxOffice || v.taxNumber
      ? [['Tax office / number', `${v.taxOffice ?? '—'} / ${v.taxNumber ?? '—'}`] as [string, string]]
      : []),
    ['Payout', `#${payout.id}`],
    ['Amount', amount],
    ['Status', STATUS_WORDS[payout.status] ?? payout.status],
    ['Requested', when(payout.requested_at)],
    ['Approved', when(payout.decided_at)],
    ...(payout.paid_at ? [['Paid', when(payout.paid_at)] as [string, string]] : []),
    ...(payout.failed_at ? [['Failed', when(payout.failed_at)] as [string, string]] : []),
    ...(payout.external_reference ? [['Bank reference', payout.external_reference] as [string, string]] : []),
  ];
  doc.fontSize(11);
  for (const [k, val] of rows) {
    const y = doc.y;
    doc.font('Helvetica').fillColor('#555').text(k, 56, y, { width: 150 });
    doc.font('Helvetica').fillColor('#000').text(val, 210, y, { width: 330 });
    doc.moveDown(0.4);
  }
  doc
    .moveDown(2)
    .fontSize(9)
    .fillColor('#666')
    .text(
      `Times in ${tz}. Amounts in ${payout.currency}. This statement is generated from the marketplace ledger; the same document is issued to the vendor and the platform.`,
      56,
      doc.y,
      { width: 480 },
    );
  doc.end();
  return done;
}

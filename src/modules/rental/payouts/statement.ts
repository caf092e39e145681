import type { Platform } from '../../../platform/context.js';
import type { AuthUser } from '../../../platform/auth/types.js';
import { toDate } from '../../../platform/db/types.js';
import { stateConflictFor } from '../errors.js';
import { mailSettings } from '../../../platform/mail/settings.js';
import { moneyText } from '../ledger/money.js';
import { maskStored } from '../vendors/iban.js';
import { vendorById } from '../vendors/repo.js';
import { payoutStatementData, readablePayout, type PayoutStatementData } from './lines.js';
import { storeDate } from './lines-csv.js';

const STATUS_WORDS: Record<string, string> = {
  approved: 'Approved, sent to the bank',
  paid: 'Paid',
  failed: 'Failed (returned to available)',
};

/**
 * The payout statement PS-YYYY-NNNN as a PDF (pdfkit), the same document for the vendor and an administrator:
 * the payout, then the vendor's available balance from the opening balance through every ledger movement the payout
 * covers to the closing balance (the lines of payoutStatementData, the same as the CSV).
 * Only approved payouts have a statement (the number is frozen at approval); a requested or rejected one → 409.
 * A vendor reads only its own (another's → 404); anyone else → 403.
 */
export async function payoutStatement(
  p: Platform,
  user: AuthUser,
  id: number,
): Promise<{ number: string; pdf: Buffer }> {
  const payout = await readablePayout(p.db, user, id);
  if (!payout.statement_number)
    throw stateConflictFor(
      'no_statement',
      `Payout ${id} is ${payout.status}: a statement exists once a payout is approved.`,
      {
        status: payout.status,
      },
    );
  const vendor = await vendorById(p.db, Number(payout.vendor_id));
  const pdf = await render(p, await payoutStatementData(p.db, payout), {
    name: payout.vendor_name ?? `Vendor ${payout.vendor_id}`,
    holder: vendor?.account_holder ?? '',
    iban: vendor ? maskStored(p.config.secret, vendor.iban_encrypted) : null,
    taxOffice: vendor?.tax_office ?? null,
    taxNumber: vendor?.tax_number ?? null,
  });
  return { number: payout.statement_number, pdf };
}

const MARGIN = 40;
// Date | Description | Booking | Gross | Commission | Penalty | Net | Balance on A4 landscape (762 pt between margins)
const COLUMNS: { header: string; width: number; align: 'left' | 'right' }[] = [
  { header: 'Date', width: 62, align: 'left' },
  { header: 'Description', width: 180, align: 'left' },
  { header: 'Booking dates', width: 126, align: 'left' },
  { header: 'Gross', width: 72, align: 'right' },
  { header: 'Commission', width: 72, align: 'right' },
  { header: 'Penalty', width: 66, align: 'right' },
  { header: 'Net', width: 84, align: 'right' },
  { header: 'Balance', width: 96, align: 'right' },
];

async function render(
  p: Platform,
  s: PayoutStatementData,
  v: { name: string; holder: string; iban: string | null; taxOffice: string | null; taxNumber: string | null },
): Promise<Buffer> {
  const { payout } = s;
  const tz = p.config.storeTimezone;
  const store = mailSettings(p).storeName;
  const when = (x: unknown) =>
    x === null || x === undefined
      ? '—'
      : new Intl.DateTimeFormat('en-GB', { timeZone: tz, dateStyle: 'long', timeStyle: 'short' }).format(toDate(x));
  const money = (minor: number) => moneyText(minor, payout.currency);
  // loaded with the first statement: a node that never renders one does not carry pdfkit and its fonts
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    info: {
      Title: `Payout statement ${payout.statement_number}`,
      Author: store,
      Subject: `Payout #${payout.statement_no}`,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text(store);
  doc.moveDown(0.3).font('Helvetica').fontSize(11).fillColor('#444').text('Payout statement');
  doc
    .moveDown(0.8)
    .fillColor('#000')
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(`${payout.statement_number}  ·  Payout #${payout.statement_no}`);
  doc.moveDown(0.8);
  const facts: [string, string][] = [
    ['Vendor', v.name],
    ['Account holder', v.holder || '—'],
    ['IBAN', v.iban ?? '—'],
    ...(v.taxOffice || v.taxNumber
      ? [['Tax office / number', `${v.taxOffice ?? '—'} / ${v.taxNumber ?? '—'}`] as [string, string]]
      : []),
    ['Amount', money(Number(payout.amount))],
    ['Status', STATUS_WORDS[payout.status] ?? payout.status],
    ['Requested', when(payout.requested_at)],
    ['Approved', when(payout.decided_at)],
    ...(payout.paid_at ? [['Paid', when(payout.paid_at)] as [string, string]] : []),
    ...(payout.failed_at ? [['Failed', when(payout.failed_at)] as [string, string]] : []),
    ...(payout.external_reference ? [['Bank reference', payout.external_reference] as [string, string]] : []),
  ];
  doc.fontSize(10);
  for (const [k, val] of facts) {
    const y = doc.y;
    doc.font('Helvetica').fillColor('#555').text(k, MARGIN, y, { width: 150 });
    doc
      .font('Helvetica')
      .fillColor('#000')
      .text(val, MARGIN + 154, y, { width: 400 });
    doc.moveDown(0.25);
  }

  doc.moveDown(1).font('Helvetica-Bold').fontSize(12).fillColor('#000').text('Available balance', MARGIN, doc.y);
  doc.moveDown(0.4);
  const row = (cells: string[], bold = false) => {
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(8.5)
      .fillColor('#000');
    const heights = cells.map((c, i) => doc.heightOfString(c, { width: COLUMNS[i]!.width - 6 }));
    const h = Math.max(...heights) + 4;
    if (doc.y + h > doc.page.height - MARGIN - 30) {
      doc.addPage();
      header();
      doc
        .font(bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(8.5)
        .fillColor('#000');
    }
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((c, i) => {
      const col = COLUMNS[i]!;
      doc.text(c, x, y, { width: col.width - 6, align: col.align, lineBreak: true });
      x += col.width;
    });
    doc.x = MARGIN;
    doc.y = y + h;
  };
  const header = () => {
    row(
      COLUMNS.map((c) => c.header),
      true,
    );
    doc
      .moveTo(MARGIN, doc.y - 1)
      .lineTo(MARGIN + COLUMNS.reduce((w, c) => w + c.width, 0), doc.y - 1)
      .strokeColor('#999')
      .stroke();
  };
  header();
  const date = (at: string | null) => (at === null ? '' : storeDate(at, tz));
  const blank = (n: number) => (n === 0 ? '' : money(n));
  row([date(s.period_start), 'Opening balance', '', '', '', '', '', money(s.opening)], true);
  for (const l of s.lines) {
    row([
      date(l.at),
      l.description,
      l.booking_start && l.booking_end ? `${date(l.booking_start)} – ${date(l.booking_end)}` : '',
      blank(l.gross),
      blank(l.commission),
      blank(l.penalty),
      money(l.net),
      money(l.balance),
    ]);
  }
  row([date(s.period_end), 'Closing balance', '', '', '', '', '', money(s.closing)], true);

  doc.moveDown(0.8).font('Helvetica').fontSize(9).fillColor('#000');
  const summary: [string, number][] = [
    ['Income', s.totals.income],
    ['Refunds', s.totals.refunds],
    ['Penalties', s.totals.penalties],
    ['Payouts returned', s.totals.returned],
    [`Payout #${payout.statement_no}`, s.totals.payouts],
  ];
  for (const [k, n] of summary) {
    if (n === 0 && k !== `Payout #${payout.statement_no}`) continue;
    const y = doc.y;
    doc.text(k, MARGIN, y, { width: 150 });
    doc.text(money(n), MARGIN + 154, y, { width: 100, align: 'right' });
  }
  doc
    .moveDown(1.5)
    .fontSize(8)
    .fillColor('#666')
    .text(
      `Dates in ${tz}. Amounts in ${payout.currency}. The lines are every movement of the available balance since the previous payout was requested, this payout last; gross and commission are those of the booking. This statement is generated from the marketplace ledger; the same document is issued to the vendor and the platform.`,
      MARGIN,
      doc.y,
      { width: 762 },
    );
  doc.end();
  return done;
}

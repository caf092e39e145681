/** E-mail templates: each gives a subject, a plain-text body and an HTML body (values HTML-escaped). */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** A file sent with a mail (kept with it in the outbox): text content, e.g. an iCalendar event. */
export interface MailAttachment {
  filename: string;
  /** e.g. `text/calendar; charset=utf-8; method=PUBLISH` */
  content_type: string;
  content: string;
}

export interface MailContext {
  storeName: string;
  timezone: string;
}

/** A paragraph list; `link` lines become buttons in HTML. */
type Block = { p: string } | { link: string; label: string } | { rows: [string, string][] };

/** Text as HTML: the five characters that could open markup or end an attribute, as entities. */
export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** An instant shown in the store's timezone, with the zone named (mails are read far from the server). */
export function localTime(iso: string, timezone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return formatterFor(timezone).format(d) + ` (${timezone})`;
}

// Building an Intl.DateTimeFormat costs far more than formatting with one (a booking mail formats several times).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' });
    if (formatters.size > 100) formatters.clear();
    formatters.set(timezone, f);
  }
  return f;
}

/** A mail's subject as sent: the store's name in front. */
export function mailSubject(ctx: Pick<MailContext, 'storeName'>, subject: string): string {
  return `[${ctx.storeName}] ${subject}`;
}

export function compose(ctx: MailContext, subject: string, greeting: string, blocks: Block[]): MailContent {
  const text: string[] = [greeting, ''];
  const html: string[] = [`<p>${esc(greeting)}</p>`];
  for (const b of blocks) {
    if ('p' in b) {
      text.push(b.p, '');
      html.push(`<p>${esc(b.p)}</p>`);
    } else if ('link' in b) {
      text.push(`${b.label}: ${b.link}`, '');
      html.push(
        `<p><a href="${esc(b.link)}" style="display:inline-block;padding:8px 16px;background:#1f6feb;color:#fff;text-decoration:none;border-radius:4px">${esc(b.label)}</a></p>`,
      );
    } else {
      for (const [k, v] of b.rows) text.push(`${k}: ${v}`);
      text.push('');
      html.push(
        `<table cellpadding="4">${b.rows.map(([k, v]) => `<tr><th align="left">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`,
      );
    }
  }
  text.push(`— ${ctx.storeName}`);
  html.push(`<p>— ${esc(ctx.storeName)}</p>`);
  const full = mailSubject(ctx, subject);
  return {
    subject: full,
    text: text.join('\n'),
    html: `<!doctype html><html><head><meta charset="utf-8"><title>${esc(full)}</title></head><body style="font-family:sans-serif">${html.join('\n')}</body></html>`,
  };
}

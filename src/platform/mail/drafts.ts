import type { Platform } from '../context.js';
import { perPlatform } from '../per-platform.js';
import { esc, type MailAttachment } from './templates.js';

/** A mail's bodies and files, rendered from its draft. */
export interface RenderedMail {
  text: string;
  html: string;
  attachments: MailAttachment[];
}

/** Renders one template's drafts; null when the draft is not one it knows (an older or damaged row). */
export type MailRenderer = (draft: unknown) => RenderedMail | null;

const renderersOf = perPlatform(() => new Map<string, MailRenderer>());

/**
 * A module that stores mails as drafts (the outbox's `draft`: the template's data, not its bodies) says how to render
 * them, when it starts. The outbox renders a draft when the mail is sent or read.
 */
export function registerMailRenderer(p: Platform, template: string, render: MailRenderer): void {
  renderersOf(p).set(template, render);
}

/** An outbox row as stored: its bodies, or its draft. */
export interface StoredBodies {
  template: string;
  text_body: string | null;
  html_body: string | null;
  attachments: MailAttachment[];
  draft: unknown;
}

/**
 * The mail's bodies: as stored, or rendered from its draft. `rendered`: rendered now (the delivery then stores what it
 * sent). `problem`: why a draft could not be rendered (no running module renders its template, or its data is not
 * what the renderer reads); the bodies then say so, and the delivery must not send them.
 */
export function bodiesOf(p: Platform, m: StoredBodies): RenderedMail & { rendered: boolean; problem: string | null } {
  if (m.text_body !== null && m.html_body !== null)
    return { text: m.text_body, html: m.html_body, attachments: m.attachments, rendered: false, problem: null };
  const render = renderersOf(p).get(m.template);
  if (!render) return unrendered(`no module of this server renders the template ${m.template}`);
  let out: RenderedMail | null;
  try {
    out = render(m.draft);
  } catch (err) {
    return unrendered(`its data could not be rendered (${err instanceof Error ? err.message : String(err)})`);
  }
  return out ? { ...out, rendered: true, problem: null } : unrendered(`its data is not a ${m.template} mail's`);
}

function unrendered(problem: string): RenderedMail & { rendered: boolean; problem: string } {
  const text = `This mail is stored as data and was not rendered: ${problem}.`;
  return {
    text,
    html: `<p>${esc(text)}</p>`,
    attachments: [],
    rendered: false,
    problem,
  };
}

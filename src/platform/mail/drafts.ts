import type { Platform } from '../context.js';
import { perPlatform } from '../per-platform.js';
import type { MailAttachment } from './templates.js';

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

/** Shown in place of a draft that no running module renders (the module that wrote it is not installed). */
const UNRENDERED = 'This mail is stored as data and no module of this server renders its template.';

/**
 * The mail's bodies: as stored, or rendered from its draft. `rendered` says whether they were rendered now (the
 * delivery then stores what it sent).
 */
export function bodiesOf(p: Platform, m: StoredBodies): RenderedMail & { rendered: boolean; known: boolean } {
  if (m.text_body !== null && m.html_body !== null)
    return { text: m.text_body, html: m.html_body, attachments: m.attachments, rendered: false, known: true };
  const out = renderersOf(p).get(m.template)?.(m.draft) ?? null;
  if (!out) return { text: UNRENDERED, html: `<p>${UNRENDERED}</p>`, attachments: [], rendered: false, known: false };
  return { ...out, rendered: true, known: true };
}

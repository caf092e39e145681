import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listOutbox } from '../mail/mailer.js';
import { bodiesOf } from '../mail/drafts.js';
import { toDate } from '../db/types.js';
import { setPagingHeaders } from '../http/namespaces.js';
import { wpErrors } from '../http/schemas.js';

const Mail = Type.Object({
  id: Type.Integer(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Type.String(),
  template: Type.String(),
  status: Type.String({
    description:
      'stored (no SMTP_URL: kept here to be read); with SMTP_URL, a mail delivered from the outbox (the booking and message ' +
      'mails) is pending (waiting for its attempt), sending, sent, or failed (refused by the SMTP server on every attempt); ' +
      'any other mail refused by the SMTP server is failed',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  attachments: Type.Array(
    Type.Object({
      filename: Type.String(),
      content_type: Type.String(),
      content: Type.String({ description: 'The file as sent (text: an iCalendar event for booking mails)' }),
    }),
    { description: 'Files sent with the mail: a customer booking mail carries the booking as an .ics event' },
  ),
  created_at: Type.String(),
});

export const outboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/rova/v1/outbox',
    {
      config: { auth: { cap: 'manage_options' } },
      schema: {
        tags: ['platform: mail'],
        summary:
          'Mails kept instead of sent (no SMTP_URL), refused by the SMTP server, or delivered from the outbox, newest first',
        querystring: Type.Object({
          to: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^\\u0000]*$' })),
          template: Type.Optional(Type.String({ maxLength: 50, pattern: '^[a-z_]+$' })),
          page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
          per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
        }),
        response: { 200: Type.Array(Mail), ...wpErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const { items, total } = await listOutbox(
        app.platform.db,
        { to: q.to, template: q.template },
        q.page,
        q.per_page,
      );
      setPagingHeaders(reply, req.url, total, q.page, q.per_page);
      return items.map((m) => {
        const body = bodiesOf(app.platform, m);
        return {
          id: m.id,
          to: m.to_address,
          subject: m.subject,
          text: body.text,
          html: body.html,
          template: m.template,
          status: m.status,
          error: m.error,
          attachments: body.attachments,
          created_at: toDate(m.created_at).toISOString(),
        };
      });
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { PageSchema } from '../paging.js';
import {
  IdParams,
  InboxQuery,
  ReplyBody,
  ReplyResult,
  StatusBody,
  StatusResult,
  ThreadSummary,
  ThreadView,
} from './schemas.js';
import * as service from './service.js';

const admin = { auth: { cap: 'manage_options' } } as const;
const tags = ['rental v1: messages (admin)'];

/** Admin inbox: GET /messages, GET /messages/{id}, POST /messages/{id}/reply, POST /messages/{id}/status. */
export const messageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.platform;
  const tx = app.platform.transaction;

  app.get(
    '/rova-rental/v1/messages',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Inbox: message threads, newest activity first',
        description:
          'One row per thread (first message + counters). Filters combine with AND; search matches subject, any message body, customer name or e-mail.',
        querystring: InboxQuery,
        response: { 200: RentalEnvelope(PageSchema(ThreadSummary)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => rentalOk(await service.inbox(db, req.query), ''),
  );

  app.get(
    '/rova-rental/v1/messages/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Thread view of a message: first message and replies in order',
        description: "Any message id of the thread works. Viewing marks the customer's messages as read.",
        params: IdParams,
        response: { 200: RentalEnvelope(ThreadView), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => rentalOk(await service.thread(db, req.params.id), ''),
  );

  app.post(
    '/rova-rental/v1/messages/:id/reply',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Reply in the thread',
        description:
          'Sets the thread to `replied`, or `closed` with close_thread:true. Replying to a closed thread re-opens it as `replied`. ' +
          'The customer gets the reply by mail (template `message_reply`, in the outbox with the reply).',
        params: IdParams,
        body: ReplyBody,
        response: { 201: RentalEnvelope(ReplyResult), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const r = await service.adminReply(
        app.platform,
        req.params.id,
        req.auth.user!,
        req.body.message,
        req.body.close_thread === true,
      );
      req.auditTarget = `message:${r.thread_id}`;
      return reply.status(201).send(rentalOk(r, 'Reply sent.'));
    },
  );

  app.post(
    '/rova-rental/v1/messages/:id/status',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Set the thread status',
        description:
          'status: pending | replied | closed (any → any; `answered` is accepted as an alias of replied). Anything else → 400 INVALID_PARAMS.',
        params: IdParams,
        body: StatusBody,
        response: { 200: RentalEnvelope(StatusResult), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const r = await service.setStatus(tx, req.params.id, req.body.status);
      req.auditTarget = `message:${r.thread_id}`;
      return rentalOk(r, 'Message status updated.');
    },
  );
};

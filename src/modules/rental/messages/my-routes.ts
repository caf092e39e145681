import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rentalOk } from '../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../platform/http/schemas.js';
import { messageNotFound } from '../errors.js';
import { PageSchema, pageOf, parsePaging } from '../paging.js';
import { customerOf } from './identity.js';
import {
  IdParams,
  MyInboxQuery,
  MyReplyBody,
  NewThreadBody,
  ReplyResult,
  StatusResult,
  ThreadSummary,
  ThreadView,
} from './schemas.js';
import * as service from './service.js';

const signedIn = { auth: { authenticated: true } } as const;
const tags = ['rental v1: my messages (customer)'];

/**
 * Customer side of messages, for a signed-in user linked to a rental customer (customers.user_id, else the
 * same e-mail). A customer only ever sees their own threads; another customer's thread answers 404.
 */
export const myMessageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.platform;
  const tx = app.platform.transaction;

  app.get(
    '/rova-rental/v1/my/messages',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'My message threads, newest activity first',
        querystring: MyInboxQuery,
        response: { 200: RentalEnvelope(PageSchema(ThreadSummary)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const me = await customerOf(db, req.auth.user!, false);
      if (!me) return rentalOk(pageOf([], 0, parsePaging(req.query)), '');
      return rentalOk(await service.inbox(db, req.query, me), '');
    },
  );

  app.post(
    '/rova-rental/v1/my/messages',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Start a thread (status pending)',
        body: NewThreadBody,
        response: { 201: RentalEnvelope(ThreadView), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const me = (await customerOf(db, req.auth.user!, true))!;
      const view = await service.startThread(tx, me, req.auth.user!, req.body);
      req.auditTarget = `message:${view.thread.id}`;
      return reply.status(201).send(rentalOk(view, 'Message sent.'));
    },
  );

  app.get(
    '/rova-rental/v1/my/messages/:id',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'One of my threads: first message and replies in order (marks replies read)',
        params: IdParams,
        response: { 200: RentalEnvelope(ThreadView), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const me = await customerOf(db, req.auth.user!, false);
      if (!me) throw messageNotFound();
      return rentalOk(await service.thread(db, req.params.id, me), '');
    },
  );

  app.post(
    '/rova-rental/v1/my/messages/:id/reply',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Reply in one of my threads (the thread goes back to pending, re-opening a closed one)',
        params: IdParams,
        body: MyReplyBody,
        response: { 201: RentalEnvelope(ReplyResult), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const me = await customerOf(db, req.auth.user!, false);
      if (!me) throw messageNotFound();
      const r = await service.customerReply(tx, me, req.auth.user!, req.params.id, req.body.message);
      req.auditTarget = `message:${r.thread_id}`;
      return reply.status(201).send(rentalOk(r, 'Reply sent.'));
    },
  );

  app.post(
    '/rova-rental/v1/my/messages/:id/close',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Close one of my threads',
        params: IdParams,
        response: { 200: RentalEnvelope(StatusResult), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const me = await customerOf(db, req.auth.user!, false);
      if (!me) throw messageNotFound();
      const r = await service.customerClose(tx, me, req.params.id);
      req.auditTarget = `message:${r.thread_id}`;
      return rentalOk(r, 'Thread closed.');
    },
  );
};

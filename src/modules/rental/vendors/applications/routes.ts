import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../../platform/http/errors.js';
import { NONCE_PARAM } from '../../../../platform/http/nonce-body.js';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { marketplaceSettings } from '../../ledger/settings.js';
import { PageSchema, pageOf, parsePaging } from '../../paging.js';
import { invalidField, invalidParam, RentalErrors } from '../../errors.js';
import {
  applicationOf,
  applyBlocker,
  approveApplication,
  downloadableDocument,
  findApplications,
  ownApplication,
  rejectApplication,
  submitApplication,
  type ApplicationWithDocuments,
  type ApplyFields,
  type UploadedFile,
} from './service.js';
import {
  ApplicationDetail,
  ApplicationItem,
  ApplicationsQuery,
  ApplyForm,
  Decision,
  IdParams,
  RejectBody,
} from '../schemas.js';
import { checkOriginalName, DOCUMENT_KINDS, MAX_DOCUMENT_BYTES, readDocument, type DocumentKind } from './uploads.js';
import { applicationDetail, applicationListItem } from './views.js';

const V1 = '/rova-rental/v1';
const self = { auth: { authenticated: true } } as const;
const admin = { auth: { cap: 'manage_options' } } as const;
const tags = ['rental v1: vendor applications'];
const FIELDS = [
  'phone',
  'city',
  'iban',
  'account_holder',
  'tax_office',
  'tax_number',
  'bio',
  'service_areas',
  'terms_accepted',
  'terms_version',
];

/**
 * Reads the multipart form: known text fields (any other is a 400; `_wpnonce` is allowed and dropped), up to three
 * documents (document_id|license|address) held in memory ≤ 10 MB each.
 */
async function readApplyForm(req: FastifyRequest): Promise<{ fields: ApplyFields; files: UploadedFile[] }> {
  if (!req.isMultipart()) throw RentalErrors.invalidParams('Send the application as multipart/form-data.');
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    await readParts(req, fields, files);
  } catch (err) {
    // busboy's own errors (truncated body, no boundary, bad part headers) carry no status: the client's fault, not ours
    const status = (err as { statusCode?: unknown }).statusCode;
    if (err instanceof HttpError || (typeof status === 'number' && status >= 400 && status < 500)) throw err;
    throw RentalErrors.invalidParams(
      'The multipart/form-data body is malformed or truncated: send the whole form with the boundary its Content-Type names.',
      { reason: 'malformed_multipart' },
    );
  }
  return { fields: fields as ApplyFields, files };
}

async function readParts(req: FastifyRequest, fields: Record<string, string>, files: UploadedFile[]): Promise<void> {
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      const kind = part.fieldname.replace(/^document_/, '') as DocumentKind;
      if (
        !part.fieldname.startsWith('document_') ||
        !DOCUMENT_KINDS.includes(kind) ||
        files.some((f) => f.kind === kind)
      ) {
        part.file.resume();
        throw invalidField(
          part.fieldname,
          `Unexpected file field "${part.fieldname}" (document_id, document_license, document_address; one each).`,
        );
      }
      const name = checkOriginalName(part.filename ?? '');
      const data = await part.toBuffer();
      if (data.length === 0) throw invalidField(part.fieldname, `${part.fieldname} is empty.`);
      files.push({ kind, original_name: name, data });
    } else if (FIELDS.includes(part.fieldname) && typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    } else if (part.fieldname !== NONCE_PARAM) {
      // the form names every field it takes, like a JSON write schema: anything else is a 400 naming it
      const name = part.fieldname;
      const why = name.startsWith('document_') ? `${name} must be sent as a file` : `unknown field "${name}"`;
      throw invalidParam(name, `Invalid parameter(s): ${name}`, why);
    }
  }
}

export const applicationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const base = p.config.restRoot;
  const detail = (a: ApplicationWithDocuments) => applicationDetail(a.application, a.documents, p.config.secret, base);
  // preservePath: see the client's raw file name, so a path trick is refused rather than silently stripped
  await app.register(multipart, {
    limits: { fileSize: MAX_DOCUMENT_BYTES, files: 3, fields: 20, fieldSize: 10_000, parts: 30 },
    throwFileSizeLimit: true,
    preservePath: true,
  });

  app.get(
    `${V1}/vendor/application/terms`,
    {
      config: self,
      schema: {
        tags,
        summary: 'The vendor terms version to accept, and whether the caller may apply now',
        response: {
          200: RentalEnvelope(
            Type.Object({
              terms_version: Type.String(),
              can_apply: Type.Boolean(),
              reason: Type.Union([Type.String(), Type.Null()]),
            }),
          ),
          ...rentalErrors(401),
        },
      },
    },
    async (req) => {
      const reason = await applyBlocker(p, req.auth.user!);
      return rentalOk(
        { terms_version: (await marketplaceSettings(p)).terms_version, can_apply: reason === null, reason },
        '',
      );
    },
  );

  app.post(
    `${V1}/vendor/application`,
    {
      config: self,
      schema: {
        tags,
        summary: 'Apply to become a vendor (multipart/form-data with documents)',
        consumes: ['multipart/form-data'],
        description:
          'Rules: not already a vendor, no other pending application, 24 h after a rejection (409 otherwise). Documents are sniffed by content (PDF/JPEG/PNG/WebP; 400 otherwise, as is a body that is not multipart), ≤ 10 MB each (413), file names with paths or ".." → 400. Documents go to the shared file storage (STORAGE_URL); while it is unreachable → 503 with Retry-After and nothing is written.',
        // documented shape; the handler parses the stream itself
        ...({ body: ApplyForm } as object),
        response: { 201: RentalEnvelope(ApplicationDetail), ...rentalErrors(400, 401, 403, 409, 413, 503) },
      },
      validatorCompiler: () => () => true,
    },
    async (req, reply) => {
      const { fields, files } = await readApplyForm(req);
      const a = await submitApplication(p, req.auth.user!, fields, files);
      req.auditTarget = `vendor_application:${a.id}`;
      return reply.code(201).send(rentalOk(detail(await applicationOf(p.db, Number(a.id))), 'Application submitted.'));
    },
  );

  app.get(
    `${V1}/vendor/application`,
    {
      config: self,
      schema: {
        tags,
        summary: "The caller's latest vendor application (IBAN masked)",
        response: { 200: RentalEnvelope(ApplicationDetail), ...rentalErrors(401, 404) },
      },
    },
    async (req) => {
      return rentalOk(detail(await ownApplication(p.db, req.auth.user!.id)), '');
    },
  );

  app.get(
    `${V1}/vendor-documents/:id`,
    {
      config: self,
      schema: {
        tags,
        summary: 'Download an application document (administrators and the applicant only; others get 404)',
        params: IdParams,
        description:
          'From the shared file storage (STORAGE_URL), whichever node stored it. 404 also when the file is missing from the storage (not moved with `rova storage migrate`); 503 with Retry-After while the storage is unreachable.',
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The file (attachment)' }),
          ...rentalErrors(401, 404, 503),
        },
      },
    },
    async (req, reply) => {
      const d = await downloadableDocument(p.db, req.params.id, req.auth.user!);
      const data = await readDocument(p.storage, d.stored_name, Number(d.id));
      return reply
        .type(d.mime)
        .header('content-disposition', `attachment; filename="document-${d.id}.${d.stored_name.split('.')[1]}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(data);
    },
  );

  app.get(
    '/rova-rental/v1/vendor-management/applications',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Vendor applications (default pending; paged, searchable)',
        querystring: ApplicationsQuery,
        response: { 200: RentalEnvelope(PageSchema(ApplicationItem)), ...rentalErrors(400, 401, 403) },
      },
    },
    async (req) => {
      const pg = parsePaging(req.query);
      const r = await findApplications(
        p.db,
        { status: req.query.status ?? 'pending', search: req.query.search },
        pg.limit,
        pg.offset,
      );
      return rentalOk(pageOf(r.items.map(applicationListItem), r.total, pg), '');
    },
  );

  app.get(
    '/rova-rental/v1/vendor-management/applications/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'One vendor application with its documents (IBAN masked)',
        params: IdParams,
        response: { 200: RentalEnvelope(ApplicationDetail), ...rentalErrors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      return rentalOk(detail(await applicationOf(p.db, req.params.id)), '');
    },
  );

  app.post(
    '/rova-rental/v1/vendor-management/:id/approve',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Approve a pending application: the user becomes an active vendor (409 when not pending)',
        params: IdParams,
        response: { 200: RentalEnvelope(Decision), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) => rentalOk(await approveApplication(p, req.params.id, req.auth.user!), 'Application approved.'),
  );

  app.post(
    '/rova-rental/v1/vendor-management/:id/reject',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Reject a pending application (reason required; 409 when not pending)',
        params: IdParams,
        body: RejectBody,
        response: { 200: RentalEnvelope(Decision), ...rentalErrors(400, 401, 403, 404, 409) },
      },
    },
    async (req) =>
      rentalOk(await rejectApplication(p, req.params.id, req.auth.user!, req.body.reason), 'Application rejected.'),
  );
};

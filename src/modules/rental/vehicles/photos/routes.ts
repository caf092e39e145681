import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../../platform/http/errors.js';
import { rentalOk } from '../../../../platform/http/namespaces.js';
import { NONCE_PARAM } from '../../../../platform/http/nonce-body.js';
import { RentalEnvelope, rentalErrors } from '../../../../platform/http/schemas.js';
import { invalidParam, RentalErrors } from '../../errors.js';
import { Id, Text } from '../../schemas.js';
import { MAX_PHOTO_BYTES, MAX_PHOTOS_PER_VEHICLE } from './images.js';
import {
  addPhotos,
  changeAlt,
  editablePhotos,
  photoFile,
  photoViewsOf,
  removePhoto,
  reorderPhotos,
  type PhotoEditor,
  type UploadedPhoto,
} from './service.js';
import { PhotoView, photoView } from './views.js';

const V1 = '/rova-rental/v1';
const tags = ['rental v1: vehicle photos'];
const vendorOnly = { auth: { cap: 'manage_vendor_account' } } as const;
const Params = Type.Object({ id: Id({ description: 'Vehicle id' }) });
const PhotoParams = Type.Object({ id: Id({ description: 'Vehicle id' }), photoId: Id({ description: 'Photo id' }) });
const AltBody = Type.Object(
  { alt: Text({ maxLength: 300, description: 'Alternative text ("" clears it)' }) },
  { additionalProperties: false },
);
const OrderBody = Type.Object(
  {
    photo_ids: Type.Array(Id(), {
      maxItems: MAX_PHOTOS_PER_VEHICLE,
      description: 'Every photo id of the vehicle, each once, in the new order: the first is the cover',
    }),
  },
  { additionalProperties: false },
);
const UploadForm = Type.Object(
  {
    photos: Type.Array(Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }), {
      description: 'One or more image files (JPEG, PNG or WebP, checked from the content)',
    }),
    alt: Type.Optional(
      Type.Array(Type.String({ maxLength: 300 }), { description: 'Alt text of each photo, in order' }),
    ),
  },
  { additionalProperties: false },
);
const Photos = RentalEnvelope(Type.Array(PhotoView));
const UPLOAD_RULES = `multipart/form-data: files in the field \`photos\` (up to 10 a request, ≤ ${MAX_PHOTO_BYTES / 1024 / 1024} MB each, 413 past it), optional \`alt\` text fields in the same order. The type is read from the bytes: JPEG, PNG or WebP, anything else (or a damaged file) → 400 INVALID_PARAMS naming the field. Each photo is stored as thumb (160 px), card (480 px) and detail (1280 px) wide copies in WebP and JPEG with every metadata (EXIF, GPS) removed; the upload itself is not kept. At most ${MAX_PHOTOS_PER_VEHICLE} photos a vehicle (409). Answers every photo of the vehicle, cover first.`;

/** The `id` of a route whose validation is off (the upload): a positive integer, else 400 as schema validation says. */
function vehicleIdOf(raw: unknown): number {
  const n = Number(raw);
  if (!/^[1-9][0-9]{0,15}$/.test(String(raw)) || !Number.isSafeInteger(n))
    throw invalidParam('id', 'Invalid parameter(s): id', 'id must be a positive integer.');
  return n;
}

/** Reads the upload form: files `photos` (memory, ≤ MAX_PHOTO_BYTES each) and `alt` texts; any other field → 400. */
async function readUpload(req: FastifyRequest): Promise<UploadedPhoto[]> {
  if (!req.isMultipart()) throw RentalErrors.invalidParams('Send the photos as multipart/form-data.');
  const files: Buffer[] = [];
  const alts: string[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'photos') {
          part.file.resume();
          throw invalidParam(part.fieldname, `Unexpected file field "${part.fieldname}"`, 'send files as "photos"');
        }
        files.push(await part.toBuffer());
      } else if (part.fieldname === 'alt' && typeof part.value === 'string') alts.push(part.value);
      else if (part.fieldname !== NONCE_PARAM)
        throw invalidParam(part.fieldname, `Invalid parameter(s): ${part.fieldname}`, `unknown field`);
    }
  } catch (err) {
    // busboy's own errors (truncated body, no boundary) carry no status: the client's fault, not ours
    const status = (err as { statusCode?: unknown }).statusCode;
    if (err instanceof HttpError || (typeof status === 'number' && status >= 400 && status < 500)) throw err;
    throw RentalErrors.invalidParams('The multipart/form-data body is malformed or truncated.', {
      reason: 'malformed_multipart',
    });
  }
  return files.map((data, i) => ({ data, alt: alts[i] ?? '' }));
}

/**
 * Vehicle photos: operators change any vehicle's (`/vehicles/{id}/photos…`, administrators), vendors their own
 * (`/vendor/vehicles/{id}/photos…`); the variant files are public (`GET …/photos/{photoId}/{variant}.{digest}.{ext}`).
 * Its own scope: multipart parsing stays inside it.
 */
export const vehiclePhotoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const p = app.platform;
  const base = p.config.restRoot;
  await app.register(multipart, {
    limits: { fileSize: MAX_PHOTO_BYTES, files: 10, fields: 30, fieldSize: 2_000, parts: 40 },
    throwFileSizeLimit: true,
  });
  const list = (vehicleId: number) => photoViewsOf(p, vehicleId);
  const audit = (req: FastifyRequest, id: number, action: string, extra: Record<string, unknown> = {}) => {
    req.auditTarget = `vehicle:${id}`;
    req.auditDetails = { photos: action, ...extra };
  };

  for (const side of ['operator', 'vendor'] as const) {
    const root = side === 'operator' ? `${V1}/vehicles/:id/photos` : `${V1}/vendor/vehicles/:id/photos`;
    const config = side === 'operator' ? {} : vendorOnly;
    const who = (req: FastifyRequest): PhotoEditor => ({ kind: side, user: req.auth.user! });
    const whose = side === 'operator' ? 'a vehicle' : 'an own vehicle (another vendor’s answers 404)';
    const t = side === 'operator' ? tags : ['rental v1: vendor vehicles'];

    app.get(
      root,
      {
        config,
        schema: {
          tags: t,
          summary: `The photos of ${whose}, cover first`,
          params: Params,
          response: { 200: Photos, ...rentalErrors(400, 401, 403, 404) },
        },
      },
      async (req) =>
        rentalOk(
          (await editablePhotos(p, who(req), req.params.id)).map((r) => photoView(base, r)),
          '',
        ),
    );

    app.post(
      root,
      {
        config,
        schema: {
          tags: t,
          summary: `Upload photos of ${whose}`,
          description: UPLOAD_RULES,
          consumes: ['multipart/form-data'],
          params: Params,
          // documented shape; the handler parses the stream itself
          ...({ body: UploadForm } as object),
          response: { 201: Photos, ...rentalErrors(400, 401, 403, 404, 409, 413, 503) },
        },
        // the body is a stream the handler reads; the vehicle id is checked by hand (vehicleIdOf)
        validatorCompiler: () => () => true,
      },
      async (req, reply) => {
        const id = vehicleIdOf(req.params.id);
        const ids = await addPhotos(p, who(req), id, await readUpload(req));
        audit(req, id, 'uploaded', { photo_ids: ids });
        return reply.code(201).send(rentalOk(await list(id), `${ids.length} photo(s) added.`));
      },
    );

    app.put(
      `${root}/order`,
      {
        config,
        schema: {
          tags: t,
          summary: `Reorder the photos of ${whose} (the first is the cover)`,
          params: Params,
          body: OrderBody,
          response: { 200: Photos, ...rentalErrors(400, 401, 403, 404, 409) },
        },
      },
      async (req) => {
        await reorderPhotos(p, who(req), req.params.id, req.body.photo_ids);
        audit(req, req.params.id, 'reordered', { photo_ids: req.body.photo_ids });
        return rentalOk(await list(req.params.id), 'Photos reordered.');
      },
    );

    app.put(
      `${root}/:photoId`,
      {
        config,
        schema: {
          tags: t,
          summary: `Set the alternative text of a photo of ${whose}`,
          params: PhotoParams,
          body: AltBody,
          response: { 200: Photos, ...rentalErrors(400, 401, 403, 404, 409) },
        },
      },
      async (req) => {
        await changeAlt(p, who(req), req.params.id, req.params.photoId, req.body.alt);
        audit(req, req.params.id, 'alt_changed', { photo_id: req.params.photoId });
        return rentalOk(await list(req.params.id), 'Photo updated.');
      },
    );

    app.delete(
      `${root}/:photoId`,
      {
        config,
        schema: {
          tags: t,
          summary: `Delete a photo of ${whose} (its files too; the next one becomes the cover)`,
          params: PhotoParams,
          response: { 200: Photos, ...rentalErrors(400, 401, 403, 404, 409) },
        },
      },
      async (req) => {
        await removePhoto(p, who(req), req.params.id, req.params.photoId);
        audit(req, req.params.id, 'deleted', { photo_id: req.params.photoId });
        return rentalOk(await list(req.params.id), 'Photo deleted.');
      },
    );
  }

  app.get(
    `${V1}/vehicles/:id/photos/:photoId/:file`,
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'A photo variant file (public; the URLs come from the vehicle answers)',
        description:
          'File names are `{thumb|card|detail}.{digest}.{webp|jpg}`, as the `variants` of a photo give them. The digest makes the URL name one content, so the answer is `Cache-Control: public, max-age=31536000, immutable` with an ETag (If-None-Match → 304). Unknown vehicle, photo, variant, digest or extension → 404.',
        security: [],
        params: Type.Object({
          id: Id({ description: 'Vehicle id' }),
          photoId: Id({ description: 'Photo id' }),
          file: Type.String({ maxLength: 60, description: 'e.g. card.5f3a9c1e0b2d4a68.webp' }),
        }),
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'image/webp or image/jpeg' }),
          304: Type.Null({ description: 'Not modified: If-None-Match named the ETag' }),
          ...rentalErrors(404, 503),
        },
      },
    },
    async (req, reply) => {
      const f = await photoFile(p, req.params.id, req.params.photoId, req.params.file);
      if (!f) throw RentalErrors.notFound('No such photo file.');
      reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', f.etag)
        .header('x-content-type-options', 'nosniff')
        // the storefront widget shows these on the shop's origin, not the API's
        .header('cross-origin-resource-policy', 'cross-origin');
      const asked = req.headers['if-none-match'];
      if (asked && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === f.etag))
        return (reply as FastifyReply).code(304).send(); // no body, not even `null`
      return reply.type(f.contentType).send(f.data);
    },
  );
};

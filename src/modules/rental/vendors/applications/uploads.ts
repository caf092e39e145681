import { createHash, randomBytes } from 'node:crypto';
import type { ObjectStorage } from '../../../../platform/storage/index.js';
import { invalidField, RentalErrors } from '../../errors.js';

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_KINDS = ['id', 'license', 'address'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

const TYPES: { mime: string; ext: string; test: (b: Buffer) => boolean }[] = [
  { mime: 'application/pdf', ext: 'pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  { mime: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    mime: 'image/png',
    ext: 'png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    mime: 'image/webp',
    ext: 'webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** The file's real type from its first bytes (the client's Content-Type and name are never trusted). */
export function sniffDocument(head: Buffer): { mime: string; ext: string } | null {
  const t = TYPES.find((x) => x.test(head));
  return t ? { mime: t.mime, ext: t.ext } : null;
}

/**
 * A client file name is kept only as a label: path separators, `..`, control characters and NUL are refused
 * (400), and it is never used to build a path.
 */
export function checkOriginalName(name: string): string {
  const control = [...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
  if (
    name.length === 0 ||
    name.length > 200 ||
    control ||
    /[/\\]/.test(name) ||
    name.includes('..') ||
    name.split('.').every((p) => p === '')
  ) {
    throw invalidField('file_name', 'The file name is not acceptable (no paths, "..", or control characters).');
  }
  return name;
}

export interface StoredDocument {
  stored_name: string;
  mime: string;
  size: number;
  sha256: string;
}

/** Storage key of a vendor document: a server-chosen name, never the client's. */
export function documentKey(storedName: string): string {
  if (!/^[0-9a-f]{32}\.(pdf|jpg|png|webp)$/.test(storedName)) throw new Error('bad stored document name');
  return `vendor-documents/${storedName}`;
}

/** Stores the file under a random server-chosen name, in the shared storage (every node can serve it). */
export async function storeDocument(storage: ObjectStorage, data: Buffer): Promise<StoredDocument> {
  const type = sniffDocument(data);
  if (!type)
    throw invalidField('documents', 'Documents must be PDF, JPEG, PNG or WebP files (checked from the content).');
  const stored = `${randomBytes(16).toString('hex')}.${type.ext}`;
  await storage.put(documentKey(stored), data, type.mime);
  return {
    stored_name: stored,
    mime: type.mime,
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
  };
}

/** The document's bytes; a row whose file is gone (deleted from the bucket, not migrated) is a 404, not a 500. */
export async function readDocument(storage: ObjectStorage, storedName: string, id: number): Promise<Buffer> {
  const o = await storage.get(documentKey(storedName));
  if (!o)
    throw RentalErrors.notFound(
      `The file of document ${id} is missing from the storage (${storage.label}); if it was stored by an older Rova, run \`rova storage migrate\`.`,
    );
  return o.data;
}

export async function removeDocument(storage: ObjectStorage, storedName: string): Promise<void> {
  await storage.delete(documentKey(storedName));
}

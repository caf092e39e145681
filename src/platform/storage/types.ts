/** A stored file: its bytes and the media type it was stored with. */
export interface StoredObject {
  data: Buffer;
  contentType: string;
}

/**
 * Where Rova keeps files (vendor documents, statements, export files): every node reads what any node wrote.
 * Keys are server-chosen (`vendor-documents/<32 hex>.pdf`), never client names.
 */
export interface ObjectStorage {
  /** `database`, `s3` or `file`, for logs and `rova storage migrate`. */
  readonly kind: 'database' | 's3' | 'file';
  /** Where, without credentials (`database`, `s3://bucket/prefix`, `file:///srv/rova-files`). */
  readonly label: string;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** null when there is no such object; StorageUnavailableError when the storage cannot be reached. */
  get(key: string): Promise<StoredObject | null>;
  /** Removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every key under the prefix, in key order. */
  keys(prefix: string): AsyncIterable<string>;
  close(): Promise<void>;
}

/** The storage did not answer (network, 5xx, disk): the request may succeed as it is later, so a 503. */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

const KEY = /^[a-z0-9][a-z0-9-]*(\/[a-zA-Z0-9][a-zA-Z0-9._-]*)+$/;

/** Keys are built by Rova; this keeps a bug from ever turning one into a path outside the store. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..') || key.length > 400)
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}

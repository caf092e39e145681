import type * as S3Sdk from '@aws-sdk/client-s3';
import { checkKey, StorageUnavailableError, type ObjectStorage } from './types.js';

export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket ('' or ending in '/'). */
  prefix: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/**
 * `s3://bucket[/prefix]?endpoint=https://…&region=…&force_path_style=true`. Credentials never go in the URL (it
 * is printed in logs): the AWS SDK's usual chain reads AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile or an
 * instance role.
 */
export function parseS3Url(raw: string): S3Location {
  const u = new URL(raw);
  if (u.protocol !== 's3:' || !u.hostname)
    throw new Error('STORAGE_URL: an S3 location is s3://bucket[/prefix]?endpoint=…&region=…');
  if (u.username || u.password)
    throw new Error('STORAGE_URL: no credentials in the URL — set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  const known = new Set(['endpoint', 'region', 'force_path_style']);
  for (const k of u.searchParams.keys())
    if (!known.has(k)) throw new Error(`STORAGE_URL: unknown parameter "${k}" (known: ${[...known].join(', ')})`);
  const endpoint = u.searchParams.get('endpoint') ?? undefined;
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint)) throw new Error('STORAGE_URL: endpoint must be an http(s) URL');
  const style = u.searchParams.get('force_path_style');
  if (style !== null && style !== 'true' && style !== 'false')
    throw new Error('STORAGE_URL: force_path_style is true or false');
  const prefix = decodeURIComponent(u.pathname).replace(/^\/+/, '');
  return {
    bucket: u.hostname,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    endpoint,
    region: u.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
    // S3-compatible servers (MinIO, Ceph, s3rver) address buckets by path; AWS by host name
    forcePathStyle: style === null ? Boolean(endpoint) : style === 'true',
  };
}

type Sdk = typeof S3Sdk;

function missing(sdk: Sdk, err: unknown): boolean {
  return (
    err instanceof sdk.S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  );
}

/** The SDK is loaded on first use: a node storing files in the database never pays its start-up cost. */
export function s3Storage(loc: S3Location): ObjectStorage {
  let opened: Promise<{ sdk: Sdk; client: S3Sdk.S3Client }> | undefined;
  const open = () =>
    (opened ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: loc.region,
        endpoint: loc.endpoint,
        forcePathStyle: loc.forcePathStyle,
        maxAttempts: 2,
        requestHandler: { connectionTimeout: 3_000, requestTimeout: 15_000 },
      }),
    })));
  const label = `s3://${loc.bucket}/${loc.prefix}${loc.endpoint ? ` at ${loc.endpoint}` : ''}`;
  const unavailable = (err: unknown) =>
    new StorageUnavailableError(`S3 storage ${label} failed: ${(err as Error).name}: ${(err as Error).message}`, {
      cause: err,
    });
  const Key = (key: string) => loc.prefix + checkKey(key);
  return {
    kind: 's3',
    label,
    async put(key, data, contentType) {
      const { sdk, client } = await open();
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: loc.bucket,
            Key: Key(key),
            Body: data,
            ContentType: contentType,
            ContentLength: data.length,
          }),
        );
      } catch (err) {
        throw unavailable(err);
      }
    },
    async get(key) {
      const { sdk, client } = await open();
      try {
        const r = await client.send(new sdk.GetObjectCommand({ Bucket: loc.bucket, Key: Key(key) }));
        const bytes = await r.Body!.transformToByteArray();
        return { data: Buffer.from(bytes), contentType: r.ContentType ?? 'application/octet-stream' };
      } catch (err) {
        if (missing(sdk, err)) return null;
        throw unavailable(err);
      }
    },
    async delete(key) {
      const { sdk, client } = await open();
      try {
        await client.send(new sdk.DeleteObjectCommand({ Bucket: loc.bucket, Key: Key(key) }));
      } catch (err) {
        if (!missing(sdk, err)) throw unavailable(err);
      }
    },
    async *keys(prefix) {
      const { sdk, client } = await open();
      let token: string | undefined;
      do {
        let page;
        try {
          page = await client.send(
            new sdk.ListObjectsV2Command({ Bucket: loc.bucket, Prefix: loc.prefix + prefix, ContinuationToken: token }),
          );
        } catch (err) {
          throw unavailable(err);
        }
        for (const o of page.Contents ?? []) if (o.Key) yield o.Key.slice(loc.prefix.length);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async close() {
      if (opened) (await opened).client.destroy();
    },
  };
}

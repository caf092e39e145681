import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api, currentNonce, toApiError, unwrapRental } from '../api/client';
import type { paths } from '../api/schema';
import { ErrorState, Loading } from './State';
import { useToast } from './Toast';

export type Photo =
  paths['/wp-json/rova-rental/v1/vehicles/{id}/photos']['get']['responses'][200]['content']['application/json']['data'] &
    object extends infer L
    ? L extends (infer P)[]
      ? P
      : never
    : never;

const OP = '/wp-json/rova-rental/v1/vehicles/{id}/photos' as const;
const VE = '/wp-json/rova-rental/v1/vendor/vehicles/{id}/photos' as const;

/** The photo routes of one side: the operator's (any vehicle) or the vendor's (own vehicles). */
function photoApi(side: 'operator' | 'vendor', id: number) {
  const path = { params: { path: { id } } };
  const one = (photoId: number) => ({ params: { path: { id, photoId } } });
  return {
    list: () => unwrapRental(side === 'operator' ? api.GET(OP, path) : api.GET(VE, path)),
    order: (photo_ids: number[]) =>
      unwrapRental(
        side === 'operator'
          ? api.PUT(`${OP}/order`, { ...path, body: { photo_ids } })
          : api.PUT(`${VE}/order`, { ...path, body: { photo_ids } }),
      ),
    alt: (photoId: number, alt: string) =>
      unwrapRental(
        side === 'operator'
          ? api.PUT(`${OP}/{photoId}`, { ...one(photoId), body: { alt } })
          : api.PUT(`${VE}/{photoId}`, { ...one(photoId), body: { alt } }),
      ),
    remove: (photoId: number) =>
      unwrapRental(
        side === 'operator' ? api.DELETE(`${OP}/{photoId}`, one(photoId)) : api.DELETE(`${VE}/{photoId}`, one(photoId)),
      ),
    /** multipart/form-data: the generated client speaks JSON, so the upload is a plain fetch with the nonce. */
    async upload(files: File[]): Promise<Photo[]> {
      const form = new FormData();
      for (const f of files) form.append('photos', f, f.name);
      const url = (side === 'operator' ? OP : VE).replace('{id}', String(id));
      const nonce = currentNonce();
      const res = await fetch(url, {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
        headers: nonce ? { 'X-WP-Nonce': nonce } : {},
      });
      const body = (await res.json().catch(() => null)) as { data?: Photo[] } | null;
      if (!res.ok || !body?.data) throw toApiError(res.status, body);
      return body.data;
    },
  };
}

/**
 * A vehicle's photos: add several at once (JPEG, PNG or WebP), put them in order (the first is the cover shown on
 * the storefront's result card), give each an alternative text, delete. Used by the operator's vehicle form and the
 * vendor portal's.
 */
export function PhotoManager({
  side,
  vehicleId,
  name,
}: {
  side: 'operator' | 'vendor';
  vehicleId: number;
  name: string;
}) {
  const qc = useQueryClient();
  const toast = useToast();
  const p = photoApi(side, vehicleId);
  const key = ['vehicle-photos', side, vehicleId];
  const q = useQuery({ queryKey: key, queryFn: p.list });
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const done = (message: string) => async (photos: Photo[]) => {
    qc.setQueryData(key, photos);
    setError(null);
    toast(message);
    // the vehicle lists carry the photos too
    await qc.invalidateQueries({ queryKey: ['vehicles'] });
  };
  const failed = (err: unknown) => setError(err instanceof Error ? err.message : String(err));
  const upload = useMutation({ mutationFn: p.upload, onSuccess: done('Photos added'), onError: failed });
  const order = useMutation({ mutationFn: p.order, onSuccess: done('Photos reordered'), onError: failed });
  const alt = useMutation({
    mutationFn: (a: { id: number; alt: string }) => p.alt(a.id, a.alt),
    onSuccess: done('Alternative text saved'),
    onError: failed,
  });
  const remove = useMutation({ mutationFn: p.remove, onSuccess: done('Photo deleted'), onError: failed });
  const busy = upload.isPending || order.isPending || alt.isPending || remove.isPending;
  const photos = q.data ?? [];
  const move = (i: number, by: -1 | 1) => {
    const ids = photos.map((x) => x.id);
    const [x] = ids.splice(i, 1);
    ids.splice(i + by, 0, x!);
    order.mutate(ids);
  };
  return (
    <section aria-labelledby={headingId} className="mt-6 border-t pt-4">
      <h3 id={headingId} className="mb-2 font-semibold">
        Photos
      </h3>
      <p className="mb-2 text-sm">
        JPEG, PNG or WebP, up to 15 MB each. The first photo is the cover on the storefront.
      </p>
      {q.error ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <Loading />
      ) : (
        <ol className="space-y-3" aria-label={`Photos of ${name}`}>
          {photos.map((ph, i) => (
            <li key={ph.id} className="flex gap-3" data-photo={ph.id}>
              <img
                src={ph.variants.thumb.jpg}
                width={ph.variants.thumb.width}
                height={ph.variants.thumb.height}
                alt={ph.alt}
                className="h-auto w-20 rounded border object-cover"
              />
              <div className="flex flex-1 flex-col gap-1 text-sm">
                <span>{i === 0 ? 'Cover photo' : `Photo ${i + 1}`}</span>
                <AltField
                  key={`${ph.id}-${ph.alt}`}
                  label={`Alternative text of photo ${i + 1}`}
                  initial={ph.alt}
                  disabled={busy}
                  onSave={(text) => alt.mutate({ id: ph.id, alt: text })}
                />
                <div className="flex flex-wrap gap-2">
                  <button type="button" className="btn" disabled={busy || i === 0} onClick={() => move(i, -1)}>
                    Move earlier<span className="sr-only"> (photo {i + 1})</span>
                  </button>
                  <button
                    type="button"
                    className="btn"
                    disabled={busy || i === photos.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    Move later<span className="sr-only"> (photo {i + 1})</span>
                  </button>
                  <button type="button" className="btn btn-danger" disabled={busy} onClick={() => remove.mutate(ph.id)}>
                    Delete<span className="sr-only"> photo {i + 1}</span>
                  </button>
                </div>
              </div>
            </li>
          ))}
          {photos.length === 0 && <li className="text-sm">No photos yet.</li>}
        </ol>
      )}
      <label className="mt-3 flex flex-col text-sm">
        Add photos
        <input
          ref={input}
          className="input"
          type="file"
          multiple
          accept="image/jpeg,image/png,image/webp"
          disabled={busy}
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            if (files.length) upload.mutate(files, { onSettled: () => input.current && (input.current.value = '') });
          }}
        />
      </label>
      {upload.isPending && <p role="status">Uploading…</p>}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </section>
  );
}

function AltField(p: { label: string; initial: string; disabled: boolean; onSave(text: string): void }) {
  const [text, setText] = useState(p.initial);
  return (
    <form
      className="flex gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        p.onSave(text);
      }}
    >
      <label className="flex flex-1 flex-col">
        <span className="sr-only">{p.label}</span>
        <input
          className="input"
          value={text}
          maxLength={300}
          placeholder="Describe the photo"
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="submit" className="btn" disabled={p.disabled || text === p.initial}>
        Save text
      </button>
    </form>
  );
}

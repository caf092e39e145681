import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, toApiError, unwrap, ApiError } from '../../api/client';
import type { paths } from '../../api/schema';

export type Currencies =
  paths['/wp-json/rova-fx/v1/currencies']['get']['responses']['200']['content']['application/json'];
export type CurrencyRow = Currencies['currencies'][number];
export type Settings = paths['/wp-json/rova-fx/v1/settings']['get']['responses']['200']['content']['application/json'];
export type SyncResult =
  paths['/wp-json/rova-fx/v1/rates/sync']['post']['responses']['200']['content']['application/json'];

/** A failed sync: every source that was tried and why it failed (the 502 body's `data.attempts`). */
export class SyncError extends ApiError {
  constructor(
    base: ApiError,
    readonly attempts: { source: string; error: string }[],
  ) {
    super(base.status, base.code, base.message, base.fields);
  }
}

export const useFxSettings = () =>
  useQuery({ queryKey: ['currency', 'settings'], queryFn: () => unwrap(api.GET('/wp-json/rova-fx/v1/settings')) });
export const useCurrencies = () =>
  useQuery({ queryKey: ['currency', 'currencies'], queryFn: () => unwrap(api.GET('/wp-json/rova-fx/v1/currencies')) });
export const useRatesPreview = () =>
  useQuery({ queryKey: ['currency', 'preview'], queryFn: () => unwrap(api.GET('/wp-json/rova-fx/v1/rates/preview')) });

export function useSaveSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<Settings>) => unwrap(api.POST('/wp-json/rova-fx/v1/settings', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['currency'] }),
  });
}

export function useSaveCurrencies() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (currencies: CurrencyRow[]) =>
      unwrap(api.POST('/wp-json/rova-fx/v1/currencies', { body: { currencies } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['currency'] }),
  });
}

export function useSyncNow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<SyncResult> => {
      const r = await api.POST('/wp-json/rova-fx/v1/rates/sync');
      if (r.response.ok && r.data) return r.data;
      const err = toApiError(r.response.status, r.error);
      const data = (r.error as { data?: { attempts?: unknown } } | undefined)?.data;
      const attempts = Array.isArray(data?.attempts) ? (data.attempts as { source: string; error: string }[]) : [];
      throw new SyncError(err, attempts);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['currency'] }),
  });
}

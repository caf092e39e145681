import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapList } from '../../api/client';
import type { paths } from '../../api/schema';

export type AuditQuery = paths['/wp-json/rova/v1/audit-log']['get']['parameters']['query'];
export type NewKey = paths['/wp-json/rova/v1/api-keys']['post']['requestBody']['content']['application/json'];

export const useApiKeys = (page: number, perPage: number) =>
  useQuery({
    queryKey: ['system', 'keys', page, perPage],
    queryFn: () => unwrapList(api.GET('/wp-json/rova/v1/api-keys', { params: { query: { page, per_page: perPage } } })),
    placeholderData: keepPreviousData,
  });

export const useUsers = (
  page: number,
  perPage: number,
  role?: 'administrator' | 'shop_manager' | 'vendor' | 'customer',
) =>
  useQuery({
    queryKey: ['system', 'users', page, perPage, role],
    queryFn: () =>
      unwrapList(
        api.GET('/wp-json/rova/v1/users', {
          params: { query: { page, per_page: perPage, ...(role ? { role } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

export const useAudit = (q: AuditQuery) =>
  useQuery({
    queryKey: ['system', 'audit', q],
    queryFn: () => unwrapList(api.GET('/wp-json/rova/v1/audit-log', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });

export const useWebhooks = () =>
  useQuery({ queryKey: ['system', 'webhooks'], queryFn: () => unwrap(api.GET('/wp-json/rova/v1/webhooks')) });

export const useDeliveries = (id: number | null, page: number) =>
  useQuery({
    queryKey: ['system', 'deliveries', id, page],
    queryFn: () =>
      unwrapList(
        api.GET('/wp-json/rova/v1/webhooks/{id}/deliveries', {
          params: { path: { id: id! }, query: { page, per_page: 20 } },
        }),
      ),
    enabled: id !== null,
  });

export function useCreateKey() {
  const qc = useQueryClient();
  return useMutation({
    // a replay answers the key again (sealed on the server), so a lost answer does not lose the once-shown key
    mutationFn: ({ body, key }: { body: NewKey; key: string }) =>
      unwrap(api.POST('/wp-json/rova/v1/api-keys', { params: { header: { 'idempotency-key': key } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['system', 'keys'] }),
  });
}

export function useRevokeKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/wp-json/rova/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['system', 'keys'] }),
  });
}

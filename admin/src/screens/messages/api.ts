import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrapRental } from '../../api/client';
import type { paths } from '../../api/schema';

export type InboxQuery = NonNullable<paths['/wp-json/rova-rental/v1/messages']['get']['parameters']['query']>;
export type ThreadStatus = 'pending' | 'replied' | 'closed';

export const useInbox = (q: InboxQuery) =>
  useQuery({
    queryKey: ['messages', 'list', q],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/messages', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });

export const useThread = (id: number) =>
  useQuery({
    queryKey: ['messages', 'one', id],
    queryFn: () => unwrapRental(api.GET('/wp-json/rova-rental/v1/messages/{id}', { params: { path: { id } } })),
  });

export function useReply(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { message: string; close_thread?: boolean }) =>
      unwrapRental(api.POST('/wp-json/rova-rental/v1/messages/{id}/reply', { params: { path: { id } }, body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['messages'] }),
  });
}

export function useSetStatus(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (status: ThreadStatus) =>
      unwrapRental(
        api.POST('/wp-json/rova-rental/v1/messages/{id}/status', { params: { path: { id } }, body: { status } }),
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['messages'] }),
  });
}

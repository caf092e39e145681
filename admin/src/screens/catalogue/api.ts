import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapList } from '../../api/client';
import type { paths } from '../../api/schema';

type Q<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer T } } } ? NonNullable<T> : never;
export type ProductQuery = Q<'/wp-json/wc/v3/products'>;
type PatchBody<P extends keyof paths> = paths[P] extends {
  patch: { requestBody: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
export type ProductPatch = PatchBody<'/wp-json/wc/v3/products/{id}'>;
export type VariationPatch = PatchBody<'/wp-json/wc/v3/products/{id}/variations/{vid}'>;

export const useProducts = (q: ProductQuery) =>
  useQuery({
    queryKey: ['catalogue', 'products', q],
    queryFn: () => unwrapList(api.GET('/wp-json/wc/v3/products', { params: { query: q } })),
    placeholderData: keepPreviousData,
  });
export const useProduct = (id: number | null) =>
  useQuery({
    queryKey: ['catalogue', 'product', id],
    enabled: id !== null,
    queryFn: () => unwrap(api.GET('/wp-json/wc/v3/products/{id}', { params: { path: { id: id! } } })),
  });
export const useVariations = (id: number | null, enabled: boolean) =>
  useQuery({
    queryKey: ['catalogue', 'variations', id],
    enabled: id !== null && enabled,
    queryFn: () =>
      unwrapList(
        api.GET('/wp-json/wc/v3/products/{id}/variations', {
          params: { path: { id: id! }, query: { per_page: 100, status: 'any' } },
        }),
      ),
  });

function useCatalogueMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: ['catalogue'] }) });
}
export const useSaveProduct = () =>
  useCatalogueMutation((a: { id: number; body: ProductPatch }) =>
    unwrap(api.PATCH('/wp-json/wc/v3/products/{id}', { params: { path: { id: a.id } }, body: a.body })),
  );
export const useSaveVariation = () =>
  useCatalogueMutation((a: { id: number; vid: number; body: VariationPatch }) =>
    unwrap(
      api.PATCH('/wp-json/wc/v3/products/{id}/variations/{vid}', {
        params: { path: { id: a.id, vid: a.vid } },
        body: a.body,
      }),
    ),
  );

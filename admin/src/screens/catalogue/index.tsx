import { useSearchParams } from 'react-router';
import { useStore } from '../../api/session';
import { DataTable, useTableState, type Column } from '../../components/DataTable';
import { SearchBox } from '../../components/SearchBox';
import { SlideOver } from '../../components/SlideOver';
import { PageHeader } from '../../components/State';
import { formatMoney } from '../../lib/format';
import { stockText } from '../../lib/stock';
import { withFilter } from '../../lib/table-state';
import { ProductEditor } from './ProductEditor';
import { useProducts, type ProductQuery } from './api';

const STATUSES = ['any', 'publish', 'draft', 'pending', 'private'] as const;

/** Catalogue (wc/v3 products): search and status in the URL, edit in a slide-over (`?product=id`) with the variations. */
export default function Catalogue() {
  const store = useStore();
  const [state, setState] = useTableState(['search', 'status'], { sort: 'title', desc: false });
  const q = useProducts({
    page: state.page,
    per_page: state.perPage,
    orderby: (state.sort ?? 'title') as ProductQuery['orderby'],
    order: state.desc ? 'desc' : 'asc',
    ...(state.filters.search ? { search: state.filters.search } : {}),
    status: (state.filters.status || 'any') as ProductQuery['status'],
  });
  const [params, setParams] = useSearchParams();
  const openId = Number(params.get('product')) || null;
  const setOpen = (id: number | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (id === null) n.delete('product');
      else n.set('product', String(id));
      return n;
    });
  type Row = NonNullable<typeof q.data>['items'][number];
  const price = (v: string | null | undefined) => (v ? formatMoney(v, store.currency) : '—');
  const columns: Column<Row>[] = [
    { id: 'title', header: 'Product', sortable: true, cell: (r) => r.name },
    { id: 'sku', header: 'SKU', cell: (r) => r.sku || '—' },
    { id: 'type', header: 'Type', cell: (r) => r.type },
    {
      id: 'price',
      header: 'Price',
      sortable: true,
      numeric: true,
      cell: (r) => (r.type === 'variable' ? `from ${price(r.price)}` : price(r.price)),
    },
    { id: 'stock', header: 'Stock', cell: stockText },
    { id: 'status', header: 'Status', cell: (r) => r.status },
    {
      id: 'actions',
      header: 'Actions',
      cell: (r) => (
        <button type="button" className="btn" aria-label={`Edit ${r.name}`} onClick={() => setOpen(r.id)}>
          Edit
        </button>
      ),
    },
  ];
  return (
    <div>
      <PageHeader title="Catalogue" />
      <div className="mb-3 flex flex-wrap items-end gap-3" role="search" aria-label="Filters">
        <SearchBox
          label="Search products"
          value={state.filters.search ?? ''}
          onChange={(v) => setState(withFilter(state, 'search', v))}
        />
        <label className="flex flex-col text-sm">
          <span className="mb-1 font-medium">Status</span>
          <select
            className="input"
            value={state.filters.status ?? ''}
            onChange={(e) => setState(withFilter(state, 'status', e.target.value))}
          >
            <option value="">Any</option>
            {STATUSES.slice(1).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <DataTable
        label="Products"
        columns={columns}
        rows={q.data?.items}
        total={q.data?.total}
        state={state}
        onState={setState}
        rowKey={(r) => String(r.id)}
        loading={q.isLoading}
        error={q.error}
        onRetry={() => void q.refetch()}
        empty="No products match."
      />
      <SlideOver
        open={openId !== null}
        onClose={() => setOpen(null)}
        title={q.data?.items.find((p) => p.id === openId)?.name ?? 'Product'}
      >
        {openId !== null && <ProductEditor id={openId} />}
      </SlideOver>
    </div>
  );
}

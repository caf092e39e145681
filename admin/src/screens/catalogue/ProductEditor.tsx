import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useStore } from '../../api/session';
import { FormField, applyServerErrors } from '../../components/FormField';
import { ErrorState, Loading } from '../../components/State';
import { useToast } from '../../components/Toast';
import { formatMoney } from '../../lib/format';
import { useProduct, useSaveProduct, useSaveVariation, useVariations, type ProductPatch } from './api';

interface ProductValues {
  name: string;
  sku: string;
  regular_price: string;
  sale_price: string;
  status: NonNullable<ProductPatch['status']>;
  stock_status: NonNullable<ProductPatch['stock_status']>;
  manage_stock: boolean;
  stock_quantity: string;
  backorders: NonNullable<ProductPatch['backorders']>;
  featured: boolean;
}
const FIELDS = [
  'name',
  'sku',
  'regular_price',
  'sale_price',
  'status',
  'stock_status',
  'manage_stock',
  'stock_quantity',
  'backorders',
  'featured',
] as const;
const QUANTITY = { value: /^-?\d{1,9}$/, message: 'A whole number like 12' };
const BACKORDERS: { value: ProductValues['backorders']; label: string }[] = [
  { value: 'no', label: 'Do not allow' },
  { value: 'notify', label: 'Allow, but notify the customer' },
  { value: 'yes', label: 'Allow' },
];
const PRICE = { value: /^\d+(\.\d{1,2})?$/, message: 'A price like 19.90' };

/** Edit form of one product; a variable product's price lives on its variations, listed below with their own editors. */
export function ProductEditor({ id }: { id: number }) {
  const p = useProduct(id);
  if (p.error) return <ErrorState error={p.error} onRetry={() => void p.refetch()} />;
  if (!p.data) return <Loading />;
  return <ProductForm key={p.data.id} product={p.data} />;
}

type Product = NonNullable<ReturnType<typeof useProduct>['data']>;

function productValues(product: Product): ProductValues {
  return {
    name: product.name,
    sku: product.sku ?? '',
    regular_price: product.regular_price ?? '',
    sale_price: product.sale_price ?? '',
    status: product.status as ProductValues['status'],
    stock_status: product.stock_status as ProductValues['stock_status'],
    manage_stock: product.manage_stock,
    stock_quantity: product.stock_quantity === null ? '' : String(product.stock_quantity),
    backorders: product.backorders,
    featured: product.featured,
  };
}

function ProductForm({ product }: { product: Product }) {
  const toast = useToast();
  const save = useSaveProduct();
  const variable = product.type === 'variable';
  const form = useForm<ProductValues>({ defaultValues: productValues(product) });
  // A newer copy of the product (after a save, or a variation's change to it) updates the fields the operator has
  // not touched since; what they typed meanwhile stays (remounting the form here lost input typed after a save).
  useEffect(() => {
    form.reset(productValues(product), { keepDirtyValues: true });
  }, [form, product]);
  const managed = form.watch('manage_stock');
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    // with stock managed, the status follows the quantity and backorders (the server derives it); without, it is chosen
    const stock: Partial<ProductPatch> = v.manage_stock
      ? {
          manage_stock: true,
          stock_quantity: v.stock_quantity.trim() === '' ? null : Number(v.stock_quantity),
          backorders: v.backorders,
        }
      : { manage_stock: false, stock_status: v.stock_status };
    const body: ProductPatch = {
      name: v.name.trim(),
      sku: v.sku.trim(),
      status: v.status,
      featured: v.featured,
      ...stock,
    };
    if (!variable) Object.assign(body, { regular_price: v.regular_price.trim(), sale_price: v.sale_price.trim() });
    try {
      await save.mutateAsync({ id: product.id, body });
      toast('Product saved');
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, FIELDS));
    }
  });
  const err = form.formState.errors;
  return (
    <div className="space-y-6">
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Product">
        <FormField label="Name" error={err.name?.message}>
          <input className="input w-full" {...form.register('name', { required: 'Name is required' })} />
        </FormField>
        <FormField label="SKU" error={err.sku?.message}>
          <input className="input w-full" {...form.register('sku')} />
        </FormField>
        {!variable && (
          <div className="grid grid-cols-2 gap-3">
            <FormField label="Regular price" error={err.regular_price?.message}>
              <input
                className="input w-full"
                inputMode="decimal"
                {...form.register('regular_price', { pattern: PRICE })}
              />
            </FormField>
            <FormField label="Sale price" error={err.sale_price?.message} hint="Empty: not on sale">
              <input
                className="input w-full"
                inputMode="decimal"
                {...form.register('sale_price', { pattern: PRICE })}
              />
            </FormField>
          </div>
        )}
        <div className="grid grid-cols-2 gap-3">
          <FormField label="Status" error={err.status?.message}>
            <select className="input w-full" {...form.register('status')}>
              {['publish', 'draft', 'pending', 'private'].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </FormField>
          <FormField
            label="Stock status"
            error={err.stock_status?.message}
            hint={managed ? 'Follows the quantity and backorders' : undefined}
          >
            <select className="input w-full" disabled={managed} {...form.register('stock_status')}>
              {['instock', 'outofstock', 'onbackorder'].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <fieldset className="mb-3">
          <legend className="sr-only">Stock</legend>
          <div className="mb-3 flex items-center gap-2">
            <input id={`manage-stock-${product.id}`} type="checkbox" {...form.register('manage_stock')} />
            <label htmlFor={`manage-stock-${product.id}`}>Manage stock</label>
          </div>
          {managed && (
            <div className="grid grid-cols-2 gap-3">
              <FormField label="Stock quantity" error={err.stock_quantity?.message} hint="Empty: not counted">
                <input
                  className="input w-full"
                  inputMode="numeric"
                  {...form.register('stock_quantity', { pattern: QUANTITY })}
                />
              </FormField>
              <FormField label="Backorders" error={err.backorders?.message}>
                <select className="input w-full" {...form.register('backorders')}>
                  {BACKORDERS.map((b) => (
                    <option key={b.value} value={b.value}>
                      {b.label}
                    </option>
                  ))}
                </select>
              </FormField>
            </div>
          )}
        </fieldset>
        <div className="mb-3 flex items-center gap-2">
          <input id={`featured-${product.id}`} type="checkbox" {...form.register('featured')} />
          <label htmlFor={`featured-${product.id}`}>Featured</label>
        </div>
        {formError && (
          <p role="alert" className="mb-3 text-red-700 dark:text-red-400">
            {formError}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Saving…' : 'Save product'}
        </button>
      </form>
      {variable && <Variations productId={product.id} />}
    </div>
  );
}

function Variations({ productId }: { productId: number }) {
  const v = useVariations(productId, true);
  return (
    <section aria-labelledby="pe-variations">
      <h3 id="pe-variations" className="mb-2 font-semibold">
        Variations
      </h3>
      {v.error ? (
        <ErrorState error={v.error} onRetry={() => void v.refetch()} />
      ) : !v.data ? (
        <Loading />
      ) : v.data.items.length === 0 ? (
        <p>No variations.</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="variations">
          {v.data.items.map((x) => (
            <VariationRow key={x.id + x.date_modified_gmt} productId={productId} variation={x} />
          ))}
        </ul>
      )}
    </section>
  );
}

type Variation = NonNullable<ReturnType<typeof useVariations>['data']>['items'][number];

function VariationRow({ productId, variation }: { productId: number; variation: Variation }) {
  const store = useStore();
  const toast = useToast();
  const save = useSaveVariation();
  const label = variation.attributes.map((a) => a.option).join(' / ') || `#${variation.id}`;
  const form = useForm<{ regular_price: string; sale_price: string }>({
    defaultValues: { regular_price: variation.regular_price ?? '', sale_price: variation.sale_price ?? '' },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      await save.mutateAsync({
        id: productId,
        vid: variation.id,
        body: { regular_price: v.regular_price.trim(), sale_price: v.sale_price.trim() },
      });
      toast(`Variation ${label} saved`);
    } catch (e) {
      setFormError(applyServerErrors(e, form.setError, ['regular_price', 'sale_price']));
    }
  });
  const err = form.formState.errors;
  return (
    <li className="py-3" data-variation={variation.id}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={`Variation ${label}`}>
        <p className="mb-2 font-medium">
          {label}{' '}
          <span className="font-normal text-slate-600 dark:text-slate-400">
            · {variation.status} · now {variation.price ? formatMoney(variation.price, store.currency) : '—'}
          </span>
        </p>
        <div className="grid grid-cols-[1fr_1fr_auto] items-end gap-3">
          <FormField label={`Regular price (${label})`} error={err.regular_price?.message}>
            <input
              className="input w-full"
              inputMode="decimal"
              {...form.register('regular_price', { pattern: PRICE })}
            />
          </FormField>
          <FormField label={`Sale price (${label})`} error={err.sale_price?.message}>
            <input className="input w-full" inputMode="decimal" {...form.register('sale_price', { pattern: PRICE })} />
          </FormField>
          <button type="submit" className="btn mb-3" disabled={form.formState.isSubmitting}>
            Save
          </button>
        </div>
        {formError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {formError}
          </p>
        )}
      </form>
    </li>
  );
}

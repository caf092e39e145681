import { useStore } from '../../api/session';
import { formatMoney } from '../../lib/format';
import { vehicleSource } from '../../components/pickers';
import { EntityCrud, type EntityRow, type FieldSpec, type FilterSpec } from '../../components/EntityCrud';
import type { Column } from '../../components/DataTable';
import { pricingRulesApi } from './api';

const KINDS = ['season', 'weekend', 'duration', 'addon', 'tax', 'deposit', 'one_way'] as const;
const FILTERS: FilterSpec[] = [{ key: 'kind', label: 'Kind', kind: 'select', options: KINDS }];
const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'kind', label: 'Kind', kind: 'select', options: KINDS, required: true },
  { name: 'scope', label: 'Scope', kind: 'select', options: ['global', 'category', 'vehicle'], required: true },
  { name: 'category', label: 'Category', kind: 'text', nullable: true },
  {
    name: 'vehicle_id',
    label: 'Vehicle',
    kind: 'picker',
    picker: vehicleSource,
    nullable: true,
    hint: 'Vehicle-scoped rules only',
  },
  { name: 'start_date', label: 'Start date', kind: 'date', nullable: true },
  { name: 'end_date', label: 'End date', kind: 'date', nullable: true },
  { name: 'recurring', label: 'Recurs every year', kind: 'checkbox' },
  {
    name: 'multiplier',
    label: 'Multiplier',
    kind: 'number',
    nullable: true,
    hint: 'Season and weekend rules: 1.2 = +20 %',
  },
  { name: 'min_days', label: 'Minimum days', kind: 'number', nullable: true, step: '1' },
  { name: 'percent', label: 'Percent', kind: 'number', nullable: true },
  { name: 'amount', label: 'Amount', kind: 'number', nullable: true, step: '0.01' },
  { name: 'charge', label: 'Charge', kind: 'select', options: ['per_day', 'per_booking'], nullable: true },
  { name: 'code', label: 'Code', kind: 'text', nullable: true, hint: 'Add-ons: what a booking names (a–z, 0–9, _ -)' },
  {
    name: 'max_per_day',
    label: 'Maximum per booking',
    kind: 'number',
    nullable: true,
    step: '1',
    hint: 'Add-ons: the most units a customer may take at a time (e.g. 3 child seats); empty = one (a yes/no extra)',
  },
  { name: 'priority', label: 'Priority', kind: 'number', step: '1' },
  { name: 'is_active', label: 'Active', kind: 'checkbox' },
];
/** A rule's value by its kind (the other kinds' fields may hold 0s): a multiplier, a percentage, or an amount of money
 * in the store's currency — an add-on's per day or per booking, with its maximum; a one-way fee's per booking. */
const valueOf = (r: EntityRow, currency: string) => {
  if (r.kind === 'season' || r.kind === 'weekend') return r.multiplier != null ? `× ${String(r.multiplier)}` : '—';
  if (r.kind === 'addon') {
    if (r.amount == null) return '—';
    const per = r.charge === 'per_day' ? ' / day' : r.charge === 'per_booking' ? ' / booking' : '';
    const max = r.max_per_day != null ? ` (max ${String(r.max_per_day)})` : '';
    return `${formatMoney(Number(r.amount), currency)}${per}${max}`;
  }
  if (r.kind === 'one_way') return r.amount != null ? `${formatMoney(Number(r.amount), currency)} / booking` : '—';
  return r.percent != null ? `${String(r.percent)} %` : '—';
};
const columnsFor = (currency: string): Column<EntityRow>[] => [
  { id: 'name', header: 'Name', cell: (r) => String(r.name) },
  { id: 'kind', header: 'Kind', cell: (r) => String(r.kind) },
  { id: 'scope', header: 'Scope', cell: (r) => String(r.scope ?? 'global') },
  { id: 'value', header: 'Value', numeric: true, cell: (r) => valueOf(r, currency) },
  { id: 'is_active', header: 'Active', cell: (r) => (r.is_active ? 'yes' : 'no') },
];

export default function PricingRules() {
  const store = useStore();
  return (
    <EntityCrud
      screen="pricing-rules"
      title="Pricing rules"
      singular="Rule"
      columns={columnsFor(store.currency)}
      filters={FILTERS}
      fields={FIELDS}
      api={pricingRulesApi}
      nameOf={(r) => String(r.name)}
      defaults={{ kind: 'season', scope: 'global', is_active: true, priority: 0 }}
    />
  );
}

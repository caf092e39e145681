import { locationSource } from '../../components/pickers';
import { useStore } from '../../api/session';
import { EntityCrud, type EntityRow, type FieldSpec, type FilterSpec } from '../../components/EntityCrud';
import type { Column } from '../../components/DataTable';
import { formatMoney } from '../../lib/format';
import { vehiclesApi } from './api';
import { PhotoManager } from '../../components/PhotoManager';

const STATUSES = ['active', 'inactive', 'maintenance'] as const;
const FILTERS: FilterSpec[] = [
  { key: 'search', label: 'Search', kind: 'text' },
  { key: 'status', label: 'Status', kind: 'select', options: STATUSES },
  { key: 'category', label: 'Category', kind: 'text' },
];
const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'price_per_day', label: 'Price per day', kind: 'number', required: true, step: '0.01' },
  { name: 'status', label: 'Status', kind: 'select', options: STATUSES, required: true },
  { name: 'category', label: 'Category', kind: 'text' },
  { name: 'brand', label: 'Brand', kind: 'text' },
  { name: 'model', label: 'Model', kind: 'text' },
  { name: 'year', label: 'Year', kind: 'number', nullable: true, step: '1' },
  { name: 'seats', label: 'Seats', kind: 'number', nullable: true, step: '1' },
  { name: 'doors', label: 'Doors', kind: 'number', nullable: true, step: '1' },
  { name: 'transmission', label: 'Transmission', kind: 'select', options: ['manual', 'automatic'] },
  { name: 'fuel_type', label: 'Fuel', kind: 'select', options: ['petrol', 'diesel', 'hybrid', 'electric', 'lpg'] },
  { name: 'service_type', label: 'Service', kind: 'select', options: ['rental', 'transfer', 'both'] },
  { name: 'location_id', label: 'Location', kind: 'picker', picker: locationSource, nullable: true },
  { name: 'deposit_percent', label: 'Deposit %', kind: 'number', nullable: true },
];

export default function Vehicles() {
  const store = useStore();
  const columns: Column<EntityRow>[] = [
    { id: 'name', header: 'Name', cell: (r) => String(r.name) },
    { id: 'status', header: 'Status', cell: (r) => String(r.status) },
    { id: 'category', header: 'Category', cell: (r) => String(r.category ?? '—') },
    { id: 'service_type', header: 'Service', cell: (r) => String(r.service_type ?? '—') },
    {
      id: 'price_per_day',
      header: 'Price per day',
      numeric: true,
      cell: (r) => formatMoney(Number(r.price_per_day), store.currency),
    },
  ];
  return (
    <EntityCrud
      screen="vehicles"
      title="Vehicles"
      singular="Vehicle"
      columns={columns}
      filters={FILTERS}
      fields={FIELDS}
      api={vehiclesApi}
      nameOf={(r) => String(r.name)}
      defaults={{ status: 'active', service_type: 'rental' }}
      extra={(r) => <PhotoManager side="operator" vehicleId={r.id} name={String(r.name)} />}
    />
  );
}

import { locationSource } from '../../components/pickers';
import { useStore } from '../../api/session';
import { EntityCrud, type EntityRow, type FieldSpec } from '../../components/EntityCrud';
import type { Column } from '../../components/DataTable';
import { formatMoney } from '../../lib/format';
import { transferRoutesApi } from './api';

const FIELDS: FieldSpec[] = [
  { name: 'origin', label: 'Origin', kind: 'text', required: true },
  { name: 'destination', label: 'Destination', kind: 'text', required: true },
  { name: 'origin_location_id', label: 'Origin location', kind: 'picker', picker: locationSource, nullable: true },
  {
    name: 'destination_location_id',
    label: 'Destination location',
    kind: 'picker',
    picker: locationSource,
    nullable: true,
  },
  { name: 'pricing', label: 'Pricing', kind: 'select', options: ['fixed', 'calculated'], required: true },
  { name: 'base_price', label: 'Base price', kind: 'number', step: '0.01' },
  { name: 'price_per_km', label: 'Price per km', kind: 'number', step: '0.01' },
  { name: 'min_price', label: 'Minimum price', kind: 'number', step: '0.01' },
  { name: 'distance_km', label: 'Distance (km)', kind: 'number' },
  { name: 'duration_min', label: 'Duration (minutes)', kind: 'number', step: '1' },
  { name: 'is_active', label: 'Active', kind: 'checkbox' },
];

export default function TransferRoutes() {
  const store = useStore();
  const columns: Column<EntityRow>[] = [
    { id: 'route', header: 'Route', cell: (r) => `${String(r.origin)} → ${String(r.destination)}` },
    { id: 'pricing', header: 'Pricing', cell: (r) => String(r.pricing) },
    { id: 'distance_km', header: 'Distance (km)', numeric: true, cell: (r) => String(r.distance_km) },
    { id: 'price', header: 'Price', numeric: true, cell: (r) => formatMoney(Number(r.price), store.currency) },
    { id: 'is_active', header: 'Active', cell: (r) => (r.is_active ? 'yes' : 'no') },
  ];
  return (
    <EntityCrud
      screen="transfer-routes"
      title="Transfer routes"
      singular="Route"
      columns={columns}
      filters={[]}
      fields={FIELDS}
      api={transferRoutesApi}
      nameOf={(r) => `${String(r.origin)} → ${String(r.destination)}`}
      defaults={{ pricing: 'fixed', is_active: true }}
    />
  );
}

import { EntityCrud, type EntityRow, type FieldSpec, type FilterSpec } from '../../components/EntityCrud';
import type { Column } from '../../components/DataTable';
import { locationsApi } from './api';

const TYPES = ['airport', 'hotel', 'port', 'station', 'city_center', 'office', 'other'] as const;
const FILTERS: FilterSpec[] = [
  { key: 'type', label: 'Type', kind: 'select', options: TYPES },
  { key: 'city', label: 'City', kind: 'text' },
];
const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'type', label: 'Type', kind: 'select', options: TYPES, required: true },
  { name: 'city', label: 'City', kind: 'text', required: true },
  { name: 'address', label: 'Address', kind: 'text' },
  { name: 'priority', label: 'Priority', kind: 'number', step: '1' },
  { name: 'allow_rental', label: 'Rental pick-up and return', kind: 'checkbox' },
  { name: 'allow_transfer', label: 'Transfers', kind: 'checkbox' },
];
const COLUMNS: Column<EntityRow>[] = [
  { id: 'name', header: 'Name', cell: (r) => String(r.name) },
  { id: 'type', header: 'Type', cell: (r) => String(r.type) },
  { id: 'city', header: 'City', cell: (r) => String(r.city) },
  { id: 'priority', header: 'Priority', numeric: true, cell: (r) => String(r.priority) },
  {
    id: 'services',
    header: 'Services',
    cell: (r) =>
      [r.allow_rental ? 'rental' : null, r.allow_transfer ? 'transfer' : null].filter(Boolean).join(', ') || '—',
  },
];

export default function Locations() {
  return (
    <EntityCrud
      screen="locations"
      title="Locations"
      singular="Location"
      columns={COLUMNS}
      filters={FILTERS}
      fields={FIELDS}
      api={locationsApi}
      nameOf={(r) => String(r.name)}
      defaults={{ type: 'city_center', allow_rental: true, allow_transfer: true, priority: 0 }}
    />
  );
}

import { api, unwrapRental } from '../api/client';
import type { paths } from '../api/schema';
import type { PickerOption, PickerSource } from './Combobox';

// Picker sources over the existing list endpoints (no id is ever typed by a person).

const PAGE = 10;

/** Customers: the admin list's own search (name or e-mail contains). */
export const customerSource: PickerSource = {
  key: 'customers',
  async search(text) {
    const d = await unwrapRental(
      api.GET('/wp-json/rova-rental/v1/customers', {
        params: { query: { per_page: PAGE, ...(text ? { search: text } : {}) } },
      }),
    );
    return d.items.map((c) => ({ id: c.id, label: c.name, detail: c.email }));
  },
  async get(id) {
    const c = await unwrapRental(api.GET('/wp-json/rova-rental/v1/customers/{id}', { params: { path: { id } } }));
    return { id: c.id, label: c.name, detail: c.email };
  },
};

type VehicleRow = NonNullable<
  paths['/wp-json/rova-rental/v1/vehicles/{id}']['get']['responses']['200']['content']['application/json']['data']
>;
const vehicleOption = (v: VehicleRow): PickerOption => ({
  id: v.id,
  label: v.name,
  detail: [v.category, v.status].filter(Boolean).join(' · ') || undefined,
});

/** Vehicles: the admin list's search. */
export const vehicleSource: PickerSource = {
  key: 'vehicles',
  async search(text) {
    const d = await unwrapRental(
      api.GET('/wp-json/rova-rental/v1/vehicles', {
        params: { query: { per_page: PAGE, ...(text ? { search: text } : {}) } },
      }),
    );
    return d.items.map(vehicleOption);
  },
  async get(id) {
    return vehicleOption(
      await unwrapRental(api.GET('/wp-json/rova-rental/v1/vehicles/{id}', { params: { path: { id } } })),
    );
  },
};

type LocationPage = NonNullable<
  paths['/wp-json/rova-rental/v1/locations']['get']['responses']['200']['content']['application/json']['data']
>;
type LocationRow = LocationPage['items'][number];
/**
 * Locations: the list has no text search and a store has tens of them, so one request fetches them (100 per page,
 * cached) and the typed text filters name and city here.
 */
async function allLocations(): Promise<LocationRow[]> {
  const d = await unwrapRental(api.GET('/wp-json/rova-rental/v1/locations', { params: { query: { per_page: 100 } } }));
  return d.items;
}
let locationCache: { at: number; rows: Promise<LocationRow[]> } | null = null;
const locations = () => {
  if (!locationCache || Date.now() - locationCache.at > 30_000)
    locationCache = { at: Date.now(), rows: allLocations() };
  return locationCache.rows.catch((e: unknown) => {
    locationCache = null;
    throw e;
  });
};
const locationOption = (l: LocationRow): PickerOption => ({
  id: l.id,
  label: l.name,
  detail: `${l.city} · ${l.type.replace('_', ' ')}`,
});

export const locationSource: PickerSource = {
  key: 'locations',
  async search(text) {
    const t = text.toLocaleLowerCase();
    return (await locations())
      .filter((l) => !t || l.name.toLocaleLowerCase().includes(t) || l.city.toLocaleLowerCase().includes(t))
      .slice(0, PAGE)
      .map(locationOption);
  },
  async get(id) {
    const l = (await locations()).find((x) => x.id === id);
    return l ? locationOption(l) : { id, label: `Location #${id} (inactive)` };
  },
};

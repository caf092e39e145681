import type { ComponentType } from 'react';

export interface Screen {
  /** URL segment under /admin/ (the screen owns everything below it, e.g. bookings/42). */
  path: string;
  label: string;
  /** Shown (in the navigation and as a route) only to users with this capability; the server still decides. */
  capability: string;
  /** Hidden from users holding any of these (e.g. "Become a vendor": not for operators nor vendors). */
  unless?: string[];
  /** The screen's lazy chunk: `admin/src/screens/<name>/index.tsx` with a default export. */
  load: () => Promise<{ default: ComponentType }>;
}

// One line per screen. Order = order in the navigation.
export const SCREENS: Screen[] = [
  { path: 'dashboard', label: 'Dashboard', capability: 'manage_options', load: () => import('./dashboard') },
  { path: 'review', label: 'Review', capability: 'manage_options', load: () => import('./review') },
  { path: 'reports', label: 'Reports', capability: 'manage_options', load: () => import('./reports') },
  { path: 'bookings', label: 'Bookings', capability: 'manage_options', load: () => import('./bookings') },
  { path: 'planner', label: 'Planner', capability: 'manage_options', load: () => import('./planner') },
  { path: 'customers', label: 'Customers', capability: 'manage_options', load: () => import('./customers') },
  { path: 'messages', label: 'Messages', capability: 'manage_options', load: () => import('./messages') },
  { path: 'system', label: 'System', capability: 'manage_options', load: () => import('./system') },
  { path: 'vehicles', label: 'Vehicles', capability: 'manage_options', load: () => import('./vehicles') },
  { path: 'locations', label: 'Locations', capability: 'manage_options', load: () => import('./locations') },
  {
    path: 'transfer-routes',
    label: 'Transfer routes',
    capability: 'manage_options',
    load: () => import('./transfer-routes'),
  },
  {
    path: 'pricing-rules',
    label: 'Pricing rules',
    capability: 'manage_options',
    load: () => import('./pricing-rules'),
  },
  { path: 'currency', label: 'Currency', capability: 'manage_options', load: () => import('./currency') },
  { path: 'catalogue', label: 'Catalogue', capability: 'manage_options', load: () => import('./catalogue') },
  { path: 'vendors', label: 'Vendors', capability: 'manage_options', load: () => import('./vendors') },
  { path: 'export', label: 'Export', capability: 'manage_options', load: () => import('./export') },
  // Vendor portal (/admin/vendor/…): a vendor sees only these; every number from the vendor's own routes
  {
    path: 'vendor/dashboard',
    label: 'Dashboard',
    capability: 'manage_vendor_account',
    load: () => import('./vendor-portal/dashboard'),
  },
  {
    path: 'vendor/vehicles',
    label: 'My vehicles',
    capability: 'manage_vendor_account',
    load: () => import('./vendor-portal/vehicles'),
  },
  {
    path: 'vendor/bookings',
    label: 'Bookings',
    capability: 'manage_vendor_account',
    load: () => import('./vendor-portal/bookings'),
  },
  {
    path: 'vendor/payouts',
    label: 'Payouts',
    capability: 'manage_vendor_account',
    load: () => import('./vendor-portal/payouts'),
  },
  {
    path: 'vendor/reports',
    label: 'Reports',
    capability: 'manage_vendor_account',
    load: () => import('./vendor-portal/reports'),
  },
  {
    path: 'vendor/profile',
    label: 'Profile',
    capability: 'manage_vendor_account',
    load: () => import('./vendor-portal/profile'),
  },
  // A signed-in customer (any user who is neither operator nor vendor) applies here
  {
    path: 'become-vendor',
    label: 'Become a vendor',
    capability: 'read',
    unless: ['manage_options', 'manage_vendor_account'],
    load: () => import('./become-vendor'),
  },
];

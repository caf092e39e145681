export const ROLES = ['administrator', 'shop_manager', 'vendor', 'customer'] as const;
export type Role = (typeof ROLES)[number];

export type Capability = 'manage_options' | 'manage_store' | 'manage_vendor_account' | 'read' | (string & {});

const ROLE_CAPS: Record<Role, readonly string[]> = {
  administrator: ['manage_options', 'manage_store', 'read'],
  shop_manager: ['manage_store', 'read'],
  vendor: ['manage_vendor_account', 'read'],
  customer: ['read'],
};

/** Administrators hold every capability, including ones modules add later. */
export function roleHasCap(role: Role, cap: Capability): boolean {
  return role === 'administrator' || ROLE_CAPS[role].includes(cap);
}

export function capsOf(role: Role): ReadonlySet<string> {
  return new Set(ROLE_CAPS[role]);
}

export function isRole(v: string): v is Role {
  return (ROLES as readonly string[]).includes(v);
}

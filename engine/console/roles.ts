/**
 * Who may see what in the console, as one table: admin (everything: users, exports, the form
 * trace, changing buyers), analyst (funnel, buyers, leads with personal data masked unless
 * revealed, each reveal audited), buyer-manager (pauses and changes buyers — caps, price, schedule,
 * filters — and sees what analysts see of them, but no leads), viewer (aggregates only). A page or API checks `may(role, permission)`; anything not
 * in the table is refused.
 */
export const ROLES = ['admin', 'analyst', 'viewer', 'buyer-manager'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'overview.view',
  'brands.view',
  'buyers.view',
  'buyers.manage',
  'leads.list',
  'leads.view',
  'leads.reveal',
  'leads.trace',
  'exports.run',
  'users.manage',
  'audit.view',
  'settings.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_RULES: Readonly<Record<Role, readonly Permission[]>> = {
  admin: PERMISSIONS,
  analyst: ['overview.view', 'brands.view', 'buyers.view', 'leads.list', 'leads.view', 'leads.reveal'],
  viewer: ['overview.view', 'brands.view'],
  'buyer-manager': ['overview.view', 'brands.view', 'buyers.view', 'buyers.manage'],
};

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

export function may(role: Role | undefined, permission: Permission): boolean {
  return !!role && isRole(role) && ROLE_RULES[role].includes(permission);
}

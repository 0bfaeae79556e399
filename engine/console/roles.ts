/**
 * Who may see what in the console, as one table: admin (everything: users, exports, the form
 * trace, changing buyers), analyst (funnel, buyers, leads with personal data masked unless
 * revealed, each reveal audited; releases or rejects leads screening held for review), buyer-manager (pauses and changes buyers — caps, price, schedule,
 * filters — and sees what analysts see of them, but no leads), viewer (aggregates only), editor
 * (edits and publishes brands in the studio: every brand, or only the brands its account names —
 * console_users.brands — and sees the overview; no leads, no buyers). Everyone else sees the
 * studio read-only. A page or API checks `may(role, permission)`; anything not
 * in the table is refused.
 */
export const ROLES = ['admin', 'analyst', 'viewer', 'buyer-manager', 'editor'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'overview.view',
  'brands.view',
  'buyers.view',
  'buyers.manage',
  'leads.list',
  'leads.view',
  'leads.reveal',
  'leads.review',
  'leads.trace',
  'exports.run',
  'users.manage',
  'audit.view',
  'studio.view',
  'studio.edit',
  'settings.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_RULES: Readonly<Record<Role, readonly Permission[]>> = {
  admin: PERMISSIONS,
  analyst: ['overview.view', 'brands.view', 'buyers.view', 'leads.list', 'leads.view', 'leads.reveal', 'leads.review', 'studio.view'],
  viewer: ['overview.view', 'brands.view', 'studio.view'],
  'buyer-manager': ['overview.view', 'brands.view', 'buyers.view', 'buyers.manage', 'studio.view'],
  editor: ['overview.view', 'brands.view', 'studio.view', 'studio.edit'],
};

/** What each permission lets a person do, in the words a refusal gives: "Your role (viewer) may not manage accounts". */
export const PERMISSION_WORDS: Readonly<Record<Permission, string>> = {
  'overview.view': 'see the overview',
  'brands.view': 'see the brands',
  'buyers.view': 'see the buyers',
  'buyers.manage': 'change buyers',
  'leads.list': 'list leads',
  'leads.view': 'open a lead',
  'leads.reveal': 'reveal a lead’s personal data',
  'leads.review': 'release or reject held leads',
  'leads.trace': 'open a lead’s form trace',
  'exports.run': 'export leads or upload costs',
  'users.manage': 'manage accounts',
  'audit.view': 'read the audit log',
  'studio.view': 'see the studio',
  'studio.edit': 'change brands',
  'settings.manage': 'change the settings',
};

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

export function may(role: Role | undefined, permission: Permission): boolean {
  return !!role && isRole(role) && ROLE_RULES[role].includes(permission);
}

export const isPermission = (value: unknown): value is Permission => typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);

/** The roles that may do something, in the table's order: what a refusal names as needed ("admin or analyst"). */
export const rolesThatMay = (permission: Permission): Role[] => ROLES.filter((r) => may(r, permission));

/**
 * Whether a user may change one brand in the studio: admins any; editors any when their account
 * names no brands (`brands` null or empty), else only those it names (comma-separated ids).
 */
export function mayEditBrand(user: { role: Role | string; brands?: string | null }, brandId: string): boolean {
  if (!isRole(user.role) || !may(user.role, 'studio.edit')) return false;
  if (user.role === 'admin') return true;
  const named = brandList(user.brands ?? '');
  return named.length === 0 || named.includes(brandId);
}

/** A brand id as brands/ names its files: lower-case letters, digits and hyphens. */
export const BRAND_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A list of brand ids as a person types it (comma- or space-separated); none: every brand. */
export const brandList = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,]+/)
      .map((b) => b.trim())
      .filter(Boolean),
  ),
];

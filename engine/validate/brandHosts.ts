/**
 * The hosts a brand answers on, from its document alone: what the catalog maps to the brand
 * (engine/site/hosts.ts) and what the store checks a publication's hosts against (two brands
 * never hold one host: engine/store/brandRevisions.ts).
 */

export const DEV_PREFIXES = ['dev.', 'test123.'] as const;
export const LOCAL_SUFFIX = '.localhost';

/** Every host a brand answers on: its production hosts, their dev./test123. sub-hosts, and {id}.localhost. */
export function hostsOfBrand(brand: { id: string; hosts: readonly string[] }): string[] {
  const out: string[] = [];
  for (const host of brand.hosts) {
    out.push(host);
    for (const prefix of DEV_PREFIXES) out.push(prefix + host.replace(/^www\./, ''));
  }
  out.push(brand.id + LOCAL_SUFFIX);
  return [...new Set(out)];
}

/** Hosts of a brand's separate blog: the blog host, its dev./test123. sub-hosts, and blog.{id}.localhost. */
export function blogHostsOf(brand: { id: string; blogHost?: string }): string[] {
  if (!brand.blogHost) return [];
  return [brand.blogHost, ...DEV_PREFIXES.map((p) => p + brand.blogHost), `blog.${brand.id}${LOCAL_SUFFIX}`];
}

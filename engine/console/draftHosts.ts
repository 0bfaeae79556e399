/**
 * The studio's warning that another brand's draft claims a host of this one. Two drafts may
 * claim one host (a draft is not live: refusing the second would let a draft no one publishes
 * hold a host), but only the first published keeps it, and the second's publication is refused
 * with a 409. Said when a draft is made or saved, and when the editor opens it, so that the
 * editors settle it before either publishes — never a refusal. A host a brand already answers on
 * is not a warning: the brand's check refuses it (engine/site/brandOverlay.ts).
 */
import type { Brand } from '../../schemas/brand.types';
import { getCatalog } from '../site/catalog';
import { draftsClaimingHosts, hostsOfDocument, type DraftHostClaim } from '../store/brandRevisions';
import type { Store } from '../store/db';
import { DEV_PREFIXES } from '../validate/brandHosts';

export interface HostWarning {
  /** the field it is about: /hosts/{i} for one of the brand's hosts, else /hosts */
  pointer: string;
  message: string;
}

export const draftHostWarning = (c: DraftHostClaim): string =>
  `host "${c.host}" is also claimed by the draft of ${c.name} (${c.brand}, version ${c.version}), not published yet: the brand published first keeps it, and publishing the other is then refused`;

/** Other brands' unpublished drafts claiming one of `hosts`, but not a host the catalog gives a brand already (that is a problem, said as one). */
export async function draftHostClaims(db: Store, id: string, hosts: readonly string[]): Promise<DraftHostClaim[]> {
  const { hostMap, blogHostMap } = getCatalog();
  const live = (h: string) => hostMap.has(h) || blogHostMap.has(h);
  return draftsClaimingHosts(
    db,
    id,
    hosts.filter((h) => !live(h)),
  );
}

/** The warnings of a brand document's hosts, each at the host it is about. */
export async function draftHostWarnings(db: Store, id: string, document: unknown): Promise<HostWarning[]> {
  const doc = document as Partial<Brand> | null;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.hosts)) return [];
  const hosts = doc.hosts.filter((h): h is string => typeof h === 'string');
  const claims = await draftHostClaims(db, id, hostsOfDocument({ ...doc, id, hosts } as Brand));
  return claims.map((c) => {
    // a dev./test123. host is made from a host of the brand's: the warning goes to that host
    const i = hosts.findIndex((h) => h === c.host || DEV_PREFIXES.some((p) => p + h.replace(/^www\./, '') === c.host));
    return { pointer: i >= 0 ? `/hosts/${i}` : '/hosts', message: draftHostWarning(c) };
  });
}

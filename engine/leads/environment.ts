/**
 * The environment a lead came from, by the host it was posted on: the dev. and test123. hosts
 * (engine/site/hosts.ts DEV_PREFIXES) are test sites, *.localhost a developer's machine; every other
 * host a brand answers on is production. A lead from anything but production is a test lead:
 * stored and listed like any other, delivered only to a destination that accepts test leads.
 * Pure functions; table-tested (tests/unit/lead-environment.test.ts).
 */
import { DEV_PREFIXES, isLocalHost } from '../site/hosts';

export type LeadEnvironment = 'production' | 'test' | 'development';

export function environmentOfHost(host: string): LeadEnvironment {
  const h = host.toLowerCase();
  if (DEV_PREFIXES.some((p) => h.startsWith(p))) return 'test';
  if (isLocalHost(h)) return 'development';
  return 'production';
}

export const isTestLead = (lead: { environment: string }): boolean => lead.environment !== 'production';

/** Whether a destination may receive this lead: production leads go everywhere, test leads only where accepted. */
export const destinationTakes = (dest: { acceptsTestLeads?: boolean }, lead: { environment: string }): boolean =>
  !isTestLead(lead) || dest.acceptsTestLeads === true;

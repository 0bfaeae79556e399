/**
 * The velocity check: the same phone, email, network (IPv4 address; IPv6 /64) or device asked
 * across all brands within an hour and within a day. The keys are short hashes, so the counts
 * can be kept and compared without the values (engine/store/screening.ts counts them).
 */
import { createHash } from 'node:crypto';
import type { ReasonCode } from './codes';

export type VelocityKind = 'phone' | 'email' | 'ip' | 'device';
/** earlier requests with the same key: within the last hour, within the last 24 hours */
export type VelocityCounts = Record<VelocityKind, { hour: number; day: number }>;

/** How many earlier requests each key may have before it is flagged (a shared network gets more room). */
export const VELOCITY_LIMITS: Record<VelocityKind, { hour: number; day: number }> = {
  phone: { hour: 1, day: 3 },
  email: { hour: 1, day: 3 },
  ip: { hour: 3, day: 10 },
  device: { hour: 2, day: 5 },
};

export function velocityReasons(counts: VelocityCounts): ReasonCode[] {
  const kinds = Object.keys(VELOCITY_LIMITS) as VelocityKind[];
  if (kinds.some((k) => counts[k].hour >= VELOCITY_LIMITS[k].hour)) return ['velocity-1h'];
  if (kinds.some((k) => counts[k].day >= VELOCITY_LIMITS[k].day)) return ['velocity-24h'];
  return [];
}

/**
 * The network of an address: an IPv4 address as it is, an IPv6 address's first 64 bits; '' (not
 * compared) for a loopback address, which names this machine (a proxy that did not pass the
 * client on), not a borrower's network — counting it would flag every request behind it.
 */
export function networkOf(ip: string): string {
  if (ip === '::1' || /^(::ffff:)?127\./i.test(ip)) return '';
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array<string>(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t] : h;
  return groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':');
}

/** A short hash of one key; '' stays '' (nothing to compare). */
export const velocityKey = (kind: VelocityKind, value: string): string =>
  value ? createHash('sha256').update(`${kind}:${value}`).digest('hex').slice(0, 20) : '';

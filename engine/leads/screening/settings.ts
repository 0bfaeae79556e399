/**
 * A brand's screening settings (brand document `screening`, schemas/brand.base.json), filled with
 * the defaults: every check flags (lowers the score) and fails open, outside scrubs are off, and
 * a lead under 40 is held back from buyers.
 */
import type { Brand } from '../../../schemas/brand.types';
import { CHECKS, type CheckName } from './codes';

export type CheckAction = 'off' | 'flag' | 'refuse';
export interface CheckSetting {
  action: CheckAction;
  /** when the check cannot run: open = as if it passed; closed = a reason code of its own */
  whenUnavailable: 'open' | 'closed';
}
export type BelowThreshold = 'refuse' | 'hold' | 'offer';
export interface ScreeningSettings {
  checks: Record<CheckName, CheckSetting>;
  /** leads scoring under this are treated as `belowThreshold` says */
  threshold: number;
  belowThreshold: BelowThreshold;
}

export const DEFAULT_THRESHOLD = 40;

export function screeningSettings(brand: Pick<Brand, 'screening'>): ScreeningSettings {
  const s = brand.screening ?? {};
  const checks = Object.fromEntries(
    CHECKS.map((c) => {
      const own = s.checks?.[c];
      const action: CheckAction = own?.action ?? (c === 'scrub' ? 'off' : 'flag');
      return [c, { action, whenUnavailable: own?.whenUnavailable ?? 'open' }];
    }),
  ) as Record<CheckName, CheckSetting>;
  return { checks, threshold: s.threshold ?? DEFAULT_THRESHOLD, belowThreshold: s.belowThreshold ?? 'hold' };
}

/**
 * The quality score and what happens to a lead: each reason a check reports (with its setting
 * "flag") lowers 100 by its weight; a check set to "refuse" refuses the lead outright when it
 * reports anything; under the brand's threshold the brand's choice applies — refuse it, hold it
 * for review, or offer it only to buyers that take low-quality leads.
 */
import { REASONS, UNAVAILABLE_WEIGHT, isReasonCode, type CheckName, type ReasonCode } from './codes';
import type { ScreeningSettings } from './settings';

/** What each check found: its codes, or undefined when it could not run. */
export type Findings = Partial<Record<CheckName, readonly ReasonCode[] | undefined>>;

export type Routing = 'offer' | 'refuse' | 'hold' | 'low-quality-buyers';
export type Band = 'high' | 'medium' | 'low';

export interface Screening {
  score: number;
  band: Band;
  /** the reason codes found, each once, in check order */
  codes: string[];
  routing: Routing;
}

export const bandOf = (score: number): Band => (score >= 80 ? 'high' : score >= 50 ? 'medium' : 'low');

export function scoreFindings(findings: Findings, settings: ScreeningSettings): Screening {
  const codes: string[] = [];
  let penalty = 0;
  let refused = false;
  for (const [check, found] of Object.entries(findings) as [CheckName, readonly ReasonCode[] | undefined][]) {
    const setting = settings.checks[check];
    if (setting.action === 'off') continue;
    if (found === undefined) {
      if (setting.whenUnavailable === 'closed') {
        codes.push(`${check}-unavailable`);
        penalty += UNAVAILABLE_WEIGHT;
        if (setting.action === 'refuse') refused = true;
      }
      continue;
    }
    for (const code of found) {
      if (codes.includes(code)) continue;
      codes.push(code);
      penalty += isReasonCode(code) ? REASONS[code].weight : 0;
      if (setting.action === 'refuse') refused = true;
    }
  }
  const score = Math.max(0, 100 - penalty);
  const below = score < settings.threshold;
  const routing: Routing = refused ? 'refuse' : !below ? 'offer' : settings.belowThreshold === 'offer' ? 'low-quality-buyers' : settings.belowThreshold;
  return { score, band: bandOf(score), codes, routing };
}

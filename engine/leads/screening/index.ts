/**
 * Screening one lead, on the server, after it is stored and before it is sold: every check's
 * findings, then the score, the reason codes and the routing (score.ts). Pure but for the
 * velocity counts and outside scrubs its caller supplies.
 */
import type { Country } from '../../browser/regions';
import type { FormSignals } from '../../browser/formSignals';
import { botReasons } from './bot';
import { consistencyReasons, type ConsistencyFacts } from './consistency';
import { emailReasons } from './email';
import { phoneReasons } from './phone';
import { scoreFindings, type Findings, type Screening } from './score';
import type { ScreeningSettings } from './settings';
import { velocityReasons, type VelocityCounts } from './velocity';
import type { ReasonCode } from './codes';

export interface ScreeningInput extends ConsistencyFacts {
  phone: string;
  email: string;
  signals?: FormSignals;
  trapFilled: boolean;
  /** undefined: the counts could not be read */
  velocity?: VelocityCounts;
  /** undefined: a scrub could not answer; [] when none is configured */
  scrubs?: ReasonCode[];
  /** the brand runs a consent provider (TrustedForm, Jornaya) and the lead came without its certificate */
  consentProviderMissing?: boolean;
}

export function screen(input: ScreeningInput, settings: ScreeningSettings): Screening {
  const findings: Findings = {
    phone: phoneReasons(input.phone, input.country as Country),
    email: emailReasons(input.email),
    velocity: input.velocity && velocityReasons(input.velocity),
    bot: botReasons(input.signals, input.trapFilled),
    consistency: consistencyReasons(input),
    scrub: input.scrubs,
    consentProvider: input.consentProviderMissing ? ['consent-provider-missing'] : [],
  };
  return scoreFindings(findings, settings);
}

export type { Screening } from './score';
export { screeningSettings } from './settings';

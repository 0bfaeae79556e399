/**
 * Bot signals from the form (engine/browser/formSignals.ts): a step finished faster than a person
 * reads and types it, no pointer and no key event at all, every field pasted, the trap field
 * filled, and a browser that says it is automated. Undefined signals (an old page, a form
 * provider's script) cannot be judged: the check reports itself unavailable.
 */
import type { FormSignals } from '../../browser/formSignals';
import type { ReasonCode } from './codes';

/** The fastest a person fills each step: amount and ZIP; contact (the browser may autofill it); income and date of birth (typed). */
export const MIN_STEP_MS = [1000, 1000, 1500];

export function botReasons(signals: FormSignals | undefined, trapFilled: boolean): ReasonCode[] | undefined {
  const out: ReasonCode[] = [];
  if (trapFilled) out.push('bot-trap-field');
  if (!signals) return trapFilled ? out : undefined;
  if (signals.stepMs.some((ms, i) => ms < (MIN_STEP_MS[i] ?? MIN_STEP_MS[MIN_STEP_MS.length - 1]!))) out.push('bot-fast');
  if (signals.pointerEvents === 0 && signals.keyEvents === 0) out.push('bot-no-input-events');
  if (signals.filledFields >= 3 && signals.pastedFields >= signals.filledFields) out.push('bot-paste-all');
  if (signals.webdriver) out.push('bot-webdriver');
  return out;
}

/**
 * Alert rules as pure functions (table tests in tests/unit/console-alerts.test.ts): what an admin
 * may set, and when each kind fires.
 *
 * - cap: a buyer has used 90 % and then 100 % of its daily or monthly cap (counted as the sale
 *   counts them: sold leads in the buyer's own day and month). Each level is its own episode, so
 *   the operator hears "90 %" once and "100 %" once, and both resolve when the day or month turns.
 * - acceptance: over the last N hours, a buyer accepted (bid on, or took a post of) less than X %
 *   of the leads offered to it; at least MIN_OFFERED offers, so one refusal at night is no alert.
 */

export const ALERT_KINDS = ['cap', 'acceptance'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const CAP_LEVELS = [90, 100] as const;
export const MIN_OFFERED = 5;
export const MAX_WINDOW_HOURS = 168;

export interface AlertRule {
  id: string;
  kind: AlertKind;
  /** a buyer id; '' = every buyer */
  subject: string;
  /** acceptance: the percentage under which it fires */
  threshold: number;
  windowHours: number;
}

export type RuleInput = { ok: true; rule: Omit<AlertRule, 'id'> } | { ok: false; problem: string };

/** An admin's form as a rule, or what is wrong with it. */
export function ruleOf(form: Record<string, string | undefined>, buyers: ReadonlySet<string>): RuleInput {
  const kind = form.kind ?? '';
  if (!(ALERT_KINDS as readonly string[]).includes(kind)) return { ok: false, problem: `The kind must be one of ${ALERT_KINDS.join(', ')}.` };
  const subject = (form.buyer ?? '').trim();
  if (subject && !buyers.has(subject)) return { ok: false, problem: 'Choose a buyer from the list, or every buyer.' };
  if (kind === 'cap') return { ok: true, rule: { kind, subject, threshold: 0, windowHours: 0 } };
  const threshold = Number(form.threshold);
  if (!/^\d{1,3}$/.test(form.threshold ?? '') || threshold < 1 || threshold > 100)
    return { ok: false, problem: 'The acceptance threshold is a whole percentage from 1 to 100.' };
  const windowHours = Number(form.window);
  if (!/^\d{1,3}$/.test(form.window ?? '') || windowHours < 1 || windowHours > MAX_WINDOW_HOURS)
    return { ok: false, problem: `The look-back window is a whole number of hours from 1 to ${MAX_WINDOW_HOURS}.` };
  return { ok: true, rule: { kind: 'acceptance', subject, threshold, windowHours } };
}

/** A rule as an operator reads it. */
export function ruleText(r: Pick<AlertRule, 'kind' | 'subject' | 'threshold' | 'windowHours'>): string {
  const who = r.subject ? `buyer ${r.subject}` : 'any buyer';
  return r.kind === 'cap'
    ? `${who} at ${CAP_LEVELS.join(' % and ')} % of a daily or monthly cap`
    : `${who} accepting under ${r.threshold} % of leads offered over the last ${r.windowHours} h`;
}

/** The cap levels a buyer has reached: [] under 90 %, [90] from 90 %, [90, 100] at the cap. */
export const capLevels = (sold: number, cap: number | undefined): number[] =>
  cap === undefined || cap <= 0 ? [] : CAP_LEVELS.filter((level) => sold * 100 >= cap * level);

/** Whether acceptance over the window is under the threshold (with enough offers to say). */
export const acceptanceLow = (offered: number, accepted: number, thresholdPct: number): boolean =>
  offered >= MIN_OFFERED && accepted * 100 < offered * thresholdPct;

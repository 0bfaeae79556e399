/**
 * Alert rules as pure functions (table tests in tests/unit/console-alerts.test.ts and
 * tests/unit/console-alerts-more.test.ts): what an admin may set, and when each kind fires.
 *
 * - cap: a buyer has used 90 % and then 100 % of its daily or monthly cap (counted as the sale
 *   counts them: sold leads in the buyer's own day and month). Each level is its own episode, so
 *   the operator hears "90 %" once and "100 %" once, and both resolve when the day or month turns.
 * - acceptance: over the last N hours, a buyer accepted (bid on, or took a post of) less than X %
 *   of the leads offered to it that it answered (an offer still out, or interrupted by our own
 *   sale stopping, is not its refusal); at least MIN_OFFERED offers, so one refusal at night is no alert.
 * - failures: in the last hour, a buyer's pings and posts that failed (no answer in time, a broken
 *   connection, a status other than 200, an answer we could not read or refused as hostile — not
 *   a plain "no bid" or "refused") reached a threshold: a count of calls, or a percentage of its
 *   calls (then with at least MIN_OFFERED calls).
 * - no-sale: no lead sold for N minutes while, over all of those minutes, at least one buyer was
 *   enabled and inside its schedule (the buyers as the console left them, not just their files).
 * - lead-rate: a brand's visit → lead rate over the last N whole hours fell under X % of its rate
 *   in the same hours a week earlier, each window with at least `minimum` visits so quiet hours
 *   never fire.
 */

export const ALERT_KINDS = ['cap', 'acceptance', 'failures', 'no-sale', 'lead-rate'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const CAP_LEVELS = [90, 100] as const;
export const MIN_OFFERED = 5;
export const MAX_WINDOW_HOURS = 168;
export const MAX_QUIET_MINUTES = 1440;
export const MAX_FAILED_CALLS = 10_000;
export const MAX_MINIMUM_VISITS = 100_000;
export const FAILURE_UNITS = ['%', 'calls'] as const;

export interface AlertRule {
  id: string;
  kind: AlertKind;
  /** a buyer id (cap, acceptance, failures) or a brand id (lead-rate); '' = every one */
  subject: string;
  /** acceptance, failures (%), lead-rate: a percentage; failures (calls): a count */
  threshold: number;
  windowHours: number;
  /** failures: '%' or 'calls'; '' otherwise */
  unit: string;
  /** no-sale: the quiet time */
  windowMinutes: number;
  /** lead-rate: the least visits in each window */
  minimum: number;
}

export type RuleFields = Omit<AlertRule, 'id'>;
export type RuleInput = { ok: true; rule: RuleFields } | { ok: false; problem: string };

/** Every refusal of ruleOf, word for word (the settings page shows them by key). */
export const RULE_PROBLEMS = {
  alert_kind: `The kind must be one of ${ALERT_KINDS.join(', ')}.`,
  alert_buyer: 'Choose a buyer from the list, or every buyer.',
  alert_brand: 'Choose a brand from the list, or every brand.',
  alert_threshold: 'The acceptance threshold is a whole percentage from 1 to 100.',
  alert_window: `The look-back window is a whole number of hours from 1 to ${MAX_WINDOW_HOURS}.`,
  alert_failures: `The failure threshold is a whole percentage from 1 to 100, or a whole number of calls from 1 to ${MAX_FAILED_CALLS}.`,
  alert_unit: 'The failure threshold counts either % of calls or calls.',
  alert_minutes: `The quiet time is a whole number of minutes from 1 to ${MAX_QUIET_MINUTES}.`,
  alert_rate: "The lead-rate threshold is a whole percentage of last week's rate from 1 to 100.",
  alert_minimum: `The least number of visits is a whole number from 1 to ${MAX_MINIMUM_VISITS}.`,
} as const;

const no = (key: keyof typeof RULE_PROBLEMS): RuleInput => ({ ok: false, problem: RULE_PROBLEMS[key] });

/** A whole number written plainly (no sign, unit or decimals) from 1 to max, or undefined. */
const whole = (text: string | undefined, max: number): number | undefined => {
  if (!/^\d{1,6}$/.test(text ?? '')) return undefined;
  const n = Number(text);
  return n >= 1 && n <= max ? n : undefined;
};

const EMPTY = { threshold: 0, windowHours: 0, unit: '', windowMinutes: 0, minimum: 0 };

/** An admin's form as a rule, or what is wrong with it. */
export function ruleOf(form: Record<string, string | undefined>, buyers: ReadonlySet<string>, brands: ReadonlySet<string> = new Set()): RuleInput {
  const kind = form.kind ?? '';
  if (!(ALERT_KINDS as readonly string[]).includes(kind)) return no('alert_kind');
  if (kind === 'no-sale') {
    const windowMinutes = whole(form.minutes, MAX_QUIET_MINUTES);
    return windowMinutes === undefined ? no('alert_minutes') : { ok: true, rule: { ...EMPTY, kind, subject: '', windowMinutes } };
  }
  if (kind === 'lead-rate') {
    const subject = (form.brand ?? '').trim();
    if (subject && !brands.has(subject)) return no('alert_brand');
    const threshold = whole(form.threshold, 100);
    if (threshold === undefined) return no('alert_rate');
    const windowHours = whole(form.window, MAX_WINDOW_HOURS);
    if (windowHours === undefined) return no('alert_window');
    const minimum = whole(form.minimum, MAX_MINIMUM_VISITS);
    if (minimum === undefined) return no('alert_minimum');
    return { ok: true, rule: { ...EMPTY, kind, subject, threshold, windowHours, minimum } };
  }
  const subject = (form.buyer ?? '').trim();
  if (subject && !buyers.has(subject)) return no('alert_buyer');
  if (kind === 'cap') return { ok: true, rule: { ...EMPTY, kind, subject } };
  if (kind === 'failures') {
    const unit = form.unit ?? '';
    if (!(FAILURE_UNITS as readonly string[]).includes(unit)) return no('alert_unit');
    const threshold = whole(form.threshold, unit === '%' ? 100 : MAX_FAILED_CALLS);
    if (threshold === undefined) return no('alert_failures');
    return { ok: true, rule: { ...EMPTY, kind, subject, threshold, windowHours: 1, unit } };
  }
  const threshold = whole(form.threshold, 100);
  if (threshold === undefined) return no('alert_threshold');
  const windowHours = whole(form.window, MAX_WINDOW_HOURS);
  if (windowHours === undefined) return no('alert_window');
  return { ok: true, rule: { ...EMPTY, kind: 'acceptance', subject, threshold, windowHours } };
}

/** A rule as an operator reads it. */
export function ruleText(r: Pick<AlertRule, 'kind' | 'subject' | 'threshold' | 'windowHours'> & Partial<AlertRule>): string {
  const who = r.subject ? `buyer ${r.subject}` : 'any buyer';
  switch (r.kind) {
    case 'cap':
      return `${who} at ${CAP_LEVELS.join(' % and ')} % of a daily or monthly cap`;
    case 'acceptance':
      return `${who} accepting under ${r.threshold} % of leads offered over the last ${r.windowHours} h`;
    case 'failures':
      return r.unit === 'calls'
        ? `${who} with ${r.threshold} or more failed or timed-out pings and posts in the last hour`
        : `${who} failing or timing out on ${r.threshold} % or more of its pings and posts in the last hour`;
    case 'no-sale':
      return `no sale for ${r.windowMinutes} min while buyers are scheduled`;
    case 'lead-rate':
      return `${r.subject ? `brand ${r.subject}` : 'any brand'} turning visits into leads at under ${r.threshold} % of its rate in the same ${r.windowHours} h last week (at least ${r.minimum} visits)`;
  }
}

/** The cap levels a buyer has reached: [] under 90 %, [90] from 90 %, [90, 100] at the cap. */
export const capLevels = (sold: number, cap: number | undefined): number[] =>
  cap === undefined || cap <= 0 ? [] : CAP_LEVELS.filter((level) => sold * 100 >= cap * level);

/** Whether acceptance over the window is under the threshold (with enough offers to say). */
export const acceptanceLow = (offered: number, accepted: number, thresholdPct: number): boolean =>
  offered >= MIN_OFFERED && accepted * 100 < offered * thresholdPct;

/** Whether a buyer's failed calls reached the threshold: a count, or a percentage of at least MIN_OFFERED calls. */
export const failuresHigh = (calls: number, failed: number, threshold: number, unit: string): boolean =>
  unit === 'calls' ? failed >= threshold : calls >= MIN_OFFERED && failed * 100 >= calls * threshold;

/** Whether a lead rate fell under thresholdPct of last week's, both windows having at least `minimum` visits and last week some leads. */
export const leadRateLow = (
  recent: { visits: number; leads: number },
  lastWeek: { visits: number; leads: number },
  thresholdPct: number,
  minimum: number,
): boolean =>
  recent.visits >= minimum &&
  lastWeek.visits >= minimum &&
  lastWeek.leads > 0 &&
  recent.leads * lastWeek.visits * 100 < thresholdPct * lastWeek.leads * recent.visits;

/** The instants to check a no-sale rule's coverage at: now and each minute back to the start of the quiet time. */
export const quietMinutes = (now: Date, minutes: number): Date[] => Array.from({ length: minutes + 1 }, (_, i) => new Date(now.getTime() - i * 60_000));

/**
 * Outside scrubs: a Do-Not-Call registry, a list of known TCPA litigators — services a brand may
 * contract for, consulted with the lead's phone and email only. Off by default (the brand's
 * `screening.checks.scrub`); a scrub that fails or answers late counts as "could not run".
 */
import { deadline } from '../../process/deadline';
import type { ReasonCode } from './codes';
import { scrubFromEnv } from './httpScrub';

export interface ScrubQuery {
  phone: string;
  email: string;
  country: string;
}
export interface Scrub {
  name: string;
  /** the codes the service reports for this contact ([] = clear); a throw = could not run */
  check(q: ScrubQuery, signal: AbortSignal): Promise<ReasonCode[]>;
}

/** Runs every scrub within `timeoutMs`; undefined when any could not answer. */
export async function runScrubs(scrubs: readonly Scrub[], q: ScrubQuery, timeoutMs = 300): Promise<ReasonCode[] | undefined> {
  if (!scrubs.length) return [];
  // a deadline, not AbortSignal.timeout: an answer that came in time while this process was busy still counts
  const { signal, clear } = deadline(timeoutMs);
  try {
    const answers = await Promise.all(
      scrubs.map((s) =>
        Promise.race([
          s.check(q, signal),
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`${s.name} timed out`)), { once: true })),
        ]),
      ),
    );
    clear();
    return [...new Set(answers.flat())];
  } catch {
    // the deadline stays armed: it still aborts the scrubs that have not answered
    return undefined;
  }
}

let configured: readonly Scrub[] | undefined;
/** The scrubs the server consults: the ones registered (setScrubs), else the service at SCREENING_SCRUB_URL (./httpScrub.ts), else none. */
export const configuredScrubs = (): readonly Scrub[] => (configured ??= [scrubFromEnv()].filter((s): s is Scrub => s !== undefined));
export function setScrubs(scrubs: readonly Scrub[] | undefined): void {
  configured = scrubs;
}

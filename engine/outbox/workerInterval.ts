/** LEADS_WORKER_INTERVAL_MS: how often the lead worker looks for deliveries that are due. */
export const DEFAULT_WORKER_INTERVAL_MS = 2000;

/**
 * The interval, or the default with the reason when the value is not a whole number of
 * milliseconds from 10 up: Number("2s") is NaN, and a timer of NaN fires after 1 ms, so a
 * typo would have the worker query the store a thousand times a second.
 */
export function workerIntervalFromEnv(env: Record<string, string | undefined> = process.env): { ms: number; problem?: string } {
  const raw = env.LEADS_WORKER_INTERVAL_MS?.trim();
  if (raw === undefined || raw === '') return { ms: DEFAULT_WORKER_INTERVAL_MS };
  if (/^\d{1,9}$/.test(raw) && Number(raw) >= 10) return { ms: Number(raw) };
  return {
    ms: DEFAULT_WORKER_INTERVAL_MS,
    problem: `LEADS_WORKER_INTERVAL_MS must be a whole number of milliseconds, 10 or more (e.g. 2000), not ${JSON.stringify(env.LEADS_WORKER_INTERVAL_MS)}`,
  };
}

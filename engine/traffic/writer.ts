/**
 * The traffic writer: the events API hands it visits and events and answers at once; the writer
 * stores them in batches (engine/store/traffic.ts writeTraffic, one transaction per batch) a
 * moment later, off the request's critical path. One writer per process, on globalThis (Next
 * bundles this module more than once).
 *
 * What is queued lives in memory until written: a process that dies loses at most the last
 * FLUSH_MS of events, an acceptable loss for counts, never for leads (those are stored before the
 * answer). The queue is bounded; past MAX_QUEUED events (queued and being written) new ones are
 * dropped and counted. One write at a time: what arrives meanwhile waits and goes in the next
 * batch (at most MAX_BATCH events a transaction), so under load batches grow instead of
 * writes piling up in memory.
 * Dropped events, and those the events API refused past its budget (`refuse`), are written by
 * hour and brand (traffic_refused) with the next batch, for the overview to say its counts are short.
 * A batch the store refuses is split by visit (halvesByVisit), again and again, so each visit
 * whose rows the store refuses costs its own rows, not every visitor's of that second.
 */
import { getStore, type Store } from '../store/db';
import { writeRefused, writeTraffic, type TrafficBatch, type TrafficEventInput } from '../store/traffic';
import { hourOf, type VisitRow } from '../store/trafficRules';
import type { ExposureInput } from '../store/experiments';

export const FLUSH_MS = Number(process.env.EVENTS_FLUSH_MS ?? 1000);
export const FLUSH_AT = 500;
export const MAX_QUEUED = 50_000;
export const MAX_BATCH = 5_000;

export interface TrafficWriter {
  add(batch: TrafficBatch): void;
  /** Counts `n` events of `brand` that were refused (not queued). */
  refuse(brand: string, n: number, now: Date): void;
  /** Writes what is queued now; resolves when it is stored (or failed and was logged). */
  flush(): Promise<void>;
  stats(): { queued: number; dropped: number; written: number; failed: number; batches: number };
}

const visitIdsOf = (batch: TrafficBatch): string[] => [
  ...new Set([...batch.visits.map((v) => v.id), ...batch.events.map((e) => e.visitId), ...(batch.exposures ?? []).map((x) => x.visitId)]),
];

/** A batch in two by visit (undefined when it has one visit): each visit's landing, events and exposures stay together and in order. */
export function halvesByVisit(batch: TrafficBatch): [TrafficBatch, TrafficBatch] | undefined {
  const ids = visitIdsOf(batch);
  if (ids.length < 2) return undefined;
  const first = new Set(ids.slice(0, Math.ceil(ids.length / 2)));
  const half = (inFirst: boolean): TrafficBatch => ({
    visits: batch.visits.filter((v) => first.has(v.id) === inFirst),
    events: batch.events.filter((e) => first.has(e.visitId) === inFirst),
    exposures: (batch.exposures ?? []).filter((x) => first.has(x.visitId) === inFirst),
  });
  return [half(true), half(false)];
}

/** Attempts a refused batch's splitting may take, past its first: enough to isolate a dozen bad visits among 5,000. */
export const SPLIT_ATTEMPTS_MAX = 256;

/**
 * Whether the store answered and refused these rows (their values), rather than failing: a
 * PostgreSQL cardinality violation (SQLSTATE class 21: two rows of one statement that the store
 * takes for one, as a lone surrogate it stores as U+FFFD beside a real U+FFFD, updating one rollup
 * row twice), data exception (22: a NUL, invalid UTF-8, a value too long), integrity constraint
 * violation (23) or a row past a limit (54); a SQLite constraint, a value too big or of the wrong
 * type. Lost connections, timeouts and shutdowns are not.
 */
export function refusesRows(err: Error | undefined): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return false;
  return /^(21|22|23|54)[0-9A-Z]{3}$/.test(code) || /^SQLITE_(CONSTRAINT|TOOBIG|MISMATCH)/.test(code);
}

export function trafficWriter(store: () => Promise<Store>, opts: { flushMs?: number; flushAt?: number; maxQueued?: number } = {}): TrafficWriter {
  const { flushMs = FLUSH_MS, flushAt = FLUSH_AT, maxQueued = MAX_QUEUED } = opts;
  let visits: VisitRow[] = [];
  let events: TrafficEventInput[] = [];
  let exposures: ExposureInput[] = [];
  let refused = new Map<string, { hour: string; brand: string; count: number }>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  /** events handed to a write that has not finished */
  let inflight = 0;
  const counts = { dropped: 0, written: 0, failed: 0, batches: 0 };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = { visits, events: events.slice(0, MAX_BATCH), exposures };
    const lost = [...refused.values()];
    visits = [];
    exposures = [];
    events = events.slice(MAX_BATCH);
    refused = new Map();
    inflight += batch.events.length;
    // One write at a time, in order: a visit is stored before the events that follow it.
    writing = writing.then(async () => {
      if (lost.length) await writeRefused(await store(), lost).catch((err: Error) => console.error('[traffic] refused counts not stored:', err.message));
      if (!batch.visits.length && !batch.events.length) return;
      try {
        const db = await store();
        const attempt = async (part: TrafficBatch): Promise<Error | undefined> => {
          try {
            const done = await writeTraffic(db, part);
            counts.written += done.events;
            counts.batches += 1;
            return undefined;
          } catch (err) {
            return err as Error;
          }
        };
        const lose = (part: TrafficBatch, err: Error) => {
          counts.failed += part.events.length;
          const ids = visitIdsOf(part);
          if (ids.length === 1) console.error('[traffic] visit %s: %d events not stored:', ids[0], part.events.length, err.message);
          else console.error('[traffic] a batch of %d visits and %d events was not stored:', part.visits.length, part.events.length, err.message);
        };
        // A batch the store refuses is split by visit, and each failing half split again, until
        // every visit whose rows the store refuses is alone: it loses its own rows, not every
        // visitor's of that second. When both halves fail and the store did not refuse their rows
        // (it is away, or failing), nothing more is tried, there or in what is left to split: a
        // store that is away costs three attempts, not one per visit. Rows refused in many visits
        // stop being split after SPLIT_ATTEMPTS_MAX attempts, whatever is left then being lost.
        let failing = false;
        let tries = 0;
        const narrow = async (part: TrafficBatch, err: Error): Promise<void> => {
          const split = halvesByVisit(part);
          if (!split || failing || tries >= SPLIT_ATTEMPTS_MAX) return lose(part, err);
          tries += 2;
          const errors = [await attempt(split[0]), await attempt(split[1])];
          if (errors[0] && errors[1] && !errors.some(refusesRows)) {
            failing = true;
            return lose(part, errors[1]);
          }
          for (const [i, e] of errors.entries()) if (e) await narrow(split[i]!, e);
        };
        const err = await attempt(batch);
        if (err) await narrow(batch, err);
      } catch (err) {
        counts.failed += batch.events.length;
        console.error('[traffic] a batch of %d visits and %d events was not stored:', batch.visits.length, batch.events.length, (err as Error).message);
      } finally {
        inflight -= batch.events.length;
        // What arrived during this write goes now if it makes a batch, else when the timer fires.
        if (events.length >= flushAt) void flush();
        else if (events.length || visits.length || refused.size) schedule();
      }
    });
    return writing;
  };

  const schedule = () => {
    if (!timer) {
      // While a write is in progress its end flushes what waits.
      timer = setTimeout(() => {
        timer = undefined;
        if (!inflight) void flush();
      }, flushMs);
      timer.unref?.();
    }
  };
  const refuse = (brand: string, n: number, now: Date) => {
    const hour = hourOf(now.toISOString());
    const key = `${hour} ${brand}`;
    const r = refused.get(key);
    if (r) r.count += n;
    else refused.set(key, { hour, brand, count: n });
    schedule();
  };

  return {
    add(batch) {
      if (events.length + inflight + batch.events.length > maxQueued) {
        counts.dropped += batch.events.length;
        if (batch.events[0]) refuse(batch.events[0].brand, batch.events.length, new Date());
        return;
      }
      visits.push(...batch.visits);
      events.push(...batch.events);
      if (batch.exposures) exposures.push(...batch.exposures);
      if (events.length >= flushAt && !inflight) void flush();
      else schedule();
    },
    refuse,
    // Everything queued now, in batches of MAX_BATCH (each chained after the one before).
    flush() {
      let last = flush();
      while (events.length) last = flush();
      return last;
    },
    stats: () => ({ queued: events.length, ...counts }),
  };
}

const SHARED = Symbol.for('loansites.trafficWriter');
const holder = globalThis as typeof globalThis & { [SHARED]?: TrafficWriter };

/** The process-wide writer, into the process-wide store. */
export function sharedTrafficWriter(): TrafficWriter {
  return (holder[SHARED] ??= trafficWriter(getStore));
}

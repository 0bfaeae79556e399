/**
 * The traffic writer: the events API hands it visits and events and answers at once; the writer
 * stores them in batches (engine/store/traffic.ts writeTraffic, one transaction per batch) a
 * moment later, off the request's critical path. One writer per process, on globalThis (Next
 * bundles this module more than once).
 *
 * What is queued lives in memory until written: a process that dies loses at most the last
 * FLUSH_MS of events, an acceptable loss for counts, never for leads (those are stored before the
 * answer). The queue is bounded; past MAX_QUEUED events new ones are dropped and counted.
 */
import { getStore, type Store } from '../store/db';
import { writeTraffic, type TrafficBatch, type TrafficEventInput } from '../store/traffic';
import type { VisitRow } from './rules';

export const FLUSH_MS = Number(process.env.EVENTS_FLUSH_MS ?? 1000);
export const FLUSH_AT = 500;
export const MAX_QUEUED = 50_000;

export interface TrafficWriter {
  add(batch: TrafficBatch): void;
  /** Writes what is queued now; resolves when it is stored (or failed and was logged). */
  flush(): Promise<void>;
  stats(): { queued: number; dropped: number; written: number; failed: number };
}

export function trafficWriter(store: () => Promise<Store>, opts: { flushMs?: number; flushAt?: number; maxQueued?: number } = {}): TrafficWriter {
  const { flushMs = FLUSH_MS, flushAt = FLUSH_AT, maxQueued = MAX_QUEUED } = opts;
  let visits: VisitRow[] = [];
  let events: TrafficEventInput[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const counts = { dropped: 0, written: 0, failed: 0 };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = { visits, events };
    visits = [];
    events = [];
    // One write at a time, in order: a visit is stored before the events that follow it.
    writing = writing.then(async () => {
      if (!batch.visits.length && !batch.events.length) return;
      try {
        const done = await writeTraffic(await store(), batch);
        counts.written += done.events;
      } catch (err) {
        counts.failed += batch.events.length;
        console.error('[traffic] a batch of %d visits and %d events was not stored:', batch.visits.length, batch.events.length, (err as Error).message);
      }
    });
    return writing;
  };

  return {
    add(batch) {
      if (events.length + batch.events.length > maxQueued) {
        counts.dropped += batch.events.length;
        return;
      }
      visits.push(...batch.visits);
      events.push(...batch.events);
      if (events.length >= flushAt) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref?.();
      }
    },
    flush,
    stats: () => ({ queued: events.length, ...counts }),
  };
}

const SHARED = Symbol.for('loansites.trafficWriter');
const holder = globalThis as typeof globalThis & { [SHARED]?: TrafficWriter };

/** The process-wide writer, into the process-wide store. */
export function sharedTrafficWriter(): TrafficWriter {
  return (holder[SHARED] ??= trafficWriter(getStore));
}

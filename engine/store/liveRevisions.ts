/**
 * The newest revision of every document of a kind, held in memory and kept current on every
 * instance without a restart, so the code that uses them (the sale, for buyers) reads them
 * synchronously at no cost per request:
 * - on the instance that saved: at once (publishRevision reloads before the console answers);
 * - elsewhere, with REDIS_URL: a message on the `loansites:revisions` channel reloads the kind;
 * - always, whether Redis is there or lost a message: every REVISIONS_POLL_MS (default 2000) one
 *   count of the kind's revisions is read, and a changed count reloads it.
 * So a change lands everywhere within one poll (~2 s), usually at once. A kind is watched from the
 * first time it is asked for; revisionsReady(kind) resolves once it was first read.
 *
 * The same channel carries announcements (announce / onAnnouncement): a few words one instance
 * tells the others, at once, with nothing stored — the CMS webhook's pages, for one. They are
 * JSON, which no kind's name is; an instance does not hear its own.
 *
 * Held on globalThis: Next bundles this module more than once (the instrumentation hook, each API
 * route, the console's pages), and all of them must see the same set.
 */
import { randomUUID } from 'node:crypto';
import type { createClient } from 'redis';
import { within } from '../process/deadline';
import { onShutdown } from '../process/shutdown.mjs';
import { getStore, type Store } from './db';
import { latestRevisions, revisionStamp, type Revision } from './revisions';

const CHANNEL = 'loansites:revisions';
type Client = ReturnType<typeof createClient>;

interface Kind {
  revisions: Map<string, Revision>;
  /** called after each load that replaced the set (engine/site/brandLive.ts rebuilds the catalog) */
  listeners: Set<(revisions: ReadonlyMap<string, Revision>, before: ReadonlyMap<string, Revision>) => void>;
  stamp: number;
  ready: Promise<void>;
  loading?: Promise<void>;
  /** told of a change while a load was under way: that load may have read the store before it, so another follows */
  again?: boolean;
}
interface Live {
  kinds: Map<string, Kind>;
  /** topic → who hears its announcements */
  announcements: Map<string, Set<(body: string) => void>>;
  /** this process, so that it does not hear its own announcements */
  self: string;
  timer?: NodeJS.Timeout;
  publisher?: Promise<Client | undefined>;
  subscriber?: Promise<Client | undefined>;
  /** every connection made, connected or still trying */
  clients: Set<Client>;
  stopped?: boolean;
}

const SHARED = Symbol.for('loansites.liveRevisions');
const holder = globalThis as typeof globalThis & { [SHARED]?: Live };

const pollMs = () => Math.max(100, Number(process.env.REVISIONS_POLL_MS) || 2000);

function live(): Live {
  if (!holder[SHARED]) {
    const state: Live = { kinds: new Map(), announcements: new Map(), self: randomUUID(), clients: new Set() };
    holder[SHARED] = state;
    state.timer = setInterval(() => void poll(state), pollMs());
    state.timer.unref();
    const url = process.env.REDIS_URL?.trim();
    if (url) state.subscriber = subscribe(state, url);
    onShutdown('revisions', 'connections', stopLiveRevisions);
  }
  return holder[SHARED];
}

async function load(kind: string, entry: Kind, db?: Store): Promise<void> {
  const store = db ?? (await getStore());
  const stamp = await revisionStamp(store, kind);
  const before = entry.revisions;
  entry.revisions = await latestRevisions(store, kind);
  entry.stamp = stamp;
  for (const listener of entry.listeners) {
    try {
      listener(entry.revisions, before);
    } catch (err) {
      console.error(`[revisions] a listener of the ${kind} revisions failed: ${(err as Error).message}`);
    }
  }
}

/**
 * Reloads a kind (one load at a time; a failure keeps the last set and is retried at the next
 * poll). Asked while a load is under way, it loads once more after it — the load under way may
 * have read the store before the change it is asked for — and resolves after that one.
 */
function reload(kind: string, entry: Kind, db?: Store): Promise<void> {
  if (entry.loading) {
    entry.again = true;
    // the load under way, then the one its end starts (entry.loading is that one by then)
    return entry.loading.then(() => entry.loading);
  }
  const loading = load(kind, entry, db)
    .catch((err: Error) => console.error(`[revisions] could not read the ${kind} revisions: ${err.message}`))
    .finally(() => {
      entry.loading = undefined;
      if (entry.again) {
        entry.again = false;
        void reload(kind, entry, db);
      }
    });
  entry.loading = loading;
  return loading;
}

function kindEntry(kind: string): Kind {
  const state = live();
  let entry = state.kinds.get(kind);
  if (!entry) {
    entry = { revisions: new Map(), listeners: new Set(), stamp: -1, ready: Promise.resolve() };
    state.kinds.set(kind, entry);
    entry.ready = reload(kind, entry);
  }
  return entry;
}

async function poll(state: Live): Promise<void> {
  if (state.stopped) return;
  for (const [kind, entry] of state.kinds) {
    if (entry.loading) continue;
    try {
      const stamp = await revisionStamp(await getStore(), kind);
      if (stamp !== entry.stamp) await reload(kind, entry);
    } catch {
      /* the store is down: the last set stays; the next poll tries again */
    }
  }
}

async function connect(state: Live, url: string, role: string): Promise<Client | undefined> {
  try {
    const { createClient: create } = await import('redis');
    const client: Client = create({ url, socket: { connectTimeout: 2000, reconnectStrategy: (n) => Math.min(200 * 2 ** n, 5000) } });
    // held before it connects: one that never does is still closed by stopLiveRevisions
    state.clients.add(client);
    let warned = false;
    client.on('error', (err: Error) => {
      if (!warned) console.error(`[revisions] Redis ${role} unavailable (changes still arrive by polling): ${err.message}`);
      warned = true;
    });
    client.on('ready', () => (warned = false));
    await client.connect();
    return client;
  } catch {
    return undefined;
  }
}

async function subscribe(state: Live, url: string): Promise<Client | undefined> {
  const client = await connect(state, url, 'subscriber');
  await client
    ?.subscribe(CHANNEL, (message) => {
      if (message.startsWith('{')) return hear(state, message);
      const entry = state.kinds.get(message);
      if (entry) void reload(message, entry);
    })
    .catch(() => undefined);
  return client;
}

/** The longest announcement heard (a page's path, say): anything longer on the channel is not ours. */
const ANNOUNCEMENT_MAX = 4096;

/** An announcement from another instance, to those who listen for its topic. */
function hear(state: Live, message: string): void {
  if (message.length > ANNOUNCEMENT_MAX) return;
  let said: unknown;
  try {
    said = JSON.parse(message);
  } catch {
    return;
  }
  const { from, topic, body } = (said ?? {}) as { from?: unknown; topic?: unknown; body?: unknown };
  if (from === state.self || typeof topic !== 'string' || typeof body !== 'string') return;
  for (const listener of state.announcements.get(topic) ?? []) {
    try {
      listener(body);
    } catch (err) {
      console.error(`[revisions] a listener of the "${topic}" announcements failed: ${(err as Error).message}`);
    }
  }
}

/** Calls `listener` with each announcement of `topic` another instance makes; returns the call that stops it. */
export function onAnnouncement(topic: string, listener: (body: string) => void): () => void {
  const state = live();
  let listeners = state.announcements.get(topic);
  if (!listeners) state.announcements.set(topic, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Tells the other instances, through Redis when there is one (without it there are none to tell);
 * best effort: with Redis lost, or an instance's subscription down, it is not heard.
 */
export async function announce(topic: string, body: string): Promise<void> {
  await tell(JSON.stringify({ from: live().self, topic, body }));
}

/** The newest revision per key of a kind, as this instance knows them now (empty until first read). */
export function currentRevisions<T = unknown>(kind: string): ReadonlyMap<string, Revision<T>> {
  return kindEntry(kind).revisions as Map<string, Revision<T>>;
}

/**
 * Calls `listener` after every load of the kind that replaced its set (the first read included),
 * with the set before; returns the call that stops it.
 */
export function onRevisions<T = unknown>(
  kind: string,
  listener: (revisions: ReadonlyMap<string, Revision<T>>, before: ReadonlyMap<string, Revision<T>>) => void,
): () => void {
  const entry = kindEntry(kind);
  const l = listener as (revisions: ReadonlyMap<string, Revision>, before: ReadonlyMap<string, Revision>) => void;
  entry.listeners.add(l);
  return () => entry.listeners.delete(l);
}

/** Resolves once the kind's revisions were read the first time. */
export const revisionsReady = (kind: string): Promise<void> => kindEntry(kind).ready;

/**
 * After a save: this instance takes the new revision at once (before the console answers), and
 * the others are told through Redis when there is one (their poll catches it otherwise).
 */
export async function publishRevision(kind: string, db?: Store): Promise<void> {
  const entry = kindEntry(kind);
  await entry.ready;
  await entry.loading;
  await reload(kind, entry, db);
  await tell(kind);
}

/** The longest a save or a webhook waits for Redis to take its message. */
const TELL_MS = 1000;

/**
 * Publishes on the channel, when there is Redis, without ever holding the caller for it: a
 * publisher that is not connected (Redis lost, or not up yet) is skipped — node-redis would queue
 * the message until Redis came back, and the console's save would wait as long — and a connected
 * one that does not answer is waited for TELL_MS at most. The others' polls catch a revision they
 * were not told of.
 */
async function tell(message: string): Promise<void> {
  const url = process.env.REDIS_URL?.trim();
  if (!url) return;
  const state = live();
  state.publisher ??= connect(state, url, 'publisher');
  const publishing = (async () => {
    const client = await state.publisher;
    if (client?.isReady) await client.publish(CHANNEL, message);
  })();
  await within(publishing, TELL_MS).catch(() => undefined);
}

/** Stops polling and closes the Redis connections (shutdown, tests). */
export async function stopLiveRevisions(): Promise<void> {
  const state = holder[SHARED];
  if (!state) return;
  holder[SHARED] = undefined;
  state.stopped = true;
  clearInterval(state.timer);
  // QUIT goes through the command queue: on a connection that is retrying (Redis gone) it would
  // wait for a reconnection that may never come, so that one is dropped instead
  for (const c of state.clients) {
    if (c.isReady) await c.quit().catch(() => undefined);
    else if (c.isOpen) await c.disconnect().catch(() => undefined);
  }
}

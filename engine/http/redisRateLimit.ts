/**
 * Rate limits counted in Redis, so that every instance behind the load balancer counts against
 * one allowance per client. The same fixed window as the memory limiter: one Lua script
 * increments the (rule, client, window) counter and sets its expiry on the first hit, atomic in
 * Redis, one round trip. Keys: `loansites:rate:{rule}:{client}`, the client
 * being an IPv4 address or an IPv6 /64 (engine/http/rateKey.ts), as in memory.
 *
 * When Redis does not answer (down, or slower than REDIS_RATE_TIMEOUT_MS, default 250 ms, counted
 * while this process runs: see engine/process/deadline.ts) the request is counted by this
 * process's own limiter instead: limits keep holding per instance and no visitor's lead is
 * refused because a cache server is away. The log says so once per absence.
 */
import type { createClient } from 'redis';
import { within } from '../process/deadline';
import { rateKey } from './rateKey';
import { onShutdown } from '../process/shutdown.mjs';
import type { RateDecision, RateLimiter, RateRule } from './rateLimit';

type Client = ReturnType<typeof createClient>;

const SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

// One connection per process: API routes are separate bundles, so it is kept on globalThis. The
// client library is loaded with the first connection: a server without REDIS_URL never loads it
// (its modules are ~3 MB of a server's memory).
const HOLDER = Symbol.for('loansites.rateLimitRedis');
type Held = { url: string; client?: Client; ready: Promise<unknown>; closed?: boolean; warned?: boolean; saidNotConnected?: boolean };
type Holder = { [HOLDER]?: Held };

function connection(url: string): Held {
  const g = globalThis as Holder;
  const known = g[HOLDER];
  if (known && known.url === url) return known;
  const held: Held = { url, ready: Promise.resolve() };
  held.ready = import('redis')
    .then(({ createClient: create }) => {
      if (held.closed) return;
      // No offline queue: while disconnected a command fails at once and the fallback counts.
      const client: Client = create({
        url,
        disableOfflineQueue: true,
        socket: { connectTimeout: 2000, reconnectStrategy: (n) => Math.min(200 * 2 ** n, 5000) },
      });
      client.on('error', (err: Error) => {
        if (!held.warned) console.error('[rate-limit] Redis unavailable, counting in this process until it is back:', err.message);
        held.warned = true;
      });
      client.on('ready', () => (held.warned = held.saidNotConnected = false));
      held.client = client;
      return client.connect();
    })
    .catch(() => undefined);
  g[HOLDER] = held;
  onShutdown('rate-limit Redis', 'connections', closeRateLimitRedis);
  return held;
}

export function redisRateLimiter(rule: RateRule, opts: { url: string; fallback: RateLimiter; timeoutMs?: number }): RateLimiter {
  const timeoutMs = opts.timeoutMs ?? Number(process.env.REDIS_RATE_TIMEOUT_MS ?? 250);
  return {
    async hit(address, now = Date.now(), cost = 1) {
      const key = rateKey(address);
      const held = connection(opts.url);
      // The first request of a process waits (briefly) for the connection; later ones never do.
      if (!held.client?.isReady) await within(held.ready, timeoutMs).catch(() => undefined);
      const client = held.client;
      if (!client?.isReady) {
        // Said once per absence (apart from the error's own line, which gives the reason): an
        // operator reading the log knows the limits held per instance meanwhile.
        if (!held.saidNotConnected) console.error(`[rate-limit] Redis not connected within ${timeoutMs} ms: counting in this process until it is`);
        held.saidNotConnected = true;
        return opts.fallback.hit(key, now, cost);
      }
      try {
        const reply = (await within(
          client.eval(SCRIPT, { keys: [`loansites:rate:${rule.name}:${key}`], arguments: [String(rule.windowMs), String(cost)] }),
          timeoutMs,
        )) as unknown[];
        const count = Number(reply[0]);
        const ttl = Number(reply[1]);
        const decision: RateDecision = { ok: count <= rule.limit, retryAfter: Math.max(1, Math.ceil(ttl / 1000)), remaining: Math.max(0, rule.limit - count) };
        return decision;
      } catch (err) {
        console.error(`[rate-limit] ${rule.name}: Redis failed (${(err as Error).message}); counted in this process`);
        return opts.fallback.hit(key, now, cost);
      }
    },
  };
}

/** Closes this process's connection (a process shutting down, tests). */
export async function closeRateLimitRedis(): Promise<void> {
  const g = globalThis as Holder;
  const held = g[HOLDER];
  g[HOLDER] = undefined;
  if (held) held.closed = true;
  // disconnect, not quit: quit waits for a server that may be gone.
  if (held?.client?.isOpen) await held.client.disconnect().catch(() => undefined);
}

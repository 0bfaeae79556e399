/**
 * Rate limits for what writes (session traces, leads, form traces) and what costs (geocoder,
 * GraphQL, sitemaps). A fixed window per (name, client): `limit` hits per `windowMs`, a client
 * being an IPv4 address or an IPv6 /64 (engine/http/rateKey.ts). Counted in the
 * process's memory (one instance), or in Redis when REDIS_URL is set, so several instances
 * share one allowance per client (engine/http/redisRateLimit.ts).
 */
import { ApiError } from './api';
import { rateKey } from './rateKey';
import { redisRateLimiter } from './redisRateLimit';

export interface RateDecision {
  ok: boolean;
  /** seconds until the window resets (for Retry-After) */
  retryAfter: number;
  remaining: number;
}

export interface RateLimiter {
  /** counts one request (or `cost` units) of the client at `address` (an IPv6 address counts for its /64) */
  hit(address: string, now?: number, cost?: number): Promise<RateDecision>;
}

export interface RateRule {
  name: string;
  limit: number;
  windowMs: number;
}

/** Windows kept at most; the oldest are dropped first, so a flood of new clients cannot grow memory without bound. */
const MAX_KEYS = 50_000;

export function memoryRateLimiter(rule: RateRule): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    async hit(address, now = Date.now(), cost = 1) {
      const key = rateKey(address);
      let w = windows.get(key);
      if (!w || now - w.start >= rule.windowMs) {
        windows.delete(key);
        if (windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value!);
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count += cost;
      const retryAfter = Math.max(1, Math.ceil((w.start + rule.windowMs - now) / 1000));
      return { ok: w.count <= rule.limit, retryAfter, remaining: Math.max(0, rule.limit - w.count) };
    },
  };
}

const limiters = new Map<string, RateLimiter>();

/** The process-wide limiter for a rule (one per name): in Redis when REDIS_URL is set, else in memory. */
export function rateLimiter(rule: RateRule): RateLimiter {
  let l = limiters.get(rule.name);
  if (!l) {
    const url = process.env.REDIS_URL;
    l = url ? redisRateLimiter(rule, { url, fallback: memoryRateLimiter(rule) }) : memoryRateLimiter(rule);
    limiters.set(rule.name, l);
  }
  return l;
}

/** 429 with Retry-After when `key` has used its allowance under `rule` (this request counting `cost` units; the reason says whose allowance). */
export async function enforceRateLimit(rule: RateRule, key: string, cost = 1, reason = 'Too many requests'): Promise<void> {
  const d = await rateLimiter(rule).hit(key, undefined, cost);
  if (!d.ok) throw new ApiError(429, `${reason}; try again in ${d.retryAfter} s`, [], { 'Retry-After': String(d.retryAfter) });
}

/** Limits in force; tests and operators can raise them through the environment. */
export const RATE_RULES = {
  sessionTrace: { name: 'session-trace', limit: Number(process.env.RATE_LIMIT_SESSION_TRACE ?? 60), windowMs: 60_000 },
  leads: { name: 'leads', limit: Number(process.env.RATE_LIMIT_LEADS ?? 10), windowMs: 60_000 },
  optOut: { name: 'opt-out', limit: Number(process.env.RATE_LIMIT_OPT_OUT ?? 10), windowMs: 60_000 },
  buyerApi: { name: 'buyer-api', limit: Number(process.env.RATE_LIMIT_BUYER_API ?? 600), windowMs: 60_000 },
  formTrace: { name: 'form-trace', limit: Number(process.env.RATE_LIMIT_FORM_TRACE ?? 60), windowMs: 60_000 },
  geocoder: { name: 'geocoder', limit: Number(process.env.RATE_LIMIT_GEOCODER ?? 300), windowMs: 60_000 },
  events: { name: 'events', limit: Number(process.env.RATE_LIMIT_EVENTS ?? 120), windowMs: 60_000 },
  /** one client's funnel events (a visit's landing counts as one): a tenth of the site's budget, so no one client can spend it all */
  eventsPerClient: { name: 'events-client', limit: Number(process.env.EVENTS_PER_CLIENT_PER_MINUTE ?? 600), windowMs: 60_000 },
  /** every client's funnel events together (a visit's landing counts as one): the whole site's ingest budget */
  eventsBudget: { name: 'events-budget', limit: Number(process.env.EVENTS_BUDGET_PER_MINUTE ?? 6000), windowMs: 60_000 },
  /** one visit's funnel events over a visit's idle time (a real visit sends a few dozen) */
  eventsPerVisit: { name: 'events-visit', limit: Number(process.env.EVENTS_PER_VISIT_MAX ?? 300), windowMs: 30 * 60_000 },
  graphql: { name: 'graphql', limit: Number(process.env.RATE_LIMIT_GRAPHQL ?? 120), windowMs: 60_000 },
  sitemap: { name: 'sitemap', limit: Number(process.env.RATE_LIMIT_SITEMAP ?? 60), windowMs: 60_000 },
} as const satisfies Record<string, RateRule>;

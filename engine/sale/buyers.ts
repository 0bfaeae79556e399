/**
 * The buyers: one JSON document per buyer in buyers/ (LOANSITES_BUYERS_DIR replaces the folder:
 * tests and local stand-ins plug in there), read and checked like brand files — the schema, then
 * the rules a schema cannot say — with the same "file:line:col /pointer: message" problems. A
 * broken buyer file is left out and never takes the others (or the sale) down.
 *
 * Secrets never sit in a file: a buyer names the environment variable holding its HMAC secret
 * (secretEnv). requireBuyerSecrets, called at server start, refuses a deployment where one is
 * missing or shorter than BUYER_SECRET_MIN; elsewhere that buyer is only left out of the sale (or,
 * for a short one, warned about), with a log line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Buyer } from '../../schemas/buyer.types';
import { formatProblem, projectRoot, type Source } from '../site/catalog';
import { isDeployment } from '../keys/sealing';
import { parseJson, type ParsedJson } from '../validate/locate';
import { checkBuyerSchema } from '../validate/schema';
import { wholeCents } from './bids';
import type { FileProblem } from '../site/brandChecks/semantic';

export type { Buyer };

export interface LoadedBuyer {
  buyer: Buyer;
  file: string;
}

export interface BuyerCatalog {
  buyers: ReadonlyMap<string, LoadedBuyer>;
  /** file → its problems, for buyers left out */
  broken: ReadonlyMap<string, string[]>;
  /** every problem, formatted "file:line:col /pointer: message" */
  problems: string[];
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** True for an https URL, or an http one on a loopback host (local stand-ins and tests only). */
export function isAllowedEndpoint(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.test(u.hostname));
  } catch {
    return false;
  }
}

const NEEDS: Record<Buyer['mode'], readonly ('ping' | 'post' | 'deliver')[]> = {
  'ping-post': ['ping', 'post'],
  'direct-post': ['post'],
  deliver: ['deliver'],
};

export function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A URL with a user name or password in it: fetch refuses to send to one (every call to the buyer
 * would fail), and its error, which names the URL, would put the password in the sale's timeline.
 */
const withCredentials = (url: string): boolean => {
  try {
    const u = new URL(url);
    return !!(u.username || u.password);
  } catch {
    return false;
  }
};
const CREDENTIALS = 'must not carry a user name or password: requests to the buyer are signed with its secret (secretEnv)';

/** The rules of a buyer document that its schema cannot say; pointers into the file. */
export function checkBuyer(buyer: Buyer, knownBrands?: ReadonlySet<string>): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  for (const need of NEEDS[buyer.mode])
    if (!buyer.endpoints[need]) out.push({ pointer: '/endpoints', message: `a ${buyer.mode} buyer needs endpoints.${need}` });
  for (const [name, url] of Object.entries(buyer.endpoints))
    if (url && !isAllowedEndpoint(url)) out.push({ pointer: `/endpoints/${name}`, message: `${url} must use https (http only on 127.0.0.1 or localhost)` });
    else if (url && withCredentials(url)) out.push({ pointer: `/endpoints/${name}`, message: CREDENTIALS });
  if (buyer.optOutUrl && !isAllowedEndpoint(buyer.optOutUrl))
    out.push({ pointer: '/optOutUrl', message: 'must use https (http only on 127.0.0.1 or localhost)' });
  else if (buyer.optOutUrl && withCredentials(buyer.optOutUrl)) out.push({ pointer: '/optOutUrl', message: CREDENTIALS });
  if (buyer.schedule && !validTimeZone(buyer.schedule.timeZone))
    out.push({ pointer: '/schedule/timeZone', message: `"${buyer.schedule.timeZone}" is not an IANA time zone (e.g. America/Chicago)` });
  for (const key of ['amount', 'age'] as const) {
    const r = buyer.filters?.[key];
    if (r?.min !== undefined && r.max !== undefined && r.min > r.max)
      out.push({ pointer: `/filters/${key}`, message: `min (${r.min}) is above max (${r.max})` });
  }
  const p = buyer.price;
  // money is kept in cents: a price finer than one is not what would be posted and recorded
  for (const key of ['fixed', 'floor'] as const)
    if (p?.[key] !== undefined && !wholeCents(p[key]))
      out.push({ pointer: `/price/${key}`, message: `${p[key]} is finer than a cent: give dollars and cents, e.g. 12.50` });
  if (p?.fixed !== undefined && p.floor !== undefined && p.fixed < p.floor)
    out.push({ pointer: '/price/fixed', message: `the fixed price ${p.fixed} is under the floor ${p.floor}: the buyer would never be offered a lead` });
  if (buyer.mode !== 'deliver' && !buyer.redirectHosts?.length)
    out.push({ pointer: '/redirectHosts', message: `a ${buyer.mode} buyer sends borrowers on: list the hosts its redirect URLs may use` });
  if (knownBrands)
    buyer.filters?.brands?.forEach((b, i) => {
      if (!knownBrands.has(b)) out.push({ pointer: `/filters/brands/${i}`, message: `no brand "${b}" (known: ${[...knownBrands].sort().join(', ')})` });
    });
  return out;
}

/** Check buyer sources (from disk or from a test). A file with any problem is left out alone. */
export function buildBuyerCatalog(sources: readonly Source[], knownBrands?: ReadonlySet<string>): BuyerCatalog {
  const parsed = new Map<string, { text: string; json: ParsedJson }>();
  const problems: FileProblem[] = [];
  const buyers = new Map<string, LoadedBuyer>();
  const broken = new Map<string, FileProblem[]>();
  for (const src of sources) {
    const json = parseJson(src.text);
    parsed.set(src.file, { text: src.text, json });
    let own: FileProblem[];
    if (json.error) own = [{ file: src.file, pointer: json.error.pointer ?? '', message: json.error.message, position: json.error.position }];
    else {
      own = checkBuyerSchema(json.value).map((p) => ({ ...p, file: src.file }));
      if (!own.length) own = checkBuyer(json.value as Buyer, knownBrands).map((p) => ({ ...p, file: src.file }));
    }
    const buyer = json.value as Buyer | undefined;
    if (!own.length && buyer && buyers.has(buyer.id))
      own = [{ file: src.file, pointer: '/id', message: `"${buyer.id}" is already the id of ${buyers.get(buyer.id)!.file}` }];
    problems.push(...own);
    if (own.length) broken.set(src.file, own);
    else buyers.set(buyer!.id, { buyer: buyer!, file: src.file });
  }
  return {
    buyers,
    broken: new Map([...broken].map(([file, list]) => [file, list.map((p) => formatProblem(p, parsed))])),
    problems: problems.map((p) => formatProblem(p, parsed)),
  };
}

/** The buyers folder: LOANSITES_BUYERS_DIR (absolute, or relative to the project root), else buyers/. */
export const buyersDir = (env: Record<string, string | undefined> = process.env): string =>
  // Read at run time from a folder the deployment chooses: the build must not trace it (it would take in the whole project).
  resolve(/* turbopackIgnore: true */ projectRoot(), env.LOANSITES_BUYERS_DIR?.trim() || 'buyers');

export function readBuyerSources(dir = buyersDir()): Source[] {
  let names: string[];
  try {
    names = readdirSync(/* turbopackIgnore: true */ dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  const shown = (f: string) => {
    const rel = relative(projectRoot(), join(dir, f));
    return rel.startsWith('..') || isAbsolute(rel) ? join(dir, f) : rel;
  };
  return names.map((f) => ({ file: shown(f), text: readFileSync(/* turbopackIgnore: true */ join(dir, f), 'utf8') }));
}

/** The buyers whose secret variable is unset or empty. */
export const missingSecrets = (catalog: BuyerCatalog, env: Record<string, string | undefined> = process.env): LoadedBuyer[] =>
  [...catalog.buyers.values()].filter((b) => b.buyer.enabled !== false && !env[b.buyer.secretEnv]?.trim());

/** The fewest characters a buyer's secret may have: as a LEAD_DESTINATIONS secret (schemas/lead-destinations.schema.json). */
export const BUYER_SECRET_MIN = 16;

/** The buyers whose secret is set but shorter than BUYER_SECRET_MIN. */
export const shortSecrets = (catalog: BuyerCatalog, env: Record<string, string | undefined> = process.env): LoadedBuyer[] =>
  [...catalog.buyers.values()].filter((b) => {
    const secret = env[b.buyer.secretEnv]?.trim();
    return b.buyer.enabled !== false && !!secret && secret.length < BUYER_SECRET_MIN;
  });

/**
 * A deployment refuses to start while a buyer's secret is missing (the sale could not sign for
 * it) or short: the secret also signs the buyer's returns to us, each a refund, and a short one
 * could be guessed by anyone who can reach the returns API.
 */
export function requireBuyerSecrets(catalog: BuyerCatalog, env: Record<string, string | undefined> = process.env): void {
  const named = (list: LoadedBuyer[]) => list.map((b) => `${b.buyer.secretEnv} (buyer "${b.buyer.id}", ${b.file})`).join(', ');
  const missing = missingSecrets(catalog, env);
  const short = shortSecrets(catalog, env);
  if (missing.length && isDeployment(env))
    throw new Error(`Buyer secrets are not set: ${named(missing)}. Set each to the HMAC secret shared with that buyer, or remove the buyer's file.`);
  if (short.length && isDeployment(env))
    throw new Error(
      `Buyer secrets are shorter than ${BUYER_SECRET_MIN} characters: ${named(short)}. Set each to a long random string shared with that buyer (openssl rand -hex 32 makes one).`,
    );
  if (missing.length) console.warn(`[sale] left out of the sale until their secret is set: ${named(missing)}`);
  if (short.length) console.warn(`[sale] buyer secrets shorter than ${BUYER_SECRET_MIN} characters (a deployment refuses to start): ${named(short)}`);
}

let cached: { dir: string; catalog: BuyerCatalog } | undefined;

/** This process's buyers (read once per folder; problems logged once). */
export function getBuyers(env: Record<string, string | undefined> = process.env): BuyerCatalog {
  const dir = buyersDir(env);
  if (cached?.dir === dir) return cached.catalog;
  const catalog = buildBuyerCatalog(readBuyerSources(dir));
  for (const line of catalog.problems) console.error(`[buyers] ${line}`);
  cached = { dir, catalog };
  return catalog;
}

/** A buyer's HMAC secret from the environment, or undefined when unset. */
export const buyerSecret = (buyer: Buyer, env: Record<string, string | undefined> = process.env): string | undefined =>
  env[buyer.secretEnv]?.trim() || undefined;

/** A deliver buyer document as an outbox destination (named "buyer:<id>"), when it is valid and its secret set. */
export function deliverBuyerDestination(id: string): { name: string; url: string; secret: string; timeoutMs?: number; acceptsTestLeads: boolean } | undefined {
  const b = getBuyers().buyers.get(id)?.buyer;
  const secret = b && buyerSecret(b);
  if (!b || b.mode !== 'deliver' || !b.endpoints.deliver || !secret) return undefined;
  // the outbox checks a test lead against this again when it sends: the buyer's own word, as the sale read it
  return { name: `buyer:${id}`, url: b.endpoints.deliver, secret, timeoutMs: b.timeouts?.postMs ?? 15_000, acceptsTestLeads: b.acceptsTestLeads === true };
}

/**
 * The brand studio's JSON API, on the console host only (/api/console/studio/…, routed by
 * pages/api/console/studio/[...path].ts): brands with their drafts and published revisions, a
 * draft saved with optimistic locking, publishing (now or at a set time) refused while the
 * validator finds a problem, restoring, the history, the new-brand wizard's questions, the logo
 * upload. The contract is written down in docs/engineers/studio-api.md.
 *
 * Everyone signed in to the console may read (studio.view); only admins and editors may write
 * (studio.edit), an editor limited to some brands only those (engine/console/roles.ts). A write
 * must come from the console's own pages (Sec-Fetch-Site / Origin, engine/console/forms.ts)
 * with the session's CSRF token in X-CSRF-Token; its JSON body is capped and checked against a
 * schema; writes are rate-limited per client address.
 */
import type { IncomingMessage } from 'node:http';
import type { Brand } from '../../schemas/brand.types';
import { ApiError, clientIp, parseJsonBody, readRawBody, requireJsonType, type ApiAnswer } from '../http/api';
import { enforceRateLimit, type RateRule } from '../http/rateLimit';
import { checkBrandDocument, CONSOLE_OWNER, type BrandProblem } from '../site/brandOverlay';
import { telephoneProblemsOf } from '../site/brandChecks/telephone';
import { consoleHostsOf } from '../site/hosts';
import { hostsOfBrand } from '../validate/brandHosts';
import { ANSWER_LIMIT, checkAnswer, newBrandDocument, QUESTIONS, readAnswers } from '../site/brandQuestions';
import { placeholderLogo } from '../site/brandScaffold';
import { placeholderLogoProblems } from '../site/placeholderLogo';
import { getCatalog, isPartFile, readSources, revisionText, type Catalog } from '../site/catalog';
import { layoutParamNames, layoutSwitchNames } from '../site/layoutParams';
import { PARAM_KINDS } from '../site/routeParams';
import {
  brandDraft,
  brandDrafts,
  brandFile,
  brandFileChanged,
  brandHistory,
  brandRevision,
  BrandRevisionError,
  brandSchedule,
  refusedBrandSchedule,
  BRAND_PUBLISHED,
  cancelBrandSchedule,
  publishBrand,
  publishedBrand,
  publishedBrands,
  restoreBrand,
  RevisionConflict,
  saveBrandDraft,
  saveBrandLogo,
} from '../store/brandRevisions';
import type { Store } from '../store/db';
import { publishRevision } from '../store/liveRevisions';
import type { Revision } from '../store/revisions';
import type { Layout } from '../../schemas/brand.types';
import { requireUser } from './api';
import { refusedNotices, type RefusedNotice } from './refusedRevisions';
import { csrfToken, csrfValid } from './csrf';
import { draftHostClaims, draftHostWarning, draftHostWarnings } from './draftHosts';
import { sameOriginPost } from './forms';
import { checkLogo, LOGO_LIMIT, LOGO_PATH } from './logoUpload';
import { BRAND_ID, may, mayEditBrand } from './roles';

/** A brand document's body: the largest brand file is ~70 KB; room for growth, not for abuse. */
export const DRAFT_LIMIT = 1024 * 1024;
export const SMALL_LIMIT = 16 * 1024;
export const STUDIO_RATE: RateRule = { name: 'studio', limit: Number(process.env.RATE_LIMIT_STUDIO ?? 600), windowMs: 60_000 };

const DRAFT_SCHEMA = {
  type: 'object',
  required: ['document', 'expectedVersion'],
  additionalProperties: false,
  properties: { document: { type: 'object' }, expectedVersion: { type: 'integer', minimum: 0 } },
};
const PUBLISH_SCHEMA = {
  type: 'object',
  required: ['version'],
  additionalProperties: false,
  properties: { version: { type: 'integer', minimum: 1 }, at: { type: 'string', minLength: 10, maxLength: 40 } },
};
const RESTORE_SCHEMA = { type: 'object', required: ['version'], additionalProperties: false, properties: { version: { type: 'integer', minimum: 0 } } };
/** The wizard's answers: one string per question (an answer to no question would be dropped unseen, so it is refused by name). */
const ANSWERS = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(QUESTIONS.map((q) => [q.key, { type: 'string', maxLength: ANSWER_LIMIT }])),
};
const CREATE_SCHEMA = { type: 'object', required: ['answers'], additionalProperties: false, properties: { answers: ANSWERS } };
const CHECK_SCHEMA = {
  type: 'object',
  required: ['question', 'value'],
  additionalProperties: false,
  properties: { question: { type: 'string', maxLength: 40 }, value: { type: 'string', maxLength: ANSWER_LIMIT }, answers: ANSWERS },
};

type User = { email: string; role: string; brands?: string | null };
interface Ctx {
  db: Store;
  req: IncomingMessage;
  user: User;
  token: string;
  now: Date;
  /** tells every instance (this one at once) that a brand was published */
  announce: () => Promise<void>;
}

export interface StudioOptions {
  now?: Date;
  /** default: the live revisions' announcement (engine/store/liveRevisions.ts publishRevision) */
  announce?: () => Promise<void>;
}

const ok = (body: unknown, status = 200): ApiAnswer => ({ status, body });

/** The signed-in console user who may see the studio; 401/403 otherwise. */
async function signedIn(db: Store, req: IncomingMessage): Promise<{ user: User; token: string }> {
  const who = await requireUser(
    db,
    { method: req.method ?? 'GET', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) },
    'studio.view',
  );
  if ('refused' in who) throw new ApiError(who.refused!.status, (who.refused!.body as { error: string }).error);
  return { user: who.user as User, token: who.token };
}

/** A change: from the console's own pages, with the session's CSRF token, by someone who may change this brand (any, for a new one), counted. */
async function mayWrite(ctx: Ctx, brandId?: string): Promise<void> {
  const headers = ctx.req.headers as Record<string, string | undefined>;
  if (!sameOriginPost(ctx.req)) throw new ApiError(403, 'Studio changes are accepted from the console’s own pages only');
  if (!csrfValid(ctx.token, headers['x-csrf-token'])) throw new ApiError(403, 'The page is out of date; reload it and try again');
  if (!may(ctx.user.role as never, 'studio.edit')) throw new ApiError(403, 'Your role may look at brands in the studio but not change them');
  if (brandId !== undefined && !mayEditBrand(ctx.user, brandId)) throw new ApiError(403, `Your account may not change the brand "${brandId}"`);
  await enforceRateLimit(STUDIO_RATE, `studio:${clientIp(ctx.req)}`, 1, 'Too many studio changes');
}

async function jsonBody<T>(req: IncomingMessage, schema: object, limit: number): Promise<T> {
  requireJsonType(req);
  return parseJsonBody<T>(await readRawBody(req, limit), schema);
}

/** Problems of a document, remembered per catalog and text: the list page counts every brand's. */
const checked = new Map<string, { catalog: Catalog; problems: BrandProblem[] }>();
function problemsOf(id: string, document: unknown): BrandProblem[] {
  const catalog = getCatalog();
  const key = `${id}\n${revisionText(document)}`;
  const known = checked.get(key);
  if (known?.catalog === catalog) return known.problems;
  // the telephone is checked beside the validator's checks, as `npm run validate` does (engine/site/brandChecks/telephone.ts)
  const problems = [...checkBrandDocument(id, document, { catalog }).problems, ...telephoneProblemsOf(id, document)];
  checked.set(key, { catalog, problems });
  if (checked.size > 64) checked.delete(checked.keys().next().value!);
  return problems;
}

/** Every problem of a document: the validator's, and in a deployment a placeholder logo. */
const allProblems = async (db: Store, id: string, document: unknown): Promise<BrandProblem[]> => [
  ...problemsOf(id, document),
  ...(await placeholderLogoProblems(db, id, document)),
];

const who = (r: Revision | undefined) => (r ? { version: r.version, author: r.author, at: r.savedAt } : null);

/** The document the editor works on: the newest draft, else the published revision, else the file. */
async function working(db: Store, id: string): Promise<{ document: Brand; draft?: Revision<Brand>; published?: Revision<Brand> } | undefined> {
  const [draft, published] = await Promise.all([brandDraft(db, id), publishedBrand(db, id)]);
  const document = draft?.document ?? published?.document ?? (await brandRevision(db, id, 0))?.document;
  return document ? { document, draft, published } : undefined;
}

function brandIdOf(raw: string): string {
  if (!BRAND_ID.test(raw)) throw new ApiError(404, `No brand "${raw.slice(0, 64)}"`);
  return raw;
}

/** Every brand the studio lists: the build's files (even broken ones), and those published or drafted in the studio. */
async function studioBrands(db: Store) {
  const catalog = getCatalog();
  const [published, drafts] = await Promise.all([publishedBrands(db), brandDrafts(db)]);
  const ids = [...new Set([...catalog.brands.keys(), ...catalog.broken.keys(), ...published.keys(), ...drafts.keys()])].sort();
  return { catalog, published, drafts, ids };
}

/** The ids of every brand the studio lists (what an editor's account may be limited to). */
export const studioBrandIds = async (db: Store): Promise<string[]> => (await studioBrands(db)).ids;

/** A published version left out of what is served (it does not build since the deploy), as the API gives it. */
const notApplied = (n: RefusedNotice | undefined) => (n ? { version: n.version, instead: n.instead, problems: n.problems, moreProblems: n.more } : null);

async function listBrands(ctx: Ctx): Promise<ApiAnswer> {
  const { catalog, published, drafts, ids } = await studioBrands(ctx.db);
  const refused = new Map(refusedNotices().map((n) => [n.id, n]));
  const brands = [];
  for (const id of ids) {
    const p = published.get(id);
    const d = drafts.get(id);
    const document = d?.document ?? p?.document ?? catalog.brands.get(id)?.brand ?? (await brandRevision(ctx.db, id, 0))?.document;
    brands.push({
      id,
      name: document?.name ?? id,
      hosts: document?.hosts ?? [],
      published: who(p),
      // a draft is shown when there is one newer than what is live
      draft: d && (!p || d.version > p.version) ? who(d) : null,
      fileChanged: brandFileChanged(p),
      notApplied: notApplied(refused.get(id)),
      problems: document ? problemsOf(id, document).length : 1,
      canEdit: may(ctx.user.role as never, 'studio.edit') && mayEditBrand(ctx.user, id),
    });
  }
  return ok({ brands, csrf: csrfToken(ctx.token) });
}

/** What the editor's pickers list: layouts (shared and the brand's own, with the text parameters and switches a route may give), parts, block types, route parameters. */
function pickers(document: Brand, catalog: Catalog) {
  const shared = readSources().layouts;
  const layouts: { name: string; shared: boolean; params: string[]; switches: string[] }[] = [];
  const parts: { name: string; holds: string }[] = [];
  for (const src of shared) {
    const name = src.file.replace(/^.*\//, '').replace(/\.json$/, '');
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(src.text) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (isPartFile(src.file)) parts.push({ name, holds: ['links', 'blocks', 'routes'].find((k) => k in json) ?? '' });
    else if (Array.isArray(json.blocks))
      layouts.push({ name, shared: true, params: layoutParamNames(json), switches: layoutSwitchNames(json as unknown as Layout) });
  }
  for (const [name, layout] of Object.entries(document.layouts ?? {}))
    layouts.push({ name, shared: false, params: layoutParamNames(layout), switches: layoutSwitchNames(layout as Layout) });
  const routes = (document.routes ?? []).flatMap((r) => ('path' in r && typeof r.path === 'string' ? [r.path] : []));
  return {
    layouts: layouts.sort((a, b) => a.name.localeCompare(b.name)),
    parts: parts.sort((a, b) => a.name.localeCompare(b.name)),
    blockTypes: Object.keys(catalog.specs).sort(),
    routes,
    routeParams: PARAM_KINDS,
  };
}

async function getBrand(ctx: Ctx, id: string): Promise<ApiAnswer> {
  const w = await working(ctx.db, id);
  if (!w) throw new ApiError(404, `No brand "${id}"`);
  const catalog = getCatalog();
  const [schedule, refused] = await Promise.all([brandSchedule(ctx.db, id), refusedBrandSchedule(ctx.db, id)]);
  return ok({
    id,
    document: w.document,
    version: w.draft?.version ?? 0,
    publishedVersion: w.published?.version ?? 0,
    fileChanged: brandFileChanged(w.published),
    notApplied: notApplied(refusedNotices([id])[0]),
    hasFile: !!brandFile(id),
    scheduled: schedule ? { version: schedule.version, at: schedule.at, author: schedule.author } : null,
    scheduleRefused: refused ? { version: refused.version, at: refused.at, author: refused.author, reason: refused.reason } : null,
    problems: await allProblems(ctx.db, id, w.document),
    warnings: await draftHostWarnings(ctx.db, id, w.document),
    canEdit: may(ctx.user.role as never, 'studio.edit') && mayEditBrand(ctx.user, id),
    csrf: csrfToken(ctx.token),
    ...pickers(w.document, catalog),
  });
}

/** Whether a brand has this id: a file, a brand in the catalog (a broken one too) or a draft made in the wizard. */
async function brandExists(db: Store, id: string): Promise<boolean> {
  const catalog = getCatalog();
  return catalog.brands.has(id) || catalog.broken.has(id) || !!brandFile(id) || !!(await brandDraft(db, id));
}

async function saveDraft(ctx: Ctx, id: string): Promise<ApiAnswer> {
  await mayWrite(ctx, id);
  // a brand begins in the wizard, which checks its id and hosts; a draft is saved over a brand that exists
  if (!(await brandExists(ctx.db, id))) throw new ApiError(404, `No brand "${id}"; a new brand starts in the wizard at /studio/new`);
  const body = await jsonBody<{ document: Brand; expectedVersion: number }>(ctx.req, DRAFT_SCHEMA, DRAFT_LIMIT);
  try {
    const saved = await saveBrandDraft(ctx.db, { id, document: body.document, expectedVersion: body.expectedVersion, author: ctx.user.email, now: ctx.now });
    return ok({
      version: saved.version,
      savedAt: saved.savedAt,
      problems: await allProblems(ctx.db, id, body.document),
      warnings: await draftHostWarnings(ctx.db, id, body.document),
    });
  } catch (err) {
    if (!(err instanceof RevisionConflict)) throw err;
    const c = err.current;
    const current =
      c && c.version > body.expectedVersion ? { current: { version: c.version, author: c.author, savedAt: c.savedAt, document: c.document } } : {};
    return { status: 409, body: { error: err.message, ...current } };
  }
}

const refusal = (err: unknown): ApiAnswer => {
  if (err instanceof BrandRevisionError) return { status: err.status, body: { error: err.message } };
  if (err instanceof RevisionConflict) return { status: 409, body: { error: err.message } };
  throw err;
};

async function publish(ctx: Ctx, id: string): Promise<ApiAnswer> {
  await mayWrite(ctx, id);
  const body = await jsonBody<{ version: number; at?: string }>(ctx.req, PUBLISH_SCHEMA, SMALL_LIMIT);
  const at = body.at === undefined ? undefined : new Date(body.at);
  if (at && Number.isNaN(at.getTime())) throw new ApiError(400, 'at must be a date and time, e.g. 2026-12-01T09:00:00Z');
  const draft = await brandRevision(ctx.db, id, body.version);
  if (!draft) return { status: 404, body: { error: `brand "${id}" has no draft version ${body.version}` } };
  const problems = await allProblems(ctx.db, id, draft.document);
  if (problems.length)
    return {
      status: 422,
      body: { error: `version ${body.version} has ${problems.length} problem${problems.length === 1 ? '' : 's'} to fix before it can be published`, problems },
    };
  try {
    const done = await publishBrand(ctx.db, { id, version: body.version, author: ctx.user.email, at, now: ctx.now });
    if (!done.scheduledAt) await ctx.announce();
    return ok({ publishedVersion: done.publishedVersion, ...(done.scheduledAt ? { scheduledAt: done.scheduledAt } : {}) });
  } catch (err) {
    return refusal(err);
  }
}

async function unschedule(ctx: Ctx, id: string): Promise<ApiAnswer> {
  await mayWrite(ctx, id);
  return ok({ cancelled: await cancelBrandSchedule(ctx.db, id, ctx.user.email, ctx.now) });
}

async function restore(ctx: Ctx, id: string): Promise<ApiAnswer> {
  await mayWrite(ctx, id);
  const body = await jsonBody<{ version: number }>(ctx.req, RESTORE_SCHEMA, SMALL_LIMIT);
  const old = await brandRevision(ctx.db, id, body.version);
  if (!old) return { status: 404, body: { error: `brand "${id}" has no version ${body.version}` } };
  const problems = await allProblems(ctx.db, id, old.document);
  if (problems.length)
    return { status: 422, body: { error: `version ${body.version} no longer passes the checks, so it cannot be restored as it is`, problems } };
  try {
    const done = await restoreBrand(ctx.db, { id, version: body.version, author: ctx.user.email, now: ctx.now });
    await ctx.announce();
    return ok({ publishedVersion: done.publishedVersion, version: done.publishedVersion });
  } catch (err) {
    return refusal(err);
  }
}

async function history(ctx: Ctx, id: string): Promise<ApiAnswer> {
  const revisions = await brandHistory(ctx.db, id);
  if (!revisions.length && !brandFile(id)) throw new ApiError(404, `No brand "${id}"`);
  return ok({ revisions, hasFile: !!brandFile(id) });
}

async function revision(ctx: Ctx, id: string, raw: string): Promise<ApiAnswer> {
  const version = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (Number.isNaN(version)) throw new ApiError(404, `No version "${raw.slice(0, 20)}"`);
  const r = await brandRevision(ctx.db, id, version);
  if (!r) throw new ApiError(404, `brand "${id}" has no version ${version}`);
  return ok({ version, author: r.author, savedAt: r.savedAt, document: r.document });
}

async function create(ctx: Ctx): Promise<ApiAnswer> {
  await mayWrite(ctx);
  const body = await jsonBody<{ answers: Record<string, string> }>(ctx.req, CREATE_SCHEMA, SMALL_LIMIT);
  const read = readAnswers(body.answers);
  if ('problems' in read) return { status: 422, body: { error: 'some answers need another look', problems: read.problems } };
  const id = read.answers.id;
  if (!mayEditBrand(ctx.user, id)) throw new ApiError(403, notYourBrand(id));
  const taken = await idProblem(ctx.db, id);
  if (taken) return { status: 422, body: { error: 'some answers need another look', problems: [{ question: 'id', message: taken }] } };
  // brand:new writes a placeholder logo into public/logos/; a brand made here has no file there,
  // so its placeholder is stored as an uploaded logo: every page shows the name, not a broken image
  const logo = checkLogo(Buffer.from(placeholderLogo(read.answers.name, read.answers.primaryColor)), 'image/svg+xml');
  if (!logo.ok) throw new Error(`the placeholder logo: ${logo.problem}`);
  const scaffolded = newBrandDocument(read.answers);
  const document = { ...scaffolded, organization: { ...scaffolded.organization, logo: `${LOGO_PATH}${logo.name}` } };
  // the host and colour checks of the whole brand, in the words of the question they come from
  const hostProblem = problemsOf(id, document).find((p) => p.pointer.startsWith('/hosts'));
  if (hostProblem) return { status: 422, body: { error: 'some answers need another look', problems: [{ question: 'hosts', message: hostProblem.message }] } };
  try {
    const saved = await saveBrandDraft(ctx.db, { id, document, expectedVersion: 0, author: ctx.user.email, now: ctx.now, file: null });
    await saveBrandLogo(ctx.db, { name: logo.name, type: logo.type, bytes: logo.bytes, brand: id, author: ctx.user.email, now: ctx.now });
    const warnings = (await draftHostWarnings(ctx.db, id, document)).map((w) => ({ question: 'hosts', message: w.message }));
    return ok({ id, version: saved.version, problems: await allProblems(ctx.db, id, document), warnings }, 201);
  } catch (err) {
    if (err instanceof RevisionConflict)
      return {
        status: 422,
        body: {
          error: 'some answers need another look',
          problems: [{ question: 'id', message: `a brand with the id "${id}" already exists; choose another id` }],
        },
      };
    throw err;
  }
}

/**
 * Why the studio cannot make a brand with this id, beyond the question's own check: its page, an
 * id taken, or a local host ({id}.localhost) another brand or the console answers on — said at the
 * id, the answer to change, as the answer is given and again when the brand is made.
 */
/**
 * An editor whose account names some brands may make only a brand it names: said with what to do
 * (the wizard asks the id first, so the editor learns it before writing the rest).
 */
const notYourBrand = (id: string) =>
  `Your account may change only the brands an admin gave it, and "${id}" is not one of them: ask an admin to add "${id}" to your brands, or to make this brand`;

async function idProblem(db: Store, id: string): Promise<string | undefined> {
  if (id === 'new') return '"new" is the studio’s own page; choose another id';
  if (await brandExists(db, id)) return `a brand with the id "${id}" already exists; choose another id`;
  const local = `${id}.localhost`;
  if (consoleHostsOf(process.env).has(local)) return `its local host "${local}" is the console’s; choose another id`;
  const owner = getCatalog().hostMap.get(local);
  if (owner) return `its local host "${local}" belongs to the brand ${owner}; choose another id`;
  return undefined;
}

/**
 * host → the brand answering on it, for every brand but `id`: its hosts with their dev. and
 * test123. sub-hosts, and its blog's hosts — every host making the brand would find taken.
 */
function hostOwners(id: string): Map<string, string> {
  const { hostMap, blogHostMap } = getCatalog();
  return new Map([...blogHostMap, ...hostMap].filter(([, owner]) => owner !== id));
}

async function checkOne(ctx: Ctx): Promise<ApiAnswer> {
  const body = await jsonBody<{ question: string; value: string; answers?: Record<string, string> }>(ctx.req, CHECK_SCHEMA, SMALL_LIMIT);
  await enforceRateLimit(STUDIO_RATE, `studio:${clientIp(ctx.req)}`, 1, 'Too many studio requests');
  const r = checkAnswer(body.question, body.value, body.answers ?? {});
  if (r.ok && body.question === 'id' && r.value) {
    const problem = mayEditBrand(ctx.user, r.value) ? await idProblem(ctx.db, r.value) : notYourBrand(r.value);
    if (problem) return ok({ ok: false, message: problem });
  }
  if (r.ok && body.question === 'hosts' && r.value) {
    const hosts = r.value.split(',').map((h) => h.trim());
    const owners = hostOwners(body.answers?.id ?? '');
    const taken = hosts.find((h) => owners.has(h));
    if (taken) return ok({ ok: false, message: `host "${taken}" already belongs to the brand ${owners.get(taken)}; a host can belong to one brand only` });
    // the same words as creating the brand would find (engine/site/brandOverlay.ts)
    const consoles = consoleHostsOf(process.env);
    const consoleHost = hosts.find((h) => consoles.has(h));
    if (consoleHost) return ok({ ok: false, message: `host "${consoleHost}" is also claimed by ${CONSOLE_OWNER}; a host can belong to one brand only` });
    // another draft's host is taken, with a warning: the first of the two published keeps it
    const id = body.answers?.id ?? '';
    const [claim] = await draftHostClaims(ctx.db, id, hostsOfBrand({ id, hosts: hosts.filter(Boolean) }));
    if (claim) return ok({ ok: true, warning: draftHostWarning(claim) });
  }
  if (!r.ok) return ok({ ok: false, message: r.message });
  // an answer the brand is made with as written another way (a phone number): the operator sees it before it is made
  const typed = body.value.trim();
  if (typed && r.value !== typed) return ok({ ok: true, warning: `the brand will show it as ${r.value}` });
  return ok({ ok: true });
}

async function uploadLogo(ctx: Ctx, id: string): Promise<ApiAnswer> {
  await mayWrite(ctx, id);
  // a logo belongs to a brand being edited: none is stored (and audited) for a brand that does not exist
  if (!(await brandExists(ctx.db, id))) throw new ApiError(404, `No brand "${id}"; a new brand starts in the wizard at /studio/new`);
  // the body limit's own words count bytes; an operator picking a file needs the size and what to do
  const bytes = await readRawBody(ctx.req, LOGO_LIMIT).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 413)
      throw new ApiError(
        413,
        `The logo is larger than ${LOGO_LIMIT / 1024} KB; save it smaller (a simpler SVG, or a PNG with fewer pixels) and upload it again`,
      );
    throw e;
  });
  const logo = checkLogo(bytes, String(ctx.req.headers['content-type'] ?? ''));
  if (!logo.ok) return { status: logo.problem.startsWith('send the logo') ? 415 : 422, body: { error: logo.problem } };
  await saveBrandLogo(ctx.db, { name: logo.name, type: logo.type, bytes: logo.bytes, brand: id, author: ctx.user.email, now: ctx.now });
  return ok({ src: `${LOGO_PATH}${logo.name}` });
}

/** The questions of the new-brand wizard (the same as brand:new's), for the wizard's page. */
const questions = (): ApiAnswer => ok({ questions: QUESTIONS.map((q) => ({ question: q.key, label: q.label, hasDefault: !!q.fallback })) });

/** One studio request: its path's segments after /api/console/studio/. */
export async function studioRoute(db: Store, req: IncomingMessage, segments: readonly string[], options: StudioOptions = {}): Promise<ApiAnswer> {
  // HEAD is GET without the body (the answer's sender leaves it out)
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const allow = (...methods: string[]) => {
    if (!methods.includes(method)) throw new ApiError(405, `Use ${methods.join(' or ')}`, [], { Allow: methods.join(', ') });
  };
  const { user, token } = await signedIn(db, req);
  const ctx: Ctx = { db, req, user, token, now: options.now ?? new Date(), announce: options.announce ?? (() => publishRevision(BRAND_PUBLISHED, db)) };
  const [head, rawId, action, extra, ...rest] = segments;
  if (rest.length) throw new ApiError(404, 'Not found');
  if (head === 'check' && !rawId) return (allow('POST'), checkOne(ctx));
  if (head === 'questions' && !rawId) return (allow('GET'), questions());
  if (head !== 'brands') throw new ApiError(404, 'Not found');
  if (rawId === undefined) {
    allow('GET', 'POST');
    return method === 'GET' ? listBrands(ctx) : create(ctx);
  }
  const id = brandIdOf(rawId);
  switch (action) {
    case undefined:
      return (allow('GET'), getBrand(ctx, id));
    case 'draft':
      return (allow('PUT'), saveDraft(ctx, id));
    case 'publish':
      allow('POST', 'DELETE');
      return method === 'POST' ? publish(ctx, id) : unschedule(ctx, id);
    case 'restore':
      return (allow('POST'), restore(ctx, id));
    case 'history':
      return (allow('GET'), history(ctx, id));
    case 'logo':
      return (allow('POST'), uploadLogo(ctx, id));
    case 'revisions':
      if (extra === undefined) break;
      return (allow('GET'), revision(ctx, id, extra));
  }
  throw new ApiError(404, 'Not found');
}

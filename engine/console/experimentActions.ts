/**
 * POST /api/console/experiments: pause, resume or stop an experiment from its console page, by
 * publishing a new revision of its brand — the studio's own path (engine/store/brandRevisions.ts):
 * the live document (the newest published revision, else the brand's file) with the experiment's
 * status changed is saved as a draft and published at once, refused while the brand's validator
 * finds a problem in it, audited with the document before and after, and applied on every
 * instance without a restart (engine/site/brandLive.ts drops the brand's cached pages).
 *
 * The form carries the brand's live version the page was drawn from: when someone published
 * since, nothing is changed and the page says so (optimistic locking, as the studio's 409).
 * Stopping with a winner makes the winner the covered routes' own page (engine/site/experiments/compile.ts).
 *
 * Only admins and editors of the brand may; a forged post (another role, another brand, no or
 * a wrong CSRF token, another site) is a 403. A person's mistake goes back to the page with a
 * note by key (nothing from the request is echoed into the page).
 */
import type { IncomingMessage } from 'node:http';
import type { Brand, Experiment } from '../../schemas/brand.types';
import { ApiError, clientIp, type ApiAnswer } from '../http/api';
import { checkBrandDocument } from '../site/brandOverlay';
import {
  brandDraft,
  brandRevision,
  BrandRevisionError,
  BRAND_PUBLISHED,
  publishBrand,
  publishedBrand,
  RevisionConflict,
  saveBrandDraft,
} from '../store/brandRevisions';
import { audit } from '../store/console';
import type { Store } from '../store/db';
import { publishRevision } from '../store/liveRevisions';
import { requireUser } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, notYourBrand, refusalError } from './formRefusals';
import { browserFormPost, limitedForm, readConsoleForm } from './forms';
import { BRAND_ID, mayEditBrand } from './roles';
import type { ExperimentNote, ExperimentOp } from './experimentNotes';
import { returnPath } from './returnTo';
import { STUDIO_RATE } from './studioApi';

/** The brand document with the experiment changed by `op`, or the note saying why it may not be. */
export function withAction(document: Brand, experiment: string, op: ExperimentOp, winner?: string): { document: Brand } | { note: ExperimentNote } {
  const index = (document.experiments ?? []).findIndex((e) => e.id === experiment);
  const e = document.experiments?.[index];
  if (!e) return { note: 'state' };
  let changed: Experiment;
  if (op === 'pause' && e.status === 'running') changed = { ...e, status: 'paused' };
  else if (op === 'resume' && e.status === 'paused') {
    const { winner: _none, ...rest } = e;
    changed = { ...rest, status: 'running' };
  } else if (op === 'stop' && e.status !== 'stopped') {
    if (!winner || !e.variants.some((v) => v.id === winner)) return { note: 'winner' };
    changed = { ...e, status: 'stopped', winner };
  } else return { note: 'state' };
  const experiments = [...document.experiments!] as NonNullable<Brand['experiments']>;
  experiments[index] = changed;
  return { document: { ...document, experiments } };
}

/** The brand's live document and its version (0: the brand's file, no published revision). */
export async function liveBrand(db: Store, id: string): Promise<{ version: number; document: Brand } | undefined> {
  const published = await publishedBrand(db, id);
  if (published) return { version: published.version, document: published.document };
  const file = await brandRevision(db, id, 0);
  return file ? { version: 0, document: file.document } : undefined;
}

/** Whether a console user (their role, and an editor's brands as their account names them) may change a brand from the console. */
export async function mayActOn(db: Store, viewer: { email: string; role: string }, brand: string): Promise<boolean> {
  const row = await db.selectFrom('console_users').select('brands').where('email', '=', viewer.email).executeTakeFirst();
  return mayEditBrand({ role: viewer.role, brands: row?.brands ?? null }, brand);
}

/**
 * The experiment's page the form was on, to go back to: the address the form carries (`next`, the
 * page's own, its filters and all) when returnTo.ts keeps it and it is this experiment's page, else
 * the experiment's page for the brand; without a note it had (the answer adds its own). Undefined
 * when the form names no experiment a console page can show.
 */
export function experimentPage(raw: string | undefined, brand: string, experiment: string): string | undefined {
  // an experiment id a page can have (the page list's), so the address built is that page's and no other
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(experiment)) return undefined;
  const own = `/experiments/${experiment}`;
  const carried = returnPath(raw);
  const url = new URL(carried?.split('?')[0] === own ? carried : own, 'http://console.invalid');
  url.searchParams.delete('note');
  // the brand acted on names the page (an experiment id may be on more than one brand)
  if (BRAND_ID.test(brand)) url.searchParams.set('brand', brand);
  return returnPath(`${url.pathname}${url.search}`);
}

/** Back to the form's page (`page`, from experimentPage) saying `note`. */
const back = (page: string | undefined, brand: string, experiment: string, note: ExperimentNote): ApiAnswer => {
  const location = page
    ? `${page}${page.includes('?') ? '&' : '?'}note=${note}`
    : `/experiments/${encodeURIComponent(experiment)}?brand=${encodeURIComponent(brand)}&note=${note}`;
  return { status: 303, body: { location }, headers: { Location: location } };
};

export interface ExperimentActionOptions {
  now?: Date;
  /** default: the live revisions' announcement of a published brand */
  announce?: () => Promise<void>;
}

export async function experimentActionRoute(db: Store, req: IncomingMessage, options: ExperimentActionOptions = {}): Promise<ApiAnswer> {
  const form = await readConsoleForm(req);
  const brand = form.brand ?? '';
  const experiment = form.experiment ?? '';
  // refused before anything else is read: signing in again, or opening the page again, leads back to the experiment's page
  const page = experimentPage(form.next, brand, experiment);
  const who = await requireUser(db, { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) }, 'studio.edit');
  if ('refused' in who) throw refusalError(who, page);
  if (!csrfValid(who.token, form.csrf)) throw formOutOfDate(page);
  if (!BRAND_ID.test(brand) || !/^[a-z0-9-]{1,40}$/.test(experiment)) throw new ApiError(404, 'No such experiment');
  if (!mayEditBrand(who.user, brand)) throw notYourBrand(brand);
  const op = form.op;
  // The page runs no script: a browser's post comes back to it with the reason; an API client (JSON, curl, a script) gets the 4xx.
  if (op !== 'pause' && op !== 'resume' && op !== 'stop') {
    if (browserFormPost(req.headers)) return back(page, brand, experiment, 'op');
    throw new ApiError(400, 'op must be pause, resume or stop');
  }
  const limited = await limitedForm(
    req.headers,
    STUDIO_RATE,
    `studio:${clientIp(req)}`,
    'Too many studio changes',
    back(page, brand, experiment, 'limited').headers!.Location!,
  );
  if (limited) return limited;
  const live = await liveBrand(db, brand);
  if (!live) throw new ApiError(404, 'No such experiment');
  if (String(live.version) !== form.version) return back(page, brand, experiment, 'stale');
  const changed = withAction(live.document, experiment, op, form.winner);
  if ('note' in changed) return back(page, brand, experiment, changed.note);
  if (checkBrandDocument(brand, changed.document).problems.length) return back(page, brand, experiment, 'invalid');
  const now = options.now ?? new Date();
  const author = who.user.email;
  try {
    // over the newest draft (an unpublished one stays in the history; the studio's next save over it is told)
    const saved = await saveBrandDraft(db, {
      id: brand,
      document: changed.document,
      expectedVersion: (await brandDraft(db, brand))?.version ?? 0,
      author,
      now,
    });
    await publishBrand(db, { id: brand, version: saved.version, author, now });
    await audit(db, {
      actor: author,
      action: `experiment_${op === 'stop' ? 'stopped' : op === 'pause' ? 'paused' : 'resumed'}`,
      target: `brand:${brand}`,
      detail: { experiment, version: saved.version, ...(op === 'stop' ? { winner: form.winner } : {}) },
      now,
    });
  } catch (err) {
    if (err instanceof RevisionConflict || err instanceof BrandRevisionError) return back(page, brand, experiment, 'stale');
    throw err;
  }
  await (options.announce ?? (() => publishRevision(BRAND_PUBLISHED, db)))();
  return back(page, brand, experiment, op === 'stop' ? 'stopped' : op === 'pause' ? 'paused' : 'resumed');
}

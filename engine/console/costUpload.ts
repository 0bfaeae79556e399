/**
 * POST /api/console/costs: an admin uploads an ad platform's cost report from the Exports page.
 * The page runs no script, so the file comes as a plain multipart/form-data post: read here with
 * a cap (the report's size cap plus room for the form's other fields), same-origin, with the
 * session's CSRF token, at most RATE_LIMIT_COST_UPLOAD posts a minute per user. Accepted or
 * refused, the upload is audited, and the answer is 303 to the Exports page naming that audit
 * entry, which the page shows (only to the user who made it): the result is never text a link
 * could put on the page. Over the rate limit the page is told `costs=limited` (an API client
 * asking for JSON gets the 429).
 */
import type { IncomingMessage } from 'node:http';
import { ApiError, clientIp, readRawBody, type ApiAnswer } from '../http/api';
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { COST_CSV_MAX_BYTES, reportText } from '../traffic/costCsv';
import { cutSummary, importCostReport } from '../traffic/costImport';
import { requireUser } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { limitedForm, sameOriginPost } from './forms';

export const COST_UPLOAD_LIMIT = COST_CSV_MAX_BYTES + 16 * 1024;
const RULE = { name: 'cost-upload', limit: Number(process.env.RATE_LIMIT_COST_UPLOAD ?? 10), windowMs: 60_000 };
/** The Exports page's `costs` for an upload refused by the rate limit (nothing audited: the limit is what keeps the log from filling). */
const COSTS_LIMITED = 'limited';

export interface FormPart {
  filename?: string;
  data: Buffer;
}

/** The parts of a multipart/form-data body by field name (a repeated name keeps the first); throws a 400 when it is not one. */
export function multipartParts(body: Buffer, boundary: string): Map<string, FormPart> {
  const parts = new Map<string, FormPart>();
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at < 0) throw new ApiError(400, 'The upload is not a multipart form');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') break;
    const headEnd = body.indexOf('\r\n\r\n', at);
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headEnd);
    if (headEnd < 0 || next < 0) throw new ApiError(400, 'The upload is cut short; send the form again');
    const head = body.subarray(at, headEnd).toString('utf8');
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head)?.[1];
    const filename = /content-disposition:[^\r\n]*\bfilename="([^"]*)"/i.exec(head)?.[1];
    if (name !== undefined && !parts.has(name)) parts.set(name, { ...(filename !== undefined ? { filename } : {}), data: body.subarray(headEnd + 4, next) });
    at = next + 2;
  }
  return parts;
}

export async function costUploadRoute(db: Store, req: IncomingMessage): Promise<ApiAnswer> {
  const headers = req.headers as Record<string, string | undefined>;
  if (!sameOriginPost(req)) throw new ApiError(403, 'Console forms are accepted from the console’s own pages only');
  const who = await requireUser(db, { method: 'POST', headers, ip: clientIp(req) }, 'exports.run');
  if ('refused' in who) throw refusalError(who);
  const limited = await limitedForm(headers, RULE, who.user.email, 'Too many cost uploads', `/exports?costs=${COSTS_LIMITED}`);
  if (limited) return limited;
  const boundary = /^multipart\/form-data;.*\bboundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(headers['content-type'] ?? '');
  if (!boundary) throw new ApiError(415, 'Send the cost report as multipart/form-data (the Exports page’s form)');
  let body: Buffer;
  try {
    body = await readRawBody(req, COST_UPLOAD_LIMIT);
  } catch (err) {
    // A file over the cap is a refused upload like any other: audited, and shown on the Exports
    // page (which runs no script, so a bare error would leave the operator on a page of JSON).
    if (err instanceof ApiError && err.status === 413)
      return shown(await refused(db, who.user.email, '', [`The file is larger than ${COST_CSV_MAX_BYTES / 1024 / 1024} MB; split it by date range`]));
    throw err;
  }
  const parts = multipartParts(body, boundary[1] ?? boundary[2]!);
  const field = (name: string) => parts.get(name)?.data.toString('utf8') ?? '';
  if (!csrfValid(who.token, field('csrf'))) throw formOutOfDate();
  const file = parts.get('file');
  const source = field('source');
  const currency = field('currency').trim();
  // a client posting without it (an older page, a script) gets what the form chose before it had one
  const dayOrder = field('dayOrder').trim();
  const answer = !file?.data.length
    ? ({ ok: false, errors: ['Choose a CSV file to upload'] } as const)
    : await importCostReport(db, {
        text: reportText(file.data),
        source,
        actor: who.user.email,
        file: file.filename,
        ...(currency ? { currency } : {}),
        ...(dayOrder ? { dayOrder } : {}),
      });
  const asked = { currency: currency.slice(0, 3), dayOrder: dayOrder.slice(0, 20) };
  return shown(answer.ok ? answer.auditId : await refused(db, who.user.email, source, answer.errors, file?.filename, asked));
}

/** A refused upload on record, with what its form chose (the Exports page chooses the same again, for the file corrected or read another way). */
const refused = (db: Store, actor: string, source: string, errors: readonly string[], file?: string, asked: UploadChoices = {}): Promise<string> =>
  audit(db, { actor, action: 'cost_import', target: source.slice(0, 20), detail: { refused: errors, file: file?.slice(0, 200), ...asked } });

/** What the upload form chose besides the file, as its audit entry keeps it. */
export interface UploadChoices {
  source?: string;
  currency?: string;
  dayOrder?: string;
}

/** 303 to the Exports page, which shows the upload's audit entry. */
const shown = (entry: string): ApiAnswer => ({ status: 303, body: { location: `/exports?costs=${entry}` }, headers: { Location: `/exports?costs=${entry}` } });

/** An upload's result as the Exports page shows it: the audit entry the post named, if this user made it. */
export async function costUploadResult(db: Store, id: string, email: string): Promise<{ ok: boolean; lines: string[]; chose?: UploadChoices } | undefined> {
  if (id === COSTS_LIMITED)
    return { ok: false, lines: [`Too many uploads: at most ${RULE.limit} a minute each. Wait a minute, then choose the file and upload it again.`] };
  if (!/^au[0-9a-f]{24}$/.test(id)) return undefined;
  const row = await db
    .selectFrom('console_audit')
    .select(['detail', 'target'])
    .where('id', '=', id)
    .where('actor', '=', email)
    .where('action', '=', 'cost_import')
    .executeTakeFirst();
  if (!row) return undefined;
  const d = JSON.parse(row.detail) as {
    refused?: string[];
    rows?: number;
    replaced?: number;
    days?: { from: string; to: string };
    cut?: number;
  } & UploadChoices;
  const chose: UploadChoices = { source: row.target, ...(d.currency ? { currency: d.currency } : {}), ...(d.dayOrder ? { dayOrder: d.dayOrder } : {}) };
  if (d.refused) return { ok: false, lines: d.refused, chose };
  return {
    ok: true,
    chose,
    lines: [
      `${d.rows} day-campaign rows from ${row.target} imported (${d.days?.from} … ${d.days?.to}); ${d.replaced} replaced earlier imports${cutSummary(d.cut)}.`,
    ],
  };
}

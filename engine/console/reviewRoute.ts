/**
 * POST /api/console/review (leads.review: admin, analyst; with the session's CSRF token): release
 * or reject a lead that screening held for review (engine/store/screening.ts reviewHeldLead). A
 * released lead's sale is started again in this process (the sale sweep would take it up anyway)
 * and runs once; a rejected one stays unsold. Each decision is audited with the operator as actor.
 * The answer is 303 back to the lead's page with what happened, named by key (no request text is
 * echoed), a browser's post over the rate limit or with a decision the page does not offer too;
 * a forged or outdated post is a 403, another role's a 403, an unknown lead a 404.
 */
import type { IncomingMessage } from 'node:http';
import { ApiError, clientIp, type ApiAnswer } from '../http/api';
import type { Store } from '../store/db';
import { audit } from '../store/console';
import { reviewHeldLead, type ReviewOutcome } from '../store/screening';
import { startSale } from '../outbox/saleWorker';
import { SALE_DEADLINE_MS } from '../sale/runner';
import { requireUser } from './api';
import { csrfValid } from './csrf';
import { formOutOfDate, refusalError } from './formRefusals';
import { browserFormPost, limitedForm, readConsoleForm } from './forms';

const LEAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** What the lead's page says after a review, by the outcome's key. */
export const REVIEW_NOTES: Record<ReviewOutcome | 'decision' | 'limited', string> = {
  released: `Released: the lead’s sale starts now and offers it once to the buyers, as any lead’s (their filters, schedules, caps and minimum scores apply), within ${SALE_DEADLINE_MS / 1000} s of its start. Unsold, it goes to the deliver buyers that take it.`,
  rejected: 'Rejected: the lead will not be offered to any buyer.',
  'not-held': 'This lead is not held for review (it was reviewed already, or its sale ended another way); nothing was changed.',
  'sale-running': 'This lead’s sale is still being decided; try again in a moment. Nothing was changed.',
  decision: 'A held lead is released or rejected; nothing was changed.',
  limited: 'Too many review decisions in the last minute, so nothing was changed. Wait a minute and try again.',
};
/** The notes that say a post was refused (the page shows them as an alert). */
export const REVIEW_REFUSED: readonly (keyof typeof REVIEW_NOTES)[] = ['not-held', 'sale-running', 'decision', 'limited'];

/** Each decision is a person reading a held lead; this many a minute is already more than that. */
const REVIEW_RULE = { name: 'console-review', limit: Number(process.env.RATE_LIMIT_CONSOLE_REVIEW ?? 60), windowMs: 60_000 };

export async function reviewRoute(db: Store, req: IncomingMessage): Promise<ApiAnswer> {
  const form = await readConsoleForm(req);
  const who = await requireUser(db, { method: 'POST', headers: req.headers as Record<string, string | undefined>, ip: clientIp(req) }, 'leads.review');
  const id = form.lead ?? '';
  if ('refused' in who) throw refusalError(who, LEAD_ID.test(id) ? `/leads/${id}` : undefined);
  if (!csrfValid(who.token, form.csrf)) throw formOutOfDate(LEAD_ID.test(id) ? `/leads/${id}` : undefined);
  // The lead's page runs no script: a browser's refused post goes back to it, which says why; an
  // API client (asking for JSON, or not naming text/html: curl, a script) or a post naming no lead id gets the 4xx.
  const page = browserFormPost(req.headers) && LEAD_ID.test(id);
  const limited = await limitedForm(req.headers, REVIEW_RULE, who.user.email, 'Too many review decisions', page ? `/leads/${id}?review=limited` : undefined);
  if (limited) return limited;
  const decision = form.decision;
  if (decision !== 'release' && decision !== 'reject') {
    if (page) return { status: 303, body: { location: `/leads/${id}?review=decision` }, headers: { Location: `/leads/${id}?review=decision` } };
    throw new ApiError(400, 'The decision must be release or reject');
  }
  const lead = LEAD_ID.test(id) ? await db.selectFrom('leads').select('id').where('id', '=', id).executeTakeFirst() : undefined;
  if (!lead) throw new ApiError(404, 'No such lead');
  const outcome = await reviewHeldLead(db, lead.id, decision, new Date());
  if (outcome === 'released' || outcome === 'rejected') {
    await audit(db, { actor: who.user.email, action: outcome === 'released' ? 'lead_released' : 'lead_rejected', target: lead.id });
    if (outcome === 'released') await startSale(db, lead.id).catch((err: Error) => console.error(`[sale] not started for ${lead.id}: ${err.message}`));
  }
  const location = `/leads/${lead.id}?review=${outcome}`;
  return { status: 303, body: { location }, headers: { Location: location } };
}

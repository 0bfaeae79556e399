/**
 * The borrower's opt-out ("Stop calls and emails"): the phone or email is checked, kept only as
 * keyed hashes in `suppressions` (never the plaintext), and every buyer that may hold a lead with
 * that contact — and gave an optOutUrl — gets a signed notice through the outbox (retried until
 * it answers; engine/outbox/notices.ts). In one transaction: a suppression is never recorded
 * without its notices, nor a notice queued twice for the same lead.
 *
 * Hashes are made under every key of the lead keyring (engine/sale/keys.ts contactKeys): a
 * lead sold before a key rotation was matched under the key of its day, and a later sale checks
 * suppressions under all of them, so a rotation never lets an opted-out contact be sold again.
 */
import { isEmail } from '../browser/formRules';
import { PHONE_WORDS, type Country } from '../browser/regions';
import type { Store } from '../store/db';
import { ACCEPT_NOT_TAKEN } from './answers';
import { contactHashes, normaliseEmail, normalisePhone } from './contact';
import { queueOutbox } from '../store/sales';

/** The outbox row of an opt-out notice: "optout:<buyer id>" (the outbox worker sends it: engine/outbox/notices.ts). */
export const OPT_OUT_NOTICE = 'optout:';

export interface OptOutBody {
  phone?: string;
  email?: string;
}

/**
 * The contact to suppress, or the problems to show ("/pointer: reason", as the API handler words
 * them). Any country's phone is accepted (a borrower may have applied on another country's
 * brand); the hint names the phone of the brand's country, as its application form does.
 */
export function readOptOut(body: OptOutBody, country: Country): { ok: true; phone?: string; email?: string } | { ok: false; problems: string[] } {
  const phone = body.phone?.trim() ?? '';
  const email = body.email?.trim() ?? '';
  const problems: string[] = [];
  if (!phone && !email) problems.push('/: enter the phone number or the email address you gave on your request');
  // a letter is not a typo normalising may drop: "5125550123x" is not the number given on a request
  if (phone && (/\p{L}/u.test(phone) || !normalisePhone(phone))) problems.push(`/phone: ${PHONE_WORDS[country].error.replace(/^E/, 'e')}`);
  if (email && (!isEmail(email) || !normaliseEmail(email))) problems.push('/email: enter an email address such as ana@example.com');
  return problems.length ? { ok: false, problems } : { ok: true, ...(phone ? { phone } : {}), ...(email ? { email } : {}) };
}

/** Every keyed hash of the contact, under each key. */
export const optOutHashes = (keys: readonly Buffer[], contact: OptOutBody): string[] => [
  ...new Set(keys.flatMap((k) => contactHashes(k, { phone: contact.phone ?? '', email: contact.email ?? '' }))),
];

/** The outbox row of a lead sent to a deliver buyer: "buyer:<buyer id>" (engine/sale/buyers.ts deliverBuyerDestination). */
export const DELIVER_BUYER = 'buyer:';

/**
 * Queues the opt-out notice of each lead among `leadIds` that a buyer with an optOutUrl may hold:
 * the buyer that bought it, each deliver buyer it was delivered to or sent to without a clear
 * answer, and each post buyer whose accept we did not take or whose answer never said (again for
 * the same lead and buyer: nothing). Returns how many rows were new or already there.
 */
export async function queueOptOutNotices(db: Store, leadIds: readonly string[], wantsNotice: (buyerId: string) => boolean, now: Date): Promise<number> {
  if (!leadIds.length) return 0;
  const ids = [...new Set(leadIds)];
  const sold = await db
    .selectFrom('lead_sales')
    .select(['lead_id', 'buyer_id'])
    .where('lead_id', 'in', ids)
    .where('status', 'in', ['sold', 'returned'])
    .execute();
  // A delivery reached the buyer when it answered 2xx, and may have when an attempt went out and
  // its answer did not say (a 5xx, a timeout, a broken connection: the row is then retried or
  // given up): a buyer that may hold the lead is told. Only a first answer that turned the lead
  // down (a 4xx), or a lead never sent, leaves it out.
  const delivered = await db
    .selectFrom('lead_deliveries')
    .select(['lead_id', 'destination'])
    .where('lead_id', 'in', ids)
    .where('destination', 'like', `${DELIVER_BUYER}%`)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'delivered'),
        eb.and([eb('status', 'in', ['pending', 'failed']), eb('attempts', '>', 0)]),
        eb.and([eb('status', '=', 'rejected'), eb('attempts', '>', 1)]),
      ]),
    )
    .execute();
  // A post buyer that was not sold the lead may hold it too: it answered "accepted" and we could
  // not take the accept (it was not told: it may believe it bought the lead), or its answer never
  // said (it may have bought it; answers.ts).
  const posted = await db
    .selectFrom('sale_events')
    .select(['lead_id', 'buyer_id'])
    .where('lead_id', 'in', ids)
    .where('step', '=', 'post')
    .where((eb) => eb.or([eb('outcome', '=', 'unconfirmed'), eb.and([eb('outcome', '=', 'refused'), eb('detail', 'like', `${ACCEPT_NOT_TAKEN}%`)])]))
    .execute();
  const had = [
    ...sold.map((s) => ({ lead_id: s.lead_id, buyer_id: s.buyer_id })),
    ...delivered.map((d) => ({ lead_id: d.lead_id, buyer_id: d.destination.slice(DELIVER_BUYER.length) })),
    ...posted,
  ];
  const rows = [...new Map(had.map((h) => [`${h.lead_id} ${h.buyer_id}`, h])).values()].filter((s) => s.buyer_id && wantsNotice(s.buyer_id));
  if (!rows.length) return 0;
  await queueOutbox(
    db,
    rows.map((r) => ({ leadId: r.lead_id, destination: `${OPT_OUT_NOTICE}${r.buyer_id}` })),
    now,
  );
  return rows.length;
}

/** Records the opt-out and queues the buyers' notices; how many notices it queued. */
export async function recordOptOut(
  db: Store,
  keys: readonly Buffer[],
  contact: OptOutBody,
  wantsNotice: (buyerId: string) => boolean,
  now: Date,
): Promise<{ notices: number }> {
  const hashes = optOutHashes(keys, contact);
  if (!hashes.length) return { notices: 0 };
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('suppressions')
      .values(hashes.map((hash) => ({ hash, created_at: now.toISOString() })))
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
    const leads = await trx.selectFrom('contact_hashes').select('lead_id').distinct().where('hash', 'in', hashes).execute();
    return {
      notices: await queueOptOutNotices(
        trx,
        leads.map((l) => l.lead_id),
        wantsNotice,
        now,
      ),
    };
  });
}

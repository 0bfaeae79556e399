/**
 * Which of a buyer's calls (sale_events: pings and posts) are failures rather than the buyer's own
 * decision. The wording engine/sale/answers.ts and runner.ts give an answer that was read and
 * understood — a plain "no bid", a bid under the floor, a refusal, a post interrupted by a buyer no
 * longer configured — is the buyer deciding, not failing. Every other ping without a bid and every
 * other refused or unconfirmed post is a failure: no answer in time, a broken or refused
 * connection, a status other than 200, a body we could not read or a hostile one, and an accept
 * the sale could not take ("accept not taken: …", a price under the floor included): the buyer is
 * not told, and believes it bought the lead until the operator tells it. ("price % under the
 * floor%" is such an accept recorded before that wording.)
 * The failures alert counts these, and the console's "last error" columns show only these.
 * (No server import: the buyers page's own module uses it in the browser bundle.)
 */

/** LIKE patterns of the details that are decisions, by step. */
export const DECISIONS = {
  ping: ['no bid%', 'bid under the floor%'],
  post: ['refused%', 'price % under the floor%', 'interrupted%'],
} as const;

const likeToRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('%')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
const DECIDED = { ping: DECISIONS.ping.map(likeToRegExp), post: DECISIONS.post.map(likeToRegExp) };

/** Whether one call failed (the same rule as the SQL in engine/console/alertQueries.ts). */
export function isFailedCall(step: string, outcome: string, detail: string): boolean {
  if (step === 'ping') return outcome === 'no-bid' && !DECIDED.ping.some((r) => r.test(detail));
  if (step === 'post') return outcome === 'unconfirmed' || (outcome === 'refused' && !DECIDED.post.some((r) => r.test(detail)));
  return false;
}

/**
 * The console's buyers: each buyer's pings, bids, posts, wins and money over a date range
 * (engine/console/buyerQueries.ts) — days in the viewer's time zone, as on the overview (buyersPage.ts) —, the money in the viewer's currency with the rates named as on
 * the overview, with an alert for a buyer that has refused everything lately.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DateRangeFields, DataTable, Said, buttonClass, linkClass } from '../../blocks/console/ConsoleLayout';
import { money, num, pct } from '../../blocks/console/format';
import { capsUsedOf } from '../../engine/console/buyerCaps';
import { ALERT_AFTER, type BuyerStats } from '../../engine/console/buyerQueries';
import { operatorBuyers } from '../../engine/console/buyersPage';
import { consolePage, queryText, type ConsoleProps } from '../../engine/console/pages';
import { editableBuyerIds } from '../../engine/console/buyerForm';
import { BUYER_KIND, liveBuyers } from '../../engine/sale/buyerRevisions';
import { revisionsReady } from '../../engine/store/liveRevisions';
import { ratesNote, ratesUsed, type RateUsed } from '../../engine/traffic/currency';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{
  from: string;
  to: string;
  /** the operator's time zone, whose days the range names */
  zone: string;
  problem: string;
  rows: BuyerStats[];
  buyers: { id: string; name: string; paused: boolean }[];
  /** the currency the money is in, and the currencies converted to it or left out */
  currency: string;
  currencies: RateUsed[];
}>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'buyers.view', async (db, viewer) => {
    await revisionsReady(BUYER_KIND);
    const buyers = [...liveBuyers().buyers.values()].map((b) => b.buyer);
    const listed = editableBuyerIds().map((id) => {
      const b = buyers.find((x) => x.id === id);
      return { id, name: b?.displayName ?? id, paused: b?.enabled === false };
    });
    const asked = { from: queryText(ctx.query.from), to: queryText(ctx.query.to) };
    const { from, to, problem, rows, zone, money } = await operatorBuyers(db, viewer.email, asked, await capsUsedOf(db, buyers));
    return { from, to, zone, problem, buyers: listed, rows, currency: money.to, currencies: ratesUsed(money) };
  });

export default function BuyersPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Buyers" viewer={props.viewer} forbidden />;
  const alerts = props.rows.filter((r) => r.alert);
  const cur = props.currency;
  return (
    <ConsoleLayout title="Buyers" viewer={props.viewer} current="/buyers">
      <ul className="mb-4" aria-label="Each buyer's page">
        {props.buyers.map((b) => (
          <li key={b.id}>
            <a href={`/buyers/${b.id}`} className={linkClass}>
              <Said text={b.name} />
            </a>{' '}
            ({b.id}, {b.paused ? 'paused' : 'active'})
          </li>
        ))}
      </ul>
      <form method="get" action="/buyers" className="mb-4 flex flex-wrap items-end gap-3">
        <DateRangeFields from={props.from} to={props.to} />
        <button type="submit" className={buttonClass}>
          Show
        </button>
      </form>
      {props.problem && (
        <p role="alert" className="mb-4 rounded border border-amber-700 bg-amber-50 p-2">
          {props.problem}
        </p>
      )}
      {alerts.length > 0 && (
        <div role="alert" className="mb-4 rounded border border-red-700 bg-red-50 p-2">
          {alerts.map((a) => (
            <p key={a.buyer}>{`${a.buyer}: its last ${ALERT_AFTER} pings and posts were all refused or unanswered bids. Last error: ${a.lastError || '—'}`}</p>
          ))}
        </div>
      )}
      <p className="mb-4">
        Won: sales decided in the range, at their price. Revenue: that, less the prices given back by the returns made in the range — as on the overview.
        Amounts in {cur}. Bid rate: bids of the pings the buyer answered; accept rate: acceptances of the posts it answered. Interrupted (ours): pings and posts
        whose answer was never recorded because our sale stopped while they were out — counted in no rate and in no alert, as they are not the buyer&apos;s
        doing.
      </p>
      {props.currencies.length > 0 && (
        <p className="mb-4" data-testid="rates">
          {ratesNote(props.currencies, cur, money)}
        </p>
      )}
      <DataTable
        caption={`Buyers, ${props.from} to ${props.to} (${props.zone})`}
        head={[
          'Buyer',
          'Pings',
          'Bids',
          'Bid rate',
          'Posts',
          'Accepted',
          'Accept rate',
          'Interrupted (ours)',
          'Won',
          'Revenue',
          'Average price',
          'Returned',
          'Caps used',
          'Latency',
          'Last error',
        ]}
        numeric={[false, true, true, true, true, true, true, true, true, true, true, true, false, true, false]}
        rows={props.rows.map((r) => [
          r.buyer,
          num(r.pings),
          num(r.bids),
          pct(r.bidRate),
          num(r.posts),
          num(r.accepted),
          pct(r.acceptRate),
          num(r.interrupted),
          num(r.wins),
          money(r.revenueCents, cur),
          money(r.averagePriceCents, cur),
          r.returned ? `${num(r.returned)} (${pct(r.returnRate)}), ${money(r.returnedCents, cur)} back` : '0',
          r.capsUsed || 'no caps',
          `${num(r.averageLatencyMs)} ms`,
          r.lastError,
        ])}
      />
    </ConsoleLayout>
  );
}

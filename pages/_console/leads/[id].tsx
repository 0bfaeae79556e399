/**
 * One lead in the console: the person (masked for an analyst until they reveal it — the reveal
 * is audited and lasts REVEAL_MS; an admin sees it), the visit it came from (landing page,
 * campaign, click ids), the consent snapshot, the sale (with where the borrower was sent, masked
 * with the person) and its timeline (eligibility, pings, bids, posts, the decision) and the
 * deliveries, its consent certificate (whether it verifies, its page, its claims) and its
 * screening (quality score, reason codes, routing) — a lead held for review
 * has a form to release it for sale or reject it (leads.review, audited). A viewer may not open it
 * (403). An admin may open the lead's form trace
 * (`?trace=open`: decrypted on demand, each opening audited); any other role asking for it gets
 * 403.
 */
import type { GetServerSideProps } from 'next';
import { Fragment, type ReactNode } from 'react';
import { ConsoleLayout, DataTable, Said, buttonClass, linkClass, said } from '../../../blocks/console/ConsoleLayout';
import { money, placeText, when } from '../../../blocks/console/format';
import { openLeadFormTrace, type ShownFormTrace } from '../../../engine/console/formTraceQuery';
import { visibleLines, visibleText } from '../../../engine/browser/safeText';
import { leadDetail, revealedBy } from '../../../engine/console/leadQueries';
import { leadCertificate } from '../../../engine/console/certificateQueries';
import { leadScreening } from '../../../engine/console/qualityQueries';
import { REVIEW_NOTES, REVIEW_REFUSED } from '../../../engine/console/reviewRoute';
import { REVEAL_LIMITED } from '../../../engine/console/formRoutes';
import { consolePage, ownKey, queryText, type ConsoleProps } from '../../../engine/console/pages';
import { may } from '../../../engine/console/roles';
import { saleSweepIntervalMs } from '../../../engine/sale/settings';
import { VISIT_CLICK_IDS, type VisitClickId } from '../../../engine/store/trafficRules';

export const config = { unstable_runtimeJS: false };

type Detail = NonNullable<Awaited<ReturnType<typeof leadDetail>>>;
type Props = ConsoleProps<{
  id: string;
  detail: Detail | null;
  screening?: Awaited<ReturnType<typeof leadScreening>>;
  certificate?: Awaited<ReturnType<typeof leadCertificate>>;
  canReveal: boolean;
  canReview?: boolean;
  /** what the last review post came to (?review=…), as its fixed message, and whether it was refused */
  reviewNote?: string;
  reviewRefused?: boolean;
  /** a reveal refused for its rate limit (?reveal=limited), as its fixed message */
  revealNote?: string;
  canTrace: boolean;
  trace: ShownFormTrace | null | 'closed';
  /** how often the sale sweep runs (SALE_SWEEP_INTERVAL_MS), said with a sale whose process died */
  sweepEveryMs?: number;
}>;

export const getServerSideProps: GetServerSideProps<Props> = (ctx) => {
  const wantsTrace = queryText(ctx.query.trace) === 'open';
  return consolePage(ctx, wantsTrace ? 'leads.trace' : 'leads.view', async (db, viewer) => {
    const id = queryText(ctx.query.id, 64);
    const revealed = viewer.role !== 'admin' && may(viewer.role, 'leads.reveal') && (await revealedBy(db, viewer.email, id));
    const detail = (await leadDetail(db, viewer.role, id, revealed, new Date())) ?? null;
    if (!detail) ctx.res.statusCode = 404;
    const lead = detail?.lead;
    const trace = wantsTrace && lead ? await openLeadFormTrace(db, viewer.email, lead) : 'closed';
    const screening = detail ? await leadScreening(db, id) : null;
    const certificate = lead ? await leadCertificate(db, lead.certificate_id) : null;
    const review = ownKey(REVIEW_NOTES, queryText(ctx.query.review, 20));
    const reviewNote = review ? REVIEW_NOTES[review] : '';
    const revealNote = queryText(ctx.query.reveal, 20) === 'limited' ? REVEAL_LIMITED : '';
    return {
      id,
      detail,
      screening,
      certificate,
      canReveal: !!lead?.masked && may(viewer.role, 'leads.reveal'),
      canReview: may(viewer.role, 'leads.review'),
      reviewNote,
      reviewRefused: !!review && REVIEW_REFUSED.includes(review),
      revealNote,
      canTrace: may(viewer.role, 'leads.trace'),
      trace,
      sweepEveryMs: saleSweepIntervalMs().value,
    };
  });
};

const SCREENING_ROUTING: Record<string, string> = {
  offer: 'offered to buyers',
  'low-quality-buyers': 'under the brand’s threshold: offered only to buyers that take low-quality leads',
  hold: 'under the brand’s threshold: held for review',
  refuse: 'refused by screening',
  released: 'held for review, then released for sale by an operator',
  rejected: 'held for review, then rejected by an operator',
};

/**
 * A sale's status as the page states it. A pending one says whether a process is selling it now,
 * or the one selling it stopped (its lease ran out: the sweep takes it up again), and when no
 * sweep took it up for a while, that one may not be running.
 */
function saleStatusText(sale: NonNullable<Detail['sale']>, sweepEveryMs = 5000): string {
  const every = `every ${sweepEveryMs % 1000 === 0 ? `${sweepEveryMs / 1000} s` : `${sweepEveryMs} ms`}`;
  const noSweep = ` No sweep has taken it up in over a minute: check that a server runs the sale sweep (SALE_WORKER not off) and reaches the store.`;
  switch (sale.progress) {
    case 'selling':
      return `pending: being sold now (the process selling it holds its lease until ${when(sale.claimed_until)})`;
    case 'waiting':
      return `pending: waiting to start (a server starts it as soon as it has a free sale slot; the sale sweep, ${every}, takes it up otherwise)${sale.overdue ? noSweep : ''}`;
    case 'interrupted':
      return (
        `pending, interrupted: the process selling this lead stopped before deciding the sale (its lease on the sale ran out at ${when(sale.claimed_until)}). ` +
        `The sale sweep, ${every} on each server running it, takes the sale up again and finishes it; the lead is never sold twice.${sale.overdue ? noSweep : ''}`
      );
    default:
      return sale.status;
  }
}

/** The form trace as the trace holds it: the request the apply form posted and the answer it got. */
function FormTraceView({ trace }: { trace: ShownFormTrace | null }) {
  if (!trace) return <p>No form trace was stored for this lead (the browser sends it after the form’s answer; it may have been lost or refused).</p>;
  return (
    <>
      <Facts
        label="1. The form’s request"
        facts={[['Sent', when(trace.at)], ['Form', trace.type], ['URL', trace.url], ...trace.search.map(([k, v]): [string, string] => [`Query ${k}`, v])]}
      />
      <h3 className="mb-1 font-semibold">The posted body</h3>
      <pre className="mb-6 rounded border border-slate-400 bg-slate-50 p-2 text-sm break-all whitespace-pre-wrap">{visibleLines(trace.requestBody)}</pre>
      <Facts label="2. The answer" facts={[['Status', String(trace.status)]]} />
      <h3 className="mb-1 font-semibold">The answer’s body</h3>
      <pre className="mb-6 rounded border border-slate-400 bg-slate-50 p-2 text-sm break-all whitespace-pre-wrap">{visibleLines(trace.responseBody)}</pre>
    </>
  );
}

/** The visit's click ids as "gclid=…, fbclid=…", each id isolated; '' when it had none. */
function clickIds(visit: Record<VisitClickId, string>): ReactNode {
  const ids = VISIT_CLICK_IDS.filter((k) => visit[k]);
  return ids.length === 0
    ? ''
    : ids.map((k, i) => (
        <Fragment key={k}>
          {i > 0 && ', '}
          {k}=<Said text={visit[k]} />
        </Fragment>
      ));
}
/** A fact's value: text shown as visibleText shows it ('—' when empty), or one joined with said`…` (its outside parts isolated). */
function Facts({ label, facts }: { label: string; facts: [string, string | ReactNode][] }) {
  return (
    <section aria-label={label} className="mb-6">
      <h2 className="mb-2 text-xl font-semibold">{label}</h2>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        {facts.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium text-slate-700">{visibleText(k)}</dt>
            <dd className="break-all">{typeof v === 'string' ? visibleText(v) || '—' : v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export default function LeadPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Lead" viewer={props.viewer} forbidden />;
  const { detail, id, canReveal, canReview, reviewNote, reviewRefused, revealNote, canTrace, trace, viewer, screening, certificate, sweepEveryMs } = props;
  if (!detail?.lead) return <ConsoleLayout title="No such lead" viewer={viewer} current="/leads">{`There is no lead ${id}.`}</ConsoleLayout>;
  const { lead, visit, sale, events, deliveries } = detail;
  return (
    <ConsoleLayout title={`Lead ${lead.id}`} viewer={viewer} current="/leads">
      <Facts
        label="Person"
        facts={[
          ['Name', said`${lead.first_name} ${lead.last_name}`],
          ['Email', lead.email],
          ['Phone', lead.phone],
          ['Place', placeText(lead)],
          ['Loan', `${lead.loan_kind}, ${money(lead.amount * 100, lead.currency)}`],
          ['Stored', when(lead.created_at)],
          ['Brand and host', said`${lead.brand} (${lead.host})`],
        ]}
      />
      {lead.masked && <p className="mb-2">Personal data is masked for your role.</p>}
      {revealNote && (
        <p role="alert" className="mb-2 rounded border border-amber-700 bg-amber-50 p-2">
          {revealNote}
        </p>
      )}
      {canReveal && (
        <form method="post" action="/api/console/reveal" className="mb-6">
          <input type="hidden" name="csrf" value={viewer.csrf} />
          <input type="hidden" name="lead" value={lead.id} />
          <button type="submit" className={buttonClass}>
            Reveal personal data (recorded in the audit log)
          </button>
        </form>
      )}
      <Facts
        label="Visit"
        facts={
          visit
            ? [
                ['Landing page', visit.landing_path],
                ['Referrer', visit.referrer_host],
                ['Campaign', visit.campaign],
                ['Source', visit.source],
                ['Click ids', clickIds(visit)],
                ['Device', visit.device],
                ['Visited', when(visit.created_at)],
                // What buyers were sent, from the browser's first touch: a visitor back in a new tab or
                // after the visit ended applies on a visit without campaign, but the lead still carries it.
                ['Source sent with the lead', said`${lead.source} / ${lead.source2}`],
                ['Click id sent with the lead', lead.click_id],
              ]
            : [
                ['Visit', 'none recorded'],
                ['Source', said`${lead.source} / ${lead.source2}`],
                ['Click id', lead.click_id],
              ]
        }
      />
      <Facts
        label="Consent"
        facts={[
          ['Version', lead.consent_version],
          ['Text shown', lead.consent_text],
          ['Opted out of sale', lead.privacy_opt_out ? 'yes' : 'no'],
        ]}
      />
      <Facts
        label="Consent certificate"
        facts={
          certificate && 'unreadable' in certificate
            ? [
                ['Certificate', lead.certificate_id ?? ''],
                ['Signature', `cannot be opened here: ${certificate.unreadable}`],
              ]
            : certificate
              ? [
                  ['Certificate', certificate.id],
                  ['Signature', certificate.problem ? `does not verify: ${certificate.problem}` : 'verifies'],
                  ['Its page', certificate.pageAddress],
                  ['Issued', when(certificate.issuedAt)],
                  ['Kept until', when(certificate.keptUntil)],
                  ['Page as served (SHA-256)', certificate.htmlSha256 ?? 'not recorded (the page was not in this server’s cache)'],
                  [
                    'Consent as shown',
                    certificate.consentMeetsRules
                      ? 'met the brand’s size and contrast rules'
                      : `did not meet the brand’s rules: ${certificate.consentProblems.join('; ')}`,
                  ],
                  ['Claimed by', certificate.claims.map((c) => `${c.buyer} (${when(c.at)})`).join(', ') || 'no buyer yet'],
                  ...(lead.consent_provider
                    ? [
                        [lead.consent_provider === 'jornaya' ? 'Jornaya LeadiD' : 'TrustedForm certificate', lead.consent_provider_id || 'missing'] as [
                          string,
                          string,
                        ],
                      ]
                    : []),
                ]
              : [['Certificate', lead.certificate_id ? 'no longer kept' : 'none']]
        }
      />
      <Facts
        label="Sale"
        facts={
          sale
            ? [
                ['Status', saleStatusText(sale, sweepEveryMs)],
                ['Buyer', sale.buyer_id ?? ''],
                ['Price', money(sale.price_cents)],
                ['Borrower sent to', sale.redirect_url ?? ''],
                ['Reason', sale.reason ?? ''],
                ['Decided', when(sale.decided_at)],
              ]
            : [['Status', 'no sale']]
        }
      />
      <Facts
        label="Screening"
        facts={
          screening
            ? [
                ['Quality score', `${screening.score} (${screening.band})`],
                ['Reason codes', screening.codes.join(', ') || 'none'],
                ['Routing', SCREENING_ROUTING[screening.routing] ?? screening.routing],
              ]
            : [['Quality score', 'not screened']]
        }
      />
      {reviewNote && (
        <p role={reviewRefused ? 'alert' : 'status'} className="mb-4 rounded border border-slate-400 bg-slate-50 p-2">
          {reviewNote}
        </p>
      )}
      {canReview && screening?.routing === 'hold' && (
        <form method="post" action="/api/console/review" className="mb-6 flex flex-wrap gap-3" aria-label="Review the held lead">
          <input type="hidden" name="csrf" value={viewer.csrf} />
          <input type="hidden" name="lead" value={lead.id} />
          <button type="submit" name="decision" value="release" className={buttonClass}>
            Release for sale
          </button>
          <button type="submit" name="decision" value="reject" className={buttonClass}>
            Reject
          </button>
        </form>
      )}
      <DataTable
        caption="The sale’s timeline"
        head={['When', 'Buyer', 'Step', 'Outcome', 'Price', 'Latency', 'Detail']}
        rows={events.map((e) => [
          when(e.at),
          e.buyer_id,
          e.step,
          e.outcome,
          money(e.price_cents),
          e.latency_ms === null ? '—' : `${e.latency_ms} ms`,
          e.detail,
        ])}
      />
      <DataTable
        caption="Deliveries"
        head={['Destination', 'Status', 'Attempts', 'Delivered', 'Last error']}
        rows={deliveries.map((d) => [d.destination, d.status, String(d.attempts), when(d.delivered_at), d.last_error ?? ''])}
      />
      {canTrace && (
        <section aria-labelledby="form-trace" className="mb-6">
          <h2 id="form-trace" className="mb-2 text-xl font-semibold">
            Form trace
          </h2>
          {trace === 'closed' ? (
            <a href={`/leads/${encodeURIComponent(lead.id)}?trace=open#form-trace`} className={linkClass}>
              Open the form trace (decrypted now, recorded in the audit log)
            </a>
          ) : (
            <FormTraceView trace={trace} />
          )}
        </section>
      )}
    </ConsoleLayout>
  );
}

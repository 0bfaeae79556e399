/**
 * After the request is received: "Finding a lender for you…" with visible progress while the
 * server sells the lead (polling GET /api/sale-status with the lead's token, at most 45 s), then
 * either the lender who accepted — with a button to continue and an announced automatic redirect
 * the borrower can stop — or, for a request screening held for a check by an operator, that it is
 * being checked before it goes to lenders (never why), still asked about every REVIEW_POLL_MS for
 * REVIEW_WAIT_MS, so an operator's release and the sale that follows show here as any sale's result
 * does, then left for the borrower to ask again — or an honest "no lender right now" with
 * next steps: free counselling in the brand's country, and (to every borrower alike, so it tells a
 * stranger nothing about a given phone or email) that a request with opted-out contact details is
 * not passed on.
 */
import { useEffect, useRef, useState } from 'react';
import { creditHelpOf } from '../../engine/browser/creditHelp';
import type { LinkView } from '../../engine/site/model';
import { CONTACT_OPT_OUT_LABEL, CONTACT_OPT_OUT_PATH } from '../../engine/browser/sharedRoutes';
import type { SaleStatusAnswer } from '../../schemas/api.types';
import { REDIRECT_DELAY_S, salePoll, type SaleView, type SaleWait } from './saleView';

async function fetchStatus(token: string): Promise<SaleStatusAnswer | undefined> {
  try {
    const res = await fetch(`/api/sale-status?token=${encodeURIComponent(token)}`, { headers: { accept: 'application/json' }, cache: 'no-store' });
    return res.ok ? ((await res.json()) as SaleStatusAnswer) : undefined;
  } catch {
    return undefined;
  }
}

export function SaleStatus({ token, homeHref, guide, country }: { token: string; homeHref: string; guide: LinkView; country: string }) {
  const help = creditHelpOf(country);
  const [view, setView] = useState<SaleView>({ kind: 'finding', progress: 0 });
  const [countdown, setCountdown] = useState<number | undefined>(undefined);
  const [stopped, setStopped] = useState(false);
  // each "Check again" after the wait for a check ran out starts that wait afresh
  const [round, setRound] = useState(0);
  // the "Check again" button goes as it is used: focus moves to the heading it belongs to, not to the page's start
  const reviewHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let wait: SaleWait = { phase: round === 0 ? 'finding' : 'review', since: Date.now() };
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const answer = await fetchStatus(token);
      if (!alive) return;
      const step = salePoll(answer, wait, Date.now());
      wait = step.wait;
      setView(step.view);
      if (step.nextMs !== undefined) timer = setTimeout(() => void poll(), step.nextMs);
      else if (step.view.kind === 'matched' && step.view.continueUrl) setCountdown(REDIRECT_DELAY_S);
    };
    void poll();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [token, round]);

  useEffect(() => {
    if (countdown === undefined || stopped || view.kind !== 'matched' || !view.continueUrl) return;
    if (countdown <= 0) {
      window.location.assign(view.continueUrl);
      return;
    }
    const t = setTimeout(() => setCountdown((c) => (c === undefined ? c : c - 1)), 1000);
    return () => clearTimeout(t);
  }, [countdown, stopped, view]);

  const link = 'inline-flex min-h-11 items-center text-blue-800 underline';
  const button = 'inline-flex min-h-11 min-w-44 items-center justify-center rounded-md bg-brand px-6 py-2 font-bold text-white no-underline hover:opacity-90';
  const secondary =
    'inline-flex min-h-11 items-center justify-center rounded-md border-2 border-slate-500 bg-white px-6 py-2 font-semibold text-slate-900 hover:bg-slate-100';

  return (
    <div className="space-y-3 text-slate-800" data-sale-state={view.kind}>
      {view.kind === 'finding' && (
        <>
          <h4 className="text-lg font-bold text-slate-900">Finding a lender for you…</h4>
          <progress className="h-3 w-full" max={100} value={Math.round(view.progress * 100)} aria-label="Finding a lender">
            {Math.round(view.progress * 100)}%
          </progress>
          <p>We are asking lenders in our network right now. This usually takes a few seconds and at most 45 seconds. Please keep this page open.</p>
        </>
      )}
      {view.kind === 'matched' && (
        <>
          <h4 className="text-lg font-bold text-slate-900">You&apos;re matched with {view.lender}</h4>
          {view.demo && <p className="font-semibold">This is the built-in demo lender: a demonstration, not a real lender or a real loan.</p>}
          {view.continueUrl ? (
            <>
              <p>
                {view.lender} accepted your request. On its website you will see the amount, APR, fees and repayment dates before you sign anything; you are not
                obliged to accept.
              </p>
              <p>
                <a href={view.continueUrl} className={button} rel="noopener">
                  Continue to {view.lender}
                </a>
              </p>
              {countdown !== undefined && !stopped && (
                <p>
                  Taking you to {view.lender} in {countdown} second{countdown === 1 ? '' : 's'}.{' '}
                  <button
                    type="button"
                    className={secondary}
                    onClick={() => {
                      setStopped(true);
                      setCountdown(undefined);
                    }}
                  >
                    Stay on this page
                  </button>
                </p>
              )}
            </>
          ) : (
            <p>
              {view.lender} accepted your request and will contact you by phone, text or email with its offer: the amount, APR, fees and repayment dates, before
              you sign anything. You are not obliged to accept.
            </p>
          )}
        </>
      )}
      {view.kind === 'review' && (
        <>
          <h4 ref={reviewHeading} tabIndex={-1} className="text-lg font-bold text-slate-900 focus:outline-none">
            We&apos;re checking your request
          </h4>
          <p>
            Your request needs a short check by our team before it goes to lenders. If a lender accepts it, it will contact you by phone, text or email with its
            offer: the amount, APR, fees and repayment dates, before you sign anything. You do not owe anything.
          </p>
          {view.stopped ? (
            <>
              <p>
                This page has stopped checking for an answer. Select Check again, or reload this page later, to see whether a lender has accepted your request.
              </p>
              <p>
                <button
                  type="button"
                  className={secondary}
                  onClick={() => {
                    setView({ kind: 'review' });
                    setRound((r) => r + 1);
                    reviewHeading.current?.focus();
                  }}
                >
                  Check again
                </button>
              </p>
            </>
          ) : (
            <p>Keep this page open to see the result here as soon as the check is done, or reload this page later to check on it.</p>
          )}
        </>
      )}
      {view.kind === 'none' && (
        <>
          <h4 className="text-lg font-bold text-slate-900">No lender right now</h4>
          <p>No lender in our network accepted your request at the moment. Your request was not sold, and you do not owe anything.</p>
          <p>
            Requests with a phone number or email address that someone asked us not to use are not passed on to lenders either.{' '}
            <a href={CONTACT_OPT_OUT_PATH} className={link}>
              How stopping calls and emails works
            </a>
          </p>
          <p>You could read our guide to your options, or {help.offer}.</p>
        </>
      )}
      <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-6">
        {view.kind === 'none' && (
          <li>
            <a href={help.href} className={link} rel="noopener">
              {help.label}
            </a>
          </li>
        )}
        <li>
          <a href={guide.href} className={link}>
            {guide.label}
          </a>
        </li>
        <li>
          <a href={homeHref} className={link}>
            Go to the home page
          </a>
        </li>
        <li>
          <a href={CONTACT_OPT_OUT_PATH} className={link}>
            Changed your mind? {CONTACT_OPT_OUT_LABEL}
          </a>
        </li>
      </ul>
      <p aria-live="polite" className="sr-only">
        {view.kind === 'matched'
          ? `You're matched with ${view.lender}.${view.continueUrl && countdown !== undefined && !stopped ? ` You will be taken to ${view.lender} in ${REDIRECT_DELAY_S} seconds unless you choose to stay.` : ''}`
          : view.kind === 'none'
            ? 'No lender right now. Your request was not sold.'
            : view.kind === 'review'
              ? `We're checking your request before it goes to lenders.${view.stopped ? ' This page has stopped checking for an answer.' : ''}`
              : 'Finding a lender for you.'}
      </p>
    </div>
  );
}

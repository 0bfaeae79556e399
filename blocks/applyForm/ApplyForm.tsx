'use client';
import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import {
  amountChangedNote,
  amountFromQuery,
  amountText,
  fieldError,
  FORM_STEPS,
  isZip,
  leadRequestBody,
  stepErrors,
  stepFields,
  type ApplyFormValues,
  type FieldKey,
  type FormStep,
} from '../../engine/browser/formRules';
import type { BlockProps } from '../types';
import { ErrorSummary } from './Fields';
import { formReducer, initialFormState, type Screen } from './formState';
import { laterScreensNow, loadLaterScreens, type LaterScreens } from './laterScreens';
import { initialRequest, keptValues, readStored, SESSION_KEY, STEP_STATE_KEY, stepOfHistoryState, writeStored } from './persist';
import { Progress } from './Progress';
import { RequestStep } from './RequestStep';
import { newIdempotencyKey, OFFLINE_MESSAGE, sendLead } from './send';
import { sendFormTrace, traceFetchesTo } from './formTrace';
import { readApplySource, readVisitTracking } from './tracking';
import { lookupZip, placeOfPostalCode, type ZipPlace } from './zip';
import { POSTAL_WORDS } from '../../engine/browser/regions';
import { funnel } from '../chrome/funnel';
import { rememberThisVisit } from '../chrome/visitTracking';
import { formMoveEvent } from '../../engine/browser/visit';

const FIELD_LABELS: Record<FieldKey, string> = {
  amount: 'Loan amount',
  zip: 'ZIP code',
  purpose: 'Loan purpose',
  vehicleYear: 'Model year',
  vehicleMake: 'Make',
  vehicleModel: 'Model',
  vehicleMileage: 'Approximate mileage',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email address',
  phone: 'Mobile phone number',
  incomeSource: 'Main source of income',
  monthlyIncome: 'Monthly income after tax',
  payFrequency: 'How often you are paid',
  dateOfBirth: 'Date of birth',
  consent: 'Consent',
};

/** Browser storage, or undefined where it is blocked (reading the property itself can throw). */
function storage(name: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[name];
  } catch {
    return undefined;
  }
}

const NEXT_STEP_OFFLINE = "We couldn't open the next step: you seem to be offline. Your answers are kept — press Continue again once your connection is back.";

const isStep = (screen: Screen): screen is FormStep => (FORM_STEPS as readonly string[]).includes(screen);

/**
 * The application form block. Embedded: step 1 amount + ZIP (+ purpose and vehicle
 * on title brands) → state gate → step 2 contact → step 3 income, date of birth, consent and
 * submit → thank-you; POSTs schemas/api/lead.schema.json to /api/leads. The server renders
 * step 1 at its final size; Continue is enabled once the script runs (a note says so without
 * JavaScript). Script provider: a labelled container for a third-party loader.
 */
export default function ApplyFormBlock(props: BlockProps<'applyForm'>) {
  return props.block.provider === 'script' ? <ScriptProvider {...props} /> : <EmbeddedForm {...props} />;
}

/**
 * A third-party form (SPEC §4, §7): its loader script is added once the page is interactive and
 * draws the form into the container; the form reports ready by dispatching `loansites:form-ready`
 * on window. Only then does trace capture start: fetches to the provider's lead-posting URL are
 * traced. The loader reads its settings from the script element's data attributes and from
 * window.loansitesForm: campaign, lead type, form type, the amount and v1 from the query.
 */
function ScriptProvider({ block, brand }: BlockProps<'applyForm'>) {
  const headingId = `${block.key}-heading`;
  const containerId = block.script?.containerId ?? `${block.key}-provider`;
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const script = block.script;
    if (!script) return;
    // v1 below is this visit's stored source
    rememberThisVisit();
    const query = new URLSearchParams(window.location.search);
    const settings = {
      container: containerId,
      campaign: script.campaign,
      ...(script.leadType !== undefined ? { leadType: String(script.leadType) } : {}),
      ...(script.formType ? { formType: script.formType } : {}),
      amount: query.get(brand.apply.amountParam) ?? '',
      v1: readApplySource(window.location.search, storage('localStorage')),
    };
    let uninstall: (() => void) | undefined;
    const onReady = () => {
      setReady(true);
      const traceKey = block.data.traceKey;
      if (traceKey && script.leadUrl && !uninstall)
        uninstall = traceFetchesTo(script.leadUrl, (exchange) => void sendFormTrace(script.formType ?? block.loanKind, exchange, traceKey));
    };
    window.addEventListener('loansites:form-ready', onReady);
    (window as unknown as { loansitesForm?: typeof settings }).loansitesForm = settings;
    const el = document.createElement('script');
    el.src = script.src;
    el.async = true;
    for (const [k, v] of Object.entries(settings)) el.dataset[k] = v;
    const add = () => document.body.appendChild(el);
    if (document.readyState === 'complete') add();
    else window.addEventListener('load', add, { once: true });
    return () => {
      window.removeEventListener('loansites:form-ready', onReady);
      window.removeEventListener('load', add);
      uninstall?.();
      el.remove();
    };
  }, [block, brand.apply.amountParam, containerId]);
  return (
    <section aria-labelledby={headingId} className="mx-auto my-6 max-w-3xl px-4">
      <h2 id={headingId} className="text-2xl font-bold text-slate-900">
        {block.heading}
      </h2>
      <p className="mt-3 text-sm text-slate-800">{block.data.representativeExample}</p>
      {/* The loader owns the container's children; React keeps out of it. */}
      {!ready && <p className="mt-4 text-slate-700">Loading the application form…</p>}
      <div id={containerId} role="region" aria-label={`${block.heading}: application form`} aria-busy={!ready} className="mt-4 min-h-96" />
      <noscript>
        <p className="mt-2 text-slate-800">The application form needs JavaScript. Turn it on in your browser, or call us to apply by phone.</p>
      </noscript>
    </section>
  );
}

function EmbeddedForm({ block, brand }: BlockProps<'applyForm'>) {
  const { data, loanKind: kind } = block;
  const { country } = data;
  const words = POSTAL_WORDS[country];
  const labels = { ...FIELD_LABELS, zip: words.code };
  const base = `form-${block.key}`;
  const idOf = (f: FieldKey) => `${base}-${f}`;
  const [state, dispatch] = useReducer(formReducer, undefined, () => initialFormState(kind, amountText(data.defaultAmount, brand.locale), country));
  const { screen, values } = state;
  const [hydrated, setHydrated] = useState(false);
  // The screens after step 1 arrive when the borrower first touches the form (laterScreens.ts); a move to one waits for them.
  const [later, setLater] = useState<LaterScreens | undefined>(laterScreensNow);
  const fetchLater = () =>
    loadLaterScreens().then((m) => {
      setLater(m);
      return m;
    });
  const prefetchLater = () => {
    if (!later) fetchLater().catch(() => undefined);
  };
  const [checkingZip, setCheckingZip] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // The next screen's code could not be fetched (offline): said on screen, next to Continue.
  const [laterUnreachable, setLaterUnreachable] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lookups = useRef(new Map<string, Promise<ZipPlace | null>>());
  const queryAmount = useRef<number | null>(null);
  // The amount the visitor came with was outside the form's amounts: said next to the field until they change it.
  const [amountNote, setAmountNote] = useState<string | undefined>(undefined);
  const idempotencyKey = useRef<string | null>(null);
  const sending = useRef(false);
  const pendingFocus = useRef<FieldKey | null>(null);
  const shownScreen = useRef<Screen>(screen);
  const screenNow = useRef<Screen>(screen);
  const waitingOnline = useRef(false);
  // The state of the ZIP the visitor gave, for the funnel's count of refused states.
  const placeState = useRef<string | undefined>(undefined);
  // The latest screen and ZIP state for the callbacks and effects below that must not re-run when
  // they change; kept after each commit (first among the effects, so those below read them fresh).
  useEffect(() => {
    screenNow.current = screen;
    placeState.current = state.place?.place?.stateCode;
  });

  // After mount: the amount from the query (or a reload's stored answers), and the step a reload was on. In a task of its own:
  // the page load's first sessionStorage read waits on the browser process, which would lengthen hydration's task.
  useEffect(() => {
    let live = true;
    const restore = window.setTimeout(() => {
      queryAmount.current = amountFromQuery(window.location.search, data.amountParam);
      setAmountNote(amountChangedNote(window.location.search, data.amountParam, brand.locale, brand.currency));
      const stored = readStored(storage('sessionStorage'));
      // A reload (Next replaces the entry's state on load, so the step comes from storage) opens the step it was on.
      const navigation = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
      const reopen = stored?.step && navigation?.type === 'reload' ? stored.step : undefined;
      const start = (step: FormStep | undefined) => {
        if (!live) return;
        dispatch({ type: 'restore', ...initialRequest(queryAmount.current, stored, amountText(data.defaultAmount, brand.locale)), kept: stored?.kept ?? {} });
        if (step) dispatch({ type: 'goto', screen: step, today: new Date() });
        setHydrated(true);
      };
      // A later step is opened once its screen has arrived (the form stays as the server drew it meanwhile).
      if (reopen && reopen !== 'request')
        fetchLater().then(
          () => start(reopen),
          () => start(undefined),
        );
      else start(reopen);
    }, 0);
    funnel({ type: 'apply_view' });
    return () => {
      live = false;
      window.clearTimeout(restore);
    };
  }, [data.amountParam, data.defaultAmount, brand.locale, brand.currency]);

  // What was typed survives a reload for the session (never the date of birth or the income: persist.ts); forgotten once sent.
  useEffect(() => {
    if (!hydrated) return;
    if (screen === 'sent') storage('sessionStorage')?.removeItem(SESSION_KEY);
    else
      writeStored(storage('sessionStorage'), {
        amount: values.amount,
        zip: values.zip,
        queryAmount: queryAmount.current,
        kept: keptValues(values),
        ...(isStep(screen) ? { step: screen } : {}),
      });
  }, [hydrated, screen, values]);

  // Each step is a history entry (same URL): the phone's back button goes to the step before, forward to the next.
  useEffect(() => {
    if (!hydrated || !isStep(screen)) return;
    const current = stepOfHistoryState(window.history.state);
    if (current === screen) return;
    const entry = { ...((window.history.state as object | null) ?? {}), [STEP_STATE_KEY]: screen };
    if (current === undefined) window.history.replaceState(entry, '', window.location.href);
    else window.history.pushState(entry, '', window.location.href);
  }, [hydrated, screen]);
  useEffect(() => {
    const onPop = (event: PopStateEvent) => {
      const step = stepOfHistoryState(event.state);
      if (step === 'request') dispatch({ type: 'goto', screen: step, today: new Date() });
      else if (step)
        fetchLater().then(
          () => dispatch({ type: 'goto', screen: step, today: new Date() }),
          () => undefined,
        );
    };
    window.addEventListener('popstate', onPop);
    // Next's router must leave these entries alone (same page, same URL): the form moves between its steps.
    const router = window.next?.router;
    router?.beforePopState((state) => stepOfHistoryState(state) === undefined);
    return () => {
      window.removeEventListener('popstate', onPop);
      router?.beforePopState(() => true);
    };
  }, []);
  const back = () => {
    const entry = stepOfHistoryState(window.history.state);
    if (entry && entry === screen && screen !== 'request') window.history.back();
    else dispatch({ type: 'back' });
  };

  const lookup = (zip: string): Promise<ZipPlace | null> => {
    let found = lookups.current.get(zip);
    if (!found) lookups.current.set(zip, (found = lookupZip(zip)));
    return found;
  };
  // Canada and Australia: the province or state from the postal code itself; the US: the geocoder.
  const placeFor = (zip: string): Promise<ZipPlace | null> => (country === 'US' ? lookup(zip) : Promise.resolve(placeOfPostalCode(zip, country)));

  // City and state appear as soon as a full ZIP is typed.
  useEffect(() => {
    const zip = values.zip.trim();
    if (!hydrated || !isZip(zip, country)) return;
    let current = true;
    const found = country === 'US' ? lookup(zip) : Promise.resolve(placeOfPostalCode(zip, country));
    void found.then((place) => current && dispatch({ type: 'place', zip, place }));
    return () => {
      current = false;
    };
  }, [hydrated, values.zip, country]);

  // Focus: the step's heading on every step change, scrolled to just below the sticky header (its
  // scroll-margin-top) — a shorter step, like the thank-you card, would otherwise sit under it;
  // the first wrong field after a refused Continue.
  useEffect(() => {
    if (shownScreen.current === screen) return;
    const move = formMoveEvent(shownScreen.current, screen, placeState.current);
    if (move) funnel(move);
    shownScreen.current = screen;
    const heading = headingRef.current;
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  }, [screen]);
  useEffect(() => {
    if (!pendingFocus.current) return;
    document.getElementById(idOf(pendingFocus.current))?.focus();
    pendingFocus.current = null;
  });

  const change = (field: keyof ApplyFormValues, value: string | boolean) => {
    if (field === 'amount' && value !== values.amount) setAmountNote(undefined);
    dispatch({ type: 'change', field, value, today: new Date() });
  };
  const blur = (field: FieldKey) => {
    if (field === 'amount' && /^\$?[\d,\s]+$/.test(values.amount.trim())) change('amount', amountText(values.amount.trim().replace(/^\$/, ''), brand.locale));
    dispatch({ type: 'blur', field, today: new Date() });
    const typed = field === 'dateOfBirth' ? values.dobYear !== '' : values[field] !== '' && values[field] !== false;
    const message = typed ? fieldError(field, values, new Date(), country) : undefined;
    if (message) setAnnouncement(`${labels[field]}: ${message}`);
  };

  const send = async () => {
    if (sending.current) return; // a double click sends once
    sending.current = true;
    idempotencyKey.current ??= newIdempotencyKey();
    dispatch({ type: 'sending' });
    funnel({ type: 'submitted' });
    rememberThisVisit();
    const tracking = { source: readApplySource(window.location.search, storage('localStorage')), ...readVisitTracking() };
    const body = leadRequestBody(values, {
      kind,
      idempotencyKey: idempotencyKey.current,
      consentVersion: data.consent.version,
      tracking,
      ...(country !== 'US' ? { country } : {}),
    });
    const traceKey = data.traceKey;
    const outcome = await sendLead(body, traceKey ? (exchange) => void sendFormTrace(kind, exchange, traceKey) : undefined);
    sending.current = false;
    if (outcome.kind === 'retry' && navigator.onLine === false) {
      // Offline: sent again by itself, with the same idempotency key (one lead), once the connection is back.
      dispatch({ type: 'sent', outcome: { kind: 'retry', message: OFFLINE_MESSAGE } });
      if (!waitingOnline.current) {
        waitingOnline.current = true;
        window.addEventListener(
          'online',
          () => {
            waitingOnline.current = false;
            if (screenNow.current === 'sent') return;
            setAnnouncement('You are back online. Sending your request now.');
            void send();
          },
          { once: true },
        );
      }
      return;
    }
    dispatch({ type: 'sent', outcome });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!hydrated || checkingZip || state.sending || !isStep(screen)) return;
    const today = new Date();
    const errors = stepErrors(screen, kind, values, today, country);
    const firstWrong = stepFields(screen, kind).find((f) => errors[f]);
    if (firstWrong || screen === 'contact') {
      pendingFocus.current = firstWrong ?? null;
      dispatch({ type: 'next', today, unavailable: data.unavailableStates });
      return;
    }
    if (screen === 'income') return send();
    const zip = values.zip.trim();
    const placeKnown = state.place?.zip === zip;
    if (!placeKnown || !later) {
      setCheckingZip(true);
      // The next screen's code (normally here since the first touch of the form) alongside the ZIP's place.
      const [place, screens] = await Promise.all([placeKnown ? undefined : placeFor(zip), fetchLater().catch(() => undefined)]);
      if (place !== undefined) dispatch({ type: 'place', zip, place });
      setCheckingZip(false);
      setLaterUnreachable(!screens);
      if (!screens) return;
    }
    dispatch({ type: 'next', today, unavailable: data.unavailableStates });
  };

  const stepNumber = isStep(screen) ? FORM_STEPS.indexOf(screen) + 1 : 0;
  const titles: Record<Screen, string> = {
    request: kind === 'title' ? 'Your loan and your vehicle' : 'Your loan',
    contact: 'Your contact details',
    income: 'Your income and date of birth',
    unavailable: `We can't take a request from ${state.gate?.stateName ?? `your ${words.region}`}`,
    sent: 'Thank you — your request is on its way',
  };
  const place = state.place && state.place.zip === values.zip.trim() ? state.place.place : undefined;
  const stepProps = { values, errors: state.errors, idOf, change, blur };
  const primary =
    'inline-flex min-h-11 min-w-44 items-center justify-center rounded-md bg-brand px-6 py-2 font-bold text-white hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-70';
  const secondary =
    'inline-flex min-h-11 items-center justify-center rounded-md border-2 border-slate-500 bg-white px-6 py-2 font-semibold text-slate-900 hover:bg-slate-100';

  return (
    // Tighter on phones: the amount is on the first screen of a 320 × 640 phone, under the hero.
    <section aria-labelledby={`${base}-title`} className="mx-auto my-4 max-w-3xl px-4 sm:my-6">
      <div className="rounded-lg border border-slate-300 p-4 shadow-sm sm:p-6">
        <h2 id={`${base}-title`} className="mb-3 text-xl font-bold text-slate-900 sm:mb-4 sm:text-2xl">
          {block.heading}
        </h2>
        {isStep(screen) && <Progress steps={FORM_STEPS} current={screen} />}
        <h3 ref={headingRef} tabIndex={-1} id={`${base}-step`} className="mb-4 text-xl font-bold text-slate-900">
          {stepNumber > 0 && (
            <span className="block text-sm font-semibold text-slate-700">
              Step {stepNumber} of {FORM_STEPS.length}
            </span>
          )}
          {titles[screen]}
        </h3>
        {screen === 'unavailable' && (
          <>
            {later && <later.StateGate reason={state.gate?.reason ?? ''} homeHref={brand.homeHref} codeWord={words.inText} />}
            <button type="button" className={`${secondary} mt-4`} onClick={() => dispatch({ type: 'back' })}>
              Change {words.inText}
            </button>
          </>
        )}
        {screen === 'sent' && later && !state.saleToken && (
          <later.ThankYou receiptId={state.receiptId} homeHref={brand.homeHref} guide={data.guide} regionWord={words.region} />
        )}
        {screen === 'sent' && later && state.saleToken && (
          <later.SaleStatus token={state.saleToken} homeHref={brand.homeHref} guide={data.guide} country={country} />
        )}
        {isStep(screen) && (
          <form noValidate onSubmit={onSubmit} onFocus={prefetchLater} onPointerDown={prefetchLater} aria-labelledby={`${base}-step`} className="relative">
            {state.showSummary && <ErrorSummary errors={state.errors} labels={labels} idOf={idOf} />}
            {screen === 'request' && (
              <RequestStep
                {...stepProps}
                title={kind === 'title'}
                representativeExample={block.data.representativeExample}
                amountNote={amountNote}
                notices={data.notices.besideAmount}
                place={place}
                country={country}
              />
            )}
            {screen === 'contact' && later && <later.ContactStep {...stepProps} country={country} />}
            {screen === 'income' && later && <later.IncomeStep {...stepProps} consentText={data.consent.text} notices={data.notices.beforeConsent} />}
            {laterUnreachable && screen === 'request' && (
              <div role="alert" className="mt-5 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
                <p className="font-semibold">{NEXT_STEP_OFFLINE}</p>
              </div>
            )}
            {state.notice && (
              <div role="alert" className="mt-5 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
                <p className="font-semibold">{state.notice.message}</p>
                {state.notice.kind === 'retry' && (
                  <button type="button" className={`${primary} mt-3`} disabled={state.sending} onClick={() => void send()}>
                    Try again
                  </button>
                )}
                {state.notice.kind === 'refused' && <p className="mt-2">If something you entered is wrong, go back and change it.</p>}
              </div>
            )}
            <div className="mt-6 flex flex-wrap items-center gap-3">
              <button type="submit" className={primary} disabled={!hydrated || checkingZip || state.sending}>
                {screen !== 'income'
                  ? checkingZip
                    ? `Checking your ${words.inText}…`
                    : 'Continue'
                  : state.sending
                    ? 'Sending your request…'
                    : 'Submit my request'}
              </button>
              {screen !== 'request' && (
                <button type="button" className={secondary} disabled={state.sending} onClick={back}>
                  Back
                </button>
              )}
            </div>
            <noscript>
              <p className="mt-3 font-semibold text-slate-900">
                This form needs JavaScript to send your request. Please turn on JavaScript in your browser and reload this page
                {data.phone ? (
                  <>
                    , or call us on{' '}
                    <a href={`tel:${data.phone.tel}`} className="text-blue-800 underline">
                      {data.phone.text}
                    </a>
                    {data.phone.hours ? ` (${data.phone.hours})` : ''} to make your request by phone.
                  </>
                ) : (
                  '.'
                )}
              </p>
            </noscript>
          </form>
        )}
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
      </div>
    </section>
  );
}

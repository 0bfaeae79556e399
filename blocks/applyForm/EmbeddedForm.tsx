import { useEffect, useReducer, useRef } from 'react';
import { amountText, fieldError, FORM_STEPS, type ApplyFormValues, type FieldKey } from '../../engine/browser/formRules';
import { POSTAL_WORDS } from '../../engine/browser/regions';
import { funnel } from '../chrome/funnel';
import type { BlockProps } from '../types';
import { ErrorSummary } from './Fields';
import { EarlierRequestNote, NextStepOffline, NoScriptNote, SendNotice } from './FormNotices';
import { FIELD_LABELS } from './fieldLabels';
import { formReducer, initialFormState, type Screen } from './formState';
import { isStep, useStepHistory } from './history';
import { useLaterScreens } from './laterScreens';
import { Progress } from './Progress';
import { RequestStep } from './RequestStep';
import { usePersistence } from './usePersistence';
import { useStepFocus } from './useStepFocus';
import { useFormSignals } from './useFormSignals';
import { useConsentProvider } from './useConsentProvider';
import { useSubmission } from './useSubmission';
import { useZipPlace } from './useZipPlace';
import { foundPlace, lookedUpState } from './zip';
import { consentRecorder, type ConsentRecorder } from '../../engine/browser/consentEvidence';

/**
 * The embedded application form: its state is one reducer (formState.ts); storage, history, the
 * ZIP lookup, focus and sending are hooks of their own, called here in the order their effects
 * must run. This file draws the screen.
 */
export function EmbeddedForm({ block, brand }: BlockProps<'applyForm'>) {
  const { data, loanKind: kind } = block;
  const { country } = data;
  const words = POSTAL_WORDS[country];
  const labels = { ...FIELD_LABELS, zip: words.code };
  const base = `form-${block.key}`;
  const idOf = (f: FieldKey) => `${base}-${f}`;
  const [state, dispatch] = useReducer(formReducer, undefined, () => initialFormState(kind, amountText(data.defaultAmount, brand.locale), country));
  const { screen, values, hydrated, checkingZip } = state;
  // The screens after step 1 arrive when the borrower first touches the form (laterScreens.ts); a move to one waits for them.
  const { later, fetchLater, prefetchLater } = useLaterScreens();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const pendingFocusRef = useRef<FieldKey | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const recorder = useRef<ConsentRecorder | null>(null);
  recorder.current ??= consentRecorder(`${base}-`);
  useEffect(() => (sectionRef.current ? recorder.current?.watch(sectionRef.current) : undefined), []);
  usePersistence(state, dispatch, data, brand, fetchLater);
  useEffect(() => {
    funnel({ type: 'apply_view' });
  }, []);
  const back = useStepHistory(hydrated, screen, dispatch, fetchLater);
  const placeFor = useZipPlace(hydrated, values.zip, country, dispatch);
  // the ZIP's state once looked up: its age of majority is the date of birth's (19 in Alabama)
  const usState = lookedUpState(state.place, values.zip, country);
  useStepFocus(screen, foundPlace(state.place?.place)?.stateCode, headingRef, pendingFocusRef, idOf);
  const evidence = () => recorder.current!.evidence(sectionRef.current?.querySelector('[data-consent-text]') ?? null);
  const signals = useFormSignals(screen);
  const provider = useConsentProvider(data.consentProvider);
  const { send, onSubmit } = useSubmission({
    state,
    dispatch,
    data,
    later,
    fetchLater,
    placeFor,
    pendingFocusRef,
    evidence,
    readSignals: signals.read,
    readThirdPartyConsent: provider.read,
  });

  const change = (field: keyof ApplyFormValues, value: string | boolean) => dispatch({ type: 'change', field, value, today: new Date() });
  // Continue, Submit or Back pressed with the mouse or a finger: the field the button takes the focus
  // from says nothing of its own, as its message would push the button from under the pointer before
  // the release, and the click — with the step's check, its summary and the focus on the first error —
  // would be lost. Continue checks the step itself; Back needs no check.
  const pressingButton = useRef(false);
  const pressButton = () => {
    pressingButton.current = true;
    window.addEventListener('mouseup', () => (pressingButton.current = false), { once: true, capture: true });
  };
  const blur = (field: FieldKey) => {
    if (field === 'amount' && /^\$?[\d,\s]+$/.test(values.amount.trim())) change('amount', amountText(values.amount.trim().replace(/^\$/, ''), brand.locale));
    if (pressingButton.current) return;
    dispatch({ type: 'blur', field, today: new Date() });
    const typed = field === 'dateOfBirth' ? values.dobYear !== '' : values[field] !== '' && values[field] !== false;
    const message = typed ? fieldError(field, values, new Date(), country, usState) : undefined;
    if (message) dispatch({ type: 'announce', message: `${labels[field]}: ${message}` });
  };

  const stepNumber = isStep(screen) ? FORM_STEPS.indexOf(screen) + 1 : 0;
  // each step as it is shown, for the consent certificate (after the render that shows it)
  const recordedScreen = useRef<Screen | null>(null);
  useEffect(() => {
    if (stepNumber === 0) recordedScreen.current = screen;
    if (!hydrated || stepNumber === 0 || recordedScreen.current === screen || (screen !== 'request' && !later)) return;
    recordedScreen.current = screen;
    recorder.current?.step(stepNumber, sectionRef.current?.querySelector('form') ?? null);
  }, [hydrated, stepNumber, screen, later]);
  const titles: Record<Screen, string> = {
    request: kind === 'title' ? 'Your loan and your vehicle' : 'Your loan',
    contact: 'Your contact details',
    income: 'Your income and date of birth',
    unavailable: `We can't take a request from ${state.gate?.stateName ?? `your ${words.region}`}`,
    sent: 'Thank you — your request is on its way',
  };
  const place = state.place && state.place.zip === values.zip.trim() ? foundPlace(state.place.place) : undefined;
  const earlier = screen === 'sent' && state.receivedEarlier === true;
  const stepProps = { values, errors: state.errors, idOf, change, blur };
  const primary =
    'inline-flex min-h-11 min-w-44 items-center justify-center rounded-md bg-brand px-6 py-2 font-bold text-white hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-70';
  const secondary =
    'inline-flex min-h-11 items-center justify-center rounded-md border-2 border-slate-500 bg-white px-6 py-2 font-semibold text-slate-900 hover:bg-slate-100';

  return (
    // Tighter on phones: the amount is on the first screen of a 320 × 640 phone, under the hero.
    <section ref={sectionRef} aria-labelledby={`${base}-title`} className="mx-auto my-4 max-w-3xl px-4 sm:my-6">
      <div className="rounded-lg border border-slate-300 p-4 shadow-sm sm:p-6">
        <h2 id={`${base}-title`} className="mb-3 text-xl font-bold text-slate-900 sm:mb-4 sm:text-2xl">
          {block.heading}
        </h2>
        {isStep(screen) && <Progress steps={FORM_STEPS} current={screen} />}
        <h3
          ref={headingRef}
          tabIndex={-1}
          id={`${base}-step`}
          className="mb-4 text-xl font-bold text-slate-900"
          aria-describedby={earlier ? `${base}-earlier` : undefined}
        >
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
            <button type="button" className={`${secondary} mt-4`} onClick={back}>
              Change {words.inText}
            </button>
          </>
        )}
        {earlier && <EarlierRequestNote id={`${base}-earlier`} />}
        {screen === 'sent' && later && !state.saleToken && (
          <later.ThankYou receiptId={state.receiptId} homeHref={brand.homeHref} guide={data.guide} regionWord={words.region} />
        )}
        {screen === 'sent' && later && state.saleToken && (
          <later.SaleStatus token={state.saleToken} homeHref={brand.homeHref} guide={data.guide} country={country} />
        )}
        {screen === 'sent' && state.certificateUrl && (
          <p className="mt-4 text-slate-800">
            <a href={state.certificateUrl} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center font-semibold text-blue-800 underline">
              Your consent certificate (opens in a new tab)
            </a>{' '}
            — the consent you gave, as you saw it, and when.
          </p>
        )}
        {isStep(screen) && (
          <form
            noValidate
            onSubmit={onSubmit}
            onFocus={prefetchLater}
            onPointerDown={prefetchLater}
            {...signals.handlers}
            aria-labelledby={`${base}-step`}
            className="relative"
          >
            {/* the consent provider's script writes its certificate URL or token here (Jornaya finds it by id, TrustedForm by name) */}
            {data.consentProvider && <input type="hidden" id={data.consentProvider.field} name={data.consentProvider.field} />}
            {state.showSummary && <ErrorSummary errors={state.errors} labels={labels} idOf={idOf} />}
            {screen === 'request' && (
              <RequestStep
                {...stepProps}
                title={kind === 'title'}
                representativeExample={block.data.representativeExample}
                amountNote={state.amountNote}
                notices={data.notices.besideAmount}
                place={place}
                country={country}
              />
            )}
            {screen === 'contact' && later && <later.ContactStep {...stepProps} country={country} />}
            {screen === 'income' && later && (
              <later.IncomeStep
                {...stepProps}
                consentText={data.consent.text}
                consentLook={data.consentLook}
                notices={data.notices.beforeConsent}
                country={country}
                usState={usState}
              />
            )}
            {state.laterUnreachable && screen === 'request' && <NextStepOffline />}
            {state.notice && <SendNotice notice={state.notice} sending={state.sending} onRetry={() => void send()} retryClass={`${primary} mt-3`} />}
            <div className="mt-6 flex flex-wrap items-center gap-3">
              <button type="submit" className={primary} disabled={!hydrated || checkingZip || state.sending} onMouseDown={pressButton}>
                {screen !== 'income'
                  ? checkingZip
                    ? `Checking your ${words.inText}…`
                    : 'Continue'
                  : state.sending
                    ? 'Sending your request…'
                    : 'Submit my request'}
              </button>
              {screen !== 'request' && (
                <button type="button" className={secondary} disabled={state.sending} onMouseDown={pressButton} onClick={back}>
                  Back
                </button>
              )}
            </div>
            <NoScriptNote phone={data.phone} />
          </form>
        )}
        <p aria-live="polite" className="sr-only">
          {/* a new node each time: a live region whose text does not change says nothing (the same error made again) */}
          <span key={state.announced}>{state.announcement}</span>
        </p>
      </div>
    </section>
  );
}

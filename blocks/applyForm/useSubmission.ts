/**
 * Continue and Submit: each step's checks, the ZIP's place and the next screens' code before
 * step 2, and the request itself — sent once per click, with one idempotency key for the form's
 * life (a retry is the same lead, also after an answer was changed: a request the server took
 * whose answer was lost is then named by its 409, and the form follows that one), its exchange
 * traced when the brand captures form traces, and sent again by itself when an offline browser
 * comes back online.
 */
import { useEffect, useRef, type Dispatch, type FormEvent, type RefObject } from 'react';
import type { FormSignals } from '../../engine/browser/formSignals';
import { leadRequestBody, stepErrors, stepFields, type FieldKey, type LeadContextFields } from '../../engine/browser/formRules';
import { funnel } from '../chrome/funnel';
import { rememberThisVisit } from '../chrome/visitTracking';
import { sendFormTrace } from './formTrace';
import type { FormAction, FormState } from './formState';
import { isStep } from './history';
import type { LaterScreens } from './laterScreens';
import { newIdempotencyKey, OFFLINE_MESSAGE, sendLead } from './send';
import type { ApplyFormData } from './spec';
import { readSentKey, writeSentKey } from './persist';
import { storage } from './storage';
import { readApplySource, readVisitTracking } from './tracking';
import { lookedUpState, UNKNOWN_ZIP, type ZipLookup } from './zip';
import type { LeadEvidence } from '../../schemas/api.types';

export interface Submission {
  state: FormState;
  dispatch: Dispatch<FormAction>;
  data: Pick<ApplyFormData, 'consent' | 'country' | 'traceKey' | 'unavailableStates'>;
  later: LaterScreens | undefined;
  fetchLater: () => Promise<LaterScreens>;
  placeFor: (zip: string) => Promise<ZipLookup>;
  /** the field to focus after a refused Continue (useStepFocus.ts) */
  pendingFocusRef: RefObject<FieldKey | null>;
  /** what the consent certificate records of this form (engine/browser/consentEvidence.ts) */
  evidence: () => Promise<LeadEvidence>;
  /** how the form was filled (useFormSignals.ts) */
  readSignals: () => FormSignals;
  /** the brand's consent provider's certificate URL or token ('' when none) */
  readThirdPartyConsent?: () => string;
}

export function useSubmission({
  state,
  dispatch,
  data,
  later,
  fetchLater,
  placeFor,
  pendingFocusRef,
  evidence,
  readSignals,
  readThirdPartyConsent,
}: Submission) {
  const { kind, country, screen, values } = state;
  const idempotencyKey = useRef<string | null>(null);
  // Read once per idempotency key: a retry of unchanged answers must send the very same body, else
  // the server takes it for a different request (409). The visit id in particular can change under
  // the form (a new visit begins after half an hour idle) while the request stays the one first sent.
  const signals = useRef<FormSignals | null>(null);
  const thirdParty = useRef<string | null>(null);
  const tracking = useRef<LeadContextFields['tracking'] | null>(null);
  const sending = useRef(false);
  const waitingOnline = useRef(false);
  // the screen now, for the online listener, which outlives the render that added it
  const screenNow = useRef(screen);
  useEffect(() => {
    screenNow.current = screen;
  });

  const send = async () => {
    if (sending.current) return; // a double click sends once
    sending.current = true;
    // a request sent before a reload and never answered is this one again (persist.ts)
    idempotencyKey.current ??= readSentKey(storage('sessionStorage')) ?? newIdempotencyKey();
    writeSentKey(storage('sessionStorage'), idempotencyKey.current);
    signals.current ??= readSignals();
    thirdParty.current ??= readThirdPartyConsent?.() ?? '';
    dispatch({ type: 'sending' });
    funnel({ type: 'submitted' });
    rememberThisVisit();
    tracking.current ??= { source: readApplySource(window.location.search, storage('localStorage')), ...readVisitTracking() };
    const body = {
      ...leadRequestBody(values, {
        kind,
        idempotencyKey: idempotencyKey.current,
        consentVersion: data.consent.version,
        tracking: tracking.current,
        ...(country !== 'US' ? { country } : {}),
      }),
      signals: signals.current,
      ...(thirdParty.current ? { thirdPartyConsent: thirdParty.current } : {}),
    };
    // measured now, while the consent is on screen; a failed measurement never holds the request back
    const measured = await evidence().catch(() => undefined);
    const traceKey = data.traceKey;
    const outcome = await sendLead(
      measured ? { ...body, evidence: measured } : body,
      traceKey ? (exchange) => void sendFormTrace(kind, exchange, traceKey) : undefined,
    );
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
            dispatch({ type: 'announce', message: 'You are back online. Sending your request now.' });
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
    if (!state.hydrated || state.checkingZip || state.sending || !isStep(screen)) return;
    const today = new Date();
    const errors = stepErrors(screen, kind, values, today, country, lookedUpState(state.place, values.zip, country));
    const firstWrong = stepFields(screen, kind).find((f) => errors[f]);
    if (firstWrong || screen === 'contact') {
      pendingFocusRef.current = firstWrong ?? null;
      dispatch({ type: 'next', today, unavailable: data.unavailableStates });
      return;
    }
    if (screen === 'income') return send();
    const zip = values.zip.trim();
    let lookup = state.place?.zip === zip ? state.place.place : undefined;
    if (lookup === undefined || !later) {
      dispatch({ type: 'checking' });
      // The next screen's code (normally here since the first touch of the form) alongside the ZIP's place.
      const [place, screens] = await Promise.all([lookup === undefined ? placeFor(zip) : undefined, fetchLater().catch(() => undefined)]);
      dispatch({ type: 'checked', zip, place, laterReachable: !!screens });
      if (!screens) return;
      lookup ??= place;
    }
    // a code that is no place's is refused here (formMoves.ts next): the visitor is taken to it
    if (lookup === UNKNOWN_ZIP) pendingFocusRef.current = 'zip';
    dispatch({ type: 'next', today, unavailable: data.unavailableStates });
  };

  return { send, onSubmit };
}

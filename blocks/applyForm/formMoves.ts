/**
 * The moves of the form's reducer (formState.ts) that take more than a line: to the next step,
 * to a step the browser's history names, and what a sent request's outcome does to the form.
 * They edit the reducer's draft; pure, like it.
 */
import {
  fieldError,
  fieldOfProblem,
  FORM_STEPS,
  stepErrors,
  stepFields,
  stepOfField,
  type FieldErrors,
  type FieldKey,
  type FormStep,
} from '../../engine/browser/formRules';
import { normalisePostalCode, unknownPostalCodeMessage } from '../../engine/browser/regions';
import type { FormState, Screen, UnavailableStates } from './formTypes';
import type { SendOutcome } from './send';
import { foundPlace, lookedUpState, UNKNOWN_ZIP } from './zip';

export function setError(draft: FormState, key: FieldKey, message: string | undefined) {
  if (message) draft.errors[key] = message;
  else delete draft.errors[key];
  if (!Object.keys(draft.errors).length) draft.showSummary = false;
}

/**
 * A field's message: its rule (formRules.ts), and for the postal code also what its lookup found — a
 * code of the right shape that is no place's is refused on step 1, not by the server after the last step.
 */
export function errorOf(draft: FormState, key: FieldKey, today: Date): string | undefined {
  const message = fieldError(key, draft.values, today, draft.country, lookedUpState(draft.place, draft.values.zip, draft.country));
  if (message || key !== 'zip') return message;
  const zip = draft.values.zip.trim();
  return draft.place?.zip === zip && draft.place.place === UNKNOWN_ZIP
    ? unknownPostalCodeMessage(normalisePostalCode(zip, draft.country) ?? zip, draft.country)
    : undefined;
}

/** An error already shown is re-checked as the visitor types, so it goes away once fixed. */
export function recheck(draft: FormState, key: FieldKey, today: Date) {
  if (draft.errors[key]) setError(draft, key, errorOf(draft, key, today));
}

export function moveTo(draft: FormState, screen: Screen) {
  draft.screen = screen;
  draft.errors = {};
  draft.showSummary = false;
  if (screen !== 'income') draft.notice = undefined;
}

/** The browser's back or forward button reached a step's entry: back is always allowed; forward only past steps that are complete (an entry may be older than an edit). */
export function goTo(draft: FormState, screen: FormStep, today: Date) {
  if (draft.screen === 'sent' || draft.screen === screen) return;
  const before = FORM_STEPS.slice(0, FORM_STEPS.indexOf(screen));
  const usState = lookedUpState(draft.place, draft.values.zip, draft.country);
  if (before.some((s) => Object.keys(stepErrors(s, draft.kind, draft.values, today, draft.country, usState)).length)) return;
  moveTo(draft, screen);
}

/** Continue: the step's errors, or the state gate, or the next step (the income step's Submit stays for the sending). */
export function next(draft: FormState, today: Date, unavailable: UnavailableStates) {
  if (draft.screen !== 'request' && draft.screen !== 'contact' && draft.screen !== 'income') return;
  const errors: FieldErrors = {};
  for (const f of stepFields(draft.screen, draft.kind)) {
    const message = errorOf(draft, f, today);
    if (message) errors[f] = message;
  }
  draft.errors = errors;
  draft.showSummary = Object.keys(errors).length > 0;
  if (draft.showSummary || draft.screen === 'income') return;
  if (draft.screen === 'request') {
    const zip = draft.values.zip.trim();
    const place = draft.place?.zip === zip ? foundPlace(draft.place.place) : undefined;
    // Canada and Australia: the region comes from the postal code itself, so it is always known here.
    const blocked = place ? unavailable.find((s) => s.code === place.stateCode) : undefined;
    if (blocked) {
      draft.gate = { stateName: blocked.name, reason: blocked.reason };
      moveTo(draft, 'unavailable');
      return;
    }
  }
  moveTo(draft, FORM_STEPS[FORM_STEPS.indexOf(draft.screen) + 1]!);
}

/** What became of the request: the thank-you step, or the reason on screen (on the fields the server named). */
export function sent(draft: FormState, outcome: SendOutcome) {
  draft.sending = false;
  if (outcome.kind === 'received') {
    draft.receiptId = outcome.id;
    draft.saleToken = outcome.saleToken;
    draft.certificateUrl = outcome.certificateUrl;
    draft.receivedEarlier = outcome.earlier;
    moveTo(draft, 'sent');
    return;
  }
  if (outcome.kind === 'invalid') {
    // The server named fields: show its reasons on them, on the first step that asks for one.
    const errors: FieldErrors = {};
    for (const problem of outcome.problems) {
      const field = fieldOfProblem(problem);
      if (field && !errors[field]) errors[field] = `Please check this answer (${problem.replace(/^[^:]*:\s*/, '')})`;
    }
    const fields = Object.keys(errors) as FieldKey[];
    const step = FORM_STEPS.find((s) => fields.some((f) => stepOfField(f, draft.kind) === s));
    if (step) {
      if (step !== draft.screen) moveTo(draft, step);
      draft.errors = Object.fromEntries(
        stepFields(step, draft.kind)
          .filter((f) => errors[f])
          .map((f) => [f, errors[f]]),
      );
      draft.showSummary = true;
    }
  }
  draft.notice = { kind: outcome.kind, message: outcome.message };
}

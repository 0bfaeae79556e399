/**
 * The application form's state: which screen shows, what was typed, which errors are shown,
 * and what became of sending. A useReducer reducer that edits a draft, in immer's style (produce
 * below); pure (the day and the geocoder's answer come in with the actions), so
 * tests/unit/apply-form-rules.test.ts drives it without React.
 */
import {
  EMPTY_VALUES,
  fieldError,
  fieldOfProblem,
  FORM_STEPS,
  stepErrors,
  stepFields,
  stepOfField,
  type ApplyFormValues,
  type FieldErrors,
  type FieldKey,
  type FormStep,
} from '../../engine/browser/formRules';
import { produce } from '../../engine/browser/widgets/copyOnWrite';
import type { LoanKind } from '../../engine/geo/servedPlaces';
import type { Country } from '../../engine/browser/regions';
import type { SendOutcome } from './send';
import type { ZipPlace } from './zip';

/** The three steps, the state gate (no lead, no contact step) and the thank-you step. */
export type Screen = FormStep | 'unavailable' | 'sent';

export interface FormState {
  kind: LoanKind;
  /** the brand's country: which postal code and phone number the fields accept */
  country: Country;
  screen: Screen;
  values: ApplyFormValues;
  /** errors shown now, by field */
  errors: FieldErrors;
  /** a Continue or Submit on this step found errors: the summary lists them */
  showSummary: boolean;
  /** the geocoder's answer for the ZIP last looked up (null: unknown ZIP or failed lookup) */
  place?: { zip: string; place: ZipPlace | null };
  /** the state gate's message */
  gate?: { stateName: string; reason: string };
  sending: boolean;
  /** what the last send said, when it was not a success */
  notice?: { kind: 'invalid' | 'refused' | 'retry'; message: string };
  /** the lead's id once received */
  receiptId?: string;
  /** the borrower's key to the sale's status (GET /api/sale-status) */
  saleToken?: string;
}

export type UnavailableStates = readonly { code: string; name: string; reason: string }[];

export type FormAction =
  | { type: 'change'; field: keyof ApplyFormValues; value: string | boolean; today: Date }
  | { type: 'blur'; field: FieldKey; today: Date }
  | { type: 'restore'; amount?: string; zip?: string; kept?: Partial<ApplyFormValues> }
  /** the browser's back or forward button reached the entry of a step (or a reload found one) */
  | { type: 'goto'; screen: FormStep; today: Date }
  | { type: 'place'; zip: string; place: ZipPlace | null }
  | { type: 'next'; today: Date; unavailable: UnavailableStates }
  | { type: 'back' }
  | { type: 'sending' }
  | { type: 'sent'; outcome: SendOutcome };

export const initialFormState = (kind: LoanKind, amount: string, country: Country = 'US'): FormState => ({
  kind,
  country,
  screen: 'request',
  values: { ...EMPTY_VALUES, amount },
  errors: {},
  showSummary: false,
  sending: false,
});

/** The field that carries a value's error (the date of birth's three inputs share one). */
const errorKeyOf = (field: keyof ApplyFormValues): FieldKey | undefined =>
  field === 'dobMonth' || field === 'dobDay' || field === 'dobYear' ? 'dateOfBirth' : field === 'website' ? undefined : field;

const isEmpty = (v: string | boolean) => v === '' || v === false;

/** The reducer: `recipe` edits a draft whose values and errors are copies (engine/browser/widgets/copyOnWrite.ts). */
const reducerOf =
  (recipe: (draft: FormState, action: FormAction) => void) =>
  (state: FormState, action: FormAction): FormState =>
    produce(state, (draft) => recipe(draft, action), ['values', 'errors']);

export const formReducer = reducerOf((draft: FormState, action: FormAction) => {
  switch (action.type) {
    case 'change': {
      (draft.values as unknown as Record<string, string | boolean>)[action.field] = action.value;
      const key = errorKeyOf(action.field);
      // An error already shown is re-checked as the visitor types, so it goes away once fixed.
      if (key && draft.errors[key]) setError(draft, key, fieldError(key, draft.values, action.today, draft.country));
      if (action.field === 'zip') draft.gate = undefined;
      return;
    }
    case 'blur': {
      // Leaving a field with something typed in it says what is wrong early; empty fields wait for Continue.
      const typed = action.field === 'dateOfBirth' ? !isEmpty(draft.values.dobYear) : !isEmpty(draft.values[action.field]);
      if (typed || draft.errors[action.field]) setError(draft, action.field, fieldError(action.field, draft.values, action.today, draft.country));
      return;
    }
    case 'restore':
      if (action.amount !== undefined) draft.values.amount = action.amount;
      if (action.zip !== undefined) draft.values.zip = action.zip;
      Object.assign(draft.values, action.kept ?? {});
      return;
    case 'goto': {
      // Back is always allowed; forward only past steps that are complete (an entry may be older than an edit).
      if (draft.screen === 'sent' || draft.screen === action.screen) return;
      const target = FORM_STEPS.indexOf(action.screen);
      const before = FORM_STEPS.slice(0, target);
      if (before.some((s) => Object.keys(stepErrors(s, draft.kind, draft.values, action.today, draft.country)).length)) return;
      moveTo(draft, action.screen);
      return;
    }
    case 'place':
      draft.place = { zip: action.zip, place: action.place };
      return;
    case 'next': {
      if (draft.screen !== 'request' && draft.screen !== 'contact' && draft.screen !== 'income') return;
      const errors = stepErrors(draft.screen, draft.kind, draft.values, action.today, draft.country);
      draft.errors = errors;
      draft.showSummary = Object.keys(errors).length > 0;
      if (draft.showSummary || draft.screen === 'income') return;
      if (draft.screen === 'request') {
        const zip = draft.values.zip.trim();
        const place = draft.place?.zip === zip ? draft.place.place : null;
        // Canada and Australia: the region comes from the postal code itself, so it is always known here.
        const blocked = place ? action.unavailable.find((s) => s.code === place.stateCode) : undefined;
        if (blocked) {
          draft.gate = { stateName: blocked.name, reason: blocked.reason };
          moveTo(draft, 'unavailable');
          return;
        }
      }
      moveTo(draft, FORM_STEPS[FORM_STEPS.indexOf(draft.screen) + 1]!);
      return;
    }
    case 'back':
      if (draft.screen === 'unavailable' || draft.screen === 'contact') moveTo(draft, 'request');
      else if (draft.screen === 'income') moveTo(draft, 'contact');
      return;
    case 'sending':
      draft.sending = true;
      draft.notice = undefined;
      return;
    case 'sent': {
      draft.sending = false;
      const { outcome } = action;
      if (outcome.kind === 'received') {
        draft.receiptId = outcome.id;
        draft.saleToken = outcome.saleToken;
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
      return;
    }
  }
});

function setError(draft: FormState, key: FieldKey, message: string | undefined) {
  if (message) draft.errors[key] = message;
  else delete draft.errors[key];
  if (!Object.keys(draft.errors).length) draft.showSummary = false;
}

function moveTo(draft: FormState, screen: Screen) {
  draft.screen = screen;
  draft.errors = {};
  draft.showSummary = false;
  if (screen !== 'income') draft.notice = undefined;
}

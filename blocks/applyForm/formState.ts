/**
 * The application form's state: which screen shows, what was typed, which errors are shown,
 * what became of sending, and what the form is waiting for. A useReducer reducer that edits a
 * draft, in immer's style (produce below); pure (the day, the stored answers and the geocoder's
 * answer come in with the actions), so tests/unit/apply-form-rules.test.ts drives it without
 * React. The longer moves are in formMoves.ts; what the browser does (storage, history, the ZIP
 * lookup, sending) is in the hooks beside it (use*.ts), which dispatch here.
 */
import { EMPTY_VALUES, type ApplyFormValues, type FieldKey } from '../../engine/browser/formRules';
import { produce } from '../../engine/browser/widgets/copyOnWrite';
import type { LoanKind } from '../../engine/geo/servedPlaces';
import type { Country } from '../../engine/browser/regions';
import type { FormAction, FormState } from './formTypes';
import { errorOf, goTo, moveTo, next, recheck, sent, setError } from './formMoves';

export type { FormAction, FormState, Screen, UnavailableStates } from './formTypes';

export const initialFormState = (kind: LoanKind, amount: string, country: Country = 'US'): FormState => ({
  kind,
  country,
  screen: 'request',
  values: { ...EMPTY_VALUES, amount },
  errors: {},
  showSummary: false,
  sending: false,
  hydrated: false,
  checkingZip: false,
  laterUnreachable: false,
  announcement: '',
  announced: 0,
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
      if (action.field === 'amount' && action.value !== draft.values.amount) draft.amountNote = undefined;
      (draft.values as unknown as Record<string, string | boolean>)[action.field] = action.value;
      const key = errorKeyOf(action.field);
      if (key) recheck(draft, key, action.today);
      if (action.field === 'zip') draft.gate = undefined;
      return;
    }
    case 'blur': {
      // Leaving a field with something typed in it says what is wrong early; empty fields wait for Continue.
      const typed = action.field === 'dateOfBirth' ? !isEmpty(draft.values.dobYear) : !isEmpty(draft.values[action.field]);
      if (typed || draft.errors[action.field]) setError(draft, action.field, errorOf(draft, action.field, action.today));
      return;
    }
    case 'restore':
      if (action.amount !== undefined) draft.values.amount = action.amount;
      if (action.zip !== undefined) draft.values.zip = action.zip;
      Object.assign(draft.values, action.kept ?? {});
      if (action.step) goTo(draft, action.step, action.today ?? new Date());
      draft.hydrated = true;
      return;
    case 'amountNote':
      draft.amountNote = action.note;
      return;
    case 'goto':
      goTo(draft, action.screen, action.today);
      return;
    case 'place':
      draft.place = { zip: action.zip, place: action.place };
      return;
    case 'checking':
      draft.checkingZip = true;
      return;
    case 'checked':
      if (action.place !== undefined) draft.place = { zip: action.zip, place: action.place };
      draft.checkingZip = false;
      draft.laterUnreachable = !action.laterReachable;
      return;
    case 'next':
      next(draft, action.today, action.unavailable);
      return;
    case 'back':
      if (draft.screen === 'unavailable' || draft.screen === 'contact') moveTo(draft, 'request');
      else if (draft.screen === 'income') moveTo(draft, 'contact');
      return;
    case 'sending':
      draft.sending = true;
      draft.notice = undefined;
      return;
    case 'sent':
      sent(draft, action.outcome);
      return;
    case 'announce':
      draft.announcement = action.message;
      draft.announced += 1;
      return;
  }
});

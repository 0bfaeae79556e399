/** The application form's state and the actions its reducer (formState.ts) takes. */
import type { ApplyFormValues, FieldErrors, FieldKey, FormStep } from '../../engine/browser/formRules';
import type { LoanKind } from '../../engine/geo/servedPlaces';
import type { Country } from '../../engine/browser/regions';
import type { SendOutcome } from './send';
import type { ZipLookup } from './zip';

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
  /** the answer for the ZIP last looked up (zip.ts ZipLookup: its place, unknown, or null for a failed lookup) */
  place?: { zip: string; place: ZipLookup };
  /** the state gate's message */
  gate?: { stateName: string; reason: string };
  sending: boolean;
  /** what the last send said, when it was not a success */
  notice?: { kind: 'invalid' | 'refused' | 'retry'; message: string };
  /** the lead's id once received */
  receiptId?: string;
  /** the borrower's key to the sale's status (GET /api/sale-status) */
  saleToken?: string;
  /** the page of the request's consent certificate (the borrower's copy), linked from the thank-you screen */
  certificateUrl?: string;
  /** the request received is one sent before whose answer was lost; answers changed since were not sent (said on the thank-you screen) */
  receivedEarlier?: boolean;
  /** the query and the session's stored answers are read (usePersistence.ts): Continue works from here on */
  hydrated: boolean;
  /** Continue waits for the ZIP's place and the next screens' code */
  checkingZip: boolean;
  /** the next screen's code could not be fetched (offline): said on screen, next to Continue */
  laterUnreachable: boolean;
  /** the amount the visitor came with was outside the form's amounts: said next to the field until they change it */
  amountNote?: string;
  /** what the polite live region reads out */
  announcement: string;
  /** how many were made: each is drawn as a new node, so the same words twice are said twice */
  announced: number;
}

export type UnavailableStates = readonly { code: string; name: string; reason: string }[];

export type FormAction =
  | { type: 'change'; field: keyof ApplyFormValues; value: string | boolean; today: Date }
  | { type: 'blur'; field: FieldKey; today: Date }
  /** the stored answers after mount (and the step a reload was on): the form works from here on */
  | { type: 'restore'; amount?: string; zip?: string; kept?: Partial<ApplyFormValues>; step?: FormStep; today?: Date }
  | { type: 'amountNote'; note: string | undefined }
  /** the browser's back or forward button reached the entry of a step */
  | { type: 'goto'; screen: FormStep; today: Date }
  | { type: 'place'; zip: string; place: ZipLookup }
  /** Continue on step 1 waits for the ZIP's place and the next screens' code… */
  | { type: 'checking' }
  /** …which came (the place undefined when it was known already), or not: the next screens' code could not be fetched */
  | { type: 'checked'; zip: string; place: ZipLookup | undefined; laterReachable: boolean }
  | { type: 'next'; today: Date; unavailable: UnavailableStates }
  | { type: 'back' }
  | { type: 'sending' }
  | { type: 'sent'; outcome: SendOutcome }
  | { type: 'announce'; message: string };

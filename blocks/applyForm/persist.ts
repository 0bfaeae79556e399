import { amountText, type ApplyFormValues, type FormStep } from '../../engine/browser/formRules';

/**
 * What was typed survives a reload in session storage (this tab, this session), so a reload or
 * a phone that drops the page costs the visitor nothing — except the date of birth and the
 * income, which are never written to browser storage (nor the consent box: it is given each
 * time). The query's amount at the time is stored too, so a new amount from a widget (a
 * different query) wins over the stored one, and a reload of the same page does not.
 */
export const SESSION_KEY = 'loansites.applyForm.request';

/** The fields kept besides the amount and the postal code. */
export const KEPT_FIELDS = [
  'purpose',
  'vehicleYear',
  'vehicleMake',
  'vehicleModel',
  'vehicleMileage',
  'firstName',
  'lastName',
  'email',
  'phone',
  'incomeSource',
  'payFrequency',
] as const satisfies readonly (keyof ApplyFormValues)[];
export type KeptValues = Partial<Pick<ApplyFormValues, (typeof KEPT_FIELDS)[number]>>;

interface Stored {
  amount: string;
  zip: string;
  /** the amount the query carried when this was stored (null: none) */
  queryAmount: number | null;
  /** the later steps' fields (KEPT_FIELDS only) */
  kept?: KeptValues;
  /** the step shown when this was written: a reload opens it again */
  step?: FormStep;
}

/** Only the kept fields, each a short string: nothing else can be written or read back. */
export function keptValues(values: object): KeptValues {
  const out: KeptValues = {};
  for (const f of KEPT_FIELDS) {
    const v = (values as Record<string, unknown>)[f];
    if (typeof v === 'string' && v !== '') out[f] = v.slice(0, 120);
  }
  return out;
}

export function readStored(storage: Pick<Storage, 'getItem'> | undefined): Stored | undefined {
  try {
    const raw = storage?.getItem(SESSION_KEY);
    const v = raw ? (JSON.parse(raw) as Partial<Stored>) : undefined;
    if (!v || typeof v.amount !== 'string' || typeof v.zip !== 'string') return undefined;
    return {
      amount: v.amount.slice(0, 12),
      zip: v.zip.replace(/[^A-Za-z0-9 ]+/g, '').slice(0, 7),
      queryAmount: typeof v.queryAmount === 'number' ? v.queryAmount : null,
      kept: keptValues(v.kept && typeof v.kept === 'object' ? v.kept : {}),
      ...(v.step === 'contact' || v.step === 'income' ? { step: v.step } : {}),
    };
  } catch {
    return undefined;
  }
}

export function writeStored(storage: Pick<Storage, 'setItem'> | undefined, value: Stored): void {
  try {
    storage?.setItem(SESSION_KEY, JSON.stringify({ ...value, kept: keptValues(value.kept ?? {}) }));
  } catch {
    // storage full or blocked: the form still works, it just forgets on reload
  }
}

/** What the first step starts with after mount: the stored values on a reload, the query's amount when it is new. */
export function initialRequest(queryAmount: number | null, stored: Stored | undefined, fallbackAmount: string): { amount: string; zip: string } {
  const amount =
    stored && stored.queryAmount === queryAmount ? stored.amount : queryAmount !== null ? amountText(queryAmount) : (stored?.amount ?? fallbackAmount);
  return { amount, zip: stored?.zip ?? '' };
}

/** The step a history entry of the form stands for (each step is one entry: the back button moves between steps). */
export const STEP_STATE_KEY = 'loansitesFormStep';
export function stepOfHistoryState(state: unknown): FormStep | undefined {
  const v = (state as Record<string, unknown> | null)?.[STEP_STATE_KEY];
  return v === 'request' || v === 'contact' || v === 'income' ? v : undefined;
}

/** The state gate's own entry: the back button from it goes to the step of the postal code, as the gate tells the borrower to. */
export const GATE_ENTRY = 'unavailable';
export function formEntryOf(state: unknown): FormStep | typeof GATE_ENTRY | undefined {
  return (state as Record<string, unknown> | null)?.[STEP_STATE_KEY] === GATE_ENTRY ? GATE_ENTRY : stepOfHistoryState(state);
}

/**
 * The idempotency key of a request sent and not yet known to be received, for this tab's session.
 * A reload after a lost answer starts the form again from storage; sent again under the same key,
 * the request is the one the server already took (200, or a 409 naming it), never a second lead.
 * Written as the request goes out, forgotten once it is received.
 */
export const SENT_KEY = 'loansites.applyForm.sentKey';
const KEY_PATTERN = /^[A-Za-z0-9-]{16,64}$/;

export function readSentKey(storage: Pick<Storage, 'getItem'> | undefined): string | undefined {
  try {
    const key = storage?.getItem(SENT_KEY);
    return key && KEY_PATTERN.test(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

export function writeSentKey(storage: Pick<Storage, 'setItem'> | undefined, key: string): void {
  try {
    storage?.setItem(SENT_KEY, key);
  } catch {
    // storage full or refused: a reload then makes a new key, as before
  }
}

/**
 * The status token of the request this tab sent, for this tab's session: a reload of the page
 * shows where the request stands again (one held for a check by our team may wait for hours). The
 * token tells no more than the status answer does (a lender's name). Forgotten once the form is
 * begun again.
 */
export const SALE_TOKEN_KEY = 'loansites.applyForm.saleToken';
const SALE_TOKEN_PATTERN = /^ld_[a-z0-9]{6,40}\.[A-Za-z0-9_-]{32}$/;

export function readSaleToken(storage: Pick<Storage, 'getItem'> | undefined): string | undefined {
  try {
    const token = storage?.getItem(SALE_TOKEN_KEY);
    return token && SALE_TOKEN_PATTERN.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}

export function writeSaleToken(storage: Pick<Storage, 'setItem'> | undefined, token: string): void {
  try {
    storage?.setItem(SALE_TOKEN_KEY, token);
  } catch {
    // storage full or refused: a reload then opens the form, as before
  }
}

import { amountText } from '../../engine/leads/formRules';

/**
 * The amount and ZIP (or postal) code survive a reload in session storage (not personal data; nothing
 * else is kept). The query's amount at the time is stored with them, so a new amount from a
 * widget (a different query) wins over the stored one, and a reload of the same page does not.
 */
export const SESSION_KEY = 'loansites.applyForm.request';

interface Stored {
  amount: string;
  zip: string;
  /** the amount the query carried when this was stored (null: none) */
  queryAmount: number | null;
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
    };
  } catch {
    return undefined;
  }
}

export function writeStored(storage: Pick<Storage, 'setItem'> | undefined, value: Stored): void {
  try {
    storage?.setItem(SESSION_KEY, JSON.stringify(value));
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

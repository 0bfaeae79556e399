/**
 * The form and the session's storage (rules in persist.ts): after mount the amount from the query
 * (or a reload's stored answers) and the step a reload was on — or, once the request was sent, its
 * status; then what was typed, written as it changes, until the request is sent.
 */
import { useEffect, useRef, type Dispatch } from 'react';
import { amountChangedNote, amountFromQuery, amountText, type FormStep } from '../../engine/browser/formRules';
import type { ApplyFormData } from './spec';
import type { FormAction, FormState } from './formState';
import { isStep } from './history';
import { initialRequest, keptValues, readSaleToken, readStored, SALE_TOKEN_KEY, SENT_KEY, SESSION_KEY, writeSaleToken, writeStored } from './persist';
import { storage } from './storage';

export function usePersistence(
  { hydrated, screen, values, saleToken }: Pick<FormState, 'hydrated' | 'screen' | 'values' | 'saleToken'>,
  dispatch: Dispatch<FormAction>,
  data: Pick<ApplyFormData, 'amountParam' | 'defaultAmount'>,
  brand: { locale: string; currency: string },
  fetchLater: () => Promise<unknown>,
) {
  const queryAmount = useRef<number | null>(null);

  // In a task of its own: the page load's first sessionStorage read waits on the browser process,
  // which would lengthen hydration's task.
  useEffect(() => {
    let live = true;
    const restore = window.setTimeout(() => {
      queryAmount.current = amountFromQuery(window.location.search, data.amountParam);
      dispatch({ type: 'amountNote', note: amountChangedNote(window.location.search, data.amountParam, brand.locale, brand.currency) });
      const stored = readStored(storage('sessionStorage'));
      // A reload (Next replaces the entry's state on load, so the step comes from storage) opens the step it was on.
      const navigation = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
      const reopen = stored?.step && navigation?.type === 'reload' ? stored.step : undefined;
      const sent = navigation?.type === 'reload' ? readSaleToken(storage('sessionStorage')) : undefined;
      const start = (step: FormStep | undefined) => {
        if (!live) return;
        const request = initialRequest(queryAmount.current, stored, amountText(data.defaultAmount, brand.locale));
        dispatch({ type: 'restore', ...request, kept: stored?.kept ?? {}, ...(step ? { step, today: new Date() } : {}) });
      };
      // A later step, or the sent request's status, is opened once its screen has arrived (the form stays as the server drew it meanwhile).
      if (sent)
        fetchLater().then(
          () => {
            start(undefined);
            if (live) dispatch({ type: 'sent', outcome: { kind: 'received', saleToken: sent } });
          },
          () => start(undefined),
        );
      else if (reopen && reopen !== 'request')
        fetchLater().then(
          () => start(reopen),
          () => start(undefined),
        );
      else start(reopen);
    }, 0);
    return () => {
      live = false;
      window.clearTimeout(restore);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per form: fetchLater is the same request whichever render made it
  }, [data.amountParam, data.defaultAmount, brand.locale, brand.currency]);

  // What was typed survives a reload for the session (never the date of birth or the income: persist.ts); forgotten once sent.
  useEffect(() => {
    if (!hydrated) return;
    if (screen === 'sent') {
      storage('sessionStorage')?.removeItem(SESSION_KEY);
      storage('sessionStorage')?.removeItem(SENT_KEY);
      if (saleToken) writeSaleToken(storage('sessionStorage'), saleToken);
    } else {
      storage('sessionStorage')?.removeItem(SALE_TOKEN_KEY);
      writeStored(storage('sessionStorage'), {
        amount: values.amount,
        zip: values.zip,
        queryAmount: queryAmount.current,
        kept: keptValues(values),
        ...(isStep(screen) ? { step: screen } : {}),
      });
    }
  }, [hydrated, screen, values, saleToken]);
}

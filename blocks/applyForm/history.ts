/**
 * Each step of the form is a history entry (same URL): the phone's back button goes to the step
 * before, forward to the next. The state gate is one too, so that back from it is the postal code's
 * step, not the page before the form. Next's router is told to leave these entries alone.
 */
import { useEffect, type Dispatch } from 'react';
import { FORM_STEPS, type FormStep } from '../../engine/browser/formRules';
import type { FormAction, Screen } from './formState';
import { formEntryOf, GATE_ENTRY, STEP_STATE_KEY } from './persist';

export const isStep = (screen: Screen): screen is FormStep => (FORM_STEPS as readonly string[]).includes(screen);

/** Keeps the history in step with the screen; returns what the form's Back button (and the gate's change button) does. */
export function useStepHistory(hydrated: boolean, screen: Screen, dispatch: Dispatch<FormAction>, fetchLater: () => Promise<unknown>): () => void {
  useEffect(() => {
    if (!hydrated || (!isStep(screen) && screen !== GATE_ENTRY)) return;
    const current = formEntryOf(window.history.state);
    if (current === screen) return;
    const entry = { ...((window.history.state as object | null) ?? {}), [STEP_STATE_KEY]: screen };
    // the gate's entry, reached again by forward and left by Continue, is not kept: back from there is step 1
    if (current === undefined || current === GATE_ENTRY) window.history.replaceState(entry, '', window.location.href);
    else window.history.pushState(entry, '', window.location.href);
  }, [hydrated, screen]);
  useEffect(() => {
    const onPop = (event: PopStateEvent) => {
      const entry = formEntryOf(event.state);
      // the gate's entry reached again (forward): the postal code's step, whose Continue decides anew
      const step = entry === GATE_ENTRY ? 'request' : entry;
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
    router?.beforePopState((state) => formEntryOf(state) === undefined);
    return () => {
      window.removeEventListener('popstate', onPop);
      router?.beforePopState(() => true);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- registered once: dispatch never changes, fetchLater is the same request whichever render made it
  }, []);
  return () => {
    const entry = formEntryOf(window.history.state);
    if (entry && entry === screen && screen !== 'request') window.history.back();
    else dispatch({ type: 'back' });
  };
}

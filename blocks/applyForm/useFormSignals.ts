import { useEffect, useRef, type SyntheticEvent } from 'react';
import { signalCollector, type FormSignals } from '../../engine/browser/formSignals';
import { FORM_STEPS } from '../../engine/browser/formRules';
import type { Screen } from './formState';

const fieldOf = (e: SyntheticEvent) => (e.target as HTMLInputElement).name || (e.target as HTMLElement).id;
/** Typing and pasting happen in text fields only (a select or a radio button changes by choice). */
const TEXT_TYPES = new Set(['text', 'email', 'tel', 'number', 'search', 'url']);
const isTextField = (e: SyntheticEvent) => e.target instanceof HTMLTextAreaElement || (e.target instanceof HTMLInputElement && TEXT_TYPES.has(e.target.type));

/**
 * How the form is being filled, for the server's screening (engine/browser/formSignals.ts): the
 * time each step is shown, pointer and key events counted, pastes — counts only, never a value.
 * Returns the form's capture handlers and a reader for the lead's `signals`.
 */
export function useFormSignals(screen: Screen) {
  const collector = useRef(signalCollector());
  useEffect(() => {
    const step = FORM_STEPS.indexOf(screen as (typeof FORM_STEPS)[number]);
    if (step < 0) return;
    const c = collector.current;
    c.stepShown(step);
    return () => c.stepLeft();
  }, [screen]);
  const handlers = {
    onPointerDownCapture: () => collector.current.onPointer(),
    onKeyDownCapture: () => collector.current.onKey(),
    onPasteCapture: (e: SyntheticEvent) => collector.current.onPaste(fieldOf(e)),
    onInputCapture: (e: SyntheticEvent) => {
      if (isTextField(e)) collector.current.onInput(fieldOf(e), (e.nativeEvent as InputEvent).inputType ?? '');
    },
  };
  const read = (): FormSignals => {
    // the step being submitted counts up to now
    const c = collector.current;
    c.stepLeft();
    const out = c.read();
    const step = FORM_STEPS.indexOf(screen as (typeof FORM_STEPS)[number]);
    if (step >= 0) c.stepShown(step);
    return out;
  };
  return { handlers, read };
}

/**
 * What the form tells screening about how it was filled — counts and durations only, never a
 * value typed: per step the milliseconds from showing it to leaving it, pointer and key events
 * counted, the text fields filled by paste among those typed or pasted into, and whether the browser says it is
 * driven by automation (navigator.webdriver). Sent with the lead (schemas/api/lead.schema.json
 * `signals`); a missing or partial set is screened as "not known", never as a bot.
 */
import type { FormSignals } from '../../schemas/api.types';

export type { FormSignals };

const CAP = 1_000_000;

export interface SignalCollector {
  /** a step was shown (its index) */
  stepShown(step: number, at?: number): void;
  /** the form moved on from the step shown */
  stepLeft(at?: number): void;
  /** called from the form's event handlers (capture phase) */
  onPointer(): void;
  onKey(): void;
  /** a paste into a field */
  onPaste(field: string): void;
  /** a text field changed: pasted when the input was a paste, or followed one */
  onInput(field: string, inputType: string): void;
  read(): FormSignals;
}

export function signalCollector(
  now: () => number = () => Date.now(),
  webdriver = () => typeof navigator !== 'undefined' && navigator.webdriver === true,
): SignalCollector {
  const stepMs: number[] = [];
  let shown: { step: number; at: number } | undefined;
  let pointer = 0;
  let key = 0;
  const pasted = new Map<string, boolean>();
  const pastePending = new Set<string>();
  return {
    stepShown(step, at = now()) {
      shown = { step, at };
    },
    stepLeft(at = now()) {
      if (!shown) return;
      stepMs[shown.step] = Math.min(CAP, (stepMs[shown.step] ?? 0) + Math.max(0, Math.round(at - shown.at)));
      shown = undefined;
    },
    onPointer: () => void (pointer = Math.min(CAP, pointer + 1)),
    onKey: () => void (key = Math.min(CAP, key + 1)),
    onPaste(field) {
      pastePending.add(field);
    },
    onInput(field, inputType) {
      pasted.set(field, inputType === 'insertFromPaste' || pastePending.delete(field));
    },
    read() {
      return {
        stepMs: Array.from(stepMs, (ms) => ms ?? 0).slice(0, 10),
        pointerEvents: pointer,
        keyEvents: key,
        pastedFields: [...pasted.values()].filter(Boolean).length,
        filledFields: pasted.size,
        webdriver: webdriver(),
      };
    },
  };
}

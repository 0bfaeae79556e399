import type { FormStep } from '../../engine/browser/formRules';

const LABELS: Record<FormStep, string> = { request: 'Your loan', contact: 'Contact details', income: 'Income' };

/** "Step n of 3" as an ordered list; the current step has aria-current="step", done steps say so. */
export function Progress({ steps, current }: { steps: readonly FormStep[]; current: FormStep }) {
  const index = steps.indexOf(current);
  return (
    <ol aria-label="Progress" className="mb-5 grid grid-cols-3 gap-2 text-sm">
      {steps.map((step, i) => {
        const state = i < index ? 'done' : i === index ? 'current' : 'todo';
        return (
          <li
            key={step}
            {...(state === 'current' ? { 'aria-current': 'step' as const } : {})}
            className="flex flex-col items-center gap-1 text-center sm:flex-row sm:text-left"
          >
            <span
              aria-hidden="true"
              className={`flex h-8 w-8 shrink-0 items-center justify-center rounded-full border-2 font-bold ${state === 'todo' ? 'border-slate-400 bg-white text-slate-700' : 'border-brand bg-brand text-white'}`}
            >
              {state === 'done' ? '✓' : i + 1}
            </span>
            <span className={state === 'current' ? 'font-bold text-slate-900' : 'text-slate-700'}>
              {LABELS[step]}
              {state === 'done' && <span className="sr-only"> (done)</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

import type { BlockProps } from '../types';
import { Section } from '../chrome/Section';

/** A plain GET form to the page itself; the server redirects ?state=…&type=… to the matching page. */
export default function SearchForm({ block }: BlockProps<'searchForm'>) {
  const { action, states, loanTypes } = block.data;
  const id = block.key;
  return (
    <Section heading={block.heading}>
      <form method="get" action={action} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={`${id}-state`} className="block font-medium text-slate-800">
            State
          </label>
          <select id={`${id}-state`} name="state" required defaultValue="" className="mt-1 min-h-11 w-full rounded-md border border-slate-400 px-3 py-2">
            <option value="" disabled>
              Choose your state
            </option>
            {states.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        {loanTypes.length > 1 && (
          <div className="flex-1">
            <label htmlFor={`${id}-type`} className="block font-medium text-slate-800">
              Loan type
            </label>
            <select
              id={`${id}-type`}
              name="type"
              defaultValue={loanTypes[0]?.value}
              className="mt-1 min-h-11 w-full rounded-md border border-slate-400 px-3 py-2"
            >
              {loanTypes.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="submit" className="min-h-11 rounded-md bg-brand px-6 py-2 font-bold text-white hover:opacity-90">
          {block.buttonLabel ?? 'Search'}
        </button>
      </form>
    </Section>
  );
}

'use client';
import { useEffect, useState } from 'react';
import { bracketAmount } from '../../engine/amounts';
import { applyUrl, SOURCE_STORAGE_KEY } from '../../engine/apply';
import type { BlockProps } from '../types';

/**
 * Quick amount picker. Works without script as a plain GET form to the apply page; once
 * hydrated it reads the stored source (LoansSource1) and sends the bracketed amount.
 */
export default function QuickAmount({ block, brand }: BlockProps<'quickAmount'>) {
  const [amount, setAmount] = useState(block.data.defaultAmount);
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    try {
      setSource(window.localStorage.getItem(SOURCE_STORAGE_KEY));
    } catch {
      /* storage blocked: keep the default source */
    }
  }, []);
  const href = applyUrl(brand.apply, { source, amount: bracketAmount(amount) });
  const id = `${block.key}-amount`;
  return (
    <section className="mx-auto my-6 max-w-3xl px-4">
      <form
        method="get"
        action={brand.apply.path}
        onSubmit={(e) => {
          e.preventDefault();
          window.location.assign(href);
        }}
        className="rounded-lg border border-slate-200 p-6 shadow-sm"
      >
        <h2 className="text-xl font-bold text-slate-900">{block.heading ?? 'How Much Instant Cash Do You Need?'}</h2>
        <label htmlFor={id} className="mt-4 block font-medium text-slate-800">Loan amount</label>
        <div className="mt-1 flex flex-col gap-3 sm:flex-row">
          <select
            id={id}
            name={brand.apply.amountParam}
            value={amount}
            onChange={(e) => setAmount(Number(e.target.value))}
            className="w-full rounded-md border border-slate-400 px-3 py-2 sm:w-60"
          >
            {block.data.options.map((o) => (
              <option key={o.value} value={o.value}>{o.label}</option>
            ))}
          </select>
          <input type="hidden" name="v1" value={source ?? 'landing-page'} />
          <button type="submit" className="rounded-md bg-brand px-6 py-2 font-bold text-white hover:opacity-90">
            {block.buttonLabel ?? 'Get Started'}
          </button>
        </div>
        <p className="mt-3 text-sm text-slate-700">This won&apos;t affect your credit score</p>
      </form>
    </section>
  );
}

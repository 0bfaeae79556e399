'use client';
import { useState } from 'react';
import { applyUrl } from '../../engine/browser/applyUrl';
import { formatNumber } from '../../engine/browser/amounts';
import { ApplyForm } from './ApplyForm';
import { blurCashAmount, CASH_AMOUNT, cashSubmitAmount, typeCashAmount } from '../../engine/browser/widgets/amountInput';
import type { BrandView } from '../../engine/site/model';
import { useApplySource } from './useApplySource';

export const CREDIT_NOTE = "This won't affect your credit score";

/**
 * The Get Your Cash form (SPEC §5): digits only, 50–5000 clamped on blur, placeholder 1000,
 * empty → 1000, "Get My Quotes Now!". Without script it is a plain GET form to the apply page.
 */
export function CashForm({
  brand,
  id,
  buttonLabel = 'Get My Quotes Now!',
  autoFocus = false,
}: {
  brand: BrandView;
  id: string;
  buttonLabel?: string;
  autoFocus?: boolean;
}) {
  const [text, setText] = useState('');
  const source = useApplySource();
  const href = applyUrl(brand.apply, { source, amount: cashSubmitAmount(text) });
  return (
    <ApplyForm apply={brand.apply} href={href} source={source}>
      <label htmlFor={id} className="block font-medium text-slate-800">
        Loan amount{' '}
        <span className="font-normal text-slate-700">
          (${CASH_AMOUNT.min} to ${formatNumber(CASH_AMOUNT.max, brand.locale)})
        </span>
      </label>
      <div className="mt-1 flex flex-col gap-3 sm:flex-row">
        <div className="flex w-full items-center rounded-md border border-slate-500 bg-white sm:w-60">
          <span aria-hidden="true" className="pl-3 text-slate-700">
            $
          </span>
          <input
            id={id}
            name={brand.apply.amountParam}
            inputMode="numeric"
            autoComplete="off"
            placeholder={String(CASH_AMOUNT.default)}
            value={text}
            onChange={(e) => setText(typeCashAmount(e.target.value))}
            onBlur={() => setText(blurCashAmount(text))}
            {...(autoFocus ? { 'data-autofocus': '' } : {})}
            className="min-h-11 w-full rounded-md px-2 py-2 placeholder:text-slate-600"
          />
        </div>
        <button type="submit" className="min-h-11 rounded-md bg-brand px-6 py-2 font-bold text-white hover:opacity-90">
          {buttonLabel}
        </button>
      </div>
      <p className="mt-3 text-sm text-slate-700">{CREDIT_NOTE}</p>
    </ApplyForm>
  );
}

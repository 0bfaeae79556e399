'use client';
import { useEffect, useId, useState } from 'react';
import { amountLabel, amountOptions, formatMoney } from '../../engine/browser/amounts';
import { applyUrl, TITLE_APPLY } from '../../engine/browser/applyUrl';
import { LOAN_PURPOSES } from '../../engine/browser/data/purposes';
import type { BrandView } from '../../engine/site/model';
import type { LiveExitPopup } from '../hydrationModel';
import { storeLinks } from './storeLinks';
import { TITLE_AMOUNT, titleSubmitAmount, typeTitleAmount } from '../../engine/browser/widgets/amountInput';
import { EXIT_POPUP_WIDTHS } from '../../engine/browser/widgets/modal';
import { AmountDropdown } from './AmountDropdown';
import { CashForm, CREDIT_NOTE } from './CashForm';
import { Modal } from './Modal';
import { brandVars } from '../chrome/brandVars';
import { useApplySource } from './useApplySource';

interface Props {
  brand: BrandView;
  /** on a first load the store links may come as their pattern (hydrationModel.ts) */
  popup: LiveExitPopup;
  visible: boolean;
  onClose: () => void;
}

const button = 'inline-block rounded-md bg-brand px-6 py-3 text-center font-bold text-white hover:opacity-90';

/** The exit-intent popup, in the brand's variant (SPEC §2): 870 px wide on large screens, 500 px on medium ones. */
export default function ExitPopup({ brand, popup, visible, onClose }: Props) {
  const stores = popup.stores ?? (popup.storeHref ? storeLinks(popup.storeHref) : undefined);
  const headingId = useId();
  // A store link navigates on the client: the popup closes as the route changes.
  useEffect(() => {
    if (!visible) return;
    window.next.router.events.on('routeChangeStart', onClose);
    return () => window.next.router.events.off('routeChangeStart', onClose);
  }, [visible, onClose]);
  const upTo = formatMoney(5000, brand.locale, brand.currency);
  const heading = (text: string) => (
    <h2 id={headingId} className="pr-8 text-2xl font-extrabold text-slate-900 sm:text-3xl">
      {text}
    </h2>
  );
  return (
    <Modal
      visible={visible}
      onClose={onClose}
      maskClosable={popup.maskClosable}
      width={EXIT_POPUP_WIDTHS.lg}
      className="max-lg:w-[500px]!"
      labelledBy={headingId}
      style={brandVars(brand)}
    >
      {popup.variant === 'generic' && (
        <>
          {heading('Leave so soon?')}
          <p className="mt-3 text-lg text-slate-800">Get an instant loan offer of up to {upTo}. It takes a few minutes.</p>
          <div className="mt-5">
            <CashForm brand={brand} id={`${headingId}-amount`} autoFocus />
          </div>
          <p className="mt-4 text-slate-800">Our service is 100% free, and funds may arrive in as fast as 24 hours.</p>
        </>
      )}
      {popup.variant === 'general' && (
        <>
          {heading('Sorry to see you leaving...')}
          <p className="mt-3 text-lg text-slate-800">You still have the chance to get up to {upTo} with easy requirements!</p>
          <GeneralForm brand={brand} id={`${headingId}-amount`} />
        </>
      )}
      {popup.variant === 'title' && (
        <>
          {heading('Borrow from $100 to $10,000')}
          <p className="mt-3 text-slate-800">Use your car title to get the cash you need. Tell us how much and what it is for.</p>
          <TitleForm brand={brand} id={`${headingId}-title`} />
        </>
      )}
      {popup.variant === 'payday' && (
        <>
          {heading('Before you go')}
          <p className="mt-3 text-lg text-slate-800">Request up to {upTo} online in a few minutes, or look up a loan store brand near you.</p>
          <PaydayApply brand={brand} />
          {stores && (
            <nav aria-label="Loan store brands" className="mt-6 border-t border-slate-200 pt-4">
              <h3 className="font-bold text-slate-900">Loan store brands</h3>
              <ul className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-3">
                {stores.map((s) => (
                  <li key={s.href}>
                    <a href={s.href} className="flex min-h-11 items-center rounded border border-slate-200 px-3 py-2 text-blue-800 hover:bg-slate-50">
                      {s.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </>
      )}
    </Modal>
  );
}

/** General site: the amount dropdown (default 1000) and GET STARTED NOW! to the apply page with the amount. */
function GeneralForm({ brand, id }: { brand: BrandView; id: string }) {
  const [amount, setAmount] = useState(1000);
  const source = useApplySource();
  const options = amountOptions().map((value) => ({ value, label: amountLabel(value, brand.locale, brand.currency) }));
  return (
    <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-end">
      <AmountDropdown id={id} label="Loan amount" options={options} defaultValue={1000} onChange={setAmount} autoFocus className="w-full sm:w-60" />
      <div>
        <a href={applyUrl(brand.apply, { source, amount })} rel="nofollow" data-full-load="" className={button}>
          GET STARTED NOW!
        </a>
      </div>
      <p className="text-sm text-slate-700 sm:ml-2">{CREDIT_NOTE}</p>
    </div>
  );
}

/** Title site: amount with separators (≤ 5000, default 2,500), purpose, Contact Now → /apply-title-loans keeping the page's query. */
function TitleForm({ brand, id }: { brand: BrandView; id: string }) {
  const [text, setText] = useState(() => typeTitleAmount(String(TITLE_AMOUNT.default), brand.locale));
  const [purpose, setPurpose] = useState('');
  const source = useApplySource();
  return (
    <form
      method="get"
      action={TITLE_APPLY.path}
      className="mt-5 grid gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        window.location.assign(applyUrl(TITLE_APPLY, { keep: window.location.search, source, amount: titleSubmitAmount(text) }));
      }}
    >
      <div>
        <label htmlFor={`${id}-amount`} className="block font-medium text-slate-800">
          Loan amount
        </label>
        <div className="mt-1 flex items-center rounded-md border border-slate-500 bg-white">
          <span aria-hidden="true" className="pl-3 text-slate-700">
            $
          </span>
          <input
            id={`${id}-amount`}
            inputMode="numeric"
            autoComplete="off"
            value={text}
            onChange={(e) => setText(typeTitleAmount(e.target.value, brand.locale))}
            data-autofocus=""
            className="min-h-11 w-full rounded-md px-2 py-2"
          />
        </div>
      </div>
      <div>
        <label htmlFor={`${id}-purpose`} className="block font-medium text-slate-800">
          Loan purpose
        </label>
        <select
          id={`${id}-purpose`}
          value={purpose}
          onChange={(e) => setPurpose(e.target.value)}
          className="mt-1 min-h-11 w-full rounded-md border border-slate-500 bg-white px-3 py-2"
        >
          <option value="">Choose a purpose</option>
          {LOAN_PURPOSES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className={button}>
          Contact Now
        </button>
        <p className="mt-3 text-sm text-slate-700">{CREDIT_NOTE}</p>
      </div>
    </form>
  );
}

/** Payday variant: the apply entry. */
function PaydayApply({ brand }: { brand: BrandView }) {
  const source = useApplySource();
  return (
    <div className="mt-5">
      <a href={applyUrl(brand.apply, { source })} rel="nofollow" data-full-load="" data-autofocus="" className={button}>
        {brand.apply.label}
      </a>
      <p className="mt-2 text-sm text-slate-700">{CREDIT_NOTE}</p>
    </div>
  );
}

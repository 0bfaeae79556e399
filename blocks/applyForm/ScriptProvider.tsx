import { useEffect, useState } from 'react';
import type { BlockProps } from '../types';
import { rememberThisVisit } from '../chrome/visitTracking';
import { sendFormTrace, traceFetchesTo } from './formTrace';
import { storage } from './storage';
import { readApplySource } from './tracking';

/**
 * A third-party form (SPEC §4, §7): its loader script is added once the page is interactive and
 * draws the form into the container; the form reports ready by dispatching `loansites:form-ready`
 * on window. Only then does trace capture start: fetches to the provider's lead-posting URL are
 * traced. The loader reads its settings from the script element's data attributes and from
 * window.loansitesForm: campaign, lead type, form type, the amount and v1 from the query.
 */
export function ScriptProvider({ block, brand }: BlockProps<'applyForm'>) {
  const headingId = `${block.key}-heading`;
  const containerId = block.script?.containerId ?? `${block.key}-provider`;
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const script = block.script;
    if (!script) return;
    // v1 below is this visit's stored source
    rememberThisVisit();
    const query = new URLSearchParams(window.location.search);
    const settings = {
      container: containerId,
      campaign: script.campaign,
      ...(script.leadType !== undefined ? { leadType: String(script.leadType) } : {}),
      ...(script.formType ? { formType: script.formType } : {}),
      amount: query.get(brand.apply.amountParam) ?? '',
      v1: readApplySource(window.location.search, storage('localStorage')),
    };
    let uninstall: (() => void) | undefined;
    const onReady = () => {
      setReady(true);
      const traceKey = block.data.traceKey;
      if (traceKey && script.leadUrl && !uninstall)
        uninstall = traceFetchesTo(script.leadUrl, (exchange) => void sendFormTrace(script.formType ?? block.loanKind, exchange, traceKey));
    };
    window.addEventListener('loansites:form-ready', onReady);
    (window as unknown as { loansitesForm?: typeof settings }).loansitesForm = settings;
    const el = document.createElement('script');
    el.src = script.src;
    el.async = true;
    for (const [k, v] of Object.entries(settings)) el.dataset[k] = v;
    const add = () => document.body.appendChild(el);
    if (document.readyState === 'complete') add();
    else window.addEventListener('load', add, { once: true });
    return () => {
      window.removeEventListener('loansites:form-ready', onReady);
      window.removeEventListener('load', add);
      uninstall?.();
      el.remove();
    };
  }, [block, brand.apply.amountParam, containerId]);
  return (
    <section aria-labelledby={headingId} className="mx-auto my-6 max-w-3xl px-4">
      <h2 id={headingId} className="text-2xl font-bold text-slate-900">
        {block.heading}
      </h2>
      <p className="mt-3 text-sm text-slate-800">{block.data.representativeExample}</p>
      {/* The loader owns the container's children; React keeps out of it. */}
      {!ready && <p className="mt-4 text-slate-700">Loading the application form…</p>}
      <div id={containerId} role="region" aria-label={`${block.heading}: application form`} aria-busy={!ready} className="mt-4 min-h-96" />
      <noscript>
        <p className="mt-2 text-slate-800">The application form needs JavaScript. Turn it on in your browser, or call us to apply by phone.</p>
      </noscript>
    </section>
  );
}

import { useEffect } from 'react';
import type { ApplyFormData } from './spec';

/**
 * The brand's consent provider (TrustedForm or Jornaya LeadiD, engine/site/consentProvider.ts):
 * its script is added once the page has loaded, as the provider asks (after the form is in the
 * page); it writes its certificate URL or token into the form's hidden field, which `read` gives
 * at submit ('' when the script did not run: blocked, or not loaded yet).
 */
export function useConsentProvider(provider: ApplyFormData['consentProvider']) {
  useEffect(() => {
    if (!provider) return;
    const el = document.createElement('script');
    el.src = provider.scriptUrl;
    el.async = true;
    const add = () => document.body.appendChild(el);
    if (document.readyState === 'complete') add();
    else window.addEventListener('load', add, { once: true });
    return () => {
      window.removeEventListener('load', add);
      el.remove();
    };
  }, [provider]);
  return {
    read: (): string => {
      if (!provider) return '';
      // the script may add a field of its own beside ours: the first one filled
      const fields = document.querySelectorAll<HTMLInputElement>(`input[name="${provider.field}"], input#${provider.field}`);
      const filled = [...fields].map((f) => f.value.trim()).find(Boolean);
      return filled?.slice(0, 200) ?? '';
    },
  };
}

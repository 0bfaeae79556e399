/** What the form says beside its buttons: the next screen out of reach, the last send's outcome, a request received earlier, and the page without JavaScript. */
import type { FormState } from './formState';
import type { ApplyFormData } from './spec';

const NEXT_STEP_OFFLINE = "We couldn't open the next step: you seem to be offline. Your answers are kept — press Continue again once your connection is back.";

export function NextStepOffline() {
  return (
    <div role="alert" className="mt-5 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{NEXT_STEP_OFFLINE}</p>
    </div>
  );
}

export function SendNotice({
  notice,
  sending,
  onRetry,
  retryClass,
}: {
  notice: NonNullable<FormState['notice']>;
  sending: boolean;
  onRetry: () => void;
  retryClass: string;
}) {
  return (
    <div role="alert" className="mt-5 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">{notice.message}</p>
      {notice.kind === 'retry' && (
        <button type="button" className={retryClass} disabled={sending} onClick={onRetry}>
          Try again
        </button>
      )}
      {notice.kind === 'refused' && <p className="mt-2">If something you entered is wrong, go back and change it.</p>}
    </div>
  );
}

/**
 * On the thank-you screen when the request received is one sent earlier whose answer was lost:
 * the borrower was told it failed, may have changed answers since, and must not think the
 * changed ones went to a lender. The heading (focused on arrival) is described by it.
 */
export function EarlierRequestNote({ id }: { id: string }) {
  return (
    <p id={id} className="mb-4 rounded-md border-2 border-slate-500 bg-slate-50 p-4 font-semibold text-slate-900">
      We had already received the request you sent earlier — only our answer to it did not reach you. The changes you made after sending it were not sent: what
      follows is about your request as you first sent it.
    </p>
  );
}

export function NoScriptNote({ phone }: { phone: ApplyFormData['phone'] }) {
  return (
    <noscript>
      <p className="mt-3 font-semibold text-slate-900">
        This form needs JavaScript to send your request. Please turn on JavaScript in your browser and reload this page
        {phone ? (
          <>
            , or call us on{' '}
            <a href={`tel:${phone.tel}`} className="text-blue-800 underline">
              {phone.text}
            </a>
            {phone.hours ? ` (${phone.hours})` : ''} to make your request by phone.
          </>
        ) : (
          '.'
        )}
      </p>
    </noscript>
  );
}

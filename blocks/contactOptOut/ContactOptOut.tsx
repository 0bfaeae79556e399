'use client';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { BlockProps } from '../types';
import { optOutOutcome, type OptOutOutcome, OPT_OUT_URL } from './outcome';

/**
 * "Stop calls and emails": the phone number or email address of an earlier request, sent to
 * POST /api/opt-out. The answer is the same whether or not we knew the contact (it tells nobody
 * who asked for a loan). Errors are announced and put next to the field they concern; the
 * confirmation takes the form's place and receives focus.
 */
/**
 * The confirmation takes focus as it mounts: the form (and the button that had focus) is gone by
 * then, and a frame scheduled at submit could run before React has committed the confirmation on
 * a slow phone, leaving focus on the page's body.
 */
const focusOnMount = (el: HTMLDivElement | null) => el?.focus();

const INPUT =
  'mt-1 block min-h-11 w-full rounded-md border border-slate-500 px-3 py-2 text-base text-slate-900 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-slate-900 aria-[invalid=true]:border-red-700';

/** What each contact field is: its label and what the browser offers for it. */
const CONTACT_FIELDS = {
  phone: { label: 'Phone number', type: 'tel', inputMode: 'tel', autoComplete: 'tel', maxLength: 40 },
  email: { label: 'Email address', type: 'email', inputMode: undefined, autoComplete: 'email', maxLength: 254 },
} as const;

/** One contact field with its label; `errorId` names the message when this field is the one in error. */
function ContactField({
  name,
  formId,
  inputRef,
  value,
  onChange,
  errorId,
}: {
  name: keyof typeof CONTACT_FIELDS;
  formId: string;
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  onChange: (value: string) => void;
  errorId: string | undefined;
}) {
  const { label, type, inputMode, autoComplete, maxLength } = CONTACT_FIELDS[name];
  const id = `${formId}-${name}`;
  return (
    <div>
      <label htmlFor={id} className="font-semibold text-slate-900">
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        name={name}
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={errorId !== undefined}
        aria-describedby={errorId}
        className={INPUT}
      />
    </div>
  );
}

export default function ContactOptOut({ block }: BlockProps<'contactOptOut'>) {
  const id = useId();
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<OptOutOutcome | undefined>(undefined);
  const phoneRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (sending) return;
    const body = { ...(phone.trim() ? { phone: phone.trim() } : {}), ...(email.trim() ? { email: email.trim() } : {}) };
    let next: OptOutOutcome;
    if (!body.phone && !body.email)
      next = { kind: 'invalid', message: 'Enter the phone number or the email address you gave on your request.', fields: { phone: true } };
    else {
      setSending(true);
      try {
        const res = await fetch(OPT_OUT_URL, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        next = optOutOutcome(res.status, await res.json().catch(() => null), res.headers.get('retry-after'));
      } catch {
        next = optOutOutcome(0, null, null);
      } finally {
        setSending(false);
      }
    }
    setOutcome(next);
    if (next.kind === 'invalid') (next.fields.email && !next.fields.phone ? emailRef : phoneRef).current?.focus();
  };

  const headingId = `${id}-heading`;
  const errorId = `${id}-error`;
  const invalid = outcome?.kind === 'invalid' ? outcome.fields : {};
  const button =
    'inline-flex min-h-11 min-w-44 items-center justify-center rounded-md bg-[var(--brand-theme)] px-6 py-2 font-semibold text-white focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed disabled:opacity-60';

  return (
    <section aria-labelledby={headingId} className="mx-auto my-6 max-w-3xl px-4">
      <div className="rounded-lg border border-slate-200 p-6 shadow-sm">
        <h2 id={headingId} className="text-xl font-bold text-slate-900">
          {block.heading ?? 'Stop calls and emails'}
        </h2>
        {outcome?.kind === 'done' ? (
          <div ref={focusOnMount} tabIndex={-1} role="status" className="mt-3 space-y-2 text-slate-800" data-opt-out="done">
            <p className="font-semibold text-slate-900">Your choice is recorded.</p>
            <p>
              We will not pass a loan request with this contact to any lender, and we are telling the lenders who received an earlier request to stop calling,
              texting and emailing you.
            </p>
          </div>
        ) : (
          <form noValidate onSubmit={(e) => void submit(e)} className="mt-3 space-y-4" aria-describedby={outcome ? errorId : undefined}>
            <p className="text-slate-800">Enter the phone number or the email address you gave on your loan request (one is enough; both is fine).</p>
            <ContactField name="phone" formId={id} inputRef={phoneRef} value={phone} onChange={setPhone} errorId={invalid.phone ? errorId : undefined} />
            <ContactField name="email" formId={id} inputRef={emailRef} value={email} onChange={setEmail} errorId={invalid.email ? errorId : undefined} />
            <p id={errorId} role="alert" className="min-h-6 font-semibold text-red-800">
              {outcome?.message ?? ''}
            </p>
            <button type="submit" disabled={sending} className={button}>
              {sending ? 'Sending…' : 'Stop calls and emails'}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}

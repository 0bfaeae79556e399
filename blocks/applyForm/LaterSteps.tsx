import { INCOME_SOURCES, minAgeOf, PAY_FREQUENCIES } from '../../engine/browser/formRules';
import type { LinkView } from '../../engine/site/model';
import { DATE_WORDS, PHONE_WORDS, type Country, type Region } from '../../engine/browser/regions';
import { suggestEmail } from '../../engine/browser/emailTypo';
import { DateOfBirthField, FieldError, errorId, RadioGroup, SelectField, TextField } from './Fields';
import { textFieldProps, type StepProps } from './RequestStep';

// The screens after step 1, one chunk (laterScreens.ts): the sale's progress comes with them.
export { SaleStatus } from './SaleStatus';

/** Step 2: first and last name, email and mobile phone. */
export function ContactStep({ values, errors, idOf, change, blur, country }: StepProps & { country: Country }) {
  const field = textFieldProps({ values, errors, idOf, change, blur });
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <TextField {...field('firstName')} label="First name" autoComplete="given-name" maxLength={50} />
      <TextField {...field('lastName')} label="Last name" autoComplete="family-name" maxLength={50} />
      <div className="sm:col-span-2">
        <TextField {...field('email')} label="Email address" type="email" inputMode="email" autoComplete="email" maxLength={120} />
        <EmailSuggestion email={values.email} onAccept={(fixed) => change('email', fixed)} />
      </div>
      <TextField
        {...field('phone')}
        label="Mobile phone number"
        hint={PHONE_WORDS[country].hint}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={20}
        className="sm:col-span-2 sm:max-w-xs"
      />
    </div>
  );
}

/** A likely typo of a common mail domain, offered back before submit; a button takes the fix. */
function EmailSuggestion({ email, onAccept }: { email: string; onAccept: (fixed: string) => void }) {
  const meant = suggestEmail(email.trim());
  return (
    <p aria-live="polite" className="mt-1 text-sm text-slate-800">
      {meant && (
        <>
          Did you mean <strong>{meant}</strong>?{' '}
          <button type="button" className="min-h-11 font-semibold text-brand underline" onClick={() => onAccept(meant)}>
            Use {meant}
          </button>
        </>
      )}
    </p>
  );
}

/** Step 3: income basics, date of birth, and the consent right above the submit button (which the parent renders). */
export function IncomeStep({
  values,
  errors,
  idOf,
  change,
  blur,
  consentText,
  consentLook,
  notices,
  country,
  usState,
}: StepProps & {
  consentText: string;
  consentLook?: { fontSizePx: number; color: string; background: string };
  notices: string[];
  country: Country;
  /** the US state step 1's lookup found for the ZIP (zip.ts lookedUpState): its age of majority is the hint's */
  usState?: Region;
}) {
  const consentId = idOf('consent');
  return (
    <div className="space-y-5">
      <SelectField
        id={idOf('incomeSource')}
        label="Main source of income"
        placeholder="Choose a source"
        options={INCOME_SOURCES}
        value={values.incomeSource}
        error={errors.incomeSource}
        onChange={(v) => change('incomeSource', v)}
        onBlur={() => blur('incomeSource')}
        className="max-w-sm"
      />
      <TextField
        id={idOf('monthlyIncome')}
        label="Monthly income after tax"
        hint="In whole dollars, for example 2,800"
        inputMode="numeric"
        prefix="$"
        maxLength={9}
        value={values.monthlyIncome}
        error={errors.monthlyIncome}
        onChange={(v) => change('monthlyIncome', v)}
        onBlur={() => blur('monthlyIncome')}
        className="max-w-xs"
      />
      <RadioGroup
        id={idOf('payFrequency')}
        legend="How often are you paid?"
        name="payFrequency"
        value={values.payFrequency}
        options={PAY_FREQUENCIES}
        error={errors.payFrequency}
        onChange={(v) => change('payFrequency', v)}
      />
      <DateOfBirthField
        id={idOf('dateOfBirth')}
        month={values.dobMonth}
        day={values.dobDay}
        year={values.dobYear}
        error={errors.dateOfBirth}
        onChange={(part, v) => change(part, v)}
        onBlur={() => blur('dateOfBirth')}
        dateWords={DATE_WORDS[country]}
        minAge={minAgeOf(values.zip, country, usState).minAge}
      />
      {notices.map((text) => (
        <p key={text} className="rounded-md border-l-4 border-slate-400 bg-slate-50 p-3 text-sm text-slate-800">
          {text}
        </p>
      ))}
      <div>
        <div className="flex items-start gap-3">
          {/* The box sits in a 44 px target; the label (the exact consent text) is clickable too. */}
          <span className="flex h-11 w-11 shrink-0 items-center justify-center">
            <input
              id={consentId}
              type="checkbox"
              checked={values.consent}
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={errors.consent ? errorId(consentId) : undefined}
              onChange={(e) => change('consent', e.target.checked)}
              className="h-6 w-6 accent-brand"
            />
          </span>
          {/* the brand's size and colours (validated against its rules); the browser measures them for the certificate */}
          <label
            htmlFor={consentId}
            data-consent-text
            className="pt-2 text-sm text-slate-800"
            style={consentLook ? { fontSize: `${consentLook.fontSizePx}px`, color: consentLook.color, backgroundColor: consentLook.background } : undefined}
          >
            {consentText}
          </label>
        </div>
        <FieldError id={consentId} message={errors.consent} />
      </div>
      {/* Honeypot: hidden from people and from assistive technology; a bot that fills it gets a 202 and no lead. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={idOf('consent') + '-website'}>Leave this field empty</label>
        <input
          id={idOf('consent') + '-website'}
          name="website"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onChange={(e) => change('website', e.target.value)}
        />
      </div>
    </div>
  );
}

/** The state gate: the ZIP is in a state this brand cannot serve; no contact details are asked and nothing is sent. */
export function StateGate({ reason, homeHref, codeWord }: { reason: string; homeHref: string; codeWord: string }) {
  return (
    <div className="space-y-3 text-slate-800">
      <p>{reason}</p>
      <p>Nothing you typed has been sent or passed to a lender. If you entered the wrong {codeWord}, go back and change it.</p>
      <p>
        <a href={homeHref} className="inline-flex min-h-11 items-center text-blue-800 underline">
          Back to the home page
        </a>
      </p>
    </div>
  );
}

/** After the server received the request: what happens next, and ways on (no dead end). */
export function ThankYou({ receiptId, homeHref, guide, regionWord }: { receiptId: string | undefined; homeHref: string; guide: LinkView; regionWord: string }) {
  return (
    <div className="space-y-3 text-slate-800">
      {receiptId && (
        <p>
          Your reference: <strong className="break-all">{receiptId}</strong>
        </p>
      )}
      <ul className="list-disc space-y-1 pl-5">
        <li>We look for a lender in our network that serves your {regionWord}. This often takes only a few minutes.</li>
        <li>If a lender can help, it may contact you by phone, text or email, or take you to its website.</li>
        <li>You will see the amount, APR, fees and repayment dates before you sign anything.</li>
        <li>You are not obliged to accept an offer, and our service is free.</li>
      </ul>
      <ul className="flex flex-col gap-2 sm:flex-row sm:gap-6">
        <li>
          <a href={homeHref} className="inline-flex min-h-11 items-center text-blue-800 underline">
            Go to the home page
          </a>
        </li>
        <li>
          <a href={guide.href} className="inline-flex min-h-11 items-center text-blue-800 underline">
            {guide.label}
          </a>
        </li>
      </ul>
    </div>
  );
}

import type { ReactNode } from 'react';
import type { FieldErrors, FieldKey } from '../../engine/browser/formRules';

/** Inputs are at least 44 px tall (tap targets); the border is dark enough for 3:1 contrast. */
const inputClass = (invalid: boolean) =>
  `mt-1 block min-h-11 w-full rounded-md border bg-white px-3 py-2 text-slate-900 ${invalid ? 'border-2 border-red-700' : 'border-slate-500'}`;

export const errorId = (id: string) => `${id}-error`;
const hintId = (id: string) => `${id}-hint`;
const describedBy = (id: string, hint: ReactNode | undefined, error: string | undefined) =>
  [hint ? hintId(id) : '', error ? errorId(id) : ''].filter(Boolean).join(' ') || undefined;

/** The message under a field: words (with "Error:" for screen readers and an icon), never colour alone. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={errorId(id)} className="mt-1 flex items-start gap-1 font-semibold text-red-800">
      <span aria-hidden="true" className="mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-red-800 text-xs text-white">
        !
      </span>
      <span>
        <span className="sr-only">Error: </span>
        {message}
      </span>
    </p>
  );
}

const Hint = ({ id, children }: { id: string; children: ReactNode }) => (
  <p id={hintId(id)} className="mt-1 text-sm text-slate-700">
    {children}
  </p>
);

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  hint?: ReactNode;
  inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  maxLength?: number;
  /** a visual prefix such as "$" (not read: the label says what the number is) */
  prefix?: string;
  className?: string;
}

export function TextField({
  id,
  label,
  value,
  onChange,
  onBlur,
  error,
  hint,
  inputMode = 'text',
  type = 'text',
  autoComplete = 'off',
  maxLength,
  prefix,
  className = '',
}: TextFieldProps) {
  const input = (
    <input
      id={id}
      type={type}
      inputMode={inputMode}
      autoComplete={autoComplete}
      spellCheck={false}
      value={value}
      {...(maxLength ? { maxLength } : {})}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, hint, error)}
      onChange={(e) => onChange(e.target.value)}
      {...(onBlur ? { onBlur } : {})}
      className={prefix ? `${inputClass(!!error)} pl-7` : inputClass(!!error)}
    />
  );
  return (
    <div className={className}>
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      {hint && <Hint id={id}>{hint}</Hint>}
      {prefix ? (
        <div className="relative">
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-700">
            {prefix}
          </span>
          {input}
        </div>
      ) : (
        input
      )}
      <FieldError id={id} message={error} />
    </div>
  );
}

interface SelectFieldProps {
  id: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  placeholder: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  className?: string;
}

export function SelectField({ id, label, value, options, placeholder, onChange, onBlur, error, className = '' }: SelectFieldProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId(id) : undefined}
        onChange={(e) => onChange(e.target.value)}
        {...(onBlur ? { onBlur } : {})}
        className={inputClass(!!error)}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={id} message={error} />
    </div>
  );
}

interface RadioGroupProps {
  id: string;
  legend: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** A fieldset of radios; each row is a 44 px tap target. The first radio carries the group's id (the error summary links to it). */
export function RadioGroup({ id, legend, name, value, options, onChange, error }: RadioGroupProps) {
  return (
    <fieldset aria-describedby={error ? errorId(id) : undefined}>
      <legend className="font-medium text-slate-900">{legend}</legend>
      <div className="mt-1 grid gap-1 sm:grid-cols-2">
        {options.map((o, i) => (
          <label key={o.value} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3">
            {/* eslint-disable-next-line jsx-a11y/role-supports-aria-props -- ARIA 1.2 makes aria-invalid global: screen readers say "invalid" on the radio itself */}
            <input
              type="radio"
              {...(i === 0 ? { id } : {})}
              name={name}
              value={o.value}
              checked={value === o.value}
              aria-invalid={error ? true : undefined}
              onChange={() => onChange(o.value)}
              className="h-5 w-5 accent-brand"
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={id} message={error} />
    </fieldset>
  );
}

interface DateOfBirthProps {
  id: string;
  month: string;
  day: string;
  year: string;
  onChange: (part: 'dobMonth' | 'dobDay' | 'dobYear', value: string) => void;
  onBlur: () => void;
  error?: string | undefined;
  /** the parts' order and the example, as the brand's country writes a date */
  dateWords: { order: readonly ('day' | 'month' | 'year')[]; example: string };
  /** the youngest a borrower may be where they live (19 in some Canadian provinces) */
  minAge: number;
}

const DOB_PARTS = {
  month: { key: 'dobMonth', label: 'Month', size: 'w-16', autoComplete: 'bday-month', maxLength: 2 },
  day: { key: 'dobDay', label: 'Day', size: 'w-16', autoComplete: 'bday-day', maxLength: 2 },
  year: { key: 'dobYear', label: 'Year', size: 'w-24', autoComplete: 'bday-year', maxLength: 4 },
} as const;

/** Date of birth as three labelled number fields in one fieldset, in the country's order (day first in Australia); the first field carries the group's id. */
export function DateOfBirthField({ id, month, day, year, onChange, onBlur, error, dateWords, minAge }: DateOfBirthProps) {
  const values = { dobMonth: month, dobDay: day, dobYear: year };
  return (
    <fieldset aria-describedby={[hintId(id), error ? errorId(id) : ''].filter(Boolean).join(' ')}>
      <legend className="font-medium text-slate-900">Date of birth</legend>
      <Hint id={id}>
        For example {dateWords.example}. You must be {minAge} or older.
      </Hint>
      <div className="mt-1 flex gap-3">
        {dateWords.order.map((name, i) => {
          const { key, label, size, autoComplete, maxLength } = DOB_PARTS[name];
          const inputId = i === 0 ? id : `${id}-${key}`;
          return (
            <div key={key} className={size}>
              <label htmlFor={inputId} className="block text-slate-900">
                {label}
              </label>
              <input
                id={inputId}
                inputMode="numeric"
                autoComplete={autoComplete}
                maxLength={maxLength}
                value={values[key]}
                aria-invalid={error ? true : undefined}
                onChange={(e) => onChange(key, e.target.value.replace(/\D+/g, ''))}
                onBlur={key === 'dobYear' ? onBlur : undefined}
                className={inputClass(!!error)}
              />
            </div>
          );
        })}
      </div>
      <FieldError id={id} message={error} />
    </fieldset>
  );
}

/** After a Continue that found problems: each one a link to its field. role="alert" so it is announced as it appears. */
export function ErrorSummary({ errors, labels, idOf }: { errors: FieldErrors; labels: Record<FieldKey, string>; idOf: (f: FieldKey) => string }) {
  const entries = Object.entries(errors) as [FieldKey, string][];
  if (!entries.length) return null;
  return (
    <div role="alert" className="mb-4 rounded-md border-2 border-red-700 bg-red-50 p-4">
      <p className="font-bold text-red-900">{entries.length === 1 ? 'One answer needs a correction:' : `${entries.length} answers need a correction:`}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {entries.map(([field, message]) => (
          <li key={field}>
            <a
              href={`#${idOf(field)}`}
              className="text-red-900 underline"
              onClick={(e) => {
                e.preventDefault();
                document.getElementById(idOf(field))?.focus();
              }}
            >
              {labels[field]}: {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

import { LOAN_PURPOSES } from '../../engine/browser/data/purposes';
import { isZip, type ApplyFormValues, type FieldErrors, type FieldKey } from '../../engine/browser/formRules';
import { POSTAL_WORDS, postalCodeAsTyped, type Country } from '../../engine/browser/regions';
import { SelectField, TextField } from './Fields';
import type { ZipPlace } from './zip';

export interface StepProps {
  values: ApplyFormValues;
  errors: FieldErrors;
  idOf: (field: FieldKey) => string;
  change: (field: keyof ApplyFormValues, value: string | boolean) => void;
  blur: (field: FieldKey) => void;
}

/** The props a step's text field takes for one form field: its id, value, error and handlers. */
export function textFieldProps({ values, errors, idOf, change, blur }: StepProps) {
  return (f: FieldKey & keyof ApplyFormValues) => ({
    id: idOf(f),
    value: values[f] as string,
    error: errors[f],
    onChange: (v: string) => change(f, v),
    onBlur: () => blur(f),
  });
}

const PURPOSE_OPTIONS = LOAN_PURPOSES.map((p) => ({ value: p, label: p }));
/** Room for a pasted code with spaces around it, or a ZIP+4 ("78701-1234"): postalCodeAsTyped cleans it. */
const POSTAL_FIELD_LENGTH = 12;

/**
 * Step 1: the amount (with the representative example next to it behind a disclosure, and Australia's licence and
 * responsible-lending statements) and the ZIP code, whose city and state appear under it once the
 * geocoder knows them (a Canadian postal code or Australian postcode: its province or state); on title brands also the purpose and
 * the vehicle's basics.
 */
export function RequestStep({
  values,
  errors,
  idOf,
  change,
  blur,
  title,
  representativeExample,
  amountNote,
  notices,
  place,
  country,
}: StepProps & {
  title: boolean;
  representativeExample: string;
  /** the amount the visitor came with was changed to fit the form: why, in place of the range hint */
  amountNote?: string | undefined;
  notices: string[];
  place: ZipPlace | undefined;
  country: Country;
}) {
  const field = textFieldProps({ values, errors, idOf, change, blur });
  const exampleId = `${idOf('amount')}-example`;
  const words = POSTAL_WORDS[country];
  return (
    <div className="space-y-5">
      <div>
        <TextField
          {...field('amount')}
          label="Loan amount"
          hint={amountNote ?? 'From $100 to $35,000, in whole dollars'}
          inputMode="numeric"
          prefix="$"
          maxLength={7}
          className="max-w-xs"
        />
        {/* Folded as beside the landing pages' amount widgets, so that the ZIP code is on a phone's first screen too; one tap (or key) opens it. */}
        <details id={exampleId} className="cost-details mt-2 text-sm text-slate-800">
          <summary>Representative example and costs</summary>
          <p className="rounded-md border-l-4 border-slate-400 bg-slate-50 p-3">{representativeExample}</p>
        </details>
        {notices.map((text) => (
          <p key={text} className="mt-2 text-sm text-slate-800">
            {text}
          </p>
        ))}
      </div>
      <div>
        <TextField
          {...field('zip')}
          onChange={(v) => change('zip', postalCodeAsTyped(v, country))}
          label={words.code}
          hint={words.hint}
          inputMode={words.inputMode}
          autoComplete="postal-code"
          maxLength={POSTAL_FIELD_LENGTH}
          className="max-w-[12rem]"
        />
        {/* Reserved height: the city appearing does not move the form. Announced politely. */}
        <p aria-live="polite" className="mt-1 min-h-6 text-slate-800">
          {place && isZip(values.zip, country) ? [place.city, place.stateName].filter(Boolean).join(', ') : ''}
        </p>
      </div>
      {title && (
        <>
          <SelectField {...field('purpose')} label="What is the loan for?" placeholder="Choose a purpose" options={PURPOSE_OPTIONS} className="max-w-sm" />
          <fieldset className="space-y-4">
            <legend className="text-lg font-semibold text-slate-900">Your vehicle</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField {...field('vehicleYear')} label="Model year" hint="For example 2016" inputMode="numeric" maxLength={4} />
              <TextField {...field('vehicleMake')} label="Make" hint="For example Toyota" maxLength={40} />
              <TextField {...field('vehicleModel')} label="Model" hint="For example Camry" maxLength={40} />
              <TextField {...field('vehicleMileage')} label="Approximate mileage" hint="For example 85,000" inputMode="numeric" maxLength={9} />
            </div>
          </fieldset>
        </>
      )}
    </div>
  );
}

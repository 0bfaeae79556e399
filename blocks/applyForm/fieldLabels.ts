import type { FieldKey } from '../../engine/browser/formRules';

/** Each field's name, as the error summary and the screen reader's announcements say it (the postal code's is the country's word). */
export const FIELD_LABELS: Record<FieldKey, string> = {
  amount: 'Loan amount',
  zip: 'ZIP code',
  purpose: 'Loan purpose',
  vehicleYear: 'Model year',
  vehicleMake: 'Make',
  vehicleModel: 'Model',
  vehicleMileage: 'Approximate mileage',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email address',
  phone: 'Mobile phone number',
  incomeSource: 'Main source of income',
  monthlyIncome: 'Monthly income after tax',
  payFrequency: 'How often you are paid',
  dateOfBirth: 'Date of birth',
  consent: 'Consent',
};

/** SPEC §3: the 14 loan purposes of the title popup's purpose dropdown, in order. */
export const LOAN_PURPOSES = [
  'Debt Consolidation',
  'Emergency Situation',
  'Auto Repair',
  'Auto Purchase',
  'Moving',
  'Home Improvement',
  'Medical',
  'Business',
  'Taxes',
  'Rent or Mortgage',
  'Wedding',
  'Major Purchase',
  'Vacation',
  'Other',
] as const;

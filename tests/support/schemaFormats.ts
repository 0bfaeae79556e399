/**
 * The formats the published API schemas use, for the tests that check answers and examples
 * against them: without them AJV ignores `format` (and says so), and a date-time field holding
 * "yesterday" would pass.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export const SCHEMA_FORMATS = {
  'date-time': (value: string) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)),
};

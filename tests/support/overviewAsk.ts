/** An overview as an operator asks for it (engine/console/overviewData.ts): UTC days, by day, no comparison, in US dollars, unless `extra` says otherwise. */
import type { OverviewAsk } from '../../engine/console/overviewData';

export const overviewAsk = (extra: Partial<OverviewAsk> & Pick<OverviewAsk, 'from' | 'to'>): OverviewAsk => ({
  dims: {},
  zone: '',
  grain: 'day',
  compare: false,
  currency: 'USD',
  ...extra,
});

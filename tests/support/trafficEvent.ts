/** A funnel event as the traffic writer receives it: an apply page's event on ipaydayloans from a phone, unless `extra` says otherwise. */
import type { TrafficEventInput } from '../../engine/store/traffic';

export const trafficEvent = (visitId: string, metric: string, createdAt: string, extra: Partial<TrafficEventInput> = {}): TrafficEventInput => ({
  visitId,
  metric,
  path: '/apply',
  state: '',
  value: 0,
  brand: 'ipaydayloans',
  device: 'mobile',
  createdAt,
  ...extra,
});

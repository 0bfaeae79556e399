/**
 * The funnel event only the server knows: a lead stored (POST /api/leads, after the lead is
 * committed), with its dimensions from its visit when it has one (engine/store/traffic.ts). Sales
 * and returns are not funnel events: the console's money is read from the sale records themselves.
 */
import type { TrafficBatch } from '../store/traffic';
import { deviceClass } from '../store/trafficRules';

const stateDim = (state: string | undefined) => (state && /^[a-z]{2}$/i.test(state) ? state.toUpperCase() : '');

export function storedLeadEvent(lead: { visitId?: string; brand: string; state?: string; userAgent: string; now: Date }): TrafficBatch {
  return {
    visits: [],
    events: [
      {
        visitId: lead.visitId ?? '',
        metric: 'stored',
        path: '',
        state: stateDim(lead.state),
        value: 0,
        brand: lead.brand,
        device: deviceClass(lead.userAgent),
        createdAt: lead.now.toISOString(),
      },
    ],
  };
}

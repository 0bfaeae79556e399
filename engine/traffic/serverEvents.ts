/**
 * Funnel events only the server knows: a lead stored (POST /api/leads, after the lead is
 * committed) and a sale's outcome (for the sale's code to record: sold with its price, unsold,
 * returned). Each takes its dimensions from its visit when it has one (engine/store/traffic.ts).
 */
import type { TrafficBatch } from '../store/traffic';
import { deviceClass, metricOf, type SaleOutcome } from '../store/trafficRules';

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

/** A sale's outcome; `priceCents` counts as revenue when sold. */
export function saleEvent(sale: { visitId?: string; brand: string; state?: string; outcome: SaleOutcome; priceCents: number; now: Date }): TrafficBatch {
  return {
    visits: [],
    events: [
      {
        visitId: sale.visitId ?? '',
        metric: metricOf({ type: 'sale', outcome: sale.outcome }),
        path: '',
        state: stateDim(sale.state),
        value: sale.outcome === 'sold' ? Math.max(0, Math.round(sale.priceCents)) : 0,
        brand: sale.brand,
        device: 'other',
        createdAt: sale.now.toISOString(),
      },
    ],
  };
}

/**
 * Visit ids are the server's: an id it issued verifies for its brand only; a made-up id, one
 * with a digit changed, or one of another brand does not; every instance sharing the keys
 * verifies the others' ids, and a rotated key keeps the visits it began valid while it stays in
 * the keyring. The funnel stage an event counts once per visit under (page views every time).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyringOf } from '../../engine/keys/sealing';
import { stageOf } from '../../engine/store/trafficRules';
import { issueVisitId, verifyVisitId } from '../../engine/traffic/visitId';

const k1 = randomBytes(32);
const k2 = randomBytes(32);

describe('visit ids', () => {
  it('are "v" + 32 hex digits (the format the stores, schemas and lead form keep) and differ each time', () => {
    const ids = new Set(Array.from({ length: 100 }, () => issueVisitId('ipaydayloans')));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^v[0-9a-f]{32}$/);
  });

  it('verify for the brand they were issued for, and for no other', () => {
    const id = issueVisitId('ipaydayloans');
    expect(verifyVisitId(id, 'ipaydayloans')).toBe(true);
    expect(verifyVisitId(id, 'ustitleloans')).toBe(false);
  });

  it('an id the server did not issue does not verify: made up, a digit changed, or not the shape', () => {
    const id = issueVisitId('ipaydayloans');
    const flipped = (i: number) => id.slice(0, i) + (id[i] === '0' ? '1' : '0') + id.slice(i + 1);
    for (const bad of [`v${randomBytes(16).toString('hex')}`, flipped(3), flipped(30), id.toUpperCase(), `${id}0`, '', 'v<script>'])
      expect([bad, verifyVisitId(bad, 'ipaydayloans')]).toEqual([bad, false]);
  });

  it('one instance verifies another’s ids (the same keys); a rotated key’s ids verify while it is in the keyring', () => {
    const id = issueVisitId('ipaydayloans', keyringOf([k1]));
    expect(verifyVisitId(id, 'ipaydayloans', keyringOf([Buffer.from(k1)]))).toBe(true);
    expect(verifyVisitId(id, 'ipaydayloans', keyringOf([k2, k1]))).toBe(true);
    expect(verifyVisitId(id, 'ipaydayloans', keyringOf([k2]))).toBe(false);
  });
});

describe('funnel stages, once per visit', () => {
  it('each stage is its own; a refusal per state; page views, sales and visit-less events count every time', () => {
    const e = (metric: string, state = '', visitId = 'v1') => stageOf({ visitId, metric, state });
    expect([e('apply_view'), e('step_1'), e('step_2'), e('submitted'), e('stored', 'TX'), e('amount_used')]).toEqual([
      'apply_view',
      'step_1',
      'step_2',
      'submitted',
      'stored',
      'amount_used',
    ]);
    expect([e('state_refused', 'NY'), e('state_refused', 'TX')]).toEqual(['state_refused:NY', 'state_refused:TX']);
    expect([e('page_view'), e('sale_sold'), e('sale_returned'), e('submitted', '', '')]).toEqual(['', '', '', '']);
  });
});

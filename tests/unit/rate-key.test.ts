/** Rate limits count an IPv4 client per address and an IPv6 client per /64, in memory as in Redis (tests/unit/shared-redis.test.ts). */
import { describe, expect, it } from 'vitest';
import { rateKey } from '../../engine/http/rateKey';
import { memoryRateLimiter } from '../../engine/http/rateLimit';

describe('rateKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
    ['', ''],
    ['not-an-address', 'not-an-address'],
    ['1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:8:9'],
    ['1::2::3', '1::2::3'],
    ['::ffff:300.1.1.1', '::ffff:300.1.1.1'],
  ])('%s counts as %s', (address, key) => {
    expect(rateKey(address)).toBe(key);
  });
});

describe('the in-memory limiter', () => {
  it('counts every address of an IPv6 /64 as one client, another /64 separately', async () => {
    const limiter = memoryRateLimiter({ name: 'v6', limit: 3, windowMs: 60_000 });
    const seen = [];
    for (const host of ['1', '2', 'abcd:ef01:2345', 'ffff']) seen.push((await limiter.hit(`2001:db8:aa:bb::${host}`, 1000)).ok);
    expect(seen).toEqual([true, true, true, false]);
    expect((await limiter.hit('2001:db8:aa:bc::1', 1000)).ok).toBe(true);
  });

  it('counts an IPv4-mapped address as the IPv4 address, and IPv4 clients per address', async () => {
    const limiter = memoryRateLimiter({ name: 'v4', limit: 2, windowMs: 60_000 });
    const seen = [await limiter.hit('198.51.100.4', 1000), await limiter.hit('::ffff:198.51.100.4', 1000), await limiter.hit('198.51.100.4', 1000)];
    expect(seen.map((d) => d.ok)).toEqual([true, true, false]);
    expect((await limiter.hit('198.51.100.5', 1000)).ok).toBe(true);
  });
});

/**
 * LEAD_DESTINATIONS as a deployment writes it: a destination's URL must be one the outbox can
 * call. A user name or password in it would make every delivery fail (fetch refuses such a URL)
 * and put the password in each attempt's stored error, so the server refuses it at start with
 * the reason. So does a plain http URL to another machine: the lead would cross the network in clear text.
 */
import { describe, expect, it } from 'vitest';
import { destinationsOf, parseDestinations } from '../../engine/leads/destinations';

const config = (url: string) => JSON.stringify({ '*': [{ name: 'acme', url, secret: 'a-secret-of-24-characters' }] });

describe('LEAD_DESTINATIONS', () => {
  it.each([
    'https://buyer.example/leads',
    'http://127.0.0.1:4100/leads?brand=x',
    'http://localhost:4100/leads',
    'https://buyer.example',
    'https://buyer.example:8443#in',
  ])('takes %s', (url) => {
    expect(destinationsOf('ipaydayloans', parseDestinations(config(url)))[0]?.url).toBe(url);
  });

  it.each([
    'https://user:pw@buyer.example/leads',
    'https://user@buyer.example/leads',
    'https://',
    'https:///leads',
    'https://buyer.example/a b',
    'ftp://buyer.example/',
  ])('refuses %s at start, saying why', (url) => {
    expect(() => parseDestinations(config(url))).toThrow(/LEAD_DESTINATIONS is not valid: \/\*\/0\/url: .*no user name or password/);
  });

  it.each(['http://buyer.example/leads', 'http://10.0.0.7:8080/leads', 'http://127.0.0.1.nip.io/leads'])(
    'refuses %s at start: a lead is never sent in clear text to another machine',
    (url) => {
      expect(() => parseDestinations(config(url))).toThrow(`LEAD_DESTINATIONS is not valid: /*/0/url: must be https`);
    },
  );
});

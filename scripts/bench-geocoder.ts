/**
 * npm run bench:geocoder — latency of the embedded geocoder per lookup on this machine, in
 * process (parse + search + v5 features, the work of one request): forward searches as a
 * visitor types them (prefixes, ZIP codes, states, addresses) and reverse lookups of random
 * points across the US. Prints p50/p99/max per kind. Target: p99 under 20 ms.
 */
import './check-node.cjs';
import { parseGeocodeRequest, type ForwardRequest, type ReverseRequest } from '../engine/http/geocodeRequest';
import { forwardGeocode, reverseGeocode } from '../engine/geo/geocoder/search';
import { geocoderIndex } from '../engine/geo/geocoder/data';

const started = performance.now();
const index = geocoderIndex();
console.log(`bench-geocoder: index loaded in ${(performance.now() - started).toFixed(0)} ms (${index.source})`);

const words = [
  'a',
  'ho',
  'hous',
  'houston',
  'houston tx',
  'new y',
  'new york',
  'san',
  'san antonio, tx',
  'spring',
  'st louis',
  'texas',
  'cal',
  'w',
  '7',
  '78',
  '787',
  '78701',
  '20001',
  '100 Main St, Austin, TX 78701',
  'Main St, Springfield IL',
  'portland, me',
  'zzzz',
];
const params = ['', 'country=us&limit=8&proximity=ip&types=postcode,address,place&language=en&autocomplete=true', 'proximity=-87.6,41.9&limit=8'];

// A fixed pseudo-random sequence, so runs are comparable.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

function measure(label: string, n: number, work: (i: number) => void) {
  for (let i = 0; i < 200; i++) work(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    work(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  console.log(`${label.padEnd(8)} n=${n}  p50 ${at(0.5).toFixed(3)} ms  p99 ${at(0.99).toFixed(3)} ms  max ${at(1).toFixed(3)} ms`);
  return at(0.99);
}

const p99f = measure('forward', 20_000, (i) => {
  const text = words[i % words.length]!;
  forwardGeocode(parseGeocodeRequest(`${encodeURIComponent(text)}.json`, new URLSearchParams(params[i % params.length])) as ForwardRequest);
});
const p99r = measure('reverse', 20_000, () => {
  const lon = -124 + random() * 57;
  const lat = 25 + random() * 24;
  reverseGeocode(parseGeocodeRequest(`${lon.toFixed(5)},${lat.toFixed(5)}.json`, new URLSearchParams(random() < 0.5 ? 'types=region' : '')) as ReverseRequest);
});
const worst = Math.max(p99f, p99r);
console.log(`bench-geocoder: p99 ${worst.toFixed(3)} ms per lookup (target < 20 ms) — ${worst < 20 ? 'ok' : 'OVER'}`);

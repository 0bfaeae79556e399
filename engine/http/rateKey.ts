/**
 * Whom a rate limit counts: an IPv4 client is one address, an IPv6 client is its /64. An ISP
 * gives a subscriber (at least) a /64 and a host picks any of its 2^64 addresses at will, so
 * counting full IPv6 addresses would give one visitor an allowance per address. IPv4-mapped
 * IPv6 (`::ffff:1.2.3.4`, as a dual-stack socket reports an IPv4 peer) counts as the IPv4
 * address. Anything that is not an address is counted as it is.
 */

const V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  // An embedded IPv4 address (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is the last two groups.
  if (dotted.includes('.')) {
    if (!V4.test(dotted)) return undefined;
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !HEX_GROUP.test(g))) return undefined;
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  const zeros = 8 - given;
  return [...head, ...Array<string>(zeros).fill('0'), ...rest].map((g) => parseInt(g, 16));
}

/** The key a client's requests are counted under: `1.2.3.4`, or `2001:db8:0:1::/64`. */
export function rateKey(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (V4.test(bare)) return bare;
  if (!bare.includes(':')) return address;
  const groups = ipv6Groups(bare);
  if (!groups) return address;
  // ::ffff:a.b.c.d (however it is written): the IPv4 client it stands for.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

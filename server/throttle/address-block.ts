import { isIPv4, isIPv6 } from 'node:net';

/**
 * The block of addresses a client is taken to hold, for keying per-address throttles: an IPv4
 * address itself (also when written IPv4-mapped, ::ffff:1.2.3.4), an IPv6 address its /64. One
 * home or server gets a whole /64, so a budget per IPv6 address would give an attacker 2^64 of
 * them. Every spelling of one block gives one key. Anything else is kept as given.
 */
export function addressBlock(ip: string | undefined): string {
  if (ip === undefined) return 'unknown';
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (its zone, "%eth0", left out). */
function ipv6Groups(ip: string): number[] {
  let address = ip.split('%')[0]!;
  // A dotted IPv4 ending stands for the last two groups.
  const tailAt = address.lastIndexOf(':') + 1;
  const tail = address.slice(tailAt);
  if (tail.includes('.')) {
    const [a, b, c, d] = tail.split('.').map(Number) as [number, number, number, number];
    address = `${address.slice(0, tailAt)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, rest] = address.split('::');
  if (rest === undefined) return parse(head);
  const before = parse(head);
  const after = parse(rest);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

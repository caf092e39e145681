import { isIP } from 'node:net';

/**
 * The limiter key of a client address. IPv4 addresses count one by one; an IPv6 client usually holds a whole
 * /64 (one customer line, and SLAAC privacy addresses rotate inside it), so IPv6 counts per /64: otherwise
 * one attacker gets 2^64 fresh buckets.
 */
export function addressKey(ip: string): string {
  const addr = ip.split('%')[0] ?? ip; // drop an IPv6 zone id (fe80::1%eth0)
  if (isIP(addr) !== 6) return addr;
  const groups = expandIpv6(addr);
  if (!groups) return addr;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` and a trailing dotted IPv4 part expanded), or null. */
function expandIpv6(addr: string): number[] | null {
  let text = addr.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const o = v4[1]!.split('.').map(Number);
    text =
      text.slice(0, -v4[1]!.length) + `${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<number>(Math.max(0, fill)).fill(0), ...t];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

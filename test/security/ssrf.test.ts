import { describe, expect, it } from 'vitest';
import { SsrfError, checkUrlShape, checkUrlTarget, isPrivateAddress } from '../../src/platform/webhooks/ssrf.js';

describe('webhook target classification (issue 19 item 10)', () => {
  it('private, loopback, link-local, reserved and special addresses are refused', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      '64:ff9b::1.2.3.4',
      'not an ip',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
  });

  it('IPv6 forms that embed an IPv4 address are judged by that address', () => {
    // IPv4-compatible ::/96, IPv4-mapped, 6to4 2002::/16 and Teredo 2001::/32 (client IPv4 stored inverted)
    for (const ip of [
      '::127.0.0.1',
      '::10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:192.168.0.1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:101::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe',
      '2001:0:a00:1::1',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    // the same forms around a public IPv4 address are allowed
    for (const ip of [
      '::ffff:93.184.216.34',
      '::93.184.216.34',
      '2002:5db8:d822::1',
      '2001:0:4136:e378:8000:63bf:a247:27dd',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('public unicast addresses are allowed', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:830::200e'])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });
});

describe('reserved IPv6 ranges (issue 37 item 10)', () => {
  // [address, why it must be refused]
  const hostile: [string, string][] = [
    ['::ffff:0:0:7f00:1', '::/8 reserved, the form from the issue (127.0.0.1 in an unnamed ::ffff:0:0/96 spelling)'],
    ['::ffff:0:7f00:1', 'IPv4-translated ::ffff:0:0:0/96 (RFC 6145) around 127.0.0.1'],
    ['::ffff:0:5db8:d822', 'IPv4-translated around a public IPv4: still in ::/8, never a real host'],
    ['::1:0:0:0:1', '::/8 reserved, no IPv4 form'],
    ['0:0:0:1::7f00:1', '::/8 reserved'],
    ['ff::1', '::/8 reserved (top of the block)'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::0.0.0.1', 'IPv4-compatible 0.0.0.1 (0.0.0.0/8)'],
    ['100::1', 'discard 100::/64'],
    ['64:ff9b::7f00:1', 'NAT64 around 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 around 169.254.169.254'],
    ['64:ff9b::c0a8:1', 'NAT64 around 192.168.0.1'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 64:ff9b:1::/48'],
    ['2002:7f00:1::1', '6to4 around 127.0.0.1'],
    ['2002:a00:1::', '6to4 around 10.0.0.1'],
    ['2002:a9fe:a9fe::', '6to4 around 169.254.169.254'],
    ['2002:6440:1::', '6to4 around 100.64.0.1 (CGNAT)'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1 (inverted)'],
    ['2001:0:a00:1::1', 'Teredo, server 10.0.0.1'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local (end of fe80::/10)'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast, global scope'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['2001:2::1', 'benchmarking'],
    ['2001:10::1', 'ORCHID'],
    ['2001:20::1', 'ORCHIDv2'],
    ['2001:3::1', 'AMT'],
    ['2001:4:112::1', 'AS112'],
    ['2001:100::1', 'IETF protocol assignments 2001::/23'],
    ['5f00::1', 'SRv6 SIDs'],
    ['4000::1', 'outside global unicast 2000::/3 (unassigned)'],
    ['e000::1', 'outside global unicast 2000::/3 (unassigned)'],
  ];

  it.each(hostile)('%s is refused (%s)', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    '2606:4700:4700::1111',
    '2a00:1450:4001:830::200e',
    '2001:4860:4860::8888',
    '2400:cb00::1',
    '2620:fe::fe',
    '::ffff:93.184.216.34',
    '2002:5db8:d822::1',
  ])('public %s is accepted', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });

  it('a webhook URL with a hostile IPv6 literal is refused unless private URLs are allowed', async () => {
    for (const [ip] of hostile.filter(([a]) => !a.includes('%'))) {
      const u = checkUrlShape(`http://[${ip}]:8080/hook`);
      await expect(checkUrlTarget(u, false), ip).rejects.toBeInstanceOf(SsrfError);
      await expect(checkUrlTarget(u, true), ip).resolves.toBeUndefined();
    }
    await expect(checkUrlTarget(checkUrlShape('http://[2606:4700:4700::1111]/hook'), false)).resolves.toBeUndefined();
  });
});

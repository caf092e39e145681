import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/platform/webhooks/ssrf.js';

describe('webhook target classification (issue 19 item 10)', () => {
  it('private, loopback, link-local, reserved and special addresses are refused', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '224.0.0.1',
      '192.0.2.1', '198.51.100.7', '203.0.113.9', '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', '64:ff9b::1.2.3.4', 'not an ip']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
  });

  it('IPv6 forms that embed an IPv4 address are judged by that address', () => {
    // IPv4-compatible ::/96, IPv4-mapped, 6to4 2002::/16 and Teredo 2001::/32 (client IPv4 stored inverted)
    for (const ip of ['::127.0.0.1', '::10.0.0.1', '::ffff:127.0.0.1', '::ffff:192.168.0.1', '2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:a00:1::1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    // the same forms around a public IPv4 address are allowed
    for (const ip of ['::ffff:93.184.216.34', '::93.184.216.34', '2002:5db8:d822::1', '2001:0:4136:e378:8000:63bf:a247:27dd']) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
  });

  it('public unicast addresses are allowed', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:830::200e']) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});

// @integration: login attempt limits are counted in Redis when REDIS_URL is set
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../src/platform/limits/address-key.js';
import { makeApp, type TestApp } from '../helpers/app.js';

const LOGIN = '/wp-json/rova/v1/auth/login';
const PASSWORD = 'correct horse battery';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

const login = (login: string, password: string, remoteAddress = '198.51.100.7') =>
  t.inject({ method: 'POST', url: LOGIN, payload: { login, password }, remoteAddress });

describe('login limits', () => {
  it('an account is one bucket whether typed as its login or its email', async () => {
    await t.userWithKey('customer', ['read'], 'cust1');
    const codes: number[] = [];
    for (let i = 0; i < 10; i++)
      codes.push((await login(i % 2 ? 'cust1' : 'CUST1@example.test', 'wrong guess')).statusCode);
    expect(codes).toEqual(Array(10).fill(401));
    const limited = await login('cust1@example.test', 'another guess');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rova_too_many_logins');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('an attacker at one address does not lock the owner at another address out', async () => {
    await t.userWithKey('customer', ['read'], 'owner1');
    for (let i = 0; i < 10; i++) expect((await login('owner1', 'guess', '203.0.113.66')).statusCode).toBe(401);
    expect((await login('owner1', PASSWORD, '203.0.113.66')).statusCode).toBe(429);
    expect((await login('owner1', PASSWORD, '192.0.2.10')).statusCode).toBe(200);
  });

  it('a looser per-account ceiling bounds guessing spread over many addresses', async () => {
    const limits = t.platform.auth.loginLimits;
    const saved = { ...limits };
    Object.assign(limits, { perAccountAddress: 2, perAccount: 5 });
    try {
      await t.userWithKey('customer', ['read'], 'spread1');
      const codes: number[] = [];
      // 3 addresses × 2 attempts: the ceiling (5) is reached on the 6th attempt, from the third address.
      for (const a of ['192.0.2.21', '192.0.2.22', '192.0.2.23'])
        for (let i = 0; i < 2; i++) codes.push((await login('spread1', 'guess', a)).statusCode);
      expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
      // Beyond its own limit an address adds nothing more to the ceiling.
      expect((await login('spread1', 'guess', '192.0.2.21')).statusCode).toBe(429);
      expect((await login('spread1', PASSWORD, '192.0.2.99')).statusCode).toBe(429);
    } finally {
      Object.assign(limits, saved);
    }
  });

  it('good logins do not use up the failure budget: 30 of them from one address, then a wrong one is a 401, not a 429 (issue 19 item 7)', async () => {
    await t.userWithKey('administrator', ['read'], 'operator1');
    for (let i = 0; i < 30; i++)
      expect((await login('operator1', PASSWORD, '198.51.100.70')).statusCode, `login ${i + 1}`).toBe(200);
    expect((await login('operator1', 'typo', '198.51.100.70')).statusCode).toBe(401);
  });

  it('changing the password checks the current one under the login limits: 10 wrong → 429 (issue 19 item 7)', async () => {
    const u = await t.userWithKey('customer', ['read', 'write'], 'changer1');
    const change = (current: string) =>
      t.inject({
        method: 'PUT',
        url: '/wp-json/rova/v1/auth/password',
        headers: { 'x-rova-api-key': u.key },
        remoteAddress: '198.51.100.71',
        payload: { current_password: current, new_password: 'a brand new passphrase' },
      });
    for (let i = 0; i < 10; i++) {
      const r = await change(`guess ${i}`);
      expect(r.statusCode, `guess ${i}`).toBe(401);
      expect(r.json().message).toBe('The current password is wrong.');
    }
    const limited = await change(PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rova_too_many_logins');
    // the right password from another address still works
    const ok = await t.inject({
      method: 'PUT',
      url: '/wp-json/rova/v1/auth/password',
      headers: { 'x-rova-api-key': u.key },
      remoteAddress: '192.0.2.71',
      payload: { current_password: PASSWORD, new_password: 'a brand new passphrase' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('IPv6 clients are limited per /64', async () => {
    const limits = t.platform.auth.loginLimits;
    const saved = { ...limits };
    Object.assign(limits, { perAddress: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await login(`nobody${i}`, 'x', `2001:db8:aa:bb::${i + 1}`)).statusCode);
      expect(codes).toEqual([401, 401, 401]);
      expect((await login('nobody9', 'x', '2001:db8:aa:bb:ffff:1:2:3')).statusCode).toBe(429);
      expect((await login('nobody9', 'x', '2001:db8:aa:bc::1')).statusCode).toBe(401);
    } finally {
      Object.assign(limits, saved);
    }
  });

  it('addressKey: IPv4 as is, IPv6 as its /64', () => {
    expect(addressKey('203.0.113.5')).toBe('203.0.113.5');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:0DB8:0000:0000:ffff:1:2:3')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('0:0:0:0::/64');
    expect(addressKey('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
  });
});

import { command } from '../../../cli/command.js';
import { securitySettings } from '../../security-settings.js';
import { CLOCK_TOLERANCE_S, jwtSessionsOf } from './sessions.js';

/** `rova keys rotate`: a new signing key from now on; the old ones verify until their tokens have expired. */
export const keysCommand = command(
  { summary: 'new JWT signing key (the old one verifies until its tokens expire)', usage: ['keys rotate'] },
  async (ctx) => {
    if (ctx.args[0] !== 'rotate' || ctx.args.length !== 1) {
      ctx.io.stderr.write('rova: usage: rova keys rotate\n');
      return 2;
    }
    const { app, platform } = await ctx.open();
    try {
      const grace = securitySettings(platform.config).accessTtlSeconds + CLOCK_TOLERANCE_S;
      const r = await jwtSessionsOf(platform).keys.rotate(grace);
      ctx.io.stdout.write(`${r.kid}\n`);
      ctx.io.stderr.write(`new signing key ${r.kid}; ${r.retired.length} older key(s) verify for ${grace} s more\n`);
      return 0;
    } finally {
      await app.close();
    }
  },
);

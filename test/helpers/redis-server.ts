import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './ports.js';

/**
 * A real redis-server (Debian package `redis-server`) that a test starts, kills and restarts itself, on its own
 * free port, without persistence: outage tests never touch the shared Redis of the integration suite.
 */
export class RedisServer {
  private proc: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const s = new RedisServer(await freePort());
    await s.restart();
    return s;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and resolves once it accepts connections. */
  async restart(): Promise<void> {
    const proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
      {
        stdio: 'ignore',
      },
    );
    this.proc = proc;
    const deadline = Date.now() + 10_000;
    while (!(await ping(this.port))) {
      if (proc.exitCode !== null)
        throw new Error(`redis-server exited with ${proc.exitCode} (is the redis-server package installed?)`);
      if (Date.now() > deadline) throw new Error('redis-server did not start within 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGKILL: the outage a crash or an OOM kill gives (no goodbye to clients). Resolves when the process is gone. */
  async kill(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (!p || p.exitCode !== null) return;
    p.kill('SIGCONT'); // a paused server dies only once it runs again
    const gone = new Promise<void>((r) => p.once('exit', () => r()));
    p.kill('SIGKILL');
    await gone;
  }

  /**
   * SIGSTOP: a hung Redis — connections stay open, nothing is answered (what a stuck server, or a long
   * `DEBUG SLEEP`, looks like to clients). `resume()` (SIGCONT) lets it carry on where it stopped.
   */
  pause(): void {
    this.proc?.kill('SIGSTOP');
  }

  resume(): void {
    this.proc?.kill('SIGCONT');
  }

  /** Kills at once without waiting (from inside a synchronous callback). */
  killNow(): void {
    this.proc?.kill('SIGKILL');
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.once('error', () => done(false));
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.once('data', (d) => done(d.toString().startsWith('+PONG')));
    sock.setTimeout(500, () => done(false));
  });
}

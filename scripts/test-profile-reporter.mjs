// Vitest reporter behind `npm run test:profile`: where the suite's time goes. Prints the slowest test files
// (import + hooks + tests) and the slowest setup steps (beforeAll/afterAll/beforeEach hooks, summed per file),
// and writes the figures as JSON (TEST_PROFILE_OUT, default .test-profile.json) for before/after comparisons.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { relative } from 'node:path';

const fmt = (ms) => (ms / 1000).toFixed(1).padStart(7) + ' s';

export default class ProfileReporter {
  hookStarts = new Map();
  hooks = new Map(); // "file ▸ hookName ▸ suite" → ms
  started = 0;

  onInit(ctx) {
    this.root = ctx.config.root;
    this.started = performance.now();
  }

  key(hook) {
    const e = hook.entity;
    const mod = e.type === 'module' ? e : e.module;
    const where = e.type === 'module' ? '(file)' : e.type === 'suite' ? e.fullName : '(each test)';
    return `${relative(this.root, mod.moduleId)} ▸ ${hook.name} ▸ ${where}`;
  }

  moduleStarts = new Map();
  moduleEnds = new Map();

  onTestModuleStart(module) {
    this.moduleStarts.set(module.moduleId, performance.now() - this.started);
  }

  onTestModuleEnd(module) {
    this.moduleEnds.set(module.moduleId, performance.now() - this.started);
  }

  onHookStart(hook) {
    this.hookStarts.set(`${hook.entity.id}:${hook.name}`, performance.now());
  }

  onHookEnd(hook) {
    const t0 = this.hookStarts.get(`${hook.entity.id}:${hook.name}`);
    if (t0 === undefined) return;
    const k = this.key(hook);
    this.hooks.set(k, (this.hooks.get(k) ?? 0) + performance.now() - t0);
  }

  onTestRunEnd(modules) {
    const wall = performance.now() - this.started;
    const files = modules.map((m) => {
      const d = m.diagnostic();
      let tests = 0;
      let count = 0;
      for (const t of m.children.allTests()) {
        count += 1;
        tests += t.diagnostic()?.duration ?? 0;
      }
      return {
        file: relative(this.root, m.moduleId),
        total: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        import: d.collectDuration,
        hooksAndTests: d.duration,
        tests,
        count,
        startedAt: this.moduleStarts.get(m.moduleId) ?? null,
        endedAt: this.moduleEnds.get(m.moduleId) ?? null,
      };
    });
    files.sort((a, b) => b.total - a.total);
    const hooks = [...this.hooks].map(([step, ms]) => ({ step, ms })).sort((a, b) => b.ms - a.ms);
    const sum = (xs, f) => xs.reduce((s, x) => s + f(x), 0);
    const out = [];
    out.push('', `test profile: ${files.length} files, ${sum(files, (f) => f.count)} tests, wall ${fmt(wall)}`);
    out.push(
      `  summed over files: import ${fmt(sum(files, (f) => f.import))}, hooks+tests ${fmt(sum(files, (f) => f.hooksAndTests))}, tests alone ${fmt(sum(files, (f) => f.tests))}`,
    );
    out.push('', 'slowest test files (total = import + hooks + tests):');
    for (const f of files.slice(0, 20))
      out.push(
        `${fmt(f.total)}  import ${fmt(f.import)}  tests ${fmt(f.tests)}  ${String(f.count).padStart(4)} tests  ${f.file}`,
      );
    const tail = files
      .filter((f) => f.endedAt !== null)
      .sort((a, b) => b.endedAt - a.endedAt)
      .slice(0, 8);
    out.push('', 'last files to finish (a long file started late makes the tail):');
    for (const f of tail) out.push(`  started ${fmt(f.startedAt)}  ended ${fmt(f.endedAt)}  ${f.file}`);
    out.push('', 'slowest setup steps (hooks, summed per file and suite):');
    for (const h of hooks.slice(0, 20)) out.push(`${fmt(h.ms)}  ${h.step}`);
    console.log(out.join('\n'));
    const path = process.env.TEST_PROFILE_OUT || '.test-profile.json';
    writeFileSync(path, JSON.stringify({ wallMs: Math.round(wall), files, hooks }, null, 1));
    console.log(`\n(figures written to ${path})`);
  }
}

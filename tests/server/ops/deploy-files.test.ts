import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { Ajv } from 'ajv';
import { loadConfig } from '../../../server/config';
import { freePort } from '../../helpers/faults';

/**
 * Issue 30.9: the Dockerfile, the systemd unit and the compose file cannot be built or started here (no container
 * runtime, no init); what can be checked is: `systemd-analyze verify` on the unit, the compose file's structure (a
 * subset of the compose specification's keys, references between services, volumes and the proxy's configuration,
 * the instances' environment through the server's own configuration check), and the Dockerfile's commands: its npm
 * scripts exist, what `npm prune --omit=dev` keeps is all the compiled server imports, and its CMD with its ENV, run
 * as written from a directory laid out like the image (the compiled server of this run), answers its HEALTHCHECK
 * command and stops with exit 0 at its STOPSIGNAL.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');

describe('deploy/iam.service', () => {
  const analyze = spawnSync('sh', ['-c', 'command -v systemd-analyze'], { encoding: 'utf8' }).stdout.trim();
  it.skipIf(!analyze)('passes systemd-analyze verify (skipped: systemd-analyze is not installed; .ci/run installs systemd)', () => {
    const r = spawnSync(analyze, ['verify', path.join(ROOT, 'deploy/iam.service')], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it('runs the compiled server as the only process, with npm start’s settings, and no restart on a configuration error', () => {
    const unit = read('deploy/iam.service');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/env node --max-semi-space-size=1 --max-old-space-size=1024 .*build\/server\/main\.js$/m);
    expect(unit).toMatch(/^User=iam$/m);
    expect(unit).toMatch(/^RestartPreventExitStatus=78$/m);
    expect(unit).toMatch(/^ProtectSystem=strict$/m);
    expect(unit).toMatch(/^Environment=.*MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1/m);
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    name: string;
    services: Record<string, Record<string, unknown> & { environment?: Record<string, string>; depends_on?: string[] | Record<string, { condition: string }> }>;
    volumes: Record<string, unknown>;
  };
  const SERVICE_KEYS = new Set(['image', 'build', 'read_only', 'tmpfs', 'restart', 'environment', 'depends_on', 'ports', 'volumes', 'command', 'healthcheck']);

  // The Compose Specification's own JSON schema (compose-spec/compose-spec, copied into fixtures/ with its commit in
  // fixtures/compose-spec.README.md): what `docker compose config` checks before anything runs.
  const schema = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'compose-spec.json'), 'utf8')) as { $schema?: string };
  // draft-07, which Ajv's default build knows by its http address
  const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile({ ...schema, $schema: undefined });
  const problems = (doc: unknown) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`));

  it('is valid against the Compose Specification schema, which refuses a misspelt key or a wrong type', () => {
    expect(problems(parse(read('compose.yaml'), { merge: true }))).toEqual([]);
    const broken = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Record<string, unknown>> };
    broken.services['iam-1'] = { ...broken.services['iam-1'], read_onyl: true, healthcheck: { test: ['CMD', 'true'], intervall: '5s' } };
    expect(problems(broken).join('\n')).toMatch(/services\/iam-1.*additional properties[\s\S]*healthcheck.*additional properties/);
  });

  it('uses compose-specification keys only, and every reference resolves', () => {
    for (const key of Object.keys(compose)) expect(['name', 'services', 'volumes', 'networks', 'secrets', 'configs', 'include'].includes(key) || key.startsWith('x-'), key).toBe(true);
    for (const [name, service] of Object.entries(compose.services)) {
      expect(name).toMatch(/^[a-zA-Z0-9._-]+$/);
      for (const key of Object.keys(service)) expect(SERVICE_KEYS.has(key), `${name}.${key}`).toBe(true);
      expect(service.image ?? service.build, `${name} has an image or a build`).toBeTruthy();
      const deps = Array.isArray(service.depends_on) ? Object.fromEntries(service.depends_on.map((d) => [d, { condition: 'service_started' }])) : (service.depends_on ?? {});
      for (const [dep, { condition }] of Object.entries(deps)) {
        expect(compose.services[dep], `${name} depends on ${dep}`).toBeDefined();
        expect(['service_started', 'service_healthy', 'service_completed_successfully']).toContain(condition);
        if (condition === 'service_healthy') expect(compose.services[dep]?.healthcheck, `${dep} has a health check`).toBeDefined();
      }
      for (const v of (service.volumes as string[] | undefined) ?? []) {
        const source = v.split(':')[0] ?? '';
        if (source.startsWith('.')) expect(existsSync(path.join(ROOT, source)), v).toBe(true);
        else expect(compose.volumes[source], v).toBeDefined();
      }
      for (const p of (service.ports as string[] | undefined) ?? []) expect(p).toMatch(/^\d+:\d+$/);
      const hc = service.healthcheck as { test: string[] } | undefined;
      if (hc) expect(hc.test[0]).toBe('CMD');
    }
  });

  it('three instances on PostgreSQL and Redis behind the proxy, with a configuration the server accepts', () => {
    const instances = Object.keys(compose.services).filter((n) => /^iam-\d$/.test(n));
    expect(instances).toEqual(['iam-1', 'iam-2', 'iam-3']);
    const env = compose.services['iam-1']?.environment ?? {};
    for (const n of instances) expect(compose.services[n]).toEqual(compose.services['iam-1']);
    expect(compose.services['iam-1']?.read_only).toBe(true);
    expect(new URL(env.DATABASE_URL ?? '').hostname).toBe('postgres');
    expect(new URL(env.REDIS_URL ?? '').hostname).toBe('redis');
    expect(env.TRUST_PROXY).toBe('1');
    const published = (compose.services.proxy?.ports as string[])[0]?.split(':')[0];
    expect(new URL(env.APP_URL ?? '').port).toBe(published);
    // the server's own configuration check (exit 78 at start otherwise), with the key compose asks for
    const config = loadConfig({ ...env, IAM_ENCRYPTION_KEY: 'x'.repeat(32), IAM_DATA_DIR: os.tmpdir() });
    expect(config.trustProxy).toBe(1);
    // the proxy sends to exactly these instances, and only while they are ready
    const caddy = read('deploy/Caddyfile');
    expect(caddy).toMatch(new RegExp(`reverse_proxy ${instances.map((n) => `${n}:3000`).join(' ')} \\{`));
    expect(caddy).toMatch(/health_uri \/api\/health\/ready/);
    expect(caddy).toMatch(new RegExp(`^:${published} \\{`, 'm'));
  });
});

interface Instruction {
  op: string;
  args: string;
}
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('Dockerfile', () => {
  const all = instructions(read('Dockerfile'));
  const froms = all.map((x, i) => (x.op === 'FROM' ? i : -1)).filter((i) => i >= 0);
  const build = all.slice(froms[0], froms[1]);
  const runtime = all.slice(froms[1]);

  it('is multi-stage, runs as a non-root user, with a health check on /api/health/live', () => {
    expect(froms).toHaveLength(2);
    expect(all[froms[0] ?? 0]?.args).toMatch(/ AS build$/);
    expect(runtime.filter((x) => x.op === 'USER').map((x) => x.args)).toEqual(['node']);
    expect(runtime.find((x) => x.op === 'HEALTHCHECK')?.args).toContain('/api/health/live');
    // nothing of the build stage but its output: no sources, no dev dependencies (pruned)
    for (const c of runtime.filter((x) => x.op === 'COPY')) expect(c.args).toMatch(/^--from=build \/app\/(package\.json|node_modules|build|dist) /);
  });

  it('its build commands are npm ci, the npm scripts that exist, and a prune that keeps every package the compiled server imports', () => {
    const runs = build.filter((x) => x.op === 'RUN').map((x) => x.args);
    expect(runs).toEqual(['npm ci', 'npm run build', 'npm prune --omit=dev']);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.scripts.build).toContain('scripts/build-server.mjs');
    // every package the compiled server (this run's build, as `npm run build` makes it) imports is a production dependency
    const outDir = path.dirname(path.dirname(inject('serverEntry')));
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []));
    const imported = new Set<string>();
    for (const f of files(outDir)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'./][^"']*)["']/g)) {
        const spec = m[1] ?? '';
        if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
        imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec));
      }
    }
    expect(imported.size).toBeGreaterThan(10);
    const missing = [...imported].filter((p) => !pkg.dependencies[p]);
    expect(missing).toEqual([]);
  });

  it('its CMD with its ENV, from a directory laid out like the image, answers its HEALTHCHECK and stops at its STOPSIGNAL', { timeout: 120_000 }, async () => {
    const exec = (args: string) => JSON.parse(args.replace(/^CMD\s+/, '').replace(/^--\S+\s+/g, '')) as string[];
    const cmd = exec(runtime.find((x) => x.op === 'CMD')?.args ?? '[]');
    const health = exec((runtime.find((x) => x.op === 'HEALTHCHECK')?.args ?? '').replace(/^(--\S+\s+)+/, ''));
    const env: Record<string, string> = {};
    for (const e of runtime.filter((x) => x.op === 'ENV')) for (const m of e.args.matchAll(/(\w+)=(\S+)/g)) env[m[1] ?? ''] = m[2] ?? '';
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', IAM_DATA_DIR: '/data' });
    const stop = runtime.find((x) => x.op === 'STOPSIGNAL')?.args as NodeJS.Signals;
    expect(cmd[0]).toBe('node');
    expect(health[0]).toBe('node');

    // /app: package.json, node_modules, build (this run's compiled server), no dist (the API alone)
    const app = mkdtempSync(path.join(os.tmpdir(), 'ops-image-'));
    const data = path.join(app, 'data');
    mkdirSync(data);
    cpSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'));
    symlinkSync(path.dirname(path.dirname(inject('serverEntry'))), path.join(app, 'build'));
    const port = await freePort();
    const childEnv = { PATH: process.env.PATH, ...env, HOST: '127.0.0.1', PORT: String(port), IAM_DATA_DIR: data, APP_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'info' };
    const server = spawn(process.execPath, cmd.slice(1), { cwd: app, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stdout.on('data', (d: Buffer) => (out += d.toString()));
    server.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const until = Date.now() + 90_000;
      while (!out.includes('IAM is at')) {
        if (server.exitCode !== null || Date.now() > until) throw new Error(`server did not start:\n${out.slice(-3000)}`);
        await sleep(100);
      }
      const check = spawnSync(process.execPath, health.slice(1), { env: childEnv, encoding: 'utf8', timeout: 10_000 });
      expect(check.status).toBe(0);
      const exited = new Promise<number | null>((r) => server.once('exit', (code) => r(code)));
      server.kill(stop);
      expect(await exited).toBe(0);
      // its HEALTHCHECK fails once it is gone
      expect(spawnSync(process.execPath, health.slice(1), { env: childEnv, timeout: 10_000 }).status).toBe(1);
      // it wrote nothing but into IAM_DATA_DIR (the image's root file system is read-only)
      expect(readdirSync(app).sort()).toEqual(['build', 'data', 'node_modules', 'package.json']);
    } finally {
      if (server.exitCode === null) server.kill('SIGKILL');
      rmSync(app, { recursive: true, force: true });
    }
  });
});

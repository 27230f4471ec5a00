/**
 * The first start's one-time setup link is not lost (issue 29: after ~180 lines of build output and the start-up
 * logs, people missed it): it is printed framed when it is made, and once more as the last thing the server prints,
 * once it is listening. Runs the compiled server as `npm start` does, without IAM_ADMIN_EMAIL/PASSWORD.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setupBanner } from '../../../server/services/bootstrap';
import { startServerProcess, type ServerProcess } from '../../helpers/faults';

let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

describe('setup link at first start', () => {
  it('framed, alone on its line', () => {
    const link = 'http://localhost:3000/admin/setup?token=abc';
    const lines = setupBanner(link, true).split('\n');
    expect(lines).toContain(`  ${link}`);
    const rules = lines.filter((line) => /^=+$/.test(line));
    expect(rules).toHaveLength(2);
    expect(rules[0]!.length).toBeGreaterThanOrEqual(72);
  });

  it('printed when made and again, last, once the server listens; the link opens the setup', async () => {
    server = await startServerProcess({ NODE_ENV: 'production' }, { npmStartRuntime: true });
    const linkRe = /https?:\/\/\S+\/admin\/setup\?token=[A-Za-z0-9_-]+/g;
    await server.waitFor('the setup link twice', () => (server!.output().match(linkRe) ?? []).length >= 2, 60_000);
    // nothing after the second banner but its closing rule
    await server.waitForOutput(/IAM is listening\. No administrator yet\.[\s\S]*={72,}\n\n?$/, 10_000);
    const output = server.output();
    const links = output.match(linkRe)!;
    expect(new Set(links).size).toBe(1);
    const lastBanner = output.lastIndexOf('IAM is listening. No administrator yet.');
    expect(output.lastIndexOf('IAM is at')).toBeLessThan(lastBanner);
    const tail = output.slice(lastBanner).trim().split('\n');
    expect(tail.at(-1)).toMatch(/^={72,}$/);
    expect(tail).toContain(`  ${links[0]}`);
    const token = new URL(links[0]!).searchParams.get('token');
    expect((await fetch(`${server.base}/api/setup/${token}`)).status).toBe(200);
  });
});

/** A relying party run as a child process that prints "listening <url>" when ready (authlib, Go). */
import { spawn } from 'node:child_process';

export interface RpProcess {
  url: string;
  output(): string;
  close(): Promise<void>;
}

export async function startListeningProcess(label: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<RpProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start:\n${output}`)), 15_000);
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      const m = /listening (\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code}):\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

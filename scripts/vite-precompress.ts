import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text assets worth compressing; source maps are left as they are (only dev tools fetch them). */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|xml)$/i;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes `<file>.br` and `<file>.gz` next to every compressible file of `dir` (when smaller than the original). */
export async function precompressDir(dir: string): Promise<{ files: number; raw: number; gzip: number; brotli: number }> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  const totals = { files: 0, raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const raw = await readFile(file);
    if (raw.length < MIN_BYTES) continue;
    const [br, gzipped] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gz(raw, { level: 9 }),
    ]);
    // a copy at least as large as the original would only cost a request header
    if (br.length < raw.length) await writeFile(`${file}.br`, br);
    if (gzipped.length < raw.length) await writeFile(`${file}.gz`, gzipped);
    totals.files += 1;
    totals.raw += raw.length;
    totals.gzip += Math.min(gzipped.length, raw.length);
    totals.brotli += Math.min(br.length, raw.length);
  }
  return totals;
}

/** Vite build plugin: precompresses the output directory once the bundle is written (brotli and gzip). */
export function precompress(): Plugin {
  let outDir = 'dist';
  let log: (message: string) => void = console.log;
  return {
    name: 'iam:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      log = (message) => config.logger.info(message);
    },
    async closeBundle() {
      const t = await precompressDir(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      log(`precompressed ${t.files} files: ${kb(t.raw)} → gzip ${kb(t.gzip)}, brotli ${kb(t.brotli)}`);
    },
  };
}

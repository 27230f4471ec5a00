/** Types of scripts/build-server.mjs (a plain script: `npm run build:server`, `npm start`, tests/global-setup.ts). */
export declare const defaultOutdir: string;
/** True when `outdir` (default build/) holds no complete build of today's sources, or one changed after it. */
export declare function isStale(outdir?: string): boolean;
/** The compiled server's entry in `outdir` (default build/): `<outdir>/server/main.js`. */
export declare function serverEntry(outdir?: string): string;
/** The entry of an up-to-date build in `outdir` (default build/), compiled first when it is stale. */
export declare function ensureServerBuilt(outdir?: string): Promise<string>;
/** Compiles server/ and contract/ into `outdir` (default build/); resolves to `<outdir>/server/main.js`. */
export declare function buildServer(outdir?: string): Promise<string>;

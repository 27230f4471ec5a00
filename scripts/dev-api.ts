/**
 * `npm run dev:api`: the server for `npm run dev`, in development mode. The Vite dev server (IAM_DEV_PORT,
 * default 5173) proxies /api and /oidc here (IAM_DEV_BACKEND, default http://127.0.0.1:3000); this server
 * accepts the Vite origin for sign-in (IAM_DEV_ORIGINS, NODE_ENV=development only: server/config.ts) and
 * restarts on changes (tsx watch). Its data (SQLite, outbox) lives in data/dev (IAM_DATA_DIR), apart from the
 * ./data of `npm start`, so development never touches that database. Anything set in the environment wins.
 */
const devPort = process.env.IAM_DEV_PORT ?? '5173';
process.env.NODE_ENV ??= 'development';
process.env.IAM_DATA_DIR ??= 'data/dev';
process.env.IAM_DEV_ORIGINS ??= `http://localhost:${devPort},http://127.0.0.1:${devPort}`;

export {};

await import('../server/main');

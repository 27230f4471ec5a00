# syntax=docker/dockerfile:1
# IAM image: build stage (npm ci, build, prune to production dependencies) and a runtime stage that runs the compiled
# server as the only process, as the non-root `node` user, from a root file system it never writes to (run it with
# --read-only; state is in PostgreSQL, or SQLite under /data). docs/OPERATIONS.md "Container, systemd and compose".
#   docker build -t iam .
#   docker run --read-only --tmpfs /tmp -v iam-data:/data -p 3000:3000 -e APP_URL=http://localhost:3000 iam
# tests/server/ops/deploy-files.test.ts runs this file's build commands' checks, its CMD, ENV and HEALTHCHECK.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
ENV npm_config_fund=false npm_config_audit=false PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY . .
RUN npm ci
RUN npm run build
RUN npm prune --omit=dev

FROM node:${NODE_VERSION}-bookworm-slim
WORKDIR /app
# the settings npm start gives the server (scripts/server-runtime.mjs); UV_THREADPOOL_SIZE = IAM_HASH_CONCURRENCY + 4
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 IAM_DATA_DIR=/data \
    UV_THREADPOOL_SIZE=6 MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 GLIBC_TUNABLES=glibc.malloc.hugetlb=1
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=1", "--max-old-space-size=1024", "--enable-source-maps", "build/server/main.js"]

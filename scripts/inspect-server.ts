/**
 * `npm run inspect:server`: the local Stately inspector server (@statelyai/inspect/server). Open the dev app with
 * `?inspect=ws`: its machines send their events here over a WebSocket (ws://localhost:8080, or IAM_INSPECT_PORT), and
 * the page this server serves shows them. No pop-up, no window opened by the app.
 */
import { createInspectorServer } from '@statelyai/inspect/server';

const port = Number(process.env.IAM_INSPECT_PORT || 8080);
const server = createInspectorServer({ port, autoOpen: false });
console.log(`Stately inspector server on http://localhost:${port} (WebSocket ws://localhost:${port}).`);
console.log(`Open the dev app with ?inspect=ws${port === 8080 ? '' : ` and VITE_INSPECT_WS_URL=ws://localhost:${port}`}, then this page.`);
const stop = () => {
  server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

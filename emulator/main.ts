// `npm run emulator -- --port N --dir DIR`: the provider's QR partner API on 127.0.0.1 for trying live
// mode (docs/provider-qrapi.md). Prints one line of JSON on stdout when ready (a driver waits for it);
// its certificates stay in DIR and are reused by the next start.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from './server.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8543' }, dir: { type: 'string', default: './emulator-data' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`--port must be a port number, not ${values.port}\n`);
  process.exit(2);
}
const e = await startEmulator({ port, dir: values.dir! });
process.stdout.write(`${JSON.stringify({ ready: true, url: e.url, ca: e.ca, client_pfx: e.clientPfx, client_password: e.clientPassword, api_key: e.apiKey })}\n`);
process.stderr.write(
  `qrapi emulator on ${e.url}\n  QRAPI_BASE_URL=${e.url} QRAPI_CA_FILE=${e.ca} PROVIDER_DRIVER=qrapi npm start\n` +
  `  client certificate: ${e.clientPfx} (password in ${path.dirname(e.clientPfx)}/client.password); r1 key in api-key.txt\n`,
);
const stop = () => void e.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

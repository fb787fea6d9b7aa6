// `npm run emulator -- --port N --dir DIR [--date-style doc|offset|local|vary] [--utc-offset 5]
// [--host 0.0.0.0 --hostname NAME]` (a container: listen on every address, NAME in the certificate): the
// provider's QR partner API on 127.0.0.1 for trying live mode (docs/provider-qrapi.md). Prints one line
// of JSON on stdout when ready (a driver waits for it); its certificates stay in DIR and are reused by the
// next start.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DATE_STYLES, validUtcOffset, type DateStyle } from './dates.ts';
import { startEmulator } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8543' },
    host: { type: 'string', default: '127.0.0.1' },
    hostname: { type: 'string', multiple: true, default: [] },
    dir: { type: 'string', default: './emulator-data' },
    'date-style': { type: 'string', default: 'offset' },
    'utc-offset': { type: 'string', default: '5' },
  },
});
function usage(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) usage(`--port must be a port number, not ${values.port}`);
const dateStyle = values['date-style'] as DateStyle;
if (!DATE_STYLES.includes(dateStyle)) usage(`--date-style must be one of ${DATE_STYLES.join(', ')}, not ${dateStyle}`);
const utcOffsetHours = Number(values['utc-offset']);
if (!validUtcOffset(utcOffsetHours))
  usage(`--utc-offset must be hours from UTC (whole minutes, -12 to 14), not ${values['utc-offset']}`);
const e = await startEmulator({
  port,
  host: values.host,
  hostnames: values.hostname,
  dir: values.dir!,
  dateStyle,
  utcOffsetHours,
});
const ready = {
  ready: true,
  url: e.url,
  ca: e.ca,
  client_pfx: e.clientPfx,
  client_password: e.clientPassword,
  api_key: e.apiKey,
};
process.stdout.write(`${JSON.stringify(ready)}\n`);
process.stderr.write(
  `qrapi emulator on ${e.url}\n  QRAPI_BASE_URL=${e.url} QRAPI_CA_FILE=${e.ca} PROVIDER_DRIVER=qrapi npm start\n` +
    `  client certificate: ${e.clientPfx} (password in ${path.dirname(e.clientPfx)}/client.password); ` +
    'r1 key in api-key.txt\n',
);
const stop = () => void e.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// `npm run fiscal-emulator -- --port N --dir DIR [--host 0.0.0.0 --hostname NAME]`: Webkassa API v4 and
// reKassa on one HTTPS port for trying the fiscal drivers (docs/fiscal-emulator.md). Prints one line of
// JSON on stdout when ready; its CA and keys stay in DIR and are reused by the next start.
import { parseArgs } from 'node:util';
import { startFiscalEmulator } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8544' },
    host: { type: 'string', default: '127.0.0.1' },
    hostname: { type: 'string', multiple: true, default: [] },
    dir: { type: 'string', default: './fiscal-emulator-data' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`--port must be a port number, not ${values.port}\n`);
  process.exit(2);
}
const e = await startFiscalEmulator({ port, host: values.host, hostnames: values.hostname, dir: values.dir! });
// The seeded register's reKassa login may change with a reset; the control API's GET registers has it.
const ready = {
  ready: true,
  url: e.url,
  ca: e.ca,
  control_token: e.controlToken,
  webkassa: {
    api_key: e.webkassa.apiKey,
    login: e.webkassa.login,
    password: e.webkassa.password,
    cashbox: e.webkassa.cashbox,
  },
  rekassa: {
    api_key: e.rekassa.apiKey,
    id: e.rekassa.id,
    number: e.rekassa.number,
    password: e.rekassa.password,
    pin: e.rekassa.pin,
  },
};
process.stdout.write(`${JSON.stringify(ready)}\n`);
process.stderr.write(`fiscal emulator on ${e.url} (CA ${e.ca})\n`);
const stop = () => void e.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

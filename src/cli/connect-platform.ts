// `node dist/main.js admin connect-platform`: connects the platform client's live provider account, which
// takes the plan payments (decisions 20). With the qrapi driver: the operator's credentials (a PFX and its
// password, or an r1 key), the BIN, and a trade point (listed when not given). With the sandbox or gateway
// driver the account is made at start; the command only says so.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Deps } from '../deps.ts';
import type { QrapiCredentials } from '../providers/qrapi/connection.ts';
import { qrapiConnect, qrapiTradePoints } from '../domain/payments/qrapi-connect.ts';
import { ensurePlatformAccount, platformClientId } from '../domain/subscriptions/subscriptions.ts';
import { setDefault } from '../domain/payments/provider-account-settings.ts';

export const USAGE =
  'admin connect-platform --bin <BIN> (--pfx <file.p12> --password <password> [--scheme r2|r3] | --api-key <key>)' +
  ' [--trade-point <id>] [--name <display name>]';

export async function connectPlatform(deps: Deps, argv: string[]): Promise<{ message: string; exitCode: number }> {
  const { values } = parseArgs({
    args: argv,
    options: {
      bin: { type: 'string' },
      pfx: { type: 'string' },
      password: { type: 'string' },
      scheme: { type: 'string' },
      'api-key': { type: 'string' },
      'trade-point': { type: 'string' },
      name: { type: 'string' },
    },
  });
  const platform = await platformClientId(deps.db);
  if (deps.config.providerDriver !== 'qrapi') {
    await ensurePlatformAccount(deps);
    return {
      message:
        `PROVIDER_DRIVER=${deps.config.providerDriver}: ` +
        `the platform client (id ${platform}) has its live account; nothing to connect`,
      exitCode: 0,
    };
  }
  if (!values.bin) return { message: `--bin is required\nusage: ${USAGE}`, exitCode: 2 };
  let credentials: QrapiCredentials;
  if (values['api-key']) credentials = { scheme: 'r1', apiKey: values['api-key'] };
  else if (values.pfx) {
    const scheme = (values.scheme ?? 'r3') as 'r2' | 'r3';
    if (!['r2', 'r3'].includes(scheme)) return { message: '--scheme is r2 or r3 with a certificate', exitCode: 2 };
    credentials = { scheme, pfx: readFileSync(values.pfx), password: values.password ?? '' };
  } else return { message: `--pfx or --api-key is required\nusage: ${USAGE}`, exitCode: 2 };
  const orgBin = credentials.scheme === 'r3' ? values.bin : null;
  if (!values['trade-point']) {
    const points = await qrapiTradePoints(deps, { credentials, orgBin });
    return {
      message: `choose a trade point with --trade-point:\n${points.map((p) => `  ${p.id}  ${p.name}`).join('\n')}`,
      exitCode: 2,
    };
  }
  const providerAccountId = await qrapiConnect(deps, platform, {
    credentials,
    orgBin,
    tradePointId: Number(values['trade-point']),
    displayName: values.name ?? 'Platform',
  });
  // The newest connection takes the plan payments.
  await setDefault(deps, platform, providerAccountId);
  return {
    message: `connected: the platform client's live account ${providerAccountId} (default) takes the plan payments`,
    exitCode: 0,
  };
}

#!/usr/bin/env node
// tolem: the Tolem command line. Every command takes --json (machine-readable output) and --api-url
// (else TOLEM_API_URL, else the signed-in server, else http://localhost:8080); test mode unless --live.
import { Command, Option } from 'commander';
import { createInterface } from 'node:readline/promises';
import { client, apiUrl, login } from './session.js';
import { fail, output, table, tenge } from './output.js';
import { listen } from './listen.js';
import { trigger, TRIGGERS } from './trigger.js';
import { writeConfig, readConfig } from './config.js';

const program = new Command('tolem')
  .description('Tolem from a terminal: payments, links, webhooks, and test webhooks on your own machine')
  .version('0.1.0')
  .addOption(new Option('--api-url <url>', 'the Tolem server').env('TOLEM_API_URL'))
  .option('--json', 'print JSON (one object per line) instead of text', false)
  .option('--live', 'live mode (default: test mode)', false)
  .showHelpAfterError();

const g = () => program.opts<{ apiUrl?: string; json: boolean; live: boolean }>();
const mode = () => (g().live ? 'live' : 'test') as 'live' | 'test';
/** Runs a command's body with the shared options; any failure is printed with its request id. */
const run =
  <A extends unknown[]>(fn: (...args: A) => Promise<void>) =>
  async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      fail(err, g().json);
    }
  };

/** The first line of standard input, without a prompt or an echo. */
async function firstLine(): Promise<string> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line.trim();
  }
  return '';
}

async function ask(question: string, hidden = false): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  if (hidden && process.stdin.isTTY)
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  const answer = await rl.question(question);
  rl.close();
  if (hidden) process.stderr.write('\n');
  return answer.trim();
}

program
  .command('login')
  .description('sign in; keeps a refresh token in your config folder (0600)')
  .option('--email <email>', 'your e-mail (else asked)')
  .option('--password-stdin', 'read the password from standard input (else asked, or TOLEM_PASSWORD)')
  .action(
    run(async (o: { email?: string; passwordStdin?: boolean }) => {
      const url = apiUrl(g().apiUrl);
      const email = o.email ?? (await ask('E-mail: '));
      // --password-stdin reads the first line of standard input, with no prompt: a pipe has no one to ask.
      const password =
        process.env.TOLEM_PASSWORD ?? (o.passwordStdin ? await firstLine() : await ask('Password: ', true));
      await login(url, email, password);
      output(g().json).result({ signed_in: true, email, api_url: url }, () => `Signed in to ${url} as ${email}`);
    }),
  );

program
  .command('logout')
  .description('forget the stored session')
  .action(
    run(async () => {
      const s = readConfig();
      if (s) writeConfig({ api_url: s.api_url });
      output(g().json).result({ signed_out: true }, () => 'Signed out');
    }),
  );

program
  .command('listen')
  .description('forward test-mode events to a local URL, signed like webhooks with a printed secret')
  .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks')
  .option('--events <types>', 'only these event types, comma-separated (e.g. payment.completed,payment.refunded)')
  .option('--secret <whsec>', 'sign with this secret instead of a new one')
  .option('--max <n>', 'stop after n events', (v) => Number(v))
  .action(
    run(async (o: { forwardTo: string; events?: string; secret?: string; max?: number }) => {
      await listen(client(g().apiUrl), output(g().json), {
        forwardTo: o.forwardTo,
        events: o.events?.split(',').filter(Boolean),
        secret: o.secret,
        max: o.max,
      });
    }),
  );

program
  .command('trigger')
  .description(`make a test-mode event happen: ${TRIGGERS.join(', ')}`)
  .argument('<event>', 'the event type')
  .option('--amount <tenge>', "the payment's amount", (v) => Number(v), 5000)
  .action(
    run(async (event: string, o: { amount: number }) => {
      const out = output(g().json);
      const op = await trigger(client(g().apiUrl), out, event, o.amount);
      out.result(
        { triggered: event, operation_id: op.operation_id, status: op.status },
        () => `${event}: ${op.operation_id} is ${op.status}`,
      );
    }),
  );

const payments = program.command('payments').description('payments of the mode');
payments
  .command('list')
  .description('the latest payments')
  .option('--status <status>')
  .option('--limit <n>', 'at most n (1-100)', (v) => Number(v), 20)
  .action(
    run(async (o: { status?: string; limit: number }) => {
      const { data } = await client(g().apiUrl).GET('/me/payments', {
        params: { query: { mode: mode(), limit: o.limit, ...(o.status ? { status: o.status as never } : {}) } },
      });
      output(g().json).result(data, () =>
        table(
          data!.data.map((p) => ({ ...p, amount: tenge(p.amount) })),
          ['operation_id', 'status', 'amount', 'created_at'],
        ),
      );
    }),
  );
payments
  .command('get')
  .description('one payment')
  .argument('<operation_id>')
  .action(
    run(async (op: string) => {
      const { data } = await client(g().apiUrl).GET('/me/payments/status/{op_id}', {
        params: { path: { op_id: op }, query: { mode: mode() } },
      });
      output(g().json).result(
        data,
        () =>
          `${data!.operation_id}  ${data!.status}  ${tenge(data!.amount)}  refunded ${tenge(data!.refunded_amount)}`,
      );
    }),
  );
payments
  .command('create-qr')
  .description('a QR for the customer to pay')
  .requiredOption('--amount <tenge>', 'integer tenge', (v) => Number(v))
  .option('--comment <text>')
  .action(
    run(async (o: { amount: number; comment?: string }) => {
      const { data } = await client(g().apiUrl).POST('/me/payments/create-qr', {
        params: { query: { mode: mode() } },
        body: { amount: o.amount, ...(o.comment ? { description: o.comment } : {}) },
      });
      output(g().json).result(
        data,
        () => `${data!.operation_id}  ${data!.status}\n${data!.deep_link ?? data!.qr_token ?? ''}`,
      );
    }),
  );
payments
  .command('refund')
  .description('refund all or part of a payment')
  .argument('<operation_id>')
  .option('--amount <tenge>', 'part of it (default: all that is left)', (v) => Number(v))
  .action(
    run(async (op: string, o: { amount?: number }) => {
      const api = client(g().apiUrl);
      const amount =
        o.amount ??
        (await (async () => {
          const { data } = await api.GET('/me/payments/status/{op_id}', {
            params: { path: { op_id: op }, query: { mode: mode() } },
          });
          return data!.amount - data!.refunded_amount;
        })());
      const { data } = await api.POST('/me/payments/{op_id}/refund', {
        params: { path: { op_id: op }, query: { mode: mode() } },
        body: { amount },
      });
      output(g().json).result(data, () => `refunded ${tenge(amount)} of ${op}`);
    }),
  );

program
  .command('links')
  .description('payment links')
  .command('create')
  .description('a payment link (the hosted checkout page)')
  .requiredOption('--amount <tenge>', 'integer tenge', (v) => Number(v))
  .requiredOption('--description <text>')
  .option('--expires-in <minutes>', 'how long it lives', (v) => Number(v))
  .action(
    run(async (o: { amount: number; description: string; expiresIn?: number }) => {
      const { data } = await client(g().apiUrl).POST('/v2/payment-links', {
        params: { query: { mode: mode() } },
        body: {
          amount: o.amount,
          description: o.description,
          ...(o.expiresIn ? { expires_in_minutes: o.expiresIn } : {}),
        },
      });
      output(g().json).result(data, () => `${data!.url}  ${tenge(data!.amount)}  ${data!.status}`);
    }),
  );

const webhooks = program.command('webhooks').description('webhooks of the mode');
webhooks
  .command('list')
  .description('the webhooks of the mode')
  .action(
    run(async () => {
      const { data } = await client(g().apiUrl).GET('/me/webhooks', { params: { query: { mode: mode() } } });
      output(g().json).result(data, () =>
        table(
          data!.data.map((w) => ({ ...w, events: w.events.join(',') })),
          ['id', 'url', 'events', 'is_active', 'last_delivery_status'],
        ),
      );
    }),
  );
webhooks
  .command('test')
  .description('send a webhook.test event now')
  .argument('<id>')
  .action(
    run(async (id: string) => {
      const { data } = await client(g().apiUrl).POST('/me/webhooks/{id}/test', {
        params: { path: { id }, query: { mode: mode() } },
        body: {},
      });
      output(g().json).result(
        data,
        () => `HTTP ${data!.status_code} in ${data!.duration_ms} ms${data!.error ? ` (${data!.error})` : ''}`,
      );
    }),
  );

// `tolem --help` lists every command, subcommands included.
program.addHelpText('after', () => {
  const lines: string[] = [];
  const walk = (c: Command, prefix: string) => {
    for (const sub of c.commands) {
      if (sub.name() === 'help') continue;
      const usage = `${prefix}${sub.name()} ${sub.usage()}`.replace(/\s*\[options\]/, '').trim();
      if (!sub.commands.length) lines.push(`  ${usage.padEnd(44)} ${sub.description()}`);
      walk(sub, `${prefix}${sub.name()} `);
    }
  };
  walk(program, 'tolem ');
  return `\nAll commands:\n${lines.join('\n')}\n`;
});

await program.parseAsync();

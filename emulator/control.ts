// The control API under /__emulator/ (no client certificate needed): what tests and a person trying live
// mode use to reset the emulator, move its clock, inject faults and look at what it holds.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseFaults } from './faults.ts';
import type { EmulatorState } from './state.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function control(s: EmulatorState, req: IncomingMessage, res: ServerResponse, path: string, text: string): void {
  let body: Record<string, unknown> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    return sendJson(res, 400, { error: 'the body is not JSON' });
  }
  const call = `${req.method} ${path}`;
  if (call === 'POST reset') {
    s.reset();
    return sendJson(res, 200, { ok: true });
  }
  if (call === 'POST clock/advance') {
    const seconds = Number(body.seconds ?? 0);
    if (!Number.isFinite(seconds)) return sendJson(res, 400, { error: 'seconds must be a number' });
    s.offsetMs += seconds * 1000;
    return sendJson(res, 200, { ok: true, now: new Date(s.now()).toISOString() });
  }
  if (call === 'POST faults') {
    const faults = parseFaults(body.faults ?? []);
    if (typeof faults === 'string') return sendJson(res, 400, { error: faults });
    s.faults = faults;
    s.flapHits = 0;
    return sendJson(res, 200, { ok: true, faults: faults.length });
  }
  if (call === 'POST timing') {
    s.timing = { ...s.timing, ...(body as Partial<typeof s.timing>) };
    return sendJson(res, 200, { ok: true, timing: s.timing });
  }
  if (call === 'GET state') return sendJson(res, 200, s.view());
  if (call === 'GET calls') return sendJson(res, 200, { calls: Object.fromEntries(s.calls) });
  return sendJson(res, 404, { error: 'no such control call' });
}

// The control API under /__emulator/ (no client certificate needed): what tests and a person trying live
// mode use to reset the emulator, move its clock, inject faults, choose how it writes dates and codes, put
// trade points in a refusing state, restrict r3 by source address, and look at what it holds.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseAllowlist } from './allowlist.ts';
import { DATE_STYLES, validUtcOffset, type DateStyle } from './dates.ts';
import { CODE_SIGNS, type CodeSign } from './envelope.ts';
import { parseFaults } from './faults.ts';
import { DEFAULT_BIN, TRADE_POINT_STATES, TRADE_POINTS, validBin, type TradePointState } from './organizations.ts';
import type { EmulatorState } from './state.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

type Answer = [status: number, body: unknown];
const bad = (error: string): Answer => [400, { error }];

/** POST date-style {style: doc|offset|local|vary, utc_offset_hours?}: how the following answers write dates. */
function dateStyle(s: EmulatorState, body: Record<string, unknown>): Answer {
  if (!DATE_STYLES.includes(body.style as DateStyle)) return bad(`style must be one of ${DATE_STYLES.join(', ')}`);
  const offset = body.utc_offset_hours ?? s.utcOffsetHours;
  if (!validUtcOffset(offset))
    return bad('utc_offset_hours must be a whole number of minutes between -12 and 14 hours');
  s.dateStyle = body.style as DateStyle;
  s.utcOffsetHours = offset;
  s.varyHits = 0;
  return [200, { ok: true, style: s.dateStyle, utc_offset_hours: s.utcOffsetHours }];
}

/**
 * POST trade-point {bin?, trade_point_id, state: ok|disabled|no_qr|no_methods}; bin defaults to r1's and r2's
 * organization.
 */
function tradePoint(s: EmulatorState, body: Record<string, unknown>): Answer {
  const bin = String(body.bin ?? DEFAULT_BIN);
  const id = Number(body.trade_point_id);
  if (!validBin(bin)) return bad('bin must be a BIN with a valid check digit');
  if (!TRADE_POINTS.some((t) => t.TradePointId === id))
    return bad(`trade_point_id must be one of ${TRADE_POINTS.map((t) => t.TradePointId).join(', ')}`);
  if (!TRADE_POINT_STATES.includes(body.state as TradePointState))
    return bad(`state must be one of ${TRADE_POINT_STATES.join(', ')}`);
  if (body.state === 'ok') s.tradePoints.delete(`${bin}/${id}`);
  else s.tradePoints.set(`${bin}/${id}`, body.state as TradePointState);
  return [200, { ok: true, trade_points: Object.fromEntries(s.tradePoints) }];
}

/** What the server does beside the state when a setting changes. */
export interface ControlHooks {
  /** a new allow-list: connections kept open from before are closed, so the next call meets it at its handshake */
  allowlistChanged(): void;
}

function answer(s: EmulatorState, call: string, body: Record<string, unknown>, hooks: ControlHooks): Answer {
  switch (call) {
    case 'POST reset':
      s.reset();
      return [200, { ok: true }];
    case 'POST clock/advance': {
      const seconds = Number(body.seconds ?? 0);
      if (!Number.isFinite(seconds)) return bad('seconds must be a number');
      s.offsetMs += seconds * 1000;
      return [200, { ok: true, now: new Date(s.now()).toISOString() }];
    }
    case 'POST faults': {
      const faults = parseFaults(body.faults ?? []);
      if (typeof faults === 'string') return bad(faults);
      s.faults = faults;
      s.flapHits = 0;
      return [200, { ok: true, faults: faults.length }];
    }
    case 'POST timing':
      s.timing = { ...s.timing, ...(body as Partial<typeof s.timing>) };
      return [200, { ok: true, timing: s.timing }];
    case 'POST date-style':
      return dateStyle(s, body);
    case 'POST code-sign':
      if (!CODE_SIGNS.includes(body.sign as CodeSign)) return bad(`sign must be one of ${CODE_SIGNS.join(', ')}`);
      s.codeSign = body.sign as CodeSign;
      return [200, { ok: true, sign: s.codeSign }];
    case 'POST trade-point':
      return tradePoint(s, body);
    case 'POST allowlist': {
      const list = parseAllowlist(body);
      if (typeof list === 'string') return bad(list);
      s.allowlist = list;
      hooks.allowlistChanged();
      return [200, { ok: true, allowlist: list }];
    }
    case 'GET state':
      return [200, s.view()];
    case 'GET calls':
      return [200, { calls: Object.fromEntries(s.calls) }];
    default:
      return [404, { error: 'no such control call' }];
  }
}

export function control(
  s: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  text: string,
  hooks: ControlHooks,
): void {
  let body: Record<string, unknown> = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    return sendJson(res, 400, { error: 'the body is not JSON' });
  }
  sendJson(res, ...answer(s, `${req.method} ${path}`, body ?? {}, hooks));
}

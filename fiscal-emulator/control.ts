// The control API under /__fiscal/ (docs/fiscal-emulator.md), for tests and the benchmark: registers and
// users, status and OFD switches, the clock, settings, faults, what was issued and called, and reset.
// Every call needs the header `x-control-token` with the token of the ready line.
import { webkassaDate } from './dates.ts';
import { parseFaults } from './faults.ts';
import { isObj, type Obj } from './jsonc.ts';
import { OFDS } from './ofds.ts';
import {
  CONCURRENCY,
  REGISTER_STATUSES,
  type Concurrency,
  type FiscalState,
  type NewRegister,
  type Register,
  type RegisterStatus,
} from './state.ts';

type Answer = [status: number, body: unknown];
const bad = (error: string): Answer => [400, { error }];

export function registerView(r: Register) {
  return {
    id: r.id,
    unique_number: r.uniqueNumber,
    registration_number: r.registrationNumber,
    identity_number: r.identityNumber,
    name: r.name,
    status: r.status,
    ofd: { code: r.ofd.code, host: r.ofd.host },
    protocol: r.protocol,
    strict_catalog: r.strictCatalog,
    concurrency: r.concurrency,
    cash: r.cashTiyn / 100,
    offline_since: r.offlineSince === null ? null : new Date(r.offlineSince).toISOString(),
    shift: r.shift && {
      number: r.shift.number,
      opened_at: new Date(r.shift.openedAt).toISOString(),
      documents: r.shift.documents,
      offline_documents: r.shift.offlineDocuments,
    },
    shifts: r.shifts.length,
    receipts: r.receipts.size,
    rekassa: r.rekassa,
  };
}

function newRegister(s: FiscalState, b: Obj): Answer {
  if (b.unique_number !== undefined && typeof b.unique_number !== 'string') return bad('unique_number must be text');
  if (typeof b.unique_number === 'string' && s.registers.has(b.unique_number))
    return [409, { error: `register ${b.unique_number} exists` }];
  if (b.status !== undefined && !REGISTER_STATUSES.includes(b.status as RegisterStatus))
    return bad(`status must be one of ${REGISTER_STATUSES.join(', ')}`);
  if (b.ofd_code !== undefined && !OFDS[b.ofd_code as number]) return bad('ofd_code must be 1 to 5');
  if (b.protocol !== undefined && b.protocol !== '2.0.3' && b.protocol !== '2.0.4')
    return bad('protocol must be 2.0.3 or 2.0.4');
  if (b.concurrency !== undefined && !CONCURRENCY.includes(b.concurrency as Concurrency))
    return bad(`concurrency must be one of ${CONCURRENCY.join(', ')}`);
  const r = s.addRegister(b as NewRegister);
  // The register is usable at once by every user who may use all registers.
  return [201, registerView(r)];
}

function patchRegister(r: Register, b: Obj): Answer {
  if (b.status !== undefined) {
    if (!REGISTER_STATUSES.includes(b.status as RegisterStatus))
      return bad(`status must be one of ${REGISTER_STATUSES.join(', ')}`);
    r.status = b.status as RegisterStatus;
  }
  if (b.protocol !== undefined) {
    if (b.protocol !== '2.0.3' && b.protocol !== '2.0.4') return bad('protocol must be 2.0.3 or 2.0.4');
    r.protocol = b.protocol;
  }
  if (b.strict_catalog !== undefined) r.strictCatalog = b.strict_catalog === true;
  if (b.concurrency !== undefined) {
    if (!CONCURRENCY.includes(b.concurrency as Concurrency))
      return bad(`concurrency must be one of ${CONCURRENCY.join(', ')}`);
    r.concurrency = b.concurrency as Concurrency;
  }
  if (b.cash !== undefined) {
    if (typeof b.cash !== 'number' || b.cash < 0) return bad('cash must be tenge ≥ 0');
    r.cashTiyn = Math.round(b.cash * 100);
  }
  return [200, registerView(r)];
}

/** POST registers/{n}/ofd {online: false, hours_ago?}: offline since now (or hours ago); online: reconnect. */
function ofd(s: FiscalState, r: Register, b: Obj): Answer {
  if (typeof b.online !== 'boolean') return bad('online must be true or false');
  const hoursAgo = Number(b.hours_ago ?? 0);
  if (!Number.isFinite(hoursAgo) || hoursAgo < 0) return bad('hours_ago must be hours ≥ 0');
  r.offlineSince = b.online ? null : s.now() - hoursAgo * 3600_000;
  return [200, registerView(r)];
}

/** POST registers/{n}/shift-age {hours}: the open shift opened that many hours earlier than it did. */
function shiftAge(r: Register, b: Obj): Answer {
  const hours = Number(b.hours);
  if (!Number.isFinite(hours)) return bad('hours must be a number');
  if (!r.shift) return [409, { error: 'the register has no open shift' }];
  r.shift.openedAt -= hours * 3600_000;
  return [200, registerView(r)];
}

function settings(s: FiscalState, b: Obj): Answer {
  const next = { ...s.settings };
  if (b.token_ttl_seconds !== undefined) {
    if (typeof b.token_ttl_seconds !== 'number' || b.token_ttl_seconds <= 0) return bad('token_ttl_seconds > 0');
    next.tokenTtlSeconds = b.token_ttl_seconds;
  }
  if (b.duplicate_mode !== undefined) {
    if (b.duplicate_mode !== 'error' && b.duplicate_mode !== 'error_with_data')
      return bad('duplicate_mode must be error or error_with_data');
    next.duplicateMode = b.duplicate_mode;
  }
  if (b.rekassa_request_id_dedup !== undefined) next.rekassaRequestIdDedup = b.rekassa_request_id_dedup === true;
  if (b.latency_ms !== undefined) {
    if (typeof b.latency_ms !== 'number' || b.latency_ms < 0) return bad('latency_ms must be ≥ 0');
    next.latencyMs = b.latency_ms;
  }
  if (b.one_at_a_time !== undefined) next.oneAtATime = b.one_at_a_time === true;
  s.settings = next;
  return [200, { settings: s.settings }];
}

function receipts(s: FiscalState, q: URLSearchParams): Answer {
  const only = q.get('register');
  const list = [...s.registers.values()]
    .filter((r) => only === null || r.uniqueNumber === only)
    .flatMap((r) =>
      [...r.receipts.values()].map((rc) => ({
        register: r.uniqueNumber,
        external_id: rc.externalId,
        ticket_id: rc.ticketId,
        fiscal_sign: rc.fiscalSign,
        kind: rc.kind,
        total: rc.totalTiyn / 100,
        returned: rc.returnedTiyn / 100,
        offline: rc.offline,
        shift_number: rc.shiftNumber,
        order_number: rc.orderNumber,
        surface: rc.surface,
        date_time: webkassaDate(rc.at),
      })),
    );
  return [200, { receipts: list }];
}

function answer(s: FiscalState, method: string, path: string, q: URLSearchParams, b: Obj): Answer {
  const m = /^registers\/([^/]+)(?:\/(ofd|shift-age))?$/.exec(path);
  if (m) {
    const r = s.registers.get(decodeURIComponent(m[1]));
    if (!r) return [404, { error: 'no such register' }];
    if (method === 'GET' && !m[2]) return [200, registerView(r)];
    if (method === 'PATCH' && !m[2]) return patchRegister(r, b);
    if (method === 'POST' && m[2] === 'ofd') return ofd(s, r, b);
    if (method === 'POST' && m[2] === 'shift-age') return shiftAge(r, b);
    return [405, { error: 'method not allowed' }];
  }
  switch (`${method} ${path}`) {
    case 'POST reset':
      s.reset();
      return [200, { ok: true }];
    case 'GET state':
      return [
        200,
        {
          now: new Date(s.now()).toISOString(),
          settings: s.settings,
          registers: [...s.registers.values()].map(registerView),
          users: [...s.users.values()].map((u) => ({ login: u.login, registers: u.registers })),
          faults: s.faults,
        },
      ];
    case 'GET registers':
      return [200, { registers: [...s.registers.values()].map(registerView) }];
    case 'POST registers':
      return newRegister(s, b);
    case 'POST users': {
      if (typeof b.login !== 'string' || typeof b.password !== 'string') return bad('login and password are text');
      const regs = b.registers ?? ['*'];
      if (!Array.isArray(regs) || !regs.every((x) => typeof x === 'string'))
        return bad('registers is a list of unique numbers, or ["*"]');
      s.users.set(b.login, { login: b.login, password: b.password, name: String(b.name ?? b.login), registers: regs });
      return [201, { login: b.login, registers: regs }];
    }
    case 'POST tokens/expire': {
      const surface = b.surface;
      if (surface !== undefined && surface !== 'webkassa' && surface !== 'rekassa')
        return bad('surface must be webkassa or rekassa');
      return [200, { expired: s.expireTokens(surface) }];
    }
    case 'POST clock/advance': {
      const seconds = Number(b.seconds);
      if (!Number.isFinite(seconds)) return bad('seconds must be a number');
      s.offsetMs += seconds * 1000;
      return [200, { now: new Date(s.now()).toISOString() }];
    }
    case 'GET settings':
      return [200, { settings: s.settings }];
    case 'POST settings':
      return settings(s, b);
    case 'GET faults':
      return [200, { faults: s.faults }];
    case 'POST faults': {
      const faults = parseFaults(b.faults ?? []);
      if (typeof faults === 'string') return bad(faults);
      s.faults = faults;
      return [200, { faults }];
    }
    case 'GET receipts':
      return receipts(s, q);
    case 'GET calls':
      return [200, { calls: s.calls }];
    default:
      return [404, { error: 'no such control call' }];
  }
}

export function control(s: FiscalState, method: string, path: string, q: URLSearchParams, text: string): Answer {
  let body: unknown = {};
  try {
    body = text.trim() ? JSON.parse(text) : {};
  } catch {
    return bad('the body is not JSON');
  }
  if (!isObj(body)) return bad('the body must be an object');
  return answer(s, method, path, q, body);
}

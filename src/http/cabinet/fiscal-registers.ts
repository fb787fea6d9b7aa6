// The client's cash registers (decisions 27): set up (checked live, credentials sealed and never shown),
// list, read, edit, delete, a live check, the shift's Z-report now, and the shifts with their totals.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  checkRegister,
  closeShiftNow,
  createRegister,
  deleteRegister,
  getRegister,
  listRegisters,
  listShifts,
  patchRegister,
} from '../../domain/fiscal/registers.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { tenant } from '../context.ts';
import { ModeQuery as ModeProps, PageQuery } from '../params.ts';
import { receiptFor } from '../plugins/idempotency.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page } from '../schemas.ts';
import { RegisterRecord, ShiftRecord, toRegisterRecord, toShiftRecord, VatRateBps } from '../shapes/fiscal.ts';

const ModeQuery = Type.Object(ModeProps);
const Params = Type.Object({ id: Type.String({ description: 'fr_<ULID>' }) });

const Settings = {
  display_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  payment_type: Type.Optional(Type.String({ enum: ['mobile', 'card'], description: 'default mobile' })),
  vat_payer: Type.Optional(Type.Boolean()),
  vat_rate_bps: Type.Optional(VatRateBps),
  default_item_name: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  section_code: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 20 }))),
  provider_account_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  auto: Type.Optional(Type.Boolean()),
};
const Credentials = Type.Record(Type.String(), Type.String(), {
  description: "the driver's fields: webkassa {login, password, api_key?}; rekassa {password, pin, api_key?}",
});

export function fiscalRegisterRoutes(app: App, deps: Deps): void {
  const tags = ['fiscal'];
  const auth: 'jwt'[] = ['jwt'];

  route(app, {
    method: 'POST',
    url: '/me/fiscal/registers',
    auth,
    permission: 'fiscal.registers.write',
    idempotent: 'optional',
    errors: [409, 503],
    schema: {
      tags,
      summary: 'Set up a cash register (checked live first; ?mode=test takes the sandbox driver only)',
      querystring: ModeQuery,
      body: Body(
        {
          driver: Type.String({ enum: ['sandbox', 'webkassa', 'rekassa'] }),
          credentials: Credentials,
          register_number: Type.String({ minLength: 1, maxLength: 64 }),
          ...Settings,
        },
        'FiscalRegisterCreate',
      ),
      response: { 201: RegisterRecord },
    },
    handler: async (req, reply) => {
      const g = await createRegister(deps, tenant(req), req.body, receiptFor(deps, req, 201, toRegisterRecord));
      return reply.status(201).send(toRegisterRecord(g));
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/fiscal/registers',
    auth,
    permission: 'fiscal.read',
    schema: {
      tags,
      summary: 'Cash registers of the mode, newest first (cursor pages)',
      querystring: Type.Object({ ...PageQuery, ...ModeProps }),
      response: { 200: Page(RegisterRecord) },
    },
    handler: async (req) => {
      const r = await listRegisters(deps, tenant(req), {
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      });
      return { ...r, data: r.data.map(toRegisterRecord) };
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/fiscal/registers/:id',
    auth,
    permission: 'fiscal.read',
    errors: [404],
    schema: {
      tags,
      summary: 'One cash register',
      params: Params,
      querystring: ModeQuery,
      response: { 200: RegisterRecord },
    },
    handler: async (req) => toRegisterRecord(await getRegister(deps, tenant(req), req.params.id)),
  });

  route(app, {
    method: 'PATCH',
    url: '/me/fiscal/registers/:id',
    auth,
    permission: 'fiscal.registers.write',
    errors: [404, 409, 503],
    schema: {
      tags,
      summary: 'Edit a register; new credentials are checked live before they replace the old',
      params: Params,
      querystring: ModeQuery,
      body: Body({ ...Settings, credentials: Type.Optional(Credentials) }, 'FiscalRegisterPatch'),
      response: { 200: RegisterRecord },
    },
    handler: async (req) => toRegisterRecord(await patchRegister(deps, tenant(req), req.params.id, req.body)),
  });

  route(app, {
    method: 'DELETE',
    url: '/me/fiscal/registers/:id',
    auth,
    permission: 'fiscal.registers.write',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Delete a register (409 fiscal_receipts_pending while receipts wait on it)',
      params: Params,
      querystring: ModeQuery,
      response: { 204: Type.Null() },
    },
    handler: async (req, reply) => {
      await deleteRegister(deps, tenant(req), req.params.id);
      return reply.status(204).send(null);
    },
  });

  route(app, {
    method: 'POST',
    url: '/me/fiscal/registers/:id/check',
    auth,
    permission: 'fiscal.registers.write',
    errors: [404, 409, 503],
    schema: {
      tags,
      summary: "A live probe: the service's view of the register (status, shift, fiscal data operator), stored",
      params: Params,
      querystring: ModeQuery,
      body: Type.Optional(Body({})),
      response: { 200: RegisterRecord },
    },
    handler: async (req) => toRegisterRecord(await checkRegister(deps, tenant(req), req.params.id)),
  });

  route(app, {
    method: 'POST',
    url: '/me/fiscal/registers/:id/close-shift',
    auth,
    permission: 'fiscal.operate',
    errors: [404, 409, 503],
    schema: {
      tags,
      summary: "Close the register's shift now (Z-report); shift null when none was open",
      params: Params,
      querystring: ModeQuery,
      body: Type.Optional(Body({})),
      response: { 200: Type.Object({ shift: Nullable(ShiftRecord) }) },
    },
    handler: async (req) => {
      const z = await closeShiftNow(deps, tenant(req), req.params.id);
      return {
        shift: z
          ? toShiftRecord({
              number: z.shiftNumber,
              opened_at: z.openedAt,
              closed_at: z.closedAt,
              sale_count: z.saleCount,
              sale_total: z.saleTotal,
              return_count: z.returnCount,
              return_total: z.returnTotal,
              offline_count: z.offlineCount,
            })
          : null,
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/fiscal/registers/:id/shifts',
    auth,
    permission: 'fiscal.read',
    errors: [404],
    schema: {
      tags,
      summary: "The register's shifts, newest first, with their Z-report totals (cursor pages)",
      params: Params,
      querystring: Type.Object({ ...PageQuery, ...ModeProps }),
      response: { 200: Page(ShiftRecord) },
    },
    handler: async (req) => {
      const r = await listShifts(deps, tenant(req), req.params.id, {
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      });
      return { ...r, data: r.data.map(toShiftRecord) };
    },
  });
}

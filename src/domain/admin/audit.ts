// The admin audit log (decisions 23): every call of the admin API, who made it and how it ended.
import type { Db } from '../../db/db.ts';
import type { DbSecretsDeps } from '../../deps.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';

export interface AuditEntry {
  id: number;
  admin_user_id: number;
  admin_email: string;
  method: string;
  path: string;
  status: number;
  request_id: string;
  created_at: Date;
}

export async function recordAudit(db: Db, e: Omit<AuditEntry, 'id' | 'created_at'>): Promise<void> {
  await db.query(
    `INSERT INTO admin_audit (admin_user_id, admin_email, method, path, status, request_id)
      VALUES ($1, $2, $3, $4, $5, $6)`,
    [e.admin_user_id, e.admin_email, e.method, e.path.slice(0, 1000), e.status, e.request_id],
  );
}

export async function listAudit(deps: DbSecretsDeps, paging: Paging): Promise<PageResult<AuditEntry>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/admin/audit',
      filters: {},
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [];
      const where = after
        ? `WHERE (created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`
        : '';
      const r = await deps.db.query<AuditEntry>(
        `SELECT id, admin_user_id, admin_email, method, path, status, request_id, created_at FROM admin_audit ${where}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (e) => String(e.id),
  );
}

// When a register's shift must be closed (decisions 27): every day at FISCAL_SHIFT_CLOSE_AT local time
// (UTC+5), and in any case before 24 hours pass, since the services refuse every receipt after that until a
// Z-report. Pure: the moment a shift must have opened after to stay open.

/** A shift open longer than this is closed before its next receipt (ten minutes short of the services' 24 h). */
export const SHIFT_MAX_MS = 24 * 3600_000 - 10 * 60_000;
const LOCAL_OFFSET_MS = 5 * 3600_000;

/** The latest daily close moment at or before `now`. */
export function lastDailyClose(now: Date, at: { hour: number; minute: number }): Date {
  const local = new Date(now.getTime() + LOCAL_OFFSET_MS);
  const today = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate(), at.hour, at.minute);
  const moment = today <= local.getTime() ? today : today - 24 * 3600_000;
  return new Date(moment - LOCAL_OFFSET_MS);
}

/** A shift opened before this moment is due to close now. */
export function closeShiftsOpenedBefore(now: Date, at: { hour: number; minute: number }): Date {
  return new Date(Math.max(lastDailyClose(now, at).getTime(), now.getTime() - SHIFT_MAX_MS));
}

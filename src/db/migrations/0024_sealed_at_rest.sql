-- Nothing that works as a credential is readable at rest (issue 38).
--
-- A channel message that carries one (an invite link, a confirmation code) keeps its text sealed with
-- APP_SECRET for the channel driver; `body` is then the operator's copy with the credential masked. A day
-- after it is settled both give way to a short note (jobs/retention.ts).
ALTER TABLE outbox_messages ADD COLUMN body_sealed text;

-- Settled messages written before, whose text carried an invite link or a code in clear, have done their
-- job: their text goes now (the note is OUTBOX_PURGED in domain/channels/outbox.ts). Pending ones are
-- still sent as written, and purged a day after.
UPDATE outbox_messages SET body = '(text removed: it carried a one-time credential)'
 WHERE status <> 'pending' AND purpose IN ('team_invite', 'partner_invite', 'withdrawal_code', 'onboarding_code');

-- The organization's IBAN, sealed with APP_SECRET like the partner's bank details. `bank_iban` keeps only
-- values written before, until `reseal` seals them (domain/organization/reseal.ts).
ALTER TABLE organizations ADD COLUMN bank_iban_sealed text;

-- A withdrawal's confirmation code, sealed: its SHA-256 (code_hash) is read back by trying the million
-- six-digit codes. code_hash stays for codes issued before, which expire within ten minutes.
ALTER TABLE withdrawals ADD COLUMN code_sealed text;

-- What a notification is about, as facts (domain/notifications/kinds.ts): the dashboard words its title and
-- body from the type and these in the reader's language (decisions 30). Rows written before keep NULL and
-- are shown with their stored English title and body.
ALTER TABLE notifications ADD COLUMN params jsonb;

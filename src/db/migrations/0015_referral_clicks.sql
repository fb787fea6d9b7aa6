-- Each click of a referral link, with its time, so the analytics funnel counts the clicks of a period.
CREATE TABLE referral_clicks (
  id bigserial PRIMARY KEY,
  link_id bigint NOT NULL REFERENCES referral_links(id),
  partner_id bigint NOT NULL REFERENCES partners(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referral_clicks_partner_idx ON referral_clicks (partner_id, created_at);

import type { Migration } from '../migration.js';

/**
 * 1: the team store: consents, events, reference, data, audit, jobs, sync state
 *
 * Shipped: never edited (test/unit/migrations-frozen.test.ts holds its hash); a change is a new migration.
 */
export const migration: Migration = {
  version: 1,
  name: 'the team store: consents, events, reference, data, audit, jobs, sync state',
  up: String.raw`
CREATE TABLE consents (
  consent_id   text COLLATE "C" PRIMARY KEY,
  payload      jsonb NOT NULL,
  payload_hash text NOT NULL,
  synced_at    text NOT NULL,
  search       tsvector NOT NULL,
  status text COLLATE "C" GENERATED ALWAYS AS (payload->>'status') STORED,
  consumer_email text COLLATE "C" GENERATED ALWAYS AS (payload->>'consumerEmail') STORED,
  data_holder_name text COLLATE "C" GENERATED ALWAYS AS (payload->>'dataHolderName') STORED,
  data_holder_brand_id text COLLATE "C" GENERATED ALWAYS AS (payload->>'dataHolderBrandId') STORED,
  use_case_id text COLLATE "C" GENERATED ALWAYS AS (payload->'useCase'->>'id') STORED,
  use_case_name text COLLATE "C" GENERATED ALWAYS AS (payload->'useCase'->>'name') STORED,
  created text COLLATE "C" GENERATED ALWAYS AS (payload->>'created') STORED,
  sharing_end_date text COLLATE "C" GENERATED ALWAYS AS (payload->>'sharingEndDate') STORED,
  revoked text COLLATE "C" GENERATED ALWAYS AS (payload->>'revoked') STORED,
  version integer GENERATED ALWAYS AS (CASE WHEN jsonb_typeof(payload->'version') = 'number' AND payload->>'version' ~ '^-?[0-9]{1,9}$' THEN (payload->>'version')::integer END) STORED,
  cdr_arrangement_id text COLLATE "C" GENERATED ALWAYS AS (payload->>'cdrArrangementId') STORED,
  consumer_id text COLLATE "C" GENERATED ALWAYS AS (payload->>'consumerId') STORED,
  consumer_mobile text COLLATE "C" GENERATED ALWAYS AS (payload->>'consumerMobileNumber') STORED,
  external_id text COLLATE "C" GENERATED ALWAYS AS (payload->>'externalId') STORED,
  post_usage_action text COLLATE "C" GENERATED ALWAYS AS (payload->>'postUsageAction') STORED,
  access_frequency text COLLATE "C" GENERATED ALWAYS AS (payload->'useCase'->>'accessFrequency') STORED,
  direct_marketing boolean GENERATED ALWAYS AS (CASE WHEN jsonb_typeof(payload->'directMarketingAllowed') = 'boolean' THEN (payload->'directMarketingAllowed')::boolean END) STORED,
  first_data_collection text COLLATE "C" GENERATED ALWAYS AS (payload->>'firstDataCollection') STORED
) WITH (toast_tuple_target = 1024);
ALTER TABLE consents ALTER COLUMN search SET STORAGE MAIN;
CREATE INDEX consents_sort_created_asc ON consents ((created) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_created_desc ON consents ((created) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_sharing_end_date_asc ON consents ((sharing_end_date) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_sharing_end_date_desc ON consents ((sharing_end_date) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_revoked_asc ON consents ((revoked) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_revoked_desc ON consents ((revoked) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_first_data_collection_asc ON consents ((first_data_collection) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_first_data_collection_desc ON consents ((first_data_collection) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_status_asc ON consents ((status) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_status_desc ON consents ((status) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_consumer_email_asc ON consents ((lower(consumer_email)) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_consumer_email_desc ON consents ((lower(consumer_email)) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_consumer_mobile_asc ON consents ((consumer_mobile) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_consumer_mobile_desc ON consents ((consumer_mobile) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_consumer_id_asc ON consents ((consumer_id) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_consumer_id_desc ON consents ((consumer_id) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_data_holder_name_asc ON consents ((lower(data_holder_name)) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_data_holder_name_desc ON consents ((lower(data_holder_name)) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_use_case_name_asc ON consents ((lower(use_case_name)) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_use_case_name_desc ON consents ((lower(use_case_name)) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_access_frequency_asc ON consents ((access_frequency) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_access_frequency_desc ON consents ((access_frequency) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_post_usage_action_asc ON consents ((post_usage_action) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_post_usage_action_desc ON consents ((post_usage_action) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_direct_marketing_allowed_asc ON consents ((direct_marketing) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_direct_marketing_allowed_desc ON consents ((direct_marketing) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_external_id_asc ON consents ((lower(external_id)) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_external_id_desc ON consents ((lower(external_id)) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_cdr_arrangement_id_asc ON consents ((cdr_arrangement_id) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_cdr_arrangement_id_desc ON consents ((cdr_arrangement_id) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_sort_version_asc ON consents ((version) ASC NULLS LAST, consent_id ASC);
CREATE INDEX consents_sort_version_desc ON consents ((version) DESC NULLS LAST, consent_id DESC);
CREATE INDEX consents_by_holder_id ON consents (data_holder_brand_id);
CREATE INDEX consents_by_use_case_id ON consents (use_case_id);
CREATE INDEX consents_search ON consents USING gin (search);
CREATE TABLE consent_versions (
  consent_id text COLLATE "C" NOT NULL,
  version    integer,
  hash       text COLLATE "C" NOT NULL,
  payload    jsonb NOT NULL,
  seen_at    text COLLATE "C" NOT NULL,
  PRIMARY KEY (consent_id, hash)
);
CREATE TABLE use_cases (
  id        text COLLATE "C" PRIMARY KEY,
  payload   jsonb NOT NULL,
  combined  jsonb,
  synced_at text NOT NULL,
  ord       integer NOT NULL,
  name text COLLATE "C" GENERATED ALWAYS AS (payload->>'name') STORED
);
CREATE TABLE data_holders (
  data_holder_brand_id text COLLATE "C" PRIMARY KEY,
  brand_name           text COLLATE "C",
  logo_uri             text,
  synced_at            text NOT NULL,
  ord                  integer NOT NULL
);


CREATE TABLE events (
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  event_id     text PRIMARY KEY,
  consent_id   text NOT NULL,
  event_type   text NOT NULL,
  at           timestamptz NOT NULL,
  event_detail text,
  detail_key   text,
  payload      jsonb NOT NULL
);
CREATE INDEX events_by_time ON events (at, seq) INCLUDE (event_type);
CREATE INDEX events_by_type ON events (event_type, at, seq) INCLUDE (consent_id);
CREATE INDEX events_by_consent ON events (consent_id, at, seq);
CREATE INDEX events_failures ON events (detail_key, at, seq) INCLUDE (consent_id, event_type) WHERE detail_key IS NOT NULL;


-- SQLite's CAST(round(CAST(x AS REAL) * 100) AS INTEGER) (balances; transactions' is sqliteCents): the longest number at the start of the
-- text (0 when none), times 100 in double precision, rounded half away from zero.
CREATE FUNCTION cdr_cents(t text) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
  SELECT (sign(v) * trunc(abs(v) + 0.5))::bigint
  FROM (SELECT coalesce(substring(t FROM '^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)')::double precision, 0) * 100 AS v) s
$$;
-- SQLite's lower() and LIKE fold ASCII letters only.
CREATE FUNCTION cdr_lower_ascii(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
  SELECT translate(t, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
$$;

CREATE TABLE data_records (
  kind         text COLLATE "C" NOT NULL,
  record_id    text COLLATE "C" NOT NULL,
  consent_id   text COLLATE "C",
  shape        text COLLATE "C",
  raw          json NOT NULL,
  normalized   json,
  notes        json,
  fetched_at   text COLLATE "C" NOT NULL,
  deidentified boolean NOT NULL DEFAULT false,
  -- transactions only, set by storeData from the payload (txColumns), cleared by de-identification:
  -- the description's words (data-text.ts) and what the browser filters and sorts on
  tx_words     tsvector,
  tx_account   text COLLATE "C",
  tx_status    text COLLATE "C",
  tx_type      text COLLATE "C",
  tx_at        text COLLATE "C",   -- postingDateTime, else executionDateTime, else valueDateTime
  tx_cents     bigint,
  PRIMARY KEY (kind, record_id)
);
CREATE INDEX data_records_by_consent ON data_records (consent_id, kind, record_id) INCLUDE (fetched_at);
CREATE INDEX data_records_tx_by_time ON data_records (consent_id, tx_at DESC NULLS LAST, record_id DESC)
  WHERE kind = 'transactions';
CREATE INDEX data_records_tx_running ON data_records (consent_id, tx_account, tx_at DESC NULLS LAST, record_id DESC)
  INCLUDE (tx_status, tx_type, tx_cents) WHERE kind = 'transactions';
CREATE INDEX data_records_tx_words ON data_records USING gin (tx_words) WHERE kind = 'transactions';

CREATE TABLE product_versions (
  seq        bigint GENERATED ALWAYS AS IDENTITY,
  record_id  text COLLATE "C" NOT NULL,
  hash       text COLLATE "C" NOT NULL,  -- sha256 of the payload as sent
  shape      text COLLATE "C",
  raw        json NOT NULL,
  normalized json,
  notes      json,
  seen_at    text COLLATE "C" NOT NULL,  -- the first sync that saw this version
  PRIMARY KEY (record_id, hash)
);
CREATE INDEX product_versions_by_record ON product_versions (record_id, seen_at, seq);

CREATE TABLE retention_log (
  seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  consent_id text NOT NULL,
  action     text NOT NULL,
  records    integer NOT NULL,
  kinds      text NOT NULL,
  reason     text NOT NULL,
  at         text NOT NULL
);
CREATE INDEX retention_log_by_consent ON retention_log (consent_id, seq);


CREATE TABLE audit_log (
  chain     text NOT NULL DEFAULT 'team',
  seq       bigint NOT NULL,
  at        text NOT NULL,
  operator  text NOT NULL,
  action    text NOT NULL,
  target    text,
  reason    text,
  result    text NOT NULL,
  prev_hash text NOT NULL,
  hash      text NOT NULL,
  client    text,
  PRIMARY KEY (chain, seq)
);
CREATE INDEX audit_log_by_target ON audit_log (target, chain, seq);
CREATE INDEX audit_log_by_at ON audit_log (at);
CREATE TABLE audit_chains (
  chain       text PRIMARY KEY,
  origin      text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  entries     bigint NOT NULL,
  head_hash   text NOT NULL
);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();


CREATE TABLE action_jobs (
  job_id   text PRIMARY KEY,
  kind     text NOT NULL,
  created  text NOT NULL,
  operator text NOT NULL,
  reason   text NOT NULL,
  owner    text,
  owner_seen timestamptz
);
CREATE TABLE action_job_items (
  job_id     text NOT NULL REFERENCES action_jobs (job_id),
  seq        integer NOT NULL,
  consent_id text NOT NULL,
  status     text NOT NULL DEFAULT 'pending',
  detail     text,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX action_job_items_pending ON action_job_items (job_id) WHERE status = 'pending';


CREATE TABLE sync_state (
  key   text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE team_instances (
  instance_id text PRIMARY KEY,
  host        text NOT NULL,
  pid         integer NOT NULL,
  account     text NOT NULL,
  url         text,
  started     timestamptz NOT NULL,
  seen        timestamptz NOT NULL,
  syncing     boolean NOT NULL DEFAULT false
);
-- What one server tells the others' consoles (live.ts): NOTIFY carries the sequence number only,
-- and a server that reconnects catches up from here (NOTIFY has no replay). Kept a few minutes.
CREATE TABLE team_notices (
  seq     bigserial PRIMARY KEY,
  origin  text NOT NULL,
  event   text NOT NULL,
  payload jsonb NOT NULL,
  at      timestamptz NOT NULL DEFAULT now()
);
`,
};

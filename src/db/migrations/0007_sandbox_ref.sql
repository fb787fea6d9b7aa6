-- The sandbox payer's page (/sandbox/qr/{ref}) finds a test payment by its provider reference.
CREATE INDEX operations_test_ref_idx ON operations (provider_ref) WHERE mode = 'test';

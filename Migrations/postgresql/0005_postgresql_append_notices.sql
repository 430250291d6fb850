-- NavStore schema for PostgreSQL, version 5: a notice on the channel navstore_appends from every
-- transaction that appends to the log or removes from it (DESIGN §16), so that a follower
-- (`navdb follow`) that LISTENs wakes at the commit instead of polling. The notice is sent by the
-- append's own statement, in its transaction: PostgreSQL delivers it at the commit, and not at
-- all on a rollback. Its payload is the schema's name (one channel per database), and notices of
-- one transaction with the same payload are delivered once.
CREATE FUNCTION navstore_append_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('navstore_appends', current_schema());
    RETURN NULL;
END
$$;

CREATE TRIGGER events_append_notice AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION navstore_append_notice();

CREATE TRIGGER removed_events_append_notice AFTER INSERT ON removed_events
    FOR EACH STATEMENT EXECUTE FUNCTION navstore_append_notice();

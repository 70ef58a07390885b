// The engine's PostgreSQL describer selects catalog columns of the internal one-byte `"char"` type
// (OID 18, e.g. pg_class.relkind). adapter-pg 7.10 has no column type for it and fails the whole
// introspection with "Column type 'char' could not be deserialized" (pitfall 1). Its text value is
// exactly what the engine expects, so this client relabels such columns as `text` before pg builds
// the result: every pool of the migration adapters is created with it.
import pg from 'pg';

const CHAR_OID = 18;
const TEXT_OID = 25;

interface RowDescription {
  fields: Array<{ dataTypeID: number }>;
}

export class CharAsTextClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // Runs before the client's own rowDescription handler, which hands the fields to the query.
    this.connection.prependListener('rowDescription', (message: RowDescription) => {
      for (const field of message.fields) {
        if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
      }
    });
  }
}

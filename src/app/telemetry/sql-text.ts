// What a SQL span may say about its statement. Parameter values never reach a span (they travel
// apart from the text); literals written into the text itself are replaced with `?`, comments are
// dropped, so a statement that inlined a value still records no value. Quoted identifiers and $n
// placeholders stay as written.
export interface StatementFacts {
  /** the text, literals replaced with `?`, at most MAX_TEXT characters */
  text: string;
  /** first keyword, upper case (SELECT, INSERT, BEGIN, …) */
  operation: string;
  /** the table a plain SELECT/INSERT/UPDATE/DELETE names first, unquoted */
  table: string | null;
  /** the span name: `<operation> <table>` or the operation */
  summary: string;
}

const MAX_TEXT = 4096;
// alternatives, in order: quoted identifier (kept), E'…' string, '…' string, dollar-quoted string,
// $n placeholder (kept), line comment, block comment, number (not part of a word)
const TOKEN = /("(?:[^"]|"")*"?)|(\b[eE]'(?:[^'\\]|\\[\s\S]|'')*'?)|('(?:[^']|'')*'?)|(\$([A-Za-z_]\w*)?\$[\s\S]*?\$\5\$)|(\$\d+)|(--[^\n]*)|(\/\*[\s\S]*?(?:\*\/|$))|(\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)/g;
const NAME = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)(?:\s*\.\s*(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*))?`;
// the first table a plain statement names; after FROM or UPDATE a name followed by `(` is a
// function (FROM unnest(…)), after INSERT INTO it is the column list
const TABLE = new RegExp(String.raw`^\s*(?:(?:SELECT\b[\s\S]*?\bFROM|UPDATE|DELETE\s+FROM)\s+(${NAME})(?![\w$"]|\s*[.(])|INSERT\s+INTO\s+(${NAME})(?![\w$"]|\s*\.))`, 'i');

/** Replaces every literal of `sql` with `?` and drops its comments. */
export function sanitizeSql(sql: string): string {
  return sql.replace(TOKEN, (match, identifier, _e, _string, _dollar, _tag, placeholder, lineComment, blockComment) => {
    if (identifier || placeholder) return match;
    return lineComment || blockComment ? ' ' : '?';
  });
}

const cache = new Map<string, StatementFacts>();
const CACHE_SIZE = 1000;

/** The facts of a statement text; the same texts come back all the time, so they are kept. */
export function statementFacts(sql: string): StatementFacts {
  let facts = cache.get(sql);
  if (facts) return facts;
  const clean = sanitizeSql(sql).trim();
  const operation = (/^[(\s]*([A-Za-z]+)/.exec(clean)?.[1] ?? 'SQL').toUpperCase();
  const match = TABLE.exec(clean);
  const found = match?.[1] ?? match?.[2];
  const table = found ? found.replace(/"((?:[^"]|"")+)"/g, (_m, name: string) => name.replace(/""/g, '"')).replace(/\s+/g, '') : null;
  facts = {
    text: clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1)}…` : clean,
    operation,
    table,
    summary: table ? `${operation} ${table}` : operation,
  };
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(sql, facts);
  return facts;
}

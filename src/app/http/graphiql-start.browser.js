// Runs in the browser, before the GraphiQL bundle (it must set MonacoEnvironment first): starts
// GraphiQL with a fetcher of our own, because Yoga's own sends the headers typed in the headers
// editor with HTTP requests only, while this server authenticates a graphql-ws connection by its
// connection_init payload. Queries and mutations go over HTTP with those headers; subscriptions
// over graphql-ws on the same endpoint, with those headers as connectionParams.
/* global graphqlWs, YogaGraphiQL */
(() => {
  'use strict';
  const root = document.getElementById('graphiql');
  const { assets, endpoint, graphiql } = JSON.parse(root.dataset.config);

  // the editor's workers are served beside this script, same origin, so no blob: indirection
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_moduleId, label) => assets.workers[label] ?? assets.workers.editorWorkerService,
  };

  const httpUrl = new URL(endpoint, location.href).toString();
  const wsUrl = httpUrl.replace(/^http/, 'ws');

  /** The headers editor's entries worth sending: the untouched template ("Bearer ", "") is not a credential. */
  function credentialHeaders(headers) {
    const sent = {};
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (typeof value !== 'string' || value.trim() === '' || /^bearer\s*$/i.test(value.trim())) continue;
      // the server reads these two connectionParams by their exact names
      if (/^authorization$/i.test(name)) sent.authorization = value;
      else if (/^x-team-id$/i.test(name)) sent['X-Team-Id'] = value;
      else sent[name] = value;
    }
    return sent;
  }

  /**
   * The kind of the operation to run (query, mutation, subscription), read from the text itself:
   * GraphiQL's own parse of the editor (documentAST) can lag behind the latest keystrokes.
   */
  function operationKind(query, operationName) {
    // strings and comments out, so that no brace or word inside them counts
    const source = query.replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, ' ');
    const definitions = [];
    let depth = 0;
    let header = null;
    for (const [token] of source.matchAll(/[{}()[\]]|@?[_A-Za-z][_0-9A-Za-z]*/g)) {
      if (token === '{') {
        if (depth === 0) {
          definitions.push(header ?? { kind: 'query' });
          header = null;
        }
        depth++;
      } else if (token === '(' || token === '[') depth++;
      else if (token === '}' || token === ')' || token === ']') depth--;
      else if (depth === 0 && !token.startsWith('@')) {
        if (!header) header = { kind: token };
        else header.name ??= token;
      }
    }
    const operations = definitions.filter((d) => d.kind !== 'fragment');
    const chosen = operationName ? operations.find((d) => d.name === operationName) : operations.length === 1 ? operations[0] : undefined;
    return chosen?.kind;
  }

  // one socket per set of credentials: new headers open a new connection with them
  let socket = null;
  function socketFor(connectionParams) {
    const key = JSON.stringify(connectionParams);
    if (socket?.key !== key) {
      socket?.client.dispose();
      socket = { key, client: graphqlWs.createClient({ url: wsUrl, connectionParams, lazy: true, retryAttempts: 0 }) };
    }
    return socket.client;
  }

  async function overHttp(params, headers) {
    const response = await fetch(httpUrl, {
      method: 'POST',
      credentials: 'omit',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query: params.query, variables: params.variables ?? undefined, operationName: params.operationName ?? undefined }),
    });
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return { errors: [{ message: `HTTP ${response.status}: ${text.slice(0, 500)}` }] };
    }
  }

  /** Subscription results as GraphiQL takes them: an async iterable, closed when GraphiQL stops it. */
  async function* overWebSocket(params, headers) {
    const client = socketFor(headers);
    try {
      yield* client.iterate({ query: params.query, variables: params.variables ?? undefined, operationName: params.operationName ?? undefined });
    } catch (error) {
      // a refused credential closes the socket (4403): show that as a result, not "[object CloseEvent]"
      const message = error instanceof CloseEvent ? `The connection closed: ${error.code} ${error.reason}`.trim() : String(error?.message ?? error);
      yield { errors: Array.isArray(error) ? error : [{ message }] };
    }
  }

  function fetcher(params, options) {
    const headers = credentialHeaders(options?.headers);
    return operationKind(params.query, params.operationName) === 'subscription' ? overWebSocket(params, headers) : overHttp(params, headers);
  }

  addEventListener('DOMContentLoaded', () => {
    root.textContent = '';
    YogaGraphiQL.renderYogaGraphiQL(root, { ...graphiql, fetcher });
  });
})();

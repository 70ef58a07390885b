// The lines `svc oauth-clients` adds to `svc help` (and prints on a usage mistake).
export const OAUTH_CLIENTS_USAGE = `  oauth-clients create --name <name> --redirect-uri <uri> [--redirect-uri <uri> …]
         [--first-party] [--allow team-assistant] [--allow svc-spaces] [--confidential]
                           register a client of the OAuth authorization server; prints one JSON
                           line: clientId, and clientSecret (--confidential only, shown only here).
                           Redirect URIs: https, http on 127.0.0.1, [::1] or localhost, or a
                           private-use scheme (com.example.app:/callback); at most 10
  oauth-clients list       one JSON line per client (never its secret)
  oauth-clients revoke <clientId>
                           delete the client and every token, code and grant issued to it
    all three work on the database (DATABASE_URL, else the embedded one in DATA_DIR); the secret is
    sealed with DATA_DIR's secrets key. Exit 0 done, 1 refused (invalid input, unknown client), 2 usage.
`;
